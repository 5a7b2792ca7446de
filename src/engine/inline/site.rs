//! Inlining at one call site, step by step: what the body's implicit `this` becomes there, the
//! arguments bound to the parameters, the caller's declared type, the body's locals renamed where
//! they would clash, its members qualified for the caller, and finally the body put in place of
//! the call, as an expression or as statements. Each step refuses with its own reason.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::arguments::{ArgInfo, ArgPlan, Qualify, classify_arg, plan_arguments};
use super::callee::{Access, Method, has_effects, has_word, is_read, is_statement_expression};
use super::sites::{Form, names_in_scope, outermost_member, top_level_type};
use super::splice::{mergeable_return, render, temps_names};
use crate::engine::call_sites::{self, CallSite, Receiver, SiteKind, enclosing_type_body};
use crate::engine::edit::Edit;
use crate::engine::layout::statement_deletion;
use crate::engine::precedence::{fit, precedence};
use crate::engine::variable_names::{declared_names, fresh_name, variable_names};
use crate::engine::{Reason, Refusal};
use crate::java::SourceFile;
use crate::java::syntax::Kind;
use crate::text::{line_indent, reindent};

/// The names inlining has introduced so far into each caller member, by `(file, member id)`:
/// later sites in the same member must not take them again.
pub(super) type Introduced = HashMap<(usize, usize), HashSet<String>>;

/// One call site being inlined: the inlined method, the caller, and the call's form there.
struct Site<'a, 't> {
    m: &'a Method<'t>,
    caller: &'a SourceFile,
    /// The caller's text and the inlined method's file's text.
    ctext: &'a str,
    btext: &'a str,
    inv: Node<'a>,
    form: Form<'a>,
    line: usize,
}

/// The arguments bound to the parameters.
struct Bound<'a> {
    args: Vec<ArgInfo<'a>>,
    /// `T tmp = arg;` declarations to put before the call's statement.
    temps: Vec<String>,
    /// Per parameter: the temporary's name, `""` for a dropped parameter, `None` to substitute
    /// the argument's text.
    param_text: Vec<Option<String>>,
    /// Names the caller's member uses, with the arguments' and the temporaries'.
    taken: HashSet<String>,
    /// Names the body itself uses.
    body_names: HashSet<String>,
}

/// The caller's `var x = m(..)` spelled with the method's return type, if that is the form.
struct Declared<'a> {
    var_type: Option<Node<'a>>,
    return_type: String,
}

/// `T v = init; return v;` merged into the caller's `T x = m(..);`: the declaration and the return.
type Merged<'t> = Option<(Node<'t>, Node<'t>)>;

/// The edits that inline `m` at `site`; `introduced` collects the names brought into the caller.
pub(super) fn inline_site(
    files: &[SourceFile],
    m: &Method<'_>,
    site: &CallSite<'_>,
    introduced: &mut Introduced,
) -> Result<Vec<Edit>, Refusal> {
    let caller = &files[site.file];
    let inv = site.node;
    let s = Site {
        m,
        caller,
        ctext: caller.text.as_str(),
        btext: m.file.text.as_str(),
        inv,
        form: Form::of(inv, caller.text.as_str()),
        line: site.line,
    };
    let SiteKind::Call { receiver } = site.kind else {
        return s.refuse(Reason::MethodReference, "a method reference cannot be inlined".into());
    };
    let member = outermost_member(inv);
    let intro = introduced.entry((site.file, member.id())).or_default();
    let mut caller_declared = declared_names(member, s.ctext);
    caller_declared.extend(intro.iter().cloned());
    let mut caller_names: HashSet<String> =
        variable_names(member).iter().map(|n| caller.text_of(*n).to_string()).collect();
    caller_names.extend(intro.iter().cloned());
    if m.single_return.is_none() && s.form.stmt().is_none() {
        return s.refuse(
            Reason::NotStatementPosition,
            "the body has several statements, so the call must be a whole statement (`m(..);`, `x = m(..);`, `T x = m(..);` or `return m(..);`) in a block".into(),
        );
    }
    let directly =
        site.file == m.target.file && enclosing_type_body(inv).is_some_and(|b| b.id() == m.target.type_body.id());
    let q = s.receiver(receiver, directly)?;
    let same_top = site.file == m.target.file && top_level_type(inv) == top_level_type(m.target.node);
    let same_package = s.caller_package() == m.package;
    let accessible = |acc: &Access| same_top || (!acc.is_private && (same_package || acc.is_public));

    let mut edits: Vec<Edit> = Vec::new();
    let bound = s.bind_arguments(member, &caller_names, &mut edits)?;
    let declared = s.declared()?;
    let (mut renames, merged) = s.merge_return(&declared);
    let new_names = s.rename_locals(member, intro, &bound, &caller_names, &mut renames, &mut edits);
    s.qualify_members(&q, &accessible, &caller_declared, &mut edits)?;

    let call_indent = line_indent(s.ctext, s.form.stmt().unwrap_or(inv).start_byte()).to_string();
    if let Some(out) = s.replace_expression(&bound, &declared, &edits, &call_indent) {
        intro.extend(temps_names(&bound.temps));
        return Ok(out);
    }
    let out = s.replace_statement(&bound, &declared, merged, edits, &call_indent)?;
    intro.extend(temps_names(&bound.temps));
    intro.extend(new_names);
    intro.extend(renames.values().cloned());
    Ok(out)
}

