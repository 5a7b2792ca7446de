//! Removing workspaces when mantra is interrupted.
//!
//! `Drop` covers returns, errors and panics, but a signal ends the process without unwinding. So
//! every live workspace is also listed here (with, for a git worktree, what to prune from the
//! user's `.git`), and the first workspace installs a handler for
//! SIGINT, SIGTERM and SIGHUP (the `ctrlc` crate; its handler runs on an ordinary thread, so it
//! may lock, allocate and delete) that removes them all and exits with 130, the shell's code for
//! Ctrl-C.
//!
//! A gate keeps the handler from racing the threads that copy files into a workspace or write a
//! result back to the user's tree: each such step holds the gate shared, and the handler takes it
//! exclusively, so it waits for a write in flight (an apply-back stays all or nothing) and no new
//! file is written into a directory it is deleting.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once, RwLock, RwLockReadGuard};

use super::worktree::Linked;

static LIVE: Mutex<BTreeMap<PathBuf, Option<Linked>>> = Mutex::new(BTreeMap::new());
/// Files and folders in the temporary folder that live no longer than one step ([`TempPath`]).
static TEMP: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());
static GATE: RwLock<()> = RwLock::new(());
static INSTALL: Once = Once::new();
/// What the command wants said after an interrupt (a batch's tally), if anything.
static NOTE: Mutex<Option<String>> = Mutex::new(None);

/// Lists `dir` (and the worktree `linked`, if it is one) for removal on a signal, installing the
/// handler on first use.
pub(super) fn register(dir: &Path, linked: Option<&Linked>) {
    install_interrupt_handler();
    live().insert(dir.to_path_buf(), linked.cloned());
}

/// Installs the handler (once): every command calls it first, so an interrupt in any phase (a
/// request to the model before any workspace exists, say) ends the run with 130 and the cleanup,
/// also when mantra was started with SIGINT ignored (a background job of a script).
pub fn install_interrupt_handler() {
    INSTALL.call_once(|| {
        if let Err(e) = ctrlc::set_handler(on_signal) {
            // Another handler owns the signals; Drop still cleans up on every other exit path.
            tracing::warn!("cannot install the interrupt handler that removes workspaces: {e}");
        }
    });
}

/// Sets (or with `None` clears) the line printed on stderr when mantra is interrupted, after the
/// workspaces are removed: a long-running command's tally and how to continue. Installs the
/// handler, so the line is printed even before the first workspace exists.
pub fn set_interrupt_note(note: Option<String>) {
    install_interrupt_handler();
    *NOTE.lock().unwrap_or_else(|e| e.into_inner()) = note;
}

/// Takes `dir` off the list (it was removed, or is kept on purpose).
pub(super) fn unregister(dir: &Path) {
    live().remove(dir);
}

/// Held while a file is written into a workspace or back into the user's tree.
pub(super) fn gate() -> RwLockReadGuard<'static, ()> {
    GATE.read().unwrap_or_else(|e| e.into_inner())
}

fn live() -> std::sync::MutexGuard<'static, BTreeMap<PathBuf, Option<Linked>>> {
    // A panic while the set was locked cannot leave it half-updated (insert/remove are atomic).
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

fn on_signal() {
    // The builds and tests first: nothing may go on writing into a workspace being removed, or
    // outlive mantra.
    crate::process::kill_running();
    // Wait for writes in flight, then keep the gate closed until the process exits.
    let _closed = GATE.write().unwrap_or_else(|e| e.into_inner());
    let dirs = std::mem::take(&mut *live());
    for path in std::mem::take(&mut *temp()) {
        let _ = remove_path(&path);
    }
    for (dir, linked) in &dirs {
        if let Err(e) = remove(dir, linked.as_ref()) {
            eprintln!("mantra: could not remove the workspace {}: {e}", dir.display());
        }
    }
    match dirs.len() {
        0 => eprintln!("mantra: interrupted"),
        n => eprintln!("mantra: interrupted; removed {n} workspace(s)"),
    }
    if let Some(note) = NOTE.lock().unwrap_or_else(|e| e.into_inner()).take() {
        eprintln!("mantra: {note}");
    }
    std::process::exit(crate::exit::INTERRUPTED);
}

/// Removes a workspace: its directory, then the worktree's metadata in the user's `.git`.
pub(super) fn remove(dir: &Path, linked: Option<&Linked>) -> std::io::Result<()> {
    let removed = remove_dir(dir);
    if let Some(linked) = linked
        && let Err(e) = linked.prune()
    {
        return Err(std::io::Error::other(format!(
            "cannot prune the worktree {} from {}: {e}; run `git worktree prune`",
            linked.name,
            linked.commondir.display()
        )));
    }
    removed
}

/// Removes `dir` and everything under it; a directory already gone is fine.
pub(super) fn remove_dir(dir: &Path) -> std::io::Result<()> {
    // A build tool still running in the workspace may create files while we delete; try again.
    let mut result = Ok(());
    for _ in 0..3 {
        result = match std::fs::remove_dir_all(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            other => other,
        };
        if result.is_ok() {
            return Ok(());
        }
    }
    result
}

fn temp() -> std::sync::MutexGuard<'static, BTreeSet<PathBuf>> {
    TEMP.lock().unwrap_or_else(|e| e.into_inner())
}

fn remove_path(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => remove_dir(path),
        Ok(_) => std::fs::remove_file(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// A file or folder of mantra's own in the temporary folder (a Checkstyle properties file, a
/// scratch repository): removed when dropped, and by the interrupt handler, which `Drop` never
/// sees run.
#[derive(Debug)]
pub struct TempPath(PathBuf);

impl TempPath {
    /// A new file `<prefix>-<pid>-<n><suffix>` in the temporary folder holding `contents`.
    pub fn file(prefix: &str, suffix: &str, contents: &[u8]) -> std::io::Result<TempPath> {
        use std::io::Write;
        TempPath::create(prefix, suffix, |path| {
            std::fs::OpenOptions::new().write(true).create_new(true).open(path)?.write_all(contents)
        })
    }

    /// A new empty folder `<prefix>-<pid>-<n>` in the temporary folder.
    pub fn dir(prefix: &str) -> std::io::Result<TempPath> {
        TempPath::create(prefix, "", |path| std::fs::create_dir(path))
    }

    fn create(prefix: &str, suffix: &str, make: impl Fn(&Path) -> std::io::Result<()>) -> std::io::Result<TempPath> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static SEQ: AtomicU64 = AtomicU64::new(0);
        install_interrupt_handler();
        let parent = std::env::temp_dir();
        loop {
            let n = SEQ.fetch_add(1, Ordering::Relaxed);
            let path = parent.join(format!("{prefix}-{}-{n}{suffix}", std::process::id()));
            // Listed before it exists, so that no moment is left where a signal misses it.
            temp().insert(path.clone());
            match make(&path) {
                Ok(()) => return Ok(TempPath(path)),
                Err(e) => {
                    temp().remove(&path);
                    if e.kind() != std::io::ErrorKind::AlreadyExists {
                        return Err(e);
                    }
                }
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = remove_path(&self.0);
        temp().remove(&self.0);
    }
}
