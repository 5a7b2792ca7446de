//! Cases from moves: the moved method's body as it was in its old class, pasted over its body in
//! the destination (the human's signature kept, so the parameters they added are in scope), with
//! its old names. The names that do not resolve there are the references to the old class (its
//! fields, a renamed parameter), and the truth is what the human wrote in their place: the two
//! bodies' tokens aligned, a name replaced by the same expression at every use (`count` by
//! `source.count`, `owner` by `this`, `size` by `getSize()`).

use std::collections::BTreeMap;

use super::{Case, Counts, bindable, bound_names, considered, methods_named, same, signature_fits, tally, wire_pasted};
use crate::detect::RefactoringType;
use crate::detect::model::tokens;
use crate::detect::oracle::Commit;
use crate::java::project::{MethodId, Project};
use crate::review::refactoring_miner::subject_of;

/// One Move Method or Move And Rename Method label: the method before and after.
pub(super) struct MoveJob {
    pub label: String,
    pub from_class: String,
    pub from: String,
    pub from_signature: String,
    pub to_class: String,
    pub to: String,
    pub to_signature: String,
}

/// The move a label describes, for the two types that keep one method's body.
pub(super) fn move_job(d: &str) -> Option<MoveJob> {
    use RefactoringType as T;
    let t = [T::MoveMethod, T::MoveAndRenameMethod].into_iter().find(|t| d.starts_with(t.display_name()))?;
    let s = subject_of(t, d)?;
    Some(MoveJob {
        label: d.to_string(),
        from_class: s.class,
        from: s.method,
        from_signature: s.signature,
        to_class: s.other_class,
        to: s.other_method,
        to_signature: s.other_signature,
    })
}

/// The move cases of one oracle commit, into `counts` and `cases`.
pub(super) fn run(commit: &Commit, counts: &mut Counts, cases: &mut Vec<Case>) {
    let jobs: Vec<MoveJob> = commit.expected.iter().filter_map(|d| move_job(d)).collect();
    if jobs.is_empty() {
        return;
    }
    let (Ok(before), Ok(after)) = (Project::open(&commit.dir.join("before")), Project::open(&commit.dir.join("after")))
    else {
        counts.skipped += jobs.len();
        return;
    };
    for mut job in jobs {
        if before.find_type(&job.from_class).is_none() {
            job.from_class = commit.class_before(&job.from_class);
        }
        match case(&before, &after, &job) {
            Some(c) => tally(counts, cases, c),
            None => counts.skipped += 1,
        }
    }
}

/// The one method of `class` named `name` whose parameters are those of `signature`.
fn the_method(project: &Project, class: &str, name: &str, signature: &str) -> Option<MethodId> {
    let mut found = methods_named(project, class, name).into_iter().filter(|&m| signature_fits(project, m, signature));
    let m = found.next()?;
    found.next().is_none().then_some(m)
}

/// The statements of a method's body: their text, where it starts and ends, and its indentation.
fn statements(project: &Project, m: MethodId) -> Option<(String, usize, usize, String)> {
    let src = project.method_source(m);
    let body = project.method(m).body?;
    let node = crate::java::syntax::node_spanning(src.root(), body.start_byte, body.end_byte)?;
    let stmts = crate::java::syntax::statements_of(node);
    let (first, last) = (stmts.first()?, stmts.last()?);
    let indent = crate::text::line_indent(&src.text, first.start_byte()).to_string();
    Some((src.text[first.start_byte()..last.end_byte()].to_string(), first.start_byte(), last.end_byte(), indent))
}

/// The old body pasted over the new one, wired, and scored against what the new one wrote.
pub(super) fn case(before: &Project, after: &Project, job: &MoveJob) -> Option<Case> {
    let old = the_method(before, &job.from_class, &job.from, &job.from_signature)?;
    let new = the_method(after, &job.to_class, &job.to, &job.to_signature)?;
    let (old_text, _, _, old_indent) = statements(before, old)?;
    let (new_text, from, to, new_indent) = statements(after, new)?;
    let truth = replaced_names(&old_text, &new_text);
    let file = new.file();
    let text = &after.method_source(new).text;
    let pasted = crate::text::reindent(&old_text, &old_indent, &new_indent);
    let whole = format!("{}{pasted}{}", &text[..from], &text[to..]);
    let start_line = crate::text::line_starts(&whole[..from]).len();
    let end_line = crate::text::line_starts(&whole[..from + pasted.len()]).len();
    let bindings = wire_pasted(after, after.path(file).to_path_buf(), whole, start_line, end_line)?;
    let (considered, bound) = (considered(&bindings), bound_names(&bindings));
    // A name the new body keeps is declared there (or was not wired); only those it replaced,
    // and that wiring found unresolved, have a truth to meet.
    let truths = truth
        .iter()
        .filter(|(name, expr)| !same(expr, name) && bound.contains_key(name.as_str()))
        .map(|(name, expr)| {
            (
                name.clone(),
                expr.clone(),
                bound.get(name.as_str()).copied().flatten().map(str::to_string),
                bindable(expr),
            )
        })
        .collect();
    let unscored = bindings.iter().filter(|b| b.bound.is_some() && !truth.contains_key(&b.name)).count();
    Some(Case { label: job.label.clone(), truths, considered, paste: pasted, unscored })
}

