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
//!
//! Files: `callee` (the inlined method's analysis), `sites` (which calls, in which form),
//! `arguments` (how arguments reach the body), `site` (inlining at one call, step by step),
//! `splice` (rendering and removing text).

mod arguments;
mod callee;
mod site;
mod sites;
mod splice;

use std::collections::HashSet;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use tree_sitter::Node;

use super::call_sites::{self, CallSite, Doubt};
use super::edit::{ChangeSet, Edit};
use super::variable_names::descendants;
use super::{Reason, Refusal};
use crate::java::SourceFile;
use crate::java::project::{FileId, MethodId, Project};
use callee::Method;
use site::inline_site;
use sites::choose_sites;
use splice::declaration_range;

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
    // Inlined everywhere, the declaration goes, and JUnit would no longer find the factory it
    // calls by name.
    if spec.at.is_none() {
        let users = project.method_source_users(method);
        if let Some(&test) = users.first() {
            return Err(Refusal::new(
                Reason::NamedByAnnotation,
                format!(
                    "`{}` is named by the @MethodSource of {}: JUnit calls it by name to get that test's arguments, so removing it breaks the test. Inline one call (`--at FILE:LINE`) and keep the method, or point the @MethodSource elsewhere first",
                    decl.name,
                    crate::engine::refusal::tests_naming(&project.method(test).name, users.len())
                ),
            ));
        }
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
/// test sources included, where Java lets them call it, with their project ids.
fn files_mentioning(project: &Project, method: MethodId) -> Result<(Vec<SourceFile>, Vec<FileId>), Refusal> {
    let own = method.file();
    let mut ids = project.files_that_may_call(method, &project.method(method).name);
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
    let mut introduced = site::Introduced::new();
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

#[cfg(test)]
mod tests;
