//! The HTTP client: any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama,
//! llama.cpp server, LM Studio) behind [`ChatModel`].
//!
//! One POST to `{base_url}/chat/completions` per request. Transient failures (timeouts, connection
//! errors, 429 and 5xx) are retried with jittered exponential backoff, honouring `Retry-After`;
//! other 4xx are the caller's to fix and come back at once as [`LlmError::Refused`] with the
//! server's own message. The API key lives only in this struct: it is sent as a bearer token and
//! scrubbed from every message that leaves, so no error, log or transcript can carry it.
//!
//! The trait is synchronous; the client owns a small current-thread tokio runtime and blocks on
//! it, so callers need no runtime of their own (and must not call it from inside one).

use std::time::Duration;

use serde_json::{Value as Json, json};

use super::{ChatModel, ChatRequest, ChatResponse, LlmError, Message, Role, ToolCall, ToolChoice, Usage};
use crate::config::{Environment, LlmConfig};

use crate::config::FALLBACK_API_KEY_ENV;

/// How much of a server's error text is kept in an error message.
const MESSAGE_CAP: usize = 600;

/// When and how often a failed request is tried again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (at least 1).
    pub max_attempts: u32,
    /// The wait before the second attempt; it doubles for each further one.
    pub initial_backoff: Duration,
    /// No computed wait is longer than this.
    pub max_backoff: Duration,
    /// A server's `Retry-After` is honoured up to this long; beyond it the request fails now
    /// rather than hanging the run.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 5,
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(20),
            max_retry_after: Duration::from_secs(120),
        }
    }
}

impl RetryPolicy {
    /// The wait before attempt `attempt + 1` after `attempt` failed: `Retry-After` if the server
    /// sent one, else exponential backoff with "equal jitter" (half fixed, half random), so many
    /// clients hitting one rate limit do not come back in lockstep.
    fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(after) = retry_after {
            return after.min(self.max_retry_after);
        }
        let exp = self.initial_backoff.saturating_mul(1u32 << attempt.saturating_sub(1).min(16));
        let capped = exp.min(self.max_backoff);
        let half = capped / 2;
        half + half.mul_f64(random_fraction())
    }
}

/// A number in [0, 1) that differs between calls; jitter needs no better randomness than the
/// std hasher's per-instance random keys give.
fn random_fraction() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    (h.finish() >> 11) as f64 / (1u64 << 53) as f64
}

/// The API key. Its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// The key; from now on it is scrubbed from all mantra writes ([`crate::redact`]).
    pub fn new(key: impl Into<String>) -> ApiKey {
        let key = key.into();
        crate::redact::register(&key);
        ApiKey(key)
    }

    /// The key from the variable `llm.api_key_env` names, else [`FALLBACK_API_KEY_ENV`]; empty
    /// values count as unset. `None` is fine for local servers that need no key.
    pub fn from_env(config: &LlmConfig, env: &Environment) -> Option<ApiKey> {
        [config.api_key_env.as_str(), FALLBACK_API_KEY_ENV]
            .iter()
            .filter_map(|var| env.vars.get(*var))
            .map(|v| v.trim())
            .find(|v| !v.is_empty())
            .map(ApiKey::new)
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// A chat-completions endpoint over HTTP.
pub struct HttpModel {
    endpoint: String,
    model: Option<String>,
    temperature: f64,
    max_tokens: Option<u32>,
    api_key: Option<ApiKey>,
    retry: RetryPolicy,
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
}

impl std::fmt::Debug for HttpModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpModel")
            .field("endpoint", &self.endpoint)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| crate::redact::REDACTED))
            .finish_non_exhaustive()
    }
}

impl HttpModel {
    /// The client `config` describes, with the API key read from `env`. No `base_url` is
    /// [`LlmError::NotConfigured`].
    pub fn from_config(config: &LlmConfig, env: &Environment) -> Result<HttpModel, LlmError> {
        HttpModel::new(config, ApiKey::from_env(config, env))
    }

