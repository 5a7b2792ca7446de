//! The RefactoringMiner adapter, with a stand-in launcher: RefactoringMiner itself cannot be
//! installed here, so a shell script in its place checks the exact invocation mantra makes (the
//! arguments, the scratch repository's HEAD and its parent's files) and writes an output captured
//! in RefactoringMiner 3.x's JSON format (tests/data/refactoring_miner/).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use mantra::detect::{RefactoringType, Snapshot};
use mantra::error::Classify;
use mantra::exit::Exit;
use mantra::process::System;
use mantra::review::refactoring_miner::{MinerError, RefactoringMiner, parse_output};
use serde_json::Value;

use crate::harness::{mantra_env, project_root};

fn data(name: &str) -> PathBuf {
    project_root().join("tests/data/refactoring_miner").join(name)
}

fn snapshots() -> (Snapshot, Snapshot) {
    (Snapshot::read(&data("shop/before")).unwrap(), Snapshot::read(&data("shop/after")).unwrap())
}

/// Writes an executable script `body` (after a `#!/bin/sh` line) to `dir/RefactoringMiner`.
fn launcher(dir: &Path, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("RefactoringMiner");
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A stand-in that accepts only `-c <repo> <sha> -json <file>` where `<repo>`'s HEAD is `<sha>`
/// and its parent holds exactly `before`'s files with their text, then writes `captured` to `<file>`.
fn stand_in(dir: &Path, before: &Snapshot, captured: &Path) -> PathBuf {
    let expected = dir.join("expected-before");
    std::fs::create_dir_all(&expected).unwrap();
    let mut listing = String::new();
    for (rel, text) in &before.files {
        let path = expected.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        listing.push_str(rel);
        listing.push('\n');
    }
    std::fs::write(dir.join("expected-list"), listing).unwrap();
    let body = format!(
        r#"fail() {{ echo "stand-in: $*" >&2; exit 9; }}
[ "$#" -eq 5 ] || fail "expected 5 arguments, got $#: $*"
[ "$1" = "-c" ] || fail "expected -c first, got $1"
[ "$4" = "-json" ] || fail "expected -json fourth, got $4"
repo=$2; sha=$3; out=$5
[ "$(git -C "$repo" rev-parse --show-toplevel)" = "$repo" ] || fail "$repo is not a repository root"
[ "$(git -C "$repo" rev-parse HEAD)" = "$sha" ] || fail "HEAD of $repo is not $sha"
git -C "$repo" ls-tree -r --name-only "$sha^1" | cmp -s - '{dir}/expected-list' || fail "the parent does not hold the before files"
while read -r f; do
  git -C "$repo" show "$sha^1:$f" | cmp -s - '{dir}/expected-before/'"$f" || fail "$f differs in the parent"
done < '{dir}/expected-list'
echo "$@" > '{dir}/invoked'
cp '{captured}' "$out"
"#,
        dir = dir.display(),
        captured = captured.display()
    );
    launcher(dir, &body)
}

fn miner(exe: PathBuf) -> RefactoringMiner {
    RefactoringMiner::new(exe, Arc::new(System), Duration::from_secs(60))
}

#[test]
fn the_captured_output_maps_to_refactorings() {
    let file = data("extract-and-move.json");
    let found = parse_output(&std::fs::read_to_string(&file).unwrap(), &file).unwrap();
    let kinds: Vec<RefactoringType> = found.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, [RefactoringType::ExtractMethod, RefactoringType::MoveMethod]);

    let extract = &found[0];
    assert_eq!(extract.code, "EXTRACT_OPERATION");
    assert!(!extract.pure, "purity is unknown from RefactoringMiner's output");
    assert_eq!(
        (&*extract.subject.method, &*extract.subject.signature, &*extract.subject.class),
        ("print", "print(Customer)", "com.example.shop.Invoice")
    );
    assert_eq!(
        (&*extract.subject.other_method, &*extract.subject.other_class),
        ("computeTotal", "com.example.shop.Invoice")
    );
    assert_eq!((extract.left_side_locations.len(), extract.right_side_locations.len()), (4, 6));
    let call = &extract.right_side_locations[5];
    assert_eq!(
        (call.start_line, call.end_line, call.start_column, call.end_column, &*call.code_element_type),
        (15, 15, 24, 38, "METHOD_INVOCATION")
    );
    assert_eq!(call.code_element.as_deref(), Some("computeTotal()"));
    assert_eq!(extract.left_side_locations[1].code_element, None);

    let moved = &found[1];
    assert_eq!((&*moved.subject.method, &*moved.subject.signature), ("discount", "discount(Customer)"));
    assert_eq!((&*moved.subject.other_method, &*moved.subject.other_class), ("discount", "com.example.shop.Customer"));
    assert_eq!(moved.right_side_locations[0].file_path, "src/main/java/com/example/shop/Customer.java");

    // Mapped back to RefactoringMiner's shape, the refactorings are the captured ones.
    let original: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let again = serde_json::to_value(&found).unwrap();
    for (a, o) in again.as_array().unwrap().iter().zip(original["commits"][0]["refactorings"].as_array().unwrap()) {
        for key in ["type", "description", "rightSideLocations"] {
            let strip = |v: &Value| serde_json::to_string(v).unwrap().replace("\"codeElement\":null,", "");
            assert_eq!(strip(&a[key]), strip(&o[key]), "{key}");
        }
    }
}

