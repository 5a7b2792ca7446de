//! Code wiring (WIRL's problem): lines pasted into a method name variables that do not exist
//! where they land, and each must be bound to the right element in scope.
//!
//! The pipeline follows WIRL's: a locator ([`locate`]: the names of the paste that nothing in
//! scope declares, and what each use needs of its value), collectors ([`collect`]: the
//! variables, fields, getters and chains in scope at the paste; whether each is used elsewhere;
//! what identical calls elsewhere in the file pass), and a choice ([`choose`]) that binds a name
//! only when one candidate stands clearly above the rest. A name without a clear winner is left
//! unbound with its best candidates, for the model (when one is configured, in the agent layer)
//! or the developer to decide; nothing is guessed silently.

pub mod choose;
pub mod collect;
mod jdk;
pub mod locate;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

use serde::Serialize;

use super::ChangeSet;
use super::edit::Edit;
use super::refusal::{Reason, Refusal};
use crate::engine::rename::resolve::Scopes;
use crate::java::project::{FileId, MethodId, Project};
pub use choose::{Fit, Scored};

/// How many candidates a report lists per name.
pub const LISTED: usize = 5;

/// Who chose a binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Chooser {
    /// The collected evidence alone.
    Evidence,
    /// The model, among the collected candidates.
    Model,
}

/// One unresolved name of the paste and what became of it.
#[derive(Debug, Clone, Serialize)]
pub struct Binding {
    pub name: String,
    /// The lines of its uses.
    pub lines: Vec<usize>,
    /// What its uses need, as a phrase: `List<Item>, .size()`.
    pub needs: String,
    /// The expression bound to it, if any.
    pub bound: Option<String>,
    pub chosen_by: Option<Chooser>,
    /// Why it is bound, or why not.
    pub reason: String,
    /// The best candidates considered, best first.
    pub candidates: Vec<Scored>,
    #[serde(skip)]
    uses: Vec<std::ops::Range<usize>>,
}

impl Binding {
    /// Binds the name to `expr`, one of its candidates, as the model chose.
    pub fn choose(&mut self, expr: &str, why: &str) -> bool {
        if !self.candidates.iter().any(|c| c.expr == expr) {
            return false;
        }
        self.bound = Some(expr.to_string());
        self.chosen_by = Some(Chooser::Model);
        self.reason = format!("the model chose it: {why}");
        true
    }
}

/// The wiring of one paste.
#[derive(Debug, Clone, Serialize)]
pub struct Wiring {
    pub file: PathBuf,
    pub start_line: usize,
    pub end_line: usize,
    /// The enclosing method, as `Class.method(params)` (the pasted methods, comma-separated, when
    /// the lines hold whole methods).
    pub method: String,
    pub bindings: Vec<Binding>,
    /// The file's first syntax error, if it has one: where the parser gave up, scopes and uses
    /// may be read wrongly (pasted code is often not finished).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax_error: Option<crate::java::SyntaxError>,
}

impl Wiring {
    /// The names left unbound.
    pub fn unbound(&self) -> impl Iterator<Item = &Binding> {
        self.bindings.iter().filter(|b| b.bound.is_none())
    }

    /// The paste with every bound name replaced by its binding.
    pub fn changes(&self, project: &Project, file: FileId) -> Result<ChangeSet, Refusal> {
        let f = project.file(file).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?;
        let mut changes = ChangeSet::new();
        let path = project.path(file).to_path_buf();
        for b in &self.bindings {
            let Some(expr) = &b.bound else { continue };
            for u in &b.uses {
                changes.edit(&path, &f.source.text, Edit::replace(u.clone(), expr.clone()));
            }
        }
        Ok(changes)
    }
}

