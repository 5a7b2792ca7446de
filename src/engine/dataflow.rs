//! Which local variables a piece of a method body reads and writes, resolved by Java's scoping.
//!
//! Extract Method needs to know, for a fragment of statements, which locals flow in (they become
//! parameters) and which flow out (the one that can become the return value). Names alone are not
//! enough: `x` after the fragment may be a different `x` (a sibling block's, or a field), so every
//! identifier is resolved to the declaration whose scope contains it. The analysis is syntactic and
//! conservative: where it cannot tell, it assumes a value may flow (which costs a parameter or a
//! refusal, never a wrong program).

use crate::java::syntax::Kind;
use std::ops::Range;

use tree_sitter::Node;

use crate::java::syntax::{is_flow_boundary, is_loop, is_statement_container, walk_with_parent};

/// How a local came into being; decides what "initialised" means and how its type is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarKind {
    /// A parameter of a method, constructor or lambda with a declared type.
    Parameter,
    /// A lambda parameter without a declared type.
    InferredParameter,
    /// A local variable; `initialized` when its declarator has `= value`.
    Local { initialized: bool },
    /// Catch parameters, enhanced-for variables, resources, pattern variables.
    Bound,
}

/// One declared local variable.
#[derive(Debug, Clone)]
pub struct LocalVar<'t> {
    pub name: String,
    /// The declared type as written, with declarator dimensions (`int x[]` = `int[]`); `None` when
    /// the language infers it (lambda parameters). `var` is kept as `var`: see [`var_type`].
    pub type_text: Option<String>,
    pub kind: VarKind,
    /// The identifier that declares it.
    pub name_node: Node<'t>,
    /// The declaring statement for locals (`local_variable_declaration`), else the declaring node.
    pub declaration: Node<'t>,
    /// The initializer of a local (for `var`).
    pub initializer: Option<Node<'t>>,
    /// Bytes where the name refers to this variable.
    pub scope: Range<usize>,
}

/// One use of a local.
#[derive(Debug, Clone, Copy)]
pub struct Reference {
    pub var: usize,
    pub at: usize,
    pub read: bool,
    pub write: bool,
}

/// Every local of one callable and every resolved use of one.
#[derive(Debug, Default)]
pub struct MethodFlow<'t> {
    pub vars: Vec<LocalVar<'t>>,
    pub refs: Vec<Reference>,
    /// `refs` grouped by variable, each group in document order.
    by_var: Vec<Vec<Reference>>,
    /// The callable analysed (its node id), so that a flow handed on is known to be its.
    pub callable: usize,
}

