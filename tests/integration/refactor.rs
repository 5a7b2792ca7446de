//! `mantra refactor` through the real binary on copies of the fixture projects: explicit specs,
//! the planner alone, `--explain`, `--json`, every bad input with its exit code, and real builds
//! (Maven, Gradle) after `--apply --no-verify`.

use std::path::Path;

use crate::harness::{Run, copy_fixture, gradle_test, mantra, mantra_env, maven_test};

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
    let stderr: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(stderr[0], "[plan] extract lines 38-44 as validateInvoice (paragraph) (score 0.80)");
    assert!(stderr[1].starts_with("[preview] kept as run "), "{}", run.stderr);
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
    assert_eq!(lines[3], "          engine: applies");
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

/// Issue 14, defect 2: the model's API key was in the environment of every build and test
/// process, so code the model wrote could print it. No child sees it, under any of its names.
#[test]
fn build_and_test_processes_never_see_the_api_key() {
    let dir = copy_fixture("demo");
    let seen = tempfile::tempdir().unwrap();
    let out = seen.path().join("env.txt");
    let dump = format!("sh -c \"env >> {}\"", out.display());
    let target = format!("{ISSUE}:issue");
    let args = ["--repo", dir.path().to_str().unwrap(), "refactor", "-t", "extract-method", &target];
    let args = [&args[..], &["--lines", "38-44", "--name", "validateIssuable", "--verify"]].concat();
    let env = [
        ("MANTRA_API_KEY", "secret-mantra-key"),
        ("OPENAI_API_KEY", "secret-openai-key"),
        ("MANTRA_LLM_API_KEY_ENV", "TEAM_MODEL_KEY"),
        ("TEAM_MODEL_KEY", "secret-team-key"),
        ("MANTRA_BUILD_COMPILE", dump.as_str()),
        ("MANTRA_BUILD_TEST", dump.as_str()),
        ("MANTRA_VERIFY_RUNNER", "build-tool"),
    ];
    let run = mantra_env(dir.path(), &args, &env);
    let seen = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("no build command ran ({e}): {run:?}"));
    assert!(seen.contains("PATH="), "{seen}");
    assert!(!seen.contains("secret-"), "a child process saw the key:\n{seen}");
}

