//! The model: one small trait, [`ChatModel`], between the agents and any OpenAI-compatible
//! chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio).
//!
//! The agents speak in [`ChatRequest`]s and [`ChatResponse`]s; they never see HTTP, retries, the
//! API key, transcripts or record/replay, which live behind the trait (`client.rs`, `replay.rs`).
//! The trait is synchronous: an agent's turn waits for its answer anyway, and a synchronous trait
//! keeps the agents plain code; the HTTP client drives its own tokio runtime inside.

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::Classify;
use crate::exit::Exit;

pub mod client;
pub mod prompts;
pub mod replay;
pub mod text_tools;
pub mod transcript;
pub mod usage;

pub use client::{ApiKey, HttpModel, RetryPolicy};
pub use replay::{Recorder, Replayer};
pub use text_tools::TextToolsModel;
pub use transcript::Transcript;
pub use usage::{Metered, UsageMeter, UsageSummary};

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
    /// `--llm-replay DIR`: DIR cannot be read (missing, not a folder, not readable).
    #[error("cannot read the recording folder {}: {source}", dir.display())]
    NoRecording { dir: std::path::PathBuf, source: std::io::Error },
    #[error("{what} {}: {source}", path.display())]
    Io { what: &'static str, path: std::path::PathBuf, source: std::io::Error },
    /// The model configuration cannot be used (a `base_url` that is not a URL, ...).
    #[error("{0}")]
    Config(String),
}

/// Exit codes: a model that cannot be reached, or a server that is not a chat-completions server,
/// is the environment's fault (4), like a missing Maven. A refusal is split by who can fix it: 401
/// and 403 mean the credentials in the environment are wrong or missing (4); any other 4xx is a
/// request the configuration shaped (model name, URL, parameters, context size) and is a usage
/// error (2). A replay that diverges is a usage error too: the recording does not fit this run.
impl Classify for LlmError {
    fn exit(&self) -> Exit {
        match self {
            LlmError::NotConfigured
            | LlmError::Config(_)
            | LlmError::ReplayMismatch { .. }
            | LlmError::NoRecording { .. } => Exit::Usage,
            LlmError::Refused { status: 401 | 403, .. } => Exit::EnvironmentMissing,
            LlmError::Refused { .. } => Exit::Usage,
            LlmError::Unavailable { .. } | LlmError::Malformed(_) => Exit::EnvironmentMissing,
            LlmError::Io { .. } => Exit::Internal,
        }
    }
    fn hint(&self) -> Option<String> {
        Some(match self {
            LlmError::NotConfigured => {
                "set llm.base_url (MANTRA_LLM_BASE_URL) and llm.model, or run with --llm none for the heuristic planner".into()
            }
            LlmError::Config(_) => "fix llm.base_url in mantra.toml or MANTRA_LLM_BASE_URL, e.g. http://localhost:8000/v1".into(),
            LlmError::Refused { status: 401 | 403, .. } => {
                "set the API key in MANTRA_API_KEY (or the variable llm.api_key_env names, or OPENAI_API_KEY)".into()
            }
            LlmError::Refused { status: 404, .. } => {
                "check llm.base_url (it should end in /v1 for most servers) and llm.model".into()
            }
            LlmError::Refused { .. } => {
                "check llm.model and llm.max_tokens; if the server does not support tool calling, set llm.tool_calling = \"text\"".into()
            }
            LlmError::Unavailable { .. } => {
                "check that the model server at llm.base_url is running and reachable; raise llm.timeout_secs for slow models".into()
            }
            LlmError::Malformed(_) => "check that llm.base_url points at an OpenAI-compatible chat-completions API".into(),
            LlmError::ReplayMismatch { .. } => {
                "replay with the inputs and configuration of the recorded run, or record it again with --llm-record".into()
            }
            LlmError::NoRecording { .. } => {
                "give --llm-replay the folder that a run with --llm-record DIR wrote (it holds 0001.json, ...)".into()
            }
            LlmError::Io { .. } => return None,
        })
    }
}

/// A chat-completions model. Implementations: the HTTP client, the replayer of a recording.
pub trait ChatModel: Send + Sync {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError>;
}

impl<M: ChatModel + ?Sized> ChatModel for Box<M> {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        (**self).chat(request)
    }
}

impl<M: ChatModel + ?Sized> ChatModel for Arc<M> {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        (**self).chat(request)
    }
}

/// How the command line asks for the model (`--llm none|auto`, `--llm-record`, `--llm-replay`)
/// and where the run's accounting goes.
#[derive(Debug, Clone, Default)]
pub struct LlmOptions {
    /// `--llm-record DIR`: write every exchange to DIR.
    pub record: Option<PathBuf>,
    /// `--llm-replay DIR`: answer from the recording in DIR; no server is contacted.
    pub replay: Option<PathBuf>,
    /// `--llm none`: no model even if one is configured (the heuristic planner).
    pub none: bool,
    /// Write the JSONL transcript to this file (e.g. `transcript::run_dir(repo)/transcript.jsonl`).
    pub transcript: Option<PathBuf>,
    /// Count every request's tokens here (keep a clone for the final report).
    pub meter: Option<UsageMeter>,
}

/// The model the configuration and flags ask for, or `None` for the heuristic planner (no
/// `llm.base_url`, or `--llm none`). Layers, from the wire up: the HTTP client, the tool-calling
/// protocol (`llm.tool_calling`), the recorder — or, replaying, the recording alone — then usage
/// accounting and the transcript.
pub fn open(config: &crate::config::Config, options: &LlmOptions) -> Result<Option<Arc<dyn ChatModel>>, LlmError> {
    open_in(config, options, &crate::config::Environment::from_process())
}

/// [`open`] with the API key read from `env`.
pub fn open_in(
    config: &crate::config::Config,
    options: &LlmOptions,
    env: &crate::config::Environment,
) -> Result<Option<Arc<dyn ChatModel>>, LlmError> {
    if options.record.is_some() && options.replay.is_some() {
        return Err(LlmError::Config("--llm-record and --llm-replay cannot be used together".into()));
    }
    if options.none {
        if options.record.is_some() || options.replay.is_some() {
            return Err(LlmError::Config("--llm none uses no model: it cannot be recorded or replayed".into()));
        }
        return Ok(None);
    }
    let mut model: Box<dyn ChatModel> = match &options.replay {
        Some(dir) => Box::new(Replayer::open(dir)?),
        None => {
            if config.llm.base_url.as_deref().is_none_or(|b| b.trim().is_empty()) {
                return match options.record {
                    Some(_) => Err(LlmError::NotConfigured),
                    None => Ok(None),
                };
            }
            let http = HttpModel::from_config(&config.llm, env)?;
            let protocol: Box<dyn ChatModel> = Box::new(TextToolsModel::new(http, config.llm.tool_calling));
            match &options.record {
                Some(dir) => Box::new(Recorder::create(dir, protocol)?),
                None => protocol,
            }
        }
    };
    if let Some(meter) = &options.meter {
        model = Box::new(Metered::new(model, meter.clone()));
    }
    if let Some(path) = &options.transcript {
        model = Box::new(Transcript::create(path, model)?);
    }
    Ok(Some(Arc::from(model)))
}
