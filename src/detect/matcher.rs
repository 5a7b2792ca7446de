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

use std::collections::HashMap;

use super::model::{Call, Method, Side, Stmt, core_of};
use super::replace::{replaced, same_assertion};
use super::{Location, Refactoring, RefactoringType, Subject};
use crate::metrics::token_similarity;

/// How close a fuzzy statement match must be (token LCS similarity).
const FUZZY: f64 = 0.75;

/// Parameter names replaced by argument tokens.
type Subst<'m> = HashMap<&'m str, Vec<String>>;

/// A statement ready for comparison: normalised, with substitutions applied.
struct Norm {
    toks: Vec<String>,
    text: String,
    core: Option<String>,
    trivial: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pairing {
    Exact,
    /// `return e;` with `T v = e;` or `v = e;`.
    Core,
    Fuzzy,
}

/// The outcome of mapping a method's statements onto a pool.
#[derive(Debug, Clone, Default)]
struct Mapping {
    /// (source statement, pool statement, how): indices into the `Norm` lists.
    pairs: Vec<(usize, usize, Pairing)>,
    /// Solid (non-trivial) source statements.
    solid: usize,
    /// Solid source statements mapped.
    mapped: usize,
    /// Solid source statements mapped exactly (text or core).
    exact: usize,
    /// Exact pairs whose source statement is substantial evidence on its own: a statement or a
    /// block's header that passes arguments or assigns (`synchronized (pool)` is shared by any
    /// code guarded the same way), and neither throws (RefactoringMiner's
    /// `throwsNewExceptionExactMatch`) nor chains to another constructor. One such statement may carry an extraction whose new
    /// method adds more around it (`zk.safeDelete(path, acl, fencing);` wrapped in a `try`).
    strong: usize,
}

impl Mapping {
    /// No statement mapped, so that the later rules start from nothing rather than from pairs
    /// that were judged too weak.
    fn rejected(&self) -> Mapping {
        Mapping { solid: self.solid, ..Mapping::default() }
    }
    fn unmapped(&self) -> usize {
        self.solid - self.mapped
    }
    /// Which source and which pool statements are paired already.
    fn taken(&self, src: usize, pool: usize) -> (Vec<bool>, Vec<bool>) {
        let (mut done, mut used) = (vec![false; src], vec![false; pool]);
        for &(i, j, _) in &self.pairs {
            done[i] = true;
            used[j] = true;
        }
        (done, used)
    }
    fn all_exact(&self) -> bool {
        self.mapped == self.solid && self.pairs.iter().all(|p| p.2 != Pairing::Fuzzy)
    }
}

impl Norm {
    /// See [`Mapping::strong`].
    fn strong(&self) -> bool {
        self.toks.len() >= 5
            && (self.toks.last().is_some_and(|t| t == ";") || is_header(self))
            && !matches!(self.toks[0].as_str(), "throw" | "super" | "this")
            && (self.toks.iter().any(|t| t == "=") || self.toks.windows(2).any(|w| w[0] == "(" && w[1] != ")"))
    }
}

/// The header of a block statement (`if ( c )`, `for ( .. )`, `while ( c )`).
fn is_header(s: &Norm) -> bool {
    matches!(s.toks[0].as_str(), "if" | "for" | "while" | "switch" | "synchronized")
        && s.toks.last().is_some_and(|t| t == ")")
}

fn norms(m: &Method, subst: &HashMap<&str, Vec<String>>) -> Vec<Norm> {
    m.stmts.iter().map(|s| norm(s, subst)).collect()
}

/// The key of a substitution that holds the receiver a moved method was called on: its own
/// unqualified calls are that receiver's calls in the code it came from (`getDueOn()` in `Loan`
/// was `loan.getDueOn()` in `LoanDesk`), as `this` is the receiver.
const RECEIVER: &str = "(receiver)";

fn norm(s: &Stmt, subst: &HashMap<&str, Vec<String>>) -> Norm {
    if subst.is_empty() {
        return Norm { toks: s.toks.clone(), text: s.text.clone(), core: s.core.clone(), trivial: s.trivial };
    }
    let receiver = subst.get(RECEIVER);
    let mut toks = Vec::with_capacity(s.toks.len());
    for (i, t) in s.toks.iter().enumerate() {
        let after_dot = i > 0 && s.toks[i - 1] == ".";
        if let Some(rec) = receiver
            && !after_dot
            && s.toks.get(i + 1).is_some_and(|n| n == "(")
            && !(i > 0 && s.toks[i - 1] == "new")
            && t.starts_with(|c: char| c.is_ascii_lowercase())
            && !super::replace::is_keyword(t)
        {
            toks.extend(rec.iter().cloned());
            toks.push(".".into());
            toks.push(t.clone());
            continue;
        }
        match subst.get(t.as_str()) {
            Some(rep) if !after_dot => toks.extend(rep.iter().cloned()),
            _ => toks.push(t.clone()),
        }
    }
    let core = core_of(&toks);
    Norm { text: toks.join(" "), toks, core, trivial: s.trivial }
}

/// Maps `src` onto the statements of `pool` not yet `used`: exact text, then core, then fuzzy.
fn map_onto(src: &[Norm], pool: &[&Norm], used: &mut [bool]) -> Mapping {
    let mut m = Mapping { solid: src.iter().filter(|s| !s.trivial).count(), ..Mapping::default() };
    let mut done = vec![false; src.len()];
    let mut by_text: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, p) in pool.iter().enumerate() {
        by_text.entry(p.text.as_str()).or_default().push(j);
    }
    for (i, s) in src.iter().enumerate() {
        if let Some(js) = by_text.get(s.text.as_str())
            && let Some(&j) = js.iter().find(|&&j| !used[j])
        {
            used[j] = true;
            done[i] = true;
            m.pairs.push((i, j, Pairing::Exact));
        }
    }
    for (i, s) in src.iter().enumerate() {
        if done[i] || s.trivial {
            continue;
        }
        let Some(core) = s.core.as_deref().filter(|c| c.contains(' ')) else { continue };
        if let Some(j) = (0..pool.len()).find(|&j| !used[j] && pool[j].core.as_deref() == Some(core)) {
            used[j] = true;
            done[i] = true;
            m.pairs.push((i, j, Pairing::Core));
        }
    }
    for (i, s) in src.iter().enumerate() {
        if done[i] || s.trivial || s.toks.len() < 3 {
            continue;
        }
        let mut best: Option<(f64, usize)> = None;
        for (j, p) in pool.iter().enumerate() {
            let (a, b) = (s.toks.len(), p.toks.len());
            if used[j] || p.trivial || a * 2 < b || b * 2 < a {
                continue;
            }
            // Short statements match only with one name replaced (`return a;` / `return b;`).
            let sim = if a < 4 {
                let diff = s.toks.iter().zip(&p.toks).filter(|(x, y)| x != y).count();
                if a == b && diff == 1 && s.toks[0] == p.toks[0] { FUZZY } else { 0.0 }
            } else {
                token_similarity(&s.toks, &p.toks)
            };
            // Below the fuzzy bar, a statement with expressions replaced (RefactoringMiner's
            // replacements) still pairs, ranked by what it shares.
            let sim = if sim >= FUZZY {
                sim
            } else if a >= 4 && sim < 0.5 {
                0.0
            } else {
                replaced(&s.toks, &p.toks).map_or(0.0, |r| r * 0.5)
            };
            // An assertion rewritten in another style (`assertTrue(m, x)` / `assertThat(x).isTrue()`).
            let sim = if sim == 0.0 && same_assertion(&s.toks, &p.toks) { 0.25 } else { sim };
            if sim > 0.0 && best.is_none_or(|(bs, _)| sim > bs) {
                best = Some((sim, j));
            }
        }
        if let Some((_, j)) = best {
            used[j] = true;
            done[i] = true;
            m.pairs.push((i, j, Pairing::Fuzzy));
        }
    }
    // A block's header whose first statement pairs with the first statement of a header of the
    // same kind pairs with that header: RefactoringMiner matches composite statements by what
    // they hold, so `if (prefetching)` is `if (!(wrapped instanceof S3AInputStream))` when both
    // guard `skip(...)`.
    let mut headers = Vec::new();
    for &(i, j, _) in &m.pairs {
        let (Some(h), Some(g)) = (i.checked_sub(1), j.checked_sub(1)) else { continue };
        let (x, y) = (&src[h], pool[g]);
        if !done[h] && !used[g] && !x.trivial && x.toks[0] == y.toks[0] && is_header(x) && is_header(y) {
            headers.push((h, g));
        }
    }
    for (h, g) in headers {
        if !done[h] && !used[g] {
            done[h] = true;
            used[g] = true;
            m.pairs.push((h, g, Pairing::Fuzzy));
        }
    }
    for &(i, _, how) in &m.pairs {
        if !src[i].trivial {
            m.mapped += 1;
            if how != Pairing::Fuzzy {
                m.exact += 1;
                m.strong += usize::from(src[i].strong());
            }
        }
    }
    m
}

