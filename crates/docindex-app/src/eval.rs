//! Retrieval quality on questions whose evidence is known: our node search against plain
//! chunk retrieval (BM25, and MiniLM, over fixed 1,000-character chunks of the same text),
//! each cut to the same token budget. A question counts as found when one of its evidence
//! strings (case and spacing ignored) is inside the budgeted text.

use crate::search::SearchRequest;
use crate::{AppError, Library, Result};
use docindex_core::charmap::CharMap;
use docindex_core::embed::dot;
use docindex_core::search::{expand, words, Fusion, LegKind};
use docindex_core::tokens::TokenCounter;
use rust_stemmers::{Algorithm, Stemmer};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct EvalQuestion {
    /// The document the question is about (id, name or stem).
    pub doc: String,
    pub question: String,
    /// Strings that prove the evidence was retrieved (any one suffices).
    pub evidence: Vec<String>,
}

/// One retrieval method of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Our search: lexical + titles + dense, min-max fusion (the default).
    Ours,
    /// Our search with reciprocal rank fusion instead.
    OursRrf,
    /// Our search without the dense leg.
    OursNoDense,
    /// BM25 over fixed 1,000-character chunks.
    Bm25Chunks,
    /// MiniLM over fixed 1,000-character chunks.
    MiniLmChunks,
}

pub const METHODS: [Method; 5] = [
    Method::Ours,
    Method::OursRrf,
    Method::OursNoDense,
    Method::Bm25Chunks,
    Method::MiniLmChunks,
];

#[derive(Debug, Clone, Serialize)]
pub struct EvalRow {
    pub question: String,
    pub doc: String,
    pub found: HashMap<Method, bool>,
}

const CHUNK_CHARS: usize = 1000;

/// A document's fixed chunks and, when the model is available, their vectors.
type BaselineChunks = (Vec<String>, Option<Vec<Vec<f32>>>);

fn fold(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Fixed chunks of a text: (start_char, text).
fn fixed_chunks(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(CHUNK_CHARS)
        .map(|c| c.iter().collect())
        .collect()
}

/// Okapi BM25 (k1 1.2, b 0.75) over stemmed words, best first.
fn bm25_rank(chunks: &[String], stems: &BTreeSet<String>) -> Vec<usize> {
    let stemmer = Stemmer::create(Algorithm::English);
    let docs: Vec<Vec<String>> = chunks
        .iter()
        .map(|c| {
            words(c)
                .into_iter()
                .map(|w| stemmer.stem(&w).to_string())
                .collect()
        })
        .collect();
    let n = docs.len() as f64;
    let avg = docs.iter().map(Vec::len).sum::<usize>() as f64 / n.max(1.0);
    let mut df: HashMap<&str, f64> = HashMap::new();
    for d in &docs {
        let unique: BTreeSet<&str> = d.iter().map(String::as_str).collect();
        for w in unique {
            if stems.contains(w) {
                *df.entry(w).or_default() += 1.0;
            }
        }
    }
    let mut scored: Vec<(f64, usize)> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let mut tf: HashMap<&str, f64> = HashMap::new();
            for w in d {
                if stems.contains(w.as_str()) {
                    *tf.entry(w.as_str()).or_default() += 1.0;
                }
            }
            let len = d.len() as f64;
            let score: f64 = tf
                .iter()
                .map(|(w, f)| {
                    let df = df.get(w).copied().unwrap_or(0.0);
                    let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                    idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * len / avg))
                })
                .sum();
            (score, i)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored
        .into_iter()
        .filter(|s| s.0 > 0.0)
        .map(|s| s.1)
        .collect()
}

/// The texts, in order, cut to `budget` tokens.
fn budgeted(texts: impl Iterator<Item = String>, budget: usize, counter: &TokenCounter) -> String {
    let mut out = String::new();
    let mut used = 0;
    for text in texts {
        let tokens = counter.count(&text);
        if used + tokens > budget {
            // The part of the text that still fits.
            let room = budget.saturating_sub(used);
            let cut: String = text.chars().take(room * 4).collect();
            out.push_str(&cut);
            break;
        }
        used += tokens;
        out.push_str(&text);
        out.push('\n');
    }
    out
}

