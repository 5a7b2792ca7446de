//! Move Method against PureRefactor: what a developer moved, replayed through the engine.
//!
//! A "Move Method" or "Move And Rename Method" record holds the source file before the commit
//! (`sourceCodeBeforeForWhole`) and the destination file after it (`sourceCodeAfterForWhole`), but
//! not the destination before. Two cases:
//!
//! - **before known**: source and destination are the same file (a nested class), so the whole
//!   before state is in the record;
//! - **reconstructed**: the destination's before text is its after text minus the moved method's
//!   lines (`diffLocations[1]`, which cover its Javadoc and annotations) and the blank line before
//!   them. That is the real before text only if the commit changed nothing else in that file;
//!   imports the developer added for the method stay, so import adding is not exercised there.
//!
//! The replay project holds just those one or two files, so call sites in other files are not
//! seen (they exist in the real repository). The spec is recovered from the record alone: a static
//! method goes `class:<destination>`; an instance method goes through the parameter, else the field
//! of the source class, whose declared type is the destination class, else `class:<destination>`
//! too (it becomes static there, or stays an instance method when it is a test method).
//!
//! Shared by `examples/eval_move.rs` (the table) and the integration test (no crash, output parses).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mantra::detect::Snapshot;
use mantra::detect::{Verdict, validate};
use mantra::engine::compound::move_and_rename;
use mantra::engine::move_method::{MoveSpec, plan};
use mantra::engine::{ChangeSet, Refusal};
use mantra::java::symbols::extract;
use mantra::java::syntax::code_leaves;
use mantra::java::{MethodId, Project, SourceFile};
use mantra::refactoring::{Intent, RefactoringKind};
use serde_json::Value;

