//! The one-pass builder: an explicit cursor over the tree (no recursion), entering types and
//! methods, and recording what a method body declares and calls.

use super::names::{dims_of, is_dotted, span_between, squash, type_name};
use super::{ArgHint, CallKind, CallSite, FieldDecl, FieldKind, FileSymbols, Import, LocalVar, Receiver, TypeName};
use crate::java::source::{FIELDS, SourceFile, Span};
use crate::java::syntax::Kind;
use tree_sitter::Node;

/// Extracts the symbols of a parsed file.
pub fn extract(source: &SourceFile) -> FileSymbols {
    let mut b = Builder {
        text: &source.text,
        syms: FileSymbols::default(),
        anon_counts: Vec::new(),
        ancestors: Vec::new(),
        prev: None,
    };
    b.walk(source.root());
    b.syms
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Ctx {
    pub(super) ty: Option<u32>,
    pub(super) method: Option<u32>,
}

pub(super) struct Builder<'a> {
    pub(super) text: &'a str,
    pub(super) syms: FileSymbols,
    /// Anonymous classes numbered so far, per enclosing type.
    pub(super) anon_counts: Vec<u32>,
    /// The ancestors of the node being entered, innermost last, and its previous sibling: kept by
    /// the walk because `Node::parent` and `Node::prev_sibling` search down from the root each call.
    pub(super) ancestors: Vec<Node<'a>>,
    pub(super) prev: Option<Node<'a>>,
}