/// Issue 14, defect 1: two runs changing the same file at once could both exit 0 while one's
/// change was half lost (the rename's test edits written, `InvoiceService` keeping `doIt`). The
/// racing pair, 20 times: whatever a run reports written is whole.
#[test]
fn two_runs_changing_one_file_at_once_never_lose_half_a_change() {
    let tests = "src/test/java/com/acme/invoicing/invoice/InvoiceServiceTest.java";
    for round in 0..20 {
        let dir = copy_fixture("demo");
        let spawn = |args: &[&str]| {
            std::process::Command::new(env!("CARGO_BIN_EXE_mantra"))
                .args(["--repo", dir.path().to_str().unwrap(), "refactor"])
                .args(args)
                .args(["--apply", "--no-verify"])
                .env("NO_COLOR", "1")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let extract = spawn(&[
            "-t",
            "extract-method",
            &format!("{ISSUE}:issue"),
            "--lines",
            "38-44",
            "--name",
            "validateIssuable",
        ]);
        let rename = spawn(&["-t", "rename-method", &format!("{ISSUE}:doIt"), "--name", "cancelInvoice"]);
        let (extract, rename) = (extract.wait_with_output().unwrap(), rename.wait_with_output().unwrap());
        let service = String::from_utf8(read(dir.path(), ISSUE)).unwrap();
        let test = String::from_utf8(read(dir.path(), tests)).unwrap();
        let why = format!("round {round}: extract {extract:?}, rename {rename:?}");
        assert!(extract.status.success() || rename.status.success(), "{why}");
        if rename.status.success() {
            assert!(!service.contains("doIt(") && !test.contains("doIt("), "{why}");
            assert!(service.contains("cancelInvoice(") && test.contains("cancelInvoice("), "{why}");
        } else {
            assert!(service.contains("doIt(") && test.contains("doIt("), "{why}");
        }
        assert_eq!(extract.status.success(), service.contains("void validateIssuable("), "{why}");
    }
}

/// Issue 14, defect 4: an interrupt left the build running: mantra exited 130, but the build's
/// process group went on, and could write into the workspace being removed.
#[test]
fn an_interrupt_ends_the_running_build() {
    use std::time::{Duration, Instant};
    let dir = copy_fixture("demo");
    let seen = tempfile::tempdir().unwrap();
    let pidfile = seen.path().join("pid");
    let compile = format!("sh -c \"echo $$ > {}; exec sleep 30\"", pidfile.display());
    let target = format!("{ISSUE}:issue");
    let mut proc = std::process::Command::new(env!("CARGO_BIN_EXE_mantra"))
        .args(["--repo", dir.path().to_str().unwrap(), "refactor", "-t", "extract-method", &target])
        .args(["--lines", "38-44", "--name", "validateIssuable", "--verify"])
        .env("NO_COLOR", "1")
        .env("MANTRA_BUILD_COMPILE", &compile)
        .env("MANTRA_VERIFY_RUNNER", "build-tool")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let build = started(&pidfile, &mut proc);
    let status = crate::harness::interrupt(&mut proc);
    assert_eq!(status.code(), Some(mantra::exit::INTERRUPTED));
    // Gone, or a zombie waiting for whoever inherited it.
    let alive = || {
        std::fs::read_to_string(format!("/proc/{build}/stat"))
            .is_ok_and(|s| s.rsplit(')').next().and_then(|r| r.split_whitespace().next()) != Some("Z"))
    };
    let start = Instant::now();
    while alive() && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let survived = alive();
    if survived {
        // SAFETY: kill(2) on the leftover build, so the test leaves nothing running.
        unsafe { libc::kill(build, libc::SIGKILL) };
    }
    assert!(!survived, "the build (pid {build}) outlived mantra");
}

/// The pid a child of mantra's wrote to `pidfile` once it started (at most 60 s).
fn started(pidfile: &Path, proc: &mut std::process::Child) -> i32 {
    use std::time::{Duration, Instant};
    let start = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(pidfile).ok().and_then(|t| t.trim().parse::<i32>().ok()) {
            return pid;
        }
        if start.elapsed() > Duration::from_secs(60) || proc.try_wait().unwrap().is_some() {
            let _ = proc.kill();
            panic!("the child process never started");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Issue 14, defect 4: an interrupt while Checkstyle ran left its `mantra-checkstyle-*.properties`
/// in the temporary folder (`Drop` never runs on a signal).
#[test]
fn an_interrupt_during_checkstyle_leaves_nothing_in_the_temporary_folder() {
    use std::os::unix::fs::PermissionsExt;
    let dir = copy_fixture("demo");
    let tmp = tempfile::tempdir().unwrap();
    let seen = tempfile::tempdir().unwrap();
    let pidfile = seen.path().join("pid");
    let checkstyle = seen.path().join("checkstyle");
    std::fs::write(&checkstyle, format!("#!/bin/sh\necho $$ > {}\nexec sleep 30\n", pidfile.display())).unwrap();
    std::fs::set_permissions(&checkstyle, std::fs::Permissions::from_mode(0o755)).unwrap();
    let target = format!("{ISSUE}:issue");
    let mut proc = std::process::Command::new(env!("CARGO_BIN_EXE_mantra"))
        .args(["--repo", dir.path().to_str().unwrap(), "refactor", "-t", "extract-method", &target])
        .args(["--lines", "38-44", "--name", "validateIssuable", "--verify"])
        .env("NO_COLOR", "1")
        .env("TMPDIR", tmp.path())
        .env("MANTRA_CHECKSTYLE_PATH", &checkstyle)
        .env("MANTRA_BUILD_COMPILE", "true")
        .env("MANTRA_BUILD_TEST", "true")
        .env("MANTRA_VERIFY_RUNNER", "build-tool")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = started(&pidfile, &mut proc);
    let mut left: Vec<String> =
        std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    assert!(
        left.iter().any(|n| n.starts_with("mantra-checkstyle-")),
        "the properties file exists while Checkstyle runs: {left:?}"
    );
    let status = crate::harness::interrupt(&mut proc);
    // SAFETY: kill(2) on the script, in case it outlived mantra (the assertions say whether it did).
    unsafe { libc::kill(pid, libc::SIGKILL) };
    assert_eq!(status.code(), Some(mantra::exit::INTERRUPTED));
    left = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    assert!(left.is_empty(), "left in the temporary folder: {left:?}");
}

/// Issue 14: a dry run's change is kept, and `mantra apply` writes exactly it, once; a file the
/// user changed since is named and nothing is written.
#[test]
fn apply_writes_the_previewed_change_once_and_refuses_a_file_changed_since() {
    let target = format!("{ISSUE}:issue");
    let written = copy_fixture("demo");
    let direct = run_in(written.path(), &["refactor", "-t", "extract-method", &target, "--apply", "--no-verify"]);
    assert_eq!(direct.code, 0, "{direct:?}");

    let dir = copy_fixture("demo");
    let before = read(dir.path(), ISSUE);
    let shown = run_in(dir.path(), &["--json", "refactor", "-t", "extract-method", &target]);
    assert_eq!(shown.code, 0, "{shown:?}");
    let result: serde_json::Value = serde_json::from_str(shown.stdout.lines().last().unwrap()).unwrap();
    let id = result["data"]["run"].as_str().unwrap_or_else(|| panic!("no run in {result}")).to_string();
    assert_eq!(read(dir.path(), ISSUE), before, "a dry run writes nothing");
    let applied = run_in(dir.path(), &["apply"]);
    assert_eq!(applied.code, 0, "{applied:?}");
    assert!(applied.stdout.contains(&format!("1 file written (unverified, from run {id})")), "{}", applied.stdout);
    assert_eq!(read(dir.path(), ISSUE), read(written.path(), ISSUE), "the change shown is the change written");
    let again = run_in(dir.path(), &["apply", &id]);
    assert_eq!(again.code, 1, "{again:?}");
    assert!(again.stderr.contains("was already applied"), "{}", again.stderr);

    let dir = copy_fixture("demo");
    let shown = run_in(dir.path(), &["refactor", "-t", "rename-method", &format!("{ISSUE}:doIt"), "--name", "cancel"]);
    assert_eq!(shown.code, 0, "{shown:?}");
    let mut edited = read(dir.path(), ISSUE);
    edited.extend_from_slice(b"// the user kept typing\n");
    std::fs::write(dir.path().join(ISSUE), &edited).unwrap();
    let tests = "src/test/java/com/acme/invoicing/invoice/InvoiceServiceTest.java";
    let tests_before = read(dir.path(), tests);
    let refused = run_in(dir.path(), &["apply"]);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stderr.contains(&format!("{ISSUE} changed since mantra read it")), "{}", refused.stderr);
    assert_eq!(read(dir.path(), ISSUE), edited);
    assert_eq!(read(dir.path(), tests), tests_before, "nothing is written, not even the other files");

    let empty = copy_fixture("demo");
    let none = run_in(empty.path(), &["apply"]);
    assert_eq!(none.code, 2, "{none:?}");
    assert!(none.stderr.contains("no previewed change to apply"), "{}", none.stderr);
}

/// Issue 15: the user names the method and the refactoring; the planner fills in the rest. A
/// nested class's method with 24 callers in 8 files is inlined at every call site (its enclosing
/// class's statics named through it), and the result compiles and passes every test.
#[test]
fn inline_at_every_call_site_is_verified_by_the_real_build() {
    let dir = copy_fixture("demo");
    let target = "src/test/java/com/acme/invoicing/TestData.java:issueSample";
    let run = run_in(dir.path(), &["--json", "refactor", "-t", "inline-method", target, "--verify"]);
    assert_eq!(run.code, 0, "{run:?}");
    let verdict = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["kind"] == "verdict")
        .unwrap();
    assert_eq!(verdict["data"]["verdict"], "accepted", "{verdict}");
    let result = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["kind"] == "refactoring")
        .unwrap();
    assert_eq!(result["data"]["files"].as_array().unwrap().len(), 8, "{result}");
    assert!(result["data"]["diff"].as_str().unwrap().contains("TestData.JAN_15, TestData.consulting()"), "{result}");
}

