//! `mantra rename`: every kind of identifier on the demo project, proven by its real Maven build
//! and tests; the refusals and usage errors; coordinated suggestions through `--json`, `--yes`
//! and the answer loop on standard input, and the answers kept in `.mantra/`; and the
//! coordinated-rename floors on the development oracle.

use crate::harness::{copy_fixture, mantra, mantra_env, mantra_stdin, maven_test, read};
use crate::llm_server::{ScriptedServer, reply_text};

const CUSTOMER: &str = "src/main/java/com/acme/invoicing/customer/Customer.java";
const ADDRESS: &str = "src/main/java/com/acme/invoicing/customer/Address.java";
const SERVICE: &str = "src/main/java/com/acme/invoicing/invoice/InvoiceService.java";
/// The field `paymentTermsDays` of `Customer` renamed to `creditDays`, its suggestions listed.
const COORDINATED_JSON: [&str; 10] = [
    "rename",
    CUSTOMER,
    "--old",
    "paymentTermsDays",
    "--kind",
    "field",
    "--name",
    "creditDays",
    "--coordinated",
    "--json",
];

fn result(stdout: &str) -> serde_json::Value {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["event"] == "result" && v["kind"] == "rename")
        .unwrap_or_else(|| panic!("no rename result in {stdout}"))["data"]
        .clone()
}

#[test]
fn every_kind_is_renamed_and_the_project_still_builds_and_passes() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let run = |args: &[&str]| {
        let r = mantra(root, args);
        assert_eq!(r.code, 0, "{args:?}\nstdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
        r
    };
    // A record (a class kind): declaration, compact constructor, every reference, the file.
    run(&["rename", ADDRESS, "--old", "Address", "--name", "PostalAddress", "--apply", "--no-verify"]);
    assert!(!root.join(ADDRESS).exists(), "the old file is gone");
    let moved = read(root, "src/main/java/com/acme/invoicing/customer/PostalAddress.java");
    assert!(moved.contains("public record PostalAddress(") && moved.contains("    public PostalAddress {"), "{moved}");
    assert!(read(root, CUSTOMER).contains("private final PostalAddress address;"));
    // A field, through its accesses in the class and the `this.x = x` pattern.
    run(&[
        "rename",
        CUSTOMER,
        "--old",
        "paymentTermsDays",
        "--kind",
        "field",
        "--name",
        "creditDays",
        "--apply",
        "--no-verify",
    ]);
    let customer = read(root, CUSTOMER);
    assert!(customer.contains("this.creditDays = paymentTermsDays;"), "{customer}");
    assert!(customer.contains("return creditDays;"), "{customer}");
    // A parameter and a local variable.
    run(&[
        "rename",
        SERVICE,
        "--old",
        "issueDate",
        "--method",
        "issue",
        "--name",
        "issuedOn",
        "--apply",
        "--no-verify",
    ]);
    run(&["rename", SERVICE, "--old", "termDays", "--name", "daysToPay", "--apply", "--no-verify"]);
    let service = read(root, SERVICE);
    assert!(service.contains("public Invoice issue(Invoice invoice, LocalDate issuedOn) {"), "{service}");
    assert!(service.contains("LocalDate dueDate = issuedOn.plusDays(daysToPay);"), "{service}");
    assert!(service.contains("Objects.requireNonNull(issuedOn, \"issueDate\");"), "strings are left alone:\n{service}");
    assert!(
        service
            .contains("private String nextNumberFor(LocalDate issueDate) {\n        int year = issueDate.getYear();"),
        "another method's parameter of the same name is left alone:\n{service}"
    );
    // A method, as `refactor --type rename-method` does it.
    run(&["rename", CUSTOMER, "--old", "isDomestic", "--name", "livesIn", "--apply", "--no-verify"]);
    maven_test(root);
}

