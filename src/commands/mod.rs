//! One file per subcommand: turn parsed arguments into work and events.

pub mod analyze;
pub mod apply;
pub mod batch;
pub mod completions;
pub mod detect;
pub mod doctor;
pub mod refactor;
pub mod rename;
pub mod report;
pub mod store;
pub mod suggest;
pub mod verify;
pub mod wire;

use std::path::PathBuf;

use crate::cli::GlobalArgs;
use crate::config::Resolved;
use crate::report::Reporter;

/// What every command gets: where the repository is, the resolved configuration, where to report.
pub struct Context {
    pub repo: PathBuf,
    pub cwd: PathBuf,
    pub config: Resolved,
    pub reporter: Reporter,
    pub global: GlobalArgs,
}

/// `1 file`, `3 files`: how many files a change touches, for the summary line.
fn files_count(n: usize) -> String {
    if n == 1 { "1 file".to_string() } else { format!("{n} files") }
}
