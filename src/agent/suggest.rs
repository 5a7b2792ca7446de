//! The model's part in `mantra suggest`: it re-ranks the heuristic suggestions, leaves out those
//! a careful developer would not make, and may name the methods they create or rename (MANTRA's
//! "list the opportunities, then pick"). After the suggestions it is shown the methods whose
//! names say least about their code ([`crate::plan::suggest::naming`]): one it ranks with a name
//! becomes a Rename Method suggestion. Its answer is advice: each new name goes through the
//! engine's dry run as the heuristic one did, a name the engine refuses is not used, and an
//! answer that does not parse, or keeps nothing, leaves the list as it was.

use serde::Deserialize;

use super::AgentError;
use crate::engine::rename::RenameSpec;
use crate::engine::{self, Spec};
use crate::java::Project;
use crate::llm::prompts::Prompts;
use crate::llm::{ChatModel, ChatRequest, Message};
use crate::plan::suggest::Opportunity;
use crate::plan::suggest::naming::Naming;
use crate::refactoring::RefactoringKind;

/// How many lines of code each suggestion shows the model at most.
const CODE_LINES: usize = 14;

/// The score of a rename the model named: a name only a reader of the code could judge, below
/// a name that contradicts its code.
pub const MODEL_NAMED: f64 = 0.45;

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

/// `suggestions` (ranked best first, from `files` scanned files) as the model ranks and names
/// them, with the `names` it gives a method to rename.
pub fn rerank(
    model: &dyn ChatModel,
    prompts: &Prompts,
    project: &Project,
    files: usize,
    suggestions: Vec<Opportunity>,
    names: &[Naming],
) -> Result<Outcome, AgentError> {
    let n = suggestions.len();
    let mut listed: Vec<String> = suggestions.iter().enumerate().map(|(i, o)| describe(project, i + 1, o)).collect();
    if !names.is_empty() {
        listed.push(format!(
            "\nMethods whose names may not say what their code does ({}-{}): list one only with the `name` \
             you would give it, which makes it a rename suggestion; leave out those whose names are fine.",
            n + 1,
            n + names.len()
        ));
        listed.extend(names.iter().enumerate().map(|(j, c)| describe_name(project, n + j + 1, c)));
    }
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
    let mut seen = vec![false; n + names.len()];
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for r in &answer.ranking {
        let Some(i) = r.id.checked_sub(1).filter(|&i| i < seen.len() && !seen[i]) else { continue };
        seen[i] = true;
        let mut o = if i < n {
            let mut o = suggestions[i].clone();
            if let Some(name) = r.name.as_deref().map(str::trim) {
                name_it(project, &mut o, name, &mut notes);
            }
            o
        } else {
            match renamed(project, &names[i - n], r.name.as_deref().map(str::trim), &mut notes) {
                Some(o) => o,
                // A later entry of the answer may still name it.
                None => {
                    seen[i] = false;
                    continue;
                }
            }
        };
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
    let left_out = seen[..n].iter().filter(|s| !**s).count();
    if left_out > 0 {
        notes.push(format!("the model left out {left_out} of the {} suggestion(s)", suggestions.len()));
    }
    Ok(Outcome { suggestions: out, ignored: None, notes })
}

/// The rename of `c` to the model's `name`, when the engine applies it.
fn renamed(project: &Project, c: &Naming, name: Option<&str>, notes: &mut Vec<String>) -> Option<Opportunity> {
    let old = &project.method(c.method).name;
    let Some(name) = name.filter(|n| !n.is_empty()) else {
        notes.push(format!("the model listed {} to rename without a name; not suggested", c.target));
        return None;
    };
    if name == old {
        return None;
    }
    if !crate::java::syntax::is_java_identifier(name) {
        notes.push(format!("`{name}` for {} is not a Java method name; not suggested", c.target));
        return None;
    }
    let spec = Spec::RenameMethod(RenameSpec { new_name: name.to_string() });
    match engine::apply(project, c.method, &spec) {
        Ok(_) => Some(Opportunity {
            kind: RefactoringKind::RenameMethod,
            target: c.target.clone(),
            spec,
            score: MODEL_NAMED,
            reason: format!("{}: the model names it `{name}`", c.reason),
            method: c.method,
            family: None,
        }),
        Err(refusal) => {
            notes.push(format!(
                "`{name}` for {}: refused by the engine ({}: {}); not suggested",
                c.target, refusal.reason, refusal.message
            ));
            None
        }
    }
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
    format!(
        "{id}. {} {} (score {:.2}): {}\n{}",
        o.kind.name(),
        o.target,
        o.score,
        o.reason,
        excerpt(&project.method_source(o.method).text, first, last)
    )
}

/// Lines `first..=last` of `text` for the prompt, at most [`CODE_LINES`] of them, under their range.
fn excerpt(text: &str, first: usize, last: usize) -> String {
    let code: Vec<String> = text
        .lines()
        .skip(first.saturating_sub(1))
        .take((last + 1 - first).min(CODE_LINES))
        .map(|l| format!("   | {l}"))
        .collect();
    let more = if last + 1 - first > CODE_LINES { "\n   ..." } else { "" };
    format!("   lines {first}-{last}:\n{}{more}", code.join("\n"))
}

/// One method to name for the prompt: its number, target, why its name is doubtful, and its
/// first lines.
fn describe_name(project: &Project, id: usize, c: &Naming) -> String {
    let decl = project.method(c.method);
    let (first, last) = (decl.span.start_line, decl.span.end_line);
    let code = excerpt(&project.method_source(c.method).text, first, last);
    format!("{id}. name? {}: {}\n{code}", c.target, c.reason)
}

/// `why` on one line, at most 160 characters.
fn one_line(why: &str) -> String {
    let flat = why.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(160) {
        Some((at, _)) => format!("{}…", &flat[..at]),
        None => flat,
    }
}
