use super::*;

fn extract(src: &str, lines: (usize, usize), name: &str) -> Result<String, Refusal> {
    extract_with(src, lines, name, &[], &[])
}

fn refusal(src: &str, lines: (usize, usize)) -> Refusal {
    extract(src, lines, "extracted").expect_err("should refuse")
}

fn refused(src: &str, lines: (usize, usize), reason: &str) -> Refusal {
    let r = refusal(src, lines);
    assert_eq!(r.reason, reason, "{}", r.message);
    r
}

/// Wraps method members in a class, one member per string, indented by four spaces.
fn class(body: &str) -> String {
    format!("class A {{\n{body}}}\n")
}

#[test]
fn extracts_statements_with_parameters_in_order_of_first_use() {
    let src = class(
        "    void report(String name, int count) {\n        System.out.println(\"start\");\n        String line = name + \": \" + count;\n        System.out.println(line);\n        System.out.println(\"end\");\n    }\n",
    );
    let out = extract(&src, (4, 5), "printLine").unwrap();
    assert_eq!(
        out,
        class(
            "    void report(String name, int count) {\n        System.out.println(\"start\");\n        printLine(name, count);\n        System.out.println(\"end\");\n    }\n\n    private void printLine(String name, int count) {\n        String line = name + \": \" + count;\n        System.out.println(line);\n    }\n"
        )
    );
}

#[test]
fn a_local_declared_in_the_fragment_and_used_after_is_returned_and_declared_at_the_call() {
    let src = class(
        "    int f(int a, int b) {\n        int total = a + b;\n        final int doubled = total * 2;\n        return doubled + 1;\n    }\n",
    );
    let out = extract(&src, (3, 4), "doubleSum").unwrap();
    assert_eq!(
        out,
        class(
            "    int f(int a, int b) {\n        final int doubled = doubleSum(a, b);\n        return doubled + 1;\n    }\n\n    private int doubleSum(int a, int b) {\n        int total = a + b;\n        final int doubled = total * 2;\n        return doubled;\n    }\n"
        )
    );
}

#[test]
fn a_local_assigned_in_the_fragment_and_used_after_is_returned_and_assigned_at_the_call() {
    let src = class(
        "    int f(int[] xs) {\n        int total = 0;\n        for (int x : xs) {\n            total += x;\n        }\n        return total;\n    }\n",
    );
    let out = extract(&src, (4, 6), "addAll").unwrap();
    assert!(out.contains("        total = addAll(xs, total);\n"), "{out}");
    assert!(out.contains("    private int addAll(int[] xs, int total) {\n        for (int x : xs) {\n            total += x;\n        }\n        return total;\n    }\n"), "{out}");
}

#[test]
fn two_outputs_are_refused_naming_both() {
    let src = class(
        "    void f(int[] xs) {\n        int total = 0;\n        int count = 0;\n        for (int x : xs) {\n            total += x;\n            count++;\n        }\n        System.out.println(total / count);\n    }\n",
    );
    let r = refused(&src, (5, 8), "multiple_outputs");
    assert_eq!(
        r.message,
        "the selected statements assign both `total` and `count`, which are used after line 8; an extracted method can return only one of them"
    );
}

#[test]
fn locals_not_used_after_stay_inside_and_need_no_return() {
    let src = class(
        "    void f(int a) {\n        int seen = 0;\n        int tmp = a * 2;\n        seen = tmp;\n        System.out.println(seen);\n        System.out.println(a);\n    }\n",
    );
    let out = extract(&src, (4, 6), "show").unwrap();
    assert!(out.contains("        show(a);\n        System.out.println(a);"), "{out}");
    assert!(out.contains("    private void show(int a) {\n        int seen;\n        int tmp = a * 2;"), "{out}");
}

#[test]
fn a_later_use_of_the_same_name_in_another_scope_is_not_an_output() {
    let src = class(
        "    void f(boolean c) {\n        if (c) {\n            int n = 1;\n            System.out.println(n);\n        }\n        if (!c) {\n            int n = 2;\n            System.out.println(n);\n        }\n    }\n",
    );
    let out = extract(&src, (4, 5), "one").unwrap();
    assert!(out.contains("            one();\n"), "{out}");
    assert!(
        out.contains("    private void one() {\n        int n = 1;\n        System.out.println(n);\n    }"),
        "{out}"
    );
}