#[test]
fn types_mantra_does_not_perform_are_skipped_and_an_empty_commit_is_empty() {
    let json = r#"{"commits":[{"repository":"r","sha1":"s","url":"u","refactorings":[
        {"type":"Rename Variable","description":"Rename Variable\tx : int to y : int in method public m() : void in class a.A",
         "leftSideLocations":[],"rightSideLocations":[]},
        {"type":"Rename Method","description":"Rename Method\tpublic m() : void renamed to public n() : void in class a.A",
         "leftSideLocations":[],"rightSideLocations":[]}]}]}"#;
    let found = parse_output(json, Path::new("x.json")).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].kind, &*found[0].subject.other_method), (RefactoringType::RenameMethod, "n"));
    let none = data("none.json");
    assert!(parse_output(&std::fs::read_to_string(&none).unwrap(), &none).unwrap().is_empty());
}

#[test]
fn detect_commits_both_sides_and_runs_the_launcher() {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = snapshots();
    let captured = data("extract-and-move.json");
    let exe = stand_in(dir.path(), &before, &captured);
    let found = miner(exe).detect(&before, &after).unwrap();
    let expected = parse_output(&std::fs::read_to_string(&captured).unwrap(), &captured).unwrap();
    assert_eq!(found, expected);
    let invoked = std::fs::read_to_string(dir.path().join("invoked")).unwrap();
    let args: Vec<&str> = invoked.split_whitespace().collect();
    assert_eq!((args[0], args[3]), ("-c", "-json"));
    assert_eq!(args[2].len(), 40, "a full commit id: {invoked}");
    // The scratch repository is gone afterwards.
    assert!(!Path::new(args[1]).exists(), "{invoked}");
}

#[test]
fn the_stand_in_rejects_a_wrong_parent() {
    // Proves the stand-in's checks bite: told to expect the after files in the parent, it fails.
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = snapshots();
    let exe = stand_in(dir.path(), &after, &data("extract-and-move.json"));
    let err = miner(exe).detect(&before, &after).unwrap_err();
    assert!(err.to_string().contains("differs in the parent"), "{err}");
}

#[test]
fn a_launcher_that_is_not_executable_is_an_environment_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let exe = launcher(dir.path(), "exit 0\n");
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (before, after) = snapshots();
    let err = miner(exe.clone()).detect(&before, &after).unwrap_err();
    assert!(matches!(err, MinerError::NotExecutable { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!("RefactoringMiner launcher {}: is not executable (chmod +x it)", exe.display())
    );
    assert_eq!(err.exit(), Exit::EnvironmentMissing);
    assert!(err.hint().unwrap().contains("refactoring_miner.path"));

    let missing = miner(dir.path().join("nope")).detect(&before, &after).unwrap_err();
    assert!(missing.to_string().ends_with("nope: no such file"), "{missing}");
}

#[test]
fn a_failing_launcher_reports_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let exe = launcher(
        dir.path(),
        "echo 'Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space' >&2\nexit 1\n",
    );
    let (before, after) = snapshots();
    let err = miner(exe).detect(&before, &after).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, MinerError::Failed { .. }), "{text}");
    assert!(text.contains("(exit code 1)") && text.ends_with("java.lang.OutOfMemoryError: Java heap space"), "{text}");
}

#[test]
fn garbage_output_is_a_parse_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let exe = launcher(dir.path(), "echo 'Note: not JSON at all' > \"$5\"\n");
    let (before, after) = snapshots();
    let err = miner(exe).detect(&before, &after).unwrap_err();
    let MinerError::Parse { file, .. } = &err else { panic!("{err}") };
    assert_eq!(file.file_name().unwrap(), "refactorings.json");
    assert!(err.to_string().contains("refactorings.json: expected value at line 1"), "{err}");
}

