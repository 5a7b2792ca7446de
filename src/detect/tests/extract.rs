//! Extract Method and Inline Method, alone and with a move (Extract And Move, Move And Inline).

use super::*;

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

/// A body moved out whole into a static method of another class that takes the object as a
/// parameter (`Strategy.getFill(this)`, `panel.fill` for `this.fill`): the parameter stands for
/// `this`, and `this.fill` reads as `fill` on both sides.
#[test]
fn extract_and_move_into_a_static_method_taking_this() {
    let before = "package q;\npublic class Panel {\n  boolean fill;\n  public boolean getFill() {\n    return this.fill;\n  }\n}\n";
    let after = "package q;\npublic class Panel {\n  boolean fill;\n  public boolean getFill() {\n    return Strategy.getFill(this);\n  }\n}\n";
    let strategy =
        "package q;\nclass Strategy {\n  static boolean getFill(Panel panel) {\n    return panel.fill;\n  }\n}\n";
    let found =
        detect(&snap(&[("q/Panel.java", before)]), &snap(&[("q/Panel.java", after), ("q/Strategy.java", strategy)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract And Move Method\tpackage getFill(panel Panel) : boolean extracted from public getFill() : boolean in class q.Panel & moved to class q.Strategy"
        ]
    );
    assert!(found[0].pure, "{found:?}");
}

/// Issue 16: a textbook Extract Method stays pure when the new method hands back the variable the
/// code assigned, a local is renamed there consistently, a static member loses its class
/// qualifier, the leading comment becomes Javadoc and the caller makes two extractions.
#[test]
fn extract_method_pure_by_rule() {
    let before = "package p;\n\nclass Stats {\n    static final int LIMIT = 10;\n\n    long total(int[] xs) {\n        // sum the values under the limit\n        long d = 0;\n        for (int x : xs) {\n            if (x < Stats.LIMIT) {\n                d += x;\n            }\n        }\n        System.out.println(\"total: \" + d);\n        return d;\n    }\n}\n";
    let after = "package p;\n\nclass Stats {\n    static final int LIMIT = 10;\n\n    long total(int[] xs) {\n        long d = sumUnderLimit(xs);\n        report(d);\n        return d;\n    }\n\n    /** Sums the values under the limit. */\n    private long sumUnderLimit(int[] xs) {\n        long sum = 0;\n        for (int x : xs) {\n            if (x < LIMIT) {\n                sum += x;\n            }\n        }\n        return sum;\n    }\n\n    private void report(long d) {\n        System.out.println(\"total: \" + d);\n    }\n}\n";
    let found = detect(&snap(&[("p/Stats.java", before)]), &snap(&[("p/Stats.java", after)]));
    let extracted: Vec<&Refactoring> = found.iter().filter(|r| r.kind == RefactoringType::ExtractMethod).collect();
    assert_eq!(extracted.len(), 2, "{found:?}");
    assert!(extracted.iter().all(|r| r.pure), "{extracted:?}");
    // The same extraction with another bound is a change of behaviour: impure.
    let changed = after.replace("x < LIMIT", "x <= LIMIT");
    let found = detect(&snap(&[("p/Stats.java", before)]), &snap(&[("p/Stats.java", &changed)]));
    let sum = found.iter().find(|r| r.subject.other_method == "sumUnderLimit");
    assert!(sum.is_none_or(|r| !r.pure), "{found:?}");
}

/// Issue 16: an overload extracted with one more parameter, the old method delegating with a
/// default, stays pure when the call inside follows a parameter added to its callee in the same
/// change; passing the extra argument to a callee whose parameters did not change is impure.
#[test]
fn extract_method_pure_with_a_parameter_added_on_top() {
    let before = "package p;\n\nclass Job {\n    void run(String a, int b) {\n        log(a);\n        send(a, b);\n        log(\"done\");\n    }\n\n    void send(String a, int b) {\n        System.out.println(a + b);\n    }\n\n    void log(String s) {\n        System.out.println(s);\n    }\n}\n";
    let after = "package p;\n\nclass Job {\n    void run(String a, int b) {\n        run(a, b, null);\n    }\n\n    void run(String a, int b, String tag) {\n        log(a);\n        send(a, b, tag);\n        log(\"done\");\n    }\n\n    void send(String a, int b, String tag) {\n        System.out.println(a + b + tag);\n    }\n\n    void log(String s) {\n        System.out.println(s);\n    }\n}\n";
    let found = detect(&snap(&[("p/Job.java", before)]), &snap(&[("p/Job.java", after)]));
    let run = found.iter().find(|r| r.kind == RefactoringType::ExtractMethod).expect("the extraction");
    assert!(run.pure, "{found:?}");
    let mismatched = after.replace("send(a, b, tag);", "log(a, b, tag);");
    let found = detect(&snap(&[("p/Job.java", before)]), &snap(&[("p/Job.java", &mismatched)]));
    assert!(found.iter().filter(|r| r.kind == RefactoringType::ExtractMethod).all(|r| !r.pure), "{found:?}");
}

/// Issue 16: a lambda replaced by a reference to a new method that takes its body, the
/// parameter named anew (`v -> …` becoming `flat(Value value)`), written with or without
/// parentheses.
#[test]
fn extract_method_from_a_lambda_with_its_parameter_renamed() {
    let before = "package p;\n\nimport java.util.List;\nimport java.util.stream.Collectors;\n\nclass Tree {\n    List<String> names(List<Node> nodes) {\n        return nodes.stream().map((v) -> v.isLeaf() ? v.name() : v.name() + \"/\").collect(Collectors.toList());\n    }\n}\n";
    let after = "package p;\n\nimport java.util.List;\nimport java.util.stream.Collectors;\n\nclass Tree {\n    List<String> names(List<Node> nodes) {\n        return nodes.stream().map(this::label).collect(Collectors.toList());\n    }\n\n    private String label(Node node) {\n        return node.isLeaf() ? node.name() : node.name() + \"/\";\n    }\n}\n";
    let found = detect(&snap(&[("p/Tree.java", before)]), &snap(&[("p/Tree.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate label(node Node) : String extracted from package names(nodes List<Node>) : List<String> in class p.Tree"
        ]
    );
}

/// Issue 16: one new method extracted from the same code in its own class and in another: a
/// subclass calling it as inherited, or another class calling a static helper by its class's name.
#[test]
fn one_method_extracted_from_its_class_and_another() {
    let base = "package p;\n\npublic abstract class Base {\n    protected Store store;\n\n    public void testOne() throws Exception {\n        Reader in = store.open(\"vector\");\n        in.skip(10);\n        in.close();\n    }\n}\n";
    let sub = "package p;\n\npublic class Sub extends Base {\n    public void testTwo() throws Exception {\n        Reader in = store.open(\"vector\");\n        in.mark(3);\n        in.reset();\n        in.close();\n    }\n}\n";
    let base2 = "package p;\n\npublic abstract class Base {\n    protected Store store;\n\n    public void testOne() throws Exception {\n        Reader in = openVector();\n        in.skip(10);\n        in.close();\n    }\n\n    protected Reader openVector() throws Exception {\n        return store.open(\"vector\");\n    }\n}\n";
    let sub2 = "package p;\n\npublic class Sub extends Base {\n    public void testTwo() throws Exception {\n        Reader in = openVector();\n        in.mark(3);\n        in.reset();\n        in.close();\n    }\n}\n";
    let found = detect(
        &snap(&[("p/Base.java", base), ("p/Sub.java", sub)]),
        &snap(&[("p/Base.java", base2), ("p/Sub.java", sub2)]),
    );
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprotected openVector() : Reader extracted from public testOne() : void in class p.Base",
            "Extract And Move Method\tprotected openVector() : Reader extracted from public testTwo() : void in class p.Sub & moved to class p.Base",
        ]
    );
    // A class unrelated to Base calling `openVector()` on nothing would not compile: no such
    // Extract And Move is read into an unqualified call of a class that does not inherit it.
    let other = sub2.replace("extends Base ", "");
    let found = detect(
        &snap(&[("p/Base.java", base), ("p/Sub.java", &sub.replace("extends Base ", ""))]),
        &snap(&[("p/Base.java", base2), ("p/Sub.java", &other)]),
    );
    assert!(found.iter().all(|r| r.kind != RefactoringType::ExtractAndMoveMethod), "{found:?}");

    let util = "package p;\n\nclass Text {\n    static int count(String s) {\n        int n = 0;\n        for (char c : s.toCharArray()) {\n            if (Character.isUpperCase(c)) {\n                n++;\n            }\n        }\n        return n;\n    }\n}\n";
    let util2 = "package p;\n\nclass Text {\n    static int count(String s) {\n        return upper(s);\n    }\n\n    static int upper(String s) {\n        int n = 0;\n        for (char c : s.toCharArray()) {\n            if (Character.isUpperCase(c)) {\n                n++;\n            }\n        }\n        return n;\n    }\n}\n";
    let user = "package p;\n\nclass Form {\n    int score(String name) {\n        int n = 0;\n        for (char c : name.toCharArray()) {\n            if (Character.isUpperCase(c)) {\n                n++;\n            }\n        }\n        return n * 2;\n    }\n}\n";
    let user2 = "package p;\n\nclass Form {\n    int score(String name) {\n        int n = Text.upper(name);\n        return n * 2;\n    }\n}\n";
    let found = detect(
        &snap(&[("p/Text.java", util), ("p/Form.java", user)]),
        &snap(&[("p/Text.java", util2), ("p/Form.java", user2)]),
    );
    assert!(
        found.iter().any(|r| r.description
            == "Extract And Move Method\tpackage upper(s String) : int extracted from package score(name String) : int in class p.Form & moved to class p.Text"),
        "{found:?}"
    );
}
