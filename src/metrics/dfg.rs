//! The data-flow graph CodeBLEU compares: CodeXGLUE's `DFG_java` and `get_data_flow`, followed
//! rule for rule so that the data-flow match means what it means in the papers that report it.
//!
//! Every leaf token whose text differs from its node kind (identifiers, literals, type names; not
//! keywords or punctuation) is a variable occurrence numbered by its position among all leaves.
//! Declarations (`T v = e`) add `comesFrom` edges from every variable of `e` to `v`, assignments
//! and `++`/`--` add `computedFrom` edges, and a later use of a name `comesFrom` the occurrences
//! that last defined it (both branches of an `if`, a loop's body seen twice). Occurrences without
//! any edge are dropped, occurrences at the same position are merged, and names are replaced by
//! `var_0`, `var_1`, ... in order of first appearance, so renaming a variable consistently changes
//! nothing. Where the reference builds a parent list from a Python `set` (whose order changes from
//! run to run), the names are sorted instead.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

/// Which kind of edge: a definition from a value, or an assignment or update.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Relation {
    ComesFrom,
    ComputedFrom,
}

/// One normalised data-flow item: `var_i` (relation) `[var_j, ...]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Flow {
    pub var: String,
    pub relation: Relation,
    pub parents: Vec<String>,
}

/// One raw item: (name, position, relation, parent names, parent positions).
#[derive(Debug, Clone)]
struct Edge {
    code: String,
    idx: usize,
    rel: Relation,
    parents: Vec<String>,
    parent_idx: Vec<usize>,
}

type States = HashMap<String, Vec<usize>>;

/// The normalised data flow of a parsed (comment-free) text, in the reference's order.
pub fn data_flow(root: Node<'_>, text: &str) -> Vec<Flow> {
    normalize(&raw_data_flow(root, text))
}

/// `get_data_flow`: the DFG of the whole tree, filtered to occurrences that take part in an edge,
/// merged by position. A tree the walk cannot follow (a required field missing in a recovered
/// tree) has no data flow, as the reference's `except` makes it.
fn raw_data_flow(root: Node<'_>, text: &str) -> Vec<Edge> {
    let mut leaves = Vec::new();
    token_leaves(root, &mut leaves);
    let index: HashMap<(usize, usize), (usize, String)> = leaves
        .iter()
        .enumerate()
        .map(|(i, n)| ((n.start_byte(), n.end_byte()), (i, text[n.byte_range()].to_string())))
        .collect();
    let walker = Walker { index };
    let mut dfg = walker.dfg(root, &States::new()).map(|(d, _)| d).unwrap_or_default();
    dfg.sort_by_key(|d| d.idx);
    let mut used = HashSet::new();
    for d in &dfg {
        if !d.parent_idx.is_empty() {
            used.insert(d.idx);
        }
        used.extend(d.parent_idx.iter().copied());
    }
    let mut merged: Vec<Edge> = Vec::new();
    let mut at: HashMap<usize, usize> = HashMap::new();
    for d in dfg.into_iter().filter(|d| used.contains(&d.idx)) {
        match at.get(&d.idx) {
            None => {
                at.insert(d.idx, merged.len());
                merged.push(d);
            }
            Some(&i) => {
                let m = &mut merged[i];
                m.parents = sorted_union(&m.parents, &d.parents);
                m.parent_idx = sorted_union(&m.parent_idx, &d.parent_idx);
            }
        }
    }
    merged
}

/// `normalize_dataflow`: names become `var_i` in order of first appearance (parents first).
fn normalize(dfg: &[Edge]) -> Vec<Flow> {
    let mut names: HashMap<&str, String> = HashMap::new();
    fn name_of<'a>(n: &'a str, names: &mut HashMap<&'a str, String>) -> String {
        let next = names.len();
        names.entry(n).or_insert_with(|| format!("var_{next}")).clone()
    }
    let mut out = Vec::with_capacity(dfg.len());
    for d in dfg {
        let parents: Vec<String> = d.parents.iter().map(|p| name_of(p, &mut names)).collect();
        let var = name_of(&d.code, &mut names);
        out.push(Flow { var, relation: d.rel, parents });
    }
    out
}

/// `corpus_dataflow_match` for one pair: the share of the reference's items found in the
/// candidate's (each candidate item used once). `None` when the reference has no data flow.
pub fn match_score(reference: &[Flow], candidate: &[Flow]) -> Option<f64> {
    if reference.is_empty() {
        return None;
    }
    let mut pool: Vec<&Flow> = candidate.iter().collect();
    let mut matched = 0usize;
    for item in reference {
        if let Some(i) = pool.iter().position(|c| *c == item) {
            pool.remove(i);
            matched += 1;
        }
    }
    Some(matched as f64 / reference.len() as f64)
}

