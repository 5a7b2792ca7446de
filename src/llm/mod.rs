//! The model: one small trait, [`ChatModel`], between the agents and any OpenAI-compatible
//! chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio).
//!
//! The agents speak in [`ChatRequest`]s and [`ChatResponse`]s; they never see HTTP, retries, the
//! API key, transcripts or record/replay, which live behind the trait (`client.rs`, `replay.rs`).
//! The trait is synchronous: an agent's turn waits for its answer anyway, and a synchronous trait
//! keeps the agents plain code; the HTTP client drives its own tokio runtime inside.

use serde::{Deserialize, Serialize};

/// Who said a message, in the chat-completions API's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

/// A tool call the model asked for. `arguments` is the JSON text exactly as the model sent it (it
/// may not parse: the agent answers a malformed call with an error result, not a crash).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    /// The text; `None` for an assistant message that only calls tools.
    pub content: Option<String>,
    /// The assistant's tool calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For a [`Role::Tool`] message: the call it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl Message {
    pub fn system(text: impl Into<String>) -> Message {
        Message { role: Role::System, content: Some(text.into()), tool_calls: Vec::new(), tool_call_id: None }
    }
    pub fn user(text: impl Into<String>) -> Message {
        Message { role: Role::User, content: Some(text.into()), tool_calls: Vec::new(), tool_call_id: None }
    }
    pub fn assistant(text: impl Into<String>) -> Message {
        Message { role: Role::Assistant, content: Some(text.into()), tool_calls: Vec::new(), tool_call_id: None }
    }
    /// The result of tool call `id`.
    pub fn tool(id: impl Into<String>, text: impl Into<String>) -> Message {
        Message { role: Role::Tool, content: Some(text.into()), tool_calls: Vec::new(), tool_call_id: Some(id.into()) }
    }
}

/// A tool the model may call: a name, what it does, and a JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: serde_json::Value,
}

/// Whether the model must, may or must not call a tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolChoice {
    Auto,
    None,
    Required,
}

/// One request. `agent` names who asks (`developer`, `repair`, `raw`, `describe`, ...) for usage
/// accounting and the transcript; it is not sent to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    pub agent: String,
    pub messages: Vec<Message>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
}

/// Tokens of one request, as the server counted them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
    }
}

/// The model's answer: the assistant message (text, tool calls or both) and what it cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    pub message: Message,
    pub usage: Usage,
    /// `stop`, `tool_calls`, `length`, ... as the server said.
    pub finish_reason: Option<String>,
}

/// Why a request got no answer. Each variant's message is shown to the user as is.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// No model is configured (the heuristic planner is used instead).
    #[error("no model is configured")]
    NotConfigured,
    /// The server refused the request (a 4xx other than 429): not retried.
    #[error("the model server refused the request ({status}): {message}")]
    Refused { status: u16, message: String },
    /// Timeouts, 429 and 5xx after every retry.
    #[error("the model server did not answer after {attempts} attempts: {last}")]
    Unavailable { attempts: u32, last: String },
    /// The answer was not chat-completions JSON.
    #[error("the model server's answer is not a chat completion: {0}")]
    Malformed(String),
    /// `--llm-replay`: the recording has no answer for this request.
    #[error("the recording in {dir} has no answer for request {index} ({why})")]
    ReplayMismatch { dir: std::path::PathBuf, index: usize, why: String },
    #[error("{what} {}: {source}", path.display())]
    Io { what: &'static str, path: std::path::PathBuf, source: std::io::Error },
}

/// A chat-completions model. Implementations: the HTTP client, the replayer of a recording.
pub trait ChatModel: Send + Sync {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError>;
}
