//! Accuracy and speed of the built-in refactoring detector on RefactoringMiner's oracle.
//!
//! Runs `mantra::detect::detect` on every commit of `shared/data/refactoring-oracle` (both sides
//! read from disk first), prints the per-type table (TP, FP, FN, precision, recall) and the
//! commits per second of detection, on rayon's pool. Run with `cargo bench --bench detect`;
//! `MANTRA_DETECT_MISSES=1` also lists every false positive and false negative,
//! `MANTRA_DETECT_ONLY=<sha prefix>` limits the run to matching commits. The data must be
//! there: a missing data set fails the benchmark rather than reporting nothing.

use std::time::Instant;

use mantra::detect::oracle;

fn main() {
    let shared = mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"));
    let mut commits = oracle::load(&shared.join("refactoring-oracle")).unwrap_or_else(|e| panic!("{e}"));
    // `MANTRA_DETECT_ONLY=<sha prefix>` runs the commits whose id starts with it, for triage.
    if let Ok(prefix) = std::env::var("MANTRA_DETECT_ONLY") {
        commits.retain(|c| c.sha.starts_with(&prefix));
    }
    assert!(!commits.is_empty(), "the oracle holds no commits");
    // One warm-up pass so the timed pass measures the detector, not a cold page cache.
    let _ = oracle::evaluate(&commits[..commits.len().min(20)]);
    let start = Instant::now();
    let eval = oracle::evaluate(&commits).unwrap_or_else(|e| panic!("{e}"));
    let wall = start.elapsed();
    if std::env::var_os("MANTRA_DETECT_MISSES").is_some() {
        for m in &eval.misses {
            let tag = if m.false_positive { "FP" } else { "FN" };
            println!("{tag} {}/{} {}", m.project, &m.sha[..10.min(m.sha.len())], m.description);
        }
    }
    if std::env::var_os("MANTRA_DETECT_SLOW").is_some() {
        let mut times = eval.times.clone();
        times.sort_by_key(|t| std::cmp::Reverse(t.1));
        for (commit, t) in times.iter().take(8) {
            println!("slow {commit} {:.3}s", t.as_secs_f64());
        }
    }
    println!("{}", eval.table());
    let threads = rayon::current_num_threads();
    println!(
        "{} commits: detection {:.0} commits/s per thread ({:.2}s summed over {threads} thread(s)); \
         end to end with reading {:.0} commits/s ({:.2}s wall)",
        eval.commits,
        eval.commits as f64 / eval.detect_time.as_secs_f64(),
        eval.detect_time.as_secs_f64(),
        eval.commits as f64 / wall.as_secs_f64(),
        wall.as_secs_f64()
    );
}
