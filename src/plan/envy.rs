//! Move Method destinations by feature envy: a method belongs with the class whose members it uses.
//!
//! For an instance method the candidates are the channels Move Method can follow: parameters and
//! fields whose declared type is a project class. Each is scored by the member accesses made
//! through it (`customer.getTier()`, `this.numberGenerator.next()`, `loan.due`) against the
//! accesses to the method's own class (implicit or `this.` calls, its other fields):
//! `uses / (uses + own + 1)`, so more evidence ranks higher. A static method can go to any class:
//! every project type it calls into or names in a declaration counts (a type it only creates or
//! returns does not: a factory is not envy), and the winner is proposed as `class:FQN`. An
//! instance method may go to any class it uses by name too (`class:FQN`, where it becomes static),
//! ranked just below a channel with the same evidence; a test method goes only to the test class
//! of a class it exercises, and its uses of the class its own test class is named after count as
//! uses of its own class. Lines taken out of a test (Extract And Move) make a helper, which goes
//! only to test code it uses itself.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::Destination;
use crate::engine::dataflow::MethodFlow;
use crate::java::symbols::{CallKind, Receiver, TypeKind};
use crate::java::syntax::{enclosing_callable, walk_with_parent};
use crate::java::{MethodId, Project, Resolution, TypeId};

/// One possible destination with the evidence for it.
#[derive(Debug, Clone, Serialize)]
pub struct DestinationScore {
    pub to: Destination,
    /// The destination class, fully qualified.
    pub class: String,
    /// Member accesses through the channel (or, for static methods, uses of the class).
    pub uses: usize,
    /// Accesses to the method's own class.
    pub own_uses: usize,
    pub score: f64,
    /// Why the class, when it is not for the uses counted (a utility class for a helper, say).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// Destinations for `method`, best first, counting only code on `lines` when given and only the
/// parameters named in `params` when given (Extract And Move scores the fragment that will move).
pub fn destinations(
    project: &Project,
    method: MethodId,
    lines: Option<(usize, usize)>,
    params: Option<&[String]>,
) -> Vec<DestinationScore> {
    let decl = project.method(method);
    let in_range = |line: usize| lines.is_none_or(|(a, b)| a <= line && line <= b);
    // Lines of a method that move (Extract And Move) become a helper, not a test, even when
    // taken from a test.
    let moves_as_test = lines.is_none() && project.is_test_method(method);
    let mut out = if decl.is_static() {
        let (uses, own) = class_uses(project, method, &in_range);
        // A helper tied to no project class may still have a home: the utility class for what it takes.
        if uses.is_empty() && own == 0 && lines.is_none() && !project.is_test_method(method) {
            utility_destination(project, method).into_iter().collect()
        } else {
            static_destinations(project, uses, own)
        }
    } else {
        // A test stays a test only in another test class: no parameter or field channel.
        let mut out =
            if moves_as_test { Vec::new() } else { instance_destinations(project, method, &in_range, params) };
        // Any other class it uses, by name: the method becomes static there (a test stays a test
        // of the test class of the class it exercises). A channel, when there is one, reads better.
        for d in class_destinations(project, method, &in_range, moves_as_test) {
            if !out.iter().any(|c| c.class == d.class) {
                out.push(d);
            }
        }
        out
    };
    out.retain(|d| d.uses > 0);
    // A helper made of test code stays in test code: in main code it would be API that only
    // tests call, and a test class is no home for it either unless it uses that class itself.
    if lines.is_some() && project.is_test_code(method.file()) {
        out.retain(|d| project.find_type(&d.class).is_some_and(|t| project.is_test_code(t.file())));
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.uses.cmp(&a.uses)));
    out
}

fn score(uses: usize, own: usize) -> f64 {
    ((uses as f64 / (uses + own + 1) as f64) * 100.0).round() / 100.0
}

