//! Exit codes, named in one place. The README lists them; scripts and CI depend on them.

/// A process exit status with a stable meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Exit {
    /// The command did what was asked.
    Success,
    /// A refactoring was attempted but not accepted (verification failed, or the engine refused).
    Rejected,
    /// The command line, the configuration or a target was malformed or ambiguous.
    Usage,
    /// The target file, class or method does not exist.
    TargetNotFound,
    /// A required tool (Java, Maven, Gradle, Checkstyle, ...) is missing.
    EnvironmentMissing,
    /// The input could not be processed: a Java file with syntax errors, bytes that are not UTF-8.
    InvalidInput,
    /// A bug in mantra or an unexpected failure of the machine (I/O, a panic).
    Internal,
}

impl Exit {
    /// Every exit code, in the order the README documents them.
    pub const ALL: [Exit; 7] = [
        Exit::Success,
        Exit::Rejected,
        Exit::Usage,
        Exit::TargetNotFound,
        Exit::EnvironmentMissing,
        Exit::InvalidInput,
        Exit::Internal,
    ];

    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Rejected => 1,
            Exit::Usage => 2,
            Exit::TargetNotFound => 3,
            Exit::EnvironmentMissing => 4,
            Exit::InvalidInput => 5,
            Exit::Internal => 70,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Exit::Success => "success",
            Exit::Rejected => "refactoring rejected: the engine refused it or verification failed",
            Exit::Usage => "usage error: bad flags, configuration, or an ambiguous target",
            Exit::TargetNotFound => "target not found: no such file, class or method",
            Exit::EnvironmentMissing => "environment missing: a required tool is not installed",
            Exit::InvalidInput => "invalid input: a Java file that cannot be parsed, or non-UTF-8 bytes",
            Exit::Internal => "internal error: a bug in mantra or an I/O failure",
        }
    }
}

/// The status of a run stopped by Ctrl-C, SIGTERM or SIGHUP: 128 + SIGINT, the shell's code for
/// an interrupted command. Not an [`Exit`]: the signal handler ends the process itself, after
/// removing the live workspaces.
pub const INTERRUPTED: i32 = 130;

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> Self {
        std::process::ExitCode::from(e.code())
    }
}
