//! Extract Method candidates: which runs of statements of a method are worth a method of their own.
//!
//! Candidates are whole-statement runs of one block: a loop body, an if/else branch, a try body,
//! a run introduced by a `//` comment (up to a blank line or the next comment), a paragraph between
//! blank lines, and any contiguous window of statements. Each gets a score in 0..1 from its parts:
//!
//! | component | prefers |
//! |---|---|
//! | `size` | 20–60 % of the method body's lines |
//! | `cohesion` | variables used mostly inside the fragment rather than shared with the rest |
//! | `params` | few parameters |
//! | `outputs` | no value flowing out (one is fine; two cannot be extracted) |
//! | `nesting` | shallow blocks |
//! | `shape` | runs the author delimited (comment, block, paragraph) over arbitrary windows |
//!
//! Only candidates the engine accepts are kept: each is run through [`extract::plan`] with its
//! proposed name, so a refusal (a `break` leaving the run, two outputs, ...) never reaches the user.

use crate::java::syntax::Kind;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use serde::Serialize;
use tree_sitter::Node;

use super::naming;
pub use super::trivial::{computes_nothing, glued_value, single_call};
use crate::engine::dataflow::{FragmentFlow, MethodFlow, loops_around};
use crate::engine::extract::{self, ExtractSpec};
use crate::java::SourceFile;
use crate::java::syntax::{
    callable_body, enclosing_callable, is_comment, is_flow_boundary, is_statement_container, is_type_body,
    sequence_can_complete, statements_of,
};

/// Every window is tried in containers of at most this many statements (beyond it, a sample of
/// them is: see [`windows`]): the engine check per window is cheap, but not free.
const MAX_WINDOW_CONTAINER: usize = 40;

/// How many evenly spaced starts a window of each length gets in a longer block.
const WINDOW_STARTS: usize = 16;

/// One ranked, engine-accepted Extract Method candidate.
#[derive(Debug, Clone, Serialize)]
pub struct ExtractCandidate {
    /// 1-based inclusive lines of the statements, as the engine snapped them.
    pub lines: (usize, usize),
    pub name: String,
    /// What kind of run it is: `comment run`, `loop body`, `if branch`, `paragraph`, `window`, ...
    pub shape: &'static str,
    pub score: f64,
    pub components: Vec<(&'static str, f64)>,
    /// The new method's declaration, e.g. `private void validateInvoice(Invoice invoice, LocalDate issueDate)`.
    pub signature: String,
    /// The new method's parameters (locals of the source method it receives).
    pub params: Vec<String>,
}

/// A fragment with its total score, the score's parts and its data flow.
type Scored<'t> = (f64, Vec<(&'static str, f64)>, Fragment<'t>, FragmentFlow);

/// A run of statements before scoring.
struct Fragment<'t> {
    stmts: Vec<Node<'t>>,
    /// The block the statements are in.
    container: Node<'t>,
    shape: &'static str,
    /// The `//` comment introducing the run, without the slashes.
    comment: Option<String>,
    depth: usize,
}

/// The method whose declaration contains byte `at` of `file`, ranked candidates best first, at
/// most `limit` of them (each one costs an engine run).
pub fn candidates(file: &SourceFile, at: usize, limit: usize) -> Vec<ExtractCandidate> {
    let src = file.text.as_str();
    let Some(callable) = enclosing_callable(file.root(), at, at) else { return Vec::new() };
    let Some(body) = callable_body(callable) else { return Vec::new() };
    let flow = MethodFlow::analyze(callable, src);
    let taken = class_method_names(callable, src);
    let method_line = callable.start_position().row + 1;
    let body_lines = (body.end_position().row.saturating_sub(body.start_position().row)).saturating_sub(1).max(1);

    let mut scored: Vec<Scored<'_>> = Vec::new();
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    // The loops around each block, found once for all of its runs.
    let mut loops: HashMap<usize, Vec<std::ops::Range<usize>>> = HashMap::new();
    for frag in fragments(body, src) {
        if single_call(&frag.stmts) || computes_nothing(&frag.stmts) {
            continue;
        }
        let around = loops.entry(frag.container.id()).or_insert_with(|| loops_around(frag.stmts[0]));
        let ff = flow.fragment_within(&frag.stmts, around, src);
        if ff.outputs.len() >= 2 || glued_value(&frag.stmts, &flow, &ff) {
            continue;
        }
        let components = score(&frag, &ff, &flow, body_lines, src);
        let total = weighted(&components);
        let key = span_lines(&frag.stmts);
        match seen.get(&key) {
            Some(&i) if scored[i].0 >= total => continue,
            Some(&i) => scored[i] = (total, components, frag, ff),
            None => {
                seen.insert(key, scored.len());
                scored.push((total, components, frag, ff));
            }
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));

    let mut out: Vec<ExtractCandidate> = Vec::new();
    for (total, components, frag, ff) in scored {
        if out.len() >= limit {
            break;
        }
        let name = naming::for_fragment(&frag.stmts, frag.comment.as_deref(), &flow, &ff, src, &taken);
        let lines = span_lines(&frag.stmts);
        let spec = spec_for(&file.path, method_line, lines, &name);
        if let Ok(done) = extract::plan_with_flow(file, &spec, &flow) {
            out.push(ExtractCandidate {
                lines: done.lines,
                name,
                shape: frag.shape,
                score: round(total),
                components: components.into_iter().map(|(k, v)| (k, round(v))).collect(),
                signature: done.signature,
                params: ff.params.iter().map(|&i| flow.vars[i].name.clone()).collect(),
            });
        }
    }
    out
}

