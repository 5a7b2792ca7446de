//! `mantra analyze`: everything the agents get to see about one method ([`crate::java::analysis`]),
//! for a human or as JSON. `--project` prints the project summary alone. The data shape is the
//! `analysis` result of the `--json` contract; the human text renders the same data in sections.

use anyhow::Context as _;

use super::Context;
use crate::cli::AnalyzeArgs;
use crate::exit::Exit;
use crate::java::analysis::{analyze, render};
use crate::java::{Project, Summary, target};
use crate::report::Event;

pub fn run(ctx: &mut Context, args: &AnalyzeArgs) -> anyhow::Result<Exit> {
    let project =
        Project::open(&ctx.repo).with_context(|| format!("cannot read the project at {}", ctx.repo.display()))?;
    if args.project {
        let summary = project.summary();
        warn_broken_files(ctx, &summary);
        let human = summary.render();
        ctx.reporter.emit(Event::result("project", &summary, human));
        return Ok(Exit::Success);
    }
    let spec = args.target.as_deref().unwrap_or_default();
    let target = target::resolve(&project, &ctx.cwd, spec)?;
    let analysis = analyze(&project, target.method);
    warn_broken_files(ctx, &analysis.project);
    let human = render(&analysis);
    ctx.reporter.emit(Event::result("analysis", &analysis, human));
    Ok(Exit::Success)
}

/// Syntax errors in other files never fail a command; they are worth a warning.
fn warn_broken_files(ctx: &mut Context, summary: &Summary) {
    if let Some(first) = summary.syntax_errors.first() {
        ctx.reporter.warning(
            format!(
                "{} file(s) have syntax errors and were analysed as far as they parse (first: {}:{}:{})",
                summary.syntax_errors.len(),
                first.path,
                first.line,
                first.column
            ),
            None,
        );
    }
    for u in &summary.unreadable {
        ctx.reporter.warning(format!("skipped {}: {}", u.path, u.message), None);
    }
}
