//! What is worth refactoring across a set of files: every method's best Extract, Move, Inline and
//! Extract And Move Method candidate from the planner, weighed by how much the method needs it,
//! dry-run by the engine, ranked on one scale.
//!
//! The planner's scores say which refactoring of one method is best; an opportunity's score also
//! says whether the method needs one at all:
//! - **Extract Method**: the best fragment's score, times the method's need, which grows with its
//!   length from 8 lines (full at 40); the planner never proposes a fragment that is a single
//!   call (`return createX();`): extracting it makes a delegator, not a refactoring. Code
//!   written twice in one class ([`super::clones`]) is the fragment when the engine extracts it,
//!   and makes even a short method need it; each further copy of one repeat weighs less, as each
//!   further opportunity of one class does;
//! - **Move Method**: the feature-envy score of the best destination (it uses that class more
//!   than its own); else, for a static method called only from one other class, that class;
//! - **Inline Method**: the delegator or single-caller score, for methods that are not API
//!   (public, protected) and override nothing, and whose one statement does not return an
//!   operator expression (`return ch == commentStart;`): such a method names a condition or a
//!   formula, which its callers read better than the expression;
//! - **Extract And Move Method**: the method's best fragment (or its whole body, leaving a
//!   delegate) when its statements use one other class more than their own: the mean of the
//!   fragment's and the move's scores, times the method's need and 0.9 (planned with the plain
//!   extraction, from the same run of the planner);
//! - **Rename Method**, without a model only where the name contradicts the code: `isX` or `hasX`
//!   returning a number, a text or a collection (other types may carry a yes or a no: a future of
//!   a boolean, a matcher), a `getX` returning nothing that stores its one argument in a field (a
//!   setter), a `setX` that takes nothing and only returns a field (a getter); scored
//!   [`CONTRADICTION`], overrides left alone (their name is the supertype's); and a test named
//!   by a number (`testOne`, `test2`) renamed after the words of its text that differ from a
//!   sibling test's, scored lower (an empty name says less than a wrong one). With a model, the
//!   methods whose names say least about their code ([`naming`]) are shown to it to name.
//!
//! Only opportunities the engine applies are kept.

use serde::Serialize;

pub mod naming;
mod rename;

use super::clones::{self, Clones, Run};
use super::{Candidate, extract, inline};
use crate::engine::{self, Destination, MoveSpec, Spec, SpecFlags};
use crate::java::{FileId, MethodId, Project, TypeId};
use crate::refactoring::RefactoringKind;
use rename::rename_opportunity;

/// One ranked opportunity.
#[derive(Debug, Clone, Serialize)]
pub struct Opportunity {
    #[serde(rename = "type")]
    pub kind: RefactoringKind,
    /// As `mantra refactor` takes it: `src/a/B.java:B#m(int)`.
    pub target: String,
    pub spec: Spec,
    pub score: f64,
    pub reason: String,
    #[serde(skip)]
    pub method: MethodId,
    /// For an extraction of code written twice, which repeated text it is ([`Run::family`]).
    #[serde(skip)]
    pub family: Option<u64>,
}

/// The kinds `suggest` looks for.
pub const KINDS: [RefactoringKind; 5] = [
    RefactoringKind::ExtractMethod,
    RefactoringKind::MoveMethod,
    RefactoringKind::InlineMethod,
    RefactoringKind::ExtractAndMoveMethod,
    RefactoringKind::RenameMethod,
];

/// The best opportunities of a set of files, and how many were ranked to find them.
#[derive(Debug, Default)]
pub struct Ranked {
    /// At most `limit`, each scored at least `min_score`, best first.
    pub best: Vec<Opportunity>,
    /// How many opportunities were scored in full and dry-run: those that could still make the
    /// list (all of them when the list is unbounded).
    pub ranked: usize,
}

