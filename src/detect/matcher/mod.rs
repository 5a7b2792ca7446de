//! RefactoringMiner's matching, in a smaller form: classes, then methods by signature, then the
//! methods left over explained by statement-level comparison of their bodies.
//!
//! The order matters and follows RefactoringMiner: within each pair of matched classes, renames
//! first, then Extract and Inline Method; then moves between classes (Move, Move And Rename, Pull
//! Up, Push Down); last the compounds that cross classes (Extract And Move, Move And Inline). A
//! method explained once is not offered again, which keeps one change from being reported twice.
//!
//! Bodies are compared as lists of normalised statements ([`super::model::Stmt`]); before
//! comparing an extracted or inlined method with its caller, the method's parameters are replaced
//! by the arguments of the call, so `total(items)` with `int total(List<Item> xs) { ... xs ... }`
//! compares `items` with `items`.
//!
//! Here: classes, signatures and fields matched, and the output. [`mapping`] compares
//! statements; [`renames`], [`extract`] and [`moves`] each explain one family of leftovers;
//! [`purity`] judges the differences a mapping leaves; [`types`] reads receivers' types;
//! [`references`] finds the methods named by method references.

use std::collections::{HashMap, HashSet};

use super::model::{Call, Method, Side, Stmt, core_of};
use super::replace::{self, replaced, same_assertion};
use super::{Location, Refactoring, RefactoringType, Subject, model};
use crate::detect::similarity::token_similarity;
use mapping::*;
use purity::{Sides, arity_changed, one_argument_dropped, pure_mapping, renamed_locals_only};

mod extract;
mod mapping;
mod moves;
mod negation;
mod purity;
mod references;
mod renames;
mod types;

/// A method of one side of the change: the subject or the other method of a reported refactoring.
#[derive(Debug, Clone, Copy)]
pub(super) struct MethodRef {
    /// Whether the method is on the before side.
    pub(super) before: bool,
    /// Its index in that side's methods.
    pub(super) index: usize,
}

impl MethodRef {
    pub(super) fn before(index: usize) -> MethodRef {
        MethodRef { before: true, index }
    }

    pub(super) fn after(index: usize) -> MethodRef {
        MethodRef { before: false, index }
    }
}

/// Parameter names replaced by argument tokens.
type Subst<'m> = HashMap<&'m str, Vec<String>>;

/// A matched pair of methods and the statements each side has that the other lacks.
struct Pair {
    b: usize,
    a: usize,
    /// Before statements with no equal statement after (multiset difference by text).
    removed: Vec<usize>,
    /// After statements with no equal statement before.
    added: Vec<usize>,
}

pub struct Diff<'s> {
    b: &'s Side,
    a: &'s Side,
    class_fwd: HashMap<usize, usize>,
    class_back: HashMap<usize, usize>,
    fwd: Vec<Option<usize>>,
    back: Vec<Option<usize>>,
    /// Explained by a refactoring already (inlined, moved, renamed; extracted).
    used_b: Vec<bool>,
    used_a: Vec<bool>,
    /// New methods explained as extracted within their class (they may be extracted from other
    /// classes' code as well).
    extracted_a: Vec<usize>,
    pairs: Vec<Pair>,
    out: Vec<Refactoring>,
    /// Callers paired with the methods extracted from them: the caller's removed statements
    /// and the extracted method's statements that did not come from the caller.
    into_extracted: Vec<Pair>,
    /// Before statements that went into a method extracted within their class: (method, statement).
    extracted_b: HashSet<(usize, usize)>,
    /// Fields renamed within matched classes, by before class: old name → new name.
    field_renames: HashMap<usize, HashMap<String, String>>,
    /// Methods by name, for finding a call's candidate targets without scanning every method.
    by_name_b: HashMap<&'s str, Vec<usize>>,
    by_name_a: HashMap<&'s str, Vec<usize>>,
}

