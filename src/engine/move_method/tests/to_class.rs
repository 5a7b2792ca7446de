//! Instance methods moved to any class (`class:FQN`): they become static there, and what they
//! used of their object comes through a new first parameter.

use super::*;

fn moved(files: &[(&str, &str)], method: &str, to: &str) -> Vec<(String, String)> {
    run(files, "src/a/Src.java", method, to, false).unwrap_or_else(|r| panic!("refused: {r:?}"))
}

fn text<'a>(out: &'a [(String, String)], path: &str) -> &'a str {
    &out.iter().find(|(p, _)| p == path).unwrap_or_else(|| panic!("{path} unchanged: {out:#?}")).1
}

#[test]
fn a_method_that_uses_no_state_becomes_a_static_method_of_the_destination() {
    let src = "package a;\n\nclass Src {\n    int twice(int x) {\n        return x * 2;\n    }\n\n    int use() {\n        return twice(3) + this.twice(1);\n    }\n}\n";
    let util = "package a.util;\n\npublic class Util {\n}\n";
    let caller = "package a;\n\nclass Caller {\n    int call(Src s) {\n        return s.twice(4);\n    }\n}\n";
    let out = moved(
        &[("src/a/Src.java", src), ("src/a/util/Util.java", util), ("src/a/Caller.java", caller)],
        "twice",
        "class:a.util.Util",
    );
    assert_eq!(
        text(&out, "src/a/util/Util.java"),
        "package a.util;\n\npublic class Util {\n    public static int twice(int x) {\n        return x * 2;\n    }\n}\n"
    );
    let src_after = text(&out, "src/a/Src.java");
    assert!(src_after.contains("import a.util.Util;"), "{src_after}");
    assert!(src_after.contains("return Util.twice(3) + Util.twice(1);"), "{src_after}");
    assert!(!src_after.contains("int twice("), "{src_after}");
    let caller_after = text(&out, "src/a/Caller.java");
    assert!(caller_after.contains("return Util.twice(4);"), "{caller_after}");
    assert!(caller_after.contains("import a.util.Util;"), "{caller_after}");
}

#[test]
fn a_method_that_uses_its_object_takes_it_as_a_parameter() {
    let src = "package a;\n\nclass Src {\n    int rate;\n\n    int base() {\n        return 1;\n    }\n\n    int fee(int n) {\n        return n * rate + base() + this.rate;\n    }\n\n    int total() {\n        return fee(2);\n    }\n}\n";
    let fees = "package a;\n\nclass Fees {\n}\n";
    let caller = "package a;\n\nclass Caller {\n    int call(Src s) {\n        return s.fee(3) + make().fee(1);\n    }\n\n    Src make() {\n        return new Src();\n    }\n}\n";
    let out = moved(
        &[("src/a/Src.java", src), ("src/a/Fees.java", fees), ("src/a/Caller.java", caller)],
        "fee",
        "class:a.Fees",
    );
    let fees_after = text(&out, "src/a/Fees.java");
    assert!(
        fees_after.contains(
            "    static int fee(Src src, int n) {\n        return n * src.rate + src.base() + src.rate;\n    }"
        ),
        "{fees_after}"
    );
    assert!(text(&out, "src/a/Src.java").contains("return Fees.fee(this, 2);"), "{out:#?}");
    // The receiver is evaluated once, first, as before.
    assert!(text(&out, "src/a/Caller.java").contains("return Fees.fee(s, 3) + Fees.fee(make(), 1);"), "{out:#?}");
}

#[test]
fn refusals_of_moves_to_a_class() {
    let fees = "package a;\n\nclass Fees {\n}\n";
    // Dropping `make()` would drop its side effects.
    let src = "package a;\n\nclass Src {\n    int twice(int x) {\n        return x * 2;\n    }\n\n    int use() {\n        return make().twice(1);\n    }\n\n    Src make() {\n        return new Src();\n    }\n}\n";
    assert_refused(
        &[("src/a/Src.java", src), ("src/a/Fees.java", fees)],
        "src/a/Src.java",
        "twice",
        "class:a.Fees",
        "complex_receiver",
        "no longer evaluate",
    );
    let iface = "package a;\n\ninterface Src {\n    default int twice(int x) {\n        return x * 2;\n    }\n}\n";
    assert_refused(
        &[("src/a/Src.java", iface), ("src/a/Fees.java", fees)],
        "src/a/Src.java",
        "twice",
        "class:a.Fees",
        "instance_method",
        "default method",
    );
    // A private member of another package's class is not widened to public.
    let private = "package a;\n\npublic class Src {\n    private int rate;\n\n    public int fee(int n) {\n        return n * rate;\n    }\n}\n";
    let elsewhere = "package b;\n\npublic class Fees {\n}\n";
    assert_refused(
        &[("src/a/Src.java", private), ("src/b/Fees.java", elsewhere)],
        "src/a/Src.java",
        "fee",
        "class:b.Fees",
        "private_member_used",
        "`rate`",
    );
}

