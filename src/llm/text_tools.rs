//! Tool calling for models that have none: a JSON-in-text protocol behind the same [`ChatModel`].
//!
//! In text mode the tools are described in the system prompt, and the model calls one by
//! answering with `{"tool": name, "arguments": {...}}` (several: a JSON array of them) or finishes
//! with `{"answer": ...}`. The answer is read tolerantly (code fences, prose around the object,
//! `<tool_call>` tags, trailing commas) and turned into ordinary [`ToolCall`]s, so the agents never
//! know which protocol ran. Earlier tool calls and results in the conversation are rewritten as
//! the text the model would have written and user messages carrying the results. When the answer
//! cannot be read, the model gets one repair request naming the error; a second failure is
//! [`LlmError::Malformed`].
//!
//! `llm.tool_calling = "auto"` starts native and switches to text for the rest of the run when
//! the server refuses a request with a 4xx whose message mentions tools or function calling
//! (vLLM without a tool parser, Ollama models without tool support, ...). In auto mode a native
//! answer without `tool_calls` whose text is exactly one protocol call of an offered tool is taken
//! as that call too (some servers pass a model's tool-call text through unparsed).

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value as Json, json};

use super::{ChatModel, ChatRequest, ChatResponse, LlmError, Message, Role, ToolCall, ToolChoice, ToolSpec};
use crate::config::ToolCalling;

/// A model adapter that speaks native tool calls or the text protocol, per `llm.tool_calling`.
pub struct TextToolsModel<M> {
    inner: M,
    mode: ToolCalling,
    /// Auto mode: the server refused native tools, text from now on.
    switched: AtomicBool,
}

impl<M: ChatModel> TextToolsModel<M> {
    pub fn new(inner: M, mode: ToolCalling) -> TextToolsModel<M> {
        TextToolsModel { inner, mode, switched: AtomicBool::new(false) }
    }

    /// Whether requests with tools now go through the text protocol.
    pub fn uses_text(&self) -> bool {
        match self.mode {
            ToolCalling::Native => false,
            ToolCalling::Text => true,
            ToolCalling::Auto => self.switched.load(Ordering::SeqCst),
        }
    }

    fn chat_text(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let mut wire = text_request(request);
        let first = self.inner.chat(&wire)?;
        let first_text = first.message.content.clone().unwrap_or_default();
        let error = match interpret(&first_text, request) {
            Ok(message) => return Ok(ChatResponse { message, ..first }),
            Err(e) => e,
        };
        tracing::warn!(agent = %request.agent, "the model's answer is not a valid tool call ({error}); asking once more");
        wire.messages.push(Message::assistant(first_text));
        wire.messages.push(Message::user(repair_prompt(&error)));
        let second = self.inner.chat(&wire)?;
        let mut usage = first.usage;
        usage += second.usage;
        let text = second.message.content.clone().unwrap_or_default();
        match interpret(&text, request) {
            Ok(message) => Ok(ChatResponse { message, usage, finish_reason: second.finish_reason }),
            Err(e) => Err(LlmError::Malformed(format!(
                "the model did not follow the JSON tool-call protocol, even after a repair request: {e}"
            ))),
        }
    }
}

impl<M: ChatModel> ChatModel for TextToolsModel<M> {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let has_tool_history = request.messages.iter().any(|m| m.role == Role::Tool || !m.tool_calls.is_empty());
        if request.tools.is_empty() && !has_tool_history {
            return self.inner.chat(request);
        }
        if self.uses_text() {
            return self.chat_text(request);
        }
        match self.inner.chat(request) {
            Err(LlmError::Refused { status, message })
                if self.mode == ToolCalling::Auto && refuses_tools(status, &message) =>
            {
                tracing::warn!(
                    "the model server refused native tool calling ({status}: {message}); using the JSON-in-text protocol for the rest of the run"
                );
                self.switched.store(true, Ordering::SeqCst);
                self.chat_text(request)
            }
            Ok(r) if self.mode == ToolCalling::Auto && r.message.tool_calls.is_empty() => Ok(calls_in_text(r, request)),
            other => other,
        }
    }
}

/// Whether a refusal is about tools: a 4xx (not auth, not a missing endpoint) whose message
/// mentions them.
fn refuses_tools(status: u16, message: &str) -> bool {
    let m = message.to_lowercase();
    (400..500).contains(&status)
        && !matches!(status, 401 | 403 | 404 | 429)
        && (m.contains("tool") || m.contains("function call") || m.contains("function_call"))
}

