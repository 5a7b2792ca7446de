//! Reports over the results: a summary in the shape of MANTRA's Table 2 (per project and
//! refactoring type: tasks, compile & test success, verification, success, CodeBLEU, AST
//! precision and recall, identical results) as Markdown and CSV, and an HTML report with one page
//! per task showing our diff beside the human's, the verdict and the diagnostics.
//!
//! The reports are rewritten after every finished task, so they are current whenever the batch
//! stops, Ctrl-C included. Averages are over the tasks that have the metric (a task whose engine
//! refused has no code to score); the CSV gives that count beside each average.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::BatchError;
use super::result::{TaskResult, write_atomically};
use super::task::Commit;
use crate::style::Style;

/// One row of the table: the tasks of one project, mode and type (or all types, `type = "all"`).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub project: String,
    pub mode: String,
    pub kind: String,
    pub tasks: usize,
    /// Compiled and the tests passed.
    pub compile_test: usize,
    pub verified: usize,
    pub success: usize,
    pub codebleu: Option<f64>,
    pub codebleu_n: usize,
    pub ast_precision: Option<f64>,
    pub ast_recall: Option<f64>,
    pub ast_n: usize,
    pub identical: Option<usize>,
    pub failures: BTreeMap<String, usize>,
}

/// The table's rows: per project and mode, each type in a stable order, then `all`.
pub fn rows(results: &[TaskResult]) -> Vec<Row> {
    let mut groups: BTreeMap<(String, String), BTreeMap<String, Vec<&TaskResult>>> = BTreeMap::new();
    for r in results {
        groups.entry((r.project.clone(), r.mode.clone())).or_default().entry(r.kind.clone()).or_default().push(r);
    }
    let mut out = Vec::new();
    for ((project, mode), by_kind) in groups {
        let mut all = Vec::new();
        for (kind, rs) in &by_kind {
            out.push(row(&project, &mode, kind, rs));
            all.extend(rs.iter().copied());
        }
        out.push(row(&project, &mode, "all", &all));
    }
    out
}

fn row(project: &str, mode: &str, kind: &str, rs: &[&TaskResult]) -> Row {
    let mean = |xs: Vec<f64>| (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64);
    let bleu: Vec<f64> = rs.iter().filter_map(|r| r.codebleu.as_ref().map(|c| c.score)).collect();
    let precision: Vec<f64> = rs.iter().filter_map(|r| r.ast_precision).collect();
    let recall: Vec<f64> = rs.iter().filter_map(|r| r.ast_recall).collect();
    let identical: Vec<bool> = rs.iter().filter_map(|r| r.identical).collect();
    let mut failures = BTreeMap::new();
    for r in rs {
        if let Some(f) = &r.failure {
            *failures.entry(f.clone()).or_insert(0) += 1;
        }
    }
    Row {
        project: project.to_string(),
        mode: mode.to_string(),
        kind: kind.to_string(),
        tasks: rs.len(),
        compile_test: rs.iter().filter(|r| r.compiled == Some(true) && r.tests_passed == Some(true)).count(),
        verified: rs.iter().filter(|r| r.verified == Some(true)).count(),
        success: rs.iter().filter(|r| r.success).count(),
        codebleu_n: bleu.len(),
        codebleu: mean(bleu),
        ast_n: precision.len(),
        ast_precision: mean(precision),
        ast_recall: mean(recall),
        identical: (!identical.is_empty()).then(|| identical.iter().filter(|b| **b).count()),
        failures,
    }
}

fn pct(n: usize, of: usize) -> String {
    if of == 0 { "-".into() } else { format!("{:.1}%", 100.0 * n as f64 / of as f64) }
}

fn num(x: Option<f64>) -> String {
    x.map_or("-".into(), |x| format!("{x:.3}"))
}

/// The Markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let mut out = String::from(
        "| Project | Mode | Refactoring type | Tasks | Compile & test | Verified | Success | CodeBLEU | AST precision | AST recall | Identical | Failures |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for r in rows {
        let kind = if r.kind == "all" { "**all**".to_string() } else { r.kind.clone() };
        let failures: Vec<String> = r.failures.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} ({}) | {} ({}) | {} ({}) | {} | {} | {} | {} | {} |",
            r.project,
            r.mode,
            kind,
            r.tasks,
            r.compile_test,
            pct(r.compile_test, r.tasks),
            r.verified,
            pct(r.verified, r.tasks),
            r.success,
            pct(r.success, r.tasks),
            num(r.codebleu),
            num(r.ast_precision),
            num(r.ast_recall),
            r.identical.map_or("-".into(), |n| n.to_string()),
            failures.join(", ")
        );
    }
    out.push_str(
        "\nCompile & test: the change compiled and every test that passed before still passes. Verified: the \
         detector found the intended refactoring. Success: both. Averages are over the tasks that have the \
         metric; `-`: none has it.\n",
    );
    out
}