#[test]
fn a_value_read_by_the_next_loop_iteration_is_an_output() {
    let src = class(
        "    void f(int[] xs) {\n        int last = 0;\n        for (int x : xs) {\n            System.out.println(last);\n            last = x * 2;\n        }\n    }\n",
    );
    let out = extract(&src, (6, 6), "twice").unwrap();
    assert!(out.contains("            last = twice(x);\n"), "{out}");
    assert!(out.contains("        int last;\n        last = x * 2;\n        return last;"), "{out}");
}

#[test]
fn an_output_assigned_on_some_paths_only_is_passed_in() {
    let src = class(
        "    double f(boolean c) {\n        double value = -1;\n        if (c) {\n            value = 2;\n        }\n        return value;\n    }\n",
    );
    let out = extract(&src, (4, 6), "pick").unwrap();
    assert!(out.contains("        value = pick(c, value);\n"), "{out}");
    assert!(out.contains("    private double pick(boolean c, double value) {\n        if (c) {\n            value = 2;\n        }\n        return value;\n    }"), "{out}");
    // Assigned first thing: no need to pass it.
    let src = class(
        "    double f() {\n        double value = -1;\n        value = 2;\n        value++;\n        return value;\n    }\n",
    );
    assert!(
        extract(&src, (4, 5), "two")
            .unwrap()
            .contains("    private double two() {\n        double value;\n        value = 2;")
    );
}

#[test]
fn a_local_unassigned_before_the_fragment_is_declared_inside_not_passed() {
    let src = class(
        "    int f(boolean c) {\n        int x;\n        if (c) {\n            x = 1;\n        } else {\n            x = 2;\n        }\n        return x;\n    }\n",
    );
    let out = extract(&src, (4, 8), "pick").unwrap();
    assert!(out.contains("        x = pick(c);\n        return x;"), "{out}");
    assert!(out.contains("    private int pick(boolean c) {\n        int x;\n        if (c) {"), "{out}");
}

#[test]
fn a_declaration_only_the_fragment_uses_moves_with_it_instead_of_staying_dead() {
    let src = class(
        "    String f(boolean c) {\n        String left;\n        int n = 0, m = 1;\n        String mark = c ? \"a\" : \"b\";\n        StringBuilder sb = new StringBuilder();\n        left = c ? \"<\" : \">\";\n        n = 2;\n        mark = \"c\";\n        sb.append(left).append(n).append(mark);\n        return sb.toString() + m;\n    }\n",
    );
    let out = extract(&src, (7, 10), "fill").unwrap();
    // `left` had no value: the new method declares it and the caller loses its dead declaration.
    assert!(!out.contains("    String f(boolean c) {\n        String left;"), "{out}");
    assert!(out.contains("    private void fill(boolean c, StringBuilder sb) {\n        String left;\n"), "{out}");
    // `n` shares its statement with `m`, which the caller still reads; `mark`'s value is computed.
    assert!(
        out.contains("        int n = 0, m = 1;\n        String mark = c ? \"a\" : \"b\";\n        StringBuilder sb"),
        "{out}"
    );
    assert!(
        out.contains(
            "        StringBuilder sb = new StringBuilder();\n        fill(c, sb);\n        return sb.toString() + m;"
        ),
        "{out}"
    );
}

#[test]
fn a_fragment_that_returns_on_every_path_becomes_return_call() {
    let src = class(
        "    String f(int a) {\n        System.out.println(a);\n        if (a > 0) {\n            return \"pos\";\n        } else {\n            return \"neg\";\n        }\n    }\n",
    );
    let out = extract(&src, (4, 8), "sign").unwrap();
    assert!(out.contains("        System.out.println(a);\n        return sign(a);\n    }"), "{out}");
    assert!(out.contains("    private String sign(int a) {\n        if (a > 0) {"), "{out}");
}

