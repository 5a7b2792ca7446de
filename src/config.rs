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

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::cli::{ColorChoice, GlobalArgs};
use crate::error::Classify;
use crate::exit::Exit;

/// The name of the repository's configuration file.
pub const REPO_FILE: &str = "mantra.toml";

/// `MANTRA_*` variables that are not configuration keys.
pub const NON_CONFIG_VARS: &[&str] = &["MANTRA_API_KEY", "MANTRA_LOG", "MANTRA_SHARED_DATA"];

/// The environment variable RefactoringMiner's own scripts use; a fallback for `refactoring_miner.path`.
pub const REFACTORINGMINER_HOME: &str = "REFACTORINGMINER_HOME";

// ---------------------------------------------------------------------------------------------
// The typed configuration
// ---------------------------------------------------------------------------------------------

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
            api_key_env: "MANTRA_API_KEY".into(),
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

// ---------------------------------------------------------------------------------------------
// The key registry
// ---------------------------------------------------------------------------------------------

/// What a key's value must be. Files, environment variables and flags are all checked against it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Str,
    /// A file or folder; relative paths are taken from the folder of the file that sets them
    /// (the current directory for environment variables), and `~/` is the home folder.
    Path,
    /// A program: a path when it contains `/` (resolved like [`Kind::Path`]), else a name on `PATH`.
    Program,
    UInt {
        min: u64,
        max: u64,
    },
    Float {
        min: f64,
        max: f64,
    },
    Choice(&'static [&'static str]),
}

impl Kind {
    /// What a value of this kind looks like, for error messages and the README.
    pub fn expected(&self) -> String {
        match self {
            Kind::Str => "a string".into(),
            Kind::Path => "a path (string)".into(),
            Kind::Program => "a program name or path (string)".into(),
            Kind::UInt { min, max } if *max == u32::MAX as u64 || *max == u64::MAX => {
                format!("an integer >= {min}")
            }
            Kind::UInt { min, max } => format!("an integer from {min} to {max}"),
            Kind::Float { min, max } if max.is_infinite() => format!("a number >= {min}"),
            Kind::Float { min, max } => format!("a number from {min} to {max}"),
            Kind::Choice(values) => format!("one of {}", values.join(", ")),
        }
    }
}

/// One configuration key: its dotted name, what it holds, what it is for.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    pub name: &'static str,
    pub kind: Kind,
    pub doc: &'static str,
}

impl Key {
    /// The environment variable that sets this key: `MANTRA_` + the dotted name in upper case, dots as `_`.
    pub fn env_var(&self) -> String {
        env_var_for(self.name)
    }
}

fn env_var_for(name: &str) -> String {
    format!("MANTRA_{}", name.replace('.', "_").to_uppercase())
}

const U32: u64 = u32::MAX as u64;

