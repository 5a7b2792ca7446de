//! Preview, then apply the same change.
//!
//! A `mantra refactor` that shows a change without writing it keeps that change in its run folder
//! (`.mantra/runs/<id>/change.json`): the change set with the text of every file it was computed
//! from, and the verdict it got. `mantra apply [RUN]` writes exactly that change, through
//! [`super::writeback::write_atomically`], which refuses, naming the file, when a file no longer
//! holds the text the change was computed from. So what the user reviewed is what gets written,
//! however the model would answer a second time.

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::STATE_DIR;
use crate::engine::ChangeSet;
use crate::error::Classify;
use crate::exit::Exit;

/// The preview's file name inside a run folder.
pub const PREVIEW_FILE: &str = "change.json";
/// Written next to it once the change is applied.
const APPLIED_FILE: &str = "applied";
const VERSION: u32 = 1;

/// A change shown and not written.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Preview {
    pub version: u32,
    /// What was done: `extract-method InvoiceService.issue(Invoice, LocalDate)`.
    pub summary: String,
    /// `accepted` (verified), or `unverified`.
    pub verdict: String,
    pub changes: ChangeSet,
}

impl Preview {
    pub fn new(summary: String, verdict: &str, changes: ChangeSet) -> Preview {
        Preview { version: VERSION, summary, verdict: verdict.to_string(), changes }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PreviewError {
    #[error("no previewed change to apply in {}", runs.display())]
    None { runs: PathBuf },
    #[error("no run `{id}` with a previewed change{}", known(recent))]
    Unknown { id: String, recent: Vec<String> },
    #[error("the change of run {id} ({summary}) was already applied")]
    Applied { id: String, summary: String },
    #[error("{}: {why}", path.display())]
    Unreadable { path: PathBuf, why: String },
    #[error("cannot keep the preview in {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

fn known(recent: &[String]) -> String {
    if recent.is_empty() { String::new() } else { format!("; recent runs with one: {}", recent.join(", ")) }
}

impl Classify for PreviewError {
    fn exit(&self) -> Exit {
        match self {
            PreviewError::None { .. } | PreviewError::Unknown { .. } => Exit::Usage,
            PreviewError::Applied { .. } | PreviewError::Unreadable { .. } => Exit::Rejected,
            PreviewError::Io { .. } => Exit::Internal,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            PreviewError::None { .. } => {
                Some("run `mantra refactor ...` without --apply first; it keeps the change it shows".into())
            }
            PreviewError::Unknown { .. } => Some("leave RUN out to apply the latest previewed change".into()),
            PreviewError::Applied { .. } => Some("run `mantra refactor ...` again for a new change".into()),
            PreviewError::Unreadable { .. } => {
                Some("run `mantra refactor ...` again to preview the change anew".into())
            }
            PreviewError::Io { .. } => None,
        }
    }
}

/// Keeps `preview` in `run` (a run folder); returns the run's id.
pub fn save(run: &Path, preview: &Preview) -> Result<String, PreviewError> {
    let io = |source| PreviewError::Io { path: run.to_path_buf(), source };
    crate::config::create_state_dir(run).map_err(io)?;
    let text = serde_json::to_string(preview).map_err(|e| io(std::io::Error::other(e)))?;
    let tmp = run.join(format!("{PREVIEW_FILE}.tmp"));
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, run.join(PREVIEW_FILE)).map_err(io)?;
    Ok(run_id(run))
}

fn run_id(run: &Path) -> String {
    run.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The previewed change of run `id` in `repo`, or of the latest run that has one, not yet applied.
pub fn load(repo: &Path, id: Option<&str>) -> Result<(PathBuf, Preview), PreviewError> {
    let runs = repo.join(STATE_DIR).join("runs");
    let mut with_preview: Vec<String> = std::fs::read_dir(&runs)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().join(PREVIEW_FILE).is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    // Run ids start with their UTC time: the greatest is the latest.
    with_preview.sort();
    let chosen = match id {
        Some(id) => {
            let id = id.trim_end_matches('/').rsplit('/').next().unwrap_or(id);
            if !with_preview.iter().any(|r| r == id) {
                let recent = with_preview.iter().rev().take(5).cloned().collect();
                return Err(PreviewError::Unknown { id: id.to_string(), recent });
            }
            id.to_string()
        }
        None => with_preview.last().cloned().ok_or(PreviewError::None { runs: runs.clone() })?,
    };
    let run = runs.join(&chosen);
    let path = run.join(PREVIEW_FILE);
    let unreadable = |why: String| PreviewError::Unreadable { path: path.clone(), why };
    let text = std::fs::read_to_string(&path).map_err(|e| unreadable(e.to_string()))?;
    let preview: Preview = serde_json::from_str(&text).map_err(|e| unreadable(format!("not a preview: {e}")))?;
    if preview.version != VERSION {
        return Err(unreadable(format!("written by another version of mantra (format {})", preview.version)));
    }
    // The file is the user's to edit; a path out of the project is not written.
    if let Some(bad) = preview.changes.files.keys().find(|p| !inside_project(p)) {
        return Err(unreadable(format!("`{}` is not a path inside the project", bad.display())));
    }
    if run.join(APPLIED_FILE).exists() {
        return Err(PreviewError::Applied { id: chosen, summary: preview.summary });
    }
    Ok((run, preview))
}

/// Records that the change of `run` was written, so that it is not written twice.
pub fn mark_applied(run: &Path) -> Result<(), PreviewError> {
    std::fs::write(run.join(APPLIED_FILE), "applied\n")
        .map_err(|source| PreviewError::Io { path: run.to_path_buf(), source })
}

/// A relative path of plain names, not into `.git` or `.mantra` (in any letter case).
fn inside_project(path: &Path) -> bool {
    let mut parts = path.components().peekable();
    let Some(Component::Normal(first)) = parts.peek().copied() else { return false };
    let first = first.to_string_lossy().to_ascii_lowercase();
    first != ".git" && first != STATE_DIR && path.components().all(|c| matches!(c, Component::Normal(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preview(dir: &Path) -> Preview {
        std::fs::write(dir.join("A.java"), "class A {}\n").unwrap();
        let mut changes = ChangeSet::new();
        changes.edit(Path::new("A.java"), "class A {}\n", crate::engine::Edit::insert(9, " int x; "));
        Preview::new("extract-method A.m()".into(), "unverified", changes)
    }

    #[test]
    fn the_latest_preview_is_found_and_applied_once() {
        let dir = tempfile::tempdir().unwrap();
        let p = preview(dir.path());
        let runs = dir.path().join(".mantra/runs");
        for id in ["20261125T100000Z-1", "20261125T110000Z-2"] {
            save(&runs.join(id), &p).unwrap();
        }
        std::fs::create_dir_all(runs.join("20261125T120000Z-3")).unwrap(); // a run without a preview
        let (run, loaded) = load(dir.path(), None).unwrap();
        assert_eq!(run_id(&run), "20261125T110000Z-2");
        assert_eq!(loaded.changes, p.changes);
        mark_applied(&run).unwrap();
        let err = load(dir.path(), None).unwrap_err();
        assert!(matches!(err, PreviewError::Applied { .. }), "{err}");
        assert_eq!(run_id(&load(dir.path(), Some("20261125T100000Z-1")).unwrap().0), "20261125T100000Z-1");
        let err = load(dir.path(), Some("nope")).unwrap_err();
        assert!(err.to_string().contains("recent runs with one: 20261125T110000Z-2, 20261125T100000Z-1"), "{err}");
    }

    #[test]
    fn no_preview_and_hostile_paths_are_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let err = load(dir.path(), None).unwrap_err();
        assert_eq!(err.exit(), Exit::Usage);
        assert!(err.hint().unwrap().contains("without --apply"), "{err}");
        let mut p = preview(dir.path());
        let change = p.changes.files.remove(Path::new("A.java")).unwrap();
        p.changes.files.insert(PathBuf::from(".GIT/config"), change);
        save(&dir.path().join(".mantra/runs/r1"), &p).unwrap();
        let err = load(dir.path(), None).unwrap_err();
        assert!(err.to_string().contains("`.GIT/config` is not a path inside the project"), "{err}");
        std::fs::write(dir.path().join(".mantra/runs/r1").join(PREVIEW_FILE), "{").unwrap();
        assert!(load(dir.path(), None).unwrap_err().to_string().contains("not a preview"));
    }
}
