//! Hybrid node search without I/O: query expansion (stems, the dictionary of defined terms
//! and acronyms), fusion of ranked lists from the lexical and dense legs (reciprocal rank
//! fusion, or min-max score sums for comparison), aggregation of chunk scores to nodes
//! (`NodeScore = Σ chunk scores / √(N + 1)`), credit from children to parents, and excerpts
//! located as exact spans. Retrieval itself (FTS5, vectors) lives in the store.

use crate::model::{DictionaryEntry, Span};
use crate::summary::sentences;
use rust_stemmers::{Algorithm, Stemmer};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};

const STOPWORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "of",
    "in",
    "on",
    "for",
    "to",
    "and",
    "or",
    "what",
    "was",
    "were",
    "is",
    "are",
    "how",
    "much",
    "many",
    "did",
    "does",
    "do",
    "which",
    "who",
    "whom",
    "when",
    "where",
    "why",
    "by",
    "with",
    "from",
    "at",
    "as",
    "be",
    "been",
    "it",
    "its",
    "their",
    "our",
    "we",
    "this",
    "that",
    "these",
    "those",
    "about",
    "during",
    "any",
    "has",
    "have",
    "had",
    "there",
    "company",
    "companies",
    // Filings date figures by period ("three months ended July 1, 2023"); "fiscal" in a
    // question only says which kind of year it means.
    "fiscal",
    "s",
    "tell",
    "me",
    "describe",
    "list",
    "show",
    "give",
    "please",
];

/// Phrasings that mean the same thing in filings. A question asks "how much stock did they
/// buy back" while the filing says "repurchased"; an analyst's "head office" is the filing's
/// "headquarters". A query using one phrasing also searches the others of its group.
const EQUIVALENTS: &[&[&str]] = &[
    &["buy back", "buyback", "repurchase", "repurchased"],
    &[
        "head office",
        "headquarters",
        "headquartered",
        "principal executive offices",
    ],
    &[
        "employees",
        "employ",
        "headcount",
        "workforce",
        "people",
        "staff",
    ],
    &["relationship", "partnership", "collaboration"],
    &["revenue", "net sales", "net revenues", "turnover"],
    &["profit", "net income", "earnings", "net earnings"],
    &[
        "auditor",
        "independent registered public accounting firm",
        "accountants",
    ],
    &["lawsuit", "litigation", "legal proceedings"],
    &["debt", "borrowings", "indebtedness", "term debt"],
    &["bonds", "notes", "senior notes", "debentures"],
    &["obligor", "issuer"],
    &["new money", "net proceeds", "proceeds"],
    &["layoffs", "job cuts", "headcount reductions", "severance"],
    &["capex", "capital expenditures"],
    &[
        "comps",
        "comparable store sales",
        "comparable sales",
        "same-store sales",
        "comparable store net sales",
    ],
    &["raise", "net proceeds"],
    &["stake", "ownership interest"],
    &["shareholders", "stockholders", "shareowners"],
    &["pay", "compensation"],
    &["outlook", "guidance"],
    &[
        "one-off",
        "one-time",
        "non-recurring",
        "nonrecurring",
        "unusual",
        "discrete",
    ],
    &["fine", "penalty", "penalties"],
    &["buy", "acquire", "acquisition"],
    &["made", "manufactured", "manufacturing"],
    &["quarter", "three months", "three-month"],
    &["year", "twelve months", "annual"],
];

/// "Q2", "2Q23", "FY2023": which period a question means. Filings date their figures by
/// column headings ("Three Months Ended June 30, 2023"), never with these words, so they are
/// not searched for nor asked of a sentence.
pub fn is_period_shorthand(word: &str) -> bool {
    static SHORTHAND: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^(?:q[1-4](?:'?\d{2})?|[1-4]q(?:'?\d{2})?|fy'?\d{2}(?:\d{2})?|h[12])$")
            .ok()
    });
    SHORTHAND.as_ref().is_some_and(|re| re.is_match(word))
}

/// Stems of every word of `text`, stopwords included (phrases are matched whole).
fn phrase_stems(stemmer: &Stemmer, text: &str) -> Vec<String> {
    words(text)
        .iter()
        .map(|w| stemmer.stem(w).to_string())
        .collect()
}

