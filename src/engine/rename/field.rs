//! Rename of a field or enum constant: its declarator and every access, by simple name in its
//! class, subclasses and nested classes, qualified (`this.x`, `other.x`, `Type.X`, `a.b.x`) in
//! any file, single static imports, and Javadoc references (`{@link #x}`, `@see Type#X`).
//!
//! A simple-name access that a local variable or parameter of the new name would capture is
//! qualified (`this.count = count` stays an assignment to the field). Refused: a field of the
//! new name in the class's hierarchy; a record component (its accessor is the record's API);
//! an access whose receiver cannot be typed without a type checker (`make().x`, a `var`).

use std::collections::BTreeMap;

use super::resolve::{Referent, Scopes, Use, field_in, identifiers, use_of};
use super::scan::list;
use super::variable::qualifier_for;
use super::{check_identifier, syntax_refusal};
use crate::engine::{ChangeSet, Edit, Reason, Refusal};
use crate::java::project::{FileId, Project, TypeId};
use crate::java::symbols::FieldKind;

/// Renames field `index` of `owner` to `new`, or refuses.
pub fn rename_field(project: &Project, owner: TypeId, index: usize, new: &str) -> Result<ChangeSet, Refusal> {
    let decl = project.type_decl(owner);
    let field = &decl.fields[index];
    let old = field.name.clone();
    check_identifier(&old, new, "field")?;
    if field.kind == FieldKind::RecordComponent {
        return Err(Refusal::new(
            Reason::RecordAccessor,
            format!(
                "`{old}` is a component of record {}; renaming it renames its accessor too, which mantra does not do yet",
                decl.display
            ),
        ));
    }
    let hierarchy: Vec<TypeId> =
        std::iter::once(owner).chain(project.supertypes(owner)).chain(project.subtypes(owner)).collect();
    if let Some(t) = hierarchy.iter().find(|&&t| project.type_decl(t).fields.iter().any(|f| f.name == new)) {
        return Err(Refusal::new(
            Reason::NameClash,
            format!("{} already has a field named `{new}`; choose another name", project.type_decl(*t).display),
        ));
    }
    let private = field.modifiers.iter().any(|m| m == "private");
    let top = project.top_level_of(owner);
    let mut edits: BTreeMap<FileId, Vec<Edit>> = BTreeMap::new();
    let mut doubts = Vec::new();
    for f in project.files_containing(&old) {
        if private && f != owner.file() {
            continue;
        }
        let Some(scopes) = Scopes::of(project, f) else { continue };
        let source = scopes.source;
        let found = identifiers(source, source.root(), &old);
        for (range, ty) in doc_members(&scopes, &old) {
            if field_in(project, ty, &old) == Some((owner, index)) && !has_method(project, ty, &old) {
                edits.entry(f).or_default().push(Edit::replace(range, new));
            }
        }
        if found.is_empty() {
            continue;
        }
        if let Some(err) = source.syntax_error() {
            return Err(syntax_refusal(source, err.line, &err.snippet));
        }
        for n in found {
            let at = n.start_byte();
            let ours = match use_of(n) {
                Use::Declaration => declares(&scopes, n, owner, index),
                Use::Bare => match scopes.bare(at, &old) {
                    Referent::None if field.kind == FieldKind::EnumConstant && is_case_label(n) => {
                        match case_of_enum(&scopes, n) {
                            Some(t) => t == owner,
                            None => {
                                let line = source.line_of(at);
                                doubts.push(format!(
                                    "{}:{line} `case {old}` (the switch's type is not known)",
                                    source.path.display()
                                ));
                                false
                            }
                        }
                    }
                    Referent::None => static_imported(&scopes, &old) == Some((owner, index)),
                    r => r == Referent::Field(owner, index),
                },
                Use::Member(object) => match scopes.type_of(object) {
                    Ok(Some(t)) => field_in(project, t, &old) == Some((owner, index)),
                    Ok(None) => false,
                    // A private field is not reachable from outside its top-level class (nor from a
                    // file without types, such as `package-info.java`).
                    Err(())
                        if private
                            && scopes.type_at(at).map(|t| project.top_level_of(scopes.types[t])) != Some(top) =>
                    {
                        false
                    }
                    Err(()) => {
                        let line = source.line_of(at);
                        let text = source.text_of(n.parent().unwrap_or(n));
                        doubts.push(format!("{}:{line} `{}`", source.path.display(), text.trim()));
                        false
                    }
                },
                Use::Other => static_import_of(&scopes, n, owner),
            };
            if !ours {
                continue;
            }
            let e = edits.entry(f).or_default();
            if matches!(use_of(n), Use::Bare) && !matches!(scopes.bare(at, new), Referent::None | Referent::Field(..)) {
                let q = qualifier_for(&scopes, at, owner, index).ok_or_else(|| {
                    Refusal::new(
                        Reason::NameCapture,
                        format!(
                            "at {}:{} a variable named `{new}` would capture the field's access; choose another name",
                            source.path.display(),
                            source.line_of(at)
                        ),
                    )
                })?;
                e.push(Edit::insert(at, q));
            }
            e.push(Edit::replace(n.byte_range(), new));
        }
    }
    if !doubts.is_empty() {
        return Err(Refusal::new(
            Reason::UnresolvedMember,
            format!(
                "cannot tell whether these accesses of `{old}` read {}.{old}: {}; give their receivers a declared type, or rename by hand",
                decl.display,
                list(&doubts)
            ),
        ));
    }
    let mut changes = ChangeSet::new();
    for (f, es) in edits {
        let text = &project.file(f).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?.source.text;
        for e in es {
            changes.edit(project.path(f), text, e);
        }
    }
    Ok(changes)
}

