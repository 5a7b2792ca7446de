//! `mantra wire FILE:START-END`: the names of pasted lines that nothing in scope declares, bound
//! to the variables, fields and getters in scope where the paste landed
//! ([`crate::engine::wire`]); the names the evidence leaves open go to the model when one is
//! configured ([`crate::agent::wire`]), which chooses among the same candidates. The diff and,
//! per name, the binding, the candidates and the reason are reported. A name left unbound is
//! never guessed: it is listed with its best candidates and the command exits 1 (with `--apply`,
//! nothing is written). `--apply` compiles the wired project in a scratch copy and writes the
//! file when it compiles; the tests run and are reported, but do not block, since pasted code
//! changes behaviour on purpose.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context as _;
use serde::Serialize;

use super::Context;
use super::refactor::Refused;
use crate::build::{self, Outcome};
use crate::cli::WireArgs;
use crate::engine::wire::{self, Binding, Chooser, Wiring};
use crate::error::UserError;
use crate::exit::Exit;
use crate::java::Project;
use crate::process::System;
use crate::report::Event;
use crate::review::{Change, Side};
use crate::workspace::{Workspace, WorkspaceOptions};

/// The `wire` result of the `--json` contract.
#[derive(Debug, Serialize)]
struct WireResult<'a> {
    #[serde(flatten)]
    wiring: &'a Wiring,
    unbound: usize,
    diff: String,
    /// Whether the file was written.
    applied: bool,
    /// With --apply: whether the wired project compiled.
    compiled: Option<bool>,
    /// With --apply: the test run's counts, if the tests ran.
    tests: Option<TestCounts>,
    /// With --apply: the compiler's errors.
    diagnostics: Vec<String>,
}

#[derive(Debug, Serialize)]
struct TestCounts {
    passed: usize,
    failed: usize,
    total: usize,
    failing: Vec<String>,
}

/// `path/File.java:12-30` → (path, 12, 30); a single line `:12` is `12-12`.
pub fn parse_target(target: &str) -> Result<(&str, usize, usize), UserError> {
    let bad = |why: &str| {
        UserError::usage(format!("`{target}` is not FILE:START-END: {why}"))
            .with_hint("name the pasted lines, e.g. `src/main/java/a/Shop.java:41-48` (1-based, inclusive)")
    };
    let Some((file, lines)) = target.rsplit_once(':') else { return Err(bad("no `:` before the lines")) };
    if file.is_empty() {
        return Err(bad("no file before `:`"));
    }
    let (a, b) = lines.split_once('-').unwrap_or((lines, lines));
    let (Ok(start), Ok(end)) = (a.trim().parse::<usize>(), b.trim().parse::<usize>()) else {
        return Err(bad("the lines are not numbers"));
    };
    if start == 0 || end < start {
        return Err(bad("lines start at 1 and START is at most END"));
    }
    Ok((file, start, end))
}

