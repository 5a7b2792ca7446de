//! The Reviewer's question: did the intended refactoring happen? Answered from the detector's
//! findings, with the reason in words when it did not ("no new method in `Invoice` is called
//! from `print()`; its statements at lines 40–52 are still there").

use serde::{Deserialize, Serialize};

use super::model::Side;
use super::{Refactoring, RefactoringType, Snapshot, matcher};

/// What the developer meant to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Intent {
    pub kind: RefactoringType,
    /// The class of the target method: qualified (`shop.Invoice`, `a.Outer.Inner`) or simple (`Invoice`).
    pub class: String,
    /// The target method, by name (`print`) or erased signature (`print(int,String)`): the source
    /// method of an extraction, the inlined method, the moved or renamed method.
    pub method: String,
    /// The extracted method's name, or the renamed method's new name.
    #[serde(default)]
    pub new_name: Option<String>,
    /// The class a method is moved to (or extracted into, or inlined into for Move And Inline).
    #[serde(default)]
    pub destination: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The detector found exactly this refactoring.
    Matched,
    /// It did not happen (or not recognisably).
    Missing,
    /// Several refactorings fit the intent; it names them.
    Ambiguous,
}

#[derive(Debug, Clone, Serialize)]
pub struct Validation {
    pub verdict: Verdict,
    pub reason: String,
    /// The refactoring found, when matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refactoring: Option<Refactoring>,
}

/// Checks `intent` against the change from `before` to `after`.
pub fn validate(intent: &Intent, before: &Snapshot, after: &Snapshot) -> Validation {
    let (b, a) = Side::build_pair(before, after);
    let found = matcher::Diff::new(&b, &a).run();
    judge(intent, &found, &b, &a)
}

/// Checks `intent` against refactorings another detector (RefactoringMiner) found in the change;
/// the snapshots are read only to explain a miss in the developer's terms.
pub fn validate_found(intent: &Intent, found: &[Refactoring], before: &Snapshot, after: &Snapshot) -> Validation {
    let (b, a) = Side::build_pair(before, after);
    judge(intent, found, &b, &a)
}

fn judge(intent: &Intent, found: &[Refactoring], b: &Side, a: &Side) -> Validation {
    let about: Vec<&Refactoring> = found
        .iter()
        .filter(|r| class_matches(&intent.class, &r.subject.class) && method_matches(&intent.method, r))
        .collect();
    // An inlined method whose callers are in other classes is what RefactoringMiner calls Move
    // And Inline, once per caller: all of them are the one inlining asked for.
    let inline = intent.kind == RefactoringType::InlineMethod;
    // A method moved to a superclass (or a subclass) of its class is what RefactoringMiner calls
    // Pull Up (Push Down) Method: the move asked for.
    let moved = intent.kind == RefactoringType::MoveMethod;
    let kind_fits = |r: &Refactoring| {
        r.kind == intent.kind
            || (inline && r.kind == RefactoringType::MoveAndInlineMethod)
            || (moved && matches!(r.kind, RefactoringType::PullUpMethod | RefactoringType::PushDownMethod))
    };
    let fits: Vec<&Refactoring> = about
        .iter()
        .copied()
        .filter(|r| kind_fits(r))
        .filter(|r| intent.new_name.as_ref().is_none_or(|n| *n == r.subject.other_method))
        .filter(|r| intent.destination.as_ref().is_none_or(|d| class_matches(d, &r.subject.other_class)))
        .collect();
    let one_inlining = matches!(intent.kind, RefactoringType::InlineMethod | RefactoringType::MoveAndInlineMethod)
        && fits.len() > 1
        && fits
            .iter()
            .all(|r| r.subject.signature == fits[0].subject.signature && r.subject.class == fits[0].subject.class);
    if one_inlining {
        let first = fits[0];
        return Validation {
            verdict: Verdict::Matched,
            reason: format!(
                "found: {} (and {} more call site(s))",
                first.description.replace('\t', ": "),
                fits.len() - 1
            ),
            refactoring: Some(first.clone()),
        };
    }
    match fits.as_slice() {
        [one] => Validation {
            verdict: Verdict::Matched,
            reason: format!("found: {}{}", one.description.replace('\t', ": "), if one.pure { " (pure)" } else { "" }),
            refactoring: Some((*one).clone()),
        },
        [] => {
            // The right refactoring under another name than the one asked for: say just that.
            let misnamed = about.iter().find(|r| {
                r.kind == intent.kind
                    && intent.new_name.as_ref().is_some_and(|n| *n != r.subject.other_method)
                    && intent.destination.as_ref().is_none_or(|d| class_matches(d, &r.subject.other_class))
            });
            let reason = match (misnamed, &intent.new_name) {
                (Some(r), Some(wanted)) => format!(
                    "found {}, but the method is named `{}` where `{wanted}` was asked for",
                    r.description.replace('\t', ": "),
                    r.subject.other_method
                ),
                _ => explain(intent, b, a, &about),
            };
            Validation { verdict: Verdict::Missing, reason, refactoring: None }
        }
        many => {
            let list: Vec<String> = many.iter().map(|r| r.description.replace('\t', ": ")).collect();
            Validation {
                verdict: Verdict::Ambiguous,
                reason: format!(
                    "{} refactorings fit; name the new method or the destination to choose: {}",
                    many.len(),
                    list.join("; ")
                ),
                refactoring: None,
            }
        }
    }
}

