//! Rename of a local variable or parameter: its declaration and every use the scoping rules bind
//! to it, in lambdas and in anonymous and local classes too, and nothing a nested declaration of
//! the same name shadows.
//!
//! Refused: a variable of the new name whose scope overlaps (Java forbids the redeclaration, or
//! the nested one would capture uses), and a use of a field of the new name inside the scope that
//! cannot be qualified to keep its meaning. A field of the enclosing class used by its simple name
//! is qualified (`this.total`, `Invoice.TOTAL`) instead.

use super::resolve::{Referent, Scopes, Use, Var, identifiers, use_of, var_name, var_scope};
use super::{check_identifier, syntax_refusal};
use crate::engine::{ChangeSet, Edit, Reason, Refusal};
use crate::java::project::Project;

/// Renames the variable `var` to `new`, or refuses.
pub fn rename_variable(project: &Project, var: Var, new: &str) -> Result<ChangeSet, Refusal> {
    let old = var_name(project, var).to_string();
    check_identifier(&old, new, "variable")?;
    let method = match var {
        Var::Param(m, _) | Var::Local(m, _) => m,
    };
    let file = method.file();
    let scopes = Scopes::of(project, file).ok_or_else(|| unreadable(project, file))?;
    let source = scopes.source;
    if let Some(err) = source.syntax_error() {
        return Err(syntax_refusal(source, err.line, &err.snippet));
    }
    let scope = var_scope(project, var);
    let decl = project.method(method);
    let root =
        source.root().descendant_for_byte_range(decl.span.start_byte, decl.span.end_byte).unwrap_or(source.root());
    let mut edits = Vec::new();
    for n in identifiers(source, root, &old) {
        if matches!(use_of(n), Use::Bare | Use::Declaration)
            && scope.contains(&n.start_byte())
            && scopes.bare(n.start_byte(), &old) == Referent::Var(var)
        {
            edits.push(Edit::replace(n.byte_range(), new));
        }
    }
    // The new name: a variable whose scope overlaps, or a field the renamed variable would hide.
    for n in identifiers(source, root, new) {
        let at = n.start_byte();
        let line = source.line_of(at);
        match (use_of(n), scopes.bare(at, new)) {
            (Use::Bare | Use::Declaration, Referent::Var(other)) => {
                let s = var_scope(project, other);
                if s.start < scope.end && scope.start < s.end {
                    return Err(Refusal::new(
                        Reason::NameClash,
                        format!(
                            "a variable named `{new}` is already in scope at {}:{line}; choose another name",
                            source.path.display()
                        ),
                    ));
                }
            }
            (Use::Bare, Referent::Field(owner, i)) if scope.contains(&at) => {
                let qualifier = qualifier_for(&scopes, at, owner, i).ok_or_else(|| {
                    Refusal::new(
                        Reason::NameCapture,
                        format!(
                            "`{new}` at {}:{line} means the field `{}.{new}`, which the renamed variable would \
                             hide there; choose another name",
                            source.path.display(),
                            project.type_decl(owner).display
                        ),
                    )
                })?;
                edits.push(Edit::insert(at, qualifier));
            }
            _ => {}
        }
    }
    let mut changes = ChangeSet::new();
    for e in edits {
        changes.edit(&source.path, &source.text, e);
    }
    Ok(changes)
}

/// What to write before a field's simple name at `at` so that it keeps naming the field when a
/// variable of its name comes into scope: `this.` in an instance member of the declaring class or
/// a subclass, `Owner.` for a static field; `None` when neither is sure (an inner class reading
/// an outer instance's field).
pub(super) fn qualifier_for(
    scopes: &Scopes<'_>,
    at: usize,
    owner: crate::java::project::TypeId,
    field: usize,
) -> Option<String> {
    let project = scopes.project;
    let f = &project.type_decl(owner).fields[field];
    let here = scopes.types[scopes.type_at(at)?];
    let decl = project.type_decl(here);
    if f.is_static() {
        let display = &project.type_decl(owner).display;
        return (!display.contains('$')).then(|| format!("{display}."));
    }
    let inherits = here == owner || project.supertypes(here).contains(&owner);
    let in_static = scopes.method_at(at).is_some_and(|m| project.method(m).is_static());
    (inherits && !decl.is_anonymous() && !in_static).then(|| "this.".to_string())
}

fn unreadable(project: &Project, file: crate::java::project::FileId) -> Refusal {
    Refusal::new(Reason::UnreadableFile, format!("cannot read {}", project.path(file).display()))
}