/// Every configuration key, in the order `--print-config` and the README list them.
pub const KEYS: &[Key] = &[
    Key {
        name: "llm.base_url",
        kind: Kind::Str,
        doc: "OpenAI-compatible endpoint; unset = no model, heuristic planner",
    },
    Key { name: "llm.model", kind: Kind::Str, doc: "model name sent to the endpoint" },
    Key { name: "llm.temperature", kind: Kind::Float { min: 0.0, max: 2.0 }, doc: "sampling temperature" },
    Key { name: "llm.max_tokens", kind: Kind::UInt { min: 1, max: U32 }, doc: "completion token limit per request" },
    Key { name: "llm.timeout_secs", kind: Kind::UInt { min: 1, max: u64::MAX }, doc: "per-request timeout" },
    Key { name: "llm.api_key_env", kind: Kind::Str, doc: "name of the environment variable holding the API key" },
    Key {
        name: "llm.tool_calling",
        kind: Kind::Choice(&["auto", "native", "text"]),
        doc: "tool calls: the API's (native), JSON in the text (text), or native until refused (auto)",
    },
    Key {
        name: "llm.prices.prompt",
        kind: Kind::Float { min: 0.0, max: f64::INFINITY },
        doc: "price per 1M prompt tokens",
    },
    Key {
        name: "llm.prices.completion",
        kind: Kind::Float { min: 0.0, max: f64::INFINITY },
        doc: "price per 1M completion tokens",
    },
    Key { name: "build.system", kind: Kind::Choice(&["auto", "maven", "gradle", "javac"]), doc: "build tool" },
    Key { name: "build.compile", kind: Kind::Str, doc: "custom compile command" },
    Key { name: "build.test", kind: Kind::Str, doc: "custom test command; `{tests}` = selected tests" },
    Key { name: "build.timeout_secs", kind: Kind::UInt { min: 1, max: u64::MAX }, doc: "build/test timeout" },
    Key { name: "build.output_cap_bytes", kind: Kind::UInt { min: 1024, max: u64::MAX }, doc: "build output kept" },
    Key {
        name: "verify.tests",
        kind: Kind::Choice(&["affected", "all", "affected-then-all"]),
        doc: "which tests verify a change",
    },
    Key {
        name: "verify.runner",
        kind: Kind::Choice(&["direct", "build-tool"]),
        doc: "javac + JUnit launcher after the baseline, or the build tool",
    },
    Key { name: "checkstyle.path", kind: Kind::Program, doc: "checkstyle launcher" },
    Key { name: "checkstyle.jar", kind: Kind::Path, doc: "checkstyle jar, run with `java -jar`" },
    Key { name: "checkstyle.config", kind: Kind::Path, doc: "rule file; unset = detected in the project" },
    Key {
        name: "checkstyle.builtin",
        kind: Kind::Choice(&["sun", "google"]),
        doc: "bundled rules when the project has none",
    },
    Key {
        name: "refactoring_miner.path",
        kind: Kind::Program,
        doc: "RefactoringMiner launcher or distribution folder",
    },
    Key {
        name: "embed.model_dir",
        kind: Kind::Path,
        doc: "embedding model folder; unset = the data folder's or the setup script's, else BM25 only",
    },
    Key {
        name: "embed.onnxruntime",
        kind: Kind::Path,
        doc: "ONNX Runtime shared library; unset = libonnxruntime.so in the model folder",
    },
    Key { name: "agent.max_review_rounds", kind: Kind::UInt { min: 0, max: U32 }, doc: "Reviewer rounds" },
    Key { name: "agent.max_repair_attempts", kind: Kind::UInt { min: 0, max: U32 }, doc: "Repair attempts" },
    Key { name: "agent.max_steps", kind: Kind::UInt { min: 1, max: U32 }, doc: "tool calls per agent run" },
    Key { name: "store.dir", kind: Kind::Path, doc: "example store; unset = `.mantra/store` in the repository" },
    Key { name: "prompts_dir", kind: Kind::Path, doc: "folder of Markdown prompts overriding the built-in ones" },
    Key { name: "color", kind: Kind::Choice(&["auto", "always", "never"]), doc: "colour output" },
];

/// The key with this dotted name.
pub fn key(name: &str) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.name == name)
}

/// Whether `prefix` names a section (`llm`, `llm.prices`) rather than a key.
fn is_section(prefix: &str) -> bool {
    KEYS.iter()
        .any(|k| k.name.len() > prefix.len() && k.name.starts_with(prefix) && k.name[prefix.len()..].starts_with('.'))
}

// ---------------------------------------------------------------------------------------------
// Origins and the resolved result
// ---------------------------------------------------------------------------------------------

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Origin {
    Default,
    /// `$XDG_CONFIG_HOME/mantra/config.toml` or `~/.config/mantra/config.toml`.
    UserFile {
        path: PathBuf,
    },
    /// `mantra.toml` at the repository root.
    RepoFile {
        path: PathBuf,
    },
    /// The file given with `--config`.
    ConfigFile {
        path: PathBuf,
    },
    Env {
        var: String,
    },
    Flag {
        flag: String,
    },
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Default => write!(f, "default"),
            Origin::UserFile { path } => write!(f, "user file {}", path.display()),
            Origin::RepoFile { path } => write!(f, "repository file {}", path.display()),
            Origin::ConfigFile { path } => write!(f, "--config file {}", path.display()),
            Origin::Env { var } => write!(f, "environment variable {var}"),
            Origin::Flag { flag } => write!(f, "flag {flag}"),
        }
    }
}

