//! The tools the model sees, with their JSON Schemas, over the project model and the engine.
//!
//! Everything the tools change lands in the [`Workbench`]'s overlay: repository-relative path →
//! new text, on top of the files on disk. Reading tools see the overlay (so the model reads what
//! it wrote), the engine tools refactor the project as the overlay makes it, and the Reviewer
//! builds the overlay in its own workspace. Paths are confined to the repository: absolute paths,
//! `..` and symbolic links leading out are refused with a tool error.
//!
//! The engine tools take the fields of a refactoring spec (issue 3) and answer with the diff, or
//! with the engine's refusal (its reason code and sentence), so the model can choose again.

pub mod wiring;

use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;
use serde_json::{Value, json};

use super::Examples;
use super::turn::ToolHost;
use crate::config::REPO_FILE;
use crate::engine::{self, ChangeSet, Edit, Spec, SpecFlags};
use crate::java::analysis as analyze;
use crate::java::layout::GRADLE_FILES;
use crate::java::{MethodId, Project, TypeId, target};
use crate::llm::ToolSpec;
use crate::refactoring::{RefactoringKind, SpecOptions};
use crate::style::Style;

/// The longest file `get_file_content` returns whole; longer ones need a line range.
const MAX_LINES: usize = 1500;

/// Which tools a turn offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toolset {
    /// Context, examples (unless `--no-rag`), the engine and `write_file`.
    Developer { rag: bool },
    /// Context and `write_file`: the Repair agent patches, it does not refactor.
    Repair,
}

/// The project as the agents have changed it so far.
pub struct Workbench<'a> {
    root: PathBuf,
    /// The target as a repository-relative, line-independent string (`path:Type#name(params)`).
    pub target: String,
    pub kind: RefactoringKind,
    /// Path → text of every file the agents changed or created.
    pub overlay: BTreeMap<PathBuf, String>,
    project: Option<Project>,
    examples: &'a dyn Examples,
    pub toolset: Toolset,
    /// The engine specs applied, in order.
    pub applied: Vec<Spec>,
    /// Files written with `write_file`.
    pub written: Vec<PathBuf>,
}

impl<'a> Workbench<'a> {
    /// A workbench on the repository at `root` (canonicalised) for `method` of `project`.
    pub fn new(
        root: &Path,
        project: &Project,
        method: MethodId,
        kind: RefactoringKind,
        examples: &'a dyn Examples,
    ) -> Workbench<'a> {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        Workbench {
            target: canonical_target(project, method),
            root,
            kind,
            overlay: BTreeMap::new(),
            project: None,
            examples,
            toolset: Toolset::Developer { rag: true },
            applied: Vec::new(),
            written: Vec::new(),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The project with the overlay in place, opened on first use after a change.
    pub fn project(&mut self) -> Result<&Project, String> {
        if self.project.is_none() {
            let overlay: HashMap<PathBuf, String> = self.overlay.iter().map(|(p, t)| (p.clone(), t.clone())).collect();
            let p =
                Project::open_with_overlay(&self.root, overlay).map_err(|e| format!("cannot read the project: {e}"))?;
            self.project = Some(p);
        }
        // Set just above.
        self.project.as_ref().ok_or_else(|| "the project is not open".to_string())
    }

    /// The current text of `rel`: the overlay's, else the file on disk.
    pub fn text(&self, rel: &Path) -> Option<String> {
        match self.overlay.get(rel) {
            Some(t) => Some(t.clone()),
            None => std::fs::read_to_string(self.root.join(rel)).ok(),
        }
    }

    /// Sets the text of `rel` (already confined).
    pub fn set(&mut self, rel: PathBuf, text: String) {
        self.overlay.insert(rel, text);
        self.project = None;
    }

