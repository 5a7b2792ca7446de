//! Coordinated rename: from one rename (the seed), the other identifiers that should change with
//! it, each with a new name, a score in 0..1 and a reason.
//!
//! Candidates come from what connects code, not only from spelling:
//! - **the same name** declared again nearby: the same local in a sibling method, the same
//!   parameter in an overload, a field of that name in a sibling class;
//! - **accessors and storage**: a field's getter, setter, `with`/builder method, and the
//!   parameters stored into it (`this.count = count`); a parameter's field;
//! - **data flow**: the variables that take a renamed method's result, that a renamed variable is
//!   assigned from or to;
//! - **types**: the variables, fields and parameters of a renamed class's type named after it, its
//!   test class;
//! - **the seed's words**: any declaration in the seed's file, package (main and test), or in
//!   the files that use the seed, that holds the words the seed's edit changed.
//!
//! New names carry the seed's edit over word by word ([`words::transfer`]): `count → total`
//! makes `getCount → getTotal`. A candidate whose new name cannot be derived is not proposed.
//! The user's earlier answers ([`memory`]) drop rejected suggestions and reweigh relations.

pub mod memory;
pub mod oracle;
pub mod words;

use std::collections::HashSet;
use std::path::PathBuf;

use serde::Serialize;

use crate::engine::rename::resolve::Var;
use crate::engine::rename::{Element, Kind};
use crate::java::project::{FileId, Project};
use memory::Memory;

/// Why a candidate is proposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    SameName,
    Accessor,
    Stored,
    DataFlow,
    TypedBy,
    SameWords,
    /// Proposed by the model (`mantra rename --coordinated` with a model configured).
    Model,
}

/// One proposed rename.
#[derive(Debug, Clone, Serialize)]
pub struct Suggestion {
    pub kind: Kind,
    pub old: String,
    pub new: String,
    /// Repository-relative.
    pub file: PathBuf,
    pub line: usize,
    pub score: f64,
    pub reason: String,
    pub relation: Relation,
    #[serde(skip)]
    pub element: Element,
}

/// How many suggestions at most, best first.
pub const LIMIT: usize = 40;
/// Suggestions scored below this are not listed.
pub const MIN_SCORE: f64 = 0.3;

