//! Code wiring on real inlines, and its speed.
//!
//! Every Inline Method and Move And Inline Method label of `shared/data/refactoring-oracle`
//! becomes cases ([`mantra::batch::wire_eval`]): the callee's body pasted at each call site with
//! its own names, wired with no model, its bindings compared with the arguments the call passed.
//! Move Method and Move And Rename Method labels (and PureRefactor's records of both) add the
//! moved body's references to its old class: the old body pasted over the new, its names compared
//! with what the human wrote in their place.
//! Exact-match precision and recall (over the bindable arguments, and over all) per half
//! (`eval/detect/halves.txt`). `MANTRA_WIRE_SHOW=<project>` prints that project's cases
//! (study half A only). Then the time to wire a 50-line paste in a 2,000-line file, median of
//! 21 runs. Run with `cargo bench --bench wire`.

use std::time::{Duration, Instant};

use mantra::batch::wire_eval::{self, Counts, Family, Totals};
use mantra::detect::oracle::Halves;
use rayon::prelude::*;

fn main() {
    let shared = mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"));
    let commits = mantra::detect::oracle::load(&shared.join("refactoring-oracle")).unwrap_or_else(|e| panic!("{e}"));
    let halves = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("eval/detect/halves.txt");
    let halves = Halves::read(&halves).unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    let outcomes: Vec<_> = commits.par_iter().map(wire_eval::run).collect();
    let wall = start.elapsed();
    let show = std::env::var("MANTRA_WIRE_SHOW").ok();
    let mut totals = Totals::default();
    for o in &outcomes {
        totals.add(o);
        if show.as_deref() == Some(o.project.as_str()) {
            print_cases(o);
        }
    }
    let line = |c: Counts| c.line();
    let families: [(&str, &[Family]); 5] = [
        ("inline labels", &[Family::Inline]),
        ("extract labels", &[Family::Extract]),
        ("inline and extract labels", &[Family::Inline, Family::Extract]),
        ("move labels", &[Family::Move]),
        ("all", &[Family::Inline, Family::Extract, Family::Move]),
    ];
    for (what, fam) in families {
        println!("{what}:");
        if std::env::var_os("MANTRA_WIRE_PROJECTS").is_some() {
            for p in &halves.a {
                println!("  {p}: {}", line(totals.over(std::slice::from_ref(p), fam)));
            }
        }
        // Half B per project, counts only (`MANTRA_WIRE_PROJECTS=B`): judged, never studied case by case.
        if std::env::var("MANTRA_WIRE_PROJECTS").as_deref() == Ok("B") {
            for p in &halves.b {
                println!("  {p}: {}", line(totals.over(std::slice::from_ref(p), fam)));
            }
        }
        println!("  half A: {}", line(totals.over(&halves.a, fam)));
        println!("  half B: {}", line(totals.over(&halves.b, fam)));
        println!("  both halves: {}", line(totals.over(&[], fam)));
    }
    println!("{} commits in {:.2}s wall", commits.len(), wall.as_secs_f64());
    // PureRefactor's records: a third set, neither half.
    let mut records = Totals::default();
    for (project, path) in mantra::dataset::pure_refactor_files(&shared).unwrap_or_else(|e| panic!("{e}")) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let list: Vec<serde_json::Value> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let o = wire_eval::run_records(&project, &list);
        if show.as_deref() == Some(project.as_str()) {
            print_cases(&o);
        }
        records.add(&o);
    }
    println!(
        "pure-refactor (hibernate-orm, hibernate-search, pmd; Extract, Inline, Move and Move And Rename Method records):"
    );
    println!("  inline: {}", line(records.over(&[], &[Family::Inline])));
    println!("  extract: {}", line(records.over(&[], &[Family::Extract])));
    println!("  inline and extract: {}", line(records.over(&[], &[Family::Inline, Family::Extract])));
    println!("  move: {}", line(records.over(&[], &[Family::Move])));
    println!("  all: {}", line(records.over(&[], &[Family::Inline, Family::Extract, Family::Move])));
    speed();
}

fn print_cases(o: &wire_eval::Outcome) {
    for c in &o.cases {
        println!("--- {}\n{}", c.label, c.paste);
        for (p, a, b, bindable) in &c.truths {
            let mark = match b {
                Some(b) if b.trim_start_matches("this.") == a.trim_start_matches("this.") => "ok   ",
                Some(_) => "WRONG",
                None => "unbnd",
            };
            println!("   {mark} {p} -> {a} (bound {b:?}, bindable {bindable})");
        }
        for c in &c.considered {
            println!("      {c}");
        }
    }
}

/// A 2,000-line class whose last method holds a 50-line paste naming variables it does not have.
fn speed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src/main/java/p");
    std::fs::create_dir_all(&src).expect("mkdir");
    let mut text = String::from(
        "package p;\n\nimport java.util.List;\n\npublic class Big {\n  private int total;\n  private List<String> names;\n\n",
    );
    let mut i = 0;
    while text.lines().count() < 1_930 {
        text.push_str(&format!(
            "  int helper{i}(int count, String label) {{\n    int sum = count + {i};\n    for (int k = 0; k < count; k++) {{\n      sum += label.length() + k;\n    }}\n    total += sum;\n    return sum;\n  }}\n\n"
        ));
        i += 1;
    }
    text.push_str("  int target(int amount, String title, List<String> entries) {\n    int acc = 0;\n");
    let first = text.lines().count() + 1;
    for k in 0..50 {
        text.push_str(&format!("    acc += helper{}(amt + {k}, heading) + items.size();\n", k % i.max(1)));
    }
    let last = text.lines().count();
    text.push_str("    return acc;\n  }\n}\n");
    std::fs::write(src.join("Big.java"), &text).expect("write");
    let lines = text.lines().count();
    let mut times: Vec<Duration> = Vec::new();
    let mut bound = 0;
    for _ in 0..21 {
        let start = Instant::now();
        let project = mantra::java::Project::open(dir.path()).expect("open");
        let f = project.file_id(std::path::Path::new("src/main/java/p/Big.java")).expect("Big.java");
        let w = mantra::engine::wire::wire(&project, f, first, last).expect("wire");
        let _ = w.changes(&project, f).expect("changes").render().expect("render");
        times.push(start.elapsed());
        bound = w.bindings.iter().filter(|b| b.bound.is_some()).count();
    }
    times.sort();
    println!(
        "wire of a {}-line paste in a {lines}-line file ({bound} names bound): median {:.1} ms (open, parse, locate, collect, choose), fastest {:.1} ms",
        last + 1 - first,
        times[times.len() / 2].as_secs_f64() * 1000.0,
        times[0].as_secs_f64() * 1000.0
    );
}
