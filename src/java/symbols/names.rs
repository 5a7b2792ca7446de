//! Type names as written: a [`TypeName`] for a type node, with arrays and generics told apart.

use super::TypeName;
use crate::java::source::{FIELDS, Span};
use tree_sitter::Node;

/// A [`TypeName`] for a type node.
pub fn type_name(text: &str, node: Node<'_>) -> TypeName {
    let written = &text[node.byte_range()];
    let mut raw = String::with_capacity(written.len());
    let mut depth = 0u32;
    let mut dims = 0u8;
    let mut chars = written.char_indices().peekable();
    while let Some((_, ch)) = chars.next() {
        match ch {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            '[' if depth == 0 => dims = dims.saturating_add(1),
            '@' if depth == 0 => {
                // a type annotation: skip its name and any (arguments)
                while let Some(&(_, c)) = chars.peek() {
                    if c.is_alphanumeric() || c == '_' || c == '.' || c == '$' {
                        chars.next();
                    } else {
                        break;
                    }
                }
                if let Some(&(_, '(')) = chars.peek() {
                    let mut paren = 0;
                    for (_, c) in chars.by_ref() {
                        if c == '(' {
                            paren += 1;
                        } else if c == ')' {
                            paren -= 1;
                            if paren == 0 {
                                break;
                            }
                        }
                    }
                }
            }
            c if depth == 0 && !c.is_whitespace() && c != ']' => raw.push(c),
            _ => {}
        }
    }
    TypeName { text: squash(written), raw, dims }
}

pub(super) fn dims_of(s: &str) -> u8 {
    s.bytes().filter(|b| *b == b'[').count().min(255) as u8
}

/// Collapses runs of whitespace (and removes newlines) so names and types print on one line.
pub(super) fn squash(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() && !matches!(c, '.' | ',' | '>' | ')' | ']') && !out.ends_with(['.', '<', '('])
            {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

pub(super) fn is_dotted(n: Node<'_>) -> bool {
    match n.kind() {
        "identifier" | "this" => true,
        "field_access" => {
            n.child_by_field_id(FIELDS.object.get()).is_some_and(is_dotted)
                && n.child_by_field_id(FIELDS.field.get()).is_some_and(|f| f.kind() == "identifier")
        }
        _ => false,
    }
}

/// A span from byte `start` to `end`, with lines taken from `node` where the bytes coincide.
pub(super) fn span_between(node: Node<'_>, start: usize, end: usize) -> Span {
    let mut s = Span::of(node);
    s.start_byte = start;
    s.end_byte = end.max(start);
    s
}
