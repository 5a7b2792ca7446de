//! Choosing a binding: each candidate scored by the evidence the collectors found (type
//! compatibility with every use's role, name similarity by words and edit distance, being unused,
//! being what identical calls pass), and a name bound only when one candidate stands clearly
//! above the others.

use serde::Serialize;

use super::collect::{Candidate, Identical, Source, is_accessor_word};
use super::locate::{Need, Unresolved, is_numeric};
use crate::java::project::{Project, TypeId};
use crate::java::symbols::TypeName;

/// How well a candidate's type fits what the uses need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fit {
    /// A use needs something the candidate's type cannot be.
    Incompatible,
    /// Nothing is known either way.
    Unknown,
    /// Assignable through a supertype, widening or boxing.
    Assignable,
    /// The type every use needs.
    Exact,
}

/// One candidate with its score and the evidence for it.
#[derive(Debug, Clone, Serialize)]
pub struct Scored {
    pub expr: String,
    pub source: Source,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    pub fit: Fit,
    pub score: f64,
    pub evidence: Vec<String>,
    /// Evidence that points at this candidate rather than at any of its type: a similar name,
    /// or a fitting type with a related name, no other use, or an identical call passing it.
    #[serde(skip)]
    pub specific: bool,
    /// A local declared in the three lines before the paste: the value just computed for it.
    #[serde(skip)]
    pub near: bool,
}

/// The least margin between the best candidate and the next for a binding without the model.
pub const MARGIN: f64 = 1.0;

/// The candidates for `name`, best first, incompatible ones left out.
pub fn score(
    project: &Project,
    resolve: &dyn Fn(&TypeName) -> Option<TypeId>,
    name: &Unresolved,
    candidates: &[Candidate],
    identical: &[Identical],
) -> Vec<Scored> {
    let mut out = Vec::new();
    for c in candidates {
        if name.other_operands.iter().any(|o| o.trim_start_matches("this.") == c.expr.trim_start_matches("this.")) {
            continue;
        }
        let mut evidence = Vec::new();
        let fit = fit(project, resolve, c.ty.as_ref(), &name.needs);
        if fit == Fit::Incompatible {
            continue;
        }
        let mut score = match fit {
            Fit::Exact => 3.0,
            Fit::Assignable => 2.0,
            _ => 0.0,
        };
        if fit >= Fit::Assignable {
            evidence.push(format!("type {} fits {}", c.ty.as_ref().map_or("?", |t| &t.text), describe(&name.needs)));
        }
        // The words of the candidate's type (type arguments included: `List<Item>`), which a
        // name often adds to the variable's own (`leftItem` for `left: Item`).
        let type_words: Vec<String> = c.ty.as_ref().map(|t| type_identifiers(&t.text)).unwrap_or_default();
        // `configurations` is not `configuration`: one names a collection, the other an element.
        let by_name = if number_differs(&name.name, &c.name) {
            0.0
        } else {
            similarity(&name.name, &c.name).max(similarity_without(&name.name, &type_words, &c.name))
        };
        if by_name > 0.0 {
            score += 3.0 * by_name;
            evidence.push(format!("name similarity {by_name:.2}"));
        }
        let by_type = type_words.iter().map(|t| similarity(&name.name, t)).fold(0.0, f64::max);
        if by_type > 0.0 {
            score += 2.0 * by_type;
            evidence.push(format!("type name similarity {by_type:.2}"));
        }
        let local = matches!(c.source, Source::Local | Source::Parameter);
        let unused = c.unused && local;
        if unused {
            score += 1.0;
            evidence.push("declared and not used elsewhere".to_string());
        }
        // The same argument of a call of the same method first: the stronger evidence.
        let passed =
            identical.iter().filter(|i| i.expr == c.expr).max_by_key(|i| (i.argument, std::cmp::Reverse(i.line)));
        if let Some(Identical { line, .. }) = passed {
            score += 1.0;
            evidence.push(format!("an identical call passes it (line {line})"));
        }
        match c.source {
            Source::Local if c.distance <= 3 => score += 1.0,
            Source::Local if c.distance <= 10 => score += 0.3,
            Source::Field | Source::OuterField => score -= 0.5,
            Source::Getter | Source::Chain => score -= 1.0,
            Source::This => score -= 0.5,
            _ => {}
        }
        // A method to call is a weaker guess than a variable: it needs a type that fits, or a
        // call the file itself makes, and a name that says it. The object itself needs its name.
        // A field reached through a variable that nothing else in the method uses (`span.offset`
        // for `offset`, or its accessor `span.getOffset()`: the object passed in for the moved
        // code to read), under the very name the paste uses, is the paste's own name for it,
        // typed or not.
        let same_field = c.source == Source::Chain && c.unused && c.name == name.name;
        let typed = fit >= Fit::Assignable || c.seen_at.is_some() || same_field;
        if matches!(c.source, Source::Getter | Source::Chain) && (!typed || by_name < 0.8)
            || c.source == Source::This && by_name < 0.8
        {
            continue;
        }
        if let Some(line) = c.seen_at {
            evidence.push(format!("the file calls it (line {line})"));
        }
        // A constant rarely stands for a variable's name.
        if c.constant && !is_constant_name(&name.name) {
            score -= 1.0;
        }
        let named = by_name.max(by_type);
        let specific = if c.constant {
            // Its name alone does not make a constant the value a variable stood for (a
            // parameter usually exists to vary from the default: `shape`, `DEFAULT_SHAPE`): it
            // also needs a type the uses ask for, or a call of the same method that passes it.
            named >= 0.5 && (fit >= Fit::Assignable || passed.is_some())
        } else {
            // A fitting type with what a call of the same method elsewhere in the file passes
            // there (WIRL's identical-calls collector) points at it too.
            named >= 0.5
                || (fit >= Fit::Assignable && (named >= 0.3 || unused || passed.is_some_and(|i| i.argument)))
                || (unused && named >= 0.3)
        };
        out.push(Scored {
            expr: c.expr.clone(),
            source: c.source,
            ty: c.ty.as_ref().map(|t| t.text.clone()),
            fit,
            score: (score * 100.0).round() / 100.0,
            evidence,
            specific,
            near: c.source == Source::Local && c.distance <= 3,
        });
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.expr.cmp(&b.expr)));
    out
}

