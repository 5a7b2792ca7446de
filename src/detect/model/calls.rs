//! Calls: the method invocations, object creations and method references a body makes, with their
//! arguments as tokens.

use super::normalise::{erase, tokens};
use super::statements::declared;
use super::{Call, Parsed};
use crate::java::Span;
use crate::java::syntax::is_comment;
use tree_sitter::Node;

/// Node kinds [`collect_calls`] and [`lambda_blocks`] look for, as the grammar's numeric ids (comparing ids spares a
/// C-string comparison at every node of every changed body).
pub(super) struct CallKinds {
    pub(super) local_variable_declaration: u16,
    pub(super) enhanced_for_statement: u16,
    pub(super) resource: u16,
    pub(super) formal_parameter: u16,
    pub(super) explicit_constructor_invocation: u16,
    pub(super) method_invocation: u16,
    pub(super) lambda_expression: u16,
    pub(super) block: u16,
    pub(super) class_body: u16,
    pub(super) object_creation_expression: u16,
}

pub(super) static CALL_KINDS: std::sync::LazyLock<CallKinds> = std::sync::LazyLock::new(|| {
    let language = crate::java::source::language();
    let id = |kind: &str| language.id_for_node_kind(kind, true);
    CallKinds {
        local_variable_declaration: id("local_variable_declaration"),
        enhanced_for_statement: id("enhanced_for_statement"),
        resource: id("resource"),
        formal_parameter: id("formal_parameter"),
        explicit_constructor_invocation: id("explicit_constructor_invocation"),
        method_invocation: id("method_invocation"),
        lambda_expression: id("lambda_expression"),
        block: id("block"),
        class_body: id("class_body"),
        object_creation_expression: id("object_creation_expression"),
    }
});

/// The calls and local declarations under `node`, every node visited once in document order.
pub(super) fn collect_calls(src: &Parsed, node: Node<'_>, out: &mut Vec<Call>, locals: &mut Vec<(String, String)>) {
    let kinds = &*CALL_KINDS;
    let mut cursor = node.walk();
    loop {
        let n = cursor.node();
        let kind = n.kind_id();
        if kind == kinds.local_variable_declaration {
            locals.extend(declared(src, n));
        } else if kind == kinds.enhanced_for_statement || kind == kinds.resource || kind == kinds.formal_parameter {
            if let (Some(t), Some(v)) = (n.child_by_field_name("type"), n.child_by_field_name("name")) {
                locals.push((src.text_of(v).to_string(), erase(src.text_of(t), 0)));
            }
        } else if kind == kinds.explicit_constructor_invocation {
            if n.child_by_field_name("constructor").is_some_and(|c| c.kind() == "this") {
                out.push(Call {
                    name: "this".into(),
                    args: arguments(src, n),
                    qualified: false,
                    receiver: String::new(),
                    span: Span::of(n),
                    stmt: None,
                });
            }
        } else if kind == kinds.method_invocation
            && let Some(name) = n.child_by_field_name("name")
        {
            let obj = n.child_by_field_name("object");
            let qualified = obj.is_some_and(|o| o.kind() != "this");
            let receiver = obj.filter(|_| qualified).map(|o| tokens(src.text_of(o)).join(" ")).unwrap_or_default();
            out.push(Call {
                name: src.text_of(name).to_string(),
                args: arguments(src, n),
                qualified,
                receiver,
                span: Span::of(n),
                stmt: None,
            });
        }
        // Preorder: down, else along, else up until a sibling (the cursor cannot leave `node`).
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                out.sort_by_key(|c| c.span.start_byte);
                return;
            }
        }
    }
}

/// Each argument's tokens of a call.
pub(super) fn arguments(src: &Parsed, call: Node<'_>) -> Vec<Vec<String>> {
    call.child_by_field_name("arguments")
        .map(|a| {
            let mut c = a.walk();
            a.named_children(&mut c).filter(|x| !is_comment(x.kind())).map(|x| tokens(src.text_of(x))).collect()
        })
        .unwrap_or_default()
}
