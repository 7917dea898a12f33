//! The LLM engine's answer, starting from the offline engine's: the model plans which
//! sections to read (from the offline ranking's candidates and the cross-references of what
//! it read), reads, then answers with markers and quotes; only quotes found in their
//! section, and not in text written as instructions to a model, become citations.

use crate::ask::AskEvent;
use crate::figures_in_answer::{ground_figures, with_statements_first};
use crate::search::SearchResults;
use crate::{AppError, Library, Result};
use docindex_core::charmap::CharMap;
use docindex_core::finance::FiguresLead;
use docindex_core::llm::json::complete_json;
use docindex_core::llm::{Llm, LlmError, UsageMeter};
use docindex_core::model::{Engine, Span};
use docindex_core::prompts::answer::{self as prompts, Candidate, Plan, Source};
use docindex_core::prompts::fit::{fit_candidates, fit_sources, shorten_summaries, Window};
use docindex_core::qa::grounding::{
    is_stated, locate_close, numbers_stating, sentence_holding, stated_numbers,
};
use docindex_core::qa::instructions::in_a_paragraph_addressed_to_a_model;
use docindex_core::qa::{
    locate, unsupported_numbers, Answer, Citation, Confidence, ConfidenceLabel,
};
use docindex_core::question::Question;
use docindex_core::search::asks_why;
use docindex_core::store::DocumentStore;
use std::collections::HashMap;
use std::sync::atomic::Ordering;

/// What stands for a model's answer that quoted the filing's instructions to a model.
const WITHHELD: &str = "The model's answer is withheld: it quoted text in the filing written as instructions to a model, which is data, not instructions.";

/// A lead's text without its citation markers, for a prompt.
fn strip_markers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// At most this many plan steps before the model must answer, unless the library says.
pub(crate) const MAX_STEPS: usize = 3;

/// At most this many of the offline engine's cited sentences are given to the model.
const ENGINE_SENTENCES: usize = 6;