/// Every [`EQUIVALENTS`] group the query uses, whole. Longer phrases claim their words
/// first, so "buy back" is a buy-back and not also a purchase.
fn equivalent_groups(query: &str) -> Vec<Vec<String>> {
    let stemmer = Stemmer::create(Algorithm::English);
    let query_stems = phrase_stems(&stemmer, query);
    // (group, first word, word count) of every phrase found in the query.
    let mut found: Vec<(usize, usize, usize)> = Vec::new();
    for (g, group) in EQUIVALENTS.iter().enumerate() {
        for phrase in group.iter() {
            let wanted = phrase_stems(&stemmer, phrase);
            if wanted.is_empty() {
                continue;
            }
            for (at, window) in query_stems.windows(wanted.len()).enumerate() {
                if window == wanted.as_slice() {
                    found.push((g, at, wanted.len()));
                }
            }
        }
    }
    found.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.cmp(&b.1)));
    let mut claimed = vec![false; query_stems.len()];
    let mut used: Vec<usize> = Vec::new();
    for (g, at, len) in found {
        if claimed[at..at + len].iter().any(|c| *c) {
            continue;
        }
        claimed[at..at + len].iter_mut().for_each(|c| *c = true);
        if !used.contains(&g) {
            used.push(g);
        }
    }
    used.sort_unstable();
    used.into_iter()
        .map(|g| EQUIVALENTS[g].iter().map(|p| (*p).to_string()).collect())
        .collect()
}

/// The query as searched: its content words and what the dictionary added.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Expansion {
    /// Lowercase content words of the query.
    pub terms: Vec<String>,
    /// Phrases the dictionary added: an acronym's expansion or a defined term's acronym.
    pub added: Vec<String>,
    /// Other phrasings filings use for words of the query ("repurchase" for "buy back").
    #[serde(default)]
    pub equivalents: Vec<String>,
    /// The equivalence groups those came from, each whole.
    #[serde(default)]
    pub equivalent_groups: Vec<Vec<String>>,
    /// The FTS5 expression: every term and phrase, OR'ed.
    pub fts_query: String,
}

/// Stems of the content words (stopwords left out) of `texts`.
fn content_stems<'a>(
    stemmer: &Stemmer,
    texts: impl IntoIterator<Item = &'a String>,
) -> BTreeSet<String> {
    texts
        .into_iter()
        .flat_map(|t| words(t))
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .map(|w| stemmer.stem(&w).to_string())
        .collect()
}

impl Expansion {
    /// Stems of every searched word, for scoring sentences and excerpts.
    pub fn stems(&self) -> BTreeSet<String> {
        let stemmer = Stemmer::create(Algorithm::English);
        content_stems(
            &stemmer,
            self.terms
                .iter()
                .chain(&self.added)
                .chain(&self.equivalents),
        )
    }

    /// Stems of the query's own words and the dictionary's additions, without equivalent
    /// phrasings: how much of the question a title covers is measured against these.
    pub fn query_stems(&self) -> BTreeSet<String> {
        let stemmer = Stemmer::create(Algorithm::English);
        content_stems(&stemmer, self.terms.iter().chain(&self.added))
    }

    /// What an answer must cover: one set of interchangeable stems per query word (the
    /// word and, when it belongs to an equivalence group, every phrasing of the group) and
    /// one per word the dictionary added.
    pub fn concepts(&self) -> Vec<BTreeSet<String>> {
        let stemmer = Stemmer::create(Algorithm::English);
        let group_stems: Vec<BTreeSet<String>> = self
            .equivalent_groups
            .iter()
            .map(|group| content_stems(&stemmer, group))
            .collect();
        let mut concepts: Vec<BTreeSet<String>> = Vec::new();
        for term in self.terms.iter().chain(self.added.iter()) {
            for stem in content_stems(&stemmer, [term]) {
                let mut concept: BTreeSet<String> = BTreeSet::from([stem.clone()]);
                for group in group_stems.iter().filter(|g| g.contains(&stem)) {
                    concept.extend(group.iter().cloned());
                }
                if !concepts.contains(&concept) {
                    concepts.push(concept);
                }
            }
        }
        concepts
    }
}

/// The share of `concepts` that `text` covers: a concept counts when any of its stems is
/// among the text's words.
pub fn concept_coverage(text: &str, concepts: &[BTreeSet<String>]) -> f64 {
    if concepts.is_empty() {
        return 0.0;
    }
    let stemmer = Stemmer::create(Algorithm::English);
    let found: BTreeSet<String> = words(text)
        .into_iter()
        .map(|w| stemmer.stem(&w).to_string())
        .collect();
    let covered = concepts
        .iter()
        .filter(|c| c.iter().any(|stem| found.contains(stem)))
        .count();
    covered as f64 / concepts.len() as f64
}

/// Lowercase words of `text` (letters, digits, inner `'`, `.` and `-` kept).
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-' || c == '.'))
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

fn fts_phrase(text: &str) -> String {
    format!("\"{}\"", text.replace('"', " "))
}

