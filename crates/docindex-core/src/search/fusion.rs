//! Fusion of the ranked lists from the lexical, title and dense legs into node scores:
//! RRF or min-max sums, chunk aggregation (`Σ chunk scores / √(N + 1)`), parent credit.

use super::excerpts::match_score;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};

/// Which retrieval produced a ranked list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LegKind {
    /// BM25 over chunk text (FTS5).
    Lexical,
    /// BM25 over node titles and summaries.
    Titles,
    /// Cosine similarity of local embeddings.
    Dense,
}

/// One entry of a ranked list: a chunk (with its node), or a node for the title leg.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub doc_id: String,
    pub node_id: String,
    pub chunk_index: Option<usize>,
    /// The leg's own score (higher is better); used by min-max fusion.
    pub score: f64,
    /// Multiplies the entry's contribution (a title naming every query word counts double).
    pub boost: f64,
}

/// A ranked list, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct Leg {
    pub kind: LegKind,
    pub hits: Vec<Ranked>,
}

/// How legs are combined.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fusion {
    /// Σ 1/(k + rank): rank-based, needs no score calibration.
    Rrf,
    /// Σ of each leg's scores scaled to 0..1 by its own min and max.
    MinMax,
}

/// The RRF constant. The paper's 60 makes rank 50 worth more than half of rank 1, so a big
/// section with many middling passages outscores the one that answers; 10 keeps the head
/// of each list decisive (measured with `docindex eval`).
pub const RRF_K: f64 = 10.0;
/// Only a node's best passages count: NodeScore sums at most this many chunk scores.
const MAX_CHUNKS_PER_NODE: usize = 5;
/// Title matches count a little more than one passage: a section named for the query is
/// usually the section about it.
const TITLE_WEIGHT: f64 = 1.5;
/// A parent gets this share of its best child's score.
const PARENT_CREDIT: f64 = 0.25;
/// How much of a passage's score hangs on the share of the question's concepts it holds
/// itself: a passage that covers none keeps half its fused score. Fused scores come from
/// the section (its title, its other passages' ranks), so every passage of a section named
/// for one word of the question used to come before the one passage elsewhere that holds
/// the rest. Measured with 2,000 tokens on unseen analyst questions: the evidence page 76 →
/// 78 of 95 and 57 → 61 of 76 (plain BM25 over chunks: 76 and 61); the older sets' evidence
/// 213 → 215 of 237, every floor held (0.7: 79 and 62, but two older sets fell).
pub const PASSAGE_COVERAGE_WEIGHT: f64 = 0.5;

/// A node's fused score and what it came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NodeScore {
    pub score: f64,
    /// Matched chunks with their fused scores, best first.
    pub chunks: Vec<(usize, f64)>,
    pub legs: BTreeSet<&'static str>,
    /// Rank of the node's best chunk or title in each leg (1-based).
    pub best_rank: HashMap<&'static str, usize>,
    /// Credited from a child rather than matched itself.
    pub from_children: bool,
    /// The part of `score` that came from the title leg.
    pub title_score: f64,
}

impl NodeScore {
    /// How strongly to show one of this node's passages: the passage's own fused score plus
    /// the node's title match, so a passage in a section named for the query comes first,
    /// weighed by the share of the question's concepts the passage itself covers
    /// (`coverage`, 0..1; see [`PASSAGE_COVERAGE_WEIGHT`]).
    pub fn passage_score(&self, chunk_score: f64, coverage: f64) -> f64 {
        let coverage = coverage.clamp(0.0, 1.0);
        (chunk_score + self.title_score)
            * (1.0 - PASSAGE_COVERAGE_WEIGHT + PASSAGE_COVERAGE_WEIGHT * coverage)
    }
}

fn leg_name(kind: LegKind) -> &'static str {
    match kind {
        LegKind::Lexical => "lexical",
        LegKind::Titles => "titles",
        LegKind::Dense => "dense",
    }
}

