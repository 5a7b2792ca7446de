//! Rename Method without a model: only where a method's name contradicts its code (see the
//! parent module's documentation for the three cases).

use super::annotated_override;
use crate::engine::Spec;
use crate::engine::rename::RenameSpec;
use crate::java::syntax::Kind;
use crate::java::{MethodId, Project};

/// The score of a name that contradicts its method's code: a clear defect, but one a reader works
/// around, so below a long method's extraction.
const CONTRADICTION: f64 = 0.5;

/// A method whose name says the opposite of what its code does, renamed to what it does (see the
/// module's documentation for the three cases).
pub(super) fn rename_opportunity(project: &Project, m: MethodId) -> Option<(Spec, f64, String)> {
    let decl = project.method(m);
    if annotated_override(decl) {
        return None;
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
}
