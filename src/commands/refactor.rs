//! `mantra refactor`.

use crate::Context;
use crate::cli::RefactorArgs;
use crate::error::UserError;
use crate::exit::Exit;

pub fn run(_ctx: &mut Context, _args: &RefactorArgs) -> anyhow::Result<Exit> {
    Err(UserError::usage("`mantra refactor` is not implemented yet").into())
}
