//! Mining a repository's own history for examples: a project's own refactorings are the most
//! relevant examples for it.
//!
//! The history is walked with git2 (no `git` process per commit): for each non-merge commit, the
//! `.java` files it changed are read from its parent's tree and its own into two snapshots, the
//! built-in detector compares them, and the refactorings it judges pure become records, their
//! code cut from the files by the detector's locations.

use std::path::Path;

use super::record::{DescriptionSource, FileRef, Provenance, Record};
use super::{Store, StoreError, describe};
use crate::detect::{self, Location, Refactoring, Snapshot};
use crate::text::lines;

/// What a mining run found.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct Mined {
    pub commits: usize,
    pub refactorings: usize,
    /// Detected refactorings left out because the detector found other changes mixed in.
    pub impure: usize,
    pub records: Vec<Record>,
}

fn package_of(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix("package ").map(|p| p.trim_end_matches(';').trim().to_string()))
        .unwrap_or_default()
}

/// The class header (`public class Tokens extends Base`) of simple class `name` in `text`.
fn class_header(text: &str, name: &str) -> String {
    let simple = name.rsplit(['.', '$']).next().unwrap_or(name);
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    for kw in ["class", "interface", "enum", "record"] {
        let needle = format!("{kw} {simple}");
        // Whole words only: `class FooBar` and `subclass Foo` are not `class Foo`.
        let whole =
            |&(at, _): &(usize, &str)| !text[..at].ends_with(word) && !text[at + needle.len()..].starts_with(word);
        if let Some((at, _)) = text.match_indices(&needle).find(whole) {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let end = text[at..].find('{').map_or(text.len(), |i| at + i);
            return text[line_start..end].split_whitespace().collect::<Vec<_>>().join(" ");
        }
    }
    String::new()
}

fn decls(locations: &[Location]) -> Vec<&Location> {
    locations.iter().filter(|l| l.code_element_type == "METHOD_DECLARATION").collect()
}

/// The record for a detected refactoring: code cut from the snapshots, whole files kept in the
/// store. `None` when the detector's locations do not point into the snapshots.
pub fn record_from_detected(
    r: &Refactoring,
    before: &Snapshot,
    after: &Snapshot,
    mut provenance: Provenance,
    store: &Store,
) -> Result<Option<Record>, StoreError> {
    let left = decls(&r.left_side_locations);
    let mut right = decls(&r.right_side_locations);
    // PureRefactor's shape: for extractions the source method after, then the extracted method.
    right.sort_by_key(|l| !l.description.starts_with("source method declaration after"));
    let (Some(main_before), Some(main_after)) = (left.first(), right.first()) else { return Ok(None) };
    let (Some(file_before), Some(file_after)) =
        (before.files.get(&main_before.file_path), after.files.get(&main_after.file_path))
    else {
        return Ok(None);
    };
    let code_before = lines(file_before, main_before.start_line, main_before.end_line);
    let code_after = r.right_methods_text(after);
    let class = &r.subject.class;
    let method_name = &r.subject.method;
    if provenance.unique_id.is_empty() {
        let spans: Vec<String> =
            left.iter().chain(&right).map(|l| format!("{}_{}", l.start_line, l.end_line)).collect();
        provenance.unique_id = format!("{}_{}", provenance.commit, spans.join("_"));
    }
    let facts = describe::code_facts(&code_before);
    let mut record = Record {
        id: format!("{}:{}:{}", provenance.source, provenance.repository, provenance.unique_id),
        kind: r.kind,
        refactoring: r.description.clone(),
        code_before,
        code_after,
        file_before: store.put_file(&main_before.file_path, file_before)?,
        file_after: store.put_file(&main_after.file_path, file_after)?,
        package: package_of(file_before),
        class_name: class.clone(),
        class_signature: class_header(file_before, class),
        method: format!("{class}#{method_name}"),
        callers: describe::callers_in_file(file_before, method_name),
        callees: facts.callees,
        description: String::new(),
        description_source: DescriptionSource::Summary,
        provenance,
    };
    if record.file_before.blob.is_none() {
        record.file_before = FileRef { path: main_before.file_path.clone(), blob: None };
    }
    Ok(Some(record))
}

