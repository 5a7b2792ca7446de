//! Tasks: one human refactoring each, to be performed again at its parent commit and compared.
//!
//! Two inputs make tasks. A commit list (`--commits FILE`, `--range A..B`) is read with the
//! built-in detector: each commit against its first parent, one task per method-level refactoring
//! it finds (pure ones unless `--impure`). A task file (`--tasks FILE`, PureRefactor / SWE-Refactor
//! JSON) names the refactorings itself; each record is matched to what the detector finds in its
//! commit of the clone, which gives the oracle its details (the extracted lines, the destination).
//! Either way a task keeps the human's side as the reference the result is scored against.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::BatchError;
use crate::detect::{self, Refactoring, RefactoringType, Snapshot, Subject};
use crate::process::{Cmd, Runner};
use crate::refactoring::RefactoringKind;

/// One refactoring to perform again.
#[derive(Debug, Clone)]
pub struct Task {
    /// Stable across runs (the key `--resume` uses): `<commit:12>-<n>` or the record's `uniqueId`.
    pub id: String,
    /// The project's name in reports.
    pub project: String,
    /// The commit holding the human's refactoring; the task runs at its first parent.
    pub commit: String,
    pub kind: RefactoringKind,
    /// Qualified class and name of the refactored method at the parent (the source method of an
    /// extraction, the inlined method, the moved or renamed method).
    pub class: String,
    pub method: String,
    /// `name(T1,T2)` when known, to choose among overloads.
    pub signature: Option<String>,
    /// The human's refactoring as RefactoringMiner describes it.
    pub description: String,
    /// The human's code after the refactoring (the methods it produced), for the similarity metrics.
    pub human_code: Option<String>,
    /// The detected refactoring, when the detector found the human's one.
    pub human: Option<Refactoring>,
    /// Who the refactoring is about as a task file's record describes it (its `description`):
    /// the oracle's fallback when the detector did not find the human's refactoring.
    pub recorded: Option<Subject>,
}

/// A commit and its first parent, as the detector read them.
#[derive(Debug, Clone)]
pub struct Commit {
    pub sha: String,
    pub parent: String,
    /// The `.java` files the commit changed, at the parent and at the commit.
    pub before: Snapshot,
    pub after: Snapshot,
    pub found: Vec<Refactoring>,
}

impl Commit {
    /// Reads `rev` and its first parent from the repository and detects the refactorings between.
    pub fn read(runner: &dyn Runner, repo: &Path, rev: &str) -> Result<Commit, BatchError> {
        let (before, after, sha) = Snapshot::from_commit(runner, repo, rev)
            .map_err(|e| BatchError::Commit { rev: rev.to_string(), message: e.to_string() })?;
        let parent = git(runner, repo, &["rev-parse", &format!("{sha}^1")])?.trim().to_string();
        let found = detect::detect(&before, &after);
        Ok(Commit { sha, parent, before, after, found })
    }
}

/// One task per refactoring mantra performs in `commit` (pure ones only unless `impure`).
pub fn from_commit(project: &str, commit: &Commit, impure: bool) -> Vec<Task> {
    commit
        .found
        .iter()
        .filter(|r| impure || r.pure)
        .filter_map(|r| r.kind.kind().map(|k| (k, r)))
        .enumerate()
        .map(|(n, (kind, r))| Task {
            id: format!("{:.12}-{}", commit.sha, n + 1),
            project: project.to_string(),
            commit: commit.sha.clone(),
            kind,
            class: r.subject.class.clone(),
            method: r.subject.method.clone(),
            signature: Some(r.subject.signature.clone()),
            description: r.description.clone(),
            human_code: Some(r.right_methods_text(&commit.after)),
            human: Some(r.clone()),
            recorded: None,
        })
        .collect()
}

/// The text of the file a flag names: a missing file is a target not found, another failure to
/// read it a usage error that says why.
fn read_input(path: &Path, flag: &'static str) -> Result<String, BatchError> {
    std::fs::read_to_string(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => BatchError::Missing { path: path.to_path_buf(), flag },
        _ => BatchError::Input { path: path.to_path_buf(), message: format!("cannot read it: {e}") },
    })
}

/// Commit ids from a file: one per line; blank lines and `#` comments are skipped, and only the
/// first word of a line counts (so `git log --oneline` output works).
pub fn read_commit_list(path: &Path) -> Result<Vec<String>, BatchError> {
    let text = read_input(path, "--commits")?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect())
}

/// The commits of `A..B`, oldest first (what `git rev-list --reverse A..B` lists).
pub fn commits_in_range(runner: &dyn Runner, repo: &Path, range: &str) -> Result<Vec<String>, BatchError> {
    if !range.contains("..") {
        return Err(BatchError::Range { range: range.to_string(), message: "not of the form A..B".into() });
    }
    let out = git(runner, repo, &["rev-list", "--reverse", "--first-parent", range])
        .map_err(|e| BatchError::Range { range: range.to_string(), message: e.to_string() })?;
    Ok(out.lines().map(str::to_string).collect())
}

pub fn git(runner: &dyn Runner, repo: &Path, args: &[&str]) -> Result<String, BatchError> {
    let cmd = Cmd::new("git").args(args.iter().copied()).cwd(repo).output_cap(64 * 1024 * 1024);
    let out = runner.run(&cmd).map_err(|e| BatchError::Git { command: cmd.to_string(), message: e.to_string() })?;
    if !out.success() {
        let message = out.stderr.lines().next().unwrap_or("failed").to_string();
        return Err(BatchError::Git { command: cmd.to_string(), message });
    }
    Ok(out.stdout)
}

