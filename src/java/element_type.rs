//! Two questions the call graph leaves open and refactorings ask when a call does not resolve:
//! is a receiver's declared type a type variable (whose bound may be a project type), and is the
//! receiver an element taken out of a JDK container (`rows.get(i).m()` on a `List<Row>`)?
//!
//! The call graph does not know JDK return types, so `rows.get(i)` has no type there. The few
//! container methods that hand out an element are listed here, so a call on a list element can be
//! attributed to the element type instead of staying unknown.

use super::calls::ReceiverType;
use super::project::{MethodId, Project};
use super::symbols::CallKind;

/// Containers and the index of the type argument their getters return (`Map<K, V>` → `V`).
const CONTAINERS: &[(&str, usize)] = &[
    ("List", 0),
    ("ArrayList", 0),
    ("LinkedList", 0),
    ("Collection", 0),
    ("Set", 0),
    ("SortedSet", 0),
    ("NavigableSet", 0),
    ("TreeSet", 0),
    ("Queue", 0),
    ("Deque", 0),
    ("ArrayDeque", 0),
    ("Iterator", 0),
    ("ListIterator", 0),
    ("Optional", 0),
    ("Map", 1),
    ("HashMap", 1),
    ("LinkedHashMap", 1),
    ("TreeMap", 1),
    ("SortedMap", 1),
    ("NavigableMap", 1),
];

/// Container methods that return one element.
const GETTERS: &[&str] = &[
    "get",
    "getFirst",
    "getLast",
    "remove",
    "removeFirst",
    "removeLast",
    "peek",
    "peekFirst",
    "peekLast",
    "poll",
    "pollFirst",
    "pollLast",
    "pop",
    "element",
    "first",
    "last",
    "next",
    "previous",
    "orElse",
    "orElseThrow",
    "orElseGet",
    "getOrDefault",
];

impl Project {
    /// The type of the receiver of call `call` of `method` when that receiver is an element getter
    /// on a container of declared type (`items.get(i)` with `List<Row> items` → `Row`): a project
    /// type, or the type argument's text when it is outside the project or a type variable.
    /// `None` when the receiver is not such a getter or the element type is not written.
    pub fn element_receiver_type(&self, method: MethodId, call: usize) -> Option<ReceiverType> {
        let calls = &self.method(method).calls;
        let span = calls.get(call)?.receiver_span?;
        let inner =
            calls.iter().position(|c| c.span.start_byte == span.start_byte && c.span.end_byte == span.end_byte)?;
        if calls[inner].kind != CallKind::Method || !GETTERS.contains(&calls[inner].name.as_str()) {
            return None;
        }
        let ReceiverType::External(container) = self.receiver_type(method, inner) else { return None };
        let (raw, rest) = container.split_once('<')?;
        let simple = raw.trim().rsplit('.').next()?;
        let &(_, which) = CONTAINERS.iter().find(|(c, _)| *c == simple)?;
        let type_args = super::split_top_level(rest.trim_end().strip_suffix('>')?);
        let arg = type_args.get(which)?.trim();
        let arg = arg.strip_prefix("? extends ").unwrap_or(arg).trim();
        let arg_raw = arg.split('<').next().unwrap_or(arg).trim();
        if arg.ends_with(']') || arg_raw == "?" || arg_raw.is_empty() {
            return None;
        }
        if self.is_type_variable(method, arg_raw) {
            return Some(ReceiverType::External(arg_raw.to_string()));
        }
        Some(match self.resolve_type(method.file(), Some(self.owner(method).index()), arg_raw) {
            Some(t) => ReceiverType::Project(t),
            None => ReceiverType::External(arg.to_string()),
        })
    }

    /// Whether `ty`, as written in `method`, names a type variable: the method's, an enclosing
    /// type's, or (for types the model cannot see declared, like a callee class's `T`) a short
    /// all-capitals name.
    pub fn is_type_variable(&self, method: MethodId, ty: &str) -> bool {
        let base = ty.split('<').next().unwrap_or(ty).trim();
        if ty.contains('[') || base.contains('.') || base.is_empty() {
            return false;
        }
        if self.method(method).type_params.iter().any(|p| p == base) {
            return true;
        }
        let mut scope = Some(self.owner(method));
        while let Some(t) = scope {
            let decl = self.type_decl(t);
            if decl.type_params.iter().any(|p| p == base) {
                return true;
            }
            scope = decl.parent.map(|p| self.type_id(t.file().index() as u32, p));
        }
        base.len() <= 2 && base.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    }
}

#[cfg(test)]
mod tests {
    use crate::java::calls::ReceiverType;
    use crate::java::project::tests::{project, type_named};

    #[test]
    fn elements_of_declared_containers_have_their_type_argument() {
        let (_d, p) = project(&[
            ("a/Row.java", "package a; public class Row { String name() { return \"\"; } }"),
            (
                "a/Use.java",
                "package a; import java.util.*;\nclass Use<T> {\n  void f(List<Row> rows, Map<String, List<Row>> m, \
                 List<T> ts, List<String> ss, Row r) {\n    rows.get(0).name();\n    m.get(\"k\").size();\n    \
                 ts.get(0).name();\n    ss.get(0).length();\n    r.name();\n  }\n}\n",
            ),
        ]);
        let use_ = type_named(&p, "Use");
        let f = p.methods_of(use_)[0];
        let row = type_named(&p, "Row");
        let calls = &p.method(f).calls;
        let at = |name: &str, skip: usize| {
            calls.iter().enumerate().filter(|(_, c)| c.name == name).nth(skip).map(|(i, _)| i).expect("call")
        };
        assert_eq!(p.element_receiver_type(f, at("name", 0)), Some(ReceiverType::Project(row)));
        assert_eq!(p.element_receiver_type(f, at("size", 0)), Some(ReceiverType::External("List<Row>".into())));
        assert_eq!(p.element_receiver_type(f, at("name", 1)), Some(ReceiverType::External("T".into())));
        assert_eq!(p.element_receiver_type(f, at("length", 0)), Some(ReceiverType::External("String".into())));
        assert_eq!(p.element_receiver_type(f, at("name", 2)), None, "a variable is not an element");
        assert!(p.is_type_variable(f, "T"));
        assert!(!p.is_type_variable(f, "Row"));
    }
}