fn instance_destinations(
    project: &Project,
    method: MethodId,
    in_range: &dyn Fn(usize) -> bool,
    only_params: Option<&[String]>,
) -> Vec<DestinationScore> {
    let decl = project.method(method);
    let owner = project.owner(method);
    let file = method.file();
    let resolve = |raw: &str, dims: u8| -> Option<TypeId> {
        if dims > 0 {
            return None;
        }
        project.resolve_type(file, Some(owner.index()), raw).filter(|t| *t != owner)
    };
    let mut channels: Vec<(Destination, String, TypeId)> = Vec::new();
    for p in &decl.params {
        if only_params.is_some_and(|ps| !ps.contains(&p.name)) || p.varargs {
            continue;
        }
        if let Some(t) = resolve(&p.ty.raw, p.ty.dims) {
            channels.push((Destination::Param(p.name.clone()), p.name.clone(), t));
        }
    }
    let owner_decl = project.type_decl(owner);
    let shadowed =
        |name: &str| decl.params.iter().any(|p| p.name == name) || decl.locals.iter().any(|l| l.name == name);
    for f in owner_decl.fields.iter().filter(|f| !f.is_static()) {
        if let Some(t) = resolve(&f.ty.raw, f.ty.dims) {
            channels.push((Destination::Field(f.name.clone()), f.name.clone(), t));
        }
    }
    let channel_of = |receiver: &str| -> Option<usize> {
        let (explicit_this, rest) = match receiver.strip_prefix("this.") {
            Some(r) => (true, r),
            None => (false, receiver),
        };
        let first = rest.split('.').next().unwrap_or(rest);
        channels.iter().position(|(d, name, _)| {
            name == first
                && match d {
                    Destination::Field(_) => explicit_this || !shadowed(first),
                    _ => !explicit_this,
                }
        })
    };

    if channels.is_empty() {
        // Nothing to score: the accesses to the own class only weigh a channel.
        return Vec::new();
    }
    let mut uses = vec![0usize; channels.len()];
    let mut own = 0usize;
    for site in decl.calls.iter().filter(|c| in_range(c.span.start_line)) {
        if site.kind != CallKind::Method && site.kind != CallKind::MethodRef {
            continue;
        }
        match &site.receiver {
            Receiver::Implicit | Receiver::This | Receiver::Super => own += 1,
            Receiver::Name(n) => {
                if let Some(i) = channel_of(n) {
                    uses[i] += 1;
                }
            }
            Receiver::Expr => {}
        }
    }
    // Field reads through a channel (`loan.due`), and the method's other fields.
    let source = project.method_source(method);
    let src = source.text.as_str();
    let own_fields: Vec<&str> = owner_decl
        .fields
        .iter()
        .map(|f| f.name.as_str())
        .filter(|f| !channels.iter().any(|(d, n, _)| matches!(d, Destination::Field(_)) && n == f))
        .collect();
    if let Some(node) = enclosing_callable(source.root(), decl.name_span.start_byte, decl.name_span.end_byte) {
        // Only needed to tell an own field from a local of the same name.
        let mut flow: Option<MethodFlow<'_>> = None;
        walk_with_parent(node, None, &mut |n, parent| {
            if !in_range(n.start_position().row + 1) {
                return true;
            }
            match n.kind() {
                "field_access" => {
                    let (Some(obj), Some(field)) = (n.child_by_field_name("object"), n.child_by_field_name("field"))
                    else {
                        return true;
                    };
                    let obj_text = &src[obj.byte_range()];
                    let field_text = &src[field.byte_range()];
                    if obj.kind() == "this" {
                        if own_fields.contains(&field_text) {
                            own += 1;
                        }
                        return false;
                    }
                    if obj.kind() == "identifier"
                        && let Some(i) = channel_of(obj_text)
                    {
                        uses[i] += 1;
                    }
                }
                "identifier" => {
                    let name = &src[n.byte_range()];
                    let is_member_name = parent.is_some_and(|p| {
                        ["name", "field"].iter().any(|f| p.child_by_field_name(f).is_some_and(|c| c.id() == n.id()))
                            && matches!(p.kind(), "method_invocation" | "field_access" | "method_reference")
                    });
                    if !is_member_name
                        && own_fields.contains(&name)
                        && flow
                            .get_or_insert_with(|| MethodFlow::analyze(node, src))
                            .resolve(name, n.start_byte())
                            .is_none()
                    {
                        own += 1;
                    }
                }
                _ => {}
            }
            true
        });
    }
    channels
        .into_iter()
        .zip(uses)
        .map(|((to, _, t), uses)| DestinationScore {
            to,
            class: project.qualified_name(t),
            uses,
            own_uses: own,
            score: score(uses, own),
            why: None,
        })
        .collect()
}

