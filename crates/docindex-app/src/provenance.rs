//! Provenance over one document or the library: every sentence of every section is read for
//! the topic's concept (nothing is skipped, and the coverage says so), hits are reported as
//! they are found, and the report exports to JSON and to CSV that is safe to open in a
//! spreadsheet, one row per excerpt with its own relevance.

use crate::search::SearchRequest;
use crate::{AppError, Library, Result};
use docindex_core::prompts::fit::{batches, Window};
use docindex_core::prompts::provenance::{
    evidence_summary_prompt, judge_prompt, Judgements, Offered,
};
use docindex_core::provenance::topics::{topic_concept, TopicConcept, TopicMatcher};
use docindex_core::provenance::{scan, Evidence, ScanOptions};
use docindex_core::search::{expand, Expansion};
use docindex_core::store::{DocumentStore, DocumentSummary};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// How much of the scope was examined.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Coverage {
    pub documents: usize,
    pub sections_scanned: usize,
    pub sections_total: usize,
    /// Sections a pre-filter kept from the model (always 0 offline: every section is read
    /// by the offline scan; with a model, the sections none of whose sentences it was
    /// shown).
    pub sections_skipped: usize,
    /// Sections with at least one excerpt the model judged (LLM engine only).
    pub sections_judged_by_model: usize,
    /// Excerpts the model judged one by one (LLM engine only).
    #[serde(default)]
    pub excerpts_judged_by_model: usize,
    /// Whether closeness in meaning (local embeddings) was part of the scan.
    pub semantic: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProvenanceReport {
    pub topic: String,
    pub expansion: Expansion,
    /// What the topic was taken to mean: the thesaurus entries and phrases matched.
    #[serde(default)]
    pub concept: TopicConcept,
    pub coverage: Coverage,
    pub evidence: Vec<Evidence>,
    /// Company and period of each document with evidence, for exports.
    pub documents: Vec<DocumentSummary>,
    /// With a model: a short summary of the evidence, written from the excerpts only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

impl ProvenanceReport {
    /// Every excerpt with its section, strongest first (then in document order).
    pub fn rows(&self) -> Vec<(&Evidence, &docindex_core::provenance::TopicExcerpt)> {
        let mut rows: Vec<_> = self
            .evidence
            .iter()
            .flat_map(|e| e.excerpts.iter().map(move |x| (e, x)))
            .collect();
        rows.sort_by(|a, b| {
            b.1.relevance
                .total_cmp(&a.1.relevance)
                .then(a.0.doc_name.cmp(&b.0.doc_name))
                .then(a.1.start_char.cmp(&b.1.start_char))
        });
        rows
    }
}

/// Something that happened during a scan.
pub enum ProvenanceEvent<'a> {
    Progress { done: usize, total: usize },
    Hit(&'a Evidence),
}

impl Library {
    /// Scan every section of the documents `scope` selects for `topic`.
    pub fn provenance(
        &self,
        topic: &str,
        scope: &SearchRequest,
        options: ScanOptions,
        on_event: &dyn Fn(ProvenanceEvent),
    ) -> Result<ProvenanceReport> {
        crate::within_length("topic", topic, crate::MAX_TOPIC_CHARS)?;
        let docs = self.scope(&scope.scope)?;
        let ids: Vec<String> = docs.iter().map(|d| d.doc_id.clone()).collect();
        let dictionary = self.store.dictionary_pairs(Some(&ids))?;
        let expansion = expand(topic, &dictionary);
        let concept = topic_concept(topic, &dictionary).map_err(AppError::Topic)?;
        let matcher = TopicMatcher::new(&concept);
        let closeness_by_doc = self.closeness(topic, &ids);
        let semantic = !matches!(closeness_by_doc, Closeness::Unknown);
        let total: usize = docs.iter().map(|d| d.node_count).sum();
        let llm = self.llm.clone().filter(|_| scope.use_model);
        let model_used = llm.is_some();
        // With a model, the offline scan is the wide net: every sentence with a concept
        // term, at a low bar, then the model judges each excerpt.
        let options = match llm {
            Some(_) => ScanOptions {
                threshold: PREFILTER_THRESHOLD,
                related_everywhere: true,
            },
            None => options,
        };
        let mut scanned = 0;
        let mut evidence = Vec::new();
        for summary in &docs {
            if self.cancel.load(std::sync::atomic::Ordering::SeqCst) {
                break;
            }
            let Some(doc) = self.store.get(&summary.doc_id)? else {
                continue;
            };
            let closeness = closeness_by_doc.of(&doc.doc_id);
            let base = scanned;
            let streaming = llm.is_none();
            let found = scan(&doc, &matcher, &closeness, options, &mut |done, _, hit| {
                if let (Some(hit), true) = (hit, streaming) {
                    on_event(ProvenanceEvent::Hit(hit));
                }
                on_event(ProvenanceEvent::Progress {
                    done: base + done,
                    total,
                });
            });
            scanned += doc.nodes.len();
            evidence.extend(found);
        }
        let mut judged_sections = 0;
        let mut judged_excerpts = 0;
        let mut summary = None;
        if let Some(llm) = llm {
            judged_sections = evidence.len();
            judged_excerpts = evidence.iter().map(|e| e.excerpts.len()).sum();
            evidence = judge_with_llm(llm.as_ref(), &concept, evidence, on_event)?;
            summary = summarize_evidence(llm.as_ref(), topic, &evidence)?;
        }
        evidence.sort_by(|a, b| b.relevance.total_cmp(&a.relevance));
        let with_evidence: Vec<DocumentSummary> = docs
            .iter()
            .filter(|d| evidence.iter().any(|e| e.doc_id == d.doc_id))
            .cloned()
            .collect();
        Ok(ProvenanceReport {
            topic: topic.to_string(),
            expansion,
            concept,
            coverage: Coverage {
                documents: docs.len(),
                sections_scanned: scanned,
                sections_total: total,
                sections_skipped: if model_used {
                    scanned - judged_sections
                } else {
                    0
                },
                sections_judged_by_model: judged_sections,
                excerpts_judged_by_model: judged_excerpts,
                semantic,
            },
            evidence,
            documents: with_evidence,
            summary,
        })
    }

    /// One report per category, each scanning every section.
    pub fn provenance_by_category(
        &self,
        categories: &[String],
        scope: &SearchRequest,
        options: ScanOptions,
    ) -> Result<Vec<ProvenanceReport>> {
        categories
            .iter()
            .map(|c| self.provenance(c, scope, options, &|_| {}))
            .collect()
    }

    /// Per document, per node: the best cosine similarity of its chunks to `topic`.
    /// Unknown when the model or the vectors are not there.
    fn closeness(&self, topic: &str, ids: &[String]) -> Closeness {
        let Ok(embedder) = self.embedder() else {
            return Closeness::Unknown;
        };
        let Some(query) = embedder.embed(&[topic]).ok().and_then(|mut v| v.pop()) else {
            return Closeness::Unknown;
        };
        if self.uses_vector_store() {
            let nearest = match self.nearest_in_store(embedder.model_id(), &query, ids, None) {
                Ok(Some(nearest)) => nearest,
                Ok(None) => return Closeness::Unknown,
                Err(e) => {
                    tracing::warn!("provenance without closeness in meaning: {e}");
                    return Closeness::Unknown;
                }
            };
            let mut out = HashMap::new();
            for n in nearest {
                keep_best(&mut out, n.doc_id, n.node_id, n.similarity);
            }
            return Closeness::Known(out);
        }
        match self.dense_index(embedder.model_id()) {
            Ok(index) if !index.is_empty() => Closeness::PerDocument { index, query },
            _ => Closeness::Unknown,
        }
    }
}

/// How close in meaning each node of a document is to the topic.
enum Closeness {
    Unknown,
    /// Known for every document at once (a shared vector store answers one query).
    Known(HashMap<String, HashMap<String, f32>>),
    /// Read from the library's dense index one document at a time, as the scan reaches it:
    /// the first hits do not wait for every vector of a large library.
    PerDocument {
        index: std::sync::Arc<docindex_store::DenseIndex>,
        query: Vec<f32>,
    },
}

impl Closeness {
    /// Node id to its closest chunk's similarity, for `doc_id`.
    fn of(&self, doc_id: &str) -> HashMap<String, f32> {
        match self {
            Closeness::Unknown => HashMap::new(),
            Closeness::Known(all) => all.get(doc_id).cloned().unwrap_or_default(),
            Closeness::PerDocument { index, query } => {
                let hits = index
                    .nearest_exhaustive(query, &|d| d == doc_id, index.len())
                    .map_err(|e| tracing::warn!("provenance without closeness in meaning: {e}"))
                    .unwrap_or_default();
                let mut out = HashMap::new();
                for hit in hits {
                    keep_best(&mut out, hit.doc_id, hit.node_id, hit.similarity);
                }
                out.remove(doc_id).unwrap_or_default()
            }
        }
    }
}

/// A node's closeness is its closest chunk's.
fn keep_best(
    out: &mut HashMap<String, HashMap<String, f32>>,
    doc_id: String,
    node_id: String,
    similarity: f32,
) {
    let best = out
        .entry(doc_id)
        .or_default()
        .entry(node_id)
        .or_insert(f32::MIN);
    *best = best.max(similarity);
}

/// With a model, excerpts the offline scan rates at least this relevant are sent to it.
const PREFILTER_THRESHOLD: f64 = 0.3;
/// Seed 000's provenance threshold for the model's relevance.
const MODEL_THRESHOLD: f64 = 0.6;
/// Excerpts per request, and the characters of each the model sees.
const JUDGE_BATCH: usize = 10;
const JUDGE_EXCERPT_CHARS: usize = 1200;

/// The model judges every candidate excerpt (in batches of ten); those it rates at least
/// `MODEL_THRESHOLD` are the evidence, each section reported as soon as one of its
/// excerpts is confirmed.
fn judge_with_llm(
    llm: &dyn docindex_core::llm::Llm,
    concept: &TopicConcept,
    candidates: Vec<Evidence>,
    on_event: &dyn Fn(ProvenanceEvent),
) -> Result<Vec<Evidence>> {
    let slots: Vec<(usize, usize)> = candidates
        .iter()
        .enumerate()
        .flat_map(|(e, ev)| (0..ev.excerpts.len()).map(move |x| (e, x)))
        .collect();
    let mut verdicts: HashMap<(usize, usize), (f64, String)> = HashMap::new();
    let terms: Vec<String> = concept.core.iter().take(20).cloned().collect();
    let offered_in = |range: std::ops::Range<usize>| -> Vec<Offered> {
        slots[range.clone()]
            .iter()
            .zip(range)
            .map(|(&(e, x), at)| Offered {
                id: format!("X{}", at + 1),
                path: candidates[e].path.clone(),
                text: candidates[e].excerpts[x]
                    .text
                    .chars()
                    .take(JUDGE_EXCERPT_CHARS)
                    .collect(),
            })
            .collect()
    };
    let judge = |offered: &[Offered]| judge_prompt(&concept.topic, &terms, offered);
    // Batches as large as the model's window holds (a small local model's is small).
    let window = Window::of(llm);
    let ranges = batches(window.as_ref(), slots.len(), JUDGE_BATCH, &|range| {
        judge(&offered_in(range))
    });
    for range in ranges {
        let batch = &slots[range.clone()];
        let offered = offered_in(range);
        let reply = docindex_core::llm::json::complete_json::<Judgements>(
            llm,
            &Window::cap(window.as_ref(), judge(&offered)),
        )
        .map_err(AppError::Llm)?;
        for j in reply.value.judgements {
            let Some(i) = offered.iter().position(|o| o.id == j.id) else {
                tracing::warn!(
                    "provenance: the model judged {:?}, which it was not shown; ignored",
                    j.id
                );
                continue;
            };
            verdicts.insert(batch[i], (j.relevance.clamp(0.0, 1.0), j.reason));
        }
    }
    let mut kept = Vec::new();
    for (e, mut evidence) in candidates.into_iter().enumerate() {
        let excerpts: Vec<_> = std::mem::take(&mut evidence.excerpts)
            .into_iter()
            .enumerate()
            .filter_map(|(x, mut excerpt)| {
                let (relevance, reason) = verdicts.remove(&(e, x))?;
                (relevance >= MODEL_THRESHOLD).then(|| {
                    excerpt.relevance = relevance;
                    excerpt.reason = reason;
                    excerpt
                })
            })
            .collect();
        if excerpts.is_empty() {
            continue;
        }
        evidence.relevance = excerpts.iter().map(|x| x.relevance).fold(0.0, f64::max);
        evidence.reason = format!(
            "the model confirmed {} of the section's excerpts",
            excerpts.len()
        );
        evidence.excerpts = excerpts;
        evidence.engine = docindex_core::model::Engine::Llm;
        on_event(ProvenanceEvent::Hit(&evidence));
        kept.push(evidence);
    }
    Ok(kept)
}

/// One call: a few sentences on what the evidence says, from its excerpts only.
fn summarize_evidence(
    llm: &dyn docindex_core::llm::Llm,
    topic: &str,
    evidence: &[Evidence],
) -> Result<Option<String>> {
    if evidence.is_empty() {
        return Ok(None);
    }
    let mut listing = String::new();
    for (i, e) in evidence.iter().take(15).enumerate() {
        let excerpts: Vec<&str> = e.excerpts.iter().map(|x| x.text.as_str()).collect();
        listing.push_str(&format!(
            "[E{}] {}: {}\n",
            i + 1,
            e.path,
            excerpts.join(" … ")
        ));
    }
    let request = evidence_summary_prompt(topic, &listing);
    let reply = llm.complete(&request).map_err(AppError::Llm)?;
    let text = reply.text.trim().to_string();
    Ok((!text.is_empty()).then_some(text))
}

/// A cell a spreadsheet would run as a formula gets a leading apostrophe. Line breaks stay
/// (the writer quotes the cell), so an excerpt cell is exactly its span of the source.
fn safe_cell(text: &str) -> String {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.to_string(),
    }
}

