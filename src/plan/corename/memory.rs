//! What the user answered to earlier suggestions, kept in the repository's `.mantra/renames.jsonl`
//! (one JSON object per answer): a rejected suggestion is not proposed again, and a relation the
//! user keeps rejecting for a kind of seed weighs less (CoRenameAgent's episodic memory).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Relation, Suggestion};
use crate::engine::rename::Kind;

/// The file, under the state folder.
pub const FILE: &str = "renames.jsonl";

/// One answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub seed_kind: Kind,
    pub relation: Relation,
    pub kind: Kind,
    pub old: String,
    pub new: String,
    pub file: PathBuf,
    pub accepted: bool,
}

impl Answer {
    pub fn of(seed_kind: Kind, s: &Suggestion, accepted: bool) -> Answer {
        Answer {
            seed_kind,
            relation: s.relation,
            kind: s.kind,
            old: s.old.clone(),
            new: s.new.clone(),
            file: s.file.clone(),
            accepted,
        }
    }
}

/// Every answer kept.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    pub answers: Vec<Answer>,
}

impl Memory {
    /// The answers in `path`; none when it does not exist. Lines that do not parse (another
    /// version's, a hand edit gone wrong) are skipped with a warning rather than lose the rest.
    pub fn load(path: &Path) -> Memory {
        let Ok(text) = std::fs::read_to_string(path) else { return Memory::default() };
        let mut answers = Vec::new();
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            match serde_json::from_str(line) {
                Ok(a) => answers.push(a),
                Err(e) => tracing::warn!("{}:{}: skipped an answer that does not parse: {e}", path.display(), i + 1),
            }
        }
        Memory { answers }
    }

    /// Appends `answers` to `path`, creating it (and the state folder) when needed.
    pub fn append(path: &Path, answers: &[Answer]) -> std::io::Result<()> {
        if answers.is_empty() {
            return Ok(());
        }
        if let Some(dir) = path.parent() {
            crate::config::create_state_dir(dir)?;
        }
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
        let mut text = String::new();
        for a in answers {
            text.push_str(&serde_json::to_string(a).map_err(std::io::Error::other)?);
            text.push('\n');
        }
        f.write_all(text.as_bytes())
    }

    /// Whether the user rejected this very rename before.
    pub fn rejected(&self, s: &Suggestion) -> bool {
        self.answers
            .iter()
            .any(|a| !a.accepted && a.kind == s.kind && a.old == s.old && a.new == s.new && a.file == s.file)
    }

    /// How much the user's answers for this relation, after seeds of this kind, weigh a
    /// suggestion: 1 with no answers; lower the more were rejected, higher the more accepted
    /// (Laplace-smoothed acceptance rate, between 0.5 and 1.5).
    pub fn factor(&self, seed_kind: Kind, relation: Relation) -> f64 {
        let (mut yes, mut no) = (0.0, 0.0);
        for a in self.answers.iter().filter(|a| a.seed_kind == seed_kind && a.relation == relation) {
            if a.accepted {
                yes += 1.0;
            } else {
                no += 1.0;
            }
        }
        0.5 + (yes + 1.0) / (yes + no + 2.0)
    }
}
