//! The key registry: every configuration key once, with its type, its environment variable and
//! what it is for. Files, environment variables and flags are checked against it.

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

pub(super) fn env_var_for(name: &str) -> String {
    format!("MANTRA_{}", name.replace('.', "_").to_uppercase())
}

pub(super) const U32: u64 = u32::MAX as u64;

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
pub(super) fn is_section(prefix: &str) -> bool {
    KEYS.iter()
        .any(|k| k.name.len() > prefix.len() && k.name.starts_with(prefix) && k.name[prefix.len()..].starts_with('.'))
}
