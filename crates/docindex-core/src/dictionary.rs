//! Defined terms and acronyms (`Apple Inc. (the “Company”)`, `Adjusted EBITDA
//! (“AEBITDA”)`, `Securities and Exchange Commission (SEC)`) with the span defining them.

use crate::charmap::CharMap;
use crate::model::{DictionaryEntry, Node, TermKind};
use crate::xref::NodeLocator;
use regex::Regex;
use std::collections::HashSet;
use std::sync::LazyLock;

static QUOTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\((?:(?:together|collectively),?\s+)?(?:with\s+[^()“"]{1,40},?\s+)?(?:the\s+|each,?\s+an?\s+|an?\s+|hereinafter\s+)?[“"]([^”"()\n]{1,60})[”"]\)"#)
        .unwrap_or_else(|_| unreachable!())
});
static BARE_ACRONYM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\(([A-Z][A-Za-z&]{1,9}s?)\)").unwrap_or_else(|_| unreachable!()));

const STOP: [&str; 9] = ["of", "and", "for", "the", "on", "in", "&", "to", "a"];

/// Words before `end` in the same clause (stopping at sentence or clause punctuation).
fn preceding_words(text: &str, end: usize, max_words: usize) -> (usize, Vec<(usize, &str)>) {
    let window_start = text[..end]
        .char_indices()
        .rev()
        .take(300)
        .last()
        .map(|(i, _)| i)
        .unwrap_or(0);
    let window = &text[window_start..end];
    // A clause starts after sentence punctuation followed by a capital, or a line break.
    let mut clause_start = 0;
    for (i, ch) in window.char_indices() {
        let after = &window[i + ch.len_utf8()..];
        let boundary = match ch {
            '\n' | ';' | '(' | ')' => true,
            '.' | ':' => {
                after.starts_with(' ')
                    && after[1..].starts_with(|c: char| c.is_uppercase())
                    && !window[..i].ends_with("Inc")
                    && !window[..i].ends_with("Corp")
                    && !window[..i].ends_with("Co")
                    && !window[..i].ends_with("Ltd")
            }
            _ => false,
        };
        if boundary {
            clause_start = i + ch.len_utf8();
        }
    }
    let clause = &window[clause_start..];
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut offset = 0;
    for w in clause.split(' ') {
        if !w.trim().is_empty() {
            words.push((
                window_start + clause_start + offset,
                w.trim_end_matches(','),
            ));
        }
        offset += w.len() + 1;
    }
    let skip = words.len().saturating_sub(max_words);
    let words: Vec<(usize, &str)> = words.into_iter().skip(skip).collect();
    (window_start + clause_start, words)
}

