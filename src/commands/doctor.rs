//! `mantra doctor`: are the tools mantra runs present, and what is configured?
//!
//! Every check says what it found (a version, a path), whether that is fine, and one line on how
//! to fix it. Tools are probed through the [`Runner`] (`java -version`, `mvn -v`, ...), in
//! parallel because each one starts a JVM. Doctor never contacts the model endpoint and never
//! prints the API key: it only says whether the variable that should hold it is set.
//!
//! `--print-config` prints the resolved configuration instead: every key, its value, its origin.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value as Json;

use super::Context;
use crate::cli::DoctorArgs;
use crate::config::{BuildSystemChoice, Config, Environment, Resolved};
use crate::exit::Exit;
use crate::java::BuildSystem;
use crate::process::{Cmd, Runner, System, is_executable, which};
use crate::report::Event;
use crate::style::Style;
use crate::style::strip_ansi;

/// How long one version probe may take; a cold JVM on a busy machine takes a few seconds.
const PROBE_TIMEOUT: Duration = Duration::from_secs(60);

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckStatus {
    Ok,
    /// Not configured, and that is fine: a fallback is used.
    Info,
    /// Optional and absent or broken: something works less well.
    Warning,
    /// Required and absent or broken: mantra cannot verify refactorings.
    Missing,
}

/// One line of the doctor's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub required: bool,
    pub status: CheckStatus,
    pub version: Option<String>,
    pub detail: String,
    pub fix: Option<String>,
}

impl Check {
    fn new(name: &'static str, required: bool, status: CheckStatus, detail: impl Into<String>) -> Check {
        Check { name, required, status, version: None, detail: detail.into(), fix: None }
    }
    fn fix(mut self, fix: impl Into<String>) -> Check {
        self.fix = Some(fix.into());
        self
    }
    fn version(mut self, version: Option<String>) -> Check {
        self.version = version;
        self
    }
}

/// The doctor's result, the `--json` payload of kind `doctor`.
#[derive(Debug, Serialize)]
pub struct Report {
    pub repo: PathBuf,
    pub build_system: BuildSystem,
    /// False when a required check is missing (exit code 4).
    pub ok: bool,
    pub checks: Vec<Check>,
}

pub fn run(ctx: &mut Context, args: &DoctorArgs) -> anyhow::Result<Exit> {
    if args.print_config {
        let (data, human) = print_config(&ctx.config, ctx.reporter.style());
        ctx.reporter.emit(Event::result("config", &data, human));
        return Ok(Exit::Success);
    }
    let env = Environment::from_process();
    let report = diagnose(&ctx.repo, &ctx.config.config, &env, &System);
    let human = render(&report, ctx.reporter.style());
    let exit = if report.ok { Exit::Success } else { Exit::EnvironmentMissing };
    ctx.reporter.emit(Event::result("doctor", &report, human));
    Ok(exit)
}

/// Runs every check for the project at `repo`.
pub fn diagnose(repo: &Path, config: &Config, env: &Environment, runner: &dyn Runner) -> Report {
    let detected = BuildSystem::detect(repo);
    let uses = |system: BuildSystemChoice| match config.build.system {
        BuildSystemChoice::Auto => match detected {
            BuildSystem::Maven => system == BuildSystemChoice::Maven,
            BuildSystem::Gradle | BuildSystem::GradleWrapper => system == BuildSystemChoice::Gradle,
            BuildSystem::None => system == BuildSystemChoice::Javac,
        },
        chosen => chosen == system,
    };
    let path = env.vars.get("PATH").map(std::ffi::OsStr::new);
    let probes: Vec<Box<dyn Fn() -> Check + Sync + '_>> = vec![
        Box::new(|| java(runner, path)),
        Box::new(|| javac(runner, path)),
        Box::new(|| maven(runner, path, uses(BuildSystemChoice::Maven))),
        Box::new(|| gradle(repo, detected, runner, path, uses(BuildSystemChoice::Gradle))),
        Box::new(|| checkstyle(config, runner, path)),
    ];
    let mut checks: Vec<Check> = std::thread::scope(|s| {
        let handles: Vec<_> = probes.iter().map(|p| s.spawn(p)).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Check::new("probe", false, CheckStatus::Warning, "a probe panicked")))
            .collect()
    });
    checks.push(refactoring_miner(config, path));
    checks.extend(llm(config, env));
    checks.push(embeddings(config));
    let ok = !checks.iter().any(|c| c.status == CheckStatus::Missing);
    Report { repo: repo.to_path_buf(), build_system: detected, ok, checks }
}

