//! Configuration in layers, resolved once before any work:
//! built-in defaults < `~/.config/mantra/config.toml` < `mantra.toml` < `MANTRA_*` < flags.

use std::path::Path;

use crate::cli::GlobalArgs;
use crate::error::Classify;
use crate::exit::Exit;

#[derive(Debug, Clone, Default)]
pub struct Config {}

#[derive(Debug, Clone, Default)]
pub struct Resolved {
    pub config: Config,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {}

impl Classify for ConfigError {
    fn exit(&self) -> Exit {
        Exit::Usage
    }
}

pub fn resolve(_repo: &Path, _global: &GlobalArgs) -> anyhow::Result<Resolved> {
    Ok(Resolved::default())
}
