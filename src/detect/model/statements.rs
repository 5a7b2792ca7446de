//! Statements: a method body as RefactoringMiner splits it (leaf statements whole, composites as
//! their header and then their children), with the locals it declares.

use super::calls::{CALL_KINDS, collect_calls};
use super::normalise::{erase, tokens};
use super::{Call, Parsed, Stmt};
use crate::java::Span;
use crate::java::syntax::{is_comment, statements_of};
use tree_sitter::Node;

/// The statements and calls of a method body.
pub(super) type Body = (Vec<Stmt>, Vec<Call>, Vec<(String, String)>);

pub(super) fn body_of(source: &Parsed, (start, end): (usize, usize)) -> Body {
    let Some(mut node) = source.root().descendant_for_byte_range(start, end) else {
        return Body::default();
    };
    while node.byte_range() != (start..end) || !matches!(node.kind(), "block" | "constructor_body") {
        match node.parent() {
            Some(p) => node = p,
            None => return Body::default(),
        }
    }
    let mut stmts = Vec::new();
    for s in statements_of(node) {
        collect(source, s, &mut stmts);
    }
    let mut calls = Vec::new();
    let mut locals = Vec::new();
    collect_calls(source, node, &mut calls, &mut locals);
    for call in &mut calls {
        call.stmt = stmts
            .iter()
            .enumerate()
            .filter(|(_, s)| s.span.contains(&call.span))
            .min_by_key(|(_, s)| s.span.end_byte - s.span.start_byte)
            .map(|(i, _)| i);
    }
    (stmts, calls, locals)
}

/// The names a declaration (field, local variable) declares, each with its erased simple type.
pub(super) fn declared(f: &Parsed, node: Node<'_>) -> Vec<(String, String)> {
    let Some(ty) = node.child_by_field_name("type") else { return Vec::new() };
    let ty = erase(f.text_of(ty), 0);
    let mut out = Vec::new();
    let mut c = node.walk();
    for d in node.children_by_field_name("declarator", &mut c) {
        if let Some(n) = d.child_by_field_name("name") {
            out.push((f.text_of(n).to_string(), ty.clone()));
        }
    }
    out
}

pub(super) fn collect(src: &Parsed, node: Node<'_>, out: &mut Vec<Stmt>) {
    let field = |name: &str| node.child_by_field_name(name);
    match node.kind() {
        k if is_comment(k) => {}
        "block" | "constructor_body" => statements_of(node).into_iter().for_each(|s| collect(src, s, out)),
        "if_statement" => {
            let Some(then) = field("consequence") else { return leaf(src, node, node.end_byte(), out) };
            leaf(src, node, then.start_byte(), out);
            collect(src, then, out);
            if let Some(alt) = field("alternative") {
                collect(src, alt, out);
            }
        }
        "for_statement" | "enhanced_for_statement" | "while_statement" | "synchronized_statement" => {
            let Some(body) = field("body").or_else(|| node.named_child(node.named_child_count().saturating_sub(1)))
            else {
                return leaf(src, node, node.end_byte(), out);
            };
            leaf(src, node, body.start_byte(), out);
            collect(src, body, out);
        }
        "do_statement" => {
            if let Some(c) = field("condition") {
                leaf(src, c, c.end_byte(), out);
            }
            if let Some(body) = field("body") {
                collect(src, body, out);
            }
        }
        "try_statement" | "try_with_resources_statement" => {
            let mut c = node.walk();
            for child in node.named_children(&mut c) {
                match child.kind() {
                    "block" => {
                        leaf(src, node, child.start_byte(), out);
                        // Each resource declares a variable as a local declaration does, and is
                        // mapped as one (RefactoringMiner's try expressions): the header itself
                        // is trivial.
                        if let Some(spec) = node.child_by_field_name("resources") {
                            let mut c2 = spec.walk();
                            for r in spec.named_children(&mut c2).filter(|r| r.kind() == "resource") {
                                let text = format!("{};", src.text_of(r));
                                push_leaf(src, r, r.end_byte(), &text, out);
                            }
                        }
                        collect(src, child, out);
                    }
                    "catch_clause" => {
                        if let Some(b) = child.child_by_field_name("body") {
                            leaf(src, child, b.start_byte(), out);
                            collect(src, b, out);
                        }
                    }
                    "finally_clause" => {
                        let mut c2 = child.walk();
                        for b in child.named_children(&mut c2).filter(|b| b.kind() == "block") {
                            collect(src, b, out);
                        }
                    }
                    _ => {}
                }
            }
        }
        "switch_expression" | "switch_statement" => {
            let Some(body) = field("body") else { return leaf(src, node, node.end_byte(), out) };
            leaf(src, node, body.start_byte(), out);
            let mut c = body.walk();
            for group in body.named_children(&mut c) {
                let mut c2 = group.walk();
                for s in group.named_children(&mut c2) {
                    match s.kind() {
                        "switch_label" => leaf(src, s, s.end_byte(), out),
                        k if is_comment(k) => {}
                        _ => collect(src, s, out),
                    }
                }
            }
        }
        "expression_statement"
            if node.named_child(0).is_some_and(|e| e.kind() == "switch_expression")
                && node.named_child(0).and_then(|e| e.child_by_field_name("body")).is_some() =>
        {
            if let Some(e) = node.named_child(0) {
                collect(src, e, out);
            }
        }
        "labeled_statement" => {
            if let Some(s) = node.named_child(node.named_child_count().saturating_sub(1)) {
                collect(src, s, out);
            }
        }
        ";" | "empty_statement" => {}
        _ => {
            // Lambda bodies hold statements of their own, as in RefactoringMiner: the statement
            // is compared with each body elided, and the bodies' statements follow it.
            let blocks = lambda_blocks(node);
            if blocks.is_empty() {
                return leaf(src, node, node.end_byte(), out);
            }
            let mut text = String::new();
            let mut at = node.start_byte();
            for b in &blocks {
                text.push_str(&src.text[at..b.start_byte()]);
                text.push_str("{ }");
                at = b.end_byte();
            }
            text.push_str(&src.text[at..node.end_byte()]);
            push_leaf(src, node, node.end_byte(), &text, out);
            let inner = out.len();
            for b in blocks {
                if b.kind() == "class_body" {
                    let mut c = b.walk();
                    for member in b.named_children(&mut c) {
                        if let Some(body) =
                            member.child_by_field_name("body").filter(|_| member.kind() == "method_declaration")
                        {
                            collect(src, body, out);
                        }
                    }
                } else {
                    collect(src, b, out);
                }
            }
            out[inner..].iter_mut().for_each(|s| s.nested = true);
        }
    }
}

