//! Choosing the call sites: the method's hierarchy (no overrides), every call of it, and the form
//! each call takes (a statement, an expression, a return).

use super::InlineSpec;
use super::callee::{Method, method_param_types};
use crate::engine::call_sites::{CallSite, Doubt, SiteKind, Target, TargetMethod, enclosing_type_body, is_name_chain};
use crate::engine::variable_names::{declaration_names, descendants, is_field};
use crate::engine::{Reason, Refusal};
use crate::java::SourceFile;
use crate::java::syntax::Kind;
use std::collections::HashSet;
use tree_sitter::Node;

/// Refuses when a subtype among the files overrides the method, or a supertype declares it.
pub(super) fn check_hierarchy(files: &[SourceFile], t: &TargetMethod<'_>, in_interface: bool) -> Result<(), Refusal> {
    // simple type name -> (supertype names, declaring file, type body)
    let mut types: Vec<(String, Vec<String>, usize, Node<'_>)> = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        crate::java::syntax::walk(f.root(), &mut |n| {
            let (name, body) = match n.kind_name() {
                "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration" => (
                    n.child_by_field_name("name").map(|x| f.text_of(x).to_string()).unwrap_or_default(),
                    n.child_by_field_name("body"),
                ),
                // an anonymous subclass `new T() { ... }`
                "object_creation_expression" => {
                    (String::new(), n.named_children(&mut n.walk()).find(|c| c.kind_name() == "class_body"))
                }
                // Leaves and comments hold no type.
                _ => return n.child_count() > 0,
            };
            let Some(body) = body else { return true };
            let type_names = |s: Node<'_>| {
                descendants(s)
                    .into_iter()
                    .filter(|x| x.kind_name() == "type_identifier")
                    .map(|x| f.text_of(x).to_string())
                    .collect::<Vec<_>>()
            };
            let mut supers = Vec::new();
            for field in ["superclass", "interfaces", "type"] {
                if let Some(s) = n.child_by_field_name(field) {
                    supers.extend(type_names(s));
                }
            }
            if n.kind_name() == "interface_declaration"
                && let Some(ext) = n.named_children(&mut n.walk()).find(|c| c.kind_name() == "extends_interfaces")
            {
                supers.extend(type_names(ext));
            }
            types.push((name, supers, fi, body));
            true
        });
    }
    let declares = |fi: usize, body: Node<'_>| {
        let text = &files[fi].text;
        body.named_children(&mut body.walk()).any(|m| {
            m.kind_name() == "method_declaration"
                && m.child_by_field_name("name").is_some_and(|n| text[n.byte_range()] == t.name)
                && method_param_types(m, text) == t.param_types
        })
    };
    // subtypes, transitively
    let mut subs: HashSet<String> = HashSet::from([t.type_name.clone()]);
    loop {
        let before = subs.len();
        for (name, supers, fi, body) in &types {
            if supers.iter().any(|s| subs.contains(s)) {
                if declares(*fi, *body) && body.id() != t.type_body.id() {
                    let kind = if in_interface { "implements" } else { "overrides" };
                    return Err(Refusal::new(
                        Reason::Overridden,
                        format!(
                            "`{}` {kind} `{}` ({}, line {}); inlining would bypass dynamic dispatch",
                            if name.is_empty() { "an anonymous class" } else { name },
                            t.name,
                            files[*fi].path.display(),
                            body.start_position().row + 1
                        ),
                    ));
                }
                if !name.is_empty() {
                    subs.insert(name.clone());
                }
            }
        }
        if subs.len() == before {
            break;
        }
    }
    // supertypes, transitively
    let mut supers: Vec<String> =
        types.iter().filter(|(_, _, _, b)| b.id() == t.type_body.id()).flat_map(|(_, s, _, _)| s.clone()).collect();
    let mut seen = HashSet::new();
    while let Some(s) = supers.pop() {
        if !seen.insert(s.clone()) {
            continue;
        }
        for (name, ss, fi, body) in &types {
            if *name == s {
                if declares(*fi, *body) {
                    return Err(Refusal::new(
                        Reason::Overrides,
                        format!("`{}` overrides `{s}.{}`; inlining would bypass dynamic dispatch", t.name, t.name),
                    ));
                }
                supers.extend(ss.iter().cloned());
            }
        }
    }
    Ok(())
}

