//! Configuration in layers, resolved once before any work starts.
//!
//! Each layer overrides the one before it, key by key:
//!
//! 1. built-in defaults ([`Config::default`]),
//! 2. the user file, `$XDG_CONFIG_HOME/mantra/config.toml` (else `~/.config/mantra/config.toml`),
//! 3. `mantra.toml` at the repository root,
//! 4. the file given with `--config FILE` (it must exist),
//! 5. `MANTRA_<SECTION>_<KEY>` environment variables,
//! 6. command-line flags (`--color`).
//!
//! Every key is listed once in [`KEYS`] with its type; files and environment values are checked
//! against that list before anything is deserialised, so an error names the key, the file (and
//! line) or variable, and what was expected. The typed [`Config`] is then built from the merged
//! values, and [`Resolved`] keeps, for every key, the value and where it came from, for
//! `mantra doctor --print-config`.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::error::Classify;
use crate::exit::Exit;

mod keys;
mod resolve;
mod suggest;
#[cfg(test)]
mod tests;

pub use keys::{KEYS, Key, Kind, key};
pub use resolve::{ConfigWarning, Entry, Environment, Origin, Resolved, resolve, resolve_in};

/// The name of the repository's configuration file.
pub const REPO_FILE: &str = "mantra.toml";

/// The folder in a repository where mantra keeps its state: run transcripts, caches, the store.
pub const STATE_DIR: &str = ".mantra";

/// What `STATE_DIR/.gitignore` says: nothing in it is part of the project.
const STATE_IGNORE: &str = "# mantra's runs, caches and stores; not part of the project\n*\n";

/// A fresh run folder, `.mantra/runs/<UTC timestamp>-<pid>` under `repo` (not created).
pub fn run_dir(repo: &Path) -> PathBuf {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    repo.join(STATE_DIR).join("runs").join(format!("{}-{}", utc_stamp(secs), std::process::id()))
}

/// `20261122T101500Z` for seconds since the epoch (Howard Hinnant's days-to-civil algorithm).
fn utc_stamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Creates `dir` with its parents. When `dir` lies in a [`STATE_DIR`] folder, that folder gets
/// its `.gitignore` first, so git never shows mantra's state, whichever step creates it and
/// however the run ends.
pub fn create_state_dir(dir: &Path) -> std::io::Result<()> {
    if let Some(state) = dir.ancestors().find(|a| a.file_name().is_some_and(|n| n == STATE_DIR)) {
        std::fs::create_dir_all(state)?;
        let ignore = state.join(".gitignore");
        // `create_new`: two runs creating it at once both succeed, and a user's own file stays.
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&ignore) {
            Ok(mut f) => std::io::Write::write_all(&mut f, STATE_IGNORE.as_bytes())?,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    std::fs::create_dir_all(dir)
}

/// The variable that holds the model's API key unless `llm.api_key_env` names another.
pub const DEFAULT_API_KEY_ENV: &str = "MANTRA_API_KEY";

/// The variable read for the API key when the configured one is unset.
pub const FALLBACK_API_KEY_ENV: &str = "OPENAI_API_KEY";

/// `MANTRA_*` variables that are not configuration keys.
pub const NON_CONFIG_VARS: &[&str] = &[DEFAULT_API_KEY_ENV, "MANTRA_LOG", "MANTRA_SHARED_DATA"];

/// The environment variable RefactoringMiner's own scripts use; a fallback for `refactoring_miner.path`.
pub const REFACTORINGMINER_HOME: &str = "REFACTORINGMINER_HOME";

/// When to use colours (`color`, `--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// The top layer, from the command line: the `--config FILE` layer and the `--color` flag.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub config: Option<PathBuf>,
    pub color: Option<ColorChoice>,
}

