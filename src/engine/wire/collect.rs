//! The collectors: what the paste could name instead. Variables declared before the paste and in
//! scope there (locals, parameters, fields of the enclosing types and of their outer types,
//! inherited ones included), the object itself (`this`), whether each is used anywhere else, the
//! no-argument methods of the enclosing types and of the candidates' types that return a value,
//! the no-argument calls the file makes on variables of library types, and the arguments that
//! identical calls elsewhere in the file pass.

use std::collections::HashSet;

use serde::Serialize;

use super::locate::Unresolved;
use crate::engine::rename::resolve::{self, Referent, Scopes, Use, Var};
use crate::java::project::{MethodId, Project, TypeId};
use crate::java::symbols::{CallKind, TypeName};

/// Where a candidate comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Local,
    Parameter,
    Field,
    /// A field of an enclosing (outer) type.
    OuterField,
    /// A no-argument method of the enclosing types: `getOrder()`.
    Getter,
    /// A no-argument method of a candidate's type: `cart.getOrder()`.
    Chain,
    /// The object whose method holds the paste: code written on an `order` now inside `Order`.
    This,
}

/// One expression the paste could name.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The text to write: `items`, `this.count`, `getOrder()`, `cart.getOrder()`.
    pub expr: String,
    /// The simple name the candidate is known by (a getter's name for getters).
    pub name: String,
    pub source: Source,
    pub ty: Option<TypeName>,
    /// Declared in the enclosing method and never used outside the paste.
    pub unused: bool,
    /// Lines between its declaration and the paste (0 for fields and getters).
    pub distance: usize,
    /// A `static final` field.
    pub constant: bool,
    /// A line where the file itself writes this expression (a call seen on a variable whose type
    /// the project does not declare), the evidence that it exists.
    pub seen_at: Option<usize>,
}

/// The candidates visible at byte `at` (the paste's start) in `method`.
pub(crate) fn candidates(scopes: &Scopes<'_>, at: usize, paste: std::ops::Range<usize>) -> Vec<Candidate> {
    let project = scopes.project;
    let source = scopes.source;
    let line = source.line_of(at);
    let mut out: Vec<Candidate> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    // Variables, innermost method first (a local class's method sees its enclosing method's).
    let mut ty = scopes.type_at(at);
    let mut static_only = false;
    let mut first_type = true;
    while let Some(t) = ty {
        if let Some(m) = scopes.method_of_type_at(t, at) {
            let mid = scopes.methods[m];
            let decl = project.method(mid);
            let mut locals: Vec<(usize, &crate::java::symbols::LocalVar)> = decl
                .locals
                .iter()
                .enumerate()
                .filter(|(_, l)| l.scope.start_byte <= at && at < l.scope.end_byte && l.scope.start_byte < paste.start)
                .collect();
            // Innermost (latest declared) first, so shadowing keeps the one the paste would see.
            locals.sort_by_key(|(_, l)| std::cmp::Reverse(l.scope.start_byte));
            for (i, l) in locals {
                if seen.insert(l.name.clone()) {
                    let unused = !used_in_method(scopes, mid, Var::Local(mid, i), &l.name);
                    out.push(Candidate {
                        expr: l.name.clone(),
                        name: l.name.clone(),
                        source: Source::Local,
                        ty: l.ty.clone(),
                        unused,
                        distance: line.saturating_sub(source.line_of(l.scope.start_byte)),
                        constant: false,
                        seen_at: None,
                    });
                }
            }
            for (i, p) in decl.params.iter().enumerate() {
                if seen.insert(p.name.clone()) {
                    let unused = !used_in_method(scopes, mid, Var::Param(mid, i), &p.name);
                    let mut ty = p.ty.clone();
                    if p.varargs {
                        ty.dims = ty.dims.max(1);
                    }
                    out.push(Candidate {
                        expr: p.name.clone(),
                        name: p.name.clone(),
                        source: Source::Parameter,
                        ty: Some(ty),
                        unused,
                        distance: line.saturating_sub(source.line_of(decl.span.start_byte)),
                        constant: false,
                        seen_at: None,
                    });
                }
            }
            if decl.is_static() {
                static_only = true;
            }
        }
        let id = scopes.types[t];
        // The object itself, for a paste written on a variable of this class (`order.total()`
        // moved into `Order`): known by the class's name.
        if first_type && !static_only {
            let name = project.type_decl(id).name.clone();
            out.push(Candidate {
                expr: "this".to_string(),
                ty: Some(TypeName { text: name.clone(), raw: name.clone(), dims: 0 }),
                name,
                source: Source::This,
                unused: false,
                distance: 0,
                constant: false,
                seen_at: None,
            });
        }
        for owner in std::iter::once(id).chain(project.supertypes(id)) {
            for f in &project.type_decl(owner).fields {
                if static_only && !f.is_static() {
                    continue;
                }
                if !project.inherits(id, owner, &f.modifiers) {
                    continue;
                }
                if seen.insert(f.name.clone()) {
                    let shadowed =
                        scopes.bare(at, &f.name) != Referent::Field(owner, field_index(project, owner, &f.name));
                    let expr = if shadowed && first_type { format!("this.{}", f.name) } else { f.name.clone() };
                    if shadowed && !first_type {
                        continue;
                    }
                    out.push(Candidate {
                        expr,
                        name: f.name.clone(),
                        source: if first_type { Source::Field } else { Source::OuterField },
                        ty: Some(f.ty.clone()),
                        unused: false,
                        distance: 0,
                        constant: f.is_static() && f.modifiers.iter().any(|m| m == "final"),
                        seen_at: None,
                    });
                }
            }
            for m in project.methods_of(owner) {
                let decl = project.method(m);
                let returns = decl.return_type.as_ref().filter(|r| r.raw != "void");
                if let Some(r) = returns
                    && decl.params.is_empty()
                    && !decl.is_constructor()
                    && (!static_only || decl.is_static())
                    && project.inherits(id, owner, &decl.modifiers)
                    && seen.insert(format!("{}()", decl.name))
                {
                    out.push(Candidate {
                        expr: format!("{}()", decl.name),
                        name: decl.name.clone(),
                        source: Source::Getter,
                        ty: Some(r.clone()),
                        unused: false,
                        distance: 0,
                        constant: false,
                        seen_at: None,
                    });
                }
            }
        }
        let decl = project.type_decl(id);
        if decl.modifiers.iter().any(|m| m == "static") || decl.kind != crate::java::symbols::TypeKind::Class {
            static_only = true;
        }
        first_type = false;
        ty = decl.parent.map(|p| p as usize);
    }
    out
}

