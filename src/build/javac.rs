//! No build file: `javac` over every source and test root, then a JUnit runner.
//!
//! Classes go to `.mantra/javac/classes` (emptied first, so a class whose source was deleted
//! cannot hide a compile error), the source list to an argument file (`@sources.txt`, no command
//! line length limit). The classpath is the JUnit jars found in the system's Java library folder
//! (Debian: `/usr/share/java`) plus the project's own `lib/*.jar`.
//!
//! Tests run with the runner that matches them:
//! - JUnit 5 (a test imports `org.junit.jupiter`): the JUnit Platform console launcher
//!   (`junit-platform-console-standalone.jar`), which also runs JUnit 4 tests through the vintage
//!   engine and writes XML reports to `.mantra/javac/reports`;
//! - JUnit 4 only: `org.junit.runner.JUnitCore`, whose text lists failures (not passes) and a
//!   total. It cannot select a single method, so `Class#method` runs the whole class.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{
    BuildError, BuildResult, BuildTool, FailureKind, Invocation, Settings, TestRun, TestSelection, command,
    finish_test_run, reports,
};
use crate::java::Project;
use crate::java::layout::declared_package;
use crate::process::Cmd;

/// Where Debian installs Java libraries.
pub const SYSTEM_JAVA_LIB: &str = "/usr/share/java";

/// Jars put on the classpath when present: JUnit 4 with Hamcrest, and the Jupiter API.
const TEST_JARS: [&str; 8] = [
    "junit4.jar",
    "hamcrest-core.jar",
    "hamcrest.jar",
    "junit-jupiter-api.jar",
    "junit-jupiter-params.jar",
    "opentest4j.jar",
    "apiguardian-api.jar",
    "junit-platform-commons.jar",
];

const CONSOLE_LAUNCHER: &str = "junit-platform-console-standalone.jar";

const OUT: &str = ".mantra/javac";

const INSTALL: &str =
    "install a JDK (`apt-get install openjdk-17-jdk-headless`) and JUnit (`apt-get install junit4 junit5`)";

#[derive(Debug)]
pub struct Javac {
    settings: Settings,
    java_lib: PathBuf,
}

/// The project's files as javac sees them.
struct Sources {
    all: Vec<PathBuf>,
    /// Qualified names of the test classes: files under test roots that contain a `@Test`.
    test_classes: Vec<String>,
    jupiter: bool,
}

impl Javac {
    pub fn new(settings: Settings) -> Javac {
        Javac { settings, java_lib: PathBuf::from(SYSTEM_JAVA_LIB) }
    }

    fn sources(&self, dir: &Path) -> Result<Sources, BuildError> {
        let project = Project::open(dir).map_err(|e| BuildError::Setup(e.to_string()))?;
        let layout = project.layout().clone();
        let mut all = Vec::new();
        let mut test_classes = Vec::new();
        let mut jupiter = false;
        for f in project.file_ids() {
            let rel = project.path(f).to_path_buf();
            if layout.is_test_file(&rel) {
                let text = std::fs::read_to_string(dir.join(&rel)).unwrap_or_default();
                jupiter |= text.contains("org.junit.jupiter");
                if text.contains("@Test") || text.contains("@ParameterizedTest") {
                    let stem = rel.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
                    test_classes.push(match declared_package(&text) {
                        Some(p) => format!("{p}.{stem}"),
                        None => stem.to_string(),
                    });
                }
            }
            all.push(rel);
        }
        test_classes.sort();
        Ok(Sources { all, test_classes, jupiter })
    }

