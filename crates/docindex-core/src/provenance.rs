//! Exhaustive provenance without I/O: every node of a document is examined for a topic
//! (the topic's stems and dictionary expansions, and, when given, how close its passages
//! are in meaning), and each relevant node yields evidence with verbatim excerpts as exact
//! spans. Nothing is skipped, so coverage is always "every section".

use crate::charmap::CharMap;
use crate::model::DocumentIndex;
use crate::search::{best_excerpts, match_score, sentence_spans, Excerpt};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

/// Evidence of a topic in one section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub doc_id: String,
    pub doc_name: String,
    pub node_id: String,
    pub title: String,
    pub path: String,
    /// 0..1.
    pub relevance: f64,
    pub reason: String,
    /// Verbatim sentences: `text[start_char..end_char]` of the document.
    pub excerpts: Vec<Excerpt>,
    /// The section's own text range (before its first subsection).
    pub start_char: usize,
    pub end_char: usize,
    pub start_page: Option<u32>,
    pub end_page: Option<u32>,
    /// Which engine judged the relevance.
    #[serde(default = "extractive")]
    pub engine: crate::model::Engine,
}

fn extractive() -> crate::model::Engine {
    crate::model::Engine::Extractive
}

/// Knobs of a scan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScanOptions {
    /// Sections below this relevance are not reported.
    pub threshold: f64,
    pub max_excerpts: usize,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            threshold: 0.35,
            max_excerpts: 3,
        }
    }
}

/// Scan every node of `doc`. `concepts` are what the topic asks for, each a set of
/// interchangeable stems ([`crate::search::Expansion::concepts`]); `closeness` gives,
/// per node id, the best cosine similarity of its passages to the topic when vectors exist.
/// `on_node(done, total, hit)` is called for every node, with the evidence when it is one.
pub fn scan(
    doc: &DocumentIndex,
    concepts: &[BTreeSet<String>],
    closeness: &HashMap<String, f32>,
    options: ScanOptions,
    on_node: &mut dyn FnMut(usize, usize, Option<&Evidence>),
) -> Vec<Evidence> {
    let map = CharMap::new(&doc.text);
    let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
    let stems: BTreeSet<String> = concepts.iter().flatten().cloned().collect();
    let stems = &stems;
    let total = doc.nodes.len();
    let mut found = Vec::new();
    for (i, node) in doc.nodes.iter().enumerate() {
        // The node's own text: up to its first child, so a passage is credited once.
        let own_end = node
            .children
            .first()
            .and_then(|c| doc.node(c))
            .map_or(node.span.end_char, |c| c.span.start_char);
        let own = crate::model::Span {
            start_char: node.span.start_char,
            end_char: own_end.max(node.span.start_char),
        };
        let text = map.slice(own);
        let sentences = sentence_spans(text);
        let mut matched = BTreeSet::new();
        let mut matching_sentences = 0;
        for (_, _, s) in &sentences {
            let mut any = false;
            for w in crate::search::words(s) {
                let stem = stemmer.stem(&w).to_string();
                if stems.contains(&stem) {
                    any = true;
                    matched.insert(stem);
                }
            }
            if any {
                matching_sentences += 1;
            }
        }
        let covered = concepts.iter().filter(|c| !c.is_disjoint(&matched)).count();
        let coverage = if concepts.is_empty() {
            0.0
        } else {
            covered as f64 / concepts.len() as f64
        };
        let density = (matching_sentences as f64 / 4.0).min(1.0);
        let title_bonus = if match_score(&node.title, stems) > 0 {
            0.15
        } else {
            0.0
        };
        let lexical = if matching_sentences == 0 {
            0.0
        } else {
            (0.55 * coverage + 0.3 * density + title_bonus).min(1.0)
        };
        let semantic = closeness
            .get(&node.node_id)
            .map(|c| ((f64::from(*c) - 0.35) / 0.3).clamp(0.0, 1.0))
            .unwrap_or(0.0);
        let relevance = lexical.max(semantic * 0.9);
        let evidence = (relevance >= options.threshold).then(|| {
            let mut excerpts = best_excerpts(text, own.start_char, stems, options.max_excerpts);
            if excerpts.is_empty() {
                // Close in meaning without the words: its opening sentence shows what it is.
                if let Some((s, e, t)) = sentences.first() {
                    excerpts.push(Excerpt {
                        start_char: own.start_char + s,
                        end_char: own.start_char + e,
                        text: t.to_string(),
                    });
                }
            }
            let mut reasons = Vec::new();
            if matching_sentences > 0 {
                reasons.push(format!(
                    "{covered} of {} topic terms in {matching_sentences} sentence{}",
                    concepts.len(),
                    if matching_sentences == 1 { "" } else { "s" }
                ));
            }
            if semantic > 0.0 {
                reasons.push(format!(
                    "close in meaning (similarity {:.2})",
                    closeness.get(&node.node_id).copied().unwrap_or(0.0)
                ));
            }
            Evidence {
                doc_id: doc.doc_id.clone(),
                doc_name: doc.doc_name.clone(),
                node_id: node.node_id.clone(),
                title: node.title.clone(),
                path: doc.path_of(&node.node_id),
                relevance,
                reason: reasons.join("; "),
                excerpts,
                start_char: own.start_char,
                end_char: own.end_char,
                start_page: node.start_page,
                end_page: node.end_page,
                engine: crate::model::Engine::Extractive,
            }
        });
        on_node(i + 1, total, evidence.as_ref());
        if let Some(e) = evidence {
            found.push(e);
        }
    }
    found.sort_by(|a, b| {
        b.relevance
            .total_cmp(&a.relevance)
            .then(a.start_char.cmp(&b.start_char))
    });
    found
}
