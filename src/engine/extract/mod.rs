//! Extract Method: move a run of whole statements into a new method and call it in their place.
//!
//! The refactoring is correct by construction or refused. The selection is snapped to whole
//! statements of one block; [`dataflow`](super::dataflow) decides the parameters (locals read in
//! the fragment) and the single value that may flow out (a local assigned in it and used after);
//! control flow that would leave the fragment (`break`, `continue`, `yield`, a `return` on some
//! paths only) is refused. The output is two spliced edits on the original text: the call replaces
//! the fragment, and the new method is inserted after the source method with the fragment's own
//! text re-indented, so comments and formatting inside the fragment survive.
//!
//! Files: `selection` (the statements to extract and their checks), `signature` (the new
//! method's parameters, types, name and throws), `lambda_type` (an untyped lambda parameter's
//! type, where the call it is passed to spells it out); this file drives them and writes the edits.

mod copies;
mod lambda_type;
mod parameter;
mod selection;
mod signature;
#[cfg(test)]
mod tests;

use crate::engine::layout::{end_of_member_line, indent_unit, reindent_lines, statement_deletion};
use crate::java::syntax::Kind;
use crate::text::line_indent;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use tree_sitter::Node;

use super::dataflow::{MethodFlow, var_type};
use super::{ChangeSet, Edit, Reason, Refusal};
use crate::java::SourceFile;
use crate::java::syntax::{
    has_modifier, is_java_identifier, is_statement_kind, is_type_body, jump_target, jumps, sequence_can_complete,
    statements_of, walk,
};

/// What to extract, where to, and under which name. Small on purpose: an LLM fills it in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtractSpec {
    /// The file, as the caller names it (the change set uses the parsed file's own path).
    pub file: PathBuf,
    /// Any line of the source method (its header, say), to check the lines are where the caller
    /// thinks they are. Optional: without it the innermost method around the lines is used.
    #[serde(default)]
    pub method_line: Option<usize>,
    /// 1-based, inclusive lines of the statements to extract.
    pub lines: (usize, usize),
    /// The new method's name.
    pub name: String,
    /// `public`, `protected`, `private` or `package` (no modifier). Default: `private`.
    #[serde(default)]
    pub visibility: Option<String>,
    /// Types of locals the source does not spell out (untyped lambda parameters, `var` with an
    /// opaque initializer), by name, when the caller knows them. Used only where the engine
    /// cannot see the type itself; a wrong type shows up as a compile error in verification.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub local_types: BTreeMap<String, String>,
    /// Expressions of the fragment to pass in as new parameters (`--param EXPR`), as the code
    /// writes them: every occurrence becomes the parameter, and the call passes the expression.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<String>,
    /// The types of those expressions, by expression, where the engine cannot see them (the
    /// project model fills them in for method calls it resolves).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub param_types: BTreeMap<String, String>,
    /// Byte ranges of the calls and `new` expressions of the file that the project model knows
    /// throw no checked exception ([`crate::engine::spec::with_param_types`] fills them in). A
    /// fragment whose every call is one of these declares no `throws`; without them the new
    /// method declares what the source method does.
    #[serde(skip)]
    pub quiet_calls: Vec<(usize, usize)>,
    /// 1-based inclusive lines of copies of the statements elsewhere in the file (code written
    /// twice), each replaced with the same call: the same statements word for word, reading and
    /// giving back the same variables with the same types, in a method that can call the new one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub copies: Vec<(usize, usize)>,
}

/// What the extraction did, for reports and for callers that compose refactorings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Extraction {
    pub changes: ChangeSet,
    /// The lines actually extracted, after snapping the selection to whole statements.
    pub lines: (usize, usize),
    /// The new method's declaration line, e.g. `private int sum(int a, int b)`.
    pub signature: String,
    /// The statement that replaced the fragment.
    pub call: String,
}

/// Performs Extract Method on `file`, or says precisely why it will not.
pub fn extract_method(file: &SourceFile, spec: &ExtractSpec) -> Result<ChangeSet, Refusal> {
    plan(file, spec).map(|e| e.changes)
}

/// [`extract_method`] with the details of what was done.
pub fn plan(file: &SourceFile, spec: &ExtractSpec) -> Result<Extraction, Refusal> {
    Extractor { file, src: &file.text, spec, flow: None }.run()
}

/// [`plan`] reusing the data flow of the method already analysed (the planner has it for every
/// fragment it tries).
pub fn plan_with_flow<'a>(
    file: &'a SourceFile,
    spec: &'a ExtractSpec,
    flow: &'a MethodFlow<'a>,
) -> Result<Extraction, Refusal> {
    Extractor { file, src: &file.text, spec, flow: Some(flow) }.run()
}

