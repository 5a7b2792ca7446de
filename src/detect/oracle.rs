//! Accuracy against RefactoringMiner's validated oracle (`shared/data/refactoring-oracle`).
//!
//! Compared the way RefactoringMiner's own test compares: per commit, the set of description
//! strings (TAB replaced by a space) of the `validation: true` labels against the set reported;
//! anything reported and not expected is a false positive, whether or not it is a labelled one.
//! Only the types the detector reports are scored. Shared by the benchmark and the tests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{RefactoringType, Snapshot, detect};

/// One commit of the oracle.
#[derive(Debug, Clone)]
pub struct Commit {
    pub project: String,
    pub sha: String,
    pub dir: PathBuf,
    /// `validation: true` descriptions of the detector's types, TAB replaced by a space.
    pub expected: BTreeSet<String>,
    /// The classes the commit moved or renamed (validated Move, Rename and Move And Rename Class
    /// labels): the qualified name after to the name before.
    pub class_renames: BTreeMap<String, String>,
}

impl Commit {
    /// The name in `before/` of a class a label names as it is after the commit: a label of a
    /// method-level refactoring names the class after, which differs when the commit also moved
    /// or renamed the class (or the class enclosing it). Unchanged when the commit did neither.
    pub fn class_before(&self, after: &str) -> String {
        class_before(&self.class_renames, after)
    }
}

/// [`Commit::class_before`] over a map of class renames.
pub fn class_before(renames: &BTreeMap<String, String>, after: &str) -> String {
    if let Some(before) = renames.get(after) {
        return before.clone();
    }
    // A nested class of a moved or renamed class: the longest renamed prefix.
    let mut end = after.len();
    while let Some(dot) = after[..end].rfind('.') {
        if let Some(before) = renames.get(&after[..dot]) {
            return format!("{before}{}", &after[dot..]);
        }
        end = dot;
    }
    after.to_string()
}

/// The (after, before) names of a validated class-level move or rename description:
/// `Move Class\ta.B moved to c.B`, `Rename Class\ta.B renamed to a.C`,
/// `Move And Rename Class\ta.B moved and renamed to c.D`.
pub fn class_rename(description: &str) -> Option<(String, String)> {
    let (kind, rest) = description.split_once('\t')?;
    let sep = match kind {
        "Move Class" => " moved to ",
        "Rename Class" => " renamed to ",
        "Move And Rename Class" => " moved and renamed to ",
        _ => return None,
    };
    let (before, after) = rest.split_once(sep)?;
    let (before, after) = (before.trim(), after.trim());
    (!before.is_empty() && !after.is_empty() && !after.contains(' ')).then(|| (after.to_string(), before.to_string()))
}

/// True and false positives and false negatives of one type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub tp: usize,
    pub fp: usize,
    pub fn_: usize,
}

impl Counts {
    pub fn precision(&self) -> f64 {
        if self.tp + self.fp == 0 { 1.0 } else { self.tp as f64 / (self.tp + self.fp) as f64 }
    }
    pub fn recall(&self) -> f64 {
        if self.tp + self.fn_ == 0 { 1.0 } else { self.tp as f64 / (self.tp + self.fn_) as f64 }
    }
}

/// A description that was wrong one way or the other, for looking at.
#[derive(Debug, Clone)]
pub struct Miss {
    pub project: String,
    pub sha: String,
    pub kind: RefactoringType,
    pub description: String,
    /// `true`: reported but not expected; `false`: expected but not reported.
    pub false_positive: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Evaluation {
    pub per_type: BTreeMap<RefactoringType, Counts>,
    /// The same counts per project, for the halves of [`Halves`].
    pub per_project: BTreeMap<String, BTreeMap<RefactoringType, Counts>>,
    pub commits: usize,
    /// Time in [`detect`] (reading the files excluded), summed over commits.
    pub detect_time: Duration,
    /// Wall time of the whole evaluation, reading included.
    pub wall_time: Duration,
    pub misses: Vec<Miss>,
    /// Detection time per commit (`project/sha`), in commit order.
    pub times: Vec<(String, Duration)>,
}

impl Evaluation {
    pub fn counts(&self, kind: RefactoringType) -> Counts {
        self.per_type.get(&kind).copied().unwrap_or_default()
    }