/// A method without parameters named for what it gives (`getFiles`, `isOpen`) gives its field
/// of that name (`files`, `open`, also `myFiles`, `mFiles`, `_files`): the paste it holds stands
/// for that field, whatever the paste's own names. The field is raised as a name that matches.
pub fn named_by_accessor(scored: &mut [Scored], method: &str, has_params: bool) {
    if has_params {
        return;
    }
    let Some(rest) = ["get", "is", "has"].iter().find_map(|p| crate::text::after_word(method, p)) else { return };
    for s in scored.iter_mut().filter(|s| matches!(s.source, Source::Field | Source::OuterField)) {
        let name = s.expr.trim_start_matches("this.");
        if name.starts_with(|c: char| c.is_lowercase() || c == '_')
            && crate::text::field_stem(name).eq_ignore_ascii_case(rest)
        {
            s.score = ((s.score + 3.0) * 100.0).round() / 100.0;
            s.specific = true;
            s.evidence.push(format!("the method `{method}()` is named after it"));
        }
    }
    scored.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.expr.cmp(&b.expr)));
}

/// Whether the best candidate (the first) is clear: some evidence beyond being in scope, and
/// `MARGIN` above the next. `taken_fitting` counts the candidates whose type fits that other
/// names took from this list: the last fitting one left is not the only one that fits. `Err`
/// says why not.
pub fn decide(scored: &[Scored], taken_fitting: usize) -> Result<(), String> {
    let Some(best) = scored.first() else { return Err("no variable in scope can stand for it".to_string()) };
    // The only local whose type fits (WIRL's type filter) is evidence when it was declared just
    // before the paste, the value computed for it. Declared further up and used for something
    // else, it is often wrong: pasted code may stand for a value computed where it lands.
    let fitting = scored.iter().filter(|s| s.fit >= Fit::Assignable).count();
    let only_fit = best.near && best.fit >= Fit::Assignable && fitting + taken_fitting == 1;
    if !best.specific && !only_fit {
        return Err(format!(
            "nothing points at one candidate: the best, `{}` ({:.2}), has neither a related name nor a type only it fits",
            best.expr, best.score
        ));
    }
    match scored.get(1) {
        Some(next) if best.score - next.score < MARGIN => Err(format!(
            "`{}` ({:.2}) and `{}` ({:.2}) are too close to choose",
            best.expr, best.score, next.expr, next.score
        )),
        _ => Ok(()),
    }
}

