//! Inline Method: replace calls to a method by its body, as text edits on the original files,
//! or refuse with a reason a developer (or an LLM) can act on.
//!
//! A body that is a single `return expr;` replaces the call as an expression anywhere. Any other
//! body replaces a call that is a whole statement (`m(..);`, `x = m(..);`, `T x = m(..);`,
//! `return m(..);`): its statements are spliced in, re-indented, and its tail `return e;` becomes
//! the assignment, declaration or expression statement. Arguments replace parameters textually
//! (parenthesised where precedence needs it); a temporary local keeps an argument's evaluation
//! order and count when substitution would not (side effects, repeated use, reassigned
//! parameter). Body locals that would clash with names at the call site are renamed. When no
//! reference to the method remains, its declaration goes, with its Javadoc and a blank line.
//!
//! Refusal codes (stable): `file_not_found`, `no_such_method`, `ambiguous_method`, `constructor`,
//! `anonymous_class`, `no_body`, `synchronized`, `varargs`, `generic_method`, `overrides`,
//! `overridden`, `recursive`, `uses_super`, `no_call_sites`, `no_call_at_line`,
//! `method_reference`, `ambiguous_call`, `nested_call`, `early_return`,
//! `not_statement_position`, `needs_temporary`, `discarded_result`, `inaccessible_member`,
//! `unresolved_member`, `name_capture`, `inner_class_in_body`, `unresolved_call`,
//! `unreadable_file`.
//!
//! Call sites come from [`call_sites`]: decided by the project model in
//! [`inline_method_in_project`] (what `mantra refactor` uses), by syntax alone in
//! [`inline_method`] (single files). Both share everything after the sites are known.

use crate::text::{line_indent, reindent};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use tree_sitter::Node;

use super::call_sites::{
    self, CallSite, Doubt, Receiver, SiteKind, Target, TargetMethod, enclosing_type_body, is_name_chain,
};
use super::edit::{self, ChangeSet, Edit};
use super::precedence::{self, fit, is_target_typed, precedence};
use super::variable_names::{
    declared_names, descendants, erased_type, find_declaration, fresh_name, is_declaration_name, is_field,
    is_variable_name, variable_names,
};
use super::{Reason, Refusal};
use crate::java::SourceFile;
use crate::java::project::{FileId, MethodId, Project};
use crate::java::syntax::is_literal;

/// What to inline: a method, at one call line or everywhere.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InlineSpec {
    /// The file declaring the method, as in [`SourceFile::path`].
    pub file: PathBuf,
    pub method: MethodSelector,
    /// One call line; `None` inlines every call site and removes the declaration.
    #[serde(default)]
    pub at: Option<CallLine>,
}

/// A method by name, with a line inside its declaration when the name is overloaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MethodSelector {
    pub name: String,
    #[serde(default)]
    pub line: Option<usize>,
}

/// A 1-based line of a file holding the call to inline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallLine {
    pub file: PathBuf,
    pub line: usize,
}

/// Inlines `spec.method` at `spec.at` (or everywhere) across `files`, finding call sites by
/// syntax alone: for single files and file sets without a project (the dataset evaluation).
pub fn inline_method(files: &[SourceFile], spec: &InlineSpec) -> Result<ChangeSet, Refusal> {
    let fi = files.iter().position(|f| f.path == spec.file).ok_or_else(|| {
        Refusal::new(Reason::FileNotFound, format!("{} is not among the parsed files", spec.file.display()))
    })?;
    let decl = select_declaration(&files[fi], &spec.method)?;
    let method = Method::analyse(files, fi, decl)?;
    let sites = call_sites::find_call_sites(files, &method.target);
    perform(files, &method, &sites, &[], spec)
}

/// Inlines `method` of `project` at `spec.at` (or everywhere), with call sites decided by the
/// project model: same-named calls and references of other methods are left alone, and a call
/// the model cannot attribute blocks inlining everywhere. `spec.file` and `spec.method` are not
/// consulted: `method` names the declaration.
pub fn inline_method_in_project(project: &Project, method: MethodId, spec: &InlineSpec) -> Result<ChangeSet, Refusal> {
    let decl = project.method(method);
    if decl.is_constructor() {
        return Err(Refusal::new(
            Reason::Constructor,
            format!("`{}` is a constructor; only methods can be inlined", decl.name),
        ));
    }
    let (files, ids) = files_mentioning(project, method)?;
    let fi = ids.iter().position(|&id| id == method.file()).ok_or_else(|| {
        Refusal::new(Reason::FileNotFound, format!("{} cannot be read", project.path(method.file()).display()))
    })?;
    let node = declaration_node(&files[fi], decl.span.start_byte, decl.span.end_byte).ok_or_else(|| {
        Refusal::new(Reason::NoSuchMethod, format!("no declaration of `{}` in {}", decl.name, files[fi].path.display()))
    })?;
    let mut m = Method::analyse(&files, fi, node)?;
    let owner_methods = project.methods_of(project.owner(method));
    for g in m.getters.values_mut().filter(|g| g.overridable) {
        let id = owner_methods.iter().find(|&&o| project.method(o).span.start_byte == g.span.start);
        g.overridable = id.is_none_or(|&o| !project.overridden_by(o).is_empty());
    }
    let (sites, doubts) = call_sites::find_project_call_sites(project, method, &files, &ids, &m.target);
    perform(&files, &m, &sites, &doubts, spec)
}

/// The files that can refer to `method`: its own and every file whose text mentions its name,
/// test sources included, with their project ids.
fn files_mentioning(project: &Project, method: MethodId) -> Result<(Vec<SourceFile>, Vec<FileId>), Refusal> {
    let own = method.file();
    let mut ids = project.files_containing(&project.method(method).name);
    if !ids.contains(&own) {
        ids.push(own);
    }
    let mut files = Vec::with_capacity(ids.len());
    let mut kept = Vec::with_capacity(ids.len());
    for id in ids {
        match project.file(id) {
            Ok(f) => {
                files.push(f.source.clone());
                kept.push(id);
            }
            Err(e) if id == own => return Err(Refusal::new(Reason::UnreadableFile, e.to_string())),
            // An unreadable file cannot hold a call the engine could rewrite, nor compile.
            Err(_) => {}
        }
    }
    Ok((files, kept))
}

/// The `method_declaration` spanning exactly `start..end`.
fn declaration_node(file: &SourceFile, start: usize, end: usize) -> Option<Node<'_>> {
    let mut node = file.root().descendant_for_byte_range(start, end);
    while let Some(n) = node {
        if n.kind() == "method_declaration" && n.start_byte() == start && n.end_byte() == end {
            return Some(n);
        }
        node = n.parent();
    }
    None
}

