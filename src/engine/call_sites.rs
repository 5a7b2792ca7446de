//! Syntactic call-site discovery: which invocations and method references in a set of parsed
//! files may target one method declaration.
//!
//! This is a stand-in for the project call graph: it matches by name and argument count, looks
//! at the receiver (absent, `this`, `Outer.this`, the class name, or a variable declared with the
//! class as its type), and separates same-arity overloads by the arguments' declared types where
//! those are visible. Whatever it cannot decide is reported as such ([`Target::Ambiguous`],
//! [`Receiver::Unknown`]) so the engine can refuse or keep the declaration rather than guess.
//! The whole module is meant to be swapped for a query on the project model.

use tree_sitter::Node;

use super::variable_names::{descendants, erased_type, find_declaration};
use crate::java::SourceFile;

/// The method whose call sites are sought.
#[derive(Debug, Clone)]
pub struct TargetMethod<'t> {
    /// Index into the files slice.
    pub file: usize,
    pub node: Node<'t>,
    pub name: String,
    /// Erased parameter types, in order.
    pub param_types: Vec<String>,
    /// The body (`class_body`, `interface_body`, `enum_body`) of the declaring type.
    pub type_body: Node<'t>,
    pub type_name: String,
    pub is_static: bool,
    /// Same-name, same-arity methods of the declaring type, this one included (erased types).
    pub overloads: Vec<Vec<String>>,
}

/// What the call's receiver is.
#[derive(Debug, Clone, Copy)]
pub enum Receiver<'t> {
    /// `m()`, `this.m()` or `Outer.this.m()` from the declaring type.
    Implicit,
    /// `Type.m()` for a static method.
    TypeName,
    /// `r.m()` where `r` is declared with the declaring type as its type.
    Expr(Node<'t>),
    /// Something else that may or may not reach the method: never inlined, but keeps it alive.
    Unknown,
}

/// Which declaration a call resolves to, as far as syntax can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    This,
    /// Another overload with the same name and arity.
    Other,
    /// More than one overload fits the arguments' visible types.
    Ambiguous,
}

#[derive(Debug, Clone, Copy)]
pub enum SiteKind<'t> {
    Call {
        receiver: Receiver<'t>,
    },
    /// `this::m`, `Type::m`, `x::m`.
    Reference,
}

/// One place that may refer to the method.
#[derive(Debug, Clone, Copy)]
pub struct CallSite<'t> {
    pub file: usize,
    /// A `method_invocation` or `method_reference`.
    pub node: Node<'t>,
    pub line: usize,
    pub kind: SiteKind<'t>,
    pub target: Target,
}

impl CallSite<'_> {
    /// An invocation the engine could inline (its receiver is understood).
    pub fn is_inlinable_call(&self) -> bool {
        matches!(self.kind, SiteKind::Call { receiver } if !matches!(receiver, Receiver::Unknown))
    }
}

/// The arguments of an invocation, comments skipped.
pub fn arguments(invocation: Node<'_>) -> Vec<Node<'_>> {
    invocation
        .child_by_field_name("arguments")
        .map(|a| a.named_children(&mut a.walk()).filter(|c| !c.is_extra()).collect())
        .unwrap_or_default()
}

/// The nearest enclosing type body of `node`.
pub fn enclosing_type_body(node: Node<'_>) -> Option<Node<'_>> {
    let mut cur = node.parent();
    while let Some(n) = cur {
        if matches!(n.kind(), "class_body" | "interface_body" | "enum_body") {
            return Some(n);
        }
        cur = n.parent();
    }
    None
}

/// Every place in `files` that may refer to `target`, outside its own declaration.
pub fn find_call_sites<'t>(files: &'t [SourceFile], target: &TargetMethod<'t>) -> Vec<CallSite<'t>> {
    let mut sites = Vec::new();
    for (fi, file) in files.iter().enumerate() {
        for node in descendants(file.root()) {
            let in_decl = fi == target.file && target.node.byte_range().contains(&node.start_byte());
            if in_decl {
                continue;
            }
            let site = match node.kind() {
                "method_invocation" => invocation_site(fi, file, node, target),
                "method_reference" => reference_site(fi, file, node, target),
                _ => None,
            };
            sites.extend(site);
        }
    }
    sites
}

fn invocation_site<'t>(fi: usize, file: &'t SourceFile, node: Node<'t>, t: &TargetMethod<'t>) -> Option<CallSite<'t>> {
    let name = node.child_by_field_name("name")?;
    if file.text_of(name) != t.name {
        return None;
    }
    let args = arguments(node);
    if args.len() != t.param_types.len() {
        return None;
    }
    let same_file = fi == t.file;
    // Directly in the declaring type's body (not in a nested type, whose `this` differs).
    let directly_inside = same_file && enclosing_type_body(node).is_some_and(|b| b.id() == t.type_body.id());
    let lexically_inside = same_file && t.type_body.byte_range().contains(&node.start_byte());
    let receiver = match node.child_by_field_name("object") {
        None if lexically_inside && !shadowed_by_nested_type(node, file, t) => Receiver::Implicit,
        None if lexically_inside => return None,
        None => Receiver::Unknown,
        Some(o) if o.kind() == "this" => {
            if directly_inside {
                Receiver::Implicit
            } else if lexically_inside {
                return None; // `this` is a nested type: a call to its own method
            } else {
                Receiver::Unknown
            }
        }
        Some(o) if o.kind() == "super" => Receiver::Unknown,
        Some(o) if is_qualified_this(o, file, &t.type_name) && lexically_inside => Receiver::Implicit,
        Some(o) if o.kind() == "identifier" && file.text_of(o) == t.type_name => {
            if t.is_static {
                Receiver::TypeName
            } else {
                return None;
            }
        }
        Some(o) if o.kind() == "identifier" || is_name_chain(o) => match static_type(o, file) {
            Some(ty) if ty == t.type_name => Receiver::Expr(o),
            Some(_) => return None,
            None if o.kind() == "identifier" && starts_upper(file.text_of(o)) => return None, // another type's static
            None => Receiver::Unknown,
        },
        Some(_) => Receiver::Unknown,
    };
    let target = resolve_overload(&args, file, t);
    if target == Target::Other {
        return None;
    }
    Some(CallSite { file: fi, node, line: node.start_position().row + 1, kind: SiteKind::Call { receiver }, target })
}

