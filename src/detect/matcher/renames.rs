//! Rename Method within a pair of matched classes. A removed and an added method are one method
//! renamed when their bodies are the same but for RefactoringMiner's replacements, when the
//! code around what was extracted from (or inlined into) them is, or when every call site of the
//! old name now calls the new one.

use super::MethodRef;
use super::*;

/// Names read as other names when two statements are compared.
type Subst<'s> = HashMap<&'s str, Vec<String>>;

impl<'s> Diff<'s> {
    pub(super) fn renames(&mut self) {
        let classes: Vec<(usize, usize)> = self.class_fwd.iter().map(|(&b, &a)| (b, a)).collect();
        let mut found = Vec::new();
        let mut ambiguous = Vec::new();
        for (cb, ca) in classes {
            let (lone_b, lone_a) = self.unmatched(cb, ca);
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
            // Of bodies that fit equally well, the pair with the closer names goes first
            // (RefactoringMiner breaks a tie between mappers by the operations' name edit
            // distance): `testOldRequireEncrypted` became `testNewRequireEncrypted`, not its
            // look-alike neighbour `testOldRequireGuarded`. Ties themselves still count as rivals.
            let name_distance = |&(_, mb, ma, _): &(f64, usize, usize, bool)| {
                crate::text::edit_distance(&self.b.methods[mb].name, &self.a.methods[ma].name)
            };
            candidates.sort_by(|x, y| {
                y.0.partial_cmp(&x.0)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then_with(|| name_distance(x).cmp(&name_distance(y)))
            });
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
                // Part of the old body extracted into the new method, whose caller holds the rest.
                if let Some(y) = self.extracted_caller(mb, ma, &lone_a) {
                    self.pair_method(mb, y);
                    found.push((mb, y, false));
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
            self.push(
                RefactoringType::RenameMethod,
                description,
                left,
                right,
                pure,
                MethodRef::before(mb),
                MethodRef::after(ma),
            );
        }
    }

    /// The new method that old method `mb` became when its look-alike `ma` only holds part of
    /// it: the one unpaired new method of `lone` that calls `ma` and makes, word for word, more
    /// of `mb`'s statements that `ma` does not make than any other caller (RefactoringMiner's
    /// "part of a method extracted": `verify()` split into `loadDocument()` and `verifyNorms()`,
    /// which calls it and keeps the assertions, is `verify` renamed with `loadDocument` extracted).
    fn extracted_caller(&self, mb: usize, ma: usize, lone: &[usize]) -> Option<usize> {
        let (old, part) = (&self.b.methods[mb], &self.a.methods[ma]);
        let in_part: std::collections::HashSet<&str> = part.stmts.iter().map(|s| s.text.as_str()).collect();
        let rest: std::collections::HashSet<&str> = old
            .stmts
            .iter()
            .filter(|s| !s.trivial && !in_part.contains(s.text.as_str()))
            .map(|s| s.text.as_str())
            .collect();
        if rest.is_empty() {
            return None;
        }
        let mut best: Vec<(usize, usize)> = lone
            .iter()
            .filter(|&&y| y != ma && self.back[y].is_none() && !self.a.methods[y].ctor)
            .filter(|&&y| {
                self.a.methods[y]
                    .calls
                    .iter()
                    .any(|c| !c.qualified && c.name == part.name && c.args.len() == part.params.len())
            })
            .map(|&y| (y, self.a.methods[y].stmts.iter().filter(|s| rest.contains(s.text.as_str())).count()))
            .filter(|&(_, n)| n > 0)
            .collect();
        best.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        match best.as_slice() {
            [(y, _)] => Some(*y),
            [(y, n), (_, m), ..] if n > m => Some(*y),
            _ => None,
        }
    }

    /// Renames whose bodies were rewritten too, told by their callers, as RefactoringMiner's
    /// call-site evidence: in the same class, the one removed and the one added method with the
    /// same return type such that every matched method that called the old name calls the new
    /// one instead, as many times, and nothing called the new name before or calls the old one
    /// after. Methods that did not call the old name may call the new one too when the new
    /// method still takes every parameter type the old one took ([`kept_params`]). Each side must have exactly one such counterpart, and the parameter types are the
    /// same or the bodies still share a statement (a setter replaced by another is no rename).
    pub(super) fn renames_by_call_sites(&mut self, found: &mut Vec<(usize, usize, bool)>) {
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
    pub(super) fn shares_statement(&self, mb: usize, ma: usize) -> bool {
        let empty = HashMap::new();
        map_bodies(&norms(&self.b.methods[mb], &empty), &norms(&self.a.methods[ma], &empty)).mapped > 0
    }

    /// What a moved method's statements are read with: the method's own name as the other's, and
    /// a parameter of the other class's type as `this` (it becomes, or was, the receiver).
    fn move_substitutions(&self, mb: usize, ma: usize, moved: bool) -> (Subst<'s>, Subst<'s>) {
        let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
        let mut sx: Subst<'s> = HashMap::new();
        let mut sy: Subst<'s> = HashMap::new();
        if x.name != y.name {
            sx.insert(x.name.as_str(), vec![y.name.clone()]);
        }
        if moved {
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
        (sx, sy)
    }

    /// A moved method names the static members of its old class (or of a supertype of it)
    /// through the class, and may drop the qualifier on those of its new class: `this.` and
    /// those class qualifiers are read as absent.
    fn strip_qualifiers(&self, mb: usize, ma: usize, v: Vec<Norm>) -> Vec<Norm> {
        let (bx, by) = (self.b.class_of(mb), self.a.class_of(ma));
        let qualifiers: Vec<&str> = [&bx.simple, &by.simple]
            .into_iter()
            .chain(bx.supers.iter())
            .chain(by.supers.iter())
            .map(String::as_str)
            .collect();
        v.into_iter()
            .map(|n| {
                let toks: Vec<String> =
                    drop_qualifiers(&n.toks, |q| q == "this" || qualifiers.contains(&q)).into_iter().cloned().collect();
                Norm { text: toks.join(" "), core: core_of(&toks), toks, ..n }
            })
            .collect()
    }

    /// Whether removed `mb` and added `ma` have the same parameter types and return type, the
    /// parameter that became (or was) `this`, typed as the other method's class, aside.
    pub(super) fn same_signature_but_receiver(&self, mb: usize, ma: usize) -> bool {
        let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
        let (cx, cy) = (&self.b.class_of(mb).simple, &self.a.class_of(ma).simple);
        let px = x.params.iter().map(|p| &p.1).filter(|t| *t != cy);
        let py = y.params.iter().map(|p| &p.1).filter(|t| *t != cx);
        px.eq(py) && x.ret == y.ret
    }

    /// The statements of removed `mb` and added `ma` as a move reads them.
    pub(super) fn moved_norms(&self, mb: usize, ma: usize) -> (Vec<Norm>, Vec<Norm>) {
        let (sx, sy) = self.move_substitutions(mb, ma, true);
        let (nx, ny) = (norms(&self.b.methods[mb], &sx), norms(&self.a.methods[ma], &sy));
        (self.strip_qualifiers(mb, ma, nx), self.strip_qualifiers(mb, ma, ny))
    }

    /// Whether removed `mb` and added `ma` are one method (renamed or moved): (score, pure).
    pub(super) fn same_body(&self, mb: usize, ma: usize, moved: bool) -> Option<(f64, bool)> {
        let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
        let (mut sx, mut sy) = self.move_substitutions(mb, ma, moved);
        let (nx, ny) = (norms(x, &sx), norms(y, &sy));
        let strip = |v: Vec<Norm>| self.strip_qualifiers(mb, ma, v);
        let (nx, ny) = if moved { (strip(nx), strip(ny)) } else { (nx, ny) };
        let identical = nx.len() == ny.len() && nx.iter().zip(&ny).all(|(p, q)| p.text == q.text);
        let mut fwd = map_bodies(&nx, &ny);
        let mut back = map_bodies(&ny, &nx);
        // RefactoringMiner's Extract (Inline) Variable inside the method: a local only one side
        // declares stands for its initializer there (`Dictionary d = load(..); new Hunspell(d, ..)`
        // for `new Hunspell(load(..))`). Tried when the bodies as written share no majority.
        if !majority(&fwd, &back) {
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
        let majority = majority(&fwd, &back);
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
        // ... the parameter that became (or was) `this` aside.
        if moved && sx_solid.max(sy_solid) <= 1 && !self.same_signature_but_receiver(mb, ma) {
            return None;
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
        let pure = identical
            || (fwd.all_exact() && back.all_exact() && nx.len() == ny.len())
            || renamed_locals_only(&fwd, &nx, &ny, x, y);
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
    pub(super) fn same_body_beside_calls(
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
            v.iter().zip(gone).filter(|(_, g)| !**g).map(|(n, _)| n.clone()).collect()
        };
        let (rx, ry) = (keep(nx, &gone_x), keep(ny, &gone_y));
        let (fwd, back) = (map_bodies(&rx, &ry), map_bodies(&ry, &rx));
        let (sx, sy) = (fwd.solid, back.solid);
        let m = fwd.mapped.min(back.mapped);
        if sx == 0 || sy == 0 || m < 2 {
            return None;
        }
        let score = 2.0 * m as f64 / (sx + sy) as f64;
        let majority = majority(&fwd, &back) && score >= 0.75;
        let contained = same_sig && back.mapped == sy && back.all_exact() && 2 * m > sx - m;
        if !(majority || contained) {
            return None;
        }
        let exactness = (fwd.exact + back.exact) as f64 / (sx + sy) as f64;
        Some((score + if same_sig { 0.01 } else { 0.0 } + 0.001 * exactness, false))
    }

    /// Some matched method calls `new` after that did not call `old` before.
    pub(super) fn new_callers(&self, old: &str, new: &str) -> bool {
        self.fwd.iter().enumerate().any(|(mb, ma)| {
            ma.is_some_and(|ma| {
                self.a.methods[ma].calls.iter().any(|c| c.name == new)
                    && !self.b.methods[mb].calls.iter().any(|c| c.name == old)
            })
        })
    }

    /// Some matched method called `old` before and calls `new` after.
    pub(super) fn call_sites_renamed(&self, old: &str, new: &str) -> bool {
        self.fwd.iter().enumerate().any(|(mb, ma)| {
            let Some(ma) = *ma else { return false };
            let cb = self.b.methods[mb].calls.iter().filter(|c| c.name == old).count();
            let ca = self.a.methods[ma].calls.iter().filter(|c| c.name == new).count();
            cb > 0 && ca > 0
        })
    }
}

/// `toks` without the qualifier of each member access that starts a chain (`q . member`, where
/// `is_qualifier(q)`): `this.x` and `Module.V` read as `x` and `V`.
pub(super) fn drop_qualifiers(toks: &[String], is_qualifier: impl Fn(&str) -> bool) -> Vec<&String> {
    let ident = |t: &String| t.starts_with(|c: char| c.is_alphabetic() || c == '_');
    let mut kept = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if is_qualifier(&toks[i])
            && toks.get(i + 1).is_some_and(|t| t == ".")
            && toks.get(i + 2).is_some_and(ident)
            && (i == 0 || toks[i - 1] != ".")
        {
            i += 2;
            continue;
        }
        kept.push(&toks[i]);
        i += 1;
    }
    kept
}
