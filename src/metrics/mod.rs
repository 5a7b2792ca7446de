//! Measures of refactoring results against a reference (a developer's code): token similarity,
//! CodeBLEU, AST-diff precision and recall, and identity after normalisation.

pub mod astdiff;
pub mod codebleu;
mod dfg;
pub mod identical;

/// Token similarity is the detector's measure; the metrics report it too.
pub use crate::detect::similarity::{code_similarity, token_similarity, tokens};
pub use astdiff::{Action, AstDiff, Files, ast_diff};
pub use codebleu::{CodeBleu, Weights, codebleu, codebleu_weighted};
pub use identical::{identical, identical_files};
