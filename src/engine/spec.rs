//! One refactoring spec, whatever the refactoring: what a user's flags, the heuristic planner and
//! (later) an LLM produce, and what [`apply`] hands to the engine that performs it.
//!
//! The serialised form is the `--json` contract and the LLM's output format: an object tagged by
//! `"type"` with the refactoring's kebab-case name, as on the command line
//! (`{"type": "extract-method", "lines": [38, 44], "name": "validateIssuable", ...}`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{AsMode, ChangeSet, Destination, ExtractSpec, MoveSpec, Refusal, RenameSpec};
use crate::error::Classify;
use crate::exit::Exit;
use crate::java::project::{MethodId, Project};
use crate::refactoring::{Intent, RefactoringKind, SpecOptions};

pub use super::inline::{CallLine, InlineSpec, MethodSelector};
pub use pending::{ExtractAndMoveSpec, MoveAndInlineSpec, MoveAndRenameSpec};

/// A complete refactoring spec: the refactoring and everything its engine needs beyond the method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Spec {
    ExtractMethod(ExtractSpec),
    InlineMethod(InlineSpec),
    MoveMethod(MoveSpec),
    RenameMethod(RenameSpec),
    ExtractAndMoveMethod(ExtractAndMoveSpec),
    MoveAndInlineMethod(MoveAndInlineSpec),
    MoveAndRenameMethod(MoveAndRenameSpec),
}

impl Spec {
    pub fn kind(&self) -> RefactoringKind {
        match self {
            Spec::ExtractMethod(_) => RefactoringKind::ExtractMethod,
            Spec::InlineMethod(_) => RefactoringKind::InlineMethod,
            Spec::MoveMethod(_) => RefactoringKind::MoveMethod,
            Spec::RenameMethod(_) => RefactoringKind::RenameMethod,
            Spec::ExtractAndMoveMethod(_) => RefactoringKind::ExtractAndMoveMethod,
            Spec::MoveAndInlineMethod(_) => RefactoringKind::MoveAndInlineMethod,
            Spec::MoveAndRenameMethod(_) => RefactoringKind::MoveAndRenameMethod,
        }
    }

    /// The name of the method the spec creates or renames to, if it names one.
    pub fn new_name(&self) -> Option<&str> {
        match self {
            Spec::ExtractMethod(e) => Some(&e.name),
            Spec::ExtractAndMoveMethod(s) => Some(&s.extract.name),
            Spec::RenameMethod(r) => Some(&r.new_name),
            Spec::MoveAndRenameMethod(s) => Some(&s.new_name),
            Spec::InlineMethod(_) | Spec::MoveMethod(_) | Spec::MoveAndInlineMethod(_) => None,
        }
    }

    /// The spec with `name` for the method it creates or renames to (unchanged when it names none).
    pub fn with_new_name(mut self, name: &str) -> Spec {
        match &mut self {
            Spec::ExtractMethod(e) => e.name = name.to_string(),
            Spec::ExtractAndMoveMethod(s) => s.extract.name = name.to_string(),
            Spec::RenameMethod(r) => r.new_name = name.to_string(),
            Spec::MoveAndRenameMethod(s) => s.new_name = name.to_string(),
            Spec::InlineMethod(_) | Spec::MoveMethod(_) | Spec::MoveAndInlineMethod(_) => {}
        }
        self
    }

    /// What the spec says about the result, for the detector: the new method's name and the
    /// destination class when it is named outright (a parameter's or field's class is left to
    /// the detector).
    pub fn names(&self) -> (Option<String>, Option<String>) {
        let class = |d: &Destination| match d {
            Destination::Class(fqn) => Some(fqn.clone()),
            Destination::Param(_) | Destination::Field(_) => None,
        };
        let destination = match self {
            Spec::ExtractMethod(_) | Spec::RenameMethod(_) | Spec::InlineMethod(_) => None,
            Spec::MoveMethod(s) => class(&s.to),
            Spec::ExtractAndMoveMethod(s) => class(&s.move_to.to),
            Spec::MoveAndInlineMethod(s) => class(&s.to),
            Spec::MoveAndRenameMethod(s) => class(&s.move_to.to),
        };
        (self.new_name().map(str::to_string), destination)
    }
}

