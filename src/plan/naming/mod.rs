//! Names for extracted methods, without a model: from the words the author already wrote.
//!
//! In order: the `//` comment that introduces the run (`// compute the totals` → `computeTotals`;
//! a comment without a verb borrows the run's dominant call verb: `// header` over `text.append`
//! calls → `appendHeader`); guard clauses (`if (...) throw`, `requireNonNull`) → `validate` + the
//! variable they check; a run with one value flowing out is named after that value (a boolean as
//! a question, `isValid` or `hasNext`; another value with the verb of the call that makes it,
//! `loadConfig`, `create` for a `new` instance, else `get`); a run that only stores one field
//! → `setFilter` (`withFilter` when it returns `this`), several → `initLabelFields` (`init` in a
//! constructor, `reset` for constants, else `set`, and the word the fields' names share);
//! otherwise the dominant verb of the methods it calls + its most used variable (`handle` when no
//! call has a verb). A variable's trailing digits are dropped, and a name left with one letter
//! (`i`, `c`, `s1`) never names a method: its class does (`Range r1` → `Range`), unless that is
//! `String`, a number or `Object`. The name
//! never clashes with a method of the class or of `Object`: a run that is one `if` and would be
//! named after a method it calls is `maybe` + that method (`maybeAdvance`); a comment's or a
//! value's name that the class has already (the split method's own, from its opening comment;
//! `getRowCount` for `int rowCount = getRowCount();`) gives way to the next rule's; otherwise a
//! digit is appended.
//!
//! `cargo run --release --example eval_naming` compares these names with developers' own.

use crate::java::syntax::Kind;
use std::collections::BTreeSet;

use tree_sitter::Node;

use crate::engine::dataflow::{FragmentFlow, MethodFlow};
use crate::java::syntax::{is_java_identifier, walk};
use crate::text::{after_word, field_stem};

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
    "setup",
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

/// First words of a call that, as a statement of its own, states a condition rather than does
/// something (`notNull(key);`, `nonEmpty(list);`, `requireNonNull(x);`, `mustBePositive(n);`).
const CHECK_WORDS: &[&str] = &["not", "non", "require", "must"];

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
    let guard = || {
        is_guard_run(stmts, src).then(|| {
            let checked = most_used(flow, ff.params.iter().copied(), stmts).unwrap_or_else(|| "input".into());
            format!("validate{}", capitalize(noun(&checked)))
        })
    };
    // A one-letter value (`i`, `c`) says nothing of what it holds; its class may (`e1` →
    // `createXYItemEntity`).
    let value = || {
        let var = &flow.vars[*ff.outputs.first()?];
        Some(value_name(var, &name_word(var)?, stmts, src))
    };
    let calls = || {
        let var = most_used(flow, 0..flow.vars.len(), stmts)?;
        // `testTest` (the calls are `testX(test)`) says the word twice and nothing more.
        let verb = verb.as_deref().filter(|v| !noun(&var).eq_ignore_ascii_case(v)).unwrap_or("handle");
        Some(format!("{verb}{}", capitalize(noun(&var))))
    };
    // A verb alone that is a keyword (`assert`) takes the outer call's name as its object.
    let bare_verb = || match verb.clone() {
        Some(v) if !is_java_identifier(&v) => outer_call_name(stmts, src).map(|c| format!("{v}{}", capitalize(&c))),
        v => v,
    };
    // Each rule, and whether a name of it that the class has already is passed over for the
    // next rule's: a comment's or a value's name that the class has (the split method's own
    // name from its opening comment, `getRowCount` for a run ending in `int rowCount =
    // getRowCount();`) names what the run belongs to or calls, not the run. A setter's or a
    // call's name keeps its words and takes a digit (`setMaxFrameLength2` is nearer to what
    // developers write than `handleMaxFrameLength`).
    let rules: [(&dyn Fn() -> Option<String>, bool); 6] = [
        (&|| comment.and_then(|c| from_comment(c, verb.as_deref())), true),
        (&guard, false),
        (&value, true),
        (&|| fluent_setter(stmts, flow, src), false),
        (&calls, false),
        (&bare_verb, false),
    ];
    let conditional = matches!(stmts, [only] if only.kind() == "if_statement");
    let mut first = None;
    for (name, pass_over) in rules.iter().filter_map(|(rule, pass_over)| Some((rule()?, *pass_over))) {
        let name = without_underscores(&name);
        if !is_java_identifier(&name) {
            continue;
        }
        if !taken.contains(&name) {
            return name;
        }
        // A bare verb that is already a method of the class is the method the run calls: a
        // run that is one `if` around those calls does it only sometimes (`maybeAdvance`, not
        // `advance2`).
        if conditional && name.chars().all(|c| c.is_ascii_lowercase()) {
            return unique(format!("maybe{}", capitalize(&name)), taken);
        }
        first.get_or_insert(name);
        if !pass_over {
            break;
        }
    }
    unique(first.unwrap_or_else(|| "extracted".to_string()), taken)
}