/// A static method's destinations from its [`class_uses`]: every class it uses, by name.
fn static_destinations(project: &Project, uses: BTreeMap<TypeId, usize>, own: usize) -> Vec<DestinationScore> {
    uses.into_iter()
        .map(|(t, n)| {
            let class = project.qualified_name(t);
            DestinationScore {
                to: Destination::Class(class.clone()),
                class,
                uses: n,
                own_uses: own,
                score: score(n, own),
                why: None,
            }
        })
        .collect()
}

/// How often the method (on `in_range` lines) uses each other project class: calls into it and
/// its name in a declaration; and how often it uses its own class. A class the method only
/// creates (`new T(…)`) or returns is not envied: a factory (a builder's `build()`, a static
/// `of(…)`) makes instances of a class without using its features, and belongs where it is; such
/// uses count only for a class the method also calls into or takes or keeps in a variable.
fn class_uses(
    project: &Project,
    method: MethodId,
    in_range: &dyn Fn(usize) -> bool,
) -> (BTreeMap<TypeId, usize>, usize) {
    let decl = project.method(method);
    let owner = project.owner(method);
    let file = method.file();
    // Per class: uses of its features, and creations or the return type.
    let mut uses: BTreeMap<TypeId, (usize, usize)> = BTreeMap::new();
    let mut count = |t: TypeId, feature: bool| {
        let entry = uses.entry(t).or_default();
        if feature { entry.0 += 1 } else { entry.1 += 1 }
    };
    let mut own = 0usize;
    for (i, site) in decl.calls.iter().enumerate() {
        if !in_range(site.span.start_line) {
            continue;
        }
        match project.resolve_call(method, i) {
            Resolution::Resolved { method: m } => {
                let t = project.owner(m);
                if t == owner {
                    own += 1;
                } else {
                    count(t, site.kind != CallKind::New);
                }
            }
            _ if matches!(site.receiver, Receiver::Implicit | Receiver::This) => own += 1,
            _ => {}
        }
    }
    // Types named in the declaration and the locals; the return type is only what it makes.
    let mut texts: Vec<(&str, bool)> = decl.params.iter().map(|p| (p.ty.text.as_str(), true)).collect();
    texts.extend(decl.return_type.iter().map(|t| (t.text.as_str(), false)));
    texts.extend(decl.locals.iter().filter_map(|l| l.ty.as_ref()).map(|t| (t.text.as_str(), true)));
    for (text, feature) in texts {
        for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')).filter(|w| !w.is_empty()) {
            if let Some(t) = project.resolve_type(file, Some(owner.index()), word)
                && t != owner
            {
                count(t, feature);
            }
        }
    }
    let uses =
        uses.into_iter().filter(|(_, (features, _))| *features > 0).map(|(t, (f, made))| (t, f + made)).collect();
    (uses, own)
}

/// How often `method` (on `in_range` lines) reads a static field of each other project class
/// through its name (`State.names`, `Limits.MAX`).
fn static_field_reads(
    project: &Project,
    method: MethodId,
    in_range: &dyn Fn(usize) -> bool,
) -> BTreeMap<TypeId, usize> {
    let decl = project.method(method);
    let owner = project.owner(method);
    let source = project.method_source(method);
    let src = source.text.as_str();
    let named = |n: &str| {
        decl.params.iter().any(|p| p.name == n)
            || decl.locals.iter().any(|l| l.name == n)
            || project.type_decl(owner).fields.iter().any(|f| f.name == n)
    };
    let mut reads: BTreeMap<TypeId, usize> = BTreeMap::new();
    let Some(node) = enclosing_callable(source.root(), decl.name_span.start_byte, decl.name_span.end_byte) else {
        return reads;
    };
    walk_with_parent(node, None, &mut |n, _| {
        if n.kind() != "field_access" || !in_range(n.start_position().row + 1) {
            return true;
        }
        let Some(obj) = n.child_by_field_name("object").filter(|o| o.kind() == "identifier") else { return true };
        let name = &src[obj.byte_range()];
        if name.starts_with(|c: char| c.is_uppercase())
            && !named(name)
            && let Some(t) = project.resolve_type(method.file(), Some(owner.index()), name)
            && t != owner
        {
            *reads.entry(t).or_default() += 1;
        }
        true
    });
    reads
}