    /// The per-type table: TP, FP, FN, precision, recall.
    pub fn table(&self) -> String {
        table(&self.per_type)
    }

    /// The per-type counts over `projects` only.
    pub fn counts_in(&self, projects: &[String]) -> BTreeMap<RefactoringType, Counts> {
        let mut sum: BTreeMap<RefactoringType, Counts> = BTreeMap::new();
        for (kind, c) in projects.iter().filter_map(|p| self.per_project.get(p)).flatten() {
            let s = sum.entry(*kind).or_default();
            s.tp += c.tp;
            s.fp += c.fp;
            s.fn_ += c.fn_;
        }
        sum
    }

    /// The per-type table over `projects` only.
    pub fn table_in(&self, projects: &[String]) -> String {
        table(&self.counts_in(projects))
    }
}

/// The oracle's projects split into two fixed halves (issue 16): a rule is written looking at
/// one and judged on the other. Read from a file of two lines, `A p1 p2 …` and `B p6 p7 …`
/// (`#` starts a comment), so that no code names a project.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Halves {
    pub a: Vec<String>,
    pub b: Vec<String>,
}

impl Halves {
    pub fn read(path: &Path) -> Result<Halves, OracleError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| OracleError::Io { path: path.to_path_buf(), source })?;
        let mut halves = Halves::default();
        for line in text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()) {
            let mut words = line.split_whitespace();
            let half = match words.next() {
                Some("A") => &mut halves.a,
                Some("B") => &mut halves.b,
                other => {
                    return Err(OracleError::Halves {
                        path: path.to_path_buf(),
                        message: format!(
                            "a line starts with `{}`; write `A project …` or `B project …`",
                            other.unwrap_or("")
                        ),
                    });
                }
            };
            half.extend(words.map(str::to_string));
        }
        if halves.a.is_empty() || halves.b.is_empty() || halves.a.iter().any(|p| halves.b.contains(p)) {
            return Err(OracleError::Halves {
                path: path.to_path_buf(),
                message: "both halves need projects, and no project may be in both".into(),
            });
        }
        Ok(halves)
    }
}

fn table(per_type: &BTreeMap<RefactoringType, Counts>) -> String {
    let counts = |kind: RefactoringType| per_type.get(&kind).copied().unwrap_or_default();
    let mut out = format!("{:<26} {:>5} {:>5} {:>5} {:>9} {:>7}\n", "type", "TP", "FP", "FN", "precision", "recall");
    let mut total = Counts::default();
    for kind in RefactoringType::ALL {
        let c = counts(kind);
        total.tp += c.tp;
        total.fp += c.fp;
        total.fn_ += c.fn_;
        out.push_str(&format!(
            "{:<26} {:>5} {:>5} {:>5} {:>9.3} {:>7.3}\n",
            kind.display_name(),
            c.tp,
            c.fp,
            c.fn_,
            c.precision(),
            c.recall()
        ));
    }
    out.push_str(&format!(
        "{:<26} {:>5} {:>5} {:>5} {:>9.3} {:>7.3}\n",
        "all",
        total.tp,
        total.fp,
        total.fn_,
        total.precision(),
        total.recall()
    ));
    out
}

/// Errors reading the oracle.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    #[error("cannot read {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: {source}", path.display())]
    Json { path: PathBuf, source: serde_json::Error },
    #[error(transparent)]
    Snapshot(#[from] super::SnapshotError),
    #[error("{}: {message}", path.display())]
    Halves { path: PathBuf, message: String },
}

#[derive(serde::Deserialize)]
struct Label {
    description: String,
    validation: bool,
}

