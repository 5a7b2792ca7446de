//! The locator: the names of the pasted lines that nothing in scope declares, and what each use
//! needs of the value it names (its role: an argument of a known method, a member's receiver, an
//! operand, an assignment's source or target).

use std::collections::BTreeMap;

use tree_sitter::Node;

use crate::engine::rename::resolve::{self, Referent, Scopes, Use};
use crate::java::project::{MethodId, Project};
use crate::java::symbols::{CallKind, TypeName};

/// What one use of a name needs of its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Need {
    /// A value assignable to this type (an argument of a known parameter, a declared variable's
    /// initialiser, a returned value).
    Type(TypeName),
    /// A value with this member: `name.size()` (`call`) or `name.length`.
    Member {
        name: String,
        call: bool,
        args: usize,
    },
    Numeric,
    Boolean,
    /// Indexed (`name[i]`) or `name.length`.
    Array,
    /// Indexed, and the element used as a number (`31 * h + name[i]`): an array of a primitive
    /// number type (or its box), one dimension.
    NumberArray,
    /// The source of an enhanced `for`: an array or an `Iterable`.
    Iterable,
    /// Compared with `null`, `instanceof`'s operand, a `synchronized` lock.
    Reference,
}

/// A call the name is an argument of, for the identical-calls collector: `name(.., x, ..)` with
/// the name at `index` of `args` arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentOf {
    pub method: String,
    pub args: usize,
    pub index: usize,
}

/// One name the paste uses that nothing in scope declares.
#[derive(Debug, Clone, Default)]
pub struct Unresolved {
    pub name: String,
    /// Every use in the paste, in document order.
    pub uses: Vec<std::ops::Range<usize>>,
    pub needs: Vec<Need>,
    pub arguments: Vec<ArgumentOf>,
    /// A member name the name is the receiver of (`x.foo()` → `foo`), for identical receivers.
    pub members: Vec<String>,
    /// The other operand of a comparison, an arithmetic operation or an assignment the name is
    /// part of, and the other arguments and the receiver of a call it is an argument of: binding
    /// the name to one would make `x < x`, `x = x` or `x.get(x)`.
    pub other_operands: Vec<String>,
}

/// The unresolved names of `range` (bytes of the file) in `method`, in order of first use.
pub(crate) fn unresolved(scopes: &Scopes<'_>, method: MethodId, range: std::ops::Range<usize>) -> Vec<Unresolved> {
    let source = scopes.source;
    let project = scopes.project;
    let mut found: BTreeMap<String, Unresolved> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    // From the smallest node holding the range; the walk skips every subtree outside it.
    let holder = source.root().descendant_for_byte_range(range.start, range.end).unwrap_or(source.root());
    crate::java::syntax::walk(holder, &mut |n| {
        if n.end_byte() <= range.start || n.start_byte() >= range.end {
            return false;
        }
        if n.kind() != "identifier" || n.start_byte() < range.start || n.end_byte() > range.end {
            return true;
        }
        if !matches!(resolve::use_of(n), Use::Bare) {
            return true;
        }
        let name = source.text_of(n);
        if scopes.bare(n.start_byte(), name) != Referent::None || is_type_or_import(scopes, n, name) {
            return true;
        }
        let entry = found.entry(name.to_string()).or_insert_with(|| {
            order.push(name.to_string());
            Unresolved { name: name.to_string(), ..Unresolved::default() }
        });
        entry.uses.push(n.byte_range());
        role(project, scopes, method, n, entry);
        true
    });
    order.into_iter().filter_map(|name| found.remove(&name)).collect()
}