/// Wires lines `start..=end` (1-based) of `file`: lines inside one method's body, or lines
/// holding whole methods.
pub fn wire(project: &Project, file: FileId, start: usize, end: usize) -> Result<Wiring, Refusal> {
    let f = project.file(file).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?;
    let source = &f.source;
    let lines = source.line_count();
    if start == 0 || start > end || end > lines {
        return Err(Refusal::new(
            Reason::InvalidLines,
            format!("lines {start}-{end} are not lines of {} (it has {lines})", project.path(file).display()),
        ));
    }
    let from = source.line_start(start).unwrap_or(0);
    let to = source.line_start(end + 1).unwrap_or(source.text.len());
    // The paste starts at its first code, not at the indentation before it.
    let from = from + source.text[from..to].len() - source.text[from..to].trim_start().len();
    let scopes = Scopes::of(project, file)
        .ok_or_else(|| Refusal::new(Reason::UnreadableFile, format!("cannot read {}", project.path(file).display())))?;
    let method = scopes.method_at(from).filter(|&m| {
        let body = project.method(m).body;
        body.is_some_and(|b| b.start_byte < from && to <= b.end_byte + 1)
    });
    // Lines inside one body are wired there; lines holding whole methods (a method pasted into a
    // class) are wired method by method, on each body.
    let pieces: Vec<(MethodId, std::ops::Range<usize>)> = match method {
        Some(m) => vec![(m, from..to)],
        None => whole_methods(project, &scopes, from, to),
    };
    if pieces.is_empty() {
        return Err(Refusal::new(
            Reason::LinesOutsideMethod,
            format!("lines {start}-{end} are neither inside the body of a method or constructor nor whole methods"),
        ));
    }
    let mut bindings = Vec::new();
    for (m, paste) in &pieces {
        bindings.extend(wire_range(project, file, &scopes, *m, paste.clone()));
    }
    let method = pieces.iter().map(|(m, _)| project.method_label(*m)).collect::<Vec<_>>().join(", ");
    Ok(Wiring {
        file: project.path(file).to_path_buf(),
        start_line: start,
        end_line: end,
        method,
        bindings,
        syntax_error: source.syntax_error(),
    })
}

/// The methods and constructors declared wholly within bytes `from..to` (not those nested in
/// another of them), each with the inside of its body.
fn whole_methods(
    project: &Project,
    scopes: &Scopes<'_>,
    from: usize,
    to: usize,
) -> Vec<(MethodId, std::ops::Range<usize>)> {
    let inside: Vec<MethodId> = scopes
        .methods
        .iter()
        .copied()
        .filter(|&m| {
            let d = project.method(m);
            d.body.is_some() && from <= d.span.start_byte && d.span.end_byte <= to
        })
        .collect();
    inside
        .iter()
        .copied()
        .filter(|&m| {
            let s = project.method(m).span;
            !inside.iter().any(|&o| {
                let os = project.method(o).span;
                o != m && os.start_byte <= s.start_byte && s.end_byte <= os.end_byte
            })
        })
        .filter_map(|m| project.method(m).body.map(|b| (m, b.start_byte + 1..b.end_byte.saturating_sub(1))))
        .collect()
}

/// The bindings of the names of `paste` (bytes inside the body of `method`).
fn wire_range(
    project: &Project,
    file: FileId,
    scopes: &Scopes<'_>,
    method: MethodId,
    paste: std::ops::Range<usize>,
) -> Vec<Binding> {
    let source = scopes.source;
    let from = paste.start;
    let names = locate::unresolved(scopes, method, paste.clone());
    let mut base = collect::candidates(scopes, from, paste.clone());
    let wanted: Vec<&str> = names.iter().map(|n| n.name.as_str()).collect();
    let mut chained = collect::chains(project, scopes, from, &base, &wanted);
    // A chain the method writes outside the paste (`ctx.getMode()` a few lines on) is one the
    // code reads: the method calls it.
    if let Some(body) = project.method(method).body {
        for c in chained.iter_mut().filter(|c| c.seen_at.is_none()) {
            c.seen_at =
                collect::written_outside(&source.text, body.range(), &paste, &c.expr).map(|b| source.line_of(b));
        }
    }
    chained.extend(collect::seen_calls(scopes, &base, &wanted, &paste));
    base.extend(chained);
    let scope = scopes.type_at(from).map(|t| scopes.types[t].index());
    let resolve = |t: &crate::java::symbols::TypeName| {
        if t.dims > 0 { None } else { project.resolve_type(file, scope, &t.raw) }
    };
    let mut scored: Vec<Vec<Scored>> = names
        .iter()
        .map(|n| {
            let identical = collect::identical_calls(scopes, n, &paste);
            let mut scored = choose::score(project, &resolve, n, &base, &identical);
            collect::merge_getters(scopes, from, &mut scored);
            let d = project.method(method);
            choose::named_by_accessor(&mut scored, &d.name, !d.params.is_empty());
            scored
        })
        .collect();
    let decisions = assign(&mut scored);
    names
        .into_iter()
        .zip(scored)
        .zip(decisions)
        .map(|((n, scored), decision)| {
            let (bound, reason) = match decision {
                Ok(note) => {
                    let best = &scored[0];
                    let field = best.expr.trim_start_matches("this.");
                    let own = matches!(best.source, collect::Source::Field | collect::Source::OuterField);
                    match own.then(|| collect::getter_read_instead(scopes, method, &paste, field)).flatten() {
                        Some(getter) => {
                            let why = format!("; the method reads `{field}` through `{getter}`");
                            (Some(getter), best.evidence.join("; ") + &why + &note)
                        }
                        None => (Some(best.expr.clone()), best.evidence.join("; ") + &note),
                    }
                }
                Err(why) => (None, why),
            };
            Binding {
                lines: n
                    .uses
                    .iter()
                    .map(|u| source.line_of(u.start))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect(),
                needs: choose::describe(&n.needs),
                chosen_by: bound.as_ref().map(|_| Chooser::Evidence),
                bound,
                reason,
                candidates: scored.into_iter().take(LISTED).collect(),
                name: n.name,
                uses: n.uses,
            }
        })
        .collect()
}

