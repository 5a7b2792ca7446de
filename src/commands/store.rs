//! `mantra store`: fill the example store (import, mine), look into it (search, info).
//!
//! `search` shows exactly what the Developer agent would be given for a method or a text: the
//! top k examples of the type, each with its BM25 rank, its embedding rank and the fused score.
//! The store's notices (an index rebuilt, no embedding model) become warnings.

use std::path::PathBuf;

use anyhow::Context as _;
use serde::Serialize;

use super::Context;
use crate::cli::{StoreArgs, StoreCommand, StoreImportArgs, StoreMineArgs, StoreSearchArgs};
use crate::error::UserError;
use crate::exit::Exit;
use crate::java::{Project, target};
use crate::report::Event;
use crate::store::describe::{self, Describer};
use crate::store::{Hit, Mode, Query, Store, StoreOptions, import, mine};

pub fn run(ctx: &mut Context, args: &StoreArgs) -> anyhow::Result<Exit> {
    let dir = if args.user {
        crate::store::user_store_dir().ok_or_else(|| {
            UserError::usage("--user: no data folder (neither XDG_DATA_HOME nor HOME is set)")
                .with_hint("set store.dir, or HOME")
        })?
    } else {
        crate::store::store_dir(&ctx.repo, ctx.config.config.store.dir.as_deref())
    };
    let mut store = Store::open_with(&dir, &StoreOptions::from_config(&ctx.config.config))
        .with_context(|| format!("opening the store in {}", dir.display()))?;
    flush_notices(ctx, &mut store);
    let exit = match &args.command {
        StoreCommand::Import(a) => import_files(ctx, &mut store, a),
        StoreCommand::Mine(a) => mine_history(ctx, &mut store, a),
        StoreCommand::Search(a) => search(ctx, &store, a),
        StoreCommand::Info => info(ctx, &store),
    };
    flush_notices(ctx, &mut store);
    exit
}

fn flush_notices(ctx: &mut Context, store: &mut Store) {
    for n in store.take_notices() {
        ctx.reporter.warning(n.message, n.hint);
    }
}

#[derive(Serialize)]
struct ImportReport {
    store: PathBuf,
    files: Vec<FileReport>,
    added: usize,
    replaced: usize,
    embedded: usize,
    total: usize,
}

#[derive(Serialize)]
struct FileReport {
    path: PathBuf,
    records: usize,
    skipped: Vec<String>,
}

fn import_files(ctx: &mut Context, store: &mut Store, args: &StoreImportArgs) -> anyhow::Result<Exit> {
    // Every file is read before anything is added: a bad file leaves the store as it was.
    let mut describer = Describer::Summary;
    let mut records = Vec::new();
    let mut files = Vec::new();
    for f in &args.files {
        let path = ctx.cwd.join(f);
        ctx.reporter.progress("store", format!("reading {}", f.display()));
        let got = import::import_path(&path, store, &mut describer)?;
        files.push(FileReport { path: f.clone(), records: got.records.len(), skipped: got.skipped });
        records.extend(got.records);
    }
    ctx.reporter.progress("store", format!("indexing {} record(s)", records.len()));
    let added = store.add(records)?;
    let report = ImportReport {
        store: store.dir().to_path_buf(),
        files,
        added: added.added,
        replaced: added.replaced,
        embedded: added.embedded,
        total: store.records().len(),
    };
    let mut human = String::new();
    for f in &report.files {
        human.push_str(&format!("{}: {} record(s)", f.path.display(), f.records));
        if !f.skipped.is_empty() {
            human.push_str(&format!(", {} skipped (first: {})", f.skipped.len(), f.skipped[0]));
        }
        human.push('\n');
    }
    human.push_str(&format!(
        "added {}, replaced {}, embedded {}; the store in {} holds {} record(s)\n",
        report.added,
        report.replaced,
        report.embedded,
        report.store.display(),
        report.total
    ));
    ctx.reporter.emit(Event::result("store_import", &report, human));
    Ok(Exit::Success)
}

#[derive(Serialize)]
struct MineReport {
    store: PathBuf,
    commits: usize,
    refactorings: usize,
    impure: usize,
    added: usize,
    replaced: usize,
    total: usize,
}

fn mine_history(ctx: &mut Context, store: &mut Store, args: &StoreMineArgs) -> anyhow::Result<Exit> {
    let mut describer = Describer::Summary;
    ctx.reporter.progress("store", format!("walking {}", args.range.as_deref().unwrap_or("HEAD")));
    let mined = mine::mine(&ctx.repo, args.range.as_deref(), args.max_commits, store, &mut describer)?;
    let added = store.add(mined.records)?;
    let report = MineReport {
        store: store.dir().to_path_buf(),
        commits: mined.commits,
        refactorings: mined.refactorings,
        impure: mined.impure,
        added: added.added,
        replaced: added.replaced,
        total: store.records().len(),
    };
    let human = format!(
        "{} commit(s) walked, {} method-level refactoring(s) detected, {} impure left out; added {}, the store holds {}\n",
        report.commits, report.refactorings, report.impure, report.added, report.total
    );
    ctx.reporter.emit(Event::result("store_mine", &report, human));
    Ok(Exit::Success)
}