/// The suggestions for renaming `seed` to `new`, best first.
pub fn suggest(project: &Project, seed: Element, new: &str, memory: &Memory) -> Vec<Suggestion> {
    let old = seed.name(project).to_string();
    if local_decision(&old, new) {
        return Vec::new();
    }
    let hunks = words::edit(&old, new);
    let touched = words::touched(&hunks);
    let mut c = Collector { project, seed, old: old.clone(), new: new.to_string(), hunks, out: Vec::new() };
    let skip = seed_family(project, seed);

    let seed_file = seed.file();
    let package = project.file(seed_file).ok().and_then(|f| f.symbols.package.clone()).unwrap_or_default();
    let mut files: Vec<(FileId, f64)> = vec![(seed_file, 1.0)];
    for f in project.files_in_package(&package) {
        if f != seed_file {
            files.push((f, 0.85));
        }
    }
    for f in project.files_containing(&old) {
        if !files.iter().any(|(g, _)| *g == f) {
            files.push((f, 0.6));
        }
    }
    // Files elsewhere holding the edit's most specific word, found by text before any parse.
    if let Some(word) = touched.iter().filter(|w| w.len() >= 4).max_by_key(|w| w.len()) {
        let hits: Vec<FileId> = project
            .files_containing_ignore_case(word)
            .into_iter()
            .filter(|f| !files.iter().any(|(g, _)| g == f))
            .take(FAR_FILES)
            .collect();
        files.extend(hits.into_iter().map(|f| (f, 0.6)));
    }
    c.structural();
    // A word added to the seed's name (`numBuffers → numExpectedBuffers`) qualifies this one
    // concept: longer names that hold the old one elsewhere (`numBuffersForSort` in another
    // class) name other concepts. Only in the seed's own file, or built on a renamed class's
    // name (`InputReader2`, `InputReaderTest`), do they follow it.
    let seed_file_only = c.hunks.iter().all(|h| h.old.is_empty()) && !matches!(seed, Element::Type(_));
    // A method's object replaced whole (`resolveWorker → resolveService`) is that object's
    // rename wherever it is named, unless its words are the theme of the seed's class or package
    // (`createParser` in `ParserTests`), which everything there holds.
    let whole_concept = matches!(seed, Element::Method(_)) && words::replaces_the_object(&old, &c.hunks) && {
        let theme = theme(project, seed);
        !touched.iter().any(|w| theme.contains(w))
    };
    for &(f, nearness) in &files {
        for e in all_declarations(project, f) {
            if e == seed || skip.contains(&e) {
                continue;
            }
            let name = e.name(project).to_string();
            if name == old && same_family(e.kind(), seed.kind()) {
                // Of one name, the declarations of the seed's type are the same concept; another
                // type under the same name is another thing that happens to share it.
                let (typed, reason) = match (declared_type(project, seed), declared_type(project, e)) {
                    (Some(a), Some(b)) if a == b => (1.0, format!("also named `{old}`, of the same type {a}")),
                    (Some(_), Some(b)) => (0.5, format!("also named `{old}`, of another type ({b})")),
                    _ => (0.8, format!("also named `{old}`")),
                };
                c.push(e, new.to_string(), 0.9 * nearness * typed, Relation::SameName, reason);
                continue;
            }
            // An enum constant is a value of its enum, not a name after a method or a variable
            // (`createDraft → createInvoice` leaves `Status.DRAFT` alone).
            if enum_constant(project, e) && !matches!(seed, Element::Field(..)) {
                continue;
            }
            if let Some(share) = words::affinity(
                &name,
                &old,
                &c.hunks,
                whole_concept || (same_method(seed, e) && words::parallel(&name, &old, &touched)),
            ) && let Some(n) = words::transfer(&name, &c.hunks)
                && (!seed_file_only || e.file() == seed_file)
            {
                // A local's name is a local matter: its words elsewhere in the file are weaker evidence.
                let local = matches!(seed, Element::Var(_)) && e.file() == seed_file && !same_method(seed, e);
                let kind = if e.kind() == seed.kind() { 1.0 } else { 0.9 };
                let score = 0.6 * nearness * share * kind * if local { 0.8 } else { 1.0 };
                let reason = if words::built_on(&name, &old) {
                    format!("named after `{old}`")
                } else {
                    format!("holds the words the seed changed ({})", touched.join(", "))
                };
                c.push(e, n, score, Relation::SameWords, reason);
            } else if matches!((seed, e), (Element::Type(_), Element::Type(_)))
                && nearness >= 0.85
                && words::sibling(&name, &old, &c.hunks)
                && let Some(n) = words::transfer(&name, &c.hunks)
            {
                // Classes of one package that differ only in their head noun are one family, and
                // a prefix given to one (`Lucene90CompressingTermVectorsFormat`) is given to all.
                let reason = format!("a sibling of `{old}` in its package");
                c.push(e, n, 0.5 * nearness, Relation::SameWords, reason);
            }
        }
    }
    let mut out = c.out;
    // One suggestion per element: the best-scored reason.
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut seen = HashSet::new();
    out.retain(|s| seen.insert(s.element));
    for s in &mut out {
        s.score = (s.score * memory.factor(seed.kind(), s.relation)).min(1.0);
    }
    out.retain(|s| !memory.rejected(s) && s.score >= MIN_SCORE);
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.file.cmp(&b.file)).then(a.line.cmp(&b.line)));
    out.truncate(LIMIT);
    out
}

/// Whether renaming `old` to `new` is a decision about this one declaration that no other follows:
/// a one-letter name (`sortedRanges → l`, a local shorthand), or a digit appended to tell it from
/// another declaration of the name (`storageInfo → storageInfo1`).
pub fn local_decision(old: &str, new: &str) -> bool {
    let digits_added = new.strip_prefix(old).is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
    new.chars().count() == 1 || digits_added
}

/// How many files beyond the seed's package and users are searched for the seed's words.
const FAR_FILES: usize = 200;

