//! Pure refactorings as verification cases (`shared/data/pure-refactor`).
//!
//! Every PureRefactor record is one labelled pure refactoring with the whole file before and
//! after. The detector is run on those two files, as the Reviewer runs it on every change, and
//! asked two things: did it find the labelled refactoring (the right type and the right methods),
//! and did it call it pure. A record is replayable when its refactoring stays in one file (the
//! record holds only that file on each side); the others are counted apart.

use std::collections::BTreeMap;
use std::path::Path;

use rayon::prelude::*;

use super::{Refactoring, RefactoringType, Snapshot, detect};

/// One record, ready to replay.
#[derive(Debug, Clone)]
pub struct Case {
    pub project: String,
    pub id: String,
    pub kind: RefactoringType,
    /// The record's description, TAB replaced by a space.
    pub description: String,
    pub before: Snapshot,
    pub after: Snapshot,
}

/// What the detector made of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finding {
    /// The labelled refactoring, judged pure.
    Pure,
    /// The labelled refactoring, judged impure.
    Impure,
    /// Not found (nothing of that type about those methods).
    Missed,
}

/// Found and pure counts of one type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub records: usize,
    pub found: usize,
    pub pure: usize,
}

/// The result over every record.
#[derive(Debug, Clone, Default)]
pub struct Verification {
    pub per_type: BTreeMap<RefactoringType, Tally>,
    /// Records whose refactoring spans two files (another file path, or a class the file does
    /// not declare), which a record cannot replay: it holds one file on each side.
    pub not_replayable: usize,
    /// `(project, id, description, finding)` of every case not found pure, for looking at.
    pub misses: Vec<(String, String, String, Finding)>,
}

impl Verification {
    /// The per-type table: records, found, pure, and their shares.
    pub fn table(&self) -> String {
        let mut out =
            format!("{:<26} {:>7} {:>6} {:>6} {:>7} {:>7}\n", "type", "records", "found", "pure", "found%", "pure%");
        let mut total = Tally::default();
        for (kind, t) in &self.per_type {
            total.records += t.records;
            total.found += t.found;
            total.pure += t.pure;
            out.push_str(&row(kind.display_name(), t));
        }
        out.push_str(&row("all", &total));
        out.push_str(&format!("(and {} records spanning two files, not replayable)\n", self.not_replayable));
        out
    }
}

fn row(name: &str, t: &Tally) -> String {
    let share = |n: usize| if t.records == 0 { 0.0 } else { 100.0 * n as f64 / t.records as f64 };
    format!(
        "{:<26} {:>7} {:>6} {:>6} {:>6.1}% {:>6.1}%\n",
        name,
        t.records,
        t.found,
        t.pure,
        share(t.found),
        share(t.pure)
    )
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Record {
    #[serde(rename = "type")]
    kind: String,
    description: String,
    unique_id: Option<String>,
    file_path_before: String,
    file_path_after: String,
    source_code_before_for_whole: String,
    source_code_after_for_whole: String,
}

/// The cases of every PureRefactor file under `data` (see [`crate::dataset::pure_refactor_files`]),
/// and how many records span two files.
pub fn load(data: &Path) -> Result<(Vec<Case>, usize), String> {
    let mut cases = Vec::new();
    let mut spanning = 0;
    for (project, path) in crate::dataset::pure_refactor_files(data)? {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records: Vec<Record> = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for (i, r) in records.into_iter().enumerate() {
            let Some(kind) = RefactoringType::ALL.into_iter().find(|t| t.display_name() == r.kind) else {
                return Err(format!("{}: record {i} has the unknown type `{}`", path.display(), r.kind));
            };
            if r.file_path_before != r.file_path_after
                || !declares_classes(&r.description, &r.source_code_before_for_whole, &r.source_code_after_for_whole)
            {
                spanning += 1;
                continue;
            }
            cases.push(Case {
                project: project.clone(),
                id: r.unique_id.unwrap_or_else(|| i.to_string()),
                kind,
                description: r.description.replace('\t', " "),
                before: Snapshot::from_files([(r.file_path_before.clone(), r.source_code_before_for_whole)]),
                after: Snapshot::from_files([(r.file_path_after, r.source_code_after_for_whole)]),
            });
        }
    }
    Ok((cases, spanning))
}

/// Whether every class a description names (`in class a.B`, `to class a.C`) is declared in the
/// record's file: a move to another file's class has only one of its two files in the record.
fn declares_classes(description: &str, before: &str, after: &str) -> bool {
    let mut words = description.split_whitespace().peekable();
    let mut named = Vec::new();
    while let Some(w) = words.next() {
        if w == "class"
            && let Some(name) = words.peek()
        {
            named.push(name.rsplit(['.', '$']).next().unwrap_or(name).to_string());
        }
    }
    let declared = |text: &str, simple: &str| {
        let words: Vec<&str> = text.split_whitespace().collect();
        words.windows(2).any(|w| {
            matches!(w[0], "class" | "interface" | "enum" | "record" | "@interface")
                && w[1].split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).next() == Some(simple)
        })
    };
    named.iter().all(|simple| declared(before, simple) || declared(after, simple))
}

