use super::*;

fn files(sources: &[(&str, &str)]) -> Vec<SourceFile> {
    sources.iter().map(|(p, t)| SourceFile::parse(*p, t.to_string())).collect()
}

fn spec(name: &str) -> InlineSpec {
    InlineSpec { file: "A.java".into(), method: MethodSelector { name: name.into(), line: None }, at: None }
}

fn run_spec(sources: &[(&str, &str)], spec: &InlineSpec) -> Result<Vec<(String, String)>, Refusal> {
    let fs = files(sources);
    let cs = inline_method(&fs, spec)?;
    Ok(cs.render().unwrap().into_iter().map(|(p, t)| (p.display().to_string(), t)).collect())
}

fn run(src: &str, name: &str) -> Result<String, Refusal> {
    let out = run_spec(&[("A.java", src)], &spec(name))?;
    Ok(out.into_iter().find(|(p, _)| p == "A.java").map(|(_, t)| t).unwrap_or_else(|| src.to_string()))
}

fn refusal(src: &str, name: &str) -> &'static str {
    match run(src, name) {
        Ok(out) => panic!("expected a refusal, got:\n{out}"),
        Err(r) => {
            assert!(!r.message.is_empty());
            r.reason.code()
        }
    }
}

#[test]
fn expression_body_with_parentheses() {
    let src = "class A {\n    int f(int a) {\n        return twice(a + 1) * 3;\n    }\n\n    int twice(int x) {\n        return x * 2;\n    }\n}\n";
    assert_eq!(
        run(src, "twice").unwrap(),
        "class A {\n    int f(int a) {\n        return (a + 1) * 2 * 3;\n    }\n}\n"
    );
}

#[test]
fn statement_body_with_temporary_and_renamed_local() {
    let src = r#"class A {
    void caller() {
        int total = 5;
        int r = sum(next(), 3);
        System.out.println(r + total);
    }

    int next() {
        return 1;
    }

    /** Adds. */
    private int sum(int a, int b) {
        int total = a + a;
        total += b;
        return total;
    }
}
"#;
    let expected = r#"class A {
    void caller() {
        int total = 5;
        int a = next();
        int total2 = a + a;
        total2 += 3;
        int r = total2;
        System.out.println(r + total);
    }

    int next() {
        return 1;
    }
}
"#;
    assert_eq!(run(src, "sum").unwrap(), expected);
}

#[test]
fn void_body_at_every_call_and_declaration_removed() {
    let src = r#"class A {
	int n;

	void a() {
		log("a");
		n++;
	}

	void b() {
		if (n > 0) {
			log("b" + n);
		}
	}

	/**
	 * Logs.
	 */
	@SuppressWarnings("unused")
	private void log(String s) {
		if (s.isEmpty()) {
			System.out.println("empty");
		}
		System.out.println(s);
		return;
	}
}
"#;
    let expected = r#"class A {
	int n;

	void a() {
		if ("a".isEmpty()) {
			System.out.println("empty");
		}
		System.out.println("a");
		n++;
	}

	void b() {
		if (n > 0) {
			String s = "b" + n;
			if (s.isEmpty()) {
				System.out.println("empty");
			}
			System.out.println(s);
		}
	}
}
"#;
    assert_eq!(run(src, "log").unwrap(), expected);
}

#[test]
fn tail_returns_in_branches_become_assignments() {
    let src = r#"class A {
    String caller(int v) {
        final String kind = classify(v);
        return kind;
    }

    private String classify(int v) {
        if (v < 0) {
            return "negative";
        } else {
            return "positive";
        }
    }
}
"#;
    let expected = r#"class A {
    String caller(int v) {
        final String kind;
        if (v < 0) {
            kind = "negative";
        } else {
            kind = "positive";
        }
        return kind;
    }
}
"#;
    assert_eq!(run(src, "classify").unwrap(), expected);
}

