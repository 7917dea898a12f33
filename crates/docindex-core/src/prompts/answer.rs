//! Prompts and reply parsing of the LLM engine's loop (plan, read, answer or give up).

use super::opening::{ANSWER_FROM_SOURCES, PLAN_NEXT_STEP};
use super::{schema, system};
use crate::llm::LlmRequest;
use serde::Deserialize;

/// A section the model may choose to read.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub node_id: String,
    pub path: String,
    pub summary: String,
}

/// A passage the model has read, labelled `S1`, `S2`, ….
#[derive(Debug, Clone)]
pub struct Source {
    pub label: String,
    pub path: String,
    pub text: String,
}

///
/// The first `given` sources were found for the model (statement rows, sentences the search
/// cited); the rest are sections it chose to read.
pub fn plan(question: &str, candidates: &[Candidate], read: &[Source], given: usize) -> LlmRequest {
    let mut listing = String::new();
    for c in candidates {
        listing.push_str(&format!("[{}] {} — {}\n", c.node_id, c.path, c.summary));
    }
    let given = given.min(read.len());
    let listed = |sources: &[Source]| -> String {
        sources
            .iter()
            .map(|s| format!("{}: {}\n{}\n", s.label, s.path, s.text))
            .collect()
    };
    let found = match given {
        0 => String::new(),
        _ => format!("Found for you:\n{}\n", listed(&read[..given])),
    };
    let read_so_far = match &read[given..] {
        [] => "(nothing yet)\n".to_string(),
        chosen => listed(chosen),
    };
    let user = format!(
        "Question: {question}\n\nSections you can read (id, path, summary):\n{listing}\n\
{found}Read so far:\n{read_so_far}\n\
{PLAN_NEXT_STEP}. To read sections, give their ids (at most 3). If what you have read \
answers the question, answer. If the sections cannot answer it, give up and say why.\n\n\
Reply with JSON: {{\"action\": \"read\" | \"answer\" | \"give_up\", \"node_ids\": [\"0012\"], \"reason\": \"...\"}}"
    );
    LlmRequest::new(
        system(
            "You find answers in financial filings by reading their sections.",
            true,
        ),
        user,
    )
    .with_schema("plan", plan_schema(candidates))
    .with_max_tokens(512)
}

/// The plan's shape: the sections it may read are the ones offered.
fn plan_schema(candidates: &[Candidate]) -> serde_json::Value {
    let ids: Vec<&str> = candidates.iter().map(|c| c.node_id.as_str()).collect();
    schema::object(&[
        ("action", schema::one_of(&["read", "answer", "give_up"])),
        (
            "node_ids",
            schema::array_of_at_most(schema::one_of(&ids), 3),
        ),
        ("reason", schema::string()),
    ])
}

#[derive(Debug, Deserialize)]
pub struct Plan {
    pub action: String,
    #[serde(default)]
    pub node_ids: Vec<String>,
    #[serde(default)]
    pub reason: Option<String>,
}

/// The answer prompt. `figures`, when the question names a metric, is what DocumentIndex
/// worked out from the statement rows among the sources; the model states those values
/// and cites the rows, and any other figure it writes must be in a source.
///
/// `reading` is how DocumentIndex read the question (its periods, the operation, unit and
/// rounding asked, the definition it gives), so the model computes what was asked from the
/// same cells; the model may read the question otherwise, but says so.
///
/// `draft` is the offline engine's answer (its verdict, figures and quoted sentences, with
/// its confidence): the model states at least what it states, and corrects it only where
/// the sources show it wrong.
pub fn answer(
    question: &str,
    sources: &[Source],
    figures: Option<&str>,
    reading: Option<&str>,
    draft: Option<&str>,
) -> LlmRequest {
    let listing: String = sources
        .iter()
        .map(|s| format!("{}: {}\n{}\n\n", s.label, s.path, s.text))
        .collect();
    let figures = match figures {
        Some(f) => format!(
            "Figures the statement rows in the sources give, read and computed for the period \
asked (use these values; cite the rows they come from, not this note): {f}\n\n"
        ),
        None => String::new(),
    };
    let reading = match reading {
        Some(r) => format!(
            "How the question was read (check it against the question; state the answer in \
the unit and rounding asked): {r}\n\n"
        ),
        None => String::new(),
    };
    let draft = match draft {
        Some(d) => format!(
            "A draft answer written offline from the same sources (its verdict, figures and \
quotations are checked against them): state at least what it states, and \
correct it only where the sources show it wrong: {d}\n\n"
        ),
        None => String::new(),
    };
    let user = format!(
        "Question: {question}\n\n{reading}{figures}{draft}Sources:\n{listing}\
{ANSWER_FROM_SOURCES}, in a few sentences, with figures exactly as \
written; when the question asks for a figure, state that figure first, then how it was \
found or worked out. Put a marker [1], [2], … after each sentence that states something \
from the sources. Then write a line SOURCES: and, for each \
marker, a line: [n] <source label>: \"<the exact sentence from that source that supports \
it>\". If the sources do not answer the question, say so and give no markers."
    );
    LlmRequest::new(
        system(
            "You answer questions about financial filings with verifiable citations.",
            false,
        ),
        user,
    )
    .with_max_tokens(1024)
}

