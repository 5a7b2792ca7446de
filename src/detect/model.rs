//! One side of a change as the detector sees it: classes, methods in RefactoringMiner's notation,
//! and each method body as a list of normalised statements with the calls made from them.
//!
//! Statements follow RefactoringMiner's split: a leaf statement (`x = f(y);`) is one entry, a
//! composite (`if`, `for`, `try`, `switch`, ...) contributes its header (`if (c)`) and then its
//! children. Text is normalised to tokens without comments, whitespace or `this.`, so formatting
//! and qualification do not count as differences.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use rayon::prelude::*;
use tree_sitter::{InputEdit, Node, Parser, Point, Tree};

use super::snapshot::Snapshot;
use crate::engine::javasyntax::{is_comment, statements_of};
use crate::java::Span;

thread_local! {
    /// One parser per thread, reused (the detector parses thousands of files per second).
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

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
    pub tree: Tree,
    line_starts: Vec<usize>,
}

impl std::fmt::Debug for Parsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parsed").field("path", &self.path).finish()
    }
}

impl Parsed {
    /// Parses `text`, reusing `old` (the same file before the change) where the text is unchanged.
    fn parse(path: &str, text: String, old: Option<&Parsed>) -> Parsed {
        let line_starts: Vec<usize> = std::iter::once(0)
            .chain(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1))
            .collect();
        let old_tree = old.map(|o| {
            let mut tree = o.tree.clone();
            for edit in line_edits(o, &text, &line_starts).into_iter().rev() {
                tree.edit(&edit);
            }
            tree
        });
        let tree = PARSER.with(|cell| {
            let mut slot = cell.borrow_mut();
            let parser = slot.get_or_insert_with(|| {
                let mut p = Parser::new();
                // The grammar is compiled into the binary; a version mismatch is a build bug.
                p.set_language(&crate::java::source::language()).expect("tree-sitter-java grammar matches the runtime");
                p
            });
            parser.parse(&text, old_tree.as_ref())
        });
        // `parse` returns None only without a language or on cancellation, neither of which we set.
        let tree = tree.expect("tree-sitter parse with a language and no timeout");
        Parsed { path: path.to_string(), text, tree, line_starts }
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

/// The line hunks that turn `old`'s text into `new`, as tree-sitter edits in document order.
///
/// Hunks are whole lines, so every boundary is a line start (column 0) except the end of a text
/// without a final newline. They are applied last to first: when one is applied, the text before
/// it is still the old text, so its start is in old terms and its new end is the old start plus
/// the new length.
fn line_edits(old: &Parsed, new: &str, new_starts: &[usize]) -> Vec<InputEdit> {
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(std::time::Duration::from_millis(50))
        .diff_lines(old.text.as_str(), new);
    let byte = |starts: &[usize], len: usize, line: usize| starts.get(line).copied().unwrap_or(len);
    let point = |starts: &[usize], b: usize| {
        let row = match starts.binary_search(&b) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        (row, b - starts.get(row).copied().unwrap_or(0))
    };
    let mut edits = Vec::new();
    for op in diff.ops() {
        if matches!(op, similar::DiffOp::Equal { .. }) {
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        let start_byte = byte(&old.line_starts, old.text.len(), o.start);
        let old_end_byte = byte(&old.line_starts, old.text.len(), o.end);
        let new_start = byte(new_starts, new.len(), n.start);
        let new_end = byte(new_starts, new.len(), n.end);
        let (srow, scol) = point(&old.line_starts, start_byte);
        let (orow, ocol) = point(&old.line_starts, old_end_byte);
        let (nrow_new, ncol) = point(new_starts, new_end);
        let (nrow_start, _) = point(new_starts, new_start);
        edits.push(InputEdit {
            start_byte,
            old_end_byte,
            new_end_byte: start_byte + (new_end - new_start),
            start_position: Point { row: srow, column: scol },
            old_end_position: Point { row: orow, column: ocol },
            new_end_position: Point { row: srow + (nrow_new - nrow_start), column: ncol },
        });
    }
    edits
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
    /// Both sides of a change; the after side's files are parsed incrementally from the before side's.
    pub fn build_pair(before: &Snapshot, after: &Snapshot) -> (Side, Side) {
        let b_files: Vec<Parsed> = before.files.par_iter().map(|(p, t)| Parsed::parse(p, t.clone(), None)).collect();
        let b_index: HashMap<&str, usize> = b_files.iter().enumerate().map(|(i, f)| (f.path.as_str(), i)).collect();
        let a_files: Vec<Parsed> = after
            .files
            .par_iter()
            .map(|(p, t)| {
                let old = b_index.get(p.as_str()).map(|&i| &b_files[i]);
                // An unchanged file needs no parse of its own; a changed one reuses the old tree.
                match old {
                    Some(o) if o.text == *t => Parsed {
                        path: p.clone(),
                        text: t.clone(),
                        tree: o.tree.clone(),
                        line_starts: o.line_starts.clone(),
                    },
                    _ => Parsed::parse(p, t.clone(), old),
                }
            })
            .collect();
        let mut b = Side::declare(b_files);
        let mut a = Side::declare(a_files);
        let fb: HashSet<u64> = b.methods.iter().map(|m| m.fingerprint).collect();
        let fa: HashSet<u64> = a.methods.iter().map(|m| m.fingerprint).collect();
        rayon::join(|| b.fill_bodies(&fa), || a.fill_bodies(&fb));
        (b, a)
    }

    /// One side alone (every body filled).
    pub fn build(snapshot: &Snapshot) -> Side {
        let files: Vec<Parsed> = snapshot.files.par_iter().map(|(p, t)| Parsed::parse(p, t.clone(), None)).collect();
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
        let files = &self.files;
        let bodies: Vec<(usize, Body)> = self
            .methods
            .par_iter()
            .enumerate()
            .filter(|(_, m)| m.body.is_some() && !other.contains(&m.fingerprint))
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
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80 {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$' || b[i] >= 0x80) {
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
            if b[i..].starts_with(b"\"\"\"") {
                i += 3;
                while i < b.len() && !b[i..].starts_with(b"\"\"\"") {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 3).min(b.len());
            } else {
                i += 1;
                while i < b.len() && b[i] != c && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
            }
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
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == "lambda_expression"
            && let Some(body) = n.child_by_field_name("body").filter(|b| b.kind() == "block")
        {
            out.push(body);
            continue;
        }
        if n.kind() == "class_body" {
            if n.parent().is_some_and(|p| p.kind() == "object_creation_expression") {
                out.push(n);
            }
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out.sort_by_key(|b| b.start_byte());
    out
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

fn collect_calls(src: &Parsed, node: Node<'_>, out: &mut Vec<Call>, locals: &mut Vec<(String, String)>) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "local_variable_declaration" => locals.extend(declared(src, n)),
            "enhanced_for_statement" | "resource" | "formal_parameter" => {
                if let (Some(t), Some(v)) = (n.child_by_field_name("type"), n.child_by_field_name("name")) {
                    locals.push((src.text_of(v).to_string(), erase(src.text_of(t), 0)));
                }
            }
            _ => {}
        }
        if n.kind() == "explicit_constructor_invocation"
            && n.child_by_field_name("constructor").is_some_and(|c| c.kind() == "this")
        {
            let args = n
                .child_by_field_name("arguments")
                .map(|a| {
                    let mut c = a.walk();
                    a.named_children(&mut c).filter(|x| !is_comment(x.kind())).map(|x| tokens(src.text_of(x))).collect()
                })
                .unwrap_or_default();
            out.push(Call {
                name: "this".into(),
                args,
                qualified: false,
                receiver: String::new(),
                span: Span::of(n),
                stmt: None,
            });
        }
        if n.kind() == "method_invocation"
            && let Some(name) = n.child_by_field_name("name")
        {
            let obj = n.child_by_field_name("object");
            let qualified = obj.is_some_and(|o| o.kind() != "this");
            let args = n
                .child_by_field_name("arguments")
                .map(|a| {
                    let mut c = a.walk();
                    a.named_children(&mut c).filter(|x| !is_comment(x.kind())).map(|x| tokens(src.text_of(x))).collect()
                })
                .unwrap_or_default();
            let receiver = obj.filter(|_| qualified).map(|o| tokens(src.text_of(o)).join(" ")).unwrap_or_default();
            out.push(Call {
                name: src.text_of(name).to_string(),
                args,
                qualified,
                receiver,
                span: Span::of(n),
                stmt: None,
            });
        }
        let mut c = n.walk();
        let children: Vec<Node<'_>> = n.children(&mut c).collect();
        stack.extend(children.into_iter().rev());
    }
    out.sort_by_key(|c| c.span.start_byte);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[ignore = "one-off check over the oracle"]
    fn incremental_parse_on_the_oracle() {
        let shared = crate::dataset::shared_data_dir().expect("data");
        let commits = crate::detect::oracle::load(&shared.join("refactoring-oracle")).expect("oracle");
        let mut checked = 0;
        for c in commits.iter().step_by(4) {
            let b = Snapshot::read(&c.dir.join("before")).expect("before");
            let a = Snapshot::read(&c.dir.join("after")).expect("after");
            for (path, text) in &a.files {
                let Some(old) = b.files.get(path) else { continue };
                let before = Parsed::parse(path, old.clone(), None);
                let inc = Parsed::parse(path, text.clone(), Some(&before));
                let fresh = Parsed::parse(path, text.clone(), None);
                assert_eq!(inc.root().to_sexp(), fresh.root().to_sexp(), "{path}");
                checked += 1;
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn incremental_parse_equals_a_fresh_parse() {
        let old = "package a;\nclass A {\n  void m() {\n    int x = 1;\n  }\n  void n() { m(); }\n}";
        let new = "package a;\nimport b.B;\nclass A {\n  void m() {\n    int x = 2;\n    x++;\n  }\n  void n() { m(); }\n  int k() { return 3; }\n}";
        let before = Parsed::parse("A.java", old.to_string(), None);
        let incremental = Parsed::parse("A.java", new.to_string(), Some(&before));
        let fresh = Parsed::parse("A.java", new.to_string(), None);
        assert_eq!(incremental.root().to_sexp(), fresh.root().to_sexp());
        assert_eq!(incremental.root().end_position(), fresh.root().end_position());
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
