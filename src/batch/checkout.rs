//! Checkouts of the parent commits, one per parent, shared by every task of that commit.
//!
//! Each is a detached `git worktree` under the batch's folder: a real checkout (so the Reviewer's
//! workspace and the build see exactly the parent's tree), made once and reused by every task of
//! the commit, so the original's build and test run (the baseline, cached inside the checkout by
//! the Reviewer under the commit's id) is paid once per commit, not once per task. They stay
//! between runs for `--resume` and for other modes over the same folder, and `git worktree prune`
//! forgets them once the folder is deleted.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::BatchError;
use super::task::git;
use crate::process::Runner;

/// `git worktree add` takes locks in the repository: one at a time.
static ADDING: Mutex<()> = Mutex::new(());

/// The checkout of `commit` under `dir`, made if it does not exist yet.
pub fn checkout(runner: &dyn Runner, repo: &Path, dir: &Path, commit: &str) -> Result<PathBuf, BatchError> {
    let path = dir.join(commit);
    let _one = ADDING.lock().unwrap_or_else(|e| e.into_inner());
    if path.join(".git").exists() {
        let head = git(runner, &path, &["rev-parse", "HEAD"])?;
        if head.trim() == commit {
            return Ok(path);
        }
        git(runner, repo, &["worktree", "remove", "--force", &path.to_string_lossy()])?;
    }
    std::fs::create_dir_all(dir).map_err(|e| BatchError::Io {
        what: "cannot create",
        path: dir.to_path_buf(),
        source: e,
    })?;
    // A folder deleted by hand leaves its registration behind, and `add` refuses the path.
    git(runner, repo, &["worktree", "prune"])?;
    git(runner, repo, &["worktree", "add", "--detach", "--force", &path.to_string_lossy(), commit])?;
    Ok(path)
}