/// Inlines `m` at the chosen sites among `sites`; its declaration goes when neither an unchosen
/// site nor a doubt remains.
fn perform(
    files: &[SourceFile],
    method: &Method<'_>,
    sites: &[CallSite<'_>],
    doubts: &[Doubt],
    spec: &InlineSpec,
) -> Result<ChangeSet, Refusal> {
    let fi = method.target.file;
    let file = &files[fi];
    let decl = method.target.node;
    let chosen = choose_sites(files, method, sites, doubts, spec)?;

    let mut changes = ChangeSet::new();
    let mut introduced: HashMap<(usize, usize), HashSet<String>> = HashMap::new();
    for site in &chosen {
        let caller = &files[site.file];
        for e in inline_site(files, method, site, &mut introduced)? {
            changes.edit(&caller.path, &caller.text, e);
        }
    }
    let mut callers: Vec<usize> = chosen.iter().map(|s| s.file).filter(|f| *f != fi).collect();
    callers.dedup();
    for cf in callers {
        if let Some(e) = missing_imports(method, &files[cf]) {
            changes.edit(&files[cf].path, &files[cf].text, e);
        }
    }
    let remaining = sites.iter().filter(|s| !chosen.iter().any(|c| c.node.id() == s.node.id())).count();
    if remaining == 0 && doubts.is_empty() {
        changes.edit(&file.path, &file.text, Edit::delete(declaration_range(file, decl)));
    }
    Ok(changes)
}

/// The imports of the declaring file that the inlined body needs and the caller's file lacks,
/// as one insertion after the caller's last import (or its package declaration).
fn missing_imports(m: &Method<'_>, caller: &SourceFile) -> Option<Edit> {
    let used: HashSet<&str> = descendants(m.body)
        .into_iter()
        .chain(m.target.node.child_by_field_name("parameters").map(descendants).unwrap_or_default())
        .filter(|n| matches!(n.kind(), "type_identifier" | "identifier"))
        .map(|n| m.file.text_of(n))
        .collect();
    fn imports(f: &SourceFile) -> Vec<String> {
        f.root()
            .named_children(&mut f.root().walk())
            .filter(|n| n.kind() == "import_declaration")
            .map(|n| f.text_of(n).split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    }
    let have: HashSet<String> = imports(caller).into_iter().collect();
    let needed: Vec<String> = imports(m.file)
        .into_iter()
        .filter(|t| !have.contains(t))
        .filter(|t| {
            let path = t.trim_end_matches(';').trim_start_matches("import").trim().trim_start_matches("static ").trim();
            let last = path.rsplit('.').next().unwrap_or(path);
            last == "*" || used.contains(last)
        })
        .collect();
    if needed.is_empty() {
        return None;
    }
    let root = caller.root();
    let anchor = root
        .named_children(&mut root.walk())
        .filter(|n| matches!(n.kind(), "import_declaration" | "package_declaration"))
        .last();
    let block: String = needed.iter().map(|t| format!("{t}\n")).collect();
    Some(match anchor {
        Some(a) if a.kind() == "import_declaration" => Edit::insert(a.end_byte(), format!("\n{}", block.trim_end())),
        Some(a) => Edit::insert(a.end_byte(), format!("\n\n{}", block.trim_end())),
        None => Edit::insert(0, format!("{block}\n")),
    })
}

fn select_declaration<'t>(file: &'t SourceFile, sel: &MethodSelector) -> Result<Node<'t>, Refusal> {
    let named = |kind: &str| -> Vec<Node<'t>> {
        descendants(file.root())
            .into_iter()
            .filter(|n| n.kind() == kind)
            .filter(|n| n.child_by_field_name("name").is_some_and(|id| file.text_of(id) == sel.name))
            .filter(|n| sel.line.is_none_or(|l| n.start_position().row < l && l <= n.end_position().row + 1))
            .collect()
    };
    let methods = named("method_declaration");
    match methods.as_slice() {
        [one] => Ok(*one),
        [] if !named("constructor_declaration").is_empty() => Err(Refusal::new(
            Reason::Constructor,
            format!("`{}` is a constructor; only methods can be inlined", sel.name),
        )),
        [] => Err(Refusal::new(
            Reason::NoSuchMethod,
            format!(
                "no method `{}`{} in {}",
                sel.name,
                sel.line.map(|l| format!(" declared around line {l}")).unwrap_or_default(),
                file.path.display()
            ),
        )),
        many => Err(Refusal::new(
            Reason::AmbiguousMethod,
            format!(
                "{} methods are named `{}` (lines {}); give the line of the one to inline",
                many.len(),
                sel.name,
                many.iter().map(|m| (m.start_position().row + 1).to_string()).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

/// A formal parameter of the inlined method.
struct Param {
    name: String,
    type_text: String,
}

/// The inlined method and what its body does, independent of any call site.
struct Method<'t> {
    target: TargetMethod<'t>,
    file: &'t SourceFile,
    body: Node<'t>,
    params: Vec<Param>,
    type_params: Vec<String>,
    /// The body's statements (comments excluded).
    statements: Vec<Node<'t>>,
    /// The expression of a body that is exactly `return expr;`.
    single_return: Option<Node<'t>>,
    /// Return statements of the body itself (not of lambdas or nested classes).
    returns: Vec<Node<'t>>,
    tail_returns: HashSet<usize>,
    /// Per parameter: its uses in the body.
    uses: Vec<Vec<Node<'t>>>,
    reassigned: Vec<bool>,
    /// Names the body declares, and every variable-name identifier of the body.
    locals: HashSet<String>,
    /// Locals declared by the body's own statements (their scope is the rest of the block).
    top_level_locals: HashSet<String>,
    names: Vec<Node<'t>>,
    /// Simple names that are neither parameters nor locals: fields, constants, types.
    free_names: Vec<Node<'t>>,
    /// Invocations without a receiver: methods of the declaring type (or inherited, or imported).
    implicit_calls: Vec<Node<'t>>,
    this_nodes: Vec<Node<'t>>,
    /// Nodes with side effects (calls, assignments, `new`, `++`), outside lambdas and classes.
    effects: Vec<Node<'t>>,
    has_inner_class: bool,
    /// Fields and methods declared by the declaring type: name -> (static, private, public).
    fields: HashMap<String, Access>,
    methods: HashMap<String, Access>,
    /// Trivial getters of the declaring type's fields, by field name.
    getters: HashMap<String, Getter>,
    static_imports: HashSet<String>,
    package: String,
}

/// `T getF() { return f; }`: a call site that cannot read a private `f` may call this instead.
struct Getter {
    name: String,
    access: Access,
    /// The declaration's byte range in the declaring file.
    span: Range<usize>,
    /// Neither the getter nor its class is final (nor a record), and nothing has shown that no
    /// subclass overrides it: calling it might not read the field.
    overridable: bool,
}

#[derive(Debug, Clone, Copy, Default)]
struct Access {
    is_static: bool,
    is_private: bool,
    is_public: bool,
}

fn modifiers_text<'s>(node: Node<'_>, text: &'s str) -> &'s str {
    node.named_children(&mut node.walk()).find(|c| c.kind() == "modifiers").map(|m| &text[m.byte_range()]).unwrap_or("")
}

fn has_word(haystack: &str, word: &str) -> bool {
    haystack.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '@').any(|w| w == word)
}

fn access_of(node: Node<'_>, text: &str, in_interface: bool) -> Access {
    let m = modifiers_text(node, text);
    Access {
        is_static: has_word(m, "static"),
        is_private: has_word(m, "private"),
        is_public: has_word(m, "public") || in_interface,
    }
}

/// Is `node` inside a nested class body below `root` (where `this` and `super` differ)?
fn in_nested_class(node: Node<'_>, root: Node<'_>) -> bool {
    let mut cur = node.parent();
    while let Some(n) = cur {
        if n.id() == root.id() {
            return false;
        }
        if n.kind() == "class_body" {
            return true;
        }
        cur = n.parent();
    }
    false
}

/// Is `node` inside a lambda or a nested class body, below `root`?
fn in_nested_scope(node: Node<'_>, root: Node<'_>) -> bool {
    let mut cur = node.parent();
    while let Some(n) = cur {
        if n.id() == root.id() {
            return false;
        }
        if matches!(n.kind(), "lambda_expression" | "class_body") {
            return true;
        }
        cur = n.parent();
    }
    false
}

fn is_statement_expression(kind: &str) -> bool {
    matches!(kind, "method_invocation" | "object_creation_expression" | "assignment_expression" | "update_expression")
}

fn has_effects(node: Node<'_>) -> bool {
    descendants(node).into_iter().any(|n| is_statement_expression(n.kind()) || n.kind() == "array_creation_expression")
}

impl<'t> Method<'t> {
    fn analyse(files: &'t [SourceFile], fi: usize, decl: Node<'t>) -> Result<Method<'t>, Refusal> {
        let file = &files[fi];
        let text = file.text.as_str();
        let name = decl.child_by_field_name("name").map(|n| file.text_of(n)).unwrap_or_default().to_string();
        let refuse = |reason: Reason, why: String| Err(Refusal::new(reason, format!("`{name}`: {why}")));

        let Some(mut type_body) = decl.parent() else {
            return refuse(Reason::NoSuchMethod, "the declaration has no enclosing type".into());
        };
        if type_body.kind() == "enum_body_declarations" {
            type_body = type_body.parent().unwrap_or(type_body);
        }
        let Some(type_decl) = type_body.parent() else {
            return refuse(Reason::NoSuchMethod, "the declaration has no enclosing type".into());
        };
        if type_decl.kind() == "object_creation_expression" {
            return refuse(Reason::AnonymousClass, "it is declared in an anonymous class; inline it by hand".into());
        }
        let type_name = type_decl.child_by_field_name("name").map(|n| file.text_of(n)).unwrap_or_default().to_string();
        let in_interface = type_decl.kind() == "interface_declaration";
        let mods = modifiers_text(decl, text);
        let is_static = has_word(mods, "static");

        let Some(body) = decl.child_by_field_name("body") else {
            return refuse(Reason::NoBody, "it is abstract, native or an interface method without a body".into());
        };
        if has_word(mods, "@Override") {
            return refuse(
                Reason::Overrides,
                "it overrides a supertype's method (@Override); inlining would bypass dynamic dispatch".into(),
            );
        }
        if has_word(mods, "synchronized") {
            return refuse(Reason::Synchronized, "it is synchronized; inlining would drop the lock".into());
        }
        let mut params = Vec::new();
        if let Some(fp) = decl.child_by_field_name("parameters") {
            for p in fp.named_children(&mut fp.walk()) {
                match p.kind() {
                    "formal_parameter" => params.push(Param {
                        name: p.child_by_field_name("name").map(|n| file.text_of(n)).unwrap_or_default().to_string(),
                        type_text: p
                            .child_by_field_name("type")
                            .map(|n| file.text_of(n))
                            .unwrap_or_default()
                            .to_string(),
                    }),
                    "spread_parameter" => {
                        return refuse(
                            Reason::Varargs,
                            "it has a variable-arity parameter; call sites do not map one argument to one parameter"
                                .into(),
                        );
                    }
                    _ => {}
                }
            }
        }
        let type_params: Vec<String> = decl
            .child_by_field_name("type_parameters")
            .map(|tp| {
                tp.named_children(&mut tp.walk())
                    .filter_map(|p| p.named_child(0).map(|n| file.text_of(n).to_string()))
                    .collect()
            })
            .unwrap_or_default();

        let all = descendants(body);
        if let Some(t) =
            all.iter().find(|n| n.kind() == "type_identifier" && type_params.iter().any(|p| p == file.text_of(**n)))
        {
            return refuse(
                Reason::GenericMethod,
                format!(
                    "the body uses the method's type parameter `{}`, which does not exist at the call site",
                    file.text_of(*t)
                ),
            );
        }
        if let Some(s) = all.iter().find(|n| n.kind() == "super" && !in_nested_class(**n, body)) {
            return refuse(
                Reason::UsesSuper,
                format!(
                    "the body uses `super` (line {}), which means something else at a call site",
                    s.start_position().row + 1
                ),
            );
        }
        let arity = params.len();
        let recursive = all.iter().find(|n| {
            let named_like = |id: Option<Node<'_>>| id.is_some_and(|id| file.text_of(id) == name);
            match n.kind() {
                "method_invocation" => {
                    named_like(n.child_by_field_name("name"))
                        && call_sites::arguments(**n).len() == arity
                        && n.child_by_field_name("object")
                            .is_none_or(|o| o.kind() == "this" || file.text_of(o) == type_name)
                }
                "method_reference" => {
                    let last = n.named_child(n.named_child_count().saturating_sub(1));
                    named_like(last)
                        && n.named_child(0).is_some_and(|o| o.kind() == "this" || file.text_of(o) == type_name)
                }
                _ => false,
            }
        });
        if let Some(r) = recursive {
            return refuse(Reason::Recursive, format!("it calls itself (line {})", r.start_position().row + 1));
        }

        let param_types: Vec<String> = params.iter().map(|p| erased_type(&p.type_text)).collect();
        let overloads: Vec<Vec<String>> = type_body
            .named_children(&mut type_body.walk())
            .flat_map(|m| {
                if m.kind() == "enum_body_declarations" { m.named_children(&mut m.walk()).collect() } else { vec![m] }
            })
            .filter(|m| m.kind() == "method_declaration")
            .filter(|m| m.child_by_field_name("name").is_some_and(|n| file.text_of(n) == name))
            .map(|m| method_param_types(m, text))
            .filter(|types| types.len() == arity)
            .collect();
        let target = TargetMethod {
            file: fi,
            node: decl,
            name: name.clone(),
            param_types: param_types.clone(),
            type_body,
            type_name: type_name.clone(),
            is_static,
            overloads,
        };
        let is_private = has_word(mods, "private");
        if !is_static && !is_private {
            check_hierarchy(files, &target, in_interface)?;
        }

        let statements: Vec<Node<'t>> = body.named_children(&mut body.walk()).filter(|c| !c.is_extra()).collect();
        let single_return = match statements.as_slice() {
            [s] if s.kind() == "return_statement" => s.named_children(&mut s.walk()).find(|c| !c.is_extra()),
            _ => None,
        };
        let returns: Vec<Node<'t>> =
            all.iter().copied().filter(|n| n.kind() == "return_statement" && !in_nested_scope(*n, body)).collect();
        let tail_returns = tail_returns(&statements).into_iter().map(|n| n.id()).collect();

        let names = variable_names(body);
        let locals = declared_names(body, text);
        let top_level_locals = statements
            .iter()
            .filter(|s| s.kind() == "local_variable_declaration")
            .flat_map(|s| s.children_by_field_name("declarator", &mut s.walk()).collect::<Vec<_>>())
            .filter_map(|d| d.child_by_field_name("name").map(|n| file.text_of(n).to_string()))
            .collect();
        let param_names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        let uses: Vec<Vec<Node<'t>>> = param_names
            .iter()
            .map(|p| names.iter().copied().filter(|n| file.text_of(*n) == *p && !is_declaration_name(*n)).collect())
            .collect();
        let reassigned = param_names
            .iter()
            .map(|p| {
                all.iter().any(|n| match n.kind() {
                    "assignment_expression" => n.child_by_field_name("left").is_some_and(|l| file.text_of(l) == *p),
                    "update_expression" => {
                        n.named_child(0).is_some_and(|l| l.kind() == "identifier" && file.text_of(l) == *p)
                    }
                    _ => false,
                })
            })
            .collect();
        let free_names = names
            .iter()
            .copied()
            .filter(|n| {
                let t = file.text_of(*n);
                !param_names.contains(&t) && !locals.contains(t)
            })
            .collect();
        let implicit_calls = all
            .iter()
            .copied()
            .filter(|n| n.kind() == "method_invocation" && n.child_by_field_name("object").is_none())
            .collect();
        let this_nodes = all
            .iter()
            .copied()
            .filter(|n| n.kind() == "this")
            .filter(|n| !n.parent().is_some_and(|p| p.kind() == "field_access" && is_field(p, "field", *n)))
            .filter(|n| !in_nested_class(*n, body))
            .collect();
        let effects =
            all.iter().copied().filter(|n| is_statement_expression(n.kind()) && !in_nested_scope(*n, body)).collect();
        let has_inner_class = all.iter().any(|n| n.kind() == "class_body");

        let mut fields = HashMap::new();
        let mut methods = HashMap::new();
        for member in type_body.named_children(&mut type_body.walk()) {
            match member.kind() {
                "field_declaration" | "constant_declaration" => {
                    let acc = access_of(member, text, in_interface);
                    let acc = if member.kind() == "constant_declaration" || in_interface {
                        Access { is_static: true, ..acc }
                    } else {
                        acc
                    };
                    for d in member.children_by_field_name("declarator", &mut member.walk()) {
                        if let Some(n) = d.child_by_field_name("name") {
                            fields.insert(file.text_of(n).to_string(), acc);
                        }
                    }
                }
                "method_declaration" => {
                    if let Some(n) = member.child_by_field_name("name") {
                        let acc = access_of(member, text, in_interface);
                        let entry = methods.entry(file.text_of(n).to_string()).or_insert(acc);
                        // overloads: private only if all are, static only if all are
                        entry.is_private &= acc.is_private;
                        entry.is_static &= acc.is_static;
                        entry.is_public |= acc.is_public;
                    }
                }
                _ => {}
            }
        }
        let sealed_type =
            type_decl.kind() == "record_declaration" || has_word(modifiers_text(type_decl, text), "final");
        let getters = type_body
            .named_children(&mut type_body.walk())
            // the inlined method itself is going away
            .filter(|g| g.kind() == "method_declaration" && g.id() != decl.id())
            .filter_map(|g| {
                let field = trivial_getter_field(g, text)?;
                let facc = fields.get(field)?;
                let access = access_of(g, text, in_interface);
                (access.is_static == facc.is_static).then(|| {
                    let getter = Getter {
                        name: g.child_by_field_name("name").map(|n| text[n.byte_range()].to_string())?,
                        access,
                        span: g.byte_range(),
                        overridable: !(sealed_type || has_word(modifiers_text(g, text), "final") || access.is_static),
                    };
                    Some((field.to_string(), getter))
                })?
            })
            .collect();
        let root = file.root();
        let mut static_imports = HashSet::new();
        let mut package = String::new();
        for top in root.named_children(&mut root.walk()) {
            let t = file.text_of(top);
            if top.kind() == "import_declaration" && has_word(t, "static") {
                let path = t.trim_end_matches(';').trim();
                if let Some(last) = path.rsplit('.').next() {
                    static_imports.insert(last.trim().to_string());
                }
            }
            if top.kind() == "package_declaration" {
                package = t.trim_start_matches("package").trim_end_matches(';').trim().to_string();
            }
        }

        Ok(Method {
            target,
            file,
            body,
            params,
            type_params,
            statements,
            single_return,
            returns,
            tail_returns,
            uses,
            reassigned,
            locals,
            top_level_locals,
            names,
            free_names,
            implicit_calls,
            this_nodes,
            effects,
            has_inner_class,
            fields,
            methods,
            getters,
            static_imports,
            package,
        })
    }

    /// Does a side effect of the body complete before byte `pos`?
    fn effect_before(&self, pos: usize) -> bool {
        self.effects.iter().any(|e| e.end_byte() <= pos)
    }
}

/// The field a method without parameters only returns (`return f;` or `return this.f;`).
fn trivial_getter_field<'s>(g: Node<'_>, text: &'s str) -> Option<&'s str> {
    let params = g.child_by_field_name("parameters")?;
    if params.named_child_count() > 0 || g.child_by_field_name("type_parameters").is_some() {
        return None;
    }
    let body = g.child_by_field_name("body")?;
    let stmts: Vec<Node<'_>> = body.named_children(&mut body.walk()).filter(|c| !c.is_extra()).collect();
    let [ret] = stmts.as_slice() else { return None };
    if ret.kind() != "return_statement" {
        return None;
    }
    let value = ret.named_children(&mut ret.walk()).find(|c| !c.is_extra())?;
    let name = match value.kind() {
        "identifier" => value,
        "field_access" if value.child_by_field_name("object").is_some_and(|o| o.kind() == "this") => {
            value.child_by_field_name("field")?
        }
        _ => return None,
    };
    Some(&text[name.byte_range()])
}

/// Is the name read (not assigned or incremented)?
fn is_read(name: Node<'_>) -> bool {
    match name.parent() {
        Some(p) if p.kind() == "assignment_expression" => !is_field(p, "left", name),
        Some(p) if p.kind() == "update_expression" => false,
        _ => true,
    }
}

fn method_param_types(m: Node<'_>, text: &str) -> Vec<String> {
    m.child_by_field_name("parameters")
        .map(|fp| {
            fp.named_children(&mut fp.walk())
                .filter(|p| matches!(p.kind(), "formal_parameter" | "spread_parameter"))
                .map(|p| p.child_by_field_name("type").map(|t| erased_type(&text[t.byte_range()])).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default()
}

/// Returns in tail position: their statement is the last thing the body executes on its path.
fn tail_returns<'t>(stmts: &[Node<'t>]) -> Vec<Node<'t>> {
    let Some(last) = stmts.last() else { return Vec::new() };
    tail_of(*last)
}

fn tail_of(stmt: Node<'_>) -> Vec<Node<'_>> {
    match stmt.kind() {
        "return_statement" => vec![stmt],
        "block" => tail_returns(&stmt.named_children(&mut stmt.walk()).filter(|c| !c.is_extra()).collect::<Vec<_>>()),
        "if_statement" => {
            let mut out = stmt.child_by_field_name("consequence").map(tail_of).unwrap_or_default();
            out.extend(stmt.child_by_field_name("alternative").map(tail_of).unwrap_or_default());
            out
        }
        _ => Vec::new(),
    }
}

/// Refuses when a subtype among the files overrides the method, or a supertype declares it.
fn check_hierarchy(files: &[SourceFile], t: &TargetMethod<'_>, in_interface: bool) -> Result<(), Refusal> {
    // simple type name -> (supertype names, declaring file, type body)
    let mut types: Vec<(String, Vec<String>, usize, Node<'_>)> = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        for n in descendants(f.root()) {
            let (name, body) = match n.kind() {
                "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration" => (
                    n.child_by_field_name("name").map(|x| f.text_of(x).to_string()).unwrap_or_default(),
                    n.child_by_field_name("body"),
                ),
                // an anonymous subclass `new T() { ... }`
                "object_creation_expression" => {
                    (String::new(), n.named_children(&mut n.walk()).find(|c| c.kind() == "class_body"))
                }
                _ => continue,
            };
            let Some(body) = body else { continue };
            let mut supers = Vec::new();
            for field in ["superclass", "interfaces", "type"] {
                if let Some(s) = n.child_by_field_name(field) {
                    supers.extend(
                        descendants(s)
                            .into_iter()
                            .filter(|x| x.kind() == "type_identifier")
                            .map(|x| f.text_of(x).to_string()),
                    );
                }
            }
            if n.kind() == "interface_declaration"
                && let Some(ext) = n.named_children(&mut n.walk()).find(|c| c.kind() == "extends_interfaces")
            {
                supers.extend(
                    descendants(ext)
                        .into_iter()
                        .filter(|x| x.kind() == "type_identifier")
                        .map(|x| f.text_of(x).to_string()),
                );
            }
            types.push((name, supers, fi, body));
        }
    }
    let declares = |fi: usize, body: Node<'_>| {
        let text = &files[fi].text;
        body.named_children(&mut body.walk()).any(|m| {
            m.kind() == "method_declaration"
                && m.child_by_field_name("name").is_some_and(|n| text[n.byte_range()] == t.name)
                && method_param_types(m, text) == t.param_types
        })
    };
    // subtypes, transitively
    let mut subs: HashSet<String> = HashSet::from([t.type_name.clone()]);
    loop {
        let before = subs.len();
        for (name, supers, fi, body) in &types {
            if supers.iter().any(|s| subs.contains(s)) {
                if declares(*fi, *body) && body.id() != t.type_body.id() {
                    let kind = if in_interface { "implements" } else { "overrides" };
                    return Err(Refusal::new(
                        Reason::Overridden,
                        format!(
                            "`{}` {kind} `{}` ({}, line {}); inlining would bypass dynamic dispatch",
                            if name.is_empty() { "an anonymous class" } else { name },
                            t.name,
                            files[*fi].path.display(),
                            body.start_position().row + 1
                        ),
                    ));
                }
                if !name.is_empty() {
                    subs.insert(name.clone());
                }
            }
        }
        if subs.len() == before {
            break;
        }
    }
    // supertypes, transitively
    let mut supers: Vec<String> =
        types.iter().filter(|(_, _, _, b)| b.id() == t.type_body.id()).flat_map(|(_, s, _, _)| s.clone()).collect();
    let mut seen = HashSet::new();
    while let Some(s) = supers.pop() {
        if !seen.insert(s.clone()) {
            continue;
        }
        for (name, ss, fi, body) in &types {
            if *name == s {
                if declares(*fi, *body) {
                    return Err(Refusal::new(
                        Reason::Overrides,
                        format!("`{}` overrides `{s}.{}`; inlining would bypass dynamic dispatch", t.name, t.name),
                    ));
                }
                supers.extend(ss.iter().cloned());
            }
        }
    }
    Ok(())
}