    /// The overlay as a change set against the files on disk: one edit per file spanning what
    /// differs (so the diff and the writeback see exactly the changed bytes), or a new file.
    pub fn change_set(&self) -> ChangeSet {
        let mut changes = ChangeSet::new();
        for (rel, new) in &self.overlay {
            match std::fs::read_to_string(self.root.join(rel)) {
                Ok(old) if old == *new => {}
                Ok(old) => {
                    let prefix = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
                    let max_suffix = old.len().min(new.len()) - prefix;
                    let mut suffix =
                        old.bytes().rev().zip(new.bytes().rev()).take(max_suffix).take_while(|(a, b)| a == b).count();
                    let (mut start, mut end_old) = (prefix, old.len() - suffix);
                    // keep the edit on character boundaries of both texts
                    while !old.is_char_boundary(start) || !new.is_char_boundary(start) {
                        start -= 1;
                    }
                    while !old.is_char_boundary(end_old) || !new.is_char_boundary(new.len() - suffix) {
                        suffix -= 1;
                        end_old += 1;
                    }
                    let replacement = new[start..new.len() - suffix].to_string();
                    changes.edit(rel, &old, Edit::replace(start..end_old, replacement));
                }
                Err(_) => changes.create(rel, new.clone()),
            }
        }
        changes
    }

