//! Provenance with a model: the prompt that judges excerpts one by one (sentences, not
//! sections) and the shape of its reply, and the summary of the evidence.

use super::opening::{JUDGE_EXCERPTS, SUMMARISE_EVIDENCE};
use super::{schema, system};
use crate::llm::LlmRequest;
use serde::Deserialize;

/// An excerpt offered to the model, labelled `X1`, `X2`, ….
pub struct Offered {
    pub id: String,
    pub path: String,
    pub text: String,
}

/// Ask how squarely each excerpt discusses `topic`.
pub fn judge_prompt(topic: &str, terms: &[String], offered: &[Offered]) -> LlmRequest {
    let mut listing = String::new();
    for x in offered {
        listing.push_str(&format!("[{}] ({})\n{}\n\n", x.id, x.path, x.text));
    }
    let user = format!(
        "{JUDGE_EXCERPTS} discusses this topic.\n\n\
Topic: {topic}\nThe topic covers: {}\n\nExcerpts:\n{listing}\
For each excerpt give a relevance from 0.0 (not about the topic; a word in passing) to 1.0 \
(squarely about it) and a short reason naming what in the excerpt is on topic.\n\n\
Reply with JSON: {{\"judgements\": [{{\"id\": \"X1\", \"relevance\": 0.8, \"reason\": \"…\"}}]}}",
        terms.join(", ")
    );
    LlmRequest::new(
        system(
            "You judge which excerpts of financial filings discuss a topic.",
            true,
        ),
        user,
    )
    .with_schema(
        "judgements",
        schema::object(&[(
            "judgements",
            schema::array(schema::object(&[
                (
                    "id",
                    schema::one_of(&offered.iter().map(|x| x.id.as_str()).collect::<Vec<_>>()),
                ),
                ("relevance", schema::number()),
                ("reason", schema::string()),
            ])),
        )]),
    )
    .with_max_tokens(1500)
}

/// One call: a few sentences on what the evidence says, from its excerpts only, citing
/// `[E1]`-style labels. `listing` holds one labelled excerpt line per piece of evidence.
pub fn evidence_summary_prompt(topic: &str, listing: &str) -> LlmRequest {
    LlmRequest::new(
        system("You summarise evidence from financial filings.", false),
        format!(
            "{SUMMARISE_EVIDENCE} \"{topic}\" in two to four sentences, citing the \
             evidence labels like [E1]. Use only these excerpts:\n\n{listing}"
        ),
    )
    .with_max_tokens(400)
}

#[derive(Debug, Deserialize)]
pub struct Judgements {
    pub judgements: Vec<Judgement>,
}

#[derive(Debug, Deserialize)]
pub struct Judgement {
    pub id: String,
    pub relevance: f64,
    #[serde(default)]
    pub reason: String,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_judging_prompt_is_stable() {
        let request = judge_prompt(
            "climate change",
            &["climate".to_string(), "greenhouse*".to_string()],
            &[Offered {
                id: "X1".into(),
                path: "Item 1A › Climate".into(),
                text: "Greenhouse gases may raise temperatures.".into(),
            }],
        );
        let user: Vec<&str> = request
            .messages
            .iter()
            .map(|m| m.content.as_str())
            .collect();
        insta::assert_snapshot!("provenance_judge_prompt", user.join("\n---\n"));
    }
}
