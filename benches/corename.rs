//! Coordinated rename on RefactoringMiner's oracle, and the speed of a rename.
//!
//! For every commit of `shared/data/refactoring-oracle` with two or more labelled renames, the
//! first is the seed: `mantra::plan::corename::suggest` (what `mantra rename --coordinated
//! --json` lists) runs on the commit's `before/` files, with no model and no memory, and its
//! suggestions are scored against the other renames: identification (kind and old name) and
//! exact (kind, old and new name) precision, recall and F1, for half A, half B
//! (`eval/detect/halves.txt`) and both. `MANTRA_CORENAME_SHOW=<project>` prints each case of that
//! project: its labels and the suggestions. Then the time to open a project and rename a field
//! used in 100 files (`mantra::engine::rename::rename`), median of 15 runs.
//! Run with `cargo bench --bench corename`.

use std::time::{Duration, Instant};

use mantra::detect::oracle::Halves;
use mantra::plan::corename::oracle::{self, Totals};
use rayon::prelude::*;

fn main() {
    let shared = mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"));
    let cases = oracle::load(&shared.join("refactoring-oracle")).unwrap_or_else(|e| panic!("{e}"));
    assert!(!cases.is_empty(), "the oracle holds no commit with two renames");
    let halves = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("eval/detect/halves.txt");
    let halves = Halves::read(&halves).unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    let outcomes: Vec<_> = cases.par_iter().map(oracle::run).collect();
    let wall = start.elapsed();
    let show = std::env::var("MANTRA_CORENAME_SHOW").ok();
    let (mut a, mut b, mut all) = (Totals::default(), Totals::default(), Totals::default());
    for (case, o) in cases.iter().zip(&outcomes) {
        if show.as_deref() == Some(case.project.as_str()) {
            let seed = &case.renames[0];
            println!(
                "{} {} seed {} {} -> {} (located: {})",
                case.project,
                &case.sha[..10],
                seed.kind,
                seed.old,
                seed.new,
                o.located
            );
            for l in &case.renames[1..] {
                println!("   label {} {} -> {}", l.kind, l.old, l.new);
            }
            for (k, old, new) in &o.suggested {
                let hit = case.renames[1..].iter().any(|l| &l.old == old);
                println!("   sugg{} {k} {old} -> {new}", if hit { "+" } else { " " });
            }
        }
        if halves.a.contains(&case.project) {
            a.add(o);
        } else if halves.b.contains(&case.project) {
            b.add(o);
        }
        all.add(o);
    }
    // Per project of the development half A only (`MANTRA_CORENAME_PROJECTS=1`): half B is judged, not studied.
    if std::env::var_os("MANTRA_CORENAME_PROJECTS").is_some() {
        for p in &halves.a {
            let mut t = Totals::default();
            for (case, o) in cases.iter().zip(&outcomes).filter(|(c, _)| &c.project == p) {
                let _ = case;
                t.add(o);
            }
            println!("{p}: {}", t.line());
        }
    }
    println!("half A ({}): {}", halves.a.join(", "), a.line());
    println!("half B ({}): {}", halves.b.join(", "), b.line());
    println!("both halves: {}", all.line());
    println!("suggestions for {} commits in {:.2}s wall", cases.len(), wall.as_secs_f64());
    apply_time();
}

/// Opens a generated project where one field is read in 100 files, and renames it.
fn apply_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src/main/java/p");
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(
        src.join("Config.java"),
        "package p;\npublic class Config {\n  public static int retryLimit = 3;\n  public int timeout = 5;\n}\n",
    )
    .expect("write");
    for i in 0..100 {
        let text = format!(
            "package p;\n\nclass User{i} {{\n  private final Config config = new Config();\n  int limit() {{ return Config.retryLimit + {i}; }}\n  int t(Config c) {{ int retryLimit = 2; return c.timeout + config.timeout + retryLimit; }}\n  void set(Config c) {{ c.timeout = {i}; }}\n}}\n"
        );
        std::fs::write(src.join(format!("User{i}.java")), text).expect("write");
    }
    let mut times: Vec<Duration> = Vec::new();
    let mut files = 0;
    for _ in 0..15 {
        let start = Instant::now();
        let project = mantra::java::Project::open(dir.path()).expect("open");
        let f = project.file_id(std::path::Path::new("src/main/java/p/Config.java")).expect("Config.java");
        let found = mantra::engine::rename::element::declarations(&project, f, "timeout");
        let changes = mantra::engine::rename::rename(&project, found[0], "deadline").expect("rename");
        times.push(start.elapsed());
        files = changes.files.len();
    }
    times.sort();
    println!(
        "rename of a field used in 100 files ({files} files changed): median {:.1} ms (open, parse, resolve, edits), fastest {:.1} ms",
        times[times.len() / 2].as_secs_f64() * 1000.0,
        times[0].as_secs_f64() * 1000.0
    );
}
