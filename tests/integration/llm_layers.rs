//! The layers over the HTTP client, against the scripted server: the text tool protocol, usage
//! and cost, the transcript, record and replay, and `llm::open` stacking them from configuration.

use std::sync::Arc;

use mantra::config::{Config, Environment, LlmConfig, Prices, ToolCalling};
use mantra::llm::{
    ChatModel, ChatRequest, HttpModel, LlmError, LlmOptions, Message, Recorder, Replayer, TextToolsModel, ToolChoice,
    UsageMeter,
};
use serde_json::json;

use crate::llm_client::{ask, config, quick_retry, tool};
use crate::llm_server::*;

fn http(server: &ScriptedServer) -> HttpModel {
    HttpModel::new(&config(server), None).unwrap().with_retry(quick_retry())
}

fn with_tools(text: &str) -> ChatRequest {
    ChatRequest {
        tools: vec![tool("get_method"), tool("extract_method")],
        tool_choice: Some(ToolChoice::Auto),
        ..ask(text)
    }
}

fn env(vars: &[(&str, &str)]) -> Environment {
    Environment { vars: vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(), cwd: Default::default() }
}

#[test]
fn text_protocol_call_then_answer() {
    let server = ScriptedServer::start([
        reply_text("Let me read it.\n```json\n{\"tool\": \"get_method\", \"arguments\": {\"path\": \"A.java\",}}\n```"),
        reply_text("{\"answer\": \"Extracted.\"}"),
    ]);
    let m = TextToolsModel::new(http(&server), ToolCalling::Text);
    let mut req = with_tools("Refactor A.");
    let r = m.chat(&req).unwrap();
    assert_eq!(r.message.content, None);
    assert_eq!(r.message.tool_calls.len(), 1);
    let call = r.message.tool_calls[0].clone();
    assert_eq!(call.name, "get_method");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&call.arguments).unwrap(), json!({"path": "A.java"}));

    req.messages.push(r.message);
    req.messages.push(Message::tool(&call.id, "void m() {}"));
    let r = m.chat(&req).unwrap();
    assert_eq!(r.message.content.as_deref(), Some("Extracted."));
    assert!(r.message.tool_calls.is_empty());

    let reqs = server.requests();
    for q in &reqs {
        assert!(q.body.get("tools").is_none() && q.body.get("tool_choice").is_none(), "{}", q.raw_body);
    }
    let system = reqs[0].body["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("# Tools") && system.contains("## extract_method"), "{system}");
    let msgs = reqs[1].body["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 4);
    assert_eq!(msgs[2]["role"], "assistant");
    assert!(msgs[3]["content"].as_str().unwrap().starts_with("Result of get_method (call "), "{}", msgs[3]);
    assert!(msgs.iter().all(|m| m["role"] != "tool" && m.get("tool_calls").is_none()));
    server.assert_done();
}

#[test]
fn text_protocol_sends_one_repair_request() {
    let server = ScriptedServer::start([
        reply_text("{\"tool\": \"get_method\", \"arguments\": {path: A.java}}").usage(Some((50, 10))),
        reply_text("{\"tool\": \"get_method\", \"arguments\": {\"path\": \"A.java\"}}").usage(Some((70, 12))),
    ]);
    let m = TextToolsModel::new(http(&server), ToolCalling::Text);
    let r = m.chat(&with_tools("x")).unwrap();
    assert_eq!(r.message.tool_calls[0].name, "get_method");
    assert_eq!((r.usage.prompt_tokens, r.usage.completion_tokens), (120, 22));
    let reqs = server.requests();
    let repair = reqs[1].last_content();
    assert!(
        repair.starts_with("Your answer was not valid JSON for the tool protocol: key must be a string"),
        "{repair}"
    );
    assert!(repair.contains("Answer again with only the JSON object"), "{repair}");
    let msgs = reqs[1].body["messages"].as_array().unwrap();
    assert_eq!(msgs[msgs.len() - 2]["content"], "{\"tool\": \"get_method\", \"arguments\": {path: A.java}}");

    // Only one: a second bad answer is an error, not a loop.
    let server = ScriptedServer::start([reply_text("{\"tool\": oops}"), reply_text("{\"tool\": still oops}")]);
    let m = TextToolsModel::new(http(&server), ToolCalling::Text);
    let err = m.chat(&with_tools("x")).unwrap_err();
    assert!(matches!(err, LlmError::Malformed(_)), "{err:?}");
    assert!(err.to_string().contains("even after a repair request"), "{err}");
    server.assert_done();
}

#[test]
fn auto_switches_to_text_when_the_server_refuses_tools() {
    let server = ScriptedServer::start([
        reply_status(400, "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set"),
        reply_text("{\"tool\": \"extract_method\", \"arguments\": {\"path\": \"A.java\"}}"),
        reply_text("{\"tool\": \"get_method\", \"arguments\": {\"path\": \"B.java\"}}"),
    ]);
    let m = TextToolsModel::new(http(&server), ToolCalling::Auto);
    assert!(!m.uses_text());
    assert_eq!(m.chat(&with_tools("x")).unwrap().message.tool_calls[0].name, "extract_method");
    assert!(m.uses_text());
    assert_eq!(m.chat(&with_tools("y")).unwrap().message.tool_calls[0].name, "get_method");
    let reqs = server.requests();
    assert_eq!(reqs[0].tool_names(), ["get_method", "extract_method"]);
    assert!(reqs[1].tool_names().is_empty() && reqs[2].tool_names().is_empty());
    server.assert_done();

    // Native mode surfaces the refusal; other refusals are not a reason to switch.
    let server =
        ScriptedServer::start([reply_status(400, "model does not support tools"), reply_status(400, "bad model")]);
    let native = TextToolsModel::new(http(&server), ToolCalling::Native);
    assert!(matches!(native.chat(&with_tools("x")), Err(LlmError::Refused { status: 400, .. })));
    let auto = TextToolsModel::new(http(&server), ToolCalling::Auto);
    assert!(matches!(auto.chat(&with_tools("x")), Err(LlmError::Refused { status: 400, .. })));
    assert!(!auto.uses_text());
}

#[test]
fn auto_reads_a_call_the_server_left_in_the_text() {
    let server = ScriptedServer::start([reply_text(
        "<tool_call>{\"name\": \"get_method\", \"arguments\": {\"path\": \"A.java\"}}</tool_call>",
    )]);
    let m = TextToolsModel::new(http(&server), ToolCalling::Auto);
    let r = m.chat(&with_tools("x")).unwrap();
    assert_eq!(r.message.tool_calls[0].name, "get_method");
    assert_eq!(r.message.content, None);
}

#[test]
fn usage_and_cost_per_agent_and_run() {
    let server = ScriptedServer::start([
        reply_text("a").usage(Some((1000, 200))),
        reply_text("b").usage(Some((3000, 100))),
        reply_text("c").usage(None),
        reply_status(400, "no"),
    ]);
    let mut config = Config::default();
    config.llm = LlmConfig { prices: Prices { prompt: Some(1.0), completion: Some(4.0) }, ..self::config(&server) };
    let meter = UsageMeter::new(config.llm.prices.clone());
    let options = LlmOptions { meter: Some(meter.clone()), ..LlmOptions::default() };
    let m = mantra::llm::open_in(&config, &options, &env(&[])).unwrap().unwrap();
    m.chat(&ask("x")).unwrap();
    m.chat(&ChatRequest { agent: "repair".into(), ..ask("y") }).unwrap();
    m.chat(&ChatRequest { agent: "repair".into(), ..ask("z") }).unwrap();
    m.chat(&ask("w")).unwrap_err();
    let s = meter.summary();
    assert_eq!(s.agents["developer"].requests, 1);
    assert_eq!(s.agents["developer"].failed_requests, 1);
    assert_eq!((s.agents["developer"].prompt_tokens, s.agents["developer"].completion_tokens), (1000, 200));
    assert_eq!((s.agents["repair"].requests, s.agents["repair"].prompt_tokens), (2, 3000));
    assert_eq!((s.total.requests, s.total.prompt_tokens, s.total.completion_tokens), (3, 4000, 300));
    assert!((s.total.cost.unwrap() - (4000.0 + 1200.0) / 1e6).abs() < 1e-12);
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["agents"]["repair"]["requests"], 2);
    assert_eq!(s.to_string(), "4000 tokens sent, 300 received in 3 requests (1 failed), cost 0.0052");
}

