//! One side of a change as the detector sees it: classes, methods in RefactoringMiner's notation,
//! and each method body as a list of normalised statements with the calls made from them.
//!
//! Statements follow RefactoringMiner's split: a leaf statement (`x = f(y);`) is one entry, a
//! composite (`if`, `for`, `try`, `switch`, ...) contributes its header (`if (c)`) and then its
//! children. Text is normalised to tokens without comments, whitespace or `this.`, so formatting
//! and qualification do not count as differences.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use rayon::prelude::*;
use tree_sitter::{Node, Point, Range, Tree};

use super::skeleton;
use super::snapshot::Snapshot;
use crate::java::Span;
use crate::java::syntax::{is_comment, statements_of};

/// A class, interface, enum or record (anonymous and local classes are part of their method).
#[derive(Debug)]
pub struct Class {
    /// `a.b.Outer.Inner`.
    pub name: String,
    pub simple: String,
    pub file: usize,
    /// Simple names of the supertypes as written (`extends` and `implements`).
    pub supers: Vec<String>,
    pub methods: Vec<usize>,
    /// Fields: (name, erased simple type), for typing a call's receiver.
    pub fields: Vec<(String, String)>,
}

/// One normalised statement (a leaf, or the header of a composite).
#[derive(Debug, Clone)]
pub struct Stmt {
    pub toks: Vec<String>,
    /// The tokens joined by single spaces.
    pub text: String,
    /// What a statement computes, for matching `return e;` with `T v = e;` and `v = e;`.
    pub core: Option<String>,
    pub span: Span,
    /// Too small to count as evidence (`return;`, `break;`, `try`, `return null;`).
    pub trivial: bool,
    /// RefactoringMiner's code element type (`EXPRESSION_STATEMENT`, `IF_STATEMENT`, ...).
    pub kind: &'static str,
}

/// A method invocation inside a body.
#[derive(Debug, Clone)]
pub struct Call {
    pub name: String,
    /// Each argument's normalised tokens.
    pub args: Vec<Vec<String>>,
    /// Whether the call has an explicit receiver other than `this`.
    pub qualified: bool,
    /// The receiver as written, normalised (`a . b`), when qualified.
    pub receiver: String,
    pub span: Span,
    /// The innermost statement holding the call.
    pub stmt: Option<usize>,
}

#[derive(Debug)]
pub struct Method {
    pub class: usize,
    pub name: String,
    /// (name, type in RefactoringMiner's notation).
    pub params: Vec<(String, String)>,
    /// `name(T1,T2)` with erased simple types: methods with equal keys have the same signature.
    pub key: String,
    pub ret: Option<String>,
    pub ctor: bool,
    pub is_static: bool,
    pub has_body: bool,
    pub file: usize,
    pub span: Span,
    /// The statements, computed only for methods whose text changed (an identical method on the
    /// other side explains nothing and is explained by nothing).
    pub stmts: Vec<Stmt>,
    pub calls: Vec<Call>,
    /// Local variables (declarations, loop variables, catch parameters): (name, erased simple
    /// type), filled with the statements.
    pub locals: Vec<(String, String)>,
    /// `public name(p T) : R`, as RefactoringMiner prints it.
    pub desc: String,
    /// Hash of (class, signature, declaration text): equal on both sides means unchanged.
    fingerprint: u64,
    body: Option<(usize, usize)>,
}

impl Method {
    /// Statements that count as evidence.
    pub fn solid(&self) -> usize {
        self.stmts.iter().filter(|s| !s.trivial).count()
    }
}

/// A parsed file: text, tree and line starts.
pub struct Parsed {
    pub path: String,
    pub text: String,
    /// The tree of `text` without the ranges in `unparsed` and `skipped` (the parser skipped
    /// them: a skipped body is an empty block); everywhere else it is the tree of `text`.
    pub tree: Tree,
    line_starts: Vec<usize>,
    /// Member body interiors (sorted, disjoint) left unparsed because the other side has the
    /// same body ([`skeleton`]); [`Parsed::restore`] parses them after all.
    unparsed: Vec<(usize, usize)>,
    /// Comments outside bodies and imports the parser skipped (sorted; a comment may lie in an
    /// import): absent from the tree.
    skipped: Vec<(usize, usize)>,
}

impl std::fmt::Debug for Parsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parsed").field("path", &self.path).finish()
    }
}

/// Two lists of ranges as one sorted list (ranges may nest: `included` allows for it).
fn merge(a: &[(usize, usize)], b: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    out.extend_from_slice(a);
    out.extend_from_slice(b);
    out.sort_unstable();
    out
}

/// The ranges the parser reads: everything but the sorted ranges `blank` (none: all of it).
fn included(blank: &[(usize, usize)], line_starts: &[usize], len: usize) -> Vec<Range> {
    let point = |byte: usize| {
        let row = line_starts.partition_point(|&s| s <= byte).saturating_sub(1);
        Point { row, column: byte - line_starts.get(row).copied().unwrap_or(0) }
    };
    let mut out = Vec::with_capacity(blank.len() + 1);
    let mut at = 0;
    for &(s, e) in blank {
        if s > at {
            out.push(Range { start_byte: at, end_byte: s, start_point: point(at), end_point: point(s) });
        }
        // A comment inside a skipped field initializer ends before the initializer does.
        at = at.max(e);
    }
    if !blank.is_empty() && at < len {
        out.push(Range { start_byte: at, end_byte: len, start_point: point(at), end_point: point(len) });
    }
    out
}

