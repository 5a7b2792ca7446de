//! `--spec llm`: MANTRA's agents decide and make each task's change.
//!
//! The agents run their whole loop, Developer → Reviewer → Repair ([`crate::agent::run`]), on the
//! checkout of the task's parent commit, because that loop is the system MANTRA's table measures:
//! a batch that asked the Developer alone would score a different system. Their final change
//! (engine calls, or code the model wrote) comes back as a [`Made`] proposal with their last build,
//! and the batch measures it like any other mode's change (see [`super::execute`]).
//!
//! The agents' builds and Checkstyle runs are timed through the [`Observer`] so the task's
//! overhead excludes them, as it excludes the model's time (`Meter::model_us`).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::agent::review_loop::Status;
use crate::agent::{self, AgentEvent, Examples, Job, Modes, Observer, Prompts};
use crate::config::Config;
use crate::java::{MethodId, Project};
use crate::llm::{ChatModel, Usage};
use crate::review::{Stage, StageReport};

use super::result::AgentRun;
use super::source::{Budget, Made, Proposal, SpecSource};
use super::task::Task;

/// The agents as a [`SpecSource`]; one model shared by every `--jobs` worker.
pub struct Agents {
    model: Arc<dyn ChatModel>,
    prompts: Prompts,
    examples: Box<dyn Examples>,
    config: Config,
    modes: Modes,
    name: String,
}

impl Agents {
    pub fn new(
        model: Arc<dyn ChatModel>,
        prompts: Prompts,
        examples: Box<dyn Examples>,
        config: Config,
        modes: Modes,
    ) -> Agents {
        Agents { model, prompts, examples, config, name: mode_name(modes), modes }
    }
}

/// `llm`, or with MANTRA's ablations `llm-no-rag`, `llm-no-review-no-repair`, ...; `raw` for the
/// RawGPT baseline. Each is its own mode in the results, so an ablation gets its own table rows.
pub fn mode_name(modes: Modes) -> String {
    if modes.raw {
        return "raw".into();
    }
    let mut name = String::from("llm");
    for (on, suffix) in [(modes.rag, "-no-rag"), (modes.review, "-no-review"), (modes.repair, "-no-repair")] {
        if !on {
            name.push_str(suffix);
        }
    }
    name
}

impl SpecSource for Agents {
    fn name(&self) -> &str {
        &self.name
    }

    fn propose(&self, task: &Task, project: &Project, method: MethodId, budget: &Budget) -> Result<Proposal, String> {
        let repo: &Path = project.root();
        let job = Job {
            repo,
            project,
            method,
            kind: task.kind,
            config: &self.config,
            prompts: &self.prompts,
            examples: self.examples.as_ref(),
            modes: self.modes,
            keep_workspace: false,
            runner: budget.runner.clone(),
            deadline: Some(budget.deadline),
            fixed: crate::refactoring::SpecOptions::default(),
        };
        let mut timer = Timer::default();
        let outcome =
            agent::run(&job, self.model.as_ref(), &mut timer).map_err(|e| format!("the agents stopped: {e}"))?;
        let usage = outcome.meter.summary();
        let (status, reason) = match &outcome.status {
            Status::Accepted => ("accepted", None),
            Status::Rejected(why) => ("rejected", Some(why.clone())),
            Status::Unverified => ("unverified", None),
            Status::BrokenBaseline => ("broken-baseline", None),
        };
        let run = AgentRun {
            status: status.into(),
            reason,
            rounds: outcome.rounds,
            repairs: outcome.repairs,
            engine: outcome.applied.iter().map(|s| s.kind().name().to_string()).collect(),
            written: outcome.written.iter().map(|p| p.to_string_lossy().replace('\\', "/")).collect(),
            requests: usage.agents.iter().map(|(a, u)| (a.clone(), u.requests)).collect(),
        };
        Ok(Proposal {
            specs: Vec::new(),
            made: Some(Made {
                changes: outcome.changes,
                applied: outcome.applied,
                review: outcome.review,
                build_ms: timer.ms,
                run,
            }),
            usage: Some(Usage {
                prompt_tokens: usage.total.prompt_tokens,
                completion_tokens: usage.total.completion_tokens,
            }),
            cost: usage.total.cost,
            model_ms: outcome.meter.model_us / 1000,
            origin: None,
        })
    }
}

/// Sums the agents' build stages by the names the task's `times_ms` uses.
#[derive(Default)]
struct Timer {
    ms: BTreeMap<String, u64>,
}

impl Observer for Timer {
    fn agent(&mut self, _: AgentEvent) {}

    fn stage(&mut self, stage: &StageReport) {
        let key = match stage.name {
            Stage::Baseline => "baseline",
            Stage::Style => "style",
            Stage::Compile => "compile",
            Stage::TestsAffected | Stage::TestsAll => "tests",
            Stage::Detection => return,
        };
        *self.ms.entry(key.into()).or_default() += stage.duration_ms;
    }
}
