//! Which files make up the user's project: what a workspace copies and what the dirty-state hash covers.
//!
//! In a git repository the answer comes from git itself: every file in the index (tracked, staged
//! or not, even if it matches an ignore pattern, such as a committed `gradle-wrapper.jar` under
//! `*.jar`) plus every untracked file git would offer to add. Files deleted in the working tree
//! are listed but are skipped by whoever reads them. Outside git, a `.gitignore`-aware walk (the
//! `ignore` crate) stands in, and build outputs are skipped.
//!
//! Paths are relative to the project root, which may be a subdirectory of the repository.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use git2::{Repository, Status, StatusOptions};

use super::WorkspaceError;

/// The project's files and, in git, the repository they come from.
pub(super) struct Listing {
    pub files: BTreeSet<PathBuf>,
    pub git: Option<GitState>,
}

/// Where the project sits in its git repository.
pub(super) struct GitState {
    pub repo: Repository,
    /// The project root relative to the repository's working directory; empty at the top.
    pub prefix: PathBuf,
}

impl GitState {
    /// Opens the repository that contains `project` (canonical), if any. A bare repository or one
    /// without a working directory is treated as no repository.
    pub fn discover(project: &Path) -> Result<Option<GitState>, WorkspaceError> {
        let repo = match Repository::discover(project) {
            Ok(repo) => repo,
            Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(None),
            Err(source) => return Err(WorkspaceError::Git { path: project.to_path_buf(), source }),
        };
        let Some(workdir) = repo.workdir() else { return Ok(None) };
        let workdir = workdir.canonicalize().unwrap_or_else(|_| workdir.to_path_buf());
        let Ok(prefix) = project.strip_prefix(&workdir) else { return Ok(None) };
        let prefix = prefix.to_path_buf();
        Ok(Some(GitState { repo, prefix }))
    }

    fn git_err(&self, source: git2::Error) -> WorkspaceError {
        WorkspaceError::Git { path: self.repo.workdir().unwrap_or(self.repo.path()).to_path_buf(), source }
    }

    /// The project-relative path of a repository path, if it lies inside the project.
    pub fn project_relative(&self, repo_path: &Path) -> Option<PathBuf> {
        let rel = repo_path.strip_prefix(&self.prefix).ok()?;
        (!rel.as_os_str().is_empty()).then(|| rel.to_path_buf())
    }

    /// The commit HEAD points at; `None` in a repository with no commits yet.
    pub fn head(&self) -> Option<git2::Oid> {
        self.repo.head().ok()?.peel_to_commit().ok().map(|c| c.id())
    }

    /// Every path git reports as differing from HEAD (staged, modified, deleted, untracked but not
    /// ignored and not a build output) inside the project, with its status.
    pub fn dirty(&self) -> Result<Vec<(PathBuf, Status)>, WorkspaceError> {
        let mut opts = StatusOptions::new();
        opts.include_untracked(true).recurse_untracked_dirs(true).include_ignored(false).exclude_submodules(true);
        if !self.prefix.as_os_str().is_empty() {
            opts.pathspec(&self.prefix);
        }
        let statuses = self.repo.statuses(Some(&mut opts)).map_err(|e| self.git_err(e))?;
        let project = self.repo.workdir().map(|w| w.join(&self.prefix)).unwrap_or_default();
        Ok(statuses
            .iter()
            .filter(|s| s.status() != Status::CURRENT && !s.status().contains(Status::IGNORED))
            .filter_map(|s| self.project_relative(&bytes_path(s.path_bytes())).map(|p| (p, s.status())))
            // An untracked build output (a `target/` nobody ignored) is not part of the project:
            // it is neither copied nor allowed to change the dirty-state hash with every build.
            .filter(|(rel, status)| !(status.contains(Status::WT_NEW) && in_build_output(&project, rel)))
            .collect())
    }

    fn list(&self, project: &Path) -> Result<BTreeSet<PathBuf>, WorkspaceError> {
        let index = self.repo.index().map_err(|e| self.git_err(e))?;
        let mut files = BTreeSet::new();
        for entry in index.iter() {
            let Some(rel) = self.project_relative(&bytes_path(&entry.path)) else { continue };
            if entry.mode == GITLINK_MODE {
                // A submodule: its files belong to another repository; copy its working tree as found.
                walk(project, &rel, &mut files)?;
            } else {
                files.insert(rel);
            }
        }
        for (rel, status) in self.dirty()? {
            if status.contains(Status::WT_NEW) {
                files.insert(rel);
            }
        }
        Ok(files)
    }
}

/// The index mode of a submodule entry.
const GITLINK_MODE: u32 = 0o160000;

/// Lists the project at `project` (canonical).
pub(super) fn list(project: &Path) -> Result<Listing, WorkspaceError> {
    match GitState::discover(project)? {
        Some(git) => Ok(Listing { files: git.list(project)?, git: Some(git) }),
        None => Ok(Listing { files: list_plain(project)?, git: None }),
    }
}

/// Lists a directory that is not a repository of its own (a workspace) with the walk's rules,
/// even if it happens to lie inside some git repository.
pub(super) fn list_plain(root: &Path) -> Result<BTreeSet<PathBuf>, WorkspaceError> {
    let mut files = BTreeSet::new();
    walk(root, Path::new(""), &mut files)?;
    Ok(files)
}

/// Adds the files under `project/sub` to `files`, honouring `.gitignore` files but not the
/// user's global git configuration (this is not a git repository), skipping build outputs and
/// never following symbolic links (a link is listed as itself).
fn walk(project: &Path, sub: &Path, files: &mut BTreeSet<PathBuf>) -> Result<(), WorkspaceError> {
    let start = project.join(sub);
    let root = project.to_path_buf();
    let walker = ignore::WalkBuilder::new(&start)
        .standard_filters(false)
        .git_ignore(true)
        .require_git(false)
        .follow_links(false)
        .filter_entry(move |e| {
            let rel = e.path().strip_prefix(&root).unwrap_or(e.path());
            e.file_name() != ".git"
                && !(e.file_type().is_some_and(|t| t.is_dir()) && crate::java::project::is_build_output(&root, rel))
        })
        .build();
    for entry in walker {
        let entry = entry.map_err(|e| {
            let path = match &e {
                ignore::Error::WithPath { path, .. } => path.clone(),
                _ => start.clone(),
            };
            WorkspaceError::Read {
                path,
                source: e.into_io_error().unwrap_or_else(|| std::io::Error::other("walk failed")),
            }
        })?;
        let Some(kind) = entry.file_type() else { continue };
        if (kind.is_file() || kind.is_symlink())
            && let Ok(rel) = entry.path().strip_prefix(project)
        {
            files.insert(rel.to_path_buf());
        }
    }
    Ok(())
}

/// Whether some directory above the file `rel` is a build output.
fn in_build_output(project: &Path, rel: &Path) -> bool {
    let mut dir = PathBuf::new();
    let comps: Vec<Component> = rel.components().collect();
    for c in &comps[..comps.len().saturating_sub(1)] {
        dir.push(c);
        if crate::java::project::is_build_output(project, &dir) {
            return true;
        }
    }
    false
}

/// A path as git stores it (bytes, `/`-separated) as a native path.
fn bytes_path(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
    }
}
