//! The official RefactoringMiner as the Reviewer's detector, when the user has installed it.
//!
//! mantra's built-in detector ([`crate::detect`]) follows RefactoringMiner in a smaller form. When
//! `refactoring_miner.path` (or `REFACTORINGMINER_HOME`) names a RefactoringMiner distribution,
//! the Reviewer asks the real tool instead. RefactoringMiner reads git history, not folders, so
//! [`RefactoringMiner::detect`] commits the before and after snapshots into a scratch repository
//! (two commits, with the git command line through the [`Runner`]), runs
//! `RefactoringMiner -c <repo> <after-sha> -json <file>` and maps the JSON it writes to
//! [`Refactoring`]s.
//!
//! What the mapping cannot know, and what it does about it:
//! - Types outside [`RefactoringType`] (Rename Variable, Extract Class, ...) are skipped: mantra
//!   performs and validates method-level refactorings only, and [`Refactoring::kind`] cannot hold
//!   another type. They are logged at debug level.
//! - `pure` is always `false`: RefactoringMiner's plain output does not say whether a refactoring
//!   is pure, and claiming purity without evidence would be a faked detection.
//! - [`Subject`] is parsed back from the description (`X extracted from Y in class C`, ...); a
//!   description in an unexpected shape leaves it empty rather than guessing.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use crate::detect::model::erase;
use crate::detect::{Location, Refactoring, RefactoringType, Snapshot, Subject};
use crate::error::Classify;
use crate::exit::Exit;
use crate::process::{Cmd, Output, ProcessError, Runner, Status, is_executable, which};
use crate::workspace::TempPath;

/// The fix for a missing or broken launcher, naming the configuration keys.
const CONFIGURE_HINT: &str = "set refactoring_miner.path (or REFACTORINGMINER_HOME) to a RefactoringMiner \
     distribution or its bin/RefactoringMiner launcher, or unset both to use the built-in detector";

/// How much of a failing run's stderr goes into the error.
const STDERR_TAIL_LINES: usize = 10;

