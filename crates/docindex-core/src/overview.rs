//! What a document is about: "What was the 8-K about?" is answered with the Items it
//! reports (8.01 Other Events, 5.07 Submission of Matters to a Vote…), each with the first
//! sentences of its text, cited (exhibit lists and signatures left out); "What does the
//! company do?" with the opening sentences of the section that describes the business.

use crate::charmap::CharMap;
use crate::model::{DocType, DocumentIndex, Engine, Node};
use crate::qa::{Answer, Citation, Confidence, ConfidenceLabel};
use crate::question::passage::cues_in;
use crate::question::PassageKind;
use crate::search::sentence_spans;
use crate::structure::patterns::item_label;
use regex::Regex;
use std::sync::LazyLock;

static OVERVIEW: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\bwhat\b.{0,60}\b(?:8-?k|6-?k|filing|report|release|document)\b.{0,30}\babout\b|\bwhat (?:did|does)\b.{0,60}\b(?:8-?k|6-?k|filing|report)\b.{0,20}\b(?:announce|report|disclose|say|cover)|\b(?:subject|agenda|purpose|topic|gist|main point|matters?)\b.{0,40}\b(?:8-?k|6-?k|current report)\b|\bsummari[sz]e\b.{0,40}\b(?:8-?k|6-?k|current report)\b",
    )
    .ok()
});

/// Whether the question asks what a filing as a whole is about.
pub fn is_overview_question(question: &str) -> bool {
    OVERVIEW.as_ref().is_some_and(|re| re.is_match(question))
}

/// Items that only carry exhibits or signatures say nothing of what happened.
fn reports_an_event(label: &str) -> bool {
    label != "9.01"
}

/// The items a current report (8-K, 6-K) announces, each with its first two sentences,
/// cited. `None` for other documents or a report without item sections.
pub fn overview(question: &str, doc: &DocumentIndex) -> Option<Answer> {
    if !matches!(doc.doc_type, DocType::Form8K | DocType::Form6K) {
        return None;
    }
    let map = CharMap::new(&doc.text);
    let mut text = String::new();
    let mut citations = Vec::new();
    for node in &doc.nodes {
        let Some(label) = item_label(&node.title) else {
            continue;
        };
        if !reports_an_event(&label) {
            continue;
        }
        let body = map.slice(node.span);
        let sentences: Vec<(usize, usize, &str)> = sentence_spans(body)
            .into_iter()
            .filter(|(_, _, s)| s.trim() != node.title.trim() && s.split_whitespace().count() >= 6)
            .take(2)
            .collect();
        let mut markers = String::new();
        // The heading itself is cited: it names the item reported.
        for (start, end, excerpt) in
            std::iter::once((0, node.title.chars().count(), node.title.as_str()))
                .filter(|_| body.starts_with(node.title.as_str()))
                .chain(sentences.iter().map(|&(s, e, t)| (s, e, t)))
        {
            let marker = citations.len() + 1;
            citations.push(cite_in_node(doc, node, marker, (start, end, excerpt)));
            markers.push_str(&format!("[{marker}]"));
        }
        if !text.is_empty() {
            text.push(' ');
        }
        let summary: Vec<&str> = sentences.iter().map(|(_, _, s)| s.trim()).collect();
        text.push_str(&format!(
            "The report is filed under {} {}: {}",
            node.title.trim().trim_end_matches('.'),
            markers,
            summary.join(" ")
        ));
    }
    if citations.is_empty() {
        return None;
    }
    let source_nodes = citations
        .iter()
        .map(|c| c.node_id.as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    Some(Answer {
        question: question.to_string(),
        answer: text,
        answered: true,
        confidence: Confidence {
            label: ConfidenceLabel::High,
            score: 0.9,
            answered: 1,
            unanswered: 0,
            source_nodes,
        },
        citations,
        citations_dropped: 0,
        unsupported_numbers: Vec::new(),
        reasoning: vec!["listed the items the report is filed under".to_string()],
        nodes_visited: Vec::new(),
        engine: Engine::Extractive,
        tokens_used: 0,
        from_cache: false,
        computed: Vec::new(),
        figures: Vec::new(),
        comparison: None,
        documents: Vec::new(),
        invented_dropped: 0,
        cell_citations: Vec::new(),
    })
}

/// The citation `marker` of a sentence of `node` given by its char range in the node's text.
fn cite_in_node(
    doc: &DocumentIndex,
    node: &Node,
    marker: usize,
    (start, end, excerpt): (usize, usize, &str),
) -> Citation {
    Citation {
        marker,
        doc_id: doc.doc_id.clone(),
        doc_name: doc.doc_name.clone(),
        node_id: node.node_id.clone(),
        title: node.title.clone(),
        start_page: node.start_page,
        end_page: node.end_page,
        excerpt: excerpt.to_string(),
        start_char: node.span.start_char + start,
        end_char: node.span.start_char + end,
    }
}

/// How many opening sentences of the business section a description is chosen from.
const OPENING_SENTENCES: usize = 8;

/// A section title without its item or note label: "Item 1. Business" → "business",
/// "NOTE 1 — ORGANIZATION" → "organization".
fn bare_title(title: &str) -> String {
    let lower = title.trim().to_lowercase();
    let rest = ["item ", "note "]
        .iter()
        .find_map(|label| lower.strip_prefix(label))
        .map(|rest| {
            rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '.')
                .trim_start_matches(|c: char| !c.is_alphanumeric())
        })
        .unwrap_or(&lower);
    rest.trim_end_matches(|c: char| !c.is_alphanumeric())
        .to_string()
}

