//! CodeBLEU for Java (Ren et al. 2020, "CodeBLEU: a Method for Automatic Evaluation of Code
//! Synthesis"), as CodeXGLUE's `calc_code_bleu.py` computes it for one reference and one candidate:
//!
//! - **ngram**: BLEU-4 (modified n-gram precision, brevity penalty, Chen & Cherry smoothing method 1:
//!   a zero count becomes 0.1), 0 when no unigram matches;
//! - **weighted_ngram**: the same with modified *recall* (clipped counts over the reference's), where
//!   each unigram weighs 1.0 if it is one of the 50 Java keywords and 0.2 otherwise (n ≥ 2 unweighted);
//! - **syntax**: the share of the reference's subtrees (every node with children, the root included,
//!   as tree-sitter s-expressions, which leave out the leaves' text) that occur in the candidate;
//! - **dataflow**: the share of the reference's normalised data-flow items found in the candidate's
//!   ([`super::dfg`]).
//!
//! `score` is their weighted sum, 0.25 each by default.
//!
//! Where this differs from the reference, and why:
//! - Tokens are tree-sitter's leaves (a string or character literal is one token, comments are
//!   dropped) instead of splitting pre-tokenised text on spaces: our inputs are source code as
//!   written, and the leaves are the tokens CodeXGLUE's own tokenisation produced.
//! - Comments are blanked (replaced by spaces) before parsing instead of removed by a regex.
//! - A method or a few members that do not parse as a Java file are parsed inside a wrapper class,
//!   and their subtrees are taken from the members, so the wrapper adds nothing; the reference
//!   scores the error-recovered tree of the bare snippet.
//! - Identical token sequences score 1.0 on both n-gram parts even when shorter than four tokens
//!   (the reference's smoothing gives them less than 1).
//! - The reference scores a reference without data flow as 0 and warns that the figure should be
//!   ignored; here it is 1.0 when the candidate has no data flow either and 0.0 otherwise.
//! - The grammar is tree-sitter-java 0.23, newer than the reference's: node kinds (and so a few
//!   subtrees and data-flow tokens) differ slightly.
//!
//! Empty input: two empty (or comment-only) texts are identical (1.0 everywhere); an empty reference
//! or candidate against a non-empty one scores 0.0. Text that does not parse is scored on the tree
//! tree-sitter recovers, as the reference does; nothing here panics on bad input.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use tree_sitter::Node;

use super::dfg;
use crate::java::SourceFile;
use crate::java::syntax::{KEYWORDS, is_comment};

/// A CodeBLEU score and its four components, each in 0..=1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CodeBleu {
    pub score: f64,
    pub ngram: f64,
    pub weighted_ngram: f64,
    pub syntax: f64,
    pub dataflow: f64,
}

/// The weights of the four components (the reference's alpha, beta, gamma, theta).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    pub ngram: f64,
    pub weighted_ngram: f64,
    pub syntax: f64,
    pub dataflow: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights { ngram: 0.25, weighted_ngram: 0.25, syntax: 0.25, dataflow: 0.25 }
    }
}

/// CodeBLEU of `candidate` against `reference`, with the default weights.
pub fn codebleu(reference: &str, candidate: &str) -> CodeBleu {
    codebleu_weighted(reference, candidate, Weights::default())
}

/// CodeBLEU with chosen weights.
pub fn codebleu_weighted(reference: &str, candidate: &str, weights: Weights) -> CodeBleu {
    let (r, c) = (Code::new(reference), Code::new(candidate));
    let (rt, ct) = (r.tokens(), c.tokens());
    let (ngram, weighted_ngram) = if rt == ct { (1.0, 1.0) } else { (bleu(&rt, &ct), weighted_bleu(&rt, &ct)) };
    let syntax = if rt.is_empty() && ct.is_empty() { 1.0 } else { syntax_match(&r, &c) };
    let dataflow = {
        let (rf, cf) = (r.data_flow(), c.data_flow());
        dfg::match_score(&rf, &cf).unwrap_or(if cf.is_empty() { 1.0 } else { 0.0 })
    };
    let score = weights.ngram * ngram
        + weights.weighted_ngram * weighted_ngram
        + weights.syntax * syntax
        + weights.dataflow * dataflow;
    CodeBleu { score, ngram, weighted_ngram, syntax, dataflow }
}

