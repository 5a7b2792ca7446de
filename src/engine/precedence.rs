//! Java operator precedence, to know when an expression moved into another context needs
//! parentheses.
//!
//! Inlining substitutes text: an argument replaces a parameter, a method's returned expression
//! replaces the call. `a + b` substituted for `p` in `p * 2` must become `(a + b) * 2`. Rather
//! than parenthesise everything (noisy diffs) or nothing (wrong code), compare the precedence of
//! the moved expression with the precedence its new position demands.

use tree_sitter::Node;

use super::variable_names::is_field;
use crate::java::syntax::is_literal;

/// Precedence levels, loosest first. `PRIMARY` binds tightest (names, literals, calls).
pub const LOOSE: u8 = 0;
const ASSIGNMENT: u8 = 1;
const TERNARY: u8 = 2;
const UNARY: u8 = 13;
const POSTFIX: u8 = 14;
pub const PRIMARY: u8 = 15;

fn binary_precedence(op: &str) -> u8 {
    match op {
        "||" => 3,
        "&&" => 4,
        "|" => 5,
        "^" => 6,
        "&" => 7,
        "==" | "!=" => 8,
        "<" | ">" | "<=" | ">=" => 9,
        "<<" | ">>" | ">>>" => 10,
        "+" | "-" => 11,
        "*" | "/" | "%" => 12,
        _ => LOOSE,
    }
}

fn operator<'s>(node: Node<'_>, text: &'s str) -> &'s str {
    node.child_by_field_name("operator").map(|o| &text[o.byte_range()]).unwrap_or("")
}

/// How tightly the expression `node` binds.
pub fn precedence(node: Node<'_>, text: &str) -> u8 {
    match node.kind() {
        "assignment_expression" => ASSIGNMENT,
        "ternary_expression" => TERNARY,
        "binary_expression" => binary_precedence(operator(node, text)),
        "instanceof_expression" => 9,
        "unary_expression" | "cast_expression" => UNARY,
        "update_expression" => {
            // `++x` is a prefix (unary) form, `x++` a postfix one.
            if node.child(0).is_some_and(|c| !c.is_named()) { UNARY } else { POSTFIX }
        }
        "array_creation_expression" => POSTFIX,
        "identifier"
        | "this"
        | "field_access"
        | "method_invocation"
        | "array_access"
        | "object_creation_expression"
        | "parenthesized_expression" => PRIMARY,
        _ if is_literal(node) => PRIMARY,
        // lambdas, method references, switch expressions: parenthesise outside loose positions
        _ => LOOSE,
    }
}

/// The least precedence an expression must have to stand where `node` stands now.
pub fn required_precedence(node: Node<'_>, text: &str) -> u8 {
    let Some(parent) = node.parent() else { return LOOSE };
    match parent.kind() {
        "parenthesized_expression"
        | "argument_list"
        | "variable_declarator"
        | "return_statement"
        | "expression_statement"
        | "array_initializer"
        | "lambda_expression"
        | "enhanced_for_statement"
        | "throw_statement"
        | "yield_statement"
        | "element_value_pair"
        | "assert_statement"
        | "resource"
        | "dimensions_expr"
        | "switch_label" => LOOSE,
        "array_access" if is_field(parent, "index", node) => LOOSE,
        "assignment_expression" if is_field(parent, "right", node) => LOOSE,
        "ternary_expression" if is_field(parent, "condition", node) => TERNARY + 1,
        "ternary_expression" => TERNARY,
        "binary_expression" => {
            let p = binary_precedence(operator(parent, text));
            // Left-associative: the right operand must bind strictly tighter (`a - (b - c)`,
            // and `s + (a + b)` when `s` is a String).
            if is_field(parent, "left", node) { p } else { p + 1 }
        }
        "instanceof_expression" => 10,
        "unary_expression" | "cast_expression" => UNARY,
        _ => PRIMARY,
    }
}

/// `replacement` (an expression of precedence `prec`) made fit to replace `node`.
pub fn fit(node: Node<'_>, text: &str, replacement: &str, prec: u8) -> String {
    let needed = required_precedence(node, text);
    // `-` followed by `-1` would lex as `--`.
    let sign_clash =
        node.parent().is_some_and(|p| p.kind() == "unary_expression") && replacement.starts_with(['-', '+']);
    if prec < needed || sign_clash { format!("({replacement})") } else { replacement.to_string() }
}

/// Positions where a lambda or method reference gets its target type from the context, so it can
/// be substituted there without a cast.
pub fn is_target_typed(node: Node<'_>) -> bool {
    node.parent().is_some_and(|p| match p.kind() {
        "argument_list" | "variable_declarator" | "return_statement" => true,
        "assignment_expression" => is_field(p, "right", node),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variable_names::descendants;
    use crate::java::SourceFile;

    fn fit_for(src: &str, name: &str, replacement_src: &str) -> String {
        let f = SourceFile::parse("T.java", format!("class T {{ Object m() {{ return {src}; }} }}"));
        let node =
            descendants(f.root()).into_iter().find(|n| n.kind() == "identifier" && f.text_of(*n) == name).unwrap();
        let r = SourceFile::parse("R.java", format!("class R {{ Object m() {{ return {replacement_src}; }} }}"));
        let ret = descendants(r.root()).into_iter().find(|n| n.kind() == "return_statement").unwrap();
        let expr = ret.named_child(0).unwrap();
        fit(node, &f.text, r.text_of(expr), precedence(expr, &r.text))
    }

    #[test]
    fn parenthesises_only_where_needed() {
        assert_eq!(fit_for("p * 2", "p", "a + b"), "(a + b)");
        assert_eq!(fit_for("2 * p", "p", "a * b"), "(a * b)");
        assert_eq!(fit_for("p * 2", "p", "a * b"), "a * b");
        assert_eq!(fit_for("p + 2", "p", "a.b(c)"), "a.b(c)");
        assert_eq!(fit_for("p.x()", "p", "(T) o"), "((T) o)");
        assert_eq!(fit_for("f(p)", "p", "a = b"), "a = b");
        assert_eq!(fit_for("-p", "p", "-1"), "(-1)");
        assert_eq!(fit_for("c ? p : 1", "p", "x ? y : z"), "x ? y : z");
        assert_eq!(fit_for("p ? 1 : 2", "p", "x ? y : z"), "(x ? y : z)");
        assert_eq!(fit_for("!p", "p", "a && b"), "(a && b)");
    }
}
