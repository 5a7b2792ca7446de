//! Rename of a class, interface, enum, record or annotation type: its declaration, its
//! constructors, every reference to it as a type (`Old x`, `List<Old>`, `new Old()`, `Old.class`,
//! `Old[]`, `extends Old`, `Outer.Old`, `a.b.Old`, `@Old`), every static use (`Old.CONST`,
//! `Old.make()`, `Old::new`, `Old.this`), imports and static imports, Javadoc references
//! (`{@link Old}`, `@see a.b.Old#m`, `@throws Old`); and the file, when the
//! type is the top-level type it is named after (`Old.java` becomes `New.java`, a deletion and a
//! creation in the change set).
//!
//! Refused: another type of the new name in the same package or enclosing type; a file of the
//! new name; a `java.lang` type of the new name; a file where the new name already means another
//! type (imported or nested) at a reference that would be renamed. Out of reach of a static
//! model, and left as they are: names in strings, comments, configuration files and reflection.

use std::collections::BTreeMap;

use super::field::ancestor;
use super::javadoc;
use super::resolve::{Referent, Scopes, Use, use_of};
use super::{check_identifier, syntax_refusal};
use crate::engine::{ChangeSet, Edit, FileChange, Reason, Refusal};
use crate::java::project::{FileId, Project, TypeId};
use crate::java::syntax::walk;
use tree_sitter::Node;

/// `java.lang` types a class of the project must not be renamed to: every unqualified use of
/// them in its package would change meaning. (Code wiring reads them as types, not variables.)
pub(crate) const JAVA_LANG: &[&str] = &[
    "Boolean",
    "Byte",
    "Character",
    "Class",
    "Deprecated",
    "Double",
    "Enum",
    "Error",
    "Exception",
    "Float",
    "FunctionalInterface",
    "Integer",
    "Iterable",
    "Long",
    "Math",
    "Number",
    "Object",
    "Override",
    "Record",
    "Runnable",
    "RuntimeException",
    "Short",
    "String",
    "StringBuilder",
    "System",
    "Thread",
    "Throwable",
    "Void",
];

/// Renames the type `ty` to `new`, or refuses.
pub fn rename_class(project: &Project, ty: TypeId, new: &str) -> Result<ChangeSet, Refusal> {
    let mut changes = class_edits(project, ty, new)?;
    if let Some((from, to)) = file_rename(project, ty, new) {
        move_file(&mut changes, project, &from, to)?;
    }
    Ok(changes)
}

/// The file at `from` moved to `to` with the text `changes` gives it: a deletion and a creation.
pub fn move_file(
    changes: &mut ChangeSet,
    project: &Project,
    from: &std::path::Path,
    to: std::path::PathBuf,
) -> Result<(), Refusal> {
    let original = match project.file_id(from).map(|f| project.file(f)) {
        Some(Ok(f)) => f.source.text.clone(),
        _ => return Err(Refusal::new(Reason::UnreadableFile, format!("cannot read {}", from.display()))),
    };
    let text = changes
        .render_file(from)
        .map_err(|e| Refusal::new(Reason::OverlappingEdits, e.to_string()))?
        .unwrap_or_else(|| original.clone());
    changes.files.insert(from.to_path_buf(), FileChange::Delete { original });
    changes.files.insert(to, FileChange::Create { text });
    Ok(())
}

/// The edits of a class rename, the file left where it is (see [`file_rename`]).
pub fn class_edits(project: &Project, ty: TypeId, new: &str) -> Result<ChangeSet, Refusal> {
    let decl = project.type_decl(ty);
    let old = decl.name.clone();
    if decl.is_anonymous() {
        return Err(Refusal::new(Reason::AnonymousClass, "an anonymous class has no name to rename"));
    }
    check_identifier(&old, new, "type")?;
    check_clash(project, ty, new)?;
    let mut edits: BTreeMap<FileId, Vec<std::ops::Range<usize>>> = BTreeMap::new();
    for f in project.files_containing(&old) {
        let Some(scopes) = Scopes::of(project, f) else { continue };
        let source = scopes.source;
        let mut found = Vec::new();
        walk(source.root(), &mut |n| {
            if matches!(n.kind(), "identifier" | "type_identifier") && source.text_of(n) == old {
                found.push(n);
            }
            true
        });
        let docs: Vec<_> = javadoc::references(source)
            .into_iter()
            .filter_map(|r| javadoc::type_segment(&r, &old).map(|seg| (r.start, seg)))
            .collect();
        if found.is_empty() && docs.is_empty() {
            continue;
        }
        if let Some(err) = source.syntax_error() {
            return Err(syntax_refusal(source, err.line, &err.snippet));
        }
        for (at, (range, prefix)) in docs {
            let scope = scopes.type_at(at).map(|t| scopes.types[t].index());
            if project.resolve_type(f, scope, &prefix) == Some(ty) || project.find_type(&prefix) == Some(ty) {
                edits.entry(f).or_default().push(range);
            }
        }
        for n in found {
            if refers_to(&scopes, n, ty, &old) {
                if let Some(other) = captured(&scopes, n, ty, new) {
                    return Err(Refusal::new(
                        Reason::TypeNameClash,
                        format!(
                            "at {}:{} `{new}` already means {other}; the renamed reference would mean it too: choose another name",
                            source.path.display(),
                            source.line_of(n.start_byte())
                        ),
                    ));
                }
                edits.entry(f).or_default().push(n.byte_range());
            }
        }
    }
    let mut changes = ChangeSet::new();
    for (f, ranges) in &edits {
        let text = &project.file(*f).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?.source.text;
        for r in ranges {
            changes.edit(project.path(*f), text, Edit::replace(r.clone(), new));
        }
    }
    Ok(changes)
}

