//! User-configured build commands (`build.compile`, `build.test`) as [`Cmd`] values.
//!
//! The strings are split into words the way a POSIX shell would (quotes and backslashes), but no
//! shell runs them: no globbing, no pipes, no variables, so a timeout still reaches every process.
//!
//! `{tests}` stands for the selected tests:
//! - inside a word (`-Dtest={tests}`) it becomes the selection joined with commas, the form
//!   Surefire's `-Dtest` and most runners accept;
//! - as a whole word (`{tests}`) it becomes one word per test, for runners taking a list;
//! - when every test runs, the word holding `{tests}` is dropped, and so is the flag right before
//!   a whole-word `{tests}` (`--tests {tests}`), so the command runs its full suite.

use super::{BuildError, TestSelection};
use crate::process::Cmd;

/// The placeholder for the selected tests.
pub const TESTS: &str = "{tests}";

/// Splits a configured command into a [`Cmd`]; `key` names the setting for errors.
pub fn parse(key: &'static str, command: &str, selection: Option<&TestSelection>) -> Result<Cmd, BuildError> {
    let bad = |reason: &str| BuildError::BadCommand { key, command: command.to_string(), reason: reason.into() };
    let words = shlex::split(command).ok_or_else(|| bad("unbalanced quotes or a trailing backslash"))?;
    let mut out: Vec<String> = Vec::new();
    for word in words {
        if !word.contains(TESTS) {
            out.push(word);
            continue;
        }
        match selection {
            None => return Err(bad("`{tests}` only makes sense in `build.test`")),
            Some(TestSelection::All) => {
                if word == TESTS && out.last().is_some_and(|w| w.starts_with('-')) {
                    out.pop();
                }
            }
            Some(TestSelection::Only(tests)) if word == TESTS => out.extend(tests.iter().cloned()),
            Some(TestSelection::Only(tests)) => out.push(word.replace(TESTS, &tests.join(","))),
        }
    }
    let mut words = out.into_iter();
    let program = words.next().ok_or_else(|| bad("it is empty"))?;
    Ok(Cmd::new(program).args(words))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(cmd: &Cmd) -> Vec<String> {
        std::iter::once(&cmd.program).chain(&cmd.args).map(|s| s.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn quoting_and_placeholders() {
        let only = TestSelection::Only(vec!["a.FooTest".into(), "a.BarTest#x".into()]);
        let cmd = parse("build.test", r#"mvn "-Dname=a b" -Dtest={tests} test"#, Some(&only)).unwrap();
        assert_eq!(words(&cmd), ["mvn", "-Dname=a b", "-Dtest=a.FooTest,a.BarTest#x", "test"]);
        let cmd = parse("build.test", "run --tests {tests} -q", Some(&only)).unwrap();
        assert_eq!(words(&cmd), ["run", "--tests", "a.FooTest", "a.BarTest#x", "-q"]);
        let cmd = parse("build.test", "run --tests {tests} -Dt={tests} -q", Some(&TestSelection::All)).unwrap();
        assert_eq!(words(&cmd), ["run", "-q"]);
    }

    #[test]
    fn bad_commands_are_named() {
        let err = parse("build.compile", "mvn 'oops", None).unwrap_err();
        assert!(err.to_string().contains("build.compile") && err.to_string().contains("'oops"), "{err}");
        assert!(parse("build.compile", "  ", None).is_err());
        assert!(parse("build.compile", "x {tests}", None).is_err());
    }
}
