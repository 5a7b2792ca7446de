//! `mantra suggest`: the planted opportunities of the demo project are found in the top 10 of
//! their file with a spec the engine applies; the JSON contract; bad input; the recall floors on
//! the development oracle.

use crate::harness::{copy_fixture, mantra};

const P: &str = "src/main/java/com/acme/invoicing";

fn suggestions(stdout: &str) -> Vec<serde_json::Value> {
    let v = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["event"] == "result" && v["kind"] == "suggestions")
        .unwrap_or_else(|| panic!("no suggestions result in {stdout}"));
    v["data"]["suggestions"].as_array().unwrap().clone()
}

#[test]
fn planted_opportunities_are_in_the_top_ten_of_their_file_and_apply() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    // (fixture row, file, type, method as the target names it)
    let planted = [
        ("D1", "invoice/InvoiceService.java", "extract-method", "InvoiceService#issue(Invoice,LocalDate)"),
        ("D2", "report/AgingReport.java", "extract-method", "AgingReport#render(LocalDate,Currency)"),
        ("D3", "export/CsvInvoiceExporter.java", "extract-method", "CsvInvoiceExporter#export(Invoice,Writer)"),
        (
            "D4",
            "export/PlainTextInvoiceExporter.java",
            "extract-method",
            "PlainTextInvoiceExporter#export(Invoice,Writer)",
        ),
        ("D7", "tax/TaxCalculator.java", "inline-method", "TaxCalculator#ruleFor(TaxCategory)"),
        (
            "D8",
            "store/InMemoryInvoiceRepository.java",
            "inline-method",
            "InMemoryInvoiceRepository#requireIssued(Invoice)",
        ),
        (
            "D10",
            "export/PlainTextInvoiceExporter.java",
            "move-method",
            "PlainTextInvoiceExporter#formatAddressBlock(Customer)",
        ),
        ("D11", "invoice/InvoiceService.java", "move-method", "InvoiceService#nextNumberFor(LocalDate)"),
        ("D12", "report/RevenueReport.java", "move-method", "RevenueReport#sum(Collection,Currency)"),
    ];
    for (row, file, kind, method) in planted {
        let path = format!("{P}/{file}");
        let r = mantra(root, &["suggest", &path, "--limit", "10", "--json"]);
        assert_eq!(r.code, 0, "{row}: {}", r.stderr);
        let found = suggestions(&r.stdout);
        let target = format!("{path}:{method}");
        let hit = found.iter().find(|s| s["type"] == kind && s["target"] == target.as_str());
        let Some(hit) = hit else { panic!("{row}: {kind} {target} not in the top 10:\n{found:#?}") };
        for key in ["type", "target", "spec", "score", "reason"] {
            assert!(!hit[key].is_null(), "{row}: no {key} in {hit}");
        }
        assert_eq!(hit["spec"]["type"], kind, "{row}");
        // The target is one `mantra refactor` takes, and the spec is one the engine applies.
        let r = mantra(root, &["refactor", "-t", kind, &target, "--explain"]);
        assert_eq!(r.code, 0, "{row}: {}", r.stderr);
    }
    // D12's spec, as listed, written by `refactor` unverified: the same change the suggestion describes.
    let r = mantra(root, &["suggest", &format!("{P}/report/RevenueReport.java"), "-t", "move-method", "--json"]);
    let first = &suggestions(&r.stdout)[0];
    assert_eq!(
        first["spec"]["to"],
        serde_json::json!({"kind": "class", "name": "com.acme.invoicing.money.Money"}),
        "{first}"
    );
}

