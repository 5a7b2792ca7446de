//! The example store: pure refactorings the Developer agent is shown as few-shot examples, and
//! the hybrid retrieval that picks them.
//!
//! MANTRA's retrieval of similar pure refactorings was worth 40% of its successes. A store is a
//! folder (`.mantra/store` in the repository, or `store.dir`):
//!
//! ```text
//! records.jsonl     one Record per line: the source of truth
//! files/<blob>.java whole files before/after, once each, by git blob id
//! index/VERSION     the index schema version; another version rebuilds the index
//! index/bm25/       tantivy BM25 index over description + code (bm25.rs)
//! vectors.bin       all-MiniLM-L6-v2 unit vectors by record id (embed.rs)
//! descriptions.jsonl model descriptions by prompt hash (describe.rs)
//! ```
//!
//! Everything but the records and files is derived and rebuilt when missing, stale or corrupt,
//! with a [`Notice`] saying so. A query is ranked by BM25 and by cosine similarity, each filtered
//! by refactoring type, and the lists are fused by Reciprocal Rank Fusion ([`fusion`]).

pub mod bm25;
pub mod describe;
pub mod embed;
mod examples;
pub mod fusion;
pub mod import;
pub mod mine;
pub mod record;

use std::collections::{HashMap, HashSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

pub use describe::{DescriptionCache, summary};
pub use embed::{EmbedError, Embedder, ModelFiles};
pub use examples::{Example, Examples, NoExamples};
pub use record::{DescriptionSource, FileRef, Provenance, Record};

use crate::detect::RefactoringType;
use bm25::Bm25;
use embed::Vectors;

/// The index layout's version. Bump it when the schema, the tokenizer or what is indexed changes:
/// an index of another version is rebuilt (and the user told).
pub const INDEX_VERSION: u32 = 1;
/// How many examples the Developer agent gets by default.
pub const DEFAULT_K: usize = 3;
/// How deep each list is read before fusion.
const CANDIDATES: usize = 50;

/// Why the store cannot do what was asked. Each message says what was wrong.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{what} {}: {source}", path.display())]
    Io { what: &'static str, path: PathBuf, source: std::io::Error },
    #[error("the index in {} cannot be used: {message}", path.display())]
    Index { path: PathBuf, message: String },
    #[error("{}: {message}", path.display())]
    Import { path: PathBuf, message: String },
    #[error("{}: no such file or folder", path.display())]
    Missing { path: PathBuf },
    #[error("{0}")]
    Mine(String),
}

impl crate::error::Classify for StoreError {
    fn exit(&self) -> crate::exit::Exit {
        use crate::exit::Exit;
        match self {
            StoreError::Io { .. } | StoreError::Index { .. } => Exit::Internal,
            StoreError::Import { .. } => Exit::InvalidInput,
            StoreError::Missing { .. } => Exit::TargetNotFound,
            StoreError::Mine(_) => Exit::Usage,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            StoreError::Import { .. } | StoreError::Missing { .. } => Some(
                "pass PureRefactor JSON files (an array of records) or RefactoringMiner oracle folders (with expected.json, before/ and after/)"
                    .into(),
            ),
            StoreError::Index { path, .. } => Some(format!("delete {} and retry; it is rebuilt from the records", path.display())),
            StoreError::Mine(_) => Some("run inside a git repository, or pass --repo DIR".into()),
            StoreError::Io { .. } => None,
        }
    }
}

fn io<'a>(what: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> StoreError + 'a {
    move |source| StoreError::Io { what, path: path.to_path_buf(), source }
}

/// Something the user should know that is not an error: an index rebuilt, embeddings missing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notice {
    pub message: String,
    pub hint: Option<String>,
}

/// How a query is ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// BM25 over description and code only.
    Bm25,
    /// Cosine similarity of all-MiniLM-L6-v2 embeddings only.
    Embed,
    /// Both, fused by Reciprocal Rank Fusion (k = 60), the embeddings' ranks weighted
    /// [`fusion::EMBED_WEIGHT`].
    Hybrid,
}

