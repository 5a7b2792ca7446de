//! `mantra refactor` with a model: the agents ([`crate::agent`]) choose and make the refactoring,
//! the Reviewer's verdict decides, and `--apply` writes an accepted change.
//!
//! [`crate::commands::refactor::run`] dispatches here when a model is configured (`llm.base_url`,
//! or `--llm-replay`), `--llm none` is not given and the flags do not already give the whole spec.
//! The agents always verify (their Reviewer loop needs the build) unless `--no-verify`, which keeps
//! only the in-process detection; nothing is written without `--apply`, and with `--apply` only an
//! accepted change (or, with `--no-verify`, a detected one).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use serde::Serialize;

use crate::Context;
use crate::agent::review_loop::Status;
use crate::agent::{self, AgentEvent, Examples, Job, Meter, Modes, NoExamples, Observer, Prompts};
use crate::cli::{AgentArgs, Baseline, LlmChoice, RefactorArgs, RefactoringKind};
use crate::engine::Spec;
use crate::error::UserError;
use crate::exit::Exit;
use crate::java::{MethodId, Project};
use crate::llm::{ChatModel, LlmOptions};
use crate::report::{Event, Style, diff};
use crate::review::StageReport;

/// The model the flags and configuration ask for; `None` means the heuristic planner.
/// With the model, the path of the run's transcript.
pub fn open_model(ctx: &Context, args: &AgentArgs) -> anyhow::Result<Option<(Arc<dyn ChatModel>, PathBuf)>> {
    let transcript = crate::llm::transcript::run_dir(&ctx.repo).join(crate::llm::transcript::TRANSCRIPT_FILE);
    open_model_with(ctx, args, transcript)
}

/// [`open_model`] with the transcript written to `transcript` (`mantra batch` keeps it in its folder).
pub fn open_model_with(
    ctx: &Context,
    args: &AgentArgs,
    transcript: PathBuf,
) -> anyhow::Result<Option<(Arc<dyn ChatModel>, PathBuf)>> {
    let options = LlmOptions {
        record: args.llm_record.as_ref().map(|d| ctx.cwd.join(d)),
        replay: args.llm_replay.as_ref().map(|d| ctx.cwd.join(d)),
        none: args.llm == Some(LlmChoice::None),
        transcript: Some(transcript.clone()),
        meter: None,
    };
    let model = crate::llm::open(&ctx.config.config, &options).map_err(agent::AgentError::from)?;
    if model.is_none() && (args.no_rag || args.no_review || args.no_repair || args.baseline.is_some()) {
        return Err(UserError::usage("--no-rag, --no-review, --no-repair and --baseline need a model")
            .with_hint(
                "configure one (`llm.base_url`, `llm.model`) or leave these flags out to use the heuristic planner",
            )
            .into());
    }
    Ok(model.map(|m| (m, transcript)))
}

/// Where agent events and Reviewer stages go: the reporter.
struct Live<'a>(&'a mut crate::report::Reporter);

impl Observer for Live<'_> {
    fn agent(&mut self, event: AgentEvent) {
        self.0.emit(Event::Agent(event));
    }
    fn stage(&mut self, stage: &StageReport) {
        self.0.emit(Event::Stage(stage.clone()));
    }
}

/// Tokens and cost of the run.
#[derive(Debug, Serialize)]
struct Tokens<'a> {
    prompt: u64,
    completion: u64,
    /// Per agent: requests and tokens.
    by_agent: &'a std::collections::BTreeMap<String, crate::llm::usage::AgentUsage>,
    /// In the currency of `llm.prices`; `null` when the prices are not configured.
    cost: Option<f64>,
}

/// The `refactoring` result of an agent run (the same kind as the planner's, with `agents`).
#[derive(Debug, Serialize)]
struct AgentResult<'a> {
    #[serde(rename = "type")]
    kind: RefactoringKind,
    method: String,
    files: Vec<String>,
    diff: String,
    applied: bool,
    /// `accepted`, `rejected`, `broken-baseline`, or `unverified` (`--no-verify`).
    verdict: &'static str,
    agents: AgentData<'a>,
}

#[derive(Debug, Serialize)]
struct AgentData<'a> {
    /// `agents` or `raw`.
    mode: &'static str,
    modes: Modes,
    status: &'a Status,
    /// Developer turns.
    rounds: u32,
    /// Repair attempts.
    repairs: u32,
    /// The engine specs the Developer applied, in order.
    engine: &'a [Spec],
    /// Files the agents wrote whole with `write_file`.
    written: Vec<String>,
    tokens: Tokens<'a>,
    /// mantra's own time per agent turn, model and build excluded (µs).
    turn_overhead_us: &'a [u64],
}

