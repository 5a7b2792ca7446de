//! `mantra analyze`.

use crate::Context;
use crate::cli::AnalyzeArgs;
use crate::error::UserError;
use crate::exit::Exit;

pub fn run(_ctx: &mut Context, _args: &AnalyzeArgs) -> anyhow::Result<Exit> {
    Err(UserError::usage("`mantra analyze` is not implemented yet").into())
}
