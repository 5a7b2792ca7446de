//! Declarations: the walk over type declarations and their members (never into method bodies).

use super::normalise::{erase, rm_type, tokens};
use super::statements::declared;
use super::{Class, Method, Parsed, Side};
use crate::java::Span;
use std::hash::{Hash, Hasher};
use tree_sitter::Node;

/// The walk over type declarations and their members (never into method bodies).
pub(super) struct Declarations<'f, 's> {
    pub(super) f: &'f Parsed,
    pub(super) file: usize,
    pub(super) side: &'s mut Side,
}

impl Declarations<'_, '_> {
    pub(super) fn walk(&mut self, node: Node<'_>, package: Option<&str>, outer: Option<(usize, &str, bool)>) {
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            match child.kind() {
                "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                | "annotation_type_declaration" => self.class(child, package, outer),
                "method_declaration" | "constructor_declaration" | "compact_constructor_declaration" => {
                    if let Some((class, _, interface)) = outer {
                        self.method(child, class, interface);
                    }
                }
                "enum_body_declarations" | "class_body" | "interface_body" | "enum_body" | "annotation_type_body" => {
                    self.walk(child, package, outer)
                }
                "field_declaration" | "constant_declaration" => {
                    if let Some((class, _, _)) = outer {
                        let fields = declared(self.f, child);
                        self.side.classes[class].fields.extend(fields);
                        let constants = constants(self.f, child);
                        self.side.classes[class].constants.extend(constants);
                    }
                }
                _ => {}
            }
        }
    }

    pub(super) fn class(&mut self, node: Node<'_>, package: Option<&str>, outer: Option<(usize, &str, bool)>) {
        let Some(name) = node.child_by_field_name("name") else { return };
        let simple = self.f.text_of(name).to_string();
        let display = match outer {
            Some((_, o, _)) => format!("{o}.{simple}"),
            None => match package {
                Some(p) => format!("{p}.{simple}"),
                None => simple.clone(),
            },
        };
        let mut supers = Vec::new();
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            if matches!(child.kind(), "superclass" | "super_interfaces" | "extends_interfaces") {
                collect_type_names(self.f, child, &mut supers);
            }
        }
        let index = self.side.classes.len();
        self.side.class_by_name.insert(display.clone(), index);
        self.side.classes.push(Class {
            name: display.clone(),
            simple,
            file: self.file,
            supers,
            methods: Vec::new(),
            fields: Vec::new(),
            constants: Vec::new(),
        });
        let interface = matches!(node.kind(), "interface_declaration" | "annotation_type_declaration");
        if let Some(body) = node.child_by_field_name("body") {
            self.walk(body, package, Some((index, &display, interface)));
        }
    }

    pub(super) fn method(&mut self, node: Node<'_>, class: usize, interface: bool) {
        let f = self.f;
        let name = node.child_by_field_name("name").map(|n| f.text_of(n).to_string()).unwrap_or_default();
        let mut keywords = Vec::new();
        let mut c = node.walk();
        if let Some(mods) = node.children(&mut c).find(|n| n.kind() == "modifiers") {
            let mut c2 = mods.walk();
            for m in mods.children(&mut c2) {
                if !matches!(m.kind(), "annotation" | "marker_annotation" | "line_comment" | "block_comment") {
                    keywords.push(f.text_of(m));
                }
            }
        }
        let has = |k: &str| keywords.contains(&k);
        let visibility = if has("public") {
            "public"
        } else if has("protected") {
            "protected"
        } else if has("private") {
            "private"
        } else if interface {
            "public"
        } else {
            "package"
        };
        let mut params = Vec::new();
        let mut erased = Vec::new();
        if let Some(ps) = node.child_by_field_name("parameters") {
            let mut c = ps.walk();
            for p in ps.named_children(&mut c) {
                let (pname, ty, extra, varargs) = match p.kind() {
                    "formal_parameter" => {
                        let dims =
                            p.child_by_field_name("dimensions").map(|d| f.text_of(d).matches('[').count()).unwrap_or(0);
                        let (Some(n), Some(t)) = (p.child_by_field_name("name"), p.child_by_field_name("type")) else {
                            continue;
                        };
                        (f.text_of(n), f.text_of(t), dims, false)
                    }
                    "spread_parameter" => {
                        let mut c2 = p.walk();
                        let mut ty = None;
                        let mut pname = "";
                        for ch in p.named_children(&mut c2) {
                            match ch.kind() {
                                "modifiers" | "annotation" | "marker_annotation" => {}
                                "variable_declarator" => {
                                    pname = ch.child_by_field_name("name").map(|n| f.text_of(n)).unwrap_or("")
                                }
                                _ if ty.is_none() => ty = Some(f.text_of(ch)),
                                _ => {}
                            }
                        }
                        let Some(ty) = ty else { continue };
                        (pname, ty, 0, true)
                    }
                    _ => continue,
                };
                params.push((pname.to_string(), rm_type(ty, extra, varargs)));
                erased.push(erase(ty, extra + usize::from(varargs)));
            }
        }
        let ret = node.child_by_field_name("type").map(|t| rm_type(f.text_of(t), 0, false));
        let mut desc = format!("{visibility} ");
        if has("abstract") {
            desc.push_str("abstract ");
        }
        desc.push_str(&name);
        desc.push('(');
        desc.push_str(&params.iter().map(|(n, t)| format!("{n} {t}")).collect::<Vec<_>>().join(", "));
        desc.push(')');
        if let Some(r) = &ret {
            desc.push_str(" : ");
            desc.push_str(r);
        }
        let key = format!("{name}({})", erased.join(","));
        let body = node.child_by_field_name("body").map(|b| (b.start_byte(), b.end_byte()));
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.side.classes[class].name.hash(&mut h);
        key.hash(&mut h);
        f.text_of(node).hash(&mut h);
        let index = self.side.methods.len();
        self.side.classes[class].methods.push(index);
        self.side.methods.push(Method {
            class,
            name,
            params,
            key,
            ret,
            ctor: node.kind() != "method_declaration",
            is_static: has("static"),
            has_body: body.is_some(),
            file: self.file,
            span: Span::of(node),
            stmts: Vec::new(),
            calls: Vec::new(),
            locals: Vec::new(),
            desc,
            fingerprint: h.finish(),
            body,
        });
    }
}

