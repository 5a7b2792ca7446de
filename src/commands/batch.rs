//! `mantra batch`: tasks from commits or a task file, run at their parent commits, scored against
//! the humans' refactorings; results in `<out>/results.jsonl`, reports beside them. See [`crate::batch`].
//!
//! Each finished task is a `task` result (JSON mode) or a line on stderr (elsewhere, unless the
//! progress bar is live); the end is one `batch` result: the table and where the files are. The
//! exit code follows `--fail-on` (1 when the policy fails, else 0).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use super::Context;
use super::refactor::{examples, open_model_with};
use crate::agent::{Modes, Prompts};
use crate::batch::SpecMode;
use crate::batch::agents::Agents;
use crate::batch::{self, BatchError, FailOn, Options, Plan, execute, report, source, task};
use crate::cli::{Baseline, BatchArgs};
use crate::error::UserError;
use crate::exit::Exit;
use crate::process::{Runner, System};
use crate::report::Event;

#[derive(Debug, Serialize)]
struct Summary<'a> {
    mode: &'a str,
    tasks: usize,
    ran: usize,
    skipped: usize,
    succeeded: usize,
    elapsed_ms: u64,
    /// Tasks per minute over the tasks this run executed.
    tasks_per_minute: Option<f64>,
    results: String,
    summary_md: String,
    summary_csv: String,
    html: String,
    rows: Vec<RowData<'a>>,
    policy_failed: bool,
}

#[derive(Debug, Serialize)]
struct RowData<'a> {
    project: &'a str,
    mode: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    tasks: usize,
    compile_test: usize,
    verified: usize,
    success: usize,
    codebleu: Option<f64>,
    ast_precision: Option<f64>,
    ast_recall: Option<f64>,
    identical: Option<usize>,
}

pub fn run(ctx: &mut Context, args: &BatchArgs) -> anyhow::Result<Exit> {
    // The mode first: a batch that cannot choose specs should not spend minutes detecting.
    let out = ctx.cwd.join(&args.out);
    let source = source::for_mode(args.spec, agents(ctx, args, &out)?)?;
    let policy = FailOn::parse(&args.fail_on)?;
    if !ctx.repo.join(".git").exists() {
        return Err(UserError::usage(format!("{} is not a git repository", ctx.repo.display()))
            .with_hint("`mantra batch` reads commits: pass --repo with a clone of the project")
            .into());
    }
    // One batch per output folder, held until the command returns.
    let _lock = batch::lock_out(&out)?;
    let runner: Arc<dyn Runner> = Arc::new(System);
    let project = args.project.clone().unwrap_or_else(|| {
        ctx.repo.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "project".into())
    });
    let mut plan = plan(ctx, args, runner.as_ref(), &project)?;
    let before_shard = plan.tasks.len();
    if let Some(spec) = &args.shard {
        let (k, n) = super::suggest::parse_shard(spec)?;
        plan.tasks.retain(|t| super::suggest::shard_key(&t.id, n) == k);
        if plan.tasks.is_empty() && before_shard > 0 {
            // Fewer tasks than shards, or an uneven split: this shard's part of the run is empty,
            // which a CI matrix must not take for a failure.
            ctx.reporter.progress("batch", format!("shard {spec} holds none of the {before_shard} task(s)"));
        }
    }
    if plan.tasks.is_empty() && before_shard == 0 {
        let what = if args.impure { "method-level refactorings" } else { "pure method-level refactorings" };
        let what = if args.types.is_empty() {
            what.to_string()
        } else {
            let types: Vec<&str> = args.types.iter().map(|k| k.name()).collect();
            format!("{what} of type {}", types.join(", "))
        };
        return Err(BatchError::NoTasks(format!("the commits hold no {what} mantra performs")).into());
    }
    crate::workspace::set_interrupt_note(Some(crate::batch::interrupt_note(0, plan.tasks.len(), 0, &out)));
    ctx.reporter.progress("batch", format!("{} task(s), --spec {}", plan.tasks.len(), source.name()));
    let setup = execute::Setup {
        config: &ctx.config.config,
        runner,
        source: source.as_ref(),
        work: out.join("work"),
        timeout: Duration::from_secs(args.timeout),
    };
    let options = Options { out: out.clone(), jobs: args.jobs as usize, resume: args.resume, timeout: setup.timeout };
    let reporter = &mut ctx.reporter;
    let outcome = batch::run(&setup, &ctx.repo, plan, &options, &mut |r, progress| {
        let verdict = match &r.failure {
            None if r.success => "ok".to_string(),
            None => "not successful".to_string(),
            Some(f) => format!("failed ({f})"),
        };
        let secs = r.times_ms.get("total").copied().unwrap_or(0) as f64 / 1000.0;
        let human = format!(
            "[{}/{}] {} {} {}: {verdict} in {secs:.1}s\n",
            progress.done, progress.total, r.id, r.kind, r.method
        );
        if reporter.json() {
            reporter.emit(Event::result("task", r, human));
        } else if !progress.live() {
            reporter.progress("batch", format!("{} · {}", human.trim_end(), progress.line()));
        }
    })?;
    drop(setup);
    let rows = report::rows(&outcome.results);
    let refs: Vec<&batch::TaskResult> = outcome.results.iter().collect();
    let policy_failed = policy.fails(&refs);
    let ran = outcome.results.len() - outcome.skipped.min(outcome.results.len());
    let minutes = outcome.elapsed.as_secs_f64() / 60.0;
    let data = Summary {
        mode: source.name(),
        tasks: outcome.results.len(),
        ran,
        skipped: outcome.skipped,
        succeeded: outcome.results.iter().filter(|r| r.success).count(),
        elapsed_ms: outcome.elapsed.as_millis() as u64,
        tasks_per_minute: (ran > 0 && minutes > 0.0).then(|| ran as f64 / minutes),
        results: out.join("results.jsonl").display().to_string(),
        summary_md: out.join("summary.md").display().to_string(),
        summary_csv: out.join("summary.csv").display().to_string(),
        html: out.join("report/index.html").display().to_string(),
        rows: rows
            .iter()
            .map(|r| RowData {
                project: &r.project,
                mode: &r.mode,
                kind: &r.kind,
                tasks: r.tasks,
                compile_test: r.compile_test,
                verified: r.verified,
                success: r.success,
                codebleu: r.codebleu,
                ast_precision: r.ast_precision,
                ast_recall: r.ast_recall,
                identical: r.identical,
            })
            .collect(),
        policy_failed,
    };
    let human = format!(
        "{}\n{} of {} task(s) succeeded; results in {}, report {}\n",
        report::markdown(&rows),
        data.succeeded,
        data.tasks,
        data.results,
        data.html
    );
    ctx.reporter.emit(Event::result("batch", &data, human));
    Ok(if policy_failed { Exit::Rejected } else { Exit::Success })
}