fn choose_sites<'t>(
    files: &[SourceFile],
    m: &Method<'t>,
    sites: &[CallSite<'t>],
    doubts: &[Doubt],
    spec: &InlineSpec,
) -> Result<Vec<CallSite<'t>>, Refusal> {
    let name = &m.target.name;
    let lines = |v: &[&CallSite<'_>]| {
        v.iter().map(|s| format!("{}:{}", files[s.file].path.display(), s.line)).collect::<Vec<_>>().join(", ")
    };
    let unresolved = |v: &[&Doubt]| {
        let listed: Vec<String> =
            v.iter().map(|d| format!("{}:{} ({})", files[d.file].path.display(), d.line, d.why)).collect();
        Refusal::new(
            Reason::UnresolvedCall,
            format!(
                "mantra cannot tell whether the call{} at {} reach{} `{name}`; give their receivers a declared type, or inline one call with `at`",
                if v.len() == 1 { "" } else { "s" },
                listed.join(", "),
                if v.len() == 1 { "es" } else { "" }
            ),
        )
    };
    let chosen: Vec<CallSite<'t>> = match &spec.at {
        Some(at) => {
            let here: Vec<&CallSite<'t>> =
                sites.iter().filter(|s| files[s.file].path == at.file && s.line == at.line).collect();
            let calls: Vec<CallSite<'t>> = here.iter().filter(|s| s.is_inlinable_call()).map(|s| **s).collect();
            if calls.is_empty() {
                let doubted: Vec<&Doubt> =
                    doubts.iter().filter(|d| files[d.file].path == at.file && d.line == at.line).collect();
                if !doubted.is_empty() {
                    return Err(unresolved(&doubted));
                }
                if here.iter().any(|s| matches!(s.kind, SiteKind::Reference)) {
                    return Err(Refusal::new(
                        Reason::MethodReference,
                        format!("line {} refers to `{name}` by method reference; only calls can be inlined", at.line),
                    ));
                }
                return Err(Refusal::new(
                    Reason::NoCallAtLine,
                    format!(
                        "no call to `{name}` with {} argument(s) on {}:{}{}",
                        m.params.len(),
                        at.file.display(),
                        at.line,
                        if sites.is_empty() {
                            String::new()
                        } else {
                            format!("; calls are at {}", lines(&sites.iter().collect::<Vec<_>>()))
                        }
                    ),
                ));
            }
            calls
        }
        None => {
            let refs: Vec<&CallSite<'t>> = sites.iter().filter(|s| matches!(s.kind, SiteKind::Reference)).collect();
            if !refs.is_empty() {
                return Err(Refusal::new(
                    Reason::MethodReference,
                    format!(
                        "`{name}` is used as a method reference at {}; replace it with a lambda first, or inline single calls with `at`",
                        lines(&refs)
                    ),
                ));
            }
            let ambiguous: Vec<&CallSite<'t>> =
                sites.iter().filter(|s| s.is_inlinable_call() && s.target == Target::Ambiguous).collect();
            if !ambiguous.is_empty() {
                return Err(Refusal::new(
                    Reason::AmbiguousCall,
                    format!(
                        "the calls at {} may target another overload of `{name}`; inline them one at a time with `at`",
                        lines(&ambiguous)
                    ),
                ));
            }
            if !doubts.is_empty() {
                return Err(unresolved(&doubts.iter().collect::<Vec<_>>()));
            }
            let calls: Vec<CallSite<'t>> = sites.iter().filter(|s| s.is_inlinable_call()).copied().collect();
            if calls.is_empty() {
                return Err(Refusal::new(
                    Reason::NoCallSites,
                    format!("no call to `{name}` was found in the given files"),
                ));
            }
            calls
        }
    };
    for a in &chosen {
        if let Some(b) = chosen.iter().find(|b| {
            b.node.id() != a.node.id() && b.file == a.file && a.node.byte_range().contains(&b.node.start_byte())
        }) {
            return Err(Refusal::new(
                Reason::NestedCall,
                format!(
                    "the call on line {} is an argument of the call on line {}; inline the inner one first",
                    b.line, a.line
                ),
            ));
        }
    }
    Ok(chosen)
}

