//! Accuracy and speed of the built-in refactoring detector on RefactoringMiner's oracle.
//!
//! Runs `mantra::detect::detect` on every commit of `shared/data/refactoring-oracle` (both sides
//! read from disk first), prints the per-type table (TP, FP, FN, precision, recall) for the
//! oracle's half A, half B (`eval/detect/halves.txt`) and both, and the commits per second of
//! detection, on rayon's pool. Then the second kind of evidence: every PureRefactor record of
//! `shared/data/pure-refactor` whose refactoring stays in one file, with the share in which the
//! detector finds the labelled refactoring and the share in which it also calls it pure. Run with `cargo bench --bench detect`;
//! `MANTRA_DETECT_MISSES=1` also lists every false positive and false negative,
//! `MANTRA_DETECT_ONLY=<sha prefix>` limits the run to matching commits, `MANTRA_PURITY_WHY=1`
//! (here or with `mantra detect`) prints what keeps each mapping impure. The data must be
//! there: a missing data set fails the benchmark rather than reporting nothing.

use std::time::Instant;

use mantra::detect::{oracle, records};

fn main() {
    let shared = mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"));
    // `MANTRA_RECORD_ONLY=<id prefix>` replays only the PureRefactor records whose id starts with
    // it and prints what the detector found in each, for triage (the oracle is not run).
    if let Ok(prefix) = std::env::var("MANTRA_RECORD_ONLY") {
        return triage_records(&shared, &prefix);
    }
    let mut commits = oracle::load(&shared.join("refactoring-oracle")).unwrap_or_else(|e| panic!("{e}"));
    // `MANTRA_DETECT_ONLY=<sha prefix>` runs the commits whose id starts with it, for triage.
    if let Ok(prefix) = std::env::var("MANTRA_DETECT_ONLY") {
        commits.retain(|c| c.sha.starts_with(&prefix));
    }
    assert!(!commits.is_empty(), "the oracle holds no commits");
    // One warm-up pass so the timed pass measures the detector, not a cold page cache.
    let _ = oracle::evaluate(&commits[..commits.len().min(20)]);
    let (start, cpu_start) = (Instant::now(), cpu_seconds());
    let eval = oracle::evaluate(&commits).unwrap_or_else(|e| panic!("{e}"));
    let (wall, cpu) = (start.elapsed(), cpu_seconds() - cpu_start);
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
    let halves = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("eval/detect/halves.txt");
    let halves = oracle::Halves::read(&halves).unwrap_or_else(|e| panic!("{e}"));
    println!("half A ({}):\n{}", halves.a.join(", "), eval.table_in(&halves.a));
    println!("half B ({}):\n{}", halves.b.join(", "), eval.table_in(&halves.b));
    println!("both halves:\n{}", eval.table());
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
    // Wall time depends on what else the machine runs; CPU time much less so.
    println!(
        "CPU time of the timed pass (reading included): {cpu:.2}s, {:.0} commits per CPU-second \
         (on {threads} idle cores at most {:.0} commits/s)",
        eval.commits as f64 / cpu,
        eval.commits as f64 / cpu * threads as f64
    );
    println!();
    verify_records(&shared);
}

/// Pure refactorings as verification cases: found, and found pure, per type.
fn verify_records(shared: &std::path::Path) {
    let (cases, spanning) = records::load(shared).unwrap_or_else(|e| panic!("{e}"));
    assert!(!cases.is_empty(), "the PureRefactor data holds no replayable record");
    let verification = records::verify(&cases, spanning);
    if std::env::var_os("MANTRA_DETECT_MISSES").is_some() {
        for (project, id, description, finding) in &verification.misses {
            println!("{finding:?} {project}/{} {description}", &id[..12.min(id.len())]);
        }
    }
    println!("PureRefactor records, the labelled refactoring found (right type and methods) and judged pure:");
    println!("{}", verification.table());
}

/// The records whose id starts with `prefix`, each with its label and everything found.
fn triage_records(shared: &std::path::Path, prefix: &str) {
    let (cases, _) = records::load(shared).unwrap_or_else(|e| panic!("{e}"));
    let cases: Vec<&records::Case> = cases.iter().filter(|c| c.id.starts_with(prefix)).collect();
    assert!(!cases.is_empty(), "no replayable PureRefactor record has an id starting with {prefix}");
    for case in cases {
        let found = mantra::detect::detect(&case.before, &case.after);
        println!("{} {}: {:?}\n  label {}", case.project, case.id, records::judge(case, &found), case.description);
        for r in &found {
            println!("  found{} {}", if r.pure { "" } else { " [impure]" }, r.description.replace('\t', " "));
        }
    }
}

/// User + system CPU seconds of this process so far, from `/proc/self/stat` (Linux; clock ticks
/// of 1/100 s, the fixed USER_HZ of the proc interface).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_else(|e| panic!("/proc/self/stat: {e}"));
    // Fields after the command name (which is in parentheses and may hold spaces): utime is the
    // 14th field of the line, stime the 15th.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or_default();
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks =
        |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or_else(|| panic!("bad /proc/self/stat"));
    (ticks(11) + ticks(12)) / 100.0
}
