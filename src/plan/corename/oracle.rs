//! Coordinated rename measured on RefactoringMiner's oracle: for each commit with two or more
//! labelled renames, the first (in `expected.json` order) is the seed; the suggestions for it on
//! the commit's `before/` files are scored against the commit's other renames, by identification
//! (kind and old name) and exactly (kind, old and new name), one suggestion per label.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::memory::Memory;
use super::{seed_family, suggest};
use crate::detect::oracle::{class_before, class_rename};
use crate::engine::rename::resolve::Var;
use crate::engine::rename::{Element, Kind};
use crate::java::project::Project;

/// One labelled rename.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub kind: Kind,
    pub old: String,
    pub new: String,
    /// The declaring class, qualified (for a class, the class itself).
    pub class: String,
    /// For a variable: the declaring method's name.
    pub method: Option<String>,
}

/// One commit with two or more renames.
#[derive(Debug, Clone)]
pub struct Case {
    pub project: String,
    pub sha: String,
    pub before: PathBuf,
    /// In the order of `expected.json`; the first is the seed.
    pub renames: Vec<Label>,
    /// The classes the commit moved or renamed, after to before
    /// ([`crate::detect::oracle::Commit::class_renames`]).
    pub class_renames: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct Raw {
    #[serde(rename = "type")]
    kind: String,
    description: String,
    validation: bool,
}

/// The commits of `oracle` with at least two renames of the four kinds, in path order.
pub fn load(oracle: &Path) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    let mut projects: Vec<PathBuf> = dirs(oracle)?;
    projects.sort();
    for p in projects {
        let mut commits = dirs(&p)?;
        commits.sort();
        for c in commits {
            let path = c.join("expected.json");
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let raw: Vec<Raw> = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            let renames: Vec<Label> =
                raw.iter().filter(|r| r.validation).filter_map(|r| parse(&r.kind, &r.description)).collect();
            if renames.len() >= 2 {
                let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                let class_renames =
                    raw.iter().filter(|r| r.validation).filter_map(|r| class_rename(&r.description)).collect();
                out.push(Case { project: name(&p), sha: name(&c), before: c.join("before"), renames, class_renames });
            }
        }
    }
    Ok(out)
}

fn dirs(p: &Path) -> Result<Vec<PathBuf>, String> {
    Ok(std::fs::read_dir(p)
        .map_err(|e| format!("{}: {e}", p.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect())
}

/// A label from RefactoringMiner's description of a Rename Class, Method, Attribute, Variable or
/// Parameter.
pub fn parse(kind: &str, description: &str) -> Option<Label> {
    let d = description.split_once('\t').map_or(description, |(_, d)| d);
    match kind {
        "RENAME_CLASS" => {
            let (a, b) = d.split_once(" renamed to ")?;
            let simple = |q: &str| q.rsplit('.').next().unwrap_or(q).to_string();
            Some(Label { kind: Kind::Class, old: simple(a), new: simple(b.trim()), class: a.to_string(), method: None })
        }
        "RENAME_METHOD" => {
            let (a, rest) = d.split_once(" renamed to ")?;
            let (b, class) = rest.rsplit_once(" in class ")?;
            Some(Label {
                kind: Kind::Method,
                old: call_name(a)?,
                new: call_name(b)?,
                class: class.to_string(),
                method: None,
            })
        }
        "RENAME_ATTRIBUTE" => {
            let (old, rest) = d.split_once(" : ")?;
            let (_, rest) = rest.split_once(" to ")?;
            let (new, rest) = rest.split_once(" : ")?;
            let (_, class) = rest.rsplit_once(" in class ")?;
            Some(Label { kind: Kind::Field, old: old.into(), new: new.into(), class: class.into(), method: None })
        }
        "RENAME_VARIABLE" | "RENAME_PARAMETER" => {
            let (old, rest) = d.split_once(" : ")?;
            let (_, rest) = rest.split_once(" to ")?;
            let (new, rest) = rest.split_once(" : ")?;
            let (rest, class) = rest.rsplit_once(" from class ")?;
            let (_, method) = rest.split_once(" in method ")?;
            let kind = if kind == "RENAME_PARAMETER" { Kind::Parameter } else { Kind::Variable };
            Some(Label { kind, old: old.into(), new: new.into(), class: class.into(), method: call_name(method) })
        }
        _ => None,
    }
}

/// `name` of `public static name(a int) : void`.
fn call_name(s: &str) -> Option<String> {
    let head = s.split_once('(')?.0;
    Some(head.rsplit(' ').next()?.to_string())
}

/// The declaration a label names in `project`, if it is there.
pub fn locate(project: &Project, l: &Label) -> Option<Element> {
    if l.kind == Kind::Class {
        return project.find_type(&l.class).map(Element::Type);
    }
    let ty = project.find_type(&l.class)?;
    match l.kind {
        Kind::Method => {
            project.methods_of(ty).into_iter().find(|&m| project.method(m).name == l.old).map(Element::Method)
        }
        Kind::Field => project.type_decl(ty).fields.iter().position(|f| f.name == l.old).map(|i| Element::Field(ty, i)),
        _ => {
            let method = l.method.as_deref()?;
            project.methods_of(ty).into_iter().filter(|&m| project.method(m).name == method).find_map(|m| {
                let d = project.method(m);
                d.params
                    .iter()
                    .position(|p| p.name == l.old)
                    .map(|i| Element::Var(Var::Param(m, i)))
                    .or_else(|| d.locals.iter().position(|v| v.name == l.old).map(|i| Element::Var(Var::Local(m, i))))
            })
        }
    }
}

/// Precision and recall counts of one measure.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    pub hits: usize,
    pub suggested: usize,
    pub expected: usize,
}

impl Score {
    pub fn precision(&self) -> f64 {
        if self.suggested == 0 { 0.0 } else { self.hits as f64 / self.suggested as f64 }
    }
    pub fn recall(&self) -> f64 {
        if self.expected == 0 { 0.0 } else { self.hits as f64 / self.expected as f64 }
    }
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) }
    }
    fn add(&mut self, o: Score) {
        self.hits += o.hits;
        self.suggested += o.suggested;
        self.expected += o.expected;
    }
}

