//! Text helpers of the move: names, argument lists, indentation, where to insert and remove.

use super::Vis;
use crate::engine::Edit;
use crate::java::SourceFile;
use crate::java::project::{FileId, MethodId, Project, TypeId};
use crate::java::symbols::{MethodDecl, extract};
use crate::java::syntax::{is_comment, named_child_of_kind};
use crate::text::{line_indent, line_start};
use std::collections::BTreeSet;
use tree_sitter::Node;

/// Java's implicitly imported `java.lang` names that moved code commonly uses.
pub(super) const JAVA_LANG: &[&str] = &[
    "Object",
    "String",
    "StringBuilder",
    "StringBuffer",
    "Integer",
    "Long",
    "Short",
    "Byte",
    "Double",
    "Float",
    "Boolean",
    "Character",
    "Number",
    "Math",
    "System",
    "Thread",
    "Runnable",
    "Iterable",
    "Comparable",
    "CharSequence",
    "Class",
    "Enum",
    "Record",
    "Void",
    "Exception",
    "RuntimeException",
    "Error",
    "Throwable",
    "IllegalArgumentException",
    "IllegalStateException",
    "NullPointerException",
    "UnsupportedOperationException",
    "IndexOutOfBoundsException",
    "ArithmeticException",
    "ClassCastException",
    "NumberFormatException",
    "InterruptedException",
    "CloneNotSupportedException",
    "AssertionError",
    "Override",
    "Deprecated",
    "SuppressWarnings",
    "FunctionalInterface",
    "SafeVarargs",
    "AutoCloseable",
    "Cloneable",
    "Process",
    "ProcessBuilder",
    "Runtime",
    "ThreadLocal",
    "StackTraceElement",
    "ReflectiveOperationException",
    "ClassNotFoundException",
    "SecurityException",
    "ArrayIndexOutOfBoundsException",
    "StringIndexOutOfBoundsException",
    "NegativeArraySizeException",
    "ArrayStoreException",
    "OutOfMemoryError",
    "StackOverflowError",
    "LinkageError",
    "ExceptionInInitializerError",
    "InheritableThreadLocal",
    "Appendable",
    "Readable",
    "Character.UnicodeBlock",
    "StrictMath",
    "Module",
    "ModuleLayer",
    "ClassLoader",
    "Package",
];

/// `Source.this` (a `field_access` whose field is `this`) naming the source class.
pub(super) fn is_qualified_this(n: Node<'_>, src: &str, source: &str) -> bool {
    n.kind() == "field_access"
        && n.child_by_field_name("field").is_some_and(|f| f.kind() == "this")
        && n.child_by_field_name("object").is_some_and(|o| &src[o.byte_range()] == source)
}

/// Simple type names written in the declaration of `method` outside `skip` (its body).
/// Whether the type identifier `n` is a later part of a qualified type (`Inner` of
/// `Outer.Inner`), not the name the type is looked up by.
pub(super) fn is_qualified_tail(n: Node<'_>) -> bool {
    n.parent()
        .is_some_and(|p| p.kind() == "scoped_type_identifier" && p.named_child(0).is_some_and(|f| f.id() != n.id()))
}

