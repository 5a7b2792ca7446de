//! The driver: Developer → Reviewer → (feedback to the Developer | Repair) until accepted or a
//! budget runs out.
//!
//! After each Developer turn the change is checked cheapest first: the built-in detector runs
//! in-process on the changed files (did the intended refactoring happen?), and only then the
//! Reviewer builds and tests it in a workspace (its baseline is cached by project state, so it
//! is built once per run). A missing refactoring or new enforced Checkstyle violations go back to
//! the Developer as feedback (at most `agent.max_review_rounds` turns); a compile error or broken
//! test goes to the Repair agent. `--no-review` sends no feedback, `--no-repair` repairs nothing:
//! MANTRA's ablations.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;
use serde_json::Value;

use super::developer::{self, Task};
use super::tools::{Toolset, Workbench};
use super::turn::{Observer, Session};
use super::{AgentError, Examples, Meter, Prompts, repair};
use crate::config::Config;
use crate::engine::{ChangeSet, Spec};
use crate::java::{MethodId, Project};
use crate::llm::{ChatModel, Message};
use crate::process::Runner;
use crate::refactoring::{RefactoringKind, SpecOptions};
use crate::review::{
    BuiltinDetector, Change, Intent, Match, Review, Reviewer, Side, Stage, Validation, Validator, Verdict,
};
use crate::workspace::WorkspaceOptions;

/// Which parts of MANTRA run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Modes {
    /// The example store is offered (`--no-rag` turns it off).
    pub rag: bool,
    /// The Reviewer's findings go back to the Developer (`--no-review` turns it off).
    pub review: bool,
    /// Compile and test failures go to the Repair agent (`--no-repair` turns it off).
    pub repair: bool,
    /// Build and test at all (`--no-verify` turns it off: detection only, the result unverified).
    pub build: bool,
    /// `--baseline raw`: one prompt, no agents.
    pub raw: bool,
}

impl Default for Modes {
    fn default() -> Modes {
        Modes { rag: true, review: true, repair: true, build: true, raw: false }
    }
}

/// One refactoring for the agents to make.
pub struct Job<'a> {
    /// The repository root.
    pub repo: &'a Path,
    /// The project as it is on disk.
    pub project: &'a Project,
    pub method: MethodId,
    pub kind: RefactoringKind,
    pub config: &'a Config,
    pub prompts: &'a Prompts,
    pub examples: &'a dyn Examples,
    pub modes: Modes,
    pub keep_workspace: bool,
    /// Every build, test and Checkstyle process of the Reviewer runs through it (`mantra batch`
    /// passes one that bounds each process by the task's `--timeout`).
    pub runner: Arc<dyn Runner>,
    /// Past it no new review round or repair attempt starts (`mantra batch --timeout`).
    pub deadline: Option<Instant>,
    /// The spec flags the user gave (`--name`, `--lines`, `--to`, `--at`, `--keep-delegate`)
    /// when they leave the rest open: the Developer is told to keep to them, and a given name is
    /// what the Reviewer looks for.
    pub fixed: SpecOptions,
}

impl Job<'_> {
    /// Whether the run's time is up.
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// [`Job::fixed`] as one line for the prompts, empty when nothing is fixed.
    pub fn fixed_sentence(&self) -> String {
        let f = &self.fixed;
        let mut parts = Vec::new();
        if let Some(name) = &f.name {
            parts.push(format!("the new method's name is `{name}`"));
        }
        if let Some(lines) = &f.lines {
            parts.push(format!("the lines to extract are {lines}"));
        }
        if let Some(to) = &f.to {
            parts.push(format!("the destination is `{to}`"));
        }
        if let Some(at) = &f.at {
            parts.push(format!("only the call at {at} is inlined"));
        }
        if f.keep_delegate {
            parts.push("a delegating method stays behind".to_string());
        }
        if parts.is_empty() {
            return String::new();
        }
        format!("The user has fixed part of this refactoring; keep to it exactly: {}.\n", parts.join("; "))
    }
}

/// The status of a run stopped by [`Job::deadline`].
pub const OUT_OF_TIME: &str = "the time limit ran out before the change was accepted";

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", content = "reason", rename_all = "kebab-case")]
pub enum Status {
    /// The Reviewer accepted the change.
    Accepted,
    /// Not accepted; why, in one line.
    Rejected(String),
    /// Detected but not built (`--no-verify`).
    Unverified,
    /// The original project is broken: nothing can be judged.
    BrokenBaseline,
}

/// The result of a run.
pub struct Outcome {
    pub status: Status,
    /// The change against the files on disk (empty when the agents changed nothing).
    pub changes: ChangeSet,
    /// The last full review, holding its workspace (applied back from on `--apply`).
    pub review: Option<Review>,
    /// The last in-process detection.
    pub detection: Option<Validation>,
    /// Developer turns.
    pub rounds: u32,
    /// Repair attempts.
    pub repairs: u32,
    pub meter: Meter,
    /// The engine specs the Developer applied.
    pub applied: Vec<Spec>,
    /// Files written with `write_file`.
    pub written: Vec<PathBuf>,
}

