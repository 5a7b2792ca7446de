//! Moves between classes: Move Method, Move And Rename, and across a hierarchy (Pull Up, Push Down).

use super::*;

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

/// `Tracker.complete` became abstract, its body kept as `completeSlowly` for subclasses to call,
/// and two new subclasses call it: the body was extracted, and the method pushed down into each.
#[test]
fn push_down_through_the_body_kept_in_the_parent() {
    let tracker_after = "package shop;\n\npublic abstract class Tracker {\n    public abstract boolean complete(String id, long written);\n\n    \
                         protected boolean completeSlowly(String id, long written) {\n        Map<String, String> headers = new HashMap<>();\n        \
                         headers.put(MARKER, Long.toString(written));\n        upload(createRequest(id, headers));\n        return false;\n    }\n}\n";
    let subclass = |name: &str, body: &str| {
        format!(
            "package shop;\n\npublic class {name} extends Tracker {{\n    @Override\n    public boolean complete(String id, long written) {{\n        {body}\n    }}\n}}\n"
        )
    };
    let found = detect(
        &snap(&[("Tracker.java", TRACKER)]),
        &snap(&[
            ("Tracker.java", tracker_after),
            ("S3Tracker.java", &subclass("S3Tracker", "return completeSlowly(id, written);")),
            ("MemoryTracker.java", &subclass("MemoryTracker", "return completeSlowly(id, written);")),
            // A subclass with a body of its own is not a copy of the old one.
            ("NullTracker.java", &subclass("NullTracker", "return true;")),
        ]),
    );
    let moved = |to: &str| {
        format!(
            "Push Down Method\tpublic complete(id String, written long) : boolean from class shop.Tracker to public complete(id String, written long) : boolean from class shop.{to}"
        )
    };
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprotected completeSlowly(id String, written long) : boolean extracted from public complete(id String, written long) : boolean in class shop.Tracker".to_string(),
            moved("MemoryTracker"),
            moved("S3Tracker"),
        ]
    );
    let pushes: Vec<bool> =
        found.iter().filter(|r| r.kind == RefactoringType::PushDownMethod).map(|r| r.pure).collect();
    assert_eq!(pushes, [false, false], "a copy that calls the kept body is not the same code");
    // Without a subclass calling it, a new method with the old body is no evidence of a push.
    let found = detect(&snap(&[("Tracker.java", TRACKER)]), &snap(&[("Tracker.java", tracker_after)]));
    assert!(descriptions(&found).iter().all(|d| !d.starts_with("Push Down")), "{found:#?}");
}

/// A moved static method names its old class's static members through the class, and the calls
/// of it now name its new class: a Move Method, not an Inline Method into each caller.
#[test]
fn a_static_method_moved_with_its_class_qualifiers_is_a_move() {
    let paths = "package q;\npublic class Paths {\n  static final String SEP = \"/\";\n  static String sep() {\n    return SEP;\n  }\n  String both(String a, String b) {\n    return a + sep() + b;\n  }\n}\n";
    let util = "package q;\npublic class Util {\n}\n";
    let paths_after = "package q;\npublic class Paths {\n  static final String SEP = \"/\";\n  String both(String a, String b) {\n    return a + Util.sep() + b;\n  }\n}\n";
    let util_after = "package q;\npublic class Util {\n  static String sep() {\n    return Paths.SEP;\n  }\n}\n";
    let found = detect(
        &snap(&[("q/Paths.java", paths), ("q/Util.java", util)]),
        &snap(&[("q/Paths.java", paths_after), ("q/Util.java", util_after)]),
    );
    assert_eq!(
        descriptions(&found),
        ["Move Method\tpackage sep() : String from class q.Paths to package sep() : String from class q.Util"]
    );

    let test = "package q;\nimport java.util.List;\npublic class TreeTest {\n  void kids() {\n    check(namesOf(tree.children()), \"0\", \"1\");\n  }\n  void distinct() {\n    check(namesOf(Stream.union(tree.children(), other.children()).distinct()), \"0\");\n  }\n  private static List<String> namesOf(Stream<?> stream) {\n    return stream.toList(Node::getName);\n  }\n}\n";
    let util = "package q;\npublic class TreeUtil {\n  static Node leaf() {\n    return new Node();\n  }\n}\n";
    let test_after = "package q;\nimport java.util.List;\npublic class TreeTest {\n  void kids() {\n    check(TreeUtil.namesOf(tree.children()), \"0\", \"1\");\n  }\n  void distinct() {\n    check(TreeUtil.namesOf(Stream.union(tree.children(), other.children()).distinct()), \"0\");\n  }\n}\n";
    let util_after = "package q;\nimport java.util.List;\npublic class TreeUtil {\n  static Node leaf() {\n    return new Node();\n  }\n\n  static List<String> namesOf(Stream<?> stream) {\n    return stream.toList(Node::getName);\n  }\n}\n";
    let found = detect(
        &snap(&[("q/TreeTest.java", test), ("q/TreeUtil.java", util)]),
        &snap(&[("q/TreeTest.java", test_after), ("q/TreeUtil.java", util_after)]),
    );
    assert_eq!(
        descriptions(&found),
        [
            "Move Method\tprivate namesOf(stream Stream<?>) : List<String> from class q.TreeTest to package namesOf(stream Stream<?>) : List<String> from class q.TreeUtil"
        ]
    );
}