/// How the call sits in its statement.
#[derive(Clone, Copy)]
enum Form<'t> {
    /// `m(..);`
    Expr { stmt: Node<'t> },
    /// `lhs = m(..);` with a side-effect-free `lhs`.
    Assign { stmt: Node<'t>, right: Node<'t> },
    /// `T x = m(..);` (one declarator).
    Declare { stmt: Node<'t>, name: Node<'t>, value: Node<'t> },
    /// `return m(..);`
    Return { stmt: Node<'t> },
    /// Anywhere else: only an expression can replace it.
    Nested,
}

impl<'t> Form<'t> {
    fn of(inv: Node<'t>, text: &str) -> Form<'t> {
        let Some(parent) = inv.parent() else { return Form::Nested };
        let in_block = |s: Node<'_>| {
            s.parent()
                .is_some_and(|p| matches!(p.kind(), "block" | "constructor_body" | "switch_block_statement_group"))
        };
        let form = match parent.kind() {
            "expression_statement" => Form::Expr { stmt: parent },
            "return_statement" => Form::Return { stmt: parent },
            "assignment_expression"
                if is_field(parent, "right", inv)
                    && parent.child_by_field_name("operator").is_some_and(|o| &text[o.byte_range()] == "=")
                    && parent.child_by_field_name("left").is_some_and(is_name_chain)
                    && parent.parent().is_some_and(|s| s.kind() == "expression_statement") =>
            {
                match parent.parent() {
                    Some(stmt) => Form::Assign { stmt, right: inv },
                    None => Form::Nested,
                }
            }
            "variable_declarator" if is_field(parent, "value", inv) => {
                match (parent.parent(), parent.child_by_field_name("name")) {
                    (Some(stmt), Some(name))
                        if stmt.kind() == "local_variable_declaration"
                            && stmt.children_by_field_name("declarator", &mut stmt.walk()).count() == 1
                            && parent.child_by_field_name("dimensions").is_none() =>
                    {
                        Form::Declare { stmt, name, value: inv }
                    }
                    _ => Form::Nested,
                }
            }
            _ => Form::Nested,
        };
        match form {
            Form::Expr { stmt } | Form::Assign { stmt, .. } | Form::Declare { stmt, .. } | Form::Return { stmt }
                if !in_block(stmt) =>
            {
                Form::Nested
            }
            f => f,
        }
    }

    fn stmt(&self) -> Option<Node<'t>> {
        match *self {
            Form::Expr { stmt } | Form::Assign { stmt, .. } | Form::Declare { stmt, .. } | Form::Return { stmt } => {
                Some(stmt)
            }
            Form::Nested => None,
        }
    }
}

/// The outermost member (method, constructor, initializer, field) around `node`: every local
/// declared in it may be in scope at `node` or be captured by a name the inlining introduces.
fn outermost_member(node: Node<'_>) -> Node<'_> {
    let mut best = None;
    let mut cur = node.parent();
    while let Some(n) = cur {
        let is_member = matches!(
            n.kind(),
            "method_declaration"
                | "constructor_declaration"
                | "compact_constructor_declaration"
                | "static_initializer"
                | "field_declaration"
        ) || (n.kind() == "block" && n.parent().is_some_and(|p| p.kind() == "class_body"));
        if is_member {
            best = Some(n);
        }
        cur = n.parent();
    }
    best.unwrap_or_else(|| enclosing_type_body(node).unwrap_or(node))
}

/// Locals and parameters of `member` whose scope includes `at`.
fn names_in_scope<'t>(member: Node<'t>, at: Node<'t>, text: &str) -> HashSet<String> {
    let scope_of = |decl: Node<'t>| -> Option<Node<'t>> {
        let mut cur = decl.parent();
        while let Some(n) = cur {
            if matches!(
                n.kind(),
                "block"
                    | "constructor_body"
                    | "switch_block_statement_group"
                    | "for_statement"
                    | "enhanced_for_statement"
                    | "catch_clause"
                    | "method_declaration"
                    | "constructor_declaration"
                    | "lambda_expression"
                    | "try_with_resources_statement"
            ) {
                return Some(n);
            }
            cur = n.parent();
        }
        None
    };
    descendants(member)
        .into_iter()
        .filter(|d| is_declaration_name(*d) && d.start_byte() < at.start_byte())
        .filter(|d| scope_of(*d).is_some_and(|s| s.byte_range().contains(&at.start_byte())))
        .map(|d| text[d.byte_range()].to_string())
        .collect()
}

/// The top-level type declaration around `node`.
fn top_level_type(node: Node<'_>) -> Option<usize> {
    let mut cur = Some(node);
    let mut last = None;
    while let Some(n) = cur {
        if matches!(n.kind(), "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration")
        {
            last = Some(n.id());
        }
        cur = n.parent();
    }
    last
}

/// How the body's implicit `this` must be spelled at a call site.
#[derive(Default)]
struct Qualify {
    /// What `this` becomes.
    this_text: Option<String>,
    /// Prefix for the declaring type's instance members (`r`, `Outer.this`).
    instance: Option<String>,
    /// Prefix for its static members (`Outer`).
    statics: Option<String>,
}

/// What happens to one argument.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ArgPlan {
    Substitute,
    Temp,
    Drop,
}

