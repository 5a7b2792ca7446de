//! The change under review: for every touched file, its bytes before and after.
//!
//! Two sources: a refactoring's [`ChangeSet`] (before = the files as they are, after = the
//! engine's result), and the working tree's uncommitted changes for `mantra verify` (before =
//! HEAD's version, read with git through the [`Runner`]; after = the file on disk). The Reviewer
//! writes either side into its workspace, so one pipeline serves both.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::engine::{ChangeSet, EditConflict};
use crate::process::{Cmd, ProcessError, Runner};

use super::ReviewError;
use super::validator::Files;

/// The largest file `git show` may return (the runner caps output; a cut file would be corrupt).
const GIT_OUTPUT_CAP: usize = 64 * 1024 * 1024;
const GIT_TIMEOUT: Duration = Duration::from_secs(120);

/// One file's two versions; `None` where it does not exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Versions {
    pub before: Option<Vec<u8>>,
    pub after: Option<Vec<u8>>,
}

/// Which version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Before,
    After,
}

/// Every touched file, project-relative.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Change {
    pub files: BTreeMap<PathBuf, Versions>,
    /// Files left out, with why (binary, a symbolic link, too large): their working-tree version
    /// is on both sides.
    pub skipped: Vec<(PathBuf, &'static str)>,
}

/// What `mantra verify` compares: the working tree's changes against this commit.
#[derive(Debug, Clone)]
pub struct WorkingTreeChange {
    pub change: Change,
    /// HEAD's commit id.
    pub head: String,
}

impl Change {
    /// The change a refactoring's change set makes to the files it was computed from.
    pub fn from_change_set(changes: &ChangeSet) -> Result<Change, EditConflict> {
        let rendered = changes.render()?;
        let files = changes
            .files
            .iter()
            .map(|(path, change)| {
                let before = change.original().map(|o| o.as_bytes().to_vec());
                let after = rendered.get(path).map(|t| t.clone().into_bytes());
                (path.clone(), Versions { before, after })
            })
            .collect();
        Ok(Change { files, skipped: Vec::new() })
    }

