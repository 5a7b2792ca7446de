//! Which identifiers of a Java tree name variables, which variables a region declares, where a
//! simple name is declared, and how to pick a fresh name.
//!
//! tree-sitter-java uses one `identifier` kind for variables, method names, labels and the
//! qualifier of `Type.member`, so every engine that renames or substitutes has to tell them apart
//! from the parent node and the field the identifier sits in. This module is that single place;
//! it is syntactic on purpose (no project model needed) and errs on the side of "is a variable",
//! which makes the callers rename or refuse more, never less.

use crate::java::syntax::Kind;
use std::collections::HashSet;

use tree_sitter::Node;

/// True if `node` is the child of `parent` stored under `field`.
pub fn is_field(parent: Node<'_>, field: &str, node: Node<'_>) -> bool {
    parent.child_by_field_name(field).is_some_and(|c| c.id() == node.id())
}

/// True if `node` is an `identifier` in a position where it names a variable (local, parameter or
/// a field read by simple name), or declares one. Method names, labels, annotation keys, the
/// member part of `a.b` and names of declared types or methods are not variables.
pub fn is_variable_name(node: Node<'_>) -> bool {
    node.kind_name() == "identifier" && node.parent().is_some_and(|parent| variable_name_under(node, parent))
}

/// [`is_variable_name`] for an identifier whose parent is known.
fn variable_name_under(node: Node<'_>, parent: Node<'_>) -> bool {
    match parent.kind_name() {
        "method_invocation" | "field_access" => is_field(parent, "object", node),
        // `x::m`: only the qualifier can be a variable; the name after `::` is a method.
        "method_reference" => parent.named_child(0).is_some_and(|c| c.id() == node.id()),
        "method_declaration"
        | "constructor_declaration"
        | "compact_constructor_declaration"
        | "class_declaration"
        | "interface_declaration"
        | "enum_declaration"
        | "record_declaration"
        | "annotation_type_declaration"
        | "annotation_type_element_declaration"
        | "enum_constant"
        | "labeled_statement"
        | "break_statement"
        | "continue_statement"
        | "scoped_identifier"
        | "scoped_type_identifier"
        | "annotation"
        | "marker_annotation"
        | "package_declaration"
        | "import_declaration"
        | "module_declaration" => false,
        "element_value_pair" => !is_field(parent, "key", node),
        _ => true,
    }
}

/// True for the identifier that declares a variable (local, parameter, lambda or catch parameter,
/// for-each variable, resource, pattern binding), as opposed to a use of it.
pub fn is_declaration_name(node: Node<'_>) -> bool {
    node.kind_name() == "identifier" && node.parent().is_some_and(|parent| declaration_name_under(node, parent))
}

/// [`is_declaration_name`] for an identifier whose parent is known.
fn declaration_name_under(node: Node<'_>, parent: Node<'_>) -> bool {
    match parent.kind_name() {
        "variable_declarator" => {
            is_field(parent, "name", node)
                && parent.parent().is_some_and(|d| d.kind_name() == "local_variable_declaration")
        }
        "formal_parameter"
        | "catch_formal_parameter"
        | "enhanced_for_statement"
        | "resource"
        | "instanceof_expression" => is_field(parent, "name", node),
        "inferred_parameters" | "type_pattern" | "record_pattern_component" => true,
        "lambda_expression" => is_field(parent, "parameters", node),
        _ => false,
    }
}

/// Every node of the subtree in document order (the root included).
pub fn descendants(root: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    crate::java::syntax::walk(root, &mut |n| {
        out.push(n);
        true
    });
    out
}

/// The variable-name identifiers of a subtree (uses and declarations).
pub fn variable_names<'t>(root: Node<'t>) -> Vec<Node<'t>> {
    identifiers_where(root, variable_name_under)
}