#[derive(Serialize)]
struct SearchReport<'a> {
    query: &'a str,
    /// The type filter, as RefactoringMiner names it.
    #[serde(rename = "type")]
    kind: Option<&'static str>,
    requested_mode: Mode,
    mode: Mode,
    hits: Vec<Hit>,
}

/// The query text for a `file:method` target: what a record's summary and code would say.
fn target_text(ctx: &Context, spec: &str) -> anyhow::Result<String> {
    let project =
        Project::open(&ctx.repo).with_context(|| format!("cannot read the project at {}", ctx.repo.display()))?;
    let t = target::resolve(&project, &ctx.cwd, spec)?;
    let owner = project.owner(t.method);
    let source = project.method_source(t.method);
    let code = source.slice(&project.method(t.method).span).to_string();
    let facts = describe::code_facts(&code);
    let callers: Vec<String> = project
        .callers(t.method)
        .into_iter()
        .map(|c| format!("{}#{}", project.qualified_name(project.owner(c.method)), project.method(c.method).name))
        .collect();
    let mut text = format!(
        "Method {} in class {} ({}).\n",
        facts.signature,
        project.qualified_name(owner),
        project.type_decl(owner).header.trim()
    );
    if !facts.callees.is_empty() {
        text.push_str(&format!("Calls: {}.\n", facts.callees.join(", ")));
    }
    if !callers.is_empty() {
        text.push_str(&format!("Called by: {}.\n", callers.join(", ")));
    }
    text.push_str(&code);
    Ok(text)
}

/// A query that names a method of the project (`path/To.java:name`), rather than free text.
fn looks_like_target(q: &str) -> bool {
    q.split_once(".java:").is_some_and(|(path, sel)| !path.contains(char::is_whitespace) && !sel.trim().is_empty())
}

fn search(ctx: &mut Context, store: &Store, args: &StoreSearchArgs) -> anyhow::Result<Exit> {
    if args.k == 0 {
        return Err(UserError::usage("-k 0 asks for no examples").with_hint("pass -k 1 or more").into());
    }
    let text = if looks_like_target(&args.query) { target_text(ctx, &args.query)? } else { args.query.clone() };
    if text.trim().is_empty() {
        return Err(UserError::usage("the query is empty")
            .with_hint("pass some code, a method name or file:method")
            .into());
    }
    let kind = args.kind.map(crate::detect::RefactoringType::from);
    if store.records().is_empty() {
        ctx.reporter.warning(
            format!("the store in {} is empty", store.dir().display()),
            Some("fill it with `mantra store import FILE...` or `mantra store mine`".into()),
        );
    }
    let query = Query { text, kind, k: args.k, mode: args.mode };
    let hits = store.search(&query)?;
    let report = SearchReport {
        query: &args.query,
        kind: kind.map(|k| k.display_name()),
        requested_mode: args.mode,
        mode: store.effective_mode(args.mode),
        hits,
    };
    let human = render_hits(&report);
    ctx.reporter.emit(Event::result("store_search", &report, human));
    Ok(Exit::Success)
}

fn render_hits(report: &SearchReport) -> String {
    let mut out = String::new();
    if report.hits.is_empty() {
        out.push_str("no examples found\n");
        return out;
    }
    let rank = |r: Option<usize>| r.map_or("-".to_string(), |r| format!("#{r}"));
    for (i, h) in report.hits.iter().enumerate() {
        let r = &h.record;
        out.push_str(&format!(
            "{}. {}  fused {:.4}  bm25 {}{}  embed {}{}\n",
            i + 1,
            r.id,
            h.fused_score,
            rank(h.bm25_rank),
            h.bm25_score.map(|s| format!(" ({s:.2})")).unwrap_or_default(),
            rank(h.embed_rank),
            h.cosine.map(|c| format!(" ({c:.3})")).unwrap_or_default(),
        ));
        out.push_str(&format!("   {}\n", r.refactoring.replace('\t', ": ")));
        for line in r.description.lines() {
            out.push_str(&format!("   | {line}\n"));
        }
    }
    out.push_str(&format!("mode: {:?}\n", report.mode).to_lowercase());
    out
}

fn info(ctx: &mut Context, store: &Store) -> anyhow::Result<Exit> {
    let stats = store.stats();
    let mut human = format!("store: {}\nrecords: {}\n", stats.dir.display(), stats.records);
    for (t, n) in &stats.by_type {
        human.push_str(&format!("  {t}: {n}\n"));
    }
    for (s, n) in &stats.by_source {
        human.push_str(&format!("  from {s}: {n}\n"));
    }
    human.push_str(&format!(
        "indexed (BM25, index v{}): {}\nembeddings: {}\n",
        stats.index_version,
        stats.indexed,
        if stats.embeddings { format!("{} vector(s)", stats.embedded) } else { "unavailable (BM25 only)".into() }
    ));
    ctx.reporter.emit(Event::result("store_info", &stats, human));
    Ok(Exit::Success)
}
