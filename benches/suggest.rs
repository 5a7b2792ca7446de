//! `mantra suggest` on RefactoringMiner's oracle: for each commit, the opportunities of its
//! `before/` files against its labelled method-level refactorings, recall@5 and recall@10 per
//! type for half A, half B (`eval/detect/halves.txt`) and both; then the speed of `suggest` over
//! every `after/` tree (files per second, on rayon's pool). `MANTRA_SUGGEST_SHOW=<project>`
//! prints, for each commit of that project, the labels and the top 10 (use it on the half you
//! develop on); `MANTRA_SUGGEST_SPEED=1` measures the speed alone. Run with
//! `cargo bench --bench suggest`.

use std::time::Instant;

use mantra::batch::suggest_eval::{self, Totals};
use mantra::detect::oracle;
use rayon::prelude::*;

fn main() {
    let shared = mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"));
    let commits = oracle::load(&shared.join("refactoring-oracle")).unwrap_or_else(|e| panic!("{e}"));
    assert!(!commits.is_empty(), "the oracle holds no commits");
    let halves = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("eval/detect/halves.txt");
    let halves = oracle::Halves::read(&halves).unwrap_or_else(|e| panic!("{e}"));
    // `MANTRA_SUGGEST_SPEED=1`: the speed alone, for profiling.
    if std::env::var_os("MANTRA_SUGGEST_SPEED").is_some() {
        speed(&commits);
        return;
    }
    let outcomes: Vec<_> = commits.par_iter().map(suggest_eval::run).collect();
    if let Ok(project) = std::env::var("MANTRA_SUGGEST_SHOW") {
        for c in commits.iter().filter(|c| c.project == project) {
            show(c);
        }
    }
    let (mut a, mut b, mut all) = (Totals::default(), Totals::default(), Totals::default());
    for o in &outcomes {
        if halves.a.contains(&o.project) {
            a.add(o);
        } else if halves.b.contains(&o.project) {
            b.add(o);
        }
        all.add(o);
    }
    println!("half A ({}), {} commits:\n{}", halves.a.join(", "), a.commits, a.table());
    println!("half B ({}), {} commits:\n{}", halves.b.join(", "), b.commits, b.table());
    println!("both halves, {} commits:\n{}", all.commits, all.table());
    speed(&commits);
}

fn show(c: &oracle::Commit) {
    let project = mantra::java::Project::open(&c.dir.join("before")).expect("open");
    let files: Vec<_> = project.file_ids().collect();
    let ranked =
        mantra::plan::suggest::opportunities(&project, &files, &mantra::plan::suggest::KINDS, usize::MAX, 0.0).best;
    println!("{} {}", c.project, &c.sha[..10]);
    for l in &c.expected {
        // Where the label's method first appears in the whole ranking, whatever the type.
        let subject = mantra::detect::RefactoringType::ALL
            .into_iter()
            .find(|t| l.starts_with(t.display_name()))
            .and_then(|t| mantra::review::refactoring_miner::subject_of(t, l));
        let rank = subject.and_then(|s| {
            let class = suggest_eval::label_class_before(&project, c, &s.class);
            ranked.iter().position(|o| {
                project.method(o.method).name == s.method && project.qualified_name(project.owner(o.method)) == class
            })
        });
        println!("   label {l}  [first at {rank:?} of {}]", ranked.len());
    }
    for o in ranked.iter().take(10) {
        println!("   {:.3} {} {}  {}", o.score, o.kind, o.target, o.reason);
    }
}

/// What `mantra suggest` lists by default (`--limit`).
const LIMIT: usize = 20;

/// Every `after/` tree, opened and scanned for its [`LIMIT`] best opportunities as `mantra
/// suggest` does, the whole set timed.
fn speed(commits: &[oracle::Commit]) {
    let start = Instant::now();
    let (files, found): (usize, usize) = commits
        .par_iter()
        .map(|c| {
            let Ok(project) = mantra::java::Project::open(&c.dir.join("after")) else { return (0, 0) };
            let ids: Vec<_> = project.file_ids().collect();
            let n =
                mantra::plan::suggest::opportunities(&project, &ids, &mantra::plan::suggest::KINDS, LIMIT, 0.0).ranked;
            (ids.len(), n)
        })
        .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1));
    let wall = start.elapsed().as_secs_f64();
    println!(
        "suggest over every after/ tree: {files} files, {found} opportunities ranked in {wall:.1}s ({:.0} files/s on {} thread(s))",
        files as f64 / wall,
        rayon::current_num_threads()
    );
}
