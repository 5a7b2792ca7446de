//! Compiler errors out of build output, in the three shapes javac's messages arrive in.
//!
//! - javac itself, and Gradle, which passes javac's text through:
//!   ```text
//!   src/a/B.java:12: error: cannot find symbol
//!           return y;
//!                  ^
//!     symbol:   variable y
//!   ```
//!   The column is the caret's position; the detail lines (`symbol:`, `location:`) join the message.
//! - Maven's compiler plugin, which reformats them (once in the build log, once in the failure
//!   summary, the second time with `[ERROR]` before every detail line):
//!   `[ERROR] /abs/src/a/B.java:[12,16] cannot find symbol`. Maven prints no source line, so it is
//!   read from the file.
//!
//! Paths become relative to the project folder; the same error reported twice is kept once.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// One compiler error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Relative to the project folder when the file is inside it.
    pub file: PathBuf,
    /// 1-based.
    pub line: usize,
    /// 1-based; `None` when the tool gave none.
    pub column: Option<usize>,
    /// The message with its detail lines (`symbol: ...`), joined by newlines.
    pub message: String,
    /// The offending source line, as in the file.
    pub source_line: Option<String>,
}

/// Every compiler error in `output` (ANSI codes already removed); `dir` is the project folder.
pub fn parse(output: &str, dir: &Path) -> Vec<Diagnostic> {
    let lines: Vec<&str> = output.lines().collect();
    let mut out: Vec<Diagnostic> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (found, next) = if let Some(d) = maven_header(lines[i]) {
            let (details, next) = details(&lines, i + 1, true);
            (Some(with_details(d, details)), next)
        } else if let Some(mut d) = javac_header(lines[i]) {
            let mut next = i + 1;
            // Source line, then a caret line marking the column.
            if let (Some(src), Some(caret)) = (lines.get(i + 1), lines.get(i + 2))
                && let Some(pos) = caret_column(caret)
            {
                d.source_line = Some(src.to_string());
                d.column = Some(pos);
                next = i + 3;
            }
            let (details, next) = details(&lines, next, false);
            (Some(with_details(d, details)), next)
        } else {
            (None, i + 1)
        };
        if let Some(mut d) = found {
            d.file = relative(&d.file, dir);
            if d.source_line.is_none() {
                d.source_line = read_line(&dir.join(&d.file), d.line);
            }
            let first = |m: &str| m.lines().next().unwrap_or("").to_string();
            let dup = out.iter().any(|o| {
                o.file == d.file && o.line == d.line && o.column == d.column && first(&o.message) == first(&d.message)
            });
            if !dup {
                out.push(d);
            }
        }
        i = next;
    }
    out
}

/// `[ERROR] /abs/B.java:[12,16] message` (Maven).
fn maven_header(line: &str) -> Option<Diagnostic> {
    let rest = line.strip_prefix("[ERROR] ")?.trim_start();
    let (file, rest) = rest.split_once(".java:[")?;
    let (pos, message) = rest.split_once("] ")?;
    let (l, c) = pos.split_once(',').unwrap_or((pos, ""));
    Some(Diagnostic {
        file: PathBuf::from(format!("{file}.java")),
        line: l.trim().parse().ok()?,
        column: c.trim().parse().ok(),
        message: message.trim().to_string(),
        source_line: None,
    })
}

/// `path/B.java:12: error: message` (javac, Gradle).
fn javac_header(line: &str) -> Option<Diagnostic> {
    let (file, rest) = line.split_once(".java:")?;
    let (l, rest) = rest.split_once(": error: ")?;
    Some(Diagnostic {
        file: PathBuf::from(format!("{file}.java")),
        line: l.trim().parse().ok()?,
        column: None,
        message: rest.trim().to_string(),
        source_line: None,
    })
}

/// The 1-based column of a caret line (`       ^`), if it is one.
fn caret_column(line: &str) -> Option<usize> {
    let trimmed = line.trim_end();
    let pos = trimmed.find('^')?;
    (trimmed.len() == pos + 1 && trimmed[..pos].chars().all(char::is_whitespace))
        .then(|| trimmed[..pos].chars().count() + 1)
}

/// Detail lines (`  symbol:   variable y`) after a header; returns them and the next index.
fn details(lines: &[&str], mut i: usize, maven: bool) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    while let Some(line) = lines.get(i) {
        let body = if maven { line.strip_prefix("[ERROR]").unwrap_or(line) } else { line };
        let is_detail = body.starts_with("  ")
            && body.trim_start().split_once(':').is_some_and(|(k, _)| {
                !k.is_empty() && k.len() < 20 && k.chars().all(|c| c.is_ascii_alphabetic() || c == ' ')
            });
        if !is_detail {
            break;
        }
        out.push(body.trim().to_string());
        i += 1;
    }
    (out, i)
}

fn with_details(mut d: Diagnostic, details: Vec<String>) -> Diagnostic {
    for line in details {
        d.message.push('\n');
        d.message.push_str(&line);
    }
    d
}

/// `file` relative to `dir` when it lies inside it (comparing canonical forms too: `/tmp` may be a link).
fn relative(file: &Path, dir: &Path) -> PathBuf {
    if let Ok(rel) = file.strip_prefix(dir) {
        return rel.to_path_buf();
    }
    if let (Ok(f), Ok(d)) = (file.canonicalize(), dir.canonicalize())
        && let Ok(rel) = f.strip_prefix(&d)
    {
        return rel.to_path_buf();
    }
    file.to_path_buf()
}

fn read_line(path: &Path, line: usize) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().nth(line.checked_sub(1)?).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javac_format_with_caret_and_details() {
        let out = "src/a/B.java:3: error: cannot find symbol\n        return y;\n               ^\n  symbol:   variable y\n  location: class B\n1 error\n";
        let d = parse(out, Path::new("/nonexistent"));
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].file, PathBuf::from("src/a/B.java"));
        assert_eq!((d[0].line, d[0].column), (3, Some(16)));
        assert_eq!(d[0].message, "cannot find symbol\nsymbol:   variable y\nlocation: class B");
        assert_eq!(d[0].source_line.as_deref(), Some("        return y;"));
    }

    #[test]
    fn maven_format_deduplicated_and_relative() {
        let out = "[ERROR] COMPILATION ERROR : \n[ERROR] /p/src/B.java:[28,66] cannot find symbol\n  symbol:   variable u\n  location: class a.B\n[ERROR] Failed to execute goal x: Compilation failure\n[ERROR] /p/src/B.java:[28,66] cannot find symbol\n[ERROR]   symbol:   variable u\n[ERROR]   location: class a.B\n[ERROR] -> [Help 1]\n";
        let d = parse(out, Path::new("/p"));
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].file, PathBuf::from("src/B.java"));
        assert_eq!((d[0].line, d[0].column), (28, Some(66)));
        assert_eq!(d[0].message, "cannot find symbol\nsymbol:   variable u\nlocation: class a.B");
    }

    #[test]
    fn warnings_and_noise_are_not_errors() {
        let out = "src/B.java:3: warning: [rawtypes] found raw type\n[WARNING] /p/B.java:[1,2] x\nBUILD FAILED\n";
        assert!(parse(out, Path::new("/p")).is_empty());
    }
}
