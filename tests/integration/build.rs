//! Build adapters and Checkstyle against the real tools (Maven, Gradle, javac, JUnit, Checkstyle)
//! on copies of the fixture projects.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mantra::build::{
    self, BuildTool, Direct, FailureKind, Outcome, Settings, TestSelection, affected_tests, baseline, baseline_with,
    judge, state_key,
};
use mantra::config::{BuildConfig, CheckstyleConfig};
use mantra::process::{Cmd, Output, ProcessError, Runner, System};
use mantra::review::{Checkstyle, CheckstyleError};

use crate::harness::{copy_fixture, fixture};

fn edit(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{} does not contain {from:?}", file.display());
    std::fs::write(file, text.replacen(from, to, 1)).unwrap();
}

/// The real runner, counting the commands it runs.
#[derive(Default)]
struct Counting {
    runs: AtomicUsize,
}

impl Runner for Counting {
    fn run(&self, cmd: &Cmd) -> Result<Output, ProcessError> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        System.run(cmd)
    }
}

fn settings(timeout: Duration) -> Settings {
    Settings { runner: Arc::new(System), timeout, output_cap: 1 << 20, compile: None, test: None }
}

const DEMO: &str = "src/main/java/com/acme/invoicing";
const DEMO_TESTS: &str = "src/test/java/com/acme/invoicing";

#[test]
fn maven_baseline_compiles_tests_and_is_cached() {
    let dir = copy_fixture("demo");
    let counting = Arc::new(Counting::default());
    let tool = build::tool_for(dir.path(), &BuildConfig::default(), counting.clone());
    assert_eq!(tool.name(), "Maven");
    let key = state_key("0123abc", &[("src/x.java", "dirty")]);

    let first = baseline(tool.as_ref(), dir.path(), &key).unwrap();
    assert!(!first.cached);
    assert!(first.compile.success(), "{}", first.compile.run.output);
    let tests = first.tests.as_ref().unwrap();
    assert!(tests.success(), "{}", tests.run.output);
    assert_eq!(tests.total, 83, "Surefire reports");
    assert_eq!(tests.count(Outcome::Passed), 83);
    assert!(tests.results.iter().any(|r| r.id == "com.acme.invoicing.money.MoneyTest#arithmetic"));
    assert_eq!(counting.runs.load(Ordering::SeqCst), 2, "compile, then test");

    let second = baseline(tool.as_ref(), dir.path(), &key).unwrap();
    assert!(second.cached);
    assert_eq!(counting.runs.load(Ordering::SeqCst), 2, "the second baseline runs no build");
    assert_eq!(second.tests, first.tests);
    assert!(dir.path().join(".mantra/cache/baseline").join(format!("{key}.json")).is_file());
}

/// An original that does not compile is not cached: the cause is often the machine's (a plugin
/// the offline build cannot resolve), and once mended the same state is built again.
#[test]
fn a_baseline_that_does_not_compile_is_built_again() {
    let dir = copy_fixture("demo");
    let counting = Arc::new(Counting::default());
    let tool = build::tool_for(dir.path(), &BuildConfig::default(), counting.clone());
    let file = dir.path().join(DEMO).join("money/Money.java");
    edit(&file, "public final class Money", "public final class Money {{");
    let key = state_key("0123abc", &[("src/x.java", "dirty")]);
    let first = baseline(tool.as_ref(), dir.path(), &key).unwrap();
    assert!(!first.compile.success() && first.tests.is_none(), "{}", first.compile.run.output);
    assert!(!dir.path().join(".mantra/cache/baseline").join(format!("{key}.json")).exists());
    edit(&file, "public final class Money {{", "public final class Money");
    let second = baseline(tool.as_ref(), dir.path(), &key).unwrap();
    assert!(!second.cached && second.compile.success(), "{}", second.compile.run.output);
    assert_eq!(counting.runs.load(Ordering::SeqCst), 3, "a failed compile, then compile and test");
    assert!(baseline(tool.as_ref(), dir.path(), &key).unwrap().cached);
}

