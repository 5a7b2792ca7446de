//! Reciprocal Rank Fusion: one ranking from several, by rank alone.
//!
//! BM25 scores and cosines live on different scales; RRF ignores scores and gives each item
//! `Σ 1 / (k + rank)` over the lists it appears in (ranks from 1, k = 60 as in Cormack et al.
//! 2009 and MANTRA), so an item near the top of both lists beats one at the top of one.

use std::collections::HashMap;

/// The RRF constant.
pub const K: f64 = 60.0;

/// A fused item: its 1-based rank in each input list (`None` where absent) and its RRF score.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    pub id: String,
    pub ranks: Vec<Option<usize>>,
    pub score: f64,
}

/// Fuses `lists` (each best first), best first; ties keep the order of first appearance.
pub fn fuse(lists: &[Vec<String>]) -> Vec<Fused> {
    let mut order: Vec<String> = Vec::new();
    let mut by_id: HashMap<String, Fused> = HashMap::new();
    for (l, list) in lists.iter().enumerate() {
        for (i, id) in list.iter().enumerate() {
            let entry = by_id.entry(id.clone()).or_insert_with(|| {
                order.push(id.clone());
                Fused { id: id.clone(), ranks: vec![None; lists.len()], score: 0.0 }
            });
            if entry.ranks[l].is_none() {
                entry.ranks[l] = Some(i + 1);
                entry.score += 1.0 / (K + (i + 1) as f64);
            }
        }
    }
    let mut out: Vec<Fused> = order.into_iter().filter_map(|id| by_id.remove(&id)).collect();
    // A stable sort keeps first-appearance order among equal scores.
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn agreement_beats_one_first_place() {
        let out = fuse(&[ids(&["a", "b", "c"]), ids(&["b", "d", "a"])]);
        let order: Vec<&str> = out.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(order, vec!["b", "a", "d", "c"]);
        assert_eq!(out[0].ranks, vec![Some(2), Some(1)]);
        assert!((out[0].score - (1.0 / 62.0 + 1.0 / 61.0)).abs() < 1e-12);
        assert_eq!(out[3].ranks, vec![Some(3), None]);
    }

    #[test]
    fn one_list_keeps_its_order() {
        let out = fuse(&[ids(&["x", "y"])]);
        assert_eq!(out.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), vec!["x", "y"]);
        assert!(fuse(&[]).is_empty());
    }
}