#[test]
fn a_verified_class_rename_with_coordinated_suggestions_is_written() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let r = mantra(
        root,
        &[
            "rename",
            CUSTOMER,
            "--old",
            "Customer",
            "--kind",
            "class",
            "--name",
            "Client",
            "--coordinated",
            "--yes",
            "--apply",
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let data = result(&r.stdout);
    assert_eq!(data["applied"], true);
    assert_eq!(data["verdict"], "accepted");
    let accepted: Vec<&serde_json::Value> =
        data["suggestions"].as_array().unwrap().iter().filter(|s| s["accepted"] == true).collect();
    assert!(accepted.iter().all(|s| s["score"].as_f64().unwrap() >= 0.6), "--yes takes from --min-score only");
    assert!(
        accepted.iter().any(|s| s["kind"] == "parameter" && s["old"] == "customer" && s["new"] == "client"),
        "{accepted:#?}"
    );
    assert!(!root.join(CUSTOMER).exists());
    assert!(read(root, "src/main/java/com/acme/invoicing/customer/Client.java").contains("public class Client {"));
}

/// FILE is taken as `refactor` takes a target's path: from the current directory, then the
/// repository root, so `--repo DIR` with a path inside DIR works from anywhere, for `wire` too.
#[test]
fn file_is_found_under_the_repository_root_from_another_directory() {
    let dir = copy_fixture("demo");
    let root = dir.path().to_str().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let r = mantra(
        elsewhere.path(),
        &["--repo", root, "rename", CUSTOMER, "--old", "email", "--kind", "field", "--name", "mail"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("mail"), "{}", r.stdout);
    let r = mantra(elsewhere.path(), &["--repo", root, "wire", &format!("{CUSTOMER}:1-2")]);
    assert!(!r.stderr.contains("no such file"), "{}", r.stderr);
    // A path found nowhere says where it looked.
    let r = mantra(elsewhere.path(), &["--repo", root, "rename", "src/Missing.java", "--old", "a", "--name", "b"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("no such file") && r.stderr.contains("tried"), "{}", r.stderr);
}

#[test]
fn ambiguous_unknown_and_bad_names_are_clear_errors_that_write_nothing() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let before = read(root, CUSTOMER);
    let r = mantra(root, &["rename", CUSTOMER, "--old", "paymentTermsDays", "--name", "creditDays"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("declared 2 times") && r.stderr.contains("field paymentTermsDays in Customer (line 17)"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("--kind, --class, --method or --line"), "{}", r.stderr);
    let r = mantra(root, &["rename", CUSTOMER, "--old", "nothingHere", "--name", "x"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("declares nothing named `nothingHere`"), "{}", r.stderr);
    let r = mantra(root, &["rename", "src/Missing.java", "--old", "a", "--name", "b"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("no such file"), "{}", r.stderr);
    let r = mantra(root, &["rename", CUSTOMER, "--old", "email", "--kind", "field", "--name", "class"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("invalid_name") && r.stderr.contains("keyword"), "{}", r.stderr);
    let r = mantra(root, &["rename", CUSTOMER, "--old", "email", "--kind", "field", "--name", "name"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("name_clash"), "{}", r.stderr);
    // The help names what to change in a rename, not `refactor`'s flags.
    assert!(r.stderr.contains("choose another --name") && !r.stderr.contains("--lines"), "{}", r.stderr);
    let r = mantra(root, &["rename", CUSTOMER, "--old", "Customer", "--kind", "class", "--name", "Address"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("type_name_clash"), "{}", r.stderr);
    assert_eq!(read(root, CUSTOMER), before, "nothing was written");
}

#[test]
fn coordinated_suggestions_follow_accessors_storage_and_words() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let r = mantra(root, &COORDINATED_JSON);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let data = result(&r.stdout);
    assert_eq!(data["seed"]["kind"], "field");
    assert_eq!(data["seed"]["old"], "paymentTermsDays");
    assert_eq!(data["seed"]["new"], "creditDays");
    assert_eq!(data["seed"]["line"], 17);
    let got: Vec<(String, String, String, String)> = data["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            for key in ["kind", "old", "new", "file", "line", "score", "reason"] {
                assert!(!s[key].is_null(), "suggestion without {key}: {s}");
            }
            assert!(s["accepted"].is_null(), "--json without --yes asks nothing: {s}");
            let f = |k: &str| s[k].as_str().unwrap().to_string();
            (f("kind"), f("old"), f("new"), f("relation"))
        })
        .collect();
    let want = [
        ("parameter", "paymentTermsDays", "creditDays", "stored"),
        ("method", "getPaymentTermsDays", "getCreditDays", "accessor"),
        ("field", "DEFAULT_PAYMENT_TERMS_DAYS", "DEFAULT_CREDIT_DAYS", "same_words"),
    ];
    let want: Vec<(String, String, String, String)> =
        want.iter().map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string())).collect();
    assert_eq!(got, want);
    assert!(!root.join(".mantra/renames.jsonl").exists(), "listing records no answer");
}

#[test]
fn the_answer_loop_applies_what_is_accepted_and_remembers_what_is_not() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let args = [
        "rename",
        CUSTOMER,
        "--old",
        "paymentTermsDays",
        "--kind",
        "field",
        "--name",
        "creditDays",
        "--coordinated",
        "--apply",
        "--no-verify",
    ];
    // yes to the parameter, no to the getter, then stop.
    let r = mantra_stdin(root, &args, "y\nno\nq\n");
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("rename it? [y]es / [n]o / [a]ll / [q]uit"), "{}", r.stderr);
    let customer = read(root, CUSTOMER);
    assert!(customer.contains("this.creditDays = creditDays;"), "the parameter was accepted:\n{customer}");
    assert!(customer.contains("public int getPaymentTermsDays()"), "the getter was declined:\n{customer}");
    assert!(customer.contains("DEFAULT_PAYMENT_TERMS_DAYS"), "quit before the constant:\n{customer}");
    assert!(r.stdout.contains("with 1 coordinated"), "{}", r.stdout);
    let memory = read(root, ".mantra/renames.jsonl");
    assert_eq!(memory.lines().count(), 2, "{memory}");
    assert!(memory.contains("\"old\":\"getPaymentTermsDays\"") && memory.contains("\"accepted\":false"), "{memory}");

    // Renamed back by hand, the declined getter is not proposed again.
    std::fs::write(root.join(CUSTOMER), customer.replace("creditDays", "paymentTermsDays")).unwrap();
    let r = mantra(root, &COORDINATED_JSON);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let data = result(&r.stdout);
    let olds: Vec<&str> = data["suggestions"].as_array().unwrap().iter().map(|s| s["old"].as_str().unwrap()).collect();
    assert!(!olds.contains(&"getPaymentTermsDays"), "{olds:?}");
    assert!(olds.contains(&"DEFAULT_PAYMENT_TERMS_DAYS"), "{olds:?}");
}

#[test]
fn a_broken_memory_line_is_skipped_not_fatal() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".mantra")).unwrap();
    std::fs::write(root.join(".mantra/renames.jsonl"), "{not json\n").unwrap();
    let r = mantra(root, &COORDINATED_JSON);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(result(&r.stdout)["suggestions"].as_array().unwrap().len(), 3);
}