/// One key's resolved value (`null` when unset) and its origin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    pub key: &'static str,
    pub value: Json,
    pub origin: Origin,
}

/// Something about the configuration the user should know, that does not stop the work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigWarning {
    pub message: String,
    pub hint: Option<String>,
}

/// The configuration after all layers: the typed [`Config`], and every key's value and origin.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub config: Config,
    entries: Vec<Entry>,
    /// The configuration files that were read, lowest precedence first.
    pub files: Vec<Origin>,
    /// Unknown `MANTRA_*` variables and the like; `lib.rs` reports them as warnings.
    pub warnings: Vec<ConfigWarning>,
}

impl Default for Resolved {
    /// Built-in defaults only.
    fn default() -> Self {
        let entries = default_entries();
        Resolved { config: Config::default(), entries, files: Vec::new(), warnings: Vec::new() }
    }
}

impl Resolved {
    /// Every key, in [`KEYS`] order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry for a dotted key name (`"llm.model"`), or `None` if there is no such key.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    /// Where a key's value came from.
    pub fn origin(&self, key: &str) -> Option<&Origin> {
        self.get(key).map(|e| &e.origin)
    }
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

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

fn line_suffix(line: Option<usize>) -> String {
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

// ---------------------------------------------------------------------------------------------
// Resolution
// ---------------------------------------------------------------------------------------------

/// What resolution reads from the process: variables and the current directory. Tests pass their own.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    pub vars: BTreeMap<String, String>,
    pub cwd: PathBuf,
}

impl Environment {
    /// This process's environment (variables that are not UTF-8 are ignored).
    pub fn from_process() -> Environment {
        Environment {
            vars: std::env::vars_os()
                .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
                .collect(),
            cwd: std::env::current_dir().unwrap_or_default(),
        }
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str)
    }

    /// The user configuration file's path (it may not exist).
    pub fn user_file(&self) -> Option<PathBuf> {
        // The XDG spec says relative values are to be ignored.
        let base = match self.get("XDG_CONFIG_HOME").filter(|v| Path::new(v).is_absolute()) {
            Some(xdg) => PathBuf::from(xdg),
            None => PathBuf::from(self.get("HOME").filter(|h| !h.is_empty())?).join(".config"),
        };
        Some(base.join("mantra").join("config.toml"))
    }
}

/// Resolves the configuration for `repo` from every layer.
pub fn resolve(repo: &Path, global: &GlobalArgs) -> anyhow::Result<Resolved> {
    Ok(resolve_in(repo, global, &Environment::from_process())?)
}

