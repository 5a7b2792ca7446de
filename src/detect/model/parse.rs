//! Parsing a snapshot's file with the shared parser pool, reading only what the change needs: the
//! interiors of unchanged bodies and comments outside them are left out until asked for.

use super::Parsed;
use tree_sitter::{Node, Point, Range};

/// Two lists of ranges as one sorted list (ranges may nest: `included` allows for it).
pub(super) fn merge(a: &[(usize, usize)], b: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    out.extend_from_slice(a);
    out.extend_from_slice(b);
    out.sort_unstable();
    out
}

/// The ranges the parser reads: everything but the sorted ranges `blank` (none: all of it).
pub(super) fn included(blank: &[(usize, usize)], line_starts: &[usize], len: usize) -> Vec<Range> {
    let point = |byte: usize| {
        let row = line_starts.partition_point(|&s| s <= byte).saturating_sub(1);
        Point { row, column: byte - line_starts.get(row).copied().unwrap_or(0) }
    };
    let mut out = Vec::with_capacity(blank.len() + 1);
    let mut at = 0;
    for &(s, e) in blank {
        if s > at {
            out.push(Range { start_byte: at, end_byte: s, start_point: point(at), end_point: point(s) });
        }
        // A comment inside a skipped field initializer ends before the initializer does.
        at = at.max(e);
    }
    if !blank.is_empty() && at < len {
        out.push(Range { start_byte: at, end_byte: len, start_point: point(at), end_point: point(len) });
    }
    out
}

impl Parsed {
    /// Parses `text` without the interiors `blank` (sorted, disjoint, not empty) and without
    /// `skip` (comments and imports, outside any body): the parser never reads them, so those
    /// bodies are empty blocks and those comments and imports are not in the tree.
    pub(super) fn parse_skipping(
        path: &str,
        text: String,
        blank: Vec<(usize, usize)>,
        skip: Vec<(usize, usize)>,
    ) -> Parsed {
        let line_starts = crate::text::line_starts(&text);
        if !blank.is_empty() || !skip.is_empty() {
            let ranges = included(&merge(&blank, &skip), &line_starts, text.len());
            let tree = crate::java::source::parse_tree(text.as_bytes(), None, &ranges);
            // Error recovery reaches past the bodies (a syntax the grammar lacks can cost the
            // members after it), so a file that does not parse cleanly is parsed as it is.
            if !tree.root_node().has_error() {
                return Parsed { path: path.to_string(), text, tree, line_starts, unparsed: blank, skipped: skip };
            }
        }
        let tree = crate::java::source::parse_tree(text.as_bytes(), None, &[]);
        Parsed { path: path.to_string(), text, tree, line_starts, unparsed: Vec::new(), skipped: Vec::new() }
    }

    /// Parses the unparsed interiors that overlap `ranges` for real, reusing the rest of the tree
    /// (tree-sitter re-reads what the change of included ranges uncovers).
    pub(super) fn restore(&mut self, ranges: &[(usize, usize)]) {
        let before = self.unparsed.len();
        self.unparsed.retain(|r| !ranges.iter().any(|q| r.0 < q.1 && q.0 < r.1));
        if self.unparsed.len() == before {
            return;
        }
        let skipped = merge(&self.unparsed, &self.skipped);
        let ranges = included(&skipped, &self.line_starts, self.text.len());
        self.tree = crate::java::source::parse_tree(self.text.as_bytes(), Some(&self.tree), &ranges);
    }

    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    pub fn text_of(&self, node: Node<'_>) -> &str {
        &self.text[node.byte_range()]
    }

    /// 1-based line of a byte offset.
    pub fn line_of(&self, byte: usize) -> usize {
        match self.line_starts.binary_search(&byte) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }
}