/// The wrapper a method-level snippet is parsed in.
const WRAP_OPEN: &str = "class CodeBleuWrapper__ {\n";
const WRAP_CLOSE: &str = "\n}\n";

/// A text ready for scoring: comments blanked, parsed as a file or, if that fails where a wrapper
/// class succeeds, as class members.
pub(crate) struct Code {
    pub file: SourceFile,
    /// Whether the text sits inside [`WRAP_OPEN`] ... [`WRAP_CLOSE`].
    wrapped: bool,
}

impl Code {
    pub fn new(text: &str) -> Code {
        let clean = blank_comments(text);
        let raw = SourceFile::parse("CodeBleu.java", clean.clone());
        if !raw.root().has_error() {
            return Code { file: raw, wrapped: false };
        }
        let wrapped = SourceFile::parse("CodeBleu.java", format!("{WRAP_OPEN}{clean}{WRAP_CLOSE}"));
        if error_count(wrapped.root()) < error_count(raw.root()) {
            Code { file: wrapped, wrapped: true }
        } else {
            Code { file: raw, wrapped: false }
        }
    }

    /// The byte range of the caller's text inside the parsed text.
    fn region(&self) -> (usize, usize) {
        if self.wrapped {
            (WRAP_OPEN.len(), self.file.text.len() - WRAP_CLOSE.len())
        } else {
            (0, self.file.text.len())
        }
    }

    /// The tokens of the caller's text, comments left out.
    pub fn tokens(&self) -> Vec<&str> {
        let (start, end) = self.region();
        let mut out = Vec::new();
        leaves(self.file.root(), &mut |n| {
            if n.start_byte() >= start && n.end_byte() <= end && n.end_byte() > n.start_byte() {
                out.push(self.file.text_of(n));
            }
        });
        out
    }

    /// Where the subtrees are counted from: the file, or the members inside the wrapper.
    fn roots(&self) -> Vec<Node<'_>> {
        let root = self.file.root();
        if !self.wrapped {
            return vec![root];
        }
        let mut c = root.walk();
        let class = root.named_children(&mut c).find(|n| n.kind() == "class_declaration");
        let body = class.and_then(|n| n.child_by_field_name("body"));
        match body {
            Some(body) => {
                let mut c = body.walk();
                body.named_children(&mut c).collect()
            }
            None => vec![root],
        }
    }

    /// `get_all_sub_trees`: the s-expression of every node that has children, below each root.
    fn subtrees(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = self.roots();
        while let Some(n) = stack.pop() {
            out.push(n.to_sexp());
            let mut c = n.walk();
            stack.extend(n.children(&mut c).filter(|ch| ch.child_count() != 0));
        }
        out
    }

    fn data_flow(&self) -> Vec<dfg::Flow> {
        dfg::data_flow(self.file.root(), &self.file.text)
    }
}

