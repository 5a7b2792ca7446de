//! Extract Method: move a run of whole statements into a new method and call it in their place.
//!
//! The refactoring is correct by construction or refused. The selection is snapped to whole
//! statements of one block; [`dataflow`](super::dataflow) decides the parameters (locals read in
//! the fragment) and the single value that may flow out (a local assigned in it and used after);
//! control flow that would leave the fragment (`break`, `continue`, `yield`, a `return` on some
//! paths only) is refused. The output is two spliced edits on the original text: the call replaces
//! the fragment, and the new method is inserted after the source method with the fragment's own
//! text re-indented, so comments and formatting inside the fragment survive.

use crate::text::{contains_word, line_indent};
use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use tree_sitter::Node;

use super::dataflow::{MethodFlow, VarKind, var_type};
use super::{ChangeSet, Edit, Reason, Refusal};
use crate::java::SourceFile;
use crate::java::syntax::{
    callable_body, code_leaves, enclosing_callable, erased_type, has_modifier, is_flow_boundary, is_java_identifier,
    is_statement_container, is_statement_kind, is_type_body, jump_target, jumps, named_child_of_kind,
    sequence_can_complete, statements_of, walk,
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
    Extractor { file, src: &file.text, spec }.run()
}

struct Extractor<'a> {
    file: &'a SourceFile,
    src: &'a str,
    spec: &'a ExtractSpec,
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
                if j.kind() == "return_statement" {
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
        let lambda = ancestors_until(sel.container, sel.callable).find(|n| n.kind() == "lambda_expression");
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
            let hint = match next.filter(|n| n.kind() == "return_statement") {
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

        let flow = MethodFlow::analyze(sel.callable, src);
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

        let type_of = |i: usize| self.type_of(&flow, i);
        let params: Vec<(String, String)> =
            ff.params.iter().map(|&i| Ok((type_of(i)?, flow.vars[i].name.clone()))).collect::<Result<_, Refusal>>()?;
        let declare_inside: Vec<(String, String)> = ff
            .declare_inside
            .iter()
            .map(|&i| Ok((type_of(i)?, flow.vars[i].name.clone())))
            .collect::<Result<_, Refusal>>()?;
        self.check_local_types(&sel, params.iter().chain(&declare_inside).map(|(t, _)| t.as_str()))?;
        self.check_name_clash(&sel, &params)?;

        // What the new method returns and what replaces the fragment.
        let args = ff.params.iter().map(|&i| flow.vars[i].name.as_str()).collect::<Vec<_>>().join(", ");
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
        body_lines.extend(reindent(&src[region.clone()], line_indent(src, region.start), &body_indent));
        if let Some(tail) = tail {
            body_lines.push(format!("{body_indent}{tail}"));
        }

        // The declaration.
        let is_static = sel.callable.kind() == "static_initializer" || has_modifier(sel.callable, src, "static");
        let type_params = self.type_parameters(&sel, &params, &return_type);
        let throws = self.throws(&sel, frag.clone(), in_lambda);
        let in_interface = sel.callable.parent().is_some_and(|p| p.kind() == "interface_body");
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
        let param_list = params.iter().map(|(t, n)| format!("{t} {n}")).collect::<Vec<_>>().join(", ");
        let mut signature = format!("{} {}({param_list})", head.join(" "), self.spec.name);
        if !throws.is_empty() {
            signature.push_str(&format!(" throws {}", throws.join(", ")));
        }
        let method_text =
            format!("{method_indent}{signature} {{{newline}{}{newline}{method_indent}}}", body_lines.join(newline));

        // The edits: the call in place of the fragment, the method after the source method.
        let insert_at = end_of_member_line(src, sel.callable.end_byte());
        let mut changes = ChangeSet::new();
        changes.edit(&self.file.path, src, Edit::replace(region.clone(), call.clone()));
        changes.edit(&self.file.path, src, Edit::insert(insert_at, format!("{newline}{newline}{method_text}")));
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

    /// Resolves the line range to whole statements of one block, snapping partial lines when
    /// that is unambiguous.
    fn select(&self) -> Result<Selection<'a>, Refusal> {
        let (a, b) = self.spec.lines;
        let file = self.file;
        if a == 0 || a > b || b > file.line_count() {
            return Err(Refusal::new(
                Reason::InvalidLines,
                format!(
                    "lines {a}-{b} are not a range of lines of {} (it has {} lines)",
                    file.path.display(),
                    file.line_count()
                ),
            ));
        }
        let (Some(start), Some(end)) = (file.line_start(a), file.line_start(b + 1).or(Some(self.src.len()))) else {
            return Err(Refusal::new(Reason::InvalidLines, format!("lines {a}-{b} are outside the file")));
        };
        let text = &self.src[start..end];
        let trimmed_start = start + (text.len() - text.trim_start().len());
        let trimmed_end = start + text.trim_end().len();
        if trimmed_start >= trimmed_end {
            return Err(Refusal::new(
                Reason::EmptySelection,
                format!("lines {a}-{b} are blank; select the statements to extract"),
            ));
        }
        let root = file.root();
        let Some(callable) = enclosing_callable(root, trimmed_start, trimmed_end) else {
            return Err(Refusal::new(
                Reason::LinesOutsideMethod,
                format!(
                    "lines {a}-{b} are not inside one method, constructor or initializer; select statements of one method body"
                ),
            ));
        };
        let c_start = callable.start_position().row + 1;
        let c_end = callable.end_position().row + 1;
        if let Some(m) = self.spec.method_line
            && !(c_start..=c_end).contains(&m)
        {
            return Err(Refusal::new(
                Reason::LinesOutsideMethod,
                format!(
                    "lines {a}-{b} are in the {} at lines {c_start}-{c_end}, not in the method at line {m}; check the line numbers",
                    describe(callable, self.src)
                ),
            ));
        }
        if callable.has_error() {
            let at = file
                .syntax_error()
                .map(|e| format!(" (first error on line {}: `{}`)", e.line, e.snippet))
                .unwrap_or_default();
            return Err(Refusal::new(
                Reason::SyntaxError,
                format!("the method at lines {c_start}-{c_end} does not parse{at}; fix the syntax first"),
            ));
        }
        let Some(body) = callable_body(callable) else {
            return Err(Refusal::new(Reason::LinesOutsideMethod, format!("the method at line {c_start} has no body")));
        };
        let leaves: Vec<Node<'a>> =
            code_leaves(callable).into_iter().filter(|l| (a..=b).contains(&(l.start_position().row + 1))).collect();
        let inside_body = |l: &Node<'_>| l.start_byte() > body.start_byte() && l.end_byte() < body.end_byte();
        if let Some(out) = leaves.iter().find(|l| !inside_body(l)) {
            return Err(Refusal::new(
                Reason::LinesOutsideMethod,
                format!(
                    "line {} is part of the method's declaration or braces, not its body; select only statements inside the body (lines {}-{})",
                    out.start_position().row + 1,
                    body.start_position().row + 1 + usize::from(!self.first_line_has_statement(body)),
                    body.end_position().row
                ),
            ));
        }
        let (Some(first_leaf), Some(last_leaf)) = (leaves.first(), leaves.last()) else {
            return Err(Refusal::new(
                Reason::EmptySelection,
                format!("lines {a}-{b} hold only comments or blank lines; select the statements to extract"),
            ));
        };

        // The smallest block holding every selected token inside one of its statements.
        let mut container =
            root.descendant_for_byte_range(first_leaf.start_byte(), last_leaf.end_byte()).unwrap_or(body);
        let statements = loop {
            while !is_statement_container(container.kind()) {
                container = container.parent().unwrap_or(body);
            }
            let stmts: Vec<Node<'a>> = statements_of(container)
                .into_iter()
                .filter(|s| s.start_position().row < b && s.end_position().row + 1 >= a)
                .collect();
            let covered =
                |l: &Node<'_>| stmts.iter().any(|s| s.start_byte() <= l.start_byte() && l.end_byte() <= s.end_byte());
            if !stmts.is_empty() && leaves.iter().all(covered) {
                break stmts;
            }
            if container.id() == body.id() {
                return Err(Refusal::new(
                    Reason::PartialStatement,
                    format!("lines {a}-{b} do not hold whole statements of one block; select complete statements"),
                ));
            }
            container = container.parent().unwrap_or(body);
        };

        // Snap partially covered statements to whole ones only when no nested block is cut.
        let whole = |s: &Node<'_>| s.start_position().row + 1 >= a && s.end_position().row < b;
        if !statements.iter().all(whole) {
            for leaf in &leaves {
                let top = statements
                    .iter()
                    .find(|s| s.start_byte() <= leaf.start_byte() && leaf.end_byte() <= s.end_byte())
                    .copied();
                let Some(top) = top else { continue };
                if whole(&top) {
                    continue;
                }
                let innermost = innermost_statement(*leaf, container);
                if innermost.id() != top.id() {
                    let (s, e) = (top.start_position().row + 1, top.end_position().row + 1);
                    return Err(Refusal::new(
                        Reason::PartialStatement,
                        format!(
                            "lines {a}-{b} cover part of the {} at lines {s}-{e} and statements nested inside it; select the whole statement (lines {s}-{e}) or only statements inside one of its blocks",
                            kind_name(top.kind())
                        ),
                    ));
                }
            }
        }
        Ok(Selection { callable, body, container, statements })
    }

    fn first_line_has_statement(&self, body: Node<'_>) -> bool {
        statements_of(body).first().is_some_and(|s| s.start_position().row == body.start_position().row)
    }

    /// Refuses statements that cannot move into another method.
    fn check_statements(&self, sel: &Selection<'_>) -> Result<(), Refusal> {
        let src = self.src;
        for s in &sel.statements {
            let line = s.start_position().row + 1;
            if s.kind() == "explicit_constructor_invocation" {
                return Err(Refusal::new(
                    Reason::ConstructorCall,
                    format!(
                        "line {line} calls `this(...)` or `super(...)`, which only a constructor can do; select the statements after it"
                    ),
                ));
            }
            if matches!(
                s.kind(),
                "class_declaration"
                    | "local_class_declaration"
                    | "record_declaration"
                    | "enum_declaration"
                    | "interface_declaration"
            ) && let Some(name) = s.child_by_field_name("name")
            {
                let name = &src[name.byte_range()];
                let used_after = mentions(sel.callable, src, name, s.end_byte());
                if used_after {
                    return Err(Refusal::new(
                        Reason::LocalType,
                        format!(
                            "the local type `{name}` declared on line {line} is used after the selection; it would not be visible there"
                        ),
                    ));
                }
            }
        }
        // A final field may only be assigned in a constructor or initializer, never in a method.
        if matches!(sel.callable.kind(), "constructor_declaration" | "static_initializer" | "block") {
            let finals = final_fields(sel.callable, src);
            let flow_locals = MethodFlow::analyze(sel.callable, src);
            for s in &sel.statements {
                let mut found: Option<(String, usize)> = None;
                walk(*s, &mut |n| {
                    let target = match n.kind() {
                        "assignment_expression" => n.child_by_field_name("left"),
                        "update_expression" => n.named_child(0),
                        _ => None,
                    };
                    if let Some(t) = target {
                        let name = match t.kind() {
                            "identifier" if flow_locals.resolve(&src[t.byte_range()], t.start_byte()).is_none() => {
                                Some(&src[t.byte_range()])
                            }
                            "field_access" if t.child_by_field_name("object").is_some_and(|o| o.kind() == "this") => {
                                t.child_by_field_name("field").map(|f| &src[f.byte_range()])
                            }
                            _ => None,
                        };
                        if let Some(name) = name.filter(|n| finals.iter().any(|f| f == n))
                            && found.is_none()
                        {
                            found = Some((name.to_string(), t.start_position().row + 1));
                        }
                    }
                    !is_flow_boundary(n.kind())
                });
                if let Some((name, line)) = found {
                    return Err(Refusal::new(
                        Reason::AssignsFinalField,
                        format!(
                            "line {line} assigns the final field `{name}`, which only a constructor or initializer may do; leave that assignment out of the selection"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The declared type of a local, with `var` resolved from its initializer.
    fn type_of(&self, flow: &MethodFlow<'_>, i: usize) -> Result<String, Refusal> {
        let var = &flow.vars[i];
        let line = var.name_node.start_position().row + 1;
        let hint = self.spec.local_types.get(&var.name).map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
        let Some(ty) = &var.type_text else {
            if let Some(hint) = hint {
                return Ok(hint);
            }
            return Err(Refusal::new(
                Reason::UntypedVar,
                format!(
                    "`{}` (line {line}) is a lambda parameter without a declared type, so the new method's parameter type is unknown; declare its type in the lambda, give it in `local_types`, or select other statements",
                    var.name
                ),
            ));
        };
        if ty.contains('|') {
            return Err(Refusal::new(
                Reason::UntypedVar,
                format!(
                    "`{}` (line {line}) is a multi-catch parameter of type `{ty}`, which a method parameter cannot have; select statements that do not use it",
                    var.name
                ),
            ));
        }
        if ty == "var" {
            return var.initializer.and_then(|init| var_type(init, self.src)).or(hint).ok_or_else(|| {
                Refusal::new(
                    Reason::UntypedVar,
                    format!(
                        "`{}` is declared with `var` on line {line} and its type is not visible from its initializer; declare its type explicitly or give it in `local_types`",
                        var.name
                    ),
                )
            });
        }
        if var.kind == VarKind::Bound && ty.trim_start().starts_with("var") && ty.trim() == "var" {
            return Err(Refusal::new(Reason::UntypedVar, format!("`{}` (line {line}) has an inferred type", var.name)));
        }
        Ok(ty.clone())
    }

    /// Refuses parameter types that name a class declared inside the method (invisible outside it).
    fn check_local_types<'t>(&self, sel: &Selection<'_>, types: impl Iterator<Item = &'t str>) -> Result<(), Refusal> {
        let mut local_types = Vec::new();
        walk(sel.body, &mut |n| {
            if matches!(
                n.kind(),
                "class_declaration" | "record_declaration" | "enum_declaration" | "interface_declaration"
            ) && let Some(name) = n.child_by_field_name("name")
            {
                local_types.push(&self.src[name.byte_range()]);
            }
            true
        });
        for ty in types {
            if let Some(t) = local_types.iter().find(|t| contains_word(ty, t)) {
                return Err(Refusal::new(
                    Reason::LocalType,
                    format!(
                        "a parameter would have the type `{ty}`, but `{t}` is a class declared inside the method and not visible outside it"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Refuses a name whose signature already exists in the class (same name, same erased types).
    fn check_name_clash(&self, sel: &Selection<'_>, params: &[(String, String)]) -> Result<(), Refusal> {
        let Some(class_body) = sel.callable.parent().filter(|p| is_type_body(p.kind())) else { return Ok(()) };
        let src = self.src;
        let wanted: Vec<String> = params.iter().map(|(t, _)| erased_type(t)).collect();
        let mut cursor = class_body.walk();
        for m in class_body.named_children(&mut cursor).filter(|m| m.kind() == "method_declaration") {
            if m.child_by_field_name("name").is_none_or(|n| src[n.byte_range()] != *self.spec.name) {
                continue;
            }
            let Some(plist) = m.child_by_field_name("parameters") else { continue };
            let mut c = plist.walk();
            let types: Vec<String> = plist
                .named_children(&mut c)
                .filter_map(|p| match p.kind() {
                    "formal_parameter" => p.child_by_field_name("type").map(|t| {
                        let dims = p.child_by_field_name("dimensions").map(|d| &src[d.byte_range()]).unwrap_or("");
                        erased_type(&format!("{}{dims}", &src[t.byte_range()]))
                    }),
                    "spread_parameter" => {
                        let mut c = p.walk();
                        p.named_children(&mut c)
                            .find(|x| x.kind() != "modifiers" && !x.kind().ends_with("annotation"))
                            .map(|t| erased_type(&format!("{}[]", &src[t.byte_range()])))
                    }
                    _ => None, // receiver parameters are not part of the signature
                })
                .collect();
            if types == wanted {
                let line = m.start_position().row + 1;
                return Err(Refusal::new(
                    Reason::NameClash,
                    format!(
                        "the class already has a method `{}({})` (line {line}); choose another name",
                        self.spec.name,
                        params.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Bytes to replace: the fragment, plus comment lines selected before it and comments that
    /// trail its last line or sit between it and the end of the selection.
    fn region(&self, sel: &Selection<'_>, frag: std::ops::Range<usize>) -> std::ops::Range<usize> {
        let (a, b) = self.spec.lines;
        let mut start = frag.start;
        let mut end = frag.end;
        let last_line = sel.statements[sel.statements.len() - 1].end_position().row + 1;
        let mut cursor = sel.container.walk();
        let comments: Vec<Node<'_>> =
            sel.container.named_children(&mut cursor).filter(|c| crate::java::syntax::is_comment(c.kind())).collect();
        for c in comments.iter().rev() {
            let line = c.start_position().row + 1;
            if c.end_byte() <= start && line >= a && self.only_whitespace(c.end_byte(), start) {
                start = c.start_byte();
            }
        }
        for c in &comments {
            let line = c.start_position().row + 1;
            if c.start_byte() >= end && (line == last_line || line <= b) && self.only_whitespace(end, c.start_byte()) {
                end = c.end_byte();
            }
        }
        start..end
    }

    fn only_whitespace(&self, from: usize, to: usize) -> bool {
        self.src[from..to].trim().is_empty()
    }

    /// The enclosing method's type parameters that the new method needs.
    fn type_parameters(&self, sel: &Selection<'_>, params: &[(String, String)], ret: &str) -> Vec<String> {
        let src = self.src;
        let Some(tps) = sel.callable.child_by_field_name("type_parameters") else { return Vec::new() };
        let mut cursor = tps.walk();
        let all: Vec<(String, String)> = tps
            .named_children(&mut cursor)
            .filter(|t| t.kind() == "type_parameter")
            .filter_map(|t| {
                let mut c = t.walk();
                let name = t.named_children(&mut c).find(|n| matches!(n.kind(), "type_identifier" | "identifier"))?;
                Some((src[name.byte_range()].to_string(), src[t.byte_range()].to_string()))
            })
            .collect();
        let mut used_text: String = params.iter().map(|(t, _)| format!("{t} ")).collect();
        used_text.push_str(ret);
        let mut fragment_types = String::new();
        for s in &sel.statements {
            walk(*s, &mut |n| {
                if n.kind() == "type_identifier" {
                    fragment_types.push_str(&src[n.byte_range()]);
                    fragment_types.push(' ');
                }
                true
            });
        }
        used_text.push(' ');
        used_text.push_str(&fragment_types);
        let mut keep = vec![false; all.len()];
        loop {
            let mut changed = false;
            for (i, (name, decl)) in all.iter().enumerate() {
                if !keep[i] && contains_word(&used_text, name) {
                    keep[i] = true;
                    used_text.push(' ');
                    used_text.push_str(decl);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        all.into_iter().zip(keep).filter(|(_, k)| *k).map(|((_, decl), _)| decl).collect()
    }

    /// The `throws` clause of the new method.
    ///
    /// Without types we cannot tell which checked exceptions a statement throws, so the rule is
    /// deliberately simple and safe: if the fragment contains anything that can throw (a call, a
    /// `new`, a `throw`), the new method declares what the enclosing method declares plus what the
    /// `try` statements around the fragment catch (a `try { fragment } catch (IOException e)` in a
    /// method without `throws` is how a fragment throws a checked exception that the method does
    /// not). Declaring an exception the body never throws is legal Java, and every declared
    /// exception is handled or declared at the call site, because that is where it came from.
    fn throws(&self, sel: &Selection<'_>, frag: std::ops::Range<usize>, in_lambda: bool) -> Vec<String> {
        let src = self.src;
        let mut can_throw = false;
        for s in &sel.statements {
            walk(*s, &mut |n| {
                if matches!(n.kind(), "method_invocation" | "object_creation_expression" | "throw_statement") {
                    can_throw = true;
                }
                !can_throw && (n.id() == s.id() || n.kind() != "lambda_expression")
            });
        }
        if !can_throw {
            return Vec::new();
        }
        let mut out: Vec<String> = Vec::new();
        let mut push = |t: &str| {
            let t = t.trim().to_string();
            if !t.is_empty() && !out.contains(&t) {
                out.push(t);
            }
        };
        if !in_lambda && let Some(throws) = named_child_of_kind(sel.callable, "throws") {
            let mut c = throws.walk();
            for t in throws.named_children(&mut c) {
                push(&src[t.byte_range()]);
            }
        }
        for n in ancestors_until(sel.container, sel.callable) {
            if n.kind() == "lambda_expression" {
                break;
            }
            if !matches!(n.kind(), "try_statement" | "try_with_resources_statement") {
                continue;
            }
            let in_body =
                n.child_by_field_name("body").is_some_and(|b| b.start_byte() <= frag.start && frag.end <= b.end_byte());
            if !in_body {
                continue;
            }
            let mut c = n.walk();
            for clause in n.named_children(&mut c).filter(|c| c.kind() == "catch_clause") {
                let Some(param) = named_child_of_kind(clause, "catch_formal_parameter") else { continue };
                let Some(types) = named_child_of_kind(param, "catch_type") else { continue };
                let mut c2 = types.walk();
                for t in types.named_children(&mut c2) {
                    push(&src[t.byte_range()]);
                }
            }
        }
        out
    }
}

/// The ancestors of `node` up to (not including) `stop`.
fn ancestors_until<'t>(node: Node<'t>, stop: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    std::iter::successors(Some(node), |n| n.parent()).take_while(move |n| n.id() != stop.id())
}

/// The deepest statement around a token: a statement node, or a direct child of the container.
fn innermost_statement<'t>(leaf: Node<'t>, container: Node<'t>) -> Node<'t> {
    let mut cur = leaf;
    while let Some(p) = cur.parent() {
        if is_statement_kind(cur.kind()) || p.id() == container.id() {
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
        Some(n) => format!("{} `{}`", kind_name(callable.kind()).replace(" declaration", ""), &src[n.byte_range()]),
        None => kind_name(callable.kind()),
    }
}

/// The declared return type of a non-void method; `None` for void methods, constructors, initializers.
fn method_return_type(callable: Node<'_>, src: &str) -> Option<String> {
    if callable.kind() != "method_declaration" {
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

/// Names of the final fields of the class declaring `callable`.
fn final_fields(callable: Node<'_>, src: &str) -> Vec<String> {
    let Some(body) = callable.parent().filter(|p| is_type_body(p.kind())) else { return Vec::new() };
    let mut cursor = body.walk();
    let mut out = Vec::new();
    for f in body.named_children(&mut cursor).filter(|f| f.kind() == "field_declaration") {
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
            && matches!(n.kind(), "identifier" | "type_identifier")
            && &src[n.byte_range()] == name
        {
            found = true;
        }
        !found
    });
    found
}

/// One level of indentation as the method body uses it (a body statement's indent minus the
/// method's), falling back to a tab for tab-indented code and four spaces otherwise.
pub(crate) fn indent_unit(src: &str, body: Node<'_>, method_indent: &str) -> String {
    if let Some(first) = statements_of(body).first()
        && first.start_position().row != body.start_position().row
    {
        let indent = line_indent(src, first.start_byte());
        if let Some(unit) = indent.strip_prefix(method_indent)
            && !unit.is_empty()
        {
            return unit.to_string();
        }
    }
    if method_indent.starts_with('\t') { "\t".into() } else { "    ".into() }
}

/// Re-indents `text` (which starts after `base` indentation on its first line) to `indent`, as
/// lines: each line loses the base indentation and gains the new one; nothing else changes.
pub(crate) fn reindent(text: &str, base: &str, indent: &str) -> Vec<String> {
    let text = text.replace("\r\n", "\n");
    let mut lines: Vec<String> = crate::text::reindent(&text, base, indent).split('\n').map(str::to_string).collect();
    lines[0].insert_str(0, indent);
    lines
}

/// Where to insert after a member ending at `end`: the end of its last line, unless code follows
/// on that line (then right after the member).
fn end_of_member_line(src: &str, end: usize) -> usize {
    let line_end = src[end..].find('\n').map_or(src.len(), |i| end + i);
    let rest = src[end..line_end].trim();
    if rest.is_empty() || rest.starts_with("//") {
        line_end - usize::from(src[..line_end].ends_with('\r'))
    } else {
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extract(src: &str, lines: (usize, usize), name: &str) -> Result<String, Refusal> {
        let file = SourceFile::parse("A.java", src.to_string());
        let spec = ExtractSpec {
            file: "A.java".into(),
            method_line: None,
            lines,
            name: name.into(),
            visibility: None,
            local_types: BTreeMap::new(),
        };
        let changes = extract_method(&file, &spec)?;
        Ok(changes.render_file(std::path::Path::new("A.java")).unwrap().unwrap())
    }

    fn refusal(src: &str, lines: (usize, usize)) -> Refusal {
        extract(src, lines, "extracted").expect_err("should refuse")
    }

    fn refused(src: &str, lines: (usize, usize), reason: &str) -> Refusal {
        let r = refusal(src, lines);
        assert_eq!(r.reason, reason, "{}", r.message);
        r
    }

    /// Wraps method members in a class, one member per string, indented by four spaces.
    fn class(body: &str) -> String {
        format!("class A {{\n{body}}}\n")
    }

    #[test]
    fn extracts_statements_with_parameters_in_order_of_first_use() {
        let src = class(
            "    void report(String name, int count) {\n        System.out.println(\"start\");\n        String line = name + \": \" + count;\n        System.out.println(line);\n        System.out.println(\"end\");\n    }\n",
        );
        let out = extract(&src, (4, 5), "printLine").unwrap();
        assert_eq!(
            out,
            class(
                "    void report(String name, int count) {\n        System.out.println(\"start\");\n        printLine(name, count);\n        System.out.println(\"end\");\n    }\n\n    private void printLine(String name, int count) {\n        String line = name + \": \" + count;\n        System.out.println(line);\n    }\n"
            )
        );
    }

    #[test]
    fn a_local_declared_in_the_fragment_and_used_after_is_returned_and_declared_at_the_call() {
        let src = class(
            "    int f(int a, int b) {\n        int total = a + b;\n        final int doubled = total * 2;\n        return doubled + 1;\n    }\n",
        );
        let out = extract(&src, (3, 4), "doubleSum").unwrap();
        assert_eq!(
            out,
            class(
                "    int f(int a, int b) {\n        final int doubled = doubleSum(a, b);\n        return doubled + 1;\n    }\n\n    private int doubleSum(int a, int b) {\n        int total = a + b;\n        final int doubled = total * 2;\n        return doubled;\n    }\n"
            )
        );
    }

    #[test]
    fn a_local_assigned_in_the_fragment_and_used_after_is_returned_and_assigned_at_the_call() {
        let src = class(
            "    int f(int[] xs) {\n        int total = 0;\n        for (int x : xs) {\n            total += x;\n        }\n        return total;\n    }\n",
        );
        let out = extract(&src, (4, 6), "addAll").unwrap();
        assert!(out.contains("        total = addAll(xs, total);\n"), "{out}");
        assert!(out.contains("    private int addAll(int[] xs, int total) {\n        for (int x : xs) {\n            total += x;\n        }\n        return total;\n    }\n"), "{out}");
    }

    #[test]
    fn two_outputs_are_refused_naming_both() {
        let src = class(
            "    void f(int[] xs) {\n        int total = 0;\n        int count = 0;\n        for (int x : xs) {\n            total += x;\n            count++;\n        }\n        System.out.println(total / count);\n    }\n",
        );
        let r = refused(&src, (5, 8), "multiple_outputs");
        assert_eq!(
            r.message,
            "the selected statements assign both `total` and `count`, which are used after line 8; an extracted method can return only one of them"
        );
    }

    #[test]
    fn locals_not_used_after_stay_inside_and_need_no_return() {
        let src = class(
            "    void f(int a) {\n        int seen = 0;\n        int tmp = a * 2;\n        seen = tmp;\n        System.out.println(seen);\n        System.out.println(a);\n    }\n",
        );
        let out = extract(&src, (4, 6), "show").unwrap();
        assert!(out.contains("        show(a);\n        System.out.println(a);"), "{out}");
        assert!(out.contains("    private void show(int a) {\n        int seen;\n        int tmp = a * 2;"), "{out}");
    }

    #[test]
    fn a_later_use_of_the_same_name_in_another_scope_is_not_an_output() {
        let src = class(
            "    void f(boolean c) {\n        if (c) {\n            int n = 1;\n            System.out.println(n);\n        }\n        if (!c) {\n            int n = 2;\n            System.out.println(n);\n        }\n    }\n",
        );
        let out = extract(&src, (4, 5), "one").unwrap();
        assert!(out.contains("            one();\n"), "{out}");
        assert!(
            out.contains("    private void one() {\n        int n = 1;\n        System.out.println(n);\n    }"),
            "{out}"
        );
    }

    #[test]
    fn a_value_read_by_the_next_loop_iteration_is_an_output() {
        let src = class(
            "    void f(int[] xs) {\n        int last = 0;\n        for (int x : xs) {\n            System.out.println(last);\n            last = x * 2;\n        }\n    }\n",
        );
        let out = extract(&src, (6, 6), "twice").unwrap();
        assert!(out.contains("            last = twice(x);\n"), "{out}");
        assert!(out.contains("        int last;\n        last = x * 2;\n        return last;"), "{out}");
    }

    #[test]
    fn an_output_assigned_on_some_paths_only_is_passed_in() {
        let src = class(
            "    double f(boolean c) {\n        double value = -1;\n        if (c) {\n            value = 2;\n        }\n        return value;\n    }\n",
        );
        let out = extract(&src, (4, 6), "pick").unwrap();
        assert!(out.contains("        value = pick(c, value);\n"), "{out}");
        assert!(out.contains("    private double pick(boolean c, double value) {\n        if (c) {\n            value = 2;\n        }\n        return value;\n    }"), "{out}");
        // Assigned first thing: no need to pass it.
        let src = class(
            "    double f() {\n        double value = -1;\n        value = 2;\n        value++;\n        return value;\n    }\n",
        );
        assert!(
            extract(&src, (4, 5), "two")
                .unwrap()
                .contains("    private double two() {\n        double value;\n        value = 2;")
        );
    }

    #[test]
    fn a_local_unassigned_before_the_fragment_is_declared_inside_not_passed() {
        let src = class(
            "    int f(boolean c) {\n        int x;\n        if (c) {\n            x = 1;\n        } else {\n            x = 2;\n        }\n        return x;\n    }\n",
        );
        let out = extract(&src, (4, 8), "pick").unwrap();
        assert!(out.contains("        x = pick(c);\n        return x;"), "{out}");
        assert!(out.contains("    private int pick(boolean c) {\n        int x;\n        if (c) {"), "{out}");
    }

    #[test]
    fn a_fragment_that_returns_on_every_path_becomes_return_call() {
        let src = class(
            "    String f(int a) {\n        System.out.println(a);\n        if (a > 0) {\n            return \"pos\";\n        } else {\n            return \"neg\";\n        }\n    }\n",
        );
        let out = extract(&src, (4, 8), "sign").unwrap();
        assert!(out.contains("        System.out.println(a);\n        return sign(a);\n    }"), "{out}");
        assert!(out.contains("    private String sign(int a) {\n        if (a > 0) {"), "{out}");
    }

    #[test]
    fn a_void_return_inside_a_nested_block_keeps_leaving_the_method() {
        let src = class(
            "    void f(int a) {\n        if (a > 0) {\n            System.out.println(a);\n            return;\n        }\n        System.out.println(-a);\n    }\n",
        );
        let out = extract(&src, (4, 5), "show").unwrap();
        assert!(out.contains("        if (a > 0) {\n            show(a);\n            return;\n        }"), "{out}");
    }

    #[test]
    fn a_return_on_some_paths_only_is_refused() {
        let src = class(
            "    int f(int a) {\n        if (a > 0) {\n            return 1;\n        }\n        System.out.println(a);\n        return 0;\n    }\n",
        );
        refused(&src, (3, 6), "return_not_on_all_paths");
    }

    #[test]
    fn returns_on_some_paths_are_fine_at_the_end_of_a_void_method() {
        let src = class(
            "    void f(int a) {\n        System.out.println(a);\n        if (a > 0) {\n            return;\n        }\n        System.out.println(-a);\n    }\n",
        );
        let out = extract(&src, (4, 7), "rest").unwrap();
        assert!(out.contains("        System.out.println(a);\n        rest(a);\n    }"), "{out}");
        assert!(out.contains("    private void rest(int a) {\n        if (a > 0) {\n            return;\n        }\n        System.out.println(-a);\n    }"), "{out}");
        // Not at the end: the caller would go on after the call.
        let r = refused(&src, (4, 6), "return_not_on_all_paths");
        assert!(r.message.contains("select statements that return on every path"), "{}", r.message);
    }

    #[test]
    fn the_refusal_suggests_including_a_following_return() {
        let src = class(
            "    Object f(Object data) {\n        if (data == null) {\n            return data;\n        }\n        System.out.println(data);\n        return data;\n    }\n",
        );
        let r = refused(&src, (3, 6), "return_not_on_all_paths");
        assert!(r.message.contains("including line 7 (`return data;`)"), "{}", r.message);
        assert!(extract(&src, (3, 7), "check").unwrap().contains("        return check(data);\n    }"));
    }

    #[test]
    fn returns_in_a_lambda_need_a_visible_type() {
        let src = class(
            "    void f(java.util.List<String> xs) {\n        xs.removeIf((String x) -> {\n            System.out.println(x);\n            return true;\n        });\n        xs.removeIf((String x) -> {\n            System.out.println(x);\n            return x.isEmpty();\n        });\n    }\n",
        );
        let out = extract(&src, (4, 5), "log").unwrap();
        assert!(out.contains("            return log(x);\n        });"), "{out}");
        assert!(out.contains("    private boolean log(String x) {"), "{out}");
        refused(&src, (8, 9), "return_in_lambda");
    }

    #[test]
    fn jumps_out_of_the_fragment_are_refused_and_jumps_inside_are_fine() {
        let src = class(
            "    void f(int[] xs) {\n        outer:\n        for (int x : xs) {\n            if (x < 0) {\n                break;\n            }\n            for (int y : xs) {\n                if (y == x) continue outer;\n                if (y > x) break;\n            }\n        }\n    }\n",
        );
        refused(&src, (5, 7), "break_leaves_fragment");
        let r = refused(&src, (8, 11), "break_leaves_fragment");
        assert!(r.message.contains("`continue` on line 9"), "{}", r.message);
        // The inner `break` targets the inner loop, which is selected.
        assert!(extract(&src, (10, 10), "x").is_err());
        let src2 = class(
            "    void f(int[] xs) {\n        for (int x : xs) {\n            for (int y : xs) {\n                if (y > x) break;\n            }\n        }\n    }\n",
        );
        assert!(extract(&src2, (4, 6), "inner").unwrap().contains("            inner(xs, x);\n"));
    }

    #[test]
    fn yield_out_of_the_fragment_is_refused() {
        let src = class(
            "    int f(int k) {\n        return switch (k) {\n            case 1 -> {\n                System.out.println(k);\n                yield 2;\n            }\n            default -> 0;\n        };\n    }\n",
        );
        refused(&src, (5, 6), "yield_leaves_fragment");
        assert!(extract(&src, (5, 5), "show").unwrap().contains("                show(k);\n                yield 2;"));
    }

    #[test]
    fn throws_clause_is_copied_when_the_fragment_can_throw() {
        let src = class(
            "    void f(java.io.Reader r) throws java.io.IOException {\n        int c = r.read();\n        int d = 1 + 2;\n        System.out.println(c + d);\n    }\n",
        );
        let out = extract(&src, (3, 3), "first").unwrap();
        assert!(out.contains("private int first(java.io.Reader r) throws java.io.IOException {"), "{out}");
        let out = extract(&src, (4, 4), "three").unwrap();
        assert!(out.contains("private int three() {"), "{out}");
    }

    #[test]
    fn exceptions_caught_around_the_fragment_are_declared() {
        let src = class(
            "    void f(java.io.Reader r) {\n        try {\n            System.out.println(r.read());\n        } catch (java.io.IOException | RuntimeException e) {\n            throw new IllegalStateException(e);\n        }\n    }\n",
        );
        let out = extract(&src, (4, 4), "show").unwrap();
        assert!(
            out.contains("private void show(java.io.Reader r) throws java.io.IOException, RuntimeException {"),
            "{out}"
        );
    }

    #[test]
    fn static_context_makes_a_static_method_and_instance_stays_instance() {
        let src = class("    static int f(int a) {\n        int b = a * 2;\n        return b;\n    }\n");
        assert!(extract(&src, (3, 3), "twice").unwrap().contains("    private static int twice(int a) {"));
        let src = class("    static int X;\n    static {\n        X = 1 + 2;\n    }\n");
        let out = extract(&src, (4, 4), "init").unwrap();
        assert!(
            out.contains(
                "    static {\n        init();\n    }\n\n    private static void init() {\n        X = 1 + 2;\n    }\n"
            ),
            "{out}"
        );
        let src = class("    int f() {\n        int b = 2;\n        return b;\n    }\n");
        assert!(extract(&src, (3, 3), "two").unwrap().contains("    private int two() {"));
    }

    #[test]
    fn type_parameters_of_the_method_are_copied_when_used() {
        let src = class(
            "    <T extends Comparable<T>, U> T max(java.util.List<T> xs, U unused) {\n        T best = xs.get(0);\n        return best;\n    }\n",
        );
        let out = extract(&src, (3, 3), "first").unwrap();
        assert!(out.contains("private <T extends Comparable<T>> T first(java.util.List<T> xs) {"), "{out}");
    }

    #[test]
    fn var_is_resolved_from_visible_initializers_and_refused_otherwise() {
        let src = class(
            "    void f() {\n        var n = 10L;\n        var sb = new StringBuilder();\n        var s = String.valueOf(n);\n        sb.append(n);\n        System.out.println(s + sb);\n    }\n",
        );
        let out = extract(&src, (6, 6), "add").unwrap();
        assert!(out.contains("private void add(StringBuilder sb, long n) {"), "{out}");
        let r = refused(&src, (7, 7), "untyped_var");
        assert!(r.message.contains("`s`"), "{}", r.message);
    }

    #[test]
    fn untyped_lambda_parameters_are_refused() {
        let src = class(
            "    void f(java.util.List<String> xs) {\n        xs.forEach(x -> {\n            String y = x.trim();\n            System.out.println(y);\n        });\n    }\n",
        );
        refused(&src, (4, 5), "untyped_var");
        let file = SourceFile::parse("A.java", src.clone());
        let spec = ExtractSpec {
            file: "A.java".into(),
            method_line: None,
            lines: (4, 5),
            name: "show".into(),
            visibility: None,
            local_types: BTreeMap::from([("x".to_string(), "String".to_string())]),
        };
        let out = extract_method(&file, &spec).unwrap().render_file(std::path::Path::new("A.java")).unwrap().unwrap();
        assert!(
            out.contains("            show(x);\n        });") && out.contains("private void show(String x) {"),
            "{out}"
        );
    }

    #[test]
    fn statements_inside_lambdas_switch_groups_and_try_bodies_can_be_extracted() {
        let src = class(
            "    void f(java.util.List<String> xs, int k) {\n        xs.forEach((String x) -> {\n            String y = x.trim();\n            System.out.println(y);\n        });\n        switch (k) {\n            case 1:\n                System.out.println(k);\n                System.out.println(k + 1);\n                break;\n            default:\n                break;\n        }\n        try {\n            System.out.println(xs);\n        } finally {\n            System.out.println(k);\n        }\n    }\n",
        );
        assert!(extract(&src, (4, 5), "a").unwrap().contains("            a(x);\n        });"));
        assert!(
            extract(&src, (9, 10), "b")
                .unwrap()
                .contains("            case 1:\n                b(k);\n                break;")
        );
        assert!(extract(&src, (16, 16), "c").unwrap().contains("        try {\n            c(xs);\n        }"));
        // The label line is not a statement of the group: selecting it covers the whole switch ambiguously.
        refused(&src, (8, 9), "partial_statement");
    }

    #[test]
    fn a_partial_selection_is_snapped_to_the_enclosing_statement() {
        let src = class(
            "    void f(int a) {\n        System.out.println(\n            a + 1);\n        System.out.println(a);\n    }\n",
        );
        let out = extract(&src, (4, 4), "show").unwrap();
        assert!(out.contains("        show(a);\n        System.out.println(a);"), "{out}");
    }

    #[test]
    fn a_selection_cutting_through_nested_blocks_is_refused() {
        let src = class(
            "    void f(int a) {\n        if (a > 0) {\n            System.out.println(a);\n        } else {\n            System.out.println(-a);\n        }\n    }\n",
        );
        let r = refused(&src, (4, 6), "partial_statement");
        assert!(r.message.contains("if statement at lines 3-7"), "{}", r.message);
    }

    #[test]
    fn comments_inside_and_around_the_fragment_move_with_it_and_indentation_follows_the_new_level() {
        let src = class(
            "    void f(int a) {\n        if (a > 0) {\n            // say it\n            System.out.println(a); // trailing\n            /* twice */\n            System.out.println(a);\n        }\n    }\n",
        );
        let out = extract(&src, (4, 7), "say").unwrap();
        assert_eq!(
            out,
            class(
                "    void f(int a) {\n        if (a > 0) {\n            say(a);\n        }\n    }\n\n    private void say(int a) {\n        // say it\n        System.out.println(a); // trailing\n        /* twice */\n        System.out.println(a);\n    }\n"
            )
        );
    }

    #[test]
    fn constructors_allow_fragments_but_not_this_or_super_calls() {
        let src = class(
            "    final int x;\n    int y;\n    A(int v) {\n        this(v, 0);\n        y = v * 2;\n    }\n    A(int v, int w) {\n        x = v;\n        y = w;\n    }\n",
        );
        refused(&src, (5, 6), "constructor_call");
        assert!(
            extract(&src, (6, 6), "setY")
                .unwrap()
                .contains("    private void setY(int v) {\n        y = v * 2;\n    }")
        );
        refused(&src, (9, 9), "assigns_final_field");
    }

    #[test]
    fn names_are_validated_and_same_signature_clashes_are_refused() {
        let src = class(
            "    void f(int a) {\n        System.out.println(a);\n    }\n    void show(int b) {}\n    void other(String s) {}\n",
        );
        assert_eq!(extract(&src, (3, 3), "class").unwrap_err().reason, "invalid_name");
        assert_eq!(extract(&src, (3, 3), "2x").unwrap_err().reason, "invalid_name");
        let r = extract(&src, (3, 3), "show").unwrap_err();
        assert_eq!(r.reason, "name_clash", "{}", r.message);
        assert!(r.message.contains("`show(int)` (line 5)"), "{}", r.message);
        // A different parameter list is an overload, which is fine.
        assert!(extract(&src, (3, 3), "other").is_ok());
    }

    #[test]
    fn selections_that_are_empty_or_outside_a_body_are_refused() {
        let src = class(
            "    void f(int a) {\n\n        // only a comment\n        System.out.println(a);\n    }\n    int g;\n",
        );
        refused(&src, (4, 4), "empty_selection");
        refused(&src, (3, 3), "empty_selection");
        refused(&src, (2, 3), "lines_outside_method");
        refused(&src, (5, 6), "lines_outside_method");
        refused(&src, (8, 8), "lines_outside_method");
        refused(&src, (10, 100), "invalid_lines");
        let file = SourceFile::parse("A.java", src.clone());
        let spec = ExtractSpec {
            file: "A.java".into(),
            method_line: Some(7),
            lines: (5, 5),
            name: "x".into(),
            visibility: None,
            local_types: BTreeMap::new(),
        };
        assert_eq!(extract_method(&file, &spec).unwrap_err().reason, "lines_outside_method");
    }

    #[test]
    fn a_method_that_does_not_parse_is_refused() {
        let src = class("    void f(int a) {\n        int x = ;\n        System.out.println(a);\n    }\n");
        refused(&src, (4, 4), "syntax_error");
    }

    #[test]
    fn visibility_can_be_chosen() {
        let src = class("    void f(int a) {\n        System.out.println(a);\n    }\n");
        let file = SourceFile::parse("A.java", src.clone());
        let mut spec = ExtractSpec {
            file: "A.java".into(),
            method_line: Some(2),
            lines: (3, 3),
            name: "show".into(),
            visibility: Some("package".into()),
            local_types: BTreeMap::new(),
        };
        let plan = plan(&file, &spec).unwrap();
        assert_eq!(plan.signature, "void show(int a)");
        assert_eq!(plan.call, "show(a);");
        spec.visibility = Some("friendly".into());
        assert_eq!(extract_method(&file, &spec).unwrap_err().reason, "invalid_visibility");
    }
}
