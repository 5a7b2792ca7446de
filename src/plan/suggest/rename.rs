//! Rename Method without a model: only where a method's name contradicts its code (see the
//! parent module's documentation for the three cases), or where a test is named by a number.

use crate::engine::Spec;
use crate::engine::rename::RenameSpec;
use crate::java::syntax::Kind;
use crate::java::{MethodId, Project, SourceFile};
use crate::plan::naming::capitalize;
use tree_sitter::Node;

/// The score of a name that contradicts its method's code: a clear defect, but one a reader works
/// around, so below a long method's extraction.
const CONTRADICTION: f64 = 0.5;

/// The score of a test named by a number: its name says nothing, which is less than saying the
/// wrong thing.
const ANONYMOUS: f64 = 0.45;

/// A method whose name says the opposite of what its code does, renamed to what it does (see the
/// module's documentation for the three cases).
pub(super) fn rename_opportunity(project: &Project, m: MethodId) -> Option<(Spec, f64, String)> {
    let decl = project.method(m);
    if decl.annotated_override() {
        return None;
    }
    if let Some(found) = numbered_test(project, m) {
        return Some(found);
    }
    let ty = decl.return_type.as_ref()?;
    let returns = ty.text.as_str();
    let void = returns == "void";
    // A value that cannot be a yes or a no: a number, a text, a collection. Any other type may
    // carry one (a future of a boolean, a tri-state, a matcher or a check's result).
    let plain = ty.dims > 0
        || matches!(
            ty.raw.rsplit('.').next().unwrap_or(&ty.raw),
            "int"
                | "long"
                | "short"
                | "byte"
                | "char"
                | "double"
                | "float"
                | "String"
                | "CharSequence"
                | "List"
                | "Set"
                | "Map"
                | "Collection"
                | "ArrayList"
                | "HashMap"
                | "HashSet"
        );
    // The rest of the name after a prefix that is a whole word: `isOpen` → `Open`, not `island` → `land`.
    let after = |prefix: &str| {
        decl.name.strip_prefix(prefix).filter(|rest| rest.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
    };
    let name = &decl.name;
    let (new, why) = if let Some((prefix, rest)) =
        after("is").map(|r| ("is", r)).or_else(|| after("has").map(|r| ("has", r)))
        && plain
    {
        let counts = prefix == "has" && matches!(returns, "int" | "long" | "short");
        let verb = if counts { "count" } else { "get" };
        (
            format!("{verb}{rest}"),
            format!("returns `{returns}`, not a boolean, while `{prefix}` promises a yes or a no"),
        )
    } else if let Some(rest) = after("get")
        && void
        && decl.params.len() == 1
        && writes_field(project, m)
    {
        (format!("set{rest}"), "returns nothing and stores its argument in a field: it sets, not gets".to_string())
    } else if let Some(rest) = after("set")
        && !void
        && decl.params.is_empty()
        && returns_a_field(project, m)
    {
        (format!("get{rest}"), format!("takes nothing and only returns a field (`{returns}`): it gets, not sets"))
    } else {
        return None;
    };
    let reason = format!("`{name}` {why}: rename it `{new}`");
    Some((Spec::RenameMethod(RenameSpec { new_name: new }), CONTRADICTION, reason))
}

/// The words a numbered test name may put before its number and still say nothing: `testCase2`,
/// `testMethodOne`.
const FILLER: [&str; 7] = ["test", "method", "case", "check", "scenario", "example", "sample"];

/// Numbers written as words, as test names spell them.
const NUMBER_WORDS: [&str; 22] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "first",
    "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
];

