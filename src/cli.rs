//! Command-line arguments (clap derive). Parsing only: `lib.rs` turns them into work, and the
//! arguments that lower layers need are converted into their values here ([`SpecArgs::options`],
//! [`GlobalArgs::overrides`]).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::batch::SpecMode;
use crate::config::{ColorChoice, Overrides};
use crate::refactoring::{RefactoringKind, SpecOptions};

#[derive(Debug, Parser)]
#[command(name = "mantra", version, about = "Method-level refactoring agent for Java", propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand accepts.
#[derive(Debug, Args, Clone)]
pub struct GlobalArgs {
    /// The Java repository to work on [default: the git root containing the current directory, else the current directory]
    #[arg(long, global = true, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// A configuration file read after the user and repository files
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print machine-readable JSON, one event per line
    #[arg(long, global = true)]
    pub json: bool,
    /// More log output (-v info, -vv debug, -vvv trace)
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Only print results and errors
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// When to use colours
    #[arg(long, global = true, value_enum, value_name = "WHEN")]
    pub color: Option<ColorChoice>,
}

impl GlobalArgs {
    /// The configuration's top layer: what the flags set.
    pub fn overrides(&self) -> Overrides {
        Overrides { config: self.config.clone(), color: self.color }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show what the agents see of a method: its code, class, callers, callees, hierarchy, project
    Analyze(AnalyzeArgs),
    /// Refactor a method (extract, inline, move, rename, and their compounds)
    Refactor(RefactorArgs),
    /// What is worth refactoring: ranked Extract, Move and Inline Method opportunities across the
    /// project (or the given files and folders), each a complete spec the engine applies
    Suggest(SuggestArgs),
    /// Rename a class, method, field, parameter or local variable, and with --coordinated the
    /// names that go with it
    Rename(RenameArgs),
    /// Bind the names of pasted code (FILE:START-END) to the variables, fields and getters in
    /// scope where it landed; names without a clear binding are reported with their candidates
    Wire(WireArgs),
    /// Write the change a `mantra refactor` without --apply showed (the latest, or run RUN), exactly
    /// as shown; refused, naming the file, if a file changed since
    Apply(ApplyArgs),
    /// Verify the working tree's uncommitted changes against HEAD (a refactoring made by hand or in
    /// an IDE): build, tests, style and detection, as `refactor --apply` does
    Verify(VerifyArgs),
    /// Detect method-level refactorings between two versions: folders, files, or a commit and its parent
    Detect(DetectArgs),
    /// Replay the refactorings of commits or a task file at their parent commits and score the
    /// results against the humans' (results.jsonl, summary.md/.csv, an HTML report)
    Batch(BatchArgs),
    /// Batch reports: `merge` joins the output folders of sharded runs (`batch --shard K/N`) into one
    Report(ReportArgs),
    /// Check the tools mantra uses (Java, Maven, Gradle, Checkstyle, ...) and the configuration
    Doctor(DoctorArgs),
    /// The example store: pure refactorings the agent is shown as examples (import, mine, search)
    Store(StoreArgs),
    /// Print shell completions
    Completions(CompletionsArgs),
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// `path/To.java:method`, `path/To.java:method(int,String)`, `path/To.java:Outer.Inner#method`,
    /// `path/To.java:<init>` or `path/To.java:123` (the method enclosing line 123)
    #[arg(value_name = "TARGET", required_unless_present = "project")]
    pub target: Option<String>,
    /// Print the project summary alone
    #[arg(long, conflicts_with = "target")]
    pub project: bool,
}

#[derive(Debug, Args)]
pub struct DetectArgs {
    /// The code before the change: a folder of .java files, or one .java file
    #[arg(long, value_name = "DIR|FILE", requires = "after", conflicts_with = "commit")]
    pub before: Option<PathBuf>,
    /// The code after the change: a folder of .java files, or one .java file
    #[arg(long, value_name = "DIR|FILE", requires = "before", conflicts_with = "commit")]
    pub after: Option<PathBuf>,
    /// A commit of the repository, compared with its first parent (the .java files it changed)
    #[arg(long, value_name = "SHA")]
    pub commit: Option<String>,
    /// The same as --commit: `mantra detect HEAD`
    #[arg(value_name = "COMMIT", conflicts_with_all = ["commit", "before", "after"])]
    pub rev: Option<String>,
}

impl DetectArgs {
    /// The commit to compare with its parent, given as `--commit SHA` or as the argument.
    pub fn commit(&self) -> Option<&String> {
        self.commit.as_ref().or(self.rev.as_ref())
    }
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Print the resolved configuration and where each value came from
    #[arg(long)]
    pub print_config: bool,
}

#[derive(Debug, Args)]
pub struct StoreArgs {
    /// Use the user-wide store in the data folder instead of the repository's (or `store.dir`)
    #[arg(long, global = true)]
    pub user: bool,
    #[command(subcommand)]
    pub command: StoreCommand,
}

#[derive(Debug, Subcommand)]
pub enum StoreCommand {
    /// Add PureRefactor JSON files and RefactoringMiner oracle folders to the store
    Import(StoreImportArgs),
    /// Add the pure method-level refactorings of the repository's own history
    Mine(StoreMineArgs),
    /// Show the examples the agent would get for a method or a text, with each list's ranks
    Search(StoreSearchArgs),
    /// Where the store is, what it holds, and whether embeddings are available
    Info,
}

#[derive(Debug, Args)]
pub struct StoreImportArgs {
    /// PureRefactor `*.json` files, or oracle folders (a commit, a project, or the root)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct StoreMineArgs {
    /// The commits to walk, `A..B` (those reachable from B but not A) or one revision and its
    /// history [default: HEAD's history]
    #[arg(long, value_name = "A..B")]
    pub range: Option<String>,
    /// Walk at most this many commits, newest first
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_commits: usize,
}

#[derive(Debug, Args)]
pub struct StoreSearchArgs {
    /// A method (`path/To.java:method`, as for `mantra analyze`) or any text
    #[arg(value_name = "TEXT|TARGET")]
    pub query: String,
    /// Only examples of this refactoring type
    #[arg(long = "type", short = 't', value_enum)]
    pub kind: Option<RefactoringKind>,
    /// How to rank: BM25, embeddings, or both fused by Reciprocal Rank Fusion
    #[arg(long, value_enum, default_value_t = crate::store::Mode::Hybrid)]
    pub mode: crate::store::Mode,
    /// How many examples
    #[arg(short, value_name = "N", default_value_t = crate::store::DEFAULT_K)]
    pub k: usize,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct RefactorArgs {
    /// Which refactoring
    #[arg(long = "type", short = 't', value_enum)]
    pub kind: RefactoringKind,
    /// The method to refactor (same forms as `mantra analyze`)
    #[arg(value_name = "TARGET")]
    pub target: String,
    #[command(flatten)]
    pub spec: SpecArgs,
    /// Print the change without writing anything (the default unless --apply)
    #[arg(long, conflicts_with = "apply")]
    pub dry_run: bool,
    /// Write the change to the working tree
    #[arg(long)]
    pub apply: bool,
    /// Skip verification (compile, tests, style, detection) before --apply
    #[arg(long, conflicts_with = "verify")]
    pub no_verify: bool,
    /// Verify the change in a workspace without writing it (what --apply does first)
    #[arg(long)]
    pub verify: bool,
    /// Keep the verification workspace afterwards and print its path
    #[arg(long)]
    pub keep_workspace: bool,
    /// List the planner's top candidates with their scores, and do nothing else
    #[arg(long)]
    pub explain: bool,
    #[command(flatten)]
    pub agents: AgentArgs,
}

/// Which model plans the refactoring, and which of MANTRA's agents take part.
#[derive(Debug, Args, Default, Clone)]
pub struct AgentArgs {
    /// `none`: the heuristic planner even when a model is configured; `auto`: the configured model
    #[arg(long, value_enum, value_name = "MODE")]
    pub llm: Option<LlmChoice>,
    /// Record every model exchange into DIR (to replay the run offline)
    #[arg(long, value_name = "DIR", conflicts_with = "llm_replay")]
    pub llm_record: Option<PathBuf>,
    /// Answer the model's requests from a recording in DIR; no server is contacted
    #[arg(long, value_name = "DIR")]
    pub llm_replay: Option<PathBuf>,
    /// Do not offer the example store to the Developer (MANTRA's "without RAG" ablation)
    #[arg(long)]
    pub no_rag: bool,
    /// Do not send the Reviewer's findings back to the Developer (one Developer turn)
    #[arg(long)]
    pub no_review: bool,
    /// Do not repair compile errors and failing tests (no Repair agent)
    #[arg(long)]
    pub no_repair: bool,
    /// `raw`: one prompt with the same context, no agents (the RawGPT baseline)
    #[arg(long, value_enum, value_name = "KIND")]
    pub baseline: Option<Baseline>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LlmChoice {
    Auto,
    None,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Baseline {
    Raw,
}

#[derive(Debug, Args)]
pub struct ApplyArgs {
    /// The run whose change to write: its id (`20261125T101500Z-4242`) or folder under
    /// `.mantra/runs/`; the latest run with a previewed change when left out
    #[arg(value_name = "RUN")]
    pub run: Option<String>,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    #[command(subcommand)]
    pub command: ReportCommand,
}

#[derive(Debug, Subcommand)]
pub enum ReportCommand {
    /// Join the output folders of several `mantra batch` runs (the shards of one batch) into one
    /// results.jsonl, summary.md/.csv and HTML report
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The output folders of the runs (each holding results.jsonl)
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Where the merged report goes
    #[arg(long, value_name = "DIR", default_value = "mantra-batch")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct SuggestArgs {
    /// Files or folders to scan (default: the whole project, tests included)
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Only these refactorings (repeatable, or separated by commas): extract-method, move-method,
    /// inline-method, extract-and-move-method, rename-method (names that contradict the code,
    /// tests named by a number)
    #[arg(long = "type", short = 't', value_name = "KINDS", value_enum, value_delimiter = ',')]
    pub kinds: Vec<RefactoringKind>,
    /// How many to list
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub limit: usize,
    /// Leave out those scored below this (0..1)
    #[arg(long, value_name = "SCORE", default_value_t = 0.0)]
    pub min_score: f64,
    /// Only this share of the files, `K/N` (1 ≤ K ≤ N): a stable split by path, so that N runners
    /// of a CI matrix together scan every file exactly once
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Also write the listed suggestions to FILE as SARIF 2.1.0 (for code-scanning dashboards),
    /// each with the engine's change as its fix
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// Make the first N listed, one after the other, each verified (build, tests, style,
    /// detection) on top of the ones accepted before it; only accepted changes are written
    #[arg(long, value_name = "N", conflicts_with = "pick")]
    pub apply_top: Option<usize>,
    /// Ask which of the listed suggestions to make (`1,3`, `2-4`; Enter for none), reading the
    /// answer from standard input, then make them like --apply-top. Asked anyway in a terminal
    #[arg(long, conflicts_with = "json")]
    pub pick: bool,
    /// Keep each verification workspace afterwards and print its path
    #[arg(long)]
    pub keep_workspace: bool,
    /// The model's review: with a model configured, it re-ranks the list, leaves out what a
    /// careful developer would not make, and names the new methods (each name checked by the
    /// engine); `--llm none` keeps the heuristic list
    #[command(flatten)]
    pub model: ModelArgs,
}

#[derive(Debug, Args)]
pub struct RenameArgs {
    /// The .java file that declares the identifier
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The identifier's current name
    #[arg(long, value_name = "OLD")]
    pub old: String,
    /// The new name
    #[arg(long = "name", value_name = "NEW")]
    pub name: String,
    /// What kind of identifier, when the name alone is ambiguous
    #[arg(long, value_enum)]
    pub kind: Option<RenameKind>,
    /// The declaring class (`Outer.Inner`), when the name alone is ambiguous
    #[arg(long, value_name = "CLASS")]
    pub class: Option<String>,
    /// The declaring method (`name` or `name(int,String)`) of a parameter or local variable
    #[arg(long, value_name = "METHOD")]
    pub method: Option<String>,
    /// The line of the declaration (a parameter: any line of its method)
    #[arg(long, value_name = "N")]
    pub line: Option<usize>,
    /// Also propose the identifiers that should change with it, each answered yes / no / all /
    /// quit on standard input (or accepted by --yes, listed by --json)
    #[arg(long)]
    pub coordinated: bool,
    /// Accept the coordinated suggestions scored at least --min-score without asking
    #[arg(long, requires = "coordinated")]
    pub yes: bool,
    /// The score --yes accepts from (0..1)
    #[arg(long, value_name = "SCORE", default_value_t = 0.6)]
    pub min_score: f64,
    /// Verify (build, tests, style) and write the change
    #[arg(long)]
    pub apply: bool,
    /// With --apply: write without verifying
    #[arg(long, requires = "apply")]
    pub no_verify: bool,
    /// Keep the verification workspace afterwards and print its path
    #[arg(long)]
    pub keep_workspace: bool,
    /// With --coordinated, the model's review of the candidates
    #[command(flatten)]
    pub model: ModelArgs,
}

#[derive(Debug, Args)]
pub struct WireArgs {
    /// The pasted lines: `path/to/File.java:START-END` (1-based, inclusive)
    #[arg(value_name = "FILE:START-END")]
    pub target: String,
    /// Compile the wired file and write it (the tests run and are reported, but do not block)
    #[arg(long)]
    pub apply: bool,
    /// With --apply: write without compiling
    #[arg(long, requires = "apply")]
    pub no_verify: bool,
    /// Keep the verification workspace afterwards and print its path
    #[arg(long)]
    pub keep_workspace: bool,
    /// The model's choice among the candidates of the names left open
    #[command(flatten)]
    pub model: ModelArgs,
}

/// The model flags of the commands that ask it one question (`rename --coordinated`, `wire`).
#[derive(Debug, Args, Default)]
pub struct ModelArgs {
    /// `none` keeps the model out of it even when one is configured
    #[arg(long, value_enum, value_name = "MODE")]
    pub llm: Option<LlmChoice>,
    /// Record every model exchange into DIR (to replay the run offline)
    #[arg(long, value_name = "DIR", conflicts_with = "llm_replay")]
    pub llm_record: Option<PathBuf>,
    /// Answer the model's requests from a recording in DIR; no server is contacted
    #[arg(long, value_name = "DIR")]
    pub llm_replay: Option<PathBuf>,
}

impl ModelArgs {
    /// As the agents' flags (the others at their defaults).
    pub fn agents(&self) -> AgentArgs {
        AgentArgs {
            llm: self.llm,
            llm_record: self.llm_record.clone(),
            llm_replay: self.llm_replay.clone(),
            ..AgentArgs::default()
        }
    }
}

/// `--kind` of `mantra rename`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RenameKind {
    Class,
    Method,
    Field,
    Parameter,
    Variable,
}

impl From<RenameKind> for crate::engine::rename::Kind {
    fn from(k: RenameKind) -> Self {
        use crate::engine::rename::Kind;
        match k {
            RenameKind::Class => Kind::Class,
            RenameKind::Method => Kind::Method,
            RenameKind::Field => Kind::Field,
            RenameKind::Parameter => Kind::Parameter,
            RenameKind::Variable => Kind::Variable,
        }
    }
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The method the change refactors, as it was at HEAD (same forms as `mantra analyze`);
    /// detection then checks that this refactoring happened. Without it, detection lists what it finds.
    #[arg(value_name = "TARGET", requires = "kind")]
    pub target: Option<String>,
    /// Which refactoring the change is meant to be
    #[arg(long = "type", short = 't', value_enum, requires = "target")]
    pub kind: Option<RefactoringKind>,
    /// Keep the verification workspace afterwards and print its path
    #[arg(long)]
    pub keep_workspace: bool,
}

/// What the engine needs beyond the target; anything left out is chosen by the planner.
#[derive(Debug, Args, Default, Clone)]
pub struct SpecArgs {
    /// Extract: the lines to extract, `A-B` (1-based, inclusive)
    #[arg(long, value_name = "A-B")]
    pub lines: Option<String>,
    /// Extract / rename: the new method's name
    #[arg(long)]
    pub name: Option<String>,
    /// Move: the destination, `param:NAME`, `field:NAME` or `class:FQN`
    #[arg(long, value_name = "DEST")]
    pub to: Option<String>,
    /// Inline: only the call at `file:line`
    #[arg(long, value_name = "FILE:LINE")]
    pub at: Option<String>,
    /// Move: leave a delegating method behind
    #[arg(long)]
    pub keep_delegate: bool,
    /// Extract: pass this expression of the statements in as a new parameter (every occurrence;
    /// the call passes the expression); repeatable
    #[arg(long, value_name = "EXPR")]
    pub param: Vec<String>,
    /// Extract: lines `A-B` elsewhere in the file holding the same statements word for word,
    /// replaced by the same call (code written twice); repeatable
    #[arg(long = "copy", value_name = "A-B")]
    pub copies: Vec<String>,
    /// Move (to `class:FQN`): take along the private methods of the class that only the moved
    /// method calls, and the ones they alone call
    #[arg(long)]
    pub with_helpers: bool,
    /// Move (to `class:FQN`): other methods of the same class that move with it, as one change
    /// (`--methods a,b`)
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub methods: Vec<String>,
    /// Move: `public` makes the members the destination cannot see public (by default only a
    /// private member in the destination's package is widened, to package-private)
    #[arg(long, value_name = "public")]
    pub widen: Option<String>,
    /// Move (to `class:FQN`): what an instance method becomes there: `instance` (through a
    /// parameter or field of that class, refused without one), `static` (what it used of its
    /// object passed in), or `auto` (instance when it can, the default)
    #[arg(long = "as", value_name = "MODE")]
    pub as_mode: Option<String>,
}

impl SpecArgs {
    /// The flags as the engine takes them.
    pub fn options(&self) -> SpecOptions {
        SpecOptions {
            lines: self.lines.clone(),
            name: self.name.clone(),
            to: self.to.clone(),
            at: self.at.clone(),
            keep_delegate: self.keep_delegate,
            params: self.param.clone(),
            copies: self.copies.clone(),
            with_helpers: self.with_helpers,
            methods: self.methods.clone(),
            widen: self.widen.clone(),
            as_mode: self.as_mode.clone(),
        }
    }
}

#[derive(Debug, Args)]
pub struct BatchArgs {
    /// A file of commits, one per line (`git log --oneline` output works); one task per
    /// refactoring the detector finds in each commit against its parent
    #[arg(long, value_name = "FILE", conflicts_with_all = ["range", "tasks"])]
    pub commits: Option<PathBuf>,
    /// The commits of a range, oldest first (`origin/main..HEAD`)
    #[arg(long, value_name = "A..B", conflicts_with = "tasks")]
    pub range: Option<String>,
    /// A PureRefactor / SWE-Refactor JSON task file, against the clone given by --repo
    #[arg(long, value_name = "FILE")]
    pub tasks: Option<PathBuf>,
    /// Where the specs come from
    #[arg(long, value_enum, default_value = "planner")]
    pub spec: SpecMode,
    /// Also replay refactorings mixed with other changes (the detector's impure ones)
    #[arg(long)]
    pub impure: bool,
    /// The folder for results.jsonl, summary.md, summary.csv, report/ and the parent checkouts
    #[arg(long, value_name = "DIR", default_value = "mantra-batch")]
    pub out: PathBuf,
    /// Tasks run at once, each in its own workspace
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,
    /// Skip the tasks already in results.jsonl for this mode
    #[arg(long)]
    pub resume: bool,
    /// Time limit per task, builds included; a task over it fails as `timeout`
    #[arg(long, value_name = "SECS", default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// When to exit 1: `never`, `errors` (a task could not run), `any` (a task failed), `rate:R`
    /// (success rate below R)
    #[arg(long, value_name = "POLICY", default_value = "never")]
    pub fail_on: String,
    /// The project's name in the reports [default: the repository folder's name]
    #[arg(long, value_name = "NAME")]
    pub project: Option<String>,
    /// Replay only refactorings of these types (comma-separated or repeated), e.g.
    /// `--type move-method,extract-and-move-method`
    #[arg(long = "type", value_name = "TYPE", value_enum, value_delimiter = ',')]
    pub types: Vec<RefactoringKind>,
    /// Run only the first N tasks
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Only this share of the tasks, `K/N` (1 ≤ K ≤ N): a stable split by task id, so that N
    /// runners of a CI matrix together run every task once (`mantra report merge` joins them)
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// `--spec llm`: the model, record/replay and MANTRA's ablations, as for `mantra refactor`
    #[command(flatten)]
    pub agents: AgentArgs,
}