struct Extractor<'a> {
    file: &'a SourceFile,
    src: &'a str,
    spec: &'a ExtractSpec,
    /// The method's data flow, when the caller has it.
    flow: Option<&'a MethodFlow<'a>>,
}

/// The resolved selection: the method, the block, and the statements taken from it.
struct Selection<'t> {
    callable: Node<'t>,
    body: Node<'t>,
    container: Node<'t>,
    statements: Vec<Node<'t>>,
}

impl<'a> Extractor<'a> {
    fn run(&self) -> Result<Extraction, Refusal> {
        let visibility = self.visibility()?;
        if !is_java_identifier(&self.spec.name) {
            return Err(Refusal::new(
                Reason::InvalidName,
                format!(
                    "`{}` is not a valid Java method name (it must be an identifier and not a keyword); choose another name",
                    self.spec.name
                ),
            ));
        }
        let sel = self.select()?;
        let src = self.src;
        let stmts = &sel.statements;
        let (first, last) = (stmts[0], stmts[stmts.len() - 1]);
        let frag = first.start_byte()..last.end_byte();
        self.check_statements(&sel)?;

        // Control flow leaving the fragment.
        let mut returns = Vec::new();
        for s in stmts {
            for j in jumps(*s) {
                if j.kind_name() == "return_statement" {
                    returns.push(j);
                    continue;
                }
                let inside =
                    jump_target(j, src).is_some_and(|t| frag.start <= t.start_byte() && t.end_byte() <= frag.end);
                if !inside {
                    let line = j.start_position().row + 1;
                    let what = &src[j.byte_range()];
                    let what = what.split_whitespace().next().unwrap_or("").trim_end_matches(';');
                    let (reason, target) = if what == "yield" {
                        (Reason::YieldLeavesFragment, "the switch expression around it")
                    } else {
                        (Reason::BreakLeavesFragment, "a statement outside the selection")
                    };
                    return Err(Refusal::new(
                        reason,
                        format!(
                            "the `{what}` on line {line} jumps to {target}; an extracted method cannot do that. Include the target loop or switch in the selection, or select statements without it"
                        ),
                    ));
                }
            }
        }
        // Where a `return` in the fragment goes: out of the method, or out of the lambda around it.
        let lambda = ancestors_until(sel.container, sel.callable).find(|n| n.kind_name() == "lambda_expression");
        let in_lambda = lambda.is_some();
        let owner_body = lambda.and_then(|l| l.child_by_field_name("body")).unwrap_or(sel.body);
        let owner_type = match lambda {
            None => method_return_type(sel.callable, src),
            Some(_) => lambda_return_type(&returns, src).map_err(|line| {
                Refusal::new(
                    Reason::ReturnInLambda,
                    format!(
                        "the `return` on line {line} returns from a lambda whose return type is not written down (and not visible from the returned value); select statements without `return`"
                    ),
                )
            })?,
        };
        let completes = sequence_can_complete(stmts, src);
        // At the very end of a void method (or lambda) body, `return;` and falling off the end
        // are the same, so returns on some paths only are fine there.
        let at_void_end = owner_type.is_none()
            && sel.container.id() == owner_body.id()
            && statements_of(owner_body).last().is_some_and(|l| l.id() == last.id());
        if let Some(ret) = returns.first()
            && completes
            && !at_void_end
        {
            let line = ret.start_position().row + 1;
            let next = statements_of(sel.container).into_iter().find(|n| n.start_byte() >= last.end_byte());
            let hint = match next.filter(|n| n.kind_name() == "return_statement") {
                Some(n) => format!(
                    "; including line {} (`{}`) in the selection would make every path return",
                    n.start_position().row + 1,
                    &src[n.byte_range()]
                ),
                None => "; select statements that return on every path, or none that return".to_string(),
            };
            return Err(Refusal::new(
                Reason::ReturnNotOnAllPaths,
                format!(
                    "the `return` on line {line} leaves the method on some paths only, so the caller could not tell whether to continue{hint}"
                ),
            ));
        }

        let analysed;
        let flow = match self.flow {
            Some(f) if f.callable == sel.callable.id() => f,
            _ => {
                analysed = MethodFlow::analyze(sel.callable, src);
                &analysed
            }
        };
        let ff = flow.fragment(stmts, src);
        let outputs: &[usize] = if completes { &ff.outputs } else { &[] };
        if outputs.len() >= 2 {
            let names: Vec<String> = outputs.iter().map(|i| format!("`{}`", flow.vars[*i].name)).collect();
            let names = match names.as_slice() {
                [a, b] => format!("both {a} and {b}"),
                [rest @ .., z] => format!("{} and {z}", rest.join(", ")),
                [] => String::new(),
            };
            let end_line = last.end_position().row + 1;
            return Err(Refusal::new(
                Reason::MultipleOutputs,
                format!(
                    "the selected statements assign {names}, which are used after line {end_line}; an extracted method can return only one of them"
                ),
            ));
        }

        // Expressions passed in: a local read only inside them is no longer a parameter.
        let subs = self.parameterised(&sel, flow, frag.clone())?;
        let in_sub = |at: usize| subs.iter().any(|s| s.ranges.iter().any(|r| r.contains(&at)));
        let kept: Vec<usize> = if subs.is_empty() {
            ff.params.clone()
        } else {
            ff.params
                .iter()
                .copied()
                .filter(|&i| flow.refs.iter().any(|r| r.var == i && frag.contains(&r.at) && !in_sub(r.at)))
                .collect()
        };
        let type_of = |i: usize| self.type_of(flow, i);
        let mut params: Vec<(String, String)> =
            kept.iter().map(|&i| Ok((type_of(i)?, flow.vars[i].name.clone()))).collect::<Result<_, Refusal>>()?;
        params.extend(subs.iter().map(|s| (s.ty.clone(), s.name.clone())));
        let declare_inside: Vec<(String, String)> = ff
            .declare_inside
            .iter()
            .map(|&i| Ok((type_of(i)?, flow.vars[i].name.clone())))
            .collect::<Result<_, Refusal>>()?;
        self.check_local_types(&sel, params.iter().chain(&declare_inside).map(|(t, _)| t.as_str()))?;
        self.check_name_clash(&sel, &params)?;

        // What the new method returns and what replaces the fragment.
        let args = kept
            .iter()
            .map(|&i| flow.vars[i].name.as_str())
            .chain(subs.iter().map(|s| s.expr.as_str()))
            .collect::<Vec<_>>()
            .join(", ");
        let call_expr = format!("{}({args})", self.spec.name);
        let newline = if src.contains("\r\n") { "\r\n" } else { "\n" };
        let call_indent = line_indent(src, first.start_byte()).to_string();
        let mut tail: Option<String> = None;
        let (return_type, call) = if !completes {
            match owner_type {
                Some(ty) => (ty, format!("return {call_expr};")),
                None if !returns.is_empty() && sel.container.id() != owner_body.id() => {
                    ("void".to_string(), format!("{call_expr};{newline}{call_indent}return;"))
                }
                None => ("void".to_string(), format!("{call_expr};")),
            }
        } else if let Some(&out) = outputs.first() {
            let var = &flow.vars[out];
            let ty = type_of(out)?;
            tail = Some(format!("return {};", var.name));
            let declared_inside = frag.contains(&var.name_node.start_byte());
            if declared_inside {
                let mods = crate::java::syntax::modifiers(var.declaration)
                    .map(|m| format!("{} ", &src[m.byte_range()]))
                    .unwrap_or_default();
                (ty.clone(), format!("{mods}{ty} {} = {call_expr};", var.name))
            } else {
                (ty, format!("{} = {call_expr};", var.name))
            }
        } else {
            ("void".to_string(), format!("{call_expr};"))
        };

        // The fragment's text, with comments selected before it or trailing its last line.
        let region = self.region(&sel, frag.clone());
        let method_indent = line_indent(src, sel.callable.start_byte()).to_string();
        let unit = indent_unit(src, sel.body, &method_indent);
        let body_indent = format!("{method_indent}{unit}");
        let mut body_lines: Vec<String> =
            declare_inside.iter().map(|(t, n)| format!("{body_indent}{t} {n};")).collect();
        let mut region_text = src[region.clone()].to_string();
        let mut replaced: Vec<(Range<usize>, &str)> =
            subs.iter().flat_map(|s| s.ranges.iter().map(move |r| (r.clone(), s.name.as_str()))).collect();
        replaced.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
        for (r, name) in replaced {
            region_text.replace_range(r.start - region.start..r.end - region.start, name);
        }
        body_lines.extend(reindent_lines(&region_text, line_indent(src, region.start), &body_indent));
        if let Some(tail) = tail {
            body_lines.push(format!("{body_indent}{tail}"));
        }

        // The declaration.
        let is_static = sel.callable.kind_name() == "static_initializer" || has_modifier(sel.callable, src, "static");
        let type_params = self.type_parameters(&sel, &params, &return_type);
        let throws = self.throws(&sel, frag.clone(), in_lambda);
        let in_interface = sel.callable.parent().is_some_and(|p| p.kind_name() == "interface_body");
        let mut head: Vec<String> = Vec::new();
        if !visibility.is_empty() {
            head.push(visibility.to_string());
        }
        if in_interface && !is_static && visibility != "private" {
            head.push("default".into());
        }
        if is_static {
            head.push("static".into());
        }
        if !type_params.is_empty() {
            head.push(format!("<{}>", type_params.join(", ")));
        }
        head.push(return_type);
        // A parameter is `final` in a file whose methods declare theirs `final`, and where it
        // stands for a local declared `final`; never when the fragment assigns it.
        let file_finals = declares_final_parameters(sel.callable, src);
        let is_final = |name: &str| match kept.iter().find(|&&i| flow.vars[i].name == name) {
            Some(&i) => {
                (file_finals || has_modifier(flow.vars[i].declaration, src, "final"))
                    && !flow.refs.iter().any(|r| r.var == i && r.write && frag.contains(&r.at))
            }
            None => file_finals,
        };
        let param_list = params
            .iter()
            .map(|(t, n)| if is_final(n) { format!("final {t} {n}") } else { format!("{t} {n}") })
            .collect::<Vec<_>>()
            .join(", ");
        let mut signature = format!("{} {}({param_list})", head.join(" "), self.spec.name);
        if !throws.is_empty() {
            signature.push_str(&format!(" throws {}", throws.join(", ")));
        }
        let method_text =
            format!("{method_indent}{signature} {{{newline}{}{newline}{method_indent}}}", body_lines.join(newline));

        // The edits: the call in place of the fragment, the method after the source method.
        let insert_at = end_of_member_line(src, sel.callable.end_byte());
        let copies = self.copies(&sel, flow, &ff, outputs, &call, subs.is_empty())?;
        let mut changes = ChangeSet::new();
        changes.edit(&self.file.path, src, Edit::replace(region.clone(), call.clone()));
        for copy in copies {
            changes.edit(&self.file.path, src, Edit::replace(copy, call.clone()));
        }
        changes.edit(&self.file.path, src, Edit::insert(insert_at, format!("{newline}{newline}{method_text}")));
        for decl in left_dead(flow, &ff, frag.clone()) {
            changes.edit(&self.file.path, src, Edit::delete(statement_deletion(src, decl)));
        }
        Ok(Extraction {
            changes,
            lines: (self.file.line_of(region.start), self.file.line_of(region.end.saturating_sub(1).max(region.start))),
            signature,
            call,
        })
    }

