//! The call graph: which project method a call site targets, and who calls a method.
//!
//! A call is resolved by name, argument count and, where declarations allow, the receiver's static
//! type: `this`/no receiver → the enclosing types and their supertypes; a local, parameter or field →
//! its declared type; `Type.m()` → that type; `super.m()` → the supertypes; `a().b()` → the return
//! type of `a()` if that resolves. Overloads with the same arity are told apart by argument types
//! when literals and declared variables make them evident.
//!
//! The model never guesses: a call it cannot pin down is [`Resolution::Unresolved`] with the reason,
//! and an overload it cannot decide is [`Resolution::Ambiguous`] with the candidates. Callers are
//! searched only in files whose text contains the method's name.

use rayon::prelude::*;
use serde::Serialize;

use super::hierarchy::same_signature;
use super::project::{FileId, MethodId, Project, TypeId};
use super::symbols::{ArgHint, CallKind, CallSite, MethodDecl, Receiver, TypeName};

/// Where a call goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Resolution {
    /// Exactly one project method.
    Resolved { method: MethodId },
    /// Several project methods fit (overloads the argument types do not separate).
    Ambiguous { candidates: Vec<MethodId> },
    /// Not a project method, or the model cannot tell which: `text` is the call as written.
    Unresolved { text: String, reason: String },
}

/// A class that may provide a method called without a receiver ([`Project::implicit_providers`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// It, or a project supertype of it, declares a method of that name.
    Declares(TypeId),
    /// It declares none, but a supertype outside the project may.
    MayInherit(TypeId),
}

/// One call of a method's body and where it goes.
#[derive(Debug, Clone, Serialize)]
pub struct Callee {
    /// Index into the caller's [`MethodDecl::calls`].
    pub call: usize,
    pub resolution: Resolution,
}

/// One call site that targets a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Caller {
    pub method: MethodId,
    /// Index into the calling method's [`MethodDecl::calls`].
    pub call: usize,
    /// `false` when the call is ambiguous between the target and other overloads.
    pub certain: bool,
}

/// The static type of a receiver or argument, as far as the project knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Typed {
    Project(TypeId),
    /// A declared type outside the project (or an array, or a primitive): its text.
    External(String),
    /// A variable without a written type (`var`, lambda parameters).
    Untyped,
    /// No variable of that name is visible.
    Unknown,
}

/// The static type of a call's receiver as the model sees it, for refactorings that must decide
/// whether a call it could not resolve might still reach a project method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReceiverType {
    /// No receiver, `this` or `super`: the enclosing types are searched.
    Enclosing,
    Project(TypeId),
    /// A declared type outside the project (or an array, a primitive, a type variable): its text.
    External(String),
    /// A name that is neither a visible variable nor a project type (`Math`, `System.out`, or a field
    /// inherited from a supertype outside the project): the name as written.
    UnknownName(String),
    /// A variable without a written type, or an expression whose type the model cannot compute.
    Unknown,
}

const PRIMITIVES: [&str; 8] = ["byte", "short", "char", "int", "long", "float", "double", "boolean"];

impl Project {
    /// Every call in a method's body, resolved.
    pub fn callees(&self, method: MethodId) -> Vec<Callee> {
        (0..self.method(method).calls.len())
            .map(|call| Callee { call, resolution: self.resolve_call(method, call) })
            .collect()
    }

    /// The text of a call site, on one line, shortened to 120 characters.
    pub fn call_text(&self, method: MethodId, call: usize) -> String {
        let site = &self.method(method).calls[call];
        let text = self.method_source(method).slice(&site.span);
        let mut one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if one_line.chars().count() > 120 {
            one_line = one_line.chars().take(117).collect::<String>() + "...";
        }
        one_line
    }