fn class_matches(wanted: &str, actual: &str) -> bool {
    wanted == actual || actual.ends_with(&format!(".{wanted}"))
}

fn method_matches(wanted: &str, r: &Refactoring) -> bool {
    let compact = crate::text::compact(wanted);
    if compact.contains('(') { compact == r.subject.signature } else { compact == r.subject.method }
}

/// Why the intended refactoring was not found, in the developer's terms.
fn explain(intent: &Intent, b: &Side, a: &Side, about: &[&Refactoring]) -> String {
    let find = |side: &Side, class: &str, name: &str| -> Vec<usize> {
        let compact = crate::text::compact(name);
        (0..side.methods.len())
            .filter(|&m| class_matches(class, &side.class_of(m).name))
            .filter(|&m| {
                let x = &side.methods[m];
                if compact.contains('(') { x.key == compact } else { x.name == compact }
            })
            .collect()
    };
    let name = intent.method.split('(').next().unwrap_or(&intent.method).trim();
    let shown = format!("`{}()`", name);
    let before = find(b, &intent.class, &intent.method);
    let Some(&mb) = before.first() else {
        return format!("there is no method {shown} in class `{}` before the change", intent.class);
    };
    let instead = if about.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = about.iter().map(|r| r.description.replace('\t', ": ")).collect();
        format!("; found instead: {}", list.join("; "))
    };
    let after = find(a, &intent.class, &intent.method);
    let lines = |side: &Side, m: usize| {
        let s = side.methods[m].span;
        format!("{}–{}", s.start_line, s.end_line)
    };
    let reason = match intent.kind {
        RefactoringType::ExtractMethod | RefactoringType::ExtractAndMoveMethod => match after.first() {
            None => format!("{shown} no longer exists after the change, so nothing was extracted from it"),
            Some(&ma) => {
                let before_names: Vec<&str> = b.methods.iter().map(|m| m.name.as_str()).collect();
                let new_calls: Vec<&str> = a.methods[ma]
                    .calls
                    .iter()
                    .map(|c| c.name.as_str())
                    .filter(|n| !before_names.contains(n) && a.methods.iter().any(|m| m.name == *n))
                    .collect();
                let target = intent.destination.as_deref().unwrap_or(&intent.class);
                if new_calls.is_empty() {
                    format!(
                        "no new method in `{target}` is called from {shown}; the statements at lines {} are still in {shown}",
                        lines(b, mb)
                    )
                } else {
                    format!(
                        "{shown} calls the new method(s) `{}`, but their statements do not match the statements removed from {shown} (lines {} before)",
                        new_calls.join("`, `"),
                        lines(b, mb)
                    )
                }
            }
        },
        RefactoringType::InlineMethod | RefactoringType::MoveAndInlineMethod => match after.first() {
            Some(&ma) => {
                format!("{shown} still exists after the change (lines {}), so it was not inlined", lines(a, ma))
            }
            None => format!("{shown} was removed, but its statements were not found in any method that called it"),
        },
        RefactoringType::RenameMethod => match (after.first(), &intent.new_name) {
            (Some(&ma), _) => {
                format!("{shown} still exists in `{}` after the change (lines {})", intent.class, lines(a, ma))
            }
            (None, Some(n)) if find(a, &intent.class, n).is_empty() => {
                format!("{shown} was removed, but there is no method `{n}()` in `{}` after the change", intent.class)
            }
            (None, _) => {
                format!("{shown} was removed, but no method of `{}` with a matching body was added", intent.class)
            }
        },
        _ => {
            let dest = intent.destination.as_deref().unwrap_or("another class");
            match after.first() {
                Some(&ma) => {
                    format!("{shown} is still in `{}` after the change (lines {})", intent.class, lines(a, ma))
                }
                None => format!(
                    "{shown} was removed from `{}`, but no method with a matching body was added to `{dest}`",
                    intent.class
                ),
            }
        }
    };
    format!("{reason}{instead}")
}
