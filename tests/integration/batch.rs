//! `mantra batch` over a small repository whose commits each hold one human refactoring (made
//! with mantra's own engine, as a developer's IDE would), with real Maven builds.
//!
//! The history, on top of library-junit4 plus a one-statement helper `record` (so there is a
//! statement-level inline to detect): a Rename Method, a commit that only edits documentation,
//! an Extract Method, an Inline Method, an Extract And Move Method (the compound; pure: the moved
//! body reads `loan.` as `this.`, which the detector maps back) and a Move Method. One
//! output folder serves both modes, so the parents' checkouts and their baselines are shared.

use std::path::Path;

use serde_json::Value;

use crate::harness::{copy_fixture, git, mantra, mantra_env};

const P: &str = "src/main/java/com/acme/library";

/// Runs `mantra refactor ... --apply --no-verify` in `repo` and commits the result.
pub(crate) fn human_commit(repo: &Path, message: &str, args: &[&str]) {
    let mut all = vec!["refactor"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--apply", "--no-verify"]);
    let run = mantra(repo, &all);
    assert_eq!(run.code, 0, "{message}: {}", run.stderr);
    git(repo, &["commit", "-qam", message]);
}

/// library-junit4 with one Extract Method commit on top (`checkLoanLimit` out of
/// `LoanDesk.checkOut`); the repository and its base commit.
pub(crate) fn one_extract_history() -> (tempfile::TempDir, String) {
    let dir = copy_fixture("library-junit4");
    let repo = dir.path();
    std::fs::write(repo.join(".gitignore"), "target/\n.mantra/\n").unwrap();
    git(repo, &["init", "-q"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "base"]);
    let base = git(repo, &["rev-parse", "HEAD"]).trim().to_string();
    human_commit(
        repo,
        "extract checkLoanLimit",
        &[
            "--type",
            "extract-method",
            &format!("{P}/LoanDesk.java:checkOut"),
            "--lines",
            "33-36",
            "--name",
            "checkLoanLimit",
        ],
    );
    (dir, base)
}

/// The repository and its base commit.
fn history() -> (tempfile::TempDir, String) {
    let dir = copy_fixture("library-junit4");
    let repo = dir.path();
    let desk = repo.join(P).join("LoanDesk.java");
    let text = std::fs::read_to_string(&desk).unwrap();
    let text = text.replacen(
        "        loans.add(loan);\n        return loan;",
        "        record(loan);\n        return loan;",
        1,
    );
    let text = text.replacen(
        "    private long countOpenLoans(Book book) {",
        "    private void record(Loan loan) {\n        loans.add(loan);\n    }\n\n    private long countOpenLoans(Book book) {",
        1,
    );
    std::fs::write(&desk, text).unwrap();
    std::fs::write(repo.join(".gitignore"), "target/\n.mantra/\n").unwrap();
    git(repo, &["init", "-q"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "base"]);
    let base = git(repo, &["rev-parse", "HEAD"]).trim().to_string();

    let t = |f: &str, m: &str| format!("{P}/{f}:{m}");
    human_commit(
        repo,
        "rename find2",
        &["--type", "rename-method", &t("Catalog.java", "find2"), "--name", "searchTitles"],
    );
    let text = std::fs::read_to_string(&desk).unwrap();
    std::fs::write(&desk, text.replace("that have a copy on the shelf right now", "with a copy on the shelf now"))
        .unwrap();
    std::fs::write(repo.join("NOTES.md"), "Reworded a comment.\n").unwrap();
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "docs only"]);
    human_commit(
        repo,
        "extract checkLoanLimit",
        &["--type", "extract-method", &t("LoanDesk.java", "checkOut"), "--lines", "33-36", "--name", "checkLoanLimit"],
    );
    human_commit(repo, "inline record", &["--type", "inline-method", &t("LoanDesk.java", "record")]);
    let text = std::fs::read_to_string(&desk).unwrap();
    let line = text.lines().position(|l| l.contains("LocalDate returned = loan.getReturnedOn()")).unwrap() + 1;
    let lines = format!("{line}-{}", line + 1);
    human_commit(
        repo,
        "extract daysLateOn into Loan",
        &[
            "--type",
            "extract-and-move-method",
            &t("LoanDesk.java", "daysLate"),
            "--lines",
            &lines,
            "--name",
            "daysLateOn",
            "--to",
            "param:loan",
        ],
    );
    human_commit(
        repo,
        "move daysLate to Loan",
        &["--type", "move-method", &t("LoanDesk.java", "daysLate"), "--to", "param:loan"],
    );
    (dir, base)
}