pub fn run(ctx: &mut Context, args: &WireArgs) -> anyhow::Result<Exit> {
    let (file_arg, start, end) = parse_target(&args.target)?;
    let project =
        Project::open(&ctx.repo).with_context(|| format!("cannot read the project at {}", ctx.repo.display()))?;
    let file = super::rename::project_file(ctx, &project, Path::new(file_arg))?;
    let refused = |refusal| Refused {
        kind: "wire".into(),
        refusal,
        planned: false,
        fix: "check that FILE can be read, and run again",
    };
    let mut wiring = wire::wire(&project, file, start, end).map_err(|r| {
        UserError::new(Exit::Usage, format!("cannot wire {}: {}", args.target, r.message))
            .with_hint("name the lines of the paste: inside the body of one method or constructor, or whole methods")
    })?;
    with_model(ctx, args, &project, file, &mut wiring)?;
    let changes = wiring.changes(&project, file).map_err(refused)?;
    let style = ctx.reporter.style();
    let colored = changes.unified_diff(style).context("rendering the diff")?;
    let plain = changes.unified_diff(crate::style::Style::PLAIN)?;
    let unbound = wiring.unbound().count();

    // With --apply, a file that does not parse cannot compile: no scratch build finds that out.
    let unparsable =
        args.apply && !args.no_verify && unbound == 0 && !changes.is_empty() && wiring.syntax_error.is_some();
    let mut applied = false;
    let mut compiled = None;
    let mut tests = None;
    let mut diagnostics = Vec::new();
    if args.apply && unbound == 0 && !changes.is_empty() {
        if args.no_verify {
            crate::workspace::writeback::write_atomically(project.root(), &changes)?;
            applied = true;
        } else if !unparsable {
            let check = compile_and_test(ctx, &changes, args.keep_workspace)?;
            compiled = Some(check.compiled);
            diagnostics = check.diagnostics;
            tests = check.tests;
            if check.compiled {
                check.workspace.apply_back(&changes)?;
                applied = true;
            }
        }
    }

    let mut human = colored;
    for b in &wiring.bindings {
        human.push_str(&binding_line(ctx, b));
    }
    if let Some(e) = &wiring.syntax_error {
        let place = if (start..=end).contains(&e.line) { "in the paste" } else { "outside the paste" };
        human.push_str(&format!(
            "{} line {} does not parse ({place}, column {}: `{}`): names near it may be read wrongly; fix the syntax and wire again\n",
            style.yellow("warning:"),
            e.line,
            e.column,
            e.snippet
        ));
    }
    if let Some(t) = &tests {
        human.push_str(&format!(
            "tests: {} passed, {} failed of {} (reported, not blocking: pasted code changes behaviour)\n",
            t.passed, t.failed, t.total
        ));
        for f in &t.failing {
            human.push_str(&format!("  failing: {f}\n"));
        }
    }
    for d in &diagnostics {
        human.push_str(&format!("  {d}\n"));
    }
    let bound = wiring.bindings.len() - unbound;
    let what = if wiring.bindings.is_empty() {
        "every name resolves; nothing to wire".to_string()
    } else if unbound > 0 {
        format!("{bound} bound, {unbound} left unbound; nothing written")
    } else if applied {
        format!("{bound} bound; written{}", if args.no_verify { " (not compiled)" } else { " (compiles)" })
    } else if compiled == Some(false) {
        format!("{bound} bound, but the wired code does not compile; nothing written")
    } else if let Some(e) = wiring.syntax_error.as_ref().filter(|_| unparsable) {
        format!("{bound} bound, but line {} does not parse, so it cannot compile; nothing written", e.line)
    } else {
        format!("{bound} bound (dry run; pass --apply to compile and write)")
    };
    let summary = format!("wire {}:{}-{} in {}: {what}", wiring.file.display(), start, end, wiring.method);
    human.push_str(&format!("{}\n", style.bold(&summary)));
    let result = WireResult {
        wiring: &wiring,
        unbound,
        diff: plain,
        applied,
        compiled,
        tests,
        diagnostics: diagnostics.clone(),
    };
    ctx.reporter.emit(Event::result("wire", &result, human));
    if unbound > 0 || compiled == Some(false) || unparsable { Ok(Exit::Rejected) } else { Ok(Exit::Success) }
}

/// One name's line of the human report.
fn binding_line(ctx: &Context, b: &Binding) -> String {
    let style = ctx.reporter.style();
    let lines = b.lines.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
    let candidates: Vec<String> = b.candidates.iter().map(|c| format!("{} ({:.2})", c.expr, c.score)).collect();
    let considered = if candidates.is_empty() {
        "no candidate".to_string()
    } else {
        format!("considered {}", candidates.join(", "))
    };
    match &b.bound {
        Some(expr) => {
            let by = if b.chosen_by == Some(Chooser::Model) { "model" } else { "evidence" };
            format!(
                "{} `{}` → `{expr}` (line {lines}; by {by}: {}; {considered})\n",
                style.green("bound"),
                b.name,
                b.reason
            )
        }
        None => format!(
            "{} `{}` (line {lines}; needs {}): {}; {considered}\n",
            style.red("unbound"),
            b.name,
            b.needs,
            b.reason
        ),
    }
}