/// The modifier keywords of a declaration (`public`, `static`, ...; annotations left out).
pub(super) fn modifier_keywords(node: Node<'_>) -> Vec<Node<'_>> {
    named_child_of_kind(node, "modifiers")
        .map(|m| {
            let mut c = m.walk();
            m.children(&mut c).filter(|k| !k.is_named()).collect()
        })
        .unwrap_or_default()
}

pub(super) fn collect_type_names(method: Node<'_>, src: &str, skip: Option<Node<'_>>, out: &mut BTreeSet<String>) {
    crate::java::syntax::walk(method, &mut |n| {
        if skip.is_some_and(|s| s.id() == n.id()) {
            return false;
        }
        match n.kind() {
            "type_identifier" if !is_qualified_tail(n) => {
                out.insert(src[n.byte_range()].to_string());
            }
            "marker_annotation" | "annotation" => {
                if let Some(name) = n.child_by_field_name("name") {
                    let text = &src[name.byte_range()];
                    out.insert(text.split('.').next().unwrap_or(text).to_string());
                }
            }
            _ => {}
        }
        true
    });
}

/// `invoiceService` from `InvoiceService`; `url` from `URL`.
pub(super) fn lower_camel(name: &str) -> String {
    let upper = name.chars().take_while(|c| c.is_uppercase()).count();
    let n = if upper > 1 && upper < name.chars().count() { upper - 1 } else { upper.max(1) };
    name.chars().enumerate().map(|(i, c)| if i < n { c.to_lowercase().next().unwrap_or(c) } else { c }).collect()
}

/// The items of an argument or parameter list (comments excluded).
pub(super) fn list_items(list: Node<'_>) -> Vec<Node<'_>> {
    let mut c = list.walk();
    list.named_children(&mut c).filter(|n| !is_comment(n.kind())).collect()
}

/// Edits of a parenthesised list: drop item `remove` (with its comma), put `prepend` first.
pub(super) fn rewrite_list(list: Node<'_>, remove: Option<usize>, prepend: Option<String>) -> Vec<Edit> {
    let items = list_items(list);
    let mut edits = Vec::new();
    let open = list.start_byte() + 1;
    let remaining = items.len() - usize::from(remove.is_some_and(|r| r < items.len()));
    if let Some(r) = remove.filter(|&r| r < items.len()) {
        let range = if r > 0 {
            items[r - 1].end_byte()..items[r].end_byte()
        } else if items.len() > 1 {
            items[0].start_byte()..items[1].start_byte()
        } else {
            items[0].byte_range()
        };
        match (&prepend, remaining, r) {
            // the only item replaced by the new one
            (Some(p), 0, _) => {
                edits.push(Edit::replace(range, p.clone()));
                return edits;
            }
            _ => edits.push(Edit::delete(range)),
        }
    }
    if let Some(p) = prepend {
        let first = items.iter().enumerate().find(|(i, _)| Some(*i) != remove).map(|(_, n)| n.start_byte());
        match first {
            Some(at) => edits.push(Edit::insert(at, format!("{p}, "))),
            None => edits.push(Edit::insert(open, p)),
        }
    }
    edits
}

/// Whether an expression needs parentheses to be a method call's receiver.
pub(super) fn needs_parens(n: Node<'_>) -> bool {
    !matches!(
        n.kind(),
        "identifier"
            | "field_access"
            | "method_invocation"
            | "this"
            | "parenthesized_expression"
            | "array_access"
            | "object_creation_expression"
            | "string_literal"
            | "class_literal"
    )
}

pub(super) fn skip_spaces(src: &str, at: usize) -> usize {
    at + (src[at..].len() - src[at..].trim_start_matches([' ', '\t', '\n', '\r']).len())
}

/// The first child of a method declaration after its modifiers (type parameters or return type).
pub(super) fn after_modifiers(node: Node<'_>) -> Option<Node<'_>> {
    let mut c = node.walk();
    node.named_children(&mut c).find(|n| n.kind() != "modifiers" && !is_comment(n.kind()))
}

/// The declaration node of a method.
pub(super) fn method_node<'t>(file: &'t SourceFile, decl: &MethodDecl) -> Option<Node<'t>> {
    node_with_span(file, decl.span.start_byte, decl.span.end_byte, "method_declaration")
}

pub(super) fn node_with_span<'t>(file: &'t SourceFile, start: usize, end: usize, kind: &str) -> Option<Node<'t>> {
    let mut n = file.root().descendant_for_byte_range(start, end)?;
    loop {
        if n.kind() == kind && n.start_byte() == start && n.end_byte() == end {
            return Some(n);
        }
        n = n.parent()?;
    }
}

/// The bytes to delete for a member spanning `start..end`: its whole lines and one blank line around it.
pub(super) fn removal_range(src: &str, start: usize, end: usize) -> std::ops::Range<usize> {
    let ls = line_start(src, start);
    let mut s = if src[ls..start].trim().is_empty() { ls } else { start };
    let line_end = src[end..].find('\n').map_or(src.len(), |i| end + i + 1);
    let mut e = if src[end..line_end].trim().is_empty() { line_end } else { end };
    if s == ls && s > 0 {
        let prev = line_start(src, s - 1);
        if src[prev..s].trim().is_empty() {
            s = prev;
            return s..e;
        }
    }
    if e == line_end && e < src.len() {
        let next = src[e..].find('\n').map_or(src.len(), |i| e + i + 1);
        if src[e..next].trim().is_empty() && next <= src.len() && src[..s].trim_end().ends_with('{') {
            e = next;
        }
    }
    s..e
}

/// `line` (starting with `indent`) with its further indentation in `to` units instead of `from` units,
/// so a method indented with spaces reads right in a class indented with tabs and vice versa.
pub(super) fn convert_indent(line: String, indent: &str, from: &str, to: &str) -> String {
    if from == to || from.is_empty() {
        return line;
    }
    let Some(rest) = line.strip_prefix(indent) else { return line };
    let mut rel = rest;
    let mut units = 0;
    while let Some(r) = rel.strip_prefix(from) {
        rel = r;
        units += 1;
    }
    if units == 0 {
        return line;
    }
    format!("{indent}{}{rel}", to.repeat(units))
}

/// The indentation of the destination's members.
pub(super) fn member_indent(project: &Project, dest: TypeId) -> String {
    let file = project.source(dest);
    let src = &file.text;
    let decl = project.type_decl(dest);
    if let Some(body) = decl.body
        && let Some(node) = file.root().descendant_for_byte_range(body.start_byte, body.end_byte)
    {
        let mut c = node.walk();
        let first = node
            .named_children(&mut c)
            .find(|m| !is_comment(m.kind()) && m.start_position().row != node.start_position().row);
        if let Some(m) = first {
            return line_indent(src, m.start_byte()).to_string();
        }
    }
    let outer = line_indent(src, decl.span.start_byte);
    let unit = if outer.starts_with('\t') || (outer.is_empty() && src.contains("\n\t")) { "\t" } else { "    " };
    format!("{outer}{unit}")
}

