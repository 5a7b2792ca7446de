use std::path::Path;

use super::*;
use crate::java::project::tests::project;

/// Moves `method` of `file` as `to` says; returns every changed file's new text, by path.
fn run(
    files: &[(&str, &str)],
    file: &str,
    method: &str,
    to: &str,
    keep: bool,
) -> Result<Vec<(String, String)>, Refusal> {
    let (_dir, p) = project(files);
    let fid = p.file_id(Path::new(file)).expect("file");
    let id = p.methods_in(fid).expect("parsed").into_iter().find(|&m| p.method(m).name == method).expect("method");
    let spec = MoveSpec { to: to.parse().expect("destination"), keep_delegate: keep };
    let changes = move_method(&p, id, &spec)?;
    let rendered = changes.render().expect("edits apply");
    Ok(rendered.into_iter().map(|(p, t)| (p.display().to_string(), t)).collect())
}

fn refused(files: &[(&str, &str)], file: &str, method: &str, to: &str) -> Refusal {
    match run(files, file, method, to, false) {
        Ok(out) => panic!("expected a refusal, got {out:#?}"),
        Err(r) => r,
    }
}

fn assert_refused(files: &[(&str, &str)], file: &str, method: &str, to: &str, reason: &str, says: &str) {
    let r = refused(files, file, method, to);
    assert_eq!(r.reason, reason, "{}", r.message);
    assert!(r.message.contains(says), "message `{}` should mention `{says}`", r.message);
}

const CUSTOMER: &str = "package shop.customer;

public class Customer {
    private final String name;

    public Customer(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }
}
";

