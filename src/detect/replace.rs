//! Statements that differ only by replaced expressions, after RefactoringMiner's replacement
//! heuristics: `this.size = size;` and `this.capacity = capacity;` are one statement with a
//! variable renamed; `encoder.set(v);` and `getEncoder().set(v);` one with a field read replaced
//! by a call. Refactorings rarely move code without touching it (the extracted method's
//! parameters get new names, a field becomes a getter, a literal becomes a parameter), so a
//! detector that pairs only equal statements misses most real extractions and inlinings.
//!
//! Two statements pair when a token diff leaves only hunks that are whole expressions on both
//! sides (identifiers, literals, calls, operators, balanced brackets; never a `;`, an assignment,
//! a brace or a statement keyword), and what they share is a real part of both: at least one name
//! or literal, and half of their tokens.

/// Whether `a` and `b` are one statement with expressions replaced; their shared share of tokens
/// (`2·common / (|a| + |b|)`) when they are.
pub fn replaced(a: &[String], b: &[String]) -> Option<f64> {
    if a.is_empty() || b.is_empty() || a[0] != b[0] && !(starts_expression(&a[0]) && starts_expression(&b[0])) {
        return None;
    }
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, a, b);
    let mut common = 0usize;
    let mut named_common = false;
    // Hunks that are one name for another, and whether every hunk is one.
    let mut renames: Vec<(&str, &str)> = Vec::new();
    let mut only_renames = true;
    for op in &ops {
        match *op {
            similar::DiffOp::Equal { old_index, len, .. } => {
                common += len;
                named_common |= a[old_index..old_index + len].iter().any(|t| is_name_or_literal(t));
            }
            _ => {
                let (x, y) = (&a[op.old_range()], &b[op.new_range()]);
                // A pure insertion or deletion is a replaced expression only as `this .` or a cast.
                if x.is_empty() || y.is_empty() {
                    let z = if x.is_empty() { y } else { x };
                    if !(z == ["this", "."] || z == ["final"] || is_cast(z)) {
                        return None;
                    }
                    continue;
                }
                if !expression(x) || !expression(y) {
                    return None;
                }
                if x.len() == 1 && y.len() == 1 && is_name_or_literal(&x[0]) && is_name_or_literal(&y[0]) {
                    if !renames.contains(&(x[0].as_str(), y[0].as_str())) {
                        renames.push((&x[0], &y[0]));
                    }
                } else {
                    only_renames = false;
                }
            }
        }
    }
    let share = 2.0 * common as f64 / (a.len() + b.len()) as f64;
    // With nothing named in common, only one consistent rename (`a = a;` / `b = b;`) is the same statement.
    let anchored = named_common || (only_renames && renames.len() == 1);
    (anchored && share >= 0.5).then_some(share)
}

/// A first token that can start an expression statement or a declaration (a name).
fn starts_expression(t: &str) -> bool {
    t.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$') && !is_keyword(t)
}

fn is_name_or_literal(t: &str) -> bool {
    (t.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == '"' || c == '\'')) && !is_keyword(t)
}

pub(super) fn is_keyword(t: &str) -> bool {
    matches!(
        t,
        "return"
            | "if"
            | "else"
            | "for"
            | "while"
            | "do"
            | "try"
            | "catch"
            | "finally"
            | "throw"
            | "switch"
            | "case"
            | "default"
            | "break"
            | "continue"
            | "assert"
            | "synchronized"
            | "yield"
            | "class"
            | "final"
    )
}

/// A run of tokens that can be (part of) an expression: no statement structure in it, brackets balanced.
fn expression(toks: &[String]) -> bool {
    let mut depth = 0i32;
    for t in toks {
        match t.as_str() {
            "(" | "[" => depth += 1,
            ")" | "]" => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            ";" | "{" | "}" | "=" | "+=" | "-=" | "*=" | "/=" => return false,
            t if is_keyword(t) => return false,
            _ => {}
        }
    }
    depth == 0
}

/// `( Type )`, `( a . B < C > )`.
fn is_cast(toks: &[String]) -> bool {
    toks.len() >= 3
        && toks[0] == "("
        && toks[toks.len() - 1] == ")"
        && toks[1..toks.len() - 1]
            .iter()
            .all(|t| matches!(t.as_str(), "." | "<" | ">" | "," | "?" | "[" | "]") || starts_expression(t))
        && toks[1].starts_with(|c: char| c.is_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn renamed_variables_and_replaced_calls_pair() {
        assert!(replaced(&toks("maxFrameSize = maxFrameSize ;"), &toks("maxFrameLength = maxFrameLength ;")).is_some());
        assert!(replaced(&toks("x . maxFrameSize = size ;"), &toks("x . maxFrameLength = length ;")).is_some());
        assert!(
            replaced(&toks("hpackEncoder . setMax ( value ) ;"), &toks("getHpackEncoder ( ) . setMax ( value ) ;"))
                .is_some()
        );
        assert!(replaced(&toks("return a . get ( k ) ;"), &toks("return this . a . get ( k ) ;")).is_some());
    }

    #[test]
    fn different_statements_do_not() {
        assert!(replaced(&toks("if ( x )"), &toks("if ( a . equals ( b ) )")).is_none());
        assert!(replaced(&toks("return x ;"), &toks("throw x ;")).is_none());
        assert!(replaced(&toks("a = b ;"), &toks("a ( b ) ;")).is_none());
        assert!(replaced(&toks("x = y ;"), &toks("p = q ;")).is_none());
        assert!(replaced(&toks("foo ( a , b , c , d ) ;"), &toks("bar ( w , x , y , z ) ;")).is_none());
    }
}