/// The `limit` best opportunities of `files` scored at least `min_score` (`usize::MAX`: all).
///
/// Scoring in full is the costly part (the extraction planner's data flow over every fragment,
/// the engine's dry runs), so it is done best first and stops once no further opportunity could
/// make the list: every method starts with a cheap upper bound of its score (an extraction's is
/// the method's need; a move's or an inline's is its score, before the dry run), and the highest
/// is settled first. Because a settled score never exceeds its bound, the opportunities come out
/// in the order of their scores, and the list is exactly the one scoring everything would give.
pub fn opportunities(
    project: &Project,
    files: &[FileId],
    kinds: &[RefactoringKind],
    limit: usize,
    min_score: f64,
) -> Ranked {
    use rayon::prelude::*;
    let clones = &Clones::find(project, files);
    let pending: Vec<Pending> = files
        .par_iter()
        .flat_map_iter(|&f| {
            let methods = project.methods_in(f).unwrap_or_default();
            methods.into_iter().flat_map(|m| bounds(project, m, kinds, clones)).collect::<Vec<_>>()
        })
        .collect();
    let mut queue: std::collections::BinaryHeap<Pending> = pending.into();
    let mut list = TopScores::new(limit, min_score);
    let mut spread: std::collections::HashMap<(TypeId, RefactoringKind), i32> = std::collections::HashMap::new();
    let mut copies: std::collections::HashMap<u64, i32> = std::collections::HashMap::new();
    let mut settled: Vec<Opportunity> = Vec::new();
    // A few at a time, so that both cores settle while the bar is still being raised.
    let batch = 4 * rayon::current_num_threads().max(1);
    loop {
        while queue.peek().is_some_and(|p| p.stage.is_done() && p.bound >= list.bar()) {
            let Some(Pending { stage: Stage::Done(mut o), .. }) = queue.pop() else { unreachable!() };
            // Each further opportunity of one class and one type weighs less (see SPREAD), and so
            // does each further copy of one repeated piece of code, wherever it is.
            let n = spread.entry((project.owner(o.method), o.kind)).or_default();
            let c = o.family.and_then(|f| copies.get(&f).copied()).unwrap_or(0);
            o.score = round(o.score * SPREAD.powi(*n + c));
            *n += 1;
            if let Some(f) = o.family {
                *copies.entry(f).or_default() += 1;
            }
            list.add(o.score);
            settled.push(o);
        }
        let mut open = Vec::new();
        let mut done = Vec::new();
        while open.len() < batch
            && let Some(p) = queue.peek()
            && p.bound >= list.bar()
        {
            let p = queue.pop().expect("peeked");
            if p.stage.is_done() { done.push(p) } else { open.push(p) }
        }
        if open.is_empty() && done.is_empty() {
            break;
        }
        queue.extend(done);
        queue.extend(open.into_par_iter().flat_map_iter(|p| settle(project, p, clones)).collect::<Vec<_>>());
    }
    let ranked = settled.len();
    settled.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.target.cmp(&b.target)));
    let best = settled.into_iter().filter(|o| o.score >= min_score).take(limit).collect();
    Ranked { best, ranked }
}

/// Each further opportunity of one class and one type weighs less (×0.85 per rank): ten
/// extractions from the long methods of one test class are one piece of advice, not ten.
const SPREAD: f64 = 0.85;

/// The lowest score that can still make the list: `min_score` until `limit` opportunities are
/// in, then the `limit`-th best of them.
struct TopScores {
    limit: usize,
    min_score: f64,
    /// The best `limit` scores so far, lowest on top.
    best: std::collections::BinaryHeap<std::cmp::Reverse<Score>>,
}

impl TopScores {
    fn new(limit: usize, min_score: f64) -> Self {
        TopScores { limit, min_score, best: std::collections::BinaryHeap::new() }
    }

    fn add(&mut self, score: f64) {
        if score < self.min_score || self.limit == 0 {
            return;
        }
        self.best.push(std::cmp::Reverse(Score(score)));
        if self.best.len() > self.limit {
            self.best.pop();
        }
    }

    fn bar(&self) -> f64 {
        match self.best.peek() {
            Some(std::cmp::Reverse(Score(lowest))) if self.best.len() >= self.limit => lowest.max(self.min_score),
            _ if self.limit == 0 => f64::INFINITY,
            _ => self.min_score,
        }
    }
}

/// An `f64` ordered by `total_cmp`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Score(f64);

impl Eq for Score {}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// One method's opportunity of one kind, on its way to a score.
struct Pending {
    /// Its score once settled, an upper bound of it before.
    bound: f64,
    target: String,
    method: MethodId,
    kind: RefactoringKind,
    stage: Stage,
}