/// The model's choices for the names the evidence left unbound (nothing without a model).
fn with_model(
    ctx: &mut Context,
    args: &WireArgs,
    project: &Project,
    file: crate::java::FileId,
    wiring: &mut Wiring,
) -> anyhow::Result<()> {
    if wiring.unbound().all(|b| b.candidates.is_empty()) {
        return Ok(());
    }
    let agents = args.model.agents();
    let Some((model, _)) = super::refactor::open_model(ctx, &agents)? else { return Ok(()) };
    let prompts = crate::llm::prompts::Prompts::load(ctx.config.config.prompts_dir.as_deref())?;
    let source = &project.file(file)?.source;
    let paste: Vec<String> = (wiring.start_line..=wiring.end_line)
        .filter_map(|l| source.line_text(l).map(|t| format!("{l:>5}  {t}")))
        .collect();
    let open = wiring.unbound().filter(|b| !b.candidates.is_empty()).count();
    ctx.reporter.progress("model", format!("asking the model to choose for {open} name(s)"));
    let outcome = crate::agent::wire::choose(model.as_ref(), &prompts, wiring, &paste.join("\n"))?;
    if let Some(why) = outcome.ignored {
        ctx.reporter.progress("warning", format!("{why}; the names stay unbound"));
    }
    for r in outcome.rejected {
        ctx.reporter
            .progress("warning", format!("the model chose an expression that is not a candidate ({r}); ignored"));
    }
    Ok(())
}

struct Check {
    compiled: bool,
    diagnostics: Vec<String>,
    tests: Option<TestCounts>,
    workspace: Workspace,
}

/// Compiles the wired project in a scratch copy and, when it compiles, runs its tests.
fn compile_and_test(ctx: &mut Context, changes: &crate::engine::ChangeSet, keep: bool) -> anyhow::Result<Check> {
    let mut workspace = Workspace::create_with(&ctx.repo, &WorkspaceOptions { keep, parent: None })?;
    let root = workspace.root().to_path_buf();
    Change::from_change_set(changes).context("rendering the change")?.write(&root, Side::After)?;
    let tool = build::tool_for(&root, &ctx.config.config.build, Arc::new(System));
    ctx.reporter.progress("compile", format!("compiling the wired project with {} in a scratch copy", tool.name()));
    let started = Instant::now();
    let result = tool.compile(&root)?;
    let compiled = result.success();
    let mut diagnostics: Vec<String> =
        result.diagnostics.iter().map(crate::review::reviewer::diagnostic_line).collect();
    if !compiled && diagnostics.is_empty() {
        diagnostics.push(format!(
            "{} failed: {}",
            result.run.command,
            crate::review::reviewer::tail(&result.run.output, 20)
        ));
    }
    ctx.reporter.progress(
        "compile",
        format!("{} in {:.1}s", if compiled { "ok" } else { "failed" }, started.elapsed().as_secs_f64()),
    );
    let mut tests = None;
    if compiled {
        ctx.reporter.progress("test", "running the tests (reported, not blocking)");
        let run = tool.test(&root, &build::TestSelection::All)?;
        let failing: Vec<String> = run.failing().map(|t| t.id.clone()).collect();
        let failed = failing.len().max(usize::from(!run.success() && run.results.is_empty()));
        tests = Some(TestCounts {
            passed: run.count(Outcome::Passed),
            failed,
            total: run.total.max(run.results.len()),
            failing,
        });
    }
    if keep {
        let path = workspace.keep().to_path_buf();
        ctx.reporter.progress("workspace", format!("kept at {}", path.display()));
    }
    Ok(Check { compiled, diagnostics, tests, workspace })
}
