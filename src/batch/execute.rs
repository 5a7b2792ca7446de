//! One task, start to end: the target at the parent commit, a spec from the [`SpecSource`], the
//! engine, the Reviewer's build and tests, the detector's verdict, the scores.
//!
//! Compile, tests and verification are measured independently, as MANTRA's table reports them:
//! the Reviewer runs without its detection stage (which would otherwise stop a change that
//! compiles before its build), and the configured validator judges the change on its own.
//!
//! Every external process of a task runs through a [`Deadline`] runner, so `--timeout` bounds the
//! whole task: each build gets at most the time left, and one that runs past it is killed with
//! its process group. The agents' own builds, under `--spec llm`, run through the same runner, and
//! past the deadline they start no new review round or repair attempt.
//!
//! `--spec llm` hands over a change the agents already made and judged ([`Made`]). The three
//! measures keep one meaning in every mode: `compiled` and `tests_passed` are the build and tests
//! of the task's final change, `verified` is the configured validator's verdict on that change
//! alone. For the agents that final change is what their loop ended with (after the Reviewer's
//! feedback and Repair's fixes), and its build is the agents' last review when that review was of
//! exactly this change and reached the build; otherwise (the loop stopped at detection, or before
//! building) the batch builds it here as it builds an engine result. The agents' own verdict is
//! kept beside the measures (`agents.status`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::detect::{self, Snapshot};
use crate::engine::{self, ChangeSet, Spec};
use crate::java::{MethodId, Project};
use crate::process::{Cmd, Output, ProcessError, Runner};
use crate::refactoring::RefactoringKind;
use crate::review::{self, Change, Match, Review, Reviewer, Side, Stage, StageStatus, Verdict};
use crate::style::Style;
use crate::workspace::WorkspaceOptions;

use super::result::{CodeBleuScores, TaskResult};
use super::source::{Budget, Made, SpecSource};
use super::task::{Commit, Task};
use crate::metrics;

/// What a task runs with, shared by all tasks of a batch.
pub struct Setup<'a> {
    pub config: &'a Config,
    pub runner: Arc<dyn Runner>,
    pub source: &'a dyn SpecSource,
    /// Where the Reviewer's workspaces go (inside the batch folder, so nothing is left elsewhere).
    pub work: PathBuf,
    pub timeout: Duration,
}

/// Runs `task` on the checkout of its parent commit.
pub fn run(setup: &Setup, task: &Task, commit: &Commit, checkout: &Path, checkout_ms: u64) -> TaskResult {
    let start = Instant::now();
    let deadline = start + setup.timeout;
    let mut r = TaskResult::unstarted(task, setup.source.name(), Some(commit.parent.clone()));
    r.times_ms.insert("checkout".into(), checkout_ms);
    let model_ms = attempt(setup, task, commit, checkout, deadline, &mut r);
    if r.failure.is_none() && Instant::now() >= deadline {
        r.failure = Some("timeout".into());
    }
    r.success =
        r.failure.is_none() && r.compiled == Some(true) && r.tests_passed == Some(true) && r.verified == Some(true);
    let total = start.elapsed().as_millis() as u64 + checkout_ms;
    r.times_ms.insert("total".into(), total);
    let external: u64 =
        ["checkout", "baseline", "style", "compile", "tests"].iter().filter_map(|k| r.times_ms.get(*k)).sum::<u64>()
            + model_ms;
    r.overhead_ms = total.saturating_sub(external);
    r
}

