//! One Java file, parsed once: its text, its tree-sitter tree, and line arithmetic.
//!
//! Everything that reads Java goes through [`SourceFile`]: the project model, the engine, the
//! detector. The text is owned so that byte ranges from the tree can always be sliced back into
//! it; the tree is kept so no caller ever parses the same text twice.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use serde::Serialize;
use tree_sitter::{Node, Parser, Tree};

/// A grammar field id (`tree_sitter::FieldId`, which the crate does not export by name).
pub type FieldId = std::num::NonZeroU16;

use super::JavaError;

thread_local! {
    /// Parsers are costly to create and not `Sync`; one per thread is reused for every file.
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Ids of the grammar's fields the model reads. `child_by_field_name` compares the name with every
/// field name of the grammar on each call, which stood out in profiles of the symbol pass; ids are
/// looked up once.
pub struct Fields {
    pub arguments: FieldId,
    pub body: FieldId,
    pub constructor: FieldId,
    pub declarator: FieldId,
    pub dimensions: FieldId,
    pub field: FieldId,
    pub name: FieldId,
    pub object: FieldId,
    pub parameters: FieldId,
    pub right: FieldId,
    pub r#type: FieldId,
    pub type_parameters: FieldId,
}

pub static FIELDS: LazyLock<Fields> = LazyLock::new(|| {
    let language = language();
    // The names are the grammar's own; a missing one means a grammar version the code does not know.
    let id = |name: &str| language.field_id_for_name(name).expect("tree-sitter-java declares this field");
    Fields {
        arguments: id("arguments"),
        body: id("body"),
        constructor: id("constructor"),
        declarator: id("declarator"),
        dimensions: id("dimensions"),
        field: id("field"),
        name: id("name"),
        object: id("object"),
        parameters: id("parameters"),
        right: id("right"),
        r#type: id("type"),
        type_parameters: id("type_parameters"),
    }
});

/// Parses `text` with the thread's parser, reusing `old` where it can, reading only `included`
/// (sorted, disjoint byte ranges with their points; empty: all of it). Every parse in mantra goes
/// through this one pool of parsers.
pub fn parse_tree(text: &[u8], old: Option<&Tree>, included: &[tree_sitter::Range]) -> Tree {
    let tree = PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let parser = slot.get_or_insert_with(|| {
            let mut p = Parser::new();
            // The grammar is compiled into the binary; a version mismatch is a build bug.
            p.set_language(&language()).expect("tree-sitter-java grammar matches the tree-sitter runtime");
            p
        });
        // The ranges stay set on the parser until the next call, so every call sets its own. They
        // are sorted and disjoint by construction, the only thing tree-sitter checks; an empty
        // list means the whole text.
        parser.set_included_ranges(included).expect("sorted, disjoint included ranges");
        parser.parse(text, old)
    });
    // `parse` returns None only without a language or on cancellation, neither of which we set.
    tree.expect("tree-sitter parse with a language and no timeout")
}

/// The tree-sitter Java grammar.
pub fn language() -> tree_sitter::Language {
    tree_sitter_java::LANGUAGE.into()
}

/// A byte range with its 1-based line and 0-based column bounds (columns in bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
pub struct Span {
    pub start_byte: usize,
    pub end_byte: usize,
    pub start_line: usize,
    pub end_line: usize,
    pub start_col: usize,
    pub end_col: usize,
}

impl Span {
    pub fn of(node: Node<'_>) -> Span {
        let (s, e) = (node.start_position(), node.end_position());
        Span {
            start_byte: node.start_byte(),
            end_byte: node.end_byte(),
            start_line: s.row + 1,
            end_line: e.row + 1,
            start_col: s.column,
            end_col: e.column,
        }
    }

    pub fn contains(&self, other: &Span) -> bool {
        self.start_byte <= other.start_byte && other.end_byte <= self.end_byte
    }

    pub fn range(&self) -> std::ops::Range<usize> {
        self.start_byte..self.end_byte
    }
}

/// The first syntax error of a file, where a developer would look for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyntaxError {
    pub line: usize,
    pub column: usize,
    /// The source line holding the error, trimmed.
    pub snippet: String,
}

