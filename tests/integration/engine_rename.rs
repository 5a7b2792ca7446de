//! Rename Method through the library API on the fixture projects, proven by their real builds and
//! tests: each test renames on a pristine copy, writes the change set, and runs Maven or Gradle.
//! Independent renames share one build to keep the suite fast.

use std::path::{Path, PathBuf};

use mantra::engine::{ChangeSet, Refusal, RenameSpec, rename_method};
use mantra::java::{Project, target};

use crate::harness::{copy_fixture, fixture, maven_test, read, run_build};

/// Plans renaming the method named by `target` (`path/To.java:method`) to `new` in the project at `root`.
fn rename(root: &Path, target: &str, new: &str) -> Result<ChangeSet, Refusal> {
    let project = Project::open(root).expect("open project");
    let method = target::resolve(&project, root, target).unwrap_or_else(|e| panic!("{target}: {e}")).method;
    rename_method(&project, method, &RenameSpec { new_name: new.into() })
}

fn renamed(root: &Path, target: &str, new: &str) -> ChangeSet {
    rename(root, target, new).unwrap_or_else(|r| panic!("{target} → {new} refused: {}: {}", r.reason, r.message))
}

/// How many name tokens a change set replaces, per file name, sorted by name.
fn edit_counts(changes: &ChangeSet) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = changes
        .files
        .iter()
        .map(|(path, change)| {
            let n = match change {
                mantra::engine::FileChange::Edit { edits, .. } => edits.len(),
                other => panic!("a method rename edits files only: {other:?}"),
            };
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            (name, n)
        })
        .collect();
    counts.sort();
    counts
}

fn counts<const N: usize>(expected: [(&str, usize); N]) -> Vec<(String, usize)> {
    let mut v: Vec<(String, usize)> = expected.iter().map(|(f, n)| (f.to_string(), *n)).collect();
    v.sort();
    v
}

/// Occurrences of `needle` in every `.java` file under `root`: (file name, count).
fn occurrences(root: &Path, needle: &str) -> Vec<(String, usize)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "java") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root.join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let n = std::fs::read_to_string(&p).expect("read").matches(needle).count();
            (n > 0).then(|| (p.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string(), n))
        })
        .collect()
}

const P: &str = "src/main/java/com/acme/invoicing";

#[test]
fn demo_renames_d13_to_d16_and_a_trapped_getter_then_builds_and_passes() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let d13 = renamed(root, &format!("{P}/invoice/Invoice.java:calc2"), "balanceDue");
    assert_eq!(
        edit_counts(&d13),
        counts([
            ("PlainTextInvoiceExporter.java", 1),
            ("CsvInvoiceExporter.java", 1),
            ("Invoice.java", 1),
            ("PaymentService.java", 2),
            ("AgingReport.java", 1),
            ("InvoiceTest.java", 2),
            ("PaymentServiceTest.java", 2),
        ])
    );
    // D14: the override in ReducedVatRule goes with it, or dispatch silently breaks
    let d14 = renamed(root, &format!("{P}/tax/StandardVatRule.java:pct"), "ratePercent");
    assert_eq!(edit_counts(&d14), counts([("ReducedVatRule.java", 1), ("StandardVatRule.java", 3)]));
    let d15 = renamed(root, &format!("{P}/payment/PaymentService.java:proc"), "applyPayment");
    assert_eq!(
        edit_counts(&d15),
        counts([
            ("PaymentService.java", 1),
            ("CsvInvoiceExporterTest.java", 1),
            ("PaymentServiceTest.java", 5),
            ("AgingReportTest.java", 2),
        ])
    );
    // D16: `Invoice.cancel()` is another class's method; the new name meets it without clashing
    let d16 = renamed(root, &format!("{P}/invoice/InvoiceService.java:doIt"), "cancel");
    assert_eq!(
        edit_counts(&d16),
        counts([("InvoiceService.java", 1), ("InvoiceServiceTest.java", 2), ("RevenueReportTest.java", 1)])
    );
    // The D9 trap: RevenueReport.Row.getCustomerName, `Row::getCustomerName` and
    // `rows.get(i).getCustomerName()` are another method and must not change.
    let trap = renamed(root, &format!("{P}/invoice/Invoice.java:getCustomerName"), "customerName");
    assert_eq!(
        edit_counts(&trap),
        counts([("CsvInvoiceExporter.java", 1), ("Invoice.java", 1), ("InMemoryInvoiceRepository.java", 1)])
    );

    let mut all = d13;
    for c in [d14, d15, d16, trap] {
        all.extend(c);
    }
    mantra::workspace::writeback::write_atomically(root, &all).expect("write");
    for old in ["calc2", "pct(", ".proc(", "doIt"] {
        assert_eq!(occurrences(root, old), [], "`{old}` left behind");
    }
    assert_eq!(
        occurrences(root, "getCustomerName"),
        counts([("RevenueReport.java", 2), ("RevenueReportTest.java", 2)])
    );
    let service = std::fs::read_to_string(root.join(P).join("invoice/InvoiceService.java")).expect("read");
    assert!(service.contains("public Invoice cancel(String number) {"), "{service}");
    assert!(service.contains("        invoice.cancel();\n"), "Invoice.cancel() is still called: {service}");
    let reduced = std::fs::read_to_string(root.join(P).join("tax/ReducedVatRule.java")).expect("read");
    assert!(reduced.contains("    @Override\n    protected BigDecimal ratePercent() {\n"), "{reduced}");
    maven_test(root);
}

