//! Rename Method: by body, by call sites, and with code extracted or inlined at the same time.

use super::*;

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

/// Two removed tests fit a new one equally well statement for statement (each differs from it in
/// an argument or two): the one whose name is closer is the one renamed, and the other was
/// deleted, as RefactoringMiner breaks a tie between mappers by the name edit distance.
#[test]
fn of_equally_fitting_bodies_the_closer_name_is_the_rename() {
    let before = "package t;\n\nclass DiskToolTests {\n    \
                  void localDiskRequireLocked() {\n        \
                  expectFailure(BAD_STATE, Info.NAME, \"-\" + Info.LOCK_FLAG, localPath(DiskToolTests.this.config()));\n    }\n\n    \
                  void localDiskRequireCompressed() {\n        \
                  expectFailure(BAD_STATE, Info.NAME, \"-\" + Info.COMPRESS_FLAG, \"gzip\", localPath(DiskToolTests.this.config()));\n    }\n}\n";
    let after = "package t;\n\nclass DiskToolTests {\n    \
                 void remoteDiskRequireCompressed() {\n        \
                 expectFailure(BAD_STATE, Info.NAME, \"-\" + Info.COMPRESS_FLAG, \"gzip\", remotePath());\n    }\n}\n";
    let found = detect(&snap(&[("t/DiskToolTests.java", before)]), &snap(&[("t/DiskToolTests.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Rename Method\tpackage localDiskRequireCompressed() : void renamed to package remoteDiskRequireCompressed() : void in class t.DiskToolTests"
        ]
    );
}

/// A test split in two: its setup now in a helper that returns what it loaded, its assertions in
/// a renamed test that calls the helper and adds its own. The old test became the caller, with
/// the helper extracted from it; not a rename into the helper.
#[test]
fn a_method_split_into_a_helper_and_its_caller_is_the_caller_renamed() {
    let before = "package p;\n\nclass StoreTest {\n    Store store;\n\n    void verifyFields() {\n        store.open();\n        store.clear();\n        store.index(\"a\");\n        store.index(\"b\");\n        store.commit();\n        java.util.List<Doc> result = store.query(\"*\");\n        Doc doc = result.get(0);\n        check(doc.field(\"keyword\").omitNorms());\n        check(!doc.field(\"text\").omitNorms());\n    }\n}\n";
    let after = "package p;\n\nclass StoreTest {\n    Store store;\n\n    void verifyNorms() {\n        Doc doc = loadDoc();\n        check(doc.field(\"keyword\").omitNorms());\n        check(!doc.field(\"text\").omitNorms());\n        check(doc.field(\"other\").omitNorms());\n    }\n\n    void verifyVectors() {\n        Doc doc = loadDoc();\n        check(doc.field(\"text\").vectors());\n    }\n\n    private Doc loadDoc() {\n        store.open();\n        store.clear();\n        store.index(\"a\");\n        store.index(\"b\");\n        store.commit();\n        java.util.List<Doc> result = store.query(\"*\");\n        return result.get(0);\n    }\n}\n";
    let found = detect(&snap(&[("p/StoreTest.java", before)]), &snap(&[("p/StoreTest.java", after)]));
    let d = descriptions(&found);
    assert!(
        d.contains(&"Extract Method\tprivate loadDoc() : Doc extracted from package verifyFields() : void in class p.StoreTest".to_string()),
        "{d:?}"
    );
    assert!(!d.iter().any(|x| x.contains("renamed to private loadDoc()")), "{d:?}");
}
