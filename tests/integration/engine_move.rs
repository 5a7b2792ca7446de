//! Move Method (and the compounds built on it) on the fixture projects, proven by their real builds:
//! each test copies a project, applies the README's planted moves through the library API, writes
//! them with the atomic writer, checks the call sites the README names, then runs Maven or Gradle
//! (compile with `-Xlint:all`, every test). One build per project keeps the suite fast.

use std::path::{Path, PathBuf};

use mantra::engine::move_method::{AsMode, MoveSpec, Moved, plan};
use mantra::java::Project;
use mantra::java::target;

use crate::harness::{copy_fixture, gradle_test, maven_test, read};

#[path = "../../examples/support/move_eval.rs"]
#[allow(dead_code)] // the example reads fields this test does not
mod move_eval;

/// Opens the project at `root`, resolves `target` (`path:method`), moves it and writes the result.
pub fn apply_move(root: &Path, target_spec: &str, to: &str, keep_delegate: bool) -> Moved {
    apply_spec(root, target_spec, MoveSpec { keep_delegate, ..MoveSpec::new(to.parse().expect("destination")) })
}

/// [`apply_move`] with a whole spec.
pub fn apply_spec(root: &Path, target_spec: &str, spec: MoveSpec) -> Moved {
    let project = Project::open(root).expect("open project");
    let t = target::resolve(&project, root, target_spec).unwrap_or_else(|e| panic!("{target_spec}: {e}"));
    let moved = plan(&project, t.method, &spec)
        .unwrap_or_else(|r| panic!("{target_spec} → {:?}: {}: {}", spec.to, r.reason, r.message));
    mantra::workspace::writeback::write_atomically(root, &moved.changes).expect("write");
    moved
}

const P: &str = "src/main/java/com/acme/invoicing";

fn p(rel: &str) -> String {
    format!("{P}/{rel}")
}

#[test]
fn demo_moves_d10_d11_d12_build_and_pass() {
    let dir = copy_fixture("demo");
    let root = dir.path();

    // D10: through a parameter, into another package: public, the call reads from the invoice.
    let d10 = apply_move(root, &p("export/PlainTextInvoiceExporter.java:formatAddressBlock"), "param:customer", false);
    assert_eq!(d10.destination, "com.acme.invoicing.customer.Customer");
    assert_eq!(d10.signature, "public String formatAddressBlock()");
    let exporter = read(root, &p("export/PlainTextInvoiceExporter.java"));
    assert!(exporter.contains("        text.append(invoice.getCustomer().formatAddressBlock()).append('\\n');\n"));
    assert!(!exporter.contains("private String formatAddressBlock"));
    assert!(!exporter.contains("import com.acme.invoicing.customer.Address;"), "unused import left:\n{exporter}");
    let customer = read(root, &p("customer/Customer.java"));
    assert!(customer.contains("    public String formatAddressBlock() {\n        Address address = getAddress();\n        return getName() + \"\\n\"\n"), "{customer}");

    // D11: through a field; the generator gets the imports the body needs.
    let d11 = apply_move(root, &p("invoice/InvoiceService.java:nextNumberFor"), "field:numberGenerator", false);
    assert_eq!(d11.signature, "String nextNumberFor(LocalDate issueDate)");
    let service = read(root, &p("invoice/InvoiceService.java"));
    assert!(service.contains("        String number = numberGenerator.nextNumberFor(issueDate);\n"), "{service}");
    let generator = read(root, &p("invoice/InvoiceNumberGenerator.java"));
    for needed in ["import java.time.LocalDate;", "import java.util.Locale;", "        int sequence = next(year);"] {
        assert!(generator.contains(needed), "{needed} missing:\n{generator}");
    }

    // D12: a static utility into Money; every caller now says Money.sum.
    let d12 = apply_move(root, &p("report/RevenueReport.java:sum"), "class:com.acme.invoicing.money.Money", false);
    assert_eq!(d12.call_sites, 3);
    let report = read(root, &p("report/RevenueReport.java"));
    assert!(report.contains("        return Money.sum(revenues, currency);\n"), "{report}");
    let invoice = read(root, &p("invoice/Invoice.java"));
    assert_eq!(invoice.matches("return Money.sum(").count(), 2, "{invoice}");
    assert!(!invoice.contains("import com.acme.invoicing.report.RevenueReport;"), "{invoice}");
    assert!(read(root, &p("money/Money.java")).contains("import java.util.Collection;"));

    maven_test(root);
}