    /// Where call number `call` of `method` goes.
    pub fn resolve_call(&self, method: MethodId, call: usize) -> Resolution {
        let decl = self.method(method);
        let site = &decl.calls[call];
        let owner = self.owner(method);
        let unresolved = |reason: String| Resolution::Unresolved { text: self.call_text(method, call), reason };
        match site.kind {
            CallKind::New => {
                let file = method.file();
                let Some(ty) = self.resolve_type(file, Some(owner.index()), &site.name) else {
                    return unresolved(format!("`{}` is not a project type", site.name));
                };
                let ctors: Vec<MethodId> =
                    self.methods_of(ty).into_iter().filter(|&m| self.method(m).is_constructor()).collect();
                if ctors.is_empty() {
                    return unresolved(format!("`{}` has only its implicit constructor", site.name));
                }
                self.choose(method, site, ctors, &format!("no constructor of `{}` takes these arguments", site.name))
            }
            CallKind::ThisConstructor => {
                let ctors = self.methods_of(owner).into_iter().filter(|&m| self.method(m).is_constructor()).collect();
                self.choose(method, site, ctors, "no matching constructor in this class")
            }
            CallKind::SuperConstructor => {
                let Some(sup) = self.superclass(owner) else {
                    return unresolved("the superclass is not a project type".into());
                };
                let ctors: Vec<MethodId> =
                    self.methods_of(sup).into_iter().filter(|&m| self.method(m).is_constructor()).collect();
                if ctors.is_empty() {
                    return unresolved("the superclass has only its implicit constructor".into());
                }
                self.choose(method, site, ctors, "no matching superclass constructor")
            }
            CallKind::Method | CallKind::MethodRef => self.resolve_method_call(method, call, site),
        }
    }

    fn resolve_method_call(&self, method: MethodId, call: usize, site: &CallSite) -> Resolution {
        let owner = self.owner(method);
        let unresolved = |reason: String| Resolution::Unresolved { text: self.call_text(method, call), reason };
        let name = site.name.as_str();
        let found: Vec<MethodId> = match &site.receiver {
            Receiver::Implicit => {
                let mut scope = Some(owner);
                let mut found = Vec::new();
                while let Some(t) = scope {
                    found = self.methods_named(t, name);
                    if !found.is_empty() {
                        break;
                    }
                    scope = self.type_decl(t).parent.map(|p| self.type_id(t.file().index() as u32, p));
                }
                if found.is_empty() {
                    found = self.static_imports(method, name);
                }
                if found.is_empty() {
                    let external = self.external_supertypes(owner);
                    return unresolved(if external.is_empty() {
                        format!("no method `{name}` is declared in scope")
                    } else {
                        format!("not declared in the project; may be inherited from {}", external.join(", "))
                    });
                }
                found
            }
            Receiver::This => self.methods_named(owner, name),
            Receiver::Super => {
                let sups = self.direct_supertype_ids(owner);
                let mut found = Vec::new();
                for s in sups.into_iter().flatten() {
                    for m in self.methods_named(s, name) {
                        if !found.contains(&m) {
                            found.push(m);
                        }
                    }
                }
                if found.is_empty() {
                    return unresolved(format!("`super.{name}` is not declared in a project supertype"));
                }
                found
            }
            Receiver::Name(n) => match self.type_of_name(method, site.span.start_byte, n) {
                Typed::Project(t) => self.methods_named(t, name),
                Typed::External(ty) => return unresolved(format!("`{n}` has type `{ty}`, outside the project")),
                Typed::Untyped => return unresolved(format!("`{n}` has no declared type")),
                Typed::Unknown => return unresolved(format!("`{n}` is not a variable or type the project declares")),
            },
            Receiver::Expr => match self.type_of_expr(method, site) {
                Typed::Project(t) => self.methods_named(t, name),
                Typed::External(ty) => return unresolved(format!("the receiver has type `{ty}`, outside the project")),
                _ => return unresolved("the receiver expression's type is not known".into()),
            },
        };
        if found.is_empty() {
            return unresolved(format!("no method `{name}` in the receiver's type or its project supertypes"));
        }
        self.choose(method, site, found, &format!("no `{name}` takes {} arguments", site.arg_count().unwrap_or(0)))
    }

