//! The heuristic planner: fills in what the flags leave out of a spec, without a model.
//!
//! Each refactoring has its own evidence: [`extract`] ranks runs of statements (and [`naming`]
//! names them), [`envy`] finds the class a method uses most, [`inline`] checks the method is a
//! delegator or has a single caller. The planner never invents what it has no evidence for: a
//! rename needs `--name`. Its answer is a ranked list of [`Candidate`]s, each a complete [`Spec`]
//! with a score in 0..1 and the components behind it, so `--explain` can show its reasoning and the
//! command can fall back to the next candidate when the engine refuses one.

pub mod clones;
pub mod corename;
pub mod envy;
pub mod extract;
pub mod inline;
pub mod naming;
pub mod suggest;
mod trivial;

use serde::Serialize;

use crate::engine::spec::{ExtractAndMoveSpec, MoveAndInlineSpec, MoveAndRenameSpec};
use crate::engine::{Destination, MoveSpec, Spec, SpecFlags};
use crate::error::Classify;
use crate::exit::Exit;
use crate::java::{MethodId, Project};
use crate::refactoring::RefactoringKind;

/// One complete spec the planner proposes, with its reasons.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub spec: Spec,
    /// One line for people: `lines 38-44 as validateInvoice`.
    pub summary: String,
    /// 0..1; `None` when the user fixed everything that is scored (the planner only named it).
    pub score: Option<f64>,
    pub components: Vec<Component>,
}

/// A named part of a score, 0..1 unless the name says it is a count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Component {
    pub name: &'static str,
    pub value: f64,
}