#[test]
fn returned_local_merges_with_the_callers_declaration() {
    let src = r#"class A {
    String caller() {
        String text = render(3);
        return text;
    }

    private String render(int n) {
        StringBuilder b = new StringBuilder();
        b.append(n);
        String text = b.toString();
        return text;
    }
}
"#;
    let expected = r#"class A {
    String caller() {
        StringBuilder b = new StringBuilder();
        b.append(3);
        String text = b.toString();
        return text;
    }
}
"#;
    assert_eq!(run(src, "render").unwrap(), expected);
}

#[test]
fn return_call_keeps_early_returns() {
    let src = r#"class A {
    int caller(int x) {
        return sign(x);
    }

    private int sign(int x) {
        if (x < 0) {
            return -1;
        }
        return x == 0 ? 0 : 1;
    }
}
"#;
    let expected = r#"class A {
    int caller(int x) {
        if (x < 0) {
            return -1;
        }
        return x == 0 ? 0 : 1;
    }
}
"#;
    assert_eq!(run(src, "sign").unwrap(), expected);
}

#[test]
fn explicit_receiver_replaces_this_and_qualifies_members() {
    let src = r#"class A {
    int v;

    int sumWith(A other) {
        return v + other.get();
    }

    int get() {
        return this.v * factor();
    }

    int factor() {
        return 2;
    }
}
"#;
    let expected = r#"class A {
    int v;

    int sumWith(A other) {
        return v + other.v * other.factor();
    }

    int factor() {
        return 2;
    }
}
"#;
    assert_eq!(run(src, "get").unwrap(), expected);
}

#[test]
fn captured_field_is_qualified() {
    let src = r#"class A {
    int count;

    int caller() {
        int count = 3;
        return count + current();
    }

    private int current() {
        return count;
    }
}
"#;
    let out = run(src, "current").unwrap();
    assert!(out.contains("return count + this.count;"), "{out}");
}

#[test]
fn nested_class_call_site_qualifies_with_outer_this() {
    let src = r#"class A {
    int steps;

    Runnable task() {
        return new Runnable() {
            @Override
            public void run() {
                A.this.step();
            }
        };
    }

    private void step() {
        steps++;
        report();
    }

    void report() {
    }
}
"#;
    let out = run(src, "step").unwrap();
    assert!(out.contains("A.this.steps++;\n                A.this.report();"), "{out}");
    assert!(!out.contains("void step()"), "{out}");
}

#[test]
fn inlining_at_one_line_keeps_the_declaration() {
    let src = "class A {\n    int a() {\n        return one();\n    }\n\n    int b() {\n        return one();\n    }\n\n    int one() {\n        return 1;\n    }\n}\n";
    let s = InlineSpec { at: Some(CallLine { file: "A.java".into(), line: 3 }), ..spec("one") };
    let out = run_spec(&[("A.java", src)], &s).unwrap();
    assert_eq!(
        out[0].1,
        "class A {\n    int a() {\n        return 1;\n    }\n\n    int b() {\n        return one();\n    }\n\n    int one() {\n        return 1;\n    }\n}\n"
    );
    let s = InlineSpec { at: Some(CallLine { file: "A.java".into(), line: 2 }), ..spec("one") };
    assert_eq!(run_spec(&[("A.java", src)], &s).unwrap_err().reason, "no_call_at_line");
}

#[test]
fn side_effect_argument_used_once_is_substituted_in_order() {
    let src = "class A {\n    int caller() {\n        return twice(next());\n    }\n\n    int next() {\n        return 1;\n    }\n\n    int twice(int x) {\n        return x + x;\n    }\n\n    int plus(int x, int y) {\n        return y - x;\n    }\n\n    int user() {\n        return plus(next(), next());\n    }\n}\n";
    // `x` used twice with a side-effecting argument: needs a temporary, impossible inside `return`?
    // No: `return twice(..)` is a statement, so the temporary goes before it.
    let out = run(src, "twice").unwrap();
    assert!(out.contains("        int x = next();\n        return x + x;"), "{out}");
    // plus(next(), next()) uses y before x: x must be evaluated first into a temporary
    let out = run(src, "plus").unwrap();
    assert!(out.contains("        int x = next();\n        return next() - x;"), "{out}");
}

