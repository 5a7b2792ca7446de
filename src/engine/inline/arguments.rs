//! Arguments: how each argument reaches the inlined body (substituted, or a temporary), and how
//! the body's implicit `this` is spelled at the call site.

use super::callee::{Method, has_effects, in_nested_scope};
use crate::engine::precedence::{self, is_target_typed, precedence};
use crate::engine::variable_names::{descendants, find_declaration, is_field, is_variable_name};
use crate::java::SourceFile;
use crate::java::syntax::is_literal;
use tree_sitter::Node;

/// How the body's implicit `this` must be spelled at a call site.
#[derive(Default)]
pub(super) struct Qualify {
    /// What `this` becomes.
    pub(super) this_text: Option<String>,
    /// Prefix for the declaring type's instance members (`r`, `Outer.this`).
    pub(super) instance: Option<String>,
    /// Prefix for its static members (`Outer`).
    pub(super) statics: Option<String>,
}

/// What happens to one argument.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ArgPlan {
    Substitute,
    Temp,
    Drop,
}

/// How an argument may move in time.
pub(super) struct ArgInfo<'t> {
    pub(super) node: Node<'t>,
    pub(super) text: String,
    /// A literal, `this` or a caller local: its value cannot change while the body runs.
    pub(super) stable: bool,
    /// A name or literal (substitutable however often it is used).
    pub(super) simple: bool,
    pub(super) lambda: bool,
    pub(super) effects: bool,
}

pub(super) fn classify_arg<'t>(arg: Node<'t>, file: &'t SourceFile) -> ArgInfo<'t> {
    let leaf_stable = |n: Node<'_>| match n.kind() {
        "identifier" => find_declaration(n, file.text_of(n), &file.text).is_some_and(|d| !d.is_field),
        _ => true,
    };
    let structural = |n: &Node<'_>| {
        matches!(
            n.kind(),
            "identifier"
                | "this"
                | "parenthesized_expression"
                | "binary_expression"
                | "unary_expression"
                | "ternary_expression"
                | "cast_expression"
                | "string_fragment"
                | "escape_sequence"
        ) || is_literal(*n)
            || !n.is_named()
            || n.kind().ends_with("_type")
            || n.kind() == "type_identifier"
    };
    let all = descendants(arg);
    let qualified_this =
        arg.kind() == "field_access" && arg.child_by_field_name("field").is_some_and(|f| f.kind() == "this");
    let stable = qualified_this
        || (all.iter().all(structural)
            && all.iter().filter(|n| n.kind() == "identifier" && is_variable_name(**n)).all(|n| leaf_stable(*n)));
    let negative_literal = arg.kind() == "unary_expression"
        && arg.child_by_field_name("operand").is_some_and(|o| o.kind().ends_with("literal"))
        && arg.child_by_field_name("operator").is_some_and(|o| matches!(o.kind(), "-" | "+"));
    let simple = negative_literal
        || qualified_this
        || precedence(arg, &file.text) == precedence::PRIMARY && matches!(arg.kind(), "identifier" | "this")
        || arg.kind().ends_with("literal")
        || matches!(arg.kind(), "true" | "false");
    ArgInfo {
        node: arg,
        text: file.text_of(arg).to_string(),
        stable,
        simple,
        lambda: matches!(arg.kind(), "lambda_expression" | "method_reference"),
        effects: has_effects(arg),
    }
}

/// Is the use evaluated exactly once whenever the body runs (no branch, loop, lambda)?
pub(super) fn unconditional(use_: Node<'_>, body: Node<'_>) -> bool {
    let mut child = use_;
    while let Some(p) = child.parent() {
        if p.id() == body.id() {
            return true;
        }
        let conditional = match p.kind() {
            "lambda_expression"
            | "class_body"
            | "while_statement"
            | "do_statement"
            | "for_statement"
            | "enhanced_for_statement"
            | "switch_expression"
            | "switch_block"
            | "catch_clause"
            | "finally_clause"
            | "try_statement"
            | "try_with_resources_statement" => true,
            "ternary_expression" | "if_statement" => !is_field(p, "condition", child),
            "binary_expression" => {
                p.child_by_field_name("operator").is_some_and(|o| matches!(o.kind(), "&&" | "||"))
                    && is_field(p, "right", child)
            }
            _ => false,
        };
        if conditional {
            return false;
        }
        child = p;
    }
    true
}

/// Decides substitution or a temporary per argument, keeping evaluation order and count.
pub(super) fn plan_arguments(
    m: &Method<'_>,
    args: &[ArgInfo<'_>],
    caller_member: Node<'_>,
    caller: &SourceFile,
) -> Vec<ArgPlan> {
    let body = m.body;
    let mut plan: Vec<ArgPlan> = args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let uses = &m.uses[i];
            if m.reassigned[i] {
                return ArgPlan::Temp;
            }
            let Some(last) = uses.last() else {
                return if a.effects { ArgPlan::Temp } else { ArgPlan::Drop };
            };
            let in_lambda = uses.iter().any(|u| in_nested_scope(*u, body));
            let ok = if a.lambda {
                uses.len() == 1 && is_target_typed(uses[0])
            } else if a.simple && a.stable {
                // a lambda in the body captures the argument: it must be effectively final
                !in_lambda || !assigned_in(caller_member, &a.text, caller)
            } else if a.simple {
                !m.effect_before(last.start_byte())
            } else if a.stable {
                uses.len() == 1 && !in_lambda
            } else {
                uses.len() == 1
                    && !in_lambda
                    && !m.effect_before(uses[0].start_byte())
                    && (!a.effects || unconditional(uses[0], body))
            };
            if ok { ArgPlan::Substitute } else { ArgPlan::Temp }
        })
        .collect();
    // Java evaluates arguments left to right. A temporary runs before the body, so every
    // unstable argument before an effectful temporary must be a temporary too; substituted
    // unstable arguments must be used in argument order.
    loop {
        let mut changed = false;
        if let Some(j) = (0..args.len()).rev().find(|&j| plan[j] == ArgPlan::Temp && args[j].effects) {
            for i in 0..j {
                if plan[i] == ArgPlan::Substitute && !args[i].stable {
                    plan[i] = ArgPlan::Temp;
                    changed = true;
                }
            }
        }
        let subs: Vec<(usize, usize)> = (0..args.len())
            .filter(|&i| plan[i] == ArgPlan::Substitute && !args[i].stable)
            .filter_map(|i| m.uses[i].first().map(|u| (i, u.start_byte())))
            .collect();
        for w in subs.windows(2) {
            if w[0].1 > w[1].1 {
                plan[w[0].0] = ArgPlan::Temp;
                changed = true;
                break;
            }
        }
        if !changed {
            return plan;
        }
    }
}

/// Is the local `name` assigned after its declaration anywhere in `member`?
pub(super) fn assigned_in(member: Node<'_>, name: &str, file: &SourceFile) -> bool {
    descendants(member).into_iter().any(|n| match n.kind() {
        "assignment_expression" => n.child_by_field_name("left").is_some_and(|l| file.text_of(l) == name),
        "update_expression" => n.named_child(0).is_some_and(|l| file.text_of(l) == name),
        _ => false,
    })
}
