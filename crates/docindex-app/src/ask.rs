//! Questions over one document or the library with the offline engine: retrieve with node
//! search, compose a cited extractive answer, verify every citation against the stored
//! text, and stream the reasoning steps and the answer as they are produced.

use crate::model_answer::engine_when_unverified;
use crate::research::{cited_of, filings_listed_for, scope_reason};
use crate::search::{reading_order, SearchHit, SearchRequest, SearchResults};
use crate::{AppError, Library, Result};
use docindex_core::charmap::CharMap;
use docindex_core::companies::{CompanyDirectory, CompanyMentions};
use docindex_core::finance::answer::asks_for_figure;
use docindex_core::finance::judgment::judgment_lead;
use docindex_core::finance::{
    concept_table, focus_question, lead_for, named_line_item, with_figures,
};
use docindex_core::overview::{business_description, is_overview_question, overview};
use docindex_core::qa::{
    append_answer, compose_extractive, compose_from_prose, compose_narrative, locate, Answer,
    ConfidenceLabel, DocumentUse, Passage,
};
use docindex_core::question::passage::asks_a_description;
use docindex_core::question::{Operation, PassageKind, Question};
use docindex_core::search::Excerpt;
use docindex_core::search::{asks_why, expand};
use docindex_core::store::DocumentStore;

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
        crate::within_length("question", question, crate::MAX_QUESTION_CHARS)?;
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
        // The plan-step bound shapes a model's answer: answers under another bound are not reused.
        let key = format!("{question}\u{1f}{request:?}\u{1f}{}", self.plan_steps);
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
            // The offline engine answers first (it takes well under a second): the model is
            // given what it cites, may stop reading when the statements answer, and its
            // answer never knows less than the engine's.
            let engine = self.answer_offline(
                question,
                &reading,
                request,
                &results,
                voted.clone(),
                &|_| {},
            )?;
            let lead = self.figures_lead(&reading, &results)?;
            let answer = self.ask_with_llm(
                llm.as_ref(),
                question,
                &results,
                lead.as_ref(),
                &engine,
                on_event,
            )?;
            let answer = engine_when_unverified(answer, engine.clone(), on_event);
            // A model's answer may say more than the offline draft, never less.
            let mut answer = docindex_core::qa::keep_the_verdict(answer, &engine);
            answer.documents = cited_of(voted, &answer);
            self.store_result("answer", &key, &answer);
            return Ok(answer);
        }
        self.answer_offline(question, &reading, request, &results, voted, on_event)
    }

    /// The offline engine's answer from the sections search found: the figures the
    /// statements give, then the sentences that answer the question's words, each citation
    /// verified against the stored document.
    fn answer_offline(
        &self,
        question: &str,
        reading: &Question,
        request: &SearchRequest,
        results: &SearchResults,
        voted: Vec<DocumentUse>,
        on_event: &dyn Fn(AskEvent),
    ) -> Result<Answer> {
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
        // The defined terms of the documents asked about, as search expands them: another
        // filing's "Employee" (a party to its agreement) says nothing of this one's.
        let scope = self.scope(&request.scope)?;
        let scope_ids: Vec<String> = scope.iter().map(|d| d.doc_id.clone()).collect();
        let whole_library = request.scope == crate::search::Scope::default();
        let dictionary = self
            .store
            .dictionary_pairs((!whole_library).then_some(scope_ids.as_slice()))?;
        // The company a question names is settled by the scope: filings call themselves
        // "the Company", so its name must not count against a sentence.
        let mut company_words = Vec::new();
        let scoped = request.scope.doc.is_some() || request.scope.company.is_some();
        for summary in scope.into_iter().filter(|_| scoped) {
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
        // "What does the company do?" opens with the section that describes the business.
        let description = match results.hits.first() {
            Some(top)
                if reading.passage == PassageKind::Business
                    && asks_a_description(&reading.content) =>
            {
                self.store
                    .get(&top.doc_id)?
                    .and_then(|doc| business_description(question, &doc))
            }
            _ => None,
        };
        let lead = match overview {
            Some(_) => None,
            // A description asks no figure, whatever line items it names ("sales channels").
            None if description.is_some() => None,
            // A judgment is answered with its verdict over the years, then its figures.
            None => match self.judgment_lead(reading, results)? {
                Some(verdict) => Some(verdict),
                // Guidance and an event's terms are the filing's words: a statement's row of
                // a word they share ("acquisition", "expense") is last year's figure, not the
                // answer (measured: 2 more unseen questions cited, every floor held).
                None if matches!(reading.passage, PassageKind::Outlook | PassageKind::Event) => {
                    None
                }
                None => self.figures_lead(reading, results)?,
            },
        };
        let content = reading.content.as_str();
        // A question that asks only for figures is answered by them first; the prose that
        // follows is kept short.
        let figures_only =
            (asks_for_figure(content) || compares_figures(content)) && !asks_why(content);
        let mut answer = match (overview, lead) {
            (Some(listed), _) => listed,
            (None, None) => {
                let mut answer = match reading.passage {
                    PassageKind::Figure => compose_extractive(content, &passages, &concepts_of, 3),
                    // A list (segments, acquisitions, proposals) is assembled from more
                    // sentences.
                    kind @ (PassageKind::Business | PassageKind::Event | PassageKind::Vote) => {
                        compose_narrative(content, kind, &passages, &concepts_of, 4)
                    }
                    kind => compose_narrative(content, kind, &passages, &concepts_of, 3),
                };
                if let Some(description) = description {
                    answer = append_answer(description, answer);
                }
                // A figure the statements should give (a line item, a metric, a change of
                // one) answered only from passages is never sure: nothing was worked out
                // from its rows for the asked period.
                let table = concept_table().map_err(AppError::Finance)?;
                // So is any figure asked in words the concept table does not know (measured:
                // passages answered unseen wordings of investing cash flow and total
                // liabilities at HIGH, wrong).
                // And a figure asked of a period ("… in FY23?") in any words: passages that
                // happen to share the question's words are no figure worked out for it
                // (measured: unseen wordings of financing cash flow and free cash flow were
                // answered at HIGH with statement rows of other figures, and with exhibits).
                let asks_statement_figure = reading.operation != Operation::Value
                    || (reading.passage == PassageKind::Figure
                        && (!table.asked_in(content).is_empty()
                            || asks_for_figure(content)
                            || !reading.periods.is_empty()
                            || !reading.relative_years.is_empty()
                            || reading.relative_year.is_some()));
                if asks_statement_figure && answer.confidence.label == ConfidenceLabel::High {
                    answer.confidence.label = ConfidenceLabel::Medium;
                }
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
                with_figures(table, reading, answer, lead, &results.statement_rows)
            }
        };
        // A refusal says where the engine looked, so the reader knows what was ruled out.
        if !answer.answered && !passages.is_empty() {
            answer.answer = format!(
                "{} Sections read: {}.",
                answer.answer.trim_end(),
                sections_read(&passages)
            );
        }
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

/// The titles of the sections `passages` come from, in the order first read, at most
/// eight ("Item 7. Management's Discussion…; Note 3. Acquisitions").
fn sections_read(passages: &[Passage]) -> String {
    let mut titles: Vec<&str> = Vec::new();
    for p in passages {
        let title = p.title.trim();
        if !title.is_empty() && !titles.contains(&title) {
            titles.push(title);
        }
    }
    let more = titles.len().saturating_sub(8);
    titles.truncate(8);
    let mut listed = titles
        .iter()
        .map(|t| match t.char_indices().nth(80) {
            Some((at, _)) => format!("{}…", &t[..at]),
            None => t.to_string(),
        })
        .collect::<Vec<_>>()
        .join("; ");
    if more > 0 {
        listed.push_str(&format!(" and {more} more"));
    }
    listed
}

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

impl Library {
    /// A judgment question's verdict, worked out on the best hit's document (the first of
    /// the first three that prints the figures).
    fn judgment_lead(
        &self,
        reading: &Question,
        results: &SearchResults,
    ) -> Result<Option<docindex_core::finance::FiguresLead>> {
        if reading.judgment.is_none() {
            return Ok(None);
        }
        let table = concept_table().map_err(AppError::Finance)?;
        let mut tried: Vec<&str> = Vec::new();
        for hit in &results.hits {
            if tried.contains(&hit.doc_id.as_str()) {
                continue;
            }
            if tried.len() == 3 {
                break;
            }
            tried.push(&hit.doc_id);
            let Some(doc) = self.store.get(&hit.doc_id)? else {
                continue;
            };
            if let Some(lead) = judgment_lead(table, reading, &doc) {
                return Ok(Some(lead));
            }
        }
        Ok(None)
    }

    /// The figures a question asks for, from the statement rows search found: from the
    /// document of the best hit that holds them.
    fn figures_lead(
        &self,
        reading: &Question,
        results: &SearchResults,
    ) -> Result<Option<docindex_core::finance::FiguresLead>> {
        let table = concept_table().map_err(AppError::Finance)?;
        let question = reading.content.as_str();
        if table.asked_in(question).is_empty()
            && named_line_item(table, question).is_none()
            && reading.definition.is_none()
        {
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
