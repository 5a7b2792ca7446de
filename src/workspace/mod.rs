//! An isolated copy of the user's project, so that a refactoring is built, tested and reviewed
//! without touching the user's files until the verdict.
//!
//! [`Workspace::create`] makes it under the system temp dir (or a chosen parent), in one of two ways:
//!
//! - **git worktree** (a git repository with at least one commit): a linked worktree of the whole
//!   repository, detached at HEAD ([`worktree`]), then the user's uncommitted state brought over:
//!   every file git tracks or would add is made what it is in the working tree (staged and
//!   unstaged edits, untracked-but-not-ignored files, mode changes), and files deleted in the
//!   working tree or the index are deleted. The workspace root is the project's folder inside the
//!   worktree (the project may be a subfolder of the repository). Builds see a real git checkout.
//! - **copy** (no git, an unborn HEAD, a bare repository, or a worktree libgit2 cannot add): the
//!   same files copied into a plain directory; outside git, what a `.gitignore`-aware walk finds.
//!
//! Either way the workspace holds exactly the working tree minus ignored files and build outputs.
//! Symbolic links are kept as links (never followed), file modes are kept (`gradlew` stays
//! executable).
//!
//! The workspace remembers the git blob hash of every file it holds. [`Workspace::apply_back`]
//! writes a verified result into the user's tree all or nothing, and refuses, naming the file, if
//! the user changed that file since the workspace was made.
//!
//! The directory is removed, and a worktree pruned from the user's `.git` (so `git worktree list`
//! is clean), when the [`Workspace`] is dropped (success, error, panic) and, through [`cleanup`],
//! when mantra is interrupted by SIGINT, SIGTERM or SIGHUP, unless it is kept on purpose
//! (`--keep-workspace`; a kept worktree is removed with `git worktree remove --force <dir>`).

mod cleanup;
mod listing;
pub mod preview;
mod worktree;
pub mod writeback;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use git2::{ObjectType, Oid};
use rayon::prelude::*;

pub use cleanup::{TempPath, install_interrupt_handler, set_interrupt_note};

use crate::engine::{ChangeSet, Edit, FileChange};
use crate::error::Classify;
use crate::exit::Exit;
use writeback::WriteError;

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

/// How a workspace was made; see the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkspaceKind {
    /// A linked git worktree at HEAD plus the uncommitted changes.
    Worktree,
    /// A plain copy of the files.
    Copy,
}

/// An isolated copy of a project; see the module documentation.
#[derive(Debug)]
pub struct Workspace {
    /// What is removed afterwards: the copy, or the worktree's top (the whole repository).
    dir: PathBuf,
    /// The project's root inside `dir`.
    root: PathBuf,
    source: PathBuf,
    linked: Option<worktree::Linked>,
    copied: BTreeMap<PathBuf, Copied>,
    head: Option<Oid>,
    keep: bool,
}

impl Workspace {
    /// Copies the project at `project` into a new directory under the system temp dir.
    pub fn create(project: &Path) -> Result<Workspace, WorkspaceError> {
        Workspace::create_with(project, &WorkspaceOptions::default())
    }

    /// Makes a workspace of the project at `project` as `options` say: a git worktree when it can,
    /// else a copy. On error nothing is left behind.
    pub fn create_with(project: &Path, options: &WorkspaceOptions) -> Result<Workspace, WorkspaceError> {
        let source =
            project.canonicalize().map_err(|source| WorkspaceError::Read { path: project.to_path_buf(), source })?;
        let parent = options.parent.clone().unwrap_or_else(std::env::temp_dir);
        let listing = listing::list(&source)?;
        let head = listing.git.as_ref().and_then(|g| g.head());
        let mut ws = match (&listing.git, head) {
            (Some(git), Some(head)) if !git.repo.is_bare() => match Workspace::linked(&source, &parent, git, head)? {
                Some(ws) => ws,
                None => Workspace::copy_dir(&source, &parent)?,
            },
            _ => Workspace::copy_dir(&source, &parent)?,
        };
        // From here on, dropping `ws` (an early return below) removes the directory.
        ws.head = head;
        ws.copied = sync_all(&ws.source, &ws.root, &listing.files)?;
        if ws.linked.is_some() {
            ws.remove_unlisted()?;
        }
        if options.keep {
            ws.keep();
        }
        Ok(ws)
    }

    /// An empty directory to copy the project into.
    fn copy_dir(source: &Path, parent: &Path) -> Result<Workspace, WorkspaceError> {
        let dir = make_unique_dir(parent)?;
        cleanup::register(&dir, None);
        let ws = Workspace {
            root: dir.clone(),
            dir,
            source: source.to_path_buf(),
            linked: None,
            copied: BTreeMap::new(),
            head: None,
            keep: false,
        };
        Ok(ws)
    }

