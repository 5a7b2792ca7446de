//! An isolated copy of the user's project, so that a refactoring is built, tested and reviewed
//! without touching the user's files until the verdict.
//!
//! [`Workspace::create`] copies the project into a fresh directory under the system temp dir (or a
//! chosen parent): in a git repository, every file git tracks or would add, as it is in the working
//! tree (so committed, staged, modified and untracked-but-not-ignored files are all there, and
//! deleted or ignored ones are not); elsewhere, what a `.gitignore`-aware walk finds. The copy is
//! a plain directory, not a linked `git worktree`: nothing is written into the user's `.git`, so
//! even a `kill -9` leaves no worktree metadata or branch behind, and the uncommitted changes come
//! along without replaying them onto a checkout. Symbolic links are copied as links (never
//! followed), and file modes are kept (`gradlew` stays executable).
//!
//! The workspace remembers the git blob hash of every file it copied. [`Workspace::apply_back`]
//! writes a verified result into the user's tree all or nothing, and refuses, naming the file, if
//! the user changed that file since the copy was made.
//!
//! The directory is removed when the [`Workspace`] is dropped (success, error, panic) and, through
//! [`cleanup`], when mantra is interrupted by SIGINT, SIGTERM or SIGHUP, unless it is kept on purpose.

mod cleanup;
mod listing;

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use git2::{ObjectType, Oid};
use rayon::prelude::*;

pub use cleanup::INTERRUPTED_EXIT;

use crate::engine::{ChangeSet, Edit, FileChange};
use crate::error::Classify;
use crate::exit::Exit;
use crate::writeback::{self, WriteError};

#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    #[error("cannot create a workspace directory in {}: {source}", dir.display())]
    TempDir { dir: PathBuf, source: std::io::Error },
    #[error("cannot copy {} into the workspace {}: {source}", path.display(), workspace.display())]
    Copy { path: PathBuf, workspace: PathBuf, source: std::io::Error },
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("git cannot read the repository at {}: {source}", path.display())]
    Git { path: PathBuf, source: git2::Error },
    #[error("{}: {reason}; nothing was written", path.display())]
    Refused { path: PathBuf, reason: &'static str },
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error("cannot remove the workspace {}: {source}", dir.display())]
    Remove { dir: PathBuf, source: std::io::Error },
}

impl Classify for WorkspaceError {
    fn exit(&self) -> Exit {
        match self {
            WorkspaceError::Refused { .. } => Exit::Rejected,
            WorkspaceError::Write(e) => e.exit(),
            _ => Exit::Internal,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            WorkspaceError::TempDir { .. } | WorkspaceError::Copy { .. } => {
                Some("set TMPDIR to a writable directory with enough free space for a copy of the project".into())
            }
            WorkspaceError::Write(e) => e.hint(),
            WorkspaceError::Remove { .. } => Some("delete the directory by hand".into()),
            _ => None,
        }
    }
}

/// How to make a workspace.
#[derive(Debug, Clone, Default)]
pub struct WorkspaceOptions {
    /// Leave the directory in place afterwards (`--keep-workspace`), for inspection.
    pub keep: bool,
    /// Where to create it; the system temp dir (`TMPDIR`) if `None`.
    pub parent: Option<PathBuf>,
}

/// What a file was when it was copied, to detect that the user changed it since.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copied {
    /// The git blob hash of the file's bytes (of the link's target, for a symbolic link).
    pub hash: Oid,
    pub symlink: bool,
}

/// How the workspace differs from what was copied, paths relative to the project root.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkspaceChanges {
    pub modified: Vec<PathBuf>,
    pub created: Vec<PathBuf>,
    pub deleted: Vec<PathBuf>,
}

/// An isolated copy of a project; see the module documentation.
#[derive(Debug)]
pub struct Workspace {
    root: PathBuf,
    source: PathBuf,
    copied: BTreeMap<PathBuf, Copied>,
    head: Option<Oid>,
    keep: bool,
}

impl Workspace {
    /// Copies the project at `project` into a new directory under the system temp dir.
    pub fn create(project: &Path) -> Result<Workspace, WorkspaceError> {
        Workspace::create_with(project, &WorkspaceOptions::default())
    }

    /// Copies the project at `project` as `options` say. On error nothing is left behind.
    pub fn create_with(project: &Path, options: &WorkspaceOptions) -> Result<Workspace, WorkspaceError> {
        let source =
            project.canonicalize().map_err(|source| WorkspaceError::Read { path: project.to_path_buf(), source })?;
        let parent = options.parent.clone().unwrap_or_else(std::env::temp_dir);
        let root = make_unique_dir(&parent)?;
        // From here on, dropping `ws` (an early return below) removes the directory.
        let mut ws = Workspace { root, source, copied: BTreeMap::new(), head: None, keep: false };
        cleanup::register(&ws.root);
        let listing = listing::list(&ws.source)?;
        ws.head = listing.git.as_ref().and_then(|g| g.head());
        ws.copied = listing
            .files
            .par_iter()
            .map(|rel| copy_entry(&ws.source, &ws.root, rel).map(|c| c.map(|c| (rel.clone(), c))))
            .filter_map(Result::transpose)
            .collect::<Result<_, _>>()?;
        if options.keep {
            ws.keep();
        }
        Ok(ws)
    }

