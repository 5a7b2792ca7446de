//! Refusals, each with its stable reason: of the method itself, about the destination, about context and call sites.

use super::*;

const DEST: &str = "package a;\n\npublic class Dest {\n    int x;\n}\n";

#[test]
fn refusals_of_the_method_itself() {
    let files = |s: &str| [("src/a/Dest.java", DEST.to_string()), ("src/a/Src.java", s.to_string())];
    let check = |body: &str, method: &str, to: &str, reason: &str, says: &str| {
        let s = src_with(body);
        let f = files(&s);
        let refs: Vec<(&str, &str)> = f.iter().map(|(a, b)| (*a, b.as_str())).collect();
        assert_refused(&refs, "src/a/Src.java", method, to, reason, says);
    };
    check("    Src(Dest d) {\n    }\n", "Src", "param:d", "constructor", "constructor");
    let abs = "package a;\n\nabstract class Src {\n    abstract void f(Dest d);\n}\n";
    assert_refused(
        &[("src/a/Dest.java", DEST), ("src/a/Src.java", abs)],
        "src/a/Src.java",
        "f",
        "param:d",
        "abstract_method",
        "no body",
    );
    check(
        "    @Override\n    public String toString() {\n        return \"\";\n    }\n",
        "toString",
        "param:d",
        "in_hierarchy",
        "@Override",
    );
    check("    synchronized void f(Dest d) {\n    }\n", "f", "param:d", "synchronized_method", "synchronized");
    check("    void f(Dest d) {\n    }\n", "f", "param:e", "no_such_parameter", "it has: d");
    check("    void f(String s) {\n    }\n", "f", "param:s", "destination_not_in_project", "`String`");
    check("    void f(Dest[] ds) {\n    }\n", "f", "param:ds", "destination_not_in_project", "`Dest[]`");
    check("    void f(Dest d) {\n    }\n", "f", "field:dest", "no_such_field", "declares no field `dest`");
    check("    static Dest dest;\n    void f() {\n    }\n", "f", "field:dest", "static_field", "static");
    check("    Dest dest;\n    static void f() {\n    }\n", "f", "field:dest", "static_method_via_field", "class:FQN");
    check("    static void f(Dest d) {\n    }\n", "f", "class:b.Nowhere", "destination_not_in_project", "package `b`");
    check("    static void f(Dest d) {\n    }\n", "f", "class:a.Src", "same_class", "already");
    check("    void f(Dest d) {\n        d = null;\n    }\n", "f", "param:d", "destination_reassigned", "line 5");
    check("    void f(Dest d) {\n        super.hashCode();\n    }\n", "f", "param:d", "super_call", "super");
    // (A private member of the source in the destination's package is widened: see `to_class`.)
    check("    void f(Dest d) {\n        undeclared();\n    }\n", "f", "param:d", "unresolved_call", "undeclared");
    check(
        "    void f(Dest d) {\n    }\n    void g(Dest d) {\n        java.util.function.Consumer<Dest> c = this::f;\n    }\n",
        "f",
        "param:d",
        "method_reference",
        "this::f",
    );
    check(
        "    void f(Dest d) {\n    }\n    void g() {\n        f(null);\n    }\n",
        "f",
        "param:d",
        "null_argument",
        "null",
    );
}

#[test]
fn refusals_about_the_destination() {
    let annotation = "package a;\n\npublic @interface Shape {\n}\n";
    let src = "package a;\n\nclass Src {\n    void f(Shape s) {\n    }\n}\n";
    assert_refused(
        &[("src/a/Shape.java", annotation), ("src/a/Src.java", src)],
        "src/a/Src.java",
        "f",
        "param:s",
        "destination_interface",
        "annotation type",
    );

    let clash = "package a;\n\npublic class Dest {\n    void f(int n) {\n    }\n}\n";
    let src = "package a;\n\nclass Src {\n    void f(Dest d, int n) {\n    }\n}\n";
    assert_refused(
        &[("src/a/Dest.java", clash), ("src/a/Src.java", src)],
        "src/a/Src.java",
        "f",
        "param:d",
        "name_clash",
        "f(int)",
    );

    let generic = "package a;\n\npublic class Box<T> {\n}\n";
    let src = "package a;\n\nclass Src {\n    void f(Box<String> b) {\n    }\n}\n";
    assert_refused(
        &[("src/a/Box.java", generic), ("src/a/Src.java", src)],
        "src/a/Src.java",
        "f",
        "param:b",
        "generic_destination",
        "Box<String>",
    );

    // Test code moves to main code only when it is a helper that needs nothing of the tests.
    let files =
        |test_src: &'static str| [("src/main/java/a/Dest.java", DEST), ("src/test/java/a/SrcTest.java", test_src)];
    let test = "package a;\n\nimport org.junit.Test;\n\nclass SrcTest {\n    @Test\n    void f() {\n    }\n}\n";
    assert_refused(
        &files(test),
        "src/test/java/a/SrcTest.java",
        "f",
        "class:a.Dest",
        "test_to_main",
        "a test method moves only to a test class",
    );
    for (test_src, says) in [
        (
            "package a;\n\nimport static org.junit.Assert.assertTrue;\n\nclass SrcTest {\n    void f(Dest d) {\n        assertTrue(d != null);\n    }\n}\n",
            "`org.junit.Assert.assertTrue` of a test framework",
        ),
        (
            "package a;\n\nclass SrcTest {\n    int n;\n    void f(Dest d) {\n        d.x = n;\n    }\n}\n",
            "`n` of its test class",
        ),
    ] {
        assert_refused(&files(test_src), "src/test/java/a/SrcTest.java", "f", "param:d", "test_to_main", says);
    }
    let helper = "package a;\n\nclass SrcTest {\n    void f(Dest d) {\n        d.x = 1;\n    }\n}\n";
    let out = run(&files(helper), "src/test/java/a/SrcTest.java", "f", "param:d", false).expect("a plain helper moves");
    assert!(out.iter().any(|(p, t)| p == "src/main/java/a/Dest.java" && t.contains("        x = 1;")), "{out:#?}");

    let outer = "package a;\n\nclass Src {\n    int y;\n    class Inner {\n        void f(Dest d) {\n            d.x = y;\n        }\n    }\n}\n";
    let r = run(&[("src/a/Dest.java", DEST), ("src/a/Src.java", outer)], "src/a/Src.java", "f", "param:d", false)
        .expect_err("uses the enclosing instance");
    assert_eq!(r.reason, "outer_instance_used", "{}", r.message);

    let typevar = "package a;\n\nclass Src<T> {\n    T held;\n    void f(Dest d) {\n        T t = null;\n    }\n}\n";
    assert_refused(
        &[("src/a/Dest.java", DEST), ("src/a/Src.java", typevar)],
        "src/a/Src.java",
        "f",
        "param:d",
        "uses_type_parameter",
        "`T`",
    );
}

