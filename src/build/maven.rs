//! Maven: `mvn test-compile` to compile, `mvn test -Dtest=...` to test, Surefire's XML to read.
//!
//! Default flags, when the user configured no command of their own:
//! `mvn -B -q` (batch mode, quiet: only errors and test failures are printed), plus, when
//! Debian's offline repository `/usr/share/maven-repo` exists and the user has no local repository
//! of their own (`~/.m2/repository`), `-o -Dmaven.repo.local=/usr/share/maven-repo -DforkCount=0`:
//! offline against the packaged artifacts (there is nothing else to download from), with the
//! tests in Maven's own JVM (a forked JVM costs several seconds per run). A user with a
//! `~/.m2/repository` builds the way they always do.
//!
//! Tests are selected with Surefire 2.22's `-Dtest=a.FooTest,a.BarTest#method` and
//! `-DfailIfNoTests=false` (a selection naming no test of a module is not an error).

use std::path::{Path, PathBuf};

use super::direct::{self, Probe};
use super::{BuildError, BuildResult, BuildTool, Invocation, Settings, TestRun, TestSelection, command};
use crate::process::Cmd;

/// Debian's packaged Maven repository.
pub const DEBIAN_REPO: &str = "/usr/share/maven-repo";

const INSTALL: &str = "install Maven (`apt-get install maven`) or set `build.compile`/`build.test`";

#[derive(Debug)]
pub struct Maven {
    settings: Settings,
    /// Flags every default command starts with.
    base: Vec<String>,
}

impl Maven {
    pub fn new(settings: Settings) -> Maven {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let own_repo = home.is_some_and(|h| h.join(".m2/repository").is_dir());
        let base = default_flags(Path::new(DEBIAN_REPO).is_dir(), own_repo);
        Maven { settings, base }
    }

    fn mvn(&self) -> Cmd {
        Cmd::new("mvn").args(&self.base)
    }
}

/// `-B -q`, and the offline Debian flags when that repository is the only one there is.
pub fn default_flags(debian_repo: bool, own_repo: bool) -> Vec<String> {
    let mut flags = vec!["-B".to_string(), "-q".to_string()];
    if debian_repo && !own_repo {
        flags.extend(["-o".into(), format!("-Dmaven.repo.local={DEBIAN_REPO}"), "-DforkCount=0".into()]);
    }
    flags
}

impl BuildTool for Maven {
    fn name(&self) -> &'static str {
        "Maven"
    }

    fn compile(&self, dir: &Path) -> Result<BuildResult, BuildError> {
        let (cmd, hint) = match &self.settings.compile {
            Some(custom) => (command::parse("build.compile", custom, None)?, command::HINT),
            None => (self.mvn().arg("test-compile"), INSTALL),
        };
        self.settings.compile(cmd, dir, hint)
    }

    fn test(&self, dir: &Path, selection: &TestSelection) -> Result<TestRun, BuildError> {
        let (cmd, hint) = match &self.settings.test {
            Some(custom) => (command::parse("build.test", custom, Some(selection))?, command::HINT),
            None => {
                let cmd = self.mvn().arg("test");
                let cmd = match selection {
                    TestSelection::All => cmd,
                    TestSelection::Only(tests) => {
                        cmd.arg(format!("-Dtest={}", tests.join(","))).arg("-DfailIfNoTests=false")
                    }
                };
                (cmd, INSTALL)
            }
        };
        self.settings.test(cmd, dir, selection, &report_dirs(dir), hint)
    }

    /// `mvn -X test -DskipTests` with the default flags (less `-q`), read by [`direct`].
    fn probe_direct(&self, dir: &Path) -> Result<Probe, BuildError> {
        if self.settings.compile.is_some() || self.settings.test.is_some() {
            return Ok(Probe::Unsupported("`build.compile` or `build.test` is configured".into()));
        }
        let cmd = Cmd::new("mvn").args(self.base.iter().filter(|f| *f != "-q")).args(direct::maven_probe_args());
        let (cmd, out) = self.settings.run(cmd, dir, INSTALL)?;
        let run = Invocation::new(&cmd, &out);
        if !run.success() {
            let tail: Vec<&str> = run.output.lines().rev().take(5).collect();
            return Ok(Probe::Unsupported(format!("`{}` failed: {}", run.command, tail.join(" / "))));
        }
        Ok(direct::from_maven_debug(&run.output, dir, Path::new(super::javac::SYSTEM_JAVA_LIB)))
    }
}

/// `target/surefire-reports` of the project and of each module folder one or two levels down.
fn report_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from("target/surefire-reports")];
    let mut modules = Vec::new();
    for depth1 in subdirs(dir, Path::new("")) {
        if dir.join(&depth1).join("pom.xml").is_file() {
            modules.push(depth1.clone());
            modules.extend(subdirs(dir, &depth1).into_iter().filter(|d| dir.join(d).join("pom.xml").is_file()));
        }
    }
    out.extend(modules.into_iter().map(|m| m.join("target/surefire-reports")));
    out
}

fn subdirs(root: &Path, rel: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root.join(rel)) else { return Vec::new() };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| e.file_name().to_str().is_some_and(|n| !n.starts_with('.') && n != "target" && n != "src"))
        .map(|e| rel.join(e.file_name()))
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offline_flags_only_without_a_repository_of_ones_own() {
        assert_eq!(default_flags(false, false), ["-B", "-q"]);
        assert_eq!(default_flags(true, true), ["-B", "-q"]);
        assert_eq!(
            default_flags(true, false),
            ["-B", "-q", "-o", "-Dmaven.repo.local=/usr/share/maven-repo", "-DforkCount=0"]
        );
    }
}
