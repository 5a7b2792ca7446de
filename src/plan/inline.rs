//! Whether a method is worth inlining: a delegator (its body is one `return expr;` or one
//! statement) anywhere, or any method with a single caller, score best. A method of several
//! statements and several callers is still inlined when the user asks for it by name (the user
//! chose the refactoring; the planner only fills in the details), at every call site, and the
//! candidate says how much code that copies.

use serde::Serialize;

use crate::java::syntax::{callable_body, enclosing_callable, statements_of};
use crate::java::{MethodId, Project};

/// Why a method is a good Inline Method candidate.
#[derive(Debug, Clone, Serialize)]
pub struct InlineAssessment {
    /// `delegator`, `single caller`, or `every caller` (several statements copied into several callers).
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
    Ok(InlineAssessment { shape: "every caller", statements, callers, score: 0.3 })
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
}
