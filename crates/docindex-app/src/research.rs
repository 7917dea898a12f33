//! Questions across the library's filers: the companies and filings a question names
//! become parts answered from their own documents, combined under each
//! part's name with a comparison table, differences and conflicts; the answer says which
//! documents it read and why.

use crate::ask::AskEvent;
use crate::search::{SearchRequest, SearchResults, VotedFile};
use crate::{Library, Result};
use docindex_core::companies::{compact, CompanyDirectory, CompanyMentions};
use docindex_core::finance::metrics::year_asked;
use docindex_core::llm::json::complete_json;
use docindex_core::llm::Llm;
use docindex_core::model::DocType;
use docindex_core::prompts::research::{decompose_prompt, Decomposition, Filer};
use docindex_core::qa::{
    combine_by_company, Answer, AnswerPart, Citation, Confidence, ConfidenceLabel, DocumentUse,
};
use docindex_core::search::{concept_coverage, expand};
use docindex_core::store::DocumentSummary;
use regex::Regex;
use std::sync::LazyLock;

/// A file is kept for an answer across the library when its vote comes within this share
/// of the best file's.
const KEEP_SHARE: f64 = 0.5;

/// Sections searched when listing the filings that mention a topic: enough for every
/// filing of a library of tens to have its best sections among them.
const LISTING_DEPTH: usize = 120;

/// One part of a research question: a company, or one of its filings, and what it is asked.
struct PartPlan {
    label: String,
    company: String,
    question: String,
    request: SearchRequest,
    why: String,
}

