//! External commands as values, run through one [`Runner`].
//!
//! Java, Maven, Gradle, Checkstyle and RefactoringMiner are all separate programs. Each call is
//! described by a [`Cmd`] (program, arguments, folder, environment, timeout, output cap) and run
//! by a [`Runner`], a trait so that tests can substitute scripted answers. The real runner,
//! [`System`]:
//!
//! - starts the child in a new process group, so that a timeout kills the whole tree (Maven's
//!   forked test JVMs, a shell's children), not just the direct child;
//! - reads stdout and stderr on their own threads (a full pipe would otherwise block the child)
//!   and keeps at most `output_cap` bytes of each: the head (where compilers put the first
//!   error) and the tail (where test runners put the summary);
//! - does not hang when a descendant keeps the pipes open after the child exits: it waits a
//!   short grace period, then kills the group and returns what it has;
//! - lists every running child's process group, so that an interrupt ends them all
//!   ([`kill_running`]) before mantra removes the workspaces they work in;
//! - passes on no variable the command hid ([`hide_from_children`]: those that may hold the
//!   model's API key), so code the model wrote (a test, a build step) cannot read or print it.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::error::Classify;
use crate::exit::Exit;

/// The default cap on each of stdout and stderr.
pub const DEFAULT_OUTPUT_CAP: usize = 1024 * 1024;

/// How long to wait for the pipes to close once the child has exited.
const PIPE_GRACE: Duration = Duration::from_secs(2);

/// One external command, as a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cmd {
    pub program: OsString,
    pub args: Vec<OsString>,
    pub cwd: Option<PathBuf>,
    /// Variables to set (`Some`) or remove (`None`), on top of this process's environment.
    pub env: Vec<(OsString, Option<OsString>)>,
    /// `None` waits forever.
    pub timeout: Option<Duration>,
    /// Bytes kept of each of stdout and stderr.
    pub output_cap: usize,
}

impl Cmd {
    pub fn new(program: impl Into<OsString>) -> Cmd {
        Cmd {
            program: program.into(),
            args: Vec::new(),
            cwd: None,
            env: Vec::new(),
            timeout: None,
            output_cap: DEFAULT_OUTPUT_CAP,
        }
    }

    pub fn arg(mut self, arg: impl Into<OsString>) -> Cmd {
        self.args.push(arg.into());
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: Into<OsString>>(mut self, args: I) -> Cmd {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Cmd {
        self.cwd = Some(dir.into());
        self
    }

    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Cmd {
        self.env.push((key.into(), Some(value.into())));
        self
    }

    pub fn env_remove(mut self, key: impl Into<OsString>) -> Cmd {
        self.env.push((key.into(), None));
        self
    }

    pub fn timeout(mut self, timeout: Duration) -> Cmd {
        self.timeout = Some(timeout);
        self
    }

    pub fn output_cap(mut self, bytes: usize) -> Cmd {
        self.output_cap = bytes;
        self
    }
}

/// The command line, quoted where needed, for messages and logs.
impl fmt::Display for Cmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quote = |s: &OsStr| {
            let s = s.to_string_lossy();
            if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%{}".contains(c)) {
                s.into_owned()
            } else {
                format!("'{}'", s.replace('\'', r"'\''"))
            }
        };
        write!(f, "{}", quote(&self.program))?;
        for a in &self.args {
            write!(f, " {}", quote(a))?;
        }
        Ok(())
    }
}

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Status {
    Exited {
        code: i32,
    },
    /// Killed by a signal it did not ask for (unix).
    Signaled {
        signal: i32,
    },
    /// Ran past its timeout; the process group was killed.
    TimedOut,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Exited { code } => write!(f, "exit code {code}"),
            Status::Signaled { signal } => write!(f, "killed by signal {signal}"),
            Status::TimedOut => write!(f, "timed out"),
        }
    }
}

/// What a command printed and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub status: Status,
    /// At most `output_cap` bytes (plus an omission marker), decoded lossily as UTF-8.
    pub stdout: String,
    pub stderr: String,
    /// Whether either stream lost bytes to the cap, or was still open when the runner gave up.
    pub truncated: bool,
    pub elapsed: Duration,
}

impl Output {
    pub fn success(&self) -> bool {
        self.status == Status::Exited { code: 0 }
    }

    /// The exit code, if the command exited by itself.
    pub fn code(&self) -> Option<i32> {
        match self.status {
            Status::Exited { code } => Some(code),
            _ => None,
        }
    }

