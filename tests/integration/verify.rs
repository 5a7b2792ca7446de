//! Verification end to end, with real Maven on copies of the fixture projects: `refactor --apply`
//! accepted and written, `mantra verify` on hand-made changes in a real git repository (a compile
//! error, a broken test, a project already broken at HEAD, a test that never ends), and the
//! Reviewer + apply-back refusing a file the user changed meanwhile.
//!
//! Maven runs are the cost here (5-15 s each), so tests that can share a baseline do: the cache
//! under `.mantra/cache/baseline` makes the second review of the same HEAD skip it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use mantra::config::{Config, TestSelection};
use mantra::engine::{ChangeSet, Edit};
use mantra::process::System;
use mantra::review::{Change, Reviewer, Stage, StageStatus, Verdict};
use mantra::workspace::writeback::WriteError;
use mantra::workspace::{WorkspaceError, dirty_state_hash};

use crate::harness::{Run, copy_fixture, git, mantra_env};

const ISSUE: &str = "src/main/java/com/acme/invoicing/invoice/InvoiceService.java";
const CATALOG: &str = "src/main/java/com/acme/library/Catalog.java";

/// A copy of a fixture as a git repository with one commit.
fn repo_of(name: &str) -> tempfile::TempDir {
    let dir = copy_fixture(name);
    std::fs::write(dir.path().join(".gitignore"), "/target/\n").unwrap();
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "fixture"]);
    dir
}