impl Library {
    /// The LLM engine: the model plans which sections to read (from the offline ranking's
    /// candidates and the cross-references of what it read), reads, then answers with
    /// markers and quotes; only quotes found in their section become citations.
    pub(crate) fn ask_with_llm(
        &self,
        llm: &dyn Llm,
        question: &str,
        results: &SearchResults,
        figures: Option<&FiguresLead>,
        engine: &Answer,
        on_event: &dyn Fn(AskEvent),
    ) -> Result<Answer> {
        let meter = UsageMeter::default();
        let mut reasoning = Vec::new();
        let step = |text: String, reasoning: &mut Vec<String>| {
            on_event(AskEvent::Step(&text));
            reasoning.push(text);
        };
        let mut candidates: Vec<(String, String, String)> = Vec::new();
        let mut shown: HashMap<String, (String, String)> = HashMap::new();
        for hit in results.hits.iter().take(10) {
            add_candidate(&mut shown, &mut candidates, &hit.doc_id, &hit.node_id);
        }
        let mut docs = HashMap::new();
        let mut sources: Vec<Source> = Vec::new();
        let mut source_nodes: Vec<(String, String)> = Vec::new();
        let mut visited = Vec::new();
        let mut dropped_ids = 0;
        // Prompts are fitted to the model's context window when the server tells it.
        let window = Window::of(llm);
        // The operands of a metric the question names: their rows (and headings), verbatim,
        // one source per section, so the model cites cells that can be verified.
        if let Some(lead) = figures.filter(|l| !l.citations.is_empty()) {
            let mut by_node: Vec<((String, String), Vec<&str>)> = Vec::new();
            for c in &lead.citations {
                let key = (c.doc_id.clone(), c.node_id.clone());
                match by_node.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, lines)) => lines.push(&c.excerpt),
                    None => by_node.push((key, vec![&c.excerpt])),
                }
            }
            for ((doc_id, node_id), lines) in by_node {
                let Some(doc) = self.cached_doc(&mut docs, &doc_id)? else {
                    continue;
                };
                sources.push(Source {
                    label: format!("S{}", sources.len() + 1),
                    path: doc.path_of(&node_id),
                    text: lines.join("\n"),
                });
                source_nodes.push((doc_id, node_id));
            }
            step(
                format!("gave the model {} statement row(s)", lead.citations.len()),
                &mut reasoning,
            );
        }
        // The sentences the offline engine cited (beside the statement cells): what it found
        // answers the question's words, so the model reads it first, one sentence a line.
        let passages =
            self.engine_passages(engine, figures, &mut docs, &mut sources, &mut source_nodes)?;
        if passages > 0 {
            step(
                format!("gave the model the {passages} sentence(s) the offline engine cited"),
                &mut reasoning,
            );
        }
        // Statement rows and cited sentences are dropped last when a prompt must shrink.
        let row_sources = sources.len();
        // When the statements give every figure asked (firmly, or for a question that asks
        // no "why"), the model answers from their rows at once: more reading costs minutes
        // on a small local model and, measured, leads it to figures of other tables.
        let rows_give_all = figures.is_some_and(|l| {
            let worked_out = l.metrics.iter().any(|m| m.value.is_some());
            !l.citations.is_empty() && (!l.figures.is_empty() || worked_out) && l.missing.is_empty()
        });
        let firm = engine.confidence.label == ConfidenceLabel::High && !engine.figures.is_empty();
        let statements_answer = rows_give_all && (firm || !asks_why(question));
        if statements_answer {
            step(
                "the statement rows give the figures asked; the model answers from them without further reading".to_string(),
                &mut reasoning,
            );
        }
        let steps = if statements_answer {
            0
        } else {
            self.plan_steps
        };
        for _ in 0..steps {
            if self.cancel.load(Ordering::SeqCst) {
                return Err(AppError::Llm(LlmError::Cancelled));
            }
            let listing: Vec<Candidate> = candidates
                .iter()
                .filter(|(id, ..)| !visited.contains(id))
                .filter_map(|(id, doc_id, node_id)| {
                    let doc = self.cached_doc(&mut docs, doc_id).ok()??;
                    let node = doc.node(node_id)?;
                    Some(Candidate {
                        node_id: id.clone(),
                        path: doc.path_of(node_id),
                        summary: node.summary.chars().take(200).collect(),
                    })
                })
                .collect();
            let mut listing = listing;
            let mut read_so_far = sources.clone();
            if let Some(window) = &window {
                // Shorter summaries cost the plan least: they go before any source.
                if !window.holds(&window.cap_reply(prompts::plan(
                    question,
                    &listing,
                    &read_so_far,
                    row_sources,
                ))) {
                    shorten_summaries(&mut listing);
                }
                let trimmed = fit_sources(window, &mut read_so_far, row_sources, &|s| {
                    window.cap_reply(prompts::plan(question, &listing, s, row_sources))
                });
                let offered = fit_candidates(window, &mut listing, &|c| {
                    window.cap_reply(prompts::plan(question, c, &read_so_far, row_sources))
                });
                if trimmed.any() || offered.any() {
                    let what = [trimmed.describe(), offered.describe()]
                        .into_iter()
                        .filter(|d| !d.is_empty())
                        .collect::<Vec<_>>()
                        .join(", ");
                    step(
                        format!(
                            "plan fitted to the model's {} tokens: {what}",
                            window.tokens
                        ),
                        &mut reasoning,
                    );
                }
            }
            let mut request = prompts::plan(question, &listing, &read_so_far, row_sources);
            if let Some(window) = &window {
                request = window.cap_reply(request);
            }
            let reply = match complete_json::<Plan>(llm, &request) {
                Ok(reply) => reply,
                // A small model's plan that is no JSON even when asked again costs the
                // planning, not the answer: it answers from what it has, or the best passages.
                Err(LlmError::BadReply(why)) => {
                    tracing::warn!("the model's plan could not be read ({why}); answering");
                    step(
                        format!("the model's plan could not be read ({why}); answering from the best passages"),
                        &mut reasoning,
                    );
                    break;
                }
                Err(e) => return Err(AppError::Llm(e)),
            };
            for r in &reply.replies {
                meter.record(r);
            }
            let plan = reply.value;
            step(
                format!("plan: {} {}", plan.action, plan.node_ids.join(", ")),
                &mut reasoning,
            );
            match plan.action.as_str() {
                "read" => {
                    let mut read_any = false;
                    for id in plan.node_ids.iter().take(3) {
                        let Some((doc_id, node_id)) = shown.get(id).cloned() else {
                            tracing::warn!(
                                "the model named section {id:?}, which it was not offered; ignored"
                            );
                            dropped_ids += 1;
                            continue;
                        };
                        if visited.contains(id) {
                            continue;
                        }
                        visited.push(id.clone());
                        let Some(doc) = self.cached_doc(&mut docs, &doc_id)? else {
                            continue;
                        };
                        let Some(node) = doc.node(&node_id) else {
                            continue;
                        };
                        let text = best_text(&doc.text, node.span, results, &doc_id, &node_id);
                        sources.push(Source {
                            label: format!("S{}", sources.len() + 1),
                            path: doc.path_of(&node_id),
                            text,
                        });
                        source_nodes.push((doc_id.clone(), node_id.clone()));
                        step(format!("read {}", doc.path_of(&node_id)), &mut reasoning);
                        read_any = true;
                        // Follow the section's cross-references: their targets become readable.
                        let targets: Vec<String> = doc
                            .cross_refs
                            .iter()
                            .filter(|r| r.source_node_id == node_id)
                            .filter_map(|r| r.target_node_id.clone())
                            .collect();
                        for target in targets {
                            add_candidate(&mut shown, &mut candidates, &doc_id, &target);
                        }
                    }
                    if !read_any {
                        break;
                    }
                }
                "give_up" if sources.is_empty() => {
                    let why = plan
                        .reason
                        .unwrap_or_else(|| "the sections do not cover it".into());
                    step(format!("gave up: {why}"), &mut reasoning);
                    return Ok(not_answered(question, reasoning, visited, &meter));
                }
                _ => break,
            }
        }
        if sources.is_empty() {
            // The model answered without reading: give it the best passages anyway.
            for hit in results.hits.iter().take(3) {
                let Some(doc) = self.cached_doc(&mut docs, &hit.doc_id)? else {
                    continue;
                };
                let Some(node) = doc.node(&hit.node_id) else {
                    continue;
                };
                sources.push(Source {
                    label: format!("S{}", sources.len() + 1),
                    path: hit.path.clone(),
                    text: best_text(&doc.text, node.span, results, &hit.doc_id, &hit.node_id),
                });
                source_nodes.push((hit.doc_id.clone(), hit.node_id.clone()));
            }
        }
        if sources.is_empty() {
            return Ok(not_answered(question, reasoning, visited, &meter));
        }
        // The answer, streamed; what follows SOURCES: is parsed, not shown.
        let mut full = String::new();
        let mut emitted = 0;
        // What the statements give is told, read or computed: a small model that reads
        // further otherwise states a figure of another table.
        let figures_note = figures
            .filter(|l| !l.figures.is_empty() || !l.computed.is_empty() || !l.missing.is_empty())
            .map(|l| strip_markers(&l.text));
        let read = Question::read(question).map_err(AppError::Question)?;
        // The rounding the lead states is the question's only when it asked one.
        let asked_precision = read.scale.is_some() || read.decimals.is_some() || read.percent;
        let reading = read.summary();
        // The offline draft: what the model's answer must not state less of (a judgment's
        // verdict, the figures, the sentences quoted).
        let draft = engine.answered.then(|| {
            format!(
                "{} (confidence {})",
                strip_markers(&engine.answer),
                format!("{:?}", engine.confidence.label).to_uppercase()
            )
        });
        let build = |s: &[Source]| {
            let request = prompts::answer(
                question,
                s,
                figures_note.as_deref(),
                reading.as_deref(),
                draft.as_deref(),
            );
            match &window {
                Some(window) => window.cap_reply(request),
                None => request,
            }
        };
        if let Some(window) = &window {
            let trimmed = fit_sources(window, &mut sources, row_sources, &build);
            source_nodes.truncate(sources.len());
            if sources.is_empty() {
                step(
                    format!(
                        "the model's window of {} tokens holds no source with the question",
                        window.tokens
                    ),
                    &mut reasoning,
                );
                return Ok(not_answered(question, reasoning, visited, &meter));
            }
            if trimmed.any() {
                step(
                    format!(
                        "answer fitted to the model's {} tokens: {}",
                        window.tokens,
                        trimmed.describe()
                    ),
                    &mut reasoning,
                );
            }
        }
        let request = build(&sources);
        let streamed = llm.stream(&request, &mut |delta| {
            full.push_str(delta);
            let stop = full
                .find("SOURCES:")
                .unwrap_or(full.len().saturating_sub(8));
            let mut end = stop.max(emitted);
            while !full.is_char_boundary(end) {
                end -= 1;
            }
            if end > emitted {
                on_event(AskEvent::Token(&full[emitted..end]));
                emitted = end;
            }
            // A cancelled ask stops the model's stream.
            !self.cancel.load(Ordering::SeqCst)
        });
        let reply = match streamed {
            Ok(reply) => reply,
            Err(e) => {
                // Show what arrived before the failure; the caller saves nothing.
                let end = full.find("SOURCES:").unwrap_or(full.len());
                if end > emitted {
                    on_event(AskEvent::Token(&full[emitted..end]));
                }
                return Err(AppError::Llm(e));
            }
        };
        meter.record(&reply);
        let (text, quoted) = prompts::split_sources(&reply.text);
        if emitted < text.len() && text.is_char_boundary(emitted) {
            on_event(AskEvent::Token(&text[emitted..]));
        }
        let mut citations = Vec::new();
        let mut dropped = 0;
        let mut obeyed_the_filing = false;
        // The markers the model wrote, cited or not: the lead's cells are numbered after them.
        let mut highest_marker = 0;
        for (marker, label, quote) in quoted {
            highest_marker = highest_marker.max(marker);
            let found = sources
                .iter()
                .position(|s| s.label == label)
                .and_then(|i| source_nodes.get(i).cloned());
            let Some((doc_id, node_id)) = found else {
                dropped += 1;
                continue;
            };
            let Some(doc) = self.cached_doc(&mut docs, &doc_id)? else {
                continue;
            };
            let Some(node) = doc.node(&node_id) else {
                continue;
            };
            let verbatim = locate(&doc.text, node.span, &quote);
            if verbatim.is_none() {
                tracing::debug!("quote for [{marker}] is not verbatim in {label}; looking for the sentence it means");
            }
            match verbatim.or_else(|| locate_close(&doc.text, node.span, &quote)) {
                // The filing is data: a quote of its instructions to a model cites nothing.
                Some(span) if in_a_paragraph_addressed_to_a_model(&doc.text, span) => {
                    tracing::warn!("quote for [{marker}] is an instruction to a model in {label}; not a citation");
                    reasoning.push(format!(
                        "dropped citation [{marker}]: it quotes text written as instructions to a model"
                    ));
                    dropped += 1;
                    obeyed_the_filing = true;
                }
                Some(span) => citations.push(citation_at(marker, doc, &doc_id, node, span)),
                None => {
                    tracing::warn!("quote for [{marker}] is not in {label}; not a citation");
                    dropped += 1;
                }
            }
        }
        // A model that quoted the filing's instructions may have followed them: its answer
        // is not shown as one.
        let text = match obeyed_the_filing {
            true => {
                citations.clear();
                // What was streamed is taken back where it was shown.
                on_event(AskEvent::Step(WITHHELD));
                WITHHELD.to_string()
            }
            false => text,
        };
        // A marker whose quote was not found points at nothing: it is taken out.
        let text = without_markers(text, highest_marker, &citations);
        // The lead's cells are numbered after the model's own markers.
        let shift = citations
            .iter()
            .map(|c| c.marker)
            .max()
            .unwrap_or(0)
            .max(highest_marker);
        let text = match (obeyed_the_filing, figures) {
            (false, Some(lead)) => {
                ground_figures(text, lead, shift, &mut citations, &mut reasoning)
            }
            _ => text,
        };
        // Markers the lead's cells take (after the model's) are not given to other sentences.
        let first_free = shift + figures.map_or(0, |l| l.citations.len()) + 1;
        let text = match obeyed_the_filing {
            false => self.ground_numbers(
                text,
                first_free,
                Given {
                    sources: &sources,
                    nodes: &source_nodes,
                },
                &mut docs,
                &mut citations,
                &mut reasoning,
            )?,
            true => text,
        };
        // A figure the statements give that the model's answer leaves out, or does not lead
        // with, is put first with its cells: the model's omission or slip never hides what
        // the rows say.
        let text = match (obeyed_the_filing, figures) {
            (false, Some(lead)) if !citations.is_empty() => {
                let (text, added) = with_statements_first(
                    text,
                    lead,
                    asked_precision,
                    shift,
                    &mut citations,
                    &mut reasoning,
                );
                if !added.is_empty() {
                    on_event(AskEvent::Token(&added));
                }
                text
            }
            _ => text,
        };
        let distinct: std::collections::BTreeSet<_> = citations
            .iter()
            .map(|c| (c.doc_id.clone(), c.node_id.clone()))
            .collect();
        let label = if distinct.len() >= 3 && dropped == 0 {
            ConfidenceLabel::High
        } else if !citations.is_empty() {
            ConfidenceLabel::Medium
        } else {
            ConfidenceLabel::Low
        };
        let verified_share = citations.len() as f64 / (citations.len() + dropped).max(1) as f64;
        // The statement cells the lead found are kept beside the model's quotes, so that a
        // comparison's cells open their rows.
        let stated: Vec<_> = figures
            .map(|lead| lead.figures.iter().map(|f| f.shifted(shift)).collect())
            .unwrap_or_default();
        let cell_citations: Vec<Citation> = figures
            .into_iter()
            .filter(|_| !stated.is_empty())
            .flat_map(|lead| lead.citations.iter())
            .map(|c| Citation {
                marker: c.marker + shift,
                ..c.clone()
            })
            .collect();
        let excerpts: Vec<&str> = citations.iter().map(|c| c.excerpt.as_str()).collect();
        let totals = meter.totals();
        // A figure the statements' arithmetic gives is supported by the cited cells.
        Ok(Answer {
            question: question.to_string(),
            unsupported_numbers: {
                // A figure the lead's cells state, rounded or rescaled as the model wrote it.
                let stating = figures
                    .map(|l| numbers_stating(&text, &l.figures, &l.metrics))
                    .unwrap_or_default();
                unsupported_numbers(&text, &excerpts)
                    .into_iter()
                    .filter(|n| !figures.is_some_and(|l| l.is_computed(n)))
                    .filter(|n| !is_stated(n, &stating))
                    // The question's own period restated ("fiscal 2024", "2024-09-30") is no
                    // claim of the answer; any other number the question names still is.
                    .filter(|n| !is_a_date_part(n) || sentence_holding(question, n).is_none())
                    .collect()
            },
            computed: figures
                .map(FiguresLead::computed_metrics)
                .unwrap_or_default(),
            answered: !citations.is_empty(),
            answer: text,
            confidence: Confidence {
                label,
                score: verified_share
                    * match label {
                        ConfidenceLabel::High => 0.95,
                        ConfidenceLabel::Medium => 0.7,
                        ConfidenceLabel::Low => 0.2,
                    },
                answered: usize::from(!citations.is_empty()),
                unanswered: usize::from(citations.is_empty()),
                source_nodes: distinct.len(),
            },
            citations,
            citations_dropped: dropped + dropped_ids,
            reasoning,
            nodes_visited: visited,
            engine: Engine::Llm,
            tokens_used: totals.prompt_tokens + totals.completion_tokens,
            from_cache: false,
            figures: stated,
            comparison: None,
            documents: Vec::new(),
            invented_dropped: 0,
            cell_citations,
        })
    }

    /// Each number the answer states that no citation holds, cited to the sentence (or table
    /// row) of the first source it was given that holds it verbatim: a small model often
    /// states the right figure and misquotes its sentence; the figure is then cited to the
    /// sentence that says it, never thrown away.
    fn ground_numbers(
        &self,
        text: String,
        first_free: usize,
        given: Given<'_>,
        docs: &mut HashMap<String, Option<docindex_core::model::DocumentIndex>>,
        citations: &mut Vec<Citation>,
        reasoning: &mut Vec<String>,
    ) -> Result<String> {
        let mut inserts: Vec<(usize, usize)> = Vec::new();
        let mut next_marker = citations
            .iter()
            .map(|c| c.marker + 1)
            .max()
            .unwrap_or(1)
            .max(first_free);
        for (end, number) in stated_numbers(&text) {
            // The marker goes after the figure's unit ("$16.9 billion [5]"), not inside it.
            let end = after_unit(&text, end);
            if text[end..].trim_start().starts_with('[')
                || citations.iter().any(|c| c.excerpt.contains(&number))
            {
                continue;
            }
            let held = given
                .sources
                .iter()
                .zip(given.nodes)
                .find_map(|(source, node)| {
                    sentence_holding(&source.text, &number).map(|sentence| (source, node, sentence))
                });
            let Some((source, (doc_id, node_id), sentence)) = held else {
                continue;
            };
            let Some(doc) = self.cached_doc(docs, doc_id)? else {
                continue;
            };
            let Some(node) = doc.node(node_id) else {
                continue;
            };
            let Some(span) = locate(&doc.text, node.span, sentence)
                .or_else(|| locate_close(&doc.text, node.span, sentence))
            else {
                continue;
            };
            if in_a_paragraph_addressed_to_a_model(&doc.text, span) {
                continue;
            }
            let marker = match citations.iter().find(|c| {
                c.doc_id == *doc_id
                    && c.start_char == span.start_char
                    && c.end_char == span.end_char
            }) {
                Some(same) => same.marker,
                None => {
                    citations.push(citation_at(next_marker, doc, doc_id, node, span));
                    next_marker += 1;
                    next_marker - 1
                }
            };
            reasoning.push(format!(
                "cited the figure {number} the answer states to the sentence of {} that holds it",
                source.label
            ));
            inserts.push((end, marker));
        }
        let mut text = text;
        for (at, marker) in inserts.into_iter().rev() {
            text.insert_str(at, &format!(" [{marker}]"));
        }
        Ok(text)
    }

    /// Adds, as sources after the statement rows, the sentences `engine` cited that are not
    /// the lead's cells, one line each and one source per section (six at most). Returns
    /// how many it added.
    fn engine_passages(
        &self,
        engine: &Answer,
        lead: Option<&FiguresLead>,
        docs: &mut HashMap<String, Option<docindex_core::model::DocumentIndex>>,
        sources: &mut Vec<Source>,
        source_nodes: &mut Vec<(String, String)>,
    ) -> Result<usize> {
        let is_cell = |c: &Citation| {
            lead.is_some_and(|l| {
                l.citations.iter().any(|cell| {
                    cell.doc_id == c.doc_id
                        && cell.start_char < c.end_char
                        && c.start_char < cell.end_char
                })
            })
        };
        let mut by_node: Vec<((String, String), Vec<&str>)> = Vec::new();
        let sentences = engine
            .citations
            .iter()
            .filter(|c| !is_cell(c))
            .take(ENGINE_SENTENCES);
        let mut added = 0;
        for c in sentences {
            let key = (c.doc_id.clone(), c.node_id.clone());
            let line = c.excerpt.as_str();
            match by_node.iter_mut().find(|(k, _)| *k == key) {
                Some((_, lines)) if lines.contains(&line) => continue,
                Some((_, lines)) => lines.push(line),
                None => by_node.push((key, vec![line])),
            }
            added += 1;
        }
        for ((doc_id, node_id), lines) in by_node {
            let Some(doc) = self.cached_doc(docs, &doc_id)? else {
                continue;
            };
            sources.push(Source {
                label: format!("S{}", sources.len() + 1),
                path: doc.path_of(&node_id),
                text: lines
                    .iter()
                    .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                    .collect::<Vec<_>>()
                    .join("\n"),
            });
            source_nodes.push((doc_id, node_id));
        }
        Ok(added)
    }

    fn cached_doc<'d>(
        &self,
        docs: &'d mut HashMap<String, Option<docindex_core::model::DocumentIndex>>,
        doc_id: &str,
    ) -> Result<Option<&'d docindex_core::model::DocumentIndex>> {
        if !docs.contains_key(doc_id) {
            docs.insert(doc_id.to_string(), self.store.get(doc_id)?);
        }
        Ok(docs.get(doc_id).and_then(Option::as_ref))
    }
}

