use std::path::Path;

use super::*;
use crate::java::project::tests::project;

mod fixtures;
mod pull_up;
mod push_down;
mod refusals;
mod rewrites;
mod to_class;

/// Moves `method` of `file` as `to` says; returns every changed file's new text, by path.
pub(super) fn run(
    files: &[(&str, &str)],
    file: &str,
    method: &str,
    to: &str,
    keep: bool,
) -> Result<Vec<(String, String)>, Refusal> {
    run_spec(files, file, method, &MoveSpec { keep_delegate: keep, ..MoveSpec::new(to.parse().expect("destination")) })
}

/// Moves `method` of `file` as `spec` says, through the engine's entry point (which moves the
/// methods of `--methods` and `--with-helpers` along); returns every changed file's new text.
pub(super) fn run_spec(
    files: &[(&str, &str)],
    file: &str,
    method: &str,
    spec: &MoveSpec,
) -> Result<Vec<(String, String)>, Refusal> {
    let (_dir, p) = project(files);
    let fid = p.file_id(Path::new(file)).expect("file");
    let id = p.methods_in(fid).expect("parsed").into_iter().find(|&m| p.method(m).name == method).expect("method");
    let changes = crate::engine::apply(&p, id, &crate::engine::Spec::MoveMethod(spec.clone()))?;
    let rendered = changes.render().expect("edits apply");
    Ok(rendered.into_iter().map(|(p, t)| (p.display().to_string(), t)).collect())
}

/// The new text of `path` in a move's output.
pub(super) fn text<'a>(out: &'a [(String, String)], path: &str) -> &'a str {
    out.iter().find(|(p, _)| p == path).map(|(_, t)| t.as_str()).unwrap_or_else(|| panic!("{path} unchanged: {out:#?}"))
}

pub(super) fn refused(files: &[(&str, &str)], file: &str, method: &str, to: &str) -> Refusal {
    match run(files, file, method, to, false) {
        Ok(out) => panic!("expected a refusal, got {out:#?}"),
        Err(r) => r,
    }
}

pub(super) fn assert_refused(files: &[(&str, &str)], file: &str, method: &str, to: &str, reason: &str, says: &str) {
    let r = refused(files, file, method, to);
    assert_eq!(r.reason, reason, "{}", r.message);
    assert!(r.message.contains(says), "message `{}` should mention `{says}`", r.message);
}

pub(super) fn src_with(body: &str) -> String {
    format!("package a;\n\nclass Src {{\n{body}}}\n")
}
