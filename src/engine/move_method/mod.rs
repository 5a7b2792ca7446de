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
//!
//! Files: `preconditions` (what the move must satisfy), `body` (the moved text rewritten),
//! `call_sites` (every call rewritten), `declaration` (header, imports, delegate), `text`
//! (layout helpers); this file holds the spec and drives them (`Mover::run`).

mod body;
mod call_sites;
mod declaration;
mod dispatch;
mod new_class;
mod preconditions;
mod pull_up;
mod push_down;
mod statics;
mod text;

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::edit::apply;
use super::imports;
use super::layout::{indent_unit, reindent_lines};
use super::{ChangeSet, Edit, Reason, Refusal};
use crate::java::SourceFile;
use crate::java::project::{FileId, MethodId, Project, TypeId};
use crate::java::symbols::{FieldDecl, MethodDecl, TypeKind};
use crate::text::line_indent;
use body::Rewriter;
use text::{convert_indent, find_signature, insertion, member_indent, method_node, removal_range};

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

/// The inverse of `from_str`: `param:NAME`, `field:NAME` or `class:FQN`, as `--to` takes it.
impl std::fmt::Display for Destination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Destination::Param(n) => write!(f, "param:{n}"),
            Destination::Field(n) => write!(f, "field:{n}"),
            Destination::Class(n) => write!(f, "class:{n}"),
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
    /// Move along the private methods of the class that only this method (and they) call
    /// (`--with-helpers`; `class:FQN` destinations).
    #[serde(default, skip_serializing_if = "is_false")]
    pub with_helpers: bool,
    /// Other methods of the same class that move with it, by name (`--methods a,b`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    /// Make members the destination cannot see public (`--widen public`); without it only a
    /// private member in the destination's package is widened, to package-private.
    #[serde(default, skip_serializing_if = "is_false")]
    pub widen_public: bool,
    /// What an instance method moved to `class:FQN` becomes there (`--as`).
    #[serde(default, skip_serializing_if = "AsMode::is_auto")]
    pub as_mode: AsMode,
    /// The other methods of the class moving to the same destination in the same change, by
    /// name: set by the steps of `--methods` and `--with-helpers`, for what they rely on of each
    /// other (a test and the `@MethodSource` factory it names).
    #[serde(skip)]
    pub moving_with: Vec<String>,
}

impl MoveSpec {
    /// A move to `to` with every option off.
    pub fn new(to: Destination) -> MoveSpec {
        MoveSpec {
            to,
            keep_delegate: false,
            with_helpers: false,
            also: Vec::new(),
            widen_public: false,
            as_mode: AsMode::Auto,
            moving_with: Vec::new(),
        }
    }
}

/// What an instance method moved to `class:FQN` becomes in that class (`--as`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AsMode {
    /// An instance method when its callers have an object of the class (a parameter of that
    /// type, else a field), else static.
    #[default]
    Auto,
    /// Static, with what it used of its object passed in.
    Static,
    /// An instance method; refused when the callers have no object of the class.
    Instance,
}

impl AsMode {
    fn is_auto(&self) -> bool {
        *self == AsMode::Auto
    }
}

impl std::str::FromStr for AsMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "auto" => Ok(AsMode::Auto),
            "static" => Ok(AsMode::Static),
            "instance" => Ok(AsMode::Instance),
            other => Err(format!("`--as {other}` is not a mode; use `--as static`, `--as instance` or `--as auto`")),
        }
    }
}

/// Options that are off are left out of a spec's JSON, so specs read as before.
fn is_false(b: &bool) -> bool {
    !*b
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
    /// Members made visible to the destination: `` `rate` of `a.Src`: private → package-private ``.
    pub widened: Vec<String>,
    /// The destination's file, when the move created it.
    pub created: Option<PathBuf>,
}

/// Moves `method` as `spec` says, updating call sites, imports and visibility, or refuses.
pub fn move_method(project: &Project, method: MethodId, spec: &MoveSpec) -> Result<ChangeSet, Refusal> {
    plan(project, method, spec).map(|m| m.changes)
}

