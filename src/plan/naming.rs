//! Names for extracted methods, without a model: from the words the author already wrote.
//!
//! In order: the `//` comment that introduces the run (`// compute the totals` → `computeTotals`;
//! a comment without a verb borrows the run's dominant call verb: `// header` over `text.append`
//! calls → `appendHeader`); guard clauses (`if (...) throw`, `requireNonNull`) → `validate` + the
//! variable they check; a run with one value flowing out → `compute` + that variable; otherwise
//! the dominant verb of the methods it calls + its most used variable. The name never clashes with
//! a method of the class (a digit is appended).

use crate::java::syntax::Kind;
use std::collections::BTreeSet;

use tree_sitter::Node;

use crate::engine::dataflow::{FragmentFlow, MethodFlow};
use crate::java::syntax::{is_java_identifier, walk};

/// Words that start a method name well. A comment starting with one keeps its own verb.
const VERBS: &[&str] = &[
    "add",
    "append",
    "apply",
    "assert",
    "build",
    "calculate",
    "check",
    "clear",
    "close",
    "collect",
    "compute",
    "convert",
    "copy",
    "count",
    "create",
    "emit",
    "ensure",
    "fill",
    "filter",
    "find",
    "format",
    "free",
    "handle",
    "init",
    "initialize",
    "load",
    "log",
    "make",
    "map",
    "merge",
    "normalize",
    "notify",
    "open",
    "parse",
    "prepare",
    "print",
    "process",
    "read",
    "register",
    "release",
    "remove",
    "render",
    "reset",
    "save",
    "send",
    "set",
    "sort",
    "start",
    "stop",
    "store",
    "sum",
    "update",
    "validate",
    "verify",
    "write",
];

/// Words a comment carries that a name does not need.
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "of", "to", "for", "and", "or", "in", "on", "with", "from", "by", "at", "into", "its", "it",
    "this", "that", "all", "each", "every", "then", "we", "our", "is", "are", "be",
];

/// Call names that say nothing about what a run does.
const BLAND_CALLS: &[&str] =
    &["get", "is", "has", "of", "value", "to", "equals", "hash", "size", "length", "stream", "require"];

/// Proposes a camelCase name for the statements `stmts`, not in `taken`.
pub fn for_fragment(
    stmts: &[Node<'_>],
    comment: Option<&str>,
    flow: &MethodFlow<'_>,
    ff: &FragmentFlow,
    src: &str,
    taken: &BTreeSet<String>,
) -> String {
    let verb = dominant_call_verb(stmts, src);
    let base = comment
        .and_then(|c| from_comment(c, verb.as_deref()))
        .or_else(|| {
            is_guard_run(stmts, src).then(|| {
                let checked = most_used(flow, ff.params.iter().copied(), stmts).unwrap_or_else(|| "input".into());
                format!("validate{}", capitalize(&checked))
            })
        })
        .or_else(|| ff.outputs.first().map(|&o| format!("compute{}", capitalize(&flow.vars[o].name))))
        .or_else(|| {
            let var = most_used(flow, 0..flow.vars.len(), stmts)?;
            Some(format!("{}{}", verb.clone()?, capitalize(&var)))
        })
        .or(verb)
        .filter(|n| is_java_identifier(n))
        .unwrap_or_else(|| "extracted".to_string());
    unique(base, taken)
}

/// `// compute the totals` → `computeTotals`; `None` when the comment has no usable words.
pub fn from_comment(comment: &str, fallback_verb: Option<&str>) -> Option<String> {
    let words: Vec<String> = comment
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .collect();
    let first = words.first()?;
    if first.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    if !VERBS.contains(&first.as_str()) {
        parts.push(fallback_verb.unwrap_or("handle").to_string());
    }
    parts.extend(words.into_iter().take(if parts.is_empty() { 4 } else { 3 }));
    Some(camel(&parts))
}

fn camel(words: &[String]) -> String {
    let mut out = String::new();
    for (i, w) in words.iter().enumerate() {
        if i == 0 { out.push_str(w) } else { out.push_str(&capitalize(w)) }
    }
    out
}

pub fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

fn unique(base: String, taken: &BTreeSet<String>) -> String {
    if !taken.contains(&base) {
        return base;
    }
    (2..).map(|i| format!("{base}{i}")).find(|n| !taken.contains(n)).unwrap_or(base)
}

/// Every statement is an `if` that throws, or a precondition call (`requireNonNull`, `checkArgument`).
fn is_guard_run(stmts: &[Node<'_>], src: &str) -> bool {
    let throws = |n: Node<'_>| {
        let mut found = false;
        walk(n, &mut |c| {
            found |= c.kind_name() == "throw_statement";
            !found
        });
        found
    };
    stmts.iter().all(|s| match s.kind_name() {
        "if_statement" => {
            s.child_by_field_name("alternative").is_none() && s.child_by_field_name("consequence").is_some_and(throws)
        }
        "expression_statement" | "assert_statement" => {
            let text = &src[s.byte_range()];
            s.kind_name() == "assert_statement"
                || ["requireNonNull", "checkArgument", "checkState", "checkNotNull"].iter().any(|p| text.contains(p))
        }
        _ => false,
    })
}

/// The variable (among `candidates`) referenced most inside the statements.
fn most_used(flow: &MethodFlow<'_>, candidates: impl Iterator<Item = usize>, stmts: &[Node<'_>]) -> Option<String> {
    let (first, last) = (stmts.first()?, stmts.last()?);
    let range = first.start_byte()..last.end_byte();
    candidates
        .map(|v| (flow.refs.iter().filter(|r| r.var == v && range.contains(&r.at)).count(), v))
        .filter(|(n, _)| *n > 0)
        // Ties go to the earliest declared variable.
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(_, v)| flow.vars[v].name.clone())
}

/// The first camelCase word of the called methods' names, the most frequent one (ties: first seen).
fn dominant_call_verb(stmts: &[Node<'_>], src: &str) -> Option<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for s in stmts {
        walk(*s, &mut |n| {
            if n.kind_name() == "method_invocation"
                && let Some(name) = n.child_by_field_name("name")
            {
                let name = &src[name.byte_range()];
                let word: String = name.chars().take_while(|c| c.is_ascii_lowercase()).collect();
                if !word.is_empty() && !BLAND_CALLS.contains(&word.as_str()) {
                    match counts.iter_mut().find(|(w, _)| *w == word) {
                        Some((_, c)) => *c += 1,
                        None => counts.push((word, 1)),
                    }
                }
            }
            true
        });
    }
    // Words that are verbs win over the rest (`amount()` is a getter in disguise).
    counts.sort_by_key(|(w, c)| (!VERBS.contains(&w.as_str()), std::cmp::Reverse(*c)));
    counts.into_iter().next().map(|(w, _)| w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_become_camel_case_names() {
        assert_eq!(from_comment("compute the totals", None).as_deref(), Some("computeTotals"));
        assert_eq!(from_comment("Build a CSV row for each item", None).as_deref(), Some("buildCsvRowItem"));
        assert_eq!(from_comment("header", Some("append")).as_deref(), Some("appendHeader"));
        assert_eq!(from_comment("totals", None).as_deref(), Some("handleTotals"));
        assert_eq!(from_comment("---", None), None);
        assert_eq!(from_comment("42 things", None), None);
    }

    #[test]
    fn names_do_not_clash() {
        let taken: BTreeSet<String> = ["run".to_string(), "run2".to_string()].into();
        assert_eq!(unique("run".into(), &taken), "run3");
        assert_eq!(unique("walk".into(), &taken), "walk");
    }
}
