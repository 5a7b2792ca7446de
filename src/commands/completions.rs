//! `mantra completions <shell>`: shell completion scripts generated from the clap definition.

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};
use crate::exit::Exit;

pub fn run(args: &CompletionsArgs) -> anyhow::Result<Exit> {
    let mut cmd = Cli::command();
    clap_complete::generate(args.shell, &mut cmd, "mantra", &mut std::io::stdout());
    Ok(Exit::Success)
}
