//! Rename Method: the declaration, call sites, method references, and the overriding and
//! overridden methods in the project.
//!
//! A method is renamed together with its *family*: every project method it overrides, every one
//! that overrides it, transitively, and the methods a subclass makes implement the same interface
//! method (`class C extends A implements I` where `A.m` implements `I.m`). Renaming only part of a
//! family silently changes dispatch, so the family moves as one.
//!
//! Only the name token changes, at every place that names a member of the family: declarations,
//! calls (`m()`, `x.m()`, `super.m()`, calls from inner and anonymous classes and from tests),
//! method references (`Type::m`, `this::m`, `expr::m`), single static imports, and Javadoc
//! `{@link #m}` / `{@link Type#m(int)}` / `@see` references. Every other byte stays as it was.
//!
//! The engine refuses, with a stable reason, whenever it cannot show that the rename keeps every
//! call going where it went:
//! - `constructor`, `invalid_name`, `same_name`, `syntax_error`, `record_accessor`;
//! - `overrides_external`: the family overrides a method of a type outside the project (`toString`,
//!   `compareTo`, `run`), or extends a library type whose methods mantra cannot list;
//! - `name_clash`: the new name already names a method with an overlapping number of parameters in
//!   the family's hierarchy (an exact clash breaks compilation; a same-arity overload can quietly
//!   capture existing calls), would override a method of `Object` or a known JDK supertype, or
//!   would shadow / be shadowed by a method of an enclosing class for unqualified calls;
//! - `unresolved_calls`: calls named like the method whose target the model cannot pin down.
//!
//! Out of scope, by construction of a static model: reflection (`getMethod("m")`), method names in
//! strings, configuration files or other languages, and code outside the project's sources.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use tree_sitter::Node;

use super::{ChangeSet, Edit, Reason, Refusal};
use crate::java::Resolution;
use crate::java::calls::ReceiverType;
use crate::java::hierarchy::same_signature;
use crate::java::project::{FileId, MethodId, Project, TypeId};
use crate::java::source::SourceFile;
use crate::java::symbols::{CallKind, FieldKind, MethodDecl, Receiver, TypeKind};
use crate::java::syntax::{is_java_identifier, is_reserved, walk};

/// What Rename Method needs beyond the method: the new name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RenameSpec {
    pub new_name: String,
}

/// How many doubtful call sites a refusal lists before "and N more".
const LISTED: usize = 5;

/// Renames `method` and everything that must change with it, or refuses.
pub fn rename_method(project: &Project, method: MethodId, spec: &RenameSpec) -> Result<ChangeSet, Refusal> {
    let decl = project.method(method);
    let old = decl.name.clone();
    let new = spec.new_name.as_str();
    check_name(project, method, new)?;
    let family = Family::of(project, method);
    check_external(project, &family, &old, new)?;
    check_clash(project, &family, new)?;
    let mut renamer = Renamer {
        project,
        family: &family,
        old: &old,
        new,
        edits: BTreeMap::new(),
        inserts: Vec::new(),
        unqualified: Vec::new(),
        doubts: Vec::new(),
    };
    for &m in &family.members {
        let d = project.method(m);
        renamer.add(m.file(), d.name_span.range());
    }
    for f in project.files_containing(&old) {
        renamer.scan_file(f)?;
    }
    renamer.check_captured_calls()?;
    if !renamer.doubts.is_empty() {
        return Err(renamer.doubt_refusal());
    }
    renamer.change_set()
}

fn describe(project: &Project, m: MethodId) -> String {
    format!("{}.{}", project.type_decl(project.owner(m)).display, project.method(m).signature())
}

fn check_name(project: &Project, method: MethodId, new: &str) -> Result<(), Refusal> {
    let decl = project.method(method);
    if decl.is_constructor() {
        return Err(Refusal::new(
            Reason::Constructor,
            format!("`{}` is a constructor; its name is its class's name: rename the class instead", decl.signature()),
        ));
    }
    if is_reserved(new) {
        return Err(Refusal::new(Reason::InvalidName, format!("`{new}` is a Java keyword; choose another name")));
    }
    if !is_java_identifier(new) {
        return Err(Refusal::new(
            Reason::InvalidName,
            format!("`{new}` is not a Java identifier: use letters, digits, `_` or `$`, not starting with a digit"),
        ));
    }
    if new == decl.name {
        return Err(Refusal::new(
            Reason::SameName,
            format!("the method is already called `{new}`; choose a different name"),
        ));
    }
    let source = project.method_source(method);
    if let Some(err) = source.syntax_error() {
        return Err(syntax_refusal(source, err.line, &err.snippet));
    }
    let owner = project.type_decl(project.owner(method));
    if owner.kind == TypeKind::Record
        && decl.params.is_empty()
        && owner.fields.iter().any(|f| f.kind == FieldKind::RecordComponent && f.name == decl.name)
    {
        return Err(Refusal::new(
            Reason::RecordAccessor,
            format!(
                "`{}()` is the accessor of record component `{}`; renaming it would leave the implicit accessor \
                 behind: rename the component instead",
                decl.name, decl.name
            ),
        ));
    }
    Ok(())
}

