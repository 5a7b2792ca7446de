//! A scripted OpenAI-compatible chat-completions server for tests: real HTTP/1.1 on 127.0.0.1,
//! real JSON, a queue of replies the test writes, and every request captured for assertions.
//!
//! The product cannot tell it from a provider: it speaks to it through `llm.base_url` like to any
//! other. A request that arrives when no scripted reply is left gets a 400 whose message says so
//! (not retried by the client), and the server panics when dropped, so a test whose product asked
//! more than the script expected fails loudly even if the product swallowed the error.
//!
//! ```ignore
//! let server = ScriptedServer::start([reply_status(429, "slow down").header("Retry-After", "1"), reply_text("hi")]);
//! let run = mantra_env(dir, &["refactor", ...], &server.env());
//! assert_eq!(server.requests()[1].body["temperature"], 0.0);
//! ```

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{Value as Json, json};

/// One scripted answer.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Wait this long before answering (longer than the client's timeout = a timeout).
    pub delay: Duration,
    /// Close the connection after this reply.
    pub close: bool,
}

impl Reply {
    /// A reply with this status and raw body (malformed JSON, HTML, an empty body ...).
    pub fn raw(status: u16, body: impl Into<Vec<u8>>) -> Reply {
        Reply { status, headers: Vec::new(), body: body.into(), delay: Duration::ZERO, close: false }
    }

    /// A reply with this status and JSON body.
    pub fn json(status: u16, body: &Json) -> Reply {
        Reply::raw(status, body.to_string())
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    pub fn delay(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }

    pub fn close(mut self) -> Reply {
        self.close = true;
        self
    }

    /// Replaces the `usage` of a chat-completion body (`None` removes it).
    pub fn usage(mut self, usage: Option<(u64, u64)>) -> Reply {
        let mut body: Json = serde_json::from_slice(&self.body).expect("usage() needs a JSON body");
        match usage {
            Some((p, c)) => body["usage"] = json!({"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}),
            None => {
                body.as_object_mut().expect("a JSON object").remove("usage");
            }
        }
        self.body = body.to_string().into_bytes();
        self
    }
}

/// Usage every built reply carries unless the test sets another.
pub const DEFAULT_USAGE: (u64, u64) = (100, 20);

fn completion(message: Json, finish_reason: &str) -> Reply {
    Reply::json(
        200,
        &json!({
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": "scripted",
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": DEFAULT_USAGE.0, "completion_tokens": DEFAULT_USAGE.1,
                      "total_tokens": DEFAULT_USAGE.0 + DEFAULT_USAGE.1}
        }),
    )
}

/// The assistant answers with text.
pub fn reply_text(text: &str) -> Reply {
    completion(json!({"role": "assistant", "content": text}), "stop")
}

/// The assistant calls one tool; `arguments` is sent as JSON text, as OpenAI does.
pub fn reply_tool_call(name: &str, arguments: Json) -> Reply {
    reply_tool_calls(&[(name, arguments)])
}

/// The assistant calls several tools at once (ids `call_1`, `call_2`, ...).
pub fn reply_tool_calls(calls: &[(&str, Json)]) -> Reply {
    let calls: Vec<Json> = calls
        .iter()
        .enumerate()
        .map(|(i, (name, args))| {
            json!({"id": format!("call_{}", i + 1), "type": "function",
                   "function": {"name": name, "arguments": args.to_string()}})
        })
        .collect();
    completion(json!({"role": "assistant", "content": null, "tool_calls": calls}), "tool_calls")
}

/// The assistant calls a tool with arguments as raw text (which need not be JSON: a malformed call).
pub fn reply_tool_call_raw(name: &str, arguments: &str) -> Reply {
    let call = json!({"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}});
    completion(json!({"role": "assistant", "content": null, "tool_calls": [call]}), "tool_calls")
}

/// An error in OpenAI's shape: `{"error": {"message": ..., "type": ..., "code": ...}}`.
pub fn reply_status(status: u16, message: &str) -> Reply {
    Reply::json(status, &json!({"error": {"message": message, "type": "scripted_error", "code": status}}))
}

/// One request as the server received it.
#[derive(Debug, Clone)]
pub struct CapturedRequest {
    pub method: String,
    pub path: String,
    /// Header names in lower case, in arrival order.
    pub headers: Vec<(String, String)>,
    pub raw_body: String,
    /// The body parsed as JSON (`Null` when it is not JSON).
    pub body: Json,
}

impl CapturedRequest {
    /// A header's value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
    }

    /// The names of the tools the request offered.
    pub fn tool_names(&self) -> Vec<String> {
        self.body["tools"]
            .as_array()
            .map(|t| t.iter().filter_map(|t| t["function"]["name"].as_str().map(str::to_string)).collect())
            .unwrap_or_default()
    }

    /// The `content` of the last message.
    pub fn last_content(&self) -> String {
        self.body["messages"].as_array().and_then(|m| m.last()).and_then(|m| m["content"].as_str()).unwrap_or("").into()
    }
}

#[derive(Default)]
struct State {
    replies: VecDeque<Reply>,
    requests: Vec<CapturedRequest>,
    /// Requests that found no reply left: the test fails on drop.
    unexpected: Vec<String>,
}

/// The server. Dropping it stops it; it panics then if a request found no scripted reply.
pub struct ScriptedServer {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    accept: Option<thread::JoinHandle<()>>,
}

impl ScriptedServer {
    /// Starts serving on 127.0.0.1 (a free port) with these replies queued.
    pub fn start(replies: impl IntoIterator<Item = Reply>) -> ScriptedServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local addr");
        let state = Arc::new(Mutex::new(State { replies: replies.into_iter().collect(), ..State::default() }));
        let stop = Arc::new(AtomicBool::new(false));
        let accept = {
            let (state, stop) = (state.clone(), stop.clone());
            thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let state = state.clone();
                    thread::spawn(move || serve_connection(stream, &state));
                }
            })
        };
        ScriptedServer { addr, state, stop, accept: Some(accept) }
    }

    /// Queues another reply.
    pub fn push(&self, reply: Reply) {
        self.state.lock().unwrap().replies.push_back(reply);
    }

    /// `http://127.0.0.1:PORT/v1`, for `llm.base_url`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The environment that points mantra at this server (for `harness::mantra_env`).
    pub fn env(&self) -> Vec<(String, String)> {
        vec![
            ("MANTRA_LLM_BASE_URL".to_string(), self.base_url()),
            ("MANTRA_LLM_MODEL".to_string(), "scripted-model".to_string()),
        ]
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<CapturedRequest> {
        self.state.lock().unwrap().requests.clone()
    }

    /// How many scripted replies are still queued.
    pub fn remaining(&self) -> usize {
        self.state.lock().unwrap().replies.len()
    }

    /// Asserts every scripted reply was used and no request went unanswered.
    pub fn assert_done(&self) {
        let state = self.state.lock().unwrap();
        assert!(state.unexpected.is_empty(), "requests without a scripted reply: {:#?}", state.unexpected);
        assert!(state.replies.is_empty(), "{} scripted replies were never requested", state.replies.len());
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
        let unexpected = std::mem::take(&mut self.state.lock().unwrap().unexpected);
        if !unexpected.is_empty() && !thread::panicking() {
            panic!("the scripted model server got requests it had no reply for:\n{}", unexpected.join("\n"));
        }
    }
}