pub fn describe(needs: &[Need]) -> String {
    let parts: Vec<String> = needs
        .iter()
        .map(|n| match n {
            Need::Type(t) => t.text.clone(),
            Need::Member { name, call: true, .. } => format!(".{name}()"),
            Need::Member { name, .. } => format!(".{name}"),
            Need::Numeric => "a number".to_string(),
            Need::Boolean => "a boolean".to_string(),
            Need::Array => "an array".to_string(),
            Need::NumberArray => "an array of numbers".to_string(),
            Need::Iterable => "an array or Iterable".to_string(),
            Need::Reference => "a reference".to_string(),
        })
        .collect();
    if parts.is_empty() { "its uses".to_string() } else { parts.join(", ") }
}

/// The fit of a candidate of type `ty` with every need: the weakest of the needs' fits.
pub fn fit(
    project: &Project,
    resolve: &dyn Fn(&TypeName) -> Option<TypeId>,
    ty: Option<&TypeName>,
    needs: &[Need],
) -> Fit {
    let Some(ty) = ty else { return Fit::Unknown };
    // Needs nothing is known of do not cancel a known one: the weakest of the informative fits.
    needs.iter().map(|n| fit_one(project, resolve, ty, n)).filter(|f| *f != Fit::Unknown).min().unwrap_or(Fit::Unknown)
}

fn fit_one(project: &Project, resolve: &dyn Fn(&TypeName) -> Option<TypeId>, ty: &TypeName, need: &Need) -> Fit {
    let simple = ty.simple();
    let primitive = is_primitive(simple) && ty.dims == 0;
    match need {
        // A project class is neither a number nor a boolean nor an array.
        Need::Numeric | Need::Boolean | Need::Array | Need::NumberArray if ty.dims == 0 && resolve(ty).is_some() => {
            Fit::Incompatible
        }
        Need::Numeric => {
            if ty.dims == 0 && is_numeric(simple) {
                Fit::Exact
            } else if ty.dims > 0 || primitive || known_reference(simple) {
                Fit::Incompatible
            } else {
                Fit::Unknown
            }
        }
        Need::Boolean => match (simple, ty.dims) {
            ("boolean" | "Boolean", 0) => Fit::Exact,
            _ if ty.dims > 0 || primitive || known_reference(simple) || is_numeric(simple) => Fit::Incompatible,
            _ => Fit::Unknown,
        },
        Need::Array => {
            if ty.dims > 0 {
                Fit::Exact
            } else if primitive || known_reference(simple) || is_numeric(simple) {
                Fit::Incompatible
            } else {
                Fit::Unknown
            }
        }
        Need::NumberArray => {
            if ty.dims == 1 && is_numeric(simple) {
                Fit::Exact
            } else if ty.dims > 1
                || primitive
                || known_reference(simple)
                || is_numeric(simple)
                || (ty.dims == 1 && matches!(simple, "boolean" | "Boolean"))
            {
                Fit::Incompatible
            } else {
                Fit::Unknown
            }
        }
        Need::Iterable => {
            if ty.dims > 0 || is_collection(simple) {
                Fit::Exact
            } else if primitive || is_numeric(simple) || simple == "String" || simple == "boolean" {
                Fit::Incompatible
            } else {
                Fit::Unknown
            }
        }
        Need::Reference => {
            if primitive {
                Fit::Incompatible
            } else {
                Fit::Unknown
            }
        }
        Need::Member { name, call, args } => {
            if primitive || (ty.dims > 0 && !(name == "clone" && *call)) {
                return Fit::Incompatible;
            }
            match resolve(ty) {
                Some(id) => {
                    let owners: Vec<TypeId> = std::iter::once(id).chain(project.supertypes(id)).collect();
                    let has = owners.iter().any(|&o| {
                        if *call {
                            project.methods_of(o).iter().any(|&m| {
                                let d = project.method(m);
                                d.name == *name && d.accepts_arity(*args)
                            })
                        } else {
                            project.type_decl(o).fields.iter().any(|f| f.name == *name)
                        }
                    });
                    if has {
                        Fit::Exact
                    } else if project.external_supertypes(id).is_empty() && !is_object_method(name) {
                        Fit::Incompatible
                    } else {
                        Fit::Unknown
                    }
                }
                None => match super::jdk::jdk_members(simple) {
                    Some(members)
                        if *call && members.iter().any(|m| super::jdk::jdk_member_is(m, name, *args))
                            || is_object_method(name) =>
                    {
                        Fit::Exact
                    }
                    Some(_) => Fit::Incompatible,
                    None => Fit::Unknown,
                },
            }
        }
        Need::Type(want) => assignable(project, resolve, ty, want),
    }
}

