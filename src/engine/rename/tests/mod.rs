mod kinds;

use super::*;
use std::path::PathBuf;

use crate::java::project::tests::{project, type_named};

fn method_named(p: &Project, ty: &str, name: &str) -> MethodId {
    let t = type_named(p, ty);
    p.methods_of(t).into_iter().find(|&m| p.method(m).name == name).unwrap_or_else(|| panic!("no {ty}.{name}"))
}

/// Renames `ty.name` to `new` in a project of `files`; the new texts of the touched files.
fn rename(files: &[(&str, &str)], ty: &str, name: &str, new: &str) -> Result<BTreeMap<PathBuf, String>, Refusal> {
    let (_d, p) = project(files);
    let m = method_named(&p, ty, name);
    let changes = rename_method(&p, m, &RenameSpec { new_name: new.into() })?;
    Ok(changes.render().expect("edits apply"))
}

fn refusal(files: &[(&str, &str)], ty: &str, name: &str, new: &str) -> Refusal {
    match rename(files, ty, name, new) {
        Ok(out) => panic!("expected a refusal, got {out:#?}"),
        Err(r) => r,
    }
}

#[test]
fn renames_declaration_calls_references_and_javadoc_only() {
    let files = [
        (
            "src/main/java/a/Calc.java",
            "package a;\n/** Uses {@link #total(int)} and {@link Calc#total}. */\npublic class Calc {\n  \
             public int total(int x) { return x + 1; }\n  int twice(int x) { return total(total(x)); }\n  \
             class Inner { int f() { return total(2); } }\n  Runnable r() { return new Runnable() { public void run() { total(3); } }; }\n  \
             java.util.function.IntUnaryOperator op() { return this::total; }\n}\n",
        ),
        (
            "src/main/java/a/Sub.java",
            "package a;\npublic class Sub extends Calc {\n  int g() { return super.total(1) + this.total(2); }\n}\n",
        ),
        (
            "src/main/java/b/Other.java",
            "package b;\npublic class Other {\n  public int total(int x) { return x; }\n  \
             int use(a.Calc c, Other o, a.Sub s) { return c.total(1) + o.total(2) + s.total(3); }\n  \
             java.util.function.IntUnaryOperator ref(a.Calc c) { return c::total; }\n  \
             java.util.function.ToIntBiFunction<a.Calc, Integer> ref2() { return a.Calc::total; }\n}\n",
        ),
        (
            "src/test/java/a/CalcTest.java",
            "package a;\nclass CalcTest {\n  void t() { Calc c = new Calc(); c.total(1); }\n}\n",
        ),
    ];
    let out = rename(&files, "Calc", "total", "sum").expect("renamed");
    let calc = &out[&PathBuf::from("src/main/java/a/Calc.java")];
    assert_eq!(
        calc,
        "package a;\n/** Uses {@link #sum(int)} and {@link Calc#sum}. */\npublic class Calc {\n  \
         public int sum(int x) { return x + 1; }\n  int twice(int x) { return sum(sum(x)); }\n  \
         class Inner { int f() { return sum(2); } }\n  Runnable r() { return new Runnable() { public void run() { sum(3); } }; }\n  \
         java.util.function.IntUnaryOperator op() { return this::sum; }\n}\n"
    );
    assert_eq!(
        out[&PathBuf::from("src/main/java/a/Sub.java")],
        "package a;\npublic class Sub extends Calc {\n  int g() { return super.sum(1) + this.sum(2); }\n}\n"
    );
    // the trap: Other.total and o.total(2) stay
    assert_eq!(
        out[&PathBuf::from("src/main/java/b/Other.java")],
        "package b;\npublic class Other {\n  public int total(int x) { return x; }\n  \
         int use(a.Calc c, Other o, a.Sub s) { return c.sum(1) + o.total(2) + s.sum(3); }\n  \
         java.util.function.IntUnaryOperator ref(a.Calc c) { return c::sum; }\n  \
         java.util.function.ToIntBiFunction<a.Calc, Integer> ref2() { return a.Calc::sum; }\n}\n"
    );
    assert!(out[&PathBuf::from("src/test/java/a/CalcTest.java")].contains("c.sum(1)"));
}

