//! Speed of Extract Method on very long methods (issue 14, defect 11): parsing, the engine's
//! check of a selection and the planner, on generated methods of 5,000 to 50,000 statements.
//!
//! For each size it prints the time of `extract::plan` on four fifths of the method (the
//! selection `--lines 5-40000` is for 50,000 statements) and the time per 1,000 statements, which
//! stays flat when the work is linear; then the planner's time on the longest method and on a
//! flat method of 121 statements. Run with `cargo bench --bench large_method`.

use std::path::Path;
use std::time::Instant;

use mantra::engine::extract::{self, ExtractSpec};
use mantra::java::SourceFile;
use mantra::plan::extract::candidates;

fn method(statements: usize) -> String {
    let mut src = String::from("package big;\n\npublic class Big {\n    public int m(int a) {\n        int x = a;\n");
    for i in 0..statements {
        src.push_str(&format!("        x = x + {};\n", i % 7 + 1));
    }
    src.push_str("        return x;\n    }\n}\n");
    src
}

fn main() {
    println!("{:>10} {:>9} {:>10} {:>13}", "statements", "parse s", "extract s", "ms per 1,000");
    let mut longest = None;
    for n in [5_000, 10_000, 25_000, 50_000] {
        let src = method(n);
        let start = Instant::now();
        let file = SourceFile::parse("src/main/java/big/Big.java", src);
        let parsed = start.elapsed();
        let spec = ExtractSpec {
            file: Path::new("src/main/java/big/Big.java").to_path_buf(),
            method_line: Some(4),
            lines: (5, n * 4 / 5),
            name: "part".into(),
            visibility: None,
            local_types: Default::default(),
            params: Vec::new(),
            param_types: Default::default(),
            quiet_calls: Vec::new(),
            copies: Vec::new(),
        };
        let start = Instant::now();
        let done = extract::plan(&file, &spec).unwrap_or_else(|r| panic!("{n}: refused: {r:?}"));
        let extracted = start.elapsed();
        assert!(done.signature.contains("part("), "{}", done.signature);
        let total = (parsed + extracted).as_secs_f64();
        println!(
            "{n:>10} {:>9.3} {:>10.3} {:>13.2}",
            parsed.as_secs_f64(),
            extracted.as_secs_f64(),
            total * 1000.0 / (n as f64 / 1000.0)
        );
        longest = Some(file);
    }
    let file = longest.expect("a file");
    let start = Instant::now();
    let found = candidates(&file, file.text.find("m(int").unwrap(), 3);
    println!("planner, 50,000 statements: {} candidates in {:.3} s", found.len(), start.elapsed().as_secs_f64());
    let mut flat = String::from("class F {\n    int m(int a) {\n        int x = a;\n");
    for i in 0..60 {
        flat.push_str(&format!("        x = x * 3 + {i};\n        System.out.println(x);\n"));
    }
    flat.push_str("        return x;\n    }\n}\n");
    let file = SourceFile::parse("F.java", flat);
    let start = Instant::now();
    let found = candidates(&file, file.text.find("m(int").unwrap(), 3);
    assert!(!found.is_empty(), "a flat method of 121 statements gets candidates");
    println!(
        "planner, flat method of 121 statements: {} candidates in {:.3} s",
        found.len(),
        start.elapsed().as_secs_f64()
    );
}
