//! Validation of an intended refactoring, and changes that hold none.

use super::*;

#[test]
fn unchanged_code_and_changed_bodies_report_nothing() {
    let s = snap(&[("Invoice.java", INVOICE_BEFORE)]);
    assert!(detect(&s, &s).is_empty());
    let edited = INVOICE_BEFORE.replace("\"name: \"", "\"Name: \"");
    assert!(detect(&s, &snap(&[("Invoice.java", &edited)])).is_empty());
}

#[test]
fn validate_matches_misses_and_explains() {
    let before = snap(&[("Invoice.java", INVOICE_BEFORE)]);
    let after = snap(&[("Invoice.java", INVOICE_AFTER)]);
    let intent = Intent {
        kind: RefactoringType::ExtractMethod,
        class: "Invoice".into(),
        method: "print".into(),
        new_name: Some("printBanner".into()),
        destination: None,
    };
    let v = validate(&intent, &before, &after);
    assert_eq!(v.verdict, Verdict::Matched, "{}", v.reason);
    assert!(v.reason.contains("printBanner"), "{}", v.reason);

    let v = validate(&intent, &before, &before);
    assert_eq!(v.verdict, Verdict::Missing);
    assert_eq!(
        v.reason,
        "no new method in `Invoice` is called from `print()`; the statements at lines 7–13 are still in `print()`"
    );

    let wrong = Intent { kind: RefactoringType::InlineMethod, method: "printBanner".into(), ..intent.clone() };
    let v = validate(&wrong, &before, &after);
    assert_eq!(v.verdict, Verdict::Missing);
    assert!(v.reason.contains("there is no method `printBanner()`"), "{}", v.reason);

    let v = validate(&Intent { method: "nothing".into(), ..intent }, &before, &after);
    assert_eq!(v.verdict, Verdict::Missing);
}

#[test]
fn validate_reports_ambiguity() {
    let before = "package p;\nclass A {\n  void run() {\n    System.out.println(\"one two three\");\n    System.out.println(\"four five six\");\n  }\n}\n";
    let after = "package p;\nclass A {\n  void run() {\n    first();\n    second();\n  }\n  void first() { System.out.println(\"one two three\"); }\n  void second() { System.out.println(\"four five six\"); }\n}\n";
    let intent = Intent {
        kind: RefactoringType::ExtractMethod,
        class: "p.A".into(),
        method: "run()".into(),
        new_name: None,
        destination: None,
    };
    let v = validate(&intent, &snap(&[("A.java", before)]), &snap(&[("A.java", after)]));
    assert_eq!(v.verdict, Verdict::Ambiguous, "{}", v.reason);
    assert!(v.reason.starts_with("2 refactorings fit"), "{}", v.reason);
}

/// Issue 15: inlining a nested class's method into callers of two other classes is, in
/// RefactoringMiner's terms, one Move And Inline per caller; the inlining asked for was found.
#[test]
fn an_inline_into_callers_of_other_classes_is_the_inline_asked_for() {
    let a = "package p;\n\npublic class A {\n    public static class Inner {\n        public int m(int x) {\n            int y = x * 2;\n            return y + 1;\n        }\n    }\n}\n";
    let b =
        "package p;\n\nclass B {\n    int call(A.Inner i) {\n        int r = i.m(4);\n        return r;\n    }\n}\n";
    let c = "package p;\n\nclass C {\n    int call(A.Inner i) {\n        int r = i.m(5);\n        return r - 1;\n    }\n}\n";
    let a2 = "package p;\n\npublic class A {\n    public static class Inner {\n    }\n}\n";
    let b2 = "package p;\n\nclass B {\n    int call(A.Inner i) {\n        int y = 4 * 2;\n        int r = y + 1;\n        return r;\n    }\n}\n";
    let c2 = "package p;\n\nclass C {\n    int call(A.Inner i) {\n        int y = 5 * 2;\n        int r = y + 1;\n        return r - 1;\n    }\n}\n";
    let before = snap(&[("p/A.java", a), ("p/B.java", b), ("p/C.java", c)]);
    let after = snap(&[("p/A.java", a2), ("p/B.java", b2), ("p/C.java", c2)]);
    let intent = Intent {
        kind: RefactoringType::InlineMethod,
        class: "p.A.Inner".into(),
        method: "m".into(),
        new_name: None,
        destination: None,
    };
    let v = validate(&intent, &before, &after);
    assert_eq!(v.verdict, Verdict::Matched, "{}", v.reason);
    assert!(v.reason.contains("(and 1 more call site(s))"), "{}", v.reason);
}

/// Issue 15: a method moved into its class's superclass is reported as Pull Up Method, which is
/// the move asked for when the destination is that superclass.
#[test]
fn a_pull_up_is_the_move_asked_for() {
    let base = "package p;\n\npublic class Base {\n    protected int size() {\n        return 1;\n    }\n}\n";
    let sub = "package p;\n\npublic class Sub extends Base {\n    String describe() {\n        int n = size();\n        return \"size \" + n;\n    }\n}\n";
    let base2 = "package p;\n\npublic class Base {\n    protected int size() {\n        return 1;\n    }\n\n    String describe() {\n        int n = size();\n        return \"size \" + n;\n    }\n}\n";
    let sub2 = "package p;\n\npublic class Sub extends Base {\n}\n";
    let before = snap(&[("p/Base.java", base), ("p/Sub.java", sub)]);
    let after = snap(&[("p/Base.java", base2), ("p/Sub.java", sub2)]);
    let mut intent = Intent {
        kind: RefactoringType::MoveMethod,
        class: "p.Sub".into(),
        method: "describe".into(),
        new_name: None,
        destination: Some("p.Base".into()),
    };
    let v = validate(&intent, &before, &after);
    assert_eq!(v.verdict, Verdict::Matched, "{}", v.reason);
    assert!(v.reason.contains("Pull Up Method"), "{}", v.reason);
    intent.destination = Some("p.Other".into());
    assert_eq!(validate(&intent, &before, &after).verdict, Verdict::Missing);
}
