//! The evaluation metrics on real data: CodeBLEU's sanity bounds on PureRefactor methods, a real
//! record's after against its before and against a wrong after, and the engine's Extract Method
//! against the developer's (CodeBLEU and AST-diff precision/recall). Figures: `examples/metrics_sanity.rs`.

use mantra::detect::Snapshot;
use mantra::metrics::{ast_diff, codebleu, identical};

use crate::engine_extract::extract_eval;
#[path = "../../examples/support/metrics_eval.rs"]
mod metrics_eval;

use metrics_eval::{Scored, extract_scores, method_before, records, stats, unrelated_pairs};

fn all_records() -> Vec<(String, serde_json::Value)> {
    let data = extract_eval::shared_data();
    records(&data).unwrap_or_else(|e| panic!("the PureRefactor data is required ({}): {e}", data.display()))
}

#[test]
fn codebleu_is_one_for_identical_methods_and_low_for_unrelated_ones() {
    let records = all_records();
    for (project, r) in &records {
        if let Some(m) = method_before(r) {
            let s = codebleu(m, m);
            assert_eq!(s.score, 1.0, "{project} {}: {s:?}", r["uniqueId"]);
        }
    }
    let pairs = unrelated_pairs(&records);
    assert!(pairs.len() > 200, "{} pairs", pairs.len());
    let (mean, _, max) = stats(pairs.iter().map(|(a, b)| codebleu(a, b).score));
    assert!(mean > 0.05 && mean < 0.3, "unrelated methods: mean CodeBLEU {mean}");
    assert!(max < 0.7, "unrelated methods: max CodeBLEU {max}");
}

#[test]
fn a_records_after_beats_its_before_which_beats_a_wrong_after() {
    let records = all_records();
    let extracts: Vec<&serde_json::Value> =
        records.iter().map(|(_, r)| r).filter(|r| r["type"] == "Extract Method").collect();
    let (record, other) = (extracts[0], extracts[extracts.len() / 2]);
    let after = record["sourceCodeAfterRefactoring"].as_str().expect("after");
    let before = record["sourceCodeBeforeRefactoring"].as_str().expect("before");
    let wrong = other["sourceCodeAfterRefactoring"].as_str().expect("another record's after");
    assert_eq!(codebleu(after, after).score, 1.0);
    let (b, w) = (codebleu(after, before), codebleu(after, wrong));
    assert!(b.score < 1.0 && b.score > 0.4, "{b:?}");
    assert!(w.score < b.score - 0.2, "wrong {w:?} vs before {b:?}");
    assert!(identical(after, &after.replace('\n', "\n  ")));
    assert!(!identical(after, before));
    // The whole files: the developer's change against itself and against doing nothing.
    let path = record["filePathBefore"].as_str().expect("path");
    let before_file = Snapshot::from_files([(path, record["sourceCodeBeforeForWhole"].as_str().expect("file"))]);
    let human_file = Snapshot::from_files([(path, record["sourceCodeAfterForWhole"].as_str().expect("file"))]);
    let same = ast_diff(&before_file, &human_file, &human_file);
    assert_eq!((same.precision, same.recall), (1.0, 1.0), "{same:?}");
    assert!(same.human_actions > 0);
    let none = ast_diff(&before_file, &human_file, &before_file);
    assert_eq!((none.precision, none.recall, none.our_actions), (0.0, 0.0, 0), "{none:?}");
}

/// The engine given the developer's spec, scored against the developer's result. The developer's
/// file often holds more than the extraction (other edits of the commit, a literal turned into a
/// parameter), which bounds the recall; the thresholds sit just under today's figures.
#[test]
fn the_engines_extract_method_resembles_the_developers() {
    let records = all_records();
    let results = extract_scores(&records);
    assert_eq!(results.len(), 145, "Extract Method records in the development split");
    let scored: Vec<&Scored> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    assert!(scored.len() >= 120, "{} scored", scored.len());
    let mean = |f: &dyn Fn(&Scored) -> f64| stats(scored.iter().map(|s| f(s))).0;
    let (ours, unchanged) = (mean(&|s| s.codebleu.score), mean(&|s| s.baseline.score));
    assert!(ours > 0.72 && ours > unchanged + 0.08, "CodeBLEU {ours} (unchanged method {unchanged})");
    let (precision, recall) = (mean(&|s| s.ast.precision), mean(&|s| s.ast.recall));
    assert!(precision > 0.45 && recall > 0.2, "AST diff precision {precision} recall {recall}");
    let perfect: Vec<String> = scored
        .iter()
        .filter(|s| s.ast.precision == 1.0 && s.ast.recall == 1.0)
        .map(|s| format!("{} {}", s.project, &s.id[..12]))
        .collect();
    assert!(perfect.len() >= 5, "exact AST matches: {perfect:?}");
    // Identical files are rare (the developer's file holds the whole commit), but they happen.
    assert!(scored.iter().any(|s| s.identical), "no result identical to the developer's file");
}
