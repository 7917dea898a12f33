//! Answers joined: a second answer's statements appended after a first's, its citations
//! renumbered, the statements the first already quotes left out; per-company answers
//! combined under each company's name, with their comparison.

use super::compare::{compare, ComparedPart, Difference, StatedFigure};
use super::{Answer, Citation, ComputedMetric, Confidence, ConfidenceLabel};
use regex::Regex;

/// The numbers of the citation markers `[n]` in `text`.
fn markers_in(text: &str) -> Vec<usize> {
    static MARKER: std::sync::LazyLock<Option<Regex>> =
        std::sync::LazyLock::new(|| Regex::new(r"\[(\d+)\]").ok());
    match MARKER.as_ref() {
        Some(re) => re
            .captures_iter(text)
            .filter_map(|c| c[1].parse().ok())
            .collect(),
        None => Vec::new(),
    }
}

/// `text` with every citation marker `[n]` raised by `shift`.
pub fn renumber_markers(text: &str, shift: usize) -> String {
    static MARKER: std::sync::LazyLock<Option<Regex>> =
        std::sync::LazyLock::new(|| Regex::new(r"\[(\d+)\]").ok());
    match MARKER.as_ref() {
        Some(re) => re
            .replace_all(text, |c: &regex::Captures| {
                let n: usize = c[1].parse().unwrap_or(0);
                format!("[{}]", n + shift)
            })
            .into_owned(),
        None => text.to_string(),
    }
}

/// The statements of an answer text: each piece of text with the markers that close it
/// ("Net sales rose 2%. [3]" → ("Net sales rose 2%.", [3])).
fn cited_statements(text: &str) -> Vec<(String, Vec<usize>)> {
    static PIECE: std::sync::LazyLock<Option<Regex>> =
        std::sync::LazyLock::new(|| Regex::new(r"(?s)(.*?)((?:\s*\[\d+\])+)").ok());
    static MARKER: std::sync::LazyLock<Option<Regex>> =
        std::sync::LazyLock::new(|| Regex::new(r"\[(\d+)\]").ok());
    let (Some(piece), Some(marker)) = (PIECE.as_ref(), MARKER.as_ref()) else {
        return vec![(text.to_string(), Vec::new())];
    };
    let mut out = Vec::new();
    let mut end = 0;
    for caps in piece.captures_iter(text) {
        let markers = marker
            .captures_iter(&caps[2])
            .filter_map(|m| m[1].parse().ok())
            .collect();
        out.push((caps[1].trim().to_string(), markers));
        end = caps.get(0).map_or(end, |m| m.end());
    }
    let rest = text[end..].trim();
    if !rest.is_empty() {
        out.push((rest.to_string(), Vec::new()));
    }
    out
}

/// `first` followed by what `second` adds: its statements whose quotes `first` does not
/// already cite (the same sentence may be found by two searches), with their citations
/// renumbered after `first`'s.
pub fn append_answer(mut first: Answer, second: Answer) -> Answer {
    if !second.answered {
        return first;
    }
    if !first.answered {
        let question = std::mem::take(&mut first.question);
        return Answer { question, ..second };
    }
    let already = |c: &Citation| {
        first
            .citations
            .iter()
            .any(|f| f.excerpt.trim() == c.excerpt.trim())
    };
    let mut added_text = Vec::new();
    let mut added_citations: Vec<Citation> = Vec::new();
    for (statement, markers) in cited_statements(&second.answer) {
        let cited: Vec<&Citation> = markers
            .iter()
            .filter_map(|m| second.citations.iter().find(|c| c.marker == *m))
            .collect();
        if cited.is_empty() || cited.iter().all(|c| already(c)) {
            continue;
        }
        let mut renumbered = String::new();
        for c in cited {
            let marker = first.citations.len() + added_citations.len() + 1;
            added_citations.push(Citation {
                marker,
                ..c.clone()
            });
            renumbered.push_str(&format!("[{marker}]"));
        }
        added_text.push(format!("{statement} {renumbered}"));
    }
    if added_text.is_empty() {
        return first;
    }
    first.answer.push(' ');
    first.answer.push_str(&added_text.join(" "));
    first.citations.extend(added_citations);
    first.unsupported_numbers.extend(second.unsupported_numbers);
    first.reasoning.extend(second.reasoning);
    for node in second.nodes_visited {
        if !first.nodes_visited.contains(&node) {
            first.nodes_visited.push(node);
        }
    }
    first
}

/// One part of a combined answer: the answer for one company, or for one filing when a
/// company's filings are compared.
pub struct AnswerPart {
    /// What the part is called in the answer: the company, or the company and the filing.
    pub label: String,
    pub company: String,
    pub answer: Answer,
}

