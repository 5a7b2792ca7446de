//! Layout of the code the engine writes: a body's unit of indentation, text re-indented for a new
//! place, and where a new member goes after an existing one. Plain text layout (line starts,
//! indentation, words) is in [`crate::text`].

use tree_sitter::Node;

use crate::java::syntax::statements_of;
use crate::text::line_indent;

/// One level of indentation as the method body uses it (a body statement's indent minus the
/// method's), falling back to a tab for tab-indented code and four spaces otherwise.
pub fn indent_unit(src: &str, body: Node<'_>, method_indent: &str) -> String {
    if let Some(first) = statements_of(body).first()
        && first.start_position().row != body.start_position().row
    {
        let indent = line_indent(src, first.start_byte());
        if let Some(unit) = indent.strip_prefix(method_indent)
            && !unit.is_empty()
        {
            return unit.to_string();
        }
    }
    if method_indent.starts_with('\t') { "\t".into() } else { "    ".into() }
}

/// Re-indents `text` (which starts after `base` indentation on its first line) to `indent`, as
/// lines: each line loses the base indentation and gains the new one; nothing else changes.
pub fn reindent_lines(text: &str, base: &str, indent: &str) -> Vec<String> {
    let text = text.replace("\r\n", "\n");
    let mut lines: Vec<String> = crate::text::reindent(&text, base, indent).split('\n').map(str::to_string).collect();
    lines[0].insert_str(0, indent);
    lines
}

/// Where to insert after a member ending at `end`: the end of its last line, unless code follows
/// on that line (then right after the member).
pub fn end_of_member_line(src: &str, end: usize) -> usize {
    let line_end = src[end..].find('\n').map_or(src.len(), |i| end + i);
    let rest = src[end..line_end].trim();
    if rest.is_empty() || rest.starts_with("//") {
        line_end - usize::from(src[..line_end].ends_with('\r'))
    } else {
        end
    }
}

/// The range to delete for a statement alone on its line(s): the line break before it too.
pub fn statement_deletion(text: &str, node: tree_sitter::Node<'_>) -> std::ops::Range<usize> {
    let (s, e) = (node.start_byte(), node.end_byte());
    let line_start = text[..s].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let alone_before = text[line_start..s].trim().is_empty();
    let rest = &text[e..];
    let line_end = rest.find('\n').map(|i| e + i).unwrap_or(text.len());
    let alone_after = text[e..line_end].trim().is_empty();
    if alone_before && alone_after && line_start > 0 { (line_start - 1)..e } else { s..e }
}
