//! Purity by rule: the differences between moved code and the code it came from that a pure
//! refactoring makes, after PurityChecker's justified replacements (Nouri, 2023). A statement
//! mapped only fuzzily is still pure when every difference is one of:
//!
//! - a local variable of the new code standing for a local of the old, renamed the same way
//!   everywhere (a bijection over the whole mapping: "Rename Variable on top of the extraction");
//! - a class qualifier added or dropped before a static member (`MARKER` for `Filter.MARKER`,
//!   `replace(…)` for `Strings.replace(…)`), which names the same member from the new place;
//! - a cast of an argument to the new method's narrower parameter type, `final`, type arguments
//!   written out on one side and inferred (`<>`) on the other;
//! - `return e;` for `T v = e;`, for the `if (e)` it replaces, or for an argument `e` the old code
//!   passed;
//! - one more argument to a project method whose parameter list changed that way in the same
//!   change ("Add Parameter on top"), or to a method declared outside the change when that
//!   argument is what one of the new code's new parameters stands for;
//! - a name for its value written out: a local's initializer (`T v = e;` in either method) or a
//!   final field's (`HEADER` for `"== report =="`), Inline and Extract Variable on top;
//! - a parameter of the new method for one local, field or literal the old code read, the same
//!   one wherever the parameter is used (`code` for `TEST1`: Parameterize, the caller passing a
//!   value of its own), when reading the parameters as the call's arguments does not align;
//! - a negated condition with its negation pushed inside (`s != null && !s.isBlank()` for
//!   `!(s == null || s.isBlank())`: De Morgan, exact equivalences only, [`negation`]);
//!
//! and an unmapped statement of the new code is still pure when it only hands back a variable
//! (`return d;` in the new method, which the caller assigns: `long d = helper(…);`), returns an
//! expression the old code computed, or repeats a statement the caller still makes.
//!
//! Anything else (another literal, operator, call or field) keeps the refactoring impure.

use std::collections::{HashMap, HashSet};

use super::mapping::{Mapping, Norm, Pairing, returned_expr};
use super::{added_locals, negation};
use crate::detect::model::{Method, Side};

/// The code on each side of a mapping: `moved` holds the statements mapped (`src`: the extracted
/// method, or the inlined one), `moved_caller` is the caller on that side (whose locals the call's
/// arguments name), `origin` holds the statements they map onto (`pool`: the caller before an
/// extraction, after an inlining).
pub(super) struct Sides<'a> {
    pub(super) moved: &'a Method,
    pub(super) moved_caller: &'a Method,
    pub(super) origin: &'a Method,
    /// The whole version each side's code belongs to, for the methods it declares.
    pub(super) moved_side: &'a Side,
    pub(super) origin_side: &'a Side,
    /// What the moved code's parameters that the origin did not have stand for at the call (the
    /// argument passed, or the parameter's own name): values the change introduced.
    pub(super) fresh: Vec<Vec<String>>,
    /// Whether the moved code's statements (`moved.stmts`, one for each of `src`) may be read as
    /// written, its parameters not replaced by the call's arguments: Parameterize on top of an
    /// extraction, a parameter of the new method standing for one local, field or literal the old
    /// code read (`code` for `TEST1`, the caller now passing a value of its own).
    pub(super) parameterize: bool,
}

impl Sides<'_> {
    /// Whether method `name` took `moved` arguments on the moved side and `origin` arguments on
    /// the origin side, the moved side's arity being new: a parameter added (or removed) by
    /// another refactoring of the same change, which the moved code's call follows.
    fn arity_changed(&self, name: &str, moved: usize, origin: usize) -> bool {
        arity_changed(self.moved_side, self.origin_side, name, moved, origin)
    }
}

/// Whether method `name` takes `new` arguments on side `to` and took `old` on side `from`, where
/// it had no `new` form: a parameter added (or removed) by the change.
pub(super) fn arity_changed(to: &Side, from: &Side, name: &str, new: usize, old: usize) -> bool {
    let has = |side: &Side, n: usize| side.methods.iter().any(|m| m.name == name && m.params.len() == n);
    has(to, new) && has(from, old) && !has(from, new)
}

