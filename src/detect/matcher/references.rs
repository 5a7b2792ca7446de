//! Methods named by method references (`this::load`, `Owner::load`) rather than called: a new
//! method referenced where the caller lost its statements was extracted, a removed one
//! referenced where the caller gained them was inlined, and a lambda turned into a reference to a
//! new method was extracted into it.

use super::*;

impl Diff<'_> {
    /// New methods of the caller's class that a method reference (`this::getBundle`) names where
    /// a removed statement of the caller had a lambda returning the method's `return` expression
    /// (`(bundle) -> sslBundles.getBundle(bundle.name())`), with that statement's index in `pool`
    /// and whether the method's body is the lambda's word for word, its parameters renamed (pure).
    pub(super) fn referenced_lambdas(&self, pair: &Pair, pool: &[&Norm]) -> Vec<(usize, usize, bool)> {
        let am = &self.a.methods[pair.a];
        let own = self.a.classes[am.class].simple.as_str();
        let mut out = Vec::new();
        for &k in &pair.added {
            let toks = &am.stmts[k].toks;
            for w in 0..toks.len().saturating_sub(2) {
                if toks[w + 1] != "::" || !(toks[w] == "this" || toks[w] == own) {
                    continue;
                }
                let mut xs: Vec<usize> = Vec::new();
                for arity in 0..=4 {
                    for x in self.new_methods(&toks[w + 2], arity) {
                        if !xs.contains(&x) {
                            xs.push(x);
                        }
                    }
                }
                for x in xs {
                    let xm = &self.a.methods[x];
                    let Some(body) = lambda_body(xm) else { continue };
                    if xm.class != am.class {
                        continue;
                    }
                    let params: Vec<&str> = xm.params.iter().map(|(p, _)| p.as_str()).collect();
                    let candidates: Vec<Vec<String>> = lambda_heads(&params)
                        .into_iter()
                        .map(|head| {
                            let mut candidate: Vec<String> = toks[..w].to_vec();
                            candidate.extend(head);
                            candidate.extend(body.iter().cloned());
                            candidate.extend(toks[w + 3..].iter().cloned());
                            candidate
                        })
                        .collect();
                    // The lambda's own parameter names are the method's now (`v -> f(v)` became
                    // `f(T value)`): read the old statement with them.
                    // The statement the lambda was in, and whether the method's body is the
                    // lambda's word for word (pure) or but for one name.
                    let found = (0..pool.len()).find_map(|j| {
                        let olds: Vec<Vec<String>> = lambda_params(&pool[j].toks)
                            .into_iter()
                            .filter(|names| names.len() == params.len())
                            .map(|names| renamed(&pool[j].toks, &names, &params))
                            .collect();
                        let near = olds.iter().any(|old| candidates.iter().any(|c| near_equal(c, old)));
                        near.then(|| (j, olds.iter().any(|old| candidates.contains(old))))
                    });
                    if let Some((j, exact)) = found {
                        out.push((x, j, exact));
                    }
                }
            }
        }
        out
    }

    /// Methods of the caller's class, with a body and not explained yet, that the code the caller
    /// gained names by a method reference (`this::m`, `Own::m`): new methods; with `before`, the
    /// code it lost and removed methods.
    pub(super) fn referenced(&self, pair: &Pair, before: bool) -> Vec<usize> {
        let side = self.side(before);
        let (caller, stmts) = if before { (pair.b, &pair.removed) } else { (pair.a, &pair.added) };
        let caller = &side.methods[caller];
        let own = side.classes[caller.class].simple.as_str();
        let by_name = if before { &self.by_name_b } else { &self.by_name_a };
        let open = |m: usize| {
            if before { self.fwd[m].is_none() && !self.used_b[m] } else { self.back[m].is_none() && !self.used_a[m] }
        };
        let mut out = Vec::new();
        for &k in stmts {
            for w in caller.stmts[k].toks.windows(3) {
                if w[1] != "::" || !(w[0] == "this" || w[0] == own) {
                    continue;
                }
                for &m in by_name.get(w[2].as_str()).map(Vec::as_slice).unwrap_or_default() {
                    let method = &side.methods[m];
                    if method.class == caller.class && method.has_body && open(m) && !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// New methods, with a body and not explained yet, of the new classes the code the caller
    /// gained instantiates (`new Bridge(sink, original)`): an anonymous class or a lambda turned
    /// into a named class takes its methods' code from the caller, with no call naming them. A
    /// class that was there before is not one the caller's code became.
    pub(super) fn instantiated(&self, pair: &Pair) -> Vec<usize> {
        let caller = &self.a.methods[pair.a];
        let mut out = Vec::new();
        for &k in &pair.added {
            let toks = &caller.stmts[k].toks;
            for (i, t) in toks.iter().enumerate() {
                if t != "new" {
                    continue;
                }
                let Some(name) = created_class(&toks[i + 1..]) else { continue };
                // An anonymous class or a lambda always implemented a type; so does the class it became.
                let new = |c: &usize| {
                    let class = &self.a.classes[*c];
                    !self.class_back.contains_key(c) && class.simple == name && !class.supers.is_empty()
                };
                for class in (0..self.a.classes.len()).filter(new) {
                    for &m in &self.a.classes[class].methods {
                        let method = &self.a.methods[m];
                        let open = self.back[m].is_none() && !self.used_a[m];
                        if open && method.has_body && !method.ctor && !out.contains(&m) {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out
    }

    /// New methods of other classes that a method reference in the code the caller gained names
    /// (`context::onComplete`, `Owner::parse` for a static one), where code the caller lost had a
    /// lambda computing the method's body (`() -> context.pending().run()` for `return
    /// pending().run();` in the receiver's class, its members read through the receiver): (method,
    /// index in `pool` of the statement holding the lambda, pure: the body written out word for
    /// word).
    pub(super) fn referenced_lambdas_across(&self, pair: &Pair, pool: &[&Norm]) -> Vec<(usize, usize, bool)> {
        let am = &self.a.methods[pair.a];
        let own = self.a.classes[am.class].simple.as_str();
        let mut out: Vec<(usize, usize, bool)> = Vec::new();
        for &k in &pair.added {
            let toks = &am.stmts[k].toks;
            for w in 0..toks.len().saturating_sub(2) {
                let plain = w == 0 || toks[w - 1] != ".";
                if toks[w + 1] != "::" || !plain || matches!(toks[w].as_str(), "this" | "super") || toks[w] == own {
                    continue;
                }
                let Some(ty) = self.type_of_receiver(false, pair.a, &toks[w]) else { continue };
                let by_type = toks[w] == ty;
                let mut xs: Vec<usize> = (0..=4).flat_map(|n| self.new_methods(&toks[w + 2], n)).collect();
                xs.sort_unstable();
                xs.dedup();
                for x in xs {
                    let xm = &self.a.methods[x];
                    let class = &self.a.classes[xm.class];
                    let fits = class.simple == ty && xm.class != am.class && xm.is_static == by_type;
                    if !fits || self.moved_in(x) || out.iter().any(|o| o.0 == x) {
                        continue;
                    }
                    let Some(body) = lambda_body(xm) else { continue };
                    let body = if by_type { body } else { self.through(&body, &toks[w], xm.class) };
                    if let Some(j) = pool.iter().position(|old| holds_lambda(&old.toks, xm, &body)) {
                        out.push((x, j, true));
                    }
                }
            }
        }
        out
    }

    /// `toks`, code of a method of class `class`, read from outside through `receiver`: its
    /// fields, its own methods called unqualified and `this` reached as `receiver . …`.
    fn through(&self, toks: &[String], receiver: &str, class: usize) -> Vec<String> {
        let class = &self.a.classes[class];
        let member = |k: usize| {
            let t = toks[k].as_str();
            let call = toks.get(k + 1).is_some_and(|n| n == "(");
            if call {
                class.methods.iter().any(|&m| self.a.methods[m].name == t)
            } else {
                class.fields.iter().any(|(f, _)| f == t)
            }
        };
        let mut out = Vec::new();
        for k in 0..toks.len() {
            let after_dot = k > 0 && toks[k - 1] == ".";
            if toks[k] == "this" && !after_dot {
                out.push(receiver.to_string());
            } else if !after_dot && member(k) {
                out.extend([receiver.to_string(), ".".to_string(), toks[k].clone()]);
            } else {
                out.push(toks[k].clone());
            }
        }
        out
    }

    /// Removed methods of classes gone from the after side, which code the caller lost
    /// instantiated (`new ExtFilter(extension)`) and code it gained writes out as a lambda (`e ->
    /// …`): (method, index in `pair.added` of the statement holding the lambda, pure). The class's
    /// fields read as the arguments its constructor stored in them.
    pub(super) fn instantiated_lambdas(&self, pair: &Pair) -> Vec<(usize, usize, bool)> {
        let (bm, am) = (&self.b.methods[pair.b], &self.a.methods[pair.a]);
        let mut out: Vec<(usize, usize, bool)> = Vec::new();
        for &k in &pair.removed {
            let toks = &bm.stmts[k].toks;
            for i in (0..toks.len()).filter(|&i| toks[i] == "new") {
                let Some((name, args)) = creation(&toks[i + 1..]) else { continue };
                let gone = |c: &usize| !self.class_fwd.contains_key(c) && self.b.classes[*c].simple == name;
                for class in (0..self.b.classes.len()).filter(gone) {
                    let methods = &self.b.classes[class].methods;
                    let mut ctors = methods.iter().map(|&m| &self.b.methods[m]).filter(|m| m.ctor).peekable();
                    let stored = if ctors.peek().is_none() && args.is_empty() {
                        Some(HashMap::new())
                    } else {
                        ctors.filter(|c| c.params.len() == args.len()).find_map(|c| stored_fields(c, &args))
                    };
                    let Some(stored) = stored else { continue };
                    for &r in methods {
                        let rm = &self.b.methods[r];
                        let open = self.fwd[r].is_none() && !self.used_b[r] && !rm.ctor;
                        if !open || out.iter().any(|o| o.0 == r) {
                            continue;
                        }
                        let Some(body) = lambda_body(rm) else { continue };
                        let body = fields_read_as(&body, &stored);
                        if let Some(j) = pair.added.iter().position(|&a| holds_lambda(&am.stmts[a].toks, rm, &body)) {
                            out.push((r, j, true));
                        }
                    }
                }
            }
        }
        out
    }
}

/// The lambda a method stands for when referenced (`this::m`): its expression (a method of one
/// `return e;`) or its block (`{ … }`, statements without blocks of their own).
fn lambda_body(m: &Method) -> Option<Vec<String>> {
    if let [s] = m.stmts.as_slice()
        && let Some(e) = returned_expr(&s.toks)
    {
        return Some(e.to_vec());
    }
    let blocks = m.stmts.iter().any(|s| s.toks.last().is_none_or(|t| t != ";"));
    (!m.stmts.is_empty() && !blocks).then(|| {
        let mut body = vec!["{".to_string()];
        body.extend(m.stmts.iter().flat_map(|s| s.toks.iter().cloned()));
        body.push("}".into());
        body
    })
}

/// The ways a lambda of these parameters is written: `p ->` and `( p ) ->`, `( p , q ) ->`.
fn lambda_heads(params: &[&str]) -> Vec<Vec<String>> {
    let arrow = "->".to_string();
    let mut parenthesised = vec!["(".to_string()];
    for (i, p) in params.iter().enumerate() {
        if i > 0 {
            parenthesised.push(",".into());
        }
        parenthesised.push(p.to_string());
    }
    parenthesised.push(")".into());
    parenthesised.push(arrow.clone());
    match params {
        [p] => vec![vec![p.to_string(), arrow], parenthesised],
        _ => vec![parenthesised],
    }
}

/// The parameter names of every lambda in `toks` (`x ->`, `( x )  ->`, `( a , b ) ->`, `( ) ->`),
/// untyped ones only.
fn lambda_params(toks: &[String]) -> Vec<Vec<String>> {
    let ident = |t: &str| t.starts_with(|c: char| c.is_alphabetic() || c == '_') && !replace::is_keyword(t);
    let mut out = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        if t != "->" || k == 0 {
            continue;
        }
        if toks[k - 1] != ")" {
            if ident(&toks[k - 1]) {
                out.push(vec![toks[k - 1].clone()]);
            }
            continue;
        }
        let Some(open) = (0..k - 1).rev().find(|&i| toks[i] == "(") else { continue };
        let inner = &toks[open + 1..k - 1];
        let names: Vec<String> = inner.iter().filter(|t| *t != ",").cloned().collect();
        let untyped = inner.iter().enumerate().all(|(i, t)| if i % 2 == 0 { ident(t) } else { t == "," });
        if untyped {
            out.push(names);
        }
    }
    out
}

/// `toks` with each of `from` (not after a dot) written as the matching name of `to`.
fn renamed(toks: &[String], from: &[String], to: &[&str]) -> Vec<String> {
    toks.iter()
        .enumerate()
        .map(|(k, t)| match from.iter().position(|f| f == t) {
            Some(i) if !(k > 0 && toks[k - 1] == ".") => to[i].to_string(),
            _ => t.clone(),
        })
        .collect()
}

/// The simple name of the class an instance creation names, from the tokens after `new` (`a .
/// Outer . Inner <> (`): the last name before the arguments, type arguments or body.
fn created_class(toks: &[String]) -> Option<&str> {
    let open = toks.iter().position(|t| matches!(t.as_str(), "(" | "<" | "[" | "{" | ";")).unwrap_or(toks.len());
    toks[..open].iter().rfind(|t| *t != ".").map(String::as_str)
}

/// Whether `toks` holds a lambda that is method `m`'s `body` word for word, the lambda's
/// parameters read as the method's (`e -> e.size()` for `size(List entry)`'s `entry.size()`).
fn holds_lambda(toks: &[String], m: &Method, body: &[String]) -> bool {
    let params: Vec<&str> = m.params.iter().map(|(p, _)| p.as_str()).collect();
    let heads = lambda_heads(&params);
    lambda_params(toks).into_iter().filter(|names| names.len() == params.len()).any(|names| {
        let read = renamed(toks, &names, &params);
        heads.iter().any(|head| {
            let lambda: Vec<String> = head.iter().chain(body).cloned().collect();
            read.windows(lambda.len()).any(|w| w == lambda.as_slice())
        })
    })
}

/// The class and the arguments of an instance creation, from the tokens after `new`
/// (`a . Outer . Inner < T > ( x , f ( y ) )`); `None` for an anonymous class or an array.
fn creation(toks: &[String]) -> Option<(&str, Vec<Vec<String>>)> {
    let name = created_class(toks)?;
    let open = toks.iter().position(|t| matches!(t.as_str(), "(" | "<" | "[" | "{" | ";"))?;
    let paren = (open..toks.len()).find(|&i| toks[i] == "(" || toks[i] == "[")?;
    if toks[paren] != "(" {
        return None;
    }
    let (mut depth, mut args, mut arg) = (0i32, Vec::new(), Vec::new());
    for (i, t) in toks.iter().enumerate().skip(paren + 1) {
        match t.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" if depth == 0 => {
                if !arg.is_empty() {
                    args.push(arg);
                }
                return (toks.get(i + 1).is_none_or(|n| n != "{")).then_some((name, args));
            }
            ")" | "]" | "}" => depth -= 1,
            "," if depth == 0 => {
                args.push(std::mem::take(&mut arg));
                continue;
            }
            _ => {}
        }
        arg.push(t.clone());
    }
    None
}

/// The fields constructor `ctor` stores its parameters in (`myExtension = extension;`, `this.x =
/// x;`), each as the argument passed for that parameter; `None` when it does more than store
/// and call a super constructor, so that its fields may hold anything.
fn stored_fields(ctor: &Method, args: &[Vec<String>]) -> Option<HashMap<String, Vec<String>>> {
    let mut out = HashMap::new();
    for s in &ctor.stmts {
        let t: Vec<&str> = s.toks.iter().map(String::as_str).collect();
        let (field, value) = match t.as_slice() {
            ["this", ".", f, "=", v, ";"] | [f, "=", v, ";"] => (*f, *v),
            ["super", ..] => continue,
            _ => return None,
        };
        let p = ctor.params.iter().position(|(p, _)| p == value)?;
        out.insert(field.to_string(), args.get(p)?.clone());
    }
    Some(out)
}

/// `toks` with each stored field (`f`, `this . f`, not after another `.`) read as its value.
fn fields_read_as(toks: &[String], stored: &HashMap<String, Vec<String>>) -> Vec<String> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        let this_field = toks[k] == "this" && toks.get(k + 1).is_some_and(|t| t == ".");
        let (name, width) = if this_field { (toks.get(k + 2), 3) } else { (Some(&toks[k]), 1) };
        let after_dot = k > 0 && toks[k - 1] == ".";
        match name.and_then(|n| stored.get(n.as_str())) {
            Some(value) if !after_dot => {
                out.extend(value.iter().cloned());
                k += width;
            }
            _ => {
                out.push(toks[k].clone());
                k += 1;
            }
        }
    }
    out
}