/// The direct runner against Maven on the demo: the same tests, the same outcomes, compile errors
/// and failing tests reported the same way, and one probe per cached baseline.
#[test]
fn direct_runner_builds_and_tests_what_maven_does() {
    let dir = copy_fixture("demo");
    let counting = Arc::new(Counting::default());
    let tool = build::tool_for(dir.path(), &BuildConfig::default(), counting.clone());
    let direct_settings = settings(Duration::from_secs(600));
    let key = state_key("0123abc", &[] as &[(&str, &str)]);
    let base = baseline_with(tool.as_ref(), dir.path(), &key, Some(&direct_settings)).unwrap();
    assert!(base.direct_unsupported.is_none(), "{:?}", base.direct_unsupported);
    let setup = base.direct.clone().expect("the demo builds directly");
    assert_eq!(counting.runs.load(Ordering::SeqCst), 2, "mvn test-compile, mvn -X probe; tests ran directly");
    let tests = base.tests.as_ref().unwrap();
    assert!(tests.success(), "{}", tests.run.output);
    assert!(tests.run.command.contains("junit-platform-console-standalone"), "{}", tests.run.command);

    // Surefire runs the same test cases.
    let maven = tool.test(dir.path(), &TestSelection::All).unwrap();
    let ids = |run: &build::TestRun| {
        let mut v: Vec<String> = run.results.iter().map(|r| r.selector()).collect();
        v.sort();
        v.dedup();
        v
    };
    assert_eq!(tests.total, maven.total);
    assert_eq!(ids(tests), ids(&maven));

    // Cached with the set-up; a build-tool request does not reuse it.
    let again = baseline_with(tool.as_ref(), dir.path(), &key, Some(&direct_settings)).unwrap();
    assert!(again.cached && again.direct == Some(setup.clone()));
    let direct = Direct::new(setup, direct_settings);

    // A resource is copied; a compile error in main code is a diagnostic; so is one in a test.
    std::fs::create_dir_all(dir.path().join("src/main/resources")).unwrap();
    std::fs::write(dir.path().join("src/main/resources/app.properties"), "a=1\n").unwrap();
    let service = dir.path().join(DEMO).join("invoice/InvoiceService.java");
    edit(
        &service,
        "LocalDate dueDate = issueDate.plusDays(termDays);",
        "LocalDate dueDate = issueDat.plusDays(termDays);",
    );
    let broken = direct.compile(dir.path()).unwrap();
    assert_eq!(broken.failure, Some(FailureKind::Compile));
    let d = &broken.diagnostics[0];
    assert!(d.file.ends_with("invoice/InvoiceService.java") && d.message.contains("cannot find symbol"), "{d:?}");
    edit(&service, "issueDat.plusDays", "issueDate.plusDays");
    assert!(direct.compile(dir.path()).unwrap().success());
    assert!(dir.path().join("target/classes/app.properties").is_file());

    // A behaviour change fails the affected tests, found without recompiling twice.
    edit(
        &service,
        "LocalDate dueDate = issueDate.plusDays(termDays);",
        "LocalDate dueDate = issueDate.plusDays(termDays + 1);",
    );
    let project = mantra::java::Project::open(dir.path()).unwrap();
    let affected = affected_tests(&project, &["com.acme.invoicing.invoice.InvoiceService".to_string()]);
    let run = direct.test(dir.path(), &TestSelection::Only(affected)).unwrap();
    assert_eq!(run.failure, Some(FailureKind::TestFailure), "{}", run.run.output);
    assert!(
        run.failing().any(|r| r.id.starts_with("com.acme.invoicing.invoice.InvoiceServiceTest#")),
        "{:?}",
        run.results
    );
    let judged = judge(&direct, dir.path(), &base, &run).unwrap();
    assert!(!judged.accepted() && !judged.broken.is_empty());

    // Incremental: a body change recompiles the changed file and the few that reach it, and
    // the tests see the change.
    edit(&service, "issueDate.plusDays(termDays + 1)", "issueDate.plusDays(termDays)");
    let compiled = |unit: &str| {
        std::fs::read_to_string(dir.path().join(format!(".mantra/direct/{unit}-sources.txt"))).unwrap_or_default()
    };
    let all_main = walkdir_java(&dir.path().join("src/main/java"));
    assert!(direct.compile(dir.path()).unwrap().success());
    let main = compiled("main");
    assert!(main.lines().count() < all_main && main.contains("InvoiceService.java"), "{main}");
    assert!(direct.test(dir.path(), &TestSelection::All).unwrap().success());

    // Renaming a method without updating its callers in other files fails the compile there.
    let money = dir.path().join(DEMO).join("money/Money.java");
    edit(&money, "public Money plus(Money other)", "public Money add(Money other)");
    let broken = direct.compile(dir.path()).unwrap();
    assert_eq!(broken.failure, Some(FailureKind::Compile), "{}", broken.run.output);
    assert!(broken.diagnostics.iter().all(|d| !d.file.ends_with("money/Money.java")), "{:?}", broken.diagnostics);
    assert!(broken.diagnostics.iter().any(|d| d.message.contains("cannot find symbol")), "{:?}", broken.diagnostics);
    assert!(compiled("main").lines().count() < all_main, "only Money's dependents were compiled");
    // And a test calling the renamed method fails too, once main compiles again.
    for file in
        ["invoice/Invoice.java", "report/RevenueReport.java", "report/AgingReport.java", "tax/TaxCalculator.java"]
    {
        let path = dir.path().join(DEMO).join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace(".plus(", ".add(").replace("::plus", "::add")).unwrap();
    }
    let broken = direct.compile(dir.path()).unwrap();
    assert_eq!(broken.failure, Some(FailureKind::Compile), "{}", broken.run.output);
    assert!(broken.diagnostics.iter().any(|d| d.file.ends_with("money/MoneyTest.java")), "{:?}", broken.diagnostics);
    let mut test_file = std::fs::read_to_string(dir.path().join(DEMO_TESTS).join("money/MoneyTest.java")).unwrap();
    test_file = test_file.replace(".plus(", ".add(");
    std::fs::write(dir.path().join(DEMO_TESTS).join("money/MoneyTest.java"), test_file).unwrap();
    let built = direct.compile(dir.path()).unwrap();
    assert!(built.success(), "{}", built.run.output);
    let run = direct.test(dir.path(), &TestSelection::All).unwrap();
    assert!(run.success() && run.total == maven.total, "{}", run.run.output);
}

