//! Configuration layers, as the real binary resolves them: files, environment, flags, origins, errors.
//!
//! Every run gets its own HOME and XDG_CONFIG_HOME, so the developer's own configuration never leaks in.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::harness::{Run, mantra_env};

/// A repository folder and a private home, with helpers to write each layer's file.
struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new() -> Setup {
        let setup = Setup { dir: tempfile::tempdir().unwrap() };
        std::fs::create_dir_all(setup.repo()).unwrap();
        std::fs::create_dir_all(setup.home()).unwrap();
        setup
    }
    fn repo(&self) -> PathBuf {
        self.dir.path().join("repo")
    }
    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }
    fn xdg(&self) -> PathBuf {
        self.dir.path().join("xdg")
    }
    fn user_file(&self) -> PathBuf {
        self.xdg().join("mantra/config.toml")
    }
    fn repo_file(&self) -> PathBuf {
        self.repo().join("mantra.toml")
    }
    fn extra_file(&self) -> PathBuf {
        self.dir.path().join("extra/custom.toml")
    }
    fn write(&self, path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let home = self.home().to_string_lossy().into_owned();
        let xdg = self.xdg().to_string_lossy().into_owned();
        let mut all = vec![("HOME", home.as_str()), ("XDG_CONFIG_HOME", xdg.as_str()), ("REFACTORINGMINER_HOME", "")];
        all.extend_from_slice(env);
        mantra_env(&self.repo(), args, &all)
    }
    /// `doctor --print-config --json`, parsed into key → (value, origin).
    fn print_config(&self, extra: &[&str], env: &[(&str, &str)]) -> std::collections::HashMap<String, (Value, Value)> {
        let mut args = vec!["doctor", "--print-config", "--json"];
        args.extend_from_slice(extra);
        let run = self.run(&args, env);
        assert_eq!(run.code, 0, "{run:?}");
        let line = run.stdout.lines().find(|l| l.contains("\"kind\":\"config\"")).expect("a config result");
        let event: Value = serde_json::from_str(line).unwrap();
        event["data"]["keys"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["key"].as_str().unwrap().to_string(), (e["value"].clone(), e["origin"].clone())))
            .collect()
    }
}

fn origin(kind: &str, field: &str, value: &str) -> Value {
    serde_json::json!({ "kind": kind, field: value })
}

#[test]
fn each_layer_overrides_the_one_before_and_reports_its_origin() {
    let s = Setup::new();
    s.write(&s.user_file(), "color = \"always\"\n[llm]\nmodel = \"user\"\ntemperature = 0.5\n[agent]\nmax_steps = 1\n");
    s.write(&s.repo_file(), "[llm]\nmodel = \"repo\"\n[agent]\nmax_steps = 2\n[build]\ntimeout_secs = 10\n");
    s.write(&s.extra_file(), "[agent]\nmax_steps = 3\n[build]\ntimeout_secs = 20\n[embed]\nmodel_dir = \"models\"\n");
    let extra = s.extra_file().to_string_lossy().into_owned();
    let keys = s.print_config(
        &["--config", &extra, "--color", "never"],
        &[("MANTRA_BUILD_TIMEOUT_SECS", "30"), ("MANTRA_COLOR", "auto")],
    );
    let user = s.user_file().to_string_lossy().into_owned();
    let repo = s.repo_file().canonicalize().unwrap().to_string_lossy().into_owned();

    assert_eq!(keys["llm.temperature"], (Value::from(0.5), origin("user-file", "path", &user)));
    assert_eq!(keys["llm.model"], (Value::from("repo"), origin("repo-file", "path", &repo)));
    assert_eq!(keys["agent.max_steps"], (Value::from(3), origin("config-file", "path", &extra)));
    // Relative paths are taken from the folder of the file that sets them.
    let models = s.extra_file().parent().unwrap().join("models").to_string_lossy().into_owned();
    assert_eq!(keys["embed.model_dir"], (Value::from(models), origin("config-file", "path", &extra)));
    assert_eq!(keys["build.timeout_secs"], (Value::from(30), origin("env", "var", "MANTRA_BUILD_TIMEOUT_SECS")));
    assert_eq!(keys["color"], (Value::from("never"), origin("flag", "flag", "--color")));
    assert_eq!(keys["agent.max_review_rounds"], (Value::from(5), serde_json::json!({ "kind": "default" })));
    assert_eq!(keys["llm.base_url"], (Value::Null, serde_json::json!({ "kind": "default" })));
}

#[test]
fn the_user_file_falls_back_to_home_dot_config() {
    let s = Setup::new();
    let file = s.home().join(".config/mantra/config.toml");
    s.write(&file, "[llm]\nmodel = \"from-home\"\n");
    let home = s.home().to_string_lossy().into_owned();
    let run = mantra_env(&s.repo(), &["doctor", "--print-config"], &[("HOME", &home), ("XDG_CONFIG_HOME", "")]);
    assert_eq!(run.code, 0, "{run:?}");
    let line = run.stdout.lines().find(|l| l.starts_with("llm.model ")).unwrap();
    assert!(line.contains("from-home") && line.contains(&format!("user file {}", file.display())), "{line}");
}