/// What `kind` of `method` means to the detector: the method's class and name, with the names
/// `spec` chose (none without a spec: then any such refactoring of the method counts).
pub fn intent(project: &Project, method: MethodId, kind: RefactoringKind, spec: Option<&Spec>) -> Intent {
    let mut intent =
        Intent::new(kind, project.qualified_name(project.owner(method)), project.method(method).name.clone());
    if let Some(spec) = spec {
        (intent.new_name, intent.destination) = spec.names();
    }
    intent
}

/// The spec flags, parsed and checked, each still optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpecFlags {
    pub lines: Option<(usize, usize)>,
    pub name: Option<String>,
    pub to: Option<Destination>,
    pub at: Option<CallLine>,
    pub keep_delegate: bool,
    /// Extract: expressions to pass in as parameters (`--param`).
    pub params: Vec<String>,
    /// Extract: copies of the statements elsewhere in the file (`--copy A-B`).
    pub copies: Vec<(usize, usize)>,
    /// Move: take the private helpers along (`--with-helpers`).
    pub with_helpers: bool,
    /// Move: other methods of the class that move too (`--methods`).
    pub methods: Vec<String>,
    /// Move: `--widen public`.
    pub widen_public: bool,
    /// Move to `class:FQN`: `--as`.
    pub as_mode: AsMode,
}

