//! The Repair agent, after Reflexion: an initial analysis (the refactoring's diff, the whole
//! class, the Reviewer's structured diagnostics) → a patch → build and test; on failure a
//! self-reflection comparing the errors before and after the patch, ending in a plan that names
//! concrete changes → act → build and test again, at most `agent.max_repair_attempts` times.
//!
//! The prompt forbids behaviour changes, and after every patch the built-in detector re-checks
//! in-process that the refactoring is still there before anything is built: a "repair" that
//! undoes the refactoring is a failed attempt, not a success. Failure classes follow
//! RepoTransAgent: compile error, test failure, runtime error, timeout.

use super::review_loop::Run;
use super::tools::{Toolset, Workbench};
use super::{AgentError, turn::TOOL_RESULT_CAP};
use crate::build::FailureKind;
use crate::llm::Message;
use crate::review::{Change, Match, Review, Stage, Verdict};
use crate::style::Style;

/// The failure class of a rejection, in words.
pub fn failure_class(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Rejected { failure: Some(FailureKind::Compile), .. } => "compile error",
        Verdict::Rejected { failure: Some(FailureKind::TestFailure), .. } => "test failure",
        Verdict::Rejected { failure: Some(FailureKind::Runtime), .. } => "runtime error",
        Verdict::Rejected { failure: Some(FailureKind::Timeout), .. } => "timeout",
        Verdict::Rejected { stage: Stage::Detection, .. } => "refactoring not detected",
        Verdict::Rejected { stage: Stage::Style, .. } => "style violations",
        Verdict::Rejected { stage: Stage::Compile, .. } => "compile error",
        Verdict::Rejected { .. } => "test failure",
        Verdict::Accepted => "none",
        Verdict::BrokenBaseline { .. } => "broken baseline",
    }
}

/// The review's findings as structured lines: compiler diagnostics with their source line,
/// broken tests with message and trimmed stack trace, else the verdict's reasons.
pub fn diagnostics(review: &Review) -> String {
    let mut out = String::new();
    for d in &review.diagnostics {
        let col = d.column.map(|c| format!(":{c}")).unwrap_or_default();
        out.push_str(&format!("- {}:{}{col}: {}\n", d.file.display(), d.line, d.message.replace('\n', " | ")));
        if let Some(src) = &d.source_line {
            out.push_str(&format!("    {}\n", src.trim_end()));
        }
    }
    for t in &review.broken {
        out.push_str(&format!("- test {} failed: {}\n", t.id, t.message.as_deref().unwrap_or("(no message)")));
        if let Some(trace) = &t.stack_trace {
            for line in trace.lines().take(8) {
                out.push_str(&format!("    {line}\n"));
            }
        }
    }
    if out.is_empty() {
        for r in review.verdict.reasons() {
            out.push_str(&format!("- {r}\n"));
        }
    }
    if out.is_empty() {
        out.push_str("- (no details)\n");
    }
    out
}

/// [`diagnostics`] with, under them, the candidates in scope for each variable the compiler
/// cannot find (code wiring's collectors), so the repair binds names instead of guessing.
fn with_candidates(bench: &mut Workbench, review: &Review) -> String {
    let mut out = diagnostics(review);
    let wiring = super::tools::wiring::candidates_for(bench, &review.diagnostics);
    if !wiring.is_empty() {
        out.push_str("Names the compiler cannot find, and what is in scope there:\n");
        out.push_str(&wiring);
    }
    out
}

fn stage_label(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Rejected { stage, .. } => stage.label(),
        _ => "review",
    }
}

