//! `mantra report merge DIR... --out DIR`: the output folders of a batch's shards (`batch --shard
//! K/N` on N runners) joined into one report, as if one machine had run every task: the
//! results.jsonl lines in task order, summary.md/.csv and the HTML report written again from
//! them, and every task page copied.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Context;
use crate::batch::TaskResult;
use crate::batch::{report, result};
use crate::cli::{ReportArgs, ReportCommand};
use crate::error::UserError;
use crate::exit::Exit;
use crate::report::Event;

#[derive(Debug, Serialize)]
struct Merged {
    out: String,
    inputs: usize,
    tasks: usize,
    succeeded: usize,
    /// Task ids found in more than one input (the last input's result is kept).
    duplicates: Vec<String>,
}

pub fn run(ctx: &mut Context, args: &ReportArgs) -> anyhow::Result<Exit> {
    match &args.command {
        ReportCommand::Merge(m) => {
            let out = ctx.cwd.join(&m.out);
            let mut by_key: BTreeMap<(String, String), TaskResult> = BTreeMap::new();
            let mut duplicates = Vec::new();
            for dir in &m.dirs {
                let dir = ctx.cwd.join(dir);
                let path = dir.join("results.jsonl");
                if !path.is_file() {
                    return Err(UserError::usage(format!("{} holds no results.jsonl", dir.display()))
                        .with_hint("give the --out folders of `mantra batch` runs")
                        .into());
                }
                if dir.canonicalize().ok() == out.canonicalize().ok() {
                    return Err(UserError::usage(format!("{} is both an input and --out", dir.display()))
                        .with_hint("merge into a new folder")
                        .into());
                }
                for r in result::read(&path)? {
                    let key = (r.id.clone(), r.mode.clone());
                    if by_key.insert(key, r.clone()).is_some() {
                        duplicates.push(r.id.clone());
                    }
                }
                copy_pages(&dir.join("report/tasks"), &out.join("report/tasks"))?;
            }
            let all: Vec<TaskResult> = by_key.into_values().collect();
            std::fs::create_dir_all(&out)
                .map_err(|e| UserError::usage(format!("cannot create {}: {e}", out.display())))?;
            result::rewrite(&out.join("results.jsonl"), &all)?;
            report::write_summaries(&out, &all)?;
            let data = Merged {
                out: out.display().to_string(),
                inputs: m.dirs.len(),
                tasks: all.len(),
                succeeded: all.iter().filter(|r| r.success).count(),
                duplicates,
            };
            let human = format!(
                "merged {} run(s): {} task(s), {} succeeded, into {}{}\n",
                data.inputs,
                data.tasks,
                data.succeeded,
                data.out,
                if data.duplicates.is_empty() {
                    String::new()
                } else {
                    format!(" ({} task(s) in more than one run; the last kept)", data.duplicates.len())
                }
            );
            ctx.reporter.emit(Event::result("merged", &data, human));
            Ok(Exit::Success)
        }
    }
}

fn copy_pages(from: &std::path::Path, to: &std::path::Path) -> anyhow::Result<()> {
    let Ok(entries) = std::fs::read_dir(from) else { return Ok(()) };
    std::fs::create_dir_all(to)?;
    for e in entries.flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name()))?;
        }
    }
    Ok(())
}
