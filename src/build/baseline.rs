//! The original project's build and test results, so that only what a refactoring broke is blamed on it.
//!
//! [`baseline`] compiles and tests the unrefactored project once per state and caches the result
//! in `.mantra/cache/baseline/<key>.json` when it compiled; the caller names the state with
//! [`state_key`] (commit id plus a hash of the uncommitted files), so a second refactoring of the
//! same code costs no build. [`judge`] then sorts the failures of a run after the refactoring:
//!
//! - failing in the baseline too → pre-existing, never the refactoring's fault;
//! - passing in the baseline (or new) → re-run once, on their own (only those tests, without the
//!   rest of the suite, in one run), and blamed only if they fail again; otherwise reported as flaky.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::direct::{Direct, DirectSetup, Probe};
use super::{BuildError, BuildResult, BuildTool, FailureKind, Outcome, Settings, TestResult, TestRun, TestSelection};

/// Where baselines are cached, under the project folder.
pub const CACHE_DIR: &str = ".mantra/cache/baseline";

/// The original project's compile and full test run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    pub key: String,
    pub tool: String,
    pub compile: BuildResult,
    /// `None` when the original does not compile (there is nothing to test).
    pub tests: Option<TestRun>,
    /// Whether a direct set-up was asked for ([`baseline_with`] with settings).
    #[serde(default)]
    pub direct_requested: bool,
    /// How to compile and test without the build tool, when that is sound; the tests above ran
    /// that way, so later runs report tests under the same ids.
    #[serde(default)]
    pub direct: Option<DirectSetup>,
    /// Why there is no direct set-up, when one was asked for.
    #[serde(default)]
    pub direct_unsupported: Option<String>,
    /// Whether this came from the cache rather than a build.
    #[serde(skip)]
    pub cached: bool,
}

impl Baseline {
    /// Whether `id` was already failing before the refactoring.
    pub fn was_failing(&self, id: &str) -> bool {
        self.tests.as_ref().is_some_and(|t| t.failing().any(|r| r.id == id))
    }
}

/// A cache key for a project state: the commit id and, when files differ from it, a hash of
/// their paths and contents (in path order, so the caller's order does not matter).
pub fn state_key<P: AsRef<Path>, C: AsRef<[u8]>>(commit: &str, dirty: &[(P, C)]) -> String {
    let commit: String = commit.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    if dirty.is_empty() {
        return commit;
    }
    let mut files: Vec<(&Path, &[u8])> = dirty.iter().map(|(p, c)| (p.as_ref(), c.as_ref())).collect();
    files.sort();
    let mut h = Fnv::new();
    for (path, content) in files {
        let path = path.to_string_lossy();
        // Lengths first, so ("ab", "c") and ("a", "bc") cannot hash alike.
        h.write(&(path.len() as u64).to_le_bytes());
        h.write(path.as_bytes());
        h.write(&(content.len() as u64).to_le_bytes());
        h.write(content);
    }
    format!("{commit}-{:016x}", h.0)
}

/// FNV-1a, 64 bits: stable across Rust versions and platforms (std's hasher is not), enough for a
/// cache key that also carries the commit id.
pub(super) struct Fnv(pub(super) u64);

