use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value as Json;

use super::keys::*;
use super::resolve::*;
use super::suggest::*;
use super::*;

fn leaves(v: &Json, prefix: &str, out: &mut Vec<String>) {
    match v {
        Json::Object(map) => {
            for (k, v) in map {
                let full = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                leaves(v, &full, out);
            }
        }
        _ => out.push(prefix.to_string()),
    }
}

#[test]
fn keys_match_the_struct() {
    let mut fields = Vec::new();
    leaves(&serde_json::to_value(Config::default()).unwrap(), "", &mut fields);
    fields.sort();
    let mut keys: Vec<String> = KEYS.iter().map(|k| k.name.to_string()).collect();
    keys.sort();
    assert_eq!(fields, keys);
}

#[test]
fn every_key_round_trips_a_sample_value() {
    for k in KEYS {
        let sample = match k.kind {
            Kind::Str | Kind::Path | Kind::Program => Json::String("/x/y".into()),
            Kind::UInt { min, .. } => Json::from(min.max(3)),
            Kind::Float { min, .. } => Json::from(min + 0.5),
            Kind::Choice(v) => Json::String(v[v.len() - 1].into()),
        };
        let mut merged = Json::Object(Default::default());
        json_set(&mut merged, k.name, sample.clone());
        let config: Config = serde_json::from_value(merged).unwrap_or_else(|e| panic!("{}: {e}", k.name));
        let back = serde_json::to_value(config).unwrap();
        assert_eq!(json_get(&back, k.name), Some(&sample), "{}", k.name);
    }
}

#[test]
fn env_vars_are_unique() {
    let mut vars: Vec<String> = KEYS.iter().map(Key::env_var).collect();
    vars.sort();
    vars.dedup();
    assert_eq!(vars.len(), KEYS.len());
    assert_eq!(key("llm.base_url").unwrap().env_var(), "MANTRA_LLM_BASE_URL");
    assert_eq!(key("refactoring_miner.path").unwrap().env_var(), "MANTRA_REFACTORING_MINER_PATH");
}

fn args() -> Overrides {
    Overrides::default()
}

fn env_in(dir: &Path, vars: &[(&str, &str)]) -> Environment {
    let mut map: BTreeMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    map.insert("HOME".into(), dir.join("home").to_string_lossy().into_owned());
    Environment { vars: map, cwd: dir.to_path_buf() }
}

#[test]
fn suggestions() {
    assert_eq!(suggest("llm.modle").as_deref(), Some("llm.model"));
    assert_eq!(suggest("model").as_deref(), Some("llm.model"));
    assert_eq!(suggest("lm").as_deref(), Some("llm"));
    assert_eq!(suggest("completely.different.thing"), None);
    assert_eq!(crate::text::edit_distance("kitten", "sitting"), 3);
}

#[test]
fn unknown_key_names_file_line_and_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(REPO_FILE), "[llm]\nmodel = \"m\"\n\n[build]\ntimeout_sec = 3\n").unwrap();
    let err = resolve_in(dir.path(), &args(), &env_in(dir.path(), &[])).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("`build.timeout_sec`") && text.contains("mantra.toml (line 5)"), "{text}");
    assert_eq!(err.hint().as_deref(), Some("did you mean `build.timeout_secs`?"));
}

#[test]
fn layers_and_origins() {
    let dir = tempfile::tempdir().unwrap();
    let xdg = dir.path().join("xdg");
    std::fs::create_dir_all(xdg.join("mantra")).unwrap();
    std::fs::write(xdg.join("mantra/config.toml"), "[llm]\nmodel = \"user\"\ntemperature = 1\n").unwrap();
    std::fs::write(dir.path().join(REPO_FILE), "[llm]\nmodel = \"repo\"\n[embed]\nmodel_dir = \"models\"\n").unwrap();
    let xdg_s = xdg.to_string_lossy().into_owned();
    let env = env_in(dir.path(), &[("XDG_CONFIG_HOME", &xdg_s), ("MANTRA_AGENT_MAX_STEPS", "7")]);
    let r = resolve_in(dir.path(), &args(), &env).unwrap();
    assert_eq!(r.config.llm.model.as_deref(), Some("repo"));
    assert_eq!(r.config.llm.temperature, 1.0);
    assert_eq!(r.config.agent.max_steps, 7);
    assert_eq!(r.config.embed.model_dir, Some(dir.path().join("models")));
    assert_eq!(r.origin("llm.temperature"), Some(&Origin::UserFile { path: xdg.join("mantra/config.toml") }));
    assert_eq!(r.origin("agent.max_steps"), Some(&Origin::Env { var: "MANTRA_AGENT_MAX_STEPS".into() }));
    assert_eq!(r.origin("build.timeout_secs"), Some(&Origin::Default));
    assert_eq!(r.get("build.timeout_secs").unwrap().value, Json::from(600));
}

#[test]
fn empty_env_unsets_optional_and_rejects_required() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(REPO_FILE), "[llm]\nbase_url = \"http://x\"\n").unwrap();
    let r = resolve_in(dir.path(), &args(), &env_in(dir.path(), &[("MANTRA_LLM_BASE_URL", "")])).unwrap();
    assert_eq!(r.config.llm.base_url, None);
    let err = resolve_in(dir.path(), &args(), &env_in(dir.path(), &[("MANTRA_LLM_TIMEOUT_SECS", "")])).unwrap_err();
    assert!(err.to_string().contains("MANTRA_LLM_TIMEOUT_SECS"), "{err}");
}

#[test]
fn unknown_env_vars_warn_only_when_they_look_like_config() {
    assert!(unknown_env_warning("MANTRA_LLM_MODLE").unwrap().hint.unwrap().contains("MANTRA_LLM_MODEL"));
    assert!(unknown_env_warning("MANTRA_BUILD_FOO").is_some());
    assert!(unknown_env_warning("MANTRA_SOMETHING_ELSE_ENTIRELY").is_none());
}

#[test]
fn section_given_a_scalar_is_a_type_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(REPO_FILE), "llm = 3\n").unwrap();
    let err = resolve_in(dir.path(), &args(), &env_in(dir.path(), &[])).unwrap_err();
    assert!(err.to_string().contains("expected a table ([llm]), found integer 3"), "{err}");
}

#[test]
fn prices_cost() {
    let p = Prices { prompt: Some(1.0), completion: Some(2.0) };
    assert_eq!(p.cost(1_000_000, 500_000), Some(2.0));
    assert_eq!(Prices::default().cost(1, 1), None);
}

#[test]
fn utc_stamps() {
    assert_eq!(utc_stamp(0), "19700101T000000Z");
    assert_eq!(utc_stamp(951_782_400), "20000229T000000Z");
    assert_eq!(utc_stamp(1_795_350_896), "20261122T123456Z");
}