/// Expand `query` with the dictionary: an acronym in the query brings its definition, a
/// defined phrase in the query brings its acronym.
pub fn expand(query: &str, dictionary: &[(String, String)]) -> Expansion {
    let terms: Vec<String> = words(query)
        .into_iter()
        .filter(|w| !STOPWORDS.contains(&w.as_str()) && !is_period_shorthand(w))
        .collect();
    let lowered = query.to_lowercase();
    let mut added = Vec::new();
    for (term, definition) in dictionary {
        let term_l = term.to_lowercase();
        let def_l = definition.to_lowercase();
        let term_in_query =
            terms.contains(&term_l) || (term_l.contains(' ') && lowered.contains(&term_l));
        if term_in_query && def_l.split_whitespace().count() <= 8 && !added.contains(&def_l) {
            added.push(def_l.clone());
        }
        if !term_in_query
            && def_l.split_whitespace().count() >= 2
            && lowered.contains(&def_l)
            && !added.contains(&term_l)
        {
            added.push(term_l.clone());
        }
    }
    let mut parts: Vec<String> = terms.iter().map(|t| fts_phrase(t)).collect();
    // Passages where the query's words stand together score higher.
    if terms.len() >= 2 {
        let near: Vec<String> = terms.iter().map(|t| fts_phrase(t)).collect();
        parts.push(format!("NEAR({}, 6)", near.join(" ")));
    }
    parts.extend(added.iter().map(|a| fts_phrase(a)));
    let groups = equivalent_groups(query);
    let lowered_terms = words(query);
    let equivalents: Vec<String> = groups
        .iter()
        .flatten()
        .filter(|phrase| {
            !added.contains(phrase) && !(words(phrase).iter().all(|w| lowered_terms.contains(w)))
        })
        .cloned()
        .collect();
    parts.extend(equivalents.iter().map(|e| fts_phrase(e)));
    parts.dedup();
    Expansion {
        terms,
        added,
        equivalents,
        equivalent_groups: groups,
        fts_query: parts.join(" OR "),
    }
}

