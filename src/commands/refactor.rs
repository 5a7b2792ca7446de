//! `mantra refactor`: target → spec (flags, then the planner for what they leave out) → engine →
//! diff; with `--apply`, the Reviewer (workspace, baseline, detection, style, compile, tests) and,
//! when it accepts, the change applied back atomically; `--apply --no-verify` writes unverified,
//! `--verify` verifies without writing.
//!
//! With a model (`llm.base_url`, or `--llm-replay`), unless `--llm none` is given or the flags
//! already give the whole spec, the agents ([`crate::agent`]) choose and make the refactoring
//! instead, the Reviewer's verdict decides, and `--apply` writes an accepted change. They always
//! verify (their Reviewer loop needs the build) unless `--no-verify`, which keeps only the
//! in-process detection.
//!
//! The planner's candidates are tried best first: when the engine refuses one, the next is tried
//! and stderr says so; a spec the user gave completely is tried alone. A refusal writes nothing and
//! exits with `rejected` (1). `--explain` prints the planner's candidates and does nothing else.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;
use serde::Serialize;

use super::Context;
use super::verify;
use crate::agent::review_loop::Status;
use crate::agent::{self, AgentEvent, Examples, Job, Meter, Modes, Observer, Prompts, session};
use crate::cli::{AgentArgs, Baseline, LlmChoice, RefactorArgs};
use crate::engine::{self, ChangeSet, Reason, Refusal, Spec, SpecFlags};
use crate::error::{Classify, UserError};
use crate::exit::Exit;
use crate::java::{MethodId, Project, target};
use crate::llm::{ChatModel, LlmOptions};
use crate::plan::{self, Candidate};
use crate::refactoring::RefactoringKind;
use crate::report::Event;
use crate::review::StageReport;
use crate::style::Style;
use crate::workspace::preview::{self, Preview};

/// How many planner candidates `--explain` shows and a run tries.
const CANDIDATES: usize = 5;

/// The engine refused the refactoring (every candidate, when the planner chose).
#[derive(Debug, thiserror::Error)]
#[error("{kind} refused ({}): {}", refusal.reason, refusal.message)]
pub struct Refused {
    pub kind: String,
    pub refusal: Refusal,
    /// Whether the planner chose the spec (so other specs may work).
    pub planned: bool,
    /// What to change when the user gave the spec (`refactor`'s flags, `rename`'s name, ...).
    pub fix: &'static str,
}

impl Classify for Refused {
    fn exit(&self) -> Exit {
        Exit::Rejected
    }
    fn hint(&self) -> Option<String> {
        Some(if self.planned {
            "nothing was written; `--explain` lists the planner's candidates, and flags fix the spec".into()
        } else {
            format!("nothing was written; {}", self.fix)
        })
    }
}

/// The `refactoring` result of the `--json` contract.
#[derive(Debug, Serialize)]
struct RefactoringResult<'a> {
    #[serde(rename = "type")]
    kind: RefactoringKind,
    /// `Class.method(Type, ...)`.
    method: String,
    spec: &'a Spec,
    /// The planner's candidate that was applied; `null` when the flags gave the whole spec.
    candidate: Option<&'a Candidate>,
    /// Repository-relative paths of the files the change touches.
    files: Vec<String>,
    /// The unified diff, uncoloured.
    diff: String,
    /// Whether the change was written.
    applied: bool,
    /// `accepted`, `rejected` or `broken-baseline` when verified; `null` when not.
    verdict: Option<&'static str>,
    /// When the change was shown and not written: the run keeping it, for `mantra apply`.
    #[serde(skip_serializing_if = "Option::is_none")]
    run: Option<String>,
}

/// The `plan` result: `--explain`.
#[derive(Debug, Serialize)]
struct PlanResult<'a> {
    #[serde(rename = "type")]
    kind: RefactoringKind,
    method: String,
    candidates: &'a [Candidate],
    /// Per candidate, in the same order: `null` when the engine applies it, else its refusal
    /// (`reason`, `message`): whether the candidate can be expressed at all.
    engine: Vec<Option<Refusal>>,
}

