//! Compiling and testing without the build tool's start-up: `javac` and the JUnit Platform console
//! launcher, with exactly the classpath and compiler flags the build tool reported.
//!
//! Maven spends 3–4 s starting and resolving plugins on every call, more than compiling and
//! testing a one-method change takes. So after the baseline's own (Maven) compile, mantra asks
//! Maven once, in debug mode (`mvn -X test -DskipTests`), how it would build: every mojo's
//! configuration is printed, and from it come the source roots, output folders, the compile and
//! test classpaths (resolved by Maven, against whatever repository the user's flags name), the
//! `javac` flags (`--release`/`-source`/`-target`, `-encoding`, `-parameters`, `compilerArgs`,
//! `-Werror` for `failOnWarning`, ...) and Surefire's settings. That [`DirectSetup`] is cached
//! with the baseline, so it costs one Maven run per project state.
//!
//! It is only used where it is known to build the same thing; anything else keeps the build tool
//! (the reason is reported): a mojo other than resources, compiler and Surefire bound up to
//! `test` (code generators, instrumentation), a configuration key not on the lists below
//! (annotation processor paths, `proc`, includes/excludes, Surefire's `argLine`, system
//! properties, includes, ...), resource filtering, `module-info.java`, sources an annotation
//! processor generated during the baseline, a forked or non-javac compiler, a multi-module build.
//!
//! [`Direct`] then compiles all main sources (one `javac`, into an emptied `target/classes`, so a
//! class whose source is gone cannot hide an error), copies resources, compiles all test sources,
//! and runs tests with `java -jar junit-platform-console-standalone.jar` in one JVM (Surefire's
//! default class-name patterns for the whole suite), reading its JUnit XML with [`super::reports`].
//! A stamp of the sources' sizes and times lets the test run skip a compile that is up to date.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::incremental;
use super::{BuildError, BuildResult, BuildTool, FailureKind, Settings, TestRun, TestSelection};
use crate::process::Cmd;

const CONSOLE_LAUNCHER: &str = "junit-platform-console-standalone.jar";
/// Where the launcher's reports, the source lists and the stamp go, under the project.
const WORK: &str = ".mantra/direct";
const INSTALL: &str = "install a JDK (`apt-get install openjdk-17-jdk-headless`) and JUnit 5 (`apt-get install junit5`), \
                       or set `verify.runner = \"build-tool\"`";
/// JIT and GC settings for the short-lived JVMs: the C1 compiler only and the serial collector
/// halve the CPU a `javac` of a few dozen files or a unit-test run costs (start-up dominates).
const QUICK_JVM: [&str; 2] = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];

/// Surefire's default includes (`**/Test*`, `**/*Test`, `**/*Tests`, `**/*TestCase`), top-level classes only.
const SUREFIRE_CLASSES: &str = r"^(.*\.)?(Test[^.$]*|[^.$]*Test|[^.$]*Tests|[^.$]*TestCase)$";

/// How to compile and test a project directly; paths inside the project are relative to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirectSetup {
    pub main: Unit,
    pub test: Unit,
    /// Flags for the test JVM (`-ea` when Surefire enables assertions).
    pub jvm_flags: Vec<String>,
    /// The JUnit console launcher jar.
    pub launcher: PathBuf,
}

/// One compilation: main or test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub source_roots: Vec<PathBuf>,
    pub resource_roots: Vec<PathBuf>,
    pub output: PathBuf,
    /// For main: the compile classpath; for test: the test classpath (what the tests also run with).
    pub classpath: Vec<PathBuf>,
    pub javac_flags: Vec<String>,
}

/// The answer of a probe.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // made once per baseline, never stored in bulk
pub enum Probe {
    Direct(DirectSetup),
    /// Why the build tool must keep building this project.
    Unsupported(String),
}

/// Compiles and tests with `javac` and the JUnit console launcher; see the module documentation.
#[derive(Debug)]
pub struct Direct {
    setup: DirectSetup,
    settings: Settings,
}

impl Direct {
    pub fn new(setup: DirectSetup, settings: Settings) -> Direct {
        Direct { setup, settings }
    }