/// Issue 15: an instance method that uses no state moves to any class and becomes static there;
/// a JUnit 5 test method moves to another test class (another package) and stays a test.
#[test]
fn demo_moves_to_any_class_build_and_pass() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    // `--as static`: a static method of the class, the object passed in (by default, `--as auto`,
    // it would become `invoice.calc(asOf)`, through the parameter).
    let calc = apply_spec(
        root,
        &p("report/AgingReport.java:calc"),
        MoveSpec {
            as_mode: AsMode::Static,
            ..MoveSpec::new("class:com.acme.invoicing.invoice.Invoice".parse().expect("destination"))
        },
    );
    assert_eq!(calc.signature, "public static long calc(Invoice invoice, LocalDate asOf)");
    let report = read(root, &p("report/AgingReport.java"));
    assert!(report.contains("Bucket.forDaysOverdue(Invoice.calc(invoice, asOf))"), "{report}");

    let tests = "src/test/java/com/acme/invoicing";
    let target = format!("{tests}/money/MoneyTest.java:equalAmountsAreEqualWhateverTheInputScale");
    let test = apply_move(root, &target, "class:com.acme.invoicing.invoice.InvoiceTest", false);
    assert_eq!(test.signature, "void equalAmountsAreEqualWhateverTheInputScale()");
    let invoice_test = read(root, &format!("{tests}/invoice/InvoiceTest.java"));
    for needed in
        ["import com.acme.invoicing.money.Money;", "import static org.junit.jupiter.api.Assertions.assertNotEquals;"]
    {
        assert!(invoice_test.contains(needed), "{needed} missing:\n{invoice_test}");
    }
    assert!(!read(root, &format!("{tests}/money/MoneyTest.java")).contains("equalAmountsAreEqual"));

    // Into a class that does not exist yet: created in the package, the enum's constants named
    // through their class.
    let buckets = apply_move(
        root,
        &p("report/AgingReport.java:forDaysOverdue"),
        "class:com.acme.invoicing.report.Buckets",
        false,
    );
    assert_eq!(buckets.created.as_deref(), Some(Path::new(&p("report/Buckets.java"))));
    let created = read(root, &p("report/Buckets.java"));
    assert!(created.starts_with("package com.acme.invoicing.report;\n\n"), "{created}");
    assert!(
        created.contains("public class Buckets {\n    public static Bucket forDaysOverdue(long days) {"),
        "{created}"
    );
    assert!(created.contains("            return Bucket.CURRENT;"), "{created}");
    assert!(read(root, &p("report/AgingReport.java")).contains("Buckets.forDaysOverdue(Invoice.calc(invoice, asOf))"));

    // Into a new member class of an existing class.
    let sums = apply_move(
        root,
        &p("report/RevenueReport.java:sum"),
        "class:com.acme.invoicing.report.RevenueReport.Sums",
        false,
    );
    assert_eq!(sums.destination, "com.acme.invoicing.report.RevenueReport.Sums");
    let revenue = read(root, &p("report/RevenueReport.java"));
    assert!(revenue.contains("    public static class Sums {\n        /** Adds up amounts"), "{revenue}");
    assert!(
        revenue.contains("        public static Money sum(Collection<Money> amounts, Currency currency) {\n"),
        "{revenue}"
    );
    assert!(read(root, &p("invoice/Invoice.java")).contains("RevenueReport.Sums.sum("));

    // Into an interface: a static interface method; the private field it reads is widened.
    let rule = apply_move(root, &p("tax/TaxCalculator.java:ruleFor"), "class:com.acme.invoicing.tax.TaxRule", false);
    assert_eq!(rule.signature, "static TaxRule ruleFor(TaxCalculator taxCalculator, TaxCategory category)");
    assert_eq!(rule.widened, ["`rules` of `com.acme.invoicing.tax.TaxCalculator`: private → package-private"]);
    assert!(
        read(root, &p("tax/TaxCalculator.java"))
            .contains("return TaxRule.ruleFor(this, item.getTaxCategory()).taxOn(item);")
    );

    // Through a parameter of an interface type: a `default` method of the interface, which its
    // three implementations inherit.
    let calculator = p("tax/TaxCalculator.java");
    let text = read(root, &calculator).replace(
        "    /** Exempt supplies carry no tax",
        "    public String labelled(LineItem item) {\n        return label(rules.get(item.getTaxCategory()), item);\n    }\n\n    private String label(TaxRule rule, LineItem item) {\n        return rule.code() + \" \" + rule.taxOn(item);\n    }\n\n    /** Exempt supplies carry no tax",
    );
    std::fs::write(root.join(&calculator), text).expect("write");
    let label = apply_move(root, &format!("{calculator}:label"), "param:rule", false);
    assert_eq!(label.signature, "default String label(LineItem item)");
    let rule = read(root, &p("tax/TaxRule.java"));
    assert!(
        rule.contains(
            "    default String label(LineItem item) {\n        return code() + \" \" + taxOn(item);\n    }\n"
        ),
        "{rule}"
    );
    assert!(read(root, &calculator).contains("        return rules.get(item.getTaxCategory()).label(item);\n"));

    // A method calling what its class inherits from outside the project (`java.io.StringWriter`):
    // called on the object passed in, noted for the build to check.
    let transcript = "package com.acme.invoicing.report;\n\nimport java.io.StringWriter;\n\n/** What a report wrote. */\npublic class Transcript extends StringWriter {\n    public String line(String text) {\n        write(text);\n        write('\\n');\n        return getBuffer().toString();\n    }\n\n    public String twice(String text) {\n        line(text);\n        return line(text);\n    }\n}\n";
    std::fs::write(root.join(p("report/Transcript.java")), transcript).expect("write");
    let line =
        apply_move(root, &p("report/Transcript.java:line"), "class:com.acme.invoicing.report.AgingReport", false);
    assert_eq!(line.signature, "public static String line(Transcript transcript, String text)");
    let aging = read(root, &p("report/AgingReport.java"));
    assert!(aging.contains("        transcript.write(text);\n        transcript.write('\\n');\n        return transcript.getBuffer().toString();\n"), "{aging}");
    assert!(read(root, &p("report/Transcript.java")).contains("        return AgingReport.line(this, text);\n"));

    maven_test(root);
}

