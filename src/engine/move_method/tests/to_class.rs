//! Instance methods moved to any class (`class:FQN`): they become static there, and what they
//! used of their object comes through a new first parameter.

use super::*;

fn moved(files: &[(&str, &str)], method: &str, to: &str) -> Vec<(String, String)> {
    run(files, "src/a/Src.java", method, to, false).unwrap_or_else(|r| panic!("refused: {r:?}"))
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
        ..MoveSpec::new(Destination::Class(String::new()))
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
        ..MoveSpec::new(Destination::Class(String::new()))
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
        widen_public: true,
        ..MoveSpec::new(Destination::Class(String::new()))
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

#[test]
fn a_type_name_that_means_another_type_in_the_destination_is_written_fully_qualified() {
    // `Rule` is the source's nested class, and the destination has a nested `Rule` of its own;
    // `List` is imported by the source, and the destination's package has a `List`.
    let src = "package a;\n\nimport java.util.List;\n\npublic class Src {\n    public static class Rule {\n        public static Rule make() {\n            return new Rule();\n        }\n    }\n\n    static int count(List<Rule> rules) {\n        Rule r = Rule.make();\n        return rules.size();\n    }\n}\n";
    let dest = "package b;\n\npublic class Dest {\n    static class Rule {\n    }\n}\n";
    let list = "package b;\n\npublic class List {\n}\n";
    let out = run(
        &[("src/a/Src.java", src), ("src/b/Dest.java", dest), ("src/b/List.java", list)],
        "src/a/Src.java",
        "count",
        "class:b.Dest",
        false,
    )
    .unwrap_or_else(|r| panic!("refused: {r:?}"));
    let dest_after = text(&out, "src/b/Dest.java");
    assert!(
        dest_after.contains(
            "    static int count(java.util.List<a.Src.Rule> rules) {\n        a.Src.Rule r = a.Src.Rule.make();\n"
        ),
        "{dest_after}"
    );
    assert!(!dest_after.contains("import"), "no import can bring in a name already taken: {dest_after}");

    // A local class of the method moves with it: no clash with the destination's nested class.
    let src = "package a;\n\nclass Src {\n    int local() {\n        class Rule {\n            int n = 1;\n        }\n        return new Rule().n;\n    }\n}\n";
    let dest = "package a;\n\nclass Dest {\n    static class Rule {\n    }\n}\n";
    let out = moved(&[("src/a/Src.java", src), ("src/a/Dest.java", dest)], "local", "class:a.Dest");
    assert!(text(&out, "src/a/Dest.java").contains("        return new Rule().n;"), "{out:#?}");
}

#[test]
fn a_destination_class_that_does_not_exist_is_created_in_an_existing_package() {
    let src = "package a;\n\nclass Src {\n    int rate;\n\n    int fee(int n) {\n        return n * rate;\n    }\n\n    int total() {\n        return fee(2);\n    }\n}\n";
    let other = "package a.util;\n\npublic class Other {\n}\n";
    let files = [("src/main/java/a/Src.java", src), ("src/main/java/a/util/Other.java", other)];
    let (_dir, p) = project(&files);
    let fid = p.file_id(Path::new("src/main/java/a/Src.java")).expect("file");
    let id = p.methods_in(fid).expect("parsed").into_iter().find(|&m| p.method(m).name == "fee").expect("method");

    // Same package: a package-private class beside the source.
    let done = plan(&p, id, &MoveSpec::new("class:a.Fees".parse().expect("destination"))).expect("moved");
    assert_eq!(done.created.as_deref(), Some(Path::new("src/main/java/a/Fees.java")));
    // What the user hears beside the diff.
    assert_eq!(done.changes.notes, ["created `a.Fees` in src/main/java/a/Fees.java"]);
    let out = done.changes.render().expect("renders");
    assert_eq!(
        out[Path::new("src/main/java/a/Fees.java")],
        "package a;\n\nclass Fees {\n    static int fee(Src src, int n) {\n        return n * src.rate;\n    }\n}\n"
    );
    assert!(out[Path::new("src/main/java/a/Src.java")].contains("return Fees.fee(this, 2);"));
    assert!(matches!(
        done.changes.files[Path::new("src/main/java/a/Fees.java")],
        crate::engine::FileChange::Create { .. }
    ));

    // Another package: a public class, imported by the caller.
    let done = plan(&p, id, &MoveSpec::new("class:a.util.Fees".parse().expect("destination")));
    let r = done.expect_err("`rate` is package-private and Src is not public");
    assert_eq!(r.reason, "inaccessible_member", "{}", r.message);

    // A member class of an existing class: added at the end of its body, static.
    let holder = "package a;\n\nclass Holder {\n    int n;\n}\n";
    let files = [("src/main/java/a/Src.java", src), ("src/main/java/a/Holder.java", holder)];
    let (_dir2, p2) = project(&files);
    let fid = p2.file_id(Path::new("src/main/java/a/Src.java")).expect("file");
    let id2 = p2.methods_in(fid).expect("parsed").into_iter().find(|&m| p2.method(m).name == "fee").expect("method");
    let done = plan(&p2, id2, &MoveSpec::new("class:a.Holder.Fees".parse().expect("destination"))).expect("moved");
    assert_eq!(done.created.as_deref(), Some(Path::new("src/main/java/a/Holder.java")));
    let out = done.changes.render().expect("renders");
    assert_eq!(
        out[Path::new("src/main/java/a/Holder.java")],
        "package a;\n\nclass Holder {\n    int n;\n\n    static class Fees {\n        static int fee(Src src, int n) {\n            return n * src.rate;\n        }\n    }\n}\n"
    );
    assert!(out[Path::new("src/main/java/a/Src.java")].contains("return Holder.Fees.fee(this, 2);"), "{out:#?}");

    // What cannot be created is refused, saying why.
    for (to, says) in [
        ("class:a.nowhere.Fees", "no file of the project is in package `a.nowhere`"),
        ("class:a.9Fees", "not a Java class name"),
    ] {
        let r = plan(&p, id, &MoveSpec::new(to.parse().expect("destination"))).expect_err(to);
        assert_eq!(r.reason, "destination_not_in_project", "{}", r.message);
        assert!(r.message.contains(says), "{to}: {}", r.message);
    }
}

#[test]
fn a_method_moves_into_an_interface_as_a_static_method() {
    let src = "package a;\n\nclass Src {\n    private final int twice(int x) {\n        return x * 2;\n    }\n\n    int use() {\n        return twice(3);\n    }\n}\n";
    let shape = "package a;\n\npublic interface Shape {\n    int area();\n}\n";
    let out = moved(&[("src/a/Src.java", src), ("src/a/Shape.java", shape)], "twice", "class:a.Shape");
    assert_eq!(
        text(&out, "src/a/Shape.java"),
        "package a;\n\npublic interface Shape {\n    int area();\n\n    static int twice(int x) {\n        return x * 2;\n    }\n}\n"
    );
    assert!(text(&out, "src/a/Src.java").contains("return Shape.twice(3);"), "{out:#?}");
    // A test method does not move into an interface, where its framework would not run it.
    let test = "package a;\n\nimport org.junit.Test;\n\npublic class SrcTest {\n    @Test\n    public void adds() {\n    }\n}\n";
    assert_refused(
        &[("src/a/SrcTest.java", test), ("src/a/Shape.java", shape)],
        "src/a/SrcTest.java",
        "adds",
        "class:a.Shape",
        "destination_interface",
        "a test method moves into a test class",
    );
}

#[test]
fn widen_public_also_makes_the_classes_it_needs_public() {
    // From another package the method needs its own package-private class (for its object and
    // its constant) and a package-private class it names.
    let limits = "package a;\n\n@SuppressWarnings(\"x\")\nfinal class Limits {\n}\n";
    let src = "package a;\n\nclass Src {\n    int n;\n    static final int CAP = 3;\n\n    int capped() {\n        Limits unused = null;\n        return Math.min(n, CAP);\n    }\n}\n";
    let fees = "package b;\n\npublic class Fees {\n}\n";
    let files = [("src/a/Limits.java", limits), ("src/a/Src.java", src), ("src/b/Fees.java", fees)];
    let r = refused(&files, "src/a/Src.java", "capped", "class:b.Fees");
    assert!(r.message.contains("--widen public"), "{}", r.message);
    let (_dir, p) = project(&files);
    let fid = p.file_id(Path::new("src/a/Src.java")).unwrap();
    let id = p.methods_in(fid).unwrap().into_iter().find(|&m| p.method(m).name == "capped").unwrap();
    let spec = MoveSpec { widen_public: true, ..MoveSpec::new("class:b.Fees".parse().unwrap()) };
    let done = plan(&p, id, &spec).unwrap_or_else(|r| panic!("{r:?}"));
    let out = done.changes.render().unwrap();
    assert_eq!(
        out[Path::new("src/a/Limits.java")],
        "package a;\n\n@SuppressWarnings(\"x\")\npublic final class Limits {\n}\n"
    );
    assert_eq!(
        out[Path::new("src/a/Src.java")],
        "package a;\n\npublic class Src {\n    public int n;\n    public static final int CAP = 3;\n}\n"
    );
    assert!(out[Path::new("src/b/Fees.java")].contains("import a.Limits;"), "{out:#?}");
    for w in ["class `a.Src`: package-private → public", "class `a.Limits`: package-private → public"] {
        assert!(done.widened.iter().any(|x| x == w), "{w}: {:?}", done.widened);
        assert!(
            done.changes.notes.contains(&format!("made visible to the destination: {w}")),
            "{:?}",
            done.changes.notes
        );
    }
}

#[test]
fn a_field_of_another_object_must_be_visible_from_the_destination() {
    let node = "package a;\n\npublic class Node {\n    protected Node parent;\n}\n";
    let src = "package a;\n\npublic class Element extends Node {\n    static boolean orphan(Element e) {\n        return e.parent == null;\n    }\n}\n";
    let util = "package b;\n\npublic class Util {\n}\n";
    assert_refused(
        &[("src/a/Node.java", node), ("src/a/Element.java", src), ("src/b/Util.java", util)],
        "src/a/Element.java",
        "orphan",
        "class:b.Util",
        "inaccessible_member",
        "`parent` of `a.Node`",
    );
    // In the same package it is visible, and the move goes ahead.
    let util = "package a;\n\npublic class Util {\n}\n";
    let files = [("src/a/Node.java", node), ("src/a/Element.java", src), ("src/a/Util.java", util)];
    let out = run(&files, "src/a/Element.java", "orphan", "class:a.Util", false).unwrap_or_else(|r| panic!("{r:?}"));
    assert!(text(&out, "src/a/Util.java").contains("return e.parent == null;"), "{out:#?}");
}

/// Issue 15: `--as auto` (the default) moves an instance method to `class:FQN` through a
/// parameter (else a field) of that class, so it stays an instance method there; `--as static`
/// makes it static; `--as instance` is refused when no caller has an object of the class.
#[test]
fn as_auto_static_and_instance() {
    let item = "package a;\n\npublic class Item {\n    int price;\n}\n";
    let src = "package a;\n\nclass Src {\n    int twice(Item item) {\n        return item.price * 2;\n    }\n\n    int use(Item i) {\n        return twice(i);\n    }\n}\n";
    let files = [("src/a/Item.java", item), ("src/a/Src.java", src)];
    let (_dir, p) = project(&files);
    let fid = p.file_id(Path::new("src/a/Src.java")).unwrap();
    let id = p.methods_in(fid).unwrap().into_iter().find(|&m| p.method(m).name == "twice").unwrap();
    let to = || MoveSpec::new("class:a.Item".parse().unwrap());
    let auto = plan(&p, id, &to()).unwrap();
    assert_eq!(auto.signature, "int twice()");
    let rendered = auto.changes.render().unwrap();
    assert!(rendered[Path::new("src/a/Src.java")].contains("return i.twice();"), "{rendered:?}");
    let stat = plan(&p, id, &MoveSpec { as_mode: AsMode::Static, ..to() }).unwrap();
    assert_eq!(stat.signature, "static int twice(Item item)");
    let inst = plan(&p, id, &MoveSpec { as_mode: AsMode::Instance, ..to() }).unwrap();
    assert_eq!(inst.signature, "int twice()");
    // No object of the class reachable: `--as instance` is refused, `--as auto` makes it static.
    let other = "package a;\n\npublic class Other {\n}\n";
    let files = [("src/a/Item.java", item), ("src/a/Src.java", src), ("src/a/Other.java", other)];
    let r = refused_spec(
        &files,
        "twice",
        &MoveSpec { as_mode: AsMode::Instance, ..MoveSpec::new("class:a.Other".parse().unwrap()) },
    );
    assert_eq!(r.reason, "no_destination_instance", "{}", r.message);
    assert!(r.message.contains("--as static"), "{}", r.message);
    assert!("sideways".parse::<AsMode>().unwrap_err().contains("--as static"));
}

fn refused_spec(files: &[(&str, &str)], method: &str, spec: &MoveSpec) -> Refusal {
    run_spec(files, "src/a/Src.java", method, spec).expect_err("refused")
}

#[test]
fn a_test_method_reads_the_destination_s_equivalent_fixture_field() {
    let src = "package a;\n\nimport org.junit.Test;\n\npublic class Src {\n    Server server = new Server();\n\n    @Test\n    public void pings() {\n        if (!server.ping() || !this.server.ping()) {\n            throw new AssertionError();\n        }\n    }\n}\n";
    let server = "package a;\n\npublic class Server {\n    public boolean ping() {\n        return true;\n    }\n}\n";
    // Same type, a related name: the body reads the destination's field.
    let dest =
        "package a;\n\npublic class OtherTest {\n    Server mockServer = new Server();\n    String label = \"x\";\n}\n";
    let files = [("src/a/Src.java", src), ("src/a/Server.java", server), ("src/a/OtherTest.java", dest)];
    let (_dir, p) = project(&files);
    let fid = p.file_id(Path::new("src/a/Src.java")).unwrap();
    let id = p.methods_in(fid).unwrap().into_iter().find(|&m| p.method(m).name == "pings").unwrap();
    let done = plan(&p, id, &MoveSpec::new("class:a.OtherTest".parse().unwrap())).unwrap();
    let out = done.changes.render().unwrap();
    let after = &out[Path::new("src/a/OtherTest.java")];
    assert!(after.contains("        if (!mockServer.ping() || !this.mockServer.ping()) {"), "{after}");
    assert!(
        done.changes.notes.iter().any(|n| n.contains("wired: `server` → the destination's `mockServer`")),
        "{:?}",
        done.changes.notes
    );
    // Two fields of the type with unrelated names: nothing says which, so it is refused.
    let two = "package a;\n\npublic class OtherTest {\n    Server primary = new Server();\n    Server backup = new Server();\n}\n";
    assert_refused(
        &[("src/a/Src.java", src), ("src/a/Server.java", server), ("src/a/OtherTest.java", two)],
        "src/a/Src.java",
        "pings",
        "class:a.OtherTest",
        "source_state_used",
        "`server` of `a.Src`",
    );
}

/// A call without a receiver that nothing of the project declares is the source's inherited
/// method from its supertype outside the project: called on the source object (or, from a static
/// method, through its class), with a note that the build checks its access. With an enclosing
/// class that has such a supertype too, which of them provides it is unknown: refused.
#[test]
fn a_method_inherited_from_outside_the_project_is_called_on_the_source() {
    let src = "package a;\n\nclass Src extends java.util.ArrayList<String> {\n    String summary() {\n        return size() + \" rows\";\n    }\n\n    String show() {\n        return summary();\n    }\n}\n";
    let util = "package a;\n\nclass Util {\n}\n";
    let files = [("src/a/Src.java", src), ("src/a/Util.java", util)];
    let (_dir, p) = project(&files);
    let fid = p.file_id(Path::new("src/a/Src.java")).expect("file");
    let id = p.methods_in(fid).expect("parsed").into_iter().find(|&m| p.method(m).name == "summary").expect("method");
    let summary = plan(&p, id, &MoveSpec::new("class:a.Util".parse().expect("destination"))).expect("moved");
    let out: Vec<(String, String)> =
        summary.changes.render().expect("render").into_iter().map(|(p, t)| (p.display().to_string(), t)).collect();
    assert!(
        text(&out, "src/a/Util.java")
            .contains("    static String summary(Src src) {\n        return src.size() + \" rows\";"),
        "{out:#?}"
    );
    assert!(text(&out, "src/a/Src.java").contains("        return Util.summary(this);"), "{out:#?}");
    assert!(
        summary.changes.notes.iter().any(|n| n.contains("`size(...)`, from java.util.ArrayList<String>")),
        "{:?}",
        summary.changes.notes
    );

    let statics = "package a;\n\nclass Src extends Thread {\n    static boolean alive() {\n        return currentThread() != null;\n    }\n}\n";
    let out = moved(&[("src/a/Src.java", statics), ("src/a/Util.java", util)], "alive", "class:a.Util");
    assert!(text(&out, "src/a/Util.java").contains("        return Src.currentThread() != null;"), "{out:#?}");

    let nested = "package a;\n\nclass Src extends Thread {\n    static class In extends java.util.ArrayList<String> {\n        String summary() {\n            return getName() + size();\n        }\n    }\n}\n";
    let r = super::refused(
        &[("src/a/Src.java", nested), ("src/a/Util.java", util)],
        "src/a/Src.java",
        "summary",
        "class:a.Util",
    );
    assert_eq!(r.reason, "unresolved_call", "{}", r.message);
}

/// Through a parameter of an interface type, an instance method becomes a `default` method of
/// the interface (Java 8), also when `class:` names the interface and the method has such a
/// parameter; an implementation declaring the same signature would override it (refused), and a
/// default method may not be one of `Object`'s.
#[test]
fn through_an_interface_typed_parameter_a_method_becomes_a_default_method() {
    let rule = "package a;\n\npublic interface Rule {\n    int pct();\n}\n";
    let src = "package a;\n\nclass Src {\n    private int twice(Rule r, int x) {\n        return r.pct() * x * 2;\n    }\n\n    int use(Rule r) {\n        return twice(r, 3);\n    }\n}\n";
    for to in ["param:r", "class:a.Rule"] {
        let out = moved(&[("src/a/Src.java", src), ("src/a/Rule.java", rule)], "twice", to);
        assert!(
            text(&out, "src/a/Rule.java")
                .contains("    int pct();\n\n    default int twice(int x) {\n        return pct() * x * 2;\n    }\n"),
            "{to}: {out:#?}"
        );
        assert!(text(&out, "src/a/Src.java").contains("        return r.twice(3);\n"), "{to}: {out:#?}");
    }
    let flat = "package a;\n\nclass Flat implements Rule {\n    public int pct() {\n        return 1;\n    }\n\n    public int twice(int x) {\n        return x;\n    }\n}\n";
    let files = [("src/a/Src.java", src), ("src/a/Rule.java", rule), ("src/a/Flat.java", flat)];
    assert_refused(&files, "src/a/Src.java", "twice", "param:r", "name_clash", "a.Flat");
    let shown = "package a;\n\nclass Src {\n    String toString(Rule r) {\n        return \"\" + r.pct();\n    }\n}\n";
    let files = [("src/a/Src.java", shown), ("src/a/Rule.java", rule)];
    assert_refused(&files, "src/a/Src.java", "toString", "param:r", "name_clash", "default method `toString`");
}

/// `class:Dest` (`--as auto`) goes through a field of that type only when the method reads the
/// field: through one it never touches, the moved call would dereference an object the method did
/// not (a null field would throw), so the method becomes static, its object passed in.
#[test]
fn a_field_the_method_never_reads_is_no_channel() {
    let tag = "package a;\n\nclass Tag {\n    String name;\n}\n";
    let src = "package a;\n\nclass Src {\n    Tag pending;\n    int errors;\n\n    \
                 void check(Tag tag) {\n        if (tag.name == null)\n            errors++;\n    }\n\n    \
                 void rename(String n) {\n        pending.name = n;\n    }\n}\n";
    let files = [("src/a/Tag.java", tag), ("src/a/Src.java", src)];
    // `check` never reads `pending`, but `tag` is a `Tag`: the parameter is the channel.
    let out = moved(&files, "check", "class:a.Tag");
    assert!(text(&out, "src/a/Tag.java").contains("    void check(Src src) {"), "{out:#?}");
    // `rename` reads `pending`: the field is the channel, as before.
    let out = moved(&files, "rename", "class:a.Tag");
    assert!(text(&out, "src/a/Tag.java").contains("    void rename(String n) {\n        name = n;"), "{out:#?}");
    let noisy = src.replace(
        "void check(Tag tag) {\n        if (tag.name == null)",
        "void check(Object o) {\n        if (o == null)",
    );
    let files = [("src/a/Tag.java", tag), ("src/a/Src.java", noisy.as_str())];
    let out = moved(&files, "check", "class:a.Tag");
    let src_after = text(&out, "src/a/Src.java");
    assert!(!src_after.contains("pending.check"), "{src_after}");
    assert!(text(&out, "src/a/Tag.java").contains("static void check(Src src, Object o) {"), "{out:#?}");
}

/// A method that overrides one of `Object`'s or a library type's, even unannotated, stays: moved,
/// its class would stop overriding it. A delegate left behind keeps the override.
#[test]
fn a_method_overriding_a_library_method_stays_unless_a_delegate_keeps_it() {
    let other = "package a;\n\npublic class Other {\n}\n";
    let cases = [
        (
            "public class Src {\n    public String toString() {\n        return \"src\";\n    }\n}\n",
            "toString",
            "overrides `Object.toString`",
        ),
        (
            "public class Src implements Comparable<Src> {\n    public int compareTo(Src o) {\n        return 0;\n    }\n}\n",
            "compareTo",
            "overrides `Comparable.compareTo`, outside the project",
        ),
        (
            "public class Src extends junit.framework.TestCase {\n    protected void setUp() {\n        System.setProperty(\"k\", \"v\");\n    }\n}\n",
            "setUp",
            "overrides `TestCase.setUp`",
        ),
    ];
    for (body, method, says) in cases {
        let src = format!("package a;\n\n{body}");
        assert_refused(
            &[("src/a/Src.java", &src), ("src/a/Other.java", other)],
            "src/a/Src.java",
            method,
            "class:a.Other",
            "in_hierarchy",
            says,
        );
    }
    // A JUnit 3 test overrides nothing; a package-private method nothing of a library type's.
    let junit3 = "package a;\n\npublic class Src extends junit.framework.TestCase {\n    public void testAdds() {\n        assertEquals(2, 1 + 1);\n    }\n\n    int twice(int x) {\n        return 2 * x;\n    }\n}\n";
    let dest = "package a;\n\npublic class OtherTest extends junit.framework.TestCase {\n}\n";
    let files = [("src/a/Src.java", junit3), ("src/a/OtherTest.java", dest)];
    let out = run(&files, "src/a/Src.java", "twice", "class:a.OtherTest", false).expect("package-private moves");
    assert!(text(&out, "src/a/OtherTest.java").contains("int twice(int x)"), "{out:#?}");
    // What a library type mantra cannot list declares is left to the build, with a note.
    let thread = "package a;\n\npublic class Src extends Thread {\n    public void run() {\n        System.setProperty(\"k\", \"v\");\n    }\n}\n";
    let (_dir, p) = project(&[("src/a/Src.java", thread), ("src/a/Other.java", other)]);
    let fid = p.file_id(Path::new("src/a/Src.java")).unwrap();
    let id = p.methods_in(fid).unwrap().into_iter().find(|&m| p.method(m).name == "run").unwrap();
    let moved = plan(&p, id, &MoveSpec::new("class:a.Other".parse().unwrap())).expect("moved");
    let says = "`Src` extends or implements `Thread`, outside the project: if `run()` overrides";
    assert!(moved.changes.notes.iter().any(|n| n.contains(says)), "{:?}", moved.changes.notes);
    // A project override too: the delegate keeps overriding, and `Sub` keeps overriding it.
    let base = "package a;\n\npublic class Base {\n    public int fee(int n) {\n        return n;\n    }\n}\n";
    let src = "package a;\n\npublic class Src extends Base {\n    int rate;\n\n    @Override\n    public int fee(int n) {\n        return n * rate;\n    }\n}\n";
    let sub = "package a;\n\npublic class Sub extends Src {\n    @Override\n    public int fee(int n) {\n        return 0;\n    }\n}\n";
    let files =
        [("src/a/Base.java", base), ("src/a/Src.java", src), ("src/a/Sub.java", sub), ("src/a/Other.java", other)];
    assert_refused(&files, "src/a/Src.java", "fee", "class:a.Other", "in_hierarchy", "`--keep-delegate`");
    let out = run(&files, "src/a/Src.java", "fee", "class:a.Other", true).expect("moves with a delegate");
    let src_after = text(&out, "src/a/Src.java");
    assert!(
        src_after.contains("    @Override\n    public int fee(int n) {\n        return Other.fee(this, n);"),
        "{src_after}"
    );
    assert!(text(&out, "src/a/Other.java").contains("return n * src.rate;"), "{out:#?}");
    // With a delegate, the class keeps overriding.
    let set_up = "package a;\n\npublic class Src extends junit.framework.TestCase {\n    protected void setUp() {\n        System.setProperty(\"k\", \"v\");\n    }\n}\n";
    let out = run(
        &[("src/a/Src.java", set_up), ("src/a/Other.java", other)],
        "src/a/Src.java",
        "setUp",
        "class:a.Other",
        true,
    )
    .expect("moves with a delegate");
    assert!(text(&out, "src/a/Src.java").contains("protected void setUp() {\n        Other.setUp();"), "{out:#?}");
}

/// A JUnit 3 test (`public void testX()` of a `TestCase`) is a test: it stays an instance method
/// of the test class it moves to, calling what `TestCase` provides there too.
#[test]
fn a_junit3_test_stays_a_test_of_the_test_case_it_moves_to() {
    let junit3 = "package a;\n\npublic class Src extends junit.framework.TestCase {\n    public void testAdds() {\n        assertEquals(2, 1 + 1);\n    }\n}\n";
    let dest = "package a;\n\npublic class OtherTest extends junit.framework.TestCase {\n}\n";
    let files = [("src/a/Src.java", junit3), ("src/a/OtherTest.java", dest)];
    let out = run(&files, "src/a/Src.java", "testAdds", "class:a.OtherTest", false).expect("moved");
    assert!(
        text(&out, "src/a/OtherTest.java")
            .contains("    public void testAdds() {\n        assertEquals(2, 1 + 1);\n    }"),
        "{out:#?}"
    );
    // Into a JUnit 4 test class nothing would run it.
    let junit4 = "package a;\n\npublic class FourTest {\n}\n";
    assert_refused(
        &[("src/a/Src.java", junit3), ("src/a/FourTest.java", junit4)],
        "src/a/Src.java",
        "testAdds",
        "class:a.FourTest",
        "not_a_test_case",
        "runs only in a class extending `TestCase`",
    );
    // Through a field it would no longer run: a test moves only to a test class.
    let helper = "package a;\n\npublic class Helper {\n}\n";
    let with_field = junit3.replace("TestCase {\n", "TestCase {\n    Helper helper = new Helper();\n\n");
    assert_refused(
        &[("src/a/Src.java", &with_field), ("src/a/Helper.java", helper)],
        "src/a/Src.java",
        "testAdds",
        "field:helper",
        "test_method_channel",
        "class:FQN",
    );
}
