//! Statement mapping, the layer every rule above it stands on: a method's statements
//! normalised (parameters read as the call's arguments, a moved method's receiver spelled out),
//! then mapped onto a pool of another method's statements (word for word, by what they compute,
//! then by replaced expressions), with the extra pairings RefactoringMiner makes for code that
//! changed shape on the way: a returned expression that sat inside its caller's statement, a
//! guard that was a condition, a creation whose arguments a builder now supplies.

use super::*;

/// How close a fuzzy statement match must be (token LCS similarity).
const FUZZY: f64 = 0.75;

/// A statement ready for comparison: normalised, with substitutions applied.
#[derive(Clone)]
pub(super) struct Norm {
    pub(super) toks: Vec<String>,
    pub(super) text: String,
    pub(super) core: Option<String>,
    pub(super) trivial: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pairing {
    Exact,
    /// `return e;` with `T v = e;` or `v = e;`.
    Core,
    Fuzzy,
}

/// The outcome of mapping a method's statements onto a pool.
#[derive(Debug, Clone, Default)]
pub(super) struct Mapping {
    /// (source statement, pool statement, how): indices into the `Norm` lists.
    pub(super) pairs: Vec<(usize, usize, Pairing)>,
    /// Solid (non-trivial) source statements.
    pub(super) solid: usize,
    /// Solid source statements mapped.
    pub(super) mapped: usize,
    /// Solid source statements mapped exactly (text or core).
    pub(super) exact: usize,
    /// Exact pairs whose source statement is substantial evidence on its own: a statement or a
    /// block's header that passes arguments or assigns (`synchronized (pool)` is shared by any
    /// code guarded the same way), and neither throws (RefactoringMiner's
    /// `throwsNewExceptionExactMatch`) nor chains to another constructor. One such statement may carry an extraction whose new
    /// method adds more around it (`zk.safeDelete(path, acl, fencing);` wrapped in a `try`).
    pub(super) strong: usize,
}

impl Mapping {
    /// The one statement of a method (a lambda's body made a method, say) paired exactly, by its
    /// core, with pool statement `j`.
    pub(super) fn single(j: usize) -> Mapping {
        Mapping { pairs: vec![(0, j, Pairing::Core)], solid: 1, mapped: 1, exact: 1, strong: 0 }
    }

    /// No statement mapped, so that the later rules start from nothing rather than from pairs
    /// that were judged too weak.
    pub(super) fn rejected(&self) -> Mapping {
        Mapping { solid: self.solid, ..Mapping::default() }
    }
    pub(super) fn unmapped(&self) -> usize {
        self.solid - self.mapped
    }
    /// Which source and which pool statements are paired already.
    pub(super) fn taken(&self, src: usize, pool: usize) -> (Vec<bool>, Vec<bool>) {
        let (mut done, mut used) = (vec![false; src], vec![false; pool]);
        for &(i, j, _) in &self.pairs {
            done[i] = true;
            used[j] = true;
        }
        (done, used)
    }
    /// The pairs with their source statements renumbered by `origin` (see [`ternary_variant`]),
    /// each source statement once; the counts stay those of the variant.
    pub(super) fn renumbered(mut self, origin: &[usize]) -> Mapping {
        let mut seen = Vec::new();
        self.pairs.retain_mut(|p| {
            p.0 = origin[p.0];
            let first = !seen.contains(&p.0);
            seen.push(p.0);
            first
        });
        self
    }

    pub(super) fn all_exact(&self) -> bool {
        self.mapped == self.solid && self.pairs.iter().all(|p| p.2 != Pairing::Fuzzy)
    }
}

/// `e` of the statement `return e;` (`e` not empty), as tokens.
pub(super) fn returned_expr(toks: &[String]) -> Option<&[String]> {
    let k = toks.len();
    (k > 2 && toks[0] == "return" && toks[k - 1] == ";").then(|| &toks[1..k - 1])
}

impl Norm {
    /// `e` of `return e;`.
    pub(super) fn returned(&self) -> Option<&[String]> {
        returned_expr(&self.toks)
    }

