//! The heuristic planner: fills in what the flags leave out of a spec.

pub mod extract;
pub mod naming;