/// Whether a value of type `have` can be passed where `want` is declared.
fn assignable(
    project: &Project,
    resolve: &dyn Fn(&TypeName) -> Option<TypeId>,
    have: &TypeName,
    want: &TypeName,
) -> Fit {
    let (h, w) = (have.simple(), want.simple());
    if have.dims != want.dims {
        return if w == "Object" && want.dims == 0 { Fit::Assignable } else { Fit::Incompatible };
    }
    if h == w {
        return Fit::Exact;
    }
    if have.dims > 0 {
        return Fit::Incompatible;
    }
    if is_primitive(h) || is_primitive(w) {
        return if boxes(h, w) || widens(h, w) || boxes(w, h) && is_primitive(h) {
            Fit::Assignable
        } else {
            Fit::Incompatible
        };
    }
    if w == "Object" {
        return Fit::Assignable;
    }
    if let (Some(hid), wid) = (resolve(have), resolve(want)) {
        if let Some(wid) = wid {
            return if project.supertypes(hid).contains(&wid) { Fit::Assignable } else { Fit::Incompatible };
        }
        let externals = project.external_supertypes(hid);
        if externals.iter().any(|e| e.split('<').next().unwrap_or(e).rsplit('.').next() == Some(w)) {
            return Fit::Assignable;
        }
        return Fit::Unknown;
    }
    if resolve(want).is_some() {
        // An external type cannot extend a project type.
        return if known_reference(h) || is_collection(h) { Fit::Incompatible } else { Fit::Unknown };
    }
    if jdk_subtype(h, w) {
        return Fit::Assignable;
    }
    if known_reference(h) && known_reference(w) {
        return Fit::Incompatible;
    }
    Fit::Unknown
}

pub(super) fn is_primitive(s: &str) -> bool {
    matches!(s, "byte" | "short" | "char" | "int" | "long" | "float" | "double" | "boolean")
}

fn boxes(primitive: &str, boxed: &str) -> bool {
    matches!(
        (primitive, boxed),
        ("byte", "Byte")
            | ("short", "Short")
            | ("char", "Character")
            | ("int", "Integer")
            | ("long", "Long")
            | ("float", "Float")
            | ("double", "Double")
            | ("boolean", "Boolean")
            | (_, "Object")
            | ("byte" | "short" | "int" | "long" | "float" | "double", "Number")
    )
}

/// Java's widening primitive conversions.
fn widens(from: &str, to: &str) -> bool {
    const ORDER: [&str; 6] = ["byte", "short", "int", "long", "float", "double"];
    let rank = |s: &str| ORDER.iter().position(|o| *o == s);
    match (from, to) {
        ("char", t) => matches!(t, "int" | "long" | "float" | "double"),
        (f, t) => matches!((rank(f), rank(t)), (Some(a), Some(b)) if a < b),
    }
}

/// Final JDK value types whose members and supertypes are fixed.
fn known_reference(s: &str) -> bool {
    matches!(
        s,
        "String"
            | "Integer"
            | "Long"
            | "Short"
            | "Byte"
            | "Character"
            | "Boolean"
            | "Double"
            | "Float"
            | "Class"
            | "StringBuilder"
            | "File"
            | "Path"
            | "URI"
            | "URL"
            | "UUID"
            | "Pattern"
            | "Duration"
            | "Instant"
            | "LocalDate"
            | "LocalDateTime"
    )
}