/// A parsed Java file. Cloning is cheap for the tree (reference-counted) and copies the text.
#[derive(Clone)]
pub struct SourceFile {
    /// The path as given (repository-relative inside a project).
    pub path: PathBuf,
    pub text: String,
    pub tree: Tree,
    line_starts: Vec<usize>,
}

impl std::fmt::Debug for SourceFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SourceFile").field("path", &self.path).field("len", &self.text.len()).finish()
    }
}

impl SourceFile {
    /// Parses `text`. Never fails on bad Java: tree-sitter recovers, and [`Self::syntax_error`] says where.
    pub fn parse(path: impl Into<PathBuf>, text: String) -> SourceFile {
        let tree = parse_tree(text.as_bytes(), None, &[]);
        let line_starts = crate::text::line_starts(&text);
        SourceFile { path: path.into(), text, tree, line_starts }
    }

    /// Parses `text`, a new version of this file's text, reusing the parse of this one where the
    /// two are the same (tree-sitter's incremental parse, over the one range between their common
    /// start and common end). Should the result hold a syntax error, the text is parsed afresh:
    /// error recovery may differ between the two ways, and a fresh parse is the one that counts.
    pub fn reparse(&self, text: String) -> SourceFile {
        let (old, new) = (self.text.as_bytes(), text.as_bytes());
        let mut start = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let room = old.len().min(new.len()) - start;
        let mut tail = old.iter().rev().zip(new.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
        while !text.is_char_boundary(new.len() - tail) || !self.text.is_char_boundary(old.len() - tail) {
            tail -= 1;
        }
        let point = |bytes: &[u8], at: usize| {
            let row = bytes[..at].iter().filter(|&&b| b == b'\n').count();
            let column = at - bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            tree_sitter::Point { row, column }
        };
        let edit = tree_sitter::InputEdit {
            start_byte: start,
            old_end_byte: old.len() - tail,
            new_end_byte: new.len() - tail,
            start_position: point(old, start),
            old_end_position: point(old, old.len() - tail),
            new_end_position: point(new, new.len() - tail),
        };
        let mut prior = self.tree.clone();
        prior.edit(&edit);
        let tree = parse_tree(new, Some(&prior), &[]);
        if tree.root_node().has_error() {
            return SourceFile::parse(self.path.clone(), text);
        }
        let line_starts = crate::text::line_starts(&text);
        SourceFile { path: self.path.clone(), text, tree, line_starts }
    }

    /// Reads and parses a file from disk. `display` is the path recorded in the model.
    pub fn read(disk_path: &Path, display: impl Into<PathBuf>) -> Result<SourceFile, JavaError> {
        let bytes =
            std::fs::read(disk_path).map_err(|source| JavaError::Io { path: disk_path.to_path_buf(), source })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
            JavaError::NotUtf8 { path: disk_path.to_path_buf(), line }
        })?;
        Ok(SourceFile::parse(display, text))
    }

    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    /// The source text of a node.
    pub fn text_of(&self, node: Node<'_>) -> &str {
        &self.text[node.byte_range()]
    }

    pub fn slice(&self, span: &Span) -> &str {
        &self.text[span.range()]
    }

    /// Number of lines (a trailing newline does not start a new line).
    pub fn line_count(&self) -> usize {
        if self.text.ends_with('\n') { self.line_starts.len() - 1 } else { self.line_starts.len() }
    }

    /// Byte offset where 1-based `line` starts.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.line_starts.get(line.checked_sub(1)?).copied()
    }

    /// The text of 1-based `line`, without its line break.
    pub fn line_text(&self, line: usize) -> Option<&str> {
        let start = self.line_start(line)?;
        let end = self.line_starts.get(line).map(|e| e - 1).unwrap_or(self.text.len());
        Some(self.text[start..end].trim_end_matches('\r'))
    }

    /// 1-based line of a byte offset.
    pub fn line_of(&self, byte: usize) -> usize {
        match self.line_starts.binary_search(&byte) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    /// The first ERROR or MISSING node in document order, if any.
    pub fn syntax_error(&self) -> Option<SyntaxError> {
        let root = self.root();
        if !root.has_error() {
            return None;
        }
        let node = first_error(root)?;
        let pos = node.start_position();
        Some(SyntaxError {
            line: pos.row + 1,
            column: pos.column + 1,
            snippet: self.line_text(pos.row + 1).unwrap_or("").trim().to_string(),
        })
    }
}

