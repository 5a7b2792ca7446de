//! The callee's analysis: what the inlined method is (parameters, body, returns, effects) and
//! what its body can be turned into at a call site.

use super::sites::check_hierarchy;
use crate::engine::call_sites::{self, TargetMethod};
use crate::engine::variable_names::{declaration_names, descendants, erased_type, is_field, variable_names};
use crate::engine::{Reason, Refusal};
use crate::java::SourceFile;
use crate::java::syntax::Kind;
use crate::java::syntax::trivial_getter_field;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use tree_sitter::Node;

/// A formal parameter of the inlined method.
pub(super) struct Param {
    pub(super) name: String,
    pub(super) type_text: String,
}

/// The inlined method and what its body does, independent of any call site.
pub(super) struct Method<'t> {
    pub(super) target: TargetMethod<'t>,
    pub(super) file: &'t SourceFile,
    pub(super) body: Node<'t>,
    pub(super) params: Vec<Param>,
    pub(super) type_params: Vec<String>,
    /// The body's statements (comments excluded).
    pub(super) statements: Vec<Node<'t>>,
    /// The expression of a body that is exactly `return expr;`.
    pub(super) single_return: Option<Node<'t>>,
    /// Return statements of the body itself (not of lambdas or nested classes).
    pub(super) returns: Vec<Node<'t>>,
    pub(super) tail_returns: HashSet<usize>,
    /// Per parameter: its uses in the body.
    pub(super) uses: Vec<Vec<Node<'t>>>,
    pub(super) reassigned: Vec<bool>,
    /// Names the body declares, and every variable-name identifier of the body.
    pub(super) locals: HashSet<String>,
    /// Locals declared by the body's own statements (their scope is the rest of the block).
    pub(super) top_level_locals: HashSet<String>,
    pub(super) names: Vec<Node<'t>>,
    /// Simple names that are neither parameters nor locals: fields, constants, types.
    pub(super) free_names: Vec<Node<'t>>,
    /// Invocations without a receiver: methods of the declaring type (or inherited, or imported).
    pub(super) implicit_calls: Vec<Node<'t>>,
    pub(super) this_nodes: Vec<Node<'t>>,
    /// Nodes with side effects (calls, assignments, `new`, `++`), outside lambdas and classes.
    pub(super) effects: Vec<Node<'t>>,
    pub(super) has_inner_class: bool,
    /// Fields and methods declared by the declaring type: name -> (static, private, public).
    pub(super) fields: HashMap<String, Access>,
    pub(super) methods: HashMap<String, Access>,
    /// Trivial getters of the declaring type's fields, by field name.
    pub(super) getters: HashMap<String, Getter>,
    pub(super) static_imports: HashSet<String>,
    /// Static fields of the enclosing types (the nearest declaration of a name wins): name ->
    /// (that type's name, access). Code outside them names such a field through its class.
    pub(super) outer_statics: HashMap<String, (String, Access)>,
    /// Static methods of the enclosing types, likewise (a name whose nearest declaration has an
    /// overload that is not static is left out: which one a call means is not decided here).
    pub(super) outer_static_methods: HashMap<String, (String, Access)>,
    pub(super) package: String,
}

/// `T getF() { return f; }`: a call site that cannot read a private `f` may call this instead.
pub(super) struct Getter {
    pub(super) name: String,
    pub(super) access: Access,
    /// The declaration's byte range in the declaring file.
    pub(super) span: Range<usize>,
    /// Neither the getter nor its class is final (nor a record), and nothing has shown that no
    /// subclass overrides it: calling it might not read the field.
    pub(super) overridable: bool,
}

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Access {
    pub(super) is_static: bool,
    pub(super) is_private: bool,
    pub(super) is_public: bool,
}

