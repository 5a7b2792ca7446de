//! Evaluates the Inline Method engine on the PureRefactor development records.
//!
//! For every "Inline Method" record, the engine runs on the whole file before the commit with
//! the developer's spec: the inlined method is `diffLocations[2]`, the caller `diffLocations[0]`.
//! When the developer kept the method (it is still declared in the file after the commit), only
//! the call inside the caller is inlined (`at`); otherwise every call is. The engine's caller is
//! then compared token by token with the developer's caller after the commit.
//!
//! Run: `cargo run --release --example eval_inline` (data from `MANTRA_SHARED_DATA`, else
//! `../shared/data` or `../../shared/data` beside the repository).

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use mantra::engine::inline::{CallLine, InlineSpec, MethodSelector, inline_method};
use mantra::engine::variable_names::{descendants, erased_type};
use mantra::java::SourceFile;
use mantra::metrics::code_similarity as token_similarity;
use serde_json::Value;

/// The shared data folder, or an error saying where it was looked for.
pub fn shared_data() -> Result<PathBuf, String> {
    mantra::dataset::shared_data_dir()
}

/// What happened to one record.
#[derive(Debug, Clone)]
pub enum Outcome {
    Applied { similarity: f64 },
    Refused { reason: String, message: String },
    Crashed(String),
}

#[derive(Debug, Clone)]
pub struct Row {
    pub project: String,
    pub method: String,
    pub at: Option<usize>,
    pub outcome: Outcome,
    /// Similarity of the untouched caller to the developer's caller: the baseline.
    pub baseline: f64,
    pub elapsed: Duration,
}

#[derive(Debug, Default)]
pub struct Report {
    pub rows: Vec<Row>,
    pub move_and_inline: usize,
}

impl Report {
    pub fn applied(&self) -> usize {
        self.rows.iter().filter(|r| matches!(r.outcome, Outcome::Applied { .. })).count()
    }
    pub fn crashed(&self) -> usize {
        self.rows.iter().filter(|r| matches!(r.outcome, Outcome::Crashed(_))).count()
    }
    pub fn median_time(&self) -> Duration {
        let mut t: Vec<Duration> = self.rows.iter().map(|r| r.elapsed).collect();
        t.sort();
        t.get(t.len() / 2).copied().unwrap_or_default()
    }
}

fn line_of(v: &Value, i: usize, key: &str) -> usize {
    v["diffLocations"][i][key].as_u64().unwrap_or(0) as usize
}

/// The method or constructor overlapping most with lines `lo..=hi`: its byte range.
fn member_range(file: &SourceFile, lo: usize, hi: usize) -> Option<std::ops::Range<usize>> {
    descendants(file.root())
        .into_iter()
        .filter(|n| matches!(n.kind(), "method_declaration" | "constructor_declaration"))
        .map(|n| {
            let (s, e) = (n.start_position().row + 1, n.end_position().row + 1);
            let overlap = (e.min(hi) + 1).saturating_sub(s.max(lo));
            (overlap, n.byte_range())
        })
        .filter(|(o, _)| *o > 0)
        .max_by_key(|(o, r)| (*o, usize::MAX - r.len()))
        .map(|(_, r)| r)
}

/// Parameter types of the inlined method from RefactoringMiner's description
/// (`private name(a String, b List<X>) : void inlined to ...`).
fn described_param_types(description: &str, name: &str) -> Vec<String> {
    let Some(start) = description.find(&format!("{name}(")) else { return Vec::new() };
    let rest = &description[start + name.len() + 1..];
    let Some(end) = rest.find(')') else { return Vec::new() };
    rest[..end]
        .split(", ")
        .filter(|p| !p.trim().is_empty())
        .map(|p| erased_type(p.split_once(' ').map(|(_, t)| t).unwrap_or(p)))
        .collect()
}