/// Whether `mapping` of `src` onto `pool` differs only by justified replacements.
pub(super) fn pure_mapping(mapping: &Mapping, src: &[Norm], pool: &[&Norm], sides: &Sides<'_>) -> bool {
    let names = |m: &Method| m.locals.iter().map(|(n, _)| n.clone()).collect::<Vec<String>>();
    let mut new_locals: HashSet<String> = names(sides.moved).into_iter().collect();
    new_locals.extend(names(sides.moved_caller));
    let old_locals: HashSet<String> = names(sides.origin).into_iter().collect();
    let variables: HashSet<&str> =
        sides.moved.locals.iter().chain(&sides.moved.params).map(|(n, _)| n.as_str()).collect();
    let mapped: HashSet<usize> = mapping.pairs.iter().map(|p| p.0).collect();
    let new_values = values(&[sides.moved, sides.moved_caller], sides.moved_side);
    let old_values = values(&[sides.origin], sides.origin_side);
    let unmapped_ok = |n: &Norm| {
        match n.returned() {
            // `return d;`: the variable the code assigned, which the caller now assigns.
            Some([v]) if variables.contains(v.as_str()) => true,
            // `return e;` for an expression the caller computed where it now calls, its locals
            // possibly written out (`X.INSTANCE.extract(…)` for `extractor.extract(…)`).
            Some(e) => sides
                .origin
                .stmts
                .iter()
                .any(|s| contains(&s.toks, e) || contains(&written_out(&s.toks, &old_values), e)),
            // A statement the caller still makes, repeated (`T v = session.get();`).
            _ => sides.origin.stmts.iter().any(|s| s.text == n.text),
        }
    };
    let parameters: HashSet<String> = sides.moved.params.iter().map(|(n, _)| n.clone()).collect();
    let mut renames = Renames::new(&new_locals, &old_locals);
    renames.values = Some((&new_values, &old_values));
    renames.parameters = Some(&parameters);
    // The parameterized reading of statement `i` of the moved code against old statement `y`,
    // committing its bindings to `renames` when it holds.
    let parameterized = |i: usize, y: &[String], renames: &mut Renames<'_>| {
        let Some(raw) = sides.moved.stmts.get(i).filter(|_| sides.parameterize) else { return false };
        let mut trial = renames.clone();
        trial.parameterizing = true;
        let ok = aligned(&raw.toks, y, &mut trial, sides);
        if ok {
            trial.parameterizing = false;
            *renames = trial;
        }
        ok
    };
    let paired: HashSet<usize> = mapping.pairs.iter().map(|p| p.1).collect();
    for (i, n) in src.iter().enumerate() {
        if n.trivial || mapped.contains(&i) || unmapped_ok(n) {
            continue;
        }
        // A statement of the old code that no pair took, the same up to justified replacements.
        let same = |y: &[String], renames: &mut Renames<'_>| {
            let mut trial = renames.clone();
            let ok = aligned(&n.toks, y, &mut trial, sides);
            if ok {
                *renames = trial;
            }
            ok
        };
        let unpaired = pool.iter().enumerate().filter(|(j, _)| !paired.contains(j));
        if !unpaired.into_iter().any(|(_, y)| same(&y.toks, &mut renames) || parameterized(i, &y.toks, &mut renames)) {
            why(|| format!("unmapped: {}", n.toks.join(" ")));
            return false;
        }
    }
    mapping.pairs.iter().filter(|p| p.2 == Pairing::Fuzzy).all(|&(i, j, _)| {
        let (x, y) = (&src[i].toks[..], &pool[j].toks[..]);
        let ok = aligned(x, y, &mut renames, sides) || parameterized(i, y, &mut renames);
        if !ok {
            why(|| format!("differs:\n  new {}\n  old {}", x.join(" "), y.join(" ")));
        }
        ok
    })
}

