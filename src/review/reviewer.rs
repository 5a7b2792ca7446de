//! The Reviewer: a change goes into an isolated workspace and through every stage, and comes out
//! with a [`Verdict`].
//!
//! Order, and why:
//! 1. **baseline**: the original's compile and full test run ([`build::baseline`], cached per
//!    project state under `.mantra/cache/baseline/` in the project), so that a project that did
//!    not compile before ([`Verdict::BrokenBaseline`]) or tests that already failed are never blamed
//!    on the change;
//! 2. **detection**: the cheap semantic check, did the intended refactoring happen;
//! 3. **style**: Checkstyle, new violations only (enforced with the project's own rules, advisory
//!    with Checkstyle's bundled ones, which are a guess at the project's style);
//! 4. **compile**, 5. **tests affected**, 6. **tests all**, as `verify.tests` says.
//!
//! The first failing stage rejects the change and the remaining stages are reported as skipped.
//! Every stage is timed and handed to the caller's observer as it finishes, for a live view. The
//! workspace lives in the returned [`Review`] (the caller applies the result back from it, or
//! keeps it), and is removed on every other path by its own `Drop`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;
use serde_json::json;

use crate::build::{self, Baseline, BuildTool, Diagnostic, FailureKind, Judgement, Outcome, TestResult, TestSelection};
use crate::config::{self, BuildConfig, CheckstyleConfig, Config};
use crate::error::Classify;
use crate::exit::Exit;
use crate::process::Runner;
use crate::workspace::{Workspace, WorkspaceError, WorkspaceOptions};

use super::change::{Change, Side};
use super::checkstyle::{BUNDLED_RULES, Checkstyle, CheckstyleError, Violation};
use super::stage::{Stage, StageReport, StageStatus, Verdict};
use super::validator::{Found, Intent, Match, Validation, Validator};

/// Where, inside the workspace, the before side of the changed files is written for Checkstyle
/// (removed again before the build, so no tool sees it as a source).
const BEFORE_DIR: &str = ".mantra/review-before";