impl SpecFlags {
    /// Parses the flags and refuses those that `kind` does not use.
    pub fn parse(kind: RefactoringKind, args: &SpecOptions) -> Result<SpecFlags, SpecError> {
        use RefactoringKind::*;
        let allowed: &[&str] = match kind {
            ExtractMethod => &["--lines", "--name", "--param", "--copy"],
            InlineMethod => &["--at"],
            MoveMethod => &["--to", "--keep-delegate", "--with-helpers", "--methods", "--widen", "--as"],
            RenameMethod => &["--name"],
            ExtractAndMoveMethod => &["--lines", "--name", "--to", "--keep-delegate", "--param", "--copy", "--as"],
            MoveAndInlineMethod => &["--to", "--at"],
            MoveAndRenameMethod => &["--to", "--name", "--keep-delegate", "--as"],
        };
        let given = [
            ("--lines", args.lines.is_some()),
            ("--name", args.name.is_some()),
            ("--to", args.to.is_some()),
            ("--at", args.at.is_some()),
            ("--keep-delegate", args.keep_delegate),
            ("--param", !args.params.is_empty()),
            ("--copy", !args.copies.is_empty()),
            ("--with-helpers", args.with_helpers),
            ("--methods", !args.methods.is_empty()),
            ("--widen", args.widen.is_some()),
            ("--as", args.as_mode.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|(f, on)| *on && !allowed.contains(f)) {
            return Err(SpecError::FlagNotUsed { flag, kind, allowed: allowed.join(", ") });
        }
        let lines = args.lines.as_deref().map(parse_lines).transpose()?;
        let copies = args.copies.iter().map(|c| parse_lines(c).map_err(SpecError::copy)).collect::<Result<_, _>>()?;
        let name = args.name.as_deref().map(str::trim).map(str::to_string);
        if let Some(n) = &name
            && !crate::java::syntax::is_java_identifier(n)
        {
            return Err(SpecError::Name(n.clone()));
        }
        let to = args
            .to
            .as_deref()
            .map(|s| s.parse::<Destination>().map_err(|why| SpecError::Destination { why }))
            .transpose()?;
        let at = args.at.as_deref().map(parse_call_line).transpose()?;
        let params: Vec<String> = args.params.iter().map(|p| p.trim().to_string()).collect();
        let widen_public = match args.widen.as_deref().map(str::trim) {
            None => false,
            Some("public") => true,
            Some(other) => return Err(SpecError::Widen(other.to_string())),
        };
        let as_mode = match args.as_mode.as_deref() {
            None => AsMode::Auto,
            Some(m) => m.parse::<AsMode>().map_err(|_| SpecError::As(m.trim().to_string()))?,
        };
        let methods: Vec<String> =
            args.methods.iter().map(|m| m.trim().to_string()).filter(|m| !m.is_empty()).collect();
        if params.iter().any(String::is_empty) {
            return Err(SpecError::Param);
        }
        Ok(SpecFlags {
            lines,
            name,
            to,
            at,
            keep_delegate: args.keep_delegate,
            params,
            copies,
            with_helpers: args.with_helpers,
            methods,
            widen_public,
            as_mode,
        })
    }

    /// The spec, when the flags say everything `kind` needs.
    pub fn complete(&self, kind: RefactoringKind, file: &Path, method_line: usize) -> Option<Spec> {
        let file = file.to_path_buf();
        let extract = || -> Option<ExtractSpec> {
            Some(ExtractSpec {
                file: file.clone(),
                method_line: Some(method_line),
                lines: self.lines?,
                name: self.name.clone()?,
                visibility: None,
                local_types: Default::default(),
                params: self.params.clone(),
                param_types: Default::default(),
                quiet_calls: Vec::new(),
                copies: self.copies.clone(),
            })
        };
        let move_spec = || -> Option<MoveSpec> {
            Some(MoveSpec {
                to: self.to.clone()?,
                keep_delegate: self.keep_delegate,
                with_helpers: self.with_helpers,
                also: self.methods.clone(),
                widen_public: self.widen_public,
                as_mode: self.as_mode,
                moving_with: Vec::new(),
            })
        };
        Some(match kind {
            RefactoringKind::ExtractMethod => Spec::ExtractMethod(extract()?),
            // The inline spec names the method, which the flags do not: the planner builds it.
            RefactoringKind::InlineMethod => return None,
            RefactoringKind::MoveMethod => Spec::MoveMethod(move_spec()?),
            RefactoringKind::RenameMethod => Spec::RenameMethod(RenameSpec { new_name: self.name.clone()? }),
            RefactoringKind::ExtractAndMoveMethod => {
                Spec::ExtractAndMoveMethod(ExtractAndMoveSpec { extract: extract()?, move_to: move_spec()? })
            }
            RefactoringKind::MoveAndInlineMethod => {
                Spec::MoveAndInlineMethod(MoveAndInlineSpec { to: self.to.clone()?, at: self.at.clone() })
            }
            RefactoringKind::MoveAndRenameMethod => {
                Spec::MoveAndRenameMethod(MoveAndRenameSpec { move_to: move_spec()?, new_name: self.name.clone()? })
            }
        })
    }

    /// Inline needs nothing beyond the method: `--at` only narrows it to one call.
    pub fn inline_spec(&self, file: &Path, method_line: usize, name: &str) -> InlineSpec {
        InlineSpec {
            file: file.to_path_buf(),
            method: MethodSelector { name: name.to_string(), line: Some(method_line) },
            at: self.at.clone(),
        }
    }
}

/// `A-B`: 1-based, inclusive, `A <= B`.
pub fn parse_lines(text: &str) -> Result<(usize, usize), SpecError> {
    let bad = |why: &str| SpecError::Lines { text: text.to_string(), why: why.to_string() };
    let Some((a, b)) = text.split_once('-') else {
        return Err(bad("expected two line numbers joined by `-`, e.g. `38-44` (a single line is `38-38`)"));
    };
    let number = |s: &str| s.trim().parse::<usize>().ok().filter(|n| *n > 0);
    let (Some(a), Some(b)) = (number(a), number(b)) else {
        return Err(bad("both ends must be line numbers of 1 or more, e.g. `38-44`"));
    };
    if a > b {
        return Err(bad(&format!("the range runs backwards; did you mean `{b}-{a}`?")));
    }
    Ok((a, b))
}

/// `FILE:LINE`.
pub fn parse_call_line(text: &str) -> Result<CallLine, SpecError> {
    let bad = || SpecError::At { text: text.to_string() };
    let (file, line) = text.rsplit_once(':').ok_or_else(bad)?;
    let line = line.trim().parse::<usize>().ok().filter(|n| *n > 0).ok_or_else(bad)?;
    if file.trim().is_empty() {
        return Err(bad());
    }
    Ok(CallLine { file: PathBuf::from(file.trim()), line })
}

/// A flag that cannot become part of a spec.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("--lines {text}: {why}")]
    Lines { text: String, why: String },
    #[error("--copy {text}: {why}")]
    Copy { text: String, why: String },
    #[error("--name `{0}` is not a valid Java method name")]
    Name(String),
    #[error("--to: {why}")]
    Destination { why: String },
    #[error("--at `{text}` is not `FILE:LINE`")]
    At { text: String },
    #[error("{flag} does not apply to {}", kind.name())]
    FlagNotUsed { flag: &'static str, kind: RefactoringKind, allowed: String },
    #[error("--param names no expression")]
    Param,
    #[error("--widen `{0}` is not a visibility mantra widens to")]
    Widen(String),
    #[error("--as `{0}` is not a mode")]
    As(String),
}

impl Classify for SpecError {
    fn exit(&self) -> Exit {
        Exit::Usage
    }
    fn hint(&self) -> Option<String> {
        Some(match self {
            SpecError::Lines { .. } => "give the first and last line of the statements, e.g. `--lines 38-44`".into(),
            SpecError::Copy { .. } => {
                "give the first and last line of each copy of the statements, e.g. `--copy 61-67`".into()
            }
            SpecError::Name(_) => "use a Java identifier that is not a keyword, e.g. `--name computeTotals`".into(),
            SpecError::Destination { .. } => {
                "write `--to param:NAME`, `--to field:NAME` or `--to class:a.b.Type`".into()
            }
            SpecError::At { .. } => "name the call by file and line, e.g. `--at src/main/java/a/B.java:27`".into(),
            SpecError::FlagNotUsed { kind, allowed, .. } => {
                format!("{} takes {allowed}", kind.name())
            }
            SpecError::Param => "give an expression of the selected statements, e.g. `--param 'r.rows()'`".into(),
            SpecError::Widen(_) => "write `--widen public`".into(),
            SpecError::As(_) => "write `--as static`, `--as instance` or `--as auto` (the default)".into(),
        })
    }
}

impl SpecError {
    /// A `--lines`-style error about a `--copy` range.
    fn copy(error: SpecError) -> SpecError {
        match error {
            SpecError::Lines { text, why } => SpecError::Copy { text, why },
            other => other,
        }
    }
}

/// Performs `spec` on `method`: the change set to write, or the engine's refusal.
pub fn apply(project: &Project, method: MethodId, spec: &Spec) -> Result<ChangeSet, Refusal> {
    match spec {
        Spec::ExtractMethod(s) => extract(project, method, s),
        Spec::InlineMethod(s) => inline(project, method, s),
        Spec::MoveMethod(s) if s.with_helpers || !s.also.is_empty() => {
            super::compound::move_with_helpers(project, method, s).map(|c| c.changes)
        }
        Spec::MoveMethod(s) => super::move_method(project, method, s),
        Spec::RenameMethod(s) => super::rename_method(project, method, s),
        Spec::ExtractAndMoveMethod(s) => extract_and_move(project, method, s),
        Spec::MoveAndInlineMethod(s) => move_and_inline(project, method, s),
        Spec::MoveAndRenameMethod(s) => move_and_rename(project, method, s),
    }
}

fn extract(project: &Project, method: MethodId, spec: &ExtractSpec) -> Result<ChangeSet, Refusal> {
    let mut spec = spec.clone();
    spec.method_line.get_or_insert(project.method(method).span.start_line);
    with_project_facts(project, method, &mut spec);
    super::extract_method(project.method_source(method), &spec)
}

/// Fills in what the extraction engine, which sees one file, cannot know: the type of each
/// `--param` expression that is a call the project model resolves (the called method's declared
/// return type), and which calls of the method throw no checked exception.
pub fn with_project_facts(project: &Project, method: MethodId, spec: &mut ExtractSpec) {
    let decl = project.method(method);
    spec.quiet_calls = (0..decl.calls.len())
        .filter(|&i| throws_nothing_checked(project, method, i))
        .map(|i| (decl.calls[i].span.start_byte, decl.calls[i].span.end_byte))
        .collect();
    for expr in &spec.params {
        if spec.param_types.contains_key(expr) {
            continue;
        }
        let wanted = crate::text::compact(expr);
        let found = (0..decl.calls.len()).find_map(|i| {
            if crate::text::compact(project.method_source(method).slice(&decl.calls[i].span)) != wanted {
                return None;
            }
            match project.resolve_call(method, i) {
                crate::java::Resolution::Resolved { method: m } => {
                    project.method(m).return_type.as_ref().map(|t| t.text.clone()).filter(|t| t != "void")
                }
                _ => None,
            }
        });
        if let Some(ty) = found {
            spec.param_types.insert(expr.clone(), ty);
        }
    }
}

/// Whether call number `call` of `method` is known to throw no checked exception: it goes to
/// project methods or constructors that declare none (an implicit constructor declares none), or
/// to a JDK type none of whose methods declares one, or it is one of `Object`'s methods that no
/// override may make throw.
fn throws_nothing_checked(project: &Project, method: MethodId, call: usize) -> bool {
    use crate::java::Resolution;
    use crate::java::symbols::CallKind;
    let site = &project.method(method).calls[call];
    let declares_none = |m: MethodId| project.method(m).throws.is_empty();
    match site.kind {
        CallKind::Method | CallKind::New => {}
        _ => return false,
    }
    match project.resolve_call(method, call) {
        Resolution::Resolved { method: m } => return declares_none(m),
        Resolution::Ambiguous { candidates } => return candidates.into_iter().all(declares_none),
        Resolution::Unresolved { .. } => {}
    }
    if site.kind == CallKind::New {
        let owner = project.owner(method);
        if let Some(ty) = project.resolve_type(method.file(), Some(owner.index()), &site.name) {
            return !project.methods_of(ty).into_iter().any(|m| project.method(m).is_constructor());
        }
        let name = simple_type(&site.name);
        // `new String(bytes, "UTF-8")` may throw `UnsupportedEncodingException`.
        return QUIET_JDK_TYPES.contains(&name) && !(name == "String" && site.arg_count().is_none_or(|n| n >= 2));
    }
    // The JDK's few methods of these types that may throw a checked exception: the charset
    // named by a string (`getBytes("UTF-8")`), and the exception a supplier makes
    // (`orElseThrow(() -> new IOException())`).
    if matches!(site.name.as_str(), "getBytes" | "orElseThrow") && site.arg_count() != Some(0) {
        return false;
    }
    if OBJECT_METHODS.contains(&(site.name.as_str(), site.arg_count().unwrap_or(usize::MAX))) {
        return true;
    }
    // The console: `System.out.println(...)` and the like declare nothing (unlike `write`).
    if let Some(span) = site.receiver_span
        && matches!(
            crate::text::compact(project.method_source(method).slice(&span)).as_str(),
            "System.out" | "System.err"
        )
    {
        return matches!(site.name.as_str(), "println" | "print" | "printf" | "format" | "flush");
    }
    quiet_receiver(project, method, call, 0).is_some()
}

/// The JDK type of [`QUIET_JDK_TYPES`] that the receiver of call number `call` of `method` has:
/// a variable's declared type, a class named for a static call (`Math.max`, `Objects.equals`),
/// or what a call of such a type returns (`sb.append(a).append(b)`, `list.stream().map(f)`,
/// `new StringBuilder().append(a)`), as far as [`FLUENT`] knows.
fn quiet_receiver(project: &Project, method: MethodId, call: usize, depth: usize) -> Option<&'static str> {
    use crate::java::calls::ReceiverType;
    use crate::java::symbols::CallKind;
    let quiet = |name: &str| QUIET_JDK_TYPES.iter().copied().find(|t| *t == name);
    match project.receiver_type(method, call) {
        ReceiverType::External(text) => quiet(simple_type(&text)),
        ReceiverType::UnknownName(name) => quiet(&name),
        ReceiverType::Unknown if depth < 8 => {
            let calls = &project.method(method).calls;
            let span = calls[call].receiver_span?;
            let inner =
                calls.iter().position(|c| c.span.start_byte == span.start_byte && c.span.end_byte == span.end_byte)?;
            let site = &calls[inner];
            if site.kind == CallKind::New {
                return quiet(simple_type(&site.name));
            }
            let of = quiet_receiver(project, method, inner, depth + 1)?;
            FLUENT
                .iter()
                .find(|(types, names, _)| types.contains(&of) && names.contains(&site.name.as_str()))
                .map(|f| f.2)
        }
        _ => None,
    }
}