/// mantra's configuration, typed. Every field is a key in [`KEYS`]; a unit test keeps them in step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub llm: LlmConfig,
    pub build: BuildConfig,
    pub verify: VerifyConfig,
    pub checkstyle: CheckstyleConfig,
    pub refactoring_miner: RefactoringMinerConfig,
    pub embed: EmbedConfig,
    pub agent: AgentConfig,
    pub store: StoreConfig,
    /// A folder whose Markdown files override the built-in prompts, file by file.
    pub prompts_dir: Option<PathBuf>,
    pub color: ColorChoice,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            llm: LlmConfig::default(),
            build: BuildConfig::default(),
            verify: VerifyConfig::default(),
            checkstyle: CheckstyleConfig::default(),
            refactoring_miner: RefactoringMinerConfig::default(),
            embed: EmbedConfig::default(),
            agent: AgentConfig::default(),
            store: StoreConfig::default(),
            prompts_dir: None,
            color: ColorChoice::Auto,
        }
    }
}

/// The model endpoint. No `base_url` means no model: the heuristic planner is used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LlmConfig {
    /// An OpenAI-compatible endpoint, e.g. `http://localhost:8000/v1`.
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub temperature: f64,
    pub max_tokens: Option<u32>,
    pub timeout_secs: u64,
    /// The name of the environment variable that holds the API key. The key itself is never
    /// part of the configuration, so it can never be printed with it.
    pub api_key_env: String,
    pub tool_calling: ToolCalling,
    pub prices: Prices,
}

/// How tools reach the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolCalling {
    /// Native tool calling, switching to `text` for the rest of the run when the server rejects `tools`.
    Auto,
    /// The API's `tools` and `tool_calls`.
    Native,
    /// Tools described in the system prompt, called with a JSON object in the answer's text.
    Text,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            base_url: None,
            model: None,
            temperature: 0.0,
            max_tokens: None,
            timeout_secs: 120,
            api_key_env: DEFAULT_API_KEY_ENV.into(),
            tool_calling: ToolCalling::Auto,
            prices: Prices::default(),
        }
    }
}

/// Prices per million tokens, for cost reports. Both must be set for a cost to be computed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Prices {
    pub prompt: Option<f64>,
    pub completion: Option<f64>,
}

impl Prices {
    /// The cost of this many tokens, if both prices are known.
    pub fn cost(&self, prompt_tokens: u64, completion_tokens: u64) -> Option<f64> {
        Some((self.prompt? * prompt_tokens as f64 + self.completion? * completion_tokens as f64) / 1_000_000.0)
    }
}

/// Which build tool verifies a refactoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BuildSystemChoice {
    /// Detected from the files at the repository root.
    Auto,
    Maven,
    Gradle,
    Javac,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BuildConfig {
    pub system: BuildSystemChoice,
    /// A shell command that compiles the project, replacing the build system's own.
    pub compile: Option<String>,
    /// A shell command that runs tests; `{tests}` is replaced by the selected test classes.
    pub test: Option<String>,
    pub timeout_secs: u64,
    /// How much of a build's output is kept (head and tail) for reports and repair prompts.
    pub output_cap_bytes: u64,
}

impl Default for BuildConfig {
    fn default() -> Self {
        BuildConfig {
            system: BuildSystemChoice::Auto,
            compile: None,
            test: None,
            timeout_secs: 600,
            output_cap_bytes: 1024 * 1024,
        }
    }
}

/// Which tests verify a refactoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TestSelection {
    /// Only the tests that reach the changed code.
    Affected,
    All,
    /// The affected tests first (fast failure), then all of them.
    AffectedThenAll,
}

/// What compiles and runs the tests after the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TestRunner {
    /// The project's build tool for every run.
    BuildTool,
    /// `javac` and the JUnit console launcher with the classpath and flags the build tool
    /// reported during the baseline; the build tool where that is not known to be equivalent.
    #[default]
    Direct,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VerifyConfig {
    pub tests: TestSelection,
    pub runner: TestRunner,
}

