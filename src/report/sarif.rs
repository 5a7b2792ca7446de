//! SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format) for `mantra suggest --sarif
//! FILE`, the format code-scanning dashboards read: one run of the tool `mantra`, one rule per
//! refactoring type, one result per opportunity (level `note`, the reason as its message, the
//! method's lines as its location, the score as a property), and the engine's change as the
//! result's `fix`: per file, replacements of regions given by 1-based lines and columns
//! (columns counted in characters), the new text as `insertedContent`.

use serde_json::{Value, json};

use crate::engine::{ChangeSet, FileChange};

/// One opportunity, as SARIF needs it.
pub struct Finding<'a> {
    /// The rule: the refactoring type's name (`extract-method`).
    pub rule: &'a str,
    pub message: &'a str,
    /// Repository-relative, `/`-separated.
    pub path: String,
    pub start_line: usize,
    pub end_line: usize,
    pub score: f64,
    pub target: &'a str,
    /// The change the engine makes, when it could be computed.
    pub fix: Option<&'a ChangeSet>,
}

/// The rules, with a one-line description each.
pub const RULES: &[(&str, &str)] = &[
    ("extract-method", "A fragment of a long method is worth a method of its own"),
    ("move-method", "A method uses another class more than its own"),
    ("inline-method", "A delegator or single-use helper adds a jump without adding meaning"),
];

/// The SARIF log of `findings`.
pub fn log(findings: &[Finding<'_>]) -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|(id, text)| json!({"id": id, "shortDescription": {"text": text}, "defaultConfiguration": {"level": "note"}}))
        .collect();
    let results: Vec<Value> = findings.iter().map(result).collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "mantra",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

fn result(f: &Finding<'_>) -> Value {
    let rule_index = RULES.iter().position(|(id, _)| *id == f.rule);
    let mut r = json!({
        "ruleId": f.rule,
        "level": "note",
        "message": {"text": f.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": f.path},
            "region": {"startLine": f.start_line, "endLine": f.end_line},
        }}],
        "properties": {"score": f.score, "target": f.target},
    });
    if let Some(i) = rule_index {
        r["ruleIndex"] = json!(i);
    }
    if let Some(changes) = f.fix {
        r["fixes"] = json!([{
            "description": {"text": format!("mantra refactor -t {} {}", f.rule, f.target)},
            "artifactChanges": artifact_changes(changes),
        }]);
    }
    r
}

fn artifact_changes(changes: &ChangeSet) -> Vec<Value> {
    let mut out = Vec::new();
    for (path, change) in &changes.files {
        let uri = path.display().to_string().replace('\\', "/");
        let replacements: Vec<Value> = match change {
            FileChange::Edit { original, edits } => {
                let mut sorted: Vec<_> = edits.iter().collect();
                sorted.sort_by_key(|e| (e.start, e.end));
                sorted
                    .iter()
                    .map(|e| {
                        let (sl, sc) = line_col(original, e.start);
                        let (el, ec) = line_col(original, e.end);
                        json!({
                            "deletedRegion": {"startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec},
                            "insertedContent": {"text": e.replacement},
                        })
                    })
                    .collect()
            }
            FileChange::Create { text } => vec![json!({
                "deletedRegion": {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1},
                "insertedContent": {"text": text},
            })],
            FileChange::Delete { original } => {
                let (el, ec) = line_col(original, original.len());
                vec![json!({"deletedRegion": {"startLine": 1, "startColumn": 1, "endLine": el, "endColumn": ec}})]
            }
        };
        out.push(json!({"artifactLocation": {"uri": uri}, "replacements": replacements}));
    }
    out
}

/// The 1-based line and column (in characters) of byte `at` of `text`.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Edit;

    #[test]
    fn a_finding_becomes_a_result_with_its_fix() {
        let mut changes = ChangeSet::new();
        changes.edit(std::path::Path::new("src/A.java"), "class A {\n  int é = 1;\n}\n", Edit::replace(21..22, "2"));
        let f = Finding {
            rule: "inline-method",
            message: "inline it",
            path: "src/A.java".into(),
            start_line: 2,
            end_line: 2,
            score: 0.8,
            target: "src/A.java:A#f()",
            fix: Some(&changes),
        };
        let log = log(&[f]);
        assert_eq!(log["version"], "2.1.0");
        let r = &log["runs"][0]["results"][0];
        assert_eq!(r["ruleId"], "inline-method");
        assert_eq!(r["ruleIndex"], 2);
        let rep = &r["fixes"][0]["artifactChanges"][0]["replacements"][0];
        // Byte 21 is on line 2 after `  int é = `: 10 characters (é is two bytes), column 11.
        assert_eq!(rep["deletedRegion"], json!({"startLine": 2, "startColumn": 11, "endLine": 2, "endColumn": 12}));
        assert_eq!(rep["insertedContent"]["text"], "2");
    }
}