enum Stage {
    /// An extraction not planned yet; `with_move`: also as an Extract And Move.
    Extract {
        with_move: bool,
    },
    /// An extraction whose fragment may use another class more than its own, not planned yet.
    ExtractMove,
    /// Scored; the engine has not dry-run it yet.
    Scored {
        spec: Spec,
        reason: String,
    },
    Done(Opportunity),
}

impl Stage {
    fn is_done(&self) -> bool {
        matches!(self, Stage::Done(_))
    }
}

// Highest bound first; among equal ones, the unsettled first (settling may tie them), then by
// target, as the list is sorted.
impl Ord for Pending {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        Score(self.bound)
            .cmp(&Score(other.bound))
            .then_with(|| other.stage.is_done().cmp(&self.stage.is_done()))
            .then_with(|| other.target.cmp(&self.target))
    }
}

impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Pending {}

/// The opportunities of one method, one per kind at most, its code written twice looked for in
/// its own file and in `also`.
pub fn of_method(project: &Project, m: MethodId, kinds: &[RefactoringKind], also: &[FileId]) -> Vec<Opportunity> {
    let mut out = Vec::new();
    let files: Vec<FileId> = std::iter::once(m.file()).chain(also.iter().copied().filter(|&f| f != m.file())).collect();
    let clones = &Clones::find(project, &files);
    let mut open = bounds(project, m, kinds, clones);
    while let Some(p) = open.pop() {
        match p.stage {
            Stage::Done(o) => out.push(o),
            _ => open.extend(settle(project, p, clones)),
        }
    }
    out.sort_by_key(|o| kinds.iter().position(|k| *k == o.kind));
    out
}

/// One method's opportunities, one per kind at most, each with an upper bound of its score: the
/// cheap part. Moves and inlines are scored here; extractions only bounded.
fn bounds(project: &Project, m: MethodId, kinds: &[RefactoringKind], clones: &Clones) -> Vec<Pending> {
    let decl = project.method(m);
    let owner = project.type_decl(project.owner(m));
    if decl.body.is_none() || owner.is_anonymous() || owner.local {
        return Vec::new();
    }
    let mut out = Vec::new();
    let target = target(project, m);
    for &kind in kinds {
        let (bound, stage) = match kind {
            RefactoringKind::ExtractMethod => match extract_need(project, m, clones.of(m).first()) {
                // A fragment's score is at most 1 (rounded: the margin).
                Some(need) => {
                    let with_move = kinds.contains(&RefactoringKind::ExtractAndMoveMethod);
                    (extract_weight(need) + 0.001, Stage::Extract { with_move })
                }
                None => continue,
            },
            // Planned with the extraction when that is asked for too (one run of the planner).
            RefactoringKind::ExtractAndMoveMethod if kinds.contains(&RefactoringKind::ExtractMethod) => continue,
            RefactoringKind::ExtractAndMoveMethod => match extract_need(project, m, clones.of(m).first()) {
                Some(need) => (extract_weight(need) * EXTRACT_MOVE_WEIGHT + 0.001, Stage::ExtractMove),
                None => continue,
            },
            RefactoringKind::MoveMethod | RefactoringKind::InlineMethod | RefactoringKind::RenameMethod
                if decl.is_constructor() =>
            {
                continue;
            }
            RefactoringKind::MoveMethod | RefactoringKind::InlineMethod | RefactoringKind::RenameMethod => {
                let found = match kind {
                    RefactoringKind::MoveMethod => move_opportunity(project, m),
                    RefactoringKind::InlineMethod => inline_opportunity(project, m),
                    _ => rename_opportunity(project, m),
                };
                match found {
                    Some((spec, score, reason)) => (round(score), Stage::Scored { spec, reason }),
                    None => continue,
                }
            }
            _ => continue,
        };
        out.push(Pending { bound, target: target.clone(), method: m, kind, stage });
    }
    out
}

