//! `mantra store`: import, mine, search and info through the real binary, with the real embedding
//! model (found where `scripts/setup.sh --no-build` puts it: these tests fail without it), and the
//! bad inputs: missing and malformed files, an empty store, a corrupt or outdated index, a model
//! folder without ONNX Runtime.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::harness::{Run, git, mantra_env, project_root};

/// The model folder `scripts/setup.sh` fills; the tests that need embeddings fail without it.
fn model_dir() -> PathBuf {
    let dir = project_root().join(".mantra-models/all-MiniLM-L6-v2");
    assert!(
        dir.join("model.onnx").is_file() && dir.join("libonnxruntime.so").is_file(),
        "the embedding model is missing from {}: run scripts/setup.sh --no-build",
        dir.display()
    );
    dir
}

/// Runs mantra in `dir` with the model configured explicitly (so HOME's data folder never matters).
fn run(dir: &Path, args: &[&str]) -> Run {
    let model = model_dir();
    mantra_env(dir, args, &[("MANTRA_EMBED_MODEL_DIR", model.to_str().unwrap()), ("HOME", dir.to_str().unwrap())])
}

/// Runs mantra with the embedding model folder set to `model` (a folder lacking files).
fn run_with_model(dir: &Path, model: &Path, args: &[&str]) -> Run {
    mantra_env(dir, args, &[("MANTRA_EMBED_MODEL_DIR", model.to_str().unwrap()), ("HOME", dir.to_str().unwrap())])
}

/// `n` PureRefactor records of pmd as a file in `dir`: the README's `getLineCount` Extract Method
/// (commit f79941e1) and the first `n - 1` others.
pub(crate) fn sample(dir: &Path, n: usize) -> PathBuf {
    let data = mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(data.join("pure-refactor/pmd_pure_refactoring_data.json")).unwrap();
    let all: Vec<Value> = serde_json::from_str(&text).unwrap();
    let is_readme = |r: &Value| r["uniqueId"].as_str().unwrap().starts_with("f79941e1");
    let mut picked: Vec<&Value> = all.iter().filter(|r| is_readme(r)).take(1).collect();
    assert_eq!(picked.len(), 1, "the README's record is in the data");
    picked.extend(all.iter().filter(|r| !is_readme(r)).take(n - 1));
    let path = dir.join("pmd_pure_refactoring_data.json");
    std::fs::write(&path, serde_json::to_string(&picked).unwrap()).unwrap();
    path
}

fn json_result(run: &Run, kind: &str) -> Value {
    run.stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["event"] == "result" && v["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} result in {run:?}"))["data"]
        .clone()
}

fn warnings(run: &Run) -> Vec<String> {
    run.stderr.lines().filter(|l| l.starts_with("warning:")).map(str::to_string).collect()
}