/// `class:FQN` destinations of an instance method: the classes whose members it uses by name, as
/// for a static method, ranked a little below a parameter or field with the same evidence. Main
/// code does not move into tests; a test method goes to the test class (`PTest`, `PTests`,
/// `TestP`, `PIT`) of each class it exercises, never to main code.
fn class_destinations(
    project: &Project,
    method: MethodId,
    in_range: &dyn Fn(usize) -> bool,
    moves_as_test: bool,
) -> Vec<DestinationScore> {
    let owner = project.owner(method);
    let in_tests = |t: TypeId| project.is_test_code(t.file());
    let (mut uses, mut own) = class_uses(project, method, in_range);
    let test = project.is_test_method(method);
    // A test exercises a class through its static fields too (`Arrays.sort(State.names)`).
    if test {
        for (t, n) in static_field_reads(project, method, in_range) {
            *uses.entry(t).or_default() += n;
        }
    }
    // For a test, the test classes of each class it uses (each lookup reads the file list).
    let tested: Vec<Vec<TypeId>> =
        uses.keys().map(|&t| if test { test_classes_of(project, t) } else { Vec::new() }).collect();
    // A test's own class is also the class its test class is named after (`CSVRecord` for
    // `CSVRecordTest`): using it is testing it where it is (in its lines that move too).
    own += uses.values().zip(&tested).filter(|(_, classes)| classes.contains(&owner)).map(|(n, _)| *n).sum::<usize>();
    let mut out: Vec<DestinationScore> = Vec::new();
    for ((t, n), classes) in uses.into_iter().zip(tested) {
        let targets = if moves_as_test {
            classes.into_iter().filter(|&x| x != owner).collect()
        } else if in_tests(t) && !in_tests(owner) {
            Vec::new()
        } else {
            vec![t]
        };
        for t in targets {
            let class = project.qualified_name(t);
            if out.iter().any(|o| o.class == class) {
                continue;
            }
            let score = (score(n, own) * 0.9 * 100.0).round() / 100.0;
            out.push(DestinationScore {
                to: Destination::Class(class.clone()),
                class,
                uses: n,
                own_uses: own,
                score,
                why: None,
            });
        }
    }
    out
}

/// Type names too common to say where a helper belongs: primitives, `String`, `Object`, boxes,
/// `Class`, and the collection interfaces every kind of code takes.
const UNTELLING_TYPES: &[&str] = &[
    "int",
    "long",
    "short",
    "byte",
    "char",
    "boolean",
    "float",
    "double",
    "String",
    "Object",
    "Integer",
    "Long",
    "Short",
    "Byte",
    "Character",
    "Boolean",
    "Float",
    "Double",
    "Number",
    "CharSequence",
    "Class",
    "List",
    "Map",
    "Set",
    "Collection",
    "Iterable",
    "Optional",
];