fn walkdir_java(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| match e.file_type().unwrap().is_dir() {
            true => walkdir_java(&e.path()),
            false => usize::from(e.path().extension().is_some_and(|x| x == "java")),
        })
        .sum()
}

#[test]
fn maven_compile_error_becomes_a_diagnostic() {
    let dir = copy_fixture("demo");
    let file = format!("{DEMO}/invoice/InvoiceNumberGenerator.java");
    edit(&dir.path().join(&file), "Integer::sum);", "Integer::sum) + undefinedVar;");
    let tool = build::maven::Maven::new(settings(Duration::from_secs(300)));
    let result = tool.compile(dir.path()).unwrap();
    assert_eq!(result.failure, Some(FailureKind::Compile), "{}", result.run.output);
    assert_eq!(result.diagnostics.len(), 1, "{:?}", result.diagnostics);
    let d = &result.diagnostics[0];
    assert_eq!(d.file, PathBuf::from(&file));
    assert_eq!((d.line, d.column), (28, Some(66)));
    assert!(d.message.starts_with("cannot find symbol\nsymbol:   variable undefinedVar"), "{}", d.message);
    assert_eq!(
        d.source_line.as_deref(),
        Some("        return lastSequenceByYear.merge(year, 1, Integer::sum) + undefinedVar;")
    );
}

