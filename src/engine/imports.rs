//! Import declarations as a refactoring changes them: add the ones moved code needs, drop the ones
//! a change certainly left unused.
//!
//! Adding is positional and conservative: a new import goes among the existing ones in sorted
//! position (static imports among the static ones), so the file keeps its own grouping. Removing is
//! done only when it is certain: the imported simple name no longer occurs anywhere in the file
//! outside import lines, comments and strings included. A name that still occurs anywhere keeps
//! its import, even where the occurrence is only a comment.

use crate::text::contains_word;
use std::collections::BTreeSet;

use super::Edit;
use crate::java::SourceFile;
use crate::java::symbols::{FileSymbols, Import};

/// Whether `file` already imports `path` (exactly, or a non-static import through its package's `*`).
pub fn imports(syms: &FileSymbols, path: &str, is_static: bool) -> bool {
    syms.imports.iter().any(|i| {
        i.is_static == is_static
            && (i.path == path || (i.wildcard && path.rsplit_once('.').is_some_and(|(owner, _)| owner == i.path)))
    })
}

/// The single-type import of `file` whose simple name is `simple`, if any.
pub fn single_import_named<'a>(syms: &'a FileSymbols, simple: &str, is_static: bool) -> Option<&'a Import> {
    syms.imports.iter().find(|i| i.is_static == is_static && !i.wildcard && i.path.rsplit('.').next() == Some(simple))
}

/// Insertions adding each of `paths` (`(path, is_static, wildcard)`) that `file` does not import yet.
pub fn add(file: &SourceFile, syms: &FileSymbols, paths: &BTreeSet<(String, bool, bool)>) -> Vec<Edit> {
    let src = &file.text;
    let nl = if src.contains("\r\n") { "\r\n" } else { "\n" };
    let mut edits = Vec::new();
    let mut first_import = true;
    for (path, is_static, wildcard) in paths {
        let already = if *wildcard {
            syms.imports.iter().any(|i| i.is_static == *is_static && i.wildcard && i.path == *path)
        } else {
            imports(syms, path, *is_static)
        };
        if already {
            continue;
        }
        let line = format!(
            "import {}{}{};{nl}",
            if *is_static { "static " } else { "" },
            path,
            if *wildcard { ".*" } else { "" }
        );
        let same_kind: Vec<&Import> = syms.imports.iter().filter(|i| i.is_static == *is_static).collect();
        if let Some(at) = in_closest_group(src, &same_kind, path) {
            edits.push(Edit::insert(at, line));
            continue;
        }
        // No import shares its first package segment: before the first one that sorts after it.
        let at = match same_kind.iter().find(|i| i.path.as_str() > path.as_str()) {
            Some(next) => crate::text::line_start(src, next.span.start_byte),
            None => match same_kind.last().copied().or(syms.imports.last()) {
                Some(last) => next_line(src, last.span.end_byte),
                None => {
                    // No imports yet: after the package declaration, with a blank line before.
                    match package_end(file) {
                        Some(end) => {
                            let at = next_line(src, end);
                            let lead = if first_import { nl } else { "" };
                            first_import = false;
                            edits.push(Edit::insert(at, format!("{lead}{line}")));
                            continue;
                        }
                        None => 0,
                    }
                }
            },
        };
        edits.push(Edit::insert(at, line));
    }
    edits
}

/// Deletions of the imports of `file` whose name is in `candidates` and no longer occurs in
/// `new_text` (the file after the change) outside import lines. Static imports are matched by
/// their member name, others by their simple type name; wildcard imports are never removed.
/// Blank lines the deletions leave doubled (between emptied groups) go too.
pub fn remove_unused(
    file: &SourceFile,
    syms: &FileSymbols,
    new_text: &str,
    candidates: &BTreeSet<String>,
) -> Vec<Edit> {
    let body: String = new_text
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            !(t.starts_with("import ") || t.starts_with("import\t"))
        })
        .collect::<Vec<_>>()
        .join("\n");
    let src = &file.text;
    let mut deleted_lines: BTreeSet<usize> = BTreeSet::new();
    let mut edits = Vec::new();
    for i in syms.imports.iter().filter(|i| !i.wildcard) {
        let Some(simple) = i.path.rsplit('.').next() else { continue };
        if !candidates.contains(simple) || contains_word(&body, simple) {
            continue;
        }
        let start = crate::text::line_start(src, i.span.start_byte);
        let end = next_line(src, i.span.end_byte);
        let own_line = src[start..i.span.start_byte].trim().is_empty() && src[i.span.end_byte..end].trim().is_empty();
        if own_line {
            deleted_lines.insert(start);
        } else {
            edits.push(Edit::delete(i.span.start_byte..i.span.end_byte));
        }
    }
    let (Some(first), Some(last)) = (syms.imports.first(), syms.imports.last()) else { return edits };
    if deleted_lines.is_empty() {
        return edits;
    }
    // Walk the import block and the blank lines after it, keeping at most one blank line in a row.
    let mut at = crate::text::line_start(src, first.span.start_byte);
    let block_end = next_line(src, last.span.end_byte);
    let mut prev_blank = at > 0 && src[crate::text::line_start(src, at - 1)..at].trim().is_empty();
    while at < src.len() {
        let next = next_line(src, at);
        let blank = src[at..next].trim().is_empty();
        if at >= block_end && !blank {
            break;
        }
        if deleted_lines.contains(&at) || (blank && prev_blank) {
            edits.push(Edit::delete(at..next));
        } else {
            prev_blank = blank;
        }
        at = next;
    }
    edits
}