/// The `data` of every `task` result and of the final `batch` result on stdout.
pub(crate) fn events(stdout: &str) -> (Vec<Value>, Value) {
    let mut tasks = Vec::new();
    let mut summary = Value::Null;
    for line in stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        match v["kind"].as_str() {
            Some("task") => tasks.push(v["data"].clone()),
            Some("batch") => summary = v["data"].clone(),
            _ => {}
        }
    }
    (tasks, summary)
}

#[test]
fn batch_replays_a_history_in_oracle_and_planner_modes_and_tabulates_them() {
    let (dir, base) = history();
    let repo = dir.path().to_str().unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("out");
    let out_s = out.to_str().unwrap();
    let range = format!("{base}..HEAD");
    // One test run per change instead of affected-then-all: the suite is small.
    let env = [("MANTRA_VERIFY_TESTS", "all")];

    // --spec llm without a model: refused before any work.
    let run =
        mantra_env(dir.path(), &["--repo", repo, "batch", "--range", &range, "--spec", "llm", "--out", out_s], &env);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--spec llm needs a model, and none is configured"), "{}", run.stderr);
    assert!(run.stderr.contains("llm.base_url"), "{}", run.stderr);
    assert!(!out.exists(), "nothing is written without a model");

    // The oracle: the human's own specs, every refactoring (`--impure` takes the impure ones too).
    let args = ["--repo", repo, "--json", "batch", "--range", &range, "--spec", "oracle", "--impure", "--out", out_s];
    let run = mantra_env(dir.path(), &args, &env);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (tasks, summary) = events(&run.stdout);
    let mut kinds: Vec<&str> = tasks.iter().map(|t| t["type"].as_str().unwrap()).collect();
    kinds.sort();
    assert_eq!(
        kinds,
        ["extract-and-move-method", "extract-method", "inline-method", "move-method", "rename-method"],
        "one task per refactoring commit, none for the documentation commit"
    );
    for t in &tasks {
        // The human made these with the same engine and spec: the oracle reproduces them exactly.
        assert_eq!(t["success"], true, "{t:#}");
        assert_eq!(
            (&t["compiled"], &t["tests_passed"], &t["verified"]),
            (&Value::Bool(true), &Value::Bool(true), &Value::Bool(true))
        );
        assert_eq!(t["failure"], Value::Null);
        assert_eq!(t["identical"], true, "{}", t["id"]);
        assert!((t["codebleu"]["score"].as_f64().unwrap() - 1.0).abs() < 1e-9, "{t:#}");
        assert_eq!((t["ast_precision"].as_f64(), t["ast_recall"].as_f64()), (Some(1.0), Some(1.0)), "{}", t["id"]);
        assert_eq!(t["prompt_tokens"], Value::Null, "no model, no tokens");
        assert_eq!(t["cost"], Value::Null);
        for stage in ["spec", "engine", "compile", "tests", "total"] {
            assert!(t["times_ms"][stage].is_u64(), "{stage}: {t:#}");
        }
        assert!(t["diff"].as_str().unwrap().contains("+++ b/"), "{t:#}");
    }
    assert_eq!((summary["tasks"].as_u64(), summary["succeeded"].as_u64()), (Some(5), Some(5)));
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        md.contains("| oracle | **all** | 5 | 5 (100.0%) | 5 (100.0%) | 5 (100.0%) | 1.000 | 1.000 | 1.000 | 5 |"),
        "{md}"
    );
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(csv.starts_with("project,mode,type,tasks,compile_test,verified,success,"), "{csv}");
    assert_eq!(csv.lines().count(), 1 + 6, "a row per type and one for all: {csv}");
    let lines = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 5);
    let index = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    let page = index.split("href=\"tasks/").nth(1).and_then(|s| s.split('"').next()).unwrap();
    let page = std::fs::read_to_string(out.join("report/tasks").join(page)).unwrap();
    assert!(page.contains("Our change") && page.contains("The human's change"), "{page}");
    assert!(page.contains("<span class=\"add\">+"), "both diffs are rendered");

    // --resume: everything is done, nothing runs.
    let run = mantra_env(dir.path(), &[&args[..], &["--resume", "--fail-on", "any"]].concat(), &env);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (tasks, summary) = events(&run.stdout);
    assert!(tasks.is_empty());
    assert_eq!((summary["skipped"].as_u64(), summary["ran"].as_u64()), (Some(5), Some(0)));

    // --type keeps only refactorings of those types (here, all already done: skipped).
    let only = ["--type", "move-method,extract-and-move-method", "--type", "rename-method"];
    let run = mantra_env(dir.path(), &[&args[..], &["--resume"], &only[..]].concat(), &env);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (_, summary) = events(&run.stdout);
    assert_eq!((summary["skipped"].as_u64(), summary["ran"].as_u64()), (Some(3), Some(0)), "{summary:#}");
    let run = mantra_env(dir.path(), &[&args[..], &["--type", "move"]].concat(), &env);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("move-method") && run.stderr.contains("'move'"), "{}", run.stderr);

    // The planner, pure refactorings only, two at a time, in the same folder (checkouts and
    // baselines shared with the oracle's run).
    let args =
        ["--repo", repo, "--json", "batch", "--range", &range, "--spec", "planner", "--jobs", "2", "--out", out_s];
    let run = mantra_env(dir.path(), &[&args[..], &["--fail-on", "rate:0.25"]].concat(), &env);
    let (tasks, summary) = events(&run.stdout);
    assert_eq!(tasks.len(), 5, "every refactoring of the history is pure: {}", run.stderr);
    for t in &tasks {
        assert_eq!(t["mode"], "planner");
        let all_three = t["compiled"] == true && t["tests_passed"] == true && t["verified"] == true;
        assert_eq!(t["success"], all_three && t["failure"].is_null(), "{t:#}");
        assert!(t["success"] == true || t["diagnostic"].is_string(), "a failure says why: {t:#}");
    }
    // Given the human's name, the planner's rename is the human's.
    let rename = tasks.iter().find(|t| t["type"] == "rename-method").unwrap();
    assert_eq!((&rename["success"], &rename["identical"]), (&Value::Bool(true), &Value::Bool(true)), "{rename:#}");
    let succeeded = summary["succeeded"].as_u64().unwrap();
    assert_eq!(run.code, if succeeded * 4 < 5 { 1 } else { 0 }, "--fail-on rate:0.25 with {succeeded}/5");
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        md.contains("| oracle | **all** | 5 |") && md.contains("| planner | **all** | 5 |"),
        "both modes in one table: {md}"
    );
    assert_eq!(std::fs::read_to_string(out.join("results.jsonl")).unwrap().lines().count(), 10);
}

