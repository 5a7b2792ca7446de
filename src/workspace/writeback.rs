//! Writing a change set to disk, all or nothing.
//!
//! Every new text is rendered first (an edit conflict writes nothing), every touched file is checked
//! to still hold the text the change was computed from (a file the user changed meanwhile is named
//! and nothing is written), then each file is written to a temporary sibling and renamed over the
//! original. If a rename fails half-way, the files already replaced are restored.
//!
//! The check and the writes are one step against other mantra runs: both happen under an
//! exclusive lock on `.mantra/write.lock` in the project (the operating system's lock, released
//! when the process ends however it ends), so of two runs changing the same file, the second
//! sees the first's change and refuses instead of writing over half of it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::engine::{ChangeSet, FileChange};
use crate::error::Classify;
use crate::exit::Exit;

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{} changed since mantra read it; nothing was written", path.display())]
    Changed { path: PathBuf },
    #[error("{} already exists; nothing was written", path.display())]
    Exists { path: PathBuf },
    #[error("{} is read-only; nothing was written", path.display())]
    ReadOnly { path: PathBuf },
    #[error("the change set is inconsistent: {0}")]
    Conflict(#[from] crate::engine::EditConflict),
    #[error("cannot write {}: {source}; nothing was changed", path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

impl Classify for WriteError {
    fn exit(&self) -> Exit {
        match self {
            WriteError::Changed { .. } | WriteError::Exists { .. } | WriteError::ReadOnly { .. } => Exit::Rejected,
            WriteError::Conflict(_) | WriteError::Io { .. } => Exit::Internal,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            WriteError::Changed { .. } => Some("run mantra again on the current file".into()),
            WriteError::Exists { .. } => Some("choose another destination, or remove the file".into()),
            WriteError::ReadOnly { path } => {
                Some(format!("make it writable if it should change (`chmod u+w {}`), and run again", path.display()))
            }
            _ => None,
        }
    }
}

/// Writes `changes` under `root` atomically: either every file gets its new text or none does.
/// Returns the repository-relative paths written.
pub fn write_atomically(root: &Path, changes: &ChangeSet) -> Result<Vec<PathBuf>, WriteError> {
    let rendered = changes.render()?;
    let _lock = write_lock(root);
    for (rel, change) in &changes.files {
        let path = root.join(rel);
        match change {
            FileChange::Edit { original, .. } | FileChange::Delete { original } => {
                let current = std::fs::read(&path).map_err(|source| WriteError::Io { path: path.clone(), source })?;
                if current != original.as_bytes() {
                    return Err(WriteError::Changed { path: rel.clone() });
                }
                // The new text replaces the file by a rename, which its permissions would not stop.
                if !writable(&path) {
                    return Err(WriteError::ReadOnly { path: rel.clone() });
                }
            }
            FileChange::Create { .. } => {
                if path.exists() {
                    return Err(WriteError::Exists { path: rel.clone() });
                }
            }
        }
    }
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let cleanup = |staged: &[(PathBuf, PathBuf)]| {
        for (tmp, _) in staged {
            let _ = std::fs::remove_file(tmp);
        }
    };
    for (rel, text) in &rendered {
        let path = root.join(rel);
        let tmp = temp_sibling(&path);
        let result = (|| {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&tmp, text)?;
            if let Ok(meta) = std::fs::metadata(&path) {
                std::fs::set_permissions(&tmp, meta.permissions())?;
            }
            Ok(())
        })();
        if let Err(source) = result {
            let _ = std::fs::remove_file(&tmp);
            cleanup(&staged);
            return Err(WriteError::Io { path, source });
        }
        staged.push((tmp, path));
    }
    let originals: BTreeMap<PathBuf, Option<String>> =
        changes.files.iter().map(|(rel, c)| (root.join(rel), c.original().map(str::to_string))).collect();
    for (i, (tmp, path)) in staged.iter().enumerate() {
        if let Err(source) = std::fs::rename(tmp, path) {
            for (_, done) in &staged[..i] {
                match originals.get(done) {
                    Some(Some(text)) => {
                        let _ = std::fs::write(done, text);
                    }
                    _ => {
                        let _ = std::fs::remove_file(done);
                    }
                }
            }
            cleanup(&staged[i..]);
            return Err(WriteError::Io { path: path.clone(), source });
        }
    }
    // Deletions last: every new text is in place, so a failure here leaves the old file beside
    // its replacement, nothing lost.
    let mut written: Vec<PathBuf> = rendered.into_keys().collect();
    for (rel, change) in &changes.files {
        if let FileChange::Delete { .. } = change {
            let path = root.join(rel);
            std::fs::remove_file(&path).map_err(|source| WriteError::Io { path, source })?;
            written.push(rel.clone());
        }
    }
    Ok(written)
}