impl<'s> Diff<'s> {
    pub fn new(b: &'s Side, a: &'s Side) -> Diff<'s> {
        Diff {
            b,
            a,
            class_fwd: HashMap::new(),
            class_back: HashMap::new(),
            fwd: vec![None; b.methods.len()],
            back: vec![None; a.methods.len()],
            used_b: vec![false; b.methods.len()],
            used_a: vec![false; a.methods.len()],
            extracted_a: Vec::new(),
            pairs: Vec::new(),
            out: Vec::new(),
            into_extracted: Vec::new(),
            extracted_b: HashSet::new(),
            field_renames: HashMap::new(),
            by_name_b: by_name(b),
            by_name_a: by_name(a),
        }
    }

    pub fn run(mut self) -> Vec<Refactoring> {
        self.match_classes();
        self.match_signatures();
        self.renames();
        self.build_pairs();
        self.rename_fields();
        self.extracts(false);
        // A method inlined into code that was extracted at the same time sits in the new method,
        // not in the caller that called it: the caller and each method extracted from it are
        // compared as a pair too (RefactoringMiner's `writeRecords(harness)` inlined into the
        // new `checkWriteAndCommit`), for this pass only.
        let real = self.pairs.len();
        let virtual_pairs = std::mem::take(&mut self.into_extracted);
        self.pairs.extend(virtual_pairs);
        self.inlines(false);
        self.pairs.truncate(real);
        self.moves();
        self.extracts(true);
        self.inlines(true);
        let mut seen = std::collections::HashSet::new();
        self.out.retain(|r| seen.insert(r.description.clone()));
        self.out.sort_by(|x, y| (x.kind, &x.description).cmp(&(y.kind, &y.description)));
        self.out
    }

    fn pair_class(&mut self, cb: usize, ca: usize) {
        self.class_fwd.insert(cb, ca);
        self.class_back.insert(ca, cb);
    }

    /// Same qualified name; then renamed or moved classes: same simple name, or most members shared.
    fn match_classes(&mut self) {
        for (cb, c) in self.b.classes.iter().enumerate() {
            if let Some(&ca) = self.a.class_by_name.get(&c.name) {
                self.pair_class(cb, ca);
            }
        }
        let lone_b: Vec<usize> = (0..self.b.classes.len()).filter(|c| !self.class_fwd.contains_key(c)).collect();
        let lone_a: Vec<usize> = (0..self.a.classes.len()).filter(|c| !self.class_back.contains_key(c)).collect();
        let keys = |side: &'s Side, c: usize| -> std::collections::HashSet<&'s str> {
            side.classes[c].methods.iter().map(|&m| side.methods[m].key.as_str()).collect()
        };
        let keys_a: Vec<_> = lone_a.iter().map(|&ca| keys(self.a, ca)).collect();
        let mut candidates = Vec::new();
        for &cb in &lone_b {
            let kb = keys(self.b, cb);
            // A class split in two or more new classes is paired with none of them: its methods
            // were moved. Split means each part holds a good share of the class's members (or
            // nothing else) and the parts share no member, together covering most of the class.
            let mut parts: Vec<std::collections::HashSet<&str>> = Vec::new();
            for (k, &ca) in lone_a.iter().enumerate() {
                let ka = &keys_a[k];
                let common: std::collections::HashSet<&str> = kb.intersection(ka).copied().collect();
                if self.b.classes[cb].simple != self.a.classes[ca].simple
                    && common.len() >= 2
                    && (2 * common.len() > kb.len().max(ka.len()) || common.len() == ka.len())
                {
                    parts.push(common);
                }
            }
            let covered: std::collections::HashSet<&str> = parts.iter().flatten().copied().collect();
            let disjoint = covered.len() == parts.iter().map(|p| p.len()).sum::<usize>();
            if parts.len() >= 2 && disjoint && 5 * covered.len() >= 4 * kb.len() {
                continue;
            }
            for (k, &ca) in lone_a.iter().enumerate() {
                let same_name = self.b.classes[cb].simple == self.a.classes[ca].simple;
                let ka = &keys_a[k];
                let common = kb.intersection(ka).count();
                let size = kb.len().max(ka.len());
                let share = if size == 0 { 0.0 } else { common as f64 / size as f64 };
                // RefactoringMiner renames a test class whose every test is in the new one, however
                // many tests the new one adds (`HunspellTest` into `TestHunspell`).
                let all_tests_kept = common >= 1
                    && common == kb.len()
                    && is_test_class(&self.b.classes[cb].simple)
                    && is_test_class(&self.a.classes[ca].simple);
                if same_name || (common >= 1 && share >= 0.5) || all_tests_kept {
                    // Shared members decide; an equal simple name only breaks ties (a class moved
                    // to a package that already has a namesake must not pair with the namesake).
                    let score = share + if same_name { 0.3 } else { 0.0 };
                    candidates.push((score, cb, ca));
                }
            }
        }
        candidates.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(std::cmp::Ordering::Equal));
        for (_, cb, ca) in candidates {
            if !self.class_fwd.contains_key(&cb) && !self.class_back.contains_key(&ca) {
                self.pair_class(cb, ca);
            }
        }
    }

    /// RefactoringMiner's Rename Attribute, as far as the method matching needs it: within a
    /// pair of classes, a field that is gone and one that is new of the same type are one field
    /// renamed, when they are the only such pair of that type, or when the matched methods that
    /// used the old name use the new one instead and no other candidate fits as well. Extracted
    /// and inlined code is compared across the rename (`_localMaxTableSize = size;` in the caller
    /// before, `_maxTableCapacity = capacity;` in the new setter).
    fn rename_fields(&mut self) {
        for (&cb, &ca) in &self.class_fwd {
            let (before, after) = (&self.b.classes[cb].fields, &self.a.classes[ca].fields);
            let gone: Vec<&(String, String)> = before.iter().filter(|f| after.iter().all(|g| g.0 != f.0)).collect();
            let new: Vec<&(String, String)> = after.iter().filter(|f| before.iter().all(|g| g.0 != f.0)).collect();
            if gone.is_empty() || new.is_empty() {
                continue;
            }
            let mut renames = HashMap::new();
            for old in &gone {
                let fits: Vec<&&(String, String)> = new.iter().filter(|f| f.1 == old.1).collect();
                let rivals = gone.iter().filter(|g| g.1 == old.1).count();
                let chosen = match fits.as_slice() {
                    [only] if rivals == 1 => Some(only.0.clone()),
                    [] => None,
                    _ => {
                        let score = |new: &str| {
                            self.pairs
                                .iter()
                                .filter(|p| self.b.methods[p.b].class == cb)
                                .filter(|p| {
                                    mentions(&self.b.methods[p.b], &old.0)
                                        && !mentions(&self.b.methods[p.b], new)
                                        && mentions(&self.a.methods[p.a], new)
                                        && !mentions(&self.a.methods[p.a], &old.0)
                                })
                                .count()
                        };
                        let mut scored: Vec<(usize, &str)> = fits.iter().map(|f| (score(&f.0), f.0.as_str())).collect();
                        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
                        match scored.as_slice() {
                            [(best, name), rest @ ..] if *best > 0 && rest.first().is_none_or(|r| r.0 < *best) => {
                                Some(name.to_string())
                            }
                            _ => None,
                        }
                    }
                };
                if let Some(name) = chosen
                    && !renames.values().any(|v| *v == name)
                {
                    renames.insert(old.0.clone(), name);
                }
            }
            if !renames.is_empty() {
                self.field_renames.insert(cb, renames);
            }
        }
    }

    /// A before method's statement with the fields of its class that were renamed written with
    /// their new names: a bare name (the tokens have `this .` dropped already), never a call or
    /// another object's member.
    fn renamed(&self, m: &Method, s: &Stmt) -> Option<Stmt> {
        let renames = self.field_renames.get(&m.class)?;
        let at = |i: usize| {
            renames
                .get(s.toks[i].as_str())
                .filter(|_| (i == 0 || s.toks[i - 1] != ".") && s.toks.get(i + 1).is_none_or(|n| n != "("))
        };
        (0..s.toks.len()).any(|i| at(i).is_some()).then(|| {
            let toks: Vec<String> = (0..s.toks.len()).map(|i| at(i).unwrap_or(&s.toks[i]).clone()).collect();
            Stmt { text: toks.join(" "), core: core_of(&toks), toks, ..s.clone() }
        })
    }

    /// [`norm`] of a before method's statement, with its class's renamed fields renamed.
    fn before_norm(&self, m: &Method, s: &Stmt, subst: &Subst) -> Norm {
        norm(self.renamed(m, s).as_ref().unwrap_or(s), subst)
    }

    /// [`norms`] of a before method, with its class's renamed fields renamed.
    fn before_norms(&self, m: &Method, subst: &Subst) -> Vec<Norm> {
        m.stmts.iter().map(|s| self.before_norm(m, s, subst)).collect()
    }

    /// The methods of a pair of classes not matched yet, before and after.
    fn unmatched(&self, cb: usize, ca: usize) -> (Vec<usize>, Vec<usize>) {
        let b = self.b.classes[cb].methods.iter().copied().filter(|&m| self.fwd[m].is_none()).collect();
        let a = self.a.classes[ca].methods.iter().copied().filter(|&m| self.back[m].is_none()).collect();
        (b, a)
    }

    fn pair_method(&mut self, mb: usize, ma: usize) {
        self.fwd[mb] = Some(ma);
        self.back[ma] = Some(mb);
    }

    /// Within matched classes: equal signatures, then equal names (a changed parameter list).
    fn match_signatures(&mut self) {
        let classes: Vec<(usize, usize)> = self.class_fwd.iter().map(|(&b, &a)| (b, a)).collect();
        for (cb, ca) in classes {
            let by_key: HashMap<&str, usize> =
                self.a.classes[ca].methods.iter().map(|&m| (self.a.methods[m].key.as_str(), m)).collect();
            for &mb in &self.b.classes[cb].methods {
                if let Some(&ma) = by_key.get(self.b.methods[mb].key.as_str())
                    && self.back[ma].is_none()
                {
                    self.pair_method(mb, ma);
                }
            }
            let (lone_b, lone_a) = self.unmatched(cb, ca);
            let mut candidates = Vec::new();
            for &mb in &lone_b {
                for &ma in &lone_a {
                    if self.b.methods[mb].name == self.a.methods[ma].name {
                        let sim = self.body_similarity(mb, ma);
                        if !self.renamed_fits_better(mb, ma, sim, &lone_a) {
                            candidates.push((sim, mb, ma));
                        }
                    }
                }
            }
            self.prefer_delegators(&mut candidates);
            candidates.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(std::cmp::Ordering::Equal));
            for (_, mb, ma) in candidates {
                if self.fwd[mb].is_none() && self.back[ma].is_none() {
                    self.pair_method(mb, ma);
                }
            }
        }
    }

    /// A method whose namesake after takes other parameters, while a new method under a name new
    /// to its class (other classes may have it) takes the same parameters, returns the same type
    /// and holds more of its body, was renamed to that one (`requestExclusiveBuffers(int)` become
    /// `requestExclusiveBuffersFromGlobal(int)` beside a new `requestExclusiveBuffers()`): the
    /// name alone does not pair them. Left to the rename pass, which judges the bodies.
    fn renamed_fits_better(&self, mb: usize, ma: usize, sim: f64, lone_a: &[usize]) -> bool {
        let x = &self.b.methods[mb];
        let types = |m: &Method| m.params.iter().map(|p| p.1.clone()).collect::<Vec<_>>();
        if types(x) == types(&self.a.methods[ma]) {
            return false;
        }
        lone_a.iter().any(|&other| {
            let y = &self.a.methods[other];
            other != ma
                && y.name != x.name
                && !y.ctor
                && !self
                    .by_name_b
                    .get(y.name.as_str())
                    .is_some_and(|ms| ms.iter().any(|&m| self.b.methods[m].class == x.class))
                && y.ret == x.ret
                && types(y) == types(x)
                && self.body_similarity(mb, other) > sim.max(0.5)
        })
    }

    /// An overload that only delegated to another of its name (`merge(Mapper, reason, ctx)`
    /// calling `merge((Root) mapper, reason, ctx)`), merged with it into one method, is that
    /// method when its parameters fit it better: the delegate's body is there because it was
    /// inlined, as RefactoringMiner reports it, though it makes up most of the new body.
    fn prefer_delegators(&self, candidates: &mut [(f64, usize, usize)]) {
        let fit = |mb: usize, ma: usize| {
            let theirs = &self.a.methods[ma].params;
            self.b.methods[mb].params.iter().filter(|p| theirs.iter().any(|q| q.1 == p.1)).count()
        };
        let snapshot = candidates.to_vec();
        for c in candidates.iter_mut() {
            let (mb2, ma) = (c.1, c.2);
            let caller = &self.b.methods[mb2];
            for &(sim, mb, other) in &snapshot {
                let callee = &self.b.methods[mb];
                if other == ma
                    && mb != mb2
                    && callee.has_body
                    && caller.calls.iter().any(|k| k.name == callee.name && k.args.len() == callee.params.len())
                    && fit(mb2, ma) > fit(mb, ma)
                    && caller.solid() < callee.solid()
                {
                    c.0 = c.0.max(sim + 1.0);
                }
            }
        }
    }

    fn body_similarity(&self, mb: usize, ma: usize) -> f64 {
        let empty = HashMap::new();
        let (x, y) = (norms(&self.b.methods[mb], &empty), norms(&self.a.methods[ma], &empty));
        let m = map_bodies(&x, &y);
        let total = x.len() + y.len();
        if total == 0 { 1.0 } else { 2.0 * m.pairs.len() as f64 / total as f64 }
    }

    /// Records a refactoring of `subject` (before) with `other` (after) as its counterpart.
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        kind: RefactoringType,
        description: String,
        left: Vec<Location>,
        right: Vec<Location>,
        pure: bool,
        subject: MethodRef,
        other: MethodRef,
    ) {
        let (sm, sc) = self.names(subject);
        let (om, oc) = self.names(other);
        let signature = self.side(subject.before).methods[subject.index].key.clone();
        let other_signature = self.side(other.before).methods[other.index].key.clone();
        self.out.push(Refactoring {
            kind,
            code: kind.code().to_string(),
            description,
            left_side_locations: left,
            right_side_locations: right,
            pure,
            subject: Subject { method: sm, signature, class: sc, other_method: om, other_signature, other_class: oc },
        });
    }

    fn names(&self, m: MethodRef) -> (String, String) {
        let side = self.side(m.before);
        (side.methods[m.index].name.clone(), side.class_of(m.index).name.clone())
    }

    fn side(&self, before: bool) -> &Side {
        if before { self.b } else { self.a }
    }

    fn decl(&self, before: bool, m: usize, what: &str) -> Location {
        let side = self.side(before);
        let method = &side.methods[m];
        let mut loc = location(&side.paths[method.file], method.span, "METHOD_DECLARATION", what);
        loc.code_element = Some(method.desc.clone());
        loc
    }

    fn stmt(&self, before: bool, m: usize, s: usize, what: &str) -> Location {
        let side = self.side(before);
        let method = &side.methods[m];
        let st = &method.stmts[s];
        location(&side.paths[method.file], st.span, st.kind, what)
    }

    fn call_loc(&self, before: bool, m: usize, c: usize, what: &str) -> Location {
        let side = self.side(before);
        let method = &side.methods[m];
        location(&side.paths[method.file], method.calls[c].span, "METHOD_INVOCATION", what)
    }
}