    /// A repository-relative path the model gave, checked to stay inside the repository. `exists`:
    /// the file must exist (reading); otherwise its folder must resolve inside (writing), and it
    /// must name a regular file that is not build configuration.
    pub fn confine(&self, path: &str, exists: bool) -> Result<PathBuf, String> {
        let given = Path::new(path.trim());
        if path.trim().is_empty() {
            return Err("the path is empty; give a path relative to the repository root".into());
        }
        if path.contains('\0') {
            return Err("the path holds a NUL byte; give a plain relative path".into());
        }
        if !exists && path.trim().ends_with(['/', '\\']) {
            return Err(format!("`{path}` names a folder; give a file"));
        }
        if given.is_absolute() {
            return Err(format!("`{path}` is absolute; give a path relative to the repository root"));
        }
        if given.components().any(|c| matches!(c, Component::ParentDir | Component::Prefix(_) | Component::RootDir)) {
            return Err(format!("`{path}` leaves the repository (`..`); paths must stay inside it"));
        }
        let rel: PathBuf = given.components().filter(|c| !matches!(c, Component::CurDir)).collect();
        // Any letter case: on a case-insensitive file system `.GIT/config` is git's configuration.
        let own = |c: Component<'_>| {
            c.as_os_str().to_str().is_some_and(|s| s.eq_ignore_ascii_case(".git") || s.eq_ignore_ascii_case(".mantra"))
        };
        if rel.components().any(own) {
            return Err(format!("`{path}` is mantra's or git's own data, not the project's"));
        }
        if !exists && is_build_configuration(&rel) {
            return Err(format!(
                "`{path}` is build configuration; a method-level refactoring does not change it, so it is not written"
            ));
        }
        if self.overlay.contains_key(&rel) {
            return Ok(rel);
        }
        let full = self.root.join(&rel);
        // Follow symbolic links: the real place must be inside the repository too.
        let probe = if full.exists() {
            full.clone()
        } else if exists {
            return Err(format!("`{path}` does not exist; `get_project_structure` lists the source folders"));
        } else {
            let mut dir = full.parent().map(Path::to_path_buf).unwrap_or_else(|| self.root.clone());
            while !dir.exists() {
                dir = match dir.parent() {
                    Some(d) => d.to_path_buf(),
                    None => break,
                };
            }
            dir
        };
        let real = probe.canonicalize().map_err(|e| format!("`{path}`: {e}"))?;
        if !real.starts_with(&self.root) {
            return Err(format!("`{path}` leads outside the repository (a symbolic link); it is refused"));
        }
        if real.is_dir() && (exists || probe == full) {
            return Err(format!("`{path}` is a folder; give a file"));
        }
        Ok(rel)
    }

    /// Resolves a target the model gave (default: the task's target) in the current project.
    /// A bare method name (`process`) or `Class#method` is looked up in the task's file, where it
    /// must name one method.
    fn method(&mut self, given: Option<&str>) -> Result<MethodId, String> {
        let mut spec = given.map(str::trim).filter(|s| !s.is_empty()).unwrap_or(&self.target).to_string();
        if !spec.contains(':')
            && let Some((file, _)) = self.target.split_once(".java:")
        {
            spec = format!("{file}.java:{spec}");
        }
        let root = self.root.clone();
        let project = self.project()?;
        target::resolve(project, &root, &spec).map(|t| t.method).map_err(|e| {
            let hint = crate::error::Classify::hint(&e).map(|h| format!(" ({h})")).unwrap_or_default();
            format!("target `{spec}`: {e}{hint}")
        })
    }

    fn engine(&mut self, kind: RefactoringKind, args: &Value) -> Result<String, String> {
        let a: EngineArgs = parse(args)?;
        let lines = match (a.start_line, a.end_line) {
            (Some(s), Some(e)) => Some(format!("{s}-{e}")),
            (None, None) => None,
            _ => return Err("give both `start_line` and `end_line`".into()),
        };
        let spec_args = SpecOptions {
            lines,
            name: a.name.or(a.new_name),
            to: a.to,
            at: a.at,
            keep_delegate: a.keep_delegate,
            params: Vec::new(),
            copies: Vec::new(),
            with_helpers: false,
            methods: Vec::new(),
            widen: None,
            as_mode: None,
        };
        let flags = SpecFlags::parse(kind, &spec_args).map_err(|e| {
            let hint = crate::error::Classify::hint(&e).map(|h| format!(" ({h})")).unwrap_or_default();
            format!("{e}{hint}")
        })?;
        let method = self.method(a.target.as_deref())?;
        let project = self.project()?;
        let decl = project.method(method);
        let file = project.method_source(method).path.clone();
        let spec = match kind {
            RefactoringKind::InlineMethod => {
                Spec::InlineMethod(flags.inline_spec(&file, decl.span.start_line, &decl.name))
            }
            _ => flags
                .complete(kind, &file, decl.span.start_line)
                .ok_or_else(|| format!("{} needs more fields; see the tool's parameters", kind.name()))?,
        };
        let changes = engine::apply(project, method, &spec)
            .map_err(|r| format!("the engine refused ({}): {}", r.reason, r.message))?;
        let shown = changes.unified_diff(Style::PLAIN).map_err(|e| e.to_string())?;
        let rendered = changes.render().map_err(|e| e.to_string())?;
        for (path, text) in rendered {
            self.set(path, text);
        }
        self.applied.push(spec);
        Ok(format!("applied {}; the change so far is in place. Diff of this step:\n{shown}", kind.name()))
    }

    fn get_project_structure(&mut self) -> Result<String, String> {
        let project = self.project()?;
        let mut out = project.summary().render();
        out.push_str("Java files:\n");
        let files: Vec<String> = project.file_ids().map(|f| project.path(f).display().to_string()).collect();
        for f in files.iter().take(400) {
            out.push_str(&format!("  {f}\n"));
        }
        if files.len() > 400 {
            out.push_str(&format!("  ... and {} more\n", files.len() - 400));
        }
        Ok(out)
    }

    fn get_file_content(&mut self, args: &Value) -> Result<String, String> {
        #[derive(Deserialize)]
        struct A {
            path: String,
            start_line: Option<usize>,
            end_line: Option<usize>,
        }
        let a: A = parse(args)?;
        let rel = self.confine(&a.path, true)?;
        let text = self.text(&rel).ok_or_else(|| format!("`{}` is not a readable text file", a.path))?;
        let total = text.lines().count();
        let from = a.start_line.unwrap_or(1).max(1);
        let to = a.end_line.unwrap_or(total).min(total);
        if from > to.max(1) {
            return Err(format!("lines {from}-{to} are outside the file, which has {total} lines"));
        }
        if to + 1 - from > MAX_LINES {
            return Err(format!(
                "{} has {total} lines; ask for at most {MAX_LINES} with start_line and end_line",
                a.path
            ));
        }
        Ok(format!("{} (lines {from}-{to} of {total}):\n{}", rel.display(), numbered(&text, from, to)))
    }

    fn get_class_info(&mut self, args: &Value) -> Result<String, String> {
        #[derive(Deserialize)]
        struct A {
            class: String,
        }
        let a: A = parse(args)?;
        let project = self.project()?;
        let ty = find_class(project, &a.class)?;
        let decl = project.type_decl(ty);
        let syms = project.symbols_of(ty);
        let mut out = format!(
            "{} {} in {}\n",
            decl.kind.keyword(),
            project.qualified_name(ty),
            project.path(ty.file()).display()
        );
        if let Some(p) = &syms.package {
            out.push_str(&format!("package {p}\n"));
        }
        out.push_str(&format!("{}\nFields:\n", decl.header.trim_end()));
        for f in &decl.fields {
            out.push_str(&format!("  {} {}\n", f.ty.text, f.name));
        }
        out.push_str("Methods (line: declaration):\n");
        for m in project.methods_of(ty) {
            let d = project.method(m);
            out.push_str(&format!("  {}-{}: {}\n", d.span.start_line, d.span.end_line, d.declaration()));
        }
        Ok(out)
    }

    fn get_method(&mut self, args: &Value) -> Result<String, String> {
        let a: TargetArg = parse(args)?;
        let method = self.method(a.target.as_deref())?;
        let project = self.project()?;
        let d = project.method(method);
        let source = project.method_source(method);
        let start = d.javadoc_span.map_or(d.span.start_line, |j| j.start_line);
        Ok(format!(
            "{}#{} in {} (lines {start}-{}):\n{}",
            project.qualified_name(project.owner(method)),
            d.signature(),
            source.path.display(),
            d.span.end_line,
            numbered(&source.text, start, d.span.end_line)
        ))
    }

    fn get_callers_and_callees(&mut self, args: &Value) -> Result<String, String> {
        let a: TargetArg = parse(args)?;
        let method = self.method(a.target.as_deref())?;
        let analysis = analyze::analyze(self.project()?, method);
        Ok(render_calls(&analysis))
    }

    fn get_type_hierarchy(&mut self, args: &Value) -> Result<String, String> {
        let a: TargetArg = parse(args)?;
        let method = self.method(a.target.as_deref())?;
        let analysis = analyze::analyze(self.project()?, method);
        let text = analyze::render(&analysis);
        let section = text.split("\n== Hierarchy\n").nth(1).unwrap_or("").split("\n== Project\n").next().unwrap_or("");
        Ok(format!("Hierarchy of {} ({}):\n{section}", analysis.class.name, analysis.target.signature))
    }

    fn search(&mut self, args: &Value) -> Result<String, String> {
        #[derive(Deserialize)]
        struct A {
            query: String,
            k: Option<usize>,
        }
        let a: A = parse(args)?;
        let k = a.k.unwrap_or(3).clamp(1, 10);
        let found =
            self.examples.search(&a.query, self.kind, k).map_err(|e| format!("the example store failed: {e}"))?;
        if found.is_empty() {
            return Ok("The example store is empty: there are no examples to follow. Go on with step 3.".into());
        }
        Ok(render_examples(&found))
    }

    fn write_file(&mut self, args: &Value) -> Result<String, String> {
        #[derive(Deserialize)]
        struct A {
            path: String,
            content: String,
        }
        let a: A = parse(args)?;
        let rel = self.confine(&a.path, false)?;
        let lines = a.content.lines().count();
        let mut note = String::new();
        let old = self.text(&rel).unwrap_or_default();
        let java = rel.extension().is_some_and(|e| e == "java");
        if java {
            let parsed = crate::java::SourceFile::parse(rel.clone(), a.content.clone());
            if let Some(e) = parsed.syntax_error() {
                note = format!(" Warning: it does not parse: line {}:{} near `{}`", e.line, e.column, e.snippet);
            }
        }
        let new = a.content.clone();
        self.set(rel.clone(), a.content);
        if java && note.is_empty() {
            note = wiring::unresolved_note(self, &rel, &old, &new);
        }
        if !self.written.contains(&rel) {
            self.written.push(rel.clone());
        }
        Ok(format!("wrote {} ({lines} lines) to the scratch copy.{note}", rel.display()))
    }
}