    /// The copy of the project root: where builds run and edits go.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The user's project root (canonical), where [`Workspace::apply_back`] writes.
    pub fn source(&self) -> &Path {
        &self.source
    }

    /// The commit HEAD pointed at when the copy was made; `None` outside git or before the first commit.
    pub fn head(&self) -> Option<Oid> {
        self.head
    }

    /// Every copied file, project-relative, with what it was.
    pub fn copied(&self) -> &BTreeMap<PathBuf, Copied> {
        &self.copied
    }

    /// Keeps the directory when the workspace is dropped (and on Ctrl-C); returns its path to report.
    pub fn keep(&mut self) -> &Path {
        self.keep = true;
        cleanup::unregister(&self.root);
        &self.root
    }

    pub fn is_kept(&self) -> bool {
        self.keep
    }

    /// Removes the directory now, reporting a failure that `Drop` could only log.
    pub fn close(mut self) -> Result<(), WorkspaceError> {
        if self.keep {
            return Ok(());
        }
        // Marked kept so that Drop does not try again.
        self.keep = true;
        cleanup::unregister(&self.root);
        cleanup::remove_dir(&self.root).map_err(|source| WorkspaceError::Remove { dir: self.root.clone(), source })
    }

    /// Writes `changes` (computed against the workspace's files as copied) into the user's tree,
    /// all or nothing. Refuses, naming the file, if the user changed a touched file since the copy,
    /// or if a path is a symbolic link, lies behind one or leaves the project.
    pub fn apply_back(&self, changes: &ChangeSet) -> Result<Vec<PathBuf>, WorkspaceError> {
        for (rel, change) in &changes.files {
            self.check_target(rel)?;
            if let FileChange::Edit { .. } = change {
                self.check_unchanged(rel)?;
            }
        }
        let _gate = cleanup::gate();
        Ok(writeback::write_atomically(&self.source, changes)?)
    }

    /// Writes the workspace's current text of each of `paths` into the user's tree, all or nothing,
    /// with the same refusals as [`Workspace::apply_back`]. Paths whose text did not change are skipped.
    /// Deleting files is not supported; a path missing from the workspace is refused.
    pub fn apply_back_paths(&self, paths: &[PathBuf]) -> Result<Vec<PathBuf>, WorkspaceError> {
        let mut changes = ChangeSet::new();
        for rel in paths {
            self.check_target(rel)?;
            let new = read_text(&self.root.join(rel), rel, "deleted in the workspace; mantra does not delete files")?;
            if self.copied.contains_key(rel) {
                self.check_unchanged(rel)?;
                let current = read_text(&self.source.join(rel), rel, "deleted since the workspace was made")?;
                if current != new {
                    let edit = Edit::replace(0..current.len(), new);
                    changes.files.insert(rel.clone(), FileChange::Edit { original: current, edits: vec![edit] });
                }
            } else {
                changes.create(rel, new);
            }
        }
        self.apply_back(&changes)
    }

    /// Compares the workspace with what was copied. New files are found with the same rules as the
    /// copy (`.gitignore`, build outputs skipped), so a build's output is not reported.
    pub fn changes(&self) -> Result<WorkspaceChanges, WorkspaceError> {
        let mut out = WorkspaceChanges::default();
        for (rel, copied) in &self.copied {
            match hash_entry(&self.root.join(rel)) {
                Ok(Some(now)) if now == *copied => {}
                Ok(Some(_)) => out.modified.push(rel.clone()),
                Ok(None) => out.deleted.push(rel.clone()),
                Err(source) => return Err(WorkspaceError::Read { path: self.root.join(rel), source }),
            }
        }
        out.created =
            listing::list_plain(&self.root)?.into_iter().filter(|rel| !self.copied.contains_key(rel)).collect();
        Ok(out)
    }

    /// Refuses paths that could write outside the project or through a symbolic link.
    fn check_target(&self, rel: &Path) -> Result<(), WorkspaceError> {
        let refuse = |reason| Err(WorkspaceError::Refused { path: rel.to_path_buf(), reason });
        if rel.as_os_str().is_empty() || !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return refuse("not a plain path inside the project");
        }
        let mut at = self.source.clone();
        for c in rel.components() {
            at.push(c);
            match std::fs::symlink_metadata(&at) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    return refuse("a symbolic link in the project; mantra does not write through links");
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        Ok(())
    }

    /// Refuses if the user's file is no longer what was copied.
    fn check_unchanged(&self, rel: &Path) -> Result<(), WorkspaceError> {
        let Some(copied) = self.copied.get(rel) else {
            return Err(WorkspaceError::Refused {
                path: rel.to_path_buf(),
                reason: "not part of the workspace (ignored, or created after it was made)",
            });
        };
        let path = self.source.join(rel);
        match hash_entry(&path) {
            Ok(Some(now)) if now == *copied => Ok(()),
            Ok(_) => Err(WriteError::Changed { path: rel.to_path_buf() }.into()),
            Err(source) => Err(WorkspaceError::Read { path, source }),
        }
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        if self.keep {
            tracing::info!("kept the workspace at {}", self.root.display());
            return;
        }
        if let Err(e) = cleanup::remove_dir(&self.root) {
            tracing::warn!("could not remove the workspace {}: {e}", self.root.display());
        }
        cleanup::unregister(&self.root);
    }
}

