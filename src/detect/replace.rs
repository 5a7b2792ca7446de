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
    for op in &ops {
        if let similar::DiffOp::Equal { old_index, len, .. } = *op {
            common += len;
            named_common |= a[old_index..old_index + len].iter().any(|t| is_name_or_literal(t));
        }
    }
    let share = 2.0 * common as f64 / (a.len() + b.len()) as f64;
    if share < 0.5 || !(hunks_replaced(a, b, &ops, named_common) || one_replaced(a, b)) {
        return None;
    }
    Some(share)
}

/// Whether every hunk of the diff is a whole expression on both sides.
fn hunks_replaced(a: &[String], b: &[String], ops: &[similar::DiffOp], named_common: bool) -> bool {
    // Hunks that are one name for another, and whether every hunk is one.
    let mut renames: Vec<(&str, &str)> = Vec::new();
    let mut only_renames = true;
    for op in ops {
        match *op {
            similar::DiffOp::Equal { .. } => {}
            _ => {
                let (x, y) = (&a[op.old_range()], &b[op.new_range()]);
                // A pure insertion or deletion is a replaced expression only as `this .` or a cast.
                if x.is_empty() || y.is_empty() {
                    let z = if x.is_empty() { y } else { x };
                    if !(z == ["this", "."] || z == ["final"] || is_cast(z)) {
                        return false;
                    }
                    continue;
                }
                if !expression(x) || !expression(y) {
                    return false;
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
    // With nothing named in common, only one consistent rename (`a = a;` / `b = b;`) is the same statement.
    named_common || (only_renames && renames.len() == 1)
}

/// Whether the statements differ in one expression, which the token diff may have cut into
/// pieces that are not expressions each: `determineType ( project )` replaced by `Type .
/// forVersion ( project . getVersion ( ) . toString ( ) )` shares `project` and so leaves a bare
/// insertion behind, but between the common start and end the two are whole expressions. The
/// start must hold a name or literal (a statement rewritten from its first word is another one),
/// and the two expressions must share one (`builder . appendNull ( )` is not `builder .
/// addInputPage ( positions , page )`).
fn one_replaced(a: &[String], b: &[String]) -> bool {
    let start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let room = a.len().min(b.len()) - start;
    let end = a.iter().rev().zip(b.iter().rev()).take(room).take_while(|(x, y)| x == y).count();
    if !a[..start].iter().any(|t| is_name_or_literal(t)) {
        return false;
    }
    // The common end may have taken a bracket of the expression (`( project` + `) ) ;`): give
    // back a few tokens until both middles balance.
    (0..=end.min(3)).any(|back| {
        let end = end - back;
        let (x, y) = (&a[start..a.len() - end], &b[start..b.len() - end]);
        single(x) && single(y) && x.iter().any(|t| is_name_or_literal(t) && y.contains(t))
    })
}

/// One expression: balanced, with no statement structure and no comma outside its brackets
/// (two arguments changed are two replacements).
fn single(toks: &[String]) -> bool {
    let mut depth = 0i32;
    !toks.is_empty()
        && expression(toks)
        && toks.iter().all(|t| {
            match t.as_str() {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                "," if depth == 0 => return false,
                _ => {}
            }
            true
        })
}

/// Whether `a` and `b` assert the same thing in two assertion styles: JUnit's `assertTrue(msg,
/// x)` and AssertJ's `assertThat(x).describedAs(msg).isTrue()` (likewise false, null, not null
/// and equality), the checked expression equal but for a class qualifying a static call. Tests
/// moving to AssertJ rewrite their assertions while extracting helpers, and RefactoringMiner
/// still pairs the two.
pub fn same_assertion(a: &[String], b: &[String]) -> bool {
    // Called for most statement pairs that share nothing: `b` is not read unless `a` asserts.
    let Some(x) = assertion(a) else { return false };
    assertion(b).is_some_and(|y| x.0 == y.0 && unqualified(x.1) == unqualified(y.1) && x.2 == y.2)
}

/// (what is asserted, the checked expression, the expected value when there is one).
type Assertion<'t> = (&'static str, &'t [String], Option<&'t [String]>);

fn assertion(t: &[String]) -> Option<Assertion<'_>> {
    let (semicolon, t) = t.split_last()?;
    if semicolon != ";" {
        return None;
    }
    let start = t.iter().position(|x| x.starts_with("assert"))?;
    // Only `Assert .` or `Assertions .` (a class) may stand before the assertion.
    if !(start == 0 || start == 2 && t[1] == "." && t[0].starts_with(|c: char| c.is_uppercase())) {
        return None;
    }
    let name = t[start].as_str();
    let (args, close) = call_args(t, start + 1)?;
    let rest = &t[close + 1..];
    if name == "assertThat" {
        let [x] = args.as_slice() else { return None };
        let n = rest.len();
        // `. describedAs ( .. )` and `. as ( .. )` may come between; the last call says what.
        if n < 4 || rest[n - 4] != "." || rest[n - 2] != "(" || rest[n - 1] != ")" {
            let (last, _) = last_call(rest)?;
            let (eargs, _) = call_args(rest, last + 1)?;
            let [e] = eargs.as_slice() else { return None };
            return (rest[last] == "isEqualTo").then_some(("equal", x, Some(e)));
        }
        let what = match rest[n - 3].as_str() {
            "isTrue" => "true",
            "isFalse" => "false",
            "isNull" => "null",
            "isNotNull" => "not null",
            _ => return None,
        };
        return Some((what, x, None));
    }
    if !rest.is_empty() {
        return None;
    }
    let what = match name {
        "assertTrue" => "true",
        "assertFalse" => "false",
        "assertNull" => "null",
        "assertNotNull" => "not null",
        "assertEquals" => "equal",
        _ => return None,
    };
    if what == "equal" {
        // `assertEquals([msg,] expected, actual)`.
        let n = args.len();
        return (n == 2 || n == 3).then(|| ("equal", args[n - 1], Some(args[n - 2])));
    }
    // `assertTrue([msg,] x)`.
    let x = *args.last()?;
    (args.len() <= 2).then_some((what, x, None))
}

/// The top-level arguments of the call whose `(` is at `open`, and the index of its `)`.
fn call_args(t: &[String], open: usize) -> Option<(Vec<&[String]>, usize)> {
    if t.get(open).is_none_or(|x| x != "(") {
        return None;
    }
    let mut depth = 0i32;
    let mut args = Vec::new();
    let mut from = open + 1;
    for (i, x) in t.iter().enumerate().skip(open) {
        match x.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    if i > from {
                        args.push(&t[from..i]);
                    }
                    return Some((args, i));
                }
            }
            "," if depth == 1 => {
                args.push(&t[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// The name of the last `. name ( .. )` call of a chain's tail, when the tail ends with it.
fn last_call(rest: &[String]) -> Option<(usize, usize)> {
    let mut i = 0;
    let mut last = None;
    while i + 2 < rest.len() {
        if rest[i] != "." || rest[i + 2] != "(" {
            return None;
        }
        let (_, close) = call_args(rest, i + 2)?;
        last = Some((i + 1, close));
        i = close + 1;
    }
    (i == rest.len()).then_some(last?)
}

/// An expression with a leading class qualifier dropped (`Utils . f ( x )` → `f ( x )`).
fn unqualified(t: &[String]) -> &[String] {
    if t.len() > 3 && t[1] == "." && t[0].starts_with(|c: char| c.is_uppercase()) && t[3] == "(" { &t[2..] } else { t }
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
        // One call replaced by another that reaches the same argument further down.
        assert!(
            replaced(
                &toks("return new Release ( determineType ( project ) ) ;"),
                &toks("return new Release ( Type . forVersion ( project . getVersion ( ) . toString ( ) ) ) ;")
            )
            .is_some()
        );
    }

    #[test]
    fn assertions_in_two_styles_pair() {
        let junit = toks("assertFalse ( \"disjoint\" , Utils . isDisjoint ( input , 100 , 800 ) ) ;");
        let assertj = toks(
            "Assertions . assertThat ( isDisjoint ( input , 100 , 800 ) ) . describedAs ( \"non disjoint\" ) . isFalse ( ) ;",
        );
        assert!(same_assertion(&junit, &assertj));
        assert!(!same_assertion(&junit, &toks("assertThat ( isDisjoint ( input , 100 , 800 ) ) . isTrue ( ) ;")));
        assert!(!same_assertion(&junit, &toks("assertFalse ( isDisjoint ( input , 100 , 900 ) ) ;")));
        assert!(same_assertion(
            &toks("assertEquals ( 3 , list . size ( ) ) ;"),
            &toks("assertThat ( list . size ( ) ) . as ( \"size\" ) . isEqualTo ( 3 ) ;")
        ));
    }

    #[test]
    fn different_statements_do_not() {
        assert!(replaced(&toks("if ( x )"), &toks("if ( a . equals ( b ) )")).is_none());
        assert!(replaced(&toks("return x ;"), &toks("throw x ;")).is_none());
        assert!(replaced(&toks("a = b ;"), &toks("a ( b ) ;")).is_none());
        assert!(replaced(&toks("x = y ;"), &toks("p = q ;")).is_none());
        assert!(replaced(&toks("foo ( a , b , c , d ) ;"), &toks("bar ( w , x , y , z ) ;")).is_none());
        // Another call on the same receiver, sharing nothing with the first.
        assert!(
            replaced(&toks("builder . appendNull ( ) ;"), &toks("builder . addInputPage ( positions , page ) ;"))
                .is_none()
        );
        // Two places changed, the second not an expression on its own.
        assert!(
            replaced(
                &toks("return new Release ( f ( p ) , 1 ) ;"),
                &toks("return new Release ( g ( p . v ( ) ) , 2 , 3 ) ;")
            )
            .is_none()
        );
    }
}
