//! Research across filings with a model: seed 001's decomposition of a question into
//! atomic sub-questions, each with its target company and year, told which companies and
//! years the library holds.

use super::opening::DECOMPOSE_QUESTION;
use super::system;
use crate::llm::LlmRequest;
use serde::Deserialize;

/// A filer of the library as the model is told of it.
pub struct Filer<'a> {
    pub name: &'a str,
    pub ticker: Option<&'a str>,
    /// Fiscal years of its filings.
    pub years: Vec<i32>,
}

pub fn decompose_prompt(question: &str, filers: &[Filer]) -> LlmRequest {
    let mut listing = String::new();
    for filer in filers {
        let ticker = filer.ticker.map(|t| format!(" ({t})")).unwrap_or_default();
        let years: Vec<String> = filer.years.iter().map(i32::to_string).collect();
        listing.push_str(&format!(
            "- {}{ticker}: fiscal years {}\n",
            filer.name,
            if years.is_empty() {
                "not stated".to_string()
            } else {
                years.join(", ")
            }
        ));
    }
    let user = format!(
        "{DECOMPOSE_QUESTION} that can each be answered from a single document section. If \
the question is already atomic, return it as-is. Name a target company only when the \
question names it, using the library's name for it; name a target year only when the \
question names it.\n\n\
Question: {question}\n\nCompanies in the library:\n{listing}\n\
Reply with JSON: {{\"sub_questions\": [{{\"question\": \"<atomic sub-question>\", \
\"target_company\": \"<company/ticker or null>\", \"target_year\": <year or null>}}]}}"
    );
    LlmRequest::new(
        system(
            "You break questions about financial filings into atomic sub-questions.",
            true,
        ),
        user,
    )
    .with_json()
    .with_max_tokens(800)
}

#[derive(Debug, Deserialize)]
pub struct Decomposition {
    pub sub_questions: Vec<SubQuestion>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SubQuestion {
    pub question: String,
    #[serde(default)]
    pub target_company: Option<String>,
    #[serde(default)]
    pub target_year: Option<i32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_decomposition_prompt_names_the_librarys_filers_and_years() {
        let request = decompose_prompt(
            "Which had higher revenue in 2023, Apple or Tesla?",
            &[
                Filer {
                    name: "Apple Inc.",
                    ticker: Some("AAPL"),
                    years: vec![2023, 2024],
                },
                Filer {
                    name: "Tesla, Inc.",
                    ticker: None,
                    years: vec![],
                },
            ],
        );
        let system = request.system.clone().unwrap_or_default();
        insta::assert_snapshot!(
            "research_decompose_prompt",
            format!("{system}\n---\n{}", request.messages[0].content)
        );
    }
}
