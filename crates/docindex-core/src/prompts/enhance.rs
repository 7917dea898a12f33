//! The prompts of LLM-enhanced indexing, as pure functions so snapshots pin their wording.
//! Document text is always framed as data: instructions inside a filing are never followed.

use super::opening::{DESCRIBE_DOCUMENT, LIST_HEADINGS, MATCH_REFERENCES, SUMMARISE_SECTIONS};
use super::{schema, system};
use crate::llm::LlmRequest;

/// One block offered to the model as a possible heading.
pub struct BlockLine {
    pub block: usize,
    pub text: String,
}

pub fn structure(doc_name: &str, section_title: &str, lines: &[BlockLine]) -> LlmRequest {
    let mut listing = String::new();
    for line in lines {
        listing.push_str(&format!("[{}] {}\n", line.block, line.text));
    }
    let user = format!(
        "Document: {doc_name}\nPart being split: {section_title}\n\n\
Below are the blocks of this part, one per line: the block number in brackets, then the \
start of the block's text. Table rows are left out.\n\n{listing}\n\
{LIST_HEADINGS} or subsection (a heading), in order. Give the block \
number shown and copy the heading text exactly as it appears at the start of that block. \
Level 1 is a main section, 2 a subsection inside the one before it, 3 deeper. Do not list \
table-of-contents lines, running headers, page numbers or sentences of body text. If there \
are no headings, give an empty list.\n\n\
Reply with JSON: {{\"headings\": [{{\"block\": 12, \"title\": \"Liquidity and Capital Resources\", \"level\": 1}}]}}"
    );
    LlmRequest::new(
        system(
            "You find the section headings of financial documents.",
            true,
        ),
        user,
    )
    .with_json()
    .with_max_tokens(2048)
}

/// A section to summarise: its own text (leaves) or its lead text and its children's
/// summaries (parents).
#[derive(Debug, Clone)]
pub struct SummaryInput {
    pub node_id: String,
    pub path: String,
    pub text: String,
    pub children: Vec<(String, String)>,
}

pub fn summaries(doc_title: &str, sections: &[SummaryInput]) -> LlmRequest {
    let mut body = String::new();
    for s in sections {
        body.push_str(&format!("=== node {}: {}\n", s.node_id, s.path));
        if !s.text.trim().is_empty() {
            body.push_str(s.text.trim());
            body.push('\n');
        }
        if !s.children.is_empty() {
            body.push_str("Its subsections, already summarised:\n");
            for (title, summary) in &s.children {
                body.push_str(&format!("- {title}: {summary}\n"));
            }
        }
        body.push('\n');
    }
    let user = format!(
        "Document: {doc_title}\n\n\
{SUMMARISE_SECTIONS} in one to three sentences (at most 60 words): what it covers \
and its key figures, names and dates, with figures exactly as written. A section with \
subsections is summarised from its own text and its subsections' summaries. Each section \
starts with a line \"=== node <id>: <path>\".\n\n{body}\
Reply with JSON: {{\"summaries\": [{{\"node_id\": \"0012\", \"summary\": \"...\"}}]}}"
    );
    LlmRequest::new(
        system(
            "You write short, factual summaries of sections of financial documents for an \
analyst's index.",
            true,
        ),
        user,
    )
    .with_schema(
        "summaries",
        schema::object(&[(
            "summaries",
            schema::array(schema::object(&[
                (
                    "node_id",
                    schema::one_of(
                        &sections
                            .iter()
                            .map(|s| s.node_id.as_str())
                            .collect::<Vec<_>>(),
                    ),
                ),
                ("summary", schema::string()),
            ])),
        )]),
    )
    .with_max_tokens(4096)
}

pub fn profile(
    doc_name: &str,
    doc_type: &str,
    known: &[(String, String)],
    missing: &[&str],
    outline: &str,
    opening: &str,
) -> LlmRequest {
    let known: String = known.iter().map(|(k, v)| format!("- {k}: {v}\n")).collect();
    let mut fields = String::from("\"description\": \"...\"");
    for field in missing {
        fields.push_str(&format!(", \"{field}\": null"));
    }
    let user = format!(
        "Document: {doc_name} (detected type: {doc_type})\n\
Facts already known:\n{known}\n\
Sections:\n{outline}\n\
Opening text:\n{opening}\n\n\
{DESCRIBE_DOCUMENT} of the document for a library listing: who filed it, \
what it is and which period it covers. Also give each of these fields if the document \
states it, else null: {missing}. Dates are YYYY-MM-DD; fiscal_year is a number; \
fiscal_quarter is 1 to 4; key_people are names as written in the text.\n\n\
Reply with JSON: {{{fields}}}",
        missing = if missing.is_empty() {
            "(none)".to_string()
        } else {
            missing.join(", ")
        },
    );
    LlmRequest::new(system("You catalogue financial documents.", true), user)
        .with_json()
        .with_max_tokens(1024)
}

/// An unresolved cross-reference offered to the model.
pub struct RefInput {
    pub number: usize,
    pub target: String,
    pub context: String,
    pub source_node_id: String,
}

pub fn cross_references(doc_name: &str, sections: &str, refs: &[RefInput]) -> LlmRequest {
    let mut listing = String::new();
    for r in refs {
        listing.push_str(&format!(
            "{}. \"{}\" in section {}: \"{}\"\n",
            r.number, r.target, r.source_node_id, r.context
        ));
    }
    let user = format!(
        "Document: {doc_name}\n\nSections (id and path):\n{sections}\n\
Cross-references (number, what is referred to, where, and the words around it):\n{listing}\n\
{MATCH_REFERENCES} to the section of this document it points at. Use null for \
node_id when no section matches (for example a reference to another document).\n\n\
Reply with JSON: {{\"matches\": [{{\"ref\": 1, \"node_id\": \"0042\"}}]}}"
    );
    LlmRequest::new(
        system(
            "You resolve cross-references inside financial documents.",
            true,
        ),
        user,
    )
    .with_schema(
        "matches",
        schema::object(&[(
            "matches",
            schema::array(schema::object(&[
                ("ref", schema::integer()),
                ("node_id", schema::nullable(schema::string())),
            ])),
        )]),
    )
    .with_max_tokens(2048)
}
