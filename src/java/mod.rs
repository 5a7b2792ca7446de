//! The Java project model, built from tree-sitter-java: files, types, members, hierarchy, calls.
//!
//! The model answers the questions the agents and the engine ask ("what does this method call",
//! "who overrides it", "which class owns this field's type"). It is built lazily: parsing a file
//! is cheap, and commands ask only for what they need.

pub mod analysis;
pub mod calls;
pub mod element_type;
pub mod hierarchy;
pub mod layout;
pub mod lexical;
pub mod project;
pub mod source;
pub mod summary;
pub mod symbols;
pub mod syntax;
pub mod target;

pub use calls::{Callee, Caller, Resolution};
pub use hierarchy::SuperType;
pub use layout::{BuildSystem, Layout};
pub use project::{FileId, JavaFile, MethodId, Project, TypeId};
pub use source::{SourceFile, Span, SyntaxError};
pub use summary::Summary;
pub use target::{Target, TargetError};

/// Splits a parameter or type-argument list at its top-level commas: commas inside `<...>` or
/// `(...)` do not split (`Map<K, V> m, @Size(min = 1, max = 2) int n` → two parts). An empty or
/// blank list has no parts. Parts keep their surrounding spaces.
pub fn split_top_level(list: &str) -> Vec<&str> {
    if list.trim().is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in list.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&list[start..]);
    out
}

use std::path::PathBuf;

use crate::error::Classify;
use crate::exit::Exit;

/// Errors of the Java model.
#[derive(Debug, thiserror::Error)]
pub enum JavaError {
    #[error("cannot read {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{} is not UTF-8 text (first invalid byte on line {line})", path.display())]
    NotUtf8 { path: PathBuf, line: usize },
}

impl Classify for JavaError {
    fn exit(&self) -> Exit {
        match self {
            JavaError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => Exit::TargetNotFound,
            JavaError::Io { .. } => Exit::Internal,
            JavaError::NotUtf8 { .. } => Exit::InvalidInput,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            JavaError::NotUtf8 { .. } => Some("convert the file to UTF-8 (e.g. `iconv -f ISO-8859-1 -t UTF-8`)".into()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn commas_inside_type_arguments_and_annotations_do_not_split() {
        let parts = super::split_top_level("Map<K, List<V>> m, @Size(min = 1, max = 2) int n,String s");
        assert_eq!(parts, ["Map<K, List<V>> m", " @Size(min = 1, max = 2) int n", "String s"]);
        assert!(super::split_top_level("  ").is_empty());
        assert_eq!(super::split_top_level("int x"), ["int x"]);
    }
}
