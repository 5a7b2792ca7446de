//! mantra: a command-line refactoring agent for Java.
//!
//! The pipeline a refactoring travels, one module per stage:
//! `target` → [`java`] (parse, symbols, call graph) → [`plan`] → [`engine`] (apply a spec as text
//! edits) → [`workspace`] (isolated copy) → [`review`] ([`detect`], Checkstyle, [`build`]) →
//! repair ([`agent`]) → [`report`].
//!
//! [`main_with_args`] is the whole program; `main.rs` only calls it, and tests drive it in-process.
//!
//! # Layers
//!
//! The modules sit in layers, lowest first. A module may use the modules of the layers below its
//! own, never one of its own layer or above: the graph of imports has no cycle, and a change to a
//! subcommand cannot break the engine's build. The integration test `architecture` reads `src/`
//! and fails on an import that breaks this order.
//!
//! ```text
//!  14  commands                          one file per subcommand; nothing imports it
//!  13  cli                               clap's structs, converted into the values below
//!  12  batch                             replaying commits and task files, metrics, reports
//!  11  report                            the event stream (--json) and its human printer
//!  10  agent                             Developer, Reviewer loop, Repair; the tools the model sees
//!   9  store                             the example store: BM25, embeddings, rank fusion
//!   8  llm                               the model behind a trait; prompts, transcripts, replay
//!   7  review                            the Reviewer: workspace, build, Checkstyle, detection
//!   6  metrics  plan  build  workspace   scores; the planner; Maven/Gradle/javac; scratch copies
//!   5  engine  detect                    refactorings as text edits; refactorings between versions
//!   4  java                              the Java model: parsing, symbols, calls, syntax helpers
//!   3  config  process                   layered configuration; external commands as values
//!   2  error                             the error classification trait, user errors
//!   1  exit  refactoring  style  text  dataset  redact
//!                                        exit codes; the domain's words; terminal colours; text
//!                                        layout; the development data's location; secrets kept out
//! ```
//!
//! Only this file names every module: it maps any error to an exit code ([`classify`]).

pub mod agent;
pub mod batch;
pub mod build;
pub mod cli;
pub mod commands;
pub mod config;
pub mod dataset;
pub mod detect;
pub mod engine;
pub mod error;
pub mod exit;
pub mod java;
pub mod llm;
pub mod metrics;
pub mod plan;
pub mod process;
pub mod redact;
pub mod refactoring;
pub mod report;
pub mod review;
pub mod store;
pub mod style;
pub mod text;
pub mod workspace;

// The allocator of everything built on this library: the binary, its tests, benches and
// examples, so a bench measures what `mantra` runs. Parsing and statement mapping allocate many
// small strings (tokens, normalised statements), where glibc's malloc and free took an eighth of
// the detector's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::Parser;

use crate::cli::{Cli, Command, GlobalArgs};
use crate::commands::Context;
use crate::config::ColorChoice;
use crate::error::{Classify, UserError};
use crate::exit::Exit;
use crate::report::{Event, Reporter};
use crate::style::Style;

/// Runs mantra with these arguments (the first is the program name) and returns its exit code.
pub fn main_with_args<I, T>(args: I) -> std::process::ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // clap renders help and version itself; those are successes.
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => Exit::Success.into(),
                _ => Exit::Usage.into(),
            };
        }
    };
    // The key's value is scrubbed from everything mantra says from the first line on.
    for var in [config::DEFAULT_API_KEY_ENV, config::FALLBACK_API_KEY_ENV] {
        register_secret(var);
    }
    init_logging(&cli.global);
    // Ctrl-C, SIGTERM and SIGHUP end every phase with 130 and the cleanup, not only those that
    // made a workspace.
    workspace::install_interrupt_handler();
    let style = Style { color: use_color(cli.global.color) };
    let mut reporter = Reporter::new(cli.global.json, cli.global.quiet, style);
    let exit = match run(cli) {
        Ok(exit) => exit,
        Err(err) => {
            report_error(&mut reporter, &err);
            classify(&err).0
        }
    };
    exit.into()
}

/// Reports an error chain as one `error` event.
pub fn report_error(reporter: &mut Reporter, err: &anyhow::Error) {
    let (exit, hint) = classify(err);
    let message = err.to_string();
    let causes = err.chain().skip(1).map(|c| c.to_string()).filter(|c| !message.contains(c.as_str())).collect();
    reporter.emit(Event::Error { exit_code: exit.code(), kind: exit, message, causes, hint });
}

