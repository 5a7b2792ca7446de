//! Runs of statements that are no refactoring to extract: a method made of them would only wrap
//! a call (a delegator), hand back a constant or a name, or glue a value to unrelated work. The
//! planner never proposes them.

use tree_sitter::Node;

use crate::engine::dataflow::{FragmentFlow, MethodFlow};
use crate::java::syntax::{Kind, walk};

/// Whether the run is one statement that is a single call (returned, assigned or alone):
/// extracting it only wraps the call in a delegator (`return createX();` becoming `return
/// helper();`), the opposite of a refactoring. Never a candidate.
pub fn single_call(stmts: &[Node<'_>]) -> bool {
    let [stmt] = stmts else { return false };
    let (mut calls, mut structure) = (0, false);
    // Decided once a second call or any structure is seen: the rest of a large statement (an
    // `if` holding a whole block) need not be walked.
    walk(*stmt, &mut |n| {
        if calls > 1 || structure {
            return false;
        }
        match n.kind_name() {
            "method_invocation" | "object_creation_expression" => calls += 1,
            "lambda_expression" | "binary_expression" | "ternary_expression" | "block" | "switch_expression" => {
                structure = true
            }
            _ => {}
        }
        true
    });
    calls == 1 && !structure
}

/// Whether the run is one statement without a call, an operator or any structure (`char c =
/// Chars.SPACE;`, `x = 0;`, `return total;`, `return -1;`, `i++;`): extracted, it would be a
/// method that only hands back a constant or a name. Or one `throw`: a method that only throws
/// leaves its caller's branch without its end (the caller's `return` or `throw` still needed
/// after the call). Never a candidate.
pub fn computes_nothing(stmts: &[Node<'_>]) -> bool {
    let [stmt] = stmts else { return false };
    if stmt.kind_name() == "throw_statement" {
        return true;
    }
    let mut something = false;
    walk(*stmt, &mut |n| {
        if something {
            return false;
        }
        // A signed number is a constant.
        if n.kind_name() == "unary_expression"
            && n.child_by_field_name("operand").is_some_and(|o| o.kind_name().ends_with("_literal"))
        {
            return false;
        }
        something = matches!(
            n.kind_name(),
            "method_invocation"
                | "object_creation_expression"
                | "array_creation_expression"
                | "lambda_expression"
                | "method_reference"
                | "binary_expression"
                | "unary_expression"
                | "ternary_expression"
                | "instanceof_expression"
                | "block"
                | "switch_expression"
                | "throw_statement"
                | "if_statement"
                | "for_statement"
                | "enhanced_for_statement"
                | "while_statement"
                | "do_statement"
                | "try_statement"
                | "try_with_resources_statement"
                | "synchronized_statement"
                | "labeled_statement"
        );
        !something
    });
    !something
}

/// Whether the run's one output is declared by its last statement from nothing the statements
/// before it declare or touch (`this.min = NaN; this.max = NaN; int rows = getRowCount();`): two
/// pieces of work glued together, and a method made of them is named after the second, which
/// only repeats a call the caller could make. Never a candidate (the run without its last
/// statement is one).
pub fn glued_value(stmts: &[Node<'_>], flow: &MethodFlow<'_>, ff: &FragmentFlow) -> bool {
    let ([_, .., last], [out]) = (stmts, ff.outputs.as_slice()) else { return false };
    if flow.vars[*out].declaration.id() != last.id() {
        return false;
    }
    let (before, at_last) = (stmts[0].start_byte()..last.start_byte(), last.start_byte()..last.end_byte());
    let declared = flow.vars.iter().enumerate().filter(|(_, v)| before.contains(&v.name_node.start_byte()));
    let touched: std::collections::HashSet<usize> =
        (flow.refs.iter().filter(|r| before.contains(&r.at)).map(|r| r.var)).chain(declared.map(|(i, _)| i)).collect();
    !flow.refs.iter().any(|r| at_last.contains(&r.at) && r.var != *out && touched.contains(&r.var))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::java::SourceFile;
    use crate::java::syntax::{callable_body, enclosing_callable, statements_of};

    /// The statements of `code` as the body of a method.
    fn with_body<T>(code: &str, f: impl Fn(&[Node<'_>]) -> T) -> (usize, T) {
        let file = SourceFile::parse("A.java", format!("class A {{ void m() {{ {code} }} }}"));
        let body = callable_body(enclosing_callable(file.root(), 20, 20).unwrap()).unwrap();
        let stmts = statements_of(body);
        (stmts.len(), f(&stmts))
    }

    #[test]
    fn a_single_call() {
        let stmts = |code: &str| with_body(code, single_call);
        assert_eq!(stmts("return create(a, b);"), (1, true));
        assert_eq!(stmts("Foo x = make();"), (1, true));
        assert_eq!(stmts("total += price(a) * count;"), (1, false));
        assert_eq!(stmts("log(a); log(b);"), (2, false));
    }

    #[test]
    fn a_value_glued_to_unrelated_work() {
        let glued = |code: &str, lines: std::ops::Range<usize>| {
            let file =
                SourceFile::parse("A.java", format!("class A {{ int m(java.util.List<String> l) {{ {code} }} }}"));
            let callable = enclosing_callable(file.root(), 20, 20).unwrap();
            let stmts = statements_of(callable_body(callable).unwrap());
            let flow = MethodFlow::analyze(callable, &file.text);
            let run = &stmts[lines];
            glued_value(run, &flow, &flow.fragment(run, &file.text))
        };
        assert!(glued("this.a = 0; this.b = 0; int rows = count(); return rows;", 0..3));
        assert!(!glued("this.a = 0; this.b = 0; int rows = count(); return rows;", 0..2), "no output");
        assert!(!glued("l.add(\"x\"); l.add(\"y\"); int n = l.size(); return n;", 0..3), "reads the list");
        assert!(!glued("int k = 2; int rows = count() * k; return rows;", 0..2), "reads what the run made");
        assert!(!glued("int rows = count(); return rows;", 0..1), "one statement");
    }

    #[test]
    fn a_statement_that_computes_nothing() {
        let nothing = |code: &str| with_body(code, computes_nothing).1;
        assert!(nothing("char c = Chars.SPACE;"));
        assert!(nothing("x = 0;"));
        assert!(nothing("i++;"));
        assert!(!nothing("int y = -x;"));
        assert!(!nothing("int y = a + b;"));
        assert!(nothing("throw new IllegalStateException(\"no \" + name);"), "only throws");
        assert!(nothing("return -1;"));
        assert!(!nothing("return -x;"));
        assert!(!nothing("return !done;"));
        assert!(!nothing("if (a) { b = 1; }"));
        assert!(!nothing("if (a) b = 1;"));
        assert!(!nothing("x = 0; y = 1;"));
    }
}