/// What some methods of [`QUIET_JDK_TYPES`] return, when it is one of them: (receiver types,
/// method names, result type).
const FLUENT: &[(&[&str], &[&str], &str)] = &[
    (&["StringBuilder"], &["append", "insert", "reverse", "delete", "deleteCharAt", "replace"], "StringBuilder"),
    (
        &["String"],
        &[
            "trim",
            "strip",
            "stripLeading",
            "stripTrailing",
            "substring",
            "toLowerCase",
            "toUpperCase",
            "replace",
            "replaceAll",
            "replaceFirst",
            "concat",
            "repeat",
            "formatted",
            "intern",
            "valueOf",
            "join",
            "format",
        ],
        "String",
    ),
    (
        &["Collection", "List", "ArrayList", "LinkedList", "Set", "HashSet", "LinkedHashSet", "TreeSet", "Arrays"],
        &["stream"],
        "Stream",
    ),
    (
        &["Stream"],
        &["of", "map", "filter", "sorted", "distinct", "limit", "skip", "peek", "flatMap", "mapToObj", "boxed"],
        "Stream",
    ),
    (&["Optional"], &["map", "filter", "flatMap", "or", "of", "ofNullable", "empty"], "Optional"),
    (&["Map", "HashMap", "LinkedHashMap", "TreeMap"], &["keySet", "entrySet"], "Set"),
    (&["Map", "HashMap", "LinkedHashMap", "TreeMap"], &["values"], "Collection"),
    (
        &["List", "Arrays", "Collections"],
        &["of", "copyOf", "asList", "subList", "unmodifiableList", "emptyList"],
        "List",
    ),
];

