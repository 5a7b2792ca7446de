//! A snapshot: the Java files of one side of a change, as repository-relative path → text.
//!
//! The detector never reads the disk itself; a snapshot comes from a folder, a single file, or a
//! git revision (only the `.java` files a commit changed, like RefactoringMiner's commit cache), so
//! the same code compares two folders, two files, or a commit with its parent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::process::{Cmd, Runner};

/// Why a snapshot could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("{}: no such file or folder", path.display())]
    Missing { path: PathBuf },
    #[error("{}: not a .java file", path.display())]
    NotJava { path: PathBuf },
    #[error("cannot read {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("git: {0}")]
    Git(#[from] crate::process::ProcessError),
    #[error("{rev}: {message}")]
    Revision { rev: String, message: String },
}

impl crate::error::Classify for SnapshotError {
    fn exit(&self) -> crate::exit::Exit {
        use crate::exit::Exit;
        match self {
            SnapshotError::Missing { .. } => Exit::TargetNotFound,
            SnapshotError::NotJava { .. } => Exit::Usage,
            SnapshotError::Io { .. } => Exit::Internal,
            SnapshotError::Git(e) => e.exit(),
            SnapshotError::Revision { .. } => Exit::TargetNotFound,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            SnapshotError::Missing { .. } => {
                Some("pass an existing folder or .java file to --before and --after".into())
            }
            SnapshotError::NotJava { .. } => Some("compare .java files, or folders holding them".into()),
            SnapshotError::Revision { .. } => Some("pass a commit of the repository (see `git log`)".into()),
            SnapshotError::Git(e) => e.hint(),
            _ => None,
        }
    }
}

/// The Java files of one side of a change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Repository-relative path (forward slashes) → text.
    pub files: BTreeMap<String, String>,
}

impl Snapshot {
    pub fn new() -> Snapshot {
        Snapshot::default()
    }

    /// A snapshot of in-memory files.
    pub fn from_files<P: Into<String>, T: Into<String>>(files: impl IntoIterator<Item = (P, T)>) -> Snapshot {
        Snapshot { files: files.into_iter().map(|(p, t)| (p.into(), t.into())).collect() }
    }

    /// Every `.java` file under `path` (relative to it), or the single file `path` (by its file name).
    pub fn read(path: &Path) -> Result<Snapshot, SnapshotError> {
        if path.is_file() {
            if path.extension().is_none_or(|e| e != "java") {
                return Err(SnapshotError::NotJava { path: path.to_path_buf() });
            }
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let mut s = Snapshot::new();
            s.files.insert(name, read_text(path)?);
            return Ok(s);
        }
        if !path.is_dir() {
            return Err(SnapshotError::Missing { path: path.to_path_buf() });
        }
        let mut s = Snapshot::new();
        let walker = ignore::WalkBuilder::new(path).standard_filters(false).build();
        for entry in walker {
            let entry = entry.map_err(|e| SnapshotError::Io {
                path: path.to_path_buf(),
                source: e.into_io_error().unwrap_or_else(|| std::io::Error::other("cannot walk the folder")),
            })?;
            let p = entry.path();
            if entry.file_type().is_some_and(|t| t.is_file()) && p.extension().is_some_and(|e| e == "java") {
                let rel = p.strip_prefix(path).unwrap_or(p);
                let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
                s.files.insert(rel, read_text(p)?);
            }
        }
        Ok(s)
    }

    /// The `.java` files that commit `rev` changed, as they were in its first parent (`before`) and
    /// in `rev` (`after`), read with the git command line in `repo`; with the commit's full id.
    pub fn from_commit(
        runner: &dyn Runner,
        repo: &Path,
        rev: &str,
    ) -> Result<(Snapshot, Snapshot, String), SnapshotError> {
        let git = |args: &[&str]| -> Result<String, SnapshotError> {
            let cmd = Cmd::new("git").args(args.iter().copied()).cwd(repo).output_cap(256 * 1024 * 1024);
            let out = runner.run(&cmd)?;
            if !out.success() {
                let message = out.stderr.lines().next().unwrap_or("git failed").to_string();
                return Err(SnapshotError::Revision { rev: rev.to_string(), message });
            }
            Ok(out.stdout)
        };
        let sha = git(&["rev-parse", "--verify", &format!("{rev}^{{commit}}")])?.trim().to_string();
        let parent = git(&["rev-parse", "--verify", &format!("{sha}^1")])
            .map_err(|_| SnapshotError::Revision { rev: rev.to_string(), message: "has no parent commit".into() })?
            .trim()
            .to_string();
        let changes = git(&["diff", "--name-status", "-M", "--no-color", &parent, &sha, "--", "*.java"])?;
        let (mut before, mut after) = (Snapshot::new(), Snapshot::new());
        for line in changes.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            let (old, new) = match fields.as_slice() {
                [status, a, b] if status.starts_with('R') || status.starts_with('C') => (Some(*a), Some(*b)),
                [status, p] if status.starts_with('A') => (None, Some(*p)),
                [status, p] if status.starts_with('D') => (Some(*p), None),
                [_, p] => (Some(*p), Some(*p)),
                _ => continue,
            };
            if let Some(p) = old {
                before.files.insert(p.to_string(), git(&["show", &format!("{parent}:{p}")])?);
            }
            if let Some(p) = new {
                after.files.insert(p.to_string(), git(&["show", &format!("{sha}:{p}")])?);
            }
        }
        Ok((before, after, sha))
    }
}

fn read_text(path: &Path) -> Result<String, SnapshotError> {
    let bytes = std::fs::read(path).map_err(|source| SnapshotError::Io { path: path.to_path_buf(), source })?;
    // Old sources in Latin-1 still compare: a replaced byte only changes a string literal.
    Ok(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}