/// Why RefactoringMiner gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum MinerError {
    #[error("RefactoringMiner launcher {}: {why}", path.display())]
    NotExecutable { path: PathBuf, why: &'static str },
    #[error("cannot prepare the scratch repository for RefactoringMiner at {}: {source}", path.display())]
    Scratch { path: PathBuf, source: std::io::Error },
    #[error("snapshot path `{path}` is not a relative path inside the repository")]
    BadPath { path: String },
    #[error("git, preparing the scratch repository for RefactoringMiner: {0}")]
    Git(#[source] ProcessError),
    #[error("cannot run RefactoringMiner: {0}")]
    Launch(#[source] ProcessError),
    #[error("`{command}` failed ({status}){tail}")]
    Failed { command: String, status: Status, tail: String },
    #[error("`{command}` timed out after {}s", after.as_secs())]
    TimedOut { command: String, after: Duration },
    #[error("RefactoringMiner exited successfully but wrote no {}", file.display())]
    NoOutput { file: PathBuf },
    #[error("cannot parse RefactoringMiner's output {}: {source}", file.display())]
    Parse { file: PathBuf, source: serde_json::Error },
}

impl Classify for MinerError {
    fn exit(&self) -> Exit {
        match self {
            MinerError::NotExecutable { .. } => Exit::EnvironmentMissing,
            MinerError::Launch(e) | MinerError::Git(e) => e.exit(),
            _ => Exit::Internal,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            MinerError::NotExecutable { .. } => Some(CONFIGURE_HINT.into()),
            MinerError::Launch(_) | MinerError::Failed { .. } | MinerError::NoOutput { .. } => {
                Some("check the installation with `mantra doctor`, or unset refactoring_miner.path and REFACTORINGMINER_HOME to use the built-in detector".into())
            }
            MinerError::TimedOut { .. } => Some("raise the Reviewer's timeout for RefactoringMiner".into()),
            MinerError::Git(e) => e.hint(),
            _ => None,
        }
    }
}

/// The launcher `executable` as it would be run: itself when it holds a `/`, else found on
/// `path_var` (a `PATH` value). Doctor and [`RefactoringMiner::detect`] share this check.
pub fn resolve(executable: &Path, path_var: Option<&std::ffi::OsStr>) -> Result<PathBuf, MinerError> {
    let err = |why| Err(MinerError::NotExecutable { path: executable.to_path_buf(), why });
    if executable.components().count() == 1 && !executable.is_absolute() {
        return which(executable, path_var).map_or_else(|| err("not found on PATH"), Ok);
    }
    match std::fs::metadata(executable) {
        Err(_) => err("no such file"),
        Ok(m) if m.is_dir() => err("is a folder without bin/RefactoringMiner"),
        Ok(_) if !is_executable(executable) => err("is not executable (chmod +x it)"),
        Ok(_) => Ok(executable.to_path_buf()),
    }
}

/// The RefactoringMiner command line, run through a [`Runner`].
pub struct RefactoringMiner {
    executable: PathBuf,
    runner: Arc<dyn Runner>,
    timeout: Duration,
}

impl RefactoringMiner {
    /// `executable` is the launcher (`<distribution>/bin/RefactoringMiner`), as
    /// [`crate::config::RefactoringMinerConfig::executable`] gives it.
    pub fn new(executable: PathBuf, runner: Arc<dyn Runner>, timeout: Duration) -> RefactoringMiner {
        RefactoringMiner { executable, runner, timeout }
    }

    pub fn executable(&self) -> &Path {
        &self.executable
    }

    /// The method-level refactorings RefactoringMiner finds between `before` and `after`.
    pub fn detect(&self, before: &Snapshot, after: &Snapshot) -> Result<Vec<Refactoring>, MinerError> {
        let launcher = resolve(&self.executable, std::env::var_os("PATH").as_deref())?;
        // Removed when dropped (on every error path too) and on an interrupt.
        let scratch = TempPath::dir("mantra-rminer")
            .map_err(|source| MinerError::Scratch { path: std::env::temp_dir(), source })?;
        let repo = scratch.path().join("repo");
        let sha = self.commit_pair(&repo, before, after)?;
        let out_file = scratch.path().join("refactorings.json");
        let cmd = Cmd::new(launcher.as_os_str())
            .arg("-c")
            .arg(repo.as_os_str())
            .arg(&sha)
            .arg("-json")
            .arg(out_file.as_os_str())
            .cwd(scratch.path())
            .timeout(self.timeout)
            .output_cap(256 * 1024);
        let out = self.runner.run(&cmd).map_err(MinerError::Launch)?;
        match out.status {
            Status::Exited { code: 0 } => {}
            Status::TimedOut => return Err(MinerError::TimedOut { command: cmd.to_string(), after: self.timeout }),
            status => return Err(MinerError::Failed { command: cmd.to_string(), status, tail: tail(&out) }),
        }
        let text = match std::fs::read_to_string(&out_file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(MinerError::NoOutput { file: out_file }),
            Err(source) => return Err(MinerError::Scratch { path: out_file, source }),
        };
        parse_output(&text, &out_file)
    }

    /// Commits `before`, then `after`, into a new repository at `repo`; returns the second commit's id.
    fn commit_pair(&self, repo: &Path, before: &Snapshot, after: &Snapshot) -> Result<String, MinerError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| MinerError::Scratch { path, source }
        };
        std::fs::create_dir(repo).map_err(io(repo))?;
        let git = |args: &[&str]| -> Result<Output, MinerError> {
            let cmd = Cmd::new("git")
                .args(args.iter().copied())
                .cwd(repo)
                // The user's global configuration (hooks, signing, templates) must not apply here.
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .timeout(Duration::from_secs(120));
            self.runner.run(&cmd).and_then(|o| o.check(&cmd)).map_err(MinerError::Git)
        };
        git(&["init", "-q", "-b", "main"])?;
        git(&["config", "user.name", "mantra"])?;
        git(&["config", "user.email", "mantra@localhost"])?;
        git(&["config", "commit.gpgsign", "false"])?;
        git(&["config", "core.autocrlf", "false"])?;
        for (snapshot, message) in [(before, "before"), (after, "after")] {
            clear(repo)?;
            for (rel, text) in &snapshot.files {
                let path = repo.join(relative(rel)?);
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(io(dir))?;
                }
                std::fs::write(&path, text).map_err(io(&path))?;
            }
            git(&["add", "-A"])?;
            git(&["commit", "-q", "--allow-empty", "--no-verify", "-m", message])?;
        }
        Ok(git(&["rev-parse", "HEAD"])?.stdout.trim().to_string())
    }
}

/// Removes everything in `repo` but `.git`.
fn clear(repo: &Path) -> Result<(), MinerError> {
    let io = |path: &Path, source| MinerError::Scratch { path: path.to_path_buf(), source };
    for entry in std::fs::read_dir(repo).map_err(|e| io(repo, e))? {
        let path = entry.map_err(|e| io(repo, e))?.path();
        if path.file_name().is_some_and(|n| n == ".git") {
            continue;
        }
        let removed = if path.is_dir() { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
        removed.map_err(|e| io(&path, e))?;
    }
    Ok(())
}

/// A snapshot path as a relative path that stays inside the repository.
fn relative(rel: &str) -> Result<&Path, MinerError> {
    let path = Path::new(rel);
    if rel.is_empty() || !path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir)) {
        return Err(MinerError::BadPath { path: rel.to_string() });
    }
    Ok(path)
}

