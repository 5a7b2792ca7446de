//! The domain's words, spoken by every layer: which refactoring ([`RefactoringKind`]), what a
//! refactoring is meant to do ([`Intent`]), and the options a user or an agent gives for it
//! before they are checked ([`SpecOptions`]).
//!
//! A leaf: it names no other module of the crate. The command line (`cli.rs`) converts its
//! arguments into these values; the engine, the planner, the Reviewer, the agents and the batch
//! runner take them. The detector's own vocabulary maps onto it in `detect` (see
//! `RefactoringType::kind`).

use serde::{Deserialize, Serialize};

/// The refactorings mantra performs, named as on the command line (`extract-method`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefactoringKind {
    ExtractMethod,
    InlineMethod,
    MoveMethod,
    RenameMethod,
    ExtractAndMoveMethod,
    MoveAndInlineMethod,
    MoveAndRenameMethod,
}

impl RefactoringKind {
    /// Every kind, in the order above.
    pub const ALL: [RefactoringKind; 7] = [
        RefactoringKind::ExtractMethod,
        RefactoringKind::InlineMethod,
        RefactoringKind::MoveMethod,
        RefactoringKind::RenameMethod,
        RefactoringKind::ExtractAndMoveMethod,
        RefactoringKind::MoveAndInlineMethod,
        RefactoringKind::MoveAndRenameMethod,
    ];

    /// The command-line name, which is also the serialised one: `extract-method`.
    pub fn name(self) -> &'static str {
        match self {
            RefactoringKind::ExtractMethod => "extract-method",
            RefactoringKind::InlineMethod => "inline-method",
            RefactoringKind::MoveMethod => "move-method",
            RefactoringKind::RenameMethod => "rename-method",
            RefactoringKind::ExtractAndMoveMethod => "extract-and-move-method",
            RefactoringKind::MoveAndInlineMethod => "move-and-inline-method",
            RefactoringKind::MoveAndRenameMethod => "move-and-rename-method",
        }
    }
}

impl std::fmt::Display for RefactoringKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a refactoring is meant to do: the question the detection stage asks of a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Intent {
    #[serde(rename = "type")]
    pub kind: RefactoringKind,
    /// The target method's class, qualified (`a.b.Invoice`, `a.Outer.Inner`).
    pub class: String,
    /// The target method: its name, or its erased signature (`print(int,String)`) where overloads
    /// must be told apart. The source of an extraction, the inlined, moved or renamed method.
    pub method: String,
    /// The extracted method's name, or the new name of a rename, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_name: Option<String>,
    /// The class the method goes to, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination: Option<String>,
}

impl Intent {
    /// `kind` of `method` in `class`, with no new name or destination known yet.
    pub fn new(kind: RefactoringKind, class: impl Into<String>, method: impl Into<String>) -> Intent {
        Intent { kind, class: class.into(), method: method.into(), new_name: None, destination: None }
    }
}

/// What a user (flags) or an agent (a tool call) says about a refactoring beyond its target,
/// as given: unparsed, each part optional. The engine checks and parses them (`SpecFlags`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpecOptions {
    /// Extract: the lines to extract, `A-B` (1-based, inclusive).
    pub lines: Option<String>,
    /// Extract / rename: the new method's name.
    pub name: Option<String>,
    /// Move: the destination, `param:NAME`, `field:NAME` or `class:FQN`.
    pub to: Option<String>,
    /// Inline: only the call at `file:line`.
    pub at: Option<String>,
    /// Move: leave a delegating method behind.
    pub keep_delegate: bool,
    /// Extract: expressions of the fragment to pass in as parameters.
    pub params: Vec<String>,
    /// Extract: copies of the lines elsewhere in the file, `A-B` each, replaced by the same call.
    pub copies: Vec<String>,
    /// Move: take along the private methods only the moved method calls.
    pub with_helpers: bool,
    /// Move: other methods of the same class that move with it, by name.
    pub methods: Vec<String>,
    /// Move: `--widen public`.
    pub widen: Option<String>,
    /// Move to `class:FQN`: `--as static|instance|auto`.
    pub as_mode: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_serialised_names() {
        for kind in RefactoringKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), serde_json::json!(kind.name()));
            assert_eq!(kind.to_string(), kind.name());
        }
    }
}
