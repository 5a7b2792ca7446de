//! Reading examples from outside: PureRefactor / SWE-Refactor JSON files and RefactoringMiner
//! oracle folders.
//!
//! A PureRefactor file is a JSON array of records (fields in `shared/data/pure-refactor/README.md`);
//! every record is pure by construction. An oracle folder (`<sha>/expected.json`, `before/`,
//! `after/`, as in `shared/data/refactoring-oracle/`) only says which refactorings a human
//! validated; the built-in detector finds them in the snapshots, and only those it finds pure and
//! the oracle validated become records, with their code cut from the files.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::describe::{self, Describer};
use super::mine;
use super::record::{Provenance, Record};
use super::{Store, StoreError};
use crate::detect::{self, RefactoringType, Snapshot};

/// What an import read.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct Imported {
    pub records: Vec<Record>,
    /// Entries left out, with why (unknown type, not pure, not found by the detector).
    pub skipped: Vec<String>,
}

/// One PureRefactor record: the fields the store uses.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PureRecord {
    #[serde(rename = "type")]
    kind: String,
    description: String,
    commit_id: String,
    unique_id: String,
    file_path_before: String,
    file_path_after: String,
    source_code_before_refactoring: String,
    source_code_after_refactoring: String,
    #[serde(default)]
    source_code_before_for_whole: Option<String>,
    #[serde(default)]
    source_code_after_for_whole: Option<String>,
    #[serde(default)]
    package_name_before: String,
    #[serde(default)]
    class_name_before: String,
    #[serde(default)]
    method_name_before: String,
    #[serde(default)]
    class_signature_before: String,
}

/// Reads `path`: a PureRefactor JSON file, or an oracle folder (a commit, a project, or the root).
pub fn import_path(path: &Path, store: &Store, describer: &mut Describer) -> Result<Imported, StoreError> {
    if path.is_dir() {
        return import_oracle(path, store, describer);
    }
    if !path.is_file() {
        return Err(StoreError::Missing { path: path.to_path_buf() });
    }
    import_pure_refactor(path, store, describer)
}

/// The project a PureRefactor file is about: `pmd_pure_refactoring_data.json` → `pmd`.
pub fn project_name(path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    stem.trim_end_matches("_pure_refactoring_data").to_string()
}

fn import_pure_refactor(path: &Path, store: &Store, describer: &mut Describer) -> Result<Imported, StoreError> {
    let err = |message: String| StoreError::Import { path: path.to_path_buf(), message };
    let text = std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| err(format!("not JSON ({e})")))?;
    let serde_json::Value::Array(items) = value else {
        return Err(err("not a PureRefactor file: expected a JSON array of refactoring records".into()));
    };
    let project = project_name(path);
    let mut out = Imported::default();
    for (i, item) in items.into_iter().enumerate() {
        let p: PureRecord = serde_json::from_value(item)
            .map_err(|e| err(format!("record {} is not a PureRefactor record: {e}", i + 1)))?;
        let Some(kind) = RefactoringType::from_display_name(&p.kind) else {
            out.skipped.push(format!("{}: unknown refactoring type {:?}", p.unique_id, p.kind));
            continue;
        };
        let file_before = match &p.source_code_before_for_whole {
            Some(t) => store.put_file(&p.file_path_before, t)?,
            None => super::FileRef { path: p.file_path_before.clone(), blob: None },
        };
        let file_after = match &p.source_code_after_for_whole {
            Some(t) => store.put_file(&p.file_path_after, t)?,
            None => super::FileRef { path: p.file_path_after.clone(), blob: None },
        };
        let method_name = p.method_name_before.rsplit('#').next().unwrap_or_default().to_string();
        let callers = p
            .source_code_before_for_whole
            .as_deref()
            .map(|f| describe::callers_in_file(f, &method_name))
            .unwrap_or_default();
        let callees = describe::code_facts(&p.source_code_before_refactoring).callees;
        let mut record = Record {
            id: format!("pure-refactor:{project}:{}", p.unique_id),
            kind,
            refactoring: p.description,
            code_before: p.source_code_before_refactoring,
            code_after: p.source_code_after_refactoring,
            file_before,
            file_after,
            package: p.package_name_before,
            class_name: p.class_name_before,
            class_signature: p.class_signature_before.trim().to_string(),
            method: p.method_name_before,
            callers,
            callees,
            description: String::new(),
            description_source: super::DescriptionSource::Summary,
            provenance: Provenance {
                source: "pure-refactor".into(),
                repository: project.clone(),
                commit: p.commit_id,
                unique_id: p.unique_id,
            },
        };
        describer.fill(&mut record);
        out.records.push(record);
    }
    Ok(out)
}

/// The commit folders under `path`: itself if it has `expected.json`, else its children that do,
/// else its grandchildren (the oracle root holds project folders).
fn commit_dirs(path: &Path) -> Vec<PathBuf> {
    if path.join("expected.json").is_file() {
        return vec![path.to_path_buf()];
    }
    let children = |p: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect())
            .unwrap_or_default();
        v.sort();
        v
    };
    let direct: Vec<PathBuf> = children(path).into_iter().filter(|c| c.join("expected.json").is_file()).collect();
    if !direct.is_empty() {
        return direct;
    }
    children(path)
        .into_iter()
        .flat_map(|c| children(&c).into_iter().filter(|g| g.join("expected.json").is_file()).collect::<Vec<_>>())
        .collect()
}

#[derive(Deserialize)]
struct Expected {
    description: String,
    validation: bool,
}

fn import_oracle(path: &Path, store: &Store, describer: &mut Describer) -> Result<Imported, StoreError> {
    let commits = commit_dirs(path);
    if commits.is_empty() {
        return Err(StoreError::Import {
            path: path.to_path_buf(),
            message: "not a RefactoringMiner oracle folder: no <commit>/expected.json with before/ and after/ found"
                .into(),
        });
    }
    let mut out = Imported::default();
    for dir in commits {
        let expected_path = dir.join("expected.json");
        let text = std::fs::read_to_string(&expected_path)
            .map_err(|e| StoreError::Import { path: expected_path.clone(), message: format!("cannot read: {e}") })?;
        let expected: Vec<Expected> = serde_json::from_str(&text).map_err(|e| StoreError::Import {
            path: expected_path.clone(),
            message: format!("not an oracle expected.json (an array of {{type, description, validation}}): {e}"),
        })?;
        let validated: std::collections::HashSet<String> =
            expected.iter().filter(|e| e.validation).map(|e| e.description.replace('\t', " ")).collect();
        let read = |side: &str| {
            let p = dir.join(side);
            if p.is_dir() {
                Snapshot::read(&p).map_err(|e| StoreError::Import { path: p, message: e.to_string() })
            } else {
                Ok(Snapshot::new())
            }
        };
        let (before, after) = (read("before")?, read("after")?);
        let sha = dir.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let project =
            dir.parent().and_then(|p| p.file_name()).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        for r in detect::detect(&before, &after) {
            let label = r.description.replace('\t', " ");
            if !validated.contains(&label) {
                continue;
            }
            if !r.pure {
                out.skipped.push(format!("{sha}: {label}: not pure"));
                continue;
            }
            let provenance = Provenance {
                source: "refactoring-oracle".into(),
                repository: project.clone(),
                commit: sha.clone(),
                unique_id: String::new(),
            };
            if let Some(mut record) = mine::record_from_detected(&r, &before, &after, provenance, store)? {
                describer.fill(&mut record);
                out.records.push(record);
            }
        }
    }
    Ok(out)
}
