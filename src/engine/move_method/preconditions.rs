//! What a move must satisfy before anything is rewritten: the method itself, the destination,
//! the members and callees the body uses, visibility, and name clashes in the destination.

use super::body::{Member, Rewriter, Shape};
use super::{Destination, Mover, Via, Vis, Widening, refuse};
use crate::engine::{Edit, Reason, Refusal};
use crate::java::calls::Resolution;
use crate::java::project::{MethodId, TypeId};
use crate::java::symbols::TypeKind;
use std::collections::BTreeSet;

impl<'p> Mover<'p> {
    /// What the method itself must be.
    pub(super) fn check_method(&self) -> Result<(), Refusal> {
        let project = self.project;
        let decl = self.decl;
        if let Some(err) = self.file.syntax_error() {
            return Err(refuse(
                Reason::SyntaxError,
                format!(
                    "{} has a syntax error on line {} (`{}`); fix it first",
                    self.file.path.display(),
                    err.line,
                    err.snippet
                ),
            ));
        }
        if decl.is_constructor() {
            return Err(refuse(Reason::Constructor, "a constructor cannot move; move a method instead"));
        }
        if decl.body.is_none() || decl.modifiers.iter().any(|m| m == "abstract" || m == "native") {
            return Err(self.no_body());
        }
        let owner = project.type_decl(self.source);
        if owner.is_anonymous() || owner.local {
            return Err(refuse(
                Reason::LocalClass,
                format!(
                    "{} belongs to a local or anonymous class, which other classes cannot name; move the class out first",
                    self.name()
                ),
            ));
        }
        if let Some(annotation) = decl.fixture_annotation() {
            self.check_fixture(annotation)?;
        }
        let overrides = project.overrides(self.method);
        let overridden = project.overridden_by(self.method);
        let in_hierarchy = !overrides.is_empty() || !overridden.is_empty() || decl.annotated_override();
        // Pulled up, it stays in the hierarchy: [`super::pull_up`] checks what that needs. A
        // delegate left behind keeps overriding (and being overridden), and calls keep going
        // through it.
        if in_hierarchy && !self.in_hierarchy_move() && !self.spec.keep_delegate {
            let other = overrides
                .first()
                .or(overridden.first())
                .map(|m| format!(" (see {}#{})", project.qualified_name(project.owner(*m)), project.method(*m).name))
                .unwrap_or_else(|| " (it is annotated @Override)".into());
            return Err(refuse(
                Reason::InHierarchy,
                format!(
                    "{} overrides or is overridden by another method{other}; moving it would change which code runs. Keep a delegate (`--keep-delegate`), pull it up into a superclass or push it down into a subclass (`class:` naming one), or move a method outside the hierarchy",
                    self.name()
                ),
            ));
        }
        // Pulled up, it still locks the same object.
        if decl.modifiers.iter().any(|m| m == "synchronized") && !self.in_hierarchy_move() {
            return Err(refuse(
                Reason::SynchronizedMethod,
                format!(
                    "{} is synchronized on its object; in another class it would lock a different monitor",
                    self.name()
                ),
            ));
        }
        Ok(())
    }