/// The parts a question is answered in, and what planning them reported.
struct Plan {
    parts: Vec<PartPlan>,
    steps: Vec<String>,
    /// Targets the model invented (a company or year the question does not name), dropped.
    invented: usize,
    tokens: u64,
}

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
        let for_each = directory.question_for_each(question);
        if !mentions.absent.is_empty() {
            on_event(AskEvent::Step(&format!(
                "no filing in the library for {}",
                mentions.absent.join(", ")
            )));
        }
        // Filings of one company compared with each other are parts by document, which the
        // library knows better than a model.
        let per_filing = mentions.known.len() == 1 && filing_kinds_named(question).len() >= 2;
        let plan = match self.llm.clone().filter(|_| !per_filing) {
            Some(llm) => {
                match self.plan_with_model(
                    llm.as_ref(),
                    question,
                    request,
                    &directory,
                    &mentions,
                )? {
                    Some(plan) => plan,
                    None => self.plan_parts(question, &for_each, request, &mentions)?,
                }
            }
            None => self.plan_parts(question, &for_each, request, &mentions)?,
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
        for part in &plans {
            on_event(AskEvent::Step(&format!("answering for {}", part.label)));
        }
        let quiet = |_: AskEvent| {};
        let mut parts = Vec::new();
        let mut documents = Vec::new();
        for plan in &plans {
            let answer = self.ask(&plan.question, &plan.request, &quiet)?;
            documents.extend(self.documents_used(&answer, &plan.request, &plan.why)?);
            parts.push(AnswerPart {
                label: plan.label.clone(),
                company: plan.company.clone(),
                answer,
            });
        }
        let mut answer = combine_by_company(question, parts, &mentions.absent);
        answer.documents = documents;
        answer.invented_dropped = plan.invented;
        answer.tokens_used += plan.tokens;
        for step in &answer.reasoning {
            on_event(AskEvent::Step(step));
        }
        answer.reasoning.splice(0..0, plan.steps);
        for piece in answer.answer.split_inclusive(' ') {
            on_event(AskEvent::Token(piece));
        }
        Ok(Some(answer))
    }

    /// Seed 001's decomposition by the model: each sub-question's company must be one the
    /// question names (by the directory's reading of it) and its year one the question
    /// names; any other is invented, dropped and counted. A company the model left out is
    /// asked as the offline plan would. `None` when the model's reply is unusable.
    fn plan_with_model(
        &self,
        llm: &dyn Llm,
        question: &str,
        request: &SearchRequest,
        directory: &CompanyDirectory,
        mentions: &CompanyMentions,
    ) -> Result<Option<Plan>> {
        let documents = self.list()?;
        let mut filers: Vec<Filer> = Vec::new();
        for doc in &documents {
            let Some(name) = doc.company_name.as_deref() else {
                continue;
            };
            match filers.iter_mut().find(|f| f.name == name) {
                Some(filer) => filer.years.extend(doc.fiscal_year),
                None => filers.push(Filer {
                    name,
                    ticker: doc.ticker.as_deref(),
                    years: doc.fiscal_year.into_iter().collect(),
                }),
            }
        }
        for filer in &mut filers {
            filer.years.sort_unstable();
            filer.years.dedup();
        }
        let reply = match complete_json::<Decomposition>(llm, &decompose_prompt(question, &filers))
        {
            Ok(reply) => reply,
            Err(e) => {
                tracing::warn!("decomposition failed: {e}");
                return Ok(None);
            }
        };
        let tokens = reply
            .replies
            .iter()
            .map(|r| r.usage.prompt_tokens + r.usage.completion_tokens)
            .sum();
        let years_named = years_in(question);
        let mut plan = Plan {
            parts: Vec::new(),
            steps: vec![format!(
                "the model split the question into {} sub-question(s)",
                reply.value.sub_questions.len()
            )],
            invented: 0,
            tokens,
        };
        for sub in reply.value.sub_questions {
            let named = sub
                .target_company
                .as_deref()
                .map(|c| directory.mentions(c).known)
                .unwrap_or_default();
            let resolved = named.into_iter().find(|c| mentions.known.contains(c));
            let company = match (resolved, &sub.target_company) {
                (Some(c), _) => c,
                (None, None) if mentions.known.len() == 1 => mentions.known[0].clone(),
                // A company the library lacks is already said to be missing.
                (None, Some(target))
                    if mentions.absent.iter().any(|a| {
                        let (a, t) = (compact(a), compact(target));
                        t.contains(&a) || a.contains(&t)
                    }) =>
                {
                    continue;
                }
                (None, target) => {
                    plan.invented += 1;
                    plan.steps.push(format!(
                        "dropped the sub-question \"{}\": it targets {}, which the question does not name",
                        sub.question,
                        target.as_deref().unwrap_or("no company")
                    ));
                    continue;
                }
            };
            let mut sub_question = sub.question.clone();
            if let Some(year) = sub.target_year.filter(|y| !years_named.contains(y)) {
                plan.invented += 1;
                plan.steps.push(format!(
                    "dropped the year {year} from \"{}\": the question does not name it",
                    sub.question
                ));
                sub_question = sub_question.replace(&year.to_string(), "");
            }
            let mut part_request = request.clone();
            part_request.scope.company = Some(company.clone());
            part_request.scope.doc_type = self.annual_report_for(&part_request, question)?;
            let label = match sub.target_year.filter(|y| years_named.contains(y)) {
                Some(year)
                    if plan.parts.iter().any(|p| p.company == company) || years_named.len() > 1 =>
                {
                    format!("{company} ({year})")
                }
                _ => company.clone(),
            };
            if plan.parts.iter().any(|p| p.label == label) {
                continue;
            }
            plan.parts.push(PartPlan {
                label,
                company: company.clone(),
                // The scope names the company; its name (and any other) would only count
                // against the sentences and rows of its own filing.
                question: directory.question_for_each(&sub_question),
                request: part_request,
                why: format!(
                    "the question names {company}; the model's sub-question: {}",
                    sub.question
                ),
            });
        }
        // A company the question names is never left unanswered for the model's omission.
        let offline = self.plan_parts(
            question,
            &directory.question_for_each(question),
            request,
            mentions,
        )?;
        for part in offline.parts {
            if !plan.parts.iter().any(|p| p.company == part.company) {
                plan.steps.push(format!(
                    "the model left out {}; asked as the question names it",
                    part.company
                ));
                plan.parts.push(part);
            }
        }
        Ok(Some(plan))
    }

    /// The parts a question names: one per company; for one company and two or more kinds
    /// of filing ("between the 10-Q and the 10-K"), one per filing, its latest of each kind.
    fn plan_parts(
        &self,
        question: &str,
        for_each: &str,
        request: &SearchRequest,
        mentions: &CompanyMentions,
    ) -> Result<Plan> {
        let mut plans = Vec::new();
        let kinds = filing_kinds_named(question);
        for company in &mentions.known {
            let mut company_request = request.clone();
            company_request.scope.company = Some(company.clone());
            let named = format!("the question names {company}");
            if mentions.known.len() == 1 && kinds.len() >= 2 {
                let filings = self.scope(&company_request.scope)?;
                let chosen: Vec<&DocumentSummary> = kinds
                    .iter()
                    .filter_map(|kind| latest_of(&filings, *kind))
                    .collect();
                if chosen.len() >= 2 {
                    for filing in chosen {
                        let mut filing_request = company_request.clone();
                        filing_request.scope.doc = Some(filing.doc_id.clone());
                        plans.push(PartPlan {
                            label: format!("{company} {}", filing_label(filing)),
                            company: company.clone(),
                            question: for_each.to_string(),
                            request: filing_request,
                            why: format!(
                                "{named}; its latest {} (the question compares filings)",
                                filing.doc_type.as_str()
                            ),
                        });
                    }
                    continue;
                }
            }
            company_request.scope.doc_type = self.annual_report_for(&company_request, question)?;
            let why = match company_request.scope.doc_type {
                Some(kind) if request.scope.doc_type.is_none() => format!(
                    "{named}; its {} (the question asks of a year)",
                    kind.as_str()
                ),
                _ => named,
            };
            plans.push(PartPlan {
                label: company.clone(),
                company: company.clone(),
                question: for_each.to_string(),
                request: company_request,
                why,
            });
        }
        Ok(Plan {
            parts: plans,
            steps: Vec::new(),
            invented: 0,
            tokens: 0,
        })
    }

    /// Across several files (seed 002): the search's sections vote for their files; the
    /// files within [`KEEP_SHARE`] of the best are kept and the others' sections dropped.
    /// The kept files, with their votes.
    pub(crate) fn keep_voted_files(
        &self,
        results: &mut SearchResults,
        on_event: &dyn Fn(AskEvent),
    ) -> Result<Vec<DocumentUse>> {
        let voted = self.tally(&results.hits, usize::MAX)?;
        let Some(best) = voted.first().map(|v| v.vote.total) else {
            return Ok(Vec::new());
        };
        let kept: Vec<&VotedFile> = voted
            .iter()
            .filter(|v| v.vote.total >= best * KEEP_SHARE)
            .collect();
        if voted.len() > 1 {
            results
                .hits
                .retain(|h| kept.iter().any(|k| k.doc_id == h.doc_id));
            results
                .statement_rows
                .retain(|r| kept.iter().any(|k| k.doc_id == r.doc_id));
            on_event(AskEvent::Step(&format!(
                "{} of {} file(s) kept by their votes: {}",
                kept.len(),
                voted.len(),
                kept.iter()
                    .map(|k| format!("{} {:.2}", k.doc_name, k.vote.total))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        Ok(kept
            .iter()
            .enumerate()
            .map(|(rank, file)| DocumentUse {
                doc_id: file.doc_id.clone(),
                doc_name: file.doc_name.clone(),
                company: file.company.clone(),
                why: vote_reason(file, rank, voted.len()),
                votes: Some(file.vote.total),
            })
            .collect())
    }

    /// Every filing of the scope that mentions `topic`: the library's sections vote for
    /// their files, and a file is listed when one of its sections has a sentence naming
    /// the whole topic, which is cited.
    pub(crate) fn list_filings(
        &self,
        question: &str,
        topic: &str,
        request: &SearchRequest,
        on_event: &dyn Fn(AskEvent),
    ) -> Result<Answer> {
        on_event(AskEvent::Step(&format!(
            "listing the filings that mention \"{topic}\""
        )));
        let mut search = request.clone();
        search.query = topic.to_string();
        search.limit = LISTING_DEPTH;
        let results = self.search(&search)?;
        let voted = self.tally(&results.hits, usize::MAX)?;
        let dictionary = self.store.dictionary_pairs(None)?;
        let concepts = expand(topic, &dictionary).concepts();
        let mut lines = Vec::new();
        let mut citations: Vec<Citation> = Vec::new();
        let mut documents = Vec::new();
        for (rank, file) in voted.iter().enumerate() {
            let evidence = file.hits.iter().find_map(|hit| {
                hit.excerpts
                    .iter()
                    .find(|e| concept_coverage(&e.text, &concepts) >= 1.0)
                    .map(|e| (hit, e))
            });
            let Some((hit, excerpt)) = evidence else {
                continue;
            };
            let marker = citations.len() + 1;
            citations.push(Citation {
                marker,
                doc_id: hit.doc_id.clone(),
                doc_name: hit.doc_name.clone(),
                node_id: hit.node_id.clone(),
                title: hit.title.clone(),
                start_page: hit.start_page,
                end_page: hit.end_page,
                excerpt: excerpt.text.clone(),
                start_char: excerpt.start_char,
                end_char: excerpt.end_char,
            });
            let company = file.company.as_deref().unwrap_or("company unknown");
            lines.push(format!(
                "- {} ({company}, {}), in \"{}\": \"{}\" [{marker}]",
                file.doc_name,
                file.doc_type.as_str(),
                hit.title,
                excerpt.text.trim()
            ));
            documents.push(DocumentUse {
                doc_id: file.doc_id.clone(),
                doc_name: file.doc_name.clone(),
                company: file.company.clone(),
                why: vote_reason(file, rank, voted.len()),
                votes: Some(file.vote.total),
            });
        }
        let searched = results.documents_searched;
        let mut answer = Answer::unanswered(question);
        answer.answer = match lines.len() {
            0 => format!("None of the {searched} filing(s) searched mentions {topic}."),
            n => format!(
                "{n} of the {searched} filing(s) searched mention {topic}:\n{}",
                lines.join("\n")
            ),
        };
        answer.answered = !lines.is_empty();
        answer.confidence = Confidence {
            label: match lines.len() {
                0 => ConfidenceLabel::Low,
                _ => ConfidenceLabel::High,
            },
            score: if lines.is_empty() { 0.2 } else { 0.9 },
            answered: usize::from(!lines.is_empty()),
            unanswered: usize::from(lines.is_empty()),
            source_nodes: citations.len(),
        };
        answer.reasoning = vec![format!(
            "{} section(s) voted for {} file(s); {} name the whole topic",
            results.hits.len(),
            voted.len(),
            lines.len()
        )];
        answer.nodes_visited = citations
            .iter()
            .map(|c| format!("{}:{}", c.doc_name, c.node_id))
            .collect();
        answer.citations = citations;
        answer.documents = documents;
        for step in &answer.reasoning {
            on_event(AskEvent::Step(step));
        }
        for piece in answer.answer.split_inclusive(' ') {
            on_event(AskEvent::Token(piece));
        }
        Ok(answer)
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

/// The topic of a question that asks which filings mention something: "supply chain
/// disruptions" for "Which filings discuss supply chain disruptions?".
pub(crate) fn filings_listed_for(question: &str) -> Option<String> {
    static LISTING: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r"(?i)^\s*(?:which|what|list|show|find)\s+(?:me\s+)?(?:every|each|all(?:\s+the)?|the)?\s*(?:filings?|documents?|reports?|filers?|companies)\s+(?:that\s+|which\s+)?(?:mentions?|discuss(?:es)?|disclos(?:e|es)|refers?\s+to|talks?\s+about|address(?:es)?|cites?)\s+(.+?)[?.!\s]*$",
        )
        .ok()
    });
    let caps = LISTING.as_ref()?.captures(question)?;
    let topic = caps[1].trim();
    (!topic.is_empty()).then(|| topic.to_string())
}

fn vote_reason(file: &VotedFile, rank: usize, of: usize) -> String {
    format!(
        "votes {:.2} (summary {:.2}, text {:.2}) from {} section(s): {} of {of} file(s)",
        file.vote.total,
        file.vote.summary_votes,
        file.vote.text_votes,
        file.vote.nodes.len(),
        ordinal(rank + 1),
    )
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The years a question names ("2023", "FY24", "fiscal 2022").
fn years_in(question: &str) -> Vec<i32> {
    static YEAR: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"\b(19\d{2}|20\d{2})\b").ok());
    let mut years: Vec<i32> = YEAR
        .as_ref()
        .map(|re| {
            re.captures_iter(question)
                .filter_map(|c| c[1].parse().ok())
                .collect()
        })
        .unwrap_or_default();
    years.extend(year_asked(question));
    years.sort_unstable();
    years.dedup();
    years
}

/// The kinds of filing a question names, in the order it names them ("the 10-Q and the
/// 10-K", "quarterly report", "annual report").
fn filing_kinds_named(question: &str) -> Vec<DocType> {
    let lower = question.to_lowercase();
    let mut found: Vec<(usize, DocType)> = Vec::new();
    let names: [(&str, DocType); 7] = [
        ("10-k", DocType::Form10K),
        ("annual report", DocType::Form10K),
        ("10-q", DocType::Form10Q),
        ("quarterly report", DocType::Form10Q),
        ("8-k", DocType::Form8K),
        ("20-f", DocType::Form20F),
        ("proxy", DocType::Def14A),
    ];
    for (name, kind) in names {
        if let Some(at) = lower.find(name) {
            if !found.iter().any(|(_, k)| *k == kind) {
                found.push((at, kind));
            }
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, kind)| kind).collect()
}

/// The latest filing of `kind` among `filings` (by period end, then fiscal year).
fn latest_of(filings: &[DocumentSummary], kind: DocType) -> Option<&DocumentSummary> {
    filings
        .iter()
        .filter(|d| d.doc_type == kind)
        .max_by(|a, b| {
            (a.period_end_date.as_deref(), a.fiscal_year)
                .cmp(&(b.period_end_date.as_deref(), b.fiscal_year))
        })
}

/// "10-Q (period ended 2023-07-01)", "10-K (fiscal 2024)".
fn filing_label(filing: &DocumentSummary) -> String {
    match (&filing.period_end_date, filing.fiscal_year) {
        (Some(end), _) => format!("{} (period ended {end})", filing.doc_type.as_str()),
        (None, Some(year)) => format!("{} (fiscal {year})", filing.doc_type.as_str()),
        (None, None) => filing.doc_type.as_str().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_questions_give_their_topic() {
        assert_eq!(
            filings_listed_for("Which filings discuss supply chain disruptions?").as_deref(),
            Some("supply chain disruptions")
        );
        assert_eq!(
            filings_listed_for("List every filing that mentions cybersecurity").as_deref(),
            Some("cybersecurity")
        );
        assert_eq!(
            filings_listed_for("Which companies disclose material weaknesses?").as_deref(),
            Some("material weaknesses")
        );
        assert_eq!(
            filings_listed_for("Which filing has the highest revenue?"),
            None
        );
        assert_eq!(filings_listed_for("What drove Apple's margin?"), None);
    }

    #[test]
    fn filing_kinds_are_read_in_the_order_the_question_names_them() {
        assert_eq!(
            filing_kinds_named("How did cash change between the 10-Q and the 10-K?"),
            vec![DocType::Form10Q, DocType::Form10K]
        );
        assert_eq!(
            filing_kinds_named("Total assets in the annual report vs the quarterly report"),
            vec![DocType::Form10K, DocType::Form10Q]
        );
        assert!(filing_kinds_named("What was revenue in 2023?").is_empty());
    }
}