/// A test named by a number (`testOne`, `test2`, `testMethodThree`: the "anonymous test" smell)
/// renamed after what sets it apart from the other tests of its class: the words of its first
/// text literal that differ from an otherwise equal literal of a sibling
/// (`"/document/chapter/heading"` against `"/document/chapter/footnote"`: `testHeading`).
/// Without such a literal there is no name to give, and nothing is suggested.
fn numbered_test(project: &Project, m: MethodId) -> Option<(Spec, f64, String)> {
    let decl = project.method(m);
    let words = crate::text::identifier_words(&decl.name);
    let (last, filler) = words.split_last()?;
    // A counter, not an issue's number (`test4711` names the bug it reproduces).
    if words.len() < 2
        || !words[0].eq_ignore_ascii_case("test")
        || !is_number(last)
        || last.len() > 2 && last.chars().all(|c| c.is_ascii_digit())
        || !filler.iter().all(|w| FILLER.contains(&w.to_lowercase().as_str()))
        || !project.is_test_method(m)
    {
        return None;
    }
    let owner = project.owner(m);
    // A literal named after the test as the test is (`inputOne.xml` for `testOne`) names it no
    // better: each test's own number is left out of its literals' words.
    let words_of = |t: MethodId| -> Vec<Vec<String>> {
        let number = crate::text::identifier_words(&project.method(t).name).pop().unwrap_or_default();
        string_literals(project, t)
            .iter()
            .map(|l| {
                literal_words(l)
                    .into_iter()
                    .filter(|w| !w.eq_ignore_ascii_case(&number))
                    .map(|w| w.to_lowercase())
                    .collect()
            })
            .collect()
    };
    // The other numbered tests first: `testOne` and `testTwo` are written as pairs.
    let mut siblings: Vec<(MethodId, Vec<Vec<String>>)> = project
        .methods_of(owner)
        .into_iter()
        .filter(|&s| s != m && project.is_test_method(s))
        .map(|s| (s, words_of(s)))
        .collect();
    siblings.sort_by_cached_key(|(s, _)| {
        !crate::text::identifier_words(&project.method(*s).name).last().is_some_and(|w| is_number(w))
    });
    let (own, other, sibling) = words_of(m).iter().find_map(|own| {
        siblings
            .iter()
            .find_map(|(s, literals)| literals.iter().find_map(|o| differing_words(own, o)).map(|(a, b)| (a, b, *s)))
    })?;
    // `testTest` says no more than `testOne`.
    if own.iter().all(|w| FILLER.contains(&w.as_str())) {
        return None;
    }
    let new = format!("test{}", own.iter().map(|w| capitalize(w)).collect::<String>());
    if project.methods_of(owner).into_iter().any(|o| project.method(o).name == new) {
        return None;
    }
    let reason = format!(
        "`{}` is named by a number, not by what it checks; its text reads `{}` where `{}` reads `{}`: rename it `{new}`",
        decl.name,
        own.join(" "),
        project.method(sibling).name,
        other.join(" ")
    );
    Some((Spec::RenameMethod(RenameSpec { new_name: new }), ANONYMOUS, reason))
}

/// Whether `word` is a number, in digits or in words (`2`, `Two`, `second`).
fn is_number(word: &str) -> bool {
    word.chars().all(|c| c.is_ascii_digit()) || NUMBER_WORDS.contains(&word.to_lowercase().as_str())
}

/// The texts of `m`'s body, in order, without their quotes: each literal, or the literals of a
/// `+` chain joined (`"/document" + "/chapter"` is one text, as the test reads it).
fn string_literals(project: &Project, m: MethodId) -> Vec<String> {
    let decl = project.method(m);
    let Some(body) = decl.body else { return Vec::new() };
    let file = project.method_source(m);
    let Some(node) = file.root().descendant_for_byte_range(body.start_byte, body.end_byte) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    crate::java::syntax::walk(node, &mut |n| {
        let mut parts = Vec::new();
        if !concatenated(file, n, &mut parts) || parts.iter().all(Option::is_none) {
            return true;
        }
        out.push(parts.iter().map(|p| p.as_deref().unwrap_or(" ")).collect());
        false
    });
    out
}

/// Whether `n` is a text literal or a `+` chain of them and of other operands, with each
/// literal's text pushed on `parts` and `None` for each other operand.
fn concatenated<'f>(file: &'f SourceFile, n: Node<'_>, parts: &mut Vec<Option<&'f str>>) -> bool {
    match n.kind() {
        "string_literal" => {
            parts.push(Some(file.text_of(n).trim_matches('"')));
            true
        }
        "parenthesized_expression" => n.named_child(0).is_some_and(|c| concatenated(file, c, parts)),
        "binary_expression" if n.child_by_field_name("operator").is_some_and(|o| file.text_of(o) == "+") => {
            for side in ["left", "right"] {
                // Another operand (`getMessage(…)`) parts the text, as a space would.
                if let Some(c) = n.child_by_field_name(side)
                    && !concatenated(file, c, parts)
                {
                    parts.push(None);
                }
            }
            true
        }
        _ => false,
    }
}