/// The report as CSV: one row per excerpt, strongest first.
pub fn to_csv(report: &ProvenanceReport) -> Result<String> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let csv_err = |e: csv::Error| AppError::Settings(format!("CSV: {e}"));
    writer
        .write_record([
            "document",
            "company",
            "period",
            "node_id",
            "section_path",
            "pages",
            "start_char",
            "end_char",
            "relevance",
            "excerpt",
            "reason",
            "section_relevance",
        ])
        .map_err(csv_err)?;
    for (e, x) in report.rows() {
        let doc = report.documents.iter().find(|d| d.doc_id == e.doc_id);
        let pages = match (e.start_page, e.end_page) {
            (Some(a), Some(b)) if a == b => a.to_string(),
            (Some(a), Some(b)) => format!("{a}-{b}"),
            _ => String::new(),
        };
        writer
            .write_record([
                safe_cell(&e.doc_name),
                safe_cell(doc.and_then(|d| d.company_name.as_deref()).unwrap_or("")),
                safe_cell(doc.and_then(|d| d.period_end_date.as_deref()).unwrap_or("")),
                e.node_id.clone(),
                safe_cell(&e.path),
                pages,
                x.start_char.to_string(),
                x.end_char.to_string(),
                format!("{:.3}", x.relevance),
                safe_cell(&x.text),
                safe_cell(&x.reason),
                format!("{:.3}", e.relevance),
            ])
            .map_err(csv_err)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| AppError::Settings(format!("CSV: {e}")))?;
    String::from_utf8(bytes).map_err(|e| AppError::Settings(format!("CSV: {e}")))
}

#[cfg(test)]
mod tests {
    use super::safe_cell;

    #[test]
    fn formula_cells_are_neutralised() {
        assert_eq!(safe_cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(safe_cell("+1"), "'+1");
        assert_eq!(safe_cell("-(1,234)"), "'-(1,234)");
        assert_eq!(safe_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(safe_cell("Net sales"), "Net sales");
        assert_eq!(safe_cell("a\nb"), "a\nb");
    }
}