pub(super) fn is_collection(s: &str) -> bool {
    matches!(
        s,
        "Iterable"
            | "Collection"
            | "List"
            | "Set"
            | "SortedSet"
            | "NavigableSet"
            | "Queue"
            | "Deque"
            | "ArrayList"
            | "LinkedList"
            | "HashSet"
            | "LinkedHashSet"
            | "TreeSet"
            | "ArrayDeque"
            | "PriorityQueue"
            | "CopyOnWriteArrayList"
            | "ImmutableList"
            | "ImmutableSet"
    )
}

fn is_object_method(name: &str) -> bool {
    matches!(name, "equals" | "hashCode" | "toString" | "getClass" | "wait" | "notify" | "notifyAll")
}

/// The JDK's well-known subtype relations between collection, map and text types.
fn jdk_subtype(have: &str, want: &str) -> bool {
    let supers: &[&str] = match have {
        "ArrayList" | "LinkedList" | "CopyOnWriteArrayList" | "ImmutableList" => &["List", "Collection", "Iterable"],
        "List" | "Set" | "Queue" => &["Collection", "Iterable"],
        "HashSet" | "LinkedHashSet" | "TreeSet" | "ImmutableSet" | "SortedSet" | "NavigableSet" => {
            &["Set", "Collection", "Iterable"]
        }
        "Deque" | "ArrayDeque" | "PriorityQueue" => &["Queue", "Collection", "Iterable"],
        "Collection" => &["Iterable"],
        "HashMap" | "LinkedHashMap" | "TreeMap" | "ConcurrentHashMap" | "SortedMap" | "NavigableMap"
        | "ImmutableMap" => &["Map"],
        "String" | "StringBuilder" | "StringBuffer" => &["CharSequence"],
        "Integer" | "Long" | "Double" | "Float" | "Short" | "Byte" | "BigInteger" | "BigDecimal" => &["Number"],
        _ => &[],
    };
    supers.contains(&want)
}

/// The type names written in a declared type: `Map<String, List<Item>>` → `Map`, `String`,
/// `List`, `Item`.
fn type_identifiers(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .map(str::to_string)
        .collect()
}

/// [`similarity`] of `name` without the words of `types` (when some words remain) to `other`.
fn similarity_without(name: &str, types: &[String], other: &str) -> f64 {
    let type_words: Vec<String> =
        types.iter().flat_map(|t| crate::text::identifier_words(t)).map(|w| singular(&w.to_lowercase())).collect();
    let words = crate::text::identifier_words(name);
    let kept: Vec<&String> = words.iter().filter(|w| !type_words.contains(&singular(&w.to_lowercase()))).collect();
    if kept.is_empty() || kept.len() == words.len() {
        return 0.0;
    }
    let rest: String = kept.iter().map(|w| w.as_str()).collect::<Vec<_>>().join("_");
    similarity(&rest, other)
}

/// A word without a plural `s`: `items` → `item`.
fn singular(w: &str) -> String {
    w.strip_suffix('s').filter(|s| s.len() >= 3).unwrap_or(w).to_string()
}

/// Whether two names end in the same noun, once plural and once singular (`namedItems`, `item`;
/// `classes`, `clazz` aside).
fn number_differs(a: &str, b: &str) -> bool {
    let head = |s: &str| crate::text::identifier_words(s).last().map(|w| w.to_lowercase()).unwrap_or_default();
    let (a, b) = (head(a), head(b));
    let plural_of = |p: &str, s: &str| {
        s.len() >= 3
            && (p.strip_suffix('s') == Some(s)
                || p.strip_suffix("es") == Some(s)
                    && (s.ends_with(['s', 'x']) || s.ends_with("ch") || s.ends_with("sh"))
                || p.strip_suffix("ies").is_some_and(|stem| s.strip_suffix('y') == Some(stem)))
    };
    a != b && (plural_of(&a, &b) || plural_of(&b, &a))
}

/// `MAX_SIZE`: upper case words joined by `_`.
fn is_constant_name(name: &str) -> bool {
    name.chars().any(char::is_uppercase) && !name.chars().any(char::is_lowercase)
}

