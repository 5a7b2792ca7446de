//! Rename of variables, parameters, fields and classes.

use crate::engine::rename::element::{Narrowing, declarations, narrow};
use crate::engine::rename::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::java::project::tests::project;

/// Renames the one declaration named `old` of `kind` in `file` to `new`: the new texts.
fn run(
    files: &[(&str, &str)],
    file: &str,
    old: &str,
    kind: Kind,
    new: &str,
) -> Result<BTreeMap<PathBuf, String>, Refusal> {
    let (_d, p) = project(files);
    p.load_all();
    let f = p.file_id(std::path::Path::new(file)).expect("file");
    let found = narrow(&p, declarations(&p, f, old), &Narrowing { kind: Some(kind), ..Narrowing::default() });
    assert_eq!(found.len(), 1, "one {kind} named {old}");
    let changes = rename(&p, found[0], new)?;
    let mut out = changes.render().expect("edits apply");
    for (path, c) in &changes.files {
        if let crate::engine::FileChange::Delete { .. } = c {
            out.insert(path.clone(), "<deleted>".into());
        }
    }
    Ok(out)
}

fn text(out: &BTreeMap<PathBuf, String>, path: &str) -> String {
    out.get(std::path::Path::new(path)).unwrap_or_else(|| panic!("{path} not touched: {out:#?}")).clone()
}

const SHOP: &str = "package a;\npublic class Shop {\n  private int count;\n  static final int LIMIT = 3;\n  \
    Shop(int count) { this.count = count; }\n  int next(int step) {\n    int total = count + step;\n    \
    Runnable r = () -> { int x = total; };\n    for (int i = 0; i < LIMIT; i++) { total += i; }\n    \
    return total;\n  }\n  int other() { int total = 2; return total; }\n}\n";

#[test]
fn a_local_is_renamed_in_its_scope_only() {
    let (_d, p) = project(&[("src/a/Shop.java", SHOP)]);
    p.load_all();
    let f = p.file_id(std::path::Path::new("src/a/Shop.java")).unwrap();
    // Two locals named `total`: the method tells them apart.
    assert_eq!(narrow(&p, declarations(&p, f, "total"), &Narrowing::default()).len(), 2);
    let found =
        narrow(&p, declarations(&p, f, "total"), &Narrowing { method: Some("next".into()), ..Narrowing::default() });
    assert_eq!(found.len(), 1);
    let changes = rename(&p, found[0], "sum").unwrap();
    let t = changes.render().unwrap()[std::path::Path::new("src/a/Shop.java")].clone();
    assert!(t.contains("int sum = count + step;"), "{t}");
    assert!(t.contains("int x = sum;"), "{t}");
    assert!(t.contains("sum += i;"), "{t}");
    assert!(t.contains("return sum;\n  }\n  int other() { int total = 2; return total; }"), "{t}");
}

#[test]
fn a_parameter_that_would_hide_a_field_qualifies_the_field() {
    let out = run(&[("src/a/Shop.java", SHOP)], "src/a/Shop.java", "step", Kind::Parameter, "count").unwrap();
    let t = text(&out, "src/a/Shop.java");
    assert!(t.contains("int next(int count) {\n    int total = this.count + count;"), "{t}");
}

#[test]
fn a_variable_clash_is_refused_with_its_line() {
    let r = run(&[("src/a/Shop.java", SHOP)], "src/a/Shop.java", "step", Kind::Parameter, "total").unwrap_err();
    assert_eq!(r.reason, Reason::NameClash);
    assert!(r.message.contains("Shop.java:7"), "{}", r.message);
}

#[test]
fn a_field_keeps_the_constructor_pattern_and_renames_accesses() {
    let out = run(&[("src/a/Shop.java", SHOP)], "src/a/Shop.java", "count", Kind::Field, "stock").unwrap();
    let t = text(&out, "src/a/Shop.java");
    assert!(t.contains("private int stock;"), "{t}");
    assert!(t.contains("Shop(int count) { this.stock = count; }"), "{t}");
    assert!(t.contains("int total = stock + step;"), "{t}");
}

