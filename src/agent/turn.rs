//! One agent turn: ask the model, run the tools it calls, answer each call, ask again, until it
//! calls `finish`, answers in plain text, or the step budget (`agent.max_steps`) runs out.
//!
//! Whatever the model sends, the turn goes on: arguments that are not JSON, an unknown tool or a
//! missing field each come back to the model as an error result naming what was wrong, so it can
//! correct itself. Only the model server failing ends a turn with an error.

use std::time::Instant;

use serde::Serialize;
use serde_json::Value;

use super::{AgentError, Meter};
use crate::llm::{ChatModel, ChatRequest, ChatResponse, Message, ToolChoice, ToolSpec};
use crate::review::StageReport;

/// The longest tool result sent back to the model; longer ones are cut with a note.
pub const TOOL_RESULT_CAP: usize = 24_000;

/// Something an agent did, for the live view and the `--json` stream (`agent` events).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentEvent {
    /// `developer`, `repair`, `raw`, `reviewer`.
    pub agent: String,
    /// The review round (the Developer's turn number) or the repair attempt.
    pub round: u32,
    /// The request within the turn, from 1; 0 for events outside a turn.
    pub step: u32,
    /// `tool`, `text`, `finish`, `feedback`, `reflection`, `verdict`, `budget`.
    pub action: &'static str,
    /// The tool's name, for `tool`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// For `tool`: whether the tool did what was asked (`false` for errors and refusals).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    /// One line for humans.
    pub message: String,
}

/// Who watches a run: agent events and the Reviewer's stages, as they happen.
pub trait Observer {
    fn agent(&mut self, event: AgentEvent);
    fn stage(&mut self, stage: &StageReport);
}

/// An observer that forgets everything (benchmarks, tests).
pub struct Silent;

impl Observer for Silent {
    fn agent(&mut self, _: AgentEvent) {}
    fn stage(&mut self, _: &StageReport) {}
}

/// The tools of a turn: their specs and how to call them. `finish` is the turn's own.
pub trait ToolHost {
    fn specs(&self) -> Vec<ToolSpec>;
    /// Runs tool `name`. `Ok` is the result text, `Err` an error the model should read
    /// (a refusal, a bad argument); both go back to the model.
    fn call(&mut self, name: &str, args: &Value) -> Result<String, String>;
}

/// How a turn ended.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnEnd {
    /// The `finish` call's arguments, or `{"summary": <final text>}` when the model answered in text.
    pub finish: Option<Value>,
    pub steps: u32,
    /// The step budget ran out before the model finished.
    pub exhausted: bool,
}

/// A model and what a run keeps across turns: the meter and the observer.
pub struct Session<'a> {
    pub model: &'a dyn ChatModel,
    pub meter: &'a mut Meter,
    pub observer: &'a mut dyn Observer,
}

impl Session<'_> {
    /// One request; usage and model time are metered.
    pub fn ask(
        &mut self,
        agent: &str,
        messages: &[Message],
        tools: Vec<ToolSpec>,
        tool_choice: Option<ToolChoice>,
    ) -> Result<ChatResponse, AgentError> {
        let request = ChatRequest { agent: agent.to_string(), messages: messages.to_vec(), tools, tool_choice };
        let start = Instant::now();
        let response = self.model.chat(&request);
        self.meter.model_us += start.elapsed().as_micros() as u64;
        match &response {
            Ok(r) => self.meter.usage.add(agent, r.usage),
            Err(_) => self.meter.usage.add_failure(agent),
        }
        Ok(response?)
    }

    pub fn event(&mut self, agent: &str, round: u32, step: u32, action: &'static str, message: impl Into<String>) {
        self.observer.agent(AgentEvent {
            agent: agent.to_string(),
            round,
            step,
            action,
            tool: None,
            ok: None,
            message: message.into(),
        });
    }

    /// Runs one turn of `agent` on `messages` (which grow with the conversation).
    pub fn turn(
        &mut self,
        agent: &str,
        round: u32,
        messages: &mut Vec<Message>,
        host: &mut dyn ToolHost,
        max_steps: u32,
    ) -> Result<TurnEnd, AgentError> {
        let start = Instant::now();
        let model_before = self.meter.model_us;
        let mut specs = host.specs();
        specs.push(finish_spec());
        let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
        let mut end = TurnEnd { finish: None, steps: 0, exhausted: false };
        while end.finish.is_none() {
            if end.steps >= max_steps {
                end.exhausted = true;
                self.event(
                    agent,
                    round,
                    end.steps,
                    "budget",
                    format!("no finish after {max_steps} steps (agent.max_steps)"),
                );
                break;
            }
            end.steps += 1;
            let step = end.steps;
            let response = self.ask(agent, messages, specs.clone(), Some(ToolChoice::Auto))?;
            let message = response.message;
            if let Some(text) = message.content.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
                self.event(agent, round, step, "text", first_line(text));
            }
            // The history keeps a bounded copy: an oversized answer (a runaway tool call) would
            // otherwise go back to the model, and into the transcript, with every later request.
            messages.push(bounded(&message));
            if message.tool_calls.is_empty() {
                let summary = message.content.unwrap_or_default();
                self.event(agent, round, step, "finish", first_line(&summary));
                end.finish = Some(serde_json::json!({ "summary": summary }));
                break;
            }
            for call in &message.tool_calls {
                let (ok, result) = match parse_arguments(&call.arguments) {
                    Err(why) => (false, format!("error: {why}")),
                    Ok(_) if !names.contains(&call.name) => (
                        false,
                        format!("error: there is no tool named `{}`; the tools are: {}", call.name, names.join(", ")),
                    ),
                    Ok(args) if call.name == "finish" => {
                        let summary = args.get("summary").and_then(Value::as_str).unwrap_or_default().to_string();
                        self.event(agent, round, step, "finish", first_line(&summary));
                        end.finish = Some(args);
                        (true, "finished".to_string())
                    }
                    Ok(args) => match host.call(&call.name, &args) {
                        Ok(text) => (true, text),
                        Err(why) => (false, format!("error: {why}")),
                    },
                };
                if call.name != "finish" || !ok {
                    self.observer.agent(AgentEvent {
                        agent: agent.to_string(),
                        round,
                        step,
                        action: "tool",
                        tool: Some(call.name.clone()),
                        ok: Some(ok),
                        message: format!("{}({}) → {}", call.name, short(&call.arguments, 80), first_line(&result)),
                    });
                }
                messages.push(Message::tool(call.id.clone(), cap(result)));
            }
        }
        let overhead = (start.elapsed().as_micros() as u64).saturating_sub(self.meter.model_us - model_before);
        self.meter.turn_overhead_us.push(overhead);
        Ok(end)
    }
}

