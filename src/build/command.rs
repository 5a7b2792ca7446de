//! User-configured build commands (`build.compile`, `build.test`) as [`Cmd`] values.
//!
//! The strings are split into words the way a POSIX shell would (quotes and backslashes), but no
//! shell runs them: no globbing, no pipes, no variables, so a timeout still reaches every process.
//! Leading `NAME=value` words set environment variables for the command, as they would in a shell
//! (`JAVA_HOME=/opt/jdk17 mvn -o test`).
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

/// What to do when a configured command's program is not found.
pub const HINT: &str = "`build.compile` and `build.test` run their first word as a program, not through a shell: \
     name a program on PATH or give its path (a relative one is taken from the project's root), or wrap the command \
     in `sh -c '…'`";

/// Whether `word` is a shell variable assignment (`NAME=value`, NAME a shell variable's name).
fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some((name, value))
}

/// Splits a configured command into a [`Cmd`]; `key` names the setting for errors.
pub fn parse(key: &'static str, command: &str, selection: Option<&TestSelection>) -> Result<Cmd, BuildError> {
    let bad = |reason: &str| BuildError::BadCommand { key, command: command.to_string(), reason: reason.into() };
    let words = shlex::split(command).ok_or_else(|| bad("unbalanced quotes or a trailing backslash"))?;
    let mut env: Vec<(String, String)> = Vec::new();
    let mut words = words.into_iter().peekable();
    while let Some((name, value)) = words.peek().and_then(|w| assignment(w)) {
        env.push((name.to_string(), value.to_string()));
        words.next();
    }
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
    let program = words
        .next()
        .ok_or_else(|| bad(if env.is_empty() { "it is empty" } else { "it sets variables and runs nothing" }))?;
    Ok(env.into_iter().fold(Cmd::new(program).args(words), |cmd, (name, value)| cmd.env(name, value)))
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
        assert!(parse("build.compile", "A=1 B=2", None).unwrap_err().to_string().contains("runs nothing"));
    }

    #[test]
    fn leading_assignments_set_the_environment() {
        let cmd = parse("build.compile", "JAVA_HOME='/opt/jdk 17' _X=1 ./build.sh A=B --flag=x", None).unwrap();
        assert_eq!(words(&cmd), ["./build.sh", "A=B", "--flag=x"]);
        let env: Vec<(String, Option<String>)> = cmd
            .env
            .iter()
            .map(|(k, v)| (k.to_string_lossy().into_owned(), v.as_ref().map(|v| v.to_string_lossy().into_owned())))
            .collect();
        assert_eq!(env, [("JAVA_HOME".into(), Some("/opt/jdk 17".into())), ("_X".into(), Some("1".into()))]);
        // Not a variable's name: the program itself.
        assert_eq!(words(&parse("build.compile", "1A=x run", None).unwrap()), ["1A=x", "run"]);
    }
}
