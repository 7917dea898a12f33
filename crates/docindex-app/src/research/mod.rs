//! Questions across the library's filers: the companies and filings a question names
//! become parts (`plan.rs`) answered at once from their own documents, streamed in order and
//! combined under each part's name with a comparison table, differences and conflicts;
//! files chosen by their sections' votes and filings listed by topic (`votes.rs`); every
//! answer says which documents it read and why.

mod plan;
mod votes;

pub(crate) use votes::filings_listed_for;

use crate::ask::AskEvent;
use crate::search::SearchRequest;
use crate::{Library, Result};
use docindex_core::qa::{Answer, AnswerPart, Combination, DocumentUse};
use docindex_core::question::comparison_direction;
use plan::filing_kinds_named;

impl Library {
    /// The answer to a question that names companies, when it names any: `None` leaves it
    /// to the ordinary search over `request`'s scope.
    pub(crate) fn ask_by_company(
        &self,
        question: &str,
        request: &SearchRequest,
        on_event: &dyn Fn(AskEvent),
    ) -> Result<Option<Answer>> {
        let directory = self.company_directory()?;
        let mentions = directory.mentions(question);
        if mentions.is_empty() {
            return Ok(None);
        }
        if !mentions.absent.is_empty() {
            on_event(AskEvent::Step(&format!(
                "no filing in the library for {}",
                mentions.absent.join(", ")
            )));
        }
        // A question about one company is already atomic, and filings of one company
        // compared with each other are parts by document, which the library knows better
        // than a model: only a question naming several companies is the model's to split.
        let per_filing = mentions.known.len() == 1 && filing_kinds_named(question).len() >= 2;
        let several = mentions.known.len() + mentions.absent.len() >= 2;
        let plan = match self.llm.clone().filter(|_| several && !per_filing) {
            Some(llm) => {
                match self.plan_with_model(
                    llm.as_ref(),
                    question,
                    request,
                    &directory,
                    &mentions,
                )? {
                    Some(plan) => plan,
                    None => self.plan_parts(question, &directory, request, &mentions)?,
                }
            }
            None => self.plan_parts(question, &directory, request, &mentions)?,
        };
        for step in &plan.steps {
            on_event(AskEvent::Step(step));
        }
        let plans = plan.parts;
        if plans.len() == 1 && mentions.absent.is_empty() {
            let part = &plans[0];
            on_event(AskEvent::Step(&format!(
                "the question names {}",
                part.company
            )));
            let mut answer = self.ask(&part.question, &part.request, on_event)?;
            answer.question = question.to_string();
            answer.documents = self.documents_used(&answer, &part.request, &part.why)?;
            answer.reasoning.splice(0..0, plan.steps);
            answer.invented_dropped = plan.invented;
            answer.tokens_used += plan.tokens;
            return Ok(Some(answer));
        }
        // Each part streams as soon as it is answered; the comparison follows the last. A
        // question that asks which is higher is answered with its verdict first, which only
        // the last part settles: its answer streams whole at the end.
        let verdict_asked = comparison_direction(question).is_some();
        let (mut combination, opening) = Combination::new(question, plans.len(), &mentions.absent);
        let mut first_piece = true;
        let mut stream = |piece: &str| {
            if !first_piece {
                on_event(AskEvent::Token("\n\n"));
            }
            first_piece = false;
            for word in piece.split_inclusive(' ') {
                on_event(AskEvent::Token(word));
            }
        };
        if let Some(opening) = opening.filter(|_| !verdict_asked) {
            stream(&opening);
        }
        // The parts are searched and answered at once, each on its own connection; they
        // stream in the question's order.
        let workers = plans
            .iter()
            .map(|_| self.worker())
            .collect::<Result<Vec<Library>>>()?;
        let mut documents = Vec::new();
        std::thread::scope(|scope| -> Result<()> {
            let running: Vec<_> = plans
                .iter()
                .zip(workers)
                .map(|(plan, worker)| {
                    on_event(AskEvent::Step(&format!("answering for {}", plan.label)));
                    scope.spawn(move || worker.ask(&plan.question, &plan.request, &|_| {}))
                })
                .collect();
            for (plan, part) in plans.iter().zip(running) {
                let answer = part
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
                for step in &answer.reasoning {
                    on_event(AskEvent::Step(step));
                }
                documents.extend(self.documents_used(&answer, &plan.request, &plan.why)?);
                let piece = combination.add(AnswerPart {
                    label: plan.label.clone(),
                    company: plan.company.clone(),
                    answer,
                });
                if !verdict_asked {
                    stream(&piece);
                }
            }
            Ok(())
        })?;
        let (mut answer, added) = combination.finish();
        match verdict_asked {
            true => stream(&answer.answer),
            false => added.iter().for_each(|piece| stream(piece)),
        }
        answer.documents = documents;
        answer.invented_dropped = plan.invented;
        answer.tokens_used += plan.tokens;
        if let Some(compared) = answer
            .reasoning
            .last()
            .filter(|r| r.starts_with("compared "))
        {
            on_event(AskEvent::Step(compared));
        }
        answer.reasoning.splice(0..0, plan.steps);
        Ok(Some(answer))
    }

    /// The documents `answer` cites, each with why it was read.
    pub(crate) fn documents_used(
        &self,
        answer: &Answer,
        request: &SearchRequest,
        why: &str,
    ) -> Result<Vec<DocumentUse>> {
        let mut used: Vec<DocumentUse> = Vec::new();
        let scope = self.scope(&request.scope)?;
        for citation in &answer.citations {
            if used.iter().any(|u| u.doc_id == citation.doc_id) {
                continue;
            }
            let company = scope
                .iter()
                .find(|d| d.doc_id == citation.doc_id)
                .and_then(|d| d.company_name.clone());
            used.push(DocumentUse {
                doc_id: citation.doc_id.clone(),
                doc_name: citation.doc_name.clone(),
                company,
                why: why.to_string(),
                votes: None,
            });
        }
        Ok(used)
    }
}

/// Why a scoped answer read its documents: the filters that chose them.
pub(crate) fn scope_reason(request: &SearchRequest) -> String {
    let scope = &request.scope;
    let mut filters = Vec::new();
    if let Some(doc) = &scope.doc {
        filters.push(format!("the document asked about ({doc})"));
    }
    if let Some(company) = &scope.company {
        filters.push(format!("company filter: {company}"));
    }
    if let Some(year) = scope.fiscal_year {
        filters.push(format!("fiscal year filter: {year}"));
    }
    if let Some(kind) = scope.doc_type {
        filters.push(format!("type filter: {}", kind.as_str()));
    }
    match filters.is_empty() {
        true => "search ranked its sections first".to_string(),
        false => filters.join("; "),
    }
}

/// The voted files `answer` cites, in the vote's order.
pub(crate) fn cited_of(voted: Vec<DocumentUse>, answer: &Answer) -> Vec<DocumentUse> {
    voted
        .into_iter()
        .filter(|d| answer.citations.iter().any(|c| c.doc_id == d.doc_id))
        .collect()
}