/// Whether new statement `x` reads as old statement `y` up to the justified replacements.
fn aligned(x: &[String], y: &[String], renames: &mut Renames<'_>, sides: &Sides<'_>) -> bool {
    if returned_condition(x, y) {
        return true;
    }
    // `return e;` for `T v = e;` or `v = e;` (either way round): compare what is computed.
    let (x, y) = match (returned_expr(x), assigned_value(y), assigned_value(x), returned_expr(y)) {
        (Some(e), Some(f), ..) | (_, _, Some(e), Some(f)) => (e, f),
        // `return e;` for the argument `e` the old code passed (`expect(new Matcher(…))`).
        (Some(e), ..) if contains(y, e) => return true,
        _ => (x, y),
    };
    if renames.aligns(x, y) || added_argument(x, y, renames, sides) || added_argument(y, x, renames, sides) {
        return true;
    }
    // A negated condition written with its negation pushed inside on one side (De Morgan).
    let (px, py) = (negation::pushed_inside(x), negation::pushed_inside(y));
    (px.is_some() || py.is_some()) && renames.aligns(px.as_deref().unwrap_or(x), py.as_deref().unwrap_or(y))
}

/// `MANTRA_PURITY_WHY=1` prints, on standard error, what keeps a mapping impure (for triage).
fn why(message: impl FnOnce() -> String) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("MANTRA_PURITY_WHY").is_some()) {
        eprintln!("impure {}", message());
    }
}

/// Whether `mapping` of the old body `old_norms` (of `old`) onto the new `new_norms` (of `new`)
/// pairs every statement, each word for word or up to locals renamed the same way throughout
/// (Rename Variable on top of a move or rename).
pub(super) fn renamed_locals_only(
    mapping: &Mapping,
    old_norms: &[Norm],
    new_norms: &[Norm],
    old: &Method,
    new: &Method,
) -> bool {
    let names = |m: &Method| m.locals.iter().map(|(n, _)| n.clone()).collect::<HashSet<String>>();
    let (new_locals, old_locals) = (names(new), names(old));
    let mut renames = Renames::new(&new_locals, &old_locals);
    old_norms.len() == new_norms.len()
        && mapping.mapped == mapping.solid
        && mapping.pairs.len() == old_norms.len()
        && mapping
            .pairs
            .iter()
            .all(|&(i, j, p)| p != Pairing::Fuzzy || renames.aligns(&new_norms[j].toks, &old_norms[i].toks))
}

/// Whether `long` is `short` with one more argument in one call (`f(a, b, null)` for `f(a, b)`),
/// to a project method whose parameter list changed that way in the same change.
fn added_argument(long: &[String], short: &[String], renames: &mut Renames<'_>, sides: &Sides<'_>) -> bool {
    let Some((name, variants)) = one_argument_dropped(long, short) else { return false };
    let n = variants.len();
    let changed = sides.arity_changed(name, n, n - 1) || sides.arity_changed(name, n - 1, n);
    // A method or constructor declared outside the change (`new Factory(registry, loader)` for
    // `new Factory(loader)`), passed one of the values the new code's new parameters bring:
    // Add Parameter on a callee this change does not show.
    let declares = |side: &Side| side.methods.iter().any(|m| m.name == name);
    let outside = !declares(sides.moved_side) && !declares(sides.origin_side);
    variants.iter().any(|without| {
        if !(changed || outside && sides.fresh.iter().any(|v| dropped(long, without) == v.as_slice())) {
            return false;
        }
        let mut trial = renames.clone();
        let ok = trial.aligns(without, short);
        if ok {
            *renames = trial;
        }
        ok
    })
}

