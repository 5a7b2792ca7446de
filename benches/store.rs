//! Example-store speed: indexing with embeddings, and query latency at 10,000 records.
//!
//! `cargo bench --bench store` (data from `MANTRA_SHARED_DATA` or `../shared/data`; the embedding
//! model where `scripts/setup.sh --no-build` puts it, or `MANTRA_EMBED_MODEL_DIR`).
//! `MANTRA_BENCH_RECORDS` changes the size of the large store (default 10000).
//!
//! 1. Indexing: the 277 PureRefactor records added to an empty store (BM25 + embeddings, the
//!    model on 2 threads), in records per second. Reading the JSON is not counted.
//! 2. Latency: a store of N records made from the real ones with varied text: variant v of a
//!    record renames its four most used identifiers (`mark` → `markHarbor`, with a word that
//!    changes with v) in the code before and after, and its description is re-summarised, so no
//!    two records have the same text or vector. 300 queries (the code before of real records,
//!    filtered by their type) are timed one by one in each mode after one warm-up query.
//!
//! Beside each wall-clock figure the process's CPU time (all threads) is printed: on a shared
//! machine the wall clock measures the neighbours too, the CPU time much less so.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use mantra::dataset::{pure_refactor_files, shared_data_dir};
use mantra::store::bm25::code_terms;
use mantra::store::describe::{Describer, summary};
use mantra::store::import::import_path;
use mantra::store::{EmbedSetting, Mode, Query, Record, Store, StoreOptions};

const WORDS: &[&str] = &[
    "Harbor", "Quartz", "Lumen", "Cedar", "Vector", "Pulse", "Orbit", "Meadow", "Signal", "Ember", "Delta", "Falcon",
    "Granite", "Helix", "Island", "Jasper", "Kernel", "Lotus", "Magnet", "Nectar", "Opal", "Prism", "Quill", "Raven",
    "Summit", "Tundra", "Umber", "Velvet", "Willow", "Xenon", "Yonder", "Zephyr", "Anchor", "Beacon", "Cobalt",
    "Drift",
];

const JAVA: &[&str] = &[
    "public",
    "private",
    "protected",
    "static",
    "final",
    "void",
    "int",
    "long",
    "boolean",
    "return",
    "new",
    "this",
    "null",
    "true",
    "false",
    "if",
    "else",
    "for",
    "while",
    "try",
    "catch",
    "throw",
    "throws",
    "string",
    "class",
    "override",
    "double",
    "char",
    "byte",
    "float",
    "super",
    "instanceof",
    "case",
    "switch",
    "break",
    "continue",
];

fn options() -> StoreOptions {
    let model_dir = std::env::var_os("MANTRA_EMBED_MODEL_DIR").map(PathBuf::from);
    StoreOptions { embed: EmbedSetting::Configured { model_dir, onnxruntime: None }, threads: 2 }
}

/// CPU seconds this process has used, all threads.
#[cfg(unix)]
fn cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0.0;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