/// The task's stages, filling `r`; returns the milliseconds spent waiting for a model.
fn attempt(setup: &Setup, task: &Task, commit: &Commit, checkout: &Path, deadline: Instant, r: &mut TaskResult) -> u64 {
    let fail = |r: &mut TaskResult, class: &str, diagnostic: String| {
        r.failure = Some(class.to_string());
        r.diagnostic = Some(diagnostic);
    };
    let t = Instant::now();
    let project = match Project::open(checkout) {
        Ok(p) => p,
        Err(e) => {
            fail(r, "error", format!("cannot read the project at the parent commit: {e}"));
            return 0;
        }
    };
    let Some(method) = resolve(&project, task) else {
        fail(r, "no-target", format!("no method `{}` in class `{}` at the parent commit", task.method, task.class));
        return 0;
    };
    let runner: Arc<dyn Runner> = Arc::new(Deadline { inner: setup.runner.clone(), at: deadline });
    let budget = Budget { runner: runner.clone(), deadline };
    let proposal = match setup.source.propose(task, &project, method, &budget) {
        Ok(p) => p,
        Err(e) => {
            r.times_ms.insert("spec".into(), t.elapsed().as_millis() as u64);
            // The agents stop with an error when a build cannot start for want of time.
            let class = if Instant::now() >= deadline { "timeout" } else { "no-spec" };
            fail(r, class, e);
            return 0;
        }
    };
    r.times_ms.insert("spec".into(), t.elapsed().as_millis() as u64);
    r.spec_origin = proposal.origin.map(str::to_string);
    r.prompt_tokens = proposal.usage.map(|u| u.prompt_tokens);
    r.completion_tokens = proposal.usage.map(|u| u.completion_tokens);
    r.cost = proposal.cost;
    let model_ms = proposal.model_ms;
    if proposal.usage.is_some() {
        r.times_ms.insert("model".into(), model_ms);
    }

    let (spec, changes, theirs) = match proposal.made {
        Some(made) => match made_change(task, made, r) {
            Some(m) => m,
            None => return model_ms,
        },
        None => {
            let t = Instant::now();
            let applied = apply_first(&project, method, proposal.specs);
            r.times_ms.insert("engine".into(), t.elapsed().as_millis() as u64);
            match applied {
                Ok((spec, changes)) => (Some(spec), changes, None),
                Err(refusal) => {
                    fail(r, "refused", refusal);
                    return model_ms;
                }
            }
        }
    };
    r.spec = spec.as_ref().and_then(|s| serde_json::to_value(s).ok());
    r.diff = changes.unified_diff(Style::PLAIN).unwrap_or_default();
    let change = match Change::from_change_set(&changes) {
        Ok(c) => c,
        Err(e) => {
            fail(r, "error", format!("the change does not apply: {e}"));
            return model_ms;
        }
    };
    let (before, after) = (change.java(Side::Before), change.java(Side::After));

    // Verification: the configured validator, on the change alone.
    let t = Instant::now();
    let intent = intent(&project, method, task.kind, spec.as_ref().filter(|s| s.kind() == task.kind));
    let mut verify_reason = None;
    if let Some(validator) = review::default_validator(setup.config, runner.clone()) {
        match validator.validate(&intent, &before, &after) {
            Ok(v) => {
                r.verified = Some(v.verdict == Match::Matched);
                if v.verdict != Match::Matched {
                    verify_reason = Some(v.reason);
                }
            }
            Err(e) => verify_reason = Some(format!("{} could not run: {e}", validator.name())),
        }
    }
    r.times_ms.insert("detection".into(), t.elapsed().as_millis() as u64);
    r.our_code = our_code(task, &before, &after);
    let t = Instant::now();
    score(r, commit, &before, &after);
    r.times_ms.insert("metrics".into(), t.elapsed().as_millis() as u64);

    // Build and tests: the agents' last review when it built exactly this change (its stages were
    // timed as the agents ran), else a review here, on a copy of the checkout; the baseline is
    // cached in the checkout under the parent's id, so the tasks of one commit share it.
    let reused = theirs.filter(|review| built_exactly(review, &changes));
    let counted = reused.is_none();
    let review = match reused {
        Some(review) => review,
        None => {
            let mut reviewer = Reviewer::new(setup.config, runner);
            reviewer.validator = None;
            reviewer.workspace = WorkspaceOptions { keep: false, parent: Some(setup.work.clone()) };
            let key = format!("batch-{}", commit.parent);
            match reviewer.review(checkout, &change, None, &key, &mut |_| {}) {
                Ok(review) => review,
                Err(e) => {
                    let class = if Instant::now() >= deadline { "timeout" } else { "error" };
                    fail(r, class, format!("verification could not run: {e}"));
                    return model_ms;
                }
            }
        }
    };
    let (mut compiled, mut tests) = (None, None);
    for s in &review.stages {
        let key = match s.name {
            Stage::Baseline => "baseline",
            Stage::Style => "style",
            Stage::Compile => "compile",
            Stage::TestsAffected | Stage::TestsAll => "tests",
            Stage::Detection => "",
        };
        if counted && !key.is_empty() {
            *r.times_ms.entry(key.into()).or_default() += s.duration_ms;
        }
        match s.name {
            Stage::Baseline | Stage::Style => {}
            Stage::Compile => {
                compiled = match s.status {
                    StageStatus::Ok | StageStatus::Warning => Some(true),
                    StageStatus::Failed => Some(false),
                    StageStatus::Skipped => None,
                };
            }
            Stage::TestsAffected | Stage::TestsAll => {
                tests = match (tests, s.status) {
                    (_, StageStatus::Failed) | (Some(false), _) => Some(false),
                    (_, StageStatus::Ok | StageStatus::Warning) => Some(true),
                    (t, StageStatus::Skipped) => t,
                };
            }
            Stage::Detection => {}
        }
    }
    r.times_ms.entry("tests".into()).or_default();
    r.compiled = compiled;
    // Tests that did not need to run (none reaches the change) pass vacuously once it compiles.
    r.tests_passed = match (compiled, tests) {
        (Some(true), None) => Some(true),
        (Some(true), t) => t,
        _ => None,
    };
    match &review.verdict {
        Verdict::BrokenBaseline { reasons } => {
            fail(r, "broken-baseline", reasons.first().cloned().unwrap_or_default());
        }
        Verdict::Rejected { stage, reasons, .. } => {
            let class = match stage {
                Stage::Style => "style",
                Stage::Compile => "compile",
                Stage::TestsAffected | Stage::TestsAll => "tests",
                _ => "error",
            };
            let class = if Instant::now() >= deadline { "timeout" } else { class };
            fail(r, class, reasons.first().cloned().unwrap_or_default());
        }
        Verdict::Accepted => {
            if r.verified != Some(true) {
                fail(r, "not-verified", verify_reason.unwrap_or_else(|| "no validator is configured".into()));
            }
        }
    }
    model_ms
}

