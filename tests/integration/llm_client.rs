//! The model client against the scripted server: real HTTP, real JSON, retries, refusals.

use std::time::{Duration, Instant};

use mantra::config::{Environment, LlmConfig};
use mantra::llm::{ApiKey, ChatModel, ChatRequest, HttpModel, LlmError, Message, RetryPolicy, ToolChoice, ToolSpec};
use serde_json::json;

use crate::llm_server::*;

pub fn config(server: &ScriptedServer) -> LlmConfig {
    LlmConfig { base_url: Some(server.base_url()), model: Some("scripted-model".into()), ..LlmConfig::default() }
}

/// Short backoff so retry tests take milliseconds, not seconds.
pub fn quick_retry() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 5,
        initial_backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(50),
        max_retry_after: Duration::from_secs(5),
    }
}

fn model(server: &ScriptedServer) -> HttpModel {
    HttpModel::new(&config(server), Some(ApiKey::new("sk-test-key-0123456789"))).unwrap().with_retry(quick_retry())
}

pub fn ask(text: &str) -> ChatRequest {
    ChatRequest {
        agent: "developer".into(),
        messages: vec![Message::system("You refactor Java."), Message::user(text)],
        tools: Vec::new(),
        tool_choice: None,
    }
}

pub fn tool(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: format!("the {name} tool"),
        parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
    }
}

#[test]
fn a_plain_answer_and_what_was_sent() {
    let server = ScriptedServer::start([reply_text("Extract the loop.")]);
    let r = model(&server).chat(&ask("What now?")).unwrap();
    assert_eq!(r.message.content.as_deref(), Some("Extract the loop."));
    assert!(r.message.tool_calls.is_empty());
    assert_eq!((r.usage.prompt_tokens, r.usage.completion_tokens), DEFAULT_USAGE);
    assert_eq!(r.finish_reason.as_deref(), Some("stop"));

    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    let req = &reqs[0];
    assert_eq!((req.method.as_str(), req.path.as_str()), ("POST", "/v1/chat/completions"));
    assert_eq!(req.header("authorization"), Some("Bearer sk-test-key-0123456789"));
    assert!(req.header("content-type").unwrap().starts_with("application/json"));
    assert_eq!(req.body["model"], "scripted-model");
    assert_eq!(req.body["temperature"], 0.0);
    assert_eq!(req.body["messages"][0], json!({"role": "system", "content": "You refactor Java."}));
    assert_eq!(req.body["messages"][1], json!({"role": "user", "content": "What now?"}));
    assert!(req.body.get("tools").is_none() && req.body.get("max_tokens").is_none(), "{}", req.raw_body);
    server.assert_done();
}

#[test]
fn base_url_without_v1_and_max_tokens_and_no_key() {
    let server = ScriptedServer::start([reply_text("ok")]);
    let base = server.base_url().trim_end_matches("/v1").to_string() + "/";
    let config = LlmConfig { base_url: Some(base), max_tokens: Some(64), temperature: 0.3, ..config(&server) };
    let m = HttpModel::from_config(&config, &Environment::default()).unwrap();
    m.chat(&ask("x")).unwrap();
    let req = &server.requests()[0];
    assert_eq!(req.path, "/chat/completions");
    assert_eq!(req.header("authorization"), None);
    assert_eq!(req.body["max_tokens"], 64);
    assert_eq!(req.body["temperature"], 0.3);
}

