//! Does the planner pick the human's fragment? For every Extract Method record of PureRefactor,
//! the developer's lines are recovered from the record (as `eval_extract` does), and the
//! planner's first three candidates for the source method (`mantra::plan::extract::candidates`,
//! what `refactor -t extract-method` and `suggest` choose from) are compared with them: top-1 is
//! the share of records whose first candidate overlaps the human's lines by at least 80 %
//! (shared lines over the lines of either, the larger), top-3 whose first three hold one. Also
//! counted: single-call candidates in any top-3 (there must be none). Per project and overall.
//!
//! And the CodeBLEU of the result: the planner's first candidate (its lines and its name) applied
//! by the engine, the source method and the new method it yields scored against the developer's
//! two (`sourceCodeAfterRefactoring`), next to the same score for the developer's own spec
//! replayed by the engine (the ceiling of the planner's choice) and for the source method left as
//! it was (the floor).
//!
//! `cargo run --release --example eval_planner_extract` (`PLANNER_SHOW=<project>` lists each
//! record's lines and the planner's three; `PLANNER_RATIO=1` prints, per record, the share of the
//! method body the developer's lines and the planner's first candidate cover, and whether it hit;
//! `PLANNER_RANK=<project>` where the human's lines rank among all the planner's candidates, with
//! the score components of the first and of the human's; `PLANNER_DUMP=FILE` appends every
//! record's candidates and their components to FILE as JSON lines, for
//! `eval/planner/fit_weights.py`, which asks whether other weights would do better on a project
//! they were not fitted on)

#[path = "support/extract_eval.rs"]
#[allow(dead_code)]
mod extract_eval;

use std::collections::BTreeMap;

use mantra::engine::extract::extract_method;
use mantra::java::SourceFile;
use mantra::metrics::codebleu;
use serde_json::Value;

/// Lines shared by two inclusive ranges over the lines of the larger one.
fn overlap(a: (usize, usize), b: (usize, usize)) -> f64 {
    let shared = (a.1.min(b.1) + 1).saturating_sub(a.0.max(b.0)) as f64;
    let larger = ((a.1 + 1 - a.0).max(b.1 + 1 - b.0)) as f64;
    shared / larger
}