impl Parsed {
    /// Parses `text` without the interiors `blank` (sorted, disjoint, not empty) and without
    /// `skip` (comments and imports, outside any body): the parser never reads them, so those
    /// bodies are empty blocks and those comments and imports are not in the tree.
    fn parse_skipping(path: &str, text: String, blank: Vec<(usize, usize)>, skip: Vec<(usize, usize)>) -> Parsed {
        let line_starts = crate::text::line_starts(&text);
        if !blank.is_empty() || !skip.is_empty() {
            let ranges = included(&merge(&blank, &skip), &line_starts, text.len());
            let tree = crate::java::source::parse_tree(text.as_bytes(), None, &ranges);
            // Error recovery reaches past the bodies (a syntax the grammar lacks can cost the
            // members after it), so a file that does not parse cleanly is parsed as it is.
            if !tree.root_node().has_error() {
                return Parsed { path: path.to_string(), text, tree, line_starts, unparsed: blank, skipped: skip };
            }
        }
        let tree = crate::java::source::parse_tree(text.as_bytes(), None, &[]);
        Parsed { path: path.to_string(), text, tree, line_starts, unparsed: Vec::new(), skipped: Vec::new() }
    }

    /// Parses the unparsed interiors that overlap `ranges` for real, reusing the rest of the tree
    /// (tree-sitter re-reads what the change of included ranges uncovers).
    fn restore(&mut self, ranges: &[(usize, usize)]) {
        let before = self.unparsed.len();
        self.unparsed.retain(|r| !ranges.iter().any(|q| r.0 < q.1 && q.0 < r.1));
        if self.unparsed.len() == before {
            return;
        }
        let skipped = merge(&self.unparsed, &self.skipped);
        let ranges = included(&skipped, &self.line_starts, self.text.len());
        self.tree = crate::java::source::parse_tree(self.text.as_bytes(), Some(&self.tree), &ranges);
    }

    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    pub fn text_of(&self, node: Node<'_>) -> &str {
        &self.text[node.byte_range()]
    }

    /// 1-based line of a byte offset.
    pub fn line_of(&self, byte: usize) -> usize {
        match self.line_starts.binary_search(&byte) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }
}

/// A parsed snapshot.
#[derive(Debug, Default)]
pub struct Side {
    pub paths: Vec<String>,
    pub files: Vec<Parsed>,
    pub classes: Vec<Class>,
    pub methods: Vec<Method>,
    pub class_by_name: HashMap<String, usize>,
}

impl Side {
    /// Both sides of a change. A member body whose exact text is on the other side too is left
    /// unparsed ([`skeleton`]) unless its method turns out to have changed: the detector reads
    /// the statements only of methods without an identical twin on the other side.
    pub fn build_pair(before: &Snapshot, after: &Snapshot) -> (Side, Side) {
        let scan =
            |s: &Snapshot| -> Vec<skeleton::Skeleton> { s.files.par_iter().map(|(_, t)| skeleton::scan(t)).collect() };
        let (b_scans, a_scans) = rayon::join(|| scan(before), || scan(after));
        let hashes = |scans: &[skeleton::Skeleton]| -> HashSet<u64> {
            scans.iter().flat_map(|s| &s.bodies).map(|b| b.hash).collect()
        };
        let (b_hashes, a_hashes) = (hashes(&b_scans), hashes(&a_scans));
        let parse = |s: &Snapshot, scans: Vec<skeleton::Skeleton>, other: &HashSet<u64>| -> Vec<Parsed> {
            let files: Vec<(&String, &String)> = s.files.iter().collect();
            files
                .into_par_iter()
                .zip(scans)
                .map(|((p, t), scan)| {
                    let blank = scan
                        .bodies
                        .iter()
                        .filter(|b| b.close > b.open + 1 && other.contains(&b.hash))
                        .map(|b| b.interior())
                        .collect();
                    Parsed::parse_skipping(p, t.clone(), blank, scan.skippable)
                })
                .collect()
        };
        let (b_files, a_files) = rayon::join(|| parse(before, b_scans, &a_hashes), || parse(after, a_scans, &b_hashes));
        let (mut b, mut a) = rayon::join(|| Side::declare(b_files), || Side::declare(a_files));
        let fb: HashSet<u64> = b.methods.iter().map(|m| m.fingerprint).collect();
        let fa: HashSet<u64> = a.methods.iter().map(|m| m.fingerprint).collect();
        rayon::join(|| b.fill_bodies(&fa), || a.fill_bodies(&fb));
        (b, a)
    }

    /// One side alone (every body filled).
    pub fn build(snapshot: &Snapshot) -> Side {
        let files: Vec<Parsed> = snapshot
            .files
            .par_iter()
            .map(|(p, t)| Parsed::parse_skipping(p, t.clone(), Vec::new(), Vec::new()))
            .collect();
        let mut side = Side::declare(files);
        side.fill_bodies(&HashSet::new());
        side
    }

