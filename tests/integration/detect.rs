//! `mantra detect` end to end (folders, files, a commit of a real git repository, bad input), and
//! the detector's accuracy on RefactoringMiner's oracle, held above floors so regressions fail.

use std::path::Path;
use std::process::Command;

use mantra::detect::{RefactoringType, oracle};

use crate::harness::mantra;

const BEFORE: &str = "package shop;\n\npublic class Invoice {\n    private String name;\n\n    public void print() {\n        System.out.println(\"**********\");\n        System.out.println(\"* Invoice *\");\n        System.out.println(\"name: \" + name);\n    }\n}\n";
const AFTER: &str = "package shop;\n\npublic class Invoice {\n    private String name;\n\n    public void print() {\n        printBanner();\n        System.out.println(\"name: \" + name);\n    }\n\n    private void printBanner() {\n        System.out.println(\"**********\");\n        System.out.println(\"* Invoice *\");\n    }\n}\n";
const EXPECTED: &str =
    "Extract Method\tprivate printBanner() : void extracted from public print() : void in class shop.Invoice";

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

#[test]
fn detect_between_two_folders_human_and_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "old/src/shop/Invoice.java", BEFORE);
    write(dir.path(), "new/src/shop/Invoice.java", AFTER);
    let run = mantra(dir.path(), &["detect", "--before", "old", "--after", "new"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "{} [pure]\n    before src/shop/Invoice.java:6-10  source method declaration before extraction\n    \
             after  src/shop/Invoice.java:11-14  extracted method declaration\n    \
             after  src/shop/Invoice.java:6-9  source method declaration after extraction\n1 refactoring\n",
            EXPECTED.replace('\t', ": ")
        )
    );

    let run = mantra(dir.path(), &["--json", "detect", "--before", "old", "--after", "new"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let event: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("one JSON line");
    assert_eq!(event["kind"], "refactorings");
    let r = &event["data"]["commits"][0]["refactorings"][0];
    assert_eq!(r["type"], "Extract Method");
    assert_eq!(r["code"], "EXTRACT_OPERATION");
    assert_eq!(r["description"], EXPECTED);
    assert_eq!(r["pure"], true);
    assert_eq!(r["rightSideLocations"][0]["codeElementType"], "METHOD_DECLARATION");
}

#[test]
fn detect_between_two_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "a/Invoice.java", BEFORE);
    write(dir.path(), "b/Invoice.java", AFTER);
    let run = mantra(dir.path(), &["detect", "--before", "a/Invoice.java", "--after", "b/Invoice.java"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with(&EXPECTED.replace('\t', ": ")), "{}", run.stdout);
}

