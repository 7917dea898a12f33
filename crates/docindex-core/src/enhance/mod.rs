//! LLM-enhanced indexing: structure refinement where the parsers are unsure, abstractive
//! summaries bottom-up, a description with metadata gaps filled, and cross-references the
//! patterns could not resolve. Every reply is checked against the text and the tree before
//! it changes anything; what fails a check is dropped, logged and counted.

mod inputs;
mod replies;
pub mod retry;

use inputs::*;
use replies::*;

use crate::error::{IngestError, Result};
use crate::ingest::{BlockKind, Canonical};
use crate::llm::json::complete_json;
use crate::llm::{Llm, LlmError, LlmRequest, UsageMeter};
use crate::model::NodeOrigin;
use crate::model::{
    CrossRef, CrossRefKind, DocType, Engine, FailedStage, LlmEnhancement, LlmStage, Metadata, Node,
};
use crate::progress::{ProgressSink, Stage};
use crate::prompts::enhance::{self as prompts, BlockLine, RefInput, SummaryInput};
use crate::structure::{self, Entry, Section, TreeSettings};
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Knobs of LLM-enhanced indexing. They change what the model is asked, so they are part
/// of the index settings key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LlmOptions {
    /// Requests this job keeps in flight at once.
    pub concurrency: usize,
    /// Nodes with at most this many tokens keep their own text as summary.
    pub summary_min_tokens: usize,
    /// Prompt budget of one summary batch, in tokens (estimated at 4 characters each).
    pub batch_prompt_tokens: usize,
    /// A leaf's text is cut to this many tokens for its summary.
    pub leaf_text_tokens: usize,
    /// Characters of block listing per structure request.
    pub structure_window_chars: usize,
}

impl Default for LlmOptions {
    fn default() -> Self {
        LlmOptions {
            concurrency: 4,
            summary_min_tokens: 120,
            batch_prompt_tokens: 6000,
            leaf_text_tokens: 1200,
            structure_window_chars: 16_000,
        }
    }
}

impl LlmOptions {
    pub fn key(&self) -> String {
        format!(
            "summary_min_tokens={};batch={};leaf={};window={}",
            self.summary_min_tokens,
            self.batch_prompt_tokens,
            self.leaf_text_tokens,
            self.structure_window_chars
        )
    }
}

impl LlmOptions {
    /// These options for a model whose context window is `window` tokens: batches, leaf
    /// texts and structure windows small enough that each prompt and the reply it asks for
    /// fit with room to spare (prompts are estimated at 4 characters a token, which filings'
    /// figures outrun, so only two thirds of the room is planned for).
    pub fn fitted_to(self, window: usize) -> LlmOptions {
        let room = ((window as f64 * crate::prompts::fit::USABLE_SHARE) as usize)
            .saturating_sub(reply_cap(window) as usize);
        let batch = (room * 2 / 3).max(256);
        LlmOptions {
            batch_prompt_tokens: self.batch_prompt_tokens.min(batch),
            leaf_text_tokens: self.leaf_text_tokens.min(batch / 2),
            structure_window_chars: self.structure_window_chars.min(batch * 3),
            ..self
        }
    }
}

/// What one summary of a batch's reply costs, at most (sixty words in JSON).
const REPLY_TOKENS_PER_SUMMARY: usize = 100;

/// The most reply tokens a request to a model with this window asks for.
fn reply_cap(window: usize) -> u32 {
    (window / 4).max(256) as u32
}

/// A document as the parsers left it, for the structure stage.
pub struct Parsed<'a> {
    pub canonical: &'a Canonical,
    /// Token count of each block.
    pub block_tokens: &'a [usize],
    pub doc_type: DocType,
    pub tree: TreeSettings,
}

/// Provider failures in a row, with no success in between, after which a stage stops
/// rather than wait out every request's retries: the provider looks down.
pub const PROVIDER_DOWN_AFTER: usize = 6;