    /// The client `config` describes, with this key (or none).
    pub fn new(config: &LlmConfig, api_key: Option<ApiKey>) -> Result<HttpModel, LlmError> {
        let base =
            config.base_url.as_deref().map(str::trim).filter(|b| !b.is_empty()).ok_or(LlmError::NotConfigured)?;
        let endpoint = endpoint(base)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| LlmError::Config(format!("cannot start the HTTP client's runtime: {e}")))?;
        Ok(HttpModel {
            endpoint,
            model: config.model.clone().filter(|m| !m.trim().is_empty()),
            temperature: config.temperature,
            max_tokens: config.max_tokens,
            api_key,
            retry: RetryPolicy::default(),
            client: build_client(Duration::from_secs(config.timeout_secs.max(1)))?,
            runtime,
        })
    }

    /// The same client with another retry policy (tests keep backoff short with it).
    pub fn with_retry(mut self, retry: RetryPolicy) -> HttpModel {
        self.retry = RetryPolicy { max_attempts: retry.max_attempts.max(1), ..retry };
        self
    }

    /// The same client with another per-request timeout (`llm.timeout_secs` counts in whole seconds).
    pub fn with_timeout(mut self, timeout: Duration) -> Result<HttpModel, LlmError> {
        self.client = build_client(timeout)?;
        Ok(self)
    }

    /// Where requests go: `{base_url}/chat/completions`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The JSON body of `request`, as sent.
    pub fn body(&self, request: &ChatRequest) -> Json {
        let mut body = serde_json::Map::new();
        if let Some(m) = &self.model {
            body.insert("model".into(), json!(m));
        }
        body.insert("messages".into(), Json::Array(request.messages.iter().map(wire_message).collect()));
        body.insert("temperature".into(), json!(self.temperature));
        if let Some(n) = self.max_tokens {
            body.insert("max_tokens".into(), json!(n));
        }
        if !request.tools.is_empty() {
            let tools = request
                .tools
                .iter()
                .map(|t| {
                    json!({"type": "function", "function": {
                        "name": t.name, "description": t.description, "parameters": t.parameters}})
                })
                .collect();
            body.insert("tools".into(), Json::Array(tools));
        }
        if let Some(choice) = &request.tool_choice {
            let c = match choice {
                ToolChoice::Auto => "auto",
                ToolChoice::None => "none",
                ToolChoice::Required => "required",
            };
            body.insert("tool_choice".into(), json!(c));
        }
        // A tool may have read the key from a file of the repository: it is not sent back.
        let mut body = Json::Object(body);
        crate::redact::scrub_json(&mut body);
        body
    }

    async fn attempt(&self, body: &Json) -> Result<ChatResponse, Failure> {
        let mut req = self.client.post(&self.endpoint).json(body);
        if let Some(ApiKey(key)) = &self.api_key {
            req = req.bearer_auth(key);
        }
        let resp =
            req.send().await.map_err(|e| Failure::Transient { why: describe_transport(&e), retry_after: None })?;
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(Duration::from_secs_f64);
        let bytes = resp.bytes().await.map_err(|e| Failure::Transient {
            why: format!("reading the answer: {}", describe_transport(&e)),
            retry_after,
        })?;
        // Nor does a key the model repeats go any further than this.
        let text = String::from_utf8_lossy(&bytes);
        let text = crate::redact::scrub(&text);
        match status {
            200..=299 => parse_response(&text).map_err(Failure::Fatal),
            500..=599 if is_request_validation(&text) => {
                Err(Failure::Invalid(LlmError::Refused { status, message: server_message(&text) }))
            }
            429 | 500..=599 => {
                Err(Failure::Transient { why: format!("HTTP {status}: {}", server_message(&text)), retry_after })
            }
            _ => Err(Failure::Fatal(LlmError::Refused { status, message: server_message(&text) })),
        }
    }

    /// Removes the API key from text that is about to leave this client.
    fn scrub(&self, text: String) -> String {
        match &self.api_key {
            Some(ApiKey(key)) if !key.is_empty() && text.contains(key.as_str()) => {
                text.replace(key.as_str(), crate::redact::REDACTED)
            }
            _ => text,
        }
    }

    fn scrub_error(&self, e: LlmError) -> LlmError {
        match e {
            LlmError::Refused { status, message } => LlmError::Refused { status, message: self.scrub(message) },
            LlmError::Unavailable { attempts, last } => LlmError::Unavailable { attempts, last: self.scrub(last) },
            LlmError::Malformed(m) => LlmError::Malformed(self.scrub(m)),
            other => other,
        }
    }
}

