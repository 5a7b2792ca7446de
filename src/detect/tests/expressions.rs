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
