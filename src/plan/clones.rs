//! Code written twice: the runs of a method's lines that another method of the same class
//! repeats word for word (whitespace and comments aside), the duplication developers remove by
//! extracting a method both call.
//!
//! A body is read as its significant lines ([`significant`]: not a brace, a comment or a short
//! statement such as `return;` or `i++;`); every [`WINDOW`] consecutive significant lines are
//! hashed, and a window found at two places that could call one extracted method (two methods
//! of one top-level class, nested classes included, or two places of one method that do not
//! overlap) marks its lines as duplicated at both. A repeat in an unrelated class is left out:
//! a private method extracted in one class leaves the other copy where it was. A method's
//! duplicated lines are then merged into runs, each with the other method that repeats it.

use std::collections::HashMap;

use super::extract::{self, ExtractCandidate};
use crate::java::{FileId, MethodId, Project};

/// How many consecutive significant lines make a repeat worth naming.
pub const WINDOW: usize = 3;

/// A line shorter than this (once its whitespace is collapsed) says too little to be a repeat
/// on its own: `return x;`, `i++;`, `} else {`.
const MIN_CHARS: usize = 12;

/// One duplicated run of a method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// 1-based inclusive lines of the file.
    pub lines: (usize, usize),
    /// How many significant lines it holds (at least [`WINDOW`]).
    pub size: usize,
    /// A method that repeats it (the method itself for a repeat within one body).
    pub elsewhere: MethodId,
    /// The same for every place of one repeated text (the least hash of its windows): what tells
    /// the copies of one piece of code from other repeats.
    pub family: u64,
    /// Once extracted ([`fragment`]): the lines of the copies elsewhere in the file that the
    /// engine replaces with the same call.
    pub copies: Vec<(usize, usize)>,
}

/// The duplicated runs of every method of a set of files.
#[derive(Debug, Default)]
pub struct Clones {
    runs: HashMap<MethodId, Vec<Run>>,
}

impl Clones {
    /// The repeats among the methods of `files`.
    pub fn find(project: &Project, files: &[FileId]) -> Clones {
        let bodies: Vec<(MethodId, Vec<(usize, String)>)> = files
            .iter()
            .flat_map(|&f| project.methods_in(f).unwrap_or_default())
            .filter_map(|m| Some((m, body_lines(project, m)?)))
            .filter(|(_, lines)| lines.len() >= WINDOW)
            .collect();
        // Keyed by the text alone: the line numbers differ from place to place.
        let mut by_text: HashMap<Vec<&str>, Vec<(usize, usize)>> = HashMap::new();
        let hash = |key: &Vec<&str>| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            key.hash(&mut h);
            h.finish()
        };
        for (b, (_, lines)) in bodies.iter().enumerate() {
            for start in 0..=lines.len() - WINDOW {
                let key: Vec<&str> = lines[start..start + WINDOW].iter().map(|(_, t)| t.as_str()).collect();
                by_text.entry(key).or_default().push((b, start));
            }
        }
        let top: Vec<_> = bodies.iter().map(|(m, _)| project.top_level_of(project.owner(*m))).collect();
        // Per method, the significant lines repeated elsewhere, with one method repeating each,
        // and the hash of each repeated window by its start.
        let mut marked: HashMap<usize, HashMap<usize, usize>> = HashMap::new();
        let mut starts: HashMap<(usize, usize), u64> = HashMap::new();
        for (key, places) in by_text.iter().filter(|(_, p)| p.len() >= 2) {
            let h = hash(key);
            for &(b, start) in places {
                let other =
                    places.iter().find(|&&(c, s)| if c == b { s.abs_diff(start) >= WINDOW } else { top[c] == top[b] });
                let Some(&(c, _)) = other else { continue };
                starts.insert((b, start), h);
                let lines = marked.entry(b).or_default();
                for i in start..start + WINDOW {
                    lines.entry(i).or_insert(c);
                }
            }
        }
        let mut runs: HashMap<MethodId, Vec<Run>> = HashMap::new();
        for (b, lines) in marked {
            let (m, body) = &bodies[b];
            let mut indices: Vec<usize> = lines.keys().copied().collect();
            indices.sort_unstable();
            let mut out: Vec<Run> = Vec::new();
            let mut start = 0;
            for k in 1..=indices.len() {
                if k == indices.len() || indices[k] != indices[k - 1] + 1 {
                    let (first, last) = (indices[start], indices[k - 1]);
                    let family = (first..=last).filter_map(|i| starts.get(&(b, i))).min().copied().unwrap_or_default();
                    out.push(Run {
                        lines: (body[first].0, body[last].0),
                        size: last - first + 1,
                        elsewhere: bodies[lines[&first]].0,
                        family,
                        copies: Vec::new(),
                    });
                    start = k;
                }
            }
            out.sort_by(|a, b| b.size.cmp(&a.size).then(a.lines.cmp(&b.lines)));
            runs.insert(*m, out);
        }
        Clones { runs }
    }

    /// The duplicated runs of `m`, longest first.
    pub fn of(&self, m: MethodId) -> &[Run] {
        self.runs.get(&m).map_or(&[], Vec::as_slice)
    }
}

