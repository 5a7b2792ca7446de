use std::path::Path;

use super::*;
use crate::java::project::tests::project;

mod fixtures;
mod pull_up;
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
    let (_dir, p) = project(files);
    let fid = p.file_id(Path::new(file)).expect("file");
    let id = p.methods_in(fid).expect("parsed").into_iter().find(|&m| p.method(m).name == method).expect("method");
    let spec = MoveSpec { keep_delegate: keep, ..MoveSpec::new(to.parse().expect("destination")) };
    let changes = move_method(&p, id, &spec)?;
    let rendered = changes.render().expect("edits apply");
    Ok(rendered.into_iter().map(|(p, t)| (p.display().to_string(), t)).collect())
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
