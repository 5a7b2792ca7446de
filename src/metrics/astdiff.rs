//! AST-diff precision and recall: how much of the developer's edit our edit reproduces, and how
//! much of ours the developer also made, in the spirit of MANTRA's evaluation (which compared
//! RefactoringMiner's statement mappings of the two changes to the same `before`).
//!
//! Each change (`before` → `after`) is turned into a multiset of **edit actions** over the
//! detector's statements ([`crate::detect::model`]: a leaf statement, or the header of a composite
//! such as `if (c)` or `for (...)`, as normalised tokens without comments, layout or `this.`).
//! Methods pair up by class and signature, then by class and name (a changed parameter list keeps
//! the method), and actions name them `package.Class#name`: an extracted method whose parameters
//! come in another order is the same edit. Only methods whose statements differ take part. An action is one of:
//!
//! - `add_method` / `remove_method`: a method that exists on one side only;
//! - `move`: a statement found verbatim in a *different* method after (what an extraction, an
//!   inlining or a move does to the statements it carries);
//! - `update`: a statement mapped to a changed one (same kind, and the same computation, `return e`
//!   ↔ `T v = e`, or at least 75% token similarity), with both texts and both methods;
//! - `insert` / `delete`: a statement of the after or before side left unmapped.
//!
//! Statements that stay verbatim in the same method are mapped first and make no action, so
//! reordering inside a method is not an edit. Mapping is greedy and deterministic: verbatim in the
//! same method, verbatim elsewhere, same computation, then most similar first.
//!
//! precision = |ours ∩ human| / |ours| and recall = |ours ∩ human| / |human|, intersecting the
//! multisets. When a side has no action the ratio over it is 1.0 if the other side has none either
//! (two no-ops agree), and 0.0 otherwise: a no-op change has precision and recall 0 against a real
//! one.
//!
//! Snapshots may hold only the files a change touched: a path of `before` missing from `human` or
//! `ours` is taken as unchanged there (so a deleted file cannot be expressed).

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::detect::Snapshot;
use crate::detect::model::{Side, Stmt};
use crate::detect::similarity::token_similarity;

/// How similar two statements must be to count as one updated statement.
const FUZZY: f64 = 0.75;

/// The file sets compared: repository-relative path → text.
pub type Files = Snapshot;

/// One edit action (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    AddMethod { method: String },
    RemoveMethod { method: String },
    Move { from: String, to: String, statement: String },
    Update { from: String, to: String, before: String, after: String },
    Insert { method: String, statement: String },
    Delete { method: String, statement: String },
}

/// AST-diff precision and recall of our change against the developer's.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AstDiff {
    pub precision: f64,
    pub recall: f64,
    /// Actions of the developer's change.
    pub human_actions: usize,
    /// Actions of our change.
    pub our_actions: usize,
    /// Actions both made.
    pub common: usize,
}

/// Compares the edit `before` → `ours` with the edit `before` → `human`.
pub fn ast_diff(before: &Files, human: &Files, ours: &Files) -> AstDiff {
    let (human_actions, our_actions) = both_edits(before, human, ours);
    score(&human_actions, &our_actions)
}

/// The two edits' actions (the developer's, ours), for reports that show them.
pub fn both_edits(before: &Files, human: &Files, ours: &Files) -> (Vec<Action>, Vec<Action>) {
    // Only files some change touched can hold an action.
    let touched: Vec<&String> = human
        .files
        .keys()
        .chain(ours.files.keys())
        .filter(|p| {
            let b = before.files.get(*p);
            human.files.get(*p).is_some_and(|t| Some(t) != b) || ours.files.get(*p).is_some_and(|t| Some(t) != b)
        })
        .collect();
    let restrict = |side: &Files, fallback: bool| -> Snapshot {
        let mut s = Snapshot::new();
        for p in &touched {
            let text = side.files.get(*p).or(if fallback { before.files.get(*p) } else { None });
            if let Some(t) = text {
                s.files.insert((*p).clone(), t.clone());
            }
        }
        s
    };
    let b = Side::build(&restrict(before, false));
    let h = Side::build(&restrict(human, true));
    let o = Side::build(&restrict(ours, true));
    (edit_actions(&b, &h), edit_actions(&b, &o))
}