    /// `Ok(self)` when the command succeeded, else an error carrying its stderr.
    pub fn check(self, cmd: &Cmd) -> Result<Output, ProcessError> {
        match self.status {
            Status::Exited { code: 0 } => Ok(self),
            Status::TimedOut => Err(ProcessError::TimedOut {
                command: cmd.to_string(),
                after: cmd.timeout.unwrap_or_default(),
                stderr: self.stderr,
            }),
            status => Err(ProcessError::Failed { command: cmd.to_string(), status, stderr: self.stderr }),
        }
    }
}

/// A command that could not be run, or (from [`Output::check`]) did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    #[error("`{program}` was not found on PATH")]
    NotFound { program: String },
    #[error("cannot start `{program}`: {error}")]
    Spawn { program: String, error: std::io::Error },
    #[error("`{command}` failed ({status}){}", stderr_suffix(stderr))]
    Failed { command: String, status: Status, stderr: String },
    #[error("`{command}` timed out after {}s{}", after.as_secs(), stderr_suffix(stderr))]
    TimedOut { command: String, after: Duration, stderr: String },
}

fn stderr_suffix(stderr: &str) -> String {
    let tail: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = &tail[tail.len().saturating_sub(5)..];
    if tail.is_empty() { String::new() } else { format!(":\n{}", tail.join("\n")) }
}

impl Classify for ProcessError {
    fn exit(&self) -> Exit {
        match self {
            ProcessError::NotFound { .. } => Exit::EnvironmentMissing,
            _ => Exit::Internal,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            ProcessError::NotFound { program } => {
                Some(format!("install `{program}` or put it on PATH; `mantra doctor` checks every tool"))
            }
            ProcessError::TimedOut { .. } => Some("raise the timeout in the configuration".into()),
            _ => None,
        }
    }
}

/// Variables no child inherits, for this process.
static HIDDEN: std::sync::Mutex<Vec<OsString>> = std::sync::Mutex::new(Vec::new());

/// Keeps `var` out of every child's environment from now on.
pub fn hide_from_children(var: &str) {
    let mut hidden = HIDDEN.lock().unwrap_or_else(|e| e.into_inner());
    if !var.is_empty() && !hidden.iter().any(|h| h == var) {
        hidden.push(var.into());
    }
}

/// The process groups of the children running now (each child leads its own group).
static RUNNING: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

fn running() -> std::sync::MutexGuard<'static, Vec<u32>> {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Set once an interrupt has killed the children: the process is about to exit.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Kills the whole process group of every child running now (a build, its forked test JVMs, a
/// shell's background jobs). The interrupt handler calls it first, so nothing keeps writing
/// into a workspace being removed, or outlives mantra. The threads that were waiting for those
/// children do not go on (they would report the killed build as a failure, and exit with
/// `rejected` before the handler exits with 130): they wait for the handler to end the process.
pub fn kill_running() {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
    for &pgid in running().iter() {
        kill_process_group(pgid);
    }
}

/// Runs commands. [`System`] runs real processes; tests may script answers.
pub trait Runner: Send + Sync {
    fn run(&self, cmd: &Cmd) -> Result<Output, ProcessError>;
}

/// The real runner: child processes, process groups, capped output.
#[derive(Debug, Clone, Copy, Default)]
pub struct System;

impl Runner for System {
    fn run(&self, cmd: &Cmd) -> Result<Output, ProcessError> {
        let program = cmd.program.to_string_lossy().into_owned();
        let mut command = Command::new(&cmd.program);
        command.args(&cmd.args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(dir) = &cmd.cwd {
            command.current_dir(dir);
        }
        for var in HIDDEN.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            command.env_remove(var);
        }
        for (k, v) in &cmd.env {
            match v {
                Some(v) => command.env(k, v),
                None => command.env_remove(k),
            };
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own group, with the child's pid as the group id, so the whole tree can be killed.
            command.process_group(0);
        }
        let start = Instant::now();
        // The list stays locked from before the spawn until the child is on it: an interrupt
        // that comes as the child starts waits, then kills it too, instead of missing it.
        let mut listed = running();
        let mut child = command.spawn().map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => ProcessError::NotFound { program: program.clone() },
            _ => ProcessError::Spawn { program: program.clone(), error },
        })?;
        let pgid = child.id();
        listed.push(pgid);
        drop(listed);
        let result = wait_for(cmd, &program, &mut child, start);
        running().retain(|&p| p != pgid);
        while INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
            std::thread::park();
        }
        result
    }
}

