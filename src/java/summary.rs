//! The project at a glance: build system, roots, packages with their classes, counts, broken files.
//!
//! This is what an agent reads first to orient itself, and what `mantra analyze --project` prints.
//! [`Project::summary`] parses every file (in parallel); [`Project::scanned_summary`], shown beside
//! every analysed method, counts from a lexical pass instead, because parsing a whole project cost
//! more than the rest of the analysis. Files with syntax errors are counted and listed, never fatal.

use std::collections::BTreeMap;

use serde::Serialize;

use rayon::prelude::*;

use super::JavaError;
use super::layout::BuildSystem;
use super::lexical;
use super::project::{FileId, Project, copy_error};
use super::source::SyntaxError;
use super::symbols::TypeKind;

/// One package: how many files and named types (classes, interfaces, enums, records, annotations).
#[derive(Debug, Clone, Serialize)]
pub struct PackageSummary {
    /// `a.b.c`; empty for the default package.
    pub name: String,
    pub files: usize,
    pub classes: usize,
}

/// A file that could not be read, or that parses with errors.
#[derive(Debug, Clone, Serialize)]
pub struct FileProblem {
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// How a summary counted types and methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CountedBy {
    /// Every file parsed.
    Parse,
    /// The lexical pass of [`super::lexical`]; see [`Project::scanned_summary`].
    Scan,
}

/// The project summary.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub root: String,
    pub build: BuildSystem,
    pub source_roots: Vec<String>,
    pub test_roots: Vec<String>,
    pub files: usize,
    pub test_files: usize,
    /// Named types (anonymous classes excluded), nested and local ones included.
    pub classes: usize,
    /// Methods and constructors.
    pub methods: usize,
    /// How `classes` and `methods` were counted.
    pub counted_by: CountedBy,
    pub packages: Vec<PackageSummary>,
    pub syntax_errors: Vec<FileProblem>,
    pub unreadable: Vec<FileProblem>,
}

impl Project {
    /// Parses every file and summarises the project: exact counts, every syntax error.
    pub fn summary(&self) -> Summary {
        let unreadable: Vec<(FileId, JavaError)> = self.load_all();
        let files: Vec<FileFacts> = self
            .file_ids()
            .filter_map(|f| {
                let file = self.file(f).ok()?;
                Some(FileFacts {
                    file: f,
                    package: file.symbols.package.clone().unwrap_or_default(),
                    classes: file.symbols.types.iter().filter(|t| t.kind != TypeKind::Anonymous).count(),
                    methods: file.symbols.methods.len(),
                    syntax_error: file.source.syntax_error(),
                })
            })
            .collect();
        self.summarise(CountedBy::Parse, files, unreadable)
    }

    /// The summary without parsing the project: counts from the lexical pass over each file's text
    /// ([`super::lexical`]), which equal the parsed counts on well-formed code. Syntax errors are
    /// those of the files already parsed (what a command looked at) and of the files whose brackets,
    /// comments or literals do not close, which are parsed to locate the error; an error inside
    /// balanced text of a file nobody parsed is not listed. `mantra analyze` uses this beside a
    /// method; `analyze --project` uses [`Self::summary`].
    pub fn scanned_summary(&self) -> Summary {
        let scan = self.scan();
        let unreadable: Vec<(FileId, JavaError)> =
            scan.unreadable.iter().map(|(f, e)| (FileId::from_index(*f), copy_error(e))).collect();
        let mut package_of = vec![""; scan.texts.len()];
        for (package, files) in &scan.packages {
            for &f in files {
                package_of[f as usize] = package;
            }
        }
        let mut files: Vec<FileFacts> = self
            .file_ids()
            .collect::<Vec<_>>()
            .into_par_iter()
            .filter(|f| !unreadable.iter().any(|(u, _)| u == f))
            .map(|f| {
                let counts = lexical::count(&scan.texts[f.index()]);
                let syntax_error = match self.parsed_already(f) {
                    Some(file) => file.source.syntax_error(),
                    None if counts.suspect => self.file(f).ok().and_then(|file| file.source.syntax_error()),
                    None => None,
                };
                FileFacts {
                    file: f,
                    package: package_of[f.index()].to_string(),
                    classes: counts.types,
                    methods: counts.methods,
                    syntax_error,
                }
            })
            .collect();
        files.sort_by_key(|f| f.file);
        self.summarise(CountedBy::Scan, files, unreadable)
    }

    fn summarise(&self, counted_by: CountedBy, files: Vec<FileFacts>, unreadable: Vec<(FileId, JavaError)>) -> Summary {
        let unreadable = unreadable
            .into_iter()
            .map(|(f, e)| FileProblem {
                path: self.path(f).display().to_string(),
                line: 0,
                column: 0,
                message: e.to_string(),
            })
            .collect();
        let mut packages: BTreeMap<String, PackageSummary> = BTreeMap::new();
        let (mut classes, mut methods, mut test_files) = (0, 0, 0);
        let mut syntax_errors = Vec::new();
        for facts in files {
            let f = facts.file;
            classes += facts.classes;
            methods += facts.methods;
            if self.is_test_code(f) {
                test_files += 1;
            }
            let name = facts.package;
            let entry = packages.entry(name.clone()).or_insert(PackageSummary { name, files: 0, classes: 0 });
            entry.files += 1;
            entry.classes += facts.classes;
            if let Some(e) = facts.syntax_error {
                syntax_errors.push(FileProblem {
                    path: self.path(f).display().to_string(),
                    line: e.line,
                    column: e.column,
                    message: e.snippet,
                });
            }
        }
        let roots = |v: &[std::path::PathBuf]| v.iter().map(|p| p.display().to_string()).collect();
        Summary {
            root: self.root().display().to_string(),
            build: self.layout().build,
            source_roots: roots(&self.layout().source_roots),
            test_roots: roots(&self.layout().test_roots),
            files: self.file_count(),
            test_files,
            classes,
            methods,
            counted_by,
            packages: packages.into_values().collect(),
            syntax_errors,
            unreadable,
        }
    }
}

