//! One example: a pure method-level refactoring with what situates it (class, callers, callees, a
//! description) and where it came from.
//!
//! Records are JSON Lines in `records.jsonl`; whole files are kept once each in `files/`, named by
//! their git blob id, because many records of one commit share a file and whole files are most of
//! a record's bytes.

use serde::{Deserialize, Serialize};

use crate::detect::RefactoringType;

/// A whole file on one side of the refactoring: its repository path and its blob in `files/`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRef {
    pub path: String,
    /// The git blob id of the text (`files/<blob>.java`); `None` when the source did not give the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
}

/// Where an example came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// `pure-refactor`, `refactoring-oracle` or `mined`.
    pub source: String,
    /// The project or repository (`pmd`, `https://github.com/eclipse/jetty.project.git`, a path).
    pub repository: String,
    pub commit: String,
    /// PureRefactor's `uniqueId`; for other sources the commit and the method.
    pub unique_id: String,
}

/// Who wrote the description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DescriptionSource {
    /// The deterministic summary (signature, class, called methods, leading comment).
    Summary,
    /// A language model, from `prompts/describe.md`.
    Model,
}

/// One stored example.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Unique within a store: `<source>:<repository>:<unique id>`.
    pub id: String,
    #[serde(rename = "type")]
    pub kind: RefactoringType,
    /// RefactoringMiner's description of the refactoring (type, TAB, details).
    pub refactoring: String,
    /// The refactored method before (for inlines, the inlined method).
    pub code_before: String,
    /// The method after (for extractions, followed by the extracted method).
    pub code_after: String,
    pub file_before: FileRef,
    pub file_after: FileRef,
    pub package: String,
    /// `a.b.Outer.Inner`.
    pub class_name: String,
    /// The class declaration header (`public class Tokens`).
    pub class_signature: String,
    /// `a.b.Class#method`.
    pub method: String,
    /// Methods of the same file that call the refactored method (file-local: the records carry
    /// one file, not the project).
    pub callers: Vec<String>,
    /// Names of the methods the code before calls, in order of first call.
    pub callees: Vec<String>,
    /// The short text situating the code that retrieval matches on.
    pub description: String,
    pub description_source: DescriptionSource,
    pub provenance: Provenance,
}

impl Record {
    /// What BM25 and the embedding model read besides the description: the code before, which is
    /// what a query has too (the method the agent is about to refactor).
    pub fn code_text(&self) -> &str {
        &self.code_before
    }

    /// The text embedded for this record: its method's facts in words ([`embedding_words`]),
    /// the text a code query is embedded as too. A sentence model compares those better than the
    /// description's Java signature and dotted names, and they are a few dozen tokens. (The
    /// description, a model's included, feeds BM25 and the agent's prompt.)
    ///
    /// [`embedding_words`]: super::describe::embedding_words
    pub fn embedding_text(&self) -> String {
        super::describe::embedding_words(&super::describe::code_facts(&self.code_before), &self.callees)
    }
}