/// Whether `number` as written could be a year or a month or day of a date ("2024", "09").
fn is_a_date_part(number: &str) -> bool {
    let all_digits = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit());
    let year = number.len() == 4 && (number.starts_with("19") || number.starts_with("20"));
    all_digits && (year || number.len() <= 2)
}

/// The offset just after the unit that follows a figure ending at `end` ("%", " million",
/// " billion", " thousand", " percent"), or `end` when none does.
fn after_unit(text: &str, end: usize) -> usize {
    let rest = &text[end..];
    for unit in ["%", " million", " billion", " thousand", " percent"] {
        let fits = rest
            .get(..unit.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(unit));
        let whole_word = rest[unit.len().min(rest.len())..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric());
        if fits && whole_word {
            return end + unit.len();
        }
    }
    end
}

/// The sources given to the model and the (document, node) each comes from.
#[derive(Clone, Copy)]
struct Given<'a> {
    sources: &'a [Source],
    nodes: &'a [(String, String)],
}

/// The citation `marker` of `span` in `node` of `doc`, its excerpt the text there.
fn citation_at(
    marker: usize,
    doc: &docindex_core::model::DocumentIndex,
    doc_id: &str,
    node: &docindex_core::model::Node,
    span: Span,
) -> Citation {
    Citation {
        marker,
        doc_id: doc_id.to_string(),
        doc_name: doc.doc_name.clone(),
        node_id: node.node_id.clone(),
        title: node.title.clone(),
        start_page: node.start_page,
        end_page: node.end_page,
        excerpt: CharMap::new(&doc.text).slice(span).to_string(),
        start_char: span.start_char,
        end_char: span.end_char,
    }
}