/// The lines of all the statements of the body of the method around byte `at`. Never an Extract
/// Method candidate (the method would only delegate), but what Extract And Move takes when
/// nothing smaller will do: the body moves to its new class and the method stays behind,
/// delegating to it, as developers keep an old entry point working.
pub fn whole_body(file: &SourceFile, at: usize) -> Option<(usize, usize)> {
    let body = callable_body(enclosing_callable(file.root(), at, at)?)?;
    let stmts = statements_of(body);
    (!stmts.is_empty()).then(|| span_lines(&stmts))
}

/// A name for the statements on `lines` of the method around byte `at` (when the user chose the
/// lines but not the name).
pub fn name_for_lines(file: &SourceFile, at: usize, lines: (usize, usize)) -> String {
    let src = file.text.as_str();
    let Some(callable) = enclosing_callable(file.root(), at, at) else { return "extracted".into() };
    let Some(body) = callable_body(callable) else { return "extracted".into() };
    let flow = MethodFlow::analyze(callable, src);
    let taken = class_method_names(callable, src);
    match selected(body, lines) {
        Some((c, stmts)) => {
            let ff = flow.fragment(&stmts, src);
            let comment = leading_comment(c, stmts[0], src);
            naming::for_fragment(&stmts, comment.as_deref(), &flow, &ff, src, &taken)
        }
        None => "extracted".into(),
    }
}

/// The statements of one block that `lines` of the method around byte `at` hold whole (see
/// [`selected`]): their lines and how many they are.
pub fn statements_within(file: &SourceFile, at: usize, lines: (usize, usize)) -> Option<((usize, usize), usize)> {
    let body = callable_body(enclosing_callable(file.root(), at, at)?)?;
    let (_, stmts) = selected(body, lines)?;
    Some((span_lines(&stmts), stmts.len()))
}

/// The block holding the most statements wholly inside `lines`, among those not nested in one of
/// those statements (lines selecting `xs.forEach(x -> { ... })` take that call, not the lambda's
/// statements), with those statements.
fn selected<'t>(body: Node<'t>, lines: (usize, usize)) -> Option<(Node<'t>, Vec<Node<'t>>)> {
    let runs: Vec<(Node<'t>, Vec<Node<'t>>)> = containers(body)
        .into_iter()
        .map(|(c, _)| {
            let inside: Vec<Node<'t>> = statements_of(c)
                .into_iter()
                .filter(|s| s.start_position().row + 1 >= lines.0 && s.end_position().row < lines.1)
                .collect();
            (c, inside)
        })
        .filter(|(_, inside)| !inside.is_empty())
        .collect();
    let nested = |c: Node<'_>| {
        runs.iter()
            .flat_map(|(_, inside)| inside)
            .any(|s| s.start_byte() <= c.start_byte() && c.end_byte() <= s.end_byte())
    };
    // Every run kept holds a statement (empty ones were dropped above).
    let best = runs.iter().filter(|(c, _)| !nested(*c)).max_by_key(|(_, inside)| inside.len())?;
    Some(best.clone())
}

