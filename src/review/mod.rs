//! Reviewing a change: is it the refactoring that was asked for, does the project still build,
//! do its tests still pass, did the style get worse?
//!
//! The [`Reviewer`] runs a change through those questions in an isolated workspace and returns a
//! [`Verdict`]; its tools live here, one per file: [`checkstyle`] reports only the style
//! violations the change introduced, never the project's existing debt; [`validator`] is the
//! trait a refactoring detector implements to say whether the intended refactoring happened, and
//! [`builtin`] implements it with mantra's own detector ([`crate::detect`]);
//! [`change`] describes what is reviewed (a refactoring's change set, or the working tree's
//! uncommitted changes against HEAD); [`stage`] is what the Reviewer reports.

use std::sync::Arc;

pub mod builtin;
mod cache;
pub mod change;
pub mod checkstyle;
pub mod refactoring_miner;
pub mod reviewer;
pub mod stage;
pub mod validator;

pub use change::{Change, Side, Versions, WorkingTreeChange};
pub use checkstyle::{Checkstyle, CheckstyleError, StyleReview, Violation, new_violations};
pub use reviewer::{Review, ReviewError, Reviewer, VerdictData};
pub use stage::{Stage, StageReport, StageStatus, Verdict};
pub use validator::{Files, Found, Intent, Match, Validation, Validator, ValidatorError};

pub use builtin::BuiltinDetector;

/// The validator the Reviewer uses: RefactoringMiner when `refactoring_miner.path` (or
/// `REFACTORINGMINER_HOME`) is configured, else the built-in detector.
pub fn default_validator(
    config: &crate::config::Config,
    runner: Arc<dyn crate::process::Runner>,
) -> Option<Box<dyn Validator>> {
    match config.refactoring_miner.executable() {
        Some(exe) => Some(Box::new(refactoring_miner::RefactoringMiner::new(
            exe,
            runner,
            std::time::Duration::from_secs(config.build.timeout_secs),
        ))),
        None => Some(Box::new(BuiltinDetector)),
    }
}
