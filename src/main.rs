//! The `mantra` binary: parse arguments, run, map the outcome to an exit code. Nothing else.

fn main() -> std::process::ExitCode {
    mantra::main_with_args(std::env::args_os())
}