/// The caller's parameters renamed in place (same position and type, another name), old name →
/// new: RefactoringMiner's Rename Parameter, read into the caller's old statements so that they
/// compare with code extracted under the new names (`setLocalMaxTableSize(int localMaxTableSize)`
/// becoming `setLocalMaxTableSize(int maxTableSizeLimit)` that calls the new setter with it).
fn renamed_parameters<'m>(before: &'m Method, after: &Method) -> Subst<'m> {
    if before.params.len() != after.params.len() {
        return HashMap::new();
    }
    before
        .params
        .iter()
        .zip(&after.params)
        .filter(|(b, a)| b.0 != a.0 && b.1 == a.1 && after.params.iter().all(|p| p.0 != b.0))
        .map(|(b, a)| (b.0.as_str(), vec![a.0.clone()]))
        .collect()
}

/// Whether a body uses `name` as a word.
fn mentions(m: &Method, name: &str) -> bool {
    m.stmts.iter().any(|s| s.toks.iter().any(|t| t == name))
}

/// A test class by its name, as the test runners' conventions have it (`FooTest`, `FooTests`, `TestFoo`).
fn is_test_class(simple: &str) -> bool {
    simple.ends_with("Test") || simple.ends_with("Tests") || simple.starts_with("Test")
}

fn by_name(side: &Side) -> HashMap<&str, Vec<usize>> {
    let mut map: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, m) in side.methods.iter().enumerate() {
        map.entry(m.name.as_str()).or_default().push(i);
    }
    map
}

