//! One side of a change as the detector sees it: classes, methods in RefactoringMiner's notation,
//! and each method body as a list of normalised statements with the calls made from them.
//!
//! Statements follow RefactoringMiner's split: a leaf statement (`x = f(y);`) is one entry, a
//! composite (`if`, `for`, `try`, `switch`, ...) contributes its header (`if (c)`) and then its
//! children. Text is normalised to tokens without comments, whitespace or `this.`, so formatting
//! and qualification do not count as differences.
//!
//! Files: `parse`, `declarations`, `normalise`, `statements`, `calls`.

mod calls;
mod declarations;
mod normalise;
mod parse;
mod statements;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;
use tree_sitter::Tree;

use super::skeleton;
use super::snapshot::Snapshot;
use crate::java::Span;
use declarations::Declarations;
pub use normalise::{erase, rm_type, tokens};
pub(crate) use statements::core_of;
use statements::{Body, body_of};

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
    /// Final fields with an initializer: (name, the initializer's normalised tokens), for reading
    /// a constant and its value as the same thing.
    pub constants: Vec<(String, Vec<String>)>,
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
    /// Inside a lambda's block or an anonymous class's method of the body.
    pub nested: bool,
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
    Some(crate::text::compact(f.text_of(name)))
}
