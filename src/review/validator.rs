//! The detection stage's question, behind a small trait: did the intended refactoring happen?
//!
//! A refactoring that compiles and passes the tests may still not be the refactoring that was
//! asked for (an "extract" that only reformatted, a "move" that copied). A [`Validator`] answers
//! from the changed files alone, before and after, so the built-in detector and RefactoringMiner
//! (a Java program) plug in alike; the Reviewer only sees [`Validation`]s and [`Found`]s.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

pub use crate::refactoring::Intent;

/// The changed files of one side, repository-relative path → text (Java files only).
pub type Files = BTreeMap<PathBuf, String>;

/// Whether the intent was found in the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Match {
    /// Exactly this refactoring happened.
    Matched,
    /// It did not happen, or not recognisably: the change is rejected.
    Missing,
    /// Several refactorings fit; reported, not rejected.
    Ambiguous,
}

/// A validator's answer about an intent.
#[derive(Debug, Clone, Serialize)]
pub struct Validation {
    pub verdict: Match,
    /// In words, why (especially when missing).
    pub reason: String,
    /// The refactoring found, when matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refactoring: Option<Found>,
}

/// One detected refactoring, as RefactoringMiner describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Found {
    /// RefactoringMiner's display name: `Extract Method`.
    #[serde(rename = "type")]
    pub kind: String,
    /// RefactoringMiner's description: `Extract Method\tprivate validate(...) extracted from ...`.
    pub description: String,
    /// Whether only the refactoring's own mechanics changed.
    pub pure: bool,
}

/// A validator could not answer (a tool missing or failing): the detection stage is skipped.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ValidatorError(pub String);

/// Checks intents against a change and lists the refactorings in it.
pub trait Validator: Send + Sync {
    /// For reports: `built-in detector`, `RefactoringMiner`.
    fn name(&self) -> &'static str;
    /// Whether `intent` is what changed from `before` to `after`.
    fn validate(&self, intent: &Intent, before: &Files, after: &Files) -> Result<Validation, ValidatorError>;
    /// Every refactoring from `before` to `after`.
    fn detect(&self, before: &Files, after: &Files) -> Result<Vec<Found>, ValidatorError>;
}
