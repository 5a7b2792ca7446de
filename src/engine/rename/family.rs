//! The override family and its preconditions: every project method the renamed one overrides or
//! is overridden by, the library methods it must not override, and names that would clash.

use super::describe;
use crate::engine::{Reason, Refusal};
use crate::java::hierarchy::same_signature;
use crate::java::project::{MethodId, Project, TypeId};
use crate::java::symbols::{MethodDecl, TypeKind};
use std::collections::BTreeSet;

/// Can this method override, or be overridden?
pub(crate) fn overridable(m: &MethodDecl) -> bool {
    !m.is_constructor() && !m.is_static() && !m.modifiers.iter().any(|x| x == "private")
}

/// The methods renamed together, and the types where any of them is visible through inheritance.
pub(super) struct Family {
    pub(super) members: BTreeSet<MethodId>,
    /// The owners, their subtypes, and every supertype of those: where a clash or an external
    /// supertype could matter.
    pub(super) related: BTreeSet<TypeId>,
    /// The owners and their subtypes: the types where a member is a (possibly inherited) method.
    pub(super) carriers: BTreeSet<TypeId>,
}

impl Family {
    pub(super) fn of(project: &Project, method: MethodId) -> Family {
        let mut members = BTreeSet::from([method]);
        let mut related = BTreeSet::new();
        let mut carriers = BTreeSet::new();
        let mut queue = vec![method];
        while let Some(m) = queue.pop() {
            let d = project.method(m);
            let owner = project.owner(m);
            // Static methods are inherited too (`Sub.m()`), so a subclass's `new` would capture them;
            // only private methods stay in their class.
            let private = d.modifiers.iter().any(|x| x == "private");
            let below: Vec<TypeId> =
                if !private { std::iter::once(owner).chain(project.subtypes(owner)).collect() } else { vec![owner] };
            for s in below {
                carriers.insert(s);
                for u in std::iter::once(s).chain(project.supertypes(s)) {
                    related.insert(u);
                    if !overridable(d) {
                        continue;
                    }
                    for o in project.methods_of(u) {
                        let od = project.method(o);
                        if overridable(od) && same_signature(d, od) && members.insert(o) {
                            queue.push(o);
                        }
                    }
                }
            }
        }
        Family { members, related, carriers }
    }

    pub(super) fn contains(&self, m: MethodId) -> bool {
        self.members.contains(&m)
    }

    /// Whether a call with `n` arguments could target a member.
    pub(super) fn accepts(&self, project: &Project, n: Option<usize>) -> bool {
        n.is_none_or(|n| self.members.iter().any(|&m| project.method(m).accepts_arity(n)))
    }
}