#[test]
fn a_void_return_inside_a_nested_block_keeps_leaving_the_method() {
    let src = class(
        "    void f(int a) {\n        if (a > 0) {\n            System.out.println(a);\n            return;\n        }\n        System.out.println(-a);\n    }\n",
    );
    let out = extract(&src, (4, 5), "show").unwrap();
    assert!(out.contains("        if (a > 0) {\n            show(a);\n            return;\n        }"), "{out}");
}

#[test]
fn a_return_on_some_paths_only_is_refused() {
    let src = class(
        "    int f(int a) {\n        if (a > 0) {\n            return 1;\n        }\n        System.out.println(a);\n        return 0;\n    }\n",
    );
    refused(&src, (3, 6), "return_not_on_all_paths");
}

#[test]
fn returns_on_some_paths_are_fine_at_the_end_of_a_void_method() {
    let src = class(
        "    void f(int a) {\n        System.out.println(a);\n        if (a > 0) {\n            return;\n        }\n        System.out.println(-a);\n    }\n",
    );
    let out = extract(&src, (4, 7), "rest").unwrap();
    assert!(out.contains("        System.out.println(a);\n        rest(a);\n    }"), "{out}");
    assert!(out.contains("    private void rest(int a) {\n        if (a > 0) {\n            return;\n        }\n        System.out.println(-a);\n    }"), "{out}");
    // Not at the end: the caller would go on after the call.
    let r = refused(&src, (4, 6), "return_not_on_all_paths");
    assert!(r.message.contains("select statements that return on every path"), "{}", r.message);
}

#[test]
fn the_refusal_suggests_including_a_following_return() {
    let src = class(
        "    Object f(Object data) {\n        if (data == null) {\n            return data;\n        }\n        System.out.println(data);\n        return data;\n    }\n",
    );
    let r = refused(&src, (3, 6), "return_not_on_all_paths");
    assert!(r.message.contains("including line 7 (`return data;`)"), "{}", r.message);
    assert!(extract(&src, (3, 7), "check").unwrap().contains("        return check(data);\n    }"));
}

#[test]
fn returns_in_a_lambda_need_a_visible_type() {
    let src = class(
        "    void f(java.util.List<String> xs) {\n        xs.removeIf((String x) -> {\n            System.out.println(x);\n            return true;\n        });\n        xs.removeIf((String x) -> {\n            System.out.println(x);\n            return x.isEmpty();\n        });\n    }\n",
    );
    let out = extract(&src, (4, 5), "log").unwrap();
    assert!(out.contains("            return log(x);\n        });"), "{out}");
    assert!(out.contains("    private boolean log(String x) {"), "{out}");
    refused(&src, (8, 9), "return_in_lambda");
}

#[test]
fn jumps_out_of_the_fragment_are_refused_and_jumps_inside_are_fine() {
    let src = class(
        "    void f(int[] xs) {\n        outer:\n        for (int x : xs) {\n            if (x < 0) {\n                break;\n            }\n            for (int y : xs) {\n                if (y == x) continue outer;\n                if (y > x) break;\n            }\n        }\n    }\n",
    );
    refused(&src, (5, 7), "break_leaves_fragment");
    let r = refused(&src, (8, 11), "break_leaves_fragment");
    assert!(r.message.contains("`continue` on line 9"), "{}", r.message);
    // The inner `break` targets the inner loop, which is selected.
    assert!(extract(&src, (10, 10), "x").is_err());
    let src2 = class(
        "    void f(int[] xs) {\n        for (int x : xs) {\n            for (int y : xs) {\n                if (y > x) break;\n            }\n        }\n    }\n",
    );
    assert!(extract(&src2, (4, 6), "inner").unwrap().contains("            inner(xs, x);\n"));
}

#[test]
fn yield_out_of_the_fragment_is_refused() {
    let src = class(
        "    int f(int k) {\n        return switch (k) {\n            case 1 -> {\n                System.out.println(k);\n                yield 2;\n            }\n            default -> 0;\n        };\n    }\n",
    );
    refused(&src, (5, 6), "yield_leaves_fragment");
    assert!(extract(&src, (5, 5), "show").unwrap().contains("                show(k);\n                yield 2;"));
}