/// What the summary needs of one readable file.
struct FileFacts {
    file: FileId,
    package: String,
    classes: usize,
    methods: usize,
    syntax_error: Option<SyntaxError>,
}

impl Summary {
    /// The summary as indented text, packages as a tree.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let list = |v: &[String]| if v.is_empty() { "(none)".to_string() } else { v.join(", ") };
        out.push_str(&format!("Build system:  {}\n", self.build.name()));
        out.push_str(&format!("Source roots:  {}\n", list(&self.source_roots)));
        out.push_str(&format!("Test roots:    {}\n", list(&self.test_roots)));
        out.push_str(&format!(
            "Files: {} ({} test)   Classes: {}   Methods: {}\n",
            self.files, self.test_files, self.classes, self.methods
        ));
        out.push_str("Packages:\n");
        let mut printed: Vec<&str> = Vec::new();
        for p in &self.packages {
            let segs: Vec<&str> = if p.name.is_empty() { vec![] } else { p.name.split('.').collect() };
            // print the intermediate levels of the tree once, then the package with its counts
            for depth in 1..segs.len() {
                let prefix_len = segs[..depth].iter().map(|s| s.len() + 1).sum::<usize>() - 1;
                let prefix = &p.name[..prefix_len];
                if !printed.contains(&prefix) && !self.packages.iter().any(|q| q.name == prefix) {
                    printed.push(prefix);
                    out.push_str(&format!("  {}{}\n", "  ".repeat(depth - 1), segs[depth - 1]));
                }
            }
            let label = segs.last().copied().unwrap_or("(default package)");
            out.push_str(&format!(
                "  {}{label}  ({} classes, {} files)\n",
                "  ".repeat(segs.len().saturating_sub(1)),
                p.classes,
                p.files
            ));
        }
        if !self.syntax_errors.is_empty() {
            out.push_str(&format!("Files with syntax errors: {}\n", self.syntax_errors.len()));
            for e in self.syntax_errors.iter().take(10) {
                out.push_str(&format!("  {}:{}:{}  {}\n", e.path, e.line, e.column, e.message));
            }
        }
        if !self.unreadable.is_empty() {
            out.push_str(&format!("Unreadable files: {}\n", self.unreadable.len()));
            for e in self.unreadable.iter().take(10) {
                out.push_str(&format!("  {}\n", e.message));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::java::project::tests::project;

    #[test]
    fn counts_and_tree() {
        let (_d, p) = project(&[
            ("pom.xml", "<project/>"),
            (
                "src/main/java/a/b/A.java",
                "package a.b; class A { void f() {} class In {} Object o = new Object() {}; }",
            ),
            ("src/main/java/a/c/C.java", "package a.c; class C { C() {} }"),
            ("src/test/java/a/b/ATest.java", "package a.b; class ATest { void t() { int x = ; } }"),
        ]);
        let s = p.summary();
        assert_eq!((s.files, s.test_files, s.classes, s.methods), (3, 1, 4, 3));
        assert_eq!(s.source_roots, ["src/main/java"]);
        assert_eq!(s.syntax_errors.len(), 1);
        let text = s.render();
        assert!(text.contains("Build system:  Maven"), "{text}");
        assert!(text.contains("  a\n    b  (3 classes, 2 files)\n    c  (1 classes, 1 files)\n"), "{text}");
    }

    #[test]
    fn scanned_summary_counts_without_parsing() {
        let files = [
            ("pom.xml", "<project/>"),
            (
                "src/main/java/a/b/A.java",
                "package a.b; class A { void f() {} class In {} Object o = new Object() {}; }",
            ),
            ("src/main/java/a/c/C.java", "package a.c; class C { C() {} }"),
            ("src/test/java/a/b/ATest.java", "package a.b; class ATest { void t() { int x = ; } }"),
            ("src/test/java/a/b/Open.java", "package a.b; class Open { void t( { } }"),
        ];
        let (_d, p) = project(&files);
        let s = p.scanned_summary();
        assert_eq!((s.files, s.test_files, s.classes, s.methods), (4, 2, 5, 4));
        assert_eq!(s.counted_by, super::CountedBy::Scan);
        // only the file whose brackets do not close was parsed, to locate its error
        let broken: Vec<&str> = s.syntax_errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(broken, ["src/test/java/a/b/Open.java"]);
        let exact = p.summary();
        assert_eq!((exact.classes, exact.methods, exact.syntax_errors.len()), (5, 4, 2));
        assert_eq!(exact.render(), p.scanned_summary().render(), "once parsed, every error is listed");
    }
}