fn syntax_refusal(source: &SourceFile, line: usize, snippet: &str) -> Refusal {
    Refusal::new(
        Reason::SyntaxError,
        format!(
            "{} has a syntax error at line {line} (`{snippet}`), so its calls cannot be read reliably; fix it first",
            source.path.display()
        ),
    )
}

/// Can this method override, or be overridden?
fn overridable(m: &MethodDecl) -> bool {
    !m.is_constructor() && !m.is_static() && !m.modifiers.iter().any(|x| x == "private")
}

/// The methods renamed together, and the types where any of them is visible through inheritance.
struct Family {
    members: BTreeSet<MethodId>,
    /// The owners, their subtypes, and every supertype of those: where a clash or an external
    /// supertype could matter.
    related: BTreeSet<TypeId>,
    /// The owners and their subtypes: the types where a member is a (possibly inherited) method.
    carriers: BTreeSet<TypeId>,
}

impl Family {
    fn of(project: &Project, method: MethodId) -> Family {
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

    fn contains(&self, m: MethodId) -> bool {
        self.members.contains(&m)
    }

    /// Whether a call with `n` arguments could target a member.
    fn accepts(&self, project: &Project, n: Option<usize>) -> bool {
        n.is_none_or(|n| self.members.iter().any(|&m| project.method(m).accepts_arity(n)))
    }
}

/// Methods of types outside the project that mantra knows, by the type's simple name: name and
/// erased parameter types (`*` matches any type). `Object` applies to every type.
/// A known method: its name and erased parameter types.
type Known = (&'static str, &'static [&'static str]);

const OBJECT: &[Known] = &[
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

const ENUM: &[Known] = &[
    ("name", &[]),
    ("ordinal", &[]),
    ("compareTo", &["*"]),
    ("getDeclaringClass", &[]),
    ("describeConstable", &[]),
    ("values", &[]),
    ("valueOf", &["String"]),
];

const THROWABLE: &[Known] = &[
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

const KNOWN: &[(&str, &[Known])] = &[
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
    ("Throwable", THROWABLE),
    ("Exception", THROWABLE),
    ("RuntimeException", THROWABLE),
    ("Error", THROWABLE),
    ("IllegalArgumentException", THROWABLE),
    ("IllegalStateException", THROWABLE),
    ("UnsupportedOperationException", THROWABLE),
    ("IOException", THROWABLE),
];

fn known_methods(simple: &str) -> Option<&'static [Known]> {
    KNOWN.iter().find(|(t, _)| *t == simple).map(|(_, ms)| *ms)
}

/// Whether `name` with the parameters of `m` takes as many arguments as a table entry: a new name
/// that does would overload (or override) it, and calls could change target.
fn same_arity_entry(entry: &Known, name: &str, m: &MethodDecl) -> bool {
    entry.0 == name && entry.1.len() == m.params.len()
}

/// Whether `name(params of m)` matches a table entry.
fn matches_entry(entry: &Known, name: &str, m: &MethodDecl) -> bool {
    entry.0 == name
        && entry.1.len() == m.params.len()
        && entry.1.iter().zip(&m.params).all(|(t, p)| *t == "*" || p.generic || p.ty.erased() == *t)
}

/// The family must not override, nor come to override, a method of a type outside the project.
fn check_external(project: &Project, family: &Family, old: &str, new: &str) -> Result<(), Refusal> {
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
fn arities_overlap(a: &MethodDecl, b: &MethodDecl) -> bool {
    let range = |m: &MethodDecl| match m.params.last() {
        Some(p) if p.varargs => (m.params.len() - 1, usize::MAX),
        _ => (m.params.len(), m.params.len()),
    };
    let (a0, a1) = range(a);
    let (b0, b1) = range(b);
    a0 <= b1 && b0 <= a1
}

/// The new name must not meet a method of the family's hierarchy that a call could confuse with it.
fn check_clash(project: &Project, family: &Family, new: &str) -> Result<(), Refusal> {
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

/// One call-like occurrence of the old name found in the syntax tree.
struct Occurrence<'t> {
    node: Node<'t>,
    /// The name token.
    name: std::ops::Range<usize>,
    /// `None` for method references.
    args: Option<usize>,
}

/// Every `old(...)` invocation and `...::old` reference in a file, modeled by the call graph or not.
fn occurrences<'t>(source: &'t SourceFile, old: &str) -> Vec<Occurrence<'t>> {
    let text = source.text.as_str();
    let mut out = Vec::new();
    walk(source.root(), &mut |n| {
        match n.kind() {
            "method_invocation" => {
                if let Some(name) = n.child_by_field_name("name")
                    && &text[name.byte_range()] == old
                {
                    let args = n.child_by_field_name("arguments").map(|a| {
                        let mut c = a.walk();
                        a.named_children(&mut c)
                            .filter(|x| !matches!(x.kind(), "line_comment" | "block_comment"))
                            .count()
                    });
                    out.push(Occurrence { node: n, name: name.byte_range(), args });
                }
            }
            "method_reference" => {
                let last = n.child(n.child_count().saturating_sub(1));
                if let Some(name) = last
                    && name.kind() == "identifier"
                    && &text[name.byte_range()] == old
                {
                    out.push(Occurrence { node: n, name: name.byte_range(), args: None });
                }
            }
            _ => {}
        }
        true
    });
    out
}

struct Renamer<'a> {
    project: &'a Project,
    family: &'a Family,
    old: &'a str,
    new: &'a str,
    /// Name-token ranges to replace, per file.
    edits: BTreeMap<FileId, BTreeSet<(usize, usize)>>,
    /// Text to insert: (file, byte, text).
    inserts: Vec<(FileId, usize, String)>,
    /// Renamed calls without a receiver: (calling method, call index).
    unqualified: Vec<(MethodId, usize)>,
    /// Call sites whose target cannot be decided: `path:line `text` (why)`.
    doubts: Vec<String>,
}

/// What a call or reference named like the method turned out to be.
enum Verdict {
    Ours,
    NotOurs,
    Doubt(String),
}

impl Renamer<'_> {
    fn add(&mut self, file: FileId, range: std::ops::Range<usize>) {
        self.edits.entry(file).or_default().insert((range.start, range.end));
    }

    fn scan_file(&mut self, f: FileId) -> Result<(), Refusal> {
        let project = self.project;
        let file = project.file(f).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?;
        let source = &file.source;
        let found = occurrences(source, self.old);
        if let Some(err) = source.syntax_error()
            && !found.is_empty()
        {
            return Err(syntax_refusal(source, err.line, &err.snippet));
        }
        let methods = project.methods_in(f).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?;
        let mut modeled: HashMap<(usize, usize), (MethodId, usize)> = HashMap::new();
        for &m in &methods {
            for (ci, c) in project.method(m).calls.iter().enumerate() {
                if matches!(c.kind, CallKind::Method | CallKind::MethodRef) && c.name == self.old {
                    modeled.insert((c.span.start_byte, c.span.end_byte), (m, ci));
                }
            }
        }
        for occ in &found {
            let key = (occ.node.start_byte(), occ.node.end_byte());
            let verdict = match modeled.get(&key) {
                Some(&(m, ci)) => {
                    let verdict = self.modeled_call(m, ci);
                    if matches!(verdict, Verdict::Ours) && project.method(m).calls[ci].receiver == Receiver::Implicit {
                        self.unqualified.push((m, ci));
                    }
                    verdict
                }
                None => self.unmodeled_call(f, occ),
            };
            match verdict {
                Verdict::Ours => self.add(f, occ.name.clone()),
                Verdict::NotOurs => {}
                Verdict::Doubt(why) => {
                    let line = source.line_of(occ.node.start_byte());
                    let text: String = source.text_of(occ.node).split_whitespace().collect::<Vec<_>>().join(" ");
                    let text = if text.chars().count() > 60 {
                        text.chars().take(57).collect::<String>() + "..."
                    } else {
                        text
                    };
                    self.doubts.push(format!("{}:{line} `{text}` ({why})", project.path(f).display()));
                }
            }
        }
        self.static_imports(f);
        self.javadoc_links(f, source);
        Ok(())
    }

    /// A call the call graph knows: resolved, ambiguous or unresolved.
    fn modeled_call(&self, m: MethodId, ci: usize) -> Verdict {
        let project = self.project;
        let site = &project.method(m).calls[ci];
        if !self.family.accepts(project, site.arg_count()) {
            return Verdict::NotOurs;
        }
        match project.resolve_call(m, ci) {
            Resolution::Resolved { method } => {
                if self.family.contains(method) {
                    Verdict::Ours
                } else {
                    Verdict::NotOurs
                }
            }
            Resolution::Ambiguous { candidates } => {
                let ours = candidates.iter().filter(|&&c| self.family.contains(c)).count();
                if ours == 0 {
                    Verdict::NotOurs
                } else if ours == candidates.len() {
                    Verdict::Ours
                } else {
                    let names: Vec<String> = candidates.iter().map(|&c| describe(project, c)).collect();
                    Verdict::Doubt(format!("the arguments do not tell {} apart", names.join(" from ")))
                }
            }
            Resolution::Unresolved { .. } => self.unresolved(m, ci, site.arg_count()),
        }
    }

    /// The policy for a call the model could not resolve. It is renamed never; it is a doubt (and
    /// the rename is refused) when a member of the family could be its target:
    /// - no receiver, `this`, `super`: the model searched every enclosing type and its project
    ///   supertypes; a doubt only if the first scope declaring the name holds a family member
    ///   (the model then failed on argument types, not on the name);
    /// - a receiver of a project type: a doubt only if that type's hierarchy holds a member;
    /// - a receiver of a type outside the project (`List`, `String`, an array): not ours, since
    ///   the family overrides nothing outside the project (checked before). A type variable (`T`)
    ///   is not "outside": its bound may be a project type, so it is a doubt;
    /// - a name that is no variable and no project type: if capitalised it is a class outside the
    ///   project (`Math`, `System.out`), not ours; otherwise a field inherited from outside, a doubt;
    /// - any other expression of unknown type (`list.get(0).m()`, `var x`): a doubt.
    fn unresolved(&self, m: MethodId, ci: usize, args: Option<usize>) -> Verdict {
        let project = self.project;
        match project.receiver_type(m, ci) {
            ReceiverType::Enclosing => self.scope_lookup(project.owner(m), args),
            ReceiverType::Project(t) => self.type_lookup(t, args),
            ReceiverType::External(ty) => {
                if self.project.is_type_variable(m, &ty) {
                    Verdict::Doubt(format!("the receiver's type `{ty}` is a type variable"))
                } else {
                    Verdict::NotOurs
                }
            }
            ReceiverType::UnknownName(n) if n.starts_with(|c: char| c.is_uppercase()) => Verdict::NotOurs,
            ReceiverType::UnknownName(n) => {
                Verdict::Doubt(format!("`{n}` is not a variable mantra can see, so its type is unknown"))
            }
            ReceiverType::Unknown => self
                .element_of_container(m, ci, args)
                .unwrap_or_else(|| Verdict::Doubt("the receiver's type is not known".into())),
        }
    }

    /// `items.get(i).old()` where `items` is declared `List<Row>`: the receiver is a `Row`
    /// ([`Project::element_receiver_type`]), so calls on list elements do not all become doubts.
    fn element_of_container(&self, m: MethodId, ci: usize, args: Option<usize>) -> Option<Verdict> {
        Some(match self.project.element_receiver_type(m, ci)? {
            ReceiverType::Project(t) => self.type_lookup(t, args),
            ReceiverType::External(ty) if self.project.is_type_variable(m, &ty) => {
                Verdict::Doubt(format!("the receiver is an element of type `{ty}`, a type variable"))
            }
            _ => Verdict::NotOurs,
        })
    }

    fn parent(&self, t: TypeId) -> Option<TypeId> {
        let p = self.project.type_decl(t).parent?;
        self.project.types_in(t.file()).ok()?.get(p as usize).copied()
    }

    /// Methods named `name` in `ty` and its project supertypes.
    fn named_in(&self, ty: TypeId, name: &str) -> Vec<MethodId> {
        let project = self.project;
        std::iter::once(ty)
            .chain(project.supertypes(ty))
            .flat_map(|u| project.methods_of(u))
            .filter(|&o| project.method(o).name == name && !project.method(o).is_constructor())
            .collect()
    }

    /// The verdict for `old(args)` looked up in `ty`'s hierarchy.
    fn type_lookup(&self, ty: TypeId, args: Option<usize>) -> Verdict {
        let project = self.project;
        let cands: Vec<MethodId> = self
            .named_in(ty, self.old)
            .into_iter()
            .filter(|&o| args.is_none_or(|n| project.method(o).accepts_arity(n)))
            .collect();
        let ours = cands.iter().filter(|&&c| self.family.contains(c)).count();
        if ours == 0 {
            Verdict::NotOurs
        } else if ours == cands.len() && self.all_same_signature(&cands) {
            Verdict::Ours
        } else {
            Verdict::Doubt(format!(
                "`{}` has several `{}` that this call could mean",
                project.type_decl(ty).display,
                self.old
            ))
        }
    }

    fn all_same_signature(&self, cands: &[MethodId]) -> bool {
        let project = self.project;
        cands.windows(2).all(|w| same_signature(project.method(w[0]), project.method(w[1])))
    }

    /// The verdict for an unqualified `old(args)` in `ty`: Java searches the innermost enclosing
    /// type that has a method of that name, then the file's static imports.
    fn scope_lookup(&self, ty: TypeId, args: Option<usize>) -> Verdict {
        let project = self.project;
        let mut scope = Some(ty);
        while let Some(t) = scope {
            if !self.named_in(t, self.old).is_empty() {
                return self.type_lookup(t, args);
            }
            scope = self.parent(t);
        }
        let imports = &project.symbols_of(ty).imports;
        for imp in imports.iter().filter(|i| i.is_static) {
            let ty_path = if imp.wildcard {
                imp.path.as_str()
            } else {
                match imp.path.rsplit_once('.') {
                    Some((t, member)) if member == self.old => t,
                    _ => continue,
                }
            };
            if let Some(t) = project.find_type(ty_path)
                && !self.named_in(t, self.old).is_empty()
            {
                return self.type_lookup(t, args);
            }
        }
        Verdict::NotOurs
    }

    /// A call outside any method body (field initializer, initializer block): the call graph does
    /// not record these, so they are looked up here from the syntax, with the same policy.
    fn unmodeled_call(&self, f: FileId, occ: &Occurrence<'_>) -> Verdict {
        let project = self.project;
        let Some(scope) = self.enclosing_type(f, occ.node.start_byte()) else {
            return Verdict::Doubt("outside any type".into());
        };
        let object = match occ.node.kind() {
            "method_invocation" => occ.node.child_by_field_name("object"),
            _ => occ.node.child(0),
        };
        let Some(object) = object else { return self.scope_lookup(scope, occ.args) };
        let text = project.file(f).map(|x| x.source.text_of(object).to_string()).unwrap_or_default();
        match object.kind() {
            "this" | "super" => self.scope_lookup(scope, occ.args),
            "identifier" | "type_identifier" | "scoped_identifier" | "scoped_type_identifier" | "field_access" => {
                if let Some(t) = project.resolve_type(f, Some(scope.index()), &text) {
                    return self.type_lookup(t, occ.args);
                }
                let field = std::iter::once(scope).chain(project.supertypes(scope)).find_map(|t| {
                    project.type_decl(t).fields.iter().find(|x| x.name == text).map(|x| (t, x.ty.clone()))
                });
                match field {
                    Some((owner, ty)) => match project.resolve_type(owner.file(), Some(owner.index()), &ty.raw) {
                        Some(t) if ty.dims == 0 => self.type_lookup(t, occ.args),
                        _ if ty.raw.len() <= 2 => {
                            Verdict::Doubt(format!("`{text}` has type `{}`, a type variable", ty.text))
                        }
                        _ => Verdict::NotOurs,
                    },
                    None if text.starts_with(|c: char| c.is_uppercase()) => Verdict::NotOurs,
                    None => Verdict::Doubt(format!("`{text}` is not a field mantra can see")),
                }
            }
            _ => Verdict::Doubt("outside a method body, on a receiver whose type is not known".into()),
        }
    }

    /// The innermost type whose declaration contains byte `at`.
    fn enclosing_type(&self, f: FileId, at: usize) -> Option<TypeId> {
        let types = self.project.types_in(f).ok()?;
        types
            .into_iter()
            .filter(|&t| {
                let s = &self.project.type_decl(t).span;
                s.start_byte <= at && at < s.end_byte
            })
            .min_by_key(|&t| {
                let s = &self.project.type_decl(t).span;
                s.end_byte - s.start_byte
            })
    }

    /// `import static a.B.old;` naming a static member of the family: renamed, or, if the import
    /// also brings in other members called `old`, kept with a second import for the new name.
    fn static_imports(&mut self, f: FileId) {
        let project = self.project;
        let Ok(file) = project.file(f) else { return };
        for imp in file.symbols.imports.iter().filter(|i| i.is_static && !i.wildcard) {
            let Some((ty, member)) = imp.path.rsplit_once('.') else { continue };
            if member != self.old {
                continue;
            }
            let Some(t) = project.find_type(ty) else { continue };
            let named = self.named_in(t, self.old);
            if !named.iter().any(|&m| self.family.contains(m)) {
                continue;
            }
            let text = file.source.slice(&imp.span);
            let Some(at) = text.rfind(self.old) else { continue };
            let start = imp.span.start_byte + at;
            let others = named.iter().any(|&m| !self.family.contains(m))
                || project.type_decl(t).fields.iter().any(|x| x.name == self.old);
            if others {
                self.inserts.push((f, imp.span.end_byte, format!("\nimport static {ty}.{};", self.new)));
            } else {
                self.add(f, start..start + self.old.len());
            }
        }
    }

    /// `{@link #old}`, `{@link Type#old(int)}`, `@see #old` in Javadoc comments.
    fn javadoc_links(&mut self, f: FileId, source: &SourceFile) {
        let project = self.project;
        let text = source.text.as_str();
        let mut comments = Vec::new();
        walk(source.root(), &mut |n| {
            if n.kind() == "block_comment" && text[n.byte_range()].starts_with("/**") {
                comments.push(n.byte_range());
            }
            true
        });
        let pattern = format!("#{}", self.old);
        for range in comments {
            let doc = &text[range.clone()];
            let mut from = 0;
            while let Some(i) = doc[from..].find(&pattern) {
                let hash = range.start + from + i;
                from += i + pattern.len();
                let name_start = hash + 1;
                let name_end = name_start + self.old.len();
                if text[name_end..].starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$') {
                    continue;
                }
                let before = &text[range.start..hash];
                let ty_start = before
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$'))
                    .map_or(0, |p| p + 1);
                let ty_name = &before[ty_start..];
                let params = text[name_end..].strip_prefix('(').and_then(|rest| rest.split_once(')')).map(|(p, _)| {
                    p.split(',')
                        .map(|x| x.split_whitespace().next().unwrap_or("").to_string())
                        .filter(|x| !x.is_empty())
                        .map(|x| crate::java::syntax::erased_type(&x))
                        .collect::<Vec<_>>()
                });
                let scope = self.enclosing_type(f, range.start).or_else(|| {
                    project.types_in(f).ok()?.into_iter().find(|&t| project.type_decl(t).span.start_byte >= range.end)
                });
                let ty =
                    if ty_name.is_empty() { scope } else { project.resolve_type(f, scope.map(|s| s.index()), ty_name) };
                let Some(ty) = ty else { continue };
                let cands: Vec<MethodId> = self
                    .named_in(ty, self.old)
                    .into_iter()
                    .filter(|&m| match &params {
                        Some(ps) => project.method(m).erased_params() == *ps,
                        None => true,
                    })
                    .collect();
                if !cands.is_empty() && cands.iter().all(|&m| self.family.contains(m)) {
                    self.add(f, name_start..name_end);
                }
            }
        }
    }