/// What the detector finds in `case`.
pub fn judge(case: &Case, found: &[Refactoring]) -> Finding {
    let labelled: Vec<&Refactoring> =
        found.iter().filter(|r| r.kind == case.kind && r.description.replace('\t', " ") == case.description).collect();
    match labelled.as_slice() {
        [] => Finding::Missed,
        many if many.iter().all(|r| r.pure) => Finding::Pure,
        _ => Finding::Impure,
    }
}

/// Runs the detector on every case (in parallel) and tallies what it found.
pub fn verify(cases: &[Case], not_replayable: usize) -> Verification {
    let findings: Vec<Finding> = cases.par_iter().map(|c| judge(c, &detect(&c.before, &c.after))).collect();
    let mut v = Verification { not_replayable, ..Verification::default() };
    for (case, finding) in cases.iter().zip(findings) {
        let t = v.per_type.entry(case.kind).or_default();
        t.records += 1;
        t.found += usize::from(finding != Finding::Missed);
        t.pure += usize::from(finding == Finding::Pure);
        if finding != Finding::Pure {
            v.misses.push((case.project.clone(), case.id.clone(), case.description.clone(), finding));
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_replays_when_its_file_declares_every_class_named() {
        let text = "package a;\nclass Outer<T> {\n  static class Inner {}\n}\n";
        assert!(declares_classes("Extract Method\tf() : void extracted from g() : void in class a.Outer", text, text));
        assert!(declares_classes(
            "Extract And Move Method\tf() : void extracted from g() : void in class a.Outer & moved to class a.Outer.Inner",
            text,
            text
        ));
        assert!(!declares_classes(
            "Extract And Move Method\tf() : void extracted from g() : void in class a.Outer & moved to class b.Util",
            text,
            text
        ));
    }

    #[test]
    fn found_means_the_labelled_description_and_pure_means_every_such_finding_is() {
        let before =
            "package a;\nclass A {\n  void g() {\n    System.out.println(1);\n    System.out.println(2);\n  }\n}\n";
        let after = "package a;\nclass A {\n  void g() {\n    f();\n  }\n\n  private void f() {\n    System.out.println(1);\n    System.out.println(2);\n  }\n}\n";
        let case = |description: &str| Case {
            project: "p".into(),
            id: "0".into(),
            kind: RefactoringType::ExtractMethod,
            description: description.into(),
            before: Snapshot::from_files([("a/A.java", before)]),
            after: Snapshot::from_files([("a/A.java", after)]),
        };
        let right = case("Extract Method private f() : void extracted from package g() : void in class a.A");
        let found = detect(&right.before, &right.after);
        assert_eq!(judge(&right, &found), Finding::Pure, "{found:?}");
        let wrong = case("Extract Method private h() : void extracted from package g() : void in class a.A");
        assert_eq!(judge(&wrong, &found), Finding::Missed);
        let mut impure = found.clone();
        impure[0].pure = false;
        assert_eq!(judge(&right, &impure), Finding::Impure);
    }
}
