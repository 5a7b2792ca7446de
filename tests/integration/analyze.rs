//! `mantra analyze` on temporary projects: every kind of bad target with its exit code and message,
//! and a successful analysis of a small Maven-layout project.

use std::path::Path;

use crate::harness::{Run, mantra};

/// A small Maven project: a class with overloads, a constructor, a nested class, an enum, an interface
/// with a default method, a record, and a caller in another package.
fn maven_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "pom.xml", "<project><modelVersion>4.0.0</modelVersion></project>\n");
    write(
        dir.path(),
        "src/main/java/shop/Cart.java",
        "package shop;\n\nimport java.util.ArrayList;\nimport java.util.List;\n\n\
         public class Cart extends Container implements Priced {\n    private final List<Item> items = new ArrayList<>();\n\n    \
         public Cart() {}\n    public Cart(Item first) { this(); add(first); }\n\n    \
         /** Adds one item. */\n    public void add(Item item) {\n        items.add(item);\n        touch();\n    }\n\n    \
         public void add(String name, int cents) {\n        add(new Item(name, cents));\n    }\n\n    \
         public int total() {\n        int sum = 0;\n        for (Item i : items) { sum += i.cents(); }\n        return sum;\n    }\n\n    \
         public static class Line { int qty() { return 1; } }\n\n    enum Kind { FOOD, TOOL { int tax() { return 2; } }; int tax() { return 1; } }\n}\n",
    );
    write(
        dir.path(),
        "src/main/java/shop/Container.java",
        "package shop;\n\npublic abstract class Container {\n    protected void touch() {}\n}\n",
    );
    write(
        dir.path(),
        "src/main/java/shop/Priced.java",
        "package shop;\n\npublic interface Priced {\n    int total();\n    default boolean free() { return total() == 0; }\n}\n",
    );
    write(
        dir.path(),
        "src/main/java/shop/Item.java",
        "package shop;\n\npublic record Item(String name, int cents) {}\n",
    );
    write(
        dir.path(),
        "src/main/java/app/Main.java",
        "package app;\n\nimport shop.Cart;\n\npublic class Main {\n    public static void main(String[] args) {\n        \
         Cart cart = new Cart();\n        cart.add(\"tea\", 300);\n        System.out.println(cart.total());\n    }\n}\n",
    );
    write(
        dir.path(),
        "src/test/java/shop/CartTest.java",
        "package shop;\n\npublic class CartTest {\n    void broken( {\n}\n",
    );
    dir
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

fn analyze(root: &Path, target: &str) -> Run {
    mantra(root, &["analyze", target])
}

#[test]
fn analyzes_a_method_with_callers_callees_and_hierarchy() {
    let dir = maven_project();
    let run = analyze(dir.path(), "src/main/java/shop/Cart.java:add(String,int)");
    assert_eq!(run.code, 0, "{run:?}");
    let out = &run.stdout;
    assert!(out.contains("== Method shop.Cart#add(String, int)"), "{out}");
    assert!(out.contains("add(new Item(name, cents));"), "{out}");
    assert!(out.contains("public class Cart extends Container implements Priced"), "{out}");
    assert!(out.contains("private final List<Item> items"), "{out}");
    assert!(out.contains("-> shop.Cart#add(Item)"), "{out}");
    assert!(out.contains("items.add(item);"), "callee code is shown: {out}");
    assert!(out.contains("<- app.Main#main(String[])"), "{out}");
    assert!(out.contains("cart.add(\"tea\", 300)"), "{out}");
    assert!(out.contains("Supertypes:    shop.Container"), "{out}");
    assert!(out.contains("Build system:  Maven"), "{out}");
    // the test file's syntax error does not fail the command, it warns
    assert!(run.stderr.contains("warning:") && run.stderr.contains("CartTest.java:4"), "{}", run.stderr);
}

#[test]
fn json_analysis_lists_unresolved_calls_and_overrides() {
    let dir = maven_project();
    let run = mantra(dir.path(), &["--json", "analyze", "src/main/java/shop/Cart.java:total"]);
    assert_eq!(run.code, 0, "{run:?}");
    let line = run.stdout.lines().find(|l| l.contains("\"kind\":\"analysis\"")).expect("analysis event");
    let v: serde_json::Value = serde_json::from_str(line).expect("json");
    let data = &v["data"];
    assert_eq!(data["target"]["signature"], "total()");
    assert_eq!(data["hierarchy"]["overrides"][0]["class"], "shop.Priced");
    let callers: Vec<&str> = data["callers"]
        .as_array()
        .expect("callers")
        .iter()
        .map(|c| c["method"]["signature"].as_str().unwrap_or(""))
        .collect();
    // static dispatch: `Priced.free()` calls `Priced.total()`, which this method overrides (listed above)
    assert_eq!(callers, ["main(String[])"]);
    // `i.cents()` is a record accessor the source does not declare: unresolved, not guessed
    let unresolved = data["unresolved_calls"].as_array().expect("unresolved");
    assert_eq!(unresolved[0]["call"]["text"], "i.cents()");
    assert_eq!(data["project"]["files"], 6);
}