/// The next stage of `p`: an extraction planned (the planner keeps only what the engine
/// applies; with `with_move`, its run is also planned as an Extract And Move), a scored
/// opportunity dry-run by the engine; nothing when it falls through.
fn settle(project: &Project, p: Pending, clones: &Clones) -> Vec<Pending> {
    let (kind, method, target) = (p.kind, p.method, p.target.clone());
    let done = |score: f64, spec: Spec, reason: String, family: Option<u64>| {
        let o = Opportunity { kind, target: target.clone(), spec, score, reason, method, family };
        Pending { bound: score, target: target.clone(), method, kind, stage: Stage::Done(o) }
    };
    // Planned, then dry-run only if it can still make the list (the dry run is the costly part).
    let scored = |(spec, score, reason): (Spec, f64, String)| Pending {
        bound: round(score),
        target: target.clone(),
        method,
        kind: RefactoringKind::ExtractAndMoveMethod,
        stage: Stage::Scored { spec, reason },
    };
    match p.stage {
        Stage::Extract { with_move } => {
            let Some((best, repeat)) = fragment_of(project, method, clones) else { return Vec::new() };
            let mut out = Vec::new();
            if with_move && let Some(found) = extract_move_opportunity(project, method, best.clone(), repeat.as_ref()) {
                out.push(scored(found));
            }
            let family = repeat.as_ref().map(|r| r.family);
            if let Some((spec, score, reason)) = extract_opportunity(project, method, best, repeat) {
                out.push(done(round(score), spec, reason, family));
            }
            out
        }
        Stage::ExtractMove => fragment_of(project, method, clones)
            .and_then(|(best, repeat)| extract_move_opportunity(project, method, best, repeat.as_ref()))
            .map(scored)
            .into_iter()
            .collect(),
        Stage::Scored { spec, reason } => match engine::apply(project, method, &spec) {
            Ok(_) => vec![done(p.bound, spec, reason, None)],
            Err(_) => Vec::new(),
        },
        Stage::Done(_) => vec![p],
    }
}

/// The run of `m`'s statements to extract: its longest run written twice when the engine extracts
/// it (with that run), else the planner's best.
fn fragment_of(project: &Project, m: MethodId, clones: &Clones) -> Option<(extract::ExtractCandidate, Option<Run>)> {
    if let Some((c, run)) = clones::fragment(project, m, clones) {
        return Some((c, Some(run)));
    }
    let decl = project.method(m);
    extract::candidates(project.method_source(m), decl.name_span.start_byte, 1).into_iter().next().map(|c| (c, None))
}

