//! Push Down: an overriding instance method moved to a subclass of its class (`class:a.Leaf`)
//! stays an instance method there, overriding the same method; its calls keep going through the
//! method it overrides, so no call site changes.
//!
//! That runs the same code only when every object that ran it is an instance of the
//! destination, and the engine checks it on the project's hierarchy:
//!
//! - the method overrides a method declared above its class (in the project, or `@Override` of a
//!   library type), so calls on the class's type still compile;
//! - its class is abstract, and every class of the project below it is the destination or below
//!   the destination: no other object inherited the method;
//! - neither the destination nor a class below it calls `super.name(…)` (the destination's
//!   call would reach the class above instead; a lower class's is refused as well);
//! - neither class is generic (type arguments would have to be mapped), and a package-private
//!   method stays in its package (in another one it would override nothing);
//! - what the body reads of its object is inherited by the destination; a field the destination
//!   (or a class between) declares under the same name would hide it and is refused; a private
//!   member is made package-private (protected across packages, with `--widen public`).

use super::{Mover, Vis, refuse};
use crate::engine::{Reason, Refusal};
use crate::java::project::TypeId;
use crate::java::symbols::TypeKind;

impl<'p> Mover<'p> {
    /// The subclass a `class:` destination names, when the move is a push-down: an instance
    /// method (not a test, which moves between test classes) that overrides another, to a class
    /// below its own.
    pub(super) fn push_down_target(&self) -> Option<TypeId> {
        if self.decl.is_static() || self.is_test() || self.decl.is_constructor() || self.pull_up.is_some() {
            return None;
        }
        let overrides = !self.project.overrides(self.method).is_empty() || self.decl.annotated_override();
        if !overrides {
            return None;
        }
        let super::Destination::Class(fqn) = &self.spec.to else { return None };
        let dest = self.project.find_type(fqn.trim())?;
        self.project.supertypes(dest).contains(&self.source).then_some(dest)
    }

    /// What a push-down into `dest` must satisfy beyond a move's own checks.
    pub(super) fn check_push_down(&self, dest: TypeId) -> Result<(), Refusal> {
        let project = self.project;
        let (dest_q, source_q) = (project.qualified_name(dest), project.qualified_name(self.source));
        let refused = |what: String| {
            refuse(Reason::InHierarchy, format!("{} cannot be pushed down into `{dest_q}`: {what}", self.name()))
        };
        if let Some(what) = self.generic_between(dest) {
            return Err(refused(what));
        }
        let source = project.type_decl(self.source);
        if source.kind != TypeKind::Class || !source.modifiers.iter().any(|m| m == "abstract") {
            return Err(refused(format!(
                "`{source_q}` is not abstract, so its own objects would run the inherited method instead; push down from an abstract class, or keep a delegate (`--keep-delegate`)"
            )));
        }
        let below_dest = project.subtypes(dest);
        if let Some(&other) = project.subtypes(self.source).iter().find(|&&t| t != dest && !below_dest.contains(&t)) {
            return Err(refused(format!(
                "`{}` extends `{source_q}` too and would no longer inherit it; push down into a class every subclass extends",
                project.qualified_name(other)
            )));
        }
        let package_private = Vis::of(&self.decl.modifiers, false) == Vis::Package;
        if package_private && project.package_of(dest) != project.package_of(self.source) {
            return Err(refused(
                "it is package-private, and in another package it would override nothing; make it protected first"
                    .to_string(),
            ));
        }
        let call = format!("super.{}(", self.decl.name);
        for t in std::iter::once(dest).chain(project.subtypes(dest)) {
            for m in project.methods_of(t) {
                let decl = project.method(m);
                let Some(body) = decl.body else { continue };
                let text = project.method_source(m).slice(&body);
                if text.replace(char::is_whitespace, "").contains(&call) {
                    return Err(refused(format!(
                        "`{}#{}` calls `{call}…)`, which would then reach the class above `{source_q}`",
                        project.qualified_name(t),
                        decl.name
                    )));
                }
            }
        }
        Ok(())
    }

    /// The classes from the destination up to the method's class, that class left out: a field
    /// one of them declares hides the inherited field of the same name from the pushed-down body.
    pub(super) fn push_down_between(&self, dest: TypeId) -> Vec<TypeId> {
        let project = self.project;
        std::iter::once(dest)
            .chain(project.supertypes(dest))
            .filter(|&t| t != self.source && project.supertypes(t).contains(&self.source))
            .collect()
    }
}