/// Where `long` is longer than `short` and first differs from it inside the argument list of a
/// call of two arguments or more: that call's name, and `long` with each of those arguments
/// dropped in turn (with the comma that separates it), one variant per argument.
pub(super) fn one_argument_dropped<'t>(long: &'t [String], short: &[String]) -> Option<(&'t str, Vec<Vec<String>>)> {
    if long.len() <= short.len() {
        return None;
    }
    let first = long.iter().zip(short).take_while(|(a, b)| a == b).count();
    // The argument list holding the difference: its `(` is the last unclosed one before it.
    let mut depth = 0i32;
    let open = (0..first.min(long.len())).rev().find(|&k| {
        match long[k].as_str() {
            ")" => depth += 1,
            "(" if depth == 0 => return true,
            "(" => depth -= 1,
            _ => {}
        }
        false
    })?;
    let name = match long.get(open.wrapping_sub(1)).map(String::as_str) {
        Some(">") => {
            // `new Type<>(…)`: the constructor's class, before its type arguments.
            let lt = (0..open).rev().find(|&k| long[k] == "<");
            lt.and_then(|k| long.get(k.wrapping_sub(1)))
        }
        _ => long.get(open.wrapping_sub(1)),
    }?;
    // The arguments of that call: (start, end) of each, at depth one inside it.
    let (mut args, mut start, mut depth) = (Vec::new(), open + 1, 0i32);
    for (k, tok) in long.iter().enumerate().skip(open + 1) {
        match tok.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" if depth > 0 => depth -= 1,
            "," if depth == 0 => {
                args.push((start, k));
                start = k + 1;
            }
            ")" => {
                args.push((start, k));
                break;
            }
            _ => {}
        }
    }
    let n = args.len();
    if n < 2 {
        return None;
    }
    let variants = (0..n)
        .map(|i| {
            let (s, e) = args[i];
            let (from, to) = if i + 1 < n { (s, e + 1) } else { (args[i - 1].1, e) };
            long[..from].iter().chain(&long[to..]).cloned().collect()
        })
        .collect();
    Some((name.as_str(), variants))
}

/// The argument `long` holds and `without` (the same tokens with one argument dropped) does not,
/// without its separating comma.
fn dropped<'t>(long: &'t [String], without: &[String]) -> &'t [String] {
    let start = long.iter().zip(without).take_while(|(a, b)| a == b).count();
    let run = &long[start..start + (long.len() - without.len())];
    let run = run.strip_prefix(&[",".to_string()][..]).unwrap_or(run);
    run.strip_suffix(&[",".to_string()][..]).unwrap_or(run)
}

/// What names stand for: name → tokens of its value.
type Values = HashMap<String, Vec<String>>;

/// The values names stand for in `methods` (their locals' initializers, `T v = e;`) and in their
/// classes (final fields with an initializer): a name on one side and its value written out on
/// the other read the same (Inline Variable, Extract Variable, a constant inlined, on top).
fn values(methods: &[&Method], side: &Side) -> Values {
    let mut out = HashMap::new();
    for m in methods {
        if let Some(class) = side.classes.get(m.class) {
            out.extend(class.constants.iter().cloned());
        }
    }
    for m in methods {
        out.extend(added_locals(m, 0..m.stmts.len()));
    }
    out
}

/// Whether `t[k]` is read as a variable: not a member after a `.`, not a call.
fn read_as_variable(t: &[String], k: usize) -> bool {
    !(k > 0 && t[k - 1] == ".") && t.get(k + 1).is_none_or(|n| n != "(")
}

/// `toks` with each name read as a variable that has a value in `values` replaced by it.
fn written_out(toks: &[String], values: &Values) -> Vec<String> {
    let mut out = Vec::with_capacity(toks.len());
    for (k, t) in toks.iter().enumerate() {
        match values.get(t) {
            Some(v) if read_as_variable(toks, k) && toks.get(k + 1).is_none_or(|n| n != "=") => {
                out.extend(v.iter().cloned())
            }
            _ => out.push(t.clone()),
        }
    }
    out
}

/// `e` of `T v = e;`, `final T v = e;` or `v = e;` (the first `=` of the statement).
fn assigned_value(t: &[String]) -> Option<&[String]> {
    let eq = t.iter().position(|x| x == "=")?;
    let head = &t[..eq];
    let plain = head.iter().all(|x| x.chars().all(|c| c.is_alphanumeric() || "_$<>?,.[]".contains(c)) || x == "final");
    (plain && !head.is_empty() && t.last().is_some_and(|x| x == ";")).then(|| &t[eq + 1..t.len() - 1])
}