pub fn run(ctx: &mut Context, args: &RefactorArgs) -> anyhow::Result<Exit> {
    let kind = args.kind;
    let flags = SpecFlags::parse(kind, &args.spec.options())?;
    let project =
        Project::open(&ctx.repo).with_context(|| format!("cannot read the project at {}", ctx.repo.display()))?;
    let method = target::resolve(&project, &ctx.cwd, &args.target)?.method;
    let label = project.method_label(method);
    check_lines(&project, method, &flags, &label)?;

    if args.explain {
        let candidates = plan::candidates(&project, method, kind, &flags, CANDIDATES)?;
        let engine: Vec<Option<Refusal>> =
            candidates.iter().map(|c| engine::apply(&project, method, &c.spec).err()).collect();
        let human = explain_text(kind, &label, &candidates, &engine);
        let result = PlanResult { kind, method: label, candidates: &candidates, engine };
        ctx.reporter.emit(Event::result("plan", &result, human));
        return Ok(Exit::Success);
    }

    let decl = project.method(method);
    let file = project.method_source(method).path.clone();
    let complete = flags.complete(kind, &file, decl.span.start_line);
    // A model chooses what the flags leave open; without one (or with `--llm none`) the planner does.
    if complete.is_none()
        && let Some(model) = open_model(ctx, &args.agents)?
    {
        let examples = examples(ctx, !args.agents.no_rag);
        return run_agents(ctx, args, &project, method, model, examples.as_ref());
    }
    let (candidates, planned) = match complete {
        Some(spec) => (vec![Candidate { spec, summary: String::new(), score: None, components: Vec::new() }], false),
        None => (plan::candidates(&project, method, kind, &flags, CANDIDATES)?, true),
    };
    let mut refused: Option<Refusal> = None;
    let mut chosen = None;
    let mut queue: std::collections::VecDeque<Candidate> = candidates.into();
    while let Some(candidate) = queue.pop_front() {
        match engine::apply(&project, method, &candidate.spec) {
            Ok(changes) => {
                if planned || !candidate.summary.is_empty() {
                    let score = candidate.score.map(|s| format!(" (score {s:.2})")).unwrap_or_default();
                    ctx.reporter.progress("plan", format!("{}{score}", candidate.summary));
                }
                chosen = Some((candidate, changes));
                break;
            }
            Err(refusal) => {
                if planned || !candidate.summary.is_empty() {
                    ctx.reporter.progress(
                        "plan",
                        format!("{}: refused ({}): {}", candidate.summary, refusal.reason, refusal.message),
                    );
                }
                // The user's extraction clashes with an overload of its own name: try passing in
                // what it reads through one of the method's parameters, as developers do.
                if let (false, Reason::NameClash, Spec::ExtractMethod(e)) = (planned, refusal.reason, &candidate.spec)
                    && e.params.is_empty()
                {
                    for alt in plan::parameterised_alternatives(&project, method, e) {
                        let summary = format!("pass `{}` in as a parameter (the extraction clashes)", alt.params[0]);
                        queue.push_back(Candidate {
                            spec: Spec::ExtractMethod(alt),
                            summary,
                            score: None,
                            components: Vec::new(),
                        });
                    }
                }
                refused.get_or_insert(refusal);
            }
        }
    }
    let Some((candidate, changes)) = chosen else {
        let refusal = refused.unwrap_or_else(|| Refusal::new(Reason::NoCandidate, "the planner proposed nothing"));
        return Err(Refused {
            kind: kind.name().to_string(),
            refusal,
            planned,
            fix: match kind {
                RefactoringKind::ExtractMethod => "change the spec (e.g. `--lines`, `--param`) and run again",
                RefactoringKind::InlineMethod => "change the spec (e.g. `--at FILE:LINE` for one call) and run again",
                RefactoringKind::MoveMethod | RefactoringKind::MoveAndRenameMethod => {
                    "change the spec (e.g. `--to`, `--methods`, `--with-helpers`) and run again"
                }
                RefactoringKind::RenameMethod => "change the spec (e.g. `--name`) and run again",
                RefactoringKind::ExtractAndMoveMethod => "change the spec (e.g. `--lines`, `--to`) and run again",
                RefactoringKind::MoveAndInlineMethod => "change the spec (e.g. `--to`, `--at`) and run again",
            },
        }
        .into());
    };

    for note in &changes.notes {
        ctx.reporter.progress("note", note.clone());
    }
    let style = ctx.reporter.style();
    let colored = changes.unified_diff(style).context("rendering the diff")?;
    let plain = if style == Style::PLAIN { colored.clone() } else { changes.unified_diff(Style::PLAIN)? };
    let files: Vec<String> = changes.files.keys().map(|p| p.display().to_string()).collect();
    let intent = engine::intent(&project, method, kind, Some(&candidate.spec));
    let verify = (args.apply && !args.no_verify) || args.verify;
    let (review, applied) = verify::review_and_write(
        ctx,
        project.root(),
        &changes,
        Some(&intent),
        verify,
        args.apply,
        args.keep_workspace,
    )?;
    let accepted = review.as_ref().is_none_or(|r| r.verdict.accepted());
    let count = super::files_count(files.len());
    let what = match (&review, applied) {
        (None, true) => format!("{count} written (unverified)"),
        (Some(_), true) => format!("{count} written (verified)"),
        (Some(r), false) if r.verdict.accepted() => format!("{count} verified, not written (pass --apply to write)"),
        (Some(r), false) => format!("{count} changed, not written: {}", r.verdict.name()),
        (None, false) => format!("{count} changed (dry run; pass --apply to verify and write)"),
    };
    let summary = format!("{} {label}: {what}", kind.name());
    let human = format!("{colored}{}\n", style.bold(&summary));
    let run = (accepted && !applied).then(|| {
        let verdict = if review.is_some() { "accepted" } else { "unverified" };
        keep_preview(ctx, &crate::config::run_dir(&ctx.repo), format!("{} {label}", kind.name()), verdict, &changes)
    });
    let result = RefactoringResult {
        kind,
        method: label,
        spec: &candidate.spec,
        candidate: planned.then_some(&candidate),
        files,
        diff: plain,
        applied,
        verdict: review.as_ref().map(|r| r.verdict.name()),
        run: run.flatten(),
    };
    ctx.reporter.emit(Event::result("refactoring", &result, human));
    match &review {
        Some(r) => {
            verify::emit_verdict(ctx, r);
            Ok(verify::exit_of(r))
        }
        None => Ok(Exit::Success),
    }
}