#[test]
fn no_output_file_and_a_timeout_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = snapshots();
    let silent = launcher(dir.path(), "exit 0\n");
    let err = miner(silent).detect(&before, &after).unwrap_err();
    assert!(matches!(err, MinerError::NoOutput { .. }), "{err}");

    let slow_dir = tempfile::tempdir().unwrap();
    let slow = launcher(slow_dir.path(), "sleep 30\n");
    let err =
        RefactoringMiner::new(slow, Arc::new(System), Duration::from_millis(500)).detect(&before, &after).unwrap_err();
    assert!(matches!(err, MinerError::TimedOut { .. }), "{err}");
}

/// `mantra doctor`'s RefactoringMiner check, configured through `REFACTORINGMINER_HOME`.
fn doctor_check(dir: &Path, home: &Path) -> Value {
    std::fs::create_dir_all(dir.join("repo")).unwrap();
    std::fs::create_dir_all(dir.join("home")).unwrap();
    let h = dir.join("home").to_string_lossy().into_owned();
    let rm = home.to_string_lossy().into_owned();
    let env = [("HOME", h.as_str()), ("XDG_CONFIG_HOME", h.as_str()), ("REFACTORINGMINER_HOME", rm.as_str())];
    let run = mantra_env(&dir.join("repo"), &["doctor", "--json"], &env);
    assert_eq!(run.code, 0, "{run:?}");
    let event: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    event["data"]["checks"].as_array().unwrap().iter().find(|c| c["name"] == "RefactoringMiner").unwrap().clone()
}

#[test]
fn doctor_names_the_refactoring_miner_in_use() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().join("RefactoringMiner-3.0.10");
    std::fs::create_dir_all(dist.join("bin")).unwrap();
    let exe = launcher(&dist.join("bin"), "exit 0\n");
    let check = doctor_check(dir.path(), &dist);
    assert_eq!(check["status"], "ok", "{check}");
    assert_eq!(check["detail"], format!("RefactoringMiner at {}", exe.display()));

    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o644)).unwrap();
    let check = doctor_check(dir.path(), &dist);
    assert_eq!(check["status"], "warning", "{check}");
    assert_eq!(check["detail"], format!("{}: is not executable (chmod +x it)", exe.display()));
    assert!(check["fix"].as_str().unwrap().starts_with(&format!("`chmod +x {}`", exe.display())), "{check}");
}

#[test]
fn the_captured_descriptions_are_what_the_built_in_detector_prints() {
    // The captured output and the built-in detector describe the same change the same way, so the
    // Reviewer's checks read either alike.
    let (before, after) = snapshots();
    let builtin = mantra::detect::detect(&before, &after);
    let file = data("extract-and-move.json");
    let captured = parse_output(&std::fs::read_to_string(&file).unwrap(), &file).unwrap();
    let describe = |rs: &[mantra::detect::Refactoring]| {
        let mut d: Vec<(String, mantra::detect::Subject)> =
            rs.iter().map(|r| (r.description.clone(), r.subject.clone())).collect();
        d.sort_by(|a, b| a.0.cmp(&b.0));
        d
    };
    assert_eq!(describe(&captured), describe(&builtin));
}

/// As the Reviewer's validator, RefactoringMiner's detections are judged against the intent: the
/// captured Extract Method matches an extract intent on `Invoice.print` and misses a rename intent.
#[test]
fn as_a_validator_its_detections_are_judged_against_the_intent() {
    use mantra::refactoring::RefactoringKind;
    use mantra::review::{Intent, Match, Validator};
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = snapshots();
    let exe = stand_in(dir.path(), &before, &data("extract-and-move.json"));
    let files = |s: &Snapshot| s.files.iter().map(|(p, t)| (PathBuf::from(p), t.clone())).collect();
    let (b, a) = (files(&before), files(&after));
    let intent = |kind| Intent {
        kind,
        class: "com.example.shop.Invoice".into(),
        method: "print".into(),
        new_name: None,
        destination: None,
    };
    let validator = miner(exe);
    assert_eq!(Validator::name(&validator), "RefactoringMiner");
    let v = validator.validate(&intent(RefactoringKind::ExtractMethod), &b, &a).unwrap();
    assert_eq!(v.verdict, Match::Matched, "{}", v.reason);
    assert!(v.reason.contains("computeTotal"), "{}", v.reason);
    let v = validator.validate(&intent(RefactoringKind::RenameMethod), &b, &a).unwrap();
    assert_eq!(v.verdict, Match::Missing, "{}", v.reason);
}