impl ToolHost for Workbench<'_> {
    fn specs(&self) -> Vec<ToolSpec> {
        let all = specs();
        let keep = |name: &str| match self.toolset {
            Toolset::Developer { rag } => rag || name != "search_similar_refactorings",
            Toolset::Repair => REPAIR_TOOLS.contains(&name),
        };
        all.into_iter().filter(|s| keep(&s.name)).collect()
    }

    fn call(&mut self, name: &str, args: &Value) -> Result<String, String> {
        if !self.specs().iter().any(|s| s.name == name) {
            return Err(format!("`{name}` is not offered in this turn"));
        }
        match name {
            "get_project_structure" => self.get_project_structure(),
            "get_file_content" => self.get_file_content(args),
            "get_class_info" => self.get_class_info(args),
            "get_method" => self.get_method(args),
            "get_callers_and_callees" => self.get_callers_and_callees(args),
            "get_type_hierarchy" => self.get_type_hierarchy(args),
            "search_similar_refactorings" => self.search(args),
            "write_file" => self.write_file(args),
            "wire_code" => wiring::wire_code(self, args),
            "extract_method" => self.engine(RefactoringKind::ExtractMethod, args),
            "inline_method" => self.engine(RefactoringKind::InlineMethod, args),
            "move_method" => self.engine(RefactoringKind::MoveMethod, args),
            "rename_method" => self.engine(RefactoringKind::RenameMethod, args),
            "extract_and_move_method" => self.engine(RefactoringKind::ExtractAndMoveMethod, args),
            "move_and_inline_method" => self.engine(RefactoringKind::MoveAndInlineMethod, args),
            "move_and_rename_method" => self.engine(RefactoringKind::MoveAndRenameMethod, args),
            _ => Err(format!("no tool named `{name}`")),
        }
    }
}

