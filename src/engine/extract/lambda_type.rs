//! The type of a lambda parameter written without one, where the call the lambda is passed to
//! says it: `items.forEach(item -> ...)` with `List<Invoice> items` makes `item` an `Invoice`.
//!
//! Only what the declared types spell out is read, never guessed: the receiver is a local, a
//! parameter or a field of a collection, a stream, an `Optional` or a map with its type arguments
//! written (`List<Invoice>`, `Map<String, List<Line>>`), or a `stream()` of one followed by
//! calls that keep the element type (`filter`, `sorted`, `distinct`, ...); the method is one of
//! the JDK's whose functional parameter takes the elements (`forEach`, `removeIf`, `filter`,
//! `map`, `anyMatch`, `ifPresent`, a map's `forEach((k, v) -> ...)`, `computeIfAbsent`, ...). A
//! wildcard `? extends T` gives `T`; `? super T`, `?` and anything else give nothing, and the
//! extraction is refused as before.

use tree_sitter::Node;

use crate::engine::dataflow::{LocalVar, MethodFlow, var_type};
use crate::java::syntax::Kind;

/// Kinds of receivers whose elements the lambda receives.
const ELEMENTS: [&str; 19] = [
    "Iterable",
    "Collection",
    "List",
    "Set",
    "SortedSet",
    "NavigableSet",
    "Queue",
    "Deque",
    "ArrayList",
    "LinkedList",
    "HashSet",
    "LinkedHashSet",
    "TreeSet",
    "ArrayDeque",
    "CopyOnWriteArrayList",
    "Stream",
    "Optional",
    "PriorityQueue",
    "Vector",
];

const MAPS: [&str; 9] = [
    "Map",
    "HashMap",
    "TreeMap",
    "LinkedHashMap",
    "SortedMap",
    "NavigableMap",
    "ConcurrentMap",
    "ConcurrentHashMap",
    "Hashtable",
];

/// Methods whose one-parameter lambda takes an element.
const PER_ELEMENT: [&str; 17] = [
    "forEach",
    "forEachOrdered",
    "removeIf",
    "filter",
    "anyMatch",
    "allMatch",
    "noneMatch",
    "map",
    "flatMap",
    "peek",
    "mapToInt",
    "mapToLong",
    "mapToDouble",
    "ifPresent",
    "ifPresentOrElse",
    "takeWhile",
    "dropWhile",
];

/// Methods whose two-parameter lambda takes two elements (a comparator, a reduction).
const PAIRWISE: [&str; 4] = ["sorted", "max", "min", "reduce"];

/// Stream methods that keep the element type.
const KEEPS_ELEMENTS: [&str; 7] = ["filter", "sorted", "distinct", "peek", "limit", "skip", "unordered"];

/// The type of the lambda parameter `var` (declared without one), if the call says it.
pub(super) fn lambda_param_type(flow: &MethodFlow<'_>, var: &LocalVar<'_>, src: &str) -> Option<String> {
    let name = var.name_node;
    let params = name.parent()?;
    let (lambda, index, count) = match params.kind_name() {
        "lambda_expression" => (params, 0, 1),
        "inferred_parameters" => {
            let mut cursor = params.walk();
            let names: Vec<Node<'_>> = params.named_children(&mut cursor).collect();
            (params.parent()?, names.iter().position(|n| n.id() == name.id())?, names.len())
        }
        _ => return None,
    };
    let call = lambda.parent().filter(|a| a.kind_name() == "argument_list")?.parent()?;
    if call.kind_name() != "method_invocation" {
        return None;
    }
    let method = &src[call.child_by_field_name("name")?.byte_range()];
    let (raw, args) = receiver_type(flow, call.child_by_field_name("object")?, src)?;
    let arg = |i: usize| args.get(i).and_then(|a| element(a));
    if ELEMENTS.contains(&raw.as_str()) && args.len() == 1 {
        return match count {
            1 if PER_ELEMENT.contains(&method) => arg(0),
            2 if PAIRWISE.contains(&method) => arg(0),
            _ => None,
        };
    }
    if MAPS.contains(&raw.as_str()) && args.len() == 2 {
        return match (method, count) {
            ("forEach" | "replaceAll" | "compute" | "computeIfPresent", 2) => arg(index),
            ("computeIfAbsent", 1) => arg(0),
            ("merge", 2) => arg(1),
            _ => None,
        };
    }
    None
}