    fn declare(files: Vec<Parsed>) -> Side {
        let mut side = Side::default();
        for (fi, f) in files.iter().enumerate() {
            side.paths.push(f.path.clone());
            let package = package_of(f);
            let mut walker = Declarations { f, file: fi, side: &mut side };
            walker.walk(f.root(), package.as_deref(), None);
        }
        side.files = files;
        side
    }

    /// Statements and calls of every method without an identical twin in `other`.
    fn fill_bodies(&mut self, other: &HashSet<u64>) {
        let needed = |m: &Method| m.body.is_some() && !other.contains(&m.fingerprint);
        // Unparsed bodies whose method changed after all are parsed for real first.
        let mut wanted: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.files.len()];
        for m in self.methods.iter().filter(|m| needed(m)) {
            if let Some(body) = m.body
                && !self.files[m.file].unparsed.is_empty()
            {
                wanted[m.file].push(body);
            }
        }
        self.files.par_iter_mut().zip(wanted).filter(|(_, w)| !w.is_empty()).for_each(|(f, w)| f.restore(&w));
        let files = &self.files;
        let bodies: Vec<(usize, Body)> = self
            .methods
            .par_iter()
            .enumerate()
            .filter(|(_, m)| needed(m))
            .map(|(i, m)| {
                let (stmts, mut calls, locals) = body_of(&files[m.file], m.body.unwrap_or_default());
                // `this(...)` calls a constructor, which is named after its class.
                for c in calls.iter_mut().filter(|c| c.name == "this") {
                    c.name = self.classes[m.class].simple.clone();
                }
                (i, (stmts, calls, locals))
            })
            .collect();
        for (i, (stmts, calls, locals)) in bodies {
            self.methods[i].stmts = stmts;
            self.methods[i].calls = calls;
            self.methods[i].locals = locals;
        }
    }

    pub fn class_of(&self, m: usize) -> &Class {
        &self.classes[self.methods[m].class]
    }
}

fn package_of(f: &Parsed) -> Option<String> {
    let root = f.root();
    let mut c = root.walk();
    let pkg = root.named_children(&mut c).find(|n| n.kind() == "package_declaration")?;
    let mut c = pkg.walk();
    let name = pkg.named_children(&mut c).find(|n| matches!(n.kind(), "identifier" | "scoped_identifier"))?;
    Some(f.text_of(name).chars().filter(|c| !c.is_whitespace()).collect())
}

/// The walk over type declarations and their members (never into method bodies).
struct Declarations<'f, 's> {
    f: &'f Parsed,
    file: usize,
    side: &'s mut Side,
}

impl Declarations<'_, '_> {
    fn walk(&mut self, node: Node<'_>, package: Option<&str>, outer: Option<(usize, &str, bool)>) {
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            match child.kind() {
                "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                | "annotation_type_declaration" => self.class(child, package, outer),
                "method_declaration" | "constructor_declaration" | "compact_constructor_declaration" => {
                    if let Some((class, _, interface)) = outer {
                        self.method(child, class, interface);
                    }
                }
                "enum_body_declarations" | "class_body" | "interface_body" | "enum_body" | "annotation_type_body" => {
                    self.walk(child, package, outer)
                }
                "field_declaration" | "constant_declaration" => {
                    if let Some((class, _, _)) = outer {
                        let fields = declared(self.f, child);
                        self.side.classes[class].fields.extend(fields);
                    }
                }
                _ => {}
            }
        }
    }

    fn class(&mut self, node: Node<'_>, package: Option<&str>, outer: Option<(usize, &str, bool)>) {
        let Some(name) = node.child_by_field_name("name") else { return };
        let simple = self.f.text_of(name).to_string();
        let display = match outer {
            Some((_, o, _)) => format!("{o}.{simple}"),
            None => match package {
                Some(p) => format!("{p}.{simple}"),
                None => simple.clone(),
            },
        };
        let mut supers = Vec::new();
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            if matches!(child.kind(), "superclass" | "super_interfaces" | "extends_interfaces") {
                collect_type_names(self.f, child, &mut supers);
            }
        }
        let index = self.side.classes.len();
        self.side.class_by_name.insert(display.clone(), index);
        self.side.classes.push(Class {
            name: display.clone(),
            simple,
            file: self.file,
            supers,
            methods: Vec::new(),
            fields: Vec::new(),
        });
        let interface = matches!(node.kind(), "interface_declaration" | "annotation_type_declaration");
        if let Some(body) = node.child_by_field_name("body") {
            self.walk(body, package, Some((index, &display, interface)));
        }
    }

    fn method(&mut self, node: Node<'_>, class: usize, interface: bool) {
        let f = self.f;
        let name = node.child_by_field_name("name").map(|n| f.text_of(n).to_string()).unwrap_or_default();
        let mut keywords = Vec::new();
        let mut c = node.walk();
        if let Some(mods) = node.children(&mut c).find(|n| n.kind() == "modifiers") {
            let mut c2 = mods.walk();
            for m in mods.children(&mut c2) {
                if !matches!(m.kind(), "annotation" | "marker_annotation" | "line_comment" | "block_comment") {
                    keywords.push(f.text_of(m));
                }
            }
        }
        let has = |k: &str| keywords.contains(&k);
        let visibility = if has("public") {
            "public"
        } else if has("protected") {
            "protected"
        } else if has("private") {
            "private"
        } else if interface {
            "public"
        } else {
            "package"
        };
        let mut params = Vec::new();
        let mut erased = Vec::new();
        if let Some(ps) = node.child_by_field_name("parameters") {
            let mut c = ps.walk();
            for p in ps.named_children(&mut c) {
                let (pname, ty, extra, varargs) = match p.kind() {
                    "formal_parameter" => {
                        let dims =
                            p.child_by_field_name("dimensions").map(|d| f.text_of(d).matches('[').count()).unwrap_or(0);
                        let (Some(n), Some(t)) = (p.child_by_field_name("name"), p.child_by_field_name("type")) else {
                            continue;
                        };
                        (f.text_of(n), f.text_of(t), dims, false)
                    }
                    "spread_parameter" => {
                        let mut c2 = p.walk();
                        let mut ty = None;
                        let mut pname = "";
                        for ch in p.named_children(&mut c2) {
                            match ch.kind() {
                                "modifiers" | "annotation" | "marker_annotation" => {}
                                "variable_declarator" => {
                                    pname = ch.child_by_field_name("name").map(|n| f.text_of(n)).unwrap_or("")
                                }
                                _ if ty.is_none() => ty = Some(f.text_of(ch)),
                                _ => {}
                            }
                        }
                        let Some(ty) = ty else { continue };
                        (pname, ty, 0, true)
                    }
                    _ => continue,
                };
                params.push((pname.to_string(), rm_type(ty, extra, varargs)));
                erased.push(erase(ty, extra + usize::from(varargs)));
            }
        }
        let ret = node.child_by_field_name("type").map(|t| rm_type(f.text_of(t), 0, false));
        let mut desc = format!("{visibility} ");
        if has("abstract") {
            desc.push_str("abstract ");
        }
        desc.push_str(&name);
        desc.push('(');
        desc.push_str(&params.iter().map(|(n, t)| format!("{n} {t}")).collect::<Vec<_>>().join(", "));
        desc.push(')');
        if let Some(r) = &ret {
            desc.push_str(" : ");
            desc.push_str(r);
        }
        let key = format!("{name}({})", erased.join(","));
        let body = node.child_by_field_name("body").map(|b| (b.start_byte(), b.end_byte()));
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.side.classes[class].name.hash(&mut h);
        key.hash(&mut h);
        f.text_of(node).hash(&mut h);
        let index = self.side.methods.len();
        self.side.classes[class].methods.push(index);
        self.side.methods.push(Method {
            class,
            name,
            params,
            key,
            ret,
            ctor: node.kind() != "method_declaration",
            is_static: has("static"),
            has_body: body.is_some(),
            file: self.file,
            span: Span::of(node),
            stmts: Vec::new(),
            calls: Vec::new(),
            locals: Vec::new(),
            desc,
            fingerprint: h.finish(),
            body,
        });
    }
}

