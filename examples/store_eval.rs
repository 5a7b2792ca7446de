//! Retrieval quality of the example store, leave one project out, for BM25, embeddings and hybrid.
//!
//! `cargo run --release --example store_eval` (data from `MANTRA_SHARED_DATA` or `../shared/data`;
//! the embedding model where `scripts/setup.sh --no-build` puts it, or `MANTRA_EMBED_MODEL_DIR`).
//!
//! For each of the three PureRefactor projects in turn, a fresh store is built from the other two
//! and every record of the held-out project is a query, filtered by its own type, as the
//! Developer agent would ask. Two query texts are tried: the method's code before alone, and the
//! deterministic summary plus the code (what `mantra store search file:method` sends).
//!
//! **Relevance rule.** A stored example is relevant to a query when it has the same refactoring
//! type and their code before calls at least one method of the same name, not counting the 20
//! names called by the most records of the corpus (`get`, `add`, `size`, `equals`, ... say
//! nothing about the role). Queries without any relevant example in their store are left out of
//! the averages (their count is printed). recall@3: the share of queries with a relevant example
//! in the top 3; MRR@10: the mean of 1/rank of the first relevant example in the top 10 (0 if
//! none). "random" is the expected recall@3 of a random ordering of the same-type examples.
//!
//! The `hybrid w=...` rows fuse the same BM25 and embedding lists (50 deep) by weighted RRF with
//! the embedding list at weight w (`fusion::fuse_weighted`), to choose `fusion::EMBED_WEIGHT`;
//! `mode=hybrid` is what the store itself returns.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use mantra::dataset::{pure_refactor_files, shared_data_dir};
use mantra::store::describe::{Describer, summary};
use mantra::store::fusion::fuse_weighted;
use mantra::store::import::import_path;
use mantra::store::{EmbedSetting, Mode, Query, Record, Store, StoreOptions};

/// Embedding-list weights tried in the fusion sweep (code queries).
const SWEEP: [f64; 5] = [0.1, 0.25, 0.5, 0.75, 1.0];

const COMMON: usize = 20;

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn store_options() -> StoreOptions {
    let model_dir = std::env::var_os("MANTRA_EMBED_MODEL_DIR").map(PathBuf::from);
    StoreOptions { embed: EmbedSetting::Configured { model_dir, onnxruntime: None }, threads: 2 }
}

#[derive(Default, Clone, Copy)]
struct Score {
    queries: usize,
    hits3: usize,
    rr: f64,
    random3: f64,
}