/// Offer a section to the model under an id it can repeat: short doc id, colon, node id.
fn add_candidate(
    shown: &mut HashMap<String, (String, String)>,
    candidates: &mut Vec<(String, String, String)>,
    doc_id: &str,
    node_id: &str,
) {
    let id = format!("{}:{node_id}", &doc_id[..doc_id.len().min(6)]);
    if !shown.contains_key(&id) {
        shown.insert(id.clone(), (doc_id.to_string(), node_id.to_string()));
        candidates.push((id, doc_id.to_string(), node_id.to_string()));
    }
}

/// What the model reads of a section: its best passages from the search when it was a hit,
/// else its opening text; about 700 tokens at most.
fn best_text(
    text: &str,
    span: Span,
    results: &SearchResults,
    doc_id: &str,
    node_id: &str,
) -> String {
    let from_hit: Option<String> = results
        .hits
        .iter()
        .find(|h| h.doc_id == doc_id && h.node_id == node_id)
        .map(|h| {
            h.passages
                .iter()
                .take(3)
                .map(|p| p.text.as_str())
                .collect::<Vec<_>>()
                .join("\n…\n")
        });
    let body = from_hit.unwrap_or_else(|| CharMap::new(text).slice(span).to_string());
    body.chars().take(2800).collect()
}