fn run(cli: Cli) -> anyhow::Result<Exit> {
    if let Command::Completions(args) = &cli.command {
        return commands::completions::run(args);
    }
    let cwd = std::env::current_dir().map_err(|e| anyhow::anyhow!("cannot read the current directory: {e}"))?;
    let repo = resolve_repo(&cwd, cli.global.repo.as_deref())?;
    let config = config::resolve(&repo, &cli.global.overrides())?;
    // No build or test process may see the API key, under any name mantra reads it from (a
    // variable of the user's choosing included) or a user would expect it under.
    for var in [config::DEFAULT_API_KEY_ENV, config::FALLBACK_API_KEY_ENV, &config.config.llm.api_key_env] {
        process::hide_from_children(var);
        register_secret(var);
    }
    // The configuration may choose colours (`color = "never"`); the flag already counted as its top layer.
    let style = Style { color: use_color(Some(config.config.color)) };
    // Commands report through a reporter styled by the resolved configuration; errors raised
    // before this point go to the caller's.
    let mut reporter = Reporter::new(cli.global.json, cli.global.quiet, style);
    for w in &config.warnings {
        reporter.warning(w.message.clone(), w.hint.clone());
    }
    let mut ctx = Context { repo, cwd, config, reporter, global: cli.global };
    let result = match cli.command {
        Command::Analyze(args) => commands::analyze::run(&mut ctx, &args),
        Command::Apply(args) => commands::apply::run(&mut ctx, &args),
        Command::Batch(args) => commands::batch::run(&mut ctx, &args),
        Command::Detect(args) => commands::detect::run(&mut ctx, &args),
        Command::Doctor(args) => commands::doctor::run(&mut ctx, &args),
        Command::Refactor(args) => commands::refactor::run(&mut ctx, &args),
        Command::Rename(args) => commands::rename::run(&mut ctx, &args),
        Command::Suggest(args) => commands::suggest::run(&mut ctx, &args),
        Command::Report(args) => commands::report::run(&mut ctx, &args),
        Command::Store(args) => commands::store::run(&mut ctx, &args),
        Command::Verify(args) => commands::verify::run(&mut ctx, &args),
        Command::Wire(args) => commands::wire::run(&mut ctx, &args),
        Command::Completions(_) => unreachable!("handled above"),
    };
    if let Err(err) = &result {
        report_error(&mut ctx.reporter, err);
        return Ok(classify(err).0);
    }
    result
}

/// The exit code and hint of an error chain: those of the first error in it that this crate
/// classifies; anything else is an internal error.
pub fn classify(err: &anyhow::Error) -> (Exit, Option<String>) {
    error::classify_with(err, as_classify)
}

/// Every error type of the crate that implements [`Classify`]. The architecture test fails when
/// one is missing, since a missing type would silently become exit 70.
fn as_classify<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a dyn Classify> {
    macro_rules! try_types {
        ($($t:ty),* $(,)?) => {
            $(if let Some(x) = e.downcast_ref::<$t>() { return Some(x); })*
        };
    }
    try_types!(
        UserError,
        agent::AgentError,
        llm::prompts::PromptError,
        batch::BatchError,
        java::JavaError,
        java::TargetError,
        config::ConfigError,
        process::ProcessError,
        workspace::writeback::WriteError,
        workspace::preview::PreviewError,
        engine::SpecError,
        plan::PlanError,
        commands::refactor::Refused,
        workspace::WorkspaceError,
        build::BuildError,
        review::CheckstyleError,
        review::refactoring_miner::MinerError,
        review::ReviewError,
        detect::SnapshotError,
        llm::LlmError,
        store::StoreError,
    );
    None
}

/// `--repo DIR` if given (it must be a directory), else the git root above `cwd`, else `cwd`.
pub fn resolve_repo(cwd: &Path, flag: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(dir) = flag {
        let dir = if dir.is_absolute() { dir.to_path_buf() } else { cwd.join(dir) };
        if !dir.is_dir() {
            return Err(UserError::usage(format!("--repo {}: not a directory", dir.display()))
                .with_hint("pass the root folder of a Java project")
                .into());
        }
        return Ok(dir.canonicalize().unwrap_or(dir));
    }
    let mut cur = Some(cwd);
    while let Some(dir) = cur {
        if dir.join(".git").exists() {
            return Ok(dir.to_path_buf());
        }
        cur = dir.parent();
    }
    Ok(cwd.to_path_buf())
}

/// The value of the environment variable `var`, if any, never appears in mantra's output.
fn register_secret(var: &str) {
    if let Some(value) = std::env::var_os(var) {
        redact::register(&value.to_string_lossy());
    }
}

/// Whether results on stdout are coloured.
fn use_color(choice: Option<ColorChoice>) -> bool {
    color_on(choice, std::io::stdout().is_terminal())
}

/// `--color`, else colour when the stream is a terminal and `NO_COLOR` is unset.
fn color_on(choice: Option<ColorChoice>, terminal: bool) -> bool {
    match choice.unwrap_or(ColorChoice::Auto) {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none() && terminal,
    }
}

fn init_logging(global: &GlobalArgs) {
    let level = match (global.quiet, global.verbose) {
        (true, _) => "error",
        (_, 0) => "warn",
        (_, 1) => "info",
        (_, 2) => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("MANTRA_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(format!("mantra={level}")));
    // Log lines go to stderr: coloured only when stderr is a terminal (or `--color always`). The
    // configuration file's `color` is not known yet; the flag and `NO_COLOR` are.
    let ansi = color_on(global.color, std::io::stderr().is_terminal());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| redact::Scrubbed::new(std::io::stderr()))
        .with_target(false)
        .with_ansi(ansi)
        .try_init();
}
