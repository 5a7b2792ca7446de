//! Text edits spliced into the original source, so untouched code keeps its exact bytes.
//!
//! A refactoring is a [`ChangeSet`]: for each touched file, a list of non-overlapping
//! `(byte range, replacement)` edits against the original text, or the whole text of a new file.
//! Edits are applied from the end of the file backwards so earlier offsets stay valid.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Replace `range` of the original text with `replacement`. An empty range inserts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

impl Edit {
    pub fn replace(range: std::ops::Range<usize>, replacement: impl Into<String>) -> Edit {
        Edit { start: range.start, end: range.end, replacement: replacement.into() }
    }
    pub fn insert(at: usize, text: impl Into<String>) -> Edit {
        Edit { start: at, end: at, replacement: text.into() }
    }
    pub fn delete(range: std::ops::Range<usize>) -> Edit {
        Edit::replace(range, "")
    }
}

/// Two edits of one file overlap, or one is out of the text's bounds: an engine bug, never user input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("conflicting edits in {path}: {detail}")]
pub struct EditConflict {
    pub path: String,
    pub detail: String,
}

/// What happens to one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FileChange {
    /// Edits against the file's current text.
    Edit { original: String, edits: Vec<Edit> },
    /// A file that does not exist yet.
    Create { text: String },
    /// A file removed, whose current text is `original` (a renamed class's old file).
    Delete { original: String },
}

impl FileChange {
    /// The file's text before the change; `None` for a file the change creates.
    pub fn original(&self) -> Option<&str> {
        match self {
            FileChange::Edit { original, .. } | FileChange::Delete { original } => Some(original),
            FileChange::Create { .. } => None,
        }
    }
}

/// Every file a refactoring touches, keyed by repository-relative path.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeSet {
    pub files: BTreeMap<PathBuf, FileChange>,
    /// What the change did beside its edits that the user should hear of, one line each: a class
    /// it created, a member or class it made more visible.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl ChangeSet {
    pub fn new() -> ChangeSet {
        ChangeSet::default()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Adds an edit to `path`, whose current text is `original`.
    pub fn edit(&mut self, path: &Path, original: &str, edit: Edit) {
        match self
            .files
            .entry(path.to_path_buf())
            .or_insert_with(|| FileChange::Edit { original: original.to_string(), edits: Vec::new() })
        {
            FileChange::Edit { edits, .. } => edits.push(edit),
            FileChange::Create { .. } | FileChange::Delete { .. } => {
                unreachable!("edits are only added to existing files; new files are created whole")
            }
        }
    }

    pub fn create(&mut self, path: &Path, text: String) {
        self.files.insert(path.to_path_buf(), FileChange::Create { text });
    }

    /// The new text of every touched file that is not deleted.
    pub fn render(&self) -> Result<BTreeMap<PathBuf, String>, EditConflict> {
        self.files
            .iter()
            .filter_map(|(path, change)| {
                let text = match change {
                    FileChange::Edit { original, edits } => apply(&path.display().to_string(), original, edits),
                    FileChange::Create { text } => Ok(text.clone()),
                    FileChange::Delete { .. } => return None,
                };
                Some(text.map(|t| (path.clone(), t)))
            })
            .collect()
    }

    /// The text of `path` after the change, if the change touches it.
    pub fn render_file(&self, path: &Path) -> Result<Option<String>, EditConflict> {
        match self.files.get(path) {
            None | Some(FileChange::Delete { .. }) => Ok(None),
            Some(FileChange::Create { text }) => Ok(Some(text.clone())),
            Some(FileChange::Edit { original, edits }) => apply(&path.display().to_string(), original, edits).map(Some),
        }
    }

    /// Merges `other` into `self` (compound refactorings). Both must edit the same original texts.
    pub fn extend(&mut self, other: ChangeSet) {
        self.notes.extend(other.notes);
        for (path, change) in other.files {
            match (self.files.get_mut(&path), change) {
                (Some(FileChange::Edit { edits, .. }), FileChange::Edit { edits: more, .. }) => edits.extend(more),
                (_, change) => {
                    self.files.insert(path, change);
                }
            }
        }
    }
}

/// Applies non-overlapping edits to `original`. Insertions at the same offset keep their order.
pub fn apply(path: &str, original: &str, edits: &[Edit]) -> Result<String, EditConflict> {
    let mut sorted: Vec<(usize, &Edit)> = edits.iter().enumerate().collect();
    sorted.sort_by_key(|(i, e)| (e.start, e.end, *i));
    let conflict = |detail: String| EditConflict { path: path.to_string(), detail };
    let mut out = String::with_capacity(original.len());
    let mut pos = 0;
    for (_, e) in sorted {
        if e.start > e.end || e.end > original.len() {
            return Err(conflict(format!("edit {}..{} outside 0..{}", e.start, e.end, original.len())));
        }
        if e.start < pos {
            return Err(conflict(format!("edit {}..{} overlaps an earlier edit ending at {pos}", e.start, e.end)));
        }
        if !original.is_char_boundary(e.start) || !original.is_char_boundary(e.end) {
            return Err(conflict(format!("edit {}..{} splits a UTF-8 character", e.start, e.end)));
        }
        out.push_str(&original[pos..e.start]);
        out.push_str(&e.replacement);
        pos = e.end;
    }
    out.push_str(&original[pos..]);
    Ok(out)
}

/// The single edit turning `before` into `after`: the differing middle, common prefix and suffix kept.
pub fn minimal_edit(before: &str, after: &str) -> Edit {
    let mut prefix = before.bytes().zip(after.bytes()).take_while(|(a, b)| a == b).count();
    while !before.is_char_boundary(prefix) || !after.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let max_suffix = (before.len() - prefix).min(after.len() - prefix);
    let mut suffix = before.bytes().rev().zip(after.bytes().rev()).take(max_suffix).take_while(|(a, b)| a == b).count();
    while !before.is_char_boundary(before.len() - suffix) || !after.is_char_boundary(after.len() - suffix) {
        suffix -= 1;
    }
    Edit::replace(prefix..before.len() - suffix, &after[prefix..after.len() - suffix])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splices_in_order_and_keeps_untouched_bytes() {
        let text = "a b c d";
        let edits = vec![Edit::replace(6..7, "D"), Edit::insert(0, "<"), Edit::delete(1..3), Edit::insert(0, "!")];
        assert_eq!(apply("t", text, &edits).unwrap(), "<!a c D");
    }

    #[test]
    fn overlap_is_an_error() {
        let err = apply("t", "abcdef", &[Edit::replace(0..3, "x"), Edit::replace(2..4, "y")]).unwrap_err();
        assert!(err.detail.contains("overlaps"), "{err}");
    }
}