/// Issue 15, `--param`: an expression of the statements becomes a parameter of the new method
/// (its type from the project model: `Invoice.getItems()` returns `List<LineItem>`), and the
/// result compiles and passes every test.
#[test]
fn extract_with_a_parameterised_expression_is_verified_by_the_real_build() {
    let dir = copy_fixture("demo");
    let target = format!("{ISSUE}:issue");
    let args = ["refactor", "-t", "extract-method", &target, "--lines", "38-44", "--name", "validateIssuable"];
    let run = run_in(dir.path(), &[&args[..], &["--param", "invoice.getItems()", "--verify"]].concat());
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("+        validateIssuable(issueDate, invoice, invoice.getItems());"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "+    private void validateIssuable(LocalDate issueDate, Invoice invoice, List<LineItem> items) {"
        ),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("+        if (items.isEmpty()) {"), "{}", run.stdout);
    let bad = run_in(dir.path(), &[&args[..], &["--param", "invoice.getLines()"]].concat());
    assert_eq!(bad.code, 1, "{bad:?}");
    assert!(bad.stderr.contains("param_not_found"), "{}", bad.stderr);
    let empty = run_in(dir.path(), &[&args[..], &["--param", " "]].concat());
    assert_eq!(empty.code, 2, "{empty:?}");
}