/// Runs `program args` and returns the version found after `marker` in its output, or why not.
fn probe(runner: &dyn Runner, path: Option<&std::ffi::OsStr>, program: &Path, args: &[&str], marker: &str) -> Probe {
    let Some(found) = which(program, path) else { return Probe::Absent };
    let cmd = Cmd::new(found.as_os_str()).args(args).timeout(PROBE_TIMEOUT).output_cap(64 * 1024);
    match runner.run(&cmd) {
        Ok(out) if out.success() => {
            let text = strip_ansi(&format!("{}\n{}", out.stdout, out.stderr));
            Probe::Found { path: found, version: version_after(&text, marker) }
        }
        Ok(out) => {
            let why = strip_ansi(&out.stderr).lines().find(|l| !l.trim().is_empty()).unwrap_or("").to_string();
            Probe::Broken(format!(
                "`{cmd}` failed ({}){}",
                out.status,
                if why.is_empty() { why } else { format!(": {why}") }
            ))
        }
        Err(e) => Probe::Broken(e.to_string()),
    }
}

enum Probe {
    Absent,
    Found { path: PathBuf, version: Option<String> },
    Broken(String),
}

impl Probe {
    /// A check from this probe; `absent` is the status when the program is missing or broken.
    fn check(self, name: &'static str, required: bool, absent: CheckStatus, missing: &str, fix: &str) -> Check {
        match self {
            Probe::Found { path, version } => {
                Check::new(name, required, CheckStatus::Ok, path.display().to_string()).version(version)
            }
            // A tool this project does not need gets no fix line: there is nothing to fix.
            Probe::Absent if absent == CheckStatus::Info => Check::new(name, required, absent, missing),
            Probe::Absent => Check::new(name, required, absent, missing).fix(fix),
            Probe::Broken(why) => Check::new(name, required, absent, why).fix(fix),
        }
    }
}

fn java(runner: &dyn Runner, path: Option<&std::ffi::OsStr>) -> Check {
    probe(runner, path, Path::new("java"), &["-version"], "version \"").check(
        "java",
        true,
        CheckStatus::Missing,
        "not found on PATH",
        "install a JDK 17: `sudo apt-get install openjdk-17-jdk-headless`, or run scripts/setup.sh",
    )
}

fn javac(runner: &dyn Runner, path: Option<&std::ffi::OsStr>) -> Check {
    probe(runner, path, Path::new("javac"), &["-version"], "javac ").check(
        "javac",
        true,
        CheckStatus::Missing,
        "not found on PATH (a JRE alone cannot compile)",
        "install a JDK 17: `sudo apt-get install openjdk-17-jdk-headless`, or run scripts/setup.sh",
    )
}

fn maven(runner: &dyn Runner, path: Option<&std::ffi::OsStr>, required: bool) -> Check {
    let (absent, missing) = if required {
        (CheckStatus::Missing, "not found on PATH; required: the project is built with Maven")
    } else {
        (CheckStatus::Info, "not found on PATH; not needed: the project is not built with Maven")
    };
    probe(runner, path, Path::new("mvn"), &["-B", "-v"], "Apache Maven ").check(
        "mvn",
        required,
        absent,
        missing,
        "install Maven: `sudo apt-get install maven`, or run scripts/setup.sh",
    )
}

fn gradle(
    repo: &Path,
    detected: BuildSystem,
    runner: &dyn Runner,
    path: Option<&std::ffi::OsStr>,
    required: bool,
) -> Check {
    if detected == BuildSystem::GradleWrapper {
        // Running the wrapper may download a Gradle distribution; read its version instead.
        let wrapper = repo.join("gradlew");
        let version = std::fs::read_to_string(repo.join("gradle/wrapper/gradle-wrapper.properties"))
            .ok()
            .and_then(|p| wrapper_version(&p));
        return if is_executable(&wrapper) {
            Check::new("gradle", required, CheckStatus::Ok, wrapper.display().to_string()).version(version)
        } else {
            Check::new("gradle", required, CheckStatus::Missing, "./gradlew exists but is not executable")
                .fix("`chmod +x gradlew`")
        };
    }
    let (absent, missing) = if required {
        (CheckStatus::Missing, "not found on PATH; required: the project is built with Gradle")
    } else {
        (CheckStatus::Info, "not found on PATH; not needed: the project is not built with Gradle")
    };
    probe(runner, path, Path::new("gradle"), &["--version", "--offline"], "Gradle ").check(
        "gradle",
        required,
        absent,
        missing,
        "install Gradle: `sudo apt-get install gradle`, or add a ./gradlew wrapper to the project",
    )
}