    /// Existing calls named `new` that the renamed method would capture, and renamed unqualified
    /// calls that a method of an enclosing class named `new` would capture: Java binds an
    /// unqualified name to the innermost class that has a method of that name, whatever its
    /// parameters, so either way a call would change target or stop compiling.
    fn check_captured_calls(&self) -> Result<(), Refusal> {
        let project = self.project;
        let mut captured = Vec::new();
        for f in project.files_containing(self.new) {
            let Ok(methods) = project.methods_in(f) else { continue };
            for m in methods {
                for (ci, c) in project.method(m).calls.iter().enumerate() {
                    if c.name != self.new || c.kind != CallKind::Method || c.receiver != Receiver::Implicit {
                        continue;
                    }
                    let mut scope = Some(project.owner(m));
                    while let Some(t) = scope {
                        let named = self.named_in(t, self.new);
                        if !named.is_empty() {
                            break;
                        }
                        if self.named_in(t, self.old).iter().any(|&x| self.family.contains(x)) {
                            captured.push(format!(
                                "{}:{} `{}` would call the renamed method of `{}`",
                                project.path(f).display(),
                                c.span.start_line,
                                project.call_text(m, ci),
                                project.type_decl(t).display
                            ));
                            break;
                        }
                        scope = self.parent(t);
                    }
                }
            }
        }
        // renamed unqualified calls: no enclosing scope before the one holding the family may have `new`
        for &(m, ci) in &self.unqualified {
            let mut scope = Some(project.owner(m));
            while let Some(t) = scope {
                if self.named_in(t, self.old).iter().any(|&x| self.family.contains(x)) {
                    break;
                }
                if let Some(&other) = self.named_in(t, self.new).first() {
                    captured.push(format!(
                        "{}:{} `{}` would call {} instead",
                        project.path(m.file()).display(),
                        project.method(m).calls[ci].span.start_line,
                        project.call_text(m, ci),
                        describe(project, other)
                    ));
                    break;
                }
                scope = self.parent(t);
            }
        }
        if captured.is_empty() {
            return Ok(());
        }
        Err(Refusal::new(
            Reason::NameClash,
            format!(
                "renaming to `{}` would change what unqualified calls mean: {}. Choose another name",
                self.new,
                list(&captured)
            ),
        ))
    }