/// What can stop a review from running (as opposed to a review that ran and rejected).
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
    #[error(transparent)]
    Build(#[from] build::BuildError),
    #[error("{what} {}: {source}", path.display())]
    Io { what: &'static str, path: PathBuf, source: std::io::Error },
    #[error("git is not installed")]
    GitMissing,
    #[error("{} is not in a git repository", path.display())]
    NotGit { path: PathBuf },
    #[error("the repository at {} has no commit to compare the working tree with", path.display())]
    NoCommit { path: PathBuf },
    #[error("`{command}` failed: {message}")]
    Git { command: String, message: String },
    #[error(transparent)]
    Conflict(#[from] crate::engine::EditConflict),
}

impl Classify for ReviewError {
    fn exit(&self) -> Exit {
        match self {
            ReviewError::Workspace(e) => e.exit(),
            ReviewError::Build(e) => e.exit(),
            ReviewError::GitMissing => Exit::EnvironmentMissing,
            ReviewError::NotGit { .. } | ReviewError::NoCommit { .. } => Exit::Usage,
            ReviewError::Io { .. } | ReviewError::Git { .. } | ReviewError::Conflict(_) => Exit::Internal,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            ReviewError::Workspace(e) => e.hint(),
            ReviewError::Build(e) => e.hint(),
            ReviewError::GitMissing => Some("install git (`apt-get install git`)".into()),
            ReviewError::NotGit { .. } => Some(
                "`mantra verify` compares the working tree with HEAD; run it inside a git repository, \
                 or use `mantra refactor --apply` (which verifies its own change)"
                    .into(),
            ),
            ReviewError::NoCommit { .. } => Some("commit the code as it was before the change, then verify".into()),
            _ => None,
        }
    }
}

/// The outcome of a review.
#[derive(Debug)]
pub struct Review {
    pub verdict: Verdict,
    /// Every stage, in order, the skipped ones included.
    pub stages: Vec<StageReport>,
    /// Compiler errors of the change (or of the original, for a broken baseline).
    pub diagnostics: Vec<Diagnostic>,
    /// Tests the change broke: passing before, failing now and again when re-run.
    pub broken: Vec<TestResult>,
    /// Failing before and after: not the change's fault.
    pub pre_existing: Vec<TestResult>,
    /// Failed once after the change, passed when re-run.
    pub flaky: Vec<TestResult>,
    pub new_violations: Vec<Violation>,
    /// The detection stage's answer about the intent.
    pub validation: Option<Validation>,
    /// Without an intent: what the detector found.
    pub detected: Vec<Found>,
    /// The workspace holding the change; removed when dropped unless kept.
    pub workspace: Workspace,
    /// When the change was accepted after a run of every test: its compile and that run, a
    /// baseline for the state it leaves ([`Review::keep_after_state`]), keyed once it is written.
    pub after_state: Option<Baseline>,
}

/// Builds, tests and reviews changes; see the module documentation.
pub struct Reviewer {
    pub build: BuildConfig,
    pub tests: config::TestSelection,
    /// `verify.runner`: after the baseline, `javac` + the JUnit launcher where sound.
    pub test_runner: config::TestRunner,
    pub checkstyle: CheckstyleConfig,
    pub runner: Arc<dyn Runner>,
    /// `None`: the detection stage is skipped.
    pub validator: Option<Box<dyn Validator>>,
    pub workspace: WorkspaceOptions,
}

impl Reviewer {
    /// A reviewer as the configuration says, with the default validator.
    pub fn new(config: &Config, runner: Arc<dyn Runner>) -> Reviewer {
        Reviewer {
            build: config.build.clone(),
            tests: config.verify.tests,
            test_runner: config.verify.runner,
            checkstyle: config.checkstyle.clone(),
            validator: super::default_validator(config, runner.clone()),
            runner,
            workspace: WorkspaceOptions::default(),
        }
    }

    /// Reviews `change` to the project at `project`. The baseline is the project with the change's
    /// before side written in (for a change set, the project as it is), cached under
    /// `baseline_key`, which must name exactly that state. `on_stage` sees every stage as it ends.
    pub fn review(
        &self,
        project: &Path,
        change: &Change,
        intent: Option<&Intent>,
        baseline_key: &str,
        on_stage: &mut dyn FnMut(&StageReport),
    ) -> Result<Review, ReviewError> {
        let workspace = Workspace::create_with(project, &self.workspace)?;
        let mut run = Run {
            review: Review {
                verdict: Verdict::Accepted,
                stages: Vec::new(),
                diagnostics: Vec::new(),
                broken: Vec::new(),
                pre_existing: Vec::new(),
                flaky: Vec::new(),
                new_violations: Vec::new(),
                validation: None,
                detected: Vec::new(),
                workspace,
                after_state: None,
            },
            on_stage,
            compiled: None,
            all_tests: None,
        };
        let root = run.review.workspace.root().to_path_buf();
        let tool = build::tool_for(&root, &self.build, self.runner.clone());

        change.write(&root, Side::Before)?;
        let base = self.baseline(&mut run, tool.as_ref(), project, &root, baseline_key)?;
        let Some(base) = base else { return Ok(run.finish()) };
        change.write(&root, Side::After)?;
        // The stages after the baseline build the way the baseline's tests ran.
        let tool: Box<dyn BuildTool> = match &base.direct {
            Some(setup) => Box::new(build::Direct::new(setup.clone(), self.direct_settings())),
            None => tool,
        };

        self.detection(&mut run, change, intent);
        if run.rejected() {
            return Ok(run.finish());
        }
        self.style(&mut run, change, project, &root)?;
        if run.rejected() {
            return Ok(run.finish());
        }
        self.compile(&mut run, tool.as_ref(), &root)?;
        if run.rejected() {
            return Ok(run.finish());
        }
        self.test_stages(&mut run, tool.as_ref(), &root, change, &base)?;
        if !run.rejected() {
            run.review.after_state = super::cache::after_state(&base, run.compiled.take(), run.all_tests.take());
        }
        Ok(run.finish())
    }

    fn direct_settings(&self) -> build::Settings {
        build::Settings::from_config(&self.build, self.runner.clone())
    }

    /// The original's build and tests; `None` when it is broken (the verdict is then set).
    fn baseline(
        &self,
        run: &mut Run,
        tool: &dyn BuildTool,
        project: &Path,
        root: &Path,
        key: &str,
    ) -> Result<Option<Baseline>, ReviewError> {
        let start = Instant::now();
        super::cache::seed_cache(project, root, key);
        let direct = (self.test_runner == config::TestRunner::Direct).then(|| self.direct_settings());
        let base = build::baseline_with(tool, root, key, direct.as_ref())?;
        if !base.cached {
            super::cache::keep_cache(project, root, &base);
        }
        if let (Some(setup), Some(settings)) = (&base.direct, &direct) {
            super::cache::cache_classes(project, root, key, setup, settings, base.cached);
        }
        let elapsed = start.elapsed();
        let timeout = self.build.timeout_secs;
        let mut details = json!({
            "tool": base.tool,
            "key": base.key,
            "cached": base.cached,
            "compiles": base.compile.success(),
            "runner": if base.direct.is_some() { "direct" } else { "build-tool" },
        });
        if let Some(why) = &base.direct_unsupported {
            details["direct_unsupported"] = json!(why);
        }
        let cached = if base.cached { " (cached)" } else { "" };
        if !base.compile.success() {
            let reasons = if base.compile.failure == Some(FailureKind::Timeout) {
                vec![format!("the original project did not compile within {timeout} s (build.timeout_secs)")]
            } else if base.compile.diagnostics.is_empty() {
                vec![format!("the original project does not compile: {}", tail(&base.compile.run.output, 20))]
            } else {
                base.compile.diagnostics.iter().map(diagnostic_line).collect()
            };
            details["diagnostics"] = json!(base.compile.diagnostics);
            run.review.diagnostics = base.compile.diagnostics.clone();
            run.stage(
                StageReport::new(Stage::Baseline, StageStatus::Failed, elapsed, "the original does not compile")
                    .with_details(details),
            );
            run.review.verdict = Verdict::BrokenBaseline { reasons };
            return Ok(None);
        }
        let tests = base.tests.as_ref();
        if let Some(t) = tests.filter(|t| t.failure == Some(FailureKind::Timeout)) {
            details["tests"] = json!({ "command": t.run.command, "timed_out": true });
            run.stage(
                StageReport::new(Stage::Baseline, StageStatus::Failed, elapsed, "the original's tests time out")
                    .with_details(details),
            );
            run.review.verdict = Verdict::BrokenBaseline {
                reasons: vec![format!(
                    "the original project's tests did not finish within {timeout} s (build.timeout_secs); \
                     nothing can be judged against them"
                )],
            };
            return Ok(None);
        }
        let (total, failing): (usize, Vec<String>) =
            tests.map_or((0, Vec::new()), |t| (t.total, t.failing().map(|r| r.id.clone()).collect()));
        details["tests"] = json!(total);
        details["failing"] = json!(failing);
        // Skipped tests neither pass nor fail: counted apart, as the runs after the change count
        // only those that passed.
        let skipped = tests.map_or(0, |t| t.count(Outcome::Skipped));
        let skipped_note = if skipped > 0 { format!(" ({skipped} skipped)") } else { String::new() };
        let (status, summary) = if failing.is_empty() {
            (StageStatus::Ok, format!("compiles, {} tests pass{skipped_note}{cached}", total.saturating_sub(skipped)))
        } else {
            (
                StageStatus::Warning,
                format!("compiles, {} of {total} tests already failing (not blamed){cached}", failing.len()),
            )
        };
        run.stage(StageReport::new(Stage::Baseline, status, elapsed, summary).with_details(details));
        Ok(Some(base))
    }

    fn detection(&self, run: &mut Run, change: &Change, intent: Option<&Intent>) {
        let Some(validator) = &self.validator else {
            run.stage(StageReport::skipped(Stage::Detection, "detector not available"));
            return;
        };
        let start = Instant::now();
        let (before, after) = (change.java(Side::Before), change.java(Side::After));
        let report = match intent {
            Some(intent) => match validator.validate(intent, &before, &after) {
                Ok(v) => {
                    let (status, summary) = match v.verdict {
                        Match::Matched => (StageStatus::Ok, format!("{} found", kind_display(intent))),
                        Match::Missing => (StageStatus::Failed, format!("{} not found", kind_display(intent))),
                        Match::Ambiguous => (StageStatus::Warning, "ambiguous: several refactorings fit".to_string()),
                    };
                    let details = json!({ "validator": validator.name(), "intent": intent, "validation": v });
                    if v.verdict == Match::Missing {
                        run.reject(Stage::Detection, None, vec![v.reason.clone()]);
                    }
                    run.review.validation = Some(v);
                    StageReport::new(Stage::Detection, status, start.elapsed(), summary).with_details(details)
                }
                Err(e) => StageReport::skipped(Stage::Detection, format!("{} failed: {e}", validator.name())),
            },
            None => match validator.detect(&before, &after) {
                Ok(found) => {
                    let summary = match found.len() {
                        0 => "no refactoring found".to_string(),
                        1 => "1 refactoring found".to_string(),
                        n => format!("{n} refactorings found"),
                    };
                    let details = json!({ "validator": validator.name(), "found": found });
                    run.review.detected = found;
                    StageReport::new(Stage::Detection, StageStatus::Ok, start.elapsed(), summary).with_details(details)
                }
                Err(e) => StageReport::skipped(Stage::Detection, format!("{} failed: {e}", validator.name())),
            },
        };
        run.stage(report);
    }

    fn style(&self, run: &mut Run, change: &Change, project: &Path, root: &Path) -> Result<(), ReviewError> {
        let start = Instant::now();
        // Both sides' files: a file the change moves (a renamed class) is checked under its old path
        // before and its new one after, so that what it had already is not counted as new.
        let after = change.java(Side::After);
        let mut java: Vec<PathBuf> = after.keys().cloned().collect();
        if java.is_empty() {
            run.stage(StageReport::skipped(Stage::Style, "no Java file changed"));
            return Ok(());
        }
        java.extend(change.java(Side::Before).into_keys().filter(|p| !after.contains_key(p)));
        let before = root.join(BEFORE_DIR);
        change.write(&before, Side::Before)?;
        let checkstyle = Checkstyle::new(&self.checkstyle, project, self.runner.clone());
        let result = checkstyle.review(&before, root, &java);
        if let Err(source) = std::fs::remove_dir_all(&before) {
            return Err(ReviewError::Io { what: "cannot remove", path: before, source });
        }
        let review = match result {
            Ok(review) => review,
            Err(e @ (CheckstyleError::Missing { .. } | CheckstyleError::BadConfig { .. })) => {
                let hint = e.hint().map(|h| format!(" ({h})")).unwrap_or_default();
                run.stage(StageReport::skipped(Stage::Style, format!("{e}{hint}")));
                return Ok(());
            }
            Err(e) => {
                run.stage(StageReport::skipped(Stage::Style, e.to_string()));
                return Ok(());
            }
        };
        // The bundled rules are a guess at the project's style: their findings inform, never reject.
        let enforced = !review.rules.starts_with(BUNDLED_RULES);
        let n = review.new.len();
        let summary = match n {
            0 => "no new violation".to_string(),
            1 => "1 new violation".to_string(),
            n => format!("{n} new violations"),
        };
        let status = match (n, enforced) {
            (0, _) => StageStatus::Ok,
            (_, true) => StageStatus::Failed,
            (_, false) => StageStatus::Warning,
        };
        let summary = if n > 0 && !enforced { format!("{summary} (bundled rules: advisory)") } else { summary };
        let details = json!({ "rules": review.rules, "enforced": enforced, "new": review.new,
            "before": review.before.len(), "after": review.after.len() });
        if status == StageStatus::Failed {
            run.reject(Stage::Style, None, review.new.iter().map(violation_line).collect());
        }
        run.review.new_violations = review.new;
        run.stage(StageReport::new(Stage::Style, status, start.elapsed(), summary).with_details(details));
        Ok(())
    }

    fn compile(&self, run: &mut Run, tool: &dyn BuildTool, root: &Path) -> Result<(), ReviewError> {
        let start = Instant::now();
        let result = tool.compile(root)?;
        let details = json!({ "tool": tool.name(), "command": result.run.command, "failure": result.failure,
            "diagnostics": result.diagnostics });
        let elapsed = start.elapsed();
        let report = match result.failure {
            None => StageReport::new(Stage::Compile, StageStatus::Ok, elapsed, "ok"),
            Some(FailureKind::Timeout) => {
                run.reject(Stage::Compile, Some(FailureKind::Timeout), vec![self.timeout_reason("compiling")]);
                StageReport::new(Stage::Compile, StageStatus::Failed, elapsed, "timed out")
            }
            Some(kind) => {
                let reasons = if result.diagnostics.is_empty() {
                    vec![format!("{} failed: {}", result.run.command, tail(&result.run.output, 20))]
                } else {
                    result.diagnostics.iter().map(diagnostic_line).collect()
                };
                let n = result.diagnostics.len();
                run.reject(Stage::Compile, Some(kind), reasons);
                run.review.diagnostics = result.diagnostics.clone();
                let summary = match n {
                    0 => "failed".to_string(),
                    1 => "1 error".to_string(),
                    n => format!("{n} errors"),
                };
                StageReport::new(Stage::Compile, StageStatus::Failed, elapsed, summary)
            }
        };
        run.stage(report.with_details(details));
        run.compiled = Some(result);
        Ok(())
    }

    fn test_stages(
        &self,
        run: &mut Run,
        tool: &dyn BuildTool,
        root: &Path,
        change: &Change,
        base: &Baseline,
    ) -> Result<(), ReviewError> {
        use config::TestSelection as Policy;
        if matches!(self.tests, Policy::Affected | Policy::AffectedThenAll) {
            let start = Instant::now();
            let affected = match crate::java::Project::open(root) {
                Ok(project) => build::affected_tests(&project, &changed_classes(&project, change)),
                Err(e) => {
                    tracing::warn!("cannot read the project to select the affected tests: {e}");
                    Vec::new()
                }
            };
            if affected.is_empty() {
                run.stage(StageReport::skipped(Stage::TestsAffected, "no test reaches the changed classes"));
            } else {
                self.test_stage(run, tool, root, base, Stage::TestsAffected, TestSelection::Only(affected), start)?;
                if run.rejected() {
                    return Ok(());
                }
            }
        } else {
            run.stage(StageReport::skipped(Stage::TestsAffected, "verify.tests = all"));
        }
        if matches!(self.tests, Policy::All | Policy::AffectedThenAll) {
            self.test_stage(run, tool, root, base, Stage::TestsAll, TestSelection::All, Instant::now())?;
        } else {
            run.stage(StageReport::skipped(Stage::TestsAll, "verify.tests = affected"));
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn test_stage(
        &self,
        run: &mut Run,
        tool: &dyn BuildTool,
        root: &Path,
        base: &Baseline,
        stage: Stage,
        selection: TestSelection,
        start: Instant,
    ) -> Result<(), ReviewError> {
        let tests = tool.test(root, &selection)?;
        let judged: Judgement = build::judge(tool, root, base, &tests)?;
        let elapsed = start.elapsed();
        let passed = tests.count(Outcome::Passed) + judged.flaky.len();
        let mut summary = format!("{passed} passed");
        if !judged.broken.is_empty() {
            summary = format!("{} failed, {summary}", judged.broken.len());
        }
        if !judged.pre_existing.is_empty() {
            summary.push_str(&format!(", {} failing before too", judged.pre_existing.len()));
        }
        if !judged.flaky.is_empty() {
            summary.push_str(&format!(", {} flaky", judged.flaky.len()));
        }
        let details = json!({
            "selection": selection, "command": tests.run.command, "total": tests.total, "passed": passed,
            "failure": judged.failure, "broken": judged.broken, "pre_existing": judged.pre_existing,
            "flaky": judged.flaky,
        });
        let status = match judged.failure {
            Some(kind) => {
                let reasons = match kind {
                    FailureKind::Timeout => vec![self.timeout_reason("running the tests")],
                    FailureKind::Compile => tests.diagnostics.iter().map(diagnostic_line).collect(),
                    _ if judged.broken.is_empty() => {
                        vec![format!("{} failed: {}", tests.run.command, tail(&tests.run.output, 20))]
                    }
                    _ => judged.broken.iter().map(test_line).collect(),
                };
                if kind == FailureKind::Timeout {
                    summary = "timed out".into();
                }
                if kind == FailureKind::Compile {
                    run.review.diagnostics = tests.diagnostics.clone();
                }
                run.reject(stage, Some(kind), reasons);
                StageStatus::Failed
            }
            None if !judged.flaky.is_empty() || !judged.pre_existing.is_empty() => StageStatus::Warning,
            None => StageStatus::Ok,
        };
        run.review.broken.extend(judged.broken);
        merge(&mut run.review.pre_existing, judged.pre_existing);
        merge(&mut run.review.flaky, judged.flaky);
        run.stage(StageReport::new(stage, status, elapsed, summary).with_details(details));
        if stage == Stage::TestsAll && !run.rejected() && run.review.flaky.is_empty() {
            run.all_tests = Some(tests);
        }
        Ok(())
    }

    fn timeout_reason(&self, what: &str) -> String {
        format!(
            "{what} took longer than {} s (build.timeout_secs); every process of the build was killed",
            self.build.timeout_secs
        )
    }
}

/// A review under way: the result so far and who is watching.
struct Run<'a> {
    review: Review,
    on_stage: &'a mut dyn FnMut(&StageReport),
    /// The change's compile, and its run of every test when that passed with no second runs:
    /// what [`Review::after_state`] is made of.
    compiled: Option<build::BuildResult>,
    all_tests: Option<build::TestRun>,
}

impl Run<'_> {
    fn stage(&mut self, report: StageReport) {
        (self.on_stage)(&report);
        self.review.stages.push(report);
    }

    fn rejected(&self) -> bool {
        !self.review.verdict.accepted()
    }

    /// Records the first rejection; later ones cannot happen (the pipeline stops).
    fn reject(&mut self, stage: Stage, failure: Option<FailureKind>, reasons: Vec<String>) {
        if self.review.verdict.accepted() {
            self.review.verdict = Verdict::Rejected { stage, failure, reasons };
        }
    }

    /// Reports the stages that did not run, and hands the review over.
    fn finish(mut self) -> Review {
        let why = match &self.review.verdict {
            Verdict::Accepted => None,
            Verdict::Rejected { stage, .. } => Some(format!("{} failed", stage.label())),
            Verdict::BrokenBaseline { .. } => Some("the original project is broken".to_string()),
        };
        if let Some(why) = why {
            for stage in Stage::AFTER_BASELINE {
                if !self.review.stages.iter().any(|s| s.name == stage) {
                    self.stage(StageReport::skipped(stage, why.clone()));
                }
            }
        }
        self.review
    }
}

fn merge(into: &mut Vec<TestResult>, more: Vec<TestResult>) {
    for r in more {
        if !into.iter().any(|x| x.id == r.id) {
            into.push(r);
        }
    }
}

/// The qualified names of the top-level classes in the changed Java files (either side).
fn changed_classes(project: &crate::java::Project, change: &Change) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, v) in &change.files {
        if rel.extension().is_none_or(|e| e != "java") {
            continue;
        }
        let Some(stem) = rel.file_stem().and_then(|s| s.to_str()) else { continue };
        let text = v.after.as_ref().or(v.before.as_ref()).map(|b| String::from_utf8_lossy(b).into_owned());
        let package = text.as_deref().and_then(crate::java::layout::declared_package).unwrap_or_default();
        let name = if package.is_empty() { stem.to_string() } else { format!("{package}.{stem}") };
        if !out.contains(&name) {
            out.push(name);
        }
        // Other top-level types declared in the same file.
        if let Some(f) = project.file_id(rel) {
            for ty in project.types_in(f).unwrap_or_default() {
                let decl = project.type_decl(ty);
                let q = project.qualified_name(ty);
                if decl.parent.is_none() && !decl.local && !out.contains(&q) {
                    out.push(q);
                }
            }
        }
    }
    out
}