/// (old path, new path) when the type is the top-level type its file is named after.
pub fn file_rename(project: &Project, ty: TypeId, new: &str) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    let decl = project.type_decl(ty);
    let path = project.path(ty.file());
    (decl.parent.is_none() && path.file_stem().is_some_and(|s| s == decl.name.as_str()))
        .then(|| (path.to_path_buf(), path.with_file_name(format!("{new}.java"))))
}

fn check_clash(project: &Project, ty: TypeId, new: &str) -> Result<(), Refusal> {
    let decl = project.type_decl(ty);
    let clash = |what: String| Err(Refusal::new(Reason::TypeNameClash, format!("{what}; choose another name")));
    if JAVA_LANG.contains(&new) {
        return clash(format!("`{new}` is a java.lang type, which every file of the package sees"));
    }
    let mut outer = project.enclosing_type(ty);
    match outer {
        None => {
            let package = project.package_of(ty);
            let qualified = if package.is_empty() { new.to_string() } else { format!("{package}.{new}") };
            if let Some(t) = project.find_type(&qualified) {
                return clash(format!(
                    "{} already declares a type named {qualified}",
                    project.path(t.file()).display()
                ));
            }
        }
        Some(o) => {
            let syms = project.symbols_of(o);
            if project.type_decl(o).nested.iter().any(|&n| syms.types[n as usize].name == new) {
                return clash(format!("{} already has a member type named `{new}`", project.type_decl(o).display));
            }
        }
    }
    while let Some(o) = outer {
        if project.type_decl(o).name == new {
            return clash(format!("`{new}` is the name of the enclosing type {}", project.type_decl(o).display));
        }
        outer = project.enclosing_type(o);
    }
    if decl.type_params.iter().any(|p| p == new) {
        return clash(format!("`{new}` is a type parameter of {}", decl.display));
    }
    if let Some((_, to)) = file_rename(project, ty, new)
        && (project.file_id(&to).is_some() || project.root().join(&to).exists())
    {
        return clash(format!("{} exists already", to.display()));
    }
    Ok(())
}

/// Whether the token `n` (named like the type) names it.
fn refers_to(scopes: &Scopes<'_>, n: Node<'_>, ty: TypeId, old: &str) -> bool {
    let project = scopes.project;
    let at = n.start_byte();
    let scope = scopes.type_at(at).map(|t| scopes.types[t].index());
    let resolves = |name: &str| {
        project.resolve_type(scopes.file, scope, name) == Some(ty)
            || (name.contains('.') && project.find_type(name) == Some(ty))
    };
    let parent_kind = n.parent().map(|p| p.kind()).unwrap_or("");
    if n.kind() == "type_identifier" {
        return resolves(&prefix(scopes, n, "scoped_type_identifier"));
    }
    match parent_kind {
        "class_declaration"
        | "interface_declaration"
        | "enum_declaration"
        | "record_declaration"
        | "annotation_type_declaration" => {
            return scopes.type_at(at).is_some_and(|t| scopes.types[t] == ty);
        }
        "constructor_declaration" | "compact_constructor_declaration" => {
            return scopes.type_at(at).is_some_and(|t| scopes.types[t] == ty);
        }
        "marker_annotation" | "annotation" => return resolves(old),
        "scoped_identifier" => {
            if ancestor(n, "package_declaration").is_some() {
                return false;
            }
            let dotted = prefix(scopes, n, "scoped_identifier");
            return project.find_type(&dotted) == Some(ty) || resolves(&dotted);
        }
        _ => {}
    }
    match use_of(n) {
        Use::Bare => matches!(scopes.bare(at, old), Referent::None) && resolves(old),
        Use::Member(object) => {
            let dotted = format!("{}.{old}", crate::text::compact(scopes.source.text_of(object)));
            dotted.split('.').all(crate::java::syntax::is_java_identifier) && resolves(&dotted)
        }
        _ => false,
    }
}

/// The dotted name from the start of the outermost `kind` node holding `n` to the end of `n`.
fn prefix(scopes: &Scopes<'_>, n: Node<'_>, kind: &str) -> String {
    let mut top = n;
    while let Some(p) = top.parent().filter(|p| p.kind() == kind) {
        top = p;
    }
    crate::text::compact(&scopes.source.text[top.start_byte()..n.end_byte()])
}

/// Another type `new` already means at `n`: an import of that simple name, a member or nested
/// type of that name, a type of that name in the file's package.
fn captured(scopes: &Scopes<'_>, n: Node<'_>, ty: TypeId, new: &str) -> Option<String> {
    let project = scopes.project;
    if let Some(import) =
        scopes.syms.imports.iter().find(|i| !i.is_static && !i.wildcard && i.path.rsplit('.').next() == Some(new))
    {
        return Some(format!("the imported {}", import.path));
    }
    let scope = scopes.type_at(n.start_byte()).map(|t| scopes.types[t].index());
    match project.resolve_type(scopes.file, scope, new) {
        Some(t) if t != ty => Some(project.qualified_name(t)),
        _ => None,
    }
}