/// The first of `specs` the engine accepts, with its change; else the first refusal.
fn apply_first(project: &Project, method: MethodId, specs: Vec<Spec>) -> Result<(Spec, ChangeSet), String> {
    let mut refusal = None;
    for spec in specs {
        match engine::apply(project, method, &spec) {
            Ok(changes) => return Ok((spec, changes)),
            Err(e) => {
                refusal.get_or_insert(format!("{}: {}", e.reason, e.message));
            }
        }
    }
    Err(refusal.unwrap_or_else(|| "no spec was proposed".into()))
}

/// The change a source made (the agents'), with the spec that names it and the source's last
/// review; `None` (the task failed as `no-change`) when there is no change.
fn made_change(task: &Task, made: Made, r: &mut TaskResult) -> Option<(Option<Spec>, ChangeSet, Option<Review>)> {
    for (stage, ms) in &made.build_ms {
        *r.times_ms.entry(stage.clone()).or_default() += ms;
    }
    let why = made.run.reason.clone();
    r.agents = Some(made.run);
    if made.changes.is_empty() {
        r.failure = Some("no-change".into());
        r.diagnostic = Some(why.unwrap_or_else(|| "the agents changed nothing".into()));
        return None;
    }
    let mut applied = made.applied;
    let at = applied.iter().rposition(|s| s.kind() == task.kind).or(applied.len().checked_sub(1));
    let spec = at.map(|i| applied.swap_remove(i));
    Some((spec, made.changes, made.review))
}

/// Whether `review` built and tested exactly `changes`: its workspace holds the change's text of
/// every file, and it got past detection (which stops a review before its build).
fn built_exactly(review: &Review, changes: &ChangeSet) -> bool {
    if let Verdict::Rejected { stage: Stage::Detection, .. } = review.verdict {
        return false;
    }
    let Ok(files) = changes.render() else { return false };
    files.iter().all(|(path, text)| {
        std::fs::read_to_string(review.workspace.root().join(path)).is_ok_and(|there| there == *text)
    })
}

/// The task's method at the parent: by class and name, then by signature among overloads.
fn resolve(project: &Project, task: &Task) -> Option<MethodId> {
    let ty = project.find_type(&task.class)?;
    let named: Vec<MethodId> =
        project.methods_of(ty).into_iter().filter(|&m| project.method(m).name == task.method).collect();
    let by_signature = task.signature.as_ref().and_then(|sig| {
        named.iter().copied().find(|&m| {
            let d = project.method(m);
            format!("{}({})", d.name, d.erased_params().join(",")) == *sig
        })
    });
    by_signature.or_else(|| named.first().copied())
}