#[test]
fn detect_a_commit_against_its_parent() {
    let dir = tempfile::tempdir().expect("tempdir");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@e", "-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    git(&["init", "-q"]);
    write(dir.path(), "src/shop/Invoice.java", BEFORE);
    write(dir.path(), "README.md", "x\n");
    git(&["add", "-A"]);
    git(&["commit", "-qm", "one"]);
    write(dir.path(), "src/shop/Invoice.java", AFTER);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "two"]);
    let sha = git(&["rev-parse", "HEAD"]);
    let run = mantra(dir.path(), &["--json", "detect", "--commit", "HEAD"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let event: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("one JSON line");
    assert_eq!(event["data"]["commits"][0]["sha1"], sha.as_str());
    assert_eq!(event["data"]["commits"][0]["refactorings"][0]["description"], EXPECTED);

    // The commit may also be given as the argument.
    let run = mantra(dir.path(), &["--json", "detect", "HEAD"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let event: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("one JSON line");
    assert_eq!(event["data"]["commits"][0]["refactorings"][0]["description"], EXPECTED);
    let run = mantra(dir.path(), &["detect", "HEAD", "--commit", "HEAD"]);
    assert_eq!(run.code, 2, "a commit given twice: {}", run.stderr);

    let run = mantra(dir.path(), &["detect", "--commit", "HEAD~1"]);
    assert_eq!(run.code, 3, "the first commit has no parent: {}", run.stderr);
    assert!(run.stderr.contains("has no parent commit"), "{}", run.stderr);
}

#[test]
fn detect_usage_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = mantra(dir.path(), &["detect", "--before", "nope", "--after", "nope2"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("nope: no such file or folder"), "{}", run.stderr);
    let run = mantra(dir.path(), &["detect", "--before", "x"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = mantra(dir.path(), &["detect"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = mantra(dir.path(), &["detect", "--commit", "HEAD"]);
    assert_eq!(run.code, 2, "not a git repository: {}", run.stderr);
}

/// Precision and recall on the whole oracle must stay above these floors (set just below what
/// the detector reaches; raise them when it improves).
#[test]
fn oracle_accuracy_floors() {
    let shared = mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"));
    let commits = oracle::load(&shared.join("refactoring-oracle")).expect("oracle");
    assert_eq!(commits.len(), 200);
    let eval = oracle::evaluate(&commits).expect("evaluate");
    let floors = [
        (RefactoringType::ExtractMethod, 0.975, 0.86),
        (RefactoringType::InlineMethod, 0.97, 0.87),
        (RefactoringType::MoveMethod, 0.99, 0.92),
        (RefactoringType::RenameMethod, 0.955, 0.94),
        (RefactoringType::ExtractAndMoveMethod, 0.95, 0.75),
        (RefactoringType::MoveAndInlineMethod, 0.95, 0.77),
        (RefactoringType::MoveAndRenameMethod, 0.99, 0.85),
        // No target in the issue; held where they are so that they do not slip back.
        (RefactoringType::PullUpMethod, 0.99, 0.66),
        (RefactoringType::PushDownMethod, 0.99, 0.85),
    ];
    for (kind, precision, recall) in floors {
        let c = eval.counts(kind);
        assert!(
            c.precision() >= precision && c.recall() >= recall,
            "{kind}: precision {:.3} (floor {precision}), recall {:.3} (floor {recall})\n{}",
            c.precision(),
            c.recall(),
            eval.table()
        );
    }
}

/// Issue 16's second kind of evidence: the PureRefactor records whose refactoring stays in one
/// file, replayed through the detector as the Reviewer runs it. Floors just below what the
/// detector reaches (found with the right type and methods; also judged pure); raise them when it
/// improves.
#[test]
fn pure_refactor_records_floors() {
    let shared = mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"));
    let (cases, spanning) = mantra::detect::records::load(&shared).expect("records");
    assert!(cases.len() >= 170 && spanning > 0, "{} replayable, {spanning} not", cases.len());
    let v = mantra::detect::records::verify(&cases, spanning);
    for (kind, found, pure) in
        [(RefactoringType::ExtractMethod, 0.86, 0.61), (RefactoringType::InlineMethod, 0.84, 0.63)]
    {
        let t = v.per_type[&kind];
        let share = |n: usize| n as f64 / t.records as f64;
        assert!(
            t.records >= 10 && share(t.found) >= found && share(t.pure) >= pure,
            "{kind}: found {:.3} (floor {found}), pure {:.3} (floor {pure})\n{}",
            share(t.found),
            share(t.pure),
            v.table()
        );
    }
}

/// The oracle's halves come from a file, so that no code names a project; a malformed file is
/// an error that says what to write.
#[test]
fn oracle_halves_file() {
    let halves = oracle::Halves::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("eval/detect/halves.txt"))
        .expect("the halves file");
    assert_eq!((halves.a.len(), halves.b.len()), (5, 5));
    let shared = mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"));
    let commits = oracle::load(&shared.join("refactoring-oracle")).expect("oracle");
    let projects: std::collections::BTreeSet<&str> = commits.iter().map(|c| c.project.as_str()).collect();
    assert!(halves.a.iter().chain(&halves.b).all(|p| projects.contains(p.as_str())), "{projects:?}");
    assert_eq!(projects.len(), 10);
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("halves.txt");
    std::fs::write(&bad, "A one two\nC three\n").expect("write");
    let err = oracle::Halves::read(&bad).unwrap_err().to_string();
    assert!(err.contains("`C`") && err.contains("A project"), "{err}");
    std::fs::write(&bad, "A one two\nB two\n").expect("write");
    let err = oracle::Halves::read(&bad).unwrap_err().to_string();
    assert!(err.contains("both"), "{err}");
}
