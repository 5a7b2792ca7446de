//! The command line itself: help, version, usage errors, completions.

use crate::harness::{mantra, project_root};

#[test]
fn unknown_flag_is_a_usage_error() {
    let run = mantra(&project_root(), &["--no-such-flag"]);
    assert_eq!(run.code, 2, "{run:?}");
}

#[test]
fn completions_for_bash() {
    let run = mantra(&project_root(), &["completions", "bash"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("mantra"), "{}", run.stdout);
}