/// The block bodies of lambdas inside `node` and the bodies of anonymous classes (whose
/// methods' statements RefactoringMiner also maps), outermost only.
pub(super) fn lambda_blocks(node: Node<'_>) -> Vec<Node<'_>> {
    let kinds = &*CALL_KINDS;
    let mut out = Vec::new();
    let mut cursor = node.walk();
    loop {
        let n = cursor.node();
        let kind = n.kind_id();
        let mut descend = true;
        if kind == kinds.lambda_expression
            && let Some(body) = n.child_by_field_name("body").filter(|b| b.kind_id() == kinds.block)
        {
            out.push(body);
            descend = false;
        } else if kind == kinds.class_body {
            if n.parent().is_some_and(|p| p.kind_id() == kinds.object_creation_expression) {
                out.push(n);
            }
            descend = false;
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                out.sort_by_key(|b| b.start_byte());
                return out;
            }
        }
    }
}

/// A statement from the start of `node` to `end` (the start of a composite's body, or its end).
pub(super) fn leaf(src: &Parsed, node: Node<'_>, end: usize, out: &mut Vec<Stmt>) {
    push_leaf(src, node, end, &src.text[node.start_byte()..end], out)
}

pub(super) fn push_leaf(src: &Parsed, node: Node<'_>, end: usize, text: &str, out: &mut Vec<Stmt>) {
    let toks = tokens(text);
    if toks.is_empty() || toks == ["{"] {
        return;
    }
    let mut span = Span::of(node);
    span.end_byte = end;
    span.end_line = src.line_of(end.saturating_sub(1).max(node.start_byte()));
    let core = core_of(&toks);
    let literal = |t: &str| {
        matches!(t, "null" | "true" | "false" | "this")
            || t.starts_with(|c: char| c.is_ascii_digit())
            || (t.starts_with('"') && t.len() <= 8)
    };
    let trivial = toks.len() <= 2
        || (toks.len() == 3 && literal(&toks[1]))
        || matches!(toks[0].as_str(), "case" | "default" | "try" | "else");
    out.push(Stmt { text: toks.join(" "), toks, core, span, trivial, kind: element_kind(node.kind()), nested: false });
}

/// RefactoringMiner's name for a statement's kind.
pub(super) fn element_kind(kind: &str) -> &'static str {
    match kind {
        "expression_statement" => "EXPRESSION_STATEMENT",
        "local_variable_declaration" => "VARIABLE_DECLARATION_STATEMENT",
        "return_statement" => "RETURN_STATEMENT",
        "if_statement" => "IF_STATEMENT",
        "for_statement" => "FOR_STATEMENT",
        "enhanced_for_statement" => "ENHANCED_FOR_STATEMENT",
        "while_statement" => "WHILE_STATEMENT",
        "do_statement" | "parenthesized_expression" => "DO_STATEMENT",
        "try_statement" | "try_with_resources_statement" => "TRY_STATEMENT",
        "catch_clause" => "CATCH_CLAUSE",
        "switch_expression" | "switch_statement" => "SWITCH_STATEMENT",
        "switch_label" => "SWITCH_CASE",
        "throw_statement" => "THROW_STATEMENT",
        "synchronized_statement" => "SYNCHRONIZED_STATEMENT",
        "break_statement" => "BREAK_STATEMENT",
        "continue_statement" => "CONTINUE_STATEMENT",
        "assert_statement" => "ASSERT_STATEMENT",
        "yield_statement" => "YIELD_STATEMENT",
        "explicit_constructor_invocation" => "CONSTRUCTOR_INVOCATION",
        _ => "STATEMENT",
    }
}

/// The value a statement computes: `return e;`, `T v = e;`, `v = e;`, `e;` → `e`.
pub(crate) fn core_of(toks: &[String]) -> Option<String> {
    let end = if toks.last().is_some_and(|t| t == ";") { toks.len() - 1 } else { return None };
    if toks[0] == "return" {
        return (end > 1).then(|| toks[1..end].join(" "));
    }
    let mut depth = 0i32;
    for (i, t) in toks[..end].iter().enumerate() {
        match t.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "=" if depth == 0 && i > 0 => return (i + 1 < end).then(|| toks[i + 1..end].join(" ")),
            _ => {}
        }
    }
    Some(toks[..end].join(" "))
}