    /// A worktree at `head`; `None` (after a warning) when libgit2 cannot add one, so the caller copies.
    fn linked(
        source: &Path,
        parent: &Path,
        git: &listing::GitState,
        head: Oid,
    ) -> Result<Option<Workspace>, WorkspaceError> {
        let parent =
            parent.canonicalize().map_err(|source| WorkspaceError::TempDir { dir: parent.to_path_buf(), source })?;
        let gate = cleanup::gate();
        let (dir, linked) = match worktree::add(&git.repo, &parent, head, unique_names()) {
            Ok(made) => made,
            Err(e) => {
                tracing::warn!("cannot add a git worktree of {}, copying the project instead: {e}", source.display());
                return Ok(None);
            }
        };
        cleanup::register(&dir, Some(&linked));
        // The copy steps below take the gate themselves.
        drop(gate);
        Ok(Some(Workspace {
            // `join("")` would add a trailing slash.
            root: if git.prefix.as_os_str().is_empty() { dir.clone() } else { dir.join(&git.prefix) },
            dir,
            source: source.to_path_buf(),
            linked: Some(linked),
            copied: BTreeMap::new(),
            head: None,
            keep: false,
        }))
    }

    /// Deletes what the checkout of HEAD put in the project folder that the user's working tree
    /// does not have (deleted, `git rm`ed, or now ignored and untracked).
    fn remove_unlisted(&self) -> Result<(), WorkspaceError> {
        let mut stale = Vec::new();
        find_unlisted(&self.root, Path::new(""), &self.copied, &mut stale)
            .map_err(|source| WorkspaceError::Read { path: self.root.clone(), source })?;
        let _gate = cleanup::gate();
        for rel in stale {
            let path = self.root.join(&rel);
            std::fs::remove_file(&path).map_err(|source| WorkspaceError::Copy {
                path: self.source.join(&rel),
                workspace: self.root.clone(),
                source,
            })?;
        }
        Ok(())
    }

    /// Whether this is a git worktree or a plain copy.
    pub fn kind(&self) -> WorkspaceKind {
        if self.linked.is_some() { WorkspaceKind::Worktree } else { WorkspaceKind::Copy }
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
        cleanup::unregister(&self.dir);
        if let Some(linked) = &self.linked
            && let Err(e) = linked.mark_kept()
        {
            tracing::warn!("cannot mark the kept worktree {}: {e}; a later run may remove it", linked.name);
        }
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
        cleanup::unregister(&self.dir);
        cleanup::remove(&self.dir, self.linked.as_ref())
            .map_err(|source| WorkspaceError::Remove { dir: self.dir.clone(), source })
    }