/// Simple names of the types listed under `node` (`extends A<B>, c.D` → `A`, `D`).
pub(super) fn collect_type_names(f: &Parsed, node: Node<'_>, out: &mut Vec<String>) {
    let mut c = node.walk();
    for child in node.named_children(&mut c) {
        match child.kind() {
            "type_list" => collect_type_names(f, child, out),
            "type_identifier" | "scoped_type_identifier" | "generic_type" => out.push(erase(f.text_of(child), 0)),
            _ => {}
        }
    }
}

/// The final fields of a declaration that have an initializer: (name, the initializer's tokens).
/// Interface constants are final without saying so. The parser may have skipped the initializer
/// ([`super::skeleton`]): it is then read from the text after the declarator's name.
fn constants(f: &Parsed, node: Node<'_>) -> Vec<(String, Vec<String>)> {
    let final_ = node.kind() == "constant_declaration"
        || (0..node.child_count())
            .filter_map(|i| node.child(i))
            .any(|c| c.kind() == "modifiers" && f.text_of(c).split_whitespace().any(|w| w == "final"));
    if !final_ {
        return Vec::new();
    }
    let mut c = node.walk();
    let declarators: Vec<Node<'_>> = node.children_by_field_name("declarator", &mut c).collect();
    let mut out = Vec::new();
    for (k, d) in declarators.iter().enumerate() {
        let Some(name) = d.child_by_field_name("name") else { continue };
        let value = match d.child_by_field_name("value") {
            Some(v) => tokens(f.text_of(v)),
            None => {
                let end = declarators.get(k + 1).map_or(node.end_byte(), |n| n.start_byte());
                let mut t = tokens(&f.text[d.end_byte()..end]);
                if t.first().is_none_or(|x| x != "=") {
                    continue;
                }
                t.remove(0);
                if t.last().is_some_and(|x| x == ";" || x == ",") {
                    t.pop();
                }
                t
            }
        };
        if !value.is_empty() {
            out.push((f.text_of(name).to_string(), value));
        }
    }
    out
}
