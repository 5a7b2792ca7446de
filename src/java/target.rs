//! Targets: how a user names one method on the command line, and how that name becomes a [`MethodId`].
//!
//! Forms, after `path/To.java:`
//! - `method`, `method(int,String)` (overloads by parameter types: simple names, generics erased,
//!   varargs as `String...`), `Outer.Inner#method`, `<init>` / `<init>(int)` or the class's name
//!   (`Foo(int)`) for constructors;
//! - `123`: the innermost method whose declaration (Javadoc included) encloses line 123.
//!
//! The path is relative to the current directory or to the repository root. Every way a target can
//! be wrong has its own [`TargetError`] with the exit code and a hint saying what to type instead.

use std::path::{Path, PathBuf};

use crate::error::Classify;
use crate::exit::Exit;

use super::JavaError;
use super::project::{FileId, MethodId, Project};
use super::symbols::MethodDecl;

/// What follows the `:` of a target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    /// The method enclosing this 1-based line.
    Line(usize),
    Method {
        /// `Outer.Inner` before a `#`, if given.
        type_path: Option<String>,
        /// The method name, or `<init>` for constructors.
        name: String,
        /// Parameter types if given, normalised: simple names, no generics, `String...` → `String[]`.
        params: Option<Vec<String>>,
    },
}

/// A target split into its file (as typed) and selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetSpec {
    pub path: String,
    pub selector: Selector,
}

/// A resolved target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub method: MethodId,
}

/// Why a target does not name exactly one method.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    #[error("malformed target `{spec}`: {why}")]
    Malformed { spec: String, why: String },
    #[error("no such file: {path}")]
    FileNotFound { path: String, tried: Vec<PathBuf> },
    #[error("{path} is a directory, not a Java file")]
    Directory { path: String },
    #[error("{path} is not a .java file")]
    NotJava { path: String },
    #[error("{path} is outside the repository {}", repo.display())]
    OutsideRepository { path: String, repo: PathBuf },
    #[error("{path} is not one of the project's source files (ignored, or under target/ or build/)")]
    NotInProject { path: String },
    #[error("{path} has a syntax error at line {line}, column {column}: {snippet}")]
    Syntax { path: String, line: usize, column: usize, snippet: String },
    #[error("no type `{name}` in {path} (it declares: {})", declared.join(", "))]
    NoSuchType { path: String, name: String, declared: Vec<String> },
    #[error("no method `{name}` in {path}{}", closest_text(closest))]
    NoSuchMethod { path: String, name: String, closest: Vec<String> },
    #[error("no method encloses line {line} of {path}{}", closest_text(closest))]
    NoMethodAtLine { path: String, line: usize, closest: Vec<String> },
    #[error("line {line} is outside {path}, which has {lines} lines")]
    LineOutOfRange { path: String, line: usize, lines: usize },
    #[error("`{name}` is ambiguous in {path}; it matches {} methods:\n{}", candidates.len(), candidates.iter().map(|c| format!("  {c}")).collect::<Vec<_>>().join("\n"))]
    Ambiguous { path: String, name: String, candidates: Vec<String> },
    #[error(transparent)]
    Java(#[from] JavaError),
}

fn closest_text(closest: &[String]) -> String {
    if closest.is_empty() { String::new() } else { format!("; closest: {}", closest.join(", ")) }
}

impl Classify for TargetError {
    fn exit(&self) -> Exit {
        match self {
            TargetError::FileNotFound { .. }
            | TargetError::NoSuchType { .. }
            | TargetError::NoSuchMethod { .. }
            | TargetError::NoMethodAtLine { .. }
            | TargetError::LineOutOfRange { .. } => Exit::TargetNotFound,
            TargetError::Syntax { .. } => Exit::InvalidInput,
            TargetError::Java(e) => e.exit(),
            _ => Exit::Usage,
        }
    }

    fn hint(&self) -> Option<String> {
        Some(match self {
            TargetError::Malformed { .. } => {
                "write `path/To.java:method`, `path/To.java:method(int,String)`, `path/To.java:Outer.Inner#method`, \
                 `path/To.java:<init>` or `path/To.java:123`"
                    .into()
            }
            TargetError::FileNotFound { tried, .. } => format!(
                "paths are relative to the current directory or the repository root; tried {}",
                tried.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
            ),
            TargetError::Directory { .. } => "name a .java file inside it, e.g. `dir/Foo.java:method`".into(),
            TargetError::NotJava { .. } => "mantra refactors Java: name a .java file".into(),
            TargetError::OutsideRepository { .. } => {
                "pass `--repo <dir>` with the root of the project that contains the file".into()
            }
            TargetError::NotInProject { .. } => {
                "mantra analyses the project's own sources; pick a tracked .java file".into()
            }
            TargetError::Syntax { .. } => "fix the syntax error (does the file compile?) and run mantra again".into(),
            TargetError::NoSuchType { .. } => "write nested types as `Outer.Inner#method`".into(),
            TargetError::NoSuchMethod { .. } | TargetError::NoMethodAtLine { .. } => {
                "check the spelling, or use `path/To.java:<line>` to pick the method by line".into()
            }
            TargetError::LineOutOfRange { .. } => "give a line inside the method's declaration".into(),
            TargetError::Ambiguous { path, name, .. } => {
                format!("add the parameter types (e.g. `{path}:{name}(int,String)`) or give a line number")
            }
            TargetError::Java(e) => return e.hint(),
        })
    }
}

