//! Copies of the extracted statements elsewhere in the file (`ExtractSpec::copies`, code written
//! twice): each is replaced with the same call, when it is the same code doing the same thing.
//!
//! A copy is taken only when its statements are the fragment's word for word (whitespace aside),
//! read the same variables from before them and give back the same ones after them, declared
//! with the same types (so the one call stands for both), return nowhere, and sit in a method
//! that can call the new one (the same class body, or any method when the new one is static).
//! Anything else is refused, with the copy's lines and what differs: a copy that is not the same
//! code is not the same method.

use std::ops::Range;

use super::{Extractor, Selection};
use crate::engine::dataflow::{FragmentFlow, MethodFlow};
use crate::engine::{Reason, Refusal};
use crate::java::syntax::has_modifier;

impl Extractor<'_> {
    /// The byte ranges of the copies to replace with `call`, checked against the fragment of
    /// `sel` (data flow `ff` in `flow`, giving back `outputs`); `plain`: no expression of the
    /// fragment is passed in as a parameter. A copy's comments go with it when they are the
    /// fragment's own (those the new method keeps with it); other comments stay in place.
    pub(super) fn copies(
        &self,
        sel: &Selection<'_>,
        flow: &MethodFlow<'_>,
        ff: &FragmentFlow,
        outputs: &[usize],
        call: &str,
        plain: bool,
    ) -> Result<Vec<Range<usize>>, Refusal> {
        if self.spec.copies.is_empty() {
            return Ok(Vec::new());
        }
        let src = self.src;
        let refuse = |lines: (usize, usize), what: String| {
            Refusal::new(
                Reason::CopyDiffers,
                format!("the copy on lines {}-{} {what}; leave it out of the copies", lines.0, lines.1),
            )
        };
        let words = |range: Range<usize>| src[range].split_whitespace().collect::<Vec<_>>().join(" ");
        let text = |stmts: &[tree_sitter::Node<'_>]| words(stmts[0].start_byte()..stmts[stmts.len() - 1].end_byte());
        // Each variable with the type its declaration spells: the same name may be declared with
        // another type in the copy's method (`CategoryAxis axis`, `ValueAxis axis`).
        let names = |flow: &MethodFlow<'_>, vars: &[usize]| {
            let mut n: Vec<(String, Option<String>)> =
                vars.iter().map(|&i| (flow.vars[i].name.clone(), flow.vars[i].type_text.clone())).collect();
            n.sort();
            n
        };
        let origin = sel.statements[0].start_byte()..sel.statements[sel.statements.len() - 1].end_byte();
        // The fragment with the comments that go into the new method with it.
        let commented = words(self.region(sel, origin.clone()));
        let fragment = text(&sel.statements);
        let is_static = has_modifier(sel.callable, src, "static");
        // What the call cannot stand for at a copy, whichever copy it is.
        let one_call = plain
            && !crate::text::contains_word(&fragment, "return")
            && !call.contains('\n')
            && !call.starts_with("return ");
        let mut out: Vec<Range<usize>> = Vec::new();
        for &lines in &self.spec.copies {
            if !one_call {
                return Err(refuse(
                    lines,
                    "cannot take the call: the extraction passes in an expression or returns from the method".into(),
                ));
            }
            let spec = crate::engine::ExtractSpec { lines, method_line: None, copies: Vec::new(), ..self.spec.clone() };
            let extractor = Extractor { file: self.file, src, spec: &spec, flow: None };
            let copy = extractor.select()?;
            let range = copy.statements[0].start_byte()..copy.statements[copy.statements.len() - 1].end_byte();
            if range.start < origin.end && origin.start < range.end
                || out.iter().any(|r| range.start < r.end && r.start < range.end)
            {
                return Err(refuse(lines, "overlaps the statements extracted or another copy".into()));
            }
            if text(&copy.statements) != fragment {
                return Err(refuse(lines, "is not the same code as the statements extracted".into()));
            }
            let same_body = copy.callable.parent().map(|p| p.id()) == sel.callable.parent().map(|p| p.id());
            let reaches = is_static || (same_body && !has_modifier(copy.callable, src, "static"));
            if !reaches {
                return Err(refuse(lines, "is in a method that cannot call an instance method of this class".into()));
            }
            let copy_flow = MethodFlow::analyze(copy.callable, src);
            let cf = copy_flow.fragment(&copy.statements, src);
            if names(&copy_flow, &cf.params) != names(flow, &ff.params) {
                return Err(refuse(
                    lines,
                    "reads other variables from before it, or the same names declared with other types".into(),
                ));
            }
            if names(&copy_flow, &cf.outputs) != names(flow, outputs) {
                return Err(refuse(
                    lines,
                    "gives back other variables than the statements extracted, or of other types".into(),
                ));
            }
            let with_comments = extractor.region(&copy, range.clone());
            out.push(if words(with_comments.clone()) == commented { with_comments } else { range });
        }
        Ok(out)
    }
}