#[test]
fn tool_calls_are_parsed_and_tools_are_sent() {
    let server = ScriptedServer::start([
        reply_tool_calls(&[("get_file_content", json!({"path": "src/A.java"})), ("get_method", json!({"name": "m"}))]),
        reply_text("done"),
    ]);
    let m = model(&server);
    let mut req = ask("Look at A.");
    req.tools = vec![tool("get_file_content"), tool("get_method")];
    req.tool_choice = Some(ToolChoice::Auto);
    let r = m.chat(&req).unwrap();
    assert_eq!(r.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(r.message.content, None);
    let calls = &r.message.tool_calls;
    assert_eq!(calls.len(), 2);
    assert_eq!((calls[0].id.as_str(), calls[0].name.as_str()), ("call_1", "get_file_content"));
    assert_eq!(serde_json::from_str::<serde_json::Value>(&calls[0].arguments).unwrap(), json!({"path": "src/A.java"}));

    // The conversation goes on with the call and its result, in the API's shape.
    req.messages.push(r.message.clone());
    req.messages.push(Message::tool("call_1", "class A {}"));
    req.messages.push(Message::tool("call_2", "void m() {}"));
    assert_eq!(m.chat(&req).unwrap().message.content.as_deref(), Some("done"));

    let reqs = server.requests();
    assert_eq!(reqs[0].tool_names(), ["get_file_content", "get_method"]);
    assert_eq!(reqs[0].body["tools"][0]["type"], "function");
    assert_eq!(reqs[0].body["tools"][0]["function"]["parameters"]["required"], json!(["path"]));
    assert_eq!(reqs[0].body["tool_choice"], "auto");
    let msgs = &reqs[1].body["messages"];
    assert_eq!(msgs[2]["role"], "assistant");
    // An empty string, not null: some servers (llama.cpp's) refuse null (issue 14).
    assert_eq!(msgs[2]["content"], json!(""));
    assert_eq!(msgs[2]["tool_calls"][1]["function"]["name"], "get_method");
    assert_eq!(msgs[2]["tool_calls"][1]["function"]["arguments"], r#"{"name":"m"}"#);
    assert_eq!(msgs[3], json!({"role": "tool", "content": "class A {}", "tool_call_id": "call_1"}));
    server.assert_done();
}

#[test]
fn a_malformed_tool_call_reaches_the_agent_as_text() {
    let server = ScriptedServer::start([reply_tool_call_raw("extract_method", "{\"start\": 3, ")]);
    let r = model(&server).chat(&ask("x")).unwrap();
    assert_eq!(r.message.tool_calls[0].arguments, "{\"start\": 3, ");
}

#[test]
fn rate_limited_with_retry_after_then_success() {
    let server =
        ScriptedServer::start([reply_status(429, "Rate limit reached").header("Retry-After", "1"), reply_text("ok")]);
    let start = Instant::now();
    let r = model(&server).chat(&ask("x")).unwrap();
    let elapsed = start.elapsed();
    assert_eq!(r.message.content.as_deref(), Some("ok"));
    assert_eq!(server.requests().len(), 2);
    // The backoff alone would be ~10 ms: waiting a second shows Retry-After was honoured. The
    // upper bound only rules out reading the header as minutes (60 s); a loaded CI machine has
    // taken 4 s for this test.
    assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
    assert_eq!(server.requests()[0].raw_body, server.requests()[1].raw_body);
    server.assert_done();
}

#[test]
fn server_errors_twice_then_success() {
    let server = ScriptedServer::start([
        reply_status(500, "boom"),
        Reply::raw(503, "<html>upstream down</html>").close(),
        reply_text("ok"),
    ]);
    let r = model(&server).chat(&ask("x")).unwrap();
    assert_eq!(r.message.content.as_deref(), Some("ok"));
    assert_eq!(server.requests().len(), 3);
    server.assert_done();
}

#[test]
fn server_errors_until_the_attempts_run_out() {
    let server = ScriptedServer::start((0..3).map(|_| reply_status(502, "bad gateway")));
    let m = model(&server).with_retry(RetryPolicy { max_attempts: 3, ..quick_retry() });
    let err = m.chat(&ask("x")).unwrap_err();
    assert!(matches!(err, LlmError::Unavailable { attempts: 3, .. }), "{err:?}");
    assert!(err.to_string().contains("HTTP 502: bad gateway"), "{err}");
    server.assert_done();
}

/// Issue 14: llama.cpp's server answers a request that fails its schema with HTTP 500; mantra
/// retried that deterministic error five times.
#[test]
fn a_server_error_that_rejects_the_request_itself_is_tried_once_more_only() {
    let why = "1 validation error for ChatCompletionRequestAssistantMessage\ncontent\n  Input should be a valid string";
    let server = ScriptedServer::start([reply_status(500, why), reply_status(500, why)]);
    let err = model(&server).chat(&ask("x")).unwrap_err();
    assert!(matches!(err, LlmError::Refused { status: 500, .. }), "{err:?}");
    assert!(err.to_string().contains("Input should be a valid string"), "{err}");
    assert_eq!(server.requests().len(), 2);
    server.assert_done();
}

#[test]
fn a_bad_request_is_not_retried_and_the_server_says_why() {
    let server = ScriptedServer::start([reply_status(400, "model `gpt-9` does not exist")]);
    let err = model(&server).chat(&ask("x")).unwrap_err();
    match &err {
        LlmError::Refused { status, message } => {
            assert_eq!(*status, 400);
            assert_eq!(message, "model `gpt-9` does not exist");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.requests().len(), 1);
    use mantra::error::Classify;
    assert_eq!(err.exit(), mantra::exit::Exit::Usage);
    assert!(err.hint().unwrap().contains("llm.model"));

    let server = ScriptedServer::start([Reply::raw(401, "invalid api key")]);
    let err = model(&server).chat(&ask("x")).unwrap_err();
    assert!(err.to_string().contains("(401): invalid api key"), "{err}");
    assert_eq!(err.exit(), mantra::exit::Exit::EnvironmentMissing);
    assert!(err.hint().unwrap().contains("MANTRA_API_KEY"));
}

#[test]
fn timeouts_are_retried_then_unavailable() {
    let slow = || reply_text("late").delay(Duration::from_millis(1500));
    let server = ScriptedServer::start([slow(), slow()]);
    let m = model(&server)
        .with_retry(RetryPolicy { max_attempts: 2, ..quick_retry() })
        .with_timeout(Duration::from_millis(300))
        .unwrap();
    let err = m.chat(&ask("x")).unwrap_err();
    assert!(matches!(err, LlmError::Unavailable { attempts: 2, .. }), "{err:?}");
    assert!(err.to_string().contains("timed out"), "{err}");
    assert_eq!(server.requests().len(), 2);

    let server = ScriptedServer::start([slow(), reply_text("in time")]);
    let m = model(&server).with_timeout(Duration::from_millis(300)).unwrap();
    assert_eq!(m.chat(&ask("x")).unwrap().message.content.as_deref(), Some("in time"));
}

#[test]
fn nobody_listening_is_unavailable() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let config = LlmConfig { base_url: Some(format!("http://127.0.0.1:{port}/v1")), ..LlmConfig::default() };
    let m = HttpModel::new(&config, None).unwrap().with_retry(RetryPolicy { max_attempts: 2, ..quick_retry() });
    let err = m.chat(&ask("x")).unwrap_err();
    assert!(matches!(err, LlmError::Unavailable { attempts: 2, .. }), "{err:?}");
    assert!(err.to_string().contains("cannot connect"), "{err}");
}

#[test]
fn a_malformed_body_is_not_a_completion() {
    let server = ScriptedServer::start([Reply::raw(200, "{\"choices\": [{\"message\": ")]);
    let err = model(&server).chat(&ask("x")).unwrap_err();
    assert!(matches!(err, LlmError::Malformed(_)), "{err:?}");
    assert!(err.to_string().contains("not a chat completion"), "{err}");

    let server = ScriptedServer::start([Reply::json(200, &json!({"object": "list", "data": []}))]);
    let err = model(&server).chat(&ask("x")).unwrap_err();
    assert!(err.to_string().contains("no `choices`"), "{err}");
}

#[test]
fn missing_usage_counts_zero() {
    let server = ScriptedServer::start([reply_text("ok").usage(None)]);
    let r = model(&server).chat(&ask("x")).unwrap();
    assert_eq!((r.usage.prompt_tokens, r.usage.completion_tokens), (0, 0));
}

#[test]
fn the_key_never_appears_in_errors() {
    // A server that echoes the Authorization header back in its error message.
    let server = ScriptedServer::start([reply_status(400, "bad key Bearer sk-test-key-0123456789")]);
    let err = model(&server).chat(&ask("x")).unwrap_err();
    assert!(!err.to_string().contains("sk-test-key"), "{err}");
    assert!(err.to_string().contains("<redacted>"), "{err}");
}

#[test]
#[should_panic(expected = "no reply for")]
fn the_server_fails_the_test_when_the_script_runs_out() {
    let server = ScriptedServer::start([reply_text("only one")]);
    let m = model(&server);
    m.chat(&ask("x")).unwrap();
    let err = m.chat(&ask("second")).unwrap_err();
    assert!(err.to_string().contains("no reply left for request #2"), "{err}");
    drop(server);
}