/// [`resolve`] with an explicit environment.
pub fn resolve_in(repo: &Path, global: &GlobalArgs, env: &Environment) -> Result<Resolved, ConfigError> {
    let mut entries = default_entries();
    let mut files = Vec::new();
    let mut warnings = Vec::new();

    // RefactoringMiner's own variable is a fallback, just above the default: an explicit key wins.
    if let Some(home) = env.get(REFACTORINGMINER_HOME).filter(|v| !v.is_empty()) {
        let origin = Origin::Env { var: REFACTORINGMINER_HOME.into() };
        set(&mut entries, "refactoring_miner.path", Json::String(absolute(home, &env.cwd, env)), origin);
    }

    let mut layers = Vec::new();
    if let Some(path) = env.user_file().filter(|p| p.is_file()) {
        layers.push(Origin::UserFile { path });
    }
    let repo_file = repo.join(REPO_FILE);
    if repo_file.is_file() {
        layers.push(Origin::RepoFile { path: repo_file });
    }
    if let Some(path) = &global.config {
        let path = if path.is_absolute() { path.clone() } else { env.cwd.join(path) };
        if !path.exists() {
            return Err(ConfigError::MissingFile { path });
        }
        layers.push(Origin::ConfigFile { path });
    }
    for origin in layers {
        let path = match &origin {
            Origin::UserFile { path } | Origin::RepoFile { path } | Origin::ConfigFile { path } => path.clone(),
            _ => continue,
        };
        for (name, value) in read_file(&path, &origin, env)? {
            set(&mut entries, name, value, origin.clone());
        }
        files.push(origin);
    }

    for (var, raw) in env.vars.range("MANTRA_".to_string()..) {
        if !var.starts_with("MANTRA_") {
            break;
        }
        if NON_CONFIG_VARS.contains(&var.as_str()) {
            continue;
        }
        match KEYS.iter().find(|k| k.env_var() == *var) {
            Some(k) => {
                let origin = Origin::Env { var: var.clone() };
                let value = from_env(k, raw, env).map_err(|found| ConfigError::WrongType {
                    key: k.name.into(),
                    place: origin.to_string(),
                    expected: k.kind.expected(),
                    found,
                })?;
                set(&mut entries, k.name, value, origin);
            }
            None => {
                if let Some(w) = unknown_env_warning(var) {
                    warnings.push(w);
                }
            }
        }
    }

    if let Some(color) = global.color {
        let value = serde_json::to_value(color).unwrap_or(Json::Null);
        set(&mut entries, "color", value, Origin::Flag { flag: "--color".into() });
    }

    let mut merged = Json::Object(Default::default());
    for e in &entries {
        if !e.value.is_null() {
            json_set(&mut merged, e.key, e.value.clone());
        }
    }
    // Every value was checked against its key's kind, so this only fails if KEYS and Config
    // disagree, which the unit tests rule out; report it anyway rather than panic.
    let config: Config = serde_json::from_value(merged).map_err(|e| ConfigError::WrongType {
        key: "(configuration)".into(),
        place: "the merged configuration".into(),
        expected: "values matching mantra's configuration".into(),
        found: e.to_string(),
    })?;
    Ok(Resolved { config, entries, files, warnings })
}

fn default_entries() -> Vec<Entry> {
    let defaults = serde_json::to_value(Config::default()).unwrap_or(Json::Null);
    KEYS.iter()
        .map(|k| Entry {
            key: k.name,
            value: json_get(&defaults, k.name).cloned().unwrap_or(Json::Null),
            origin: Origin::Default,
        })
        .collect()
}

fn set(entries: &mut [Entry], key: &str, value: Json, origin: Origin) {
    if let Some(e) = entries.iter_mut().find(|e| e.key == key) {
        e.value = value;
        e.origin = origin;
    }
}

fn json_get<'a>(value: &'a Json, dotted: &str) -> Option<&'a Json> {
    dotted.split('.').try_fold(value, |v, part| v.get(part))
}

fn json_set(root: &mut Json, dotted: &str, value: Json) {
    let mut parts: Vec<&str> = dotted.split('.').collect();
    let Some(last) = parts.pop() else { return };
    let mut cur = root;
    for part in parts {
        let Json::Object(map) = cur else { return };
        cur = map.entry(part.to_string()).or_insert_with(|| Json::Object(Default::default()));
    }
    if let Json::Object(map) = cur {
        map.insert(last.to_string(), value);
    }
}

/// Reads one file into checked `(key, value)` pairs.
fn read_file(path: &Path, origin: &Origin, env: &Environment) -> Result<Vec<(&'static str, Json)>, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read { path: path.into(), error })?;
    let table: toml::Table =
        toml::from_str(&text).map_err(|e| ConfigError::Syntax { path: path.into(), message: e.to_string() })?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut raw = Vec::new();
    walk(&table, "", &mut raw).map_err(|failure| failure.into_error(path, origin, &text))?;
    raw.into_iter()
        .map(|(k, v)| {
            let value = from_toml(k, v, base, env).map_err(|found| ConfigError::WrongType {
                key: k.name.into(),
                place: format!("{origin}{}", line_suffix(line_of(&text, k.name))),
                expected: k.kind.expected(),
                found,
            })?;
            Ok((k.name, value))
        })
        .collect()
}

/// Why a file's structure is wrong, before the file's name and text are known.
enum WalkFailure {
    Unknown(String),
    NotATable(String, String),
}