#[test]
fn throws_clause_is_copied_when_the_fragment_can_throw() {
    let src = class(
        "    void f(java.io.Reader r) throws java.io.IOException {\n        int c = r.read();\n        int d = 1 + 2;\n        System.out.println(c + d);\n    }\n",
    );
    let out = extract(&src, (3, 3), "first").unwrap();
    assert!(out.contains("private int first(java.io.Reader r) throws java.io.IOException {"), "{out}");
    let out = extract(&src, (4, 4), "three").unwrap();
    assert!(out.contains("private int three() {"), "{out}");
}

#[test]
fn exceptions_caught_around_the_fragment_are_declared() {
    let src = class(
        "    void f(java.io.Reader r) {\n        try {\n            System.out.println(r.read());\n        } catch (java.io.IOException | RuntimeException e) {\n            throw new IllegalStateException(e);\n        }\n    }\n",
    );
    let out = extract(&src, (4, 4), "show").unwrap();
    assert!(
        out.contains("private void show(java.io.Reader r) throws java.io.IOException, RuntimeException {"),
        "{out}"
    );
}

#[test]
fn static_context_makes_a_static_method_and_instance_stays_instance() {
    let src = class("    static int f(int a) {\n        int b = a * 2;\n        return b;\n    }\n");
    assert!(extract(&src, (3, 3), "twice").unwrap().contains("    private static int twice(int a) {"));
    let src = class("    static int X;\n    static {\n        X = 1 + 2;\n    }\n");
    let out = extract(&src, (4, 4), "init").unwrap();
    assert!(
        out.contains(
            "    static {\n        init();\n    }\n\n    private static void init() {\n        X = 1 + 2;\n    }\n"
        ),
        "{out}"
    );
    let src = class("    int f() {\n        int b = 2;\n        return b;\n    }\n");
    assert!(extract(&src, (3, 3), "two").unwrap().contains("    private int two() {"));
}

#[test]
fn type_parameters_of_the_method_are_copied_when_used() {
    let src = class(
        "    <T extends Comparable<T>, U> T max(java.util.List<T> xs, U unused) {\n        T best = xs.get(0);\n        return best;\n    }\n",
    );
    let out = extract(&src, (3, 3), "first").unwrap();
    assert!(out.contains("private <T extends Comparable<T>> T first(java.util.List<T> xs) {"), "{out}");
}

#[test]
fn var_is_resolved_from_visible_initializers_and_refused_otherwise() {
    let src = class(
        "    void f() {\n        var n = 10L;\n        var sb = new StringBuilder();\n        var s = String.valueOf(n);\n        sb.append(n);\n        System.out.println(s + sb);\n    }\n",
    );
    let out = extract(&src, (6, 6), "add").unwrap();
    assert!(out.contains("private void add(StringBuilder sb, long n) {"), "{out}");
    let r = refused(&src, (7, 7), "untyped_var");
    assert!(r.message.contains("`s`"), "{}", r.message);
}

