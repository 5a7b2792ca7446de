//! `mantra refactor` through the real binary on copies of the fixture projects: explicit specs,
//! the planner alone, `--explain`, `--json`, every bad input with its exit code, and real builds
//! (Maven, Gradle) after `--apply --no-verify`.

use std::path::Path;

use crate::harness::{Run, copy_fixture, gradle_test, mantra, maven_test};

const ISSUE: &str = "src/main/java/com/acme/invoicing/invoice/InvoiceService.java";

fn run_in(dir: &Path, args: &[&str]) -> Run {
    let mut all = vec!["--repo", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    mantra(dir, &all)
}

fn read(dir: &Path, rel: &str) -> Vec<u8> {
    std::fs::read(dir.join(rel)).unwrap()
}

#[test]
fn extract_with_an_explicit_spec_writes_and_the_maven_build_stays_green() {
    let dir = copy_fixture("demo");
    let target = format!("{ISSUE}:issue");
    let run = run_in(
        dir.path(),
        &[
            "refactor",
            "-t",
            "extract-method",
            &target,
            "--lines",
            "38-44",
            "--name",
            "validateIssuable",
            "--apply",
            "--no-verify",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!run.stderr.contains("[plan]"), "the flags gave the whole spec: {}", run.stderr);
    assert!(
        run.stdout.ends_with("extract-method InvoiceService.issue(Invoice, LocalDate): 1 file written (unverified)\n"),
        "{}",
        run.stdout
    );
    let text = String::from_utf8(read(dir.path(), ISSUE)).unwrap();
    assert!(text.contains("        validateIssuable(issueDate, invoice);\n"), "{text}");
    assert!(text.contains("    private void validateIssuable(LocalDate issueDate, Invoice invoice) {\n"), "{text}");
    maven_test(dir.path());
}

#[test]
fn the_planner_alone_extracts_in_the_gradle_project_and_the_build_stays_green() {
    let dir = copy_fixture("parking-gradle");
    let file = "src/main/java/com/acme/parking/Garage.java";
    let before = String::from_utf8(read(dir.path(), file)).unwrap();
    let target = format!("{file}:exit");
    let run = run_in(dir.path(), &["refactor", "-t", "extract-method", &target, "--apply", "--no-verify"]);
    assert_eq!(run.code, 0, "{run:?}");
    let plan_line =
        run.stderr.lines().find(|l| l.starts_with("[plan] extract lines ")).unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(plan_line.contains(" (score 0."), "{plan_line}");
    let after = String::from_utf8(read(dir.path(), file)).unwrap();
    assert_ne!(before, after);
    gradle_test(dir.path());
}

#[test]
fn a_dry_run_prints_the_diff_and_the_plan_and_writes_nothing() {
    let dir = copy_fixture("demo");
    let before = read(dir.path(), ISSUE);
    let target = format!("{ISSUE}:issue");
    let run = run_in(dir.path(), &["refactor", "-t", "extract-method", &target]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stderr, "[plan] extract lines 38-44 as validateInvoice (paragraph) (score 0.80)\n");
    assert!(run.stdout.starts_with(&format!("--- a/{ISSUE}\n+++ b/{ISSUE}\n@@ ")), "{}", run.stdout);
    assert!(run.stdout.contains("\n+        validateInvoice(issueDate, invoice);\n"), "{}", run.stdout);
    assert!(run.stdout.contains("\n-        Objects.requireNonNull(issueDate, \"issueDate\");\n"));
    assert!(run.stdout.ends_with(
        "extract-method InvoiceService.issue(Invoice, LocalDate): 1 file changed (dry run; pass --apply to verify and write)\n"
    ));
    assert_eq!(read(dir.path(), ISSUE), before);
    let again = run_in(dir.path(), &["refactor", "-t", "extract-method", &target, "--dry-run"]);
    assert_eq!(again.stdout, run.stdout);
}

#[test]
fn explain_lists_scored_candidates_and_does_nothing_else() {
    let dir = copy_fixture("demo");
    let before = read(dir.path(), ISSUE);
    let target = format!("{ISSUE}:issue");
    let run = run_in(dir.path(), &["refactor", "-t", "extract-method", &target, "--explain"]);
    assert_eq!(run.code, 0, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "extract-method candidates for InvoiceService.issue(Invoice, LocalDate), best first:");
    assert_eq!(lines[1], " 1. 0.80  extract lines 38-44 as validateInvoice (paragraph)");
    assert_eq!(lines[2], "          size 1, cohesion 0.38, params 0.60, outputs 1, nesting 1, shape 0.80");
    assert_eq!(lines.iter().filter(|l| l.starts_with(' ') && l.contains(". ")).count(), 5, "{}", run.stdout);
    assert_eq!(read(dir.path(), ISSUE), before);

    let json = run_in(
        dir.path(),
        &[
            "--json",
            "refactor",
            "-t",
            "move-method",
            "src/main/java/com/acme/invoicing/report/RevenueReport.java:sum",
            "--explain",
        ],
    );
    assert_eq!(json.code, 0, "{json:?}");
    let v: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(v["event"], "result");
    assert_eq!(v["kind"], "plan");
    assert_eq!(v["data"]["type"], "move-method");
    let best = &v["data"]["candidates"][0];
    assert_eq!(
        best["spec"],
        serde_json::json!({"type": "move-method", "to": {"kind": "class", "name": "com.acme.invoicing.money.Money"}, "keep_delegate": false})
    );
    assert!(best["score"].as_f64().unwrap() > 0.5);
    assert_eq!(best["components"][0]["name"], "uses");
}

#[test]
fn json_prints_one_refactoring_result() {
    let dir = copy_fixture("demo");
    let target = format!("{ISSUE}:issue");
    let run = run_in(dir.path(), &["--json", "refactor", "-t", "extract-method", &target]);
    assert_eq!(run.code, 0, "{run:?}");
    let events: Vec<serde_json::Value> = run.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let results: Vec<&serde_json::Value> = events.iter().filter(|e| e["event"] == "result").collect();
    assert_eq!(results.len(), 1, "{}", run.stdout);
    let data = &results[0]["data"];
    assert_eq!(results[0]["kind"], "refactoring");
    assert_eq!(data["type"], "extract-method");
    assert_eq!(data["method"], "InvoiceService.issue(Invoice, LocalDate)");
    assert_eq!(data["spec"]["type"], "extract-method");
    assert_eq!(data["spec"]["lines"], serde_json::json!([38, 44]));
    assert_eq!(data["spec"]["name"], "validateInvoice");
    assert_eq!(data["candidate"]["summary"], "extract lines 38-44 as validateInvoice (paragraph)");
    assert_eq!(data["files"], serde_json::json!([ISSUE]));
    assert_eq!(data["applied"], false);
    assert!(data["diff"].as_str().unwrap().starts_with(&format!("--- a/{ISSUE}\n")));
    // The plan is progress: an event too, not bare text.
    assert!(events.iter().any(|e| e["event"] == "progress" && e["stage"] == "plan"));
}

#[test]
fn bad_input_gets_its_exit_code_and_a_clear_message() {
    let dir = copy_fixture("demo");
    let before = read(dir.path(), ISSUE);
    let target = format!("{ISSUE}:issue");
    let missing = format!("{ISSUE}:issu");
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec!["refactor", "-t", "explode-method", &target], 2, "invalid value 'explode-method'"),
        (
            vec!["refactor", "-t", "extract-method", &target, "--lines", "5"],
            2,
            "--lines 5: expected two line numbers joined by `-`",
        ),
        (vec!["refactor", "-t", "extract-method", &target, "--lines", "9-3"], 2, "did you mean `3-9`?"),
        (vec!["refactor", "-t", "extract-method", &target, "--lines", "a-b"], 2, "both ends must be line numbers"),
        (
            vec!["refactor", "-t", "extract-method", &target, "--lines", "20-30"],
            2,
            "--lines 20-30 is outside the body of InvoiceService.issue(Invoice, LocalDate), whose statements are on lines 38-54",
        ),
        (
            vec!["refactor", "-t", "extract-method", &target, "--verify", "--no-verify"],
            2,
            "the argument '--verify' cannot be used with '--no-verify'",
        ),
        (
            vec!["refactor", "-t", "rename-method", &target],
            2,
            "mantra does not invent names without a model; pass --name",
        ),
        (
            vec!["refactor", "-t", "rename-method", &target, "--lines", "38-44"],
            2,
            "--lines does not apply to rename-method",
        ),
        (vec!["refactor", "-t", "move-method", &target, "--to", "somewhere"], 2, "--to: "),
        (vec!["refactor", "-t", "extract-method", &missing], 3, "no method `issu`"),
        (vec!["refactor", "-t", "extract-method", "src/Nope.java:x"], 3, "no such file"),
    ];
    for (args, code, message) in cases {
        let run = run_in(dir.path(), &args);
        assert_eq!(run.code, code, "{args:?}: {run:?}");
        assert!(run.stderr.contains(message), "{args:?}: expected {message:?} in\n{}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    }
    assert_eq!(read(dir.path(), ISSUE), before);
}

#[test]
fn a_refusal_exits_1_with_its_reason_and_writes_nothing() {
    let dir = copy_fixture("demo");
    let before = read(dir.path(), ISSUE);
    let target = format!("{ISSUE}:issue");
    let run = run_in(
        dir.path(),
        &[
            "refactor",
            "-t",
            "extract-method",
            &target,
            "--lines",
            "50-51",
            "--name",
            "prepare",
            "--apply",
            "--no-verify",
        ],
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr.starts_with(
            "error: extract-method refused (multiple_outputs): the selected statements assign both `tax` and `number`"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("help: nothing was written"), "{}", run.stderr);
    assert_eq!(read(dir.path(), ISSUE), before);
    let json = run_in(
        dir.path(),
        &["--json", "refactor", "-t", "extract-method", &target, "--lines", "50-51", "--name", "prepare"],
    );
    let v: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(
        (v["event"].as_str(), v["exit_code"].as_u64(), v["kind"].as_str()),
        (Some("error"), Some(1), Some("rejected"))
    );
}