#[test]
fn import_then_hybrid_search_shows_both_ranks_and_the_fused_score() {
    let dir = tempfile::tempdir().unwrap();
    let file = sample(dir.path(), 12);
    let imported = run(dir.path(), &["store", "import", file.to_str().unwrap(), "--json"]);
    assert_eq!(imported.code, 0, "{imported:?}");
    assert!(warnings(&imported).is_empty(), "{imported:?}");
    let data = json_result(&imported, "store_import");
    assert_eq!(
        (data["added"].as_u64(), data["embedded"].as_u64(), data["total"].as_u64()),
        (Some(12), Some(12), Some(12))
    );
    assert!(dir.path().join(".mantra/store/records.jsonl").is_file());

    let search = run(
        dir.path(),
        &["store", "search", "getLineCount TokenEntry getTokenCount", "-t", "extract-method", "--json"],
    );
    assert_eq!(search.code, 0, "{search:?}");
    let data = json_result(&search, "store_search");
    assert_eq!(data["mode"], "hybrid");
    let hits = data["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 3);
    assert!(hits.iter().all(|h| h["record"]["type"] == "Extract Method"), "{hits:?}");
    let top = &hits[0];
    assert!(top["record"]["refactoring"].as_str().unwrap().contains("getLineCount"), "{top}");
    assert_eq!((top["bm25_rank"].as_u64(), top["embed_rank"].as_u64()), (Some(1), Some(1)), "{top}");
    let fused = top["fused_score"].as_f64().unwrap();
    // First in both lists: 1/61 from BM25 plus the embeddings' weighted 1/61.
    assert!((fused - (1.0 + mantra::store::fusion::EMBED_WEIGHT) / 61.0).abs() < 1e-9, "{fused}");
    // The description situates the code: signature, class, calls.
    let description = top["record"]["description"].as_str().unwrap();
    assert!(description.contains("in class net.sourceforge.pmd.cpd.Tokens") && description.contains("Calls: get"));

    // A second import of the same file changes nothing and embeds nothing.
    let again = run(dir.path(), &["store", "import", file.to_str().unwrap(), "--json"]);
    let data = json_result(&again, "store_import");
    assert_eq!(
        (data["added"].as_u64(), data["replaced"].as_u64(), data["embedded"].as_u64()),
        (Some(0), Some(0), Some(0))
    );

    let info = run(dir.path(), &["store", "info", "--json"]);
    let data = json_result(&info, "store_info");
    assert_eq!(
        (data["records"].as_u64(), data["indexed"].as_u64(), data["embedded"].as_u64()),
        (Some(12), Some(12), Some(12))
    );
    assert_eq!(data["embeddings"], true);
}

#[test]
fn search_modes_and_k() {
    let dir = tempfile::tempdir().unwrap();
    let file = sample(dir.path(), 10);
    assert_eq!(run(dir.path(), &["store", "import", file.to_str().unwrap()]).code, 0);
    let bm25 = run(dir.path(), &["store", "search", "getLineCount", "--mode", "bm25", "-k", "1", "--json"]);
    let data = json_result(&bm25, "store_search");
    let hits = data["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 1);
    assert!(hits[0]["embed_rank"].is_null() && hits[0]["bm25_rank"] == 1, "{hits:?}");
    let embed = run(
        dir.path(),
        &["store", "search", "count the lines between two tokens", "--mode", "embed", "-k", "2", "--json"],
    );
    let data = json_result(&embed, "store_search");
    let hits = data["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 2);
    assert!(hits[0]["bm25_rank"].is_null() && hits[0]["embed_rank"] == 1 && hits[0]["cosine"].as_f64().unwrap() > 0.0);
    let human = run(dir.path(), &["store", "search", "getLineCount", "-k", "1"]);
    assert!(human.stdout.starts_with("1. pure-refactor:pmd:f79941e1"), "{human:?}");
    assert!(human.stdout.contains("bm25 #1") && human.stdout.contains("embed #"), "{human:?}");
    assert_eq!(run(dir.path(), &["store", "search", "x", "-k", "0"]).code, 2);
}

#[test]
fn without_model_files_search_is_bm25_with_one_warning_naming_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let file = sample(dir.path(), 5);
    let empty = tempfile::tempdir().unwrap();
    let imported = run_with_model(dir.path(), empty.path(), &["store", "import", file.to_str().unwrap()]);
    assert_eq!(imported.code, 0, "{imported:?}");
    let search = run_with_model(dir.path(), empty.path(), &["store", "search", "getLineCount", "--json"]);
    assert_eq!(search.code, 0, "{search:?}");
    let w: Vec<&str> = search.stdout.lines().filter(|l| l.contains(r#""event":"warning""#)).collect();
    assert_eq!(w.len(), 1, "{search:?}");
    assert!(w[0].contains("BM25 only") && w[0].contains("scripts/setup.sh --no-build"), "{}", w[0]);
    let data = json_result(&search, "store_search");
    assert_eq!((data["requested_mode"].as_str(), data["mode"].as_str()), (Some("hybrid"), Some("bm25")));
    assert_eq!(data["hits"][0]["bm25_rank"], 1);
}

#[test]
fn a_model_folder_without_onnx_runtime_is_named_and_bm25_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let model = tempfile::tempdir().unwrap();
    for f in ["model.onnx", "tokenizer.json", "config.json", "special_tokens_map.json", "tokenizer_config.json"] {
        std::os::unix::fs::symlink(model_dir().join(f), model.path().join(f)).unwrap();
    }
    let file = sample(dir.path(), 3);
    let imported = run_with_model(dir.path(), model.path(), &["store", "import", file.to_str().unwrap()]);
    assert_eq!(imported.code, 0, "{imported:?}");
    let w = warnings(&imported);
    assert_eq!(w.len(), 1, "{imported:?}");
    assert!(w[0].contains("lacks libonnxruntime.so"), "{w:?}");
    // A file that is not a library: a clear warning, not a crash.
    std::fs::write(model.path().join("libonnxruntime.so"), b"not a library").unwrap();
    let search = run_with_model(dir.path(), model.path(), &["store", "search", "getLineCount"]);
    assert_eq!(search.code, 0, "{search:?}");
    let w = warnings(&search);
    assert_eq!(w.len(), 1, "{search:?}");
    assert!(w[0].contains("cannot load ONNX Runtime"), "{w:?}");
}

#[test]
fn corrupt_or_outdated_index_and_vectors_are_rebuilt_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let file = sample(dir.path(), 4);
    assert_eq!(run(dir.path(), &["store", "import", file.to_str().unwrap()]).code, 0);
    let store = dir.path().join(".mantra/store");

    std::fs::write(store.join("index/bm25/meta.json"), "garbage").unwrap();
    std::fs::write(store.join("vectors.bin"), "garbage").unwrap();
    let s = run(dir.path(), &["store", "search", "getLineCount", "-k", "1"]);
    assert_eq!(s.code, 0, "{s:?}");
    let w = warnings(&s);
    assert!(w.iter().any(|l| l.contains("was corrupt") && l.contains("rebuilt it")), "{w:?}");
    assert!(w.iter().any(|l| l.contains("vectors.bin was unreadable")), "{w:?}");
    assert!(s.stdout.contains("bm25 #1") && s.stdout.contains("embed #1"), "{s:?}");

    std::fs::write(store.join("index/VERSION"), "mantra-store-index 0\n").unwrap();
    let s = run(dir.path(), &["store", "info"]);
    assert!(s.stderr.contains("another schema") && s.stderr.contains("rebuilding"), "{s:?}");
    assert!(s.stdout.contains("indexed (BM25, index v1): 4"), "{s:?}");
    // Rebuilt once: the next run is quiet.
    assert!(warnings(&run(dir.path(), &["store", "info"])).is_empty());

    // A damaged record line is skipped with a warning; the rest stays searchable.
    let records = std::fs::read_to_string(store.join("records.jsonl")).unwrap();
    std::fs::write(store.join("records.jsonl"), format!("{{not json\n{records}")).unwrap();
    let s = run(dir.path(), &["store", "info"]);
    assert!(s.stderr.contains("skipped 1 line(s)") && s.stderr.contains("line 1"), "{s:?}");
    assert!(s.stdout.contains("records: 4"), "{s:?}");
}

#[test]
fn bad_inputs_are_clear_errors_and_leave_the_store_alone() {
    let dir = tempfile::tempdir().unwrap();
    let good = sample(dir.path(), 2);
    let missing = run(dir.path(), &["store", "import", good.to_str().unwrap(), "nope.json"]);
    assert_eq!(missing.code, 3, "{missing:?}");
    assert!(missing.stderr.contains("nope.json: no such file or folder"), "{missing:?}");
    assert!(!dir.path().join(".mantra/store/records.jsonl").exists(), "nothing was added");

    std::fs::write(dir.path().join("object.json"), r#"{"type": "Extract Method"}"#).unwrap();
    let object = run(dir.path(), &["store", "import", "object.json"]);
    assert_eq!(object.code, 5);
    assert!(object.stderr.contains("expected a JSON array of refactoring records"), "{object:?}");

    std::fs::write(dir.path().join("broken.json"), "[{").unwrap();
    let broken = run(dir.path(), &["store", "import", "broken.json"]);
    assert!(broken.code == 5 && broken.stderr.contains("not JSON"), "{broken:?}");

    std::fs::write(dir.path().join("fields.json"), r#"[{"type": "Extract Method"}]"#).unwrap();
    let fields = run(dir.path(), &["store", "import", "fields.json"]);
    assert!(
        fields.code == 5 && fields.stderr.contains("record 1 is not a PureRefactor record: missing field"),
        "{fields:?}"
    );

    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let folder = run(dir.path(), &["store", "import", "empty"]);
    assert!(folder.code == 5 && folder.stderr.contains("not a RefactoringMiner oracle folder"), "{folder:?}");

    let usage = run(dir.path(), &["store", "import"]);
    assert_eq!(usage.code, 2);
}

#[test]
fn an_empty_store_answers_with_nothing_and_says_how_to_fill_it() {
    let dir = tempfile::tempdir().unwrap();
    let s = run(dir.path(), &["store", "search", "anything at all"]);
    assert_eq!(s.code, 0, "{s:?}");
    assert!(s.stderr.contains("is empty") && s.stderr.contains("mantra store import"), "{s:?}");
    assert_eq!(s.stdout, "no examples found\n");
}

#[test]
fn oracle_folders_import_the_validated_pure_refactorings() {
    let data = mantra::dataset::shared_data_dir().unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    let project = data.join("refactoring-oracle/jetty.project");
    let s = run(dir.path(), &["store", "import", project.to_str().unwrap(), "--json"]);
    assert_eq!(s.code, 0, "{s:?}");
    let added = json_result(&s, "store_import")["added"].as_u64().unwrap();
    assert!(added >= 5, "{s:?}");
    let records = std::fs::read_to_string(dir.path().join(".mantra/store/records.jsonl")).unwrap();
    for line in records.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        assert_eq!(r["provenance"]["source"], "refactoring-oracle");
        assert!(!r["code_before"].as_str().unwrap().is_empty(), "{r}");
        assert!(r["code_before"].as_str().unwrap().contains('('), "code is a method: {r}");
    }
}

#[test]
fn mine_records_the_pure_refactorings_of_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    git(repo, &["init", "-q"]);
    let src = repo.join("src/main/java/a");
    std::fs::create_dir_all(&src).unwrap();
    let before = "package a;\n\npublic class Report {\n    private final StringBuilder out = new StringBuilder();\n\n    public String render(String title, int count) {\n        out.append(\"# \");\n        out.append(title);\n        out.append('\\n');\n        out.append(\"count: \");\n        out.append(count);\n        return out.toString();\n    }\n}\n";
    let after = "package a;\n\npublic class Report {\n    private final StringBuilder out = new StringBuilder();\n\n    public String render(String title, int count) {\n        header(title);\n        out.append(\"count: \");\n        out.append(count);\n        return out.toString();\n    }\n\n    private void header(String title) {\n        out.append(\"# \");\n        out.append(title);\n        out.append('\\n');\n    }\n}\n";
    std::fs::write(src.join("Report.java"), before).unwrap();
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "report"]);
    let first = git(repo, &["rev-parse", "HEAD"]).trim().to_string();
    std::fs::write(src.join("Report.java"), after).unwrap();
    git(repo, &["commit", "-qam", "extract header"]);

    let s = run(repo, &["store", "mine", "--json"]);
    assert_eq!(s.code, 0, "{s:?}");
    let data = json_result(&s, "store_mine");
    assert_eq!((data["commits"].as_u64(), data["added"].as_u64()), (Some(1), Some(1)), "{data}");
    let records = std::fs::read_to_string(repo.join(".mantra/store/records.jsonl")).unwrap();
    let r: Value = serde_json::from_str(records.lines().next().unwrap()).unwrap();
    assert_eq!(r["type"], "Extract Method");
    assert!(r["code_before"].as_str().unwrap().starts_with("    public String render("), "{r}");
    assert!(r["code_after"].as_str().unwrap().contains("private void header(String title)"), "{r}");
    assert_eq!(r["class_signature"], "public class Report");
    assert_eq!(r["package"], "a");

    // The range excludes everything: nothing new; a bad range is a clear error.
    let s = run(repo, &["store", "mine", "--range", &format!("HEAD..{first}"), "--json"]);
    assert_eq!(json_result(&s, "store_mine")["commits"], 0, "{s:?}");
    let bad = run(repo, &["store", "mine", "--range", "nope..HEAD"]);
    assert_eq!(bad.code, 2, "{bad:?}");
    assert!(bad.stderr.contains("cannot walk nope..HEAD"), "{bad:?}");
    let outside = tempfile::tempdir().unwrap();
    let s = run(outside.path(), &["store", "mine"]);
    assert!(s.code == 2 && s.stderr.contains("not a git repository"), "{s:?}");
}