/// The last lines of a failed run's stderr (else stdout: the launcher script prints Java's errors
/// to either), for the error message.
fn tail(out: &Output) -> String {
    let text = if out.stderr.trim().is_empty() { &out.stdout } else { &out.stderr };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let lines = &lines[lines.len().saturating_sub(STDERR_TAIL_LINES)..];
    if lines.is_empty() { String::new() } else { format!(":\n{}", lines.join("\n")) }
}

// ---------------------------------------------------------------------------------------------
// RefactoringMiner's JSON
// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
struct Document {
    commits: Vec<Commit>,
}

#[derive(Deserialize)]
struct Commit {
    #[serde(default)]
    refactorings: Vec<MinerRefactoring>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MinerRefactoring {
    #[serde(rename = "type")]
    kind: String,
    description: String,
    #[serde(default)]
    left_side_locations: Vec<Location>,
    #[serde(default)]
    right_side_locations: Vec<Location>,
}

/// The method-level refactorings in RefactoringMiner's JSON document `json` (read from `file`,
/// which the error names), in document order. Other types are skipped (see the module docs).
pub fn parse_output(json: &str, file: &Path) -> Result<Vec<Refactoring>, MinerError> {
    let doc: Document =
        serde_json::from_str(json).map_err(|source| MinerError::Parse { file: file.to_path_buf(), source })?;
    let mut out = Vec::new();
    for r in doc.commits.into_iter().flat_map(|c| c.refactorings) {
        let Some(kind) = RefactoringType::from_display_name(&r.kind) else {
            tracing::debug!("RefactoringMiner reported a {}, which mantra does not check: {}", r.kind, r.description);
            continue;
        };
        let subject = subject_of(kind, &r.description).unwrap_or_default();
        out.push(Refactoring {
            kind,
            code: kind.code().to_string(),
            description: r.description,
            left_side_locations: r.left_side_locations,
            right_side_locations: r.right_side_locations,
            // Not in RefactoringMiner's plain output; see the module docs.
            pure: false,
            subject,
        });
    }
    Ok(out)
}

/// Who a refactoring is about, read from its description, with the roles [`Subject`] documents.
pub fn subject_of(kind: RefactoringType, description: &str) -> Option<Subject> {
    let details = description.strip_prefix(kind.display_name())?.trim_start_matches(['\t', ' ']);
    use RefactoringType as T;
    // (subject method, its class, other method, its class), each method as RefactoringMiner prints it.
    let (sm, sc, om, oc): (&str, &str, &str, &str) = match kind {
        T::ExtractMethod => {
            let (x, rest) = details.split_once(" extracted from ")?;
            let (y, c) = rest.rsplit_once(" in class ")?;
            (y, c, x, c)
        }
        T::ExtractAndMoveMethod => {
            let (x, rest) = details.split_once(" extracted from ")?;
            let (rest, d) = rest.rsplit_once(" & moved to class ")?;
            let (y, c) = rest.rsplit_once(" in class ")?;
            (y, c, x, d)
        }
        T::InlineMethod => {
            let (x, rest) = details.split_once(" inlined to ")?;
            let (y, c) = rest.rsplit_once(" in class ")?;
            (x, c, y, c)
        }
        T::MoveAndInlineMethod => {
            let (x, rest) = details.split_once(" moved from class ")?;
            let (c, rest) = rest.split_once(" to class ")?;
            let (d, y) = rest.split_once(" & inlined to ")?;
            (x, c, y, d)
        }
        T::RenameMethod => {
            let (x, rest) = details.split_once(" renamed to ")?;
            let (y, c) = rest.rsplit_once(" in class ")?;
            (x, c, y, c)
        }
        T::MoveMethod | T::MoveAndRenameMethod | T::PullUpMethod | T::PushDownMethod => {
            let (x, rest) = details.split_once(" from class ")?;
            let (c, rest) = rest.split_once(" to ")?;
            let (y, d) = rest.rsplit_once(" from class ")?;
            (x, c, y, d)
        }
    };
    let (method, signature) = method_of(sm)?;
    let (other_method, other_signature) = method_of(om)?;
    Some(Subject {
        method,
        signature,
        class: sc.to_string(),
        other_method,
        other_signature,
        other_class: oc.to_string(),
    })
}

/// `public name(a List<T>, b int...) : R` → (`name`, `name(List,int[])`), the detector's key.
fn method_of(desc: &str) -> Option<(String, String)> {
    let open = desc.find('(')?;
    let close = desc.rfind(')')?;
    let name = desc[..open].split_whitespace().last()?.to_string();
    let mut types = Vec::new();
    for param in crate::java::split_top_level(&desc[open + 1..close]) {
        let (_, ty) = param.trim().split_once(' ')?;
        let ty = ty.trim();
        types.push(match ty.strip_suffix("...") {
            Some(element) => erase(element, 1),
            None => erase(ty, 0),
        });
    }
    let signature = format!("{name}({})", types.join(","));
    Some((name, signature))
}

/// RefactoringMiner as the Reviewer's validator: its detections, judged against the intent by the
/// same rules as the built-in detector's. A launcher that fails is a [`ValidatorError`], so the
/// detection stage is skipped with the reason rather than faked.
impl super::validator::Validator for RefactoringMiner {
    fn name(&self) -> &'static str {
        "RefactoringMiner"
    }