#[test]
fn library_l3_and_parking_g4_build_and_pass() {
    let lib = copy_fixture("library-junit4");
    let root = lib.path();
    let l3 = apply_move(root, "src/main/java/com/acme/library/LoanDesk.java:daysLate", "param:loan", false);
    assert_eq!(l3.signature, "long daysLate(LocalDate today)");
    let desk = read(root, "src/main/java/com/acme/library/LoanDesk.java");
    assert!(desk.contains("        long late = loan.daysLate(today);\n"), "{desk}");
    let loan = read(root, "src/main/java/com/acme/library/Loan.java");
    assert!(loan.contains("import java.time.temporal.ChronoUnit;"), "{loan}");
    assert!(
        loan.contains("        LocalDate returned = getReturnedOn() != null ? getReturnedOn() : today;\n"),
        "{loan}"
    );

    let parking = copy_fixture("parking-gradle");
    let proot = parking.path();
    let g4 = apply_move(proot, "src/main/java/com/acme/parking/Garage.java:stayOf", "param:ticket", false);
    assert_eq!(g4.signature, "Duration stayOf()");
    let garage = read(proot, "src/main/java/com/acme/parking/Garage.java");
    assert!(
        garage.contains("        BigDecimal fee = tariff.calc(ticket.stayOf(), ticket.getVehicle().type());\n"),
        "{garage}"
    );
    let ticket = read(proot, "src/main/java/com/acme/parking/Ticket.java");
    assert!(ticket.contains("import java.time.Duration;"), "{ticket}");

    maven_test(root);
    gradle_test(proot);
}