/// A retrieval request.
#[derive(Debug, Clone)]
pub struct Query {
    /// The code to refactor, or any text (a description, method names).
    pub text: String,
    /// Only examples of this type; `None` for all.
    pub kind: Option<RefactoringType>,
    pub k: usize,
    pub mode: Mode,
}

impl Query {
    /// The Developer agent's default: top 3, hybrid.
    pub fn new(text: impl Into<String>, kind: Option<RefactoringType>) -> Query {
        Query { text: text.into(), kind, k: DEFAULT_K, mode: Mode::Hybrid }
    }
}

/// One retrieved example.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    pub record: Record,
    /// 1-based rank in the BM25 list, if it was in the first [`CANDIDATES`].
    pub bm25_rank: Option<usize>,
    pub bm25_score: Option<f32>,
    /// 1-based rank in the embedding list.
    pub embed_rank: Option<usize>,
    pub cosine: Option<f32>,
    /// The (weighted) RRF score over the lists the mode uses.
    pub fused_score: f64,
}

/// Where the embeddings come from.
#[derive(Debug, Clone, Default)]
pub enum EmbedSetting {
    /// No embeddings (BM25 only, silently).
    Off,
    /// `embed.model_dir` / `embed.onnxruntime` when set, else the default folders.
    #[default]
    Auto,
    Configured {
        model_dir: Option<PathBuf>,
        onnxruntime: Option<PathBuf>,
    },
}

/// How to open a store.
#[derive(Debug, Clone)]
pub struct StoreOptions {
    pub embed: EmbedSetting,
    /// Threads the embedding model runs on.
    pub threads: usize,
}

impl StoreOptions {
    /// How the configuration says the store is opened (the embedding model's folders).
    pub fn from_config(config: &crate::config::Config) -> StoreOptions {
        StoreOptions {
            embed: EmbedSetting::Configured {
                model_dir: config.embed.model_dir.clone(),
                onnxruntime: config.embed.onnxruntime.clone(),
            },
            ..StoreOptions::default()
        }
    }
}

impl Default for StoreOptions {
    fn default() -> Self {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        StoreOptions { embed: EmbedSetting::Auto, threads }
    }
}

/// What [`Store::add`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Added {
    pub added: usize,
    /// Records whose id was already stored and were replaced.
    pub replaced: usize,
    pub embedded: usize,
}

/// Counts for `mantra store info`.
#[derive(Debug, Clone, Serialize)]
pub struct Stats {
    pub dir: PathBuf,
    pub records: usize,
    pub by_type: Vec<(String, usize)>,
    pub by_source: Vec<(String, usize)>,
    pub indexed: u64,
    pub embedded: usize,
    pub embeddings: bool,
    pub index_version: u32,
}

/// An open store.
pub struct Store {
    dir: PathBuf,
    records: Vec<Record>,
    by_id: HashMap<String, usize>,
    bm25: Bm25,
    embedder: Option<Embedder>,
    vectors: Vectors,
    notices: Vec<Notice>,
}

