//! Compound refactorings: two engine steps, one change set against the original texts.
//!
//! The second step is planned on the project as the first step left it, without writing anything:
//! [`Project::derive`] stands the first step's texts in for the files on disk. The two
//! change sets are then composed into one: for every touched file, the original text and the final
//! text are compared and a single edit replaces only the bytes between their common prefix and
//! common suffix, so everything the refactoring did not touch keeps its exact bytes.
//!
//! - Extract And Move: extract a fragment into a new method, then move that method.
//! - Move And Rename: move a method, then rename it in its new class.
//! - Move And Inline is not here yet: it needs Inline Method, which another part of the engine
//!   provides (`engine::inline`), not present on this branch.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use serde::Serialize;

use super::edit::minimal_edit;
use super::extract::{self, ExtractSpec};
use super::inline::{CallLine, InlineSpec, MethodSelector, inline_method_in_project};
use super::move_method::{self, MoveSpec, Moved};
use super::rename::{RenameSpec, rename_method};
use super::{ChangeSet, FileChange, Reason, Refusal};
use crate::java::project::{MethodId, Project};

/// What a compound refactoring did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Compound {
    /// Edits against the original texts of the project.
    pub changes: ChangeSet,
    /// One line per step, in order.
    pub steps: Vec<String>,
    /// The class the method ended up in, fully qualified.
    pub destination: String,
    /// The final declaration of the moved method.
    pub signature: String,
}

/// Extracts `extract` from `method` (its file), then moves the new method as `mv` says.
pub fn extract_and_move(
    project: &Project,
    method: MethodId,
    extract: &ExtractSpec,
    mv: &MoveSpec,
) -> Result<Compound, Refusal> {
    let file = project.method_source(method);
    let (spec, extraction, rename_to) = extraction_to_move(project, method, extract)?;
    let overlay = overlay_of(&extraction.changes)?;
    let after = project.derive(overlay).map_err(io_refusal)?;

    // The new method: in the source method's class, by name and declaration.
    let owner_display = project.type_decl(project.owner(method)).display.clone();
    let fid = after
        .file_id(&file.path)
        .ok_or_else(|| internal(format!("{} vanished after the extraction", file.path.display())))?;
    let candidates: Vec<MethodId> = after
        .methods_in(fid)
        .map_err(io_refusal)?
        .into_iter()
        .filter(|&m| after.method(m).name == spec.name && after.type_decl(after.owner(m)).display == owner_display)
        .collect();
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let new_method = candidates
        .iter()
        .copied()
        .find(|&m| squash(&after.method(m).declaration()) == squash(&extraction.signature))
        .or_else(|| (candidates.len() == 1).then(|| candidates[0]))
        .ok_or_else(|| internal(format!("the extracted method `{}` is not where extraction put it", spec.name)))?;

    let moved = move_method::plan(&after, new_method, mv)?;
    let mut steps = vec![
        format!("extracted lines {}-{} into `{}`", extraction.lines.0, extraction.lines.1, extraction.signature),
        format!("moved it to `{}` as `{}`", moved.destination, moved.signature),
    ];
    let mut changes = compose(&[&extraction.changes, &moved.changes])?;
    let mut signature = moved.signature.clone();
    if let Some(name) = rename_to {
        let renamed = rename_moved(project, &changes, &moved, &name)?;
        changes = compose(&[&changes, &renamed])?;
        steps.push(format!("renamed it to `{name}` (the name is taken in `{owner_display}`)"));
        signature = renamed_signature(&moved, &name);
    }
    Ok(Compound { changes, steps, destination: moved.destination, signature })
}