/// Whether an unresolved simple name is a type (a project type, or written like one where a type
/// can stand: `Math.max`, `Foo.BAR`) or a statically imported member.
fn is_type_or_import(scopes: &Scopes<'_>, node: Node<'_>, name: &str) -> bool {
    let scope = scopes.type_at(node.start_byte()).map(|t| scopes.types[t].index());
    if scopes.project.resolve_type(scopes.file, scope, name).is_some() {
        return true;
    }
    if scopes.syms.imports.iter().any(|i| i.is_static && !i.wildcard && i.path.rsplit('.').next() == Some(name)) {
        return true;
    }
    let upper_camel = name.chars().next().is_some_and(char::is_uppercase) && name.chars().any(char::is_lowercase);
    let qualifies = node.parent().is_some_and(|p| {
        matches!(p.kind(), "field_access" | "method_invocation" | "method_reference")
            && p.child_by_field_name("object").or_else(|| p.named_child(0)) == Some(node)
    });
    upper_camel && (qualifies || is_java_lang(name))
}

/// The `java.lang` types code names without an import.
fn is_java_lang(name: &str) -> bool {
    crate::engine::rename::JAVA_LANG.contains(&name)
}

/// Records what the use `node` needs, from its parent.
fn role(project: &Project, scopes: &Scopes<'_>, method: MethodId, node: Node<'_>, out: &mut Unresolved) {
    let source = scopes.source;
    // The expression the name is, through parentheses.
    let mut expr = node;
    while let Some(p) = expr.parent().filter(|p| p.kind() == "parenthesized_expression") {
        expr = p;
    }
    let Some(parent) = expr.parent() else { return };
    let is = |field: &str| parent.child_by_field_name(field) == Some(expr);
    let text = |n: Node<'_>| source.text_of(n).to_string();
    match parent.kind() {
        "argument_list" => {
            let Some(call) = parent.parent() else { return };
            let args: Vec<Node<'_>> = named(parent);
            let Some(index) = args.iter().position(|a| *a == expr) else { return };
            let name = match call.kind() {
                "method_invocation" => call.child_by_field_name("name").map(text),
                "object_creation_expression" => call.child_by_field_name("type").map(|t| {
                    let t = text(t);
                    t.split('<').next().unwrap_or(&t).trim().to_string()
                }),
                _ => None,
            };
            if let Some(name) = name {
                out.arguments.push(ArgumentOf { method: name, args: args.len(), index });
            }
            // The call's other arguments and its receiver: `props.get(key)` does not read `props`
            // for `key`.
            for (i, a) in args.iter().enumerate() {
                if i != index {
                    out.other_operands.push(text(*a));
                }
            }
            if let Some(receiver) = call.child_by_field_name("object") {
                out.other_operands.push(text(receiver));
            }
            if let Some(ty) = parameter_type(project, method, call, index, args.len()) {
                out.needs.push(Need::Type(ty));
            }
        }
        "method_invocation" if is("object") => {
            let name = parent.child_by_field_name("name").map(text).unwrap_or_default();
            let args = parent.child_by_field_name("arguments").map_or(0, |a| named(a).len());
            out.members.push(name.clone());
            out.needs.push(Need::Member { name, call: true, args });
        }
        "field_access" if is("object") => {
            let name = parent.child_by_field_name("field").map(text).unwrap_or_default();
            if name == "length" {
                out.needs.push(Need::Array);
            } else {
                out.members.push(name.clone());
                out.needs.push(Need::Member { name, call: false, args: 0 });
            }
        }
        "variable_declarator" if is("value") => {
            if let Some(ty) = parent.parent().and_then(|d| d.child_by_field_name("type"))
                && source.text_of(ty) != "var"
            {
                out.needs.push(Need::Type(crate::java::symbols::type_name(&source.text, ty)));
            }
        }
        "assignment_expression" => {
            let other =
                if is("right") { parent.child_by_field_name("left") } else { parent.child_by_field_name("right") };
            let Some(other) = other else { return };
            out.other_operands.push(text(other));
            if let Some(ty) = typed(scopes, other) {
                out.needs.push(Need::Type(ty));
            }
        }
        "return_statement" => {
            let lambda = ancestors(expr).any(|a| a.kind() == "lambda_expression" || a.kind() == "class_body");
            if !lambda && let Some(ty) = &project.method(method).return_type {
                out.needs.push(Need::Type(ty.clone()));
            }
        }
        "binary_expression" => {
            let op = parent.child_by_field_name("operator").map(text).unwrap_or_default();
            let other =
                if is("left") { parent.child_by_field_name("right") } else { parent.child_by_field_name("left") };
            if let Some(o) = other {
                out.other_operands.push(text(o));
            }
            match op.as_str() {
                "-" | "*" | "/" | "%" | "<" | ">" | "<=" | ">=" | "<<" | ">>" | ">>>" => out.needs.push(Need::Numeric),
                "&&" | "||" => out.needs.push(Need::Boolean),
                "==" | "!=" => match other {
                    Some(o) if o.kind() == "null_literal" => out.needs.push(Need::Reference),
                    Some(o) => {
                        if let Some(ty) = typed(scopes, o) {
                            out.needs.push(Need::Type(ty));
                        }
                    }
                    None => {}
                },
                // `x + n` adds numbers only where a number is wanted: `println(name + n)` and
                // `"#" + n + name` concatenate, and then `x` may be a String, or anything.
                // Added to a product, a difference or a number written out (`31 * h + x`), `x`
                // is a number: concatenation there would be a strange way to write a string.
                "+" if other.is_some_and(|o| {
                    matches!(
                        o.kind(),
                        "decimal_integer_literal" | "hex_integer_literal" | "decimal_floating_point_literal"
                    ) || o.kind() == "binary_expression"
                        && o.child_by_field_name("operator")
                            .is_some_and(|op| matches!(text(op).as_str(), "*" | "/" | "%" | "-" | "<<" | ">>"))
                }) =>
                {
                    out.needs.push(Need::Numeric)
                }
                "+" if numeric_context(parent, &text) => {
                    if let Some(ty) = other.and_then(|o| typed(scopes, o)).filter(|t| is_numeric(&t.raw) && t.dims == 0)
                    {
                        out.needs.push(Need::Type(ty));
                    }
                }
                _ => {}
            }
        }
        "unary_expression" => {
            let op = parent.child_by_field_name("operator").map(text).unwrap_or_default();
            out.needs.push(if op == "!" { Need::Boolean } else { Need::Numeric });
        }
        "update_expression" => out.needs.push(Need::Numeric),
        "array_access" if is("array") => {
            // What the element's own use needs says what the array holds.
            let mut element = Unresolved::default();
            role(project, scopes, method, parent, &mut element);
            let number = element.needs.iter().any(|n| match n {
                Need::Numeric => true,
                Need::Type(t) => t.dims == 0 && is_numeric(&t.raw),
                _ => false,
            });
            out.needs.push(if number { Need::NumberArray } else { Need::Array });
        }
        "array_access" => out.needs.push(Need::Numeric),
        "enhanced_for_statement" if is("value") => out.needs.push(Need::Iterable),
        "instanceof_expression" | "synchronized_statement" | "throw_statement" => out.needs.push(Need::Reference),
        "if_statement" | "while_statement" | "do_statement" if is("condition") => out.needs.push(Need::Boolean),
        "ternary_expression" if is("condition") => out.needs.push(Need::Boolean),
        _ => {}
    }
    // `if (x)` parses the condition as a parenthesized expression: the walk above stopped at it.
    if expr.kind() == "parenthesized_expression"
        && let Some(p) = expr.parent()
        && matches!(p.kind(), "if_statement" | "while_statement" | "do_statement")
        && p.child_by_field_name("condition") == Some(expr)
    {
        out.needs.push(Need::Boolean);
    }
}

