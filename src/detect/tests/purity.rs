//! Purity of an extraction when the new code names what the old code wrote out, or the reverse,
//! and when it passes a new parameter on to a callee outside the change; purity of a rename with
//! its locals renamed; extractions and inlinings found through method references.

use super::*;

fn extraction(before: &str, after: &str) -> Vec<Refactoring> {
    let found = detect(&snap(&[("p/Report.java", before)]), &snap(&[("p/Report.java", after)]));
    found.into_iter().filter(|r| r.kind == RefactoringType::ExtractMethod).collect()
}

const REPORT_BEFORE: &str = "package p;\n\nclass Report {\n    private static final String HEADER = \"== report ==\";\n\n    void print(Sheet sheet, java.io.PrintStream out) {\n        out.println(HEADER);\n        out.println(sheet.title());\n        out.println(sheet.rows().size() + \" rows\");\n        out.flush();\n    }\n}\n";

/// A local of the caller holding a value the old code wrote out (`int n = sheet.rows().size();`,
/// passed as the parameter), and a constant written out as its value, are the same code.
#[test]
fn a_name_for_its_value_is_pure() {
    let after = "package p;\n\nclass Report {\n    private static final String HEADER = \"== report ==\";\n\n    void print(Sheet sheet, java.io.PrintStream out) {\n        int n = sheet.rows().size();\n        header(sheet, n, out);\n    }\n\n    private void header(Sheet sheet, int n, java.io.PrintStream out) {\n        out.println(\"== report ==\");\n        out.println(sheet.title());\n        out.println(n + \" rows\");\n        out.flush();\n    }\n}\n";
    let found = extraction(REPORT_BEFORE, after);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].pure, "{found:?}");
    // A local holding another value is another computation.
    let other = after.replace("int n = sheet.rows().size();", "int n = sheet.columns().size();");
    let found = extraction(REPORT_BEFORE, &other);
    assert!(found.iter().all(|r| !r.pure), "{found:?}");
    // So is another literal where the constant was.
    let other = after.replace("out.println(\"== report ==\");", "out.println(\"== summary ==\");");
    let found = extraction(REPORT_BEFORE, &other);
    assert!(found.iter().all(|r| !r.pure), "{found:?}");
}

/// An overload taking one more parameter, which it passes on to a constructor declared outside
/// the change (Add Parameter there), the old method passing the default: pure. Passing anything
/// else than the new parameter is not.
#[test]
fn a_new_parameter_passed_on_to_a_callee_outside_the_change_is_pure() {
    let before = "package p;\n\nclass Factory {\n    static Loader create(ClassLoader cl, int priority) {\n        check(priority);\n        return new Loader(new Resources(cl), priority);\n    }\n\n    static void check(int p) {\n        if (p < 0) throw new IllegalArgumentException();\n    }\n}\n";
    let after = "package p;\n\nclass Factory {\n    static Loader create(ClassLoader cl, int priority) {\n        return create(Registry.DEFAULT, cl, priority);\n    }\n\n    static Loader create(Registry registry, ClassLoader cl, int priority) {\n        check(priority);\n        return new Loader(registry, new Resources(cl), priority);\n    }\n\n    static void check(int p) {\n        if (p < 0) throw new IllegalArgumentException();\n    }\n}\n";
    let found = extraction(before, after);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].pure, "{found:?}");
    let other = after.replace("new Loader(registry, ", "new Loader(Registry.OTHER, ");
    let found = extraction(before, &other);
    assert!(found.iter().all(|r| !r.pure), "{found:?}");
}

/// Called twice, the new method is judged by the call that stands for the code it took (the
/// second call, new code, would map onto the first's statement with another argument).
#[test]
fn the_call_that_maps_exactly_decides() {
    let before = "package p;\n\nclass Settings {\n    boolean a;\n    boolean b;\n\n    void load(java.util.Properties props) {\n        a = Boolean.parseBoolean(props.getProperty(\"a\", \"false\"));\n    }\n}\n";
    let after = "package p;\n\nclass Settings {\n    boolean a;\n    boolean b;\n\n    void load(java.util.Properties props) {\n        a = flag(props, \"a\");\n        b = flag(props, \"b\");\n    }\n\n    private boolean flag(java.util.Properties props, String key) {\n        return Boolean.parseBoolean(props.getProperty(key, \"false\"));\n    }\n}\n";
    let found = extraction(before, after);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].pure, "{found:?}");
}

/// The new method returns what the old code computed through a local it no longer needs
/// (`return store.index().items("a");` for `Index index = store.index(); … index.items("a")`).
#[test]
fn a_returned_expression_with_the_old_locals_written_out_is_pure() {
    let before = "package p;\n\nimport java.util.List;\n\nclass Counter {\n    int count(Store store) {\n        Index index = store.index();\n        System.out.println(\"loading \" + store);\n        List<Item> items = index.items(\"a\");\n        System.out.println(items);\n        return items.size();\n    }\n}\n";
    let after = "package p;\n\nimport java.util.List;\n\nclass Counter {\n    int count(Store store) {\n        List<Item> items = items(store);\n        System.out.println(items);\n        return items.size();\n    }\n\n    private static List<Item> items(Store store) {\n        System.out.println(\"loading \" + store);\n        return store.index().items(\"a\");\n    }\n}\n";
    let found = extraction(before, after);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].pure, "{found:?}");
    let other = after.replace("items(\"a\");\n    }", "items(\"b\");\n    }");
    let found = extraction(before, &other);
    assert!(found.iter().all(|r| !r.pure), "{found:?}");
}