/// The extraction Extract And Move starts with: `extract` as given, or, when its name is taken in
/// the source class (often by the method it is extracted from) yet may be free in the
/// destination, under a free name (`nameMoved`, `nameMoved2`, ...), to be renamed back once
/// moved, where the rename checks the name. (spec as extracted, extraction, name to rename to)
pub fn extraction_to_move(
    project: &Project,
    method: MethodId,
    extract: &ExtractSpec,
) -> Result<(ExtractSpec, extract::Extraction, Option<String>), Refusal> {
    let file = project.method_source(method);
    let mut spec = extract.clone();
    spec.method_line.get_or_insert(project.method(method).span.start_line);
    match extract::plan(file, &spec) {
        Err(r) if r.reason == Reason::NameClash => {
            let taken: Vec<String> =
                project.methods_of(project.owner(method)).into_iter().map(|m| project.method(m).name.clone()).collect();
            let free = (1..)
                .map(|n| format!("{}{}", spec.name, if n == 1 { "Moved".to_string() } else { format!("Moved{n}") }))
                .find(|n| !taken.contains(n))
                .unwrap_or_default();
            let rename_to = std::mem::replace(&mut spec.name, free);
            let extraction = extract::plan(file, &spec).map_err(|_| r)?;
            Ok((spec, extraction, Some(rename_to)))
        }
        other => Ok((spec, other?, None)),
    }
}

/// The moved method's declaration under `new_name`.
fn renamed_signature(moved: &Moved, new_name: &str) -> String {
    moved.signature.replacen(&format!(" {}(", moved.name), &format!(" {new_name}("), 1)
}

/// The rename of the method `moved` put in its new class, planned on the project as `changes`
/// (against `project`'s texts) leave it.
fn rename_moved(project: &Project, changes: &ChangeSet, moved: &Moved, new_name: &str) -> Result<ChangeSet, Refusal> {
    let after = project.derive(overlay_of(changes)?).map_err(io_refusal)?;
    let target = find_moved(&after, moved)?;
    rename_method(&after, target, &RenameSpec { new_name: new_name.to_string() })
}

/// Moves `method` as `mv` says, then renames it to `new_name` in its new class.
pub fn move_and_rename(
    project: &Project,
    method: MethodId,
    mv: &MoveSpec,
    new_name: &str,
) -> Result<Compound, Refusal> {
    let moved = move_method::plan(project, method, mv)?;
    let renamed = rename_moved(project, &moved.changes, &moved, new_name)?;
    let changes = compose(&[&moved.changes, &renamed])?;
    let signature = renamed_signature(&moved, new_name);
    Ok(Compound {
        changes,
        steps: vec![
            format!("moved `{}` to `{}` as `{}`", moved.name, moved.destination, moved.signature),
            format!("renamed it to `{new_name}`"),
        ],
        destination: moved.destination,
        signature,
    })
}

/// Moves `method` as `mv` says, then inlines it at its call sites (or only at `at`) in the new class.
///
/// This is RefactoringMiner's Move And Inline Method: a method of one class ends up inlined into a
/// caller of another. The move makes the caller's own members reachable as `this`, so the inlined
/// body reads as if it had always been written there.
pub fn move_and_inline(
    project: &Project,
    method: MethodId,
    mv: &MoveSpec,
    at: Option<CallLine>,
) -> Result<Compound, Refusal> {
    let moved = move_method::plan(project, method, mv)?;
    let overlay = overlay_of(&moved.changes)?;
    let after = project.derive(overlay).map_err(io_refusal)?;
    let target = find_moved(&after, &moved)?;
    let file = after.method_source(target).path.clone();
    let spec = InlineSpec {
        file: file.clone(),
        method: MethodSelector { name: moved.name.clone(), line: Some(after.method(target).span.start_line) },
        at,
    };
    let inlined = inline_method_in_project(&after, target, &spec)?;
    let changes = compose(&[&moved.changes, &inlined])?;
    Ok(Compound {
        changes,
        steps: vec![
            format!("moved `{}` to `{}` as `{}`", moved.name, moved.destination, moved.signature),
            format!("inlined it into its callers in {}", file.display()),
        ],
        destination: moved.destination,
        signature: moved.signature,
    })
}