#[test]
fn renames_the_whole_override_family() {
    let files = [
        ("a/Shape.java", "package a; public interface Shape { double area(); }"),
        ("a/Base.java", "package a; public abstract class Base implements Shape { }"),
        ("a/Square.java", "package a; public class Square extends Base { public double area() { return 4; } }"),
        (
            "a/Unit.java",
            "package a; class Unit extends Square { @Override public double area() { return super.area() / 4; } }",
        ),
        ("a/Circle.java", "package a; class Circle implements Shape { public double area() { return 3; } }"),
        // inherits area() from Plain, which implements Shape.area only in Mixed
        ("a/Plain.java", "package a; class Plain { public double area() { return 1; } }"),
        ("a/Mixed.java", "package a; class Mixed extends Plain implements Shape { }"),
        ("a/Use.java", "package a; class Use { double f(Shape s, Unit u) { return s.area() + u.area(); } }"),
    ];
    let out = rename(&files, "Unit", "area", "surface").expect("renamed");
    for file in ["Shape", "Square", "Unit", "Circle", "Plain", "Use"] {
        let text = &out[&PathBuf::from(format!("a/{file}.java"))];
        assert!(text.contains("surface()") && !text.contains("area"), "{file}: {text}");
    }
    assert!(!out.contains_key(&PathBuf::from("a/Mixed.java")));
}

#[test]
fn field_initializers_and_static_imports() {
    let files = [
        (
            "a/Util.java",
            "package a; public class Util { public static int dbl(int x) { return 2 * x; } \
             static final int TWO = dbl(1); static { dbl(3); } }",
        ),
        (
            "b/User.java",
            "package b; import static a.Util.dbl; class User { int v = dbl(2); int f() { return dbl(4) + a.Util.dbl(5); } }",
        ),
    ];
    let out = rename(&files, "Util", "dbl", "twice").expect("renamed");
    assert_eq!(
        out[&PathBuf::from("a/Util.java")],
        "package a; public class Util { public static int twice(int x) { return 2 * x; } \
         static final int TWO = twice(1); static { twice(3); } }"
    );
    assert_eq!(
        out[&PathBuf::from("b/User.java")],
        "package b; import static a.Util.twice; class User { int v = twice(2); int f() { return twice(4) + a.Util.twice(5); } }"
    );
}

#[test]
fn refuses_bad_names_and_constructors() {
    let files = [("A.java", "class A { A() {} void m() {} void n(int x) {} }")];
    assert_eq!(refusal(&files, "A", "m", "class").reason, "invalid_name");
    assert_eq!(refusal(&files, "A", "m", "2x").reason, "invalid_name");
    assert_eq!(refusal(&files, "A", "m", "a b").reason, "invalid_name");
    assert_eq!(refusal(&files, "A", "m", "m").reason, "same_name");
    assert_eq!(refusal(&files, "A", "A", "B").reason, "constructor");
    // a different arity is a harmless overload
    assert!(rename(&files, "A", "m", "n").is_ok());
}

#[test]
fn refuses_clashes_in_the_hierarchy() {
    let files = [
        ("a/Base.java", "package a; public class Base { public void go(int x) {} protected void stop(String s) {} }"),
        ("a/Mid.java", "package a; public class Mid extends Base { void run(int y) {} void walk(long z) {} }"),
        ("a/Leaf.java", "package a; class Leaf extends Mid { void jump(java.util.List<String> l) {} }"),
        ("a/Far.java", "package a; class Far extends Leaf { void hop(java.util.List<Integer> l) {} }"),
    ];
    let r = refusal(&files, "Mid", "run", "go");
    assert_eq!(r.reason, "name_clash");
    assert!(r.message.contains("`Base` already declares `go(int)` (a/Base.java:1)"), "{}", r.message);
    // same arity, other types: existing calls could be captured
    let r = refusal(&files, "Mid", "walk", "go");
    assert_eq!(r.reason, "name_clash");
    assert!(r.message.contains("as many arguments"), "{}", r.message);
    // a static method is inherited: a subclass's static `go()` would capture `Kid.make()`
    let statics = [
        ("a/Mom.java", "package a; class Mom { static int make() { return 1; } }"),
        (
            "a/Kid.java",
            "package a; class Kid extends Mom { static int go() { return 2; } int f() { return Kid.make(); } }",
        ),
    ];
    assert_eq!(refusal(&statics, "Mom", "make", "go").reason, "name_clash");
    // a clash in a subclass, generics erased
    assert_eq!(refusal(&files, "Leaf", "jump", "hop").reason, "name_clash");
    // would override Object.toString / equals
    assert_eq!(refusal(&files, "Mid", "run", "wait").reason, "name_clash");
    let files = [("A.java", "class A { String label() { return \"\"; } }")];
    assert_eq!(refusal(&files, "A", "label", "toString").reason, "name_clash");
}