impl<'a, 't> Site<'a, 't> {
    fn refuse<T>(&self, reason: Reason, why: String) -> Result<T, Refusal> {
        Err(Refusal::new(reason, format!("`{}` at line {}: {why}", self.m.target.name, self.line)))
    }

    /// What the body's implicit `this`, instance and static members become at this site.
    fn receiver(&self, receiver: Receiver<'_>, directly: bool) -> Result<Qualify, Refusal> {
        let tname = &self.m.target.type_name;
        let q = match receiver {
            Receiver::Implicit if directly => Qualify::default(),
            Receiver::Implicit => Qualify {
                this_text: Some(format!("{tname}.this")),
                instance: (!self.m.target.is_static).then(|| format!("{tname}.this")),
                statics: Some(tname.clone()),
            },
            Receiver::TypeName => Qualify { statics: (!directly).then(|| tname.clone()), ..Qualify::default() },
            Receiver::Expr(r) => {
                let r = self.caller.text_of(r).to_string();
                Qualify { this_text: Some(r.clone()), instance: Some(r), statics: (!directly).then(|| tname.clone()) }
            }
            Receiver::Unknown => return self.refuse(Reason::UnresolvedMember, "the receiver's type is unknown".into()),
        };
        let qualifying = q.instance.is_some() || q.statics.is_some();
        if qualifying && self.m.has_inner_class {
            return self.refuse(
                Reason::InnerClassInBody,
                "the body declares a class whose members cannot be told from the declaring type's at this call site"
                    .into(),
            );
        }
        Ok(q)
    }

    /// The caller's package, as its `package` declaration names it (empty: the default package).
    fn caller_package(&self) -> String {
        let root = self.caller.root();
        root.named_children(&mut root.walk())
            .find(|n| n.kind() == "package_declaration")
            .map(|p| self.caller.text_of(p).trim_start_matches("package").trim_end_matches(';').trim().to_string())
            .unwrap_or_default()
    }

