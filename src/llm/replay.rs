//! Record and replay: any run can be reproduced offline, byte for byte.
//!
//! `--llm-record DIR` wraps the real model in a [`Recorder`], which writes each exchange, in
//! order, to `DIR/0001.json`, `DIR/0002.json`, ...: the request as the agents built it, a hash of
//! it, and the answer (or the error, so failing runs replay too). `--llm-replay DIR` puts a
//! [`Replayer`] where the model was: it answers the n-th request with the n-th recorded answer,
//! after checking the request is the one recorded. When the run diverges (other code, prompts,
//! configuration or tool results) it stops with [`LlmError::ReplayMismatch`], naming the exchange
//! and the first difference, instead of answering a question that was never asked.
//!
//! Recording sits above the tool-calling protocol and below usage accounting and the transcript,
//! so a replay needs neither a server nor the protocol, and reports the same tokens and cost.
//! Exchanges are numbered in the order answers arrive, so replay assumes one request at a time,
//! which is how the agents work.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use super::{ChatModel, ChatRequest, ChatResponse, LlmError};

/// One recorded exchange, as stored in `NNNN.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Exchange {
    /// 1 for the first request of the run.
    pub index: usize,
    /// [`request_hash`] of `request`.
    pub request_hash: String,
    pub request: ChatRequest,
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// How a recorded request ended.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Response(ChatResponse),
    Error(RecordedError),
}

/// The errors a model can answer with, in a form that survives a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RecordedError {
    Refused { status: u16, message: String },
    Unavailable { attempts: u32, last: String },
    Malformed { message: String },
}

impl RecordedError {
    fn from_error(e: &LlmError) -> Option<RecordedError> {
        Some(match e {
            LlmError::Refused { status, message } => {
                RecordedError::Refused { status: *status, message: message.clone() }
            }
            LlmError::Unavailable { attempts, last } => {
                RecordedError::Unavailable { attempts: *attempts, last: last.clone() }
            }
            LlmError::Malformed(m) => RecordedError::Malformed { message: m.clone() },
            _ => return None,
        })
    }

    fn to_error(&self) -> LlmError {
        match self.clone() {
            RecordedError::Refused { status, message } => LlmError::Refused { status, message },
            RecordedError::Unavailable { attempts, last } => LlmError::Unavailable { attempts, last },
            RecordedError::Malformed { message } => LlmError::Malformed(message),
        }
    }
}

/// A stable fingerprint of a request: FNV-1a (64 bits) of its JSON, in hex. It only needs to tell
/// requests apart, not resist an adversary.
pub fn request_hash(request: &ChatRequest) -> String {
    let text = serde_json::to_string(request).unwrap_or_default();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn file_name(index: usize) -> String {
    format!("{index:04}.json")
}

/// The exchange number of a recording file's name (`0007.json` → 7).
fn index_of(name: &str) -> Option<usize> {
    let stem = name.strip_suffix(".json")?;
    if stem.is_empty() || !stem.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    stem.parse().ok()
}

/// A model whose exchanges are written to a folder.
pub struct Recorder<M> {
    inner: M,
    dir: PathBuf,
    count: Mutex<usize>,
}

impl<M: ChatModel> Recorder<M> {
    /// Records into `dir`, creating it. A folder that already holds a recording is refused rather
    /// than mixed with a new one.
    pub fn create(dir: &Path, inner: M) -> Result<Recorder<M>, LlmError> {
        let io = |source| LlmError::Io { what: "cannot create the recording folder", path: dir.to_path_buf(), source };
        std::fs::create_dir_all(dir).map_err(io)?;
        let taken = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(Result::ok)
            .any(|e| e.file_name().to_str().and_then(index_of).is_some());
        if taken {
            return Err(LlmError::Config(format!(
                "{} already holds a recording; record into an empty or new folder",
                dir.display()
            )));
        }
        Ok(Recorder { inner, dir: dir.to_path_buf(), count: Mutex::new(0) })
    }
}

impl<M: ChatModel> ChatModel for Recorder<M> {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let result = self.inner.chat(request);
        let outcome = match &result {
            Ok(r) => Outcome::Response(r.clone()),
            Err(e) => match RecordedError::from_error(e) {
                Some(recorded) => Outcome::Error(recorded),
                None => return result,
            },
        };
        let mut count = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        let index = *count + 1;
        let exchange = Exchange { index, request_hash: request_hash(request), request: request.clone(), outcome };
        let path = self.dir.join(file_name(index));
        let text = serde_json::to_string_pretty(&exchange).map_err(std::io::Error::other);
        let text = text.map(|t| crate::redact::scrub(&t).into_owned());
        text.and_then(|t| std::fs::write(&path, t + "\n")).map_err(|source| LlmError::Io {
            what: "cannot write the recording",
            path,
            source,
        })?;
        *count = index;
        result
    }
}