/// The fields and methods a type body declares, by name. Constants and an interface's fields are
/// static; overloads are merged: private only if all are, static only if all are.
fn members_of(
    body: Node<'_>,
    file: &SourceFile,
    in_interface: bool,
) -> (HashMap<String, Access>, HashMap<String, Access>) {
    let text = file.text.as_str();
    let mut fields = HashMap::new();
    let mut methods: HashMap<String, Access> = HashMap::new();
    for member in body.named_children(&mut body.walk()) {
        match member.kind_name() {
            "field_declaration" | "constant_declaration" => {
                let acc = access_of(member, text, in_interface);
                let acc = if member.kind_name() == "constant_declaration" || in_interface {
                    Access { is_static: true, ..acc }
                } else {
                    acc
                };
                for d in member.children_by_field_name("declarator", &mut member.walk()) {
                    if let Some(n) = d.child_by_field_name("name") {
                        fields.insert(file.text_of(n).to_string(), acc);
                    }
                }
            }
            "method_declaration" => {
                if let Some(n) = member.child_by_field_name("name") {
                    let acc = access_of(member, text, in_interface);
                    let entry = methods.entry(file.text_of(n).to_string()).or_insert(acc);
                    entry.is_private &= acc.is_private;
                    entry.is_static &= acc.is_static;
                    entry.is_public |= acc.is_public;
                }
            }
            _ => {}
        }
    }
    (fields, methods)
}

pub(super) fn modifiers_text<'s>(node: Node<'_>, text: &'s str) -> &'s str {
    node.named_children(&mut node.walk())
        .find(|c| c.kind_name() == "modifiers")
        .map(|m| &text[m.byte_range()])
        .unwrap_or("")
}

pub(super) fn has_word(haystack: &str, word: &str) -> bool {
    haystack.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '@').any(|w| w == word)
}

pub(super) fn access_of(node: Node<'_>, text: &str, in_interface: bool) -> Access {
    let m = modifiers_text(node, text);
    Access {
        is_static: has_word(m, "static"),
        is_private: has_word(m, "private"),
        is_public: has_word(m, "public") || in_interface,
    }
}

/// Is `node` inside a nested class body below `root` (where `this` and `super` differ)?
pub(super) fn in_nested_class(node: Node<'_>, root: Node<'_>) -> bool {
    let mut cur = node.parent();
    while let Some(n) = cur {
        if n.id() == root.id() {
            return false;
        }
        if n.kind_name() == "class_body" {
            return true;
        }
        cur = n.parent();
    }
    false
}

/// Is `node` inside a lambda or a nested class body, below `root`?
pub(super) fn in_nested_scope(node: Node<'_>, root: Node<'_>) -> bool {
    let mut cur = node.parent();
    while let Some(n) = cur {
        if n.id() == root.id() {
            return false;
        }
        if opens_nested_scope(n.kind_name()) {
            return true;
        }
        cur = n.parent();
    }
    false
}

/// A lambda or a class body: code below it runs in another method than the one around it.
fn opens_nested_scope(kind: &str) -> bool {
    matches!(kind, "lambda_expression" | "class_body")
}

pub(super) fn is_statement_expression(kind: &str) -> bool {
    matches!(kind, "method_invocation" | "object_creation_expression" | "assignment_expression" | "update_expression")
}

pub(super) fn has_effects(node: Node<'_>) -> bool {
    descendants(node)
        .into_iter()
        .any(|n| is_statement_expression(n.kind_name()) || n.kind_name() == "array_creation_expression")
}

impl<'t> Method<'t> {
    pub(super) fn analyse(files: &'t [SourceFile], fi: usize, decl: Node<'t>) -> Result<Method<'t>, Refusal> {
        let file = &files[fi];
        let text = file.text.as_str();
        let name = decl.child_by_field_name("name").map(|n| file.text_of(n)).unwrap_or_default().to_string();
        let refuse = |reason: Reason, why: String| Err(Refusal::new(reason, format!("`{name}`: {why}")));

        let Some(mut type_body) = decl.parent() else {
            return refuse(Reason::NoSuchMethod, "the declaration has no enclosing type".into());
        };
        if type_body.kind_name() == "enum_body_declarations" {
            type_body = type_body.parent().unwrap_or(type_body);
        }
        let Some(type_decl) = type_body.parent() else {
            return refuse(Reason::NoSuchMethod, "the declaration has no enclosing type".into());
        };
        if type_decl.kind_name() == "object_creation_expression" {
            return refuse(Reason::AnonymousClass, "it is declared in an anonymous class; inline it by hand".into());
        }
        let type_name = type_decl.child_by_field_name("name").map(|n| file.text_of(n)).unwrap_or_default().to_string();
        let in_interface = type_decl.kind_name() == "interface_declaration";
        let mods = modifiers_text(decl, text);
        let is_static = has_word(mods, "static");

