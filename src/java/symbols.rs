//! What one Java file declares and calls: package, imports, types, fields, methods, locals, call sites.
//!
//! Extraction is one pass over the tree-sitter tree with an explicit cursor (no recursion: generated
//! files nest string concatenations thousands of levels deep). Nothing here looks at other files;
//! names stay as written and [`super::project`] resolves them against the project.
//!
//! Types, methods and their members are flat vectors indexed by `u32`, so ids into them are stable
//! and cheap; a [`TypeDecl`] lists its methods, a [`MethodDecl`] names its owner.

use serde::Serialize;
use tree_sitter::Node;

use super::source::{FIELDS, SourceFile, Span};

/// Everything a file declares.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FileSymbols {
    /// `a.b.c` from `package a.b.c;`, if any.
    pub package: Option<String>,
    pub imports: Vec<Import>,
    /// Every type of the file in document order: top-level, nested, local and anonymous.
    pub types: Vec<TypeDecl>,
    /// Every method and constructor of the file in document order; [`MethodDecl::owner`] indexes `types`.
    pub methods: Vec<MethodDecl>,
}

/// One `import` declaration.
#[derive(Debug, Clone, Serialize)]
pub struct Import {
    /// The imported name without `.*`: `java.util.List`, `java.util`, `org.junit.Assert.assertEquals`.
    pub path: String,
    pub is_static: bool,
    /// `import a.b.*;`
    pub wildcard: bool,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TypeKind {
    Class,
    Interface,
    Enum,
    Record,
    Annotation,
    /// `new T() { ... }` or an enum constant with a body.
    Anonymous,
}

impl TypeKind {
    pub fn keyword(self) -> &'static str {
        match self {
            TypeKind::Class => "class",
            TypeKind::Interface => "interface",
            TypeKind::Enum => "enum",
            TypeKind::Record => "record",
            TypeKind::Annotation => "@interface",
            TypeKind::Anonymous => "anonymous class",
        }
    }
}

/// A type as written in a declaration: `Map<String, List<Foo>>[]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TypeName {
    /// The source text, whitespace collapsed.
    pub text: String,
    /// The name without type arguments, annotations or array dimensions: `Map`, `java.util.Map`, `int`.
    pub raw: String,
    /// Array dimensions; a varargs parameter counts one.
    pub dims: u8,
}

impl TypeName {
    /// The last segment of [`Self::raw`]: `java.util.Map` → `Map`.
    pub fn simple(&self) -> &str {
        self.raw.rsplit('.').next().unwrap_or(&self.raw)
    }

    /// The erased simple name with dimensions: `List<String>[]` → `List[]`. Used to compare signatures.
    pub fn erased(&self) -> String {
        let mut s = self.simple().to_string();
        for _ in 0..self.dims {
            s.push_str("[]");
        }
        s
    }
}

/// One class, interface, enum, record, annotation type or anonymous class.
#[derive(Debug, Clone, Serialize)]
pub struct TypeDecl {
    /// Simple name; empty for anonymous classes.
    pub name: String,
    /// `Outer.Inner`; anonymous classes are numbered per enclosing type: `Outer$1`.
    pub display: String,
    pub kind: TypeKind,
    /// Declared inside a method body (local and anonymous classes).
    pub local: bool,
    /// The enclosing type, if any.
    pub parent: Option<u32>,
    /// The enclosing method for local and anonymous classes declared in one.
    pub enclosing_method: Option<u32>,
    pub modifiers: Vec<String>,
    pub annotations: Vec<String>,
    /// Names of the type parameters: `<K, V extends X>` → `K`, `V`.
    pub type_params: Vec<String>,
    /// `extends` of a class (one) or interface (several); for an anonymous class the instantiated
    /// type; for an enum constant body the enum.
    pub extends: Vec<TypeName>,
    pub implements: Vec<TypeName>,
    /// The declaration from its modifiers to just before `{`: `public class Tokens extends Base `.
    pub header: String,
    pub span: Span,
    pub body: Option<Span>,
    pub fields: Vec<FieldDecl>,
    /// Indices into [`FileSymbols::methods`].
    pub methods: Vec<u32>,
    /// Member, local and anonymous types declared directly inside this one (indices into `types`).
    pub nested: Vec<u32>,
    pub javadoc: Option<String>,
}