#[test]
fn human_print_config_is_an_aligned_table() {
    let s = Setup::new();
    s.write(&s.repo_file(), "[verify]\ntests = \"all\"\n");
    let run = s.run(&["doctor", "--print-config"], &[("MANTRA_LLM_MODEL", "m1")]);
    assert_eq!(run.code, 0, "{run:?}");
    let header = run.stdout.lines().find(|l| l.starts_with("key ")).unwrap();
    let value_col = header.find("value").unwrap();
    let origin_col = header.find("origin").unwrap();
    let row = run.stdout.lines().find(|l| l.starts_with("verify.tests ")).unwrap();
    assert_eq!(&row[value_col..value_col + 3], "all", "{row}");
    assert!(row[origin_col..].starts_with("repository file "), "{row}");
    let row = run.stdout.lines().find(|l| l.starts_with("llm.model ")).unwrap();
    assert_eq!(&row[origin_col..], "environment variable MANTRA_LLM_MODEL");
}

#[test]
fn an_unknown_key_in_any_file_is_a_usage_error_naming_key_and_file() {
    for layer in ["user", "repo", "extra"] {
        let s = Setup::new();
        let file = match layer {
            "user" => s.user_file(),
            "repo" => s.repo_file(),
            _ => s.extra_file(),
        };
        s.write(&file, "[llm]\nmodel = \"x\"\nmodle = \"y\"\n");
        let extra = s.extra_file().to_string_lossy().into_owned();
        let args: Vec<&str> =
            if layer == "extra" { vec!["--config", &extra, "doctor"] } else { vec!["doctor", "--print-config"] };
        let run = s.run(&args, &[]);
        assert_eq!(run.code, 2, "{layer}: {run:?}");
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        assert!(run.stderr.contains("unknown configuration key `llm.modle`"), "{layer}: {}", run.stderr);
        assert!(run.stderr.contains(&name) && run.stderr.contains("(line 3)"), "{layer}: {}", run.stderr);
        assert!(run.stderr.contains("did you mean `llm.model`?"), "{layer}: {}", run.stderr);
    }
}

#[test]
fn an_unknown_key_is_reported_as_a_json_error_event() {
    let s = Setup::new();
    s.write(&s.repo_file(), "promts_dir = \"p\"\n");
    let run = s.run(&["--json", "doctor"], &[]);
    assert_eq!(run.code, 2, "{run:?}");
    let event: Value = serde_json::from_str(run.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(event["event"], "error");
    assert_eq!(event["kind"], "usage");
    assert_eq!(event["hint"], "did you mean `prompts_dir`?");
}

#[test]
fn a_wrong_type_names_key_file_and_expected_type() {
    let s = Setup::new();
    s.write(&s.repo_file(), "[build]\ntimeout_secs = \"ten\"\n");
    let run = s.run(&["doctor", "--print-config"], &[]);
    assert_eq!(run.code, 2, "{run:?}");
    let expected = format!(
        "error: `build.timeout_secs` in repository file {} (line 2): expected an integer >= 1, found string \"ten\"",
        s.repo_file().canonicalize().unwrap().display()
    );
    assert_eq!(run.stderr.lines().next(), Some(expected.as_str()), "{}", run.stderr);
}

#[test]
fn a_choice_outside_its_values_lists_them() {
    let s = Setup::new();
    s.write(&s.repo_file(), "[build]\nsystem = \"ant\"\n");
    let run = s.run(&["doctor", "--print-config"], &[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("expected one of auto, maven, gradle, javac, found string \"ant\""), "{}", run.stderr);
}

#[test]
fn a_missing_config_file_is_a_usage_error() {
    let s = Setup::new();
    let run = s.run(&["--config", "nowhere.toml", "doctor", "--print-config"], &[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("configuration file") && run.stderr.contains("nowhere.toml"), "{}", run.stderr);
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
}

#[test]
fn invalid_toml_is_a_usage_error_with_the_position() {
    let s = Setup::new();
    s.write(&s.repo_file(), "[llm\nmodel = 1\n");
    let run = s.run(&["doctor", "--print-config"], &[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("is not valid TOML") && run.stderr.contains("line 1"), "{}", run.stderr);
}

#[test]
fn environment_variables_override_files_and_are_checked() {
    let s = Setup::new();
    s.write(&s.repo_file(), "[agent]\nmax_repair_attempts = 4\n");
    let keys = s.print_config(&[], &[("MANTRA_AGENT_MAX_REPAIR_ATTEMPTS", "9"), ("MANTRA_PROMPTS_DIR", "/p")]);
    assert_eq!(keys["agent.max_repair_attempts"].0, Value::from(9));
    assert_eq!(keys["prompts_dir"], (Value::from("/p"), origin("env", "var", "MANTRA_PROMPTS_DIR")));

    let run = s.run(&["doctor", "--print-config"], &[("MANTRA_LLM_TEMPERATURE", "hot")]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains(
            "`llm.temperature` in environment variable MANTRA_LLM_TEMPERATURE: expected a number from 0 to 2, found \"hot\""
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn an_unknown_config_like_variable_is_a_warning_not_an_error() {
    let s = Setup::new();
    let run = s.run(&["doctor", "--print-config"], &[("MANTRA_LLM_MODLE", "x"), ("MANTRA_LOG", "warn")]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.contains("warning: environment variable MANTRA_LLM_MODLE is not a configuration key"));
    assert!(run.stderr.contains("did you mean MANTRA_LLM_MODEL?"), "{}", run.stderr);
    assert!(!run.stderr.contains("MANTRA_LOG"), "{}", run.stderr);
}
