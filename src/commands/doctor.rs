//! `mantra doctor`.

use crate::Context;
use crate::cli::DoctorArgs;
use crate::error::UserError;
use crate::exit::Exit;

pub fn run(_ctx: &mut Context, _args: &DoctorArgs) -> anyhow::Result<Exit> {
    Err(UserError::usage("`mantra doctor` is not implemented yet").into())
}