    /// The uncommitted changes of the project at `project` (staged, unstaged, untracked but not
    /// ignored) against HEAD, using `git diff --name-status HEAD`, `git ls-files --others` and
    /// `git show HEAD:path`.
    pub fn from_working_tree(project: &Path, runner: &dyn Runner) -> Result<WorkingTreeChange, ReviewError> {
        let git = |args: &[&str]| -> Result<String, ReviewError> {
            let cmd = Cmd::new("git").args(args).cwd(project).timeout(GIT_TIMEOUT).output_cap(GIT_OUTPUT_CAP);
            let out = match runner.run(&cmd) {
                Ok(out) => out,
                Err(ProcessError::NotFound { .. }) => return Err(ReviewError::GitMissing),
                Err(e) => return Err(ReviewError::Git { command: cmd.to_string(), message: e.to_string() }),
            };
            if out.truncated {
                return Err(ReviewError::Git { command: cmd.to_string(), message: "output too large".into() });
            }
            match out.check(&cmd) {
                Ok(out) => Ok(out.stdout),
                Err(ProcessError::Failed { stderr, .. }) if stderr.contains("not a git repository") => {
                    Err(ReviewError::NotGit { path: project.to_path_buf() })
                }
                Err(e) => Err(ReviewError::Git { command: cmd.to_string(), message: e.to_string() }),
            }
        };
        let head = match git(&["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]) {
            Ok(out) => out.trim().to_string(),
            Err(ReviewError::Git { .. }) => return Err(ReviewError::NoCommit { path: project.to_path_buf() }),
            Err(e) => return Err(e),
        };

        let mut change = Change::default();
        let mut in_head: BTreeMap<PathBuf, bool> = BTreeMap::new();
        let status = git(&["diff", "--name-status", "--no-renames", "--relative", "-z", "HEAD"])?;
        let mut fields = status.split('\0').filter(|f| !f.is_empty());
        while let (Some(letter), Some(path)) = (fields.next(), fields.next()) {
            // A (added) is not in HEAD; M, D, T (type change) are.
            in_head.insert(PathBuf::from(path), !letter.starts_with('A'));
        }
        let untracked = git(&["ls-files", "--others", "--exclude-standard", "-z"])?;
        for path in untracked.split('\0').filter(|p| !p.is_empty()) {
            in_head.insert(PathBuf::from(path), false);
        }

        for (rel, tracked) in in_head {
            let disk = project.join(&rel);
            let meta = std::fs::symlink_metadata(&disk).ok();
            if meta.as_ref().is_some_and(|m| m.file_type().is_symlink()) {
                change.skipped.push((rel, "a symbolic link"));
                continue;
            }
            let after = match meta {
                Some(_) => Some(std::fs::read(&disk).map_err(|source| ReviewError::Io {
                    what: "cannot read",
                    path: disk,
                    source,
                })?),
                None => None,
            };
            if after.as_ref().is_some_and(|bytes| std::str::from_utf8(bytes).is_err()) {
                // The runner decodes output as UTF-8, so HEAD's version of a binary file cannot be
                // read back exactly; the working tree's version stands for both sides.
                change.skipped.push((rel, "not UTF-8 text"));
                continue;
            }
            let before = if tracked {
                let spec = format!("HEAD:./{}", rel.display());
                let text = git(&["show", &spec])?;
                if text.contains('\u{FFFD}') {
                    change.skipped.push((rel, "not UTF-8 text in HEAD"));
                    continue;
                }
                Some(text.into_bytes())
            } else {
                None
            };
            if before != after {
                change.files.insert(rel, Versions { before, after });
            }
        }
        Ok(WorkingTreeChange { change, head })
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn paths(&self) -> Vec<PathBuf> {
        self.files.keys().cloned().collect()
    }

    /// The Java files of one side, as text (files absent on that side are left out).
    pub fn java(&self, side: Side) -> Files {
        self.files
            .iter()
            .filter(|(p, _)| p.extension().is_some_and(|e| e == "java"))
            .filter_map(|(p, v)| {
                let bytes = match side {
                    Side::Before => v.before.as_ref()?,
                    Side::After => v.after.as_ref()?,
                };
                Some((p.clone(), String::from_utf8_lossy(bytes).into_owned()))
            })
            .collect()
    }

    /// Makes `root` hold `side` of every touched file: writes it, or deletes the file where that
    /// side has none. Files already holding those bytes are left untouched (so their timestamps
    /// do not make the build tool recompile them).
    pub fn write(&self, root: &Path, side: Side) -> Result<(), ReviewError> {
        for (rel, v) in &self.files {
            let path = root.join(rel);
            let io = |what, source| ReviewError::Io { what, path: path.clone(), source };
            let wanted = match side {
                Side::Before => &v.before,
                Side::After => &v.after,
            };
            match wanted {
                Some(bytes) => {
                    if std::fs::read(&path).is_ok_and(|now| &now == bytes) {
                        continue;
                    }
                    if let Some(dir) = path.parent() {
                        std::fs::create_dir_all(dir).map_err(|e| io("cannot create the folder of", e))?;
                    }
                    std::fs::write(&path, bytes).map_err(|e| io("cannot write", e))?;
                }
                None => match std::fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io("cannot delete", e)),
                    _ => {}
                },
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Edit;

    #[test]
    fn a_change_set_becomes_both_sides_and_is_written_either_way() {
        let mut cs = ChangeSet::new();
        cs.edit(Path::new("src/A.java"), "class A {}\n", Edit::insert(9, " int x; "));
        cs.create(Path::new("src/B.java"), "class B {}\n".into());
        let change = Change::from_change_set(&cs).unwrap();
        assert_eq!(change.java(Side::Before).len(), 1, "B does not exist before");
        assert_eq!(change.java(Side::After)[Path::new("src/A.java")], "class A { int x; }\n");

        let dir = std::env::temp_dir().join(format!("mantra-change-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/A.java"), "class A {}\n").unwrap();
        change.write(&dir, Side::After).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("src/B.java")).unwrap(), "class B {}\n");
        assert_eq!(std::fs::read_to_string(dir.join("src/A.java")).unwrap(), "class A { int x; }\n");
        change.write(&dir, Side::Before).unwrap();
        assert!(!dir.join("src/B.java").exists(), "a created file is gone on the before side");
        assert_eq!(std::fs::read_to_string(dir.join("src/A.java")).unwrap(), "class A {}\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