/// What the detector should find: the task's refactoring of its method, named by its erased
/// signature (a task may pick one of several overloads), with the names our spec chose.
fn intent(project: &Project, method: MethodId, kind: RefactoringKind, spec: Option<&Spec>) -> review::Intent {
    let decl = project.method(method);
    let signature = format!("{}({})", decl.name, decl.erased_params().join(","));
    review::Intent { method: signature, ..crate::engine::intent(project, method, kind, spec) }
}

/// The methods our change produced, found the way the human's were: the right side of the
/// refactoring the detector finds for the task's method.
fn our_code(task: &Task, before: &review::Files, after: &review::Files) -> Option<String> {
    let snap = |files: &review::Files| {
        Snapshot::from_files(files.iter().map(|(p, t)| (p.to_string_lossy().replace('\\', "/"), t.clone())))
    };
    let (b, a) = (snap(before), snap(after));
    let found = detect::detect(&b, &a);
    let ours = found.iter().find(|r| {
        r.kind.kind() == Some(task.kind)
            && r.subject.method == task.method
            && (r.subject.class == task.class || r.subject.class.ends_with(&format!(".{}", task.class)))
    })?;
    Some(ours.right_methods_text(&a))
}

/// CodeBLEU and identity of our methods against the human's, and AST-diff precision and recall
/// of our change against the human's commit, both from the parent's files.
fn score(r: &mut TaskResult, commit: &Commit, before: &review::Files, after: &review::Files) {
    if let (Some(human), Some(ours)) = (&r.human_code, &r.our_code) {
        let c = metrics::codebleu(human, ours);
        r.codebleu = Some(CodeBleuScores {
            score: c.score,
            ngram: c.ngram,
            weighted_ngram: c.weighted_ngram,
            syntax: c.syntax,
            dataflow: c.dataflow,
        });
        r.identical = Some(metrics::identical(human, ours));
    }
    let path = |p: &PathBuf| p.to_string_lossy().replace('\\', "/");
    // Files only our change touched are unchanged in the human's commit: add their parent version.
    let mut base = commit.before.clone();
    for (p, text) in before {
        base.files.entry(path(p)).or_insert_with(|| text.clone());
    }
    let ours = Snapshot::from_files(after.iter().map(|(p, t)| (path(p), t.clone())));
    let d = metrics::ast_diff(&base, &commit.after, &ours);
    r.ast_precision = Some(d.precision);
    r.ast_recall = Some(d.recall);
}

/// A runner that gives every command at most the time left until `at`.
struct Deadline {
    inner: Arc<dyn Runner>,
    at: Instant,
}

impl Runner for Deadline {
    fn run(&self, cmd: &Cmd) -> Result<Output, ProcessError> {
        let left = self.at.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ProcessError::TimedOut {
                command: cmd.to_string(),
                after: Duration::ZERO,
                stderr: String::new(),
            });
        }
        let mut cmd = cmd.clone();
        cmd.timeout = Some(cmd.timeout.map_or(left, |t| t.min(left)));
        self.inner.run(&cmd)
    }
}

#[cfg(test)]
mod tests {
    use crate::metrics;

    const FINE: &str = "private BigDecimal fineFor(Loan loan, LocalDate today, Member member) {\n    long late = daysLate(loan, today);\n    BigDecimal fine = DAILY_FINE.multiply(BigDecimal.valueOf(late));\n    if (fine.compareTo(MAX_FINE) > 0) {\n        fine = MAX_FINE;\n    }\n    return fine;\n}";
    const TITLES: &str = "public List<Book> searchTitles(String words) {\n    String[] wanted = words.toLowerCase(Locale.ROOT).split(\"\\\\s+\");\n    List<Book> found = new ArrayList<>();\n    for (Book b : books.values()) {\n        found.add(b);\n    }\n    return found;\n}";

    /// The scores batch reports: identical code scores 1, unrelated methods far less.
    #[test]
    fn codebleu_of_identical_and_unrelated_methods() {
        assert!((metrics::codebleu(FINE, FINE).score - 1.0).abs() < 1e-9);
        let unrelated = metrics::codebleu(FINE, TITLES).score;
        println!("CodeBLEU of unrelated methods: {unrelated:.3}");
        assert!(unrelated < 0.5, "{unrelated}");
    }
}
