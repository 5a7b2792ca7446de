//! Checkstyle on the changed files, before and after, reporting only the violations the change added.
//!
//! A real project rarely passes its style rules cleanly, and a refactoring must not be blamed for
//! what was already there. So one Checkstyle run per review (one JVM start) checks the changed
//! files of both versions, and [`new_violations`] keeps only the violations the after version
//! has more of.
//!
//! The rules are the project's own (`checkstyle.config`, else `checkstyle.xml` or
//! `config/checkstyle/checkstyle.xml` in the project), else Checkstyle's bundled Sun or Google
//! rules (`checkstyle.builtin`). `${config_loc}` in a rule file is set to the rule file's folder,
//! as Maven's and Gradle's Checkstyle plugins do. Checkstyle runs as the `checkstyle` launcher
//! (`checkstyle.path`) or as `java -jar` on `checkstyle.jar`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::config::{BuiltinStyle, CheckstyleConfig};
use crate::error::Classify;
use crate::exit::Exit;
use crate::process::{Cmd, ProcessError, Runner};
use crate::workspace::TempPath;

/// Where Debian installs Checkstyle's bundled rule files.
pub const BUNDLED_RULES: &str = "/usr/share/checkstyle";

/// Rule files a project may keep, in the order they are looked for.
pub const PROJECT_RULES: [&str; 2] = ["checkstyle.xml", "config/checkstyle/checkstyle.xml"];

/// How long one Checkstyle run may take.
const TIMEOUT: Duration = Duration::from_secs(300);

/// One Checkstyle finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// Relative to the version's root folder.
    pub file: PathBuf,
    /// 1-based; 0 for findings about the whole file.
    pub line: usize,
    pub column: Option<usize>,
    /// `error`, `warning`, `info`.
    pub severity: String,
    pub message: String,
    /// The check's short name: `LineLength` (from `com.puppycrawl...LineLengthCheck`).
    pub check: String,
}

/// Style findings of a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StyleReview {
    /// The rule file used.
    pub rules: PathBuf,
    pub before: Vec<Violation>,
    pub after: Vec<Violation>,
    /// What the change introduced: the after violations not matched by a before violation.
    pub new: Vec<Violation>,
}

#[derive(Debug, thiserror::Error)]
pub enum CheckstyleError {
    #[error("Checkstyle (`{program}`) is not installed")]
    Missing { program: String },
    #[error("Checkstyle cannot load the rule file {}: {message}", config.display())]
    BadConfig { config: PathBuf, message: String },
    #[error("`{command}` failed: {message}")]
    Failed { command: String, message: String },
    #[error("cannot write {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

impl Classify for CheckstyleError {
    fn exit(&self) -> Exit {
        match self {
            CheckstyleError::Missing { .. } => Exit::EnvironmentMissing,
            CheckstyleError::BadConfig { .. } => Exit::InvalidInput,
            CheckstyleError::Failed { .. } | CheckstyleError::Io { .. } => Exit::Internal,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            CheckstyleError::Missing { .. } => Some(
                "install it with `apt-get install checkstyle`, or set `checkstyle.path` (launcher) or `checkstyle.jar`"
                    .into(),
            ),
            CheckstyleError::BadConfig { .. } => Some(
                "fix the rule file, point `checkstyle.config` at another, or unset it to use the bundled rules".into(),
            ),
            _ => None,
        }
    }
}

/// How Checkstyle is started.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Launch {
    Program(PathBuf),
    Jar(PathBuf),
}

/// A configured Checkstyle: how to start it and which rules to apply.
pub struct Checkstyle {
    runner: Arc<dyn Runner>,
    launch: Launch,
    rules: PathBuf,
}

impl Checkstyle {
    /// Checkstyle for the project at `project_root`, as configured.
    pub fn new(config: &CheckstyleConfig, project_root: &Path, runner: Arc<dyn Runner>) -> Checkstyle {
        let launch = match &config.jar {
            Some(jar) => Launch::Jar(jar.clone()),
            None => Launch::Program(config.path.clone()),
        };
        Checkstyle { runner, launch, rules: rules_file(config, project_root) }
    }

