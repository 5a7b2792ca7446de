//! Where a task's refactoring spec comes from: the seam between the batch runner and whatever
//! decides *how* to refactor.
//!
//! `--spec oracle` hands the engine the human's own spec (the lines they extracted, the name they
//! chose, the class they moved to), so the score measures the engine alone. `--spec planner` asks
//! the heuristic planner, which chooses the lines and the destination; it cannot invent names
//! without a model, so it gets the human's new names and nothing else: the new method's, and the
//! destination class's when the human created that class in the commit. `--spec llm` runs MANTRA's
//! agents ([`crate::agent`]): their whole loop, Developer → Reviewer → Repair, decides and makes
//! the change, which may not be an engine spec at all (`write_file`), so a proposal can also
//! carry a change already made ([`Made`]). The batch then measures that final change exactly as
//! it measures an engine result (see [`super::execute`]).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use crate::engine::spec::{ExtractAndMoveSpec, MoveAndInlineSpec, MoveAndRenameSpec};
use crate::engine::{ChangeSet, Destination, ExtractSpec, MoveSpec, RenameSpec, Spec, SpecFlags};
use crate::java::{MethodId, Project};
use crate::process::Runner;
use crate::refactoring::RefactoringKind;
use crate::review::Review;

use super::BatchError;
use super::result::AgentRun;
use super::task::Task;

/// Where `mantra batch` gets each task's refactoring spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SpecMode {
    /// The human's own spec (extracted lines, new name, destination): measures the engine
    Oracle,
    /// The heuristic planner, given only the human's new names (the method's; the class's, when
    /// they created it): it invents none without a model
    Planner,
    /// The LLM agents (needs `llm.base_url`)
    Llm,
}

/// How many planner candidates a task tries before giving up.
const CANDIDATES: usize = 5;

/// What a [`SpecSource`] proposes for one task.
#[derive(Debug, Default)]
pub struct Proposal {
    /// Specs to try, best first; the first the engine accepts is verified.
    pub specs: Vec<Spec>,
    /// A change the source made itself (the agents'); when present, `specs` are not tried.
    pub made: Option<Made>,
    /// Tokens the proposal cost, when a model was asked.
    pub usage: Option<crate::llm::Usage>,
    /// What those tokens cost, in the currency of `llm.prices`, when prices are configured.
    pub cost: Option<f64>,
    /// Time spent waiting for a model, so that mantra's own overhead can be told apart.
    pub model_ms: u64,
    /// Where the spec came from, when the source says (the oracle: `detector` or `record`).
    pub origin: Option<&'static str>,
}

/// A change made by the source rather than by the batch's engine call.
#[derive(Debug)]
pub struct Made {
    /// The change against the files of the parent commit (empty when nothing was changed).
    pub changes: ChangeSet,
    /// The engine specs the source applied, in order; none when the model wrote the code.
    pub applied: Vec<Spec>,
    /// The last build and tests the source ran. The batch re-uses it when it is of exactly
    /// `changes` and got past detection to the build; otherwise it builds `changes` itself.
    pub review: Option<Review>,
    /// Milliseconds the source spent in builds and Checkstyle, by stage (`baseline`, `style`,
    /// `compile`, `tests`), so that the task's overhead excludes them.
    pub build_ms: BTreeMap<String, u64>,
    /// The source's own account of the run, kept in the result.
    pub run: AgentRun,
}

/// Decides the refactoring spec for a task, given the project at the task's parent commit.
///
/// Implementations must be shareable between `--jobs` worker threads.
pub trait SpecSource: Send + Sync {
    /// `oracle`, `planner`, `llm` (`llm-no-rag`, `raw`, ...): the mode's name in results and reports.
    fn name(&self) -> &str;
    /// Specs for `task` on `method` (the task's target, resolved in `project`), best first. An
    /// error is the task's failure (class `no-spec`), not the batch's. A source that builds
    /// (the agents) stays within `budget`.
    fn propose(&self, task: &Task, project: &Project, method: MethodId, budget: &Budget) -> Result<Proposal, String>;
}

/// The task's time limit, as a source that runs processes must respect it.
#[derive(Clone)]
pub struct Budget {
    /// Runs every process with at most the time left until `deadline`.
    pub runner: Arc<dyn Runner>,
    pub deadline: Instant,
}

/// The spec source `--spec` names; `agents` is `--spec llm`'s, `None` when no model is configured.
/// `--spec llm` without a model is refused before any work, since it would only fail every task.
pub fn for_mode(mode: SpecMode, agents: Option<super::agents::Agents>) -> Result<Box<dyn SpecSource>, BatchError> {
    match mode {
        SpecMode::Oracle => Ok(Box::new(Oracle)),
        SpecMode::Planner => Ok(Box::new(Planner)),
        SpecMode::Llm => match agents {
            Some(a) => Ok(Box::new(a)),
            None => Err(BatchError::NoModel),
        },
    }
}