impl Default for VerifyConfig {
    fn default() -> Self {
        VerifyConfig { tests: TestSelection::AffectedThenAll, runner: TestRunner::Direct }
    }
}

/// Checkstyle's bundled rule sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BuiltinStyle {
    Sun,
    Google,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CheckstyleConfig {
    /// The `checkstyle` launcher, looked up on `PATH` unless it contains a `/`.
    pub path: PathBuf,
    /// A Checkstyle "all" jar, run with `java -jar` instead of the launcher.
    pub jar: Option<PathBuf>,
    /// The project's rule file; when unset it is detected in the project.
    pub config: Option<PathBuf>,
    /// The bundled rule set used when the project has none.
    pub builtin: BuiltinStyle,
}

impl Default for CheckstyleConfig {
    fn default() -> Self {
        CheckstyleConfig { path: PathBuf::from("checkstyle"), jar: None, config: None, builtin: BuiltinStyle::Sun }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RefactoringMinerConfig {
    /// The RefactoringMiner launcher, or the distribution folder holding `bin/RefactoringMiner`.
    pub path: Option<PathBuf>,
}

impl RefactoringMinerConfig {
    /// The launcher to run: `path` itself, or `path/bin/RefactoringMiner` when `path` is a folder.
    pub fn executable(&self) -> Option<PathBuf> {
        let path = self.path.as_ref()?;
        Some(if path.is_dir() { path.join("bin").join("RefactoringMiner") } else { path.clone() })
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EmbedConfig {
    /// A folder holding the embedding model (model.onnx and its tokenizer files); unset, the
    /// user data folder's or the setup script's (`store::embed::default_model_dirs`), else BM25 only.
    pub model_dir: Option<PathBuf>,
    /// ONNX Runtime's shared library; unset, `libonnxruntime.so` in the model folder.
    pub onnxruntime: Option<PathBuf>,
}

/// The agents' budgets; hitting one ends the run with a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AgentConfig {
    pub max_review_rounds: u32,
    pub max_repair_attempts: u32,
    pub max_steps: u32,
}

impl Default for AgentConfig {
    fn default() -> Self {
        AgentConfig { max_review_rounds: 5, max_repair_attempts: 20, max_steps: 30 }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StoreConfig {
    /// Where the example store lives; unset, `.mantra/store` under the repository.
    pub dir: Option<PathBuf>,
}

/// A configuration that cannot be used. Every variant is a usage error: the user can fix it.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("configuration file {} does not exist", path.display())]
    MissingFile { path: PathBuf },
    #[error("cannot read configuration file {}: {error}", path.display())]
    Read { path: PathBuf, error: std::io::Error },
    #[error("{} is not valid TOML: {message}", path.display())]
    Syntax { path: PathBuf, message: String },
    #[error("unknown configuration key `{key}` in {}{}", path.display(), line_suffix(*line))]
    UnknownKey { key: String, path: PathBuf, line: Option<usize>, suggestion: Option<String> },
    #[error("`{key}` in {place}: expected {expected}, found {found}")]
    WrongType { key: String, place: String, expected: String, found: String },
}

pub(super) fn line_suffix(line: Option<usize>) -> String {
    line.map(|l| format!(" (line {l})")).unwrap_or_default()
}

impl Classify for ConfigError {
    fn exit(&self) -> Exit {
        Exit::Usage
    }
    fn hint(&self) -> Option<String> {
        match self {
            ConfigError::MissingFile { .. } => Some("check the path given to --config".into()),
            ConfigError::Read { .. } => Some("make the file readable, or remove it".into()),
            ConfigError::Syntax { .. } => Some("fix the TOML syntax at the position shown".into()),
            ConfigError::UnknownKey { suggestion: Some(s), .. } => Some(format!("did you mean `{s}`?")),
            ConfigError::UnknownKey { .. } => Some("the keys are listed in the README, section Configuration".into()),
            ConfigError::WrongType { .. } => None,
        }
    }
}
