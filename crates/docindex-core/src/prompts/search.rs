//! The LLM leg of search: the model scores candidates the offline ranking picked.

use super::opening::SCORE_SECTIONS;
use super::{schema, system};
use crate::llm::LlmRequest;
use serde::Deserialize;

/// Seed 000's threshold: candidates the model scores below it are not results.
pub const RELEVANCE_THRESHOLD: f64 = 0.5;

/// A candidate section as the model sees it.
pub struct Candidate {
    pub id: String,
    pub path: String,
    pub summary: String,
    pub excerpt: String,
}

pub fn score_prompt(query: &str, candidates: &[Candidate]) -> LlmRequest {
    let mut listing = String::new();
    for c in candidates {
        listing.push_str(&format!(
            "[{}] {}\nSummary: {}\nPassage: {}\n\n",
            c.id, c.path, c.summary, c.excerpt
        ));
    }
    let user = format!(
        "{SCORE_SECTIONS} is to this query/topic.\n\n\
Query: {query}\n\nSections:\n{listing}\
For each section give a relevance from 0.0 (unrelated) to 1.0 (answers it directly) and a \
short reason.\n\nReply with JSON: {{\"scores\": [{{\"node_id\": \"…\", \"relevance\": 0.8, \"reason\": \"…\"}}]}}"
    );
    LlmRequest::new(
        system(
            "You judge which sections of financial filings are relevant to a query.",
            true,
        ),
        user,
    )
    .with_schema(
        "scores",
        schema::object(&[(
            "scores",
            schema::array(schema::object(&[
                (
                    "node_id",
                    schema::one_of(&candidates.iter().map(|c| c.id.as_str()).collect::<Vec<_>>()),
                ),
                ("relevance", schema::number()),
                ("reason", schema::string()),
            ])),
        )]),
    )
    .with_max_tokens(1500)
}

#[derive(Debug, Deserialize)]
pub struct Scores {
    pub scores: Vec<Score>,
}

#[derive(Debug, Deserialize)]
pub struct Score {
    pub node_id: String,
    pub relevance: f64,
    #[serde(default)]
    pub reason: String,
}
