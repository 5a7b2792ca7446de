//! The selection: the line range resolved to whole statements of one block, and the checks its
//! statements must pass (control flow that would leave the fragment, a value that flows out).

use super::{Extractor, Selection, describe, final_fields, innermost_statement, kind_name, mentions};
use crate::engine::dataflow::MethodFlow;
use crate::engine::{Reason, Refusal};
use crate::java::syntax::Kind;
use crate::java::syntax::{
    callable_body, code_leaves, enclosing_callable, is_flow_boundary, is_statement_container, statements_of, walk,
};
use tree_sitter::Node;

impl<'a> Extractor<'a> {
    /// Resolves the line range to whole statements of one block, snapping partial lines when
    /// that is unambiguous.
    pub(super) fn select(&self) -> Result<Selection<'a>, Refusal> {
        let (a, b) = self.spec.lines;
        let file = self.file;
        if a == 0 || a > b || b > file.line_count() {
            return Err(Refusal::new(
                Reason::InvalidLines,
                format!(
                    "lines {a}-{b} are not a range of lines of {} (it has {} lines)",
                    file.path.display(),
                    file.line_count()
                ),
            ));
        }
        let (Some(start), Some(end)) = (file.line_start(a), file.line_start(b + 1).or(Some(self.src.len()))) else {
            return Err(Refusal::new(Reason::InvalidLines, format!("lines {a}-{b} are outside the file")));
        };
        let text = &self.src[start..end];
        let trimmed_start = start + (text.len() - text.trim_start().len());
        let trimmed_end = start + text.trim_end().len();
        if trimmed_start >= trimmed_end {
            return Err(Refusal::new(
                Reason::EmptySelection,
                format!("lines {a}-{b} are blank; select the statements to extract"),
            ));
        }
        let root = file.root();
        let Some(callable) = enclosing_callable(root, trimmed_start, trimmed_end) else {
            return Err(Refusal::new(
                Reason::LinesOutsideMethod,
                format!(
                    "lines {a}-{b} are not inside one method, constructor or initializer; select statements of one method body"
                ),
            ));
        };
        let c_start = callable.start_position().row + 1;
        let c_end = callable.end_position().row + 1;
        if let Some(m) = self.spec.method_line
            && !(c_start..=c_end).contains(&m)
        {
            return Err(Refusal::new(
                Reason::LinesOutsideMethod,
                format!(
                    "lines {a}-{b} are in the {} at lines {c_start}-{c_end}, not in the method at line {m}; check the line numbers",
                    describe(callable, self.src)
                ),
            ));
        }
        if callable.has_error() {
            let at = file
                .syntax_error()
                .map(|e| format!(" (first error on line {}: `{}`)", e.line, e.snippet))
                .unwrap_or_default();
            return Err(Refusal::new(
                Reason::SyntaxError,
                format!("the method at lines {c_start}-{c_end} does not parse{at}; fix the syntax first"),
            ));
        }
        let Some(body) = callable_body(callable) else {
            return Err(Refusal::new(Reason::LinesOutsideMethod, format!("the method at line {c_start} has no body")));
        };
        let leaves: Vec<Node<'a>> =
            code_leaves(callable).into_iter().filter(|l| (a..=b).contains(&(l.start_position().row + 1))).collect();
        let inside_body = |l: &Node<'_>| l.start_byte() > body.start_byte() && l.end_byte() < body.end_byte();
        if let Some(out) = leaves.iter().find(|l| !inside_body(l)) {
            return Err(Refusal::new(
                Reason::LinesOutsideMethod,
                format!(
                    "line {} is part of the method's declaration or braces, not its body; select only statements inside the body (lines {}-{})",
                    out.start_position().row + 1,
                    body.start_position().row + 1 + usize::from(!self.first_line_has_statement(body)),
                    body.end_position().row
                ),
            ));
        }
        let (Some(first_leaf), Some(last_leaf)) = (leaves.first(), leaves.last()) else {
            return Err(Refusal::new(
                Reason::EmptySelection,
                format!("lines {a}-{b} hold only comments or blank lines; select the statements to extract"),
            ));
        };

        // The smallest block holding every selected token inside one of its statements.
        let mut container =
            root.descendant_for_byte_range(first_leaf.start_byte(), last_leaf.end_byte()).unwrap_or(body);
        let statements = loop {
            while !is_statement_container(container.kind_name()) {
                container = container.parent().unwrap_or(body);
            }
            let stmts: Vec<Node<'a>> = statements_of(container)
                .into_iter()
                .filter(|s| s.start_position().row < b && s.end_position().row + 1 >= a)
                .collect();
            if !stmts.is_empty() && leaves.iter().all(|l| covering(&stmts, l).is_some()) {
                break stmts;
            }
            if container.id() == body.id() {
                return Err(Refusal::new(
                    Reason::PartialStatement,
                    format!("lines {a}-{b} do not hold whole statements of one block; select complete statements"),
                ));
            }
            container = container.parent().unwrap_or(body);
        };