/// A method name in Java's camelCase, whatever the variables it was built from were
/// (`createStartsS` from `starts_S1`, `getMaxSize` from `max_size`): the style checkers'
/// method-name pattern (`^[a-z][a-zA-Z0-9]*$`) holds.
fn without_underscores(name: &str) -> String {
    if !name.contains('_') {
        return name.to_string();
    }
    let parts: Vec<&str> = name.split('_').filter(|p| !p.is_empty()).collect();
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        let shouting = part.len() > 1 && part.chars().all(|c| !c.is_ascii_lowercase());
        let part = if shouting { part.to_ascii_lowercase() } else { part.to_string() };
        out.push_str(&if i == 0 { part } else { capitalize(&part) });
    }
    out
}

/// A name for a run that computes the value of `var` for the code after it: a boolean reads as a
/// question (`isEmpty`, or the variable's own name when it already is one: `hasNext`); another
/// value takes the verb of the call that makes it when that is a verb (`loadConfig` for
/// `config = loader.loadFrom(…)`), `create` for a `new` instance, else `get`.
fn value_name(var: &crate::engine::dataflow::LocalVar<'_>, word: &str, stmts: &[Node<'_>], src: &str) -> String {
    let noun = noun(word);
    if matches!(var.type_text.as_deref(), Some("boolean" | "Boolean")) {
        let question =
            ["is", "has", "can", "should", "was", "needs", "contains"].iter().any(|q| after_word(noun, q).is_some());
        return if question { noun.to_string() } else { format!("is{}", capitalize(noun)) };
    }
    let verb = match defining_value(var, stmts, src) {
        Some(v) if v.kind_name() == "object_creation_expression" => "create".to_string(),
        Some(v) if v.kind_name() == "method_invocation" => v
            .child_by_field_name("name")
            .map(|n| src[n.byte_range()].chars().take_while(|c| c.is_ascii_lowercase()).collect::<String>())
            .filter(|w| VERBS.contains(&w.as_str()))
            .unwrap_or_else(|| "get".to_string()),
        _ => "get".to_string(),
    };
    format!("{verb}{}", capitalize(noun))
}

/// A variable's name as a word of a method name: without the digits that tell copies apart
/// (`list2` → `list`).
fn noun(name: &str) -> &str {
    let bare = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if bare.is_empty() { name } else { bare }
}

