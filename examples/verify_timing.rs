//! How long verification takes on the demo project, stage by stage, against a plain `mvn test`.
//!
//! On a copy of `fixtures/projects/demo`, after a one-method change in `InvoiceService.issue`,
//! each round starting from the compiled original:
//! 1. the direct runner (`verify.runner = direct`, the default): an incremental `javac` of the
//!    changed source and its dependents (main, then test) with the classpath and flags Maven reported once (`mvn -X test -DskipTests`, timed
//!    as "probe"; it runs once per baseline and is cached with it), then the affected test
//!    classes on the JUnit console launcher in one JVM, then the whole suite the same way;
//! 2. the build-tool runner for comparison: `mvn test-compile` and `mvn test -Dtest=<affected>`
//!    with mantra's defaults;
//! 3. the full suite as a user would run it: `mvn -o -B -q -Dmaven.repo.local=/usr/share/maven-repo test`
//!    (forked test JVM), after the same change;
//! 4. Checkstyle on the changed file before and after, and the built-in detector, once.
//!
//! "Affected path end to end" is compile + test selection + affected tests, what the Reviewer
//! spends after the (cached) baseline before it can reject a broken change; the target is 3x
//! faster than the full forked `mvn test`. Medians of `ROUNDS` rounds (the machine is shared).
//!
//! Run: `cargo run --release --example verify_timing`
//!
//! Measured 2026-11-22, first round (full `javac` of main and test, shared 2-core machine, load
//! about 6, medians of 3): compile 6.79 s, affected tests 1.69 s, end to end 8.49 s vs full
//! forked `mvn -o test` 20.21 s = 2.4x.
//!
//! Measured 2026-11-22, incremental compile (`uptime` load 5.75 before, 6.27 after; medians of
//! 3): probe 4.33 s (once per baseline); compile 3.33 s direct (2 main + 3 test sources) vs
//! 9.76 s mvn; select 0.011 s; affected tests (5 classes, 33 tests) 1.22 s direct vs 5.92 s mvn;
//! all tests (83) 1.76 s direct; Checkstyle 2.83 s; detection 0.002 s; full forked `mvn -o test`
//! 20.35 s. Affected path end to end: direct 4.56 s = 4.5x faster than the full `mvn test`
//! (build tool: 15.70 s, 1.3x). The compile is two cold `javac` JVMs of a few files each.
//! Second run (load 5.12 before, 6.16 after): compile 2.94 s, affected 1.37 s, end to end 4.33 s
//! vs full `mvn test` 18.43 s = 4.3x.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mantra::build::{self, BuildTool, Direct, Probe, Settings, TestSelection, affected_tests};
use mantra::config::{BuildConfig, CheckstyleConfig};
use mantra::process::{Cmd, Runner, System};
use mantra::review::{BuiltinDetector, Checkstyle, Validator};