/// The tool that ends a turn.
pub fn finish_spec() -> ToolSpec {
    ToolSpec {
        name: "finish".into(),
        description: "End your turn: the work is done. Give a one-line summary; when you wrote the code \
                      yourself, also the new method's name or the destination class."
            .into(),
        parameters: serde_json::json!({
            "type": "object",
            "properties": {
                "summary": {"type": "string", "description": "What you did, in one line"},
                "new_name": {"type": "string", "description": "The extracted method's name or the rename's new name"},
                "destination": {"type": "string", "description": "The qualified class the method moved to"}
            },
            "required": ["summary"]
        }),
    }
}

/// The model's arguments as a JSON object (an empty text counts as `{}`).
fn parse_arguments(text: &str) -> Result<Value, String> {
    if text.trim().is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err("the arguments must be a JSON object, e.g. {\"path\": \"src/A.java\"}".into()),
        Err(e) => Err(format!("the arguments are not valid JSON ({e}); send the call again with a JSON object")),
    }
}

fn first_line(text: &str) -> String {
    short(text.trim().lines().next().unwrap_or(""), 160)
}

fn short(text: &str, max: usize) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= max {
        one
    } else {
        let cut: String = one.chars().take(max).collect();
        format!("{cut}…")
    }
}

/// The most bytes of one assistant message's text, or of one tool call's arguments, that the
/// conversation keeps.
pub const MESSAGE_CAP: usize = 64 * 1024;

/// `message` as the conversation keeps it: text over [`MESSAGE_CAP`] cut with a note, and tool
/// call arguments over it replaced by a JSON object that says how long they were (cut JSON would
/// not parse where a server checks it).
fn bounded(message: &Message) -> Message {
    let mut kept = message.clone();
    if let Some(text) = kept.content.as_mut()
        && text.len() > MESSAGE_CAP
    {
        let end = crate::text::head(text, MESSAGE_CAP).len();
        let more = text.len() - end;
        text.truncate(end);
        text.push_str(&format!("\n[cut: {more} more bytes of this answer are not kept]"));
    }
    for call in &mut kept.tool_calls {
        if call.arguments.len() > MESSAGE_CAP {
            let note = format!("{} bytes of arguments, too long to keep in the conversation", call.arguments.len());
            call.arguments = serde_json::json!({ "omitted": note }).to_string();
        }
    }
    kept
}

