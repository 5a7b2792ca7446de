//! The crate's architecture, kept by reading `src/` (as ArchUnit guards a Java codebase):
//! top-level modules sit in the layers `lib.rs`'s module doc draws, each imports only modules of
//! layers below its own, no source file grows past 800 lines, unit tests follow one layout, and
//! every error type that implements `Classify` is on the list the edge classifies with.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::harness::project_root;

/// The most lines a source file may have (test files included).
const MAX_LINES: usize = 800;

struct SourceFile {
    /// Relative to `src/`, with `/` separators.
    path: String,
    text: String,
}

fn sources() -> Vec<SourceFile> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<SourceFile>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, root, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let path = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.push(SourceFile { path, text: std::fs::read_to_string(&p).unwrap() });
            }
        }
    }
    let root = project_root().join("src");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out
}

/// The top-level module a file belongs to: `engine` for `engine/inline/site.rs`, `cli` for
/// `cli.rs`; `lib` and `main` for the crate root's files.
fn module_of(path: &str) -> &str {
    match path.split_once('/') {
        Some((dir, _)) => dir,
        None => path.trim_end_matches(".rs"),
    }
}

/// Whether the file is a unit-test module: `x/tests.rs`, or a `tests` folder's file.
fn is_test_file(path: &str) -> bool {
    path.ends_with("/tests.rs") || path.contains("/tests/")
}

/// The line where an inline `#[cfg(test)] mod tests { ... }` starts; by the crate's layout it
/// closes the file.
fn tests_module_start(lines: &[&str]) -> Option<usize> {
    (0..lines.len().saturating_sub(1))
        .find(|&i| lines[i].trim() == "#[cfg(test)]" && lines[i + 1].trim_end().ends_with("mod tests {"))
}

/// The file's code outside tests and comments: everything before an inline tests module, with
/// `//` comments removed.
fn production_code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = tests_module_start(&lines).unwrap_or(lines.len());
    let mut out = String::new();
    for line in &lines[..end] {
        let code = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The top-level modules `code` names as `crate::x` (also inside `use crate::{x, y::z}`).
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let word = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(group.split(',').map(|part| word(part.trim())).filter(|w| !w.is_empty()));
        } else {
            out.insert(word(rest));
        }
    }
    out
}

/// The layers of `lib.rs`'s module doc, lowest first: each numbered line of the `text` block
/// names its modules before its description.
fn layers(lib: &str, modules: &BTreeSet<String>) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for line in lib.lines().filter_map(|l| l.strip_prefix("//!")) {
        let mut words = line.split_whitespace();
        let Some(Ok(layer)) = words.next().map(str::parse::<usize>) else { continue };
        for w in words.take_while(|w| modules.contains(*w)) {
            assert!(out.insert(w.to_string(), layer).is_none(), "lib.rs puts `{w}` in two layers");
        }
    }
    out
}

#[test]
fn modules_import_only_the_layers_below_them() {
    let files = sources();
    let modules: BTreeSet<String> =
        files.iter().map(|f| module_of(&f.path).to_string()).filter(|m| m != "lib" && m != "main").collect();
    let lib = &files.iter().find(|f| f.path == "lib.rs").unwrap().text;
    let layer = layers(lib, &modules);
    let unplaced: Vec<&String> = modules.iter().filter(|m| !layer.contains_key(*m)).collect();
    assert!(unplaced.is_empty(), "lib.rs's layer diagram does not place {unplaced:?}");

    let mut upward = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files.iter().filter(|f| !is_test_file(&f.path)) {
        let from = module_of(&f.path);
        let Some(&own) = layer.get(from) else { continue };
        for to in crate_paths(&production_code(&f.text)) {
            if to == from {
                continue;
            }
            let Some(&theirs) = layer.get(&to) else {
                upward.push(format!("{}: crate::{to} is not a module of a layer (the crate root?)", f.path));
                continue;
            };
            edges.entry(from.to_string()).or_default().insert(to.clone());
            if theirs >= own {
                upward.push(format!("{} (layer {own}) imports crate::{to} (layer {theirs})", f.path));
            }
        }
    }
    assert!(upward.is_empty(), "imports that break the layer order of lib.rs:\n{}", upward.join("\n"));
    // Strictly downward edges cannot close a cycle; the graph must still not be empty of sense.
    assert!(edges.get("engine").is_some_and(|e| e.contains("java")), "the scan found no imports: {edges:?}");
}

#[test]
fn no_source_file_is_longer_than_800_lines() {
    let long: Vec<String> = sources()
        .iter()
        .map(|f| (f.text.lines().count(), &f.path))
        .filter(|(n, _)| *n > MAX_LINES)
        .map(|(n, p)| format!("{p}: {n} lines"))
        .collect();
    assert!(long.is_empty(), "split these files by concept:\n{}", long.join("\n"));
}

#[test]
fn unit_tests_live_in_tests_files_or_a_closing_tests_module() {
    let mut odd = Vec::new();
    for f in sources() {
        let lines: Vec<&str> = f.text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim().starts_with("#[path") {
                odd.push(format!("{}:{}: #[path] (put the tests in x/tests.rs)", f.path, i + 1));
            }
            if line.trim() == "#[cfg(test)]"
                && let Some(next) = lines.get(i + 1).map(|l| l.trim())
                && next.contains("mod ")
                && !(next.ends_with("mod tests;") || next.ends_with("mod tests {"))
            {
                odd.push(format!("{}:{}: `{next}` (unit tests are `mod tests`)", f.path, i + 2));
            }
        }
        if let Some(start) = tests_module_start(&lines)
            && lines.len() - start > MAX_LINES / 2
        {
            odd.push(format!(
                "{}: an inline tests module of over {} lines (move it to tests.rs)",
                f.path,
                MAX_LINES / 2
            ));
        }
    }
    assert!(odd.is_empty(), "{}", odd.join("\n"));
}

#[test]
fn every_classified_error_is_on_the_edge_list() {
    let files = sources();
    let lib = &files.iter().find(|f| f.path == "lib.rs").unwrap().text;
    let list = &lib[lib.find("try_types!(").expect("lib.rs classifies with try_types!")..];
    let list = &list[..list.find(");").unwrap()];
    let listed: BTreeSet<&str> =
        list.split([',', '(', '\n']).map(|s| s.trim().rsplit("::").next().unwrap_or("")).collect();
    let mut missing = Vec::new();
    for f in &files {
        for (i, _) in f.text.match_indices("Classify for ") {
            let name: String =
                f.text[i + "Classify for ".len()..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !listed.contains(name.as_str()) {
                missing.push(format!("{name} ({})", f.path));
            }
        }
    }
    assert!(missing.is_empty(), "errors that implement Classify but lib.rs's try_types! omits: {missing:?}");
}