    /// Narrows same-named candidates by arity, then by argument types.
    fn choose(&self, method: MethodId, site: &CallSite, found: Vec<MethodId>, none: &str) -> Resolution {
        let mut cands: Vec<MethodId> = match site.arg_count() {
            Some(n) => found.into_iter().filter(|&m| self.method(m).accepts_arity(n)).collect(),
            None => found,
        };
        if let Some(args) = &site.args
            && cands.len() > 1
        {
            let hints: Vec<Option<String>> = args.iter().map(|a| self.arg_type(method, site, a)).collect();
            let scored: Vec<(MethodId, usize)> =
                cands.iter().filter_map(|&m| score(self.method(m), &hints).map(|s| (m, s))).collect();
            if !scored.is_empty() {
                let best = scored.iter().map(|x| x.1).max().unwrap_or(0);
                let top: Vec<MethodId> = scored.iter().filter(|x| x.1 == best).map(|x| x.0).collect();
                cands = if top.len() == 1 { top } else { scored.into_iter().map(|x| x.0).collect() };
            }
        }
        match cands.len() {
            0 => Resolution::Unresolved { text: self.call_text_of(method, site), reason: none.to_string() },
            1 => Resolution::Resolved { method: cands[0] },
            _ => Resolution::Ambiguous { candidates: cands },
        }
    }

    fn call_text_of(&self, method: MethodId, site: &CallSite) -> String {
        let idx = self.method(method).calls.iter().position(|c| std::ptr::eq(c, site)).unwrap_or(0);
        self.call_text(method, idx)
    }

    /// Methods called `name` in `ty` and its supertypes, an override hiding what it overrides.
    fn methods_named(&self, ty: TypeId, name: &str) -> Vec<MethodId> {
        let mut out: Vec<MethodId> = Vec::new();
        for t in std::iter::once(ty).chain(self.supertypes(ty)) {
            for m in self.methods_of(t) {
                let d = self.method(m);
                if d.name == name && !d.is_constructor() && !out.iter().any(|&o| same_signature(self.method(o), d)) {
                    out.push(m);
                }
            }
        }
        out
    }

    /// The classes that may provide a method `name` called without a receiver in `ty`: `ty`, then
    /// the classes enclosing it, innermost first. Java takes the innermost class that has a method
    /// of that name, declared or inherited, so a class that declares one ends the list, and one
    /// that may inherit it from outside the project is listed and the search goes on past it.
    /// Static imports are not looked at.
    pub fn implicit_providers(&self, ty: TypeId, name: &str) -> Vec<Provider> {
        let mut out = Vec::new();
        let mut scope = Some(ty);
        while let Some(t) = scope {
            if !self.methods_named(t, name).is_empty() {
                out.push(Provider::Declares(t));
                break;
            }
            if !self.external_supertypes(t).is_empty() {
                out.push(Provider::MayInherit(t));
            }
            scope = self.enclosing_type(t);
        }
        out
    }

    /// `import static a.B.name;` and `import static a.B.*;`.
    fn static_imports(&self, method: MethodId, name: &str) -> Vec<MethodId> {
        let syms = self.symbols_of(self.owner(method));
        for imp in syms.imports.iter().filter(|i| i.is_static) {
            let ty = if imp.wildcard {
                imp.path.as_str()
            } else {
                match imp.path.rsplit_once('.') {
                    Some((ty, member)) if member == name => ty,
                    _ => continue,
                }
            };
            if let Some(t) = self.find_type(ty) {
                let found: Vec<MethodId> =
                    self.methods_named(t, name).into_iter().filter(|&m| self.method(m).is_static()).collect();
                if !found.is_empty() {
                    return found;
                }
            }
        }
        Vec::new()
    }

