//! Body rewriting: the moved method's own text, rewritten for the destination, collecting what
//! the move needs (the source object, members, imports, recursive calls).

use super::text::{collect_type_names, is_qualified_tail, is_qualified_this, list_items, lower_camel, rewrite_list};
use super::{Mover, Via, Vis, refuse};
use crate::engine::dataflow::{MethodFlow, VarKind, is_variable_use};
use crate::engine::{Edit, Reason, Refusal};
use crate::java::calls::{Provider, Resolution};
use crate::java::project::{MethodId, TypeId};
use crate::java::symbols::FieldDecl;
use std::collections::{BTreeSet, HashMap};
use tree_sitter::Node;

/// A source member the moved body reaches by name.
#[derive(Clone)]
pub(super) struct Member {
    pub(super) name: String,
    pub(super) owner: TypeId,
    pub(super) vis: Vis,
    pub(super) line: usize,
    /// The member's declaration (bytes of its owner's file) and its simple name, for widening.
    pub(super) decl: (usize, usize),
    pub(super) simple: String,
    /// An instance member (reached through the object), not a static one.
    pub(super) instance: bool,
    /// What another class's member must match to stand for it.
    pub(super) shape: Shape,
    /// The bytes of the name as written at this use (the `x` of `this.x`).
    pub(super) at: std::ops::Range<usize>,
}

/// A member's kind with what identifies it beyond its name.
#[derive(Clone, PartialEq, Eq)]
pub(super) enum Shape {
    /// A field, by its declared type as written.
    Field(String),
    /// A method, by its erased parameter types.
    Method(Vec<String>),
}

/// Rewrites the body of the moved method for its destination, collecting what the move needs.
pub(super) struct Rewriter<'m, 'p> {
    pub(super) m: &'m Mover<'p>,
    pub(super) via: &'m Via<'p>,
    pub(super) dest: TypeId,
    pub(super) src: &'p str,
    pub(super) flow: MethodFlow<'p>,
    /// The variable index of the parameter the method moves through.
    pub(super) p_var: Option<usize>,
    pub(super) source_name: String,
    /// Names of the method's parameters and locals (and the new parameter's).
    pub(super) shadow: BTreeSet<String>,
    /// Call sites inside the method (its own and its anonymous classes'), by byte range.
    pub(super) calls: HashMap<(usize, usize), (MethodId, usize)>,
    pub(super) anon_depth: usize,
    pub(super) edits: Vec<Edit>,
    pub(super) needs_source: bool,
    pub(super) members: Vec<Member>,
    /// Fields of other objects (`x.f`, `x` a local or parameter) the body reads or writes.
    pub(super) foreign: Vec<Member>,
    /// Simple names of types the moved text mentions.
    pub(super) names: BTreeSet<String>,
    /// Static imports of the source file the body relies on: (path, wildcard).
    pub(super) static_imports: BTreeSet<(String, bool)>,
    /// Classes the destination must import because the rewrite names them (qualified names).
    pub(super) type_imports: BTreeSet<String>,
    pub(super) recursive: Vec<Node<'p>>,
    /// The line of the first `this` used as a value (not to reach a member), if any.
    pub(super) bare_this: Option<usize>,
    /// Names the body reads that the destination calls otherwise, bound to the destination's
    /// equivalent member (code wiring): `old → new`, for the result's notes.
    pub(super) wired: Vec<String>,
    /// Methods the body calls that a supertype outside the project provides (`name(...)` of
    /// which classes), for the result's notes: the model cannot see their access.
    pub(super) inherited: BTreeSet<String>,
}

