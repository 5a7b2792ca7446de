//! `mantra suggest [PATH...]`: the opportunities of the project's files (or of the files and
//! folders given), ranked on one scale, each a complete spec the engine was dry-run with
//! ([`crate::plan::suggest`]). `--json`: a `suggestions` result.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::Serialize;

use super::Context;
use crate::cli::SuggestArgs;
use crate::error::UserError;
use crate::exit::Exit;
use crate::java::{FileId, Project};
use crate::plan::suggest::{self, Opportunity};
use crate::refactoring::RefactoringKind;
use crate::report::Event;

/// The `suggestions` result of the `--json` contract.
#[derive(Debug, Serialize)]
struct Suggestions<'a> {
    /// How many files were scanned.
    files: usize,
    /// How many opportunities were scored in full and dry-run to find the best: scoring stops
    /// once no further one could make the list.
    found: usize,
    suggestions: Vec<Listed<'a>>,
}

/// One suggestion as listed: the opportunity and the command that makes exactly it.
#[derive(Debug, Serialize)]
struct Listed<'a> {
    #[serde(flatten)]
    opportunity: &'a Opportunity,
    /// `mantra refactor …` with the spec's every part as flags: it prints this change (add
    /// `--apply` to verify and write it). Absent when the spec holds something no flag says.
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<String>,
}

pub fn run(ctx: &mut Context, args: &SuggestArgs) -> anyhow::Result<Exit> {
    let kinds = if args.kinds.is_empty() { suggest::KINDS.to_vec() } else { args.kinds.clone() };
    if let Some(k) = kinds.iter().find(|k| !suggest::KINDS.contains(k)) {
        return Err(UserError::usage(format!("`suggest` does not propose {k} yet"))
            .with_hint(
                "use --type extract-method, move-method, inline-method, extract-and-move-method or rename-method",
            )
            .into());
    }
    if args.keep_workspace && args.apply_top.is_none() && !args.pick {
        return Err(UserError::usage("--keep-workspace keeps the workspaces of the suggestions made")
            .with_hint("use it with --apply-top N or --pick")
            .into());
    }
    if args.apply_top == Some(0) {
        return Err(UserError::usage("--apply-top 0 would apply nothing")
            .with_hint("give how many of the best to apply, at least 1, or leave it out to list them")
            .into());
    }
    if args.limit == 0 {
        return Err(UserError::usage("--limit 0 would list nothing")
            .with_hint("give how many to list, at least 1 (the default is 20)")
            .into());
    }
    if !(0.0..=1.0).contains(&args.min_score) {
        return Err(UserError::usage(format!("--min-score {} is outside 0..1", args.min_score)).into());
    }
    // A SARIF destination that cannot be written is found before the scan, not after it.
    if let Some(path) = &args.sarif {
        let out = sarif_path(ctx, path);
        let problem = if out.is_dir() {
            Some("it is a folder")
        } else if !out.parent().is_some_and(Path::is_dir) {
            Some("its folder does not exist")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(UserError::usage(format!("cannot write --sarif {}: {problem}", out.display()))
                .with_hint("give --sarif a file in a folder that exists and is writable")
                .into());
        }
    }
    let project =
        Project::open(&ctx.repo).with_context(|| format!("cannot read the project at {}", ctx.repo.display()))?;
    let mut files = selected(ctx, &project, &args.paths)?;
    if let Some(spec) = &args.shard {
        let (k, n) = parse_shard(spec)?;
        files.retain(|&f| shard_of(project.path(f), n) == k);
    }
    ctx.reporter.progress("suggest", format!("scanning {} file(s)", files.len()));
    let model = super::refactor::open_model(ctx, &args.model.agents())?;
    if model.is_none() && args.model.llm == Some(crate::cli::LlmChoice::Auto) {
        return Err(UserError::usage("--llm auto: no model is configured to review the suggestions")
            .with_hint("configure one (`llm.base_url`, `llm.model`), or leave out --llm for the heuristic ranking")
            .into());
    }
    // The model chooses among twice as many as are listed, so that it can bring one up.
    let asked = if model.is_some() { args.limit.saturating_mul(2).min(40).max(args.limit) } else { args.limit };
    let ranked = suggest::opportunities(&project, &files, &kinds, asked, args.min_score);
    let (found, mut shown) = (ranked.ranked, ranked.best);
    if let Some((model, _)) = model
        && !shown.is_empty()
    {
        // The methods whose names say least about their code, for the model to name.
        let names: Vec<_> = if kinds.contains(&RefactoringKind::RenameMethod) {
            suggest::naming::candidates(&project, &files, suggest::naming::OFFERED + shown.len())
                .into_iter()
                .filter(|c| !shown.iter().any(|o| o.method == c.method && o.kind == RefactoringKind::RenameMethod))
                .take(suggest::naming::OFFERED)
                .collect()
        } else {
            Vec::new()
        };
        shown = reviewed(ctx, model.as_ref(), &project, files.len(), shown, &names)?;
    }
    shown.truncate(args.limit);
    let scanned: Vec<std::path::PathBuf> = files.iter().map(|&f| project.path(f).to_path_buf()).collect();
    let style = ctx.reporter.style();
    let listed: Vec<Listed> = shown
        .iter()
        .map(|o| Listed {
            opportunity: o,
            command: crate::engine::refactor_command(ctx.global.repo.as_deref(), &o.spec, &o.target),
        })
        .collect();
    let mut human = String::new();
    for (i, l) in listed.iter().enumerate() {
        let o = l.opportunity;
        human.push_str(&format!(
            "{:>2}. {:.2}  {}  {}\n      {}\n",
            i + 1,
            o.score,
            style.bold(o.kind.name()),
            o.target,
            o.reason
        ));
        if let Some(command) = &l.command {
            human.push_str(&format!("      {}\n", style.dim(&format!("$ {command}"))));
        }
    }
    human.push_str(&format!(
        "{} of {found} opportunities ranked in {} file(s); each command prints its change (add --apply to \
         verify and write it), or make them here with --apply-top N or --pick\n",
        shown.len(),
        files.len()
    ));
    let result = Suggestions { files: files.len(), found, suggestions: listed };
    ctx.reporter.emit(Event::result("suggestions", &result, human));
    if let Some(path) = &args.sarif {
        write_sarif(ctx, &project, &shown, path)?;
    }
    if let Some(n) = args.apply_top {
        return apply_top(ctx, args, &shown[..n.min(shown.len())], &scanned);
    }
    // In a terminal the list is a menu; `--pick` asks with the answer piped in.
    let terminal = {
        use std::io::IsTerminal;
        std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
    };
    if !shown.is_empty() && (args.pick || (terminal && !ctx.reporter.json())) {
        let picked = pick(shown.len(), &mut std::io::stdin().lock())?;
        if !picked.is_empty() {
            let chosen: Vec<Opportunity> = picked.iter().map(|&i| shown[i].clone()).collect();
            return apply_top(ctx, args, &chosen, &scanned);
        }
    }
    Ok(Exit::Success)
}