#[test]
fn temporary_inside_an_expression_is_refused() {
    let src = "class A {\n    int caller() {\n        return 1 + twice(next());\n    }\n\n    int next() {\n        return 1;\n    }\n\n    int twice(int x) {\n        return x + x;\n    }\n}\n";
    assert_eq!(refusal(src, "twice"), "needs_temporary");
}

#[test]
fn refusals() {
    let rec = "class A {\n    int f(int n) {\n        return n <= 0 ? 0 : f(n - 1);\n    }\n    int g() {\n        return f(3);\n    }\n}\n";
    assert_eq!(refusal(rec, "f"), "recursive");
    let ov = "class A extends B {\n    @Override\n    int f() {\n        return 1;\n    }\n    int g() {\n        return f();\n    }\n}\n";
    assert_eq!(refusal(ov, "f"), "overrides");
    let abs = "abstract class A {\n    abstract int f();\n    int g() {\n        return f();\n    }\n}\n";
    assert_eq!(refusal(abs, "f"), "no_body");
    let mref = "class A {\n    int f() {\n        return 1;\n    }\n    java.util.function.IntSupplier g() {\n        return this::f;\n    }\n}\n";
    assert_eq!(refusal(mref, "f"), "method_reference");
    let sup = "class A extends B {\n    int f() {\n        return super.hashCode();\n    }\n    int g() {\n        return f();\n    }\n}\n";
    assert_eq!(refusal(sup, "f"), "uses_super");
    let ctor = "class A {\n    A() {\n    }\n}\n";
    assert_eq!(refusal(ctor, "A"), "constructor");
    let early = "class A {\n    void f(int x) {\n        if (x > 0) {\n            return;\n        }\n        System.out.println(x);\n    }\n    void g() {\n        f(1);\n    }\n}\n";
    assert_eq!(refusal(early, "f"), "early_return");
    let nested = "class A {\n    int f(int x) {\n        int y = x + 1;\n        return y * y;\n    }\n    void g() {\n        System.out.println(f(1));\n    }\n}\n";
    assert_eq!(refusal(nested, "f"), "not_statement_position");
    let amb =
        "class A {\n    int f(int x) {\n        return x;\n    }\n    int f(String s) {\n        return 1;\n    }\n}\n";
    assert_eq!(refusal(amb, "f"), "ambiguous_method");
    let none = "class A {\n    int f() {\n        return 1;\n    }\n}\n";
    assert_eq!(refusal(none, "f"), "no_call_sites");
    let missing = "class A {\n}\n";
    assert_eq!(refusal(missing, "f"), "no_such_method");
    let sync = "class A {\n    synchronized int f() {\n        return 1;\n    }\n    int g() {\n        return f();\n    }\n}\n";
    assert_eq!(refusal(sync, "f"), "synchronized");
    let varargs = "class A {\n    int f(int... xs) {\n        return xs.length;\n    }\n    int g() {\n        return f(1, 2);\n    }\n}\n";
    assert_eq!(refusal(varargs, "f"), "varargs");
    let generic = "class A {\n    <T> java.util.List<T> f() {\n        return new java.util.ArrayList<T>();\n    }\n    Object g() {\n        return f();\n    }\n}\n";
    assert_eq!(refusal(generic, "f"), "generic_method");
    let overloaded_call = "class A {\n    int f(Object o) {\n        return 1;\n    }\n    int f(String s) {\n        return 2;\n    }\n    int g(Object o) {\n        return f(o.toString());\n    }\n}\n";
    let s = InlineSpec { method: MethodSelector { name: "f".into(), line: Some(2) }, ..spec("f") };
    assert_eq!(run_spec(&[("A.java", overloaded_call)], &s).unwrap_err().reason, "ambiguous_call");
}

#[test]
fn overridden_in_a_subclass_is_refused() {
    let a = "class A {\n    int f() {\n        return 1;\n    }\n    int g() {\n        return f();\n    }\n}\n";
    let b = "class B extends A {\n    int f() {\n        return 2;\n    }\n}\n";
    let err = run_spec(&[("A.java", a), ("B.java", b)], &spec("f")).unwrap_err();
    assert_eq!(err.reason, "overridden", "{err:?}");
}