const REPAIR_TOOLS: &[&str] =
    &["get_file_content", "get_class_info", "get_method", "get_callers_and_callees", "wire_code", "write_file"];

/// Every tool, in the order the model sees them.
pub fn specs() -> Vec<ToolSpec> {
    let target = json!({"type": "string", "description":
        "The method: `path/To.java:method`, `path/To.java:Type#method(int,String)` or `path/To.java:LINE`; default: the task's target"});
    let to = json!({"type": "string", "description": "Where the method goes: `param:NAME`, `field:NAME` or `class:a.b.Type`"});
    let at = json!({"type": "string", "description": "Only the call at `path/To.java:LINE` (default: every call)"});
    let keep = json!({"type": "boolean", "description": "Leave a delegating method behind (default false)"});
    let start = json!({"type": "integer", "minimum": 1, "description": "First line of the statements to extract (1-based, as numbered by get_method)"});
    let end =
        json!({"type": "integer", "minimum": 1, "description": "Last line of the statements to extract (inclusive)"});
    let name = json!({"type": "string", "description": "The new method's name (a Java identifier)"});
    let tool = |name: &str, description: &str, properties: Value, required: &[&str]| ToolSpec {
        name: name.into(),
        description: description.into(),
        parameters: json!({"type": "object", "properties": properties, "required": required}),
    };
    vec![
        tool(
            "get_project_structure",
            "The project's build system, source and test roots, packages and Java files.",
            json!({}),
            &[],
        ),
        tool(
            "get_file_content",
            "A file of the repository with line numbers (your changes included). Paths are relative to the repository root.",
            json!({"path": {"type": "string"}, "start_line": {"type": "integer", "minimum": 1}, "end_line": {"type": "integer", "minimum": 1}}),
            &["path"],
        ),
        tool(
            "get_class_info",
            "A class's package, header, fields and method declarations with their lines.",
            json!({"class": {"type": "string", "description": "Qualified or simple class name, or a path/To.java"}}),
            &["class"],
        ),
        tool("get_method", "A method's code with line numbers.", json!({"target": target}), &[]),
        tool(
            "get_callers_and_callees",
            "The methods a method calls (with their code) and the methods that call it.",
            json!({"target": target}),
            &[],
        ),
        tool(
            "get_type_hierarchy",
            "The supertypes and subtypes of a method's class, and the methods it overrides or that override it.",
            json!({"target": target}),
            &[],
        ),
        tool(
            "search_similar_refactorings",
            "Refactorings of the task's kind that developers made in other projects, most similar to the query first.",
            json!({"query": {"type": "string", "description": "The code to refactor, or a description of it"}, "k": {"type": "integer", "minimum": 1, "maximum": 10}}),
            &["query"],
        ),
        tool(
            "extract_method",
            "Engine: extract lines of a method into a new method (parameters, return value and call computed by the engine).",
            json!({"target": target, "start_line": start, "end_line": end, "name": name}),
            &["start_line", "end_line", "name"],
        ),
        tool(
            "inline_method",
            "Engine: inline a method into its callers and remove it.",
            json!({"target": target, "at": at}),
            &[],
        ),
        tool(
            "move_method",
            "Engine: move a method to another class, updating its callers.",
            json!({"target": target, "to": to, "keep_delegate": keep}),
            &["to"],
        ),
        tool(
            "rename_method",
            "Engine: rename a method and every call and override of it.",
            json!({"target": target, "new_name": name}),
            &["new_name"],
        ),
        tool(
            "extract_and_move_method",
            "Engine: extract lines into a new method, then move the new method.",
            json!({"target": target, "start_line": start, "end_line": end, "name": name, "to": to, "keep_delegate": keep}),
            &["start_line", "end_line", "name", "to"],
        ),
        tool(
            "move_and_inline_method",
            "Engine: move a method, then inline it into its callers.",
            json!({"target": target, "to": to, "at": at}),
            &["to"],
        ),
        tool(
            "move_and_rename_method",
            "Engine: move a method, then rename it.",
            json!({"target": target, "to": to, "new_name": name, "keep_delegate": keep}),
            &["to", "new_name"],
        ),
        tool(
            "wire_code",
            "Bind the names of pasted or moved lines that nothing in scope declares to the variables, fields and getters in \
             scope (by type, role, name and use); the clear bindings are written to the scratch copy, the others listed with \
             their candidates.",
            json!({"path": {"type": "string"}, "start_line": {"type": "integer", "minimum": 1}, "end_line": {"type": "integer", "minimum": 1}}),
            &["path", "start_line", "end_line"],
        ),
        tool(
            "write_file",
            "Fallback when no engine tool can express the change: the whole new content of a file (created if new). \
             Written to a scratch copy, never to the user's files.",
            json!({"path": {"type": "string"}, "content": {"type": "string", "description": "The complete file"}}),
            &["path", "content"],
        ),
    ]
}