        let Some(body) = decl.child_by_field_name("body") else {
            return refuse(Reason::NoBody, "it is abstract, native or an interface method without a body".into());
        };
        if has_word(mods, "@Override") {
            return refuse(
                Reason::Overrides,
                "it overrides a supertype's method (@Override); inlining would bypass dynamic dispatch".into(),
            );
        }
        if has_word(mods, "synchronized") {
            return refuse(Reason::Synchronized, "it is synchronized; inlining would drop the lock".into());
        }
        let mut params = Vec::new();
        if let Some(fp) = decl.child_by_field_name("parameters") {
            for p in fp.named_children(&mut fp.walk()) {
                match p.kind_name() {
                    "formal_parameter" => params.push(Param {
                        name: p.child_by_field_name("name").map(|n| file.text_of(n)).unwrap_or_default().to_string(),
                        type_text: p
                            .child_by_field_name("type")
                            .map(|n| file.text_of(n))
                            .unwrap_or_default()
                            .to_string(),
                    }),
                    "spread_parameter" => {
                        return refuse(
                            Reason::Varargs,
                            "it has a variable-arity parameter; call sites do not map one argument to one parameter"
                                .into(),
                        );
                    }
                    _ => {}
                }
            }
        }
        if !is_static
            && !has_word(mods, "private")
            && let Some(what) = library_override(file, type_decl, &name, &params)
        {
            return refuse(
                Reason::Overrides,
                format!(
                    "it overrides `{what}` (unannotated); inlining would remove the override, which code outside the project calls"
                ),
            );
        }
        let type_params: Vec<String> = decl
            .child_by_field_name("type_parameters")
            .map(|tp| {
                tp.named_children(&mut tp.walk())
                    .filter_map(|p| p.named_child(0).map(|n| file.text_of(n).to_string()))
                    .collect()
            })
            .unwrap_or_default();

        let all = descendants(body);
        if let Some(t) = all
            .iter()
            .find(|n| n.kind_name() == "type_identifier" && type_params.iter().any(|p| p == file.text_of(**n)))
        {
            return refuse(
                Reason::GenericMethod,
                format!(
                    "the body uses the method's type parameter `{}`, which does not exist at the call site",
                    file.text_of(*t)
                ),
            );
        }
        if let Some(s) = all.iter().find(|n| n.kind_name() == "super" && !in_nested_class(**n, body)) {
            return refuse(
                Reason::UsesSuper,
                format!(
                    "the body uses `super` (line {}), which means something else at a call site",
                    s.start_position().row + 1
                ),
            );
        }
        let arity = params.len();
        let recursive = all.iter().find(|n| {
            let named_like = |id: Option<Node<'_>>| id.is_some_and(|id| file.text_of(id) == name);
            match n.kind_name() {
                "method_invocation" => {
                    named_like(n.child_by_field_name("name"))
                        && call_sites::arguments(**n).len() == arity
                        && n.child_by_field_name("object")
                            .is_none_or(|o| o.kind_name() == "this" || file.text_of(o) == type_name)
                }
                "method_reference" => {
                    let last = n.named_child(n.named_child_count().saturating_sub(1));
                    named_like(last)
                        && n.named_child(0).is_some_and(|o| o.kind_name() == "this" || file.text_of(o) == type_name)
                }
                _ => false,
            }
        });
        if let Some(r) = recursive {
            return refuse(Reason::Recursive, format!("it calls itself (line {})", r.start_position().row + 1));
        }

        let param_types: Vec<String> = params.iter().map(|p| erased_type(&p.type_text)).collect();
        let overloads: Vec<Vec<String>> = type_body
            .named_children(&mut type_body.walk())
            .flat_map(|m| {
                if m.kind_name() == "enum_body_declarations" {
                    m.named_children(&mut m.walk()).collect()
                } else {
                    vec![m]
                }
            })
            .filter(|m| m.kind_name() == "method_declaration")
            .filter(|m| m.child_by_field_name("name").is_some_and(|n| file.text_of(n) == name))
            .map(|m| method_param_types(m, text))
            .filter(|types| types.len() == arity)
            .collect();
        let target = TargetMethod {
            file: fi,
            node: decl,
            name: name.clone(),
            param_types: param_types.clone(),
            type_body,
            type_name: type_name.clone(),
            is_static,
            overloads,
        };
        let is_private = has_word(mods, "private");
        if !is_static && !is_private {
            check_hierarchy(files, &target, in_interface)?;
        }

