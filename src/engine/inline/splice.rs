//! Splicing: the inlined body rewritten and put in place of one call, and the declaration removed.

use super::arguments::{ArgInfo, ArgPlan, Qualify, classify_arg, plan_arguments};
use super::callee::{Access, Method, has_effects, has_word, is_read, is_statement_expression};
use super::sites::{Form, names_in_scope, outermost_member, top_level_type};
use crate::engine::call_sites::{self, CallSite, Receiver, SiteKind, enclosing_type_body};
use crate::engine::edit::{self, Edit};
use crate::engine::precedence::{fit, precedence};
use crate::engine::variable_names::{declared_names, descendants, fresh_name, is_declaration_name, variable_names};
use crate::engine::{Reason, Refusal};
use crate::java::SourceFile;
use crate::text::{line_indent, reindent};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use tree_sitter::Node;

/// The range to delete for a statement alone on its line(s): the line break before it too.
pub(super) fn statement_deletion(text: &str, node: Node<'_>) -> Range<usize> {
    let (s, e) = (node.start_byte(), node.end_byte());
    let line_start = text[..s].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let alone_before = text[line_start..s].trim().is_empty();
    let rest = &text[e..];
    let line_end = rest.find('\n').map(|i| e + i).unwrap_or(text.len());
    let alone_after = text[e..line_end].trim().is_empty();
    if alone_before && alone_after && line_start > 0 { (line_start - 1)..e } else { s..e }
}

/// Renders `range` of `text` with the edits that fall inside it.
pub(super) fn render(text: &str, range: Range<usize>, edits: &[Edit]) -> String {
    // Edits inside a replaced or deleted range (a deleted `return v;`, a declaration prefix
    // taken from the caller) go with it.
    let covering: Vec<&Edit> = edits.iter().filter(|d| d.start < d.end).collect();
    let swallowed = |e: &Edit| {
        covering.iter().any(|d| {
            !std::ptr::eq(*d, e)
                && d.start <= e.start
                && e.end <= d.end
                && e.start < d.end
                && (d.start, d.end) != (e.start, e.end)
        })
    };
    // A deletion may reach back over the line break before the region's first statement.
    let inside: Vec<Edit> = edits
        .iter()
        .filter(|e| !swallowed(e))
        .filter(|e| e.end <= range.end && (e.start >= range.start || (e.end > range.start && e.replacement.is_empty())))
        .map(|e| Edit {
            start: e.start.max(range.start) - range.start,
            end: e.end - range.start,
            replacement: e.replacement.clone(),
        })
        .collect();
    // Edits are built from disjoint tree nodes, so they cannot overlap.
    edit::apply("inlined body", &text[range], &inside).unwrap_or_else(|e| unreachable!("disjoint edits: {e}"))
}