/// Where `path` goes when an import shares its first package segments (`org.` with `org.`): in
/// the group of adjacent lines holding the import that shares the most, in sorted position there.
/// Files that do not sort their groups (`org.…` above `java.…`) keep their order that way.
fn in_closest_group(src: &str, imports: &[&Import], path: &str) -> Option<usize> {
    let (best, shared) =
        imports.iter().enumerate().map(|(k, i)| (k, shared_segments(&i.path, path))).max_by_key(|&(k, n)| (n, k))?;
    if shared == 0 {
        return None;
    }
    let adjacent =
        |a: &Import, b: &Import| next_line(src, a.span.end_byte) == crate::text::line_start(src, b.span.start_byte);
    let mut first = best;
    while first > 0 && adjacent(imports[first - 1], imports[first]) {
        first -= 1;
    }
    let mut last = best;
    while last + 1 < imports.len() && adjacent(imports[last], imports[last + 1]) {
        last += 1;
    }
    Some(match imports[first..=last].iter().find(|i| i.path.as_str() > path) {
        Some(next) => crate::text::line_start(src, next.span.start_byte),
        None => next_line(src, imports[last].span.end_byte),
    })
}

/// How many leading dot-separated segments two qualified names share.
fn shared_segments(a: &str, b: &str) -> usize {
    a.split('.').zip(b.split('.')).take_while(|(x, y)| x == y).count()
}

/// The start of the line after the one holding `at` (the end of the text if it is the last line).
fn next_line(src: &str, at: usize) -> usize {
    src[at..].find('\n').map_or(src.len(), |i| at + i + 1)
}

fn package_end(file: &SourceFile) -> Option<usize> {
    let root = file.root();
    let mut cursor = root.walk();
    root.named_children(&mut cursor).find(|n| n.kind() == "package_declaration").map(|n| n.end_byte())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::edit::apply;
    use crate::java::symbols::extract;

    fn run_add(src: &str, paths: &[(&str, bool)]) -> String {
        let file = SourceFile::parse("A.java", src.to_string());
        let syms = extract(&file);
        let set = paths.iter().map(|(p, s)| (p.to_string(), *s, false)).collect();
        apply("A.java", src, &add(&file, &syms, &set)).unwrap()
    }

    #[test]
    fn adds_in_sorted_position_and_skips_existing() {
        let src = "package a;\n\nimport java.util.List;\nimport java.util.Map;\nimport static org.X.y;\n\nclass A {}\n";
        let out = run_add(src, &[("java.util.Locale", false), ("java.util.Map", false), ("org.X.z", true)]);
        assert_eq!(
            out,
            "package a;\n\nimport java.util.List;\nimport java.util.Locale;\nimport java.util.Map;\nimport static org.X.y;\nimport static org.X.z;\n\nclass A {}\n"
        );
        let bare = run_add("package a;\n\nclass A {}\n", &[("java.time.Duration", false)]);
        assert_eq!(bare, "package a;\n\nimport java.time.Duration;\n\nclass A {}\n");
        // It joins the group whose package it shares, not the next group's head.
        let grouped = "package a;\n\nimport java.awt.geom.Point2D;\n\nimport org.b.C;\n\nclass A {}\n";
        let out =
            run_add(grouped, &[("java.awt.Cursor", false), ("java.awt.geom.Rectangle2D", false), ("org.b.D", false)]);
        assert_eq!(
            out,
            "package a;\n\nimport java.awt.Cursor;\nimport java.awt.geom.Point2D;\nimport java.awt.geom.Rectangle2D;\n\nimport org.b.C;\nimport org.b.D;\n\nclass A {}\n"
        );
        // A file whose groups are not in sorted order: the new import joins its own group.
        let unsorted = "package a;\n\nimport org.apache.Validate;\n\nimport java.util.LinkedList;\nimport java.util.List;\n\nclass A {}\n";
        let out = run_add(unsorted, &[("org.jsoup.Attribute", false), ("java.util.Deque", false)]);
        assert_eq!(
            out,
            "package a;\n\nimport org.apache.Validate;\nimport org.jsoup.Attribute;\n\nimport java.util.Deque;\nimport java.util.LinkedList;\nimport java.util.List;\n\nclass A {}\n"
        );
        let wild = run_add("package a;\nimport java.util.*;\nclass A {}\n", &[("java.util.List", false)]);
        assert_eq!(wild, "package a;\nimport java.util.*;\nclass A {}\n");
    }

    #[test]
    fn removes_only_imports_whose_name_is_gone() {
        let src = "package a;\nimport b.Gone;\nimport b.Kept;\nimport b.Other;\nclass A { Kept k; /* Other */ }\n";
        let file = SourceFile::parse("A.java", src.to_string());
        let syms = extract(&file);
        let candidates = ["Gone", "Kept", "Other"].iter().map(|s| s.to_string()).collect();
        let edits = remove_unused(&file, &syms, src, &candidates);
        assert_eq!(
            apply("A.java", src, &edits).unwrap(),
            "package a;\nimport b.Kept;\nimport b.Other;\nclass A { Kept k; /* Other */ }\n"
        );
    }
}
