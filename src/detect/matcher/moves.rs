//! Methods that left their class: Move, Move And Rename, Pull Up and Push Down, told apart by
//! how the two classes are related and whether the name stayed.

use super::MethodRef;
use super::*;

impl<'s> Diff<'s> {
    pub(super) fn moves(&mut self) {
        let removed: Vec<usize> = (0..self.b.methods.len())
            .filter(|&m| self.fwd[m].is_none() && !self.used_b[m] && !self.b.methods[m].ctor)
            .collect();
        let added: Vec<usize> = (0..self.a.methods.len())
            .filter(|&m| self.back[m].is_none() && !self.used_a[m] && !self.a.methods[m].ctor)
            .collect();
        // Differently named methods are compared only when they share a solid statement, up to
        // the names of their locals (a local renamed on the way: `mapping` become `searchMapping`).
        let mut holders: HashMap<String, Vec<usize>> = HashMap::new();
        for &ma in &added {
            let y = &self.a.methods[ma];
            if y.solid() >= 2 {
                for s in y.stmts.iter().filter(|s| !s.trivial) {
                    let v = holders.entry(locals_blanked(y, s)).or_default();
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
                    others.extend(holders.get(&locals_blanked(x, s)).into_iter().flatten());
                }
            }
            others.sort_unstable();
            others.dedup();
            for ma in others {
                let y = &self.a.methods[ma];
                if self.class_fwd.get(&x.class) == Some(&y.class) || self.keeps_signature(mb, ma) {
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
            // A class that is still there must still extend the target after the change
            // (RefactoringMiner reads the child's superclass from its class diff): a class that
            // stopped extending it handed the method to its former parent, a Move.
            let still_child = match self.class_fwd.get(&x.class) {
                Some(_) => self.after_supers(mb).contains(&cy.simple),
                None => cx.supers.contains(&cy.simple),
            };
            let kind = if cy.supers.contains(&cx.simple) || cy.supers.iter().any(|s| s == cx_after) {
                RefactoringType::PushDownMethod
            } else if still_child {
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
        self.pushed_out_of_abstract();
        // A method pushed down usually lands in every subclass: the other copies are the same push.
        for (mb, sup, sup_after) in pushed {
            self.push_into_subclasses(mb, &[&sup, &sup_after]);
        }
    }

    /// Push Down of a method that kept its signature but lost its body (it became abstract, or
    /// its class an interface) while subclasses gained methods of that signature with the body:
    /// one Push Down per subclass whose copy is the same body.
    fn pushed_out_of_abstract(&mut self) {
        let abstracted: Vec<(usize, String)> = (0..self.b.methods.len())
            .filter_map(|mb| {
                let (x, sa) = (&self.b.methods[mb], self.fwd[mb]?);
                let lost_body = !x.ctor && x.has_body && !self.a.methods[sa].has_body && x.solid() > 0;
                lost_body.then(|| (mb, self.a.class_of(sa).simple.clone()))
            })
            .collect();
        for (mb, parent) in abstracted {
            self.push_into_subclasses(mb, &[&parent]);
            self.pushed_through_a_kept_body(mb, &parent);
        }
    }

    /// The other way to make a method abstract: its body stays in the class as a new method (the
    /// old default kept for subclasses to call, `skipBytesSlowly()` for `skipBytes()`), and the
    /// subclasses that gained the method call it. Extract Method of that new method from the one
    /// that lost its body, and a Push Down into each subclass whose new copy is one call of it.
    fn pushed_through_a_kept_body(&mut self, mb: usize, parent: &str) {
        let Some(sa) = self.fwd[mb] else { return };
        let class = self.a.methods[sa].class;
        let x = &self.b.methods[mb];
        let kept: Vec<(usize, bool)> = (0..self.a.methods.len())
            .filter(|&n| {
                let y = &self.a.methods[n];
                self.back[n].is_none() && !self.used_a[n] && !y.ctor && y.class == class && y.name != x.name
            })
            .filter_map(|n| Some((n, self.same_body(mb, n, true)?.1)))
            .collect();
        // One such method, or the body's new home is a guess.
        let [(kept, pure)] = kept.as_slice() else { return };
        let (kept, pure) = (*kept, *pure);
        let helper = self.a.methods[kept].name.clone();
        let copies: Vec<usize> = self
            .by_name_a
            .get(x.name.as_str())
            .into_iter()
            .flatten()
            .copied()
            .filter(|&ma| {
                let y = &self.a.methods[ma];
                self.back[ma].is_none()
                    && !self.used_a[ma]
                    && y.key == x.key
                    && self.a.class_of(ma).supers.iter().any(|s| s == parent)
                    && matches!((y.stmts.as_slice(), y.calls.as_slice()), ([_], [c]) if c.name == helper && !c.qualified)
            })
            .collect();
        if copies.is_empty() {
            return;
        }
        let description = format!(
            "Extract Method\t{} extracted from {} in class {}",
            self.a.methods[kept].desc,
            x.desc,
            self.a.class_of(sa).name
        );
        let left = vec![self.decl(true, mb, "source method declaration before extraction")];
        let right = vec![
            self.decl(false, kept, "extracted method declaration"),
            self.decl(false, sa, "source method declaration after extraction"),
        ];
        self.used_a[kept] = true;
        self.push(
            RefactoringType::ExtractMethod,
            description,
            left,
            right,
            pure,
            MethodRef::before(mb),
            MethodRef::after(kept),
        );
        // Each copy calls the kept body rather than holding it: not the same code, so not pure.
        for ma in copies {
            self.push_move(RefactoringType::PushDownMethod, mb, ma, false);
        }
    }

    /// Reports removed `mb` pushed down into each unexplained added method of its signature, in a
    /// class extending one of `parents` (simple names after the change), whose body is the same.
    fn push_into_subclasses(&mut self, mb: usize, parents: &[&str]) {
        let x = &self.b.methods[mb];
        let copies: Vec<(usize, bool)> = self
            .by_name_a
            .get(x.name.as_str())
            .into_iter()
            .flatten()
            .copied()
            .filter(|&ma| self.back[ma].is_none() && !self.used_a[ma] && self.a.methods[ma].key == x.key)
            .filter(|&ma| self.a.class_of(ma).supers.iter().any(|s| parents.contains(&s.as_str())))
            .filter_map(|ma| Some((ma, self.same_body(mb, ma, true)?.1)))
            .collect();
        for (ma, pure) in copies {
            self.push_move(RefactoringType::PushDownMethod, mb, ma, pure);
        }
    }

    /// Move And Rename of a one-statement method into a class the change added (a JUnit 4
    /// `@Parameters data()` that became `arguments()` of a new nested provider class): the body
    /// is the only evidence, so it must be the same statement word for word, one that passes
    /// arguments, with the same parameters, and no other removed or added method may have it.
    /// Methods with the same name are [`Self::moves`]'s; bodies of two statements or more too.
    pub(super) fn moved_one_liners(&mut self) {
        fn one(side: &Side, m: usize) -> Option<&str> {
            let method = &side.methods[m];
            let [st] = method.stmts.as_slice() else { return None };
            (!method.ctor && !st.trivial && norm(st, &HashMap::new()).strong()).then_some(st.text.as_str())
        }
        let (removed, added) = self.unexplained_by(one);
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
        self.moved_and_rewritten_one_liners();
    }

    /// Move And Rename of a one-statement method whose statement the move rewrote, as a move
    /// does: members of the old class now reached through the class or through the parameter
    /// that took the receiver's place (`getVersion(V)` become `module.getVersion(Module.V)`).
    /// Read as a moved method reads (that parameter as `this`, class qualifiers dropped), the
    /// statement must be the same, strong, and held by no other removed or added one-statement
    /// method; the parameters and the return type must be the same but for the receiver's.
    fn moved_and_rewritten_one_liners(&mut self) {
        /// The statement with every leading `x.` qualifier dropped: a key under which a
        /// statement and its rewritten self meet (the pair is checked exactly afterwards).
        fn loose(side: &Side, m: usize) -> Option<String> {
            let method = &side.methods[m];
            let [st] = method.stmts.as_slice() else { return None };
            if method.ctor || st.trivial || !norm(st, &HashMap::new()).strong() {
                return None;
            }
            let ident = |q: &str| q.starts_with(|c: char| c.is_alphabetic() || c == '_');
            let kept = super::renames::drop_qualifiers(&st.toks, ident);
            Some(kept.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(" "))
        }
        let (removed, added) = self.unexplained_by(loose);
        let mut found = Vec::new();
        for (key, bs) in &removed {
            let (Some([ma]), [mb]) = (added.get(key).map(Vec::as_slice), bs.as_slice()) else { continue };
            let (mb, ma) = (*mb, *ma);
            let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
            let (cx, cy) = (self.b.class_of(mb), self.a.class_of(ma));
            let related = cx.supers.contains(&cy.simple) || cy.supers.contains(&cx.simple);
            if x.name == y.name
                || self.class_fwd.get(&x.class) == Some(&y.class)
                || related
                || self.keeps_signature(mb, ma)
            {
                continue;
            }
            let (nx, ny) = self.moved_norms(mb, ma);
            if self.same_signature_but_receiver(mb, ma) && nx.iter().map(|n| &n.text).eq(ny.iter().map(|n| &n.text)) {
                found.push((mb, ma));
            }
        }
        found.sort_unstable();
        for (mb, ma) in found {
            self.push_move(RefactoringType::MoveAndRenameMethod, mb, ma, true);
        }
    }

    /// The removed and the added methods nothing has explained yet, grouped by `key` (those it
    /// gives no key left out).
    fn unexplained_by<K: Eq + std::hash::Hash>(
        &self,
        key: impl Fn(&'s Side, usize) -> Option<K>,
    ) -> (HashMap<K, Vec<usize>>, HashMap<K, Vec<usize>>) {
        let mut removed: HashMap<K, Vec<usize>> = HashMap::new();
        for mb in (0..self.b.methods.len()).filter(|&m| self.fwd[m].is_none() && !self.used_b[m]) {
            if let Some(k) = key(self.b, mb) {
                removed.entry(k).or_default().push(mb);
            }
        }
        let mut added: HashMap<K, Vec<usize>> = HashMap::new();
        for ma in (0..self.a.methods.len()).filter(|&m| self.back[m].is_none() && !self.used_a[m]) {
            if let Some(k) = key(self.a, ma) {
                added.entry(k).or_default().push(ma);
            }
        }
        (removed, added)
    }

    /// Reports a method moved between classes (Move, Move And Rename, Pull Up, Push Down) and
    /// marks both sides explained.
    pub(super) fn push_move(&mut self, kind: RefactoringType, mb: usize, ma: usize, pure: bool) {
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
        self.push(kind, description, left, right, pure, MethodRef::before(mb), MethodRef::after(ma));
    }

    /// Whether a removed and an added method of different names each have their own signature
    /// on the other side: the added method's class already has the removed one's signature
    /// after the change, or the removed method's class had the added one's before it. The
    /// removed method was dropped (an override, in favour of the inherited method) or the
    /// added one is new (an override of an inherited method); neither moved under a new name.
    fn keeps_signature(&self, mb: usize, ma: usize) -> bool {
        let (x, y) = (&self.b.methods[mb], &self.a.methods[ma]);
        let has = |side: &Side, class: usize, key: &str| {
            side.classes[class].methods.iter().any(|&m| side.methods[m].key == key)
        };
        x.name != y.name && (has(self.a, y.class, &x.key) || has(self.b, x.class, &y.key))
    }

    /// The supertypes of a before method's class as they are after the change.
    pub(super) fn after_supers(&self, mb: usize) -> &[String] {
        match self.class_fwd.get(&self.b.methods[mb].class) {
            Some(&ca) => &self.a.classes[ca].supers,
            None => &[],
        }
    }
}

/// A statement's text with the names of its method's locals (not after a `.`) blanked out.
fn locals_blanked(m: &Method, s: &Stmt) -> String {
    let local = |k: usize| {
        let t = &s.toks[k];
        !(k > 0 && s.toks[k - 1] == ".") && m.locals.iter().any(|(n, _)| n == t)
    };
    (0..s.toks.len()).map(|k| if local(k) { "_" } else { s.toks[k].as_str() }).collect::<Vec<&str>>().join(" ")
}