    /// Which class the spec names, and how the method gets there.
    pub(super) fn destination(&self) -> Result<(Via<'p>, TypeId), Refusal> {
        let project = self.project;
        let decl = self.decl;
        if self.is_test() && !matches!(self.spec.to, Destination::Class(_)) {
            return Err(refuse(
                Reason::TestMethodChannel,
                format!(
                    "{} is a test: in the class of a parameter or field its framework would no longer run it; move it to another test class with `class:FQN`",
                    self.name()
                ),
            ));
        }
        match &self.spec.to {
            Destination::Param(name) => {
                let Some(index) = decl.params.iter().position(|p| p.name == *name) else {
                    let names: Vec<&str> = decl.params.iter().map(|p| p.name.as_str()).collect();
                    return Err(refuse(
                        Reason::NoSuchParameter,
                        format!(
                            "{} has no parameter `{name}` (it has: {})",
                            self.name(),
                            if names.is_empty() { "none".into() } else { names.join(", ") }
                        ),
                    ));
                };
                let param = &decl.params[index];
                if param.varargs || param.ty.dims > 0 || param.generic {
                    return Err(refuse(
                        Reason::DestinationNotInProject,
                        format!("parameter `{name}` has type `{}`, which is not a class of the project", param.ty.text),
                    ));
                }
                let dest = self.project_type(&param.ty.raw, &format!("parameter `{name}`"))?;
                if param.ty.text.contains('<') {
                    return Err(refuse(
                        Reason::GenericDestination,
                        format!(
                            "parameter `{name}` has the parameterised type `{}`; inside the class `this` would have the raw type variables, not these arguments",
                            param.ty.text
                        ),
                    ));
                }
                Ok((Via::Param { index, name: name.clone() }, dest))
            }
            Destination::Field(name) => {
                if decl.is_static() {
                    return Err(refuse(
                        Reason::StaticMethodViaField,
                        format!(
                            "{} is static and cannot reach the field `{name}`; use `class:FQN` or `param:NAME`",
                            self.name()
                        ),
                    ));
                }
                let Some(field) = project.type_decl(self.source).fields.iter().find(|f| f.name == *name) else {
                    let names: Vec<&str> =
                        project.type_decl(self.source).fields.iter().map(|f| f.name.as_str()).collect();
                    return Err(refuse(
                        Reason::NoSuchField,
                        format!(
                            "{} declares no field `{name}` (it has: {})",
                            project.qualified_name(self.source),
                            if names.is_empty() { "none".into() } else { names.join(", ") }
                        ),
                    ));
                };
                if field.is_static() {
                    return Err(refuse(
                        Reason::StaticField,
                        format!("the field `{name}` is static; move the method with `class:FQN` instead"),
                    ));
                }
                if field.ty.dims > 0 {
                    return Err(refuse(
                        Reason::DestinationNotInProject,
                        format!("the field `{name}` has type `{}`, which is not a class of the project", field.ty.text),
                    ));
                }
                let dest = self.project_type(&field.ty.raw, &format!("field `{name}`"))?;
                if field.ty.text.contains('<') {
                    return Err(refuse(
                        Reason::GenericDestination,
                        format!(
                            "the field `{name}` has the parameterised type `{}`; moving into a generic class is not supported",
                            field.ty.text
                        ),
                    ));
                }
                Ok((Via::Field { field }, dest))
            }
            Destination::Class(fqn) => {
                // An instance method becomes a static method of the destination; what it used of
                // its object comes through a new first parameter (see `Via::Static`).
                if !decl.is_static() && project.type_decl(self.source).kind == TypeKind::Interface {
                    return Err(refuse(
                        Reason::InstanceMethod,
                        format!(
                            "{} is a default method of an interface; its implementations may rely on it, so it does not move",
                            self.name()
                        ),
                    ));
                }
                let dest = project.find_type(fqn.trim()).ok_or_else(|| {
                    refuse(
                        Reason::DestinationNotInProject,
                        format!("`{fqn}` is not a class of this project (give its fully qualified name, e.g. `com.acme.Util`)"),
                    )
                })?;
                Ok((Via::Static, dest))
            }
        }
    }

    pub(super) fn project_type(&self, raw: &str, what: &str) -> Result<TypeId, Refusal> {
        let project = self.project;
        project.resolve_type(self.method.file(), Some(self.source.index()), raw).ok_or_else(|| {
            refuse(
                Reason::DestinationNotInProject,
                format!("the {what} has type `{raw}`, which is not a class of this project (JDK and library classes cannot be edited)"),
            )
        })
    }