#[test]
fn untyped_lambda_parameters_take_the_type_the_call_spells_out_or_are_refused() {
    // A list's elements, a map's keys and values, a stream kept by `filter`, a field's elements.
    let src = class(
        "    private java.util.Set<? extends Number> ids;\n    void f(java.util.List<String> xs, java.util.Map<String, java.util.List<Integer>> m) {\n        xs.forEach(x -> {\n            String y = x.trim();\n            System.out.println(y);\n        });\n        m.forEach((k, v) -> {\n            System.out.println(k);\n            System.out.println(v.size());\n        });\n        xs.stream().filter(s -> !s.isEmpty()).forEach(s -> {\n            System.out.println(s);\n            System.out.println(s.length());\n        });\n        ids.forEach(id -> {\n            System.out.println(id);\n            System.out.println(id.intValue());\n        });\n    }\n",
    );
    let out = extract(&src, (5, 6), "show").unwrap();
    assert!(out.contains("            show(x);\n") && out.contains("private void show(String x) {"), "{out}");
    let out = extract(&src, (9, 10), "entry").unwrap();
    assert!(out.contains("private void entry(String k, java.util.List<Integer> v) {"), "{out}");
    let out = extract(&src, (13, 14), "word").unwrap();
    assert!(out.contains("private void word(String s) {"), "{out}");
    let out = extract(&src, (17, 18), "number").unwrap();
    assert!(out.contains("private void number(Number id) {"), "{out}");
    // What the declarations do not spell out stays refused: a raw list, `? super`, a method
    // whose parameter is not known to take the elements.
    let src = class(
        "    void f(java.util.List raw, java.util.List<? super String> sup, java.util.List<String> xs) {\n        raw.forEach(x -> {\n            System.out.println(x);\n            System.out.println(x.hashCode());\n        });\n        sup.forEach(x -> {\n            System.out.println(x);\n            System.out.println(x.hashCode());\n        });\n        run(xs, x -> {\n            System.out.println(x);\n            System.out.println(x.hashCode());\n        });\n    }\n",
    );
    for lines in [(4, 5), (8, 9), (12, 13)] {
        refused(&src, lines, "untyped_var");
    }
    let src = class(
        "    void f(Runner xs) {\n        xs.forEach(x -> {\n            String y = x.trim();\n            System.out.println(y);\n        });\n    }\n",
    );
    refused(&src, (4, 5), "untyped_var");
    let file = SourceFile::parse("A.java", src.clone());
    let spec = ExtractSpec {
        file: "A.java".into(),
        method_line: None,
        lines: (4, 5),
        name: "show".into(),
        visibility: None,
        local_types: BTreeMap::from([("x".to_string(), "String".to_string())]),
        params: Vec::new(),
        param_types: Default::default(),
        quiet_calls: Vec::new(),
        copies: Vec::new(),
    };
    let out = extract_method(&file, &spec).unwrap().render_file(std::path::Path::new("A.java")).unwrap().unwrap();
    assert!(
        out.contains("            show(x);\n        });") && out.contains("private void show(String x) {"),
        "{out}"
    );
}

#[test]
fn statements_inside_lambdas_switch_groups_and_try_bodies_can_be_extracted() {
    let src = class(
        "    void f(java.util.List<String> xs, int k) {\n        xs.forEach((String x) -> {\n            String y = x.trim();\n            System.out.println(y);\n        });\n        switch (k) {\n            case 1:\n                System.out.println(k);\n                System.out.println(k + 1);\n                break;\n            default:\n                break;\n        }\n        try {\n            System.out.println(xs);\n        } finally {\n            System.out.println(k);\n        }\n    }\n",
    );
    assert!(extract(&src, (4, 5), "a").unwrap().contains("            a(x);\n        });"));
    assert!(
        extract(&src, (9, 10), "b")
            .unwrap()
            .contains("            case 1:\n                b(k);\n                break;")
    );
    assert!(extract(&src, (16, 16), "c").unwrap().contains("        try {\n            c(xs);\n        }"));
    // The label line is not a statement of the group: selecting it covers the whole switch ambiguously.
    refused(&src, (8, 9), "partial_statement");
}

#[test]
fn a_partial_selection_is_snapped_to_the_enclosing_statement() {
    let src = class(
        "    void f(int a) {\n        System.out.println(\n            a + 1);\n        System.out.println(a);\n    }\n",
    );
    let out = extract(&src, (4, 4), "show").unwrap();
    assert!(out.contains("        show(a);\n        System.out.println(a);"), "{out}");
}

#[test]
fn a_selection_cutting_through_nested_blocks_is_refused() {
    let src = class(
        "    void f(int a) {\n        if (a > 0) {\n            System.out.println(a);\n        } else {\n            System.out.println(-a);\n        }\n    }\n",
    );
    let r = refused(&src, (4, 6), "partial_statement");
    assert!(r.message.contains("if statement at lines 3-7"), "{}", r.message);
}

#[test]
fn comments_inside_and_around_the_fragment_move_with_it_and_indentation_follows_the_new_level() {
    let src = class(
        "    void f(int a) {\n        if (a > 0) {\n            // say it\n            System.out.println(a); // trailing\n            /* twice */\n            System.out.println(a);\n        }\n    }\n",
    );
    let out = extract(&src, (4, 7), "say").unwrap();
    assert_eq!(
        out,
        class(
            "    void f(int a) {\n        if (a > 0) {\n            say(a);\n        }\n    }\n\n    private void say(int a) {\n        // say it\n        System.out.println(a); // trailing\n        /* twice */\n        System.out.println(a);\n    }\n"
        )
    );
}

