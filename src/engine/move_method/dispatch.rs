//! Code that runs the method without naming its class: a test framework, which calls fixtures
//! around the tests of their class, and a library supertype, whose methods the class may override
//! where mantra cannot see them. Moved, the method would silently stop being called there.

use super::{Mover, refuse};
use crate::engine::rename::family::{known_methods, known_override, matches_entry, overridable};
use crate::engine::{Reason, Refusal};
use crate::java::symbols::TypeKind;

impl Mover<'_> {
    /// A fixture (`@Before`, `@AfterClass`, ...) runs around the tests of its class and of its
    /// subclasses: it moves only once none is left to lose it (moved with `--methods`, the tests
    /// go first). The destination's tests gain it: that is what moving it asks for. Moved into a
    /// superclass of its class, it still runs around them all: the framework runs a superclass's
    /// fixtures for its subclasses' tests (before theirs, or after for `@After`, one of the orders
    /// fixtures of one class could already run in).
    pub(super) fn check_fixture(&self, annotation: &str) -> Result<(), Refusal> {
        let project = self.project;
        if self.destination_above().is_some() {
            return Ok(());
        }
        let left: Vec<String> = project
            .methods_of(self.source)
            .into_iter()
            .filter(|&m| m != self.method)
            .filter(|&m| project.is_test_method(m) && project.method(m).fixture_annotation().is_none())
            .map(|m| format!("`{}`", project.method(m).name))
            .collect();
        let subclasses: Vec<String> =
            project.subtypes(self.source).into_iter().map(|t| format!("`{}`", project.qualified_name(t))).collect();
        let (whose, list) = if !left.is_empty() {
            ("the tests left in its class", left)
        } else if !subclasses.is_empty() {
            ("the tests of the subclasses that inherit it", subclasses)
        } else {
            return Ok(());
        };
        let shown: Vec<String> = list.iter().take(3).cloned().collect();
        let more = if list.len() > 3 { format!(" and {} more", list.len() - 3) } else { String::new() };
        Err(refuse(
            Reason::FixtureMethod,
            format!(
                "{} is a fixture ({annotation}) that its framework runs around {whose} ({}{more}); moved, they would run without it. Move those tests with it (`--methods`), or copy the fixture to the destination by hand",
                self.name(),
                shown.join(", ")
            ),
        ))
    }

    /// A method that overrides one of `Object`'s or of a JDK (or JUnit 3) type mantra knows is
    /// refused: moved away, its class would stop overriding it. One that may override a method
    /// of a library supertype mantra cannot list gets a note (`Ok(Some)`), left to the build and
    /// the tests. A delegate left behind keeps the override (`--keep-delegate`).
    pub(super) fn check_library_override(&self) -> Result<Option<String>, Refusal> {
        let project = self.project;
        let decl = self.decl;
        if self.spec.keep_delegate || self.in_hierarchy_move() || !overridable(decl) {
            return Ok(None);
        }
        let owner = project.type_decl(self.source);
        let outside = project.external_supertype_names(self.source);
        let known = known_override(
            |e| matches_entry(e, &decl.name, decl),
            owner.kind == TypeKind::Enum,
            outside.iter().map(|t| t.simple()),
        );
        if let Some(what) = known {
            return Err(refuse(
                Reason::InHierarchy,
                format!(
                    "{} overrides `{what}`, outside the project; moved, its class would stop overriding it and the code that calls it there would run something else. Keep a delegate (`--keep-delegate`)",
                    self.name()
                ),
            ));
        }
        let unknown: Vec<String> =
            outside.iter().filter(|t| known_methods(t.simple()).is_none()).map(|t| format!("`{}`", t.text)).collect();
        // A test runs because of its annotation, not by overriding anything; a package-private
        // method overrides nothing of a library type's (in another package).
        let visible = decl.modifiers.iter().any(|m| m == "public" || m == "protected");
        if unknown.is_empty() || self.is_test() || !visible {
            return Ok(None);
        }
        Ok(Some(format!(
            "`{}` extends or implements {}, outside the project: if `{}` overrides one of its methods, the class no longer does (the build and the tests check it; `--keep-delegate` keeps it)",
            owner.display,
            unknown.join(", "),
            decl.signature()
        )))
    }
}
