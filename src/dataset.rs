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

/// The PureRefactor files under `data/pure-refactor`, sorted, each with its project's name
/// (`pmd_pure_refactoring_data.json` → `pmd`). An empty or unreadable folder is an error.
pub fn pure_refactor_files(data: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let dir = data.join("pure-refactor");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}; set MANTRA_SHARED_DATA to the shared data folder", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no dataset files in {}", dir.display()));
    }
    Ok(files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            (name.trim_end_matches(".json").trim_end_matches("_pure_refactoring_data").to_string(), p)
        })
        .collect())
}