/// Splits `path/To.java:selector`.
pub fn parse(spec: &str) -> Result<TargetSpec, TargetError> {
    let malformed = |why: &str| TargetError::Malformed { spec: spec.to_string(), why: why.to_string() };
    let (path, sel) = match spec.find(".java:") {
        Some(i) => (&spec[..i + 5], &spec[i + 6..]),
        None => match spec.rsplit_once(':') {
            Some((p, s)) => (p, s),
            None if spec.ends_with(".java") => return Err(malformed("the method is missing after the file")),
            None => return Err(malformed("expected `path/To.java:method`")),
        },
    };
    if path.is_empty() {
        return Err(malformed("the file is missing before `:`"));
    }
    Ok(TargetSpec { path: path.to_string(), selector: parse_selector(sel).map_err(|why| malformed(&why))? })
}

fn parse_selector(sel: &str) -> Result<Selector, String> {
    let sel = sel.trim();
    if sel.is_empty() {
        return Err("the method is missing after `:`".into());
    }
    if sel.bytes().all(|b| b.is_ascii_digit()) {
        return sel.parse().map(Selector::Line).map_err(|_| format!("`{sel}` is not a line number"));
    }
    let (head, params) = match sel.find('(') {
        Some(i) => {
            let Some(inner) = sel[i + 1..].strip_suffix(')') else {
                return Err("the parameter list must end with `)`".into());
            };
            (&sel[..i], Some(super::split_top_level(inner).into_iter().map(normalize_param).collect::<Vec<_>>()))
        }
        None => (sel, None),
    };
    let (type_path, name) = match head.rsplit_once('#') {
        Some((t, n)) => (Some(t.to_string()).filter(|t| !t.is_empty()), n),
        None => (None, head),
    };
    let valid = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if name != "<init>" && !valid(name) {
        return Err(format!("`{name}` is not a method name"));
    }
    if let Some(t) = &type_path
        && !t.split('.').all(valid)
    {
        return Err(format!("`{t}` is not a type name"));
    }
    Ok(Selector::Method { type_path, name: name.to_string(), params })
}

/// `java.util.List<String>` → `List`, `String...` → `String[]`, `final int x` → `int`.
fn normalize_param(p: &str) -> String {
    let mut base = String::new();
    let mut depth = 0;
    for c in p.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 => base.push(c),
            _ => {}
        }
    }
    let base = base.replace("...", "[]");
    // a name after the type (`int x`) or a `final` before it is tolerated
    let words: Vec<&str> = base.split_whitespace().filter(|w| *w != "final").collect();
    let ty = match words.as_slice() {
        [t, name] if !name.starts_with('[') => (*t).to_string(),
        ws => ws.concat(),
    };
    let dims = ty.matches("[]").count();
    let simple = ty.trim_end_matches("[]").rsplit('.').next().unwrap_or("").to_string();
    simple + &"[]".repeat(dims)
}

/// A file of `project` named as a target's path is (relative paths from `cwd`, then the root),
/// for the commands that take a FILE rather than a method (`rename`, `wire`).
pub fn project_file(project: &Project, cwd: &Path, path: &Path) -> Result<FileId, TargetError> {
    let rel = locate(project.root(), cwd, path)?;
    project.file_id(&rel).ok_or_else(|| TargetError::NotInProject { path: rel.display().to_string() })
}