    /// The rule file this Checkstyle applies.
    pub fn rules(&self) -> &Path {
        &self.rules
    }

    fn command(&self) -> Cmd {
        match &self.launch {
            Launch::Program(p) => Cmd::new(p),
            Launch::Jar(jar) => Cmd::new("java").arg("-jar").arg(jar),
        }
    }

    /// Checks `files` (absolute paths) in one run; paths in the result are as Checkstyle prints them.
    pub fn check(&self, files: &[PathBuf]) -> Result<Vec<Violation>, CheckstyleError> {
        if files.is_empty() {
            return Ok(Vec::new());
        }
        if !self.rules.is_file() {
            return Err(CheckstyleError::BadConfig {
                config: self.rules.clone(),
                message: "the file does not exist".into(),
            });
        }
        let props = properties_file(&self.rules)?;
        let cmd = self
            .command()
            .arg("-c")
            .arg(&self.rules)
            .arg("-p")
            .arg(props.path())
            .args(["-f", "xml"])
            .args(files)
            .timeout(TIMEOUT);
        let out = match self.runner.run(&cmd) {
            Ok(out) => out,
            Err(ProcessError::NotFound { program }) => return Err(CheckstyleError::Missing { program }),
            Err(e) => return Err(CheckstyleError::Failed { command: cmd.to_string(), message: e.to_string() }),
        };
        // Checkstyle exits with the number of errors found, so the exit code says nothing; a
        // complete XML document does.
        if let Some(xml) = complete_xml(&out.stdout) {
            return parse_xml(xml).map_err(|e| CheckstyleError::Failed {
                command: cmd.to_string(),
                message: format!("unreadable XML: {e}"),
            });
        }
        let text = format!("{}\n{}", out.stdout, out.stderr);
        let message = checkstyle_message(&text);
        let about_config = text.contains("configuration")
            || text.contains("cannot initialize module")
            || text.contains("config XML file")
            || text.contains("Unable to find:")
            || text.contains("Property '");
        if about_config {
            Err(CheckstyleError::BadConfig { config: self.rules.clone(), message })
        } else {
            Err(CheckstyleError::Failed { command: cmd.to_string(), message })
        }
    }

    /// Checks the `changed` files (relative paths) of both versions in one run and finds what is new.
    /// A file missing from a version (added or deleted by the change) is checked in the other only.
    pub fn review(&self, before: &Path, after: &Path, changed: &[PathBuf]) -> Result<StyleReview, CheckstyleError> {
        let mut files = Vec::new();
        for rel in changed {
            for root in [before, after] {
                let p = root.join(rel);
                if p.is_file() {
                    files.push(p);
                }
            }
        }
        let all = self.check(&files)?;
        let (mut b, mut a) = (Vec::new(), Vec::new());
        for mut v in all {
            match (relative_to(&v.file, before), relative_to(&v.file, after)) {
                // When one root holds the other, the longer (more specific) prefix wins.
                (Some(rb), Some(ra)) => {
                    if before.components().count() > after.components().count() {
                        v.file = rb;
                        b.push(v)
                    } else {
                        v.file = ra;
                        a.push(v)
                    }
                }
                (Some(rb), None) => {
                    v.file = rb;
                    b.push(v)
                }
                (None, Some(ra)) => {
                    v.file = ra;
                    a.push(v)
                }
                (None, None) => tracing::debug!("checkstyle reported an unexpected file {}", v.file.display()),
            }
        }
        let maps: HashMap<PathBuf, HashMap<usize, usize>> = changed
            .iter()
            .filter_map(|rel| {
                let old = std::fs::read_to_string(before.join(rel)).ok()?;
                let new = std::fs::read_to_string(after.join(rel)).ok()?;
                Some((rel.clone(), unchanged_lines(&old, &new)))
            })
            .collect();
        let new = new_violations_mapped(&b, &a, |file, line| maps.get(file)?.get(&line).copied());
        Ok(StyleReview { rules: self.rules.clone(), before: b, after: a, new })
    }
}

