//! Test results out of the reports the runners write.
//!
//! Surefire (`target/surefire-reports/TEST-*.xml`), Gradle (`build/test-results/test/*.xml`) and
//! the JUnit console launcher (`--reports-dir`) all write the same "JUnit XML": a `testsuite` of
//! `testcase`s, each with an optional `failure` (an assertion), `error` (any other exception) or
//! `skipped` child. JUnit 4's `JUnitCore` writes no report; its text output is read instead (it
//! lists failures only, so passing tests do not appear).
//!
//! Stack traces are cut to what helps a reader: the exception line, `Caused by:` lines, and the
//! frames of the project's own classes (JUnit, reflection and Maven frames say nothing about the
//! refactoring).

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// How one test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Passed,
    /// An assertion failed.
    Failed,
    /// An exception other than an assertion.
    Error,
    Skipped,
}

impl Outcome {
    pub fn is_failing(self) -> bool {
        matches!(self, Outcome::Failed | Outcome::Error)
    }
}

/// One test case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    /// `a.b.FooTest#method` (parameterised cases keep their index: `method{String}[1]`).
    pub id: String,
    pub outcome: Outcome,
    pub message: Option<String>,
    /// Trimmed to the exception line, `Caused by:` lines and the project's frames.
    pub stack_trace: Option<String>,
    pub time_secs: Option<f64>,
}

impl TestResult {
    /// The test class: `a.b.FooTest`.
    pub fn class(&self) -> &str {
        self.id.split_once('#').map_or(&self.id, |(c, _)| c)
    }

    /// The id a runner can select this test by: `a.b.FooTest#method` without parameters or index.
    pub fn selector(&self) -> String {
        match self.id.split_once('#') {
            Some((class, name)) => {
                let method = name.split(['(', '{', '[']).next().unwrap_or(name);
                if method.is_empty() { class.to_string() } else { format!("{class}#{method}") }
            }
            None => self.id.clone(),
        }
    }
}

/// Every test case in the `*.xml` reports of `dir` (nothing when it does not exist), sorted by id.
pub fn read_dir(dir: &Path, packages: &BTreeSet<String>) -> Vec<TestResult> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "xml") {
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(text) => match parse_xml(&text, packages) {
                Ok(results) => out.extend(results),
                Err(e) => tracing::warn!("cannot read test report {}: {e}", path.display()),
            },
            Err(e) => tracing::warn!("cannot read test report {}: {e}", path.display()),
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

/// The test cases of one JUnit XML report.
pub fn parse_xml(text: &str, packages: &BTreeSet<String>) -> Result<Vec<TestResult>, roxmltree::Error> {
    let doc = roxmltree::Document::parse(text)?;
    let mut out = Vec::new();
    for case in doc.descendants().filter(|n| n.has_tag_name("testcase")) {
        let class = case.attribute("classname").unwrap_or("");
        let mut name = case.attribute("name").unwrap_or("").to_string();
        // The console launcher names methods `m()`; Surefire and Gradle write `m`.
        if let Some(bare) = name.strip_suffix("()") {
            name = bare.to_string();
        }
        let child = |tag: &str| case.children().find(|c| c.has_tag_name(tag));
        let (outcome, detail) = if let Some(f) = child("failure") {
            (Outcome::Failed, Some(f))
        } else if let Some(e) = child("error") {
            (Outcome::Error, Some(e))
        } else if let Some(s) = child("skipped") {
            (Outcome::Skipped, Some(s))
        } else {
            (Outcome::Passed, None)
        };
        let message = detail.and_then(|d| d.attribute("message")).map(str::to_string);
        let stack_trace = detail
            .filter(|_| outcome.is_failing())
            .and_then(|d| d.text())
            .map(|t| trim_stack(t, packages))
            .filter(|t| !t.is_empty());
        out.push(TestResult {
            id: format!("{class}#{name}"),
            outcome,
            message,
            stack_trace,
            time_secs: case.attribute("time").and_then(|t| t.parse().ok()),
        });
    }
    Ok(out)
}

/// Failures out of JUnit 4's `JUnitCore` text:
/// ```text
/// There was 1 failure:
/// 1) testName(a.b.FooTest)
/// java.lang.AssertionError: expected:<1> but was:<2>
///     at ...
/// ```
pub fn parse_junitcore(output: &str, packages: &BTreeSet<String>) -> Vec<TestResult> {
    let lines: Vec<&str> = output.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(id) = junitcore_header(lines[i]) else {
            i += 1;
            continue;
        };
        let mut trace = Vec::new();
        i += 1;
        while i < lines.len() && junitcore_header(lines[i]).is_none() && !is_junitcore_summary(lines[i]) {
            trace.push(lines[i]);
            i += 1;
        }
        let trace = trace.join("\n");
        let first = trace.lines().next().unwrap_or("");
        let is_assertion = first.starts_with("java.lang.AssertionError")
            || first.starts_with("org.junit.ComparisonFailure")
            || first.starts_with("junit.framework.");
        let message = first.split_once(": ").map(|(_, m)| m.to_string());
        out.push(TestResult {
            id,
            outcome: if is_assertion { Outcome::Failed } else { Outcome::Error },
            message,
            stack_trace: Some(trim_stack(&trace, packages)).filter(|t| !t.is_empty()),
            time_secs: None,
        });
    }
    out
}

/// `1) method(a.b.FooTest)` → `a.b.FooTest#method`.
fn junitcore_header(line: &str) -> Option<String> {
    let (n, rest) = line.split_once(") ")?;
    if n.is_empty() || !n.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (method, class) = rest.strip_suffix(')')?.rsplit_once('(')?;
    Some(format!("{class}#{method}"))
}