impl WalkFailure {
    fn into_error(self, path: &Path, origin: &Origin, text: &str) -> ConfigError {
        match self {
            WalkFailure::Unknown(key) => {
                ConfigError::UnknownKey { line: line_of(text, &key), suggestion: suggest(&key), key, path: path.into() }
            }
            WalkFailure::NotATable(key, found) => ConfigError::WrongType {
                place: format!("{origin}{}", line_suffix(line_of(text, &key))),
                expected: format!("a table ([{key}])"),
                key,
                found,
            },
        }
    }
}

/// Flattens a table into known keys and their raw values, refusing unknown keys.
fn walk<'t>(
    table: &'t toml::Table,
    prefix: &str,
    out: &mut Vec<(&'static Key, &'t toml::Value)>,
) -> Result<(), WalkFailure> {
    for (name, value) in table {
        let full = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
        if let Some(k) = key(&full) {
            out.push((k, value));
        } else if is_section(&full) {
            match value {
                toml::Value::Table(t) => walk(t, &full, out)?,
                other => return Err(WalkFailure::NotATable(full, describe_toml(other))),
            }
        } else {
            return Err(WalkFailure::Unknown(full));
        }
    }
    Ok(())
}

/// The 1-based line where a dotted key is written, found by walking the spanned document.
fn line_of(text: &str, dotted: &str) -> Option<usize> {
    let doc = toml::de::DeTable::parse(text).ok()?;
    let mut table = doc.get_ref();
    let mut span = None;
    for part in dotted.split('.') {
        let (k, v) = table.iter().find(|(k, _)| k.get_ref().as_ref() == part)?;
        span = Some(k.span());
        match v.get_ref() {
            toml::de::DeValue::Table(t) => table = t,
            _ => break,
        }
    }
    Some(text[..span?.start].matches('\n').count() + 1)
}

fn describe_toml(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("string {s:?}"),
        toml::Value::Integer(i) => format!("integer {i}"),
        toml::Value::Float(f) => format!("float {f}"),
        toml::Value::Boolean(b) => format!("boolean {b}"),
        toml::Value::Datetime(d) => format!("datetime {d}"),
        toml::Value::Array(_) => "an array".into(),
        toml::Value::Table(_) => "a table".into(),
    }
}

/// Checks a file's value against its key; `Err` describes what was found instead.
fn from_toml(k: &Key, v: &toml::Value, base: &Path, env: &Environment) -> Result<Json, String> {
    let wrong = || describe_toml(v);
    match (k.kind, v) {
        (Kind::Str, toml::Value::String(s)) => Ok(Json::String(s.clone())),
        (Kind::Path, toml::Value::String(s)) => Ok(Json::String(absolute(s, base, env))),
        (Kind::Program, toml::Value::String(s)) => Ok(Json::String(program(s, base, env))),
        (Kind::UInt { min, max }, toml::Value::Integer(i)) => match u64::try_from(*i) {
            Ok(u) if u >= min && u <= max => Ok(Json::from(u)),
            _ => Err(wrong()),
        },
        (Kind::Float { min, max }, toml::Value::Integer(i)) => float(*i as f64, min, max).ok_or_else(wrong),
        (Kind::Float { min, max }, toml::Value::Float(f)) => float(*f, min, max).ok_or_else(wrong),
        (Kind::Choice(values), toml::Value::String(s)) if values.contains(&s.as_str()) => Ok(Json::String(s.clone())),
        _ => Err(wrong()),
    }
}

/// Checks an environment variable's text against its key. An empty value unsets an optional key.
fn from_env(k: &Key, raw: &str, env: &Environment) -> Result<Json, String> {
    let optional =
        json_get(&serde_json::to_value(Config::default()).unwrap_or(Json::Null), k.name).is_none_or(Json::is_null);
    if raw.is_empty() && optional {
        return Ok(Json::Null);
    }
    let wrong = || format!("{raw:?}");
    match k.kind {
        Kind::Str => Ok(Json::String(raw.into())),
        Kind::Path => Ok(Json::String(absolute(raw, &env.cwd, env))),
        Kind::Program => Ok(Json::String(program(raw, &env.cwd, env))),
        Kind::UInt { min, max } => match raw.trim().parse::<u64>() {
            Ok(u) if u >= min && u <= max => Ok(Json::from(u)),
            _ => Err(wrong()),
        },
        Kind::Float { min, max } => raw.trim().parse::<f64>().ok().and_then(|f| float(f, min, max)).ok_or_else(wrong),
        Kind::Choice(values) if values.contains(&raw) => Ok(Json::String(raw.into())),
        Kind::Choice(_) => Err(wrong()),
    }
}

