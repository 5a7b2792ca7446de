//! Tree-sitter-java facts the engine's refactorings share: which nodes hold statements, which
//! node is a method-like body, where a statement's control flow can go.
//!
//! The grammar encodes Java's statement structure a little unevenly (a `switch` statement is a
//! `switch_expression`, a case group holds its labels and statements side by side, constructors
//! have a `constructor_body` instead of a `block`); these helpers hide that so the refactorings
//! can speak of "blocks", "statements" and "callables".

use std::sync::OnceLock;

use tree_sitter::Node;

/// `Node::kind` without its cost: tree-sitter measures the kind's C string and checks that it is
/// UTF-8 on every call, which over every node of every method the planner reads adds up. This
/// reads it from a table of the Java grammar's kinds, built once.
pub trait Kind {
    fn kind_name(&self) -> &'static str;
}

impl Kind for Node<'_> {
    fn kind_name(&self) -> &'static str {
        static KINDS: OnceLock<Vec<&'static str>> = OnceLock::new();
        let kinds = KINDS.get_or_init(|| {
            let java = super::source::language();
            (0..java.node_kind_count() as u16).map(|id| java.node_kind_for_id(id).unwrap_or("")).collect()
        });
        // `kind_id` is the symbol `kind` names (aliases included); a tree of another grammar
        // falls back to tree-sitter's own lookup.
        match kinds.get(self.kind_id() as usize) {
            Some(&k) if !k.is_empty() => k,
            _ => self.kind(),
        }
    }
}

/// Nodes whose named children (other than labels and comments) are a sequence of statements.
pub fn is_statement_container(kind: &str) -> bool {
    matches!(kind, "block" | "constructor_body" | "switch_block_statement_group" | "switch_rule")
}

pub fn is_comment(kind: &str) -> bool {
    matches!(kind, "line_comment" | "block_comment")
}

/// A node that is a statement wherever it appears (a braceless `if` branch included).
pub fn is_statement_kind(kind: &str) -> bool {
    kind.ends_with("_statement")
        || matches!(kind, "local_variable_declaration" | "explicit_constructor_invocation" | "local_class_declaration")
}

/// The statements of a container, in order: its named children minus comments and case labels.
pub fn statements_of(container: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = container.walk();
    container
        .named_children(&mut cursor)
        .filter(|c| !is_comment(c.kind_name()) && c.kind_name() != "switch_label" && c.kind_name() != "guard")
        .collect()
}

/// Method-like nodes whose body the engine refactors: methods, constructors, initializers.
pub fn is_callable(kind: &str) -> bool {
    matches!(kind, "method_declaration" | "constructor_declaration" | "static_initializer")
}

/// An instance initializer is a bare `block` directly in a class body.
pub fn is_instance_initializer(node: Node<'_>) -> bool {
    node.kind_name() == "block" && node.parent().is_some_and(|p| is_type_body(p.kind_name()))
}

/// The member list of a class, interface, enum, record or anonymous class.
pub fn is_type_body(kind: &str) -> bool {
    matches!(kind, "class_body" | "interface_body" | "enum_body_declarations" | "record_declaration_body" | "enum_body")
}

/// Boundaries that control flow and local scopes do not cross: a `return` inside a lambda or an
/// anonymous class returns from that, not from the enclosing method.
pub fn is_flow_boundary(kind: &str) -> bool {
    matches!(kind, "lambda_expression" | "class_body" | "interface_body" | "enum_body" | "record_declaration_body")
}

pub fn is_loop(kind: &str) -> bool {
    matches!(kind, "for_statement" | "enhanced_for_statement" | "while_statement" | "do_statement")
}

