//! One file per subcommand: turn parsed arguments into work and events.

pub mod agent_refactor;
pub mod analyze;
pub mod batch;
pub mod completions;
pub mod detect;
pub mod doctor;
pub mod refactor;
pub mod store;
pub mod verify;