/// The expression that gives `var` its value in the run: its initializer when the run declares it,
/// else the last assignment to it in the run.
fn defining_value<'t>(var: &crate::engine::dataflow::LocalVar<'t>, stmts: &[Node<'t>], src: &str) -> Option<Node<'t>> {
    let (first, last) = (stmts.first()?, stmts.last()?);
    let inside = |n: Node<'_>| n.start_byte() >= first.start_byte() && n.end_byte() <= last.end_byte();
    if let Some(init) = var.initializer.filter(|i| inside(*i)) {
        return Some(init);
    }
    let mut found = None;
    for s in stmts {
        walk(*s, &mut |n| {
            if n.kind_name() == "assignment_expression"
                && n.child_by_field_name("left").is_some_and(|l| src[l.byte_range()] == var.name)
            {
                found = n.child_by_field_name("right");
            }
            true
        });
    }
    found
}

/// A run that only stores values in fields, and perhaps returns `this`: `setFilter` for
/// `myFilter = filter;`, `withFilter` when it returns `this` (a fluent setter). Field prefixes
/// (`my`, `m`, `_`) are dropped. Several fields: `init`, `reset` or `set` + the word their names
/// share + `Fields`.
fn fluent_setter(stmts: &[Node<'_>], flow: &MethodFlow<'_>, src: &str) -> Option<String> {
    let mut fields = Vec::new();
    let mut values = Vec::new();
    let mut fluent = false;
    for s in stmts {
        let text = src[s.byte_range()].split_whitespace().collect::<String>();
        if text == "returnthis;" {
            fluent = true;
            continue;
        }
        let assignment = (s.kind_name() == "expression_statement").then(|| s.named_child(0)).flatten()?;
        let left =
            (assignment.kind_name() == "assignment_expression").then(|| assignment.child_by_field_name("left"))??;
        let name = match left.kind_name() {
            // A bare name is a field when no local or parameter has it.
            "identifier" if !flow.vars.iter().any(|v| v.name == src[left.byte_range()]) => &src[left.byte_range()],
            "field_access" if left.child_by_field_name("object").is_some_and(|o| o.kind_name() == "this") => {
                &src[left.child_by_field_name("field")?.byte_range()]
            }
            _ => return None,
        };
        fields.push(name.to_string());
        values.push(assignment.child_by_field_name("right")?);
    }
    match fields.as_slice() {
        [] => None,
        [field] => Some(format!("{}{}", if fluent { "with" } else { "set" }, capitalize(field_stem(field)))),
        many => {
            // Several fields set in a row: a constructor initialises them, constants reset them,
            // other values set them; the word every one of their names holds says which they are
            // (`initLabelFields` for `labelFont`, `labelPaint`, …).
            let words: Vec<Vec<String>> = many.iter().map(|f| camel_words(field_stem(f))).collect();
            let common = words[0].iter().find(|w| w.len() > 1 && words.iter().all(|ws| ws.contains(w)));
            let verb = if in_constructor(stmts[0]) {
                "init"
            } else if values.iter().all(|v| is_constant(*v, src)) {
                "reset"
            } else {
                "set"
            };
            Some(format!("{verb}{}Fields", common.map(|w| capitalize(w)).unwrap_or_default()))
        }
    }
}

/// Whether `node` is in a constructor's body (not in a lambda or a class declared there).
fn in_constructor(node: Node<'_>) -> bool {
    let mut cur = node.parent();
    while let Some(n) = cur {
        match n.kind_name() {
            "constructor_declaration" => return true,
            "method_declaration" | "lambda_expression" | "class_body" | "enum_body" => return false,
            _ => cur = n.parent(),
        }
    }
    false
}

/// A literal (`-1`, `null`, `false`) or a constant (`NaN`, `Double.NaN`, `MAX_SIZE`).
fn is_constant(value: Node<'_>, src: &str) -> bool {
    let text = src[value.byte_range()].trim_start_matches('-').trim();
    let last = text.rsplit('.').next().unwrap_or(text);
    let literal = matches!(
        value.kind_name(),
        "decimal_integer_literal"
            | "decimal_floating_point_literal"
            | "null_literal"
            | "true"
            | "false"
            | "string_literal"
            | "character_literal"
            | "hex_integer_literal"
    ) || (value.kind_name() == "unary_expression" && text.starts_with(|c: char| c.is_ascii_digit()));
    let constant = matches!(value.kind_name(), "identifier" | "field_access")
        && last.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        || last == "NaN";
    literal || constant
}

/// Whether a `//` comment (its text without the slashes) says what the code below it does, as
/// opposed to talking to a tool (`@formatter:off`, `CHECKSTYLE:OFF`, `NOPMD`, `noinspection`,
/// `$NON-NLS-1$`), leaving a note about what is still to be done (`TODO`, `FIXME`, `XXX`, `HACK`)
/// or keeping code out of the build (`// cache.clear();`). Only a description names a method or
/// marks where the author's own run of statements starts.
pub fn is_description(comment: &str) -> bool {
    let text = comment.trim();
    let lower = text.to_ascii_lowercase();
    let first: String = lower.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    let directive = text.starts_with('@')
        || text.starts_with('$')
        || lower.contains("non-nls")
        || lower.split(' ').any(|w| w.ends_with(":off") || w.ends_with(":on"))
        || lower.starts_with("language=")
        || DIRECTIVES.contains(&first.as_str());
    let note = TASK_MARKERS.contains(&first.as_str());
    !(directive || note || looks_like_code(text))
}

/// First words of comments addressed to a tool: formatters, linters, IDE inspections.
const DIRECTIVES: &[&str] = &["nopmd", "nosonar", "noinspection", "checkstyle", "cpd-off", "cpd-on", "suppress"];

/// First words of notes about work still to do.
const TASK_MARKERS: &[&str] = &["todo", "fixme", "xxx", "hack"];

/// Commented-out code: a statement (`;`), a block's brace, or a call (`cache.clear()`).
fn looks_like_code(text: &str) -> bool {
    let call = text.ends_with(')')
        && text.char_indices().any(|(i, c)| {
            c == '(' && text[..i].chars().next_back().is_some_and(|p| p.is_ascii_alphanumeric() || p == '_')
        })
        && !text.contains(' ');
    text.ends_with(';') || text.ends_with('{') || text.ends_with('}') || call
}

/// `// compute the totals` → `computeTotals`; `None` when the comment has no usable words.
pub fn from_comment(comment: &str, fallback_verb: Option<&str>) -> Option<String> {
    // `aren't` is `are not`; `it's`, `we'll` lose the contracted word.
    let comment = comment
        .replace('\u{2019}', "'")
        .replace("can't", "can not")
        .replace("won't", "will not")
        .replace("n't", " not");
    let comment: String = {
        let mut out = String::with_capacity(comment.len());
        let mut chars = comment.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\'' && out.ends_with(|p: char| p.is_ascii_alphabetic()) {
                while chars.peek().is_some_and(|n| n.is_ascii_alphabetic()) {
                    chars.next();
                }
                continue;
            }
            out.push(c);
        }
        out
    };
    // The first clause says what the run does; what follows a comma or a stop qualifies it.
    let clause = comment.split([',', '.', ';', ':', '(']).find(|c| c.chars().any(|x| x.is_ascii_alphabetic()));
    let words: Vec<String> = clause
        .unwrap_or(&comment)
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        // An identifier the comment quotes keeps its words: `hasNext` → `HasNext`, not `Hasnext`.
        .flat_map(camel_words)
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

/// The words of a camelCase or PascalCase identifier, lower-cased: `hasNext` → `has`, `next`;
/// `CSVParser` → `csv`, `parser`. A plain word is one word.
fn camel_words(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut words = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (prev, cur, next) = (chars[i - 1], chars[i], chars.get(i + 1));
        // `xY` starts a word at Y; so does `XYz` (the end of an acronym) at Y.
        let lower_to_upper = (prev.is_ascii_lowercase() || prev.is_ascii_digit()) && cur.is_ascii_uppercase();
        let acronym_end =
            prev.is_ascii_uppercase() && cur.is_ascii_uppercase() && next.is_some_and(char::is_ascii_lowercase);
        if lower_to_upper || acronym_end {
            words.push(chars[start..i].iter().collect::<String>().to_ascii_lowercase());
            start = i;
        }
    }
    words.push(chars[start..].iter().collect::<String>().to_ascii_lowercase());
    words
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
        .filter_map(|v| Some((name_word(&flow.vars[v])?, v)))
        .map(|(word, v)| (flow.refs.iter().filter(|r| r.var == v && range.contains(&r.at)).count(), v, word))
        .filter(|(n, ..)| *n > 0)
        // Ties go to the earliest declared variable.
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(.., word)| word)
}