    fn visibility(&self) -> Result<&'static str, Refusal> {
        match self.spec.visibility.as_deref().map(str::trim) {
            None | Some("private") => Ok("private"),
            Some("public") => Ok("public"),
            Some("protected") => Ok("protected"),
            Some("package") | Some("") => Ok(""),
            Some(other) => Err(Refusal::new(
                Reason::InvalidVisibility,
                format!("visibility `{other}` is not one of public, protected, private or package"),
            )),
        }
    }
}

/// The declarations before the fragment that the new method takes over and nothing else needs:
/// statements declaring only locals the new method declares itself (the fragment assigns them
/// before reading), with no value or a literal one, used nowhere outside the fragment. Left where
/// they are they would be dead code (`String rest;` above a call that computes `rest` inside).
fn left_dead<'t>(flow: &MethodFlow<'t>, ff: &super::dataflow::FragmentFlow, frag: Range<usize>) -> Vec<Node<'t>> {
    let mut out: Vec<Node<'t>> = Vec::new();
    for &i in &ff.declare_inside {
        let decl = flow.vars[i].declaration;
        if out.iter().any(|d| d.id() == decl.id())
            || decl.kind_name() != "local_variable_declaration"
            || !decl.parent().is_some_and(|p| matches!(p.kind_name(), "block" | "switch_block_statement_group"))
        {
            continue;
        }
        let declared: Vec<usize> =
            (0..flow.vars.len()).filter(|&j| flow.vars[j].declaration.id() == decl.id()).collect();
        let dead = declared.iter().all(|&j| {
            let var = &flow.vars[j];
            let at = var.name_node.start_byte();
            ff.declare_inside.contains(&j)
                && var.initializer.is_none_or(crate::java::syntax::is_literal)
                && !flow.refs.iter().any(|r| r.var == j && r.at != at && !frag.contains(&r.at))
        });
        if dead {
            out.push(decl);
        }
    }
    out
}

