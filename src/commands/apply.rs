//! `mantra apply [RUN]`: writes the change a `mantra refactor` without `--apply` showed, exactly
//! as shown ([`crate::workspace::preview`]). A file that changed since is named and nothing is
//! written; a change is written once.

use anyhow::Context as _;
use serde::Serialize;

use super::Context;
use crate::cli::ApplyArgs;
use crate::exit::Exit;
use crate::report::Event;
use crate::workspace::{preview, writeback};

/// The `apply` result of the `--json` contract.
#[derive(Debug, Serialize)]
struct ApplyResult<'a> {
    /// The run whose change was written.
    run: String,
    /// What the change does: `extract-method InvoiceService.issue(Invoice, LocalDate)`.
    summary: &'a str,
    /// The verdict the change got when it was shown: `accepted` or `unverified`.
    verdict: &'a str,
    /// Repository-relative paths written.
    files: Vec<String>,
}

pub fn run(ctx: &mut Context, args: &ApplyArgs) -> anyhow::Result<Exit> {
    let (run, shown) = preview::load(&ctx.repo, args.run.as_deref())?;
    let id = run.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let written = writeback::write_atomically(&ctx.repo, &shown.changes)
        .with_context(|| format!("the change of run {id} ({}) was not written", shown.summary))?;
    preview::mark_applied(&run)?;
    let files: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    let count = super::files_count(files.len());
    let how = if shown.verdict == "accepted" { "verified" } else { "unverified" };
    let style = ctx.reporter.style();
    let human = format!("{}\n", style.bold(&format!("{}: {count} written ({how}, from run {id})", shown.summary)));
    let result = ApplyResult { run: id, summary: &shown.summary, verdict: &shown.verdict, files };
    ctx.reporter.emit(Event::result("apply", &result, human));
    Ok(Exit::Success)
}
