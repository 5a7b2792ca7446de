//! Does `mantra suggest` suggest what developers then did? For each commit of RefactoringMiner's
//! oracle, the opportunities of its `before/` files ([`crate::plan::suggest`]) against its
//! labelled method-level refactorings: a label is found at k when one of the first k
//! opportunities has its type and its method (the extracted-from, moved or inlined method, by
//! class and name; a class the commit moved or renamed by its name before). Renames are
//! suggested without a model only where a name contradicts the code; Move And Inline, Move And
//! Rename, Pull Up and Push Down are counted but never suggested. What a model could add to the
//! renames is bounded by the methods `suggest` would show it to name
//! ([`crate::plan::suggest::naming`]): how many labelled renames' methods are among them is
//! counted too.

use std::collections::BTreeMap;

use crate::detect::RefactoringType;
use crate::detect::oracle::Commit;
use crate::java::Project;
use crate::plan::suggest::{self, Opportunity};
use crate::refactoring::RefactoringKind;
use crate::review::refactoring_miner::subject_of;

/// Found at 5 and at 10, of how many, for one type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Recall {
    pub at5: usize,
    pub at10: usize,
    pub labels: usize,
}

impl Recall {
    pub fn r5(&self) -> f64 {
        self.at5 as f64 / self.labels.max(1) as f64
    }
    pub fn r10(&self) -> f64 {
        self.at10 as f64 / self.labels.max(1) as f64
    }
    fn add(&mut self, o: Recall) {
        self.at5 += o.at5;
        self.at10 += o.at10;
        self.labels += o.labels;
    }
}

/// One commit's outcome.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub project: String,
    pub per_type: BTreeMap<RefactoringType, Recall>,
    /// How many files of `before/` were scanned.
    pub files: usize,
    /// Rename Method labels whose method is among those offered to a model for naming.
    pub offered: usize,
}

/// The suggestion kind that stands for a labelled type, if `suggest` proposes that type.
fn kind_for(t: RefactoringType) -> Option<RefactoringKind> {
    match t {
        RefactoringType::ExtractMethod => Some(RefactoringKind::ExtractMethod),
        RefactoringType::MoveMethod => Some(RefactoringKind::MoveMethod),
        RefactoringType::InlineMethod => Some(RefactoringKind::InlineMethod),
        RefactoringType::ExtractAndMoveMethod => Some(RefactoringKind::ExtractAndMoveMethod),
        RefactoringType::RenameMethod => Some(RefactoringKind::RenameMethod),
        _ => None,
    }
}

/// Runs one commit.
pub fn run(commit: &Commit) -> Outcome {
    let mut out = Outcome { project: commit.project.clone(), ..Outcome::default() };
    let labels: Vec<(RefactoringType, String, String)> = commit
        .expected
        .iter()
        .filter_map(|d| {
            let t = RefactoringType::ALL.into_iter().find(|t| d.starts_with(t.display_name()))?;
            let s = subject_of(t, d)?;
            Some((t, s.class, s.method))
        })
        .collect();
    if labels.is_empty() {
        return out;
    }
    let Ok(project) = Project::open(&commit.dir.join("before")) else { return out };
    let files: Vec<_> = project.file_ids().collect();
    out.files = files.len();
    let ranked = suggest::opportunities(&project, &files, &suggest::KINDS, 10, 0.0).best;
    let hit = |top: &[Opportunity], t: RefactoringType, class: &str, method: &str| {
        kind_for(t).is_some_and(|k| {
            top.iter().any(|o| {
                o.kind == k
                    && project.method(o.method).name == method
                    && project.qualified_name(project.owner(o.method)) == class
            })
        })
    };
    let names = suggest::naming::candidates(&project, &files, suggest::naming::OFFERED);
    out.offered = labels
        .iter()
        .filter(|(t, class, method)| {
            let class = label_class_before(&project, commit, class);
            *t == RefactoringType::RenameMethod
                && names.iter().any(|n| {
                    project.method(n.method).name == *method && project.qualified_name(project.owner(n.method)) == class
                })
        })
        .count();
    for (t, class, method) in &labels {
        // A label names the class as it is after the commit; the opportunities are of `before/`.
        let class = &label_class_before(&project, commit, class);
        let r = out.per_type.entry(*t).or_default();
        r.labels += 1;
        r.at5 += usize::from(hit(&ranked[..ranked.len().min(5)], *t, class, method));
        r.at10 += usize::from(hit(&ranked[..ranked.len().min(10)], *t, class, method));
    }
    out
}

/// The class a label names, as `before/` names it: the name after the commit when `before/` has
/// it, else the name the commit's labelled class move or rename gives it before.
pub fn label_class_before(project: &Project, commit: &Commit, class: &str) -> String {
    if project.find_type(class).is_some() { class.to_string() } else { commit.class_before(class) }
}

/// Sums per type, and overall.
#[derive(Debug, Clone, Default)]
pub struct Totals {
    pub per_type: BTreeMap<RefactoringType, Recall>,
    pub commits: usize,
    /// Rename Method labels whose method is among those offered to a model for naming.
    pub offered: usize,
}

impl Totals {
    pub fn add(&mut self, o: &Outcome) {
        self.commits += 1;
        self.offered += o.offered;
        for (t, r) in &o.per_type {
            self.per_type.entry(*t).or_default().add(*r);
        }
    }

    pub fn overall(&self) -> Recall {
        let mut all = Recall::default();
        for r in self.per_type.values() {
            all.add(*r);
        }
        all
    }

    /// A table: type, labels, recall@5, recall@10.
    pub fn table(&self) -> String {
        let mut out = String::from("| type | labels | recall@5 | recall@10 |\n|---|---|---|---|\n");
        for (t, r) in &self.per_type {
            out.push_str(&format!("| {} | {} | {:.3} | {:.3} |\n", t.display_name(), r.labels, r.r5(), r.r10()));
        }
        let all = self.overall();
        out.push_str(&format!("| all | {} | {:.3} | {:.3} |\n", all.labels, all.r5(), all.r10()));
        let renames = self.per_type.get(&RefactoringType::RenameMethod).map_or(0, |r| r.labels);
        out.push_str(&format!(
            "Rename Method labels whose method is among the {} per commit offered to a model for naming: {} of {renames}\n",
            suggest::naming::OFFERED,
            self.offered
        ));
        out
    }
}