/// The human's own spec, from the detected refactoring.
pub struct Oracle;

impl SpecSource for Oracle {
    fn name(&self) -> &str {
        "oracle"
    }

    fn propose(&self, task: &Task, project: &Project, method: MethodId, _: &Budget) -> Result<Proposal, String> {
        // The detector's finding has every detail; a task file's record names the methods and the
        // destination, which is all but an extraction's lines.
        let (subject, origin) = match (&task.human, &task.recorded) {
            (Some(human), _) => (&human.subject, "detector"),
            (None, Some(recorded)) => (recorded, "record"),
            (None, None) => {
                return Err(
                    "the detector did not find the human's refactoring in its commit, so there is no oracle spec"
                        .into(),
                );
            }
        };
        let decl = project.method(method);
        let file = project.method_source(method).path.clone();
        let line = decl.span.start_line;
        let new_name = subject.other_method.clone();
        // The human's class by name: the engine reaches it as `--to class:` with `--as auto` does,
        // through a parameter of that type or a field the moved code reads, else by the callers.
        // (A field it never reads is no channel: the call would dereference what the code did not.)
        let dest = subject.other_class.clone();
        let extract = || -> Result<ExtractSpec, String> {
            let Some(human) = &task.human else {
                return Err(
                    "the detector did not find the human's extraction in its commit, and the task's record does not give the extracted lines"
                        .into(),
                );
            };
            let stmts: Vec<_> = human
                .left_side_locations
                .iter()
                .filter(|l| l.description == "extracted code from source method declaration")
                .collect();
            let first = stmts.iter().map(|l| l.start_line).min();
            let last = stmts.iter().map(|l| l.end_line).max();
            let (Some(a), Some(b)) = (first, last) else {
                return Err("the human's extraction lists no extracted statements".into());
            };
            let (a, b) = whole_statements(project.method_source(method), a, b);
            Ok(ExtractSpec {
                file: file.clone(),
                method_line: Some(line),
                lines: (a, b),
                name: new_name.clone(),
                visibility: None,
                local_types: Default::default(),
                params: Vec::new(),
                param_types: Default::default(),
                quiet_calls: Vec::new(),
                copies: Vec::new(),
            })
        };
        let mut alternatives = Vec::new();
        let spec = match task.kind {
            RefactoringKind::ExtractMethod => {
                let e = extract()?;
                // Should the human's name clash with an overload of the source method, the spec
                // they meant passes in what the statements read through a parameter.
                alternatives = crate::plan::parameterised_alternatives(project, method, &e)
                    .into_iter()
                    .map(Spec::ExtractMethod)
                    .collect();
                Spec::ExtractMethod(e)
            }
            RefactoringKind::InlineMethod => {
                Spec::InlineMethod(SpecFlags::default().inline_spec(&file, line, &decl.name))
            }
            RefactoringKind::MoveMethod => Spec::MoveMethod(MoveSpec::new(Destination::Class(dest))),
            RefactoringKind::RenameMethod => Spec::RenameMethod(RenameSpec { new_name }),
            RefactoringKind::ExtractAndMoveMethod => {
                let extract = extract()?;
                let to = Destination::Class(dest);
                Spec::ExtractAndMoveMethod(ExtractAndMoveSpec { extract, move_to: MoveSpec::new(to) })
            }
            RefactoringKind::MoveAndInlineMethod => {
                Spec::MoveAndInlineMethod(MoveAndInlineSpec { to: Destination::Class(dest), at: None })
            }
            RefactoringKind::MoveAndRenameMethod => Spec::MoveAndRenameMethod(MoveAndRenameSpec {
                move_to: MoveSpec::new(Destination::Class(dest)),
                new_name,
            }),
        };
        // The human's code compiled, so whatever the moved method uses was visible to its new
        // class: made so by the human where mantra would refuse (`--widen public`).
        if let Some(widened) = widened_public(&spec) {
            alternatives.push(widened);
        }
        let specs = std::iter::once(spec).chain(alternatives).collect();
        Ok(Proposal { specs, origin: Some(origin), ..Proposal::default() })
    }
}

/// `spec` with `--widen public`, for the specs that move a method; `None` for the others.
fn widened_public(spec: &Spec) -> Option<Spec> {
    let widen = |m: &MoveSpec| MoveSpec { widen_public: true, ..m.clone() };
    match spec {
        Spec::MoveMethod(m) => Some(Spec::MoveMethod(widen(m))),
        Spec::ExtractAndMoveMethod(s) => {
            Some(Spec::ExtractAndMoveMethod(ExtractAndMoveSpec { move_to: widen(&s.move_to), ..s.clone() }))
        }
        Spec::MoveAndRenameMethod(s) => {
            Some(Spec::MoveAndRenameMethod(MoveAndRenameSpec { move_to: widen(&s.move_to), ..s.clone() }))
        }
        _ => None,
    }
}