/// What a variable contributes to a method name: its name (whose trailing digits the caller's
/// `noun` drops), unless that is one letter without them (`i`, `c`, `s1`: they say nothing of what
/// the run does) or an abbreviation of its class (`sb` for `StringBuilder`); then the class it is
/// declared with (`Range r1` → `Range`), unless that is a text, a number or anything at all
/// (`String`, `Integer`, `Object`), which says no more (a one-letter name then gives nothing).
fn name_word(var: &crate::engine::dataflow::LocalVar<'_>) -> Option<String> {
    let bare = noun(&var.name);
    let short = bare.chars().count() <= 1;
    let class = || {
        let ty = var.type_text.as_deref()?;
        let simple = ty.split('<').next()?.trim_end_matches("[]").rsplit('.').next()?;
        const SAY_NOTHING: &[&str] = &[
            "String",
            "Object",
            "Integer",
            "Long",
            "Double",
            "Float",
            "Short",
            "Byte",
            "Character",
            "Boolean",
            "Number",
        ];
        // A type variable (`T`) is one letter too.
        let class = simple.len() > 1 && simple.starts_with(|c: char| c.is_ascii_uppercase()) && !ty.contains("[]");
        (class && is_java_identifier(simple) && !SAY_NOTHING.contains(&simple)).then(|| simple.to_string())
    };
    // An abbreviation of its class (`sb`, `buf`, `ctx`) says what the class says, less readably.
    match class() {
        Some(c) if short || crate::text::abbreviates_type(bare, &c) => Some(c),
        _ if short => None,
        _ => Some(var.name.clone()),
    }
}

/// The name of the call the run's last statement ends with (`isNotEmpty` of
/// `assertThat(list).isNotEmpty();`), if any.
fn outer_call_name(stmts: &[Node<'_>], src: &str) -> Option<String> {
    let mut outer = None;
    walk(*stmts.last()?, &mut |n| {
        if outer.is_none()
            && n.kind_name() == "method_invocation"
            && let Some(name) = n.child_by_field_name("name")
        {
            outer = Some(src[name.byte_range()].to_string());
        }
        outer.is_none()
    });
    outer
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
                let mut word: String = name.chars().take_while(|c| c.is_ascii_lowercase()).collect();
                // A statement that only states what must hold (`notNull(key);`,
                // `requireNonNull(x);`) checks it: the run validates.
                let alone = n.parent().is_some_and(|p| p.kind_name() == "expression_statement");
                if alone && CHECK_WORDS.contains(&word.as_str()) {
                    word = "validate".to_string();
                }
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
mod tests;