/// How much a run written twice makes its method need an extraction (0..1): three significant
/// lines already do much, four or more fully.
pub fn need(run: &Run) -> f64 {
    (0.4 + 0.15 * run.size as f64).min(1.0)
}

/// What a run written twice scores as a fragment: as much as the planner's best runs, since the
/// repeat is the evidence the planner's own measures only estimate.
const FRAGMENT_SCORE: f64 = 0.9;

/// The longest run of `m` written twice that the engine extracts, as a candidate named the way
/// `--lines` names a selection, with that run: the statements of one block that the run holds
/// whole, two at least over [`WINDOW`] lines or more (a repeat may begin or end inside a block,
/// and one statement extracted is a call replaced by a call).
pub fn fragment(project: &Project, m: MethodId, clones: &Clones) -> Option<(ExtractCandidate, Run)> {
    let decl = project.method(m);
    let file = project.method_source(m);
    let at = decl.name_span.start_byte;
    clones.of(m).iter().find_map(|run| {
        let (lines, count) = extract::statements_within(file, at, run.lines)?;
        if count < 2 || lines.1 + 1 < lines.0 + WINDOW {
            return None;
        }
        let name = extract::name_for_lines(file, at, lines);
        let mut spec = extract::spec_for(&file.path, decl.span.start_line, lines, &name);
        let mut done = crate::engine::extract::plan(file, &spec).ok()?;
        // Each copy the engine takes along is replaced with the same call.
        let mut taken = Vec::new();
        for copy in copies_of(project, m, lines) {
            spec.copies = taken.iter().copied().chain([copy]).collect();
            if let Ok(with) = crate::engine::extract::plan(file, &spec) {
                taken.push(copy);
                done = with;
            }
        }
        let mut run = run.clone();
        run.copies = taken;
        let candidate = ExtractCandidate {
            lines: done.lines,
            name,
            shape: "run written twice",
            score: FRAGMENT_SCORE,
            components: vec![("repeated lines", run.size as f64)],
            params: parameter_names(&done.signature),
            signature: done.signature,
        };
        Some((candidate, run))
    })
}

/// The lines elsewhere in `m`'s file holding the same significant lines as `lines` of `m`, as
/// many lines long (the engine then checks they are the same statements).
fn copies_of(project: &Project, m: MethodId, lines: (usize, usize)) -> Vec<(usize, usize)> {
    let Some(own) = body_lines(project, m) else { return Vec::new() };
    let seq: Vec<&(usize, String)> = own.iter().filter(|(l, _)| (lines.0..=lines.1).contains(l)).collect();
    let Some(&&(first, _)) = seq.first() else { return Vec::new() };
    let lead = first - lines.0;
    let mut out: Vec<(usize, usize)> = Vec::new();
    for other in project.methods_in(m.file()).unwrap_or_default() {
        let Some(body) = body_lines(project, other) else { continue };
        for window in body.windows(seq.len()) {
            if window.iter().zip(&seq).all(|(a, b)| a.1 == b.1) {
                let start = window[0].0.saturating_sub(lead);
                let copy = (start, start + (lines.1 - lines.0));
                let apart = |r: &(usize, usize)| copy.1 < r.0 || r.1 < copy.0;
                if apart(&lines) && out.iter().all(apart) {
                    out.push(copy);
                }
            }
        }
    }
    out
}