/// What a run shares between its agents.
pub(crate) struct Run<'a, 'b> {
    pub job: &'a Job<'a>,
    pub session: Session<'b>,
    pub intent: Intent,
    baseline_key: Option<String>,
}

impl Run<'_, '_> {
    /// The project state's key for the cached baseline, computed once.
    fn key(&mut self) -> Result<String, AgentError> {
        if let Some(k) = &self.baseline_key {
            return Ok(k.clone());
        }
        let key = crate::workspace::dirty_state_hash(self.job.repo)
            .map_err(|e| AgentError::Review(crate::review::ReviewError::Workspace(e)))?;
        self.baseline_key = Some(key.clone());
        Ok(key)
    }

    /// The intent, with the new name and destination the Developer's last matching engine call
    /// (or its `finish` call) gave.
    pub fn update_intent(&mut self, bench: &Workbench, finish: Option<&Value>) {
        let from_engine = bench.applied.iter().rev().find(|s| s.kind() == self.job.kind);
        let (name, dest) = match from_engine {
            Some(spec) => spec.names(),
            None => {
                let get = |k: &str| finish.and_then(|f| f.get(k)).and_then(Value::as_str).map(str::to_string);
                (get("new_name"), get("destination"))
            }
        };
        if name.is_some() && self.job.fixed.name.is_none() {
            self.intent.new_name = name;
        }
        if dest.is_some() {
            self.intent.destination = dest;
        }
    }

    /// The built-in detector on the changed files, in-process: the cheap first check.
    pub fn detect(&mut self, change: &Change, round: u32) -> Validation {
        let v = BuiltinDetector.validate(&self.intent, &change.java(Side::Before), &change.java(Side::After));
        let v =
            v.unwrap_or_else(|e| Validation { verdict: Match::Ambiguous, reason: e.to_string(), refactoring: None });
        let what = self.job.kind.name().to_string();
        let message = match v.verdict {
            Match::Matched => format!("detection: {what} found"),
            Match::Missing => format!("detection: {what} not found: {}", v.reason),
            Match::Ambiguous => format!("detection: ambiguous: {}", v.reason),
        };
        self.session.event("reviewer", round, 0, "verdict", message);
        v
    }

    /// The Reviewer on `change`: baseline (cached), detection, style, compile, tests.
    pub fn review(&mut self, change: &Change, round: u32) -> Result<Review, AgentError> {
        let key = self.key()?;
        let mut reviewer = Reviewer::new(self.job.config, self.job.runner.clone());
        reviewer.workspace = WorkspaceOptions { keep: self.job.keep_workspace, parent: None };
        let observer = &mut *self.session.observer;
        let review = reviewer.review(self.job.repo, change, Some(&self.intent), &key, &mut |s| observer.stage(s))?;
        let message = match &review.verdict {
            Verdict::Accepted => "verdict: accepted".to_string(),
            Verdict::Rejected { stage, reasons, .. } => format!(
                "verdict: rejected at {}{}",
                stage.label(),
                reasons.first().map(|r| format!(": {r}")).unwrap_or_default()
            ),
            Verdict::BrokenBaseline { .. } => "verdict: broken baseline".to_string(),
        };
        self.session.event("reviewer", round, 0, "verdict", message);
        Ok(review)
    }
}

