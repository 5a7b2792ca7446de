//! `mantra batch`: replay real developers' refactorings and score mantra against them.
//!
//! Tasks come from commits ([`task::from_commit`]: the detector finds the human's refactorings) or
//! from a PureRefactor / SWE-Refactor task file ([`task::read_task_file`]). Each runs at its
//! parent commit in a shared checkout ([`checkout`]) with a spec from a [`source::SpecSource`]
//! (the human's, the planner's or the agents' of [`agents`]), through the engine and the Reviewer
//! ([`execute`]), into one line of `results.jsonl` ([`result`]), and the reports ([`report`]) are
//! rewritten after every task. [`run`] schedules the tasks over `--jobs` threads with a progress
//! line on stderr ([`progress`]).

pub mod agents;
pub mod checkout;
pub mod execute;
pub mod lock;
pub mod progress;
pub mod report;
pub mod result;
pub mod source;
pub mod suggest_eval;
pub mod task;
pub mod wire_eval;

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::error::Classify;
use crate::exit::Exit;

pub use lock::{OutLock, lock_out};
pub use result::TaskResult;
pub use source::{Proposal, SpecMode, SpecSource};
pub use task::{Commit, Task};

/// What stops a batch as a whole (a task's own failure is a result, not an error).
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("--spec llm needs a model, and none is configured")]
    NoModel,
    #[error("--llm-record, --llm-replay, --llm, --no-rag, --no-review, --no-repair and --baseline need --spec llm")]
    AgentFlagsWithoutAgents,
    #[error("--llm-record and --llm-replay need --jobs 1: the exchanges are recorded and replayed in order")]
    RecordingNeedsOneJob,
    #[error("{}: {message}", path.display())]
    Input { path: PathBuf, message: String },
    #[error("{}: no such file", path.display())]
    Missing { path: PathBuf, flag: &'static str },
    #[error("--range {range}: {message}")]
    Range { range: String, message: String },
    #[error("commit {rev}: {message}")]
    Commit { rev: String, message: String },
    #[error("`{command}` failed: {message}")]
    Git { command: String, message: String },
    #[error("{what} {}: {source}", path.display())]
    Io { what: &'static str, path: PathBuf, source: std::io::Error },
    #[error("--fail-on {0}: expected never, errors, any or rate:R with R between 0 and 1")]
    Policy(String),
    #[error("no tasks: {0}")]
    NoTasks(String),
    #[error("{} is in use by another mantra batch{}", out.display(), holder.map(|p| format!(" (process {p})")).unwrap_or_default())]
    Busy { out: PathBuf, holder: Option<u32> },
}

impl Classify for BatchError {
    fn exit(&self) -> Exit {
        match self {
            // Asked for a mode the configuration does not support: fixed by configuration, like a
            // bad flag, and refused before any work (exit 2, not 4: nothing is missing from the machine).
            BatchError::NoModel
            | BatchError::AgentFlagsWithoutAgents
            | BatchError::RecordingNeedsOneJob
            | BatchError::Input { .. }
            | BatchError::Range { .. }
            | BatchError::Policy(_) => Exit::Usage,
            BatchError::Commit { .. } | BatchError::Missing { .. } => Exit::TargetNotFound,
            BatchError::NoTasks(_) | BatchError::Busy { .. } => Exit::Usage,
            BatchError::Git { .. } | BatchError::Io { .. } => Exit::Internal,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            BatchError::NoModel => Some(
                "set llm.base_url and llm.model (in mantra.toml or MANTRA_LLM_BASE_URL / MANTRA_LLM_MODEL), \
                 or use --spec oracle or --spec planner, which need no model"
                    .into(),
            ),
            BatchError::Range { .. } => {
                Some("pass two commits of the repository, e.g. --range origin/main..HEAD".into())
            }
            BatchError::Commit { .. } => Some("list commits of the repository given by --repo (see `git log`)".into()),
            BatchError::Missing { flag, .. } => {
                Some(format!("{flag} takes a file that exists (a path relative to the current directory)"))
            }
            BatchError::NoTasks(_) => Some("pass --impure to include refactorings mixed with other changes".into()),
            BatchError::Busy { .. } => Some("wait for that batch to finish, or pass another --out".into()),
            _ => None,
        }
    }
}

/// `--fail-on`: when a finished batch exits 1 (`rejected`) instead of 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FailOn {
    /// Always 0 once the batch ran.
    Never,
    /// Some task could not be run at all: `error`, `timeout`, `broken-baseline`, `no-target`.
    Errors,
    /// Some task did not succeed.
    Any,
    /// The success rate is below this.
    Rate(f64),
}

