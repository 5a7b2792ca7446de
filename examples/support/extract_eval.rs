//! Extract Method against PureRefactor: what a developer extracted, replayed through the engine.
//!
//! For every "Extract Method" record the developer's spec is recovered from the record alone:
//! the source method is `diffLocations[0]` in the before file, the name and visibility come from
//! the extracted method's declaration (`diffSourceCodeSet[0]`), and the lines are the run of whole
//! statements of one block of the source method whose tokens are most similar to the extracted
//! method's body (exact whitespace-insensitive matches win outright). Nothing is special-cased
//! per record. The engine's result is compared with the developer's "after" code by token LCS.
//!
//! Shared by `examples/eval_extract.rs` (the table) and the integration test (the thresholds).

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mantra::engine::extract::{ExtractSpec, extract_method};
use mantra::java::SourceFile;
use mantra::java::syntax::{code_leaves, is_callable, is_statement_container, statements_of, walk};
use mantra::metrics::{token_similarity, tokens};
use serde_json::Value;
use tree_sitter::Node;

/// The shared data folder; panics with where it was looked for when it is missing.
pub fn shared_data() -> PathBuf {
    mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"))
}

#[derive(Debug, Clone)]
pub enum Status {
    Applied { similarity: Option<f64>, baseline: Option<f64>, time: Duration, parses: bool },
    Refused { reason: String, message: String },
    Crashed { message: String },
    NoSpec { why: String },
}

#[derive(Debug, Clone)]
pub struct Outcome {
    pub project: String,
    pub id: String,
    pub spec: Option<ExtractSpec>,
    pub status: Status,
}

#[derive(Debug, Default)]
pub struct Report {
    pub outcomes: Vec<Outcome>,
    /// Records of types the evaluation does not replay, by type.
    pub skipped: Vec<(String, usize)>,
}

/// What to replay and measure.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Compute the token similarity to the developer's code (slower).
    pub similarity: bool,
    /// Pass the developer's parameter types as `local_types` (for untyped lambda parameters).
    pub local_types: bool,
}

/// Replays every Extract Method record.
pub fn evaluate(data: &Path, options: Options) -> Result<Report, String> {
    let files = mantra::dataset::pure_refactor_files(data)?;
    let mut report = Report::default();
    let mut skipped: HashMap<String, usize> = HashMap::new();
    for (project, path) in files {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let records: Vec<Value> = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for record in &records {
            let kind = record["type"].as_str().unwrap_or("");
            if kind != "Extract Method" {
                *skipped.entry(kind.to_string()).or_default() += 1;
                continue;
            }
            report.outcomes.push(replay(&project, record, options));
        }
    }
    let mut skipped: Vec<(String, usize)> = skipped.into_iter().collect();
    skipped.sort();
    report.skipped = skipped;
    Ok(report)
}

/// `EVAL_PROJECT=1`: the record's file alone as a project, extracted the way `mantra refactor`
/// does it (`engine::apply`, with what the project model knows of its calls).
fn through_project(
    path: &str,
    before: &str,
    spec: &ExtractSpec,
) -> Result<Result<Option<String>, mantra::engine::EditConflict>, mantra::engine::Refusal> {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join(path);
    std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
    std::fs::write(&file, before).expect("write");
    let project = mantra::java::Project::open(dir.path()).expect("open");
    let fid = project.file_id(Path::new(path)).expect("file");
    let line = spec.method_line.unwrap_or(spec.lines.0);
    let method = project
        .methods_in(fid)
        .expect("parsed")
        .into_iter()
        .filter(|&m| {
            let s = &project.method(m).span;
            s.start_line <= line && line <= s.end_line
        })
        .min_by_key(|&m| project.method(m).span.end_line - project.method(m).span.start_line)
        .expect("the method");
    let spec = mantra::engine::Spec::ExtractMethod(spec.clone());
    mantra::engine::apply(&project, method, &spec).map(|changes| changes.render_file(Path::new(path)))
}