pub(super) fn choose_sites<'t>(
    files: &[SourceFile],
    m: &Method<'t>,
    sites: &[CallSite<'t>],
    doubts: &[Doubt],
    spec: &InlineSpec,
) -> Result<Vec<CallSite<'t>>, Refusal> {
    let name = &m.target.name;
    let lines = |v: &[&CallSite<'_>]| {
        v.iter().map(|s| format!("{}:{}", files[s.file].path.display(), s.line)).collect::<Vec<_>>().join(", ")
    };
    let unresolved = |v: &[&Doubt]| {
        let listed: Vec<String> =
            v.iter().map(|d| format!("{}:{} ({})", files[d.file].path.display(), d.line, d.why)).collect();
        Refusal::new(
            Reason::UnresolvedCall,
            format!(
                "mantra cannot tell whether the call{} at {} reach{} `{name}`; give their receivers a declared type, or inline one call with `at`",
                if v.len() == 1 { "" } else { "s" },
                listed.join(", "),
                if v.len() == 1 { "es" } else { "" }
            ),
        )
    };
    let chosen: Vec<CallSite<'t>> = match &spec.at {
        Some(at) => {
            let here: Vec<&CallSite<'t>> =
                sites.iter().filter(|s| files[s.file].path == at.file && s.line == at.line).collect();
            let calls: Vec<CallSite<'t>> = here.iter().filter(|s| s.is_inlinable_call()).map(|s| **s).collect();
            if calls.is_empty() {
                let doubted: Vec<&Doubt> =
                    doubts.iter().filter(|d| files[d.file].path == at.file && d.line == at.line).collect();
                if !doubted.is_empty() {
                    return Err(unresolved(&doubted));
                }
                if here.iter().any(|s| matches!(s.kind, SiteKind::Reference)) {
                    return Err(Refusal::new(
                        Reason::MethodReference,
                        format!("line {} refers to `{name}` by method reference; only calls can be inlined", at.line),
                    ));
                }
                return Err(Refusal::new(
                    Reason::NoCallAtLine,
                    format!(
                        "no call to `{name}` with {} argument(s) on {}:{}{}",
                        m.params.len(),
                        at.file.display(),
                        at.line,
                        if sites.is_empty() {
                            String::new()
                        } else {
                            format!("; calls are at {}", lines(&sites.iter().collect::<Vec<_>>()))
                        }
                    ),
                ));
            }
            calls
        }
        None => {
            let refs: Vec<&CallSite<'t>> = sites.iter().filter(|s| matches!(s.kind, SiteKind::Reference)).collect();
            if !refs.is_empty() {
                return Err(Refusal::new(
                    Reason::MethodReference,
                    format!(
                        "`{name}` is used as a method reference at {}; replace it with a lambda first, or inline single calls with `at`",
                        lines(&refs)
                    ),
                ));
            }
            let ambiguous: Vec<&CallSite<'t>> =
                sites.iter().filter(|s| s.is_inlinable_call() && s.target == Target::Ambiguous).collect();
            if !ambiguous.is_empty() {
                return Err(Refusal::new(
                    Reason::AmbiguousCall,
                    format!(
                        "the calls at {} may target another overload of `{name}`; inline them one at a time with `at`",
                        lines(&ambiguous)
                    ),
                ));
            }
            if !doubts.is_empty() {
                return Err(unresolved(&doubts.iter().collect::<Vec<_>>()));
            }
            let calls: Vec<CallSite<'t>> = sites.iter().filter(|s| s.is_inlinable_call()).copied().collect();
            if calls.is_empty() {
                return Err(Refusal::new(
                    Reason::NoCallSites,
                    format!("no call to `{name}` was found in the given files"),
                ));
            }
            calls
        }
    };
    for a in &chosen {
        if let Some(b) = chosen.iter().find(|b| {
            b.node.id() != a.node.id() && b.file == a.file && a.node.byte_range().contains(&b.node.start_byte())
        }) {
            return Err(Refusal::new(
                Reason::NestedCall,
                format!(
                    "the call on line {} is an argument of the call on line {}; inline the inner one first",
                    b.line, a.line
                ),
            ));
        }
    }
    Ok(chosen)
}

