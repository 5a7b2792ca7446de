//! Pull Up: an instance method moved to a superclass of its class.

use super::*;

const BASE: &str = "package a;\n\npublic abstract class Shape {\n    protected String name;\n\n    public abstract double area();\n\n    public String label() {\n        return name;\n    }\n}\n";
const CIRCLE: &str = "package a;\n\npublic class Circle extends Shape {\n    private double r;\n\n    @Override\n    public double area() {\n        return Math.PI * r * r;\n    }\n\n    String describe() {\n        return label() + \" of \" + name.length();\n    }\n\n    void print() {\n        System.out.println(describe());\n    }\n}\n";
const SQUARE: &str = "package a;\n\npublic class Square extends Shape {\n    private double side;\n\n    @Override\n    public double area() {\n        return side * side;\n    }\n}\n";

fn files() -> Vec<(&'static str, &'static str)> {
    vec![("src/a/Shape.java", BASE), ("src/a/Circle.java", CIRCLE), ("src/a/Square.java", SQUARE)]
}

#[test]
fn a_method_using_only_inherited_members_goes_up_unchanged_and_its_callers_stay() {
    let out = run(&files(), "src/a/Circle.java", "describe", "class:a.Shape", false).expect("pulled up");
    let shape = text(&out, "src/a/Shape.java");
    assert!(
        shape.contains("    String describe() {\n        return label() + \" of \" + name.length();\n    }\n}"),
        "{shape}"
    );
    assert!(!shape.contains("static"), "{shape}");
    let circle = text(&out, "src/a/Circle.java");
    assert!(!circle.contains("String describe()"), "{circle}");
    // The caller is untouched: `describe()` is inherited now.
    assert!(circle.contains("System.out.println(describe());"), "{circle}");
}

#[test]
fn a_private_helper_becomes_visible_to_its_class() {
    let circle = CIRCLE.replace("    String describe()", "    private String describe()");
    let files = [("src/a/Shape.java", BASE), ("src/a/Circle.java", circle.as_str()), ("src/a/Square.java", SQUARE)];
    let out = run(&files, "src/a/Circle.java", "describe", "class:a.Shape", false).expect("pulled up");
    let shape = text(&out, "src/a/Shape.java");
    assert!(shape.contains("    String describe() {"), "same package: package-private, not private\n{shape}");
    // Another package's subclass calls it: protected is enough.
    let sub = "package b;\n\nimport a.Shape;\n\npublic class Ring extends Shape {\n    private String tag() {\n        return name;\n    }\n\n    @Override\n    public double area() {\n        return 0;\n    }\n\n    public String show() {\n        return tag();\n    }\n}\n";
    let files = [("src/a/Shape.java", BASE), ("src/b/Ring.java", sub), ("src/a/Square.java", SQUARE)];
    let out = run(&files, "src/b/Ring.java", "tag", "class:a.Shape", false).expect("pulled up");
    assert!(text(&out, "src/a/Shape.java").contains("    protected String tag() {"), "{out:#?}");
}

#[test]
fn an_override_goes_up_when_every_other_subclass_keeps_its_own() {
    // `area()` is abstract in Shape's... Shape declares it: a clash, refused.
    let r = refused(&files(), "src/a/Circle.java", "area", "class:a.Shape");
    assert_eq!(r.reason, "name_clash", "{}", r.message);
    // Overriding a method above the destination, when the other subclass overrides it too.
    let top = "package a;\n\npublic class Thing {\n    public String kind() {\n        return \"thing\";\n    }\n}\n";
    let base = "package a;\n\npublic abstract class Part extends Thing {\n}\n";
    let gear = "package a;\n\npublic class Gear extends Part {\n    @Override\n    public String kind() {\n        return \"gear\";\n    }\n}\n";
    let bolt = "package a;\n\npublic class Bolt extends Part {\n    @Override\n    public String kind() {\n        return \"bolt\";\n    }\n}\n";
    let files =
        [("src/a/Thing.java", top), ("src/a/Part.java", base), ("src/a/Gear.java", gear), ("src/a/Bolt.java", bolt)];
    let out = run(&files, "src/a/Gear.java", "kind", "class:a.Part", false).expect("pulled up");
    assert!(
        text(&out, "src/a/Part.java").contains("    @Override\n    public String kind() {\n        return \"gear\";"),
        "{out:#?}"
    );
    // A sibling that inherits Thing's version would run the gear's instead: refused, by name.
    let files = [
        ("src/a/Thing.java", top),
        ("src/a/Part.java", base),
        ("src/a/Gear.java", gear),
        ("src/a/Nut.java", "package a;\n\npublic class Nut extends Part {\n}\n"),
    ];
    let r = refused(&files, "src/a/Gear.java", "kind", "class:a.Part");
    assert_eq!(r.reason, "in_hierarchy", "{}", r.message);
    assert!(r.message.contains("`a.Nut` inherits `kind`"), "{}", r.message);
}

#[test]
fn what_the_superclass_does_not_have_is_refused_by_name() {
    let circle = CIRCLE.replace("return label() + \" of \" + name.length();", "return label() + r;");
    let files = [("src/a/Shape.java", BASE), ("src/a/Circle.java", circle.as_str()), ("src/a/Square.java", SQUARE)];
    assert_refused(&files, "src/a/Circle.java", "describe", "class:a.Shape", "source_state_used", "`r` of `a.Circle`");
    let circle = CIRCLE.replace("return label() + \" of \" + name.length();", "return super.label();");
    let files = [("src/a/Shape.java", BASE), ("src/a/Circle.java", circle.as_str()), ("src/a/Square.java", SQUARE)];
    assert_refused(&files, "src/a/Circle.java", "describe", "class:a.Shape", "super_call", "uses `super`");
    let circle = CIRCLE.replace("return label() + \" of \" + name.length();", "return String.valueOf(this);");
    let files = [("src/a/Shape.java", BASE), ("src/a/Circle.java", circle.as_str()), ("src/a/Square.java", SQUARE)];
    assert_refused(&files, "src/a/Circle.java", "describe", "class:a.Shape", "source_state_used", "`this` as a value");
    // A subclass declaring the same private method would start overriding it.
    let circle = CIRCLE.replace("    String describe()", "    private String describe()");
    let square = SQUARE
        .replace("    @Override", "    private String describe() {\n        return \"\";\n    }\n\n    @Override");
    let files =
        [("src/a/Shape.java", BASE), ("src/a/Circle.java", circle.as_str()), ("src/a/Square.java", square.as_str())];
    assert_refused(&files, "src/a/Circle.java", "describe", "class:a.Shape", "in_hierarchy", "would then override it");
}

/// A private method is not inherited: pulled up into an enclosing file's superclass, its
/// subclass caller still needs it package-private.
#[test]
fn a_private_helper_of_a_nested_subclass_becomes_package_private() {
    let token = "package a;\n\nclass Token {\n    static class Tag {\n        String name;\n    }\n\n    static class StartTag extends Tag {\n        private boolean named() {\n            return name != null;\n        }\n\n        public String toString() {\n            return named() ? name : \"\";\n        }\n    }\n}\n";
    let out = run(&[("src/a/Token.java", token)], "src/a/Token.java", "named", "class:a.Token.Tag", false)
        .expect("pulled up");
    let t = text(&out, "src/a/Token.java");
    assert!(t.contains("        boolean named() {\n            return name != null;\n        }\n    }"), "{t}");
    assert!(!t.contains("private boolean named"), "{t}");
}