/// Combine the legs into node scores keyed by (doc_id, node_id).
fn fuse(legs: &[Leg], fusion: Fusion) -> HashMap<(String, String), NodeScore> {
    let mut chunk_scores: HashMap<(String, String, usize), f64> = HashMap::new();
    let mut nodes: HashMap<(String, String), NodeScore> = HashMap::new();
    for leg in legs {
        let (min, max) = leg.hits.iter().fold((f64::MAX, f64::MIN), |(lo, hi), h| {
            (lo.min(h.score), hi.max(h.score))
        });
        let name = leg_name(leg.kind);
        for (rank, hit) in leg.hits.iter().enumerate() {
            let base = match fusion {
                Fusion::Rrf => 1.0 / (RRF_K + rank as f64 + 1.0),
                Fusion::MinMax if max > min => (hit.score - min) / (max - min),
                Fusion::MinMax => 1.0,
            };
            let base = base * hit.boost;
            let node_key = (hit.doc_id.clone(), hit.node_id.clone());
            let entry = nodes.entry(node_key).or_default();
            entry.legs.insert(name);
            let best = entry.best_rank.entry(name).or_insert(rank + 1);
            *best = (*best).min(rank + 1);
            match hit.chunk_index {
                Some(chunk) => {
                    *chunk_scores
                        .entry((hit.doc_id.clone(), hit.node_id.clone(), chunk))
                        .or_default() += base;
                }
                None => {
                    entry.score += TITLE_WEIGHT * base;
                    entry.title_score += TITLE_WEIGHT * base;
                }
            }
        }
    }
    for ((doc, node, chunk), score) in chunk_scores {
        nodes
            .entry((doc, node))
            .or_default()
            .chunks
            .push((chunk, score));
    }
    for score in nodes.values_mut() {
        score
            .chunks
            .sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let counted = &score.chunks[..score.chunks.len().min(MAX_CHUNKS_PER_NODE)];
        let n = counted.len() as f64;
        let sum: f64 = counted.iter().map(|c| c.1).sum();
        score.score += sum / (n + 1.0).sqrt();
    }
    nodes
}

/// The score of a node whose one chunk is first in every chunk leg and whose title is first
/// in the title leg: relevance is a node's score as a share of it.
fn ideal_score(legs: &[Leg], fusion: Fusion) -> f64 {
    let top = match fusion {
        Fusion::Rrf => 1.0 / (RRF_K + 1.0),
        Fusion::MinMax => 1.0,
    };
    let chunk_legs = legs.iter().filter(|l| l.kind != LegKind::Titles).count() as f64;
    let title_legs = legs.iter().filter(|l| l.kind == LegKind::Titles).count() as f64;
    (chunk_legs * top) / 2f64.sqrt() + title_legs * TITLE_WEIGHT * FULL_TITLE_BOOST * top
}

/// A title that holds every query word counts this much more than a partial one.
pub const FULL_TITLE_BOOST: f64 = 2.0;

/// Order title hits by how much of the query the title covers, then by BM25, and boost the
/// titles that cover all of it.
pub fn rank_titles(hits: &mut [(Ranked, String)], stems: &BTreeSet<String>) {
    let coverage = |title: &str| {
        if stems.is_empty() {
            0.0
        } else {
            match_score(title, stems) as f64 / stems.len() as f64
        }
    };
    for (hit, title) in hits.iter_mut() {
        if coverage(title) >= 1.0 {
            hit.boost = FULL_TITLE_BOOST;
        }
    }
    hits.sort_by(|a, b| {
        coverage(&b.1)
            .total_cmp(&coverage(&a.1))
            .then(b.0.score.total_cmp(&a.0.score))
    });
}

/// Give each ancestor a share of its best descendant's score, so a section whose parts all
/// match ranks near them, but below the best of them.
fn credit_parents(
    scores: &mut HashMap<(String, String), NodeScore>,
    parent_of: &dyn Fn(&str, &str) -> Option<String>,
) {
    let mut credits: HashMap<(String, String), f64> = HashMap::new();
    for ((doc, node), s) in scores.iter() {
        let mut current = node.clone();
        let mut share = s.score * PARENT_CREDIT;
        while let Some(parent) = parent_of(doc, &current) {
            let c = credits.entry((doc.clone(), parent.clone())).or_default();
            *c = c.max(share);
            share *= PARENT_CREDIT;
            current = parent;
        }
    }
    for (key, credit) in credits {
        let entry = scores.entry(key).or_insert_with(|| NodeScore {
            from_children: true,
            ..NodeScore::default()
        });
        entry.score += credit;
    }
}

