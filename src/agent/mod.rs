//! MANTRA's agents: the Developer gathers context with tools and refactors (preferring the
//! engine's tools, which are correct by construction), the Reviewer's verdict comes back to it
//! as feedback until the refactoring is right, and the Repair agent fixes what no longer compiles
//! or passes the tests, by self-reflection (Reflexion).
//!
//! The agents only see [`ChatModel`]: HTTP, retries, transcripts and record/replay live behind
//! it. Everything they change goes into an in-memory overlay of the project ([`tools::Workbench`]);
//! the Reviewer builds and tests that overlay in its own workspace, so the user's files are
//! touched only by the command, after an accepted verdict and `--apply`.
//!
//! Files: [`turn`] is one agent turn (request, tool calls, budget); [`tools`] the tool registry
//! the model sees; [`developer`], [`review_loop`] (the driver: Developer → Reviewer → Repair),
//! [`repair`], [`raw`] (the RawGPT baseline: one prompt, no agents); [`session`] opens the example store a run
//! searches; [`corename`] and [`wire`] are the model's one-question parts in coordinated renames and code wiring. The Markdown prompts load in [`crate::llm::prompts`].

pub mod corename;
pub mod developer;
pub mod raw;
pub mod repair;
pub mod review_loop;
pub mod session;
pub mod suggest;
pub mod tools;
pub mod turn;
pub mod wire;

use crate::llm::{LlmError, UsageMeter, UsageSummary};

pub use crate::llm::prompts::{PromptError, Prompts};
pub use crate::store::{Example, Examples, NoExamples};
pub use review_loop::{Job, Modes, Outcome, run};
pub use turn::{AgentEvent, Observer};

/// Tokens and time, per agent and in total. Tokens, failed requests and cost are tallied on the
/// model client's [`UsageMeter`], so the agents and the client count the same way.
#[derive(Debug, Clone, Default)]
pub struct Meter {
    /// `developer`, `repair`, `raw` → requests, tokens and cost.
    pub usage: UsageMeter,
    /// Time spent waiting for the model, in µs.
    pub model_us: u64,
    /// mantra's own time per agent turn (tool execution included, model time excluded), in µs.
    pub turn_overhead_us: Vec<u64>,
}

impl Meter {
    /// A meter that prices tokens with `prices` (`llm.prices`).
    pub fn new(prices: crate::config::Prices) -> Meter {
        Meter { usage: UsageMeter::new(prices), ..Meter::default() }
    }

    /// Per agent and in total.
    pub fn summary(&self) -> UsageSummary {
        self.usage.summary()
    }
}

/// What stops an agent run (as opposed to a run that ends rejected).
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error(transparent)]
    Model(#[from] LlmError),
    #[error(transparent)]
    Prompt(#[from] PromptError),
    #[error(transparent)]
    Review(#[from] crate::review::ReviewError),
    #[error("cannot read the project: {0}")]
    Java(#[from] crate::java::JavaError),
    #[error("{0}")]
    Internal(String),
}

impl crate::error::Classify for AgentError {
    fn exit(&self) -> crate::exit::Exit {
        use crate::exit::Exit;
        match self {
            AgentError::Model(e) => e.exit(),
            AgentError::Prompt(e) => e.exit(),
            AgentError::Review(e) => e.exit(),
            AgentError::Java(_) | AgentError::Internal(_) => Exit::Internal,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            AgentError::Model(e) => e.hint(),
            AgentError::Prompt(e) => e.hint(),
            AgentError::Review(e) => e.hint(),
            _ => None,
        }
    }
}

/// The JSON object in a model's answer (bare, in a code block, or amid prose), if it parses as `T`.
pub(crate) fn json_object<T: serde::de::DeserializeOwned>(text: &str) -> Option<T> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    serde_json::from_str(text.get(start..=end)?).ok()
}

#[cfg(test)]
mod tests;