impl Fnv {
    pub(super) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub(super) fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The baseline of the project in `dir` at state `key`: from the cache, or built, tested and cached.
///
/// A run that timed out is not cached: the next call tries again rather than trusting it.
pub fn baseline(tool: &dyn BuildTool, dir: &Path, key: &str) -> Result<Baseline, BuildError> {
    baseline_with(tool, dir, key, None)
}

/// [`baseline`], and with `direct` settings, also the project's direct set-up
/// ([`BuildTool::probe_direct`], after the tool's compile), with which the tests then run.
pub fn baseline_with(
    tool: &dyn BuildTool,
    dir: &Path,
    key: &str,
    direct: Option<&Settings>,
) -> Result<Baseline, BuildError> {
    let path = cache_path(dir, key);
    if let Ok(text) = std::fs::read_to_string(&path) {
        match serde_json::from_str::<Baseline>(&text) {
            Ok(mut b) if b.key == key && b.tool == tool.name() && b.direct_requested == direct.is_some() => {
                b.cached = true;
                return Ok(b);
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("ignoring unreadable baseline cache {}: {e}", path.display()),
        }
    }
    let compile = tool.compile(dir)?;
    let (mut setup, mut unsupported) = (None, None);
    if let Some(settings) = direct.filter(|_| compile.success()) {
        match tool.probe_direct(dir)? {
            Probe::Direct(s) => setup = Some(s),
            Probe::Unsupported(why) => {
                tracing::info!("testing with {} after the baseline: {why}", tool.name());
                unsupported = Some(why);
            }
        }
        if let Some(s) = &setup {
            Direct::new(s.clone(), settings.clone()).mark_compiled(dir)?;
        }
    }
    let tests = match (&setup, direct) {
        _ if !compile.success() => None,
        (Some(s), Some(settings)) => Some(Direct::new(s.clone(), settings.clone()).test(dir, &TestSelection::All)?),
        _ => Some(tool.test(dir, &TestSelection::All)?),
    };
    let b = Baseline {
        key: key.to_string(),
        tool: tool.name().to_string(),
        compile,
        tests,
        direct_requested: direct.is_some(),
        direct: setup,
        direct_unsupported: unsupported,
        cached: false,
    };
    // Neither a run cut short nor an original that did not compile is kept: a compile of the
    // original that fails is more often the machine's (a plugin or dependency the build cannot
    // resolve offline, a missing JDK) than the code's, and once the user has mended it the same
    // state must be built again, not still called broken.
    let timed_out = b.compile.run.timed_out || b.tests.as_ref().is_some_and(|t| t.run.timed_out);
    if !timed_out && b.compile.success() {
        store(dir, &b)?;
    }
    Ok(b)
}

/// Caches `b` in `dir` under its key, where [`baseline_with`] finds it: the results of a state
/// that was built and tested some other way (a change's own review, which ran every test on the
/// state it leaves).
pub fn store(dir: &Path, b: &Baseline) -> Result<(), BuildError> {
    let path = cache_path(dir, &b.key);
    let io = |source| BuildError::Io { what: "cannot write the baseline cache", path: path.clone(), source };
    if let Some(parent) = path.parent() {
        crate::config::create_state_dir(parent).map_err(io)?;
    }
    let json = serde_json::to_string(b).map_err(|e| io(std::io::Error::other(e)))?;
    // Written aside and renamed, so a concurrent reader never sees half a file.
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    std::fs::write(&tmp, json).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)
}

/// `dir/.mantra/cache/baseline/<key>.json`, the key reduced to characters safe in a file name.
pub fn cache_path(dir: &Path, key: &str) -> PathBuf {
    let safe: String = key.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    dir.join(CACHE_DIR).join(format!("{safe}.json"))
}

/// How many baselines keep their compiled classes (the newest); class folders are large, and
/// an older state is rarely reviewed again.
const KEPT_CLASSES: usize = 3;

/// `dir/.mantra/cache/baseline/<key>.classes/`: the baseline's class folders, kept so that a
/// review reusing a cached baseline compiles incrementally instead of compiling everything.
pub fn classes_path(dir: &Path, key: &str) -> PathBuf {
    cache_path(dir, key).with_extension("classes")
}

/// Copies the class folders of `setup` in `root` (as the baseline compiled them) to `to`,
/// written aside and renamed so a reader never sees half of them, then drops the class folders
/// of all but the newest [`KEPT_CLASSES`] baselines beside it.
pub fn store_classes(root: &Path, setup: &DirectSetup, to: &Path) -> std::io::Result<()> {
    let parent = to.parent().ok_or_else(|| std::io::Error::other("a cache path has a parent"))?;
    crate::config::create_state_dir(parent)?;
    let tmp = to.with_extension(format!("classes.{}.tmp", std::process::id()));
    let copied = (|| {
        for unit in [&setup.main, &setup.test] {
            super::direct::copy_tree(&root.join(&unit.output), &tmp.join(&unit.output))?;
        }
        if to.exists() {
            std::fs::remove_dir_all(to)?;
        }
        std::fs::rename(&tmp, to)
    })();
    if copied.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    copied?;
    prune_classes(parent, to);
    Ok(())
}

/// Copies class folders kept by [`store_classes`] into `root`, unless `root` already has
/// classes in them; whether it did. The caller must then record them as compiled from `root`'s
/// sources, which it may only do when `root` holds the state the baseline was built from.
pub fn restore_classes(from: &Path, root: &Path, setup: &DirectSetup) -> std::io::Result<bool> {
    let units = [&setup.main, &setup.test];
    if !from.is_dir() || units.iter().any(|u| !super::direct::files_under(&root.join(&u.output)).is_empty()) {
        return Ok(false);
    }
    for unit in units {
        super::direct::copy_tree(&from.join(&unit.output), &root.join(&unit.output))?;
    }
    Ok(true)
}

/// Removes the `*.classes` folders in `dir` other than `keep` beyond the newest [`KEPT_CLASSES`].
fn prune_classes(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut kept: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p != keep && p.extension().is_some_and(|e| e == "classes") && p.is_dir())
        .map(|p| (std::fs::metadata(&p).and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH), p))
        .collect();
    kept.sort_by_key(|k| std::cmp::Reverse(k.0));
    for (_, old) in kept.into_iter().skip(KEPT_CLASSES.saturating_sub(1)) {
        if let Err(e) = std::fs::remove_dir_all(&old) {
            tracing::debug!("cannot remove the old baseline classes {}: {e}", old.display());
        }
    }
}