/// Methods of types outside the project that mantra knows, by the type's simple name: name and
/// erased parameter types (`*` matches any type). `Object` applies to every type.
/// A known method: its name and erased parameter types.
pub(crate) type Known = (&'static str, &'static [&'static str]);

pub(crate) const OBJECT: &[Known] = &[
    ("equals", &["Object"]),
    ("hashCode", &[]),
    ("toString", &[]),
    ("clone", &[]),
    ("finalize", &[]),
    ("getClass", &[]),
    ("notify", &[]),
    ("notifyAll", &[]),
    ("wait", &[]),
    ("wait", &["long"]),
    ("wait", &["long", "int"]),
];

pub(crate) const ENUM: &[Known] = &[
    ("name", &[]),
    ("ordinal", &[]),
    ("compareTo", &["*"]),
    ("getDeclaringClass", &[]),
    ("describeConstable", &[]),
    ("values", &[]),
    ("valueOf", &["String"]),
];

pub(crate) const THROWABLE: &[Known] = &[
    ("getMessage", &[]),
    ("getLocalizedMessage", &[]),
    ("getCause", &[]),
    ("initCause", &["Throwable"]),
    ("fillInStackTrace", &[]),
    ("printStackTrace", &[]),
    ("printStackTrace", &["*"]),
    ("getStackTrace", &[]),
    ("setStackTrace", &["*"]),
    ("addSuppressed", &["Throwable"]),
    ("getSuppressed", &[]),
];

pub(crate) const KNOWN: &[(&str, &[Known])] = &[
    ("Comparable", &[("compareTo", &["*"])]),
    ("Runnable", &[("run", &[])]),
    ("Callable", &[("call", &[])]),
    ("AutoCloseable", &[("close", &[])]),
    ("Closeable", &[("close", &[])]),
    ("Cloneable", &[]),
    (
        "Serializable",
        &[
            ("writeObject", &["ObjectOutputStream"]),
            ("readObject", &["ObjectInputStream"]),
            ("readObjectNoData", &[]),
            ("readResolve", &[]),
            ("writeReplace", &[]),
        ],
    ),
    ("Iterable", &[("iterator", &[]), ("forEach", &["*"]), ("spliterator", &[])]),
    ("Iterator", &[("hasNext", &[]), ("next", &[]), ("remove", &[]), ("forEachRemaining", &["*"])]),
    ("Supplier", &[("get", &[])]),
    ("Consumer", &[("accept", &["*"]), ("andThen", &["*"])]),
    ("BiConsumer", &[("accept", &["*", "*"]), ("andThen", &["*"])]),
    ("Function", &[("apply", &["*"]), ("andThen", &["*"]), ("compose", &["*"])]),
    ("BiFunction", &[("apply", &["*", "*"]), ("andThen", &["*"])]),
    ("Predicate", &[("test", &["*"]), ("and", &["*"]), ("or", &["*"]), ("negate", &[])]),
    (
        "Comparator",
        &[
            ("compare", &["*", "*"]),
            ("reversed", &[]),
            ("thenComparing", &["*"]),
            ("thenComparing", &["*", "*"]),
            ("thenComparingInt", &["*"]),
            ("thenComparingLong", &["*"]),
            ("thenComparingDouble", &["*"]),
        ],
    ),
    // JUnit 3: its test methods (`testX`) override nothing; these are what a test case can override.
    (
        "TestCase",
        &[
            ("setUp", &[]),
            ("tearDown", &[]),
            ("runTest", &[]),
            ("runBare", &[]),
            ("run", &[]),
            ("run", &["TestResult"]),
            ("countTestCases", &[]),
            ("createResult", &[]),
            ("getName", &[]),
            ("setName", &["String"]),
        ],
    ),
    ("Throwable", THROWABLE),
    ("Exception", THROWABLE),
    ("RuntimeException", THROWABLE),
    ("Error", THROWABLE),
    ("IllegalArgumentException", THROWABLE),
    ("IllegalStateException", THROWABLE),
    ("UnsupportedOperationException", THROWABLE),
    ("IOException", THROWABLE),
];

pub(crate) fn known_methods(simple: &str) -> Option<&'static [Known]> {
    KNOWN.iter().find(|(t, _)| *t == simple).map(|(_, ms)| *ms)
}

/// Whether `name` with the parameters of `m` takes as many arguments as a table entry: a new name
/// that does would overload (or override) it, and calls could change target.
pub(super) fn same_arity_entry(entry: &Known, name: &str, m: &MethodDecl) -> bool {
    entry.0 == name && entry.1.len() == m.params.len()
}

/// Whether `name` with the erased parameter types `erased` (`List`, `int[]`) matches a table entry.
pub(crate) fn matches_erased(entry: &Known, name: &str, erased: &[String]) -> bool {
    entry.0 == name && entry.1.len() == erased.len() && entry.1.iter().zip(erased).all(|(t, e)| *t == "*" || e == t)
}

/// The library method a method overrides, when mantra knows it (`Object.toString`): one of
/// `Object`'s, of `Enum`'s in an enum, or of a supertype in [`KNOWN`] among the simple names
/// `supertypes`. `is` tells whether the method matches an entry.
pub(crate) fn known_override<'s>(
    is: impl Fn(&Known) -> bool,
    in_enum: bool,
    supertypes: impl IntoIterator<Item = &'s str>,
) -> Option<String> {
    let found = |owner: &str, table: &[Known]| table.iter().find(|e| is(e)).map(|e| format!("{owner}.{}", e.0));
    found("Object", OBJECT)
        .or_else(|| if in_enum { found("Enum", ENUM) } else { None })
        .or_else(|| supertypes.into_iter().find_map(|t| found(t, known_methods(t)?)))
}

/// Whether `name(params of m)` matches a table entry.
pub(crate) fn matches_entry(entry: &Known, name: &str, m: &MethodDecl) -> bool {
    entry.0 == name
        && entry.1.len() == m.params.len()
        && entry.1.iter().zip(&m.params).all(|(t, p)| *t == "*" || p.generic || p.ty.erased() == *t)
}

