//! The occurrence scan: every place in every file that names a member of the family (calls,
//! references, static imports, Javadoc links), and the calls whose target cannot be pinned down.

use super::family::Family;
use super::{LISTED, describe, syntax_refusal};
use crate::engine::{ChangeSet, Edit, Reason, Refusal};
use crate::java::Resolution;
use crate::java::calls::ReceiverType;
use crate::java::hierarchy::same_signature;
use crate::java::project::{FileId, MethodId, Project, TypeId};
use crate::java::source::SourceFile;
use crate::java::symbols::{CallKind, Receiver};
use crate::java::syntax::walk;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use tree_sitter::Node;

/// One call-like occurrence of the old name found in the syntax tree.
pub(super) struct Occurrence<'t> {
    pub(super) node: Node<'t>,
    /// The name token.
    pub(super) name: std::ops::Range<usize>,
    /// `None` for method references.
    pub(super) args: Option<usize>,
}

/// Every `old(...)` invocation and `...::old` reference in a file, modeled by the call graph or not.
pub(super) fn occurrences<'t>(source: &'t SourceFile, old: &str) -> Vec<Occurrence<'t>> {
    let text = source.text.as_str();
    let mut out = Vec::new();
    walk(source.root(), &mut |n| {
        match n.kind() {
            "method_invocation" => {
                if let Some(name) = n.child_by_field_name("name")
                    && &text[name.byte_range()] == old
                {
                    let args = n.child_by_field_name("arguments").map(|a| {
                        let mut c = a.walk();
                        a.named_children(&mut c)
                            .filter(|x| !matches!(x.kind(), "line_comment" | "block_comment"))
                            .count()
                    });
                    out.push(Occurrence { node: n, name: name.byte_range(), args });
                }
            }
            "method_reference" => {
                let last = n.child(n.child_count().saturating_sub(1));
                if let Some(name) = last
                    && name.kind() == "identifier"
                    && &text[name.byte_range()] == old
                {
                    out.push(Occurrence { node: n, name: name.byte_range(), args: None });
                }
            }
            _ => {}
        }
        true
    });
    out
}

pub(super) struct Renamer<'a> {
    pub(super) project: &'a Project,
    pub(super) family: &'a Family,
    pub(super) old: &'a str,
    pub(super) new: &'a str,
    /// Name-token ranges to replace, per file.
    pub(super) edits: BTreeMap<FileId, BTreeSet<(usize, usize)>>,
    /// Text to insert: (file, byte, text).
    pub(super) inserts: Vec<(FileId, usize, String)>,
    /// Renamed calls without a receiver: (calling method, call index).
    pub(super) unqualified: Vec<(MethodId, usize)>,
    /// Call sites whose target cannot be decided: `path:line `text` (why)`.
    pub(super) doubts: Vec<String>,
}

/// What a call or reference named like the method turned out to be.
pub(super) enum Verdict {
    Ours,
    NotOurs,
    Doubt(String),
}