fn replay(project: &str, record: &Value, options: Options) -> Outcome {
    let id = record["uniqueId"].as_str().unwrap_or("?").to_string();
    let outcome = |spec, status| Outcome { project: project.to_string(), id: id.clone(), spec, status };
    let before = record["sourceCodeBeforeForWhole"].as_str().unwrap_or("");
    let path = record["filePathBefore"].as_str().unwrap_or("Before.java");
    let spec = match derive_spec(record, options.local_types) {
        Ok(spec) => spec,
        Err(why) => return outcome(None, Status::NoSpec { why }),
    };
    let start = Instant::now();
    let run = catch_unwind(AssertUnwindSafe(|| {
        if std::env::var_os("EVAL_PROJECT").is_some() {
            return through_project(path, before, &spec);
        }
        let file = SourceFile::parse(path, before.to_string());
        extract_method(&file, &spec).map(|changes| changes.render_file(Path::new(path)))
    }));
    let time = start.elapsed();
    let status = match run {
        Err(panic) => Status::Crashed { message: mantra::error::panic_message(panic.as_ref()).unwrap_or_default() },
        Ok(Err(refusal)) => Status::Refused { reason: refusal.reason.to_string(), message: refusal.message },
        Ok(Ok(Err(conflict))) => Status::Crashed { message: conflict.to_string() },
        Ok(Ok(Ok(None))) => Status::Crashed { message: "the change set does not touch the file".into() },
        Ok(Ok(Ok(Some(after)))) => {
            let human = record["sourceCodeAfterRefactoring"].as_str().unwrap_or("");
            if std::env::var("EVAL_SHOW").is_ok_and(|p| !p.is_empty() && id.starts_with(&p)) {
                eprintln!(
                    "--- engine\n{}\n--- developer\n{human}",
                    changed_methods(before, &after, &spec).unwrap_or_default()
                );
            }
            let (similarity, baseline) = if options.similarity {
                let method_before = record["sourceCodeBeforeRefactoring"].as_str().unwrap_or("");
                let ours = changed_methods(before, &after, &spec);
                (
                    ours.map(|o| token_similarity(&tokens(&o), &tokens(human))),
                    Some(token_similarity(&tokens(method_before), &tokens(human))),
                )
            } else {
                (None, None)
            };
            // The engine's output must still be Java, whatever tree-sitter thought of the input.
            let parses = SourceFile::parse(path, before.to_string()).syntax_error().is_some()
                || SourceFile::parse(path, after.clone()).syntax_error().is_none();
            Status::Applied { similarity, baseline, time, parses }
        }
    };
    outcome(Some(spec), status)
}

/// The developer's spec, recovered from the record (see the module docs).
pub fn derive_spec(record: &Value, with_types: bool) -> Result<ExtractSpec, String> {
    let before_text = record["sourceCodeBeforeForWhole"].as_str().ok_or("no before file")?;
    let loc = &record["diffLocations"][0];
    let (from, to) = (
        loc["startLine"].as_u64().ok_or("no diffLocations[0]")? as usize,
        loc["endLine"].as_u64().ok_or("no diffLocations[0]")? as usize,
    );
    let extracted =
        record["diffSourceCodeSet"][0].as_str().filter(|s| !s.trim().is_empty()).ok_or("no extracted method text")?;
    let before = SourceFile::parse("Before.java", before_text.to_string());
    let method = source_method(&before, from, to).ok_or_else(|| format!("no method at lines {from}-{to}"))?;
    let wrapped = SourceFile::parse("X.java", format!("class __X {{\n{extracted}\n}}\n"));
    let mut new_method = None;
    walk(wrapped.root(), &mut |n| {
        if new_method.is_none() && n.kind() == "method_declaration" {
            new_method = Some(n);
        }
        new_method.is_none()
    });
    let new_method = new_method.ok_or("the extracted text has no method declaration")?;
    let name = new_method.child_by_field_name("name").map(|n| wrapped.text_of(n).to_string()).ok_or("no name")?;
    let visibility = ["public", "protected", "private"]
        .into_iter()
        .find(|v| modifiers_text(&wrapped, new_method).split_whitespace().any(|w| w == *v))
        .unwrap_or("package");
    let target_body = new_method.child_by_field_name("body").ok_or("the extracted method has no body")?;
    let target: Vec<String> = statements_of(target_body).into_iter().flat_map(|s| leaf_texts(&wrapped, s)).collect();
    // The developer's parameter types, for locals whose type the source does not spell out.
    let mut local_types = std::collections::BTreeMap::new();
    if let Some(params) = new_method.child_by_field_name("parameters") {
        let mut cursor = params.walk();
        for p in params.named_children(&mut cursor).filter(|p| p.kind() == "formal_parameter") {
            if let (Some(n), Some(t)) = (p.child_by_field_name("name"), p.child_by_field_name("type")) {
                local_types.insert(wrapped.text_of(n).to_string(), wrapped.text_of(t).to_string());
            }
        }
    }
    let body = method.child_by_field_name("body").ok_or("the source method has no body")?;
    let (first, last) = best_run(&before, body, &target).ok_or("the source method has no statements")?;
    Ok(ExtractSpec {
        file: PathBuf::from(record["filePathBefore"].as_str().unwrap_or("Before.java")),
        method_line: Some(method.start_position().row + 1),
        lines: (first.start_position().row + 1, last.end_position().row + 1),
        name,
        visibility: Some(visibility.to_string()),
        local_types: if with_types { local_types } else { Default::default() },
        params: Vec::new(),
        param_types: Default::default(),
        quiet_calls: Vec::new(),
        copies: Vec::new(),
    })
}