/// Simple names of the types listed under `node` (`extends A<B>, c.D` → `A`, `D`).
fn collect_type_names(f: &Parsed, node: Node<'_>, out: &mut Vec<String>) {
    let mut c = node.walk();
    for child in node.named_children(&mut c) {
        match child.kind() {
            "type_list" => collect_type_names(f, child, out),
            "type_identifier" | "scoped_type_identifier" | "generic_type" => out.push(erase(f.text_of(child), 0)),
            _ => {}
        }
    }
}

/// The erased simple name of a type as written, with `dims` extra dimensions: `java.util.List<T>[]` → `List[]`.
pub fn erase(text: &str, dims: usize) -> String {
    let mut depth = 0;
    let mut plain = String::new();
    for ch in text.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 && !ch.is_whitespace() => plain.push(ch),
            _ => {}
        }
    }
    let written = plain.matches("[]").count();
    let base = plain.replace("[]", "");
    let base = base.rsplit(['.', ')']).next().unwrap_or(&base).to_string();
    let mut out = base;
    for _ in 0..written + dims {
        out.push_str("[]");
    }
    out
}

/// A type as RefactoringMiner prints it: `Map<String,List<T>>`, `List<? extends X>`, `String...`.
pub fn rm_type(text: &str, extra_dims: usize, varargs: bool) -> String {
    let toks = tokens(text);
    let mut out = String::new();
    let mut i = 0;
    let mut prev_word = false;
    while i < toks.len() {
        let tok = toks[i].as_str();
        if tok == "@" {
            // A type annotation: `@Nullable` or `@A(x)`; RefactoringMiner leaves it out.
            i += 2;
            if toks.get(i).is_some_and(|t| t == "(") {
                let mut depth = 0;
                while i < toks.len() {
                    depth += match toks[i].as_str() {
                        "(" => 1,
                        ")" => -1,
                        _ => 0,
                    };
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            continue;
        }
        let word = is_word(tok);
        if tok == "extends" || tok == "super" || tok == "&" {
            out.push(' ');
            out.push_str(tok);
            out.push(' ');
            prev_word = false;
        } else {
            if word && prev_word {
                out.push(' ');
            }
            out.push_str(tok);
            prev_word = word;
        }
        i += 1;
    }
    for _ in 0..extra_dims {
        out.push_str("[]");
    }
    if varargs {
        out.push_str("...");
    }
    out
}

fn is_word(tok: &str) -> bool {
    tok.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '?')
}

/// Java tokens without comments or whitespace; `this.` dropped; common two-character operators kept whole.
pub fn tokens(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i = (i + 2).min(b.len());
        } else if skeleton::is_word_byte(c) {
            let s = i;
            while i < b.len() && skeleton::is_word_byte(b[i]) {
                i += 1;
            }
            // Numbers with a fraction or exponent stay one token.
            if c.is_ascii_digit() && i < b.len() && b[i] == b'.' {
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
            }
            out.push(text[s..i].to_string());
        } else if c == b'"' || c == b'\'' {
            let s = i;
            i = skeleton::skip_literal(b, i);
            out.push(text[s..i.min(text.len())].to_string());
        } else {
            let two = if i + 1 < b.len() { &b[i..i + 2] } else { &b[i..i + 1] };
            let n = if matches!(
                two,
                b"=="
                    | b"!="
                    | b"<="
                    | b">="
                    | b"&&"
                    | b"||"
                    | b"++"
                    | b"--"
                    | b"+="
                    | b"-="
                    | b"*="
                    | b"/="
                    | b"->"
                    | b"::"
            ) {
                2
            } else {
                // Not a char boundary only inside non-ASCII text, which the identifier branch took.
                text[i..].chars().next().map(char::len_utf8).unwrap_or(1)
            };
            let tok = &text[i..i + n];
            if tok == "." && out.last().is_some_and(|t| t == "this") {
                out.pop();
            } else {
                out.push(tok.to_string());
            }
            i += n;
        }
    }
    out
}