impl<'t> MethodFlow<'t> {
    /// Collects declarations and resolves every identifier inside `callable`.
    pub fn analyze(callable: Node<'t>, src: &str) -> MethodFlow<'t> {
        let mut flow = MethodFlow { callable: callable.id(), ..MethodFlow::default() };
        let mut refs = Vec::new();
        // One walk declares and resolves: a variable's declaring node comes before its name, and
        // its name before every use it can resolve to, in document order. The walk hands each
        // node its parent: tree-sitter finds a parent by descending from the root again, which
        // over every identifier of a long method was most of the cost.
        walk_with_parent(callable, None, &mut |n, parent| {
            flow.declare(n, callable, src);
            if n.kind_name() == "identifier"
                && let Some(parent) = parent
                && is_variable_use_under(n, parent)
                && let Some(var) = flow.resolve(&src[n.byte_range()], n.start_byte())
            {
                let (read, write) = access_under(n, parent, src);
                refs.push(Reference { var, at: n.start_byte(), read, write });
            }
            true
        });
        flow.by_var = vec![Vec::new(); flow.vars.len()];
        for r in &refs {
            flow.by_var[r.var].push(*r);
        }
        flow.refs = refs;
        flow
    }

    /// Of all uses of the variables used in `range`, how many are inside it and how many outside.
    pub fn uses_around(&self, range: &Range<usize>) -> (usize, usize) {
        let (mut inside, mut outside) = (0, 0);
        for refs in &self.by_var {
            let from = refs.partition_point(|r| r.at < range.start);
            let to = refs.partition_point(|r| r.at < range.end);
            if to > from {
                inside += to - from;
                outside += refs.len() - (to - from);
            }
        }
        (inside, outside)
    }

    /// The declaration `name` refers to at byte `at`: the innermost (latest) one in scope.
    pub fn resolve(&self, name: &str, at: usize) -> Option<usize> {
        self.vars
            .iter()
            .enumerate()
            .filter(|(_, v)| v.name == name && v.scope.contains(&at) && v.name_node.start_byte() <= at)
            .max_by_key(|(_, v)| v.name_node.start_byte())
            .map(|(i, _)| i)
    }

    fn push(&mut self, var: LocalVar<'t>) {
        if var.name != "_" {
            self.vars.push(var);
        }
    }

    fn declare(&mut self, n: Node<'t>, callable: Node<'t>, src: &str) {
        let text = |n: Node<'_>| src[n.byte_range()].to_string();
        let dims = |n: Node<'_>| n.child_by_field_name("dimensions").map(&text).unwrap_or_default();
        match n.kind_name() {
            "formal_parameter" => {
                let (Some(name), Some(ty)) = (n.child_by_field_name("name"), n.child_by_field_name("type")) else {
                    return;
                };
                let scope = n.parent().and_then(|p| p.parent()).unwrap_or(callable).byte_range();
                self.push(LocalVar {
                    name: text(name),
                    type_text: Some(with_annotations(n, src, text(ty) + &dims(n))),
                    kind: VarKind::Parameter,
                    name_node: name,
                    declaration: n,
                    initializer: None,
                    scope,
                });
            }
            "spread_parameter" => {
                let mut cursor = n.walk();
                let children: Vec<Node<'t>> = n.named_children(&mut cursor).collect();
                let ty =
                    children.iter().find(|c| c.kind_name() != "modifiers" && !c.kind_name().ends_with("annotation"));
                let declarator = children.iter().find(|c| c.kind_name() == "variable_declarator");
                let (Some(ty), Some(name)) = (ty, declarator.and_then(|d| d.child_by_field_name("name"))) else {
                    return;
                };
                let scope = n.parent().and_then(|p| p.parent()).unwrap_or(callable).byte_range();
                self.push(LocalVar {
                    name: text(name),
                    type_text: Some(with_annotations(n, src, text(*ty) + "[]")),
                    kind: VarKind::Parameter,
                    name_node: name,
                    declaration: n,
                    initializer: None,
                    scope,
                });
            }
            "lambda_expression" => {
                let Some(params) = n.child_by_field_name("parameters") else { return };
                let names: Vec<Node<'t>> = match params.kind_name() {
                    "identifier" => vec![params],
                    "inferred_parameters" => {
                        let mut cursor = params.walk();
                        params.named_children(&mut cursor).filter(|c| c.kind_name() == "identifier").collect()
                    }
                    _ => Vec::new(), // formal_parameters: declared by their formal_parameter nodes
                };
                for name in names {
                    self.push(LocalVar {
                        name: text(name),
                        type_text: None,
                        kind: VarKind::InferredParameter,
                        name_node: name,
                        declaration: n,
                        initializer: None,
                        scope: n.byte_range(),
                    });
                }
            }
            "local_variable_declaration" => {
                let Some(ty) = n.child_by_field_name("type") else { return };
                let parent = n.parent();
                let scope_end = match parent {
                    Some(p) if p.kind_name() == "for_statement" => p.end_byte(),
                    // A local in a case group is in scope for the rest of the whole switch block.
                    Some(p) if p.kind_name() == "switch_block_statement_group" => p.parent().unwrap_or(p).end_byte(),
                    Some(p) => p.end_byte(),
                    None => callable.end_byte(),
                };
                let mut cursor = n.walk();
                for declarator in n.children_by_field_name("declarator", &mut cursor) {
                    let Some(name) = declarator.child_by_field_name("name") else { continue };
                    let value = declarator.child_by_field_name("value");
                    self.push(LocalVar {
                        name: text(name),
                        type_text: Some(text(ty) + &dims(declarator)),
                        kind: VarKind::Local { initialized: value.is_some() },
                        name_node: name,
                        declaration: n,
                        initializer: value,
                        scope: declarator.start_byte()..scope_end,
                    });
                }
            }
            "enhanced_for_statement" => {
                let (Some(name), Some(ty)) = (n.child_by_field_name("name"), n.child_by_field_name("type")) else {
                    return;
                };
                self.push(LocalVar {
                    name: text(name),
                    type_text: Some(text(ty) + &dims(n)),
                    kind: VarKind::Bound,
                    name_node: name,
                    declaration: n,
                    initializer: None,
                    scope: n.byte_range(),
                });
            }
            "catch_formal_parameter" => {
                let Some(name) = n.child_by_field_name("name") else { return };
                let Some(ty) = crate::java::syntax::named_child_of_kind(n, "catch_type") else { return };
                self.push(LocalVar {
                    name: text(name),
                    type_text: Some(text(ty)),
                    kind: VarKind::Bound,
                    name_node: name,
                    declaration: n,
                    initializer: None,
                    scope: n.parent().unwrap_or(n).byte_range(),
                });
            }
            "resource" => {
                let (Some(name), Some(ty)) = (n.child_by_field_name("name"), n.child_by_field_name("type")) else {
                    return;
                };
                let try_stmt = n.parent().and_then(|p| p.parent()).unwrap_or(n);
                self.push(LocalVar {
                    name: text(name),
                    type_text: Some(text(ty) + &dims(n)),
                    kind: VarKind::Bound,
                    name_node: name,
                    declaration: n,
                    initializer: n.child_by_field_name("value"),
                    scope: try_stmt.byte_range(),
                });
            }
            "instanceof_expression" => {
                let (Some(name), Some(ty)) = (n.child_by_field_name("name"), n.child_by_field_name("right")) else {
                    return;
                };
                self.push_pattern(text(name), name, text(ty), n, callable);
            }
            "type_pattern" | "record_pattern_component" => {
                let mut cursor = n.walk();
                let children: Vec<Node<'t>> = n.named_children(&mut cursor).collect();
                if let [ty, name] = children.as_slice()
                    && name.kind_name() == "identifier"
                {
                    self.push_pattern(text(*name), *name, text(*ty), n, callable);
                }
            }
            _ => {}
        }
    }

