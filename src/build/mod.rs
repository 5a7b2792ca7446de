//! Compiling and testing a Java project with its own build tool, and reading what happened.
//!
//! A refactoring is only accepted when the project still compiles and its tests still pass, so
//! verification runs the project's real build: Maven, Gradle, or plain `javac` plus a JUnit
//! runner when there is no build file. The three live behind one trait, [`BuildTool`], chosen by
//! [`tool_for`] from the files at the root (or `build.system`), with `build.compile`/`build.test`
//! replacing the tool's own commands.
//!
//! Tools print their results in different shapes; everything is turned into the same values:
//! compiler errors into [`Diagnostic`]s ([`diagnostics`]), JUnit XML reports into [`TestResult`]s
//! ([`reports`]), and every run into a [`FailureKind`] (compile error, test failure, runtime
//! error, timeout). Around that: a cached [`baseline`] of the original project, so failures that
//! were already there are never blamed on the refactoring (and flaky tests are re-run before they
//! are), and the choice of the [`affected`] tests to run first.
//!
//! Every command goes through [`crate::process::Runner`]: a timeout kills the whole process group
//! (Maven's and Gradle's test JVMs included) and output is capped.

pub mod affected;
pub mod baseline;
pub mod classfile;
pub mod command;
pub mod diagnostics;
pub mod direct;
pub mod gradle;
pub mod incremental;
pub mod javac;
pub mod maven;
pub mod reports;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::config::{BuildConfig, BuildSystemChoice};
use crate::error::Classify;
use crate::exit::Exit;
use crate::java::BuildSystem;
use crate::process::{Cmd, Output, ProcessError, Runner, Status};
use crate::style::strip_ansi;

pub use affected::{affected_tests, run_policy};
pub use baseline::{Baseline, Judgement, baseline, baseline_with, judge, state_key};
pub use diagnostics::Diagnostic;
pub use direct::{Direct, DirectSetup, Probe};
pub use reports::{Outcome, TestResult};

/// Compiles and tests a project in a folder. One implementation per build tool.
pub trait BuildTool: Send + Sync {
    /// `Maven`, `Gradle`, `javac`: for reports.
    fn name(&self) -> &'static str;
    /// Compiles main and test sources (tests are code the refactoring may break too).
    fn compile(&self, dir: &Path) -> Result<BuildResult, BuildError>;
    /// Runs the selected tests (compiling first, as the tools do).
    fn test(&self, dir: &Path, selection: &TestSelection) -> Result<TestRun, BuildError>;
    /// How to compile and test the project in `dir` (just compiled by this tool) without this
    /// tool's start-up, if that is known to build the same thing; see [`direct`].
    fn probe_direct(&self, _dir: &Path) -> Result<Probe, BuildError> {
        Ok(Probe::Unsupported(format!("mantra does not read {}'s build set-up (yet)", self.name())))
    }
}

/// Which tests one run executes. (The policy `verify.tests` is [`crate::config::TestSelection`].)
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "tests", rename_all = "kebab-case")]
pub enum TestSelection {
    All,
    /// Test classes (`a.b.FooTest`) or single tests (`a.b.FooTest#method`).
    Only(Vec<String>),
}

/// Why a build or test run did not succeed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// The compiler rejected the code.
    Compile,
    /// A test's assertion failed.
    TestFailure,
    /// Something threw or crashed outside an assertion: an exception in a test or its setup, a JVM
    /// that died, a tool that failed without reporting a test.
    Runtime,
    /// The run took longer than `build.timeout_secs`; its process group was killed.
    Timeout,
}

/// One external command as it ran: what, how it ended, what it printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invocation {
    pub command: String,
    /// `None` when it did not exit by itself (timeout, signal).
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub elapsed_ms: u64,
    /// stdout then stderr, ANSI colours removed, capped by `build.output_cap_bytes`.
    pub output: String,
}

impl Invocation {
    fn new(cmd: &Cmd, out: &Output) -> Invocation {
        let mut output = strip_ansi(&out.stdout);
        if !out.stderr.is_empty() {
            if !output.is_empty() && !output.ends_with('\n') {
                output.push('\n');
            }
            output.push_str(&strip_ansi(&out.stderr));
        }
        Invocation {
            command: cmd.to_string(),
            exit_code: out.code(),
            timed_out: out.status == Status::TimedOut,
            elapsed_ms: out.elapsed.as_millis() as u64,
            output,
        }
    }