#[test]
fn demo_refusals_have_stable_reasons() {
    let root = fixture("demo");
    let reason = |target: &str, new: &str| match rename(&root, &format!("{P}/{target}"), new) {
        Ok(c) => panic!("{target} → {new} was not refused: {:?}", edit_counts(&c)),
        Err(r) => {
            assert!(!r.message.is_empty());
            r.reason
        }
    };
    assert_eq!(reason("money/Money.java:compareTo", "compare"), "overrides_external");
    assert_eq!(reason("money/Money.java:toString", "text"), "overrides_external");
    assert_eq!(reason("invoice/Invoice.java:calc2", "total"), "name_clash");
    assert_eq!(reason("invoice/Invoice.java:calc2", "toString"), "name_clash");
    // `code()` is TaxRule's, implemented by StandardVatRule and TaxCalculator.ExemptRule too
    assert_eq!(reason("tax/StandardVatRule.java:code", "hashCode"), "name_clash");
    assert_eq!(reason("invoice/Invoice.java:calc2", "class"), "invalid_name");
    assert_eq!(reason("invoice/Invoice.java:calc2", "balance due"), "invalid_name");
    assert_eq!(reason("invoice/Invoice.java:calc2", "calc2"), "same_name");
    assert_eq!(reason("customer/Customer.java:<init>(String,String,String,Address)", "make"), "constructor");
    // an interface method renames its whole family: the interface and every implementation
    let family = rename(&root, &format!("{P}/tax/TaxRule.java:code"), "label").expect("renamed");
    let names: Vec<String> = edit_counts(&family).into_iter().map(|(f, _)| f).collect();
    for f in ["TaxRule.java", "StandardVatRule.java", "TaxCalculator.java"] {
        assert!(names.contains(&f.to_string()), "{f} not in {names:?}");
    }
}

#[test]
fn library_junit4_l4_builds_and_passes() {
    let dir = copy_fixture("library-junit4");
    let root = dir.path();
    let changes = renamed(root, "src/main/java/com/acme/library/Catalog.java:find2", "searchTitles");
    assert_eq!(edit_counts(&changes), counts([("Catalog.java", 1), ("LoanDesk.java", 1), ("CatalogTest.java", 2)]));
    mantra::workspace::writeback::write_atomically(root, &changes).expect("write");
    assert_eq!(occurrences(root, "find2"), []);
    maven_test(root);
}

#[test]
fn parking_gradle_g5_builds_and_passes() {
    let dir = copy_fixture("parking-gradle");
    let root = dir.path();
    let changes = renamed(root, "src/main/java/com/acme/parking/Tariff.java:calc", "feeFor");
    assert_eq!(edit_counts(&changes), counts([("Garage.java", 2), ("Tariff.java", 1), ("TariffTest.java", 8)]));
    mantra::workspace::writeback::write_atomically(root, &changes).expect("write");
    assert_eq!(occurrences(root, "calc("), []);
    run_build(root, "gradle", &["--offline", "-q", "test"]);
}