/// The suggestions as the model ranks and names them (as they were when its answer is unusable).
fn reviewed(
    ctx: &mut Context,
    model: &dyn crate::llm::ChatModel,
    project: &Project,
    files: usize,
    shown: Vec<Opportunity>,
    names: &[suggest::naming::Naming],
) -> anyhow::Result<Vec<Opportunity>> {
    let prompts = crate::llm::prompts::Prompts::load(ctx.config.config.prompts_dir.as_deref())?;
    ctx.reporter.progress("model", format!("reviewing {} suggestion(s) with the model", shown.len()));
    let outcome = crate::agent::suggest::rerank(model, &prompts, project, files, shown, names)?;
    if let Some(why) = &outcome.ignored {
        ctx.reporter.progress("warning", format!("{why}; the heuristic ranking stands"));
    }
    for note in &outcome.notes {
        ctx.reporter.progress("model", note.clone());
    }
    Ok(outcome.suggestions)
}

/// Asks which of `count` listed suggestions to make: their indices (0-based) in the order given,
/// none for an empty answer, `q` or the end of the input. A wrong answer is explained and asked
/// again.
fn pick(count: usize, input: &mut dyn std::io::BufRead) -> anyhow::Result<Vec<usize>> {
    loop {
        eprint!("make which? numbers 1-{count} (e.g. `1,3` or `2-4`), Enter for none: ");
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            eprintln!();
            return Ok(Vec::new());
        }
        match parse_pick(&line, count) {
            Ok(picked) => return Ok(picked),
            Err(why) => eprintln!("{why}"),
        }
    }
}

/// `1,3`, `2-4`, `1 3`: 0-based indices, in order, each once; an empty answer or `q` is none.
fn parse_pick(answer: &str, count: usize) -> Result<Vec<usize>, String> {
    let answer = answer.trim();
    if answer.is_empty() || answer.eq_ignore_ascii_case("q") {
        return Ok(Vec::new());
    }
    let number = |s: &str| -> Result<usize, String> {
        match s.trim().parse::<usize>() {
            Ok(n) if (1..=count).contains(&n) => Ok(n - 1),
            Ok(n) => Err(format!("{n} is not on the list: give numbers from 1 to {count}")),
            Err(_) => Err(format!("`{}` is not a number: give numbers such as `1,3` or `2-4`", s.trim())),
        }
    };
    let mut out: Vec<usize> = Vec::new();
    for part in answer.split([',', ' ']).filter(|p| !p.trim().is_empty()) {
        let range = match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(format!("`{}` runs backwards: write the smaller number first", part.trim()));
                }
                a..=b
            }
            None => {
                let n = number(part)?;
                n..=n
            }
        };
        for i in range {
            if !out.contains(&i) {
                out.push(i);
            }
        }
    }
    Ok(out)
}