/// The statements and calls of a method body.
type Body = (Vec<Stmt>, Vec<Call>, Vec<(String, String)>);

fn body_of(source: &Parsed, (start, end): (usize, usize)) -> Body {
    let Some(mut node) = source.root().descendant_for_byte_range(start, end) else {
        return Body::default();
    };
    while node.byte_range() != (start..end) || !matches!(node.kind(), "block" | "constructor_body") {
        match node.parent() {
            Some(p) => node = p,
            None => return Body::default(),
        }
    }
    let mut stmts = Vec::new();
    for s in statements_of(node) {
        collect(source, s, &mut stmts);
    }
    let mut calls = Vec::new();
    let mut locals = Vec::new();
    collect_calls(source, node, &mut calls, &mut locals);
    for call in &mut calls {
        call.stmt = stmts
            .iter()
            .enumerate()
            .filter(|(_, s)| s.span.contains(&call.span))
            .min_by_key(|(_, s)| s.span.end_byte - s.span.start_byte)
            .map(|(i, _)| i);
    }
    (stmts, calls, locals)
}

/// The names a declaration (field, local variable) declares, each with its erased simple type.
fn declared(f: &Parsed, node: Node<'_>) -> Vec<(String, String)> {
    let Some(ty) = node.child_by_field_name("type") else { return Vec::new() };
    let ty = erase(f.text_of(ty), 0);
    let mut out = Vec::new();
    let mut c = node.walk();
    for d in node.children_by_field_name("declarator", &mut c) {
        if let Some(n) = d.child_by_field_name("name") {
            out.push((f.text_of(n).to_string(), ty.clone()));
        }
    }
    out
}

fn collect(src: &Parsed, node: Node<'_>, out: &mut Vec<Stmt>) {
    let field = |name: &str| node.child_by_field_name(name);
    match node.kind() {
        k if is_comment(k) => {}
        "block" | "constructor_body" => statements_of(node).into_iter().for_each(|s| collect(src, s, out)),
        "if_statement" => {
            let Some(then) = field("consequence") else { return leaf(src, node, node.end_byte(), out) };
            leaf(src, node, then.start_byte(), out);
            collect(src, then, out);
            if let Some(alt) = field("alternative") {
                collect(src, alt, out);
            }
        }
        "for_statement" | "enhanced_for_statement" | "while_statement" | "synchronized_statement" => {
            let Some(body) = field("body").or_else(|| node.named_child(node.named_child_count().saturating_sub(1)))
            else {
                return leaf(src, node, node.end_byte(), out);
            };
            leaf(src, node, body.start_byte(), out);
            collect(src, body, out);
        }
        "do_statement" => {
            if let Some(c) = field("condition") {
                leaf(src, c, c.end_byte(), out);
            }
            if let Some(body) = field("body") {
                collect(src, body, out);
            }
        }
        "try_statement" | "try_with_resources_statement" => {
            let mut c = node.walk();
            for child in node.named_children(&mut c) {
                match child.kind() {
                    "block" => {
                        leaf(src, node, child.start_byte(), out);
                        collect(src, child, out);
                    }
                    "catch_clause" => {
                        if let Some(b) = child.child_by_field_name("body") {
                            leaf(src, child, b.start_byte(), out);
                            collect(src, b, out);
                        }
                    }
                    "finally_clause" => {
                        let mut c2 = child.walk();
                        for b in child.named_children(&mut c2).filter(|b| b.kind() == "block") {
                            collect(src, b, out);
                        }
                    }
                    _ => {}
                }
            }
        }
        "switch_expression" | "switch_statement" => {
            let Some(body) = field("body") else { return leaf(src, node, node.end_byte(), out) };
            leaf(src, node, body.start_byte(), out);
            let mut c = body.walk();
            for group in body.named_children(&mut c) {
                let mut c2 = group.walk();
                for s in group.named_children(&mut c2) {
                    match s.kind() {
                        "switch_label" => leaf(src, s, s.end_byte(), out),
                        k if is_comment(k) => {}
                        _ => collect(src, s, out),
                    }
                }
            }
        }
        "expression_statement"
            if node.named_child(0).is_some_and(|e| e.kind() == "switch_expression")
                && node.named_child(0).and_then(|e| e.child_by_field_name("body")).is_some() =>
        {
            if let Some(e) = node.named_child(0) {
                collect(src, e, out);
            }
        }
        "labeled_statement" => {
            if let Some(s) = node.named_child(node.named_child_count().saturating_sub(1)) {
                collect(src, s, out);
            }
        }
        ";" | "empty_statement" => {}
        _ => {
            // Lambda bodies hold statements of their own, as in RefactoringMiner: the statement
            // is compared with each body elided, and the bodies' statements follow it.
            let blocks = lambda_blocks(node);
            if blocks.is_empty() {
                return leaf(src, node, node.end_byte(), out);
            }
            let mut text = String::new();
            let mut at = node.start_byte();
            for b in &blocks {
                text.push_str(&src.text[at..b.start_byte()]);
                text.push_str("{ }");
                at = b.end_byte();
            }
            text.push_str(&src.text[at..node.end_byte()]);
            push_leaf(src, node, node.end_byte(), &text, out);
            for b in blocks {
                if b.kind() == "class_body" {
                    let mut c = b.walk();
                    for member in b.named_children(&mut c) {
                        if let Some(body) =
                            member.child_by_field_name("body").filter(|_| member.kind() == "method_declaration")
                        {
                            collect(src, body, out);
                        }
                    }
                } else {
                    collect(src, b, out);
                }
            }
        }
    }
}