#[test]
fn refuses_methods_overriding_outside_the_project() {
    let files = [
        (
            "a/Money.java",
            "package a; public class Money implements Comparable<Money> {\n  public int compareTo(Money o) { return 0; }\n  \
             public String toString() { return \"m\"; }\n  public int cents() { return 1; }\n}",
        ),
        ("a/Task.java", "package a; class Task implements Runnable { @Override public void run() {} void other() {} }"),
        ("a/Job.java", "package a; class Job extends org.lib.Base { void work() {} private void helper() {} }"),
        ("a/Hidden.java", "package a; class Hidden { @Override public String describe() { return \"\"; } }"),
    ];
    for (ty, name) in [("Money", "compareTo"), ("Money", "toString"), ("Task", "run"), ("Job", "work")] {
        let r = refusal(&files, ty, name, "renamed");
        assert_eq!(r.reason, "overrides_external", "{ty}.{name}: {}", r.message);
    }
    assert_eq!(refusal(&files, "Hidden", "describe", "renamed").reason, "overrides_external");
    assert!(rename(&files, "Money", "cents", "amountInCents").is_ok());
    assert!(rename(&files, "Job", "helper", "assist").is_ok(), "private methods override nothing");
    // a new name that would implement Runnable.run by accident
    assert_eq!(refusal(&files, "Task", "other", "run").reason, "name_clash");
}

#[test]
fn refuses_calls_it_cannot_resolve_but_ignores_outside_receivers() {
    let files = [
        ("a/Box.java", "package a; public class Box { public int size() { return 1; } }"),
        (
            "a/Use.java",
            "package a; import java.util.List; class Use {\n  int f(List<String> l, String s) { return l.size() + s.length(); }\n  \
             int g(Box b) { var x = b; return x.size(); }\n}",
        ),
    ];
    let r = refusal(&files, "Box", "size", "count");
    assert_eq!(r.reason, "unresolved_calls");
    assert!(r.message.contains("a/Use.java:3 `x.size()`"), "{}", r.message);
    assert!(!r.message.contains("l.size"), "{}", r.message);
    let files =
        [files[0], ("a/Use.java", "package a; class Use { int f(java.util.List<String> l) { return l.size(); } }")];
    let out = rename(&files, "Box", "size", "count").expect("external receivers are not ours");
    assert!(!out.contains_key(&PathBuf::from("a/Use.java")));
}

#[test]
fn refuses_when_an_unqualified_call_would_change_target() {
    // renaming Inner.f to g captures Outer.g's unqualified call inside Inner
    let files =
        [("a/Outer.java", "package a; class Outer { void g() {} class Inner { void f() {} void x() { g(); } } }")];
    let r = refusal(&files, "Outer.Inner", "f", "g");
    assert_eq!(r.reason, "name_clash");
    assert!(r.message.contains("`g()`"), "{}", r.message);
    // renaming Outer.h to k where Inner has its own k(): the call h() inside Inner would find Inner.k
    let files =
        [("a/Outer.java", "package a; class Outer { void h() {} class Inner { void k(int a) {} void x() { h(); } } }")];
    assert_eq!(refusal(&files, "Outer", "h", "k").reason, "name_clash");
}

/// A call written before the method it means (`total()` with no `total` anywhere) calls nothing
/// yet, so the rename that gives it one changes no meaning; where a supertype outside the project
/// or a static import could already supply that name, the call may mean something and is kept.
#[test]
fn a_call_that_binds_nowhere_yet_is_not_captured() {
    let files = [("a/Calc.java", "package a; class Calc { int sum() { return 1; } int f() { return total(); } }")];
    let out = rename(&files, "Calc", "sum", "total").expect("the call binds nowhere today");
    assert!(out[&PathBuf::from("a/Calc.java")].contains("int total() { return 1; }"));
    let external = [(
        "a/Calc.java",
        "package a; class Calc { int sum() { return 1; } class In extends java.util.Observable { int f() { return total(); } } }",
    )];
    assert_eq!(refusal(&external, "Calc", "sum", "total").reason, "name_clash");
    let imported = [(
        "a/Calc.java",
        "package a; import static java.lang.Math.*; class Calc { int sum() { return 1; } int f() { return total(); } }",
    )];
    assert_eq!(refusal(&imported, "Calc", "sum", "total").reason, "name_clash");
}

/// Only a whole name in a `@MethodSource` string is a reference: after a class and `#`, before a
/// parameter list, and not a longer name that starts alike, nor a string elsewhere.
#[test]
fn a_method_source_string_names_the_method_whole() {
    let text = r#"@DisplayName("a") @MethodSource(value = {"ab", "a", "x.Y#a(int)"}) @Tag("a") "#;
    let found: Vec<&str> = name_in_method_sources(text, "a").into_iter().map(|r| &text[r]).collect();
    assert_eq!(found, ["a", "a"]);
    let spans = name_in_method_sources(text, "a");
    assert_eq!(&text[spans[1].start - 4..spans[1].end + 1], "x.Y#a(");
    assert!(name_in_method_sources(r#"@MethodSource @Test"#, "a").is_empty());
}