fn components(parts: &[(&'static str, f64)]) -> Vec<Component> {
    parts.iter().map(|&(name, value)| Component { name, value }).collect()
}

/// Why the planner has nothing to propose.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("mantra does not invent names without a model; pass --name")]
    NeedsName,
    #[error("no {what} candidate for `{method}`: {why}")]
    NoCandidate { what: &'static str, method: String, why: String },
}

impl Classify for PlanError {
    fn exit(&self) -> Exit {
        match self {
            PlanError::NeedsName => Exit::Usage,
            PlanError::NoCandidate { .. } => Exit::Rejected,
        }
    }
    fn hint(&self) -> Option<String> {
        match self {
            PlanError::NeedsName => Some("e.g. `--name balanceDue`".into()),
            PlanError::NoCandidate { what, .. } => Some(match *what {
                "extract" => "pick the statements yourself with `--lines A-B`".into(),
                "inline" => "inline a delegator or a method with one caller instead".into(),
                _ => "choose the destination yourself with `--to param:NAME`, `--to field:NAME` or `--to class:FQN`"
                    .into(),
            }),
        }
    }
}

/// Up to `limit` candidates for `kind` on `method`, best first, keeping what `flags` fix.
pub fn candidates(
    project: &Project,
    method: MethodId,
    kind: RefactoringKind,
    flags: &SpecFlags,
    limit: usize,
) -> Result<Vec<Candidate>, PlanError> {
    let decl = project.method(method);
    let label = format!("{}.{}", project.type_decl(project.owner(method)).display, decl.name);
    let none = |what: &'static str, why: &str| PlanError::NoCandidate { what, method: label.clone(), why: why.into() };
    let out = match kind {
        RefactoringKind::ExtractMethod => {
            let found = extract_candidates(project, method, flags, limit);
            found.into_iter().map(|(c, e)| Candidate { spec: Spec::ExtractMethod(e), ..c }).collect()
        }
        RefactoringKind::MoveMethod => move_candidates(project, method, flags, None, None)
            .into_iter()
            .map(|(c, m)| Candidate { spec: Spec::MoveMethod(m), ..c })
            .collect(),
        RefactoringKind::RenameMethod => return Err(PlanError::NeedsName),
        RefactoringKind::InlineMethod if flags.at.is_some() => {
            let file = project.method_source(method).path.clone();
            let spec = flags.inline_spec(&file, decl.span.start_line, &decl.name);
            vec![Candidate {
                spec: Spec::InlineMethod(spec),
                summary: format!("inline {} at the call the user chose", decl.name),
                score: None,
                components: Vec::new(),
            }]
        }
        RefactoringKind::InlineMethod => {
            let a = inline::assess(project, method).map_err(|why| none("inline", &why))?;
            let file = project.method_source(method).path.clone();
            let spec = flags.inline_spec(&file, decl.span.start_line, &decl.name);
            vec![Candidate {
                spec: Spec::InlineMethod(spec),
                summary: if a.shape == "every caller" {
                    format!(
                        "inline {} at all {} call sites: this copies its {} statements into each of them",
                        decl.name, a.callers, a.statements
                    )
                } else {
                    format!(
                        "inline {} ({}; {} statement(s), {} caller(s))",
                        decl.name, a.shape, a.statements, a.callers
                    )
                },
                score: Some(a.score),
                components: components(&[("statements", a.statements as f64), ("callers", a.callers as f64)]),
            }]
        }
        RefactoringKind::ExtractAndMoveMethod => extract_and_move(project, method, flags, limit.max(5)),
        RefactoringKind::MoveAndRenameMethod => {
            let name = flags.name.clone().ok_or(PlanError::NeedsName)?;
            move_candidates(project, method, flags, None, None)
                .into_iter()
                .map(|(c, m)| Candidate {
                    spec: Spec::MoveAndRenameMethod(MoveAndRenameSpec { move_to: m, new_name: name.clone() }),
                    summary: format!("move {} and rename to {name}", c.summary),
                    ..c
                })
                .collect()
        }
        RefactoringKind::MoveAndInlineMethod => {
            let to = match &flags.to {
                Some(to) => to.clone(),
                None => caller_destination(project, method).ok_or_else(|| none("move", "it has no callers"))?,
            };
            let summary = format!("move {} to {to}, then inline it into its callers", decl.name);
            vec![Candidate {
                spec: Spec::MoveAndInlineMethod(MoveAndInlineSpec { to, at: flags.at.clone() }),
                summary,
                score: None,
                components: Vec::new(),
            }]
        }
    };
    if out.is_empty() {
        let why = match kind {
            RefactoringKind::ExtractMethod => "no run of its statements can be extracted as it stands",
            // The destination was given: what failed is the extraction.
            RefactoringKind::ExtractAndMoveMethod if flags.to.is_some() => {
                "no run of its statements can be extracted as it stands"
            }
            RefactoringKind::ExtractAndMoveMethod if project.is_test_code(method.file()) => {
                "no extractable run of its statements uses a class of the test code (a helper taken out of a test goes only there) more than its own class"
            }
            RefactoringKind::ExtractAndMoveMethod => {
                "no extractable run of its statements uses a parameter or field whose type is a project class"
            }
            _ if decl.is_static() => "it uses no other project class",
            _ if project.is_test_method(method) => {
                "no test class of a class it exercises (`FooTest` for `Foo`) is used more than its own class's members"
            }
            _ => "it uses no other project class (through a parameter, a field or by name) more than its own class",
        };
        let what = if kind == RefactoringKind::ExtractMethod { "extract" } else { "move" };
        return Err(none(what, why));
    }
    Ok(out.into_iter().take(limit).collect())
}

/// Extract And Move: each of the planner's first `fragments` runs (and the whole body, leaving a
/// delegate) that uses another class more than its own, moved there; best first.
fn extract_and_move(project: &Project, method: MethodId, flags: &SpecFlags, fragments: usize) -> Vec<Candidate> {
    extract_and_move_of(project, method, flags, extract_candidates(project, method, flags, fragments))
}

/// Extract And Move over runs already planned (the whole body added).
pub fn extract_and_move_of(
    project: &Project,
    method: MethodId,
    flags: &SpecFlags,
    mut fragments: Vec<(Candidate, crate::engine::ExtractSpec)>,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    // Cheap first: without the parameters the extracted method would take, every channel counts,
    // so no envied class here means none with them either.
    if flags.to.is_none() {
        fragments.retain(|(_, e)| may_envy(project, method, Some(e.lines)));
    }
    // The whole body, checked the same way by `whole_body_candidate` before the engine plans it.
    if flags.lines.is_none()
        && let Some(whole) = whole_body_candidate(project, method, flags)
        && !fragments.iter().any(|(_, e)| e.lines == whole.1.lines)
    {
        fragments.push(whole);
    }
    for (c, extract) in fragments {
        let fragment_params = fragment_params(project, method, &extract);
        let moves = move_candidates(project, method, flags, Some(extract.lines), Some(&fragment_params));
        if let Some((m, mv)) = moves.into_iter().next() {
            let mut parts = c.components.clone();
            parts.extend(m.components.iter().cloned());
            let score = match (c.score, m.score) {
                (Some(a), Some(b)) => Some(((a + b) / 2.0 * 100.0).round() / 100.0),
                (a, b) => a.or(b),
            };
            out.push(Candidate {
                spec: Spec::ExtractAndMoveMethod(ExtractAndMoveSpec { extract, move_to: mv }),
                summary: format!("{}, then move {}", c.summary, m.summary),
                score,
                components: parts,
            });
        }
    }
    out.sort_by(|a, b| b.score.unwrap_or(1.0).total_cmp(&a.score.unwrap_or(1.0)));
    out
}

fn extract_candidates(
    project: &Project,
    method: MethodId,
    flags: &SpecFlags,
    limit: usize,
) -> Vec<(Candidate, crate::engine::ExtractSpec)> {
    let decl = project.method(method);
    let file = project.method_source(method);
    let at = decl.name_span.start_byte;
    let line = decl.span.start_line;
    if let Some(lines) = flags.lines {
        let name = flags.name.clone().unwrap_or_else(|| extract::name_for_lines(file, at, lines));
        let spec = extract::spec_for(&file.path, line, lines, &name);
        let c = Candidate {
            spec: Spec::ExtractMethod(spec.clone()),
            summary: format!("extract lines {}-{} as {name}", lines.0, lines.1),
            score: None,
            components: Vec::new(),
        };
        return vec![(c, spec)];
    }
    extract::candidates(file, at, limit).into_iter().map(|e| fragment(project, method, flags, e)).collect()
}

/// One of the planner's runs as an Extract Method candidate and its spec.
pub fn fragment(
    project: &Project,
    method: MethodId,
    flags: &SpecFlags,
    e: extract::ExtractCandidate,
) -> (Candidate, crate::engine::ExtractSpec) {
    let file = project.method_source(method);
    let name = flags.name.clone().unwrap_or(e.name);
    let spec = extract::spec_for(&file.path, project.method(method).span.start_line, e.lines, &name);
    let c = Candidate {
        spec: Spec::ExtractMethod(spec.clone()),
        summary: format!("extract lines {}-{} as {name} ({})", e.lines.0, e.lines.1, e.shape),
        score: Some(e.score),
        components: components(&e.components),
    };
    (c, spec)
}

/// When an extraction named like an overload of its source method clashes with it (same name,
/// same parameter types), the developer's usual way out: pass in what the statements read through
/// one of the method's parameters (`r.rows()` for `render(Report r, ...)`). The calls on the
/// method's parameters inside the lines, most used first, one per alternative spec.
pub fn parameterised_alternatives(
    project: &Project,
    method: MethodId,
    spec: &crate::engine::ExtractSpec,
) -> Vec<crate::engine::ExtractSpec> {
    let decl = project.method(method);
    let source = project.method_source(method);
    let (a, b) = spec.lines;
    let mut counts: Vec<(String, usize)> = Vec::new();
    for site in &decl.calls {
        let crate::java::symbols::Receiver::Name(receiver) = &site.receiver else { continue };
        if site.span.start_line < a || site.span.end_line > b || !decl.params.iter().any(|p| p.name == *receiver) {
            continue;
        }
        let text: String = source.slice(&site.span).split_whitespace().collect::<Vec<_>>().join(" ");
        match counts.iter_mut().find(|(t, _)| *t == text) {
            Some((_, n)) => *n += 1,
            None => counts.push((text, 1)),
        }
    }
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    counts
        .into_iter()
        .take(3)
        .map(|(expr, _)| crate::engine::ExtractSpec { params: vec![expr], ..spec.clone() })
        .collect()
}

/// Extract And Move's last candidate: the whole body, leaving the method as a delegate. Scored
/// zero, so it comes after every smaller run.
fn whole_body_candidate(
    project: &Project,
    method: MethodId,
    flags: &SpecFlags,
) -> Option<(Candidate, crate::engine::ExtractSpec)> {
    let decl = project.method(method);
    let file = project.method_source(method);
    let at = decl.name_span.start_byte;
    let lines = extract::whole_body(file, at)?;
    if flags.to.is_none() && !may_envy(project, method, Some(lines)) {
        return None;
    }
    let name = flags.name.clone().unwrap_or_else(|| extract::name_for_lines(file, at, lines));
    let spec = extract::spec_for(&file.path, decl.span.start_line, lines, &name);
    crate::engine::compound::extraction_to_move(project, method, &spec).ok()?;
    let c = Candidate {
        spec: Spec::ExtractMethod(spec.clone()),
        summary: format!("extract the whole body (lines {}-{}) as {name}, leaving a delegate", lines.0, lines.1),
        score: Some(0.0),
        components: Vec::new(),
    };
    Some((c, spec))
}

/// Whether code of `method` (on `lines`, or all of it) uses some other class more than its own,
/// over every channel: a necessary condition for a feature-envy move of it.
pub fn may_envy(project: &Project, method: MethodId, lines: Option<(usize, usize)>) -> bool {
    envy::destinations(project, method, lines, None).iter().any(|d| d.uses > d.own_uses)
}

/// The parameters the extracted method of `spec` would take (from the engine's own signature).
fn fragment_params(project: &Project, method: MethodId, spec: &crate::engine::ExtractSpec) -> Vec<String> {
    // As Extract And Move extracts it: a name the source class has is free in the destination.
    let Ok((_, done, _)) = crate::engine::compound::extraction_to_move(project, method, spec) else {
        return Vec::new();
    };
    let inside = done.signature.rsplit_once('(').map(|(_, p)| p).unwrap_or("");
    let inside = inside.split(')').next().unwrap_or("");
    inside.split(',').filter_map(|p| p.split_whitespace().last().map(str::to_string)).collect()
}

fn move_candidates(
    project: &Project,
    method: MethodId,
    flags: &SpecFlags,
    lines: Option<(usize, usize)>,
    params: Option<&[String]>,
) -> Vec<(Candidate, MoveSpec)> {
    move_candidates_where(project, method, flags, lines, params, &|_| true)
}

/// [`move_candidates`] among the destinations `keep` accepts (the user's `--to` is always kept).
fn move_candidates_where(
    project: &Project,
    method: MethodId,
    flags: &SpecFlags,
    lines: Option<(usize, usize)>,
    params: Option<&[String]>,
    keep: &dyn Fn(&envy::DestinationScore) -> bool,
) -> Vec<(Candidate, MoveSpec)> {
    if let Some(to) = &flags.to {
        let spec = MoveSpec {
            to: to.clone(),
            keep_delegate: flags.keep_delegate,
            with_helpers: flags.with_helpers,
            also: flags.methods.clone(),
            widen_public: flags.widen_public,
            as_mode: flags.as_mode,
            moving_with: Vec::new(),
        };
        let c = Candidate {
            spec: Spec::MoveMethod(spec.clone()),
            summary: format!("to {to}"),
            score: None,
            components: Vec::new(),
        };
        return vec![(c, spec)];
    }
    envy::destinations(project, method, lines, params)
        .into_iter()
        .filter(|d| d.uses > d.own_uses && keep(d))
        .map(|d| {
            let spec = MoveSpec {
                to: d.to.clone(),
                keep_delegate: flags.keep_delegate,
                with_helpers: flags.with_helpers,
                also: flags.methods.clone(),
                widen_public: flags.widen_public,
                as_mode: flags.as_mode,
                moving_with: Vec::new(),
            };
            let c = Candidate {
                spec: Spec::MoveMethod(spec.clone()),
                summary: match &d.why {
                    Some(why) => format!("to {} ({why})", d.to),
                    None => format!("to {} ({}: {} uses, {} of its own class)", d.to, d.class, d.uses, d.own_uses),
                },
                score: Some(d.score),
                components: match d.why {
                    Some(_) => components(&[("alike_methods", d.uses as f64)]),
                    None => components(&[("uses", d.uses as f64), ("own_uses", d.own_uses as f64)]),
                },
            };
            (c, spec)
        })
        .collect()
}

/// Move And Inline: the class of the method's callers, reached through a parameter or field of
/// that type when there is one, else by name.
fn caller_destination(project: &Project, method: MethodId) -> Option<Destination> {
    let callers = project.callers(method);
    let mut counts: Vec<(crate::java::TypeId, usize)> = Vec::new();
    for c in &callers {
        let t = project.owner(c.method);
        match counts.iter_mut().find(|(x, _)| *x == t) {
            Some((_, n)) => *n += 1,
            None => counts.push((t, 1)),
        }
    }
    let (target, _) = counts.into_iter().max_by_key(|(_, n)| *n)?;
    let decl = project.method(method);
    let owner = project.owner(method);
    let resolves_to = |raw: &str| project.resolve_type(method.file(), Some(owner.index()), raw) == Some(target);
    if !decl.is_static() {
        if let Some(p) = decl.params.iter().find(|p| p.ty.dims == 0 && resolves_to(&p.ty.raw)) {
            return Some(Destination::Param(p.name.clone()));
        }
        if let Some(f) =
            project.type_decl(owner).fields.iter().find(|f| !f.is_static() && f.ty.dims == 0 && resolves_to(&f.ty.raw))
        {
            return Some(Destination::Field(f.name.clone()));
        }
    }
    Some(Destination::Class(project.qualified_name(target)))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::java::project::tests::project;

    /// Issue 15: a one-statement getter's body moves to another class and the getter stays as its
    /// delegate, the shape developers use to keep an old entry point; the whole body is never an
    /// Extract Method candidate on its own, and comes after every smaller run.
    #[test]
    fn extract_and_move_may_take_the_whole_body_leaving_a_delegate() {
        let panel = "package a;\n\npublic class Panel {\n    int zoom = 2;\n\n    public int getZoom() {\n        return this.zoom;\n    }\n}\n";
        let (_d, p) = project(&[("src/main/java/a/Panel.java", panel)]);
        let fid = p.file_id(Path::new("src/main/java/a/Panel.java")).unwrap();
        let getter = p.methods_in(fid).unwrap()[0];
        let flags = SpecFlags {
            name: Some("getZoom".into()),
            to: Some(Destination::Class("a.ZoomStrategy".into())),
            ..SpecFlags::default()
        };
        let found = candidates(&p, getter, RefactoringKind::ExtractAndMoveMethod, &flags, 5).unwrap();
        let Spec::ExtractAndMoveMethod(spec) = &found[0].spec else { panic!("{found:#?}") };
        assert_eq!((spec.extract.lines, spec.extract.name.as_str()), ((7, 7), "getZoom"));
        assert!(found[0].summary.contains("leaving a delegate"), "{}", found[0].summary);
        // The engine takes it: the name the source method has is free in the new class.
        let done = crate::engine::apply(&p, getter, &found[0].spec).unwrap();
        let diff = done.unified_diff(crate::style::Style::PLAIN).unwrap();
        assert!(diff.contains("+        return ZoomStrategy.getZoom(this);"), "{diff}");

        let err = candidates(&p, getter, RefactoringKind::ExtractMethod, &SpecFlags::default(), 5).unwrap_err();
        assert!(err.to_string().contains("no run of its statements can be extracted"), "{err}");
    }
}