/// The words of a literal, in order: split at anything but letters and digits, then as an
/// identifier's words.
fn literal_words(literal: &str) -> Vec<String> {
    literal
        .split(|c: char| !c.is_alphanumeric())
        .filter(|p| !p.is_empty())
        .flat_map(crate::text::identifier_words)
        .collect()
}

/// The words of `own` where it first differs from `other`, two literals that begin alike (two
/// words or more), and `other`'s there: up to the rest they end with alike, at most two words
/// (`footnote anchor` in `/document/chapter/footnote/anchor/text` against
/// `/document/chapter/heading/text`), one of them three letters or more and none a number.
fn differing_words(own: &[String], other: &[String]) -> Option<(Vec<String>, Vec<String>)> {
    const MOST: usize = 2;
    let prefix = own.iter().zip(other).take_while(|(a, b)| a == b).count();
    let room = own.len().min(other.len()) - prefix;
    let suffix = own.iter().rev().zip(other.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    let cut = |words: &[String]| words[prefix..words.len() - suffix].iter().take(MOST).cloned().collect::<Vec<_>>();
    let (a, b) = (cut(own), cut(other));
    // Told apart by a number (`Input1` against `Input2`) is told apart by nothing.
    let readable =
        a.iter().any(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 3) && !a.iter().any(|w| is_number(w));
    (prefix >= 2 && readable && !b.is_empty()).then_some((a, b))
}

/// Whether `m`'s body is only `return x;` or `return this.x;` with `x` a field of its class.
fn returns_a_field(project: &Project, m: MethodId) -> bool {
    let decl = project.method(m);
    let Some(body) = decl.body else { return false };
    let file = project.method_source(m);
    let text = file.text[body.start_byte..body.end_byte].trim_start_matches('{').trim_end_matches('}').trim();
    let Some(value) = text.strip_prefix("return").and_then(|r| r.trim().strip_suffix(';')) else { return false };
    let name = value.trim().trim_start_matches("this.").trim();
    project.type_decl(project.owner(m)).fields.iter().any(|f| f.name == name)
}

/// Whether `m`'s body assigns a field: `this.x = ...`, or a name that is no parameter or local.
fn writes_field(project: &Project, m: MethodId) -> bool {
    let decl = project.method(m);
    let Some(body) = decl.body else { return false };
    let file = project.method_source(m);
    let Some(node) = file.root().descendant_for_byte_range(body.start_byte, body.end_byte) else { return false };
    let own = |name: &str| decl.params.iter().any(|p| p.name == name) || decl.locals.iter().any(|l| l.name == name);
    let mut writes = false;
    crate::java::syntax::walk(node, &mut |n| {
        let target = match n.kind_name() {
            "assignment_expression" => n.child_by_field_name("left"),
            "update_expression" => n.named_child(0),
            _ => None,
        };
        if let Some(t) = target {
            writes |= match t.kind_name() {
                "field_access" => t.child_by_field_name("object").is_some_and(|o| o.kind_name() == "this"),
                "identifier" => !own(file.text_of(t)),
                _ => false,
            };
        }
        !writes
    });
    writes
}

#[cfg(test)]
mod tests {
    use super::super::*;

    /// Issue 18: a name that contradicts the code is a Rename suggestion; a name that fits it, an
    /// override, a lazy getter and a fluent setter are not.
    #[test]
    fn names_that_contradict_the_code_are_renamed_to_what_it_does() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src/main/java/p");
        std::fs::create_dir_all(&src).unwrap();
        let code = r#"package p;

import java.util.ArrayList;
import java.util.List;

public class Account implements Comparable<Account> {
    private int owner;
    private List<String> items;
    private String label;
    private String name;

    public int isOwner() { return owner; }
    int hasItems() { return items.size(); }
    List<String> hasChildren() { return items; }
    void getLabel(String label) { this.label = label; }
    String setUp() { return label + owner; }
    String setName() { return this.name; }
    java.util.concurrent.Future<Boolean> isDone() { return null; }

    boolean isEmpty() { return items.isEmpty(); }
    List<String> getItems() {
        if (items == null) {
            items = new ArrayList<>();
        }
        return items;
    }
    Account setOwner(int owner) { this.owner = owner; return this; }
    String island() { return label; }
    @Override
    public int compareTo(Account other) { return Integer.compare(isOwner(), other.isOwner()); }
}
"#;
        std::fs::write(src.join("Account.java"), code).unwrap();
        let project = Project::open(dir.path()).unwrap();
        let files: Vec<FileId> = project.file_ids().collect();
        let found = opportunities(&project, &files, &[RefactoringKind::RenameMethod], usize::MAX, 0.0).best;
        let renames: std::collections::BTreeMap<String, String> = found
            .iter()
            .map(|o| {
                let Spec::RenameMethod(spec) = &o.spec else { panic!("{o:?}") };
                (project.method(o.method).name.clone(), spec.new_name.clone())
            })
            .collect();
        let expected: std::collections::BTreeMap<String, String> = [
            ("isOwner", "getOwner"),
            ("hasItems", "countItems"),
            ("hasChildren", "getChildren"),
            ("getLabel", "setLabel"),
            ("setName", "getName"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        assert_eq!(renames, expected, "{found:#?}");
        let is_owner = found.iter().find(|o| project.method(o.method).name == "isOwner").unwrap();
        assert!(is_owner.reason.contains("returns `int`, not a boolean"), "{}", is_owner.reason);
        assert_eq!(is_owner.kind, RefactoringKind::RenameMethod);
    }

    /// Issue 18: a test named by a number is renamed after what its text says and a sibling's
    /// does not, literals joined with `+` read as one text and its own number left out; a
    /// numbered test whose text sets it apart from no sibling or only by a number, a test named
    /// after an issue's number, and a test with a real name, are not renamed.
    #[test]
    fn a_test_named_by_a_number_is_renamed_after_what_sets_it_apart() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src/test/java/p");
        std::fs::create_dir_all(&src).unwrap();
        let code = r#"package p;

import org.junit.Test;

public class QueryTest {
    @Test
    public void testOne() throws Exception {
        check(load("inputOne.xml"), "/document/chapter"
            + "/heading/text");
    }
    @Test
    public void testTwo() throws Exception {
        check(load("inputTwo.xml"), "/document/chapter" + "/footnote/anchor/text");
    }
    @Test
    public void testCaseThree() {
        check(load("elsewhere.xml"), "unrelated");
    }
    @Test
    public void testFour() {
        check(load("item1.xml"), "/document/chapter/item1/text");
    }
    @Test
    public void testFive() {
        check(load("item2.xml"), "/document/chapter/item2/text");
    }
    @Test
    public void test4711() {
        check(load("bug.xml"), "/document/chapter/caption/text");
    }
    @Test
    public void testFootnoteAnchor() {
        check(load("anchor.xml"), "/document/anchor");
    }
    private void check(Object doc, String path) {}
    private Object load(String name) { return name; }
}
"#;
        std::fs::write(src.join("QueryTest.java"), code).unwrap();
        let project = Project::open(dir.path()).unwrap();
        let files: Vec<FileId> = project.file_ids().collect();
        let found = opportunities(&project, &files, &[RefactoringKind::RenameMethod], usize::MAX, 0.0).best;
        let renames: Vec<(String, String)> = found
            .iter()
            .map(|o| {
                let Spec::RenameMethod(spec) = &o.spec else { panic!("{o:?}") };
                (project.method(o.method).name.clone(), spec.new_name.clone())
            })
            .collect();
        // `testTwo` would be `testFootnoteAnchor`, a name its class has already.
        assert_eq!(renames, [("testOne".to_string(), "testHeading".to_string())], "{found:#?}");
        assert!(found[0].reason.contains("named by a number"), "{}", found[0].reason);
    }
}
