//! `mantra doctor` against the real tools installed here (Java 17, Maven, Gradle, Checkstyle).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::harness::{Run, mantra_env};

/// A temporary Maven project with a private home.
fn maven_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("repo/src/main/java")).unwrap();
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    std::fs::write(dir.path().join("repo/pom.xml"), "<project><modelVersion>4.0.0</modelVersion></project>\n").unwrap();
    dir
}

fn doctor(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let home = dir.join("home").to_string_lossy().into_owned();
    let mut all = vec![("HOME", home.as_str()), ("XDG_CONFIG_HOME", home.as_str()), ("REFACTORINGMINER_HOME", "")];
    all.extend_from_slice(env);
    let mut full = vec!["doctor"];
    full.extend_from_slice(args);
    mantra_env(&dir.join("repo"), &full, &all)
}

fn checks(run: &Run) -> Vec<Value> {
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one result: {}", run.stdout);
    let event: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!((event["event"].as_str(), event["kind"].as_str()), (Some("result"), Some("doctor")));
    event["data"]["checks"].as_array().unwrap().clone()
}

fn check<'a>(checks: &'a [Value], name: &str) -> &'a Value {
    checks.iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("no check {name}: {checks:?}"))
}

#[test]
fn a_maven_project_with_every_tool_installed_is_healthy() {
    let dir = maven_project();
    let run = doctor(dir.path(), &["--json"], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    let checks = checks(&run);
    for name in ["java", "javac", "mvn"] {
        let c = check(&checks, name);
        assert_eq!((c["status"].as_str(), c["required"].as_bool()), (Some("ok"), Some(true)), "{c}");
        assert!(c["version"].as_str().is_some_and(|v| v.chars().next().unwrap().is_ascii_digit()), "{c}");
    }
    assert_eq!(check(&checks, "java")["version"].as_str().map(|v| v.starts_with("17")), Some(true));
    assert_eq!(check(&checks, "checkstyle")["version"], "8.36.1");
    assert_eq!(check(&checks, "RefactoringMiner")["detail"], "not configured: the built-in detector is used");
    assert_eq!(check(&checks, "llm")["detail"], "none: the heuristic planner is used");
    // embed.model_dir unset: the model scripts/setup.sh --no-build put beside the sources.
    let embeddings = check(&checks, "embeddings");
    assert_eq!(embeddings["status"], "ok", "{embeddings}");
    assert!(embeddings["detail"].as_str().unwrap().contains("all-MiniLM-L6-v2"), "{embeddings}");
}

#[test]
fn human_output_lists_every_check() {
    let dir = maven_project();
    let run = doctor(dir.path(), &[], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    for name in ["java", "javac", "mvn", "gradle", "checkstyle", "RefactoringMiner", "llm", "api key", "embeddings"] {
        assert!(run.stdout.lines().any(|l| l.contains(&format!(" {name} "))), "{name}: {}", run.stdout);
    }
    assert!(run.stdout.lines().any(|l| l.trim_start().starts_with("ok") && l.contains(" mvn ")), "{}", run.stdout);
    assert!(run.stdout.ends_with("All required tools are present.\n"), "{}", run.stdout);
}

/// A PATH holding only java and javac (and sh, which the launchers need).
fn path_without_maven(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["java", "javac", "sh"] {
        let real = std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .map(|d| d.join(tool))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("{tool} is not installed"));
        std::os::unix::fs::symlink(real, bin.join(tool)).unwrap();
    }
    bin
}

#[test]
fn missing_maven_on_a_maven_project_exits_4_with_a_fix() {
    let dir = maven_project();
    let bin = path_without_maven(dir.path()).to_string_lossy().into_owned();
    let run = doctor(dir.path(), &[], &[("PATH", &bin)]);
    assert_eq!(run.code, 4, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    let i = lines.iter().position(|l| l.contains(" mvn ")).unwrap();
    assert!(lines[i].trim_start().starts_with("MISSING"), "{}", lines[i]);
    assert!(lines[i].contains("required: the project is built with Maven"), "{}", lines[i]);
    assert!(lines[i + 1].contains("fix: install Maven: `sudo apt-get install maven`"), "{}", lines[i + 1]);
    assert!(lines.iter().any(|l| l.trim_start().starts_with("ok") && l.contains(" javac ")), "{}", run.stdout);
    assert!(run.stdout.ends_with("1 required tool is missing.\n"), "{}", run.stdout);

    let json = doctor(dir.path(), &["--json"], &[("PATH", &bin)]);
    assert_eq!(json.code, 4, "{json:?}");
    let checks = checks(&json);
    assert_eq!(check(&checks, "mvn")["status"], "missing");
    // Gradle is absent too, but this is not a Gradle project.
    assert_eq!(check(&checks, "gradle")["status"], "info");
}

#[test]
fn the_api_key_is_never_printed() {
    let dir = maven_project();
    let secret = "sk-test-FAKE-0123456789abcdef";
    let env = [("MANTRA_API_KEY", secret), ("MANTRA_LLM_BASE_URL", "http://127.0.0.1:9/v1"), ("MANTRA_LLM_MODEL", "m")];
    for args in [&[][..], &["--json"], &["--print-config"], &["--print-config", "--json"], &["-vvv"]] {
        let run = doctor(dir.path(), args, &env);
        assert_eq!(run.code, 0, "{args:?}: {run:?}");
        assert!(!run.stdout.contains(secret) && !run.stderr.contains(secret), "{args:?}: {run:?}");
    }
    let run = doctor(dir.path(), &[], &env);
    assert!(run.stdout.contains("MANTRA_API_KEY is set"), "{}", run.stdout);
    assert!(run.stdout.contains("http://127.0.0.1:9/v1, model m"), "{}", run.stdout);
}

#[test]
fn a_configured_refactoring_miner_that_does_not_exist_is_a_warning() {
    let dir = maven_project();
    let run = doctor(dir.path(), &["--json"], &[("REFACTORINGMINER_HOME", "/nonexistent/rm")]);
    assert_eq!(run.code, 0, "{run:?}");
    let checks = checks(&run);
    let rm = check(&checks, "RefactoringMiner");
    assert_eq!(rm["status"], "warning");
    assert!(rm["fix"].as_str().unwrap().contains("REFACTORINGMINER_HOME"), "{rm}");
}