/// Precision and recall of two multisets of actions.
pub fn score(human: &[Action], ours: &[Action]) -> AstDiff {
    let mut bag: BTreeMap<&Action, usize> = BTreeMap::new();
    for a in human {
        *bag.entry(a).or_default() += 1;
    }
    let mut common = 0;
    for a in ours {
        if let Some(n) = bag.get_mut(a).filter(|n| **n > 0) {
            *n -= 1;
            common += 1;
        }
    }
    let ratio = |over: usize, other: usize| match (over, other) {
        (0, 0) => 1.0,
        (0, _) => 0.0,
        _ => common as f64 / over as f64,
    };
    AstDiff {
        precision: ratio(ours.len(), human.len()),
        recall: ratio(human.len(), ours.len()),
        human_actions: human.len(),
        our_actions: ours.len(),
        common,
    }
}

/// A statement waiting to be mapped: its method's name and the statement.
struct Pending<'s> {
    method: &'s str,
    stmt: &'s Stmt,
}

/// The actions that turn `before` into `after` (see the module docs).
pub fn edit_actions(before: &Side, after: &Side) -> Vec<Action> {
    // Methods pair by signature, then the rest by name (a signature change keeps the method);
    // actions name them without parameter types, so a parameter order is not a different edit.
    let names = |side: &Side| -> Vec<(String, String)> {
        side.methods
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let class = &side.class_of(i).name;
                (format!("{class}#{}", m.key), format!("{class}#{}", m.name))
            })
            .collect()
    };
    let (b_names, a_names) = (names(before), names(after));
    let mut twin: Vec<Option<usize>> = vec![None; before.methods.len()];
    let mut a_matched = vec![false; after.methods.len()];
    for by_name in [false, true] {
        let key = |n: &(String, String)| if by_name { n.1.clone() } else { n.0.clone() };
        let mut free: HashMap<String, Vec<usize>> = HashMap::new();
        for (ai, n) in a_names.iter().enumerate().filter(|(ai, _)| !a_matched[*ai]) {
            free.entry(key(n)).or_default().push(ai);
        }
        for (bi, n) in b_names.iter().enumerate() {
            if twin[bi].is_some() {
                continue;
            }
            if let Some(ai) = free.get_mut(&key(n)).and_then(|v| (!v.is_empty()).then(|| v.remove(0))) {
                twin[bi] = Some(ai);
                a_matched[ai] = true;
            }
        }
    }
    let mut actions = Vec::new();
    let (mut left, mut right): (Vec<Pending<'_>>, Vec<Pending<'_>>) = (Vec::new(), Vec::new());
    for (bi, bm) in before.methods.iter().enumerate() {
        let name = b_names[bi].1.as_str();
        let Some(ai) = twin[bi] else {
            actions.push(Action::RemoveMethod { method: name.to_string() });
            left.extend(bm.stmts.iter().map(|stmt| Pending { method: name, stmt }));
            continue;
        };
        let am = &after.methods[ai];
        if bm.stmts.iter().map(|s| &s.text).eq(am.stmts.iter().map(|s| &s.text)) {
            continue;
        }
        // Verbatim in the same method: no action, wherever it moved within the method.
        let mut pool: HashMap<&str, usize> = HashMap::new();
        for s in &bm.stmts {
            *pool.entry(s.text.as_str()).or_default() += 1;
        }
        let mut kept: HashMap<&str, usize> = HashMap::new();
        for s in &am.stmts {
            match pool.get_mut(s.text.as_str()).filter(|n| **n > 0) {
                Some(n) => {
                    *n -= 1;
                    *kept.entry(s.text.as_str()).or_default() += 1;
                }
                None => right.push(Pending { method: &a_names[ai].1, stmt: s }),
            }
        }
        for s in &bm.stmts {
            match kept.get_mut(s.text.as_str()).filter(|n| **n > 0) {
                Some(n) => *n -= 1,
                None => left.push(Pending { method: name, stmt: s }),
            }
        }
    }
    for (ai, am) in after.methods.iter().enumerate() {
        if !a_matched[ai] {
            actions.push(Action::AddMethod { method: a_names[ai].1.clone() });
            right.extend(am.stmts.iter().map(|stmt| Pending { method: &a_names[ai].1, stmt }));
        }
    }
    map_statements(&left, &right, &mut actions);
    actions.sort();
    actions
}