    /// A factory that JUnit finds by name (`@MethodSource`) moves only where each test naming it
    /// still finds it: into the test's class or a superclass of it (after the tests, with
    /// `--methods`), or with a delegate left behind.
    fn check_method_source(&self, dest: TypeId) -> Result<(), Refusal> {
        let project = self.project;
        if self.spec.keep_delegate {
            return Ok(());
        }
        let name = &self.decl.name;
        let lost: Vec<MethodId> = project
            .method_source_users(self.method)
            .into_iter()
            .filter(|&t| {
                let owner = project.owner(t);
                let by_class = project.method(t).method_sources().iter().any(|(c, n)| n == name && c.is_some());
                by_class || (owner != dest && !project.supertypes(owner).contains(&dest))
            })
            .collect();
        if let Some(&first) = lost.first() {
            return Err(self.lost_factory(first, lost.len(), dest));
        }
        // A test that names a factory of its class moves where that factory is, or with it.
        for (class, factory) in self.decl.method_sources() {
            if class.is_some() || self.spec.moving_with.contains(&factory) {
                continue;
            }
            let found = std::iter::once(dest)
                .chain(project.supertypes(dest))
                .any(|t| project.methods_of(t).into_iter().any(|m| project.method(m).name == factory));
            if !found {
                return Err(refuse(
                    Reason::NamedByAnnotation,
                    format!(
                        "{} takes its arguments from `{factory}` (its @MethodSource), which `{}` does not have: JUnit looks the factory up in the test's class. Move it along (`--methods {factory}`), or name it with its class in the annotation first (`\"{}#{factory}\"`)",
                        self.name(),
                        project.qualified_name(dest),
                        project.qualified_name(self.source)
                    ),
                ));
            }
        }
        Ok(())
    }

    fn lost_factory(&self, first: MethodId, count: usize, dest: TypeId) -> Refusal {
        let project = self.project;
        refuse(
            Reason::NamedByAnnotation,
            format!(
                "{} is named by the @MethodSource of {}: JUnit looks it up by name in that test's class, so in `{}` the test would not find its arguments. Move the tests with it (`--methods`), keep a delegate (`--keep-delegate`), or point the @MethodSource at the new place first",
                self.name(),
                crate::engine::refusal::tests_naming(&project.method(first).name, count),
                project.qualified_name(dest)
            ),
        )
    }

    pub(super) fn check_destination(&self, dest: TypeId) -> Result<(), Refusal> {
        let project = self.project;
        let d = project.type_decl(dest);
        let dest_name = project.qualified_name(dest);
        if dest == self.source {
            return Err(refuse(Reason::SameClass, format!("{} already is in `{dest_name}`", self.name())));
        }
        self.check_method_source(dest)?;
        match d.kind {
            // Into an interface (Java 8) as a static method (`class:`), or through a parameter or
            // field of its type as a `default` method; never a test.
            TypeKind::Interface if !self.stays_instance() && !self.is_test() => {}
            TypeKind::Interface | TypeKind::Annotation => {
                let what = if d.kind == TypeKind::Annotation {
                    "no method moves into an annotation type"
                } else if self.is_test() {
                    "a test method moves into a test class, not an interface"
                } else {
                    "a pulled-up method stays an instance method of a class"
                };
                return Err(refuse(
                    Reason::DestinationInterface,
                    format!("`{dest_name}` is an {}; {what}", d.kind.keyword()),
                ));
            }
            TypeKind::Anonymous => {
                return Err(refuse(Reason::LocalClass, format!("`{dest_name}` is an anonymous class")));
            }
            _ => {}
        }
        if d.local {
            return Err(refuse(
                Reason::LocalClass,
                format!("`{dest_name}` is a local class, invisible outside its method"),
            ));
        }
        let dest_file = project.source(dest);
        if let Some(err) = dest_file.syntax_error() {
            return Err(refuse(
                Reason::SyntaxError,
                format!(
                    "{} has a syntax error on line {} (`{}`); fix it first",
                    dest_file.path.display(),
                    err.line,
                    err.snippet
                ),
            ));
        }
        let layout = project.layout();
        if layout.is_test_file(&self.file.path) && !layout.is_test_file(&dest_file.path) && self.is_test() {
            return Err(refuse(
                Reason::TestToMain,
                format!(
                    "{} is test code and `{dest_name}` is main code; a test method moves only to a test class",
                    self.name()
                ),
            ));
        }
        // A JUnit 3 test runs only in a `TestCase`: anywhere else nothing would call it.
        if self.is_test() && !self.decl.is_test() && !project.extends_test_case(dest) {
            return Err(refuse(
                Reason::NotATestCase,
                format!(
                    "{} is a JUnit 3 test, which runs only in a class extending `TestCase`, and `{dest_name}` does not; annotate it `@Test` first or move it to a `TestCase`",
                    self.name()
                ),
            ));
        }
        Ok(())
    }

