//! One batch at a time per output folder: two runs writing `results.jsonl`, the reports and the
//! checkouts of the same `--out` corrupt each other. The first takes an exclusive lock on
//! `<out>/.lock` (the operating system's, so a killed run never leaves it held) and writes its
//! process id into it; a second run fails at once, naming that process.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use super::BatchError;

/// The lock file's name in the output folder.
pub const LOCK_FILE: &str = ".lock";

/// The output folder's lock, held until dropped. A folder this run created and left holding
/// nothing but the lock (the run stopped before writing anything: a bad `--range`, no tasks) is
/// removed with it, so a failed command leaves no trace in the user's tree.
#[derive(Debug)]
pub struct OutLock {
    _file: File,
    /// The output folder, when this run created it.
    created: Option<PathBuf>,
}

impl Drop for OutLock {
    fn drop(&mut self) {
        let Some(out) = &self.created else { return };
        let Ok(entries) = std::fs::read_dir(out) else { return };
        let only_lock = entries.flatten().all(|e| e.file_name() == LOCK_FILE);
        if only_lock {
            let _ = std::fs::remove_file(out.join(LOCK_FILE));
            let _ = std::fs::remove_dir(out);
        }
    }
}

/// Creates `out` if needed and locks it for this process.
pub fn lock_out(out: &Path) -> Result<OutLock, BatchError> {
    let io = |what, source| BatchError::Io { what, path: out.to_path_buf(), source };
    let created = (!out.exists()).then(|| out.to_path_buf());
    std::fs::create_dir_all(out).map_err(|e| io("cannot create", e))?;
    let path = out.join(LOCK_FILE);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| io("cannot open the lock of", e))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim().parse::<u32>().ok();
            return Err(BatchError::Busy { out: out.to_path_buf(), holder });
        }
        Err(TryLockError::Error(e)) => return Err(io("cannot lock", e)),
    }
    let mine = (|| {
        file.set_len(0)?;
        file.rewind()?;
        writeln!(file, "{}", std::process::id())
    })();
    mine.map_err(|e| io("cannot write the lock of", e))?;
    Ok(OutLock { _file: file, created })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_the_same_folder_names_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let first = lock_out(&out).unwrap();
        match lock_out(&out) {
            Err(BatchError::Busy { holder, .. }) => assert_eq!(holder, Some(std::process::id())),
            other => panic!("expected Busy, got {other:?}"),
        }
        drop(first);
        let again = lock_out(&out).expect("free again once the first is dropped");
        std::fs::write(out.join("results.jsonl"), "").unwrap();
        drop(again);
        assert!(out.join(LOCK_FILE).exists(), "a folder with results keeps its lock file");
    }

    #[test]
    fn a_folder_created_for_a_run_that_wrote_nothing_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("mantra-batch");
        drop(lock_out(&out).unwrap());
        assert!(!out.exists(), "the empty output folder is left behind");
        // A folder that was there before is the user's: it stays.
        std::fs::create_dir(&out).unwrap();
        drop(lock_out(&out).unwrap());
        assert!(out.exists());
    }
}
