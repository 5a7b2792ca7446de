//! A run's conversation with the model, one JSON line per request, for reading after the fact
//! (why did the Developer do that?) and for support.
//!
//! Each line holds the sequence number, the agent, when the request started (milliseconds since
//! the transcript was opened) and how long it took, the request as the agents built it, and the
//! answer with its usage or the error. The API key is never in it: requests do not carry it and
//! the HTTP client scrubs it from its errors. Lines are flushed one by one, so a crashed run
//! leaves every finished exchange behind.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::Serialize;

use super::{ChatModel, ChatRequest, ChatResponse, LlmError, Usage};

/// The transcript's file name inside a run folder.
pub const TRANSCRIPT_FILE: &str = "transcript.jsonl";

/// A fresh run folder, `.mantra/runs/<UTC timestamp>-<pid>` under `repo` (not created).
pub fn run_dir(repo: &Path) -> PathBuf {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    repo.join(crate::config::STATE_DIR).join("runs").join(format!("{}-{}", utc_stamp(secs), std::process::id()))
}

/// `20261122T101500Z` for seconds since the epoch (Howard Hinnant's days-to-civil algorithm).
fn utc_stamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

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

/// A model whose every exchange is appended to a JSONL file.
pub struct Transcript<M> {
    inner: M,
    path: PathBuf,
    file: Mutex<File>,
    seq: AtomicU64,
    opened: Instant,
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
            file: Mutex::new(file),
            seq: AtomicU64::new(0),
            opened: Instant::now(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl<M: ChatModel> ChatModel for Transcript<M> {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let started = Instant::now();
        let result = self.inner.chat(request);
        let line = Line {
            seq: self.seq.fetch_add(1, Ordering::SeqCst) + 1,
            agent: &request.agent,
            started_ms: started.duration_since(self.opened).as_millis() as u64,
            elapsed_ms: started.elapsed().as_millis() as u64,
            request,
            response: result.as_ref().ok(),
            usage: result.as_ref().ok().map(|r| r.usage),
            error: result.as_ref().err().map(ToString::to_string),
        };
        let written = serde_json::to_string(&line).map_err(std::io::Error::other).and_then(|mut text| {
            text.push('\n');
            let mut file = self.file.lock().unwrap_or_else(PoisonError::into_inner);
            file.write_all(text.as_bytes())
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

    #[test]
    fn utc_stamps() {
        assert_eq!(utc_stamp(0), "19700101T000000Z");
        assert_eq!(utc_stamp(951_782_400), "20000229T000000Z");
        assert_eq!(utc_stamp(1_795_350_896), "20261122T123456Z");
    }
}
