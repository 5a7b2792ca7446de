//! Extract Method that parameterises an expression (`--param EXPR`): every occurrence of the
//! expression in the fragment becomes a new parameter of the extracted method, and the call passes
//! the expression. `render(Report r, Writer out)` can so become a one-line delegation to a new
//! `render(List<Row> rows, Writer out)`, called with `r.rows()`.
//!
//! The call evaluates the expression once, before the fragment runs, where the fragment evaluated
//! it at each occurrence. That is the same value only if nothing the expression reads changes in
//! between: a variable it reads that the fragment assigns, or that is declared inside the
//! fragment, is refused; so is an expression that assigns or creates objects itself. Method calls
//! in it are taken to be reads, as a developer extracting a parameter takes them.

use crate::java::syntax::Kind;
use std::ops::Range;

use tree_sitter::Node;

use super::{Extractor, Selection};
use crate::engine::dataflow::{MethodFlow, var_type};
use crate::engine::{Reason, Refusal};
use crate::java::syntax::walk;
use crate::text::compact;

/// One parameterised expression: where it occurs, and the parameter that replaces it.
pub(super) struct Substitution {
    pub(super) expr: String,
    pub(super) ranges: Vec<Range<usize>>,
    pub(super) name: String,
    pub(super) ty: String,
}

impl Extractor<'_> {
    /// The spec's `params`, found in the fragment and checked, with their names and types.
    pub(super) fn parameterised(
        &self,
        sel: &Selection<'_>,
        flow: &MethodFlow<'_>,
        frag: Range<usize>,
    ) -> Result<Vec<Substitution>, Refusal> {
        let src = self.src;
        let mut taken: Vec<String> = flow.vars.iter().map(|v| v.name.clone()).collect();
        let mut out: Vec<Substitution> = Vec::new();
        for expr in &self.spec.params {
            let wanted = compact(expr);
            if wanted.is_empty() {
                return Err(Refusal::new(Reason::ParamNotFound, "`--param` names no expression"));
            }
            let mut nodes: Vec<Node<'_>> = Vec::new();
            for s in &sel.statements {
                walk(*s, &mut |n| {
                    if n.is_named() && !n.kind_name().ends_with("comment") && compact(&src[n.byte_range()]) == wanted {
                        nodes.push(n);
                        return false;
                    }
                    true
                });
            }
            let (a, b) = self.spec.lines;
            let Some(first) = nodes.first().copied() else {
                return Err(Refusal::new(
                    Reason::ParamNotFound,
                    format!("`{expr}` does not occur in lines {a}-{b}; give the expression as the code writes it"),
                ));
            };
            if nodes.iter().any(|n| n.kind_name().ends_with("declarator") || is_declared_name(*n)) {
                return Err(Refusal::new(
                    Reason::ParamNotFound,
                    format!("`{expr}` is a name declared in lines {a}-{b}, not an expression to pass in"),
                ));
            }
            for n in &nodes {
                let mut effect = None;
                walk(*n, &mut |x| {
                    if matches!(
                        x.kind_name(),
                        "assignment_expression"
                            | "update_expression"
                            | "object_creation_expression"
                            | "lambda_expression"
                    ) {
                        effect.get_or_insert(x.start_position().row + 1);
                    }
                    true
                });
                if let Some(line) = effect {
                    return Err(Refusal::new(
                        Reason::ParamChangesInside,
                        format!(
                            "`{expr}` on line {line} assigns or creates something; passed in, it would run once before the statements instead"
                        ),
                    ));
                }
            }
            let ranges: Vec<Range<usize>> = nodes.iter().map(|n| n.byte_range()).collect();
            // The variables it reads: none may change inside the fragment, or be declared there.
            for r in flow.refs.iter().filter(|r| ranges.iter().any(|x| x.contains(&r.at))) {
                let var = &flow.vars[r.var];
                let declared_inside = frag.contains(&var.name_node.start_byte());
                let assigned_inside = flow.refs.iter().any(|w| w.var == r.var && w.write && frag.contains(&w.at));
                if declared_inside || assigned_inside {
                    return Err(Refusal::new(
                        Reason::ParamChangesInside,
                        format!(
                            "`{expr}` reads `{}`, which lines {a}-{b} {}; its value at the call would not be the one the statements see",
                            var.name,
                            if declared_inside { "declare" } else { "assign" }
                        ),
                    ));
                }
            }
            let ty = self.param_type(first, flow, expr)?;
            let name = fresh(&base_name(first, src), &taken);
            taken.push(name.clone());
            out.push(Substitution { expr: src[first.byte_range()].to_string(), ranges, name, ty });
        }
        Ok(out)
    }

    /// The type of the expression: a literal's, a variable's, a field's of the enclosing class, or
    /// the one the spec gives (`param_types`, which the project model fills in for calls).
    fn param_type(&self, n: Node<'_>, flow: &MethodFlow<'_>, expr: &str) -> Result<String, Refusal> {
        let src = self.src;
        if let Some(t) = self.spec.param_types.get(expr.trim()).map(|t| t.trim()).filter(|t| !t.is_empty()) {
            return Ok(t.to_string());
        }
        if let Some(t) = var_type(n, src).filter(|t| t != "var") {
            return Ok(t);
        }
        if n.kind_name() == "identifier"
            && let Some(i) = flow.resolve(&src[n.byte_range()], n.start_byte())
            && let Some(t) = flow.vars[i].type_text.clone().filter(|t| t != "var")
        {
            return Ok(t);
        }
        let field = match n.kind_name() {
            "identifier" => Some(n),
            "field_access" if n.child_by_field_name("object").is_some_and(|o| o.kind_name() == "this") => {
                n.child_by_field_name("field")
            }
            _ => None,
        };
        if let Some(f) = field
            && let Some(t) = self.field_type(&src[f.byte_range()])
        {
            return Ok(t);
        }
        Err(Refusal::new(
            Reason::ParamTypeUnknown,
            format!(
                "mantra cannot tell the type of `{expr}`; give it (e.g. `\"param_types\": {{\"{expr}\": \"List<Row>\"}}`)"
            ),
        ))
    }

    /// The declared type of the field `name` of the class around the fragment.
    fn field_type(&self, name: &str) -> Option<String> {
        let src = self.src;
        let mut found = None;
        walk(self.file.root(), &mut |n| {
            if found.is_some() {
                return false;
            }
            if n.kind_name() == "field_declaration" {
                let ty = n.child_by_field_name("type");
                for d in n.children_by_field_name("declarator", &mut n.walk()) {
                    if d.child_by_field_name("name").is_some_and(|x| &src[x.byte_range()] == name)
                        && d.child_by_field_name("dimensions").is_none()
                    {
                        found = ty.map(|t| src[t.byte_range()].to_string());
                    }
                }
                return false;
            }
            true
        });
        found
    }
}

