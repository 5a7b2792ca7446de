//! Move Method: an instance method to the class of a parameter or field, a static method to any class.
//!
//! The method's text moves as written (Javadoc, annotations, comments and formatting kept, only
//! re-indented) to the end of the destination class; what must change inside it is spliced:
//!
//! - through a parameter `p` (`param:p`): `p` disappears from the parameter list, `p.m()` becomes
//!   `m()`, `p.x` becomes `x` (or `this.x` where a local hides it), any other use of `p` becomes
//!   `this`; what the body used of the source object (`x`, `this.x`, `m()`, `this`) goes through a
//!   new first parameter of the source's type, named after it (`invoiceService.x`). Call sites
//!   `a.m(b, p)` become `p.m(a, b)` (`p.m(b)` when the source object is not needed);
//! - through a field `f` (`field:f`): uses of `f` in the body become `this`-implicit, call sites
//!   `m(args)` become `f.m(args)` and `obj.m(args)` become `obj.f.m(args)` where `f` is visible;
//! - a static method (`class:a.b.Dest`): unqualified uses of the source's static members become
//!   `Source.x`, call sites become `Dest.m(...)`, static imports of the method follow it.
//!
//! Visibility is raised to the least that every call site needs (never lowered), imports the moved
//! text needs are added to the destination, and imports the move certainly left unused are
//! removed. Everything else is refused with a stable reason: what the engine cannot prove correct
//! from the project model (a call it cannot resolve, a member the destination cannot reach, a
//! method other methods override) it does not do.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use tree_sitter::Node;

use super::dataflow::{MethodFlow, VarKind, is_variable_use};
use super::edit::apply;
use super::extract::reindent;
use super::imports;
use super::{ChangeSet, Edit, Reason, Refusal};
use crate::java::SourceFile;
use crate::java::calls::Resolution;
use crate::java::project::{FileId, MethodId, Project, TypeId};
use crate::java::symbols::{CallKind, FieldDecl, MethodDecl, Receiver, TypeKind, extract};
use crate::java::syntax::{is_comment, named_child_of_kind};
use crate::text::{line_indent, line_start};

/// Where the method goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "name", rename_all = "snake_case")]
pub enum Destination {
    /// The class of this parameter's declared type; the parameter disappears and its uses become `this`.
    Param(String),
    /// The class of this field's declared type.
    Field(String),
    /// Any class, by fully qualified name (static methods).
    Class(String),
}

impl std::str::FromStr for Destination {
    type Err = String;
    /// `param:NAME`, `field:NAME` or `class:FQN`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (kind, name) =
            s.split_once(':').ok_or_else(|| format!("`{s}` is not `param:NAME`, `field:NAME` or `class:FQN`"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("`{s}` names no {kind}"));
        }
        match kind {
            "param" => Ok(Destination::Param(name.to_string())),
            "field" => Ok(Destination::Field(name.to_string())),
            "class" => Ok(Destination::Class(name.to_string())),
            other => Err(format!("`{other}:` is not a destination; use `param:NAME`, `field:NAME` or `class:FQN`")),
        }
    }
}

/// What Move Method needs beyond the method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveSpec {
    pub to: Destination,
    /// Leave a method behind that delegates to the moved one.
    #[serde(default)]
    pub keep_delegate: bool,
}

/// What the move did, for reports and for compound refactorings that continue on the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Moved {
    pub changes: ChangeSet,
    /// The destination class, fully qualified (`a.b.Outer.Inner`).
    pub destination: String,
    /// Repository-relative path of the destination's file.
    pub destination_file: PathBuf,
    /// The moved method's declaration in the destination, e.g. `public long daysLate(LocalDate today)`.
    pub signature: String,
    pub name: String,
    /// The moved method's erased parameter types (simple names), to find it again after the move.
    pub erased_params: Vec<String>,
    /// How many call sites were rewritten.
    pub call_sites: usize,
}

/// Moves `method` as `spec` says, updating call sites, imports and visibility, or refuses.
pub fn move_method(project: &Project, method: MethodId, spec: &MoveSpec) -> Result<ChangeSet, Refusal> {
    plan(project, method, spec).map(|m| m.changes)
}

/// [`move_method`] with the details of what was done.
pub fn plan(project: &Project, method: MethodId, spec: &MoveSpec) -> Result<Moved, Refusal> {
    let decl = project.method(method);
    let source = project.owner(method);
    let file = project.method_source(method);
    Mover { project, method, decl, source, file, spec }.run()
}

/// Java's access levels, in increasing order of reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Vis {
    Private,
    Package,
    Protected,
    Public,
}

impl Vis {
    fn of(modifiers: &[String], in_interface: bool) -> Vis {
        if in_interface {
            return if modifiers.iter().any(|m| m == "private") { Vis::Private } else { Vis::Public };
        }
        match () {
            _ if modifiers.iter().any(|m| m == "public") => Vis::Public,
            _ if modifiers.iter().any(|m| m == "protected") => Vis::Protected,
            _ if modifiers.iter().any(|m| m == "private") => Vis::Private,
            _ => Vis::Package,
        }
    }

    fn keyword(self) -> Option<&'static str> {
        match self {
            Vis::Private => Some("private"),
            Vis::Package => None,
            Vis::Protected => Some("protected"),
            Vis::Public => Some("public"),
        }
    }
}

/// How the method reaches its destination.
enum Via<'p> {
    /// Parameter number `index` of the method.
    Param {
        index: usize,
        name: String,
    },
    Field {
        field: &'p FieldDecl,
    },
    Static,
}

struct Mover<'p> {
    project: &'p Project,
    method: MethodId,
    decl: &'p MethodDecl,
    source: TypeId,
    file: &'p SourceFile,
    spec: &'p MoveSpec,
}

fn refuse(reason: Reason, message: impl Into<String>) -> Refusal {
    Refusal::new(reason, message)
}

impl<'p> Mover<'p> {
    fn run(&self) -> Result<Moved, Refusal> {
        self.check_method()?;
        let (via, dest) = self.destination()?;
        self.check_destination(dest)?;
        let project = self.project;
        let src = &self.file.text;
        let node = method_node(self.file, self.decl).ok_or_else(|| {
            refuse(Reason::SyntaxError, "the method's declaration could not be found in the parse tree")
        })?;
        let body = node.child_by_field_name("body").ok_or_else(|| self.no_body())?;

        // The body, rewritten for its new home.
        let mut rw = Rewriter::new(self, &via, dest, node);
        rw.visit(body)?;
        rw.finish_recursion()?;
        self.check_members(&rw, dest)?;
        self.check_callees(dest)?;

        let new_params = self.new_param_types(&via, rw.needs_source);
        self.check_clash(dest, &new_params)?;

        // Call sites (all of them, or none with a delegate left behind).
        let sites = if self.spec.keep_delegate { CallSites::default() } else { self.call_sites(&via, dest, &rw)? };

        // Visibility: the least every caller needs, never lower than it was.
        let in_interface = project.type_decl(self.source).kind == TypeKind::Interface;
        let original = Vis::of(&self.decl.modifiers, in_interface);
        let mut needed = Vis::Private;
        let callers: Vec<TypeId> = if self.spec.keep_delegate { vec![self.source] } else { sites.caller_types.clone() };
        for caller in callers {
            needed = needed.max(self.access_needed(caller, dest));
        }
        let visibility = original.max(needed);

        // The header: visibility, `static`, parameters.
        let mut moved_edits = rw.edits.clone();
        moved_edits.extend(self.header_edits(node, &via, visibility, original, &rw)?);

        // The moved text, re-indented for the destination.
        let start = self.decl.javadoc_span.map_or(self.decl.span.start_byte, |j| j.start_byte);
        let end = self.decl.span.end_byte;
        let shifted: Vec<Edit> = moved_edits
            .iter()
            .map(|e| Edit { start: e.start - start, end: e.end - start, replacement: e.replacement.clone() })
            .collect();
        let text = apply("moved method", &src[start..end], &shifted).map_err(|e| {
            refuse(Reason::OverlappingEdits, format!("the method's rewrite conflicts with itself: {e}"))
        })?;
        let dest_file = project.source(dest);
        let dest_path = dest_file.path.clone();
        let indent = member_indent(project, dest);
        let base = line_indent(src, start);
        let dest_class_indent = line_indent(&dest_file.text, project.type_decl(dest).span.start_byte);
        let dest_unit = indent.strip_prefix(dest_class_indent).filter(|u| !u.is_empty()).unwrap_or("    ");
        let src_unit = super::extract::indent_unit(src, body, base);
        let lines: Vec<String> = reindent(&text, base, &indent)
            .into_iter()
            .map(|l| convert_indent(l, &indent, &src_unit, dest_unit))
            .collect();

        let mut changes = ChangeSet::new();
        let source_path = self.file.path.clone();
        // Remove the method (or leave a delegate), insert it in the destination.
        if self.spec.keep_delegate {
            let delegate = self.delegate_body(&via, dest, body, &rw)?;
            changes.edit(&source_path, src, Edit::replace(body.byte_range(), delegate.0));
            for path in delegate.1 {
                for e in
                    imports::add(self.file, project.symbols_of(self.source), &BTreeSet::from([(path, false, false)]))
                {
                    changes.edit(&source_path, src, e);
                }
            }
        } else {
            changes.edit(&source_path, src, Edit::delete(removal_range(src, start, end)));
        }
        let dest_src = &dest_file.text;
        changes.edit(&dest_path, dest_src, insertion(project, dest, &lines));
        let dest_imports = self.dest_imports(&rw, dest)?;
        for e in imports::add(dest_file, project.symbols_of(dest), &dest_imports) {
            changes.edit(&dest_path, dest_src, e);
        }
        for (path, original, edit) in sites.edits {
            changes.edit(&path, &original, edit);
        }
        for (fid, paths) in &sites.imports {
            let f = self.parsed(*fid)?;
            for e in imports::add(&f.source, &f.symbols, paths) {
                changes.edit(&f.source.path, &f.source.text, e);
            }
        }

        // Imports the move certainly left unused.
        let mut unused: Vec<(FileId, BTreeSet<String>)> = sites.unused.into_iter().collect();
        if !self.spec.keep_delegate {
            let mut names: BTreeSet<String> = rw.names.clone();
            names.extend(
                rw.static_imports
                    .iter()
                    .filter(|(_, w)| !w)
                    .filter_map(|(p, _)| p.rsplit('.').next())
                    .map(str::to_string),
            );
            unused.push((self.method.file(), names));
        }
        for (fid, names) in unused {
            let f = self.parsed(fid)?;
            let Ok(Some(after)) = changes.render_file(&f.source.path) else { continue };
            let removals = imports::remove_unused(&f.source, &f.symbols, &after, &names);
            for e in removals {
                changes.edit(&f.source.path, &f.source.text, e);
            }
        }

        // Every file must still splice cleanly (nested call sites of the method would not).
        let rendered = changes.render().map_err(|e| {
            refuse(
                Reason::OverlappingCalls,
                format!("call sites of the method overlap (one is inside another's arguments): {e}; move it by hand or untangle the calls first"),
            )
        })?;
        let dest_after = rendered.get(&dest_path).cloned().unwrap_or_default();
        let signature =
            find_signature(&dest_after, &self.decl.name, &new_params, project.type_decl(dest).display.as_str())
                .unwrap_or_default();
        Ok(Moved {
            changes,
            destination: project.qualified_name(dest),
            destination_file: dest_path,
            signature,
            name: self.decl.name.clone(),
            erased_params: new_params,
            call_sites: sites.count,
        })
    }