fn not_answered(
    question: &str,
    reasoning: Vec<String>,
    visited: Vec<String>,
    meter: &UsageMeter,
) -> Answer {
    let totals = meter.totals();
    Answer {
        confidence: Confidence {
            score: 0.1,
            ..Answer::unanswered(question).confidence
        },
        reasoning,
        nodes_visited: visited,
        engine: Engine::Llm,
        tokens_used: totals.prompt_tokens + totals.completion_tokens,
        ..Answer::unanswered(question)
    }
}

/// The model's answer, or the offline engine's when the model's cites nothing that could be
/// verified and the engine's does: a figure or sentence with no citation is not an answer,
/// and the engine's is. What was streamed is said to be replaced.
pub(crate) fn engine_when_unverified(
    model: Answer,
    engine: Answer,
    on_event: &dyn Fn(AskEvent),
) -> Answer {
    if model.answered || !engine.answered || model.answer == WITHHELD {
        return model;
    }
    let why = "the model's answer held no citation that could be verified in the filing; the offline engine's cited answer is shown instead";
    on_event(AskEvent::Step(why));
    on_event(AskEvent::Token("\n\n"));
    for piece in engine.answer.split_inclusive(' ') {
        on_event(AskEvent::Token(piece));
    }
    let mut reasoning = model.reasoning;
    reasoning.push(why.to_string());
    reasoning.extend(engine.reasoning);
    Answer {
        reasoning,
        nodes_visited: model.nodes_visited,
        tokens_used: model.tokens_used,
        citations_dropped: model.citations_dropped + engine.citations_dropped,
        ..engine
    }
}

/// `text` without the markers up to `highest` that no citation carries.
fn without_markers(text: String, highest: usize, citations: &[Citation]) -> String {
    let mut text = text;
    for marker in 1..=highest {
        if !citations.iter().any(|c| c.marker == marker) {
            text = text
                .replace(&format!(" [{marker}]"), "")
                .replace(&format!("[{marker}]"), "");
        }
    }
    text.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::after_unit;

    #[test]
    fn a_marker_goes_after_the_figures_unit() {
        let text = "Gross margin fell by $16.9 billion, or 39%, and 1,234 units.";
        let at = |n: &str| text.find(n).map(|i| i + n.len()).unwrap();
        assert_eq!(
            &text[..after_unit(text, at("16.9"))],
            "Gross margin fell by $16.9 billion"
        );
        assert_eq!(
            &text[..after_unit(text, at("39"))],
            "Gross margin fell by $16.9 billion, or 39%"
        );
        assert_eq!(after_unit(text, at("1,234")), at("1,234"));
        assert_eq!(after_unit("12 millionaires", 2), 2);
    }
}