/// The ancestors of `node` up to (not including) `stop`.
fn ancestors_until<'t>(node: Node<'t>, stop: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    std::iter::successors(Some(node), |n| n.parent()).take_while(move |n| n.id() != stop.id())
}

/// The deepest statement around a token: a statement node, or a direct child of the container.
fn innermost_statement<'t>(leaf: Node<'t>, container: Node<'t>) -> Node<'t> {
    let mut cur = leaf;
    while let Some(p) = cur.parent() {
        if is_statement_kind(cur.kind_name()) || p.id() == container.id() {
            return cur;
        }
        cur = p;
    }
    cur
}

fn kind_name(kind: &str) -> String {
    kind.trim_end_matches("_statement").replace('_', " ") + if kind.ends_with("_statement") { " statement" } else { "" }
}

fn describe(callable: Node<'_>, src: &str) -> String {
    match callable.child_by_field_name("name") {
        Some(n) => {
            format!("{} `{}`", kind_name(callable.kind_name()).replace(" declaration", ""), &src[n.byte_range()])
        }
        None => kind_name(callable.kind_name()),
    }
}

/// The declared return type of a non-void method; `None` for void methods, constructors, initializers.
fn method_return_type(callable: Node<'_>, src: &str) -> Option<String> {
    if callable.kind_name() != "method_declaration" {
        return None;
    }
    let ty = callable.child_by_field_name("type")?;
    let text = &src[ty.byte_range()];
    if text == "void" {
        return None;
    }
    let dims = callable.child_by_field_name("dimensions").map(|d| &src[d.byte_range()]).unwrap_or("");
    Some(format!("{text}{dims}"))
}