/// How an argument may move in time.
struct ArgInfo<'t> {
    node: Node<'t>,
    text: String,
    /// A literal, `this` or a caller local: its value cannot change while the body runs.
    stable: bool,
    /// A name or literal (substitutable however often it is used).
    simple: bool,
    lambda: bool,
    effects: bool,
}

fn classify_arg<'t>(arg: Node<'t>, file: &'t SourceFile) -> ArgInfo<'t> {
    let leaf_stable = |n: Node<'_>| match n.kind() {
        "identifier" => find_declaration(n, file.text_of(n), &file.text).is_some_and(|d| !d.is_field),
        _ => true,
    };
    let structural = |n: &Node<'_>| {
        matches!(
            n.kind(),
            "identifier"
                | "this"
                | "parenthesized_expression"
                | "binary_expression"
                | "unary_expression"
                | "ternary_expression"
                | "cast_expression"
                | "string_fragment"
                | "escape_sequence"
        ) || is_literal(*n)
            || !n.is_named()
            || n.kind().ends_with("_type")
            || n.kind() == "type_identifier"
    };
    let all = descendants(arg);
    let qualified_this =
        arg.kind() == "field_access" && arg.child_by_field_name("field").is_some_and(|f| f.kind() == "this");
    let stable = qualified_this
        || (all.iter().all(structural)
            && all.iter().filter(|n| n.kind() == "identifier" && is_variable_name(**n)).all(|n| leaf_stable(*n)));
    let negative_literal = arg.kind() == "unary_expression"
        && arg.child_by_field_name("operand").is_some_and(|o| o.kind().ends_with("literal"))
        && arg.child_by_field_name("operator").is_some_and(|o| matches!(o.kind(), "-" | "+"));
    let simple = negative_literal
        || qualified_this
        || precedence(arg, &file.text) == precedence::PRIMARY && matches!(arg.kind(), "identifier" | "this")
        || arg.kind().ends_with("literal")
        || matches!(arg.kind(), "true" | "false");
    ArgInfo {
        node: arg,
        text: file.text_of(arg).to_string(),
        stable,
        simple,
        lambda: matches!(arg.kind(), "lambda_expression" | "method_reference"),
        effects: has_effects(arg),
    }
}