/// The body (statement container) of a callable: a method's or constructor's body, an initializer's block.
pub fn callable_body(callable: Node<'_>) -> Option<Node<'_>> {
    match callable.kind_name() {
        "method_declaration" | "constructor_declaration" => callable.child_by_field_name("body"),
        "static_initializer" => named_child_of_kind(callable, "block"),
        "block" => Some(callable),
        _ => None,
    }
}

/// The innermost method, constructor or initializer containing bytes `start..end`.
pub fn enclosing_callable(root: Node<'_>, start: usize, end: usize) -> Option<Node<'_>> {
    let mut node = root.descendant_for_byte_range(start, end.max(start))?;
    loop {
        if is_callable(node.kind_name()) || is_instance_initializer(node) {
            return Some(node);
        }
        node = node.parent()?;
    }
}

/// The innermost node spanning exactly bytes `start..end`, if one does.
pub fn node_spanning(root: Node<'_>, start: usize, end: usize) -> Option<Node<'_>> {
    let mut n = root.descendant_for_byte_range(start, end)?;
    while !(n.start_byte() == start && n.end_byte() == end) {
        n = n.parent()?;
    }
    Some(n)
}

pub fn named_child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|c| c.kind_name() == kind)
}

/// The `modifiers` node of a declaration, if it has one.
pub fn modifiers(node: Node<'_>) -> Option<Node<'_>> {
    named_child_of_kind(node, "modifiers")
}

/// Whether a declaration's modifiers include `keyword` (e.g. `static`, `final`).
pub fn has_modifier(node: Node<'_>, src: &str, keyword: &str) -> bool {
    modifiers(node).is_some_and(|m| {
        let mut cursor = m.walk();
        m.children(&mut cursor).any(|c| !c.is_named() && &src[c.byte_range()] == keyword)
    })
}

/// Calls `f` on `node` and every descendant, in document order, not descending where `f` returns false.
pub fn walk<'t>(node: Node<'t>, f: &mut impl FnMut(Node<'t>) -> bool) {
    walk_with_parent(node, None, &mut |n, _| f(n));
}

/// [`walk`], handing each node its parent too (`parent` for `node` itself): tree-sitter finds a
/// node's parent by descending from the root again, which over every node of a method adds up.
///
/// One cursor walks the whole subtree (a cursor per node, as `Node::children` needs, costs an
/// allocation and a reset each), with the chain of ancestors on a stack.
pub fn walk_with_parent<'t>(
    node: Node<'t>,
    parent: Option<Node<'t>>,
    f: &mut impl FnMut(Node<'t>, Option<Node<'t>>) -> bool,
) {
    let mut cursor = node.walk();
    // The ancestors of the cursor's node within the subtree, innermost last.
    let mut ancestors: Vec<Node<'t>> = Vec::new();
    loop {
        let current = cursor.node();
        let up = ancestors.last().copied().or(parent);
        if f(current, up) && cursor.goto_first_child() {
            ancestors.push(current);
            continue;
        }
        // Next: a sibling of this node or of the nearest ancestor that has one.
        loop {
            if ancestors.is_empty() {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            cursor.goto_parent();
            ancestors.pop();
        }
    }
}

/// Leaf tokens of `node` that are not comments, in order.
pub fn code_leaves(node: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    walk(node, &mut |n| {
        if is_comment(n.kind_name()) {
            return false;
        }
        // String literals are one token for our purposes, whatever their inner structure.
        if n.child_count() == 0 || matches!(n.kind_name(), "string_literal" | "character_literal") {
            out.push(n);
            return false;
        }
        true
    });
    out
}

/// Where a `break`, `continue` or `yield` goes: the loop, switch or labeled statement it leaves.
/// `None` when it would leave a lambda or class body (not valid Java) or there is no target.
pub fn jump_target<'t>(jump: Node<'t>, src: &str) -> Option<Node<'t>> {
    let label = named_child_of_kind(jump, "identifier").map(|l| &src[l.byte_range()]);
    let mut cur = jump.parent();
    while let Some(n) = cur {
        if is_flow_boundary(n.kind_name()) || is_callable(n.kind_name()) {
            return None;
        }
        let hit = match (jump.kind_name(), label) {
            ("yield_statement", _) => n.kind_name() == "switch_expression",
            (_, Some(label)) => {
                n.kind_name() == "labeled_statement"
                    && named_child_of_kind(n, "identifier").is_some_and(|l| &src[l.byte_range()] == label)
            }
            ("break_statement", None) => is_loop(n.kind_name()) || n.kind_name() == "switch_expression",
            ("continue_statement", None) => is_loop(n.kind_name()),
            _ => false,
        };
        if hit {
            return Some(n);
        }
        cur = n.parent();
    }
    None
}

/// `break`, `continue`, `yield` and `return` statements of `node` that belong to its own control
/// flow (not to a lambda or class declared inside it), in document order.
pub fn jumps(node: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    walk(node, &mut |n| {
        if n.id() != node.id() && is_flow_boundary(n.kind_name()) {
            return false;
        }
        if matches!(n.kind_name(), "break_statement" | "continue_statement" | "yield_statement" | "return_statement") {
            out.push(n);
        }
        true
    });
    out
}