/// The text with every comment replaced by spaces (line breaks kept), so positions and tokens
/// stay where they were.
pub(crate) fn blank_comments(text: &str) -> String {
    let file = SourceFile::parse("CodeBleu.java", text.to_string());
    let mut ranges = Vec::new();
    crate::java::syntax::walk(file.root(), &mut |n| {
        if is_comment(n.kind()) {
            ranges.push(n.byte_range());
            return false;
        }
        true
    });
    if ranges.is_empty() {
        return file.text;
    }
    let mut bytes = file.text.into_bytes();
    for r in ranges {
        for b in &mut bytes[r] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    // Every byte of a comment became ASCII, so the text is still UTF-8; lossy never replaces.
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Leaves in document order, string and character literals whole, comments skipped.
fn leaves<'t>(n: Node<'t>, f: &mut impl FnMut(Node<'t>)) {
    if is_comment(n.kind()) {
        return;
    }
    if n.child_count() == 0 || matches!(n.kind(), "string_literal" | "character_literal") {
        f(n);
        return;
    }
    let mut c = n.walk();
    for child in n.children(&mut c) {
        leaves(child, f);
    }
}

fn error_count(n: Node<'_>) -> usize {
    if !n.has_error() {
        return 0;
    }
    let own = usize::from(n.is_error() || n.is_missing());
    let mut c = n.walk();
    own + n.children(&mut c).map(error_count).sum::<usize>()
}

fn ngram_counts<'a>(tokens: &[&'a str], n: usize) -> HashMap<Vec<&'a str>, usize> {
    let mut counts = HashMap::new();
    if tokens.len() >= n {
        for w in tokens.windows(n) {
            *counts.entry(w.to_vec()).or_insert(0) += 1;
        }
    }
    counts
}

/// `brevity_penalty`: 1 for a candidate longer than the reference, 0 for an empty one.
fn brevity_penalty(reference_len: usize, candidate_len: usize) -> f64 {
    if candidate_len > reference_len {
        1.0
    } else if candidate_len == 0 {
        0.0
    } else {
        (1.0 - reference_len as f64 / candidate_len as f64).exp()
    }
}

/// BLEU-4 from (numerator, denominator) pairs: 0 without a unigram match, smoothing method 1.
fn combine(p: &[(f64, f64); 4], bp: f64) -> f64 {
    if p[0].0 == 0.0 {
        return 0.0;
    }
    let log_sum: f64 = p.iter().map(|&(num, den)| 0.25 * ((if num == 0.0 { 0.1 } else { num }) / den).ln()).sum();
    bp * log_sum.exp()
}

/// `bleu.corpus_bleu` for one pair: modified n-gram precision.
pub(crate) fn bleu(reference: &[&str], candidate: &[&str]) -> f64 {
    let mut p = [(0.0, 0.0); 4];
    for (i, slot) in p.iter_mut().enumerate() {
        let (cand, refs) = (ngram_counts(candidate, i + 1), ngram_counts(reference, i + 1));
        let matched: usize = cand.iter().map(|(g, k)| (*k).min(refs.get(g).copied().unwrap_or(0))).sum();
        let total: usize = cand.values().sum();
        *slot = (matched as f64, total.max(1) as f64);
    }
    combine(&p, brevity_penalty(reference.len(), candidate.len()))
}

/// `weighted_ngram_match.corpus_bleu` for one pair: modified recall, keywords weighing 5× in unigrams.
pub(crate) fn weighted_bleu(reference: &[&str], candidate: &[&str]) -> f64 {
    let keywords: HashSet<&str> = KEYWORDS.into_iter().collect();
    let weight = |t: &str| if keywords.contains(t) { 1.0 } else { 0.2 };
    let mut p = [(0.0, 0.0); 4];
    for (i, slot) in p.iter_mut().enumerate() {
        let (cand, refs) = (ngram_counts(candidate, i + 1), ngram_counts(reference, i + 1));
        let (mut matched, mut total) = (0.0, 0.0);
        for (g, k) in &refs {
            let clipped = (*k).min(cand.get(g).copied().unwrap_or(0)) as f64;
            let w = if i == 0 { weight(g[0]) } else { 1.0 };
            matched += clipped * w;
            total += *k as f64 * w;
        }
        *slot = (matched, f64::max(1.0, total));
    }
    combine(&p, brevity_penalty(reference.len(), candidate.len()))
}

/// `corpus_syntax_match` for one pair.
fn syntax_match(reference: &Code, candidate: &Code) -> f64 {
    let refs = reference.subtrees();
    if refs.is_empty() {
        return if candidate.subtrees().is_empty() { 1.0 } else { 0.0 };
    }
    let cands: HashSet<String> = candidate.subtrees().into_iter().collect();
    refs.iter().filter(|s| cands.contains(*s)).count() as f64 / refs.len() as f64
}

#[cfg(test)]
mod tests;
