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

pub mod builtin;
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

/// The validator the Reviewer uses unless told otherwise: the built-in detector. (RefactoringMiner
/// plugs in through the same trait.)
pub fn default_validator() -> Option<Box<dyn Validator>> {
    Some(Box::new(BuiltinDetector))
}