/// A node of a hybrid search's ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedNode {
    pub doc_id: String,
    pub node_id: String,
    /// 0..1: the fused score as a share of a perfect match in every leg (the best node is
    /// scaled to 1 when aggregation lifts it past that).
    pub score: f64,
    /// What the score came from: legs, passages, credit from children.
    pub detail: NodeScore,
}

/// Multiply each node's score, its passages' and its title match by the node's prior (a
/// section the kind of question is answered in weighs more; see [`super::prior`]).
fn weigh_sections(
    scores: &mut HashMap<(String, String), NodeScore>,
    prior_of: &dyn Fn(&str, &str) -> f64,
) {
    for ((doc, node), s) in scores.iter_mut() {
        let prior = prior_of(doc, node);
        if prior == 1.0 {
            continue;
        }
        s.score *= prior;
        s.title_score *= prior;
        s.chunks.iter_mut().for_each(|(_, score)| *score *= prior);
    }
}

/// Hybrid ranking, the one entry point search uses: fuse the legs' ranked lists into node
/// scores, weigh each node by its section's prior for this question (1 for none), give
/// parents a share of their best child's, scale to 0..1 and keep the best `limit`, best
/// first (ties by document and node id, so the order is stable).
pub fn rank_nodes(
    legs: &[Leg],
    fusion: Fusion,
    parent_of: &dyn Fn(&str, &str) -> Option<String>,
    prior_of: &dyn Fn(&str, &str) -> f64,
    limit: usize,
) -> Vec<RankedNode> {
    let mut scores = fuse(legs, fusion);
    weigh_sections(&mut scores, prior_of);
    credit_parents(&mut scores, parent_of);
    let top = scores.values().map(|s| s.score).fold(0.0, f64::max);
    let ideal = ideal_score(legs, fusion).max(top).max(f64::MIN_POSITIVE);
    let mut ranked: Vec<((String, String), NodeScore)> = scores.into_iter().collect();
    ranked.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(&b.0)));
    ranked.truncate(limit);
    ranked
        .into_iter()
        .map(|((doc_id, node_id), detail)| RankedNode {
            doc_id,
            node_id,
            score: detail.score / ideal,
            detail,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(doc: &str, node: &str, chunk: Option<usize>) -> Ranked {
        Ranked {
            doc_id: doc.into(),
            node_id: node.into(),
            chunk_index: chunk,
            score: 1.0,
            boost: 1.0,
        }
    }

    #[test]
    fn hybrid_ranking_scales_to_one_credits_parents_and_keeps_the_best() {
        let legs = vec![
            Leg {
                kind: LegKind::Lexical,
                hits: vec![hit("d", "0002", Some(0)), hit("d", "0003", Some(1))],
            },
            Leg {
                kind: LegKind::Titles,
                hits: vec![hit("d", "0002", None)],
            },
        ];
        let parent_of = |_: &str, n: &str| (n != "0001").then(|| "0001".to_string());
        let ranked = rank_nodes(&legs, Fusion::MinMax, &parent_of, &|_, _| 1.0, 3);
        assert_eq!(ranked.len(), 3);
        assert_eq!(ranked[0].node_id, "0002", "first in both legs");
        // Scaled against a perfect match in every leg: strong, not perfect.
        assert!(
            ranked[0].score > ranked[1].score && ranked[0].score <= 1.0,
            "{ranked:?}"
        );
        assert!(ranked.iter().all(|r| (0.0..=1.0).contains(&r.score)));
        assert!(ranked
            .iter()
            .any(|r| r.node_id == "0001" && r.detail.from_children));
        assert_eq!(
            rank_nodes(&legs, Fusion::Rrf, &parent_of, &|_, _| 1.0, 1).len(),
            1
        );
    }

    #[test]
    fn node_score_sums_chunks_over_root_n_plus_one_and_titles_add() {
        let legs = vec![
            Leg {
                kind: LegKind::Lexical,
                hits: vec![
                    hit("d", "0001", Some(3)),
                    hit("d", "0001", Some(4)),
                    hit("d", "0002", Some(9)),
                ],
            },
            Leg {
                kind: LegKind::Titles,
                hits: vec![hit("d", "0002", None)],
            },
        ];
        let scores = fuse(&legs, Fusion::Rrf);
        let r = |rank: f64| 1.0 / (RRF_K + rank);
        let one = &scores[&("d".to_string(), "0001".to_string())];
        assert!((one.score - (r(1.0) + r(2.0)) / 3f64.sqrt()).abs() < 1e-12);
        let two = &scores[&("d".to_string(), "0002".to_string())];
        assert!((two.score - (r(3.0) / 2f64.sqrt() + TITLE_WEIGHT * r(1.0))).abs() < 1e-12);
        assert!(two.score > one.score);
        assert!(two.score <= ideal_score(&legs, Fusion::Rrf) + 1e-12);
    }

    #[test]
    fn a_sections_prior_weighs_its_score_and_its_passages() {
        let legs = vec![Leg {
            kind: LegKind::Lexical,
            hits: vec![hit("d", "0002", Some(0)), hit("d", "0003", Some(1))],
        }];
        let no_parent = |_: &str, _: &str| None;
        let even = rank_nodes(&legs, Fusion::Rrf, &no_parent, &|_, _| 1.0, 2);
        assert_eq!(even[0].node_id, "0002");
        let prior = |_: &str, node: &str| if node == "0003" { 1.6 } else { 1.0 };
        let weighed = rank_nodes(&legs, Fusion::Rrf, &no_parent, &prior, 2);
        assert_eq!(weighed[0].node_id, "0003", "{weighed:?}");
        let passage = |ranked: &[RankedNode], node: &str| {
            ranked
                .iter()
                .find(|r| r.node_id == node)
                .unwrap()
                .detail
                .chunks[0]
                .1
        };
        assert!((passage(&weighed, "0003") - 1.6 * passage(&even, "0003")).abs() < 1e-12);
        assert_eq!(passage(&weighed, "0002"), passage(&even, "0002"));
    }

    #[test]
    fn a_passage_holding_the_question_outranks_a_titled_sections_passage_holding_none() {
        let titled = NodeScore {
            title_score: 0.3,
            ..NodeScore::default()
        };
        let untitled = NodeScore::default();
        // The titled section's passage is fused higher (its rank plus the title match) ...
        let (titled_chunk, untitled_chunk) = (0.4, 0.5);
        assert!(titled_chunk + titled.title_score > untitled_chunk);
        // ... but covers none of the question, the other passage all of it.
        let titled_passage = titled.passage_score(titled_chunk, 0.0);
        let answering = untitled.passage_score(untitled_chunk, 1.0);
        assert!(
            answering > titled_passage,
            "{answering} vs {titled_passage}"
        );
        assert_eq!(answering, untitled_chunk);
        assert_eq!(
            titled_passage,
            (titled_chunk + 0.3) * (1.0 - PASSAGE_COVERAGE_WEIGHT)
        );
    }

    #[test]
    fn parents_get_a_share_without_overtaking_children() {
        let legs = vec![Leg {
            kind: LegKind::Lexical,
            hits: vec![hit("d", "0003", Some(0))],
        }];
        let mut scores = fuse(&legs, Fusion::Rrf);
        credit_parents(&mut scores, &|_, n| match n {
            "0003" => Some("0002".into()),
            "0002" => Some("0001".into()),
            _ => None,
        });
        let get = |n: &str| scores[&("d".to_string(), n.to_string())].score;
        assert!(get("0003") > get("0002") && get("0002") > get("0001") && get("0001") > 0.0);
        assert!(scores[&("d".to_string(), "0002".to_string())].from_children);
    }
}