    /// The type of `name` (a variable, `this.x`, `a.b` field chain, or a type name) at byte `at`.
    fn type_of_name(&self, method: MethodId, at: usize, name: &str) -> Typed {
        let owner = self.owner(method);
        let mut segs = name.split('.');
        let first = segs.next().unwrap_or("");
        let rest: Vec<&str> = segs.collect();
        let mut typed = if first == "this" {
            Typed::Project(owner)
        } else {
            match self.type_of_variable(method, at, first) {
                Typed::Unknown => {
                    // not a variable: a type (`Util.m()`, `Outer.Inner.m()`, `a.b.C.m()`)
                    return match self.resolve_type(method.file(), Some(owner.index()), name) {
                        Some(t) => Typed::Project(t),
                        None => Typed::Unknown,
                    };
                }
                t => t,
            }
        };
        for field in rest {
            typed = match typed {
                Typed::Project(t) => self.type_of_field(t, field),
                other => return other,
            };
        }
        typed
    }

    /// Locals (innermost visible), then parameters, then fields of the enclosing types.
    fn type_of_variable(&self, method: MethodId, at: usize, name: &str) -> Typed {
        let decl = self.method(method);
        let owner = self.owner(method);
        let local = decl
            .locals
            .iter()
            .filter(|l| l.name == name && l.scope.start_byte <= at && at < l.scope.end_byte)
            .max_by_key(|l| l.scope.start_byte);
        if let Some(l) = local {
            return match &l.ty {
                Some(ty) => self.typed(owner, ty),
                None => Typed::Untyped,
            };
        }
        if let Some(p) = decl.params.iter().find(|p| p.name == name) {
            return self.typed(owner, &p.ty);
        }
        let mut scope = Some(owner);
        while let Some(t) = scope {
            match self.type_of_field(t, name) {
                Typed::Unknown => {}
                found => return found,
            }
            // a local or anonymous class sees the enclosing method's locals and parameters
            if let Some(m) = self.type_decl(t).enclosing_method {
                let enclosing = self.method_id(t.file().index() as u32, m);
                return self.type_of_variable(enclosing, self.type_decl(t).span.start_byte, name);
            }
            scope = self.type_decl(t).parent.map(|p| self.type_id(t.file().index() as u32, p));
        }
        Typed::Unknown
    }

    /// A field of `ty` or of its supertypes.
    fn type_of_field(&self, ty: TypeId, name: &str) -> Typed {
        for t in std::iter::once(ty).chain(self.supertypes(ty)) {
            if let Some(f) = self.type_decl(t).fields.iter().find(|f| f.name == name) {
                return self.typed(t, &f.ty);
            }
        }
        Typed::Unknown
    }

    /// A declared type, resolved in the scope of the type that declares it.
    fn typed(&self, scope: TypeId, ty: &TypeName) -> Typed {
        if ty.dims > 0 || PRIMITIVES.contains(&ty.raw.as_str()) {
            return Typed::External(ty.erased());
        }
        match self.resolve_type(scope.file(), Some(scope.index()), &ty.raw) {
            Some(t) => Typed::Project(t),
            None => Typed::External(ty.text.clone()),
        }
    }

    /// The type of a receiver expression that is itself a call (`a().b()`, `new T().m()`).
    fn type_of_expr(&self, method: MethodId, site: &CallSite) -> Typed {
        let Some(span) = site.receiver_span else { return Typed::Unknown };
        let calls = &self.method(method).calls;
        let Some(inner) =
            calls.iter().position(|c| c.span.start_byte == span.start_byte && c.span.end_byte == span.end_byte)
        else {
            return Typed::Unknown;
        };
        if calls[inner].kind == CallKind::New {
            return match self.resolve_type(method.file(), Some(self.owner(method).index()), &calls[inner].name) {
                Some(t) => Typed::Project(t),
                None => Typed::External(calls[inner].name.clone()),
            };
        }
        match self.resolve_call(method, inner) {
            Resolution::Resolved { method: m } => match &self.method(m).return_type {
                Some(rt) if !self.method(m).type_params.contains(&rt.raw) => self.typed(self.owner(m), rt),
                _ => Typed::Unknown,
            },
            _ => Typed::Unknown,
        }
    }