pub fn spec_for(file: &Path, method_line: usize, lines: (usize, usize), name: &str) -> ExtractSpec {
    ExtractSpec {
        file: file.to_path_buf(),
        method_line: Some(method_line),
        lines,
        name: name.to_string(),
        visibility: None,
        local_types: Default::default(),
        params: Vec::new(),
        param_types: Default::default(),
        quiet_calls: Vec::new(),
        copies: Vec::new(),
    }
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn span_lines(stmts: &[Node<'_>]) -> (usize, usize) {
    let first = stmts.first().map_or(0, |s| s.start_position().row + 1);
    let last = stmts.last().map_or(0, |s| s.end_position().row + 1);
    (first, last)
}

const WEIGHTS: [(&str, f64); 6] =
    [("size", 0.25), ("cohesion", 0.10), ("params", 0.25), ("outputs", 0.10), ("nesting", 0.10), ("shape", 0.20)];

fn weighted(components: &[(&'static str, f64)]) -> f64 {
    components.iter().map(|(k, v)| v * WEIGHTS.iter().find(|(w, _)| w == k).map_or(0.0, |(_, w)| *w)).sum()
}

fn score(
    frag: &Fragment<'_>,
    ff: &FragmentFlow,
    flow: &MethodFlow<'_>,
    body_lines: usize,
    src: &str,
) -> Vec<(&'static str, f64)> {
    let (first, last) = span_lines(&frag.stmts);
    let ratio = (last + 1 - first) as f64 / body_lines as f64;
    let size = if ratio < 0.2 {
        ratio / 0.2
    } else if ratio <= 0.6 {
        1.0
    } else {
        ((1.0 - ratio) / 0.4).max(0.0)
    };
    // Cohesion: of all uses of the variables the fragment touches, the share inside it.
    let range = frag.stmts[0].start_byte()..frag.stmts[frag.stmts.len() - 1].end_byte();
    let (inside, outside) = flow.uses_around(&range);
    let cohesion = if inside + outside == 0 { 1.0 } else { inside as f64 / (inside + outside) as f64 };
    let params = (1.0 - 0.2 * ff.params.len() as f64).max(0.0);
    // A run that ends the method (`return ...`) hands a value back just like an output does.
    let outputs = if ff.outputs.is_empty() && sequence_can_complete(&frag.stmts, src) { 1.0 } else { 0.8 };
    let nesting = (1.0 - 0.25 * frag.depth as f64).max(0.0);
    let shape = match frag.shape {
        "comment run" => 1.0,
        "window" => 0.5,
        "window across paragraphs" => 0.2,
        "paragraph" => 0.8,
        _ => 0.9,
    };
    vec![
        ("size", size),
        ("cohesion", cohesion),
        ("params", params),
        ("outputs", outputs),
        ("nesting", nesting),
        ("shape", shape),
    ]
}

/// Statement containers inside `body` (itself included) with their depth, not crossing lambdas
/// or nested classes (their statements belong to another method).
fn containers(body: Node<'_>) -> Vec<(Node<'_>, usize)> {
    // The depth is carried down the walk: asking tree-sitter for a parent costs a descent from
    // the root each time.
    fn visit<'t>(n: Node<'t>, depth: usize, out: &mut Vec<(Node<'t>, usize)>) {
        let mut cursor = n.walk();
        for child in n.children(&mut cursor) {
            // A lambda's block is a run of statements like any other (the engine types its
            // parameters from the call it is passed to, or refuses); a nested class's are not.
            if child.kind_name() == "lambda_expression" {
                if let Some(body) = child.child_by_field_name("body").filter(|b| b.kind_name() == "block") {
                    out.push((body, depth + 1));
                    visit(body, depth + 2, out);
                }
                continue;
            }
            if is_flow_boundary(child.kind_name()) {
                continue;
            }
            if is_statement_container(child.kind_name()) {
                out.push((child, depth));
                visit(child, depth + 1, out);
            } else {
                visit(child, depth, out);
            }
        }
    }
    let mut out = Vec::new();
    if is_statement_container(body.kind_name()) {
        out.push((body, 0));
    }
    visit(body, 1, &mut out);
    out
}

fn fragments<'t>(body: Node<'t>, src: &str) -> Vec<Fragment<'t>> {
    let mut out = Vec::new();
    for (container, depth) in containers(body) {
        let stmts = statements_of(container);
        if stmts.is_empty() {
            continue;
        }
        let is_body = container.id() == body.id();
        if !is_body {
            out.push(Fragment { stmts: stmts.clone(), container, shape: block_shape(container), comment: None, depth });
        }
        // Comment-introduced runs.
        let mut cursor = container.walk();
        let children: Vec<Node<'t>> = container.named_children(&mut cursor).collect();
        // The `//` comment on the line right above each statement, if any.
        let leading: Vec<Option<String>> = stmts
            .iter()
            .map(|s| {
                let i = children.iter().position(|c| c.id() == s.id())?;
                comment_above(children[i.checked_sub(1)?], *s, src)
            })
            .collect();
        for (i, child) in children.iter().enumerate() {
            if !own_line_comment(*child, src) {
                continue;
            }
            // The second line of a comment belongs to the run its first line introduces.
            if i > 0 && continues(children[i - 1], *child, src) {
                continue;
            }
            // A note to a tool or a reader (`@formatter:off`, `TODO`) does not name the run after it.
            let text = comment_text(*child, src);
            if !naming::is_description(&text) {
                continue;
            }
            let mut run = Vec::new();
            let mut last_line = *child;
            for next in &children[i + 1..] {
                if run.is_empty() && continues(last_line, *next, src) {
                    last_line = *next;
                    continue;
                }
                if is_comment(next.kind_name()) {
                    break;
                }
                if let Some(prev) = run.last().copied().or(Some(last_line))
                    && blank_between(prev, *next, src)
                {
                    break;
                }
                if stmts.iter().any(|s| s.id() == next.id()) {
                    run.push(*next);
                }
            }
            let whole_body = is_body && run.len() == stmts.len();
            if !run.is_empty() && !whole_body {
                out.push(Fragment { stmts: run, container, shape: "comment run", comment: Some(text), depth });
            }
        }
        // Whether a blank line separates each statement from the next.
        let gaps: Vec<bool> = stmts.windows(2).map(|w| blank_between(w[0], w[1], src)).collect();
        // Paragraphs between blank lines.
        let mut start = 0;
        for i in 1..=stmts.len() {
            if i == stmts.len() || gaps[i - 1] {
                if !(start == 0 && i == stmts.len()) {
                    let run = stmts[start..i].to_vec();
                    let comment = leading[start].clone();
                    out.push(Fragment { stmts: run, container, shape: "paragraph", comment, depth });
                }
                start = i;
            }
        }
        // Every contiguous window; in a long block, a sample of them.
        for (a, b) in windows(stmts.len()) {
            if is_body && a == 0 && b + 1 == stmts.len() {
                continue;
            }
            let run = stmts[a..=b].to_vec();
            let comment = leading[a].clone();
            let shape = if gaps[a..b].iter().any(|&blank| blank) { "window across paragraphs" } else { "window" };
            out.push(Fragment { stmts: run, container, shape, comment, depth });
        }
    }
    out
}

/// The windows `(first, last)` tried in a block of `n` statements: all of them up to
/// [`MAX_WINDOW_CONTAINER`]; beyond, windows of a tenth up to half of the block, starting at
/// [`WINDOW_STARTS`] evenly spaced statements (and ending at the last), so that a long flat method
/// (no blank line, no comment) still gets candidates, at a cost that does not grow with its length.
fn windows(n: usize) -> Vec<(usize, usize)> {
    if n <= MAX_WINDOW_CONTAINER {
        return (0..n).flat_map(|a| (a..n).map(move |b| (a, b))).collect();
    }
    let mut out = BTreeSet::new();
    for tenths in 1..=5 {
        let len = (n * tenths / 10).max(2);
        let last_start = n - len;
        for k in 0..=WINDOW_STARTS {
            let a = last_start * k / WINDOW_STARTS;
            out.insert((a, a + len - 1));
        }
    }
    out.into_iter().collect()
}

fn block_shape(container: Node<'_>) -> &'static str {
    let Some(parent) = container.parent() else { return "block" };
    match parent.kind_name() {
        "for_statement" | "enhanced_for_statement" | "while_statement" | "do_statement" => "loop body",
        "if_statement" => {
            if parent.child_by_field_name("alternative").is_some_and(|a| a.id() == container.id()) {
                "else branch"
            } else {
                "if branch"
            }
        }
        "try_statement" | "try_with_resources_statement" => "try body",
        "catch_clause" => "catch body",
        "finally_clause" => "finally body",
        _ => "block",
    }
}

/// The `//` comment on the line right above `stmt` in `container`, if any.
fn leading_comment(container: Node<'_>, stmt: Node<'_>, src: &str) -> Option<String> {
    let prev = stmt.prev_named_sibling()?;
    if prev.parent().is_none_or(|p| p.id() != container.id()) {
        return None;
    }
    comment_above(prev, stmt, src)
}

/// The text of `prev` when it is a `//` comment on a line of its own right above `stmt` that
/// describes it ([`naming::is_description`]).
fn comment_above(prev: Node<'_>, stmt: Node<'_>, src: &str) -> Option<String> {
    if !own_line_comment(prev, src) || blank_between(prev, stmt, src) {
        return None;
    }
    // A comment over several lines is read from its first.
    let mut first = prev;
    while let Some(above) = first.prev_named_sibling().filter(|a| continues(*a, first, src)) {
        first = above;
    }
    Some(comment_text(first, src)).filter(|text| naming::is_description(text))
}

/// A `//` comment's text, without the slashes.
fn comment_text(comment: Node<'_>, src: &str) -> String {
    src[comment.byte_range()].trim_start_matches('/').trim().to_string()
}

/// Whether `next` is a `//` comment on the line after the `//` comment `prev`, each on a line of
/// its own: one comment written over two lines.
fn continues(prev: Node<'_>, next: Node<'_>, src: &str) -> bool {
    own_line_comment(prev, src)
        && own_line_comment(next, src)
        && next.start_position().row == prev.end_position().row + 1
}

/// A `//` comment on a line of its own.
fn own_line_comment(node: Node<'_>, src: &str) -> bool {
    node.kind_name() == "line_comment" && starts_line(node, src)
}

fn starts_line(node: Node<'_>, src: &str) -> bool {
    let start = src[..node.start_byte()].rfind('\n').map_or(0, |i| i + 1);
    src[start..node.start_byte()].trim().is_empty()
}

fn blank_between(a: Node<'_>, b: Node<'_>, src: &str) -> bool {
    let parts: Vec<&str> = src[a.end_byte()..b.start_byte()].split('\n').collect();
    parts.len() >= 3 && parts[1..parts.len() - 1].iter().any(|l| l.trim().is_empty())
}

/// Names of the methods the class around `callable` declares (the new method must not clash).
pub fn class_method_names(callable: Node<'_>, src: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    if let Some(body) = callable.parent().filter(|p| is_type_body(p.kind_name())) {
        let mut cursor = body.walk();
        for m in body.named_children(&mut cursor).filter(|m| m.kind_name() == "method_declaration") {
            if let Some(n) = m.child_by_field_name("name") {
                names.insert(src[n.byte_range()].to_string());
            }
        }
    }
    // Every class has `Object`'s methods (`getClass`, `hashCode`, ...).
    names.extend(crate::engine::rename::family::OBJECT.iter().map(|e| e.0.to_string()));
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile::parse("A.java", text.to_string())
    }

    #[test]
    fn a_single_call_is_never_a_candidate() {
        let src = "class A {\n    int f(int a) {\n        int x = a * 2;\n        log(x);\n        return create(a, x);\n    }\n}\n";
        let f = file(src);
        let at = src.find("f(int").unwrap();
        let found = candidates(&f, at, 10);
        assert!(!found.is_empty());
        for c in &found {
            assert!(c.lines != (4, 4) && c.lines != (5, 5), "a single call as a candidate: {c:?}");
        }
    }

    #[test]
    fn a_statement_that_computes_nothing_is_never_a_candidate() {
        let src = "class A {\n    int f(int a) {\n        char c = Chars.SPACE;\n        int x = a * 2;\n        log(x, c);\n        return x;\n    }\n}\n";
        let f = file(src);
        let found = candidates(&f, src.find("f(int").unwrap(), 10);
        assert!(!found.is_empty());
        for c in &found {
            assert!(c.lines != (3, 3) && c.lines != (6, 6), "a statement computing nothing as a candidate: {c:?}");
        }
    }

    const ISSUE: &str = r#"class Service {
    Invoice issue(Invoice invoice, LocalDate issueDate) {
        Objects.requireNonNull(issueDate, "issueDate");
        if (invoice.getStatus() != Status.DRAFT) {
            throw new IllegalStateException("not a draft");
        }
        if (invoice.getItems().isEmpty()) {
            throw new IllegalStateException("empty");
        }

        Customer customer = invoice.getCustomer();
        int termDays = customer.getPaymentTermsDays() + customer.getTier().extraPaymentDays();
        LocalDate dueDate = issueDate.plusDays(termDays);

        Money tax = taxCalculator.taxFor(invoice);
        String number = nextNumberFor(issueDate);
        invoice.markIssued(number, issueDate, dueDate, tax);
        repository.save(invoice);
        return invoice;
    }
}
"#;

    #[test]
    fn guard_clauses_rank_first_and_are_named_as_a_validation() {
        let f = file(ISSUE);
        let at = ISSUE.find("issue(").unwrap();
        let cands = candidates(&f, at, 5);
        assert!(!cands.is_empty());
        let best = &cands[0];
        assert_eq!(best.lines, (3, 9), "{cands:#?}");
        assert_eq!(best.name, "validateInvoice");
        assert_eq!(best.shape, "paragraph");
        assert!(
            best.signature.contains("validateInvoice(LocalDate issueDate, Invoice invoice)")
                || best.signature.contains("validateInvoice(Invoice invoice, LocalDate issueDate)"),
            "{}",
            best.signature
        );
        // Scores are sorted and every component is in 0..=1.
        for w in cands.windows(2) {
            assert!(w[0].score >= w[1].score);
        }
        assert!(cands.iter().flat_map(|c| &c.components).all(|(_, v)| (0.0..=1.0).contains(v)));
    }

    #[test]
    fn a_run_with_one_output_is_named_after_it() {
        let f = file(ISSUE);
        let at = ISSUE.find("issue(").unwrap();
        // `plusDays` is no verb: the value is got.
        assert_eq!(name_for_lines(&f, at, (11, 13)), "getDueDate");
    }

    #[test]
    fn comment_runs_take_their_name_from_the_comment() {
        let src = r#"class R {
    String render(Report report) {
        StringBuilder text = new StringBuilder();
        // compute the totals
        int total = 0;
        for (Row row : report.rows()) {
            total += row.amount();
        }
        text.append(total);

        // header
        text.append(report.title());
        text.append("\n");
        return text.toString();
    }
}
"#;
        let f = file(src);
        let at = src.find("render(").unwrap();
        let cands = candidates(&f, at, 20);
        let by_lines = |a, b| cands.iter().find(|c| c.lines == (a, b));
        let totals = by_lines(5, 9).expect("the commented run is a candidate");
        assert_eq!(totals.name, "computeTotals");
        assert_eq!(totals.shape, "comment run");
        let header = by_lines(12, 13).expect("the header run is a candidate");
        assert_eq!(header.name, "appendHeader");
    }

    /// A comment that talks to a tool or leaves a note is not a description: it neither names the
    /// run after it nor makes it an author's run.
    #[test]
    fn a_formatter_directive_or_a_todo_does_not_name_a_run() {
        let src = r#"class R {
    String render(Report report) {
        StringBuilder text = new StringBuilder();
        //@formatter:off
        Options options = new Options().
                add("a", "all").
                add("d", "debug");
        //@formatter:on
        text.append(options);
        // TODO: fix the wrapping
        text.append(report.title());
        text.append("\n");
        return text.toString();
    }
}
"#;
        let f = file(src);
        let cands = candidates(&f, src.find("render(").unwrap(), 50);
        assert!(!cands.is_empty());
        for c in &cands {
            assert!(c.shape != "comment run", "{c:#?}");
            let lower = c.name.to_ascii_lowercase();
            assert!(!lower.contains("formatter") && !lower.contains("todo") && !lower.contains("fix"), "{c:#?}");
        }
        let options = cands.iter().find(|c| c.lines == (5, 7)).unwrap_or_else(|| panic!("{cands:#?}"));
        assert!(options.name.ends_with("Options"), "named after what it makes: {}", options.name);
    }

    /// A comment written over two lines introduces one run and names it by its first line.
    #[test]
    fn a_comment_over_two_lines_names_the_run_by_its_first() {
        let src = r#"class R {
    String render(Report report) {
        StringBuilder text = new StringBuilder();
        text.append(report.title());

        // compute the totals of every row, so that
        // the footer is right
        int total = 0;
        for (Row row : report.rows()) {
            total += row.amount();
        }
        text.append(total);

        return text.toString();
    }
}
"#;
        let f = file(src);
        let cands = candidates(&f, src.find("render(").unwrap(), 50);
        let run = cands.iter().find(|c| c.lines == (8, 12)).unwrap_or_else(|| panic!("{cands:#?}"));
        assert_eq!(run.shape, "comment run");
        assert_eq!(run.name, "computeTotalsRow");
        assert!(cands.iter().all(|c| !c.name.to_ascii_lowercase().contains("footer")), "{cands:#?}");
    }

    /// A value with a one-letter name (`i`) does not name the run that computes it.
    #[test]
    fn a_one_letter_value_does_not_name_a_run() {
        let src = r#"class U {
    boolean looks(byte[] input) {
        int i = 0;
        if (input.length >= 3 && input[0] == 1) {
            i = 3;
        }
        int end = input.length;
        while (i < end) {
            i++;
        }
        return i > 0;
    }
}
"#;
        let f = file(src);
        let name = name_for_lines(&f, src.find("looks(").unwrap(), (3, 6));
        assert_ne!(name, "getI");
        assert!(!name.ends_with('I'), "{name}");
    }

    /// A lambda's block is a run of statements like any other, its untyped parameter typed from
    /// the call (`List<Order>`'s `forEach` gives an `Order`); lines selecting the call that takes
    /// the lambda are named after the call's statement, not the lambda's.
    #[test]
    fn statements_of_a_lambda_are_candidates() {
        let src = r#"class S {
    void ship(java.util.List<Order> orders, Log log) {
        log.start();
        orders.forEach(order -> {
            double weight = order.weight();
            double rate = weight > 10 ? 2.5 : 1.0;
            order.charge(weight * rate);
            log.line(order.id(), weight * rate);
        });
        log.end();
    }
}
"#;
        let f = file(src);
        let cands = candidates(&f, src.find("ship(").unwrap(), 50);
        let inside = cands.iter().find(|c| c.lines == (5, 8)).unwrap_or_else(|| panic!("{cands:#?}"));
        assert!(inside.signature.contains("(Order order, Log log)"), "{}", inside.signature);
        let at = src.find("ship(").unwrap();
        let (call, body) = (name_for_lines(&f, at, (4, 9)), name_for_lines(&f, at, (5, 8)));
        assert_eq!(body, inside.name);
        assert_ne!(call, body, "the call's statement is named after the lambda's statements");
    }

    #[test]
    fn candidates_the_engine_refuses_are_dropped() {
        let src = r#"class L {
    int find(int[] xs, int goal) {
        int found = -1;
        int steps = 0;
        for (int i = 0; i < xs.length; i++) {
            steps++;
            if (xs[i] == goal) {
                found = i;
                break;
            }
        }
        System.out.println(steps);
        return found;
    }
}
"#;
        let f = file(src);
        let cands = candidates(&f, src.find("find(").unwrap(), 50);
        // The `if` with `break` cannot leave the loop; neither can `found = i; break;` alone.
        assert!(cands.iter().all(|c| c.lines != (7, 10) && c.lines != (8, 9)), "{cands:#?}");
        // Windows assigning both `found` and `steps` (used later) have two outputs.
        assert!(cands.iter().all(|c| c.lines != (3, 11)));
        assert!(!cands.is_empty());
    }

    /// Issue 14, defect 11: a flat method of over 40 statements (no blank line, no comment) got
    /// "no run of its statements can be extracted", while `--lines` worked.
    #[test]
    fn a_long_flat_method_gets_candidates() {
        let mut src = String::from("class F {\n    int m(int a) {\n        int x = a;\n");
        for i in 0..60 {
            src.push_str(&format!("        x = x * 3 + {i};\n        System.out.println(x);\n"));
        }
        src.push_str("        return x;\n    }\n}\n");
        let f = file(&src);
        let cands = candidates(&f, src.find("m(").unwrap(), 5);
        assert!(!cands.is_empty(), "no candidate for a flat method of 122 statements");
        assert!(cands.iter().all(|c| c.shape == "window" && c.lines.1 - c.lines.0 >= 10), "{cands:#?}");
    }

    #[test]
    fn long_blocks_get_a_sample_of_windows_whose_count_does_not_grow() {
        assert_eq!(windows(40).len(), 40 * 41 / 2);
        for n in [41, 1_000, 50_000] {
            let w = windows(n);
            assert!(w.len() <= 5 * (WINDOW_STARTS + 1), "{n}: {}", w.len());
            assert!(w.iter().all(|&(a, b)| a < b && b < n), "{n}");
            assert!(w.contains(&(0, n / 2 - 1)) && w.contains(&(n - n / 10, n - 1)), "{n}: {w:?}");
        }
    }
}