/// The declared type of a receiver, as its simple raw name and its type arguments.
fn receiver_type(flow: &MethodFlow<'_>, receiver: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    match receiver.kind_name() {
        "identifier" => {
            let name = &src[receiver.byte_range()];
            let declared = match flow.resolve(name, receiver.start_byte()) {
                Some(i) => {
                    let v = &flow.vars[i];
                    match v.type_text.as_deref() {
                        Some("var") => v.initializer.and_then(|init| var_type(init, src))?,
                        Some(t) => t.to_string(),
                        None => return None,
                    }
                }
                None => field_type(receiver, name, src)?,
            };
            split_type(&declared)
        }
        "field_access" => {
            let object = receiver.child_by_field_name("object")?;
            if object.kind_name() != "this" {
                return None;
            }
            let field = receiver.child_by_field_name("field")?;
            split_type(&field_type(receiver, &src[field.byte_range()], src)?)
        }
        "method_invocation" => {
            let method = &src[receiver.child_by_field_name("name")?.byte_range()];
            let (raw, args) = receiver_type(flow, receiver.child_by_field_name("object")?, src)?;
            let is_stream = raw == "Stream" && KEEPS_ELEMENTS.contains(&method);
            let streams = matches!(method, "stream" | "parallelStream") && ELEMENTS.contains(&raw.as_str());
            (args.len() == 1 && (is_stream || streams)).then(|| ("Stream".to_string(), args))
        }
        _ => None,
    }
}

/// The declared type of field `name` of a class around `at` (innermost first).
fn field_type(at: Node<'_>, name: &str, src: &str) -> Option<String> {
    let mut node = at.parent();
    while let Some(n) = node {
        if n.kind_name() == "class_body" || n.kind_name() == "enum_body" {
            let mut cursor = n.walk();
            for field in n.named_children(&mut cursor).filter(|c| c.kind_name() == "field_declaration") {
                let mut c2 = field.walk();
                let declares = field
                    .children_by_field_name("declarator", &mut c2)
                    .filter_map(|d| d.child_by_field_name("name"))
                    .any(|id| &src[id.byte_range()] == name);
                if declares {
                    let ty = field.child_by_field_name("type")?;
                    return Some(src[ty.byte_range()].to_string());
                }
            }
        }
        node = n.parent();
    }
    None
}

/// `java.util.Map<String, List<Line>>` → (`Map`, [`String`, `List<Line>`]); no arguments for a
/// raw type or an array.
fn split_type(text: &str) -> Option<(String, Vec<String>)> {
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.ends_with(']') || text.starts_with('@') {
        return None;
    }
    let (raw, rest) = match text.find('<') {
        Some(i) => (&text[..i], text[i + 1..].strip_suffix('>')?),
        None => (text.as_str(), ""),
    };
    let raw = raw.rsplit('.').next().unwrap_or(raw).trim().to_string();
    Some((raw, crate::java::split_top_level(rest).into_iter().map(|a| a.trim().to_string()).collect()))
}

/// A type argument as a parameter's type: `? extends T` is `T`; `?` and `? super T` are none.
fn element(arg: &str) -> Option<String> {
    let arg = arg.trim();
    if let Some(bound) = arg.strip_prefix("? extends ") {
        return Some(bound.trim().to_string());
    }
    (!arg.starts_with('?') && !arg.is_empty()).then(|| arg.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_arguments_split_at_the_top_level() {
        assert_eq!(
            split_type("java.util.Map<String, List<Line>>"),
            Some(("Map".into(), vec!["String".into(), "List<Line>".into()]))
        );
        assert_eq!(split_type("List<? extends Foo>"), Some(("List".into(), vec!["? extends Foo".into()])));
        assert_eq!(split_type("List"), Some(("List".into(), vec![])));
        assert_eq!(split_type("String[]"), None);
        assert_eq!(element("? extends Foo").as_deref(), Some("Foo"));
        assert_eq!(element("? super Foo"), None);
        assert_eq!(element("?"), None);
    }
}
