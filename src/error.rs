//! Errors as a user sees them: a one-line title, a `help:` hint, the cause chain and an exit code.
//!
//! Library modules define their own `thiserror` enums and implement [`Classify`] so that the edge
//! (`lib.rs`) can map any error chain to an [`Exit`] code and a hint, whatever context was added
//! on the way up with `anyhow`. This module is a leaf: the list of error types to look for lives
//! in `lib.rs` (`mantra::classify`), the one place allowed to name every module, and a test there
//! fails when an error type that implements [`Classify`] is left off it.

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

/// Finds the first classifiable error in the chain, recognising it with `as_classify` (the list
/// of every module's error type, which only the top of the crate can name); anything else is an
/// internal error.
pub fn classify_with(
    err: &anyhow::Error,
    as_classify: for<'a> fn(&'a (dyn std::error::Error + 'static)) -> Option<&'a dyn Classify>,
) -> (Exit, Option<String>) {
    for cause in err.chain() {
        if let Some(c) = as_classify(cause) {
            return (c.exit(), c.hint());
        }
    }
    (Exit::Internal, None)
}

/// The message a caught panic carried (`panic!("...")` gives a `&str` or a `String`), if any.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    payload.downcast_ref::<String>().cloned().or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
}
