//! Benchmark of the project model on real code: every `after/` tree of the refactoring oracle.
//!
//! Measures files per second for parse + index (symbols, supertypes of every type, resolution of
//! every call site) on a 1-thread and a 2-thread rayon pool, the tree-sitter parse alone (the floor),
//! the lexical summary pass and its agreement with the parse, then the cold whole-process latency of
//! `mantra analyze` on one method of the largest tree. Run with `cargo bench --bench model`.
//! The data must be there (`MANTRA_SHARED_DATA`, or `shared/data` beside the repository): a
//! missing data set fails the benchmark rather than reporting nothing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use mantra::java::Project;
use rayon::prelude::*;

fn shared_data() -> PathBuf {
    mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"))
}

/// Every `<project>/<sha>/after` folder of the oracle.
fn after_trees(oracle: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for project in std::fs::read_dir(oracle).expect("read oracle").flatten() {
        if !project.path().is_dir() {
            continue;
        }
        for commit in std::fs::read_dir(project.path()).expect("read project").flatten() {
            let after = commit.path().join("after");
            if after.is_dir() {
                out.push(after);
            }
        }
    }
    out.sort();
    out
}

/// Time spent in each phase: walk + layout, parse + symbols, supertypes + call resolution.
#[derive(Default, Clone, Copy)]
struct Phases {
    open: Duration,
    parse: Duration,
    resolve: Duration,
}

/// Builds and fully indexes every tree; returns (files, methods, calls resolved).
fn index_all(trees: &[PathBuf], phases: &mut Phases) -> (usize, usize, usize) {
    let (mut files, mut methods, mut calls) = (0, 0, 0);
    for tree in trees {
        let t0 = Instant::now();
        let project = Project::open(tree).expect("open");
        let t1 = Instant::now();
        project.load_all();
        let t2 = Instant::now();
        phases.open += t1 - t0;
        phases.parse += t2 - t1;
        let ids: Vec<_> = project.file_ids().collect();
        let (m, c) = ids
            .par_iter()
            .map(|&f| {
                let Ok(types) = project.types_in(f) else { return (0, 0) };
                for t in types {
                    std::hint::black_box(project.direct_supertypes(t));
                }
                let ms = project.methods_in(f).unwrap_or_default();
                let mut c = 0;
                for &m in &ms {
                    c += std::hint::black_box(project.callees(m)).len();
                }
                (ms.len(), c)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        phases.resolve += t2.elapsed();
        files += project.file_count();
        methods += m;
        calls += c;
    }
    (files, methods, calls)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let oracle = shared_data().join("refactoring-oracle");
    let trees = after_trees(&oracle);
    assert!(!trees.is_empty(), "no after/ trees under {}", oracle.display());

    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        let mut times = Vec::new();
        let mut counts = (0, 0, 0);
        let mut phases = Phases::default();
        for _ in 0..3 {
            let start = Instant::now();
            phases = Phases::default();
            counts = pool.install(|| index_all(&trees, &mut phases));
            times.push(start.elapsed());
        }
        let t = median(times);
        let fps = counts.0 as f64 / t.as_secs_f64();
        println!(
            "model/{threads} thread(s): {} trees, {} files, {} methods, {} calls in {:.3}s (median of 3) = {:.0} files/s ({:.0} files/s per thread)",
            trees.len(),
            counts.0,
            counts.1,
            counts.2,
            t.as_secs_f64(),
            fps,
            fps / threads as f64
        );
        println!(
            "  last run by phase: walk+layout {:.3}s, parse+symbols {:.3}s ({:.0} files/s), hierarchy+call resolution {:.3}s",
            phases.open.as_secs_f64(),
            phases.parse.as_secs_f64(),
            counts.0 as f64 / phases.parse.as_secs_f64(),
            phases.resolve.as_secs_f64()
        );
    }

    // The floor: tree-sitter alone, one thread, texts already in memory.
    let texts: Vec<String> = trees
        .iter()
        .flat_map(|t| {
            let p = Project::open(t).expect("open");
            p.file_ids().map(|f| std::fs::read_to_string(t.join(p.path(f))).unwrap_or_default()).collect::<Vec<_>>()
        })
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&mantra::java::source::language()).expect("grammar");
    let start = Instant::now();
    for t in &texts {
        std::hint::black_box(parser.parse(t, None));
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "tree-sitter parse alone, 1 thread: {} files, {:.1} MB in {t:.3}s = {:.0} files/s, {:.1} MB/s",
        texts.len(),
        bytes as f64 / 1e6,
        texts.len() as f64 / t,
        bytes as f64 / 1e6 / t
    );

    // The summary beside an analysed method counts lexically; how often that equals the parse.
    let (mut clean, mut agree, mut flagged, mut broken) = (0, 0, 0, 0);
    let mut scan_time = Duration::ZERO;
    for t in &texts {
        let file = mantra::java::SourceFile::parse("T.java", t.clone());
        let syms = mantra::java::symbols::extract(&file);
        let start = Instant::now();
        let counts = std::hint::black_box(mantra::java::lexical::count(t));
        scan_time += start.elapsed();
        if file.syntax_error().is_some() {
            broken += 1;
            flagged += usize::from(counts.suspect);
            continue;
        }
        clean += 1;
        let types = syms.types.iter().filter(|t| !t.is_anonymous()).count();
        agree += usize::from(types == counts.types && syms.methods.len() == counts.methods);
    }
    println!(
        "lexical summary pass, 1 thread: {:.0} MB/s; types and methods equal to the parse in {agree} of {clean} files \
         without syntax errors; {flagged} of {broken} files with syntax errors flagged as open",
        bytes as f64 / 1e6 / scan_time.as_secs_f64()
    );

    // Cold latency: the largest tree, one method in its largest file, picked by line.
    let tree =
        trees.iter().max_by_key(|t| Project::open(t).map(|p| p.file_count()).unwrap_or(0)).expect("a tree").clone();
    let project = Project::open(&tree).expect("open");
    let (file, line) = project
        .file_ids()
        .filter_map(|f| {
            let size = std::fs::metadata(tree.join(project.path(f))).map(|m| m.len()).unwrap_or(0);
            let m = *project.methods_in(f).ok()?.iter().find(|&&m| project.method(m).body.is_some())?;
            Some((size, f, project.method(m).span.start_line))
        })
        .max_by_key(|x| x.0)
        .map(|(_, f, l)| (project.path(f).to_path_buf(), l))
        .expect("a method");
    let target = format!("{}:{line}", file.display());
    let exe = env!("CARGO_BIN_EXE_mantra");
    let mut runs = Vec::new();
    for _ in 0..7 {
        let start = Instant::now();
        let out = Command::new(exe)
            .args(["--repo", &tree.display().to_string(), "analyze", &target])
            .output()
            .expect("run mantra");
        runs.push(start.elapsed());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    println!(
        "analyze cold latency: {} files in {}, target {target}: median {:.0} ms (min {:.0}, max {:.0}) over 7 runs",
        project.file_count(),
        tree.display(),
        median(runs.clone()).as_secs_f64() * 1000.0,
        runs.iter().min().expect("runs").as_secs_f64() * 1000.0,
        runs.iter().max().expect("runs").as_secs_f64() * 1000.0
    );
}