/// The identifiers of a subtree that `test` accepts, given each one's parent (the walk hands it
/// down: asking tree-sitter for a parent descends from the root again).
fn identifiers_where<'t>(root: Node<'t>, test: fn(Node<'_>, Node<'_>) -> bool) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    // Only an identifier root needs its own parent.
    let up = if root.kind_name() == "identifier" { root.parent() } else { None };
    crate::java::syntax::walk_with_parent(root, up, &mut |n, parent| {
        if n.kind_name() == "identifier" && parent.is_some_and(|p| test(n, p)) {
            out.push(n);
        }
        true
    });
    out
}

/// The identifiers declaring a variable inside a subtree (see [`is_declaration_name`]).
pub fn declaration_names<'t>(root: Node<'t>) -> Vec<Node<'t>> {
    identifiers_where(root, declaration_name_under)
}

/// Names of the variables declared inside a subtree (locals, lambda and catch parameters, ...).
pub fn declared_names(root: Node<'_>, text: &str) -> HashSet<String> {
    declaration_names(root).into_iter().map(|n| text[n.byte_range()].to_string()).collect()
}

/// `base2`, `base3`, ...: the first that is in neither set.
pub fn fresh_name(base: &str, taken: &HashSet<String>, also: &HashSet<String>) -> String {
    (2..)
        .map(|i| format!("{base}{i}"))
        .find(|n| !taken.contains(n) && !also.contains(n))
        .unwrap_or_else(|| unreachable!("an infinite sequence of candidates always has a free one"))
}

/// Where a simple name used at `at` is declared, searching outwards through blocks, parameter
/// lists and class bodies. Returns the declaring node's type node (None for `var` or lambda
/// parameters without a type) and whether the declaration is a field.
pub struct Declaration<'t> {
    pub type_node: Option<Node<'t>>,
    pub is_field: bool,
    /// The node whose name is the declared identifier.
    pub name_node: Node<'t>,
}

pub fn find_declaration<'t>(at: Node<'t>, name: &str, text: &str) -> Option<Declaration<'t>> {
    let named = |n: Node<'_>| n.child_by_field_name("name").is_some_and(|id| &text[id.byte_range()] == name);
    let mut child = at;
    while let Some(scope) = child.parent() {
        let mut cursor = scope.walk();
        match scope.kind_name() {
            "block" | "constructor_body" | "switch_block_statement_group" | "program" => {
                for stmt in scope.named_children(&mut cursor) {
                    if stmt.start_byte() >= at.start_byte() {
                        break;
                    }
                    if stmt.kind_name() == "local_variable_declaration"
                        && let Some(d) = declarator_named(stmt, &named)
                    {
                        return Some(Declaration { type_node: typed(stmt, text), is_field: false, name_node: d });
                    }
                }
            }
            "for_statement" => {
                let mut c2 = scope.walk();
                for init in scope.children_by_field_name("init", &mut c2) {
                    if init.kind_name() == "local_variable_declaration"
                        && let Some(d) = declarator_named(init, &named)
                    {
                        return Some(Declaration { type_node: typed(init, text), is_field: false, name_node: d });
                    }
                }
            }
            "enhanced_for_statement" | "catch_formal_parameter" | "resource" if named(scope) => {
                return Some(Declaration { type_node: typed(scope, text), is_field: false, name_node: scope });
            }
            "catch_clause" => {
                for p in scope.named_children(&mut cursor) {
                    if p.kind_name() == "catch_formal_parameter" && named(p) {
                        let ty = p.named_children(&mut p.walk()).find(|c| c.kind_name() == "catch_type");
                        return Some(Declaration { type_node: ty, is_field: false, name_node: p });
                    }
                }
            }
            "try_with_resources_statement" => {
                if let Some(res) = scope.child_by_field_name("resources") {
                    for r in res.named_children(&mut res.walk()) {
                        if r.kind_name() == "resource" && named(r) && r.start_byte() < at.start_byte() {
                            return Some(Declaration { type_node: typed(r, text), is_field: false, name_node: r });
                        }
                    }
                }
            }
            "method_declaration" | "constructor_declaration" | "lambda_expression" => {
                if let Some(params) = scope.child_by_field_name("parameters") {
                    if params.kind_name() == "identifier" && &text[params.byte_range()] == name {
                        return Some(Declaration { type_node: None, is_field: false, name_node: scope });
                    }
                    for p in params.named_children(&mut params.walk()) {
                        if p.kind_name() == "formal_parameter" && named(p) {
                            return Some(Declaration { type_node: typed(p, text), is_field: false, name_node: p });
                        }
                        if p.kind_name() == "identifier" && &text[p.byte_range()] == name {
                            return Some(Declaration { type_node: None, is_field: false, name_node: scope });
                        }
                        if p.kind_name() == "spread_parameter"
                            && let Some(d) =
                                p.named_children(&mut p.walk()).find(|c| c.kind_name() == "variable_declarator")
                            && named(d)
                        {
                            return Some(Declaration { type_node: None, is_field: false, name_node: d });
                        }
                    }
                }
            }
            "class_body" | "enum_body" | "interface_body" => {
                for member in scope.named_children(&mut cursor) {
                    if matches!(member.kind_name(), "field_declaration" | "constant_declaration")
                        && let Some(d) = declarator_named(member, &named)
                    {
                        return Some(Declaration { type_node: typed(member, text), is_field: true, name_node: d });
                    }
                }
            }
            _ => {}
        }
        child = scope;
    }
    None
}