/// Moves `method` to a class with the private methods of its class that only it (and they) call:
/// each helper first, then the method, every step planned on the project the previous ones left.
pub fn move_with_helpers(project: &Project, method: MethodId, mv: &MoveSpec) -> Result<Compound, Refusal> {
    use crate::java::calls::Resolution;
    if !matches!(mv.to, super::Destination::Class(_)) || mv.keep_delegate {
        return Err(Refusal::new(
            Reason::InstanceMethod,
            "--with-helpers and --methods move methods to a class by name (`--to class:FQN`), without a delegate",
        ));
    }
    let owner = project.owner(method);
    // The methods named to move too, each one method of the class.
    let mut named: Vec<MethodId> = Vec::new();
    for name in &mv.also {
        let found: Vec<MethodId> =
            project.methods_of(owner).into_iter().filter(|&m| project.method(m).name == *name && m != method).collect();
        match found.as_slice() {
            [one] => named.push(*one),
            [] => {
                return Err(Refusal::new(
                    Reason::NoSuchMethod,
                    format!("`{}` has no other method `{name}` to move along", project.qualified_name(owner)),
                ));
            }
            _ => {
                return Err(Refusal::new(
                    Reason::NoSuchMethod,
                    format!(
                        "`{}` has {} methods named `{name}`; move them one at a time",
                        project.qualified_name(owner),
                        found.len()
                    ),
                ));
            }
        }
    }
    // With `--with-helpers`, the private methods reached from them through private methods of
    // the class.
    let mut set: Vec<MethodId> = std::iter::once(method).chain(named.iter().copied()).collect();
    let fixed = set.len();
    let mut i = if mv.with_helpers { 0 } else { set.len() };
    while i < set.len() {
        for c in project.callees(set[i]) {
            let Resolution::Resolved { method: t } = c.resolution else { continue };
            let d = project.method(t);
            if project.owner(t) == owner
                && !set.contains(&t)
                && !d.is_constructor()
                && d.modifiers.iter().any(|m| m == "private")
            {
                set.push(t);
            }
        }
        i += 1;
    }
    // Only those no other code calls: drop one with an outside caller until none is left.
    loop {
        let outside = set[fixed..].iter().position(|&h| project.callers(h).iter().any(|c| !set.contains(&c.method)));
        match outside {
            Some(k) => {
                set.remove(k + fixed);
            }
            None => break,
        }
    }
    let key = |p: &Project, m: MethodId| {
        (p.type_decl(p.owner(m)).display.clone(), p.method(m).name.clone(), p.method(m).erased_params())
    };
    let mut steps_changes: Vec<ChangeSet> = Vec::new();
    let mut steps = Vec::new();
    let mut current: Option<Project> = None;
    let mut itself: Option<Moved> = None;
    // Helpers first (the deepest first), then the other named methods, then the method itself;
    // named fixtures last, once the tests they run around have left (`check_fixture`).
    // So are the factories a named test takes its arguments from (`@MethodSource`).
    // Each decided once: the factory check reads every file that mentions the name.
    let (last, named): (Vec<MethodId>, Vec<MethodId>) = set[1..fixed].iter().partition(|&&m| {
        project.method(m).fixture_annotation().is_some() || !project.method_source_users(m).is_empty()
    });
    let order: Vec<MethodId> =
        set[fixed..].iter().rev().chain(&named).chain(std::iter::once(&method)).chain(&last).copied().collect();
    for m in order {
        let (class, name, params) = key(project, m);
        let here = current.as_ref().unwrap_or(project);
        let found = here
            .file_id(&project.method_source(m).path)
            .and_then(|f| here.methods_in(f).ok())
            .and_then(|ms| {
                ms.into_iter().find(|&x| {
                    here.type_decl(here.owner(x)).display == class
                        && here.method(x).name == name
                        && here.method(x).erased_params() == params
                })
            })
            .ok_or_else(|| internal(format!("`{name}` is not where it was after moving its helpers")))?;
        let moving_with: Vec<String> =
            set.iter().filter(|&&o| o != m).map(|&o| project.method(o).name.clone()).collect();
        let step = MoveSpec { with_helpers: false, also: Vec::new(), moving_with, ..mv.clone() };
        let moved = move_method::plan(here, found, &step)?;
        steps.push(format!("moved `{name}` to `{}` as `{}`", moved.destination, moved.signature));
        steps_changes.push(moved.changes.clone());
        let all: Vec<&ChangeSet> = steps_changes.iter().collect();
        let overlay = overlay_of(&compose(&all)?)?;
        current = Some(project.derive(overlay).map_err(io_refusal)?);
        if m == method {
            itself = Some(moved);
        }
    }
    let moved = itself.ok_or_else(|| internal("nothing was moved".into()))?;
    let all: Vec<&ChangeSet> = steps_changes.iter().collect();
    Ok(Compound { changes: compose(&all)?, steps, destination: moved.destination, signature: moved.signature })
}