    pub fn success(&self) -> bool {
        self.exit_code == Some(0)
    }
}

/// The result of compiling.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildResult {
    pub run: Invocation,
    /// `None` when the build succeeded.
    pub failure: Option<FailureKind>,
    pub diagnostics: Vec<Diagnostic>,
}

impl BuildResult {
    pub fn success(&self) -> bool {
        self.failure.is_none()
    }
}

/// The result of running tests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestRun {
    pub run: Invocation,
    pub selection: TestSelection,
    /// `None` when every selected test passed (or was skipped).
    pub failure: Option<FailureKind>,
    /// One per test case, from the tool's XML reports (or the runner's text when it writes none).
    pub results: Vec<TestResult>,
    /// Compiler errors met on the way to the tests.
    pub diagnostics: Vec<Diagnostic>,
    /// Tests run: `results.len()`, except with JUnit 4's `JUnitCore`, which lists only failures
    /// and gives the total in its summary.
    pub total: usize,
}

impl TestRun {
    pub fn success(&self) -> bool {
        self.failure.is_none()
    }

    /// How many tests ended with `outcome`.
    pub fn count(&self, outcome: Outcome) -> usize {
        self.results.iter().filter(|r| r.outcome == outcome).count()
    }

    /// The tests that failed or errored.
    pub fn failing(&self) -> impl Iterator<Item = &TestResult> {
        self.results.iter().filter(|r| r.outcome.is_failing())
    }
}

/// What can stop a build from running at all (as opposed to a build that ran and failed).
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("the build tool `{program}` was not found")]
    ToolMissing { program: String, hint: String },
    #[error("`{command}` could not be run: {source}")]
    Process { command: String, source: ProcessError },
    #[error("{what} {}: {source}", path.display())]
    Io { what: &'static str, path: PathBuf, source: std::io::Error },
    #[error("the {key} command {command:?} cannot be split into words: {reason}")]
    BadCommand { key: &'static str, command: String, reason: String },
    #[error("{0}")]
    Setup(String),
}

impl Classify for BuildError {
    fn exit(&self) -> Exit {
        match self {
            BuildError::ToolMissing { .. } => Exit::EnvironmentMissing,
            BuildError::BadCommand { .. } => Exit::Usage,
            BuildError::Setup(_) => Exit::EnvironmentMissing,
            BuildError::Process { .. } | BuildError::Io { .. } => Exit::Internal,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            BuildError::ToolMissing { hint, .. } => Some(hint.clone()),
            BuildError::BadCommand { key, .. } => Some(format!("quote arguments with ' or \" in `{key}`")),
            _ => None,
        }
    }
}

/// What every adapter shares: how to run a command and what the user configured.
#[derive(Clone)]
pub struct Settings {
    pub runner: Arc<dyn Runner>,
    pub timeout: Duration,
    pub output_cap: usize,
    /// `build.compile`, replacing the tool's compile command.
    pub compile: Option<String>,
    /// `build.test`, replacing the tool's test command; `{tests}` stands for the selection.
    pub test: Option<String>,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("timeout", &self.timeout)
            .field("output_cap", &self.output_cap)
            .field("compile", &self.compile)
            .field("test", &self.test)
            .finish()
    }
}

impl Settings {
    pub fn from_config(config: &BuildConfig, runner: Arc<dyn Runner>) -> Settings {
        Settings {
            runner,
            timeout: Duration::from_secs(config.timeout_secs),
            output_cap: usize::try_from(config.output_cap_bytes).unwrap_or(usize::MAX),
            compile: config.compile.clone(),
            test: config.test.clone(),
        }
    }

    /// Runs `cmd` in `dir` with the configured timeout and cap.
    pub(crate) fn run(&self, cmd: Cmd, dir: &Path, install_hint: &str) -> Result<(Cmd, Output), BuildError> {
        let cmd = cmd.cwd(dir).timeout(self.timeout).output_cap(self.output_cap);
        tracing::info!("running {cmd}");
        match self.runner.run(&cmd) {
            Ok(out) => Ok((cmd, out)),
            Err(ProcessError::NotFound { program }) => {
                Err(BuildError::ToolMissing { program, hint: install_hint.to_string() })
            }
            Err(source) => Err(BuildError::Process { command: cmd.to_string(), source }),
        }
    }