/// How many calls each (name, arity, receiver) gets in a method: `Constants.digest()` before and
/// `digest()` after are different calls.
fn call_counts(m: &Method) -> HashMap<(&str, usize, &str), usize> {
    let mut map: HashMap<(&str, usize, &str), usize> = HashMap::new();
    for c in &m.calls {
        *map.entry((c.name.as_str(), c.args.len(), c.receiver.as_str())).or_default() += 1;
    }
    map
}

fn location(path: &str, span: crate::java::Span, kind: &str, what: &str) -> Location {
    Location {
        file_path: path.to_string(),
        start_line: span.start_line,
        end_line: span.end_line,
        start_column: span.start_col + 1,
        end_column: span.end_col + 1,
        code_element_type: kind.to_string(),
        description: what.to_string(),
        code_element: None,
    }
}

fn call_index(m: &Method, call: &Call) -> Option<usize> {
    m.calls.iter().position(|c| c.span == call.span)
}

fn accepts(m: &Method, args: usize) -> bool {
    match m.params.last() {
        Some((_, t)) if t.ends_with("...") => args + 1 >= m.params.len(),
        _ => args == m.params.len(),
    }
}

/// The removed local declarations `T v = init;` of a method, as init tokens → `v`, for inits
/// of more than one token (a lone literal or name is no evidence of which local it was).
fn removed_initializers(m: &Method, removed: &[usize]) -> HashMap<Vec<String>, String> {
    let mut out = HashMap::new();
    for &i in removed {
        let st = &m.stmts[i];
        if st.kind != "VARIABLE_DECLARATION_STATEMENT" {
            continue;
        }
        if let Some((name, init)) = declared(&st.toks)
            && init.len() >= 2
        {
            out.insert(init.to_vec(), name.to_string());
        }
    }
    out
}