/// `--spec llm`'s agents over the model the flags and configuration ask for (`None` without one);
/// the agent flags are refused in the other modes, where they would silently do nothing.
fn agents(ctx: &mut Context, args: &BatchArgs, out: &Path) -> anyhow::Result<Option<Agents>> {
    let a = &args.agents;
    let flags = a.llm.is_some()
        || a.llm_record.is_some()
        || a.llm_replay.is_some()
        || a.no_rag
        || a.no_review
        || a.no_repair
        || a.baseline.is_some();
    if args.spec != SpecMode::Llm {
        return if flags { Err(BatchError::AgentFlagsWithoutAgents.into()) } else { Ok(None) };
    }
    if (a.llm_record.is_some() || a.llm_replay.is_some()) && args.jobs > 1 {
        return Err(BatchError::RecordingNeedsOneJob.into());
    }
    let transcript = crate::llm::transcript::run_dir(out).join(crate::llm::transcript::TRANSCRIPT_FILE);
    let Some((model, transcript)) = open_model_with(ctx, a, transcript)? else {
        return Ok(None);
    };
    ctx.reporter.progress("batch", format!("agents' transcript: {}", transcript.display()));
    let config = ctx.config.config.clone();
    let prompts = Prompts::load(config.prompts_dir.as_deref())?;
    let modes = Modes {
        rag: !a.no_rag,
        review: !a.no_review,
        repair: !a.no_repair,
        build: true,
        raw: a.baseline == Some(Baseline::Raw),
    };
    let examples = examples(ctx, modes.rag);
    Ok(Some(Agents::new(model, prompts, examples, config, modes)))
}

/// The tasks and their commits, from `--commits`, `--range` or `--tasks`.
fn plan(ctx: &mut Context, args: &BatchArgs, runner: &dyn Runner, project: &str) -> anyhow::Result<Plan> {
    let mut commits = HashMap::new();
    let mut tasks = Vec::new();
    if let Some(file) = &args.tasks {
        let path = ctx.cwd.join(file);
        let records = task::read_task_file(&path)?;
        for sha in task::record_commits(&records) {
            let commit = task::Commit::read(runner, &ctx.repo, &sha).map(Arc::new).map_err(|e| e.to_string());
            if let Err(e) = &commit {
                ctx.reporter.warning(format!("{e}; its tasks fail as `no-commit`"), None);
            }
            commits.insert(sha, commit);
        }
        for (n, record) in records.iter().enumerate() {
            let commit = commits.get(&record.commit_id).and_then(|c| c.as_ref().ok()).map(|c| c.as_ref());
            tasks.extend(task::from_record(project, n, record, commit));
        }
    } else {
        let revs = match (&args.commits, &args.range) {
            (Some(file), _) => task::read_commit_list(&ctx.cwd.join(file))?,
            (None, Some(range)) => task::commits_in_range(runner, &ctx.repo, range)?,
            (None, None) => {
                return Err(UserError::usage("say which refactorings to replay")
                    .with_hint("pass --commits FILE, --range A..B or --tasks FILE")
                    .into());
            }
        };
        for rev in revs {
            let commit = Arc::new(task::Commit::read(runner, &ctx.repo, &rev)?);
            tasks.extend(task::from_commit(project, &commit, args.impure));
            commits.insert(commit.sha.clone(), Ok(commit));
        }
    }
    if !args.types.is_empty() {
        tasks.retain(|t| args.types.contains(&t.kind));
    }
    if let Some(n) = args.limit {
        tasks.truncate(n);
    }
    Ok(Plan { tasks, commits })
}