#[test]
fn a_test_method_stays_an_instance_method_of_the_test_class_it_moves_to() {
    let src = "package a;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\npublic class Src {\n    @Test\n    public void adds() {\n        assertEquals(2, 1 + 1);\n    }\n}\n";
    let other = "package a;\n\npublic class OtherTest {\n}\n";
    let out = moved(&[("src/a/Src.java", src), ("src/a/OtherTest.java", other)], "adds", "class:a.OtherTest");
    let after = text(&out, "src/a/OtherTest.java");
    assert!(after.contains("    @Test\n    public void adds() {\n        assertEquals(2, 1 + 1);\n    }"), "{after}");
    assert!(
        after.contains("import org.junit.Test;") && after.contains("import static org.junit.Assert.assertEquals;"),
        "{after}"
    );
    assert!(!text(&out, "src/a/Src.java").contains("adds"), "{out:#?}");

    let fixture = "package a;\n\nimport org.junit.Test;\n\npublic class Src {\n    int seed = 4;\n\n    @Test\n    public void adds() {\n        if (seed + 1 != 5) {\n            throw new AssertionError();\n        }\n    }\n}\n";
    assert_refused(
        &[("src/a/Src.java", fixture), ("src/a/OtherTest.java", other)],
        "src/a/Src.java",
        "adds",
        "class:a.OtherTest",
        "source_state_used",
        "`seed` of `a.Src` (line 10)",
    );
}

#[test]
fn private_members_the_destination_uses_become_package_private_in_its_package() {
    let src = "package a;\n\nclass Src {\n    private final int rate = 3;\n\n    private int base() {\n        return 1;\n    }\n\n    int fee(int n) {\n        return n * rate + base() + rate;\n    }\n}\n";
    let fees = "package a;\n\nclass Fees {\n}\n";
    let files = [("src/a/Src.java", src), ("src/a/Fees.java", fees)];
    let (_dir, p) = project(&files);
    let fid = p.file_id(Path::new("src/a/Src.java")).unwrap();
    let id = p.methods_in(fid).unwrap().into_iter().find(|&m| p.method(m).name == "fee").unwrap();
    let done = plan(&p, id, &MoveSpec::new("class:a.Fees".parse().unwrap())).unwrap();
    assert_eq!(
        done.widened,
        ["`rate` of `a.Src`: private → package-private", "`base(...)` of `a.Src`: private → package-private"]
    );
    let out = done.changes.render().unwrap();
    let src_after = &out[Path::new("src/a/Src.java")];
    assert!(src_after.contains("    final int rate = 3;\n\n    int base() {"), "{src_after}");
    assert!(out[Path::new("src/a/Fees.java")].contains("static int fee(Src src, int n) {"), "{out:#?}");
}

