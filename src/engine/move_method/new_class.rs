//! A move to a class that does not exist yet: `class:a.b.NewClass` creates an empty top-level class
//! in an existing package of the project, `class:a.b.Outer.Inner` an empty static member class of
//! an existing `Outer`; then the method moves into it as into any class.

use std::path::{Path, PathBuf};

use super::text::{insertion, member_indent};
use super::{MoveSpec, Moved, Vis, refuse};
use crate::engine::edit::{apply, minimal_edit};
use crate::engine::{FileChange, Reason, Refusal};
use crate::java::project::{MethodId, Project, TypeId};
use crate::java::symbols::TypeKind;

/// Moves `method` into the new top-level class `fqn`, created in the source file's source root.
pub(super) fn plan(project: &Project, method: MethodId, spec: &MoveSpec, fqn: &str) -> Result<Moved, Refusal> {
    let (package, name) = fqn.rsplit_once('.').unwrap_or(("", fqn));
    let missing = |why: String| {
        refuse(
            Reason::DestinationNotInProject,
            format!("`{fqn}` is not a class of this project, and mantra cannot create it: {why}"),
        )
    };
    if !is_identifier(name) || !package.split('.').all(|p| package.is_empty() || is_identifier(p)) {
        return Err(missing("that is not a Java class name (give it fully qualified, e.g. `com.acme.Util`)".into()));
    }
    // `a.b.Outer.Inner` with `a.b.Outer` in the project: a static member class of `Outer`.
    if let Some(outer) = project.find_type(package) {
        return nested(project, method, spec, outer, name);
    }
    if !project.has_package(package) {
        return Err(missing(format!(
            "no file of the project is in package `{package}` (check the spelling, or create the class first)"
        )));
    }
    let source = project.method_source(method);
    let decl = project.method(method);
    let source_package = project.package_of(project.owner(method));
    let root = source_root(&source.path, source_package)
        .ok_or_else(|| missing(format!("{} is not in its package's folder", source.path.display())))?;
    let path =
        package.split('.').filter(|p| !p.is_empty()).fold(root, |p, seg| p.join(seg)).join(format!("{name}.java"));
    if project.root().join(&path).exists() {
        return Err(missing(format!("{} exists but does not declare it", path.display())));
    }
    let nl = if source.text.contains("\r\n") { "\r\n" } else { "\n" };
    // Public when code of another package may call the method there.
    let reach = Vis::of(&decl.modifiers, false);
    let public = package != source_package || reach >= Vis::Protected;
    let header = if package.is_empty() { String::new() } else { format!("package {package};{nl}{nl}") };
    let text = format!("{header}{}class {name} {{{nl}}}{nl}", if public { "public " } else { "" });

    let start = decl.span.start_byte;
    let mut moved = in_project_with(project, (method, start), spec, &path, text, &|why| missing(why.to_string()))?;
    // The new file is created whole, with the method in it.
    let text = moved
        .changes
        .render_file(&path)
        .map_err(|e| refuse(Reason::OverlappingEdits, e.to_string()))?
        .ok_or_else(|| missing("the method was not inserted".into()))?;
    moved.changes.files.insert(path.clone(), FileChange::Create { text });
    moved.changes.notes.insert(0, format!("created `{fqn}` in {}", path.display()));
    moved.created = Some(path);
    Ok(moved)
}

/// Moves `method` into a new static member class `name` of `outer`, added at the end of its body.
fn nested(project: &Project, method: MethodId, spec: &MoveSpec, outer: TypeId, name: &str) -> Result<Moved, Refusal> {
    let d = project.type_decl(outer);
    let cannot = |why: &str| {
        refuse(
            Reason::DestinationNotInProject,
            format!(
                "`{}` has no member class `{name}`, and mantra cannot add one: {why}",
                project.qualified_name(outer)
            ),
        )
    };
    if d.local || d.is_anonymous() || d.kind == TypeKind::Annotation {
        return Err(cannot("it is a local, anonymous or annotation type"));
    }
    let file = project.source(outer);
    let indent = member_indent(project, outer);
    let source_package = project.package_of(project.owner(method));
    let public = project.package_of(outer) != source_package
        || Vis::of(&project.method(method).modifiers, false) >= Vis::Protected;
    // In an interface a member class is implicitly public and static.
    let modifiers = match (d.kind, public) {
        (TypeKind::Interface, _) => "",
        (_, true) => "public static ",
        (_, false) => "static ",
    };
    let lines = vec![format!("{indent}{modifiers}class {name} {{"), format!("{indent}}}")];
    let edit = insertion(project, outer, &lines);
    let path = file.path.clone();
    let original = file.text.to_string();
    // The method's offset, shifted when the class goes before it in its own file.
    let mut start = project.method(method).span.start_byte;
    if path == project.method_source(method).path && edit.start <= start {
        start += edit.replacement.len();
    }
    let with_class = apply(&path.display().to_string(), &original, std::slice::from_ref(&edit))
        .map_err(|e| cannot(&e.to_string()))?;
    let mut moved = in_project_with(project, (method, start), spec, &path, with_class, &|why| cannot(why))?;
    let text = moved
        .changes
        .render_file(&path)
        .map_err(|e| refuse(Reason::OverlappingEdits, e.to_string()))?
        .ok_or_else(|| cannot("the method was not inserted"))?;
    moved
        .changes
        .files
        .insert(path.clone(), FileChange::Edit { edits: vec![minimal_edit(&original, &text)], original });
    moved.changes.notes.insert(0, format!("added the member class `{}.{name}`", project.qualified_name(outer)));
    moved.created = Some(path);
    Ok(moved)
}

/// [`super::plan_existing`] on `project` with `path`'s text replaced by (or added as) `text`, for
/// the method that starts at byte `start` of its file there.
fn in_project_with(
    project: &Project,
    (method, start): (MethodId, usize),
    spec: &MoveSpec,
    path: &Path,
    text: String,
    cannot: &dyn Fn(&str) -> Refusal,
) -> Result<Moved, Refusal> {
    let source = project.method_source(method);
    let with_class =
        project.with_file(path.to_path_buf(), text).map_err(|e| refuse(Reason::UnreadableFile, e.to_string()))?;
    let fid = with_class.file_id(&source.path).ok_or_else(|| cannot("the source file vanished"))?;
    let same = with_class
        .methods_in(fid)
        .map_err(|e| refuse(Reason::UnreadableFile, e.to_string()))?
        .into_iter()
        .find(|&m| with_class.method(m).span.start_byte == start)
        .ok_or_else(|| cannot("the method vanished"))?;
    super::plan_existing(&with_class, same, spec)
}

/// The folder the package folders of `file` start from (`src/main/java` for
/// `src/main/java/a/b/C.java` in package `a.b`).
fn source_root(file: &Path, package: &str) -> Option<PathBuf> {
    let mut dir = file.parent()?.to_path_buf();
    for seg in package.split('.').filter(|p| !p.is_empty()).rev() {
        if dir.file_name()? != seg {
            return None;
        }
        dir = dir.parent()?.to_path_buf();
    }
    Some(dir)
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}
