//! The semantic half of retrieval: all-MiniLM-L6-v2 sentence embeddings, loaded offline.
//!
//! The model is a folder of plain files (`model.onnx`, `tokenizer.json`, `config.json`,
//! `special_tokens_map.json`, `tokenizer_config.json`) plus ONNX Runtime's shared library, which
//! fastembed loads at run time (`ort-load-dynamic`): nothing is downloaded by mantra. The folder
//! is `embed.model_dir`, else the user data folder's `mantra/models/all-MiniLM-L6-v2`, else the
//! one `scripts/setup.sh` fills in the source tree mantra was built from. Any of these missing or
//! broken is an [`EmbedError`] the store turns into one warning and BM25-only retrieval.
//!
//! `model.onnx` keeps its weights in int8 but multiplies in fp32. When the folder also holds
//! `model_int8.onnx` (which `scripts/setup.sh` derives from it with `scripts/quantize_model.py`:
//! the same weights, int8 matrix products) that one is loaded instead: about half the CPU per text.
//!
//! Vectors are L2-normalised (cosine = dot product) and kept in `vectors.bin` beside the records,
//! tagged with the model's fingerprint so another model re-embeds instead of mixing spaces.

use std::collections::HashMap;
use std::io::{BufWriter, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use fastembed::{InitOptionsUserDefined, Pooling, TextEmbedding, TokenizerFiles, UserDefinedEmbeddingModel};

/// The folder name of the model under a models folder.
pub const MODEL_NAME: &str = "all-MiniLM-L6-v2";
/// The ONNX Runtime library looked for in the model folder when `embed.onnxruntime` is unset.
pub const ONNXRUNTIME_FILE: &str = "libonnxruntime.so";
const MODEL_FILES: [&str; 5] =
    ["model.onnx", "tokenizer.json", "config.json", "special_tokens_map.json", "tokenizer_config.json"];
/// The faster model, preferred when present: `model.onnx` with int8 matrix products.
pub const INT8_MODEL_FILE: &str = "model_int8.onnx";
/// Tokens embedded per text: a method's words ([`Record::embedding_text`]) fit; cost grows with
/// length.
///
/// [`Record::embedding_text`]: super::Record::embedding_text
const MAX_TOKENS: usize = 128;
/// What is embedded, in the vectors' fingerprint: vectors of another version are recomputed.
/// 3: the method's facts in words (2 was the description, 1 description and code).
const TEXT_VERSION: u32 = 3;
/// Texts run through the model at once. Each run reads all the weights (90 MB once ONNX
/// Runtime has unpacked `model.onnx`'s int8 ones, 22 MB of `model_int8.onnx`), so single texts
/// waste much of a run on memory traffic.
const BATCH: usize = 32;

/// Why embeddings are unavailable. Each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("no embedding model found (looked in {looked})")]
    NotFound { looked: String },
    #[error("the embedding model folder {} lacks {file}", dir.display())]
    MissingFile { dir: PathBuf, file: String },
    #[error("cannot load ONNX Runtime from {}: {message}", path.display())]
    Runtime { path: PathBuf, message: String },
    #[error("cannot load the embedding model in {}: {message}", dir.display())]
    Model { dir: PathBuf, message: String },
    #[error("embedding failed: {0}")]
    Embed(String),
}

impl EmbedError {
    /// What the user can do about it.
    pub fn fix(&self) -> &'static str {
        match self {
            EmbedError::NotFound { .. } | EmbedError::MissingFile { .. } => {
                "run scripts/setup.sh --no-build, or set embed.model_dir to a folder holding model.onnx, its tokenizer files and libonnxruntime.so (see README, Example store)"
            }
            EmbedError::Runtime { .. } => {
                "set embed.onnxruntime to a libonnxruntime.so of ONNX Runtime 1.24 or newer (scripts/setup.sh fetches one)"
            }
            EmbedError::Model { .. } => "re-run scripts/setup.sh --no-build after deleting the model folder",
            EmbedError::Embed(_) => "retry with --mode bm25",
        }
    }
}

/// Where the model's files are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFiles {
    pub dir: PathBuf,
    pub onnxruntime: PathBuf,
}

impl ModelFiles {
    /// The ONNX file to load: the int8 one when setup made it, else the original.
    pub fn model_file(&self) -> &'static str {
        if self.dir.join(INT8_MODEL_FILE).is_file() { INT8_MODEL_FILE } else { MODEL_FILES[0] }
    }
}

/// The model folders looked in when `embed.model_dir` is unset, in order: the user data folder's,
/// then the one `scripts/setup.sh` fills beside the sources mantra was built from.
pub fn default_model_dirs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(data) = super::data_home() {
        out.push(data.join("mantra/models").join(MODEL_NAME));
    }
    out.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".mantra-models").join(MODEL_NAME));
    out
}