#[test]
fn refusals_about_context_and_call_sites() {
    let dest_b = "package b;\n\npublic class Dest {\n    public int x;\n}\n";
    let check = |files: &[(&str, &str)], method: &str, to: &str, reason: &str, says: &str| {
        assert_refused(files, "src/a/Src.java", method, to, reason, says);
    };
    let anon =
        "package a;\n\nclass Src {\n    Object o = new Object() {\n        void f(Dest d) {\n        }\n    };\n}\n";
    check(&[("src/a/Dest.java", DEST), ("src/a/Src.java", anon)], "f", "param:d", "local_class", "anonymous");
    let broken =
        "package a;\n\nclass Src {\n    void f(Dest d) {\n    }\n\n    void g() {\n        int x = ;\n    }\n}\n";
    check(&[("src/a/Dest.java", DEST), ("src/a/Src.java", broken)], "f", "param:d", "syntax_error", "line 8");
    let hidden = "package a;\n\nclass Helper {\n}\n";
    let uses =
        "package a;\n\nimport b.Dest;\n\nclass Src {\n    void f(Dest d) {\n        Helper h = null;\n    }\n}\n";
    check(
        &[("src/b/Dest.java", dest_b), ("src/a/Helper.java", hidden), ("src/a/Src.java", uses)],
        "f",
        "param:d",
        "inaccessible_type",
        "a.Helper",
    );
    let generic = "package a;\n\nclass Src<T> {\n    int y;\n\n    void f(Dest d) {\n        d.x = y;\n    }\n}\n";
    check(&[("src/a/Dest.java", DEST), ("src/a/Src.java", generic)], "f", "param:d", "generic_source", "generic class");
    let inherited = "package a;\n\nimport lib.Base;\n\nclass Src extends Base {\n    void f(Dest d) {\n        d.x = inherited;\n    }\n}\n";
    check(&[("src/a/Dest.java", DEST), ("src/a/Src.java", inherited)], "f", "param:d", "unresolved_name", "Base");
    let overloads = "package a;\n\nclass Src {\n    void f(Dest d, String s) {\n    }\n\n    void f(Dest d, Integer s) {\n    }\n\n    void g(Dest d) {\n        f(d, compute());\n    }\n\n    Object compute() {\n        return null;\n    }\n}\n";
    check(
        &[("src/a/Dest.java", DEST), ("src/a/Src.java", overloads)],
        "f",
        "param:d",
        "ambiguous_call",
        "f(d, compute())",
    );
    let holder = "package a;\n\nclass Src {\n    Dest dest;\n    int step;\n\n    void bump() {\n        dest.x += step;\n    }\n\n    static Src make() {\n        return new Src();\n    }\n\n    static void use() {\n        make().bump();\n    }\n}\n";
    check(
        &[("src/a/Dest.java", DEST), ("src/a/Src.java", holder)],
        "bump",
        "field:dest",
        "complex_receiver",
        "evaluated twice",
    );
}

/// A protected method of the source's own hierarchy called on another object is checked like any
/// other class's: the destination in another package cannot call it.
#[test]
fn a_protected_method_of_the_sources_hierarchy_on_another_object_is_refused() {
    let node = "package n;\n\npublic class Node {\n    protected void removeChild(Node child) {\n    }\n}\n";
    let element = "package n;\n\npublic class Element extends Node {\n    public static void unwrap(Node parent, Node child) {\n        parent.removeChild(child);\n    }\n}\n";
    let util = "package s;\n\npublic class Util {\n}\n";
    let files = [("src/n/Node.java", node), ("src/n/Element.java", element), ("src/s/Util.java", util)];
    assert_refused(&files, "src/n/Element.java", "unwrap", "class:s.Util", "inaccessible_member", "removeChild");
}