/// The class a static helper that uses nothing of its own class and no other project class
/// (`isPointInRect(Rectangle2D r, double x, double y)` in a renderer) belongs in: the project's
/// utility class (named `…Utils`, `…Util`, `…Utilities`, `…Helper` or `…Helpers`, every method
/// static) with the most static methods taking one of the helper's own parameter types, two at
/// least; none when two classes tie. A helper of main code goes only to main code. Its score is
/// half a feature envy's with the same count: the evidence is likeness, not use. The caller has
/// checked the helper's calls and the types it names ([`class_uses`]); its fields are checked here.
fn utility_destination(project: &Project, method: MethodId) -> Option<DestinationScore> {
    let decl = project.method(method);
    let owner = project.owner(method);
    if uses_own_fields(project, method) {
        return None;
    }
    let mut generic: Vec<&str> = decl.type_params.iter().map(String::as_str).collect();
    generic.extend(project.type_decl(owner).type_params.iter().map(String::as_str));
    let mut taken: Vec<&str> = decl
        .params
        .iter()
        .map(|p| p.ty.simple())
        .filter(|t| !UNTELLING_TYPES.contains(t) && !generic.contains(t))
        .collect();
    taken.sort_unstable();
    taken.dedup();
    if taken.is_empty() && !decl.params.iter().any(|p| is_char_code(&p.ty)) {
        return None;
    }
    let home = project.top_level_of(owner);
    let main_code = !project.is_test_code(method.file());
    let mut best: Vec<(TypeId, usize)> = Vec::new();
    for file in project.file_ids() {
        let stem = project.path(file).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let named = ["Utils", "Util", "Utilities", "Helper", "Helpers"]
            .iter()
            .any(|s| stem.len() > s.len() && stem.ends_with(s));
        if !named || (main_code && project.is_test_code(file)) {
            continue;
        }
        let Some(t) = project.types_in(file).unwrap_or_default().into_iter().find(|&t| {
            let d = project.type_decl(t);
            d.name == stem && d.kind == TypeKind::Class && project.enclosing_type(t).is_none()
        }) else {
            continue;
        };
        if t == home || project.type_decl(t).fields.iter().any(|f| !f.is_static()) {
            continue;
        }
        let methods: Vec<MethodId> =
            project.methods_of(t).into_iter().filter(|&m| !project.method(m).is_constructor()).collect();
        if methods.len() < 2 || methods.iter().any(|&m| !project.method(m).is_static()) {
            continue;
        }
        let alike = methods
            .iter()
            .filter(|&&m| {
                let d = project.method(m);
                !d.modifiers.iter().any(|x| x == "private")
                    && (d.params.iter().any(|p| taken.contains(&p.ty.simple())) || same_shape(decl, d))
            })
            .count();
        match best.first() {
            Some(&(_, n)) if n > alike => {}
            Some(&(_, n)) if n == alike => best.push((t, alike)),
            _ => best = vec![(t, alike)],
        }
    }
    let [(t, n)] = best.as_slice() else { return None };
    if *n < 2 {
        return None;
    }
    let class = project.qualified_name(*t);
    let why = if taken.is_empty() {
        format!("it uses nothing of its class; {n} static methods of {} are like it", project.type_decl(*t).name)
    } else {
        format!(
            "it uses nothing of its class; {n} static methods of {} take its {}",
            project.type_decl(*t).name,
            taken.join(", ")
        )
    };
    Some(DestinationScore {
        to: Destination::Class(class.clone()),
        class,
        uses: *n,
        own_uses: 0,
        score: (score(*n, 0) * 0.5 * 100.0).round() / 100.0,
        why: Some(why),
    })
}

/// A character code: `char`, or an `int`, `short` or `byte` holding one.
fn is_char_code(ty: &crate::java::symbols::TypeName) -> bool {
    ty.dims == 0 && matches!(ty.raw.as_str(), "char" | "int" | "short" | "byte")
}

/// Whether `other` is a helper of `helper`'s kind on character codes: the same return type, the
/// same first word (`isDigit`, `isWhitespace`), and a character code (`char`, `int`) for each of
/// its character-code parameters, the others of the same type (`isDigit(char)` is like
/// `isWhitespace(int)`, not like `padding(int)`).
fn same_shape(helper: &crate::java::symbols::MethodDecl, other: &crate::java::symbols::MethodDecl) -> bool {
    let first_word = |name: &str| name.chars().take_while(|c| c.is_lowercase()).collect::<String>();
    let returns = |d: &crate::java::symbols::MethodDecl| d.return_type.as_ref().map(|t| t.text.clone());
    helper.params.iter().any(|p| is_char_code(&p.ty))
        && helper.params.len() == other.params.len()
        && returns(helper) == returns(other)
        && !first_word(&helper.name).is_empty()
        && first_word(&helper.name) == first_word(&other.name)
        && helper
            .params
            .iter()
            .zip(&other.params)
            .all(|(a, b)| if is_char_code(&a.ty) { is_char_code(&b.ty) } else { a.ty.text == b.ty.text })
}

/// Whether the body of `method` names a field of its class (a word of its text, so a local of
/// the same name counts too: the cautious answer).
fn uses_own_fields(project: &Project, method: MethodId) -> bool {
    let decl = project.method(method);
    let Some(body) = decl.body else { return false };
    let text = &project.method_source(method).text[body.start_byte..body.end_byte];
    project.type_decl(project.owner(method)).fields.iter().any(|f| crate::text::contains_word(text, &f.name))
}