#[test]
fn private_member_from_another_class_is_refused() {
    let a = "class A {\n    private int secret = 1;\n    static int peek(A a) {\n        return a.reveal();\n    }\n    int reveal() {\n        return secret;\n    }\n}\n";
    let b = "class B {\n    int use(A a) {\n        return a.reveal();\n    }\n}\n";
    let err = run_spec(&[("A.java", a), ("B.java", b)], &spec("reveal")).unwrap_err();
    assert_eq!(err.reason, "inaccessible_member", "{err:?}");
    // from inside A the private field is fine, and the receiver replaces implicit `this`
    let s = InlineSpec { at: Some(CallLine { file: "A.java".into(), line: 4 }), ..spec("reveal") };
    let out = run_spec(&[("A.java", a), ("B.java", b)], &s).unwrap();
    assert!(out[0].1.contains("return a.secret;"), "{}", out[0].1);
}

#[test]
fn spec_round_trips_through_json() {
    let s = InlineSpec { at: Some(CallLine { file: "B.java".into(), line: 7 }), ..spec("f") };
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<InlineSpec>(&json).unwrap(), s);
    let minimal: InlineSpec = serde_json::from_str(r#"{"file":"A.java","method":{"name":"f"}}"#).unwrap();
    assert_eq!(minimal, spec("f"));
}

#[test]
fn loop_variables_are_renamed_only_when_in_scope() {
    let src = r#"class A {
    int caller(int[] xs) {
        int s = sum(xs);
        for (int i = 0; i < 2; i++) {
            int t = sum(xs);
            s += t;
        }
        return s;
    }

    private int sum(int[] xs) {
        int acc = 0;
        for (int i = 0; i < xs.length; i++) {
            acc += xs[i];
        }
        return acc;
    }
}
"#;
    let expected = r#"class A {
    int caller(int[] xs) {
        int acc = 0;
        for (int i = 0; i < xs.length; i++) {
            acc += xs[i];
        }
        int s = acc;
        for (int i = 0; i < 2; i++) {
            int acc2 = 0;
            for (int i2 = 0; i2 < xs.length; i2++) {
                acc2 += xs[i2];
            }
            int t = acc2;
            s += t;
        }
        return s;
    }
}
"#;
    assert_eq!(run(src, "sum").unwrap(), expected);
}

#[test]
fn var_declaration_takes_the_return_type() {
    let src = "import java.util.*;\n\nclass A {\n    void caller() {\n        var xs = make();\n        xs.add(\"a\");\n    }\n\n    private List<String> make() {\n        return new ArrayList<>();\n    }\n}\n";
    let out = run(src, "make").unwrap();
    assert!(out.contains("        List<String> xs = new ArrayList<>();\n"), "{out}");
}

#[test]
fn this_inside_a_lambda_follows_the_receiver() {
    let src = "class A {\n    int v;\n\n    Runnable caller(A other) {\n        return other.task();\n    }\n\n    Runnable task() {\n        return () -> System.out.println(this.v + v);\n    }\n}\n";
    let out = run(src, "task").unwrap();
    assert!(out.contains("return () -> System.out.println(other.v + other.v);"), "{out}");
}

#[test]
fn cross_file_inlining_brings_the_imports() {
    let util = "package p;\n\nimport java.util.List;\nimport java.util.ArrayList;\n\npublic class Util {\n    public static List<String> fresh() {\n        return new ArrayList<>();\n    }\n}\n";
    let main =
        "package q;\n\nimport p.Util;\n\nclass Main {\n    Object f() {\n        return Util.fresh();\n    }\n}\n";
    let s = InlineSpec { file: "Util.java".into(), ..spec("fresh") };
    let out = run_spec(&[("Main.java", main), ("Util.java", util)], &s).unwrap();
    let main_after = &out.iter().find(|(p, _)| p == "Main.java").unwrap().1;
    assert_eq!(
        main_after,
        "package q;\n\nimport p.Util;\nimport java.util.ArrayList;\n\nclass Main {\n    Object f() {\n        return new ArrayList<>();\n    }\n}\n"
    );
}