impl Library {
    /// Run every method on every question with `budget` tokens of retrieved text.
    pub fn evaluate(
        &self,
        questions: &[EvalQuestion],
        budget: usize,
        with_minilm_baseline: bool,
        on_progress: &dyn Fn(usize, usize),
    ) -> Result<Vec<EvalRow>> {
        let counter = TokenCounter::new().map_err(|e| AppError::Settings(e.to_string()))?;
        let embedder = self.embedder().ok().filter(|_| with_minilm_baseline);
        let mut chunk_cache: HashMap<String, BaselineChunks> = HashMap::new();
        let mut rows = Vec::new();
        for (i, q) in questions.iter().enumerate() {
            on_progress(i, questions.len());
            let summary = self.resolve(&q.doc)?;
            let evidence: Vec<String> = q.evidence.iter().map(|e| fold(e)).collect();
            let holds = |text: &str| {
                let text = fold(text);
                evidence.iter().any(|e| text.contains(e))
            };
            let mut found = HashMap::new();
            for method in [Method::Ours, Method::OursRrf, Method::OursNoDense] {
                let mut request = SearchRequest::new(&q.question);
                request.doc = Some(summary.doc_id.clone());
                request.limit = 20;
                if method == Method::OursRrf {
                    request.fusion = Fusion::Rrf;
                }
                if method == Method::OursNoDense {
                    request.without = vec![LegKind::Dense];
                }
                let results = self.search(&request)?;
                // Each section's path is shown once, before its first passage.
                let mut shown_paths = std::collections::HashSet::new();
                let texts: Vec<String> = crate::search::reading_order(&results.hits, 5)
                    .into_iter()
                    .map(|(hit, passage)| {
                        if shown_paths.insert((hit.doc_id.clone(), hit.node_id.clone())) {
                            format!("{}\n{}", hit.title, passage.text)
                        } else {
                            passage.text.clone()
                        }
                    })
                    .collect();
                let texts = texts.into_iter();
                found.insert(method, holds(&budgeted(texts, budget, &counter)));
            }
            let (chunks, vectors) = match chunk_cache.get(&summary.doc_id) {
                Some(cached) => cached.clone(),
                None => {
                    let doc = self.document(&summary.doc_id)?;
                    let map = CharMap::new(&doc.text);
                    let chunks = fixed_chunks(map.text());
                    let vectors = match &embedder {
                        Some(e) => {
                            let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
                            Some(e.embed(&refs).map_err(AppError::Embed)?)
                        }
                        None => None,
                    };
                    chunk_cache.insert(summary.doc_id.clone(), (chunks.clone(), vectors.clone()));
                    (chunks, vectors)
                }
            };
            let stems = expand(&q.question, &[]).query_stems();
            let order = bm25_rank(&chunks, &stems);
            let texts = order.iter().map(|&i| chunks[i].clone());
            found.insert(
                Method::Bm25Chunks,
                holds(&budgeted(texts, budget, &counter)),
            );
            if let (Some(e), Some(vectors)) = (&embedder, &vectors) {
                let query = e.embed(&[q.question.as_str()]).map_err(AppError::Embed)?;
                let mut scored: Vec<(f32, usize)> = vectors
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (dot(&query[0], v), i))
                    .collect();
                scored.sort_by(|a, b| b.0.total_cmp(&a.0));
                let texts = scored.iter().map(|&(_, i)| chunks[i].clone());
                found.insert(
                    Method::MiniLmChunks,
                    holds(&budgeted(texts, budget, &counter)),
                );
            }
            rows.push(EvalRow {
                question: q.question.clone(),
                doc: summary.doc_name.clone(),
                found,
            });
        }
        on_progress(questions.len(), questions.len());
        Ok(rows)
    }
}