/// Auto mode: a native answer whose whole text is one protocol call of an offered tool.
fn calls_in_text(mut r: ChatResponse, request: &ChatRequest) -> ChatResponse {
    let Some(text) = r.message.content.as_deref().filter(|t| t.contains('{')) else { return r };
    if let Some(Ok(value)) = extract_json(text)
        && let Ok(Reading::Calls(calls)) = read_protocol(&value, request, false)
        && !calls.is_empty()
    {
        r.message.tool_calls = calls;
        r.message.content = None;
        r.finish_reason = Some("tool_calls".into());
    }
    r
}

// ---------------------------------------------------------------------------------------------
// The request, rewritten for the text protocol
// ---------------------------------------------------------------------------------------------

/// The system prompt's part that teaches the protocol and lists the tools.
pub fn tools_prompt(tools: &[ToolSpec], choice: Option<&ToolChoice>) -> String {
    let mut p = String::from(
        "# Tools\n\nYou can call the tools below. To call one, answer with a single JSON object and nothing else:\n\
         {\"tool\": \"<tool name>\", \"arguments\": {<the arguments, as the tool's JSON Schema describes>}}\n\
         To call several tools at once, answer with a JSON array of such objects. Each result comes back in \
         the next user message. When you need no more tools, answer with:\n{\"answer\": \"<your final answer>\"}\n",
    );
    match choice {
        Some(ToolChoice::Required) => p.push_str("\nYou must call a tool in this answer.\n"),
        Some(ToolChoice::None) => p.push_str("\nDo not call a tool in this answer; give your final answer.\n"),
        _ => {}
    }
    for t in tools {
        p.push_str(&format!("\n## {}\n{}\nArguments (JSON Schema): {}\n", t.name, t.description.trim(), t.parameters));
    }
    p
}

fn repair_prompt(error: &str) -> String {
    format!(
        "Your answer was not valid JSON for the tool protocol: {error}. Answer again with only the JSON \
         object: {{\"tool\": \"<tool name>\", \"arguments\": {{...}}}} or {{\"answer\": \"...\"}}."
    )
}

/// `request` with its tools moved into the system prompt and its tool calls and results
/// rewritten as text.
pub fn text_request(request: &ChatRequest) -> ChatRequest {
    let tools = tools_prompt(&request.tools, request.tool_choice.as_ref());
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    let mut names: Vec<(&str, &str)> = Vec::new();
    let mut prompted = false;
    for m in &request.messages {
        match m.role {
            Role::System if !prompted => {
                prompted = true;
                let text = m.content.as_deref().unwrap_or("");
                messages.push(Message::system(format!("{}\n\n{tools}", text.trim_end())));
            }
            Role::Assistant if !m.tool_calls.is_empty() => {
                names.extend(m.tool_calls.iter().map(|c| (c.id.as_str(), c.name.as_str())));
                let calls: Vec<Json> = m
                    .tool_calls
                    .iter()
                    .map(|c| {
                        let args = serde_json::from_str(&c.arguments).unwrap_or_else(|_| json!(c.arguments));
                        json!({"tool": c.name, "arguments": args})
                    })
                    .collect();
                let calls = if calls.len() == 1 { calls[0].to_string() } else { Json::Array(calls).to_string() };
                let text = match m.content.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
                    Some(c) => format!("{c}\n{calls}"),
                    None => calls,
                };
                messages.push(Message::assistant(text));
            }
            Role::Tool => {
                let id = m.tool_call_id.as_deref().unwrap_or("");
                let name = names.iter().find(|(i, _)| *i == id).map_or("the tool", |(_, n)| n);
                let result = m.content.as_deref().unwrap_or("");
                messages.push(Message::user(format!("Result of {name} (call {id}):\n{result}")));
            }
            _ => messages.push(m.clone()),
        }
    }
    if !prompted {
        messages.insert(0, Message::system(tools));
    }
    ChatRequest { agent: request.agent.clone(), messages, tools: Vec::new(), tool_choice: None }
}

// ---------------------------------------------------------------------------------------------
// Reading the answer
// ---------------------------------------------------------------------------------------------

enum Reading {
    Calls(Vec<ToolCall>),
    /// A final answer: its text.
    Answer(String),
    /// JSON, but not the protocol's: the whole text is the answer.
    Other,
}