    /// Pattern variables have flow-sensitive scope (`if (!(o instanceof T t)) return; t.use();`);
    /// we over-approximate it as "from the pattern to the end of the enclosing block", which is
    /// safe because Java forbids a local to shadow another local in scope.
    fn push_pattern(&mut self, name: String, name_node: Node<'t>, ty: String, decl: Node<'t>, callable: Node<'t>) {
        let mut container = decl;
        while let Some(p) = container.parent() {
            container = p;
            if is_statement_container(p.kind_name()) || p.id() == callable.id() {
                break;
            }
        }
        if container.kind_name() == "switch_block_statement_group" {
            container = container.parent().unwrap_or(container);
        }
        self.push(LocalVar {
            name,
            type_text: Some(ty),
            kind: VarKind::Bound,
            name_node,
            declaration: decl,
            initializer: None,
            scope: decl.start_byte()..container.end_byte(),
        });
    }
}

/// The type of a parameter with its annotations (`@NonNull T`), without `final`.
fn with_annotations(param: Node<'_>, src: &str, ty: String) -> String {
    let Some(mods) = crate::java::syntax::modifiers(param) else { return ty };
    let mut cursor = mods.walk();
    let annotations: Vec<&str> = mods
        .named_children(&mut cursor)
        .filter(|c| c.kind_name().ends_with("annotation"))
        .map(|c| &src[c.byte_range()])
        .collect();
    if annotations.is_empty() { ty } else { format!("{} {ty}", annotations.join(" ")) }
}

/// Whether an identifier node names a variable in an expression (not a method, field member,
/// label, type, or a declaration's own name).
pub(crate) fn is_variable_use(n: Node<'_>) -> bool {
    n.parent().is_some_and(|parent| is_variable_use_under(n, parent))
}