enum Failure {
    /// Worth another attempt.
    Transient {
        why: String,
        retry_after: Option<Duration>,
    },
    Fatal(LlmError),
    /// A server error that names something wrong with the request itself (some servers answer a
    /// request that fails their schema with 500): the same request fails the same way, so it is
    /// tried once more at most.
    Invalid(LlmError),
}

/// Whether a server error's body says the request failed validation (pydantic's and FastAPI's
/// wording, OpenAI's error type) rather than that the server is in trouble.
fn is_request_validation(body: &str) -> bool {
    let body = body.to_ascii_lowercase();
    ["validation error", "input should be", "field required", "invalid_request_error"].iter().any(|w| body.contains(w))
}

impl ChatModel for HttpModel {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let body = self.body(request);
        let policy = self.retry;
        let result = self.runtime.block_on(async {
            let mut attempt = 1;
            loop {
                match self.attempt(&body).await {
                    Ok(r) => return Ok(r),
                    Err(Failure::Fatal(e)) => return Err(e),
                    Err(Failure::Invalid(e)) if attempt >= 2 => return Err(e),
                    Err(Failure::Invalid(e)) => {
                        tracing::warn!(agent = %request.agent, "the server refused the request ({e}); trying once more");
                        attempt += 1;
                    }
                    Err(Failure::Transient { why, retry_after }) => {
                        let too_long = retry_after.is_some_and(|a| a > policy.max_retry_after);
                        if attempt >= policy.max_attempts || too_long {
                            let last = if too_long {
                                format!("{why} (the server asked to wait longer than {}s)", policy.max_retry_after.as_secs())
                            } else {
                                why
                            };
                            return Err(LlmError::Unavailable { attempts: attempt, last });
                        }
                        let wait = policy.delay(attempt, retry_after);
                        tracing::warn!(agent = %request.agent, attempt, wait_ms = wait.as_millis() as u64, "model request failed, retrying: {why}");
                        tokio::time::sleep(wait).await;
                        attempt += 1;
                    }
                }
            }
        });
        result.map_err(|e| self.scrub_error(e))
    }
}

fn build_client(timeout: Duration) -> Result<reqwest::Client, LlmError> {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(30)))
        .build()
        .map_err(|e| LlmError::Config(format!("cannot build the HTTP client: {e}")))
}

/// `{base}/chat/completions`, whether or not `base` ends in `/v1` or a slash.
fn endpoint(base: &str) -> Result<String, LlmError> {
    let base = base.trim_end_matches('/');
    let base = base.strip_suffix("/chat/completions").unwrap_or(base);
    let url =
        reqwest::Url::parse(base).map_err(|e| LlmError::Config(format!("llm.base_url {base:?} is not a URL: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(LlmError::Config(format!("llm.base_url {base:?} must start with http:// or https://")));
    }
    Ok(format!("{base}/chat/completions"))
}

/// A reqwest error in words: what failed, without the error's debug noise.
fn describe_transport(e: &reqwest::Error) -> String {
    use std::error::Error as _;
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "cannot connect"
    } else {
        "request failed"
    };
    let mut text = format!("{kind}: {e}");
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    text
}

/// The server's explanation: OpenAI's `{"error": {"message": ...}}` (or `{"error": "..."}`,
/// `{"message": ...}`, `{"detail": ...}`), else the body text; capped.
pub(crate) fn server_message(body: &str) -> String {
    let from_json = serde_json::from_str::<Json>(body).ok().and_then(|v| {
        let e = v.get("error").unwrap_or(&v);
        e.get("message")
            .or(Some(e).filter(|e| e.is_string()))
            .or_else(|| v.get("detail"))
            .or_else(|| v.get("message"))
            .map(|m| match m {
                Json::String(s) => s.clone(),
                other => other.to_string(),
            })
    });
    let text = from_json.unwrap_or_else(|| body.trim().to_string());
    let text = if text.is_empty() { "(empty body)".to_string() } else { text };
    cap(&text, MESSAGE_CAP)
}

fn cap(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    format!("{}… ({} bytes in all)", crate::text::head(text, max), text.len())
}

/// A message in the API's shape: tool calls nested under `function`, arguments as text.
fn wire_message(m: &Message) -> Json {
    let role = match m.role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    };
    let mut out = serde_json::Map::new();
    out.insert("role".into(), json!(role));
    // Always a string: `null` (the API's own form for a message that only calls tools) is refused
    // by some servers (llama.cpp's OpenAI server answers 500 "Input should be a valid string").
    out.insert("content".into(), json!(m.content.as_deref().unwrap_or("")));
    if !m.tool_calls.is_empty() {
        let calls = m
            .tool_calls
            .iter()
            .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
            .collect();
        out.insert("tool_calls".into(), Json::Array(calls));
    }
    if let Some(id) = &m.tool_call_id {
        out.insert("tool_call_id".into(), json!(id));
    }
    Json::Object(out)
}