fn main() {
    let data = extract_eval::shared_data();
    let files = mantra::dataset::pure_refactor_files(&data).unwrap_or_else(|e| panic!("{e}"));
    // project → (records, top-1, top-3, single calls in a top-3, no spec)
    let mut per: BTreeMap<String, [usize; 5]> = BTreeMap::new();
    // project → CodeBLEU of (the planner's first candidate, the developer's spec, no change)
    let mut bleu: BTreeMap<String, [Vec<f64>; 3]> = BTreeMap::new();
    for (project, path) in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let records: Vec<Value> = serde_json::from_str(&text).unwrap();
        for record in records.iter().filter(|r| r["type"] == "Extract Method") {
            let row = per.entry(project.clone()).or_default();
            let Ok(human) = extract_eval::derive_spec(record, false) else {
                row[4] += 1;
                continue;
            };
            row[0] += 1;
            let before = record["sourceCodeBeforeForWhole"].as_str().unwrap_or("");
            let file = SourceFile::parse("Before.java", before.to_string());
            let line = human.method_line.unwrap_or(1);
            let at = file.line_start(line).unwrap_or(0) + file.line_text(line).map_or(0, |l| l.len() / 2);
            let found = mantra::plan::extract::candidates(&file, at, 3);
            let hits: Vec<bool> = found.iter().map(|c| overlap(c.lines, human.lines) >= 0.8).collect();
            if std::env::var_os("PLANNER_RATIO").is_some() {
                let callable = mantra::java::syntax::enclosing_callable(file.root(), at, at);
                if let Some(body) = callable.and_then(mantra::java::syntax::callable_body) {
                    let bl =
                        (body.end_position().row.saturating_sub(body.start_position().row)).saturating_sub(1).max(1);
                    let r = |l: (usize, usize)| (l.1 + 1 - l.0) as f64 / bl as f64;
                    println!(
                        "RATIO {project} {:.2} {} {}",
                        r(human.lines),
                        found.first().map_or("-".to_string(), |c| format!("{:.2}", r(c.lines))),
                        hits.first().copied().unwrap_or(false)
                    );
                }
            }
            if let Ok(dump) = std::env::var("PLANNER_DUMP") {
                let all = mantra::plan::extract::candidates(&file, at, usize::MAX);
                let cands: Vec<Value> = all
                    .iter()
                    .map(|c| {
                        serde_json::json!({"lines": [c.lines.0, c.lines.1], "shape": c.shape,
                            "components": c.components.iter().map(|(k, v)| (k.to_string(), *v)).collect::<BTreeMap<_, _>>()})
                    })
                    .collect();
                let row = serde_json::json!({"project": project, "human": [human.lines.0, human.lines.1], "candidates": cands});
                use std::io::Write as _;
                let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&dump).unwrap();
                writeln!(f, "{row}").unwrap();
            }
            if std::env::var("PLANNER_RANK").is_ok_and(|p| p == project) {
                let all = mantra::plan::extract::candidates(&file, at, usize::MAX);
                let rank = all.iter().position(|c| overlap(c.lines, human.lines) >= 0.8);
                let show = |c: &mantra::plan::extract::ExtractCandidate| {
                    format!("{:?} {} {:.2} {:?}", c.lines, c.shape, c.score, c.components)
                };
                println!(
                    "RANK {:?} of {} human {:?}\n   first {}\n   human {}",
                    rank,
                    all.len(),
                    human.lines,
                    all.first().map(show).unwrap_or_default(),
                    rank.map(|i| show(&all[i])).unwrap_or_default()
                );
            }
            if std::env::var("PLANNER_SHOW").is_ok_and(|p| p == project) {
                let body = file.text.lines().count();
                println!(
                    "human {:?} ({} lines) in a {body}-line file; planner: {}",
                    human.lines,
                    human.lines.1 + 1 - human.lines.0,
                    found
                        .iter()
                        .map(|c| format!("{:?} {} {:.2}", c.lines, c.shape, c.score))
                        .collect::<Vec<_>>()
                        .join(" | ")
                );
            }
            row[1] += usize::from(hits.first().copied().unwrap_or(false));
            row[2] += usize::from(hits.iter().any(|h| *h));
            row[3] += found.iter().filter(|c| c.lines.0 == c.lines.1 && one_call(&file, c.lines)).count();
            let human_code = record["sourceCodeAfterRefactoring"].as_str().unwrap_or("");
            let before_method = record["sourceCodeBeforeRefactoring"].as_str().unwrap_or("");
            let scores = bleu.entry(project.clone()).or_default();
            let planned = found.first().map(|c| mantra::plan::extract::spec_for(&file.path, line, c.lines, &c.name));
            // A record where the planner has no candidate keeps the method as it was.
            let ours = planned.as_ref().and_then(|spec| result(&file, before, spec));
            scores[0].push(codebleu(human_code, ours.as_deref().unwrap_or(before_method)).score);
            let replayed = extract_eval::derive_spec(record, true).ok().and_then(|spec| result(&file, before, &spec));
            scores[1].push(codebleu(human_code, replayed.as_deref().unwrap_or(before_method)).score);
            scores[2].push(codebleu(human_code, before_method).score);
        }
    }
    let mut all = [0usize; 5];
    println!("| project | records | top-1 | top-3 | single calls in a top-3 | no spec |\n|---|---|---|---|---|---|");
    for (p, r) in &per {
        for i in 0..5 {
            all[i] += r[i];
        }
        print_row(p, r);
    }
    print_row("all", &all);
    println!(
        "\nCodeBLEU against the developer's source and new method (mean):\n\n\
         | project | records | planner's first candidate | developer's spec, replayed | method unchanged |\n|---|---|---|---|---|"
    );
    let mut every: [Vec<f64>; 3] = Default::default();
    for (p, s) in &bleu {
        for i in 0..3 {
            every[i].extend(&s[i]);
        }
        println!("| {p} | {} | {:.3} | {:.3} | {:.3} |", s[0].len(), mean(&s[0]), mean(&s[1]), mean(&s[2]));
    }
    println!("| all | {} | {:.3} | {:.3} | {:.3} |", every[0].len(), mean(&every[0]), mean(&every[1]), mean(&every[2]));
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len().max(1) as f64
}

/// The source method and the new method after the engine applies `spec` to `before`.
fn result(file: &SourceFile, before: &str, spec: &mantra::engine::extract::ExtractSpec) -> Option<String> {
    let changes = extract_method(file, spec).ok()?;
    let after = changes.render_file(&file.path).ok()??;
    extract_eval::changed_methods(before, &after, spec)
}

fn print_row(name: &str, r: &[usize; 5]) {
    let pct = |n: usize| n as f64 / r[0].max(1) as f64;
    println!("| {name} | {} | {:.3} | {:.3} | {} | {} |", r[0], pct(r[1]), pct(r[2]), r[3], r[4]);
}

/// Whether the one statement on `lines` is a single call.
fn one_call(file: &SourceFile, lines: (usize, usize)) -> bool {
    let mut stmts = Vec::new();
    mantra::java::syntax::walk(file.root(), &mut |n| {
        if mantra::java::syntax::is_statement_kind(n.kind())
            && n.start_position().row + 1 == lines.0
            && n.end_position().row + 1 == lines.1
        {
            stmts.push(n);
            return false;
        }
        true
    });
    mantra::plan::extract::single_call(&stmts)
}