#[test]
fn constructors_allow_fragments_but_not_this_or_super_calls() {
    let src = class(
        "    final int x;\n    int y;\n    A(int v) {\n        this(v, 0);\n        y = v * 2;\n    }\n    A(int v, int w) {\n        x = v;\n        y = w;\n    }\n",
    );
    refused(&src, (5, 6), "constructor_call");
    assert!(
        extract(&src, (6, 6), "setY").unwrap().contains("    private void setY(int v) {\n        y = v * 2;\n    }")
    );
    refused(&src, (9, 9), "assigns_final_field");
}

#[test]
fn names_are_validated_and_same_signature_clashes_are_refused() {
    let src = class(
        "    void f(int a) {\n        System.out.println(a);\n    }\n    void show(int b) {}\n    void other(String s) {}\n",
    );
    assert_eq!(extract(&src, (3, 3), "class").unwrap_err().reason, "invalid_name");
    assert_eq!(extract(&src, (3, 3), "2x").unwrap_err().reason, "invalid_name");
    let r = extract(&src, (3, 3), "show").unwrap_err();
    assert_eq!(r.reason, "name_clash", "{}", r.message);
    assert!(r.message.contains("`show(int)` (line 5)"), "{}", r.message);
    // A different parameter list is an overload, which is fine.
    assert!(extract(&src, (3, 3), "other").is_ok());
}

#[test]
fn selections_that_are_empty_or_outside_a_body_are_refused() {
    let src =
        class("    void f(int a) {\n\n        // only a comment\n        System.out.println(a);\n    }\n    int g;\n");
    refused(&src, (4, 4), "empty_selection");
    refused(&src, (3, 3), "empty_selection");
    refused(&src, (2, 3), "lines_outside_method");
    refused(&src, (5, 6), "lines_outside_method");
    refused(&src, (8, 8), "lines_outside_method");
    refused(&src, (10, 100), "invalid_lines");
    let file = SourceFile::parse("A.java", src.clone());
    let spec = ExtractSpec {
        file: "A.java".into(),
        method_line: Some(7),
        lines: (5, 5),
        name: "x".into(),
        visibility: None,
        local_types: BTreeMap::new(),
        params: Vec::new(),
        param_types: Default::default(),
        quiet_calls: Vec::new(),
        copies: Vec::new(),
    };
    assert_eq!(extract_method(&file, &spec).unwrap_err().reason, "lines_outside_method");
}

#[test]
fn a_method_that_does_not_parse_is_refused() {
    let src = class("    void f(int a) {\n        int x = ;\n        System.out.println(a);\n    }\n");
    refused(&src, (4, 4), "syntax_error");
}

#[test]
fn visibility_can_be_chosen() {
    let src = class("    void f(int a) {\n        System.out.println(a);\n    }\n");
    let file = SourceFile::parse("A.java", src.clone());
    let mut spec = ExtractSpec {
        file: "A.java".into(),
        method_line: Some(2),
        lines: (3, 3),
        name: "show".into(),
        visibility: Some("package".into()),
        local_types: BTreeMap::new(),
        params: Vec::new(),
        param_types: Default::default(),
        quiet_calls: Vec::new(),
        copies: Vec::new(),
    };
    let plan = plan(&file, &spec).unwrap();
    assert_eq!(plan.signature, "void show(int a)");
    assert_eq!(plan.call, "show(a);");
    spec.visibility = Some("friendly".into());
    assert_eq!(extract_method(&file, &spec).unwrap_err().reason, "invalid_visibility");
}

fn extract_with(
    src: &str,
    lines: (usize, usize),
    name: &str,
    params: &[&str],
    types: &[(&str, &str)],
) -> Result<String, Refusal> {
    let file = SourceFile::parse("A.java", src.to_string());
    let spec = ExtractSpec {
        file: "A.java".into(),
        method_line: None,
        lines,
        name: name.into(),
        visibility: None,
        local_types: BTreeMap::new(),
        params: params.iter().map(|p| p.to_string()).collect(),
        param_types: types.iter().map(|(e, t)| (e.to_string(), t.to_string())).collect(),
        quiet_calls: Vec::new(),
        copies: Vec::new(),
    };
    let changes = extract_method(&file, &spec)?;
    Ok(changes.render_file(std::path::Path::new("A.java")).unwrap().unwrap())
}