/// The words of the name of the class declaring `e` and of its package's last segment, lower-cased.
fn theme(project: &Project, e: Element) -> Vec<String> {
    let class = match e {
        Element::Field(t, _) | Element::Type(t) => project.type_decl(t).name.clone(),
        Element::Method(m) | Element::Var(Var::Param(m, _) | Var::Local(m, _)) => {
            project.type_decl(project.owner(m)).name.clone()
        }
    };
    let package = project.file(e.file()).ok().and_then(|f| f.symbols.package.clone()).unwrap_or_default();
    let last = package.rsplit('.').next().unwrap_or_default().to_string();
    [class, last].iter().flat_map(|n| words::split(n)).map(|w| w.lower()).collect()
}

/// Whether `e` is a constant of an enum.
fn enum_constant(project: &Project, e: Element) -> bool {
    matches!(e, Element::Field(t, i) if project.type_decl(t).fields[i].kind == crate::java::symbols::FieldKind::EnumConstant)
}

/// Whether two elements are declared in one method.
fn same_method(a: Element, b: Element) -> bool {
    a.method().is_some() && a.method() == b.method()
}

/// Kinds that may share a name by design: variables and parameters, or the same kind.
fn same_family(a: Kind, b: Kind) -> bool {
    let var = |k| matches!(k, Kind::Variable | Kind::Parameter);
    a == b || (var(a) && var(b))
}

/// What the seed's own rename already covers: a method's override family, which Rename Method
/// renames with it.
pub fn seed_family(project: &Project, seed: Element) -> HashSet<Element> {
    match seed {
        Element::Method(m) => {
            crate::engine::rename::renamed_with(project, m).into_iter().map(Element::Method).collect()
        }
        _ => HashSet::new(),
    }
}

struct Collector<'a> {
    project: &'a Project,
    seed: Element,
    old: String,
    new: String,
    hunks: Vec<words::Hunk>,
    out: Vec<Suggestion>,
}

