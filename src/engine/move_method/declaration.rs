//! The moved declaration: its header (access, `static`, parameters), the imports the destination
//! needs, type references from the destination, and the delegate left behind.

use super::body::Rewriter;
use super::text::{JAVA_LANG, after_modifiers, is_qualified_tail, modifier_keywords, rewrite_list, skip_spaces};
use super::{Mover, Via, Vis, refuse};
use crate::engine::imports;
use crate::engine::{Edit, Reason, Refusal};
use crate::java::project::{FileId, TypeId};
use crate::java::symbols::TypeKind;
use crate::text::line_indent;
use std::collections::{BTreeMap, BTreeSet};
use tree_sitter::Node;

/// What the moved text needs in the destination's file: imports (path, static, wildcard), simple
/// type names it must write fully qualified there, and classes to make public.
pub(super) struct DestTypes {
    pub(super) imports: BTreeSet<(String, bool, bool)>,
    pub(super) qualify: BTreeMap<String, String>,
    /// Classes the moved text names that must be made public (`--widen public`; repeats possible).
    pub(super) make_public: Vec<TypeId>,
}

/// The first identifier of a possibly qualified name (`a` of `a.b.C`).
fn leftmost(mut n: Node<'_>) -> Node<'_> {
    while n.kind() == "scoped_identifier"
        && let Some(first) = n.child_by_field_name("scope")
    {
        n = first;
    }
    n
}

impl<'p> Mover<'p> {
    /// Edits of the declaration: access modifier, `static`, parameter list.
    pub(super) fn header_edits(
        &self,
        node: Node<'p>,
        via: &Via<'_>,
        visibility: Vis,
        original: Vis,
        rw: &Rewriter<'_, 'p>,
    ) -> Result<Vec<Edit>, Refusal> {
        let src = &self.file.text;
        let mut edits = Vec::new();
        let keywords = modifier_keywords(node);
        let find = |kw: &str| keywords.iter().copied().find(|k| &src[k.byte_range()] == kw);
        // In an interface a static method is implicitly public, and may not be final.
        let into_interface = self.project.type_decl(rw.dest).kind == TypeKind::Interface;
        let keyword = if into_interface { None } else { visibility.keyword() };
        if into_interface && let Some(k) = find("final") {
            edits.push(Edit::delete(k.start_byte()..skip_spaces(src, k.end_byte())));
        }
        if visibility != original || into_interface || self.project.type_decl(self.source).kind == TypeKind::Interface {
            let existing = ["public", "protected", "private"].into_iter().find_map(find);
            match (existing, keyword) {
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
        // Through a parameter or field of an interface type, a `default` method there.
        if self.default_method(rw.dest) {
            let at = after_modifiers(node).map_or(node.start_byte(), |n| n.start_byte());
            edits.push(Edit::insert(at, "default "));
        }
        // An instance method moved to a class becomes static there.
        if let Via::Static = via
            && find("static").is_none()
            && !self.stays_instance()
        {
            let at = after_modifiers(node).map_or(node.start_byte(), |n| n.start_byte());
            // One insertion there: the new visibility, if any, then `static`.
            match edits.iter_mut().find(|e| e.start == at && e.end == at) {
                Some(e) => e.replacement.push_str("static "),
                None => edits.push(Edit::insert(at, "static ")),
            }
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

    /// The imports the moved text needs in the destination's file, and the type names it uses
    /// that mean another type there (a nested class or an import of the same simple name): those
    /// are written fully qualified, name → qualified name.
    pub(super) fn dest_imports(&self, rw: &Rewriter<'_, 'p>, dest: TypeId) -> Result<DestTypes, Refusal> {
        let project = self.project;
        let src_syms = project.symbols_of(self.source);
        let dest_syms = project.symbols_of(dest);
        let dest_file = dest.file();
        let src_file = self.method.file();
        let mut out: BTreeSet<(String, bool, bool)> = BTreeSet::new();
        let mut qualify: BTreeMap<String, String> = BTreeMap::new();
        let mut make_public: Vec<TypeId> = Vec::new();
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
            // A local class of the method moves with it and hides any other type of that name.
            let (from, to) = (self.decl.span.start_byte, self.decl.span.end_byte);
            if src_syms
                .types
                .iter()
                .any(|t| t.local && t.name == *name && from <= t.span.start_byte && t.span.end_byte <= to)
            {
                continue;
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
                    let taken = in_dest.is_some() || imports::single_import_named(dest_syms, name, false).is_some();
                    let hidden = !self.accessible(dest, t, self.type_vis(t));
                    let chain = (self.spec.widen_public && hidden).then(|| self.types_to_make_public(t)).flatten();
                    if let Some(chain) = chain {
                        make_public.extend(chain);
                    } else if hidden {
                        return Err(refuse(
                            Reason::InaccessibleType,
                            format!(
                                "the method uses the type `{}`, which is not visible from `{}`; make it public first, or pass `--widen public`",
                                project.qualified_name(t),
                                project.qualified_name(dest)
                            ),
                        ));
                    }
                    if taken {
                        if project.type_decl(t).local || project.type_decl(t).is_anonymous() {
                            return Err(clash(&format!(
                                "`{}`",
                                in_dest.map_or(name.clone(), |o| project.qualified_name(o))
                            )));
                        }
                        qualify.insert(name.clone(), project.qualified_name(t));
                    } else {
                        out.insert((project.qualified_name(t), false, false));
                    }
                }
                None => {
                    let theirs = imports::single_import_named(dest_syms, name, false).map(|i| i.path.clone());
                    let ours = imports::single_import_named(src_syms, name, false).map(|i| i.path.clone());
                    match (in_dest, ours) {
                        (Some(_), Some(path)) => {
                            qualify.insert(name.clone(), path);
                        }
                        (None, Some(path)) if theirs.as_ref().is_some_and(|t| *t != path) => {
                            qualify.insert(name.clone(), path);
                        }
                        (None, Some(path)) => {
                            out.insert((path, false, false));
                        }
                        (Some(_), None) if JAVA_LANG.contains(&name.as_str()) => {
                            qualify.insert(name.clone(), format!("java.lang.{name}"));
                        }
                        (Some(other), None) => {
                            // From one of the source's wildcard imports: which one, only the compiler knows.
                            return Err(clash(&format!("`{}`", project.qualified_name(other))));
                        }
                        (None, None) => unresolved |= !JAVA_LANG.contains(&name.as_str()),
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
        out.extend(rw.type_imports.iter().map(|path| (path.clone(), false, false)));
        // Never import a type into its own package or file.
        let dest_pkg = project.package_of(dest).to_string();
        out.retain(|(path, is_static, wildcard)| {
            *is_static || *wildcard || path.rsplit_once('.').is_none_or(|(pkg, _)| pkg != dest_pkg)
        });
        Ok(DestTypes { imports: out, qualify, make_public })
    }

    /// Edits writing each name of `qualify` fully qualified in the declaration `node`: type
    /// references, annotation names, and a type named as the receiver of a static member. A use
    /// that could also be a variable of the method (a local or parameter of that name) is refused.
    pub(super) fn qualify_edits(
        &self,
        node: Node<'p>,
        qualify: &BTreeMap<String, String>,
        rw: &Rewriter<'_, 'p>,
    ) -> Result<Vec<Edit>, Refusal> {
        let src = &self.file.text;
        let mut edits = Vec::new();
        if qualify.is_empty() {
            return Ok(edits);
        }
        let mut ambiguous = None;
        crate::java::syntax::walk(node, &mut |n| {
            let head = match n.kind() {
                "type_identifier" => (!is_qualified_tail(n)).then_some(n),
                "marker_annotation" | "annotation" => n.child_by_field_name("name").map(|name| leftmost(name)),
                "field_access" | "method_invocation" => {
                    n.child_by_field_name("object").filter(|o| o.kind() == "identifier").inspect(|o| {
                        if qualify.contains_key(&src[o.byte_range()]) && rw.shadow.contains(&src[o.byte_range()]) {
                            ambiguous = Some(src[o.byte_range()].to_string());
                        }
                    })
                }
                _ => None,
            };
            if let Some(h) = head
                && let Some(q) = qualify.get(&src[h.byte_range()])
                && !rw.shadow.contains(&src[h.byte_range()])
            {
                edits.push(Edit::replace(h.byte_range(), q.clone()));
            }
            true
        });
        if let Some(name) = ambiguous {
            return Err(refuse(
                Reason::TypeNameClash,
                format!(
                    "the method uses the type `{name}`, which means another type in the destination, and `{name}` is also one of its variables; rename one first"
                ),
            ));
        }
        edits.sort_by_key(|e| e.start);
        edits.dedup_by_key(|e| e.start);
        Ok(edits)
    }

    /// Type variables of the source class and its enclosing classes (up to a static one).
    pub(super) fn class_type_params(&self) -> Vec<String> {
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
    pub(super) fn type_ref(&self, file: FileId, scope: TypeId, target: TypeId) -> (String, Option<String>) {
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
    pub(super) fn delegate_body(
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
        let unit = crate::engine::layout::indent_unit(src, body, &indent);
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
}