/// `java.util.List<String>` → `List`, `int[]` → `int[]`.
fn simple_type(text: &str) -> &str {
    let raw = text.split('<').next().unwrap_or(text).trim();
    raw.rsplit('.').next().unwrap_or(raw)
}

/// JDK types none of whose methods or constructors declares a checked exception (an interface's
/// implementations cannot add one), but for the few [`throws_nothing_checked`] names: strings,
/// numbers, collections, streams, dates.
const QUIET_JDK_TYPES: &[&str] = &[
    "String",
    "StringBuilder",
    "StringJoiner",
    "CharSequence",
    "Math",
    "StrictMath",
    "Objects",
    "Integer",
    "Long",
    "Short",
    "Byte",
    "Double",
    "Float",
    "Boolean",
    "Character",
    "BigDecimal",
    "BigInteger",
    "Collection",
    "List",
    "ArrayList",
    "LinkedList",
    "Set",
    "HashSet",
    "LinkedHashSet",
    "TreeSet",
    "SortedSet",
    "NavigableSet",
    "Map",
    "HashMap",
    "LinkedHashMap",
    "TreeMap",
    "SortedMap",
    "NavigableMap",
    "Queue",
    "Deque",
    "ArrayDeque",
    "PriorityQueue",
    "Iterator",
    "ListIterator",
    "Iterable",
    "Collections",
    "Arrays",
    "Optional",
    "OptionalInt",
    "OptionalLong",
    "OptionalDouble",
    "Stream",
    "IntStream",
    "LongStream",
    "DoubleStream",
    "Collectors",
    "LocalDate",
    "LocalDateTime",
    "LocalTime",
    "Instant",
    "Duration",
    "Period",
    "ZonedDateTime",
    "OffsetDateTime",
    "UUID",
];