impl TypeDecl {
    pub fn is_anonymous(&self) -> bool {
        self.kind == TypeKind::Anonymous
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    Field,
    EnumConstant,
    RecordComponent,
}

/// A field, enum constant or record component.
#[derive(Debug, Clone, Serialize)]
pub struct FieldDecl {
    pub name: String,
    /// The declared type; an enum constant's type is its enum.
    pub ty: TypeName,
    pub kind: FieldKind,
    pub modifiers: Vec<String>,
    /// The whole declaration (all declarators of `int a, b;` share it).
    pub span: Span,
}

impl FieldDecl {
    pub fn is_static(&self) -> bool {
        self.kind == FieldKind::EnumConstant || self.modifiers.iter().any(|m| m == "static")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MethodKind {
    Method,
    Constructor,
    /// A record's `Name { ... }` constructor without a parameter list.
    CompactConstructor,
}

/// A method or constructor parameter.
#[derive(Debug, Clone, Serialize)]
pub struct Param {
    pub name: String,
    pub ty: TypeName,
    pub varargs: bool,
    /// The type is a type variable of the method or an enclosing type (erases to its bound).
    pub generic: bool,
}

/// A local variable (also catch, for-each, resource, pattern and lambda parameters).
#[derive(Debug, Clone, Serialize)]
pub struct LocalVar {
    pub name: String,
    /// `None` for `var` and untyped lambda parameters.
    pub ty: Option<TypeName>,
    /// Where the name is visible: from its declaration to the end of the enclosing block.
    pub scope: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallKind {
    /// `recv.name(args)` or `name(args)`.
    Method,
    /// `Type::name`, `expr::name`, `Type::new`.
    MethodRef,
    /// `new T(args)`; `name` is `T` as written without type arguments.
    New,
    /// `this(args)` inside a constructor.
    ThisConstructor,
    /// `super(args)` inside a constructor.
    SuperConstructor,
}

/// What a call is made on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "name")]
pub enum Receiver {
    /// No receiver: `name(...)`.
    Implicit,
    This,
    Super,
    /// An identifier or a dotted name: `list`, `this.items`, `Outer.Inner`, `java.util.Objects`.
    Name(String),
    /// Any other expression (a call result, an array element, ...); its text is in `receiver_span`.
    Expr,
}

/// What the model knows of an argument's static type without resolving anything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum ArgHint {
    Unknown,
    /// A literal, `new T()`, or a cast: the erased simple type name.
    Type(String),
    /// A bare identifier whose type a local, parameter or field declares.
    Var(String),
    Null,
}

/// One call inside a method body (lambdas included; anonymous and local classes have their own methods).
#[derive(Debug, Clone, Serialize)]
pub struct CallSite {
    pub kind: CallKind,
    /// The method name; for `new T(...)` and `T::new` the type name as written.
    pub name: String,
    pub receiver: Receiver,
    pub receiver_span: Option<Span>,
    /// One hint per argument; `None` for method references, whose arity is not written.
    pub args: Option<Vec<ArgHint>>,
    /// The whole call expression.
    pub span: Span,
}

impl CallSite {
    pub fn arg_count(&self) -> Option<usize> {
        self.args.as_ref().map(Vec::len)
    }
}

/// One method or constructor.
#[derive(Debug, Clone, Serialize)]
pub struct MethodDecl {
    /// The method name; a constructor's is its class name.
    pub name: String,
    pub kind: MethodKind,
    /// Index of the declaring type in [`FileSymbols::types`].
    pub owner: u32,
    pub params: Vec<Param>,
    /// `None` for constructors.
    pub return_type: Option<TypeName>,
    pub modifiers: Vec<String>,
    /// `@Override`, `@Test(timeout = 5)`, as written.
    pub annotations: Vec<String>,
    pub type_params: Vec<String>,
    pub throws: Vec<TypeName>,
    /// The declaration from modifiers (annotations included) to the closing brace or `;`.
    pub span: Span,
    pub name_span: Span,
    /// The `{ ... }` block; `None` for abstract and interface methods.
    pub body: Option<Span>,
    /// The `/** ... */` comment right before the declaration.
    pub javadoc: Option<String>,
    pub javadoc_span: Option<Span>,
    pub locals: Vec<LocalVar>,
    pub calls: Vec<CallSite>,
}

impl MethodDecl {
    pub fn is_constructor(&self) -> bool {
        self.kind != MethodKind::Method
    }

    pub fn is_static(&self) -> bool {
        self.modifiers.iter().any(|m| m == "static")
    }

    /// Whether a call with `args` arguments can target this method (varargs take any count ≥ n-1).
    pub fn accepts_arity(&self, args: usize) -> bool {
        match self.params.last() {
            Some(p) if p.varargs => args + 1 >= self.params.len(),
            _ => args == self.params.len(),
        }
    }

    /// `name(int, List<String>, Object...)`, types as written.
    pub fn signature(&self) -> String {
        let params: Vec<String> = self.params.iter().map(param_text).collect();
        format!("{}({})", self.name, params.join(", "))
    }

    /// `public static <T> List<T> name(T a, int... b) throws IOException`: the declaration without body.
    pub fn declaration(&self) -> String {
        let mut out = String::new();
        for m in &self.modifiers {
            out.push_str(m);
            out.push(' ');
        }
        if !self.type_params.is_empty() {
            out.push('<');
            out.push_str(&self.type_params.join(", "));
            out.push_str("> ");
        }
        if let Some(r) = &self.return_type {
            out.push_str(&r.text);
            out.push(' ');
        }
        out.push_str(&self.name);
        out.push('(');
        let params: Vec<String> = self.params.iter().map(|p| format!("{} {}", param_text(p), p.name)).collect();
        out.push_str(&params.join(", "));
        out.push(')');
        if !self.throws.is_empty() {
            out.push_str(" throws ");
            out.push_str(&self.throws.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(", "));
        }
        out
    }

    /// The erased parameter types: `(List, int[])`; two methods with equal lists have equal erasures.
    pub fn erased_params(&self) -> Vec<String> {
        self.params.iter().map(|p| p.ty.erased()).collect()
    }
}

fn param_text(p: &Param) -> String {
    if p.varargs { format!("{}...", p.ty.text) } else { p.ty.text.clone() }
}

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
struct Ctx {
    ty: Option<u32>,
    method: Option<u32>,
}

struct Builder<'a> {
    text: &'a str,
    syms: FileSymbols,
    /// Anonymous classes numbered so far, per enclosing type.
    anon_counts: Vec<u32>,
    /// The ancestors of the node being entered, innermost last, and its previous sibling: kept by
    /// the walk because `Node::parent` and `Node::prev_sibling` search down from the root each call.
    ancestors: Vec<Node<'a>>,
    prev: Option<Node<'a>>,
}

impl<'a> Builder<'a> {
    fn walk(&mut self, root: Node<'a>) {
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

    fn t(&self, node: Node<'_>) -> &'a str {
        &self.text[node.byte_range()]
    }

    /// Records what `node` declares or calls; returns the context for its children and whether to descend.
    fn enter(&mut self, node: Node<'_>, ctx: Ctx) -> (Ctx, bool) {
        match node.kind() {
            "package_declaration" => {
                if let Some(name) = node.named_child(0).filter(|n| n.kind() != "annotation") {
                    self.syms.package = Some(squash(self.t(name)));
                } else {
                    let mut c = node.walk();
                    let name = node
                        .named_children(&mut c)
                        .find(|n| matches!(n.kind(), "identifier" | "scoped_identifier"))
                        .map(|n| squash(self.t(n)));
                    self.syms.package = name;
                }
                (ctx, false)
            }
            "import_declaration" => {
                let mut c = node.walk();
                let mut imp = Import { path: String::new(), is_static: false, wildcard: false, span: Span::of(node) };
                for child in node.children(&mut c) {
                    match child.kind() {
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
                Some(p) if p.kind() == "object_creation_expression" || p.kind() == "enum_constant" => {
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
    fn in_method(&mut self, node: Node<'_>, kind: &str, m: u32) {
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
                let kind = match node.child_by_field_id(FIELDS.constructor.get()).map(|c| c.kind()) {
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
                let receiver = match target.kind() {
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
                    let ct = node.named_children(&mut c).find(|n| n.kind() == "catch_type");
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
                        .find(|n| n.kind() == "try_with_resources_statement")
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
                match params.kind() {
                    "identifier" => self.local(m, self.t(params), None, scope),
                    _ => {
                        let mut c = node.walk();
                        for p in params.named_children(&mut c) {
                            match p.kind() {
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

    fn call(&mut self, m: u32, call: CallSite) {
        self.syms.methods[m as usize].calls.push(call);
    }

    fn local(&mut self, m: u32, name: &str, ty: Option<TypeName>, scope: Span) {
        self.syms.methods[m as usize].locals.push(LocalVar { name: name.to_string(), ty, scope });
    }

    fn receiver(&self, o: Node<'_>) -> Receiver {
        match o.kind() {
            "this" => Receiver::This,
            "super" => Receiver::Super,
            "identifier" => Receiver::Name(self.t(o).to_string()),
            "field_access" => {
                // a.b.c or this.x: a dotted name; anything else inside is an expression
                if is_dotted(o) { Receiver::Name(squash(self.t(o))) } else { Receiver::Expr }
            }
            "parenthesized_expression" => match o.named_child(0) {
                Some(inner) if inner.kind() != "cast_expression" => self.receiver(inner),
                _ => Receiver::Expr,
            },
            _ => Receiver::Expr,
        }
    }

    fn arg_hints(&self, args: Node<'_>) -> Vec<ArgHint> {
        let mut c = args.walk();
        args.named_children(&mut c)
            .filter(|a| !matches!(a.kind(), "line_comment" | "block_comment"))
            .map(|a| self.arg_hint(a))
            .collect()
    }

    fn arg_hint(&self, a: Node<'_>) -> ArgHint {
        let ty = |s: &str| ArgHint::Type(s.to_string());
        match a.kind() {
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

    fn named_type(&mut self, node: Node<'_>, ctx: Ctx) -> u32 {
        let name = node.child_by_field_id(FIELDS.name.get()).map(|n| self.t(n).to_string()).unwrap_or_default();
        let kind = match node.kind() {
            "class_declaration" => TypeKind::Class,
            "interface_declaration" => TypeKind::Interface,
            "enum_declaration" => TypeKind::Enum,
            "record_declaration" => TypeKind::Record,
            _ => TypeKind::Annotation,
        };
        let display = match ctx.ty {
            Some(p) => format!("{}.{}", self.syms.types[p as usize].display, name),
            None => name.clone(),
        };
        let (modifiers, annotations) = self.modifiers(node);
        let mut extends = Vec::new();
        let mut implements = Vec::new();
        let mut c = node.walk();
        for child in node.children(&mut c) {
            match child.kind() {
                "superclass" => extends.extend(child.named_child(0).map(|t| type_name(self.text, t))),
                "extends_interfaces" => extends.extend(self.type_list(child)),
                "super_interfaces" => implements.extend(self.type_list(child)),
                _ => {}
            }
        }
        let type_params =
            node.child_by_field_id(FIELDS.type_parameters.get()).map(|t| self.type_params(t)).unwrap_or_default();
        let body = node.child_by_field_id(FIELDS.body.get());
        let header_end = body.map(|b| b.start_byte()).unwrap_or(node.end_byte());
        let header = self.text[node.start_byte()..header_end].to_string();
        let idx = self.push_type(TypeDecl {
            name,
            display,
            kind,
            local: ctx.method.is_some(),
            parent: ctx.ty,
            enclosing_method: ctx.method,
            modifiers,
            annotations,
            type_params,
            extends,
            implements,
            header,
            span: Span::of(node),
            body: body.map(Span::of),
            fields: Vec::new(),
            methods: Vec::new(),
            nested: Vec::new(),
            javadoc: self.javadoc(node).map(|(t, _)| t),
        });
        if kind == TypeKind::Record
            && let Some(params) = node.child_by_field_id(FIELDS.parameters.get())
        {
            let mut c = params.walk();
            for p in params.named_children(&mut c) {
                if let Some(param) = self.param(p, &[]) {
                    self.syms.types[idx as usize].fields.push(FieldDecl {
                        name: param.name,
                        ty: param.ty,
                        kind: FieldKind::RecordComponent,
                        modifiers: vec!["private".into(), "final".into()],
                        span: Span::of(p),
                    });
                }
            }
        }
        idx
    }

    fn anonymous_type(&mut self, creation: Node<'_>, body: Node<'_>, ctx: Ctx) -> u32 {
        let parent_display = ctx.ty.map(|p| self.syms.types[p as usize].display.clone()).unwrap_or_default();
        let n = match ctx.ty {
            Some(p) => {
                let slot = &mut self.anon_counts[p as usize];
                *slot += 1;
                *slot
            }
            None => 1,
        };
        let extends = if creation.kind() == "enum_constant" {
            ctx.ty.map(|p| {
                let name = self.syms.types[p as usize].name.clone();
                TypeName { text: name.clone(), raw: name, dims: 0 }
            })
        } else {
            creation.child_by_field_id(FIELDS.r#type.get()).map(|t| type_name(self.text, t))
        };
        self.push_type(TypeDecl {
            name: String::new(),
            display: format!("{parent_display}${n}"),
            kind: TypeKind::Anonymous,
            local: ctx.method.is_some(),
            parent: ctx.ty,
            enclosing_method: ctx.method,
            modifiers: Vec::new(),
            annotations: Vec::new(),
            type_params: Vec::new(),
            extends: extends.into_iter().collect(),
            implements: Vec::new(),
            header: self.text[creation.start_byte()..body.start_byte()].to_string(),
            span: Span::of(body),
            body: Some(Span::of(body)),
            fields: Vec::new(),
            methods: Vec::new(),
            nested: Vec::new(),
            javadoc: None,
        })
    }

    fn push_type(&mut self, decl: TypeDecl) -> u32 {
        let idx = self.syms.types.len() as u32;
        if let Some(p) = decl.parent {
            self.syms.types[p as usize].nested.push(idx);
        }
        self.syms.types.push(decl);
        self.anon_counts.push(0);
        idx
    }

    fn method(&mut self, node: Node<'_>, owner: u32) -> u32 {
        let kind = match node.kind() {
            "method_declaration" => MethodKind::Method,
            "constructor_declaration" => MethodKind::Constructor,
            _ => MethodKind::CompactConstructor,
        };
        let name_node = node.child_by_field_id(FIELDS.name.get());
        let name = name_node.map(|n| self.t(n).to_string()).unwrap_or_default();
        let (modifiers, annotations) = self.modifiers(node);
        let type_params =
            node.child_by_field_id(FIELDS.type_parameters.get()).map(|t| self.type_params(t)).unwrap_or_default();
        let mut generic_names: Vec<&str> = type_params.iter().map(String::as_str).collect();
        let mut t = Some(owner);
        while let Some(ti) = t {
            let decl = &self.syms.types[ti as usize];
            generic_names.extend(decl.type_params.iter().map(String::as_str));
            if decl.modifiers.iter().any(|m| m == "static") {
                break;
            }
            t = decl.parent;
        }
        let params = match node.child_by_field_id(FIELDS.parameters.get()) {
            Some(ps) => {
                let mut c = ps.walk();
                ps.named_children(&mut c).filter_map(|p| self.param(p, &generic_names)).collect()
            }
            None if kind == MethodKind::CompactConstructor => self.record_params(owner, &generic_names),
            None => Vec::new(),
        };
        let return_type = node.child_by_field_id(FIELDS.r#type.get()).map(|t| type_name(self.text, t));
        let mut throws = Vec::new();
        let mut c = node.walk();
        for child in node.children(&mut c) {
            if child.kind() == "throws" {
                let mut c2 = child.walk();
                throws.extend(child.named_children(&mut c2).map(|t| type_name(self.text, t)));
            }
        }
        let body = node.child_by_field_id(FIELDS.body.get()).map(Span::of);
        let javadoc = self.javadoc(node);
        let idx = self.syms.methods.len() as u32;
        self.syms.methods.push(MethodDecl {
            name,
            kind,
            owner,
            params,
            return_type,
            modifiers,
            annotations,
            type_params,
            throws,
            span: Span::of(node),
            name_span: name_node.map(Span::of).unwrap_or_else(|| Span::of(node)),
            body,
            javadoc: javadoc.as_ref().map(|(t, _)| t.clone()),
            javadoc_span: javadoc.map(|(_, s)| s),
            locals: Vec::new(),
            calls: Vec::new(),
        });
        self.syms.types[owner as usize].methods.push(idx);
        idx
    }

    /// A compact constructor's implicit parameters are the record's components.
    fn record_params(&self, owner: u32, generic_names: &[&str]) -> Vec<Param> {
        self.syms.types[owner as usize]
            .fields
            .iter()
            .filter(|f| f.kind == FieldKind::RecordComponent)
            .map(|f| Param {
                name: f.name.clone(),
                ty: f.ty.clone(),
                varargs: false,
                generic: generic_names.contains(&f.ty.raw.as_str()),
            })
            .collect()
    }

    fn param(&self, p: Node<'_>, generic_names: &[&str]) -> Option<Param> {
        match p.kind() {
            "formal_parameter" => {
                let name = p.child_by_field_id(FIELDS.name.get())?;
                let mut ty = type_name(self.text, p.child_by_field_id(FIELDS.r#type.get())?);
                if let Some(d) = p.child_by_field_id(FIELDS.dimensions.get()) {
                    ty.dims += dims_of(self.t(d));
                }
                let generic = generic_names.contains(&ty.raw.as_str());
                Some(Param { name: self.t(name).to_string(), ty, varargs: false, generic })
            }
            "spread_parameter" => {
                let mut c = p.walk();
                let mut ty = None;
                let mut name = None;
                for child in p.named_children(&mut c) {
                    match child.kind() {
                        "modifiers" | "annotation" | "marker_annotation" => {}
                        "variable_declarator" => name = child.child_by_field_id(FIELDS.name.get()).map(|n| self.t(n)),
                        _ if ty.is_none() => ty = Some(type_name(self.text, child)),
                        _ => {}
                    }
                }
                let mut ty = ty?;
                ty.dims += 1;
                let generic = generic_names.contains(&ty.raw.as_str());
                Some(Param { name: name.unwrap_or("").to_string(), ty, varargs: true, generic })
            }
            _ => None,
        }
    }

    fn fields(&mut self, node: Node<'_>, owner: u32) {
        let Some(ty_node) = node.child_by_field_id(FIELDS.r#type.get()) else { return };
        let ty = type_name(self.text, ty_node);
        let (mut modifiers, _) = self.modifiers(node);
        if node.kind() == "constant_declaration" {
            for implied in ["public", "static", "final"] {
                if !modifiers.iter().any(|m| m == implied) {
                    modifiers.push(implied.to_string());
                }
            }
        }
        let mut c = node.walk();
        for d in node.children_by_field_id(FIELDS.declarator, &mut c) {
            let Some(name) = d.child_by_field_id(FIELDS.name.get()) else { continue };
            let mut ty = ty.clone();
            if let Some(x) = d.child_by_field_id(FIELDS.dimensions.get()) {
                ty.dims += dims_of(self.t(x));
            }
            let name = self.t(name).to_string();
            self.syms.types[owner as usize].fields.push(FieldDecl {
                name,
                ty,
                kind: FieldKind::Field,
                modifiers: modifiers.clone(),
                span: Span::of(node),
            });
        }
    }

    /// Keyword modifiers and annotations, as written.
    fn modifiers(&self, node: Node<'_>) -> (Vec<String>, Vec<String>) {
        let mut keywords = Vec::new();
        let mut annotations = Vec::new();
        let mut c = node.walk();
        let Some(mods) = node.children(&mut c).find(|n| n.kind() == "modifiers") else {
            return (keywords, annotations);
        };
        let mut c = mods.walk();
        for m in mods.children(&mut c) {
            match m.kind() {
                "annotation" | "marker_annotation" => annotations.push(squash(self.t(m))),
                "line_comment" | "block_comment" => {}
                _ => keywords.push(self.t(m).to_string()),
            }
        }
        (keywords, annotations)
    }

    fn type_list(&self, node: Node<'_>) -> Vec<TypeName> {
        let mut c = node.walk();
        let Some(list) = node.named_children(&mut c).find(|n| n.kind() == "type_list") else { return Vec::new() };
        let mut c = list.walk();
        list.named_children(&mut c).map(|t| type_name(self.text, t)).collect()
    }

    fn type_params(&self, node: Node<'_>) -> Vec<String> {
        let mut c = node.walk();
        node.named_children(&mut c)
            .filter(|p| p.kind() == "type_parameter")
            .filter_map(|p| {
                let mut c2 = p.walk();
                let id = p.named_children(&mut c2).find(|n| n.kind() == "type_identifier");
                id.map(|n| self.t(n).to_string())
            })
            .collect()
    }

    fn javadoc(&self, node: Node<'_>) -> Option<(String, Span)> {
        // `node` is the node being entered, so the walk's previous sibling is its own
        debug_assert_eq!(self.prev.map(|p| p.id()), node.prev_sibling().map(|p| p.id()));
        let prev = self.prev?;
        (prev.kind() == "block_comment" && self.t(prev).starts_with("/**"))
            .then(|| (self.t(prev).to_string(), Span::of(prev)))
    }
}

/// A [`TypeName`] for a type node.
pub fn type_name(text: &str, node: Node<'_>) -> TypeName {
    let written = &text[node.byte_range()];
    let mut raw = String::with_capacity(written.len());
    let mut depth = 0u32;
    let mut dims = 0u8;
    let mut chars = written.char_indices().peekable();
    while let Some((_, ch)) = chars.next() {
        match ch {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            '[' if depth == 0 => dims = dims.saturating_add(1),
            '@' if depth == 0 => {
                // a type annotation: skip its name and any (arguments)
                while let Some(&(_, c)) = chars.peek() {
                    if c.is_alphanumeric() || c == '_' || c == '.' || c == '$' {
                        chars.next();
                    } else {
                        break;
                    }
                }
                if let Some(&(_, '(')) = chars.peek() {
                    let mut paren = 0;
                    for (_, c) in chars.by_ref() {
                        if c == '(' {
                            paren += 1;
                        } else if c == ')' {
                            paren -= 1;
                            if paren == 0 {
                                break;
                            }
                        }
                    }
                }
            }
            c if depth == 0 && !c.is_whitespace() && c != ']' => raw.push(c),
            _ => {}
        }
    }
    TypeName { text: squash(written), raw, dims }
}

fn dims_of(s: &str) -> u8 {
    s.bytes().filter(|b| *b == b'[').count().min(255) as u8
}

/// Collapses runs of whitespace (and removes newlines) so names and types print on one line.
fn squash(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() && !matches!(c, '.' | ',' | '>' | ')' | ']') && !out.ends_with(['.', '<', '('])
            {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

fn is_dotted(n: Node<'_>) -> bool {
    match n.kind() {
        "identifier" | "this" => true,
        "field_access" => {
            n.child_by_field_id(FIELDS.object.get()).is_some_and(is_dotted)
                && n.child_by_field_id(FIELDS.field.get()).is_some_and(|f| f.kind() == "identifier")
        }
        _ => false,
    }
}

/// A span from byte `start` to `end`, with lines taken from `node` where the bytes coincide.
fn span_between(node: Node<'_>, start: usize, end: usize) -> Span {
    let mut s = Span::of(node);
    s.start_byte = start;
    s.end_byte = end.max(start);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syms(src: &str) -> FileSymbols {
        extract(&SourceFile::parse("T.java", src.to_string()))
    }

    #[test]
    fn package_imports_and_types() {
        let s = syms(
            "package a.b;\nimport java.util.*;\nimport static org.junit.Assert.assertEquals;\nimport x.Y;\n\
             public class Outer<T> extends Base<T> implements Runnable, java.io.Serializable {\n\
               static class Inner { interface Deep {} }\n enum Color { RED, GREEN { void f() {} } }\n\
               record P(int x, String... ys) {}\n @interface Ann {}\n}\n",
        );
        assert_eq!(s.package.as_deref(), Some("a.b"));
        assert_eq!(s.imports.len(), 3);
        assert!(s.imports[0].wildcard && s.imports[0].path == "java.util");
        assert!(s.imports[1].is_static && s.imports[1].path == "org.junit.Assert.assertEquals");
        let names: Vec<&str> = s.types.iter().map(|t| t.display.as_str()).collect();
        assert_eq!(
            names,
            ["Outer", "Outer.Inner", "Outer.Inner.Deep", "Outer.Color", "Outer.Color$1", "Outer.P", "Outer.Ann"]
        );
        let outer = &s.types[0];
        assert_eq!(outer.header, "public class Outer<T> extends Base<T> implements Runnable, java.io.Serializable ");
        assert_eq!(outer.extends[0].raw, "Base");
        assert_eq!(outer.implements[1].raw, "java.io.Serializable");
        assert_eq!(outer.type_params, ["T"]);
        let color = &s.types[3];
        assert_eq!(color.fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["RED", "GREEN"]);
        assert_eq!(s.types[4].extends[0].raw, "Color");
        assert_eq!(s.methods[0].name, "f");
        assert_eq!(s.methods[0].owner, 4);
        let rec = &s.types[5];
        assert_eq!(rec.fields[1].name, "ys");
        assert_eq!(rec.fields[1].kind, FieldKind::RecordComponent);
        assert_eq!(s.types[6].kind, TypeKind::Annotation);
    }

    #[test]
    fn methods_signatures_and_javadoc() {
        let s = syms(
            "class A<E> {\n  /** Adds. */\n  @Override @SuppressWarnings(\"x\")\n  public static <T extends Comparable<T>> \
             java.util.List<T> add(final int a, E[] b, String... rest) throws java.io.IOException, X { return null; }\n\
             A(int x) { this(); }\n  A() { super(); }\n  abstract void none();\n}\n",
        );
        let m = &s.methods[0];
        assert_eq!(m.name, "add");
        assert_eq!(m.modifiers, ["public", "static"]);
        assert_eq!(m.annotations, ["@Override", "@SuppressWarnings(\"x\")"]);
        assert_eq!(m.type_params, ["T"]);
        assert_eq!(m.return_type.as_ref().map(|r| r.raw.as_str()), Some("java.util.List"));
        assert_eq!(m.erased_params(), ["int", "E[]", "String[]"]);
        assert!(m.params[1].generic && !m.params[0].generic && m.params[2].varargs);
        assert_eq!(m.signature(), "add(int, E[], String...)");
        assert_eq!(m.throws.iter().map(|t| t.raw.as_str()).collect::<Vec<_>>(), ["java.io.IOException", "X"]);
        assert_eq!(m.javadoc.as_deref(), Some("/** Adds. */"));
        assert_eq!(m.span.start_line, 3);
        assert_eq!(m.body.map(|b| b.start_line), Some(4));
        assert!(m.accepts_arity(2) && m.accepts_arity(5) && !m.accepts_arity(1));
        assert_eq!(s.methods[1].kind, MethodKind::Constructor);
        assert_eq!(s.methods[1].calls[0].kind, CallKind::ThisConstructor);
        assert_eq!(s.methods[2].calls[0].kind, CallKind::SuperConstructor);
        assert!(s.methods[3].body.is_none());
    }

    #[test]
    fn calls_locals_and_nested_bodies() {
        let s = syms(
            "class A {\n  java.util.List<String> items;\n  void run(Helper h) {\n    int n = 0, m[] = {};\n    \
             h.go(1, \"s\", n);\n    this.items.add(null);\n    helper();\n    super.toString();\n    \
             Runnable r = () -> inLambda(x -> x);\n    items.forEach(A::print);\n    new Thread(new Runnable() {\n      \
             public void run() { insideAnon(); }\n    });\n    class Local { void l() { deep(); } }\n    \
             get().chained();\n    for (String s : items) { use(s); }\n  }\n}\n",
        );
        let run = &s.methods[0];
        let calls: Vec<(&str, CallKind)> = run.calls.iter().map(|c| (c.name.as_str(), c.kind)).collect();
        assert_eq!(
            calls,
            [
                ("go", CallKind::Method),
                ("add", CallKind::Method),
                ("helper", CallKind::Method),
                ("toString", CallKind::Method),
                ("inLambda", CallKind::Method),
                ("forEach", CallKind::Method),
                ("print", CallKind::MethodRef),
                ("Thread", CallKind::New),
                ("Runnable", CallKind::New),
                ("chained", CallKind::Method),
                ("get", CallKind::Method),
                ("use", CallKind::Method),
            ]
        );
        assert_eq!(run.calls[0].receiver, Receiver::Name("h".into()));
        assert_eq!(
            run.calls[0].args,
            Some(vec![ArgHint::Type("int".into()), ArgHint::Type("String".into()), ArgHint::Var("n".into())])
        );
        assert_eq!(run.calls[1].receiver, Receiver::Name("this.items".into()));
        assert_eq!(run.calls[3].receiver, Receiver::Super);
        assert_eq!(run.calls[6].receiver, Receiver::Name("A".into()));
        assert_eq!(run.calls[9].receiver, Receiver::Expr);
        let locals: Vec<(&str, Option<String>)> =
            run.locals.iter().map(|l| (l.name.as_str(), l.ty.as_ref().map(|t| t.erased()))).collect();
        assert_eq!(
            locals,
            [
                ("n", Some("int".into())),
                ("m", Some("int[]".into())),
                ("r", Some("Runnable".into())),
                ("x", None),
                ("s", Some("String".into()))
            ]
        );
        let anon = s.types.iter().position(|t| t.display == "A$1").expect("anonymous class");
        let anon_run = s.methods.iter().find(|m| m.owner == anon as u32).expect("anon method");
        assert_eq!(anon_run.calls[0].name, "insideAnon");
        let local = s.types.iter().find(|t| t.display == "A.Local").expect("local class");
        assert!(local.local);
        let l = s.methods.iter().find(|m| m.name == "l").expect("l");
        assert_eq!(l.calls[0].name, "deep");
    }

    #[test]
    fn interface_default_methods_and_constants() {
        let s =
            syms("interface I extends J, K<String> { int MAX = 3; default int twice(int x) { return x * helper(); } }");
        assert_eq!(s.types[0].extends.len(), 2);
        assert!(s.types[0].fields[0].is_static());
        assert_eq!(s.methods[0].name, "twice");
        assert_eq!(s.methods[0].calls[0].name, "helper");
    }

    #[test]
    fn type_names_are_erased() {
        let s = syms("class A { @Nullable Map<String, List<Integer>>[] a; java.util.Map.Entry<K, V> e; }");
        let f = &s.types[0].fields;
        assert_eq!((f[0].ty.raw.as_str(), f[0].ty.dims, f[0].ty.erased()), ("Map", 1, "Map[]".to_string()));
        assert_eq!(f[1].ty.simple(), "Entry");
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let mut expr = String::from("\"a\"");
        for _ in 0..20_000 {
            expr.push_str(" + \"a\"");
        }
        let s = syms(&format!("class A {{ String s() {{ return {expr}; }} void t() {{ s(); }} }}"));
        assert_eq!(s.methods.len(), 2);
        assert_eq!(s.methods[1].calls.len(), 1);
    }
}
