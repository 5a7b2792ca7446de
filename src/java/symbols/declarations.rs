//! Declarations as the builder records them: types (named and anonymous), methods, parameters,
//! fields, modifiers, type parameters and Javadoc.

use super::builder::{Builder, Ctx};
use super::names::{dims_of, squash, type_name};
use super::{FieldDecl, FieldKind, MethodDecl, MethodKind, Param, TypeDecl, TypeKind, TypeName};
use crate::java::source::{FIELDS, Span};
use tree_sitter::Node;

impl<'a> Builder<'a> {
    pub(super) fn named_type(&mut self, node: Node<'_>, ctx: Ctx) -> u32 {
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

    pub(super) fn anonymous_type(&mut self, creation: Node<'_>, body: Node<'_>, ctx: Ctx) -> u32 {
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

    pub(super) fn push_type(&mut self, decl: TypeDecl) -> u32 {
        let idx = self.syms.types.len() as u32;
        if let Some(p) = decl.parent {
            self.syms.types[p as usize].nested.push(idx);
        }
        self.syms.types.push(decl);
        self.anon_counts.push(0);
        idx
    }

    pub(super) fn method(&mut self, node: Node<'_>, owner: u32) -> u32 {
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
    pub(super) fn record_params(&self, owner: u32, generic_names: &[&str]) -> Vec<Param> {
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

    pub(super) fn param(&self, p: Node<'_>, generic_names: &[&str]) -> Option<Param> {
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

    pub(super) fn fields(&mut self, node: Node<'_>, owner: u32) {
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
    pub(super) fn modifiers(&self, node: Node<'_>) -> (Vec<String>, Vec<String>) {
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

    pub(super) fn type_list(&self, node: Node<'_>) -> Vec<TypeName> {
        let mut c = node.walk();
        let Some(list) = node.named_children(&mut c).find(|n| n.kind() == "type_list") else { return Vec::new() };
        let mut c = list.walk();
        list.named_children(&mut c).map(|t| type_name(self.text, t)).collect()
    }

    pub(super) fn type_params(&self, node: Node<'_>) -> Vec<String> {
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

    pub(super) fn javadoc(&self, node: Node<'_>) -> Option<(String, Span)> {
        // `node` is the node being entered, so the walk's previous sibling is its own
        debug_assert_eq!(self.prev.map(|p| p.id()), node.prev_sibling().map(|p| p.id()));
        let prev = self.prev?;
        (prev.kind() == "block_comment" && self.t(prev).starts_with("/**"))
            .then(|| (self.t(prev).to_string(), Span::of(prev)))
    }
}
