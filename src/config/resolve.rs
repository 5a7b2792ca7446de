//! Layered resolution: origins, the resolved result, the process environment, and reading each
//! layer into checked values.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value as Json;

use super::keys::{KEYS, Key, Kind, is_section, key};
use super::suggest::{suggest, unknown_env_warning};
use super::{Config, ConfigError, NON_CONFIG_VARS, Overrides, REFACTORINGMINER_HOME, REPO_FILE, line_suffix};

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
pub fn resolve(repo: &Path, global: &Overrides) -> anyhow::Result<Resolved> {
    Ok(resolve_in(repo, global, &Environment::from_process())?)
}

/// [`resolve`] with an explicit environment.
pub fn resolve_in(repo: &Path, global: &Overrides, env: &Environment) -> Result<Resolved, ConfigError> {
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

pub(super) fn json_get<'a>(value: &'a Json, dotted: &str) -> Option<&'a Json> {
    dotted.split('.').try_fold(value, |v, part| v.get(part))
}

pub(super) fn json_set(root: &mut Json, dotted: &str, value: Json) {
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
