//! Gradle (Groovy or Kotlin DSL; the build file is Gradle's business, not ours).
//!
//! `./gradlew` when the project has the wrapper, else `gradle` from `PATH`; always `--offline -q`
//! (nothing may be downloaded during verification, and quiet output leaves only errors).
//! Compiling is `testClasses` (main and test sources); testing is `test --tests a.FooTest ...`
//! (`a.FooTest#m` becomes Gradle's `a.FooTest.m`). Results are read from
//! `build/test-results/test/*.xml`.

use std::path::{Path, PathBuf};

use super::{BuildError, BuildResult, BuildTool, Settings, TestRun, TestSelection, command};
use crate::process::Cmd;

const INSTALL: &str =
    "install Gradle (`apt-get install gradle`), add a `gradlew` wrapper, or set `build.compile`/`build.test`";

#[derive(Debug)]
pub struct Gradle {
    settings: Settings,
    wrapper: bool,
}

impl Gradle {
    pub fn new(settings: Settings, wrapper: bool) -> Gradle {
        Gradle { settings, wrapper }
    }

    fn gradle(&self, dir: &Path) -> Cmd {
        let program: PathBuf = if self.wrapper { dir.join("gradlew") } else { PathBuf::from("gradle") };
        Cmd::new(program).args(["--offline", "-q"])
    }
}

impl BuildTool for Gradle {
    fn name(&self) -> &'static str {
        "Gradle"
    }

    fn compile(&self, dir: &Path) -> Result<BuildResult, BuildError> {
        let (cmd, hint) = match &self.settings.compile {
            Some(custom) => (command::parse("build.compile", custom, None)?, command::HINT),
            None => (self.gradle(dir).arg("testClasses"), INSTALL),
        };
        self.settings.compile(cmd, dir, hint)
    }

    fn test(&self, dir: &Path, selection: &TestSelection) -> Result<TestRun, BuildError> {
        let (cmd, hint) = match &self.settings.test {
            Some(custom) => (command::parse("build.test", custom, Some(selection))?, command::HINT),
            None => {
                let mut cmd = self.gradle(dir).arg("test");
                if let TestSelection::Only(tests) = selection {
                    for t in tests {
                        cmd = cmd.arg("--tests").arg(t.replace('#', "."));
                    }
                }
                (cmd, INSTALL)
            }
        };
        let reports = [PathBuf::from("build/test-results/test")];
        self.settings.test(cmd, dir, selection, &reports, hint)
    }
}