    /// Writes `changes` (computed against the workspace's files as copied) into the user's tree,
    /// all or nothing. Refuses, naming the file, if the user changed a touched file since the copy,
    /// or if a path is a symbolic link, lies behind one or leaves the project.
    pub fn apply_back(&self, changes: &ChangeSet) -> Result<Vec<PathBuf>, WorkspaceError> {
        for (rel, change) in &changes.files {
            self.check_target(rel)?;
            if let FileChange::Edit { .. } | FileChange::Delete { .. } = change {
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
        if let Err(e) = cleanup::remove(&self.dir, self.linked.as_ref()) {
            tracing::warn!("could not remove the workspace {}: {e}", self.dir.display());
        }
        cleanup::unregister(&self.dir);
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

/// Workspace names no other run uses: `mantra-ws-<pid>-<nanos>-<n>` (the pid first, so a stale
/// worktree's owner can be checked).
fn unique_names() -> impl Iterator<Item = String> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    std::iter::repeat_with(move || {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        format!("mantra-ws-{}-{nanos:08x}-{n}", std::process::id())
    })
}

/// Creates a new, empty directory under `parent` that no other run uses.
fn make_unique_dir(parent: &Path) -> Result<PathBuf, WorkspaceError> {
    for name in unique_names() {
        let dir = parent.join(name);
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir.canonicalize().unwrap_or(dir)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(source) => return Err(WorkspaceError::TempDir { dir: parent.to_path_buf(), source }),
        }
    }
    unreachable!("unique_names never ends")
}

/// Makes the workspace's `files` what the user's are; returns what it holds of each (a file that
/// is no longer a file or link in the user's tree, deleted in the working tree, is not held).
///
/// Three passes, so that no thread removes a folder another one is working in (the checkout of
/// HEAD may have a folder `a/` where the user now has a file `a`, or the reverse): first what the
/// user no longer has goes, then every file or link the checkout put where the user has a folder,
/// then the files are copied in parallel.
fn sync_all(
    source: &Path,
    root: &Path,
    files: &BTreeSet<PathBuf>,
) -> Result<BTreeMap<PathBuf, Copied>, WorkspaceError> {
    let found: Vec<(&PathBuf, Option<std::fs::Metadata>)> = files
        .par_iter()
        .map(|rel| source_entry(&source.join(rel)).map(|meta| (rel, meta)))
        .collect::<Result<_, _>>()?;
    let failed = |rel: &Path| {
        let path = source.join(rel);
        move |source| WorkspaceError::Copy { path, workspace: root.to_path_buf(), source }
    };
    found.par_iter().filter(|(_, meta)| meta.is_none()).try_for_each(|(rel, _)| {
        let _gate = cleanup::gate();
        remove_any(&root.join(rel)).map_err(failed(rel))
    })?;
    // The folders the copies go into, each parent before its children (a path sorts after its
    // prefix), so that a file standing for a folder is gone before anything under it is looked at.
    let mut folders = BTreeSet::new();
    let parents: BTreeSet<&Path> =
        found.iter().filter(|(_, meta)| meta.is_some()).filter_map(|(rel, _)| rel.parent()).collect();
    for parent in parents {
        // Stop at the first folder already there: its own parents are, too.
        for folder in parent.ancestors().take_while(|f| !f.as_os_str().is_empty()) {
            if !folders.insert(folder) {
                break;
            }
        }
    }
    for folder in folders {
        let at = root.join(folder);
        if std::fs::symlink_metadata(&at).is_ok_and(|meta| !meta.is_dir()) {
            // A file or a link (never followed: a link to a folder would take the copies outside).
            let _gate = cleanup::gate();
            remove_any(&at).map_err(failed(folder))?;
        }
    }
    found
        .par_iter()
        .filter_map(|(rel, meta)| meta.as_ref().map(|meta| (*rel, meta)))
        .map(|(rel, meta)| copy_entry(source, root, rel, meta).map(|copied| (rel.clone(), copied)))
        .collect()
}

/// What the user's tree has at `from`: its metadata if it is a file or a link, `None` if it is
/// gone (or under a folder the user replaced by a file) or is something else (a folder, a socket,
/// a FIFO).
fn source_entry(from: &Path) -> Result<Option<std::fs::Metadata>, WorkspaceError> {
    match std::fs::symlink_metadata(from) {
        Ok(meta) if meta.file_type().is_file() || meta.file_type().is_symlink() => Ok(Some(meta)),
        Ok(_) => Ok(None),
        Err(e) if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => Ok(None),
        Err(source) => Err(WorkspaceError::Read { path: from.to_path_buf(), source }),
    }
}

/// Makes the workspace's `rel` the user's file or link (`meta`): copies it unless the worktree's
/// checkout already has the same bytes, kind and executable bit.
fn copy_entry(source: &Path, root: &Path, rel: &Path, meta: &std::fs::Metadata) -> Result<Copied, WorkspaceError> {
    let from = source.join(rel);
    let to = root.join(rel);
    let err = |source| WorkspaceError::Copy { path: from.clone(), workspace: root.to_path_buf(), source };
    let existing = std::fs::symlink_metadata(&to).ok();
    if let Some(have) = &existing
        && have.file_type().is_symlink() == meta.file_type().is_symlink()
        && have.file_type().is_file() == meta.file_type().is_file()
        && (meta.file_type().is_symlink() || executable(have) == executable(meta))
        && (meta.file_type().is_symlink() || have.len() == meta.len())
    {
        let want = hash_entry(&from).map_err(|source| WorkspaceError::Read { path: from.clone(), source })?;
        let have = hash_entry(&to).map_err(err)?;
        if let Some(want) = want
            && Some(want) == have
        {
            return Ok(want);
        }
    }
    let _gate = cleanup::gate();
    if existing.is_some() {
        remove_any(&to).map_err(err)?;
    }
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
    hash_entry(&to)
        .map_err(err)?
        .ok_or_else(|| err(std::io::Error::new(std::io::ErrorKind::NotFound, "the copy vanished from the workspace")))
}

/// Removes a file, a link, or a directory that the checkout put where the user has a file.
fn remove_any(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        // Gone already, or under a folder another thread replaced by a file.
        Err(e) if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(unix)]
fn executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_meta: &std::fs::Metadata) -> bool {
    false
}

/// Files and links under `root/rel` that are not in `keep`, never following links, skipping the
/// worktree's `.git` file.
fn find_unlisted(
    root: &Path,
    rel: &Path,
    keep: &BTreeMap<PathBuf, Copied>,
    out: &mut Vec<PathBuf>,
) -> std::io::Result<()> {
    for entry in std::fs::read_dir(root.join(rel))? {
        let entry = entry?;
        if entry.file_name() == ".git" {
            continue;
        }
        let path = rel.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            find_unlisted(root, &path, keep, out)?;
        } else if !keep.contains_key(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// The blob hash of a file or of a link's target text; `None` if nothing is there.
fn hash_entry(path: &Path) -> std::io::Result<Option<Copied>> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => {
            return Ok(None);
        }
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