/// RefactoringMiner's expression replaced by an invocation: a method's `return e;` was (or
/// becomes) an expression inside a larger statement of its caller. `String loc = layered.tools()
/// ? DIR : null;` became `String loc = isIncludeTools() ? DIR : null;` with `isIncludeTools()`
/// returning `layered.tools()`: the statement holding the call (`site`), with the call replaced
/// by `e`, is the pool's statement, and the pool's statement holds `e` unchanged. Each such
/// `return` pairs as exact, for the statement it came from is there word for word. The rest of
/// the statement may have changed too when `e` is more than a name: several expressions of one
/// statement extracted at once (`setTimes(getModified(entry), getAccessed(entry), ...)`) leave
/// each candidate holding the others' calls. `lone_name`: whether `return name;` may count.
fn embedded_returns(src: &[Norm], pool: &[&Norm], m: &mut Mapping, site: &[String], call: &Call, lone_name: bool) {
    let Some((start, end)) = call_range(site, call) else { return };
    let (done, mut used) = m.taken(src.len(), pool.len());
    for (i, s) in src.iter().enumerate() {
        let n = s.toks.len();
        if done[i] || n < 3 {
            continue;
        }
        for e in returned_values(src, i) {
            // A lone name is evidence only for a getter in the same class: returned as it came
            // in, it is the call dropped (`checkHost(uri)` → `uri`), and across classes any local
            // may share the field's name.
            if e.len() == 1 && (!lone_name || call.args.contains(&e)) {
                continue;
            }
            let mut candidate: Vec<String> = site[..start].to_vec();
            candidate.extend(e.iter().cloned());
            candidate.extend(site[end..].iter().cloned());
            let fits = |p: &Norm| {
                p.toks.windows(e.len()).any(|w| w == e)
                    && (near_equal(&candidate, &p.toks)
                        || e.len() >= 3 && token_similarity(&candidate, &p.toks) >= FUZZY)
            };
            let Some(j) = (0..pool.len()).find(|&j| !used[j] && fits(pool[j])) else { continue };
            used[j] = true;
            m.pairs.push((i, j, Pairing::Core));
            if !s.trivial {
                m.mapped += 1;
                m.exact += 1;
                m.strong += usize::from(s.strong());
            }
            break;
        }
    }
}

/// What statement `i` of a method makes it return, as an expression that could stand where the
/// method is called: `return e;` returns `e`; a guard `if (c)` right before `return false;`
/// returns `!c` (`if (speller.spell(word)) return false;` for `w -> !speller.spell(w)`), before
/// `return true;` `c`; a guard before `return a;` and then `return b;` returns `c ? a : b`.
fn returned_values(src: &[Norm], i: usize) -> Vec<Vec<String>> {
    let t = &src[i].toks;
    let n = t.len();
    if t[0] == "return" && t[n - 1] == ";" {
        return vec![t[1..n - 1].to_vec()];
    }
    let Some(next) = src.get(i + 1).map(|s| s.toks.join(" ")) else { return Vec::new() };
    if t[0] != "if" || !is_header(&src[i]) || n < 5 {
        return Vec::new();
    }
    let c = &t[2..n - 1];
    fn returned(s: &Norm) -> Option<&[String]> {
        let k = s.toks.len();
        (k > 2 && s.toks[0] == "return" && s.toks[k - 1] == ";").then(|| &s.toks[1..k - 1])
    }
    // `if (c) return a; [else] return b;` is `c ? a : b`.
    let rest = src[i + 2..].iter().find(|s| s.toks != ["else"]);
    if let (Some(a), Some(b)) = (returned(&src[i + 1]), rest.and_then(returned))
        && next != "return true ;"
        && next != "return false ;"
    {
        let ternary = |c: Vec<String>| {
            c.into_iter()
                .chain(["?".into()])
                .chain(a.iter().cloned())
                .chain([":".into()])
                .chain(b.iter().cloned())
                .collect()
        };
        let wrapped = ["(".to_string()].into_iter().chain(c.iter().cloned()).chain([")".into()]).collect();
        return vec![ternary(c.to_vec()), ternary(wrapped)];
    }
    match next.as_str() {
        "return true ;" => vec![c.to_vec()],
        "return false ;" => {
            let bare = std::iter::once("!".to_string()).chain(c.iter().cloned()).collect();
            let wrapped =
                ["!", "("].map(String::from).into_iter().chain(c.iter().cloned()).chain([")".into()]).collect();
            vec![bare, wrapped]
        }
        _ => Vec::new(),
    }
}

/// RefactoringMiner's object creation with its arguments replaced: a new method returning
/// `new T(a, b, ..)` (a builder's `build()`) whose call took the place of a `new T()` in the
/// caller's statement (`pool.set(new T())` became `pool.set(T.builder().x(..).build())`). With the
/// call replaced by the creation, the statement is the old one but for the creations' arguments.
/// The pair is fuzzy: the arguments did change. Only a creation passed on counts: where the
/// chain is a local's whole initializer (`T v = T.builder()..build();`), RefactoringMiner
/// credits the chain's first call (`builder()`) with the old `new T()` instead.
fn returned_creation(src: &[Norm], pool: &[&Norm], m: &mut Mapping, site: &[String], call: &Call) {
    let Some((start, end)) = call_range(site, call) else { return };
    if start == 0 || site[start - 1] == "=" {
        return;
    }
    let (done, mut used) = m.taken(src.len(), pool.len());
    for (i, s) in src.iter().enumerate() {
        let n = s.toks.len();
        if done[i] || n < 6 || s.toks[..2] != ["return", "new"] || s.toks[n - 1] != ";" {
            continue;
        }
        let ty = &s.toks[2];
        let e = &s.toks[1..n - 1];
        // `new T ( .. )` and nothing after it: a creation, not a call on one.
        if e.get(2).is_none_or(|t| t != "(") || closing(e, 2) != Some(e.len() - 1) {
            continue;
        }
        let mut candidate: Vec<String> = site[..start].to_vec();
        candidate.extend(e.iter().cloned());
        candidate.extend(site[end..].iter().cloned());
        let blank = blank_creations(&candidate, ty);
        let fits =
            |p: &Norm| p.toks.windows(2).any(|w| w[0] == "new" && w[1] == *ty) && blank_creations(&p.toks, ty) == blank;
        if let Some(j) = (0..pool.len()).find(|&j| !used[j] && fits(pool[j])) {
            used[j] = true;
            m.pairs.push((i, j, Pairing::Fuzzy));
            if !s.trivial {
                m.mapped += 1;
            }
        }
    }
}

/// The index of the `)` closing the `(` at `open`.
fn closing(toks: &[String], open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (q, t) in toks.iter().enumerate().skip(open) {
        match t.as_str() {
            "(" => depth += 1,
            ")" => {
                depth -= 1;
                if depth == 0 {
                    return Some(q);
                }
            }
            _ => {}
        }
    }
    None
}

/// `toks` with the arguments of every `new ty ( .. )` dropped.
fn blank_creations(toks: &[String], ty: &str) -> Vec<String> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        out.push(toks[i].clone());
        if i >= 1
            && toks[i - 1] == "new"
            && toks[i] == ty
            && toks.get(i + 1).is_some_and(|t| t == "(")
            && let Some(q) = closing(toks, i + 1)
        {
            out.push("(".into());
            out.push(")".into());
            i = q + 1;
            continue;
        }
        i += 1;
    }
    out
}

/// Equal, or equal but for one renamed variable (`String location = ...` / `String toolsLocation
/// = ...`): a renamed method or a changed argument is another statement.
fn near_equal(x: &[String], y: &[String]) -> bool {
    if x.len() != y.len() {
        return false;
    }
    let mut diffs = (0..x.len()).filter(|&i| x[i] != y[i]);
    match (diffs.next(), diffs.next()) {
        (None, _) => true,
        (Some(i), None) => {
            let name =
                |t: &str| t.starts_with(|c: char| c.is_alphabetic() || c == '_') && !super::replace::is_keyword(t);
            name(&x[i]) && name(&y[i]) && x.get(i + 1).is_none_or(|n| n != "(" && n != ".")
        }
        _ => false,
    }
}

