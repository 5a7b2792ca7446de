//! Extract and Inline Method, within a class and across classes (Extract And Move, Move And
//! Inline). A new method is extracted when its statements map onto statements its caller lost
//! (after the call's arguments are read into it); a removed method is inlined when its
//! statements map onto statements its caller gained. The matching starts from the calls (and
//! method references) that appeared or disappeared, so only methods the caller really calls are
//! compared with it.

use super::MethodRef;
use super::*;

impl<'s> Diff<'s> {
    pub(super) fn build_pairs(&mut self) {
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
    pub(super) fn enough(m: &Mapping) -> bool {
        m.mapped > 0
            && (m.mapped > m.unmapped()
                || (m.mapped > 1 && m.mapped >= m.unmapped())
                || (m.exact > 1 && m.unmapped() < 20)
                || (m.exact == 1 && m.unmapped() <= 10 + m.exact && (m.solid <= 2 * m.mapped + 1 || m.strong == 1)))
    }

    /// Whether extracted method `xm`, called from `am` (after) with `subst` and mapped onto
    /// `pool` (statements before-method `origin` lost), is pure ([`super::purity`]).
    fn extraction_pure(
        &self,
        mapping: &Mapping,
        pool: &[&Norm],
        xm: &Method,
        am: &Method,
        origin: usize,
        subst: &Subst,
    ) -> bool {
        if mapping.all_exact() {
            return true;
        }
        let origin = &self.b.methods[origin];
        let fresh = xm
            .params
            .iter()
            .filter(|(p, _)| !origin.params.iter().any(|(o, _)| o == p))
            .map(|(p, _)| subst.get(p.as_str()).cloned().unwrap_or_else(|| vec![p.clone()]))
            .collect();
        let sides = Sides {
            moved: xm,
            moved_caller: am,
            origin,
            moved_side: self.a,
            origin_side: self.b,
            fresh,
            parameterize: true,
        };
        pure_mapping(mapping, &norms(xm, subst), pool, &sides)
    }

    /// The code on each side of removed method `rm` inlined into `bm` (before) become `am`.
    fn inlined_sides<'x>(&'x self, rm: &'x Method, bm: &'x Method, am: &'x Method) -> Sides<'x> {
        Sides {
            moved: rm,
            moved_caller: bm,
            origin: am,
            moved_side: self.b,
            origin_side: self.a,
            fresh: Vec::new(),
            parameterize: false,
        }
    }

    pub(super) fn extracts(&mut self, across: bool) {
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
            let gained = added_locals(am, pair.added.iter().copied());
            let mut seen = Vec::new();
            // (call in the caller or in an extracted method, the substitution in force there, the
            // depth, whether it was reached through a new method holding none of the code)
            let mut queue: Vec<(&Call, Subst, usize, bool)> =
                am.calls.iter().map(|c| (c, HashMap::new(), 0, false)).collect();
            while let Some((call, outer, depth, through)) = queue.pop() {
                let (before_calls, after_calls) = (times(&count_b, call), times(&count_a, call));
                if depth == 0 && after_calls <= before_calls {
                    continue;
                }
                // Across classes, a method extracted from code of its own class may have been
                // extracted from another class's copy of that code too: a static one called by
                // its class's name (`Owner.m(…)`), or one a subclass calls as inherited.
                let mut candidates = self.new_methods(&call.name, call.args.len());
                if across {
                    let more: Vec<usize> = self
                        .extracted_a
                        .iter()
                        .copied()
                        .filter(|&m| {
                            let xm = &self.a.methods[m];
                            let owner = &self.a.classes[xm.class].simple;
                            let reached = if call.qualified {
                                xm.is_static && call.receiver.rsplit(' ').next() == Some(owner.as_str())
                            } else {
                                self.inherits(self.a, am.class, owner, 4)
                            };
                            xm.name == call.name && accepts(xm, call.args.len()) && !candidates.contains(&m) && reached
                        })
                        .collect();
                    candidates.extend(more);
                }
                for x in candidates {
                    let same_class = self.class_back.get(&self.a.methods[x].class) == Some(&bm.class)
                        || self.a.methods[x].class == am.class;
                    // Called more than once, the method was extracted from the code the call that
                    // maps best stands for: another call's arguments are tried when the first
                    // found (the last call) left differences.
                    let prior = if depth == 0 && seen.contains(&x) {
                        found.iter().position(|f| f.0 == pi && f.1 == x && f.4 == 0 && !f.3.all_exact())
                    } else {
                        None
                    };
                    if same_class == across
                        || (seen.contains(&x) && prior.is_none())
                        || (across && !call.qualified && !self.reachable(false, x, am.class))
                        || (!across && self.moved_in(x))
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
                    if !Self::enough(&mapping)
                        && let Some(local) = named_locals(&subst, &inits)
                    {
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
                        // Unchanged by the removed locals, the second try would be the first again.
                        let with_inits = named_locals(&inlined, &inits);
                        for local in std::iter::once(inlined).chain(with_inits) {
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
                                inlined.insert(name, substituted(&init, &subst));
                            }
                            let m = map_onto(&norms(xm, &inlined), &pool, &mut vec![false; pool.len()]);
                            if Self::enough(&m) && m.exact > 0 && !(across && m.exact < 2) {
                                mapping = m;
                                subst = inlined;
                            }
                        }
                    }
                    // The extracted code calls a method that gained a parameter in the same change
                    // (`return parse(clazz, "1.5");` for `Unit u = parse(Foo.class);`).
                    if !Self::enough(&mapping) {
                        added_arguments(&norms(xm, &subst), &pool, &mut mapping, self.a, self.b);
                    }
                    // A conditional expression returned for the `if`/`else` that assigned it, with
                    // the arguments as written, then with those that initialised a removed local
                    // read as that local (`return c ? new F(it) : it;` for `it = new F(it);`).
                    if !Self::enough(&mapping) {
                        let named = named_locals(&subst, &inits);
                        for s in std::iter::once(subst.clone()).chain(named) {
                            if let Some(m) = conditional_mapping(&norms(xm, &s), &pool) {
                                mapping = m;
                                subst = s;
                                break;
                            }
                        }
                    }
                    if depth == 0
                        && !Self::enough(&mapping)
                        && let Some(k) = call.stmt
                    {
                        embedded_returns(&src, &plain_pool, &mut mapping, &am.stmts[k].toks, call, !across);
                        // The argument is a local the caller gained for what the code wrote out
                        // (`String regex = …trim(); list.add(toPattern(regex));` for
                        // `list.add(Pattern.compile(".*" + ….trim() + ".*"));`).
                        if !Self::enough(&mapping)
                            && let Some(inlined) = inline_locals(xm, &subst, &gained)
                        {
                            let src = norms(xm, &inlined);
                            let mut m = map_onto(&src, &pool, &mut vec![false; pool.len()]);
                            // Fuzzy pairs alone must not keep the returned expression from pairing.
                            if m.exact == 0 {
                                m = m.rejected();
                            }
                            embedded_returns(&src, &plain_pool, &mut m, &am.stmts[k].toks, call, !across);
                            if Self::enough(&m) && m.exact > 0 {
                                mapping = m;
                                subst = inlined;
                            }
                        }
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
                    // So is any new method the caller calls (RefactoringMiner's call tree of added
                    // methods): the code may sit in a helper it calls (`refs.stream().map(this::id)`
                    // in `markTips(refs)`), which then needs a statement mapped exactly.
                    let forwards = self.forwarded(false, xm).is_some();
                    if !Self::enough(&mapping) && depth < 2 && (forwards || depth == 0) {
                        for c in &xm.calls {
                            queue.push((c, subst.clone(), depth + 1, through || !forwards));
                        }
                    }
                    if let Some(k) = prior {
                        if Self::enough(&mapping)
                            && (mapping.exact, mapping.mapped) > (found[k].3.exact, found[k].3.mapped)
                        {
                            let pure = self.extraction_pure(&mapping, &pool, xm, am, pair.b, &subst);
                            found[k] = (pi, x, call_index(am, call), mapping, depth, pure);
                        }
                        continue;
                    }
                    if Self::enough(&mapping) && (!through || mapping.exact > 0) {
                        seen.push(x);
                        if depth < 2 {
                            for c in &xm.calls {
                                queue.push((c, subst.clone(), depth + 1, through));
                            }
                        }
                        // Pure as PurityChecker judges it: the extracted code is the code
                        // removed from the caller, up to justified replacements
                        // ([`super::purity`]); what else the caller's edit changed is not part of
                        // this refactoring.
                        let pure = self.extraction_pure(&mapping, &pool, xm, am, pair.b, &subst);
                        found.push((pi, x, call_index(am, call), mapping, depth, pure));
                    }
                }
            }
            // A new method named by a method reference (`cache.computeIfAbsent(node,
            // this::findImpl)`) that holds statements the caller lost: no call passes it
            // arguments, so its parameters are read as they are named.
            if !across {
                let empty = HashMap::new();
                for x in self.referenced(pair, false) {
                    let xm = &self.a.methods[x];
                    if seen.contains(&x) || self.moved_in(x) {
                        continue;
                    }
                    let mapping = map_onto(&norms(xm, &empty), &pool, &mut vec![false; pool.len()]);
                    if Self::enough(&mapping) && mapping.exact > 0 {
                        seen.push(x);
                        let pure = self.extraction_pure(&mapping, &pool, xm, am, pair.b, &empty);
                        found.push((pi, x, None, mapping, 0, pure));
                    }
                }
            }
            // A lambda made a method named by a method reference: of the caller's class
            // (`this::m`), or across, of the receiver's (`context::m`).
            let lambdas =
                if across { self.referenced_lambdas_across(pair, &pool) } else { self.referenced_lambdas(pair, &pool) };
            for (x, j, pure) in lambdas {
                if !seen.contains(&x) {
                    seen.push(x);
                    let mapping = Mapping::single(j);
                    found.push((pi, x, None, mapping, 0, pure));
                }
            }
            // The methods of a class the caller now instantiates where it lost the code they
            // hold from an anonymous class or a lambda (made a named class): no call passes them
            // arguments, so their parameters are read as they are named.
            if across {
                let empty = HashMap::new();
                let mut other_code: Option<Vec<bool>> = None;
                for x in self.instantiated(pair) {
                    let xm = &self.a.methods[x];
                    if seen.contains(&x) || self.moved_in(x) {
                        continue;
                    }
                    // The statements the mapping may not take: all but the anonymous code.
                    let mut used = other_code
                        .get_or_insert_with(|| pair.removed.iter().map(|&i| !self.anonymous_code(pair.b, i)).collect())
                        .clone();
                    let mapping = map_onto(&norms(xm, &empty), &pool, &mut used);
                    if Self::enough(&mapping) && mapping.exact > 0 {
                        seen.push(x);
                        let pure = self.extraction_pure(&mapping, &pool, xm, am, pair.b, &empty);
                        found.push((pi, x, None, mapping, 0, pure));
                    }
                }
            }
        }
        for (pi, x, call, mapping, _, pure) in found {
            let (mb, ma) = (self.pairs[pi].b, self.pairs[pi].a);
            self.used_a[x] = true;
            if !across {
                self.extracted_a.push(x);
                let removed = &self.pairs[pi].removed;
                self.extracted_b.extend(mapping.pairs.iter().map(|&(_, j, _)| (mb, removed[j])));
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
            self.push(kind, description, left, right, pure, MethodRef::before(mb), MethodRef::after(x));
        }
    }

    pub(super) fn inlines(&mut self, across: bool) {
        let mut found: Vec<(usize, usize, usize, Option<usize>, Mapping, bool)> = Vec::new();
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
            let lost = added_locals(bm, pair.removed.iter().copied());
            let mut seen = Vec::new();
            for (ci, call) in bm.calls.iter().enumerate() {
                let (before_calls, after_calls) = (times(&count_b, call), times(&count_a, call));
                if after_calls >= before_calls {
                    continue;
                }
                // Within a class: as many calls of that name and arity as before, through other
                // receivers, and the method was moved (its calls now name its new class), not
                // inlined. (Across classes the caller may well call another method of the name.)
                if !across
                    && times_any_receiver(&count_a, call) + times_passing_this(am, call)
                        >= times_any_receiver(&count_b, call)
                {
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
                    // The statements as the mapping read them, when a variant mapped (for purity).
                    let mut mapped_src: Option<Vec<Norm>> = None;
                    if across && call.qualified && typed.is_none() && mapping.mapped < 2 {
                        mapping.mapped = 0;
                    }
                    // The caller's locals, as for extractions the other way round: an argument
                    // that initialises a local the caller gained stands for that local, a local
                    // it lost for its initializer.
                    if !Self::enough(&mapping) || across && mapping.exact == 0 {
                        for local in local_variants(rm, &subst, &inits, &lost) {
                            let variant = self.before_norms(rm, &local);
                            let m = map_onto(&variant, &pool, &mut vec![false; pool.len()]);
                            if Self::enough(&m) && m.exact > 0 && m.exact >= mapping.exact {
                                mapping = m;
                                mapped_src = Some(variant);
                                break;
                            }
                        }
                    }
                    // The inlined method returned a conditional the caller now writes as `if`/`else`,
                    // its arguments as written or read as the locals they initialise, as above.
                    if !Self::enough(&mapping) {
                        for local in std::iter::once(subst.clone()).chain(local_variants(rm, &subst, &inits, &lost)) {
                            let variant = self.before_norms(rm, &local);
                            if let Some(m) = conditional_mapping(&variant, &pool) {
                                mapping = m;
                                mapped_src = Some(variant);
                                break;
                            }
                        }
                    }
                    if !Self::enough(&mapping)
                        && let Some(k) = call.stmt
                    {
                        // A returned name is read as written, as for extractions (`plain_pool`).
                        let plain = if self.field_renames.contains_key(&rm.class) { norms(rm, &subst) } else { src };
                        embedded_returns(&plain, &pool, &mut mapping, &bm.stmts[k].toks, call, !across);
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
                        let pure = body == r
                            && (mapping.all_exact()
                                || pure_mapping(
                                    &mapping,
                                    &mapped_src.unwrap_or_else(|| self.before_norms(rm, &subst)),
                                    &pool,
                                    &self.inlined_sides(rm, bm, am),
                                ));
                        found.push((pi, r, body, Some(ci), mapping, pure));
                    }
                }
            }
            // A removed method the caller named by a method reference (`retry(this::tryOnce)`),
            // whose statements the caller now makes itself.
            if !across {
                for r in self.referenced(pair, true) {
                    let rm = &self.b.methods[r];
                    if seen.contains(&r) {
                        continue;
                    }
                    let src = self.before_norms(rm, &empty);
                    let mapping = map_onto(&src, &pool, &mut vec![false; pool.len()]);
                    if Self::enough(&mapping) && mapping.exact > 0 {
                        seen.push(r);
                        let pure =
                            mapping.all_exact() || pure_mapping(&mapping, &src, &pool, &self.inlined_sides(rm, bm, am));
                        found.push((pi, r, r, None, mapping, pure));
                    }
                }
            }
            // A method of a class the caller instantiated, now a lambda in the caller.
            if across {
                for (r, j, pure) in self.instantiated_lambdas(pair) {
                    if !seen.contains(&r) {
                        seen.push(r);
                        let mapping = Mapping::single(j);
                        found.push((pi, r, r, None, mapping, pure));
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
            ];
            if let Some(ci) = ci {
                left.push(self.call_loc(true, mb, ci, "inlined method invocation"));
            }
            for &(i, _, _) in &mapping.pairs {
                left.push(self.stmt(true, body, i, "inlined code from inlined method declaration"));
            }
            let mut right = vec![self.decl(false, ma, "target method declaration after inline")];
            for &(_, j, _) in &mapping.pairs {
                right.push(self.stmt(false, ma, added[j], "inlined code in target method declaration"));
            }
            let kind = if across { RefactoringType::MoveAndInlineMethod } else { RefactoringType::InlineMethod };
            self.push(kind, description, left, right, pure, MethodRef::before(r), MethodRef::after(ma));
        }
    }

    /// A new (`before`: removed) method whose body is one call of another such method and
    /// nothing else (`return f(a, b);` or `f(a, b);`): that call and the method it reaches.
    pub(super) fn forwarded<'m>(&self, before: bool, m: &'m Method) -> Option<(&'m Call, usize)> {
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

    /// Whether statement `i` of before method `m` is code of an anonymous class or a lambda
    /// that is still the method's own: not in a method extracted from it, nor held by a
    /// statement that is (an anonymous class passed to the extracted method is its code).
    fn anonymous_code(&self, m: usize, i: usize) -> bool {
        let stmts = &self.b.methods[m].stmts;
        let within = |k: usize| {
            stmts[k].span.start_byte <= stmts[i].span.start_byte && stmts[i].span.end_byte <= stmts[k].span.end_byte
        };
        stmts[i].nested && !(0..stmts.len()).any(|k| within(k) && self.extracted_b.contains(&(m, k)))
    }

    /// Added methods (not matched, not explained yet) named `name` that accept `args` arguments.
    pub(super) fn new_methods(&self, name: &str, args: usize) -> Vec<usize> {
        let all = self.by_name_a.get(name).map(Vec::as_slice).unwrap_or_default();
        all.iter()
            .copied()
            .filter(|&m| self.back[m].is_none() && !self.used_a[m] && accepts(&self.a.methods[m], args))
            .collect()
    }

    /// Whether added method `x` is a method of another class moved in: a method of that name
    /// left another class with the same body (up to its old object becoming a parameter, which is
    /// why its caller's code can look extracted). [`Self::moves`] reports it.
    pub(super) fn moved_in(&self, x: usize) -> bool {
        let class = self.a.methods[x].class;
        let all = self.by_name_b.get(self.a.methods[x].name.as_str()).map(Vec::as_slice).unwrap_or_default();
        all.iter().any(|&r| {
            let elsewhere = self.class_fwd.get(&self.b.methods[r].class) != Some(&class);
            self.fwd[r].is_none() && !self.used_b[r] && elsewhere && self.same_body(r, x, true).is_some()
        })
    }

    pub(super) fn removed_methods(&self, name: &str, args: usize) -> Vec<usize> {
        let all = self.by_name_b.get(name).map(Vec::as_slice).unwrap_or_default();
        all.iter()
            .copied()
            .filter(|&m| self.fwd[m].is_none() && !self.used_b[m] && accepts(&self.b.methods[m], args))
            .collect()
    }
}

/// How many times a body makes `call` (same name, arity and receiver), from [`call_counts`].
fn times(counts: &HashMap<(&str, usize, &str), usize>, call: &Call) -> usize {
    counts.get(&(call.name.as_str(), call.args.len(), call.receiver.as_str())).copied().unwrap_or(0)
}

/// Calls of `call`'s name and arity in `counts`, whatever their receiver.
fn times_any_receiver(counts: &HashMap<(&str, usize, &str), usize>, call: &Call) -> usize {
    counts.iter().filter(|((name, arity, _), _)| *name == call.name && *arity == call.args.len()).map(|(_, n)| n).sum()
}

/// Calls of `call`'s name in `m` with one more argument, `this`, first: the caller now hands its
/// object to the method moved elsewhere as a static method (`Util.m(this, x)` for `m(x)`).
fn times_passing_this(m: &Method, call: &Call) -> usize {
    m.calls
        .iter()
        .filter(|c| {
            c.name == call.name
                && c.args.len() == call.args.len() + 1
                && c.args.first().is_some_and(|a| a.len() == 1 && a[0] == "this")
        })
        .count()
}

/// The mapping of `src` onto `pool` with every `return c ? a : b;` read as the `if`/`else` that
/// assigned `a` and `b` ([`ternary_variant`]), when that maps every statement of `src`.
fn conditional_mapping(src: &[Norm], pool: &[&Norm]) -> Option<Mapping> {
    let (variant, origin) = ternary_variant(src)?;
    let mut used = vec![false; pool.len()];
    let mut m = map_onto(&variant, pool, &mut used);
    pair_branch_values(&variant, &origin, pool, &mut used, &mut m);
    (Diff::enough(&m) && m.exact > 0 && m.mapped == m.solid).then(|| m.renumbered(&origin))
}