/// The assistant message an answer in text means, or why it cannot be read.
fn interpret(text: &str, request: &ChatRequest) -> Result<Message, String> {
    let required = request.tool_choice == Some(ToolChoice::Required);
    let answer =
        |t: String| Message { role: Role::Assistant, content: Some(t), tool_calls: Vec::new(), tool_call_id: None };
    let reading = match extract_json(text) {
        Some(Ok(value)) => read_protocol(&value, request, true)?,
        Some(Err(e)) if mentions_protocol(text) || required => return Err(e),
        // Prose (maybe with code in braces) that never tried to be a tool call: a final answer.
        Some(Err(_)) | None => Reading::Other,
    };
    match reading {
        Reading::Calls(calls) => {
            Ok(Message { role: Role::Assistant, content: None, tool_calls: calls, tool_call_id: None })
        }
        Reading::Answer(_) | Reading::Other if required => {
            Err("no tool call found, and this answer must call a tool".into())
        }
        Reading::Answer(t) => Ok(answer(t)),
        Reading::Other => Ok(answer(text.trim().to_string())),
    }
}

fn mentions_protocol(text: &str) -> bool {
    ["\"tool\"", "\"answer\"", "\"arguments\"", "'tool'"].iter().any(|k| text.contains(k))
}

const NAME_KEYS: [&str; 2] = ["tool", "name"];
const ARGUMENT_KEYS: [&str; 4] = ["arguments", "args", "parameters", "input"];
const ANSWER_KEYS: [&str; 3] = ["answer", "final_answer", "final"];

/// Reads a parsed JSON value as the protocol: calls, an answer, or something else. `strict`: a
/// `tool` naming no offered tool is an error (for the repair request) rather than "something else".
fn read_protocol(value: &Json, request: &ChatRequest, strict: bool) -> Result<Reading, String> {
    let items: Vec<&Json> = match value {
        Json::Array(a) => a.iter().collect(),
        Json::Object(o) => match o.get("tool_calls").and_then(Json::as_array) {
            Some(calls) => calls.iter().collect(),
            None => vec![value],
        },
        _ => return Ok(Reading::Other),
    };
    if let [Json::Object(o)] = items.as_slice()
        && let Some(a) = ANSWER_KEYS.iter().find_map(|k| o.get(*k))
        && !NAME_KEYS.iter().any(|k| o.contains_key(*k))
    {
        return Ok(Reading::Answer(match a {
            Json::String(s) => s.clone(),
            other => other.to_string(),
        }));
    }
    let offered: Vec<&str> = request.tools.iter().map(|t| t.name.as_str()).collect();
    let turn = request.messages.iter().filter(|m| m.role == Role::Assistant).count() + 1;
    let mut calls = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(o) = item.as_object() else { return Ok(Reading::Other) };
        let o = o.get("function").and_then(Json::as_object).unwrap_or(o);
        let name = match (o.get("tool").and_then(Json::as_str), o.get("name").and_then(Json::as_str)) {
            (Some(n), _) => n,
            // `name` alone is a tool only when it names one: final answers have names too.
            (None, Some(n)) if offered.contains(&n) => n,
            _ => return Ok(Reading::Other),
        };
        if !offered.contains(&name) {
            if strict {
                return Err(format!("there is no tool `{name}`; the tools are: {}", offered.join(", ")));
            }
            return Ok(Reading::Other);
        }
        let arguments = match ARGUMENT_KEYS.iter().find_map(|k| o.get(*k)) {
            None | Some(Json::Null) => "{}".to_string(),
            Some(Json::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        };
        calls.push(ToolCall { id: format!("call_{turn}_{}", i + 1), name: name.to_string(), arguments });
    }
    if calls.is_empty() { Ok(Reading::Other) } else { Ok(Reading::Calls(calls)) }
}