/// Is the use evaluated exactly once whenever the body runs (no branch, loop, lambda)?
fn unconditional(use_: Node<'_>, body: Node<'_>) -> bool {
    let mut child = use_;
    while let Some(p) = child.parent() {
        if p.id() == body.id() {
            return true;
        }
        let conditional = match p.kind() {
            "lambda_expression"
            | "class_body"
            | "while_statement"
            | "do_statement"
            | "for_statement"
            | "enhanced_for_statement"
            | "switch_expression"
            | "switch_block"
            | "catch_clause"
            | "finally_clause"
            | "try_statement"
            | "try_with_resources_statement" => true,
            "ternary_expression" | "if_statement" => !is_field(p, "condition", child),
            "binary_expression" => {
                p.child_by_field_name("operator").is_some_and(|o| matches!(o.kind(), "&&" | "||"))
                    && is_field(p, "right", child)
            }
            _ => false,
        };
        if conditional {
            return false;
        }
        child = p;
    }
    true
}

/// Decides substitution or a temporary per argument, keeping evaluation order and count.
fn plan_arguments(m: &Method<'_>, args: &[ArgInfo<'_>], caller_member: Node<'_>, caller: &SourceFile) -> Vec<ArgPlan> {
    let body = m.body;
    let mut plan: Vec<ArgPlan> = args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let uses = &m.uses[i];
            if m.reassigned[i] {
                return ArgPlan::Temp;
            }
            let Some(last) = uses.last() else {
                return if a.effects { ArgPlan::Temp } else { ArgPlan::Drop };
            };
            let in_lambda = uses.iter().any(|u| in_nested_scope(*u, body));
            let ok = if a.lambda {
                uses.len() == 1 && is_target_typed(uses[0])
            } else if a.simple && a.stable {
                // a lambda in the body captures the argument: it must be effectively final
                !in_lambda || !assigned_in(caller_member, &a.text, caller)
            } else if a.simple {
                !m.effect_before(last.start_byte())
            } else if a.stable {
                uses.len() == 1 && !in_lambda
            } else {
                uses.len() == 1
                    && !in_lambda
                    && !m.effect_before(uses[0].start_byte())
                    && (!a.effects || unconditional(uses[0], body))
            };
            if ok { ArgPlan::Substitute } else { ArgPlan::Temp }
        })
        .collect();
    // Java evaluates arguments left to right. A temporary runs before the body, so every
    // unstable argument before an effectful temporary must be a temporary too; substituted
    // unstable arguments must be used in argument order.
    loop {
        let mut changed = false;
        if let Some(j) = (0..args.len()).rev().find(|&j| plan[j] == ArgPlan::Temp && args[j].effects) {
            for i in 0..j {
                if plan[i] == ArgPlan::Substitute && !args[i].stable {
                    plan[i] = ArgPlan::Temp;
                    changed = true;
                }
            }
        }
        let subs: Vec<(usize, usize)> = (0..args.len())
            .filter(|&i| plan[i] == ArgPlan::Substitute && !args[i].stable)
            .filter_map(|i| m.uses[i].first().map(|u| (i, u.start_byte())))
            .collect();
        for w in subs.windows(2) {
            if w[0].1 > w[1].1 {
                plan[w[0].0] = ArgPlan::Temp;
                changed = true;
                break;
            }
        }
        if !changed {
            return plan;
        }
    }
}

/// Is the local `name` assigned after its declaration anywhere in `member`?
fn assigned_in(member: Node<'_>, name: &str, file: &SourceFile) -> bool {
    descendants(member).into_iter().any(|n| match n.kind() {
        "assignment_expression" => n.child_by_field_name("left").is_some_and(|l| file.text_of(l) == name),
        "update_expression" => n.named_child(0).is_some_and(|l| file.text_of(l) == name),
        _ => false,
    })
}

/// The range to delete for a statement alone on its line(s): the line break before it too.
fn statement_deletion(text: &str, node: Node<'_>) -> Range<usize> {
    let (s, e) = (node.start_byte(), node.end_byte());
    let line_start = text[..s].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let alone_before = text[line_start..s].trim().is_empty();
    let rest = &text[e..];
    let line_end = rest.find('\n').map(|i| e + i).unwrap_or(text.len());
    let alone_after = text[e..line_end].trim().is_empty();
    if alone_before && alone_after && line_start > 0 { (line_start - 1)..e } else { s..e }
}

/// Renders `range` of `text` with the edits that fall inside it.
fn render(text: &str, range: Range<usize>, edits: &[Edit]) -> String {
    // Edits inside a replaced or deleted range (a deleted `return v;`, a declaration prefix
    // taken from the caller) go with it.
    let covering: Vec<&Edit> = edits.iter().filter(|d| d.start < d.end).collect();
    let swallowed = |e: &Edit| {
        covering.iter().any(|d| {
            !std::ptr::eq(*d, e)
                && d.start <= e.start
                && e.end <= d.end
                && e.start < d.end
                && (d.start, d.end) != (e.start, e.end)
        })
    };
    // A deletion may reach back over the line break before the region's first statement.
    let inside: Vec<Edit> = edits
        .iter()
        .filter(|e| !swallowed(e))
        .filter(|e| e.end <= range.end && (e.start >= range.start || (e.end > range.start && e.replacement.is_empty())))
        .map(|e| Edit {
            start: e.start.max(range.start) - range.start,
            end: e.end - range.start,
            replacement: e.replacement.clone(),
        })
        .collect();
    // Edits are built from disjoint tree nodes, so they cannot overlap.
    edit::apply("inlined body", &text[range], &inside).unwrap_or_else(|e| unreachable!("disjoint edits: {e}"))
}