    /// A helper of test code moving to main code (a test method never does) may use nothing
    /// that exists only for the tests: its test class's members, other test classes, or a test
    /// framework.
    pub(super) fn check_test_code_to_main(
        &self,
        rw: &Rewriter<'_, 'p>,
        dest: TypeId,
        imports: &BTreeSet<(String, bool, bool)>,
    ) -> Result<(), Refusal> {
        let project = self.project;
        let layout = project.layout();
        if !layout.is_test_file(&self.file.path) || layout.is_test_file(&project.source(dest).path) {
            return Ok(());
        }
        let test_only = |what: String| {
            refuse(
                Reason::TestToMain,
                format!(
                    "{} is test code and uses {what}, which main code cannot see, so it cannot move to `{}`",
                    self.name(),
                    project.qualified_name(dest)
                ),
            )
        };
        if let Some(m) = rw.members.first() {
            return Err(test_only(format!("`{}` of its test class (line {})", m.name, m.line)));
        }
        if rw.needs_source {
            return Err(test_only(format!("its test class `{}`", project.qualified_name(self.source))));
        }
        for name in &rw.names {
            if let Some(t) = project.resolve_type(self.method.file(), Some(self.source.index()), name)
                && layout.is_test_file(&project.source(t).path)
            {
                return Err(test_only(format!("the test class `{}`", project.qualified_name(t))));
            }
        }
        for c in project.callees(self.method) {
            if let Resolution::Resolved { method } = c.resolution
                && method != self.method
                && layout.is_test_file(&project.method_source(method).path)
            {
                return Err(test_only(format!("`{}` of the test code", project.method(method).name)));
            }
        }
        const FRAMEWORKS: [&str; 6] =
            ["org.junit.", "junit.", "org.testng.", "org.hamcrest.", "org.mockito.", "org.assertj."];
        if let Some((path, ..)) = imports.iter().find(|(path, ..)| FRAMEWORKS.iter().any(|f| path.starts_with(f))) {
            return Err(test_only(format!("`{path}` of a test framework")));
        }
        Ok(())
    }

    /// The least access the moved method needs for code in `caller` to call it in `dest`.
    pub(super) fn access_needed(&self, caller: TypeId, dest: TypeId) -> Vis {
        let project = self.project;
        if project.top_level_of(caller) == project.top_level_of(dest) {
            Vis::Private
        } else if project.package_of(caller) == project.package_of(dest) {
            Vis::Package
        } else {
            Vis::Public
        }
    }

    /// Whether code in `from` can use a member of `owner` with access `vis`.
    pub(super) fn accessible(&self, from: TypeId, owner: TypeId, vis: Vis) -> bool {
        let project = self.project;
        match vis {
            Vis::Public => true,
            Vis::Private => project.top_level_of(from) == project.top_level_of(owner),
            Vis::Package => project.package_of(from) == project.package_of(owner),
            Vis::Protected => {
                project.package_of(from) == project.package_of(owner) || project.supertypes(from).contains(&owner)
            }
        }
    }