    /// Records that the classes in the output folders are those of the sources as they are now
    /// (the build tool just compiled them), so the next test run does not compile again.
    pub fn mark_compiled(&self, dir: &Path) -> Result<(), BuildError> {
        let stamp = dir.join(WORK).join("stamp");
        let io = |source| BuildError::Io { what: "cannot write", path: stamp.clone(), source };
        std::fs::create_dir_all(dir.join(WORK)).map_err(io)?;
        std::fs::write(&stamp, self.stamp(dir)).map_err(io)?;
        incremental::record(dir, &self.setup).map_err(io)
    }

    fn up_to_date(&self, dir: &Path) -> bool {
        std::fs::read_to_string(dir.join(WORK).join("stamp")).is_ok_and(|s| s == self.stamp(dir))
    }

    /// Every source and resource file with its size and modification time, plus the setup.
    fn stamp(&self, dir: &Path) -> String {
        let mut out = serde_json::to_string(&self.setup).unwrap_or_default();
        for unit in [&self.setup.main, &self.setup.test] {
            for root in unit.source_roots.iter().chain(&unit.resource_roots) {
                for rel in files_under(&dir.join(root)) {
                    let meta = std::fs::metadata(dir.join(root).join(&rel)).ok();
                    let len = meta.as_ref().map_or(0, |m| m.len());
                    let modified =
                        meta.and_then(|m| m.modified().ok()).and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
                    out.push_str(&format!(
                        "\n{}/{} {len} {}",
                        root.display(),
                        rel.display(),
                        modified.map_or(0, |d| d.as_nanos())
                    ));
                }
            }
        }
        out
    }

    /// Compiles one unit: all its sources into an emptied output folder (then copies its
    /// resources), or with `only`, just those sources into the folder as it is.
    fn compile_unit(
        &self,
        dir: &Path,
        unit: &Unit,
        name: &str,
        only: Option<&[PathBuf]>,
    ) -> Result<Option<BuildResult>, BuildError> {
        let out = dir.join(&unit.output);
        let io = |what, path: &Path| {
            let path = path.to_path_buf();
            move |source| BuildError::Io { what, path, source }
        };
        if only.is_none() && out.exists() {
            std::fs::remove_dir_all(&out).map_err(io("cannot empty", &out))?;
        }
        std::fs::create_dir_all(&out).map_err(io("cannot create", &out))?;
        let sources = match only {
            Some(only) => only.to_vec(),
            None => {
                let mut sources = Vec::new();
                for root in &unit.source_roots {
                    sources
                        .extend(files_under(&dir.join(root)).into_iter().filter(|f| is_java(f)).map(|f| root.join(f)));
                }
                sources
            }
        };
        let compiled = if sources.is_empty() {
            None
        } else {
            let work = dir.join(WORK);
            std::fs::create_dir_all(&work).map_err(io("cannot create", &work))?;
            let argfile = work.join(format!("{name}-sources.txt"));
            let list: String = sources.iter().map(|p| format!("\"{}\"\n", p.display())).collect();
            std::fs::write(&argfile, list).map_err(io("cannot write", &argfile))?;
            let cmd = Cmd::new("javac")
                .args(QUICK_JVM.iter().map(|f| format!("-J{f}")))
                .args(&unit.javac_flags)
                // The rest of the unit is read from its classes, never recompiled implicitly.
                .args(if only.is_some() { &["-implicit:none"][..] } else { &[] })
                .arg("-d")
                .arg(&out)
                .arg("-classpath")
                .arg(join_paths(dir, &unit.classpath))
                .arg(format!("@{}", argfile.display()));
            Some(self.settings.compile(cmd, dir, INSTALL)?)
        };
        if only.is_none() && compiled.as_ref().is_none_or(|c| c.success()) {
            for root in &unit.resource_roots {
                copy_tree(&dir.join(root), &out).map_err(io("cannot copy resources from", &dir.join(root)))?;
            }
        }
        Ok(compiled)
    }