/// A token for the data flow: a leaf, or a whole string or character literal.
fn is_token(n: Node<'_>) -> bool {
    (n.child_count() == 0 || matches!(n.kind(), "string_literal" | "string" | "character_literal"))
        && n.kind() != "comment"
}

/// `tree_to_token_index`: the tokens in document order.
fn token_leaves<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    if is_token(n) {
        out.push(n);
        return;
    }
    let mut c = n.walk();
    for child in n.children(&mut c) {
        token_leaves(child, out);
    }
}

fn sorted_union<T: Ord + Clone>(a: &[T], b: &[T]) -> Vec<T> {
    let mut v: Vec<T> = a.iter().chain(b).cloned().collect();
    v.sort();
    v.dedup();
    v
}

/// The loops' merge: one item per (name, position, relation), parents united.
fn merge_loop(dfg: Vec<Edge>) -> Vec<Edge> {
    let mut out: Vec<Edge> = Vec::new();
    let mut at: HashMap<(String, usize, Relation), usize> = HashMap::new();
    for d in dfg {
        let key = (d.code.clone(), d.idx, d.rel);
        match at.get(&key) {
            None => {
                at.insert(key, out.len());
                out.push(d);
            }
            Some(&i) => {
                out[i].parents = sorted_union(&out[i].parents, &d.parents);
                out[i].parent_idx = sorted_union(&out[i].parent_idx, &d.parent_idx);
            }
        }
    }
    out.sort_by_key(|d| d.idx);
    out
}

struct Walker {
    /// (start byte, end byte) of every token → (position, text).
    index: HashMap<(usize, usize), (usize, String)>,
}

impl Walker {
    fn token(&self, n: Node<'_>) -> Option<&(usize, String)> {
        self.index.get(&(n.start_byte(), n.end_byte()))
    }

    /// `tree_to_variable_index`: the tokens under `n` that are not keywords or punctuation.
    fn vars(&self, n: Node<'_>) -> Option<Vec<(usize, String)>> {
        let mut out = Vec::new();
        self.collect_vars(n, &mut out)?;
        Some(out)
    }

    fn collect_vars(&self, n: Node<'_>, out: &mut Vec<(usize, String)>) -> Option<()> {
        if is_token(n) {
            let (idx, code) = self.token(n)?;
            if n.kind() != code {
                out.push((*idx, code.clone()));
            }
            return Some(());
        }
        let mut c = n.walk();
        for child in n.children(&mut c) {
            self.collect_vars(child, out)?;
        }
        Some(())
    }