impl Store {
    /// Opens the store in `dir`: reads the records, then brings the index and the vectors up to
    /// date with them (rebuilding what is stale or corrupt, with a notice).
    pub fn open_with(dir: &Path, options: &StoreOptions) -> Result<Store, StoreError> {
        crate::config::create_state_dir(dir).map_err(io("cannot create the store folder", dir))?;
        let mut notices = Vec::new();
        let records = read_records(&dir.join("records.jsonl"), &mut notices)?;
        let by_id = records.iter().enumerate().map(|(i, r)| (r.id.clone(), i)).collect();
        let bm25 = open_index(dir, &mut notices)?;
        let embedder = match &options.embed {
            EmbedSetting::Off => None,
            EmbedSetting::Auto => load_embedder(None, None, options.threads, &mut notices),
            EmbedSetting::Configured { model_dir, onnxruntime } => {
                load_embedder(model_dir.as_deref(), onnxruntime.as_deref(), options.threads, &mut notices)
            }
        };
        let mut store =
            Store { dir: dir.to_path_buf(), records, by_id, bm25, embedder, vectors: Vectors::default(), notices };
        store.reconcile_index()?;
        store.reconcile_vectors()?;
        Ok(store)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn records(&self) -> &[Record] {
        &self.records
    }

    pub fn get(&self, id: &str) -> Option<&Record> {
        self.by_id.get(id).map(|&i| &self.records[i])
    }

    /// Whether queries can use embeddings.
    pub fn has_embeddings(&self) -> bool {
        self.embedder.is_some()
    }

    /// The notices gathered since the last call (index rebuilt, embeddings unavailable, ...).
    pub fn take_notices(&mut self) -> Vec<Notice> {
        std::mem::take(&mut self.notices)
    }

    /// Keeps a whole file in `files/` and returns its reference.
    pub fn put_file(&self, path: &str, text: &str) -> Result<FileRef, StoreError> {
        let blob = describe::content_hash(text);
        let files = self.dir.join("files");
        let target = files.join(format!("{blob}.java"));
        if !target.exists() {
            std::fs::create_dir_all(&files).map_err(io("cannot create", &files))?;
            let tmp = files.join(format!("{blob}.tmp"));
            std::fs::write(&tmp, text).map_err(io("cannot write", &tmp))?;
            std::fs::rename(&tmp, &target).map_err(io("cannot write", &target))?;
        }
        Ok(FileRef { path: path.to_string(), blob: Some(blob) })
    }

    /// The text of a stored whole file, if the store has it.
    pub fn file_text(&self, file: &FileRef) -> Option<String> {
        let blob = file.blob.as_ref()?;
        std::fs::read_to_string(self.dir.join("files").join(format!("{blob}.java"))).ok()
    }

    /// Adds records (a record whose id is stored replaces it), then indexes and embeds them.
    pub fn add(&mut self, new: Vec<Record>) -> Result<Added, StoreError> {
        let mut added = Added::default();
        let mut changed: Vec<String> = Vec::new();
        for r in new {
            match self.by_id.get(&r.id) {
                Some(&i) => {
                    if self.records[i] != r {
                        self.records[i] = r.clone();
                        changed.push(r.id);
                        added.replaced += 1;
                    }
                }
                None => {
                    self.by_id.insert(r.id.clone(), self.records.len());
                    changed.push(r.id.clone());
                    self.records.push(r);
                    added.added += 1;
                }
            }
        }
        if changed.is_empty() {
            return Ok(added);
        }
        self.write_records()?;
        let (records, by_id) = (&self.records, &self.by_id);
        let to_index: Vec<&Record> = changed.iter().filter_map(|id| by_id.get(id).map(|&i| &records[i])).collect();
        let index_dir = self.dir.join("index/bm25");
        self.bm25.update(&to_index, &[]).map_err(|e| StoreError::Index { path: index_dir, message: e.to_string() })?;
        for id in &changed {
            self.vectors.by_id.remove(id);
        }
        added.embedded = self.reconcile_vectors()?;
        Ok(added)
    }

    fn write_records(&self) -> Result<(), StoreError> {
        let path = self.dir.join("records.jsonl");
        let tmp = self.dir.join("records.jsonl.tmp");
        {
            let f = std::fs::File::create(&tmp).map_err(io("cannot write", &tmp))?;
            let mut w = std::io::BufWriter::new(f);
            for r in &self.records {
                let line = serde_json::to_string(r).map_err(|e| StoreError::Io {
                    what: "cannot serialise a record for",
                    path: path.clone(),
                    source: std::io::Error::other(e),
                })?;
                writeln!(w, "{line}").map_err(io("cannot write", &tmp))?;
            }
            w.flush().map_err(io("cannot write", &tmp))?;
        }
        std::fs::rename(&tmp, &path).map_err(io("cannot write", &path))
    }

    /// Makes the index hold exactly the records: adds the missing, drops the extra. An index that
    /// cannot be listed is rebuilt.
    fn reconcile_index(&mut self) -> Result<(), StoreError> {
        let index_dir = self.dir.join("index/bm25");
        let indexed = match self.bm25.ids() {
            Ok(ids) => ids,
            Err(e) => {
                self.notices.push(Notice {
                    message: format!("the BM25 index in {} was unreadable ({e}); rebuilt it", index_dir.display()),
                    hint: None,
                });
                self.bm25 = rebuild_index(&self.dir)?;
                Vec::new()
            }
        };
        let indexed: HashSet<String> = indexed.into_iter().collect();
        let missing: Vec<&Record> = self.records.iter().filter(|r| !indexed.contains(&r.id)).collect();
        let extra: Vec<String> = indexed.iter().filter(|id| !self.by_id.contains_key(*id)).cloned().collect();
        self.bm25.update(&missing, &extra).map_err(|e| StoreError::Index { path: index_dir, message: e.to_string() })
    }

    /// Reads the vectors and embeds the records that lack one. Returns how many were embedded.
    /// Embedding failures cost the embeddings (a notice), not the command.
    fn reconcile_vectors(&mut self) -> Result<usize, StoreError> {
        let Some(embedder) = &self.embedder else { return Ok(0) };
        let path = self.dir.join("vectors.bin");
        if self.vectors.fingerprint.is_empty() {
            match Vectors::read(&path) {
                Ok(Some(v)) if v.fingerprint == embedder.fingerprint() => self.vectors = v,
                Ok(Some(_)) => self.notices.push(Notice {
                    message: "the stored embeddings were made by another model; re-embedding every record".into(),
                    hint: None,
                }),
                Ok(None) => {}
                Err(e) => self.notices.push(Notice {
                    message: format!("{} was unreadable ({e}); re-embedding every record", path.display()),
                    hint: None,
                }),
            }
            self.vectors.fingerprint = embedder.fingerprint().to_string();
        }
        let before = self.vectors.by_id.len();
        self.vectors.by_id.retain(|id, _| self.by_id.contains_key(id));
        let dropped = before != self.vectors.by_id.len();
        let missing: Vec<&Record> = self.records.iter().filter(|r| !self.vectors.by_id.contains_key(&r.id)).collect();
        if missing.is_empty() && !dropped {
            return Ok(0);
        }
        let texts: Vec<String> = missing.iter().map(|r| r.embedding_text()).collect();
        let ids: Vec<String> = missing.iter().map(|r| r.id.clone()).collect();
        match embedder.embed(&texts) {
            Ok(vs) => {
                for (id, v) in ids.iter().zip(vs) {
                    self.vectors.by_id.insert(id.clone(), v);
                }
            }
            Err(e) => {
                self.notices
                    .push(Notice { message: format!("{e}; searching with BM25 only"), hint: Some(e.fix().into()) });
                self.embedder = None;
                return Ok(0);
            }
        }
        self.vectors.write(&path).map_err(io("cannot write", &path))?;
        Ok(ids.len())
    }

    /// The mode a query will actually use: without embeddings, BM25.
    pub fn effective_mode(&self, mode: Mode) -> Mode {
        if self.embedder.is_none() { Mode::Bm25 } else { mode }
    }

    /// The `query.k` best examples. Without embeddings every mode is BM25 (the store's notices
    /// said why when it was opened).
    pub fn search(&self, query: &Query) -> Result<Vec<Hit>, StoreError> {
        let mode = self.effective_mode(query.mode);
        let depth = CANDIDATES.max(query.k);
        let mut lists: Vec<Vec<String>> = Vec::new();
        let mut bm25_scores: HashMap<String, f32> = HashMap::new();
        let mut cosines: HashMap<String, f32> = HashMap::new();
        let use_bm25 = mode != Mode::Embed;
        let use_embed = mode != Mode::Bm25;
        if use_bm25 {
            let found = self
                .bm25
                .search(&query.text, query.kind, depth)
                .map_err(|e| StoreError::Index { path: self.dir.join("index/bm25"), message: e.to_string() })?;
            lists.push(found.iter().map(|(id, _)| id.clone()).collect());
            bm25_scores.extend(found);
        }
        if use_embed && let Some(embedder) = &self.embedder {
            let q = embedder
                .embed(&[describe::query_text(&query.text)])
                .map_err(|e| StoreError::Index { path: self.dir.join("vectors.bin"), message: e.to_string() })?;
            let q = q.into_iter().next().unwrap_or_default();
            let mut scored: Vec<(&str, f32)> = self
                .records
                .iter()
                .filter(|r| query.kind.is_none_or(|k| r.kind == k))
                .filter_map(|r| self.vectors.by_id.get(&r.id).map(|v| (r.id.as_str(), embed::cosine(&q, v))))
                .collect();
            scored.sort_by(|a, b| b.1.total_cmp(&a.1));
            scored.truncate(depth);
            lists.push(scored.iter().map(|(id, _)| id.to_string()).collect());
            cosines.extend(scored.into_iter().map(|(id, c)| (id.to_string(), c)));
        }
        let weights: &[f64] = if use_bm25 { &[1.0, fusion::EMBED_WEIGHT] } else { &[1.0] };
        let fused = fusion::fuse_weighted(&lists, weights);
        let embed_list = if use_bm25 { 1 } else { 0 };
        Ok(fused
            .into_iter()
            .take(query.k)
            .filter_map(|f| {
                let record = self.get(&f.id)?.clone();
                Some(Hit {
                    bm25_rank: if use_bm25 { f.ranks[0] } else { None },
                    bm25_score: bm25_scores.get(&f.id).copied(),
                    embed_rank: if use_embed { f.ranks.get(embed_list).copied().flatten() } else { None },
                    cosine: cosines.get(&f.id).copied(),
                    fused_score: f.score,
                    record,
                })
            })
            .collect())
    }

    /// The Developer agent's query (`search_similar_refactorings`): the top `k` examples of
    /// `kind` for `text`, hybrid (BM25 alone without a model).
    pub fn examples_for(
        &self,
        text: &str,
        kind: crate::refactoring::RefactoringKind,
        k: usize,
    ) -> Result<Vec<Hit>, StoreError> {
        let kind = crate::detect::RefactoringType::from(kind);
        self.search(&Query { text: text.to_string(), kind: Some(kind), k, mode: Mode::Hybrid })
    }

    pub fn stats(&self) -> Stats {
        let mut by_type: HashMap<String, usize> = HashMap::new();
        let mut by_source: HashMap<String, usize> = HashMap::new();
        for r in &self.records {
            *by_type.entry(r.kind.display_name().to_string()).or_default() += 1;
            *by_source.entry(r.provenance.source.clone()).or_default() += 1;
        }
        let sorted = |m: HashMap<String, usize>| {
            let mut v: Vec<(String, usize)> = m.into_iter().collect();
            v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            v
        };
        Stats {
            dir: self.dir.clone(),
            records: self.records.len(),
            by_type: sorted(by_type),
            by_source: sorted(by_source),
            indexed: self.bm25.len(),
            embedded: self.vectors.by_id.len(),
            embeddings: self.embedder.is_some(),
            index_version: INDEX_VERSION,
        }
    }
}

/// The records of `records.jsonl`; lines that are not records are skipped with a notice (the
/// rest of the store stays usable).
fn read_records(path: &Path, notices: &mut Vec<Notice>) -> Result<Vec<Record>, StoreError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(StoreError::Io { what: "cannot read", path: path.to_path_buf(), source: e }),
    };
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut bad: Vec<String> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Record>(line) {
            Ok(r) if seen.insert(r.id.clone()) => out.push(r),
            Ok(_) => {}
            Err(e) => bad.push(format!("line {}: {e}", n + 1)),
        }
    }
    if let Some(first) = bad.first() {
        notices.push(Notice {
            message: format!("skipped {} line(s) of {} that are not records ({first})", bad.len(), path.display()),
            hint: Some("fix or delete those lines; the next import rewrites the file without them".into()),
        });
    }
    Ok(out)
}