#[test]
fn a_whole_project_scan_ranks_and_limits() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let r = mantra(root, &["suggest", "--json", "--limit", "5"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let found = suggestions(&r.stdout);
    assert_eq!(found.len(), 5);
    let scores: Vec<f64> = found.iter().map(|s| s["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    let r = mantra(root, &["suggest", "--min-score", "0.7", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let found = suggestions(&r.stdout);
    assert!(!found.is_empty() && found.iter().all(|s| s["score"].as_f64().unwrap() >= 0.7), "{found:#?}");
    let r = mantra(root, &["suggest", "--min-score", "0.7"]);
    assert!(
        r.stdout.contains(&format!("{} of ", found.len())) && r.stdout.contains("opportunities ranked in 38 file(s)"),
        "{}",
        r.stdout
    );
}

#[test]
fn bad_paths_and_types_are_usage_errors() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    // A path that is not there is a target not found, as for every command.
    let r = mantra(root, &["suggest", "src/nowhere"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("no such file or folder"), "{}", r.stderr);
    let r = mantra(root, &["suggest", "pom.xml"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("holds no .java file"), "{}", r.stderr);
    let r = mantra(root, &["suggest", "-t", "move-and-rename-method"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("does not propose move-and-rename-method"), "{}", r.stderr);
    // Types separated by commas, as `batch --type` takes them.
    let r = mantra(root, &["suggest", "-t", "inline-method,move-and-rename-method"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("does not propose move-and-rename-method"), "{}", r.stderr);
    let r = mantra(root, &["suggest", "-t", "inline-method,move-method", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = mantra(root, &["suggest", "--min-score", "3"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = mantra(root, &["suggest", "--limit", "0"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--limit 0 would list nothing"), "{}", r.stderr);
    let r = mantra(root, &["suggest", "--apply-top", "0"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--apply-top 0 would apply nothing"), "{}", r.stderr);
    // A SARIF file that cannot be written is refused before the scan, which prints nothing.
    let r = mantra(root, &["suggest", "--sarif", "src"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("cannot write --sarif") && r.stderr.contains("it is a folder"), "{}", r.stderr);
    let r = mantra(root, &["suggest", "--sarif", "no/such/folder/out.sarif"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("its folder does not exist") && r.stdout.is_empty(), "{}\n{}", r.stdout, r.stderr);
}

/// The benchmark's measure (`cargo bench --bench suggest`) as floors: recall@10 per half.
#[test]
fn suggest_recall_floors_on_the_oracle() {
    use mantra::batch::suggest_eval::{self, Totals};
    let shared = mantra::dataset::shared_data_dir().expect("shared data");
    let commits = mantra::detect::oracle::load(&shared.join("refactoring-oracle")).expect("oracle");
    let halves = mantra::detect::oracle::Halves::read(&crate::harness::project_root().join("eval/detect/halves.txt"))
        .expect("halves");
    let (mut a, mut b) = (Totals::default(), Totals::default());
    for c in &commits {
        let o = suggest_eval::run(c);
        if halves.a.contains(&c.project) { a.add(&o) } else { b.add(&o) }
    }
    assert!(a.overall().r10() >= 0.04, "half A:\n{}", a.table());
    assert!(b.overall().r10() >= 0.06, "half B:\n{}", b.table());
}

#[test]
fn apply_top_verifies_and_writes_each_on_top_of_the_last() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let r = mantra(root, &["suggest", "--apply-top", "2", "--json"]);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let applied = r
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["event"] == "result" && v["kind"] == "applied-suggestions")
        .unwrap_or_else(|| panic!("no applied-suggestions result in {}", r.stdout))["data"]
        .clone();
    let applied = applied.as_array().unwrap();
    assert_eq!(applied.len(), 2);
    for a in applied {
        assert_eq!(a["verdict"], "accepted", "{a}");
        assert_eq!(a["applied"], true, "{a}");
    }
    // The first review's run of every test on the state it wrote is the second one's baseline.
    let cached: Vec<bool> = r
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["event"] == "stage" && v["name"] == "baseline")
        .map(|v| v["details"]["cached"] == true)
        .collect();
    assert_eq!(cached, [false, true], "{}", r.stdout);
    let tax = crate::harness::read(root, &format!("{P}/tax/TaxCalculator.java"));
    assert!(!tax.contains("TaxRule ruleFor("), "the top suggestion (inline ruleFor) was written:\n{tax}");
    crate::harness::maven_test(root);
}

/// Issue 18's compounds: a fragment that uses another class more than its own is listed as an
/// Extract And Move with the whole spec (the run, the new name, the destination), and applying it
/// verifies, writes the new method into the destination class and leaves a build whose tests pass.
#[test]
fn an_extract_and_move_is_listed_with_its_destination_and_applies() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let file = format!("{P}/invoice/InvoiceService.java");
    let r = mantra(root, &["suggest", &file, "-t", "extract-and-move-method", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let found = suggestions(&r.stdout);
    let first = found.first().unwrap_or_else(|| panic!("no extract-and-move suggestion:\n{}", r.stdout));
    assert!(found.iter().all(|s| s["type"] == "extract-and-move-method"), "{found:#?}");
    assert_eq!(first["spec"]["type"], "extract-and-move-method", "{first}");
    assert_eq!(first["spec"]["move_to"]["to"], serde_json::json!({"kind": "param", "name": "invoice"}), "{first}");
    let name = first["spec"]["extract"]["name"].as_str().unwrap().to_string();
    assert!(first["reason"].as_str().unwrap().contains("parameter `invoice`"), "{first}");

    let r = mantra(root, &["suggest", &file, "-t", "extract-and-move-method", "--apply-top", "1", "--json"]);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let invoice = crate::harness::read(root, &format!("{P}/invoice/Invoice.java"));
    assert!(invoice.contains(&format!(" {name}(")), "`{name}` was not moved into Invoice:\n{invoice}");
    let service = crate::harness::read(root, &file);
    assert!(service.contains(&format!("invoice.{name}(")), "the call was not rewritten:\n{service}");
    crate::harness::maven_test(root);
}

/// Issue 18's renames without a model: a method whose name contradicts its code (`has...`
/// returning a count) is listed as a Rename with the name of what it does, and applying it renames
/// the declaration and its callers, verified by the build, the tests and the detector.
#[test]
fn a_name_that_contradicts_the_code_is_suggested_as_a_rename_and_applies() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let file = format!("{P}/store/InMemoryInvoiceRepository.java");
    let text = crate::harness::read(root, &file);
    let text = text.replacen(
        "    public int size() {",
        "    int hasInvoices() {\n        return byNumber.size();\n    }\n\n    public int size() {\n        if (hasInvoices() == 0) {\n            return 0;\n        }",
        1,
    );
    std::fs::write(root.join(&file), text).unwrap();
    let r = mantra(root, &["suggest", "-t", "rename-method", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let found = suggestions(&r.stdout);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["target"], format!("{file}:InMemoryInvoiceRepository#hasInvoices()"), "{found:#?}");
    assert_eq!(found[0]["spec"], serde_json::json!({"type": "rename-method", "new_name": "countInvoices"}));
    assert!(found[0]["reason"].as_str().unwrap().contains("returns `int`, not a boolean"), "{}", found[0]);

    let r = mantra(root, &["suggest", "-t", "rename-method", "--apply-top", "1", "--json"]);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let after = crate::harness::read(root, &file);
    assert!(after.contains("int countInvoices()") && after.contains("if (countInvoices() == 0)"), "{after}");
    assert!(!after.contains("hasInvoices"), "{after}");
    crate::harness::maven_test(root);
}

/// Issue 18: picking from the list (`--pick`, answers on standard input as a terminal user
/// types them): a wrong answer is explained and asked again, and the picked suggestion is made
/// like `--apply-top`, verified and written.
#[test]
fn a_picked_suggestion_is_verified_and_written() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let file = format!("{P}/tax/TaxCalculator.java");
    let r = crate::harness::mantra_stdin(root, &["suggest", &file, "--limit", "3", "--pick"], "7\n1\n");
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("7 is not on the list: give numbers from 1 to"), "{}", r.stderr);
    assert!(r.stdout.contains("1 of 1 suggestion(s) verified and written"), "{}", r.stdout);
    let tax = crate::harness::read(root, &file);
    assert!(!tax.contains("TaxRule ruleFor("), "the first suggestion (inline ruleFor) was not written:\n{tax}");
    // Nothing picked, nothing written; --pick with --json is a usage error.
    let r = crate::harness::mantra_stdin(root, &["suggest", &file, "--pick"], "\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("verified and written"), "{}", r.stdout);
    let r = mantra(root, &["suggest", "--pick", "--json"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = mantra(root, &["suggest", "--keep-workspace"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("use it with --apply-top N or --pick"), "{}", r.stderr);
}

/// Applies a SARIF fix's replacements (1-based lines and character columns) to the files under `root`.
fn apply_sarif_fix(root: &std::path::Path, fix: &serde_json::Value) {
    for change in fix["artifactChanges"].as_array().unwrap() {
        let path = root.join(change["artifactLocation"]["uri"].as_str().unwrap());
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let offset = |line: u64, col: u64| -> usize {
            let start: usize = text.split_inclusive('\n').take(line as usize - 1).map(str::len).sum();
            let rest = &text[start..];
            start + rest.char_indices().nth(col as usize - 1).map_or(rest.len(), |(i, _)| i)
        };
        let mut reps: Vec<(usize, usize, String)> = change["replacements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let d = &r["deletedRegion"];
                let n = |k: &str| d[k].as_u64().unwrap();
                let (a, b) = (offset(n("startLine"), n("startColumn")), offset(n("endLine"), n("endColumn")));
                (a, b, r["insertedContent"]["text"].as_str().unwrap_or_default().to_string())
            })
            .collect();
        reps.sort_by_key(|r| std::cmp::Reverse(r.0));
        let mut out = text.clone();
        for (a, b, t) in reps {
            out.replace_range(a..b, &t);
        }
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, out).unwrap();
    }
}

#[test]
fn sarif_output_carries_each_suggestion_with_a_fix_that_builds() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let r = mantra(root, &["suggest", "--limit", "3", "--sarif", "out.sarif"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("out.sarif")).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    // Valid against the SARIF 2.1.0 schema (a copy in tests/data/sarif).
    let schema_path = crate::harness::project_root().join("tests/data/sarif/sarif-schema-2.1.0.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::draft4::new(&schema).expect("the SARIF schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{}: {e}", e.instance_path())).collect();
    assert!(errors.is_empty(), "the SARIF log breaks the schema:\n{}", errors.join("\n"));
    // The validator does catch a log that breaks it.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = serde_json::json!("severe");
    assert!(!validator.is_valid(&broken), "a result level outside the schema's enum passed");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "mantra");
    let rules: Vec<&str> =
        run["tool"]["driver"]["rules"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for res in results {
        let rule = res["ruleId"].as_str().unwrap();
        assert_eq!(rules[res["ruleIndex"].as_u64().unwrap() as usize], rule);
        assert!(!res["message"]["text"].as_str().unwrap().is_empty());
        let uri = res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
        assert!(root.join(uri).is_file(), "{uri}");
        assert!(res["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64().unwrap() >= 1);
    }
    // The top result's fix, applied as a dashboard would, is a change that builds and passes.
    let before = crate::harness::read(root, &format!("{P}/tax/TaxCalculator.java"));
    assert_eq!(results[0]["ruleId"], "inline-method", "{}", results[0]);
    apply_sarif_fix(root, &results[0]["fixes"][0]);
    let after = crate::harness::read(root, &format!("{P}/tax/TaxCalculator.java"));
    assert!(before.contains("ruleFor(") && !after.contains("ruleFor("), "{after}");
    crate::harness::maven_test(root);
    let r = mantra(root, &["suggest", "--sarif", "no/such/dir/out.sarif"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("cannot write"), "{}", r.stderr);
}

#[test]
fn shards_cover_every_file_exactly_once_and_merge_into_the_whole() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let whole = mantra(root, &["suggest", "--limit", "1000", "--json"]);
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    let mut all: Vec<String> =
        suggestions(&whole.stdout).iter().map(|s| s["target"].to_string() + &s["type"].to_string()).collect();
    let mut merged = Vec::new();
    let mut files = 0;
    for k in 1..=3 {
        let r = mantra(root, &["suggest", "--limit", "1000", "--json", "--shard", &format!("{k}/3")]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let result = r
            .stdout
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find(|v| v["kind"] == "suggestions")
            .unwrap();
        files += result["data"]["files"].as_u64().unwrap();
        merged.extend(suggestions(&r.stdout).iter().map(|s| s["target"].to_string() + &s["type"].to_string()));
    }
    let total = whole
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["kind"] == "suggestions")
        .unwrap()["data"]["files"]
        .as_u64()
        .unwrap();
    assert_eq!(files, total, "every file in exactly one shard");
    all.sort();
    merged.sort();
    assert_eq!(merged, all, "the shards' opportunities are the whole run's");
    for bad in ["0/3", "4/3", "x", "1/0"] {
        let r = mantra(root, &["suggest", "--shard", bad]);
        assert_eq!(r.code, 2, "{bad}: {}", r.stderr);
        assert!(r.stderr.contains("expected K/N"), "{}", r.stderr);
    }
}

/// A command as a POSIX shell splits it, for the single quotes `suggest` writes.
fn shell_words(command: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in command.chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            ' ' if !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

/// Each listed suggestion carries the `mantra refactor` command that makes exactly it: run as
/// printed, it previews the suggestion's own spec, copies of code written twice included (the
/// planner, asked afresh, may choose another fragment). `--copy` is checked like `--lines`.
#[test]
fn each_suggestion_names_the_command_that_makes_exactly_it() {
    let dir = copy_fixture("demo");
    let root = dir.path();
    let twice = format!("{P}/Twice.java");
    std::fs::write(
        root.join(&twice),
        "package com.acme.invoicing;\n\npublic class Twice {\n    private final StringBuilder out = new StringBuilder();\n\n    \
         public String first(String name) {\n        String label = name.trim();\n        \
         out.append(\"name: \").append(label).append('\\n');\n        \
         out.append(\"size: \").append(label.length()).append('\\n'); // and its size\n        return out.toString();\n    }\n\n    \
         public String second(String name) {\n        String label = name.trim();\n        \
         out.append(\"name: \").append(label).append('\\n');\n        \
         out.append(\"size: \").append(label.length()).append('\\n'); // and its size\n        out.append(\"done\\n\");\n        \
         return out.toString();\n    }\n}\n",
    )
    .unwrap();
    let r = mantra(root, &["suggest", "--limit", "100", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let found = suggestions(&r.stdout);
    assert!(found.iter().any(|s| s["spec"]["copies"].is_array()), "no suggestion with copies: {found:#?}");
    for s in &found {
        let command = s["command"].as_str().unwrap_or_else(|| panic!("no command in {s}"));
        let words = shell_words(command);
        assert_eq!(words[..2], ["mantra", "refactor"], "{command}");
        let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        args.push("--json");
        let run = mantra(root, &args);
        assert_eq!(run.code, 0, "{command}: {}", run.stderr);
        let result = run
            .stdout
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find(|v| v["kind"] == "refactoring")
            .unwrap_or_else(|| panic!("{command}: no refactoring result in {}", run.stdout));
        assert_eq!(result["data"]["spec"], s["spec"], "{command}");
    }
    let human = mantra(root, &["suggest", &twice]);
    assert!(
        human
            .stdout
            .contains(&format!("$ mantra refactor -t extract-method '{twice}:Twice#first(String)' --lines 7-9 --name"))
            && human.stdout.contains("--copy 14-16\n"),
        "{}",
        human.stdout
    );
    // The copy's trailing comment was the fragment's: it is in the new method, once.
    let first = format!("{twice}:Twice#first(String)");
    let extract = |name: &str, copy: &str| {
        mantra(root, &["refactor", "-t", "extract-method", &first, "--lines", "7-9", "--name", name, "--copy", copy])
    };
    let diff = extract("appendLabel", "14-16");
    assert_eq!(diff.code, 0, "{}", diff.stderr);
    assert!(diff.stdout.contains("+        appendLabel(name);\n         out.append(\"done"), "{}", diff.stdout);
    assert!(!diff.stdout.contains("appendLabel(name); //"), "{}", diff.stdout);
    for (bad, why) in [("14", "two line numbers"), ("16-14", "runs backwards"), ("0-3", "1 or more")] {
        let r = extract("n", bad);
        assert_eq!(r.code, 2, "--copy {bad}: {}", r.stderr);
        assert!(r.stderr.contains(&format!("--copy {bad}")) && r.stderr.contains(why), "--copy {bad}: {}", r.stderr);
    }
    let r = mantra(root, &["refactor", "-t", "inline-method", &first, "--copy", "14-16"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--copy does not apply to inline-method"), "{}", r.stderr);
}

/// With a model configured, `suggest` asks it to re-rank twice as many as it lists: the list
/// follows the model's order, leaves out what it left out, and takes the names it gives where
/// the engine applies them (the command under each carries the name); a name given to a
/// suggestion that creates no method is ignored. An answer that is not the JSON asked for leaves the heuristic
/// list, with a warning; `--llm none` keeps the model out.
#[test]
fn a_configured_model_reranks_and_names_the_suggestions() {
    use crate::llm_server::{ScriptedServer, reply_text};
    let dir = copy_fixture("demo");
    let root = dir.path();
    let plain = mantra(root, &["suggest", "--limit", "6", "--json"]);
    let heuristic = suggestions(&plain.stdout);
    assert_eq!(heuristic.len(), 6);
    let extract = heuristic.iter().position(|s| s["type"] == "extract-method").expect("an extraction in the top 6") + 1;
    let inline = heuristic.iter().position(|s| s["type"] == "inline-method").expect("an inline in the top 6") + 1;
    let answer = format!(
        "Here you go:\n```json\n{{\"ranking\": [{{\"id\": {extract}, \"name\": \"writeTotalsBlock\", \"why\": \"a whole paragraph\"}}, \
         {{\"id\": {inline}, \"name\": \"ignored\"}}, {{\"id\": {extract}}}, {{\"id\": 99}}]}}\n```"
    );
    let server = ScriptedServer::start([reply_text(&answer), reply_text("I would not change anything.")]);
    let env = server.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = crate::harness::mantra_env(root, &["suggest", "--limit", "3", "--json"], &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let prompt = server.requests()[0].raw_body.clone();
    // Six suggestions; after them, the methods whose names the model may give (numbered on).
    let listed = prompt.split("Methods whose names may not say").next().unwrap();
    assert!(listed.contains("6. ") && !listed.contains("7. ") && listed.contains("| "), "{prompt}");
    let got = suggestions(&r.stdout);
    assert_eq!(got.len(), 2, "{got:#?}");
    assert_eq!(got[0]["type"], "extract-method");
    assert_eq!(got[0]["spec"]["name"], "writeTotalsBlock");
    let reason = got[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("`writeTotalsBlock`") && reason.contains("ranked 1 by the model: a whole paragraph"),
        "{reason}"
    );
    assert!(got[0]["command"].as_str().unwrap().ends_with("--name writeTotalsBlock"), "{}", got[0]["command"]);
    assert_eq!(got[1]["type"], "inline-method");
    // Progress, as JSON events with --json, says what the model did.
    assert!(r.stdout.contains("the model left out 4 of the 6"), "{}", r.stdout);
    // The model's reply is no JSON: the heuristic list stands.
    let r = crate::harness::mantra_env(root, &["suggest", "--limit", "3", "--json"], &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("not the JSON object asked for; the heuristic ranking stands"), "{}", r.stdout);
    let targets = |v: &[serde_json::Value]| v.iter().map(|s| s["target"].clone()).collect::<Vec<_>>();
    assert_eq!(targets(&suggestions(&r.stdout)), targets(&heuristic[..3]));
    server.assert_done();
    let r = crate::harness::mantra_env(root, &["suggest", "--limit", "3", "--json", "--llm", "none"], &env);
    assert_eq!(targets(&suggestions(&r.stdout)), targets(&heuristic[..3]), "{}", r.stderr);
    // Asked for with no model configured: said, not silently ignored.
    let r = mantra(root, &["suggest", "--llm", "auto"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("no model is configured") && r.stderr.contains("llm.base_url"), "{}", r.stderr);
}

/// With a model, `suggest` also shows it the methods whose names say least about their code
/// (marked `name?`, after the suggestions): one it ranks with a name the engine applies becomes a
/// Rename Method suggestion, in the model's order, whose command makes it; one without a name, a
/// name that is no Java identifier, or one the engine refuses (an overload of the same arity) is not listed, and
/// progress says why. `--type` without rename-method shows it none.
#[test]
fn a_configured_model_names_the_methods_whose_names_say_nothing() {
    use crate::llm_server::{ScriptedServer, reply_text};
    let dir = copy_fixture("demo");
    let root = dir.path();
    // The first answer is no JSON: the prompt shows which number each method to name has.
    let probe = ScriptedServer::start([reply_text("no")]);
    let env = probe.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = crate::harness::mantra_env(root, &["suggest", "--limit", "3", "--json"], &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let prompt: serde_json::Value = serde_json::from_str(&probe.requests()[0].raw_body).unwrap();
    let prompt = prompt["messages"][0]["content"].as_str().unwrap().to_string();
    let id = |method: &str| -> usize {
        let line = prompt
            .lines()
            .find(|l| l.contains(" name? ") && l.contains(method))
            .unwrap_or_else(|| panic!("{method} is not offered for naming:\n{prompt}"));
        line.split('.').next().unwrap().trim().parse().unwrap()
    };
    let (do_it, proc, calc) =
        (id("InvoiceService#doIt(String)"), id("PaymentService#proc(String,Payment)"), id("AgingReport#calc("));
    assert!(prompt.contains("is only words any method may use") && prompt.contains("| "), "{prompt}");
    // The suggestions come first, numbered 1 to 6, the methods to name after them.
    assert!(do_it > 6 && proc > 6 && calc > 6, "{prompt}");
    let answer = format!(
        "{{\"ranking\": [{{\"id\": {do_it}, \"name\": \"cancel\", \"why\": \"it cancels the invoice\"}}, {{\"id\": 1}}, \
         {{\"id\": {proc}, \"name\": \"record payment\"}}, {{\"id\": {calc}}}, {{\"id\": {calc}, \"name\": \"summarize\"}}]}}"
    );
    let server = ScriptedServer::start([reply_text(&answer)]);
    let env = server.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = crate::harness::mantra_env(root, &["suggest", "--limit", "3", "--json"], &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let got = suggestions(&r.stdout);
    assert_eq!(got.len(), 2, "{got:#?}");
    assert_eq!(got[0]["type"], "rename-method");
    assert!(got[0]["target"].as_str().unwrap().ends_with("InvoiceService#doIt(String)"), "{}", got[0]["target"]);
    assert_eq!(got[0]["spec"]["new_name"], "cancel", "{:#?}", got[0]);
    let reason = got[0]["reason"].as_str().unwrap();
    assert!(reason.contains("the model names it `cancel`") && reason.contains("it cancels the invoice"), "{reason}");
    assert!(r.stdout.contains("`record payment`") && r.stdout.contains("not a Java method name"), "{}", r.stdout);
    assert!(r.stdout.contains("`summarize`") && r.stdout.contains("name_clash"), "{}", r.stdout);
    assert!(r.stdout.contains("AgingReport#calc(Invoice,LocalDate) to rename without a name"), "{}", r.stdout);
    server.assert_done();
    // The command under the suggestion makes exactly it.
    let command = got[0]["command"].as_str().unwrap();
    let words = shell_words(command);
    assert_eq!(words[..2], ["mantra", "refactor"], "{command}");
    let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    args.push("--json");
    let r = mantra(root, &args);
    assert_eq!(r.code, 0, "{command}: {}", r.stderr);
    assert!(r.stdout.contains("cancel("), "{}", r.stdout);
    // Only extractions asked for: no method is offered for naming.
    let probe = ScriptedServer::start([reply_text("no")]);
    let env = probe.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = crate::harness::mantra_env(root, &["suggest", "--limit", "3", "--type", "extract-method", "--json"], &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let body = &probe.requests()[0].raw_body;
    assert!(!body.contains(". name? ") && !body.contains("Methods whose names may not say"), "{body}");
}