/// The block bodies of lambdas inside `node` and the bodies of anonymous classes (whose
/// methods' statements RefactoringMiner also maps), outermost only.
fn lambda_blocks(node: Node<'_>) -> Vec<Node<'_>> {
    let kinds = &*CALL_KINDS;
    let mut out = Vec::new();
    let mut cursor = node.walk();
    loop {
        let n = cursor.node();
        let kind = n.kind_id();
        let mut descend = true;
        if kind == kinds.lambda_expression
            && let Some(body) = n.child_by_field_name("body").filter(|b| b.kind_id() == kinds.block)
        {
            out.push(body);
            descend = false;
        } else if kind == kinds.class_body {
            if n.parent().is_some_and(|p| p.kind_id() == kinds.object_creation_expression) {
                out.push(n);
            }
            descend = false;
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                out.sort_by_key(|b| b.start_byte());
                return out;
            }
        }
    }
}

/// A statement from the start of `node` to `end` (the start of a composite's body, or its end).
fn leaf(src: &Parsed, node: Node<'_>, end: usize, out: &mut Vec<Stmt>) {
    push_leaf(src, node, end, &src.text[node.start_byte()..end], out)
}

fn push_leaf(src: &Parsed, node: Node<'_>, end: usize, text: &str, out: &mut Vec<Stmt>) {
    let toks = tokens(text);
    if toks.is_empty() || toks == ["{"] {
        return;
    }
    let mut span = Span::of(node);
    span.end_byte = end;
    span.end_line = src.line_of(end.saturating_sub(1).max(node.start_byte()));
    let core = core_of(&toks);
    let literal = |t: &str| {
        matches!(t, "null" | "true" | "false" | "this")
            || t.starts_with(|c: char| c.is_ascii_digit())
            || (t.starts_with('"') && t.len() <= 8)
    };
    let trivial = toks.len() <= 2
        || (toks.len() == 3 && literal(&toks[1]))
        || matches!(toks[0].as_str(), "case" | "default" | "try" | "else");
    out.push(Stmt { text: toks.join(" "), toks, core, span, trivial, kind: element_kind(node.kind()) });
}

/// RefactoringMiner's name for a statement's kind.
fn element_kind(kind: &str) -> &'static str {
    match kind {
        "expression_statement" => "EXPRESSION_STATEMENT",
        "local_variable_declaration" => "VARIABLE_DECLARATION_STATEMENT",
        "return_statement" => "RETURN_STATEMENT",
        "if_statement" => "IF_STATEMENT",
        "for_statement" => "FOR_STATEMENT",
        "enhanced_for_statement" => "ENHANCED_FOR_STATEMENT",
        "while_statement" => "WHILE_STATEMENT",
        "do_statement" | "parenthesized_expression" => "DO_STATEMENT",
        "try_statement" | "try_with_resources_statement" => "TRY_STATEMENT",
        "catch_clause" => "CATCH_CLAUSE",
        "switch_expression" | "switch_statement" => "SWITCH_STATEMENT",
        "switch_label" => "SWITCH_CASE",
        "throw_statement" => "THROW_STATEMENT",
        "synchronized_statement" => "SYNCHRONIZED_STATEMENT",
        "break_statement" => "BREAK_STATEMENT",
        "continue_statement" => "CONTINUE_STATEMENT",
        "assert_statement" => "ASSERT_STATEMENT",
        "yield_statement" => "YIELD_STATEMENT",
        "explicit_constructor_invocation" => "CONSTRUCTOR_INVOCATION",
        _ => "STATEMENT",
    }
}