fn field_index(project: &Project, owner: TypeId, name: &str) -> usize {
    project.type_decl(owner).fields.iter().position(|f| f.name == name).unwrap_or(usize::MAX)
}

/// Whether the variable is read or written anywhere in its method. Uses in the paste count: a
/// variable the pasted code names itself is not one waiting for the paste to use it under
/// another name.
fn used_in_method(scopes: &Scopes<'_>, method: MethodId, var: Var, name: &str) -> bool {
    let decl = scopes.project.method(method);
    let Some(body) = decl.body else { return false };
    let source = scopes.source;
    let text = source.slice(&body);
    if !crate::text::word_occurrences(text, name).any(|_| true) {
        return false;
    }
    let Some(node) = source.root().descendant_for_byte_range(body.start_byte, body.end_byte) else { return false };
    let mut used = false;
    crate::java::syntax::walk(node, &mut |n| {
        if used {
            return false;
        }
        if n.kind() == "identifier"
            && source.text_of(n) == name
            && matches!(resolve::use_of(n), Use::Bare)
            && scopes.bare(n.start_byte(), name) == Referent::Var(var)
        {
            used = true;
        }
        true
    });
    used
}

/// `v.getX()` and `v.x` for the candidate variables `v` of a project type whose no-argument
/// methods or instance fields (visible from here) have a name sharing a word with one of `names`:
/// code moved out of a class reaches that class's state through the object now passed in.
pub(crate) fn chains(
    project: &Project,
    scopes: &Scopes<'_>,
    at: usize,
    base: &[Candidate],
    names: &[&str],
) -> Vec<Candidate> {
    let here = scopes.type_at(at);
    let scope = here.map(|t| scopes.types[t].index());
    let top_level = here.map(|t| project.top_level_of(scopes.types[t]));
    let mut out = Vec::new();
    for c in base.iter().filter(|c| matches!(c.source, Source::Local | Source::Parameter | Source::Field)) {
        let Some(ty) = c.ty.as_ref().filter(|t| t.dims == 0) else { continue };
        let Some(id) = project.resolve_type(scopes.file, scope, &ty.raw) else { continue };
        for owner in std::iter::once(id).chain(project.supertypes(id)) {
            let private_here = Some(project.top_level_of(owner)) == top_level;
            for f in &project.type_decl(owner).fields {
                if f.is_static() || !names.iter().any(|n| super::choose::similarity(n, &f.name) >= 0.5) {
                    continue;
                }
                // Through its accessor when the type has one (`context.getMode()`, not
                // `context.mode`), known by the field's name; a field that cannot be seen from
                // here only through it.
                let visible = visible_on(project, id, owner, &f.modifiers, private_here);
                let expr = match accessor(project, id, owner, &f.name, private_here) {
                    Some(getter) => format!("{}.{getter}()", c.expr),
                    None if visible => format!("{}.{}", c.expr, f.name),
                    None => continue,
                };
                out.push(Candidate {
                    expr,
                    name: f.name.clone(),
                    source: Source::Chain,
                    ty: Some(f.ty.clone()),
                    // The variable it is reached through is used nowhere else.
                    unused: c.unused,
                    distance: 0,
                    constant: false,
                    seen_at: None,
                });
            }
            for m in project.methods_of(owner) {
                let decl = project.method(m);
                let Some(r) = decl.return_type.as_ref().filter(|r| r.raw != "void") else { continue };
                if !decl.params.is_empty() || decl.is_constructor() || decl.is_static() {
                    continue;
                }
                if !visible_on(project, id, owner, &decl.modifiers, private_here) {
                    continue;
                }
                let shares = names.iter().any(|n| super::choose::similarity(n, &decl.name) >= 0.5);
                let expr = format!("{}.{}()", c.expr, decl.name);
                if shares && !out.iter().any(|o| o.expr == expr) {
                    out.push(Candidate {
                        expr,
                        name: decl.name.clone(),
                        source: Source::Chain,
                        ty: Some(r.clone()),
                        unused: false,
                        distance: 0,
                        constant: false,
                        seen_at: None,
                    });
                }
            }
        }
    }
    out
}