/// Collects the output of a started child, killing its group on timeout.
fn wait_for(cmd: &Cmd, program: &str, child: &mut std::process::Child, start: Instant) -> Result<Output, ProcessError> {
    let (tx, rx) = mpsc::channel();
    let mut open = 0;
    if let Some(out) = child.stdout.take() {
        spawn_reader(out, 0, cmd.output_cap, tx.clone());
        open += 1;
    }
    if let Some(err) = child.stderr.take() {
        spawn_reader(err, 1, cmd.output_cap, tx.clone());
        open += 1;
    }
    drop(tx);

    let spawn_error = |error| ProcessError::Spawn { program: program.to_string(), error };
    let mut poll = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = child.try_wait().map_err(spawn_error)? {
            break status_of(status);
        }
        if cmd.timeout.is_some_and(|t| start.elapsed() >= t) {
            kill_group(child);
            let _ = child.wait();
            break Status::TimedOut;
        }
        std::thread::sleep(poll);
        poll = (poll * 2).min(Duration::from_millis(50));
    };

    let mut streams = [Capped::new(0), Capped::new(0)];
    let mut deadline = Instant::now() + PIPE_GRACE;
    let mut killed = status == Status::TimedOut;
    while open > 0 {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok((idx, capped)) => {
                streams[idx] = capped;
                open -= 1;
            }
            Err(mpsc::RecvTimeoutError::Timeout) if !killed => {
                // A descendant still holds the pipes: the command is over, so end the rest of its group.
                kill_group(child);
                killed = true;
                deadline = Instant::now() + PIPE_GRACE;
            }
            Err(_) => break,
        }
    }
    let [out, err] = streams;
    let truncated = open > 0 || out.truncated() || err.truncated();
    Ok(Output { status, stdout: out.finish(), stderr: err.finish(), truncated, elapsed: start.elapsed() })
}

fn spawn_reader(mut pipe: impl Read + Send + 'static, idx: usize, cap: usize, tx: mpsc::Sender<(usize, Capped)>) {
    std::thread::spawn(move || {
        let mut capped = Capped::new(cap);
        let mut buf = [0u8; 8192];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => capped.push(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        // The receiver may have given up on us; nothing left to do then.
        let _ = tx.send((idx, capped));
    });
}

#[cfg(unix)]
fn status_of(status: std::process::ExitStatus) -> Status {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => Status::Exited { code },
        (None, Some(signal)) => Status::Signaled { signal },
        (None, None) => Status::Exited { code: -1 },
    }
}

#[cfg(not(unix))]
fn status_of(status: std::process::ExitStatus) -> Status {
    Status::Exited { code: status.code().unwrap_or(-1) }
}

/// Kills the child's whole process group (unix), or the child alone elsewhere.
fn kill_group(child: &mut std::process::Child) {
    kill_process_group(child.id());
    let _ = child.kill();
}