/// A model that answers from a recording, in order.
#[derive(Debug)]
pub struct Replayer {
    dir: PathBuf,
    exchanges: Vec<Exchange>,
    next: Mutex<usize>,
}

impl Replayer {
    /// Reads every exchange recorded in `dir`; they must be numbered 1, 2, ... without gaps.
    pub fn open(dir: &Path) -> Result<Replayer, LlmError> {
        let mut files: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
            .map_err(|source| LlmError::NoRecording { dir: dir.to_path_buf(), source })?
            .filter_map(Result::ok)
            .filter_map(|e| Some((index_of(e.file_name().to_str()?)?, e.path())))
            .collect();
        files.sort();
        let mismatch = |index, why: String| LlmError::ReplayMismatch { dir: dir.to_path_buf(), index, why };
        if files.is_empty() {
            return Err(mismatch(1, "the folder holds no recorded exchanges (0001.json, ...)".into()));
        }
        let mut exchanges = Vec::with_capacity(files.len());
        for (n, (index, path)) in files.iter().enumerate() {
            if *index != n + 1 {
                return Err(mismatch(n + 1, format!("the recording is incomplete: {} is missing", file_name(n + 1))));
            }
            let text = std::fs::read_to_string(path).map_err(|source| LlmError::Io {
                what: "cannot read the recording",
                path: path.clone(),
                source,
            })?;
            let exchange: Exchange = serde_json::from_str(&text)
                .map_err(|e| mismatch(*index, format!("{} is not a recorded exchange: {e}", path.display())))?;
            exchanges.push(exchange);
        }
        Ok(Replayer { dir: dir.to_path_buf(), exchanges, next: Mutex::new(0) })
    }

