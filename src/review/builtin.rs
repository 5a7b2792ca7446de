//! The built-in refactoring detector ([`crate::detect`]) as the Reviewer's [`Validator`]: the
//! changed files of both sides become detector snapshots, and its answers are translated into
//! the Reviewer's vocabulary. It runs in-process, so it cannot fail the way a tool can.

use crate::cli::RefactoringKind;
use crate::detect::{self, RefactoringType, Snapshot};

use super::validator::{Files, Found, Intent, Match, Validation, Validator, ValidatorError};

/// mantra's own detector of method-level refactorings.
#[derive(Debug, Clone, Copy, Default)]
pub struct BuiltinDetector;

impl Validator for BuiltinDetector {
    fn name(&self) -> &'static str {
        "built-in detector"
    }

    fn validate(&self, intent: &Intent, before: &Files, after: &Files) -> Result<Validation, ValidatorError> {
        Ok(validation(detect::validate(&asked(intent), &snapshot(before), &snapshot(after))))
    }

    fn detect(&self, before: &Files, after: &Files) -> Result<Vec<Found>, ValidatorError> {
        Ok(detect::detect(&snapshot(before), &snapshot(after)).iter().map(found).collect())
    }
}

/// The Reviewer's intent in the detector's terms.
pub(crate) fn asked(intent: &Intent) -> detect::Intent {
    detect::Intent {
        kind: refactoring_type(intent.kind),
        class: intent.class.clone(),
        method: intent.method.clone(),
        new_name: intent.new_name.clone(),
        destination: intent.destination.clone(),
    }
}

/// The detector's answer in the Reviewer's terms.
pub(crate) fn validation(v: detect::Validation) -> Validation {
    let verdict = match v.verdict {
        detect::Verdict::Matched => Match::Matched,
        detect::Verdict::Missing => Match::Missing,
        detect::Verdict::Ambiguous => Match::Ambiguous,
    };
    Validation { verdict, reason: v.reason, refactoring: v.refactoring.as_ref().map(found) }
}

pub(crate) fn snapshot(files: &Files) -> Snapshot {
    Snapshot::from_files(files.iter().map(|(path, text)| (path.to_string_lossy().into_owned(), text.clone())))
}

pub(crate) fn found(r: &detect::Refactoring) -> Found {
    Found { kind: r.kind.display_name().to_string(), description: r.description.clone(), pure: r.pure }
}

/// The detector's name for each refactoring mantra performs.
pub fn refactoring_type(kind: RefactoringKind) -> RefactoringType {
    match kind {
        RefactoringKind::ExtractMethod => RefactoringType::ExtractMethod,
        RefactoringKind::InlineMethod => RefactoringType::InlineMethod,
        RefactoringKind::MoveMethod => RefactoringType::MoveMethod,
        RefactoringKind::RenameMethod => RefactoringType::RenameMethod,
        RefactoringKind::ExtractAndMoveMethod => RefactoringType::ExtractAndMoveMethod,
        RefactoringKind::MoveAndInlineMethod => RefactoringType::MoveAndInlineMethod,
        RefactoringKind::MoveAndRenameMethod => RefactoringType::MoveAndRenameMethod,
    }
}