#[test]
fn maven_failures_are_judged_broken_flaky_or_pre_existing() {
    let dir = copy_fixture("demo");
    let money_test = dir.path().join(DEMO_TESTS).join("money/MoneyTest.java");
    edit(&money_test, "new BigDecimal(\"7.00\"), Money.of(7", "new BigDecimal(\"8.00\"), Money.of(7");
    // Fails the first time it runs in a folder, passes after: a real flaky test.
    std::fs::write(
        dir.path().join(DEMO_TESTS).join("FlakyTest.java"),
        "package com.acme.invoicing;\n\nimport java.nio.file.Files;\nimport java.nio.file.Path;\n\nclass FlakyTest {\n    @org.junit.jupiter.api.Test\n    void passesTheSecondTime() throws Exception {\n        Path marker = Path.of(\"target\", \"flaky.marker\");\n        if (Files.notExists(marker)) {\n            Files.createFile(marker);\n            org.junit.jupiter.api.Assertions.fail(\"first run\");\n        }\n    }\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join(DEMO_TESTS).join("LegacyTest.java"),
        "package com.acme.invoicing;\n\nclass LegacyTest {\n    @org.junit.jupiter.api.Test\n    void alwaysBroken() {\n        throw new IllegalStateException(\"known bug\");\n    }\n}\n",
    )
    .unwrap();
    let tool = build::maven::Maven::new(settings(Duration::from_secs(300)));
    let selection = TestSelection::Only(vec![
        "com.acme.invoicing.money.MoneyTest".into(),
        "com.acme.invoicing.FlakyTest".into(),
        "com.acme.invoicing.LegacyTest".into(),
    ]);
    let after = tool.test(dir.path(), &selection).unwrap();
    assert_eq!(after.failure, Some(FailureKind::TestFailure), "{}", after.run.output);
    assert_eq!(after.total, 12);
    let money = after
        .results
        .iter()
        .find(|r| r.id == "com.acme.invoicing.money.MoneyTest#amountsAreHeldAtTheCurrencysPrecision")
        .unwrap();
    assert_eq!(money.outcome, Outcome::Failed);
    assert_eq!(money.message.as_deref(), Some("expected: <8.00> but was: <7.00>"));
    assert_eq!(
        money.stack_trace.as_deref(),
        Some(
            "org.opentest4j.AssertionFailedError: expected: <8.00> but was: <7.00>\n\tat com.acme.invoicing.money.MoneyTest.amountsAreHeldAtTheCurrencysPrecision(MoneyTest.java:21)"
        )
    );
    let legacy = after.results.iter().find(|r| r.id == "com.acme.invoicing.LegacyTest#alwaysBroken").unwrap();
    assert_eq!(legacy.outcome, Outcome::Error);

    // The original: the same run with the legacy test failing and the other two passing.
    let mut original = after.clone();
    for r in &mut original.results {
        if !r.id.contains("LegacyTest") {
            r.outcome = Outcome::Passed;
        }
    }
    let base = mantra::build::Baseline {
        key: "k".into(),
        tool: "Maven".into(),
        compile: tool.compile(dir.path()).unwrap(),
        tests: Some(original),
        direct_requested: false,
        direct: None,
        direct_unsupported: None,
        cached: false,
    };
    let j = judge(&tool, dir.path(), &base, &after).unwrap();
    let ids = |v: &[build::TestResult]| v.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&j.broken), ["com.acme.invoicing.money.MoneyTest#amountsAreHeldAtTheCurrencysPrecision"]);
    assert_eq!(ids(&j.flaky), ["com.acme.invoicing.FlakyTest#passesTheSecondTime"]);
    assert_eq!(ids(&j.pre_existing), ["com.acme.invoicing.LegacyTest#alwaysBroken"]);
    assert_eq!(j.failure, Some(FailureKind::TestFailure));
    let rerun = j.rerun.unwrap();
    assert_eq!(rerun.total, 2, "only the new failures re-run: {:?}", rerun.results);
}