/// Maps the unmapped statements of both sides: verbatim elsewhere (move), then same computation,
/// then most similar (update); the rest are deletions and insertions.
fn map_statements(left: &[Pending<'_>], right: &[Pending<'_>], actions: &mut Vec<Action>) {
    let (mut l_done, mut r_done) = (vec![false; left.len()], vec![false; right.len()]);
    let mut by_text: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, r) in right.iter().enumerate() {
        by_text.entry(r.stmt.text.as_str()).or_default().push(j);
    }
    for (i, l) in left.iter().enumerate() {
        let Some(js) = by_text.get(l.stmt.text.as_str()) else { continue };
        // Prefer a different method (a carried statement) over the same one.
        let pick = js.iter().copied().filter(|&j| !r_done[j]).min_by_key(|&j| right[j].method == l.method);
        if let Some(j) = pick {
            (l_done[i], r_done[j]) = (true, true);
            actions.push(Action::Move {
                from: l.method.to_string(),
                to: right[j].method.to_string(),
                statement: l.stmt.text.clone(),
            });
        }
    }
    let update = |l: &Pending<'_>, r: &Pending<'_>| Action::Update {
        from: l.method.to_string(),
        to: r.method.to_string(),
        before: l.stmt.text.clone(),
        after: r.stmt.text.clone(),
    };
    for (i, l) in left.iter().enumerate() {
        let Some(core) = l.stmt.core.as_deref().filter(|c| !l_done[i] && c.contains(' ')) else { continue };
        let pick = (0..right.len())
            .filter(|&j| !r_done[j] && right[j].stmt.core.as_deref() == Some(core))
            .min_by_key(|&j| right[j].method != l.method);
        if let Some(j) = pick {
            (l_done[i], r_done[j]) = (true, true);
            actions.push(update(l, &right[j]));
        }
    }
    let mut pairs: Vec<(f64, bool, usize, usize)> = Vec::new();
    for (i, l) in left.iter().enumerate().filter(|(i, _)| !l_done[*i]) {
        for (j, r) in right.iter().enumerate().filter(|(j, _)| !r_done[*j]) {
            if l.stmt.kind != r.stmt.kind {
                continue;
            }
            let sim = token_similarity(&l.stmt.toks, &r.stmt.toks);
            if sim >= FUZZY {
                pairs.push((sim, l.method == r.method, i, j));
            }
        }
    }
    // Most similar first; the same method first among equals; then document order.
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).then((a.2, a.3).cmp(&(b.2, b.3))));
    for (_, _, i, j) in pairs {
        if !l_done[i] && !r_done[j] {
            (l_done[i], r_done[j]) = (true, true);
            actions.push(update(&left[i], &right[j]));
        }
    }
    for l in left.iter().zip(&l_done).filter(|(_, d)| !**d).map(|(l, _)| l) {
        actions.push(Action::Delete { method: l.method.to_string(), statement: l.stmt.text.clone() });
    }
    for r in right.iter().zip(&r_done).filter(|(_, d)| !**d).map(|(r, _)| r) {
        actions.push(Action::Insert { method: r.method.to_string(), statement: r.stmt.text.clone() });
    }
}

#[cfg(test)]
mod tests;