impl FailOn {
    pub fn parse(s: &str) -> Result<FailOn, BatchError> {
        Ok(match s {
            "never" => FailOn::Never,
            "errors" => FailOn::Errors,
            "any" => FailOn::Any,
            _ => match s.strip_prefix("rate:").and_then(|r| r.parse::<f64>().ok()) {
                Some(r) if (0.0..=1.0).contains(&r) => FailOn::Rate(r),
                _ => return Err(BatchError::Policy(s.to_string())),
            },
        })
    }

    /// Whether `results` break the policy.
    pub fn fails(self, results: &[&TaskResult]) -> bool {
        let errors = ["error", "timeout", "broken-baseline", "no-target", "no-commit"];
        match self {
            FailOn::Never => false,
            FailOn::Errors => results.iter().any(|r| r.failure.as_deref().is_some_and(|f| errors.contains(&f))),
            FailOn::Any => results.iter().any(|r| !r.success),
            FailOn::Rate(min) => {
                !results.is_empty()
                    && (results.iter().filter(|r| r.success).count() as f64) < min * results.len() as f64
            }
        }
    }
}

/// How to run a batch.
pub struct Options {
    pub out: PathBuf,
    pub jobs: usize,
    pub resume: bool,
    pub timeout: Duration,
}

/// The batch's tasks with the commits they come from (`Err` when the commit cannot be read).
pub struct Plan {
    pub tasks: Vec<Task>,
    pub commits: HashMap<String, Result<Arc<Commit>, String>>,
}

/// What a finished (or interrupted) batch did.
pub struct Outcome {
    /// Every result of the mode, earlier runs' included (with `--resume`).
    pub results: Vec<TaskResult>,
    pub skipped: usize,
    pub elapsed: Duration,
}

/// What an interrupt prints (see [`crate::workspace::set_interrupt_note`]): how far the batch got
/// and how to continue.
pub fn interrupt_note(done: usize, total: usize, succeeded: usize, out: &std::path::Path) -> String {
    format!(
        "batch interrupted: {done} of {total} task(s) finished ({succeeded} succeeded); results and reports \
         so far are in {}; run the same command with --resume to continue",
        out.display()
    )
}