/// SIGKILL to the process group `pgid` leads (every child starts its own, `process_group(0)`).
fn kill_process_group(pgid: u32) {
    #[cfg(unix)]
    if let Ok(pgid) = libc::pid_t::try_from(pgid) {
        // SAFETY: kill(2) takes plain integers and touches no memory; a negative pid addresses
        // the process group the child leads.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Keeps the first and last `cap / 2` bytes of a stream and counts the rest.
struct Capped {
    cap: usize,
    head: Vec<u8>,
    tail: VecDeque<u8>,
    total: u64,
}

impl Capped {
    fn new(cap: usize) -> Capped {
        Capped { cap, head: Vec::new(), tail: VecDeque::new(), total: 0 }
    }

    fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let head_room = (self.cap / 2).saturating_sub(self.head.len());
        let take = head_room.min(bytes.len());
        self.head.extend_from_slice(&bytes[..take]);
        bytes = &bytes[take..];
        let tail_cap = self.cap - self.cap / 2;
        if bytes.len() >= tail_cap {
            self.tail.clear();
            self.tail.extend(&bytes[bytes.len() - tail_cap..]);
        } else {
            self.tail.extend(bytes);
            let excess = self.tail.len().saturating_sub(tail_cap);
            self.tail.drain(..excess);
        }
    }

    fn truncated(&self) -> bool {
        self.total > (self.head.len() + self.tail.len()) as u64
    }

    fn finish(self) -> String {
        let kept = (self.head.len() + self.tail.len()) as u64;
        let tail: Vec<u8> = self.tail.into_iter().collect();
        if self.total == kept {
            let mut all = self.head;
            all.extend_from_slice(&tail);
            return String::from_utf8_lossy(&all).into_owned();
        }
        format!(
            "{}\n[... {} bytes omitted ...]\n{}",
            String::from_utf8_lossy(&self.head),
            self.total - kept,
            String::from_utf8_lossy(&tail)
        )
    }
}

/// Where `program` would be found: itself if it contains a `/`, else the first executable file
/// of that name in the folders of `path_var` (a `PATH` value).
pub fn which(program: &Path, path_var: Option<&OsStr>) -> Option<PathBuf> {
    if program.components().count() > 1 || program.is_absolute() {
        return is_executable(program).then(|| program.to_path_buf());
    }
    std::env::split_paths(path_var?).map(|dir| dir.join(program)).find(|p| is_executable(p))
}

/// A regular file this user may execute.
pub fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Cmd {
        Cmd::new("sh").arg("-c").arg(script)
    }

    #[test]
    fn captures_both_streams_and_the_exit_code() {
        let out = System.run(&sh("echo out; echo err >&2; exit 3")).unwrap();
        assert_eq!(out.status, Status::Exited { code: 3 });
        assert_eq!((out.stdout.as_str(), out.stderr.as_str()), ("out\n", "err\n"));
        assert!(!out.truncated);
        let err = out.check(&sh("x")).unwrap_err();
        assert!(err.to_string().contains("exit code 3") && err.to_string().contains("err"), "{err}");
    }

    #[test]
    fn passes_cwd_and_env() {
        let dir = tempfile::tempdir().unwrap();
        let out = System.run(&sh("pwd; echo $FOO").cwd(dir.path()).env("FOO", "bar")).unwrap();
        let canon = dir.path().canonicalize().unwrap();
        assert_eq!(out.stdout, format!("{}\nbar\n", canon.display()));
    }

    #[test]
    fn a_missing_program_is_not_found() {
        let err = System.run(&Cmd::new("mantra-no-such-program")).unwrap_err();
        assert!(matches!(err, ProcessError::NotFound { .. }), "{err}");
        assert_eq!(err.exit(), Exit::EnvironmentMissing);
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let script = format!("sleep 30 & echo $! > {}; wait", pidfile.display());
        let start = Instant::now();
        let out = System.run(&sh(&script).timeout(Duration::from_millis(300))).unwrap();
        assert_eq!(out.status, Status::TimedOut);
        assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
        let pid = std::fs::read_to_string(&pidfile).unwrap().trim().to_string();
        // The grandchild was killed with its group; give init a moment to reap it.
        let gone = (0..50).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            !Path::new(&format!("/proc/{pid}")).exists()
                || std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z "))
        });
        assert!(gone, "grandchild {pid} still running");
    }

    #[test]
    fn a_descendant_holding_the_pipe_does_not_hang_the_runner() {
        let start = Instant::now();
        let out = System.run(&sh("sleep 30 & echo started")).unwrap();
        assert_eq!(out.status, Status::Exited { code: 0 });
        assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
        assert!(out.stdout.starts_with("started"));
    }

    #[test]
    fn output_is_capped_keeping_head_and_tail() {
        let out = System.run(&sh("echo START; seq 1 100000; echo END").output_cap(1000)).unwrap();
        assert!(out.truncated);
        assert!(out.stdout.starts_with("START\n1\n2\n"), "{}", &out.stdout[..50]);
        assert!(out.stdout.ends_with("100000\nEND\n"));
        assert!(out.stdout.contains("bytes omitted"));
        assert!(out.stdout.len() < 1100);
    }

    #[test]
    fn capped_keeps_everything_under_the_cap() {
        let mut c = Capped::new(10);
        c.push(b"abc");
        c.push(b"defgh");
        assert!(!c.truncated());
        assert_eq!(c.finish(), "abcdefgh");
        let mut c = Capped::new(10);
        for chunk in [&b"0123"[..], b"456789", b"ABCDEFG"] {
            c.push(chunk);
        }
        assert_eq!(c.finish(), "01234\n[... 7 bytes omitted ...]\nCDEFG");
    }

    #[test]
    fn which_finds_executables_on_the_given_path() {
        let sh = which(Path::new("sh"), std::env::var_os("PATH").as_deref()).unwrap();
        assert!(sh.is_absolute());
        assert_eq!(which(Path::new("sh"), Some(OsStr::new("/nonexistent"))), None);
        assert_eq!(which(Path::new("/nonexistent/sh"), None), None);
    }

    #[test]
    fn display_quotes_arguments() {
        let cmd = Cmd::new("mvn").args(["-q", "it's here", "-Dx=1"]);
        assert_eq!(cmd.to_string(), r"mvn -q 'it'\''s here' -Dx=1");
    }
}
