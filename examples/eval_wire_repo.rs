//! Code wiring on a whole real repository: every private method with parameters is pasted at each
//! of its calls in its own class with its own names, as if inlined by hand, and `mantra wire`'s
//! engine binds them with no model; the bindings are scored against the arguments the calls
//! passed (see `mantra::batch::wire_eval`). With every file of the project present, types and
//! getters are known, as they are for a user. The recipe of the measured run is in
//! `eval/real/wire-repo.sh`.
//!
//!   cargo run --release --example eval_wire_repo -- PATH/TO/REPO [NAME]
//!
//! `MANTRA_WIRE_SHOW=1` prints every argument with what was bound to it, and
//! `MANTRA_WIRE_SHOW_CANDIDATES=1` also each name's scored candidates and their evidence.

use mantra::batch::wire_eval::{self, Counts};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(root) = args.next() else {
        eprintln!("usage: eval_wire_repo PATH/TO/REPO [NAME]");
        std::process::exit(2);
    };
    let name = args.next().unwrap_or_else(|| root.clone());
    let project = mantra::java::Project::open(std::path::Path::new(&root)).unwrap_or_else(|e| panic!("{root}: {e}"));
    let start = std::time::Instant::now();
    let o = wire_eval::run_project(&name, &project);
    let c: Counts = o.inline;
    if std::env::var_os("MANTRA_WIRE_SHOW").is_some() {
        for case in &o.cases {
            for (p, a, b, bindable) in &case.truths {
                println!("{} | {p} -> {a} | bound {b:?} | bindable {bindable}", case.label);
            }
            if std::env::var_os("MANTRA_WIRE_SHOW_CANDIDATES").is_some() {
                for c in &case.considered {
                    println!("    {c}");
                }
            }
        }
    }
    println!("{name}: {}; {:.1}s", c.line(), start.elapsed().as_secs_f64());
}
