//! The evaluation metrics' sanity figures on PureRefactor: CodeBLEU of identical code (1.0), of
//! unrelated methods, and of the engine's Extract Method against the developer's, with AST-diff
//! precision and recall.
//!
//! `cargo run --release --example metrics_sanity` (data from `MANTRA_SHARED_DATA` or `../shared/data`).

#[path = "support/extract_eval.rs"]
#[allow(dead_code)] // the Extract Method table's parts this example does not use
mod extract_eval;
#[path = "support/metrics_eval.rs"]
mod metrics_eval;

use std::time::Instant;

use mantra::metrics::codebleu;
use metrics_eval::{Skipped, extract_scores, method_before, records, stats, unrelated_pairs};

fn main() -> std::process::ExitCode {
    let data = extract_eval::shared_data();
    let records = match records(&data) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let methods: Vec<&str> = records.iter().filter_map(|(_, r)| method_before(r)).collect();
    let same = stats(methods.iter().map(|m| codebleu(m, m).score));
    println!("identical code: {} methods, CodeBLEU min {:.4} max {:.4}", methods.len(), same.1, same.2);

    let pairs = unrelated_pairs(&records);
    let scores: Vec<_> = pairs.iter().map(|(a, b)| codebleu(a, b)).collect();
    let row = |name: &str, f: &dyn Fn(&mantra::metrics::CodeBleu) -> f64| {
        let (mean, min, max) = stats(scores.iter().map(f));
        println!("  {name:<15} mean {mean:.3}  min {min:.3}  max {max:.3}");
    };
    println!("unrelated methods: {} pairs (methods of different records)", pairs.len());
    row("codebleu", &|s| s.score);
    row("ngram", &|s| s.ngram);
    row("weighted_ngram", &|s| s.weighted_ngram);
    row("syntax", &|s| s.syntax);
    row("dataflow", &|s| s.dataflow);

    let results = extract_scores(&records);
    let scored: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    let (mut refused, mut nospec) = (0, 0);
    for r in &results {
        match r {
            Err(Skipped::Refused(_)) => refused += 1,
            Err(Skipped::NoSpec(_)) => nospec += 1,
            Ok(_) => {}
        }
    }
    println!(
        "engine's Extract Method vs the developer's: {} records, {} scored ({refused} refused, {nospec} without a spec)",
        results.len(),
        scored.len()
    );
    let m = |f: &dyn Fn(&&metrics_eval::Scored) -> f64| stats(scored.iter().map(f)).0;
    println!(
        "  CodeBLEU mean {:.3} (ngram {:.3}, weighted {:.3}, syntax {:.3}, dataflow {:.3}); unchanged method {:.3}",
        m(&|s| s.codebleu.score),
        m(&|s| s.codebleu.ngram),
        m(&|s| s.codebleu.weighted_ngram),
        m(&|s| s.codebleu.syntax),
        m(&|s| s.codebleu.dataflow),
        m(&|s| s.baseline.score)
    );
    println!(
        "  AST diff precision {:.3} recall {:.3} (mean over records; {} with both 1.0)",
        m(&|s| s.ast.precision),
        m(&|s| s.ast.recall),
        scored.iter().filter(|s| s.ast.precision == 1.0 && s.ast.recall == 1.0).count()
    );
    println!(
        "  identical to the developer's file: {} of {}",
        scored.iter().filter(|s| s.identical).count(),
        scored.len()
    );
    if std::env::args().any(|a| a == "-v") {
        for s in &scored {
            println!(
                "{:<18} {} codebleu {:.3} ast {:.2}/{:.2} ({} vs {} actions)",
                s.project,
                &s.id[..12],
                s.codebleu.score,
                s.ast.precision,
                s.ast.recall,
                s.ast.our_actions,
                s.ast.human_actions
            );
        }
    }
    println!("time {:.1} s", start.elapsed().as_secs_f64());
    std::process::ExitCode::SUCCESS
}