/// Issue 15: an extraction named like its source method's overload clashes with the method
/// itself; mantra passes in what the statements read through a parameter, says so, and the
/// result compiles (real javac).
#[test]
fn a_clashing_extraction_passes_in_an_accessor_call_and_compiles() {
    let dir = tempfile::tempdir().unwrap();
    let file = "src/main/java/a/Report.java";
    let text = "package a;\n\nimport java.util.List;\n\npublic class Report {\n    private final List<String> rows;\n\n    public Report(List<String> rows) {\n        this.rows = rows;\n    }\n\n    public List<String> rows() {\n        return rows;\n    }\n\n    public void render(Report r, StringBuilder out) {\n        for (String row : r.rows()) {\n            out.append(row);\n        }\n        out.append(r.rows().size());\n    }\n}\n";
    std::fs::create_dir_all(dir.path().join("src/main/java/a")).unwrap();
    std::fs::write(dir.path().join(file), text).unwrap();
    let target = format!("{file}:render");
    let args =
        ["refactor", "-t", "extract-method", &target, "--lines", "17-20", "--name", "render", "--apply", "--no-verify"];
    let run = run_in(dir.path(), &args);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.contains("[plan] pass `r.rows()` in as a parameter (the extraction clashes)"), "{}", run.stderr);
    let after = String::from_utf8(read(dir.path(), file)).unwrap();
    assert!(after.contains("        render(out, r.rows());\n"), "{after}");
    assert!(after.contains("    private void render(StringBuilder out, List<String> rows) {"), "{after}");
    let out = tempfile::tempdir().unwrap();
    let javac =
        std::process::Command::new("javac").arg("-d").arg(out.path()).arg(dir.path().join(file)).output().unwrap();
    assert!(javac.status.success(), "{}", String::from_utf8_lossy(&javac.stderr));
}