pub(super) fn inline_site(
    files: &[SourceFile],
    m: &Method<'_>,
    site: &CallSite<'_>,
    introduced: &mut HashMap<(usize, usize), HashSet<String>>,
) -> Result<Vec<Edit>, Refusal> {
    let caller = &files[site.file];
    let ctext = caller.text.as_str();
    let btext = m.file.text.as_str();
    let inv = site.node;
    let line = site.line;
    let name = &m.target.name;
    let refuse = |reason: Reason, why: String| Err(Refusal::new(reason, format!("`{name}` at line {line}: {why}")));
    let SiteKind::Call { receiver } = site.kind else {
        return refuse(Reason::MethodReference, "a method reference cannot be inlined".into());
    };
    let member = outermost_member(inv);
    let key = (site.file, member.id());
    let intro = introduced.entry(key).or_default();
    let mut caller_declared = declared_names(member, ctext);
    caller_declared.extend(intro.iter().cloned());
    let mut caller_names: HashSet<String> =
        variable_names(member).iter().map(|n| caller.text_of(*n).to_string()).collect();
    caller_names.extend(intro.iter().cloned());
    let form = Form::of(inv, ctext);
    if m.single_return.is_none() && form.stmt().is_none() {
        return refuse(
            Reason::NotStatementPosition,
            "the body has several statements, so the call must be a whole statement (`m(..);`, `x = m(..);`, `T x = m(..);` or `return m(..);`) in a block".into(),
        );
    }

    // --- receiver: what implicit `this` becomes at this site
    let same_top = site.file == m.target.file && top_level_type(inv) == top_level_type(m.target.node);
    let directly =
        site.file == m.target.file && enclosing_type_body(inv).is_some_and(|b| b.id() == m.target.type_body.id());
    let tname = &m.target.type_name;
    let q = match receiver {
        Receiver::Implicit if directly => Qualify::default(),
        Receiver::Implicit => Qualify {
            this_text: Some(format!("{tname}.this")),
            instance: (!m.target.is_static).then(|| format!("{tname}.this")),
            statics: Some(tname.clone()),
        },
        Receiver::TypeName => Qualify { statics: (!directly).then(|| tname.clone()), ..Qualify::default() },
        Receiver::Expr(r) => {
            let r = caller.text_of(r).to_string();
            Qualify { this_text: Some(r.clone()), instance: Some(r), statics: (!directly).then(|| tname.clone()) }
        }
        Receiver::Unknown => return refuse(Reason::UnresolvedMember, "the receiver's type is unknown".into()),
    };
    let qualifying = q.instance.is_some() || q.statics.is_some();
    if qualifying && m.has_inner_class {
        return refuse(
            Reason::InnerClassInBody,
            "the body declares a class whose members cannot be told from the declaring type's at this call site".into(),
        );
    }
    let same_package = {
        let cpkg = caller
            .root()
            .named_children(&mut caller.root().walk())
            .find(|n| n.kind() == "package_declaration")
            .map(|p| caller.text_of(p).trim_start_matches("package").trim_end_matches(';').trim().to_string())
            .unwrap_or_default();
        cpkg == m.package
    };
    let accessible = |acc: &Access| same_top || (!acc.is_private && (same_package || acc.is_public));

    let mut edits: Vec<Edit> = Vec::new();
    // --- arguments
    let arg_nodes = call_sites::arguments(inv);
    let args: Vec<ArgInfo<'_>> = arg_nodes.iter().map(|a| classify_arg(*a, caller)).collect();
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
                    return refuse(
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
    if !temps.is_empty() && form.stmt().is_none() {
        return refuse(
            Reason::NeedsTemporary,
            "an argument must be evaluated once into a temporary (side effects, repeated use or a reassigned parameter), but the call is inside a larger expression; assign the call to a local first".into(),
        );
    }
    for (i, uses) in m.uses.iter().enumerate() {
        for u in uses {
            let replacement = match &param_text[i] {
                Some(t) => t.clone(),
                None => fit(*u, btext, &args[i].text, precedence(args[i].node, ctext)),
            };
            edits.push(Edit::replace(u.byte_range(), replacement));
        }
    }

    // --- `var x = m(..)`: x had the method's return type; spell it, since the inlined
    // expression's own type may differ (`new ArrayList<>()` for a `List<String>` method).
    let var_type = match form {
        Form::Declare { stmt, .. } => stmt.child_by_field_name("type").filter(|t| caller.text_of(*t) == "var"),
        _ => None,
    };
    let return_type =
        m.target.node.child_by_field_name("type").map(|t| m.file.text_of(t).to_string()).unwrap_or_default();
    if var_type.is_some() && m.type_params.iter().any(|tp| has_word(&return_type, tp)) {
        return refuse(
            Reason::GenericMethod,
            format!("`var` would need the return type `{return_type}`, which uses a type parameter of the method"),
        );
    }
    let declared_type =
        |t: Node<'_>| if var_type.is_some() { return_type.clone() } else { caller.text_of(t).to_string() };
    let decl_prefix = |upto: usize| -> String {
        let Form::Declare { stmt, .. } = form else { return String::new() };
        match var_type {
            Some(v) => {
                format!("{}{}{}", &ctext[stmt.start_byte()..v.start_byte()], return_type, &ctext[v.end_byte()..upto])
            }
            None => ctext[stmt.start_byte()..upto].to_string(),
        }
    };

    // --- merge `T v = init; return v;` into the caller's `T x = ...`
    let mut renames: HashMap<String, String> = HashMap::new();
    let mut merged: Option<(Node<'_>, Node<'_>)> = None; // (declaration of v, final return)
    if let Form::Declare { stmt, name: xname, .. } = form
        && m.single_return.is_none()
        && let Some((vdecl, ret)) =
            mergeable_return(m, &declared_type(stmt.child_by_field_name("type").unwrap_or(stmt)), ctext)
    {
        let v = m.file.text_of(ret.named_child(0).unwrap_or(ret)).to_string();
        let x = caller.text_of(xname).to_string();
        renames.insert(v, x);
        merged = Some((vdecl, ret));
    }
    // --- rename body locals that would clash at the call site
    let mut scoped = names_in_scope(member, inv, ctext);
    scoped.extend(intro.iter().cloned());
    scoped.extend(taken.difference(&caller_names).cloned());
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
        let clashes = if m.top_level_locals.contains(l) { taken.contains(l) } else { scoped.contains(l) };
        if clashes || new_names.contains(l) {
            let mut avoid = body_names.clone();
            avoid.extend(new_names.iter().cloned());
            let fresh = fresh_name(l, &taken, &avoid);
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

    // --- implicit `this`, qualified members, captured names
    for t in &m.this_nodes {
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
            Some(acc) if !accessible(acc) => {
                match m.getters.get(t).filter(|g| !g.overridable && accessible(&g.access) && is_read(*n)) {
                    Some(g) => Some(g.name.as_str()),
                    None => {
                        return refuse(
                            Reason::InaccessibleMember,
                            format!("the body uses field `{t}` of {tname}, which is not accessible at the call site"),
                        );
                    }
                }
            }
            _ => None,
        };
        let prefix = match field {
            Some(acc) if acc.is_static => q.statics.clone(),
            Some(_) => q.instance.clone(),
            None if t.starts_with(|c: char| c.is_lowercase()) && q.instance.is_some() => q.instance.clone(),
            None if t.starts_with(|c: char| c.is_lowercase()) && q.statics.is_some() => {
                return refuse(
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
                    return refuse(
                        Reason::NameCapture,
                        format!("the body's `{t}` would refer to the caller's local `{t}`; rename that local first"),
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
            return refuse(
                Reason::InaccessibleMember,
                format!("the body calls `{t}` of {tname}, which is not accessible at the call site"),
            );
        }
        let prefix = match method {
            Some(acc) if acc.is_static => q.statics.clone(),
            _ => q.instance.clone().or_else(|| q.statics.clone()),
        };
        if let Some(p) = prefix {
            edits.push(Edit::insert(c.start_byte(), format!("{p}.")));
        }
    }

    let call_indent = line_indent(ctext, form.stmt().unwrap_or(inv).start_byte()).to_string();
    // --- a single returned expression replaces the call
    if let Some(expr) = m.single_return
        && !matches!(form, Form::Expr { .. })
    {
        let mut text = render(btext, expr.byte_range(), &edits);
        text = reindent(&text, line_indent(btext, expr.start_byte()), &call_indent);
        let prec = match m.params.iter().position(|p| expr.kind() == "identifier" && m.file.text_of(expr) == p.name) {
            Some(i) if param_text[i].is_none() => precedence(args[i].node, ctext),
            _ => precedence(expr, btext),
        };
        let mut out = Vec::new();
        if let Some(stmt) = form.stmt()
            && !temps.is_empty()
        {
            out.push(Edit::insert(
                stmt.start_byte(),
                temps.iter().map(|t| format!("{t}\n{call_indent}")).collect::<String>(),
            ));
        }
        if let Some(v) = var_type {
            out.push(Edit::replace(v.byte_range(), return_type.clone()));
        }
        out.push(Edit::replace(inv.byte_range(), fit(inv, ctext, &text, prec)));
        intro.extend(temps_names(&temps));
        return Ok(out);
    }

    // --- statement-level inlining
    let Some(stmt) = form.stmt() else {
        return refuse(
            Reason::NotStatementPosition,
            "the body has several statements, so the call must be a whole statement (`m(..);`, `x = m(..);`, `T x = m(..);` or `return m(..);`)".into(),
        );
    };
    if !matches!(form, Form::Return { .. })
        && let Some(r) = m.returns.iter().find(|r| !m.tail_returns.contains(&r.id()))
    {
        return refuse(
            Reason::EarlyReturn,
            format!(
                "the body returns early (line {}); only `return m(..);` call sites can take such a body",
                r.start_position().row + 1
            ),
        );
    }
    let mut pre: Vec<String> = temps.clone();
    for r in &m.returns {
        let value = r.named_children(&mut r.walk()).find(|c| !c.is_extra());
        match (form, value) {
            (Form::Return { .. }, _) => {}
            (_, None) => edits.push(Edit::delete(statement_deletion(btext, *r))),
            (Form::Expr { .. }, Some(v)) => {
                if is_statement_expression(v.kind()) {
                    edits.push(Edit::delete(r.start_byte()..v.start_byte()));
                } else if has_effects(v) {
                    return refuse(Reason::DiscardedResult, "the call discards a returned expression that has side effects but is not a statement; assign the call to a local first".into());
                } else {
                    edits.push(Edit::delete(statement_deletion(btext, *r)));
                }
            }
            (Form::Assign { stmt, right }, Some(v)) => {
                edits
                    .push(Edit::replace(r.start_byte()..v.start_byte(), &ctext[stmt.start_byte()..right.start_byte()]));
            }
            (Form::Declare { name, value, .. }, Some(v)) => {
                if merged.is_some_and(|(_, ret)| ret.id() == r.id()) {
                    edits.push(Edit::delete(statement_deletion(btext, *r)));
                } else if m.tail_returns.len() == 1 {
                    edits.push(Edit::replace(r.start_byte()..v.start_byte(), decl_prefix(value.start_byte())));
                } else {
                    edits.push(Edit::replace(r.start_byte()..v.start_byte(), format!("{} = ", caller.text_of(name))));
                }
            }
            (Form::Nested, _) => unreachable!("statement forms only"),
        }
    }
    if let Form::Declare { name, .. } = form {
        if let Some((vdecl, _)) = merged {
            // `U v = init;` takes the caller's modifiers and type: `final T x = init;`
            if let Some(d) = vdecl.child_by_field_name("declarator") {
                edits.push(Edit::replace(vdecl.start_byte()..d.start_byte(), decl_prefix(name.start_byte())));
            }
        } else if m.tail_returns.len() > 1 {
            pre.push(format!("{};", decl_prefix(name.end_byte())));
        }
        if m.tail_returns.is_empty() {
            return refuse(Reason::EarlyReturn, "the body never returns a value at its end".into());
        }
    }
    let children: Vec<Node<'_>> = m.body.named_children(&mut m.body.walk()).collect();
    let body_text = match (children.first(), children.last()) {
        (Some(first), Some(last)) => {
            let t = render(btext, first.start_byte()..last.end_byte(), &edits);
            reindent(&t, line_indent(btext, first.start_byte()), &call_indent)
        }
        _ => String::new(),
    };
    let mut parts = pre;
    if !body_text.trim().is_empty() {
        parts.push(body_text.trim_start().to_string());
    }
    intro.extend(temps_names(&temps));
    intro.extend(new_names);
    intro.extend(renames.values().cloned());
    if parts.is_empty() {
        return Ok(vec![Edit::delete(statement_deletion(ctext, stmt))]);
    }
    Ok(vec![Edit::replace(stmt.byte_range(), parts.join(&format!("\n{call_indent}")))])
}

pub(super) fn temps_names(temps: &[String]) -> Vec<String> {
    temps.iter().filter_map(|t| t.split(" = ").next()?.rsplit(' ').next().map(str::to_string)).collect()
}

/// `U v = init; ... return v;` where `v` is declared once at the top of the body with the
/// caller's type and never reassigned: the caller's variable can take `v`'s place.
pub(super) fn mergeable_return<'t>(m: &Method<'t>, caller_type: &str, _ctext: &str) -> Option<(Node<'t>, Node<'t>)> {
    let ret = *m.statements.last()?;
    if ret.kind() != "return_statement" || m.tail_returns.len() != 1 || m.returns.len() != 1 {
        return None;
    }
    let v = ret.named_child(0)?;
    if v.kind() != "identifier" {
        return None;
    }
    let vname = m.file.text_of(v);
    let vdecl = m.statements.iter().copied().find(|s| {
        s.kind() == "local_variable_declaration"
            && s.children_by_field_name("declarator", &mut s.walk()).count() == 1
            && s.child_by_field_name("declarator")
                .and_then(|d| d.child_by_field_name("name"))
                .is_some_and(|n| m.file.text_of(n) == vname)
    })?;
    let same_type = vdecl.child_by_field_name("type").is_some_and(|t| {
        let norm = |s: &str| s.split_whitespace().collect::<String>();
        norm(m.file.text_of(t)) == norm(caller_type)
    });
    let declared_once =
        m.names.iter().filter(|n| is_declaration_name(**n) && m.file.text_of(**n) == vname).count() == 1;
    let reassigned = descendants(m.body).into_iter().any(|n| match n.kind() {
        "assignment_expression" => n.child_by_field_name("left").is_some_and(|l| m.file.text_of(l) == vname),
        "update_expression" => n.named_child(0).is_some_and(|l| m.file.text_of(l) == vname),
        _ => false,
    });
    (same_type && declared_once && !reassigned && !m.params.iter().any(|p| p.name == vname)).then_some((vdecl, ret))
}

/// The declaration with its Javadoc and comments, whole lines, and one adjacent blank line.
pub(super) fn declaration_range(file: &SourceFile, decl: Node<'_>) -> Range<usize> {
    let text = file.text.as_str();
    let mut start = decl.start_byte();
    let mut prev = decl.prev_sibling();
    while let Some(p) = prev {
        let between = &text[p.end_byte()..start];
        if p.is_extra() && between.trim().is_empty() && between.matches('\n').count() <= 1 {
            start = p.start_byte();
            prev = p.prev_sibling();
        } else {
            break;
        }
    }
    let line_start = text[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
    if text[line_start..start].trim().is_empty() {
        start = line_start;
    }
    let mut end = decl.end_byte();
    let after = &text[end..];
    if let Some(nl) = after.find('\n')
        && after[..nl].trim().is_empty()
    {
        end += nl + 1;
    }
    // one blank line: the one before, else the one after
    let before = &text[..start];
    if let Some(head) = before.strip_suffix('\n') {
        let prev_line_start = head.rfind('\n').map(|i| i + 1).unwrap_or(0);
        if before[prev_line_start..].trim().is_empty() && prev_line_start < start {
            return prev_line_start..end;
        }
    }
    let rest = &text[end..];
    if let Some(nl) = rest.find('\n')
        && rest[..nl].trim().is_empty()
    {
        end += nl + 1;
    }
    start..end
}
