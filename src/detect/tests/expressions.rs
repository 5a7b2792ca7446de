//! Extractions of an expression rather than of whole statements: the initializer of a variable a
//! `try`-with-resources declares.

use super::*;

const LOG_BEFORE: &str = r#"package app;

import java.io.*;

public class LogWriter {
    private File target;
    private String charset;

    public void write(String text) throws IOException {
        try (OutputStream out = target == null ? System.err : new FileOutputStream(target);
             Writer writer = new OutputStreamWriter(out, charset)) {
            writer.write(text);
        }
    }
}
"#;

/// The stream a resource was initialised with now comes from a new method: an Extract Method of
/// the resource's initializer, pure (`return e;` for `T v = e`).
#[test]
fn extract_method_of_a_resource_initializer() {
    let after = r#"package app;

import java.io.*;

public class LogWriter {
    private File target;
    private String charset;

    public void write(String text) throws IOException {
        try (Writer writer = new OutputStreamWriter(openStream(), charset)) {
            writer.write(text);
        }
    }

    private OutputStream openStream() throws IOException {
        return target == null ? System.err : new FileOutputStream(target);
    }
}
"#;
    let found = detect(&snap(&[("app/LogWriter.java", LOG_BEFORE)]), &snap(&[("app/LogWriter.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tprivate openStream() : OutputStream extracted from public write(text String) : void in class app.LogWriter"
        ]
    );
    assert!(found[0].pure, "{:?}", found[0]);
    // Another expression in the new method is not the resource's.
    let other = after.replace("? System.err :", "? System.out :");
    let found = detect(&snap(&[("app/LogWriter.java", LOG_BEFORE)]), &snap(&[("app/LogWriter.java", &other)]));
    assert!(found.iter().all(|r| !r.pure), "{found:#?}");
}

/// The extracted code calls a method that gained a parameter in the same change: the new method
/// passes the new argument (`"1.5"`), and the rest is the caller's old call word for word.
#[test]
fn extract_method_of_a_call_that_gained_an_argument() {
    let before = "package a;\nclass ParserTest {\n  void testOperators() {\n    Unit unit = parse(Operators.class);\n    \
                  check(unit.find(\"//Block\"), 2);\n  }\n  private Unit parse(Class<?> clazz) {\n    \
                  String file = clazz.getName().replace('.', '/') + \".java\";\n    return Loader.load(file).parse();\n  }\n}\n";
    let after = "package a;\nclass ParserTest {\n  void testOperators() {\n    Unit unit = parse15(Operators.class);\n    \
                 check(unit.find(\"//Block\"), 2);\n  }\n  private Unit parse15(Class<?> clazz) {\n    return parse(clazz, \"1.5\");\n  }\n  \
                 private Unit parse(Class<?> clazz, String version) {\n    \
                 String file = clazz.getName().replace('.', '/') + \".java\";\n    return Loader.load(file).parse(version);\n  }\n}\n";
    let found = detect(&snap(&[("a/ParserTest.java", before)]), &snap(&[("a/ParserTest.java", after)]));
    assert!(
        descriptions(&found).contains(
            &"Extract Method\tprivate parse15(clazz Class<?>) : Unit extracted from package testOperators() : void in class a.ParserTest"
                .to_string()
        ),
        "{found:#?}"
    );
    // A library method called with one more argument (another overload) is other code: not the
    // same code, so at most an impure extraction.
    let before = "package a;\nclass ParserTest {\n  void testOperators() {\n    Unit unit = Loader.parse(Operators.class);\n    \
                  check(unit.find(\"//Block\"), 2);\n  }\n}\n";
    let after = "package a;\nclass ParserTest {\n  void testOperators() {\n    Unit unit = parse15(Operators.class);\n    \
                 check(unit.find(\"//Block\"), 2);\n  }\n  private Unit parse15(Class<?> clazz) {\n    return Loader.parse(clazz, \"1.5\");\n  }\n}\n";
    let found = detect(&snap(&[("a/ParserTest.java", before)]), &snap(&[("a/ParserTest.java", after)]));
    assert!(found.iter().all(|r| !r.pure), "{found:#?}");
}

const TAGS_BEFORE: &str = r#"package app;

import java.util.*;
import java.util.regex.Pattern;

public class TagReader {
    static class Parser {
        private final List<Pattern> filters = new ArrayList<>();

        void read(String line) {
            if (line.startsWith("tag:")) {
                filters.add(Pattern.compile("^" + line.substring("tag:".length()).strip() + "$"));
            }
        }
    }
}
"#;

/// The expression moved into a static method of the enclosing class, called with a local the
/// caller gained for part of it (`String tag = …strip();` then `toPattern(tag)`): an Extract And
/// Move Method, for the local stands for what the code wrote out.
#[test]
fn extract_and_move_of_an_expression_passed_a_new_local() {
    let after = r#"package app;

import java.util.*;
import java.util.regex.Pattern;

public class TagReader {
    static class Parser {
        private final List<Pattern> filters = new ArrayList<>();
        private final List<String> names = new ArrayList<>();

        void read(String line) {
            if (line.startsWith("tag:")) {
                String tag = line.substring("tag:".length()).strip();
                names.add(tag);
                filters.add(toPattern(tag));
            }
        }
    }

    private static Pattern toPattern(String tag) {
        return Pattern.compile("^" + tag + "$");
    }
}
"#;
    let found = detect(&snap(&[("app/TagReader.java", TAGS_BEFORE)]), &snap(&[("app/TagReader.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract And Move Method\tprivate toPattern(tag String) : Pattern extracted from package read(line String) : void in class app.TagReader.Parser & moved to class app.TagReader"
        ]
    );
    // Another expression in the new method is not the caller's.
    let other = after.replace("\"^\" + tag", "\"^(\" + tag");
    let found = detect(&snap(&[("app/TagReader.java", TAGS_BEFORE)]), &snap(&[("app/TagReader.java", &other)]));
    assert!(found.iter().all(|r| !r.description.starts_with("Extract")), "{found:#?}");
}