fn is_junitcore_summary(line: &str) -> bool {
    line.starts_with("FAILURES!!!") || line.starts_with("Tests run:") || line.starts_with("OK (")
}

/// The counts in JUnitCore's last line: `OK (13 tests)` or `Tests run: 13,  Failures: 1`.
pub fn junitcore_total(output: &str) -> Option<usize> {
    output.lines().rev().find_map(|l| {
        if let Some(rest) = l.strip_prefix("OK (") {
            return rest.split_whitespace().next()?.parse().ok();
        }
        l.strip_prefix("Tests run: ")?.split(',').next()?.trim().parse().ok()
    })
}

/// Keeps the exception line(s), `Caused by:` lines and frames of classes in `packages`.
pub fn trim_stack(trace: &str, packages: &BTreeSet<String>) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut header_done = false;
    for line in trace.lines() {
        let t = line.trim_start();
        if let Some(frame) = t.strip_prefix("at ") {
            header_done = true;
            if frame_package(frame).is_some_and(|p| packages.contains(p)) {
                out.push(line.trim_end());
            }
        } else if t.starts_with("Caused by:") {
            out.push(line.trim_end());
        } else if !header_done && out.is_empty() && !t.is_empty() {
            // The first line of the trace: the exception and its message.
            out.push(line.trim_end());
        }
    }
    out.join("\n")
}

/// `a.b.Foo$1.run(Foo.java:12)` → `a.b`; a default-package class → ``.
fn frame_package(frame: &str) -> Option<&str> {
    let call = frame.split('(').next()?;
    // Module-qualified frames: `java.base/java.lang.Thread.run(...)`.
    let call = call.rsplit('/').next()?;
    let (class, _method) = call.rsplit_once('.')?;
    Some(class.rsplit_once('.').map_or("", |(p, _)| p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkgs() -> BTreeSet<String> {
        ["com.acme".to_string()].into()
    }

    #[test]
    fn surefire_and_console_launcher_xml() {
        let xml = r#"<?xml version="1.0"?><testsuite name="x">
          <testcase name="ok" classname="com.acme.FooTest" time="0.01"/>
          <testcase name="bad()" classname="com.acme.FooTest"><failure message="expected: &lt;1&gt;" type="A"><![CDATA[org.opentest4j.AssertionFailedError: expected: <1>
	at org.junit.Assert.fail(Assert.java:1)
	at com.acme.FooTest.bad(FooTest.java:9)
	at java.base/jdk.internal.reflect.X.invoke(X.java:1)
]]></failure></testcase>
          <testcase name="boom" classname="com.acme.FooTest"><error message="npe" type="java.lang.NullPointerException">java.lang.NullPointerException: npe
	at com.acme.Foo$1.run(Foo.java:3)
Caused by: java.lang.IllegalStateException: x
	at com.acme.Foo.init(Foo.java:1)
	... 3 more</error></testcase>
          <testcase name="later" classname="com.acme.FooTest"><skipped/></testcase>
        </testsuite>"#;
        let r = parse_xml(xml, &pkgs()).unwrap();
        assert_eq!(r.len(), 4);
        assert_eq!((r[0].id.as_str(), r[0].outcome), ("com.acme.FooTest#ok", Outcome::Passed));
        assert_eq!((r[1].id.as_str(), r[1].outcome), ("com.acme.FooTest#bad", Outcome::Failed));
        assert_eq!(r[1].message.as_deref(), Some("expected: <1>"));
        assert_eq!(
            r[1].stack_trace.as_deref(),
            Some("org.opentest4j.AssertionFailedError: expected: <1>\n\tat com.acme.FooTest.bad(FooTest.java:9)")
        );
        assert_eq!(r[2].outcome, Outcome::Error);
        assert_eq!(
            r[2].stack_trace.as_deref(),
            Some(
                "java.lang.NullPointerException: npe\n\tat com.acme.Foo$1.run(Foo.java:3)\nCaused by: java.lang.IllegalStateException: x\n\tat com.acme.Foo.init(Foo.java:1)"
            )
        );
        assert_eq!(r[3].outcome, Outcome::Skipped);
    }

    #[test]
    fn junitcore_text() {
        let out = "JUnit version 4.13.2\n..E\nTime: 0.01\nThere was 1 failure:\n1) adds(com.acme.CalcTest)\njava.lang.AssertionError: expected:<4> but was:<5>\n\tat org.junit.Assert.fail(Assert.java:89)\n\tat com.acme.CalcTest.adds(CalcTest.java:12)\n\nFAILURES!!!\nTests run: 3,  Failures: 1\n\n";
        let r = parse_junitcore(out, &pkgs());
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].id.as_str(), r[0].outcome), ("com.acme.CalcTest#adds", Outcome::Failed));
        assert_eq!(r[0].message.as_deref(), Some("expected:<4> but was:<5>"));
        assert_eq!(
            r[0].stack_trace.as_deref(),
            Some("java.lang.AssertionError: expected:<4> but was:<5>\n\tat com.acme.CalcTest.adds(CalcTest.java:12)")
        );
        assert_eq!(junitcore_total(out), Some(3));
        assert_eq!(junitcore_total("OK (13 tests)\n"), Some(13));
    }

    #[test]
    fn selectors_drop_parameters() {
        let t = |id: &str| TestResult {
            id: id.into(),
            outcome: Outcome::Failed,
            message: None,
            stack_trace: None,
            time_secs: None,
        };
        assert_eq!(t("a.B#f{String}[1]").selector(), "a.B#f");
        assert_eq!(t("a.B#g(int)[2]").selector(), "a.B#g");
        assert_eq!(t("a.B#").selector(), "a.B");
        assert_eq!(t("a.B#h").class(), "a.B");
    }
}