/// The model files: in `model_dir` if given (it must hold them), else in the first default folder
/// that exists. The runtime is `onnxruntime` if given, else `libonnxruntime.so` in the folder.
pub fn locate(model_dir: Option<&Path>, onnxruntime: Option<&Path>) -> Result<ModelFiles, EmbedError> {
    let dir = match model_dir {
        Some(d) => d.to_path_buf(),
        None => {
            let candidates = default_model_dirs();
            match candidates.iter().find(|d| d.is_dir()) {
                Some(d) => d.clone(),
                None => {
                    let looked = candidates.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ");
                    return Err(EmbedError::NotFound { looked });
                }
            }
        }
    };
    if !dir.is_dir() {
        return Err(EmbedError::NotFound { looked: dir.display().to_string() });
    }
    for f in MODEL_FILES {
        if !dir.join(f).is_file() {
            return Err(EmbedError::MissingFile { dir, file: f.into() });
        }
    }
    let onnxruntime = match onnxruntime {
        Some(p) => p.to_path_buf(),
        None => {
            let p = dir.join(ONNXRUNTIME_FILE);
            if !p.is_file() {
                return Err(EmbedError::MissingFile { dir, file: ONNXRUNTIME_FILE.into() });
            }
            p
        }
    };
    Ok(ModelFiles { dir, onnxruntime })
}

/// A loaded embedding model.
pub struct Embedder {
    // fastembed's `embed` takes `&mut self`; queries are one at a time anyway.
    model: Mutex<TextEmbedding>,
    fingerprint: String,
}

impl Embedder {
    /// Loads ONNX Runtime and the model, running on `threads` threads.
    pub fn load(files: &ModelFiles, threads: usize) -> Result<Embedder, EmbedError> {
        let read = |name: &str| {
            std::fs::read(files.dir.join(name))
                .map_err(|e| EmbedError::Model { dir: files.dir.clone(), message: format!("{name}: {e}") })
        };
        let model_file = files.model_file();
        let onnx = read(model_file)?;
        let tokenizer = TokenizerFiles {
            tokenizer_file: read("tokenizer.json")?,
            config_file: read("config.json")?,
            special_tokens_map_file: read("special_tokens_map.json")?,
            tokenizer_config_file: read("tokenizer_config.json")?,
        };
        // The file's name, length and leading megabyte tell models apart without hashing all of it
        // on every load.
        let fingerprint = format!(
            "{MODEL_NAME}:{model_file}:{}:{}:text{TEXT_VERSION}:{MAX_TOKENS}",
            super::describe::content_hash(&String::from_utf8_lossy(&onnx[..onnx.len().min(1 << 20)])),
            onnx.len()
        );
        let runtime = files.onnxruntime.clone();
        let dir = files.dir.clone();
        // ort panics (rather than erring) on some broken libraries; a broken model folder must
        // only cost the embeddings, never the command.
        let loaded = std::panic::catch_unwind(move || -> Result<TextEmbedding, EmbedError> {
            if !runtime.is_file() {
                return Err(EmbedError::Runtime { path: runtime.clone(), message: "no such file".into() });
            }
            let _ = ort::init_from(&runtime)
                .map_err(|e| EmbedError::Runtime { path: runtime.clone(), message: e.to_string() })?;
            let model = UserDefinedEmbeddingModel::new(onnx, tokenizer).with_pooling(Pooling::Mean);
            // ONNX Runtime's workers spin while waiting by default; on a shared machine (other
            // processes on the same cores) spinning threads starve each other.
            let options = InitOptionsUserDefined::new()
                .with_max_length(MAX_TOKENS)
                .with_intra_threads(threads.max(1))
                .with_session_config("session.intra_op.allow_spinning", "0");
            TextEmbedding::try_new_from_user_defined(model, options)
                .map_err(|e| EmbedError::Model { dir: dir.clone(), message: e.to_string() })
        });
        let model = match loaded {
            Ok(r) => r?,
            Err(panic) => {
                let message =
                    crate::error::panic_message(panic.as_ref()).unwrap_or_else(|| "ONNX Runtime failed".into());
                return Err(EmbedError::Runtime { path: files.onnxruntime.clone(), message });
            }
        };
        Ok(Embedder { model: Mutex::new(model), fingerprint })
    }

    /// Identifies the model, so vectors of another model are not mixed in.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// Unit vectors for `texts`, in order.
    pub fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        // A batch is padded to its longest text; texts of like length batched together waste
        // little on padding (mean pooling ignores it, so the vectors do not change).
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len());
        let sorted: Vec<&str> = order.iter().map(|&i| texts[i].as_str()).collect();
        let mut model = self.model.lock().map_err(|_| EmbedError::Embed("the model lock is poisoned".into()))?;
        let vectors = model.embed(&sorted, Some(BATCH)).map_err(|e| EmbedError::Embed(e.to_string()))?;
        let mut out = vec![Vec::new(); texts.len()];
        for (i, mut v) in order.into_iter().zip(vectors) {
            normalize(&mut v);
            out[i] = v;
        }
        Ok(out)
    }
}

