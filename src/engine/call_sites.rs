//! Call-site discovery: which invocations and method references may target one method
//! declaration, and which of them the engine may rewrite.
//!
//! Candidates are found in the parsed files by name (and argument count for calls). With a
//! project, the project model decides each one ([`find_project_call_sites`]): resolved by name,
//! arity and receiver type, a call or reference that reaches another method is ignored, and one
//! whose receiver type is unknown but could be this method's is a [`Doubt`]. Without a project
//! (single files, the dataset evaluation) syntax decides ([`find_call_sites`]): the receiver is
//! absent, `this`, `Outer.this`, the class name, or a variable declared with the class as its
//! type, and same-arity overloads are separated by the arguments' declared types where visible.
//! Whatever neither can decide is reported as such ([`Target::Ambiguous`], [`Receiver::Unknown`],
//! [`Doubt`]) so the engine can refuse or keep the declaration rather than guess.

use tree_sitter::Node;

use super::variable_names::{erased_type, find_declaration};
use crate::java::SourceFile;
use crate::java::calls::{ReceiverType, Resolution};
use crate::java::project::{FileId, MethodId, Project, TypeId};
use crate::java::symbols::CallKind;

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

/// Every place in `files` that may refer to `target`, outside its own declaration, as far as
/// syntax can tell: the stand-in for the project model when there is no project.
pub fn find_call_sites<'t>(files: &'t [SourceFile], target: &TargetMethod<'t>) -> Vec<CallSite<'t>> {
    candidates(files, target)
        .into_iter()
        .filter_map(|(fi, node)| syntactic_site(fi, &files[fi], node, target))
        .collect()
}

/// Invocations with the method's name and arity, and method references with its name, outside
/// its own declaration: everything that could refer to it, whatever it turns out to be.
fn candidates<'t>(files: &'t [SourceFile], target: &TargetMethod<'t>) -> Vec<(usize, Node<'t>)> {
    let name = target.name.as_str();
    let mut found = Vec::new();
    for (fi, file) in files.iter().enumerate() {
        // Only where the name is spelled: the identifier there, if it is one, names the call or
        // the reference. Walking every node of every file instead was most of an inline's cost.
        let mut nodes: Vec<Node<'t>> = Vec::new();
        for (at, _) in file.text.match_indices(name) {
            let end = at + name.len();
            let Some(id) = file.root().descendant_for_byte_range(at, end) else { continue };
            if id.kind() != "identifier" || id.start_byte() != at || id.end_byte() != end {
                continue;
            }
            let Some(node) = id.parent() else { continue };
            let named = match node.kind() {
                "method_invocation" => {
                    node.child_by_field_name("name").is_some_and(|n| n.id() == id.id())
                        && arguments(node).len() == target.param_types.len()
                }
                "method_reference" => reference_name(node).is_some_and(|n| n.id() == id.id()),
                _ => false,
            };
            let in_decl = fi == target.file && target.node.byte_range().contains(&node.start_byte());
            if named && !in_decl {
                nodes.push(node);
            }
        }
        // In document order, an enclosing call before the calls inside it, as a walk finds them.
        nodes.sort_by_key(|n| (n.start_byte(), std::cmp::Reverse(n.end_byte())));
        found.extend(nodes.into_iter().map(|n| (fi, n)));
    }
    found
}

/// The method name of `Type::m`, `this::m`, `expr::m` (not of `Type::new`).
fn reference_name(node: Node<'_>) -> Option<Node<'_>> {
    let count = node.named_child_count();
    let name = node.named_child(count.checked_sub(1)?)?;
    (count >= 2 && name.kind() == "identifier").then_some(name)
}

/// The syntactic verdict on a candidate: a site, or `None` when syntax shows it is another method's.
fn syntactic_site<'t>(fi: usize, file: &'t SourceFile, node: Node<'t>, t: &TargetMethod<'t>) -> Option<CallSite<'t>> {
    let line = node.start_position().row + 1;
    if node.kind() == "method_reference" {
        let target = if t.overloads.len() > 1 { Target::Ambiguous } else { Target::This };
        return Some(CallSite { file: fi, node, line, kind: SiteKind::Reference, target });
    }
    let receiver = receiver_shape(fi, file, node, t)?;
    let target = resolve_overload(&arguments(node), file, t);
    if target == Target::Other {
        return None;
    }
    Some(CallSite { file: fi, node, line, kind: SiteKind::Call { receiver }, target })
}