/// `--lines` must lie inside the method's body: a usage error, not an engine refusal, because
/// the user named the wrong place rather than asked for something impossible.
fn check_lines(project: &Project, method: MethodId, flags: &SpecFlags, label: &str) -> anyhow::Result<()> {
    let Some((a, b)) = flags.lines else { return Ok(()) };
    let decl = project.method(method);
    let Some(body) = decl.body else {
        return Err(UserError::usage(format!("{label} has no body to extract from")).into());
    };
    if a <= body.start_line || b >= body.end_line {
        let (first, last) = (body.start_line + 1, body.end_line.saturating_sub(1).max(body.start_line + 1));
        return Err(UserError::usage(format!(
            "--lines {a}-{b} is outside the body of {label}, whose statements are on lines {first}-{last}"
        ))
        .with_hint(format!("give lines between {first} and {last}, or leave out --lines to let the planner choose"))
        .into());
    }
    Ok(())
}

fn explain_text(kind: RefactoringKind, label: &str, candidates: &[Candidate], engine: &[Option<Refusal>]) -> String {
    let mut out = format!("{} candidates for {label}, best first:\n", kind.name());
    for (i, (c, refused)) in candidates.iter().zip(engine).enumerate() {
        let score = c.score.map_or("  -  ".to_string(), |s| format!("{s:.2}"));
        out.push_str(&format!("{:>2}. {score}  {}\n", i + 1, c.summary));
        if !c.components.is_empty() {
            let parts: Vec<String> = c
                .components
                .iter()
                .map(|p| {
                    if p.value.fract() == 0.0 {
                        format!("{} {}", p.name, p.value)
                    } else {
                        format!("{} {:.2}", p.name, p.value)
                    }
                })
                .collect();
            out.push_str(&format!("          {}\n", parts.join(", ")));
        }
        match refused {
            None => out.push_str("          engine: applies\n"),
            Some(r) => out.push_str(&format!("          engine: refused ({}): {}\n", r.reason, r.message)),
        }
    }
    out
}