/// The CSV table (RFC 4180; the counts behind each average included).
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "project,mode,type,tasks,compile_test,verified,success,success_rate,codebleu,codebleu_n,ast_precision,ast_recall,ast_n,identical\n",
    );
    let opt = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.4}"));
    for r in rows {
        let rate = if r.tasks == 0 { String::new() } else { format!("{:.4}", r.success as f64 / r.tasks as f64) };
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{rate},{},{},{},{},{},{}",
            field(&r.project),
            field(&r.mode),
            field(&r.kind),
            r.tasks,
            r.compile_test,
            r.verified,
            r.success,
            opt(r.codebleu),
            r.codebleu_n,
            opt(r.ast_precision),
            opt(r.ast_recall),
            r.ast_n,
            r.identical.map_or(String::new(), |n| n.to_string())
        );
    }
    out
}

fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// Writes `summary.md`, `summary.csv` and `report/index.html` for `results`.
pub fn write_summaries(out: &Path, results: &[TaskResult]) -> Result<(), BatchError> {
    let rows = rows(results);
    write_atomically(&out.join("summary.md"), markdown(&rows).as_bytes())?;
    write_atomically(&out.join("summary.csv"), csv(&rows).as_bytes())?;
    let dir = out.join("report");
    std::fs::create_dir_all(dir.join("tasks")).map_err(|e| BatchError::Io {
        what: "cannot create",
        path: dir.clone(),
        source: e,
    })?;
    write_atomically(&dir.join("index.html"), index_html(&rows, results).as_bytes())
}

/// The human's change in the commit, as a unified diff of the Java files it touched.
pub fn human_diff(commit: &Commit) -> String {
    let mut paths: Vec<&String> = commit.before.files.keys().chain(commit.after.files.keys()).collect();
    paths.sort();
    paths.dedup();
    let mut out = String::new();
    for p in paths {
        let (old, new) = (commit.before.files.get(p), commit.after.files.get(p));
        if old != new {
            out.push_str(&crate::engine::diff::unified(
                Path::new(p),
                old.map(String::as_str),
                new.map_or("", |s| s.as_str()),
                Style::PLAIN,
            ));
        }
    }
    out
}

/// Writes the task's page, `report/tasks/<id>-<mode>.html`.
pub fn write_task_page(out: &Path, r: &TaskResult, human_diff: &str) -> Result<(), BatchError> {
    let dir = out.join("report/tasks");
    std::fs::create_dir_all(&dir).map_err(|e| BatchError::Io {
        what: "cannot create",
        path: dir.clone(),
        source: e,
    })?;
    write_atomically(&dir.join(page_name(r)), task_html(r, human_diff).as_bytes())
}

fn page_name(r: &TaskResult) -> String {
    let safe: String =
        r.id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    format!("{safe}-{}.html", r.mode)
}

const CSS: &str = "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;\
padding:.25em .5em;text-align:left}.ok{color:#186a1b}.bad{color:#a31515}.cols{display:flex;gap:1em}.cols>div{flex:1;\
min-width:0}pre{background:#f6f8fa;padding:.5em;overflow-x:auto;font-size:12px}.add{color:#186a1b}.del{color:#a31515}\
.hunk{color:#0b5cad}";

fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{}</title><style>{CSS}</style></head><body>\n{body}</body></html>\n",
        esc(title)
    )
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn diff_html(d: &str) -> String {
    if d.is_empty() {
        return "<p><em>no change</em></p>".into();
    }
    let mut out = String::from("<pre>");
    for line in d.lines() {
        let class = if line.starts_with("+++") || line.starts_with("---") {
            ""
        } else if line.starts_with('+') {
            "add"
        } else if line.starts_with('-') {
            "del"
        } else if line.starts_with("@@") {
            "hunk"
        } else {
            ""
        };
        let _ = writeln!(out, "<span class=\"{class}\">{}</span>", esc(line));
    }
    out.push_str("</pre>");
    out
}