/// Repairs the Developer's change, starting from `failed` (a compile or test rejection). Returns
/// the last review and the number of attempts made.
pub(crate) fn run(run: &mut Run, bench: &mut Workbench, failed: Review) -> Result<(Review, u32), AgentError> {
    let job = run.job;
    let max = job.config.agent.max_repair_attempts.max(1);
    let max_steps = job.config.agent.max_steps.max(1);
    let kind = job.kind.name().to_string();
    let method = job.project.method_label(job.method);
    bench.toolset = Toolset::Repair;

    // The initial analysis: the class the first diagnostic names, else the target's.
    let target_file = job.project.method_source(job.method).path.clone();
    let file =
        failed.diagnostics.first().map(|d| d.file.clone()).filter(|f| bench.text(f).is_some()).unwrap_or(target_file);
    let class_code = bench.text(&file).unwrap_or_default();
    let shown = bench.change_set().unified_diff(Style::PLAIN).map_err(|e| AgentError::Internal(e.to_string()))?;
    let task = job.prompts.render(
        "repair-task",
        &[
            ("kind", &kind),
            ("method", &method),
            ("failure", failure_class(&failed.verdict)),
            ("stage", stage_label(&failed.verdict)),
            ("diagnostics", with_candidates(bench, &failed).trim_end()),
            ("diff", shown.trim_end()),
            ("file", &file.display().to_string()),
            ("class_code", cap(&class_code).trim_end()),
        ],
    )?;
    let mut messages = vec![Message::system(job.prompts.render("repair", &[])?), Message::user(task)];
    run.session.event(
        "repair",
        1,
        0,
        "analysis",
        format!("{} at {}", failure_class(&failed.verdict), stage_label(&failed.verdict)),
    );

    // `current`: the errors as they stand; `before`: as they stood before the last attempt.
    let mut current = with_candidates(bench, &failed);
    let mut before = current.clone();
    let mut failure = (failure_class(&failed.verdict).to_string(), stage_label(&failed.verdict).to_string());
    let mut last = failed;
    // Whether the last attempt undid the refactoring, so that `last` no longer describes the code.
    let mut undone = false;
    for attempt in 1..=max {
        if attempt > 1 && job.out_of_time() {
            run.session.event("repair", attempt, 0, "budget", super::review_loop::OUT_OF_TIME);
            return Ok((settle(run, bench, last, undone, attempt - 1)?, attempt - 1));
        }
        if attempt > 1 {
            reflect(run, &mut messages, attempt - 1, max, &failure, &before, &current)?;
        }
        before = current.clone();
        run.session.turn("repair", attempt, &mut messages, bench, max_steps)?;
        let changes = bench.change_set();
        let change = Change::from_change_set(&changes).map_err(|e| AgentError::Internal(e.to_string()))?;
        // The refactoring must survive the repair.
        let v = run.detect(&change, attempt);
        if v.verdict == Match::Missing {
            current = format!("- the {kind} is no longer there: {}\n", v.reason);
            failure = ("refactoring undone".into(), "detection".into());
            undone = true;
            continue;
        }
        undone = false;
        let review = run.review(&change, attempt)?;
        if review.verdict.accepted() || matches!(review.verdict, Verdict::BrokenBaseline { .. }) {
            run.session.event("repair", attempt, 0, "verdict", format!("repaired in {attempt} attempt(s)"));
            return Ok((review, attempt));
        }
        current = with_candidates(bench, &review);
        failure = (failure_class(&review.verdict).to_string(), stage_label(&review.verdict).to_string());
        last = review;
    }
    run.session.event(
        "repair",
        max,
        0,
        "budget",
        format!("no repair after {max} attempts (agent.max_repair_attempts)"),
    );
    Ok((settle(run, bench, last, undone, max)?, max))
}

/// The review to report when the repair gives up: the last one, unless the last attempt undid
/// the refactoring. The code is then reviewed as it stands, which the Reviewer rejects at
/// detection, so that the verdict speaks of the code shown rather than of an earlier attempt.
fn settle(run: &mut Run, bench: &Workbench, last: Review, undone: bool, round: u32) -> Result<Review, AgentError> {
    if !undone {
        return Ok(last);
    }
    let change = Change::from_change_set(&bench.change_set()).map_err(|e| AgentError::Internal(e.to_string()))?;
    run.review(&change, round)
}

/// The reflection: the model compares the errors before and after its patch and plans, without
/// tools; then it is told to act.
fn reflect(
    run: &mut Run,
    messages: &mut Vec<Message>,
    attempt: u32,
    max: u32,
    failure: &(String, String),
    before: &str,
    after: &str,
) -> Result<(), AgentError> {
    let prompts = run.job.prompts;
    let text = prompts.render(
        "repair-reflect",
        &[
            ("attempt", &attempt.to_string()),
            ("max_attempts", &max.to_string()),
            ("failure", &failure.0),
            ("stage", &failure.1),
            ("before", before.trim_end()),
            ("after", after.trim_end()),
        ],
    )?;
    messages.push(Message::user(text));
    let response = run.session.ask("repair", messages, Vec::new(), None)?;
    let reflection = response.message.content.clone().unwrap_or_default();
    run.session.event("repair", attempt + 1, 0, "reflection", reflection.lines().next().unwrap_or("").to_string());
    // Tool calls are not expected here; keep only the text so the conversation stays well-formed.
    messages.push(Message::assistant(reflection));
    messages.push(Message::user(prompts.render("repair-act", &[])?));
    Ok(())
}

fn cap(text: &str) -> &str {
    crate::text::head(text, TOOL_RESULT_CAP)
}
