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
use crate::java::symbols::{CallKind, Receiver};
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
        static_destinations(project, method, &in_range)
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
        })
        .collect()
}

fn static_destinations(project: &Project, method: MethodId, in_range: &dyn Fn(usize) -> bool) -> Vec<DestinationScore> {
    let (uses, own) = class_uses(project, method, in_range);
    uses.into_iter()
        .map(|(t, n)| {
            let class = project.qualified_name(t);
            DestinationScore {
                to: Destination::Class(class.clone()),
                class,
                uses: n,
                own_uses: own,
                score: score(n, own),
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
    let (uses, mut own) = class_uses(project, method, in_range);
    let test = project.is_test_method(method);
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
            out.push(DestinationScore { to: Destination::Class(class.clone()), class, uses: n, own_uses: own, score });
        }
    }
    out
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
}