/// `gradle-4.4.1-bin.zip` in `distributionUrl` → `4.4.1`.
fn wrapper_version(properties: &str) -> Option<String> {
    let url = properties.lines().find_map(|l| l.trim().strip_prefix("distributionUrl"))?;
    let file = url.rsplit('/').next()?;
    let rest = file.strip_prefix("gradle-")?;
    let end = rest.find("-bin").or_else(|| rest.find("-all"))?;
    Some(rest[..end].to_string())
}

fn checkstyle(config: &Config, runner: &dyn Runner, path: Option<&std::ffi::OsStr>) -> Check {
    let fix = "install Checkstyle: `sudo apt-get install checkstyle`, or set checkstyle.path or checkstyle.jar";
    let mut check = match &config.checkstyle.jar {
        Some(jar) if !jar.is_file() => {
            return Check::new("checkstyle", false, CheckStatus::Warning, format!("{}: no such file", jar.display()))
                .fix("fix checkstyle.jar, or unset it to use the launcher on PATH");
        }
        Some(jar) => {
            let args = ["-jar", &jar.to_string_lossy(), "--version"].map(String::from);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            match probe(runner, path, Path::new("java"), &args, "Checkstyle version: ") {
                Probe::Found { version, .. } => {
                    Check::new("checkstyle", false, CheckStatus::Ok, jar.display().to_string()).version(version)
                }
                other => other.check("checkstyle", false, CheckStatus::Warning, "", fix),
            }
        }
        None => probe(runner, path, &config.checkstyle.path, &["--version"], "Checkstyle version: ").check(
            "checkstyle",
            false,
            CheckStatus::Warning,
            &format!("`{}` not found: style checks are skipped", config.checkstyle.path.display()),
            fix,
        ),
    };
    if let Some(rules) = config.checkstyle.config.as_ref().filter(|c| !c.is_file()) {
        check.status = CheckStatus::Warning;
        check.detail = format!("checkstyle.config {}: no such file", rules.display());
        check.fix = Some("fix checkstyle.config, or unset it to detect the project's rules".into());
    }
    check
}

/// Which detector the Reviewer uses: RefactoringMiner when configured and runnable, else the built-in one.
fn refactoring_miner(config: &Config, path: Option<&std::ffi::OsStr>) -> Check {
    use crate::review::refactoring_miner::{MinerError, resolve};
    let name = "RefactoringMiner";
    let Some(exe) = config.refactoring_miner.executable() else {
        return Check::new(name, false, CheckStatus::Info, "not configured: the built-in detector is used");
    };
    match resolve(&exe, path) {
        Ok(found) => Check::new(name, false, CheckStatus::Ok, format!("RefactoringMiner at {}", found.display())),
        Err(MinerError::NotExecutable { why, .. }) => {
            let fix = if why.starts_with("is not executable") {
                format!("`chmod +x {}`, or unset refactoring_miner.path and REFACTORINGMINER_HOME", exe.display())
            } else {
                "set refactoring_miner.path or REFACTORINGMINER_HOME to a RefactoringMiner distribution, or unset \
                 both to use the built-in detector"
                    .to_string()
            };
            Check::new(name, false, CheckStatus::Warning, format!("{}: {why}", exe.display())).fix(fix)
        }
        Err(other) => Check::new(name, false, CheckStatus::Warning, other.to_string()),
    }
}

