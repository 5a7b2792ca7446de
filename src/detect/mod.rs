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
pub mod records;
mod replace;
pub mod similarity;
mod skeleton;
pub mod snapshot;
mod validate;

use serde::{Deserialize, Serialize};

use crate::refactoring::RefactoringKind;

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

/// The detector's name for each refactoring mantra performs.
impl From<RefactoringKind> for RefactoringType {
    fn from(kind: RefactoringKind) -> RefactoringType {
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
}

impl RefactoringType {
    /// The refactoring mantra performs of this type; `None` for pull-ups and push-downs, which
    /// the detector reports but mantra does not perform.
    pub fn kind(self) -> Option<RefactoringKind> {
        Some(match self {
            RefactoringType::ExtractMethod => RefactoringKind::ExtractMethod,
            RefactoringType::InlineMethod => RefactoringKind::InlineMethod,
            RefactoringType::MoveMethod => RefactoringKind::MoveMethod,
            RefactoringType::RenameMethod => RefactoringKind::RenameMethod,
            RefactoringType::ExtractAndMoveMethod => RefactoringKind::ExtractAndMoveMethod,
            RefactoringType::MoveAndInlineMethod => RefactoringKind::MoveAndInlineMethod,
            RefactoringType::MoveAndRenameMethod => RefactoringKind::MoveAndRenameMethod,
            RefactoringType::PullUpMethod | RefactoringType::PushDownMethod => return None,
        })
    }
}

/// The Reviewer's intent in the detector's terms.
impl From<&crate::refactoring::Intent> for Intent {
    fn from(intent: &crate::refactoring::Intent) -> Intent {
        Intent {
            kind: intent.kind.into(),
            class: intent.class.clone(),
            method: intent.method.clone(),
            new_name: intent.new_name.clone(),
            destination: intent.destination.clone(),
        }
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

impl Refactoring {
    /// The text of the method declarations on a refactoring's right side (the extracted method and the
    /// source method after, the method where it moved, ...), in the order the detector lists them.
    pub fn right_methods_text(&self, after: &Snapshot) -> String {
        let mut parts = Vec::new();
        let mut decls: Vec<_> =
            self.right_side_locations.iter().filter(|l| l.code_element_type == "METHOD_DECLARATION").collect();
        // The source method first, then what was extracted from it: PureRefactor's order.
        decls.sort_by_key(|l| !l.description.starts_with("source method declaration"));
        for loc in decls {
            if let Some(text) = after.files.get(&loc.file_path) {
                parts.push(crate::text::lines(text, loc.start_line, loc.end_line));
            }
        }
        parts.join("\n")
    }
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
    /// The counterpart's `name(T1,T2)`.
    pub other_signature: String,
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