/// An overriding method is refused on the real project, where the hierarchy spans files.
#[test]
fn an_overriding_method_is_refused_in_the_demo() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let project = Project::open(root).expect("open");
    // `export` implements `InvoiceExporter.export`; moving it would break dispatch.
    let path = PathBuf::from(p("export/PlainTextInvoiceExporter.java"));
    let t = target::resolve(&project, root, &format!("{}:export", path.display())).expect("target");
    let spec = MoveSpec::new("param:invoice".parse().expect("dest"));
    let r = plan(&project, t.method, &spec).expect_err("export overrides InvoiceExporter.export");
    assert_eq!(r.reason, "in_hierarchy", "{}", r.message);
}

/// A fixture moved away from the tests it sets up is refused through the CLI, naming them, with
/// a hint about moving (not `--lines`), and nothing written.
#[test]
fn a_fixture_left_without_its_tests_is_refused_and_nothing_is_written() {
    let dir = copy_fixture("library-junit4");
    let root = dir.path();
    let catalog_test = "src/test/java/com/acme/library/CatalogTest.java";
    let before = read(root, catalog_test);
    let r = crate::harness::mantra(
        root,
        &[
            "refactor",
            "--type",
            "move-method",
            &format!("{catalog_test}:setUp"),
            "--to",
            "class:com.acme.library.LoanDeskTest",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("fixture_method") && r.stderr.contains("`isbnMustHaveThirteenDigits`"), "{}", r.stderr);
    assert!(r.stderr.contains("--methods") && !r.stderr.contains("--lines"), "{}", r.stderr);
    assert_eq!(read(root, catalog_test), before);
}

/// D17 (Extract And Move), D19 (Move And Rename) and D18 (Move And Inline) on one copy of the
/// demo, one build.
#[test]
fn demo_compounds_d17_d18_d19_build_and_pass() {
    use mantra::engine::compound::{extract_and_move, move_and_inline, move_and_rename};
    use mantra::engine::extract::ExtractSpec;

    let dir = copy_fixture("demo");
    let root = dir.path();

    let project = Project::open(root).expect("open");
    let issue = target::resolve(&project, root, &p("invoice/InvoiceService.java:issue")).expect("target");
    let extract = ExtractSpec {
        file: p("invoice/InvoiceService.java").into(),
        method_line: None,
        lines: (47, 48),
        name: "dueDateFor".into(),
        visibility: None,
        local_types: Default::default(),
        params: Vec::new(),
        param_types: Default::default(),
        quiet_calls: Vec::new(),
        copies: Vec::new(),
    };
    let mv = MoveSpec::new("param:customer".parse().expect("dest"));
    let d17 = extract_and_move(&project, issue.method, &extract, &mv)
        .unwrap_or_else(|r| panic!("D17: {}: {}", r.reason, r.message));
    assert_eq!(d17.destination, "com.acme.invoicing.customer.Customer");
    assert_eq!(d17.signature, "public LocalDate dueDateFor(LocalDate issueDate)");
    mantra::workspace::writeback::write_atomically(root, &d17.changes).expect("write D17");
    let service = read(root, &p("invoice/InvoiceService.java"));
    assert!(service.contains("        LocalDate dueDate = customer.dueDateFor(issueDate);\n"), "{service}");
    let customer = read(root, &p("customer/Customer.java"));
    assert!(customer.contains("import java.time.LocalDate;"), "{customer}");

    let project = Project::open(root).expect("reopen");
    let calc = target::resolve(&project, root, &p("report/AgingReport.java:calc")).expect("target");
    let mv = MoveSpec::new("param:invoice".parse().expect("dest"));
    let d19 = move_and_rename(&project, calc.method, &mv, "daysOverdue")
        .unwrap_or_else(|r| panic!("D19: {}: {}", r.reason, r.message));
    assert_eq!(d19.signature, "public long daysOverdue(LocalDate asOf)");
    mantra::workspace::writeback::write_atomically(root, &d19.changes).expect("write D19");
    let aging = read(root, &p("report/AgingReport.java"));
    assert!(aging.contains("Bucket.forDaysOverdue(invoice.daysOverdue(asOf))"), "{aging}");
    let invoice = read(root, &p("invoice/Invoice.java"));
    assert!(invoice.contains("import java.time.temporal.ChronoUnit;"), "{invoice}");

    let project = Project::open(root).expect("reopen");
    let settled = target::resolve(&project, root, &p("payment/PaymentService.java:isSettledBy")).expect("target");
    let mv = MoveSpec::new("class:com.acme.invoicing.invoice.Invoice".parse().expect("dest"));
    let d18 = move_and_inline(&project, settled.method, &mv, None)
        .unwrap_or_else(|r| panic!("D18: {}: {}", r.reason, r.message));
    assert_eq!(d18.destination, "com.acme.invoicing.invoice.Invoice");
    mantra::workspace::writeback::write_atomically(root, &d18.changes).expect("write D18");
    let invoice = read(root, &p("invoice/Invoice.java"));
    assert!(invoice.contains("        if (amountPaid().compareTo(this.total()) >= 0) {\n"), "{invoice}");
    assert!(!invoice.contains("isSettledBy") && !invoice.contains("import com.acme.invoicing.payment.PaymentService;"));
    let payments = read(root, &p("payment/PaymentService.java"));
    assert!(!payments.contains("isSettledBy"), "{payments}");

    maven_test(root);
}

/// Replays PureRefactor's Move Method and Move And Rename Method records: nothing crashes, every
/// output parses, every applied move has the developer's code, and the applied share does not
/// regress. See `examples/eval_move.rs` for the table.
#[test]
fn pure_refactor_move_records_replay() {
    use move_eval::{Status, evaluate, shared_data};
    let data = shared_data();
    let outcomes =
        evaluate(&data).unwrap_or_else(|e| panic!("the PureRefactor data is required ({}): {e}", data.display()));
    assert_eq!(outcomes.len(), 48, "35 Move Method + 13 Move And Rename Method records");
    let (mut applied, mut confirmed) = (0, 0);
    for o in &outcomes {
        match &o.status {
            Status::Applied { parses, same_code, confirmed: found, .. } => {
                applied += 1;
                confirmed += usize::from(*found);
                assert!(parses, "{} {}: the engine's output does not parse", o.project, o.id);
                // A move to a class may make an instance method static (with its object as a
                // parameter) where the developer kept it an instance method: other code, same behaviour.
                let to_class = o.spec.as_deref().is_some_and(|s| s.contains("class:"));
                assert!(
                    *same_code || to_class,
                    "{} {}: the moved method's code differs from the developer's",
                    o.project,
                    o.id
                );
            }
            Status::Crashed { message } => panic!("{} {} crashed: {message}", o.project, o.id),
            Status::NotReplayable { why } => panic!("{} {} not replayable: {why}", o.project, o.id),
            Status::Refused { .. } | Status::NoSpec { .. } => {}
        }
    }
    // 37 of the 48 apply, all confirmed by the detector (some with `--widen public`, some into a
    // class the move creates, some calling what the source inherits from outside the replayed
    // files); the others are refused for real reasons (constructors, overrides, an abstract
    // method, fixtures that tests left in their class would lose).
    assert!(applied >= 37, "only {applied} Move records applied");
    assert!(confirmed >= 37, "only {confirmed} applied Move records confirmed by the detector");
}

/// Pull Up (issue 15): a helper of a subclass goes up into its superclass in the demo, reading
/// an inherited method and one the subclass overrides (still dispatched to the override); the
/// subclass's caller is unchanged, and the demo builds and passes. An override the superclass
/// declares itself is refused as a clash.
#[test]
fn demo_pull_up_builds_and_passes() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let reduced = p("tax/ReducedVatRule.java");
    let text = read(root, &reduced).replace(
        "    @Override\n    protected BigDecimal pct() {",
        "    public String describe() {\n        return label();\n    }\n\n    private String label() {\n        return code() + \" at \" + pct() + \"%\";\n    }\n\n    @Override\n    protected BigDecimal pct() {",
    );
    std::fs::write(root.join(&reduced), text).expect("write");
    let label = apply_move(root, &format!("{reduced}:label"), "class:com.acme.invoicing.tax.StandardVatRule", false);
    assert_eq!(label.signature, "String label()");
    assert_eq!(label.call_sites, 0);
    let standard = read(root, &p("tax/StandardVatRule.java"));
    assert!(
        standard.contains("    String label() {\n        return code() + \" at \" + pct() + \"%\";\n    }\n}"),
        "{standard}"
    );
    let after = read(root, &reduced);
    assert!(!after.contains("label() {") && after.contains("        return label();\n"), "{after}");

    let project = Project::open(root).expect("open");
    let pct = target::resolve(&project, root, &format!("{reduced}:pct")).expect("target");
    let spec = MoveSpec::new("class:com.acme.invoicing.tax.StandardVatRule".parse().expect("dest"));
    let r = plan(&project, pct.method, &spec).expect_err("StandardVatRule declares pct()");
    assert_eq!(r.reason, "name_clash", "{}", r.message);
    assert!(r.message.contains("already declares `pct()`"), "{}", r.message);

    maven_test(root);
}

