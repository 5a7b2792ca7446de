//! `mantra rename FILE --old OLD --name NEW`: the identifier declared in FILE (narrowed by
//! `--kind`, `--class`, `--method`, `--line`) renamed by the engine; with `--coordinated`, the
//! identifiers that go with it proposed ([`crate::plan::corename`]) and answered yes / no / all /
//! quit on standard input, accepted by `--yes` from `--min-score`, or listed by `--json`. The
//! answers are kept in `.mantra/renames.jsonl`. `--apply` verifies the whole change (build,
//! tests, style; for a method, detection of the rename) and writes it.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::Serialize;

use super::Context;
use super::refactor::Refused;
use super::verify;
use crate::cli::RenameArgs;
use crate::engine::ChangeSet;
use crate::engine::rename::{self, Element, FileMove, Narrowing, element};
use crate::error::UserError;
use crate::exit::Exit;
use crate::java::{FileId, Project};
use crate::plan::corename::{self, Suggestion, memory::Answer, memory::Memory};
use crate::refactoring::{Intent, RefactoringKind};
use crate::report::Event;

/// The seed of the `rename` result.
#[derive(Debug, Serialize)]
struct Seed {
    kind: rename::Kind,
    old: String,
    new: String,
    file: PathBuf,
    line: usize,
}

/// One suggestion of the `rename` result, with what became of it.
#[derive(Debug, Serialize)]
struct Listed<'a> {
    #[serde(flatten)]
    suggestion: &'a Suggestion,
    /// `true` applied with the seed, `false` declined, `null` not asked (listed only).
    accepted: Option<bool>,
    /// Why the engine cannot apply it, if it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    refused: Option<String>,
}

/// The `rename` result of the `--json` contract.
#[derive(Debug, Serialize)]
struct RenameResult<'a> {
    seed: Seed,
    suggestions: Vec<Listed<'a>>,
    files: Vec<String>,
    diff: String,
    applied: bool,
    verdict: Option<&'static str>,
}

/// One answer of the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    Yes,
    No,
    All,
    Quit,
}

/// `y`, `yes`, `n`, `no`, `a`, `all`, `q`, `quit` (any case); `None` for anything else.
pub fn parse_reply(line: &str) -> Option<Reply> {
    match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Some(Reply::Yes),
        "n" | "no" | "" => Some(Reply::No),
        "a" | "all" => Some(Reply::All),
        "q" | "quit" => Some(Reply::Quit),
        _ => None,
    }
}

pub fn run(ctx: &mut Context, args: &RenameArgs) -> anyhow::Result<Exit> {
    let project =
        Project::open(&ctx.repo).with_context(|| format!("cannot read the project at {}", ctx.repo.display()))?;
    let file = project_file(ctx, &project, &args.file)?;
    let seed = choose(&project, file, args)?;
    let refused = |refusal| Refused {
        kind: format!("rename {}", seed.kind()),
        refusal,
        planned: false,
        fix: "choose another --name, or name another declaration (--kind, --class, --method, --line)",
    };
    let (seed_edits, seed_move) = rename::rename_edits(&project, seed, &args.name).map_err(refused)?;

    let mut suggestions = Vec::new();
    let mut fates: Vec<(Option<bool>, Option<String>)> = Vec::new();
    let mut combined = seed_edits;
    let mut moves: Vec<FileMove> = seed_move.into_iter().collect();
    if args.coordinated {
        let memory_path = ctx.repo.join(crate::config::STATE_DIR).join(corename::memory::FILE);
        let memory = Memory::load(&memory_path);
        suggestions = corename::suggest(&project, seed, &args.name, &memory);
        let old = seed.name(&project);
        if corename::local_decision(old, &args.name) {
            let why = if args.name.chars().count() == 1 {
                format!("`{}` is a one-letter name, a shorthand for this declaration alone", args.name)
            } else {
                format!("`{}` appends a digit to `{old}` to tell this declaration from another", args.name)
            };
            ctx.reporter.progress("note", format!("{why}: no coordinated rename is proposed"));
        }
        suggestions = with_model(ctx, args, &project, seed, suggestions)?;
        let interactive = !args.yes && !ctx.reporter.json();
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut all = false;
        let mut quit = false;
        let mut answers = Vec::new();
        for s in &suggestions {
            let edits = rename::rename_edits(&project, s.element, &s.new);
            let (edits, moved) = match edits {
                Ok(x) => x,
                Err(r) => {
                    fates.push((None, Some(format!("{}: {}", r.reason, r.message))));
                    continue;
                }
            };
            let mut merged = combined.clone();
            merged.extend(edits.clone());
            if let Err(e) = merged.render() {
                fates.push((None, Some(format!("overlaps another rename: {e}"))));
                continue;
            }
            let accepted = if args.yes {
                s.score >= args.min_score
            } else if !interactive || quit {
                fates.push((None, None));
                continue;
            } else if all {
                true
            } else {
                match ask(ctx, s, &edits, &mut input)? {
                    Some(Reply::Yes) => true,
                    Some(Reply::No) => false,
                    Some(Reply::All) => {
                        all = true;
                        true
                    }
                    Some(Reply::Quit) | None => {
                        quit = true;
                        fates.push((None, None));
                        continue;
                    }
                }
            };
            if interactive {
                answers.push(Answer::of(seed.kind(), s, accepted));
            }
            if accepted {
                combined = merged;
                moves.extend(moved);
            }
            fates.push((Some(accepted), None));
        }
        if let Err(e) = Memory::append(&memory_path, &answers) {
            ctx.reporter.progress("warning", format!("cannot keep the answers in {}: {e}", memory_path.display()));
        }
    }
    for (from, to) in moves {
        rename::move_file(&mut combined, &project, &from, to).map_err(refused)?;
    }
    finish(ctx, args, &project, seed, combined, &suggestions, fates)
}