/// The outcome of one case.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub located: bool,
    pub identification: Score,
    pub exact: Score,
    /// Identification and exact scores of the suggestions without the seed's own family.
    pub suggestions_alone: (Score, Score),
    /// (kind, old, new) of every suggestion, for triage.
    pub suggested: Vec<(Kind, String, String)>,
    /// Per relation: (suggested, identified).
    pub relations: BTreeMap<String, (usize, usize)>,
}

/// Variables and parameters are one kind to RefactoringMiner's labels of this oracle.
fn same_kind(a: Kind, b: Kind) -> bool {
    let var = |k| matches!(k, Kind::Variable | Kind::Parameter);
    a == b || (var(a) && var(b))
}

/// Runs one case.
pub fn run(case: &Case) -> Outcome {
    let others = &case.renames[1..];
    let expected = others.len();
    let miss = Outcome {
        identification: Score { expected, ..Score::default() },
        exact: Score { expected, ..Score::default() },
        suggestions_alone: (Score { expected, ..Score::default() }, Score { expected, ..Score::default() }),
        ..Outcome::default()
    };
    let Ok(project) = Project::open(&case.before) else { return miss };
    let seed = &case.renames[0];
    // A label names its class as it is after the commit, which may have moved or renamed it.
    let before = Label { class: class_before(&case.class_renames, &seed.class), ..seed.clone() };
    let Some(element) = locate(&project, seed).or_else(|| locate(&project, &before)) else { return miss };
    let suggestions = suggest(&project, element, &seed.new, &Memory::default());
    // What the seed's rename itself renames (a method's override family) is renamed for the
    // user without being suggested; it is counted, as its own relation, with the suggestions.
    let family: Vec<(Kind, String, String, String)> = seed_family(&project, element)
        .into_iter()
        .map(|e| (e.kind(), e.name(&project).to_string(), seed.new.clone(), "SeedRename".to_string()))
        .collect();
    let renamed: Vec<(Kind, String, String, String)> = family
        .iter()
        .cloned()
        .chain(suggestions.iter().map(|s| (s.kind, s.old.clone(), s.new.clone(), format!("{:?}", s.relation))))
        .collect();
    let alone = &renamed[family.len()..];
    let suggested: Vec<(Kind, String, String)> = alone.iter().map(|(k, o, n, _)| (*k, o.clone(), n.clone())).collect();
    let mut relations: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut count = |exact: bool, items: &[(Kind, String, String, String)], tally: bool| {
        let mut free: Vec<&Label> = others.iter().collect();
        let mut hits = 0;
        for (k, old, new, relation) in items {
            let hit = free.iter().position(|l| same_kind(l.kind, *k) && &l.old == old && (!exact || &l.new == new));
            if tally {
                let r = relations.entry(relation.clone()).or_default();
                r.0 += 1;
                r.1 += usize::from(hit.is_some());
            }
            if let Some(i) = hit {
                free.remove(i);
                hits += 1;
            }
        }
        Score { hits, suggested: items.len(), expected }
    };
    let identification = count(false, &renamed, true);
    let exact = count(true, &renamed, false);
    let suggestions_alone = (count(false, alone, false), count(true, alone, false));
    Outcome { located: true, identification, exact, suggestions_alone, suggested, relations }
}

/// Sums of outcomes.
#[derive(Debug, Clone, Default)]
pub struct Totals {
    pub cases: usize,
    pub located: usize,
    pub identification: Score,
    pub exact: Score,
    pub suggestions_alone: (Score, Score),
    pub relations: BTreeMap<String, (usize, usize)>,
}

impl Totals {
    pub fn add(&mut self, o: &Outcome) {
        for (r, (s, h)) in &o.relations {
            let e = self.relations.entry(r.clone()).or_default();
            e.0 += s;
            e.1 += h;
        }
        self.cases += 1;
        self.located += usize::from(o.located);
        self.identification.add(o.identification);
        self.exact.add(o.exact);
        self.suggestions_alone.0.add(o.suggestions_alone.0);
        self.suggestions_alone.1.add(o.suggestions_alone.1);
    }

    pub fn line(&self) -> String {
        let s = |x: &Score| {
            format!(
                "P {:.3} R {:.3} F1 {:.3} ({}/{} suggested, {} expected)",
                x.precision(),
                x.recall(),
                x.f1(),
                x.hits,
                x.suggested,
                x.expected
            )
        };
        let relations: Vec<String> = self.relations.iter().map(|(r, (s, h))| format!("{r} {h}/{s}")).collect();
        format!(
            "{} commits ({} seeds located)\n  identification: {}\n  exact:          {}\n  identified per relation: {}\n  without SeedRename (the override family the seed's rename renames): identification F1 {:.3}, exact F1 {:.3}",
            self.cases,
            self.located,
            s(&self.identification),
            s(&self.exact),
            relations.join(", "),
            self.suggestions_alone.0.f1(),
            self.suggestions_alone.1.f1()
        )
    }
}