/// Where `text[within]` writes `expr` outside `paste`, as a whole expression (not the tail of
/// `a.v.x()` for `v.x()`, nor the head of `v.xs`).
pub(crate) fn written_outside(
    text: &str,
    within: std::ops::Range<usize>,
    paste: &std::ops::Range<usize>,
    expr: &str,
) -> Option<usize> {
    let part = text.get(within.clone())?;
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    part.match_indices(expr).map(|(i, _)| within.start + i).find(|&at| {
        let end = at + expr.len();
        let before = text[..at].chars().next_back().is_none_or(|c| !ident(c) && c != '.');
        let after = text[end..].chars().next().is_none_or(|c| !ident(c));
        before && after && !(paste.start <= at && at < paste.end)
    })
}

/// Whether a member of `owner` with `modifiers` can be used from the paste on a value of type
/// `id` (which `owner` is or is a supertype of): a private one only where the paste is in
/// `owner`'s top-level class (`private_here`).
fn visible_on(project: &Project, id: TypeId, owner: TypeId, modifiers: &[String], private_here: bool) -> bool {
    (private_here || !modifiers.iter().any(|m| m == "private")) && project.inherits(id, owner, modifiers)
}

/// The no-argument method of `owner`, visible from the paste ([`visible_on`]), that reads field
/// `field` by the naming convention: `getMode()` or `isMode()` for `mode`, or a record-style
/// `mode()`.
fn accessor(project: &Project, id: TypeId, owner: TypeId, field: &str, private_here: bool) -> Option<String> {
    let mut cap = field.chars();
    let cap = cap.next().map(|f| f.to_uppercase().chain(cap).collect::<String>())?;
    let wanted = [format!("get{cap}"), format!("is{cap}"), field.to_string()];
    project.methods_of(owner).into_iter().map(|m| project.method(m)).find_map(|d| {
        let reads = d.params.is_empty() && !d.is_static() && d.return_type.as_ref().is_some_and(|r| r.raw != "void");
        let visible = visible_on(project, id, owner, &d.modifiers, private_here);
        (reads && visible && wanted.contains(&d.name)).then(|| d.name.clone())
    })
}

