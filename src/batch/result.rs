//! The per-task result: one JSON object per line of `results.jsonl`, written as each task ends.
//!
//! A line is appended and flushed when its task finishes, so an interrupted batch keeps every
//! finished result and `--resume` continues from them. What was not measured is `null`, never a
//! made-up value: CodeBLEU and identity when either side has no code (the engine refused, or the
//! detector did not find our refactoring to tell which methods are ours), AST precision/recall
//! when there is no change, tokens and cost without a model, `compiled`/`tests_passed` when the
//! build never ran.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::BatchError;

/// One task's outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskResult {
    pub id: String,
    pub project: String,
    /// `oracle`, `planner`, `llm`.
    pub mode: String,
    pub commit: String,
    pub parent: Option<String>,
    /// The refactoring, as on the command line (`extract-method`).
    #[serde(rename = "type")]
    pub kind: String,
    /// `a.b.Class.method`.
    pub method: String,
    /// The human's refactoring, as RefactoringMiner describes it.
    pub description: String,
    /// The spec the engine applied (`--spec llm`: the Developer's last engine call of the task's
    /// type, else its last engine call; `null` when the model wrote the code itself).
    pub spec: Option<serde_json::Value>,
    /// The build compiled the change; `null` when it never got that far.
    pub compiled: Option<bool>,
    /// Every test that passed before passes after; `null` when the tests never ran.
    pub tests_passed: Option<bool>,
    /// The detector (or RefactoringMiner, when configured) found the intended refactoring.
    pub verified: Option<bool>,
    /// Compiled, tests passed and verified.
    pub success: bool,
    /// CodeBLEU of our code against the human's.
    pub codebleu: Option<CodeBleuScores>,
    pub ast_precision: Option<f64>,
    pub ast_recall: Option<f64>,
    /// Our code equals the human's after normalising whitespace and comments.
    pub identical: Option<bool>,
    /// Milliseconds per stage: `checkout`, `spec`, `engine`, `baseline`, `detection`, `style`,
    /// `compile`, `tests`, `metrics`, `total`; with a model also `model`. For `--spec llm`, `spec`
    /// is the agents' whole run, their builds included (those are also counted under `baseline`,
    /// `style`, `compile` and `tests`).
    pub times_ms: BTreeMap<String, u64>,
    /// `total` minus the external builds, Checkstyle and model calls: mantra's own time.
    pub overhead_ms: u64,
    pub prompt_tokens: Option<u64>,
    pub completion_tokens: Option<u64>,
    pub cost: Option<f64>,
    /// Why it failed: `no-target`, `no-spec`, `refused`, `no-change`, `broken-baseline`, `style`, `compile`,
    /// `tests`, `not-verified`, `timeout`, `error`; `null` on success.
    pub failure: Option<String>,
    /// The first diagnostic (compiler error, failing test, refusal, detector's reason).
    pub diagnostic: Option<String>,
    /// Our change as a unified diff (empty when the engine produced none).
    pub diff: String,
    /// Our code for the metrics: the methods our change produced.
    pub our_code: Option<String>,
    /// The human's code for the metrics.
    pub human_code: Option<String>,
    /// `--spec oracle`: where the human's spec came from: `detector` (the refactoring the detector
    /// found in the commit) or `record` (the task file's record itself, when the detector missed
    /// it); absent in the other modes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec_origin: Option<String>,
    /// `--spec llm`: how the agents' own run went; absent in the other modes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<AgentRun>,
}

impl TaskResult {
    /// The result of `task` in mode `mode` before anything ran: nothing measured, not a success.
    pub fn unstarted(task: &super::task::Task, mode: &str, parent: Option<String>) -> TaskResult {
        TaskResult {
            id: task.id.clone(),
            project: task.project.clone(),
            mode: mode.to_string(),
            commit: task.commit.clone(),
            parent,
            kind: task.kind.name().to_string(),
            method: format!("{}.{}", task.class, task.method),
            description: task.description.clone(),
            spec: None,
            compiled: None,
            tests_passed: None,
            verified: None,
            success: false,
            codebleu: None,
            ast_precision: None,
            ast_recall: None,
            identical: None,
            times_ms: Default::default(),
            overhead_ms: 0,
            prompt_tokens: None,
            completion_tokens: None,
            cost: None,
            failure: None,
            diagnostic: None,
            diff: String::new(),
            our_code: None,
            human_code: task.human_code.clone(),
            spec_origin: None,
            agents: None,
        }
    }
}

/// The agents' account of a task (`--spec llm`), beside the batch's own measures of their change.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct AgentRun {
    /// The agents' verdict: `accepted`, `rejected`, `unverified`, `broken-baseline`.
    pub status: String,
    /// Why, when rejected.
    pub reason: Option<String>,
    /// Developer turns.
    pub rounds: u32,
    /// Repair attempts.
    pub repairs: u32,
    /// The engine refactorings the Developer applied, in order (`extract-method`).
    pub engine: Vec<String>,
    /// Files the model wrote whole (`write_file`).
    pub written: Vec<String>,
    /// Model requests per agent (`developer`, `repair`, `raw`).
    pub requests: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CodeBleuScores {
    pub score: f64,
    pub ngram: f64,
    pub weighted_ngram: f64,
    pub syntax: f64,
    pub dataflow: f64,
}

/// Reads `results.jsonl`; a torn last line (the process was killed while writing it) is skipped.
pub fn read(path: &Path) -> Result<Vec<TaskResult>, BatchError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(BatchError::Io { what: "cannot read", path: path.to_path_buf(), source: e }),
    };
    Ok(text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect())
}

/// Rewrites `results.jsonl` with `results` (atomically: a temporary file renamed over it).
pub fn rewrite(path: &Path, results: &[TaskResult]) -> Result<(), BatchError> {
    let mut text = String::new();
    for r in results {
        text.push_str(&line(r));
    }
    write_atomically(path, text.as_bytes())
}

/// Appends one result and flushes it to disk.
pub fn append(path: &Path, result: &TaskResult) -> Result<(), BatchError> {
    let io = |e| BatchError::Io { what: "cannot write", path: path.to_path_buf(), source: e };
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(io)?;
    f.write_all(line(result).as_bytes()).map_err(io)?;
    f.sync_data().map_err(io)
}

fn line(r: &TaskResult) -> String {
    // A struct of strings, numbers, options and maps with string keys always serialises.
    let mut s = serde_json::to_string(r).unwrap_or_default();
    crate::redact::scrub_string(&mut s);
    s.push('\n');
    s
}

pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), BatchError> {
    let tmp = path.with_extension("tmp");
    let io = |e| BatchError::Io { what: "cannot write", path: path.to_path_buf(), source: e };
    std::fs::write(&tmp, crate::redact::scrub_bytes(bytes)).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}
