//! Code wiring measured on real inlines. Every Inline Method and Move And Inline Method label of
//! RefactoringMiner's oracle is a real case of "paste a method body at a call site and bind its
//! parameters to the caller's names": the callee's body is pasted at each of its call sites in
//! the caller (a `foo(a, b);` statement becomes the body; a call in an expression becomes the
//! returned expression, after the statements before the `return`), with the callee's own names,
//! in the commit's `before/` files, and [`crate::engine::wire::wire`] binds the paste's names.
//! The truth is what the call passed: parameter `p` bound to the argument's text. A truth is
//! *bindable* when the argument is a name, `this`, a `this.` field, or a chain of no-argument
//! calls (`getOrder()`, `cart.getOrder()`): what wiring can write. An argument that is a literal or
//! a computed expression must stay unbound, and a binding there counts as wrong.
//!
//! Extract Method and Extract And Move Method labels give the same cases the other way round
//! (the extracted body pasted back at its call), and Move Method and Move And Rename Method
//! labels give the moved body's references to its old class ([`moves`]).

mod moves;

use std::collections::BTreeMap;

use tree_sitter::Node;

use crate::detect::RefactoringType;
use crate::detect::oracle::Commit;
use crate::engine::wire;
use crate::java::project::{MethodId, Project};
use crate::java::symbols::{CallKind, Receiver};
use crate::review::refactoring_miner::subject_of;

/// Binding counts of a set of cases.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Cases (call sites) built.
    pub cases: usize,
    /// Labels whose callee or caller could not be found, or whose call could not be pasted.
    pub skipped: usize,
    /// Parameters whose argument differs from the parameter's name.
    pub truths: usize,
    /// Of those, arguments that wiring can write.
    pub bindable: usize,
    /// Bindings equal to the argument.
    pub correct: usize,
    /// Bindings of a truth name to anything else.
    pub wrong: usize,
    /// Of those, where the argument was a computed expression or a literal.
    pub wrong_computed: usize,
    /// Bindings of names without a truth (a moved callee's own members).
    pub unscored: usize,
}

impl Counts {
    pub fn precision(&self) -> f64 {
        self.correct as f64 / (self.correct + self.wrong).max(1) as f64
    }
    /// Over the bindable truths.
    pub fn recall(&self) -> f64 {
        self.correct as f64 / self.bindable.max(1) as f64
    }
    /// Over every truth, computed arguments included.
    pub fn recall_all(&self) -> f64 {
        self.correct as f64 / self.truths.max(1) as f64
    }
    /// One line for a report: precision, recall, the counts behind them.
    pub fn line(&self) -> String {
        // No binding made: precision is undefined, not 0.
        let made = self.correct + self.wrong;
        let precision = if made == 0 { "n/a".to_string() } else { format!("{:.3}", self.precision()) };
        format!(
            "precision {precision} ({}/{}, {} wrong where the argument is computed), recall {:.3} of {} bindable, {:.3} of all {}; {} cases, {} labels skipped, {} unscored bindings",
            self.correct,
            made,
            self.wrong_computed,
            self.recall(),
            self.bindable,
            self.recall_all(),
            self.truths,
            self.cases,
            self.skipped,
            self.unscored
        )
    }

    pub fn add(&mut self, o: &Counts) {
        self.cases += o.cases;
        self.skipped += o.skipped;
        self.truths += o.truths;
        self.bindable += o.bindable;
        self.correct += o.correct;
        self.wrong += o.wrong;
        self.wrong_computed += o.wrong_computed;
        self.unscored += o.unscored;
    }
}

/// One pasted call site and what wiring made of it.
#[derive(Debug, Clone)]
pub struct Case {
    pub label: String,
    /// (parameter, argument as passed, what wiring bound, bindable)
    pub truths: Vec<(String, String, Option<String>, bool)>,
    /// Per parameter, the candidates wiring scored: `expr score [evidence]`.
    pub considered: Vec<String>,
    pub paste: String,
    /// Names bound that have no truth.
    pub unscored: usize,
}

/// Where a case comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    /// Inline Method and Move And Inline Method labels, on the `before/` side.
    Inline,
    /// Extract Method and Extract And Move Method labels, on the `after/` side: the extracted
    /// method's body pasted back at its call site.
    Extract,
    /// Move Method and Move And Rename Method labels, on the `after/` side: the method's old body
    /// pasted over its new one ([`moves`]).
    Move,
}

