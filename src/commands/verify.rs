//! `mantra verify`: the Reviewer on the working tree's uncommitted changes against HEAD, for a
//! refactoring someone made by hand or in an IDE. Also the shared way commands run a review:
//! stages reported live as `stage` events, then one `verdict` result.
//!
//! The before side is HEAD's version of every changed file (staged, unstaged, untracked but not
//! ignored), the after side the working tree. With `TARGET --type KIND`, detection checks that
//! this refactoring happened (the target names the method as it was at HEAD); without, it lists
//! what it finds. Exit 0 when accepted, 1 (`rejected`) when rejected or the baseline is broken.

use std::sync::Arc;

use anyhow::Context as _;

use super::Context;
use crate::cli::VerifyArgs;
use crate::error::UserError;
use crate::exit::Exit;
use crate::java::{Project, target};
use crate::process::{Runner, System};
use crate::refactoring::RefactoringKind;
use crate::report::Event;
use crate::review::{Change, Intent, Review, Reviewer, Side};
use crate::workspace::WorkspaceOptions;

pub fn run(ctx: &mut Context, args: &VerifyArgs) -> anyhow::Result<Exit> {
    let runner: Arc<dyn Runner> = Arc::new(System);
    let wt = Change::from_working_tree(&ctx.repo, runner.as_ref())?;
    for (path, why) in &wt.change.skipped {
        ctx.reporter.warning(
            format!("{}: left out of the review ({why}); its current version is on both sides", path.display()),
            None,
        );
    }
    if wt.change.is_empty() {
        return Err(UserError::usage(format!("{} has no uncommitted changes to verify", ctx.repo.display()))
            .with_hint(
                "make the change first (by hand or in an IDE); `mantra verify` compares the working tree with HEAD",
            )
            .into());
    }
    let intent = match (&args.target, args.kind) {
        (Some(spec), Some(kind)) => Some(intent_at_head(ctx, &wt.change, spec, kind)?),
        _ => None,
    };
    let files: Vec<String> = wt.change.files.keys().map(|p| p.display().to_string()).collect();
    ctx.reporter.progress(
        "verify",
        format!("{} changed file(s) against HEAD {:.10}: {}", files.len(), wt.head, files.join(", ")),
    );
    // The baseline is HEAD's tree (plus any file left out above, as it is now).
    let skipped: Vec<(String, Vec<u8>)> = wt
        .change
        .skipped
        .iter()
        .map(|(p, _)| (p.display().to_string(), std::fs::read(ctx.repo.join(p)).unwrap_or_default()))
        .collect();
    let key = crate::build::state_key(&wt.head, &skipped);
    let review = review(ctx, &wt.change, intent.as_ref(), &key, args.keep_workspace)?;
    emit_verdict(ctx, &review);
    Ok(exit_of(&review))
}

/// Runs the Reviewer on `change` to the repository, reporting each stage as it ends.
pub fn review(
    ctx: &mut Context,
    change: &Change,
    intent: Option<&Intent>,
    baseline_key: &str,
    keep_workspace: bool,
) -> anyhow::Result<Review> {
    let mut reviewer = Reviewer::new(&ctx.config.config, Arc::new(System));
    reviewer.workspace = WorkspaceOptions { keep: keep_workspace, parent: None };
    let reporter = &mut ctx.reporter;
    let review = reviewer
        .review(&ctx.repo, change, intent, baseline_key, &mut |stage| reporter.emit(Event::Stage(stage.clone())))
        .context("verification could not run")?;
    Ok(review)
}