    pub(super) fn type_vis(&self, ty: TypeId) -> Vis {
        let project = self.project;
        let in_interface = project.enclosing_type(ty).is_some_and(|p| project.type_decl(p).kind.members_public());
        Vis::of(&project.type_decl(ty).modifiers, in_interface)
    }

    /// The source members the body reaches through the new parameter or by qualified name. One the
    /// destination cannot see is widened the least that lets it: a private member of a class in
    /// its package to package-private, else (with `--widen public`) to public. Those are returned
    /// with their new access, once each.
    ///
    /// With `--widen public`, a class of another package that holds such a member (or the source
    /// class, when the method needs its object) is made public too, with its enclosing classes.
    pub(super) fn check_members(&self, rw: &Rewriter<'_, 'p>, dest: TypeId) -> Result<Widening, Refusal> {
        let project = self.project;
        let mut widening = Widening::default();
        for m in rw.members.iter().chain(&rw.foreign) {
            if self.accessible(dest, m.owner, m.vis) {
                continue;
            }
            let same_package = project.package_of(dest) == project.package_of(m.owner);
            let owner_chain = if same_package { Some(Vec::new()) } else { self.types_to_make_public(m.owner) };
            let to = if m.vis == Vis::Private && same_package {
                Vis::Package
            } else if self.spec.widen_public
                && let Some(chain) = owner_chain
            {
                widening.add_types(chain);
                Vis::Public
            } else {
                let (reason, what) = if m.vis == Vis::Private {
                    (Reason::PrivateMemberUsed, "private")
                } else {
                    (Reason::InaccessibleMember, m.vis.keyword().unwrap_or("package-private"))
                };
                return Err(refuse(
                    reason,
                    format!(
                        "the method uses `{}` of `{}` (line {}), which is {what}, so `{}` cannot use it; make it accessible first, move it too, or pass `--widen public`",
                        m.name,
                        project.qualified_name(m.owner),
                        m.line,
                        project.qualified_name(dest)
                    ),
                ));
            };
            // A private method made visible could start overriding, or being overridden by, a
            // method of the same signature up or down the hierarchy.
            if matches!(m.shape, Shape::Method(_))
                && let Some(other) = self.same_method_in_hierarchy(m)
            {
                return Err(refuse(
                    Reason::PrivateMemberUsed,
                    format!(
                        "the method uses `{}` of `{}` (line {}); made {} it would override or be overridden by `{other}`, so mantra leaves it as it is",
                        m.name,
                        project.qualified_name(m.owner),
                        m.line,
                        to.keyword().unwrap_or("package-private")
                    ),
                ));
            }
            if !widening.members.iter().any(|(w, _)| w.owner == m.owner && w.decl == m.decl) {
                widening.members.push((m.clone(), to));
            }
        }
        if rw.needs_source {
            let src_vis = self.type_vis(self.source);
            let other_package = project.package_of(dest) != project.package_of(self.source);
            let hidden = !self.accessible(dest, self.source, src_vis) || (src_vis != Vis::Public && other_package);
            let widened = (hidden && self.spec.widen_public && other_package)
                .then(|| self.types_to_make_public(self.source))
                .flatten();
            if let Some(chain) = widened {
                widening.add_types(chain);
            } else if hidden {
                return Err(refuse(
                    Reason::InaccessibleMember,
                    format!(
                        "the method needs the `{}` object, but that class is not visible from `{}`{}",
                        project.qualified_name(self.source),
                        project.qualified_name(dest),
                        if other_package { "; pass `--widen public` to make it public" } else { "" }
                    ),
                ));
            }
            if !project.type_decl(self.source).type_params.is_empty() {
                return Err(refuse(
                    Reason::GenericSource,
                    format!(
                        "the method uses members of `{}`, a generic class, so it would need a parameter of that type with its type arguments; mantra does not infer them",
                        project.qualified_name(self.source)
                    ),
                ));
            }
        }
        Ok(widening)
    }