/// [`is_variable_use`] with the parent already known.
fn is_variable_use_under(n: Node<'_>, parent: Node<'_>) -> bool {
    let field_is = |field: &str| parent.child_by_field_name(field).is_some_and(|c| c.id() == n.id());
    match parent.kind_name() {
        "method_invocation" => !field_is("name"),
        "field_access" => !field_is("field"),
        "variable_declarator" | "formal_parameter" | "catch_formal_parameter" | "enhanced_for_statement" => {
            !field_is("name")
        }
        "resource" => !field_is("name"),
        "instanceof_expression" => !field_is("name"),
        "lambda_expression" => !field_is("parameters"),
        "inferred_parameters" | "type_pattern" | "record_pattern_component" | "record_pattern" => false,
        "labeled_statement" | "break_statement" | "continue_statement" => false,
        "method_reference" => n.prev_sibling().is_none_or(|p| p.kind_name() != "::"),
        "annotation" | "marker_annotation" | "element_value_pair" | "scoped_identifier" | "scoped_type_identifier" => {
            false
        }
        "method_declaration"
        | "constructor_declaration"
        | "class_declaration"
        | "enum_constant"
        | "interface_declaration"
        | "enum_declaration"
        | "record_declaration" => false,
        _ => true,
    }
}

/// (read, write) of an identifier use under `parent`.
fn access_under(n: Node<'_>, parent: Node<'_>, src: &str) -> (bool, bool) {
    match parent.kind_name() {
        "assignment_expression" if parent.child_by_field_name("left").is_some_and(|l| l.id() == n.id()) => {
            let op = parent.child_by_field_name("operator").map(|o| &src[o.byte_range()]);
            (op != Some("="), true)
        }
        "update_expression" => (true, true),
        _ => (true, false),
    }
}

/// What flows into and out of a fragment of statements.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FragmentFlow {
    /// Locals declared before the fragment whose value the fragment reads, in order of first use.
    pub params: Vec<usize>,
    /// Locals assigned or declared in the fragment whose value is used after it.
    pub outputs: Vec<usize>,
    /// Locals declared before the fragment that it uses but need not receive (it assigns them
    /// before reading, or they are unassigned before it): the new method declares them itself.
    pub declare_inside: Vec<usize>,
    /// For each output, the byte of its first use after the fragment.
    pub first_use_after: Vec<usize>,
}