/// The opening prose of the section that describes the business (Item 1, a 20-F's Item 4,
/// a prospectus summary, a 10-Q's organization note): its first two sentences of eight
/// words or more, cited. `None` when no such section holds prose.
pub fn business_description(question: &str, doc: &DocumentIndex) -> Option<Answer> {
    let words = crate::question::passage::narrative_words().ok()?;
    let map = CharMap::new(&doc.text);
    for node in &doc.nodes {
        if !words.business_sections.contains(&bare_title(&node.title)) {
            continue;
        }
        let body = map.slice(node.span);
        let prose: Vec<(usize, usize, &str)> = sentence_spans(body)
            .into_iter()
            .filter(|(_, _, s)| {
                let s = s.trim();
                s != node.title.trim()
                    && !s.contains('|')
                    && s.ends_with('.')
                    && s.split_whitespace().count() >= 8
            })
            .take(OPENING_SENTENCES)
            .collect();
        if prose.len() < 2 {
            continue;
        }
        // Of the opening, the sentences that say what the company does ("designs",
        // "operates", "products"), not where it was incorporated; in document order.
        let describes = |s: &str| cues_in(PassageKind::Business, &s.to_lowercase()) > 0;
        let mut chosen: Vec<usize> = (0..prose.len())
            .filter(|&i| describes(prose[i].2))
            .take(2)
            .collect();
        for i in 0..prose.len() {
            if chosen.len() == 2 {
                break;
            }
            if !chosen.contains(&i) {
                chosen.push(i);
            }
        }
        chosen.sort_unstable();
        let sentences: Vec<(usize, usize, &str)> = chosen.into_iter().map(|i| prose[i]).collect();
        let citations: Vec<Citation> = sentences
            .iter()
            .enumerate()
            .map(|(i, &sentence)| cite_in_node(doc, node, i + 1, sentence))
            .collect();
        let text = sentences
            .iter()
            .enumerate()
            .map(|(i, (_, _, s))| format!("{} [{}]", s.trim(), i + 1))
            .collect::<Vec<_>>()
            .join(" ");
        return Some(Answer {
            question: question.to_string(),
            answer: text,
            answered: true,
            confidence: Confidence {
                label: ConfidenceLabel::Medium,
                score: 0.6,
                answered: 1,
                unanswered: 0,
                source_nodes: 1,
            },
            citations,
            reasoning: vec![format!(
                "quoted the opening of \"{}\", the section that describes the business",
                node.title.trim()
            )],
            ..Answer::unanswered(question)
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overview_questions_are_told_from_topic_questions() {
        assert!(is_overview_question(
            "What was Amcor's July 2022 8-K about?"
        ));
        assert!(is_overview_question("What did the 8-K announce?"));
        assert!(is_overview_question(
            "What was the subject of Amcor's 8-K filed on July 1, 2022?"
        ));
        assert!(is_overview_question(
            "What was the key agenda of the AMCOR's 8k filing dated 1st July 2022?"
        ));
        assert!(is_overview_question("Summarize Oracle's 8-K."));
        assert!(!is_overview_question(
            "What was the subject of the litigation settled in 2023?"
        ));
        assert!(!is_overview_question("What was the revenue in 2023?"));
        assert!(!is_overview_question(
            "How is the company thinking about margins?"
        ));
    }

    #[test]
    fn a_section_title_is_read_without_its_label() {
        assert_eq!(bare_title("Item 1. Business"), "business");
        assert_eq!(bare_title("ITEM 1. BUSINESS"), "business");
        assert_eq!(bare_title("NOTE 1 — ORGANIZATION"), "organization");
        assert_eq!(
            bare_title("Item 4. Information on the Company"),
            "information on the company"
        );
        assert_eq!(
            bare_title("Note 3 — Business Combinations"),
            "business combinations"
        );
        assert_eq!(bare_title("General"), "general");
    }
}
