//! Planning a research question's parts: one per company the question names (its
//! annual report when it asks of a year), one per filing when it compares a company's
//! filings, or, with a model, seed 001's decomposition checked against the question.

use crate::search::SearchRequest;
use crate::{Library, Result};
use docindex_core::companies::{compact, CompanyDirectory, CompanyMentions};
use docindex_core::finance::metrics::year_asked;
use docindex_core::llm::json::complete_json;
use docindex_core::llm::Llm;
use docindex_core::model::DocType;
use docindex_core::prompts::research::{decompose_prompt, Decomposition, Filer};
use docindex_core::store::DocumentSummary;
use regex::Regex;
use std::sync::LazyLock;

/// One part of a research question: a company, or one of its filings, and what it is asked.
pub(super) struct PartPlan {
    pub(super) label: String,
    pub(super) company: String,
    pub(super) question: String,
    pub(super) request: SearchRequest,
    pub(super) why: String,
}

/// The parts a question is answered in, and what planning them reported.
pub(super) struct Plan {
    pub(super) parts: Vec<PartPlan>,
    pub(super) steps: Vec<String>,
    /// Targets the model invented (a company or year the question does not name), dropped.
    pub(super) invented: usize,
    pub(super) tokens: u64,
}

impl Library {
    /// Seed 001's decomposition by the model: each sub-question's company must be one the
    /// question names (by the directory's reading of it) and its year one the question
    /// names; any other is invented, dropped and counted. A company the model left out is
    /// asked as the offline plan would. `None` when the model's reply is unusable.
    pub(super) fn plan_with_model(
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
        let offline = self.plan_parts(question, directory, request, mentions)?;
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
    /// The fiscal year of the company's filing that answers for the year the question
    /// asks, when the scope holds several years' filings: the filing of that year, else the
    /// next year's (which reports it as the prior year). `None` when the question names no
    /// year, the scope already fixes one, or one filing is all there is.
    fn filing_year_for(&self, request: &SearchRequest, question: &str) -> Result<Option<i32>> {
        if request.scope.fiscal_year.is_some() || request.scope.doc.is_some() {
            return Ok(None);
        }
        let reading =
            docindex_core::question::Question::read(question).map_err(crate::AppError::Question)?;
        let Some(asked) = reading.latest_period().map(|p| p.year) else {
            return Ok(None);
        };
        let years: Vec<i32> = self
            .scope(&request.scope)?
            .iter()
            .filter_map(|d| d.fiscal_year)
            .collect();
        let distinct = years
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        if distinct < 2 {
            return Ok(None);
        }
        Ok([asked, asked + 1].into_iter().find(|y| years.contains(y)))
    }

    pub(super) fn plan_parts(
        &self,
        asked: &str,
        directory: &CompanyDirectory,
        request: &SearchRequest,
        mentions: &CompanyMentions,
    ) -> Result<Plan> {
        let mut plans = Vec::new();
        let kinds = filing_kinds_named(asked);
        for company in &mentions.known {
            // Each company is asked of its own period when the question gives each one's.
            let question = &directory.question_with_own_periods(asked, company);
            let for_each = &directory.question_for_each(question);
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
            let why = match self.filing_year_for(&company_request, question)? {
                Some(year) => {
                    company_request.scope.fiscal_year = Some(year);
                    format!("{why}; its filing for fiscal {year} (the year asked)")
                }
                None => why,
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
pub(super) fn filing_kinds_named(question: &str) -> Vec<DocType> {
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