/// The model the flags and configuration ask for; `None` means the heuristic planner.
/// With the model, the path of the run's transcript.
pub(super) fn open_model(ctx: &Context, args: &AgentArgs) -> anyhow::Result<Option<(Arc<dyn ChatModel>, PathBuf)>> {
    let transcript = crate::llm::transcript::run_dir(&ctx.repo).join(crate::llm::transcript::TRANSCRIPT_FILE);
    open_model_with(ctx, args, transcript)
}

/// [`open_model`] with the transcript written to `transcript` (`mantra batch` keeps it in its folder).
pub(super) fn open_model_with(
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
    /// When the change was shown and not written: the run keeping it, for `mantra apply`.
    #[serde(skip_serializing_if = "Option::is_none")]
    run: Option<String>,
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

fn run_agents(
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
        fixed: args.spec.options(),
    };
    let label = project.method_label(method);
    let mode = if modes.raw { "raw baseline" } else { "agents" };
    ctx.reporter.progress("agents", format!("{} {label} with the {mode}", args.kind.name()));
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
                crate::workspace::writeback::write_atomically(&repo, &outcome.changes)?;
            }
        }
    }
    let style = ctx.reporter.style();
    let colored = outcome.changes.unified_diff(style).context("rendering the diff")?;
    let plain = if style == Style::PLAIN { colored.clone() } else { outcome.changes.unified_diff(Style::PLAIN)? };
    let files: Vec<String> = outcome.changes.files.keys().map(|p| p.display().to_string()).collect();
    let verdict = match &outcome.status {
        Status::Accepted => "accepted",
        Status::Rejected(_) => "rejected",
        Status::Unverified => "unverified",
        Status::BrokenBaseline => "broken-baseline",
    };
    let count = super::files_count(files.len());
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
    let summary = format!("{} {label}: {what}", args.kind.name());
    let engine: Vec<String> = outcome.applied.iter().map(|s| s.kind().name().to_string()).collect();
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
    let run = (accepted && !applied && !outcome.changes.is_empty()).then(|| {
        let dir = transcript.parent().map_or_else(|| crate::config::run_dir(&repo), Path::to_path_buf);
        keep_preview(ctx, &dir, format!("{} {label}", args.kind.name()), verdict, &outcome.changes)
    });
    let result = AgentResult {
        kind: args.kind,
        method: label,
        files,
        diff: plain,
        applied,
        verdict,
        run: run.flatten(),
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
        verify::emit_verdict(ctx, r);
    }
    Ok(if accepted { Exit::Success } else { Exit::Rejected })
}

/// Keeps a change shown and not written in the run folder `run`, for `mantra apply`, and says so
/// on stderr. A preview that cannot be kept costs the user nothing but the command: a warning.
fn keep_preview(ctx: &mut Context, run: &Path, what: String, verdict: &str, changes: &ChangeSet) -> Option<String> {
    match preview::save(run, &Preview::new(what, verdict, changes.clone())) {
        Ok(id) => {
            ctx.reporter.progress("preview", format!("kept as run {id}: `mantra apply` writes exactly this change"));
            Some(id)
        }
        Err(e) => {
            ctx.reporter.warning(format!("{e}; `mantra apply` cannot write this change"), None);
            None
        }
    }
}

/// The example store the Developer searches ([`session::examples`]); the store's notices become
/// warnings.
pub(super) fn examples(ctx: &mut Context, rag: bool) -> Box<dyn Examples> {
    let (examples, notices) = session::examples(&ctx.repo, &ctx.config.config, rag);
    for n in notices {
        ctx.reporter.warning(n.message, n.hint);
    }
    examples
}
