//! What a review keeps in the user's project for the next one (under `.mantra/cache/baseline/`):
//! the baseline of the state it reviewed, with its class folders, and, once an accepted change
//! is written, the compile and full test run of the state the change left, so that the review
//! of a change on top of it (the next of `suggest --apply-top`, or a second `refactor --apply`)
//! builds and tests nothing before its change.

use std::path::Path;

use crate::build::{self, Baseline, BuildResult, TestRun};

use super::reviewer::Review;

impl Review {
    /// Caches the compile and full test run of the state this accepted review left (see
    /// [`Review::after_state`]) in `project`, once the change is written there, as the baseline
    /// of the project's state then ([`crate::workspace::dirty_state_hash`]), with its class
    /// folders when the tests ran directly. Nothing is kept (and the state is not hashed) for a
    /// review that did not run every test, or in which a test failed and passed again (its next
    /// baseline is run afresh); a cache that cannot be written is only a slower next review.
    pub fn keep_after_state(&self, project: &Path) {
        let Some(state) = self.after_state.as_ref().filter(|_| self.verdict.accepted()) else { return };
        let key = match crate::workspace::dirty_state_hash(project) {
            Ok(key) => key,
            Err(e) => return tracing::warn!("cannot name the changed project's state: {e}"),
        };
        let b = Baseline { key: key.clone(), ..state.clone() };
        if let Err(e) = build::baseline::store(project, &b) {
            tracing::warn!("cannot cache the changed project's build and tests: {e}");
            return;
        }
        if let Some(setup) = &b.direct {
            let kept = build::baseline::classes_path(project, &key);
            if let Err(e) = build::baseline::store_classes(self.workspace.root(), setup, &kept) {
                tracing::warn!("cannot keep the changed project's classes in {}: {e}", kept.display());
            }
        }
    }
}

/// The state a review left, as a baseline (its key still to be given): the change's compile and
/// its run of every test, built and run the way `base` was; `None` unless both happened and no
/// test needed a second run.
pub(super) fn after_state(base: &Baseline, compiled: Option<BuildResult>, tests: Option<TestRun>) -> Option<Baseline> {
    let (compile, tests) = (compiled.filter(BuildResult::success)?, tests?);
    Some(Baseline { key: String::new(), compile, tests: Some(tests), cached: false, ..base.clone() })
}

/// Copies a cached baseline of the user's project into the workspace, where `build::baseline` looks.
pub(super) fn seed_cache(project: &Path, root: &Path, key: &str) {
    let from = build::baseline::cache_path(project, key);
    let to = build::baseline::cache_path(root, key);
    if from.is_file() {
        let copied = to.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| std::fs::copy(&from, &to));
        if let Err(e) = copied {
            tracing::warn!("cannot use the cached baseline {}: {e}", from.display());
        }
    }
}

/// Keeps a fresh baseline in the user's project for the next review of the same state. The
/// `.mantra` folder gets a `.gitignore` of `*` ([`crate::config::create_state_dir`]), so the
/// cache is neither shown by git nor counted in the project's state (which would change the key
/// it is stored under).
pub(super) fn keep_cache(project: &Path, root: &Path, base: &Baseline) {
    if !build::baseline::cache_path(root, &base.key).is_file() {
        return; // a timed-out baseline is not cached
    }
    if let Err(e) = build::baseline::store(project, base) {
        tracing::warn!("cannot cache the baseline: {e}");
    }
}

/// Keeps a fresh baseline's class folders beside its cache in the user's project, or, for a
/// cached baseline, puts the kept ones into the workspace (which holds exactly the baseline's
/// state at this point) and records them as compiled, so the first compile after the change is
/// incremental rather than a full `javac` of the project.
pub(super) fn cache_classes(
    project: &Path,
    root: &Path,
    key: &str,
    setup: &build::DirectSetup,
    settings: &build::Settings,
    cached: bool,
) {
    let kept = build::baseline::classes_path(project, key);
    if !cached {
        // Only beside a cached baseline: a timed-out one was not kept.
        if build::baseline::cache_path(project, key).is_file()
            && let Err(e) = build::baseline::store_classes(root, setup, &kept)
        {
            tracing::warn!("cannot keep the baseline's classes in {}: {e}", kept.display());
        }
        return;
    }
    // On any failure there is no manifest, so the next compile is a full one, which overwrites
    // whatever was copied.
    match build::baseline::restore_classes(&kept, root, setup) {
        Ok(false) => {}
        Ok(true) => match build::Direct::new(setup.clone(), settings.clone()).mark_compiled(root) {
            Ok(()) => tracing::debug!("reusing the baseline's classes from {}", kept.display()),
            Err(e) => tracing::warn!("cannot reuse the baseline's classes in {}: {e}", kept.display()),
        },
        Err(e) => tracing::warn!("cannot reuse the baseline's classes in {}: {e}", kept.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{FailureKind, Invocation, TestSelection};

    fn ran(command: &str) -> Invocation {
        Invocation {
            command: command.into(),
            exit_code: Some(0),
            timed_out: false,
            elapsed_ms: 1,
            output: String::new(),
        }
    }

    fn compiled(failure: Option<FailureKind>) -> BuildResult {
        BuildResult { run: ran("javac"), failure, diagnostics: Vec::new() }
    }

    fn tests(total: usize) -> TestRun {
        TestRun {
            run: ran("test"),
            selection: TestSelection::All,
            failure: None,
            results: Vec::new(),
            diagnostics: Vec::new(),
            total,
        }
    }

    #[test]
    fn the_state_a_review_left_is_a_baseline_only_when_it_compiled_and_ran_every_test() {
        let base = Baseline {
            key: "head-before".into(),
            tool: "Maven".into(),
            compile: compiled(None),
            tests: Some(tests(3)),
            direct_requested: true,
            direct: None,
            direct_unsupported: Some("why".into()),
            cached: true,
        };
        let after = after_state(&base, Some(compiled(None)), Some(tests(4))).expect("a baseline");
        assert_eq!((after.key.as_str(), after.tool.as_str(), after.cached), ("", "Maven", false));
        assert_eq!(after.tests.map(|t| t.total), Some(4), "the change's run, not the original's");
        assert!(after.direct_requested && after.direct_unsupported.as_deref() == Some("why"));
        assert!(after_state(&base, Some(compiled(Some(FailureKind::Compile))), Some(tests(4))).is_none());
        assert!(after_state(&base, None, Some(tests(4))).is_none());
        assert!(after_state(&base, Some(compiled(None)), None).is_none(), "no run of every test");
    }
}
