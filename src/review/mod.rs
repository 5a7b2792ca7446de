//! Reviewing a refactoring beyond "it compiles and the tests pass".
//!
//! The Reviewer looks at what a change did to the code's quality. Its tools live here, one per
//! file: [`checkstyle`] reports only the style violations the change introduced, never the
//! project's existing debt.

pub mod checkstyle;
pub mod refactoring_miner;

pub use checkstyle::{Checkstyle, CheckstyleError, StyleReview, Violation, new_violations};