fn version_file(dir: &Path) -> PathBuf {
    dir.join("index/VERSION")
}

/// Opens the BM25 index, rebuilding it (with a notice) when its version differs or it is corrupt.
fn open_index(dir: &Path, notices: &mut Vec<Notice>) -> Result<Bm25, StoreError> {
    let index_dir = dir.join("index/bm25");
    let version = std::fs::read_to_string(version_file(dir)).ok();
    let expected = format!("mantra-store-index {INDEX_VERSION}");
    match version.as_deref().map(str::trim) {
        Some(v) if v == expected => {}
        Some(v) => {
            notices.push(Notice {
                message: format!(
                    "the store's index has another schema ({v}, this mantra writes {expected}); rebuilding it from the records"
                ),
                hint: None,
            });
            return rebuild_index(dir);
        }
        None if index_dir.exists() => {
            notices.push(Notice {
                message: format!("the store's index has no version file; rebuilding {}", index_dir.display()),
                hint: None,
            });
            return rebuild_index(dir);
        }
        None => return rebuild_index(dir),
    }
    // tantivy may panic on some damaged files rather than return an error.
    match std::panic::catch_unwind(|| Bm25::open_or_create(&index_dir)) {
        Ok(Ok(b)) => Ok(b),
        Ok(Err(e)) => {
            notices.push(Notice {
                message: format!(
                    "the BM25 index in {} was corrupt ({e}); rebuilt it from the records",
                    index_dir.display()
                ),
                hint: None,
            });
            rebuild_index(dir)
        }
        Err(_) => {
            notices.push(Notice {
                message: format!("the BM25 index in {} was corrupt; rebuilt it from the records", index_dir.display()),
                hint: None,
            });
            rebuild_index(dir)
        }
    }
}