#[test]
fn batch_refuses_a_task_file_that_is_not_one() {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    std::fs::write(dir.path().join("tasks.json"), "{\"commits\": []}").unwrap();
    let run = mantra(dir.path(), &["batch", "--tasks", "tasks.json", "--spec", "oracle"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not a PureRefactor / SWE-Refactor task file"), "{}", run.stderr);
    assert!(!dir.path().join("mantra-batch").exists(), "a failed batch leaves its empty output folder behind");
    git(dir.path(), &["commit", "-q", "--allow-empty", "-m", "one"]);
    let run = mantra(dir.path(), &["batch", "--range", "HEAD~5..HEAD", "--spec", "oracle"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--range HEAD~5..HEAD"), "{}", run.stderr);
    assert!(!dir.path().join("mantra-batch").exists(), "a failed batch leaves its empty output folder behind");
    // A file that is not there is a target not found, named with the flag that wanted it.
    for flag in ["--tasks", "--commits"] {
        let run = mantra(dir.path(), &["batch", flag, "nothere.json", "--spec", "oracle"]);
        assert_eq!(run.code, 3, "{}", run.stderr);
        assert!(run.stderr.contains("nothere.json: no such file"), "{}", run.stderr);
        assert!(run.stderr.contains(&format!("{flag} takes a file that exists")), "{}", run.stderr);
    }
}

#[test]
fn an_interrupted_batch_says_how_far_it_got_and_how_to_continue() {
    let (dir, base) = one_extract_history();
    let repo = dir.path();
    let out = tempfile::tempdir().unwrap();
    let range = format!("{base}..HEAD");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mantra"))
        .args(["--repo", repo.to_str().unwrap(), "batch", "--range", &range, "--spec", "oracle", "--out"])
        .arg(out.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The plan's line comes before the first task starts (its cold Maven baseline takes seconds).
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("1 task(s), --spec oracle") {
        let mut line = String::new();
        assert!(std::io::BufRead::read_line(&mut stderr, &mut line).unwrap() > 0, "no progress line: {seen}");
        seen.push_str(&line);
    }
    // SAFETY: kill(2) with a pid we spawned and still own (not yet waited for).
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(mantra::exit::INTERRUPTED), "{seen}{rest}");
    assert!(
        rest.contains("batch interrupted: 0 of 1 task(s) finished (0 succeeded)") && rest.contains("--resume"),
        "{seen}{rest}"
    );
}

/// Issue 14, defect 6: two batches writing into one `--out` corrupted each other's results. A
/// second one fails at once and names the one that holds the folder (here this test process).
#[test]
fn a_second_batch_into_the_same_output_folder_fails_at_once_naming_the_first() {
    let dir = copy_fixture("library-junit4");
    let repo = dir.path();
    git(repo, &["init", "-q"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "base"]);
    let out = tempfile::tempdir().unwrap();
    let lock_path = out.path().join(mantra::batch::lock::LOCK_FILE);
    let mut held = std::fs::File::create(&lock_path).unwrap();
    held.lock().unwrap();
    std::io::Write::write_all(&mut held, format!("{}\n", std::process::id()).as_bytes()).unwrap();
    let started = std::time::Instant::now();
    let run = mantra(repo, &["batch", "--range", "HEAD~0..HEAD", "--out", out.path().to_str().unwrap()]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "it failed at once");
    let pid = format!("process {}", std::process::id());
    assert!(run.stderr.contains("in use by another mantra batch") && run.stderr.contains(&pid), "{}", run.stderr);
    assert!(!out.path().join("results.jsonl").exists(), "nothing was written");
    drop(held);
}

#[test]
fn sharded_batches_merge_into_the_single_machine_report() {
    let (dir, base) = history();
    let repo = dir.path().to_str().unwrap();
    let outs = tempfile::tempdir().unwrap();
    let out = |name: &str| outs.path().join(name).to_str().unwrap().to_string();
    let range = format!("{base}..HEAD");
    let env = [("MANTRA_VERIFY_TESTS", "all")];
    let batch = |extra: &[&str], o: &str| {
        let mut args = vec!["--repo", repo, "batch", "--range", &range, "--spec", "oracle", "--impure", "--out", o];
        args.extend_from_slice(extra);
        let run = mantra_env(dir.path(), &args, &env);
        assert_eq!(run.code, 0, "{extra:?}: {}", run.stderr);
    };
    batch(&[], &out("all"));
    batch(&["--shard", "1/2"], &out("s1"));
    batch(&["--shard", "2/2"], &out("s2"));
    let run = mantra_env(dir.path(), &["report", "merge", &out("s1"), &out("s2"), "--out", &out("merged")], &env);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("merged 2 run(s): 5 task(s)"), "{}", run.stdout);
    let ids = |o: &str| {
        let text = std::fs::read_to_string(Path::new(o).join("results.jsonl")).unwrap();
        let mut ids: Vec<String> =
            text.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].to_string()).collect();
        ids.sort();
        ids
    };
    let (s1, s2) = (ids(&out("s1")), ids(&out("s2")));
    // The split follows the task ids, which hold this run's commit ids: uneven, maybe empty.
    assert!(s1.iter().all(|i| !s2.contains(i)), "{s1:?} {s2:?}");
    assert_eq!(ids(&out("merged")), ids(&out("all")), "every task once");
    // With more shards than tasks one shard holds none: it succeeds with an empty part.
    let all_ids = ids(&out("all"));
    let n = all_ids.len() as u64 + 1;
    let keys: Vec<u64> = all_ids.iter().map(|i| mantra::commands::suggest::shard_key(i.trim_matches('"'), n)).collect();
    let empty = (0..n).find(|k| !keys.contains(k)).expect("a shard without tasks");
    let spec = format!("{}/{n}", empty + 1);
    batch(&["--shard", &spec], &out("empty"));
    assert!(ids(&out("empty")).is_empty());
    let summary = |o: &str| std::fs::read_to_string(Path::new(o).join("summary.md")).unwrap();
    assert_eq!(summary(&out("merged")), summary(&out("all")));
    assert!(Path::new(&out("merged")).join("report/index.html").is_file());
    let run = mantra_env(dir.path(), &["report", "merge", &out("nowhere")], &env);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("holds no results.jsonl"), "{}", run.stderr);
}