/// Lines `a..=b` widened to whole statements: the detector lists a composite statement (`if`,
/// `for`, `try`) by its header and children, so the last child can end before the closing brace.
fn whole_statements(source: &crate::java::SourceFile, a: usize, b: usize) -> (usize, usize) {
    let (mut a, mut b) = (a, b);
    let mut stack = vec![source.root()];
    while let Some(node) = stack.pop() {
        let (start, end) = (node.start_position().row + 1, node.end_position().row + 1);
        if end < a || start > b {
            continue;
        }
        let kind = node.kind();
        if (kind.ends_with("_statement") || kind == "local_variable_declaration") && start >= a && start <= b {
            b = b.max(end);
            a = a.min(start);
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    (a, b)
}

/// The heuristic planner's candidates, with the human's new name (the planner invents none).
pub struct Planner;

impl SpecSource for Planner {
    fn name(&self) -> &str {
        "planner"
    }

    fn propose(&self, task: &Task, project: &Project, method: MethodId, _: &Budget) -> Result<Proposal, String> {
        let names_new = matches!(
            task.kind,
            RefactoringKind::ExtractMethod
                | RefactoringKind::RenameMethod
                | RefactoringKind::ExtractAndMoveMethod
                | RefactoringKind::MoveAndRenameMethod
        );
        let subject = task.human.as_ref().map(|h| &h.subject).or(task.recorded.as_ref());
        // A class the human created in the commit is a new name too: the planner cannot choose a
        // class that does not exist yet, any more than it can invent a method's name.
        let new_class = subject.map(|s| s.other_class.trim()).filter(|dest| {
            matches!(
                task.kind,
                RefactoringKind::MoveMethod
                    | RefactoringKind::ExtractAndMoveMethod
                    | RefactoringKind::MoveAndRenameMethod
            ) && !dest.is_empty()
                && project.find_type(dest).is_none()
        });
        let flags = SpecFlags {
            name: names_new.then(|| subject.map(|s| s.other_method.clone())).flatten(),
            to: new_class.map(|dest| Destination::Class(dest.to_string())),
            ..SpecFlags::default()
        };
        let origin = new_class.map(|_| "planner, to the class the human created");
        // As `mantra refactor` does: when the name is all a refactoring needs (rename), it is the spec.
        let file = project.method_source(method).path.clone();
        if let Some(spec) = flags.complete(task.kind, &file, project.method(method).span.start_line) {
            let specs = std::iter::once(spec.clone()).chain(widened_public(&spec)).collect();
            return Ok(Proposal { specs, origin, ..Proposal::default() });
        }
        let candidates =
            crate::plan::candidates(project, method, task.kind, &flags, CANDIDATES).map_err(|e| e.to_string())?;
        let mut specs: Vec<Spec> = candidates.into_iter().map(|c| c.spec).collect();
        // Last, each move with `--widen public`: a destination in another package may need the
        // members the method uses made visible, as a developer would make them.
        let widened: Vec<Spec> = specs.iter().filter_map(widened_public).collect();
        specs.extend(widened);
        Ok(Proposal { specs, origin, ..Proposal::default() })
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::java::project::tests::project;

    /// A task record about `a.Src#twice` in `src/a/Src.java`.
    fn twice_record(kind: &str, description: &str) -> super::super::task::Record {
        super::super::task::Record {
            kind: kind.into(),
            commit_id: "c".repeat(40),
            unique_id: None,
            file_path_before: "src/a/Src.java".into(),
            method_name_before: "a.Src#twice".into(),
            class_name_before: None,
            description: description.into(),
            source_code_after_refactoring: None,
        }
    }

    /// Issue 15: the planner's moves come first as they are, then each with `--widen public`, so
    /// that a member the destination cannot see does not end the task.
    #[test]
    fn the_planner_tries_each_move_widened_last() {
        let src = "package a;\n\nclass Src {\n    int twice(Util u) {\n        return u.x * 2 + u.x;\n    }\n}\n";
        let util = "package a;\n\nclass Util {\n    int x;\n}\n";
        let (_d, p) = project(&[("src/a/Src.java", src), ("src/a/Util.java", util)]);
        let fid = p.file_id(Path::new("src/a/Src.java")).unwrap();
        let method = p.methods_in(fid).unwrap()[0];
        let record = twice_record(
            "Move Method",
            "Move Method\tpackage twice(u Util) : int from class a.Src to package twice() : int from class a.Util",
        );
        let task = super::super::task::from_record("p", 0, &record, None).unwrap();
        let budget = Budget { runner: Arc::new(crate::process::System), deadline: Instant::now() };
        let proposal = Planner.propose(&task, &p, method, &budget).unwrap();
        let widened: Vec<bool> =
            proposal.specs.iter().map(|s| matches!(s, Spec::MoveMethod(m) if m.widen_public)).collect();
        assert!(widened.contains(&false) && widened.contains(&true), "{:?}", proposal.specs);
        let first_widened = widened.iter().position(|w| *w).unwrap();
        assert!(widened[first_widened..].iter().all(|w| *w), "{:?}", proposal.specs);
    }

    /// Issue 15: a class the human created in the commit is a name the planner cannot invent, so
    /// it is given, as the new method's name is; a class that exists is the planner's to choose.
    #[test]
    fn the_planner_is_given_a_class_the_human_created_and_nothing_else() {
        let src = "package a;\n\nclass Src {\n    static int twice(int x) {\n        return x * 2;\n    }\n}\n";
        let util = "package a;\n\nclass Util {\n}\n";
        let (_d, p) = project(&[("src/a/Src.java", src), ("src/a/Util.java", util)]);
        let fid = p.file_id(Path::new("src/a/Src.java")).unwrap();
        let method = p.methods_in(fid).unwrap()[0];
        let budget = Budget { runner: Arc::new(crate::process::System), deadline: Instant::now() };
        let to = |class: &str| {
            let description = format!(
                "Move Method\tpackage twice(x int) : int from class a.Src to package twice(x int) : int from class {class}"
            );
            let task =
                super::super::task::from_record("p", 0, &twice_record("Move Method", &description), None).unwrap();
            Planner.propose(&task, &p, method, &budget)
        };
        let created = to("a.Numbers").unwrap();
        assert_eq!(created.origin, Some("planner, to the class the human created"));
        let Spec::MoveMethod(first) = &created.specs[0] else { panic!("{:?}", created.specs) };
        assert_eq!((first.to.clone(), first.widen_public), (Destination::Class("a.Numbers".into()), false));
        assert!(matches!(&created.specs[1], Spec::MoveMethod(m) if m.widen_public && m.to == first.to));
        // `a.Util` exists: the planner is told nothing, and `twice` uses no other class.
        let err = to("a.Util").unwrap_err();
        assert!(err.contains("no move candidate"), "{err}");
    }

    /// Issue 15: a task the detector missed had no oracle spec; the record's own description gives
    /// the method, the destination and the new name.
    #[test]
    fn the_oracle_falls_back_on_the_records_description() {
        // `helper` is of the destination's type, but `twice` never reads it: no channel to it.
        let src =
            "package a;\n\nclass Src {\n    Util helper;\n\n    int twice(int x) {\n        return x * 2;\n    }\n}\n";
        let util = "package a;\n\nclass Util {\n}\n";
        let (_d, p) = project(&[("src/a/Src.java", src), ("src/a/Util.java", util)]);
        let fid = p.file_id(Path::new("src/a/Src.java")).unwrap();
        let method = p.methods_in(fid).unwrap()[0];
        let record = twice_record(
            "Move And Rename Method",
            "Move And Rename Method\tpackage twice(x int) : int from class a.Src to package doubled(x int) : int from class a.Util",
        );
        let task = super::super::task::from_record("p", 0, &record, None).unwrap();
        assert!(task.human.is_none());
        let budget = Budget { runner: Arc::new(crate::process::System), deadline: Instant::now() };
        let proposal = Oracle.propose(&task, &p, method, &budget).unwrap();
        assert_eq!(proposal.origin, Some("record"));
        let Spec::MoveAndRenameMethod(spec) = &proposal.specs[0] else { panic!("{:?}", proposal.specs) };
        assert_eq!((spec.move_to.to.clone(), spec.new_name.as_str()), (Destination::Class("a.Util".into()), "doubled"));
        assert!(!spec.move_to.widen_public);
        // Should the engine refuse it for a member the destination cannot see, the same spec with
        // `--widen public` comes next: the human's code compiled with that member visible.
        let Spec::MoveAndRenameMethod(widened) = &proposal.specs[1] else { panic!("{:?}", proposal.specs) };
        assert!(widened.move_to.widen_public && widened.move_to.to == spec.move_to.to && widened.new_name == "doubled");

        let extract = super::super::task::Record {
            kind: "Extract Method".into(),
            description:
                "Extract Method\tpackage half(x int) : int extracted from package twice(x int) : int in class a.Src"
                    .into(),
            ..record
        };
        let task = super::super::task::from_record("p", 0, &extract, None).unwrap();
        let err = Oracle.propose(&task, &p, method, &budget).unwrap_err();
        assert!(err.contains("does not give the extracted lines"), "{err}");
    }
}