/// The rule file: configured, else the project's, else the bundled one.
pub fn rules_file(config: &CheckstyleConfig, project_root: &Path) -> PathBuf {
    if let Some(c) = &config.config {
        return if c.is_absolute() { c.clone() } else { project_root.join(c) };
    }
    if let Some(own) = PROJECT_RULES.iter().map(|r| project_root.join(r)).find(|p| p.is_file()) {
        return own;
    }
    let bundled = match config.builtin {
        BuiltinStyle::Sun => "sun_checks.xml",
        BuiltinStyle::Google => "google_checks.xml",
    };
    Path::new(BUNDLED_RULES).join(bundled)
}

/// A `-p` properties file setting `config_loc`, deleted when dropped (or on an interrupt).
fn properties_file(rules: &Path) -> Result<TempPath, CheckstyleError> {
    let dir = rules.parent().unwrap_or(Path::new("."));
    // Properties files treat `\` as an escape; `:` and `=` in values are fine after the first `=`.
    let value = dir.to_string_lossy().replace('\\', "\\\\");
    TempPath::file("mantra-checkstyle", ".properties", format!("config_loc={value}\n").as_bytes())
        .map_err(|source| CheckstyleError::Io { path: std::env::temp_dir(), source })
}

/// The XML document in Checkstyle's stdout, if it is complete (a run that died prints only its head).
fn complete_xml(stdout: &str) -> Option<&str> {
    let start = stdout.find("<?xml").or_else(|| stdout.find("<checkstyle"))?;
    let end = stdout.rfind("</checkstyle>")? + "</checkstyle>".len();
    (end > start).then(|| &stdout[start..end])
}

/// The violations in Checkstyle's XML output.
pub fn parse_xml(xml: &str) -> Result<Vec<Violation>, roxmltree::Error> {
    let doc = roxmltree::Document::parse(xml)?;
    let mut out = Vec::new();
    for file in doc.descendants().filter(|n| n.has_tag_name("file")) {
        let name = PathBuf::from(file.attribute("name").unwrap_or(""));
        for e in file.children().filter(|n| n.has_tag_name("error")) {
            let source = e.attribute("source").unwrap_or("");
            let short = source.rsplit('.').next().unwrap_or(source);
            out.push(Violation {
                file: name.clone(),
                line: e.attribute("line").and_then(|l| l.parse().ok()).unwrap_or(0),
                column: e.attribute("column").and_then(|c| c.parse().ok()),
                severity: e.attribute("severity").unwrap_or("error").to_string(),
                message: e.attribute("message").unwrap_or("").to_string(),
                check: short.strip_suffix("Check").unwrap_or(short).to_string(),
            });
        }
    }
    Ok(out)
}

/// Checkstyle's own explanation: the `CheckstyleException` line, and the root cause if it adds to it.
fn checkstyle_message(text: &str) -> String {
    let after = |line: &str, marker: &str| line.split_once(marker).map(|(_, m)| m.trim().to_string());
    let main = text.lines().find_map(|l| after(l, "CheckstyleException: "));
    let cause = text.lines().rfind(|l| l.starts_with("Caused by: ")).and_then(|l| {
        // `Caused by: org.xml.sax.SAXParseException; systemId: ...; lineNumber: 2; ...; message`
        l.rsplit_once("; ").map(|(_, m)| m.trim().to_string()).or_else(|| after(l, ": "))
    });
    match (main, cause) {
        (Some(m), Some(c)) if !m.contains(&c) => format!("{m} ({c})"),
        (Some(m), _) => m,
        (None, _) => {
            let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            lines.first().map_or_else(|| "no output".to_string(), |l| l.to_string())
        }
    }
}

