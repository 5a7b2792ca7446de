//! Purity by rule: the differences between moved code and the code it came from that a pure
//! refactoring makes, after PurityChecker's justified replacements (Nouri, 2023). A statement
//! mapped only fuzzily is still pure when every difference is one of:
//!
//! - a local variable of the new code standing for a local of the old, renamed the same way
//!   everywhere (a bijection over the whole mapping: "Rename Variable on top of the extraction");
//! - a class qualifier added or dropped before a static member (`MARKER` for `Filter.MARKER`,
//!   `replace(…)` for `Strings.replace(…)`), which names the same member from the new place;
//!
//! and an unmapped statement of the new code is still pure when it only hands back a variable
//! (`return d;` in the new method, which the caller assigns: `long d = helper(…);`).
//!
//! Anything else (another literal, operator, call or field) keeps the refactoring impure.

use std::collections::{HashMap, HashSet};

use super::mapping::{Mapping, Norm, Pairing};
use crate::detect::model::Method;

/// Whether `mapping` of `new`'s statements (`src`) onto the old code (`pool`) differs only by
/// justified replacements. `new` and `old` are the methods holding each side's code, for their locals.
pub(super) fn pure_mapping(mapping: &Mapping, src: &[Norm], pool: &[&Norm], new: &Method, old: &Method) -> bool {
    let new_locals: HashSet<&str> = new.locals.iter().map(|(n, _)| n.as_str()).collect();
    let old_locals: HashSet<&str> = old.locals.iter().map(|(n, _)| n.as_str()).collect();
    let variables: HashSet<&str> =
        new_locals.iter().copied().chain(new.params.iter().map(|(n, _)| n.as_str())).collect();
    let mapped: HashSet<usize> = mapping.pairs.iter().map(|p| p.0).collect();
    let handed_back = |n: &Norm| matches!(n.toks.as_slice(), [r, v, semi] if r == "return" && semi == ";" && variables.contains(v.as_str()));
    if src.iter().enumerate().any(|(i, n)| !n.trivial && !mapped.contains(&i) && !handed_back(n)) {
        return false;
    }
    let mut renames = Renames::new(&new_locals, &old_locals);
    mapping.pairs.iter().filter(|p| p.2 == Pairing::Fuzzy).all(|&(i, j, _)| {
        returned_condition(&src[i].toks, &pool[j].toks) || renames.aligns(&src[i].toks, &pool[j].toks)
    })
}

/// `return e;` for the condition of `if (e)`: the new method computes the condition the old code
/// tested, and the caller now tests the call (PurityChecker's "return expression added").
fn returned_condition(x: &[String], y: &[String]) -> bool {
    let returned = match x {
        [r, e @ .., semi] if r == "return" && semi == ";" => e,
        _ => return false,
    };
    matches!(y, [kw, open, cond @ .., close] if (kw == "if" || kw == "while") && open == "(" && close == ")" && cond == returned)
}

/// The variable renames seen so far, new name → old name and back.
struct Renames<'a> {
    new_locals: &'a HashSet<&'a str>,
    old_locals: &'a HashSet<&'a str>,
    forward: HashMap<String, String>,
    back: HashMap<String, String>,
}

impl<'a> Renames<'a> {
    fn new(new_locals: &'a HashSet<&'a str>, old_locals: &'a HashSet<&'a str>) -> Self {
        Renames { new_locals, old_locals, forward: HashMap::new(), back: HashMap::new() }
    }

    /// Whether the new tokens `x` are the old `y` up to qualifiers and consistent renames.
    fn aligns(&mut self, x: &[String], y: &[String]) -> bool {
        let (mut i, mut j) = (0, 0);
        while i < x.len() || j < y.len() {
            match (x.get(i), y.get(j)) {
                (Some(a), Some(b)) if a == b => {
                    i += 1;
                    j += 1;
                }
                _ if qualifier(x, i, y.get(j)) => i += 2,
                _ if qualifier(y, j, x.get(i)) => j += 2,
                (Some(a), Some(b)) if self.rename(a, b, x, i, y, j) => {
                    i += 1;
                    j += 1;
                }
                _ => return false,
            }
        }
        true
    }

    /// `a` (new) for `b` (old): both locals of their sides, read as variables (not a member
    /// after a dot, not a call), and the same pairing as every earlier one.
    fn rename(&mut self, a: &str, b: &str, x: &[String], i: usize, y: &[String], j: usize) -> bool {
        let variable = |t: &[String], k: usize| !(k > 0 && t[k - 1] == ".") && t.get(k + 1).is_none_or(|n| n != "(");
        if !(self.new_locals.contains(a) && self.old_locals.contains(b) && variable(x, i) && variable(y, j)) {
            return false;
        }
        let fwd = self.forward.entry(a.to_string()).or_insert_with(|| b.to_string()).clone();
        let bwd = self.back.entry(b.to_string()).or_insert_with(|| a.to_string()).clone();
        fwd == b && bwd == a
    }
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

    fn set<'a>(names: &[&'a str]) -> HashSet<&'a str> {
        names.iter().copied().collect()
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