impl Renamer<'_> {
    pub(super) fn add(&mut self, file: FileId, range: std::ops::Range<usize>) {
        self.edits.entry(file).or_default().insert((range.start, range.end));
    }

    pub(super) fn scan_file(&mut self, f: FileId) -> Result<(), Refusal> {
        let project = self.project;
        let file = project.file(f).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?;
        let source = &file.source;
        let found = occurrences(source, self.old);
        if let Some(err) = source.syntax_error()
            && !found.is_empty()
        {
            return Err(syntax_refusal(source, err.line, &err.snippet));
        }
        let methods = project.methods_in(f).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?;
        let mut modeled: HashMap<(usize, usize), (MethodId, usize)> = HashMap::new();
        for &m in &methods {
            for (ci, c) in project.method(m).calls.iter().enumerate() {
                if matches!(c.kind, CallKind::Method | CallKind::MethodRef) && c.name == self.old {
                    modeled.insert((c.span.start_byte, c.span.end_byte), (m, ci));
                }
            }
        }
        for occ in &found {
            let key = (occ.node.start_byte(), occ.node.end_byte());
            let verdict = match modeled.get(&key) {
                Some(&(m, ci)) => {
                    let verdict = self.modeled_call(m, ci);
                    if matches!(verdict, Verdict::Ours) && project.method(m).calls[ci].receiver == Receiver::Implicit {
                        self.unqualified.push((m, ci));
                    }
                    verdict
                }
                None => self.unmodeled_call(f, occ),
            };
            match verdict {
                Verdict::Ours => self.add(f, occ.name.clone()),
                Verdict::NotOurs => {}
                Verdict::Doubt(why) => {
                    let line = source.line_of(occ.node.start_byte());
                    let text: String = source.text_of(occ.node).split_whitespace().collect::<Vec<_>>().join(" ");
                    let text = if text.chars().count() > 60 {
                        text.chars().take(57).collect::<String>() + "..."
                    } else {
                        text
                    };
                    self.doubts.push(format!("{}:{line} `{text}` ({why})", project.path(f).display()));
                }
            }
        }
        self.static_imports(f);
        self.javadoc_links(f, source);
        Ok(())
    }

    /// A call the call graph knows: resolved, ambiguous or unresolved.
    pub(super) fn modeled_call(&self, m: MethodId, ci: usize) -> Verdict {
        let project = self.project;
        let site = &project.method(m).calls[ci];
        if !self.family.accepts(project, site.arg_count()) {
            return Verdict::NotOurs;
        }
        match project.resolve_call(m, ci) {
            Resolution::Resolved { method } => {
                if self.family.contains(method) {
                    Verdict::Ours
                } else {
                    Verdict::NotOurs
                }
            }
            Resolution::Ambiguous { candidates } => {
                let ours = candidates.iter().filter(|&&c| self.family.contains(c)).count();
                if ours == 0 {
                    Verdict::NotOurs
                } else if ours == candidates.len() {
                    Verdict::Ours
                } else {
                    let names: Vec<String> = candidates.iter().map(|&c| describe(project, c)).collect();
                    Verdict::Doubt(format!("the arguments do not tell {} apart", names.join(" from ")))
                }
            }
            Resolution::Unresolved { .. } => self.unresolved(m, ci, site.arg_count()),
        }
    }

    /// The policy for a call the model could not resolve. It is renamed never; it is a doubt (and
    /// the rename is refused) when a member of the family could be its target:
    /// - no receiver, `this`, `super`: the model searched every enclosing type and its project
    ///   supertypes; a doubt only if the first scope declaring the name holds a family member
    ///   (the model then failed on argument types, not on the name);
    /// - a receiver of a project type: a doubt only if that type's hierarchy holds a member;
    /// - a receiver of a type outside the project (`List`, `String`, an array): not ours, since
    ///   the family overrides nothing outside the project (checked before). A type variable (`T`)
    ///   is not "outside": its bound may be a project type, so it is a doubt;
    /// - a name that is no variable and no project type: if capitalised it is a class outside the
    ///   project (`Math`, `System.out`), not ours; otherwise a field inherited from outside, a doubt;
    /// - any other expression of unknown type (`list.get(0).m()`, `var x`): a doubt.
    pub(super) fn unresolved(&self, m: MethodId, ci: usize, args: Option<usize>) -> Verdict {
        let project = self.project;
        match project.receiver_type(m, ci) {
            ReceiverType::Enclosing => self.scope_lookup(project.owner(m), args),
            ReceiverType::Project(t) => self.type_lookup(t, args),
            ReceiverType::External(ty) => {
                if self.project.is_type_variable(m, &ty) {
                    Verdict::Doubt(format!("the receiver's type `{ty}` is a type variable"))
                } else {
                    Verdict::NotOurs
                }
            }
            ReceiverType::UnknownName(n) if n.starts_with(|c: char| c.is_uppercase()) => Verdict::NotOurs,
            ReceiverType::UnknownName(n) => {
                Verdict::Doubt(format!("`{n}` is not a variable mantra can see, so its type is unknown"))
            }
            ReceiverType::Unknown => self
                .element_of_container(m, ci, args)
                .unwrap_or_else(|| Verdict::Doubt("the receiver's type is not known".into())),
        }
    }

    /// `items.get(i).old()` where `items` is declared `List<Row>`: the receiver is a `Row`
    /// ([`Project::element_receiver_type`]), so calls on list elements do not all become doubts.
    pub(super) fn element_of_container(&self, m: MethodId, ci: usize, args: Option<usize>) -> Option<Verdict> {
        Some(match self.project.element_receiver_type(m, ci)? {
            ReceiverType::Project(t) => self.type_lookup(t, args),
            ReceiverType::External(ty) if self.project.is_type_variable(m, &ty) => {
                Verdict::Doubt(format!("the receiver is an element of type `{ty}`, a type variable"))
            }
            _ => Verdict::NotOurs,
        })
    }

    pub(super) fn parent(&self, t: TypeId) -> Option<TypeId> {
        let p = self.project.type_decl(t).parent?;
        self.project.types_in(t.file()).ok()?.get(p as usize).copied()
    }

    /// Methods named `name` in `ty` and its project supertypes.
    pub(super) fn named_in(&self, ty: TypeId, name: &str) -> Vec<MethodId> {
        let project = self.project;
        std::iter::once(ty)
            .chain(project.supertypes(ty))
            .flat_map(|u| project.methods_of(u))
            .filter(|&o| project.method(o).name == name && !project.method(o).is_constructor())
            .collect()
    }

    /// The verdict for `old(args)` looked up in `ty`'s hierarchy.
    pub(super) fn type_lookup(&self, ty: TypeId, args: Option<usize>) -> Verdict {
        let project = self.project;
        let cands: Vec<MethodId> = self
            .named_in(ty, self.old)
            .into_iter()
            .filter(|&o| args.is_none_or(|n| project.method(o).accepts_arity(n)))
            .collect();
        let ours = cands.iter().filter(|&&c| self.family.contains(c)).count();
        if ours == 0 {
            Verdict::NotOurs
        } else if ours == cands.len() && self.all_same_signature(&cands) {
            Verdict::Ours
        } else {
            Verdict::Doubt(format!(
                "`{}` has several `{}` that this call could mean",
                project.type_decl(ty).display,
                self.old
            ))
        }
    }

    pub(super) fn all_same_signature(&self, cands: &[MethodId]) -> bool {
        let project = self.project;
        cands.windows(2).all(|w| same_signature(project.method(w[0]), project.method(w[1])))
    }

    /// The verdict for an unqualified `old(args)` in `ty`: Java searches the innermost enclosing
    /// type that has a method of that name, then the file's static imports.
    pub(super) fn scope_lookup(&self, ty: TypeId, args: Option<usize>) -> Verdict {
        let project = self.project;
        let mut scope = Some(ty);
        while let Some(t) = scope {
            if !self.named_in(t, self.old).is_empty() {
                return self.type_lookup(t, args);
            }
            scope = self.parent(t);
        }
        let imports = &project.symbols_of(ty).imports;
        for imp in imports.iter().filter(|i| i.is_static) {
            let ty_path = if imp.wildcard {
                imp.path.as_str()
            } else {
                match imp.path.rsplit_once('.') {
                    Some((t, member)) if member == self.old => t,
                    _ => continue,
                }
            };
            if let Some(t) = project.find_type(ty_path)
                && !self.named_in(t, self.old).is_empty()
            {
                return self.type_lookup(t, args);
            }
        }
        Verdict::NotOurs
    }

    /// A call outside any method body (field initializer, initializer block): the call graph does
    /// not record these, so they are looked up here from the syntax, with the same policy.
    pub(super) fn unmodeled_call(&self, f: FileId, occ: &Occurrence<'_>) -> Verdict {
        let project = self.project;
        let Some(scope) = self.enclosing_type(f, occ.node.start_byte()) else {
            return Verdict::Doubt("outside any type".into());
        };
        let object = match occ.node.kind() {
            "method_invocation" => occ.node.child_by_field_name("object"),
            _ => occ.node.child(0),
        };
        let Some(object) = object else { return self.scope_lookup(scope, occ.args) };
        let text = project.file(f).map(|x| x.source.text_of(object).to_string()).unwrap_or_default();
        match object.kind() {
            "this" | "super" => self.scope_lookup(scope, occ.args),
            "identifier" | "type_identifier" | "scoped_identifier" | "scoped_type_identifier" | "field_access" => {
                if let Some(t) = project.resolve_type(f, Some(scope.index()), &text) {
                    return self.type_lookup(t, occ.args);
                }
                let field = std::iter::once(scope).chain(project.supertypes(scope)).find_map(|t| {
                    project.type_decl(t).fields.iter().find(|x| x.name == text).map(|x| (t, x.ty.clone()))
                });
                match field {
                    Some((owner, ty)) => match project.resolve_type(owner.file(), Some(owner.index()), &ty.raw) {
                        Some(t) if ty.dims == 0 => self.type_lookup(t, occ.args),
                        _ if ty.raw.len() <= 2 => {
                            Verdict::Doubt(format!("`{text}` has type `{}`, a type variable", ty.text))
                        }
                        _ => Verdict::NotOurs,
                    },
                    None if text.starts_with(|c: char| c.is_uppercase()) => Verdict::NotOurs,
                    None => Verdict::Doubt(format!("`{text}` is not a field mantra can see")),
                }
            }
            _ => Verdict::Doubt("outside a method body, on a receiver whose type is not known".into()),
        }
    }

    /// The innermost type whose declaration contains byte `at`.
    pub(super) fn enclosing_type(&self, f: FileId, at: usize) -> Option<TypeId> {
        let types = self.project.types_in(f).ok()?;
        types
            .into_iter()
            .filter(|&t| {
                let s = &self.project.type_decl(t).span;
                s.start_byte <= at && at < s.end_byte
            })
            .min_by_key(|&t| {
                let s = &self.project.type_decl(t).span;
                s.end_byte - s.start_byte
            })
    }

    /// `import static a.B.old;` naming a static member of the family: renamed, or, if the import
    /// also brings in other members called `old`, kept with a second import for the new name.
    pub(super) fn static_imports(&mut self, f: FileId) {
        let project = self.project;
        let Ok(file) = project.file(f) else { return };
        for imp in file.symbols.imports.iter().filter(|i| i.is_static && !i.wildcard) {
            let Some((ty, member)) = imp.path.rsplit_once('.') else { continue };
            if member != self.old {
                continue;
            }
            let Some(t) = project.find_type(ty) else { continue };
            let named = self.named_in(t, self.old);
            if !named.iter().any(|&m| self.family.contains(m)) {
                continue;
            }
            let text = file.source.slice(&imp.span);
            let Some(at) = text.rfind(self.old) else { continue };
            let start = imp.span.start_byte + at;
            let others = named.iter().any(|&m| !self.family.contains(m))
                || project.type_decl(t).fields.iter().any(|x| x.name == self.old);
            if others {
                self.inserts.push((f, imp.span.end_byte, format!("\nimport static {ty}.{};", self.new)));
            } else {
                self.add(f, start..start + self.old.len());
            }
        }
    }

    /// `{@link #old}`, `{@link Type#old(int)}`, `@see #old` in Javadoc comments.
    pub(super) fn javadoc_links(&mut self, f: FileId, source: &SourceFile) {
        let project = self.project;
        let text = source.text.as_str();
        let pattern = format!("#{}", self.old);
        for range in super::javadoc::doc_comments(source) {
            let doc = &text[range.clone()];
            let mut from = 0;
            while let Some(i) = doc[from..].find(&pattern) {
                let hash = range.start + from + i;
                from += i + pattern.len();
                let name_start = hash + 1;
                let name_end = name_start + self.old.len();
                if text[name_end..].starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$') {
                    continue;
                }
                let before = &text[range.start..hash];
                let ty_start = before
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$'))
                    .map_or(0, |p| p + 1);
                let ty_name = &before[ty_start..];
                let params = text[name_end..].strip_prefix('(').and_then(|rest| rest.split_once(')')).map(|(p, _)| {
                    p.split(',')
                        .map(|x| x.split_whitespace().next().unwrap_or("").to_string())
                        .filter(|x| !x.is_empty())
                        .map(|x| crate::java::syntax::erased_type(&x))
                        .collect::<Vec<_>>()
                });
                let scope = self.enclosing_type(f, range.start).or_else(|| {
                    project.types_in(f).ok()?.into_iter().find(|&t| project.type_decl(t).span.start_byte >= range.end)
                });
                let ty =
                    if ty_name.is_empty() { scope } else { project.resolve_type(f, scope.map(|s| s.index()), ty_name) };
                let Some(ty) = ty else { continue };
                let cands: Vec<MethodId> = self
                    .named_in(ty, self.old)
                    .into_iter()
                    .filter(|&m| match &params {
                        Some(ps) => project.method(m).erased_params() == *ps,
                        None => true,
                    })
                    .collect();
                if !cands.is_empty() && cands.iter().all(|&m| self.family.contains(m)) {
                    self.add(f, name_start..name_end);
                }
            }
        }
    }

    /// Existing calls named `new` that the renamed method would capture, and renamed unqualified
    /// calls that a method of an enclosing class named `new` would capture: Java binds an
    /// unqualified name to the innermost class that has a method of that name, whatever its
    /// parameters, so either way a call would change target or stop compiling.
    pub(super) fn check_captured_calls(&self) -> Result<(), Refusal> {
        let project = self.project;
        let mut captured = Vec::new();
        for f in project.files_containing(self.new) {
            let Ok(methods) = project.methods_in(f) else { continue };
            for m in methods {
                for (ci, c) in project.method(m).calls.iter().enumerate() {
                    if c.name != self.new || c.kind != CallKind::Method || c.receiver != Receiver::Implicit {
                        continue;
                    }
                    if self.binds_nowhere(m) {
                        continue; // written before the method it means: the rename gives it one
                    }
                    let mut scope = Some(project.owner(m));
                    while let Some(t) = scope {
                        let named = self.named_in(t, self.new);
                        if !named.is_empty() {
                            break;
                        }
                        if self.named_in(t, self.old).iter().any(|&x| self.family.contains(x)) {
                            captured.push(format!(
                                "{}:{} `{}` would call the renamed method of `{}`",
                                project.path(f).display(),
                                c.span.start_line,
                                project.call_text(m, ci),
                                project.type_decl(t).display
                            ));
                            break;
                        }
                        scope = self.parent(t);
                    }
                }
            }
        }
        // renamed unqualified calls: no enclosing scope before the one holding the family may have `new`
        for &(m, ci) in &self.unqualified {
            let mut scope = Some(project.owner(m));
            while let Some(t) = scope {
                if self.named_in(t, self.old).iter().any(|&x| self.family.contains(x)) {
                    break;
                }
                if let Some(&other) = self.named_in(t, self.new).first() {
                    captured.push(format!(
                        "{}:{} `{}` would call {} instead",
                        project.path(m.file()).display(),
                        project.method(m).calls[ci].span.start_line,
                        project.call_text(m, ci),
                        describe(project, other)
                    ));
                    break;
                }
                scope = self.parent(t);
            }
        }
        if captured.is_empty() {
            return Ok(());
        }
        Err(Refusal::new(
            Reason::NameClash,
            format!(
                "renaming to `{}` would change what unqualified calls mean: {}. Choose another name",
                self.new,
                list(&captured)
            ),
        ))
    }

    /// Whether an unqualified call of the new name in `m` calls nothing today, so that no
    /// meaning changes: no class around it declares that name or could inherit it from outside the
    /// project, and no static import could supply it.
    fn binds_nowhere(&self, m: MethodId) -> bool {
        let project = self.project;
        let owner = project.owner(m);
        let imported = project
            .symbols_of(owner)
            .imports
            .iter()
            .any(|i| i.is_static && (i.wildcard || i.path.rsplit('.').next() == Some(self.new)));
        !imported && project.implicit_providers(owner, self.new).is_empty()
    }

    pub(super) fn doubt_refusal(&self) -> Refusal {
        let target = *self.family.members.first().unwrap_or_else(|| unreachable!("a family holds at least its method"));
        Refusal::new(
            Reason::UnresolvedCalls,
            format!(
                "{} call(s) named `{}` may or may not call {}, and mantra will not guess: {}. Give those receivers \
                 a declared project type (or cast them), or rename the calls by hand",
                self.doubts.len(),
                self.old,
                describe(self.project, target),
                list(&self.doubts)
            ),
        )
    }

    pub(super) fn change_set(&self) -> Result<ChangeSet, Refusal> {
        let project = self.project;
        let mut changes = ChangeSet::new();
        for (&f, ranges) in &self.edits {
            let file = project.file(f).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?;
            for &(s, e) in ranges {
                debug_assert_eq!(&file.source.text[s..e], self.old);
                changes.edit(project.path(f), &file.source.text, Edit::replace(s..e, self.new));
            }
        }
        for (f, at, text) in &self.inserts {
            let file = project.file(*f).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?;
            changes.edit(project.path(*f), &file.source.text, Edit::insert(*at, text.clone()));
        }
        Ok(changes)
    }
}

pub(super) fn list(items: &[String]) -> String {
    let mut out = items.iter().take(LISTED).cloned().collect::<Vec<_>>().join("; ");
    if items.len() > LISTED {
        out.push_str(&format!("; and {} more", items.len() - LISTED));
    }
    out
}