/// The locals `m` declares with an initializer (`T v = init;`) that `other` does not declare, as
/// `v` → init tokens.
fn own_locals<'m>(m: &'m Method, other: &Method) -> HashMap<&'m str, Vec<String>> {
    let mut out = HashMap::new();
    for st in m.stmts.iter().filter(|s| s.kind == "VARIABLE_DECLARATION_STATEMENT") {
        if let Some((name, init)) = declared(&st.toks)
            && !other.locals.iter().any(|(n, _)| n == name)
            && !other.params.iter().any(|(n, _)| n == name)
        {
            out.insert(name, init.to_vec());
        }
    }
    out
}

/// The local declarations `T v = init;` among statements `added` of a method (those it gained,
/// or all of them), as `v` → init tokens.
fn added_locals(m: &Method, added: impl IntoIterator<Item = usize>) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for i in added {
        let st = &m.stmts[i];
        if st.kind != "VARIABLE_DECLARATION_STATEMENT" {
            continue;
        }
        if let Some((name, init)) = declared(&st.toks) {
            out.insert(name.to_string(), init.to_vec());
        }
    }
    out
}

/// `T v = init ;` as (`v`, init).
fn declared(t: &[String]) -> Option<(&str, &[String])> {
    if t.last().is_none_or(|x| x != ";") {
        return None;
    }
    let mut depth = 0i32;
    let eq = t.iter().position(|x| {
        match x.as_str() {
            "(" | "[" | "<" => depth += 1,
            ")" | "]" | ">" => depth -= 1,
            _ => {}
        }
        depth == 0 && x == "="
    })?;
    (eq >= 2 && t.len() > eq + 2).then(|| (t[eq - 1].as_str(), &t[eq + 1..t.len() - 1]))
}

