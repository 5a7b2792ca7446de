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

/// Copies a fixture project to a temporary directory, leaving build outputs behind.
pub fn copy_fixture(name: &str) -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for entry in std::fs::read_dir(from).expect("read fixture") {
            let entry = entry.expect("entry");
            let name = entry.file_name();
            if matches!(name.to_str(), Some("target" | "build" | ".gradle" | ".mantra")) {
                continue;
            }
            let path = entry.path();
            if entry.file_type().expect("file type").is_dir() {
                copy(&path, &to.join(&name));
            } else {
                std::fs::copy(&path, to.join(&name)).expect("copy");
            }
        }
    }
    let dir = tempfile::Builder::new().prefix(&format!("mantra-{name}-")).tempdir().expect("tempdir");
    copy(&fixture(name), dir.path());
    dir
}

/// Runs a build command in `root`; panics with its output when it fails.
pub fn run_build(root: &Path, program: &str, args: &[&str]) {
    let out = Command::new(program)
        .args(args)
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?} failed in {}:\n{}\n{}",
        root.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `mvn test` offline against Debian's repository, tests in Maven's JVM; must pass.
pub fn maven_test(root: &Path) {
    run_build(root, "mvn", &["-o", "-B", "-q", "-Dmaven.repo.local=/usr/share/maven-repo", "-DforkCount=0", "test"]);
}

/// `gradle test` offline; must pass.
pub fn gradle_test(root: &Path) {
    run_build(root, "gradle", &["--offline", "-q", "test"]);
}

/// The text of a repository-relative file under `root`.
pub fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Runs git in `dir` with a fixed identity and without the machine's global configuration; must succeed.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("git prints UTF-8")
}

/// Sends SIGINT to `proc` and waits for it to exit: at most 20 s, then it is killed and the test
/// fails.
pub fn interrupt(proc: &mut std::process::Child) -> std::process::ExitStatus {
    use std::time::{Duration, Instant};
    // SAFETY: kill(2) with a pid we spawned and still own (not yet waited for).
    assert_eq!(unsafe { libc::kill(proc.id() as i32, libc::SIGINT) }, 0);
    let start = Instant::now();
    loop {
        if let Some(status) = proc.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = proc.kill();
            panic!("the process did not exit on SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// [`mantra`] with `input` on standard input (the answers of an interactive loop).
pub fn mantra_stdin(cwd: &Path, args: &[&str], input: &str) -> Run {
    use std::io::Write as _;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mantra"));
    cmd.args(args).current_dir(cwd);
    for (k, _) in std::env::vars() {
        if k.starts_with("MANTRA_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("run mantra");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write answers");
    let out = child.wait_with_output().expect("wait for mantra");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
