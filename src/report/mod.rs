//! One event stream, two printers.
//!
//! Every command reports through [`Reporter::emit`]; the [`Event`] enum is the `--json` contract
//! (one JSON object per line on stdout, tagged by `"event"`). The human printer renders the same
//! events: results on stdout, progress, warnings and errors on stderr.

pub mod sarif;

use std::io::Write;

use serde::Serialize;

use crate::redact::Scrubbed;
use crate::style::Style;

/// Everything mantra says. Adding a variant is adding to the `--json` contract: document it in the README.
#[derive(Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Something is under way (stderr in human mode).
    Progress { stage: String, message: String },
    /// Something the user should know; the work goes on.
    Warning {
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        hint: Option<String>,
    },
    /// A command failed.
    Error {
        exit_code: u8,
        kind: crate::exit::Exit,
        message: String,
        causes: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        hint: Option<String>,
    },
    /// A verification stage finished (stderr in human mode: `[compile] ok 7.2s`). Fields: `name`,
    /// `status`, `duration_ms`, `summary`, `details`; see [`crate::review::StageReport`].
    Stage(crate::review::StageReport),
    /// An agent did something (stderr in human mode: `[developer 1.3] tool extract_method(...) → ...`).
    /// Fields: `agent`, `round`, `step`, `action`, `tool`, `ok`, `message`; see [`crate::agent::AgentEvent`].
    Agent(crate::agent::AgentEvent),
    /// A command's result, already rendered for humans and as structured data for machines.
    Result(ResultEvent),
}

/// A result: a `kind` naming the payload's schema, the payload, and its human rendering.
#[derive(Debug, Serialize)]
pub struct ResultEvent {
    pub kind: &'static str,
    pub data: serde_json::Value,
    #[serde(skip)]
    pub human: String,
}

impl Event {
    /// A result whose human form is `human` and whose JSON form is `data` serialised.
    pub fn result(kind: &'static str, data: &impl Serialize, human: String) -> Event {
        let data =
            serde_json::to_value(data).unwrap_or_else(|e| serde_json::json!({ "serialization_error": e.to_string() }));
        Event::Result(ResultEvent { kind, data, human })
    }
}

/// Where events go: JSON lines or human text.
pub struct Reporter {
    json: bool,
    quiet: bool,
    style: Style,
    out: Box<dyn Write + Send>,
    err: Box<dyn Write + Send>,
}

impl Reporter {
    pub fn new(json: bool, quiet: bool, style: Style) -> Reporter {
        // Every line passes the scrubber: no secret reaches the terminal or a pipe.
        Reporter {
            json,
            quiet,
            style,
            out: Box::new(Scrubbed::new(std::io::stdout())),
            err: Box::new(Scrubbed::new(std::io::stderr())),
        }
    }

    pub fn style(&self) -> Style {
        self.style
    }

    pub fn json(&self) -> bool {
        self.json
    }

    pub fn emit(&mut self, event: Event) {
        // A closed pipe (`mantra ... | head`) is not an error worth reporting.
        let _ = if self.json { self.emit_json(&event) } else { self.emit_human(&event) };
    }

    pub fn progress(&mut self, stage: &str, message: impl Into<String>) {
        self.emit(Event::Progress { stage: stage.to_string(), message: message.into() });
    }

    pub fn warning(&mut self, message: impl Into<String>, hint: Option<String>) {
        self.emit(Event::Warning { message: message.into(), hint });
    }

    fn emit_json(&mut self, event: &Event) -> std::io::Result<()> {
        if self.quiet && matches!(event, Event::Progress { .. } | Event::Agent(_)) {
            return Ok(());
        }
        let line = serde_json::to_string(event).map_err(std::io::Error::other)?;
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn emit_human(&mut self, event: &Event) -> std::io::Result<()> {
        match event {
            Event::Progress { stage, message } => {
                if !self.quiet {
                    writeln!(self.err, "{} {message}", self.style.dim(&format!("[{stage}]")))?;
                }
            }
            Event::Stage(stage) => {
                if !self.quiet {
                    use crate::review::StageStatus;
                    let line = stage.line();
                    let line = match stage.status {
                        StageStatus::Ok => self.style.green(&line),
                        StageStatus::Failed => self.style.red(&line),
                        StageStatus::Warning => self.style.yellow(&line),
                        StageStatus::Skipped => self.style.dim(&line),
                    };
                    writeln!(self.err, "{} {line}", self.style.dim(&format!("[{}]", stage.name.label())))?;
                }
            }
            Event::Agent(a) => {
                if !self.quiet {
                    let at = if a.step > 0 {
                        format!("[{} {}.{}]", a.agent, a.round, a.step)
                    } else {
                        format!("[{} {}]", a.agent, a.round)
                    };
                    let line = match a.ok {
                        Some(false) => self.style.yellow(&a.message),
                        _ => a.message.clone(),
                    };
                    writeln!(self.err, "{} {} {line}", self.style.dim(&at), a.action)?;
                }
            }
            Event::Warning { message, hint } => {
                writeln!(self.err, "{} {message}", self.style.yellow("warning:"))?;
                if let Some(h) = hint {
                    writeln!(self.err, "  {} {h}", self.style.bold("help:"))?;
                }
            }
            Event::Error { message, causes, hint, .. } => {
                writeln!(self.err, "{} {message}", self.style.red("error:"))?;
                for c in causes {
                    writeln!(self.err, "  caused by: {c}")?;
                }
                if let Some(h) = hint {
                    writeln!(self.err, "  {} {h}", self.style.bold("help:"))?;
                }
            }
            Event::Result(r) => {
                write!(self.out, "{}", r.human)?;
                if !r.human.ends_with('\n') && !r.human.is_empty() {
                    writeln!(self.out)?;
                }
            }
        }
        self.err.flush()?;
        self.out.flush()
    }
}