    /// Binds each argument to its parameter: substituted into the body's uses, or evaluated once
    /// into a temporary, or dropped. The substitutions go into `edits`.
    fn bind_arguments(
        &self,
        member: Node<'a>,
        caller_names: &HashSet<String>,
        edits: &mut Vec<Edit>,
    ) -> Result<Bound<'a>, Refusal> {
        let (m, caller) = (self.m, self.caller);
        let arg_nodes = call_sites::arguments(self.inv);
        let args: Vec<ArgInfo<'a>> = arg_nodes.iter().map(|a| classify_arg(*a, caller)).collect();
        let plan = plan_arguments(m, &args, member, caller);
        let body_names: HashSet<String> = m.names.iter().map(|n| m.file.text_of(*n).to_string()).collect();
        let mut temps: Vec<String> = Vec::new();
        let mut taken: HashSet<String> = caller_names.clone();
        for a in &args {
            taken.extend(variable_names(a.node).iter().map(|n| caller.text_of(*n).to_string()));
        }
        let mut param_text: Vec<Option<String>> = Vec::new();
        for (i, p) in m.params.iter().enumerate() {
            match plan[i] {
                ArgPlan::Temp => {
                    if m.type_params.iter().any(|tp| has_word(&p.type_text, tp)) {
                        return self.refuse(
                            Reason::GenericMethod,
                            format!(
                                "argument `{}` needs a temporary of type `{}`, a type parameter of the method",
                                args[i].text, p.type_text
                            ),
                        );
                    }
                    let tmp =
                        if taken.contains(&p.name) { fresh_name(&p.name, &taken, &body_names) } else { p.name.clone() };
                    taken.insert(tmp.clone());
                    temps.push(format!("{} {tmp} = {};", p.type_text, args[i].text));
                    param_text.push(Some(tmp));
                }
                ArgPlan::Substitute => param_text.push(None),
                ArgPlan::Drop => param_text.push(Some(String::new())),
            }
        }
        if !temps.is_empty() && self.form.stmt().is_none() {
            return self.refuse(
                Reason::NeedsTemporary,
                "an argument must be evaluated once into a temporary (side effects, repeated use or a reassigned parameter), but the call is inside a larger expression; assign the call to a local first".into(),
            );
        }
        for (i, uses) in m.uses.iter().enumerate() {
            for u in uses {
                let replacement = match &param_text[i] {
                    Some(t) => t.clone(),
                    None => fit(*u, self.btext, &args[i].text, precedence(args[i].node, self.ctext)),
                };
                edits.push(Edit::replace(u.byte_range(), replacement));
            }
        }
        Ok(Bound { args, temps, param_text, taken, body_names })
    }

    /// `var x = m(..)`: `x` had the method's return type; it is spelled out, since the inlined
    /// expression's own type may differ (`new ArrayList<>()` for a `List<String>` method).
    fn declared(&self) -> Result<Declared<'a>, Refusal> {
        let var_type = match self.form {
            Form::Declare { stmt, .. } => stmt.child_by_field_name("type").filter(|t| self.caller.text_of(*t) == "var"),
            _ => None,
        };
        let m = self.m;
        let return_type =
            m.target.node.child_by_field_name("type").map(|t| m.file.text_of(t).to_string()).unwrap_or_default();
        if var_type.is_some() && m.type_params.iter().any(|tp| has_word(&return_type, tp)) {
            return self.refuse(
                Reason::GenericMethod,
                format!("`var` would need the return type `{return_type}`, which uses a type parameter of the method"),
            );
        }
        Ok(Declared { var_type, return_type })
    }

    /// The caller's declared type for `t`, with `var` spelled out.
    fn declared_type(&self, declared: &Declared<'_>, t: Node<'_>) -> String {
        if declared.var_type.is_some() { declared.return_type.clone() } else { self.caller.text_of(t).to_string() }
    }

    /// The caller's declaration up to `upto` (its modifiers, type and name), with `var` spelled out.
    fn decl_prefix(&self, declared: &Declared<'_>, upto: usize) -> String {
        let Form::Declare { stmt, .. } = self.form else { return String::new() };
        let ctext = self.ctext;
        match declared.var_type {
            Some(v) => format!(
                "{}{}{}",
                &ctext[stmt.start_byte()..v.start_byte()],
                declared.return_type,
                &ctext[v.end_byte()..upto]
            ),
            None => ctext[stmt.start_byte()..upto].to_string(),
        }
    }

    /// Merges `T v = init; return v;` into the caller's `T x = m(..);`: `v` is renamed `x`.
    fn merge_return(&self, declared: &Declared<'_>) -> (HashMap<String, String>, Merged<'t>) {
        let mut renames: HashMap<String, String> = HashMap::new();
        let mut merged = None;
        if let Form::Declare { stmt, name: xname, .. } = self.form
            && self.m.single_return.is_none()
            && let Some((vdecl, ret)) = mergeable_return(
                self.m,
                &self.declared_type(declared, stmt.child_by_field_name("type").unwrap_or(stmt)),
                self.ctext,
            )
        {
            let v = self.m.file.text_of(ret.named_child(0).unwrap_or(ret)).to_string();
            let x = self.caller.text_of(xname).to_string();
            renames.insert(v, x);
            merged = Some((vdecl, ret));
        }
        (renames, merged)
    }

    /// Renames the body's locals that would clash at the call site; returns the names the body's
    /// locals take there.
    fn rename_locals(
        &self,
        member: Node<'a>,
        intro: &HashSet<String>,
        bound: &Bound<'_>,
        caller_names: &HashSet<String>,
        renames: &mut HashMap<String, String>,
        edits: &mut Vec<Edit>,
    ) -> HashSet<String> {
        let m = self.m;
        let mut scoped = names_in_scope(member, self.inv, self.ctext);
        scoped.extend(intro.iter().cloned());
        scoped.extend(bound.taken.difference(caller_names).cloned());
        let mut locals: Vec<&String> = m.locals.iter().collect();
        locals.sort();
        let mut new_names: HashSet<String> = HashSet::new();
        for l in locals {
            if renames.contains_key(l) {
                continue;
            }
            // A local of a nested scope (a loop variable, say) only meets the names in scope at
            // the call and those the inlining brings in; a top-level one lives to the end of the
            // caller's block, where any later use of the name could be captured.
            let clashes = if m.top_level_locals.contains(l) { bound.taken.contains(l) } else { scoped.contains(l) };
            if clashes || new_names.contains(l) {
                let mut avoid = bound.body_names.clone();
                avoid.extend(new_names.iter().cloned());
                let fresh = fresh_name(l, &bound.taken, &avoid);
                new_names.insert(fresh.clone());
                renames.insert(l.clone(), fresh);
            } else {
                new_names.insert(l.clone());
            }
        }
        for n in &m.names {
            let t = m.file.text_of(*n);
            if m.locals.contains(t)
                && let Some(r) = renames.get(t)
            {
                edits.push(Edit::replace(n.byte_range(), r.clone()));
            }
        }
        new_names
    }

    /// The body's implicit `this`, its unqualified fields and calls, qualified for the call site;
    /// a field the site cannot read goes through its getter, and a name a caller's local would
    /// capture is refused.
    fn qualify_members(
        &self,
        q: &Qualify,
        accessible: &dyn Fn(&Access) -> bool,
        caller_declared: &HashSet<String>,
        edits: &mut Vec<Edit>,
    ) -> Result<(), Refusal> {
        let m = self.m;
        let tname = &m.target.type_name;
        // A getter the call site may call instead of reading a field it cannot; never the method
        // being inlined, which goes.
        let getter_of = |name: &str, read: bool| {
            m.getters
                .get(name)
                .filter(|g| read && !g.overridable && accessible(&g.access) && g.span != m.target.node.byte_range())
                .map(|g| g.name.as_str())
        };
        for t in &m.this_nodes {
            // `this.f`: the field must be readable where the body lands, as a bare `f` must.
            let field = t
                .parent()
                .filter(|p| p.kind_name() == "field_access" && p.child_by_field_name("object") == Some(*t))
                .and_then(|p| p.child_by_field_name("field"));
            if let Some(f) = field
                && let Some(acc) = m.fields.get(m.file.text_of(f))
                && !accessible(acc)
            {
                let name = m.file.text_of(f);
                match getter_of(name, is_read(f)) {
                    Some(g) => edits.push(Edit::replace(f.byte_range(), format!("{g}()"))),
                    None => {
                        return self.refuse(
                            Reason::InaccessibleMember,
                            format!(
                                "the body uses field `{name}` of {tname}, which is not accessible at the call site"
                            ),
                        );
                    }
                }
            }
            if let Some(r) = &q.this_text {
                edits.push(Edit::replace(t.byte_range(), r.clone()));
            }
        }
        for n in &m.free_names {
            let t = m.file.text_of(*n);
            if m.static_imports.contains(t) {
                continue;
            }
            let field = m.fields.get(t);
            // A field the call site cannot read is read through its getter, when one is sure to return it.
            let getter = match field {
                Some(acc) if !accessible(acc) => match getter_of(t, is_read(*n)) {
                    Some(g) => Some(g),
                    None => {
                        return self.refuse(
                            Reason::InaccessibleMember,
                            format!("the body uses field `{t}` of {tname}, which is not accessible at the call site"),
                        );
                    }
                },
                _ => None,
            };
            let outer = m.outer_statics.get(t).filter(|_| field.is_none());
            if let Some((_, acc)) = outer
                && (q.instance.is_some() || q.statics.is_some())
                && !accessible(acc)
            {
                return self.refuse(
                    Reason::InaccessibleMember,
                    format!("the body uses the static field `{t}` of an enclosing class, which is not accessible at the call site"),
                );
            }
            let prefix = match field {
                Some(acc) if acc.is_static => q.statics.clone(),
                Some(_) => q.instance.clone(),
                // A static field of an enclosing class: through that class, away from it.
                None if outer.is_some() && (q.instance.is_some() || q.statics.is_some()) => {
                    outer.map(|(o, _)| o.clone())
                }
                None if t.starts_with(|c: char| c.is_lowercase()) && q.instance.is_some() => q.instance.clone(),
                None if t.starts_with(|c: char| c.is_lowercase()) && q.statics.is_some() => {
                    return self.refuse(
                        Reason::UnresolvedMember,
                        format!(
                            "the body uses `{t}`, which {tname} does not declare; it cannot be qualified for the call site"
                        ),
                    );
                }
                None => None,
            };
            let prefix = match prefix {
                Some(p) => Some(p),
                None if caller_declared.contains(t) => match field {
                    Some(acc) if acc.is_static => Some(tname.clone()),
                    Some(_) => Some("this".to_string()),
                    None => {
                        return self.refuse(
                            Reason::NameCapture,
                            format!(
                                "the body's `{t}` would refer to the caller's local `{t}`; rename that local first"
                            ),
                        );
                    }
                },
                None => None,
            };
            let prefix = prefix.map(|p| format!("{p}.")).unwrap_or_default();
            match getter {
                Some(g) => edits.push(Edit::replace(n.byte_range(), format!("{prefix}{g}()"))),
                None if !prefix.is_empty() => edits.push(Edit::insert(n.start_byte(), prefix)),
                None => {}
            }
        }
        for c in &m.implicit_calls {
            let Some(id) = c.child_by_field_name("name") else { continue };
            let t = m.file.text_of(id);
            if m.static_imports.contains(t) {
                continue;
            }
            let method = m.methods.get(t);
            if let Some(acc) = method
                && !accessible(acc)
            {
                return self.refuse(
                    Reason::InaccessibleMember,
                    format!("the body calls `{t}` of {tname}, which is not accessible at the call site"),
                );
            }
            let outer = m.outer_static_methods.get(t).filter(|_| method.is_none());
            if let Some((_, acc)) = outer
                && (q.instance.is_some() || q.statics.is_some())
                && !accessible(acc)
            {
                return self.refuse(
                    Reason::InaccessibleMember,
                    format!("the body calls the static `{t}` of an enclosing class, which is not accessible at the call site"),
                );
            }
            let prefix = match (method, outer) {
                (Some(acc), _) if acc.is_static => q.statics.clone(),
                // A static method of an enclosing class: through that class, away from it.
                (None, Some((o, _))) if q.instance.is_some() || q.statics.is_some() => Some(o.clone()),
                _ => q.instance.clone().or_else(|| q.statics.clone()),
            };
            if let Some(p) = prefix {
                edits.push(Edit::insert(c.start_byte(), format!("{p}.")));
            }
        }
        Ok(())
    }

    /// A body that returns one expression, at a call that is not a statement of its own: the
    /// expression replaces the call (temporaries go before the call's statement). `None` when
    /// the body must go in as statements.
    fn replace_expression(
        &self,
        bound: &Bound<'_>,
        declared: &Declared<'_>,
        edits: &[Edit],
        call_indent: &str,
    ) -> Option<Vec<Edit>> {
        let (m, ctext, btext) = (self.m, self.ctext, self.btext);
        let expr = m.single_return?;
        if matches!(self.form, Form::Expr { .. }) {
            return None;
        }
        let mut text = render(btext, expr.byte_range(), edits).ok()?;
        text = reindent(&text, line_indent(btext, expr.start_byte()), call_indent);
        let prec = match m.params.iter().position(|p| expr.kind() == "identifier" && m.file.text_of(expr) == p.name) {
            Some(i) if bound.param_text[i].is_none() => precedence(bound.args[i].node, ctext),
            _ => precedence(expr, btext),
        };
        let mut out = Vec::new();
        if let Some(stmt) = self.form.stmt()
            && !bound.temps.is_empty()
        {
            out.push(Edit::insert(
                stmt.start_byte(),
                bound.temps.iter().map(|t| format!("{t}\n{call_indent}")).collect::<String>(),
            ));
        }
        if let Some(v) = declared.var_type {
            out.push(Edit::replace(v.byte_range(), declared.return_type.clone()));
        }
        out.push(Edit::replace(self.inv.byte_range(), fit(self.inv, ctext, &text, prec)));
        Some(out)
    }

    /// The body's statements in place of the call's statement, each `return` turned into what
    /// the call's form did with the value (nothing, an assignment, the caller's declaration).
    fn replace_statement(
        &self,
        bound: &Bound<'_>,
        declared: &Declared<'_>,
        merged: Merged<'t>,
        mut edits: Vec<Edit>,
        call_indent: &str,
    ) -> Result<Vec<Edit>, Refusal> {
        let (m, caller, ctext, btext) = (self.m, self.caller, self.ctext, self.btext);
        let form = self.form;
        let Some(stmt) = form.stmt() else {
            return self.refuse(
                Reason::NotStatementPosition,
                "the body has several statements, so the call must be a whole statement (`m(..);`, `x = m(..);`, `T x = m(..);` or `return m(..);`)".into(),
            );
        };
        if !matches!(form, Form::Return { .. })
            && let Some(r) = m.returns.iter().find(|r| !m.tail_returns.contains(&r.id()))
        {
            return self.refuse(
                Reason::EarlyReturn,
                format!(
                    "the body returns early (line {}); only `return m(..);` call sites can take such a body",
                    r.start_position().row + 1
                ),
            );
        }
        let mut pre: Vec<String> = bound.temps.clone();
        for r in &m.returns {
            let value = r.named_children(&mut r.walk()).find(|c| !c.is_extra());
            match (form, value) {
                (Form::Return { .. }, _) => {}
                (_, None) => edits.push(Edit::delete(statement_deletion(btext, *r))),
                (Form::Expr { .. }, Some(v)) => {
                    if is_statement_expression(v.kind()) {
                        edits.push(Edit::delete(r.start_byte()..v.start_byte()));
                    } else if has_effects(v) {
                        return self.refuse(Reason::DiscardedResult, "the call discards a returned expression that has side effects but is not a statement; assign the call to a local first".into());
                    } else {
                        edits.push(Edit::delete(statement_deletion(btext, *r)));
                    }
                }
                (Form::Assign { stmt, right }, Some(v)) => {
                    edits.push(Edit::replace(
                        r.start_byte()..v.start_byte(),
                        &ctext[stmt.start_byte()..right.start_byte()],
                    ));
                }
                (Form::Declare { name, value, .. }, Some(v)) => {
                    if merged.is_some_and(|(_, ret)| ret.id() == r.id()) {
                        edits.push(Edit::delete(statement_deletion(btext, *r)));
                    } else if m.tail_returns.len() == 1 {
                        edits.push(Edit::replace(
                            r.start_byte()..v.start_byte(),
                            self.decl_prefix(declared, value.start_byte()),
                        ));
                    } else {
                        edits.push(Edit::replace(
                            r.start_byte()..v.start_byte(),
                            format!("{} = ", caller.text_of(name)),
                        ));
                    }
                }
                (Form::Nested, _) => unreachable!("statement forms only"),
            }
        }
        if let Form::Declare { name, .. } = form {
            if let Some((vdecl, _)) = merged {
                // `U v = init;` takes the caller's modifiers and type: `final T x = init;`
                if let Some(d) = vdecl.child_by_field_name("declarator") {
                    edits.push(Edit::replace(
                        vdecl.start_byte()..d.start_byte(),
                        self.decl_prefix(declared, name.start_byte()),
                    ));
                }
            } else if m.tail_returns.len() > 1 {
                pre.push(format!("{};", self.decl_prefix(declared, name.end_byte())));
            }
            if m.tail_returns.is_empty() {
                return self.refuse(Reason::EarlyReturn, "the body never returns a value at its end".into());
            }
        }
        let children: Vec<Node<'_>> = m.body.named_children(&mut m.body.walk()).collect();
        let body_text = match (children.first(), children.last()) {
            (Some(first), Some(last)) => {
                let t = render(btext, first.start_byte()..last.end_byte(), &edits).or_else(|why| {
                    self.refuse(Reason::OverlappingEdits, format!("two rewrites of the inlined body overlap ({why})"))
                })?;
                reindent(&t, line_indent(btext, first.start_byte()), call_indent)
            }
            _ => String::new(),
        };
        let mut parts = pre;
        if !body_text.trim().is_empty() {
            parts.push(body_text.trim_start().to_string());
        }
        if parts.is_empty() {
            return Ok(vec![Edit::delete(statement_deletion(ctext, stmt))]);
        }
        Ok(vec![Edit::replace(stmt.byte_range(), parts.join(&format!("\n{call_indent}")))])
    }
}
