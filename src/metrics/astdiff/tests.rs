use std::path::Path;

use super::*;
use crate::engine::extract::{ExtractSpec, extract_method};
use crate::java::SourceFile;

const BEFORE: &str = r#"package shop;

public class Invoice {
    private final java.util.List<Integer> prices = new java.util.ArrayList<>();

    public String render(String customer) {
        StringBuilder out = new StringBuilder();
        out.append("Invoice for ").append(customer).append('\n');
        int total = 0;
        for (int p : prices) {
            total += p;
        }
        out.append("Total: ").append(total);
        return out.toString();
    }
}
"#;

/// What a developer wrote: the loop extracted into `total()`.
const HUMAN: &str = r#"package shop;

public class Invoice {
    private final java.util.List<Integer> prices = new java.util.ArrayList<>();

    public String render(String customer) {
        StringBuilder out = new StringBuilder();
        out.append("Invoice for ").append(customer).append('\n');
        int total = total();
        out.append("Total: ").append(total);
        return out.toString();
    }

    private int total() {
        int total = 0;
        for (int p : prices) {
            total += p;
        }
        return total;
    }
}
"#;

fn snapshot(text: &str) -> Files {
    Snapshot::from_files([("src/shop/Invoice.java", text)])
}

/// The engine's extraction of lines 9-12 (the sum) into `total`.
fn engine_extract(name: &str) -> String {
    let path = Path::new("src/shop/Invoice.java");
    let file = SourceFile::parse(path, BEFORE.to_string());
    let spec = ExtractSpec {
        file: path.to_path_buf(),
        method_line: Some(6),
        lines: (9, 12),
        name: name.to_string(),
        visibility: Some("private".into()),
        local_types: Default::default(),
        params: Vec::new(),
        param_types: Default::default(),
        quiet_calls: Vec::new(),
        copies: Vec::new(),
    };
    let changes = extract_method(&file, &spec).expect("the engine extracts the loop");
    changes.render_file(path).expect("no conflict").expect("the file changed")
}

#[test]
fn our_extract_of_the_same_statements_matches_the_developers() {
    let ours = engine_extract("total");
    let d = ast_diff(&snapshot(BEFORE), &snapshot(HUMAN), &snapshot(&ours));
    assert!(d.human_actions > 0);
    // Same statements carried, same call, same return: the same edit, whatever the layout.
    assert_eq!((d.precision, d.recall), (1.0, 1.0), "{d:?}\n{ours}");
    // The same change exactly: everything agrees.
    let same = ast_diff(&snapshot(BEFORE), &snapshot(HUMAN), &snapshot(HUMAN));
    assert_eq!((same.precision, same.recall), (1.0, 1.0));
    assert_eq!(same.common, same.human_actions);
}

#[test]
fn another_name_costs_the_method_level_actions() {
    let right = ast_diff(&snapshot(BEFORE), &snapshot(HUMAN), &snapshot(&engine_extract("total")));
    let renamed = ast_diff(&snapshot(BEFORE), &snapshot(HUMAN), &snapshot(&engine_extract("sumOfPrices")));
    assert!(renamed.recall < right.recall, "{right:?} {renamed:?}");
}

#[test]
fn a_no_op_recalls_nothing() {
    let d = ast_diff(&snapshot(BEFORE), &snapshot(HUMAN), &snapshot(BEFORE));
    assert_eq!(d.our_actions, 0);
    assert_eq!((d.precision, d.recall), (0.0, 0.0));
    // Files we did not touch may be left out of our snapshot.
    let d = ast_diff(&snapshot(BEFORE), &snapshot(HUMAN), &Snapshot::new());
    assert_eq!((d.our_actions, d.recall), (0, 0.0));
    // Two no-ops agree.
    let d = ast_diff(&snapshot(BEFORE), &snapshot(BEFORE), &snapshot(BEFORE));
    assert_eq!((d.precision, d.recall), (1.0, 1.0));
}

#[test]
fn layout_only_changes_make_no_action() {
    let reformatted = BEFORE.replace("        ", "    ").replace("total += p;", "total += p; // add");
    let d = ast_diff(&snapshot(BEFORE), &snapshot(HUMAN), &snapshot(&reformatted));
    assert_eq!(d.our_actions, 0, "{d:?}");
}

#[test]
fn actions_name_what_moved_where() {
    let (human, _) = both_edits(&snapshot(BEFORE), &snapshot(HUMAN), &snapshot(BEFORE));
    assert!(human.contains(&Action::AddMethod { method: "shop.Invoice#total".into() }), "{human:#?}");
    assert!(
        human.contains(&Action::Move {
            from: "shop.Invoice#render".into(),
            to: "shop.Invoice#total".into(),
            statement: "total += p ;".into(),
        }),
        "{human:#?}"
    );
    assert!(
        human.iter().any(|a| matches!(a, Action::Update { before, .. } if before == "int total = 0 ;")
            || matches!(a, Action::Move { statement, .. } if statement == "int total = 0 ;")),
        "{human:#?}"
    );
}
