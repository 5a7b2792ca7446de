//! A move to a class that does not exist yet: `class:a.b.NewClass` creates an empty top-level class
//! in an existing package of the project, `class:a.b.Outer.Inner` an empty static member class of
//! an existing `Outer`; then the method moves into it as into any class.

use std::path::Path;

use super::text::{insertion, member_indent};
use super::{MoveSpec, Moved, Vis, refuse};
use crate::engine::edit::{apply, minimal_edit};
use crate::engine::{FileChange, Reason, Refusal};
use crate::java::project::{MethodId, Project, TypeId};
use crate::java::symbols::TypeKind;
use crate::java::syntax::is_java_identifier;

/// Moves `method` into the new top-level class `fqn`, created in the source file's source root.
pub(super) fn plan(project: &Project, method: MethodId, spec: &MoveSpec, fqn: &str) -> Result<Moved, Refusal> {
    let (package, name) = fqn.rsplit_once('.').unwrap_or(("", fqn));
    let missing = |why: &str| {
        refuse(
            Reason::DestinationNotInProject,
            format!("`{fqn}` is not a class of this project, and mantra cannot create it: {why}"),
        )
    };
    if !is_java_identifier(name) || !package.split('.').all(|p| package.is_empty() || is_java_identifier(p)) {
        return Err(missing("that is not a Java class name (give it fully qualified, e.g. `com.acme.Util`)"));
    }
    // `a.b.Outer.Inner` with `a.b.Outer` in the project: a static member class of `Outer`.
    if let Some(outer) = project.find_type(package) {
        return nested(project, method, spec, outer, name);
    }
    if !project.has_package(package) {
        return Err(missing(&format!(
            "no file of the project is in package `{package}` (check the spelling, or create the class first)"
        )));
    }
    let source = project.method_source(method);
    let root = project
        .layout()
        .root_of(&source.path)
        .ok_or_else(|| missing(&format!("{} is in no source folder of the project", source.path.display())))?;
    let path = package
        .split('.')
        .filter(|p| !p.is_empty())
        .fold(root.to_path_buf(), |p, seg| p.join(seg))
        .join(format!("{name}.java"));
    if project.root().join(&path).exists() {
        return Err(missing(&format!("{} exists but does not declare it", path.display())));
    }
    let nl = if source.text.contains("\r\n") { "\r\n" } else { "\n" };
    let public = if reached_from_another_package(project, method, package) { "public " } else { "" };
    let header = if package.is_empty() { String::new() } else { format!("package {package};{nl}{nl}") };
    let text = format!("{header}{public}class {name} {{{nl}}}{nl}");

    let start = project.method(method).span.start_byte;
    let moved = in_project_with(project, (method, start), spec, &path, text, &missing)?;
    // The new file is created whole, with the method in it.
    let note = format!("created `{fqn}` in {}", path.display());
    with_class_file(moved, &path, note, &missing, |text| FileChange::Create { text })
}

/// Whether the class that receives `method` in `package` must be public: code of another package
/// may call the method there.
fn reached_from_another_package(project: &Project, method: MethodId, package: &str) -> bool {
    package != project.package_of(project.owner(method))
        || Vis::of(&project.method(method).modifiers, false) >= Vis::Protected
}

/// `moved`, planned with the class added to `path`, as a change against the files as they are:
/// `path` becomes `change` of its final text, and `note` says what was added.
fn with_class_file(
    mut moved: Moved,
    path: &Path,
    note: String,
    cannot: &dyn Fn(&str) -> Refusal,
    change: impl FnOnce(String) -> FileChange,
) -> Result<Moved, Refusal> {
    let text = moved
        .changes
        .render_file(path)
        .map_err(|e| refuse(Reason::OverlappingEdits, e.to_string()))?
        .ok_or_else(|| cannot("the method was not inserted"))?;
    moved.changes.files.insert(path.to_path_buf(), change(text));
    moved.changes.notes.insert(0, note);
    moved.created = Some(path.to_path_buf());
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
    let public = reached_from_another_package(project, method, project.package_of(outer));
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
    let moved = in_project_with(project, (method, start), spec, &path, with_class, &|why| cannot(why))?;
    let note = format!("added the member class `{}.{name}`", project.qualified_name(outer));
    with_class_file(moved, &path, note, &|why| cannot(why), |text| FileChange::Edit {
        edits: vec![minimal_edit(&original, &text)],
        original,
    })
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
