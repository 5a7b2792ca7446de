//! Small hand-written before/after pairs, one per refactoring type, with the pure flag and validate().

use super::*;

fn snap(files: &[(&str, &str)]) -> Snapshot {
    Snapshot::from_files(files.iter().map(|(p, t)| (p.to_string(), t.to_string())))
}

fn descriptions(found: &[Refactoring]) -> Vec<String> {
    found.iter().map(|r| r.description.clone()).collect()
}

const INVOICE_BEFORE: &str = r#"package shop;

public class Invoice {
    private String name;
    private double amount;

    public void print() {
        System.out.println("**********");
        System.out.println("* Invoice *");
        System.out.println("**********");
        System.out.println("name: " + name);
        System.out.println("amount: " + amount);
    }
}
"#;

const INVOICE_AFTER: &str = r#"package shop;

public class Invoice {
    private String name;
    private double amount;

    public void print() {
        printBanner();
        System.out.println("name: " + name);
        System.out.println("amount: " + amount);
    }

    private void printBanner() {
        System.out.println("**********");
        System.out.println("* Invoice *");
        System.out.println("**********");
    }
}
"#;

#[test]
fn extract_method_pure() {
    let found =
        detect(&snap(&[("src/shop/Invoice.java", INVOICE_BEFORE)]), &snap(&[("src/shop/Invoice.java", INVOICE_AFTER)]));
    assert_eq!(
        descriptions(&found),
        ["Extract Method\tprivate printBanner() : void extracted from public print() : void in class shop.Invoice"]
    );
    let r = &found[0];
    assert!(r.pure, "{r:?}");
    assert_eq!(r.code, "EXTRACT_OPERATION");
    assert_eq!(r.left_side_locations[0].code_element_type, "METHOD_DECLARATION");
    assert_eq!((r.left_side_locations[0].start_line, r.left_side_locations[0].end_line), (7, 13));
    assert!(r.right_side_locations.iter().any(|l| l.code_element_type == "METHOD_INVOCATION" && l.start_line == 8));
    let json = serde_json::to_value(r).expect("json");
    assert_eq!(json["type"], "Extract Method");
    assert_eq!(json["leftSideLocations"][0]["filePath"], "src/shop/Invoice.java");
}

#[test]
fn extract_method_impure_when_the_fragment_changes() {
    let after = INVOICE_AFTER.replace("\"* Invoice *\"", "\"* INVOICE *\"").replace(
        "System.out.println(\"amount: \" + amount);\n    }",
        "System.out.println(\"amount: \" + amount);\n        System.out.println(\"end\");\n    }",
    );
    let found = detect(&snap(&[("Invoice.java", INVOICE_BEFORE)]), &snap(&[("Invoice.java", &after)]));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kind, RefactoringType::ExtractMethod);
    assert!(!found[0].pure);
}

#[test]
fn inline_method_is_the_reverse() {
    let found = detect(&snap(&[("Invoice.java", INVOICE_AFTER)]), &snap(&[("Invoice.java", INVOICE_BEFORE)]));
    assert_eq!(
        descriptions(&found),
        ["Inline Method\tprivate printBanner() : void inlined to public print() : void in class shop.Invoice"]
    );
    assert!(found[0].pure);
}

const PARAMS_BEFORE: &str = r#"package calc;

class Stats {
    int total(java.util.List<Integer> items, int bonus) {
        int sum = 0;
        for (int i : items) {
            sum += i * 2;
        }
        sum = sum + bonus;
        return sum;
    }
}
"#;

const PARAMS_AFTER: &str = r#"package calc;

class Stats {
    int total(java.util.List<Integer> items, int bonus) {
        int sum = doubled(items);
        sum = sum + bonus;
        return sum;
    }

    static int doubled(java.util.List<Integer> values) {
        int sum = 0;
        for (int i : values) {
            sum += i * 2;
        }
        return sum;
    }
}
"#;

#[test]
fn extract_with_a_renamed_parameter_and_a_return() {
    let found = detect(&snap(&[("Stats.java", PARAMS_BEFORE)]), &snap(&[("Stats.java", PARAMS_AFTER)]));
    assert_eq!(
        descriptions(&found),
        ["Extract Method\tpackage doubled(values List<Integer>) : int extracted from package total(items List<Integer>, bonus int) : int in class calc.Stats"
            .replace("List<Integer>", "java.util.List<Integer>")]
    );
}

#[test]
fn rename_method_with_its_call_site() {
    let before = "package p;\nclass A {\n  int cnt(int[] xs) { int n = 0; for (int x : xs) { n += x; } return n; }\n  int use(int[] v) { return cnt(v) + 1; }\n}\n";
    let after = "package p;\nclass A {\n  int count(int[] xs) { int n = 0; for (int x : xs) { n += x; } return n; }\n  int use(int[] v) { return count(v) + 1; }\n}\n";
    let found = detect(&snap(&[("A.java", before)]), &snap(&[("A.java", after)]));
    assert_eq!(
        descriptions(&found),
        ["Rename Method\tpackage cnt(xs int[]) : int renamed to package count(xs int[]) : int in class p.A"]
    );
    assert!(found[0].pure);
}

const MOVE_A_BEFORE: &str = "package m;\npublic class Order {\n  Customer customer;\n  double price() { return 10; }\n  public String label(String prefix) {\n    String s = prefix.trim();\n    s = s + \":\" + price();\n    return s.toUpperCase();\n  }\n  void show() { System.out.println(label(\"x\")); }\n}\n";
const MOVE_A_AFTER: &str = "package m;\npublic class Order {\n  Customer customer;\n  double price() { return 10; }\n  void show() { System.out.println(Labels.label(\"x\", price())); }\n}\n";
const MOVE_B_BEFORE: &str = "package m;\npublic class Labels {\n  static String none() { return \"\"; }\n}\n";

#[test]
fn move_and_rename_method_between_classes() {
    let moved = "package m;\npublic class Labels {\n  static String none() { return \"\"; }\n  public static String label(String prefix, double price) {\n    String s = prefix.trim();\n    s = s + \":\" + price;\n    return s.toUpperCase();\n  }\n}\n";
    let before = snap(&[("m/Order.java", MOVE_A_BEFORE), ("m/Labels.java", MOVE_B_BEFORE)]);
    let after = snap(&[("m/Order.java", MOVE_A_AFTER), ("m/Labels.java", moved)]);
    let found = detect(&before, &after);
    assert_eq!(
        descriptions(&found),
        [
            "Move Method\tpublic label(prefix String) : String from class m.Order to public label(prefix String, price double) : String from class m.Labels"
        ]
    );
    assert!(!found[0].pure, "the call to price() became a parameter");

    let renamed = moved.replace("label(", "caption(");
    let after = snap(&[("m/Order.java", &MOVE_A_AFTER.replace("label(", "caption(")), ("m/Labels.java", &renamed)]);
    let found = detect(&before, &after);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kind, RefactoringType::MoveAndRenameMethod);
    assert!(found[0].description.starts_with(
        "Move And Rename Method\tpublic label(prefix String) : String from class m.Order to public caption("
    ));
}

#[test]
fn extract_and_move_and_move_and_inline() {
    let util = "package u;\npublic class Texts {\n  public static String banner(String title) {\n    String line = \"*\".repeat(title.length() + 4);\n    return line + \"\\n* \" + title + \" *\\n\" + line;\n  }\n}\n";
    let util_empty = "package u;\npublic class Texts {\n}\n";
    let report_before = "package r;\nimport u.Texts;\nclass Report {\n  String render(String name) {\n    String line = \"*\".repeat(name.length() + 4);\n    String head = line + \"\\n* \" + name + \" *\\n\" + line;\n    return head + \"\\nbody\";\n  }\n}\n";
    let report_after = "package r;\nimport u.Texts;\nclass Report {\n  String render(String name) {\n    String head = Texts.banner(name);\n    return head + \"\\nbody\";\n  }\n}\n";
    let before = snap(&[("u/Texts.java", util_empty), ("r/Report.java", report_before)]);
    let after = snap(&[("u/Texts.java", util), ("r/Report.java", report_after)]);
    let found = detect(&before, &after);
    assert_eq!(
        descriptions(&found),
        [
            "Extract And Move Method\tpublic banner(title String) : String extracted from package render(name String) : String in class r.Report & moved to class u.Texts"
        ]
    );
    assert!(found[0].pure, "{found:?}");
    let found = detect(&after, &before);
    assert_eq!(
        descriptions(&found),
        [
            "Move And Inline Method\tpublic banner(title String) : String moved from class u.Texts to class r.Report & inlined to package render(name String) : String"
        ]
    );
}

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

const JAR_BEFORE: &str = r#"package build;

public class BootJar {
    private Layered layered;
    private Support support;

