//! `mantra refactor`: target → spec (flags, then the planner for what they leave out) → engine →
//! diff; with `--apply`, the Reviewer (workspace, baseline, detection, style, compile, tests) and,
//! when it accepts, the change applied back atomically; `--apply --no-verify` writes unverified,
//! `--verify` verifies without writing.
//!
//! The planner's candidates are tried best first: when the engine refuses one, the next is tried
//! and stderr says so; a spec the user gave completely is tried alone. A refusal writes nothing and
//! exits with `rejected` (1). `--explain` prints the planner's candidates and does nothing else.

use anyhow::Context as _;
use serde::Serialize;

use crate::Context;
use crate::cli::{RefactorArgs, RefactoringKind};
use crate::commands::verify;
use crate::engine::{self, Refusal, Spec, SpecFlags};
use crate::error::{Classify, UserError};
use crate::exit::Exit;
use crate::java::{MethodId, Project, target};
use crate::plan::{self, Candidate};
use crate::report::{Event, Style, diff};

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
}

impl Classify for Refused {
    fn exit(&self) -> Exit {
        Exit::Rejected
    }
    fn hint(&self) -> Option<String> {
        match self.refusal.reason {
            "unavailable" => None,
            _ if self.planned => {
                Some("nothing was written; `--explain` lists the planner's candidates, and flags fix the spec".into())
            }
            _ => Some("nothing was written; change the spec (e.g. `--lines`) and run again".into()),
        }
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
}

/// The `plan` result: `--explain`.
#[derive(Debug, Serialize)]
struct PlanResult<'a> {
    #[serde(rename = "type")]
    kind: RefactoringKind,
    method: String,
    candidates: &'a [Candidate],
}