/// [`move_method`] with the details of what was done.
///
/// A `class:FQN` destination that is not in the project is created as an empty top-level class in
/// an existing package (see [`Moved::created`]).
pub fn plan(project: &Project, method: MethodId, spec: &MoveSpec) -> Result<Moved, Refusal> {
    if let Destination::Class(fqn) = &spec.to {
        let Some(dest) = project.find_type(fqn.trim()) else {
            if spec.as_mode == AsMode::Instance && !project.method(method).is_static() {
                return Err(refuse(
                    Reason::NoDestinationInstance,
                    format!(
                        "`{}` does not exist yet, so no caller has one to call the method on; use `--as static`",
                        fqn.trim()
                    ),
                ));
            }
            return new_class::plan(project, method, spec, fqn.trim());
        };
        if let Some(channel) = instance_channel(project, method, spec, dest)? {
            return plan_existing(project, method, &MoveSpec { to: channel, ..spec.clone() });
        }
    }
    plan_existing(project, method, spec)
}

/// For `class:FQN` naming an existing class: the parameter (else the field) of that class an
/// instance method can be moved through, so that it stays an instance method there (`--as auto`
/// and `--as instance`); `None` to move it as named (static, a test's or a pulled-up method).
fn instance_channel(
    project: &Project,
    method: MethodId,
    spec: &MoveSpec,
    dest: TypeId,
) -> Result<Option<Destination>, Refusal> {
    let decl = project.method(method);
    let source = project.owner(method);
    let dest_q = project.qualified_name(dest);
    let as_is = decl.is_static()
        || project.is_test_method(method)
        || decl.is_constructor()
        || dest == source
        || project.supertypes(source).contains(&dest);
    if spec.as_mode == AsMode::Static || as_is {
        if spec.as_mode == AsMode::Instance && decl.is_static() {
            return Err(refuse(
                Reason::NoDestinationInstance,
                format!(
                    "`{}` is static: it has no object to become an instance method of `{dest_q}` through; use `--as static`",
                    decl.signature()
                ),
            ));
        }
        return Ok(None);
    }
    // A parameterised type would make the destination generic, which the channels refuse.
    let is_dest = |ty: &crate::java::symbols::TypeName| {
        ty.dims == 0
            && !ty.text.contains('<')
            && project.resolve_type(method.file(), Some(source.index()), &ty.raw) == Some(dest)
    };
    if let Some(p) = decl.params.iter().find(|p| !p.varargs && !p.generic && is_dest(&p.ty)) {
        return Ok(Some(Destination::Param(p.name.clone())));
    }
    // A field the method never reads is no channel: the moved call would dereference it where the
    // method did not (`tagPending.check(this, tag)` throws when `tagPending` is null), and the
    // method has nothing to do with that object.
    let owner = project.type_decl(source);
    if let Some(f) =
        owner.fields.iter().find(|f| !f.is_static() && is_dest(&f.ty) && reads_field(project, method, &f.name))
    {
        return Ok(Some(Destination::Field(f.name.clone())));
    }
    if spec.as_mode == AsMode::Instance {
        return Err(refuse(
            Reason::NoDestinationInstance,
            format!(
                "`{}` has no parameter of type `{dest_q}` and reads no field of that type, so its callers have no object of it to call it on; use `--as static` (or `--as auto`)",
                decl.signature()
            ),
        ));
    }
    Ok(None)
}

/// Whether `method`'s body names its class's field `name`: `name` unqualified where no parameter
/// or local of that name hides it, or `this.name`.
fn reads_field(project: &Project, method: MethodId, name: &str) -> bool {
    let decl = project.method(method);
    let file = project.method_source(method);
    let Some(body) = decl.body else { return false };
    let Some(node) = file.root().descendant_for_byte_range(body.start_byte, body.end_byte) else { return false };
    let src = file.text.as_str();
    let shadowed = decl.params.iter().any(|p| p.name == name) || decl.locals.iter().any(|l| l.name == name);
    let mut found = false;
    crate::java::syntax::walk(node, &mut |n| {
        if found {
            return false;
        }
        if n.kind() == "identifier" && &src[n.byte_range()] == name {
            // Unqualified, a variable unless hidden; as a member, only `this.name` is the field.
            found = if crate::engine::dataflow::is_variable_use(n) {
                !shadowed
            } else {
                n.parent().is_some_and(|p| {
                    p.kind() == "field_access"
                        && p.child_by_field_name("field") == Some(n)
                        && p.child_by_field_name("object").is_some_and(|o| o.kind() == "this")
                })
            };
        }
        true
    });
    found
}