    protected CopyAction createCopyAction() {
        Loader loader = getLoaderImplementation().getOrElse(Loader.DEFAULT);
        if (!isLayeredDisabled()) {
            Resolver resolver = new Resolver(this.resolvedDependencies, this.layered);
            String toolsLocation = this.layered.getIncludeLayerTools().get() ? LIB_DIRECTORY : null;
            return this.support.createCopyAction(this, loader, resolver, toolsLocation);
        }
        return this.support.createCopyAction(this, loader);
    }
}
"#;

const JAR_AFTER: &str = r#"package build;

public class BootJar {
    private Layered layered;
    private Support support;

    protected CopyAction createCopyAction() {
        Loader loader = getLoaderImplementation().getOrElse(Loader.DEFAULT);
        Resolver resolver = null;
        if (!isLayeredDisabled()) {
            resolver = new Resolver(this.resolvedDependencies, this.layered);
        }
        String jarmodeLocation = isIncludeJarmodeTools() ? LIB_DIRECTORY : null;
        return this.support.createCopyAction(this, loader, resolver, jarmodeLocation);
    }

    private boolean isIncludeJarmodeTools() {
        if (!this.getIncludeTools().get()) {
            return false;
        }
        return this.layered.getIncludeLayerTools().get();
    }
}
"#;

