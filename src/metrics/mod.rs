//! Measures of refactoring results against a reference (a developer's code).

pub mod similarity;

pub use similarity::{code_similarity, token_similarity, tokens};