const RENDER: &str = "class A {\n    void render(Report r, Writer out) {\n        for (Row row : r.rows()) {\n            out.write(row.text());\n        }\n        out.write(r.rows().size() + \" rows\");\n    }\n}\n";

/// Issue 15, `--param`: the body of `render(Report, Writer)` extracted into an overload that takes
/// the rows; without the parameter it would clash with `render` itself.
#[test]
fn an_expression_passed_in_as_a_parameter() {
    assert_eq!(extract(RENDER, (3, 6), "render").unwrap_err().reason, "name_clash");
    let out = extract_with(RENDER, (3, 6), "render", &["r.rows()"], &[("r.rows()", "List<Row>")]).unwrap();
    assert!(out.contains("    void render(Report r, Writer out) {\n        render(out, r.rows());\n    }"), "{out}");
    assert!(
        out.contains("    private void render(Writer out, List<Row> rows) {\n        for (Row row : rows) {\n            out.write(row.text());\n        }\n        out.write(rows.size() + \" rows\");\n    }"),
        "{out}"
    );
}

#[test]
fn a_parameter_expression_must_be_there_typed_and_unchanged_by_the_statements() {
    let r = extract_with(RENDER, (3, 6), "each", &["r.items()"], &[]).unwrap_err();
    assert_eq!(r.reason, "param_not_found", "{}", r.message);
    let r = extract_with(RENDER, (3, 6), "each", &["r.rows()"], &[]).unwrap_err();
    assert_eq!(r.reason, "param_type_unknown", "{}", r.message);
    let changed = "class A {\n    int limit = 3;\n\n    int f(int n) {\n        n = n + 1;\n        return n * this.limit;\n    }\n}\n";
    let r = extract_with(changed, (5, 6), "g", &["n * this.limit"], &[]).unwrap_err();
    assert_eq!(r.reason, "param_changes_inside", "{}", r.message);
    // A field's type comes from its declaration.
    let out = extract_with(changed, (6, 6), "g", &["this.limit"], &[]).unwrap();
    assert!(
        out.contains("return g(n, this.limit);")
            && out.contains("private int g(int n, int limit) {\n        return n * limit;"),
        "{out}"
    );
}

#[test]
fn a_name_of_object_s_methods_with_its_parameters_is_a_clash() {
    let src = "class A {\n    void run() {\n        System.out.println(\"one\");\n        System.out.println(\"two\");\n    }\n}\n";
    for name in ["hashCode", "toString", "notify", "finalize"] {
        let r = extract(src, (3, 4), name).unwrap_err();
        assert_eq!(r.reason, "name_clash", "{}", r.message);
        assert!(r.message.contains("every class has `Object`'s"), "{}", r.message);
    }
    // Another arity overloads it, which Java allows.
    let with_input = "class A {\n    void run(int n) {\n        System.out.println(n);\n    }\n}\n";
    assert!(extract(with_input, (3, 3), "toString").is_ok());
}

#[test]
fn parameters_are_final_where_the_file_declares_them_final() {
    let body = "    void report(final String name, final int count, final int[] xs) {\n        int total = count;\n        System.out.println(name + total);\n        for (int x : xs) {\n            total += x;\n        }\n        System.out.println(total);\n    }\n";
    let out = extract(&class(body), (4, 4), "print").unwrap();
    assert!(out.contains("    private void print(final String name, final int total) {\n"), "{out}");
    // `total` is assigned by the extracted loop: it cannot be final there.
    let out = extract(&class(body), (5, 7), "addAll").unwrap();
    assert!(out.contains("    private int addAll(final int[] xs, int total) {\n"), "{out}");
    // A file that does not make its parameters final gets none.
    let plain = body.replace("final ", "");
    let out = extract(&class(&plain), (4, 4), "print").unwrap();
    assert!(out.contains("    private void print(String name, int total) {\n"), "{out}");
    // There, a local declared final stays final as a parameter.
    let out = extract(&class(&plain.replace("int total", "final int total")), (4, 4), "print").unwrap();
    assert!(out.contains("    private void print(String name, final int total) {\n"), "{out}");
}