/// `v.m()` as the file itself writes it outside the paste: a no-argument call on a variable
/// visible at the paste (`base`: locals, parameters, fields) whose type the project does not
/// declare (a library type, or a file not in the project), named like one of `names` in two words
/// or more. The file's own call is the evidence that `m` exists and returns something; [`chains`]
/// covers the variables of project types, whose methods are known.
pub(crate) fn seen_calls(
    scopes: &Scopes<'_>,
    base: &[Candidate],
    names: &[&str],
    paste: &std::ops::Range<usize>,
) -> Vec<Candidate> {
    let here = scopes.type_at(paste.start);
    let scope = here.map(|t| scopes.types[t].index());
    let mut out: Vec<Candidate> = Vec::new();
    for m in &scopes.syms.methods {
        for call in &m.calls {
            let inside = paste.start <= call.span.start_byte && call.span.end_byte <= paste.end;
            if inside || call.kind != CallKind::Method || call.arg_count() != Some(0) {
                continue;
            }
            let crate::java::symbols::Receiver::Name(r) = &call.receiver else { continue };
            let receiver = r.strip_prefix("this.").unwrap_or(r);
            let Some(var) = base
                .iter()
                .find(|c| matches!(c.source, Source::Local | Source::Parameter | Source::Field) && c.name == receiver)
            else {
                continue;
            };
            let project_type = var.ty.as_ref().is_some_and(|t| {
                t.dims > 0
                    || scopes.project.resolve_type(scopes.file, scope, &t.raw).is_some()
                    || super::choose::is_primitive(&t.raw)
            });
            // A one-word method (`size()`, `length()`, `name()`) is too common for a name to point at
            // one receiver's; a name of two words or more (`getFileName()`) says what it returns.
            let words = crate::text::identifier_words(&call.name).into_iter().filter(|w| !is_accessor_word(w)).count();
            if project_type || words < 2 || !names.iter().any(|n| super::choose::similarity(n, &call.name) >= 0.8) {
                continue;
            }
            let expr = format!("{}.{}()", var.expr, call.name);
            if out.iter().any(|c| c.expr == expr) {
                continue;
            }
            out.push(Candidate {
                expr,
                name: call.name.clone(),
                source: Source::Chain,
                ty: None,
                unused: false,
                distance: 0,
                constant: false,
                seen_at: Some(scopes.source.line_of(call.span.start_byte)),
            });
        }
    }
    out
}

pub fn is_accessor_word(w: &str) -> bool {
    matches!(w.to_lowercase().as_str(), "get" | "is" | "has" | "to" | "as")
}

/// What another call of the file passes where the paste has the name.
#[derive(Debug, Clone)]
pub struct Identical {
    pub expr: String,
    pub line: usize,
    /// Passed as the same argument of a call of the same method (`false`: the receiver of a
    /// call of the same member, which any variable of the type may be).
    pub argument: bool,
}

/// The arguments other calls of the file pass where the paste passes `name`: the texts passed
/// at the same position of a call of the same method with as many arguments, outside the paste,
/// and the receivers of the same members.
pub(crate) fn identical_calls(
    scopes: &Scopes<'_>,
    name: &Unresolved,
    paste: &std::ops::Range<usize>,
) -> Vec<Identical> {
    let source = scopes.source;
    let mut out: Vec<Identical> = Vec::new();
    for m in &scopes.syms.methods {
        for call in &m.calls {
            if call.span.start_byte >= paste.start && call.span.end_byte <= paste.end {
                continue;
            }
            if call.kind != CallKind::Method && call.kind != CallKind::New {
                continue;
            }
            let Some(node) =
                crate::java::syntax::node_spanning(source.root(), call.span.start_byte, call.span.end_byte)
            else {
                continue;
            };
            for a in &name.arguments {
                if a.method != call.name || call.arg_count() != Some(a.args) {
                    continue;
                }
                let Some(args) = node.child_by_field_name("arguments") else { continue };
                let mut cursor = args.walk();
                let list: Vec<_> = args
                    .named_children(&mut cursor)
                    .filter(|c| c.kind() != "line_comment" && c.kind() != "block_comment")
                    .collect();
                if let Some(arg) = list.get(a.index) {
                    out.push(Identical {
                        expr: crate::text::compact(source.text_of(*arg)),
                        line: source.line_of(call.span.start_byte),
                        argument: true,
                    });
                }
            }
            if call.kind == CallKind::Method
                && name.members.contains(&call.name)
                && let crate::java::symbols::Receiver::Name(r) = &call.receiver
            {
                out.push(Identical { expr: r.clone(), line: source.line_of(call.span.start_byte), argument: false });
            }
        }
    }
    out
}