fn is_declared_name(n: Node<'_>) -> bool {
    n.parent().is_some_and(|p| {
        p.child_by_field_name("name").is_some_and(|x| x.id() == n.id()) && p.kind_name() != "method_invocation"
    })
}

/// A parameter name from the expression: its last identifier (`r.rows()` → `rows`,
/// `getTotal()` → `total`, `this.limit` → `limit`), else `value`.
fn base_name(n: Node<'_>, src: &str) -> String {
    let named = match n.kind_name() {
        "method_invocation" | "field_access" => n.child_by_field_name("name").or(n.child_by_field_name("field")),
        "identifier" => Some(n),
        _ => None,
    };
    let Some(id) = named.map(|x| &src[x.byte_range()]) else { return "value".into() };
    for prefix in ["get", "is"] {
        if let Some(rest) = id.strip_prefix(prefix)
            && rest.starts_with(|c: char| c.is_uppercase())
        {
            let mut chars = rest.chars();
            return chars.next().map(|c| c.to_lowercase().collect::<String>() + chars.as_str()).unwrap_or_default();
        }
    }
    id.to_string()
}

/// `base`, or `base2`, `base3`, ... where taken or a keyword.
fn fresh(base: &str, taken: &[String]) -> String {
    let mut name = base.to_string();
    let mut n = 2;
    while taken.contains(&name) || crate::java::syntax::is_reserved(&name) {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}
