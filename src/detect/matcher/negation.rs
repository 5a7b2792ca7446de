//! A negated condition written with the negation pushed inside (De Morgan's laws), so that
//! `!(s == null || s.isBlank())` and `s != null && !s.isBlank()` compare equal: the same test,
//! written the way the developer preferred while extracting or inlining it.
//!
//! Only exact equivalences of Java are used. `!(a || b)` is `!a && !b` and `!(a && b)` is
//! `!a || !b`, both evaluating `a` first and `b` only when the first does not decide, so side
//! effects and short-circuiting stay the same. An operand is negated only where the result is
//! exact: `==` and `!=` swap (also for NaN, where `!=` is by definition `!(==)`), `!e` loses its
//! `!`, and a primary (a name, a call chain, a parenthesised group) gains one. Relational
//! operators are left alone (`!(x < y)` is not `x >= y` for NaN), as is anything else.

use super::mapping::closing;

/// `tokens` with every negated group `! ( … )` that stands alone (the whole of a parenthesised
/// condition or argument, of a `return` or of an assignment's value) rewritten with its
/// negation pushed inside; `None` when there is none it can rewrite.
pub(super) fn pushed_inside(tokens: &[String]) -> Option<Vec<String>> {
    let mut out = tokens.to_vec();
    let mut changed = false;
    // Each rewrite removes one `!` and its group; a bound keeps a malformed input from looping.
    for _ in 0..8 {
        let Some((start, end, replacement)) = rewritable(&out) else { break };
        out.splice(start..=end, replacement);
        changed = true;
    }
    changed.then_some(out)
}

/// The first negated group of `t` that can be rewritten: the index of its `!`, of its closing
/// `)`, and what stands for the two.
fn rewritable(t: &[String]) -> Option<(usize, usize, Vec<String>)> {
    (0..t.len().saturating_sub(1)).find_map(|i| {
        if t[i] != "!" || t[i + 1] != "(" || i == 0 {
            return None;
        }
        let close = closing(t, i + 1)?;
        let before = t[i - 1].as_str();
        let after = t.get(close + 1).map(String::as_str);
        let alone = matches!(before, "(" | "return" | "=" | ",") && matches!(after, Some(")" | ";" | ","));
        if !alone {
            return None;
        }
        Some((i, close, negated(&t[i + 2..close])?))
    })
}

/// The tokens of `expr` at nesting depth zero (outside every pair of brackets), with their index.
fn top_level(expr: &[String]) -> impl Iterator<Item = (usize, &str)> {
    let mut depth = 0i32;
    expr.iter().enumerate().filter_map(move |(k, tok)| {
        let tok = tok.as_str();
        match tok {
            "(" | "[" | "{" => {
                depth += 1;
                None
            }
            ")" | "]" | "}" => {
                depth -= 1;
                None
            }
            _ => (depth == 0).then_some((k, tok)),
        }
    })
}

/// `!(expr)` with the negation pushed inside: a disjunction becomes the conjunction of the
/// negated operands and back; one operand is negated alone.
fn negated(expr: &[String]) -> Option<Vec<String>> {
    let ors = top_level(expr).filter(|(_, t)| *t == "||").count();
    let ands = top_level(expr).filter(|(_, t)| *t == "&&").count();
    let (split, join) = match (ors, ands) {
        (0, 0) => return operand_negated(expr),
        (_, 0) => ("||", "&&"),
        (0, _) => ("&&", "||"),
        // Mixed: the parts would need their own parentheses.
        _ => return None,
    };
    let cuts: Vec<usize> = top_level(expr).filter(|(_, t)| *t == split).map(|(k, _)| k).collect();
    let mut out = Vec::new();
    let mut from = 0;
    for end in cuts.into_iter().chain(std::iter::once(expr.len())) {
        if !out.is_empty() {
            out.push(join.to_string());
        }
        out.extend(operand_negated(&expr[from..end])?);
        from = end + 1;
    }
    Some(out)
}

/// Binary operators that bind less tightly than `==` and `!=`: an equality holding one of them
/// at depth zero is not a single comparison.
const LOOSER: [&str; 13] = ["&", "|", "^", "&&", "||", "?", ":", "=", "+=", "-=", "*=", "/=", "->"];

/// Every other binary operator (and `instanceof`, `::`, unary `-` and `~`): an operand holding
/// one at depth zero is not a primary that a `!` negates.
const TIGHTER: [&str; 15] = ["<", ">", "<=", ">=", "+", "-", "*", "/", "%", "instanceof", "<<", ">>", "~", "::", "!"];

/// One operand negated exactly, or `None`.
fn operand_negated(op: &[String]) -> Option<Vec<String>> {
    if op.is_empty() || top_level(op).any(|(_, t)| LOOSER.contains(&t)) {
        return None;
    }
    let equality: Vec<usize> = top_level(op).filter(|(_, t)| *t == "==" || *t == "!=").map(|(k, _)| k).collect();
    match equality[..] {
        // `a == b` → `a != b`: whatever binds tighter stays on its side.
        [k] => {
            let mut out = op.to_vec();
            out[k] = if op[k] == "==" { "!=" } else { "==" }.to_string();
            Some(out)
        }
        // `!e` → `e`, where `e` is a primary.
        [] if op[0] == "!" => {
            let rest = &op[1..];
            (!rest.is_empty() && !top_level(rest).any(|(_, t)| TIGHTER.contains(&t))).then(|| rest.to_vec())
        }
        // A primary `e` → `!e`.
        [] if !top_level(op).any(|(_, t)| TIGHTER.contains(&t)) => {
            Some(std::iter::once("!".to_string()).chain(op.iter().cloned()).collect())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::pushed_inside;
    use crate::detect::model::tokens;

    fn pushed(text: &str) -> Option<String> {
        pushed_inside(&tokens(text)).map(|t| t.join(" "))
    }

    #[test]
    fn a_negated_disjunction_becomes_the_conjunction_of_the_negations() {
        let want = tokens("if (s != null && !s.isBlank())").join(" ");
        assert_eq!(pushed("if (!(s == null || s.isBlank()))").as_deref(), Some(want.as_str()));
        let want = tokens("return a == b || !ok(x) || c;").join(" ");
        assert_eq!(pushed("return !(a != b && ok(x) && !c);").as_deref(), Some(want.as_str()));
        // What binds tighter than `==` stays on its side.
        let want = tokens("ok = a + 1 != b && x < y == c;").join(" ");
        assert_eq!(pushed("ok = !(a + 1 == b || x < y != c);").as_deref(), Some(want.as_str()));
        let want = tokens("f(x, !done)").join(" ");
        assert_eq!(pushed("f(x, !(done))").as_deref(), Some(want.as_str()));
    }

    #[test]
    fn what_is_not_an_exact_equivalence_is_left_alone() {
        // A relational operator: `!(x < y)` is not `x >= y` when either is NaN.
        assert_eq!(pushed("if (!(x < y || done))"), None);
        // Mixed operators, a looser operator in a comparison, an operand that is no primary.
        assert_eq!(pushed("if (!(a && b || c))"), None);
        assert_eq!(pushed("if (!(a & b == c || d))"), None);
        assert_eq!(pushed("if (!(x instanceof Foo || d))"), None);
        // Not standing alone: `c && !(a && b)` would need parentheses once pushed.
        assert_eq!(pushed("if (c && !(a && b))"), None);
        assert_eq!(pushed("if (done)"), None);
    }
}