/// Walks `range` (`A..B`, or all of HEAD's history when `None`) of the repository at `repo`,
/// newest first, at most `max_commits` commits, and returns the pure refactorings found.
pub fn mine(
    repo: &Path,
    range: Option<&str>,
    max_commits: usize,
    store: &Store,
    describer: &mut describe::Describer,
) -> Result<Mined, StoreError> {
    let git = git2::Repository::discover(repo)
        .map_err(|e| StoreError::Mine(format!("{} is not a git repository: {}", repo.display(), e.message())))?;
    let mut walk = git.revwalk().map_err(|e| StoreError::Mine(e.message().to_string()))?;
    let pushed = match range {
        Some(r) if r.contains("..") => walk.push_range(r),
        Some(r) => walk.push_ref(r).or_else(|_| git.revparse_single(r).and_then(|o| walk.push(o.id()))),
        None => walk.push_head(),
    };
    pushed.map_err(|e| StoreError::Mine(format!("cannot walk {}: {}", range.unwrap_or("HEAD"), e.message())))?;
    let repository = repo.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "repo".into());
    let mut out = Mined::default();
    for oid in walk.take(max_commits) {
        let oid = oid.map_err(|e| StoreError::Mine(e.message().to_string()))?;
        let Ok(commit) = git.find_commit(oid) else { continue };
        if commit.parent_count() != 1 {
            continue;
        }
        out.commits += 1;
        let Some((before, after)) = snapshots(&git, &commit) else { continue };
        if before.files.is_empty() || after.files.is_empty() {
            continue;
        }
        let sha = oid.to_string();
        for r in detect::detect(&before, &after) {
            out.refactorings += 1;
            if !r.pure {
                out.impure += 1;
                continue;
            }
            let provenance = Provenance {
                source: "mined".into(),
                repository: repository.clone(),
                commit: sha.clone(),
                unique_id: String::new(),
            };
            if let Some(mut record) = record_from_detected(&r, &before, &after, provenance, store)? {
                describer.fill(&mut record);
                out.records.push(record);
            }
        }
    }
    Ok(out)
}

/// The `.java` files `commit` changed, before (in its parent) and after.
fn snapshots(git: &git2::Repository, commit: &git2::Commit) -> Option<(Snapshot, Snapshot)> {
    let parent = commit.parent(0).ok()?;
    let (old, new) = (parent.tree().ok()?, commit.tree().ok()?);
    let mut diff = git.diff_tree_to_tree(Some(&old), Some(&new), None).ok()?;
    diff.find_similar(None).ok()?;
    let (mut before, mut after) = (Snapshot::new(), Snapshot::new());
    let text = |id: git2::Oid| -> Option<String> {
        let blob = git.find_blob(id).ok()?;
        Some(String::from_utf8_lossy(blob.content()).into_owned())
    };
    for delta in diff.deltas() {
        let is_java = |f: git2::DiffFile| f.path().is_some_and(|p| p.extension().is_some_and(|e| e == "java"));
        if !is_java(delta.old_file()) && !is_java(delta.new_file()) {
            continue;
        }
        let (o, n) = (delta.old_file(), delta.new_file());
        if !o.id().is_zero()
            && let (Some(p), Some(t)) = (o.path(), text(o.id()))
        {
            before.files.insert(p.to_string_lossy().replace('\\', "/"), t);
        }
        if !n.id().is_zero()
            && let (Some(p), Some(t)) = (n.path(), text(n.id()))
        {
            after.files.insert(p.to_string_lossy().replace('\\', "/"), t);
        }
    }
    Some((before, after))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_lines_and_headers() {
        let t = "package a.b;\n\npublic final class Foo<T> extends Bar\n    implements Baz {\n  void x() {}\n}\n";
        assert_eq!(lines(t, 5, 5), "  void x() {}");
        assert_eq!(lines(t, 1, 2), "package a.b;\n");
        assert_eq!(package_of(t), "a.b");
        assert_eq!(class_header(t, "a.b.Foo"), "public final class Foo<T> extends Bar implements Baz");
        // A longer name that starts with the one asked for is another class.
        let t = "class FooBar {\n}\n\nclass Foo extends Base {\n}\n";
        assert_eq!(class_header(t, "Foo"), "class Foo extends Base");
        assert_eq!(class_header(t, "Fo"), "");
    }
}
