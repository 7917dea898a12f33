//! Retrieval quality on questions whose evidence is known: our node search against plain
//! chunk retrieval (BM25, and MiniLM, over fixed 1,000-character chunks of the same text),
//! each cut to the same token budget. A question counts as found when one of its evidence
//! strings (case and spacing ignored) is inside the budgeted text.

pub mod provenance;

use crate::search::SearchRequest;
use crate::{AppError, Library, Result};
use docindex_core::charmap::CharMap;
use docindex_core::embed::dot;
use docindex_core::model::DocumentIndex;
use docindex_core::qa::{ComputedMetric, ConfidenceLabel};
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
    /// PDF only: the 1-based physical pages that hold the evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<Vec<u32>>,
    /// A reference answer; for a metric, its value first ("1.75 = (184,257 - 2,500) / …").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// metric, judgement or lookup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<String>,
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
    /// For questions that list pages: whether the budgeted text reached one of them.
    pub page_found: HashMap<Method, bool>,
    /// What our search hands a reader within the budget, in order.
    pub handed: Vec<HandedPassage>,
}

/// One passage our search hands a reader, as the evaluation saw it.
#[derive(Debug, Clone, Serialize)]
pub struct HandedPassage {
    pub node_id: String,
    pub title: String,
    pub start_char: usize,
    pub end_char: usize,
    pub start_page: Option<u32>,
    pub end_page: Option<u32>,
    pub tokens: usize,
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

/// The texts, in order, cut to `budget` tokens, with how many of them (the last perhaps in
/// part) made it in and the tokens of each.
fn budgeted_parts(
    texts: impl Iterator<Item = String>,
    budget: usize,
    counter: &TokenCounter,
) -> (String, Vec<usize>) {
    let mut out = String::new();
    let mut used = 0;
    let mut taken = Vec::new();
    for text in texts {
        let tokens = counter.count(&text);
        if used + tokens > budget {
            // The part of the text that still fits.
            let room = budget.saturating_sub(used);
            if room > 0 {
                let cut: String = text.chars().take(room * 4).collect();
                out.push_str(&cut);
                taken.push(room);
            }
            break;
        }
        used += tokens;
        taken.push(tokens);
        out.push_str(&text);
        out.push('\n');
    }
    (out, taken)
}

/// The pages (1-based) a char range of a document is printed on.
fn pages_of(doc: &DocumentIndex, start: usize, end: usize) -> Vec<u32> {
    doc.pages
        .iter()
        .filter(|p| p.span.start_char < end.max(start + 1) && start < p.span.end_char)
        .map(|p| p.page)
        .collect()
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
        let mut doc_cache: HashMap<String, std::sync::Arc<DocumentIndex>> = HashMap::new();
        let mut rows = Vec::new();
        for (i, q) in questions.iter().enumerate() {
            on_progress(i, questions.len());
            let summary = self.resolve(&q.doc)?;
            let evidence: Vec<String> = q.evidence.iter().map(|e| fold(e)).collect();
            let holds = |text: &str| {
                let text = fold(text);
                evidence.iter().any(|e| text.contains(e))
            };
            let doc = match doc_cache.get(&summary.doc_id) {
                Some(doc) => doc.clone(),
                None => {
                    let doc = std::sync::Arc::new(self.document(&summary.doc_id)?);
                    doc_cache.insert(summary.doc_id.clone(), doc.clone());
                    doc
                }
            };
            let wanted_pages = q.pages.clone().unwrap_or_default();
            let on_page = |ranges: &[(usize, usize)]| {
                ranges.iter().any(|&(s, e)| {
                    pages_of(&doc, s, e)
                        .iter()
                        .any(|p| wanted_pages.contains(p))
                })
            };
            let mut found = HashMap::new();
            let mut page_found = HashMap::new();
            let mut handed = Vec::new();
            for method in [Method::Ours, Method::OursRrf, Method::OursNoDense] {
                let mut request = SearchRequest::new(&q.question);
                request.scope.doc = Some(summary.doc_id.clone());
                request.limit = 20;
                if method == Method::OursRrf {
                    request.fusion = Fusion::Rrf;
                }
                if method == Method::OursNoDense {
                    request.without = vec![LegKind::Dense];
                }
                let results = self.search(&request)?;
                let order = crate::search::reading_order(&results.hits, 5);
                // Each section's path is shown once, before its first passage.
                let mut shown_paths = std::collections::HashSet::new();
                let texts: Vec<String> = order
                    .iter()
                    .map(|(hit, passage)| {
                        if shown_paths.insert((hit.doc_id.clone(), hit.node_id.clone())) {
                            format!("{}\n{}", hit.title, passage.text)
                        } else {
                            passage.text.clone()
                        }
                    })
                    .collect();
                let (text, taken) = budgeted_parts(texts.into_iter(), budget, &counter);
                found.insert(method, holds(&text));
                let ranges: Vec<(usize, usize)> = order
                    .iter()
                    .take(taken.len())
                    .map(|(_, p)| (p.start_char, p.end_char))
                    .collect();
                if !wanted_pages.is_empty() {
                    page_found.insert(method, on_page(&ranges));
                }
                if method == Method::Ours {
                    handed = order
                        .iter()
                        .zip(&taken)
                        .map(|((hit, p), tokens)| {
                            let pages = pages_of(&doc, p.start_char, p.end_char);
                            HandedPassage {
                                node_id: hit.node_id.clone(),
                                title: hit.title.clone(),
                                start_char: p.start_char,
                                end_char: p.end_char,
                                start_page: pages.first().copied(),
                                end_page: pages.last().copied(),
                                tokens: *tokens,
                            }
                        })
                        .collect();
                }
            }
            let (chunks, vectors) = match chunk_cache.get(&summary.doc_id) {
                Some(cached) => cached.clone(),
                None => {
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
            let (text, taken) = budgeted_parts(texts, budget, &counter);
            found.insert(Method::Bm25Chunks, holds(&text));
            if !wanted_pages.is_empty() {
                let ranges: Vec<(usize, usize)> = order
                    .iter()
                    .take(taken.len())
                    .map(|&i| (i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS))
                    .collect();
                page_found.insert(Method::Bm25Chunks, on_page(&ranges));
            }
            if let (Some(e), Some(vectors)) = (&embedder, &vectors) {
                let query = e.embed(&[q.question.as_str()]).map_err(AppError::Embed)?;
                let mut scored: Vec<(f32, usize)> = vectors
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (dot(&query[0], v), i))
                    .collect();
                scored.sort_by(|a, b| b.0.total_cmp(&a.0));
                let texts = scored.iter().map(|&(_, i)| chunks[i].clone());
                let (text, taken) = budgeted_parts(texts, budget, &counter);
                found.insert(Method::MiniLmChunks, holds(&text));
                if !wanted_pages.is_empty() {
                    let ranges: Vec<(usize, usize)> = scored
                        .iter()
                        .take(taken.len())
                        .map(|&(_, i)| (i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS))
                        .collect();
                    page_found.insert(Method::MiniLmChunks, on_page(&ranges));
                }
            }
            rows.push(EvalRow {
                question: q.question.clone(),
                doc: summary.doc_name.clone(),
                found,
                page_found,
                handed,
            });
        }
        on_progress(questions.len(), questions.len());
        Ok(rows)
    }
}

/// How the offline answer fared on one question.
#[derive(Debug, Clone, Serialize)]
pub struct AnswerRow {
    pub question: String,
    pub doc: String,
    pub answered: bool,
    /// One of the evidence strings is inside a citation's excerpt.
    pub cites_evidence: bool,
    pub confidence: ConfidenceLabel,
    /// The metrics the answer computed.
    pub computed: Vec<ComputedMetric>,
    /// For a question with a reference answer and a computed metric: whether the first
    /// computed value agrees with the reference's (within 2%, units reconciled).
    pub agrees: Option<bool>,
    /// The engine that answered (the model's when `--model` was given).
    pub engine: docindex_core::model::Engine,
    /// Wall time of the answer.
    pub seconds: f64,
    /// Model tokens the answer took (0 offline).
    pub tokens: u64,
    /// Citations the verification dropped (quotes not found in their section).
    pub citations_dropped: usize,
}

/// Search latency over a question list, library-wide.
#[derive(Debug, Clone, Serialize)]
pub struct Latency {
    pub documents: usize,
    pub searches: usize,
    pub p50_ms: f64,
    pub p95_ms: f64,
}

/// The first figure of a reference answer in the statement's unit: "$59.5B = …" with a
/// statement in millions is 59,500; "27.4% = …" is 27.4; "About 107 days" is 107.
fn reference_value(reference: &str, computed: &ComputedMetric) -> Option<f64> {
    static FIRST: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(-?\$?\d[\d,]*(?:\.\d+)?)\s*(B|bn|billion|M|million|%|x|days)?").ok()
    });
    let caps = FIRST.as_ref()?.captures(reference)?;
    let number: f64 = caps[1].replace(['$', ','], "").parse().ok()?;
    let unit = caps.get(2).map(|m| m.as_str()).unwrap_or("");
    let in_dollars = match unit {
        "B" | "bn" | "billion" => number * 1e9,
        "M" | "million" => number * 1e6,
        _ => return Some(number),
    };
    let scale = match computed.scale.as_deref() {
        Some("thousands") => 1e3,
        Some("billions") => 1e9,
        _ => 1e6,
    };
    Some(in_dollars / scale)
}

