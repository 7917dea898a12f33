//! Answers joined: a second answer's statements appended after a first's, its citations
//! renumbered, the statements the first already quotes left out.

use super::{Answer, Citation};
use regex::Regex;

/// The numbers of the citation markers `[n]` in `text`.
pub(super) fn markers_in(text: &str) -> Vec<usize> {
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

/// The openings of an offline judgment's verdict ("Yes, improving: …", "Not applicable: …").
const VERDICTS: [&str; 3] = ["not applicable", "yes", "no"];

/// The model's answer, led by the offline engine's verdict when the engine gave one and the
/// model's answer does not state it: a model answer may say more than the offline draft,
/// never less. The verdict comes with the figures and citations of its first statement.
pub fn keep_the_verdict(model: Answer, engine: &Answer) -> Answer {
    if !model.answered || !engine.answered {
        return model;
    }
    let opening = engine.answer.trim_start().to_lowercase();
    let Some(verdict) = VERDICTS.iter().find(|v| {
        opening.starts_with(*v) && opening[v.len()..].starts_with(|c: char| !c.is_alphanumeric())
    }) else {
        return model;
    };
    let head: String = model.answer.to_lowercase().chars().take(300).collect();
    let states_it = head.match_indices(verdict).any(|(at, _)| {
        let before = head[..at].chars().next_back();
        let after = head[at + verdict.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    });
    if states_it {
        return model;
    }
    let Some((statement, markers)) = cited_statements(&engine.answer).into_iter().next() else {
        return model;
    };
    let citations: Vec<Citation> = markers
        .iter()
        .filter_map(|m| engine.citations.iter().find(|c| c.marker == *m))
        .enumerate()
        .map(|(i, c)| Citation {
            marker: i + 1,
            ..c.clone()
        })
        .collect();
    let marks: String = (1..=citations.len()).map(|m| format!("[{m}]")).collect();
    let mut reasoning = model.reasoning.clone();
    reasoning.push(
        "the model's answer did not state the offline engine's verdict: it leads the answer"
            .to_string(),
    );
    let lead = Answer {
        answer: format!("{statement} {marks}").trim().to_string(),
        citations,
        reasoning,
        ..model.clone()
    };
    append_answer(lead, model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qa::{Confidence, ConfidenceLabel};

    fn answer(text: &str, citations: &[(usize, &str)]) -> Answer {
        Answer {
            answer: text.into(),
            answered: true,
            confidence: Confidence {
                label: ConfidenceLabel::Medium,
                score: 0.5,
                answered: 1,
                unanswered: 0,
                source_nodes: 1,
            },
            citations: citations
                .iter()
                .map(|&(marker, excerpt)| Citation {
                    marker,
                    doc_id: "d".into(),
                    doc_name: "d".into(),
                    node_id: "0001".into(),
                    title: "t".into(),
                    start_page: None,
                    end_page: None,
                    excerpt: excerpt.into(),
                    start_char: marker * 100,
                    end_char: marker * 100 + excerpt.len(),
                })
                .collect(),
            ..Answer::unanswered("Is Apple's gross margin improving?")
        }
    }

    #[test]
    fn an_appended_answer_adds_only_sentences_not_already_quoted() {
        let first = answer("Sales rose 21%. [1]", &[(1, "Sales rose 21%.")]);
        let second = answer(
            "Sales rose 21%. [1] Costs fell. [2]",
            &[(1, "Sales rose 21%."), (2, "Costs fell.")],
        );
        let merged = append_answer(first, second);
        assert_eq!(merged.answer, "Sales rose 21%. [1] Costs fell. [2]");
        assert_eq!(merged.citations.len(), 2);
        assert_eq!(merged.citations[1].start_char, 200);
        assert_eq!(merged.citations[1].marker, 2);
    }

    #[test]
    fn a_model_answer_without_the_offline_verdict_is_led_by_it() {
        let engine = answer(
            "Yes, improving: gross margin moved +2.9 points over 3 years. Gross margin: 43.31% in fiscal 2022 [1][2] → 46.21% in fiscal 2024. Products gross margin increased due to cost savings. [3]",
            &[(1, "Gross margin | 170,782"), (2, "Total net sales | 394,328"), (3, "Products gross margin increased due to cost savings")],
        );
        let model = answer(
            "Gross margin was 46.2% in fiscal 2024, driven by cost savings. [1]",
            &[(1, "Products gross margin increased due to cost savings")],
        );
        let kept = keep_the_verdict(model, &engine);
        assert!(kept.answer.starts_with("Yes, improving"), "{}", kept.answer);
        assert!(kept
            .answer
            .contains("Gross margin: 43.31% in fiscal 2022 [1][2]"));
        // The model's own sentence follows, its citation renumbered after the lead's.
        assert!(
            kept.answer
                .ends_with("Gross margin was 46.2% in fiscal 2024, driven by cost savings. [3]"),
            "{}",
            kept.answer
        );
        assert_eq!(kept.citations.len(), 3, "{:?}", kept.citations);
        // A model answer that states the verdict is left as it is.
        let model = answer(
            "Yes: gross margin rose from 43.3% to 46.2%. [1]",
            &[(1, "Gross margin | 170,782")],
        );
        assert_eq!(
            keep_the_verdict(model.clone(), &engine).answer,
            model.answer
        );
        // An offline answer without a verdict asks nothing of the model's.
        let plain = answer("Net sales were $391.0 billion. [1]", &[(1, "Net sales")]);
        let model = answer("Revenue was $391 billion. [1]", &[(1, "Net sales")]);
        assert_eq!(keep_the_verdict(model.clone(), &plain).answer, model.answer);
    }
}
