use super::*;
use crate::agent::NoExamples;

const ISSUE: &str = "src/main/java/com/acme/invoicing/invoice/InvoiceService.java";

fn demo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/projects/demo");
    copy(&from, dir.path());
    dir
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_name() == "target" {
            continue;
        }
        if e.file_type().unwrap().is_dir() {
            copy(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn bench<'a>(dir: &Path, examples: &'a dyn Examples) -> Workbench<'a> {
    let project = Project::open(dir).unwrap();
    let m = target::resolve(&project, dir, &format!("{ISSUE}:issue")).unwrap().method;
    Workbench::new(dir, &project, m, RefactoringKind::ExtractMethod, examples)
}

#[test]
fn paths_are_confined_to_the_repository() {
    let dir = demo();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "s").unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
    let mut b = bench(dir.path(), &NoExamples);
    for (path, why) in [
        ("/etc/passwd", "is absolute"),
        ("../x", "leaves the repository"),
        ("src/../../x", "leaves the repository"),
        ("link/secret.txt", "leads outside the repository"),
        ("nope.txt", "does not exist"),
        (".git/config", "git's own data"),
    ] {
        let err = b.call("get_file_content", &json!({"path": path})).unwrap_err();
        assert!(err.contains(why), "{path}: {err}");
    }
    let err = b.call("write_file", &json!({"path": "link/new.java", "content": "x"})).unwrap_err();
    assert!(err.contains("leads outside"), "{err}");
    // Issue 14, defect 8: these were accepted, and failed only at write-back (or wrote build
    // configuration nobody asked for).
    for (path, why) in [
        ("src/main/java/A\0.java", "NUL byte"),
        ("src/main/java", "is a folder"),
        ("src/main/java/New.java/", "names a folder"),
        (".GIT/config", "git's own data"),
        ("sub/.Git/hooks/pre-commit", "git's own data"),
        (".mvn/jvm.config", "build configuration"),
        ("pom.xml", "build configuration"),
        ("gradle/wrapper/gradle-wrapper.properties", "build configuration"),
    ] {
        let err = b.call("write_file", &json!({"path": path, "content": "x"})).unwrap_err();
        assert!(err.contains(why), "{path:?}: {err}");
    }
    assert!(!dir.path().join(".mvn").exists());
    assert!(!outside.path().join("new.java").exists());
    let ok = b.call("get_file_content", &json!({"path": ISSUE, "start_line": 37, "end_line": 38})).unwrap();
    assert!(ok.contains("37|     public Invoice issue(Invoice invoice, LocalDate issueDate) {"), "{ok}");
}