fn breaks_to(target: Node<'_>, src: &str) -> bool {
    jumps(target)
        .into_iter()
        .any(|j| j.kind_name() == "break_statement" && jump_target(j, src).is_some_and(|t| t.id() == target.id()))
}

/// Whether `node` is a literal: a number, string, text block, character, boolean, `null` or `T.class`.
pub fn is_literal(node: Node<'_>) -> bool {
    matches!(
        node.kind_name(),
        "class_literal"
            | "string_literal"
            | "text_block"
            | "character_literal"
            | "decimal_integer_literal"
            | "hex_integer_literal"
            | "octal_integer_literal"
            | "binary_integer_literal"
            | "decimal_floating_point_literal"
            | "hex_floating_point_literal"
            | "true"
            | "false"
            | "null_literal"
    )
}

fn is_literal_true(cond: Option<Node<'_>>, src: &str) -> bool {
    match cond {
        None => true,
        Some(c) => src[c.byte_range()].trim_matches(|ch: char| ch == '(' || ch == ')' || ch.is_whitespace()) == "true",
    }
}

/// Whether a sequence of statements can complete normally (JLS 14.22, simplified and
/// conservative: when unsure, it answers "yes", which at worst refuses a `return` extraction).
pub fn sequence_can_complete(statements: &[Node<'_>], src: &str) -> bool {
    statements.iter().all(|s| can_complete_normally(*s, src))
}

/// Whether one statement can complete normally; see [`sequence_can_complete`].
pub fn can_complete_normally(n: Node<'_>, src: &str) -> bool {
    let field = |name: &str| n.child_by_field_name(name);
    let can = |c: Option<Node<'_>>| c.is_none_or(|c| can_complete_normally(c, src));
    match n.kind_name() {
        "return_statement" | "throw_statement" | "break_statement" | "continue_statement" | "yield_statement" => false,
        "block" | "constructor_body" => sequence_can_complete(&statements_of(n), src),
        "if_statement" => field("alternative").is_none() || can(field("consequence")) || can(field("alternative")),
        "while_statement" | "for_statement" | "do_statement" => {
            !is_literal_true(field("condition"), src) || breaks_to(n, src)
        }
        "labeled_statement" => {
            let inner = statements_of(n).into_iter().find(|c| c.kind_name() != "identifier");
            can(inner) || breaks_to(n, src)
        }
        "synchronized_statement" => can(field("body")),
        "try_statement" | "try_with_resources_statement" => {
            let mut cursor = n.walk();
            let children: Vec<Node<'_>> = n.named_children(&mut cursor).collect();
            if let Some(fin) = children.iter().find(|c| c.kind_name() == "finally_clause")
                && !can(named_child_of_kind(*fin, "block"))
            {
                return false;
            }
            can(field("body"))
                || children
                    .iter()
                    .filter(|c| c.kind_name() == "catch_clause")
                    .any(|c| can(c.child_by_field_name("body")))
        }
        "switch_expression" => {
            let Some(block) = field("body") else { return true };
            let mut cursor = block.walk();
            let arms: Vec<Node<'_>> =
                block.named_children(&mut cursor).filter(|c| !is_comment(c.kind_name())).collect();
            let has_default = arms.iter().any(|arm| {
                let mut c = arm.walk();
                arm.named_children(&mut c)
                    .any(|l| l.kind_name() == "switch_label" && src[l.byte_range()].trim_start().starts_with("default"))
            });
            if !has_default || breaks_to(n, src) {
                return true;
            }
            match arms.last() {
                None => true,
                Some(last) if last.kind_name() == "switch_block_statement_group" => {
                    sequence_can_complete(&statements_of(*last), src)
                }
                Some(_) => arms.iter().any(|rule| {
                    statements_of(*rule).last().is_none_or(|body| {
                        body.kind_name() == "expression_statement" || can_complete_normally(*body, src)
                    })
                }),
            }
        }
        _ => true,
    }
}

/// Java's 50 reserved keywords (JLS §3.9), alphabetically: the keywords CodeBLEU weighs.
pub const KEYWORDS: [&str; 50] = [
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
];

/// Whether `name` can never name a method or a variable: a keyword, a literal (`true`, `false`,
/// `null`), `_`, or `yield` (contextual, but an unqualified call `yield(...)` is not allowed).
pub fn is_reserved(name: &str) -> bool {
    KEYWORDS.contains(&name) || matches!(name, "true" | "false" | "null" | "_" | "yield")
}

/// Whether `name` is a legal Java method name.
pub fn is_java_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else { return false };
    (first.is_alphabetic() || first == '_' || first == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        && !is_reserved(name)
}

/// A type's text with whitespace removed and generic arguments erased, for signature comparison:
/// `List<String>` and `List<Integer>` have the same erasure, so they clash as overloads.
pub fn erased_type(text: &str) -> String {
    // Annotations first (`@NonNull String`), while whitespace still separates them from the type.
    let mut plain = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('@') {
        plain.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let end =
            after.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$')).unwrap_or(after.len());
        rest = &after[end..];
        if rest.starts_with('(') {
            rest = &rest[rest.find(')').map_or(rest.len(), |i| i + 1)..];
        }
    }
    plain.push_str(rest);
    let mut out = String::new();
    let mut depth = 0usize;
    for c in plain.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() => {}
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    let out = out.replace("...", "[]");
    // `java.util.List` and `List` are the same type as far as a clash is concerned.
    let base_end = out.find('[').unwrap_or(out.len());
    match out[..base_end].rfind('.') {
        Some(i) => out[i + 1..].to_string(),
        None => out,
    }
}

/// The field a method without parameters only returns (`return f;` or `return this.f;`).
pub fn trivial_getter_field<'s>(g: Node<'_>, text: &'s str) -> Option<&'s str> {
    let params = g.child_by_field_name("parameters")?;
    if params.named_child_count() > 0 || g.child_by_field_name("type_parameters").is_some() {
        return None;
    }
    let body = g.child_by_field_name("body")?;
    let stmts: Vec<Node<'_>> = body.named_children(&mut body.walk()).filter(|c| !c.is_extra()).collect();
    let [ret] = stmts.as_slice() else { return None };
    if ret.kind_name() != "return_statement" {
        return None;
    }
    let value = ret.named_children(&mut ret.walk()).find(|c| !c.is_extra())?;
    let name = match value.kind_name() {
        "identifier" => value,
        "field_access" if value.child_by_field_name("object").is_some_and(|o| o.kind_name() == "this") => {
            value.child_by_field_name("field")?
        }
        _ => return None,
    };
    Some(&text[name.byte_range()])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table gives every node, a syntax error and aliased kinds included, the kind
    /// tree-sitter gives it, and walks visit every node once, in document order, with its parent.
    #[test]
    fn kind_names_and_walks_agree_with_tree_sitter() {
        let text = "class A<T> extends B implements C { @Override int m(int... xs) { var r = switch (xs.length) { case 0 -> 1; default -> { yield 2; } }; for (int x : xs) r += x; return r; } void bad( { }";
        let file = crate::java::SourceFile::parse("A.java", text.to_string());
        let mut all = Vec::new();
        walk_with_parent(file.root(), None, &mut |n, parent| {
            assert_eq!(n.kind_name(), n.kind());
            assert_eq!(parent.map(|p| p.id()), n.parent().map(|p| p.id()), "{}", n.kind());
            all.push(n.id());
            true
        });
        assert!(all.len() > 60, "{}", all.len());
        let mut cursor = file.root().walk();
        let mut expected = Vec::new();
        let mut stack = vec![file.root()];
        while let Some(n) = stack.pop() {
            expected.push(n.id());
            let children: Vec<_> = n.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
        assert_eq!(all, expected);
        let mut kinds = Vec::new();
        walk(file.root(), &mut |n| {
            kinds.push(n.kind_name());
            // Pruned below a method body: none of its statements are visited.
            n.kind_name() != "block"
        });
        assert!(kinds.contains(&"ERROR"), "{kinds:?}");
        assert!(!kinds.contains(&"return_statement"), "{kinds:?}");
    }

    #[test]
    fn identifiers_and_erasure() {
        assert!(is_java_identifier("compute$2"));
        assert!(is_java_identifier("größe"));
        assert!(!is_java_identifier("2x"));
        assert!(!is_java_identifier("class"));
        assert!(!is_java_identifier(""));
        assert_eq!(erased_type("java.util.List< String >"), "List");
        assert_eq!(erased_type("Map<K, List<V>>[]"), "Map[]");
        assert_eq!(erased_type("String..."), "String[]");
        assert_eq!(erased_type("@NonNull String"), "String");
    }
}