/// The endpoint's configuration and whether the key's variable is set. Nothing is sent anywhere.
fn llm(config: &Config, env: &Environment) -> [Check; 2] {
    let llm = &config.llm;
    let endpoint = match (&llm.base_url, &llm.model) {
        (Some(url), Some(model)) => Check::new("llm", false, CheckStatus::Ok, format!("{url}, model {model}")),
        (None, None) => Check::new("llm", false, CheckStatus::Info, "none: the heuristic planner is used"),
        (Some(url), None) => Check::new("llm", false, CheckStatus::Warning, format!("{url}, but no model"))
            .fix("set llm.model (or MANTRA_LLM_MODEL)"),
        (None, Some(model)) => {
            Check::new("llm", false, CheckStatus::Warning, format!("model {model}, but no base_url: no model is used"))
                .fix("set llm.base_url (or MANTRA_LLM_BASE_URL)")
        }
    };
    let var = &llm.api_key_env;
    let set = env.vars.get(var).is_some_and(|v| !v.is_empty());
    let key = match (set, llm.base_url.is_some()) {
        (true, _) => Check::new("api key", false, CheckStatus::Ok, format!("{var} is set")),
        (false, true) => Check::new(
            "api key",
            false,
            CheckStatus::Info,
            format!("{var} is not set (fine for an endpoint without authentication)"),
        )
        .fix(format!("export {var}=... if the endpoint needs a key")),
        (false, false) => Check::new("api key", false, CheckStatus::Info, format!("{var} is not set; no endpoint")),
    };
    [endpoint, key]
}

/// Whether the example store will have embeddings: the model files where mantra looks for them
/// (`store::embed::locate`; the files are checked, not loaded).
fn embeddings(config: &Config) -> Check {
    use crate::store::embed::{EmbedError, locate};
    let name = "embeddings";
    match locate(config.embed.model_dir.as_deref(), config.embed.onnxruntime.as_deref()) {
        Ok(files) => Check::new(
            name,
            false,
            CheckStatus::Ok,
            format!(
                "{} ({}{}; runtime {})",
                files.dir.display(),
                files.model_file(),
                if files.model_file() == crate::store::embed::INT8_MODEL_FILE {
                    ", int8 matrix products"
                } else {
                    ", fp32 arithmetic: run scripts/setup.sh for the faster int8 model"
                },
                files.onnxruntime.display()
            ),
        ),
        Err(e @ EmbedError::NotFound { .. }) if config.embed.model_dir.is_none() => {
            Check::new(name, false, CheckStatus::Info, format!("{e}: retrieval uses BM25 only")).fix(e.fix())
        }
        Err(e) => Check::new(name, false, CheckStatus::Warning, format!("{e}: retrieval uses BM25 only")).fix(e.fix()),
    }
}

/// The first whitespace-separated token after `marker` on any line, without quotes or `!`.
fn version_after(text: &str, marker: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = &line[line.find(marker)? + marker.len()..];
        let token = rest.split_whitespace().next()?.trim_matches(|c| matches!(c, '"' | '!' | ','));
        (!token.is_empty()).then(|| token.to_string())
    })
}

fn render(report: &Report, style: Style) -> String {
    let mut out = format!("mantra doctor: {} ({})\n\n", report.repo.display(), report.build_system.name());
    let width = report.checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let vwidth = report.checks.iter().filter_map(|c| c.version.as_ref().map(String::len)).max().unwrap_or(0);
    for c in &report.checks {
        let label = match c.status {
            CheckStatus::Ok => style.green("ok     "),
            CheckStatus::Info => style.dim("info   "),
            CheckStatus::Warning => style.yellow("warning"),
            CheckStatus::Missing => style.red("MISSING"),
        };
        let version = c.version.as_deref().unwrap_or("");
        out.push_str(&format!("  {label}  {:width$}  {version:vwidth$}  {}\n", c.name, c.detail));
        if let Some(fix) = &c.fix {
            out.push_str(&format!("  {:7}  {:width$}  {:vwidth$}  fix: {fix}\n", "", "", ""));
        }
    }
    let missing = report.checks.iter().filter(|c| c.status == CheckStatus::Missing).count();
    out.push('\n');
    out.push_str(&match missing {
        0 => "All required tools are present.\n".to_string(),
        1 => "1 required tool is missing.\n".to_string(),
        n => format!("{n} required tools are missing.\n"),
    });
    out
}