/// Resolves a target string against `project`, with relative paths taken from `cwd` then the root.
pub fn resolve(project: &Project, cwd: &Path, spec: &str) -> Result<Target, TargetError> {
    let parsed = parse(spec)?;
    let fid = project_file(project, cwd, Path::new(&parsed.path))?;
    let shown = project.path(fid).display().to_string();
    let file = project.file(fid)?;
    if let Some(err) = file.source.syntax_error() {
        return Err(TargetError::Syntax { path: shown, line: err.line, column: err.column, snippet: err.snippet });
    }
    let methods = project.methods_in(fid)?;
    let describe = |m: MethodId| describe(project, m);
    match parsed.selector {
        Selector::Line(line) => {
            let lines = file.source.line_count();
            if line == 0 || line > lines {
                return Err(TargetError::LineOutOfRange { path: shown, line, lines });
            }
            let enclosing = methods
                .iter()
                .copied()
                .filter(|&m| {
                    let d = project.method(m);
                    let start = d.javadoc_span.map_or(d.span.start_line, |j| j.start_line);
                    start <= line && line <= d.span.end_line
                })
                .min_by_key(|&m| project.method(m).span.end_byte - project.method(m).span.start_byte);
            match enclosing {
                Some(method) => Ok(Target { method }),
                None => {
                    let mut near: Vec<MethodId> = methods.clone();
                    near.sort_by_key(|&m| project.method(m).span.start_line.abs_diff(line));
                    let closest = near.into_iter().take(3).map(describe).collect();
                    Err(TargetError::NoMethodAtLine { path: shown, line, closest })
                }
            }
        }
        Selector::Method { type_path, name, params } => {
            let in_type: Vec<MethodId> = match &type_path {
                None => methods.clone(),
                Some(tp) => {
                    let owners: Vec<u32> = file
                        .symbols
                        .types
                        .iter()
                        .enumerate()
                        .filter(|(_, t)| t.display == *tp || t.display.ends_with(&format!(".{tp}")))
                        .map(|(i, _)| i as u32)
                        .collect();
                    if owners.is_empty() {
                        let declared = file.symbols.types.iter().map(|t| t.display.clone()).collect();
                        return Err(TargetError::NoSuchType { path: shown, name: tp.clone(), declared });
                    }
                    methods.iter().copied().filter(|&m| owners.contains(&project.method(m).owner)).collect()
                }
            };
            let named: Vec<MethodId> = in_type
                .iter()
                .copied()
                .filter(|&m| {
                    let d = project.method(m);
                    // A constructor also answers to its class's name, as Java writes it.
                    if name == "<init>" { d.is_constructor() } else { d.name == name }
                })
                .collect();
            let matching: Vec<MethodId> = match &params {
                None => named.clone(),
                Some(ps) => named.iter().copied().filter(|&m| params_match(project.method(m), ps)).collect(),
            };
            let label = match &params {
                Some(ps) => format!("{name}({})", ps.join(",")),
                None => name.clone(),
            };
            match matching.len() {
                1 => Ok(Target { method: matching[0] }),
                0 => {
                    let closest = if named.is_empty() {
                        closest_methods(project, &in_type, &name).into_iter().map(describe).collect()
                    } else {
                        named.into_iter().map(describe).collect()
                    };
                    Err(TargetError::NoSuchMethod { path: shown, name: label, closest })
                }
                _ => Err(TargetError::Ambiguous {
                    path: shown,
                    name: label,
                    candidates: matching.into_iter().map(describe).collect(),
                }),
            }
        }
    }
}

/// `Outer.Inner#name(int, String) (line 12)`: how a method is listed in errors.
fn describe(project: &Project, m: MethodId) -> String {
    let d = project.method(m);
    let owner = &project.type_decl(project.owner(m)).display;
    format!("{owner}#{} (line {})", d.signature(), d.span.start_line)
}

fn params_match(m: &MethodDecl, given: &[String]) -> bool {
    m.params.len() == given.len()
        && m.params.iter().zip(given).all(|(p, g)| {
            let erased = p.ty.erased();
            erased == *g || (p.generic && (g == "Object" || g.trim_end_matches("[]") == "Object"))
        })
}

/// The methods whose names are within a small edit distance of `name`, nearest first (at most 3).
fn closest_methods(project: &Project, methods: &[MethodId], name: &str) -> Vec<MethodId> {
    let wanted = name.to_lowercase();
    let mut scored: Vec<(usize, MethodId)> = methods
        .iter()
        .map(|&m| (crate::text::edit_distance(&wanted, &project.method(m).name.to_lowercase()), m))
        .filter(|(d, _)| *d <= 1.max(name.chars().count() / 3))
        .collect();
    scored.sort_by_key(|(d, m)| (*d, *m));
    scored.into_iter().map(|(_, m)| m).take(3).collect()
}

