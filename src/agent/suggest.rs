//! The model's part in `mantra suggest`: it re-ranks the heuristic suggestions, leaves out those
//! a careful developer would not make, and may name the methods they create or rename (MANTRA's
//! "list the opportunities, then pick"). Its answer is advice: each new name goes through the
//! engine's dry run as the heuristic one did, a name the engine refuses is not used, and an
//! answer that does not parse, or keeps nothing, leaves the list as it was.

use serde::Deserialize;

use super::AgentError;
use crate::engine::{self, Spec};
use crate::java::Project;
use crate::llm::prompts::Prompts;
use crate::llm::{ChatModel, ChatRequest, Message};
use crate::plan::suggest::Opportunity;

/// How many lines of code each suggestion shows the model at most.
const CODE_LINES: usize = 14;

#[derive(Debug, Deserialize, Default)]
struct Answer {
    #[serde(default)]
    ranking: Vec<Ranked>,
}

#[derive(Debug, Deserialize)]
struct Ranked {
    id: usize,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    why: Option<String>,
}

/// The list after the model's review, and what it did.
#[derive(Debug, Default)]
pub struct Outcome {
    pub suggestions: Vec<Opportunity>,
    /// Why the model's answer was not used, when it was not.
    pub ignored: Option<String>,
    /// What the model changed that the user should know: names the engine refused, suggestions
    /// left out.
    pub notes: Vec<String>,
}

/// `suggestions` (ranked best first, from `files` scanned files) as the model ranks and names them.
pub fn rerank(
    model: &dyn ChatModel,
    prompts: &Prompts,
    project: &Project,
    files: usize,
    suggestions: Vec<Opportunity>,
) -> Result<Outcome, AgentError> {
    let listed: Vec<String> = suggestions.iter().enumerate().map(|(i, o)| describe(project, i + 1, o)).collect();
    let prompt = prompts.render("suggest", &[("files", &files.to_string()), ("suggestions", &listed.join("\n"))])?;
    let request = ChatRequest {
        agent: "suggest".into(),
        messages: vec![Message::user(prompt)],
        tools: Vec::new(),
        tool_choice: None,
    };
    let text = model.chat(&request)?.message.content.unwrap_or_default();
    let Some(answer) = super::json_object::<Answer>(&text) else {
        return Ok(unchanged(suggestions, "the model's answer is not the JSON object asked for"));
    };
    let mut seen = vec![false; suggestions.len()];
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for r in &answer.ranking {
        let Some(i) = r.id.checked_sub(1).filter(|&i| i < suggestions.len() && !seen[i]) else { continue };
        seen[i] = true;
        let mut o = suggestions[i].clone();
        if let Some(name) = r.name.as_deref().map(str::trim) {
            name_it(project, &mut o, name, &mut notes);
        }
        let why = r.why.as_deref().map(str::trim).filter(|w| !w.is_empty());
        o.reason = match why {
            Some(why) => format!("{}; ranked {} by the model: {}", o.reason, out.len() + 1, one_line(why)),
            None => format!("{}; ranked {} by the model", o.reason, out.len() + 1),
        };
        out.push(o);
    }
    if out.is_empty() {
        return Ok(unchanged(suggestions, "the model kept none of the suggestions"));
    }
    let left_out = seen.iter().filter(|s| !**s).count();
    if left_out > 0 {
        notes.push(format!("the model left out {left_out} of the {} suggestion(s)", suggestions.len()));
    }
    Ok(Outcome { suggestions: out, ignored: None, notes })
}

fn unchanged(suggestions: Vec<Opportunity>, why: &str) -> Outcome {
    Outcome { suggestions, ignored: Some(why.to_string()), notes: Vec::new() }
}

/// Gives `o`'s new method the model's `name` when the engine applies the spec with it.
fn name_it(project: &Project, o: &mut Opportunity, name: &str, notes: &mut Vec<String>) {
    let Some(old) = o.spec.new_name().map(str::to_string) else { return };
    if name == old {
        return;
    }
    if !crate::java::syntax::is_java_identifier(name) {
        notes.push(format!("`{name}` for {} is not a Java method name; kept `{old}`", o.target));
        return;
    }
    let spec = o.spec.clone().with_new_name(name);
    match engine::apply(project, o.method, &spec) {
        Ok(_) => {
            o.spec = spec;
            o.reason = o.reason.replace(&format!("`{old}`"), &format!("`{name}`"));
            o.reason.push_str("; named by the model");
        }
        Err(refusal) => notes.push(format!(
            "`{name}` for {}: refused by the engine ({}: {}); kept `{old}`",
            o.target, refusal.reason, refusal.message
        )),
    }
}

/// One suggestion for the prompt: its number, type, target, score and reason, then the code it
/// is about (an extraction's lines, else the method's first lines).
fn describe(project: &Project, id: usize, o: &Opportunity) -> String {
    let decl = project.method(o.method);
    let (first, last) = match &o.spec {
        Spec::ExtractMethod(e) => e.lines,
        Spec::ExtractAndMoveMethod(s) => s.extract.lines,
        _ => (decl.span.start_line, decl.span.end_line),
    };
    let text = &project.method_source(o.method).text;
    let shown: Vec<&str> =
        text.lines().skip(first.saturating_sub(1)).take((last + 1 - first).min(CODE_LINES)).collect();
    let more = if last + 1 - first > CODE_LINES { "\n   ..." } else { "" };
    let code: Vec<String> = shown.iter().map(|l| format!("   | {l}")).collect();
    format!(
        "{id}. {} {} (score {:.2}): {}\n   lines {first}-{last}:\n{}{more}",
        o.kind.name(),
        o.target,
        o.score,
        o.reason,
        code.join("\n")
    )
}

/// `why` on one line, at most 160 characters.
fn one_line(why: &str) -> String {
    let flat = why.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(160) {
        Some((at, _)) => format!("{}…", &flat[..at]),
        None => flat,
    }
}