/// The JSON object (or array of objects) in `text` that is meant for the protocol: inside a code
/// fence if there is one, else anywhere, with prose around it and trailing commas forgiven. The
/// first object that looks like a call or an answer wins; failing that, a parse error (so an
/// unclosed call is repaired rather than read from an inner object), failing that the first
/// object. `None` when the text holds no JSON at all.
pub fn extract_json(text: &str) -> Option<Result<Json, String>> {
    let mut sources: Vec<&str> = fenced_blocks(text);
    sources.push(text);
    let mut first_error = None;
    let mut first_value = None;
    for source in sources {
        let starts = source.char_indices().filter(|(_, c)| matches!(c, '{' | '[')).map(|(i, _)| i).take(64);
        for start in starts {
            let slice = match balanced(&source[start..]) {
                Some(len) => &source[start..start + len],
                None => {
                    first_error.get_or_insert_with(|| "the JSON object is not closed (unbalanced braces)".to_string());
                    continue;
                }
            };
            let parsed = serde_json::from_str::<Json>(slice)
                .or_else(|e| serde_json::from_str::<Json>(&without_trailing_commas(slice)).map_err(|_| e));
            match parsed {
                Ok(v) if looks_like_protocol(&v) => return Some(Ok(v)),
                Ok(v) if v.is_object() => {
                    first_value.get_or_insert(v);
                }
                Ok(_) => {}
                Err(e) => {
                    first_error.get_or_insert_with(|| e.to_string());
                }
            }
        }
    }
    match (first_error, first_value) {
        (Some(e), _) => Some(Err(e)),
        (None, Some(v)) => Some(Ok(v)),
        (None, None) => None,
    }
}

/// A call (`tool`, or `name` with arguments, or `function`), a list of calls, or an answer.
fn looks_like_protocol(v: &Json) -> bool {
    match v {
        Json::Array(items) => !items.is_empty() && items.iter().all(looks_like_protocol),
        Json::Object(o) => {
            ["tool", "function", "tool_calls"].iter().chain(&ANSWER_KEYS).any(|k| o.contains_key(*k))
                || (o.contains_key("name") && ARGUMENT_KEYS.iter().any(|k| o.contains_key(*k)))
        }
        _ => false,
    }
}

/// The bodies of the Markdown code fences in `text`, in order.
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let body_start = after.find('\n').map_or(after.len(), |n| n + 1);
        let body = &after[body_start..];
        match body.find("```") {
            Some(close) => {
                blocks.push(&body[..close]);
                rest = &body[close + 3..];
            }
            None => {
                blocks.push(body);
                break;
            }
        }
    }
    blocks
}