    fn classpath(&self, dir: &Path) -> Vec<PathBuf> {
        let mut cp: Vec<PathBuf> = TEST_JARS.iter().map(|j| self.java_lib.join(j)).filter(|p| p.is_file()).collect();
        if let Ok(entries) = std::fs::read_dir(dir.join("lib")) {
            let mut jars: Vec<PathBuf> =
                entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "jar")).collect();
            jars.sort();
            cp.extend(jars);
        }
        cp
    }

    fn compile_sources(&self, dir: &Path, sources: &Sources) -> Result<BuildResult, BuildError> {
        if let Some(custom) = &self.settings.compile {
            return self.settings.compile(command::parse("build.compile", custom, None)?, dir, command::HINT);
        }
        let out = dir.join(OUT);
        let classes = out.join("classes");
        let io = |what, path: &Path| {
            let path = path.to_path_buf();
            move |source| BuildError::Io { what, path, source }
        };
        if classes.exists() {
            std::fs::remove_dir_all(&classes).map_err(io("cannot empty", &classes))?;
        }
        std::fs::create_dir_all(&classes).map_err(io("cannot create", &classes))?;
        let argfile = out.join("sources.txt");
        let list: String = sources.all.iter().map(|p| format!("\"{}\"\n", p.display())).collect();
        std::fs::write(&argfile, list).map_err(io("cannot write", &argfile))?;
        let cmd = Cmd::new("javac")
            .args(["-encoding", "UTF-8", "-d"])
            .arg(&classes)
            .arg("-cp")
            .arg(join_paths(&self.classpath(dir)))
            .arg(format!("@{}", argfile.display()));
        self.settings.compile(cmd, dir, INSTALL)
    }
}

fn join_paths(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(":")
}

impl BuildTool for Javac {
    fn name(&self) -> &'static str {
        "javac"
    }

    fn compile(&self, dir: &Path) -> Result<BuildResult, BuildError> {
        let sources = self.sources(dir)?;
        self.compile_sources(dir, &sources)
    }

    fn test(&self, dir: &Path, selection: &TestSelection) -> Result<TestRun, BuildError> {
        if let Some(custom) = &self.settings.test {
            let cmd = command::parse("build.test", custom, Some(selection))?;
            let reports = [PathBuf::from(OUT).join("reports")];
            return self.settings.test(cmd, dir, selection, &reports, command::HINT);
        }
        let sources = self.sources(dir)?;
        let built = self.compile_sources(dir, &sources)?;
        if !built.success() {
            let failure = built.failure.or(Some(FailureKind::Compile));
            return Ok(TestRun {
                run: built.run,
                selection: selection.clone(),
                failure,
                results: Vec::new(),
                diagnostics: built.diagnostics,
                total: 0,
            });
        }
        let mut cp = vec![dir.join(OUT).join("classes")];
        cp.extend(self.classpath(dir));
        let launcher = self.java_lib.join(CONSOLE_LAUNCHER);
        if sources.jupiter && launcher.is_file() {
            let reports = PathBuf::from(OUT).join("reports");
            let mut cmd = Cmd::new("java")
                .arg("-jar")
                .arg(&launcher)
                .args(["--disable-banner", "--details=none", "--class-path"])
                .arg(join_paths(&cp))
                .arg("--reports-dir")
                .arg(dir.join(&reports));
            match selection {
                TestSelection::All => cmd = cmd.arg("--scan-class-path").arg(&cp[0]),
                TestSelection::Only(tests) => {
                    for t in tests {
                        cmd = match t.contains('#') {
                            true => cmd.arg("--select-method").arg(t),
                            false => cmd.arg("--select-class").arg(t),
                        };
                    }
                }
            }
            return self.settings.test(cmd, dir, selection, &[reports], INSTALL);
        }
        if sources.jupiter {
            return Err(BuildError::Setup(format!(
                "the tests use JUnit 5 but {} is missing; install it (`apt-get install junit5`) or configure `build.test`",
                launcher.display()
            )));
        }
        let classes: BTreeSet<String> = match selection {
            TestSelection::All => sources.test_classes.iter().cloned().collect(),
            TestSelection::Only(tests) => tests.iter().map(|t| t.split('#').next().unwrap_or(t).to_string()).collect(),
        };
        let cmd = Cmd::new("java").arg("-cp").arg(join_paths(&cp)).arg("org.junit.runner.JUnitCore").args(classes);
        let (cmd, out) = self.settings.run(cmd, dir, INSTALL)?;
        let run = Invocation::new(&cmd, &out);
        let results = reports::parse_junitcore(&run.output, &super::project_packages(dir));
        let total = reports::junitcore_total(&run.output);
        let mut tests = finish_test_run(run, selection.clone(), results, dir);
        tests.total = total.unwrap_or(tests.total);
        Ok(tests)
    }
}