fn float(f: f64, min: f64, max: f64) -> Option<Json> {
    if f.is_finite() && f >= min && f <= max { serde_json::Number::from_f64(f).map(Json::Number) } else { None }
}

/// `~/x` from the home folder, relative paths from `base`.
fn absolute(p: &str, base: &Path, env: &Environment) -> String {
    let path = match (p.strip_prefix("~/"), env.get("HOME")) {
        (Some(rest), Some(home)) => Path::new(home).join(rest),
        _ => base.join(p),
    };
    path.to_string_lossy().into_owned()
}

fn program(p: &str, base: &Path, env: &Environment) -> String {
    if p.contains('/') { absolute(p, base, env) } else { p.to_string() }
}

// ---------------------------------------------------------------------------------------------
// Near misses
// ---------------------------------------------------------------------------------------------

/// The key the user probably meant: the same name in another section, or a close spelling.
fn suggest(unknown: &str) -> Option<String> {
    let leaf = unknown.rsplit('.').next().unwrap_or(unknown);
    let same_leaf: Vec<&str> =
        KEYS.iter().map(|k| k.name).filter(|n| n.rsplit('.').next() == Some(leaf) && *n != unknown).collect();
    if !same_leaf.is_empty() {
        return Some(same_leaf.join("` or `"));
    }
    let sections = KEYS.iter().filter_map(|k| k.name.rsplit_once('.').map(|(s, _)| s));
    let candidates = KEYS.iter().map(|k| k.name).chain(sections);
    nearest(unknown, candidates).map(str::to_string)
}

fn nearest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.len() / 4).max(2);
    candidates.map(|c| (edit_distance(word, c), c)).filter(|(d, _)| *d <= limit).min_by_key(|(d, _)| *d).map(|(_, c)| c)
}

/// Levenshtein distance over chars; names are short, so the simple table is fine.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diag + usize::from(ca != *cb)).min(above + 1).min(row[j] + 1);
            diag = above;
        }
    }
    row[b.len()]
}

/// A warning for an unknown `MANTRA_*` variable that looks like configuration: it starts with a
/// section's name or is spelled close to a key's variable. Others are left alone (they may be
/// another tool's).
fn unknown_env_warning(var: &str) -> Option<ConfigWarning> {
    let known: Vec<String> = KEYS.iter().map(Key::env_var).collect();
    let near = nearest(var, known.iter().map(String::as_str)).map(str::to_string);
    let rest = &var["MANTRA_".len()..];
    let in_section = KEYS.iter().filter_map(|k| k.name.split_once('.')).any(|(s, _)| {
        let s = s.to_uppercase();
        rest.starts_with(&format!("{s}_"))
    });
    if near.is_none() && !in_section {
        return None;
    }
    Some(ConfigWarning {
        message: format!("environment variable {var} is not a configuration key; it is ignored"),
        hint: Some(match near {
            Some(n) => format!("did you mean {n}?"),
            None => "configuration variables are MANTRA_<SECTION>_<KEY>; see the README, section Configuration".into(),
        }),
    })
}

#[cfg(test)]
mod tests {
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

    fn args() -> GlobalArgs {
        GlobalArgs { repo: None, config: None, json: false, verbose: 0, quiet: false, color: None }
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
        assert_eq!(edit_distance("kitten", "sitting"), 3);
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
        std::fs::write(dir.path().join(REPO_FILE), "[llm]\nmodel = \"repo\"\n[embed]\nmodel_dir = \"models\"\n")
            .unwrap();
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
}