/// How an invocation's receiver reaches the declaring type, or `None` when syntax shows the call
/// is on another type (a nested type's own method, another class's static, a variable of another type).
fn receiver_shape<'t>(fi: usize, file: &'t SourceFile, node: Node<'t>, t: &TargetMethod<'t>) -> Option<Receiver<'t>> {
    let same_file = fi == t.file;
    // Directly in the declaring type's body (not in a nested type, whose `this` differs).
    let directly_inside = same_file && enclosing_type_body(node).is_some_and(|b| b.id() == t.type_body.id());
    let lexically_inside = same_file && t.type_body.byte_range().contains(&node.start_byte());
    Some(match node.child_by_field_name("object") {
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
    })
}

/// A same-named call or reference that may target the method, though the project model cannot
/// show it does: it keeps the declaration alive and blocks inlining "everywhere".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doubt {
    /// Index into the files slice.
    pub file: usize,
    pub line: usize,
    pub why: String,
}

/// What the project model says a candidate is.
enum Verdict {
    /// The method; `certain` is false when another overload fits the arguments as well.
    Ours {
        certain: bool,
    },
    NotOurs,
    Doubt(String),
}

/// The call sites of `method` among `files` (`ids[i]` is the project file of `files[i]`), decided
/// by the project model, and the candidates it cannot decide.
///
/// Calls inside method bodies (lambdas, anonymous and local classes included) are resolved by the
/// call graph. The model does not record calls in field initializers and initializer blocks; for
/// those the syntactic verdict stands, except that a method reference whose qualifier names a
/// project type is decided by that type.
pub fn find_project_call_sites<'t>(
    project: &Project,
    method: MethodId,
    files: &'t [SourceFile],
    ids: &[FileId],
    target: &TargetMethod<'t>,
) -> (Vec<CallSite<'t>>, Vec<Doubt>) {
    let mut modeled: std::collections::HashMap<(usize, usize, usize), (MethodId, usize)> = Default::default();
    for (fi, &id) in ids.iter().enumerate() {
        for m in project.methods_in(id).unwrap_or_default() {
            for (ci, c) in project.method(m).calls.iter().enumerate() {
                if matches!(c.kind, CallKind::Method | CallKind::MethodRef) && c.name == target.name {
                    modeled.insert((fi, c.span.start_byte, c.span.end_byte), (m, ci));
                }
            }
        }
    }
    let mut sites = Vec::new();
    let mut doubts = Vec::new();
    for (fi, node) in candidates(files, target) {
        let file = &files[fi];
        let line = node.start_position().row + 1;
        let verdict = match modeled.get(&(fi, node.start_byte(), node.end_byte())) {
            Some(&(m, ci)) => model_verdict(project, method, m, ci),
            None => unmodeled_verdict(project, method, (fi, ids[fi]), file, node, target),
        };
        let certain = match verdict {
            Verdict::Ours { certain } => certain,
            Verdict::NotOurs => continue,
            Verdict::Doubt(why) => {
                doubts.push(Doubt { file: fi, line, why });
                continue;
            }
        };
        let kind = if node.kind() == "method_reference" {
            SiteKind::Reference
        } else {
            // The model says it is this method's call; syntax only says how to spell the
            // receiver, and a receiver it cannot spell keeps the call as it is.
            SiteKind::Call { receiver: receiver_shape(fi, file, node, target).unwrap_or(Receiver::Unknown) }
        };
        let target = if certain { Target::This } else { Target::Ambiguous };
        sites.push(CallSite { file: fi, node, line, kind, target });
    }
    (sites, doubts)
}