    /// `DFG_java`: the items under `node` and the definitions live after it.
    fn dfg(&self, node: Node<'_>, states: &States) -> Option<(Vec<Edge>, States)> {
        let mut states = states.clone();
        let kind = node.kind();
        let edge = |code: &str, idx, rel, parents: Vec<String>, parent_idx: Vec<usize>| Edge {
            code: code.to_string(),
            idx,
            rel,
            parents,
            parent_idx,
        };
        if is_token(node) {
            let (idx, code) = self.token(node)?.clone();
            if kind == code {
                return Some((Vec::new(), states));
            }
            if let Some(prev) = states.get(&code) {
                let e = edge(&code, idx, Relation::ComesFrom, vec![code.clone()], prev.clone());
                return Some((vec![e], states));
            }
            if kind == "identifier" {
                states.insert(code.clone(), vec![idx]);
            }
            return Some((vec![edge(&code, idx, Relation::ComesFrom, Vec::new(), Vec::new())], states));
        }
        let mut out = Vec::new();
        match kind {
            "variable_declarator" => {
                let name = node.child_by_field_name("name")?;
                match node.child_by_field_name("value") {
                    None => {
                        for (idx, code) in self.vars(name)? {
                            out.push(edge(&code, idx, Relation::ComesFrom, Vec::new(), Vec::new()));
                            states.insert(code, vec![idx]);
                        }
                    }
                    Some(value) => {
                        let names = self.vars(name)?;
                        let values = self.vars(value)?;
                        let (d, s) = self.dfg(value, &states)?;
                        out.extend(d);
                        states = s;
                        for (idx1, code1) in names {
                            for (idx2, code2) in &values {
                                out.push(edge(&code1, idx1, Relation::ComesFrom, vec![code2.clone()], vec![*idx2]));
                            }
                            states.insert(code1, vec![idx1]);
                        }
                    }
                }
            }
            "assignment_expression" => {
                let left = node.child_by_field_name("left")?;
                let right = node.child_by_field_name("right")?;
                let (d, s) = self.dfg(right, &states)?;
                out.extend(d);
                states = s;
                let values = self.vars(right)?;
                for (idx1, code1) in self.vars(left)? {
                    for (idx2, code2) in &values {
                        out.push(edge(&code1, idx1, Relation::ComputedFrom, vec![code2.clone()], vec![*idx2]));
                    }
                    states.insert(code1, vec![idx1]);
                }
            }
            "update_expression" => {
                let vars = self.vars(node)?;
                for (idx1, code1) in &vars {
                    for (idx2, code2) in &vars {
                        out.push(edge(code1, *idx1, Relation::ComputedFrom, vec![code2.clone()], vec![*idx2]));
                    }
                    states.insert(code1.clone(), vec![*idx1]);
                }
            }
            "if_statement" => {
                // The condition and the then-branch run in sequence; from `else` on, each child
                // starts from the states before the `if`; afterwards a name may come from any path.
                let is_if_part = |k: &str| k == "if_statement" || k == "else";
                let mut current = states.clone();
                let mut others = Vec::new();
                let (mut flag, mut tag) = (false, false);
                let mut c = node.walk();
                for child in node.children(&mut c) {
                    if child.kind().contains("else") {
                        tag = true;
                    }
                    if !is_if_part(child.kind()) && !flag {
                        let (d, s) = self.dfg(child, &current)?;
                        out.extend(d);
                        current = s;
                    } else {
                        flag = true;
                        let (d, s) = self.dfg(child, &states)?;
                        out.extend(d);
                        others.push(s);
                    }
                }
                others.push(current);
                if !tag {
                    others.push(states.clone());
                }
                let mut merged = States::new();
                for dic in others {
                    for (k, v) in dic {
                        merged.entry(k).or_default().extend(v);
                    }
                }
                for v in merged.values_mut() {
                    v.sort();
                    v.dedup();
                }
                out.sort_by_key(|d| d.idx);
                return Some((out, merged));
            }
            "for_statement" => {
                let mut c = node.walk();
                let children: Vec<Node<'_>> = node.children(&mut c).collect();
                for child in &children {
                    let (d, s) = self.dfg(*child, &states)?;
                    out.extend(d);
                    states = s;
                }
                // Everything after the declaration again: the second trip round the loop.
                let mut flag = false;
                for child in &children {
                    if flag {
                        let (d, s) = self.dfg(*child, &states)?;
                        out.extend(d);
                        states = s;
                    } else if child.kind() == "local_variable_declaration" {
                        flag = true;
                    }
                }
                return Some((merge_loop(out), states));
            }
            "enhanced_for_statement" => {
                let name = node.child_by_field_name("name")?;
                let value = node.child_by_field_name("value")?;
                let body = node.child_by_field_name("body")?;
                for _ in 0..2 {
                    let (d, s) = self.dfg(value, &states)?;
                    out.extend(d);
                    states = s;
                    let values = self.vars(value)?;
                    for (idx1, code1) in self.vars(name)? {
                        for (idx2, code2) in &values {
                            out.push(edge(&code1, idx1, Relation::ComputedFrom, vec![code2.clone()], vec![*idx2]));
                        }
                        states.insert(code1, vec![idx1]);
                    }
                    let (d, s) = self.dfg(body, &states)?;
                    out.extend(d);
                    states = s;
                }
                return Some((merge_loop(out), states));
            }
            "while_statement" => {
                for _ in 0..2 {
                    let mut c = node.walk();
                    for child in node.children(&mut c) {
                        let (d, s) = self.dfg(child, &states)?;
                        out.extend(d);
                        states = s;
                    }
                }
                return Some((merge_loop(out), states));
            }
            _ => {
                let mut c = node.walk();
                for child in node.children(&mut c) {
                    let (d, s) = self.dfg(child, &states)?;
                    out.extend(d);
                    states = s;
                }
            }
        }
        out.sort_by_key(|d| d.idx);
        Some((out, states))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::java::SourceFile;

    fn flows(code: &str) -> Vec<Flow> {
        let f = SourceFile::parse("A.java", format!("class A {{ {code} }}"));
        data_flow(f.root(), &f.text)
    }

    #[test]
    fn definitions_uses_and_assignments() {
        let d = flows("int f(int a) { int b = a + 1; b = b * 2; return b; }");
        let text: Vec<String> = d.iter().map(|f| format!("{} {:?} {:?}", f.var, f.relation, f.parents)).collect();
        // a = var_0, 1 = var_1, b = var_2, 2 = var_3 (parent names sorted: "1" before "a").
        let expected = [
            "var_0 ComesFrom []",
            "var_2 ComesFrom [\"var_1\", \"var_0\"]",
            "var_0 ComesFrom [\"var_0\"]",
            "var_1 ComesFrom []",
            "var_2 ComputedFrom [\"var_3\", \"var_2\"]",
            "var_2 ComesFrom [\"var_2\"]",
            "var_3 ComesFrom []",
            "var_2 ComesFrom [\"var_2\"]",
        ];
        assert_eq!(text, expected);
        // Renaming every variable consistently gives the same graph.
        assert_eq!(d, flows("int f(int x) { int y = x + 1; y = y * 2; return y; }"));
    }

    #[test]
    fn no_flow_without_variables() {
        assert!(flows("void f() { }").is_empty());
    }
}