    fn doubt_refusal(&self) -> Refusal {
        let target = *self.family.members.first().unwrap_or_else(|| unreachable!("a family holds at least its method"));
        Refusal::new(
            Reason::UnresolvedCalls,
            format!(
                "{} call(s) named `{}` may or may not call {}, and mantra will not guess: {}. Give those receivers \
                 a declared project type (or cast them), or rename the calls by hand",
                self.doubts.len(),
                self.old,
                describe(self.project, target),
                list(&self.doubts)
            ),
        )
    }

    fn change_set(&self) -> Result<ChangeSet, Refusal> {
        let project = self.project;
        let mut changes = ChangeSet::new();
        for (&f, ranges) in &self.edits {
            let file = project.file(f).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?;
            for &(s, e) in ranges {
                debug_assert_eq!(&file.source.text[s..e], self.old);
                changes.edit(project.path(f), &file.source.text, Edit::replace(s..e, self.new));
            }
        }
        for (f, at, text) in &self.inserts {
            let file = project.file(*f).map_err(|e| Refusal::new(Reason::UnreadableFile, e.to_string()))?;
            changes.edit(project.path(*f), &file.source.text, Edit::insert(*at, text.clone()));
        }
        Ok(changes)
    }
}

fn list(items: &[String]) -> String {
    let mut out = items.iter().take(LISTED).cloned().collect::<Vec<_>>().join("; ");
    if items.len() > LISTED {
        out.push_str(&format!("; and {} more", items.len() - LISTED));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::java::project::tests::{project, type_named};

    fn method_named(p: &Project, ty: &str, name: &str) -> MethodId {
        let t = type_named(p, ty);
        p.methods_of(t).into_iter().find(|&m| p.method(m).name == name).unwrap_or_else(|| panic!("no {ty}.{name}"))
    }

    /// Renames `ty.name` to `new` in a project of `files`; the new texts of the touched files.
    fn rename(files: &[(&str, &str)], ty: &str, name: &str, new: &str) -> Result<BTreeMap<PathBuf, String>, Refusal> {
        let (_d, p) = project(files);
        let m = method_named(&p, ty, name);
        let changes = rename_method(&p, m, &RenameSpec { new_name: new.into() })?;
        Ok(changes.render().expect("edits apply"))
    }

    fn refusal(files: &[(&str, &str)], ty: &str, name: &str, new: &str) -> Refusal {
        match rename(files, ty, name, new) {
            Ok(out) => panic!("expected a refusal, got {out:#?}"),
            Err(r) => r,
        }
    }

    #[test]
    fn renames_declaration_calls_references_and_javadoc_only() {
        let files = [
            (
                "src/main/java/a/Calc.java",
                "package a;\n/** Uses {@link #total(int)} and {@link Calc#total}. */\npublic class Calc {\n  \
                 public int total(int x) { return x + 1; }\n  int twice(int x) { return total(total(x)); }\n  \
                 class Inner { int f() { return total(2); } }\n  Runnable r() { return new Runnable() { public void run() { total(3); } }; }\n  \
                 java.util.function.IntUnaryOperator op() { return this::total; }\n}\n",
            ),
            (
                "src/main/java/a/Sub.java",
                "package a;\npublic class Sub extends Calc {\n  int g() { return super.total(1) + this.total(2); }\n}\n",
            ),
            (
                "src/main/java/b/Other.java",
                "package b;\npublic class Other {\n  public int total(int x) { return x; }\n  \
                 int use(a.Calc c, Other o, a.Sub s) { return c.total(1) + o.total(2) + s.total(3); }\n  \
                 java.util.function.IntUnaryOperator ref(a.Calc c) { return c::total; }\n  \
                 java.util.function.ToIntBiFunction<a.Calc, Integer> ref2() { return a.Calc::total; }\n}\n",
            ),
            (
                "src/test/java/a/CalcTest.java",
                "package a;\nclass CalcTest {\n  void t() { Calc c = new Calc(); c.total(1); }\n}\n",
            ),
        ];
        let out = rename(&files, "Calc", "total", "sum").expect("renamed");
        let calc = &out[&PathBuf::from("src/main/java/a/Calc.java")];
        assert_eq!(
            calc,
            "package a;\n/** Uses {@link #sum(int)} and {@link Calc#sum}. */\npublic class Calc {\n  \
             public int sum(int x) { return x + 1; }\n  int twice(int x) { return sum(sum(x)); }\n  \
             class Inner { int f() { return sum(2); } }\n  Runnable r() { return new Runnable() { public void run() { sum(3); } }; }\n  \
             java.util.function.IntUnaryOperator op() { return this::sum; }\n}\n"
        );
        assert_eq!(
            out[&PathBuf::from("src/main/java/a/Sub.java")],
            "package a;\npublic class Sub extends Calc {\n  int g() { return super.sum(1) + this.sum(2); }\n}\n"
        );
        // the trap: Other.total and o.total(2) stay
        assert_eq!(
            out[&PathBuf::from("src/main/java/b/Other.java")],
            "package b;\npublic class Other {\n  public int total(int x) { return x; }\n  \
             int use(a.Calc c, Other o, a.Sub s) { return c.sum(1) + o.total(2) + s.sum(3); }\n  \
             java.util.function.IntUnaryOperator ref(a.Calc c) { return c::sum; }\n  \
             java.util.function.ToIntBiFunction<a.Calc, Integer> ref2() { return a.Calc::sum; }\n}\n"
        );
        assert!(out[&PathBuf::from("src/test/java/a/CalcTest.java")].contains("c.sum(1)"));
    }

    #[test]
    fn renames_the_whole_override_family() {
        let files = [
            ("a/Shape.java", "package a; public interface Shape { double area(); }"),
            ("a/Base.java", "package a; public abstract class Base implements Shape { }"),
            ("a/Square.java", "package a; public class Square extends Base { public double area() { return 4; } }"),
            (
                "a/Unit.java",
                "package a; class Unit extends Square { @Override public double area() { return super.area() / 4; } }",
            ),
            ("a/Circle.java", "package a; class Circle implements Shape { public double area() { return 3; } }"),
            // inherits area() from Plain, which implements Shape.area only in Mixed
            ("a/Plain.java", "package a; class Plain { public double area() { return 1; } }"),
            ("a/Mixed.java", "package a; class Mixed extends Plain implements Shape { }"),
            ("a/Use.java", "package a; class Use { double f(Shape s, Unit u) { return s.area() + u.area(); } }"),
        ];
        let out = rename(&files, "Unit", "area", "surface").expect("renamed");
        for file in ["Shape", "Square", "Unit", "Circle", "Plain", "Use"] {
            let text = &out[&PathBuf::from(format!("a/{file}.java"))];
            assert!(text.contains("surface()") && !text.contains("area"), "{file}: {text}");
        }
        assert!(!out.contains_key(&PathBuf::from("a/Mixed.java")));
    }

    #[test]
    fn field_initializers_and_static_imports() {
        let files = [
            (
                "a/Util.java",
                "package a; public class Util { public static int dbl(int x) { return 2 * x; } \
                 static final int TWO = dbl(1); static { dbl(3); } }",
            ),
            (
                "b/User.java",
                "package b; import static a.Util.dbl; class User { int v = dbl(2); int f() { return dbl(4) + a.Util.dbl(5); } }",
            ),
        ];
        let out = rename(&files, "Util", "dbl", "twice").expect("renamed");
        assert_eq!(
            out[&PathBuf::from("a/Util.java")],
            "package a; public class Util { public static int twice(int x) { return 2 * x; } \
             static final int TWO = twice(1); static { twice(3); } }"
        );
        assert_eq!(
            out[&PathBuf::from("b/User.java")],
            "package b; import static a.Util.twice; class User { int v = twice(2); int f() { return twice(4) + a.Util.twice(5); } }"
        );
    }

    #[test]
    fn refuses_bad_names_and_constructors() {
        let files = [("A.java", "class A { A() {} void m() {} void n(int x) {} }")];
        assert_eq!(refusal(&files, "A", "m", "class").reason, "invalid_name");
        assert_eq!(refusal(&files, "A", "m", "2x").reason, "invalid_name");
        assert_eq!(refusal(&files, "A", "m", "a b").reason, "invalid_name");
        assert_eq!(refusal(&files, "A", "m", "m").reason, "same_name");
        assert_eq!(refusal(&files, "A", "A", "B").reason, "constructor");
        // a different arity is a harmless overload
        assert!(rename(&files, "A", "m", "n").is_ok());
    }

    #[test]
    fn refuses_clashes_in_the_hierarchy() {
        let files = [
            (
                "a/Base.java",
                "package a; public class Base { public void go(int x) {} protected void stop(String s) {} }",
            ),
            ("a/Mid.java", "package a; public class Mid extends Base { void run(int y) {} void walk(long z) {} }"),
            ("a/Leaf.java", "package a; class Leaf extends Mid { void jump(java.util.List<String> l) {} }"),
            ("a/Far.java", "package a; class Far extends Leaf { void hop(java.util.List<Integer> l) {} }"),
        ];
        let r = refusal(&files, "Mid", "run", "go");
        assert_eq!(r.reason, "name_clash");
        assert!(r.message.contains("`Base` already declares `go(int)` (a/Base.java:1)"), "{}", r.message);
        // same arity, other types: existing calls could be captured
        let r = refusal(&files, "Mid", "walk", "go");
        assert_eq!(r.reason, "name_clash");
        assert!(r.message.contains("as many arguments"), "{}", r.message);
        // a static method is inherited: a subclass's static `go()` would capture `Kid.make()`
        let statics = [
            ("a/Mom.java", "package a; class Mom { static int make() { return 1; } }"),
            (
                "a/Kid.java",
                "package a; class Kid extends Mom { static int go() { return 2; } int f() { return Kid.make(); } }",
            ),
        ];
        assert_eq!(refusal(&statics, "Mom", "make", "go").reason, "name_clash");
        // a clash in a subclass, generics erased
        assert_eq!(refusal(&files, "Leaf", "jump", "hop").reason, "name_clash");
        // would override Object.toString / equals
        assert_eq!(refusal(&files, "Mid", "run", "wait").reason, "name_clash");
        let files = [("A.java", "class A { String label() { return \"\"; } }")];
        assert_eq!(refusal(&files, "A", "label", "toString").reason, "name_clash");
    }

    #[test]
    fn refuses_methods_overriding_outside_the_project() {
        let files = [
            (
                "a/Money.java",
                "package a; public class Money implements Comparable<Money> {\n  public int compareTo(Money o) { return 0; }\n  \
                 public String toString() { return \"m\"; }\n  public int cents() { return 1; }\n}",
            ),
            (
                "a/Task.java",
                "package a; class Task implements Runnable { @Override public void run() {} void other() {} }",
            ),
            ("a/Job.java", "package a; class Job extends org.lib.Base { void work() {} private void helper() {} }"),
            ("a/Hidden.java", "package a; class Hidden { @Override public String describe() { return \"\"; } }"),
        ];
        for (ty, name) in [("Money", "compareTo"), ("Money", "toString"), ("Task", "run"), ("Job", "work")] {
            let r = refusal(&files, ty, name, "renamed");
            assert_eq!(r.reason, "overrides_external", "{ty}.{name}: {}", r.message);
        }
        assert_eq!(refusal(&files, "Hidden", "describe", "renamed").reason, "overrides_external");
        assert!(rename(&files, "Money", "cents", "amountInCents").is_ok());
        assert!(rename(&files, "Job", "helper", "assist").is_ok(), "private methods override nothing");
        // a new name that would implement Runnable.run by accident
        assert_eq!(refusal(&files, "Task", "other", "run").reason, "name_clash");
    }

    #[test]
    fn refuses_calls_it_cannot_resolve_but_ignores_outside_receivers() {
        let files = [
            ("a/Box.java", "package a; public class Box { public int size() { return 1; } }"),
            (
                "a/Use.java",
                "package a; import java.util.List; class Use {\n  int f(List<String> l, String s) { return l.size() + s.length(); }\n  \
                 int g(Box b) { var x = b; return x.size(); }\n}",
            ),
        ];
        let r = refusal(&files, "Box", "size", "count");
        assert_eq!(r.reason, "unresolved_calls");
        assert!(r.message.contains("a/Use.java:3 `x.size()`"), "{}", r.message);
        assert!(!r.message.contains("l.size"), "{}", r.message);
        let files =
            [files[0], ("a/Use.java", "package a; class Use { int f(java.util.List<String> l) { return l.size(); } }")];
        let out = rename(&files, "Box", "size", "count").expect("external receivers are not ours");
        assert!(!out.contains_key(&PathBuf::from("a/Use.java")));
    }

    #[test]
    fn refuses_when_an_unqualified_call_would_change_target() {
        // renaming Inner.f to g captures Outer.g's unqualified call inside Inner
        let files =
            [("a/Outer.java", "package a; class Outer { void g() {} class Inner { void f() {} void x() { g(); } } }")];
        let r = refusal(&files, "Outer.Inner", "f", "g");
        assert_eq!(r.reason, "name_clash");
        assert!(r.message.contains("`g()`"), "{}", r.message);
        // renaming Outer.h to k where Inner has its own k(): the call h() inside Inner would find Inner.k
        let files = [(
            "a/Outer.java",
            "package a; class Outer { void h() {} class Inner { void k(int a) {} void x() { h(); } } }",
        )];
        assert_eq!(refusal(&files, "Outer", "h", "k").reason, "name_clash");
    }
}
