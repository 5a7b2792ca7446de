//! The model's part in code wiring: for the names the evidence alone could not bind, it chooses
//! among the collected candidates. Its answer is advice checked against the candidates: an
//! expression that is not one of the name's candidates is ignored, and an answer that does not
//! parse leaves every name as it was.

use serde::Deserialize;

use super::AgentError;
use crate::engine::wire::Wiring;
use crate::llm::prompts::Prompts;
use crate::llm::{ChatModel, ChatRequest, Message};

#[derive(Debug, Deserialize, Default)]
struct Answer {
    #[serde(default)]
    bindings: Vec<Choice>,
}

#[derive(Debug, Deserialize)]
struct Choice {
    name: String,
    expr: String,
    #[serde(default)]
    why: String,
}

/// What the model did, for the user.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Names the model bound.
    pub bound: Vec<String>,
    /// Answers that named no candidate of their name: `name → expr`.
    pub rejected: Vec<String>,
    /// Why the model's answer was not used, when it was not.
    pub ignored: Option<String>,
}

/// The names of `wiring` the evidence left unbound, with candidates, shown to the model; its
/// choices among the candidates are bound in place.
pub fn choose(
    model: &dyn ChatModel,
    prompts: &Prompts,
    wiring: &mut Wiring,
    paste: &str,
) -> Result<Outcome, AgentError> {
    let open: Vec<String> = wiring
        .unbound()
        .filter(|b| !b.candidates.is_empty())
        .map(|b| {
            let list: Vec<String> = b
                .candidates
                .iter()
                .map(|c| {
                    let ty = c.ty.as_deref().map(|t| format!(": {t}")).unwrap_or_default();
                    format!(
                        "  - `{}`{ty} ({})",
                        c.expr,
                        if c.evidence.is_empty() { "in scope".to_string() } else { c.evidence.join("; ") }
                    )
                })
                .collect();
            format!("- `{}` (lines {}; its uses need {}):\n{}", b.name, lines(&b.lines), b.needs, list.join("\n"))
        })
        .collect();
    if open.is_empty() {
        return Ok(Outcome::default());
    }
    let prompt = prompts.render(
        "wire",
        &[
            ("file", &wiring.file.display().to_string()),
            ("method", &wiring.method),
            ("paste", paste),
            ("names", &open.join("\n")),
        ],
    )?;
    let request = ChatRequest {
        agent: "wire".into(),
        messages: vec![Message::user(prompt)],
        tools: Vec::new(),
        tool_choice: None,
    };
    let response = model.chat(&request)?;
    let text = response.message.content.unwrap_or_default();
    let Some(answer) = parse(&text) else {
        return Ok(Outcome {
            ignored: Some("the model's answer is not the JSON object asked for".into()),
            ..Outcome::default()
        });
    };
    let mut out = Outcome::default();
    for c in answer.bindings {
        let Some(b) = wiring.bindings.iter_mut().find(|b| b.name == c.name && b.bound.is_none()) else { continue };
        if b.choose(c.expr.trim(), &c.why) {
            out.bound.push(c.name);
        } else {
            out.rejected.push(format!("{} → {}", c.name, c.expr));
        }
    }
    Ok(out)
}

fn lines(lines: &[usize]) -> String {
    lines.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

fn parse(text: &str) -> Option<Answer> {
    super::json_object(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_found_amid_prose() {
        let a = parse("Here:\n```json\n{\"bindings\": [{\"name\": \"x\", \"expr\": \"items\"}]}\n```").unwrap();
        assert_eq!(a.bindings[0].expr, "items");
        assert!(parse("none").is_none());
    }
}
