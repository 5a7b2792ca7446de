//! Fixtures (`@Before`, `@AfterClass`, ...) move only where the tests they run around still
//! run them: with those tests, or into a superclass of their class.

use super::*;

#[test]
fn a_fixture_method_does_not_move_away_from_the_tests_it_runs_around() {
    // Moved alone, `Src`'s test would run without its set-up.
    let other = "package a;\n\npublic class OtherTest {\n}\n";
    for annotation in ["@Before", "@org.junit.jupiter.api.AfterEach", "@BeforeClass"] {
        let modifier = if annotation == "@BeforeClass" { "static " } else { "" };
        let src = format!(
            "package a;\n\nimport org.junit.*;\n\npublic class Src {{\n    {annotation}\n    public {modifier}void prepare() {{\n        System.setProperty(\"k\", \"v\");\n    }}\n\n    @Test\n    public void reads() {{\n    }}\n}}\n"
        );
        assert_refused(
            &[("src/a/Src.java", &src), ("src/a/OtherTest.java", other)],
            "src/a/Src.java",
            "prepare",
            "class:a.OtherTest",
            "fixture_method",
            &format!(
                "is a fixture ({annotation}) that its framework runs around the tests left in its class (`reads`)"
            ),
        );
    }
    // A base class's fixture runs around its subclasses' tests.
    let base = "package a;\n\nimport org.junit.Before;\n\npublic abstract class Src {\n    @Before\n    public void prepare() {\n    }\n}\n";
    let sub = "package a;\n\nimport org.junit.Test;\n\npublic class SubTest extends Src {\n    @Test\n    public void reads() {\n    }\n}\n";
    assert_refused(
        &[("src/a/Src.java", base), ("src/a/SubTest.java", sub), ("src/a/OtherTest.java", other)],
        "src/a/Src.java",
        "prepare",
        "class:a.OtherTest",
        "fixture_method",
        "the subclasses that inherit it (`a.SubTest`)",
    );
}

#[test]
fn a_fixture_moved_into_a_superclass_still_runs_around_the_tests_of_its_class() {
    let base = "package a;\n\npublic abstract class BaseTest {\n}\n";
    let src = "package a;\n\nimport org.junit.After;\nimport org.junit.Test;\n\npublic class Src extends BaseTest {\n    @After\n    public void clear() {\n        System.clearProperty(\"k\");\n    }\n\n    @Test\n    public void reads() {\n    }\n}\n";
    let files = [("src/a/Src.java", src), ("src/a/BaseTest.java", base)];
    let spec = MoveSpec::new("class:a.BaseTest".parse().unwrap());
    let out = run_spec(&files, "src/a/Src.java", "clear", &spec).unwrap();
    let dest = text(&out, "src/a/BaseTest.java");
    assert!(dest.contains("@After\n    public void clear()") && dest.contains("import org.junit.After;"), "{dest}");
    let src_after = text(&out, "src/a/Src.java");
    assert!(!src_after.contains("clear") && src_after.contains("public void reads()"), "{src_after}");
    // An interface the class implements is above it too, but no place for a test's fixture.
    let iface = "package a;\n\npublic interface Cleaning {\n}\n";
    let src = src.replace("extends BaseTest", "implements Cleaning");
    assert_refused(
        &[("src/a/Src.java", &src), ("src/a/Cleaning.java", iface)],
        "src/a/Src.java",
        "clear",
        "class:a.Cleaning",
        "destination_interface",
        "a test method moves into a test class, not an interface",
    );
}

#[test]
fn a_fixture_moves_with_the_last_tests_of_its_class() {
    let src = "package a;\n\nimport org.junit.Before;\nimport org.junit.Test;\n\npublic class Src {\n    @Before\n    public void prepare() {\n        System.setProperty(\"k\", \"v\");\n    }\n\n    @Test\n    public void reads() {\n    }\n}\n";
    let other = "package a;\n\npublic class OtherTest {\n}\n";
    let spec = MoveSpec {
        to: "class:a.OtherTest".parse().unwrap(),
        also: vec!["reads".to_string()],
        ..MoveSpec::new(Destination::Class(String::new()))
    };
    // Named first, the fixture still moves after the test it runs around.
    let out = run_spec(&[("src/a/Src.java", src), ("src/a/OtherTest.java", other)], "src/a/Src.java", "prepare", &spec)
        .unwrap();
    let dest = text(&out, "src/a/OtherTest.java");
    assert!(dest.contains("@Before\n    public void prepare()") && dest.contains("public void reads()"), "{dest}");
    assert!(dest.contains("import org.junit.Before;"), "{dest}");
    let src_after = text(&out, "src/a/Src.java");
    assert!(!src_after.contains("prepare") && !src_after.contains("reads"), "{src_after}");
}