/// Whether the value of the `+` chain holding `plus` must be a number: the chain (`a + b + c`)
/// is an operand of an arithmetic or comparison operator, an array index, or the initializer of a
/// variable declared with a primitive number type.
fn numeric_context(plus: Node<'_>, text: &dyn Fn(Node<'_>) -> String) -> bool {
    let op = |n: Node<'_>| n.child_by_field_name("operator").map(text).unwrap_or_default();
    let mut top = plus;
    while let Some(p) = top.parent().filter(|p| p.kind() == "binary_expression" && op(*p) == "+") {
        top = p;
    }
    let Some(parent) = top.parent() else { return false };
    match parent.kind() {
        "binary_expression" => {
            matches!(op(parent).as_str(), "-" | "*" | "/" | "%" | "<" | ">" | "<=" | ">=" | "<<" | ">>" | ">>>")
        }
        "array_access" => parent.child_by_field_name("index") == Some(top),
        "parenthesized_expression" => numeric_context(parent, text),
        "variable_declarator" => parent.parent().and_then(|d| d.child_by_field_name("type")).is_some_and(|t| {
            let t = text(t);
            is_numeric(&t) && t.starts_with(char::is_lowercase)
        }),
        _ => false,
    }
}

fn named(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|c| !crate::java::syntax::is_comment(c.kind())).collect()
}