    fn parsed(&self, fid: FileId) -> Result<&'p crate::java::JavaFile, Refusal> {
        self.project
            .file(fid)
            .map_err(|e| refuse(Reason::UnreadableFile, format!("{e}; mantra cannot update the call sites there")))
    }

    fn name(&self) -> String {
        format!("`{}`", self.decl.signature())
    }

    fn no_body(&self) -> Refusal {
        refuse(
            Reason::AbstractMethod,
            format!(
                "{} has no body (abstract, native or an interface method); only methods with a body can move",
                self.name()
            ),
        )
    }

    /// What the method itself must be.
    fn check_method(&self) -> Result<(), Refusal> {
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
        let overrides = project.overrides(self.method);
        let overridden = project.overridden_by(self.method);
        if !overrides.is_empty() || !overridden.is_empty() || decl.annotations.iter().any(|a| a == "@Override") {
            let other = overrides
                .first()
                .or(overridden.first())
                .map(|m| format!(" (see {}#{})", project.qualified_name(project.owner(*m)), project.method(*m).name))
                .unwrap_or_else(|| " (it is annotated @Override)".into());
            return Err(refuse(
                Reason::InHierarchy,
                format!(
                    "{} overrides or is overridden by another method{other}; moving it would change which code runs. Move a method outside the hierarchy, or keep a delegate by hand",
                    self.name()
                ),
            ));
        }
        if decl.modifiers.iter().any(|m| m == "synchronized") {
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
    fn destination(&self) -> Result<(Via<'p>, TypeId), Refusal> {
        let project = self.project;
        let decl = self.decl;
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
                if !decl.is_static() {
                    return Err(refuse(
                        Reason::InstanceMethod,
                        format!(
                            "{} is an instance method; move it through a parameter (`param:NAME`) or a field (`field:NAME`), or make it static first",
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

    fn project_type(&self, raw: &str, what: &str) -> Result<TypeId, Refusal> {
        let project = self.project;
        project.resolve_type(self.method.file(), Some(self.source.index()), raw).ok_or_else(|| {
            refuse(
                Reason::DestinationNotInProject,
                format!("the {what} has type `{raw}`, which is not a class of this project (JDK and library classes cannot be edited)"),
            )
        })
    }

    fn check_destination(&self, dest: TypeId) -> Result<(), Refusal> {
        let project = self.project;
        let d = project.type_decl(dest);
        let dest_name = project.qualified_name(dest);
        if dest == self.source {
            return Err(refuse(Reason::SameClass, format!("{} already is in `{dest_name}`", self.name())));
        }
        match d.kind {
            TypeKind::Interface | TypeKind::Annotation => {
                return Err(refuse(
                    Reason::DestinationInterface,
                    format!(
                        "`{dest_name}` is an {}; mantra moves methods into classes, enums and records only",
                        d.kind.keyword()
                    ),
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
        if layout.is_test_file(&self.file.path) && !layout.is_test_file(&dest_file.path) {
            return Err(refuse(
                Reason::TestToMain,
                format!(
                    "{} is test code and `{dest_name}` is main code; a test method moves only to a test class",
                    self.name()
                ),
            ));
        }
        Ok(())
    }

    /// The least access the moved method needs for code in `caller` to call it in `dest`.
    fn access_needed(&self, caller: TypeId, dest: TypeId) -> Vis {
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
    fn accessible(&self, from: TypeId, owner: TypeId, vis: Vis) -> bool {
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

    fn type_vis(&self, ty: TypeId) -> Vis {
        let project = self.project;
        let in_interface = project.enclosing_type(ty).is_some_and(|p| project.type_decl(p).kind == TypeKind::Interface);
        Vis::of(&project.type_decl(ty).modifiers, in_interface)
    }

    /// The source members the body reaches through the new parameter or by qualified name.
    fn check_members(&self, rw: &Rewriter<'_, 'p>, dest: TypeId) -> Result<(), Refusal> {
        let project = self.project;
        for m in &rw.members {
            if !self.accessible(dest, m.owner, m.vis) {
                let (reason, what) = if m.vis == Vis::Private {
                    (Reason::PrivateMemberUsed, "private")
                } else {
                    (Reason::InaccessibleMember, m.vis.keyword().unwrap_or("package-private"))
                };
                return Err(refuse(
                    reason,
                    format!(
                        "the method uses `{}` of `{}` (line {}), which is {what}, so `{}` cannot use it; make it accessible first (or move it too)",
                        m.name,
                        project.qualified_name(m.owner),
                        m.line,
                        project.qualified_name(dest)
                    ),
                ));
            }
        }
        if rw.needs_source {
            let src_vis = self.type_vis(self.source);
            if !self.accessible(dest, self.source, src_vis)
                || (src_vis != Vis::Public && project.package_of(dest) != project.package_of(self.source))
            {
                return Err(refuse(
                    Reason::InaccessibleMember,
                    format!(
                        "the method needs the `{}` object, but that class is not visible from `{}`",
                        project.qualified_name(self.source),
                        project.qualified_name(dest)
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
        Ok(())
    }

    /// Methods and constructors of other classes the body calls must be callable from the destination.
    fn check_callees(&self, dest: TypeId) -> Result<(), Refusal> {
        let project = self.project;
        let source_side: Vec<TypeId> = std::iter::once(self.source).chain(project.supertypes(self.source)).collect();
        for c in project.callees(self.method) {
            let Resolution::Resolved { method: target } = c.resolution else { continue };
            if target == self.method {
                continue;
            }
            let owner = project.owner(target);
            if owner == dest || source_side.contains(&owner) {
                continue; // the destination's own members; the source's are checked as members
            }
            let in_interface = project.type_decl(owner).kind == TypeKind::Interface;
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
    fn new_param_types(&self, via: &Via<'_>, needs_source: bool) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if needs_source && !matches!(via, Via::Static) {
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
    fn check_clash(&self, dest: TypeId, params: &[String]) -> Result<(), Refusal> {
        let project = self.project;
        let name = &self.decl.name;
        let same = |m: MethodId| {
            let d = project.method(m);
            !d.is_constructor() && d.name == *name && d.erased_params() == params
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

    /// Edits of the declaration: access modifier, `static`, parameter list.
    fn header_edits(
        &self,
        node: Node<'p>,
        via: &Via<'_>,
        visibility: Vis,
        original: Vis,
        rw: &Rewriter<'_, 'p>,
    ) -> Result<Vec<Edit>, Refusal> {
        let src = &self.file.text;
        let mut edits = Vec::new();
        let modifiers = named_child_of_kind(node, "modifiers");
        let keywords: Vec<Node<'p>> = modifiers
            .map(|m| {
                let mut c = m.walk();
                m.children(&mut c).filter(|k| !k.is_named()).collect()
            })
            .unwrap_or_default();
        let find = |kw: &str| keywords.iter().copied().find(|k| &src[k.byte_range()] == kw);
        if visibility != original || self.project.type_decl(self.source).kind == TypeKind::Interface {
            let existing = ["public", "protected", "private"].into_iter().find_map(find);
            match (existing, visibility.keyword()) {
                (Some(k), Some(new)) => edits.push(Edit::replace(k.byte_range(), new)),
                (Some(k), None) => edits.push(Edit::delete(k.start_byte()..skip_spaces(src, k.end_byte()))),
                (None, Some(new)) => {
                    let at = match keywords.first() {
                        Some(k) => k.start_byte(),
                        None => after_modifiers(node).map_or(node.start_byte(), |n| n.start_byte()),
                    };
                    edits.push(Edit::insert(at, format!("{new} ")));
                }
                (None, None) => {}
            }
        }
        if let Via::Param { .. } = via
            && let Some(k) = find("static")
        {
            edits.push(Edit::delete(k.start_byte()..skip_spaces(src, k.end_byte())));
        }
        let params = node.child_by_field_name("parameters");
        if let Some(params) = params {
            let remove = match via {
                Via::Param { index, .. } => Some(*index),
                _ => None,
            };
            let prepend =
                rw.needs_source.then(|| format!("{} {}", self.project.type_decl(self.source).name, rw.source_name));
            edits.extend(rewrite_list(params, remove, prepend));
        }
        Ok(edits)
    }

    /// The imports the moved text needs in the destination's file.
    fn dest_imports(&self, rw: &Rewriter<'_, 'p>, dest: TypeId) -> Result<BTreeSet<(String, bool, bool)>, Refusal> {
        let project = self.project;
        let src_syms = project.symbols_of(self.source);
        let dest_syms = project.symbols_of(dest);
        let dest_file = dest.file();
        let src_file = self.method.file();
        let mut out: BTreeSet<(String, bool, bool)> = BTreeSet::new();
        let mut unresolved = false;
        let mut names = rw.names.clone();
        if rw.needs_source {
            names.insert(project.type_decl(self.source).name.clone());
        }
        for name in &names {
            if self.decl.type_params.contains(name) {
                continue;
            }
            if self.class_type_params().contains(name) {
                return Err(refuse(
                    Reason::UsesTypeParameter,
                    format!(
                        "the method uses the type variable `{name}` of its class, which does not exist in the destination"
                    ),
                ));
            }
            let in_src = project.resolve_type(src_file, Some(self.source.index()), name);
            let in_dest = project.resolve_type(dest_file, Some(dest.index()), name);
            let clash = |other: &str| {
                refuse(
                    Reason::TypeNameClash,
                    format!(
                        "the method uses the type `{name}`, but in `{}` that name means {other}; rename or qualify it first",
                        project.qualified_name(dest)
                    ),
                )
            };
            match in_src {
                Some(t) => {
                    if in_dest == Some(t) {
                        continue;
                    }
                    if let Some(other) = in_dest {
                        return Err(clash(&format!("`{}`", project.qualified_name(other))));
                    }
                    if let Some(imp) = imports::single_import_named(dest_syms, name, false) {
                        return Err(clash(&format!("`{}` (imported)", imp.path)));
                    }
                    if !self.accessible(dest, t, self.type_vis(t)) {
                        return Err(refuse(
                            Reason::InaccessibleType,
                            format!(
                                "the method uses the type `{}`, which is not visible from `{}`; make it public first",
                                project.qualified_name(t),
                                project.qualified_name(dest)
                            ),
                        ));
                    }
                    out.insert((project.qualified_name(t), false, false));
                }
                None => {
                    if let Some(other) = in_dest {
                        return Err(clash(&format!("`{}`", project.qualified_name(other))));
                    }
                    match imports::single_import_named(src_syms, name, false) {
                        Some(imp) => {
                            if let Some(theirs) = imports::single_import_named(dest_syms, name, false)
                                && theirs.path != imp.path
                            {
                                return Err(clash(&format!("`{}` (imported)", theirs.path)));
                            }
                            out.insert((imp.path.clone(), false, false));
                        }
                        None => unresolved |= !JAVA_LANG.contains(&name.as_str()),
                    }
                }
            }
        }
        if unresolved {
            // A name from one of the source's wildcard imports (which one, only the compiler knows).
            for imp in src_syms.imports.iter().filter(|i| i.wildcard && !i.is_static) {
                out.insert((imp.path.clone(), false, true));
            }
        }
        for (path, wildcard) in &rw.static_imports {
            out.insert((path.clone(), true, *wildcard));
        }
        // Never import a type into its own package or file.
        let dest_pkg = project.package_of(dest).to_string();
        out.retain(|(path, is_static, wildcard)| {
            *is_static || *wildcard || path.rsplit_once('.').is_none_or(|(pkg, _)| pkg != dest_pkg)
        });
        Ok(out)
    }

    /// Type variables of the source class and its enclosing classes (up to a static one).
    fn class_type_params(&self) -> Vec<String> {
        if self.decl.is_static() {
            return Vec::new();
        }
        let project = self.project;
        let mut out = Vec::new();
        let mut t = Some(self.source);
        while let Some(ty) = t {
            let d = project.type_decl(ty);
            out.extend(d.type_params.iter().cloned());
            if d.modifiers.iter().any(|m| m == "static") {
                break;
            }
            t = project.enclosing_type(ty);
        }
        out
    }

    /// How code in `file` (inside type `scope`) names `target`, and the import that needs, if any.
    fn type_ref(&self, file: FileId, scope: TypeId, target: TypeId) -> (String, Option<String>) {
        let project = self.project;
        let d = project.type_decl(target);
        if project.resolve_type(file, Some(scope.index()), &d.name) == Some(target) {
            return (d.name.clone(), None);
        }
        if project.resolve_type(file, Some(scope.index()), &d.display) == Some(target) {
            return (d.display.clone(), None);
        }
        let syms = project.file(file).map(|f| &f.symbols);
        let taken = project.resolve_type(file, Some(scope.index()), &d.name).is_some()
            || syms.is_ok_and(|s| imports::single_import_named(s, &d.name, false).is_some());
        if taken {
            (project.qualified_name(target), None)
        } else {
            (d.name.clone(), Some(project.qualified_name(target)))
        }
    }

    /// The delegate left behind with `--keep-delegate`: its new body, and imports the source needs.
    fn delegate_body(
        &self,
        via: &Via<'_>,
        dest: TypeId,
        body: Node<'p>,
        rw: &Rewriter<'_, 'p>,
    ) -> Result<(String, Vec<String>), Refusal> {
        let src = &self.file.text;
        let decl = self.decl;
        let nl = if src.contains("\r\n") { "\r\n" } else { "\n" };
        let indent = line_indent(src, self.decl.span.start_byte).to_string();
        let unit = super::extract::indent_unit(src, body, &indent);
        let mut args: Vec<String> = Vec::new();
        if rw.needs_source {
            args.push("this".into());
        }
        let mut imports_needed = Vec::new();
        let receiver = match via {
            Via::Param { index, name } => {
                args.extend(decl.params.iter().enumerate().filter(|(i, _)| i != index).map(|(_, p)| p.name.clone()));
                name.clone()
            }
            Via::Field { field } => {
                args.extend(decl.params.iter().map(|p| p.name.clone()));
                if decl.params.iter().any(|p| p.name == field.name) {
                    format!("this.{}", field.name)
                } else {
                    field.name.clone()
                }
            }
            Via::Static => {
                args.extend(decl.params.iter().map(|p| p.name.clone()));
                let (text, import) = self.type_ref(self.method.file(), self.source, dest);
                imports_needed.extend(import);
                text
            }
        };
        let call = format!("{receiver}.{}({})", decl.name, args.join(", "));
        let returns = decl.return_type.as_ref().is_some_and(|t| t.text != "void");
        let stmt = if returns { format!("return {call};") } else { format!("{call};") };
        Ok((format!("{{{nl}{indent}{unit}{stmt}{nl}{indent}}}"), imports_needed))
    }

    /// Every call site rewritten for the method's new home.
    fn call_sites(&self, via: &Via<'p>, dest: TypeId, rw: &Rewriter<'_, 'p>) -> Result<CallSites, Refusal> {
        let project = self.project;
        let mut out = CallSites::default();
        let source_q = project.qualified_name(self.source);
        let dest_q = project.qualified_name(dest);
        let mut rewritten_static_imports: BTreeSet<(FileId, usize)> = BTreeSet::new();
        for caller in project.callers(self.method) {
            if caller.method == self.method {
                continue; // recursion: rewritten with the body
            }
            if self.decl.span.contains(&project.method(caller.method).span) {
                return Err(refuse(
                    Reason::RecursiveOtherReceiver,
                    format!(
                        "the method calls itself from a class declared inside it (line {}); mantra does not rewrite that",
                        project.method(caller.method).calls[caller.call].span.start_line
                    ),
                ));
            }
            let cdecl = project.method(caller.method);
            let site = &cdecl.calls[caller.call];
            let cfile = project.method_source(caller.method);
            let line = site.span.start_line;
            let at = format!("{}:{line}", cfile.path.display());
            if !caller.certain {
                return Err(refuse(
                    Reason::AmbiguousCall,
                    format!(
                        "the call `{}` at {at} may target this method or an overload; mantra cannot tell which, so it cannot update it",
                        project.call_text(caller.method, caller.call)
                    ),
                ));
            }
            if site.kind == CallKind::MethodRef {
                return Err(refuse(
                    Reason::MethodReference,
                    format!(
                        "the method reference `{}` at {at} cannot follow the method; rewrite it as a lambda first, or keep a delegate (--keep-delegate)",
                        project.call_text(caller.method, caller.call)
                    ),
                ));
            }
            let Some(call) = node_with_span(cfile, site.span.start_byte, site.span.end_byte, "method_invocation")
            else {
                return Err(refuse(Reason::SyntaxError, format!("the call at {at} is not in the parse tree")));
            };
            let (Some(name_node), Some(args)) =
                (call.child_by_field_name("name"), call.child_by_field_name("arguments"))
            else {
                return Err(refuse(Reason::SyntaxError, format!("the call at {at} has no name or arguments")));
            };
            let object = call.child_by_field_name("object");
            let ctext = &cfile.text;
            let ctype = project.owner(caller.method);
            let path = cfile.path.clone();
            let mut push = |e: Edit| out.edits.push((path.clone(), ctext.clone(), e));
            // What stands for the source object at this call site.
            let source_object = || -> Result<String, Refusal> {
                match &site.receiver {
                    Receiver::Implicit | Receiver::This | Receiver::Super => Ok(self.this_at(ctype)),
                    Receiver::Name(_) | Receiver::Expr => {
                        Ok(object.map(|o| ctext[o.byte_range()].to_string()).unwrap_or_default())
                    }
                }
            };
            match via {
                Via::Param { index, .. } => {
                    let arg_nodes = list_items(args);
                    let Some(arg) = arg_nodes.get(*index).copied() else {
                        return Err(refuse(Reason::AmbiguousCall, format!("the call at {at} has too few arguments")));
                    };
                    if arg.kind() == "null_literal" {
                        return Err(refuse(
                            Reason::NullArgument,
                            format!("the call at {at} passes `null` for the parameter that would become the receiver"),
                        ));
                    }
                    let arg_text = &ctext[arg.byte_range()];
                    let receiver = if arg.kind() == "this" && ctype == dest {
                        String::new()
                    } else if needs_parens(arg) {
                        format!("({arg_text}).")
                    } else {
                        format!("{arg_text}.")
                    };
                    let prepend = if rw.needs_source { Some(source_object()?) } else { None };
                    match object {
                        Some(o) => push(Edit::replace(o.start_byte()..name_node.start_byte(), receiver)),
                        None if !receiver.is_empty() => push(Edit::insert(name_node.start_byte(), receiver)),
                        None => {}
                    }
                    for e in rewrite_list(args, Some(*index), prepend) {
                        push(e);
                    }
                }
                Via::Field { field } => {
                    let receiver = match &site.receiver {
                        Receiver::Implicit | Receiver::This | Receiver::Super => {
                            self.field_at(field, caller.method, ctype, &at)?
                        }
                        Receiver::Name(_) | Receiver::Expr => {
                            let vis = Vis::of(&field.modifiers, false);
                            if !self.accessible(ctype, self.source, vis) {
                                return Err(refuse(
                                    Reason::FieldNotAccessible,
                                    format!(
                                        "the call at {at} would have to go through the field `{}`, which is {} in `{}`; keep a delegate (--keep-delegate) or make the field accessible",
                                        field.name,
                                        vis.keyword().unwrap_or("package-private"),
                                        source_q
                                    ),
                                ));
                            }
                            if rw.needs_source && site.receiver == Receiver::Expr {
                                return Err(refuse(
                                    Reason::ComplexReceiver,
                                    format!(
                                        "the call at {at} is made on an expression that would have to be evaluated twice; assign it to a variable first"
                                    ),
                                ));
                            }
                            let o = object.map(|o| &ctext[o.byte_range()]).unwrap_or("");
                            format!("{o}.{}", field.name)
                        }
                    };
                    let prepend = if rw.needs_source { Some(source_object()?) } else { None };
                    match object {
                        Some(o) => push(Edit::replace(o.start_byte()..name_node.start_byte(), format!("{receiver}."))),
                        None => push(Edit::insert(name_node.start_byte(), format!("{receiver}."))),
                    }
                    for e in rewrite_list(args, None, prepend) {
                        push(e);
                    }
                }
                Via::Static => {
                    let nested = self.nested_in_source(ctype);
                    let static_import = cfile_static_import(project, caller.method, &source_q, &self.decl.name);
                    match (&site.receiver, object) {
                        (Receiver::Implicit, _) if !nested && static_import.is_some() => {
                            // `import static a.Source.m;` follows the method; the call stays as it is.
                            let Some((fid, imp_start, imp_end, path_start, path_end)) = static_import else {
                                continue;
                            };
                            if rewritten_static_imports.insert((fid, imp_start)) {
                                let others = project.methods_of(self.source).into_iter().any(|m| {
                                    m != self.method
                                        && project.method(m).name == self.decl.name
                                        && project.method(m).is_static()
                                });
                                if others {
                                    let nl = if ctext.contains("\r\n") { "\r\n" } else { "\n" };
                                    push(Edit::insert(
                                        next_line_start(ctext, imp_end),
                                        format!("import static {dest_q}.{};{nl}", self.decl.name),
                                    ));
                                } else {
                                    push(Edit::replace(path_start..path_end, format!("{dest_q}.{}", self.decl.name)));
                                }
                            }
                        }
                        (Receiver::Implicit, _) | (Receiver::Name(_), Some(_)) if ctype == dest => {
                            // Inside the destination the method needs no qualifier.
                            if let Some(o) = object {
                                push(Edit::delete(o.start_byte()..name_node.start_byte()));
                            }
                        }
                        (Receiver::Implicit, _) | (Receiver::Name(_), Some(_)) => {
                            let (text, import) = self.type_ref(caller.method.file(), ctype, dest);
                            if let Some(import) = import {
                                out.imports.entry(caller.method.file()).or_default().insert((import, false, false));
                            }
                            match object {
                                Some(o) => {
                                    push(Edit::replace(o.start_byte()..name_node.start_byte(), format!("{text}.")))
                                }
                                None => push(Edit::insert(name_node.start_byte(), format!("{text}."))),
                            }
                        }
                        _ => {
                            return Err(refuse(
                                Reason::ComplexReceiver,
                                format!(
                                    "the static call at {at} is made through an expression; call it as `{}.{}(...)` first",
                                    project.type_decl(self.source).name,
                                    self.decl.name
                                ),
                            ));
                        }
                    }
                }
            }
            // A class named only to reach the method may no longer be needed by the caller's file.
            out.unused.entry(caller.method.file()).or_default().insert(project.type_decl(self.source).name.clone());
            out.caller_types.push(ctype);
            out.count += 1;
        }
        Ok(out)
    }

    /// Whether `ty` is the source or declared (at any depth) inside it.
    fn nested_in_source(&self, ty: TypeId) -> bool {
        let mut t = Some(ty);
        while let Some(x) = t {
            if x == self.source {
                return true;
            }
            t = self.project.enclosing_type(x);
        }
        false
    }

    /// `this` as the source object seen from code in `ty`.
    fn this_at(&self, ty: TypeId) -> String {
        let project = self.project;
        if ty == self.source || project.supertypes(ty).contains(&self.source) {
            "this".into()
        } else {
            format!("{}.this", project.type_decl(self.source).name)
        }
    }

    /// The field as named from an unqualified call in `caller` (inside `ty`).
    fn field_at(&self, field: &FieldDecl, caller: MethodId, ty: TypeId, at: &str) -> Result<String, Refusal> {
        let project = self.project;
        let cdecl = project.method(caller);
        let shadowed =
            cdecl.params.iter().any(|p| p.name == field.name) || cdecl.locals.iter().any(|l| l.name == field.name);
        if ty == self.source {
            return Ok(if shadowed { format!("this.{}", field.name) } else { field.name.clone() });
        }
        let vis = Vis::of(&field.modifiers, false);
        if !self.accessible(ty, self.source, vis) {
            return Err(refuse(
                Reason::FieldNotAccessible,
                format!(
                    "the call at {at} would have to go through the field `{}`, which `{}` cannot see; keep a delegate (--keep-delegate)",
                    field.name,
                    project.qualified_name(ty)
                ),
            ));
        }
        let own = project.type_decl(ty).fields.iter().any(|f| f.name == field.name);
        if shadowed || own {
            if self.nested_in_source(ty) {
                return Ok(format!("{}.this.{}", project.type_decl(self.source).name, field.name));
            }
            return Err(refuse(
                Reason::FieldShadowed,
                format!("at {at} the name `{}` means something else; rename it there first", field.name),
            ));
        }
        Ok(field.name.clone())
    }
}

/// Call-site edits of every file, with what the rewrite needs around them.
#[derive(Default)]
struct CallSites {
    edits: Vec<(PathBuf, String, Edit)>,
    caller_types: Vec<TypeId>,
    /// Imports each caller's file needs (`(path, is_static, wildcard)`).
    imports: HashMap<FileId, BTreeSet<(String, bool, bool)>>,
    /// Simple names whose imports may have become unused, per file.
    unused: HashMap<FileId, BTreeSet<String>>,
    count: usize,
}

/// A source member the moved body reaches by name.
struct Member {
    name: String,
    owner: TypeId,
    vis: Vis,
    line: usize,
}

/// Rewrites the body of the moved method for its destination, collecting what the move needs.
struct Rewriter<'m, 'p> {
    m: &'m Mover<'p>,
    via: &'m Via<'p>,
    dest: TypeId,
    src: &'p str,
    flow: MethodFlow<'p>,
    /// The variable index of the parameter the method moves through.
    p_var: Option<usize>,
    source_name: String,
    /// Names of the method's parameters and locals (and the new parameter's).
    shadow: BTreeSet<String>,
    /// Call sites inside the method (its own and its anonymous classes'), by byte range.
    calls: HashMap<(usize, usize), (MethodId, usize)>,
    anon_depth: usize,
    edits: Vec<Edit>,
    needs_source: bool,
    members: Vec<Member>,
    /// Simple names of types the moved text mentions.
    names: BTreeSet<String>,
    /// Static imports of the source file the body relies on: (path, wildcard).
    static_imports: BTreeSet<(String, bool)>,
    recursive: Vec<Node<'p>>,
}

impl<'m, 'p> Rewriter<'m, 'p> {
    fn new(m: &'m Mover<'p>, via: &'m Via<'p>, dest: TypeId, node: Node<'p>) -> Rewriter<'m, 'p> {
        let src: &'p str = &m.file.text;
        let flow = MethodFlow::analyze(node, src);
        let params_node = node.child_by_field_name("parameters");
        let p_var = match via {
            Via::Param { name, .. } => flow.vars.iter().position(|v| {
                v.kind == VarKind::Parameter
                    && v.name == *name
                    && params_node.is_some_and(|p| {
                        p.start_byte() <= v.name_node.start_byte() && v.name_node.end_byte() <= p.end_byte()
                    })
            }),
            _ => None,
        };
        let mut shadow: BTreeSet<String> = flow.vars.iter().map(|v| v.name.clone()).collect();
        let base = lower_camel(&m.project.type_decl(m.source).name);
        let mut source_name = base.clone();
        let mut n = 2;
        while shadow.contains(&source_name) || crate::java::syntax::is_reserved(&source_name) {
            source_name = format!("{base}{n}");
            n += 1;
        }
        shadow.insert(source_name.clone());
        let mut calls = HashMap::new();
        let span = m.decl.span;
        for mid in m.project.methods_in(m.method.file()).unwrap_or_default() {
            let d = m.project.method(mid);
            if span.contains(&d.span) {
                for (i, c) in d.calls.iter().enumerate() {
                    calls.entry((c.span.start_byte, c.span.end_byte)).or_insert((mid, i));
                }
            }
        }
        let mut names = BTreeSet::new();
        // Types of the declaration (return, parameters, throws, annotations) count as used.
        collect_type_names(node, src, node.child_by_field_name("body"), &mut names);
        Rewriter {
            m,
            via,
            dest,
            src,
            flow,
            p_var,
            source_name,
            shadow,
            calls,
            anon_depth: 0,
            edits: Vec::new(),
            needs_source: false,
            members: Vec::new(),
            names,
            static_imports: BTreeSet::new(),
            recursive: Vec::new(),
        }
    }

    fn text(&self, n: Node<'_>) -> &'p str {
        &self.src[n.byte_range()]
    }

    fn line(&self, n: Node<'_>) -> usize {
        n.start_position().row + 1
    }

    fn dest_name(&self) -> &'p str {
        &self.m.project.type_decl(self.dest).name
    }

    fn source_simple(&self) -> &'p str {
        &self.m.project.type_decl(self.m.source).name
    }

    /// `this` for the destination object where the text ends up.
    fn dest_this(&self) -> String {
        if self.anon_depth > 0 { format!("{}.this", self.dest_name()) } else { "this".into() }
    }

    fn visit(&mut self, n: Node<'p>) -> Result<(), Refusal> {
        match n.kind() {
            "method_invocation" => return self.invocation(n),
            "field_access" => return self.field_access(n),
            "this" => return self.bare_this(n),
            "super" => return Err(self.super_use(n)),
            "identifier" => return self.identifier(n),
            "type_identifier" => {
                let is_qualified_tail = n.parent().is_some_and(|p| {
                    p.kind() == "scoped_type_identifier" && p.named_child(0).is_some_and(|f| f.id() != n.id())
                });
                if !is_qualified_tail {
                    self.names.insert(self.text(n).to_string());
                }
                return Ok(());
            }
            "marker_annotation" | "annotation" => {
                if let Some(name) = n.child_by_field_name("name") {
                    let text = self.text(name);
                    self.names.insert(text.split('.').next().unwrap_or(text).to_string());
                }
                if let Some(args) = n.child_by_field_name("arguments") {
                    self.visit(args)?;
                }
                return Ok(());
            }
            "class_body" => {
                self.anon_depth += 1;
                let r = self.children(n);
                self.anon_depth -= 1;
                return r;
            }
            "line_comment" | "block_comment" | "string_literal" | "character_literal" | "text_block" => return Ok(()),
            _ => {}
        }
        self.children(n)
    }

    fn children(&mut self, n: Node<'p>) -> Result<(), Refusal> {
        let mut cursor = n.walk();
        let kids: Vec<Node<'p>> = n.children(&mut cursor).collect();
        for k in kids {
            self.visit(k)?;
        }
        Ok(())
    }

    fn resolution(&self, call: Node<'_>) -> Option<Resolution> {
        let &(mid, i) = self.calls.get(&(call.start_byte(), call.end_byte()))?;
        Some(self.m.project.resolve_call(mid, i))
    }

    /// Whether `o` denotes the destination object: the parameter, or the field (`f`, `this.f`).
    fn is_dest(&self, o: Node<'_>) -> bool {
        match self.via {
            Via::Param { .. } => {
                o.kind() == "identifier"
                    && self.p_var.is_some()
                    && self.flow.resolve(self.text(o), o.start_byte()) == self.p_var
            }
            Via::Field { field } => match o.kind() {
                "identifier" => self.text(o) == field.name && self.flow.resolve(self.text(o), o.start_byte()).is_none(),
                "field_access" => {
                    self.anon_depth == 0
                        && o.child_by_field_name("object").is_some_and(|x| x.kind() == "this")
                        && o.child_by_field_name("field").is_some_and(|f| self.text(f) == field.name)
                }
                _ => false,
            },
            Via::Static => false,
        }
    }

    fn super_use(&self, n: Node<'_>) -> Refusal {
        refuse(
            Reason::SuperCall,
            format!("line {} uses `super`, which would mean the destination's superclass after the move", self.line(n)),
        )
    }

    fn invocation(&mut self, n: Node<'p>) -> Result<(), Refusal> {
        let project = self.m.project;
        let object = n.child_by_field_name("object");
        let Some(name) = n.child_by_field_name("name") else { return self.children(n) };
        let args = n.child_by_field_name("arguments");
        let res = self.resolution(n);
        let is_self = matches!(res, Some(Resolution::Resolved { method }) if method == self.m.method);
        match object {
            None => {
                if is_self && self.anon_depth == 0 {
                    return self.recursion(n, args);
                }
                match res {
                    Some(Resolution::Resolved { method }) => self.implicit_call(n, name, &[method])?,
                    Some(Resolution::Ambiguous { candidates }) => self.implicit_call(n, name, &candidates)?,
                    _ => self.unresolved_call(n, name)?,
                }
            }
            Some(o) if o.kind() == "this" => {
                if self.anon_depth == 0 {
                    if is_self {
                        return self.recursion(n, args);
                    }
                    self.edits.push(Edit::replace(o.byte_range(), self.source_name.clone()));
                    self.needs_source = true;
                    if let Some(Resolution::Resolved { method }) = res {
                        self.member_method(method, n);
                    }
                }
            }
            Some(o) if o.kind() == "super" => return Err(self.super_use(o)),
            Some(o) if self.is_dest(o) => {
                let prefix = if self.anon_depth > 0 { format!("{}.", self.dest_this()) } else { String::new() };
                self.edits.push(Edit::replace(o.start_byte()..name.start_byte(), prefix));
            }
            Some(o) if is_qualified_this(o, self.src, self.source_simple()) => {
                self.edits.push(Edit::replace(o.byte_range(), self.source_name.clone()));
                self.needs_source = true;
            }
            Some(o) if is_self => {
                let names_source = matches!(self.via, Via::Static)
                    && matches!(o.kind(), "identifier" | "scoped_identifier" | "field_access")
                    && project.resolve_type(self.m.method.file(), Some(self.m.source.index()), self.text(o))
                        == Some(self.m.source);
                if !names_source {
                    return Err(refuse(
                        Reason::RecursiveOtherReceiver,
                        format!(
                            "line {} calls the method itself on another object (`{}`); mantra moves only methods that recurse on the same object",
                            self.line(n),
                            self.text(n).split('(').next().unwrap_or("")
                        ),
                    ));
                }
                self.edits.push(Edit::replace(o.start_byte()..name.start_byte(), String::new()));
            }
            Some(o) => self.visit(o)?,
        }
        if let Some(args) = args {
            self.visit(args)?;
        }
        if let Some(ta) = n.child_by_field_name("type_arguments") {
            self.visit(ta)?;
        }
        Ok(())
    }

    /// A call of the method itself on the same object: drop the parameter (or add the source).
    fn recursion(&mut self, n: Node<'p>, args: Option<Node<'p>>) -> Result<(), Refusal> {
        let Some(args) = args else { return Ok(()) };
        let items = list_items(args);
        let skip = match self.via {
            Via::Param { index, name } => {
                let ok = items.get(*index).is_some_and(|a| self.is_dest(*a));
                if !ok {
                    return Err(refuse(
                        Reason::RecursiveOtherReceiver,
                        format!(
                            "line {} calls the method itself with another value for `{name}`; after the move that would be a call on another object, which mantra does not rewrite",
                            self.line(n)
                        ),
                    ));
                }
                Some(*index)
            }
            _ => None,
        };
        for (i, a) in items.iter().enumerate() {
            if Some(i) != skip {
                self.visit(*a)?;
            }
        }
        self.recursive.push(n);
        Ok(())
    }

    fn finish_recursion(&mut self) -> Result<(), Refusal> {
        let calls = std::mem::take(&mut self.recursive);
        for n in calls {
            let (Some(name), Some(args)) = (n.child_by_field_name("name"), n.child_by_field_name("arguments")) else {
                continue;
            };
            if let Some(o) = n.child_by_field_name("object") {
                self.edits.push(Edit::replace(o.start_byte()..name.start_byte(), String::new()));
            }
            let remove = match self.via {
                Via::Param { index, .. } => Some(*index),
                _ => None,
            };
            let prepend = self.needs_source.then(|| self.source_name.clone());
            self.edits.extend(rewrite_list(args, remove, prepend));
        }
        Ok(())
    }

    /// An unqualified call that resolved to `targets` (one, or same-named overloads).
    fn implicit_call(&mut self, n: Node<'p>, name: Node<'p>, targets: &[MethodId]) -> Result<(), Refusal> {
        let project = self.m.project;
        let source_side: Vec<TypeId> =
            std::iter::once(self.m.source).chain(project.supertypes(self.m.source)).collect();
        let Some(&first) = targets.first() else { return Ok(()) };
        let owner = project.owner(first);
        let any_instance = targets.iter().any(|&t| !project.method(t).is_static());
        if source_side.contains(&owner) {
            if self.anon_depth > 0 && self.declared_in_anonymous(n, self.text(name)) {
                return Ok(());
            }
            if any_instance {
                self.edits.push(Edit::insert(name.start_byte(), format!("{}.", self.source_name)));
                self.needs_source = true;
            } else {
                self.edits.push(Edit::insert(name.start_byte(), format!("{}.", self.source_simple())));
                self.names.insert(self.source_simple().to_string());
            }
            for &t in targets {
                self.member_method(t, n);
            }
            return Ok(());
        }
        // An enclosing class's method (the source is a nested class).
        let mut outer = project.enclosing_type(self.m.source);
        while let Some(o) = outer {
            let side: Vec<TypeId> = std::iter::once(o).chain(project.supertypes(o)).collect();
            if side.contains(&owner) {
                if any_instance {
                    return Err(refuse(
                        Reason::OuterInstanceUsed,
                        format!(
                            "line {} calls `{}` of the enclosing instance of `{}`; the destination has no such instance",
                            self.line(n),
                            self.text(name),
                            project.qualified_name(self.m.source)
                        ),
                    ));
                }
                let outer_name = project.type_decl(o).name.clone();
                self.edits.push(Edit::insert(name.start_byte(), format!("{outer_name}.")));
                self.names.insert(outer_name);
                for &t in targets {
                    self.member_method(t, n);
                }
                return Ok(());
            }
            outer = project.enclosing_type(o);
        }
        // Anything else is visible as it is: an anonymous class's own method, or a static import.
        if !self.in_anonymous_scope(owner) {
            self.static_import_for(self.text(name), n)?;
        }
        Ok(())
    }

    /// Whether `owner` is (a supertype of) an anonymous or local class declared inside the method.
    fn in_anonymous_scope(&self, owner: TypeId) -> bool {
        let project = self.m.project;
        let span = self.m.decl.span;
        project.types_in(self.m.method.file()).unwrap_or_default().into_iter().any(|t| {
            let d = project.type_decl(t);
            span.contains(&d.span) && (t == owner || project.supertypes(t).contains(&owner))
        })
    }

    /// Whether an anonymous or local class around `n` declares a method called `name` itself.
    fn declared_in_anonymous(&self, n: Node<'_>, name: &str) -> bool {
        let mut cur = n.parent();
        while let Some(p) = cur {
            if p.kind() == "class_body" {
                let mut c = p.walk();
                if p.named_children(&mut c).any(|m| {
                    m.kind() == "method_declaration"
                        && m.child_by_field_name("name").is_some_and(|x| self.text(x) == name)
                }) {
                    return true;
                }
            }
            cur = p.parent();
        }
        false
    }

    /// An unqualified call the model could not resolve: a static import, or refused.
    fn unresolved_call(&mut self, n: Node<'p>, name: Node<'p>) -> Result<(), Refusal> {
        let text = self.text(name);
        if self.anon_depth > 0 {
            return Ok(()); // most likely the anonymous class's (external) supertype's method
        }
        if self.static_import_for(text, n)? {
            return Ok(());
        }
        let project = self.m.project;
        let external = project.external_supertypes(self.m.source);
        let why = if external.is_empty() {
            "no declaration in the project".to_string()
        } else {
            format!("it may be inherited from {}, outside the project", external.join(", "))
        };
        Err(refuse(
            Reason::UnresolvedCall,
            format!(
                "line {} calls `{text}(...)` without a receiver and mantra cannot tell what it is ({why}); it may not exist in the destination",
                self.line(n)
            ),
        ))
    }

    /// Records the source's static import that provides `name`; `false` if there is none.
    fn static_import_for(&mut self, name: &str, n: Node<'_>) -> Result<bool, Refusal> {
        let syms = self.m.project.symbols_of(self.m.source);
        let single =
            syms.imports.iter().find(|i| i.is_static && !i.wildcard && i.path.rsplit('.').next() == Some(name));
        let found = match single {
            Some(i) => Some((i.path.clone(), false)),
            None => syms.imports.iter().find(|i| i.is_static && i.wildcard).map(|i| (i.path.clone(), true)),
        };
        let Some(found) = found else { return Ok(false) };
        // The destination's own member of that name would capture the unqualified use.
        let project = self.m.project;
        let dest_has = std::iter::once(self.dest).chain(project.supertypes(self.dest)).any(|t| {
            project.methods_of(t).into_iter().any(|m| project.method(m).name == name)
                || project.type_decl(t).fields.iter().any(|f| f.name == name)
        });
        if dest_has {
            return Err(refuse(
                Reason::NameCapture,
                format!(
                    "line {} uses `{name}` from a static import, but `{}` has a member of that name that would take its place",
                    self.line(n),
                    project.qualified_name(self.dest)
                ),
            ));
        }
        self.static_imports.insert(found);
        Ok(true)
    }

    fn member_method(&mut self, t: MethodId, at: Node<'_>) {
        let project = self.m.project;
        let d = project.method(t);
        let owner = project.owner(t);
        let in_interface = project.type_decl(owner).kind == TypeKind::Interface;
        self.members.push(Member {
            name: format!("{}(...)", d.name),
            owner,
            vis: Vis::of(&d.modifiers, in_interface),
            line: self.line(at),
        });
    }

    fn member_field(&mut self, f: &FieldDecl, owner: TypeId, at: Node<'_>) {
        let project = self.m.project;
        let in_interface = project.type_decl(owner).kind == TypeKind::Interface;
        let vis = if f.kind == crate::java::symbols::FieldKind::EnumConstant {
            self.m.type_vis(owner)
        } else {
            Vis::of(&f.modifiers, in_interface)
        };
        self.members.push(Member { name: f.name.clone(), owner, vis, line: self.line(at) });
    }

    fn field_access(&mut self, n: Node<'p>) -> Result<(), Refusal> {
        let (Some(object), Some(field)) = (n.child_by_field_name("object"), n.child_by_field_name("field")) else {
            return self.children(n);
        };
        if field.kind() == "this" {
            // `Outer.this`
            if is_qualified_this(n, self.src, self.source_simple()) {
                self.edits.push(Edit::replace(n.byte_range(), self.source_name.clone()));
                self.needs_source = true;
                return Ok(());
            }
            return Err(refuse(
                Reason::OuterInstanceUsed,
                format!(
                    "line {} uses `{}`, an enclosing instance the destination does not have",
                    self.line(n),
                    self.text(n)
                ),
            ));
        }
        if self.is_dest(n) {
            return self.dest_value(n);
        }
        match object.kind() {
            "this" if self.anon_depth == 0 => {
                let name = self.text(field);
                match self.source_field(name) {
                    Some((owner, f)) => {
                        self.member_field(f, owner, n);
                        if f.is_static() {
                            let q = self.source_simple().to_string();
                            self.names.insert(q.clone());
                            self.edits.push(Edit::replace(object.byte_range(), q));
                        } else {
                            self.edits.push(Edit::replace(object.byte_range(), self.source_name.clone()));
                            self.needs_source = true;
                        }
                        Ok(())
                    }
                    None => Err(refuse(
                        Reason::UnresolvedName,
                        format!(
                            "line {} uses `this.{name}`, which the project does not declare (inherited from outside the project?); mantra cannot tell whether the destination may use it",
                            self.line(n)
                        ),
                    )),
                }
            }
            "this" => Ok(()),
            "super" => Err(self.super_use(object)),
            _ if self.is_dest(object) => {
                let name = self.text(field);
                let prefix = if self.anon_depth > 0 {
                    format!("{}.", self.dest_this())
                } else if self.shadow.contains(name) {
                    "this.".to_string()
                } else {
                    String::new()
                };
                self.edits.push(Edit::replace(object.start_byte()..field.start_byte(), prefix));
                Ok(())
            }
            _ => self.visit(object),
        }
    }

    /// A use of the destination object as a value: it becomes `this`.
    fn dest_value(&mut self, n: Node<'p>) -> Result<(), Refusal> {
        if let Some(p) = n.parent() {
            let written = (p.kind() == "assignment_expression"
                && p.child_by_field_name("left").is_some_and(|l| l.id() == n.id()))
                || p.kind() == "update_expression";
            if written {
                let what = match self.via {
                    Via::Param { name, .. } => format!("the parameter `{name}`"),
                    Via::Field { field } => format!("the field `{}`", field.name),
                    Via::Static => String::new(),
                };
                return Err(refuse(
                    Reason::DestinationReassigned,
                    format!(
                        "line {} assigns {what}, which becomes `this` after the move; `this` cannot be assigned",
                        self.line(n)
                    ),
                ));
            }
        }
        self.edits.push(Edit::replace(n.byte_range(), self.dest_this()));
        Ok(())
    }

    fn bare_this(&mut self, n: Node<'p>) -> Result<(), Refusal> {
        if self.anon_depth == 0 {
            self.edits.push(Edit::replace(n.byte_range(), self.source_name.clone()));
            self.needs_source = true;
        }
        Ok(())
    }

    fn identifier(&mut self, n: Node<'p>) -> Result<(), Refusal> {
        if !is_variable_use(n) {
            return Ok(());
        }
        let name = self.text(n);
        if let Some(var) = self.flow.resolve(name, n.start_byte()) {
            if Some(var) == self.p_var {
                return self.dest_value(n);
            }
            return Ok(());
        }
        if self.is_dest(n) {
            return self.dest_value(n);
        }
        if n.parent().is_some_and(|p| p.kind() == "switch_label") {
            return Ok(()); // an enum constant of the switch's type
        }
        let project = self.m.project;
        if let Some((owner, f)) = self.source_field(name) {
            if self.anon_depth > 0 && self.declared_field_in_anonymous(n, name) {
                return Ok(());
            }
            self.member_field(f, owner, n);
            if f.is_static() {
                let q = self.source_simple().to_string();
                self.edits.push(Edit::insert(n.start_byte(), format!("{q}.")));
                self.names.insert(q);
            } else {
                self.edits.push(Edit::insert(n.start_byte(), format!("{}.", self.source_name)));
                self.needs_source = true;
            }
            return Ok(());
        }
        let mut outer = project.enclosing_type(self.m.source);
        while let Some(o) = outer {
            if let Some(f) = project.type_decl(o).fields.iter().find(|f| f.name == name) {
                if !f.is_static() {
                    return Err(refuse(
                        Reason::OuterInstanceUsed,
                        format!(
                            "line {} uses the field `{name}` of the enclosing instance; the destination has no such instance",
                            self.line(n)
                        ),
                    ));
                }
                let q = project.type_decl(o).name.clone();
                self.member_field(f, o, n);
                self.edits.push(Edit::insert(n.start_byte(), format!("{q}.")));
                self.names.insert(q);
                return Ok(());
            }
            outer = project.enclosing_type(o);
        }
        // Not a variable the project declares: a type, a package, a static import, or inherited.
        if name.starts_with(|c: char| c.is_uppercase())
            && !name.chars().all(|c| c.is_uppercase() || c == '_' || c.is_ascii_digit())
        {
            self.names.insert(name.to_string());
            return Ok(());
        }
        let qualifier = n.parent().is_some_and(|p| {
            matches!(p.kind(), "field_access" | "method_invocation")
                && p.child_by_field_name("object").is_some_and(|o| o.id() == n.id())
        });
        if self.static_import_for(name, n)? {
            return Ok(());
        }
        if name.starts_with(|c: char| c.is_uppercase()) {
            self.names.insert(name.to_string());
            return Ok(());
        }
        if !qualifier && self.anon_depth == 0 && !project.external_supertypes(self.m.source).is_empty() {
            return Err(refuse(
                Reason::UnresolvedName,
                format!(
                    "line {} uses `{name}`, which is neither a local nor a field the project declares (inherited from {}?); the destination may not have it",
                    self.line(n),
                    project.external_supertypes(self.m.source).join(", ")
                ),
            ));
        }
        Ok(())
    }

    fn declared_field_in_anonymous(&self, n: Node<'_>, name: &str) -> bool {
        let mut cur = n.parent();
        while let Some(p) = cur {
            if p.kind() == "class_body" {
                let mut c = p.walk();
                let found = p.named_children(&mut c).any(|m| {
                    m.kind() == "field_declaration" && {
                        let mut c2 = m.walk();
                        m.children_by_field_name("declarator", &mut c2)
                            .any(|d| d.child_by_field_name("name").is_some_and(|x| self.text(x) == name))
                    }
                });
                if found {
                    return true;
                }
            }
            cur = p.parent();
        }
        false
    }

    /// A field of the source class or of its project supertypes.
    fn source_field(&self, name: &str) -> Option<(TypeId, &'p FieldDecl)> {
        let project = self.m.project;
        std::iter::once(self.m.source)
            .chain(project.supertypes(self.m.source))
            .find_map(|t| project.type_decl(t).fields.iter().find(|f| f.name == name).map(|f| (t, f)))
    }
}

/// Java's implicitly imported `java.lang` names that moved code commonly uses.
const JAVA_LANG: &[&str] = &[
    "Object",
    "String",
    "StringBuilder",
    "StringBuffer",
    "Integer",
    "Long",
    "Short",
    "Byte",
    "Double",
    "Float",
    "Boolean",
    "Character",
    "Number",
    "Math",
    "System",
    "Thread",
    "Runnable",
    "Iterable",
    "Comparable",
    "CharSequence",
    "Class",
    "Enum",
    "Record",
    "Void",
    "Exception",
    "RuntimeException",
    "Error",
    "Throwable",
    "IllegalArgumentException",
    "IllegalStateException",
    "NullPointerException",
    "UnsupportedOperationException",
    "IndexOutOfBoundsException",
    "ArithmeticException",
    "ClassCastException",
    "NumberFormatException",
    "InterruptedException",
    "CloneNotSupportedException",
    "AssertionError",
    "Override",
    "Deprecated",
    "SuppressWarnings",
    "FunctionalInterface",
    "SafeVarargs",
    "AutoCloseable",
    "Cloneable",
    "Process",
    "ProcessBuilder",
    "Runtime",
    "ThreadLocal",
    "StackTraceElement",
    "ReflectiveOperationException",
    "ClassNotFoundException",
    "SecurityException",
    "ArrayIndexOutOfBoundsException",
    "StringIndexOutOfBoundsException",
    "NegativeArraySizeException",
    "ArrayStoreException",
    "OutOfMemoryError",
    "StackOverflowError",
    "LinkageError",
    "ExceptionInInitializerError",
    "InheritableThreadLocal",
    "Appendable",
    "Readable",
    "Character.UnicodeBlock",
    "StrictMath",
    "Module",
    "ModuleLayer",
    "ClassLoader",
    "Package",
];

/// `Source.this` (a `field_access` whose field is `this`) naming the source class.
fn is_qualified_this(n: Node<'_>, src: &str, source: &str) -> bool {
    n.kind() == "field_access"
        && n.child_by_field_name("field").is_some_and(|f| f.kind() == "this")
        && n.child_by_field_name("object").is_some_and(|o| &src[o.byte_range()] == source)
}

/// Simple type names written in the declaration of `method` outside `skip` (its body).
fn collect_type_names(method: Node<'_>, src: &str, skip: Option<Node<'_>>, out: &mut BTreeSet<String>) {
    crate::java::syntax::walk(method, &mut |n| {
        if skip.is_some_and(|s| s.id() == n.id()) {
            return false;
        }
        match n.kind() {
            "type_identifier" => {
                let tail = n.parent().is_some_and(|p| {
                    p.kind() == "scoped_type_identifier" && p.named_child(0).is_some_and(|f| f.id() != n.id())
                });
                if !tail {
                    out.insert(src[n.byte_range()].to_string());
                }
            }
            "marker_annotation" | "annotation" => {
                if let Some(name) = n.child_by_field_name("name") {
                    let text = &src[name.byte_range()];
                    out.insert(text.split('.').next().unwrap_or(text).to_string());
                }
            }
            _ => {}
        }
        true
    });
}

/// `invoiceService` from `InvoiceService`; `url` from `URL`.
fn lower_camel(name: &str) -> String {
    let upper = name.chars().take_while(|c| c.is_uppercase()).count();
    let n = if upper > 1 && upper < name.chars().count() { upper - 1 } else { upper.max(1) };
    name.chars().enumerate().map(|(i, c)| if i < n { c.to_lowercase().next().unwrap_or(c) } else { c }).collect()
}

/// The items of an argument or parameter list (comments excluded).
fn list_items(list: Node<'_>) -> Vec<Node<'_>> {
    let mut c = list.walk();
    list.named_children(&mut c).filter(|n| !is_comment(n.kind())).collect()
}

/// Edits of a parenthesised list: drop item `remove` (with its comma), put `prepend` first.
fn rewrite_list(list: Node<'_>, remove: Option<usize>, prepend: Option<String>) -> Vec<Edit> {
    let items = list_items(list);
    let mut edits = Vec::new();
    let open = list.start_byte() + 1;
    let remaining = items.len() - usize::from(remove.is_some_and(|r| r < items.len()));
    if let Some(r) = remove.filter(|&r| r < items.len()) {
        let range = if r > 0 {
            items[r - 1].end_byte()..items[r].end_byte()
        } else if items.len() > 1 {
            items[0].start_byte()..items[1].start_byte()
        } else {
            items[0].byte_range()
        };
        match (&prepend, remaining, r) {
            // the only item replaced by the new one
            (Some(p), 0, _) => {
                edits.push(Edit::replace(range, p.clone()));
                return edits;
            }
            _ => edits.push(Edit::delete(range)),
        }
    }
    if let Some(p) = prepend {
        let first = items.iter().enumerate().find(|(i, _)| Some(*i) != remove).map(|(_, n)| n.start_byte());
        match first {
            Some(at) => edits.push(Edit::insert(at, format!("{p}, "))),
            None => edits.push(Edit::insert(open, p)),
        }
    }
    edits
}

/// Whether an expression needs parentheses to be a method call's receiver.
fn needs_parens(n: Node<'_>) -> bool {
    !matches!(
        n.kind(),
        "identifier"
            | "field_access"
            | "method_invocation"
            | "this"
            | "parenthesized_expression"
            | "array_access"
            | "object_creation_expression"
            | "string_literal"
            | "class_literal"
    )
}

fn skip_spaces(src: &str, at: usize) -> usize {
    at + (src[at..].len() - src[at..].trim_start_matches([' ', '\t', '\n', '\r']).len())
}

/// The first child of a method declaration after its modifiers (type parameters or return type).
fn after_modifiers(node: Node<'_>) -> Option<Node<'_>> {
    let mut c = node.walk();
    node.named_children(&mut c).find(|n| n.kind() != "modifiers" && !is_comment(n.kind()))
}

/// The declaration node of a method.
fn method_node<'t>(file: &'t SourceFile, decl: &MethodDecl) -> Option<Node<'t>> {
    node_with_span(file, decl.span.start_byte, decl.span.end_byte, "method_declaration")
}

fn node_with_span<'t>(file: &'t SourceFile, start: usize, end: usize, kind: &str) -> Option<Node<'t>> {
    let mut n = file.root().descendant_for_byte_range(start, end)?;
    loop {
        if n.kind() == kind && n.start_byte() == start && n.end_byte() == end {
            return Some(n);
        }
        n = n.parent()?;
    }
}

/// The bytes to delete for a member spanning `start..end`: its whole lines and one blank line around it.
fn removal_range(src: &str, start: usize, end: usize) -> std::ops::Range<usize> {
    let ls = line_start(src, start);
    let mut s = if src[ls..start].trim().is_empty() { ls } else { start };
    let line_end = src[end..].find('\n').map_or(src.len(), |i| end + i + 1);
    let mut e = if src[end..line_end].trim().is_empty() { line_end } else { end };
    if s == ls && s > 0 {
        let prev = line_start(src, s - 1);
        if src[prev..s].trim().is_empty() {
            s = prev;
            return s..e;
        }
    }
    if e == line_end && e < src.len() {
        let next = src[e..].find('\n').map_or(src.len(), |i| e + i + 1);
        if src[e..next].trim().is_empty() && next <= src.len() && src[..s].trim_end().ends_with('{') {
            e = next;
        }
    }
    s..e
}

/// `line` (starting with `indent`) with its further indentation in `to` units instead of `from` units,
/// so a method indented with spaces reads right in a class indented with tabs and vice versa.
fn convert_indent(line: String, indent: &str, from: &str, to: &str) -> String {
    if from == to || from.is_empty() {
        return line;
    }
    let Some(rest) = line.strip_prefix(indent) else { return line };
    let mut rel = rest;
    let mut units = 0;
    while let Some(r) = rel.strip_prefix(from) {
        rel = r;
        units += 1;
    }
    if units == 0 {
        return line;
    }
    format!("{indent}{}{rel}", to.repeat(units))
}

/// The indentation of the destination's members.
fn member_indent(project: &Project, dest: TypeId) -> String {
    let file = project.source(dest);
    let src = &file.text;
    let decl = project.type_decl(dest);
    if let Some(body) = decl.body
        && let Some(node) = file.root().descendant_for_byte_range(body.start_byte, body.end_byte)
    {
        let mut c = node.walk();
        let first = node
            .named_children(&mut c)
            .find(|m| !is_comment(m.kind()) && m.start_position().row != node.start_position().row);
        if let Some(m) = first {
            return line_indent(src, m.start_byte()).to_string();
        }
    }
    let outer = line_indent(src, decl.span.start_byte);
    let unit = if outer.starts_with('\t') || (outer.is_empty() && src.contains("\n\t")) { "\t" } else { "    " };
    format!("{outer}{unit}")
}

/// The insertion of the moved method's lines before the destination's closing brace.
fn insertion(project: &Project, dest: TypeId, lines: &[String]) -> Edit {
    let file = project.source(dest);
    let src = &file.text;
    let nl = if src.contains("\r\n") { "\r\n" } else { "\n" };
    let body = project.type_decl(dest).body.unwrap_or(project.type_decl(dest).span);
    let close = body.end_byte.saturating_sub(1);
    let text = lines.join(nl);
    let ls = line_start(src, close);
    if src[ls..close].trim().is_empty() && ls > body.start_byte {
        let before = &src[body.start_byte + 1..ls];
        let prev_blank =
            before.trim_end_matches([' ', '\t']).ends_with(&format!("{nl}{nl}")) || before.trim().is_empty();
        let lead = if prev_blank { "" } else { nl };
        Edit::insert(ls, format!("{lead}{text}{nl}"))
    } else {
        let indent = line_indent(src, close);
        let close_indent = if src[ls..close].trim().is_empty() { indent.to_string() } else { String::new() };
        Edit::insert(close, format!("{nl}{text}{nl}{close_indent}"))
    }
}

/// The start of the line after byte `at`.
fn next_line_start(src: &str, at: usize) -> usize {
    src[at..].find('\n').map_or(src.len(), |i| at + i + 1)
}

/// A single static import `import static a.Source.name;` in the caller's file:
/// (file, import start, import end, path start, path end).
fn cfile_static_import(
    project: &Project,
    caller: MethodId,
    source_q: &str,
    name: &str,
) -> Option<(FileId, usize, usize, usize, usize)> {
    let file = project.file(caller.file()).ok()?;
    let wanted = format!("{source_q}.{name}");
    let imp = file.symbols.imports.iter().find(|i| i.is_static && !i.wildcard && i.path == wanted)?;
    let decl = node_with_span(&file.source, imp.span.start_byte, imp.span.end_byte, "import_declaration")?;
    let path = named_child_of_kind(decl, "scoped_identifier")?;
    Some((caller.file(), imp.span.start_byte, imp.span.end_byte, path.start_byte(), path.end_byte()))
}

/// The declaration of the method `name` with erased parameters `params` in type `display` of `text`.
fn find_signature(text: &str, name: &str, params: &[String], display: &str) -> Option<String> {
    let syms = extract(&SourceFile::parse("Moved.java", text.to_string()));
    let ty = syms.types.iter().position(|t| t.display == display)? as u32;
    syms.methods
        .iter()
        .find(|m| m.owner == ty && m.name == name && m.erased_params() == params)
        .map(|m| m.declaration())
}

#[cfg(test)]
mod tests;