/// Runs the agents on `job` with `model`; `observer` sees every step.
pub fn run(job: &Job, model: &dyn ChatModel, observer: &mut dyn Observer) -> Result<Outcome, AgentError> {
    let mut meter = Meter::new(job.config.llm.prices.clone());
    let mut intent = crate::engine::intent(job.project, job.method, job.kind, None);
    if job.fixed.name.is_some() {
        intent.new_name = job.fixed.name.clone();
    }
    let mut bench = Workbench::new(job.repo, job.project, job.method, job.kind, job.examples);
    let mut run = Run { job, session: Session { model, meter: &mut meter, observer }, intent, baseline_key: None };
    if job.modes.raw {
        let (status, review, detection) = super::raw::run(&mut run, &mut bench)?;
        return Ok(Outcome {
            status,
            changes: bench.change_set(),
            review,
            detection,
            rounds: 1,
            repairs: 0,
            meter,
            applied: Vec::new(),
            written: bench.written.clone(),
        });
    }
    bench.toolset = Toolset::Developer { rag: job.modes.rag };
    let task = Task {
        kind: job.kind,
        method: job.project.method_label(job.method),
        file: job.project.method_source(job.method).path.display().to_string(),
        target: bench.target.clone(),
        context: developer::context(job.project, job.method)
            + &developer::candidates_text(job.project, job.method, job.kind, &job.fixed),
        rag: job.modes.rag,
        fixed: job.fixed_sentence(),
    };
    let mut messages = developer::opening(job.prompts, &task)?;
    let max_rounds = job.config.agent.max_review_rounds.max(1);
    let max_steps = job.config.agent.max_steps.max(1);
    let mut round = 0;
    let mut repairs = 0;
    let mut detection = None;
    let mut last_review = None;
    let status = loop {
        if round > 0 && job.out_of_time() {
            break Status::Rejected(OUT_OF_TIME.into());
        }
        round += 1;
        let end = run.session.turn("developer", round, &mut messages, &mut bench, max_steps)?;
        let can_retry = job.modes.review && round < max_rounds;
        let changes = bench.change_set();
        if changes.is_empty() {
            let why = if end.exhausted {
                "the Developer ran out of steps (agent.max_steps) without changing anything"
            } else {
                "the Developer made no change"
            };
            if can_retry {
                let text = developer::feedback(
                    job.prompts,
                    round,
                    max_rounds,
                    "detection",
                    &[why.to_string()],
                    "Make the change with the tools.",
                )?;
                run.session.event("reviewer", round, 0, "feedback", why);
                messages.push(Message::user(text));
                continue;
            }
            break Status::Rejected(why.to_string());
        }
        run.update_intent(&bench, end.finish.as_ref());
        let change = Change::from_change_set(&changes).map_err(|e| AgentError::Internal(e.to_string()))?;
        if job.modes.review {
            let v = run.detect(&change, round);
            let missing = v.verdict == Match::Missing;
            let reason = v.reason.clone();
            detection = Some(v);
            if missing {
                if can_retry {
                    let advice = detection_advice(job.kind);
                    let text = developer::feedback(
                        job.prompts,
                        round,
                        max_rounds,
                        "detection",
                        std::slice::from_ref(&reason),
                        &advice,
                    )?;
                    run.session.event("reviewer", round, 0, "feedback", format!("detection: {reason}"));
                    messages.push(Message::user(text));
                    continue;
                }
                break Status::Rejected(format!("the intended refactoring was not found: {reason}"));
            }
        }
        if !job.modes.build {
            break Status::Unverified;
        }
        let review = run.review(&change, round)?;
        match review.verdict.clone() {
            Verdict::Accepted => {
                last_review = Some(review);
                break Status::Accepted;
            }
            Verdict::BrokenBaseline { .. } => {
                last_review = Some(review);
                break Status::BrokenBaseline;
            }
            Verdict::Rejected { stage: stage @ (Stage::Detection | Stage::Style), reasons, .. } if can_retry => {
                let advice = if stage == Stage::Style {
                    "Keep the refactoring; write the new code in the project's style so these violations go away."
                        .to_string()
                } else {
                    detection_advice(job.kind)
                };
                let text = developer::feedback(job.prompts, round, max_rounds, stage.label(), &reasons, &advice)?;
                run.session.event(
                    "reviewer",
                    round,
                    0,
                    "feedback",
                    format!("{}: {}", stage.label(), reasons.join("; ")),
                );
                messages.push(Message::user(text));
                last_review = Some(review);
            }
            Verdict::Rejected { stage: Stage::Compile | Stage::TestsAffected | Stage::TestsAll, .. }
                if job.modes.repair =>
            {
                let (review, attempts) = repair::run(&mut run, &mut bench, review)?;
                repairs = attempts;
                let status = if review.verdict.accepted() {
                    Status::Accepted
                } else if job.out_of_time() {
                    Status::Rejected(format!("{OUT_OF_TIME} ({attempts} repair attempt(s))"))
                } else {
                    Status::Rejected(format!(
                        "still failing after {attempts} repair attempt(s) (agent.max_repair_attempts = {}): {}",
                        job.config.agent.max_repair_attempts,
                        review.verdict.reasons().first().cloned().unwrap_or_default()
                    ))
                };
                last_review = Some(review);
                break status;
            }
            Verdict::Rejected { stage, reasons, .. } => {
                last_review = Some(review);
                break Status::Rejected(format!(
                    "rejected at {}: {}",
                    stage.label(),
                    reasons.first().cloned().unwrap_or_default()
                ));
            }
        }
    };
    Ok(Outcome {
        status,
        changes: bench.change_set(),
        review: last_review,
        detection,
        rounds: round,
        repairs,
        meter,
        applied: bench.applied.clone(),
        written: bench.written.clone(),
    })
}

fn detection_advice(kind: RefactoringKind) -> String {
    format!(
        "The detector compares the code before and after your change and did not find the {} you were \
         asked for. Make that refactoring (the engine tools perform it exactly), not another change.",
        kind.name()
    )
}
