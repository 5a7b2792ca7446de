//! What a name means where it is written, as far as renaming a variable, field or class needs
//! it: Java's scoping rules for simple names (the innermost local or parameter in scope, then the
//! fields of the enclosing types, inherited ones included, then the next enclosing type), and the
//! static type of simple receivers (`this`, `super`, `Outer.this`, a variable, a field, a type).

use tree_sitter::Node;

use crate::java::project::{FileId, MethodId, Project, TypeId};
use crate::java::source::SourceFile;
use crate::java::symbols::{FileSymbols, TypeName};

/// A declared variable: a parameter or a local (catch, for-each, resource, pattern and lambda
/// parameters included) of one method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Var {
    Param(MethodId, usize),
    Local(MethodId, usize),
}

/// What a simple name refers to at one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Referent {
    Var(Var),
    /// A field of the type, declared there (the index into its `fields`).
    Field(TypeId, usize),
    None,
}

/// How an identifier token is used.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Use<'t> {
    /// A simple name in an expression: a variable, a field, or a type (`Math.max`).
    Bare,
    /// `object.name`.
    Member(Node<'t>),
    /// The name of a variable, parameter or enum constant being declared.
    Declaration,
    /// A method name, a label, a package or import segment, an annotation key.
    Other,
}

/// The identifier's use, from its parent in the syntax tree.
pub(crate) fn use_of(node: Node<'_>) -> Use<'_> {
    let Some(parent) = node.parent() else { return Use::Other };
    let is = |field: &str| parent.child_by_field_name(field) == Some(node);
    match parent.kind() {
        "field_access" if is("field") => match parent.child_by_field_name("object") {
            Some(object) => Use::Member(object),
            None => Use::Other,
        },
        "method_invocation" if is("name") => Use::Other,
        "method_reference" => {
            if parent.named_child(0) == Some(node) {
                Use::Bare
            } else {
                Use::Other
            }
        }
        "variable_declarator"
        | "formal_parameter"
        | "catch_formal_parameter"
        | "enhanced_for_statement"
        | "resource"
        | "instanceof_expression"
        | "enum_constant"
            if is("name") =>
        {
            Use::Declaration
        }
        "lambda_expression" if is("parameters") => Use::Declaration,
        "inferred_parameters" => Use::Declaration,
        "labeled_statement"
        | "break_statement"
        | "continue_statement"
        | "scoped_identifier"
        | "element_value_pair"
        | "method_declaration"
        | "constructor_declaration"
        | "class_declaration"
        | "interface_declaration"
        | "enum_declaration"
        | "record_declaration"
        | "annotation_type_declaration"
        | "annotation_type_element_declaration"
        | "marker_annotation"
        | "annotation"
        | "module_declaration"
        | "package_declaration"
        | "import_declaration" => Use::Other,
        _ => Use::Bare,
    }
}

/// One file's declarations, for name lookups at byte offsets.
pub(crate) struct Scopes<'a> {
    pub(crate) project: &'a Project,
    pub(crate) file: FileId,
    pub(crate) source: &'a SourceFile,
    pub(crate) syms: &'a FileSymbols,
    pub(crate) types: Vec<TypeId>,
    pub(crate) methods: Vec<MethodId>,
}

