//! The README documents contracts (exit codes, configuration keys, the CI command); these tests
//! fail when the code and the README disagree.

use mantra::config::KEYS;
use mantra::exit::Exit;

use crate::harness::{mantra_env, project_root};

fn readme() -> String {
    std::fs::read_to_string(project_root().join("README.md")).unwrap()
}

/// The rows of the Markdown table that follows `marker`, split into trimmed cells.
fn table_after(text: &str, marker: &str) -> Vec<Vec<String>> {
    let start = text.find(marker).unwrap_or_else(|| panic!("README lacks {marker:?}"));
    text[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2) // header and separator
        .map(|l| l.trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect())
        .collect()
}

#[test]
fn the_exit_code_table_matches_exit_all() {
    let rows = table_after(&readme(), "<!-- exit-codes:");
    let expected: Vec<Vec<String>> = Exit::ALL
        .iter()
        .map(|e| {
            let name = serde_json::to_value(e).unwrap().as_str().unwrap().to_string();
            vec![e.code().to_string(), format!("`{name}`"), e.describe().to_string()]
        })
        .collect();
    assert_eq!(rows, expected);
}

#[test]
fn every_configuration_key_is_documented_with_its_variable() {
    let rows = table_after(&readme(), "| key | type | default | environment variable | meaning |");
    let documented: Vec<(String, String)> = rows.iter().map(|r| (r[0].clone(), r[3].clone())).collect();
    let expected: Vec<(String, String)> =
        KEYS.iter().map(|k| (format!("`{}`", k.name), format!("`{}`", k.env_var()))).collect();
    assert_eq!(documented, expected);
}

#[test]
fn the_example_mantra_toml_is_accepted() {
    let text = readme();
    let start = text.find("An example `mantra.toml`").unwrap();
    let block = &text[start..];
    let block = &block[block.find("```toml\n").unwrap() + 8..];
    let block = &block[..block.find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mantra.toml"), block).unwrap();
    let home = dir.path().to_string_lossy().into_owned();
    let run = mantra_env(dir.path(), &["doctor", "--print-config"], &[("HOME", &home), ("XDG_CONFIG_HOME", &home)]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.lines().any(|l| l.starts_with("llm.prices.completion ") && l.contains("0.6")), "{}", run.stdout);
}

#[test]
fn ci_runs_the_readme_test_command() {
    let ci = std::fs::read_to_string(project_root().join(".ci/run")).unwrap();
    let command = ci.lines().rfind(|l| !l.trim().is_empty()).unwrap().trim();
    assert_eq!(command, "bash scripts/test.sh");
    assert!(readme().contains(&format!("```sh\n{command}\n```")));
}