fn kind_display(intent: &Intent) -> String {
    intent.kind.name().to_string()
}

/// `src/a/B.java:12:5: cannot find symbol`.
pub fn diagnostic_line(d: &Diagnostic) -> String {
    let col = d.column.map(|c| format!(":{c}")).unwrap_or_default();
    let message = d.message.lines().collect::<Vec<_>>().join(" ");
    format!("{}:{}{col}: {message}", d.file.display(), d.line)
}

/// `a.b.FooTest#m failed: expected <1> but was <2>`.
pub fn test_line(t: &TestResult) -> String {
    let what = if t.outcome == Outcome::Failed { "failed" } else { "errored" };
    match t.message.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        Some(m) => format!("{} {what}: {}", t.id, m.lines().next().unwrap_or(m)),
        None => format!("{} {what}", t.id),
    }
}

/// `src/a/B.java:12: [MagicNumber] '42' is a magic number.`
pub fn violation_line(v: &Violation) -> String {
    format!("{}:{}: [{}] {}", v.file.display(), v.line, v.check, v.message)
}

/// The last `n` non-empty lines of a tool's output, for a failure without diagnostics.
pub fn tail(output: &str, n: usize) -> String {
    let lines: Vec<&str> = output.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The `verdict` result's payload.
#[derive(Debug, Serialize)]
pub struct VerdictData<'a> {
    #[serde(flatten)]
    pub verdict: &'a Verdict,
    pub stages: &'a [StageReport],
    pub diagnostics: &'a [Diagnostic],
    pub broken_tests: &'a [TestResult],
    pub pre_existing_failures: &'a [TestResult],
    pub flaky_tests: &'a [TestResult],
    pub new_violations: &'a [Violation],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation: Option<&'a Validation>,
    pub detected: &'a [Found],
    /// The kept workspace (`--keep-workspace`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workspace: Option<&'a Path>,
}