        let statements: Vec<Node<'t>> = body.named_children(&mut body.walk()).filter(|c| !c.is_extra()).collect();
        let single_return = match statements.as_slice() {
            [s] if s.kind_name() == "return_statement" => s.named_children(&mut s.walk()).find(|c| !c.is_extra()),
            _ => None,
        };
        // The nodes outside lambdas and nested class bodies, found in one walk.
        let mut outside: HashSet<usize> = HashSet::new();
        crate::java::syntax::walk(body, &mut |n| {
            outside.insert(n.id());
            n.id() == body.id() || !opens_nested_scope(n.kind_name())
        });
        let returns: Vec<Node<'t>> =
            all.iter().copied().filter(|n| n.kind_name() == "return_statement" && outside.contains(&n.id())).collect();
        let tail_returns = tail_returns(&statements).into_iter().map(|n| n.id()).collect();

        let names = variable_names(body);
        let declared = declaration_names(body);
        let declarations: HashSet<usize> = declared.iter().map(|n| n.id()).collect();
        let locals: HashSet<String> = declared.iter().map(|n| file.text_of(*n).to_string()).collect();
        let top_level_locals = statements
            .iter()
            .filter(|s| s.kind_name() == "local_variable_declaration")
            .flat_map(|s| s.children_by_field_name("declarator", &mut s.walk()).collect::<Vec<_>>())
            .filter_map(|d| d.child_by_field_name("name").map(|n| file.text_of(n).to_string()))
            .collect();
        let param_names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        let uses: Vec<Vec<Node<'t>>> = param_names
            .iter()
            .map(|p| {
                names.iter().copied().filter(|n| file.text_of(*n) == *p && !declarations.contains(&n.id())).collect()
            })
            .collect();
        let reassigned = param_names
            .iter()
            .map(|p| {
                all.iter().any(|n| match n.kind_name() {
                    "assignment_expression" => n.child_by_field_name("left").is_some_and(|l| file.text_of(l) == *p),
                    "update_expression" => {
                        n.named_child(0).is_some_and(|l| l.kind_name() == "identifier" && file.text_of(l) == *p)
                    }
                    _ => false,
                })
            })
            .collect();
        let free_names = names
            .iter()
            .copied()
            .filter(|n| {
                let t = file.text_of(*n);
                !param_names.contains(&t) && !locals.contains(t)
            })
            .collect();
        let implicit_calls = all
            .iter()
            .copied()
            .filter(|n| n.kind_name() == "method_invocation" && n.child_by_field_name("object").is_none())
            .collect();
        let this_nodes = all
            .iter()
            .copied()
            .filter(|n| n.kind_name() == "this")
            .filter(|n| !n.parent().is_some_and(|p| p.kind_name() == "field_access" && is_field(p, "field", *n)))
            .filter(|n| !in_nested_class(*n, body))
            .collect();
        let effects = all
            .iter()
            .copied()
            .filter(|n| is_statement_expression(n.kind_name()) && outside.contains(&n.id()))
            .collect();
        let has_inner_class = all.iter().any(|n| n.kind_name() == "class_body");

        let (fields, methods) = members_of(type_body, file, in_interface);
        // The statics of the enclosing types, the nearest first: a name one of them declares
        // (static or not), or the declaring type itself, hides it in those further out.
        let mut outer_statics: HashMap<String, (String, Access)> = HashMap::new();
        let mut outer_static_methods: HashMap<String, (String, Access)> = HashMap::new();
        let mut seen_fields: HashSet<String> = fields.keys().cloned().collect();
        let mut seen_methods: HashSet<String> = methods.keys().cloned().collect();
        let mut outer = type_decl.parent();
        while let Some(o) = outer {
            let is_type = matches!(
                o.kind_name(),
                "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration"
            );
            if let (true, Some(name), Some(body)) =
                (is_type, o.child_by_field_name("name"), o.child_by_field_name("body"))
            {
                let outer_name = file.text_of(name).to_string();
                let (f, m) = members_of(body, file, o.kind_name() == "interface_declaration");
                for (members, seen, statics) in
                    [(f, &mut seen_fields, &mut outer_statics), (m, &mut seen_methods, &mut outer_static_methods)]
                {
                    for (member, acc) in members {
                        if seen.insert(member.clone()) && acc.is_static {
                            statics.insert(member, (outer_name.clone(), acc));
                        }
                    }
                }
            }
            outer = o.parent();
        }
        let sealed_type =
            type_decl.kind_name() == "record_declaration" || has_word(modifiers_text(type_decl, text), "final");
        let getters = type_body
            .named_children(&mut type_body.walk())
            // the inlined method itself is going away
            .filter(|g| g.kind_name() == "method_declaration" && g.id() != decl.id())
            .filter_map(|g| {
                let field = trivial_getter_field(g, text)?;
                let facc = fields.get(field)?;
                let access = access_of(g, text, in_interface);
                (access.is_static == facc.is_static).then(|| {
                    let getter = Getter {
                        name: g.child_by_field_name("name").map(|n| text[n.byte_range()].to_string())?,
                        access,
                        span: g.byte_range(),
                        overridable: !(sealed_type || has_word(modifiers_text(g, text), "final") || access.is_static),
                    };
                    Some((field.to_string(), getter))
                })?
            })
            .collect();
        let root = file.root();
        let mut static_imports = HashSet::new();
        let mut package = String::new();
        for top in root.named_children(&mut root.walk()) {
            let t = file.text_of(top);
            if top.kind_name() == "import_declaration" && has_word(t, "static") {
                let path = t.trim_end_matches(';').trim();
                if let Some(last) = path.rsplit('.').next() {
                    static_imports.insert(last.trim().to_string());
                }
            }
            if top.kind_name() == "package_declaration" {
                package = t.trim_start_matches("package").trim_end_matches(';').trim().to_string();
            }
        }