fn plan_existing(project: &Project, method: MethodId, spec: &MoveSpec) -> Result<Moved, Refusal> {
    let decl = project.method(method);
    let source = project.owner(method);
    let file = project.method_source(method);
    let mut mover = Mover { project, method, decl, source, file, spec, pull_up: None, push_down: None };
    mover.pull_up = mover.pull_up_target();
    mover.push_down = mover.push_down_target();
    mover.run()
}

/// What a move makes more visible: members, with their new access, and classes made public.
#[derive(Default)]
struct Widening {
    members: Vec<(body::Member, Vis)>,
    types: Vec<TypeId>,
}

impl Widening {
    /// Adds classes to make public, each once.
    fn add_types(&mut self, types: impl IntoIterator<Item = TypeId>) {
        for t in types {
            if !self.types.contains(&t) {
                self.types.push(t);
            }
        }
    }
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
    /// The superclass the method is pulled up into, when the destination is one ([`pull_up`]).
    pull_up: Option<TypeId>,
    /// The subclass an overriding method is pushed down into, when the destination is one
    /// ([`push_down`]).
    push_down: Option<TypeId>,
}

fn refuse(reason: Reason, message: impl Into<String>) -> Refusal {
    Refusal::new(reason, message)
}

impl<'p> Mover<'p> {
    fn run(&self) -> Result<Moved, Refusal> {
        self.check_method()?;
        let library_override = self.check_library_override()?;
        let (via, dest) = self.destination()?;
        self.check_destination(dest)?;
        if self.pull_up == Some(dest) {
            self.check_pull_up(dest)?;
        }
        if self.push_down == Some(dest) {
            self.check_push_down(dest)?;
        }
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
        if self.stays_instance() && rw.needs_source {
            self.use_destination_members(&mut rw, dest)?;
        }
        if self.pull_up.is_some() && self.spec.keep_delegate {
            return Err(refuse(
                Reason::NoDestinationInstance,
                format!(
                    "`{}` inherits the pulled-up method, so there is nothing to delegate to; pull up without --keep-delegate",
                    project.qualified_name(self.source)
                ),
            ));
        }
        if self.push_down.is_some() && self.spec.keep_delegate {
            return Err(refuse(
                Reason::NoDestinationInstance,
                format!(
                    "a delegate left in `{}` would have no `{}` object to call; push down without --keep-delegate",
                    project.qualified_name(self.source),
                    project.qualified_name(dest)
                ),
            ));
        }
        if self.stays_instance() && self.spec.keep_delegate {
            return Err(refuse(
                Reason::NoDestinationInstance,
                format!(
                    "a delegate left in `{}` would have no `{}` object to call the moved test method on",
                    project.qualified_name(self.source),
                    project.qualified_name(dest)
                ),
            ));
        }
        let mut widened = self.check_members(&rw, dest)?;
        self.check_callees(dest)?;

        let new_params = self.new_param_types(&via, rw.needs_source);
        self.check_clash(dest, &new_params)?;

        // Call sites (all of them, or none with a delegate left behind).
        // A pulled-up method is inherited where it was, a pushed-down one still overrides what
        // its calls reach: their call sites stay as they are.
        let sites = if self.spec.keep_delegate || self.in_hierarchy_move() {
            CallSites::default()
        } else {
            self.call_sites(&via, dest, &rw)?
        };

        // Visibility: the least every caller needs, never lower than it was.
        let in_interface = project.type_decl(self.source).kind.members_public();
        let original = Vis::of(&self.decl.modifiers, in_interface);
        let mut needed = Vis::Private;
        let callers: Vec<TypeId> = if self.spec.keep_delegate { vec![self.source] } else { sites.caller_types.clone() };
        for caller in callers {
            needed = needed.max(self.access_needed(caller, dest));
        }
        let visibility = match () {
            _ if self.pull_up.is_some() => self.pull_up_access(dest, original),
            _ if self.push_down.is_some() => original,
            _ => original.max(needed),
        };

        // The header: visibility, `static`, parameters.
        let dest_types = self.dest_imports(&rw, dest)?;
        self.check_test_code_to_main(&rw, dest, &dest_types.imports)?;
        widened.add_types(dest_types.make_public.iter().copied());
        let wired = rw.wired.clone();
        let inherited = rw.inherited.clone();
        let mut moved_edits = rw.edits.clone();
        moved_edits.extend(self.header_edits(node, &via, visibility, original, &rw)?);
        // Text the rewrite inserts that names a type by a name meaning another type there.
        for e in &mut moved_edits {
            for (name, qualified) in &dest_types.qualify {
                let rest = e.replacement.strip_prefix(name.as_str());
                if let Some(rest) = rest.filter(|r| r.starts_with(['.', ' '])) {
                    e.replacement = format!("{qualified}{rest}");
                }
            }
        }
        moved_edits.extend(self.qualify_edits(node, &dest_types.qualify, &rw)?);

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
        let src_unit = indent_unit(src, body, base);
        let lines: Vec<String> = reindent_lines(&text, base, &indent)
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
        for e in imports::add(dest_file, project.symbols_of(dest), &dest_types.imports) {
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

        // Members the destination uses, made visible to it: package-private when it is in their
        // package, public with `--widen public`.
        for (m, to) in &widened.members {
            let f = project.source(m.owner);
            let Some(edit) = text::widen(f, m.decl, &m.simple, *to) else {
                return Err(refuse(
                    Reason::PrivateMemberUsed,
                    format!(
                        "the method uses `{}` of `{}` (line {}), and mantra cannot find where to widen it; widen it first",
                        m.name,
                        project.qualified_name(m.owner),
                        m.line
                    ),
                ));
            };
            changes.edit(&f.path, &f.text, edit);
        }
        for &t in &widened.types {
            let f = project.source(t);
            let d = project.type_decl(t);
            let edit = text::make_type_public(f, (d.span.start_byte, d.span.end_byte)).ok_or_else(|| {
                refuse(
                    Reason::InaccessibleMember,
                    format!(
                        "mantra cannot find where to make `{}` public; make it public first",
                        project.qualified_name(t)
                    ),
                )
            })?;
            changes.edit(&f.path, &f.text, edit);
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
        changes.render().map_err(|e| {
            refuse(
                Reason::OverlappingCalls,
                format!("call sites of the method overlap (one is inside another's arguments): {e}; move it by hand or untangle the calls first"),
            )
        })?;
        let signature = find_signature(&lines.join("\n"), &self.decl.name, &new_params).unwrap_or_default();
        let widened: Vec<String> = widened
            .members
            .iter()
            .map(|(m, to)| {
                format!(
                    "`{}` of `{}`: {} → {}",
                    m.name,
                    project.qualified_name(m.owner),
                    m.vis.keyword().unwrap_or("package-private"),
                    to.keyword().unwrap_or("package-private")
                )
            })
            .chain(widened.types.iter().map(|&t| {
                format!(
                    "class `{}`: {} → public",
                    project.qualified_name(t),
                    self.type_vis(t).keyword().unwrap_or("package-private")
                )
            }))
            .collect();
        changes.notes.extend(widened.iter().map(|w| format!("made visible to the destination: {w}")));
        changes.notes.extend(wired.iter().map(|w| format!("wired: {w}")));
        changes.notes.extend(inherited.iter().map(|w| {
            format!("called on the source object, assumed visible to the destination (the build checks it): {w}")
        }));
        changes.notes.extend(library_override);
        Ok(Moved {
            changes,
            destination: project.qualified_name(dest),
            destination_file: dest_path,
            signature,
            name: self.decl.name.clone(),
            erased_params: new_params,
            call_sites: sites.count,
            widened,
            created: None,
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

    /// Whether the method stays an instance method in a class it moves to (`class:FQN`): a test
    /// method or a fixture method, which its framework calls on an instance of the destination,
    /// or a method pulled up into a superclass, which its class inherits.
    /// A test or fixture its framework runs (JUnit 3's `testX()` too).
    fn is_test(&self) -> bool {
        self.project.is_test_method(self.method)
    }

    fn stays_instance(&self) -> bool {
        matches!(self.spec.to, Destination::Class(_)) && (self.is_test() || self.in_hierarchy_move())
    }

    /// A pull-up or a push-down: the method stays an instance method of the hierarchy it is in.
    fn in_hierarchy_move(&self) -> bool {
        self.pull_up.is_some() || self.push_down.is_some()
    }

    /// Whether the method becomes a `default` method of `dest`: an instance method reaching an
    /// interface through a parameter or field of its type.
    fn default_method(&self, dest: TypeId) -> bool {
        self.project.type_decl(dest).kind == TypeKind::Interface
            && matches!(self.spec.to, Destination::Param(_) | Destination::Field(_))
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

#[cfg(test)]
mod tests;