/// The parameter names of a declaration line: `private int sum(List<Map<K, V>> xs, int n)` →
/// `xs`, `n`.
fn parameter_names(signature: &str) -> Vec<String> {
    let Some((_, rest)) = signature.split_once('(') else { return Vec::new() };
    let list = rest.rsplit_once(')').map_or(rest, |(l, _)| l);
    crate::java::split_top_level(list).iter().filter_map(|p| p.split_whitespace().last()).map(str::to_string).collect()
}

/// Where `run` of `m` is written again, for people: `Other#render` or `its own body`.
pub fn place(project: &Project, m: MethodId, run: &Run) -> String {
    if run.elsewhere == m {
        return "its own body".into();
    }
    let other = project.method(run.elsewhere);
    let owner = project.type_decl(project.owner(run.elsewhere));
    format!("`{}#{}`", owner.name, other.name)
}

/// The significant lines of `m`'s body between its braces, each with its 1-based line number,
/// whitespace collapsed; `None` without a body.
fn body_lines(project: &Project, m: MethodId) -> Option<Vec<(usize, String)>> {
    let body = project.method(m).body?;
    let text = project.method_source(m).text.get(body.start_byte..body.end_byte)?;
    let count = text.lines().count();
    Some(
        text.lines()
            .enumerate()
            // The lines of the braces themselves hold the signature's end or the next member.
            .filter(|(i, _)| *i > 0 && *i + 1 < count)
            .filter_map(|(i, line)| significant(line).map(|l| (body.start_line + i, l)))
            .collect(),
    )
}

/// A line with its whitespace collapsed and a trailing `//` comment dropped, if it says enough to
/// count as a repeat: not a comment, not a brace, at least [`MIN_CHARS`] long.
fn significant(line: &str) -> Option<String> {
    let t = line.trim();
    if t.starts_with("//") || t.starts_with("/*") || t.starts_with('*') || t.starts_with('@') {
        return None;
    }
    // A `//` inside a string (`"http://"`) is not a comment: cut only past the last quote.
    let code = match t.rfind("//") {
        Some(i) if !t[i..].contains('"') && t[..i].matches('"').count().is_multiple_of(2) => t[..i].trim_end(),
        _ => t,
    };
    let collapsed = code.split_whitespace().collect::<Vec<_>>().join(" ");
    (collapsed.len() >= MIN_CHARS).then_some(collapsed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::java::project::tests::project;

    #[test]
    fn a_run_repeated_in_another_method_is_found_in_both() {
        let (_d, p) = project(&[(
            "a/Report.java",
            "package a;\nclass Report {\n  void first(StringBuilder out) {\n    int width = out.length();\n    \
             out.append(\"header line\");\n    out.append(\"separator\");\n    out.append(\"footer line\");\n    \
             width = width + 1;\n  }\n  void second(StringBuilder out) {\n    out.append(\"header line\");\n    \
             // the same three lines\n    out.append(\"separator\");   \n    out.append(\"footer line\");\n  }\n  \
             void third(StringBuilder out) {\n    out.append(\"header line\");\n    out.append(\"separator\");\n    \
             out.append(\"another footer\");\n  }\n}\n",
        )]);
        let f = p.file_ids().next().expect("file");
        let clones = Clones::find(&p, &[f]);
        let methods = p.methods_in(f).expect("methods");
        let name = |m: MethodId| p.method(m).name.clone();
        let first = clones.of(methods[0]);
        assert_eq!(first.len(), 1, "{first:?}");
        assert_eq!((first[0].lines, first[0].size, name(first[0].elsewhere)), ((5, 7), 3, "second".into()));
        let second = clones.of(methods[1]);
        assert_eq!((second[0].lines, name(second[0].elsewhere)), ((11, 14), "first".into()));
        // Two lines in common are not a repeat worth naming.
        assert!(clones.of(methods[2]).is_empty(), "{:?}", clones.of(methods[2]));
    }

    #[test]
    fn short_lines_braces_and_comments_do_not_count() {
        assert_eq!(significant("   }"), None);
        assert_eq!(significant("return x;"), None);
        assert_eq!(significant("// a comment that is long"), None);
        assert_eq!(significant("  total  +=  price(item);  // add it"), Some("total += price(item);".into()));
        assert_eq!(parameter_names("private int sum(List<Map<K, V>> xs, int n)"), ["xs", "n"]);
        assert!(parameter_names("void run()").is_empty());
        assert_eq!(
            significant("String url = \"http://example.com\";"),
            Some("String url = \"http://example.com\";".into())
        );
    }
}
