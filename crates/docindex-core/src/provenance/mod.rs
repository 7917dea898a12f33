//! Exhaustive provenance without I/O: every sentence of every node is read for a topic
//! concept ([`topics`]), every on-topic sentence is kept as an exact span (adjacent ones
//! merged into one excerpt), and each excerpt carries its own relevance and the concept
//! terms that put it there. Nothing is skipped or capped, so coverage is always "every
//! section" and the report lists everything.

pub mod topics;

use crate::charmap::CharMap;
use crate::model::{DocumentIndex, Span};
use crate::search::sentence_spans;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use topics::{SentenceMatch, TopicMatcher};

/// One run of on-topic sentences: `text` is exactly `document text[start_char..end_char]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopicExcerpt {
    pub start_char: usize,
    pub end_char: usize,
    pub text: String,
    /// 0..1: how strongly this excerpt is on the topic.
    #[serde(default)]
    pub relevance: f64,
    /// The concept terms it holds, core terms first.
    #[serde(default)]
    pub terms: Vec<String>,
    /// Why it is evidence: the terms matched, or the model's judgement.
    #[serde(default)]
    pub reason: String,
    /// It stands in a paragraph written as instructions to a reader or a model ("Ignore
    /// previous instructions…"): shown flagged, since the filing is data.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub addressed_to_a_model: bool,
}

impl TopicExcerpt {
    pub fn span(&self) -> Span {
        Span {
            start_char: self.start_char,
            end_char: self.end_char,
        }
    }
}

/// Evidence of a topic in one section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub doc_id: String,
    pub doc_name: String,
    pub node_id: String,
    pub title: String,
    pub path: String,
    /// 0..1: the best excerpt's relevance, a little more for many on-topic excerpts.
    pub relevance: f64,
    pub reason: String,
    /// Every on-topic excerpt of the section's own text, in document order.
    pub excerpts: Vec<TopicExcerpt>,
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
    /// Excerpts below this relevance are not reported.
    pub threshold: f64,
    /// Keep related-term sentences everywhere, not only where the topic is established:
    /// the wide net a model then judges.
    pub related_everywhere: bool,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            threshold: 0.35,
            related_everywhere: false,
        }
    }
}

/// A sentence holding a core phrase starts here; each further core phrase adds a step.
const CORE_BASE: f64 = 0.6;
const CORE_STEP: f64 = 0.1;
/// A sentence with related phrases only, where the topic is established.
const RELATED_BASE: f64 = 0.4;
const RELATED_STEP: f64 = 0.05;
/// A section (or an ancestor) titled for the topic.
const TITLE_BONUS: f64 = 0.1;
/// A related-term sentence this many sentences or fewer from a core sentence is on the
/// topic the core sentence established.
const NEAR_CORE: usize = 2;
/// Each further sentence merged into an excerpt.
const MERGE_STEP: f64 = 0.03;
/// Adjacent on-topic sentences merge until an excerpt reaches this many characters.
const MAX_EXCERPT_CHARS: usize = 1500;
/// Cosine similarity of a node's best passage to the topic above which the node counts as
/// on topic (related-term sentences kept), calibrated on `tests/eval/provenance.json`.
pub const CLOSE_IN_MEANING: f32 = 0.45;

fn sentence_relevance(m: &SentenceMatch, titled: bool) -> f64 {
    let title = if titled { TITLE_BONUS } else { 0.0 };
    let score = if m.is_core() {
        let core = m.core.len() + m.together.len();
        CORE_BASE
            + CORE_STEP * (core.saturating_sub(1).min(3)) as f64
            + RELATED_STEP * m.related.len().min(2) as f64
    } else {
        RELATED_BASE + RELATED_STEP * (m.related.len().saturating_sub(1).min(2)) as f64
    };
    (score + title).min(1.0)
}