/// The moved method in the project after the move.
fn find_moved(after: &Project, moved: &Moved) -> Result<MethodId, Refusal> {
    let dest = after
        .find_type(&moved.destination)
        .ok_or_else(|| internal(format!("`{}` is not found after the move", moved.destination)))?;
    after
        .methods_of(dest)
        .into_iter()
        .find(|&m| after.method(m).name == moved.name && after.method(m).erased_params() == moved.erased_params)
        .ok_or_else(|| internal(format!("the moved method `{}` is not in `{}`", moved.name, moved.destination)))
}

/// The texts a change set produces, as an overlay for [`Project::derive`].
fn overlay_of(changes: &ChangeSet) -> Result<HashMap<PathBuf, String>, Refusal> {
    let rendered = changes.render().map_err(|e| internal(e.to_string()))?;
    Ok(rendered.into_iter().collect())
}

/// Composes change sets applied one after another into one change set against the first texts.
///
/// Each step's edits are against the texts the previous steps left. For every file the result is
/// one edit covering only the bytes that differ between the original and the final text.
pub fn compose(steps: &[&ChangeSet]) -> Result<ChangeSet, Refusal> {
    // path → (original text, or None for a file the compound creates; current text)
    let mut files: BTreeMap<PathBuf, (Option<String>, String)> = BTreeMap::new();
    for step in steps {
        for (path, change) in &step.files {
            let rendered = step.render_file(path).map_err(|e| internal(e.to_string()))?.unwrap_or_default();
            match files.get_mut(path) {
                Some((_, current)) => {
                    if let FileChange::Edit { original, .. } = change
                        && original != current
                    {
                        return Err(internal(format!(
                            "step edits of {} do not start from the previous step's text",
                            path.display()
                        )));
                    }
                    *current = rendered;
                }
                None => {
                    let original = change.original().map(str::to_string);
                    files.insert(path.clone(), (original, rendered));
                }
            }
        }
    }
    let mut out = ChangeSet::new();
    out.notes = steps.iter().flat_map(|s| s.notes.iter().cloned()).collect();
    for (path, (original, current)) in files {
        match original {
            None => out.create(&path, current),
            Some(original) if original == current => {}
            Some(original) => out.edit(&path, &original, minimal_edit(&original, &current)),
        }
    }
    Ok(out)
}

fn internal(message: String) -> Refusal {
    Refusal::new(
        Reason::CompoundInconsistent,
        format!("the compound refactoring's steps do not fit together: {message}"),
    )
}

