//! A run's conversation with the model, one JSON line per request, for reading after the fact
//! (why did the Developer do that?) and for support.
//!
//! Each line holds the sequence number, the agent, when the request started (milliseconds since
//! the transcript was opened) and how long it took, the request as the agents built it, and the
//! answer with its usage or the error. The API key is never in it: each line passes
//! [`crate::redact::scrub`]. Lines are flushed one by one, so a crashed run
//! leaves every finished exchange behind.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use serde::Serialize;

use super::{ChatModel, ChatRequest, ChatResponse, LlmError, Usage};

/// The transcript's file name inside a run folder.
pub const TRANSCRIPT_FILE: &str = "transcript.jsonl";

/// The most a transcript holds. Each line repeats the conversation so far, so a long run (or a
/// model that answers megabytes) could otherwise fill the disk; past this bound one last line
/// says the transcript was cut, and later exchanges are not kept.
pub const TRANSCRIPT_LIMIT: u64 = 32 * 1024 * 1024;

pub use crate::config::run_dir;

#[derive(Serialize)]
struct Line<'a> {
    seq: u64,
    agent: &'a str,
    started_ms: u64,
    elapsed_ms: u64,
    request: &'a ChatRequest,
    #[serde(skip_serializing_if = "Option::is_none")]
    response: Option<&'a ChatResponse>,
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<Usage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// A model whose every exchange is appended to a JSONL file, up to [`TRANSCRIPT_LIMIT`] bytes.
pub struct Transcript<M> {
    inner: M,
    path: PathBuf,
    file: Mutex<Sink>,
    seq: AtomicU64,
    opened: Instant,
}

struct Sink {
    file: File,
    written: u64,
    limit: u64,
    /// The bound was reached and said so: nothing more is written.
    cut: bool,
}

impl Sink {
    /// Appends `line` (newline included) if it fits; else, once, a line saying the rest was cut.
    fn append(&mut self, seq: u64, line: &str) -> std::io::Result<()> {
        if self.cut {
            return Ok(());
        }
        if self.written + line.len() as u64 <= self.limit {
            self.written += line.len() as u64;
            return self.file.write_all(line.as_bytes());
        }
        self.cut = true;
        let note = serde_json::json!({
            "seq": seq,
            "truncated": format!(
                "the transcript reached its bound of {} bytes; exchange {seq} and later ones are not kept",
                self.limit
            ),
        });
        writeln!(self.file, "{note}")
    }
}

impl<M: ChatModel> Transcript<M> {
    /// Creates (or truncates) the file at `path`, making its folder if needed.
    pub fn create(path: &Path, inner: M) -> Result<Transcript<M>, LlmError> {
        let io = |source| LlmError::Io { what: "cannot create the transcript", path: path.to_path_buf(), source };
        if let Some(parent) = path.parent() {
            crate::config::create_state_dir(parent).map_err(io)?;
        }
        let file = File::create(path).map_err(io)?;
        Ok(Transcript {
            inner,
            path: path.to_path_buf(),
            file: Mutex::new(Sink { file, written: 0, limit: TRANSCRIPT_LIMIT, cut: false }),
            seq: AtomicU64::new(0),
            opened: Instant::now(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The same transcript with another bound in bytes (tests use a small one).
    pub fn with_limit(self, limit: u64) -> Transcript<M> {
        self.file.lock().unwrap_or_else(PoisonError::into_inner).limit = limit;
        self
    }
}

impl<M: ChatModel> ChatModel for Transcript<M> {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let started = Instant::now();
        let result = self.inner.chat(request);
        let seq = self.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let line = Line {
            seq,
            agent: &request.agent,
            started_ms: started.duration_since(self.opened).as_millis() as u64,
            elapsed_ms: started.elapsed().as_millis() as u64,
            request,
            response: result.as_ref().ok(),
            usage: result.as_ref().ok().map(|r| r.usage),
            error: result.as_ref().err().map(ToString::to_string),
        };
        let written = serde_json::to_string(&line).map_err(std::io::Error::other).and_then(|mut text| {
            crate::redact::scrub_string(&mut text);
            text.push('\n');
            self.file.lock().unwrap_or_else(PoisonError::into_inner).append(seq, &text)
        });
        // A transcript that cannot be written must not end a run the model is serving well.
        if let Err(e) = written {
            tracing::warn!("cannot write the transcript {}: {e}", self.path.display());
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Loud;
    impl ChatModel for Loud {
        fn chat(&self, _: &ChatRequest) -> Result<ChatResponse, LlmError> {
            Ok(ChatResponse {
                message: crate::llm::Message::assistant("x".repeat(1000)),
                usage: Usage::default(),
                finish_reason: None,
            })
        }
    }

    /// Issue 14, defect 10: a 2 MB answer re-sent in every request made a 21 MB transcript.
    #[test]
    fn a_transcript_stops_at_its_bound_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(TRANSCRIPT_FILE);
        let t = Transcript::create(&path, Loud).unwrap().with_limit(5_000);
        let request =
            ChatRequest { agent: "developer".into(), messages: Vec::new(), tools: Vec::new(), tool_choice: None };
        for _ in 0..10 {
            assert!(t.chat(&request).is_ok(), "the run goes on past the bound");
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert!(text.len() <= 5_000 + 200, "{}", text.len());
        let (note, kept) = lines.split_last().unwrap();
        assert!((3..10).contains(&kept.len()), "exchanges of over 1 KB each, then the note: {}", lines.len());
        assert!(kept.iter().all(|l| l["response"].is_object()));
        assert_eq!(note["seq"], kept.len() + 1);
        let said = format!("exchange {} and later", kept.len() + 1);
        assert!(note["truncated"].as_str().unwrap().contains(&said), "{note}");
    }
}