/// The family must not override, nor come to override, a method of a type outside the project.
pub(super) fn check_external(project: &Project, family: &Family, old: &str, new: &str) -> Result<(), Refusal> {
    let target = *family.members.first().unwrap_or_else(|| unreachable!("a family holds at least its method"));
    for &m in &family.members {
        let d = project.method(m);
        let who = describe(project, m);
        if let Some(e) = OBJECT.iter().find(|e| matches_entry(e, old, d)) {
            return Err(Refusal::new(
                Reason::OverridesExternal,
                format!("{who} overrides `Object.{}`; its callers include the JDK, which mantra cannot rename", e.0),
            ));
        }
        if let Some(e) = OBJECT.iter().find(|e| same_arity_entry(e, new, d)) {
            return Err(Refusal::new(
                Reason::NameClash,
                format!(
                    "renaming {who} to `{new}` would override or overload `Object.{}`, so calls could change target; choose another name",
                    e.0
                ),
            ));
        }
        if d.annotations.iter().any(|a| a == "@Override" || a == "@java.lang.Override")
            && project.overrides(m).is_empty()
        {
            let outside = project.external_supertypes(project.owner(m));
            return Err(Refusal::new(
                Reason::OverridesExternal,
                format!(
                    "{who} is marked @Override but overrides no project method: it overrides a method of {}, \
                     outside the project, which mantra cannot rename",
                    if outside.is_empty() { "a type outside the project".to_string() } else { outside.join(", ") }
                ),
            ));
        }
    }
    let sample = project.method(target);
    let can_override = overridable(sample);
    for &t in &family.related {
        let decl = project.type_decl(t);
        let mut tables: Vec<(String, &[Known])> = Vec::new();
        if decl.kind == TypeKind::Enum {
            tables.push(("Enum".into(), ENUM));
        }
        for s in project.direct_supertypes(t).into_iter().filter(|s| s.resolved.is_none()) {
            match known_methods(s.name.simple()) {
                Some(ms) => tables.push((s.name.text.clone(), ms)),
                // A library supertype whose methods mantra cannot list: `old` may override one of
                // them, or `new` may come to. Private and static methods cannot override.
                None if can_override && family.carriers.contains(&t) => {
                    return Err(Refusal::new(
                        Reason::OverridesExternal,
                        format!(
                            "`{}` extends `{}`, which is outside the project; mantra cannot list its methods, so it \
                             cannot rule out that `{old}` overrides one of them (or that `{new}` would). Rename it \
                             with a tool that sees the library's classes",
                            decl.display, s.name.text
                        ),
                    ));
                }
                None => {}
            }
        }
        for (ty, table) in tables {
            if let Some(e) = table.iter().find(|e| matches_entry(e, old, sample)) {
                return Err(Refusal::new(
                    Reason::OverridesExternal,
                    format!(
                        "{} implements `{ty}.{}` (through `{}`), outside the project; callers in the JDK or libraries \
                         call it by that name",
                        describe(project, target),
                        e.0,
                        decl.display
                    ),
                ));
            }
            if let Some(e) = table.iter().find(|e| same_arity_entry(e, new, sample)) {
                return Err(Refusal::new(
                    Reason::NameClash,
                    format!(
                        "`{}` inherits `{ty}.{}` from outside the project; renaming {} to `{new}` would override or \
                         overload it, so calls could change target. Choose another name",
                        decl.display,
                        e.0,
                        describe(project, target)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Whether some argument count is accepted by both methods.
pub(super) fn arities_overlap(a: &MethodDecl, b: &MethodDecl) -> bool {
    let range = |m: &MethodDecl| match m.params.last() {
        Some(p) if p.varargs => (m.params.len() - 1, usize::MAX),
        _ => (m.params.len(), m.params.len()),
    };
    let (a0, a1) = range(a);
    let (b0, b1) = range(b);
    a0 <= b1 && b0 <= a1
}

/// The new name must not meet a method of the family's hierarchy that a call could confuse with it.
pub(super) fn check_clash(project: &Project, family: &Family, new: &str) -> Result<(), Refusal> {
    for &t in &family.related {
        for o in project.methods_of(t) {
            let od = project.method(o);
            if od.name != new || od.is_constructor() || family.contains(o) {
                continue;
            }
            let Some(&m) = family.members.iter().find(|&&m| arities_overlap(project.method(m), od)) else {
                continue;
            };
            let md = project.method(m);
            let exact = md.params.len() == od.params.len()
                && md.params.iter().zip(&od.params).all(|(x, y)| x.ty.erased() == y.ty.erased());
            let at = format!("{}:{}", project.path(o.file()).display(), od.span.start_line);
            let message = if exact {
                format!(
                    "`{}` already declares `{}` ({at}) with the same erased parameter types as {}; renaming would \
                     {} it. Choose another name",
                    project.type_decl(t).display,
                    od.signature(),
                    describe(project, m),
                    if family.carriers.contains(&t) && !project.supertypes(project.owner(m)).contains(&t) {
                        "clash with"
                    } else {
                        "override or clash with"
                    }
                )
            } else {
                format!(
                    "`{}` already has `{}` ({at}), which takes as many arguments as {}; the overload would make \
                     existing calls of either method ambiguous or change their target. Choose another name",
                    project.type_decl(t).display,
                    od.signature(),
                    describe(project, m)
                )
            };
            return Err(Refusal::new(Reason::NameClash, message));
        }
    }
    Ok(())
}