/// The insertion of the moved method's lines before the destination's closing brace.
pub(super) fn insertion(project: &Project, dest: TypeId, lines: &[String]) -> Edit {
    let file = project.source(dest);
    let src = &file.text;
    let nl = if src.contains("\r\n") { "\r\n" } else { "\n" };
    let body = project.type_decl(dest).body.unwrap_or(project.type_decl(dest).span);
    let close = body.end_byte.saturating_sub(1);
    let text = lines.join(nl);
    let ls = line_start(src, close);
    if src[ls..close].trim().is_empty() && ls > body.start_byte {
        let before = &src[body.start_byte + 1..ls];
        let prev_blank =
            before.trim_end_matches([' ', '\t']).ends_with(&format!("{nl}{nl}")) || before.trim().is_empty();
        let lead = if prev_blank { "" } else { nl };
        Edit::insert(ls, format!("{lead}{text}{nl}"))
    } else {
        let indent = line_indent(src, close);
        let close_indent = if src[ls..close].trim().is_empty() { indent.to_string() } else { String::new() };
        Edit::insert(close, format!("{nl}{text}{nl}{close_indent}"))
    }
}

/// The start of the line after byte `at`.
pub(super) fn next_line_start(src: &str, at: usize) -> usize {
    src[at..].find('\n').map_or(src.len(), |i| at + i + 1)
}

/// A single static import `import static a.Source.name;` in the caller's file:
/// (file, import start, import end, path start, path end).
pub(super) fn cfile_static_import(
    project: &Project,
    caller: MethodId,
    source_q: &str,
    name: &str,
) -> Option<(FileId, usize, usize, usize, usize)> {
    let file = project.file(caller.file()).ok()?;
    let wanted = format!("{source_q}.{name}");
    let imp = file.symbols.imports.iter().find(|i| i.is_static && !i.wildcard && i.path == wanted)?;
    let decl = node_with_span(&file.source, imp.span.start_byte, imp.span.end_byte, "import_declaration")?;
    let path = named_child_of_kind(decl, "scoped_identifier")?;
    Some((caller.file(), imp.span.start_byte, imp.span.end_byte, path.start_byte(), path.end_byte()))
}

/// The declaration of the method `name` with erased parameters `params` among the members
/// `members` (the moved method's text as the destination receives it), parsed on their own in a
/// class of their own: much less to parse than the destination's whole file.
pub(super) fn find_signature(members: &str, name: &str, params: &[String]) -> Option<String> {
    let syms = extract(&SourceFile::parse("Moved.java", format!("class Moved {{\n{members}\n}}\n")));
    syms.methods.iter().find(|m| m.owner == 0 && m.name == name && m.erased_params() == params).map(|m| m.declaration())
}

/// The edit that widens the member `name` declared at `decl` (bytes of `file`) to `to`:
/// package-private drops `private` (and the spaces after it); public replaces `private` or
/// `protected`, or goes before the first modifier keyword (after annotations), or before the type.
pub(super) fn widen(file: &SourceFile, decl: (usize, usize), name: &str, to: Vis) -> Option<Edit> {
    let src = file.text.as_str();
    let text = src.get(decl.0..decl.1)?;
    let head = &text[..crate::text::word_occurrences(text, name).next()?];
    let keyword = |kw: &str| crate::text::word_occurrences(head, kw).next().map(|at| decl.0 + at);
    if to == Vis::Package {
        let start = keyword("private")?;
        return Some(Edit::delete(start..skip_spaces(src, start + "private".len())));
    }
    for kw in ["private", "protected"] {
        if let Some(start) = keyword(kw) {
            return Some(Edit::replace(start..start + kw.len(), "public"));
        }
    }
    let mut node = file.root().descendant_for_byte_range(decl.0, decl.0)?;
    while !matches!(node.kind(), "field_declaration" | "method_declaration" | "constant_declaration") {
        node = node.parent()?;
    }
    let at = match modifier_keywords(node).first() {
        Some(k) => k.start_byte(),
        None => after_modifiers(node)?.start_byte(),
    };
    Some(Edit::insert(at, "public "))
}

/// The edit making the type declared at `span` public: its `private` or `protected` replaced, or
/// `public` put before its keywords.
pub(super) fn make_type_public(file: &SourceFile, span: (usize, usize)) -> Option<Edit> {
    let mut node = file.root().descendant_for_byte_range(span.0, span.0)?;
    while !matches!(
        node.kind(),
        "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration"
    ) {
        node = node.parent()?;
    }
    let src = file.text.as_str();
    let keywords = modifier_keywords(node);
    if let Some(k) = keywords.iter().find(|k| matches!(&src[k.byte_range()], "private" | "protected")) {
        return Some(Edit::replace(k.byte_range(), "public"));
    }
    // Before the first keyword (after any annotations), or before `class` itself.
    let at = keywords.first().map_or_else(
        || {
            let mut c = node.walk();
            node.children(&mut c).find(|n| !n.is_named()).map_or(node.start_byte(), |n| n.start_byte())
        },
        |k| k.start_byte(),
    );
    Some(Edit::insert(at, "public "))
}