impl Review {
    pub fn data(&self) -> VerdictData<'_> {
        VerdictData {
            verdict: &self.verdict,
            stages: &self.stages,
            diagnostics: &self.diagnostics,
            broken_tests: &self.broken,
            pre_existing_failures: &self.pre_existing,
            flaky_tests: &self.flaky,
            new_violations: &self.new_violations,
            validation: self.validation.as_ref(),
            detected: &self.detected,
            workspace: self.workspace.is_kept().then(|| self.workspace.root()),
        }
    }

    /// The verdict for humans: a headline, then one line per reason and per finding worth knowing.
    pub fn human(&self, style: crate::style::Style) -> String {
        let mut out = String::new();
        match &self.verdict {
            Verdict::Accepted => out.push_str(&style.green(&style.bold("verdict: accepted"))),
            Verdict::Rejected { stage, .. } => {
                out.push_str(&style.red(&style.bold(&format!("verdict: rejected at {}", stage.label()))))
            }
            Verdict::BrokenBaseline { .. } => out.push_str(&style.red(&style.bold(
                "verdict: broken baseline: the project was already broken before the change, which is not blamed",
            ))),
        }
        out.push('\n');
        for r in self.verdict.reasons() {
            out.push_str(&format!("  {r}\n"));
        }
        if !self.verdict.reasons().iter().any(|r| self.new_violations.iter().any(|v| violation_line(v) == *r)) {
            for v in &self.new_violations {
                out.push_str(&format!("  style: {}\n", violation_line(v)));
            }
        }
        for t in &self.pre_existing {
            out.push_str(&format!("  already failing before the change (not blamed): {}\n", t.id));
        }
        for t in &self.flaky {
            out.push_str(&format!("  flaky (failed, then passed when re-run): {}\n", t.id));
        }
        if let Some(v) = &self.validation
            && v.verdict != Match::Missing
        {
            out.push_str(&format!("  detection: {}\n", v.reason));
        }
        for f in &self.detected {
            out.push_str(&format!("  detected: {}\n", f.description.replace('\t', " ")));
        }
        if self.workspace.is_kept() {
            out.push_str(&format!("workspace kept at {}\n", self.workspace.root().display()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_read_as_one_line_each() {
        let d = Diagnostic {
            file: "src/a/B.java".into(),
            line: 35,
            column: Some(30),
            message: "cannot find symbol\nsymbol: variable wrds".into(),
            source_line: None,
        };
        assert_eq!(diagnostic_line(&d), "src/a/B.java:35:30: cannot find symbol symbol: variable wrds");
        let t = TestResult {
            id: "a.BTest#m".into(),
            outcome: Outcome::Failed,
            message: Some("expected:<2> but was:<0>\nmore".into()),
            stack_trace: None,
            time_secs: None,
        };
        assert_eq!(test_line(&t), "a.BTest#m failed: expected:<2> but was:<0>");
        assert_eq!(tail("a\n\nb\nc\n", 2), "b\nc");
    }
}