/// Every commit under `oracle` (`<project>/<sha>/expected.json`), in path order.
pub fn load(oracle: &Path) -> Result<Vec<Commit>, OracleError> {
    let read_dir = |p: &Path| -> Result<Vec<PathBuf>, OracleError> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|source| OracleError::Io { path: p.to_path_buf(), source })?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        v.sort();
        Ok(v)
    };
    let mut commits = Vec::new();
    for project in read_dir(oracle)? {
        for dir in read_dir(&project)? {
            let path = dir.join("expected.json");
            let text =
                std::fs::read_to_string(&path).map_err(|source| OracleError::Io { path: path.clone(), source })?;
            let labels: Vec<Label> =
                serde_json::from_str(&text).map_err(|source| OracleError::Json { path: path.clone(), source })?;
            let class_renames =
                labels.iter().filter(|l| l.validation).filter_map(|l| class_rename(&l.description)).collect();
            let expected = labels
                .into_iter()
                .filter(|l| l.validation && kind_of(&l.description).is_some())
                .map(|l| l.description.replace('\t', " "))
                .collect();
            let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            commits.push(Commit { project: name(&project), sha: name(&dir), dir, expected, class_renames });
        }
    }
    Ok(commits)
}

/// The type a description starts with (before its TAB, or its first space after the display name).
fn kind_of(description: &str) -> Option<RefactoringType> {
    RefactoringType::ALL
        .into_iter()
        .find(|t| description.strip_prefix(t.display_name()).is_some_and(|rest| rest.starts_with(['\t', ' '])))
}

/// Runs the detector on every commit (in parallel) and scores it.
pub fn evaluate(commits: &[Commit]) -> Result<Evaluation, OracleError> {
    let start = Instant::now();
    let results: Vec<Result<(Duration, Vec<String>), OracleError>> = commits
        .par_iter()
        .map(|c| {
            let before = Snapshot::read(&c.dir.join("before"))?;
            let after = Snapshot::read(&c.dir.join("after"))?;
            let t = Instant::now();
            let found = detect(&before, &after);
            Ok((t.elapsed(), found.into_iter().map(|r| r.description.replace('\t', " ")).collect()))
        })
        .collect();
    let mut eval = Evaluation { commits: commits.len(), ..Evaluation::default() };
    for (commit, result) in commits.iter().zip(results) {
        let (elapsed, found) = result?;
        eval.detect_time += elapsed;
        eval.times.push((format!("{}/{}", commit.project, commit.sha), elapsed));
        let found: BTreeSet<String> = found.into_iter().collect();
        for d in found.union(&commit.expected) {
            let Some(kind) = kind_of(d) else { continue };
            for c in [
                eval.per_type.entry(kind).or_default(),
                eval.per_project.entry(commit.project.clone()).or_default().entry(kind).or_default(),
            ] {
                match (found.contains(d), commit.expected.contains(d)) {
                    (true, true) => c.tp += 1,
                    (true, false) => c.fp += 1,
                    (false, true) => c.fn_ += 1,
                    (false, false) => {}
                }
            }
            if found.contains(d) != commit.expected.contains(d) {
                eval.misses.push(Miss {
                    project: commit.project.clone(),
                    sha: commit.sha.clone(),
                    kind,
                    description: d.clone(),
                    false_positive: found.contains(d),
                });
            }
        }
    }
    eval.wall_time = start.elapsed();
    Ok(eval)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_s_class_is_named_as_before_the_commit_moved_or_renamed_it() {
        let renames: BTreeMap<String, String> = [
            "Move Class\ta.Old moved to b.Old",
            "Rename Class\ta.Name renamed to a.Other",
            "Move And Rename Class\ta.X moved and renamed to c.Y",
            "Extract Class\ta.New from class a.Old",
        ]
        .into_iter()
        .filter_map(class_rename)
        .collect();
        assert_eq!(renames.len(), 3, "{renames:?}");
        assert_eq!(class_before(&renames, "b.Old"), "a.Old");
        assert_eq!(class_before(&renames, "a.Other"), "a.Name");
        assert_eq!(class_before(&renames, "c.Y"), "a.X");
        // A nested class follows its enclosing class; an untouched class keeps its name.
        assert_eq!(class_before(&renames, "c.Y.Inner.Deeper"), "a.X.Inner.Deeper");
        assert_eq!(class_before(&renames, "b.Older"), "b.Older");
        assert_eq!(class_before(&renames, "d.Z"), "d.Z");
    }
}