/// The words whose initials spell `acronym`, ending right before the parenthesis.
fn expansion<'a>(words: &[(usize, &'a str)], acronym: &str) -> Option<(usize, Vec<&'a str>)> {
    let letters: Vec<char> = acronym
        .trim_end_matches('s')
        .chars()
        .filter(|c| c.is_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let mut needed = letters.len();
    let mut taken = Vec::new();
    for &(pos, word) in words.iter().rev() {
        if needed == 0 {
            break;
        }
        let lower = word.to_lowercase();
        if STOP.contains(&lower.as_str()) {
            taken.push((pos, word));
            continue;
        }
        let contribution: Vec<char> = if word.len() > 1 && word.chars().all(|c| c.is_uppercase()) {
            word.chars().collect()
        } else {
            word.chars()
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .collect()
        };
        if contribution.len() > needed
            || letters[needed - contribution.len()..needed] != contribution[..]
        {
            // A word like "EBITDA" may also count by its first letter only.
            let first = word.chars().next()?.to_ascii_uppercase();
            if letters[needed - 1] != first {
                return None;
            }
            needed -= 1;
        } else {
            needed -= contribution.len();
        }
        taken.push((pos, word));
    }
    while taken
        .last()
        .is_some_and(|(_, w)| STOP.contains(&w.to_lowercase().as_str()))
    {
        taken.pop();
    }
    if needed != 0 || taken.is_empty() {
        return None;
    }
    taken.reverse();
    let start = taken[0].0;
    Some((start, taken.into_iter().map(|(_, w)| w).collect()))
}

/// Find defined terms and acronyms in `text`.
pub fn find(text: &str, map: &CharMap, nodes: &[Node]) -> Vec<DictionaryEntry> {
    let locator = NodeLocator::new(nodes);
    let mut out = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut push = |term: String,
                    definition: String,
                    kind,
                    start: usize,
                    end: usize,
                    out: &mut Vec<DictionaryEntry>| {
        if definition.is_empty() || !seen.insert(term.to_lowercase()) {
            return;
        }
        let span = map.span(start, end);
        out.push(DictionaryEntry {
            node_id: locator.at(span.start_char).map(|n| n.node_id.clone()),
            term,
            definition,
            kind,
            span,
        });
    };
    for caps in QUOTED.captures_iter(text) {
        let (Some(whole), Some(term)) = (caps.get(0), caps.get(1)) else {
            continue;
        };
        let term_text = term.as_str().trim().to_string();
        let (clause_start, words) = preceding_words(text, whole.start(), 12);
        let is_acronym = term_text.chars().filter(|c| c.is_uppercase()).count() >= 2
            && !term_text.contains(' ')
            && term_text.len() <= 10;
        if is_acronym {
            if let Some((start, expanded)) = expansion(&words, &term_text) {
                push(
                    term_text,
                    expanded.join(" "),
                    TermKind::Acronym,
                    start,
                    whole.end(),
                    &mut out,
                );
                continue;
            }
        }
        let clause = text[clause_start..whole.start()]
            .trim_end()
            .trim_end_matches(',');
        let word_starts: Vec<usize> = clause
            .char_indices()
            .filter(|&(i, ch)| {
                !ch.is_whitespace() && (i == 0 || clause[..i].ends_with(char::is_whitespace))
            })
            .map(|(i, _)| i)
            .collect();
        let first = word_starts.len().saturating_sub(10);
        let Some(&from) = word_starts.get(first) else {
            continue;
        };
        let definition = clause[from..].trim().to_string();
        // A term named in a list of parties (", and John McManus (the “Employee”)") or
        // after a blank to fill in is defined by nothing before it.
        if !definition.starts_with(|c: char| c.is_alphanumeric() || matches!(c, '$' | '€' | '£'))
        {
            continue;
        }
        let start = clause_start + from;
        push(
            term_text,
            definition,
            TermKind::DefinedTerm,
            start,
            whole.end(),
            &mut out,
        );
    }
    for caps in BARE_ACRONYM.captures_iter(text) {
        let (Some(whole), Some(term)) = (caps.get(0), caps.get(1)) else {
            continue;
        };
        let acronym = term.as_str();
        if acronym.chars().filter(|c| c.is_uppercase()).count() < 2 {
            continue;
        }
        let (_, words) = preceding_words(text, whole.start(), 12);
        if let Some((start, expanded)) = expansion(&words, acronym) {
            push(
                acronym.to_string(),
                expanded.join(" "),
                TermKind::Acronym,
                start,
                whole.end(),
                &mut out,
            );
        }
    }
    out.sort_by_key(|e| e.span.start_char);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<(String, String, TermKind, String)> {
        let map = CharMap::new(text);
        find(text, &map, &[])
            .into_iter()
            .map(|e| (e.term, e.definition, e.kind, map.slice(e.span).to_string()))
            .collect()
    }

    #[test]
    fn finds_defined_terms_and_acronyms_with_spans() {
        let found = terms("Apple Inc. and its wholly-owned subsidiaries (collectively “Apple” or the “Company”) design phones. Adjusted EBITDA (“AEBITDA”) rose. The Securities and Exchange Commission (SEC) requires it.");
        assert!(
            found.contains(&(
                "AEBITDA".into(),
                "Adjusted EBITDA".into(),
                TermKind::Acronym,
                "Adjusted EBITDA (“AEBITDA”)".into()
            )),
            "{found:?}"
        );
        assert!(
            found.contains(&(
                "SEC".into(),
                "Securities and Exchange Commission".into(),
                TermKind::Acronym,
                "Securities and Exchange Commission (SEC)".into()
            )),
            "{found:?}"
        );
        // A party named in a list is defined by nothing before it (MGM Resorts' 2023 10-Q,
        // an exhibit); an amount before a term defines it (Adobe's notes).
        let parties = terms("This Employment Agreement (this “Agreement”) is entered into as of October 4, 2022, by and between MGM Resorts Satellite, LLC (“Employer”), and Gary Fritz (“Employee”).");
        assert!(parties.iter().all(|t| t.0 != "Employee"), "{parties:?}");
        let notes = terms(
            "we issued $1 billion of 3.25% senior notes due February 1, 2025 (the “2025 Notes”).",
        );
        assert!(
            notes
                .iter()
                .any(|t| t.0 == "2025 Notes" && t.1.starts_with("$1 billion")),
            "{notes:?}"
        );
        let apple = terms("This report covers Apple Inc. (the “Company”) and its subsidiaries.");
        assert_eq!(apple[0].0, "Company");
        assert_eq!(apple[0].3, "This report covers Apple Inc. (the “Company”)");
    }
}