/// Does `text` still declare `name` with these (erased) parameter types?
fn still_declared(text: &str, name: &str, types: &[String]) -> bool {
    let f = SourceFile::parse("After.java", text.to_string());
    descendants(f.root()).into_iter().any(|n| {
        n.kind() == "method_declaration"
            && n.child_by_field_name("name").is_some_and(|x| f.text_of(x) == name)
            && n.child_by_field_name("parameters").is_some_and(|ps| {
                let got: Vec<String> = ps
                    .named_children(&mut ps.walk())
                    .filter(|p| matches!(p.kind(), "formal_parameter" | "spread_parameter"))
                    .map(|p| p.child_by_field_name("type").map(|t| erased_type(f.text_of(t))).unwrap_or_default())
                    .collect();
                got == types
            })
    })
}

/// The line of the first call to `name` inside lines `lo..=hi`.
fn call_line(file: &SourceFile, name: &str, lo: usize, hi: usize) -> Option<usize> {
    descendants(file.root())
        .into_iter()
        .filter(|n| n.kind() == "method_invocation")
        .filter(|n| n.child_by_field_name("name").is_some_and(|x| file.text_of(x) == name))
        .map(|n| n.start_position().row + 1)
        .find(|l| (lo..=hi).contains(l))
}

fn evaluate_record(project: &str, r: &Value) -> Row {
    let path = r["filePathBefore"].as_str().unwrap_or("Before.java").to_string();
    let before = r["sourceCodeBeforeForWhole"].as_str().unwrap_or_default().to_string();
    let after_whole = r["sourceCodeAfterForWhole"].as_str().unwrap_or_default();
    let human_caller = r["sourceCodeAfterRefactoring"].as_str().unwrap_or_default();
    let method = r["methodNameBefore"].as_str().unwrap_or_default().rsplit('#').next().unwrap_or_default().to_string();
    let (c_lo, c_hi) = (line_of(r, 0, "startLine"), line_of(r, 0, "endLine"));
    let m_hi = line_of(r, 2, "endLine");
    let file = SourceFile::parse(path.clone(), before);
    let files = [file];
    let file = &files[0];
    let types = described_param_types(r["description"].as_str().unwrap_or_default(), &method);
    let kept = still_declared(after_whole, &method, &types);
    let at = if kept { call_line(file, &method, c_lo, c_hi) } else { None };
    let spec = InlineSpec {
        file: path.clone().into(),
        method: MethodSelector { name: method.clone(), line: Some(m_hi) },
        at: at.map(|line| CallLine { file: path.clone().into(), line }),
    };
    let caller = member_range(file, c_lo, c_hi).unwrap_or(0..0);
    let baseline = token_similarity(&file.text[caller.clone()], human_caller);

    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let changes = inline_method(&files, &spec)?;
        let edits = match changes.files.get(&file.path) {
            Some(mantra::engine::FileChange::Edit { edits, .. }) => edits.clone(),
            _ => Vec::new(),
        };
        let text = changes.render_file(&file.path).ok().flatten().unwrap_or_else(|| file.text.clone());
        Ok((text, edits))
    }));
    let elapsed = start.elapsed();
    let method = spec.method.name.clone();
    let outcome = match result {
        Err(panic) => Outcome::Crashed(mantra::error::panic_message(panic.as_ref()).unwrap_or_default()),
        Ok(Err(refusal)) => {
            let refusal: mantra::engine::Refusal = refusal;
            Outcome::Refused { reason: refusal.reason.to_string(), message: refusal.message }
        }
        Ok(Ok((text, edits))) => {
            // map the caller's range through the edits
            let shift = |pos: usize| -> usize {
                let delta: isize = edits
                    .iter()
                    .filter(|e| e.end <= pos && !(e.start == e.end && e.start == pos))
                    .map(|e| e.replacement.len() as isize - (e.end - e.start) as isize)
                    .sum();
                (pos as isize + delta) as usize
            };
            let engine_caller = text.get(shift(caller.start)..shift(caller.end)).unwrap_or_default();
            if std::env::args().any(|a| a == "--show") {
                println!("===== {method}: engine's caller\n{engine_caller}\n");
            }
            Outcome::Applied { similarity: token_similarity(engine_caller, human_caller) }
        }
    };
    Row { project: project.to_string(), method: spec.method.name.clone(), at, outcome, baseline, elapsed }
}

