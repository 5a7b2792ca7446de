//! Extractions found through the calls of another new method.

use super::*;

const REGISTRY_BEFORE: &str = r#"package app;

import java.util.*;

public class Registry {
    private final List<Entry> entries = new ArrayList<>();

    void mark(int limit) {
        int seen = 0;
        for (Entry e : entries) {
            Object id = e.peeled();
            if (id == null)
                id = e.plain();
            if (id == null)
                continue;
            visit(id);
            seen++;
        }
        System.out.println(seen + " of " + limit);
    }

    void visit(Object id) {}
}
"#;

/// The code sits in a helper reached through another new method that holds none of it (a lambda
/// there calls it): an Extract Method from the caller, for its statements map exactly; a helper
/// so reached whose statements only resemble the lost ones is not.
#[test]
fn extract_method_reached_through_another_new_method() {
    let after = |get: &str| {
        format!(
            r#"package app;

import java.util.*;

public class Registry {{
    private final List<Entry> entries = new ArrayList<>();

    void mark(int limit) {{
        markAll(entries);
        System.out.println(entries.size() + " of " + limit);
    }}

    private void markAll(List<Entry> all) {{
        all.stream().filter(e -> idOf(e) != null).forEach(e -> visit(idOf(e)));
    }}

    private static Object idOf(Entry e) {{
        Object id = e.peeled();
        if (id == null) {{
            id = e.{get}();
        }}
        return id;
    }}

    void visit(Object id) {{}}
}}
"#
        )
    };
    let before = snap(&[("app/Registry.java", REGISTRY_BEFORE)]);
    let found = detect(&before, &snap(&[("app/Registry.java", &after("plain"))]));
    let extracted: Vec<String> = descriptions(&found).into_iter().filter(|d| d.starts_with("Extract Method")).collect();
    assert_eq!(
        extracted,
        [
            "Extract Method\tprivate idOf(e Entry) : Object extracted from package mark(limit int) : void in class app.Registry"
        ],
        "{found:#?}"
    );
    let unlike =
        after("other").replace("Object id = e.peeled();", "Object id = e.first();").replace("id == null", "id != null");
    let found = detect(&before, &snap(&[("app/Registry.java", &unlike)]));
    assert!(descriptions(&found).iter().all(|d| !d.contains("idOf")), "{found:#?}");
}