/// Reads a chat completion tolerantly: missing usage counts zero, `content` may be null, a list
/// of text parts or absent, tool-call arguments may be an object rather than text, ids may be
/// missing.
pub(crate) fn parse_response(body: &str) -> Result<ChatResponse, LlmError> {
    let v: Json = serde_json::from_str(body)
        .map_err(|e| LlmError::Malformed(format!("{e}; the body starts with {:?}", cap(body.trim(), 200))))?;
    if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
        return Err(LlmError::Malformed(format!(
            "the server answered with an error: {}",
            server_message(&json!({"error": err}).to_string())
        )));
    }
    let choice = v
        .get("choices")
        .and_then(Json::as_array)
        .and_then(|c| c.first())
        .ok_or_else(|| LlmError::Malformed(format!("no `choices` in {}", cap(body.trim(), 200))))?;
    let msg = choice.get("message").ok_or_else(|| LlmError::Malformed("the first choice has no `message`".into()))?;
    let content = match msg.get("content") {
        None | Some(Json::Null) => None,
        Some(Json::String(s)) => Some(s.clone()),
        Some(Json::Array(parts)) => {
            Some(parts.iter().filter_map(|p| p.get("text").and_then(Json::as_str).or(p.as_str())).collect::<String>())
        }
        Some(other) => Some(other.to_string()),
    };
    let mut tool_calls = Vec::new();
    for (i, call) in msg.get("tool_calls").and_then(Json::as_array).into_iter().flatten().enumerate() {
        let function = call.get("function").unwrap_or(call);
        let name = function
            .get("name")
            .and_then(Json::as_str)
            .ok_or_else(|| LlmError::Malformed(format!("tool call {i} has no `function.name`")))?;
        let arguments = match function.get("arguments") {
            None | Some(Json::Null) => "{}".to_string(),
            Some(Json::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        };
        let id = call
            .get("id")
            .and_then(Json::as_str)
            .filter(|s| !s.is_empty())
            .map_or_else(|| format!("call_{i}"), str::to_string);
        tool_calls.push(ToolCall { id, name: name.to_string(), arguments });
    }
    let usage = v.get("usage").map_or_else(Usage::default, |u| Usage {
        prompt_tokens: u.get("prompt_tokens").and_then(Json::as_u64).unwrap_or(0),
        completion_tokens: u.get("completion_tokens").and_then(Json::as_u64).unwrap_or(0),
    });
    Ok(ChatResponse {
        message: Message { role: Role::Assistant, content, tool_calls, tool_call_id: None },
        usage,
        finish_reason: choice.get("finish_reason").and_then(Json::as_str).map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_with_or_without_v1_and_slash() {
        assert_eq!(endpoint("http://h:1/v1").unwrap(), "http://h:1/v1/chat/completions");
        assert_eq!(endpoint("http://h:1/v1/").unwrap(), "http://h:1/v1/chat/completions");
        assert_eq!(endpoint("http://h:1").unwrap(), "http://h:1/chat/completions");
        assert_eq!(endpoint("https://h/v1/chat/completions").unwrap(), "https://h/v1/chat/completions");
        assert!(matches!(endpoint("h:1/v1"), Err(LlmError::Config(_))));
        assert!(matches!(endpoint("not a url"), Err(LlmError::Config(_))));
    }

    #[test]
    fn server_messages() {
        assert_eq!(server_message(r#"{"error":{"message":"bad model","type":"x"}}"#), "bad model");
        assert_eq!(server_message(r#"{"error":"no tools"}"#), "no tools");
        assert_eq!(server_message(r#"{"detail":"Not Found"}"#), "Not Found");
        assert_eq!(server_message("plain text\n"), "plain text");
        assert_eq!(server_message(""), "(empty body)");
        assert!(server_message(&"x".repeat(5000)).ends_with("(5000 bytes in all)"));
    }

    #[test]
    fn tolerant_response_parsing() {
        let r = parse_response(
            r#"{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
            {"function":{"name":"f","arguments":{"a":1}}}]}}]}"#,
        )
        .unwrap();
        assert_eq!(r.usage, Usage::default());
        assert_eq!(r.message.content, None);
        assert_eq!(
            r.message.tool_calls,
            vec![ToolCall { id: "call_0".into(), name: "f".into(), arguments: r#"{"a":1}"#.into() }]
        );
        let r = parse_response(r#"{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"finish_reason":"stop"}],"usage":{"prompt_tokens":3}}"#).unwrap();
        assert_eq!(r.message.content.as_deref(), Some("ab"));
        assert_eq!(r.usage, Usage { prompt_tokens: 3, completion_tokens: 0 });
        assert_eq!(r.finish_reason.as_deref(), Some("stop"));
        assert!(matches!(parse_response("{\"choices\":[]}"), Err(LlmError::Malformed(_))));
        assert!(matches!(parse_response("<html>"), Err(LlmError::Malformed(_))));
    }

    #[test]
    fn backoff_grows_is_capped_and_honours_retry_after() {
        let p = RetryPolicy {
            max_attempts: 5,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(300),
            max_retry_after: Duration::from_secs(2),
        };
        for _ in 0..20 {
            let d1 = p.delay(1, None);
            assert!(d1 >= Duration::from_millis(50) && d1 <= Duration::from_millis(100), "{d1:?}");
            let d2 = p.delay(2, None);
            assert!(d2 >= Duration::from_millis(100) && d2 <= Duration::from_millis(200), "{d2:?}");
            let d9 = p.delay(9, None);
            assert!(d9 >= Duration::from_millis(150) && d9 <= Duration::from_millis(300), "{d9:?}");
        }
        assert_eq!(p.delay(1, Some(Duration::from_secs(1))), Duration::from_secs(1));
    }

    #[test]
    fn the_key_is_never_in_debug_output() {
        let key = ApiKey::new("sk-secret-123");
        assert!(!format!("{key:?}").contains("secret"));
        let config = LlmConfig { base_url: Some("http://127.0.0.1:9/v1".into()), ..LlmConfig::default() };
        let m = HttpModel::new(&config, Some(key)).unwrap();
        assert!(!format!("{m:?}").contains("secret"));
        assert_eq!(m.scrub("x sk-secret-123 y".into()), "x <redacted> y");
    }

    #[test]
    fn key_from_configured_variable_then_openai() {
        let config = LlmConfig::default();
        let env = |vars: &[(&str, &str)]| Environment {
            vars: vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            cwd: Default::default(),
        };
        assert_eq!(
            ApiKey::from_env(&config, &env(&[("MANTRA_API_KEY", "a"), ("OPENAI_API_KEY", "b")])),
            Some(ApiKey::new("a"))
        );
        assert_eq!(
            ApiKey::from_env(&config, &env(&[("MANTRA_API_KEY", " "), ("OPENAI_API_KEY", "b")])),
            Some(ApiKey::new("b"))
        );
        assert_eq!(ApiKey::from_env(&config, &env(&[])), None);
    }

    /// Issue 14: a real server (llama.cpp) refused every request after the first tool call,
    /// because the assistant's tool-call message went out with `"content": null`.
    #[test]
    fn a_tool_call_message_goes_out_with_empty_text_not_null() {
        let m = Message {
            role: Role::Assistant,
            content: None,
            tool_calls: vec![ToolCall { id: "1".into(), name: "finish".into(), arguments: "{}".into() }],
            tool_call_id: None,
        };
        let wire = wire_message(&m);
        assert_eq!(wire["content"], json!(""));
        assert_eq!(wire["tool_calls"][0]["function"]["name"], "finish");
    }
}