/// Serves requests on one connection until the client or a reply closes it.
fn serve_connection(stream: TcpStream, state: &Mutex<State>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
    let Ok(mut writer) = stream.try_clone() else { return };
    let mut reader = BufReader::new(stream);
    loop {
        let Some((request, client_close)) = read_request(&mut reader) else { return };
        let reply = {
            let mut st = state.lock().unwrap();
            let index = st.requests.len() + 1;
            let summary = format!("request #{index}: {} {} {}", request.method, request.path, request.last_content());
            st.requests.push(request);
            match st.replies.pop_front() {
                Some(r) => r,
                None => {
                    st.unexpected.push(summary.clone());
                    reply_status(400, &format!("scripted test server: no reply left for {summary}"))
                }
            }
        };
        if !reply.delay.is_zero() {
            thread::sleep(reply.delay);
        }
        let close = client_close || reply.close;
        let mut head = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
        head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", reply.body.len()));
        for (k, v) in &reply.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(if close { "Connection: close\r\n\r\n" } else { "Connection: keep-alive\r\n\r\n" });
        // The client may have given up (a scripted timeout): write errors end the connection quietly.
        if writer
            .write_all(head.as_bytes())
            .and_then(|_| writer.write_all(&reply.body))
            .and_then(|_| writer.flush())
            .is_err()
            || close
        {
            return;
        }
    }
}

/// Reads one request: request line, headers, a `Content-Length` body. `None` at end of stream.
fn read_request(reader: &mut BufReader<TcpStream>) -> Option<(CapturedRequest, bool)> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end_matches(['\r', '\n']);
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let get = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    assert!(
        get("transfer-encoding").is_none(),
        "the scripted server reads Content-Length bodies only; got Transfer-Encoding for {method} {path}"
    );
    let len: usize = get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0u8; len];
    reader.read_exact(&mut body).ok()?;
    let raw_body = String::from_utf8_lossy(&body).into_owned();
    let close = get("connection").is_some_and(|v| v.eq_ignore_ascii_case("close"));
    let body = serde_json::from_str(&raw_body).unwrap_or(Json::Null);
    Some((CapturedRequest { method, path, headers, raw_body, body }, close))
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Scripted",
    }
}