/// Runs the plan's tasks not yet finished, writing each result and the reports as it ends;
/// `on_result` sees each new result (the command reports it).
pub fn run(
    setup: &execute::Setup,
    repo: &std::path::Path,
    plan: Plan,
    options: &Options,
    on_result: &mut dyn FnMut(&TaskResult, &progress::Progress),
) -> Result<Outcome, BatchError> {
    let start = Instant::now();
    let mode = setup.source.name();
    std::fs::create_dir_all(&options.out).map_err(|e| BatchError::Io {
        what: "cannot create",
        path: options.out.clone(),
        source: e,
    })?;
    let results_path = options.out.join("results.jsonl");
    let earlier = result::read(&results_path)?;
    let ids: BTreeSet<&str> = plan.tasks.iter().map(|t| t.id.as_str()).collect();
    // Without --resume this mode's earlier results are dropped; other modes' stay, for one table.
    let kept: Vec<TaskResult> = earlier.into_iter().filter(|r| options.resume || r.mode != mode).collect();
    result::rewrite(&results_path, &kept)?;
    let done: BTreeSet<String> =
        kept.iter().filter(|r| r.mode == mode && ids.contains(r.id.as_str())).map(|r| r.id.clone()).collect();
    let mut all = kept;
    let mut pending: Vec<&Task> = plan.tasks.iter().filter(|t| !done.contains(&t.id)).collect();
    // The tasks of a commit next to each other (they share its checkout and baseline), commits in
    // the order given.
    let mut order: HashMap<&str, usize> = HashMap::new();
    for t in &plan.tasks {
        let n = order.len();
        order.entry(t.commit.as_str()).or_insert(n);
    }
    pending.sort_by_key(|t| order[t.commit.as_str()]);
    let skipped = plan.tasks.len() - pending.len();
    let mut progress = progress::Progress::new(pending.len(), skipped);
    let note = |p: &progress::Progress| interrupt_note(p.done, p.total, p.succeeded, &options.out);
    crate::workspace::set_interrupt_note(Some(note(&progress)));
    // Cleared however this returns, so a later interrupt does not report a finished batch.
    struct Cleared;
    impl Drop for Cleared {
        fn drop(&mut self) {
            crate::workspace::set_interrupt_note(None);
        }
    }
    let _cleared = Cleared;

    let checkouts = options.out.join("checkouts");
    let work = setup.work.clone();
    std::fs::create_dir_all(&work).map_err(|e| BatchError::Io {
        what: "cannot create",
        path: work.clone(),
        source: e,
    })?;
    // One lock per commit: the first task of a commit runs holding it, so its baseline is built
    // once and cached in the checkout before the commit's other tasks start.
    let locks: HashMap<&str, Mutex<bool>> = pending.iter().map(|t| (t.commit.as_str(), Mutex::new(false))).collect();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(TaskResult, String)>();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.max(1).min(pending.len().max(1)) {
            let tx = tx.clone();
            let (pending, locks, next, plan, checkouts) = (&pending, &locks, &next, &plan, &checkouts);
            scope.spawn(move || {
                while let Some(task) = pending.get(next.fetch_add(1, Ordering::SeqCst)).copied() {
                    let out = run_one(setup, repo, task, plan, checkouts, &locks[task.commit.as_str()]);
                    if tx.send(out).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        progress.draw(&mut std::io::stderr());
        for (r, human_diff) in rx {
            let written =
                result::append(&results_path, &r).and_then(|()| report::write_task_page(&options.out, &r, &human_diff));
            all.push(r);
            let summaries = report::write_summaries(&options.out, &all);
            if let Err(e) = written.and(summaries) {
                failure.get_or_insert(e);
            }
            let Some(last) = all.last() else { continue };
            progress.finished(last);
            crate::workspace::set_interrupt_note(Some(note(&progress)));
            on_result(last, &progress);
            progress.draw(&mut std::io::stderr());
        }
    });
    progress.clear(&mut std::io::stderr());
    if let Some(e) = failure {
        return Err(e);
    }
    report::write_summaries(&options.out, &all)?;
    let results = all.into_iter().filter(|r| r.mode == mode && ids.contains(r.id.as_str())).collect();
    Ok(Outcome { results, skipped, elapsed: start.elapsed() })
}

/// One task: its commit's checkout (made on first use), then [`execute::run`]; with the human's diff.
fn run_one(
    setup: &execute::Setup,
    repo: &std::path::Path,
    task: &Task,
    plan: &Plan,
    checkouts: &std::path::Path,
    lock: &Mutex<bool>,
) -> (TaskResult, String) {
    let commit = match plan.commits.get(&task.commit) {
        Some(Ok(c)) => c.clone(),
        Some(Err(message)) => return (unrunnable(setup, task, "no-commit", message.clone()), String::new()),
        None => return (unrunnable(setup, task, "no-commit", "the commit was not read".into()), String::new()),
    };
    let human_diff = report::human_diff(&commit);
    let mut warmed = lock.lock().unwrap_or_else(|e| e.into_inner());
    let t = Instant::now();
    let path = match checkout::checkout(setup.runner.as_ref(), repo, checkouts, &commit.parent) {
        Ok(p) => p,
        Err(e) => return (unrunnable(setup, task, "error", format!("cannot check out the parent: {e}")), human_diff),
    };
    let checkout_ms = t.elapsed().as_millis() as u64;
    let r = if *warmed {
        drop(warmed);
        execute::run(setup, task, &commit, &path, checkout_ms)
    } else {
        let r = execute::run(setup, task, &commit, &path, checkout_ms);
        *warmed = true;
        r
    };
    (r, human_diff)
}

/// The result of a task that could not start.
fn unrunnable(setup: &execute::Setup, task: &Task, class: &str, message: String) -> TaskResult {
    TaskResult {
        failure: Some(class.to_string()),
        diagnostic: Some(message),
        ..TaskResult::unstarted(task, setup.source.name(), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(success: bool, failure: Option<&str>) -> TaskResult {
        let mut r: TaskResult = serde_json::from_value(serde_json::json!({
            "id": "t", "project": "p", "mode": "oracle", "commit": "c", "parent": null, "type": "extract-method",
            "method": "A.m", "description": "", "spec": null, "compiled": null, "tests_passed": null,
            "verified": null, "success": success, "codebleu": null, "ast_precision": null, "ast_recall": null,
            "identical": null, "times_ms": {}, "overhead_ms": 0, "prompt_tokens": null, "completion_tokens": null,
            "cost": null, "failure": null, "diagnostic": null, "diff": "", "our_code": null, "human_code": null
        }))
        .unwrap();
        r.failure = failure.map(str::to_string);
        r
    }

    #[test]
    fn fail_on_policies() {
        let ok = result(true, None);
        let refused = result(false, Some("refused"));
        let timeout = result(false, Some("timeout"));
        assert!(!FailOn::parse("never").unwrap().fails(&[&refused, &timeout]));
        assert!(!FailOn::parse("errors").unwrap().fails(&[&ok, &refused]));
        assert!(FailOn::parse("errors").unwrap().fails(&[&ok, &timeout]));
        assert!(FailOn::parse("any").unwrap().fails(&[&ok, &refused]));
        assert!(!FailOn::parse("rate:0.5").unwrap().fails(&[&ok, &refused]));
        assert!(FailOn::parse("rate:0.6").unwrap().fails(&[&ok, &refused]));
        assert!(FailOn::parse("rate:2").is_err());
        assert!(FailOn::parse("sometimes").is_err());
    }
}