/// The value a statement computes: `return e;`, `T v = e;`, `v = e;`, `e;` → `e`.
pub(crate) fn core_of(toks: &[String]) -> Option<String> {
    let end = if toks.last().is_some_and(|t| t == ";") { toks.len() - 1 } else { return None };
    if toks[0] == "return" {
        return (end > 1).then(|| toks[1..end].join(" "));
    }
    let mut depth = 0i32;
    for (i, t) in toks[..end].iter().enumerate() {
        match t.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "=" if depth == 0 && i > 0 => return (i + 1 < end).then(|| toks[i + 1..end].join(" ")),
            _ => {}
        }
    }
    Some(toks[..end].join(" "))
}

/// Node kinds [`collect_calls`] and [`lambda_blocks`] look for, as the grammar's numeric ids (comparing ids spares a
/// C-string comparison at every node of every changed body).
struct CallKinds {
    local_variable_declaration: u16,
    enhanced_for_statement: u16,
    resource: u16,
    formal_parameter: u16,
    explicit_constructor_invocation: u16,
    method_invocation: u16,
    lambda_expression: u16,
    block: u16,
    class_body: u16,
    object_creation_expression: u16,
}

static CALL_KINDS: std::sync::LazyLock<CallKinds> = std::sync::LazyLock::new(|| {
    let language = crate::java::source::language();
    let id = |kind: &str| language.id_for_node_kind(kind, true);
    CallKinds {
        local_variable_declaration: id("local_variable_declaration"),
        enhanced_for_statement: id("enhanced_for_statement"),
        resource: id("resource"),
        formal_parameter: id("formal_parameter"),
        explicit_constructor_invocation: id("explicit_constructor_invocation"),
        method_invocation: id("method_invocation"),
        lambda_expression: id("lambda_expression"),
        block: id("block"),
        class_body: id("class_body"),
        object_creation_expression: id("object_creation_expression"),
    }
});

/// The calls and local declarations under `node`, every node visited once in document order.
fn collect_calls(src: &Parsed, node: Node<'_>, out: &mut Vec<Call>, locals: &mut Vec<(String, String)>) {
    let kinds = &*CALL_KINDS;
    let mut cursor = node.walk();
    loop {
        let n = cursor.node();
        let kind = n.kind_id();
        if kind == kinds.local_variable_declaration {
            locals.extend(declared(src, n));
        } else if kind == kinds.enhanced_for_statement || kind == kinds.resource || kind == kinds.formal_parameter {
            if let (Some(t), Some(v)) = (n.child_by_field_name("type"), n.child_by_field_name("name")) {
                locals.push((src.text_of(v).to_string(), erase(src.text_of(t), 0)));
            }
        } else if kind == kinds.explicit_constructor_invocation {
            if n.child_by_field_name("constructor").is_some_and(|c| c.kind() == "this") {
                out.push(Call {
                    name: "this".into(),
                    args: arguments(src, n),
                    qualified: false,
                    receiver: String::new(),
                    span: Span::of(n),
                    stmt: None,
                });
            }
        } else if kind == kinds.method_invocation
            && let Some(name) = n.child_by_field_name("name")
        {
            let obj = n.child_by_field_name("object");
            let qualified = obj.is_some_and(|o| o.kind() != "this");
            let receiver = obj.filter(|_| qualified).map(|o| tokens(src.text_of(o)).join(" ")).unwrap_or_default();
            out.push(Call {
                name: src.text_of(name).to_string(),
                args: arguments(src, n),
                qualified,
                receiver,
                span: Span::of(n),
                stmt: None,
            });
        }
        // Preorder: down, else along, else up until a sibling (the cursor cannot leave `node`).
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                out.sort_by_key(|c| c.span.start_byte);
                return;
            }
        }
    }
}