// --- with a project: call sites decided by the model

/// Inlines `ty.name` of a project made of `sources`; the changed files, or the refusal.
fn run_project(
    sources: &[(&str, &str)],
    ty: &str,
    name: &str,
    at: Option<CallLine>,
) -> Result<Vec<(String, String)>, Refusal> {
    let (_dir, project) = crate::java::project::tests::project(sources);
    let owner = crate::java::project::tests::type_named(&project, ty);
    let method = project.methods_of(owner).into_iter().find(|&m| project.method(m).name == name).expect("method");
    let s = InlineSpec {
        file: project.path(method.file()).to_path_buf(),
        method: MethodSelector { name: name.into(), line: None },
        at,
    };
    let cs = inline_method_in_project(&project, method, &s)?;
    Ok(cs.render().unwrap().into_iter().map(|(p, t)| (p.display().to_string(), t)).collect())
}

const INVOICE: &str = "package a;\n\npublic class Invoice {\n    private final String customer;\n\n    public Invoice(String c) {\n        customer = c;\n    }\n\n    public String getCustomerName() {\n        return customer.trim();\n    }\n\n    public String getCustomer() {\n        return customer;\n    }\n}\n";
const REPORT: &str = "package b;\n\nimport java.util.*;\n\npublic class Report {\n    public static final class Row {\n        public String getCustomerName() {\n            return \"r\";\n        }\n    }\n\n    static final Comparator<Row> BY_NAME = Comparator.comparing(Row::getCustomerName);\n\n    String first(List<Row> rows, a.Invoice invoice) {\n        rows.sort(Comparator.comparing(Row::getCustomerName));\n        return rows.get(0).getCustomerName() + invoice.getCustomerName();\n    }\n}\n";

#[test]
fn same_named_methods_of_other_types_are_left_alone() {
    // D9's trap: `Row::getCustomerName` (in a method and in a field initializer) and
    // `rows.get(0).getCustomerName()` are Row's, not Invoice's.
    let out =
        run_project(&[("a/Invoice.java", INVOICE), ("b/Report.java", REPORT)], "Invoice", "getCustomerName", None)
            .unwrap_or_else(|r| panic!("refused: {r:?}"));
    let report = &out.iter().find(|(p, _)| p == "b/Report.java").unwrap().1;
    assert_eq!(*report, REPORT.replace("invoice.getCustomerName()", "invoice.getCustomer().trim()"));
    let invoice = &out.iter().find(|(p, _)| p == "a/Invoice.java").unwrap().1;
    assert!(!invoice.contains("getCustomerName"), "the declaration goes:\n{invoice}");
    // without the project, syntax cannot tell `Row::getCustomerName` apart
    let files = files(&[("a/Invoice.java", INVOICE), ("b/Report.java", REPORT)]);
    let s = InlineSpec { file: "a/Invoice.java".into(), ..spec("getCustomerName") };
    assert_eq!(inline_method(&files, &s).unwrap_err().reason, "method_reference");
}

#[test]
fn a_reference_to_the_method_itself_is_still_refused() {
    let report = REPORT.replace("Comparator.comparing(Row::getCustomerName));\n        return", "Comparator.comparing(Row::getCustomerName));\n        java.util.function.Function<a.Invoice, String> f = a.Invoice::getCustomerName;\n        return");
    let r = run_project(&[("a/Invoice.java", INVOICE), ("b/Report.java", &report)], "Invoice", "getCustomerName", None)
        .unwrap_err();
    assert_eq!(r.reason, "method_reference");
    assert!(r.message.contains("b/Report.java:16"), "{}", r.message);
}