#[test]
fn targets_in_every_form() {
    let dir = maven_project();
    let cases = [
        ("src/main/java/shop/Cart.java:<init>(Item)", "== Method shop.Cart#Cart(Item)"),
        ("src/main/java/shop/Cart.java:Line#qty", "== Method shop.Cart.Line#qty()"),
        ("src/main/java/shop/Cart.java:Kind$1#tax", "== Method shop.Cart.Kind$1#tax()"),
        ("src/main/java/shop/Priced.java:free", "== Method shop.Priced#free()"),
        ("src/main/java/shop/Cart.java:25", "== Method shop.Cart#total()"),
    ];
    for (target, expected) in cases {
        let run = analyze(dir.path(), target);
        assert_eq!(run.code, 0, "{target}: {run:?}");
        assert!(run.stdout.contains(expected), "{target}: {}", run.stdout);
    }
    // relative to the current directory, not only to the repository root
    let run = mantra(&dir.path().join("src/main/java/shop"), &["--repo", "../../../..", "analyze", "Cart.java:total"]);
    assert_eq!(run.code, 0, "{run:?}");
}

#[test]
fn project_summary_alone() {
    let dir = maven_project();
    let run = mantra(dir.path(), &["analyze", "--project"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("Files: 6 (1 test)"), "{}", run.stdout);
    assert!(run.stdout.contains("shop  (7 classes, 5 files)"), "{}", run.stdout);
    assert!(!run.stdout.contains("== Method"), "{}", run.stdout);
}

#[test]
fn missing_file_is_target_not_found() {
    let dir = maven_project();
    let run = analyze(dir.path(), "src/main/java/shop/Nope.java:add");
    assert_eq!(run.code, 3, "{run:?}");
    assert!(run.stderr.contains("no such file: src/main/java/shop/Nope.java"), "{}", run.stderr);
    assert!(run.stderr.contains("help:"), "{}", run.stderr);
}

#[test]
fn directory_non_java_and_outside_files_are_usage_errors() {
    let dir = maven_project();
    let run = analyze(dir.path(), "src/main/java/shop:add");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("is a directory") && run.stderr.contains("help:"), "{}", run.stderr);

    let run = analyze(dir.path(), "pom.xml:add");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("pom.xml is not a .java file"), "{}", run.stderr);

    let outside = tempfile::tempdir().expect("tempdir");
    write(outside.path(), "Other.java", "class Other { void f() {} }\n");
    let path = outside.path().join("Other.java");
    let run = analyze(dir.path(), &format!("{}:f", path.display()));
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("is outside the repository") && run.stderr.contains("--repo"), "{}", run.stderr);

    let run = analyze(dir.path(), "src/main/java/shop/Cart.java");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("malformed target"), "{}", run.stderr);
}

#[test]
fn non_utf8_file_is_invalid_input() {
    let dir = maven_project();
    std::fs::write(dir.path().join("src/main/java/shop/Latin.java"), b"class Latin {\n // caf\xe9\n void f() {} }\n")
        .expect("write");
    let run = analyze(dir.path(), "src/main/java/shop/Latin.java:f");
    assert_eq!(run.code, 5, "{run:?}");
    assert!(run.stderr.contains("not UTF-8") && run.stderr.contains("line 2"), "{}", run.stderr);
}

#[test]
fn ambiguous_target_lists_candidates() {
    let dir = maven_project();
    let run = analyze(dir.path(), "src/main/java/shop/Cart.java:add");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("`add` is ambiguous"), "{}", run.stderr);
    assert!(run.stderr.contains("Cart#add(Item) (line 13)"), "{}", run.stderr);
    assert!(run.stderr.contains("Cart#add(String, int) (line 18)"), "{}", run.stderr);
    assert!(run.stderr.contains("add(int,String)") || run.stderr.contains("parameter types"), "{}", run.stderr);
}

#[test]
fn unknown_method_names_the_closest() {
    let dir = maven_project();
    let run = analyze(dir.path(), "src/main/java/shop/Cart.java:totl");
    assert_eq!(run.code, 3, "{run:?}");
    assert!(run.stderr.contains("no method `totl`"), "{}", run.stderr);
    assert!(run.stderr.contains("closest: Cart#total() (line 22)"), "{}", run.stderr);
}

#[test]
fn syntax_error_in_the_target_file_is_invalid_input() {
    let dir = maven_project();
    let run = analyze(dir.path(), "src/test/java/shop/CartTest.java:broken");
    assert_eq!(run.code, 5, "{run:?}");
    assert!(run.stderr.contains("syntax error at line 4"), "{}", run.stderr);
    assert!(run.stderr.contains("void broken( {"), "{}", run.stderr);
}

#[test]
fn repo_without_build_file_and_a_large_generated_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut big = String::from("package gen;\n\npublic class Big {\n");
    for i in 0..4000 {
        big.push_str(&format!(
            "    public int m{i}(int x) {{\n        int y = x + {i};\n        return y * 2;\n    }}\n\n"
        ));
    }
    big.push_str("    public int last() { return m3999(1); }\n}\n");
    assert!(big.lines().count() > 20_000);
    write(dir.path(), "lib/gen/Big.java", &big);
    let run = analyze(dir.path(), "lib/gen/Big.java:last");
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("-> gen.Big#m3999(int)"), "{}", run.stdout);
    assert!(run.stdout.contains("Build system:  none (javac)"), "{}", run.stdout);
    let run = analyze(dir.path(), "lib/gen/Big.java:m1234");
    assert_eq!(run.code, 0, "{run:?}");
}