fn ancestors(node: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    std::iter::successors(node.parent(), |n| n.parent())
        .take_while(|n| !matches!(n.kind(), "method_declaration" | "constructor_declaration"))
}

/// The declared type of parameter `index` of the project method `call` goes to, when every
/// method it may go to agrees.
fn parameter_type(project: &Project, method: MethodId, call: Node<'_>, index: usize, args: usize) -> Option<TypeName> {
    let decl = project.method(method);
    let site = decl.calls.iter().position(|c| {
        c.span.start_byte == call.start_byte()
            && c.span.end_byte == call.end_byte()
            && matches!(c.kind, CallKind::Method | CallKind::New)
    })?;
    let targets = match project.resolve_call(method, site) {
        crate::java::calls::Resolution::Resolved { method } => vec![method],
        crate::java::calls::Resolution::Ambiguous { candidates } => candidates,
        crate::java::calls::Resolution::Unresolved { .. } => return None,
    };
    let mut types = targets.iter().filter_map(|&m| {
        let params = &project.method(m).params;
        if !project.method(m).accepts_arity(args) {
            return None;
        }
        let p = params.get(index).or_else(|| params.last().filter(|p| p.varargs))?;
        if p.generic {
            return None;
        }
        let mut ty = p.ty.clone();
        if p.varargs && (index + 1 > params.len() - 1) && args != params.len() {
            ty.dims = ty.dims.saturating_sub(1);
        }
        Some(ty)
    });
    let first = types.next()?;
    types.all(|t| t.erased() == first.erased()).then_some(first)
}

/// The written type of a simple expression: a variable or field by name, a literal.
pub(crate) fn typed(scopes: &Scopes<'_>, node: Node<'_>) -> Option<TypeName> {
    let plain = |raw: &str| Some(TypeName { text: raw.to_string(), raw: raw.to_string(), dims: 0 });
    match node.kind() {
        "identifier" => match scopes.bare(node.start_byte(), scopes.source.text_of(node)) {
            Referent::Var(v) => resolve::var_type(scopes.project, v).cloned(),
            Referent::Field(owner, i) => Some(scopes.project.type_decl(owner).fields[i].ty.clone()),
            Referent::None => None,
        },
        "string_literal" | "text_block" => plain("String"),
        "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal" => {
            let text = scopes.source.text_of(node);
            plain(if text.ends_with(['l', 'L']) { "long" } else { "int" })
        }
        "decimal_floating_point_literal" => {
            let text = scopes.source.text_of(node);
            plain(if text.ends_with(['f', 'F']) { "float" } else { "double" })
        }
        "true" | "false" => plain("boolean"),
        "character_literal" => plain("char"),
        "parenthesized_expression" => node.named_child(0).and_then(|e| typed(scopes, e)),
        _ => None,
    }
}

pub fn is_numeric(raw: &str) -> bool {
    matches!(
        raw,
        "byte"
            | "short"
            | "char"
            | "int"
            | "long"
            | "float"
            | "double"
            | "Byte"
            | "Short"
            | "Character"
            | "Integer"
            | "Long"
            | "Float"
            | "Double"
            | "Number"
            | "BigInteger"
            | "BigDecimal"
            | "AtomicInteger"
            | "AtomicLong"
    )
}
