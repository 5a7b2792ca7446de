//! The prompts mantra sends a model (the agents' and the store's describer's): Markdown files in `prompts/`, embedded in the binary with `include_str!`
//! and overridable file by file from the `prompts_dir` folder of the configuration.
//!
//! A prompt is data, not code: a reviewer sees a wording change as a Markdown diff, and a user
//! tunes a prompt for a weaker model without rebuilding. Placeholders are `{{name}}`; rendering
//! fails on a placeholder the caller did not fill (or filled but the template lacks), so an
//! overriding file that drifts from the code is reported instead of sent half-rendered.
//! Rendered prompts are snapshot-tested against `prompts/snapshots/` (in `agent`, which fills them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every prompt: its file name (without `.md`) and built-in text.
pub const BUILTIN: &[(&str, &str)] = &[
    ("corename", include_str!("../../prompts/corename.md")),
    ("describe", include_str!("../../prompts/describe.md")),
    ("developer", include_str!("../../prompts/developer.md")),
    ("developer-task", include_str!("../../prompts/developer-task.md")),
    ("raw", include_str!("../../prompts/raw.md")),
    ("repair", include_str!("../../prompts/repair.md")),
    ("repair-act", include_str!("../../prompts/repair-act.md")),
    ("repair-reflect", include_str!("../../prompts/repair-reflect.md")),
    ("repair-task", include_str!("../../prompts/repair-task.md")),
    ("reviewer-feedback", include_str!("../../prompts/reviewer-feedback.md")),
    ("suggest", include_str!("../../prompts/suggest.md")),
    ("wire", include_str!("../../prompts/wire.md")),
];

/// A prompt that cannot be loaded or rendered.
#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    #[error("cannot read the prompt {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("prompt `{name}`{}: {why}", origin.as_ref().map(|p| format!(" ({})", p.display())).unwrap_or_default())]
    Template { name: String, origin: Option<PathBuf>, why: String },
}

impl crate::error::Classify for PromptError {
    fn exit(&self) -> crate::exit::Exit {
        crate::exit::Exit::Usage
    }
    fn hint(&self) -> Option<String> {
        Some(match self {
            PromptError::Read { .. } => "check the `prompts_dir` setting".into(),
            PromptError::Template { .. } => {
                "an overriding prompt must use the same {{placeholders}} as the built-in one in prompts/".into()
            }
        })
    }
}

/// The prompts in use: the built-in ones, each replaced by `<prompts_dir>/<name>.md` when present.
#[derive(Debug, Clone)]
pub struct Prompts {
    texts: BTreeMap<&'static str, (String, Option<PathBuf>)>,
}

impl Prompts {
    /// The built-in prompts.
    pub fn builtin() -> Prompts {
        Prompts { texts: BUILTIN.iter().map(|(n, t)| (*n, (t.to_string(), None))).collect() }
    }

    /// The built-in prompts, overridden by the Markdown files of `dir` (a missing file keeps the
    /// built-in text; a missing folder is an error, since the user named it).
    pub fn load(dir: Option<&Path>) -> Result<Prompts, PromptError> {
        let mut prompts = Prompts::builtin();
        let Some(dir) = dir else { return Ok(prompts) };
        if !dir.is_dir() {
            return Err(PromptError::Read {
                path: dir.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "not a folder"),
            });
        }
        for (name, slot) in prompts.texts.iter_mut() {
            let path = dir.join(format!("{name}.md"));
            if path.is_file() {
                let text = std::fs::read_to_string(&path)
                    .map_err(|source| PromptError::Read { path: path.clone(), source })?;
                *slot = (text, Some(path));
            }
        }
        Ok(prompts)
    }

    /// `name` with its placeholders filled from `vars`.
    pub fn render(&self, name: &str, vars: &[(&str, &str)]) -> Result<String, PromptError> {
        let (text, origin) = self.texts.get(name).ok_or_else(|| PromptError::Template {
            name: name.to_string(),
            origin: None,
            why: "no such prompt".into(),
        })?;
        render(text, vars).map_err(|why| PromptError::Template { name: name.to_string(), origin: origin.clone(), why })
    }
}

/// Fills `{{name}}` placeholders. Every placeholder must be given and every given name used.
pub fn render(template: &str, vars: &[(&str, &str)]) -> Result<String, String> {
    let mut out = String::with_capacity(template.len() + vars.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut used = vec![false; vars.len()];
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            return Err("a `{{` is never closed".into());
        };
        let name = after[..end].trim();
        match vars.iter().position(|(k, _)| *k == name) {
            Some(i) => {
                used[i] = true;
                out.push_str(vars[i].1);
            }
            None => return Err(format!("unknown placeholder {{{{{name}}}}}")),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    if let Some(i) = used.iter().position(|u| !u) {
        return Err(format!("the placeholder {{{{{}}}}} is missing", vars[i].0));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_must_match_both_ways() {
        assert_eq!(render("a {{x}} b {{ y }}", &[("x", "1"), ("y", "2")]).unwrap(), "a 1 b 2");
        assert_eq!(render("{{x}}", &[]).unwrap_err(), "unknown placeholder {{x}}");
        assert_eq!(render("x", &[("x", "1")]).unwrap_err(), "the placeholder {{x}} is missing");
        assert!(render("{{x", &[]).is_err());
    }

    #[test]
    fn a_folder_overrides_file_by_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("repair-act.md"), "Go: {{x}}").unwrap();
        let p = Prompts::load(Some(dir.path())).unwrap();
        assert_eq!(p.render("repair-act", &[("x", "now")]).unwrap(), "Go: now");
        assert!(p.render("developer", &[]).unwrap().starts_with("You are the Developer agent"));
        let err = p.render("repair-act", &[]).unwrap_err().to_string();
        assert!(err.contains("repair-act.md") && err.contains("unknown placeholder {{x}}"), "{err}");
        assert!(Prompts::load(Some(&dir.path().join("nope"))).is_err());
    }
}
