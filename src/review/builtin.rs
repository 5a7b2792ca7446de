//! The built-in refactoring detector ([`crate::detect`]) as the Reviewer's [`Validator`]: the
//! changed files of both sides become detector snapshots, and its answers are translated into
//! the Reviewer's vocabulary. It runs in-process, so it cannot fail the way a tool can.

use crate::detect::{self, Snapshot};

use super::validator::{Files, Found, Intent, Match, Validation, Validator, ValidatorError};

/// mantra's own detector of method-level refactorings.
#[derive(Debug, Clone, Copy, Default)]
pub struct BuiltinDetector;

impl Validator for BuiltinDetector {
    fn name(&self) -> &'static str {
        "built-in detector"
    }

    fn validate(&self, intent: &Intent, before: &Files, after: &Files) -> Result<Validation, ValidatorError> {
        Ok(validation(detect::validate(&intent.into(), &snapshot(before), &snapshot(after))))
    }

    fn detect(&self, before: &Files, after: &Files) -> Result<Vec<Found>, ValidatorError> {
        Ok(detect::detect(&snapshot(before), &snapshot(after)).iter().map(found).collect())
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