/// One document's LLM stages, sharing a usage meter and a report.
pub struct Enhancer<'a> {
    llm: &'a dyn Llm,
    options: LlmOptions,
    /// The most reply tokens a request may ask for, for a model with a known window.
    reply_cap: Option<u32>,
    meter: UsageMeter,
    report: LlmEnhancement,
    /// Requests of the stage under way that the provider failed (retries exhausted), of how
    /// many, and the first reason; [`Enhancer::tolerate`] turns it into a failed stage.
    unfinished: Option<(usize, usize, LlmError)>,
}

impl<'a> Enhancer<'a> {
    /// Options are fitted to the model's context window when the server tells it.
    pub fn new(llm: &'a dyn Llm, options: LlmOptions) -> Self {
        let window = llm.context_window();
        Enhancer {
            llm,
            options: window.map_or(options, |w| options.fitted_to(w)),
            reply_cap: window.map(reply_cap),
            meter: UsageMeter::default(),
            report: LlmEnhancement {
                model: llm.model().to_string(),
                ..LlmEnhancement::default()
            },
            unfinished: None,
        }
    }

    /// The result of a stage: a provider failure that retries did not cure (outage, rate
    /// limits, timeouts, unusable replies) is recorded and the offline result stands
    /// (`None`); rejected credentials, a wrong model, cancellation and our own errors stop
    /// the job. A stage some of whose requests failed keeps what the others returned and
    /// is recorded as failed, so `enhance` retries it.
    pub fn tolerate<T>(&mut self, stage: LlmStage, result: Result<T>) -> Result<Option<T>> {
        let unfinished = self.unfinished.take();
        match result {
            Ok(value) => {
                if let Some((failed, total, e)) = unfinished {
                    tracing::warn!(
                        "{}: {failed} of {total} requests failed ({e}); what the others returned is kept",
                        stage.as_str()
                    );
                    self.report.stages_failed.retain(|f| f.stage != stage);
                    self.report.stages_failed.push(FailedStage {
                        stage,
                        reason: format!("{failed} of {total} requests failed: {e}"),
                    });
                }
                Ok(Some(value))
            }
            Err(IngestError::Llm(e)) if e.fault() == crate::Fault::Runtime => {
                tracing::warn!("{}: {e}; the offline result is kept", stage.as_str());
                self.report.stages_failed.retain(|f| f.stage != stage);
                self.report.stages_failed.push(FailedStage {
                    stage,
                    reason: e.to_string(),
                });
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// A stage that succeeded on a retry is no longer failed.
    pub fn stage_done(&mut self, stage: LlmStage) {
        self.report.stages_failed.retain(|f| f.stage != stage);
    }

    /// Start from what an earlier run reported (retrying its failed stages).
    pub fn resume(&mut self, earlier: &LlmEnhancement) {
        let model = self.report.model.clone();
        self.report = earlier.clone();
        self.report.model = model;
        self.meter = UsageMeter::default();
    }

    pub fn finish(mut self) -> LlmEnhancement {
        self.report.usage = self.meter.totals();
        self.report
    }

    /// Ask for JSON of type `T` for each request, `concurrency` at a time, reporting
    /// progress on `stage`. A reply still unusable after the corrective re-ask is `None`
    /// (and counted). A request the provider failed after its retries (an outage, rate
    /// limits) is `None` too and the stage goes on, unless [`PROVIDER_DOWN_AFTER`] fail in a
    /// row; any other failure stops the job.
    fn run_batches<T: DeserializeOwned + Send>(
        &mut self,
        requests: &[LlmRequest],
        stage: Stage,
        plan: Plan<'_>,
        progress: &mut dyn ProgressSink,
    ) -> Result<Vec<Option<T>>> {
        let total = requests.len();
        let mut results: Vec<Option<T>> = (0..total).map(|_| None).collect();
        if total == 0 {
            return Ok(results);
        }
        let (units_total, weight) = match plan {
            Plan::Each => (total as u64, None),
            Plan::Weighted { total, weights, .. } => (total, Some(weights)),
        };
        let mut done = match plan {
            Plan::Weighted { base, .. } => base,
            Plan::Each => 0,
        };
        progress.stage(stage, done, units_total);
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let llm = self.llm;
        let reply_cap = self.reply_cap;
        let meter = &self.meter;
        let workers = self.options.concurrency.clamp(1, total);
        let mut fatal: Option<IngestError> = None;
        let mut failed = 0;
        let mut failed_in_a_row = 0;
        let mut provider_failed: Option<(usize, LlmError)> = None;
        std::thread::scope(|scope| {
            let (sender, receiver) = mpsc::channel();
            let mut handles = Vec::with_capacity(workers);
            for _ in 0..workers {
                let sender = sender.clone();
                let (next, stop) = (&next, &stop);
                handles.push(scope.spawn(move || loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(request) = requests.get(i) else {
                        break;
                    };
                    let capped;
                    let request = match reply_cap {
                        Some(cap) if request.max_tokens > cap => {
                            capped = request.clone().with_max_tokens(cap);
                            &capped
                        }
                        _ => request,
                    };
                    let outcome = complete_json::<T>(llm, request).map(|reply| {
                        for r in &reply.replies {
                            meter.record(r);
                        }
                        reply.value
                    });
                    if sender.send((i, outcome)).is_err() {
                        break;
                    }
                }));
            }
            drop(sender);
            for (i, outcome) in receiver {
                done += weight.map_or(1, |w| w.get(i).copied().unwrap_or(1));
                match outcome {
                    Ok(value) => {
                        results[i] = Some(value);
                        failed_in_a_row = 0;
                    }
                    Err(LlmError::BadReply(why)) => {
                        tracing::warn!("{}: {stage:?} batch {i} skipped: {why}", llm.model());
                        failed += 1;
                    }
                    Err(LlmError::Cancelled) => {
                        fatal.get_or_insert(IngestError::Cancelled);
                        stop.store(true, Ordering::Relaxed);
                    }
                    Err(e) if e.fault() == crate::Fault::Runtime => {
                        tracing::warn!("{}: {stage:?} batch {i} failed: {e}", llm.model());
                        let count = provider_failed.as_ref().map_or(0, |(n, _)| *n) + 1;
                        failed_in_a_row += 1;
                        if failed_in_a_row >= PROVIDER_DOWN_AFTER {
                            // The provider looks down: stop rather than wait out every retry.
                            fatal.get_or_insert(IngestError::Llm(e));
                            stop.store(true, Ordering::Relaxed);
                        } else {
                            match &mut provider_failed {
                                Some((n, _)) => *n = count,
                                None => provider_failed = Some((count, e)),
                            }
                        }
                    }
                    Err(e) => {
                        fatal.get_or_insert(IngestError::Llm(e));
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                progress.stage(stage, done, units_total);
                if progress.cancelled() {
                    fatal.get_or_insert(IngestError::Cancelled);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            // A worker's panic goes on with its own message, so whoever contains it (the
            // app, per file) can say what went wrong, not only that a thread panicked.
            for handle in handles {
                if let Err(payload) = handle.join() {
                    std::panic::resume_unwind(payload);
                }
            }
        });
        self.report.batches_failed += failed;
        if let Some((count, e)) = provider_failed {
            self.report.batches_failed += count;
            self.unfinished = Some(match self.unfinished.take() {
                Some((before, before_total, first)) => {
                    (before + count, before_total + total, first)
                }
                None => (count, total, e),
            });
        }
        match fatal {
            Some(e) => Err(e),
            None => Ok(results),
        }
    }

    /// Re-split the parts of the tree the parsers were unsure of: sections cut only by
    /// size, or the whole document when no structure was recognised. The model names
    /// heading blocks; a heading counts only if its block's text starts with it.
    pub fn refine_structure(
        &mut self,
        parsed: &Parsed<'_>,
        sections: Vec<Section>,
        doc_name: &str,
        progress: &mut dyn ProgressSink,
    ) -> Result<Vec<Section>> {
        let (c, tokens) = (parsed.canonical, parsed.block_tokens);
        let (doc_type, tree) = (parsed.doc_type, parsed.tree);
        let whole_document = sections
            .iter()
            .all(|s| matches!(s.origin, NodeOrigin::SizeSplit | NodeOrigin::FrontMatter));
        let mut regions: Vec<(Vec<usize>, std::ops::Range<usize>, String)> = Vec::new();
        if whole_document {
            regions.push((Vec::new(), 0..c.blocks.len(), doc_name.to_string()));
        } else {
            for (i, s) in sections.iter().enumerate() {
                unsure_regions(s, vec![i], &mut regions);
            }
        }
        if regions.is_empty() {
            return Ok(sections);
        }
        self.report.regions_refined = regions.len();
        progress.message(
            Stage::Refine,
            &format!(
                "{} part(s) without recognised structure: asking the model for headings",
                regions.len()
            ),
        );
        let mut windows: Vec<(usize, HashSet<usize>)> = Vec::new();
        let mut requests = Vec::new();
        for (r, (_, blocks, title)) in regions.iter().enumerate() {
            for lines in block_windows(c, blocks.clone(), self.options.structure_window_chars) {
                windows.push((r, lines.iter().map(|l| l.block).collect()));
                requests.push(prompts::structure(doc_name, title, &lines));
            }
        }
        let replies: Vec<Option<HeadingsReply>> =
            self.run_batches(&requests, Stage::Refine, Plan::Each, progress)?;
        let mut entries_by_region: Vec<Vec<Entry>> = vec![Vec::new(); regions.len()];
        for ((region, offered), reply) in windows.iter().zip(replies) {
            for heading in reply.map(|r| r.headings).unwrap_or_default() {
                if !offered.contains(&heading.block) {
                    tracing::warn!(
                        "{doc_name}: the model named block {} which it was not shown; dropped",
                        heading.block
                    );
                    self.report.unknown_ids_dropped += 1;
                    continue;
                }
                match confirmed_title(c.block_text(heading.block), &heading.title) {
                    Some(title) => entries_by_region[*region].push(Entry {
                        block: heading.block,
                        title,
                        level: heading.level.clamp(1, 4) - 1,
                        origin: NodeOrigin::Llm,
                    }),
                    None => {
                        tracing::info!(
                            "{doc_name}: heading {:?} is not at block {}; rejected",
                            heading.title,
                            heading.block
                        );
                        self.report.headings_rejected += 1;
                    }
                }
            }
        }
        self.report.headings_added = entries_by_region.iter().map(Vec::len).sum();
        if whole_document {
            let entries = entries_by_region.swap_remove(0);
            if entries.is_empty() {
                return Ok(sections);
            }
            return Ok(structure::top_level_from(
                c, tokens, &entries, tree, doc_type,
            ));
        }
        let mut sections = sections;
        for ((path, _, _), entries) in regions.iter().zip(entries_by_region) {
            if entries.is_empty() {
                continue;
            }
            if let Some(slot) = section_at(&mut sections, path) {
                let mut section = std::mem::replace(
                    slot,
                    Section {
                        title: String::new(),
                        blocks: 0..0,
                        origin: NodeOrigin::SizeSplit,
                        children: Vec::new(),
                    },
                );
                section.children.clear();
                *slot = structure::resplit(c, tokens, section, &entries, tree, doc_type);
            }
        }
        Ok(sections)
    }

    /// Abstractive summaries, deepest level first so parents read their children's. Nodes
    /// of at most `summary_min_tokens` keep their own text. `own_texts[i]` is node `i`'s
    /// text before its first child, without its title.
    pub fn summarize(
        &mut self,
        nodes: &mut [Node],
        own_texts: &[&str],
        paths: &[String],
        doc_title: &str,
        progress: &mut dyn ProgressSink,
    ) -> Result<()> {
        let index: BTreeMap<String, usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.node_id.clone(), i))
            .collect();
        let deepest = nodes.iter().map(|n| n.level).max().unwrap_or(0);
        let wanted: Vec<usize> = (0..nodes.len())
            .filter(|&i| nodes[i].token_count > self.options.summary_min_tokens)
            .collect();
        // Every wanted section is summarised anew (a resumed report's counts are of an
        // earlier run of this stage).
        self.report.summaries_written = 0;
        self.report.summaries_missing = 0;
        progress.stage(Stage::Summaries, 0, wanted.len() as u64);
        progress.message(
            Stage::Summaries,
            &format!(
                "{} of {} sections need a summary; the rest keep their own text",
                wanted.len(),
                nodes.len()
            ),
        );
        let mut finished = 0u64;
        for level in (0..=deepest).rev() {
            let mut inputs = Vec::new();
            for &i in wanted.iter().filter(|&&i| nodes[i].level == level) {
                let node = &nodes[i];
                let leaf = node.children.is_empty();
                let budget = if leaf {
                    self.options.leaf_text_tokens
                } else {
                    300
                };
                let children = node
                    .children
                    .iter()
                    .filter_map(|id| index.get(id))
                    .map(|&c| (nodes[c].title.clone(), nodes[c].summary.clone()))
                    .collect();
                inputs.push(SummaryInput {
                    node_id: node.node_id.clone(),
                    path: paths[i].clone(),
                    text: cut_to_tokens(&compact(own_texts[i]), budget).to_string(),
                    children,
                });
            }
            // A batch's reply must fit the reply a small window allows: about a hundred
            // tokens a summary (sixty words, in JSON), or the reply is cut and lost.
            let most = self.reply_cap.map_or(usize::MAX, |cap| {
                (cap as usize / REPLY_TOKENS_PER_SUMMARY).max(1)
            });
            let level_total = inputs.len() as u64;
            // A small model's reply often stops after a few of a batch's sections: those it
            // left out are asked again once, on their own batches.
            let mut pending = inputs;
            for round in 0..2 {
                if pending.is_empty() {
                    break;
                }
                if round > 0 {
                    progress.message(
                        Stage::Summaries,
                        &format!(
                            "asking again for {} section(s) the model's replies left out",
                            pending.len()
                        ),
                    );
                }
                let batches = pack(pending, self.options.batch_prompt_tokens, most);
                let requests: Vec<LlmRequest> = batches
                    .iter()
                    .map(|b| prompts::summaries(doc_title, b))
                    .collect();
                // Progress counts each section once, when its first batch comes back.
                let weights: Vec<u64> = batches
                    .iter()
                    .map(|b| if round == 0 { b.len() as u64 } else { 0 })
                    .collect();
                let plan = Plan::Weighted {
                    total: wanted.len() as u64,
                    base: finished,
                    weights: &weights,
                };
                let replies: Vec<Option<SummariesReply>> =
                    self.run_batches(&requests, Stage::Summaries, plan, progress)?;
                let mut left_out = Vec::new();
                for (batch, reply) in batches.into_iter().zip(replies) {
                    let answered = reply.is_some();
                    let written =
                        self.write_summaries(batch.as_slice(), reply, nodes, &index, doc_title);
                    // A batch that failed outright is counted as failed, not asked again.
                    if answered {
                        left_out
                            .extend(batch.into_iter().filter(|s| !written.contains(&s.node_id)));
                    }
                }
                if round == 1 {
                    self.report.summaries_missing += left_out.len();
                    left_out.clear();
                }
                pending = left_out;
            }
            finished += level_total;
            if progress.cancelled() {
                return Err(IngestError::Cancelled);
            }
        }
        progress.stage(Stage::Summaries, wanted.len() as u64, wanted.len() as u64);
        Ok(())
    }

    /// Writes the summaries of `reply` to the sections of `batch` it names; returns the ids
    /// written. A summary for a section not asked is dropped and counted.
    fn write_summaries(
        &mut self,
        batch: &[SummaryInput],
        reply: Option<SummariesReply>,
        nodes: &mut [Node],
        index: &BTreeMap<String, usize>,
        doc_title: &str,
    ) -> HashSet<String> {
        let asked: HashSet<&str> = batch.iter().map(|s| s.node_id.as_str()).collect();
        let mut written = HashSet::new();
        for item in reply.map(|r| r.summaries).unwrap_or_default() {
            let summary = item
                .summary
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            match index.get(&item.node_id) {
                Some(&i) if asked.contains(item.node_id.as_str()) && !summary.is_empty() => {
                    nodes[i].summary = cut_chars(&summary, 800);
                    nodes[i].summary_engine = Engine::Llm;
                    if written.insert(item.node_id.clone()) {
                        self.report.summaries_written += 1;
                    }
                }
                _ => {
                    tracing::warn!(
                        "{doc_title}: summary for unknown or unasked node {:?} dropped",
                        item.node_id
                    );
                    self.report.unknown_ids_dropped += 1;
                }
            }
        }
        written
    }

    /// A one-sentence description and the metadata fields the parsers left empty. Values
    /// must be supported by the text: names and tickers appear in it, dates are dates.
    pub fn profile(
        &mut self,
        text: &str,
        doc_name: &str,
        doc_type: DocType,
        metadata: &mut Metadata,
        nodes: &[Node],
        progress: &mut dyn ProgressSink,
    ) -> Result<Option<String>> {
        let missing = missing_fields(metadata);
        let known = known_fields(metadata);
        let outline: String = nodes
            .iter()
            .filter(|n| n.level == 0)
            .take(40)
            .map(|n| format!("- {}: {}\n", n.title, cut_chars(&n.summary, 160)))
            .collect();
        let request = prompts::profile(
            doc_name,
            doc_type.as_str(),
            &known,
            &missing,
            &outline,
            cut_to_tokens(&compact(cut_to_tokens(text, 3000)), 1500),
        );
        let reply: Option<ProfileReply> = self
            .run_batches(&[request], Stage::Describe, Plan::Each, progress)?
            .pop()
            .flatten();
        let Some(reply) = reply else {
            return Ok(None);
        };
        let folded = fold(text);
        let mut accept = |field: &str, ok: bool| {
            if ok {
                self.report.metadata_filled.push(field.to_string());
                metadata
                    .sources
                    .insert(field.to_string(), "llm".to_string());
            } else {
                self.report.metadata_rejected += 1;
                tracing::info!("{doc_name}: model value for {field} not supported by the text");
            }
            ok
        };
        if let Some(v) = reply
            .company_name
            .filter(|_| missing.contains(&"company_name"))
        {
            if accept("company_name", folded.contains(&fold(&v))) {
                metadata.company_name = Some(v.trim().to_string());
            }
        }
        if let Some(v) = reply.ticker.filter(|_| missing.contains(&"ticker")) {
            let ok = v.len() <= 6
                && v.chars().all(|c| c.is_ascii_uppercase() || c == '.')
                && text
                    .split(|c: char| !c.is_ascii_alphanumeric() && c != '.')
                    .any(|w| w == v);
            if accept("ticker", ok) {
                metadata.ticker = Some(v);
            }
        }
        for (field, value) in [
            ("filing_date", reply.filing_date),
            ("period_end_date", reply.period_end_date),
        ] {
            let Some(v) = value.filter(|_| missing.contains(&field)) else {
                continue;
            };
            if accept(field, is_iso_date(&v)) {
                match field {
                    "filing_date" => metadata.filing_date = Some(v),
                    _ => metadata.period_end_date = Some(v),
                }
            }
        }
        if let Some(v) = reply
            .fiscal_year
            .filter(|_| missing.contains(&"fiscal_year"))
        {
            if accept(
                "fiscal_year",
                (1900..=2100).contains(&v) && text.contains(&v.to_string()),
            ) {
                metadata.fiscal_year = Some(v);
            }
        }
        if let Some(v) = reply
            .fiscal_quarter
            .filter(|_| missing.contains(&"fiscal_quarter"))
        {
            if accept("fiscal_quarter", (1..=4).contains(&v)) {
                metadata.fiscal_quarter = Some(v);
            }
        }
        if missing.contains(&"key_people") {
            let people: Vec<String> = reply
                .key_people
                .unwrap_or_default()
                .into_iter()
                .filter(|p| !p.trim().is_empty())
                .collect();
            let supported: Vec<String> = people
                .iter()
                .filter(|p| folded.contains(&fold(p)))
                .cloned()
                .collect();
            self.report.metadata_rejected += people.len() - supported.len();
            if !supported.is_empty() {
                self.report.metadata_filled.push("key_people".into());
                metadata.sources.insert("key_people".into(), "llm".into());
                metadata.key_people = supported;
            }
        }
        let description = reply
            .description
            .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|d| !d.is_empty())
            .map(|d| cut_chars(&d, 400));
        Ok(description)
    }

    /// Cross-references the patterns left unresolved, matched by the model against the node
    /// list. Exhibits point at other documents and are left alone.
    pub fn resolve_cross_references(
        &mut self,
        text_chars: &[char],
        cross_refs: &mut [CrossRef],
        nodes: &[Node],
        paths: &[String],
        doc_name: &str,
        progress: &mut dyn ProgressSink,
    ) -> Result<()> {
        let open: Vec<usize> = (0..cross_refs.len())
            .filter(|&i| {
                cross_refs[i].target_node_id.is_none()
                    && !matches!(
                        cross_refs[i].kind,
                        CrossRefKind::Exhibit | CrossRefKind::Hyperlink
                    )
            })
            .collect();
        if open.is_empty() {
            return Ok(());
        }
        let listing: String = nodes
            .iter()
            .zip(paths)
            .map(|(n, p)| format!("[{}] {}\n", n.node_id, cut_chars(p, 160)))
            .collect();
        let listing = cut_to_tokens(&listing, 5000);
        let mut batches: Vec<Vec<RefInput>> = Vec::new();
        for chunk in open.chunks(40) {
            batches.push(
                chunk
                    .iter()
                    .map(|&i| {
                        let r = &cross_refs[i];
                        let from = r.span.start_char.saturating_sub(100);
                        let to = (r.span.end_char + 100).min(text_chars.len());
                        let context: String = text_chars[from..to].iter().collect();
                        RefInput {
                            number: i,
                            target: r.target.clone(),
                            context: context.split_whitespace().collect::<Vec<_>>().join(" "),
                            source_node_id: r.source_node_id.clone(),
                        }
                    })
                    .collect(),
            );
        }
        let requests: Vec<LlmRequest> = batches
            .iter()
            .map(|b| prompts::cross_references(doc_name, listing, b))
            .collect();
        let replies: Vec<Option<MatchesReply>> =
            self.run_batches(&requests, Stage::Resolve, Plan::Each, progress)?;
        let known: HashSet<&str> = nodes.iter().map(|n| n.node_id.as_str()).collect();
        for (batch, reply) in batches.iter().zip(replies) {
            let asked: HashSet<usize> = batch.iter().map(|r| r.number).collect();
            for m in reply.map(|r| r.matches).unwrap_or_default() {
                let Some(node_id) = m.node_id else { continue };
                if !asked.contains(&m.r#ref) || !known.contains(node_id.as_str()) {
                    tracing::warn!(
                        "{doc_name}: match of reference {} to node {node_id:?} names something \
                         that does not exist; dropped",
                        m.r#ref
                    );
                    self.report.unknown_ids_dropped += 1;
                    continue;
                }
                cross_refs[m.r#ref].target_node_id = Some(node_id);
                self.report.xrefs_resolved += 1;
            }
        }
        Ok(())
    }
}

/// How a batch run counts progress: one unit per request, or weighted units (nodes) out of
/// a total that spans several runs.
#[derive(Clone, Copy)]
enum Plan<'w> {
    Each,
    Weighted {
        total: u64,
        base: u64,
        weights: &'w [u64],
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_fit_a_small_window_and_leave_a_large_one_alone() {
        let roomy = LlmOptions::default().fitted_to(128_000);
        assert_eq!(roomy, LlmOptions::default());
        for window in [2048, 4096, 8192] {
            let fitted = LlmOptions::default().fitted_to(window);
            // A batch's prompt and the reply it may ask for fit the window.
            assert!(
                fitted.batch_prompt_tokens + reply_cap(window) as usize <= window,
                "{window}: {fitted:?}"
            );
            assert!(fitted.structure_window_chars / 4 + (reply_cap(window) as usize) < window);
            assert!(fitted.leaf_text_tokens <= fitted.batch_prompt_tokens);
        }
        // Never below a usable batch, however small the window.
        assert!(LlmOptions::default().fitted_to(300).batch_prompt_tokens >= 256);
    }
}