const ROUNDS: usize = 3;
const SERVICE: &str = "src/main/java/com/acme/invoicing/invoice/InvoiceService.java";
const CHANGED_CLASS: &str = "com.acme.invoicing.invoice.InvoiceService";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/projects/demo");
    let tmp = tempfile::Builder::new().prefix("mantra-verify-timing-").tempdir()?;
    let dir = tmp.path();
    copy_tree(&fixture, dir)?;
    let config = BuildConfig::default();
    let maven = build::tool_for(dir, &config, Arc::new(System));

    // Warm up (first compile, file cache), then ask Maven how it builds.
    let warm = maven.compile(dir)?;
    assert!(warm.success(), "{}", warm.run.output);
    let t = Instant::now();
    let setup = match maven.probe_direct(dir)? {
        Probe::Direct(setup) => setup,
        Probe::Unsupported(why) => return Err(format!("the demo should build directly: {why}").into()),
    };
    let probe = t.elapsed();
    let direct = Direct::new(setup.clone(), Settings::from_config(&config, Arc::new(System)));

    let original = std::fs::read_to_string(dir.join(SERVICE))?;
    let changed = original.replacen(
        "        LocalDate dueDate = issueDate.plusDays(termDays);",
        "        LocalDate start = issueDate;\n        LocalDate dueDate = start.plusDays(termDays);",
        1,
    );
    assert_ne!(original, changed, "the change did not apply");

    let mut t_compile = Vec::new();
    let mut t_select = Vec::new();
    let mut t_affected = Vec::new();
    let mut t_all = Vec::new();
    let mut t_mvn_compile = Vec::new();
    let mut t_mvn_affected = Vec::new();
    let mut t_full = Vec::new();
    let mut affected = Vec::new();
    let (mut affected_total, mut all_total, mut full_total) = (0, 0, 0);
    for _ in 0..ROUNDS {
        // Direct: from the compiled original to the change.
        std::fs::write(dir.join(SERVICE), &original)?;
        assert!(direct.compile(dir)?.success());
        std::fs::write(dir.join(SERVICE), &changed)?;
        let t = Instant::now();
        let built = direct.compile(dir)?;
        t_compile.push(t.elapsed());
        assert!(built.success(), "{}", built.run.output);

        let t = Instant::now();
        let project = mantra::java::Project::open(dir)?;
        affected = affected_tests(&project, &[CHANGED_CLASS.to_string()]);
        t_select.push(t.elapsed());

        let t = Instant::now();
        let run = direct.test(dir, &TestSelection::Only(affected.clone()))?;
        t_affected.push(t.elapsed());
        assert!(run.success() && run.total > 0, "{}", run.run.output);
        affected_total = run.total;

        let t = Instant::now();
        let run = direct.test(dir, &TestSelection::All)?;
        t_all.push(t.elapsed());
        assert!(run.success(), "{}", run.run.output);
        all_total = run.total;

        // The build tool, the same way.
        std::fs::write(dir.join(SERVICE), &original)?;
        assert!(maven.compile(dir)?.success());
        std::fs::write(dir.join(SERVICE), &changed)?;
        let t = Instant::now();
        assert!(maven.compile(dir)?.success());
        t_mvn_compile.push(t.elapsed());
        let t = Instant::now();
        let run = maven.test(dir, &TestSelection::Only(affected.clone()))?;
        t_mvn_affected.push(t.elapsed());
        assert!(run.success() && run.total == affected_total, "{} vs {affected_total}", run.total);

        // The user's full run after the same change (javac recompiles the changed class).
        std::fs::write(dir.join(SERVICE), &original)?;
        assert!(maven.compile(dir)?.success());
        std::fs::write(dir.join(SERVICE), &changed)?;
        let cmd = Cmd::new("mvn")
            .args(["-o", "-B", "-q", "-Dmaven.repo.local=/usr/share/maven-repo", "test"])
            .cwd(dir)
            .timeout(Duration::from_secs(600));
        let t = Instant::now();
        let out = System.run(&cmd)?;
        t_full.push(t.elapsed());
        assert!(out.success(), "{}{}", out.stdout, out.stderr);
        full_total = build::reports::read_dir(&dir.join("target/surefire-reports"), &Default::default()).len();
    }
    assert_eq!(all_total, full_total, "the direct runner runs the suite Surefire runs");

    let checkstyle = Checkstyle::new(&CheckstyleConfig::default(), &fixture, Arc::new(System));
    let t = Instant::now();
    let review = checkstyle.review(&fixture, dir, &[PathBuf::from(SERVICE)])?;
    let style = t.elapsed();

    let before: BTreeMap<PathBuf, String> = [(PathBuf::from(SERVICE), original.clone())].into();
    let after: BTreeMap<PathBuf, String> = [(PathBuf::from(SERVICE), changed.clone())].into();
    let t = Instant::now();
    let found = BuiltinDetector.detect(&before, &after)?;
    let detection = t.elapsed();

    let m = |xs: &[Duration]| secs(median(xs));
    let (c, s, a, all, f) = (m(&t_compile), m(&t_select), m(&t_affected), m(&t_all), m(&t_full));
    let (mc, ma) = (m(&t_mvn_compile), m(&t_mvn_affected));
    println!("demo, one-method change in InvoiceService.issue; median of {ROUNDS} rounds (shared 2-core machine)");
    println!("probe          {:>7.2} s  mvn -B -o -X test -DskipTests, once per baseline (cached)", secs(probe));
    let count = |unit: &str| {
        std::fs::read_to_string(dir.join(format!(".mantra/direct/{unit}-sources.txt"))).map_or(0, |t| t.lines().count())
    };
    println!(
        "compile        {c:>7.2} s  direct: incremental javac of {} main + {} test sources, Maven's classpath and flags",
        count("main"),
        count("test")
    );
    println!("               {mc:>7.2} s  build tool: mvn -B -q -o ... -DforkCount=0 test-compile");
    println!("select tests   {s:>7.3} s  project model: {} test classes: {}", affected.len(), affected.join(", "));
    println!(
        "affected tests {a:>7.2} s  direct: JUnit console launcher, {} classes ({affected_total} tests)",
        affected.len()
    );
    println!("               {ma:>7.2} s  build tool: mvn ... test -Dtest=<{} classes>", affected.len());
    println!(
        "all tests      {all:>7.2} s  direct: JUnit console launcher, Surefire's class patterns ({all_total} tests)"
    );
    println!(
        "checkstyle     {:>7.2} s  checkstyle -c sun_checks.xml -f xml, before+after of 1 file ({} new of {} violations)",
        secs(style),
        review.new.len(),
        review.after.len()
    );
    println!(
        "detection      {:>7.3} s  built-in detector, before/after of 1 file ({} found)",
        secs(detection),
        found.len()
    );
    println!(
        "full mvn test  {f:>7.2} s  mvn -o -B -q -Dmaven.repo.local=/usr/share/maven-repo test ({full_total} tests, forked JVM)"
    );
    println!(
        "affected path end to end (compile + select + affected): direct {:.2} s = {:.1}x faster than the full mvn test; \
         build tool {:.2} s = {:.1}x",
        c + s + a,
        f / (c + s + a),
        mc + s + ma,
        f / (mc + s + ma)
    );
    println!(
        "all rounds (s): compile {:?} affected {:?} all {:?} mvn compile {:?} mvn affected {:?} full {:?}",
        round(&t_compile),
        round(&t_affected),
        round(&t_all),
        round(&t_mvn_compile),
        round(&t_mvn_affected),
        round(&t_full)
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