#[test]
fn a_configured_model_reviews_the_candidates_and_the_engine_checks_its_answer() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    // Keep the getter under another name, drop the rest, add a method, and add a name that does not exist.
    let server = ScriptedServer::start([reply_text(
        "```json\n{\"keep\": [{\"id\": 2, \"new\": \"getCreditPeriodDays\"}], \"add\": [{\"kind\": \"method\", \"old\": \"isDomestic\", \"new\": \"isLocal\", \"why\": \"test\"}, {\"kind\": \"field\", \"old\": \"noSuchField\", \"new\": \"x\"}]}\n```",
    )]);
    let env = server.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = mantra_env(root, &COORDINATED_JSON, &env);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    server.assert_done();
    let prompt = server.requests()[0].raw_body.clone();
    assert!(
        prompt.contains("getPaymentTermsDays -> getCreditDays") && prompt.contains("DEFAULT_PAYMENT_TERMS_DAYS"),
        "{prompt}"
    );
    let data = result(&r.stdout);
    let got: Vec<(String, String, String)> = data["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["old"].as_str().unwrap().into(),
                s["new"].as_str().unwrap().into(),
                s["relation"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("getPaymentTermsDays".to_string(), "getCreditPeriodDays".to_string(), "accessor".to_string()),
            ("isDomestic".to_string(), "isLocal".to_string(), "model".to_string()),
        ]
    );
    // `--llm none` keeps the model out.
    let mut none = COORDINATED_JSON.to_vec();
    none.extend(["--llm", "none"]);
    let r = mantra_env(root, &none, &env);
    assert_eq!(result(&r.stdout)["suggestions"].as_array().unwrap().len(), 3, "{}", r.stdout);
}

/// The coordinated-rename benchmark's measure (`cargo bench --bench corename`), held as floors a
/// regression cannot pass: identification F1 per half of the development oracle.
#[test]
fn coordinated_rename_floors_on_the_oracle() {
    use mantra::plan::corename::oracle::{self, Totals};
    let shared = mantra::dataset::shared_data_dir().expect("shared data");
    let cases = oracle::load(&shared.join("refactoring-oracle")).expect("oracle");
    let halves = mantra::detect::oracle::Halves::read(&crate::harness::project_root().join("eval/detect/halves.txt"))
        .expect("halves");
    let (mut a, mut b) = (Totals::default(), Totals::default());
    for case in &cases {
        let o = oracle::run(case);
        if halves.a.contains(&case.project) { a.add(&o) } else { b.add(&o) }
    }
    assert!(a.cases + b.cases >= 70, "{} cases", a.cases + b.cases);
    assert!(a.identification.f1() >= 0.55, "half A: {}", a.line());
    assert!(b.identification.f1() >= 0.27, "half B: {}", b.line());
    assert!(a.exact.f1() >= 0.33 && b.exact.f1() >= 0.20, "A: {}\nB: {}", a.line(), b.line());
}

/// A digit appended to the old name tells this declaration from another: nothing is proposed
/// with it, and the note says why.
#[test]
fn an_appended_digit_proposes_no_coordinated_rename_and_says_why() {
    let dir = copy_fixture("demo");
    let args = COORDINATED_JSON.map(|a| if a == "creditDays" { "paymentTermsDays2" } else { a });
    let r = mantra(dir.path(), &args);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let data = result(&r.stdout);
    assert_eq!(data["suggestions"].as_array().map(Vec::len), Some(0), "{data}");
    assert!(r.stdout.contains("appends a digit to `paymentTermsDays`"), "{}", r.stdout);
}