/// The test classes named after `production` in the project's test code, same package first.
fn test_classes_of(project: &Project, production: TypeId) -> Vec<TypeId> {
    let name = &project.type_decl(production).name;
    let wanted = [format!("{name}Test"), format!("{name}Tests"), format!("Test{name}"), format!("{name}IT")];
    let mut found: Vec<TypeId> = Vec::new();
    for file in project.file_ids() {
        let path = project.path(file);
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if !wanted.contains(&stem) || !project.is_test_code(file) {
            continue;
        }
        for t in project.types_in(file).unwrap_or_default() {
            if project.type_decl(t).name == stem && project.enclosing_type(t).is_none() {
                found.push(t);
            }
        }
    }
    let package = project.package_of(production).to_string();
    found.sort_by_key(|&t| project.package_of(t) != package);
    found
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::java::project::tests::project;

    fn method(p: &Project, file: &str, name: &str) -> MethodId {
        let fid = p.file_id(Path::new(file)).expect("file");
        p.methods_in(fid).expect("parsed").into_iter().find(|&m| p.method(m).name == name).expect("method")
    }

    #[test]
    fn an_instance_method_may_go_to_a_class_it_uses_by_name() {
        let rates = "package a;\n\npublic class Rates {\n    public static int base() {\n        return 2;\n    }\n    public static int cap() {\n        return 9;\n    }\n}\n";
        let src = "package a;\n\nclass Src {\n    int fee(int n) {\n        return Math.min(Rates.base() * n, Rates.cap());\n    }\n}\n";
        let (_d, p) = project(&[("src/main/java/a/Rates.java", rates), ("src/main/java/a/Src.java", src)]);
        let found = destinations(&p, method(&p, "src/main/java/a/Src.java", "fee"), None, None);
        assert_eq!(found[0].to, Destination::Class("a.Rates".into()), "{found:#?}");
        assert_eq!(found[0].uses, 2);
    }

    #[test]
    fn a_factory_is_not_envy_of_the_class_it_makes() {
        let format = "package a;\n\npublic class Format {\n    private final char sep;\n\n    Format(Builder b) {\n        this.sep = b.sep;\n    }\n\n    public char sep() {\n        return sep;\n    }\n\n    public static class Builder {\n        char sep = ',';\n\n        public Format build() {\n            return new Format(this);\n        }\n    }\n}\n";
        let maker = "package a;\n\nclass Maker {\n    static Format plain() {\n        return new Format(new Format.Builder());\n    }\n\n    static char both() {\n        Format f = new Format(new Format.Builder());\n        return f.sep();\n    }\n}\n";
        let (_d, p) = project(&[("src/main/java/a/Format.java", format), ("src/main/java/a/Maker.java", maker)]);
        let build = destinations(&p, method(&p, "src/main/java/a/Format.java", "build"), None, None);
        assert!(build.is_empty(), "a builder's build() stays in the builder: {build:#?}");
        let plain = destinations(&p, method(&p, "src/main/java/a/Maker.java", "plain"), None, None);
        assert!(plain.iter().all(|d| d.class != "a.Format"), "{plain:#?}");
        // A method that also uses what it makes still envies its class, creations counted.
        let both = destinations(&p, method(&p, "src/main/java/a/Maker.java", "both"), None, None);
        let format = both.iter().find(|d| d.class == "a.Format").expect("Format is a destination");
        assert_eq!(format.uses, 3, "{both:#?}");
    }

    #[test]
    fn a_test_method_goes_to_the_test_class_of_what_it_exercises_never_through_a_field() {
        let money = "package a;\n\npublic class Money {\n    public static Money of(int n) {\n        return new Money();\n    }\n    public Money plus(Money m) {\n        return this;\n    }\n}\n";
        let money_test = "package a;\n\nclass MoneyTest {\n}\n";
        let other = "package a;\n\nimport org.junit.Test;\n\nclass OtherTest {\n    Money kept = Money.of(2);\n\n    @Test\n    public void adds() {\n        Money m = Money.of(1);\n        kept.plus(m.plus(m));\n    }\n}\n";
        let (_d, p) = project(&[
            ("src/main/java/a/Money.java", money),
            ("src/test/java/a/MoneyTest.java", money_test),
            ("src/test/java/a/OtherTest.java", other),
        ]);
        let found = destinations(&p, method(&p, "src/test/java/a/OtherTest.java", "adds"), None, None);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].to, Destination::Class("a.MoneyTest".into()));
    }

    /// Lines taken out of a test make a helper, not a test: not for the test class of what they
    /// exercise (one test class would call into another), nor for main code (API only tests
    /// call), but for a test class whose own members they use.
    #[test]
    fn lines_moving_out_of_a_test_go_only_to_test_code_they_use() {
        let money = "package a;\n\npublic class Money {\n    public static Money of(int n) {\n        return new Money();\n    }\n    public Money plus(Money m) {\n        return this;\n    }\n}\n";
        let money_test = "package a;\n\nclass MoneyTest {\n}\n";
        let fixtures = "package a;\n\nclass Fixtures {\n    static Money some() {\n        return Money.of(3);\n    }\n    static void check(Money m) {\n    }\n}\n";
        let other = "package a;\n\nimport org.junit.Test;\n\nclass OtherTest {\n    @Test\n    public void adds() {\n        Money m = Money.of(1);\n        m.plus(m).plus(m);\n        Fixtures.check(Fixtures.some());\n        Fixtures.check(m);\n    }\n}\n";
        let (_d, p) = project(&[
            ("src/main/java/a/Money.java", money),
            ("src/test/java/a/MoneyTest.java", money_test),
            ("src/test/java/a/Fixtures.java", fixtures),
            ("src/test/java/a/OtherTest.java", other),
        ]);
        let adds = method(&p, "src/test/java/a/OtherTest.java", "adds");
        let whole = destinations(&p, adds, None, None);
        assert_eq!(whole[0].class, "a.MoneyTest", "the test itself moves as a test: {whole:#?}");
        let money_lines = destinations(&p, adds, Some((8, 9)), None);
        assert!(money_lines.iter().all(|d| d.class == "a.Fixtures"), "{money_lines:#?}");
        let fixture_lines = destinations(&p, adds, Some((10, 11)), None);
        assert_eq!(fixture_lines.first().map(|d| d.class.as_str()), Some("a.Fixtures"), "{fixture_lines:#?}");
    }

    /// A test of `RecordTest` that parses with `Parser` to test `Record` is testing `Record`,
    /// where it is: its uses of `Record` are its own class's, and outweigh those of `Parser`.
    #[test]
    fn a_test_using_the_class_its_test_class_is_named_after_stays() {
        let record = "package a;\n\npublic class Record {\n    public int size() {\n        return 0;\n    }\n    public Object toMap() {\n        return null;\n    }\n}\n";
        let parser = "package a;\n\npublic class Parser {\n    public static Parser parse(String s) {\n        return new Parser();\n    }\n    public Record next() {\n        return new Record();\n    }\n}\n";
        let test = |body: &str| {
            format!(
                "package a;\n\nimport org.junit.Test;\n\nclass RecordTest {{\n    @Test\n    public void t() {{\n{body}    }}\n}}\n"
            )
        };
        let parser_test = "package a;\n\nclass ParserTest {\n}\n";
        let uses_record =
            test("        Record r = Parser.parse(\"a\").next();\n        r.toMap();\n        r.size();\n");
        let only_parser = test("        Parser p = Parser.parse(\"a\");\n        p.next();\n");
        for (body, moves) in [(uses_record, false), (only_parser, true)] {
            let (_d, p) = project(&[
                ("src/main/java/a/Record.java", record),
                ("src/main/java/a/Parser.java", parser),
                ("src/test/java/a/RecordTest.java", body.as_str()),
                ("src/test/java/a/ParserTest.java", parser_test),
            ]);
            let found = destinations(&p, method(&p, "src/test/java/a/RecordTest.java", "t"), None, None);
            let best = found.first().filter(|d| d.score > 0.5).map(|d| d.class.clone());
            assert_eq!(best.is_some(), moves, "{found:#?}");
        }
    }

    /// A static helper tied to no project class goes to the utility class whose static methods
    /// take what it takes; not to one that ties with another, nor when it uses its own class.
    #[test]
    fn a_helper_that_uses_no_class_goes_to_the_utility_class_for_what_it_takes() {
        let shapes = "package a.util;\n\nimport java.awt.geom.Rectangle2D;\n\npublic final class ShapeUtils {\n    private ShapeUtils() {\n    }\n    public static boolean contains(Rectangle2D a, Rectangle2D b) {\n        return a.contains(b);\n    }\n    public static double area(Rectangle2D r) {\n        return r.getWidth() * r.getHeight();\n    }\n    public static int twice(int n) {\n        return 2 * n;\n    }\n}\n";
        let text = "package a.util;\n\npublic final class TextUtils {\n    public static String trim(String s) {\n        return s.trim();\n    }\n    public static int width(String s) {\n        return s.length();\n    }\n}\n";
        let renderer = "package a;\n\nimport java.awt.geom.Rectangle2D;\n\npublic class Renderer {\n    private int pass;\n\n    public static boolean isPointInRect(Rectangle2D rect, double x, double y) {\n        return x >= rect.getMinX() && x <= rect.getMaxX() && y >= rect.getMinY() && y <= rect.getMaxY();\n    }\n\n    static String label(String s) {\n        return s + \"!\";\n    }\n\n    static boolean early(Rectangle2D rect) {\n        return rect.getMinX() < limit();\n    }\n\n    static int limit() {\n        return 3;\n    }\n}\n";
        let (_d, p) = project(&[
            ("src/main/java/a/util/ShapeUtils.java", shapes),
            ("src/main/java/a/util/TextUtils.java", text),
            ("src/main/java/a/Renderer.java", renderer),
        ]);
        let file = "src/main/java/a/Renderer.java";
        let found = destinations(&p, method(&p, file, "isPointInRect"), None, None);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].to, Destination::Class("a.util.ShapeUtils".into()));
        assert_eq!((found[0].uses, found[0].own_uses), (2, 0));
        assert!(found[0].why.as_deref().is_some_and(|w| w.contains("Rectangle2D")), "{found:#?}");
        // `String` says nothing about where a helper belongs; a helper calling its own class stays.
        assert!(destinations(&p, method(&p, file, "label"), None, None).is_empty());
        assert!(destinations(&p, method(&p, file, "early"), None, None).is_empty());
        // A predicate on a character code is like the utility class's predicates on them.
        let chars = "package a.util;\n\npublic final class CharUtils {\n    public static boolean isBlank(int c) {\n        return c == ' ';\n    }\n    public static boolean isVisible(int c) {\n        return c > 32;\n    }\n    public static String padding(int width) {\n        return \"\";\n    }\n}\n";
        let reader = "package a;\n\nclass Reader {\n    static boolean isDigit(char c) {\n        return c >= '0' && c <= '9';\n    }\n\n    static String repeat(int n) {\n        return \"\";\n    }\n}\n";
        let (_e, q) =
            project(&[("src/main/java/a/util/CharUtils.java", chars), ("src/main/java/a/Reader.java", reader)]);
        let digit = destinations(&q, method(&q, "src/main/java/a/Reader.java", "isDigit"), None, None);
        assert_eq!(digit.first().map(|d| (d.class.as_str(), d.uses)), Some(("a.util.CharUtils", 2)), "{digit:#?}");
        assert!(destinations(&q, method(&q, "src/main/java/a/Reader.java", "repeat"), None, None).is_empty());
        // Two utility classes as like it as each other: neither is chosen.
        let areas = shapes.replace("ShapeUtils", "AreaUtils");
        let (_f, r) = project(&[
            ("src/main/java/a/util/ShapeUtils.java", shapes),
            ("src/main/java/a/util/AreaUtils.java", areas.as_str()),
            ("src/main/java/a/Renderer.java", renderer),
        ]);
        assert!(destinations(&r, method(&r, file, "isPointInRect"), None, None).is_empty());
        // Lines of a method (Extract And Move) are not a helper yet.
        assert!(destinations(&p, method(&p, file, "isPointInRect"), Some((9, 9)), None).is_empty());
    }

    /// A test that reads another class's static fields exercises that class: it goes to that
    /// class's test class, as it would for calls.
    #[test]
    fn a_test_reading_static_fields_goes_to_the_test_class_of_their_class() {
        let state = "package a;\n\npublic class State {\n    static final char[] names = {'a', 'b'};\n    static final char[] values = {'c'};\n}\n";
        let state_test = "package a;\n\nclass StateTest {\n}\n";
        let other = "package a;\n\nimport java.util.Arrays;\nimport org.junit.Test;\n\nclass StaetTest {\n    @Test\n    public void sorted() {\n        char[][] arrays = {State.names, State.values};\n        for (char[] array : arrays) {\n            Arrays.sort(array);\n        }\n    }\n}\n";
        let (_d, p) = project(&[
            ("src/main/java/a/State.java", state),
            ("src/test/java/a/StateTest.java", state_test),
            ("src/test/java/a/StaetTest.java", other),
        ]);
        let found = destinations(&p, method(&p, "src/test/java/a/StaetTest.java", "sorted"), None, None);
        assert_eq!(found.first().map(|d| (d.class.as_str(), d.uses)), Some(("a.StateTest", 2)), "{found:#?}");
    }
}