/// An empty index of the current version (the caller fills it from the records).
fn rebuild_index(dir: &Path) -> Result<Bm25, StoreError> {
    let index = dir.join("index");
    if index.exists() {
        std::fs::remove_dir_all(&index).map_err(io("cannot remove the old index", &index))?;
    }
    std::fs::create_dir_all(&index).map_err(io("cannot create", &index))?;
    let bm25 = Bm25::open_or_create(&index.join("bm25"))
        .map_err(|e| StoreError::Index { path: index.join("bm25"), message: e.to_string() })?;
    let vf = version_file(dir);
    std::fs::write(&vf, format!("mantra-store-index {INDEX_VERSION}\n")).map_err(io("cannot write", &vf))?;
    Ok(bm25)
}

fn load_embedder(
    model_dir: Option<&Path>,
    onnxruntime: Option<&Path>,
    threads: usize,
    notices: &mut Vec<Notice>,
) -> Option<Embedder> {
    let loaded = embed::locate(model_dir, onnxruntime).and_then(|files| Embedder::load(&files, threads));
    match loaded {
        Ok(e) => Some(e),
        Err(e) => {
            notices.push(Notice { message: format!("{e}; retrieval uses BM25 only"), hint: Some(e.fix().to_string()) });
            None
        }
    }
}