/// One record of a PureRefactor / SWE-Refactor task file; the fields batch reads, by name.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    #[serde(rename = "type")]
    pub kind: String,
    pub commit_id: String,
    #[serde(default)]
    pub unique_id: Option<String>,
    pub file_path_before: String,
    /// `a.b.Class#method`.
    pub method_name_before: String,
    #[serde(default)]
    pub class_name_before: Option<String>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub source_code_after_refactoring: Option<String>,
}

/// The records of a task file.
pub fn read_task_file(path: &Path) -> Result<Vec<Record>, BatchError> {
    let text = read_input(path, "--tasks")?;
    let records: Vec<Record> = serde_json::from_str(&text).map_err(|e| BatchError::Input {
        path: path.to_path_buf(),
        message: format!(
            "not a PureRefactor / SWE-Refactor task file ({e}); expected a JSON array of records with \
             `type`, `commitId`, `filePathBefore` and `methodNameBefore`"
        ),
    })?;
    for (i, r) in records.iter().enumerate() {
        if record_kind(&r.kind).is_none() {
            return Err(BatchError::Input {
                path: path.to_path_buf(),
                message: format!("record {}: unknown refactoring type `{}`", i + 1, r.kind),
            });
        }
    }
    Ok(records)
}

/// RefactoringMiner's display name (`Extract And Move Method`) as mantra's kind.
pub fn record_kind(name: &str) -> Option<RefactoringKind> {
    RefactoringType::from_display_name(name.trim()).and_then(RefactoringType::kind)
}

/// The task a record describes; `commit` is the record's commit as read from the clone, when it
/// could be read, to find the human's refactoring among the detector's findings.
pub fn from_record(project: &str, n: usize, record: &Record, commit: Option<&Commit>) -> Option<Task> {
    let kind = record_kind(&record.kind)?;
    let (class, method) = match record.method_name_before.split_once('#') {
        Some((c, m)) => (c.to_string(), m.to_string()),
        None => (record.class_name_before.clone().unwrap_or_default(), record.method_name_before.clone()),
    };
    let human = commit.and_then(|c| {
        c.found
            .iter()
            .find(|r| r.kind.kind() == Some(kind) && r.subject.method == method && same_class(&class, &r.subject.class))
            .cloned()
    });
    let short: String = record.commit_id.chars().take(12).collect();
    Some(Task {
        id: record.unique_id.clone().unwrap_or_else(|| format!("{short}-r{}", n + 1)),
        project: project.to_string(),
        commit: record.commit_id.clone(),
        kind,
        class,
        method,
        signature: human.as_ref().map(|h| h.subject.signature.clone()),
        description: record.description.clone(),
        human_code: record.source_code_after_refactoring.clone(),
        human,
        recorded: RefactoringType::from_display_name(record.kind.trim())
            .and_then(|t| crate::review::refactoring_miner::subject_of(t, &record.description)),
    })
}

/// Nested classes are `Outer.Inner` in both notations; a record may name the class simply.
fn same_class(wanted: &str, actual: &str) -> bool {
    wanted == actual || actual.ends_with(&format!(".{wanted}"))
}

/// The commits of `records`, each once, in order of first appearance.
pub fn record_commits(records: &[Record]) -> Vec<String> {
    let mut seen = BTreeMap::new();
    let mut out = Vec::new();
    for r in records {
        if seen.insert(r.commit_id.clone(), ()).is_none() {
            out.push(r.commit_id.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pure_refactor_files_parse_as_task_files() {
        let data = crate::dataset::shared_data_dir().expect("the shared data folder");
        let files = crate::dataset::pure_refactor_files(&data).expect("the PureRefactor files");
        assert_eq!(files.len(), 3);
        let mut total = 0;
        for (project, path) in &files {
            let records = read_task_file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(!records.is_empty(), "{project}");
            for (n, r) in records.iter().enumerate() {
                let task = from_record(project, n, r, None).expect("a known type");
                assert_eq!(task.commit.len(), 40, "{}", task.id);
                assert!(!task.class.is_empty() && !task.method.is_empty(), "{}", task.id);
                assert!(task.human_code.as_deref().is_some_and(|c| !c.is_empty()), "{}", task.id);
            }
            total += records.len();
        }
        assert_eq!(total, 277);
    }

    #[test]
    fn a_file_that_is_not_a_task_file_says_what_was_expected() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.json");
        std::fs::write(&path, r#"{"commits": []}"#).unwrap();
        let err = read_task_file(&path).unwrap_err().to_string();
        assert!(err.contains("expected a JSON array of records"), "{err}");
        std::fs::write(&path, r#"[{"type": "Pull Up Attribute", "commitId": "a", "filePathBefore": "A.java", "methodNameBefore": "A#m"}]"#).unwrap();
        let err = read_task_file(&path).unwrap_err().to_string();
        assert!(err.contains("unknown refactoring type `Pull Up Attribute`"), "{err}");
    }

    #[test]
    fn commit_lists_take_the_first_word_and_skip_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.txt");
        std::fs::write(&path, "# from git log --oneline\nabc123 Extract fineFor\n\n  def456\n").unwrap();
        assert_eq!(read_commit_list(&path).unwrap(), vec!["abc123", "def456"]);
    }
}