/// The suggestions after the configured model's review (unchanged without a model).
fn with_model(
    ctx: &mut Context,
    args: &RenameArgs,
    project: &Project,
    seed: Element,
    suggestions: Vec<Suggestion>,
) -> anyhow::Result<Vec<Suggestion>> {
    let agents = args.model.agents();
    let Some((model, _)) = super::refactor::open_model(ctx, &agents)? else { return Ok(suggestions) };
    let prompts = crate::llm::prompts::Prompts::load(ctx.config.config.prompts_dir.as_deref())?;
    ctx.reporter.progress("model", format!("reviewing {} candidate(s) with the model", suggestions.len()));
    let outcome = crate::agent::corename::review(model.as_ref(), &prompts, project, seed, &args.name, suggestions)?;
    if let Some(why) = outcome.ignored {
        ctx.reporter.progress("warning", format!("{why}; the heuristic suggestions stand"));
    }
    Ok(outcome.suggestions)
}

/// Shows one suggestion on stderr and reads the answer: `None` at the end of the input.
fn ask(ctx: &Context, s: &Suggestion, edits: &ChangeSet, input: &mut dyn BufRead) -> anyhow::Result<Option<Reply>> {
    let style = ctx.reporter.style();
    let diff = edits.unified_diff(style).context("rendering the diff")?;
    eprint!(
        "\n{} {} `{}` → `{}` ({}:{}, score {:.2}: {})\n{diff}",
        style.bold("rename"),
        s.kind,
        s.old,
        s.new,
        s.file.display(),
        s.line,
        s.score,
        s.reason
    );
    loop {
        eprint!("rename it? [y]es / [n]o / [a]ll / [q]uit: ");
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            eprintln!();
            return Ok(None);
        }
        match parse_reply(&line) {
            Some(r) => return Ok(Some(r)),
            None => eprintln!("answer y, n, a or q"),
        }
    }
}

