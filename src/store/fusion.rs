//! Reciprocal Rank Fusion: one ranking from several, by rank alone.
//!
//! BM25 scores and cosines live on different scales; RRF ignores scores and gives each item
//! `Σ 1 / (k + rank)` over the lists it appears in (ranks from 1, k = 60 as in Cormack et al.
//! 2009 and MANTRA), so an item near the top of both lists beats one at the top of one.

use std::collections::HashMap;

/// The RRF constant.
pub const K: f64 = 60.0;
/// The embedding list's weight against BM25's in hybrid retrieval. On the development data
/// (`examples/store_eval.rs`) the embeddings alone find a relevant example in the top 3 for 27%
/// of queries and BM25 for 65%; at weight 1 the weaker list outvoted the stronger (47%), at 0.1
/// it only reorders what BM25 ranks close together (67%, the best of 0.1 to 1).
pub const EMBED_WEIGHT: f64 = 0.1;

/// A fused item: its 1-based rank in each input list (`None` where absent) and its RRF score.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    pub id: String,
    pub ranks: Vec<Option<usize>>,
    pub score: f64,
}

/// Fuses `lists` (each best first), best first; ties keep the order of first appearance.
pub fn fuse(lists: &[Vec<String>]) -> Vec<Fused> {
    fuse_weighted(lists, &vec![1.0; lists.len()])
}

/// Weighted RRF: list `l` contributes `weights[l] / (k + rank)`, so among items both lists hold
/// a lighter list's ranks count for less. A missing weight counts as 1.
pub fn fuse_weighted(lists: &[Vec<String>], weights: &[f64]) -> Vec<Fused> {
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
                entry.score += weights.get(l).copied().unwrap_or(1.0) / (K + (i + 1) as f64);
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
    fn a_lighter_list_defers_to_the_heavier_among_agreed_items() {
        let lists = [ids(&["a", "b", "c"]), ids(&["c", "b", "x"])];
        let order = |w: f64| fuse_weighted(&lists, &[1.0, w]).into_iter().map(|f| f.id).collect::<Vec<_>>();
        assert_eq!(order(1.0), vec!["c", "b", "a", "x"], "equal weights: c's first place wins");
        assert_eq!(order(0.25), vec!["b", "c", "a", "x"], "light weight: the first list ranks b over c");
    }

    #[test]
    fn one_list_keeps_its_order() {
        let out = fuse(&[ids(&["x", "y"])]);
        assert_eq!(out.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), vec!["x", "y"]);
        assert!(fuse(&[]).is_empty());
    }
}