impl<'a> Builder<'a> {
    pub(super) fn walk(&mut self, root: Node<'a>) {
        let mut cursor = root.walk();
        let mut ctx = Ctx { ty: None, method: None };
        // (depth of the node that changed the context, the context to restore when leaving it)
        let mut saved: Vec<(usize, Ctx)> = Vec::new();
        let mut depth = 0usize;
        loop {
            let node = cursor.node();
            let (next, descend) = self.enter(node, ctx);
            if next != ctx {
                saved.push((depth, ctx));
                ctx = next;
            }
            if descend && cursor.goto_first_child() {
                depth += 1;
                self.ancestors.push(node);
                self.prev = None;
                continue;
            }
            let mut current = node;
            loop {
                if let Some(&(d, c)) = saved.last()
                    && d == depth
                {
                    ctx = c;
                    saved.pop();
                }
                if cursor.goto_next_sibling() {
                    self.prev = Some(current);
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
                depth -= 1;
                current = self.ancestors.pop().unwrap_or(current);
            }
        }
    }

    pub(super) fn t(&self, node: Node<'_>) -> &'a str {
        &self.text[node.byte_range()]
    }

    /// Records what `node` declares or calls; returns the context for its children and whether to descend.
    pub(super) fn enter(&mut self, node: Node<'_>, ctx: Ctx) -> (Ctx, bool) {
        match node.kind_name() {
            "package_declaration" => {
                if let Some(name) = node.named_child(0).filter(|n| n.kind_name() != "annotation") {
                    self.syms.package = Some(squash(self.t(name)));
                } else {
                    let mut c = node.walk();
                    let name = node
                        .named_children(&mut c)
                        .find(|n| matches!(n.kind_name(), "identifier" | "scoped_identifier"))
                        .map(|n| squash(self.t(n)));
                    self.syms.package = name;
                }
                (ctx, false)
            }
            "import_declaration" => {
                let mut c = node.walk();
                let mut imp = Import { path: String::new(), is_static: false, wildcard: false, span: Span::of(node) };
                for child in node.children(&mut c) {
                    match child.kind_name() {
                        "static" => imp.is_static = true,
                        "asterisk" => imp.wildcard = true,
                        "identifier" | "scoped_identifier" => imp.path = squash(self.t(child)),
                        _ => {}
                    }
                }
                self.syms.imports.push(imp);
                (ctx, false)
            }
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration" => {
                let ty = self.named_type(node, ctx);
                (Ctx { ty: Some(ty), method: None }, true)
            }
            "class_body" => match self.ancestors.last().copied() {
                Some(p) if p.kind_name() == "object_creation_expression" || p.kind_name() == "enum_constant" => {
                    let ty = self.anonymous_type(p, node, ctx);
                    (Ctx { ty: Some(ty), method: None }, true)
                }
                _ => (ctx, true),
            },
            "method_declaration" | "constructor_declaration" | "compact_constructor_declaration" => match ctx.ty {
                Some(owner) => {
                    let m = self.method(node, owner);
                    (Ctx { ty: ctx.ty, method: Some(m) }, true)
                }
                None => (ctx, true),
            },
            "field_declaration" | "constant_declaration" if ctx.method.is_none() => {
                if let Some(owner) = ctx.ty {
                    self.fields(node, owner);
                }
                (ctx, true)
            }
            "enum_constant" => {
                if let Some(owner) = ctx.ty {
                    let name =
                        node.child_by_field_id(FIELDS.name.get()).map(|n| self.t(n).to_string()).unwrap_or_default();
                    let enum_name = self.syms.types[owner as usize].name.clone();
                    self.syms.types[owner as usize].fields.push(FieldDecl {
                        name,
                        ty: TypeName { text: enum_name.clone(), raw: enum_name, dims: 0 },
                        kind: FieldKind::EnumConstant,
                        modifiers: Vec::new(),
                        span: Span::of(node),
                    });
                }
                (ctx, true)
            }
            "line_comment" | "block_comment" | "string_literal" | "character_literal" => (ctx, false),
            kind => {
                if let Some(m) = ctx.method {
                    self.in_method(node, kind, m);
                }
                (ctx, true)
            }
        }
    }

    /// Locals and calls inside a method body.
    pub(super) fn in_method(&mut self, node: Node<'_>, kind: &str, m: u32) {
        match kind {
            "method_invocation" => {
                let name = node.child_by_field_id(FIELDS.name.get()).map(|n| self.t(n).to_string()).unwrap_or_default();
                let (receiver, receiver_span) = match node.child_by_field_id(FIELDS.object.get()) {
                    None => (Receiver::Implicit, None),
                    Some(o) => (self.receiver(o), Some(Span::of(o))),
                };
                let args = node.child_by_field_id(FIELDS.arguments.get()).map(|a| self.arg_hints(a));
                self.call(
                    m,
                    CallSite { kind: CallKind::Method, name, receiver, receiver_span, args, span: Span::of(node) },
                );
            }
            "object_creation_expression" => {
                let name = node
                    .child_by_field_id(FIELDS.r#type.get())
                    .map(|t| type_name(self.text, t).raw)
                    .unwrap_or_default();
                let args = node.child_by_field_id(FIELDS.arguments.get()).map(|a| self.arg_hints(a));
                self.call(
                    m,
                    CallSite {
                        kind: CallKind::New,
                        name,
                        receiver: Receiver::Implicit,
                        receiver_span: None,
                        args,
                        span: Span::of(node),
                    },
                );
            }
            "explicit_constructor_invocation" => {
                let kind = match node.child_by_field_id(FIELDS.constructor.get()).map(|c| c.kind_name()) {
                    Some("super") => CallKind::SuperConstructor,
                    _ => CallKind::ThisConstructor,
                };
                let name = if kind == CallKind::SuperConstructor { "super" } else { "this" }.to_string();
                let args = node.child_by_field_id(FIELDS.arguments.get()).map(|a| self.arg_hints(a));
                self.call(
                    m,
                    CallSite {
                        kind,
                        name,
                        receiver: Receiver::Implicit,
                        receiver_span: None,
                        args,
                        span: Span::of(node),
                    },
                );
            }
            "method_reference" => {
                let mut c = node.walk();
                let children: Vec<Node<'_>> = node.children(&mut c).collect();
                let Some(target) = children.first().copied() else { return };
                let name = children.last().map(|n| self.t(*n).to_string()).unwrap_or_default();
                let receiver = match target.kind_name() {
                    "this" => Receiver::This,
                    "super" => Receiver::Super,
                    "identifier" | "type_identifier" | "scoped_identifier" | "scoped_type_identifier" => {
                        Receiver::Name(squash(self.t(target)))
                    }
                    "field_access" => self.receiver(target),
                    "generic_type" | "array_type" => Receiver::Name(type_name(self.text, target).raw),
                    _ => Receiver::Expr,
                };
                let (kind, name) = if name == "new" {
                    let ty = match &receiver {
                        Receiver::Name(n) => n.clone(),
                        _ => squash(self.t(target)),
                    };
                    (CallKind::New, ty)
                } else {
                    (CallKind::MethodRef, name)
                };
                let receiver = if kind == CallKind::New { Receiver::Implicit } else { receiver };
                self.call(
                    m,
                    CallSite {
                        kind,
                        name,
                        receiver,
                        receiver_span: Some(Span::of(target)),
                        args: None,
                        span: Span::of(node),
                    },
                );
            }
            "local_variable_declaration" => {
                let ty = node.child_by_field_id(FIELDS.r#type.get()).map(|t| type_name(self.text, t));
                let end = self.ancestors.last().map(|p| p.end_byte()).unwrap_or(node.end_byte());
                let mut c = node.walk();
                for d in node.children_by_field_id(FIELDS.declarator, &mut c) {
                    let Some(name) = d.child_by_field_id(FIELDS.name.get()) else { continue };
                    let extra = d.child_by_field_id(FIELDS.dimensions.get()).map(|x| dims_of(self.t(x))).unwrap_or(0);
                    let ty = ty.clone().filter(|t| t.raw != "var").map(|mut t| {
                        t.dims += extra;
                        t
                    });
                    let scope = span_between(node, d.start_byte(), end);
                    self.local(m, self.t(name), ty, scope);
                }
            }
            "enhanced_for_statement" | "resource" | "catch_formal_parameter" => {
                let Some(name) = node.child_by_field_id(FIELDS.name.get()) else { return };
                let ty = if kind == "catch_formal_parameter" {
                    let mut c = node.walk();
                    let ct = node.named_children(&mut c).find(|n| n.kind_name() == "catch_type");
                    // `catch (A | B e)` has no single type; keep the first alternative's name only if alone.
                    ct.and_then(|ct| (ct.named_child_count() == 1).then(|| ct.named_child(0)).flatten())
                        .map(|t| type_name(self.text, t))
                } else {
                    node.child_by_field_id(FIELDS.r#type.get())
                        .map(|t| type_name(self.text, t))
                        .filter(|t| t.raw != "var")
                };
                let scope_node = match kind {
                    "resource" => self
                        .ancestors
                        .iter()
                        .rev()
                        .find(|n| n.kind_name() == "try_with_resources_statement")
                        .copied()
                        .unwrap_or(node),
                    "catch_formal_parameter" => self.ancestors.last().copied().unwrap_or(node),
                    _ => node,
                };
                let scope = span_between(scope_node, scope_node.start_byte(), scope_node.end_byte());
                self.local(m, self.t(name), ty, scope);
            }
            "instanceof_expression" => {
                if let (Some(name), Some(right)) =
                    (node.child_by_field_id(FIELDS.name.get()), node.child_by_field_id(FIELDS.right.get()))
                {
                    let body_end = self.syms.methods[m as usize].span.end_byte;
                    let scope = span_between(node, node.start_byte(), body_end);
                    let ty = Some(type_name(self.text, right));
                    self.local(m, self.t(name), ty, scope);
                }
            }
            "lambda_expression" => {
                let Some(params) = node.child_by_field_id(FIELDS.parameters.get()) else { return };
                let scope = Span::of(node);
                match params.kind_name() {
                    "identifier" => self.local(m, self.t(params), None, scope),
                    _ => {
                        let mut c = node.walk();
                        for p in params.named_children(&mut c) {
                            match p.kind_name() {
                                "identifier" => self.local(m, self.t(p), None, scope),
                                "formal_parameter" | "spread_parameter" => {
                                    if let Some(param) = self.param(p, &[]) {
                                        let ty = Some(param.ty).filter(|t| t.raw != "var");
                                        self.local(m, &param.name, ty, scope);
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }

    pub(super) fn call(&mut self, m: u32, call: CallSite) {
        self.syms.methods[m as usize].calls.push(call);
    }

    pub(super) fn local(&mut self, m: u32, name: &str, ty: Option<TypeName>, scope: Span) {
        self.syms.methods[m as usize].locals.push(LocalVar { name: name.to_string(), ty, scope });
    }

    pub(super) fn receiver(&self, o: Node<'_>) -> Receiver {
        match o.kind_name() {
            "this" => Receiver::This,
            "super" => Receiver::Super,
            "identifier" => Receiver::Name(self.t(o).to_string()),
            "field_access" => {
                // a.b.c or this.x: a dotted name; anything else inside is an expression
                if is_dotted(o) { Receiver::Name(squash(self.t(o))) } else { Receiver::Expr }
            }
            "parenthesized_expression" => match o.named_child(0) {
                Some(inner) if inner.kind_name() != "cast_expression" => self.receiver(inner),
                _ => Receiver::Expr,
            },
            _ => Receiver::Expr,
        }
    }

    pub(super) fn arg_hints(&self, args: Node<'_>) -> Vec<ArgHint> {
        let mut c = args.walk();
        args.named_children(&mut c)
            .filter(|a| !matches!(a.kind_name(), "line_comment" | "block_comment"))
            .map(|a| self.arg_hint(a))
            .collect()
    }

    pub(super) fn arg_hint(&self, a: Node<'_>) -> ArgHint {
        let ty = |s: &str| ArgHint::Type(s.to_string());
        match a.kind_name() {
            "string_literal" | "text_block" => ty("String"),
            "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal" => {
                if self.t(a).ends_with(['l', 'L']) {
                    ty("long")
                } else {
                    ty("int")
                }
            }
            "decimal_floating_point_literal" | "hex_floating_point_literal" => {
                if self.t(a).ends_with(['f', 'F']) {
                    ty("float")
                } else {
                    ty("double")
                }
            }
            "true" | "false" => ty("boolean"),
            "character_literal" => ty("char"),
            "null_literal" => ArgHint::Null,
            "identifier" => ArgHint::Var(self.t(a).to_string()),
            "object_creation_expression" if a.child_by_field_id(FIELDS.r#type.get()).is_some() => {
                let t = a.child_by_field_id(FIELDS.r#type.get()).map(|t| type_name(self.text, t));
                t.map(|t| ArgHint::Type(t.simple().to_string())).unwrap_or(ArgHint::Unknown)
            }
            "cast_expression" => match a.child_by_field_id(FIELDS.r#type.get()) {
                Some(t) => ArgHint::Type(type_name(self.text, t).erased()),
                None => ArgHint::Unknown,
            },
            "parenthesized_expression" => a.named_child(0).map(|x| self.arg_hint(x)).unwrap_or(ArgHint::Unknown),
            _ => ArgHint::Unknown,
        }
    }
}
