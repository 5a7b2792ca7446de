//! Test harness: run the real `mantra` binary in a temporary directory, capture everything.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The output of one `mantra` run.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `mantra` with `args` in `cwd`, with a clean environment for mantra's own variables.
pub fn mantra(cwd: &Path, args: &[&str]) -> Run {
    mantra_env(cwd, args, &[])
}

/// [`mantra`] with extra environment variables set on top (`HOME`, `PATH`, `MANTRA_*`, ...).
pub fn mantra_env(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mantra"));
    cmd.args(args).current_dir(cwd);
    for (k, _) in std::env::vars() {
        if k.starts_with("MANTRA_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("NO_COLOR", "1");
    cmd.envs(env.iter().copied());
    let out = cmd.output().expect("run mantra");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The repository's root (where Cargo.toml is).
pub fn project_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture project's folder.
pub fn fixture(name: &str) -> PathBuf {
    project_root().join("fixtures/projects").join(name)
}
