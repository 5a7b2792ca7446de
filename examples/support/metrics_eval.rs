//! The evaluation metrics on PureRefactor: CodeBLEU of identical and of unrelated methods (the
//! sanity bounds), and the engine's Extract Method against the developer's (CodeBLEU, AST-diff
//! precision and recall, identical results).
//!
//! Shared by `examples/metrics_sanity.rs` (the figures) and the integration test (the thresholds).
//! Needs `extract_eval` as a sibling module (the developer's spec recovered from a record).

use std::path::Path;

use mantra::detect::Snapshot;
use mantra::engine::extract::extract_method;
use mantra::java::SourceFile;
use mantra::metrics::{AstDiff, CodeBleu, ast_diff, codebleu, identical};
use serde_json::Value;

use super::extract_eval::{changed_methods, derive_spec};

/// Every PureRefactor record, with its project.
pub fn records(data: &Path) -> Result<Vec<(String, Value)>, String> {
    let mut out = Vec::new();
    for (project, path) in mantra::dataset::pure_refactor_files(data)? {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let records: Vec<Value> = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        out.extend(records.into_iter().map(|r| (project.clone(), r)));
    }
    Ok(out)
}

/// The method before the refactoring, for the records where that field is a method (not for
/// Move And Inline, where it is a cut of the caller's file).
pub fn method_before(record: &Value) -> Option<&str> {
    (record["type"] != "Move And Inline Method")
        .then(|| record["sourceCodeBeforeRefactoring"].as_str())
        .flatten()
        .filter(|s| !s.trim().is_empty())
}

/// Pairs of methods from different records about different methods: the i-th method with the one
/// half the list away (deterministic, every method used twice).
pub fn unrelated_pairs(records: &[(String, Value)]) -> Vec<(&str, &str)> {
    let mut methods: Vec<(&str, &str)> = Vec::new();
    for (_, r) in records {
        if let Some(m) = method_before(r) {
            let name = r["methodNameBefore"].as_str().unwrap_or("");
            if !methods.iter().any(|(n, _)| *n == name) {
                methods.push((name, m));
            }
        }
    }
    let n = methods.len();
    (0..n).map(|i| (methods[i].1, methods[(i + n / 2) % n.max(1)].1)).filter(|(a, b)| a != b).collect()
}

/// One Extract Method record replayed and scored.
#[derive(Debug, Clone)]
pub struct Scored {
    pub project: String,
    pub id: String,
    /// Our source method and extracted method against the developer's (`sourceCodeAfterRefactoring`).
    pub codebleu: CodeBleu,
    /// The unchanged method against the developer's result, for scale.
    pub baseline: CodeBleu,
    pub ast: AstDiff,
    pub identical: bool,
}

/// Why a record was not scored (the derivation's or the engine's reason).
#[derive(Debug, Clone)]
#[allow(dead_code)] // the reasons are for `{:?}` in failures and verbose output
pub enum Skipped {
    NoSpec(String),
    Refused(String),
}

/// Replays every Extract Method record through the engine with the developer's spec and scores it.
pub fn extract_scores(records: &[(String, Value)]) -> Vec<Result<Scored, Skipped>> {
    records.iter().filter(|(_, r)| r["type"] == "Extract Method").map(|(p, r)| score_extract(p, r)).collect()
}

fn score_extract(project: &str, record: &Value) -> Result<Scored, Skipped> {
    let spec = derive_spec(record, true).map_err(Skipped::NoSpec)?;
    let before = record["sourceCodeBeforeForWhole"].as_str().unwrap_or("");
    let path = record["filePathBefore"].as_str().unwrap_or("Before.java");
    let file = SourceFile::parse(path, before.to_string());
    let changes = extract_method(&file, &spec).map_err(|r| Skipped::Refused(r.reason.to_string()))?;
    let ours = changes
        .render_file(Path::new(path))
        .map_err(|e| Skipped::Refused(e.to_string()))?
        .ok_or_else(|| Skipped::Refused("the change set does not touch the file".into()))?;
    let human_method = record["sourceCodeAfterRefactoring"].as_str().unwrap_or("");
    let our_method = changed_methods(before, &ours, &spec).unwrap_or_default();
    let human_file = record["sourceCodeAfterForWhole"].as_str().unwrap_or("");
    let after_path = record["filePathAfter"].as_str().unwrap_or(path);
    let (b, h, o) = (
        Snapshot::from_files([(path, before)]),
        Snapshot::from_files([(after_path, human_file)]),
        Snapshot::from_files([(path, ours.as_str())]),
    );
    let ast = ast_diff(&b, &h, &o);
    let id = record["uniqueId"].as_str().unwrap_or("?");
    if std::env::var("METRICS_SHOW").is_ok_and(|p| !p.is_empty() && id.starts_with(&p)) {
        let (human, ours) = mantra::metrics::astdiff::both_edits(&b, &h, &o);
        eprintln!("--- developer's actions\n{human:#?}\n--- ours\n{ours:#?}");
    }
    Ok(Scored {
        project: project.to_string(),
        id: record["uniqueId"].as_str().unwrap_or("?").to_string(),
        codebleu: codebleu(human_method, &our_method),
        baseline: codebleu(human_method, record["sourceCodeBeforeRefactoring"].as_str().unwrap_or("")),
        ast,
        identical: identical(human_file, &ours),
    })
}

/// Mean, minimum and maximum.
pub fn stats(xs: impl IntoIterator<Item = f64>) -> (f64, f64, f64) {
    let xs: Vec<f64> = xs.into_iter().collect();
    if xs.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (mean, xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(f64::NEG_INFINITY, f64::max))
}
