//! Whether a method is worth inlining: a delegator (its body is one `return expr;` or one
//! statement) anywhere, or any method with a single caller. Anything else would copy a body of
//! several statements into several places, which is the opposite of a refactoring.

use serde::Serialize;

use crate::java::syntax::{callable_body, enclosing_callable, statements_of};
use crate::java::{MethodId, Project};

/// Why a method is a good Inline Method candidate.
#[derive(Debug, Clone, Serialize)]
pub struct InlineAssessment {
    /// `delegator` or `single caller`.
    pub shape: &'static str,
    pub statements: usize,
    pub callers: usize,
    pub score: f64,
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
    let statements = statements_of(body).len();
    let callers = project.callers(method).len();
    if callers == 0 {
        return Err(format!("`{name}` has no callers in the project, so there is nothing to inline it into"));
    }
    if statements == 1 {
        return Ok(InlineAssessment { shape: "delegator", statements, callers, score: 1.0 });
    }
    if callers == 1 {
        return Ok(InlineAssessment { shape: "single caller", statements, callers, score: 0.8 });
    }
    Err(format!(
        "`{name}` has {statements} statements and {callers} callers; inlining it would copy its body into every caller. \
         Inline Method suits a delegator (a single `return expr;` or statement) or a method with a single caller"
    ))
}
