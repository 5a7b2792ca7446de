//! The store as the Developer agent's `search_similar_refactorings` tool sees it: hybrid search
//! filtered by the refactoring's type, each hit turned into an [`Example`].

use crate::agent::{Example, Examples};
use crate::cli::RefactoringKind;

use super::Store;

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