    /// Runs a compile command and classifies it.
    fn compile(&self, cmd: Cmd, dir: &Path, install_hint: &str) -> Result<BuildResult, BuildError> {
        let (cmd, out) = self.run(cmd, dir, install_hint)?;
        let run = Invocation::new(&cmd, &out);
        let diagnostics = diagnostics::parse(&run.output, dir);
        let failure = if run.timed_out {
            Some(FailureKind::Timeout)
        } else if run.success() {
            None
        } else if diagnostics.is_empty() {
            Some(FailureKind::Runtime)
        } else {
            Some(FailureKind::Compile)
        };
        Ok(BuildResult { run, failure, diagnostics })
    }

    /// Runs a test command after clearing `report_dirs`, then reads the reports written there.
    fn test(
        &self,
        cmd: Cmd,
        dir: &Path,
        selection: &TestSelection,
        report_dirs: &[PathBuf],
        install_hint: &str,
    ) -> Result<TestRun, BuildError> {
        // Reports left by an earlier run would be read as this run's.
        for d in report_dirs {
            let d = dir.join(d);
            if d.exists() {
                std::fs::remove_dir_all(&d).map_err(|source| BuildError::Io {
                    what: "cannot delete old test reports in",
                    path: d.clone(),
                    source,
                })?;
            }
        }
        let (cmd, out) = self.run(cmd, dir, install_hint)?;
        let run = Invocation::new(&cmd, &out);
        let packages = project_packages(dir);
        let mut results = Vec::new();
        for d in report_dirs {
            results.extend(reports::read_dir(&dir.join(d), &packages));
        }
        Ok(finish_test_run(run, selection.clone(), results, dir))
    }
}

/// Classifies a finished test run from its exit, its compiler errors and its test results.
fn finish_test_run(run: Invocation, selection: TestSelection, results: Vec<TestResult>, dir: &Path) -> TestRun {
    let diagnostics = diagnostics::parse(&run.output, dir);
    let failure = if run.timed_out {
        Some(FailureKind::Timeout)
    } else if !diagnostics.is_empty() && !run.success() {
        Some(FailureKind::Compile)
    } else if results.iter().any(|r| r.outcome == Outcome::Failed) {
        Some(FailureKind::TestFailure)
    } else if results.iter().any(|r| r.outcome == Outcome::Error) || !run.success() {
        Some(FailureKind::Runtime)
    } else {
        None
    };
    let total = results.len();
    TestRun { run, selection, failure, results, diagnostics, total }
}

/// Picks the build tool for the project at `root`: `build.system` if set, else detected.
pub fn tool_for(root: &Path, config: &BuildConfig, runner: Arc<dyn Runner>) -> Box<dyn BuildTool> {
    let settings = Settings::from_config(config, runner);
    let system = match config.system {
        BuildSystemChoice::Maven => BuildSystem::Maven,
        BuildSystemChoice::Gradle if root.join("gradlew").is_file() => BuildSystem::GradleWrapper,
        BuildSystemChoice::Gradle => BuildSystem::Gradle,
        BuildSystemChoice::Javac => BuildSystem::None,
        BuildSystemChoice::Auto => BuildSystem::detect(root),
    };
    match system {
        BuildSystem::Maven => Box::new(maven::Maven::new(settings)),
        BuildSystem::GradleWrapper => Box::new(gradle::Gradle::new(settings, true)),
        BuildSystem::Gradle => Box::new(gradle::Gradle::new(settings, false)),
        BuildSystem::None => Box::new(javac::Javac::new(settings)),
    }
}

/// The packages the project declares, so stack traces can be cut to the project's own frames.
pub fn project_packages(dir: &Path) -> BTreeSet<String> {
    let Ok(project) = crate::java::Project::open(dir) else { return BTreeSet::new() };
    project
        .file_ids()
        .filter_map(|f| std::fs::read_to_string(dir.join(project.path(f))).ok())
        .map(|text| crate::java::layout::declared_package(&text).unwrap_or_default())
        .collect()
}