/// Push Down: an override of an abstract class's only subclass goes down into it, reading a
/// private field of the class it leaves (made package-private); the call through the interface
/// and the one in the abstract class stay, and the demo builds and passes. Pushing down out of a
/// concrete class is refused, and nothing is written.
#[test]
fn demo_push_down_builds_and_passes() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let base = p("tax/ScaledRule.java");
    std::fs::write(
        root.join(&base),
        "package com.acme.invoicing.tax;\n\nabstract class ScaledRule implements TaxRule {\n\n    private final int scale = 2;\n\n    @Override\n    public String code() {\n        return \"S\" + scale;\n    }\n\n    String label() {\n        return code() + \"!\";\n    }\n}\n",
    )
    .expect("write");
    let leaf = p("tax/HalfRule.java");
    std::fs::write(
        root.join(&leaf),
        "package com.acme.invoicing.tax;\n\nimport com.acme.invoicing.invoice.LineItem;\nimport com.acme.invoicing.money.Money;\n\nfinal class HalfRule extends ScaledRule {\n\n    @Override\n    public Money taxOn(LineItem item) {\n        return Money.zero(item.getUnitPrice().currency());\n    }\n}\n",
    )
    .expect("write");
    let moved = apply_move(root, &format!("{base}:code"), "class:com.acme.invoicing.tax.HalfRule", false);
    assert_eq!(moved.call_sites, 0);
    let after_leaf = read(root, &leaf);
    assert!(
        after_leaf.contains("    @Override\n    public String code() {\n        return \"S\" + scale;\n    }\n}"),
        "{after_leaf}"
    );
    let after_base = read(root, &base);
    assert!(
        after_base.contains("    final int scale = 2;") && !after_base.contains("public String code()"),
        "{after_base}"
    );
    assert!(after_base.contains("return code() + \"!\";"), "{after_base}");

    // StandardVatRule is concrete: its own objects would lose `code()`.
    let project = Project::open(root).expect("open");
    let standard = p("tax/StandardVatRule.java");
    let code = target::resolve(&project, root, &format!("{standard}:code")).expect("target");
    let spec = MoveSpec::new("class:com.acme.invoicing.tax.ReducedVatRule".parse().expect("dest"));
    let r = plan(&project, code.method, &spec).expect_err("StandardVatRule is concrete");
    assert_eq!(r.reason, "in_hierarchy", "{}", r.message);
    assert!(r.message.contains("is not abstract"), "{}", r.message);

    maven_test(root);
}
