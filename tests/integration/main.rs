//! mantra's integration tests: one binary, real fixtures, the real `mantra` executable.

mod agents;
mod analyze;
mod architecture;
mod batch;
mod batch_llm;
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
mod llm_client;
mod llm_layers;
#[allow(dead_code)] // the scripted server's API serves every test module that talks to a model
mod llm_server;
mod metrics;
mod readme;
mod refactor;
mod refactoring_miner;
mod rename;
mod store;
mod suggest;
mod verify;
mod wire;
mod workspace;