/// Dictionary entries as (term, definition) pairs for [`expand`].
pub fn dictionary_pairs(entries: &[DictionaryEntry]) -> Vec<(String, String)> {
    entries
        .iter()
        .map(|e| (e.term.clone(), e.definition.clone()))
        .collect()
}

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
    /// the node's title match, so a passage in a section named for the query comes first.
    pub fn passage_score(&self, chunk_score: f64) -> f64 {
        chunk_score + self.title_score
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

/// Hybrid ranking, the one entry point search uses: fuse the legs' ranked lists into node
/// scores, give parents a share of their best child's, scale to 0..1 and keep the best
/// `limit`, best first (ties by document and node id, so the order is stable).
pub fn rank_nodes(
    legs: &[Leg],
    fusion: Fusion,
    parent_of: &dyn Fn(&str, &str) -> Option<String>,
    limit: usize,
) -> Vec<RankedNode> {
    let mut scores = fuse(legs, fusion);
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

/// The excerpts a hit shows: the best sentence of each of its three strongest passages,
/// or, when no passage matched, the node's two best sentences; in document order.
pub fn hit_excerpts(
    doc: &crate::model::DocumentIndex,
    node: &crate::model::Node,
    detail: &NodeScore,
    stems: &BTreeSet<String>,
) -> Vec<Excerpt> {
    let map = crate::charmap::CharMap::new(&doc.text);
    let mut excerpts = Vec::new();
    for (chunk_index, _) in detail.chunks.iter().take(3) {
        if let Some(chunk) = doc.chunks.get(*chunk_index) {
            excerpts.extend(best_excerpts(
                map.slice(chunk.span),
                chunk.span.start_char,
                stems,
                1,
            ));
        }
    }
    if excerpts.is_empty() {
        excerpts = best_excerpts(map.slice(node.span), node.span.start_char, stems, 2);
    }
    excerpts.sort_by_key(|e| e.start_char);
    excerpts.dedup();
    excerpts
}

/// A passage of the document: `text` is exactly `document text[span]`.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Excerpt {
    pub start_char: usize,
    pub end_char: usize,
    pub text: String,
}

impl Excerpt {
    pub fn span(&self) -> Span {
        Span {
            start_char: self.start_char,
            end_char: self.end_char,
        }
    }
}

/// Sentences (and table rows) of `text` with their char offsets from its start.
pub fn sentence_spans(text: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let base = text.as_ptr() as usize;
    for line in text.split('\n') {
        for sentence in sentences(line) {
            let start_byte = sentence.as_ptr() as usize - base;
            let end_byte = start_byte + sentence.len();
            out.push((start_byte, end_byte, sentence));
        }
    }
    let mut chars = Vec::with_capacity(out.len());
    let mut counted_bytes = 0;
    let mut counted_chars = 0;
    for (start, end, s) in out {
        counted_chars += text[counted_bytes..start].chars().count();
        let start_char = counted_chars;
        let end_char = start_char + s.chars().count();
        counted_chars = end_char;
        counted_bytes = end;
        chars.push((start_char, end_char, s));
    }
    chars
}

/// How many of `stems` a sentence contains, weighted by distinct matches.
pub fn match_score(sentence: &str, stems: &BTreeSet<String>) -> usize {
    let stemmer = Stemmer::create(Algorithm::English);
    let found: BTreeSet<String> = words(sentence)
        .into_iter()
        .map(|w| stemmer.stem(&w).to_string())
        .filter(|w| stems.contains(w))
        .collect();
    found.len()
}

/// The best sentences of a passage for the query, at most `max`, in document order.
/// `passage_start` is the passage's char offset in the document.
pub fn best_excerpts(
    passage: &str,
    passage_start: usize,
    stems: &BTreeSet<String>,
    max: usize,
) -> Vec<Excerpt> {
    let mut scored: Vec<(usize, usize, usize, &str)> = sentence_spans(passage)
        .into_iter()
        .map(|(s, e, text)| (match_score(text, stems), s, e, text))
        .filter(|(score, ..)| *score > 0)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(max);
    scored.sort_by_key(|s| s.1);
    scored
        .into_iter()
        .map(|(_, s, e, text)| Excerpt {
            start_char: passage_start + s,
            end_char: passage_start + e,
            text: text.to_string(),
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
        let ranked = rank_nodes(&legs, Fusion::MinMax, &parent_of, 3);
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
        assert_eq!(rank_nodes(&legs, Fusion::Rrf, &parent_of, 1).len(), 1);
    }

    #[test]
    fn the_dictionary_expands_acronyms_both_ways() {
        let dict = vec![(
            "EBITDA".to_string(),
            "earnings before interest, taxes, depreciation and amortization".to_string(),
        )];
        let e = expand("What was EBITDA in 2024?", &dict);
        assert_eq!(e.terms, vec!["ebitda", "2024"]);
        assert_eq!(e.added.len(), 1);
        assert!(
            e.fts_query.contains(
                "\"ebitda\" OR \"2024\" OR NEAR(\"ebitda\" \"2024\", 6) OR \"earnings before"
            ),
            "{}",
            e.fts_query
        );
        let back = expand(
            "earnings before interest, taxes, depreciation and amortization",
            &dict,
        );
        assert!(back.added.contains(&"ebitda".to_string()));
    }

    #[test]
    fn a_question_also_searches_the_phrasings_filings_use() {
        let e = expand("How much stock did the company buy back?", &[]);
        assert!(e.equivalents.contains(&"repurchased".to_string()));
        assert!(e.fts_query.contains("\"repurchase\""), "{}", e.fts_query);
        assert!(e.stems().contains("repurchas"));
        assert!(!e.query_stems().contains("repurchas"));
        // A phrase matches whole: "back" alone brings nothing, and a group the query
        // already uses in full adds only its other phrasings.
        assert!(expand("Go back to the start", &[]).equivalents.is_empty());
        let hq = expand("Where are the headquarters?", &[]);
        assert!(hq.equivalents.contains(&"head office".to_string()));
        assert!(!hq.equivalents.contains(&"headquarters".to_string()));
    }

    #[test]
    fn a_sentence_in_the_filing_phrasing_covers_the_question() {
        let e = expand("How much stock did Apple buy back?", &[]);
        let concepts = e.concepts();
        let filing = "The Company repurchased $95.0 billion of its common stock.";
        assert!(
            concept_coverage(filing, &concepts) < 1.0,
            "apple is not named"
        );
        let full = "Apple repurchased $95.0 billion of its common stock.";
        assert_eq!(concept_coverage(full, &concepts), 1.0);
        assert_eq!(concept_coverage("Apple stock", &concepts), 2.0 / 3.0);
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

    #[test]
    fn excerpts_are_exact_spans_of_the_best_sentences() {
        let text = "Intro line.\nNet sales rose 2% to $391.0 billion. Costs were flat. Sales of iPhone grew.";
        let stems = expand("net sales", &[]).stems();
        let ex = best_excerpts(text, 100, &stems, 2);
        assert_eq!(ex.len(), 2);
        let chars: Vec<char> = text.chars().collect();
        for e in &ex {
            let s: String = chars[e.start_char - 100..e.end_char - 100].iter().collect();
            assert_eq!(s, e.text);
        }
        assert_eq!(ex[0].text, "Net sales rose 2% to $391.0 billion.");
    }
}
