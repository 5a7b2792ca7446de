//! `mantra detect`: the method-level refactorings between two versions of Java code.
//!
//! The versions are two folders, two files, or a commit and its first parent (read with the git
//! command line). Humans get one line per refactoring with its pure/impure marker and where the
//! methods are; `--json` gets RefactoringMiner's document (`{"commits":[{..,"refactorings":[..]}]}`)
//! as the `refactorings` result.

use anyhow::Context as _;

use super::Context;
use crate::cli::DetectArgs;
use crate::detect::{self, Refactoring, Snapshot};
use crate::error::UserError;
use crate::exit::Exit;
use crate::process::System;
use crate::report::Event;

pub fn run(ctx: &mut Context, args: &DetectArgs) -> anyhow::Result<Exit> {
    let (before, after, sha) = match (args.commit(), &args.before, &args.after) {
        (Some(rev), _, _) => {
            if !ctx.repo.join(".git").exists() {
                return Err(UserError::usage(format!("{} is not a git repository", ctx.repo.display()))
                    .with_hint("run inside a git repository, pass --repo DIR, or compare folders with --before/--after")
                    .into());
            }
            Snapshot::from_commit(&System, &ctx.repo, rev).with_context(|| format!("reading commit {rev}"))?
        }
        (None, Some(b), Some(a)) => {
            let before = Snapshot::read(&ctx.cwd.join(b))?;
            let after = Snapshot::read(&ctx.cwd.join(a))?;
            (before, after, String::new())
        }
        _ => {
            return Err(UserError::usage("say what to compare")
                .with_hint("pass --before DIR|FILE --after DIR|FILE, or a commit: `mantra detect SHA`")
                .into());
        }
    };
    let found = detect::detect(&before, &after);
    let data = detect::to_miner_json(&ctx.repo.display().to_string(), &sha, "", &found);
    ctx.reporter.emit(Event::result("refactorings", &data, render(&found)));
    Ok(Exit::Success)
}

/// One line per refactoring (TAB shown as `: `), its marker, and the declarations it involves.
fn render(found: &[Refactoring]) -> String {
    let mut out = String::new();
    for r in found {
        let marker = if r.pure { "pure" } else { "impure" };
        out.push_str(&format!("{} [{marker}]\n", r.description.replace('\t', ": ")));
        for (side, locs) in [("before", &r.left_side_locations), ("after", &r.right_side_locations)] {
            for l in locs.iter().filter(|l| l.code_element_type == "METHOD_DECLARATION") {
                out.push_str(&format!(
                    "    {side:<6} {}:{}-{}  {}\n",
                    l.file_path, l.start_line, l.end_line, l.description
                ));
            }
        }
    }
    let n = found.len();
    out.push_str(&format!("{n} refactoring{}\n", if n == 1 { "" } else { "s" }));
    out
}