pub fn run(ctx: &mut Context, args: &RefactorArgs) -> anyhow::Result<Exit> {
    let kind = args.kind;
    let flags = SpecFlags::parse(kind, &args.spec)?;
    let project =
        Project::open(&ctx.repo).with_context(|| format!("cannot read the project at {}", ctx.repo.display()))?;
    let method = target::resolve(&project, &ctx.cwd, &args.target)?.method;
    let label = method_label(&project, method);
    check_lines(&project, method, &flags, &label)?;

    if args.explain {
        let candidates = plan::candidates(&project, method, kind, &flags, CANDIDATES)?;
        let human = explain_text(kind, &label, &candidates);
        ctx.reporter.emit(Event::result("plan", &PlanResult { kind, method: label, candidates: &candidates }, human));
        return Ok(Exit::Success);
    }

    let decl = project.method(method);
    let file = project.method_source(method).path.clone();
    let complete = flags.complete(kind, &file, decl.span.start_line);
    // A model chooses what the flags leave open; without one (or with `--llm none`) the planner does.
    if complete.is_none()
        && let Some(model) = super::agent_refactor::open_model(ctx, &args.agents)?
    {
        let examples = super::agent_refactor::examples(ctx, !args.agents.no_rag);
        return super::agent_refactor::run(ctx, args, &project, method, model, examples.as_ref());
    }
    let (candidates, planned) = match complete {
        Some(spec) => (vec![Candidate { spec, summary: String::new(), score: None, components: Vec::new() }], false),
        None => (plan::candidates(&project, method, kind, &flags, CANDIDATES)?, true),
    };
    let mut refused: Option<Refusal> = None;
    let mut chosen = None;
    for candidate in candidates {
        match engine::apply(&project, method, &candidate.spec) {
            Ok(changes) => {
                if planned {
                    let score = candidate.score.map(|s| format!(" (score {s:.2})")).unwrap_or_default();
                    ctx.reporter.progress("plan", format!("{}{score}", candidate.summary));
                }
                chosen = Some((candidate, changes));
                break;
            }
            Err(refusal) => {
                if planned {
                    ctx.reporter.progress(
                        "plan",
                        format!("{}: refused ({}): {}", candidate.summary, refusal.reason, refusal.message),
                    );
                }
                refused.get_or_insert(refusal);
                if refused.as_ref().is_some_and(|r| r.reason == "unavailable") {
                    break;
                }
            }
        }
    }
    let Some((candidate, changes)) = chosen else {
        let refusal = refused.unwrap_or_else(|| Refusal::new("no_candidate", "the planner proposed nothing"));
        return Err(Refused { kind: kind_name(kind), refusal, planned }.into());
    };

    let style = ctx.reporter.style();
    let colored = diff::change_set(&changes, style).context("rendering the diff")?;
    let plain = if style == Style::PLAIN { colored.clone() } else { diff::change_set(&changes, Style::PLAIN)? };
    let files: Vec<String> = changes.files.keys().map(|p| p.display().to_string()).collect();
    let review = if (args.apply && !args.no_verify) || args.verify {
        let mut intent = verify::intent_for(&project, method, kind);
        (intent.new_name, intent.destination) = spec_names(&candidate.spec);
        let key = crate::workspace::dirty_state_hash(project.root())?;
        let change = crate::review::Change::from_change_set(&changes).context("rendering the change")?;
        ctx.reporter.progress("verify", "verifying in a scratch copy of the project (the original's build first)");
        Some(verify::review(ctx, &change, Some(&intent), &key, args.keep_workspace)?)
    } else {
        None
    };
    let accepted = review.as_ref().is_none_or(|r| r.verdict.accepted());
    let applied = args.apply && accepted;
    match &review {
        Some(r) if applied => {
            r.workspace.apply_back(&changes)?;
        }
        None if applied => {
            crate::writeback::write_atomically(project.root(), &changes)?;
        }
        _ => {}
    }
    let count = match files.len() {
        1 => "1 file".to_string(),
        n => format!("{n} files"),
    };
    let what = match (&review, applied) {
        (None, true) => format!("{count} written (unverified)"),
        (Some(_), true) => format!("{count} written (verified)"),
        (Some(r), false) if r.verdict.accepted() => format!("{count} verified, not written (pass --apply to write)"),
        (Some(r), false) => format!("{count} changed, not written: {}", r.verdict.name()),
        (None, false) => format!("{count} changed (dry run; pass --apply to verify and write)"),
    };
    let summary = format!("{} {label}: {what}", kind_name(kind));
    let human = format!("{colored}{}\n", style.bold(&summary));
    let result = RefactoringResult {
        kind,
        method: label,
        spec: &candidate.spec,
        candidate: planned.then_some(&candidate),
        files,
        diff: plain,
        applied,
        verdict: review.as_ref().map(|r| r.verdict.name()),
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

/// What the spec says about the result, for the detector: the new method's name and the
/// destination class when it is named outright (a parameter's or field's class is left to the detector).
pub fn spec_names(spec: &Spec) -> (Option<String>, Option<String>) {
    use crate::engine::Destination;
    let class = |d: &Destination| match d {
        Destination::Class(fqn) => Some(fqn.clone()),
        Destination::Param(_) | Destination::Field(_) => None,
    };
    match spec {
        Spec::ExtractMethod(s) => (Some(s.name.clone()), None),
        Spec::RenameMethod(s) => (Some(s.new_name.clone()), None),
        Spec::InlineMethod(_) => (None, None),
        Spec::MoveMethod(s) => (None, class(&s.to)),
        Spec::ExtractAndMoveMethod(s) => (Some(s.extract.name.clone()), class(&s.move_to.to)),
        Spec::MoveAndInlineMethod(s) => (None, class(&s.to)),
        Spec::MoveAndRenameMethod(s) => (Some(s.new_name.clone()), class(&s.move_to.to)),
    }
}

pub fn kind_name(kind: RefactoringKind) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

pub fn method_label(project: &Project, method: MethodId) -> String {
    let decl = project.method(method);
    let owner = project.type_decl(project.owner(method));
    let params: Vec<String> = decl.params.iter().map(|p| p.ty.erased()).collect();
    format!("{}.{}({})", owner.display, decl.name, params.join(", "))
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

fn explain_text(kind: RefactoringKind, label: &str, candidates: &[Candidate]) -> String {
    let mut out = format!("{} candidates for {label}, best first:\n", kind_name(kind));
    for (i, c) in candidates.iter().enumerate() {
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
    }
    out
}
