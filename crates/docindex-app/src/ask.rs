//! Questions over one document or the library with the offline engine: retrieve with node
//! search, compose a cited extractive answer, verify every citation against the stored
//! text, and stream the reasoning steps and the answer as they are produced.

use crate::research::{cited_of, filings_listed_for, scope_reason};
use crate::search::{reading_order, SearchHit, SearchRequest, SearchResults};
use crate::{AppError, Library, Result};
use docindex_core::charmap::CharMap;
use docindex_core::companies::{CompanyDirectory, CompanyMentions};
use docindex_core::finance::answer::asks_for_figure;
use docindex_core::finance::{
    concept_table, focus_question, lead_for, named_line_item, with_figures, FiguresLead,
};
use docindex_core::llm::json::complete_json;
use docindex_core::llm::{Llm, UsageMeter};
use docindex_core::model::{Engine, Span};
use docindex_core::overview::{is_overview_question, overview};
use docindex_core::prompts::answer::{self as prompts, Candidate, Plan, Source};
use docindex_core::qa::instructions::in_a_paragraph_addressed_to_a_model;
use docindex_core::qa::{
    append_answer, compose_extractive, compose_from_prose, locate, unsupported_numbers, Answer,
    Citation, Confidence, ConfidenceLabel, Passage,
};
use docindex_core::question::Question;
use docindex_core::search::Excerpt;
use docindex_core::search::{asks_why, expand};
use docindex_core::store::DocumentStore;
use std::collections::HashMap;

