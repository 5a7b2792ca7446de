//! Rename Method through the library API on the fixture projects, proven by their real builds and
//! tests: each test renames on a pristine copy, writes the change set, and runs Maven or Gradle.
//! Independent renames share one build to keep the suite fast.

use std::path::{Path, PathBuf};

use mantra::engine::{ChangeSet, Refusal, RenameSpec, rename_method};
use mantra::java::{Project, target};

use crate::harness::{copy_fixture, fixture, maven_test, run_build};

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
