//! Replays PureRefactor's Extract Method records through the engine and prints the figures.
//!
//! `cargo run --release --example eval_extract` (data from `MANTRA_SHARED_DATA` or `../shared/data`).
//! `EVAL_PROJECT=1` replays each record through `engine::apply` on a project of the record's file
//! (what `mantra refactor` does, with what the project model knows of the calls), not through the
//! single-file engine.

#[path = "support/extract_eval.rs"]
mod extract_eval;

use std::collections::BTreeMap;

use extract_eval::{Options, Status, evaluate, shared_data};

fn main() -> std::process::ExitCode {
    let verbose = std::env::args().any(|a| a == "-v" || a == "--verbose");
    let local_types = !std::env::args().any(|a| a == "--no-local-types");
    let report = match evaluate(&shared_data(), Options { similarity: true, local_types }) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let total = report.outcomes.len();
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let (mut applied, mut crashed, mut nospec, mut unparsable) = (0, 0, 0, 0);
    let (mut sims, mut bases, mut times) = (Vec::new(), Vec::new(), Vec::new());
    let mut by_project: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for o in &report.outcomes {
        let entry = by_project.entry(o.project.clone()).or_default();
        entry.1 += 1;
        match &o.status {
            Status::Applied { similarity, baseline, time, parses } => {
                applied += 1;
                unparsable += usize::from(!parses);
                entry.0 += 1;
                sims.extend(*similarity);
                bases.extend(*baseline);
                times.push(time.as_secs_f64() * 1000.0);
            }
            Status::Refused { reason, .. } => *refused.entry(reason.clone()).or_default() += 1,
            Status::Crashed { .. } => crashed += 1,
            Status::NoSpec { .. } => nospec += 1,
        }
        if verbose {
            println!("{:<18} {} {:?} {:?}", o.project, o.id, o.spec.as_ref().map(|s| (s.lines, &s.name)), o.status);
        }
    }
    let pct = |n: usize| 100.0 * n as f64 / total.max(1) as f64;
    println!(
        "Extract Method records: {total} (developer's parameter types given as local_types: {})",
        if local_types { "yes" } else { "no" }
    );
    for (project, (a, n)) in &by_project {
        println!("  {project:<18} applied {a:>3} / {n}");
    }
    println!("applied   {applied:>4}  ({:.1}%)", pct(applied));
    println!("  of which do not parse afterwards: {unparsable}");
    println!("refused   {:>4}  ({:.1}%)", refused.values().sum::<usize>(), pct(refused.values().sum()));
    for (reason, n) in &refused {
        println!("  {reason:<26} {n}");
    }
    println!("crashed   {crashed:>4}");
    println!("no spec   {nospec:>4}  (the developer's spec could not be recovered from the record)");
    println!(
        "similarity to the developer's after code (token LCS, source method + extracted method), applied records:\n  engine    mean {:.3}  median {:.3}\n  unchanged mean {:.3}  median {:.3}  (the before method, for reference)",
        mean(&sims),
        median(&mut sims.clone()),
        mean(&bases),
        median(&mut bases.clone())
    );
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "apply time (parse + extract + render) per refactoring: median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        median(&mut times),
        sorted.get((sorted.len() * 95 / 100).min(sorted.len().saturating_sub(1))).copied().unwrap_or(0.0),
        sorted.last().copied().unwrap_or(0.0)
    );
    for (kind, n) in &report.skipped {
        println!("not replayed: {kind} ({n} records)");
    }
    println!("sample refusals:");
    // One of each reason first, then the rest, five in all.
    let refused_records: Vec<&extract_eval::Outcome> =
        report.outcomes.iter().filter(|o| matches!(o.status, Status::Refused { .. })).collect();
    let reason_of = |o: &extract_eval::Outcome| match &o.status {
        Status::Refused { reason, .. } => reason.clone(),
        _ => String::new(),
    };
    let mut seen = std::collections::HashSet::new();
    let (mut refusals, rest): (Vec<_>, Vec<_>) = refused_records.into_iter().partition(|o| seen.insert(reason_of(o)));
    refusals.extend(rest);
    for o in refusals.into_iter().take(5) {
        if let (Status::Refused { reason, message }, Some(spec)) = (&o.status, &o.spec) {
            println!(
                "  {} {} lines {}-{} `{}`: {reason}: {message}",
                o.project,
                &o.id[..12],
                spec.lines.0,
                spec.lines.1,
                spec.name
            );
        }
    }
    for o in &report.outcomes {
        match &o.status {
            Status::Crashed { message } => println!("crashed: {} {}: {message}", o.project, o.id),
            Status::NoSpec { why } => println!("no spec: {} {}: {why}", o.project, o.id),
            _ => {}
        }
    }
    std::process::ExitCode::SUCCESS
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / xs.len() as f64 }
}

fn median(xs: &mut [f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}
