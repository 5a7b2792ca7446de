//! A spec written back as the `mantra refactor` command that makes exactly it: what `suggest`
//! prints under each suggestion, so that the change a developer runs is the change they read,
//! not whatever the planner would choose for the method afresh.

use std::path::Path;

use super::{AsMode, MoveSpec, Spec};

impl Spec {
    /// The flags of `mantra refactor` that give back exactly this spec for its method (what
    /// [`super::SpecFlags::parse`] and [`super::SpecFlags::complete`] read), or `None` when the
    /// spec holds something no flag says (a planner's type hints, a visibility).
    pub fn flags(&self) -> Option<Vec<String>> {
        let mut out = Vec::new();
        match self {
            Spec::ExtractMethod(e) => extract(e, &mut out)?,
            Spec::InlineMethod(i) => at_flag(i.at.as_ref(), &mut out),
            Spec::MoveMethod(m) => move_flags(m, true, &mut out)?,
            Spec::RenameMethod(r) => out.extend(["--name".to_string(), r.new_name.clone()]),
            Spec::ExtractAndMoveMethod(s) => {
                extract(&s.extract, &mut out)?;
                move_flags(&s.move_to, false, &mut out)?;
            }
            Spec::MoveAndInlineMethod(s) => {
                out.extend(["--to".to_string(), s.to.to_string()]);
                at_flag(s.at.as_ref(), &mut out);
            }
            Spec::MoveAndRenameMethod(s) => {
                move_flags(&s.move_to, false, &mut out)?;
                out.extend(["--name".to_string(), s.new_name.clone()]);
            }
        }
        Some(out)
    }
}

/// `--at FILE:LINE`, when the spec names one call.
fn at_flag(at: Option<&super::inline::CallLine>, out: &mut Vec<String>) {
    if let Some(at) = at {
        out.extend(["--at".to_string(), format!("{}:{}", at.file.display(), at.line)]);
    }
}

fn extract(e: &super::ExtractSpec, out: &mut Vec<String>) -> Option<()> {
    if e.visibility.is_some() || !e.local_types.is_empty() || !e.param_types.is_empty() {
        return None;
    }
    out.extend(["--lines".to_string(), format!("{}-{}", e.lines.0, e.lines.1), "--name".to_string(), e.name.clone()]);
    for p in &e.params {
        out.extend(["--param".to_string(), p.clone()]);
    }
    for c in &e.copies {
        out.extend(["--copy".to_string(), format!("{}-{}", c.0, c.1)]);
    }
    Some(())
}

/// `alone`: a Move Method of its own, which takes every move flag; the compounds take fewer.
fn move_flags(m: &MoveSpec, alone: bool, out: &mut Vec<String>) -> Option<()> {
    if !m.moving_with.is_empty() || (!alone && (m.with_helpers || !m.also.is_empty() || m.widen_public)) {
        return None;
    }
    out.extend(["--to".to_string(), m.to.to_string()]);
    if m.keep_delegate {
        out.push("--keep-delegate".to_string());
    }
    if m.with_helpers {
        out.push("--with-helpers".to_string());
    }
    if !m.also.is_empty() {
        out.extend(["--methods".to_string(), m.also.join(",")]);
    }
    if m.widen_public {
        out.extend(["--widen".to_string(), "public".to_string()]);
    }
    match m.as_mode {
        AsMode::Auto => {}
        AsMode::Static => out.extend(["--as".to_string(), "static".to_string()]),
        AsMode::Instance => out.extend(["--as".to_string(), "instance".to_string()]),
    }
    Some(())
}

/// `mantra [--repo DIR] refactor -t KIND TARGET FLAGS...`, each word quoted for a POSIX shell
/// where it needs it; `None` when the spec cannot be written as flags.
pub fn refactor_command(repo: Option<&Path>, spec: &Spec, target: &str) -> Option<String> {
    let mut words = vec!["mantra".to_string()];
    if let Some(repo) = repo {
        words.extend(["--repo".to_string(), repo.display().to_string()]);
    }
    words.extend(["refactor".to_string(), "-t".to_string(), spec.kind().name().to_string(), target.to_string()]);
    words.extend(spec.flags()?);
    Some(words.iter().map(|w| shell_word(w)).collect::<Vec<_>>().join(" "))
}