#[test]
fn calls_on_receivers_of_unknown_type_block_removal_and_are_listed() {
    let user = "package b;\n\nclass User {\n    String f(a.Invoice invoice, java.util.List<Object> xs) {\n        var v = invoice;\n        return v.getCustomerName() + invoice.getCustomerName();\n    }\n}\n";
    let r = run_project(&[("a/Invoice.java", INVOICE), ("b/User.java", user)], "Invoice", "getCustomerName", None)
        .unwrap_err();
    assert_eq!(r.reason, "unresolved_call");
    assert!(r.message.contains("b/User.java:6"), "{}", r.message);
    // the certain call alone can still be inlined; the declaration stays for the doubtful one
    let at = CallLine { file: "b/User.java".into(), line: 6 };
    let out =
        run_project(&[("a/Invoice.java", INVOICE), ("b/User.java", user)], "Invoice", "getCustomerName", Some(at));
    // both calls share line 6: the doubtful one is not chosen, the certain one is
    let out = out.unwrap_or_else(|r| panic!("refused: {r:?}"));
    let user_after = &out.iter().find(|(p, _)| p == "b/User.java").unwrap().1;
    assert!(user_after.contains("v.getCustomerName() + invoice.getCustomer().trim()"), "{user_after}");
    assert!(out.iter().all(|(p, _)| p != "a/Invoice.java"), "the declaration stays: {out:?}");
}

#[test]
fn a_private_field_is_read_through_its_getter_only_when_no_subclass_overrides_it() {
    let user = "package b;\n\nclass User {\n    String f(a.Invoice invoice) {\n        return invoice.getCustomerName();\n    }\n}\n";
    let sub = "package a;\n\nclass Special extends Invoice {\n    Special() {\n        super(\"s\");\n    }\n\n    @Override\n    public String getCustomer() {\n        return \"other\";\n    }\n}\n";
    let r = run_project(
        &[("a/Invoice.java", INVOICE), ("b/User.java", user), ("a/Special.java", sub)],
        "Invoice",
        "getCustomerName",
        None,
    )
    .unwrap_err();
    assert_eq!(r.reason, "inaccessible_member", "{r:?}");
    // without a project, an overridable getter is not trusted; a final one is
    let files_of = |invoice: &str| files(&[("a/Invoice.java", invoice), ("b/User.java", user)]);
    let s = InlineSpec { file: "a/Invoice.java".into(), ..spec("getCustomerName") };
    assert_eq!(inline_method(&files_of(INVOICE), &s).unwrap_err().reason, "inaccessible_member");
    let sealed = INVOICE.replace("public class Invoice", "public final class Invoice");
    let cs = inline_method(&files_of(&sealed), &s).unwrap();
    let user_after = cs.render().unwrap().into_iter().find(|(p, _)| p.ends_with("User.java")).unwrap().1;
    assert!(user_after.contains("return invoice.getCustomer().trim();"), "{user_after}");
}

/// Issue 15: a nested class's method that used its enclosing class's static field and static
/// method was inlined into another class with them unqualified (`JAN_15`, `b.consulting()`).
#[test]
fn statics_of_an_enclosing_class_are_named_through_it_at_another_class() {
    let a = "package p;\n\npublic class A {\n    public static final int BASE = 2;\n\n    public static int unit() {\n        return 3;\n    }\n\n    public static final class Inner {\n        public int m(int x) {\n            return x * BASE + unit();\n        }\n    }\n}\n";
    let b = "package p;\n\nclass B {\n    int call(A.Inner i) {\n        return i.m(4);\n    }\n}\n";
    let out = run_spec(&[("A.java", a), ("B.java", b)], &spec("m")).unwrap();
    let b_after = &out.iter().find(|(p, _)| p == "B.java").unwrap().1;
    assert!(b_after.contains("return 4 * A.BASE + A.unit();"), "{b_after}");
}