fn extract_copies(src: &str, lines: (usize, usize), copies: &[(usize, usize)]) -> Result<String, Refusal> {
    let file = SourceFile::parse("A.java", src.to_string());
    let spec = ExtractSpec {
        file: "A.java".into(),
        method_line: Some(2),
        lines,
        name: "log".into(),
        visibility: None,
        local_types: BTreeMap::new(),
        params: Vec::new(),
        param_types: BTreeMap::new(),
        quiet_calls: Vec::new(),
        copies: copies.to_vec(),
    };
    let changes = extract_method(&file, &spec)?;
    Ok(changes.render_file(std::path::Path::new("A.java")).unwrap().unwrap())
}

/// Issue 18, code written twice: a copy of the statements in another method of the class is
/// replaced with the same call; a copy that reads another variable, gives back another one, or
/// sits in a static method while the new one is an instance method is refused with its lines.
#[test]
fn a_copy_of_the_statements_is_replaced_with_the_same_call() {
    let src = class(
        "    void a(String name) {\n        String line = \"a \" + name;\n        System.out.println(line);\n    }\n    \
         void b(String name) {\n        String line = \"a \" + name;\n        System.out.println(line);\n        \
         System.out.println(\"done\");\n    }\n",
    );
    let out = extract_copies(&src, (3, 4), &[(7, 8)]).unwrap();
    assert_eq!(
        out,
        class(
            "    void a(String name) {\n        log(name);\n    }\n\n    private void log(String name) {\n        \
             String line = \"a \" + name;\n        System.out.println(line);\n    }\n    void b(String name) {\n        \
             log(name);\n        System.out.println(\"done\");\n    }\n"
        )
    );
    // Another variable read before the copy.
    let other = src.replace(
        "void b(String name) {\n        String line = \"a \" + name;",
        "void b(String name) {\n        String line = \"a \" + name.trim();",
    );
    assert_eq!(extract_copies(&other, (3, 4), &[(7, 8)]).unwrap_err().reason, "copy_differs");
    // The copy's `line` is used after it: the call would not give it back.
    let used = src.replace("System.out.println(\"done\");", "System.out.println(line);");
    let r = extract_copies(&used, (3, 4), &[(7, 8)]).unwrap_err();
    assert_eq!(r.reason, "copy_differs");
    assert!(r.message.contains("lines 7-8") && r.message.contains("gives back other variables"), "{}", r.message);
    let typed = src.replace("void b(String name)", "void b(CharSequence name)");
    assert_eq!(extract_copies(&typed, (3, 4), &[(7, 8)]).unwrap_err().reason, "copy_differs");
    let in_static = src.replace("void b(String name)", "static void b(String name)");
    assert_eq!(extract_copies(&in_static, (3, 4), &[(7, 8)]).unwrap_err().reason, "copy_differs");
}

/// A copy's trailing comment is the fragment's, which the new method now holds: it goes with
/// the copy. A comment of the copy's own stays where it was.
#[test]
fn a_copy_takes_its_comments_only_when_they_are_the_fragments() {
    let src = class(
        "    void a(String name) {\n        String line = \"a \" + name;\n        System.out.println(line); // say it\n    }\n    \
         void b(String name) {\n        String line = \"a \" + name;\n        System.out.println(line); // say it\n    }\n",
    );
    let out = extract_copies(&src, (3, 4), &[(7, 8)]).unwrap();
    assert!(out.contains("    void b(String name) {\n        log(name);\n    }\n"), "{out}");
    assert_eq!(out.matches("// say it").count(), 1, "{out}");
    let own = src.rsplit_once("// say it").map(|(a, b)| format!("{a}// b's own{b}")).unwrap();
    let out = extract_copies(&own, (3, 4), &[(7, 8)]).unwrap();
    assert!(out.contains("        log(name); // b's own\n"), "{out}");
}
