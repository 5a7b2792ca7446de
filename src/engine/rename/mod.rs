//! Rename Method: the declaration, call sites, method references, and the overriding and
//! overridden methods in the project.
//!
//! A method is renamed together with its *family*: every project method it overrides, every one
//! that overrides it, transitively, and the methods a subclass makes implement the same interface
//! method (`class C extends A implements I` where `A.m` implements `I.m`). Renaming only part of a
//! family silently changes dispatch, so the family moves as one.
//!
//! Only the name token changes, at every place that names a member of the family: declarations,
//! calls (`m()`, `x.m()`, `super.m()`, calls from inner and anonymous classes and from tests),
//! method references (`Type::m`, `this::m`, `expr::m`), single static imports, and Javadoc
//! `{@link #m}` / `{@link Type#m(int)}` / `@see` references. Every other byte stays as it was.
//!
//! The engine refuses, with a stable reason, whenever it cannot show that the rename keeps every
//! call going where it went:
//! - `constructor`, `invalid_name`, `same_name`, `syntax_error`, `record_accessor`;
//! - `overrides_external`: the family overrides a method of a type outside the project (`toString`,
//!   `compareTo`, `run`), or extends a library type whose methods mantra cannot list;
//! - `name_clash`: the new name already names a method with an overlapping number of parameters in
//!   the family's hierarchy (an exact clash breaks compilation; a same-arity overload can quietly
//!   capture existing calls), would override a method of `Object` or a known JDK supertype, or
//!   would shadow / be shadowed by a method of an enclosing class for unqualified calls;
//! - `unresolved_calls`: calls named like the method whose target the model cannot pin down.
//!
//! Out of scope, by construction of a static model: reflection (`getMethod("m")`), method names in
//! strings, configuration files or other languages, and code outside the project's sources.
//!
//! Files: `family` (the override family and its preconditions), `scan` (every occurrence of
//! the name). The other kinds of identifier: `element` (what `mantra rename FILE --old NAME`
//! names), `resolve` (what a simple name means where it is written), `variable`, `field` and
//! `class` (their engines); [`rename`] dispatches.

mod class;
pub(crate) use class::JAVA_LANG;
pub mod element;
pub(crate) mod family;
mod field;
mod javadoc;
pub mod resolve;
mod scan;
#[cfg(test)]
mod tests;
mod variable;

use std::collections::BTreeMap;
use std::ops::Range;

use super::{ChangeSet, Reason, Refusal};
use crate::java::project::{FileId, MethodId, Project};
use crate::java::source::SourceFile;
use crate::java::symbols::{self, FieldKind, TypeKind};
use crate::java::syntax::{is_java_identifier, is_reserved};
use family::{Family, check_clash, check_external};
use scan::Renamer;

/// What Rename Method needs beyond the method: the new name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RenameSpec {
    pub new_name: String,
}

/// How many doubtful call sites a refusal lists before "and N more".
const LISTED: usize = 5;

/// The other project methods renamed with `method`: those it overrides or is overridden by,
/// transitively (another subclass's override of the same method included).
pub fn renamed_with(project: &Project, method: MethodId) -> Vec<MethodId> {
    Family::of(project, method).members.into_iter().filter(|&m| m != method).collect()
}

/// Renames `method` and everything that must change with it, or refuses.
pub fn rename_method(project: &Project, method: MethodId, spec: &RenameSpec) -> Result<ChangeSet, Refusal> {
    let decl = project.method(method);
    let old = decl.name.clone();
    let new = spec.new_name.as_str();
    check_name(project, method, new)?;
    let family = Family::of(project, method);
    check_external(project, &family, &old, new)?;
    check_clash(project, &family, new)?;
    let mut renamer = Renamer {
        project,
        family: &family,
        old: &old,
        new,
        edits: BTreeMap::new(),
        inserts: Vec::new(),
        unqualified: Vec::new(),
        doubts: Vec::new(),
    };
    for &m in &family.members {
        let d = project.method(m);
        renamer.add(m.file(), d.name_span.range());
    }
    for f in project.files_containing(&old) {
        renamer.scan_file(f)?;
    }
    for &m in &family.members {
        for (file, range) in method_source_names(project, m)? {
            renamer.add(file, range);
        }
    }
    renamer.check_captured_calls()?;
    if !renamer.doubts.is_empty() {
        return Err(renamer.doubt_refusal());
    }
    renamer.change_set()
}

pub use class::{file_rename, move_file, rename_class};
pub use element::{Element, Kind, Narrowing};
pub use field::rename_field;
pub use variable::rename_variable;

/// Renames any declared identifier to `new`, or refuses.
pub fn rename(project: &Project, element: Element, new: &str) -> Result<ChangeSet, Refusal> {
    let (mut changes, moved) = rename_edits(project, element, new)?;
    if let Some((from, to)) = moved {
        move_file(&mut changes, project, &from, to)?;
    }
    Ok(changes)
}

/// A file a rename moves: (old path, new path).
pub type FileMove = (std::path::PathBuf, std::path::PathBuf);

