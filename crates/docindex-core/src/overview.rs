//! What a current report is about: "What was the 8-K about?" is answered with the Items
//! it reports (8.01 Other Events, 5.07 Submission of Matters to a Vote…), each with the
//! first sentences of its text, cited. Exhibit lists and signatures are left out.

use crate::charmap::CharMap;
use crate::model::{DocType, DocumentIndex, Engine};
use crate::qa::{Answer, Citation, Confidence, ConfidenceLabel};
use crate::search::sentence_spans;
use crate::structure::patterns::item_label;
use regex::Regex;
use std::sync::LazyLock;

static OVERVIEW: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\bwhat\b.{0,60}\b(?:8-k|6-k|filing|report|release|document)\b.{0,30}\babout\b|\bwhat (?:did|does)\b.{0,60}\b(?:8-k|6-k|filing|report)\b.{0,20}\b(?:announce|report|disclose|say|cover)\b",
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
            citations.push(Citation {
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
            });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overview_questions_are_told_from_topic_questions() {
        assert!(is_overview_question(
            "What was Amcor's July 2022 8-K about?"
        ));
        assert!(is_overview_question("What did the 8-K announce?"));
        assert!(!is_overview_question("What was the revenue in 2023?"));
        assert!(!is_overview_question(
            "How is the company thinking about margins?"
        ));
    }
}