impl Collector<'_> {
    fn push(&mut self, e: Element, new: String, score: f64, relation: Relation, reason: String) {
        let p = self.project;
        self.out.push(Suggestion {
            kind: e.kind(),
            old: e.name(p).to_string(),
            new,
            file: p.path(e.file()).to_path_buf(),
            line: e.line(p),
            score,
            reason,
            relation,
            element: e,
        });
    }

    /// The new name of a related declaration: the seed's edit carried over, or, for a name equal
    /// to the seed's, the seed's new name.
    fn derive(&self, name: &str) -> Option<String> {
        if name == self.old {
            return Some(self.new.clone());
        }
        words::transfer(name, &self.hunks)
    }

    fn related(&mut self, e: Element, score: f64, relation: Relation, reason: String) {
        if e == self.seed {
            return;
        }
        let name = e.name(self.project).to_string();
        if let Some(n) = self.derive(&name) {
            self.push(e, n, score, relation, reason);
        }
    }

    /// An accessor renamed with its prefix kept (`setRetryMode → setBackoffMode`): the
    /// other accessors of the same property in its class (`getRetryMode`) and the field
    /// they access (`retryMode`).
    fn partners(&mut self, m: crate::java::project::MethodId, name: &str) {
        let p = self.project;
        let Some((prefix, property)) = accessor_parts(name) else { return };
        if accessor_parts(&self.new).is_none_or(|(q, _)| q != prefix) {
            return;
        }
        let t = p.owner(m);
        for other in p.methods_of(t) {
            let o = &p.method(other).name;
            if o != name && accessor_parts(o).is_some_and(|(_, prop)| prop == property) {
                let reason = format!("accessor of the same property as `{name}`");
                self.related(Element::Method(other), 0.85, Relation::Accessor, reason);
            }
        }
        let field = words::lower_first(property);
        if let Some(i) = p.type_decl(t).fields.iter().position(|f| f.name == field) {
            self.related(Element::Field(t, i), 0.85, Relation::Accessor, format!("the field `{name}` accesses"));
        }
    }

    /// The relations of the seed's declaration itself.
    fn structural(&mut self) {
        let p = self.project;
        match self.seed {
            Element::Field(t, i) => {
                let field = p.type_decl(t).fields[i].name.clone();
                let cap = crate::plan::naming::capitalize(&field);
                for m in p.methods_of(t) {
                    let d = p.method(m);
                    let accessor = [format!("get{cap}"), format!("set{cap}"), format!("is{cap}"), format!("with{cap}")]
                        .contains(&d.name)
                        || (d.name == field && d.params.len() <= 1);
                    if accessor {
                        self.related(
                            Element::Method(m),
                            0.85,
                            Relation::Accessor,
                            format!("accessor of field `{field}`"),
                        );
                    }
                    for v in stored(p, m, &field) {
                        self.related(Element::Var(v), 0.85, Relation::Stored, format!("stored in field `{field}`"));
                    }
                }
            }
            Element::Var(Var::Param(m, pi)) => {
                let param = p.method(m).params[pi].name.clone();
                let t = p.owner(m);
                for (fi, f) in p.type_decl(t).fields.iter().enumerate() {
                    if stored(p, m, &f.name).contains(&Var::Param(m, pi)) {
                        self.related(
                            Element::Field(t, fi),
                            0.85,
                            Relation::Stored,
                            format!("the field `{param}` is stored in"),
                        );
                    }
                }
                // The same parameter of the overriding and overridden methods.
                for o in p.overrides(m).into_iter().chain(p.overridden_by(m)) {
                    if let Some(j) = p.method(o).params.iter().position(|q| q.name == param) {
                        self.related(
                            Element::Var(Var::Param(o, j)),
                            0.8,
                            Relation::SameName,
                            "the same parameter of an override".into(),
                        );
                    }
                }
            }
            Element::Method(m) => {
                let name = p.method(m).name.clone();
                self.partners(m, &name);
                for f in p.files_containing(&name) {
                    for caller in p.methods_in(f).unwrap_or_default() {
                        for li in 0..p.method(caller).locals.len() {
                            let local = Element::Var(Var::Local(caller, li));
                            // A local named after its type (`OrderBook orderBook = loadBook()`)
                            // follows its type's name, not the method's.
                            let after_type = || {
                                declared_type(p, local)
                                    .is_some_and(|t| t.eq_ignore_ascii_case(&p.method(caller).locals[li].name))
                            };
                            if receives(p, caller, li, &name) && !after_type() {
                                let reason = format!("takes the result of `{name}(..)`");
                                self.related(local, 0.75, Relation::DataFlow, reason);
                            }
                        }
                    }
                }
            }
            Element::Type(t) => {
                let name = p.type_decl(t).name.clone();
                for f in p.files_containing(&name) {
                    for e in all_declarations(p, f) {
                        if declared_type(p, e).is_some_and(|ty| ty == name) {
                            self.related(e, 0.75, Relation::TypedBy, format!("of type {name}"));
                        }
                    }
                }
            }
            Element::Var(Var::Local(..)) => {}
        }
    }
}

/// An accessor's prefix and property: `getCount` → (`get`, `Count`).
fn accessor_parts(name: &str) -> Option<(&str, &str)> {
    ["get", "set", "is", "has", "with"].into_iter().find_map(|prefix| {
        let property = name.strip_prefix(prefix)?;
        property.chars().next().is_some_and(char::is_uppercase).then_some((prefix, property))
    })
}

/// The parameters of `m` assigned to field `field` (`this.field = v;`, `field = v;`).
fn stored(project: &Project, m: crate::java::project::MethodId, field: &str) -> Vec<Var> {
    let d = project.method(m);
    let Some(body) = d.body else { return Vec::new() };
    let text = &project.method_source(m).text[body.range()];
    let flat: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    for (i, q) in d.params.iter().enumerate() {
        let pats =
            [format!("this.{field}={};", q.name), format!("{{{field}={};", q.name), format!(";{field}={};", q.name)];
        if pats.iter().any(|s| flat.contains(s.as_str())) {
            out.push(Var::Param(m, i));
        }
    }
    out
}