#[test]
fn a_test_that_never_ends_is_killed_by_the_timeout() {
    let dir = copy_fixture("library-junit4");
    let marker = dir.path().join("loop-started");
    std::fs::write(
        dir.path().join("src/test/java/com/acme/library/LoopTest.java"),
        format!(
            "package com.acme.library;\n\npublic class LoopTest {{\n    @org.junit.Test\n    public void spins() throws Exception {{\n        java.nio.file.Files.writeString(java.nio.file.Path.of(\"{}\"), \"x\");\n        while (true) {{\n            Thread.onSpinWait();\n        }}\n    }}\n}}\n",
            marker.display()
        ),
    )
    .unwrap();
    let tool = build::maven::Maven::new(settings(Duration::from_secs(300)));
    assert!(tool.compile(dir.path()).unwrap().success());
    // Long enough for Maven to start the test JVM on a loaded 2-core machine (15 s was not).
    let tool = build::maven::Maven::new(settings(Duration::from_secs(40)));
    let run = tool.test(dir.path(), &TestSelection::Only(vec!["com.acme.library.LoopTest".into()])).unwrap();
    assert_eq!(run.failure, Some(FailureKind::Timeout));
    assert!(run.run.timed_out);
    assert!(marker.is_file(), "the timeout struck before the test started; raise it:\n{}", run.run.output);
    // Maven's JVM (running the test) names the project folder on its command line.
    let unique = dir.path().file_name().unwrap().to_str().unwrap();
    let gone = (0..50).any(|_| {
        std::thread::sleep(Duration::from_millis(100));
        let out = std::process::Command::new("pgrep").args(["-f", unique]).output().unwrap();
        out.stdout.is_empty()
    });
    assert!(gone, "a process of {unique} is still running");
}

#[test]
fn gradle_compiles_and_tests_parking() {
    let dir = copy_fixture("parking-gradle");
    let tool = build::tool_for(dir.path(), &BuildConfig::default(), Arc::new(System));
    assert_eq!(tool.name(), "Gradle");
    let garage = "src/main/java/com/acme/parking/Garage.java";
    let original = std::fs::read_to_string(dir.path().join(garage)).unwrap();
    std::fs::write(dir.path().join(garage), original.replacen("levels.stream()", "levelz.stream()", 1)).unwrap();
    let broken = tool.compile(dir.path()).unwrap();
    assert_eq!(broken.failure, Some(FailureKind::Compile), "{}", broken.run.output);
    let d = &broken.diagnostics[0];
    assert_eq!(d.file, PathBuf::from(garage));
    assert!(d.message.starts_with("cannot find symbol"), "{}", d.message);
    let line = original.lines().position(|l| l.contains("levels.stream()")).unwrap() + 1;
    assert_eq!(d.line, line);
    let src = d.source_line.as_deref().unwrap();
    assert_eq!(src.find("levelz").map(|i| i + 1), d.column, "{src}");

    std::fs::write(dir.path().join(garage), original).unwrap();
    let run = tool.test(dir.path(), &TestSelection::All).unwrap();
    assert!(run.success(), "{}", run.run.output);
    assert_eq!(run.total, 11);
    assert!(run.results.iter().all(|r| r.outcome == Outcome::Passed));
    assert!(run.results.iter().any(|r| r.id.starts_with("com.acme.parking.TariffTest#")));
}