/// Issue 15, item 4: the compounds take the new destinations. The extracted instance method goes
/// to a class that is neither a parameter's nor a field's type, as a static method, and the real
/// build accepts it.
#[test]
fn extract_and_move_to_any_class_is_verified_by_the_real_build() {
    let dir = copy_fixture("demo");
    let target = format!("{ISSUE}:issue");
    let args = ["refactor", "-t", "extract-and-move-method", &target, "--lines", "38-44", "--name", "validateIssuable"];
    let run = run_in(dir.path(), &[&args[..], &["--to", "class:com.acme.invoicing.money.Money", "--verify"]].concat());
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("+        Money.validateIssuable(issueDate, invoice);"), "{}", run.stdout);
    assert!(
        run.stdout.contains("+    public static void validateIssuable(LocalDate issueDate, Invoice invoice) {"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("verdict: accepted"), "{}", run.stdout);
}

/// Issue 15: Extract And Move of a one-line getter takes its whole body (no smaller run exists)
/// to a class that does not exist yet; the getter stays, delegating, and the real build accepts it.
#[test]
fn extract_and_move_of_a_whole_getter_body_leaves_a_delegate_the_build_accepts() {
    let dir = copy_fixture("demo");
    let target = "src/main/java/com/acme/invoicing/customer/Customer.java:getPaymentTermsDays";
    let args = ["refactor", "-t", "extract-and-move-method", target, "--name", "paymentTermsDays"];
    let run = run_in(
        dir.path(),
        &[&args[..], &["--to", "class:com.acme.invoicing.customer.PaymentTerms", "--verify"]].concat(),
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.contains("[plan] extract the whole body"), "{}", run.stderr);
    assert!(run.stdout.contains("+        return PaymentTerms.paymentTermsDays(this);"), "{}", run.stdout);
    assert!(run.stdout.contains("+    static int paymentTermsDays(Customer customer) {"), "{}", run.stdout);
    assert!(run.stdout.contains("verdict: accepted"), "{}", run.stdout);
}

/// Issue 15: the planner's own destination for a static helper that uses nothing of its class and
/// no other project class is the utility class whose static methods take what it takes; callers
/// are rewritten and the real build accepts the move.
#[test]
fn the_planner_moves_a_static_helper_into_the_utility_class_for_what_it_takes() {
    let dir = copy_fixture("demo");
    let util = "package com.acme.invoicing.util;\n\nimport java.time.DayOfWeek;\nimport java.time.LocalDate;\n\npublic final class DateUtils {\n    private DateUtils() {\n    }\n\n    public static boolean isWeekend(LocalDate day) {\n        return day.getDayOfWeek() == DayOfWeek.SATURDAY || day.getDayOfWeek() == DayOfWeek.SUNDAY;\n    }\n\n    public static LocalDate nextWorkingDay(LocalDate day) {\n        LocalDate next = day.plusDays(1);\n        return isWeekend(next) ? nextWorkingDay(next) : next;\n    }\n}\n";
    let reminders = "package com.acme.invoicing.invoice;\n\nimport java.time.LocalDate;\n\npublic class Reminders {\n    private final int grace = 3;\n\n    public static boolean isLate(LocalDate due, LocalDate today) {\n        return today.isAfter(due.plusDays(3));\n    }\n\n    public String status(LocalDate due, LocalDate today) {\n        return isLate(due, today) ? \"late after \" + grace : \"on time\";\n    }\n}\n";
    let util_path = "src/main/java/com/acme/invoicing/util/DateUtils.java";
    let file = "src/main/java/com/acme/invoicing/invoice/Reminders.java";
    std::fs::create_dir_all(dir.path().join(util_path).parent().unwrap()).unwrap();
    std::fs::write(dir.path().join(util_path), util).unwrap();
    std::fs::write(dir.path().join(file), reminders).unwrap();
    let target = format!("{file}:isLate");
    let run = run_in(dir.path(), &["refactor", "-t", "move-method", &target, "--verify"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stderr.contains(
            "[plan] to class:com.acme.invoicing.util.DateUtils (it uses nothing of its class; 2 static methods of DateUtils take its LocalDate)"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("+        return DateUtils.isLate(due, today) ?"), "{}", run.stdout);
    assert!(run.stdout.contains("verdict: accepted"), "{}", run.stdout);
}