/// The substitutions to try when the arguments as written do not map: arguments that initialise
/// a local (`inits`) replaced by it, the names of `locals` replaced by their initializers, both.
fn local_variants<'m>(
    callee: &'m Method,
    subst: &HashMap<&'m str, Vec<String>>,
    inits: &HashMap<Vec<String>, String>,
    locals: &HashMap<String, Vec<String>>,
) -> Vec<HashMap<&'m str, Vec<String>>> {
    let mut out = Vec::new();
    out.extend(named_locals(subst, inits));
    if let Some(inlined) = inline_locals(callee, subst, locals) {
        out.extend(named_locals(&inlined, inits));
        out.push(inlined);
    }
    out
}

/// `subst` with each argument that is the initializer of a local in `inits` replaced by that
/// local's name; `None` when no argument is one.
fn named_locals<'m>(subst: &Subst<'m>, inits: &HashMap<Vec<String>, String>) -> Option<Subst<'m>> {
    let mut out = subst.clone();
    let mut changed = false;
    for arg in out.values_mut() {
        if let Some(name) = inits.get(arg.as_slice()) {
            *arg = vec![name.clone()];
            changed = true;
        }
    }
    changed.then_some(out)
}

/// `toks` with each name `subst` holds replaced by what it stands for.
fn substituted(toks: &[String], subst: &Subst) -> Vec<String> {
    toks.iter().flat_map(|t| subst.get(t.as_str()).cloned().unwrap_or_else(|| vec![t.clone()])).collect()
}

