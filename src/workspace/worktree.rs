//! A linked `git worktree` of the user's repository, detached at HEAD: the checkout half of a
//! git workspace (the caller then brings the uncommitted state over).
//!
//! libgit2 only adds a worktree on a branch, and a branch may be checked out in one worktree
//! only, so the worktree is added on a throw-away branch `mantra-ws-tmp-<name>` at HEAD, its HEAD
//! is detached at the same commit, and the branch is deleted again, all while holding the cleanup
//! gate (an interrupt waits for it). Nothing of the user's changes: no branch, no index, no HEAD.
//! What a worktree leaves in the user's `.git` is `.git/worktrees/<name>/`; [`Linked::prune`]
//! removes it, so `git worktree list` is clean after every run but a kept one.
//!
//! A run killed with `kill -9` cannot clean up; the next workspace removes the worktrees named
//! `mantra-ws-<pid>-*` whose process is dead, their directories (mantra's own scratch copies)
//! and their metadata, and deletes throw-away branches no worktree uses any more.

use std::path::{Path, PathBuf};

use git2::{BranchType, Oid, Repository, WorktreeAddOptions, WorktreePruneOptions};

/// The name prefix of mantra's worktrees and throw-away branches.
const PREFIX: &str = "mantra-ws-";
const TMP_BRANCH: &str = "mantra-ws-tmp-";
/// A file in a worktree's metadata folder that marks it kept on purpose (`--keep-workspace`):
/// a later run leaves it alone although its process has ended.
const KEPT_MARK: &str = "mantra-kept";

/// A worktree registered in a repository: enough to find and prune it, even from a signal handler.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Linked {
    /// The repository's common git directory (`.git` of the main working tree).
    pub commondir: PathBuf,
    /// The worktree's name: `.git/worktrees/<name>`.
    pub name: String,
}

impl Linked {
    /// Marks the worktree kept on purpose, so that later runs do not remove it as stale.
    pub fn mark_kept(&self) -> std::io::Result<()> {
        std::fs::write(kept_mark(&self.commondir, &self.name), "--keep-workspace\n")
    }

    /// Removes the worktree's metadata from the user's `.git` (its directory must be gone or
    /// about to go). A metadata directory already gone is fine.
    pub fn prune(&self) -> Result<(), git2::Error> {
        let meta = self.commondir.join("worktrees").join(&self.name);
        if !meta.exists() {
            return Ok(());
        }
        let repo = Repository::open(&self.commondir)?;
        match repo.find_worktree(&self.name) {
            Ok(wt) => {
                let mut opts = WorktreePruneOptions::new();
                // `valid`: prune even if its directory still exists; `locked`: it is ours.
                opts.valid(true).locked(true).working_tree(false);
                wt.prune(Some(&mut opts))
            }
            // Half-created (no `gitdir` file yet): not a worktree to libgit2, only a folder.
            Err(_) => std::fs::remove_dir_all(&meta).map_err(|e| git2::Error::from_str(&e.to_string())),
        }
    }
}

/// Adds a worktree of `repo` under `parent`, detached at `head`, named by the first of `names`
/// that neither a directory under `parent` nor a worktree of `repo` uses yet. Returns its
/// directory. On error the directory and the metadata are gone again.
pub(super) fn add(
    repo: &Repository,
    parent: &Path,
    head: Oid,
    names: impl IntoIterator<Item = String>,
) -> Result<(PathBuf, Linked), git2::Error> {
    prune_stale(repo);
    let commondir = repo.commondir().to_path_buf();
    let name = names
        .into_iter()
        .take(100)
        .find(|n| !parent.join(n).exists() && !commondir.join("worktrees").join(n).exists())
        .ok_or_else(|| git2::Error::from_str("no free worktree name (100 tried)"))?;
    let path = parent.join(&name);
    let linked = Linked { commondir, name: name.clone() };
    let branch_name = format!("{TMP_BRANCH}{name}");
    let commit = repo.find_commit(head)?;
    let branch = repo.branch(&branch_name, &commit, false)?;
    let added = (|| {
        let mut opts = WorktreeAddOptions::new();
        opts.reference(Some(branch.get()));
        let wt = repo.worktree(&name, &path, Some(&opts))?;
        Repository::open_from_worktree(&wt)?.set_head_detached(head)
    })();
    // The branch goes in every case; deleting the reference itself skips libgit2's "checked out"
    // check, which a failed add may trip over (its worktree is pruned below).
    let deleted = repo.find_reference(&format!("refs/heads/{branch_name}")).and_then(|mut r| r.delete());
    if let Err(e) = added.and(deleted) {
        // Both were free before the call (checked above; the names carry our pid), so whatever
        // is there now is ours.
        let _ = std::fs::remove_dir_all(&path);
        if let Err(p) = linked.prune() {
            tracing::warn!("cannot prune the half-made worktree {name}: {p}");
        }
        return Err(e);
    }
    Ok((path, linked))
}