fn first_error(node: Node<'_>) -> Option<Node<'_>> {
    if node.is_missing() {
        return Some(node);
    }
    if node.is_error() {
        // An ERROR node over several lines holds what the parser read while it looked for a way
        // on (a class and method header before an unterminated string, say): the trouble is where
        // it gave up, at its last token, not where it began.
        let last = node.child(node.child_count().saturating_sub(1));
        return match last {
            Some(last) if node.start_position().row != node.end_position().row => {
                Some(first_error(last).unwrap_or(last))
            }
            _ => Some(node),
        };
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if (child.has_error() || child.is_missing())
            && let Some(found) = first_error(child)
        {
            return Some(found);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An incremental parse of a new text gives the tree a fresh parse gives: edits at the start,
    /// in the middle (two apart, as an extraction makes), at the end, next to multi-byte
    /// characters; and a text with a syntax error is parsed afresh.
    #[test]
    fn a_reparse_gives_the_tree_of_a_fresh_parse() {
        let old =
            "package a;\n\nclass B {\n  // é ü\n  int m(int x) {\n    int y = x * 2;\n    return y + 1;\n  }\n}\n";
        let news = [
            "package a;\n\nclass B {\n  // é ü\n  int m(int x) {\n    int y = twice(x);\n    return y + 1;\n  }\n\n  private int twice(int x) {\n    return x * 2;\n  }\n}\n",
            "import java.util.List;\npackage a;\n\nclass B {\n  // é ü\n  int m(int x) {\n    int y = x * 2;\n    return y + 1;\n  }\n}\n",
            "package a;\n\nclass B {\n  // ü é\n  int m(int x) {\n    int y = x * 2;\n    return y + 1;\n  }\n}\n",
            "package a;\n\nclass B {\n  // é ü\n  int m(int x) {\n    int y = x * 2;\n    return y + 1;\n  }\n}\nclass C {}\n",
            "package a;\n\nclass B {\n  // é ü\n  int m(int x) {\n    int y = x * 2;\n    return y + 1;\n  }\n",
            "",
            old,
        ];
        let before = SourceFile::parse("B.java", old.to_string());
        for new in news {
            let fresh = SourceFile::parse("B.java", new.to_string());
            let again = before.reparse(new.to_string());
            assert_eq!(again.text, new);
            assert_eq!(again.root().to_sexp(), fresh.root().to_sexp(), "{new}");
            assert_eq!(again.syntax_error(), fresh.syntax_error(), "{new}");
            assert_eq!(again.line_count(), fresh.line_count());
        }
    }

    /// Issue 14, defect 13: a syntax error was reported where the parser's ERROR node began (the
    /// class header, line 3) instead of where the file goes wrong (the unterminated string, line 5).
    #[test]
    fn a_syntax_error_is_reported_where_the_parser_gave_up() {
        let src = "package a;\n\nclass B {\n  void m() {\n    String s = \"abc;\n  }\n}\n";
        let e = SourceFile::parse("A.java", src.to_string()).syntax_error().unwrap();
        assert_eq!((e.line, e.snippet.as_str()), (5, "String s = \"abc;"));
    }

    #[test]
    fn lines_and_errors() {
        let f = SourceFile::parse("A.java", "class A {\n  void m() { int x = ; }\n}\n".to_string());
        assert_eq!(f.line_count(), 3);
        assert_eq!(f.line_text(2), Some("  void m() { int x = ; }"));
        assert_eq!(f.line_of(0), 1);
        assert_eq!(f.line_of(10), 2);
        let err = f.syntax_error().expect("has an error");
        assert_eq!(err.line, 2);
        let ok = SourceFile::parse("B.java", "class B {}".to_string());
        assert!(ok.syntax_error().is_none());
    }
}