#[test]
fn a_field_renamed_to_a_parameter_name_is_qualified() {
    let out = run(&[("src/a/Shop.java", SHOP)], "src/a/Shop.java", "count", Kind::Field, "step").unwrap();
    let t = text(&out, "src/a/Shop.java");
    assert!(t.contains("int total = this.step + step;"), "{t}");
}

#[test]
fn a_static_field_is_renamed_in_other_files_and_static_imports() {
    let files = [
        ("src/a/Shop.java", SHOP),
        (
            "src/b/Use.java",
            "package b;\nimport a.Shop;\nimport static a.Shop.LIMIT;\nclass Use {\n  int f() { return Shop.LIMIT + LIMIT + a.Shop.LIMIT; }\n  int LIMIT() { return 1; }\n}\n",
        ),
    ];
    let out = run(&files, "src/a/Shop.java", "LIMIT", Kind::Field, "MAX").unwrap();
    let u = text(&out, "src/b/Use.java");
    assert!(u.contains("import static a.Shop.MAX;"), "{u}");
    assert!(u.contains("return Shop.MAX + MAX + a.Shop.MAX;"), "{u}");
    assert!(u.contains("int LIMIT() { return 1; }"), "{u}");
}

#[test]
fn a_field_clash_in_the_hierarchy_is_refused() {
    let files = [
        ("src/a/Shop.java", SHOP),
        ("src/a/Big.java", "package a;\nclass Big extends Shop {\n  int stock;\n  Big() { super(1); }\n}\n"),
    ];
    let r = run(&files, "src/a/Shop.java", "count", Kind::Field, "stock").unwrap_err();
    assert_eq!(r.reason, Reason::NameClash, "{}", r.message);
}

#[test]
fn a_class_rename_renames_references_imports_constructors_and_the_file() {
    let files = [
        ("src/a/Shop.java", SHOP),
        (
            "src/b/Use.java",
            "package b;\nimport a.Shop;\nclass Use {\n  Shop s = new Shop(1);\n  java.util.List<Shop> all;\n  int f() { return Shop.LIMIT + a.Shop.LIMIT; }\n  String shop = \"Shop\";\n}\n",
        ),
    ];
    let out = run(&files, "src/a/Shop.java", "Shop", Kind::Class, "Store").unwrap();
    assert_eq!(text(&out, "src/a/Shop.java"), "<deleted>");
    let s = text(&out, "src/a/Store.java");
    assert!(s.contains("public class Store {"), "{s}");
    assert!(s.contains("  Store(int count) {"), "{s}");
    let u = text(&out, "src/b/Use.java");
    assert!(u.contains("import a.Store;"), "{u}");
    assert!(u.contains("Store s = new Store(1);"), "{u}");
    assert!(u.contains("java.util.List<Store> all;"), "{u}");
    assert!(u.contains("return Store.LIMIT + a.Store.LIMIT;"), "{u}");
    assert!(u.contains("String shop = \"Shop\";"), "strings are left alone: {u}");
}

#[test]
fn a_class_rename_to_an_existing_type_is_refused() {
    let files = [("src/a/Shop.java", SHOP), ("src/a/Store.java", "package a;\nclass Store {}\n")];
    let r = run(&files, "src/a/Shop.java", "Shop", Kind::Class, "Store").unwrap_err();
    assert_eq!(r.reason, Reason::TypeNameClash, "{}", r.message);
    let r = run(&[("src/a/Shop.java", SHOP)], "src/a/Shop.java", "Shop", Kind::Class, "String").unwrap_err();
    assert_eq!(r.reason, Reason::TypeNameClash, "{}", r.message);
}

