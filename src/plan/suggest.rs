//! What is worth refactoring across a set of files: every method's best Extract, Move and Inline
//! Method candidate from the planner, weighed by how much the method needs it, dry-run by the
//! engine, ranked on one scale.
//!
//! The planner's scores say which refactoring of one method is best; an opportunity's score also
//! says whether the method needs one at all:
//! - **Extract Method**: the best fragment's score, times the method's need, which grows with its
//!   length from 8 lines (full at 40); the planner never proposes a fragment that is a single
//!   call (`return createX();`): extracting it makes a delegator, not a refactoring;
//! - **Move Method**: the feature-envy score of the best destination (it uses that class more
//!   than its own); else, for a static method called only from one other class, that class;
//! - **Inline Method**: the delegator or single-caller score, for methods that are not API
//!   (public, protected) and override nothing.
//!
//! Only opportunities the engine applies are kept.

use serde::Serialize;

use super::{Candidate, extract, inline};
use crate::engine::{self, AsMode, Destination, MoveSpec, Spec, SpecFlags};
use crate::java::{FileId, MethodId, Project, TypeId};
use crate::refactoring::RefactoringKind;

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
}

/// The kinds `suggest` looks for.
pub const KINDS: [RefactoringKind; 3] =
    [RefactoringKind::ExtractMethod, RefactoringKind::MoveMethod, RefactoringKind::InlineMethod];

/// The opportunities of `files`, best first.
pub fn opportunities(project: &Project, files: &[FileId], kinds: &[RefactoringKind]) -> Vec<Opportunity> {
    use rayon::prelude::*;
    let mut out: Vec<Opportunity> = files
        .par_iter()
        .flat_map_iter(|&f| {
            let methods = project.methods_in(f).unwrap_or_default();
            methods.into_iter().flat_map(|m| of_method(project, m, kinds)).collect::<Vec<_>>()
        })
        .collect();
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.target.cmp(&b.target)));
    spread(project, &mut out);
    out
}

/// Each further opportunity of one class and one type weighs less (×0.85 per rank): ten
/// extractions from the long methods of one test class are one piece of advice, not ten.
fn spread(project: &Project, out: &mut [Opportunity]) {
    let mut seen: std::collections::HashMap<(TypeId, RefactoringKind), i32> = std::collections::HashMap::new();
    for o in out.iter_mut() {
        let n = seen.entry((project.owner(o.method), o.kind)).or_default();
        o.score = round(o.score * SPREAD.powi(*n));
        *n += 1;
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.target.cmp(&b.target)));
}

/// See [`spread`].
const SPREAD: f64 = 0.85;

/// The opportunities of one method, one per kind at most.
pub fn of_method(project: &Project, m: MethodId, kinds: &[RefactoringKind]) -> Vec<Opportunity> {
    let decl = project.method(m);
    let owner = project.type_decl(project.owner(m));
    if decl.body.is_none() || owner.is_anonymous() || owner.local {
        return Vec::new();
    }
    let mut out = Vec::new();
    for &kind in kinds {
        let found = match kind {
            RefactoringKind::ExtractMethod => extract_opportunity(project, m),
            RefactoringKind::MoveMethod if !decl.is_constructor() => move_opportunity(project, m),
            RefactoringKind::InlineMethod if !decl.is_constructor() => inline_opportunity(project, m),
            _ => None,
        };
        // The extraction planner keeps only what the engine applies; the others are dry-run here.
        if let Some((spec, score, reason)) = found
            && (kind == RefactoringKind::ExtractMethod || engine::apply(project, m, &spec).is_ok())
        {
            out.push(Opportunity { kind, target: target(project, m), spec, score: round(score), reason, method: m });
        }
    }
    out
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

fn extract_opportunity(project: &Project, m: MethodId) -> Option<(Spec, f64, String)> {
    let decl = project.method(m);
    let body = decl.body?;
    let lines = (body.end_line - body.start_line).saturating_sub(1) as f64;
    if lines < SHORT {
        return None;
    }
    let need = ((lines - SHORT) / (LONG - SHORT)).clamp(0.0, 1.0);
    let file = project.method_source(m);
    let found = extract::candidates(file, decl.name_span.start_byte, 1);
    let best = found.into_iter().next()?;
    let spec = extract::spec_for(&file.path, decl.span.start_line, best.lines, &best.name);
    let score = best.score * (0.35 + 0.65 * need);
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

fn move_opportunity(project: &Project, m: MethodId) -> Option<(Spec, f64, String)> {
    let envy = super::move_candidates(project, m, &SpecFlags::default(), None, None).into_iter().next().and_then(
        |(c, _): (Candidate, _)| {
            let score = c.score? * 0.85;
            let reason =
                format!("`{}` uses another class more than its own: move it {}", project.method(m).name, c.summary);
            Some((c.spec, score, reason))
        },
    );
    envy.or_else(|| used_from_one_class(project, m))
}

/// A static method that only another class calls (a helper living in the wrong class): moved to
/// that class.
fn used_from_one_class(project: &Project, m: MethodId) -> Option<(Spec, f64, String)> {
    let decl = project.method(m);
    if !decl.is_static() || decl.is_test() {
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
    let fqn = project.qualified_name(*only);
    let spec = MoveSpec {
        to: Destination::Class(fqn.clone()),
        keep_delegate: false,
        with_helpers: false,
        also: Vec::new(),
        widen_public: false,
        as_mode: AsMode::Auto,
    };
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
    if api || decl.annotations.iter().any(|a| a.trim_start_matches('@') == "Override") || decl.is_test() {
        return None;
    }
    let a = inline::assess(project, m).ok()?;
    if a.shape == "every caller" || a.callers == 0 {
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
