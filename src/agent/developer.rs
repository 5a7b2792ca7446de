//! The Developer agent's conversation: the static system prompt (MANTRA's four steps), the task
//! with the context mantra gathered up front (the target method with line numbers, its class,
//! callers, callees, hierarchy and the project summary), and the Reviewer's feedback messages.

use super::Prompts;
use super::tools::numbered;
use crate::java::analysis as analyze;
use crate::java::{MethodId, Project};
use crate::llm::Message;
use crate::llm::prompts::PromptError;
use crate::refactoring::RefactoringKind;

/// What the prompts say about the task.
#[derive(Debug, Clone)]
pub struct Task {
    pub kind: RefactoringKind,
    /// `Class.method(Type, ...)`.
    pub method: String,
    /// The repository-relative file.
    pub file: String,
    /// The target as the tools take it.
    pub target: String,
    /// What mantra gathered (see [`context`]).
    pub context: String,
    /// Whether the example store is offered.
    pub rag: bool,
    /// What the user fixed ([`super::Job::fixed_sentence`]), empty when nothing.
    pub fixed: String,
}

/// The gathered context: the method with line numbers, then `mantra analyze`'s rendering.
pub fn context(project: &Project, method: MethodId) -> String {
    let d = project.method(method);
    let source = project.method_source(method);
    let start = d.javadoc_span.map_or(d.span.start_line, |j| j.start_line);
    let analysis = analyze::analyze(project, method);
    format!(
        "The target method with line numbers ({}):\n{}\n{}",
        source.path.display(),
        numbered(&source.text, start, d.span.end_line),
        analyze::render(&analysis)
    )
}

/// The planner's best candidates for the task, as a list the Developer picks from (MANTRA's
/// "list the opportunities, then choose one"): empty when the planner has none.
pub fn candidates_text(
    project: &Project,
    method: MethodId,
    kind: crate::refactoring::RefactoringKind,
    fixed: &crate::refactoring::SpecOptions,
) -> String {
    let Ok(flags) = crate::engine::SpecFlags::parse(kind, fixed) else { return String::new() };
    let Ok(found) = crate::plan::candidates(project, method, kind, &flags, 3) else { return String::new() };
    let lines: Vec<String> = found
        .iter()
        .filter(|c| crate::engine::apply(project, method, &c.spec).is_ok())
        .enumerate()
        .map(|(i, c)| {
            let score = c.score.map(|s| format!(" (score {s:.2})")).unwrap_or_default();
            format!("{}. {}{score}", i + 1, c.summary)
        })
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "\nCandidates mantra's planner found for this refactoring, best first, each one the engine can apply \
         (choose one, or a better one you see):\n{}\n",
        lines.join("\n")
    )
}

/// The opening messages of the Developer's conversation.
pub fn opening(prompts: &Prompts, task: &Task) -> Result<Vec<Message>, PromptError> {
    let kind = task.kind.name().to_string();
    let mut hint = task.fixed.clone();
    if !task.rag {
        hint.push_str("(The example store is not used in this run: skip step 2.)\n");
    }
    let user = prompts.render(
        "developer-task",
        &[
            ("kind", &kind),
            ("method", &task.method),
            ("file", &task.file),
            ("target", &task.target),
            ("hint", &hint),
            ("context", task.context.trim_end()),
        ],
    )?;
    Ok(vec![Message::system(prompts.render("developer", &[])?), Message::user(user)])
}

/// The Reviewer's feedback to the Developer, as the next user message.
pub fn feedback(
    prompts: &Prompts,
    round: u32,
    max_rounds: u32,
    stage: &str,
    findings: &[String],
    advice: &str,
) -> Result<String, PromptError> {
    let findings: String = findings.iter().map(|f| format!("- {f}\n")).collect();
    prompts.render(
        "reviewer-feedback",
        &[
            ("round", &round.to_string()),
            ("max_rounds", &max_rounds.to_string()),
            ("stage", stage),
            ("findings", findings.trim_end()),
            ("advice", advice),
        ],
    )
}