/// The project's write lock, waited for; `None` (with a warning) when it cannot be had, for
/// instance in a read-only folder, where the write then goes ahead unguarded as before.
fn write_lock(root: &Path) -> Option<std::fs::File> {
    let dir = root.join(crate::config::STATE_DIR);
    let locked = crate::config::create_state_dir(&dir)
        .and_then(|()| {
            std::fs::OpenOptions::new().write(true).create(true).truncate(false).open(dir.join("write.lock"))
        })
        .and_then(|file| file.lock().map(|()| file));
    match locked {
        Ok(file) => Some(file),
        Err(e) => {
            tracing::warn!("cannot lock {} against other mantra runs: {e}", dir.display());
            None
        }
    }
}

/// Whether the user may write `path`: some write permission bit is set and, on Unix, this
/// process may write it (`access(2)`; root may write a file whose bits say read-only, but a file
/// marked read-only is not changed).
fn writable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else { return false };
    if meta.permissions().readonly() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else { return false };
        // SAFETY: `c` is a valid NUL-terminated path that outlives the call; access(2) only reads it.
        unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
    }
    #[cfg(not(unix))]
    true
}

fn temp_sibling(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.mantra-{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Edit;

    #[test]
    fn writes_all_or_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("A.java"), "class A {}").unwrap();
        std::fs::write(dir.path().join("B.java"), "class B {}").unwrap();
        let mut cs = ChangeSet::new();
        cs.edit(Path::new("A.java"), "class A {}", Edit::replace(6..7, "X"));
        cs.edit(Path::new("B.java"), "class B {}", Edit::replace(6..7, "Y"));
        cs.create(Path::new("p/C.java"), "class C {}".into());
        let written = write_atomically(dir.path(), &cs).unwrap();
        assert_eq!(written.len(), 3);
        assert_eq!(std::fs::read_to_string(dir.path().join("A.java")).unwrap(), "class X {}");
        assert_eq!(std::fs::read_to_string(dir.path().join("p/C.java")).unwrap(), "class C {}");

        // B changed meanwhile: nothing is written, A keeps its text.
        let mut cs = ChangeSet::new();
        cs.edit(Path::new("A.java"), "class X {}", Edit::replace(6..7, "Z"));
        cs.edit(Path::new("B.java"), "class B {}", Edit::replace(6..7, "W"));
        let err = write_atomically(dir.path(), &cs).unwrap_err();
        assert!(matches!(err, WriteError::Changed { ref path } if path == Path::new("B.java")), "{err}");
        assert_eq!(std::fs::read_to_string(dir.path().join("A.java")).unwrap(), "class X {}");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }

    /// Issue 14, defect 1: the check "unchanged since read" and the writes were not one step,
    /// so two writers computed from the same text could both pass the check and both write, each
    /// over part of the other. Raced many times: exactly one wins, and the files are one writer's.
    #[test]
    fn two_writers_from_the_same_text_never_both_win() {
        for _ in 0..200 {
            let dir = tempfile::tempdir().unwrap();
            let files = ["A.java", "B.java", "C.java", "D.java"];
            for f in files {
                std::fs::write(dir.path().join(f), "class K {}").unwrap();
            }
            let change = |with: &str| {
                let mut cs = ChangeSet::new();
                for f in files {
                    cs.edit(Path::new(f), "class K {}", Edit::replace(6..7, with));
                }
                cs
            };
            let (x, y) = (change("X"), change("Y"));
            let barrier = std::sync::Barrier::new(2);
            let (a, b) = std::thread::scope(|s| {
                let a = s.spawn(|| {
                    barrier.wait();
                    write_atomically(dir.path(), &x).is_ok()
                });
                let b = s.spawn(|| {
                    barrier.wait();
                    write_atomically(dir.path(), &y).is_ok()
                });
                (a.join().unwrap(), b.join().unwrap())
            });
            assert!(a != b, "exactly one writer wins (a {a}, b {b})");
            let texts: Vec<String> =
                files.iter().map(|f| std::fs::read_to_string(dir.path().join(f)).unwrap()).collect();
            let winner = if a { "class X {}" } else { "class Y {}" };
            assert!(texts.iter().all(|t| t == winner), "{texts:?}");
        }
    }

    /// Issue 14, defect 9: a read-only file was replaced by the rename all the same.
    #[test]
    fn a_read_only_file_is_named_and_nothing_is_written() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("A.java"), "class A {}").unwrap();
        std::fs::write(dir.path().join("B.java"), "class B {}").unwrap();
        std::fs::set_permissions(dir.path().join("B.java"), std::fs::Permissions::from_mode(0o444)).unwrap();
        let mut cs = ChangeSet::new();
        cs.edit(Path::new("A.java"), "class A {}", Edit::replace(6..7, "X"));
        cs.edit(Path::new("B.java"), "class B {}", Edit::replace(6..7, "Y"));
        let err = write_atomically(dir.path(), &cs).unwrap_err();
        assert!(matches!(err, WriteError::ReadOnly { ref path } if path == Path::new("B.java")), "{err}");
        assert!(err.to_string().contains("B.java is read-only"), "{err}");
        assert_eq!(std::fs::read_to_string(dir.path().join("A.java")).unwrap(), "class A {}");
        assert_eq!(std::fs::read_to_string(dir.path().join("B.java")).unwrap(), "class B {}");
    }
}