    /// The classes, `ty` and those enclosing it, that are not public and must be for code of
    /// another package to name `ty`; `None` when one cannot be (a local or anonymous class, or a
    /// top-level class whose file is named otherwise).
    pub(super) fn types_to_make_public(&self, ty: TypeId) -> Option<Vec<TypeId>> {
        let project = self.project;
        let mut out = Vec::new();
        let mut t = Some(ty);
        while let Some(ty) = t {
            let d = project.type_decl(ty);
            if d.local || d.is_anonymous() {
                return None;
            }
            let outer = project.enclosing_type(ty);
            if self.type_vis(ty) != Vis::Public {
                let file_named = project.source(ty).path.file_stem().is_some_and(|s| *s == *d.name);
                if outer.is_none() && !file_named {
                    return None;
                }
                out.push(ty);
            }
            t = outer;
        }
        Some(out)
    }

    /// A method that stays an instance method (a test) keeps its unqualified uses of its object's
    /// members when the destination has the same ones: inherited from a class both extend, or
    /// declared with the same name and type (a field) or parameter types (a method). Anything
    /// else it uses of its object is refused, by name.
    pub(super) fn use_destination_members(&self, rw: &mut Rewriter<'_, 'p>, dest: TypeId) -> Result<(), Refusal> {
        let project = self.project;
        let used = |what: String| {
            let message = if self.pull_up.is_some() {
                format!(
                    "{} uses {what}, which `{}` does not have; pull that up first",
                    self.name(),
                    project.qualified_name(dest)
                )
            } else {
                format!(
                    "{} is run by its test framework on an instance of its class, and it uses {what}, which `{}` does not have; move that too, or give the destination its own",
                    self.name(),
                    project.qualified_name(dest)
                )
            };
            refuse(Reason::SourceStateUsed, message)
        };
        // Pushed down, `this` is still an object of the method's class.
        if let Some(line) = rw.bare_this.filter(|_| self.push_down.is_none()) {
            return Err(used(format!("`this` as a value (line {line})")));
        }
        // Pushed down, a field a class on the way declares under the same name would hide the
        // one the body reads.
        let between = self.push_down.map(|_| self.push_down_between(dest)).unwrap_or_default();
        for m in rw.members.iter().filter(|m| m.instance && matches!(m.shape, Shape::Field(_))) {
            if let Some(&t) = between.iter().find(|&&t| project.type_decl(t).fields.iter().any(|f| f.name == m.simple))
            {
                return Err(refuse(
                    Reason::NameClash,
                    format!(
                        "{} reads `{}` (line {}), which `{}` hides with a field of the same name; rename one of them first",
                        self.name(),
                        m.simple,
                        m.line,
                        project.qualified_name(t)
                    ),
                ));
            }
        }
        let dest_side: Vec<TypeId> = std::iter::once(dest).chain(project.supertypes(dest)).collect();
        let mut wired: Vec<(std::ops::Range<usize>, String, String)> = Vec::new();
        for m in rw.members.iter().filter(|m| m.instance) {
            let inherited = dest_side.contains(&m.owner);
            // A test may use the destination's equivalent; a pulled-up method reads what its
            // class inherits, never a same-named member the subclass hid.
            // Pulled up, a call of a method the destination declares (or inherits) and the source
            // overrides still runs the override, by dispatch.
            let dispatched = self.pull_up.is_some()
                && matches!(&m.shape, Shape::Method(params) if dest_side.iter().any(|&t| {
                    project.methods_of(t).into_iter().any(|x| {
                        let x = project.method(x);
                        !x.is_static() && !x.modifiers.iter().any(|k| k == "private") && x.name == m.simple && x.erased_params() == *params
                    })
                }));
            let same = !self.in_hierarchy_move()
                && dest_side.iter().any(|&t| {
                    let d = project.type_decl(t);
                    d.fields
                        .iter()
                        .any(|f| !f.is_static() && f.name == m.simple && m.shape == Shape::Field(f.ty.text.clone()))
                        || project.methods_of(t).into_iter().any(|x| {
                            let x = project.method(x);
                            !x.is_static() && x.name == m.simple && m.shape == Shape::Method(x.erased_params())
                        })
                });
            if !inherited && !same && !dispatched {
                // Code wiring: the destination's own field of the same type and meaning.
                match self.equivalent_field(m, &dest_side) {
                    Some(name) => wired.push((m.at.clone(), m.simple.clone(), name)),
                    None => {
                        return Err(used(format!(
                            "`{}` of `{}` (line {})",
                            m.name,
                            project.qualified_name(m.owner),
                            m.line
                        )));
                    }
                }
            }
        }
        for (at, old, new) in wired {
            rw.edits.push(Edit::replace(at, new.clone()));
            let note = format!("`{old}` → the destination's `{new}` (same type, related name)");
            if !rw.wired.contains(&note) {
                rw.wired.push(note);
            }
        }
        // Every use goes to the destination's own member again: undo `this` → `source` and the
        // `source.` qualifiers.
        let (name, prefix) = (rw.source_name.clone(), format!("{}.", rw.source_name));
        let text = self.file.text.as_str();
        rw.edits.retain(|e| {
            let qualifier = e.start == e.end && e.replacement == prefix;
            let this = e.replacement == name && text[e.start..e.end].ends_with("this");
            !qualifier && !this
        });
        rw.needs_source = false;
        // Pushed down, the private members of the class it leaves are not inherited: those stay
        // for [`Self::check_members`] to widen.
        let push_down = self.push_down.is_some();
        rw.members.retain(|m| !m.instance || (push_down && !self.accessible(dest, m.owner, m.vis)));
        Ok(())
    }

