//! The refactoring detector: two snapshots of Java code in, the method-level refactorings between
//! them out, described exactly as RefactoringMiner describes them.
//!
//! It follows RefactoringMiner's approach in a smaller form ([`matcher`]): classes are matched by
//! name (then by shared members, for renamed or moved classes), methods by signature, and the
//! methods left over are explained by statement-level comparison of their bodies: a new method
//! called from a matched method whose removed statements it holds was extracted; a removed method
//! whose statements appear where it used to be called was inlined; a removed and an added method
//! with the same body in different classes were moved; in the same class, renamed. The Reviewer
//! checks an intended refactoring with [`validate`].

mod matcher;
pub mod model;
pub mod oracle;
mod replace;
mod skeleton;
pub mod snapshot;
mod validate;

use serde::{Deserialize, Serialize};

pub use snapshot::{Snapshot, SnapshotError};
pub use validate::{Intent, Validation, Verdict, validate, validate_found};

/// The refactoring types the detector reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RefactoringType {
    #[serde(rename = "Extract Method")]
    ExtractMethod,
    #[serde(rename = "Inline Method")]
    InlineMethod,
    #[serde(rename = "Move Method")]
    MoveMethod,
    #[serde(rename = "Rename Method")]
    RenameMethod,
    #[serde(rename = "Extract And Move Method")]
    ExtractAndMoveMethod,
    #[serde(rename = "Move And Inline Method")]
    MoveAndInlineMethod,
    #[serde(rename = "Move And Rename Method")]
    MoveAndRenameMethod,
    #[serde(rename = "Pull Up Method")]
    PullUpMethod,
    #[serde(rename = "Push Down Method")]
    PushDownMethod,
}

impl RefactoringType {
    pub const ALL: [RefactoringType; 9] = [
        RefactoringType::ExtractMethod,
        RefactoringType::InlineMethod,
        RefactoringType::MoveMethod,
        RefactoringType::RenameMethod,
        RefactoringType::ExtractAndMoveMethod,
        RefactoringType::MoveAndInlineMethod,
        RefactoringType::MoveAndRenameMethod,
        RefactoringType::PullUpMethod,
        RefactoringType::PushDownMethod,
    ];

    /// RefactoringMiner's display name, the first part of a description.
    pub fn display_name(self) -> &'static str {
        match self {
            RefactoringType::ExtractMethod => "Extract Method",
            RefactoringType::InlineMethod => "Inline Method",
            RefactoringType::MoveMethod => "Move Method",
            RefactoringType::RenameMethod => "Rename Method",
            RefactoringType::ExtractAndMoveMethod => "Extract And Move Method",
            RefactoringType::MoveAndInlineMethod => "Move And Inline Method",
            RefactoringType::MoveAndRenameMethod => "Move And Rename Method",
            RefactoringType::PullUpMethod => "Pull Up Method",
            RefactoringType::PushDownMethod => "Push Down Method",
        }
    }

    /// RefactoringMiner's `RefactoringType` constant.
    pub fn code(self) -> &'static str {
        match self {
            RefactoringType::ExtractMethod => "EXTRACT_OPERATION",
            RefactoringType::InlineMethod => "INLINE_OPERATION",
            RefactoringType::MoveMethod => "MOVE_OPERATION",
            RefactoringType::RenameMethod => "RENAME_METHOD",
            RefactoringType::ExtractAndMoveMethod => "EXTRACT_AND_MOVE_OPERATION",
            RefactoringType::MoveAndInlineMethod => "MOVE_AND_INLINE_OPERATION",
            RefactoringType::MoveAndRenameMethod => "MOVE_AND_RENAME_OPERATION",
            RefactoringType::PullUpMethod => "PULL_UP_OPERATION",
            RefactoringType::PushDownMethod => "PUSH_DOWN_OPERATION",
        }
    }

    /// The type whose display name starts a description, if the detector knows it.
    pub fn from_display_name(name: &str) -> Option<RefactoringType> {
        RefactoringType::ALL.into_iter().find(|t| t.display_name() == name)
    }
}

impl std::fmt::Display for RefactoringType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.display_name())
    }
}

/// A code range on one side, as RefactoringMiner's JSON gives it (lines and columns 1-based).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    pub file_path: String,
    pub start_line: usize,
    pub end_line: usize,
    pub start_column: usize,
    pub end_column: usize,
    /// `METHOD_DECLARATION`, `METHOD_INVOCATION`, `EXPRESSION_STATEMENT`, ...
    pub code_element_type: String,
    /// What the range is in this refactoring: `source method declaration before extraction`, ...
    pub description: String,
    /// The method as RefactoringMiner prints it, for declarations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_element: Option<String>,
}

/// One detected refactoring, in RefactoringMiner's JSON shape plus `code` and `pure`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Refactoring {
    #[serde(rename = "type")]
    pub kind: RefactoringType,
    /// RefactoringMiner's type constant (`EXTRACT_OPERATION`).
    pub code: String,
    /// RefactoringMiner's description: display name, TAB, details.
    pub description: String,
    pub left_side_locations: Vec<Location>,
    pub right_side_locations: Vec<Location>,
    /// Whether the only differences are the refactoring's own mechanics (statements map 1:1 after
    /// the parameter/argument substitution; the call replaces the fragment; the name for renames).
    pub pure: bool,
    /// The methods and classes involved, for [`validate`]; not part of RefactoringMiner's JSON.
    #[serde(skip)]
    pub subject: Subject,
}

/// Who a refactoring is about, by role.
///
/// `method`/`class` is the refactored method: the source method of an extraction, the inlined
/// method, the moved or renamed method (as before). `other_method`/`other_class` is the
/// counterpart: the extracted method, the method inlined into, the method as moved or renamed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subject {
    pub method: String,
    /// `name(T1,T2)`, erased simple types.
    pub signature: String,
    pub class: String,
    pub other_method: String,
    pub other_class: String,
}

/// The method-level refactorings that turn `before` into `after`, in a stable order.
pub fn detect(before: &Snapshot, after: &Snapshot) -> Vec<Refactoring> {
    let (b, a) = model::Side::build_pair(before, after);
    matcher::Diff::new(&b, &a).run()
}

/// RefactoringMiner's JSON document for one commit's refactorings.
pub fn to_miner_json(repository: &str, sha1: &str, url: &str, refactorings: &[Refactoring]) -> serde_json::Value {
    serde_json::json!({
        "commits": [{
            "repository": repository,
            "sha1": sha1,
            "url": url,
            "refactorings": refactorings,
        }]
    })
}

#[cfg(test)]
mod tests;
