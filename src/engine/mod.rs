//! The refactoring engine: a small spec in, text edits on the original source out, or a refusal.
//!
//! The engine is the trusted part of mantra: it performs each refactoring correctly by
//! construction, or refuses with a reason a developer (or an LLM) can act on. It never rewrites
//! code it does not have to: see [`edit`].

pub mod call_sites;
pub mod compound;
pub mod dataflow;
pub mod diff;
pub mod edit;
pub mod extract;
pub mod imports;
pub mod inline;
pub mod move_method;
pub mod precedence;
pub mod rename;
pub mod spec;
pub mod variable_names;

pub use edit::{ChangeSet, Edit, EditConflict, FileChange};
pub use extract::{ExtractSpec, Extraction, extract_method};
pub use move_method::{Destination, MoveSpec, Moved, move_method};
pub use rename::{RenameSpec, rename_method};
pub use spec::{Spec, SpecError, SpecFlags, apply, intent};

use serde::Serialize;

/// Why the engine will not perform a refactoring: a stable machine-readable code and a sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    /// A stable snake_case code, e.g. `multiple_outputs`, `break_leaves_fragment`.
    pub reason: &'static str,
    /// What is wrong and, where possible, what would work instead.
    pub message: String,
}

impl Refusal {
    pub fn new(reason: &'static str, message: impl Into<String>) -> Refusal {
        Refusal { reason, message: message.into() }
    }
}