/// Each argument's tokens of a call.
fn arguments(src: &Parsed, call: Node<'_>) -> Vec<Vec<String>> {
    call.child_by_field_name("arguments")
        .map(|a| {
            let mut c = a.walk();
            a.named_children(&mut c).filter(|x| !is_comment(x.kind())).map(|x| tokens(src.text_of(x))).collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both sides parsed in full (nothing unparsed), bodies filled as [`Side::build_pair`] fills them.
    fn build_pair_in_full(before: &Snapshot, after: &Snapshot) -> (Side, Side) {
        let parse = |s: &Snapshot| -> Vec<Parsed> {
            s.files.iter().map(|(p, t)| Parsed::parse_skipping(p, t.clone(), Vec::new(), Vec::new())).collect()
        };
        let (mut b, mut a) = (Side::declare(parse(before)), Side::declare(parse(after)));
        let fb: HashSet<u64> = b.methods.iter().map(|m| m.fingerprint).collect();
        let fa: HashSet<u64> = a.methods.iter().map(|m| m.fingerprint).collect();
        b.fill_bodies(&fa);
        a.fill_bodies(&fb);
        (b, a)
    }

    /// Everything the matcher reads of a side, printed.
    fn describe(side: &Side) -> Vec<String> {
        let mut out: Vec<String> = side
            .classes
            .iter()
            .map(|c| format!("class {} {} {:?} {:?} {:?}", c.name, c.file, c.supers, c.methods, c.fields))
            .collect();
        for m in &side.methods {
            out.push(format!(
                "method {} {} {:?} {} {:?} {} {} {} {} {:?} {} {:?}",
                m.class,
                m.name,
                m.params,
                m.key,
                m.ret,
                m.ctor,
                m.is_static,
                m.has_body,
                m.file,
                m.span,
                m.desc,
                m.locals
            ));
            for s in &m.stmts {
                out.push(format!("  stmt {} {:?} {:?} {} {}", s.text, s.core, s.span, s.trivial, s.kind));
            }
            for c in &m.calls {
                out.push(format!(
                    "  call {} {:?} {} {} {:?} {:?}",
                    c.name, c.args, c.qualified, c.receiver, c.span, c.stmt
                ));
            }
        }
        out
    }

    #[test]
    fn included_ranges_leave_out_nested_skips_once() {
        let text = "ab\ncdefghij\nkl";
        let ranges = included(&merge(&[(2, 10)], &[(4, 6), (12, 13)]), &crate::text::line_starts(text), text.len());
        let spans: Vec<(usize, usize, usize, usize)> =
            ranges.iter().map(|r| (r.start_byte, r.end_byte, r.start_point.row, r.start_point.column)).collect();
        assert_eq!(spans, [(0, 2, 0, 0), (10, 12, 1, 7), (13, 14, 2, 1)]);
    }

    #[test]
    fn skipped_bodies_are_parsed_when_their_method_changed() {
        // `g` keeps its body under a new name, `h` is untouched, `k` changes, `R` is a record.
        let before = Snapshot::from_files([(
            "a/A.java",
            "package a;\nclass A {\n  void g(int x) {\n    run(x);\n    if (x > 0) { stop(); }\n  }\n\
             int h() { return 1; }\n  void k() { a(); }\n  record R(int y) { int z() { return y; } }\n}\n",
        )]);
        let after = Snapshot::from_files([(
            "a/A.java",
            "package a;\nclass A {\n  void renamed(int x) {\n    run(x);\n    if (x > 0) { stop(); }\n  }\n\
             int h() { return 1; }\n  void k() { b(); }\n  record R(int y) { int z() { return y; } }\n}\n",
        )]);
        let (b, a) = Side::build_pair(&before, &after);
        assert_eq!(a.files[0].unparsed.len(), 2, "h and z stay unparsed once renamed is restored");
        let (fb, fa) = build_pair_in_full(&before, &after);
        assert_eq!(describe(&b), describe(&fb));
        assert_eq!(describe(&a), describe(&fa));
        let renamed = a.methods.iter().find(|m| m.name == "renamed").expect("renamed");
        let texts: Vec<&str> = renamed.stmts.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["run ( x ) ;", "if ( x > 0 )", "stop ( ) ;"]);
        assert!(a.methods.iter().find(|m| m.name == "h").is_some_and(|m| m.stmts.is_empty()));
        assert_eq!(a.methods.iter().filter(|m| m.name == "z").count(), 1);
    }

    #[test]
    #[ignore = "one-off check over the oracle"]
    fn skipping_parse_builds_the_same_sides_on_the_oracle() {
        let shared = crate::dataset::shared_data_dir().expect("data");
        let commits = crate::detect::oracle::load(&shared.join("refactoring-oracle")).expect("oracle");
        let (mut unparsed, mut restored) = (0, 0);
        for c in &commits {
            let b = Snapshot::read(&c.dir.join("before")).expect("before");
            let a = Snapshot::read(&c.dir.join("after")).expect("after");
            let (fb, fa) = build_pair_in_full(&b, &a);
            let (sb, sa) = Side::build_pair(&b, &a);
            for (full, fast) in [(&fb, &sb), (&fa, &sa)] {
                let (x, y) = (describe(full), describe(fast));
                if let Some(i) = (0..x.len().max(y.len())).find(|&i| x.get(i) != y.get(i)) {
                    panic!("{}/{}: {:?} != {:?}", c.project, c.sha, x.get(i), y.get(i));
                }
                unparsed += fast.files.iter().map(|f| f.unparsed.len()).sum::<usize>();
            }
            restored += sb.methods.iter().chain(&sa.methods).filter(|m| !m.stmts.is_empty()).count();
        }
        eprintln!("{} commits: {unparsed} bodies left unparsed, {restored} methods with statements", commits.len());
    }

    #[test]
    fn types_in_refactoringminer_notation() {
        let snap = Snapshot::from_files([(
            "a/A.java",
            "package a; interface I { java.util.Map<String, List<? extends X>> m(@Nullable int[] a, String... rest); }\n\
             class A { private static <T> void g(final T t, int x[]) { if (t == null) { return; } h(t, x); } A(int y) {} }",
        )]);
        let side = Side::build(&snap);
        let descs: Vec<&str> = side.methods.iter().map(|m| m.desc.as_str()).collect();
        assert_eq!(
            descs,
            [
                "public m(a int[], rest String...) : java.util.Map<String,List<? extends X>>",
                "private g(t T, x int[]) : void",
                "package A(y int)"
            ]
        );
        let g = &side.methods[1];
        let texts: Vec<&str> = g.stmts.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["if ( t == null )", "return ;", "h ( t , x ) ;"]);
        assert_eq!(g.calls[0].name, "h");
        assert_eq!(g.calls[0].stmt, Some(2));
        assert_eq!(side.classes[0].name, "a.I");
    }
}