/// A test class whose parameterised tests take their arguments from factories JUnit finds by
/// name: a same-class name, a qualified `Class#name`, and a bare `@MethodSource` (the factory of
/// the test's own name).
const METHOD_SOURCES: &str = "package com.acme.invoicing.money;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MoneyCasesTest {

    static Stream<Arguments> amounts() {
        return Stream.of(Arguments.of(\"10\", \"10.00\"), Arguments.of(\"7.5\", \"7.50\"));
    }

    static Stream<Arguments> allAmounts() {
        return Stream.concat(amounts(), Stream.of(Arguments.of(\"0\", \"0.00\")));
    }

    static Stream<String> currencies() {
        return Stream.of(\"EUR\");
    }

    @ParameterizedTest
    @MethodSource(\"amounts\")
    void amountsKeepTwoDecimals(String in, String out) {
        assertEquals(new BigDecimal(out), Money.of(in, Currency.EUR).amount());
    }

    @ParameterizedTest
    @MethodSource({ \"com.acme.invoicing.money.MoneyCasesTest#allAmounts\" })
    void allAmountsKeepTwoDecimals(String in, String out) {
        assertEquals(new BigDecimal(out), Money.of(in, Currency.EUR).amount());
    }

    @ParameterizedTest
    @MethodSource
    void currencies(String code) {
        assertEquals(Currency.EUR, Currency.valueOf(code));
    }
}
";

/// JUnit calls a `@MethodSource` factory by name, so no call in the code reaches it: renamed, its
/// name in the annotation changes with it; renamed through a bare `@MethodSource`, inlined away,
/// or moved where its tests cannot find it, it is refused (`named_by_annotation`). The result is
/// built and its tests run by Maven.
#[test]
fn a_method_source_factory_is_renamed_in_its_annotation_and_never_lost() {
    use mantra::engine::inline::{InlineSpec, MethodSelector, inline_method_in_project};
    use mantra::engine::move_method::{MoveSpec, plan};
    let dir = copy_fixture("demo");
    let root = dir.path();
    let test = "src/test/java/com/acme/invoicing/money/MoneyCasesTest.java";
    std::fs::write(root.join(test), METHOD_SOURCES).expect("write");
    let refused = |r: Result<ChangeSet, Refusal>, what: &str| match r {
        Ok(c) => panic!("{what} was not refused: {:?}", edit_counts(&c)),
        Err(r) => {
            assert_eq!(r.reason, "named_by_annotation", "{what}: {}", r.message);
            r.message
        }
    };
    let why = refused(rename(root, &format!("{test}:currencies()"), "codes"), "the bare factory");
    assert!(why.contains("`currencies` gives `currencies` its arguments through a bare @MethodSource"), "{why}");
    refused(rename(root, &format!("{test}:currencies(String)"), "eachCurrency"), "the test of a bare source");
    let project = Project::open(root).expect("open");
    let amounts = target::resolve(&project, root, &format!("{test}:amounts")).expect("amounts").method;
    let spec =
        InlineSpec { file: test.into(), method: MethodSelector { name: "amounts".into(), line: None }, at: None };
    let why = refused(inline_method_in_project(&project, amounts, &spec), "inlining the factory");
    assert!(why.contains("@MethodSource of `amountsKeepTwoDecimals`"), "{why}");
    let away = MoveSpec::new("class:com.acme.invoicing.money.MoneyTest".parse().expect("destination"));
    let why = refused(plan(&project, amounts, &away).map(|m| m.changes), "moving the factory alone");
    assert!(why.contains("`--methods`"), "{why}");
    let test_alone = target::resolve(&project, root, &format!("{test}:amountsKeepTwoDecimals")).expect("test").method;
    let why = refused(plan(&project, test_alone, &away).map(|m| m.changes), "moving the test alone");
    assert!(why.contains("`--methods amounts`"), "{why}");

    let changes = renamed(root, &format!("{test}:amounts"), "amountCases");
    assert_eq!(edit_counts(&changes), counts([("MoneyCasesTest.java", 3)]));
    mantra::workspace::writeback::write_atomically(root, &changes).expect("write");
    let changes = renamed(root, &format!("{test}:allAmounts"), "everyAmount");
    mantra::workspace::writeback::write_atomically(root, &changes).expect("write");
    let text = read(root, test);
    assert!(text.contains("    @MethodSource(\"amountCases\")\n"), "{text}");
    assert!(text.contains("Stream.concat(amountCases(), "), "{text}");
    assert!(text.contains("@MethodSource({ \"com.acme.invoicing.money.MoneyCasesTest#everyAmount\" })"), "{text}");
    // Together, the test first and its factory after it, both to the other test class.
    let project = Project::open(root).expect("open");
    let test_method = target::resolve(&project, root, &format!("{test}:amountsKeepTwoDecimals")).expect("test").method;
    let together = MoveSpec { also: vec!["amountCases".into()], ..away };
    let moved = mantra::engine::compound::move_with_helpers(&project, test_method, &together)
        .unwrap_or_else(|r| panic!("{}: {}", r.reason, r.message));
    mantra::workspace::writeback::write_atomically(root, &moved.changes).expect("write");
    let other = read(root, "src/test/java/com/acme/invoicing/money/MoneyTest.java");
    assert!(
        other.contains("@MethodSource(\"amountCases\")") && other.contains("static Stream<Arguments> amountCases()"),
        "{other}"
    );
    assert!(read(root, test).contains("Stream.concat(MoneyTest.amountCases(), "));
    maven_test(root);
}
