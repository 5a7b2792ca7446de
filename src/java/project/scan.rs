//! The scan: every file's text and package, read once without parsing, for the lookups of a
//! type by package and the substring prefilters that decide which files to parse (callers,
//! subtypes, renames).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use super::{FileId, Project, Slot, copy_error};
use crate::java::JavaError;
use crate::java::layout::declared_package;

/// The package of every file and its text, read once (no parse) for lookups and substring prefilters.
pub(in crate::java) struct Scan {
    /// Lossy for non-UTF-8 files, empty for unreadable ones (both also in `unreadable`).
    pub(in crate::java) texts: Vec<Arc<str>>,
    pub(in crate::java) packages: HashMap<String, Vec<u32>>,
    /// Files that cannot be read, or are not UTF-8, with the error a parse would give.
    pub(in crate::java) unreadable: Vec<(u32, JavaError)>,
}

impl Scan {
    /// This scan with the texts of `changes` (paths of files it holds) in place of theirs.
    pub(super) fn with_changes(&self, by_path: &HashMap<PathBuf, u32>, changes: &HashMap<PathBuf, String>) -> Scan {
        let mut scan = Scan { texts: self.texts.clone(), packages: self.packages.clone(), unreadable: Vec::new() };
        let mut changed = HashSet::new();
        for (path, text) in changes {
            let Some(&i) = by_path.get(path) else { continue };
            changed.insert(i);
            let (was, now) = (declared_package(&scan.texts[i as usize]), declared_package(text));
            if was != now {
                if let Some(files) = scan.packages.get_mut(&was.unwrap_or_default()) {
                    files.retain(|&f| f != i);
                }
                let files = scan.packages.entry(now.unwrap_or_default()).or_default();
                let at = files.partition_point(|&f| f < i);
                files.insert(at, i);
            }
            scan.texts[i as usize] = Arc::from(text.as_str());
        }
        scan.packages.retain(|_, files| !files.is_empty());
        // A text given in place of a file's is readable, whatever the file on disk is.
        scan.unreadable =
            self.unreadable.iter().filter(|(i, _)| !changed.contains(i)).map(|(i, e)| (*i, copy_error(e))).collect();
        scan
    }
}

impl Project {
    pub(in crate::java) fn scan(&self) -> &Scan {
        self.scan.get_or_init(|| {
            let read: Vec<(Arc<str>, Option<JavaError>)> = self
                .slots
                .par_iter()
                .map(|slot| match slot.parsed.get() {
                    Some(Ok(f)) => (Arc::from(f.source.text.as_str()), None),
                    Some(Err(e)) => (self.read_lossy(slot), Some(copy_error(e))),
                    None if self.overlay.contains_key(&slot.path) => {
                        (Arc::from(self.overlay[&slot.path].as_str()), None)
                    }
                    None => self.read_for_scan(slot),
                })
                .collect();
            let mut packages: HashMap<String, Vec<u32>> = HashMap::new();
            let mut texts = Vec::with_capacity(read.len());
            let mut unreadable = Vec::new();
            for (i, (text, error)) in read.into_iter().enumerate() {
                packages.entry(declared_package(&text).unwrap_or_default()).or_default().push(i as u32);
                texts.push(text);
                if let Some(e) = error {
                    unreadable.push((i as u32, e));
                }
            }
            Scan { texts, packages, unreadable }
        })
    }

    /// A file's text for the scan, with the error [`SourceFile::read`] would report for it.
    fn read_for_scan(&self, slot: &Slot) -> (Arc<str>, Option<JavaError>) {
        let disk = self.root.join(&slot.path);
        match std::fs::read(&disk) {
            Ok(bytes) => match std::str::from_utf8(&bytes) {
                Ok(text) => (Arc::from(text), None),
                Err(e) => {
                    let line = bytes[..e.valid_up_to()].iter().filter(|b| **b == b'\n').count() + 1;
                    (Arc::from(String::from_utf8_lossy(&bytes).as_ref()), Some(JavaError::NotUtf8 { path: disk, line }))
                }
            },
            Err(source) => {
                tracing::debug!("cannot read {}: {source}", slot.path.display());
                (Arc::from(""), Some(JavaError::Io { path: disk, source }))
            }
        }
    }

    fn read_lossy(&self, slot: &Slot) -> Arc<str> {
        match std::fs::read(self.root.join(&slot.path)) {
            Ok(bytes) => Arc::from(String::from_utf8_lossy(&bytes).as_ref()),
            Err(_) => Arc::from(""),
        }
    }

    /// Files whose text contains `needle`: the cheap prefilter before parsing for callers and subtypes.
    pub fn files_containing(&self, needle: &str) -> Vec<FileId> {
        let scan = self.scan();
        scan.texts.par_iter().enumerate().filter(|(_, t)| t.contains(needle)).map(|(i, _)| FileId(i as u32)).collect()
    }

    /// Files whose text contains every one of `needles`, in one pass.
    pub fn files_containing_all(&self, needles: &[&str]) -> Vec<FileId> {
        let scan = self.scan();
        scan.texts
            .par_iter()
            .enumerate()
            .filter(|(_, t)| needles.iter().all(|n| t.contains(n)))
            .map(|(i, _)| FileId(i as u32))
            .collect()
    }

    /// [`Project::files_containing`], case aside (`needle` in lower case): a word of an
    /// identifier is written `count`, `Count` or `COUNT`.
    pub fn files_containing_ignore_case(&self, needle: &str) -> Vec<FileId> {
        let scan = self.scan();
        let needle = needle.to_lowercase();
        scan.texts
            .par_iter()
            .enumerate()
            .filter(|(_, t)| t.to_lowercase().contains(&needle))
            .map(|(i, _)| FileId(i as u32))
            .collect()
    }

    /// The files declaring `package` (empty: the default package), main and test roots alike.
    pub fn files_in_package(&self, package: &str) -> Vec<FileId> {
        self.scan().packages.get(package).map(|fs| fs.iter().map(|&f| FileId(f)).collect()).unwrap_or_default()
    }

    /// Whether some file of the project declares `package` (empty: the default package).
    pub fn has_package(&self, package: &str) -> bool {
        self.scan().packages.contains_key(package)
    }
}