/// Whether `hay` holds `needle` as a contiguous run of tokens.
fn contains(hay: &[String], needle: &[String]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

/// `return e;` for the condition of `if (e)`: the new method computes the condition the old code
/// tested, and the caller now tests the call (PurityChecker's "return expression added").
fn returned_condition(x: &[String], y: &[String]) -> bool {
    let Some(returned) = returned_expr(x) else { return false };
    matches!(y, [kw, open, cond @ .., close] if (kw == "if" || kw == "while") && open == "(" && close == ")" && cond == returned)
}

/// The variable renames seen so far, new name → old name and back.
#[derive(Clone)]
struct Renames<'a> {
    new_locals: &'a HashSet<String>,
    old_locals: &'a HashSet<String>,
    forward: HashMap<String, String>,
    back: HashMap<String, String>,
    /// What names stand for on the new side and on the old ([`values`]).
    values: Option<(&'a Values, &'a Values)>,
    /// The new code's parameters that may each stand for one expression of the old code, and
    /// the expression each stands for so far (Parameterize).
    parameters: Option<&'a HashSet<String>>,
    parameterizing: bool,
    bound: HashMap<String, Vec<String>>,
}

impl<'a> Renames<'a> {
    fn new(new_locals: &'a HashSet<String>, old_locals: &'a HashSet<String>) -> Self {
        Renames {
            new_locals,
            old_locals,
            forward: HashMap::new(),
            back: HashMap::new(),
            values: None,
            parameters: None,
            parameterizing: false,
            bound: HashMap::new(),
        }
    }

    /// Whether the new tokens `x` are the old `y` up to qualifiers and consistent renames.
    fn aligns(&mut self, x: &[String], y: &[String]) -> bool {
        let (mut i, mut j) = (0, 0);
        while i < x.len() || j < y.len() {
            match (x.get(i), y.get(j)) {
                // Type arguments written out on one side and inferred (`<>`) on the other.
                (Some(a), Some(b))
                    if a == "<"
                        && b == "<"
                        && matches!((diamond(x, i), diamond(y, j)), (Some(m), Some(n)) if m != n && (m == 2 || n == 2)) =>
                {
                    i += diamond(x, i).unwrap_or(1);
                    j += diamond(y, j).unwrap_or(1);
                }
                (Some(a), Some(b)) if a == b => {
                    i += 1;
                    j += 1;
                }
                _ if qualifier(x, i, y.get(j)) => i += 2,
                _ if qualifier(y, j, x.get(i)) => j += 2,
                (Some(a), _) if a == "final" => i += 1,
                (_, Some(b)) if b == "final" => j += 1,
                _ if cast(x, i, y.get(j)) => i += 3,
                _ if cast(y, j, x.get(i)) => j += 3,
                _ if let Some(n) = self.value_of(x, i, y, j, false) => {
                    i += 1;
                    j += n;
                }
                _ if let Some(n) = self.value_of(y, j, x, i, true) => {
                    i += n;
                    j += 1;
                }
                (Some(a), Some(b)) if self.rename(a, b, x, i, y, j) => {
                    i += 1;
                    j += 1;
                }
                _ if let Some(n) = self.parameter(x, i, y, j) => {
                    i += 1;
                    j += n;
                }
                // `"a/" + "b.json"` for `"a/b.json"`: adjacent string literals folded.
                _ if let Some((m, n)) = same_string(x, i, y, j) => {
                    i += m;
                    j += n;
                }
                _ => return false,
            }
        }
        true
    }

    /// The length of the value that `t[k]`, a name read as a variable, stands for on its side
    /// (`old`: the old code's) when `u` holds that value written out from `u[l]`.
    fn value_of(&self, t: &[String], k: usize, u: &[String], l: usize, old: bool) -> Option<usize> {
        let (new_values, old_values) = self.values?;
        let name = t.get(k)?;
        let value = if old { old_values } else { new_values }.get(name)?;
        (read_as_variable(t, k) && value.as_slice() != [name.clone()] && u.get(l..)?.starts_with(value))
            .then_some(value.len())
    }

    /// The length of the old read at `y[j]` that parameter `x[i]` of the new code stands for,
    /// the same read wherever the parameter is used ([`read_len`]).
    fn parameter(&mut self, x: &[String], i: usize, y: &[String], j: usize) -> Option<usize> {
        let name = x.get(i)?;
        if !(self.parameterizing && self.parameters?.contains(name) && read_as_variable(x, i)) {
            return None;
        }
        let n = read_len(y, j, x.get(i + 1))?;
        let expr = &y[j..j + n];
        let bound = self.bound.entry(name.clone()).or_insert_with(|| expr.to_vec());
        (bound.as_slice() == expr).then_some(n)
    }