#[test]
fn a_test_method_uses_what_the_destination_has_too() {
    let test = |extends: &str, body: &str| {
        format!(
            "package a;\n\nimport org.junit.Test;\n\npublic class Src{extends} {{\n    int seed = 4;\n\n    @Test\n    public void adds() {{\n{body}    }}\n}}\n"
        )
    };
    let base = "package a;\n\npublic class Base {\n    protected int helper() {\n        return 1;\n    }\n}\n";
    // A field of the same name and type in the destination.
    let with_seed = "package a;\n\npublic class OtherTest {\n    int seed = 5;\n}\n";
    let src = test("", "        if (seed + this.seed != 8) {\n            throw new AssertionError();\n        }\n");
    let out = moved(&[("src/a/Src.java", &src), ("src/a/OtherTest.java", with_seed)], "adds", "class:a.OtherTest");
    assert!(text(&out, "src/a/OtherTest.java").contains("        if (seed + this.seed != 8) {"), "{out:#?}");
    // A method both inherit from a project class.
    let sub = "package a;\n\npublic class OtherTest extends Base {\n}\n";
    let src = test(" extends Base", "        helper();\n");
    let files = [("src/a/Base.java", base), ("src/a/Src.java", src.as_str()), ("src/a/OtherTest.java", sub)];
    assert!(text(&moved(&files, "adds", "class:a.OtherTest"), "src/a/OtherTest.java").contains("        helper();\n"));
    // A method both may inherit from the same class outside the project.
    let src = test(" extends junit.framework.TestCase", "        doTest(\"x\");\n");
    let ext = "package a;\n\npublic class OtherTest extends junit.framework.TestCase {\n}\n";
    let out = moved(&[("src/a/Src.java", &src), ("src/a/OtherTest.java", ext)], "adds", "class:a.OtherTest");
    assert!(text(&out, "src/a/OtherTest.java").contains("        doTest(\"x\");\n"), "{out:#?}");
    let plain = "package a;\n\npublic class OtherTest {\n}\n";
    assert_refused(
        &[("src/a/Src.java", &src), ("src/a/OtherTest.java", plain)],
        "src/a/Src.java",
        "adds",
        "class:a.OtherTest",
        "unresolved_call",
        "doTest",
    );
    // A field of another type is not the same field; `this` as a value is not the same object.
    let other_type = "package a;\n\npublic class OtherTest {\n    long seed = 5;\n}\n";
    let src = test("", "        if (seed != 4) {\n            throw new AssertionError();\n        }\n");
    assert_refused(
        &[("src/a/Src.java", &src), ("src/a/OtherTest.java", other_type)],
        "src/a/Src.java",
        "adds",
        "class:a.OtherTest",
        "source_state_used",
        "`seed`",
    );
    let src = test("", "        System.out.println(this);\n");
    assert_refused(
        &[("src/a/Src.java", &src), ("src/a/OtherTest.java", with_seed)],
        "src/a/Src.java",
        "adds",
        "class:a.OtherTest",
        "source_state_used",
        "`this` as a value (line 10)",
    );
}

#[test]
fn a_test_method_does_not_move_through_a_field() {
    let dest = "package a;\n\npublic class Dest {\n    int x;\n}\n";
    let src = "package a;\n\nimport org.junit.Test;\n\npublic class Src {\n    Dest dest = new Dest();\n\n    @Test\n    public void sets() {\n        dest.x = 1;\n    }\n}\n";
    assert_refused(
        &[("src/a/Src.java", src), ("src/a/Dest.java", dest)],
        "src/a/Src.java",
        "sets",
        "field:dest",
        "test_method_channel",
        "class:FQN",
    );
}

#[test]
fn a_private_method_that_would_start_being_overridden_is_not_widened() {
    // Private methods are not inherited: `Sub.base()` overrides nothing today. Package-private,
    // `Src.base()` would be overridden by it, and `fee` would call `Sub`'s on a `Sub`.
    let src = "package a;\n\nclass Src {\n    private int base() {\n        return 1;\n    }\n\n    int fee(int n) {\n        return n * base();\n    }\n}\n";
    let sub = "package a;\n\nclass Sub extends Src {\n    int base() {\n        return 2;\n    }\n}\n";
    let fees = "package a;\n\nclass Fees {\n}\n";
    assert_refused(
        &[("src/a/Src.java", src), ("src/a/Sub.java", sub), ("src/a/Fees.java", fees)],
        "src/a/Src.java",
        "fee",
        "class:a.Fees",
        "private_member_used",
        "would override or be overridden by `a.Sub#base`",
    );
}

#[test]
fn a_test_method_takes_its_private_helpers_along() {
    let src = "package a;\n\nimport org.junit.Test;\n\npublic class Src {\n    @Test\n    public void adds() {\n        check(1 + 1, 2);\n    }\n\n    private void check(int got, int want) {\n        if (got != want) {\n            throw new AssertionError(got);\n        }\n    }\n\n    @Test\n    public void keeps() {\n    }\n}\n";
    let other = "package a;\n\npublic class OtherTest {\n}\n";
    let files = [("src/a/Src.java", src), ("src/a/OtherTest.java", other)];
    assert_refused(&files, "src/a/Src.java", "adds", "class:a.OtherTest", "source_state_used", "`check(...)`");
    let (_dir, p) = project(&files);
    let fid = p.file_id(Path::new("src/a/Src.java")).unwrap();
    let id = p.methods_in(fid).unwrap().into_iter().find(|&m| p.method(m).name == "adds").unwrap();
    let spec = MoveSpec {
        to: "class:a.OtherTest".parse().unwrap(),
        keep_delegate: false,
        with_helpers: true,
        also: Vec::new(),
        widen_public: false,
    };
    let out = crate::engine::apply(&p, id, &crate::engine::Spec::MoveMethod(spec)).unwrap().render().unwrap();
    let src_after = &out[Path::new("src/a/Src.java")];
    assert!(!src_after.contains("check") && src_after.contains("public void keeps()"), "{src_after}");
    let dest = &out[Path::new("src/a/OtherTest.java")];
    assert!(dest.contains("    static void check(int got, int want) {"), "{dest}");
    assert!(dest.contains("    @Test\n    public void adds() {\n        OtherTest.check(1 + 1, 2);\n    }"), "{dest}");
}