#[test]
fn javac_and_junit4_without_a_build_file() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src/com/acme/calc");
    let test = dir.path().join("test/com/acme/calc");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::create_dir_all(&test).unwrap();
    std::fs::write(
        src.join("Calc.java"),
        "package com.acme.calc;\n\npublic class Calc {\n    public int add(int a, int b) {\n        return a + b;\n    }\n}\n",
    )
    .unwrap();
    std::fs::write(
        test.join("CalcTest.java"),
        "package com.acme.calc;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\npublic class CalcTest {\n    @Test\n    public void adds() {\n        assertEquals(4, new Calc().add(2, 2));\n    }\n\n    @Test\n    public void addsNegatives() {\n        assertEquals(-3, new Calc().add(-1, -2));\n    }\n\n    @Test\n    public void wrong() {\n        assertEquals(5, new Calc().add(2, 2));\n    }\n}\n",
    )
    .unwrap();
    let tool = build::tool_for(dir.path(), &BuildConfig::default(), Arc::new(System));
    assert_eq!(tool.name(), "javac");
    let run = tool.test(dir.path(), &TestSelection::All).unwrap();
    assert_eq!(run.failure, Some(FailureKind::TestFailure), "{}", run.run.output);
    assert_eq!(run.total, 3);
    assert_eq!(run.results.len(), 1, "JUnitCore lists failures only");
    let r = &run.results[0];
    assert_eq!((r.id.as_str(), r.outcome), ("com.acme.calc.CalcTest#wrong", Outcome::Failed));
    assert_eq!(r.message.as_deref(), Some("expected:<5> but was:<4>"));
    assert_eq!(
        r.stack_trace.as_deref(),
        Some("java.lang.AssertionError: expected:<5> but was:<4>\n\tat com.acme.calc.CalcTest.wrong(CalcTest.java:20)")
    );

    edit(&src.join("Calc.java"), "return a + b;", "return a + c;");
    let broken = tool.compile(dir.path()).unwrap();
    assert_eq!(broken.failure, Some(FailureKind::Compile));
    let d = &broken.diagnostics[0];
    assert_eq!(d.file, PathBuf::from("src/com/acme/calc/Calc.java"));
    assert_eq!((d.line, d.column), (5, Some(20)));
    assert_eq!(d.source_line.as_deref(), Some("        return a + c;"));
    assert!(d.message.starts_with("cannot find symbol\nsymbol:   variable c"), "{}", d.message);
}

#[test]
fn affected_tests_of_an_invoice_service_change() {
    let project = mantra::java::Project::open(&fixture("demo")).unwrap();
    let affected = affected_tests(&project, &["com.acme.invoicing.invoice.InvoiceService".to_string()]);
    // Direct: InvoiceServiceTest. Through a caller: TestData.wire builds an InvoiceService, and
    // the tests that call it run the service.
    assert!(affected.contains(&"com.acme.invoicing.invoice.InvoiceServiceTest".to_string()), "{affected:?}");
    for unrelated in ["money.MoneyTest", "customer.CustomerTest", "tax.TaxCalculatorTest"] {
        assert!(!affected.contains(&format!("com.acme.invoicing.{unrelated}")), "{unrelated} in {affected:?}");
    }
    assert!(!affected.iter().any(|t| t.ends_with(".TestData")), "helpers are not tests: {affected:?}");

    let money = affected_tests(&project, &["com.acme.invoicing.money.Money".to_string()]);
    assert!(money.contains(&"com.acme.invoicing.money.MoneyTest".to_string()), "{money:?}");
}

const INVOICE_SERVICE: &str = "src/main/java/com/acme/invoicing/invoice/InvoiceService.java";

