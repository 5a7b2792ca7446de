//! The refactoring engine: a small spec in, text edits on the original source out, or a refusal.
//!
//! The engine is the trusted part of mantra: it performs each refactoring correctly by
//! construction, or refuses with a reason a developer (or an LLM) can act on. It never rewrites
//! code it does not have to: see [`edit`].

pub mod call_sites;
pub mod command_line;
pub mod compound;
pub mod dataflow;
pub mod diff;
pub mod edit;
pub mod extract;
pub mod imports;
pub mod inline;
pub mod layout;
pub mod move_method;
pub mod precedence;
pub mod refusal;
pub mod rename;
pub mod spec;
pub mod variable_names;
pub mod wire;

pub use command_line::refactor_command;
pub use edit::{ChangeSet, Edit, EditConflict, FileChange};
pub use extract::{ExtractSpec, Extraction, extract_method};
pub use move_method::{AsMode, Destination, MoveSpec, Moved, move_method};
pub use refusal::{Reason, Refusal};
pub use rename::{RenameSpec, rename_method};
pub use spec::{Spec, SpecError, SpecFlags, apply, intent};