#[test]
fn a_nested_class_keeps_its_file() {
    let files = [(
        "src/a/Outer.java",
        "package a;\nclass Outer {\n  static class In { In() {} }\n  Outer.In make() { return new In(); }\n}\n",
    )];
    let out = run(&files, "src/a/Outer.java", "In", Kind::Class, "Part").unwrap();
    let t = text(&out, "src/a/Outer.java");
    assert!(t.contains("static class Part { Part() {} }"), "{t}");
    assert!(t.contains("Outer.Part make() { return new Part(); }"), "{t}");
}

#[test]
fn a_local_is_not_renamed_where_an_anonymous_class_field_or_another_lambda_shadows_it() {
    let src = "package a;\nclass Shadow {\n  int f() {\n    int x = 1;\n    Object o = new Object() {\n      int x = 2;\n      public int hashCode() { return x; }\n    };\n    Runnable r = () -> System.out.println(x);\n    return x;\n  }\n  java.util.function.IntUnaryOperator g() { return x -> x + 1; }\n}\n";
    // Three declarations named `x`: the local, the anonymous class's field, another method's
    // lambda parameter; the line picks the local.
    let (_d, p) = project(&[("src/a/Shadow.java", src)]);
    p.load_all();
    let f = p.file_id(std::path::Path::new("src/a/Shadow.java")).unwrap();
    let found = narrow(
        &p,
        declarations(&p, f, "x"),
        &Narrowing { line: Some(4), kind: Some(Kind::Variable), ..Narrowing::default() },
    );
    assert_eq!(found.len(), 1, "{found:?}");
    let t = rename(&p, found[0], "count").unwrap().render().unwrap()[std::path::Path::new("src/a/Shadow.java")].clone();
    assert!(t.contains("int count = 1;"), "{t}");
    assert!(t.contains("int x = 2;\n      public int hashCode() { return x; }"), "{t}");
    assert!(t.contains("System.out.println(count);"), "{t}");
    assert!(t.contains("return count;\n  }"), "{t}");
    assert!(t.contains("return x -> x + 1;"), "{t}");
}

#[test]
fn an_enum_constant_is_renamed_in_switch_labels_and_qualified_uses() {
    let files = [
        ("src/a/Color.java", "package a;\npublic enum Color { RED, GREEN }\n"),
        (
            "src/b/Paint.java",
            "package b;\nimport a.Color;\nclass Paint {\n  int f(Color c) {\n    switch (c) {\n      case RED: return 1;\n      default: return c == Color.RED ? 2 : 3;\n    }\n  }\n}\n",
        ),
    ];
    let out = run(&files, "src/a/Color.java", "RED", Kind::Field, "CRIMSON").unwrap();
    assert!(text(&out, "src/a/Color.java").contains("{ CRIMSON, GREEN }"));
    let t = text(&out, "src/b/Paint.java");
    assert!(t.contains("case CRIMSON: return 1;"), "{t}");
    assert!(t.contains("c == Color.CRIMSON ?"), "{t}");
}