/// One commit's outcome.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub project: String,
    pub inline: Counts,
    pub extract: Counts,
    pub moved: Counts,
    pub cases: Vec<Case>,
}

/// One label as a callee pasted into a caller.
struct Job {
    family: Family,
    label: String,
    callee_class: String,
    callee: String,
    /// `name(T1,T2)` when the label gives the callee's signature.
    signature: Option<String>,
    caller_class: String,
    caller: String,
    /// The caller's `name(T1,T2)` when the label gives it (the caller as the label prints it,
    /// which may be its other version).
    caller_signature: Option<String>,
}

/// The job a label describes, for the four types whose cases are pastes of a callee.
fn job_of(d: &str) -> Option<Job> {
    use RefactoringType as T;
    let t = [T::InlineMethod, T::MoveAndInlineMethod, T::ExtractMethod, T::ExtractAndMoveMethod]
        .into_iter()
        .find(|t| d.starts_with(t.display_name()))?;
    let s = subject_of(t, d)?;
    let label = d.to_string();
    Some(match t {
        T::InlineMethod | T::MoveAndInlineMethod => Job {
            family: Family::Inline,
            label,
            callee_class: s.class,
            callee: s.method,
            signature: Some(s.signature),
            caller_class: s.other_class,
            caller: s.other_method,
            caller_signature: None,
        },
        _ => Job {
            family: Family::Extract,
            // The extracted method's own parameters: an overload of the same arity is another method.
            signature: Some(s.other_signature),
            label,
            callee_class: s.other_class,
            callee: s.other_method,
            caller_class: s.class,
            caller: s.method,
            caller_signature: Some(s.signature),
        },
    })
}

/// Builds and wires the cases of one commit.
pub fn run(commit: &Commit) -> Outcome {
    let mut out = Outcome { project: commit.project.clone(), ..Outcome::default() };
    moves::run(commit, &mut out.moved, &mut out.cases);
    let jobs: Vec<Job> = commit.expected.iter().filter_map(|d| job_of(d)).collect();
    if jobs.is_empty() {
        return out;
    }
    let mut projects: BTreeMap<Family, Option<Project>> = BTreeMap::new();
    for mut job in jobs {
        let project = projects.entry(job.family).or_insert_with(|| {
            let side = if job.family == Family::Inline { "before" } else { "after" };
            Project::open(&commit.dir.join(side)).ok()
        });
        let counts = if job.family == Family::Inline { &mut out.inline } else { &mut out.extract };
        let Some(project) = project.as_ref() else {
            counts.skipped += 1;
            continue;
        };
        // A label names classes as they are after the commit; `before/` may know them by the
        // names the commit's class moves and renames replaced.
        if job.family == Family::Inline {
            for class in [&mut job.callee_class, &mut job.caller_class] {
                if project.find_type(class).is_none() {
                    *class = commit.class_before(class);
                }
            }
        }
        let built = run_job(project, &job, counts, &mut out.cases);
        if built == 0 {
            counts.skipped += 1;
        }
    }
    out
}

/// Pastes the callee of `job` at each of its calls in the caller; the number of cases built.
fn run_job(project: &Project, job: &Job, counts: &mut Counts, cases: &mut Vec<Case>) -> usize {
    let callees: Vec<MethodId> = methods_named(project, &job.callee_class, &job.callee)
        .into_iter()
        .filter(|&m| job.signature.as_deref().is_none_or(|sig| signature_fits(project, m, sig)))
        .collect();
    let mut built = 0;
    let mut callers = methods_named(project, &job.caller_class, &job.caller);
    // Of overloads, the one the label names, when it is there as the label prints it.
    if let Some(sig) = &job.caller_signature
        && callers.iter().any(|&m| signature_fits(project, m, sig))
    {
        callers.retain(|&m| signature_fits(project, m, sig));
    }
    for caller in callers {
        for callee in &callees {
            let arity = project.method(*callee).params.len();
            let calls = project.method(caller).calls.iter().enumerate().filter(|(_, c)| {
                c.kind == CallKind::Method
                    && c.name == job.callee
                    && c.arg_count() == Some(arity)
                    && (job.callee_class != job.caller_class
                        || matches!(c.receiver, Receiver::Implicit | Receiver::This))
            });
            for (call, _) in calls {
                if let Some(case) = paste_case(project, *callee, caller, call, &job.label) {
                    built += 1;
                    tally(counts, cases, case);
                }
            }
        }
    }
    built
}