    /// See [`Mapping::strong`].
    pub(super) fn strong(&self) -> bool {
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

pub(super) fn norms(m: &Method, subst: &HashMap<&str, Vec<String>>) -> Vec<Norm> {
    m.stmts.iter().map(|s| norm(s, subst)).collect()
}

/// The key of a substitution that holds the receiver a moved method was called on: its own
/// unqualified calls are that receiver's calls in the code it came from (`getDueOn()` in `Loan`
/// was `loan.getDueOn()` in `LoanDesk`), as `this` is the receiver.
pub(super) const RECEIVER: &str = "(receiver)";

pub(super) fn norm(s: &Stmt, subst: &HashMap<&str, Vec<String>>) -> Norm {
    if subst.is_empty() {
        return Norm { toks: s.toks.clone(), text: s.text.clone(), core: s.core.clone(), trivial: s.trivial };
    }
    let receiver = subst.get(RECEIVER);
    let mut toks = Vec::with_capacity(s.toks.len());
    // A name replaced by `this` before a dot reads as the tokenizer reads `this.x`: `x`.
    let mut skip_dot = false;
    for (i, t) in s.toks.iter().enumerate() {
        if std::mem::take(&mut skip_dot) && t == "." {
            continue;
        }
        let after_dot = i > 0 && s.toks[i - 1] == ".";
        if let Some(rec) = receiver
            && !after_dot
            && s.toks.get(i + 1).is_some_and(|n| n == "(")
            && !(i > 0 && s.toks[i - 1] == "new")
            && t.starts_with(|c: char| c.is_ascii_lowercase())
            && !replace::is_keyword(t)
        {
            toks.extend(rec.iter().cloned());
            toks.push(".".into());
            toks.push(t.clone());
            continue;
        }
        match subst.get(t.as_str()) {
            Some(rep)
                if !after_dot && rep.len() == 1 && rep[0] == "this" && s.toks.get(i + 1).is_some_and(|n| n == ".") =>
            {
                skip_dot = true;
            }
            Some(rep) if !after_dot => toks.extend(rep.iter().cloned()),
            _ => toks.push(t.clone()),
        }
    }
    let core = core_of(&toks);
    Norm { text: toks.join(" "), toks, core, trivial: s.trivial }
}

/// `src` with every `return c ? a : b;` read as the `if (c)` it was written as, assigning `a`
/// and `b` (`return a;` pairs with `v = a;` by its core), and for each statement of the result
/// the index of the one it comes from. `None` when no statement returns a conditional.
/// RefactoringMiner maps a conditional expression onto an `if`/`else` the same way.
pub(super) fn ternary_variant(src: &[Norm]) -> Option<(Vec<Norm>, Vec<usize>)> {
    let mut out = Vec::new();
    let mut origin = Vec::new();
    let mut any = false;
    for (i, n) in src.iter().enumerate() {
        let parts = n.returned().and_then(conditional);
        let Some((c, a, b)) = parts else {
            out.push(n.clone());
            origin.push(i);
            continue;
        };
        any = true;
        let stmt = |toks: Vec<String>| {
            let core = core_of(&toks);
            Norm { text: toks.join(" "), toks, core, trivial: false }
        };
        let ret = |e: &[String]| {
            stmt(std::iter::once("return".to_string()).chain(e.iter().cloned()).chain([";".into()]).collect())
        };
        let header: Vec<String> =
            ["if", "("].iter().map(|t| t.to_string()).chain(c.iter().cloned()).chain([")".into()]).collect();
        for piece in [stmt(header), ret(a), ret(b)] {
            out.push(piece);
            origin.push(i);
        }
    }
    any.then_some((out, origin))
}

/// After [`map_onto`] of a [`ternary_variant`]: a branch value left unpaired (`return 0;`) pairs
/// with the assignment or declaration of that value (`long start = 0;`) even when it is a single
/// token, which a plain core never pairs on.
pub(super) fn pair_branch_values(
    variant: &[Norm],
    origin: &[usize],
    pool: &[&Norm],
    used: &mut [bool],
    m: &mut Mapping,
) {
    let paired: Vec<usize> = m.pairs.iter().map(|p| p.0).collect();
    for (i, n) in variant.iter().enumerate() {
        let from_ternary = origin.iter().filter(|&&o| o == origin[i]).count() > 1;
        if !from_ternary || paired.contains(&i) || n.toks.first().is_none_or(|t| t != "return") {
            continue;
        }
        let Some(core) = n.core.as_deref() else { continue };
        if let Some(j) = (0..pool.len())
            .find(|&j| !used[j] && pool[j].core.as_deref() == Some(core) && pool[j].toks.contains(&"=".to_string()))
        {
            used[j] = true;
            m.pairs.push((i, j, Pairing::Core));
            m.mapped += 1;
            m.exact += 1;
        }
    }
}

/// `c`, `a` and `b` of the conditional expression `c ? a : b` (its `?` and `:` at depth 0).
fn conditional(e: &[String]) -> Option<(&[String], &[String], &[String])> {
    let mut depth = 0i32;
    let (mut q, mut colon, mut nested) = (None, None, 0);
    for (k, t) in e.iter().enumerate() {
        match t.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "?" if depth == 0 && q.is_none() => q = Some(k),
            "?" if depth == 0 => nested += 1,
            ":" if depth == 0 && q.is_some() && nested > 0 => nested -= 1,
            ":" if depth == 0 && q.is_some() && colon.is_none() => colon = Some(k),
            _ => {}
        }
    }
    let (q, colon) = (q?, colon?);
    (q > 0 && colon > q + 1 && colon + 1 < e.len()).then(|| (&e[..q], &e[q + 1..colon], &e[colon + 1..]))
}

/// Maps `src` onto the statements of `pool` not yet `used`: exact text, then core, then fuzzy.
pub(super) fn map_onto(src: &[Norm], pool: &[&Norm], used: &mut [bool]) -> Mapping {
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
pub(super) fn embedded_returns(
    src: &[Norm],
    pool: &[&Norm],
    m: &mut Mapping,
    site: &[String],
    call: &Call,
    lone_name: bool,
) {
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
    if let Some(e) = src[i].returned() {
        return vec![e.to_vec()];
    }
    let t = &src[i].toks;
    let n = t.len();
    let Some(next) = src.get(i + 1) else { return Vec::new() };
    if t[0] != "if" || !is_header(&src[i]) || n < 5 {
        return Vec::new();
    }
    let c = &t[2..n - 1];
    let next = next.text.as_str();
    // `if (c) return a; [else] return b;` is `c ? a : b`.
    let rest = src[i + 2..].iter().find(|s| s.toks != ["else"]);
    if let (Some(a), Some(b)) = (src[i + 1].returned(), rest.and_then(Norm::returned))
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
    match next {
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
pub(super) fn returned_creation(src: &[Norm], pool: &[&Norm], m: &mut Mapping, site: &[String], call: &Call) {
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
pub(super) fn closing(toks: &[String], open: usize) -> Option<usize> {
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
pub(super) fn near_equal(x: &[String], y: &[String]) -> bool {
    if x.len() != y.len() {
        return false;
    }
    let mut diffs = (0..x.len()).filter(|&i| x[i] != y[i]);
    match (diffs.next(), diffs.next()) {
        (None, _) => true,
        (Some(i), None) => {
            let name = |t: &str| t.starts_with(|c: char| c.is_alphabetic() || c == '_') && !replace::is_keyword(t);
            name(&x[i]) && name(&y[i]) && x.get(i + 1).is_none_or(|n| n != "(" && n != ".")
        }
        _ => false,
    }
}

/// The token range of `call` (its receiver included) in a statement's tokens.
pub(super) fn call_range(toks: &[String], call: &Call) -> Option<(usize, usize)> {
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

/// Whether two bodies mapped onto each other, each way, share most of both: what both ways map
/// outnumbers what either leaves unmapped.
pub(super) fn majority(fwd: &Mapping, back: &Mapping) -> bool {
    let m = fwd.mapped.min(back.mapped);
    m > fwd.solid - m && m > back.solid - m
}

/// Maps all of `x`'s statements onto all of `y`'s.
pub(super) fn map_bodies(x: &[Norm], y: &[Norm]) -> Mapping {
    let pool: Vec<&Norm> = y.iter().collect();
    let mut used = vec![false; pool.len()];
    map_onto(x, &pool, &mut used)
}

/// Pairs each unpaired statement of `src` whose computed expression (its core: what it returns,
/// assigns or evaluates) is a pool statement's with one more argument in one call, to a method of
/// `after` that gained that parameter since `before` (Add Parameter on top of the extraction).
/// Such pairs count as exact: the code is the same but for the argument the new parameter takes.
pub(super) fn added_arguments(src: &[Norm], pool: &[&Norm], m: &mut Mapping, after: &Side, before: &Side) {
    let (done, mut used) = m.taken(src.len(), pool.len());
    let toks =
        |n: &Norm| n.core.as_deref().filter(|_| !n.trivial).map(|c| c.split(' ').map(String::from).collect::<Vec<_>>());
    // Each pool statement's core as tokens, split once for every statement of `src`.
    let shorts: Vec<Option<Vec<String>>> = pool.iter().map(|p| toks(p)).collect();
    for (i, s) in src.iter().enumerate() {
        let Some(long) = toks(s).filter(|_| !done[i]) else { continue };
        let found = (0..pool.len()).find(|&j| {
            let Some(short) = shorts[j].as_ref().filter(|_| !used[j]) else { return false };
            let Some((name, variants)) = one_argument_dropped(&long, short) else { return false };
            let n = variants.len();
            arity_changed(after, before, name, n, n - 1) && variants.contains(short)
        });
        if let Some(j) = found {
            used[j] = true;
            m.pairs.push((i, j, Pairing::Core));
            m.mapped += 1;
            m.exact += 1;
            m.strong += usize::from(s.strong());
        }
    }
}