    /// Compiles every source of both units.
    fn compile_full(&self, dir: &Path) -> Result<BuildResult, BuildError> {
        incremental::forget(dir);
        let main = self.compile_unit(dir, &self.setup.main, "main", None)?;
        if let Some(main) = main.as_ref().filter(|m| !m.success()) {
            return Ok(main.clone());
        }
        let test = self.compile_unit(dir, &self.setup.test, "test", None)?;
        self.mark_compiled(dir)?;
        Ok(combine(main, test, "javac (no sources)"))
    }

    /// Recompiles what [`incremental::plan`] chose, or everything when the result is not what
    /// the plan assumed (a class added or removed, a constant changed).
    fn compile_changed(&self, dir: &Path, units: &[incremental::Recompile; 2]) -> Result<BuildResult, BuildError> {
        let mut results = Vec::new();
        for (unit, name, plan) in [(&self.setup.main, "main", &units[0]), (&self.setup.test, "test", &units[1])] {
            if plan.sources.is_empty() {
                continue;
            }
            incremental::forget(dir);
            for stale in &plan.stale {
                let path = dir.join(stale);
                std::fs::remove_file(&path).map_err(|source| BuildError::Io { what: "cannot delete", path, source })?;
            }
            let Some(built) = self.compile_unit(dir, unit, name, Some(&plan.sources))? else { continue };
            if !built.success() {
                return Ok(built);
            }
            if !plan.same_shape(dir, unit) {
                tracing::info!("full compile: the recompiled sources declare other classes or constants now");
                return self.compile_full(dir);
            }
            results.push(built);
        }
        self.mark_compiled(dir)?;
        let mut results = results.into_iter();
        let first = results.next();
        Ok(combine(first, results.next(), "javac (up to date)"))
    }
}

/// Main's and test's compile as one result.
fn combine(main: Option<BuildResult>, test: Option<BuildResult>, nothing: &str) -> BuildResult {
    match (main, test) {
        (Some(main), Some(mut test)) => {
            test.run.command = format!("{} && {}", main.run.command, test.run.command);
            test.run.elapsed_ms += main.run.elapsed_ms;
            test.run.output = format!("{}{}", main.run.output, test.run.output);
            test
        }
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => BuildResult {
            run: super::Invocation {
                command: nothing.into(),
                exit_code: Some(0),
                timed_out: false,
                elapsed_ms: 0,
                output: String::new(),
            },
            failure: None,
            diagnostics: Vec::new(),
        },
    }
}

fn is_java(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "java")
}

impl BuildTool for Direct {
    fn name(&self) -> &'static str {
        "javac + JUnit launcher"
    }

    fn compile(&self, dir: &Path) -> Result<BuildResult, BuildError> {
        match incremental::plan(dir, &self.setup) {
            incremental::Plan::UpToDate => Ok(combine(None, None, "javac (up to date)")),
            incremental::Plan::Recompile(units) => self.compile_changed(dir, &units),
            incremental::Plan::Full(why) => {
                tracing::debug!("full compile: {why}");
                self.compile_full(dir)
            }
        }
    }

    fn test(&self, dir: &Path, selection: &TestSelection) -> Result<TestRun, BuildError> {
        if !self.up_to_date(dir) {
            let built = self.compile(dir)?;
            if !built.success() {
                return Ok(TestRun {
                    run: built.run,
                    selection: selection.clone(),
                    failure: built.failure.or(Some(FailureKind::Compile)),
                    results: Vec::new(),
                    diagnostics: built.diagnostics,
                    total: 0,
                });
            }
        }
        let reports = PathBuf::from(WORK).join("reports");
        let mut cmd = Cmd::new("java")
            .args(QUICK_JVM)
            .args(&self.setup.jvm_flags)
            .arg("-jar")
            .arg(&self.setup.launcher)
            .args(["--disable-banner", "--details=none", "--class-path"])
            .arg(join_paths(dir, &self.setup.test.classpath))
            .arg("--reports-dir")
            .arg(dir.join(&reports));
        match selection {
            TestSelection::All => {
                cmd = cmd.arg("--scan-class-path").arg(dir.join(&self.setup.test.output));
                cmd = cmd.arg("--include-classname").arg(SUREFIRE_CLASSES);
            }
            TestSelection::Only(tests) => {
                // A method selector needs the parameter types of a parameterised test; the whole
                // class runs instead, and the caller picks the results it asked for.
                let mut classes: Vec<&str> = tests.iter().map(|t| t.split('#').next().unwrap_or(t)).collect();
                classes.dedup();
                for class in classes {
                    cmd = cmd.arg("--select-class").arg(class);
                }
            }
        }
        self.settings.test(cmd, dir, selection, &[reports], INSTALL)
    }
}