    /// The field of the destination side (`dest_side`: the destination and its supertypes) that
    /// stands for the source's field `m`: an instance field declared with the same type whose
    /// name is related to `m`'s (code wiring's name similarity), or the only one of that type.
    /// A test moved between test classes keeps reading its fixture this way (`server` →
    /// `mockServer`). Pulled-up methods never take another member's place.
    fn equivalent_field(&self, m: &Member, dest_side: &[TypeId]) -> Option<String> {
        let Shape::Field(ty) = &m.shape else { return None };
        if self.in_hierarchy_move() {
            return None;
        }
        let project = self.project;
        let same_type: Vec<&str> = dest_side
            .iter()
            .flat_map(|&t| project.type_decl(t).fields.iter())
            .filter(|f| !f.is_static() && f.ty.text == *ty)
            .map(|f| f.name.as_str())
            .collect();
        let mut scored: Vec<(f64, &str)> =
            same_type.iter().map(|n| (crate::engine::wire::choose::similarity(&m.simple, n), *n)).collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        match scored.as_slice() {
            [(s, only)] if *s >= 0.3 || same_type.len() == 1 => Some(only.to_string()),
            [(best, name), (next, _), ..] if *best >= 0.5 && best - next >= 0.3 => Some(name.to_string()),
            _ => None,
        }
    }

    /// A method of the same name and parameter types as `m` in a supertype or subtype of its
    /// owner, as `Class#name`.
    fn same_method_in_hierarchy(&self, m: &Member) -> Option<String> {
        let project = self.project;
        let hierarchy = project.supertypes(m.owner).into_iter().chain(project.subtypes(m.owner));
        for t in hierarchy {
            for x in project.methods_of(t) {
                let d = project.method(x);
                if d.name == m.simple && m.shape == Shape::Method(d.erased_params()) {
                    return Some(format!("{}#{}", project.qualified_name(t), d.name));
                }
            }
        }
        None
    }

