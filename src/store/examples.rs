//! The store as the Developer agent's `search_similar_refactorings` tool sees it: hybrid search
//! filtered by the refactoring's type, each hit turned into an [`Example`].

use serde::Serialize;

use super::Store;
use crate::refactoring::RefactoringKind;

/// A refactoring a developer made in some project, for the Developer to imitate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Example {
    pub kind: RefactoringKind,
    /// What the code does and where it sits (the `describe` prompt's answer).
    pub description: String,
    /// The code before and after the refactoring.
    pub before: String,
    pub after: String,
    /// Where it comes from: `project@commit path`.
    pub source: String,
}

/// The example store as the Developer's `search_similar_refactorings` tool sees it. The store
/// implements it (below); [`NoExamples`] stands in when there is none.
pub trait Examples: Send + Sync {
    /// The `k` examples of `kind` most similar to `query` (code or a description), best first.
    fn search(&self, query: &str, kind: RefactoringKind, k: usize) -> Result<Vec<Example>, String>;
}

/// No example store: every search answers that the store is empty.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoExamples;

impl Examples for NoExamples {
    fn search(&self, _query: &str, _kind: RefactoringKind, _k: usize) -> Result<Vec<Example>, String> {
        Ok(Vec::new())
    }
}

impl Examples for Store {
    fn search(&self, query: &str, kind: RefactoringKind, k: usize) -> Result<Vec<Example>, String> {
        let hits = self.examples_for(query, kind, k).map_err(|e| e.to_string())?;
        Ok(hits
            .into_iter()
            .map(|hit| {
                let r = hit.record;
                Example {
                    kind,
                    description: r.description,
                    before: r.code_before,
                    after: r.code_after,
                    source: format!(
                        "{}@{} {}",
                        r.provenance.repository,
                        r.provenance.commit.get(..10).unwrap_or(&r.provenance.commit),
                        r.file_before.path
                    ),
                }
            })
            .collect())
    }
}