    /// The erased simple type of an argument, if evident; `"null"` for the null literal.
    fn arg_type(&self, method: MethodId, site: &CallSite, arg: &ArgHint) -> Option<String> {
        match arg {
            ArgHint::Unknown => None,
            ArgHint::Null => Some("null".into()),
            ArgHint::Type(t) => Some(t.clone()),
            ArgHint::Var(v) => match self.type_of_variable(method, site.span.start_byte, v) {
                Typed::Project(t) => Some(self.type_decl(t).name.clone()),
                Typed::External(text) => Some(erase_text(&text)),
                _ => None,
            },
        }
    }

    /// The static type of the receiver of call number `call` of `method`.
    pub fn receiver_type(&self, method: MethodId, call: usize) -> ReceiverType {
        let site = &self.method(method).calls[call];
        match &site.receiver {
            Receiver::Implicit | Receiver::This | Receiver::Super => ReceiverType::Enclosing,
            Receiver::Name(n) => match self.type_of_name(method, site.span.start_byte, n) {
                Typed::Project(t) => ReceiverType::Project(t),
                Typed::External(ty) => ReceiverType::External(ty),
                Typed::Untyped => ReceiverType::Unknown,
                Typed::Unknown => ReceiverType::UnknownName(n.clone()),
            },
            Receiver::Expr => match self.type_of_expr(method, site) {
                Typed::Project(t) => ReceiverType::Project(t),
                Typed::External(ty) => ReceiverType::External(ty),
                Typed::Untyped | Typed::Unknown => ReceiverType::Unknown,
            },
        }
    }

    /// The files that spell `needle` (the method's name) where Java's access rules let code call
    /// `method`: a private method's own file (its top-level class), a package-private class
    /// member's package, else every file.
    pub fn files_that_may_call(&self, method: MethodId, needle: &str) -> Vec<FileId> {
        let own = method.file();
        let decl = self.method(method);
        let owner = self.owner(method);
        let has = |m: &str| decl.modifiers.iter().any(|x| x == m);
        // Members of interfaces and annotations are public without saying so.
        let implicitly_public = self.type_decl(owner).kind.members_public();
        if has("private") {
            let spelled = self.file(own).is_ok_and(|f| f.source.text.contains(needle));
            return if spelled { vec![own] } else { Vec::new() };
        }
        let mut ids = self.files_containing(needle);
        if !has("public") && !has("protected") && !implicitly_public {
            let package = self.files_in_package(self.package_of(owner));
            ids.retain(|&id| id == own || package.contains(&id));
        }
        ids
    }

    /// Every call site in the project that targets `target`, searching only files that mention
    /// its name where Java lets them call it.
    pub fn callers(&self, target: MethodId) -> Vec<Caller> {
        let decl = self.method(target);
        let owner = self.owner(target);
        let owner_name = self.type_decl(owner).name.clone();
        let needle = if decl.is_constructor() { owner_name.clone() } else { decl.name.clone() };
        if needle.is_empty() {
            return Vec::new();
        }
        let mut out: Vec<Caller> = self
            .files_that_may_call(target, &needle)
            .into_par_iter()
            .flat_map_iter(|f| {
                let mut found = Vec::new();
                for m in self.methods_in(f).unwrap_or_default() {
                    for (ci, site) in self.method(m).calls.iter().enumerate() {
                        if !may_target(decl, &owner_name, site) {
                            continue;
                        }
                        match self.resolve_call(m, ci) {
                            Resolution::Resolved { method } if method == target => {
                                found.push(Caller { method: m, call: ci, certain: true })
                            }
                            Resolution::Ambiguous { candidates } if candidates.contains(&target) => {
                                found.push(Caller { method: m, call: ci, certain: false })
                            }
                            _ => {}
                        }
                    }
                }
                found
            })
            .collect();
        out.sort_by_key(|c| (c.method, c.call));
        out
    }
}

