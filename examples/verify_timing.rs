//! How long verification takes on the demo project, stage by stage, against a plain `mvn test`.
//!
//! On a copy of `fixtures/projects/demo`, after a one-method change in `InvoiceService.issue`:
//! 1. compile (`mvn test-compile` with mantra's defaults),
//! 2. select the affected tests from the project model and run only them,
//! 3. Checkstyle on the changed file, before and after,
//! 4. the full suite as a user would run it: `mvn -o -B -q -Dmaven.repo.local=/usr/share/maven-repo test`
//!    (forked test JVM), after the same change.
//!
//! Maven runs are repeated (`ROUNDS`) and the median is printed, the machine being shared.
//!
//! Run: `cargo run --release --example verify_timing`
//!
//! Measured (shared 2-core machine, medians of 3): compile 7.45 s, test selection 0.014 s (5 of
//! 12 test classes, 33 of 83 tests), affected tests 5.28 s, Checkstyle 2.77 s, full forked
//! `mvn test` 19.71 s: the affected tests run 3.7x faster than the full suite. Most of what is
//! left is Maven's own start-up and plugin resolution (about 3-4 s per invocation); running the
//! selected classes directly on the JUnit console launcher with Maven's test classpath would
//! remove it.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mantra::build::{self, TestSelection, affected_tests};
use mantra::config::{BuildConfig, CheckstyleConfig};
use mantra::process::{Cmd, Runner, System};
use mantra::review::Checkstyle;

const ROUNDS: usize = 3;
const SERVICE: &str = "src/main/java/com/acme/invoicing/invoice/InvoiceService.java";
const CHANGED_CLASS: &str = "com.acme.invoicing.invoice.InvoiceService";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/projects/demo");
    let tmp = tempfile::Builder::new().prefix("mantra-verify-timing-").tempdir()?;
    let dir = tmp.path();
    copy_tree(&fixture, dir)?;
    let tool = build::tool_for(dir, &BuildConfig::default(), Arc::new(System));

    // Warm up (first compile, file cache), then make the one-method change.
    let warm = tool.compile(dir)?;
    assert!(warm.success(), "{}", warm.run.output);
    let original = std::fs::read_to_string(dir.join(SERVICE))?;
    let changed = original.replacen(
        "        LocalDate dueDate = issueDate.plusDays(termDays);",
        "        LocalDate start = issueDate;\n        LocalDate dueDate = start.plusDays(termDays);",
        1,
    );
    assert_ne!(original, changed, "the change did not apply");

    let mut compile = Vec::new();
    let mut select = Vec::new();
    let mut affected_run = Vec::new();
    let mut full = Vec::new();
    let mut affected = Vec::new();
    let mut affected_total = 0;
    let mut full_total = 0;
    for _ in 0..ROUNDS {
        // Each round starts from the original and applies the change, so javac has work to do.
        std::fs::write(dir.join(SERVICE), &original)?;
        assert!(tool.compile(dir)?.success());
        std::fs::write(dir.join(SERVICE), &changed)?;

        let t = Instant::now();
        let built = tool.compile(dir)?;
        compile.push(t.elapsed());
        assert!(built.success(), "{}", built.run.output);

        let t = Instant::now();
        let project = mantra::java::Project::open(dir)?;
        affected = affected_tests(&project, &[CHANGED_CLASS.to_string()]);
        select.push(t.elapsed());

        let t = Instant::now();
        let run = tool.test(dir, &TestSelection::Only(affected.clone()))?;
        affected_run.push(t.elapsed());
        assert!(run.success(), "{}", run.run.output);
        affected_total = run.total;

        // The user's full run after the same change (javac recompiles the changed class).
        std::fs::write(dir.join(SERVICE), &original)?;
        assert!(tool.compile(dir)?.success());
        std::fs::write(dir.join(SERVICE), &changed)?;
        let cmd = Cmd::new("mvn")
            .args(["-o", "-B", "-q", "-Dmaven.repo.local=/usr/share/maven-repo", "test"])
            .cwd(dir)
            .timeout(Duration::from_secs(600));
        let t = Instant::now();
        let out = System.run(&cmd)?;
        full.push(t.elapsed());
        assert!(out.success(), "{}{}", out.stdout, out.stderr);
        full_total = build::reports::read_dir(&dir.join("target/surefire-reports"), &Default::default()).len();
    }

    let checkstyle = Checkstyle::new(&CheckstyleConfig::default(), &fixture, Arc::new(System));
    let t = Instant::now();
    let review = checkstyle.review(&fixture, dir, &[PathBuf::from(SERVICE)])?;
    let style = t.elapsed();

    let (c, s, a, f) = (median(&compile), median(&select), median(&affected_run), median(&full));
    println!("demo, one-method change in InvoiceService.issue; median of {ROUNDS} rounds (shared 2-core machine)");
    println!(
        "compile        {:>7.2} s  mvn -B -q -o -Dmaven.repo.local=/usr/share/maven-repo -DforkCount=0 test-compile",
        secs(c)
    );
    println!(
        "select tests   {:>7.3} s  project model: {} test classes: {}",
        secs(s),
        affected.len(),
        affected.join(", ")
    );
    println!(
        "affected tests {:>7.2} s  ... -DforkCount=0 test -Dtest=<{} classes> -DfailIfNoTests=false ({affected_total} tests)",
        secs(a),
        affected.len()
    );
    println!(
        "checkstyle     {:>7.2} s  checkstyle -c sun_checks.xml -f xml, before+after of 1 file ({} new of {} violations)",
        secs(style),
        review.new.len(),
        review.after.len()
    );
    println!(
        "full mvn test  {:>7.2} s  mvn -o -B -q -Dmaven.repo.local=/usr/share/maven-repo test ({full_total} tests, forked JVM)",
        secs(f)
    );
    println!(
        "speed-up: affected tests {:.1}x faster than the full run; compile + select + affected {:.1}x",
        secs(f) / secs(a),
        secs(f) / secs(c + s + a)
    );
    println!(
        "all rounds (s): compile {:?} affected {:?} full {:?}",
        round(&compile),
        round(&affected_run),
        round(&full)
    );
    Ok(())
}

fn median(xs: &[Duration]) -> Duration {
    let mut v = xs.to_vec();
    v.sort();
    v[v.len() / 2]
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn round(xs: &[Duration]) -> Vec<f64> {
    xs.iter().map(|d| (d.as_secs_f64() * 100.0).round() / 100.0).collect()
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        if matches!(entry.file_name().to_str(), Some("target" | "build" | ".mantra")) {
            continue;
        }
        let dest = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &dest)?;
        } else {
            std::fs::copy(entry.path(), dest)?;
        }
    }
    Ok(())
}
