//! Pull Up: an instance method moved to a superclass of its class (`class:a.Base`) stays an
//! instance method there, and its class and their subclasses inherit it, so no call site changes.
//!
//! Java's rules decide what may go up, and the engine checks them on the project's hierarchy:
//!
//! - what the body uses of its object must be the superclass's own (declared there or above);
//!   a member of the class it leaves is refused by name (pull that up first);
//! - `this` as a value would have another type: refused (`super`, as in every move, is refused by
//!   the body's rewrite);
//! - a method it overrides must be declared above the superclass, or `@Override` would not hold;
//! - every other subclass must keep running the code it ran: one that inherited a concrete
//!   version from above would inherit this one instead, and is named in the refusal;
//! - a private method becomes protected (package-private in the same package), unless a
//!   subclass declares the same signature, which would then override it.

use super::{Mover, Vis, refuse};
use crate::engine::{Reason, Refusal};
use crate::java::hierarchy::same_signature;
use crate::java::project::{MethodId, TypeId};
use crate::java::symbols::TypeKind;

impl<'p> Mover<'p> {
    /// The superclass a `class:` destination names, when the move is a pull-up: an instance
    /// method (not a test, which moves between test classes) to a class above its own.
    pub(super) fn pull_up_target(&self) -> Option<TypeId> {
        if self.decl.is_static() || self.is_test() || self.decl.is_constructor() {
            return None;
        }
        self.destination_above().filter(|&dest| self.project.type_decl(dest).kind == TypeKind::Class)
    }

    /// The type a `class:` destination names when it is above the method's class: a superclass,
    /// or an interface it implements.
    pub(super) fn destination_above(&self) -> Option<TypeId> {
        let super::Destination::Class(fqn) = &self.spec.to else { return None };
        let dest = self.project.find_type(fqn.trim())?;
        self.project.supertypes(self.source).contains(&dest).then_some(dest)
    }

    /// What a pull-up into `dest` must satisfy beyond a move's own checks.
    pub(super) fn check_pull_up(&self, dest: TypeId) -> Result<(), Refusal> {
        let project = self.project;
        let (dest_q, source_q) = (project.qualified_name(dest), project.qualified_name(self.source));
        let refused = |what: String| {
            refuse(Reason::InHierarchy, format!("{} cannot be pulled up into `{dest_q}`: {what}", self.name()))
        };
        if let Some(what) = self.generic_between(dest) {
            return Err(refused(what));
        }
        // What it overrides must be above the destination, or `@Override` would not hold there.
        let above: Vec<TypeId> = project.supertypes(dest);
        let overrides = project.overrides(self.method);
        if let Some(&o) = overrides.iter().find(|&&o| project.owner(o) == dest) {
            return Err(refuse(
                Reason::NameClash,
                format!(
                    "`{dest_q}` already declares `{}`{}; pull up by hand, replacing that declaration",
                    project.method(o).signature(),
                    if project.method(o).body.is_none() { " (abstract)" } else { "" }
                ),
            ));
        }
        if let Some(&o) = overrides.iter().find(|&&o| !above.contains(&project.owner(o))) {
            return Err(refused(format!(
                "it overrides `{}#{}`, which `{dest_q}` does not inherit",
                project.qualified_name(project.owner(o)),
                project.method(o).name
            )));
        }
        let annotated = self.decl.annotated_override();
        let external = annotated && overrides.is_empty();
        if external {
            let erase = |s: &String| s.split('<').next().unwrap_or(s).trim().to_string();
            let theirs: Vec<String> = project.external_supertypes(dest).iter().map(erase).collect();
            if let Some(missing) =
                project.external_supertypes(self.source).iter().map(erase).find(|e| !theirs.contains(e))
                && !is_object_method(&self.decl.name, self.decl.params.len())
            {
                return Err(refused(format!(
                    "it overrides a method of `{missing}`, outside the project, which `{dest_q}` does not extend"
                )));
            }
        }
        // Every other subclass must keep the code it runs.
        let concrete_above = external
            || overrides.iter().any(|&o| {
                let m = project.method(o);
                m.body.is_some() && !m.modifiers.iter().any(|x| x == "abstract")
            });
        let under_source: Vec<TypeId> = project.subtypes(self.source);
        let under_dest: Vec<TypeId> = project.subtypes(dest);
        let private = Vis::of(&self.decl.modifiers, false) == Vis::Private;
        for &c in under_dest.iter().filter(|&&c| c != self.source && !under_source.contains(&c)) {
            let own = self.same_method_in(c);
            if let Some(m) = own {
                let decl = project.method(m);
                if decl.is_static() || private {
                    return Err(refused(format!(
                        "`{}` declares `{}` too{}",
                        project.qualified_name(c),
                        decl.signature(),
                        if decl.is_static() {
                            " as a static method, which cannot hide an instance method"
                        } else {
                            ", which would then override it"
                        }
                    )));
                }
                continue;
            }
            let inherits_own = project
                .supertypes(c)
                .into_iter()
                .filter(|t| under_dest.contains(t) && *t != self.source && !under_source.contains(t))
                .any(|t| self.same_method_in(t).is_some());
            let class = matches!(project.type_decl(c).kind, TypeKind::Class | TypeKind::Anonymous);
            if concrete_above && class && !inherits_own {
                return Err(refused(format!(
                    "`{}` inherits `{}` from above `{dest_q}` and would run this code instead; override it there first, or pull up into a class only `{source_q}` extends",
                    project.qualified_name(c),
                    self.decl.name
                )));
            }
        }
        Ok(())
    }

    /// Why a move within the hierarchy between the method's class and `dest` is not made: one of
    /// them is generic, and its type parameters would have to be mapped.
    pub(super) fn generic_between(&self, dest: TypeId) -> Option<String> {
        let project = self.project;
        let generic = [dest, self.source].into_iter().find(|&t| !project.type_decl(t).type_params.is_empty())?;
        Some(format!(
            "`{}` is generic, and its type parameters would have to be mapped; mantra does not infer them",
            project.qualified_name(generic)
        ))
    }

    /// The method of `ty` with this method's signature.
    fn same_method_in(&self, ty: TypeId) -> Option<MethodId> {
        self.project.methods_of(ty).into_iter().find(|&m| same_signature(self.decl, self.project.method(m)))
    }

    /// The access a pulled-up method needs: its own, or for a private one what its callers need
    /// (a private method is not inherited, so at least package-private for any caller but the
    /// superclass itself, protected for a subclass in another package).
    pub(super) fn pull_up_access(&self, dest: TypeId, original: Vis) -> Vis {
        let project = self.project;
        if original != Vis::Private {
            return original;
        }
        project.callers(self.method).iter().map(|c| project.owner(c.method)).fold(Vis::Private, |v, caller| {
            let needed = match self.access_needed(caller, dest) {
                _ if caller == dest => Vis::Private,
                Vis::Public if project.supertypes(caller).contains(&dest) => Vis::Protected,
                other => other.max(Vis::Package),
            };
            v.max(needed)
        })
    }
}

/// `toString()`, `equals(Object)`, `hashCode()` and the other overridable methods every class
/// inherits from `Object`.
fn is_object_method(name: &str, params: usize) -> bool {
    matches!((name, params), ("toString" | "hashCode" | "clone" | "finalize", 0) | ("equals", 1))
}