/// The length of the bracketed value at the start of `text` (`{...}` or `[...]`), skipping
/// brackets inside strings; `None` if it never closes.
fn balanced(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` without commas that directly precede a closing bracket (outside strings).
fn without_trailing_commas(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for (i, &c) in chars.iter().enumerate() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c == ',' && chars[i + 1..].iter().find(|c| !c.is_whitespace()).is_some_and(|n| matches!(n, '}' | ']'))
        {
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(tools: &[&str]) -> ChatRequest {
        ChatRequest {
            agent: "developer".into(),
            messages: vec![Message::system("You refactor."), Message::user("Go.")],
            tools: tools
                .iter()
                .map(|n| ToolSpec {
                    name: n.to_string(),
                    description: format!("{n} it"),
                    parameters: json!({"type": "object"}),
                })
                .collect(),
            tool_choice: None,
        }
    }

    fn calls(text: &str) -> Vec<(String, Json)> {
        let m = interpret(text, &request(&["get_method", "extract_method"])).unwrap();
        m.tool_calls.iter().map(|c| (c.name.clone(), serde_json::from_str(&c.arguments).unwrap())).collect()
    }

    #[test]
    fn plain_object() {
        assert_eq!(
            calls(r#"{"tool": "get_method", "arguments": {"name": "m"}}"#),
            [("get_method".into(), json!({"name": "m"}))]
        );
    }

    #[test]
    fn fenced_with_prose_and_trailing_commas() {
        let text = "I will look at the method first.\n```json\n{\"tool\": \"get_method\", \"arguments\": {\"name\": \"m\",},}\n```\nThen extract.";
        assert_eq!(calls(text), [("get_method".into(), json!({"name": "m"}))]);
    }

    #[test]
    fn leading_prose_tags_and_other_key_names() {
        let text =
            "Sure! <tool_call>{\"name\": \"extract_method\", \"parameters\": {\"start\": 3, \"end\": 5}}</tool_call>";
        assert_eq!(calls(text), [("extract_method".into(), json!({"start": 3, "end": 5}))]);
        let text = r#"{"function": {"name": "get_method", "arguments": "{\"name\":\"m\"}"}}"#;
        assert_eq!(calls(text), [("get_method".into(), json!({"name": "m"}))]);
    }

    #[test]
    fn braces_inside_strings_and_several_calls() {
        let text = r#"[{"tool": "extract_method", "arguments": {"body": "if (a) { b(); }"}}, {"tool": "get_method", "arguments": {}}]"#;
        let c = calls(text);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].1["body"], "if (a) { b(); }");
        let m = interpret(text, &request(&["get_method", "extract_method"])).unwrap();
        assert_eq!(m.tool_calls[1].id, "call_1_2");
    }

    #[test]
    fn answers() {
        let r = request(&["get_method"]);
        let m = interpret("{\"answer\": \"Done: extracted.\"}", &r).unwrap();
        assert_eq!((m.content.as_deref(), m.tool_calls.len()), (Some("Done: extracted."), 0));
        let m = interpret("{\"answer\": {\"verdict\": \"ok\"}}", &r).unwrap();
        assert_eq!(m.content.as_deref(), Some(r#"{"verdict":"ok"}"#));
        // JSON that is not the protocol, and prose with code, are final answers as they stand.
        let m = interpret(" {\"verdict\": \"ok\"} ", &r).unwrap();
        assert_eq!(m.content.as_deref(), Some("{\"verdict\": \"ok\"}"));
        let m = interpret("The method is `void m() { x(); }` now.", &r).unwrap();
        assert_eq!(m.content.as_deref(), Some("The method is `void m() { x(); }` now."));
        assert!(interpret("", &r).unwrap().tool_calls.is_empty());
    }

    #[test]
    fn what_needs_a_repair() {
        let r = request(&["get_method"]);
        let e = interpret("{\"tool\": \"get_method\", \"arguments\": {\"name\": m}}", &r).unwrap_err();
        assert!(e.contains("expected value"), "{e}");
        let e = interpret("{\"tool\": \"get_method\", \"arguments\": {\"name\": \"m\"}", &r).unwrap_err();
        assert!(e.contains("not closed"), "{e}");
        let e = interpret("{\"tool\": \"delete_everything\"}", &r).unwrap_err();
        assert_eq!(e, "there is no tool `delete_everything`; the tools are: get_method");
        let required = ChatRequest { tool_choice: Some(ToolChoice::Required), ..r };
        assert!(interpret("I am done.", &required).is_err());
    }

    #[test]
    fn trailing_commas_only_outside_strings() {
        assert_eq!(without_trailing_commas(r#"{"a": [1, 2,], "b": ",}",}"#), r#"{"a": [1, 2], "b": ",}"}"#);
        assert_eq!(balanced(r#"{"a": "}"} tail"#), Some(10));
        assert_eq!(balanced("{ never"), None);
        assert_eq!(extract_json("no json here"), None);
    }

    #[test]
    fn history_is_rewritten_as_text() {
        let mut r = request(&["get_method"]);
        r.tool_choice = Some(ToolChoice::Auto);
        r.messages.push(Message {
            role: Role::Assistant,
            content: None,
            tool_calls: vec![ToolCall {
                id: "c1".into(),
                name: "get_method".into(),
                arguments: r#"{"name":"m"}"#.into(),
            }],
            tool_call_id: None,
        });
        r.messages.push(Message::tool("c1", "void m() {}"));
        let t = text_request(&r);
        assert!(t.tools.is_empty() && t.tool_choice.is_none());
        let system = t.messages[0].content.as_deref().unwrap();
        assert!(system.starts_with("You refactor.\n\n# Tools"), "{system}");
        assert!(
            system.contains("## get_method\nget_method it\nArguments (JSON Schema): {\"type\":\"object\"}"),
            "{system}"
        );
        let said: Json = serde_json::from_str(t.messages[2].content.as_deref().unwrap()).unwrap();
        assert_eq!(said, json!({"tool": "get_method", "arguments": {"name": "m"}}));
        assert_eq!(t.messages[3].role, Role::User);
        assert_eq!(t.messages[3].content.as_deref(), Some("Result of get_method (call c1):\nvoid m() {}"));
    }

    #[test]
    fn refusals_about_tools() {
        assert!(refuses_tools(400, "\"auto\" tool choice requires --enable-auto-tool-choice"));
        assert!(refuses_tools(400, "registry.ollama.ai/library/gemma does not support tools"));
        assert!(!refuses_tools(400, "model not found"));
        assert!(!refuses_tools(401, "tools need a paid key"));
    }
}