/// The store folder for a repository: `store.dir` if configured, else `.mantra/store` in it.
pub fn store_dir(repo: &Path, configured: Option<&Path>) -> PathBuf {
    match configured {
        Some(d) => d.to_path_buf(),
        None => repo.join(".mantra/store"),
    }
}

/// The user-wide store: `$XDG_DATA_HOME/mantra/store` (else `~/.local/share/mantra/store`).
pub fn user_store_dir() -> Option<PathBuf> {
    Some(data_home()?.join("mantra/store"))
}

/// The user's data folder: `XDG_DATA_HOME` when absolute, else `~/.local/share`.
pub(crate) fn data_home() -> Option<PathBuf> {
    std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, kind: RefactoringType, code: &str) -> Record {
        let mut r = Record {
            id: id.into(),
            kind,
            refactoring: format!("{}\tx", kind.display_name()),
            code_before: code.into(),
            code_after: String::new(),
            file_before: FileRef { path: "A.java".into(), blob: None },
            file_after: FileRef { path: "A.java".into(), blob: None },
            package: "p".into(),
            class_name: "p.A".into(),
            class_signature: "class A".into(),
            method: "p.A#m".into(),
            callers: Vec::new(),
            callees: Vec::new(),
            description: String::new(),
            description_source: DescriptionSource::Summary,
            provenance: Provenance {
                source: "test".into(),
                repository: "r".into(),
                commit: "c".into(),
                unique_id: id.into(),
            },
        };
        r.description = summary(&r);
        r
    }

    fn off() -> StoreOptions {
        StoreOptions { embed: EmbedSetting::Off, threads: 1 }
    }

    fn ids(hits: &[Hit]) -> Vec<&str> {
        hits.iter().map(|h| h.record.id.as_str()).collect()
    }

    #[test]
    fn incremental_updates_follow_the_records() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open_with(dir.path(), &off()).unwrap();
        assert!(store.take_notices().is_empty(), "a new store is quiet");
        let added = store
            .add(vec![
                record("a", RefactoringType::ExtractMethod, "void parseHeader() { readLine(); }"),
                record("b", RefactoringType::InlineMethod, "void parseHeader() { skip(); }"),
                record("c", RefactoringType::ExtractMethod, "void render() { flush(); }"),
            ])
            .unwrap();
        assert_eq!((added.added, added.replaced, added.embedded), (3, 0, 0));
        let q = Query { mode: Mode::Hybrid, ..Query::new("header", Some(RefactoringType::ExtractMethod)) };
        let hits = store.search(&q).unwrap();
        assert_eq!(ids(&hits), vec!["a"], "type-filtered, and only matching records");
        assert_eq!((hits[0].bm25_rank, hits[0].embed_rank), (Some(1), None));
        assert_eq!(store.effective_mode(Mode::Hybrid), Mode::Bm25);

        // Replacing a record reindexes it; the same record again changes nothing.
        let added = store.add(vec![record("a", RefactoringType::ExtractMethod, "void render2() { x(); }")]).unwrap();
        assert_eq!(added.replaced, 1);
        assert!(store.search(&q).unwrap().is_empty());
        let added = store.add(vec![store.get("c").unwrap().clone()]).unwrap();
        assert_eq!(added, Added::default());
        drop(store);

        // A record deleted from records.jsonl by hand leaves the index on the next open.
        let path = dir.path().join("records.jsonl");
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: Vec<&str> = text.lines().filter(|l| !l.contains(r#""id":"c""#)).collect();
        std::fs::write(&path, kept.join("\n")).unwrap();
        let mut store = Store::open_with(dir.path(), &off()).unwrap();
        assert!(store.take_notices().is_empty());
        assert_eq!(store.stats().indexed, 2);
        let render = Query::new("render", None);
        assert_eq!(ids(&store.search(&render).unwrap()), vec!["a"]);
    }

    #[test]
    fn whole_files_are_kept_once_by_content() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_with(dir.path(), &off()).unwrap();
        let a = store.put_file("x/A.java", "class A {}").unwrap();
        let b = store.put_file("y/B.java", "class A {}").unwrap();
        assert_eq!(a.blob, b.blob);
        assert_eq!(std::fs::read_dir(dir.path().join("files")).unwrap().count(), 1);
        assert_eq!(store.file_text(&b).as_deref(), Some("class A {}"));
        assert_eq!(store.file_text(&FileRef { path: "z".into(), blob: None }), None);
    }
}