/// The type a lambda returns, when the fragment's `return`s show it: `Ok(None)` when they return
/// nothing, `Ok(Some(type))` when every returned value has the same visible type (a literal, a
/// `new T(...)`, a cast), else `Err(line)` of a `return` whose type is unknown.
fn lambda_return_type(returns: &[Node<'_>], src: &str) -> Result<Option<String>, usize> {
    let mut found: Option<String> = None;
    for r in returns {
        let line = r.start_position().row + 1;
        let Some(value) = r.named_child(0) else {
            if found.is_some() {
                return Err(line);
            }
            continue;
        };
        let ty = var_type(value, src).ok_or(line)?;
        if found.as_ref().is_some_and(|f| *f != ty) {
            return Err(line);
        }
        found = Some(ty);
    }
    if found.is_some() && returns.iter().any(|r| r.named_child(0).is_none()) {
        return Err(returns[0].start_position().row + 1);
    }
    Ok(found)
}

/// Whether the class around `callable` declares its methods' and constructors' parameters
/// `final` as a rule: at least three of them, and at least four in five of them, are. Only the
/// members' parameter lists are read (this runs for every candidate the planner tries).
fn declares_final_parameters(callable: Node<'_>, src: &str) -> bool {
    let Some(body) = callable.parent() else { return false };
    let (mut total, mut finals) = (0usize, 0usize);
    for member in body.named_children(&mut body.walk()) {
        if !matches!(member.kind_name(), "method_declaration" | "constructor_declaration") {
            continue;
        }
        let Some(params) = member.child_by_field_name("parameters") else { continue };
        for p in params.named_children(&mut params.walk()).filter(|p| p.kind_name() == "formal_parameter") {
            total += 1;
            finals += usize::from(has_modifier(p, src, "final"));
        }
    }
    total >= 3 && finals * 5 >= total * 4
}

/// Names of the final fields of the class declaring `callable`.
fn final_fields(callable: Node<'_>, src: &str) -> Vec<String> {
    let Some(body) = callable.parent().filter(|p| is_type_body(p.kind_name())) else { return Vec::new() };
    let mut cursor = body.walk();
    let mut out = Vec::new();
    for f in body.named_children(&mut cursor).filter(|f| f.kind_name() == "field_declaration") {
        if !has_modifier(f, src, "final") {
            continue;
        }
        let mut c = f.walk();
        for d in f.children_by_field_name("declarator", &mut c) {
            if let Some(n) = d.child_by_field_name("name") {
                out.push(src[n.byte_range()].to_string());
            }
        }
    }
    out
}

/// Whether `name` occurs as an identifier or type name in `node` after byte `after`.
fn mentions(node: Node<'_>, src: &str, name: &str, after: usize) -> bool {
    let mut found = false;
    walk(node, &mut |n| {
        if n.start_byte() >= after
            && matches!(n.kind_name(), "identifier" | "type_identifier")
            && &src[n.byte_range()] == name
        {
            found = true;
        }
        !found
    });
    found
}