fn modifiers_text(file: &SourceFile, node: Node<'_>) -> String {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|c| c.kind() == "modifiers").map(|m| file.text_of(m).to_string()).collect()
}

/// The method or constructor overlapping `from..=to` the most.
fn source_method(file: &SourceFile, from: usize, to: usize) -> Option<Node<'_>> {
    let mut best: Option<(usize, Node<'_>)> = None;
    walk(file.root(), &mut |n| {
        if is_callable(n.kind()) && n.kind() != "static_initializer" {
            let (s, e) = (n.start_position().row + 1, n.end_position().row + 1);
            let overlap = (e.min(to) + 1).saturating_sub(s.max(from));
            if overlap > 0 && best.is_none_or(|(b, _)| overlap > b) {
                best = Some((overlap, n));
            }
        }
        true
    });
    best.map(|(_, n)| n)
}

fn leaf_texts(file: &SourceFile, node: Node<'_>) -> Vec<String> {
    code_leaves(node).into_iter().map(|l| file.text_of(l).to_string()).collect()
}

/// The run of consecutive statements of one block of `body` most similar to `target`.
fn best_run<'t>(file: &'t SourceFile, body: Node<'t>, target: &[String]) -> Option<(Node<'t>, Node<'t>)> {
    let mut containers = Vec::new();
    walk(body, &mut |n| {
        if is_statement_container(n.kind()) {
            containers.push(n);
        }
        true
    });
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut intern = |t: &str| {
        let next = ids.len() as u32;
        *ids.entry(t.to_string()).or_insert(next)
    };
    let target_ids: Vec<u32> = target.iter().map(|t| intern(t)).collect();
    let mut target_bag: HashMap<u32, usize> = HashMap::new();
    for t in &target_ids {
        *target_bag.entry(*t).or_default() += 1;
    }
    // (bag score, container index, i, j) for every run; then LCS on the best few.
    let mut runs: Vec<(f64, usize, usize, usize)> = Vec::new();
    let mut run_tokens: Vec<Vec<Vec<u32>>> = Vec::new();
    for (ci, c) in containers.iter().enumerate() {
        let stmts = statements_of(*c);
        let toks: Vec<Vec<u32>> =
            stmts.iter().map(|s| leaf_texts(file, *s).iter().map(|t| intern(t)).collect()).collect();
        for i in 0..stmts.len() {
            let mut bag: HashMap<u32, usize> = HashMap::new();
            let (mut overlap, mut len) = (0usize, 0usize);
            for (j, stmt_toks) in toks.iter().enumerate().skip(i) {
                for t in stmt_toks {
                    let have = bag.entry(*t).or_default();
                    if *have < target_bag.get(t).copied().unwrap_or(0) {
                        overlap += 1;
                    }
                    *have += 1;
                }
                len += stmt_toks.len();
                if len == target_ids.len() && toks[i..=j].concat() == target_ids {
                    return Some((stmts[i], stmts[j]));
                }
                runs.push((2.0 * overlap as f64 / (len + target_ids.len()).max(1) as f64, ci, i, j));
            }
        }
        run_tokens.push(toks);
    }
    runs.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.3 - a.2).cmp(&(b.3 - b.2))));
    let best = runs
        .iter()
        .take(8)
        .map(|&(_, ci, i, j)| (token_similarity(&run_tokens[ci][i..=j].concat(), &target_ids), ci, i, j))
        .max_by(|a, b| a.0.total_cmp(&b.0).then((b.3 - b.2).cmp(&(a.3 - a.2))))?;
    let stmts = statements_of(containers[best.1]);
    Some((stmts[best.2], stmts[best.3]))
}

/// The source method and the new method in the engine's output, as one text.
pub fn changed_methods(before: &str, after: &str, spec: &ExtractSpec) -> Option<String> {
    let before_file = SourceFile::parse("B.java", before.to_string());
    let line = spec.method_line?;
    let start = before_file.line_start(line)?;
    let after_file = SourceFile::parse("A.java", after.to_string());
    let mut source = None;
    let mut extracted = None;
    walk(after_file.root(), &mut |n| {
        if is_callable(n.kind()) {
            if source.is_none() && n.start_byte() >= start && n.start_byte() < start + 4096 {
                source = Some(n);
            } else if let Some(s) = source
                && extracted.is_none()
                && n.start_byte() > s.end_byte()
                && n.child_by_field_name("name").is_some_and(|nm| after_file.text_of(nm) == spec.name)
            {
                extracted = Some(n);
            }
        }
        true
    });
    Some(format!("{}\n{}", after_file.text_of(source?), after_file.text_of(extracted?)))
}