/// How alike a name and a candidate's name (or type name) are, in [0, 1]: the share of words in
/// common, an edit distance close to the length, or an abbreviation (`o` for `order`, `sb` for
/// `stringBuilder`). Accessor prefixes (`get`, `is`) do not count.
pub fn similarity(name: &str, other: &str) -> f64 {
    let words = |s: &str| -> Vec<String> {
        crate::text::identifier_words(s)
            .into_iter()
            .filter(|w| !is_accessor_word(w))
            .map(|w| w.to_lowercase())
            .collect()
    };
    let (a, b) = (words(name), words(other));
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (ja, jb) = (a.join(""), b.join(""));
    if ja == jb {
        return 1.0;
    }
    // A number in common (`d2`, `y2`) names no common thing: it counts only beside a word.
    let is_number = |w: &String| w.chars().all(|c| c.is_ascii_digit());
    let common_words = a.iter().filter(|w| b.contains(w) && !is_number(w)).count();
    let common = if common_words == 0 { 0 } else { a.iter().filter(|w| b.contains(w)).count() };
    // A word that abbreviates another by its start (`conf`, `configuration`) or by dropping its
    // vowels (`fmt`, `format`; `ctx`, `context`) counts most of one.
    let abbreviates = |w: &str, v: &str| {
        w.len() >= 3
            && v.len() >= 3
            && (v.starts_with(w)
                || w.starts_with(v)
                || crate::text::drops_vowels(w, v)
                || crate::text::drops_vowels(v, w))
    };
    // Beside a word in common, one letter abbreviates a word it starts (`minDrawW`,
    // `minDrawWidth`): the same position, the rest spelt out.
    let initial = |w: &str, v: &str| {
        common > 0
            && (w.len() == 1 && v.len() >= 3 && v.starts_with(w) || v.len() == 1 && w.len() >= 3 && w.starts_with(v))
    };
    let abbreviates = |w: &str, v: &str| abbreviates(w, v) || initial(w, v);
    let prefixed = a.iter().filter(|w| !b.contains(w)).filter(|w| b.iter().any(|v| abbreviates(w, v))).count();
    let mut by_words = (common as f64 + 0.8 * prefixed as f64) / a.len().max(b.len()) as f64;
    // The last word of a Java name is its head noun: `templateOrder` and `templateString` share a
    // modifier but name different things, `fencingPath` and `fencingNodePath` the same thing, as
    // `minDrawW` and `minDrawWidth` (a longer abbreviation of a head, `extendedLen` for `length`,
    // often names another quantity).
    let same_head = match (a.last(), b.last()) {
        (Some(x), Some(y)) => singular(x) == singular(y) || initial(x, y),
        _ => false,
    };
    let other_head = (a.len() > 1 || b.len() > 1) && !same_head;
    if other_head {
        by_words *= 0.5;
    }
    // Each with a word the other lacks (`commonInputPath`, `fullInputPath`): the modifiers
    // disagree, and the shared words name a kind of thing, not this one. One name adding words
    // to the other (`path`, `removePath`) is a refinement and keeps its score.
    let extra = |x: &[String], y: &[String]| x.iter().any(|w| !y.contains(w) && !y.iter().any(|v| abbreviates(w, v)));
    if extra(&a, &b) && extra(&b, &a) {
        by_words *= 0.6;
    }
    let distance = crate::text::edit_distance(&ja, &jb);
    let longest = ja.chars().count().max(jb.chars().count());
    // Edit distance says little about short words (`next`, `text`) or words that start apart,
    // and one letter that makes another head noun (`w3cDoc`, `w3cDom`) makes another name.
    let by_edit = if longest >= 6 && ja.chars().next() == jb.chars().next() {
        let e = (1.0 - distance as f64 / longest as f64 - 0.3).max(0.0) / 0.7;
        if other_head { e * 0.5 } else { e }
    } else {
        0.0
    };
    let initials = |ws: &[String]| ws.iter().filter_map(|w| w.chars().next()).collect::<String>();
    // One letter (`i` for `index`) says less than the initials of several words (`sb`).
    let abbreviation = if (ja.len() == 1 && jb.starts_with(&ja)) || (jb.len() == 1 && ja.starts_with(&jb)) {
        0.3
    } else if (ja.len() <= 3 && ja == initials(&b)) || (jb.len() <= 3 && jb == initials(&a)) {
        0.5
    } else {
        0.0
    };
    let contains = if common + prefixed == 0 && ja.len() >= 3 && jb.len() >= 3 && (ja.contains(&jb) || jb.contains(&ja))
    {
        0.4
    } else {
        0.0
    };
    by_words.max(by_edit).max(abbreviation).max(contains)
}