/// One answer from per-company (or per-filing) answers to the same question, each under
/// its label, citations renumbered in order; `absent` companies are said to have no filing.
/// When two or more parts state a figure of one concept, the answer carries their
/// comparison table and states the differences (and any conflict between filings of one
/// company), cited to both cells. Confidence follows the sub-questions: HIGH when every
/// part is answered from three or more sections in all, MEDIUM when more than half are,
/// LOW otherwise.
pub fn combine_by_company(question: &str, parts: Vec<AnswerPart>, absent: &[String]) -> Answer {
    let mut text = Vec::new();
    if !absent.is_empty() {
        text.push(format!(
            "The library has no filing for {}, so nothing is said about {}.",
            absent.join(" or "),
            if absent.len() == 1 { "it" } else { "them" }
        ));
    }
    let total = parts.len() + absent.len();
    let mut combined: Option<Answer> = None;
    let mut answered = 0;
    let mut sections = std::collections::BTreeSet::new();
    let mut compared: Vec<(String, String, Vec<StatedFigure>)> = Vec::new();
    // Markers of a part's dropped citations stay in its text: the next part's start above
    // every marker used so far, so none is read as another's.
    let mut shift = 0;
    for AnswerPart {
        label,
        company,
        answer: part,
    } in parts
    {
        if part.answered {
            answered += 1;
            sections.extend(
                part.citations
                    .iter()
                    .map(|c| (c.doc_id.clone(), c.node_id.clone())),
            );
            text.push(format!(
                "{label}: {}",
                renumber_markers(&part.answer, shift)
            ));
        } else {
            text.push(format!(
                "{label}: its filings do not appear to answer this."
            ));
        }
        let figures: Vec<StatedFigure> = part.figures.iter().map(|f| f.shifted(shift)).collect();
        compared.push((label, company, figures.clone()));
        let citations: Vec<Citation> = part
            .citations
            .iter()
            .chain(&part.cell_citations)
            .map(|c| Citation {
                marker: c.marker + shift,
                ..c.clone()
            })
            .collect();
        let used = part
            .citations
            .iter()
            .chain(&part.cell_citations)
            .map(|c| c.marker)
            .chain(markers_in(&part.answer))
            .chain(part.figures.iter().flat_map(|f| f.markers.iter().copied()))
            .max()
            .unwrap_or(0);
        shift += used;
        match &mut combined {
            None => {
                combined = Some(Answer {
                    citations,
                    figures,
                    ..part
                })
            }
            Some(all) => {
                all.citations.extend(citations);
                all.citations_dropped += part.citations_dropped;
                all.unsupported_numbers.extend(part.unsupported_numbers);
                all.reasoning.extend(part.reasoning);
                all.nodes_visited.extend(part.nodes_visited);
                all.tokens_used += part.tokens_used;
                all.computed.extend(part.computed);
                all.figures.extend(figures);
                all.documents.extend(part.documents);
                all.from_cache &= part.from_cache;
            }
        }
    }
    let mut answer = combined.unwrap_or_else(|| Answer::unanswered(question));
    let table_parts: Vec<ComparedPart> = compared
        .iter()
        .map(|(label, company, figures)| ComparedPart {
            label,
            company,
            figures,
        })
        .collect();
    answer.comparison = compare(&table_parts);
    if let Some(table) = &answer.comparison {
        for difference in &table.differences {
            text.push(difference.text.clone());
            answer.computed.push(difference_metric(difference));
        }
        for conflict in &table.conflicts {
            text.push(conflict.text.clone());
        }
        answer.reasoning.push(format!(
            "compared {} across {} row(s): {} difference(s), {} conflict(s)",
            table
                .columns
                .iter()
                .map(|c| c.label.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            table.rows.len(),
            table.differences.len(),
            table.conflicts.len()
        ));
    }
    answer.question = question.to_string();
    answer.answer = text.join("\n\n");
    answer.answered = answered > 0;
    let label = if answered == total && sections.len() >= 3 {
        ConfidenceLabel::High
    } else if answered * 2 > total && !sections.is_empty() {
        ConfidenceLabel::Medium
    } else {
        ConfidenceLabel::Low
    };
    answer.confidence = Confidence {
        label,
        score: answered as f64 / total.max(1) as f64,
        answered,
        unanswered: total - answered,
        source_nodes: sections.len(),
    };
    answer
}

/// A difference as a metric the answer computed: its operands are the two cited cells.
fn difference_metric(difference: &Difference) -> ComputedMetric {
    ComputedMetric {
        metric: format!("{}_difference", difference.concept),
        label: format!("difference in {}", difference.label),
        value: difference.value,
        shown: difference.shown.clone(),
        formula: format!("{} − {}", difference.first, difference.second),
        worked: difference.text.clone(),
        scale: difference.scale.clone(),
        period: None,
    }
}
