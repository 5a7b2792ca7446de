//! The detection stage's question, behind a small trait: did the intended refactoring happen?
//!
//! A refactoring that compiles and passes the tests may still not be the refactoring that was
//! asked for (an "extract" that only reformatted, a "move" that copied). A [`Validator`] answers
//! from the changed files alone, before and after, so the built-in detector and RefactoringMiner
//! (a Java program) plug in alike; the Reviewer only sees [`Validation`]s and [`Found`]s.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use crate::cli::RefactoringKind;

/// The changed files of one side, repository-relative path → text (Java files only).
pub type Files = BTreeMap<PathBuf, String>;

/// What the developer (or the engine) meant to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Intent {
    #[serde(rename = "type")]
    pub kind: RefactoringKind,
    /// The target method's class, qualified (`a.b.Invoice`, `a.Outer.Inner`).
    pub class: String,
    /// The target method's name: the source of an extraction, the inlined, moved or renamed method.
    pub method: String,
    /// The extracted method's name, or the new name of a rename, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_name: Option<String>,
    /// The class the method goes to, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination: Option<String>,
}

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