#[test]
fn the_transcript_has_every_exchange_and_never_the_key() {
    const KEY: &str = "sk-live-transcript-secret-42";
    let server = ScriptedServer::start([
        reply_tool_call("get_method", json!({"path": "A.java"})),
        reply_status(400, &format!("Incorrect API key provided: {KEY}")),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let path = mantra::llm::transcript::run_dir(dir.path()).join(mantra::llm::transcript::TRANSCRIPT_FILE);
    let mut config = Config::default();
    config.llm = self::config(&server);
    let options = LlmOptions { transcript: Some(path.clone()), ..LlmOptions::default() };
    let m = mantra::llm::open_in(&config, &options, &env(&[("MANTRA_API_KEY", KEY)])).unwrap().unwrap();
    m.chat(&with_tools("x")).unwrap();
    m.chat(&ChatRequest { agent: "repair".into(), ..ask("y") }).unwrap_err();
    assert_eq!(server.requests()[0].header("authorization"), Some(format!("Bearer {KEY}").as_str()));

    assert!(path.starts_with(dir.path().join(".mantra/runs")), "{}", path.display());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains(KEY), "{text}");
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!((lines[0]["seq"].as_u64(), lines[0]["agent"].as_str()), (Some(1), Some("developer")));
    assert_eq!(lines[0]["request"]["messages"][1]["content"], "x");
    assert_eq!(lines[0]["response"]["message"]["tool_calls"][0]["name"], "get_method");
    assert_eq!(lines[0]["usage"], json!({"prompt_tokens": 100, "completion_tokens": 20}));
    assert!(lines[0]["elapsed_ms"].is_u64() && lines[0]["started_ms"].is_u64());
    assert_eq!(lines[1]["agent"], "repair");
    assert!(lines[1]["error"].as_str().unwrap().contains("Incorrect API key provided: <redacted>"), "{}", lines[1]);
}

/// A short conversation: a tool call, its result, an answer; then a failing request.
fn conversation(m: &dyn ChatModel) -> Vec<String> {
    let mut out = Vec::new();
    let mut req = with_tools("Refactor A.");
    let r = m.chat(&req).unwrap();
    out.push(serde_json::to_string(&r).unwrap());
    req.messages.push(r.message.clone());
    req.messages.push(Message::tool(&r.message.tool_calls[0].id, "class A {}"));
    let r = m.chat(&req).unwrap();
    out.push(serde_json::to_string(&r).unwrap());
    out.push(m.chat(&ChatRequest { agent: "repair".into(), ..ask("fix") }).unwrap_err().to_string());
    out
}

#[test]
fn record_then_replay_gives_identical_answers() {
    let server = ScriptedServer::start([
        reply_tool_call("extract_method", json!({"path": "A.java", "start": 3})),
        reply_text("Done.").usage(Some((321, 45))),
        reply_status(422, "context too long"),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("rec");
    let recorded = conversation(&Recorder::create(&rec, http(&server)).unwrap());
    let mut files: Vec<String> =
        std::fs::read_dir(&rec).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    files.sort();
    assert_eq!(files, ["0001.json", "0002.json", "0003.json"]);
    let first: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(rec.join("0001.json")).unwrap()).unwrap();
    assert_eq!(first["index"], 1);
    assert_eq!(first["request_hash"].as_str().unwrap().len(), 16);
    assert_eq!(first["request"]["agent"], "developer");
    let third: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(rec.join("0003.json")).unwrap()).unwrap();
    assert_eq!(third["error"], json!({"kind": "refused", "status": 422, "message": "context too long"}));

    // Replay: no server at all, the same answers and errors, byte for byte.
    drop(server);
    let replayer = Replayer::open(&rec).unwrap();
    assert_eq!(conversation(&replayer), recorded);
    assert_eq!(replayer.remaining(), 0);

    // Through `open`, with usage accounting on top: the replayed tokens are the recorded ones.
    let meter = UsageMeter::default();
    let options = LlmOptions { replay: Some(rec.clone()), meter: Some(meter.clone()), ..LlmOptions::default() };
    let m: Arc<dyn ChatModel> = mantra::llm::open_in(&Config::default(), &options, &env(&[])).unwrap().unwrap();
    assert_eq!(conversation(m.as_ref()), recorded);
    assert_eq!(meter.summary().total.prompt_tokens, 100 + 321);

    // Recording again into the same folder is refused rather than mixed.
    let server = ScriptedServer::start([]);
    let err = Recorder::create(&rec, http(&server)).err().unwrap();
    assert!(err.to_string().contains("already holds a recording"), "{err}");
}

#[test]
fn a_diverging_replay_says_which_request_and_how() {
    let server = ScriptedServer::start([reply_text("one"), reply_text("two")]);
    let dir = tempfile::tempdir().unwrap();
    let recorder = Recorder::create(dir.path(), http(&server)).unwrap();
    recorder.chat(&ask("first question")).unwrap();
    recorder.chat(&ask("second question about class A {\n  int x;\n}")).unwrap();

    let replayer = Replayer::open(dir.path()).unwrap();
    assert_eq!(replayer.chat(&ask("first question")).unwrap().message.content.as_deref(), Some("one"));
    let err = replayer.chat(&ask("second question about class A {\n  int y;\n}")).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LlmError::ReplayMismatch { index: 2, .. }), "{err:?}");
    assert!(text.contains("has no answer for request 2"), "{text}");
    assert!(text.contains("message 2 (user) differs: at line 2"), "{text}");
    assert!(text.contains("int x") && text.contains("int y"), "{text}");
    use mantra::error::Classify;
    assert_eq!(err.exit(), mantra::exit::Exit::Usage);

    // The same request again still matches: a mismatch does not consume the recording.
    assert_eq!(
        replayer.chat(&ask("second question about class A {\n  int x;\n}")).unwrap().message.content.as_deref(),
        Some("two")
    );
    let err = replayer.chat(&ask("third")).unwrap_err();
    assert!(err.to_string().contains("the recorded run ended after 2 requests"), "{err}");

    let empty = tempfile::tempdir().unwrap();
    let err = Replayer::open(empty.path()).unwrap_err();
    assert!(err.to_string().contains("holds no recorded exchanges"), "{err}");
}