/// The cases of PureRefactor's records (`../shared/data/pure-refactor/`) of one project: Extract
/// Method records on the file after the commit, Inline Method records on the file before it
/// (both methods are in that one file). A third set, outside both halves of the oracle.
pub fn run_records(project: &str, records: &[serde_json::Value]) -> Outcome {
    let mut out = Outcome { project: project.to_string(), ..Outcome::default() };
    let Ok(empty) = crate::workspace::TempPath::dir("mantra-wire-eval") else { return out };
    for r in records {
        let kind = r["type"].as_str().unwrap_or_default();
        if matches!(kind, "Move Method" | "Move And Rename Method") {
            record_move(r, empty.path(), &mut out);
            continue;
        }
        let (side, path) = match kind {
            "Extract Method" => ("sourceCodeAfterForWhole", "filePathAfter"),
            "Inline Method" => ("sourceCodeBeforeForWhole", "filePathBefore"),
            _ => continue,
        };
        let description = r["description"].as_str().unwrap_or_default().replace('\t', " ");
        let (Some(job), Some(text), Some(rel)) = (job_of(&description), r[side].as_str(), r[path].as_str()) else {
            continue;
        };
        let counts = if job.family == Family::Inline { &mut out.inline } else { &mut out.extract };
        let Some(p) = file_alone(empty.path(), rel, text) else {
            counts.skipped += 1;
            continue;
        };
        if run_job(&p, &job, counts, &mut out.cases) == 0 {
            counts.skipped += 1;
        }
    }
    out
}

/// A project of one file, `text` at `rel`, over the empty folder `empty`.
fn file_alone(empty: &std::path::Path, rel: &str, text: &str) -> Option<Project> {
    Project::open_with_overlay(empty, std::iter::once((rel.into(), text.to_string())).collect()).ok()
}

/// The case of one Move Method or Move And Rename Method record: its file before (the old
/// class) and after (the destination), each alone.
fn record_move(r: &serde_json::Value, empty: &std::path::Path, out: &mut Outcome) {
    let description = r["description"].as_str().unwrap_or_default().replace('\t', " ");
    let side = |text: &str, path: &str| file_alone(empty, r[path].as_str()?, r[text].as_str()?);
    let built = moves::move_job(&description).and_then(|job| {
        let before = side("sourceCodeBeforeForWhole", "filePathBefore")?;
        let after = side("sourceCodeAfterForWhole", "filePathAfter")?;
        moves::case(&before, &after, &job)
    });
    match built {
        Some(c) => tally(&mut out.moved, &mut out.cases, c),
        None => out.moved.skipped += 1,
    }
}

/// Cases from a whole project (a real repository at one commit): every private method with
/// parameters, pasted at each of its calls in its own class, as if inlined by hand. With every
/// file present, the types and getters the oracle's snapshots lack are known.
pub fn run_project(name: &str, project: &Project) -> Outcome {
    let mut out = Outcome { project: name.to_string(), ..Outcome::default() };
    let files: Vec<_> = project.file_ids().collect();
    for file in files {
        let Ok(methods) = project.methods_in(file) else { continue };
        for m in methods {
            let d = project.method(m);
            if d.params.is_empty()
                || d.body.is_none()
                || d.is_constructor()
                || !d.modifiers.iter().any(|k| k == "private")
            {
                continue;
            }
            let owner = project.owner(m);
            let class = project.qualified_name(owner);
            for caller in project.methods_of(owner) {
                if caller == m {
                    continue;
                }
                let job = Job {
                    family: Family::Inline,
                    label: format!("{}#{} pasted into {}", class, d.name, project.method(caller).name),
                    callee_class: class.clone(),
                    callee: d.name.clone(),
                    signature: Some(signature(project, m)),
                    caller_class: class.clone(),
                    caller: project.method(caller).name.clone(),
                    caller_signature: Some(signature(project, caller)),
                };
                run_job(project, &job, &mut out.inline, &mut out.cases);
            }
        }
    }
    out
}

/// Counts `case` into `counts` and keeps it.
fn tally(counts: &mut Counts, cases: &mut Vec<Case>, case: Case) {
    counts.cases += 1;
    counts.unscored += case.unscored;
    for (_, arg, bound, bindable) in &case.truths {
        counts.truths += 1;
        counts.bindable += usize::from(*bindable);
        match bound {
            Some(b) if same(b, arg) => counts.correct += 1,
            Some(_) => {
                counts.wrong += 1;
                counts.wrong_computed += usize::from(!*bindable);
            }
            None => {}
        }
    }
    cases.push(case);
}