/// The extracted method returns an expression that was part of a larger statement: the statement
/// holding the call, with the call replaced by the returned expression, is the removed statement.
#[test]
fn extract_method_of_an_expression_inside_a_statement() {
    let found = detect(&snap(&[("BootJar.java", JAR_BEFORE)]), &snap(&[("BootJar.java", JAR_AFTER)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate isIncludeJarmodeTools() : boolean extracted from protected createCopyAction() : CopyAction in class build.BootJar"
        ]
    );
    // Reversed, the same evidence is an inlining.
    let found = detect(&snap(&[("BootJar.java", JAR_AFTER)]), &snap(&[("BootJar.java", JAR_BEFORE)]));
    assert_eq!(
        descriptions(&found),
        [
            "Inline Method\tprivate isIncludeJarmodeTools() : boolean inlined to protected createCopyAction() : CopyAction in class build.BootJar"
        ]
    );
}

const LISTENER_BEFORE: &str = r#"package server;

public class StateListener {
    public void lifeCycleStarted(LifeCycle event) {
        writeState("STARTED", event);
    }

    public void lifeCycleStopped(LifeCycle event) {
        writeState("STOPPED", event);
    }

    private void writeState(String action, LifeCycle lifecycle) {
        try (Writer out = Files.newBufferedWriter(filename, UTF_8, WRITE, CREATE, APPEND)) {
            out.append(action).append(" ").append(lifecycle.toString()).append("\n");
        } catch (Exception e) {
            LOG.warn("Unable to write state", e);
        }
    }
}
"#;

const LISTENER_AFTER: &str = r#"package server;

public class StateListener {
    public void lifeCycleStarted(LifeCycle event) {
        appendStateChange("STARTED", event);
    }

    public void lifeCycleStopped(LifeCycle event) {
        appendStateChange("STOPPED", event);
    }

    private void appendStateChange(String action, Object obj) {
        try (Writer out = Files.newBufferedWriter(stateFile, UTF_8, WRITE, APPEND)) {
            String entry = String.format("%s %s\n", action, obj);
            if (LOG.isDebugEnabled())
                LOG.debug("appendEntry to {}: {}", stateFile, entry);
            out.append(entry);
        } catch (Exception e) {
            LOG.warn("Unable to append state change", e);
        }
    }
}
"#;

/// A rename whose body and parameters were rewritten too is told by its call sites: every caller
/// of the old name calls the new one instead; a setter replaced by an unrelated one is not.
#[test]
fn rename_method_with_a_rewritten_body_by_its_call_sites() {
    let found =
        detect(&snap(&[("StateListener.java", LISTENER_BEFORE)]), &snap(&[("StateListener.java", LISTENER_AFTER)]));
    assert_eq!(
        descriptions(&found),
        [
            "Rename Method\tprivate writeState(action String, lifecycle LifeCycle) : void renamed to private appendStateChange(action String, obj Object) : void in class server.StateListener"
        ]
    );
    let before = "class Index {\n    void load(IntSet ids) { addDirtyIds(ids); }\n    \
                  void addDirtyIds(IntSet ids) { synchronized (dirty) { dirty.addAll(ids); } }\n}\n";
    let after = "class Index {\n    void load(IntSet ids) { setDirtyQueue(new Queue(ids)); }\n    \
                 void setDirtyQueue(Queue queue) { dirtyQueue = queue; }\n}\n";
    let found = detect(&snap(&[("Index.java", before)]), &snap(&[("Index.java", after)]));
    assert!(found.is_empty(), "{found:?}");
}

/// A method copied into two unrelated classes that fit it equally well moved to neither in
/// particular; with one copy it is a move.
#[test]
fn move_method_into_equal_copies_is_not_reported() {
    let before = "package e;\n\npublic class Merge {\n    static class Builder {\n        \
                  public void close() {\n            Releasables.close(builders);\n            \
                  closed = markClosed(builders.length);\n        }\n    }\n}\n";
    let target = |name: &str| {
        format!(
            "package e;\n\npublic class {name} {{\n    public void close() {{\n        \
             Releasables.close(builders);\n        closed = markClosed(builders.length);\n    }}\n}}\n"
        )
    };
    let after_merge = "package e;\n\npublic class Merge {\n    static class Builder {\n    }\n}\n";
    let one = detect(
        &snap(&[("e/Merge.java", before)]),
        &snap(&[("e/Merge.java", after_merge), ("e/ForInt.java", &target("ForInt"))]),
    );
    assert_eq!(
        descriptions(&one),
        ["Move Method\tpublic close() : void from class e.Merge.Builder to public close() : void from class e.ForInt"]
    );
    let two = detect(
        &snap(&[("e/Merge.java", before)]),
        &snap(&[
            ("e/Merge.java", after_merge),
            ("e/ForInt.java", &target("ForInt")),
            ("e/ForLong.java", &target("ForLong")),
        ]),
    );
    assert!(two.is_empty(), "{two:?}");
}

const SSL_BEFORE: &str = r#"package web;

public class TomcatFactory {
    private void customizeSsl(Connector connector) {
        SslCustomizer customizer = new SslCustomizer(logger, connector);
        customizer.customize(getSslBundle());
        String sslBundleName = getSsl().getBundle();
        if (StringUtils.hasText(sslBundleName)) {
            getSslBundles().addBundleUpdateHandler(sslBundleName, customizer::update);
        }
    }
}
"#;

const SSL_AFTER: &str = r#"package web;

public class TomcatFactory {
    private void customizeSsl(Connector connector) {
        SslCustomizer customizer = new SslCustomizer(logger, connector);
        customizer.customize(getSslBundle(), getServerNameBundles());
        addBundleUpdateHandler(getSsl().getBundle(), customizer);
    }

    private void addBundleUpdateHandler(String sslBundleName, SslCustomizer customizer) {
        if (StringUtils.hasText(sslBundleName)) {
            getSslBundles().addBundleUpdateHandler(sslBundleName, (bundle) -> customizer.update(bundle));
        }
    }
}
"#;

/// An argument that was the initializer of a removed local stands for that local: the extracted
/// method's `sslBundleName` is the caller's removed `String sslBundleName = getSsl().getBundle();`.
#[test]
fn extract_method_with_a_local_passed_as_its_initializer() {
    let found = detect(&snap(&[("TomcatFactory.java", SSL_BEFORE)]), &snap(&[("TomcatFactory.java", SSL_AFTER)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate addBundleUpdateHandler(sslBundleName String, customizer SslCustomizer) : void extracted from private customizeSsl(connector Connector) : void in class web.TomcatFactory"
        ]
    );
}

const RANGES_UTILS_BEFORE: &str = "package r;\n\npublic class Utils {\n    public static int total(List<FileRange> r) {\n        \
                                   return r.size();\n    }\n}\n";

const RANGES_UTILS_AFTER: &str = "package r;\n\npublic class Utils {\n    public static int total(List<FileRange> r) {\n        \
                                  return r.size();\n    }\n\n    \
                                  public static List<FileRange> range(long offset, int length) {\n        \
                                  return range(new ArrayList<>(), offset, length);\n    }\n\n    \
                                  public static List<FileRange> range(List<FileRange> fileRanges, long offset, int length) {\n        \
                                  fileRanges.add(FileRange.createFileRange(offset, length));\n        \
                                  return fileRanges;\n    }\n}\n";

/// A local the caller gained stands for its initializer: `final int length = 100;` then
/// `range(ranges, 0, length)` is the removed `ranges.add(FileRange.createFileRange(0, 100));`.
#[test]
fn extract_and_move_with_an_argument_made_a_new_local() {
    let before = "package r;\n\npublic class ReadTest {\n    public void testMerged() {\n        \
                  List<FileRange> ranges = new ArrayList<>();\n        \
                  ranges.add(FileRange.createFileRange(0, 100));\n        read(ranges);\n    }\n}\n";
    let after = "package r;\n\npublic class ReadTest {\n    public void testMerged() {\n        \
                 List<FileRange> ranges = new ArrayList<>();\n        final int length = 100;\n        \
                 Utils.range(ranges, 0, length);\n        read(ranges);\n    }\n}\n";
    let found = detect(
        &snap(&[("r/ReadTest.java", before), ("r/Utils.java", RANGES_UTILS_BEFORE)]),
        &snap(&[("r/ReadTest.java", after), ("r/Utils.java", RANGES_UTILS_AFTER)]),
    );
    assert_eq!(
        descriptions(&found),
        [
            "Extract And Move Method\tpublic range(fileRanges List<FileRange>, offset long, length int) : List<FileRange> extracted from public testMerged() : void in class r.ReadTest & moved to class r.Utils"
        ]
    );
}

/// A new method that only forwards to another new one is a hop: the code was extracted into the
/// method it forwards to, reached with the arguments it passes (`new ArrayList<>()` standing for
/// the removed local it initialised).
#[test]
fn extract_and_move_through_a_forwarding_overload() {
    let before = "package r;\n\npublic class ReadTest {\n    public void testNegative() {\n        \
                  List<FileRange> ranges = new ArrayList<>();\n        \
                  ranges.add(FileRange.createFileRange(0, -50));\n        verify(ranges, Bad.class);\n    }\n}\n";
    let after = "package r;\n\npublic class ReadTest {\n    public void testNegative() {\n        \
                 verify(Utils.range(0, -50), Bad.class);\n    }\n}\n";
    let found = detect(
        &snap(&[("r/ReadTest.java", before), ("r/Utils.java", RANGES_UTILS_BEFORE)]),
        &snap(&[("r/ReadTest.java", after), ("r/Utils.java", RANGES_UTILS_AFTER)]),
    );
    assert_eq!(
        descriptions(&found),
        [
            "Extract And Move Method\tpublic range(fileRanges List<FileRange>, offset long, length int) : List<FileRange> extracted from public testNegative() : void in class r.ReadTest & moved to class r.Utils"
        ]
    );
}

/// The same two cases the other way round: a local the caller lost stands for its initializer,
/// and a removed overload that only forwarded was inlined with the code it forwarded to.
#[test]
fn move_and_inline_with_lost_locals_and_a_forwarding_overload() {
    let merged_before = "package r;\n\npublic class ReadTest {\n    public void testMerged() {\n        \
                         List<FileRange> ranges = new ArrayList<>();\n        final int length = 100;\n        \
                         Utils.range(ranges, 0, length);\n        read(ranges);\n    }\n}\n";
    let merged_after = "package r;\n\npublic class ReadTest {\n    public void testMerged() {\n        \
                        List<FileRange> ranges = new ArrayList<>();\n        \
                        ranges.add(FileRange.createFileRange(0, 100));\n        read(ranges);\n    }\n}\n";
    let found = detect(
        &snap(&[("r/ReadTest.java", merged_before), ("r/Utils.java", RANGES_UTILS_AFTER)]),
        &snap(&[("r/ReadTest.java", merged_after), ("r/Utils.java", RANGES_UTILS_BEFORE)]),
    );
    assert_eq!(
        descriptions(&found),
        [
            "Move And Inline Method\tpublic range(fileRanges List<FileRange>, offset long, length int) : List<FileRange> moved from class r.Utils to class r.ReadTest & inlined to public testMerged() : void"
        ]
    );
    let negative_before = "package r;\n\npublic class ReadTest {\n    public void testNegative() {\n        \
                           verify(Utils.range(0, -50), Bad.class);\n    }\n}\n";
    let negative_after = "package r;\n\npublic class ReadTest {\n    public void testNegative() {\n        \
                          List<FileRange> ranges = new ArrayList<>();\n        \
                          ranges.add(FileRange.createFileRange(0, -50));\n        verify(ranges, Bad.class);\n    }\n}\n";
    let found = detect(
        &snap(&[("r/ReadTest.java", negative_before), ("r/Utils.java", RANGES_UTILS_AFTER)]),
        &snap(&[("r/ReadTest.java", negative_after), ("r/Utils.java", RANGES_UTILS_BEFORE)]),
    );
    assert_eq!(
        descriptions(&found),
        [
            "Move And Inline Method\tpublic range(offset long, length int) : List<FileRange> moved from class r.Utils to class r.ReadTest & inlined to public testNegative() : void"
        ]
    );
}

/// A receiver that now wraps what it was before: `InMemoryPack pack` holds the `Heap` the test
/// used to write to, so the new class's one field of that type is the old `pack`, and
/// `pack.toInputStream()` returning `new ByteArrayInputStream(tinyPack.toByteArray())` is the
/// expression the caller's statement held.
#[test]
fn extract_and_move_into_a_class_wrapping_the_receiver() {
    let before = "package t;\n\npublic class PackTest {\n    public void testTiny() throws Exception {\n        \
                  Heap pack = new Heap(1024);\n        pack.write(4);\n        \
                  Parser p = index(new ByteArrayInputStream(pack.toByteArray()));\n        p.parse();\n    }\n}\n";
    let after = "package t;\n\npublic class PackTest {\n    public void testTiny() throws Exception {\n        \
                 InMemoryPack pack = new InMemoryPack();\n        pack.write(4);\n        \
                 Parser p = index(pack.toInputStream());\n        p.parse();\n    }\n}\n";
    let wrapper = "package t;\n\npublic class InMemoryPack {\n    private final Heap tinyPack = new Heap(1024);\n\n    \
                   public InMemoryPack write(int i) {\n        tinyPack.write(i);\n        return this;\n    }\n\n    \
                   public InputStream toInputStream() {\n        \
                   return new ByteArrayInputStream(tinyPack.toByteArray());\n    }\n}\n";
    let found = detect(
        &snap(&[("t/PackTest.java", before)]),
        &snap(&[("t/PackTest.java", after), ("t/InMemoryPack.java", wrapper)]),
    );
    assert_eq!(
        descriptions(&found),
        [
            "Extract And Move Method\tpublic toInputStream() : InputStream extracted from public testTiny() : void in class t.PackTest & moved to class t.InMemoryPack"
        ]
    );
}

/// An assertion rewritten in AssertJ's style while being extracted is the same statement:
/// `assertFalse(msg, Utils.isDisjoint(input, 100, 800))` and the helper's
/// `Assertions.assertThat(isDisjoint(input, chunk, seek)).describedAs(...).isFalse()`.
#[test]
fn extract_method_of_an_assertion_in_another_style() {
    let before = "package u;\n\npublic class MergeTest {\n    public void testMerge() {\n        \
                  List<Range> input = ranges();\n        \
                  assertFalse(\"Ranges are non disjoint\", Utils.isDisjoint(input, 100, 800));\n        \
                  merge(input);\n    }\n}\n";
    let after = "package u;\n\npublic class MergeTest {\n    public void testMerge() {\n        \
                 List<Range> input = ranges();\n        assertNotDisjoint(input, 100, 800);\n        \
                 merge(input);\n    }\n\n    \
                 private static void assertNotDisjoint(List<Range> in, int chunk, int seek) {\n        \
                 Assertions.assertThat(isDisjoint(in, chunk, seek))\n            \
                 .describedAs(\"Ranges are non disjoint/ordered\")\n            .isFalse();\n    }\n}\n";
    let found = detect(&snap(&[("u/MergeTest.java", before)]), &snap(&[("u/MergeTest.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate assertNotDisjoint(in List<Range>, chunk int, seek int) : void extracted from public testMerge() : void in class u.MergeTest"
        ]
    );
}

/// One call moved into a new method that wraps it in error handling: the single statement is
/// the whole of the evidence, but a substantial one (a call with arguments); a block's header or
/// an argument-less call would not be.
#[test]
fn extract_method_of_one_statement_wrapped_in_error_handling() {
    let before = "package z;\n\npublic class Store {\n    protected void removeKey(Key key) throws Exception {\n        \
                  String path = getNodePath(root, key.getId());\n        LOG.debug(\"Removing {}\", key.getId());\n        \
                  zk.safeDelete(path, acl, fencing);\n    }\n}\n";
    let helper = "\n    public void safeDeleteAndCheck(String path, List<ACL> acl, String fencing) throws Exception {\n        \
                  try {\n            zk.safeDelete(path, acl, fencing);\n        } catch (NoNodeException e) {\n            \
                  if (!exists(path)) {\n                LOG.info(\"Node \" + path + \" is gone\");\n            } else {\n                \
                  throw new NodeExistsException(\"Node \" + path + \" should not exist\");\n            }\n        }\n    }\n}\n";
    let after = before.replace("zk.safeDelete(path, acl, fencing);", "safeDeleteAndCheck(path, acl, fencing);");
    let after = format!("{}{helper}", after.trim_end().trim_end_matches('}'));
    let found = detect(&snap(&[("z/Store.java", before)]), &snap(&[("z/Store.java", &after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tpublic safeDeleteAndCheck(path String, acl List<ACL>, fencing String) : void extracted from protected removeKey(key Key) : void in class z.Store"
        ]
    );
    // An argument-less call is too common to stand alone.
    let bare = after.replace("zk.safeDelete(path, acl, fencing);", "zk.sync();");
    let bare_before = before.replace("zk.safeDelete(path, acl, fencing);", "zk.sync();");
    let bare = bare.replace(
        "safeDeleteAndCheck(path, acl, fencing);",
        "safeDeleteAndCheck(path, acl, fencing);\n        zk.flush();",
    );
    let found = detect(&snap(&[("z/Store.java", &bare_before)]), &snap(&[("z/Store.java", &bare)]));
    assert!(found.iter().all(|r| r.kind != RefactoringType::ExtractMethod), "{found:?}");
}

/// Three expressions of one statement, each extracted into its own method: each method's
/// `return` is found in the statement although the other two calls changed it as well.
#[test]
fn extract_methods_of_several_expressions_of_one_statement() {
    let before = "package j;\n\npublic class Extract {\n    private void write(Entry entry, File file) throws IOException {\n        \
                  mkDirs(file.getParentFile());\n        \
                  Files.view(file.toPath()).setTimes(entry.getModified(), entry.getAccessed(), entry.getCreated());\n    }\n}\n";
    let after = "package j;\n\npublic class Extract {\n    private void write(Entry entry, File file) throws IOException {\n        \
                 mkDirs(file.getParentFile());\n        \
                 Files.view(file.toPath()).setTimes(getModified(entry), getAccessed(entry), getCreated(entry));\n    }\n\n    \
                 private static Time getModified(Entry entry) {\n        return entry.getModified();\n    }\n\n    \
                 private static Time getAccessed(Entry entry) {\n        if (entry.getAccessed() != null) {\n            \
                 return entry.getAccessed();\n        }\n        return entry.getModified();\n    }\n\n    \
                 private static Time getCreated(Entry entry) {\n        if (entry.getCreated() != null) {\n            \
                 return entry.getCreated();\n        }\n        return entry.getModified();\n    }\n}\n";
    let found = detect(&snap(&[("j/Extract.java", before)]), &snap(&[("j/Extract.java", after)]));
    let mut found = descriptions(&found);
    found.sort();
    assert_eq!(
        found,
        [
            "Extract Method\tprivate getAccessed(entry Entry) : Time extracted from private write(entry Entry, file File) : void in class j.Extract",
            "Extract Method\tprivate getCreated(entry Entry) : Time extracted from private write(entry Entry, file File) : void in class j.Extract",
            "Extract Method\tprivate getModified(entry Entry) : Time extracted from private write(entry Entry, file File) : void in class j.Extract",
        ]
    );
}

/// A setter extracted while the field it sets was renamed and the value set changed: the
/// caller's statement wrote the old field, the new setter writes the new one. A getter of the renamed field is not extracted from
/// a method that merely read the old field.
#[test]
fn extract_method_across_a_renamed_field() {
    let before = "package h;\n\npublic class Decoder {\n    private int _localMaxTableSize;\n    private int _maxHeaderSize;\n\n    \
                  public Decoder(int localMaxTableSize, int maxHeaderSize) {\n        \
                  _localMaxTableSize = localMaxTableSize;\n        _maxHeaderSize = maxHeaderSize;\n    }\n\n    \
                  public boolean fits(int size) {\n        if (size > _localMaxTableSize)\n            return false;\n        \
                  return size > 0;\n    }\n}\n";
    let after = "package h;\n\npublic class Decoder {\n    private int _maxTableCapacity;\n    private int _maxHeaderSize;\n\n    \
                 public Decoder(int localMaxTableSize, int maxHeaderSize) {\n        \
                 setMaxTableCapacity(Context.DEFAULT_CAPACITY);\n        _maxHeaderSize = maxHeaderSize;\n    }\n\n    \
                 public boolean fits(int size) {\n        if (size > getMaxTableCapacity())\n            return false;\n        \
                 return size > 0;\n    }\n\n    public int getMaxTableCapacity() {\n        return _maxTableCapacity;\n    }\n\n    \
                 public void setMaxTableCapacity(int maxTableCapacity) {\n        _maxTableCapacity = maxTableCapacity;\n    }\n}\n";
    let found = detect(&snap(&[("h/Decoder.java", before)]), &snap(&[("h/Decoder.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tpublic setMaxTableCapacity(maxTableCapacity int) : void extracted from public Decoder(localMaxTableSize int, maxHeaderSize int) in class h.Decoder"
        ]
    );
}

/// A guard extracted with its condition rewritten: the `if` headers pair because the statements
/// they guard pair.
#[test]
fn extract_method_of_a_guard_with_a_new_condition() {
    let before = "package g;\n\npublic class OpenCost {\n    public void testNotChecksummed() throws Throwable {\n        \
                  describe(\"stream is not checksummed\");\n        InputStream in = open(testFile);\n        \
                  if (!(in instanceof S3AInputStream)) {\n            skip(\"Not an S3AInputStream: \" + in);\n        }\n        \
                  in.read();\n    }\n}\n";
    let after = "package g;\n\npublic class OpenCost {\n    public void testNotChecksummed() throws Throwable {\n        \
                 describe(\"stream is not checksummed\");\n        assumeNoPrefetching();\n        \
                 InputStream in = open(testFile);\n        in.read();\n    }\n\n    \
                 private void assumeNoPrefetching() {\n        if (prefetching) {\n            \
                 skip(\"Prefetching is enabled\");\n        }\n    }\n}\n";
    let found = detect(&snap(&[("g/OpenCost.java", before)]), &snap(&[("g/OpenCost.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate assumeNoPrefetching() : void extracted from public testNotChecksummed() : void in class g.OpenCost"
        ]
    );
}

/// A check extracted from a loop into a predicate whose other conditions were rewritten: the
/// one `if` kept word for word, a condition with calls, carries the extraction.
#[test]
fn extract_method_kept_one_condition_word_for_word() {
    let before = "package s;\n\npublic class Stemmer {\n    boolean doStem(int[] forms, Context context) {\n        \
                  for (int entryId : forms) {\n            \
                  if (!context.isCompound() && dictionary.hasFlag(entryId, dictionary.onlyInCompound)) {\n                \
                  continue;\n            }\n            if (context.isCompound()) {\n                \
                  if (!dictionary.hasFlag(entryId, context.requiredFlag(dictionary))) {\n                    \
                  continue;\n                }\n            }\n            process(entryId);\n        }\n        \
                  return true;\n    }\n}\n";
    let after = "package s;\n\npublic class Stemmer {\n    boolean doStem(int[] forms, Context context) {\n        \
                 for (int entryId : forms) {\n            if (!isCompatible(context, entryId)) {\n                \
                 continue;\n            }\n            process(entryId);\n        }\n        return true;\n    }\n\n    \
                 private boolean isCompatible(Context context, int entryId) {\n        \
                 if (!context.isCompound() && dictionary.hasFlag(entryId, dictionary.onlyInCompound)) {\n            \
                 return false;\n        }\n        if (context.isCompound() && context != Context.END) {\n            \
                 char flag = context.requiredFlag(dictionary);\n            \
                 return dictionary.hasFlag(entryId, flag) || appended(flag);\n        }\n        return true;\n    }\n}\n";
    let found = detect(&snap(&[("s/Stemmer.java", before)]), &snap(&[("s/Stemmer.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate isCompatible(context Context, entryId int) : boolean extracted from package doStem(forms int[], context Context) : boolean in class s.Stemmer"
        ]
    );
}

/// An overload that delegated to another of its name absorbed it: the delegator keeps its
/// place (its parameters fit the merged method) and the delegate is inlined, although the
/// delegate's body makes up most of the merged method.
#[test]
fn inline_method_of_an_overload_into_its_delegator() {
    let before = "package m;\n\npublic class Root {\n    \
                  public Root merge(Mapper with, Reason reason, Context ctx) {\n        \
                  if (with instanceof Root == false) {\n            Errors.conflict(with.name());\n        }\n        \
                  return merge((Root) with, reason, ctx);\n    }\n\n    \
                  Root merge(Root other, Reason reason, Context ctx) {\n        \
                  final var result = Result.build(this, other, reason, ctx);\n        \
                  final boolean numeric = other.numeric.explicit() ? other.numeric.value() : this.numeric.value();\n        \
                  final boolean dates = other.dates.explicit() ? other.dates.value() : this.dates.value();\n        \
                  return new Root(result.mappers(), numeric, dates);\n    }\n}\n";
    let after = "package m;\n\npublic class Root {\n    public Root merge(Mapper with, Context ctx) {\n        \
                 if (with instanceof Root == false) {\n            Errors.conflict(with.name());\n        }\n        \
                 Root other = (Root) with;\n        final var result = Result.build(this, other, ctx);\n        \
                 final boolean numeric = other.numeric.explicit() ? other.numeric.value() : this.numeric.value();\n        \
                 final boolean dates = other.dates.explicit() ? other.dates.value() : this.dates.value();\n        \
                 return new Root(result.mappers(), numeric, dates);\n    }\n}\n";
    let found = detect(&snap(&[("m/Root.java", before)]), &snap(&[("m/Root.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Inline Method\tpackage merge(other Root, reason Reason, ctx Context) : Root inlined to public merge(with Mapper, ctx Context) : Root in class m.Root"
        ]
    );
}

/// A helper inlined into code that was extracted at the same time: the helper's statements
/// are in the new method, not in the caller that called the helper.
#[test]
fn inline_method_into_a_method_extracted_at_the_same_time() {
    let before = "package f;\n\npublic class OutputTest {\n    void testPartition() throws Exception {\n        \
                  runPartitioned(2);\n    }\n\n    void testOverride() throws Exception {\n        \
                  Harness harness = createSink(true);\n        writeRecords(harness);\n        \
                  harness.finish();\n        assertThat(contentOf(outputPath)).hasSize(1);\n        \
                  assertThat(contentOf(stagingPath)).isEmpty();\n        assertThat(new File(tmpPath)).doesNotExist();\n        \
                  assertThat(harness.getOutput()).containsExactly(\"a1,1,p1\", \"a2,2,p1\");\n    }\n\n    \
                  private void writeRecords(Harness harness) throws Exception {\n        harness.setup();\n        \
                  harness.open();\n        harness.processElement(new Record(\"a1\", 1, \"p1\"));\n        \
                  harness.processElement(new Record(\"a2\", 2, \"p1\"));\n    }\n}\n";
    let after = "package f;\n\npublic class OutputTest {\n    void testPartition() throws Exception {\n        \
                 checkWriteAndCommit(false, 2);\n    }\n\n    void testOverride() throws Exception {\n        \
                 checkWriteAndCommit(true, 1);\n    }\n\n    \
                 private void checkWriteAndCommit(boolean override, int files) throws Exception {\n        \
                 Harness harness = createSink(override);\n        harness.setup();\n        harness.open();\n        \
                 harness.processElement(new Record(\"a1\", 1, \"p1\"));\n        \
                 harness.processElement(new Record(\"a2\", 2, \"p1\"));\n        harness.finish();\n        \
                 assertThat(contentOf(outputPath)).hasSize(files);\n        \
                 assertThat(contentOf(stagingPath)).isEmpty();\n        assertThat(new File(tmpPath)).doesNotExist();\n        \
                 assertThat(harness.getOutput()).containsExactly(\"a1,1,p1\", \"a2,2,p1\");\n    }\n}\n";
    let found = detect(&snap(&[("f/OutputTest.java", before)]), &snap(&[("f/OutputTest.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate checkWriteAndCommit(override boolean, files int) : void extracted from package testOverride() : void in class f.OutputTest",
            "Inline Method\tprivate writeRecords(harness Harness) : void inlined to private checkWriteAndCommit(override boolean, files int) : void in class f.OutputTest"
        ]
    );
}

/// A test class renamed with every test it had kept, however many the new name gains, is the
/// same class (RefactoringMiner's test-class rule): its test is not reported as moved.
#[test]
fn test_class_renamed_with_all_its_tests_is_not_a_move() {
    let test = "    public void testCanceled() throws Exception {\n        Flag flag = new Flag();\n        \
                Runner runner = new Runner(flag, 3);\n        assertTrue(runner.run(\"a\"));\n        flag.set(true);\n        \
                assertFalse(runner.run(\"b\"));\n    }\n";
    let extra = |n: &str| {
        format!(
            "    public void test{n}() {{\n        Runner runner = new Runner(null, {}) ;\n        assertEquals(\"{n}\", runner.name());\n    }}\n",
            n.len()
        )
    };
    let before = format!("package h;\n\npublic class RunnerTest extends TestCase {{\n{test}}}\n");
    let after = format!(
        "package h;\n\npublic class TestRunner extends TestCase {{\n{test}{}{}}}\n",
        extra("Name"),
        extra("Other")
    );
    let found = detect(&snap(&[("h/RunnerTest.java", &before)]), &snap(&[("h/TestRunner.java", &after)]));
    assert!(found.is_empty(), "{found:?}");
    // Classes that are not tests need half their members in common.
    let before = before.replace("RunnerTest", "RunnerChecks");
    let after = after.replace("TestRunner", "RunnerProbes");
    let found = detect(&snap(&[("h/RunnerChecks.java", &before)]), &snap(&[("h/RunnerProbes.java", &after)]));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kind, RefactoringType::MoveMethod);
}

/// A one-statement method moved and renamed into a class the change added: the same statement
/// word for word, passing arguments, held by no other removed or added method.
#[test]
fn move_and_rename_of_a_one_statement_method_into_a_new_class() {
    let before = "package p;\n\npublic class HttpTest {\n    public static Collection<Protocol> data() {\n        \
                  return asList(Protocol.H2, Protocol.HTTP_2);\n    }\n\n    public void testGet() {\n        \
                  client.get(\"/\");\n    }\n}\n";
    let after = "package p;\n\npublic class HttpTest {\n    static class ProtocolProvider implements ArgumentsProvider {\n        \
                 public List<Object> arguments() {\n            return asList(Protocol.H2, Protocol.HTTP_2);\n        }\n    }\n\n    \
                 public void testGet() {\n        client.get(\"/\");\n    }\n}\n";
    let found = detect(&snap(&[("p/HttpTest.java", before)]), &snap(&[("p/HttpTest.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Move And Rename Method\tpublic data() : Collection<Protocol> from class p.HttpTest to public arguments() : List<Object> from class p.HttpTest.ProtocolProvider"
        ]
    );
    // Two new methods with that statement: which one it became is a guess.
    let twice = after.replace(
        "    }\n\n    public void testGet",
        "    }\n\n    static class Other {\n        public List<Object> values() {\n            return asList(Protocol.H2, Protocol.HTTP_2);\n        }\n    }\n\n    public void testGet",
    );
    assert!(detect(&snap(&[("p/HttpTest.java", before)]), &snap(&[("p/HttpTest.java", &twice)])).is_empty());
    // A statement that passes nothing is too common to tell.
    let bare = |s: &str| s.replace("asList(Protocol.H2, Protocol.HTTP_2)", "defaults()");
    assert!(
        detect(&snap(&[("p/HttpTest.java", &bare(before))]), &snap(&[("p/HttpTest.java", &bare(after))])).is_empty()
    );
}

/// A local extracted from an expression in a moved (or renamed) method stands for that
/// expression (RefactoringMiner's Extract Variable), so the statement it came from still maps.
#[test]
fn move_and_rename_with_an_extracted_variable() {
    let asserts = "        assertEquals(Collections.singletonList(\"apach\"), engine.roots(\"apache\"));\n        \
                   assertEquals(Collections.singletonList(\"foo\"), engine.roots(\"foo\"));\n";
    let other = "    public void testSimple() {\n        assertStem(\"abc\", \"ab\");\n    }\n";
    let before_a = format!(
        "package s;\n\npublic class StemmerTest {{\n{other}\n    public void testEngineApi() throws IOException {{\n        \
         Engine engine = new Engine(load(false, \"simple.aff\", \"simple.dic\"));\n{asserts}    }}\n}}\n"
    );
    let after_a = format!("package s;\n\npublic class StemmerTest {{\n{other}}}\n");
    let before_b = "package s;\n\npublic class EngineTest {\n    public void testSpell() {\n        assertTrue(spell(\"x\"));\n    }\n}\n";
    let after_b = format!(
        "package s;\n\npublic class EngineTest {{\n    public void testSpell() {{\n        assertTrue(spell(\"x\"));\n    }}\n\n    \
         public void testApi() throws Exception {{\n        Dictionary dictionary = load(false, \"simple.aff\", \"simple.dic\");\n        \
         Engine engine = new Engine(dictionary, Policy.NONE, () -> {{}});\n{asserts}    }}\n}}\n"
    );
    let found = detect(
        &snap(&[("s/StemmerTest.java", &before_a), ("s/EngineTest.java", before_b)]),
        &snap(&[("s/StemmerTest.java", &after_a), ("s/EngineTest.java", &after_b)]),
    );
    assert_eq!(
        descriptions(&found),
        [
            "Move And Rename Method\tpublic testEngineApi() : void from class s.StemmerTest to public testApi() : void from class s.EngineTest"
        ]
    );
}

/// Of two new methods that fit a removed one statement for statement, the one matching word for
/// word is the rename; the other, with an argument changed, is a new variant of it.
#[test]
fn rename_prefers_the_counterpart_matching_word_for_word() {
    let body = |name: &str| {
        format!(
            "    void {name}(Output output) {{\n        this.environment.setProperty(\"app.name\", \"myapp\");\n        \
             initialize(this.context, null, null);\n        this.logger.info(\"Hello world\");\n        \
             assertThat(lineWith(output, \"Hello world\")).contains(\"[myapp] \");\n    }}\n"
        )
    };
    let before = format!("package l;\n\nclass LoggingTests {{\n{}}}\n", body("loggingWhenNamed"));
    let variant = body("loggingToConsoleWhenNamedWithParens").replace("\"myapp\")", "\"myapp (acme)\")");
    let after = format!("package l;\n\nclass LoggingTests {{\n{}\n{variant}}}\n", body("loggingToConsoleWhenNamed"));
    let found = detect(&snap(&[("l/LoggingTests.java", &before)]), &snap(&[("l/LoggingTests.java", &after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Rename Method\tpackage loggingWhenNamed(output Output) : void renamed to package loggingToConsoleWhenNamed(output Output) : void in class l.LoggingTests"
        ]
    );
}

/// A builder's `build()` returning `new T(..)` whose call chain took the place of a `new T()`
/// passed to a call: the statement is the old one but for the creation's arguments.
#[test]
fn extract_and_move_of_a_builder_replacing_a_creation() {
    let test = |pool: &str| {
        format!(
            "package n;\n\nclass ChannelTest {{\n    void setup() throws Exception {{\n        networkPool = new NetworkPool(8, SIZE);\n        \
             gate = createGate(1, networkPool);\n        {pool}\n        gate.setupChannels();\n    }}\n}}\n"
        )
    };
    let pool_before = "package b;\n\npublic class TestingPool implements Pool {\n    public TestingPool() {\n        this(() -> null, b -> {});\n    }\n\n    \
                       public TestingPool(Supplier<Segment> supplier, Consumer<Buffer> recycler) {\n        this.supplier = supplier;\n        \
                       this.recycler = recycler;\n    }\n}\n";
    let pool_after = "package b;\n\npublic class TestingPool implements Pool {\n    \
                      public TestingPool(Supplier<Segment> supplier, Consumer<Buffer> recycler) {\n        this.supplier = supplier;\n        \
                      this.recycler = recycler;\n    }\n\n    public static TestingPool.Builder builder() {\n        return new TestingPool.Builder();\n    }\n\n    \
                      public static class Builder {\n        private Supplier<Segment> supplier = () -> null;\n        private Consumer<Buffer> recycler = b -> {};\n\n        \
                      public Builder setSupplier(Supplier<Segment> supplier) {\n            this.supplier = supplier;\n            return this;\n        }\n\n        \
                      public TestingPool build() {\n            return new TestingPool(supplier, recycler);\n        }\n    }\n}\n";
    let passed = "gate.setBufferPool(TestingPool.builder().setSupplier(() -> allocate(1024)).build());";
    let found = detect(
        &snap(&[
            ("n/ChannelTest.java", &test("gate.setBufferPool(new TestingPool());")),
            ("b/TestingPool.java", pool_before),
        ]),
        &snap(&[("n/ChannelTest.java", &test(passed)), ("b/TestingPool.java", pool_after)]),
    );
    assert_eq!(
        descriptions(&found),
        [
            "Extract And Move Method\tpublic build() : TestingPool extracted from package setup() : void in class n.ChannelTest & moved to class b.TestingPool.Builder"
        ]
    );
    // A local's whole initializer is credited to the chain's first call by RefactoringMiner.
    let local = "Pool pool = TestingPool.builder().setSupplier(() -> allocate(1024)).build();";
    let found = detect(
        &snap(&[("n/ChannelTest.java", &test("Pool pool = new TestingPool();")), ("b/TestingPool.java", pool_before)]),
        &snap(&[("n/ChannelTest.java", &test(local)), ("b/TestingPool.java", pool_after)]),
    );
    assert!(found.iter().all(|r| r.kind != RefactoringType::ExtractAndMoveMethod), "{found:?}");
}

/// A creation moved into another class with its argument rewritten: the one statement pairs
/// loosely at first, too loosely across classes, and must not keep the creation rule from
/// pairing it afterwards.
#[test]
fn extract_and_move_of_a_creation_with_a_new_argument() {
    let before = "package s;\n\npublic class TestUtils {\n    \
                  public static Path getCsvPath(Configuration conf) {\n        \
                  return new Path(getCsvFile(conf));\n    }\n}\n";
    let after = "package s;\n\npublic class TestUtils {\n    \
                 public static Path getCsvPath(Configuration conf) {\n        \
                 return DatasetUtils.getExternalData(conf);\n    }\n}\n";
    let utils = "package s;\n\npublic class DatasetUtils {\n    \
                 public static Path getExternalData(Configuration conf) {\n        \
                 return new Path(fetchFromConfig(conf, KEY_CSV_FILE, DEFAULT_FILE));\n    }\n}\n";
    let found = detect(
        &snap(&[("s/TestUtils.java", before)]),
        &snap(&[("s/TestUtils.java", after), ("s/DatasetUtils.java", utils)]),
    );
    assert_eq!(
        descriptions(&found),
        [
            "Extract And Move Method\tpublic getExternalData(conf Configuration) : Path extracted from public getCsvPath(conf Configuration) : Path in class s.TestUtils & moved to class s.DatasetUtils"
        ]
    );
}

/// A setter extracted from a method whose parameter was renamed at the same time: the old
/// statement is read with the parameter's new name.
#[test]
fn extract_method_from_a_caller_with_a_renamed_parameter() {
    let before = "package h;\n\npublic class Encoder {\n    private int _localMaxTableSize;\n\n    \
                  public void setLocalMaxTableSize(int localMaxTableSize) {\n        \
                  _localMaxTableSize = localMaxTableSize;\n    }\n}\n";
    let after = "package h;\n\npublic class Encoder {\n    private int _maxTableCapacity;\n    private int _tableCapacity;\n\n    \
                 public void setLocalMaxTableSize(int maxTableSizeLimit) {\n        \
                 setMaxTableCapacity(maxTableSizeLimit);\n    }\n\n    \
                 public void setMaxTableCapacity(int maxTableSizeLimit) {\n        \
                 _maxTableCapacity = maxTableSizeLimit;\n    }\n}\n";
    let found = detect(&snap(&[("h/Encoder.java", before)]), &snap(&[("h/Encoder.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tpublic setMaxTableCapacity(maxTableSizeLimit int) : void extracted from public setLocalMaxTableSize(localMaxTableSize int) : void in class h.Encoder"
        ]
    );
}

/// A lambda's body extracted into a method that a method reference now names.
#[test]
fn extract_method_of_a_lambda_replaced_by_a_method_reference() {
    let before = "package r;\n\npublic class Factory {\n    protected Map<String, Bundle> getServerBundles() {\n        \
                  return ssl.getServerNameBundles().stream()\n            \
                  .collect(Collectors.toMap(Named::serverName, (named) -> this.bundles.getBundle(named.bundle())));\n    }\n}\n";
    let after = "package r;\n\npublic class Factory {\n    protected Map<String, Bundle> getServerBundles() {\n        \
                 return ssl.getServerNameBundles().stream()\n            \
                 .collect(Collectors.toMap(Named::serverName, this::getBundle));\n    }\n\n    \
                 private Bundle getBundle(Named named) {\n        return this.bundles.getBundle(named.bundle());\n    }\n}\n";
    let found = detect(&snap(&[("r/Factory.java", before)]), &snap(&[("r/Factory.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate getBundle(named Named) : Bundle extracted from protected getServerBundles() : Map<String,Bundle> in class r.Factory"
        ]
    );
}

/// A predicate extracted from a lambda: the new method's guard `if (c) return false;` is the
/// `!c` the lambda had where the call now stands.
#[test]
fn extract_method_of_a_negated_condition_into_a_guard() {
    let before = "package p;\n\npublic class Perf {\n    private void check(String code) throws Exception {\n        \
                  Hunspell speller = new Hunspell(load(code));\n        \
                  List<String> words = load(code).stream().filter(w -> !speller.spell(w)).collect(Collectors.toList());\n        \
                  measure(words);\n    }\n}\n";
    let after = "package p;\n\npublic class Perf {\n    private void check(String code) throws Exception {\n        \
                 Hunspell speller = new Hunspell(load(code));\n        \
                 List<String> words = load(code).stream().filter(w -> hasQuickSuggestions(speller, w)).collect(Collectors.toList());\n        \
                 measure(words);\n    }\n\n    private boolean hasQuickSuggestions(Hunspell speller, String word) {\n        \
                 if (speller.spell(word)) {\n            return false;\n        }\n        long start = System.nanoTime();\n        \
                 speller.suggest(word);\n        return System.nanoTime() - start < LIMIT;\n    }\n}\n";
    let found = detect(&snap(&[("p/Perf.java", before)]), &snap(&[("p/Perf.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate hasQuickSuggestions(speller Hunspell, word String) : boolean extracted from private check(code String) : void in class p.Perf"
        ]
    );
}

/// A conditional expression extracted into a method that spells it out as `if`/`return`.
#[test]
fn extract_method_of_a_conditional_expression_spelled_out() {
    let before = "package c;\n\npublic class Command {\n    void run(Map<String, String> options) throws IOException {\n        \
                  File destination = options.containsKey(DESTINATION) ? new File(options.get(DESTINATION))\n            \
                  : this.context.getWorkingDir();\n        extract(destination);\n    }\n}\n";
    let after = "package c;\n\npublic class Command {\n    void run(Map<String, String> options) throws IOException {\n        \
                 File destination = getWorkingDirectory(options);\n        extract(destination);\n    }\n\n    \
                 private File getWorkingDirectory(Map<String, String> options) {\n        \
                 if (options.containsKey(DESTINATION)) {\n            return new File(options.get(DESTINATION));\n        }\n        \
                 return this.context.getWorkingDir();\n    }\n}\n";
    let found = detect(&snap(&[("c/Command.java", before)]), &snap(&[("c/Command.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate getWorkingDirectory(options Map<String,String>) : File extracted from package run(options Map<String,String>) : void in class c.Command"
        ]
    );
}

/// An assertion helper with a variable-arity parameter and a local of its own: the arguments
/// from the parameter's position on stand for it, and the local for its initializer, which the
/// old assertion had written out.
#[test]
fn extract_method_with_varargs_and_its_own_local() {
    let before = "package t;\n\npublic class TokenizerTest {\n    public void test() {\n        \
                  assertThat(new LineTokenizer(\"a\\nb\").execute()).containsExactly(\"a\\n\", \"b\");\n        \
                  assertEquals(\"\\n\", separator());\n    }\n}\n";
    let after = "package t;\n\npublic class TokenizerTest {\n    public void test() {\n        \
                 assertEquals(\"\\n\", separator());\n        assertTokensAre(\"a\\nb\", \"a\\n\", \"b\");\n    }\n\n    \
                 private static void assertTokensAre(String input, String... expected) {\n        \
                 String[] actual = new LineTokenizer(input).execute();\n        \
                 assertThat(actual).containsExactly(expected);\n    }\n}\n";
    let found = detect(&snap(&[("t/TokenizerTest.java", before)]), &snap(&[("t/TokenizerTest.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate assertTokensAre(input String, expected String...) : void extracted from public test() : void in class t.TokenizerTest"
        ]
    );
}

/// A test renamed while its set-up went into a new helper and its second half was dropped:
/// the set-up found word for word in the helper it now calls is accounted for, and the rest is
/// the same test, so the extraction is found too.
#[test]
fn rename_method_whose_set_up_was_extracted() {
    let before = r#"package t;

class ReaderTests {
    @Test
    public void testReadFromPositionedStream() throws Exception {
        Stream stream = Mockito.mock(Stream.class);
        Mockito.doReturn(7).when(stream).read(ArgumentMatchers.anyLong());
        stream.open(ArgumentMatchers.any(Buffer.class));
        Future<Buffer> result = Reader.readFrom(stream, Range.of(1000, 100));
        assertCompleted(result);
        Buffer buffer = result.get();
        assertEquals("size", 100, buffer.remaining());
        byte b = 0;
        while (buffer.remaining() > 0) {
            assertEquals("remain", b++, buffer.get());
        }
        Mockito.doThrow(new IOException("foo")).when(stream).read(ArgumentMatchers.anyLong());
        result = Reader.readFrom(stream, Range.of(1000, 100));
        assertFailed(result);
    }
}
"#;
    let after = r#"package t;

class ReaderTests {
    @Test
    public void testReadSingleRange() throws Exception {
        final Stream stream = mockStream();
        Future<Buffer> result = readFrom(stream, of(1000, 100));
        assertCompleted(result);
        Buffer buffer = result.get();
        assertEquals("size", 100, buffer.remaining());
        byte b = 0;
        while (buffer.remaining() > 0) {
            assertEquals("remain", b++, buffer.get());
        }
    }

    private static Stream mockStream() throws IOException {
        Stream stream = Mockito.mock(Stream.class);
        Mockito.doReturn(7).when(stream).read(ArgumentMatchers.anyLong());
        stream.open(ArgumentMatchers.any(Buffer.class));
        return stream;
    }
}
"#;
    let found = detect(&snap(&[("t/ReaderTests.java", before)]), &snap(&[("t/ReaderTests.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate mockStream() : Stream extracted from public testReadFromPositionedStream() : void in class t.ReaderTests",
            "Rename Method\tpublic testReadFromPositionedStream() : void renamed to public testReadSingleRange() : void in class t.ReaderTests",
        ]
    );
}

/// The reverse: a method renamed while a helper it called was inlined into it and its first
/// checks went elsewhere. What is left after is wholly what was there before, with the same
/// parameter types, so the inline is found too.
#[test]
fn rename_method_with_a_helper_inlined_into_it() {
    let before = r#"package z;

class Extractor {
    void run(ZipInputStream zip, File destination) throws IOException {
        ZipEntry entry = zip.getNextEntry();
        write(zip, entry, destination);
    }

    private void write(ZipInputStream zip, ZipEntry entry, File destination) throws IOException {
        String outputPath = destination.getCanonicalPath() + File.separator;
        File file = new File(destination, entry.getName());
        String entryPath = file.getCanonicalPath();
        Assert.state(entryPath.startsWith(outputPath), "outside the output location");
        mkParentDirs(file);
        try (OutputStream out = new FileOutputStream(file)) {
            StreamUtils.copy(zip, out);
            out.flush();
        }
        Files.setLastModifiedTime(file.toPath(), entry.getLastModifiedTime());
    }

    private void mkParentDirs(File file) throws IOException {
        mkDirs(file.getParentFile());
    }

    private void mkDirs(File file) {
        file.mkdirs();
    }
}
"#;
    let after = r#"package z;

class Extractor {
    void run(ZipInputStream zip, File destination) throws IOException {
        extractArchive(zip, destination);
    }

    private void extractArchive(ZipInputStream zip, File destination) throws IOException {
        ZipEntry entry = zip.getNextEntry();
        extractEntry(zip, entry, destination);
    }

    private void extractEntry(ZipInputStream zip, ZipEntry entry, File file) throws IOException {
        mkDirs(file.getParentFile());
        try (OutputStream out = new FileOutputStream(file)) {
            StreamUtils.copy(zip, out);
            out.flush();
        }
        Files.setLastModifiedTime(file.toPath(), entry.getLastModifiedTime());
    }

    private void mkDirs(File file) {
        file.mkdirs();
    }
}
"#;
    let found = detect(&snap(&[("z/Extractor.java", before)]), &snap(&[("z/Extractor.java", after)]));
    let found = descriptions(&found);
    for expected in [
        "Inline Method\tprivate mkParentDirs(file File) : void inlined to private extractEntry(zip ZipInputStream, entry ZipEntry, file File) : void in class z.Extractor",
        "Rename Method\tprivate write(zip ZipInputStream, entry ZipEntry, destination File) : void renamed to private extractEntry(zip ZipInputStream, entry ZipEntry, file File) : void in class z.Extractor",
    ] {
        assert!(found.iter().any(|d| d == expected), "{expected} not in {found:#?}");
    }
}

/// A rename told by its call sites where the new method takes a parameter more and new callers
/// use it too: still the old method, all of whose callers switched. A new helper taking other
/// things, which its removed namesake's caller calls along with new callers, is no rename.
#[test]
fn rename_method_by_call_sites_with_an_added_parameter_and_new_callers() {
    let before = r#"package u;

class Ranges {
    static List<Range> validate(List<Range> input) {
        if (input.size() <= 1) {
            return input;
        }
        Range[] sorted = sort(input);
        for (int i = 1; i < sorted.length; i++) {
            check(sorted[i - 1], sorted[i]);
        }
        return Arrays.asList(sorted);
    }
}

class Reader {
    void read(List<Range> ranges) {
        List<Range> sorted = Ranges.validate(ranges);
        fetch(sorted);
    }

    void readAll(List<Range> ranges) {
        fetch(ranges);
    }
}
"#;
    let after = r#"package u;

class Ranges {
    static List<Range> validateAndSort(List<Range> input, Optional<Long> length) {
        requireNonNull(input, "input");
        Range[] sorted = sort(input);
        Range prev = null;
        for (Range current : sorted) {
            checkArgument(prev == null || current.start() >= prev.end(), "overlap");
            prev = current;
        }
        if (length.isPresent()) {
            checkLength(sorted, length.get());
        }
        return List.of(sorted);
    }
}

class Reader {
    void read(List<Range> ranges) {
        List<Range> sorted = Ranges.validateAndSort(ranges, Optional.empty());
        fetch(sorted);
    }

    void readAll(List<Range> ranges) {
        fetch(Ranges.validateAndSort(ranges, Optional.of(size)));
    }
}
"#;
    let found = detect(&snap(&[("u/Ranges.java", before)]), &snap(&[("u/Ranges.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Rename Method\tpackage validate(input List<Range>) : List<Range> renamed to package validateAndSort(input List<Range>, length Optional<Long>) : List<Range> in class u.Ranges"
        ]
    );
    // The old parameter's type gone: a new helper, not the old method.
    let after = after.replace("validateAndSort(List<Range> input,", "validateAndSort(Range[] input,");
    let found = detect(&snap(&[("u/Ranges.java", before)]), &snap(&[("u/Ranges.java", &after)]));
    assert!(found.is_empty(), "{found:?}");
}

/// A set-up method renamed that gained a statement: nobody calls it and half its body is new,
/// but the whole of the old body is in it word for word (RefactoringMiner's mapped elements
/// more than half the other side's unmapped when one side is wholly mapped).
#[test]
fn rename_method_whose_whole_old_body_is_in_the_new_one() {
    let before = "package m;\n\nclass ServerTest {\n    @Before public void checkPlatforms() {\n        \
                  platform.assumeNotBouncyCastle();\n    }\n\n    @Test public void get() {\n        \
                  server.start();\n        assertEquals(200, server.get(\"/\").code());\n    }\n}\n";
    let after = "package m;\n\nclass ServerTest {\n    @BeforeEach public void setUp() throws IOException {\n        \
                 platform.assumeNotBouncyCastle();\n        server.start();\n    }\n\n    @Test public void get() {\n        \
                 assertEquals(200, server.get(\"/\").code());\n    }\n}\n";
    let found = detect(&snap(&[("m/ServerTest.java", before)]), &snap(&[("m/ServerTest.java", after)]));
    assert_eq!(
        descriptions(&found),
        ["Rename Method\tpublic checkPlatforms() : void renamed to public setUp() : void in class m.ServerTest"]
    );
    // Half the old body gone as well: no longer the same method.
    let before = before.replace(
        "platform.assumeNotBouncyCastle();\n    }",
        "platform.assumeNotBouncyCastle();\n        tracing.reset();\n        metrics.clear();\n    }",
    );
    let found = detect(&snap(&[("m/ServerTest.java", &before)]), &snap(&[("m/ServerTest.java", after)]));
    assert!(found.iter().all(|r| r.kind != RefactoringType::RenameMethod), "{found:?}");
}

/// A method renamed while a new method took its old name with other parameters: the name alone
/// does not pair the old method with its namesake when a new method with its parameters, its
/// return type and more of its body is there.
#[test]
fn rename_method_whose_old_name_went_to_a_new_overload() {
    let before = r#"package b;

class Buffers {
    void requestBuffers(int count) throws IOException {
        checkArgument(count >= 0, "count must be non-negative");
        if (count == 0) {
            return;
        }
        Collection<Segment> segments = pool.requestSegments(count);
        synchronized (queue) {
            checkState(floating() == 0, "floating buffers before exclusive ones");
            for (Segment segment : segments) {
                queue.add(new Buffer(segment, this), required);
            }
        }
    }
}
"#;
    let after = r#"package b;

class Buffers {
    void requestBuffers() {
        synchronized (queue) {
            checkArgument(count >= 0, "count must be non-negative");
            resize();
            List<Segment> segments = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                segments.add(localPool().requestSegment());
            }
        }
    }

    void requestBuffersFromGlobal(int count) throws IOException {
        checkState(count >= 0, "count must be non-negative");
        if (count == 0) {
            return;
        }
        Collection<Segment> segments = pool.requestSegments(count);
        synchronized (queue) {
            checkState(floating() == 0, "floating buffers before exclusive ones");
            for (Segment segment : segments) {
                queue.add(new Buffer(segment, this), required);
            }
        }
    }
}
"#;
    // A method of the new name in another class (before and after) changes nothing.
    let pool =
        "package b;\n\nclass Pool {\n    void requestBuffersFromGlobal(int count) {\n        take(count);\n    }\n}\n";
    for others in [vec![], vec![("b/Pool.java", pool)]] {
        let side = |text| snap(&[vec![("b/Buffers.java", text)], others.clone()].concat());
        assert_eq!(
            descriptions(&detect(&side(before), &side(after))),
            [
                "Rename Method\tpackage requestBuffers(count int) : void renamed to package requestBuffersFromGlobal(count int) : void in class b.Buffers"
            ],
            "with {others:?}"
        );
    }
}

const PARENT: &str = r#"package shop;

public class Parent {
    public void check() {
        prepare();
    }
}
"#;

const CHILD: &str = r#"package shop;

public class Child extends Parent {
    private void report(String name, int total) {
        String line = name + ": " + total;
        System.out.println(line.trim());
        audit.record(name, total);
    }
}
"#;

/// `Child`'s `report` in `Parent` after the change, with `Child` declared by `child`.
fn pulled_up(child: &str) -> Vec<String> {
    let parent_after = PARENT.replace(
        "    }\n}\n",
        "    }\n\n    private void report(String name, int total) {\n        String line = name + \": \" + total;\n        System.out.println(line.trim());\n        audit.record(name, total);\n    }\n}\n",
    );
    let child_after = format!("package shop;\n\n{child} {{\n}}\n");
    let found = detect(
        &snap(&[("Parent.java", PARENT), ("Child.java", CHILD)]),
        &snap(&[("Parent.java", &parent_after), ("Child.java", &child_after)]),
    );
    descriptions(&found)
}

#[test]
fn pull_up_method_into_the_parent() {
    assert_eq!(
        pulled_up("public class Child extends Parent"),
        [
            "Pull Up Method\tprivate report(name String, total int) : void from class shop.Child to private report(name String, total int) : void from class shop.Parent"
        ]
    );
}

#[test]
fn a_class_that_stops_extending_the_target_moved_its_method() {
    assert_eq!(
        pulled_up("public class Child implements Handler"),
        [
            "Move Method\tprivate report(name String, total int) : void from class shop.Child to private report(name String, total int) : void from class shop.Parent"
        ]
    );
}

const BASE_TEST: &str = r#"package shop;

public abstract class BaseTest {
    @Test
    public void testEmpty() throws Exception {
        open().close();
    }
}
"#;

const LOCAL_TEST: &str = r#"package shop;

public class LocalTest extends BaseTest {
    @Override
    public void testEmpty() throws Exception {
        List<Range> ranges = new ArrayList<>();
        ranges.add(Range.of(LENGTH, 100));
        verifyFailure(fs, ranges, EOFException.class);
    }
}
"#;

/// A new test in `BaseTest` much like an override `LocalTest` dropped: the override went (the
/// inherited `testEmpty` runs instead) and a new test came, no method moved up under a new name.
/// And back: a new override in `LocalTest` is not `BaseTest`'s removed test pushed down.
#[test]
fn a_dropped_override_is_not_pulled_up_under_a_new_name() {
    let base_after = BASE_TEST.replace(
        "    }\n}\n",
        "    }\n\n    @Test\n    public void testNull() throws Exception {\n        List<Range> ranges = new ArrayList<>();\n        ranges.add(null);\n        verifyFailure(ranges, NullPointerException.class);\n    }\n}\n",
    );
    let local_after = "package shop;\n\npublic class LocalTest extends BaseTest {\n}\n";
    let before = snap(&[("BaseTest.java", BASE_TEST), ("LocalTest.java", LOCAL_TEST)]);
    let after = snap(&[("BaseTest.java", &base_after), ("LocalTest.java", local_after)]);
    assert_eq!(descriptions(&detect(&before, &after)), Vec::<String>::new());
    assert_eq!(descriptions(&detect(&after, &before)), Vec::<String>::new());
}

const TRACKER: &str = r#"package shop;

public class Tracker {
    public boolean complete(String id, long written) {
        Map<String, String> headers = new HashMap<>();
        headers.put(MARKER, Long.toString(written));
        upload(createRequest(id, headers));
        return false;
    }
}
"#;

/// `Tracker.complete` became abstract and both new subclasses got its body: two Push Downs.
#[test]
fn push_down_of_a_method_that_became_abstract() {
    let subclass = |name: &str| {
        let body = TRACKER.split_once("    public boolean").expect("method").1.rsplit_once('}').expect("class").0;
        format!("package shop;\n\npublic class {name} extends Tracker {{\n    @Override\n    public boolean{body}}}\n")
    };
    let tracker_after = "package shop;\n\npublic abstract class Tracker {\n    public abstract boolean complete(String id, long written);\n}\n";
    let found = detect(
        &snap(&[("Tracker.java", TRACKER)]),
        &snap(&[
            ("Tracker.java", tracker_after),
            ("S3Tracker.java", &subclass("S3Tracker")),
            ("MemoryTracker.java", &subclass("MemoryTracker")),
        ]),
    );
    let moved = |to: &str| {
        format!(
            "Push Down Method\tpublic complete(id String, written long) : boolean from class shop.Tracker to public complete(id String, written long) : boolean from class shop.{to}"
        )
    };
    assert_eq!(descriptions(&found), [moved("MemoryTracker"), moved("S3Tracker")]);
}