#[test]
fn open_picks_the_model_from_configuration_and_flags() {
    let none =
        |config: &Config, options: &LlmOptions| mantra::llm::open_in(config, options, &env(&[])).unwrap().is_none();
    assert!(none(&Config::default(), &LlmOptions::default()), "no base_url: the heuristic planner");
    let server = ScriptedServer::start([reply_text("hi")]);
    let mut config = Config::default();
    config.llm = self::config(&server);
    assert!(none(&config, &LlmOptions { none: true, ..LlmOptions::default() }), "--llm none");
    let m = mantra::llm::open_in(&config, &LlmOptions::default(), &env(&[("OPENAI_API_KEY", "sk-openai")]))
        .unwrap()
        .unwrap();
    assert_eq!(m.chat(&ask("x")).unwrap().message.content.as_deref(), Some("hi"));
    assert_eq!(server.requests()[0].header("authorization"), Some("Bearer sk-openai"));

    let dir = tempfile::tempdir().unwrap();
    let both = LlmOptions { record: Some(dir.path().into()), replay: Some(dir.path().into()), ..LlmOptions::default() };
    let err = mantra::llm::open_in(&config, &both, &env(&[])).err().unwrap();
    assert!(err.to_string().contains("cannot be used together"), "{err}");
    let record = LlmOptions { record: Some(dir.path().into()), ..LlmOptions::default() };
    let err = mantra::llm::open_in(&Config::default(), &record, &env(&[])).err().unwrap();
    assert!(matches!(err, LlmError::NotConfigured), "{err:?}");
    let mut bad = Config::default();
    bad.llm.base_url = Some("localhost:8000".into());
    let err = mantra::llm::open_in(&bad, &LlmOptions::default(), &env(&[])).err().unwrap();
    assert!(err.to_string().contains("must start with http:// or https://"), "{err}");
}