#[cfg(not(unix))]
fn cpu_seconds() -> f64 {
    0.0
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let data = shared_data_dir()?;
    let files = pure_refactor_files(&data)?;
    let n: usize = std::env::var("MANTRA_BENCH_RECORDS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;

    // 1. Indexing rate.
    let mut store = Store::open_with(&scratch.path().join("real"), &options()).map_err(|e| e.to_string())?;
    if !store.has_embeddings() {
        let why: Vec<String> = store.take_notices().into_iter().map(|n| n.message).collect();
        return Err(format!("the embedding model is needed: {}", why.join("; ")));
    }
    let mut real = Vec::new();
    for (_, path) in &files {
        real.extend(import_path(path, &store, &mut Describer::Summary).map_err(|e| e.to_string())?.records);
    }
    let (start, cpu) = (Instant::now(), cpu_seconds());
    let added = store.add(real.clone()).map_err(|e| e.to_string())?;
    let (took, cpu) = (start.elapsed(), cpu_seconds() - cpu);
    println!(
        "indexing: {} records (BM25 + {} embedded, model on 2 threads) in {:.2} s = {:.1} records/s ({:.1} ms CPU a record)",
        added.added,
        added.embedded,
        took.as_secs_f64(),
        added.added as f64 / took.as_secs_f64(),
        cpu * 1000.0 / added.added as f64
    );

    // 2. Latency at n records.
    let mut big = Store::open_with(&scratch.path().join("big"), &options()).map_err(|e| e.to_string())?;
    let mut varied: Vec<Record> = Vec::with_capacity(n);
    for i in 0..n {
        let base = &real[i % real.len()];
        let v = i / real.len();
        varied.push(if v == 0 { base.clone() } else { variant(base, v) });
    }
    let (start, cpu) = (Instant::now(), cpu_seconds());
    big.add(varied).map_err(|e| e.to_string())?;
    let (took, cpu) = (start.elapsed(), cpu_seconds() - cpu);
    println!(
        "built a {n}-record store (varied text) in {:.1} s = {:.1} records/s ({:.1} ms CPU a record)",
        took.as_secs_f64(),
        n as f64 / took.as_secs_f64(),
        cpu * 1000.0 / n as f64
    );
    drop(big);
    let start = Instant::now();
    let big = Store::open_with(&scratch.path().join("big"), &options()).map_err(|e| e.to_string())?;
    println!("reopening it (records, index, vectors, model) took {:.2} s", start.elapsed().as_secs_f64());

    for mode in [Mode::Bm25, Mode::Embed, Mode::Hybrid] {
        let query = |r: &Record| Query { text: r.code_before.clone(), kind: Some(r.kind), k: 3, mode };
        big.search(&query(&real[0])).map_err(|e| e.to_string())?;
        let mut times: Vec<Duration> = Vec::new();
        let mut cpus: Vec<f64> = Vec::new();
        for i in 0..300 {
            let r = &real[(i * 7) % real.len()];
            let (start, cpu) = (Instant::now(), cpu_seconds());
            let hits = big.search(&query(r)).map_err(|e| e.to_string())?;
            times.push(start.elapsed());
            cpus.push(cpu_seconds() - cpu);
            assert!(hits.len() <= 3);
        }
        times.sort();
        cpus.sort_by(f64::total_cmp);
        let at = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)].as_secs_f64() * 1000.0;
        println!(
            "query latency at {n} records, mode {:<6}: p50 {:.2} ms, p99 {:.2} ms, CPU p50 {:.2} ms (300 queries, k = 3, type filter)",
            format!("{mode:?}").to_lowercase(),
            at(0.50),
            at(0.99),
            cpus[cpus.len() / 2] * 1000.0
        );
    }
    Ok(())
}

/// Record `r` with its four most used non-keyword identifiers renamed for variant `v`.
fn variant(r: &Record, v: usize) -> Record {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (s, e, t) in code_terms(&r.code_before) {
        if r.code_before[s..e].to_ascii_lowercase() == t && !JAVA.contains(&t.as_str()) && t.len() > 2 {
            *counts.entry(r.code_before[s..e].to_string()).or_default() += 1;
        }
    }
    let mut names: Vec<(String, usize)> = counts.into_iter().collect();
    names.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut out = r.clone();
    for (j, (name, _)) in names.iter().take(4).enumerate() {
        let word = WORDS[(v * 5 + j * 7) % WORDS.len()];
        let new = format!("{name}{word}{}", v / WORDS.len());
        out.code_before = rename(&out.code_before, name, &new);
        out.code_after = rename(&out.code_after, name, &new);
        out.callees = out.callees.iter().map(|c| if c == name { new.clone() } else { c.clone() }).collect();
    }
    out.id = format!("{}#v{v}", r.id);
    out.description = summary(&out);
    out
}

/// `text` with whole-word occurrences of `from` replaced by `to`.
fn rename(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    while let Some(at) = rest.find(from) {
        let before_ok = rest[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        let after_ok = rest[at + from.len()..].chars().next().is_none_or(|c| !is_ident(c));
        out.push_str(&rest[..at]);
        out.push_str(if before_ok && after_ok { to } else { from });
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}
