//! Which sources the direct runner must recompile after a change, so that a one-method change
//! costs a `javac` of a few files instead of the whole project.
//!
//! After every complete compile (the build tool's baseline compile, or a direct one) a
//! [`Manifest`] records a hash of every source and resource file and a fingerprint of the class
//! folders. The next compile compares: if the set-up, the set of files, a resource or the class
//! folders changed (someone else compiled there), or anything is unclear, it is a full compile.
//! Otherwise it recompiles the changed sources plus their dependents, where a dependent is any
//! source whose compiled classes mention (constant pool: class constants, descriptors,
//! signatures) one of the changed sources' classes or one of their subtypes, or whose text names
//! one of them (compile-time constants leave no trace in the constant pool). Subtypes count
//! because a call of an inherited method is compiled against the subtype. The stale `.class`
//! files of every recompiled source (`Outer.class`, `Outer$*.class`, secondary top-level classes)
//! are deleted first, found through each class's `SourceFile` attribute.
//!
//! After the compile, the caller checks with [`Recompile::same_shape`] that the recompiled
//! sources still declare the same top-level classes with the same compile-time constants
//! (`javac` inlines constants into readers that are not recompiled); if not, it compiles fully.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::baseline::Fnv;
use super::classfile::{self, ClassInfo};
use super::direct::{DirectSetup, Unit};

const MANIFEST: &str = ".mantra/direct/manifest.json";

/// The state of sources and classes after the last complete compile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Manifest {
    setup: String,
    /// Source or resource path (relative to the project) → content hash, per unit.
    files: [BTreeMap<PathBuf, String>; 2],
    outputs: String,
}

/// What the next compile must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// Nothing changed since the last compile.
    UpToDate,
    /// Recompile these sources, main then test.
    Recompile([Recompile; 2]),
    /// Compile everything, for this reason.
    Full(String),
}

/// The sources of one unit to recompile and what their classes were.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Recompile {
    /// Relative to the project.
    pub sources: Vec<PathBuf>,
    /// Class files to delete first, relative to the project.
    pub stale: Vec<PathBuf>,
    /// Top-level class names and constants of those sources before.
    shape: BTreeMap<PathBuf, Shape>,
}

type Shape = (BTreeSet<String>, Vec<String>);

impl Recompile {
    /// Whether the recompiled sources still declare the same top-level classes with the same
    /// compile-time constants (read from the class folder `output` after the compile).
    pub fn same_shape(&self, dir: &Path, unit: &Unit) -> bool {
        let classes = index(dir, unit);
        let now = shapes(&classes, &self.shape.keys().cloned().collect());
        now == self.shape
    }
}

/// Records the project's current sources and classes as compiled.
pub fn record(dir: &Path, setup: &DirectSetup) -> std::io::Result<()> {
    let manifest = Manifest { setup: setup_text(setup), files: hashes(dir, setup), outputs: fingerprint(dir, setup) };
    let path = dir.join(MANIFEST);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, serde_json::to_string(&manifest).map_err(std::io::Error::other)?)
}

/// Forgets the last compile (after a failed one, whose class folders are half written).
pub fn forget(dir: &Path) {
    let _ = std::fs::remove_file(dir.join(MANIFEST));
}

/// What to compile now; see the module documentation.
pub fn plan(dir: &Path, setup: &DirectSetup) -> Plan {
    let Some(old) =
        std::fs::read_to_string(dir.join(MANIFEST)).ok().and_then(|t| serde_json::from_str::<Manifest>(&t).ok())
    else {
        return Plan::Full("no record of an earlier compile".into());
    };
    if old.setup != setup_text(setup) {
        return Plan::Full("the build set-up changed".into());
    }
    if old.outputs != fingerprint(dir, setup) {
        return Plan::Full("the class folders changed since the last compile".into());
    }
    let now = hashes(dir, setup);
    let units = [&setup.main, &setup.test];
    let mut changed: [BTreeSet<PathBuf>; 2] = Default::default();
    for u in 0..2 {
        if !old.files[u].keys().eq(now[u].keys()) {
            return Plan::Full("files were added or removed".into());
        }
        for (path, hash) in &now[u] {
            if old.files[u].get(path) != Some(hash) {
                if !is_java(path) {
                    return Plan::Full(format!("the resource {} changed", path.display()));
                }
                changed[u].insert(path.clone());
            }
        }
    }
    if changed.iter().all(BTreeSet::is_empty) {
        return Plan::UpToDate;
    }
    let classes = [index(dir, units[0]), index(dir, units[1])];
    // A class whose source is not where its package says cannot be tracked (nor deleted when stale).
    if let Some(c) = classes.iter().flatten().find(|c| c.source.is_none()) {
        return Plan::Full(format!("the source of the class {} was not found", c.info.name));
    }
    for u in 0..2 {
        for path in &changed[u] {
            if !classes[u].iter().any(|c| c.source.as_ref() == Some(path)) {
                return Plan::Full(format!("no compiled class of {} was found", path.display()));
            }
        }
    }
    let all: Vec<&Indexed> = classes.iter().flatten().collect();
    let mut names: BTreeSet<String> = BTreeSet::new();
    let mut out: [Recompile; 2] = Default::default();
    for u in 0..2 {
        // Test sources depend on main classes, never the other way round.
        names.extend(
            classes[u]
                .iter()
                .filter(|c| c.source.as_ref().is_some_and(|s| changed[u].contains(s)))
                .map(|c| c.info.name.clone()),
        );
        close_over_subtypes(&mut names, &all);
        let simple: BTreeSet<&str> = names.iter().map(|n| simple_name(n)).collect();
        let mut sources = changed[u].clone();
        for path in now[u].keys().filter(|p| is_java(p) && !changed[u].contains(*p)) {
            let by_class =
                classes[u].iter().any(|c| c.source.as_ref() == Some(path) && names.iter().any(|n| c.info.mentions(n)));
            let by_text = || {
                std::fs::read_to_string(dir.join(path)).map_or(true, |text| simple.iter().any(|s| names_word(&text, s)))
            };
            if by_class || by_text() {
                sources.insert(path.clone());
            }
        }
        out[u].stale = classes[u]
            .iter()
            .filter(|c| c.source.as_ref().is_some_and(|s| sources.contains(s)))
            .map(|c| c.file.clone())
            .collect();
        out[u].shape = shapes(&classes[u], &sources);
        out[u].sources = sources.into_iter().collect();
    }
    Plan::Recompile(out)
}