impl<'a> Scopes<'a> {
    pub(crate) fn of(project: &'a Project, file: FileId) -> Option<Scopes<'a>> {
        let f = project.file(file).ok()?;
        Some(Scopes {
            project,
            file,
            source: &f.source,
            syms: &f.symbols,
            types: project.types_in(file).ok()?,
            methods: project.methods_in(file).ok()?,
        })
    }

    /// The innermost type whose declaration holds `at`.
    pub(crate) fn type_at(&self, at: usize) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, t) in self.syms.types.iter().enumerate() {
            if t.span.start_byte <= at && at < t.span.end_byte {
                best = match best {
                    Some(b)
                        if self.syms.types[b].span.end_byte - self.syms.types[b].span.start_byte
                            <= t.span.end_byte - t.span.start_byte =>
                    {
                        Some(b)
                    }
                    _ => Some(i),
                };
            }
        }
        best
    }

    /// The method of type `ty` (by index) whose declaration holds `at`.
    pub(crate) fn method_of_type_at(&self, ty: usize, at: usize) -> Option<usize> {
        self.syms.types[ty].methods.iter().map(|&m| m as usize).find(|&m| {
            let s = &self.syms.methods[m].span;
            s.start_byte <= at && at < s.end_byte
        })
    }

    /// The innermost method or constructor whose declaration holds `at`.
    pub(crate) fn method_at(&self, at: usize) -> Option<MethodId> {
        let ty = self.type_at(at)?;
        self.method_of_type_at(ty, at).map(|m| self.methods[m])
    }

    /// What the simple name `name` written at `at` refers to.
    pub(crate) fn bare(&self, at: usize, name: &str) -> Referent {
        let mut ty = self.type_at(at);
        while let Some(t) = ty {
            if let Some(m) = self.method_of_type_at(t, at) {
                let decl = &self.syms.methods[m];
                let mut best: Option<(usize, usize)> = None;
                for (i, l) in decl.locals.iter().enumerate() {
                    if l.name == name && l.scope.start_byte <= at && at < l.scope.end_byte {
                        let size = l.scope.end_byte - l.scope.start_byte;
                        if best.is_none_or(|(_, s)| size < s) {
                            best = Some((i, size));
                        }
                    }
                }
                if let Some((i, _)) = best {
                    return Referent::Var(Var::Local(self.methods[m], i));
                }
                if let Some(i) = decl.params.iter().position(|p| p.name == name) {
                    return Referent::Var(Var::Param(self.methods[m], i));
                }
            }
            if let Some((owner, i)) = field_in(self.project, self.types[t], name) {
                return Referent::Field(owner, i);
            }
            ty = self.syms.types[t].parent.map(|p| p as usize);
        }
        Referent::None
    }

    /// The project type of `object`'s value where `object` is simple enough to type without a
    /// type checker: `Ok(None)` when it is typed but not by a project type (`String`, an array),
    /// `Err(())` when it cannot be typed here (a call's result, `var`).
    pub(crate) fn type_of(&self, object: Node<'_>) -> Result<Option<TypeId>, ()> {
        let at = object.start_byte();
        let scope = self.type_at(at).map(|t| self.types[t].index());
        match object.kind() {
            "this" => Ok(self.type_at(at).map(|t| self.types[t])),
            "super" => Ok(self.type_at(at).and_then(|t| self.project.superclass(self.types[t]))),
            "parenthesized_expression" => object.named_child(0).map_or(Err(()), |e| self.type_of(e)),
            "identifier" => {
                let name = self.source.text_of(object);
                match self.bare(at, name) {
                    Referent::Var(v) => match var_type(self.project, v) {
                        Some(t) => Ok(self.resolve(scope, t)),
                        None => Err(()),
                    },
                    Referent::Field(owner, i) => {
                        let t = &self.project.type_decl(owner).fields[i].ty;
                        let file = owner.file();
                        Ok(self.project.resolve_type(file, Some(owner.index()), &t.raw).filter(|_| t.dims == 0))
                    }
                    Referent::None => Ok(self.project.resolve_type(self.file, scope, name)),
                }
            }
            "field_access" => {
                let (Some(inner), Some(field)) =
                    (object.child_by_field_name("object"), object.child_by_field_name("field"))
                else {
                    return Err(());
                };
                let name = self.source.text_of(field);
                if name == "this" {
                    let outer = crate::text::compact(self.source.text_of(inner));
                    return Ok(self.project.resolve_type(self.file, scope, &outer));
                }
                // `a.b.C` may name a type outright.
                let dotted = crate::text::compact(self.source.text_of(object));
                if dotted.split('.').all(crate::java::syntax::is_java_identifier)
                    && let Some(t) = self.project.resolve_type(self.file, scope, &dotted)
                {
                    return Ok(Some(t));
                }
                match self.type_of(inner) {
                    Ok(Some(owner)) => match field_in(self.project, owner, name) {
                        Some((decl_ty, i)) => {
                            let t = &self.project.type_decl(decl_ty).fields[i].ty;
                            Ok(self
                                .project
                                .resolve_type(decl_ty.file(), Some(decl_ty.index()), &t.raw)
                                .filter(|_| t.dims == 0))
                        }
                        None => Err(()),
                    },
                    Ok(None) => Ok(None),
                    Err(()) => Err(()),
                }
            }
            "string_literal" | "array_access" => Ok(None),
            _ => Err(()),
        }
    }

    fn resolve(&self, scope: Option<u32>, t: &TypeName) -> Option<TypeId> {
        if t.dims > 0 {
            return None;
        }
        self.project.resolve_type(self.file, scope, &t.raw)
    }
}

/// The field `name` of `ty` or the nearest supertype declaring one: (declaring type, index).
/// `None` when the nearest declaration is not inherited (a superclass's private field): the
/// name then does not reach a field of `ty` at all.
pub fn field_in(project: &Project, ty: TypeId, name: &str) -> Option<(TypeId, usize)> {
    let (owner, i) = std::iter::once(ty)
        .chain(project.supertypes(ty))
        .find_map(|t| project.type_decl(t).fields.iter().position(|f| f.name == name).map(|i| (t, i)))?;
    project.inherits(ty, owner, &project.type_decl(owner).fields[i].modifiers).then_some((owner, i))
}

/// The declared type of a variable; `None` for `var` and untyped lambda parameters.
pub fn var_type(project: &Project, v: Var) -> Option<&TypeName> {
    match v {
        Var::Param(m, i) => Some(&project.method(m).params[i].ty),
        Var::Local(m, i) => project.method(m).locals[i].ty.as_ref(),
    }
}

/// The variable's name.
pub fn var_name(project: &Project, v: Var) -> &str {
    match v {
        Var::Param(m, i) => &project.method(m).params[i].name,
        Var::Local(m, i) => &project.method(m).locals[i].name,
    }
}

/// The bytes where the variable can be named: a parameter's method, a local's scope.
pub fn var_scope(project: &Project, v: Var) -> std::ops::Range<usize> {
    match v {
        Var::Param(m, _) => project.method(m).span.range(),
        Var::Local(m, i) => project.method(m).locals[i].scope.range(),
    }
}

/// Every identifier token named `name` under `node`, with its use.
pub(super) fn identifiers<'t>(source: &'t SourceFile, node: Node<'t>, name: &str) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    crate::java::syntax::walk(node, &mut |n| {
        if n.kind() == "identifier" && source.text_of(n) == name {
            out.push(n);
        }
        true
    });
    out
}