/// `path:Outer.Inner#name(int,String)`.
pub fn target(project: &Project, m: MethodId) -> String {
    let decl = project.method(m);
    let path = project.method_source(m).path.display().to_string().replace('\\', "/");
    let name = if decl.is_constructor() { "<init>".to_string() } else { decl.name.clone() };
    format!("{path}:{}#{name}({})", project.type_decl(project.owner(m)).display, decl.erased_params().join(","))
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Lines of a method from which it starts to need an extraction, and from which it fully does.
const SHORT: f64 = 8.0;
const LONG: f64 = 40.0;

/// How much a method needs an extraction (0..1): by its length (`None` below [`SHORT`] lines),
/// or by its run written twice that is extracted ([`clones::need`]), whichever is more.
fn extract_need(project: &Project, m: MethodId, repeat: Option<&Run>) -> Option<f64> {
    let decl = project.method(m);
    // `equals` and `hashCode` are as long as the class has fields, one comparison or one hash
    // per field: their length is not complexity, and half of them in a method of its own
    // (`equalThat(that)`) reads no better.
    let params = decl.erased_params();
    if matches!((decl.name.as_str(), params.as_slice()), ("equals", [p]) if p == "Object")
        || (decl.name == "hashCode" && params.is_empty())
    {
        return None;
    }
    let body = decl.body?;
    let lines = (body.end_line - body.start_line).saturating_sub(1) as f64;
    let by_length = (lines >= SHORT).then(|| ((lines - SHORT) / (LONG - SHORT)).clamp(0.0, 1.0));
    let by_repeat = repeat.map(clones::need);
    by_length.into_iter().chain(by_repeat).reduce(f64::max)
}

/// What an extraction's fragment score is multiplied by, for a method of that need.
fn extract_weight(need: f64) -> f64 {
    0.35 + 0.65 * need
}

fn extract_opportunity(
    project: &Project,
    m: MethodId,
    best: extract::ExtractCandidate,
    repeat: Option<Run>,
) -> Option<(Spec, f64, String)> {
    let decl = project.method(m);
    let body = decl.body?;
    let lines = (body.end_line - body.start_line).saturating_sub(1) as f64;
    let need = extract_need(project, m, repeat.as_ref())?;
    let file = project.method_source(m);
    let mut spec = extract::spec_for(&file.path, decl.span.start_line, best.lines, &best.name);
    let score = best.score * extract_weight(need);
    if let Some(run) = repeat {
        spec.copies = run.copies.clone();
        let then = match run.copies.as_slice() {
            [] => "; the copy is left as it is (not the same statements, or out of the new method's reach)".to_string(),
            copies => {
                let at: Vec<String> = copies.iter().map(|(a, b)| format!("{a}-{b}")).collect();
                format!(" and call it in place of the copy (lines {})", at.join(", "))
            }
        };
        let reason = format!(
            "lines {}-{} of `{}` are written again in {}: extract them as `{}`{then}",
            best.lines.0,
            best.lines.1,
            decl.name,
            clones::place(project, m, &run),
            best.name
        );
        return Some((Spec::ExtractMethod(spec), score, reason));
    }
    let reason = format!(
        "`{}` is {} lines; lines {}-{} ({}) read {} and make a method of their own, `{}`",
        decl.name,
        lines as usize,
        best.lines.0,
        best.lines.1,
        best.shape,
        if best.params.is_empty() {
            "nothing of the rest".to_string()
        } else {
            format!("{} input(s)", best.params.len())
        },
        best.name
    );
    Some((Spec::ExtractMethod(spec), score, reason))
}

/// What an Extract And Move's score is weighed by against a plain extraction of the same need:
/// the fragment must also use another class more than its own, and the move is a second change.
const EXTRACT_MOVE_WEIGHT: f64 = 0.9;

/// Extract And Move: the planner's best fragment whose statements use one other class (through a
/// parameter, a field or by name) more than the members of their own, moved there.
fn extract_move_opportunity(
    project: &Project,
    m: MethodId,
    best: extract::ExtractCandidate,
    repeat: Option<&Run>,
) -> Option<(Spec, f64, String)> {
    let decl = project.method(m);
    let body = decl.body?;
    let lines = (body.end_line - body.start_line).saturating_sub(1);
    let need = extract_need(project, m, repeat)?;
    let flags = SpecFlags::default();
    let fragment = super::fragment(project, m, &flags, best);
    let best = super::extract_and_move_of(project, m, &flags, vec![fragment]).into_iter().next()?;
    let Spec::ExtractAndMoveMethod(spec) = &best.spec else { return None };
    // Each part's score is at most 1; the bound in `bounds` relies on it.
    let score = best.score?.clamp(0.0, 1.0) * extract_weight(need) * EXTRACT_MOVE_WEIGHT;
    let reason = format!(
        "`{}` is {} lines; lines {}-{} use {} more than their own class: extract them as `{}` and move it there",
        decl.name,
        lines,
        spec.extract.lines.0,
        spec.extract.lines.1,
        match &spec.move_to.to {
            Destination::Param(n) => format!("parameter `{n}`"),
            Destination::Field(n) => format!("field `{n}`"),
            Destination::Class(c) => format!("`{}`", c.rsplit('.').next().unwrap_or(c)),
        },
        spec.extract.name
    );
    Some((best.spec, score, reason))
}

fn move_opportunity(project: &Project, m: MethodId) -> Option<(Spec, f64, String)> {
    // A helper of the tests stays with the tests: moved into main code it would become API that
    // only tests call.
    let test_code = project.is_test_code(m.file());
    let keep = |d: &super::envy::DestinationScore| {
        !test_code || project.find_type(&d.class).is_none_or(|t| project.is_test_code(t.file()))
    };
    let envy = super::move_candidates_where(project, m, &SpecFlags::default(), None, None, &keep)
        .into_iter()
        .next()
        .and_then(|(c, _): (Candidate, _)| {
            let score = c.score? * 0.85;
            let name = &project.method(m).name;
            let reason = if c.components.iter().any(|k| k.name == "alike_methods") {
                format!("`{name}` belongs with the helpers like it: move it {}", c.summary)
            } else {
                format!("`{name}` uses another class more than its own: move it {}", c.summary)
            };
            Some((c.spec, score, reason))
        });
    envy.or_else(|| used_from_one_class(project, m))
}

/// A static method that only another class calls (a helper living in the wrong class): moved to
/// that class.
fn used_from_one_class(project: &Project, m: MethodId) -> Option<(Spec, f64, String)> {
    let decl = project.method(m);
    if !decl.is_static() || project.is_test_method(m) {
        return None;
    }
    let owner = project.owner(m);
    let callers = project.callers(m);
    let mut classes: Vec<TypeId> = callers.iter().map(|c| project.top_level_of(project.owner(c.method))).collect();
    classes.sort();
    classes.dedup();
    let [only] = classes.as_slice() else { return None };
    if *only == project.top_level_of(owner) || project.type_decl(*only).is_anonymous() {
        return None;
    }
    // Main code called only from a test stays main code: the test exercises it.
    if project.is_test_code(only.file()) && !project.is_test_code(owner.file()) {
        return None;
    }
    let fqn = project.qualified_name(*only);
    let spec = MoveSpec::new(Destination::Class(fqn.clone()));
    let reason = format!(
        "`{}` is called only from {} ({} call(s)), not from its own class: move it there",
        decl.name,
        project.type_decl(*only).display,
        callers.len()
    );
    Some((Spec::MoveMethod(spec), 0.6, reason))
}

fn inline_opportunity(project: &Project, m: MethodId) -> Option<(Spec, f64, String)> {
    let decl = project.method(m);
    // A public or protected method is API, and an override is called through its supertype:
    // neither is inlined on a guess (and finding their callers is the costly part).
    let api = decl.modifiers.iter().any(|x| x == "public" || x == "protected");
    if api || decl.annotated_override() || project.is_test_method(m) {
        return None;
    }
    let a = inline::assess(project, m).ok()?;
    if a.shape == "every caller" || a.callers == 0 {
        return None;
    }
    // A named condition or formula reads better than the expression it names.
    if a.shape == "delegator" && a.names_an_expression {
        return None;
    }
    let file = project.method_source(m).path.clone();
    let spec = SpecFlags::default().inline_spec(&file, decl.span.start_line, &decl.name);
    let reason = format!(
        "`{}` is a {} ({} statement(s), {} caller(s)): inline it where it is called",
        decl.name, a.shape, a.statements, a.callers
    );
    // Inlining into one caller is the clear case; each further caller copies the body again.
    let score = a.score * 0.8 / (a.callers as f64).sqrt();
    Some((Spec::InlineMethod(spec), score, reason))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// Settling best first and stopping early gives exactly the list that settling everything
    /// gives, for every length of list and with a floor, and settles fewer to find a short one.
    #[test]
    fn the_best_first_list_is_the_full_ranking_cut() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/projects/demo");
        let project = Project::open(&root).unwrap();
        let files: Vec<FileId> = project.file_ids().collect();
        let all = opportunities(&project, &files, &KINDS, usize::MAX, 0.0);
        assert!(all.best.len() >= 10, "{}", all.best.len());
        assert_eq!(all.ranked, all.best.len());
        let key = |o: &Opportunity| (o.target.clone(), o.kind, o.score);
        for limit in 0..=all.best.len() + 1 {
            let cut = opportunities(&project, &files, &KINDS, limit, 0.0);
            let expected: Vec<_> = all.best.iter().take(limit).map(key).collect();
            assert_eq!(cut.best.iter().map(key).collect::<Vec<_>>(), expected, "limit {limit}");
        }
        let floor = all.best[all.best.len() / 2].score;
        let cut = opportunities(&project, &files, &KINDS, 3, floor);
        let expected: Vec<_> = all.best.iter().filter(|o| o.score >= floor).take(3).map(key).collect();
        assert_eq!(cut.best.iter().map(key).collect::<Vec<_>>(), expected);
        assert!(opportunities(&project, &files, &KINDS, 1, 0.0).ranked < all.ranked);
    }

    /// Moves keep main code and test code apart: a test helper that uses a main class is not moved
    /// into it, nor main code that only a test calls into that test; the same moves within main
    /// code are suggested.
    #[test]
    fn a_move_suggestion_keeps_main_and_test_code_apart() {
        let dir = tempfile::tempdir().unwrap();
        let write = |rel: &str, code: &str| {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, code).unwrap();
        };
        write(
            "src/main/java/p/Format.java",
            "package p;\n\npublic class Format {\n    int a() { return 1; }\n    int b() { return 2; }\n    int c() { return 3; }\n    static Format valueOf(String s) { return new Format(); }\n}\n",
        );
        write(
            "src/main/java/p/Util.java",
            "package p;\n\nclass Util {\n    static int twice(int x) { return x * 2; }\n}\n",
        );
        let render = "    int total;\n    int render(Format f) { return f.a() + f.b() + f.c() + total; }\n";
        write(
            "src/main/java/p/Report.java",
            &format!("package p;\n\nclass Report {{\n{render}    int go() {{ return Util.twice(total); }}\n}}\n"),
        );
        write(
            "src/test/java/p/Helpers.java",
            "package p;\n\nclass Helpers {\n    int render(Format f) { return f.a() + f.b() + f.c(); }\n}\n",
        );
        write(
            "src/test/java/p/FormatTest.java",
            "package p;\n\nclass FormatTest {\n    Format make() { return Format.valueOf(\"x\"); }\n}\n",
        );
        let project = Project::open(dir.path()).unwrap();
        let files: Vec<FileId> = project.file_ids().collect();
        let found = opportunities(&project, &files, &[RefactoringKind::MoveMethod], usize::MAX, 0.0).best;
        let moved: Vec<String> = found
            .iter()
            .map(|o| {
                format!("{}#{}", project.type_decl(project.owner(o.method)).display, project.method(o.method).name)
            })
            .collect();
        assert!(moved.contains(&"Report#render".to_string()) && moved.contains(&"Util#twice".to_string()), "{moved:?}");
        assert!(!moved.iter().any(|m| m.starts_with("Helpers#") || m.starts_with("Format#")), "{moved:?}");
    }

    #[test]
    fn equals_and_hash_code_are_as_long_as_the_fields_are_many() {
        let body = "int x = 0;\n".repeat(12) + "return 0;";
        let code = format!(
            "class E {{ public boolean equals(Object o) {{\n{body} }} public int hashCode() {{\n{body} }} int equals(E e) {{\n{body} }} }}"
        );
        let (_d, p) = crate::java::project::tests::project(&[("E.java", code.as_str())]);
        let methods = p.methods_in(p.file_ids().next().unwrap()).unwrap();
        let needs: Vec<bool> = methods.iter().map(|&m| extract_need(&p, m, None).is_some()).collect();
        assert_eq!(needs, [false, false, true]);
    }

    /// Issue 18: lines written again in another method of the class (a nested class's included)
    /// make even a short method worth an extraction, of those lines, with the other method named;
    /// the same lines in an unrelated class are not a repeat one extracted method removes, and a
    /// short method without a repeat is no Extract Method opportunity.
    #[test]
    fn code_written_twice_is_extracted_where_it_is() {
        let lines = "    int count = items.size();\n    String first = items.isEmpty() ? \"\" : items.get(0);\n    \
                     System.out.println(\"first: \" + first);\n    System.out.println(\"count: \" + count);\n";
        let orders = format!(
            "package a;\nclass Orders {{\n  int open(java.util.List<String> items) {{\n{lines}    return count;\n  }}\n  \
             int close() {{\n    return 0;\n  }}\n  static class Line {{\n  void print(java.util.List<String> items) {{\n\
             {lines}  }}\n  }}\n}}\n"
        );
        let invoices =
            format!("package a;\nclass Invoices {{\n  void list(java.util.List<String> items) {{\n{lines}  }}\n}}\n");
        let (_d, p) =
            crate::java::project::tests::project(&[("a/Orders.java", &orders), ("a/Invoices.java", &invoices)]);
        let files: Vec<FileId> = p.file_ids().collect();
        let found = opportunities(&p, &files, &[RefactoringKind::ExtractMethod], usize::MAX, 0.0).best;
        let of = |name: &str| found.iter().find(|o| p.method(o.method).name == name);
        let open = of("open").expect("open is an opportunity");
        let Spec::ExtractMethod(spec) = &open.spec else { panic!("{open:?}") };
        assert_eq!(spec.lines, (4, 7), "{open:?}");
        assert!(open.reason.contains("written again in `Line#print`"), "{}", open.reason);
        // `print` is in a static nested class: it cannot call an instance method of `Orders`.
        assert!(open.reason.contains("the copy is left as it is"), "{}", open.reason);
        assert!(of("print").is_some_and(|o| o.reason.contains("`Orders#open`")), "{found:?}");
        assert!(of("close").is_none() && of("list").is_none(), "{found:?}");
    }
}
