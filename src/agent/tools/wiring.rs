//! Code wiring for the agents ([`crate::engine::wire`]): the `wire_code` tool, the note a
//! `write_file` whose new lines name what nothing declares gets back, and the candidates added to
//! the Repair agent's "cannot find symbol" diagnostics.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use super::{Workbench, parse};
use crate::build::Diagnostic;
use crate::engine::wire::{self, Binding};

/// `wire_code {path, start_line, end_line}`: binds the unresolved names of the lines and writes
/// the bound ones into the scratch copy; the report lists every name.
pub(super) fn wire_code(bench: &mut Workbench<'_>, args: &Value) -> Result<String, String> {
    #[derive(Deserialize)]
    struct A {
        path: String,
        start_line: usize,
        end_line: usize,
    }
    let a: A = parse(args)?;
    let rel = bench.confine(&a.path, true)?;
    let project = bench.project()?;
    let file = project.file_id(&rel).ok_or_else(|| format!("{} is not a Java file of the project", rel.display()))?;
    let wiring =
        wire::wire(project, file, a.start_line, a.end_line).map_err(|r| format!("{}: {}", r.reason, r.message))?;
    if wiring.bindings.is_empty() {
        return Ok(format!("every name of lines {}-{} resolves; nothing to wire", a.start_line, a.end_line));
    }
    let changes = wiring.changes(project, file).map_err(|r| r.message)?;
    let rendered = changes.render().map_err(|e| e.to_string())?;
    let mut out: Vec<String> = wiring.bindings.iter().map(report_line).collect();
    if let Some(text) = rendered.get(&rel) {
        bench.set(rel.clone(), text.clone());
        if !bench.written.contains(&rel) {
            bench.written.push(rel.clone());
        }
        out.push(format!("wrote the bound names into {} (the scratch copy).", rel.display()));
    }
    if wiring.unbound().next().is_some() {
        out.push(
            "Unbound names are left as they are: choose one of their candidates with write_file, or declare them."
                .into(),
        );
    }
    Ok(out.join("\n"))
}

fn report_line(b: &Binding) -> String {
    let candidates: Vec<String> =
        b.candidates.iter().take(3).map(|c| format!("`{}` ({:.1})", c.expr, c.score)).collect();
    let lines = b.lines.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
    match &b.bound {
        Some(expr) => format!("- `{}` (line {lines}) bound to `{expr}`: {}", b.name, b.reason),
        None if candidates.is_empty() => {
            format!("- `{}` (line {lines}) unbound: nothing in scope fits ({})", b.name, b.needs)
        }
        None => format!("- `{}` (line {lines}) unbound: {}; candidates {}", b.name, b.reason, candidates.join(", ")),
    }
}

/// After `write_file` replaced `old` with `new` at `rel`: the names of the changed lines that
/// nothing in scope declares, with their candidates; empty when every name resolves.
pub(super) fn unresolved_note(bench: &mut Workbench<'_>, rel: &Path, old: &str, new: &str) -> String {
    let old_lines: Vec<&str> = old.lines().collect();
    let new_lines: Vec<&str> = new.lines().collect();
    let prefix = old_lines.iter().zip(&new_lines).take_while(|(a, b)| a == b).count();
    let room = old_lines.len().min(new_lines.len()) - prefix;
    let suffix = old_lines.iter().rev().zip(new_lines.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    let (first, last) = (prefix + 1, new_lines.len() - suffix);
    if first > last {
        return String::new();
    }
    let Ok(project) = bench.project() else { return String::new() };
    let Some(file) = project.file_id(rel) else { return String::new() };
    let Ok(methods) = project.methods_in(file) else { return String::new() };
    let Ok(f) = project.file(file) else { return String::new() };
    let mut found: Vec<String> = Vec::new();
    for m in methods {
        let Some(body) = project.method(m).body else { continue };
        let (from, to) = (f.source.line_of(body.start_byte) + 1, f.source.line_of(body.end_byte.saturating_sub(1)) - 1);
        let (a, b) = (first.max(from), last.min(to));
        if a > b || to < from {
            continue;
        }
        if let Ok(w) = wire::wire(project, file, a, b) {
            found.extend(w.bindings.iter().map(report_line));
        }
    }
    found.dedup();
    if found.is_empty() {
        return String::new();
    }
    format!(
        "\nWarning: names in the lines you wrote that nothing in scope declares (wire_code binds the clear ones):\n{}",
        found.join("\n")
    )
}

/// For each "cannot find symbol" diagnostic naming a variable: the candidates in scope at its
/// line, as lines to add under the diagnostics.
pub fn candidates_for(bench: &mut Workbench<'_>, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let Some(name) = missing_variable(&d.message) else { continue };
        let Ok(project) = bench.project() else { return out };
        let Some(file) = project.file_id(&d.file) else { continue };
        let Ok(w) = wire::wire(project, file, d.line, d.line) else { continue };
        let Some(b) = w.bindings.iter().find(|b| b.name == name) else { continue };
        let listed: Vec<String> = b
            .candidates
            .iter()
            .take(3)
            .map(|c| format!("`{}`{}", c.expr, c.ty.as_deref().map(|t| format!(": {t}")).unwrap_or_default()))
            .collect();
        let what = match (&b.bound, listed.is_empty()) {
            (Some(expr), _) => format!("most likely `{expr}` ({})", b.reason),
            (None, true) => "no variable in scope fits".to_string(),
            (None, false) => format!("candidates in scope: {}", listed.join(", ")),
        };
        out.push_str(&format!("- {}:{}: `{name}` is not declared there; {what}\n", d.file.display(), d.line));
    }
    out
}

/// `x` from javac's "cannot find symbol\n  symbol:   variable x".
fn missing_variable(message: &str) -> Option<&str> {
    if !message.contains("cannot find symbol") {
        return None;
    }
    let line = message.lines().find(|l| l.trim_start().starts_with("symbol:"))?;
    let rest = line.trim_start().trim_start_matches("symbol:").trim_start();
    let name = rest.strip_prefix("variable")?.trim();
    crate::java::syntax::is_java_identifier(name).then_some(name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_missing_variable_is_read_from_javac_s_message() {
        assert_eq!(
            super::missing_variable("cannot find symbol\n  symbol:   variable items\n  location: class A"),
            Some("items")
        );
        assert_eq!(super::missing_variable("cannot find symbol\n  symbol:   method foo()"), None);
        assert_eq!(super::missing_variable("incompatible types"), None);
    }
}