/// The token range of `call` (its receiver included) in a statement's tokens.
fn call_range(toks: &[String], call: &Call) -> Option<(usize, usize)> {
    let receiver: Vec<&str> = if call.qualified { call.receiver.split(' ').collect() } else { Vec::new() };
    for p in 0..toks.len().saturating_sub(1) {
        if toks[p] != call.name || toks[p + 1] != "(" {
            continue;
        }
        let mut depth = 0i32;
        let mut end = None;
        for (q, t) in toks.iter().enumerate().skip(p + 1) {
            match t.as_str() {
                "(" => depth += 1,
                ")" => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(q + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        let end = end?;
        let start = if receiver.is_empty() {
            p
        } else {
            let r = receiver.len();
            let fits = p > r
                && toks[p - 1] == "."
                && toks[p - 1 - r..p - 1].iter().map(String::as_str).eq(receiver.iter().copied());
            if !fits {
                continue;
            }
            p - 1 - r
        };
        return Some((start, end));
    }
    None
}

/// Maps all of `x`'s statements onto all of `y`'s.
fn map_bodies(x: &[Norm], y: &[Norm]) -> Mapping {
    let pool: Vec<&Norm> = y.iter().collect();
    let mut used = vec![false; pool.len()];
    map_onto(x, &pool, &mut used)
}

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
    pairs: Vec<Pair>,
    out: Vec<Refactoring>,
    /// Callers paired with the methods extracted from them: the caller's removed statements
    /// and the extracted method's statements that did not come from the caller.
    into_extracted: Vec<Pair>,
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
            pairs: Vec::new(),
            out: Vec::new(),
            into_extracted: Vec::new(),
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

    // ---- classes and signatures -------------------------------------------------------------

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
    /// their new names (a bare name or `this . name`, never a call or another object's member).
    fn renamed(&self, m: &Method, s: &Stmt) -> Option<Stmt> {
        let renames = self.field_renames.get(&m.class)?;
        let at = |i: usize| {
            renames.get(s.toks[i].as_str()).filter(|_| {
                let after_dot = i > 0 && s.toks[i - 1] == ".";
                (!after_dot || i >= 2 && s.toks[i - 2] == "this") && s.toks.get(i + 1).is_none_or(|n| n != "(")
            })
        };
        (0..s.toks.len()).any(|i| at(i).is_some()).then(|| {
            let toks: Vec<String> = (0..s.toks.len()).map(|i| at(i).unwrap_or(&s.toks[i]).clone()).collect();
            Stmt { text: toks.join(" "), core: core_of(&toks), toks, ..s.clone() }
        })
    }

    /// New methods of the caller's class that a method reference (`this::getBundle`) names where
    /// a removed statement of the caller had a lambda returning the method's `return` expression
    /// (`(bundle) -> sslBundles.getBundle(bundle.name())`), with that statement's index in `pool`.
    fn referenced_lambdas(&self, pair: &Pair, pool: &[&Norm]) -> Vec<(usize, usize)> {
        let am = &self.a.methods[pair.a];
        let own = self.a.classes[am.class].simple.as_str();
        let mut out = Vec::new();
        for &k in &pair.added {
            let toks = &am.stmts[k].toks;
            for w in 0..toks.len().saturating_sub(2) {
                if toks[w + 1] != "::" || !(toks[w] == "this" || toks[w] == own) {
                    continue;
                }
                for x in self.new_methods(&toks[w + 2], 1) {
                    let xm = &self.a.methods[x];
                    let ([s], [(param, _)]) = (xm.stmts.as_slice(), xm.params.as_slice()) else { continue };
                    let n = s.toks.len();
                    if xm.class != am.class || n < 4 || s.toks[0] != "return" || s.toks[n - 1] != ";" {
                        continue;
                    }
                    let p = param.as_str();
                    for head in [&["(", p, ")", "->"][..], &[p, "->"][..]] {
                        let mut candidate: Vec<String> = toks[..w].to_vec();
                        candidate.extend(head.iter().map(|t| t.to_string()));
                        candidate.extend(s.toks[1..n - 1].iter().cloned());
                        candidate.extend(toks[w + 3..].iter().cloned());
                        if let Some(j) = (0..pool.len()).find(|&j| near_equal(&candidate, &pool[j].toks)) {
                            out.push((x, j));
                            break;
                        }
                    }
                }
            }
        }
        out
    }

    /// [`norm`] of a before method's statement, with its class's renamed fields renamed.
    fn before_norm(&self, m: &Method, s: &Stmt, subst: &Subst) -> Norm {
        match self.renamed(m, s) {
            Some(r) => norm(&r, subst),
            None => norm(s, subst),
        }
    }

    /// [`norms`] of a before method, with its class's renamed fields renamed.
    fn before_norms(&self, m: &Method, subst: &Subst) -> Vec<Norm> {
        m.stmts.iter().map(|s| self.before_norm(m, s, subst)).collect()
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
            let lone_b: Vec<usize> =
                self.b.classes[cb].methods.iter().copied().filter(|&m| self.fwd[m].is_none()).collect();
            let lone_a: Vec<usize> =
                self.a.classes[ca].methods.iter().copied().filter(|&m| self.back[m].is_none()).collect();
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

    /// A method whose namesake after takes other parameters, while a new method under a new
    /// name takes the same parameters, returns the same type and holds more of its body, was
    /// renamed to that one (`requestExclusiveBuffers(int)` become
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
                && !self.by_name_b.contains_key(y.name.as_str())
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

    // ---- renames -----------------------------------------------------------------------------

    fn renames(&mut self) {
        let classes: Vec<(usize, usize)> = self.class_fwd.iter().map(|(&b, &a)| (b, a)).collect();
        let mut found = Vec::new();
        let mut ambiguous = Vec::new();
        for (cb, ca) in classes {
            let lone_b: Vec<usize> =
                self.b.classes[cb].methods.iter().copied().filter(|&m| self.fwd[m].is_none()).collect();
            let lone_a: Vec<usize> =
                self.a.classes[ca].methods.iter().copied().filter(|&m| self.back[m].is_none()).collect();
            let mut candidates = Vec::new();
            for &mb in &lone_b {
                for &ma in &lone_a {
                    let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
                    if x.ctor || y.ctor {
                        continue;
                    }
                    if let Some((score, pure)) = self.same_body(mb, ma, false) {
                        candidates.push((score, mb, ma, pure));
                    }
                }
            }
            candidates.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(std::cmp::Ordering::Equal));
            for &(score, mb, ma, pure) in &candidates {
                if self.fwd[mb].is_some() || self.back[ma].is_some() {
                    continue;
                }
                // One method that fits two new ones equally well (`isAffix` → `isPrefix` and
                // `isSuffix`) was split or replaced, not renamed; several equal pairs that
                // permute among themselves are resolved in order.
                let free = |&&(s, b, a, _): &&(f64, usize, usize, bool)| {
                    s == score && self.fwd[b].is_none() && self.back[a].is_none()
                };
                let rivals_a = candidates.iter().filter(free).filter(|c| c.1 == mb).count();
                let rivals_b = candidates.iter().filter(free).filter(|c| c.2 == ma).count();
                if rivals_a > rivals_b {
                    ambiguous.push(mb);
                    continue;
                }
                self.pair_method(mb, ma);
                found.push((mb, ma, pure));
            }
        }
        self.renames_by_call_sites(&mut found);
        // Ambiguous here is not explained better elsewhere (a move would pick one at random).
        for mb in ambiguous {
            if self.fwd[mb].is_none() {
                self.used_b[mb] = true;
            }
        }
        // A rename made once is usually made through the hierarchy (an abstract method and its
        // overrides): the same old and new name with the same parameters elsewhere is the same rename.
        let renamed: std::collections::HashSet<(&str, &str)> = found
            .iter()
            .map(|&(mb, ma, _)| (self.b.methods[mb].name.as_str(), self.a.methods[ma].name.as_str()))
            .collect();
        if !renamed.is_empty() {
            let classes: Vec<(usize, usize)> = self.class_fwd.iter().map(|(&b, &a)| (b, a)).collect();
            for (cb, ca) in classes {
                for &mb in &self.b.classes[cb].methods {
                    for &ma in &self.a.classes[ca].methods {
                        let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
                        if self.fwd[mb].is_none()
                            && self.back[ma].is_none()
                            && renamed.contains(&(x.name.as_str(), y.name.as_str()))
                            && x.params.iter().map(|p| &p.1).eq(y.params.iter().map(|p| &p.1))
                        {
                            let pure = x.stmts.len() == y.stmts.len()
                                && x.stmts.iter().zip(&y.stmts).all(|(p, q)| p.text == q.text);
                            self.fwd[mb] = Some(ma);
                            self.back[ma] = Some(mb);
                            found.push((mb, ma, pure));
                        }
                    }
                }
            }
        }
        for (mb, ma, pure) in found {
            let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
            let description =
                format!("Rename Method\t{} renamed to {} in class {}", x.desc, y.desc, self.a.class_of(ma).name);
            let left = vec![self.decl(true, mb, "original method declaration")];
            let right = vec![self.decl(false, ma, "renamed method declaration")];
            self.push(RefactoringType::RenameMethod, description, left, right, pure, (true, mb), (false, ma));
        }
    }

    /// Renames whose bodies were rewritten too, told by their callers, as RefactoringMiner's
    /// call-site evidence: in the same class, the one removed and the one added method with the
    /// same return type such that every matched method that called the old name calls the new
    /// one instead, as many times, and nothing called the new name before or calls the old one
    /// after. Methods that did not call the old name may call the new one too when the new
    /// method still takes every parameter type the old one took ([`kept_params`]). Each side must have exactly one such counterpart, and the parameter types are the
    /// same or the bodies still share a statement (a setter replaced by another is no rename).
    fn renames_by_call_sites(&mut self, found: &mut Vec<(usize, usize, bool)>) {
        // (name, arity) → calls per matched method, before and after.
        let mut calls_b: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        let mut calls_a: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        for (mb, ma) in self.fwd.iter().enumerate() {
            let Some(ma) = *ma else { continue };
            for c in &self.b.methods[mb].calls {
                let v = calls_b.entry(c.name.as_str()).or_default();
                match v.iter_mut().find(|e| e.0 == mb) {
                    Some(e) => e.1 += 1,
                    None => v.push((mb, 1)),
                }
            }
            for c in &self.a.methods[ma].calls {
                let v = calls_a.entry(c.name.as_str()).or_default();
                match v.iter_mut().find(|e| e.0 == ma) {
                    Some(e) => e.1 += 1,
                    None => v.push((ma, 1)),
                }
            }
        }
        // `more_callers`: whether methods that did not call the old name may call the new one.
        let renamed_calls = |old: &str, new: &str, more_callers: bool| -> bool {
            let (Some(before), Some(after)) = (calls_b.get(old), calls_a.get(new)) else { return false };
            if calls_b.contains_key(new)
                || calls_a.contains_key(old)
                || before.len() > after.len()
                || before.len() < after.len() && !more_callers
            {
                return false;
            }
            before.iter().all(|&(mb, n)| after.iter().any(|&(ma, k)| self.fwd[mb] == Some(ma) && k == n))
        };
        let classes: Vec<(usize, usize)> = self.class_fwd.iter().map(|(&b, &a)| (b, a)).collect();
        let mut pairs = Vec::new();
        for (cb, ca) in classes {
            let lone = |side: &Side, c: usize, map: &[Option<usize>]| -> Vec<usize> {
                side.classes[c].methods.iter().copied().filter(|&m| map[m].is_none() && !side.methods[m].ctor).collect()
            };
            let (lone_b, lone_a) = (lone(self.b, cb, &self.fwd), lone(self.a, ca, &self.back));
            let mut cands = Vec::new();
            for &mb in &lone_b {
                for &ma in &lone_a {
                    let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
                    if x.name != y.name
                        && x.ret == y.ret
                        && x.is_static == y.is_static
                        && !self.by_name_a.contains_key(x.name.as_str())
                        && !self.by_name_b.contains_key(y.name.as_str())
                        && renamed_calls(&x.name, &y.name, kept_params(x, y))
                        && (x.params.iter().map(|p| &p.1).eq(y.params.iter().map(|p| &p.1))
                            || self.shares_statement(mb, ma))
                    {
                        cands.push((mb, ma));
                    }
                }
            }
            for &(mb, ma) in &cands {
                if cands.iter().filter(|c| c.0 == mb || c.1 == ma).count() == 1 {
                    pairs.push((mb, ma));
                }
            }
        }
        for (mb, ma) in pairs {
            self.pair_method(mb, ma);
            found.push((mb, ma, false));
        }
    }

    /// Whether some solid statement of `mb` maps onto one of `ma` (exactly, fuzzily or replaced).
    fn shares_statement(&self, mb: usize, ma: usize) -> bool {
        let empty = HashMap::new();
        map_bodies(&norms(&self.b.methods[mb], &empty), &norms(&self.a.methods[ma], &empty)).mapped > 0
    }

    /// Whether removed `mb` and added `ma` are one method (renamed or moved): (score, pure).
    fn same_body(&self, mb: usize, ma: usize, moved: bool) -> Option<(f64, bool)> {
        let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
        let mut sx: HashMap<&str, Vec<String>> = HashMap::new();
        let mut sy: HashMap<&str, Vec<String>> = HashMap::new();
        if x.name != y.name {
            sx.insert(x.name.as_str(), vec![y.name.clone()]);
        }
        if moved {
            // `this` ↔ parameter: a parameter of the other class's type becomes (or was) `this`.
            let (cx, cy) = (&self.b.class_of(mb).simple, &self.a.class_of(ma).simple);
            for (n, t) in &x.params {
                if t == cy {
                    sx.insert(n.as_str(), vec!["this".into()]);
                }
            }
            for (n, t) in &y.params {
                if t == cx {
                    sy.insert(n.as_str(), vec!["this".into()]);
                }
            }
        }
        let (nx, ny) = (norms(x, &sx), norms(y, &sy));
        let strip = |v: Vec<Norm>| -> Vec<Norm> {
            v.into_iter()
                .map(|n| {
                    let mut toks = Vec::with_capacity(n.toks.len());
                    let mut i = 0;
                    while i < n.toks.len() {
                        if n.toks[i] == "this" && n.toks.get(i + 1).is_some_and(|t| t == ".") {
                            i += 2;
                            continue;
                        }
                        toks.push(n.toks[i].clone());
                        i += 1;
                    }
                    Norm { text: toks.join(" "), core: core_of(&toks), toks, ..n }
                })
                .collect()
        };
        let (nx, ny) = if moved { (strip(nx), strip(ny)) } else { (nx, ny) };
        let identical = nx.len() == ny.len() && nx.iter().zip(&ny).all(|(p, q)| p.text == q.text);
        let mut fwd = map_bodies(&nx, &ny);
        let mut back = map_bodies(&ny, &nx);
        // RefactoringMiner's Extract (Inline) Variable inside the method: a local only one side
        // declares stands for its initializer there (`Dictionary d = load(..); new Hunspell(d, ..)`
        // for `new Hunspell(load(..))`). Tried when the bodies as written share no majority.
        let short = |f: &Mapping, b: &Mapping| {
            let m = f.mapped.min(b.mapped);
            !(m > f.solid - m && m > b.solid - m)
        };
        if short(&fwd, &back) {
            let (lx, ly) = (own_locals(x, y), own_locals(y, x));
            if !lx.is_empty() || !ly.is_empty() {
                sx.extend(lx);
                sy.extend(ly);
                let (vx, vy) = (norms(x, &sx), norms(y, &sy));
                let (vx, vy) = if moved { (strip(vx), strip(vy)) } else { (vx, vy) };
                let (f, b) = (map_bodies(&vx, &vy), map_bodies(&vy, &vx));
                if f.mapped.min(b.mapped) > fwd.mapped.min(back.mapped) {
                    (fwd, back) = (f, b);
                }
            }
        }
        let (sx_solid, sy_solid) = (fwd.solid, back.solid);
        let same_sig = x.params.iter().map(|p| &p.1).eq(y.params.iter().map(|p| &p.1));
        if sx_solid == 0 || sy_solid == 0 {
            // Nothing solid to compare: only an identical, non-empty body with the same parameters,
            // and (for renames) a call site that now uses the new name.
            let ok = identical
                && !nx.is_empty()
                && same_sig
                && (moved && x.name == y.name || !moved && self.call_sites_renamed(&x.name, &y.name));
            return ok.then_some((0.5, true));
        }
        let m = fwd.mapped.min(back.mapped);
        let majority = m > sx_solid - m && m > sy_solid - m;
        // RefactoringMiner's other two ways to a majority: one side wholly mapped, word for word,
        // and more mapped than half of what the other side has unmapped (a set-up method renamed
        // that gained a statement, `checkPlatforms()` become `setUp()`). Within a class only:
        // across classes look-alike helpers abound. A new method that matched methods call
        // without having called the old one was extracted from them, and the old one inlined
        // into it (`writeRecords(harness)` into the new `checkWriteAndCommit(..)`).
        let whole = !moved
            && (fwd.mapped == sx_solid && fwd.all_exact() && 2 * m > sy_solid - m
                || back.mapped == sy_solid && back.all_exact() && 2 * m > sx_solid - m)
            && !self.new_callers(&x.name, &y.name);
        if !majority && !whole {
            return if moved { None } else { self.same_body_beside_calls(mb, ma, &nx, &ny, same_sig) };
        }
        if x.name != y.name && moved && (m < 2 || fwd.exact == 0) {
            return None;
        }
        // A one-statement body (a getter, a delegation) moved elsewhere is the same method only
        // with the same signature; otherwise it is a new accessor that happens to look alike.
        if moved && sx_solid.max(sy_solid) <= 1 {
            // ... the parameter that became (or was) `this` aside.
            let (cx, cy) = (&self.b.class_of(mb).simple, &self.a.class_of(ma).simple);
            let px = x.params.iter().map(|p| &p.1).filter(|t| *t != cy);
            let py = y.params.iter().map(|p| &p.1).filter(|t| *t != cx);
            if !(px.eq(py) && x.ret == y.ret) {
                return None;
            }
        }
        let body_score = 2.0 * m as f64 / (sx_solid + sy_solid) as f64;
        // A rename nobody calls (a test method, an entry point) has only its body as evidence.
        if !moved && body_score < 0.75 && !whole && !self.call_sites_renamed(&x.name, &y.name) {
            return self.same_body_beside_calls(mb, ma, &nx, &ny, same_sig);
        }
        // Of equally good counterparts, the one whose statements match word for word is the method
        // (RefactoringMiner's mapper comparator counts exact matches before anything else): a
        // test renamed with its body intact beats a new variant of it that changes an argument.
        let exactness = (fwd.exact + back.exact) as f64 / (sx_solid + sy_solid) as f64;
        let score = body_score + if same_sig { 0.01 } else { 0.0 } + 0.001 * exactness;
        let pure = identical || (fwd.all_exact() && back.all_exact() && nx.len() == ny.len());
        Some((score, pure))
    }

    /// A rename whose body also lost code to a method extracted from it, or gained the body of a
    /// method inlined into it, which RefactoringMiner still pairs because its mapper sets the
    /// extracted or inlined statements aside: the before statements found word for word in a new method of the
    /// class that only the after method calls (its parameters read as the call's arguments) are
    /// accounted for, and so is the after statement holding that call; the reverse for a removed
    /// method only the before method called. What is left must then be one method: a clear
    /// majority mapped with the body score of a rename nobody calls, or the after method wholly
    /// found in the before one with the same parameter types and more mapped than half of what
    /// was dropped (RefactoringMiner's `nonMappedElementsT2 == 0` case). Nothing accounted for,
    /// no rename: the plain comparison has spoken. (score, pure)
    fn same_body_beside_calls(
        &self,
        mb: usize,
        ma: usize,
        nx: &[Norm],
        ny: &[Norm],
        same_sig: bool,
    ) -> Option<(f64, bool)> {
        let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
        let mut gone_x = vec![false; nx.len()];
        let mut gone_y = vec![false; ny.len()];
        let mut accounted = 0;
        // `before`: a removed method inlined into `y`; else a new method extracted from `x`.
        for before in [false, true] {
            let (caller, other, side) = if before { (x, y, self.b) } else { (y, x, self.a) };
            let theirs = if before { ny } else { nx };
            for call in &caller.calls {
                if other.calls.iter().any(|c| c.name == call.name) {
                    continue;
                }
                let helpers = if before {
                    self.removed_methods(&call.name, call.args.len())
                } else {
                    self.new_methods(&call.name, call.args.len())
                };
                for t in helpers {
                    let tm = &side.methods[t];
                    if tm.class != caller.class || t == if before { mb } else { ma } || !tm.has_body {
                        continue;
                    }
                    let src = norms(tm, &substitution(tm, call, &HashMap::new()));
                    let (gone_own, gone_theirs) =
                        if before { (&mut gone_x, &mut gone_y) } else { (&mut gone_y, &mut gone_x) };
                    let pool: Vec<&Norm> = theirs.iter().collect();
                    let mut used = gone_theirs.clone();
                    let mapping = map_onto(&src, &pool, &mut used);
                    let exact: Vec<usize> = mapping
                        .pairs
                        .iter()
                        .filter(|p| p.2 != Pairing::Fuzzy && !src[p.0].trivial)
                        .map(|p| p.1)
                        .collect();
                    // Most of the helper, and more than one statement unless that is all it holds.
                    let solid = src.iter().filter(|s| !s.trivial).count();
                    if exact.is_empty() || 2 * exact.len() <= solid || exact.len() < 2 && solid > 1 {
                        continue;
                    }
                    for j in exact {
                        gone_theirs[j] = true;
                        accounted += 1;
                    }
                    if let Some(k) = call.stmt {
                        gone_own[k] = true;
                    }
                }
            }
        }
        if accounted == 0 {
            return None;
        }
        let keep = |v: &[Norm], gone: &[bool]| -> Vec<Norm> {
            v.iter()
                .zip(gone)
                .filter(|(_, g)| !**g)
                .map(|(n, _)| Norm {
                    toks: n.toks.clone(),
                    text: n.text.clone(),
                    core: n.core.clone(),
                    trivial: n.trivial,
                })
                .collect()
        };
        let (rx, ry) = (keep(nx, &gone_x), keep(ny, &gone_y));
        let (fwd, back) = (map_bodies(&rx, &ry), map_bodies(&ry, &rx));
        let (sx, sy) = (fwd.solid, back.solid);
        let m = fwd.mapped.min(back.mapped);
        if sx == 0 || sy == 0 || m < 2 {
            return None;
        }
        let score = 2.0 * m as f64 / (sx + sy) as f64;
        let majority = m > sx - m && m > sy - m && score >= 0.75;
        let contained = same_sig && back.mapped == sy && back.all_exact() && 2 * m > sx - m;
        if !(majority || contained) {
            return None;
        }
        let exactness = (fwd.exact + back.exact) as f64 / (sx + sy) as f64;
        Some((score + if same_sig { 0.01 } else { 0.0 } + 0.001 * exactness, false))
    }

    /// Some matched method calls `new` after that did not call `old` before.
    fn new_callers(&self, old: &str, new: &str) -> bool {
        self.fwd.iter().enumerate().any(|(mb, ma)| {
            ma.is_some_and(|ma| {
                self.a.methods[ma].calls.iter().any(|c| c.name == new)
                    && !self.b.methods[mb].calls.iter().any(|c| c.name == old)
            })
        })
    }

    /// Some matched method called `old` before and calls `new` after.
    fn call_sites_renamed(&self, old: &str, new: &str) -> bool {
        self.fwd.iter().enumerate().any(|(mb, ma)| {
            let Some(ma) = *ma else { return false };
            let cb = self.b.methods[mb].calls.iter().filter(|c| c.name == old).count();
            let ca = self.a.methods[ma].calls.iter().filter(|c| c.name == new).count();
            cb > 0 && ca > 0
        })
    }

    // ---- extract and inline ------------------------------------------------------------------

    fn build_pairs(&mut self) {
        for (mb, ma) in self.fwd.iter().enumerate() {
            let Some(ma) = *ma else { continue };
            let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
            let mut counts: HashMap<&str, i32> = HashMap::new();
            for s in &y.stmts {
                *counts.entry(s.text.as_str()).or_default() += 1;
            }
            let mut removed = Vec::new();
            for (i, s) in x.stmts.iter().enumerate() {
                match counts.get_mut(s.text.as_str()) {
                    Some(c) if *c > 0 => *c -= 1,
                    _ => removed.push(i),
                }
            }
            let mut counts: HashMap<&str, i32> = HashMap::new();
            for s in &x.stmts {
                *counts.entry(s.text.as_str()).or_default() += 1;
            }
            let mut added = Vec::new();
            for (i, s) in y.stmts.iter().enumerate() {
                match counts.get_mut(s.text.as_str()) {
                    Some(c) if *c > 0 => *c -= 1,
                    _ => added.push(i),
                }
            }
            self.pairs.push(Pair { b: mb, a: ma, removed, added });
        }
    }

    /// Whether a mapping of a new (or removed) method onto a caller's changed statements is an
    /// extraction (or inlining), after RefactoringMiner's `extractMatchCondition`.
    fn enough(m: &Mapping) -> bool {
        m.mapped > 0
            && (m.mapped > m.unmapped()
                || (m.mapped > 1 && m.mapped >= m.unmapped())
                || (m.exact > 1 && m.unmapped() < 20)
                || (m.exact == 1 && m.unmapped() <= 10 + m.exact && (m.solid <= 2 * m.mapped + 1 || m.strong == 1)))
    }

    fn extracts(&mut self, across: bool) {
        let mut found: Vec<(usize, usize, Option<usize>, Mapping, usize, bool)> = Vec::new();
        for (pi, pair) in self.pairs.iter().enumerate() {
            let (bm, am) = (&self.b.methods[pair.b], &self.a.methods[pair.a]);
            if pair.removed.is_empty() {
                continue;
            }
            let renamed_params = renamed_parameters(bm, am);
            let before: Vec<Norm> =
                pair.removed.iter().map(|&i| self.before_norm(bm, &bm.stmts[i], &renamed_params)).collect();
            let pool: Vec<&Norm> = before.iter().collect();
            // A returned name is read as written: a getter of a renamed field is no evidence
            // that the code reading the old field was extracted.
            let plain: Vec<Norm> = if self.field_renames.contains_key(&bm.class) {
                pair.removed.iter().map(|&i| norm(&bm.stmts[i], &renamed_params)).collect()
            } else {
                Vec::new()
            };
            let plain_pool: Vec<&Norm> = if plain.is_empty() { pool.clone() } else { plain.iter().collect() };
            let (count_b, count_a) = (call_counts(bm), call_counts(am));
            let inits = removed_initializers(bm, &pair.removed);
            let gained = added_locals(am, &pair.added);
            let mut seen = Vec::new();
            // (call in the caller or in an extracted method, the substitution in force there)
            let mut queue: Vec<(&Call, Subst, usize)> = am.calls.iter().map(|c| (c, HashMap::new(), 0)).collect();
            while let Some((call, outer, depth)) = queue.pop() {
                let before_calls =
                    count_b.get(&(call.name.as_str(), call.args.len(), call.receiver.as_str())).copied().unwrap_or(0);
                let after_calls =
                    count_a.get(&(call.name.as_str(), call.args.len(), call.receiver.as_str())).copied().unwrap_or(0);
                if depth == 0 && after_calls <= before_calls {
                    continue;
                }
                for x in self.new_methods(&call.name, call.args.len()) {
                    let same_class = self.class_back.get(&self.a.methods[x].class) == Some(&bm.class)
                        || self.a.methods[x].class == am.class;
                    if same_class == across
                        || seen.contains(&x)
                        || (across && !call.qualified && !self.reachable(false, x, am.class))
                    {
                        continue;
                    }
                    let xm = &self.a.methods[x];
                    // Across classes, a receiver whose type is known must be able to hold the method.
                    let typed = if across && call.qualified && depth == 0 {
                        self.receiver_type(false, pair.a, call).map(|t| self.type_fits(false, &t, xm.class))
                    } else {
                        None
                    };
                    if typed == Some(false) {
                        continue;
                    }
                    let mut subst = substitution(xm, call, &outer);
                    let src = norms(xm, &subst);
                    let mut used = vec![false; pool.len()];
                    let mut mapping = map_onto(&src, &pool, &mut used);
                    // An untyped receiver across classes needs more than one statement of evidence.
                    if across && (call.qualified && typed.is_none() && mapping.mapped < 2 || mapping.exact == 0) {
                        mapping.mapped = 0;
                    }
                    // Moved to the receiver's class, `this` and its own calls were the receiver's
                    // (`getDueOn()` in `Loan` was `loan.getDueOn()`). Tried only when the plain
                    // mapping fails, for a receiver whose type is known to hold the method, and
                    // accepted only when every statement then maps exactly: a guess here would
                    // turn look-alike code into false moves.
                    if mapping.mapped == 0
                        && typed == Some(true)
                        && !call.receiver.is_empty()
                        && !call.receiver.contains(['(', '.'])
                    {
                        let rec: Vec<String> = call.receiver.split(' ').map(str::to_string).collect();
                        let mut moved = subst.clone();
                        moved.insert("this", rec.clone());
                        moved.insert(RECEIVER, rec.clone());
                        let src = norms(xm, &moved);
                        let mut used = vec![false; pool.len()];
                        let mut m = map_onto(&src, &pool, &mut used);
                        // The receiver may wrap what it was before: the one field of the new class
                        // of the receiver's former type is the receiver as it was (`tinyPack` in
                        // `InMemoryPack` for the `TemporaryBuffer.Heap pack` it replaced). Only a
                        // returned expression that sat in the caller's statement counts then: the
                        // wrapper's delegating mutators look like any code that used the old value.
                        if depth == 0
                            && !(m.exact > 0 && m.all_exact() && m.mapped == m.solid)
                            && let Some(k) = call.stmt
                            && let Some(old) = self.receiver_type(true, pair.b, call)
                        {
                            let fields = &self.a.classes[xm.class].fields;
                            let mut of_type = fields.iter().filter(|(_, t)| *t == old);
                            if let (Some((f, _)), None) = (of_type.next(), of_type.next()) {
                                let mut wrapped = moved.clone();
                                wrapped.insert(f.as_str(), rec);
                                let src = norms(xm, &wrapped);
                                let solid = src.iter().filter(|s| !s.trivial).count();
                                let mut w = Mapping { solid, ..Mapping::default() };
                                embedded_returns(&src, &pool, &mut w, &am.stmts[k].toks, call, false);
                                if w.mapped > 0 {
                                    m = w;
                                    moved = wrapped;
                                }
                            }
                        }
                        if m.exact > 0 && m.all_exact() && m.mapped == m.solid {
                            mapping = m;
                            subst = moved;
                        }
                    }
                    // An argument that was a removed local's initializer stands for the local
                    // (`range(new ArrayList<>(), 0, 50)` for `fileRanges.add(...)` after
                    // `List<FileRange> fileRanges = new ArrayList<>();` was removed); tried when
                    // the arguments as written do not map.
                    if !Self::enough(&mapping) && subst.values().any(|a| inits.contains_key(a.as_slice())) {
                        let mut local = subst.clone();
                        for arg in local.values_mut() {
                            if let Some(name) = inits.get(arg.as_slice()) {
                                *arg = vec![name.clone()];
                            }
                        }
                        let src = norms(xm, &local);
                        let mut used = vec![false; pool.len()];
                        let m = map_onto(&src, &pool, &mut used);
                        if Self::enough(&m) && !(across && m.exact == 0) {
                            mapping = m;
                            subst = local;
                        }
                    }
                    // A local the caller gained stands for its initializer, which the code had
                    // written out (`final int length = 100;` then `range(ranges, 0, length)` for
                    // `ranges.add(FileRange.createFileRange(0, 100))`); tried, alone and with the
                    // removed locals above, when the arguments as written map nothing exactly.
                    if (!Self::enough(&mapping) || across && mapping.exact == 0)
                        && let Some(inlined) = inline_locals(xm, &subst, &gained)
                    {
                        let mut with_inits = inlined.clone();
                        for arg in with_inits.values_mut() {
                            if let Some(name) = inits.get(arg.as_slice()) {
                                *arg = vec![name.clone()];
                            }
                        }
                        for local in [inlined, with_inits] {
                            let src = norms(xm, &local);
                            let mut used = vec![false; pool.len()];
                            let m = map_onto(&src, &pool, &mut used);
                            if Self::enough(&m) && m.exact > 0 && m.exact >= mapping.exact {
                                mapping = m;
                                subst = local;
                                break;
                            }
                        }
                    }
                    // The new method's own locals, which the caller had written out where they
                    // are used (`assertThat(new Tokenizer(input).execute())` for `String[] actual
                    // = new Tokenizer(input).execute(); assertThat(actual)`).
                    if !Self::enough(&mapping) {
                        let own = own_locals(xm, bm);
                        if !own.is_empty() {
                            let mut inlined = subst.clone();
                            for (name, init) in own {
                                let init = init
                                    .iter()
                                    .flat_map(|t| subst.get(t.as_str()).cloned().unwrap_or_else(|| vec![t.clone()]))
                                    .collect();
                                inlined.insert(name, init);
                            }
                            let m = map_onto(&norms(xm, &inlined), &pool, &mut vec![false; pool.len()]);
                            if Self::enough(&m) && m.exact > 0 && !(across && m.exact < 2) {
                                mapping = m;
                                subst = inlined;
                            }
                        }
                    }
                    if depth == 0
                        && !Self::enough(&mapping)
                        && let Some(k) = call.stmt
                    {
                        embedded_returns(&src, &plain_pool, &mut mapping, &am.stmts[k].toks, call, !across);
                    }
                    if across
                        && depth == 0
                        && !Self::enough(&mapping)
                        && let Some(k) = call.stmt
                    {
                        // Fuzzy pairs judged too weak above must not keep the creation from pairing.
                        if mapping.mapped == 0 {
                            mapping = mapping.rejected();
                        }
                        returned_creation(&src, &pool, &mut mapping, &am.stmts[k].toks, call);
                    }
                    // A new method that only forwards to another new one (`range(offset, length)`
                    // returning `range(new ArrayList<>(), offset, length)`) is a hop, not the
                    // extracted code: the method it forwards to is tried with the arguments it passes.
                    if !Self::enough(&mapping) && depth < 2 && self.forwarded(false, xm).is_some() {
                        for c in &xm.calls {
                            queue.push((c, subst.clone(), depth + 1));
                        }
                    }
                    if Self::enough(&mapping) {
                        seen.push(x);
                        if depth < 2 {
                            for c in &xm.calls {
                                queue.push((c, subst.clone(), depth + 1));
                            }
                        }
                        let pure = depth == 0 && mapping.all_exact() && self.only_calls(pair, &call.name, false);
                        found.push((pi, x, call_index(am, call), mapping, depth, pure));
                    }
                }
            }
            if !across {
                for (x, j) in self.referenced_lambdas(pair, &pool) {
                    if !seen.contains(&x) {
                        seen.push(x);
                        let mapping =
                            Mapping { pairs: vec![(0, j, Pairing::Core)], solid: 1, mapped: 1, exact: 1, strong: 0 };
                        found.push((pi, x, None, mapping, 0, false));
                    }
                }
            }
        }
        for (pi, x, call, mapping, _, pure) in found {
            let (mb, ma) = (self.pairs[pi].b, self.pairs[pi].a);
            self.used_a[x] = true;
            if !across {
                // What the extracted method holds besides the caller's own statements.
                let from_caller: Vec<usize> = mapping.pairs.iter().map(|p| p.0).collect();
                let added = (0..self.a.methods[x].stmts.len()).filter(|i| !from_caller.contains(i)).collect();
                self.into_extracted.push(Pair { b: mb, a: x, removed: self.pairs[pi].removed.clone(), added });
            }
            let (bm, xm) = (&self.b.methods[mb], &self.a.methods[x]);
            let description = if across {
                format!(
                    "Extract And Move Method\t{} extracted from {} in class {} & moved to class {}",
                    xm.desc,
                    bm.desc,
                    self.b.class_of(mb).name,
                    self.a.class_of(x).name
                )
            } else {
                format!("Extract Method\t{} extracted from {} in class {}", xm.desc, bm.desc, self.a.class_of(ma).name)
            };
            let removed = &self.pairs[pi].removed;
            let mut left = vec![self.decl(true, mb, "source method declaration before extraction")];
            for &(_, j, _) in &mapping.pairs {
                left.push(self.stmt(true, mb, removed[j], "extracted code from source method declaration"));
            }
            let mut right = vec![self.decl(false, x, "extracted method declaration")];
            for &(i, _, _) in &mapping.pairs {
                right.push(self.stmt(false, x, i, "extracted code to extracted method declaration"));
            }
            right.push(self.decl(false, ma, "source method declaration after extraction"));
            if let Some(c) = call {
                right.push(self.call_loc(false, ma, c, "extracted method invocation"));
            }
            let kind = if across { RefactoringType::ExtractAndMoveMethod } else { RefactoringType::ExtractMethod };
            self.push(kind, description, left, right, pure, (true, mb), (false, x));
        }
    }

    fn inlines(&mut self, across: bool) {
        let mut found: Vec<(usize, usize, usize, usize, Mapping, bool)> = Vec::new();
        for (pi, pair) in self.pairs.iter().enumerate() {
            let (bm, am) = (&self.b.methods[pair.b], &self.a.methods[pair.a]);
            if pair.added.is_empty() {
                continue;
            }
            let empty = HashMap::new();
            let after: Vec<Norm> = pair.added.iter().map(|&i| norm(&am.stmts[i], &empty)).collect();
            let pool: Vec<&Norm> = after.iter().collect();
            let (count_b, count_a) = (call_counts(bm), call_counts(am));
            let inits = removed_initializers(am, &pair.added);
            let lost = added_locals(bm, &pair.removed);
            let mut seen = Vec::new();
            for (ci, call) in bm.calls.iter().enumerate() {
                let before_calls =
                    count_b.get(&(call.name.as_str(), call.args.len(), call.receiver.as_str())).copied().unwrap_or(0);
                let after_calls =
                    count_a.get(&(call.name.as_str(), call.args.len(), call.receiver.as_str())).copied().unwrap_or(0);
                if after_calls >= before_calls {
                    continue;
                }
                for r in self.removed_methods(&call.name, call.args.len()) {
                    let same_class = self.class_fwd.get(&self.b.methods[r].class) == Some(&am.class)
                        || self.b.methods[r].class == bm.class;
                    if same_class == across
                        || seen.contains(&r)
                        || (across && !call.qualified && !self.reachable(true, r, bm.class))
                    {
                        continue;
                    }
                    let rm = &self.b.methods[r];
                    let typed = if across && call.qualified {
                        self.receiver_type(true, pair.b, call).map(|t| self.type_fits(true, &t, rm.class))
                    } else {
                        None
                    };
                    if typed == Some(false) {
                        continue;
                    }
                    let subst = substitution(rm, call, &HashMap::new());
                    let src = self.before_norms(rm, &subst);
                    let mut used = vec![false; pool.len()];
                    let mut mapping = map_onto(&src, &pool, &mut used);
                    if across && call.qualified && typed.is_none() && mapping.mapped < 2 {
                        mapping.mapped = 0;
                    }
                    // The caller's locals, as for extractions the other way round: an argument
                    // that initialises a local the caller gained stands for that local, a local
                    // it lost for its initializer.
                    if !Self::enough(&mapping) || across && mapping.exact == 0 {
                        for local in local_variants(rm, &subst, &inits, &lost) {
                            let m = map_onto(&self.before_norms(rm, &local), &pool, &mut vec![false; pool.len()]);
                            if Self::enough(&m) && m.exact > 0 && m.exact >= mapping.exact {
                                mapping = m;
                                break;
                            }
                        }
                    }
                    if !Self::enough(&mapping)
                        && let Some(k) = call.stmt
                    {
                        embedded_returns(&norms(rm, &subst), &pool, &mut mapping, &bm.stmts[k].toks, call, !across);
                    }
                    let mut body = r;
                    // A removed method that only forwarded to another removed one was inlined
                    // with it: the code in the caller is the other's, with the arguments passed on.
                    if !Self::enough(&mapping)
                        && let Some((inner, next)) = self.forwarded(true, rm)
                    {
                        let outer = substitution(&self.b.methods[next], inner, &subst);
                        let nm = &self.b.methods[next];
                        let mut variants = vec![outer.clone()];
                        variants.extend(local_variants(nm, &outer, &inits, &lost));
                        for local in variants {
                            let m = map_onto(&self.before_norms(nm, &local), &pool, &mut vec![false; pool.len()]);
                            if Self::enough(&m) && (m.exact > 0 || !across) {
                                mapping = m;
                                body = next;
                                break;
                            }
                        }
                    }
                    if Self::enough(&mapping) {
                        seen.push(r);
                        let pure = body == r && mapping.all_exact() && self.only_calls(pair, &call.name, true);
                        found.push((pi, r, body, ci, mapping, pure));
                    }
                }
            }
        }
        for (pi, r, body, ci, mapping, pure) in found {
            let (mb, ma) = (self.pairs[pi].b, self.pairs[pi].a);
            self.used_b[r] = true;
            let (rm, am) = (&self.b.methods[r], &self.a.methods[ma]);
            let description = if across {
                format!(
                    "Move And Inline Method\t{} moved from class {} to class {} & inlined to {}",
                    rm.desc,
                    self.b.class_of(r).name,
                    self.a.class_of(ma).name,
                    am.desc
                )
            } else {
                format!("Inline Method\t{} inlined to {} in class {}", rm.desc, am.desc, self.a.class_of(ma).name)
            };
            let added = &self.pairs[pi].added;
            let mut left = vec![
                self.decl(true, r, "inlined method declaration"),
                self.decl(true, mb, "target method declaration before inline"),
                self.call_loc(true, mb, ci, "inlined method invocation"),
            ];
            for &(i, _, _) in &mapping.pairs {
                left.push(self.stmt(true, body, i, "inlined code from inlined method declaration"));
            }
            let mut right = vec![self.decl(false, ma, "target method declaration after inline")];
            for &(_, j, _) in &mapping.pairs {
                right.push(self.stmt(false, ma, added[j], "inlined code in target method declaration"));
            }
            let kind = if across { RefactoringType::MoveAndInlineMethod } else { RefactoringType::InlineMethod };
            self.push(kind, description, left, right, pure, (true, r), (false, ma));
        }
    }

    /// Whether method `m` can be called without a receiver from `class` (same side): static
    /// (imported or qualified elsewhere), declared in an enclosing class, or inherited.
    fn reachable(&self, before: bool, m: usize, class: usize) -> bool {
        let side = self.side(before);
        let owner = side.class_of(m);
        let caller = &side.classes[class];
        side.methods[m].is_static
            || caller.name.starts_with(&format!("{}.", owner.name))
            || self.inherits(side, class, &owner.simple, 4)
    }

    /// The erased simple type of a call's receiver in method `m`, when it can be told from the
    /// declarations at hand: a parameter, local or field by that name, a class name, `new T(..)`.
    fn receiver_type(&self, before: bool, m: usize, call: &Call) -> Option<String> {
        let side = self.side(before);
        let method = &side.methods[m];
        let toks: Vec<&str> = call.receiver.split(' ').collect();
        if toks.first() == Some(&"new") {
            return toks.get(1).map(|t| t.to_string());
        }
        if toks.len() != 1 {
            // `a.b.C` (a qualified class name) ends in its simple name; anything else is unknown.
            let names = toks.iter().step_by(2).all(|t| t.starts_with(|c: char| c.is_alphabetic()));
            let dots = toks.iter().skip(1).step_by(2).all(|t| *t == ".");
            let last = toks.last()?;
            return (names && dots && last.starts_with(|c: char| c.is_uppercase())).then(|| last.to_string());
        }
        let name = toks[0];
        if let Some((_, t)) = method.params.iter().find(|(n, _)| n == name) {
            return Some(super::model::erase(t, 0));
        }
        if let Some((_, t)) = method.locals.iter().find(|(n, _)| n == name) {
            return Some(t.clone());
        }
        // Fields of the class, its enclosing classes and its superclasses at hand.
        let mut class_name = side.class_of(m).name.clone();
        loop {
            if let Some(&c) = side.class_by_name.get(&class_name) {
                let class = &side.classes[c];
                let supers = class.supers.iter().filter_map(|s| side.classes.iter().find(|k| k.simple == *s));
                for k in std::iter::once(class).chain(supers) {
                    if let Some((_, t)) = k.fields.iter().find(|(n, _)| n == name) {
                        return Some(t.clone());
                    }
                }
            }
            match class_name.rfind('.') {
                Some(i) => class_name.truncate(i),
                None => break,
            }
        }
        name.starts_with(|c: char| c.is_uppercase()).then(|| name.to_string())
    }

    /// Whether a receiver of type `ty` can hold methods of `class`: the class, a supertype of it
    /// (an override), or a subtype of it (an inherited method).
    fn type_fits(&self, before: bool, ty: &str, class: usize) -> bool {
        let side = self.side(before);
        let target = &side.classes[class];
        target.simple == ty
            || target.supers.iter().any(|s| s == ty)
            || side.classes.iter().enumerate().any(|(i, c)| c.simple == ty && self.inherits(side, i, &target.simple, 4))
    }

    /// Whether `class` has a supertype named `simple`, looking `depth` levels up through the side's classes.
    fn inherits(&self, side: &Side, class: usize, simple: &str, depth: u32) -> bool {
        let supers = &side.classes[class].supers;
        if supers.iter().any(|s| s == simple) {
            return true;
        }
        depth > 0
            && supers.iter().any(|s| {
                side.classes
                    .iter()
                    .enumerate()
                    .any(|(i, c)| c.simple == *s && i != class && self.inherits(side, i, simple, depth - 1))
            })
    }

    /// A new (`before`: removed) method whose body is one call of another such method and
    /// nothing else (`return f(a, b);` or `f(a, b);`): that call and the method it reaches.
    fn forwarded<'m>(&self, before: bool, m: &'m Method) -> Option<(&'m Call, usize)> {
        let [st] = m.stmts.as_slice() else { return None };
        let n = st.toks.len();
        m.calls.iter().find_map(|c| {
            let whole = call_range(&st.toks, c)
                .is_some_and(|(start, end)| end + 1 == n && (start == 0 || start == 1 && st.toks[0] == "return"));
            if !whole {
                return None;
            }
            let side = self.side(before);
            let targets = if before {
                self.removed_methods(&c.name, c.args.len())
            } else {
                self.new_methods(&c.name, c.args.len())
            };
            let next = targets.into_iter().find(|&t| !std::ptr::eq(&side.methods[t], m))?;
            Some((c, next))
        })
    }

    /// Added methods (not matched, not explained yet) named `name` that accept `args` arguments.
    fn new_methods(&self, name: &str, args: usize) -> Vec<usize> {
        let all = self.by_name_a.get(name).map(Vec::as_slice).unwrap_or_default();
        all.iter()
            .copied()
            .filter(|&m| self.back[m].is_none() && !self.used_a[m] && accepts(&self.a.methods[m], args))
            .collect()
    }

    fn removed_methods(&self, name: &str, args: usize) -> Vec<usize> {
        let all = self.by_name_b.get(name).map(Vec::as_slice).unwrap_or_default();
        all.iter()
            .copied()
            .filter(|&m| self.fwd[m].is_none() && !self.used_b[m] && accepts(&self.b.methods[m], args))
            .collect()
    }

    /// Whether the caller's other changes are only the calls replacing (or replaced by) the code.
    fn only_calls(&self, pair: &Pair, name: &str, inline: bool) -> bool {
        let (m, changed) =
            if inline { (&self.b.methods[pair.b], &pair.removed) } else { (&self.a.methods[pair.a], &pair.added) };
        changed.iter().all(|&i| m.stmts[i].trivial || m.calls.iter().any(|c| c.stmt == Some(i) && c.name == name))
    }

    // ---- moves -------------------------------------------------------------------------------

    fn moves(&mut self) {
        let removed: Vec<usize> = (0..self.b.methods.len())
            .filter(|&m| self.fwd[m].is_none() && !self.used_b[m] && !self.b.methods[m].ctor)
            .collect();
        let added: Vec<usize> = (0..self.a.methods.len())
            .filter(|&m| self.back[m].is_none() && !self.used_a[m] && !self.a.methods[m].ctor)
            .collect();
        // Differently named methods are compared only when they share a solid statement.
        let mut holders: HashMap<&str, Vec<usize>> = HashMap::new();
        for &ma in &added {
            let y = &self.a.methods[ma];
            if y.solid() >= 2 {
                for s in y.stmts.iter().filter(|s| !s.trivial) {
                    let v = holders.entry(s.text.as_str()).or_default();
                    if v.last() != Some(&ma) {
                        v.push(ma);
                    }
                }
            }
        }
        let mut candidates = Vec::new();
        for &mb in &removed {
            let x = &self.b.methods[mb];
            let mut others: Vec<usize> = self.by_name_a.get(x.name.as_str()).cloned().unwrap_or_default();
            others.retain(|m| self.back[*m].is_none() && !self.used_a[*m] && !self.a.methods[*m].ctor);
            if x.solid() >= 2 {
                for s in x.stmts.iter().filter(|s| !s.trivial) {
                    others.extend(holders.get(s.text.as_str()).into_iter().flatten());
                }
            }
            others.sort_unstable();
            others.dedup();
            for ma in others {
                let y = &self.a.methods[ma];
                if self.class_fwd.get(&x.class) == Some(&y.class) {
                    continue;
                }
                if let Some((score, pure)) = self.same_body(mb, ma, true) {
                    candidates.push((x.name == y.name, score, mb, ma, pure));
                }
            }
        }
        candidates.sort_by(|p, q| (q.0, q.1).partial_cmp(&(p.0, p.1)).unwrap_or(std::cmp::Ordering::Equal));
        let mut pushed = Vec::new();
        let mut split = vec![false; self.b.methods.len()];
        for &(same_name, score, mb, ma, pure) in &candidates {
            if self.used_b[mb] || self.used_a[ma] || split[mb] {
                continue;
            }
            let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
            let (cx, cy) = (self.b.class_of(mb), self.a.class_of(ma));
            let cx_after = self.class_fwd.get(&x.class).map(|&c| self.a.classes[c].simple.as_str()).unwrap_or("");
            let kind = if cy.supers.contains(&cx.simple) || cy.supers.iter().any(|s| s == cx_after) {
                RefactoringType::PushDownMethod
            } else if cx.supers.contains(&cy.simple) || self.after_supers(mb).contains(&cy.simple) {
                RefactoringType::PullUpMethod
            } else if x.name == y.name {
                RefactoringType::MoveMethod
            } else {
                RefactoringType::MoveAndRenameMethod
            };
            // A method copied into several unrelated classes that fit it equally well (generated
            // variants, one per type) moved to none of them in particular: naming one would be a
            // guess. Copies into subclasses are a push down, handled below.
            let rivals = candidates
                .iter()
                .filter(|c| c.2 == mb && c.3 != ma && (c.0, c.1) == (same_name, score) && !self.used_a[c.3])
                .count();
            if rivals > 0 && matches!(kind, RefactoringType::MoveMethod | RefactoringType::MoveAndRenameMethod) {
                split[mb] = true;
                continue;
            }
            let cx_simple = cx.simple.clone();
            self.push_move(kind, mb, ma, pure);
            if kind == RefactoringType::PushDownMethod {
                pushed.push((mb, cx_simple, cx_after.to_string()));
            }
        }
        self.moved_one_liners();
        // A method pushed down usually lands in every subclass: the other copies are the same push.
        for (mb, sup, sup_after) in pushed {
            let x = &self.b.methods[mb];
            let copies: Vec<usize> = self
                .by_name_a
                .get(x.name.as_str())
                .into_iter()
                .flatten()
                .copied()
                .filter(|&ma| self.back[ma].is_none() && !self.used_a[ma] && self.a.methods[ma].key == x.key)
                .filter(|&ma| self.a.class_of(ma).supers.iter().any(|s| *s == sup || *s == sup_after))
                .collect();
            for ma in copies {
                let Some((_, pure)) = self.same_body(mb, ma, true) else { continue };
                self.push_move(RefactoringType::PushDownMethod, mb, ma, pure);
            }
        }
    }

    /// Move And Rename of a one-statement method into a class the change added (a JUnit 4
    /// `@Parameters data()` that became `arguments()` of a new nested provider class): the body
    /// is the only evidence, so it must be the same statement word for word, one that passes
    /// arguments, with the same parameters, and no other removed or added method may have it.
    /// Methods with the same name are [`Self::moves`]'s; bodies of two statements or more too.
    fn moved_one_liners(&mut self) {
        fn one(side: &Side, m: usize) -> Option<&str> {
            let method = &side.methods[m];
            let [st] = method.stmts.as_slice() else { return None };
            (!method.ctor && !st.trivial && norm(st, &HashMap::new()).strong()).then_some(st.text.as_str())
        }
        let mut removed: HashMap<&str, Vec<usize>> = HashMap::new();
        for mb in (0..self.b.methods.len()).filter(|&m| self.fwd[m].is_none() && !self.used_b[m]) {
            if let Some(text) = one(self.b, mb) {
                removed.entry(text).or_default().push(mb);
            }
        }
        let mut added: HashMap<&str, Vec<usize>> = HashMap::new();
        for ma in (0..self.a.methods.len()).filter(|&m| self.back[m].is_none() && !self.used_a[m]) {
            if let Some(text) = one(self.a, ma) {
                added.entry(text).or_default().push(ma);
            }
        }
        let mut found = Vec::new();
        for (text, bs) in &removed {
            let (Some(r#as), [mb]) = (added.get(text), bs.as_slice()) else { continue };
            let [ma] = r#as.as_slice() else { continue };
            let (x, y) = (&self.b.methods[*mb], &self.a.methods[*ma]);
            if x.name != y.name
                && !self.class_back.contains_key(&y.class)
                && x.params.iter().map(|p| &p.1).eq(y.params.iter().map(|p| &p.1))
            {
                found.push((*mb, *ma));
            }
        }
        found.sort_unstable();
        for (mb, ma) in found {
            self.push_move(RefactoringType::MoveAndRenameMethod, mb, ma, true);
        }
    }

    /// Reports a method moved between classes (Move, Move And Rename, Pull Up, Push Down) and
    /// marks both sides explained.
    fn push_move(&mut self, kind: RefactoringType, mb: usize, ma: usize, pure: bool) {
        self.used_b[mb] = true;
        self.used_a[ma] = true;
        let description = format!(
            "{}\t{} from class {} to {} from class {}",
            kind.display_name(),
            self.b.methods[mb].desc,
            self.b.class_of(mb).name,
            self.a.methods[ma].desc,
            self.a.class_of(ma).name
        );
        let left = vec![self.decl(true, mb, "original method declaration")];
        let right = vec![self.decl(false, ma, "moved method declaration")];
        self.push(kind, description, left, right, pure, (true, mb), (false, ma));
    }

    /// The supertypes of a before method's class as they are after the change.
    fn after_supers(&self, mb: usize) -> &[String] {
        match self.class_fwd.get(&self.b.methods[mb].class) {
            Some(&ca) => &self.a.classes[ca].supers,
            None => &[],
        }
    }

    // ---- output ------------------------------------------------------------------------------

    /// Records a refactoring of `subject` (before) with `other` (after) as its counterpart.
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        kind: RefactoringType,
        description: String,
        left: Vec<Location>,
        right: Vec<Location>,
        pure: bool,
        subject: (bool, usize),
        other: (bool, usize),
    ) {
        let (sm, sc) = self.names(subject);
        let (om, oc) = self.names(other);
        let signature = self.side(subject.0).methods[subject.1].key.clone();
        self.out.push(Refactoring {
            kind,
            code: kind.code().to_string(),
            description,
            left_side_locations: left,
            right_side_locations: right,
            pure,
            subject: Subject { method: sm, signature, class: sc, other_method: om, other_class: oc },
        });
    }

    fn names(&self, (before, m): (bool, usize)) -> (String, String) {
        let side = self.side(before);
        (side.methods[m].name.clone(), side.class_of(m).name.clone())
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

/// The local declarations `T v = init;` a method gained, as `v` → init tokens.
fn added_locals(m: &Method, added: &[usize]) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for &i in added {
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
    let named = |s: &HashMap<&'m str, Vec<String>>| {
        let mut out = s.clone();
        let mut changed = false;
        for arg in out.values_mut() {
            if let Some(name) = inits.get(arg.as_slice()) {
                *arg = vec![name.clone()];
                changed = true;
            }
        }
        changed.then_some(out)
    };
    let mut out = Vec::new();
    out.extend(named(subst));
    if let Some(inlined) = inline_locals(callee, subst, locals) {
        out.extend(named(&inlined));
        out.push(inlined);
    }
    out
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
        let arg: Vec<String> = arg
            .iter()
            .flat_map(|t| match outer.get(t.as_str()) {
                Some(rep) => rep.clone(),
                None => vec![t.clone()],
            })
            .collect();
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