fn join_paths(dir: &Path, paths: &[PathBuf]) -> String {
    paths.iter().map(|p| dir.join(p).display().to_string()).collect::<Vec<_>>().join(":")
}

/// The files under `root`, relative to it, sorted; nothing when it does not exist.
pub(super) fn files_under(root: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(root.join(rel)) else { return };
        for e in entries.flatten() {
            let path = rel.join(e.file_name());
            match e.file_type() {
                Ok(t) if t.is_dir() => walk(root, &path, out),
                Ok(_) => out.push(path),
                Err(_) => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(root, Path::new(""), &mut out);
    out.sort();
    out
}

/// Copies every file under `from` into `to`, keeping relative paths (Maven's resource copy
/// without filtering).
pub(super) fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for rel in files_under(from) {
        let dest = to.join(&rel);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(from.join(&rel), dest)?;
    }
    Ok(())
}

/// The command that makes Maven print every mojo's configuration without compiling or testing
/// anything new (after a compile, everything is up to date).
pub fn maven_probe_args() -> [&'static str; 3] {
    ["-X", "test", "-DskipTests"]
}

/// Reads Maven's `-X` output into a setup for the project at `dir` (as it is after a compile).
pub fn from_maven_debug(output: &str, dir: &Path, java_lib: &Path) -> Probe {
    match parse_maven(output, dir, java_lib) {
        Ok(setup) => Probe::Direct(setup),
        Err(why) => Probe::Unsupported(why),
    }
}

type Mojo = BTreeMap<String, String>;

/// The configured mojos, in order: `(group:artifact:version:goal, key → value)`.
fn mojos(output: &str) -> Vec<(String, Mojo)> {
    let mut out: Vec<(String, Mojo)> = Vec::new();
    let mut current: Option<(String, Mojo)> = None;
    for line in output.lines() {
        let line = line.trim_end();
        if let Some(rest) = line.strip_prefix("[DEBUG] Configuring mojo '") {
            if let Some(done) = current.take() {
                out.push(done);
            }
            let id = rest.split('\'').next().unwrap_or(rest).to_string();
            current = Some((id, Mojo::new()));
        } else if line.starts_with("[DEBUG] -- end configuration --") {
            if let Some(done) = current.take() {
                out.push(done);
            }
        } else if let Some((_, mojo)) = current.as_mut()
            && let Some(rest) = line.strip_prefix("[DEBUG]   (")
            && let Some((_, kv)) = rest.split_once(") ")
            && let Some((k, v)) = kv.split_once(" = ")
        {
            mojo.insert(k.trim().to_string(), v.to_string());
        }
    }
    out.extend(current);
    out
}

const COMPILER_KEYS: &[&str] = &[
    "basedir",
    "buildDirectory",
    "compilePath",
    "testPath",
    "compileSourceRoots",
    "compilerArgs",
    "compilerId",
    "createMissingPackageInfoClass",
    "debug",
    "debugFileName",
    "debuglevel",
    "enablePreview",
    "encoding",
    "failOnError",
    "failOnWarning",
    "forceJavacCompilerUse",
    "fork",
    "generatedSourcesDirectory",
    "generatedTestSourcesDirectory",
    "mojoExecution",
    "optimize",
    "outputDirectory",
    "parameters",
    "project",
    "projectArtifact",
    "release",
    "session",
    "showDeprecation",
    "showWarnings",
    "skipMultiThreadWarning",
    "source",
    "staleMillis",
    "target",
    "useIncrementalCompilation",
    "verbose",
    "skipMain",
    "skip",
    "testRelease",
    "testSource",
    "testTarget",
    "maxmem",
    "meminitial",
    "outputFileName",
];

const RESOURCE_KEYS: &[&str] = &[
    "addDefaultExcludes",
    "buildFilters",
    "encoding",
    "escapeWindowsPaths",
    "fileNameFiltering",
    "includeEmptyDirs",
    "outputDirectory",
    "overwrite",
    "project",
    "resources",
    "session",
    "skip",
    "supportMultiLineFiltering",
    "useBuildFilters",
    "useDefaultDelimiters",
    "filters",
    "mavenSession",
    "escapeString",
    "delimiters",
    "nonFilteredFileExtensions",
];

const SUREFIRE_KEYS: &[&str] = &[
    "additionalClasspathElements",
    "basedir",
    "childDelegation",
    "classesDirectory",
    "classpathDependencyExcludes",
    "dependenciesToScan",
    "disableXmlReport",
    "enableAssertions",
    "encoding",
    "forkCount",
    "forkMode",
    "forkedProcessExitTimeoutInSeconds",
    "junitArtifactName",
    "junitPlatformArtifactName",
    "localRepository",
    "parallelMavenExecution",
    "parallelOptimized",
    "perCoreThreadCount",
    "pluginArtifactMap",
    "pluginDescriptor",
    "printSummary",
    "projectArtifactMap",
    "projectBuildDirectory",
    "redirectTestOutputToFile",
    "remoteRepositories",
    "reportFormat",
    "reportsDirectory",
    "rerunFailingTestsCount",
    "reuseForks",
    "runOrder",
    "shutdown",
    "skip",
    "skipAfterFailureCount",
    "skipTests",
    "skipExec",
    "suiteXmlFiles",
    "tempDir",
    "testClassesDirectory",
    "testFailureIgnore",
    "testNGArtifactName",
    "testSourceDirectory",
    "threadCountClasses",
    "threadCountMethods",
    "threadCountSuites",
    "trimStackTrace",
    "useFile",
    "useManifestOnlyJar",
    "useSystemClassLoader",
    "useUnlimitedThreads",
    "workingDirectory",
    "project",
    "session",
    "failIfNoSpecifiedTests",
    "failIfNoTests",
    "useModulePath",
    "mojoExecution",
    "statelessTestsetReporter",
    "consoleOutputReporter",
    "statelessTestsetInfoReporter",
    "providerProperties",
    "excludesFile",
    "includesFile",
];

fn parse_maven(output: &str, dir: &Path, java_lib: &Path) -> Result<DirectSetup, String> {
    let mut by_goal: BTreeMap<&str, Mojo> = BTreeMap::new();
    for (id, mojo) in mojos(output) {
        let mut parts = id.split(':');
        let (artifact, goal) = (parts.nth(1).unwrap_or(""), parts.nth(1).unwrap_or(""));
        let (keys, goal): (&[&str], &str) = match (artifact, goal) {
            ("maven-resources-plugin", "resources") => (RESOURCE_KEYS, "resources"),
            ("maven-resources-plugin", "testResources") => (RESOURCE_KEYS, "testResources"),
            ("maven-compiler-plugin", "compile") => (COMPILER_KEYS, "compile"),
            ("maven-compiler-plugin", "testCompile") => (COMPILER_KEYS, "testCompile"),
            ("maven-surefire-plugin", "test") => (SUREFIRE_KEYS, "test"),
            _ => return Err(format!("the build runs {id}, which mantra does not reproduce")),
        };
        if let Some(key) = mojo.keys().find(|k| !keys.contains(&k.as_str())) {
            return Err(format!("{id} is configured with `{key}`, which mantra does not reproduce"));
        }
        if by_goal.insert(goal, mojo).is_some() {
            return Err(format!("{id} runs more than once (a multi-module build or several executions)"));
        }
    }
    let get = |goal: &str| by_goal.get(goal).ok_or_else(|| format!("Maven's output shows no {goal} step"));
    let (compile, test_compile, surefire) = (get("compile")?, get("testCompile")?, get("test")?);
    let basedir = PathBuf::from(compile.get("basedir").ok_or("the compile step names no basedir")?);
    let rel = |p: &str| -> PathBuf {
        let p = Path::new(p);
        p.strip_prefix(&basedir).map(Path::to_path_buf).unwrap_or_else(|_| p.to_path_buf())
    };

    let main = unit(compile, by_goal.get("resources"), "compilePath", &rel, dir)?;
    let test = unit(test_compile, by_goal.get("testResources"), "testPath", &rel, dir)?;

    let value = |key: &str| surefire.get(key).map(String::as_str);
    for key in ["additionalClasspathElements", "classpathDependencyExcludes", "dependenciesToScan", "suiteXmlFiles"] {
        if value(key).is_some_and(|v| v != "[]") {
            return Err(format!("Surefire is configured with `{key}`"));
        }
    }
    if value("workingDirectory").is_some_and(|w| rel(w) != Path::new("")) {
        return Err("Surefire runs the tests in another working directory".into());
    }
    if value("testFailureIgnore") == Some("true") || value("skip") == Some("true") {
        return Err("Surefire ignores test failures or is skipped".into());
    }
    let jvm_flags = if value("enableAssertions") == Some("false") { vec![] } else { vec!["-ea".to_string()] };
    let launcher = java_lib.join(CONSOLE_LAUNCHER);
    if !launcher.is_file() {
        return Err(format!("the JUnit console launcher {} is missing (`apt-get install junit5`)", launcher.display()));
    }
    Ok(DirectSetup { main, test, jvm_flags, launcher })
}

/// One compile step (with its resource step) as a [`Unit`], or why it cannot be reproduced.
fn unit(
    mojo: &Mojo,
    resources: Option<&Mojo>,
    classpath_key: &str,
    rel: &dyn Fn(&str) -> PathBuf,
    dir: &Path,
) -> Result<Unit, String> {
    let v = |key: &str| mojo.get(key).map(String::as_str);
    if v("compilerId").is_some_and(|c| c != "javac") || v("fork") == Some("true") {
        return Err("the compiler is forked or not javac".into());
    }
    if v("failOnError") == Some("false") || v("skipMain") == Some("true") || v("skip") == Some("true") {
        return Err("the compiler ignores errors or is skipped".into());
    }
    let source_roots: Vec<PathBuf> = list(v("compileSourceRoots").unwrap_or("[]")).iter().map(|p| rel(p)).collect();
    let output = rel(v("outputDirectory").ok_or("the compile step names no output directory")?);
    let build_dir = rel(v("buildDirectory").unwrap_or("target"));
    for root in &source_roots {
        if root.is_absolute() || root.starts_with(&build_dir) {
            return Err(format!("the source root {} is generated or outside the project", root.display()));
        }
        if files_under(&dir.join(root)).iter().any(|f| f.file_name().is_some_and(|n| n == "module-info.java")) {
            return Err("the project declares a module (module-info.java)".into());
        }
    }
    for key in ["generatedSourcesDirectory", "generatedTestSourcesDirectory"] {
        if let Some(g) = v(key)
            && !files_under(&dir.join(rel(g))).is_empty()
        {
            return Err(format!("an annotation processor generated sources in {g}"));
        }
    }
    let classpath = list(v(classpath_key).unwrap_or("[]")).iter().map(|p| rel(p)).collect();

    let mut flags = Vec::new();
    if v("debug") != Some("false") {
        flags.push(match v("debuglevel") {
            Some(level) => format!("-g:{level}"),
            None => "-g".into(),
        });
    }
    if v("showDeprecation") == Some("true") {
        flags.push("-deprecation".into());
    }
    if v("showWarnings") == Some("false") {
        flags.push("-nowarn".into());
    }
    if v("parameters") == Some("true") {
        flags.push("-parameters".into());
    }
    if v("enablePreview") == Some("true") {
        flags.push("--enable-preview".into());
    }
    if let Some(e) = v("encoding").filter(|e| *e != "null") {
        flags.extend(["-encoding".into(), e.to_string()]);
    }
    let (release, source, target) = if classpath_key == "testPath" {
        (v("testRelease").or(v("release")), v("testSource").or(v("source")), v("testTarget").or(v("target")))
    } else {
        (v("release"), v("source"), v("target"))
    };
    match release.filter(|r| *r != "null") {
        Some(r) => flags.extend(["--release".into(), r.to_string()]),
        None => {
            for (flag, value) in [("-source", source), ("-target", target)] {
                if let Some(x) = value.filter(|x| *x != "null") {
                    flags.extend([flag.to_string(), x.to_string()]);
                }
            }
        }
    }
    if v("failOnWarning") == Some("true") {
        flags.push("-Werror".into());
    }
    flags.extend(list(v("compilerArgs").unwrap_or("[]")));

    let mut resource_roots = Vec::new();
    if let Some(res) = resources {
        if res.get("outputDirectory").map(|o| rel(o)) != Some(output.clone()) {
            return Err("resources are copied somewhere else than the classes".into());
        }
        for chunk in res.get("resources").map(String::as_str).unwrap_or("[]").split("Resource {").skip(1) {
            let plain = chunk.contains("targetPath: null")
                && chunk.contains("filtering: false")
                && chunk.contains("includes: {}")
                && chunk.contains("excludes: {}");
            if !plain {
                return Err("resources are filtered, selected or moved".into());
            }
            let directory = chunk
                .split_once("directory: ")
                .and_then(|(_, d)| d.split(", PatternSet").next())
                .ok_or("a resource folder cannot be read from Maven's output")?;
            resource_roots.push(rel(directory));
        }
    }
    Ok(Unit { source_roots, resource_roots, output, classpath, javac_flags: flags })
}

/// `[a, b, c]` as items; `[]` and `null` as none.
fn list(value: &str) -> Vec<String> {
    let inner = value.trim().trim_start_matches('[').trim_end_matches(']').trim();
    if inner.is_empty() || inner == "null" {
        return Vec::new();
    }
    inner.split(", ").map(|s| s.trim().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Maven's `-X` output for a project at `/p`, trimmed to the mojo configurations.
    fn log(extra_compile: &str, extra_mojo: &str) -> String {
        format!(
            "[DEBUG] Configuring mojo 'org.apache.maven.plugins:maven-resources-plugin:3.3.0:resources' with basic configurator -->
[DEBUG]   (s) outputDirectory = /p/target/classes
[DEBUG]   (s) resources = [Resource {{targetPath: null, filtering: false, FileSet {{directory: /p/src/main/resources, PatternSet [includes: {{}}, excludes: {{}}]}}}}]
[DEBUG] -- end configuration --
[DEBUG] Configuring mojo 'org.apache.maven.plugins:maven-compiler-plugin:3.10.1:compile' with basic configurator -->
[DEBUG]   (f) basedir = /p
[DEBUG]   (f) buildDirectory = /p/target
[DEBUG]   (f) compilePath = [/p/target/classes, /repo/lib.jar]
[DEBUG]   (f) compileSourceRoots = [/p/src/main/java]
[DEBUG]   (f) compilerArgs = [-Xlint:all, -Xdiags:verbose]
[DEBUG]   (f) debug = true
[DEBUG]   (f) encoding = UTF-8
[DEBUG]   (f) outputDirectory = /p/target/classes
[DEBUG]   (f) parameters = true
[DEBUG]   (s) release = 17
[DEBUG]   (f) source = 1.7
{extra_compile}[DEBUG] -- end configuration --
[DEBUG] Configuring mojo 'org.apache.maven.plugins:maven-compiler-plugin:3.10.1:testCompile' with basic configurator -->
[DEBUG]   (f) basedir = /p
[DEBUG]   (f) compileSourceRoots = [/p/src/test/java]
[DEBUG]   (f) outputDirectory = /p/target/test-classes
[DEBUG]   (f) source = 11
[DEBUG]   (f) target = 11
[DEBUG]   (f) testPath = [/p/target/test-classes, /p/target/classes, /repo/junit.jar]
[DEBUG] -- end configuration --
{extra_mojo}[DEBUG] Configuring mojo 'org.apache.maven.plugins:maven-surefire-plugin:2.22.3:test' with basic configurator -->
[DEBUG]   (s) additionalClasspathElements = []
[DEBUG]   (s) enableAssertions = true
[DEBUG]   (s) localRepository =       id: local
      url: file:///repo
[DEBUG]   (s) workingDirectory = /p
[DEBUG] -- end configuration --
"
        )
    }

    fn launcher_dir() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CONSOLE_LAUNCHER), "jar").unwrap();
        dir
    }

    #[test]
    fn maven_configuration_becomes_javac_flags_and_classpaths() {
        let lib = launcher_dir();
        let Probe::Direct(setup) = from_maven_debug(&log("", ""), Path::new("/nonexistent"), lib.path()) else {
            panic!("the plain configuration is reproducible")
        };
        assert_eq!(setup.main.source_roots, [PathBuf::from("src/main/java")]);
        assert_eq!(setup.main.resource_roots, [PathBuf::from("src/main/resources")]);
        assert_eq!(setup.main.output, PathBuf::from("target/classes"));
        assert_eq!(setup.main.classpath, [PathBuf::from("target/classes"), PathBuf::from("/repo/lib.jar")]);
        assert_eq!(
            setup.main.javac_flags,
            ["-g", "-parameters", "-encoding", "UTF-8", "--release", "17", "-Xlint:all", "-Xdiags:verbose"]
        );
        assert_eq!(setup.test.javac_flags, ["-g", "-source", "11", "-target", "11"]);
        assert_eq!(setup.test.classpath[2], PathBuf::from("/repo/junit.jar"));
        assert_eq!(setup.jvm_flags, ["-ea"]);
    }

    #[test]
    fn anything_mantra_cannot_reproduce_keeps_the_build_tool() {
        let lib = launcher_dir();
        let dir = Path::new("/nonexistent");
        let unsupported = |text: &str| match from_maven_debug(text, dir, lib.path()) {
            Probe::Unsupported(why) => why,
            Probe::Direct(_) => panic!("reproduced: {text}"),
        };
        let processors = log("[DEBUG]   (f) annotationProcessorPaths = [lombok]\n", "");
        assert!(unsupported(&processors).contains("annotationProcessorPaths"));
        let proc = log("[DEBUG]   (f) proc = only\n", "");
        assert!(unsupported(&proc).contains("`proc`"));
        let fork = log("[DEBUG]   (f) fork = true\n", "");
        assert!(unsupported(&fork).contains("forked"));
        let generator = log(
            "",
            "[DEBUG] Configuring mojo 'org.codehaus.mojo:build-helper-maven-plugin:3.0:add-source' with basic configurator -->\n\
             [DEBUG] -- end configuration --\n",
        );
        assert!(unsupported(&generator).contains("build-helper"));
        let arg_line = log("", "").replace("(s) enableAssertions = true", "(s) argLine = -Xmx64m");
        assert!(unsupported(&arg_line).contains("argLine"));
        let filtered = log("", "").replace("filtering: false", "filtering: true");
        assert!(unsupported(&filtered).contains("filtered"));
        let no_launcher = tempfile::tempdir().unwrap();
        let Probe::Unsupported(why) = from_maven_debug(&log("", ""), dir, no_launcher.path()) else { panic!() };
        assert!(why.contains("junit5"), "{why}");
    }

    #[test]
    fn a_module_declaration_keeps_the_build_tool() {
        let lib = launcher_dir();
        let p = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(p.path().join("src/main/java")).unwrap();
        std::fs::write(p.path().join("src/main/java/module-info.java"), "module a {}").unwrap();
        let text = log("", "").replace("/p", &p.path().display().to_string());
        let Probe::Unsupported(why) = from_maven_debug(&text, p.path(), lib.path()) else { panic!() };
        assert!(why.contains("module-info"), "{why}");
    }
}