/// `Object`'s methods that declare no checked exception, by name and argument count; an override
/// cannot add one.
const OBJECT_METHODS: &[(&str, usize)] = &[("toString", 0), ("equals", 1), ("hashCode", 0), ("getClass", 0)];

/// Inline Method with call sites decided by the project model (test sources included).
fn inline(project: &Project, method: MethodId, spec: &InlineSpec) -> Result<ChangeSet, Refusal> {
    super::inline::inline_method_in_project(project, method, spec)
}

fn extract_and_move(project: &Project, method: MethodId, spec: &ExtractAndMoveSpec) -> Result<ChangeSet, Refusal> {
    let mut extract = spec.extract.clone();
    with_project_facts(project, method, &mut extract);
    super::compound::extract_and_move(project, method, &extract, &spec.move_to).map(|c| c.changes)
}

fn move_and_inline(project: &Project, method: MethodId, spec: &MoveAndInlineSpec) -> Result<ChangeSet, Refusal> {
    let mv = MoveSpec::new(spec.to.clone());
    super::compound::move_and_inline(project, method, &mv, spec.at.clone()).map(|c| c.changes)
}

fn move_and_rename(project: &Project, method: MethodId, spec: &MoveAndRenameSpec) -> Result<ChangeSet, Refusal> {
    super::compound::move_and_rename(project, method, &spec.move_to, &spec.new_name).map(|c| c.changes)
}