fn reference_site<'t>(fi: usize, file: &'t SourceFile, node: Node<'t>, t: &TargetMethod<'t>) -> Option<CallSite<'t>> {
    let count = node.named_child_count();
    let name = node.named_child(count.checked_sub(1)?)?;
    if name.kind() != "identifier" || file.text_of(name) != t.name || count < 2 {
        return None;
    }
    let target = if t.overloads.len() > 1 { Target::Ambiguous } else { Target::This };
    Some(CallSite { file: fi, node, line: node.start_position().row + 1, kind: SiteKind::Reference, target })
}

/// A nested type between the call and the declaring type declares a method of the same name,
/// which an unqualified call would reach first.
fn shadowed_by_nested_type(node: Node<'_>, file: &SourceFile, t: &TargetMethod<'_>) -> bool {
    let mut body = enclosing_type_body(node);
    while let Some(b) = body {
        if b.id() == t.type_body.id() {
            return false;
        }
        let declares = b.named_children(&mut b.walk()).any(|m| {
            m.kind() == "method_declaration" && m.child_by_field_name("name").is_some_and(|n| file.text_of(n) == t.name)
        });
        if declares {
            return true;
        }
        body = enclosing_type_body(b);
    }
    false
}

fn starts_upper(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_uppercase)
}

/// `Outer.this` naming the declaring type.
fn is_qualified_this(node: Node<'_>, file: &SourceFile, type_name: &str) -> bool {
    node.kind() == "field_access"
        && node.child_by_field_name("field").is_some_and(|f| f.kind() == "this")
        && node.child_by_field_name("object").is_some_and(|o| file.text_of(o) == type_name)
}

/// `a`, `a.b`, `this.a.b`: a receiver without side effects.
pub fn is_name_chain(node: Node<'_>) -> bool {
    match node.kind() {
        "identifier" | "this" => true,
        "field_access" => node.child_by_field_name("object").is_some_and(is_name_chain),
        _ => false,
    }
}

/// The erased declared type of an expression, where syntax shows it.
pub fn static_type(expr: Node<'_>, file: &SourceFile) -> Option<String> {
    let text = &file.text;
    match expr.kind() {
        "string_literal" | "text_block" => Some("String".into()),
        "true" | "false" => Some("boolean".into()),
        "character_literal" => Some("char".into()),
        "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal" => {
            Some(if file.text_of(expr).ends_with(['l', 'L']) { "long" } else { "int" }.into())
        }
        "decimal_floating_point_literal" => {
            Some(if file.text_of(expr).ends_with(['f', 'F']) { "float" } else { "double" }.into())
        }
        "object_creation_expression" | "cast_expression" => {
            expr.child_by_field_name("type").map(|t| erased_type(file.text_of(t)))
        }
        "parenthesized_expression" => static_type(expr.named_child(0)?, file),
        "identifier" => {
            let decl = find_declaration(expr, file.text_of(expr), text)?;
            decl.type_node.map(|t| erased_type(file.text_of(t)))
        }
        _ => None,
    }
}

/// Which same-arity overload a call with `args` reaches: decided on the positions where the
/// overloads' parameter types differ, using only exact matches of visible argument types.
fn resolve_overload(args: &[Node<'_>], file: &SourceFile, t: &TargetMethod<'_>) -> Target {
    if t.overloads.len() <= 1 {
        return Target::This;
    }
    let differing: Vec<usize> =
        (0..args.len()).filter(|&i| t.overloads.iter().any(|o| o[i] != t.overloads[0][i])).collect();
    let types: Vec<Option<String>> = differing.iter().map(|&i| static_type(args[i], file)).collect();
    let fits = |o: &Vec<String>| differing.iter().zip(&types).all(|(&i, ty)| ty.as_ref().is_none_or(|ty| *ty == o[i]));
    let fitting: Vec<&Vec<String>> = t.overloads.iter().filter(|o| fits(o)).collect();
    let ours_fits = fits(&t.param_types);
    let all_known = types.iter().all(Option::is_some);
    match (ours_fits, fitting.len(), all_known) {
        (true, 1, true) => Target::This,
        // another overload matches every differing position exactly
        (false, n, true) if n >= 1 => Target::Other,
        // exact types fit nobody (subtypes, boxing) or several: syntax cannot tell
        _ => Target::Ambiguous,
    }
}