/// `--sarif`'s file: relative paths are to the working directory.
fn sarif_path(ctx: &Context, path: &Path) -> PathBuf {
    if path.is_absolute() { path.to_path_buf() } else { ctx.cwd.join(path) }
}

/// The listed suggestions as a SARIF log at `path` (relative to the working directory).
fn write_sarif(ctx: &mut Context, project: &Project, shown: &[Opportunity], path: &Path) -> anyhow::Result<()> {
    let fixes: Vec<Option<crate::engine::ChangeSet>> =
        shown.iter().map(|o| crate::engine::apply(project, o.method, &o.spec).ok()).collect();
    let findings: Vec<crate::report::sarif::Finding<'_>> = shown
        .iter()
        .zip(&fixes)
        .map(|(o, fix)| {
            let decl = project.method(o.method);
            crate::report::sarif::Finding {
                rule: o.kind.name(),
                message: &o.reason,
                path: project.method_source(o.method).path.display().to_string().replace('\\', "/"),
                start_line: decl.span.start_line,
                end_line: decl.span.end_line,
                score: o.score,
                target: &o.target,
                fix: fix.as_ref(),
            }
        })
        .collect();
    let log = crate::report::sarif::log(&findings);
    let out = sarif_path(ctx, path);
    let text = serde_json::to_string_pretty(&log).context("rendering SARIF")?;
    std::fs::write(&out, text + "\n").map_err(|e| {
        UserError::usage(format!("cannot write {}: {e}", out.display()))
            .with_hint("give --sarif a file in a folder that exists and is writable")
    })?;
    ctx.reporter.progress("sarif", format!("{} result(s) written to {}", findings.len(), out.display()));
    Ok(())
}

/// One applied suggestion of `--apply-top`.
#[derive(Debug, Serialize)]
struct Applied {
    #[serde(rename = "type")]
    kind: RefactoringKind,
    target: String,
    /// `accepted`, `rejected`, `broken-baseline`, or `skipped` (no longer applies after the
    /// changes before it).
    verdict: String,
    applied: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
}

/// Makes `chosen`, in order, each planned again on the project as the accepted ones before it
/// left it (their lines may have moved), verified, and written only when accepted.
/// `scanned`: the files the list was made from, where code written twice was looked for.
fn apply_top(
    ctx: &mut Context,
    args: &SuggestArgs,
    chosen: &[Opportunity],
    scanned: &[std::path::PathBuf],
) -> anyhow::Result<Exit> {
    let mut outcomes = Vec::new();
    for (i, o) in chosen.iter().enumerate() {
        ctx.reporter.progress("suggest", format!("{}/{}: {} {}", i + 1, chosen.len(), o.kind, o.target));
        let project =
            Project::open(&ctx.repo).with_context(|| format!("cannot read the project at {}", ctx.repo.display()))?;
        let skipped = |why: String| Applied {
            kind: o.kind,
            target: o.target.clone(),
            verdict: "skipped".into(),
            applied: false,
            why: Some(why),
        };
        let method = match crate::java::target::resolve(&project, &ctx.repo, &o.target) {
            Ok(t) => t.method,
            Err(e) => {
                outcomes.push(skipped(format!("the method is no longer there: {e}")));
                continue;
            }
        };
        let also: Vec<_> = scanned.iter().filter_map(|p| project.file_id(p)).collect();
        let Some(again) = suggest::of_method(&project, method, &[o.kind], &also).into_iter().next() else {
            outcomes.push(skipped("no longer an opportunity after the changes before it".into()));
            continue;
        };
        // Planned again, the method's new name is the planner's: the one listed (the model's,
        // when it named it) stays when the engine takes it.
        let mut again = again;
        if let Some(name) = o.spec.new_name()
            && again.spec.new_name().is_some_and(|n| n != name)
        {
            let named = again.spec.clone().with_new_name(name);
            if crate::engine::apply(&project, method, &named).is_ok() {
                again.spec = named;
            }
        }
        let changes = match crate::engine::apply(&project, method, &again.spec) {
            Ok(c) => c,
            Err(r) => {
                outcomes.push(skipped(format!("{}: {}", r.reason, r.message)));
                continue;
            }
        };
        let intent = crate::engine::intent(&project, method, o.kind, Some(&again.spec));
        let (review, applied) = super::verify::review_and_write(
            ctx,
            project.root(),
            &changes,
            Some(&intent),
            true,
            true,
            args.keep_workspace,
        )?;
        let verdict = review.as_ref().map_or("unverified", |r| r.verdict.name()).to_string();
        if let Some(r) = &review {
            super::verify::emit_verdict(ctx, r);
        }
        outcomes.push(Applied { kind: o.kind, target: o.target.clone(), verdict, applied, why: None });
    }
    let written = outcomes.iter().filter(|a| a.applied).count();
    let mut human = String::new();
    for a in &outcomes {
        let why = a.why.as_deref().map(|w| format!(" ({w})")).unwrap_or_default();
        human.push_str(&format!("{}  {} {}{why}\n", a.verdict, a.kind, a.target));
    }
    human.push_str(&format!("{written} of {} suggestion(s) verified and written\n", outcomes.len()));
    let all_accepted = written == outcomes.len();
    ctx.reporter.emit(Event::result("applied-suggestions", &outcomes, human));
    Ok(if all_accepted { Exit::Success } else { Exit::Rejected })
}