#[test]
fn every_refusal_has_its_reason() {
    let shop = [("src/a/Shop.java", SHOP)];
    let r = run(&shop, "src/a/Shop.java", "count", Kind::Field, "count").unwrap_err();
    assert_eq!(r.reason, Reason::SameName);
    let r = run(&shop, "src/a/Shop.java", "count", Kind::Field, "9lives").unwrap_err();
    assert_eq!(r.reason, Reason::InvalidName);
    let r = run(&shop, "src/a/Shop.java", "count", Kind::Field, "int").unwrap_err();
    assert_eq!(r.reason, Reason::InvalidName);
    // An inner class reads the outer field `limit`; a parameter named `limit` around it would hide it.
    let inner = "package a;\nclass Outer {\n  int limit = 3;\n  int f(int max) {\n    class Local { int g() { return limit; } }\n    return max + new Local().g();\n  }\n}\n";
    let r = run(&[("src/a/Outer.java", inner)], "src/a/Outer.java", "max", Kind::Parameter, "limit").unwrap_err();
    assert_eq!(r.reason, Reason::NameCapture, "{}", r.message);
    assert!(r.message.contains("Outer.java:5"), "{}", r.message);
    let record = "package a;\nrecord Point(int x, int y) {}\n";
    let r = run(&[("src/a/Point.java", record)], "src/a/Point.java", "x", Kind::Field, "left").unwrap_err();
    assert_eq!(r.reason, Reason::RecordAccessor);
    // `make().count` cannot be typed here: the access is listed, not guessed.
    let files = [
        ("src/a/Box.java", "package a;\npublic class Box {\n  public int count;\n}\n"),
        (
            "src/a/Use.java",
            "package a;\nclass Use {\n  Box make() { return new Box(); }\n  int f() { return make().count; }\n}\n",
        ),
    ];
    let r = run(&files, "src/a/Box.java", "count", Kind::Field, "size").unwrap_err();
    assert_eq!(r.reason, Reason::UnresolvedMember, "{}", r.message);
    assert!(r.message.contains("Use.java:4"), "{}", r.message);
    let broken = "package a;\nclass Broken {\n  int f() { int x = 1; return x +; }\n}\n";
    let r = run(&[("src/a/Broken.java", broken)], "src/a/Broken.java", "x", Kind::Variable, "y").unwrap_err();
    assert_eq!(r.reason, Reason::SyntaxError, "{}", r.message);
}

#[test]
fn a_field_read_through_a_typed_receiver_in_another_class_is_renamed() {
    let files = [
        ("src/a/Box.java", "package a;\npublic class Box {\n  public int count;\n  Box next;\n}\n"),
        (
            "src/a/Use.java",
            "package a;\nclass Use {\n  Box box = new Box();\n  int f(Box b) { Box local = b; return b.count + box.count + local.next.count + this.box.count; }\n  int g(Other o) { return o.count; }\n}\nclass Other { int count; }\n",
        ),
    ];
    let out = run(&files, "src/a/Box.java", "count", Kind::Field, "size").unwrap();
    let t = text(&out, "src/a/Use.java");
    assert!(t.contains("return b.size + box.size + local.next.size + this.box.size;"), "{t}");
    assert!(t.contains("int g(Other o) { return o.count; }\n}\nclass Other { int count; }"), "{t}");
}

#[test]
fn javadoc_references_follow_class_and_field_renames() {
    let files = [
        (
            "src/a/Shop.java",
            "package a;\n/** Sells; see {@link Shop#count} and {@link #LIMIT}. */\npublic class Shop {\n  /** At most {@link #LIMIT}; the {@linkplain Shop shop} counts. */\n  int count;\n  static final int LIMIT = 3;\n}\n",
        ),
        (
            "src/b/Use.java",
            "package b;\nimport a.Shop;\n/**\n * Uses {@link Shop}, {@link a.Shop#count}.\n * @see Shop\n * @see ShopKeeper\n */\nclass Use { Shop s; }\n",
        ),
    ];
    let out = run(&files, "src/a/Shop.java", "Shop", Kind::Class, "Store").unwrap();
    let s = text(&out, "src/a/Store.java");
    assert!(s.contains("see {@link Store#count} and {@link #LIMIT}"), "{s}");
    assert!(s.contains("{@linkplain Store shop}"), "{s}");
    let u = text(&out, "src/b/Use.java");
    assert!(u.contains("Uses {@link Store}, {@link a.Store#count}.\n * @see Store\n * @see ShopKeeper\n"), "{u}");
    let out = run(&files, "src/a/Shop.java", "LIMIT", Kind::Field, "MAX").unwrap();
    let s = text(&out, "src/a/Shop.java");
    assert!(s.contains("{@link Shop#count} and {@link #MAX}") && s.contains("At most {@link #MAX};"), "{s}");
    let out = run(&files, "src/a/Shop.java", "count", Kind::Field, "stock").unwrap();
    assert!(text(&out, "src/b/Use.java").contains("{@link a.Shop#stock}"));
    assert!(text(&out, "src/a/Shop.java").contains("see {@link Shop#stock}"));
}