fn same(bound: &str, arg: &str) -> bool {
    let norm = |s: &str| crate::text::compact(s).trim_start_matches("this.").to_string();
    norm(bound) == norm(arg)
}

/// Whether wiring can write `arg`: a name, `this.name`, or a chain of no-argument calls on one.
pub fn bindable(arg: &str) -> bool {
    if arg.trim().starts_with("new") && arg.trim()[3..].starts_with(char::is_whitespace) {
        return false;
    }
    let s = crate::text::compact(arg);
    // The object itself, when the callee's receiver is the caller's `this`.
    if s == "this" {
        return true;
    }
    let s = s.strip_prefix("this.").unwrap_or(&s);
    !s.is_empty()
        && s.split('.').all(|part| {
            let name = part.strip_suffix("()").unwrap_or(part);
            crate::java::syntax::is_java_identifier(name)
        })
        && s.chars().next().is_some_and(|c| c.is_lowercase() || c == '_')
}

/// The methods named `name` of the type `class` (qualified, nested as `Outer.Inner`).
fn methods_named(project: &Project, class: &str, name: &str) -> Vec<MethodId> {
    let Some(ty) = project.find_type(class) else { return Vec::new() };
    project
        .methods_of(ty)
        .into_iter()
        .filter(|&m| project.method(m).name == name && project.method(m).body.is_some())
        .collect()
}

/// `name(T1,T2)`, erased simple types, as a label gives a method.
fn signature(project: &Project, m: MethodId) -> String {
    let d = project.method(m);
    format!("{}({})", d.name, d.erased_params().join(","))
}

fn signature_fits(project: &Project, m: MethodId, signature: &str) -> bool {
    let erased = project.method(m).erased_params().join(",");
    signature.split_once('(').is_some_and(|(_, rest)| rest.trim_end_matches(')') == erased)
}

/// The callee's body pasted at call `call` of `caller`, wired.
fn paste_case(project: &Project, callee: MethodId, caller: MethodId, call: usize, label: &str) -> Option<Case> {
    let csrc = project.method_source(callee);
    let body = project.method(callee).body?;
    let body_node = crate::java::syntax::node_spanning(csrc.root(), body.start_byte, body.end_byte)?;
    let statements: Vec<Node<'_>> = crate::java::syntax::statements_of(body_node);
    let (first, last) = (statements.first()?, statements.last()?);
    let base = crate::text::line_indent(&csrc.text, first.start_byte()).to_string();
    let returned = (last.kind() == "return_statement").then(|| last.named_child(0)).flatten();
    let returns = count_returns(body_node);

    let file = caller.file();
    let src = project.method_source(caller);
    let site = &project.method(caller).calls[call];
    let call_node = crate::java::syntax::node_spanning(src.root(), site.span.start_byte, site.span.end_byte)?;
    let args: Vec<String> = call_node
        .child_by_field_name("arguments")
        .map(|a| {
            let mut c = a.walk();
            a.named_children(&mut c)
                .filter(|n| !crate::java::syntax::is_comment(n.kind()))
                .map(|n| src.text_of(n).to_string())
                .collect()
        })
        .unwrap_or_default();
    let mut stmt = call_node;
    while let Some(p) = stmt.parent() {
        if p.kind() == "block" || p.kind() == "switch_block_statement_group" {
            break;
        }
        if matches!(p.kind(), "lambda_expression" | "class_body" | "method_declaration" | "constructor_declaration") {
            return None;
        }
        stmt = p;
    }
    let indent = crate::text::line_indent(&src.text, stmt.start_byte()).to_string();
    let text = &src.text;
    let (new_text, from, to) = if stmt.kind() == "expression_statement" && stmt.named_child(0) == Some(call_node) {
        let pasted = crate::text::reindent(&csrc.text[first.start_byte()..last.end_byte()], &base, &indent);
        let new = format!("{}{}{}", &text[..stmt.start_byte()], pasted, &text[stmt.end_byte()..]);
        (new, stmt.start_byte(), stmt.start_byte() + pasted.len())
    } else {
        let returned = returned.filter(|_| returns == 1)?;
        let expr = crate::text::reindent(csrc.text_of(returned), &base, &indent);
        let expr = if matches!(
            call_node.parent().map(|p| p.kind()),
            Some("argument_list" | "variable_declarator" | "return_statement" | "expression_statement")
        ) {
            expr
        } else {
            format!("({expr})")
        };
        let pre = if statements.len() > 1 {
            let prev = statements[statements.len() - 2];
            format!(
                "{}\n{indent}",
                crate::text::reindent(&csrc.text[first.start_byte()..prev.end_byte()], &base, &indent)
            )
        } else {
            String::new()
        };
        let new = format!(
            "{}{pre}{}{expr}{}",
            &text[..stmt.start_byte()],
            &text[stmt.start_byte()..call_node.start_byte()],
            &text[call_node.end_byte()..]
        );
        let end = stmt.end_byte() + pre.len() + expr.len() - (call_node.end_byte() - call_node.start_byte());
        (new, stmt.start_byte(), end)
    };
    let start_line = crate::text::line_starts(&new_text[..from]).len();
    let end_line = crate::text::line_starts(&new_text[..to]).len();
    let rel = project.path(file).to_path_buf();
    let bindings = wire_pasted(project, rel, new_text.clone(), start_line, end_line)?;
    let (considered, bound) = (considered(&bindings), bound_names(&bindings));
    let params = &project.method(callee).params;
    let truths = params
        .iter()
        .zip(&args)
        .filter(|(p, a)| !same(a, &p.name))
        .map(|(p, a)| {
            (
                p.name.clone(),
                crate::text::compact(a),
                bound.get(p.name.as_str()).copied().flatten().map(str::to_string),
                bindable(a),
            )
        })
        .collect();
    let paste = new_text.lines().skip(start_line - 1).take(end_line + 1 - start_line).collect::<Vec<_>>().join("\n");
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    let unscored = bindings.iter().filter(|b| b.bound.is_some() && !names.contains(&b.name.as_str())).count();
    Some(Case { label: label.to_string(), truths, considered, paste, unscored })
}