        Ok(Method {
            target,
            file,
            body,
            params,
            type_params,
            statements,
            single_return,
            returns,
            tail_returns,
            uses,
            reassigned,
            locals,
            top_level_locals,
            names,
            free_names,
            implicit_calls,
            this_nodes,
            effects,
            has_inner_class,
            fields,
            methods,
            getters,
            static_imports,
            outer_statics,
            outer_static_methods,
            package,
        })
    }

    /// Does a side effect of the body complete before byte `pos`?
    pub(super) fn effect_before(&self, pos: usize) -> bool {
        self.effects.iter().any(|e| e.end_byte() <= pos)
    }
}

/// Is the name read (not assigned or incremented)?
pub(super) fn is_read(name: Node<'_>) -> bool {
    match name.parent() {
        Some(p) if p.kind_name() == "assignment_expression" => !is_field(p, "left", name),
        Some(p) if p.kind_name() == "update_expression" => false,
        _ => true,
    }
}

pub(super) fn method_param_types(m: Node<'_>, text: &str) -> Vec<String> {
    m.child_by_field_name("parameters")
        .map(|fp| {
            fp.named_children(&mut fp.walk())
                .filter(|p| matches!(p.kind_name(), "formal_parameter" | "spread_parameter"))
                .map(|p| p.child_by_field_name("type").map(|t| erased_type(&text[t.byte_range()])).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default()
}

/// Returns in tail position: their statement is the last thing the body executes on its path.
pub(super) fn tail_returns<'t>(stmts: &[Node<'t>]) -> Vec<Node<'t>> {
    let Some(last) = stmts.last() else { return Vec::new() };
    tail_of(*last)
}

pub(super) fn tail_of(stmt: Node<'_>) -> Vec<Node<'_>> {
    match stmt.kind_name() {
        "return_statement" => vec![stmt],
        "block" => tail_returns(&stmt.named_children(&mut stmt.walk()).filter(|c| !c.is_extra()).collect::<Vec<_>>()),
        "if_statement" => {
            let mut out = stmt.child_by_field_name("consequence").map(tail_of).unwrap_or_default();
            out.extend(stmt.child_by_field_name("alternative").map(tail_of).unwrap_or_default());
            out
        }
        _ => Vec::new(),
    }
}

/// The library method `name(params)` overrides, when mantra knows it ([`known_override`]), with
/// the supertypes the class declaration names.
fn library_override(file: &SourceFile, type_decl: Node<'_>, name: &str, params: &[Param]) -> Option<String> {
    use crate::engine::rename::family::{known_override, matches_erased};
    let erased: Vec<String> = params.iter().map(|p| erased_type(&p.type_text)).collect();
    let supertypes: Vec<&str> = ["superclass", "interfaces"]
        .iter()
        .filter_map(|f| type_decl.child_by_field_name(f))
        .flat_map(|n| {
            descendants(n).into_iter().filter(|d| {
                d.kind_name() == "type_identifier" && d.parent().is_some_and(|p| p.kind_name() != "type_arguments")
            })
        })
        .map(|n| file.text_of(n))
        .collect();
    known_override(|e| matches_erased(e, name, &erased), type_decl.kind_name() == "enum_declaration", supertypes)
}
