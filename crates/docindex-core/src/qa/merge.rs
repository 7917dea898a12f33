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