/// Whether local `li` of `m` is initialised or assigned from a call of `name`.
fn receives(project: &Project, m: crate::java::project::MethodId, li: usize, name: &str) -> bool {
    let d = project.method(m);
    let local = &d.locals[li];
    let src = &project.method_source(m).text;
    let from = local.scope.start_byte;
    let end = src[from..].find(';').map_or(from, |e| from + e);
    let stmt: String = src[from..end].chars().filter(|c| !c.is_whitespace()).collect();
    let Some(value) = stmt.strip_prefix(&format!("{}=", local.name)) else { return false };
    value.starts_with(&format!("{name}(")) || value.contains(&format!(".{name}("))
}

/// The simple name of the declared type of a field, parameter or local.
fn declared_type(project: &Project, e: Element) -> Option<String> {
    let t = match e {
        Element::Field(t, i) => &project.type_decl(t).fields[i].ty,
        Element::Var(v) => crate::engine::rename::resolve::var_type(project, v)?,
        _ => return None,
    };
    Some(t.simple().to_string())
}

/// Every declaration of a file.
pub fn all_declarations(project: &Project, file: FileId) -> Vec<Element> {
    let mut out = Vec::new();
    for t in project.types_in(file).unwrap_or_default() {
        let decl = project.type_decl(t);
        if !decl.name.is_empty() {
            out.push(Element::Type(t));
        }
        out.extend((0..decl.fields.len()).map(|i| Element::Field(t, i)));
    }
    for m in project.methods_in(file).unwrap_or_default() {
        let d = project.method(m);
        if !d.is_constructor() {
            out.push(Element::Method(m));
        }
        out.extend((0..d.params.len()).map(|i| Element::Var(Var::Param(m, i))));
        let mut seen = HashSet::new();
        for (i, l) in d.locals.iter().enumerate() {
            if seen.insert(&l.name) {
                out.push(Element::Var(Var::Local(m, i)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::java::project::tests::project;

    /// The declaration named `name` of `kind` in `path`.
    fn declared(p: &Project, path: &str, name: &str, kind: Kind) -> Element {
        let f = p.file_id(std::path::Path::new(path)).expect("file");
        all_declarations(p, f).into_iter().find(|e| e.name(p) == name && e.kind() == kind).expect("declaration")
    }

    fn olds(s: &[Suggestion]) -> Vec<&str> {
        s.iter().map(|s| s.old.as_str()).collect()
    }

    /// A method's override family, siblings' overrides of one abstract method included, is
    /// renamed by the seed's rename itself: none of it is suggested, while a method of the same
    /// name outside the hierarchy is.
    #[test]
    fn the_seed_s_override_family_is_not_suggested() {
        let (_d, p) = project(&[
            ("a/Shape.java", "package a; abstract class Shape { abstract double area(); }"),
            ("a/Square.java", "package a; class Square extends Shape { double area() { return 1; } }"),
            ("a/Circle.java", "package a; class Circle extends Shape { double area() { return 3; } }"),
            ("a/Plot.java", "package a; class Plot { double area() { return 0; } }"),
        ]);
        let seed = declared(&p, "a/Square.java", "area", Kind::Method);
        let family = seed_family(&p, seed);
        assert_eq!(family.len(), 2, "{family:?}");
        let s = suggest(&p, seed, "surface", &Memory::default());
        let files: Vec<String> = s.iter().map(|s| s.file.display().to_string()).collect();
        assert_eq!(files, ["a/Plot.java"], "{s:?}");
    }

    /// A word added to a name qualifies that one concept: a longer name holding the old one in
    /// another class is another concept, while in the seed's own file, or built on a renamed
    /// class's name, it follows.
    #[test]
    fn an_added_word_follows_only_what_is_built_on_the_seed_itself() {
        let (_d, p) = project(&[
            (
                "a/Pool.java",
                "package a; class Pool { int numBuffers; int numBuffersInUse; int size() { return numBuffers; } }",
            ),
            ("a/Sorter.java", "package a; class Sorter { int numBuffersForSort; }"),
            ("a/InputReader.java", "package a; class InputReader {}"),
            ("a/InputReader2.java", "package a; class InputReader2 {}"),
        ]);
        let seed = declared(&p, "a/Pool.java", "numBuffers", Kind::Field);
        let s = suggest(&p, seed, "numExpectedBuffers", &Memory::default());
        assert_eq!(olds(&s), ["numBuffersInUse"], "{s:?}");
        // The same names follow a word that is replaced, wherever they are.
        let s = suggest(&p, seed, "numSegments", &Memory::default());
        assert!(olds(&s).contains(&"numBuffersForSort"), "{s:?}");
        let seed = declared(&p, "a/InputReader.java", "InputReader", Kind::Class);
        let s = suggest(&p, seed, "InputReaderDefault", &Memory::default());
        assert_eq!(olds(&s), ["InputReader2"], "{s:?}");
    }

    /// A method's object replaced whole is followed by every name holding it, unless the word is
    /// the theme of the seed's class; an accessor's partner and field follow it; a local named
    /// after its type does not follow the method it takes its value from.
    #[test]
    fn an_object_replaced_whole_carries_over_unless_it_is_the_class_s_theme() {
        let (_d, p) = project(&[
            (
                "a/Extract.java",
                "package a; class Extract { String workerFile; Worker resolveWorker() { return null; } \
                 void createWorker() { Worker worker = resolveWorker(); } }",
            ),
            ("a/Worker.java", "package a; class Worker {}"),
            ("a/Mode.java", "package a; enum Mode { WORKER, SERVER }"),
            (
                "a/ParserTests.java",
                "package a; class ParserTests { Object createParser() { return null; } void testParserEnabled() {} }",
            ),
        ]);
        let seed = declared(&p, "a/Extract.java", "resolveWorker", Kind::Method);
        let s = suggest(&p, seed, "resolveService", &Memory::default());
        for name in ["workerFile", "createWorker"] {
            assert!(olds(&s).contains(&name), "{name}: {s:?}");
        }
        // An enum constant is a value, not a name after the method.
        assert!(!olds(&s).contains(&"WORKER"), "{s:?}");
        // `Worker worker = resolveWorker()` is named after its type, not after the method: it
        // follows the seed's word, not its data flow.
        let worker = s.iter().find(|s| s.old == "worker").expect("worker");
        assert_eq!(worker.relation, Relation::SameWords, "{s:?}");
        let seed = declared(&p, "a/ParserTests.java", "createParser", Kind::Method);
        let s = suggest(&p, seed, "createSupplier", &Memory::default());
        assert!(!olds(&s).contains(&"testParserEnabled"), "{s:?}");
    }

    #[test]
    fn an_accessor_s_partner_and_field_and_a_parallel_local_follow() {
        let (_d, p) = project(&[(
            "a/Config.java",
            "package a; class Config { int retryMode; int retryTimeout; \
             void setRetryMode(int m) { retryMode = m; } int getRetryMode() { return retryMode; } \
             int getRetryTimeout() { return retryTimeout; } \
             void run() { int minLimitValue = 1; int maxLimitValue = 2; int limitValueCount = 3; } }",
        )]);
        let seed = declared(&p, "a/Config.java", "setRetryMode", Kind::Method);
        let s = suggest(&p, seed, "setBackoffMode", &Memory::default());
        assert_eq!(olds(&s), ["getRetryMode", "retryMode"], "{s:?}");
        let seed = declared(&p, "a/Config.java", "minLimitValue", Kind::Variable);
        let s = suggest(&p, seed, "minLimit", &Memory::default());
        assert_eq!(olds(&s), ["maxLimitValue"], "{s:?}");
        assert_eq!(s[0].new, "maxLimit");
    }

    #[test]
    fn a_one_letter_name_or_an_appended_digit_is_this_declaration_s_own() {
        assert!(local_decision("sortedRanges", "l"));
        assert!(local_decision("storageInfo", "storageInfo1"));
        assert!(!local_decision("storageInfo", "storageInfoList"));
        assert!(!local_decision("data", "payload"));
        assert!(!local_decision("info1", "info"));
    }
}