/// A run after a refactoring, judged against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// What the refactoring broke, if anything: a compile error, a timeout, tests that passed in
    /// the baseline and failed twice, or a runtime failure the baseline did not have.
    pub failure: Option<FailureKind>,
    /// Failing now, passing (or absent) before, and failing again when re-run.
    pub broken: Vec<TestResult>,
    /// Failing now and in the baseline.
    pub pre_existing: Vec<TestResult>,
    /// Failed after the refactoring, passed when re-run.
    pub flaky: Vec<TestResult>,
    /// The re-run of the newly failing tests, if there was one.
    pub rerun: Option<TestRun>,
}

impl Judgement {
    pub fn accepted(&self) -> bool {
        self.failure.is_none()
    }
}

/// Sorts the failures of `after` into broken, pre-existing and flaky, re-running new failures once.
pub fn judge(tool: &dyn BuildTool, dir: &Path, base: &Baseline, after: &TestRun) -> Result<Judgement, BuildError> {
    let (pre_existing, fresh): (Vec<TestResult>, Vec<TestResult>) =
        after.failing().cloned().partition(|r| base.was_failing(&r.id));
    let mut broken = Vec::new();
    let mut flaky = Vec::new();
    let mut rerun = None;
    if !fresh.is_empty() && !matches!(after.failure, Some(FailureKind::Compile | FailureKind::Timeout)) {
        let mut selectors: Vec<String> = fresh.iter().map(TestResult::selector).collect();
        selectors.sort();
        selectors.dedup();
        let again = tool.test(dir, &TestSelection::Only(selectors))?;
        for r in fresh {
            let still = again.results.iter().any(|x| x.id == r.id && x.outcome.is_failing());
            let passed = again.results.iter().any(|x| x.id == r.id && x.outcome == Outcome::Passed)
                // JUnitCore lists failures only: a clean run that ran tests passed them.
                || (again.success() && again.total > 0 && again.results.iter().all(|x| x.id != r.id));
            if passed && !still { flaky.push(r) } else { broken.push(r) }
        }
        rerun = Some(again);
    } else {
        broken = fresh;
    }
    let base_failure = base.tests.as_ref().and_then(|t| t.failure);
    let failure = match after.failure {
        Some(k @ (FailureKind::Compile | FailureKind::Timeout)) => Some(k),
        _ if broken.iter().any(|r| r.outcome == Outcome::Failed) => Some(FailureKind::TestFailure),
        _ if !broken.is_empty() => Some(FailureKind::Runtime),
        // The run failed without a failing test (a crash, a setup error): the refactoring's fault
        // unless the original failed the same way.
        Some(FailureKind::Runtime)
            if after.failing().next().is_none() && base_failure != Some(FailureKind::Runtime) =>
        {
            Some(FailureKind::Runtime)
        }
        _ => None,
    };
    Ok(Judgement { failure, broken, pre_existing, flaky, rerun })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_keys_are_stable_and_order_free() {
        let a = state_key("abc123", &[("b.java", "x"), ("a.java", "y")]);
        let b = state_key("abc123", &[("a.java", "y"), ("b.java", "x")]);
        assert_eq!(a, b);
        assert!(a.starts_with("abc123-"), "{a}");
        assert_ne!(a, state_key("abc123", &[("a.java", "y"), ("b.java", "z")]));
        assert_ne!(state_key("c", &[("ab", "c")]), state_key("c", &[("a", "bc")]));
        assert_eq!(state_key::<&str, &str>("abc123", &[]), "abc123");
        assert_eq!(cache_path(Path::new("/p"), "a/b").file_name().unwrap(), "a_b.json");
        assert_eq!(classes_path(Path::new("/p"), "a/b").file_name().unwrap(), "a_b.classes");
    }

    fn unit(output: &str) -> super::super::direct::Unit {
        super::super::direct::Unit {
            source_roots: Vec::new(),
            resource_roots: Vec::new(),
            output: output.into(),
            classpath: Vec::new(),
            javac_flags: Vec::new(),
        }
    }

    #[test]
    fn kept_classes_come_back_only_into_an_empty_workspace_and_only_the_newest_are_kept() {
        let setup = DirectSetup {
            main: unit("target/classes"),
            test: unit("target/test-classes"),
            jvm_flags: Vec::new(),
            launcher: "launcher.jar".into(),
        };
        let tmp = tempfile::tempdir().unwrap();
        let (built, project) = (tmp.path().join("built"), tmp.path().join("project"));
        for (rel, bytes) in [("target/classes/a/A.class", "A"), ("target/test-classes/a/ATest.class", "T")] {
            std::fs::create_dir_all(built.join(rel).parent().unwrap()).unwrap();
            std::fs::write(built.join(rel), bytes).unwrap();
        }
        for key in ["k1", "k2", "k3", "k4"] {
            store_classes(&built, &setup, &classes_path(&project, key)).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(20)); // distinct modification times
        }
        let left: Vec<String> = std::fs::read_dir(project.join(CACHE_DIR))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        assert_eq!(left, ["k2.classes", "k3.classes", "k4.classes"]);

        let ws = tmp.path().join("ws");
        assert!(restore_classes(&classes_path(&project, "k4"), &ws, &setup).unwrap());
        assert_eq!(std::fs::read_to_string(ws.join("target/test-classes/a/ATest.class")).unwrap(), "T");
        // A workspace that has classes already keeps its own.
        std::fs::write(ws.join("target/classes/a/A.class"), "mine").unwrap();
        assert!(!restore_classes(&classes_path(&project, "k4"), &ws, &setup).unwrap());
        assert_eq!(std::fs::read_to_string(ws.join("target/classes/a/A.class")).unwrap(), "mine");
        assert!(!restore_classes(&classes_path(&project, "k1"), &tmp.path().join("other"), &setup).unwrap());
    }
}