pub fn run(
    ctx: &mut Context,
    args: &RefactorArgs,
    project: &Project,
    method: MethodId,
    (model, transcript): (Arc<dyn ChatModel>, PathBuf),
    examples: &dyn Examples,
) -> anyhow::Result<Exit> {
    ctx.reporter.progress("agents", format!("transcript: {}", transcript.display()));
    let prompts = Prompts::load(ctx.config.config.prompts_dir.as_deref())?;
    let a = &args.agents;
    let modes = Modes {
        rag: !a.no_rag,
        review: !a.no_review,
        repair: !a.no_repair,
        build: !args.no_verify,
        raw: a.baseline == Some(Baseline::Raw),
    };
    let config = ctx.config.config.clone();
    let job = Job {
        repo: &ctx.repo,
        project,
        method,
        kind: args.kind,
        config: &config,
        prompts: &prompts,
        examples,
        modes,
        keep_workspace: args.keep_workspace,
        runner: Arc::new(crate::process::System),
        deadline: None,
        fixed: args.spec.clone(),
    };
    let label = super::refactor::method_label(project, method);
    let mode = if modes.raw { "raw baseline" } else { "agents" };
    ctx.reporter.progress("agents", format!("{} {label} with the {mode}", super::refactor::kind_name(args.kind)));
    let repo = ctx.repo.clone();
    let outcome = {
        let mut live = Live(&mut ctx.reporter);
        agent::run(&job, model.as_ref(), &mut live)?
    };

    let accepted = matches!(outcome.status, Status::Accepted | Status::Unverified);
    let applied = args.apply && accepted && !outcome.changes.is_empty();
    if applied {
        match &outcome.review {
            Some(r) => {
                r.workspace.apply_back(&outcome.changes)?;
            }
            None => {
                crate::writeback::write_atomically(&repo, &outcome.changes)?;
            }
        }
    }
    let style = ctx.reporter.style();
    let colored = diff::change_set(&outcome.changes, style).context("rendering the diff")?;
    let plain = if style == Style::PLAIN { colored.clone() } else { diff::change_set(&outcome.changes, Style::PLAIN)? };
    let files: Vec<String> = outcome.changes.files.keys().map(|p| p.display().to_string()).collect();
    let verdict = match &outcome.status {
        Status::Accepted => "accepted",
        Status::Rejected(_) => "rejected",
        Status::Unverified => "unverified",
        Status::BrokenBaseline => "broken-baseline",
    };
    let count = match files.len() {
        1 => "1 file".to_string(),
        n => format!("{n} files"),
    };
    let what = match (&outcome.status, applied) {
        (Status::Accepted, true) => format!("{count} written (verified)"),
        (Status::Unverified, true) => format!("{count} written (unverified)"),
        (Status::Accepted, false) => format!("{count} verified, not written (pass --apply to write)"),
        (Status::Unverified, false) => format!("{count} changed, not verified and not written"),
        (Status::Rejected(why), _) => format!("rejected, nothing written: {why}"),
        (Status::BrokenBaseline, _) => "not judged: the original project is broken; nothing written".to_string(),
    };
    let meter: &Meter = &outcome.meter;
    let usage = meter.summary();
    let (total, cost) = (usage.total, usage.total.cost);
    let summary = format!("{} {label}: {what}", super::refactor::kind_name(args.kind));
    let engine: Vec<String> = outcome.applied.iter().map(|s| super::refactor::kind_name(s.kind())).collect();
    let how = match (engine.is_empty(), outcome.written.is_empty()) {
        (false, true) => format!("engine: {}", engine.join(", ")),
        (true, false) => "written by the model".to_string(),
        (false, false) => format!("engine: {}, plus files written by the model", engine.join(", ")),
        (true, true) => "no change".to_string(),
    };
    let stats = format!(
        "{mode}: {} round(s), {} repair(s), {how}; tokens {} sent, {} received{}",
        outcome.rounds,
        outcome.repairs,
        total.prompt_tokens,
        total.completion_tokens,
        cost.map(|c| format!(", cost {c:.4}")).unwrap_or_default()
    );
    let human = format!("{colored}{}\n{stats}\n", style.bold(&summary));
    let result = AgentResult {
        kind: args.kind,
        method: label,
        files,
        diff: plain,
        applied,
        verdict,
        agents: AgentData {
            mode: if modes.raw { "raw" } else { "agents" },
            modes,
            status: &outcome.status,
            rounds: outcome.rounds,
            repairs: outcome.repairs,
            engine: &outcome.applied,
            written: outcome.written.iter().map(|p| p.display().to_string()).collect(),
            tokens: Tokens {
                prompt: total.prompt_tokens,
                completion: total.completion_tokens,
                by_agent: &usage.agents,
                cost,
            },
            turn_overhead_us: &meter.turn_overhead_us,
        },
    };
    ctx.reporter.emit(Event::result("refactoring", &result, human));
    if let Some(r) = &outcome.review {
        super::verify::emit_verdict(ctx, r);
    }
    Ok(if accepted { Exit::Success } else { Exit::Rejected })
}

/// The example store the Developer searches: the repository's (`store.dir`, else
/// `.mantra/store`), else the user-wide one; none when neither holds a record, or with `--no-rag`
/// (`rag` false).
/// The store's notices (no embedding model, an index rebuilt) become warnings.
pub fn examples(ctx: &mut Context, rag: bool) -> Box<dyn Examples> {
    if !rag {
        // The tool is not offered: no reason to open the index or load the embedding model.
        return Box::new(NoExamples);
    }
    let config = &ctx.config.config;
    let mut dirs = vec![crate::store::store_dir(&ctx.repo, config.store.dir.as_deref())];
    dirs.extend(crate::store::user_store_dir());
    for dir in dirs {
        if !dir.join("records.jsonl").is_file() {
            continue;
        }
        match crate::store::Store::open_with(&dir, &super::store::options(config)) {
            Ok(mut store) => {
                for n in store.take_notices() {
                    ctx.reporter.warning(n.message, n.hint);
                }
                if store.stats().records > 0 {
                    return Box::new(store);
                }
            }
            Err(e) => ctx.reporter.warning(
                format!("the example store in {} cannot be opened: {e}", dir.display()),
                Some("the agents run without examples; `mantra store info` shows what is wrong".into()),
            ),
        }
    }
    Box::new(NoExamples)
}