/// Removes the worktrees and throw-away branches of runs that are dead (killed before they could
/// clean up): a worktree's directory, which mantra named after it, then its metadata.
fn prune_stale(repo: &Repository) {
    let Ok(names) = repo.worktrees() else { return };
    for name in names.iter().flatten().flatten().filter(|n| n.starts_with(PREFIX) && !owner_alive(n)) {
        if kept_mark(repo.commondir(), name).exists() {
            continue;
        }
        let Ok(wt) = repo.find_worktree(name) else { continue };
        let dir = wt.path().to_path_buf();
        // Only a directory named after the worktree is mantra's scratch copy to delete.
        if dir.file_name().is_some_and(|f| f == name)
            && dir.exists()
            && let Err(e) = std::fs::remove_dir_all(&dir)
        {
            tracing::warn!("cannot remove the stale workspace {}: {e}", dir.display());
            continue;
        }
        let mut opts = WorktreePruneOptions::new();
        opts.locked(true).working_tree(false);
        if wt.validate().is_err() && wt.is_prunable(Some(&mut opts)).unwrap_or(false) {
            match wt.prune(Some(&mut opts)) {
                Ok(()) => tracing::info!("removed the stale worktree {name} of an interrupted run"),
                Err(e) => tracing::warn!("cannot prune the stale worktree {name}: {e}"),
            }
        }
    }
    let Ok(branches) = repo.branches(Some(BranchType::Local)) else { return };
    for (mut branch, _) in branches.flatten() {
        let ours = branch.name().ok().flatten().is_some_and(|n| n.starts_with(TMP_BRANCH) && !owner_alive(n));
        if ours && !branch.is_head() {
            // Fails (and is left) if some worktree still has it checked out.
            let _ = branch.delete();
        }
    }
}

/// Where the mark of a worktree kept on purpose is: in its metadata folder, `.git/worktrees/<name>/`.
fn kept_mark(commondir: &Path, name: &str) -> PathBuf {
    commondir.join("worktrees").join(name).join(KEPT_MARK)
}

/// Whether the process that made `name` (`mantra-ws-<pid>-...`, or a throw-away branch of one)
/// is still running, so its worktree or branch may be half-made rather than stale. Unknown counts
/// as running: nothing is removed.
fn owner_alive(name: &str) -> bool {
    let name = name.strip_prefix(TMP_BRANCH).unwrap_or(name);
    let Some(pid) = name.strip_prefix(PREFIX).and_then(|rest| rest.split('-').next()) else { return true };
    let Ok(pid) = pid.parse::<u32>() else { return true };
    if pid == std::process::id() {
        return true;
    }
    if cfg!(target_os = "linux") { Path::new("/proc").join(pid.to_string()).exists() } else { true }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo_with_a_commit(dir: &Path) -> (Repository, Oid) {
        let repo = Repository::init(dir).unwrap();
        std::fs::write(dir.join("a.txt"), "a\n").unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new("a.txt")).unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::now("T", "t@example.com").unwrap();
        let head = repo.commit(Some("HEAD"), &sig, &sig, "init", &tree, &[]).unwrap();
        drop(tree);
        (repo, head)
    }

    #[test]
    fn a_name_in_use_is_skipped_and_its_owner_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let parent = tempfile::tempdir().unwrap();
        let (repo, head) = repo_with_a_commit(dir.path());
        let clash = repo.commondir().join("worktrees/clash");
        std::fs::create_dir_all(&clash).unwrap();
        std::fs::write(clash.join("marker"), "someone else's").unwrap();
        std::fs::create_dir(parent.path().join("taken")).unwrap();
        let names = ["clash", "taken", "fresh"].map(String::from);
        let (path, linked) = add(&repo, parent.path(), head, names).unwrap();
        assert_eq!(linked.name, "fresh");
        assert_eq!(path, parent.path().join("fresh"));
        assert_eq!(std::fs::read_to_string(path.join("a.txt")).unwrap(), "a\n");
        let wt = Repository::open(&path).unwrap();
        assert!(wt.head_detached().unwrap());
        assert_eq!(wt.head().unwrap().target(), Some(head));
        assert_eq!(repo.branches(None).unwrap().count(), 1, "the throw-away branch is gone");
        std::fs::remove_dir_all(&path).unwrap();
        linked.prune().unwrap();
        assert!(!repo.commondir().join("worktrees/fresh").exists());
        assert!(clash.join("marker").exists());
    }

    /// Issue 14, defect 5: a worktree left by a run killed with `kill -9` was pruned only once its
    /// directory was gone, so `git worktree list` went on listing it.
    #[test]
    fn a_dead_runs_worktree_is_removed_with_its_directory() {
        let dir = tempfile::tempdir().unwrap();
        let parent = tempfile::tempdir().unwrap();
        let (repo, head) = repo_with_a_commit(dir.path());
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let (kept, kept_link) = add(&repo, parent.path(), head, [format!("{PREFIX}{dead}-2")]).unwrap();
        kept_link.mark_kept().unwrap();
        let (stale, _) = add(&repo, parent.path(), head, [format!("{PREFIX}{dead}-1")]).unwrap();
        assert!(stale.is_dir());
        let (next, linked) = add(&repo, parent.path(), head, ["next".to_string()]).unwrap();
        assert!(!stale.exists(), "the dead run's directory is removed");
        assert!(kept.is_dir(), "a workspace kept on purpose stays");
        let mut names: Vec<String> = repo.worktrees().unwrap().iter().flatten().flatten().map(str::to_string).collect();
        names.sort();
        assert_eq!(names, [format!("{PREFIX}{dead}-2"), "next".to_string()]);
        std::fs::remove_dir_all(&next).unwrap();
        linked.prune().unwrap();
    }

    #[test]
    fn a_failed_add_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (repo, head) = repo_with_a_commit(dir.path());
        // The parent does not exist: libgit2 cannot make the directory.
        let missing = dir.path().join("no/such/parent");
        let err = add(&repo, &missing, head, ["w".to_string()]).unwrap_err();
        assert!(!err.message().is_empty());
        assert!(repo.worktrees().unwrap().is_empty());
        assert_eq!(repo.branches(None).unwrap().count(), 1);
        assert!(!repo.commondir().join("worktrees/w").exists());
    }
}