/// The computed value in the reference's terms: percent metrics as percent.
fn comparable(computed: &ComputedMetric) -> f64 {
    if computed.shown.ends_with('%') {
        computed.value * 100.0
    } else {
        computed.value
    }
}

fn agrees(reference: &str, computed: &ComputedMetric) -> Option<bool> {
    let expected = reference_value(reference, computed)?;
    let got = comparable(computed);
    // Net debt that is net cash: "Net cash of about $64.0B" against -64,021.
    let matches = |a: f64, b: f64| (a - b).abs() <= 0.02 * a.abs().max(b.abs()).max(1e-9);
    Some(matches(expected, got) || matches(expected, -got))
}

impl Library {
    /// Ask every question offline (scoped to its document) and report whether the answer
    /// cites the evidence, its confidence, and whether a computed metric agrees with the
    /// reference answer.
    pub fn evaluate_answers(
        &self,
        questions: &[EvalQuestion],
        on_progress: &dyn Fn(usize, usize),
    ) -> Result<Vec<AnswerRow>> {
        let mut rows = Vec::new();
        for (i, q) in questions.iter().enumerate() {
            on_progress(i, questions.len());
            let mut scope = SearchRequest::new(&q.question);
            scope.scope.doc = Some(q.doc.clone());
            let started = std::time::Instant::now();
            let answer = self.ask(&q.question, &scope, &|_| {})?;
            let seconds = started.elapsed().as_secs_f64();
            let excerpts = fold(
                &answer
                    .citations
                    .iter()
                    .map(|c| c.excerpt.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            let cites_evidence = q.evidence.iter().any(|e| excerpts.contains(&fold(e)));
            // Only a metric question's reference starts with the metric's value.
            let is_metric = q.style.as_deref().is_none_or(|s| s == "metric");
            let agrees = match (&q.answer, answer.computed.first()) {
                (Some(reference), Some(computed)) if is_metric => agrees(reference, computed),
                _ => None,
            };
            rows.push(AnswerRow {
                question: q.question.clone(),
                doc: q.doc.clone(),
                answered: answer.answered,
                cites_evidence,
                confidence: answer.confidence.label,
                computed: answer.computed,
                agrees,
                engine: answer.engine,
                seconds,
                tokens: answer.tokens_used,
                citations_dropped: answer.citations_dropped,
            });
        }
        on_progress(questions.len(), questions.len());
        Ok(rows)
    }

    /// Library-wide search (all legs) for every question, `repeats` times each: p50 and p95.
    pub fn search_latency(&self, questions: &[EvalQuestion], repeats: usize) -> Result<Latency> {
        let mut millis = Vec::new();
        for q in questions {
            for _ in 0..repeats {
                let started = std::time::Instant::now();
                self.search(&SearchRequest::new(&q.question))?;
                millis.push(started.elapsed().as_secs_f64() * 1000.0);
            }
        }
        millis.sort_by(f64::total_cmp);
        let at = |p: f64| {
            millis
                .get(((millis.len().saturating_sub(1)) as f64 * p).round() as usize)
                .copied()
                .unwrap_or(0.0)
        };
        Ok(Latency {
            documents: self.list()?.len(),
            searches: millis.len(),
            p50_ms: at(0.5),
            p95_ms: at(0.95),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metric(value: f64, shown: &str, scale: Option<&str>) -> ComputedMetric {
        ComputedMetric {
            metric: "m".into(),
            label: "m".into(),
            value,
            shown: shown.into(),
            formula: String::new(),
            worked: String::new(),
            scale: scale.map(str::to_string),
            period: None,
        }
    }

    #[test]
    fn reference_answers_are_read_in_the_statement_unit() {
        let fcf = metric(59475.0, "59,475", Some("millions"));
        assert_eq!(agrees("$59.5B = 87,582 - 28,107", &fcf), Some(true));
        let net_debt = metric(2865878.0, "2,865,878", Some("thousands"));
        assert_eq!(
            agrees("About $2.87B = (35,200 + 6,674,044) - 3,843,366", &net_debt),
            Some(true)
        );
        let payout = metric(0.2736, "27.4%", None);
        assert_eq!(agrees("27.4% = 19,800 / 72,361", &payout), Some(true));
        let quick = metric(1.75, "1.75", None);
        assert_eq!(
            agrees("1.75 = (184,257 - 2,500) / 104,149", &quick),
            Some(true)
        );
        assert_eq!(agrees("2.10 = …", &quick), Some(false));
        let net_cash = metric(-64021.0, "-64,021", Some("millions"));
        assert_eq!(
            agrees("Net cash of about $64.0B = 111,262 - …", &net_cash),
            Some(true)
        );
    }
}