/// The cheap test before resolving: could this call site name `decl` at all?
fn may_target(decl: &MethodDecl, owner_name: &str, site: &CallSite) -> bool {
    let arity_ok = site.arg_count().is_none_or(|n| decl.accepts_arity(n));
    if !arity_ok {
        return false;
    }
    if decl.is_constructor() {
        match site.kind {
            CallKind::New => site.name.rsplit('.').next() == Some(owner_name),
            CallKind::ThisConstructor | CallKind::SuperConstructor => true,
            _ => false,
        }
    } else {
        matches!(site.kind, CallKind::Method | CallKind::MethodRef) && site.name == decl.name
    }
}

/// `List<String>` → `List`, `a.b.C[]` → `C[]`.
fn erase_text(text: &str) -> String {
    let base: String = text.split('<').next().unwrap_or(text).chars().filter(|c| !c.is_whitespace()).collect();
    let dims = text.matches('[').count();
    let simple = base.trim_end_matches("[]").rsplit('.').next().unwrap_or("").to_string();
    simple + &"[]".repeat(dims)
}

/// How well argument types fit a method: `None` if one surely does not, else the count of exact matches.
fn score(m: &MethodDecl, hints: &[Option<String>]) -> Option<usize> {
    let mut exact = 0;
    for (i, hint) in hints.iter().enumerate() {
        let Some(hint) = hint else { continue };
        let param = m.params.get(i).or(m.params.last())?;
        let mut expected = param.ty.erased();
        // a varargs slot past the fixed parameters (or not given as an array) takes the element type
        if param.varargs && (i >= m.params.len() - 1) && !hint.ends_with("[]") {
            expected.truncate(expected.len().saturating_sub(2));
        }
        if *hint == expected {
            exact += 1;
        } else if !compatible(&expected, param.generic, hint) {
            return None;
        }
    }
    Some(exact)
}

fn compatible(expected: &str, generic: bool, actual: &str) -> bool {
    let prim = |s: &str| PRIMITIVES.contains(&s);
    if actual == "null" {
        return !prim(expected);
    }
    if generic || expected == "Object" {
        return true;
    }
    match (prim(expected), prim(actual)) {
        (true, true) => widens(actual, expected),
        (true, false) => unbox(actual) == Some(expected),
        (false, true) => {
            unbox(expected) == Some(actual) || matches!(expected, "Number" | "Comparable" | "Serializable")
        }
        // two reference types: subtyping outside the project is unknown, so only String is certain
        (false, false) => !(expected == "String" || actual == "String") || expected == actual,
    }
}

fn unbox(s: &str) -> Option<&'static str> {
    Some(match s {
        "Integer" => "int",
        "Long" => "long",
        "Double" => "double",
        "Float" => "float",
        "Boolean" => "boolean",
        "Character" => "char",
        "Short" => "short",
        "Byte" => "byte",
        _ => return None,
    })
}