/// Scan every node of `doc` for the topic `matcher` was built from. `closeness` gives, per
/// node id, the best cosine similarity of its passages to the topic when vectors exist.
/// `on_node(done, total, hit)` is called for every node, with the evidence when it is one.
pub fn scan(
    doc: &DocumentIndex,
    matcher: &TopicMatcher,
    closeness: &HashMap<String, f32>,
    options: ScanOptions,
    on_node: &mut dyn FnMut(usize, usize, Option<&Evidence>),
) -> Vec<Evidence> {
    let map = CharMap::new(&doc.text);
    let total = doc.nodes.len();
    let mut found = Vec::new();
    for (i, node) in doc.nodes.iter().enumerate() {
        // The node's own text: up to its first child, so a sentence is credited once.
        let own_end = node
            .children
            .first()
            .and_then(|c| doc.node(c))
            .map_or(node.span.end_char, |c| c.span.start_char);
        let own = Span {
            start_char: node.span.start_char,
            end_char: own_end.max(node.span.start_char),
        };
        let text = map.slice(own);
        let sentences = sentence_spans(text);
        let matches: Vec<SentenceMatch> = sentences
            .iter()
            .map(|(_, _, s)| matcher.match_text(s))
            .collect();
        let path = doc.path_of(&node.node_id);
        let titled = matcher.names_topic(&path);
        let close = closeness.get(&node.node_id).copied();
        let close_enough = close.is_some_and(|c| c >= CLOSE_IN_MEANING);
        let established = titled || close_enough || options.related_everywhere;
        let core_at: Vec<usize> = (0..matches.len())
            .filter(|&s| matches[s].is_core())
            .collect();
        let near_core = |s: usize| core_at.iter().any(|&c| c.abs_diff(s) <= NEAR_CORE);
        let kept: Vec<Option<f64>> = matches
            .iter()
            .enumerate()
            .map(|(s, m)| {
                let keep = m.is_core() || (!m.is_empty() && (established || near_core(s)));
                keep.then(|| sentence_relevance(m, titled))
            })
            .collect();
        // Sentences of a paragraph written to a reader or a model are excerpts of their own,
        // flagged, never merged with the filing's statements beside them.
        let any_addressed = crate::qa::instructions::addresses_a_model(text);
        let addressed: Vec<bool> = sentences
            .iter()
            .map(|&(start_char, end_char, _)| {
                any_addressed
                    && crate::qa::instructions::in_a_paragraph_addressed_to_a_model(
                        text,
                        Span {
                            start_char,
                            end_char,
                        },
                    )
            })
            .collect();
        let mut excerpts: Vec<TopicExcerpt> = Vec::new();
        let mut run: Vec<usize> = Vec::new();
        let flush = |run: &mut Vec<usize>, excerpts: &mut Vec<TopicExcerpt>| {
            if let (Some(&first), Some(&last)) = (run.first(), run.last()) {
                let start = own.start_char + sentences[first].0;
                let end = own.start_char + sentences[last].1;
                let span = Span {
                    start_char: start,
                    end_char: end,
                };
                let best = run.iter().filter_map(|&s| kept[s]).fold(0.0_f64, f64::max);
                let relevance = (best + MERGE_STEP * (run.len() - 1) as f64).min(1.0);
                let mut terms: Vec<String> = Vec::new();
                for &s in run.iter() {
                    for t in matcher.terms(&matches[s]) {
                        if !terms.contains(&t) {
                            terms.push(t);
                        }
                    }
                }
                let reason = format!("matched: {}", terms.join(", "));
                excerpts.push(TopicExcerpt {
                    start_char: start,
                    end_char: end,
                    text: map.slice(span).to_string(),
                    relevance,
                    terms,
                    reason,
                    addressed_to_a_model: run.first().is_some_and(|&first| addressed[first]),
                });
            }
            run.clear();
        };
        for (s, keep) in kept.iter().enumerate() {
            let joins = keep.is_some()
                && run.last().is_some_and(|&prev| {
                    prev + 1 == s
                        && addressed[prev] == addressed[s]
                        && sentences[s].1 - sentences[run[0]].0 <= MAX_EXCERPT_CHARS
                });
            if !joins {
                flush(&mut run, &mut excerpts);
            }
            if keep.is_some() {
                run.push(s);
            }
        }
        flush(&mut run, &mut excerpts);
        excerpts.retain(|x| x.relevance >= options.threshold);
        let evidence = (!excerpts.is_empty()).then(|| {
            let best = excerpts.iter().map(|x| x.relevance).fold(0.0, f64::max);
            let relevance = (best + 0.02 * (excerpts.len() - 1).min(5) as f64).min(1.0);
            let core_sentences = matches.iter().filter(|m| m.is_core()).count();
            let mut reasons = vec![format!(
                "{} excerpt{}, {core_sentences} sentence{} on the core concept",
                excerpts.len(),
                if excerpts.len() == 1 { "" } else { "s" },
                if core_sentences == 1 { "" } else { "s" },
            )];
            if titled {
                reasons.push("titled for the topic".to_string());
            }
            if let Some(c) = close.filter(|_| close_enough) {
                reasons.push(format!("close in meaning (similarity {c:.2})"));
            }
            Evidence {
                doc_id: doc.doc_id.clone(),
                doc_name: doc.doc_name.clone(),
                node_id: node.node_id.clone(),
                title: node.title.clone(),
                path,
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