    /// Recorded exchanges not replayed yet.
    pub fn remaining(&self) -> usize {
        self.exchanges.len() - *self.next.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl ChatModel for Replayer {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let mut next = self.next.lock().unwrap_or_else(PoisonError::into_inner);
        let index = *next + 1;
        let mismatch = |why: String| LlmError::ReplayMismatch { dir: self.dir.clone(), index, why };
        let Some(recorded) = self.exchanges.get(*next) else {
            return Err(mismatch(format!(
                "the recorded run ended after {} requests; this run asks more (agent {})",
                self.exchanges.len(),
                request.agent
            )));
        };
        if request_hash(request) != recorded.request_hash || *request != recorded.request {
            return Err(mismatch(difference(&recorded.request, request)));
        }
        *next = index;
        match &recorded.outcome {
            Outcome::Response(r) => Ok(r.clone()),
            Outcome::Error(e) => Err(e.to_error()),
        }
    }
}

/// The first way `now` differs from `recorded`, in words.
pub fn difference(recorded: &ChatRequest, now: &ChatRequest) -> String {
    if recorded.agent != now.agent {
        return format!("the recorded request came from agent {}, this one from agent {}", recorded.agent, now.agent);
    }
    for (i, (r, n)) in recorded.messages.iter().zip(&now.messages).enumerate() {
        if r == n {
            continue;
        }
        let what = format!("message {} ({:?})", i + 1, r.role).to_lowercase();
        if r.role != n.role {
            return format!("{what} was {:?} when recorded, {:?} now", r.role, n.role);
        }
        if r.content != n.content {
            let (a, b) = (r.content.as_deref().unwrap_or(""), n.content.as_deref().unwrap_or(""));
            return format!("{what} differs: {}", text_difference(a, b));
        }
        if r.tool_calls != n.tool_calls {
            return format!("{what} has other tool calls: recorded {:?}, now {:?}", r.tool_calls, n.tool_calls);
        }
        return format!("{what} answers tool call {:?} when recorded, {:?} now", r.tool_call_id, n.tool_call_id);
    }
    if recorded.messages.len() != now.messages.len() {
        return format!(
            "the recorded request had {} messages, this one has {}",
            recorded.messages.len(),
            now.messages.len()
        );
    }
    if recorded.tools != now.tools {
        let names = |r: &ChatRequest| r.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>().join(", ");
        let (a, b) = (names(recorded), names(now));
        if a != b {
            return format!("the tools offered differ: recorded [{a}], now [{b}]");
        }
        return "a tool's description or JSON schema differs".into();
    }
    if recorded.tool_choice != now.tool_choice {
        return format!("tool_choice was {:?} when recorded, {:?} now", recorded.tool_choice, now.tool_choice);
    }
    "the request's JSON differs from the recorded one".into()
}

/// Where two texts part: the line and a little of each side.
fn text_difference(recorded: &str, now: &str) -> String {
    let at = recorded
        .char_indices()
        .zip(now.chars())
        .find(|((_, a), b)| a != b)
        .map_or_else(|| recorded.len().min(now.len()), |((i, _), _)| i);
    let line = recorded[..at].matches('\n').count() + 1;
    let excerpt = |s: &str| -> String {
        let start = s[..at.min(s.len())].char_indices().rev().nth(20).map_or(0, |(i, _)| i);
        let tail: String = s[start..].chars().take(60).collect();
        format!("{tail:?}")
    };
    format!("at line {line}: recorded {}, now {}", excerpt(recorded), excerpt(now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Message;

    fn req(agent: &str, texts: &[&str]) -> ChatRequest {
        ChatRequest {
            agent: agent.into(),
            messages: texts.iter().map(|t| Message::user(*t)).collect(),
            tools: Vec::new(),
            tool_choice: None,
        }
    }

    #[test]
    fn hashes_tell_requests_apart() {
        assert_eq!(request_hash(&req("a", &["x"])), request_hash(&req("a", &["x"])));
        assert_ne!(request_hash(&req("a", &["x"])), request_hash(&req("a", &["y"])));
        assert_eq!(request_hash(&req("a", &["x"])).len(), 16);
    }

    #[test]
    fn differences_in_words() {
        let d = difference(
            &req("developer", &["a", "class A {\n  int x;\n}"]),
            &req("developer", &["a", "class A {\n  int y;\n}"]),
        );
        assert!(d.starts_with("message 2 (user) differs: at line 2:"), "{d}");
        assert!(d.contains("int x") && d.contains("int y"), "{d}");
        let d = difference(&req("developer", &["a"]), &req("repair", &["a"]));
        assert!(d.contains("agent developer") && d.contains("agent repair"), "{d}");
        let d = difference(&req("r", &["a"]), &req("r", &["a", "b"]));
        assert_eq!(d, "the recorded request had 1 messages, this one has 2");
    }

    #[test]
    fn file_names() {
        assert_eq!(index_of(&file_name(7)), Some(7));
        assert_eq!(index_of("12345.json"), Some(12345));
        assert_eq!(index_of("notes.json"), None);
        assert_eq!(index_of(".json"), None);
    }

    /// A folder that is not there is the user's mistake (exit 2), told with what to pass instead;
    /// an empty folder says what it should hold.
    #[test]
    fn a_missing_or_empty_recording_is_a_usage_error_with_a_hint() {
        use crate::error::Classify;
        use crate::exit::Exit;
        let missing = std::env::temp_dir().join(format!("mantra-no-recording-{}", std::process::id()));
        let err = Replayer::open(&missing).unwrap_err();
        assert!(matches!(err, LlmError::NoRecording { .. }), "{err:?}");
        assert_eq!(err.exit(), Exit::Usage);
        assert!(err.to_string().contains(&missing.display().to_string()), "{err}");
        assert!(err.hint().is_some_and(|h| h.contains("--llm-record")), "{:?}", err.hint());
        let empty = tempfile::tempdir().unwrap();
        let err = Replayer::open(empty.path()).unwrap_err();
        assert!(matches!(err, LlmError::ReplayMismatch { .. }) && err.exit() == Exit::Usage, "{err:?}");
    }
}