/// `subst` (for `callee`'s parameters) with the names in `locals` (not after a `.`) replaced by
/// their initializers; `None` when no argument names one. A parameter absent from `subst` had an
/// argument of its own name.
fn inline_locals<'m>(
    callee: &'m Method,
    subst: &HashMap<&'m str, Vec<String>>,
    locals: &HashMap<String, Vec<String>>,
) -> Option<HashMap<&'m str, Vec<String>>> {
    if locals.is_empty() {
        return None;
    }
    let mut changed = false;
    let mut out = subst.clone();
    for (name, _) in &callee.params {
        out.entry(name.as_str()).or_insert_with(|| vec![name.clone()]);
    }
    for arg in out.values_mut() {
        let mut toks = Vec::with_capacity(arg.len());
        for (i, t) in arg.iter().enumerate() {
            match locals.get(t) {
                Some(init) if i == 0 || arg[i - 1] != "." => {
                    changed = true;
                    toks.extend(init.iter().cloned());
                }
                _ => toks.push(t.clone()),
            }
        }
        *arg = toks;
    }
    changed.then_some(out)
}

/// The callee's parameters replaced by the call's arguments (themselves substituted by `outer`).
fn substitution<'m>(
    callee: &'m Method,
    call: &Call,
    outer: &HashMap<&str, Vec<String>>,
) -> HashMap<&'m str, Vec<String>> {
    let mut subst = HashMap::new();
    // A variable-arity parameter stands for all the arguments from its position on.
    let n = callee.params.len();
    let spread: Vec<String>;
    let mut args: Vec<&Vec<String>> = call.args.iter().collect();
    if n > 0 && callee.params[n - 1].1.ends_with("...") && call.args.len() > n {
        spread = call.args[n - 1..].join(&[",".to_string()][..]);
        args.truncate(n - 1);
        args.push(&spread);
    }
    for ((name, _), arg) in callee.params.iter().zip(args) {
        let arg = substituted(arg, outer);
        if arg.len() != 1 || arg[0] != *name {
            subst.insert(name.as_str(), arg);
        }
    }
    subst
}

/// Whether every parameter type of `x` is still among `y`'s (the same list, or parameters added):
/// a method that takes what it took before and is now called from new places too is the old
/// method put to more use (`validate(ranges)` become `validateAndSort(ranges, length)`), where a
/// new helper taking other things that its old namesake's callers now call is not.
fn kept_params(x: &Method, y: &Method) -> bool {
    let mut theirs: Vec<&String> = y.params.iter().map(|p| &p.1).collect();
    x.params.iter().all(|(_, t)| match theirs.iter().position(|u| *u == t) {
        Some(i) => {
            theirs.swap_remove(i);
            true
        }
        None => false,
    })
}