/// A key for "the project as it is now", for caching baseline builds: HEAD's commit id plus a hash
/// of every dirty file's path, status and content (staged, modified, deleted, untracked but not
/// ignored), limited to the project. Outside git, a hash of every file the workspace would copy.
pub fn dirty_state_hash(project: &Path) -> Result<String, WorkspaceError> {
    let project =
        project.canonicalize().map_err(|source| WorkspaceError::Read { path: project.to_path_buf(), source })?;
    let mut buf = Vec::new();
    let head = match listing::GitState::discover(&project)? {
        Some(git) => {
            buf.extend_from_slice(git.prefix.as_os_str().as_encoded_bytes());
            buf.push(0);
            for (rel, status) in git.dirty()? {
                push_entry(&mut buf, &project, &rel, status.bits())?;
            }
            git.head().map_or_else(|| "unborn".to_string(), |h| h.to_string())
        }
        None => {
            for rel in listing::list(&project)?.files {
                push_entry(&mut buf, &project, &rel, 0)?;
            }
            "nogit".to_string()
        }
    };
    let dirty =
        Oid::hash_object(ObjectType::Blob, &buf).map_err(|source| WorkspaceError::Git { path: project, source })?;
    Ok(format!("{head}-{dirty}"))
}

fn push_entry(buf: &mut Vec<u8>, project: &Path, rel: &Path, status: u32) -> Result<(), WorkspaceError> {
    let path = project.join(rel);
    let hash = hash_entry(&path).map_err(|source| WorkspaceError::Read { path, source })?;
    buf.extend_from_slice(rel.as_os_str().as_encoded_bytes());
    buf.extend_from_slice(format!("\0{status}\0").as_bytes());
    match hash {
        Some(c) => buf.extend_from_slice(format!("{}{}\n", if c.symlink { "l" } else { "f" }, c.hash).as_bytes()),
        None => buf.extend_from_slice(b"deleted\n"),
    }
    Ok(())
}

/// Creates a new, empty directory under `parent` that no other run uses.
fn make_unique_dir(parent: &Path) -> Result<PathBuf, WorkspaceError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = parent.join(format!("mantra-ws-{}-{nanos:08x}-{n}", std::process::id()));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir.canonicalize().unwrap_or(dir)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(source) => return Err(WorkspaceError::TempDir { dir: parent.to_path_buf(), source }),
        }
    }
}

/// Copies one listed entry; `None` if it no longer exists in the user's tree (deleted in the
/// working tree) or is not a file or link (a socket, a FIFO).
fn copy_entry(source: &Path, root: &Path, rel: &Path) -> Result<Option<Copied>, WorkspaceError> {
    let from = source.join(rel);
    let to = root.join(rel);
    let err = |source| WorkspaceError::Copy { path: from.clone(), workspace: root.to_path_buf(), source };
    let meta = match std::fs::symlink_metadata(&from) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(WorkspaceError::Read { path: from.clone(), source }),
    };
    if !meta.file_type().is_file() && !meta.file_type().is_symlink() {
        return Ok(None);
    }
    let _gate = cleanup::gate();
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(&from).map_err(err)?;
        make_symlink(&target, &to).map_err(err)?;
    } else {
        // std::fs::copy keeps the permission bits and uses copy_file_range (a reflink where the
        // file system can), so large files are neither read into memory nor copied twice.
        std::fs::copy(&from, &to).map_err(err)?;
    }
    hash_entry(&to).map_err(err)
}

/// The blob hash of a file or of a link's target text; `None` if nothing is there.
fn hash_entry(path: &Path) -> std::io::Result<Option<Copied>> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let symlink = meta.file_type().is_symlink();
    let hash = if symlink {
        let target = std::fs::read_link(path)?;
        Oid::hash_object(ObjectType::Blob, target.as_os_str().as_encoded_bytes())
    } else {
        Oid::hash_file(ObjectType::Blob, path)
    };
    hash.map(|hash| Some(Copied { hash, symlink })).map_err(std::io::Error::other)
}

fn read_text(path: &Path, rel: &Path, missing: &'static str) -> Result<String, WorkspaceError> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|_| WorkspaceError::Refused { path: rel.to_path_buf(), reason: "not UTF-8 text" }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(WorkspaceError::Refused { path: rel.to_path_buf(), reason: missing })
        }
        Err(source) => Err(WorkspaceError::Read { path: path.to_path_buf(), source }),
    }
}

#[cfg(unix)]
fn make_symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(not(unix))]
fn make_symlink(_target: &Path, _link: &Path) -> std::io::Result<()> {
    Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "symbolic links are only copied on Unix"))
}