fn edit(root: &Path, rel: &str, from: &str, to: &str) {
    let path = root.join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{rel} does not contain {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

fn run_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut all = vec!["--repo", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    mantra_env(dir, &all, env)
}

/// The `--json` events of a run, parsed.
fn events(run: &Run) -> Vec<serde_json::Value> {
    run.stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

fn verdict(events: &[serde_json::Value]) -> &serde_json::Value {
    events
        .iter()
        .find(|e| e["event"] == "result" && e["kind"] == "verdict")
        .map(|e| &e["data"])
        .unwrap_or_else(|| panic!("no verdict in {events:?}"))
}

fn stage<'a>(events: &'a [serde_json::Value], name: &str) -> &'a serde_json::Value {
    events
        .iter()
        .find(|e| e["event"] == "stage" && e["name"] == name)
        .unwrap_or_else(|| panic!("no {name} stage in {events:?}"))
}

#[test]
fn refactor_apply_verifies_an_extract_then_writes_it_and_keeps_the_workspace_on_request() {
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
            "--keep-workspace",
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{run:?}");
    // The live view, in order, on stderr.
    let order: Vec<usize> = [
        "[baseline] compiles, 83 tests pass",
        "[detection] extract-method found",
        "[style]",
        "[compile] ok",
        "[tests affected] 33 passed",
        "[tests all] 83 passed",
    ]
    .iter()
    .map(|s| run.stderr.find(s).unwrap_or_else(|| panic!("no {s:?} in\n{}", run.stderr)))
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "stages out of order:\n{}", run.stderr);
    assert!(run.stdout.contains("1 file written (verified)"), "{}", run.stdout);
    assert!(run.stdout.contains("verdict: accepted"), "{}", run.stdout);
    let written = std::fs::read_to_string(dir.path().join(ISSUE)).unwrap();
    assert!(written.contains("private void validateIssuable("), "{written}");

    let kept = run.stdout.lines().find_map(|l| l.strip_prefix("workspace kept at ")).expect("the kept path");
    let kept = PathBuf::from(kept.trim());
    assert!(kept.is_dir(), "{}", kept.display());
    assert_eq!(std::fs::read_to_string(kept.join(ISSUE)).unwrap(), written, "the workspace holds what was verified");
    // With the default `verify.runner = direct`, on the JUnit launcher with Maven's classpath.
    assert!(kept.join(".mantra/direct/reports").is_dir(), "the tests ran in the workspace");
    assert!(run.stderr.contains("[tests all] 83 passed"), "{}", run.stderr);
    std::fs::remove_dir_all(&kept).unwrap();
    // The baseline is cached in the project, hidden from git by its own .gitignore.
    assert_eq!(std::fs::read_to_string(dir.path().join(".mantra/.gitignore")).unwrap().lines().last(), Some("*"));
    // Two states, each with its results and its compiled classes for the next review's
    // incremental compile: the original, and the one written, whose build and tests the review
    // ran (the baseline of a change on top of it).
    let mut cached: Vec<String> = std::fs::read_dir(dir.path().join(".mantra/cache/baseline"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    cached.sort();
    assert_eq!(cached.len(), 4, "{cached:?}");
    for pair in cached.chunks(2) {
        assert!(pair[0].ends_with(".classes") && pair[1] == pair[0].replace(".classes", ".json"), "{cached:?}");
        let classes = dir.path().join(".mantra/cache/baseline").join(&pair[0]);
        assert!(classes.join("target/classes/com/acme/invoicing/invoice/InvoiceService.class").is_file());
    }
    let now = mantra::workspace::dirty_state_hash(dir.path()).unwrap();
    let written = mantra::build::baseline::cache_path(dir.path(), &now);
    let written: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
    assert_eq!(written["tests"]["total"], 83, "the written state's own run: {written}");
}

#[test]
fn verify_blames_a_compile_error_and_a_broken_test_and_checks_the_intended_refactoring() {
    let repo = repo_of("library-junit4");
    let dir = repo.path();

    // A compile error: the diagnostic names the file and line.
    edit(dir, CATALOG, "String needle = words.trim()", "String needle = wrds.trim()");
    let run = run_in(dir, &["--json", "verify"], &[]);
    assert_eq!(run.code, 1, "{run:?}");
    let ev = events(&run);
    let v = verdict(&ev);
    assert_eq!(v["verdict"], "rejected", "{v}");
    assert_eq!(v["stage"], "compile");
    assert_eq!(v["failure"], "compile");
    let d = &v["diagnostics"][0];
    assert_eq!(d["file"], CATALOG, "{v}");
    assert_eq!(d["line"], 35);
    assert!(d["message"].as_str().unwrap().contains("cannot find symbol"), "{d}");
    assert!(v["reasons"][0].as_str().unwrap().starts_with(&format!("{CATALOG}:35:")), "{v}");
    assert_eq!(stage(&ev, "baseline")["status"], "ok");
    assert_eq!(stage(&ev, "tests-all")["status"], "skipped");
    assert_eq!(stage(&ev, "tests-all")["summary"], "skipped: compile failed");
    for s in ["baseline", "detection", "style", "compile", "tests-affected", "tests-all"] {
        assert!(stage(&ev, s)["duration_ms"].is_u64(), "{s}");
    }
    // Nothing of the user's is touched: the edit is still there, nothing new besides the cache.
    assert!(std::fs::read_to_string(dir.join(CATALOG)).unwrap().contains("wrds.trim()"));
    assert_eq!(git(dir, &["status", "--porcelain"]), format!(" M {CATALOG}\n"));

    // A broken test, in human form: the test's id on stdout, the baseline now from the cache.
    edit(dir, CATALOG, "String needle = wrds.trim()", "String needle = words");
    let run = run_in(dir, &["verify", "--keep-workspace"], &[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("[baseline] compiles, 13 tests pass (cached)"), "{}", run.stderr);
    assert!(run.stderr.contains("[compile] ok"), "{}", run.stderr);
    // The cached baseline brought its classes along: only the changed source and the one that
    // uses it are recompiled, not all five.
    let kept = run.stdout.lines().find_map(|l| l.strip_prefix("workspace kept at ")).expect("the kept path");
    let kept = PathBuf::from(kept.trim());
    let compiled = std::fs::read_to_string(kept.join(".mantra/direct/main-sources.txt")).unwrap();
    assert!(compiled.contains("Catalog.java") && !compiled.contains("Book.java"), "{compiled}");
    std::fs::remove_dir_all(&kept).unwrap();
    assert!(run.stderr.contains("[tests affected] 1 failed, "), "{}", run.stderr);
    assert!(run.stdout.contains("verdict: rejected at tests affected"), "{}", run.stdout);
    assert!(
        run.stdout.contains("com.acme.library.CatalogTest#titleSearchIgnoresCaseAndSortsOldestFirst failed"),
        "{}",
        run.stdout
    );

    // A rename by hand (L4), checked against the intent; the target names the method as at HEAD.
    git(dir, &["checkout", "-q", "--", "."]);
    for file in
        [CATALOG, "src/main/java/com/acme/library/LoanDesk.java", "src/test/java/com/acme/library/CatalogTest.java"]
    {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        std::fs::write(dir.join(file), text.replace("find2(", "searchTitles(")).unwrap();
    }
    let target = format!("{CATALOG}:find2");
    let wrong = run_in(dir, &["verify", &target, "--type", "extract-method"], &[]);
    assert_eq!(wrong.code, 1, "{wrong:?}");
    assert!(wrong.stderr.contains("[detection] extract-method not found"), "{}", wrong.stderr);
    assert!(wrong.stderr.contains("[compile] skipped: detection failed"), "{}", wrong.stderr);
    assert!(wrong.stdout.contains("verdict: rejected at detection"), "{}", wrong.stdout);

    let run = run_in(dir, &["--json", "verify", &target, "--type", "rename-method"], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    let ev = events(&run);
    assert_eq!(verdict(&ev)["verdict"], "accepted");
    let detection = stage(&ev, "detection");
    assert_eq!(detection["status"], "ok", "{detection}");
    assert_eq!(detection["details"]["intent"]["class"], "com.acme.library.Catalog");
    let found = detection["details"]["validation"]["refactoring"]["description"].as_str().unwrap();
    assert!(found.starts_with("Rename Method\t") && found.contains("searchTitles"), "{found}");
    assert_eq!(stage(&ev, "tests-all")["summary"], "13 passed");

    // Issue 14: the new name works too, once the old one is gone and the detector pairs them.
    let target = format!("{CATALOG}:searchTitles");
    let run = run_in(dir, &["--json", "verify", &target, "--type", "rename-method"], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    let ev = events(&run);
    assert_eq!(verdict(&ev)["verdict"], "accepted");
    let intent = &stage(&ev, "detection")["details"]["intent"];
    assert_eq!((intent["method"].as_str(), intent["new_name"].as_str()), (Some("find2"), Some("searchTitles")));
}

#[test]
fn a_project_broken_at_head_is_a_broken_baseline_not_the_changes_fault() {
    let repo = copy_fixture("library-junit4");
    let dir = repo.path();
    edit(dir, CATALOG, "import java.util.Optional;\n", "");
    std::fs::write(dir.join(".gitignore"), "/target/\n").unwrap();
    git(dir, &["init", "-q"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "broken"]);
    edit(dir, CATALOG, "String needle = words.trim()", "String query = words.trim();\n        String needle = query");

    let run = run_in(dir, &["--json", "verify"], &[]);
    assert_eq!(run.code, 1, "{run:?}");
    let ev = events(&run);
    let v = verdict(&ev);
    assert_eq!(v["verdict"], "broken-baseline", "{v}");
    assert!(v["reasons"][0].as_str().unwrap().contains("cannot find symbol"), "{v}");
    assert_eq!(stage(&ev, "baseline")["status"], "failed");
    assert_eq!(stage(&ev, "compile")["summary"], "skipped: the original project is broken");

    let human = run_in(dir, &["verify"], &[]);
    assert_eq!(human.code, 1);
    assert!(
        human.stdout.contains("broken baseline: the project was already broken before the change, which is not blamed"),
        "{}",
        human.stdout
    );
}

#[test]
fn a_test_that_never_ends_is_killed_and_the_workspace_removed() {
    let repo = repo_of("library-junit4");
    let dir = repo.path();
    let tmp = tempfile::tempdir().unwrap();
    // An endless loop in main code that a test reaches.
    edit(
        dir,
        CATALOG,
        "String needle = words.trim()",
        "while (words != null) {\n            Thread.onSpinWait();\n        }\n        String needle = words.trim()",
    );
    let tmpdir = tmp.path().to_str().unwrap();
    let run = run_in(dir, &["--json", "verify"], &[("MANTRA_BUILD_TIMEOUT_SECS", "40"), ("TMPDIR", tmpdir)]);
    assert_eq!(run.code, 1, "{run:?}");
    let ev = events(&run);
    let v = verdict(&ev);
    assert_eq!(v["verdict"], "rejected", "{v}");
    assert_eq!(v["failure"], "timeout", "{v}");
    assert_eq!(v["stage"], "tests-affected", "{v}");
    assert!(v["reasons"][0].as_str().unwrap().contains("longer than 40 s"), "{v}");
    assert_eq!(stage(&ev, "tests-affected")["summary"], "timed out");
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(left.is_empty(), "left behind in TMPDIR: {left:?}");
    let out = Command::new("pgrep").args(["-f", tmpdir]).output().unwrap();
    assert!(out.stdout.is_empty(), "still running: {}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn apply_back_after_review_refuses_a_file_the_user_changed_meanwhile() {
    let repo = copy_fixture("library-junit4");
    let dir = repo.path();
    let original = std::fs::read_to_string(dir.join(CATALOG)).unwrap();
    let at = original.find("String needle").unwrap();
    let mut changes = ChangeSet::new();
    changes.edit(Path::new(CATALOG), &original, Edit::insert(at, "// the needle, trimmed\n        "));

    let mut config = Config::default();
    config.verify.tests = TestSelection::Affected;
    let reviewer = Reviewer::new(&config, Arc::new(System));
    let key = dirty_state_hash(dir).unwrap();
    let mut seen = Vec::new();
    let change = Change::from_change_set(&changes).unwrap();
    let review = reviewer.review(dir, &change, None, &key, &mut |s| seen.push((s.name, s.status))).unwrap();
    assert_eq!(review.verdict, Verdict::Accepted, "{:?}", review.stages);
    assert!(seen.contains(&(Stage::TestsAffected, StageStatus::Ok)), "{seen:?}");
    assert!(seen.contains(&(Stage::TestsAll, StageStatus::Skipped)), "verify.tests = affected: {seen:?}");

    std::fs::write(dir.join(CATALOG), format!("{original}// the user kept typing\n")).unwrap();
    let err = review.workspace.apply_back(&changes).unwrap_err();
    assert!(matches!(&err, WorkspaceError::Write(WriteError::Changed { path }) if path == Path::new(CATALOG)), "{err}");
    assert!(err.to_string().contains(CATALOG), "{err}");
    assert!(std::fs::read_to_string(dir.join(CATALOG)).unwrap().ends_with("// the user kept typing\n"));
    let root = review.workspace.root().to_path_buf();
    drop(review);
    assert!(!root.exists(), "the workspace is removed when the review is dropped");
}

#[test]
fn verify_needs_a_repository_with_changes() {
    let plain = copy_fixture("library-junit4");
    let run = run_in(plain.path(), &["verify"], &[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("is not in a git repository"), "{}", run.stderr);

    let repo = repo_of("library-junit4");
    let run = run_in(repo.path(), &["verify"], &[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("has no uncommitted changes to verify"), "{}", run.stderr);

    let run = run_in(repo.path(), &["verify", &format!("{CATALOG}:find2")], &[]);
    assert_eq!(run.code, 2, "a target needs --type: {run:?}");
}

/// A skipped test neither passes nor fails: the baseline counts it apart, as the runs after the
/// change count only the tests that passed (so the two numbers agree when nothing broke).
#[test]
fn the_baseline_counts_skipped_tests_apart() {
    let repo = repo_of("library-junit4");
    let dir = repo.path();
    let skipped = "package com.acme.library;\n\nimport static org.junit.Assert.assertTrue;\n\nimport org.junit.Ignore;\nimport org.junit.Test;\n\npublic class SkippedTest {\n    @Test\n    public void runs() {\n        assertTrue(true);\n    }\n\n    @Ignore(\"not yet\")\n    @Test\n    public void waits() {\n        assertTrue(false);\n    }\n}\n";
    std::fs::write(dir.join("src/test/java/com/acme/library/SkippedTest.java"), skipped).unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "a skipped test"]);
    edit(dir, CATALOG, "String needle = words.trim()", "String needle = words.strip()");
    let run = run_in(dir, &["verify"], &[]);
    assert!(run.stderr.contains("[baseline] compiles, 14 tests pass (1 skipped)"), "{}", run.stderr);
    assert!(run.stderr.contains("[tests all] 14 passed"), "{}", run.stderr);
}