/// A one-statement method moved elsewhere as a static method taking its old object: the caller's
/// `m(x)` became `Util.m(this, x)`, which is the move's call, not the inlined body.
#[test]
fn a_one_liner_moved_as_a_static_method_taking_this_is_a_move_not_an_inline() {
    let rows = "package r;\n\npublic class Rows extends java.util.ArrayList<String> {\n    public void dropHead(int n) {\n        removeRange(0, n);\n    }\n\n    public void trim() {\n        dropHead(1);\n    }\n}\n";
    let util = "package r;\n\npublic class Util {\n}\n";
    let rows_after = "package r;\n\npublic class Rows extends java.util.ArrayList<String> {\n    public void trim() {\n        Util.dropHead(this, 1);\n    }\n}\n";
    let util_after = "package r;\n\npublic class Util {\n    public static void dropHead(Rows rows, int n) {\n        rows.removeRange(0, n);\n    }\n}\n";
    let before = snap(&[("r/Rows.java", rows), ("r/Util.java", util)]);
    let after = snap(&[("r/Rows.java", rows_after), ("r/Util.java", util_after)]);
    assert_eq!(
        descriptions(&detect(&before, &after)),
        [
            "Move Method\tpublic dropHead(n int) : void from class r.Rows to public dropHead(rows Rows, n int) : void from class r.Util"
        ]
    );
}