/// An anonymous class in the inlined body declares a parameter named like the inlined method's
/// parameter: two rewrites of the body met on one name and the engine panicked (found by `mantra
/// suggest` dry-running inlines over real code); it refuses now.
#[test]
fn a_shadowing_parameter_in_an_anonymous_class_does_not_crash_the_inline() {
    let src = "class A {\n    interface L { void on(String request); }\n    void add(L l) {}\n\n    void start(String request) {\n        go(request, null);\n    }\n\n    void go(String request, Runnable upgrade) {\n        if (upgrade != null) {\n            add(new L() {\n                public void on(String request) {\n                    upgrade.run();\n                    System.out.println(request);\n                }\n            });\n        }\n        System.out.println(request);\n    }\n}\n";
    assert_eq!(refusal(src, "go"), "overlapping_edits");
}

#[test]
fn only_the_files_java_lets_call_the_method_are_searched() {
    // A call the model cannot type (`h.norm(3)` on a `var`) of a same-named method elsewhere would be a
    // doubt; it cannot reach a private method of another file, nor a package-private one of
    // another package.
    let other = "package b;\n\nclass Other {\n    int use(Object o) {\n        var h = make();\n        return h.norm(3);\n    }\n\n    static Other make() {\n        return null;\n    }\n\n    int norm(int x) {\n        return x;\n    }\n}\n";
    for modifier in ["private ", ""] {
        let own = format!(
            "package a;\n\nclass Calc {{\n    int f(int a) {{\n        return norm(a) + 1;\n    }}\n\n    {modifier}int norm(int x) {{\n        return x * 2;\n    }}\n}}\n"
        );
        let out = run_project(&[("a/Calc.java", &own), ("b/Other.java", other)], "Calc", "norm", None)
            .unwrap_or_else(|r| panic!("{modifier:?}: refused: {r:?}"));
        assert!(out.iter().all(|(p, _)| p == "a/Calc.java"), "{out:?}");
        assert!(out[0].1.contains("return a * 2 + 1;"), "{out:?}");
    }
}

#[test]
fn a_library_override_is_not_inlined_even_unannotated() {
    // Removed, `"" + a` would print `A@1b6d3586`, and `Collections.sort` would find no `compareTo`.
    let object = "class A {\n    public String toString() {\n        return \"a\";\n    }\n    String show() {\n        return toString();\n    }\n}\n";
    assert_eq!(refusal(object, "toString"), "overrides");
    let comparable = "class A implements java.lang.Comparable<A> {\n    public int compareTo(A o) {\n        return 0;\n    }\n    int same() {\n        return compareTo(this);\n    }\n}\n";
    assert_eq!(refusal(comparable, "compareTo"), "overrides");
    // Without `Comparable` among its supertypes, `compareTo` is a method like any other.
    let plain = comparable.replace(" implements java.lang.Comparable<A>", "");
    let out = run(&plain, "compareTo").expect("inlined");
    assert!(out.contains("        return 0;") && !out.contains("compareTo"), "{out}");
}

#[test]
fn a_private_field_read_through_this_from_another_class_is_refused() {
    let a =
        "class A {\n    private long position;\n    long getPosition() {\n        return this.position;\n    }\n}\n";
    let b = "class B {\n    long at(A reader) {\n        return reader.getPosition();\n    }\n}\n";
    let err = run_spec(&[("A.java", a), ("B.java", b)], &spec("getPosition")).unwrap_err();
    assert_eq!(err.reason, "inaccessible_member", "{err:?}");
    // The same without `this.`: the getter being inlined cannot stand in for its own field.
    let bare = a.replace("this.position", "position");
    let err = run_spec(&[("A.java", &bare), ("B.java", b)], &spec("getPosition")).unwrap_err();
    assert_eq!(err.reason, "inaccessible_member", "{err:?}");
    // Another getter of the field can.
    let two = "final class A {\n    private long position;\n    long getPosition() {\n        return position;\n    }\n    long next() {\n        return this.position + 1;\n    }\n}\n";
    let b = "class B {\n    long at(A reader) {\n        return reader.next();\n    }\n}\n";
    let out = run_spec(&[("A.java", two), ("B.java", b)], &spec("next")).unwrap();
    let b_out = &out.iter().find(|(p, _)| p == "B.java").unwrap().1;
    assert!(b_out.contains("return reader.getPosition() + 1;"), "{b_out}");
}