    fn validate(
        &self,
        intent: &super::validator::Intent,
        before: &super::validator::Files,
        after: &super::validator::Files,
    ) -> Result<super::validator::Validation, super::validator::ValidatorError> {
        use super::builtin::{snapshot, validation};
        let (before, after) = (snapshot(before), snapshot(after));
        let found = self.detect(&before, &after).map_err(|e| super::validator::ValidatorError(e.to_string()))?;
        Ok(validation(crate::detect::validate_found(&intent.into(), &found, &before, &after)))
    }

    fn detect(
        &self,
        before: &super::validator::Files,
        after: &super::validator::Files,
    ) -> Result<Vec<super::validator::Found>, super::validator::ValidatorError> {
        use super::builtin::{found, snapshot};
        let found_by_miner = RefactoringMiner::detect(self, &snapshot(before), &snapshot(after))
            .map_err(|e| super::validator::ValidatorError(e.to_string()))?;
        Ok(found_by_miner.iter().map(found).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_match_the_built_in_detectors() {
        let before = Snapshot::from_files([
            (
                "a/A.java",
                "package a;\nclass A {\n  B b;\n  int total(java.util.List<String> xs, int... ks) {\n    int s = 0;\n    for (String x : xs) {\n      s += x.length();\n      s += 2;\n    }\n    return s;\n  }\n  void helper(int n) {\n    System.out.println(n);\n    System.out.println(n + 1);\n    System.out.println(n + 2);\n  }\n}\n",
            ),
            ("a/B.java", "package a;\nclass B {\n}\n"),
        ]);
        let after = Snapshot::from_files([
            (
                "a/A.java",
                "package a;\nclass A {\n  B b;\n  int total(java.util.List<String> xs, int... ks) {\n    int s = 0;\n    for (String x : xs) {\n      s = add(s, x);\n    }\n    return s;\n  }\n  private int add(int s, String x) {\n    s += x.length();\n    s += 2;\n    return s;\n  }\n}\n",
            ),
            (
                "a/B.java",
                "package a;\nclass B {\n  void helper(int n) {\n    System.out.println(n);\n    System.out.println(n + 1);\n    System.out.println(n + 2);\n  }\n}\n",
            ),
        ]);
        let found = crate::detect::detect(&before, &after);
        assert!(found.len() >= 2, "{found:#?}");
        for r in &found {
            assert_eq!(subject_of(r.kind, &r.description).as_ref(), Some(&r.subject), "{}", r.description);
        }
    }

    #[test]
    fn subjects_of_every_description_shape() {
        let cases = [
            (
                "Extract And Move Method\tpublic x(a Map<String,Integer>) : void extracted from public y() : void in class p.A & moved to class p.B",
                ("y", "y()", "p.A", "x", "p.B"),
            ),
            (
                "Move And Inline Method\tpublic x(s String...) : void moved from class p.A to class p.B & inlined to public y() : void",
                ("x", "x(String[])", "p.A", "y", "p.B"),
            ),
            (
                "Inline Method\tprivate x(a int[]) : int inlined to public y() : void in class p.A",
                ("x", "x(int[])", "p.A", "y", "p.A"),
            ),
            (
                "Move And Rename Method\tpackage x() : void from class p.A to public z() : void from class q.B",
                ("x", "x()", "p.A", "z", "q.B"),
            ),
            (
                "Rename Method\tpublic x() : void renamed to public z() : void in class p.A",
                ("x", "x()", "p.A", "z", "p.A"),
            ),
        ];
        for (description, (m, sig, c, om, oc)) in cases {
            let kind = RefactoringType::from_display_name(description.split('\t').next().unwrap()).unwrap();
            let s = subject_of(kind, description).unwrap();
            assert_eq!(
                (
                    s.method.as_str(),
                    s.signature.as_str(),
                    s.class.as_str(),
                    s.other_method.as_str(),
                    s.other_class.as_str()
                ),
                (m, sig, c, om, oc),
                "{description}"
            );
        }
        assert_eq!(subject_of(RefactoringType::RenameMethod, "Rename Method\tsomething else"), None);
    }

    #[test]
    fn snapshot_paths_stay_inside_the_repository() {
        assert!(relative("src/A.java").is_ok());
        for bad in ["", "/etc/passwd", "../A.java", "src/../../A.java"] {
            assert!(matches!(relative(bad), Err(MinerError::BadPath { .. })), "{bad}");
        }
    }
}