    /// `a` (new) for `b` (old): both locals of their sides, read as variables (not a member
    /// after a dot, not a call), and the same pairing as every earlier one.
    fn rename(&mut self, a: &str, b: &str, x: &[String], i: usize, y: &[String], j: usize) -> bool {
        if !(self.new_locals.contains(a)
            && self.old_locals.contains(b)
            && read_as_variable(x, i)
            && read_as_variable(y, j))
        {
            return false;
        }
        let fwd = self.forward.entry(a.to_string()).or_insert_with(|| b.to_string()).clone();
        let bwd = self.back.entry(b.to_string()).or_insert_with(|| a.to_string()).clone();
        fwd == b && bwd == a
    }
}

/// The length of the read at `t[k]` that a parameter followed by `next` can stand for: a local or
/// a field (`TEST1`, `this.path`, `Limits.MAX`) or a literal, never a computation (a call, an
/// operator): the new method then takes as its parameter what the old code read, the caller
/// passing it (PurityChecker's Parameterize).
fn read_len(t: &[String], k: usize, next: Option<&String>) -> Option<usize> {
    let word =
        |w: &String| w.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == '"' || c == '\'');
    let mut end = k;
    if !t.get(end).is_some_and(word) || t.get(end).is_some_and(|w| w == "new") {
        return None;
    }
    end += 1;
    while t.get(end).is_some_and(|d| d == ".") && t.get(end + 1).is_some_and(word) && next.is_none_or(|n| n != ".") {
        end += 2;
    }
    // A call, an index or an assignment is not a read the parameter can stand for.
    (!t.get(end).is_some_and(|n| ["(", "[", "="].contains(&n.as_str()))).then_some(end - k)
}

/// The lengths of the runs of string literals joined by `+` at `x[i]` and `y[j]` when they spell
/// the same string and one of them joins two literals or more: the compiler folds them into one
/// constant.
fn same_string(x: &[String], i: usize, y: &[String], j: usize) -> Option<(usize, usize)> {
    let (a, m) = string_run(x, i)?;
    let (b, n) = string_run(y, j)?;
    (a == b && (m > 1 || n > 1)).then_some((m, n))
}

/// The text of the run of string literals joined by `+` at `t[k]` (`"a" + "b"`), and its length
/// in tokens; a literal a member is read from (`"b".length()`) ends the run before it.
fn string_run(t: &[String], k: usize) -> Option<(String, usize)> {
    let literal =
        |tok: &String| tok.len() >= 2 && tok.starts_with('"') && tok.ends_with('"') && !tok.starts_with("\"\"\"");
    let (mut text, mut end) = (String::new(), k);
    while let Some(tok) = t.get(end).filter(|tok| literal(tok)) {
        if t.get(end + 1).is_some_and(|n| n == ".") {
            break;
        }
        text.push_str(&tok[1..tok.len() - 1]);
        end += 1;
        let joined = t.get(end).is_some_and(|p| p == "+") && t.get(end + 1).is_some_and(literal);
        if !joined || t.get(end + 2).is_some_and(|n| n == ".") {
            break;
        }
        end += 1;
    }
    (end > k).then_some((text, end - k))
}

/// Whether `t[k]` starts a cast to a class (`( Type )`) of the value `next` on the other side:
/// the caller passes an argument cast to the new method's narrower parameter type.
fn cast(t: &[String], k: usize, next: Option<&String>) -> bool {
    t.get(k).is_some_and(|o| o == "(")
        && t.get(k + 1).is_some_and(|ty| ty.starts_with(|c: char| c.is_ascii_uppercase()))
        && t.get(k + 2).is_some_and(|c| c == ")")
        && t.get(k + 3).is_some_and(|v| Some(v) == next)
}

/// The length of the type-argument list opening at `t[k]` (`<` … its `>`), when it is one.
fn diamond(t: &[String], k: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (n, tok) in t[k..].iter().enumerate() {
        match tok.as_str() {
            "<" => depth += 1,
            ">" => {
                depth -= 1;
                if depth == 0 {
                    return Some(n + 1);
                }
            }
            ">>" if depth >= 2 => {
                depth -= 2;
                if depth == 0 {
                    return Some(n + 1);
                }
            }
            "(" | ")" | ";" | "{" | "}" | "=" => return None,
            _ => {}
        }
    }
    None
}