/// One compiled class with its file and (when found) source, relative to the project.
struct Indexed {
    file: PathBuf,
    source: Option<PathBuf>,
    info: ClassInfo,
}

/// Every class in the unit's output folder, with the source it came from: the `SourceFile`
/// attribute in the package's folder under one of the source roots.
fn index(dir: &Path, unit: &Unit) -> Vec<Indexed> {
    let mut out = Vec::new();
    for rel in super::direct::files_under(&dir.join(&unit.output)) {
        if rel.extension().is_none_or(|e| e != "class") {
            continue;
        }
        let file = unit.output.join(&rel);
        let Some(info) = std::fs::read(dir.join(&file)).ok().and_then(|b| classfile::read(&b)) else { continue };
        let source = info.source_file.as_ref().and_then(|name| {
            let package = Path::new(&info.name).parent().unwrap_or(Path::new(""));
            unit.source_roots.iter().map(|r| r.join(package).join(name)).find(|p| dir.join(p).is_file())
        });
        out.push(Indexed { file, source, info });
    }
    out
}

fn shapes(classes: &[Indexed], sources: &BTreeSet<PathBuf>) -> BTreeMap<PathBuf, Shape> {
    let mut out: BTreeMap<PathBuf, Shape> = sources.iter().map(|s| (s.clone(), Shape::default())).collect();
    for c in classes {
        if let Some(shape) = c.source.as_ref().and_then(|s| out.get_mut(s)) {
            if !c.info.name.contains('$') {
                shape.0.insert(c.info.name.clone());
            }
            shape.1.extend(c.info.constants.iter().map(|k| format!("{}.{k}", c.info.name)));
        }
    }
    for shape in out.values_mut() {
        shape.1.sort();
    }
    out
}

/// Adds every class that extends or implements one in `names`, until nothing changes.
fn close_over_subtypes(names: &mut BTreeSet<String>, classes: &[&Indexed]) {
    loop {
        let before = names.len();
        for c in classes {
            let sup = c.info.super_name.iter().chain(&c.info.interfaces);
            if sup.clone().any(|s| names.contains(s)) {
                names.insert(c.info.name.clone());
            }
        }
        if names.len() == before {
            return;
        }
    }
}

/// `Foo` for `a/b/Foo$Bar`: the name a source must spell to reach the class.
fn simple_name(internal: &str) -> &str {
    let last = internal.rsplit('/').next().unwrap_or(internal);
    last.split('$').next().unwrap_or(last)
}

/// Whether `text` contains `word` as a whole Java identifier.
fn names_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word).any(|(at, _)| {
        text[..at].chars().next_back().is_none_or(|c| !ident(c))
            && text[at + word.len()..].chars().next().is_none_or(|c| !ident(c))
    })
}

fn is_java(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "java")
}

fn setup_text(setup: &DirectSetup) -> String {
    serde_json::to_string(setup).unwrap_or_default()
}

fn hashes(dir: &Path, setup: &DirectSetup) -> [BTreeMap<PathBuf, String>; 2] {
    [&setup.main, &setup.test].map(|unit| {
        let mut out = BTreeMap::new();
        for root in unit.source_roots.iter().chain(&unit.resource_roots) {
            for rel in super::direct::files_under(&dir.join(root)) {
                let path = root.join(rel);
                let mut h = Fnv::new();
                h.write(&std::fs::read(dir.join(&path)).unwrap_or_default());
                out.insert(path, format!("{:016x}", h.0));
            }
        }
        out
    })
}

/// Every file in the class folders with its size and modification time.
fn fingerprint(dir: &Path, setup: &DirectSetup) -> String {
    let mut h = Fnv::new();
    for unit in [&setup.main, &setup.test] {
        for rel in super::direct::files_under(&dir.join(&unit.output)) {
            let meta = std::fs::metadata(dir.join(&unit.output).join(&rel)).ok();
            let modified = meta
                .as_ref()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            h.write(format!("{}\0{}\0{modified}\n", rel.display(), meta.map_or(0, |m| m.len())).as_bytes());
        }
    }
    format!("{:016x}", h.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_matched_as_whole_identifiers() {
        assert!(names_word("new Invoice(1)", "Invoice"));
        assert!(names_word("Invoice", "Invoice"));
        assert!(!names_word("InvoiceService s", "Invoice"));
        assert!(!names_word("myInvoice", "Invoice"));
        assert_eq!(simple_name("a/b/Foo$Bar$1"), "Foo");
        assert_eq!(simple_name("Foo"), "Foo");
    }
}