/// `K/N` with 1 ≤ K ≤ N, as (K - 1, N).
pub fn parse_shard(spec: &str) -> anyhow::Result<(u64, u64)> {
    let bad = || {
        UserError::usage(format!("--shard {spec}: expected K/N with 1 ≤ K ≤ N, e.g. 2/4"))
            .with_hint("run N jobs with --shard 1/N ... --shard N/N")
    };
    let (k, n) = spec.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if k == 0 || n == 0 || k > n {
        return Err(bad().into());
    }
    Ok((k - 1, n))
}

/// The shard (0-based) of a repository-relative path among `n`: FNV-1a of its `/`-separated
/// text, so that it does not depend on the machine, the order of the walk or the other files.
pub fn shard_of(path: &Path, n: u64) -> u64 {
    shard_key(&path.display().to_string().replace('\\', "/"), n)
}

/// The shard (0-based) of a key among `n`, by FNV-1a.
pub fn shard_key(text: &str, n: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h % n
}

/// The project's files under the given paths (all of them when none is given).
fn selected(ctx: &Context, project: &Project, paths: &[std::path::PathBuf]) -> anyhow::Result<Vec<FileId>> {
    if paths.is_empty() {
        return Ok(project.file_ids().collect());
    }
    let root = ctx.repo.canonicalize().unwrap_or_else(|_| ctx.repo.clone());
    let mut out = Vec::new();
    for p in paths {
        let abs = if p.is_absolute() { p.clone() } else { ctx.cwd.join(p) };
        let abs = abs.canonicalize().map_err(|_| {
            UserError::new(Exit::TargetNotFound, format!("{}: no such file or folder", p.display()))
                .with_hint("give .java files or folders of the project")
        })?;
        let Ok(rel) = abs.strip_prefix(&root) else {
            return Err(UserError::usage(format!("{} is outside the project at {}", p.display(), ctx.repo.display()))
                .with_hint("give paths under the project, or --repo the project that holds them")
                .into());
        };
        let before = out.len();
        out.extend(project.file_ids().filter(|&f| under(project.path(f), rel)));
        if out.len() == before {
            return Err(UserError::usage(format!("{} holds no .java file of the project", p.display()))
                .with_hint("give .java files or folders that hold some")
                .into());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn under(file: &Path, prefix: &Path) -> bool {
    prefix.as_os_str().is_empty() || file == prefix || file.starts_with(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_are_numbers_and_ranges_in_the_order_given() {
        assert_eq!(parse_pick("1,3\n", 5), Ok(vec![0, 2]));
        assert_eq!(parse_pick(" 2-4 ", 5), Ok(vec![1, 2, 3]));
        assert_eq!(parse_pick("3 1 3", 5), Ok(vec![2, 0]));
        assert_eq!(parse_pick("", 5), Ok(vec![]));
        assert_eq!(parse_pick("q", 5), Ok(vec![]));
        assert!(parse_pick("6", 5).unwrap_err().contains("from 1 to 5"));
        assert!(parse_pick("0", 5).unwrap_err().contains("not on the list"));
        assert!(parse_pick("two", 5).unwrap_err().contains("`two` is not a number"));
        assert!(parse_pick("4-2", 5).unwrap_err().contains("runs backwards"));
        // A wrong answer is asked again; the end of the input is no pick.
        let mut input: &[u8] = b"9\n2\n";
        assert_eq!(pick(3, &mut input).unwrap(), vec![1]);
        let mut input: &[u8] = b"x\n";
        assert_eq!(pick(3, &mut input).unwrap(), Vec::<usize>::new());
    }
}