fn normalize(v: &mut [f32]) {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
}

const VECTORS_MAGIC: &str = "mantra-vectors 1";

/// The stored vectors of one store, by record id.
#[derive(Debug, Default)]
pub struct Vectors {
    pub fingerprint: String,
    pub by_id: HashMap<String, Vec<f32>>,
}

impl Vectors {
    /// Reads `path`; `Ok(None)` when it does not exist, `Err` with a reason when it is unreadable.
    pub fn read(path: &Path) -> Result<Option<Vectors>, String> {
        let mut bytes = Vec::new();
        match std::fs::File::open(path) {
            Ok(mut f) => f.read_to_end(&mut bytes).map_err(|e| e.to_string())?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.to_string()),
        };
        let nl = bytes.iter().position(|&b| b == b'\n').ok_or("no header")?;
        let header = std::str::from_utf8(&bytes[..nl]).map_err(|_| "the header is not text")?;
        let rest = header.strip_prefix(VECTORS_MAGIC).ok_or("not a mantra vectors file")?.trim();
        let (fingerprint, dim) = rest.rsplit_once(' ').ok_or("no dimension in the header")?;
        let dim: usize = dim.parse().map_err(|_| "bad dimension")?;
        let mut by_id = HashMap::new();
        let mut at = nl + 1;
        let take = |at: &mut usize, n: usize| -> Result<&[u8], String> {
            let s = bytes.get(*at..*at + n).ok_or("truncated")?;
            *at += n;
            Ok(s)
        };
        while at < bytes.len() {
            let len = u32::from_le_bytes(take(&mut at, 4)?.try_into().map_err(|_| "truncated")?) as usize;
            let id = String::from_utf8(take(&mut at, len)?.to_vec()).map_err(|_| "an id is not text")?;
            let raw = take(&mut at, dim * 4)?;
            let v = raw.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            by_id.insert(id, v);
        }
        Ok(Some(Vectors { fingerprint: fingerprint.to_string(), by_id }))
    }

    /// Writes every vector (replacing the file; a crash leaves the old one, via a rename).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let dim = self.by_id.values().next().map_or(0, Vec::len);
        let tmp = path.with_extension("bin.tmp");
        {
            let mut w = BufWriter::new(std::fs::File::create(&tmp)?);
            writeln!(w, "{VECTORS_MAGIC} {} {dim}", self.fingerprint)?;
            let mut ids: Vec<&String> = self.by_id.keys().collect();
            ids.sort();
            for id in ids {
                w.write_all(&(id.len() as u32).to_le_bytes())?;
                w.write_all(id.as_bytes())?;
                for x in &self.by_id[id] {
                    w.write_all(&x.to_le_bytes())?;
                }
            }
            w.flush()?;
        }
        std::fs::rename(tmp, path)
    }
}

/// Dot product of two unit vectors: their cosine.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_round_trip_and_reject_garbage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vectors.bin");
        assert!(Vectors::read(&path).unwrap().is_none());
        let mut v = Vectors { fingerprint: "m:abc:12".into(), by_id: HashMap::new() };
        v.by_id.insert("a".into(), vec![1.0, 0.0]);
        v.by_id.insert("b:ü".into(), vec![0.6, 0.8]);
        v.write(&path).unwrap();
        let back = Vectors::read(&path).unwrap().unwrap();
        assert_eq!(back.fingerprint, "m:abc:12");
        assert_eq!(back.by_id, v.by_id);
        std::fs::write(&path, b"garbage").unwrap();
        assert!(Vectors::read(&path).is_err());
        let mut bytes = std::fs::read(dir.path().join("vectors.bin")).unwrap();
        bytes.clear();
        bytes.extend_from_slice(b"mantra-vectors 1 m 2\n\x05\x00\x00\x00ab");
        std::fs::write(&path, bytes).unwrap();
        assert_eq!(Vectors::read(&path).unwrap_err(), "truncated");
    }

    #[test]
    fn a_configured_folder_must_hold_the_files() {
        let dir = tempfile::tempdir().unwrap();
        let err = locate(Some(dir.path()), None).unwrap_err();
        assert!(matches!(&err, EmbedError::MissingFile { file, .. } if file == "model.onnx"), "{err}");
        for f in MODEL_FILES {
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        let err = locate(Some(dir.path()), None).unwrap_err();
        assert!(matches!(&err, EmbedError::MissingFile { file, .. } if file == ONNXRUNTIME_FILE), "{err}");
        let rt = dir.path().join("elsewhere.so");
        let files = locate(Some(dir.path()), Some(&rt)).unwrap();
        assert_eq!(files.onnxruntime, rt);
        assert_eq!(files.model_file(), "model.onnx");
        std::fs::write(dir.path().join(INT8_MODEL_FILE), "x").unwrap();
        assert_eq!(files.model_file(), INT8_MODEL_FILE);
        assert!(matches!(locate(Some(&dir.path().join("nope")), None), Err(EmbedError::NotFound { .. })));
    }
}