/// Runs the engine on every Inline Method record under `data/pure-refactor`.
pub fn evaluate(data: &std::path::Path) -> Result<Report, String> {
    let paths = mantra::dataset::pure_refactor_files(data)?;
    let mut report = Report::default();
    for (project, p) in paths {
        let text = std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        let records: Vec<Value> = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?;
        for r in &records {
            match r["type"].as_str() {
                Some("Inline Method") => report.rows.push(evaluate_record(&project, r)),
                Some("Move And Inline Method") => report.move_and_inline += 1,
                _ => {}
            }
        }
    }
    Ok(report)
}

pub fn print(report: &Report) {
    println!(
        "{:<18} {:<44} {:>5} {:<28} {:>6} {:>6} {:>8}",
        "project", "inlined method", "at", "outcome", "sim", "base", "ms"
    );
    for r in &report.rows {
        let (outcome, sim) = match &r.outcome {
            Outcome::Applied { similarity } => ("applied".to_string(), format!("{similarity:.3}")),
            Outcome::Refused { reason, .. } => (format!("refused: {reason}"), "-".into()),
            Outcome::Crashed(_) => ("CRASHED".into(), "-".into()),
        };
        let at = r.at.map(|l| l.to_string()).unwrap_or_else(|| "all".into());
        println!(
            "{:<18} {:<44} {:>5} {:<28} {:>6} {:>6.3} {:>8.2}",
            r.project,
            r.method,
            at,
            outcome,
            sim,
            r.baseline,
            r.elapsed.as_secs_f64() * 1e3
        );
    }
    for r in &report.rows {
        match &r.outcome {
            Outcome::Refused { reason, message } => println!("  {} [{reason}] {message}", r.method),
            Outcome::Crashed(msg) => println!("  {} CRASHED: {msg}", r.method),
            Outcome::Applied { .. } => {}
        }
    }
    let n = report.rows.len();
    let applied = report.applied();
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &report.rows {
        if let Outcome::Refused { reason, .. } = &r.outcome {
            *reasons.entry(reason).or_default() += 1;
        }
    }
    let sims: Vec<(f64, f64)> = report
        .rows
        .iter()
        .filter_map(|r| match r.outcome {
            Outcome::Applied { similarity } => Some((similarity, r.baseline)),
            _ => None,
        })
        .collect();
    let mean = |f: fn(&(f64, f64)) -> f64| sims.iter().map(f).sum::<f64>() / sims.len().max(1) as f64;
    println!();
    println!("Inline Method records: {n}");
    println!("applied: {applied} ({:.0}%)", 100.0 * applied as f64 / n.max(1) as f64);
    println!(
        "refused: {} ({})",
        n - applied - report.crashed(),
        reasons.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join(", ")
    );
    println!("crashed: {}", report.crashed());
    println!(
        "caller token similarity to the developer's, applied records: mean {:.3} (untouched caller: {:.3})",
        mean(|s| s.0),
        mean(|s| s.1)
    );
    println!("median engine time per record: {:.2} ms", report.median_time().as_secs_f64() * 1e3);
    println!(
        "Move And Inline Method records: {} (not applicable: the inlined method's class is in another file that the \
         record does not contain, so the engine has no declaration to inline)",
        report.move_and_inline
    );
}

#[allow(dead_code)] // `main` is unused when the integration tests include this file as a module
fn main() {
    let data = match shared_data() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    match evaluate(&data) {
        Ok(report) => print(&report),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
