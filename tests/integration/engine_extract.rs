//! Extract Method through the library API, proven with the real `javac` and `java`, and replayed
//! against PureRefactor's Extract Method records.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use mantra::engine::extract::{ExtractSpec, extract_method};
use mantra::java::SourceFile;

use crate::harness::fixture;

#[path = "../../examples/support/extract_eval.rs"]
#[allow(dead_code)] // the example uses the parts of the evaluation this test does not
pub(crate) mod extract_eval;

/// Marker comments in the fixture: `//@start NAME` … `//@end NAME` around the statements to extract.
fn marked_lines(text: &str, name: &str) -> (usize, usize) {
    let line_of = |marker: String| {
        text.lines().position(|l| l.trim() == marker).map(|i| i + 1).unwrap_or_else(|| panic!("no marker {marker}"))
    };
    (line_of(format!("//@start {name}")) + 1, line_of(format!("//@end {name}")) - 1)
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Compiles `Main.java` in `dir` and runs it, returning what it printed.
fn compile_and_run(dir: &Path) -> String {
    run(Command::new("javac").arg("-Xlint:none").arg("-d").arg(dir.join("out")).arg(dir.join("Main.java")));
    run(Command::new("java").arg("-cp").arg(dir.join("out")).arg("Main"))
}

#[test]
fn every_extraction_compiles_and_behaves_the_same() {
    let original = std::fs::read_to_string(fixture("extract-method").join("Main.java")).expect("fixture");
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::write(tmp.path().join("Main.java"), &original).expect("write");
    let expected = compile_and_run(tmp.path());

    // Each extraction is applied to the previous one's output, so the engine also reads its own code.
    let steps = [
        ("ctor", "resetCalls", "        resetCalls(base);\n"),
        ("loop", "add", "            total = add(total, x);\n"),
        ("declared", "average", "        String label = average(count, total);\n"),
        ("returns", "signOf", "        return signOf(a);\n"),
        ("conditional", "choose", "        value = choose(c, value);\n"),
        ("throws", "readOne", "        int c = readOne(r);\n"),
        ("caught", "readAndShow", "            int c = readAndShow(r);\n"),
        ("generic", "better", "            best = better(x, best);\n"),
        ("lambda", "nonBlank", "            return nonBlank(s);\n"),
        ("untyped", "appendLength", "            appendLength(x, out);\n"),
        ("entry", "appendEntry", "            appendEntry(out, k, v);\n"),
        ("switch", "one", "                result = one();\n"),
        ("unassigned", "pick", "        x = pick(c);\n"),
        ("tail", "report", "        report(a);\n"),
    ];
    let mut text = original.clone();
    for (marker, name, call) in steps {
        let file = SourceFile::parse("Main.java", text.clone());
        let spec = ExtractSpec {
            file: "Main.java".into(),
            method_line: None,
            lines: marked_lines(&text, marker),
            name: name.into(),
            visibility: None,
            local_types: BTreeMap::new(),
            params: Vec::new(),
            param_types: Default::default(),
            quiet_calls: Vec::new(),
            copies: Vec::new(),
        };
        let changes = extract_method(&file, &spec).unwrap_or_else(|r| panic!("{marker}: {}: {}", r.reason, r.message));
        text = changes.render_file(Path::new("Main.java")).expect("edits apply").expect("file changed");
        assert!(text.contains(call), "{marker}: expected the call {call:?} in\n{text}");
    }
    assert!(text.contains("    private static <T extends Comparable<T>> T better(T x, T best) {"), "{text}");
    assert!(text.contains("    private static int readOne(Reader r) throws IOException {"), "{text}");
    assert!(text.contains("    private static int readAndShow(Reader r) throws IOException {"), "{text}");
    assert!(text.contains("    private void resetCalls(int base) {"), "{text}");
    // Untyped lambda parameters, typed from the call they are passed to.
    assert!(text.contains("    private static void appendLength(String x, StringBuilder out) {"), "{text}");
    assert!(
        text.contains("    private static void appendEntry(StringBuilder out, String k, List<Integer> v) {"),
        "{text}"
    );
    std::fs::write(tmp.path().join("Main.java"), &text).expect("write");
    assert_eq!(compile_and_run(tmp.path()), expected, "behaviour changed; the refactored program:\n{text}");
}

#[test]
fn refused_extractions_leave_a_reason_and_no_change() {
    let original = std::fs::read_to_string(fixture("extract-method").join("Main.java")).expect("fixture");
    let file = SourceFile::parse("Main.java", original.clone());
    // The loop body assigns `total` and `count`, both used after the loop.
    let (a, _) = marked_lines(&original, "loop");
    let spec = ExtractSpec {
        file: "Main.java".into(),
        method_line: None,
        lines: (a - 2, a + 3),
        name: "accumulate".into(),
        visibility: None,
        local_types: BTreeMap::new(),
        params: Vec::new(),
        param_types: Default::default(),
        quiet_calls: Vec::new(),
        copies: Vec::new(),
    };
    let refusal = extract_method(&file, &spec).expect_err("two outputs");
    assert_eq!(refusal.reason, "multiple_outputs");
    assert_eq!(
        refusal.message,
        format!(
            "the selected statements assign both `total` and `count`, which are used after line {}; an extracted method can return only one of them",
            a + 3
        )
    );
}

/// Replays PureRefactor's Extract Method records: no crash, every result parses, and the share
/// applied does not regress. See `examples/eval_extract.rs` for the full table.
#[test]
fn pure_refactor_extract_method_records_apply() {
    use extract_eval::{Options, Status, evaluate, shared_data};
    let data = shared_data();
    let report = evaluate(&data, Options { similarity: false, local_types: true })
        .unwrap_or_else(|e| panic!("the PureRefactor data is required ({}): {e}", data.display()));
    let total = report.outcomes.len();
    assert_eq!(total, 145, "Extract Method records in the development split");
    let mut applied = 0;
    for o in &report.outcomes {
        match &o.status {
            Status::Applied { parses, .. } => {
                applied += 1;
                assert!(parses, "{} {}: the engine's output does not parse", o.project, o.id);
            }
            Status::Refused { .. } => {}
            Status::Crashed { message } => panic!("{} {} crashed: {message}", o.project, o.id),
            Status::NoSpec { why } => panic!("{} {}: no spec derived: {why}", o.project, o.id),
        }
    }
    // 126 of 145 apply; the 19 refusals are real preconditions (14 of them are overloads where the
    // developer also added a parameter, so the extracted method would clash with the source method).
    assert!(applied * 100 >= total * 86, "only {applied} of {total} Extract Method records applied");
}
