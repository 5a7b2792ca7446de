//! The agents' prompts rendered as the agents fill them, against `prompts/snapshots/`.

use std::path::Path;

use crate::llm::prompts::{BUILTIN, Prompts};

/// Every prompt rendered with sample values (the Developer's task with the real context of the
/// demo fixture's `InvoiceService.issue`), compared with `prompts/snapshots/<name>.txt`.
/// `UPDATE_SNAPSHOTS=1 cargo test --lib agent::tests` rewrites them after a deliberate change.
#[test]
fn rendered_prompts_match_their_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = crate::java::Project::open(&root.join("fixtures/projects/demo")).unwrap();
    let spec = "src/main/java/com/acme/invoicing/invoice/InvoiceService.java:issue";
    let method = crate::java::target::resolve(&project, project.root(), spec).unwrap().method;
    let context = super::developer::context(&project, method);
    let p = Prompts::builtin();
    let task = super::developer::Task {
        kind: crate::refactoring::RefactoringKind::ExtractMethod,
        method: "InvoiceService.issue(Invoice, LocalDate)".into(),
        file: "src/main/java/com/acme/invoicing/invoice/InvoiceService.java".into(),
        target: "src/main/java/com/acme/invoicing/invoice/InvoiceService.java:InvoiceService#issue(Invoice,LocalDate)"
            .into(),
        context: context.clone(),
        rag: true,
        fixed: String::new(),
    };
    let opening = super::developer::opening(&p, &task).unwrap();
    let findings = ["no new method in `InvoiceService` is called from `issue`".to_string()];
    let rendered: Vec<(&str, String)> = vec![
        ("developer", opening[0].content.clone().unwrap()),
        ("developer-task", opening[1].content.clone().unwrap()),
        (
            "reviewer-feedback",
            super::developer::feedback(&p, 1, 5, "detection", &findings, "Make that refactoring.").unwrap(),
        ),
        ("repair", p.render("repair", &[]).unwrap()),
        (
            "repair-task",
            p.render(
                "repair-task",
                &[
                    ("kind", "extract-method"),
                    ("method", "InvoiceService.issue(Invoice, LocalDate)"),
                    ("failure", "compile error"),
                    ("stage", "compile"),
                    ("diagnostics", "- src/A.java:38:37: cannot find symbol | symbol: variable invoce"),
                    ("diff", "--- a/src/A.java\n+++ b/src/A.java"),
                    ("file", "src/A.java"),
                    ("class_code", "class A {}"),
                ],
            )
            .unwrap(),
        ),
        (
            "repair-reflect",
            p.render(
                "repair-reflect",
                &[
                    ("attempt", "1"),
                    ("max_attempts", "20"),
                    ("failure", "compile error"),
                    ("stage", "compile"),
                    ("before", "- src/A.java:38:37: cannot find symbol"),
                    ("after", "- src/A.java:38:9: method validateIssuable cannot be applied"),
                ],
            )
            .unwrap(),
        ),
        ("repair-act", p.render("repair-act", &[]).unwrap()),
        (
            "raw",
            p.render(
                "raw",
                &[
                    ("kind", "extract-method"),
                    ("method", "InvoiceService.issue(Invoice, LocalDate)"),
                    ("file", "src/A.java"),
                    ("hint", ""),
                    ("context", "(the context)"),
                    ("examples", ""),
                    ("file_code", "class A {}"),
                ],
            )
            .unwrap(),
        ),
        (
            "corename",
            p.render(
                "corename",
                &[
                    ("seed_kind", "field"),
                    ("seed_old", "count"),
                    ("seed_new", "total"),
                    ("seed_file", "src/A.java"),
                    ("seed_declaration", "private int count;"),
                    (
                        "candidates",
                        "1. method getCount -> getTotal (src/A.java:7; accessor of field `count`): `int getCount()`",
                    ),
                    ("others", "class A, method reset"),
                ],
            )
            .unwrap(),
        ),
        (
            "describe",
            p.render(
                "describe",
                &[
                    ("class", "public class A"),
                    ("package", "a"),
                    ("code", "void m() {}"),
                    ("callers", "(none)"),
                    ("callees", "(none)"),
                ],
            )
            .unwrap(),
        ),
        (
            "suggest",
            p.render(
                "suggest",
                &[
                    ("files", "38"),
                    (
                        "suggestions",
                        "1. inline-method src/A.java:A#ruleFor(Category) (score 0.80): `ruleFor` is a delegator (1 statement(s), 1 caller(s)): inline it where it is called\n   lines 12-14:\n   | private Rule ruleFor(Category c) {\n   |     return rules.get(c);\n   | }",
                    ),
                ],
            )
            .unwrap(),
        ),
        (
            "wire",
            p.render(
                "wire",
                &[
                    ("file", "src/A.java"),
                    ("method", "A.total(List<Item>)"),
                    ("paste", "for (Item i : lines) { sum += i.price(); }"),
                    (
                        "names",
                        "- `lines` (lines 7; its uses need an array or Iterable):\n  - `items`: List<Item> (type List<Item> fits an array or Iterable)\n  - `others`: List<Item> (type List<Item> fits an array or Iterable)",
                    ),
                ],
            )
            .unwrap(),
        ),
    ];
    assert_eq!(rendered.len(), BUILTIN.len(), "every prompt has a snapshot");
    let dir = root.join("prompts/snapshots");
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut stale = Vec::new();
    for (name, text) in rendered {
        let path = dir.join(format!("{name}.txt"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "rendered prompts differ from prompts/snapshots/ for {stale:?}; review the change, then run UPDATE_SNAPSHOTS=1 cargo test --lib agent::tests"
    );
}
