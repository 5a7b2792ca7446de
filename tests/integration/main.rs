//! mantra's integration tests: one binary, real fixtures, the real `mantra` executable.

mod analyze;
mod build;
mod cli;
mod config;
mod detect;
mod doctor;
mod engine_extract;
mod engine_inline;
mod engine_move;
mod engine_rename;
#[allow(dead_code)] // helpers are shared by test modules; not every one uses every helper
mod harness;
mod readme;
mod refactor;
mod refactoring_miner;
mod store;
mod verify;
mod workspace;