/// The decision for each name (`Ok`: its first candidate, with a note on the candidates other
/// names took from it), two names not bound to one candidate:
/// when two choose the same expression, the one with the higher score keeps it and the other
/// decides again without it; a name left undecided decides again without the candidates other
/// names are bound to (a call passes one argument per parameter, so a variable that clearly
/// stands for one name is rarely what another stands for).
fn assign(scored: &mut [Vec<Scored>]) -> Vec<Result<String, String>> {
    let mut decisions: Vec<Result<String, String>> =
        scored.iter().map(|s| choose::decide(s, 0).map(|()| String::new())).collect();
    let mut taken_fitting = vec![0; scored.len()];
    loop {
        let mut clash = None;
        'find: for i in 0..scored.len() {
            for j in i + 1..scored.len() {
                if decisions[i].is_ok() && decisions[j].is_ok() && scored[i][0].expr == scored[j][0].expr {
                    clash = Some(if scored[i][0].score >= scored[j][0].score { j } else { i });
                    break 'find;
                }
            }
        }
        if let Some(loser) = clash {
            let taken = scored[loser].remove(0);
            taken_fitting[loser] += usize::from(taken.fit >= Fit::Assignable);
            let note = format!(" (`{}` is bound to another name)", taken.expr);
            decisions[loser] = choose::decide(&scored[loser], taken_fitting[loser])
                .map(|()| note.clone())
                .map_err(|e| format!("{e}{note}"));
            continue;
        }
        // Without the candidates bound to other names, an undecided name may now be clear; if
        // not, it keeps its whole list (the report shows what it could have been).
        let bound: Vec<(usize, String)> =
            (0..scored.len()).filter(|&j| decisions[j].is_ok()).map(|j| (j, scored[j][0].expr.clone())).collect();
        let taken = |i: usize, c: &Scored| bound.iter().any(|(j, e)| *j != i && *e == c.expr);
        let freed = (0..scored.len())
            .filter(|&i| decisions[i].is_err() && scored[i].iter().any(|c| taken(i, c)))
            .find_map(|i| {
                let (gone, rest): (Vec<Scored>, Vec<Scored>) = scored[i].iter().cloned().partition(|c| taken(i, c));
                let fitting = gone.iter().filter(|c| c.fit >= Fit::Assignable).count();
                choose::decide(&rest, taken_fitting[i] + fitting).is_ok().then_some((i, gone, rest, fitting))
            });
        let Some((i, gone, rest, fitting)) = freed else { break };
        taken_fitting[i] += fitting;
        let gone: Vec<String> = gone.iter().map(|c| format!("`{}`", c.expr)).collect();
        scored[i] = rest;
        let verb = if gone.len() == 1 { "is bound to another name" } else { "are bound to other names" };
        decisions[i] = Ok(format!(" ({} {verb})", gone.join(", ")));
    }
    decisions
}