/// `--print-config`: every key with its value and origin.
fn print_config(resolved: &Resolved, style: Style) -> (Json, String) {
    let data = serde_json::json!({
        "files": resolved.files,
        "keys": resolved.entries(),
    });
    let rows: Vec<(String, String, String)> = resolved
        .entries()
        .iter()
        .map(|e| {
            let value = match &e.value {
                Json::Null => "(not set)".to_string(),
                Json::String(s) => s.clone(),
                other => other.to_string(),
            };
            (e.key.to_string(), value, e.origin.to_string())
        })
        .collect();
    let kw = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(3);
    let vw = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0).max(5);
    let mut human = String::new();
    if resolved.files.is_empty() {
        human.push_str("configuration files: none\n\n");
    } else {
        human.push_str("configuration files, lowest precedence first:\n");
        for f in &resolved.files {
            human.push_str(&format!("  {f}\n"));
        }
        human.push('\n');
    }
    human.push_str(&style.bold(&format!("{:kw$}  {:vw$}  origin", "key", "value")));
    human.push('\n');
    for (k, v, o) in rows {
        human.push_str(&format!("{k:kw$}  {v:vw$}  {o}\n"));
    }
    (data, human)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::{Output, ProcessError, Status};

    #[test]
    fn versions_are_read_from_real_banners() {
        let java = "openjdk version \"17.0.15\" 2025-04-15\nOpenJDK Runtime Environment";
        assert_eq!(version_after(java, "version \"").as_deref(), Some("17.0.15"));
        let mvn = "\x1b[1mApache Maven 3.8.7\x1b[m\nMaven home: /usr/share/maven";
        assert_eq!(version_after(&strip_ansi(mvn), "Apache Maven ").as_deref(), Some("3.8.7"));
        let gradle = "\n------\nGradle 4.4.1\n------\nJVM: 17";
        assert_eq!(version_after(gradle, "Gradle ").as_deref(), Some("4.4.1"));
        assert_eq!(version_after("Checkstyle version: 8.36.1", "Checkstyle version: ").as_deref(), Some("8.36.1"));
        let props = "distributionBase=GRADLE_USER_HOME\ndistributionUrl=https\\://services.gradle.org/distributions/gradle-7.6-bin.zip\n";
        assert_eq!(wrapper_version(props).as_deref(), Some("7.6"));
    }

    /// Answers every command with a failure, so the checks' handling of broken tools shows.
    struct Failing;
    impl Runner for Failing {
        fn run(&self, _cmd: &Cmd) -> Result<Output, ProcessError> {
            Ok(Output {
                status: Status::Exited { code: 1 },
                stdout: String::new(),
                stderr: "Error: could not create the Java Virtual Machine.\n".into(),
                truncated: false,
                elapsed: Duration::ZERO,
            })
        }
    }

    #[test]
    fn a_broken_required_tool_is_missing_with_its_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("pom.xml"), "<project/>").unwrap();
        let env = Environment::from_process();
        let report = diagnose(dir.path(), &Config::default(), &env, &Failing);
        assert!(!report.ok);
        let java = &report.checks[0];
        assert_eq!((java.name, java.status), ("java", CheckStatus::Missing));
        assert!(java.detail.contains("could not create the Java Virtual Machine"), "{}", java.detail);
        assert!(java.fix.is_some());
    }

    #[test]
    fn the_api_key_is_never_part_of_the_report() {
        let mut env = Environment::default();
        env.vars.insert("MY_KEY".into(), "sk-secret-value-123".into());
        let mut config = Config::default();
        config.llm.api_key_env = "MY_KEY".into();
        config.llm.base_url = Some("http://localhost:1/v1".into());
        let checks = llm(&config, &env);
        let text = serde_json::to_string(&checks).unwrap();
        assert!(!text.contains("sk-secret"), "{text}");
        assert_eq!(checks[1].status, CheckStatus::Ok);
        assert_eq!(checks[1].detail, "MY_KEY is set");
    }

    #[test]
    fn embeddings_need_model_files() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = Config::default();
        // Unset, the default folders decide (Ok after scripts/setup.sh, Info without): never a warning.
        assert_ne!(embeddings(&config).status, CheckStatus::Warning);
        config.embed.model_dir = Some(dir.path().to_path_buf());
        assert_eq!(embeddings(&config).status, CheckStatus::Warning);
        for f in ["model.onnx", "tokenizer.json", "config.json", "special_tokens_map.json", "tokenizer_config.json"] {
            std::fs::write(dir.path().join(f), b"x").unwrap();
        }
        assert_eq!(embeddings(&config).status, CheckStatus::Warning, "no libonnxruntime.so");
        std::fs::write(dir.path().join("libonnxruntime.so"), b"x").unwrap();
        assert_eq!(embeddings(&config).status, CheckStatus::Ok);
        assert!(embeddings(&config).detail.contains("model.onnx, fp32 arithmetic"), "{}", embeddings(&config).detail);
        std::fs::write(dir.path().join(crate::store::embed::INT8_MODEL_FILE), b"x").unwrap();
        let detail = embeddings(&config).detail;
        assert!(detail.contains("model_int8.onnx, int8 matrix products"), "{detail}");
    }
}
