//! The model's part in a coordinated rename: it reviews the heuristic candidates (keeps those
//! that name the seed's concept, with the new name it would choose, and drops the rest) and may
//! add identifiers of the seed's file the heuristics missed. Its answer is advice: every rename
//! it keeps or adds is located in the project and checked by the engine like any other, and an
//! answer that does not parse leaves the heuristic suggestions as they were.

use serde::Deserialize;

use super::AgentError;
use crate::engine::rename::element::{Narrowing, declarations, narrow};
use crate::engine::rename::{Element, Kind};
use crate::java::Project;
use crate::llm::prompts::Prompts;
use crate::llm::{ChatModel, ChatRequest, Message};
use crate::plan::corename::{Relation, Suggestion};

/// The score of a candidate the model kept (at least), and of one it added.
const KEPT: f64 = 0.7;
const ADDED: f64 = 0.6;

#[derive(Debug, Deserialize, Default)]
struct Answer {
    #[serde(default)]
    keep: Vec<Keep>,
    #[serde(default)]
    add: Vec<Add>,
}

#[derive(Debug, Deserialize)]
struct Keep {
    id: usize,
    new: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Add {
    kind: Kind,
    old: String,
    new: String,
    #[serde(default)]
    why: String,
}

/// What the review did, for the user.
#[derive(Debug, Default)]
pub struct Outcome {
    pub suggestions: Vec<Suggestion>,
    /// Why the model's answer was not used, when it was not.
    pub ignored: Option<String>,
}

/// The suggestions after the model's review of `suggestions` for renaming `seed` to `new`.
pub fn review(
    model: &dyn ChatModel,
    prompts: &Prompts,
    project: &Project,
    seed: Element,
    new: &str,
    suggestions: Vec<Suggestion>,
) -> Result<Outcome, AgentError> {
    let file = seed.file();
    let path = project.path(file).display().to_string();
    let line_text = |e: Element| {
        let src = &project.file(e.file()).map(|f| f.source.text.clone()).unwrap_or_default();
        src.lines().nth(e.line(project).saturating_sub(1)).unwrap_or_default().trim().to_string()
    };
    let candidates: Vec<String> = suggestions
        .iter()
        .enumerate()
        .map(|(i, s)| {
            format!(
                "{}. {} {} -> {} ({}:{}; {}): `{}`",
                i + 1,
                s.kind,
                s.old,
                s.new,
                s.file.display(),
                s.line,
                s.reason,
                line_text(s.element)
            )
        })
        .collect();
    let mut others: Vec<String> = crate::plan::corename::all_declarations(project, file)
        .into_iter()
        .filter(|&e| e != seed && !suggestions.iter().any(|s| s.element == e))
        .map(|e| format!("{} {}", e.kind(), e.name(project)))
        .collect();
    others.dedup();
    others.truncate(80);
    let old = seed.name(project).to_string();
    let kind = seed.kind().to_string();
    let prompt = prompts.render(
        "corename",
        &[
            ("seed_kind", &kind),
            ("seed_old", &old),
            ("seed_new", new),
            ("seed_file", &path),
            ("seed_declaration", &line_text(seed)),
            ("candidates", &if candidates.is_empty() { "(none)".into() } else { candidates.join("\n") }),
            ("others", &if others.is_empty() { "(none)".into() } else { others.join(", ") }),
        ],
    )?;
    let request = ChatRequest {
        agent: "corename".into(),
        messages: vec![Message::user(prompt)],
        tools: Vec::new(),
        tool_choice: None,
    };
    let response = model.chat(&request)?;
    let text = response.message.content.unwrap_or_default();
    let Some(answer) = parse(&text) else {
        return Ok(Outcome {
            suggestions,
            ignored: Some("the model's answer is not the JSON object asked for".into()),
        });
    };
    let mut out = Vec::new();
    for k in &answer.keep {
        let Some(s) = k.id.checked_sub(1).and_then(|i| suggestions.get(i)) else { continue };
        let mut s = s.clone();
        if let Some(n) = k.new.as_deref().filter(|n| crate::java::syntax::is_java_identifier(n) && *n != s.old) {
            s.new = n.to_string();
        }
        s.score = s.score.max(KEPT);
        s.reason = format!("{}; kept by the model", s.reason);
        out.push(s);
    }
    for a in &answer.add {
        let found = narrow(
            project,
            declarations(project, file, &a.old),
            &Narrowing { kind: Some(a.kind), ..Narrowing::default() },
        );
        let [e] = found.as_slice() else { continue };
        if *e == seed || out.iter().any(|s| s.element == *e) || !crate::java::syntax::is_java_identifier(&a.new) {
            continue;
        }
        out.push(Suggestion {
            kind: e.kind(),
            old: a.old.clone(),
            new: a.new.clone(),
            file: project.path(file).to_path_buf(),
            line: e.line(project),
            score: ADDED,
            reason: format!("proposed by the model: {}", a.why),
            relation: Relation::Model,
            element: *e,
        });
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    Ok(Outcome { suggestions: out, ignored: None })
}

fn parse(text: &str) -> Option<Answer> {
    super::json_object(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_found_in_prose_and_code_blocks() {
        let a = parse("Sure:\n```json\n{\"keep\": [{\"id\": 2, \"new\": \"x\"}], \"add\": []}\n```").unwrap();
        assert_eq!(a.keep.len(), 1);
        assert_eq!(a.keep[0].id, 2);
        assert!(parse("no json here").is_none());
    }
}