/// Whether the declared name `n` is the field itself (a declarator of the field's declaration, or
/// the enum constant).
fn declares(scopes: &Scopes<'_>, n: tree_sitter::Node<'_>, owner: TypeId, index: usize) -> bool {
    let Some(t) = scopes.type_at(n.start_byte()) else { return false };
    if scopes.types[t] != owner {
        return false;
    }
    let span = scopes.project.type_decl(owner).fields[index].span;
    match n.parent().map(|p| p.kind()) {
        Some("variable_declarator") => n.parent().and_then(|p| p.parent()).is_some_and(|d| {
            matches!(d.kind(), "field_declaration" | "constant_declaration") && d.start_byte() == span.start_byte
        }),
        Some("enum_constant") => span.contains(&crate::java::source::Span::of(n)),
        _ => false,
    }
}

/// Whether `n` is the last segment of `import static a.b.Owner.old;`.
fn static_import_of(scopes: &Scopes<'_>, n: tree_sitter::Node<'_>, owner: TypeId) -> bool {
    let Some(import) = ancestor(n, "import_declaration") else { return false };
    let text: String = scopes.source.text_of(import).chars().filter(|c| !c.is_whitespace()).collect();
    let Some(path) = text.strip_prefix("importstatic").and_then(|p| p.strip_suffix(';')) else { return false };
    let Some((ty, last)) = path.rsplit_once('.') else { return false };
    let last_segment = n.parent().is_some_and(|p| {
        p.kind() == "scoped_identifier" && p.child_by_field_name("name") == Some(n) && p.parent() == Some(import)
    });
    last_segment && last == scopes.source.text_of(n) && scopes.project.find_type(ty) == Some(owner)
}

/// The Javadoc references `#name` and `Type#name` of the file: the member's range and the type
/// it is looked up in (the type the comment is in or documents, or the one named).
fn doc_members(scopes: &Scopes<'_>, name: &str) -> Vec<(std::ops::Range<usize>, TypeId)> {
    let mut out = Vec::new();
    for r in super::javadoc::references(scopes.source) {
        let (ty, Some(member)) = r.split() else { continue };
        if member != name {
            continue;
        }
        let here = scopes.type_at(r.start).or_else(|| {
            // A class's own Javadoc comes before its declaration.
            scopes.syms.types.iter().position(|t| t.span.start_byte >= r.start)
        });
        let scope = here.map(|t| scopes.types[t].index());
        let resolved = if ty.is_empty() {
            here.map(|t| scopes.types[t])
        } else {
            scopes.project.resolve_type(scopes.file, scope, ty).or_else(|| scopes.project.find_type(ty))
        };
        if let Some(t) = resolved {
            let start = r.start + ty.len() + 1;
            out.push((start..start + name.len(), t));
        }
    }
    out
}

/// Whether `ty` (or a supertype) has a method named `name`: `#name` in Javadoc could mean it.
fn has_method(project: &Project, ty: TypeId, name: &str) -> bool {
    std::iter::once(ty)
        .chain(project.supertypes(ty))
        .any(|t| project.methods_of(t).iter().any(|&m| project.method(m).name == name))
}

/// Whether `n` is the constant of a `case` label.
fn is_case_label(n: tree_sitter::Node<'_>) -> bool {
    n.parent().is_some_and(|p| p.kind() == "switch_label")
}

/// The enum a `case` constant belongs to: the project type of the switch's selector.
fn case_of_enum(scopes: &Scopes<'_>, n: tree_sitter::Node<'_>) -> Option<TypeId> {
    let switch = ancestor(n, "switch_block")?.parent()?;
    let selector = switch.child_by_field_name("condition")?;
    scopes.type_of(selector).ok().flatten()
}

/// The field a simple name not declared in scope reaches through the file's static imports.
fn static_imported(scopes: &Scopes<'_>, name: &str) -> Option<(TypeId, usize)> {
    scopes.syms.imports.iter().filter(|i| i.is_static).find_map(|i| {
        let ty = if i.wildcard {
            i.path.as_str()
        } else {
            let (ty, last) = i.path.rsplit_once('.')?;
            if last != name {
                return None;
            }
            ty
        };
        field_in(scopes.project, scopes.project.find_type(ty)?, name)
    })
}

pub(super) fn ancestor<'t>(n: tree_sitter::Node<'t>, kind: &str) -> Option<tree_sitter::Node<'t>> {
    let mut cur = n.parent();
    while let Some(p) = cur {
        if p.kind() == kind {
            return Some(p);
        }
        cur = p.parent();
    }
    None
}