impl MethodFlow<'_> {
    /// Inputs and outputs of the fragment made of `statements` (consecutive, in one container).
    pub fn fragment(&self, statements: &[Node<'_>], src: &str) -> FragmentFlow {
        let loops = statements.first().map(|first| loops_around(*first)).unwrap_or_default();
        self.fragment_within(statements, &loops, src)
    }

    /// [`MethodFlow::fragment`] with the loops around the statements known ([`loops_around`] one
    /// of them): the same for every run of one block.
    pub fn fragment_within(&self, statements: &[Node<'_>], loops: &[Range<usize>], src: &str) -> FragmentFlow {
        let (Some(first), Some(last)) = (statements.first(), statements.last()) else {
            return FragmentFlow::default();
        };
        let range = first.start_byte()..last.end_byte();
        let mut out = FragmentFlow::default();
        let mut first_use: Vec<(usize, usize)> = Vec::new();
        let by_var = &self.by_var;
        for (i, var) in self.vars.iter().enumerate() {
            let refs = &by_var[i];
            // In document order: those inside the range are one run.
            let from = refs.partition_point(|r| r.at < range.start);
            let to = refs.partition_point(|r| r.at < range.end);
            let inside = &refs[from..to];
            let declared_inside = range.contains(&var.name_node.start_byte());
            if declared_inside {
                let top_level = statements.iter().any(|s| s.id() == var.declaration.id());
                let after = refs.iter().find(|r| r.at >= range.end);
                if let (true, Some(after)) = (top_level, after) {
                    out.outputs.push(i);
                    out.first_use_after.push(after.at);
                }
                continue;
            }
            let Some(first_inside) = inside.first() else { continue };
            first_use.push((first_inside.at, i));
            let written = inside.iter().any(|r| r.write);
            if written {
                let read_after = refs.iter().find(|r| r.read && r.at >= range.end).map(|r| r.at);
                // In a loop, the next iteration sees the value too.
                let range = &range;
                let read_in_loop = loops
                    .iter()
                    .filter(|l| var.name_node.start_byte() < l.start)
                    .flat_map(|l| refs.iter().filter(move |r| r.read && l.contains(&r.at) && !range.contains(&r.at)))
                    .map(|r| r.at)
                    .next();
                if let Some(at) = read_after.or(read_in_loop) {
                    out.outputs.push(i);
                    out.first_use_after.push(at);
                }
            }
        }
        first_use.sort();
        for (_, i) in first_use {
            let var = &self.vars[i];
            let unassigned_before = var.kind == (VarKind::Local { initialized: false })
                && !by_var[i].iter().any(|r| r.write && r.at > var.name_node.start_byte() && r.at < range.start);
            // A returned value must also reach the `return` on paths where the fragment does not
            // assign it, so an output is passed in unless the fragment assigns it first thing.
            let is_output = out.outputs.contains(&i);
            let needs_value = match self.first_access(i, &by_var[i], statements, src) {
                Access::Read => true,
                Access::Written => false,
                Access::Neither => is_output,
            };
            if !unassigned_before && needs_value {
                out.params.push(i);
            } else {
                out.declare_inside.push(i);
            }
        }
        out
    }

    /// What the fragment certainly does first with `var`: a top-level statement `var = e;` (with
    /// `e` not reading it) before any read is a write; any earlier read is a read.
    fn first_access(&self, var: usize, refs: &[Reference], statements: &[Node<'_>], src: &str) -> Access {
        for s in statements {
            let reads = refs.iter().any(|r| r.read && s.byte_range().contains(&r.at));
            if s.kind_name() == "expression_statement"
                && let Some(assign) = s.named_child(0).filter(|e| e.kind_name() == "assignment_expression")
                && assign.child_by_field_name("operator").is_some_and(|o| &src[o.byte_range()] == "=")
                && assign.child_by_field_name("left").is_some_and(|l| {
                    l.kind_name() == "identifier" && self.resolve(&src[l.byte_range()], l.start_byte()) == Some(var)
                })
            {
                return if reads { Access::Read } else { Access::Written };
            }
            if reads {
                return Access::Read;
            }
        }
        Access::Neither
    }
}

enum Access {
    Read,
    Written,
    Neither,
}

/// Byte ranges of the loops around `node`, up to the nearest lambda or class body.
pub fn loops_around(node: Node<'_>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut cur = node.parent();
    while let Some(n) = cur {
        if is_flow_boundary(n.kind_name()) {
            break;
        }
        if is_loop(n.kind_name()) {
            out.push(n.byte_range());
        }
        cur = n.parent();
    }
    out
}

/// The type a `var` declaration stands for, when it is visible in its initializer: a literal,
/// `new T(...)` without a diamond or body, an array creation, or a cast.
pub fn var_type(initializer: Node<'_>, src: &str) -> Option<String> {
    let text = &src[initializer.byte_range()];
    match initializer.kind_name() {
        "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal" => {
            Some(if text.ends_with(['l', 'L']) { "long" } else { "int" }.into())
        }
        "decimal_floating_point_literal" | "hex_floating_point_literal" => {
            Some(if text.ends_with(['f', 'F']) { "float" } else { "double" }.into())
        }
        "string_literal" | "text_block" => Some("String".into()),
        "character_literal" => Some("char".into()),
        "true" | "false" => Some("boolean".into()),
        "object_creation_expression" => {
            let ty = initializer.child_by_field_name("type")?;
            let has_body = crate::java::syntax::named_child_of_kind(initializer, "class_body").is_some();
            let ty_text = &src[ty.byte_range()];
            (!has_body && !ty_text.contains("<>")).then(|| ty_text.to_string())
        }
        "array_creation_expression" => {
            let ty = initializer.child_by_field_name("type")?;
            let mut cursor = initializer.walk();
            let dims: usize = initializer
                .children_by_field_name("dimensions", &mut cursor)
                .map(|d| src[d.byte_range()].matches('[').count())
                .sum();
            Some(format!("{}{}", &src[ty.byte_range()], "[]".repeat(dims)))
        }
        "cast_expression" => {
            let mut cursor = initializer.walk();
            let types: Vec<&str> =
                initializer.children_by_field_name("type", &mut cursor).map(|t| &src[t.byte_range()]).collect();
            (types.len() == 1).then(|| types[0].to_string())
        }
        "parenthesized_expression" => var_type(initializer.named_child(0)?, src),
        _ => None,
    }
}