/// A method renamed or moved whose local is renamed the same way throughout stays pure; another
/// literal in it does not.
#[test]
fn a_rename_with_a_local_renamed_throughout_is_pure() {
    let before = "package p;\n\nimport java.util.List;\n\nclass Stats {\n    int report(List<Integer> xs) {\n        return total(xs) * 2;\n    }\n\n    int total(List<Integer> xs) {\n        int sum = 0;\n        for (int x : xs) {\n            sum += x;\n        }\n        System.out.println(sum);\n        return sum;\n    }\n}\n";
    let after = "package p;\n\nimport java.util.List;\n\nclass Stats {\n    int report(List<Integer> xs) {\n        return sumOf(xs) * 2;\n    }\n\n    int sumOf(List<Integer> xs) {\n        int acc = 0;\n        for (int x : xs) {\n            acc += x;\n        }\n        System.out.println(acc);\n        return acc;\n    }\n}\n";
    let renamed = |after: &str| {
        let found = detect(&snap(&[("p/Stats.java", before)]), &snap(&[("p/Stats.java", after)]));
        found.into_iter().filter(|r| r.kind == RefactoringType::RenameMethod).collect::<Vec<_>>()
    };
    let found = renamed(after);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].pure, "{found:?}");
    let found = renamed(&after.replace("int acc = 0;", "int acc = 1;"));
    assert!(found.iter().all(|r| !r.pure), "{found:?}");
}

/// A method extracted and named by a method reference (`cache.computeIfAbsent(key, this::load)`)
/// and the reverse, a method passed by reference inlined: no call passes arguments, yet the code
/// moved. A referenced new method holding other code is no pure extraction.
#[test]
fn extract_and_inline_through_a_method_reference() {
    let before = "package p;\n\nimport java.util.Map;\n\nclass Cache {\n    private Map<String, Item> cache;\n    private Store store;\n\n    Item find(String key) {\n        Item item = store.read(key);\n        if (item == null) {\n            item = Item.missing(key);\n        }\n        return item;\n    }\n}\n";
    let after = "package p;\n\nimport java.util.Map;\n\nclass Cache {\n    private Map<String, Item> cache;\n    private Store store;\n\n    Item find(String key) {\n        return cache.computeIfAbsent(key, this::load);\n    }\n\n    private Item load(String key) {\n        Item item = store.read(key);\n        if (item == null) {\n            item = Item.missing(key);\n        }\n        return item;\n    }\n}\n";
    let found = detect(&snap(&[("p/Cache.java", before)]), &snap(&[("p/Cache.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate load(key String) : Item extracted from package find(key String) : Item in class p.Cache"
        ]
    );
    assert!(found[0].pure, "{found:?}");
    let found = detect(&snap(&[("p/Cache.java", after)]), &snap(&[("p/Cache.java", before)]));
    assert_eq!(
        descriptions(&found),
        ["Inline Method\tprivate load(key String) : Item inlined to package find(key String) : Item in class p.Cache"]
    );
    let unrelated = after
        .replace("Item item = store.read(key);", "Item item = store.fetch(key, 3);")
        .replace("item = Item.missing(key);", "item = Item.create(key, store);");
    let found = detect(&snap(&[("p/Cache.java", before)]), &snap(&[("p/Cache.java", &unrelated)]));
    assert!(found.iter().all(|r| r.kind != RefactoringType::ExtractMethod || !r.pure), "{found:?}");
}

/// A parameter of the new method standing for a field, a local or a literal the old code read
/// (Parameterize: the caller now passes a value of its own) keeps the extraction pure; a
/// parameter standing for two different reads, or a computation around it, does not.
#[test]
fn a_parameter_for_what_the_old_code_read_is_pure() {
    let before = "package p;\n\nclass Checks {\n    static final String SAMPLE = \"a,b\";\n    static final String OTHER = \"c\";\n    Engine engine;\n\n    void first() {\n        Report rpt = engine.run(new Rule(), SAMPLE);\n        assertSize(rpt, 0);\n        log(SAMPLE);\n    }\n}\n";
    let after = "package p;\n\nclass Checks {\n    static final String SAMPLE = \"a,b\";\n    static final String OTHER = \"c\";\n    Engine engine;\n\n    void first() {\n        check(0, \"a,\" + \"b\");\n    }\n\n    private void check(int size, String code) {\n        Report rpt = engine.run(new Rule(), code);\n        assertSize(rpt, size);\n        log(code);\n    }\n}\n";
    let found = extraction(before, after);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].pure, "{found:?}");
    let two_reads = before.replace("log(SAMPLE);", "log(OTHER);");
    let found = extraction(&two_reads, after);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(!found[0].pure, "{found:?}");
    let computed = after.replace("new Rule(), code);", "new Rule(), code.trim());");
    let found = extraction(before, &computed);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(!found[0].pure, "{found:?}");
}