#[derive(Deserialize)]
struct TargetArg {
    target: Option<String>,
}

#[derive(Deserialize)]
struct EngineArgs {
    target: Option<String>,
    start_line: Option<usize>,
    end_line: Option<usize>,
    name: Option<String>,
    new_name: Option<String>,
    to: Option<String>,
    at: Option<String>,
    #[serde(default)]
    keep_delegate: bool,
}

/// The tool's arguments as `T`; serde's message names the missing or mistyped field.
fn parse<T: for<'de> Deserialize<'de>>(args: &Value) -> Result<T, String> {
    serde_json::from_value(args.clone()).map_err(|e| format!("bad arguments: {e}"))
}

/// `path:Type#name(params)`: a target that survives line shifts.
pub fn canonical_target(project: &Project, method: MethodId) -> String {
    let d = project.method(method);
    let owner = project.type_decl(project.owner(method));
    let name = if d.is_constructor() { "<init>" } else { d.name.as_str() };
    format!(
        "{}:{}#{name}({})",
        project.method_source(method).path.display(),
        owner.display,
        d.erased_params().join(",")
    )
}

/// Lines `from..=to` of `text`, each prefixed with its number.
pub fn numbered(text: &str, from: usize, to: usize) -> String {
    let width = to.to_string().len();
    let mut out = String::new();
    for (i, line) in text.lines().enumerate().skip(from.saturating_sub(1)).take(to + 1 - from.max(1)) {
        out.push_str(&format!("{:>width$}| {line}\n", i + 1));
    }
    out
}

