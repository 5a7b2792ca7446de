//! Extract and Inline Method where a conditional expression (`c ? a : b`) stands for the
//! `if`/`else` that computed its value, as RefactoringMiner maps them.

use super::*;

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

/// Issue 16: a new method returning a conditional expression extracted from the `if` that
/// assigned its two values (RefactoringMiner maps `c ? a : b` onto the `if`/`else`), and the
/// reverse, inlined.
#[test]
fn extract_and_inline_of_an_if_written_as_a_conditional() {
    let before = "package p;\n\nclass R {\n    private Logger logger;\n\n    public long run(String sql) {\n        logger.log(sql);\n        long start = 0;\n        if (this.logger.slow() > 0) {\n            start = System.nanoTime();\n        }\n        logger.done(sql, start);\n        return start;\n    }\n}\n";
    let after = "package p;\n\nclass R {\n    private Logger logger;\n\n    public long run(String sql) {\n        logger.log(sql);\n        long start = begin();\n        logger.done(sql, start);\n        return start;\n    }\n\n    private long begin() {\n        return logger.slow() > 0 ? System.nanoTime() : 0;\n    }\n}\n";
    let found = detect(&snap(&[("p/R.java", before)]), &snap(&[("p/R.java", after)]));
    assert_eq!(
        descriptions(&found),
        ["Extract Method\tprivate begin() : long extracted from public run(sql String) : long in class p.R"]
    );
    let found = detect(&snap(&[("p/R.java", after)]), &snap(&[("p/R.java", before)]));
    assert_eq!(
        descriptions(&found),
        ["Inline Method\tprivate begin() : long inlined to public run(sql String) : long in class p.R"]
    );
    // Another value in a branch is another computation: not this extraction.
    let other = after.replace(": 0;", ": 1;");
    let found = detect(&snap(&[("p/R.java", before)]), &snap(&[("p/R.java", &other)]));
    assert!(found.iter().all(|r| !r.pure), "{found:?}");
}

/// Issue 16: the `if` that replaced a local's value extracted as a conditional expression over
/// a parameter, the local's initializer now the argument (`wrap(open(k), f)` for `Stream s =
/// open(k); if (f != null) { s = new Filtered(s, f); } return s;`).
#[test]
fn extract_method_of_an_if_replacing_a_local_written_as_a_conditional() {
    let before = "package p;\n\nclass Src {\n    Stream read(int kind, Filter filter) {\n        Stream stream = open(kind);\n        if (filter != null) {\n            stream = new Filtered(stream, filter);\n        }\n        return stream;\n    }\n}\n";
    let after = "package p;\n\nclass Src {\n    Stream read(int kind, Filter filter) {\n        return wrap(open(kind), filter);\n    }\n\n    static Stream wrap(Stream stream, Filter filter) {\n        return filter != null ? new Filtered(stream, filter) : stream;\n    }\n}\n";
    let found = detect(&snap(&[("p/Src.java", before)]), &snap(&[("p/Src.java", after)]));
    assert_eq!(
        descriptions(&found),
        [
            "Extract Method\tpackage wrap(stream Stream, filter Filter) : Stream extracted from package read(kind int, filter Filter) : Stream in class p.Src"
        ]
    );
    assert!(found.iter().all(|r| r.pure), "{found:?}");
    // The reverse is the inlining.
    let found = detect(&snap(&[("p/Src.java", after)]), &snap(&[("p/Src.java", before)]));
    assert_eq!(
        descriptions(&found),
        [
            "Inline Method\tpackage wrap(stream Stream, filter Filter) : Stream inlined to package read(kind int, filter Filter) : Stream in class p.Src"
        ]
    );
    // Another object made in the branch is another computation.
    let other = after.replace("new Filtered(stream, filter)", "new Sorted(stream, filter)");
    let found = detect(&snap(&[("p/Src.java", before)]), &snap(&[("p/Src.java", &other)]));
    assert!(found.iter().all(|r| !r.pure || r.kind != RefactoringType::ExtractMethod), "{found:?}");
}
