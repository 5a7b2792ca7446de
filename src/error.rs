//! Errors as a user sees them: a one-line title, a `help:` hint, the cause chain and an exit code.
//!
//! Library modules define their own `thiserror` enums and implement [`Classify`] so that the edge
//! (`lib.rs`) can map any error chain to an [`Exit`] code and a hint, whatever context was added
//! on the way up with `anyhow`.

use crate::exit::Exit;

/// What the edge needs to know about an error: which exit code, and what the user can do.
pub trait Classify {
    fn exit(&self) -> Exit;
    fn hint(&self) -> Option<String> {
        None
    }
}

/// An error raised directly for the user, with its exit code and an optional hint.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct UserError {
    pub exit: Exit,
    pub message: String,
    pub hint: Option<String>,
}

impl UserError {
    pub fn new(exit: Exit, message: impl Into<String>) -> Self {
        UserError { exit, message: message.into(), hint: None }
    }
    pub fn usage(message: impl Into<String>) -> Self {
        Self::new(Exit::Usage, message)
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl Classify for UserError {
    fn exit(&self) -> Exit {
        self.exit
    }
    fn hint(&self) -> Option<String> {
        self.hint.clone()
    }
}

/// Finds the first classifiable error in the chain; anything else is an internal error.
pub fn classify(err: &anyhow::Error) -> (Exit, Option<String>) {
    for cause in err.chain() {
        if let Some(c) = as_classify(cause) {
            return (c.exit(), c.hint());
        }
    }
    (Exit::Internal, None)
}

fn as_classify<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a dyn Classify> {
    macro_rules! try_types {
        ($($t:ty),* $(,)?) => {
            $(if let Some(x) = e.downcast_ref::<$t>() { return Some(x); })*
        };
    }
    try_types!(
        UserError,
        crate::agent::AgentError,
        crate::agent::PromptError,
        crate::batch::BatchError,
        crate::java::JavaError,
        crate::java::TargetError,
        crate::config::ConfigError,
        crate::process::ProcessError,
        crate::writeback::WriteError,
        crate::engine::SpecError,
        crate::plan::PlanError,
        crate::commands::refactor::Refused,
        crate::workspace::WorkspaceError,
        crate::build::BuildError,
        crate::review::CheckstyleError,
        crate::review::refactoring_miner::MinerError,
        crate::review::ReviewError,
        crate::detect::SnapshotError,
        crate::llm::LlmError,
        crate::store::StoreError,
    );
    None
}

/// The message a caught panic carried (`panic!("...")` gives a `&str` or a `String`), if any.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    payload.downcast_ref::<String>().cloned().or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
}