/// How the call sits in its statement.
#[derive(Clone, Copy)]
pub(super) enum Form<'t> {
    /// `m(..);`
    Expr { stmt: Node<'t> },
    /// `lhs = m(..);` with a side-effect-free `lhs`.
    Assign { stmt: Node<'t>, right: Node<'t> },
    /// `T x = m(..);` (one declarator).
    Declare { stmt: Node<'t>, name: Node<'t>, value: Node<'t> },
    /// `return m(..);`
    Return { stmt: Node<'t> },
    /// Anywhere else: only an expression can replace it.
    Nested,
}

impl<'t> Form<'t> {
    pub(super) fn of(inv: Node<'t>, text: &str) -> Form<'t> {
        let Some(parent) = inv.parent() else { return Form::Nested };
        let in_block = |s: Node<'_>| {
            s.parent()
                .is_some_and(|p| matches!(p.kind_name(), "block" | "constructor_body" | "switch_block_statement_group"))
        };
        let form = match parent.kind_name() {
            "expression_statement" => Form::Expr { stmt: parent },
            "return_statement" => Form::Return { stmt: parent },
            "assignment_expression"
                if is_field(parent, "right", inv)
                    && parent.child_by_field_name("operator").is_some_and(|o| &text[o.byte_range()] == "=")
                    && parent.child_by_field_name("left").is_some_and(is_name_chain)
                    && parent.parent().is_some_and(|s| s.kind_name() == "expression_statement") =>
            {
                match parent.parent() {
                    Some(stmt) => Form::Assign { stmt, right: inv },
                    None => Form::Nested,
                }
            }
            "variable_declarator" if is_field(parent, "value", inv) => {
                match (parent.parent(), parent.child_by_field_name("name")) {
                    (Some(stmt), Some(name))
                        if stmt.kind_name() == "local_variable_declaration"
                            && stmt.children_by_field_name("declarator", &mut stmt.walk()).count() == 1
                            && parent.child_by_field_name("dimensions").is_none() =>
                    {
                        Form::Declare { stmt, name, value: inv }
                    }
                    _ => Form::Nested,
                }
            }
            _ => Form::Nested,
        };
        match form {
            Form::Expr { stmt } | Form::Assign { stmt, .. } | Form::Declare { stmt, .. } | Form::Return { stmt }
                if !in_block(stmt) =>
            {
                Form::Nested
            }
            f => f,
        }
    }

    pub(super) fn stmt(&self) -> Option<Node<'t>> {
        match *self {
            Form::Expr { stmt } | Form::Assign { stmt, .. } | Form::Declare { stmt, .. } | Form::Return { stmt } => {
                Some(stmt)
            }
            Form::Nested => None,
        }
    }
}

/// The outermost member (method, constructor, initializer, field) around `node`: every local
/// declared in it may be in scope at `node` or be captured by a name the inlining introduces.
pub(super) fn outermost_member(node: Node<'_>) -> Node<'_> {
    let mut best = None;
    let mut cur = node.parent();
    while let Some(n) = cur {
        let is_member = matches!(
            n.kind_name(),
            "method_declaration"
                | "constructor_declaration"
                | "compact_constructor_declaration"
                | "static_initializer"
                | "field_declaration"
        ) || (n.kind_name() == "block" && n.parent().is_some_and(|p| p.kind_name() == "class_body"));
        if is_member {
            best = Some(n);
        }
        cur = n.parent();
    }
    best.unwrap_or_else(|| enclosing_type_body(node).unwrap_or(node))
}

/// Locals and parameters of `member` whose scope includes `at`.
pub(super) fn names_in_scope<'t>(member: Node<'t>, at: Node<'t>, text: &str) -> HashSet<String> {
    let scope_of = |decl: Node<'t>| -> Option<Node<'t>> {
        let mut cur = decl.parent();
        while let Some(n) = cur {
            if matches!(
                n.kind_name(),
                "block"
                    | "constructor_body"
                    | "switch_block_statement_group"
                    | "for_statement"
                    | "enhanced_for_statement"
                    | "catch_clause"
                    | "method_declaration"
                    | "constructor_declaration"
                    | "lambda_expression"
                    | "try_with_resources_statement"
            ) {
                return Some(n);
            }
            cur = n.parent();
        }
        None
    };
    declaration_names(member)
        .into_iter()
        .filter(|d| d.start_byte() < at.start_byte())
        .filter(|d| scope_of(*d).is_some_and(|s| s.byte_range().contains(&at.start_byte())))
        .map(|d| text[d.byte_range()].to_string())
        .collect()
}

/// The top-level type declaration around `node`.
pub(super) fn top_level_type(node: Node<'_>) -> Option<usize> {
    let mut cur = Some(node);
    let mut last = None;
    while let Some(n) = cur {
        if matches!(
            n.kind_name(),
            "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration"
        ) {
            last = Some(n.id());
        }
        cur = n.parent();
    }
    last
}