impl<'m, 'p> Rewriter<'m, 'p> {
    pub(super) fn new(m: &'m Mover<'p>, via: &'m Via<'p>, dest: TypeId, node: Node<'p>) -> Rewriter<'m, 'p> {
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
            foreign: Vec::new(),
            names,
            static_imports: BTreeSet::new(),
            type_imports: BTreeSet::new(),
            recursive: Vec::new(),
            bare_this: None,
            wired: Vec::new(),
            inherited: BTreeSet::new(),
        }
    }

    pub(super) fn text(&self, n: Node<'_>) -> &'p str {
        &self.src[n.byte_range()]
    }

    pub(super) fn line(&self, n: Node<'_>) -> usize {
        n.start_position().row + 1
    }

    pub(super) fn dest_name(&self) -> &'p str {
        &self.m.project.type_decl(self.dest).name
    }

    pub(super) fn source_simple(&self) -> &'p str {
        &self.m.project.type_decl(self.m.source).name
    }

    /// `this` for the destination object where the text ends up.
    pub(super) fn dest_this(&self) -> String {
        if self.anon_depth > 0 { format!("{}.this", self.dest_name()) } else { "this".into() }
    }

    pub(super) fn visit(&mut self, n: Node<'p>) -> Result<(), Refusal> {
        match n.kind() {
            "method_invocation" => return self.invocation(n),
            "field_access" => return self.field_access(n),
            "this" => return self.bare_this(n),
            "super" => return Err(self.super_use(n)),
            "identifier" => return self.identifier(n),
            "type_identifier" => {
                if !is_qualified_tail(n) {
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

    pub(super) fn children(&mut self, n: Node<'p>) -> Result<(), Refusal> {
        let mut cursor = n.walk();
        let kids: Vec<Node<'p>> = n.children(&mut cursor).collect();
        for k in kids {
            self.visit(k)?;
        }
        Ok(())
    }

    pub(super) fn resolution(&self, call: Node<'_>) -> Option<Resolution> {
        let &(mid, i) = self.calls.get(&(call.start_byte(), call.end_byte()))?;
        Some(self.m.project.resolve_call(mid, i))
    }

    /// Whether `o` denotes the destination object: the parameter, or the field (`f`, `this.f`).
    pub(super) fn is_dest(&self, o: Node<'_>) -> bool {
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

    pub(super) fn super_use(&self, n: Node<'_>) -> Refusal {
        refuse(
            Reason::SuperCall,
            format!("line {} uses `super`, which would mean the destination's superclass after the move", self.line(n)),
        )
    }

    pub(super) fn invocation(&mut self, n: Node<'p>) -> Result<(), Refusal> {
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
    pub(super) fn recursion(&mut self, n: Node<'p>, args: Option<Node<'p>>) -> Result<(), Refusal> {
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

    pub(super) fn finish_recursion(&mut self) -> Result<(), Refusal> {
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
    pub(super) fn implicit_call(&mut self, n: Node<'p>, name: Node<'p>, targets: &[MethodId]) -> Result<(), Refusal> {
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
    pub(super) fn in_anonymous_scope(&self, owner: TypeId) -> bool {
        let project = self.m.project;
        let span = self.m.decl.span;
        project.types_in(self.m.method.file()).unwrap_or_default().into_iter().any(|t| {
            let d = project.type_decl(t);
            span.contains(&d.span) && (t == owner || project.supertypes(t).contains(&owner))
        })
    }

    /// Whether an anonymous or local class around `n` declares a method called `name` itself.
    pub(super) fn declared_in_anonymous(&self, n: Node<'_>, name: &str) -> bool {
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
    pub(super) fn unresolved_call(&mut self, n: Node<'p>, name: Node<'p>) -> Result<(), Refusal> {
        let text = self.text(name);
        if self.anon_depth > 0 {
            return Ok(()); // most likely the anonymous class's (external) supertype's method
        }
        if self.static_import_for(text, n)? {
            return Ok(());
        }
        let project = self.m.project;
        let external = project.external_supertypes(self.m.source);
        // A test method that stays an instance method: a class outside the project that the
        // destination extends too provides the same inherited method there.
        if self.m.stays_instance() && !external.is_empty() {
            let erase = |s: &String| s.split('<').next().unwrap_or(s).trim().to_string();
            let theirs: Vec<String> = project.external_supertypes(self.dest).iter().map(erase).collect();
            if external.iter().map(erase).all(|e| theirs.contains(&e)) {
                return Ok(());
            }
        }
        // Nothing the project declares in scope has that name, and Java found it: the source's
        // supertype outside the project provides it, on the source's object (or class).
        if !self.m.stays_instance() && self.inherited_from_outside(text) {
            let qualifier = if self.m.decl.is_static() {
                self.names.insert(self.source_simple().to_string());
                self.source_simple().to_string()
            } else {
                self.needs_source = true;
                self.source_name.clone()
            };
            self.edits.push(Edit::insert(name.start_byte(), format!("{qualifier}.")));
            self.inherited.insert(format!("`{text}(...)`, from {}", external.join(" or ")));
            return Ok(());
        }
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

    /// Whether a method `name` called without a receiver can only be the one the source inherits
    /// from outside the project: it is the only class around the call that may provide one.
    fn inherited_from_outside(&self, name: &str) -> bool {
        self.m.project.implicit_providers(self.m.source, name) == [Provider::MayInherit(self.m.source)]
    }

    pub(super) fn member_method(&mut self, t: MethodId, at: Node<'_>) {
        let project = self.m.project;
        let d = project.method(t);
        let owner = project.owner(t);
        let in_interface = project.type_decl(owner).kind.members_public();
        self.members.push(Member {
            name: format!("{}(...)", d.name),
            owner,
            vis: Vis::of(&d.modifiers, in_interface),
            line: self.line(at),
            decl: (d.span.start_byte, d.span.end_byte),
            simple: d.name.clone(),
            instance: !d.is_static(),
            shape: Shape::Method(d.erased_params()),
            at: at.byte_range(),
        });
    }

    pub(super) fn member_field(&mut self, f: &FieldDecl, owner: TypeId, at: Node<'_>) {
        let member = self.field_member(f, owner, at);
        self.members.push(member);
    }

    /// The [`Member`] for a use of field `f` of `owner` at `at`.
    fn field_member(&self, f: &FieldDecl, owner: TypeId, at: Node<'_>) -> Member {
        let project = self.m.project;
        let in_interface = project.type_decl(owner).kind.members_public();
        let vis = if f.kind == crate::java::symbols::FieldKind::EnumConstant {
            self.m.type_vis(owner)
        } else {
            Vis::of(&f.modifiers, in_interface)
        };
        Member {
            name: f.name.clone(),
            owner,
            vis,
            line: self.line(at),
            decl: (f.span.start_byte, f.span.end_byte),
            simple: f.name.clone(),
            instance: !f.is_static(),
            shape: Shape::Field(f.ty.text.clone()),
            at: at.child_by_field_name("field").unwrap_or(at).byte_range(),
        }
    }

    pub(super) fn field_access(&mut self, n: Node<'p>) -> Result<(), Refusal> {
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
            _ => {
                self.foreign_field(object, field);
                self.visit(object)
            }
        }
    }

    /// `x.f` where `x` is a local or parameter of a project class: `f` must be visible from the
    /// destination too, so it is recorded (in [`Rewriter::foreign`]) for the access check.
    fn foreign_field(&mut self, object: Node<'p>, field: Node<'p>) {
        let project = self.m.project;
        if object.kind() != "identifier" {
            return;
        }
        let Some(var) = self.flow.resolve(self.text(object), object.start_byte()) else { return };
        let Some(ty) = self.flow.vars[var].type_text.as_deref() else { return };
        let raw = ty.split('<').next().unwrap_or(ty).trim();
        if raw.contains('[') || raw == "var" {
            return;
        }
        let Some(t) = project.resolve_type(self.m.method.file(), Some(self.m.source.index()), raw) else { return };
        if let Some((owner, f)) = self.field_of(t, self.text(field)) {
            let member = self.field_member(f, owner, field);
            self.foreign.push(member);
        }
    }

    /// A use of the destination object as a value: it becomes `this`.
    pub(super) fn dest_value(&mut self, n: Node<'p>) -> Result<(), Refusal> {
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

    pub(super) fn bare_this(&mut self, n: Node<'p>) -> Result<(), Refusal> {
        if self.anon_depth == 0 {
            self.bare_this.get_or_insert(self.line(n));
            self.edits.push(Edit::replace(n.byte_range(), self.source_name.clone()));
            self.needs_source = true;
        }
        Ok(())
    }

    pub(super) fn identifier(&mut self, n: Node<'p>) -> Result<(), Refusal> {
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

    pub(super) fn declared_field_in_anonymous(&self, n: Node<'_>, name: &str) -> bool {
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
    pub(super) fn source_field(&self, name: &str) -> Option<(TypeId, &'p FieldDecl)> {
        self.field_of(self.m.source, name)
    }

    /// A field of `ty` or of its project supertypes, with the class that declares it.
    fn field_of(&self, ty: TypeId, name: &str) -> Option<(TypeId, &'p FieldDecl)> {
        let project = self.m.project;
        std::iter::once(ty)
            .chain(project.supertypes(ty))
            .find_map(|t| project.type_decl(t).fields.iter().find(|f| f.name == name).map(|f| (t, f)))
    }
}
