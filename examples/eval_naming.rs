//! How close the planner's names for extracted methods come to the developer's.
//!
//! For every Extract Method whose extracted lines are known, the planner names those lines
//! ([`mantra::plan::extract::name_for_lines`], the name `refactor -t extract-method --lines` and
//! `suggest` give) and the name is compared with the one the developer chose: exact match, and
//! precision, recall and F1 over the words of the names (camelCase split, lower case; the measure of
//! method-name prediction). Two sources:
//!
//! - the refactoring oracle: its labelled Extract Method refactorings that the detector finds,
//!   which gives the extracted lines in the `before/` file; per half (`eval/detect/halves.txt`);
//! - PureRefactor's Extract Method records (the lines recovered as `eval_planner_extract` does).
//!
//! `cargo run --release --example eval_naming` (`-v`: every name, ours against the developer's).

#[path = "support/extract_eval.rs"]
#[allow(dead_code)]
mod extract_eval;

use std::collections::BTreeMap;

use mantra::detect::oracle::{self, Halves};
use mantra::detect::{RefactoringType, Snapshot, detect};
use mantra::java::SourceFile;
use mantra::plan::extract::name_for_lines;
use rayon::prelude::*;
use serde_json::Value;

/// Word precision, recall, exact matches and names scored.
#[derive(Default, Clone, Copy)]
struct Score {
    precision: f64,
    recall: f64,
    exact: usize,
    n: usize,
}

impl Score {
    fn add(&mut self, ours: &str, theirs: &str) {
        let (a, b) = (words(ours), words(theirs));
        let shared = a.iter().filter(|w| b.contains(w)).count() as f64;
        self.precision += shared / a.len().max(1) as f64;
        self.recall += shared / b.len().max(1) as f64;
        self.exact += usize::from(ours == theirs);
        self.n += 1;
    }

    fn line(&self) -> String {
        let n = self.n.max(1) as f64;
        let (p, r) = (self.precision / n, self.recall / n);
        let f1 = if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) };
        format!("| {} | {:.3} | {:.3} | {:.3} | {:.3} |", self.n, self.exact as f64 / n, p, r, f1)
    }
}

/// The words of a camelCase (or snake_case) name, lower case.
fn words(name: &str) -> Vec<String> {
    mantra::text::identifier_words(name).into_iter().map(|w| w.to_lowercase()).collect()
}

fn main() {
    let verbose = std::env::args().any(|a| a == "-v");
    let shared = mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"));
    let commits = oracle::load(&shared.join("refactoring-oracle")).unwrap_or_else(|e| panic!("{e}"));
    let halves = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("eval/detect/halves.txt");
    let halves = Halves::read(&halves).unwrap_or_else(|e| panic!("{e}"));
    // (project, ours, theirs) of every located, labelled extraction.
    let named: Vec<(String, String, String)> = commits
        .par_iter()
        .flat_map_iter(|c| {
            let before = Snapshot::read(&c.dir.join("before")).unwrap_or_default();
            let after = Snapshot::read(&c.dir.join("after")).unwrap_or_default();
            let mut out = Vec::new();
            for r in detect(&before, &after) {
                if r.kind != RefactoringType::ExtractMethod || !c.expected.contains(&r.description.replace('\t', " ")) {
                    continue;
                }
                // The extracted method, as the detector read it from the description.
                let theirs = r.subject.other_method.clone();
                let Some(method) =
                    r.left_side_locations.iter().find(|l| l.description.starts_with("source method declaration"))
                else {
                    continue;
                };
                let code: Vec<_> =
                    r.left_side_locations.iter().filter(|l| l.description.starts_with("extracted code")).collect();
                let (Some(first), Some(last)) =
                    (code.iter().map(|l| l.start_line).min(), code.iter().map(|l| l.end_line).max())
                else {
                    continue;
                };
                let Some(text) = before.files.get(&method.file_path) else { continue };
                let file = SourceFile::parse(&method.file_path, text.clone());
                let Some(at) = file.line_start(method.start_line) else { continue };
                let at = at + file.line_text(method.start_line).map_or(0, |l| l.len() / 2);
                let ours = name_for_lines(&file, at, (first, last));
                if std::env::var("NAMING_SHOW").is_ok_and(|p| p == c.project) {
                    let body: Vec<&str> = (first..=last).filter_map(|l| file.line_text(l)).collect();
                    println!("==== {ours} / {theirs}\n{}", body.join("\n"));
                }
                out.push((c.project.clone(), ours, theirs));
            }
            out
        })
        .collect();
    let mut per_half: BTreeMap<&str, Score> = BTreeMap::new();
    for (project, ours, theirs) in &named {
        let half = if halves.a.contains(project) { "oracle half A" } else { "oracle half B" };
        per_half.entry(half).or_default().add(ours, theirs);
        if verbose {
            println!("{project}: {ours} / {theirs}");
        }
    }
    let data = extract_eval::shared_data();
    for (project, path) in mantra::dataset::pure_refactor_files(&data).unwrap_or_else(|e| panic!("{e}")) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let records: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for record in records.iter().filter(|r| r["type"] == "Extract Method") {
            let Ok(human) = extract_eval::derive_spec(record, false) else { continue };
            let before = record["sourceCodeBeforeForWhole"].as_str().unwrap_or("");
            let file = SourceFile::parse("Before.java", before.to_string());
            let line = human.method_line.unwrap_or(1);
            let at = file.line_start(line).unwrap_or(0) + file.line_text(line).map_or(0, |l| l.len() / 2);
            let ours = name_for_lines(&file, at, human.lines);
            if verbose {
                println!("{project}: {ours} / {}", human.name);
            }
            per_half.entry("pure-refactor").or_default().add(&ours, &human.name);
        }
    }
    println!("| names of | names | exact | word precision | word recall | word F1 |\n|---|---|---|---|---|---|");
    for (what, s) in &per_half {
        println!("| {what} {}", s.line());
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn words_split_camel_case() {
        assert_eq!(super::words("parseHTTPHeader2"), ["parse", "http", "header", "2"]);
    }
}