fn declarator_named<'t>(decl: Node<'t>, named: &dyn Fn(Node<'_>) -> bool) -> Option<Node<'t>> {
    let mut cursor = decl.walk();
    decl.children_by_field_name("declarator", &mut cursor).find(|d| named(*d))
}

/// The `type` child, unless it is `var` (whose type only the compiler knows).
fn typed<'t>(node: Node<'t>, text: &str) -> Option<Node<'t>> {
    node.child_by_field_name("type").filter(|t| &text[t.byte_range()] != "var")
}

/// A type's text reduced to what a syntactic comparison can rely on: no generics, no package,
/// no whitespace or annotations (`java.util.List<String>` and `List<X>` both become `List`).
pub fn erased_type(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            c if depth == 0 && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    let out = out.rsplit(['.', ')']).next().unwrap_or(&out).to_string();
    out.trim_start_matches('@').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::java::SourceFile;

    fn parse(src: &str) -> SourceFile {
        SourceFile::parse("T.java", src.to_string())
    }

    #[test]
    fn tells_variables_from_methods_members_and_labels() {
        let f = parse(
            "class T { int f; void m(int p) { out: for (int i = 0; i < p; i++) { a.b(c); this.f = d::e; break out; } } }",
        );
        let names: Vec<&str> = variable_names(f.root()).iter().map(|n| f.text_of(*n)).collect();
        assert_eq!(names, ["f", "p", "i", "i", "p", "i", "a", "c", "d"]);
        let declared = declared_names(f.root(), &f.text);
        assert!(declared.contains("i") && declared.contains("p") && !declared.contains("f"));
    }

    #[test]
    fn finds_declarations_outwards() {
        let src = "class T { String s; void m(long p) { int x = 1; use(x, p, s); } }";
        let f = parse(src);
        let call = descendants(f.root()).into_iter().find(|n| n.kind_name() == "argument_list").unwrap();
        let ty = |name: &str| {
            let d = find_declaration(call, name, &f.text).unwrap();
            (f.text_of(d.type_node.unwrap()).to_string(), d.is_field)
        };
        assert_eq!(ty("x"), ("int".into(), false));
        assert_eq!(ty("p"), ("long".into(), false));
        assert_eq!(ty("s"), ("String".into(), true));
        assert!(find_declaration(call, "nope", &f.text).is_none());
    }

    #[test]
    fn erases_types() {
        assert_eq!(erased_type("java.util.List<Map<String, X>>"), "List");
        assert_eq!(erased_type("int[]"), "int[]");
        assert_eq!(fresh_name("a", &HashSet::from(["a2".to_string()]), &HashSet::new()), "a3");
    }
}