/// Whether `t[k]` starts a class qualifier (`Name .`) whose member is `next` on the other side.
fn qualifier(t: &[String], k: usize, next: Option<&String>) -> bool {
    let Some(name) = t.get(k) else { return false };
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && t.get(k + 1).is_some_and(|d| d == ".")
        && t.get(k + 2).is_some_and(|m| Some(m) == next)
        && !(k > 0 && t[k - 1] == ".")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn set(names: &[&str]) -> HashSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn qualifiers_and_consistent_local_renames_are_justified() {
        let (new, old) = (set(&["total"]), set(&["sum"]));
        let mut r = Renames::new(&new, &old);
        assert!(r.aligns(
            &toks("total = replace ( total , MARKER ) ;"),
            &toks("sum = Strings . replace ( sum , Filter . MARKER ) ;")
        ));
        assert!(r.aligns(&toks("return total ;"), &toks("return sum ;")));
        assert!(returned_condition(&toks("return a . isEmpty ( ) ;"), &toks("if ( a . isEmpty ( ) )")));
        assert!(!returned_condition(&toks("return ! a . isEmpty ( ) ;"), &toks("if ( a . isEmpty ( ) )")));
    }

    #[test]
    fn modifiers_casts_and_inferred_type_arguments_are_justified() {
        let (new, old) = (set(&[]), set(&[]));
        let mut r = Renames::new(&new, &old);
        assert!(r.aligns(&toks("catch ( IOException e )"), &toks("catch ( final IOException e )")));
        assert!(r.aligns(&toks("n = ( Circle ) shape . area ( ) ;"), &toks("n = shape . area ( ) ;")));
        assert!(r.aligns(&toks("x = new Box < T > ( v ) ;"), &toks("x = new Box < > ( v ) ;")));
        assert!(!r.aligns(&toks("x = new Box < T > ( v ) ;"), &toks("x = new Box < U > ( v ) ;")));
        assert_eq!(assigned_value(&toks("final Box < T > b = make ( ) ;")), Some(&toks("make ( )")[..]));
        assert_eq!(assigned_value(&toks("f ( a == b ) ;")), None);
    }

    #[test]
    fn adjacent_string_literals_fold() {
        let (new, old) = (set(&[]), set(&[]));
        let mut r = Renames::new(&new, &old);
        assert!(r.aligns(&toks("load ( \"dir/\" + \"a.json\" ) ;"), &toks("load ( \"dir/a.json\" ) ;")));
        assert!(r.aligns(&toks("s = x + \"a\" + \"b\" ;"), &toks("s = x + \"ab\" ;")));
        assert!(!r.aligns(&toks("load ( \"dir/\" + \"b.json\" ) ;"), &toks("load ( \"dir/a.json\" ) ;")));
        // A member read from the last literal is not part of the folded constant.
        assert!(!r.aligns(&toks("n = \"a\" + \"b\" . length ( ) ;"), &toks("n = \"ab\" . length ( ) ;")));
    }

    #[test]
    fn other_changes_stay_impure() {
        let (new, old) = (set(&["total", "count"]), set(&["sum"]));
        let mut r = Renames::new(&new, &old);
        // Another literal, another call, another qualifier's member.
        assert!(!r.aligns(&toks("x = f ( 1 ) ;"), &toks("x = f ( 2 ) ;")));
        assert!(!r.aligns(&toks("x = g ( y ) ;"), &toks("x = f ( y ) ;")));
        assert!(!r.aligns(&toks("x = A . MAX ;"), &toks("x = B . MAX ;")));
        // A rename must be the same everywhere: `sum` cannot be both `total` and `count`.
        assert!(r.aligns(&toks("total ++ ;"), &toks("sum ++ ;")));
        assert!(!r.aligns(&toks("count ++ ;"), &toks("sum ++ ;")));
        // A field or a parameter is not a local: reading another one is another value.
        assert!(!r.aligns(&toks("this . total ;"), &toks("this . sum ;")));
        assert!(!r.aligns(&toks("limit ++ ;"), &toks("sum ++ ;")));
    }
}