/// Finds the file a target names and checks it is a Java file inside the repository.
fn locate(root: &Path, cwd: &Path, given: &Path) -> Result<PathBuf, TargetError> {
    let path = given.display().to_string();
    let tried: Vec<PathBuf> =
        if given.is_absolute() { vec![given.to_path_buf()] } else { vec![cwd.join(given), root.join(given)] };
    let Some(found) = tried.iter().find(|p| p.exists()) else {
        let mut tried = tried;
        tried.dedup();
        return Err(TargetError::FileNotFound { path, tried });
    };
    if found.is_dir() {
        return Err(TargetError::Directory { path });
    }
    if found.extension().is_none_or(|e| e != "java") {
        return Err(TargetError::NotJava { path });
    }
    let canonical = found.canonicalize().unwrap_or_else(|_| found.clone());
    let root_canonical = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    match canonical.strip_prefix(&root_canonical) {
        Ok(rel) => Ok(rel.to_path_buf()),
        Err(_) => Err(TargetError::OutsideRepository { path, repo: root.to_path_buf() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::java::project::tests::project;

    #[test]
    fn parses_every_form() {
        let m = |t: Option<&str>, n: &str, p: Option<&[&str]>| Selector::Method {
            type_path: t.map(String::from),
            name: n.into(),
            params: p.map(|p| p.iter().map(|s| s.to_string()).collect()),
        };
        assert_eq!(parse("a/B.java:run").expect("ok").selector, m(None, "run", None));
        assert_eq!(parse("a/B.java:42").expect("ok").selector, Selector::Line(42));
        assert_eq!(
            parse("B.java:run(int, java.util.Map<K, V>, String...)").expect("ok").selector,
            m(None, "run", Some(&["int", "Map", "String[]"]))
        );
        assert_eq!(parse("B.java:Outer.Inner#go()").expect("ok").selector, m(Some("Outer.Inner"), "go", Some(&[])));
        assert_eq!(parse("B.java:<init>(int)").expect("ok").selector, m(None, "<init>", Some(&["int"])));
        assert!(matches!(parse("B.java"), Err(TargetError::Malformed { .. })));
        assert!(matches!(parse("B.java:"), Err(TargetError::Malformed { .. })));
        assert!(matches!(parse("B.java:run(int"), Err(TargetError::Malformed { .. })));
    }

    #[test]
    fn resolves_overloads_constructors_nested_and_lines() {
        let (d, p) = project(&[(
            "src/A.java",
            "class A<T> {\n  A() {}\n  A(int x) {}\n  void f(int a) {}\n  void f(String s) {}\n  \
             void g(java.util.List<String> xs, T t, String... rest) {}\n  static class In { void f() {} }\n  \
             enum E { X { void h() {} }; void h() {} }\n  interface I { default void d() {} }\n  record R(int a) { R { } }\n}\n",
        )]);
        let cwd = d.path();
        let name = |spec: &str| {
            let t = resolve(&p, cwd, spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            let m = p.method(t.method);
            format!("{}#{}", p.type_decl(p.owner(t.method)).display, m.signature())
        };
        assert_eq!(name("src/A.java:f(int)"), "A#f(int)");
        assert_eq!(name("src/A.java:f(String)"), "A#f(String)");
        assert_eq!(name("src/A.java:g(List,Object,String...)"), "A#g(java.util.List<String>, T, String...)");
        assert_eq!(name("src/A.java:g"), "A#g(java.util.List<String>, T, String...)");
        assert_eq!(name("src/A.java:A#<init>(int)"), "A#A(int)");
        assert_eq!(name("src/A.java:In#f"), "A.In#f()");
        assert_eq!(name("src/A.java:A.E#h"), "A.E#h()");
        assert_eq!(name("src/A.java:E$1#h"), "A.E$1#h()");
        assert_eq!(name("src/A.java:d"), "A.I#d()");
        assert_eq!(name("src/A.java:R#<init>"), "A.R#R(int)");
        // A constructor answers to its class's name too, as Java writes it.
        assert_eq!(name("src/A.java:A(int)"), "A#A(int)");
        assert_eq!(name("src/A.java:R"), "A.R#R(int)");
        assert!(
            matches!(resolve(&p, cwd, "src/A.java:A"), Err(TargetError::Ambiguous { candidates, .. }) if candidates.len() == 2)
        );
        assert_eq!(name("src/A.java:5"), "A#f(String)");
        assert!(
            matches!(resolve(&p, cwd, "src/A.java:f"), Err(TargetError::Ambiguous { candidates, .. }) if candidates.len() == 3)
        );
        assert!(matches!(resolve(&p, cwd, "src/A.java:<init>"), Err(TargetError::Ambiguous { .. })));
        match resolve(&p, cwd, "src/A.java:gg") {
            Err(TargetError::NoSuchMethod { closest, .. }) => {
                assert_eq!(closest, ["A#g(java.util.List<String>, T, String...) (line 6)"])
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(resolve(&p, cwd, "src/A.java:1"), Err(TargetError::NoMethodAtLine { .. })));
        assert!(matches!(resolve(&p, cwd, "src/A.java:99"), Err(TargetError::LineOutOfRange { .. })));
        assert!(matches!(resolve(&p, cwd, "src/A.java:Nope#f"), Err(TargetError::NoSuchType { .. })));
        assert!(matches!(resolve(&p, cwd, "src/Missing.java:f"), Err(TargetError::FileNotFound { .. })));
        assert!(matches!(resolve(&p, cwd, "src:f"), Err(TargetError::Directory { .. })));
    }
}