fn cap(text: String) -> String {
    if text.len() <= TOOL_RESULT_CAP {
        return text;
    }
    let kept = crate::text::head(&text, TOOL_RESULT_CAP);
    format!("{kept}\n[cut: {} more bytes; ask for a line range]", text.len() - kept.len())
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::llm::{LlmError, Role, ToolCall, Usage};

    /// A model that answers from a script and keeps every request: the in-process stand-in of
    /// the scripted HTTP server, for unit tests.
    pub struct Scripted {
        pub answers: Mutex<Vec<Message>>,
        pub requests: Mutex<Vec<ChatRequest>>,
    }

    impl Scripted {
        pub fn new(answers: Vec<Message>) -> Scripted {
            Scripted { answers: Mutex::new(answers.into_iter().rev().collect()), requests: Mutex::new(Vec::new()) }
        }
    }

    impl ChatModel for Scripted {
        fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
            self.requests.lock().unwrap().push(request.clone());
            let message = self.answers.lock().unwrap().pop().ok_or(LlmError::Malformed("script ended".into()))?;
            Ok(ChatResponse {
                message,
                usage: Usage { prompt_tokens: 100, completion_tokens: 10 },
                finish_reason: None,
            })
        }
    }

    pub fn call(id: &str, name: &str, args: &str) -> Message {
        Message {
            role: Role::Assistant,
            content: None,
            tool_calls: vec![ToolCall { id: id.into(), name: name.into(), arguments: args.into() }],
            tool_call_id: None,
        }
    }

    struct Echo;
    impl ToolHost for Echo {
        fn specs(&self) -> Vec<ToolSpec> {
            vec![ToolSpec { name: "echo".into(), description: "echo".into(), parameters: serde_json::json!({}) }]
        }
        fn call(&mut self, _: &str, args: &Value) -> Result<String, String> {
            args.get("x").and_then(Value::as_str).map(str::to_string).ok_or_else(|| "missing field `x`".to_string())
        }
    }

    #[test]
    fn malformed_calls_come_back_as_errors_and_the_turn_goes_on() {
        let model = Scripted::new(vec![
            call("1", "echo", "{not json"),
            call("2", "nope", "{}"),
            call("3", "echo", "{}"),
            call("4", "echo", "[1]"),
            call("5", "echo", r#"{"x": "hi"}"#),
            call("6", "finish", r#"{"summary": "done"}"#),
        ]);
        let (mut meter, mut obs) = (Meter::default(), Silent);
        let mut s = Session { model: &model, meter: &mut meter, observer: &mut obs };
        let mut messages = vec![Message::user("go")];
        let end = s.turn("developer", 1, &mut messages, &mut Echo, 10).unwrap();
        assert_eq!(end.steps, 6);
        assert_eq!(end.finish.unwrap()["summary"], "done");
        let results: Vec<&str> =
            messages.iter().filter(|m| m.role == Role::Tool).map(|m| m.content.as_deref().unwrap()).collect();
        assert!(results[0].starts_with("error: the arguments are not valid JSON"), "{}", results[0]);
        assert!(results[1].contains("no tool named `nope`; the tools are: echo, finish"), "{}", results[1]);
        assert_eq!(results[2], "error: missing field `x`");
        assert!(results[3].contains("must be a JSON object"));
        assert_eq!(results[4], "hi");
        assert_eq!(meter.summary().agents["developer"].requests, 6);
        assert_eq!(meter.turn_overhead_us.len(), 1);
        // every request offered the tools, finish included
        let reqs = model.requests.lock().unwrap();
        assert!(reqs.iter().all(|r| r.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>() == ["echo", "finish"]));
    }

    /// Issue 14, defect 10: a 2 MB malformed tool call went back to the model with every later
    /// request (a 21 MB transcript).
    #[test]
    fn an_oversized_answer_is_not_sent_back_with_every_request() {
        let huge = format!("{{\"x\": \"{}", "y".repeat(2 << 20));
        let model = Scripted::new(vec![call("1", "echo", &huge), Message::assistant("z".repeat(2 << 20))]);
        let (mut meter, mut obs) = (Meter::default(), Silent);
        let mut s = Session { model: &model, meter: &mut meter, observer: &mut obs };
        let mut messages = vec![Message::user("go")];
        s.turn("developer", 1, &mut messages, &mut Echo, 5).unwrap();
        let reqs = model.requests.lock().unwrap();
        let second = serde_json::to_string(&reqs[1].messages).unwrap();
        assert!(second.len() < 2 * MESSAGE_CAP, "{} bytes", second.len());
        assert!(second.contains("too long to keep in the conversation"), "{}", &second[..500.min(second.len())]);
        let history = serde_json::to_string(&messages).unwrap();
        assert!(history.len() < 4 * MESSAGE_CAP, "{} bytes", history.len());
        assert!(history.contains("more bytes of this answer are not kept"));
    }

    #[test]
    fn the_step_budget_ends_a_turn_and_text_finishes_it() {
        let model = Scripted::new(vec![call("1", "echo", r#"{"x":"a"}"#), call("2", "echo", r#"{"x":"b"}"#)]);
        let (mut meter, mut obs) = (Meter::default(), Silent);
        let mut s = Session { model: &model, meter: &mut meter, observer: &mut obs };
        let end = s.turn("developer", 1, &mut vec![Message::user("go")], &mut Echo, 2).unwrap();
        assert!(end.exhausted && end.finish.is_none());

        let model = Scripted::new(vec![Message::assistant("all done")]);
        let mut s = Session { model: &model, meter: &mut meter, observer: &mut obs };
        let end = s.turn("developer", 1, &mut vec![Message::user("go")], &mut Echo, 2).unwrap();
        assert_eq!(end.finish.unwrap()["summary"], "all done");
    }
}