/// `MANTRA_SHARED_DATA`, else `shared/data` beside the repository or beside its parent.
pub fn shared_data() -> PathBuf {
    if let Some(dir) = std::env::var_os("MANTRA_SHARED_DATA") {
        return PathBuf::from(dir);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let near = root.join("../shared/data");
    if near.is_dir() { near } else { root.join("../../shared/data") }
}

#[derive(Debug, Clone)]
pub enum Status {
    Applied {
        time: Duration,
        /// The engine's moved method equals the developer's, ignoring whitespace.
        identical: bool,
        /// ... ignoring comments and access modifiers too (developers often add a Javadoc, or
        /// choose another visibility than the least the call sites need).
        same_code: bool,
        /// Every file the engine wrote parses.
        parses: bool,
        /// The built-in detector finds the intended refactoring (type, method, destination, new
        /// name) between the replay project and the engine's output.
        confirmed: bool,
    },
    Refused {
        reason: String,
        message: String,
    },
    Crashed {
        message: String,
    },
    /// The engine's destinations (parameter, field, static) cannot express this move.
    NoSpec {
        why: String,
    },
    NotReplayable {
        why: String,
    },
}

#[derive(Debug, Clone)]
pub struct Outcome {
    pub project: String,
    pub kind: String,
    pub id: String,
    /// `true` when the destination's before text is in the record (same file).
    pub before_known: bool,
    pub spec: Option<String>,
    pub status: Status,
}

/// Replays every Move Method and Move And Rename Method record.
pub fn evaluate(data: &Path) -> Result<Vec<Outcome>, String> {
    let files = mantra::dataset::pure_refactor_files(data)?;
    let mut out = Vec::new();
    for (project, path) in files {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let records: Vec<Value> = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for record in &records {
            let kind = record["type"].as_str().unwrap_or("");
            if kind == "Move Method" || kind == "Move And Rename Method" {
                out.push(replay(&project, record));
            }
        }
    }
    Ok(out)
}

/// What the description says: source class, method and parameter names, destination class, new name.
struct Described {
    source_class: String,
    name: String,
    param_names: Vec<String>,
    dest_class: String,
    new_name: String,
}

/// `Move Method\t<vis> name(p T, ...) : R from class a.B to <vis> name2(...) : R from class c.D`.
fn describe(record: &Value) -> Option<Described> {
    let desc = record["description"].as_str()?;
    let (_, rest) = desc.split_once('\t')?;
    let (before, after) = rest.split_once(" to ")?;
    let (sig, source_class) = before.rsplit_once(" from class ")?;
    let (sig2, dest_class) = after.rsplit_once(" from class ")?;
    let name_of = |sig: &str| -> Option<String> {
        let head = sig.split('(').next()?;
        head.split_whitespace().last().map(str::to_string)
    };
    let params = sig.split_once('(')?.1;
    let params = &params[..params.rfind(')')?];
    let mut param_names = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for c in params.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                param_names.extend(current.split_whitespace().next().map(str::to_string));
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    param_names.extend(current.split_whitespace().next().map(str::to_string));
    Some(Described {
        source_class: source_class.trim().to_string(),
        name: name_of(sig)?,
        param_names,
        dest_class: dest_class.trim().to_string(),
        new_name: name_of(sig2)?,
    })
}

fn replay(project_name: &str, record: &Value) -> Outcome {
    let id = record["uniqueId"].as_str().unwrap_or("?").to_string();
    let kind = record["type"].as_str().unwrap_or("").to_string();
    let before_path = record["filePathBefore"].as_str().unwrap_or("");
    let after_path = record["filePathAfter"].as_str().unwrap_or("");
    let before_known = before_path == after_path;
    let outcome = |spec: Option<String>, status| Outcome {
        project: project_name.to_string(),
        kind: kind.clone(),
        id: id.clone(),
        before_known,
        spec,
        status,
    };
    let Some(described) = describe(record) else {
        return outcome(None, Status::NotReplayable { why: "the description does not parse".into() });
    };
    let source_text = record["sourceCodeBeforeForWhole"].as_str().unwrap_or("");
    let mut files: Vec<(String, String)> = vec![(before_path.to_string(), source_text.to_string())];
    if !before_known {
        match reconstruct_destination(record) {
            Ok(text) => files.push((after_path.to_string(), text)),
            Err(why) => return outcome(None, Status::NotReplayable { why }),
        }
    }
    let Ok(dir) = tempfile::tempdir() else {
        return outcome(None, Status::NotReplayable { why: "no temporary directory".into() });
    };
    for (path, text) in &files {
        let p = dir.path().join(path);
        if let Some(parent) = p.parent()
            && std::fs::create_dir_all(parent).is_err()
        {
            return outcome(None, Status::NotReplayable { why: format!("cannot write {path}") });
        }
        if std::fs::write(&p, text).is_err() {
            return outcome(None, Status::NotReplayable { why: format!("cannot write {path}") });
        }
    }
    let Ok(project) = Project::open(dir.path()) else {
        return outcome(None, Status::NotReplayable { why: "the replay project does not open".into() });
    };
    let (method, spec) = match derive_spec(&project, Path::new(before_path), &described) {
        Ok(found) => found,
        Err(why) => return outcome(None, Status::NoSpec { why }),
    };
    let mut spec_text = match &spec.to {
        mantra::engine::Destination::Param(n) => format!("param:{n}"),
        mantra::engine::Destination::Field(n) => format!("field:{n}"),
        mantra::engine::Destination::Class(n) => format!("class:{n}"),
    };
    let rename = described.new_name != described.name && kind == "Move And Rename Method";
    let start = Instant::now();
    let attempt = |spec: &MoveSpec| {
        catch_unwind(AssertUnwindSafe(|| -> Result<ChangeSet, Refusal> {
            if rename {
                move_and_rename(&project, method, spec, &described.new_name).map(|c| c.changes)
            } else {
                plan(&project, method, spec).map(|m| m.changes)
            }
        }))
    };
    let mut run = attempt(&spec);
    // The developer's destination in another package may need members made public, as the
    // developer made them (`--widen public`).
    if matches!(&run, Ok(Err(r)) if r.reason == "private_member_used" || r.reason == "inaccessible_member") {
        let widened = attempt(&MoveSpec { widen_public: true, ..spec.clone() });
        if matches!(widened, Ok(Ok(_))) {
            run = widened;
            spec_text.push_str(" --widen public");
        }
    }
    let time = start.elapsed();
    let status = match run {
        Err(panic) => Status::Crashed { message: mantra::error::panic_message(panic.as_ref()).unwrap_or_default() },
        Ok(Err(r)) => Status::Refused { reason: r.reason.to_string(), message: r.message },
        Ok(Ok(changes)) => match changes.render() {
            Err(e) => Status::Crashed { message: format!("edits do not apply: {e}") },
            Ok(rendered) => {
                let parses =
                    rendered.iter().all(|(p, t)| SourceFile::parse(p.clone(), t.clone()).syntax_error().is_none());
                let dest_text = rendered.get(Path::new(after_path)).cloned().unwrap_or_default();
                let wanted = record["sourceCodeAfterRefactoring"].as_str().unwrap_or("");
                let got = method_texts(&dest_text, &described.dest_class, &described.new_name);
                let identical = got.iter().any(|got| squash(got) == squash(wanted));
                let same_code = got.iter().any(|got| code_tokens(got) == code_tokens(wanted));
                if !identical && std::env::var_os("MOVE_EVAL_DIFF").is_some() {
                    eprintln!("---- {id}\n== developer:\n{wanted}\n== engine:\n{}", got.join("\n"));
                }
                let before = Snapshot::from_files(files.iter().map(|(p, t)| (p.clone(), t.clone())));
                let mut after_files: Vec<(String, String)> = files.clone();
                for (path, text) in &rendered {
                    let path = path.display().to_string();
                    after_files.retain(|(p, _)| *p != path);
                    after_files.push((path, text.clone()));
                }
                let after = Snapshot::from_files(after_files.clone());
                let kind = if rename { RefactoringKind::MoveAndRenameMethod } else { RefactoringKind::MoveMethod };
                let mut intent = Intent::new(kind, described.source_class.clone(), described.name.clone());
                intent.destination = Some(described.dest_class.clone());
                intent.new_name = rename.then(|| described.new_name.clone());
                let validation = validate(&(&intent).into(), &before, &after);
                let confirmed = validation.verdict == Verdict::Matched;
                if !confirmed && let Some(dump) = std::env::var_os("MOVE_EVAL_DUMP") {
                    // The two versions, for `mantra detect --before DIR/before --after DIR/after`.
                    let dir = Path::new(&dump).join(&id);
                    for (side, files) in [("before", &files), ("after", &after_files)] {
                        for (p, t) in files.iter() {
                            let path = dir.join(side).join(p);
                            let _ = std::fs::create_dir_all(path.parent().unwrap_or(&dir));
                            let _ = std::fs::write(path, t);
                        }
                    }
                    eprintln!("---- {id} not confirmed ({:?}): {}", validation.verdict, dir.display());
                }
                Status::Applied { time, identical, same_code, parses, confirmed }
            }
        },
    };
    outcome(Some(spec_text), status)
}

/// The destination's before text: its after text without the moved method's lines.
fn reconstruct_destination(record: &Value) -> Result<String, String> {
    let after = record["sourceCodeAfterForWhole"].as_str().unwrap_or("");
    let loc = &record["diffLocations"][1];
    let (Some(start), Some(end)) = (loc["startLine"].as_u64(), loc["endLine"].as_u64()) else {
        return Err("no location of the moved method in the destination".into());
    };
    let lines: Vec<&str> = after.split('\n').collect();
    let (start, end) = (start as usize, end as usize);
    if start == 0 || end > lines.len() || start > end {
        return Err("the moved method's location is outside the destination file".into());
    }
    let moved = lines[start - 1..end].join("\n");
    let wanted = record["sourceCodeAfterRefactoring"].as_str().unwrap_or("");
    if squash(&moved) != squash(wanted) {
        return Err("the destination's lines at the recorded location are not the moved method".into());
    }
    let mut from = start - 1;
    if from > 0 && lines[from - 1].trim().is_empty() {
        from -= 1;
    }
    let mut kept: Vec<&str> = lines[..from].to_vec();
    kept.extend_from_slice(&lines[end..]);
    Ok(kept.join("\n"))
}

/// The method in the replay project and the destination the engine would need.
fn derive_spec(project: &Project, source_path: &Path, d: &Described) -> Result<(MethodId, MoveSpec), String> {
    let fid = project.file_id(source_path).ok_or("the source file is not in the replay project")?;
    let methods = project.methods_in(fid).map_err(|e| e.to_string())?;
    let method = methods
        .into_iter()
        .find(|&m| {
            let decl = project.method(m);
            let names: Vec<&str> = decl.params.iter().map(|p| p.name.as_str()).collect();
            project.qualified_name(project.owner(m)) == d.source_class
                && decl.name == d.name
                && names == d.param_names.iter().map(String::as_str).collect::<Vec<_>>()
        })
        .ok_or_else(|| format!("no method {}#{} with those parameters", d.source_class, d.name))?;
    let decl = project.method(method);
    let dest_simple = d.dest_class.rsplit('.').next().unwrap_or(&d.dest_class);
    let to = if decl.is_static() || decl.is_constructor() {
        format!("class:{}", d.dest_class)
    } else if let Some(p) = decl.params.iter().find(|p| p.ty.simple() == dest_simple) {
        format!("param:{}", p.name)
    } else if let Some(f) =
        project.type_decl(project.owner(method)).fields.iter().find(|f| f.ty.simple() == dest_simple && !f.is_static())
    {
        format!("field:{}", f.name)
    } else {
        // Any other class: the method becomes static there (a test method stays an instance method).
        format!("class:{}", d.dest_class)
    };
    Ok((method, MoveSpec::new(to.parse()?)))
}

/// The texts (Javadoc to closing brace) of the methods called `name` in class `class` of `text`.
fn method_texts(text: &str, class: &str, name: &str) -> Vec<String> {
    let file = SourceFile::parse("D.java", text.to_string());
    let syms = extract(&file);
    let display = match &syms.package {
        Some(p) => class.strip_prefix(&format!("{p}.")).unwrap_or(class),
        None => class,
    };
    let Some(ty) = syms.types.iter().position(|t| t.display == display) else { return Vec::new() };
    syms.methods
        .iter()
        .filter(|m| m.owner == ty as u32 && m.name == name)
        .map(|m| text[m.javadoc_span.map_or(m.span.start_byte, |j| j.start_byte)..m.span.end_byte].to_string())
        .collect()
}

/// The code tokens of a method, without comments and access modifiers.
fn code_tokens(method: &str) -> Vec<String> {
    let file = SourceFile::parse("T.java", format!("class T {{\n{method}\n}}"));
    code_leaves(file.root())
        .into_iter()
        .map(|n| file.text_of(n).to_string())
        .filter(|t| !matches!(t.as_str(), "public" | "private" | "protected"))
        .collect()
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}