fn relative_to(file: &Path, root: &Path) -> Option<PathBuf> {
    if let Ok(r) = file.strip_prefix(root) {
        return Some(r.to_path_buf());
    }
    let canon = root.canonicalize().ok()?;
    file.strip_prefix(&canon).ok().map(Path::to_path_buf)
}

/// For each 1-based line of `new` that the diff keeps unchanged, its 1-based line in `old`.
pub fn unchanged_lines(old: &str, new: &str) -> HashMap<usize, usize> {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut map = HashMap::new();
    for op in diff.ops() {
        if let similar::DiffOp::Equal { old_index, new_index, len } = *op {
            for i in 0..len {
                map.insert(new_index + i + 1, old_index + i + 1);
            }
        }
    }
    map
}

/// The violations of `after` that `before` does not have, by count (see [`new_violations_mapped`]).
pub fn new_violations(before: &[Violation], after: &[Violation]) -> Vec<Violation> {
    new_violations_mapped(before, after, |_, _| None)
}

/// The violations of `after` that are new compared with `before`.
///
/// Violations are the same when they have the same check and message; line numbers are not
/// compared directly, because any edit shifts every line below it. Matching goes in three passes:
/// 1. exactly: an after violation on a line the diff kept unchanged (`unchanged(file, line)` gives
///    its line in the before version) matches a before violation on that line;
/// 2. by count within the file: each remaining before violation of a (check, message) pair absorbs
///    one remaining after violation of the same file and pair, preferring after violations on
///    unchanged lines, then the nearest line; so a file with three "missing Javadoc" before and
///    four after reports one, on the changed code;
/// 3. by count across files: code moved from one file to another (Move Method) takes its
///    violations along; they are not new.
///
/// What is left was introduced by the change.
pub fn new_violations_mapped(
    before: &[Violation],
    after: &[Violation],
    unchanged: impl Fn(&Path, usize) -> Option<usize>,
) -> Vec<Violation> {
    let mut used_before = vec![false; before.len()];
    let mut matched_after = vec![false; after.len()];

    // Pass 1: same line of unchanged text.
    for (ai, a) in after.iter().enumerate() {
        let Some(old_line) = unchanged(&a.file, a.line) else { continue };
        if let Some(bi) = (0..before.len()).find(|&bi| {
            let b = &before[bi];
            !used_before[bi] && b.file == a.file && b.line == old_line && b.check == a.check && b.message == a.message
        }) {
            used_before[bi] = true;
            matched_after[ai] = true;
        }
    }

    // Passes 2 and 3: by (check, message), first within the file, then anywhere; measurements in
    // the message aside (`found 91` and `found 93` are one long line that got a little longer).
    for same_file in [true, false] {
        let mut groups: BTreeMap<(&str, String), Vec<usize>> = BTreeMap::new();
        for (bi, b) in before.iter().enumerate().filter(|(bi, _)| !used_before[*bi]) {
            groups.entry((&b.check, measure_free(&b.message))).or_default().push(bi);
        }
        for (key, bis) in groups {
            for bi in bis {
                let b = &before[bi];
                let best = after
                    .iter()
                    .enumerate()
                    .filter(|(ai, a)| {
                        !matched_after[*ai]
                            && a.check == key.0
                            && measure_free(&a.message) == key.1
                            && (!same_file || a.file == b.file)
                    })
                    .min_by_key(|(_, a)| {
                        let on_changed_line = unchanged(&a.file, a.line).is_none();
                        (a.file != b.file, on_changed_line, a.line.abs_diff(b.line))
                    })
                    .map(|(ai, _)| ai);
                if let Some(ai) = best {
                    matched_after[ai] = true;
                    used_before[bi] = true;
                }
            }
        }
    }

    after.iter().zip(matched_after).filter(|(_, m)| !m).map(|(a, _)| a.clone()).collect()
}

