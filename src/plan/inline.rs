//! Whether a method is worth inlining: a delegator (its body is one `return expr;` or one
//! simple statement, not an `if`, a loop, a `try` or a `synchronized` block) anywhere, or any
//! method with a single caller, score best. A method of several statements and several callers
//! is still inlined when the user asks for it by name (the user chose the refactoring; the
//! planner only fills in the details), at every call site, and the candidate says how much code
//! that copies.

use serde::Serialize;

use crate::java::syntax::{Kind, callable_body, enclosing_callable, statements_of};
use crate::java::{MethodId, Project};

/// Why a method is a good Inline Method candidate.
#[derive(Debug, Clone, Serialize)]
pub struct InlineAssessment {
    /// `delegator`, `single caller`, or `every caller` (several statements copied into several callers).
    pub shape: &'static str,
    pub statements: usize,
    pub callers: usize,
    pub score: f64,
    /// The body is one `return` of an operator expression: the method names a condition or a
    /// formula ([`returns_an_operator_expression`]).
    #[serde(skip)]
    pub names_an_expression: bool,
}

/// The assessment, or a sentence saying why the method is not a good candidate.
pub fn assess(project: &Project, method: MethodId) -> Result<InlineAssessment, String> {
    let decl = project.method(method);
    let name = &decl.name;
    if decl.is_constructor() {
        return Err("a constructor cannot be inlined; pick a method".into());
    }
    let source = project.method_source(method);
    let body = enclosing_callable(source.root(), decl.name_span.start_byte, decl.name_span.end_byte)
        .and_then(callable_body)
        .ok_or_else(|| format!("`{name}` has no body to inline (it is abstract or an interface method)"))?;
    if let Some(&sub) = project.overridden_by(method).first() {
        let class = project.qualified_name(project.owner(sub));
        return Err(format!(
            "`{name}` is overridden in {class}; inlining it would bypass the override and change behaviour"
        ));
    }
    let stmts = statements_of(body);
    let statements = stmts.len();
    let callers = project.callers(method).len();
    if callers == 0 {
        return Err(format!("`{name}` has no callers in the project, so there is nothing to inline it into"));
    }
    // One statement that holds a block (`synchronized`, `try`, `if`, a loop) is a whole method's
    // work, not a delegation.
    let names_an_expression = matches!(stmts[..], [s] if returns_an_operator_expression(s));
    let of = |shape, score| InlineAssessment { shape, statements, callers, score, names_an_expression };
    if statements == 1 && !stmts.iter().any(|s| COMPOUND.contains(&s.kind_name())) {
        return Ok(of("delegator", 1.0));
    }
    if callers == 1 {
        return Ok(of("single caller", 0.8));
    }
    Ok(of("every caller", 0.3))
}

/// Statements that hold blocks of statements.
const COMPOUND: [&str; 10] = [
    "if_statement",
    "for_statement",
    "enhanced_for_statement",
    "while_statement",
    "do_statement",
    "try_statement",
    "try_with_resources_statement",
    "synchronized_statement",
    "switch_expression",
    "block",
];

/// Whether a method's one statement is `return` of an operator expression (a comparison, a
/// condition, a formula: `return ch == commentStart;`, `return a != null ? a : b;`): its name says
/// what the expression means, the product of an Extract Method (or a decomposed conditional), not
/// an indirection that inlining removes. A body that returns one call is a delegator proper.
fn returns_an_operator_expression(stmt: tree_sitter::Node<'_>) -> bool {
    if stmt.kind_name() != "return_statement" {
        return false;
    }
    let mut value = stmt.named_child(0);
    while let Some(v) = value.filter(|v| v.kind_name() == "parenthesized_expression") {
        value = v.named_child(0);
    }
    value.is_some_and(|v| {
        matches!(
            v.kind_name(),
            "binary_expression" | "ternary_expression" | "instanceof_expression" | "unary_expression"
        )
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::java::project::tests::project;

    /// Issue 15: a method of several statements and several callers was refused; asked for by
    /// name, it is inlined at every call site, and the candidate says so.
    #[test]
    fn several_statements_and_callers_are_inlined_everywhere_when_asked() {
        let src = "package a;\n\nclass A {\n    int m(int x) {\n        int y = x * 2;\n        return y + 1;\n    }\n\n    int f() {\n        return m(1) + m(2);\n    }\n}\n";
        let (_d, p) = project(&[("src/a/A.java", src)]);
        let fid = p.file_id(Path::new("src/a/A.java")).unwrap();
        let m = p.methods_in(fid).unwrap().into_iter().find(|&m| p.method(m).name == "m").unwrap();
        let a = assess(&p, m).unwrap();
        assert_eq!((a.shape, a.statements, a.callers), ("every caller", 2, 2));
    }

    fn method(p: &Project, name: &str) -> MethodId {
        let fid = p.file_id(Path::new("src/a/A.java")).unwrap();
        p.methods_in(fid).unwrap().into_iter().find(|&m| p.method(m).name == name).unwrap()
    }

    /// One statement holding a block is a method's work, not a delegation; a named condition or
    /// formula is told apart from a method that returns one call.
    #[test]
    fn a_delegator_is_one_simple_statement_and_a_named_expression_is_not_one() {
        let src = "package a;\n\nclass A {\n    private final Object lock = new Object();\n    private int mark;\n\n    \
            boolean isMark(int c) {\n        return c == mark;\n    }\n\n    \
            int fallback(Integer v) {\n        return (v != null ? v : mark);\n    }\n\n    \
            int length(String s) {\n        return length(s, 0);\n    }\n\n    \
            int length(String s, int from) {\n        return s.length() - from;\n    }\n\n    \
            void print(String s) {\n        synchronized (lock) {\n            mark = s.length();\n            mark++;\n        }\n    }\n\n    \
            int use(String s) {\n        print(s);\n        return isMark(1) ? fallback(2) : length(s);\n    }\n}\n";
        let (_d, p) = project(&[("src/a/A.java", src)]);
        let shape = |name: &str| assess(&p, method(&p, name)).unwrap().shape;
        assert_eq!(shape("length"), "delegator");
        assert_eq!(shape("print"), "single caller", "a synchronized block is no delegation");
        let names = |name: &str| assess(&p, method(&p, name)).unwrap().names_an_expression;
        assert!(names("isMark"));
        assert!(names("fallback"), "parentheses around a condition");
        assert!(!names("length"), "returning one call is a delegator proper");
        assert!(!names("print"));
    }
}