#[test]
fn several_test_methods_move_together_as_one_change() {
    let src = "package a;\n\nimport org.junit.Test;\n\npublic class Src {\n    @Test\n    public void adds() {\n        if (1 + 1 != 2) {\n            throw new AssertionError();\n        }\n    }\n\n    @Test\n    public void keeps() {\n    }\n\n    @Test\n    public void stays() {\n    }\n}\n";
    let other = "package a;\n\npublic class OtherTest {\n}\n";
    let (_dir, p) = project(&[("src/a/Src.java", src), ("src/a/OtherTest.java", other)]);
    let fid = p.file_id(Path::new("src/a/Src.java")).unwrap();
    let id = p.methods_in(fid).unwrap().into_iter().find(|&m| p.method(m).name == "adds").unwrap();
    let spec = |also: &[&str]| MoveSpec {
        to: "class:a.OtherTest".parse().unwrap(),
        keep_delegate: false,
        with_helpers: false,
        also: also.iter().map(|s| s.to_string()).collect(),
        widen_public: false,
    };
    let apply = |s: MoveSpec| crate::engine::apply(&p, id, &crate::engine::Spec::MoveMethod(s));
    let out = apply(spec(&["keeps"])).unwrap().render().unwrap();
    let src_after = &out[Path::new("src/a/Src.java")];
    assert!(!src_after.contains("adds") && !src_after.contains("keeps") && src_after.contains("stays"), "{src_after}");
    let dest = &out[Path::new("src/a/OtherTest.java")];
    assert!(dest.contains("public void adds()") && dest.contains("public void keeps()"), "{dest}");
    let err = apply(spec(&["nowhere"])).unwrap_err();
    assert_eq!(err.reason, "no_such_method", "{}", err.message);
}

#[test]
fn widen_public_makes_what_another_package_needs_public() {
    let src = "package a;\n\npublic class Src {\n    private int rate = 2;\n\n    int base() {\n        return 1;\n    }\n\n    @Deprecated\n    static final int CAP = 9;\n\n    public int fee(int n) {\n        return Math.min(n * rate + base(), CAP);\n    }\n}\n";
    let fees = "package b;\n\npublic class Fees {\n}\n";
    let files = [("src/a/Src.java", src), ("src/b/Fees.java", fees)];
    assert_refused(&files, "src/a/Src.java", "fee", "class:b.Fees", "private_member_used", "--widen public");
    let (_dir, p) = project(&files);
    let fid = p.file_id(Path::new("src/a/Src.java")).unwrap();
    let id = p.methods_in(fid).unwrap().into_iter().find(|&m| p.method(m).name == "fee").unwrap();
    let spec = MoveSpec {
        to: "class:b.Fees".parse().unwrap(),
        keep_delegate: false,
        with_helpers: false,
        also: Vec::new(),
        widen_public: true,
    };
    let done = plan(&p, id, &spec).unwrap();
    assert_eq!(
        done.widened,
        [
            "`rate` of `a.Src`: private → public",
            "`base(...)` of `a.Src`: package-private → public",
            "`CAP` of `a.Src`: package-private → public"
        ]
    );
    let out = done.changes.render().unwrap();
    let src_after = &out[Path::new("src/a/Src.java")];
    for wanted in
        ["    public int rate = 2;", "    public int base() {", "    @Deprecated\n    public static final int CAP = 9;"]
    {
        assert!(src_after.contains(wanted), "{wanted}:\n{src_after}");
    }
    assert!(out[Path::new("src/b/Fees.java")].contains("public static int fee(Src src, int n) {"), "{out:#?}");
}