/// The `verdict` result.
/// A change verified (when `verify`) and written (when `apply` and the Reviewer accepts it, or
/// unverified when not `verify`): the review, if any, and whether it was written.
pub fn review_and_write(
    ctx: &mut Context,
    root: &std::path::Path,
    changes: &crate::engine::ChangeSet,
    intent: Option<&Intent>,
    verify: bool,
    apply: bool,
    keep_workspace: bool,
) -> anyhow::Result<(Option<Review>, bool)> {
    let review = if verify {
        let key = crate::workspace::dirty_state_hash(root)?;
        let change = Change::from_change_set(changes).context("rendering the change")?;
        ctx.reporter.progress("verify", "verifying in a scratch copy of the project (the original's build first)");
        Some(review(ctx, &change, intent, &key, keep_workspace)?)
    } else {
        None
    };
    let applied = apply && review.as_ref().is_none_or(|r| r.verdict.accepted());
    match &review {
        Some(r) if applied => {
            r.workspace.apply_back(changes)?;
            // The state just written was built and tested in full by the review: the baseline of
            // a change on top of it.
            r.keep_after_state(root);
        }
        None if applied => {
            crate::workspace::writeback::write_atomically(root, changes)?;
        }
        _ => {}
    }
    Ok((review, applied))
}

pub fn emit_verdict(ctx: &mut Context, review: &Review) {
    let human = review.human(ctx.reporter.style());
    ctx.reporter.emit(Event::result("verdict", &review.data(), human));
}

pub fn exit_of(review: &Review) -> Exit {
    if review.verdict.accepted() { Exit::Success } else { Exit::Rejected }
}

/// Resolves `spec` against the project as it was at HEAD (the changed files' HEAD versions in
/// place of the working tree's), since a renamed or moved method exists under its old name there
/// only. A name that HEAD does not have may be the method's new name: when the working tree has
/// it and the detector pairs it with exactly one method of HEAD by a refactoring of `kind`, that
/// method is the target, and the name is the expected new name.
fn intent_at_head(ctx: &mut Context, change: &Change, spec: &str, kind: RefactoringKind) -> anyhow::Result<Intent> {
    let overlay = change.java(Side::Before).into_iter().collect();
    let project = Project::open_with_overlay(&ctx.repo, overlay)
        .with_context(|| format!("cannot read the project at {}", ctx.repo.display()))?;
    let missing = match target::resolve(&project, &ctx.cwd, spec) {
        Ok(t) => return Ok(crate::engine::intent(&project, t.method, kind, None)),
        Err(e @ target::TargetError::NoSuchMethod { .. }) => e,
        Err(e) => return Err(e.into()),
    };
    let Some((old, new)) = renamed_to(ctx, change, spec, kind) else { return Err(missing.into()) };
    let (path, _) = spec.rsplit_once(':').unwrap_or((spec, ""));
    let method = target::resolve(&project, &ctx.cwd, &format!("{path}:{old}")).map_err(|_| missing)?.method;
    ctx.reporter.progress("verify", format!("`{new}` is new; verifying the {kind} of `{old}` to `{new}`"));
    let mut intent = crate::engine::intent(&project, method, kind, None);
    intent.new_name = Some(new);
    Ok(intent)
}

/// The old name of the method `spec` names in the working tree, when the change holds exactly
/// one refactoring of `kind` that made it, in the same class: `(old, new)`.
fn renamed_to(ctx: &Context, change: &Change, spec: &str, kind: RefactoringKind) -> Option<(String, String)> {
    let now = Project::open(&ctx.repo).ok()?;
    let method = target::resolve(&now, &ctx.cwd, spec).ok()?.method;
    let name = now.method(method).name.clone();
    let class = now.type_decl(now.owner(method)).display.clone();
    let snapshot = |side| crate::review::builtin::snapshot(&change.java(side));
    let found = crate::detect::detect(&snapshot(Side::Before), &snapshot(Side::After));
    let mut pairs = found.iter().filter(|r| {
        r.kind.kind() == Some(kind)
            && r.subject.other_method == name
            && r.subject.method != name
            && [&r.subject.class, &r.subject.other_class]
                .iter()
                .all(|c| c.rsplit('.').next() == class.rsplit('.').next())
    });
    let first = pairs.next()?;
    pairs.next().is_none().then(|| (first.subject.method.clone(), name))
}