/// What an answer reports while it is being produced.
pub enum AskEvent<'a> {
    /// A reasoning step (what was searched, what was read).
    Step(&'a str),
    /// The next piece of the answer text.
    Token(&'a str),
}

impl Library {
    /// The companies `question` names, resolved to the library's filers, and those it
    /// names that the library has no filing for.
    pub fn company_mentions(&self, question: &str) -> Result<CompanyMentions> {
        Ok(self.company_directory()?.mentions(question))
    }

    /// The scope's document type, or, when the question asks of a year (not a quarter) and
    /// the company has both annual and quarterly filings, its annual report's type: "total
    /// revenues in its latest fiscal year" is the 10-K's figure, not a 10-Q's quarter.
    pub(crate) fn annual_report_for(
        &self,
        request: &SearchRequest,
        question: &str,
    ) -> Result<Option<docindex_core::model::DocType>> {
        use docindex_core::model::DocType;
        if request.scope.doc_type.is_some() {
            return Ok(request.scope.doc_type);
        }
        let lower = question.to_lowercase();
        let quarterly = docindex_core::lexicon::lexicon()
            .answers
            .quarterly_phrases
            .any_in(&lower);
        if quarterly || lower.contains("10-k") && lower.contains("10-q") {
            return Ok(None);
        }
        let types: Vec<DocType> = self
            .scope(&request.scope)?
            .iter()
            .map(|d| d.doc_type)
            .collect();
        let annual = [DocType::Form10K, DocType::Form20F]
            .into_iter()
            .find(|t| types.contains(t));
        Ok(annual.filter(|_| types.contains(&DocType::Form10Q)))
    }

    /// The library's filers and the names people use for them.
    pub fn company_directory(&self) -> Result<CompanyDirectory> {
        let documents = self.list()?;
        CompanyDirectory::new(
            documents
                .iter()
                .map(|d| (d.company_name.as_deref(), d.ticker.as_deref())),
        )
        .map_err(AppError::Companies)
    }

    /// Answer `question` within `scope` (its `query` is ignored).
    pub fn ask(
        &self,
        question: &str,
        scope: &SearchRequest,
        on_event: &dyn Fn(AskEvent),
    ) -> Result<Answer> {
        let mut request = scope.clone();
        request.query = question.to_string();
        request.limit = request.limit.max(8);
        if request.scope.doc.is_none() {
            if let Some(topic) = filings_listed_for(question) {
                return self.list_filings(question, &topic, &request, on_event);
            }
        }
        if request.scope.doc.is_none() && request.scope.company.is_none() {
            // A question that names companies is about those companies' filings only: each
            // is answered from its own, and one the library lacks is said to be missing.
            if let Some(answer) = self.ask_by_company(question, &request, on_event)? {
                return Ok(answer);
            }
        }
        let mut answer = self.ask_in_scope(question, &request, on_event)?;
        if answer.documents.is_empty() {
            answer.documents = self.documents_used(&answer, &request, &scope_reason(&request))?;
        }
        Ok(answer)
    }

    /// The answer from the sections search finds in `request`'s scope; across several
    /// files, from the files the sections' votes choose.
    fn ask_in_scope(
        &self,
        question: &str,
        request: &SearchRequest,
        on_event: &dyn Fn(AskEvent),
    ) -> Result<Answer> {
        let key = format!("{question}\u{1f}{request:?}");
        // The question is read once: search, the figures and the composers all take its
        // content, without the role, resources and manner of answering around it.
        // (Search reads the same question itself.)
        let reading = Question::read(question).map_err(AppError::Question)?;
        if self.llm.is_some() {
            // A cached answer needs no search either.
            if let Some(mut cached) = self.cached_result::<Answer>("answer", &key) {
                on_event(AskEvent::Step("answer from the cache"));
                for piece in cached.answer.split_inclusive(' ') {
                    on_event(AskEvent::Token(piece));
                }
                cached.from_cache = true;
                return Ok(cached);
            }
        }
        on_event(AskEvent::Step("searching the indexed sections"));
        on_event(AskEvent::Step(&reading_step(&reading)));
        let mut results = self.search(request)?;
        let voted = match request.scope.doc {
            None => self.keep_voted_files(&mut results, on_event)?,
            Some(_) => Vec::new(),
        };
        if let Some(llm) = self.llm.clone() {
            let lead = self.figures_lead(&reading, &results)?;
            let mut answer =
                self.ask_with_llm(llm.as_ref(), question, &results, lead.as_ref(), on_event)?;
            answer.documents = cited_of(voted, &answer);
            self.store_result("answer", &key, &answer);
            return Ok(answer);
        }
        // A count ("How many people …?") is often stated in a sentence that does not repeat
        // the question's noun ("total workforce was approximately 171,000"): read further.
        // It stands anywhere in the section on the workforce, so more of each section is
        // read as well.
        let (read_at_most, per_section) = match reading.asks_a_count() {
            true => (40, 8),
            false => (20, 3),
        };
        let order = reading_order(&results.hits, per_section);
        let chosen: Vec<_> = order.into_iter().take(read_at_most).collect();
        on_event(AskEvent::Step(&format!(
            "reading {} passage(s) from {} section(s)",
            chosen.len(),
            results.hits.len().min(chosen.len())
        )));
        // Statement rows pinned by search are stated by the figures lead, not quoted again.
        let pinned: Vec<bool> = chosen
            .iter()
            .map(|(hit, passage)| is_pinned(hit, passage))
            .collect();
        let passages: Vec<Passage> = chosen
            .iter()
            .enumerate()
            .map(|(rank, (hit, passage))| passage_of(hit, passage, rank))
            .collect();
        let dictionary = self.store.dictionary_pairs(None)?;
        // The company a question names is settled by the scope: filings call themselves
        // "the Company", so its name must not count against a sentence.
        let mut company_words = Vec::new();
        let scoped = request.scope.doc.is_some() || request.scope.company.is_some();
        for summary in self.scope(&request.scope)?.into_iter().filter(|_| scoped) {
            if let Some(name) = summary.company_name {
                company_words.extend(docindex_core::search::words(&name));
            }
            if let Some(ticker) = summary.ticker {
                company_words.push(ticker.to_lowercase());
            }
        }
        let settled = expand(&company_words.join(" "), &[]).stems();
        let concepts_of = |text: &str| {
            let all = expand(text, &dictionary).concepts();
            let rest: Vec<_> = all
                .iter()
                .filter(|concept| concept.is_disjoint(&settled))
                .cloned()
                .collect();
            if rest.is_empty() {
                all
            } else {
                rest
            }
        };
        let overview = match results.hits.first() {
            Some(top) if is_overview_question(question) => self
                .store
                .get(&top.doc_id)?
                .and_then(|doc| overview(question, &doc)),
            _ => None,
        };
        let lead = match overview {
            Some(_) => None,
            None => self.figures_lead(&reading, &results)?,
        };
        let content = reading.content.as_str();
        // A question that asks only for figures is answered by them first; the prose that
        // follows is kept short.
        let figures_only =
            (asks_for_figure(content) || compares_figures(content)) && !asks_why(content);
        let mut answer = match (overview, lead) {
            (Some(listed), _) => listed,
            (None, None) => {
                let mut answer = compose_extractive(content, &passages, &concepts_of, 3);
                answer.question = question.to_string();
                answer
            }
            (None, Some(lead)) => {
                let table = concept_table().map_err(AppError::Finance)?;
                // The figures are stated from the statements; the rest of the answer is what
                // the filing says about them (a judgement question's "why", "trending", "one-off").
                let prose: Vec<Passage> = passages
                    .iter()
                    .zip(&pinned)
                    .filter(|(_, pinned)| !**pinned)
                    .map(|(p, _)| p.clone())
                    .collect();
                // What the filing says about the figure first, then what answers the question's
                // own words.
                // A question that asks only for figures gets one sentence of the filing's
                // own about them at most (it may say what the row cannot: "repurchased 499
                // million shares"), and no discussion searched for apart.
                let sentences = if figures_only { 1 } else { 2 };
                let mut answer = compose_from_prose(content, &prose, &concepts_of, sentences);
                answer.question = question.to_string();
                let focus = focus_question(table, content).filter(|_| !figures_only);
                if let Some(focus) = focus {
                    // The discussion is searched for on its own: the question's words may match
                    // other prose than the paragraph that explains the figure.
                    let mut focus_request = request.clone();
                    focus_request.query = focus.clone();
                    focus_request.limit = 6;
                    let found = self.search(&focus_request)?;
                    let discussion_passages: Vec<Passage> = reading_order(&found.hits, 2)
                        .into_iter()
                        .filter(|(hit, passage)| !is_pinned(hit, passage))
                        .take(10)
                        .enumerate()
                        .map(|(rank, (hit, passage))| passage_of(hit, passage, rank))
                        .collect();
                    let mut discussion =
                        compose_from_prose(&focus, &discussion_passages, &concepts_of, 2);
                    discussion.question = question.to_string();
                    answer = append_answer(discussion, answer);
                }
                with_figures(table, &reading, answer, lead, &results.statement_rows)
            }
        };
        // Verify each citation against the stored document before it is shown.
        let before = answer.citations.len();
        let mut verified = Vec::new();
        for mut c in std::mem::take(&mut answer.citations) {
            let Some(doc) = self.store.get(&c.doc_id)? else {
                continue;
            };
            let Some(node) = doc.node(&c.node_id) else {
                continue;
            };
            if let Some(span) = locate(&doc.text, node.span, &c.excerpt) {
                c.start_char = span.start_char;
                c.end_char = span.end_char;
                c.excerpt = CharMap::new(&doc.text).slice(span).to_string();
                verified.push(c);
            }
        }
        answer.citations_dropped = before - verified.len();
        answer.citations = verified;
        // A figure is shown in a table only with every citation it names.
        let cited = &answer.citations;
        answer.figures.retain(|f| {
            f.markers
                .iter()
                .all(|m| cited.iter().any(|c| c.marker == *m))
        });
        answer.documents = cited_of(voted, &answer);
        for step in &answer.reasoning {
            on_event(AskEvent::Step(step));
        }
        for piece in answer.answer.split_inclusive(' ') {
            on_event(AskEvent::Token(piece));
        }
        Ok(answer)
    }
}

/// Whether a question asks which of several figures is the larger ("Which sold more in
/// fiscal 2023, A or B, and by how much?"): the figures answer it.
fn compares_figures(question: &str) -> bool {
    let lower = question.trim_start().to_lowercase();
    lower.starts_with("which")
        && docindex_core::search::words(&lower).iter().any(|w| {
            docindex_core::lexicon::lexicon()
                .answers
                .comparatives
                .contains(w)
        })
}

/// What stands for a model's answer that quoted the filing's instructions to a model.
const WITHHELD: &str = "The model's answer is withheld: it quoted text in the filing written as instructions to a model, which is data, not instructions.";

/// The reasoning step that says how the question was read.
fn reading_step(reading: &Question) -> String {
    let read = format!("read the question as \"{}\"", reading.content);
    match reading.summary() {
        Some(summary) => format!("{read}; {summary}"),
        None => read,
    }
}

/// Whether `passage` is one of the statement rows search pinned to `hit`.
fn is_pinned(hit: &SearchHit, passage: &Excerpt) -> bool {
    hit.passages[..hit.pinned]
        .iter()
        .any(|p| std::ptr::eq(p, passage))
}

/// A search hit's passage as the composer reads it.
fn passage_of<'a>(hit: &'a SearchHit, passage: &'a Excerpt, rank: usize) -> Passage<'a> {
    Passage {
        doc_id: &hit.doc_id,
        doc_name: &hit.doc_name,
        node_id: &hit.node_id,
        title: &hit.title,
        start_page: hit.start_page,
        end_page: hit.end_page,
        text: &passage.text,
        start_char: passage.start_char,
        rank,
    }
}

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

impl Library {
    /// The figures a question asks for, from the statement rows search found: from the
    /// document of the best hit that holds them.
    fn figures_lead(
        &self,
        reading: &Question,
        results: &SearchResults,
    ) -> Result<Option<docindex_core::finance::FiguresLead>> {
        let table = concept_table().map_err(AppError::Finance)?;
        let question = reading.content.as_str();
        if table.asked_in(question).is_empty() && named_line_item(table, question).is_none() {
            return Ok(None);
        }
        let mut tried: Vec<&str> = Vec::new();
        let docs = results
            .hits
            .iter()
            .map(|h| h.doc_id.as_str())
            .chain(results.statement_rows.iter().map(|r| r.doc_id.as_str()));
        let mut fallback = None;
        for doc_id in docs {
            if tried.contains(&doc_id) {
                continue;
            }
            tried.push(doc_id);
            // A document without the rows still says which operand is missing; the best
            // hit's document speaks for the question then.
            if !results.statement_rows.iter().any(|r| r.doc_id == doc_id) && tried.len() > 1 {
                continue;
            }
            let Some(doc) = self.store.get(doc_id)? else {
                continue;
            };
            match lead_for(table, reading, &doc, &results.statement_rows) {
                Some(lead) if !lead.citations.is_empty() => return Ok(Some(lead)),
                Some(lead) if fallback.is_none() => fallback = Some(lead),
                _ => {}
            }
        }
        Ok(fallback)
    }
}

/// At most this many plan steps before the model must answer.
const MAX_STEPS: usize = 3;

impl Library {
    /// The LLM engine: the model plans which sections to read (from the offline ranking's
    /// candidates and the cross-references of what it read), reads, then answers with
    /// markers and quotes; only quotes found in their section become citations.
    fn ask_with_llm(
        &self,
        llm: &dyn Llm,
        question: &str,
        results: &SearchResults,
        figures: Option<&FiguresLead>,
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
        for _ in 0..MAX_STEPS {
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
            let reply = complete_json::<Plan>(llm, &prompts::plan(question, &listing, &sources))
                .map_err(AppError::Llm)?;
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
        let figures_note = figures
            .filter(|l| !l.computed.is_empty() || !l.missing.is_empty())
            .map(|l| strip_markers(&l.text));
        let reading = Question::read(question)
            .map_err(AppError::Question)?
            .summary();
        let request = prompts::answer(
            question,
            &sources,
            figures_note.as_deref(),
            reading.as_deref(),
        );
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
            true
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
        for (marker, label, quote) in quoted {
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
            match locate(&doc.text, node.span, &quote) {
                // The filing is data: a quote of its instructions to a model cites nothing.
                Some(span) if in_a_paragraph_addressed_to_a_model(&doc.text, span) => {
                    tracing::warn!("quote for [{marker}] is an instruction to a model in {label}; not a citation");
                    reasoning.push(format!(
                        "dropped citation [{marker}]: it quotes text written as instructions to a model"
                    ));
                    dropped += 1;
                    obeyed_the_filing = true;
                }
                Some(span) => citations.push(Citation {
                    marker,
                    doc_id: doc_id.clone(),
                    doc_name: doc.doc_name.clone(),
                    node_id: node_id.clone(),
                    title: node.title.clone(),
                    start_page: node.start_page,
                    end_page: node.end_page,
                    excerpt: CharMap::new(&doc.text).slice(span).to_string(),
                    start_char: span.start_char,
                    end_char: span.end_char,
                }),
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
                WITHHELD.to_string()
            }
            false => text,
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
        let shift = citations.iter().map(|c| c.marker).max().unwrap_or(0);
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
            unsupported_numbers: unsupported_numbers(&text, &excerpts)
                .into_iter()
                .filter(|n| !figures.is_some_and(|l| l.is_computed(n)))
                .collect(),
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