fn finish(
    ctx: &mut Context,
    args: &RenameArgs,
    project: &Project,
    seed: Element,
    changes: ChangeSet,
    suggestions: &[Suggestion],
    fates: Vec<(Option<bool>, Option<String>)>,
) -> anyhow::Result<Exit> {
    let style = ctx.reporter.style();
    let colored = changes.unified_diff(style).context("rendering the diff")?;
    let plain = if style == crate::style::Style::PLAIN {
        colored.clone()
    } else {
        changes.unified_diff(crate::style::Style::PLAIN)?
    };
    let files: Vec<String> = changes.files.keys().map(|p| p.display().to_string()).collect();
    // The detector knows method-level refactorings: a method's rename is checked for, the other
    // kinds are verified by the build, the tests and the style check.
    let intent = match seed {
        Element::Method(m) => {
            let mut i = Intent::new(
                RefactoringKind::RenameMethod,
                project.qualified_name(project.owner(m)),
                project.method(m).name.clone(),
            );
            i.new_name = Some(args.name.clone());
            Some(i)
        }
        _ => None,
    };
    let verify = args.apply && !args.no_verify;
    let (review, applied) = verify::review_and_write(
        ctx,
        project.root(),
        &changes,
        intent.as_ref(),
        verify,
        args.apply,
        args.keep_workspace,
    )?;
    let taken = fates.iter().filter(|f| f.0 == Some(true)).count();
    let listed: Vec<Listed<'_>> = suggestions
        .iter()
        .zip(fates)
        .map(|(suggestion, (accepted, refused))| Listed { suggestion, accepted, refused })
        .collect();
    let count = super::files_count(files.len());
    let what = match (&review, applied) {
        (None, true) => format!("{count} written (unverified)"),
        (Some(_), true) => format!("{count} written (verified)"),
        (Some(r), false) => format!("{count} changed, not written: {}", r.verdict.name()),
        (None, false) => format!("{count} changed (dry run; pass --apply to verify and write)"),
    };
    let old = seed.name(project).to_string();
    let with = if taken > 0 { format!(" with {taken} coordinated") } else { String::new() };
    let summary = format!("rename {} `{old}` → `{}`{with}: {what}", seed.kind(), args.name);
    let mut human = colored;
    let open: Vec<&Listed<'_>> = listed.iter().filter(|l| l.accepted.is_none()).collect();
    if !open.is_empty() {
        human.push_str(&format!("{}\n", style.bold("coordinated suggestions (not applied):")));
        for l in open {
            let s = l.suggestion;
            let why = l.refused.as_deref().map(|r| format!(" [engine refuses: {r}]")).unwrap_or_default();
            human.push_str(&format!(
                "  {:.2}  {} `{}` → `{}`  {}:{}  ({}){why}\n",
                s.score,
                s.kind,
                s.old,
                s.new,
                s.file.display(),
                s.line,
                s.reason
            ));
        }
    }
    human.push_str(&format!("{}\n", style.bold(&summary)));
    let result = RenameResult {
        seed: Seed {
            kind: seed.kind(),
            old,
            new: args.name.clone(),
            file: project.path(seed.file()).to_path_buf(),
            line: seed.line(project),
        },
        suggestions: listed,
        files,
        diff: plain,
        applied,
        verdict: review.as_ref().map(|r| r.verdict.name()),
    };
    ctx.reporter.emit(Event::result("rename", &result, human));
    match &review {
        Some(r) => {
            verify::emit_verdict(ctx, r);
            Ok(verify::exit_of(r))
        }
        None => Ok(Exit::Success),
    }
}

/// FILE as a file of the project, its path taken as `refactor` takes a target's (from the
/// current directory, then the repository root): an error naming what is wrong otherwise.
pub(super) fn project_file(ctx: &Context, project: &Project, file: &Path) -> anyhow::Result<FileId> {
    let f = crate::java::target::project_file(project, &ctx.cwd, file)?;
    project.file(f).with_context(|| format!("cannot read {}", file.display()))?;
    Ok(f)
}

/// The one declaration the flags name: a usage error listing the candidates otherwise.
fn choose(project: &Project, file: FileId, args: &RenameArgs) -> anyhow::Result<Element> {
    let all = element::declarations(project, file, &args.old);
    let path = project.path(file).display().to_string();
    if all.is_empty() {
        return Err(UserError::usage(format!("{path} declares nothing named `{}`", args.old))
            .with_hint("--old is the name as declared in FILE: a class, method, field, parameter or local variable")
            .into());
    }
    let narrowing = Narrowing {
        kind: args.kind.map(Into::into),
        class: args.class.clone(),
        method: args.method.clone(),
        line: args.line,
    };
    let found = element::narrow(project, all.clone(), &narrowing);
    let list = |es: &[Element]| es.iter().map(|e| format!("  {}", e.describe(project))).collect::<Vec<_>>().join("\n");
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(UserError::usage(format!(
            "no declaration named `{}` in {path} fits --kind/--class/--method/--line; it declares:\n{}",
            args.old,
            list(&all)
        ))
        .with_hint("loosen the flags, or use --line with the line of the one you mean")
        .into()),
        many => {
            Err(UserError::usage(format!("`{}` is declared {} times in {path}:\n{}", args.old, many.len(), list(many)))
                .with_hint("choose one with --kind, --class, --method or --line")
                .into())
        }
    }
}