#[test]
fn the_engine_applies_into_the_overlay_and_refusals_come_back() {
    let dir = demo();
    let before = std::fs::read_to_string(dir.path().join(ISSUE)).unwrap();
    let mut b = bench(dir.path(), &NoExamples);
    let refused = b.call("extract_method", &json!({"start_line": 38, "end_line": 40, "name": "check"})).unwrap_err();
    assert!(refused.starts_with("the engine refused ("), "{refused}");
    let missing = b.call("extract_method", &json!({"start_line": 38, "name": "check"})).unwrap_err();
    assert!(missing.contains("both `start_line` and `end_line`"), "{missing}");
    let bad_name = b.call("rename_method", &json!({"new_name": "class"})).unwrap_err();
    assert!(bad_name.contains("not a valid Java method name"), "{bad_name}");
    let ok = b.call("extract_method", &json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"})).unwrap();
    assert!(ok.contains("+        validateIssuable(issueDate, invoice);"), "{ok}");
    assert_eq!(std::fs::read_to_string(dir.path().join(ISSUE)).unwrap(), before, "the user's file is untouched");
    let now = b.call("get_method", &json!({})).unwrap();
    assert!(now.contains("validateIssuable(issueDate, invoice);"), "the tools read the overlay: {now}");
    let changes = b.change_set();
    assert_eq!(changes.render().unwrap()[Path::new(ISSUE)], b.overlay[Path::new(ISSUE)]);
    assert_eq!(b.applied.len(), 1);
}

#[test]
fn context_tools_answer() {
    let dir = demo();
    let mut b = bench(dir.path(), &NoExamples);
    let s = b.call("get_project_structure", &json!({})).unwrap();
    assert!(s.contains("Build system:  Maven") && s.contains(ISSUE), "{s}");
    let c = b.call("get_class_info", &json!({"class": "InvoiceService"})).unwrap();
    assert!(
        c.contains("class com.acme.invoicing.invoice.InvoiceService") && c.contains("issue(Invoice invoice"),
        "{c}"
    );
    // Issue 14: the sloppy names small models write, where they name one class.
    for sloppy in [
        "com.acme.invoicing/invoice/InvoiceService",
        "com/acme/invoicing/invoice/InvoiceService",
        "src/main/java/com/acme/invoicing/invoice/InvoiceService",
        ISSUE,
    ] {
        let c = b.call("get_class_info", &json!({"class": sloppy})).unwrap_or_else(|e| panic!("{sloppy}: {e}"));
        assert!(c.contains("class com.acme.invoicing.invoice.InvoiceService"), "{sloppy}: {c}");
    }
    // Issue 14: a bare method name, or `Class#method`, in the task's file.
    for bare in ["issue", "InvoiceService#issue"] {
        let m = b.call("get_method", &json!({"target": bare})).unwrap_or_else(|e| panic!("{bare}: {e}"));
        assert!(m.contains("public Invoice issue(Invoice invoice, LocalDate issueDate)"), "{bare}: {m}");
    }
    let cc = b.call("get_callers_and_callees", &json!({})).unwrap();
    assert!(cc.contains("Callees of") && cc.contains("nextNumberFor"), "{cc}");
    let h = b.call("get_type_hierarchy", &json!({})).unwrap();
    assert!(h.contains("Supertypes:"), "{h}");
    let e = b.call("search_similar_refactorings", &json!({"query": "validate"})).unwrap();
    assert!(e.contains("example store is empty"), "{e}");
    b.toolset = Toolset::Developer { rag: false };
    assert!(b.call("search_similar_refactorings", &json!({"query": "x"})).is_err());
    b.toolset = Toolset::Repair;
    let names: Vec<String> = b.specs().into_iter().map(|s| s.name).collect();
    assert_eq!(names, REPAIR_TOOLS);
}

#[test]
fn written_lines_that_do_not_resolve_are_reported_and_wire_code_binds_them() {
    let dir = demo();
    let mut b = bench(dir.path(), &NoExamples);
    let text = std::fs::read_to_string(dir.path().join(ISSUE)).unwrap();
    let pasted =
        text.replacen("        invoice.cancel();\n", "        invoice.cancel();\n        repo.save(invoice);\n", 1);
    let line = pasted.lines().position(|l| l.contains("repo.save")).unwrap() + 1;
    let out = b.call("write_file", &json!({"path": ISSUE, "content": pasted})).unwrap();
    assert!(out.contains("`repo`") && out.contains("bound to `repository`"), "{out}");
    assert!(
        b.text(Path::new(ISSUE)).unwrap().contains("        repo.save(invoice);"),
        "write_file writes what it is given"
    );
    let out = b.call("wire_code", &json!({"path": ISSUE, "start_line": line, "end_line": line})).unwrap();
    assert!(out.contains("bound to `repository`"), "{out}");
    let now = b.text(Path::new(ISSUE)).unwrap();
    assert!(now.contains("        repository.save(invoice);\n        repository.save(invoice);"), "{now}");
    let out = b.call("wire_code", &json!({"path": ISSUE, "start_line": line, "end_line": line})).unwrap();
    assert!(out.contains("nothing to wire"), "{out}");
    // The Repair agent's view of javac's error on such a line.
    let d = crate::build::Diagnostic {
        file: ISSUE.into(),
        line: 1,
        column: None,
        message: "cannot find symbol\n  symbol:   variable repo".into(),
        source_line: None,
    };
    let mut b = bench(dir.path(), &NoExamples);
    b.call("write_file", &json!({"path": ISSUE, "content": pasted})).unwrap();
    let d = crate::build::Diagnostic { line, ..d };
    let lines = wiring::candidates_for(&mut b, &[d]);
    assert!(lines.contains("`repo` is not declared there; most likely `repository`"), "{lines}");
}
