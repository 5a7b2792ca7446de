//! Where a project keeps its code: build system, source roots, test roots.
//!
//! Maven and Gradle conventions first (`src/main/java`, `src/test/java`, per module); a project
//! without them gets every folder that holds `.java` files, with `test`/`tests` folders as test roots.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// How the project is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BuildSystem {
    Maven,
    /// Gradle with a `gradlew` wrapper script in the root.
    GradleWrapper,
    Gradle,
    /// No build file: plain `javac`.
    None,
}

/// Gradle's build and settings files, any one of which makes a Gradle project.
pub const GRADLE_FILES: [&str; 4] = ["build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"];

impl BuildSystem {
    /// Detects the build system from the files at the repository root.
    pub fn detect(root: &Path) -> BuildSystem {
        if root.join("pom.xml").is_file() {
            BuildSystem::Maven
        } else if root.join("gradlew").is_file() {
            BuildSystem::GradleWrapper
        } else if GRADLE_FILES.iter().any(|f| root.join(f).is_file()) {
            BuildSystem::Gradle
        } else {
            BuildSystem::None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BuildSystem::Maven => "Maven",
            BuildSystem::GradleWrapper => "Gradle (wrapper)",
            BuildSystem::Gradle => "Gradle",
            BuildSystem::None => "none (javac)",
        }
    }
}

/// The project's roots, repository-relative.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layout {
    pub build: BuildSystem,
    pub source_roots: Vec<PathBuf>,
    pub test_roots: Vec<PathBuf>,
}

impl Layout {
    /// Finds the roots of the project at `root`, given the repository-relative paths of its `.java` files.
    pub fn detect(root: &Path, java_files: &[PathBuf]) -> Layout {
        let build = BuildSystem::detect(root);
        let mut sources = BTreeSet::new();
        let mut tests = BTreeSet::new();
        for file in java_files {
            match conventional_root(file) {
                Some((dir, is_test)) => {
                    if is_test {
                        tests.insert(dir)
                    } else {
                        sources.insert(dir)
                    };
                }
                None => {
                    let dir = package_root(root, file);
                    let is_test = dir.components().any(|c| matches!(c.as_os_str().to_str(), Some("test" | "tests")));
                    if is_test {
                        tests.insert(dir)
                    } else {
                        sources.insert(dir)
                    };
                }
            }
        }
        Layout { build, source_roots: sources.into_iter().collect(), test_roots: tests.into_iter().collect() }
    }

    /// The source or test root a repository-relative file lies under (the deepest, when roots
    /// nest).
    pub fn root_of(&self, file: &Path) -> Option<&Path> {
        self.source_roots
            .iter()
            .chain(&self.test_roots)
            .filter(|r| file.starts_with(r))
            .max_by_key(|r| r.components().count())
            .map(PathBuf::as_path)
    }

    /// Whether a repository-relative file lies under a test root.
    pub fn is_test_file(&self, file: &Path) -> bool {
        self.test_roots.iter().any(|r| file.starts_with(r))
    }
}

/// `a/src/main/java/x/Y.java` → (`a/src/main/java`, false); `src/test/java/...` → test.
fn conventional_root(file: &Path) -> Option<(PathBuf, bool)> {
    let parts: Vec<&str> = file.iter().filter_map(|c| c.to_str()).collect();
    for i in 0..parts.len().saturating_sub(2) {
        if parts[i] == "src" && parts[i + 2] == "java" {
            let is_test = matches!(parts[i + 1], "test" | "it" | "integrationTest" | "testFixtures")
                || parts[i + 1].ends_with("Test");
            return Some((parts[..=i + 2].iter().collect(), is_test));
        }
    }
    None
}

/// The folder a file's package starts in: its directory less the package's folders, when they match.
fn package_root(root: &Path, file: &Path) -> PathBuf {
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let Ok(text) = std::fs::read_to_string(root.join(file)) else { return dir };
    let Some(package) = declared_package(&text) else { return dir };
    let pkg_path: PathBuf = package.split('.').collect();
    if dir.ends_with(&pkg_path) {
        let mut out = dir.clone();
        for _ in 0..pkg_path.components().count() {
            out.pop();
        }
        out
    } else {
        dir
    }
}

/// The `package a.b.c;` declaration, read cheaply without a parse (comments before it are skipped).
pub fn declared_package(text: &str) -> Option<String> {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map(|x| x.1).unwrap_or("");
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map(|x| x.1).unwrap_or("");
        } else if rest.starts_with('@') {
            // package annotations (package-info.java); skip to the next line
            rest = rest.split_once('\n').map(|x| x.1).unwrap_or("");
        } else {
            break;
        }
    }
    let decl = rest.strip_prefix("package")?;
    let name = decl.split(';').next()?.trim();
    (!name.is_empty()).then(|| name.split_whitespace().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventional_roots() {
        assert_eq!(
            conventional_root(Path::new("core/src/main/java/a/B.java")),
            Some((PathBuf::from("core/src/main/java"), false))
        );
        assert_eq!(
            conventional_root(Path::new("src/test/java/a/BTest.java")),
            Some((PathBuf::from("src/test/java"), true))
        );
        assert_eq!(conventional_root(Path::new("lib/a/B.java")), None);
    }

    #[test]
    fn package_declaration() {
        assert_eq!(declared_package("/* lic */\n// x\npackage a.b ;\nclass C{}"), Some("a.b".into()));
        assert_eq!(declared_package("class C{}"), None);
    }
}