/// The call graph's verdict on call `call` of `caller`.
fn model_verdict(project: &Project, method: MethodId, caller: MethodId, call: usize) -> Verdict {
    match project.resolve_call(caller, call) {
        Resolution::Resolved { method: m } if m == method => Verdict::Ours { certain: true },
        Resolution::Resolved { .. } => Verdict::NotOurs,
        Resolution::Ambiguous { candidates } if candidates.contains(&method) => Verdict::Ours { certain: false },
        Resolution::Ambiguous { .. } => Verdict::NotOurs,
        Resolution::Unresolved { .. } => unresolved_verdict(project, method, caller, call),
    }
}

/// A call the model could not resolve may still reach the method only where the model could not
/// look: the enclosing scopes and a project receiver type were searched (the method, being in the
/// project, would have been found), and a type outside the project cannot declare it. What
/// remains is a type variable (its bound may be the method's class), a lower-case name that is no
/// visible variable (a field inherited from outside), and an expression of unknown type, unless
/// it is an element taken out of a declared container.
fn unresolved_verdict(project: &Project, method: MethodId, caller: MethodId, call: usize) -> Verdict {
    let external = |ty: &str| {
        if project.is_type_variable(caller, ty) {
            Verdict::Doubt(format!("the receiver's type `{ty}` is a type variable"))
        } else {
            Verdict::NotOurs
        }
    };
    match project.receiver_type(caller, call) {
        ReceiverType::Enclosing | ReceiverType::Project(_) => Verdict::NotOurs,
        ReceiverType::External(ty) => external(&ty),
        ReceiverType::UnknownName(n) if n.starts_with(char::is_uppercase) => Verdict::NotOurs,
        ReceiverType::UnknownName(n) => Verdict::Doubt(format!("`{n}` is not a variable mantra can see")),
        ReceiverType::Unknown => match project.element_receiver_type(caller, call) {
            Some(ReceiverType::Project(t)) if declares_or_inherits(project, t, method) => {
                Verdict::Ours { certain: true }
            }
            Some(ReceiverType::Project(_)) => Verdict::NotOurs,
            Some(ReceiverType::External(ty)) => external(&ty),
            _ => Verdict::Doubt("the receiver's type is not known".into()),
        },
    }
}

/// Whether `method` is a member of `ty`: declared by it or by one of its project supertypes.
fn declares_or_inherits(project: &Project, ty: TypeId, method: MethodId) -> bool {
    let owner = project.owner(method);
    ty == owner || project.supertypes(ty).contains(&owner)
}

/// A candidate outside any method body (a field initializer, an initializer block).
fn unmodeled_verdict(
    project: &Project,
    method: MethodId,
    (fi, file_id): (usize, FileId),
    file: &SourceFile,
    node: Node<'_>,
    t: &TargetMethod<'_>,
) -> Verdict {
    if node.kind() == "method_reference"
        && let Some(qualifier) = node.named_child(0)
        && matches!(qualifier.kind(), "identifier" | "type_identifier" | "scoped_identifier" | "scoped_type_identifier")
        && let Some(ty) =
            project.resolve_type(file_id, enclosing_type(project, file_id, node.start_byte()), file.text_of(qualifier))
    {
        return if declares_or_inherits(project, ty, method) {
            Verdict::Ours { certain: true }
        } else {
            Verdict::NotOurs
        };
    }
    match syntactic_site(fi, file, node, t) {
        None => Verdict::NotOurs,
        Some(CallSite { kind: SiteKind::Call { receiver: Receiver::Unknown }, .. }) => {
            Verdict::Doubt("outside a method body, on a receiver whose type is not known".into())
        }
        Some(site) => Verdict::Ours { certain: site.target == Target::This },
    }
}

/// The index of the innermost type of `file` whose declaration contains byte `at`.
fn enclosing_type(project: &Project, file: FileId, at: usize) -> Option<u32> {
    let types = project.types_in(file).ok()?;
    types
        .into_iter()
        .filter(|&ty| {
            let s = &project.type_decl(ty).span;
            s.start_byte <= at && at < s.end_byte
        })
        .min_by_key(|&ty| project.type_decl(ty).span.end_byte - project.type_decl(ty).span.start_byte)
        .map(TypeId::index)
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