fn widens(from: &str, to: &str) -> bool {
    const ORDER: [&str; 6] = ["byte", "short", "int", "long", "float", "double"];
    if from == to {
        return true;
    }
    if from == "char" {
        return matches!(to, "int" | "long" | "float" | "double");
    }
    match (ORDER.iter().position(|x| *x == from), ORDER.iter().position(|x| *x == to)) {
        (Some(a), Some(b)) => a <= b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::java::project::tests::{project, type_named};

    fn describe(p: &Project, r: &Resolution) -> String {
        match r {
            Resolution::Resolved { method } => {
                format!("{}#{}", p.qualified_name(p.owner(*method)), p.method(*method).signature())
            }
            Resolution::Ambiguous { candidates } => format!("ambiguous({})", candidates.len()),
            Resolution::Unresolved { text, .. } => format!("unresolved: {text}"),
        }
    }

    #[test]
    fn resolves_by_receiver_type_and_never_guesses() {
        let (_d, p) = project(&[
            (
                "a/Util.java",
                "package a; public class Util { public static int twice(int x) { return 2 * x; }\n\
                 public static String twice(String s) { return s + s; } public Util self() { return this; } }",
            ),
            ("a/Base.java", "package a; public class Base { protected void hook() {} public Base(int x) {} }"),
            (
                "a/Worker.java",
                "package a; import java.util.List;\npublic class Worker extends Base {\n  private Util util;\n  \
                 Worker() { super(1); }\n  void run(List<String> items, Util u) {\n    hook();\n    \
                 Util.twice(3);\n    Util.twice(\"s\");\n    u.self().self();\n    items.add(\"x\");\n    \
                 util.twice(4);\n    helper(1);\n    new Worker();\n    super.hook();\n    this.util.self();\n    \
                 int n = 2; Util.twice(n);\n    unknownThing();\n  }\n  void helper(int x) {}\n  void helper(String s) {}\n\
                 void size() {}\n}\n",
            ),
        ]);
        let worker = type_named(&p, "Worker");
        let run = p.methods_of(worker).into_iter().find(|&m| p.method(m).name == "run").expect("run");
        let got: Vec<String> = p.callees(run).iter().map(|c| describe(&p, &c.resolution)).collect();
        assert_eq!(
            got,
            [
                "a.Base#hook()",
                "a.Util#twice(int)",
                "a.Util#twice(String)",
                "a.Util#self()",
                "a.Util#self()",
                "unresolved: items.add(\"x\")",
                "a.Util#twice(int)",
                "a.Worker#helper(int)",
                "a.Worker#Worker()",
                "a.Base#hook()",
                "a.Util#self()",
                "a.Util#twice(int)",
                "unresolved: unknownThing()",
            ]
        );
        let ctor = p.methods_of(worker)[0];
        assert_eq!(describe(&p, &p.callees(ctor)[0].resolution), "a.Base#Base(int)");
        // `items.size()` would be List.size, never Worker.size
        let hook = p.methods_of(type_named(&p, "Base"))[0];
        let callers: Vec<usize> = p.callers(hook).iter().map(|c| c.call).collect();
        assert_eq!(callers, [0, 9]);
    }

    #[test]
    fn inner_anonymous_and_lambda_calls() {
        let (_d, p) = project(&[(
            "A.java",
            "class A {\n  void outer() {}\n  class In { void f() { outer(); } }\n  \
             void g() { Runnable r = new Runnable() { public void run() { outer(); local(); } void local() {} };\n    \
             java.util.function.Supplier<In> s = () -> new In(); s.get(); }\n}\n",
        )]);
        let a = type_named(&p, "A");
        let outer = p.methods_of(a)[0];
        let callers: Vec<String> =
            p.callers(outer).iter().map(|c| p.type_decl(p.owner(c.method)).display.clone()).collect();
        assert_eq!(callers, ["A.In", "A$1"]);
        let anon = type_named(&p, "A$1");
        let run = p.methods_of(anon)[0];
        let got: Vec<String> = p.callees(run).iter().map(|c| describe(&p, &c.resolution)).collect();
        assert_eq!(got, ["A#outer()", "A$1#local()"]);
    }

    #[test]
    fn same_arity_overloads_without_evident_types_are_ambiguous() {
        let (_d, p) = project(&[(
            "A.java",
            "class A { void f(java.util.List<String> a) {} void f(java.util.Set<String> b) {} void g(Object o) { f(compute()); } }",
        )]);
        let a = type_named(&p, "A");
        let g = p.methods_of(a)[2];
        let r = &p.callees(g)[0].resolution;
        assert!(matches!(r, Resolution::Ambiguous { candidates } if candidates.len() == 2), "{r:?}");
        let f0 = p.methods_of(a)[0];
        assert_eq!(p.callers(f0), [Caller { method: g, call: 0, certain: false }]);
    }
}