fn yes_no(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "<span class=\"ok\">yes</span>",
        Some(false) => "<span class=\"bad\">no</span>",
        None => "-",
    }
}

fn verdict(r: &TaskResult) -> String {
    match &r.failure {
        None if r.success => "<span class=\"ok\">success</span>".into(),
        None => "<span class=\"bad\">not successful</span>".into(),
        Some(f) => format!("<span class=\"bad\">failed: {}</span>", esc(f)),
    }
}

fn task_html(r: &TaskResult, human_diff: &str) -> String {
    let mut b = String::new();
    let _ = writeln!(b, "<p><a href=\"../index.html\">all tasks</a></p><h1>{} {}</h1>", esc(&r.kind), esc(&r.method));
    let _ = writeln!(
        b,
        "<table><tr><th>task</th><td>{}</td></tr><tr><th>mode</th><td>{}</td></tr><tr><th>commit</th><td>{} (parent {})</td></tr>\
         <tr><th>human's refactoring</th><td>{}</td></tr><tr><th>verdict</th><td>{}</td></tr>\
         <tr><th>compiled</th><td>{}</td></tr><tr><th>tests passed</th><td>{}</td></tr><tr><th>verified</th><td>{}</td></tr>\
         <tr><th>CodeBLEU</th><td>{}</td></tr><tr><th>AST precision / recall</th><td>{} / {}</td></tr>\
         <tr><th>identical to the human's</th><td>{}</td></tr><tr><th>time</th><td>{:.1} s (mantra's own {:.2} s)</td></tr></table>",
        esc(&r.id),
        esc(&r.mode),
        esc(&r.commit),
        esc(r.parent.as_deref().unwrap_or("-")),
        esc(&r.description.replace('\t', ": ")),
        verdict(r),
        yes_no(r.compiled),
        yes_no(r.tests_passed),
        yes_no(r.verified),
        num(r.codebleu.as_ref().map(|c| c.score)),
        num(r.ast_precision),
        num(r.ast_recall),
        yes_no(r.identical),
        r.times_ms.get("total").copied().unwrap_or(0) as f64 / 1000.0,
        r.overhead_ms as f64 / 1000.0,
    );
    if let Some(d) = &r.diagnostic {
        let _ = writeln!(b, "<h2>Diagnostics</h2><pre>{}</pre>", esc(d));
    }
    let _ = writeln!(
        b,
        "<div class=\"cols\"><div><h2>Our change</h2>{}</div><div><h2>The human's change</h2>{}</div></div>",
        diff_html(&r.diff),
        diff_html(human_diff)
    );
    if let Some(spec) = &r.spec {
        let _ = writeln!(b, "<h2>Spec</h2><pre>{}</pre>", esc(&serde_json::to_string_pretty(spec).unwrap_or_default()));
    }
    let times: Vec<String> = r.times_ms.iter().map(|(k, v)| format!("{k} {v} ms")).collect();
    let _ = writeln!(b, "<h2>Stages</h2><p>{}</p>", esc(&times.join(", ")));
    page(&format!("{} {}", r.kind, r.method), &b)
}

fn index_html(rows: &[Row], results: &[TaskResult]) -> String {
    let mut b = String::from(
        "<h1>mantra batch</h1>\n<h2>Summary</h2>\n<table><tr><th>project</th><th>mode</th><th>type</th><th>tasks</th><th>compile &amp; test</th><th>verified</th><th>success</th><th>CodeBLEU</th><th>AST P</th><th>AST R</th></tr>\n",
    );
    for r in rows {
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&r.project),
            esc(&r.mode),
            esc(&r.kind),
            r.tasks,
            r.compile_test,
            r.verified,
            r.success,
            num(r.codebleu),
            num(r.ast_precision),
            num(r.ast_recall)
        );
    }
    b.push_str("</table>\n<h2>Tasks</h2>\n<table><tr><th>task</th><th>mode</th><th>type</th><th>method</th><th>verdict</th></tr>\n");
    for r in results {
        let _ = writeln!(
            b,
            "<tr><td><a href=\"tasks/{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&page_name(r)),
            esc(&r.id),
            esc(&r.mode),
            esc(&r.kind),
            esc(&r.method),
            verdict(r)
        );
    }
    b.push_str("</table>\n");
    page("mantra batch", &b)
}