/// The no-argument method of the field's class named after it (`getTickUnit()` for `tickUnit`,
/// `isOpen()` for `open`) whose body returns the field: the same value under another name.
fn plain_getter(scopes: &Scopes<'_>, at: usize, field: &str) -> Option<String> {
    let project = scopes.project;
    let Referent::Field(owner, _) = scopes.bare(at, field) else { return None };
    let capital: String = field.chars().take(1).flat_map(char::to_uppercase).chain(field.chars().skip(1)).collect();
    ["get", "is"].into_iter().map(|p| format!("{p}{capital}")).find(|name| {
        project.methods_of(owner).iter().any(|&m| {
            let d = project.method(m);
            d.name == *name && d.params.is_empty() && !d.is_static() && returns_field(project, m, field)
        })
    })
}

/// A field and its [`plain_getter`] among one name's candidates are one value, not two choices:
/// the getter goes, the field keeps the better score of the two (which one is written is
/// [`getter_read_instead`]'s choice).
pub(crate) fn merge_getters(scopes: &Scopes<'_>, at: usize, scored: &mut Vec<super::Scored>) {
    let mut i = 0;
    while i < scored.len() {
        let field = scored[i].expr.trim_start_matches("this.");
        // Resolving the getter costs a lookup: only when a getter is among the candidates.
        if matches!(scored[i].source, Source::Field | Source::OuterField)
            && scored.iter().any(|c| c.source == Source::Getter)
            && let Some(g) = plain_getter(scopes, at, field).map(|g| format!("{g}()"))
            && let Some(j) = scored.iter().position(|c| c.source == Source::Getter && c.expr == g)
        {
            let g = scored.remove(j);
            let f = if j < i { i - 1 } else { i };
            if g.score > scored[f].score {
                let expr = std::mem::take(&mut scored[f].expr);
                scored[f] = super::Scored { expr, source: scored[f].source, ..g };
            }
            i = f + 1;
        } else {
            i += 1;
        }
    }
    scored.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.expr.cmp(&b.expr)));
}

/// The getter to write for a field the paste is bound to, when the method holding the paste reads
/// that value only through its [`plain_getter`], called bare outside the paste, and never reads
/// the field by name there: the code around the paste shows how this code reads the value.
pub(crate) fn getter_read_instead(
    scopes: &Scopes<'_>,
    method: MethodId,
    paste: &std::ops::Range<usize>,
    field: &str,
) -> Option<String> {
    let getter = plain_getter(scopes, paste.start, field)?;
    let body = scopes.project.method(method).body?;
    let outside = |at: usize| at < paste.start || at >= paste.end;
    let text = scopes.source.slice(&body);
    let bare = |i: usize| {
        let before = text[..i].trim_end();
        !before.ends_with('.') || before.ends_with("this.")
    };
    let calls = crate::text::word_occurrences(text, &getter)
        .filter(|&i| outside(body.start_byte + i) && bare(i) && text[i + getter.len()..].trim_start().starts_with('('))
        .count();
    let reads = crate::text::word_occurrences(text, field)
        .filter(|&i| outside(body.start_byte + i) && bare(i) && !text[i + field.len()..].trim_start().starts_with('('))
        .count();
    (calls > 0 && reads == 0).then(|| format!("{getter}()"))
}

/// Whether the body of `m` is `return field;` or `return this.field;`.
fn returns_field(project: &Project, m: MethodId, field: &str) -> bool {
    let Some(body) = project.method(m).body else { return false };
    let text: String = project.method_source(m).slice(&body).chars().filter(|c| !c.is_whitespace()).collect();
    text == format!("{{return{field};}}") || text == format!("{{returnthis.{field};}}")
}