/// A message with its measurements (digit runs outside quotes) replaced by `#`: `Line is longer
/// than 80 characters (found 91).` and `(found 93).` are one; `'7' is a magic number` and `'9'`
/// are not.
fn measure_free(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut quoted = false;
    let mut in_number = false;
    for c in message.chars() {
        if c == '\'' {
            quoted = !quoted;
        }
        if c.is_ascii_digit() && !quoted {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measurements_in_messages_do_not_make_a_violation_new() {
        assert_eq!(
            measure_free("Line is longer than 80 characters (found 91)."),
            "Line is longer than # characters (found #)."
        );
        assert_eq!(measure_free("'7' is a magic number."), "'7' is a magic number.");
        let before = [v("A.java", 10, "LineLength", "Line is longer than 80 characters (found 91).")];
        let after = [v("A.java", 10, "LineLength", "Line is longer than 80 characters (found 93).")];
        assert!(new_violations(&before, &after).is_empty());
    }

    fn v(file: &str, line: usize, check: &str, message: &str) -> Violation {
        Violation {
            file: file.into(),
            line,
            column: None,
            severity: "error".into(),
            message: message.into(),
            check: check.into(),
        }
    }

    #[test]
    fn shifted_lines_are_not_new() {
        let before =
            [v("A.java", 10, "LineLength", "too long"), v("A.java", 20, "MagicNumber", "'7' is a magic number")];
        let after = [
            v("A.java", 14, "LineLength", "too long"),
            v("A.java", 24, "MagicNumber", "'7' is a magic number"),
            v("A.java", 30, "MagicNumber", "'9' is a magic number"),
        ];
        assert_eq!(new_violations(&before, &after), vec![after[2].clone()]);
    }

    #[test]
    fn the_extra_one_is_reported_on_the_changed_line() {
        let before = [v("A.java", 5, "JavadocMethod", "Missing")];
        // Lines 3..=6 are new; the old line 5 is now line 9.
        let after = [v("A.java", 4, "JavadocMethod", "Missing"), v("A.java", 9, "JavadocMethod", "Missing")];
        let map = |_: &Path, l: usize| {
            if (3..=6).contains(&l) {
                None
            } else if l > 6 {
                Some(l - 4)
            } else {
                Some(l)
            }
        };
        assert_eq!(new_violations_mapped(&before, &after, map), vec![after[0].clone()]);
    }

    #[test]
    fn moved_code_takes_its_violations_along() {
        let before = [v("A.java", 5, "FinalParameters", "Parameter x should be final.")];
        let after = [v("B.java", 40, "FinalParameters", "Parameter x should be final.")];
        assert!(new_violations(&before, &after).is_empty());
    }

    #[test]
    fn checkstyle_xml() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<checkstyle version="8.36.1">
<file name="/p/A.java">
<error line="1" severity="error" message="Missing package-info.java file." source="com.puppycrawl.tools.checkstyle.checks.javadoc.JavadocPackageCheck"/>
<error line="16" column="29" severity="warning" message="&apos;amount&apos; hides a field." source="com.puppycrawl.tools.checkstyle.checks.coding.HiddenFieldCheck"/>
</file>
</checkstyle>"#;
        let found = parse_xml(complete_xml(&format!("junk\n{xml}\n")).unwrap()).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[1].check, "HiddenField");
        assert_eq!(found[1].message, "'amount' hides a field.");
        assert_eq!((found[1].line, found[1].column, found[1].severity.as_str()), (16, Some(29), "warning"));
        assert!(complete_xml("<?xml version=\"1.0\"?>\n<checkstyle version=\"8\">\n").is_none());
    }

    #[test]
    fn messages_from_stack_traces() {
        let text = "com.puppycrawl.tools.checkstyle.api.CheckstyleException: unable to parse configuration stream - XML document structures must start and end within the same entity.:2:1\n\tat x\nCaused by: org.xml.sax.SAXParseException; systemId: file:/b.xml; lineNumber: 2; columnNumber: 1; XML document structures must start and end within the same entity.\n";
        assert_eq!(
            checkstyle_message(text),
            "unable to parse configuration stream - XML document structures must start and end within the same entity.:2:1"
        );
    }
}