/// The answer text before `SOURCES:` and each `[n] S3: "quote"` line after it.
pub fn split_sources(reply: &str) -> (String, Vec<(usize, String, String)>) {
    let (text, sources) = match reply.find("SOURCES:") {
        Some(at) => (&reply[..at], &reply[at + "SOURCES:".len()..]),
        None => (reply, ""),
    };
    let mut out = Vec::new();
    for line in sources.lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix('[') else {
            continue;
        };
        let Some((marker, rest)) = rest.split_once(']') else {
            continue;
        };
        let Ok(marker) = marker.trim().parse::<usize>() else {
            continue;
        };
        let Some((label, quote)) = rest.split_once(':') else {
            continue;
        };
        let quote = quote
            .trim()
            .trim_matches(|c| c == '"' || c == '“' || c == '”');
        out.push((marker, label.trim().to_string(), quote.to_string()));
    }
    (text.trim().to_string(), out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_answer_prompt_carries_the_reading_of_the_question() {
        let question = "You are an investment banker. What is the FY2024 capital expenditure amount (in USD billions) for Apple? Round to two decimal places.";
        let reading = crate::question::Question::read(question).unwrap();
        let sources = [super::Source {
            label: "S1".into(),
            path: "Item 8 › Consolidated Statements of Cash Flows".into(),
            text: "Payments for acquisition of property, plant and equipment | (9,447) | (10,959)"
                .into(),
        }];
        let request = super::answer(question, &sources, None, reading.summary().as_deref(), None);
        let user: Vec<String> = request.messages.iter().map(|m| m.content.clone()).collect();
        insta::assert_snapshot!("answer_prompt_with_reading", user.join("\n---\n"));
    }

    #[test]
    fn the_answer_prompt_carries_the_offline_draft_it_must_not_fall_short_of() {
        let question = "Is Apple's gross margin improving?";
        let reading = crate::question::Question::read(question).unwrap();
        let sources = [super::Source {
            label: "S1".into(),
            path: "Item 8 › Consolidated Statements of Operations".into(),
            text: "Gross margin | 180,683 | 169,148 | 170,782".into(),
        }];
        let draft = "Yes, improving: gross margin moved +2.9 points over 3 years. 43.31% in fiscal 2022 → 44.13% in fiscal 2023 → 46.21% in fiscal 2024 (confidence HIGH)";
        let request = super::answer(
            question,
            &sources,
            None,
            reading.summary().as_deref(),
            Some(draft),
        );
        let user: Vec<String> = request.messages.iter().map(|m| m.content.clone()).collect();
        insta::assert_snapshot!("answer_prompt_with_draft", user.join("\n---\n"));
    }

    #[test]
    fn sources_are_split_from_the_answer() {
        let (text, sources) = super::split_sources(
            "Revenue was $51.2 billion [1].\nSOURCES:\n[1] S2: \"Revenues were $51.2 billion.\"\n[x] junk\n",
        );
        assert_eq!(text, "Revenue was $51.2 billion [1].");
        assert_eq!(
            sources,
            vec![(
                1,
                "S2".to_string(),
                "Revenues were $51.2 billion.".to_string()
            )]
        );
    }
}