/// `text` as file `rel` of `project`, its lines `start`-`end` wired: the bindings (none when
/// wiring refuses the lines), or `None` when the file cannot be read back.
fn wire_pasted(
    project: &Project,
    rel: std::path::PathBuf,
    text: String,
    start: usize,
    end: usize,
) -> Option<Vec<wire::Binding>> {
    let pasted = project.with_file(rel.clone(), text).ok()?;
    let file = pasted.file_id(&rel)?;
    Some(wire::wire(&pasted, file, start, end).map(|w| w.bindings).unwrap_or_default())
}

/// Each binding's candidates as one report line: `name: reason | expr score [evidence] ; …`.
fn considered(bindings: &[wire::Binding]) -> Vec<String> {
    bindings
        .iter()
        .map(|b| {
            let c: Vec<String> =
                b.candidates.iter().map(|c| format!("{} {:.2} [{}]", c.expr, c.score, c.evidence.join("; "))).collect();
            format!("{}: {} | {}", b.name, b.reason, c.join(" ; "))
        })
        .collect()
}

/// What each unresolved name was bound to, if anything.
fn bound_names(bindings: &[wire::Binding]) -> BTreeMap<&str, Option<&str>> {
    bindings.iter().map(|b| (b.name.as_str(), b.bound.as_deref())).collect()
}

fn count_returns(node: Node<'_>) -> usize {
    let mut n = 0;
    crate::java::syntax::walk(node, &mut |c| {
        if matches!(c.kind(), "lambda_expression" | "class_body") {
            return false;
        }
        n += usize::from(c.kind() == "return_statement");
        true
    });
    n
}

/// Sums per project and family.
#[derive(Debug, Clone, Default)]
pub struct Totals {
    pub per_project: BTreeMap<(String, Family), Counts>,
}

impl Totals {
    pub fn add(&mut self, o: &Outcome) {
        self.per_project.entry((o.project.clone(), Family::Inline)).or_default().add(&o.inline);
        self.per_project.entry((o.project.clone(), Family::Extract)).or_default().add(&o.extract);
        self.per_project.entry((o.project.clone(), Family::Move)).or_default().add(&o.moved);
    }

    /// The counts of `projects` (all when empty) and `families`.
    pub fn over(&self, projects: &[String], families: &[Family]) -> Counts {
        let mut c = Counts::default();
        for ((p, f), counts) in &self.per_project {
            if (projects.is_empty() || projects.contains(p)) && families.contains(f) {
                c.add(counts);
            }
        }
        c
    }
}