    /// Methods and constructors of other classes the body calls must be callable from the destination.
    pub(super) fn check_callees(&self, dest: TypeId) -> Result<(), Refusal> {
        let project = self.project;
        let source_side: Vec<TypeId> = std::iter::once(self.source).chain(project.supertypes(self.source)).collect();
        for c in project.callees(self.method) {
            let Resolution::Resolved { method: target } = c.resolution else { continue };
            if target == self.method {
                continue;
            }
            let owner = project.owner(target);
            // The source's own members (called on its object) are checked as members; a method of
            // the source's hierarchy called on another object (`parent.removeChild(n)`) is checked
            // here, like any other class's.
            let on_other_object = matches!(
                self.decl.calls[c.call].receiver,
                crate::java::symbols::Receiver::Name(_) | crate::java::symbols::Receiver::Expr
            ) && !project.method(target).is_static();
            if owner == dest || (source_side.contains(&owner) && !on_other_object) {
                continue;
            }
            let in_interface = project.type_decl(owner).kind.members_public();
            let vis = Vis::of(&project.method(target).modifiers, in_interface);
            if !self.accessible(dest, owner, vis) {
                let site = &self.decl.calls[c.call];
                return Err(refuse(
                    Reason::InaccessibleMember,
                    format!(
                        "the method calls `{}` (line {}), which `{}` cannot call ({} in `{}`); make it accessible first",
                        project.call_text(self.method, c.call),
                        site.span.start_line,
                        project.qualified_name(dest),
                        vis.keyword().unwrap_or("package-private"),
                        project.qualified_name(owner)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The moved method's erased parameter types.
    pub(super) fn new_param_types(&self, via: &Via<'_>, needs_source: bool) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if needs_source {
            out.push(self.project.type_decl(self.source).name.clone());
        }
        for (i, p) in self.decl.params.iter().enumerate() {
            if matches!(via, Via::Param { index, .. } if *index == i) {
                continue;
            }
            out.push(p.ty.erased());
        }
        out
    }

    /// A method with the same name and erasure in the destination, above it or below it.
    pub(super) fn check_clash(&self, dest: TypeId, params: &[String]) -> Result<(), Refusal> {
        let project = self.project;
        let name = &self.decl.name;
        // A default method may not override `Object`'s public methods.
        let object_method = matches!((name.as_str(), params), ("toString" | "hashCode", []))
            || (name == "equals" && params.len() == 1 && params[0] == "Object");
        if object_method && self.default_method(dest) {
            return Err(refuse(
                Reason::NameClash,
                format!(
                    "in `{}` the method would be a default method `{name}`, which Java forbids for the methods of `Object`; move it with `class:` to make it static there",
                    project.qualified_name(dest)
                ),
            ));
        }
        // The method itself, in a subclass of the destination, is the one leaving.
        let same = |m: MethodId| {
            let d = project.method(m);
            m != self.method && !d.is_constructor() && d.name == *name && d.erased_params() == params
        };
        let describe = |m: MethodId, how: &str| {
            refuse(
                Reason::NameClash,
                format!(
                    "`{}` {how} a method `{}` (line {}); the moved method would clash with it. Rename one of them first",
                    project.qualified_name(project.owner(m)),
                    project.method(m).signature(),
                    project.method(m).span.start_line
                ),
            )
        };
        if let Some(m) = project.methods_of(dest).into_iter().find(|&m| same(m)) {
            return Err(describe(m, "already has"));
        }
        // Pulled up or pushed down, the hierarchy's methods of the signature are what it
        // overrides and what overrides it: [`super::pull_up`] and [`super::push_down`] judge them.
        if self.in_hierarchy_move() {
            return Ok(());
        }
        for t in project.supertypes(dest) {
            if let Some(m) = project.methods_of(t).into_iter().find(|&m| same(m)) {
                return Err(describe(m, "(a supertype of the destination) has"));
            }
        }
        for t in project.subtypes(dest) {
            if let Some(m) = project.methods_of(t).into_iter().find(|&m| same(m)) {
                return Err(describe(m, "(a subtype of the destination) has"));
            }
        }
        Ok(())
    }
}