fn io_refusal(e: crate::java::JavaError) -> Refusal {
    Refusal::new(Reason::UnreadableFile, format!("{e}"))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use super::*;
    use crate::engine::edit::apply;
    use crate::java::project::tests::project;

    fn method(p: &Project, file: &str, name: &str) -> MethodId {
        let fid = p.file_id(Path::new(file)).expect("file");
        p.methods_in(fid).expect("parsed").into_iter().find(|&m| p.method(m).name == name).expect("method")
    }

    fn texts(changes: &ChangeSet) -> Vec<(String, String)> {
        changes.render().expect("renders").into_iter().map(|(p, t)| (p.display().to_string(), t)).collect()
    }

    #[test]
    fn minimal_edits_keep_common_bytes() {
        let e = minimal_edit("abcXYZdef", "abcQdef");
        assert_eq!((e.start, e.end, e.replacement.as_str()), (3, 6, "Q"));
        assert_eq!(apply("t", "abcXYZdef", &[e]).unwrap(), "abcQdef");
        let e = minimal_edit("aaa", "aaaa");
        assert_eq!(apply("t", "aaa", &[e]).unwrap(), "aaaa");
        let e = minimal_edit("é1", "é2");
        assert_eq!((e.start, e.end), (2, 3));
    }

    const ORDER: &str = "package a;

public class Order {
    int qty;
    int price;

    public int getQty() {
        return qty;
    }

    public int getPrice() {
        return price;
    }
}
";

    #[test]
    fn an_extracted_method_named_like_its_source_moves_to_a_new_class_under_that_name() {
        // The developer extracts the whole body of `fee` into `fee` of a new class `Fees`: the
        // name is taken in `Billing` (by `fee` itself), free in `Fees`, which does not exist yet.
        let billing = "package a;

class Billing {
    int fee(int amount, int rate) {
        int cents = amount * rate;
        return cents / 100;
    }
}
";
        let (_d, p) = project(&[("src/a/Billing.java", billing)]);
        let m = method(&p, "src/a/Billing.java", "fee");
        let spec = ExtractSpec {
            file: "src/a/Billing.java".into(),
            method_line: None,
            lines: (5, 6),
            name: "fee".into(),
            visibility: None,
            local_types: BTreeMap::new(),
            params: Vec::new(),
            param_types: Default::default(),
            quiet_calls: Vec::new(),
            copies: Vec::new(),
        };
        let mv = MoveSpec::new("class:a.Fees".parse().expect("dest"));
        let c = extract_and_move(&p, m, &spec, &mv).expect("compound");
        assert_eq!((c.destination.as_str(), c.signature.as_str()), ("a.Fees", "static int fee(int amount, int rate)"));
        assert_eq!(
            texts(&c.changes),
            [
                (
                    "src/a/Billing.java".to_string(),
                    billing.replace("        int cents = amount * rate;\n        return cents / 100;", "        return Fees.fee(amount, rate);")
                ),
                (
                    "src/a/Fees.java".to_string(),
                    "package a;\n\nclass Fees {\n    static int fee(int amount, int rate) {\n        int cents = amount * rate;\n        return cents / 100;\n    }\n}\n".to_string()
                ),
            ]
        );
        assert!(c.steps.iter().any(|s| s.contains("renamed it to `fee`")), "{:?}", c.steps);
    }

    #[test]
    fn extract_then_move_is_one_change_against_the_original() {
        let service = "package a;

class Billing {
    int bill(Order order, int fee) {
        int base = order.getQty() * order.getPrice();
        int total = base + fee;
        return total;
    }
}
";
        let (_d, p) = project(&[("src/a/Order.java", ORDER), ("src/a/Billing.java", service)]);
        let m = method(&p, "src/a/Billing.java", "bill");
        let spec = ExtractSpec {
            file: "src/a/Billing.java".into(),
            method_line: None,
            lines: (5, 5),
            name: "baseOf".into(),
            visibility: None,
            local_types: BTreeMap::new(),
            params: Vec::new(),
            param_types: Default::default(),
            quiet_calls: Vec::new(),
            copies: Vec::new(),
        };
        let mv = MoveSpec::new("param:order".parse().expect("dest"));
        let c = extract_and_move(&p, m, &spec, &mv).expect("compound");
        assert_eq!(c.destination, "a.Order");
        assert_eq!(c.signature, "int baseOf()");
        assert_eq!(
            texts(&c.changes),
            [
                (
                    "src/a/Billing.java".to_string(),
                    "package a;

class Billing {
    int bill(Order order, int fee) {
        int base = order.baseOf();
        int total = base + fee;
        return total;
    }
}
"
                    .to_string()
                ),
                (
                    "src/a/Order.java".to_string(),
                    ORDER.replace(
                        "        return price;\n    }\n",
                        "        return price;\n    }\n\n    int baseOf() {\n        int base = getQty() * getPrice();\n        return base;\n    }\n"
                    )
                ),
            ]
        );
        // One minimal edit per file, against the original text.
        for change in c.changes.files.values() {
            let FileChange::Edit { edits, .. } = change else { panic!("no new files") };
            assert_eq!(edits.len(), 1);
        }
        let FileChange::Edit { edits, original } = &c.changes.files[Path::new("src/a/Billing.java")] else {
            unreachable!()
        };
        assert_eq!(
            (&original[edits[0].start..edits[0].end], edits[0].replacement.as_str()),
            ("getQty() * order.getPrice", "baseOf")
        );
    }

    #[test]
    fn move_then_rename_updates_the_calls_in_their_new_form() {
        let service = "package a;

class Billing {
    int bill(Order order) {
        return calc(order) + calc(order);
    }

    int calc(Order order) {
        return order.getQty() * order.getPrice();
    }
}
";
        let (_d, p) = project(&[("src/a/Order.java", ORDER), ("src/a/Billing.java", service)]);
        let m = method(&p, "src/a/Billing.java", "calc");
        let mv = MoveSpec::new("param:order".parse().expect("dest"));
        let c = move_and_rename(&p, m, &mv, "amount").expect("compound");
        assert_eq!(c.signature, "int amount()");
        let out = texts(&c.changes);
        assert_eq!(
            out[0].1,
            "package a;\n\nclass Billing {\n    int bill(Order order) {\n        return order.amount() + order.amount();\n    }\n}\n"
        );
        assert!(
            out[1].1.ends_with("    int amount() {\n        return getQty() * getPrice();\n    }\n}\n"),
            "{}",
            out[1].1
        );

        let clash = move_and_rename(&p, m, &mv, "getQty").expect_err("clashes");
        assert_eq!(clash.reason, "name_clash", "{}", clash.message);
        let bad = move_and_rename(&p, m, &mv, "class").expect_err("keyword");
        assert_eq!(bad.reason, "invalid_name");
    }

    #[test]
    fn a_refused_second_step_refuses_the_compound() {
        // Order is in another package, so Billing's private field is not widened for it.
        let service = "package a;\n\nimport b.Order;\n\npublic class Billing {\n    private int fee;\n\n    int bill(Order order) {\n        int base = order.getQty() + fee;\n        return base;\n    }\n}\n";
        let order = ORDER.replace("package a;", "package b;");
        let (_d, p) = project(&[("src/b/Order.java", order.as_str()), ("src/a/Billing.java", service)]);
        let m = method(&p, "src/a/Billing.java", "bill");
        let spec = ExtractSpec {
            file: "src/a/Billing.java".into(),
            method_line: None,
            lines: (9, 9),
            name: "baseOf".into(),
            visibility: None,
            local_types: BTreeMap::new(),
            params: Vec::new(),
            param_types: Default::default(),
            quiet_calls: Vec::new(),
            copies: Vec::new(),
        };
        let mv = MoveSpec::new("param:order".parse().expect("dest"));
        let r = extract_and_move(&p, m, &spec, &mv).expect_err("the extracted method uses a private field");
        assert_eq!(r.reason, "private_member_used", "{}", r.message);
    }
}