fn inline_site(
    files: &[SourceFile],
    m: &Method<'_>,
    site: &CallSite<'_>,
    introduced: &mut HashMap<(usize, usize), HashSet<String>>,
) -> Result<Vec<Edit>, Refusal> {
    let caller = &files[site.file];
    let ctext = caller.text.as_str();
    let btext = m.file.text.as_str();
    let inv = site.node;
    let line = site.line;
    let name = &m.target.name;
    let refuse = |reason: Reason, why: String| Err(Refusal::new(reason, format!("`{name}` at line {line}: {why}")));
    let SiteKind::Call { receiver } = site.kind else {
        return refuse(Reason::MethodReference, "a method reference cannot be inlined".into());
    };
    let member = outermost_member(inv);
    let key = (site.file, member.id());
    let intro = introduced.entry(key).or_default();
    let mut caller_declared = declared_names(member, ctext);
    caller_declared.extend(intro.iter().cloned());
    let mut caller_names: HashSet<String> =
        variable_names(member).iter().map(|n| caller.text_of(*n).to_string()).collect();
    caller_names.extend(intro.iter().cloned());
    let form = Form::of(inv, ctext);
    if m.single_return.is_none() && form.stmt().is_none() {
        return refuse(
            Reason::NotStatementPosition,
            "the body has several statements, so the call must be a whole statement (`m(..);`, `x = m(..);`, `T x = m(..);` or `return m(..);`) in a block".into(),
        );
    }

    // --- receiver: what implicit `this` becomes at this site
    let same_top = site.file == m.target.file && top_level_type(inv) == top_level_type(m.target.node);
    let directly =
        site.file == m.target.file && enclosing_type_body(inv).is_some_and(|b| b.id() == m.target.type_body.id());
    let tname = &m.target.type_name;
    let q = match receiver {
        Receiver::Implicit if directly => Qualify::default(),
        Receiver::Implicit => Qualify {
            this_text: Some(format!("{tname}.this")),
            instance: (!m.target.is_static).then(|| format!("{tname}.this")),
            statics: Some(tname.clone()),
        },
        Receiver::TypeName => Qualify { statics: (!directly).then(|| tname.clone()), ..Qualify::default() },
        Receiver::Expr(r) => {
            let r = caller.text_of(r).to_string();
            Qualify { this_text: Some(r.clone()), instance: Some(r), statics: (!directly).then(|| tname.clone()) }
        }
        Receiver::Unknown => return refuse(Reason::UnresolvedMember, "the receiver's type is unknown".into()),
    };
    let qualifying = q.instance.is_some() || q.statics.is_some();
    if qualifying && m.has_inner_class {
        return refuse(
            Reason::InnerClassInBody,
            "the body declares a class whose members cannot be told from the declaring type's at this call site".into(),
        );
    }
    let same_package = {
        let cpkg = caller
            .root()
            .named_children(&mut caller.root().walk())
            .find(|n| n.kind() == "package_declaration")
            .map(|p| caller.text_of(p).trim_start_matches("package").trim_end_matches(';').trim().to_string())
            .unwrap_or_default();
        cpkg == m.package
    };
    let accessible = |acc: &Access| same_top || (!acc.is_private && (same_package || acc.is_public));

    let mut edits: Vec<Edit> = Vec::new();
    // --- arguments
    let arg_nodes = call_sites::arguments(inv);
    let args: Vec<ArgInfo<'_>> = arg_nodes.iter().map(|a| classify_arg(*a, caller)).collect();
    let plan = plan_arguments(m, &args, member, caller);
    let body_names: HashSet<String> = m.names.iter().map(|n| m.file.text_of(*n).to_string()).collect();
    let mut temps: Vec<String> = Vec::new();
    let mut taken: HashSet<String> = caller_names.clone();
    for a in &args {
        taken.extend(variable_names(a.node).iter().map(|n| caller.text_of(*n).to_string()));
    }
    let mut param_text: Vec<Option<String>> = Vec::new();
    for (i, p) in m.params.iter().enumerate() {
        match plan[i] {
            ArgPlan::Temp => {
                if m.type_params.iter().any(|tp| has_word(&p.type_text, tp)) {
                    return refuse(
                        Reason::GenericMethod,
                        format!(
                            "argument `{}` needs a temporary of type `{}`, a type parameter of the method",
                            args[i].text, p.type_text
                        ),
                    );
                }
                let tmp =
                    if taken.contains(&p.name) { fresh_name(&p.name, &taken, &body_names) } else { p.name.clone() };
                taken.insert(tmp.clone());
                temps.push(format!("{} {tmp} = {};", p.type_text, args[i].text));
                param_text.push(Some(tmp));
            }
            ArgPlan::Substitute => param_text.push(None),
            ArgPlan::Drop => param_text.push(Some(String::new())),
        }
    }
    if !temps.is_empty() && form.stmt().is_none() {
        return refuse(
            Reason::NeedsTemporary,
            "an argument must be evaluated once into a temporary (side effects, repeated use or a reassigned parameter), but the call is inside a larger expression; assign the call to a local first".into(),
        );
    }
    for (i, uses) in m.uses.iter().enumerate() {
        for u in uses {
            let replacement = match &param_text[i] {
                Some(t) => t.clone(),
                None => fit(*u, btext, &args[i].text, precedence(args[i].node, ctext)),
            };
            edits.push(Edit::replace(u.byte_range(), replacement));
        }
    }

    // --- `var x = m(..)`: x had the method's return type; spell it, since the inlined
    // expression's own type may differ (`new ArrayList<>()` for a `List<String>` method).
    let var_type = match form {
        Form::Declare { stmt, .. } => stmt.child_by_field_name("type").filter(|t| caller.text_of(*t) == "var"),
        _ => None,
    };
    let return_type =
        m.target.node.child_by_field_name("type").map(|t| m.file.text_of(t).to_string()).unwrap_or_default();
    if var_type.is_some() && m.type_params.iter().any(|tp| has_word(&return_type, tp)) {
        return refuse(
            Reason::GenericMethod,
            format!("`var` would need the return type `{return_type}`, which uses a type parameter of the method"),
        );
    }
    let declared_type =
        |t: Node<'_>| if var_type.is_some() { return_type.clone() } else { caller.text_of(t).to_string() };
    let decl_prefix = |upto: usize| -> String {
        let Form::Declare { stmt, .. } = form else { return String::new() };
        match var_type {
            Some(v) => {
                format!("{}{}{}", &ctext[stmt.start_byte()..v.start_byte()], return_type, &ctext[v.end_byte()..upto])
            }
            None => ctext[stmt.start_byte()..upto].to_string(),
        }
    };

    // --- merge `T v = init; return v;` into the caller's `T x = ...`
    let mut renames: HashMap<String, String> = HashMap::new();
    let mut merged: Option<(Node<'_>, Node<'_>)> = None; // (declaration of v, final return)
    if let Form::Declare { stmt, name: xname, .. } = form
        && m.single_return.is_none()
        && let Some((vdecl, ret)) =
            mergeable_return(m, &declared_type(stmt.child_by_field_name("type").unwrap_or(stmt)), ctext)
    {
        let v = m.file.text_of(ret.named_child(0).unwrap_or(ret)).to_string();
        let x = caller.text_of(xname).to_string();
        renames.insert(v, x);
        merged = Some((vdecl, ret));
    }
    // --- rename body locals that would clash at the call site
    let mut scoped = names_in_scope(member, inv, ctext);
    scoped.extend(intro.iter().cloned());
    scoped.extend(taken.difference(&caller_names).cloned());
    let mut locals: Vec<&String> = m.locals.iter().collect();
    locals.sort();
    let mut new_names: HashSet<String> = HashSet::new();
    for l in locals {
        if renames.contains_key(l) {
            continue;
        }
        // A local of a nested scope (a loop variable, say) only meets the names in scope at
        // the call and those the inlining brings in; a top-level one lives to the end of the
        // caller's block, where any later use of the name could be captured.
        let clashes = if m.top_level_locals.contains(l) { taken.contains(l) } else { scoped.contains(l) };
        if clashes || new_names.contains(l) {
            let mut avoid = body_names.clone();
            avoid.extend(new_names.iter().cloned());
            let fresh = fresh_name(l, &taken, &avoid);
            new_names.insert(fresh.clone());
            renames.insert(l.clone(), fresh);
        } else {
            new_names.insert(l.clone());
        }
    }
    for n in &m.names {
        let t = m.file.text_of(*n);
        if m.locals.contains(t)
            && let Some(r) = renames.get(t)
        {
            edits.push(Edit::replace(n.byte_range(), r.clone()));
        }
    }

    // --- implicit `this`, qualified members, captured names
    for t in &m.this_nodes {
        if let Some(r) = &q.this_text {
            edits.push(Edit::replace(t.byte_range(), r.clone()));
        }
    }
    for n in &m.free_names {
        let t = m.file.text_of(*n);
        if m.static_imports.contains(t) {
            continue;
        }
        let field = m.fields.get(t);
        // A field the call site cannot read is read through its getter, when one is sure to return it.
        let getter = match field {
            Some(acc) if !accessible(acc) => {
                match m.getters.get(t).filter(|g| !g.overridable && accessible(&g.access) && is_read(*n)) {
                    Some(g) => Some(g.name.as_str()),
                    None => {
                        return refuse(
                            Reason::InaccessibleMember,
                            format!("the body uses field `{t}` of {tname}, which is not accessible at the call site"),
                        );
                    }
                }
            }
            _ => None,
        };
        let prefix = match field {
            Some(acc) if acc.is_static => q.statics.clone(),
            Some(_) => q.instance.clone(),
            None if t.starts_with(|c: char| c.is_lowercase()) && q.instance.is_some() => q.instance.clone(),
            None if t.starts_with(|c: char| c.is_lowercase()) && q.statics.is_some() => {
                return refuse(
                    Reason::UnresolvedMember,
                    format!(
                        "the body uses `{t}`, which {tname} does not declare; it cannot be qualified for the call site"
                    ),
                );
            }
            None => None,
        };
        let prefix = match prefix {
            Some(p) => Some(p),
            None if caller_declared.contains(t) => match field {
                Some(acc) if acc.is_static => Some(tname.clone()),
                Some(_) => Some("this".to_string()),
                None => {
                    return refuse(
                        Reason::NameCapture,
                        format!("the body's `{t}` would refer to the caller's local `{t}`; rename that local first"),
                    );
                }
            },
            None => None,
        };
        let prefix = prefix.map(|p| format!("{p}.")).unwrap_or_default();
        match getter {
            Some(g) => edits.push(Edit::replace(n.byte_range(), format!("{prefix}{g}()"))),
            None if !prefix.is_empty() => edits.push(Edit::insert(n.start_byte(), prefix)),
            None => {}
        }
    }
    for c in &m.implicit_calls {
        let Some(id) = c.child_by_field_name("name") else { continue };
        let t = m.file.text_of(id);
        if m.static_imports.contains(t) {
            continue;
        }
        let method = m.methods.get(t);
        if let Some(acc) = method
            && !accessible(acc)
        {
            return refuse(
                Reason::InaccessibleMember,
                format!("the body calls `{t}` of {tname}, which is not accessible at the call site"),
            );
        }
        let prefix = match method {
            Some(acc) if acc.is_static => q.statics.clone(),
            _ => q.instance.clone().or_else(|| q.statics.clone()),
        };
        if let Some(p) = prefix {
            edits.push(Edit::insert(c.start_byte(), format!("{p}.")));
        }
    }

    let call_indent = line_indent(ctext, form.stmt().unwrap_or(inv).start_byte()).to_string();
    // --- a single returned expression replaces the call
    if let Some(expr) = m.single_return
        && !matches!(form, Form::Expr { .. })
    {
        let mut text = render(btext, expr.byte_range(), &edits);
        text = reindent(&text, line_indent(btext, expr.start_byte()), &call_indent);
        let prec = match m.params.iter().position(|p| expr.kind() == "identifier" && m.file.text_of(expr) == p.name) {
            Some(i) if param_text[i].is_none() => precedence(args[i].node, ctext),
            _ => precedence(expr, btext),
        };
        let mut out = Vec::new();
        if let Some(stmt) = form.stmt()
            && !temps.is_empty()
        {
            out.push(Edit::insert(
                stmt.start_byte(),
                temps.iter().map(|t| format!("{t}\n{call_indent}")).collect::<String>(),
            ));
        }
        if let Some(v) = var_type {
            out.push(Edit::replace(v.byte_range(), return_type.clone()));
        }
        out.push(Edit::replace(inv.byte_range(), fit(inv, ctext, &text, prec)));
        intro.extend(temps_names(&temps));
        return Ok(out);
    }

    // --- statement-level inlining
    let Some(stmt) = form.stmt() else {
        return refuse(
            Reason::NotStatementPosition,
            "the body has several statements, so the call must be a whole statement (`m(..);`, `x = m(..);`, `T x = m(..);` or `return m(..);`)".into(),
        );
    };
    if !matches!(form, Form::Return { .. })
        && let Some(r) = m.returns.iter().find(|r| !m.tail_returns.contains(&r.id()))
    {
        return refuse(
            Reason::EarlyReturn,
            format!(
                "the body returns early (line {}); only `return m(..);` call sites can take such a body",
                r.start_position().row + 1
            ),
        );
    }
    let mut pre: Vec<String> = temps.clone();
    for r in &m.returns {
        let value = r.named_children(&mut r.walk()).find(|c| !c.is_extra());
        match (form, value) {
            (Form::Return { .. }, _) => {}
            (_, None) => edits.push(Edit::delete(statement_deletion(btext, *r))),
            (Form::Expr { .. }, Some(v)) => {
                if is_statement_expression(v.kind()) {
                    edits.push(Edit::delete(r.start_byte()..v.start_byte()));
                } else if has_effects(v) {
                    return refuse(Reason::DiscardedResult, "the call discards a returned expression that has side effects but is not a statement; assign the call to a local first".into());
                } else {
                    edits.push(Edit::delete(statement_deletion(btext, *r)));
                }
            }
            (Form::Assign { stmt, right }, Some(v)) => {
                edits
                    .push(Edit::replace(r.start_byte()..v.start_byte(), &ctext[stmt.start_byte()..right.start_byte()]));
            }
            (Form::Declare { name, value, .. }, Some(v)) => {
                if merged.is_some_and(|(_, ret)| ret.id() == r.id()) {
                    edits.push(Edit::delete(statement_deletion(btext, *r)));
                } else if m.tail_returns.len() == 1 {
                    edits.push(Edit::replace(r.start_byte()..v.start_byte(), decl_prefix(value.start_byte())));
                } else {
                    edits.push(Edit::replace(r.start_byte()..v.start_byte(), format!("{} = ", caller.text_of(name))));
                }
            }
            (Form::Nested, _) => unreachable!("statement forms only"),
        }
    }
    if let Form::Declare { name, .. } = form {
        if let Some((vdecl, _)) = merged {
            // `U v = init;` takes the caller's modifiers and type: `final T x = init;`
            if let Some(d) = vdecl.child_by_field_name("declarator") {
                edits.push(Edit::replace(vdecl.start_byte()..d.start_byte(), decl_prefix(name.start_byte())));
            }
        } else if m.tail_returns.len() > 1 {
            pre.push(format!("{};", decl_prefix(name.end_byte())));
        }
        if m.tail_returns.is_empty() {
            return refuse(Reason::EarlyReturn, "the body never returns a value at its end".into());
        }
    }
    let children: Vec<Node<'_>> = m.body.named_children(&mut m.body.walk()).collect();
    let body_text = match (children.first(), children.last()) {
        (Some(first), Some(last)) => {
            let t = render(btext, first.start_byte()..last.end_byte(), &edits);
            reindent(&t, line_indent(btext, first.start_byte()), &call_indent)
        }
        _ => String::new(),
    };
    let mut parts = pre;
    if !body_text.trim().is_empty() {
        parts.push(body_text.trim_start().to_string());
    }
    intro.extend(temps_names(&temps));
    intro.extend(new_names);
    intro.extend(renames.values().cloned());
    if parts.is_empty() {
        return Ok(vec![Edit::delete(statement_deletion(ctext, stmt))]);
    }
    Ok(vec![Edit::replace(stmt.byte_range(), parts.join(&format!("\n{call_indent}")))])
}