fn run() -> Result<(), String> {
    let data = shared_data_dir()?;
    let files = pure_refactor_files(&data)?;
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;

    // Every record once, to find the corpus's most common callee names.
    let all_store =
        Store::open_with(&scratch.path().join("all"), &StoreOptions { embed: EmbedSetting::Off, threads: 1 })
            .map_err(|e| e.to_string())?;
    let mut by_project: Vec<(String, Vec<Record>)> = Vec::new();
    for (name, path) in &files {
        let got = import_path(path, &all_store, &mut Describer::Summary).map_err(|e| e.to_string())?;
        by_project.push((name.clone(), got.records));
    }
    let mut df: HashMap<&str, usize> = HashMap::new();
    for (_, records) in &by_project {
        for r in records {
            for c in r.callees.iter().collect::<HashSet<_>>() {
                *df.entry(c.as_str()).or_default() += 1;
            }
        }
    }
    let mut common: Vec<(&str, usize)> = df.into_iter().collect();
    common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let common: HashSet<String> = common.iter().take(COMMON).map(|(n, _)| n.to_string()).collect();
    let mut shown: Vec<&String> = common.iter().collect();
    shown.sort();
    println!("common callee names left out of the relevance rule: {shown:?}");
    let calls =
        |r: &Record| -> HashSet<String> { r.callees.iter().filter(|c| !common.contains(*c)).cloned().collect() };

    let modes = [Mode::Bm25, Mode::Embed, Mode::Hybrid];
    let texts = ["code", "summary+code"];
    let mut totals: HashMap<(usize, usize), Score> = HashMap::new();
    let mut skipped = 0;
    for (held, (name, queries)) in by_project.iter().enumerate() {
        let dir = scratch.path().join(format!("without-{name}"));
        let mut store = Store::open_with(&dir, &store_options()).map_err(|e| e.to_string())?;
        if !store.has_embeddings() {
            let why: Vec<String> = store.take_notices().into_iter().map(|n| n.message).collect();
            return Err(format!("the embedding model is needed: {}", why.join("; ")));
        }
        let mut examples = Vec::new();
        for (i, (n, path)) in files.iter().enumerate() {
            if i != held {
                let got = import_path(path, &store, &mut Describer::Summary).map_err(|e| e.to_string())?;
                eprintln!("fold {name}: {} examples from {n}", got.records.len());
                examples.extend(got.records);
            }
        }
        store.add(examples).map_err(|e| e.to_string())?;
        let mut fold: HashMap<(usize, usize), Score> = HashMap::new();
        for q in queries {
            let q_calls = calls(q);
            let same_type: Vec<&Record> = store.records().iter().filter(|r| r.kind == q.kind).collect();
            let relevant: HashSet<&str> =
                same_type.iter().filter(|r| !calls(r).is_disjoint(&q_calls)).map(|r| r.id.as_str()).collect();
            if relevant.is_empty() {
                skipped += 1;
                continue;
            }
            let random3 = random_recall(same_type.len(), relevant.len(), 3);
            for (t, label) in texts.iter().enumerate() {
                let text =
                    if *label == "code" { q.code_before.clone() } else { format!("{}\n{}", summary(q), q.code_before) };
                let mut tally = |key: (usize, usize), ranked: &[String]| {
                    let first = ranked.iter().take(10).position(|id| relevant.contains(id.as_str()));
                    let s = fold.entry(key).or_default();
                    s.queries += 1;
                    s.hits3 += usize::from(first.is_some_and(|p| p < 3));
                    s.rr += first.map_or(0.0, |p| 1.0 / (p + 1) as f64);
                    s.random3 += random3;
                };
                let mut lists: Vec<Vec<String>> = Vec::new();
                for (m, mode) in modes.iter().enumerate() {
                    let depth = if *mode == Mode::Hybrid { 10 } else { 50 };
                    let hits = store
                        .search(&Query { text: text.clone(), kind: Some(q.kind), k: depth, mode: *mode })
                        .map_err(|e| e.to_string())?;
                    let ids: Vec<String> = hits.into_iter().map(|h| h.record.id).collect();
                    tally((t, m), &ids);
                    lists.push(ids);
                }
                if *label == "code" {
                    for (w, weight) in SWEEP.iter().enumerate() {
                        let fused: Vec<String> =
                            fuse_weighted(&lists[..2], &[1.0, *weight]).into_iter().map(|f| f.id).collect();
                        tally((t, modes.len() + w), &fused);
                    }
                }
            }
        }
        let mut keys: Vec<(usize, usize)> = fold.keys().copied().collect();
        keys.sort();
        for key in keys {
            let s = fold[&key];
            println!("{}", row(&format!("held out {name}"), texts[key.0], &mode_label(key.1), &s));
            let t = totals.entry(key).or_default();
            t.queries += s.queries;
            t.hits3 += s.hits3;
            t.rr += s.rr;
            t.random3 += s.random3;
        }
    }
    println!("\nall three folds ({skipped} queries without a relevant example left out):");
    for (t, text) in texts.iter().enumerate() {
        for m in 0..modes.len() + SWEEP.len() {
            if let Some(s) = totals.get(&(t, m)) {
                println!("{}", row("all", text, &mode_label(m), s));
            }
        }
    }
    Ok(())
}

/// `bm25`, `embed`, `hybrid`, then the sweep's `hybrid w=0.25`...
fn mode_label(m: usize) -> String {
    match m {
        0 => "bm25".into(),
        1 => "embed".into(),
        2 => "hybrid".into(),
        _ => format!("hybrid w={}", SWEEP[m - 3]),
    }
}

fn row(fold: &str, text: &str, mode: &str, s: &Score) -> String {
    let n = s.queries.max(1) as f64;
    format!(
        "{fold:<24} query={text:<13} mode={mode:<12} queries={:>3} recall@3={:.3} MRR@10={:.3} random recall@3={:.3}",
        s.queries,
        s.hits3 as f64 / n,
        s.rr / n,
        s.random3 / n
    )
}

/// The chance that a random `k` of `n` examples include one of the `r` relevant ones.
fn random_recall(n: usize, r: usize, k: usize) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let k = k.min(n);
    // 1 - C(n-r, k) / C(n, k)
    let mut miss = 1.0;
    for i in 0..k {
        miss *= (n - r).saturating_sub(i) as f64 / (n - i) as f64;
    }
    1.0 - miss
}
