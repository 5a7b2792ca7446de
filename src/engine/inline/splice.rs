//! Splicing: the inlined body rewritten and put in place of one call, and the declaration removed.

use super::callee::Method;
use crate::engine::edit::{self, Edit};
use crate::engine::variable_names::{descendants, is_declaration_name};
use crate::java::SourceFile;
use std::ops::Range;
use tree_sitter::Node;

/// Renders `range` of `text` with the edits that fall inside it; why not, when two of them
/// overlap (two rewrites of one piece of the body: a case the engine should refuse, not guess).
pub(super) fn render(text: &str, range: Range<usize>, edits: &[Edit]) -> Result<String, String> {
    // Edits inside a replaced or deleted range (a deleted `return v;`, a declaration prefix
    // taken from the caller) go with it.
    let covering: Vec<&Edit> = edits.iter().filter(|d| d.start < d.end).collect();
    let swallowed = |e: &Edit| {
        covering.iter().any(|d| {
            !std::ptr::eq(*d, e)
                && d.start <= e.start
                && e.end <= d.end
                && e.start < d.end
                && (d.start, d.end) != (e.start, e.end)
        })
    };
    // A deletion may reach back over the line break before the region's first statement.
    let inside: Vec<Edit> = edits
        .iter()
        .filter(|e| !swallowed(e))
        .filter(|e| e.end <= range.end && (e.start >= range.start || (e.end > range.start && e.replacement.is_empty())))
        .map(|e| Edit {
            start: e.start.max(range.start) - range.start,
            end: e.end - range.start,
            replacement: e.replacement.clone(),
        })
        .collect();
    edit::apply("inlined body", &text[range], &inside).map_err(|e| e.to_string())
}

pub(super) fn temps_names(temps: &[String]) -> Vec<String> {
    temps.iter().filter_map(|t| t.split(" = ").next()?.rsplit(' ').next().map(str::to_string)).collect()
}

/// `U v = init; ... return v;` where `v` is declared once at the top of the body with the
/// caller's type and never reassigned: the caller's variable can take `v`'s place.
pub(super) fn mergeable_return<'t>(m: &Method<'t>, caller_type: &str, _ctext: &str) -> Option<(Node<'t>, Node<'t>)> {
    let ret = *m.statements.last()?;
    if ret.kind() != "return_statement" || m.tail_returns.len() != 1 || m.returns.len() != 1 {
        return None;
    }
    let v = ret.named_child(0)?;
    if v.kind() != "identifier" {
        return None;
    }
    let vname = m.file.text_of(v);
    let vdecl = m.statements.iter().copied().find(|s| {
        s.kind() == "local_variable_declaration"
            && s.children_by_field_name("declarator", &mut s.walk()).count() == 1
            && s.child_by_field_name("declarator")
                .and_then(|d| d.child_by_field_name("name"))
                .is_some_and(|n| m.file.text_of(n) == vname)
    })?;
    let same_type = vdecl
        .child_by_field_name("type")
        .is_some_and(|t| crate::text::compact(m.file.text_of(t)) == crate::text::compact(caller_type));
    let declared_once =
        m.names.iter().filter(|n| is_declaration_name(**n) && m.file.text_of(**n) == vname).count() == 1;
    let reassigned = descendants(m.body).into_iter().any(|n| match n.kind() {
        "assignment_expression" => n.child_by_field_name("left").is_some_and(|l| m.file.text_of(l) == vname),
        "update_expression" => n.named_child(0).is_some_and(|l| m.file.text_of(l) == vname),
        _ => false,
    });
    (same_type && declared_once && !reassigned && !m.params.iter().any(|p| p.name == vname)).then_some((vdecl, ret))
}

/// The declaration with its Javadoc and comments, whole lines, and one adjacent blank line.
pub(super) fn declaration_range(file: &SourceFile, decl: Node<'_>) -> Range<usize> {
    let text = file.text.as_str();
    let mut start = decl.start_byte();
    let mut prev = decl.prev_sibling();
    while let Some(p) = prev {
        let between = &text[p.end_byte()..start];
        if p.is_extra() && between.trim().is_empty() && between.matches('\n').count() <= 1 {
            start = p.start_byte();
            prev = p.prev_sibling();
        } else {
            break;
        }
    }
    let line_start = text[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
    if text[line_start..start].trim().is_empty() {
        start = line_start;
    }
    let mut end = decl.end_byte();
    let after = &text[end..];
    if let Some(nl) = after.find('\n')
        && after[..nl].trim().is_empty()
    {
        end += nl + 1;
    }
    // one blank line: the one before, else the one after
    let before = &text[..start];
    if let Some(head) = before.strip_suffix('\n') {
        let prev_line_start = head.rfind('\n').map(|i| i + 1).unwrap_or(0);
        if before[prev_line_start..].trim().is_empty() && prev_line_start < start {
            return prev_line_start..end;
        }
    }
    let rest = &text[end..];
    if let Some(nl) = rest.find('\n')
        && rest[..nl].trim().is_empty()
    {
        end += nl + 1;
    }
    start..end
}