#[test]
fn checkstyle_reports_only_new_violations() {
    let after = tempfile::tempdir().unwrap();
    let before = fixture("demo");
    let original = std::fs::read_to_string(before.join(INVOICE_SERVICE)).unwrap();
    // Shift every line down, and add one method with a magic number.
    let changed = original.replacen("import ", "// moved down\n\nimport ", 1).replacen(
        "\n}\n",
        "\n\n    int answer() {\n        return 42;\n    }\n}\n",
        1,
    );
    assert!(changed.contains("return 42;"));
    std::fs::create_dir_all(after.path().join(INVOICE_SERVICE).parent().unwrap()).unwrap();
    std::fs::write(after.path().join(INVOICE_SERVICE), &changed).unwrap();

    let checkstyle = Checkstyle::new(&CheckstyleConfig::default(), &before, Arc::new(System));
    assert_eq!(checkstyle.rules(), Path::new("/usr/share/checkstyle/sun_checks.xml"));
    let review = checkstyle.review(&before, after.path(), &[PathBuf::from(INVOICE_SERVICE)]).unwrap();
    assert!(review.before.len() > 10, "the fixture has style debt: {}", review.before.len());
    assert!(review.after.len() > review.before.len());
    let added = changed.lines().position(|l| l.contains("int answer()")).unwrap() + 1;
    assert!(!review.new.is_empty());
    for v in &review.new {
        assert!((added..added + 3).contains(&v.line), "not on the new method: {v:?}");
        assert_eq!(v.file, PathBuf::from(INVOICE_SERVICE));
    }
    assert!(review.new.iter().any(|v| v.check == "MagicNumber" && v.message == "'42' is a magic number."));
    assert_eq!(review.new.len(), review.after.len() - review.before.len());
}

#[test]
fn checkstyle_errors_say_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("checkstyle.xml");
    std::fs::write(&bad, "<?xml version=\"1.0\"?>\n<module name=\"Checker\"\n").unwrap();
    let file = fixture("demo").join(INVOICE_SERVICE);
    let checkstyle = Checkstyle::new(&CheckstyleConfig::default(), dir.path(), Arc::new(System));
    assert_eq!(checkstyle.rules(), bad, "the project's own rules are found");
    let err = checkstyle.check(std::slice::from_ref(&file)).unwrap_err();
    assert!(matches!(err, CheckstyleError::BadConfig { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains(&bad.display().to_string()), "{text}");
    assert!(text.contains("unable to parse configuration stream"), "{text}");

    let missing = CheckstyleConfig { path: "/nonexistent/checkstyle".into(), ..CheckstyleConfig::default() };
    let err = Checkstyle::new(&missing, dir.path(), Arc::new(System)).check(&[file]).unwrap_err();
    assert!(matches!(err, CheckstyleError::Missing { .. }), "{err:?}");
    use mantra::error::Classify;
    assert_eq!(err.exit(), mantra::exit::Exit::EnvironmentMissing);
    assert!(err.hint().unwrap().contains("apt-get install checkstyle"));
}

#[test]
fn javac_and_the_junit_console_launcher_for_junit5() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src/shop");
    let test = dir.path().join("test/shop");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::create_dir_all(&test).unwrap();
    std::fs::write(src.join("Cart.java"), "package shop;\n\npublic class Cart {\n    public int total(int... prices) {\n        int sum = 0;\n        for (int p : prices) {\n            sum += p;\n        }\n        return sum;\n    }\n}\n").unwrap();
    std::fs::write(
        test.join("CartTest.java"),
        "package shop;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass CartTest {\n    @Test\n    void sums() {\n        assertEquals(6, new Cart().total(1, 2, 3));\n    }\n\n    @Test\n    void empty() {\n        assertEquals(1, new Cart().total());\n    }\n}\n",
    )
    .unwrap();
    let tool = build::tool_for(dir.path(), &BuildConfig::default(), Arc::new(System));
    let run = tool.test(dir.path(), &TestSelection::All).unwrap();
    assert_eq!(run.failure, Some(FailureKind::TestFailure), "{}", run.run.output);
    assert_eq!(run.total, 2, "{:?}", run.results);
    let failed: Vec<&str> = run.failing().map(|r| r.id.as_str()).collect();
    assert_eq!(failed, ["shop.CartTest#empty"]);
    assert_eq!(run.failing().next().unwrap().message.as_deref(), Some("expected: <1> but was: <0>"));

    let one = tool.test(dir.path(), &TestSelection::Only(vec!["shop.CartTest#sums".into()])).unwrap();
    assert!(one.success(), "{}", one.run.output);
    assert_eq!(one.results.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["shop.CartTest#sums"]);
}
