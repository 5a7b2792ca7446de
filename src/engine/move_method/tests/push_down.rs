//! Push Down: an overriding instance method moved to a subclass of its class.

use super::*;

const SHAPE: &str = "package a;\n\npublic interface Shape {\n    double area();\n}\n";
const BASE: &str = "package a;\n\npublic abstract class Base implements Shape {\n    private double side = 2;\n    protected String name;\n\n    @Override\n    public double area() {\n        return side * side + name.length();\n    }\n\n    public String report() {\n        return name + area();\n    }\n}\n";
const LEAF: &str = "package a;\n\npublic class Leaf extends Base {\n    public double twice() {\n        return 2 * area();\n    }\n}\n";
const USER: &str = "package a;\n\npublic class User {\n    double of(Base b) {\n        return b.area();\n    }\n}\n";

fn files() -> Vec<(&'static str, &'static str)> {
    vec![("src/a/Shape.java", SHAPE), ("src/a/Base.java", BASE), ("src/a/Leaf.java", LEAF), ("src/a/User.java", USER)]
}

#[test]
fn an_override_goes_down_into_the_only_subclass_of_an_abstract_class_and_its_callers_stay() {
    let out = run(&files(), "src/a/Base.java", "area", "class:a.Leaf", false).expect("pushed down");
    let leaf = text(&out, "src/a/Leaf.java");
    assert!(
        leaf.contains("    @Override\n    public double area() {\n        return side * side + name.length();\n    }"),
        "{leaf}"
    );
    assert!(!leaf.contains("static"), "{leaf}");
    let base = text(&out, "src/a/Base.java");
    assert!(!base.contains("double area()"), "{base}");
    // The private field it reads is not inherited: package-private now, in the same package.
    assert!(base.contains("    double side = 2;"), "{base}");
    // Calls through the class and the interface are untouched: they dispatch to the subclass.
    assert!(base.contains("return name + area();"), "{base}");
    assert!(leaf.contains("return 2 * area();"), "{leaf}");
    assert!(!out.iter().any(|(p, _)| p.ends_with("User.java")), "User is unchanged: {out:#?}");
}

#[test]
fn a_push_down_that_would_change_which_code_runs_is_refused_by_name() {
    // The class is concrete: its own objects would run the interface's (no) method.
    let concrete = BASE.replace("public abstract class Base", "public class Base");
    let files = [("src/a/Shape.java", SHAPE), ("src/a/Base.java", concrete.as_str()), ("src/a/Leaf.java", LEAF)];
    let r = refused(&files, "src/a/Base.java", "area", "class:a.Leaf");
    assert_eq!(r.reason, "in_hierarchy", "{}", r.message);
    assert!(r.message.contains("`a.Base` is not abstract"), "{}", r.message);
    // Another subclass inherits it.
    let other = "package a;\n\npublic class Other extends Base {\n}\n";
    let r = refused(&files_with(&[("src/a/Other.java", other)]), "src/a/Base.java", "area", "class:a.Leaf");
    assert_eq!(r.reason, "in_hierarchy", "{}", r.message);
    assert!(r.message.contains("`a.Other` extends `a.Base` too"), "{}", r.message);
    // The subclass calls `super.area()`, which would reach past the moved method.
    let calls_super = LEAF.replace("2 * area()", "2 * super.area()");
    let r = refused(&files_with(&[("src/a/Leaf.java", &calls_super)]), "src/a/Base.java", "area", "class:a.Leaf");
    assert_eq!(r.reason, "in_hierarchy", "{}", r.message);
    assert!(r.message.contains("`a.Leaf#twice` calls `super.area(…)`"), "{}", r.message);
    // A field of the subclass would hide the one the body reads.
    let hiding = LEAF.replace("extends Base {\n", "extends Base {\n    String name;\n\n");
    let r = refused(&files_with(&[("src/a/Leaf.java", &hiding)]), "src/a/Base.java", "area", "class:a.Leaf");
    assert_eq!(r.reason, "name_clash", "{}", r.message);
    assert!(r.message.contains("`a.Leaf` hides"), "{}", r.message);
}

/// [`files`] with some replaced or added.
fn files_with<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut out: Vec<(&str, &str)> = files().into_iter().filter(|(p, _)| !extra.iter().any(|(q, _)| q == p)).collect();
    out.extend_from_slice(extra);
    out
}