/// The specs of the engines that arrive in their own modules (`inline.rs`, `compound.rs`), in the
/// shape those modules declare; at merge these become re-exports of the engines' own types.
mod pending {
    use super::*;

    /// Extract a fragment, then move the new method.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    pub struct ExtractAndMoveSpec {
        pub extract: ExtractSpec,
        pub move_to: MoveSpec,
    }

    /// Move the method, then inline it into its callers (or the one at `at`).
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    pub struct MoveAndInlineSpec {
        pub to: Destination,
        #[serde(default)]
        pub at: Option<CallLine>,
    }

    /// Move the method, then rename it.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    pub struct MoveAndRenameSpec {
        pub move_to: MoveSpec,
        pub new_name: String,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_with_clear_errors() {
        assert_eq!(parse_lines("38-44").unwrap(), (38, 44));
        assert_eq!(parse_lines(" 7 - 7 ").unwrap(), (7, 7));
        let msg = |t: &str| parse_lines(t).unwrap_err().to_string();
        assert!(msg("5").contains("two line numbers joined by `-`"), "{}", msg("5"));
        assert!(msg("9-3").contains("did you mean `3-9`"), "{}", msg("9-3"));
        assert!(msg("a-b").contains("line numbers of 1 or more"), "{}", msg("a-b"));
        assert!(msg("0-4").contains("line numbers of 1 or more"));
    }

    /// The spec the flags give for `kind` on the method declared at `method_line` of `file`, or
    /// `None` when something is missing that the planner has to choose.
    fn from_options(
        kind: RefactoringKind,
        options: &SpecOptions,
        file: &Path,
        method_line: usize,
    ) -> Result<Option<Spec>, SpecError> {
        Ok(SpecFlags::parse(kind, options)?.complete(kind, file, method_line))
    }

    #[test]
    fn flags_become_a_spec_only_when_complete() {
        let args = SpecOptions { lines: Some("38-44".into()), ..Default::default() };
        let file = Path::new("A.java");
        assert_eq!(from_options(RefactoringKind::ExtractMethod, &args, file, 37).unwrap(), None);
        let args = SpecOptions { name: Some("check".into()), ..args };
        let spec = from_options(RefactoringKind::ExtractMethod, &args, file, 37).unwrap().unwrap();
        let json = serde_json::to_value(&spec).unwrap();
        assert_eq!(json["type"], "extract-method");
        assert_eq!(json["lines"], serde_json::json!([38, 44]));
        assert_eq!(serde_json::from_value::<Spec>(json).unwrap(), spec);

        let args = SpecOptions { to: Some("field:numberGenerator".into()), ..Default::default() };
        let spec = from_options(RefactoringKind::MoveMethod, &args, file, 1).unwrap().unwrap();
        assert_eq!(spec, Spec::MoveMethod(MoveSpec::new(Destination::Field("numberGenerator".into()))));
        let err = from_options(RefactoringKind::RenameMethod, &args, file, 1).unwrap_err();
        assert_eq!(err.to_string(), "--to does not apply to rename-method");
        let bad = SpecOptions { to: Some("nowhere".into()), ..Default::default() };
        assert!(
            from_options(RefactoringKind::MoveMethod, &bad, file, 1).unwrap_err().to_string().starts_with("--to: ")
        );
    }

    /// The new method declares no `throws` when every call of the fragment is known to throw no
    /// checked exception, and what the source method declares as soon as one may.
    #[test]
    fn a_fragment_of_calls_known_to_throw_nothing_declares_nothing() {
        let a = "package a;\nimport java.io.*;\nimport java.util.*;\nclass A {\n    private final List<String> names = new ArrayList<>();\n    String label(String s) { return s.trim(); }\n    void load(Reader r) throws IOException { r.read(); }\n    void f(Reader r, StringBuilder out, String text) throws IOException {\n        out.append(label(\"x\"));\n        names.add(label(\"y\").toString());\n        out.append(Math.max(1, 2));\n        out.append(new Holder());\n        load(r);\n        out.append(r.read());\n        out.append(1).append(2);\n        names.stream().map(String::trim).close();\n        new ArrayList<Reader>().get(0).read();\n        out.append(text.getBytes(\"UTF-8\").length);\n        out.append(text.getBytes().length);\n        System.out.println(text);\n        System.out.write(1);\n    }\n}\nclass Holder {}\n";
        let (_d, p) = crate::java::project::tests::project(&[("src/a/A.java", a)]);
        let fid = p.file_id(Path::new("src/a/A.java")).unwrap();
        let f = p.methods_in(fid).unwrap().into_iter().find(|&m| p.method(m).name == "f").unwrap();
        let signature = |lines: (usize, usize)| {
            let spec = ExtractSpec {
                file: "src/a/A.java".into(),
                method_line: None,
                lines,
                name: "part".into(),
                visibility: None,
                local_types: Default::default(),
                params: Vec::new(),
                param_types: Default::default(),
                quiet_calls: Vec::new(),
                copies: Vec::new(),
            };
            let changes = apply(&p, f, &Spec::ExtractMethod(spec)).expect("extracts");
            let text = changes.render().unwrap().into_values().next().unwrap();
            text.lines().find(|l| l.contains(" void part(")).unwrap().trim().to_string()
        };
        // Project methods declaring nothing, a JDK collection and builder, `Object`'s methods, a
        // static `Math` call, a project class's implicit constructor.
        assert_eq!(signature((9, 12)), "private void part(StringBuilder out) {");
        // A project method declaring `IOException`, or a JDK reader's call, may throw it.
        assert_eq!(signature((9, 13)), "private void part(StringBuilder out, Reader r) throws IOException {");
        assert_eq!(signature((14, 14)), "private void part(StringBuilder out, Reader r) throws IOException {");
        // A receiver that is itself a call's result: known for the JDK's fluent methods.
        assert_eq!(signature((15, 15)), "private void part(StringBuilder out) {");
        assert_eq!(signature((16, 16)), "private void part() {");
        // Not for what a collection's element may be.
        assert_eq!(signature((17, 17)), "private void part() throws IOException {");
        // Nor for the few JDK calls of those types that may throw one.
        assert_eq!(signature((18, 18)), "private void part(StringBuilder out, String text) throws IOException {");
        assert_eq!(signature((19, 19)), "private void part(StringBuilder out, String text) {");
        assert_eq!(signature((20, 20)), "private void part(String text) {");
        assert_eq!(signature((21, 21)), "private void part() throws IOException {");
    }

    #[test]
    fn call_lines_parse() {
        assert_eq!(parse_call_line("a/B.java:27").unwrap(), CallLine { file: "a/B.java".into(), line: 27 });
        assert!(parse_call_line("a/B.java").is_err());
        assert!(parse_call_line("a/B.java:x").is_err());
    }
}