/// `word` as a shell reads it back: bare when it holds only characters no shell treats
/// specially, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=,@%+".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Destination, ExtractSpec, SpecFlags};
    use crate::refactoring::{RefactoringKind, SpecOptions};
    use std::path::PathBuf;

    /// Reads `flags` back the way `mantra refactor` does.
    fn read_back(kind: RefactoringKind, flags: &[String]) -> SpecOptions {
        let mut o = SpecOptions::default();
        let mut it = flags.iter();
        while let Some(flag) = it.next() {
            let mut value = || it.next().cloned().unwrap();
            match flag.as_str() {
                "--lines" => o.lines = Some(value()),
                "--name" => o.name = Some(value()),
                "--param" => o.params.push(value()),
                "--copy" => o.copies.push(value()),
                "--to" => o.to = Some(value()),
                "--at" => o.at = Some(value()),
                "--keep-delegate" => o.keep_delegate = true,
                "--with-helpers" => o.with_helpers = true,
                "--methods" => o.methods = value().split(',').map(str::to_string).collect(),
                "--widen" => o.widen = Some(value()),
                "--as" => o.as_mode = Some(value()),
                other => panic!("{other} is not a flag of {}", kind.name()),
            }
        }
        o
    }

    fn extract_spec() -> ExtractSpec {
        ExtractSpec {
            file: PathBuf::from("src/A.java"),
            method_line: Some(3),
            lines: (5, 7),
            name: "check".into(),
            visibility: None,
            local_types: Default::default(),
            params: vec!["row.size()".into()],
            param_types: Default::default(),
            quiet_calls: Vec::new(),
            copies: vec![(12, 14), (20, 22)],
        }
    }

    #[test]
    fn flags_give_back_the_spec() {
        let mut mv = MoveSpec::new(Destination::Class("a.b.Util".into()));
        mv.with_helpers = true;
        mv.also = vec!["other".into()];
        mv.as_mode = AsMode::Static;
        let specs = [
            Spec::ExtractMethod(extract_spec()),
            Spec::MoveMethod(mv),
            Spec::MoveMethod(MoveSpec { keep_delegate: true, ..MoveSpec::new(Destination::Field("f".into())) }),
            Spec::RenameMethod(crate::engine::RenameSpec { new_name: "total".into() }),
            Spec::ExtractAndMoveMethod(crate::engine::spec::ExtractAndMoveSpec {
                extract: extract_spec(),
                move_to: MoveSpec::new(Destination::Param("p".into())),
            }),
        ];
        for spec in specs {
            let flags = spec.flags().unwrap();
            let parsed = SpecFlags::parse(spec.kind(), &read_back(spec.kind(), &flags)).unwrap();
            let back = parsed.complete(spec.kind(), Path::new("src/A.java"), 3).unwrap();
            assert_eq!(back, spec, "{flags:?}");
        }
    }

    #[test]
    fn what_no_flag_says_gives_no_command() {
        let mut e = extract_spec();
        e.param_types.insert("row.size()".into(), "int".into());
        assert_eq!(Spec::ExtractMethod(e).flags(), None);
        let mut mv = MoveSpec::new(Destination::Class("a.B".into()));
        mv.widen_public = true;
        let compound =
            Spec::MoveAndRenameMethod(crate::engine::spec::MoveAndRenameSpec { move_to: mv, new_name: "n".into() });
        assert_eq!(compound.flags(), None);
    }

    #[test]
    fn commands_are_quoted_for_the_shell() {
        let spec = Spec::RenameMethod(crate::engine::RenameSpec { new_name: "total".into() });
        let cmd = refactor_command(Some(Path::new("my repo")), &spec, "src/A.java:A#m(int, String)").unwrap();
        assert_eq!(cmd, "mantra --repo 'my repo' refactor -t rename-method 'src/A.java:A#m(int, String)' --name total");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
    }
}
