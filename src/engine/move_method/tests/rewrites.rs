//! Moves that succeed: through a parameter, a field, a static method; what follows the method and what its callers become.

use super::*;

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

/// Issue 15: a caller that cannot see the private field reaches the destination through the
/// field's getter, when the class has one it can call.
#[test]
fn a_private_field_is_reached_through_its_getter() {
    let counter = "package a;\n\npublic class Counter {\n    void add(int n) {\n    }\n}\n";
    let holder = "package a;\n\npublic class Holder {\n    private final Counter counter = new Counter();\n\n    Counter getCounter() {\n        return this.counter;\n    }\n\n    void bump(int by) {\n        counter.add(by);\n    }\n}\n";
    let user = "package a;\n\nclass User {\n    void use(Holder h) {\n        h.bump(3);\n    }\n}\n";
    let files = [("src/a/Counter.java", counter), ("src/a/Holder.java", holder), ("src/a/User.java", user)];
    let out = run(&files, "src/a/Holder.java", "bump", "field:counter", false).expect("moves");
    let user_after = out.iter().find(|(p, _)| p == "src/a/User.java").map(|(_, t)| t.as_str()).expect("user changed");
    assert!(user_after.contains("        h.getCounter().bump(3);\n"), "{user_after}");
    // A getter that computes something is not the field: still refused.
    let holder = holder.replace("return this.counter;", "return new Counter();");
    let files = [("src/a/Counter.java", counter), ("src/a/Holder.java", holder.as_str()), ("src/a/User.java", user)];
    assert_refused(&files, "src/a/Holder.java", "bump", "field:counter", "field_not_accessible", "no getter");
}

/// Issue 15: a statically imported name that a member of the destination would capture is
/// written with its class there (imported when the simple name is free, fully qualified when
/// another type of that name is visible), instead of refusing the move.
#[test]
fn a_static_import_the_destination_would_capture_is_written_with_its_class() {
    let dest = "package a;\n\npublic class Dest {\n    void assertTrue(boolean b) {\n    }\n}\n";
    let src = "package a;\n\nimport static org.junit.Assert.assertTrue;\n\nclass Src {\n    void f(Dest d) {\n        assertTrue(true);\n    }\n}\n";
    let out = run(&[("src/a/Dest.java", dest), ("src/a/Src.java", src)], "src/a/Src.java", "f", "param:d", false)
        .unwrap_or_else(|r| panic!("{}: {}", r.reason, r.message));
    let after = &out.iter().find(|(p, _)| p == "src/a/Dest.java").expect("the destination changes").1;
    assert!(after.contains("        Assert.assertTrue(true);\n"), "{after}");
    assert!(after.contains("import org.junit.Assert;\n"), "{after}");
    assert!(!after.contains("import static org.junit.Assert.assertTrue;"), "{after}");

    // Another `Assert` is visible in the destination: the class is named in full.
    let dest = "package a;\n\nimport b.Assert;\n\npublic class Dest {\n    Assert other;\n\n    void assertTrue(boolean b) {\n    }\n}\n";
    let out = run(&[("src/a/Dest.java", dest), ("src/a/Src.java", src)], "src/a/Src.java", "f", "param:d", false)
        .unwrap_or_else(|r| panic!("{}: {}", r.reason, r.message));
    let after = &out.iter().find(|(p, _)| p == "src/a/Dest.java").expect("the destination changes").1;
    assert!(after.contains("        org.junit.Assert.assertTrue(true);\n"), "{after}");
    assert!(!after.contains("import org.junit.Assert;"), "{after}");
}