        // Snap partially covered statements to whole ones only when no nested block is cut.
        let whole = |s: &Node<'_>| s.start_position().row + 1 >= a && s.end_position().row < b;
        if !statements.iter().all(whole) {
            for leaf in &leaves {
                let Some(top) = covering(&statements, leaf).map(|i| statements[i]) else { continue };
                if whole(&top) {
                    continue;
                }
                let innermost = innermost_statement(*leaf, container);
                if innermost.id() != top.id() {
                    let (s, e) = (top.start_position().row + 1, top.end_position().row + 1);
                    return Err(Refusal::new(
                        Reason::PartialStatement,
                        format!(
                            "lines {a}-{b} cover part of the {} at lines {s}-{e} and statements nested inside it; select the whole statement (lines {s}-{e}) or only statements inside one of its blocks",
                            kind_name(top.kind_name())
                        ),
                    ));
                }
            }
        }
        Ok(Selection { callable, body, container, statements })
    }

    pub(super) fn first_line_has_statement(&self, body: Node<'_>) -> bool {
        statements_of(body).first().is_some_and(|s| s.start_position().row == body.start_position().row)
    }

    /// Refuses statements that cannot move into another method.
    pub(super) fn check_statements(&self, sel: &Selection<'_>) -> Result<(), Refusal> {
        let src = self.src;
        for s in &sel.statements {
            let line = s.start_position().row + 1;
            if s.kind_name() == "explicit_constructor_invocation" {
                return Err(Refusal::new(
                    Reason::ConstructorCall,
                    format!(
                        "line {line} calls `this(...)` or `super(...)`, which only a constructor can do; select the statements after it"
                    ),
                ));
            }
            if matches!(
                s.kind_name(),
                "class_declaration"
                    | "local_class_declaration"
                    | "record_declaration"
                    | "enum_declaration"
                    | "interface_declaration"
            ) && let Some(name) = s.child_by_field_name("name")
            {
                let name = &src[name.byte_range()];
                let used_after = mentions(sel.callable, src, name, s.end_byte());
                if used_after {
                    return Err(Refusal::new(
                        Reason::LocalType,
                        format!(
                            "the local type `{name}` declared on line {line} is used after the selection; it would not be visible there"
                        ),
                    ));
                }
            }
        }
        // A final field may only be assigned in a constructor or initializer, never in a method.
        if matches!(sel.callable.kind_name(), "constructor_declaration" | "static_initializer" | "block") {
            let finals = final_fields(sel.callable, src);
            let flow_locals = MethodFlow::analyze(sel.callable, src);
            for s in &sel.statements {
                let mut found: Option<(String, usize)> = None;
                walk(*s, &mut |n| {
                    let target = match n.kind_name() {
                        "assignment_expression" => n.child_by_field_name("left"),
                        "update_expression" => n.named_child(0),
                        _ => None,
                    };
                    if let Some(t) = target {
                        let name = match t.kind_name() {
                            "identifier" if flow_locals.resolve(&src[t.byte_range()], t.start_byte()).is_none() => {
                                Some(&src[t.byte_range()])
                            }
                            "field_access"
                                if t.child_by_field_name("object").is_some_and(|o| o.kind_name() == "this") =>
                            {
                                t.child_by_field_name("field").map(|f| &src[f.byte_range()])
                            }
                            _ => None,
                        };
                        if let Some(name) = name.filter(|n| finals.iter().any(|f| f == n))
                            && found.is_none()
                        {
                            found = Some((name.to_string(), t.start_position().row + 1));
                        }
                    }
                    !is_flow_boundary(n.kind_name())
                });
                if let Some((name, line)) = found {
                    return Err(Refusal::new(
                        Reason::AssignsFinalField,
                        format!(
                            "line {line} assigns the final field `{name}`, which only a constructor or initializer may do; leave that assignment out of the selection"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The index of the statement of `stmts` (siblings, in source order) that holds `leaf`: a binary
/// search, so that a selection of 50,000 statements is checked in linear time.
fn covering(stmts: &[Node<'_>], leaf: &Node<'_>) -> Option<usize> {
    let i = stmts.partition_point(|s| s.start_byte() <= leaf.start_byte()).checked_sub(1)?;
    (leaf.end_byte() <= stmts[i].end_byte()).then_some(i)
}