fn temps_names(temps: &[String]) -> Vec<String> {
    temps.iter().filter_map(|t| t.split(" = ").next()?.rsplit(' ').next().map(str::to_string)).collect()
}

/// `U v = init; ... return v;` where `v` is declared once at the top of the body with the
/// caller's type and never reassigned: the caller's variable can take `v`'s place.
fn mergeable_return<'t>(m: &Method<'t>, caller_type: &str, _ctext: &str) -> Option<(Node<'t>, Node<'t>)> {
    let ret = *m.statements.last()?;
    if ret.kind() != "return_statement" || m.tail_returns.len() != 1 || m.returns.len() != 1 {
        return None;
    }
    let v = ret.named_child(0)?;
    if v.kind() != "identifier" {
        return None;
    }
    let vname = m.file.text_of(v);
    let vdecl = m.statements.iter().copied().find(|s| {
        s.kind() == "local_variable_declaration"
            && s.children_by_field_name("declarator", &mut s.walk()).count() == 1
            && s.child_by_field_name("declarator")
                .and_then(|d| d.child_by_field_name("name"))
                .is_some_and(|n| m.file.text_of(n) == vname)
    })?;
    let same_type = vdecl.child_by_field_name("type").is_some_and(|t| {
        let norm = |s: &str| s.split_whitespace().collect::<String>();
        norm(m.file.text_of(t)) == norm(caller_type)
    });
    let declared_once =
        m.names.iter().filter(|n| is_declaration_name(**n) && m.file.text_of(**n) == vname).count() == 1;
    let reassigned = descendants(m.body).into_iter().any(|n| match n.kind() {
        "assignment_expression" => n.child_by_field_name("left").is_some_and(|l| m.file.text_of(l) == vname),
        "update_expression" => n.named_child(0).is_some_and(|l| m.file.text_of(l) == vname),
        _ => false,
    });
    (same_type && declared_once && !reassigned && !m.params.iter().any(|p| p.name == vname)).then_some((vdecl, ret))
}

/// The declaration with its Javadoc and comments, whole lines, and one adjacent blank line.
fn declaration_range(file: &SourceFile, decl: Node<'_>) -> Range<usize> {
    let text = file.text.as_str();
    let mut start = decl.start_byte();
    let mut prev = decl.prev_sibling();
    while let Some(p) = prev {
        let between = &text[p.end_byte()..start];
        if p.is_extra() && between.trim().is_empty() && between.matches('\n').count() <= 1 {
            start = p.start_byte();
            prev = p.prev_sibling();
        } else {
            break;
        }
    }
    let line_start = text[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
    if text[line_start..start].trim().is_empty() {
        start = line_start;
    }
    let mut end = decl.end_byte();
    let after = &text[end..];
    if let Some(nl) = after.find('\n')
        && after[..nl].trim().is_empty()
    {
        end += nl + 1;
    }
    // one blank line: the one before, else the one after
    let before = &text[..start];
    if let Some(head) = before.strip_suffix('\n') {
        let prev_line_start = head.rfind('\n').map(|i| i + 1).unwrap_or(0);
        if before[prev_line_start..].trim().is_empty() && prev_line_start < start {
            return prev_line_start..end;
        }
    }
    let rest = &text[end..];
    if let Some(nl) = rest.find('\n')
        && rest[..nl].trim().is_empty()
    {
        end += nl + 1;
    }
    start..end
}

#[cfg(test)]
#[path = "inline_tests.rs"]
mod tests;
