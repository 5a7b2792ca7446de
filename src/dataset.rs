//! Where the development data lives: the PureRefactor records and the RefactoringMiner oracle.
//!
//! Evaluations, benchmarks and tests read it in place (it is never copied into the project):
//! `MANTRA_SHARED_DATA` if set, else `shared/data` beside the repository (CI's layout) or beside
//! its parent folder.

use std::path::{Path, PathBuf};

/// The shared data folder, or a message saying where it was looked for.
pub fn shared_data_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("MANTRA_SHARED_DATA") {
        return Ok(PathBuf::from(dir));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [root.join("../shared/data"), root.join("../../shared/data")];
    candidates.iter().find(|p| p.is_dir()).cloned().ok_or_else(|| {
        format!("the development data was not found: set MANTRA_SHARED_DATA or put it at {}", candidates[0].display())
    })
}