/// The names of `old` (variables and fields, not members or calls) that `new` replaces by one
/// expression at every use, with that expression, compacted; a name replaced differently at two
/// uses, or kept at one and replaced at another, has no truth.
pub(super) fn replaced_names(old: &str, new: &str) -> BTreeMap<String, String> {
    let (a, b) = (tokens(old), tokens(new));
    let mut seen: BTreeMap<String, Option<String>> = BTreeMap::new();
    // A name's one replacement so far; `None` once two uses disagree.
    fn note(seen: &mut BTreeMap<String, Option<String>>, name: &str, expr: String) {
        let slot = seen.entry(name.to_string()).or_insert_with(|| Some(expr.clone()));
        if slot.as_deref() != Some(expr.as_str()) {
            *slot = None;
        }
    }
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &a, &b);
    let mut pending_prefix: Option<Vec<String>> = None;
    for op in &ops {
        match *op {
            similar::DiffOp::Equal { old_index, new_index, len } => {
                for k in 0..len {
                    let (i, j) = (old_index + k, new_index + k);
                    if !is_name_use(&a, i) {
                        continue;
                    }
                    // `count` → `source . count`: a qualifier inserted right before the name.
                    match pending_prefix.take().filter(|_| k == 0) {
                        Some(prefix) => note(&mut seen, &a[i], format!("{}{}", prefix.concat(), b[j])),
                        None => note(&mut seen, &a[i], b[j].clone()),
                    }
                }
                pending_prefix = None;
            }
            similar::DiffOp::Insert { new_index, new_len, .. } => {
                let ins = &b[new_index..new_index + new_len];
                pending_prefix =
                    (ins.last().is_some_and(|t| t == ".") && !ins.contains(&";".to_string())).then(|| ins.to_vec());
            }
            similar::DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                pending_prefix = None;
                let with = &b[new_index..new_index + new_len];
                // One name for one short expression: what wiring could write.
                if old_len == 1 && is_name_use(&a, old_index) && new_len <= 7 && !with.contains(&";".to_string()) {
                    note(&mut seen, &a[old_index], with.concat());
                } else {
                    for i in old_index..old_index + old_len {
                        if is_name_use(&a, i) {
                            seen.insert(a[i].clone(), None);
                        }
                    }
                }
            }
            similar::DiffOp::Delete { old_index, old_len, .. } => {
                pending_prefix = None;
                // `owner . name` → `name`: the receiver the method now is.
                if old_len == 2 && is_name_use(&a, old_index) && a[old_index + 1] == "." {
                    note(&mut seen, &a[old_index], "this".to_string());
                    continue;
                }
                for i in old_index..old_index + old_len {
                    if is_name_use(&a, i) {
                        seen.insert(a[i].clone(), None);
                    }
                }
            }
        }
    }
    seen.into_iter().filter_map(|(k, v)| Some((k, v?))).collect()
}

/// Whether token `i` names a variable or field: an identifier that is not a member (`.x`), a
/// call (`x(`), a type (`Foo x`, `Foo[] x`, `List<T>`) or a class qualifier (`Math.max`).
fn is_name_use(t: &[String], i: usize) -> bool {
    let tok = t[i].as_str();
    let next = t.get(i + 1).map(String::as_str).unwrap_or("");
    let capital = tok.starts_with(char::is_uppercase);
    let member = i > 0 && matches!(t[i - 1].as_str(), "." | "::");
    let typed = next.starts_with(|c: char| c.is_alphabetic() || c == '_')
        || capital && (next == "<" || next == "[" && t.get(i + 2).is_some_and(|x| x == "]"));
    crate::java::syntax::is_java_identifier(tok)
        && tok != "this"
        && !member
        && !typed
        && next != "("
        && next != "::"
        && !(next == "." && capital)
}

#[cfg(test)]
mod tests {
    use super::replaced_names;

    #[test]
    fn a_name_replaced_the_same_way_at_every_use_is_the_truth() {
        let old = "int n = count + 1;\nreturn n * count + size;";
        let new = "int n = source.count + 1;\nreturn n * source.count + getSize();";
        let t = replaced_names(old, new);
        assert_eq!(t.get("count").map(String::as_str), Some("source.count"));
        assert_eq!(t.get("size").map(String::as_str), Some("getSize()"));
        assert_eq!(t.get("n").map(String::as_str), Some("n"));
        // The receiver dropped: the method now runs on it.
        let t = replaced_names("return owner.total() + owner.tax;", "return total() + tax;");
        assert_eq!(t.get("owner").map(String::as_str), Some("this"));
        // Replaced at one use only: no truth.
        let t = replaced_names("a(x); b(x);", "a(y); b(x);");
        assert_eq!(t.get("x"), None);
    }
}