/// [`rename`] with the file a class rename moves kept apart from the edits, so that several
/// renames of one project can be merged before the file moves ([`move_file`]).
pub fn rename_edits(project: &Project, element: Element, new: &str) -> Result<(ChangeSet, Option<FileMove>), Refusal> {
    match element {
        Element::Type(t) => Ok((class::class_edits(project, t, new)?, file_rename(project, t, new))),
        other => Ok((rename_one(project, other, new)?, None)),
    }
}

fn rename_one(project: &Project, element: Element, new: &str) -> Result<ChangeSet, Refusal> {
    match element {
        Element::Type(t) => rename_class(project, t, new),
        Element::Method(m) => rename_method(project, m, &RenameSpec { new_name: new.to_string() }),
        Element::Field(t, i) => rename_field(project, t, i, new),
        Element::Var(v) => rename_variable(project, v, new),
    }
}

/// The checks every rename makes of its new name.
fn check_identifier(old: &str, new: &str, what: &str) -> Result<(), Refusal> {
    if is_reserved(new) {
        return Err(Refusal::new(Reason::InvalidName, format!("`{new}` is a Java keyword; choose another name")));
    }
    if !is_java_identifier(new) {
        return Err(Refusal::new(
            Reason::InvalidName,
            format!("`{new}` is not a Java identifier: use letters, digits, `_` or `$`, not starting with a digit"),
        ));
    }
    if new == old {
        return Err(Refusal::new(
            Reason::SameName,
            format!("the {what} is already called `{new}`; choose a different name"),
        ));
    }
    Ok(())
}

fn describe(project: &Project, m: MethodId) -> String {
    format!("{}.{}", project.type_decl(project.owner(m)).display, project.method(m).signature())
}

fn check_name(project: &Project, method: MethodId, new: &str) -> Result<(), Refusal> {
    let decl = project.method(method);
    if decl.is_constructor() {
        return Err(Refusal::new(
            Reason::Constructor,
            format!("`{}` is a constructor; its name is its class's name: rename the class instead", decl.signature()),
        ));
    }
    check_identifier(&decl.name, new, "method")?;
    let source = project.method_source(method);
    if let Some(err) = source.syntax_error() {
        return Err(syntax_refusal(source, err.line, &err.snippet));
    }
    let owner = project.type_decl(project.owner(method));
    if owner.kind == TypeKind::Record
        && decl.params.is_empty()
        && owner.fields.iter().any(|f| f.kind == FieldKind::RecordComponent && f.name == decl.name)
    {
        return Err(Refusal::new(
            Reason::RecordAccessor,
            format!(
                "`{}()` is the accessor of record component `{}`; renaming it would leave the implicit accessor \
                 behind: rename the component instead",
                decl.name, decl.name
            ),
        ));
    }
    Ok(())
}

/// Where the `@MethodSource` strings of the tests that take their arguments from `method` spell
/// its name (`"data"`, `"a.B#data"`, `"data(int)"`): JUnit finds the factory by that name, so it
/// changes with the method. Refused when the name is not written (a bare `@MethodSource` means the
/// method of the test's own name), and when `method` is such a test itself.
fn method_source_names(project: &Project, method: MethodId) -> Result<Vec<(FileId, Range<usize>)>, Refusal> {
    let decl = project.method(method);
    let name = &decl.name;
    if decl.method_sources().iter().any(|(class, n)| class.is_none() && n == name) {
        return Err(Refusal::new(
            Reason::NamedByAnnotation,
            format!(
                "`{name}` takes its arguments from the method of its own name (a bare @MethodSource); renamed, it would lose them. Write the factory's name in it first (`@MethodSource(\"{name}\")`)"
            ),
        ));
    }
    let mut out = Vec::new();
    for test in project.method_source_users(method) {
        let t = project.method(test);
        let text = &project.method_source(test).text;
        let head = t.span.start_byte..t.name_span.start_byte;
        let found = name_in_method_sources(&text[head.clone()], name);
        if found.is_empty() {
            return Err(Refusal::new(
                Reason::NamedByAnnotation,
                format!(
                    "`{name}` gives `{}` its arguments through a bare @MethodSource (the method of the test's own name); renamed, the test would lose them. Write the factory's name in it first",
                    t.name
                ),
            ));
        }
        out.extend(found.into_iter().map(|r| (test.file(), head.start + r.start..head.start + r.end)));
    }
    Ok(out)
}

/// The byte ranges in `text` (a declaration's annotations) where a `@MethodSource` string names
/// method `name`, with or without a class before `#` and parameters after.
fn name_in_method_sources(text: &str, name: &str) -> Vec<Range<usize>> {
    symbols::method_source_names(text).into_iter().filter(|n| n.method == name).map(|n| n.range).collect()
}

fn syntax_refusal(source: &SourceFile, line: usize, snippet: &str) -> Refusal {
    Refusal::new(
        Reason::SyntaxError,
        format!(
            "{} has a syntax error at line {line} (`{snippet}`), so its calls cannot be read reliably; fix it first",
            source.path.display()
        ),
    )
}
