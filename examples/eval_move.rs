//! Replays PureRefactor's Move Method and Move And Rename Method records through the engine.
//!
//! `cargo run --release --example eval_move` (data from `MANTRA_SHARED_DATA` or `../shared/data`);
//! `-v` prints one line per record. See `support/move_eval.rs` for what "replay" means here.

#[path = "support/move_eval.rs"]
mod move_eval;

use std::collections::BTreeMap;

use move_eval::{Outcome, Status, evaluate, shared_data};

fn main() -> std::process::ExitCode {
    let verbose = std::env::args().any(|a| a == "-v" || a == "--verbose");
    let outcomes = match evaluate(&shared_data()) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    if verbose {
        for o in &outcomes {
            let status = match &o.status {
                Status::Applied { time, identical, same_code, parses, confirmed } => format!(
                    "applied in {:.1} ms (identical {identical}, same code {same_code}, parses {parses}, confirmed {confirmed})",
                    time.as_secs_f64() * 1000.0
                ),
                Status::Refused { reason, message } => format!("refused {reason}: {message}"),
                Status::Crashed { message } => format!("CRASHED: {message}"),
                Status::NoSpec { why } => format!("no spec: {why}"),
                Status::NotReplayable { why } => format!("not replayable: {why}"),
            };
            println!(
                "{} {} [{}, destination {}] {}\n    {status}",
                o.project,
                o.id,
                o.kind,
                if o.before_known { "in the record" } else { "rebuilt" },
                o.spec.as_deref().unwrap_or("-"),
            );
        }
        println!();
    }
    for kind in ["Move Method", "Move And Rename Method"] {
        let of_kind: Vec<&Outcome> = outcomes.iter().filter(|o| o.kind == kind).collect();
        table(kind, &of_kind);
    }
    let all: Vec<&Outcome> = outcomes.iter().collect();
    table("both", &all);
    let mut times: Vec<f64> = outcomes
        .iter()
        .filter_map(|o| match &o.status {
            Status::Applied { time, .. } => Some(time.as_secs_f64() * 1000.0),
            _ => None,
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let median = if times.is_empty() { 0.0 } else { times[times.len() / 2] };
    println!(
        "plan time per applied record (model queries + move + render, files already on disk): median {median:.2} ms, max {:.2} ms",
        times.last().copied().unwrap_or(0.0)
    );
    std::process::ExitCode::SUCCESS
}

fn table(title: &str, outcomes: &[&Outcome]) {
    let total = outcomes.len();
    let known = outcomes.iter().filter(|o| o.before_known).count();
    let count = |f: &dyn Fn(&Status) -> bool| outcomes.iter().filter(|o| f(&o.status)).count();
    let not_replayable = count(&|s| matches!(s, Status::NotReplayable { .. }));
    let no_spec = count(&|s| matches!(s, Status::NoSpec { .. }));
    let applied = count(&|s| matches!(s, Status::Applied { .. }));
    let identical = count(&|s| matches!(s, Status::Applied { identical: true, .. }));
    let same_code = count(&|s| matches!(s, Status::Applied { same_code: true, .. }));
    let unparsable = count(&|s| matches!(s, Status::Applied { parses: false, .. }));
    let confirmed = count(&|s| matches!(s, Status::Applied { confirmed: true, .. }));
    let crashed = count(&|s| matches!(s, Status::Crashed { .. }));
    let applied_known =
        outcomes.iter().filter(|o| o.before_known && matches!(o.status, Status::Applied { .. })).count();
    let mut refused: BTreeMap<&str, usize> = BTreeMap::new();
    for o in outcomes {
        if let Status::Refused { reason, .. } = &o.status {
            *refused.entry(reason.as_str()).or_default() += 1;
        }
    }
    let mut not_replayable_why: BTreeMap<&str, usize> = BTreeMap::new();
    for o in outcomes {
        if let Status::NotReplayable { why } = &o.status {
            *not_replayable_why.entry(why.as_str()).or_default() += 1;
        }
    }
    println!("== {title}: {total} records");
    println!("  destination before state in the record (same file)       {known:>3}");
    println!("  destination before rebuilt (after text minus the method)  {:>3}", total - known - not_replayable);
    println!("  not replayable                                            {not_replayable:>3}");
    for (why, n) in &not_replayable_why {
        println!("    {why}: {n}");
    }
    println!("  no spec (instance method, destination not a param/field type) {no_spec:>3}");
    println!(
        "  applied                                                   {applied:>3}  (of which before-state known: {applied_known})"
    );
    println!("    moved method identical to the developer's (whitespace aside) {identical:>3}");
    println!("    same code as the developer's (comments, access modifiers aside) {same_code:>3}");
    println!("    output does not parse                                   {unparsable:>3}");
    println!(
        "    confirmed by the detector as the intended refactoring   {confirmed:>3}  ({:.0} % of all records)",
        100.0 * confirmed as f64 / total.max(1) as f64
    );
    println!("  refused                                                   {:>3}", refused.values().sum::<usize>());
    for (reason, n) in &refused {
        println!("    {reason:<28} {n}");
    }
    println!("  crashed                                                   {crashed:>3}");
}