/// The class a model named: qualified, simple, nested (`a.B.C`, `B$C`), as a file path, or in the
/// sloppy forms small models write (`com.example/billing/Invoice`, a path without `.java`).
fn find_class(project: &Project, name: &str) -> Result<TypeId, String> {
    let name = name.trim();
    if name.contains(['/', '\\']) && !name.ends_with(".java") {
        let path = format!("{}.java", name.replace('\\', "/"));
        if project.file_id(Path::new(&path)).is_some() {
            return find_class(project, &path);
        }
        return find_class(project, &name.replace(['/', '\\'], "."));
    }
    if name.ends_with(".java") {
        let fid = project.file_id(Path::new(name)).ok_or_else(|| format!("no Java file `{name}` in the project"))?;
        let types = project.types_in(fid).map_err(|e| e.to_string())?;
        return types.first().copied().ok_or_else(|| format!("`{name}` declares no type"));
    }
    if let Some(t) = project.find_type(name) {
        return Ok(t);
    }
    let simple = name.rsplit(['.', '$']).next().unwrap_or(name);
    let mut found = Vec::new();
    for fid in project.files_containing(simple) {
        for t in project.types_in(fid).unwrap_or_default() {
            let q = project.qualified_name(t);
            // `src.main.java.a.B` (a path made dotted) ends with the qualified name `a.B`.
            if q == name || q.ends_with(&format!(".{name}")) || name.ends_with(&format!(".{q}")) {
                found.push(t);
            }
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(format!("no class `{name}` in the project; `get_project_structure` lists the files")),
        _ => Err(format!(
            "`{name}` is ambiguous: {}; give the qualified name",
            found.iter().map(|t| project.qualified_name(*t)).collect::<Vec<_>>().join(", ")
        )),
    }
}

fn render_calls(a: &analyze::Analysis) -> String {
    let mut out = format!("Callees of {}#{}:\n", a.target.class, a.target.signature);
    for c in &a.callees {
        let lines: Vec<String> = c.calls.iter().map(|x| x.line.to_string()).collect();
        out.push_str(&format!(
            "-> {}#{} ({}:{}-{}), called on line {}\n{}\n",
            c.method.class,
            c.method.signature,
            c.method.file,
            c.method.start_line,
            c.method.end_line,
            lines.join(", "),
            c.method.code.as_deref().unwrap_or("").trim_end()
        ));
    }
    for c in &a.ambiguous_calls {
        out.push_str(&format!("?  line {}: {} (ambiguous between overloads)\n", c.call.line, c.call.text));
    }
    for c in &a.unresolved_calls {
        out.push_str(&format!("?  line {}: {} ({})\n", c.call.line, c.call.text, c.reason));
    }
    out.push_str(&format!("Callers ({}):\n", a.callers.len()));
    for c in &a.callers {
        out.push_str(&format!(
            "<- {}#{} ({}:{}), line {}: {}\n",
            c.method.class, c.method.signature, c.method.file, c.method.start_line, c.call.line, c.call.text
        ));
    }
    out
}

/// Examples as the model reads them.
pub fn render_examples(found: &[super::Example]) -> String {
    let mut out = String::new();
    for (i, e) in found.iter().enumerate() {
        out.push_str(&format!(
            "Example {} ({}): {}\nBefore:\n```java\n{}\n```\nAfter:\n```java\n{}\n```\n\n",
            i + 1,
            e.source,
            e.description.trim(),
            e.before.trim_end(),
            e.after.trim_end()
        ));
    }
    out
}

/// Whether `rel` is the build's own configuration: the build files of Maven and Gradle, their
/// wrappers, and the folders they read settings from.
fn is_build_configuration(rel: &Path) -> bool {
    const OTHERS: &[&str] =
        &["pom.xml", "gradle.properties", "gradlew", "gradlew.bat", "mvnw", "mvnw.cmd", "build.xml", REPO_FILE];
    let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
    OTHERS.contains(&name)
        || GRADLE_FILES.contains(&name)
        || rel.starts_with(".mvn")
        || rel.starts_with("gradle/wrapper")
}

#[cfg(test)]
mod tests;