#[test]
fn through_a_parameter_to_another_package_with_the_source_object() {
    let service = "package shop.billing;

import shop.customer.Customer;
import java.util.Locale;

public class Greeter {
    private final String greeting = \"Hello\";

    public String greet(Customer c) {
        return label(c, 2) + \"!\";
    }

    String prefix() {
        return greeting;
    }

    /** The label. */
    String label(Customer customer, int times) {
        String name = customer.getName().toUpperCase(Locale.ROOT);
        return prefix() + \" \" + name.repeat(times) + this.greeting;
    }
}
";
    let caller = "package shop.billing;

import shop.customer.Customer;

class Caller {
    String call(Greeter g, Customer a, Customer b) {
        return g.label(a == null ? b : a, 1);
    }
}
";
    let out = run(
        &[
            ("src/shop/customer/Customer.java", CUSTOMER),
            ("src/shop/billing/Greeter.java", service),
            ("src/shop/billing/Caller.java", caller),
        ],
        "src/shop/billing/Greeter.java",
        "label",
        "param:customer",
        false,
    );
    // `prefix()` and `greeting` are package-private in shop.billing; Customer is in shop.customer.
    let r = out.expect_err("package-private members of another package");
    assert_eq!(r.reason, "inaccessible_member");
    assert!(r.message.contains("`prefix(...)` of `shop.billing.Greeter`"), "{}", r.message);

    let public = service
        .replace("    String prefix()", "    public String prefix()")
        .replace("private final String greeting", "public final String greeting");
    let out = run(
        &[
            ("src/shop/customer/Customer.java", CUSTOMER),
            ("src/shop/billing/Greeter.java", &public),
            ("src/shop/billing/Caller.java", caller),
        ],
        "src/shop/billing/Greeter.java",
        "label",
        "param:customer",
        false,
    )
    .expect("moves");
    assert_eq!(
        out,
        [
            (
                "src/shop/billing/Caller.java".to_string(),
                "package shop.billing;

import shop.customer.Customer;

class Caller {
    String call(Greeter g, Customer a, Customer b) {
        return (a == null ? b : a).label(g, 1);
    }
}
"
                .to_string()
            ),
            (
                "src/shop/billing/Greeter.java".to_string(),
                "package shop.billing;

import shop.customer.Customer;

public class Greeter {
    public final String greeting = \"Hello\";

    public String greet(Customer c) {
        return c.label(this, 2) + \"!\";
    }

    public String prefix() {
        return greeting;
    }
}
"
                .to_string()
            ),
            (
                "src/shop/customer/Customer.java".to_string(),
                "package shop.customer;

import java.util.Locale;
import shop.billing.Greeter;

public class Customer {
    private final String name;

    public Customer(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    /** The label. */
    public String label(Greeter greeter, int times) {
        String name = getName().toUpperCase(Locale.ROOT);
        return greeter.prefix() + \" \" + name.repeat(times) + greeter.greeting;
    }
}
"
                .to_string()
            ),
        ]
    );
}

#[test]
fn through_a_field_with_outside_callers() {
    let counter = "package a;

public class Counter {
    int count;

    void add(int n) {
        count += n;
    }
}
";
    let holder = "package a;

public class Holder {
    final Counter counter = new Counter();

    void bump(int by) {
        counter.add(by);
        if (counter.count > 10) {
            counter.count = 0;
        }
    }

    void twice() {
        bump(1);
        this.bump(1);
    }
}
";
    let user = "package a;

class User {
    void use(Holder h) {
        h.bump(3);
    }
}
";
    let out = run(
        &[("src/a/Counter.java", counter), ("src/a/Holder.java", holder), ("src/a/User.java", user)],
        "src/a/Holder.java",
        "bump",
        "field:counter",
        false,
    )
    .expect("moves");
    assert_eq!(
        out,
        [
            (
                "src/a/Counter.java".to_string(),
                "package a;

public class Counter {
    int count;

    void add(int n) {
        count += n;
    }

    void bump(int by) {
        add(by);
        if (count > 10) {
            count = 0;
        }
    }
}
"
                .to_string()
            ),
            (
                "src/a/Holder.java".to_string(),
                "package a;

public class Holder {
    final Counter counter = new Counter();

    void twice() {
        counter.bump(1);
        counter.bump(1);
    }
}
"
                .to_string()
            ),
            (
                "src/a/User.java".to_string(),
                "package a;

class User {
    void use(Holder h) {
        h.counter.bump(3);
    }
}
"
                .to_string()
            ),
        ]
    );
}

#[test]
fn a_private_field_refuses_outside_callers_but_a_delegate_keeps_them() {
    let counter = "package a;\n\npublic class Counter {\n    void add(int n) {\n    }\n}\n";
    let holder = "package a;\n\npublic class Holder {\n    private final Counter counter = new Counter();\n\n    void bump(int by) {\n        counter.add(by);\n    }\n}\n";
    let user = "package a;\n\nclass User {\n    void use(Holder h) {\n        h.bump(3);\n    }\n}\n";
    let files = [("src/a/Counter.java", counter), ("src/a/Holder.java", holder), ("src/a/User.java", user)];
    assert_refused(&files, "src/a/Holder.java", "bump", "field:counter", "field_not_accessible", "--keep-delegate");
    let out = run(&files, "src/a/Holder.java", "bump", "field:counter", true).expect("moves with a delegate");
    assert_eq!(
        out,
        [
            (
                "src/a/Counter.java".to_string(),
                "package a;\n\npublic class Counter {\n    void add(int n) {\n    }\n\n    void bump(int by) {\n        add(by);\n    }\n}\n"
                    .to_string()
            ),
            (
                "src/a/Holder.java".to_string(),
                "package a;\n\npublic class Holder {\n    private final Counter counter = new Counter();\n\n    void bump(int by) {\n        counter.bump(by);\n    }\n}\n"
                    .to_string()
            ),
        ]
    );
}

#[test]
fn a_static_method_follows_its_static_imports_and_qualifies_source_statics() {
    let util = "package a;

import java.util.List;

public class Util {
    static final int LIMIT = 3;

    public static int total(List<Integer> xs) {
        int t = 0;
        for (int x : xs) {
            t += clamp(x);
        }
        return t;
    }

    static int clamp(int x) {
        return Math.min(x, LIMIT);
    }

    int use(List<Integer> xs) {
        return total(xs);
    }
}
";
    let math = "package b;\n\npublic class Sums {\n}\n";
    let user = "package c;

import static a.Util.total;

import a.Util;
import java.util.List;

class User {
    int f(List<Integer> xs) {
        return total(xs) + Util.total(xs);
    }
}
";
    let files = [("src/a/Util.java", util), ("src/b/Sums.java", math), ("src/c/User.java", user)];
    let r = refused(&files, "src/a/Util.java", "total", "class:b.Sums");
    assert_eq!(r.reason, "inaccessible_member", "{}", r.message);
    assert!(r.message.contains("`clamp(...)` of `a.Util`"), "{}", r.message);

    let public = util
        .replace("    static int clamp", "    public static int clamp")
        .replace("    static final int LIMIT", "    public static final int LIMIT");
    let files = [("src/a/Util.java", public.as_str()), ("src/b/Sums.java", math), ("src/c/User.java", user)];
    let out = run(&files, "src/a/Util.java", "total", "class:b.Sums", false).expect("moves");
    assert_eq!(
        out,
        [
            (
                "src/a/Util.java".to_string(),
                "package a;

import b.Sums;
import java.util.List;

public class Util {
    public static final int LIMIT = 3;

    public static int clamp(int x) {
        return Math.min(x, LIMIT);
    }

    int use(List<Integer> xs) {
        return Sums.total(xs);
    }
}
"
                .to_string()
            ),
            (
                "src/b/Sums.java".to_string(),
                "package b;

import a.Util;
import java.util.List;

public class Sums {
    public static int total(List<Integer> xs) {
        int t = 0;
        for (int x : xs) {
            t += Util.clamp(x);
        }
        return t;
    }
}
"
                .to_string()
            ),
            (
                "src/c/User.java".to_string(),
                "package c;

import static b.Sums.total;

import b.Sums;
import java.util.List;

class User {
    int f(List<Integer> xs) {
        return total(xs) + Sums.total(xs);
    }
}
"
                .to_string()
            ),
        ]
    );
}

#[test]
fn recursion_on_the_same_object_follows_the_method() {
    let node = "package a;\n\npublic class Node {\n    Node next;\n}\n";
    let walker = "package a;

class Walker {
    int depth(Node node, int acc) {
        if (node.next == null) {
            return acc;
        }
        return depth(node, acc + 1);
    }

    int other(Node node, Node n2) {
        return deep(node, n2);
    }

    int deep(Node node, Node n2) {
        return deep(n2, node);
    }
}
";
    let files = [("src/a/Node.java", node), ("src/a/Walker.java", walker)];
    let out = run(&files, "src/a/Walker.java", "depth", "param:node", false).expect("moves");
    assert_eq!(out[0].0, "src/a/Node.java");
    assert_eq!(
        out[0].1,
        "package a;\n\npublic class Node {\n    Node next;\n\n    int depth(int acc) {\n        if (next == null) {\n            return acc;\n        }\n        return depth(acc + 1);\n    }\n}\n"
    );
    assert_refused(&files, "src/a/Walker.java", "deep", "param:node", "recursive_other_receiver", "line 16");
}

#[test]
fn javadoc_annotations_and_indentation_follow_into_a_tab_indented_class() {
    let dest = "package a;\n\npublic class Dest {\n\tint x;\n}\n";
    let src = "package a;

class Src {
    /**
     * Doc.
     */
    @Deprecated
    static int twice(Dest d) {
        // keep this comment
        return d.x
            * 2;
    }
}
";
    let out = run(&[("src/a/Dest.java", dest), ("src/a/Src.java", src)], "src/a/Src.java", "twice", "param:d", false)
        .expect("moves");
    assert_eq!(
        out[0].1,
        "package a;\n\npublic class Dest {\n\tint x;\n\n\t/**\n\t * Doc.\n\t */\n\t@Deprecated\n\tint twice() {\n\t\t// keep this comment\n\t\treturn x\n\t\t\t* 2;\n\t}\n}\n"
    );
    assert_eq!(out[1].1, "package a;\n\nclass Src {\n}\n");
}

#[test]
fn a_local_that_hides_a_field_keeps_this() {
    let dest = "package a;\n\npublic class Dest {\n    int x;\n}\n";
    let src = "package a;\n\nclass Src {\n    int f(Dest d) {\n        int x = 1;\n        return x + d.x + g(d);\n    }\n\n    static int g(Dest d) {\n        return 0;\n    }\n}\n";
    let out = run(&[("src/a/Dest.java", dest), ("src/a/Src.java", src)], "src/a/Src.java", "f", "param:d", false)
        .expect("moves");
    assert!(out[0].1.contains("        return x + this.x + Src.g(this);\n"), "{}", out[0].1);
}

const DEST: &str = "package a;\n\npublic class Dest {\n    int x;\n}\n";

fn src_with(body: &str) -> String {
    format!("package a;\n\nclass Src {{\n{body}}}\n")
}

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
    check("    void f(Dest d) {\n    }\n", "f", "class:a.Dest", "instance_method", "param:NAME");
    check("    static void f(Dest d) {\n    }\n", "f", "class:a.Nowhere", "destination_not_in_project", "a.Nowhere");
    check("    static void f(Dest d) {\n    }\n", "f", "class:a.Src", "same_class", "already");
    check("    void f(Dest d) {\n        d = null;\n    }\n", "f", "param:d", "destination_reassigned", "line 5");
    check("    void f(Dest d) {\n        super.hashCode();\n    }\n", "f", "param:d", "super_call", "super");
    check(
        "    private int y;\n    void f(Dest d) {\n        d.x = y;\n    }\n",
        "f",
        "param:d",
        "private_member_used",
        "`y`",
    );
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
    let iface = "package a;\n\npublic interface Shape {\n}\n";
    let src = "package a;\n\nclass Src {\n    void f(Shape s) {\n    }\n}\n";
    assert_refused(
        &[("src/a/Shape.java", iface), ("src/a/Src.java", src)],
        "src/a/Src.java",
        "f",
        "param:s",
        "destination_interface",
        "interface",
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

    let test_src = "package a;\n\nclass SrcTest {\n    void f(Dest d) {\n    }\n}\n";
    assert_refused(
        &[("src/main/java/a/Dest.java", DEST), ("src/test/java/a/SrcTest.java", test_src)],
        "src/test/java/a/SrcTest.java",
        "f",
        "param:d",
        "test_to_main",
        "test code",
    );

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

    let named = "package b;\n\npublic class Dest {\n    public void f() {\n    }\n}\n";
    let other_list = "package b;\n\npublic class List {\n}\n";
    let src = "package a;\n\nimport b.Dest;\nimport java.util.List;\n\nclass Src {\n    void g(Dest d, List<String> xs) {\n    }\n}\n";
    assert_refused(
        &[("src/b/Dest.java", named), ("src/b/List.java", other_list), ("src/a/Src.java", src)],
        "src/a/Src.java",
        "g",
        "param:d",
        "type_name_clash",
        "`List`",
    );

    let capture = "package a;\n\npublic class Dest {\n    void assertTrue(boolean b) {\n    }\n}\n";
    let src = "package a;\n\nimport static org.junit.Assert.assertTrue;\n\nclass Src {\n    void f(Dest d) {\n        assertTrue(true);\n    }\n}\n";
    assert_refused(
        &[("src/a/Dest.java", capture), ("src/a/Src.java", src)],
        "src/a/Src.java",
        "f",
        "param:d",
        "name_capture",
        "assertTrue",
    );
}

#[test]
fn static_imports_and_types_of_the_body_go_to_the_destination() {
    let dest = "package b;\n\npublic class Dest {\n}\n";
    let src = "package a;\n\nimport static org.junit.Assert.assertTrue;\n\nimport b.Dest;\nimport java.util.ArrayList;\nimport java.util.List;\n\nclass Src {\n    void check(Dest d) {\n        List<String> xs = new ArrayList<>();\n        assertTrue(xs.isEmpty());\n    }\n}\n";
    let out = run(&[("src/b/Dest.java", dest), ("src/a/Src.java", src)], "src/a/Src.java", "check", "param:d", false)
        .expect("moves");
    assert_eq!(out[0].0, "src/a/Src.java");
    assert_eq!(out[0].1, "package a;\n\nclass Src {\n}\n");
    assert_eq!(
        out[1].1,
        "package b;\n\nimport java.util.ArrayList;\nimport java.util.List;\nimport static org.junit.Assert.assertTrue;\n\npublic class Dest {\n    void check() {\n        List<String> xs = new ArrayList<>();\n        assertTrue(xs.isEmpty());\n    }\n}\n"
    );
}

#[test]
fn the_destination_file_is_the_source_file() {
    let src = "package a;

class Outer {
    static class Dest {
        int x;
    }

    int get(Dest d) {
        return d.x;
    }

    int use(Dest d) {
        return get(d);
    }
}
";
    let out = run(&[("src/a/Outer.java", src)], "src/a/Outer.java", "get", "param:d", false).expect("moves");
    assert_eq!(
        out[0].1,
        "package a;

class Outer {
    static class Dest {
        int x;

        int get() {
            return x;
        }
    }

    int use(Dest d) {
        return d.get();
    }
}
"
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

#[test]
fn a_static_delegate_stays_and_callers_do_not_change() {
    let util = "package a;\n\npublic class Util {\n    /** Twice. */\n    public static int twice(int x) {\n        return 2 * x;\n    }\n}\n";
    let sums = "package b;\n\npublic class Sums {\n}\n";
    let user = "package c;\n\nimport a.Util;\n\nclass User {\n    int f() {\n        return Util.twice(2);\n    }\n}\n";
    let files = [("src/a/Util.java", util), ("src/b/Sums.java", sums), ("src/c/User.java", user)];
    let out = run(&files, "src/a/Util.java", "twice", "class:b.Sums", true).expect("moves");
    assert_eq!(
        out,
        [
            (
                "src/a/Util.java".to_string(),
                "package a;\n\nimport b.Sums;\n\npublic class Util {\n    /** Twice. */\n    public static int twice(int x) {\n        return Sums.twice(x);\n    }\n}\n"
                    .to_string()
            ),
            (
                "src/b/Sums.java".to_string(),
                "package b;\n\npublic class Sums {\n    /** Twice. */\n    public static int twice(int x) {\n        return 2 * x;\n    }\n}\n"
                    .to_string()
            ),
        ]
    );
}

/// Issue 14, defect 12: a caller in another file whose method happened to lie within the moved
/// method's byte range was taken for a class declared inside it, and the move was refused as
/// `recursive_other_receiver`.
#[test]
fn a_caller_in_another_file_at_the_same_offsets_is_an_ordinary_call_site() {
    let calc = "package p;

public class Calc {
    public long fee(Addr a, double kg) {
        // The address's rate per kilogram, rounded to whole units. A long comment, so that the
        // method spans the bytes where the caller's method lies in its own file.
        return Math.round(a.rate() * kg);
    }
}
";
    let addr = "package p;

public class Addr {
    private final String country;

    public Addr(String country) {
        this.country = country;
    }

    public double rate() {
        return country.equals(\"DE\") ? 2.0 : 3.0;
    }
}
";
    let shop = "package p;

/** Sends parcels. */
class Shop {
    long f() {
        return new Calc().fee(new Addr(\"DE\"), 0.5);
    }
}
";
    let files = [("p/Calc.java", calc), ("p/Addr.java", addr), ("p/Shop.java", shop)];
    let out =
        run(&files, "p/Calc.java", "fee", "param:a", false).unwrap_or_else(|r| panic!("{}: {}", r.reason, r.message));
    let shop_after = &out.iter().find(|(p, _)| p == "p/Shop.java").expect("the call site is rewritten").1;
    assert!(shop_after.contains("return new Addr(\"DE\").fee(0.5);"), "{shop_after}");
}