/// A getter moved from a nested class to its outer class as a static method taking the old
/// object: the caller's `settings.flag()` became `flag(settings)`, whose body reads the field
/// through the parameter. That is the move, not code extracted from the caller.
#[test]
fn a_getter_moved_out_as_a_static_method_is_not_an_extraction_from_its_caller() {
    let before = "package d;\n\npublic class Doc {\n    private final Settings settings = new Settings();\n\n    void ensure() {\n        if (settings.flag()) {\n            System.out.println(1);\n        }\n    }\n\n    public static class Settings {\n        boolean flag;\n\n        public boolean flag() {\n            return flag;\n        }\n    }\n}\n";
    let after = "package d;\n\npublic class Doc {\n    private final Settings settings = new Settings();\n\n    void ensure() {\n        if (flag(settings)) {\n            System.out.println(1);\n        }\n    }\n\n    public static class Settings {\n        boolean flag;\n    }\n\n    public static boolean flag(Settings settings) {\n        return settings.flag;\n    }\n}\n";
    let found = detect(&snap(&[("d/Doc.java", before)]), &snap(&[("d/Doc.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Move Method\tpublic flag() : boolean from class d.Doc.Settings to public flag(settings Settings) : boolean from class d.Doc"
        ]
    );
}

/// A one-statement method moved under a new name into a class that was already there, its
/// statement rewritten as the move rewrites it: the receiver became a parameter and the old
/// class's constant is named through the class.
#[test]
fn a_one_liner_moved_and_renamed_with_its_receiver_made_a_parameter() {
    let module = "package m;\n\npublic class Module {\n    public static final String BROKEN = \"1.9\";\n\n    public String version(String v) {\n        return v;\n    }\n\n    public String getBrokenVersion() {\n        return version(BROKEN);\n    }\n}\n";
    let runner =
        "package m;\n\npublic class RunnerTest {\n    void run() {\n        System.out.println(1);\n    }\n}\n";
    let module_after =
        module.replace("\n\n    public String getBrokenVersion() {\n        return version(BROKEN);\n    }", "");
    let moved = "\n\n    static String brokenVersion(Module module) {\n        return module.version(Module.BROKEN);\n    }\n}\n";
    let runner_after = runner.trim_end().strip_suffix('}').unwrap().trim_end().to_string() + moved;
    let before = snap(&[("m/Module.java", module), ("m/RunnerTest.java", runner)]);
    let after = snap(&[("m/Module.java", &module_after), ("m/RunnerTest.java", &runner_after)]);
    assert_eq!(
        descriptions(&detect(&before, &after)),
        [
            "Move And Rename Method\tpublic getBrokenVersion() : String from class m.Module to package brokenVersion(module Module) : String from class m.RunnerTest"
        ]
    );
    // Another parameter than the receiver's: a different method.
    let other = runner_after.replace("(Module module)", "(Module module, int n)");
    let after = snap(&[("m/Module.java", &module_after), ("m/RunnerTest.java", &other)]);
    assert!(detect(&before, &after).is_empty());
    // Another constant: not the same statement.
    let other = runner_after.replace("Module.BROKEN", "Module.FIXED");
    let after = snap(&[("m/Module.java", &module_after), ("m/RunnerTest.java", &other)]);
    assert!(detect(&before, &after).is_empty());
    // Two new methods with that statement: which one it became is a guess.
    let twice = runner_after.trim_end().strip_suffix('}').unwrap().trim_end().to_string()
        + &moved.replace("brokenVersion", "failingVersion");
    let after = snap(&[("m/Module.java", &module_after), ("m/RunnerTest.java", &twice)]);
    assert!(detect(&before, &after).is_empty());
}

/// A method moved (and renamed) into a new nested class, its local renamed on the way: no
/// statement is the same word for word, yet it is the same method.
#[test]
fn move_and_rename_with_a_local_renamed() {
    let before = "package p;\n\nclass Setup {\n    void run() {\n        System.out.println(\"run\");\n    }\n\n    private Mapping createMapping() {\n        Mapping mapping = new Mapping();\n        mapping.def(\"english\").filter(Lower.class).filter(Stem.class);\n        mapping.entity(Blog.class).indexed();\n        return mapping;\n    }\n}\n";
    let after = "package p;\n\nclass Setup {\n    void run() {\n        System.out.println(\"run\");\n    }\n\n    public static class Factory {\n        public Mapping create() {\n            Mapping searchMapping = new Mapping();\n            searchMapping.def(\"english\").filter(Lower.class).filter(Stem.class);\n            searchMapping.entity(Blog.class).indexed();\n            return searchMapping;\n        }\n    }\n}\n";
    let found = detect(&snap(&[("p/Setup.java", before)]), &snap(&[("p/Setup.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Move And Rename Method\tprivate createMapping() : Mapping from class p.Setup to public create() : Mapping from class p.Setup.Factory"
        ]
    );
    assert!(found[0].pure, "{found:?}");
}

/// An anonymous class (or a lambda) turned into a named class: each of its methods was extracted
/// from the method that held it and moved to the new class, which the method now instantiates.
#[test]
fn anonymous_class_turned_into_a_named_class_is_extract_and_move() {
    let before = "package s;\n\npublic class Setup {\n    public static void install(Sink sink) {\n        \
                  Stream original = System.err;\n        Stream intercepted = new Stream(original) {\n            \
                  private StringBuilder buffer = new StringBuilder();\n\n            @Override\n            \
                  public void println(String x) {\n                buffer.append(x).append('\\n');\n            }\n\n            \
                  @Override\n            public void flush() {\n                String level = levelOf(buffer);\n                \
                  sink.log(buffer.toString(), level);\n                buffer.setLength(0);\n            }\n        };\n        \
                  System.setErr(intercepted);\n        configure(sink);\n    }\n}\n";
    let after = "package s;\n\npublic class Setup {\n    public static void install(Sink sink) {\n        \
                 Stream original = System.err;\n        System.setErr(new Bridge(sink, original));\n        \
                 configure(sink);\n    }\n\n    static class Bridge extends Stream {\n        \
                 private final Sink sink;\n        private StringBuilder buffer = new StringBuilder();\n\n        \
                 Bridge(Sink sink, Stream original) {\n            super(original);\n            this.sink = sink;\n        }\n\n        \
                 @Override\n        public void println(String x) {\n            buffer.append(x).append('\\n');\n        }\n\n        \
                 @Override\n        public void flush() {\n            String level = levelOf(buffer);\n            \
                 sink.log(buffer.toString(), level);\n            buffer.setLength(0);\n        }\n    }\n}\n";
    let found = detect(&snap(&[("s/Setup.java", before)]), &snap(&[("s/Setup.java", after)]));
    let extracted: Vec<&str> = found
        .iter()
        .filter(|r| r.kind == RefactoringType::ExtractAndMoveMethod)
        .map(|r| r.description.split('\t').nth(1).unwrap_or_default())
        .collect();
    assert_eq!(
        extracted,
        [
            "public flush() : void extracted from public install(sink Sink) : void in class s.Setup & moved to class s.Setup.Bridge",
            "public println(x String) : void extracted from public install(sink Sink) : void in class s.Setup & moved to class s.Setup.Bridge",
        ],
        "{found:?}"
    );
    assert!(found.iter().filter(|r| r.kind == RefactoringType::ExtractAndMoveMethod).all(|r| r.pure), "{found:?}");
}

/// The other way: a small class whose one method the caller reached by instantiating it, written
/// out as a lambda in the caller instead. The method moved to the caller's class and was inlined,
/// its field read as the argument the constructor stored in it.
#[test]
fn class_turned_into_a_lambda_is_move_and_inline() {
    let before = "package f;\n\npublic class Filters {\n    public static Picker byExtension(String extension) {\n        \
                  return new Picker().withFilter(new ExtFilter(extension));\n    }\n\n    \
                  static class ExtFilter implements Condition<Entry> {\n        private final String myExtension;\n\n        \
                  private ExtFilter(String extension) {\n            myExtension = extension;\n        }\n\n        \
                  @Override\n        public boolean value(Entry entry) {\n            \
                  return entry.caseSensitive() ? myExtension.equals(entry.extension()) : myExtension.equalsIgnoreCase(entry.extension());\n        \
                  }\n    }\n}\n";
    let after = "package f;\n\npublic class Filters {\n    public static Picker byExtension(String extension) {\n        \
                 return new Picker().withFilter(e -> e.caseSensitive() ? extension.equals(e.extension()) : extension.equalsIgnoreCase(e.extension()), \"ext\");\n    \
                 }\n}\n";
    let found = detect(&snap(&[("f/Filters.java", before)]), &snap(&[("f/Filters.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Move And Inline Method\tpublic value(entry Entry) : boolean moved from class f.Filters.ExtFilter to class f.Filters & inlined to public byExtension(extension String) : Picker"
        ]
    );
    assert!(found[0].pure, "{found:?}");
    // A lambda that computes something else is not the method.
    let other = after.replace("equalsIgnoreCase", "startsWith");
    let found = detect(&snap(&[("f/Filters.java", before)]), &snap(&[("f/Filters.java", &other)]));
    assert!(found.iter().all(|r| r.kind != RefactoringType::MoveAndInlineMethod), "{found:?}");
}

/// An anonymous class in code that went into a method extracted from the caller is that
/// method's code, passed to it as an argument when it became a named class: not its methods
/// extracted from the caller and moved.
#[test]
fn anonymous_class_passed_to_an_extracted_method_is_not_extract_and_move() {
    let before = "package p;\n\npublic class Proxies {\n    private void start(Handler handler) throws Exception {\n        \
                  server.setHandler(handler);\n        Holder holder = new Holder(new Servlet() {\n            \
                  @Override\n            protected Client newClient(Connector connector) {\n                \
                  Info h1 = Factories.HTTP11;\n                Transport t = new Transport(connector, h1);\n                \
                  return new Client(t);\n            }\n        });\n        server.add(holder, \"/*\");\n        \
                  server.start();\n    }\n}\n";
    let after = "package p;\n\npublic class Proxies {\n    private void start(Handler handler) throws Exception {\n        \
                 start(handler, new Forward());\n    }\n\n    \
                 private void start(Handler handler, Forward servlet) throws Exception {\n        \
                 server.setHandler(handler);\n        Holder holder = new Holder(servlet);\n        \
                 server.add(holder, \"/*\");\n        server.start();\n    }\n\n    \
                 static class Forward extends Servlet {\n        @Override\n        \
                 protected Client newClient(Connector connector) {\n            Info h1 = Factories.HTTP11;\n            \
                 Transport t = new Transport(connector, h1);\n            return new Client(t);\n        }\n    }\n}\n";
    let found = detect(&snap(&[("p/Proxies.java", before)]), &snap(&[("p/Proxies.java", after)]));
    assert!(found.iter().any(|r| r.kind == RefactoringType::ExtractMethod), "{found:?}");
    assert!(found.iter().all(|r| r.kind != RefactoringType::ExtractAndMoveMethod), "{found:?}");
}

/// A lambda turned into a method of the object it worked on, named by a method reference through
/// that object: the lambda's code was extracted and moved, its reads of the object now the
/// method's own members.
#[test]
fn lambda_made_a_method_of_its_receiver_is_extract_and_move() {
    let context = "package q;\n\npublic class Context {\n    Refresher refresher;\n    Future done;\n";
    let builder = |body: &str| {
        format!(
            "package q;\n\npublic class Builder {{\n    private Context current;\n\n    \
             public Future build() {{\n        final Context context = current;\n        {body}\n    }}\n}}\n"
        )
    };
    let before = builder(
        "return Futures.after(tail, () -> context.refresher.refreshAll().whenComplete(Futures.copy(context.done)));",
    );
    let after = builder("return Futures.after(tail, context::onComplete);");
    let moved = format!(
        "{context}\n    Stage onComplete() {{\n        return refresher.refreshAll().whenComplete(Futures.copy(done));\n    }}\n}}\n"
    );
    let found = detect(
        &snap(&[("q/Builder.java", &before), ("q/Context.java", &format!("{context}}}\n"))]),
        &snap(&[("q/Builder.java", &after), ("q/Context.java", &moved)]),
    );
    assert_eq!(
        descriptions(&found),
        [
            "Extract And Move Method\tpackage onComplete() : Stage extracted from public build() : Future in class q.Builder & moved to class q.Context"
        ]
    );
    assert!(found[0].pure, "{found:?}");
    // Another field read through the receiver is other code.
    let other = moved.replace("copy(done)", "copy(refresher)");
    let found = detect(
        &snap(&[("q/Builder.java", &before), ("q/Context.java", &format!("{context}}}\n"))]),
        &snap(&[("q/Builder.java", &after), ("q/Context.java", &other)]),
    );
    assert!(found.iter().all(|r| r.kind != RefactoringType::ExtractAndMoveMethod), "{found:?}");
}
