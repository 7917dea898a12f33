//! Provenance quality on topics whose on-topic sentences were marked by hand: per topic and
//! document, precision (report rows that hold a marked sentence) and recall (the marked
//! core sentences some row holds), offline, with the scan's time.

use crate::search::{Scope, SearchRequest};
use crate::{Library, Result};
use docindex_core::provenance::ScanOptions;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// One topic on one document, with its sentences marked.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ProvenanceCase {
    /// The document (id, name or stem).
    pub doc: String,
    pub topic: String,
    /// Sentences on the topic's core concept: a complete report holds every one.
    pub core: Vec<String>,
    /// Sentences on the topic's periphery: a report may hold them without losing precision.
    #[serde(default)]
    pub related: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProvenanceScore {
    pub doc: String,
    pub topic: String,
    pub rows: usize,
    pub rows_on_topic: usize,
    pub core_found: usize,
    pub core_total: usize,
    pub precision: f64,
    pub recall: f64,
    pub sections_scanned: usize,
    pub sections_total: usize,
    pub millis: f64,
    /// Rows that hold no marked sentence, and core sentences no row holds.
    pub off_topic: Vec<String>,
    pub missed: Vec<String>,
}

/// Lowercase, quotes straightened, whitespace collapsed.
fn normalized(text: &str) -> String {
    text.replace(['’', '‘'], "'")
        .replace(['“', '”'], "\"")
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Marked sentences are stored as their first 160 characters, and a row may split a
/// sentence where the marking did not (or the reverse): either holds the other's opening.
const OPENING: usize = 80;
const SHORTEST_FRAGMENT: usize = 30;

fn opening(text: &str) -> &str {
    match text.char_indices().nth(OPENING) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

fn holds(row: &str, marked: &str) -> bool {
    row.contains(opening(marked))
        || (row.chars().count() >= SHORTEST_FRAGMENT && marked.contains(opening(row)))
}

impl Library {
    /// Score provenance on each case with the default (offline) options.
    pub fn evaluate_provenance(
        &self,
        cases: &[ProvenanceCase],
        on_progress: &dyn Fn(usize, usize),
    ) -> Result<Vec<ProvenanceScore>> {
        let mut scores = Vec::new();
        for (i, case) in cases.iter().enumerate() {
            on_progress(i, cases.len());
            let mut scope = SearchRequest::new(&case.topic);
            scope.scope = Scope::document(&case.doc);
            let started = Instant::now();
            let report = self.provenance(&case.topic, &scope, ScanOptions::default(), &|_| {})?;
            let millis = started.elapsed().as_secs_f64() * 1000.0;
            let rows: Vec<String> = report
                .rows()
                .iter()
                .map(|(_, x)| normalized(&x.text))
                .collect();
            let marked: Vec<String> = case
                .core
                .iter()
                .chain(&case.related)
                .map(|m| normalized(m))
                .collect();
            let off_topic: Vec<String> = rows
                .iter()
                .filter(|r| !marked.iter().any(|m| holds(r, m)))
                .cloned()
                .collect();
            let missed: Vec<String> = case
                .core
                .iter()
                .filter(|c| {
                    let c = normalized(c);
                    !rows.iter().any(|r| holds(r, &c))
                })
                .cloned()
                .collect();
            let on_topic = rows.len() - off_topic.len();
            let found = case.core.len() - missed.len();
            scores.push(ProvenanceScore {
                doc: case.doc.clone(),
                topic: case.topic.clone(),
                rows: rows.len(),
                rows_on_topic: on_topic,
                core_found: found,
                core_total: case.core.len(),
                precision: if rows.is_empty() {
                    0.0
                } else {
                    on_topic as f64 / rows.len() as f64
                },
                recall: if case.core.is_empty() {
                    1.0
                } else {
                    found as f64 / case.core.len() as f64
                },
                sections_scanned: report.coverage.sections_scanned,
                sections_total: report.coverage.sections_total,
                millis,
                off_topic,
                missed,
            });
        }
        on_progress(cases.len(), cases.len());
        Ok(scores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_holds_a_marked_sentence_however_either_was_split() {
        let marked = normalized("Climate change may also exacerbate challenges relating to the availability and quality of water and raw materials, including");
        assert!(holds(
            &normalized("Intro. Climate change may also exacerbate challenges relating to the availability and quality of water and raw materials, including those used."),
            &marked
        ));
        // The row is the first half of the marked sentence.
        assert!(holds(
            &normalized("Climate change may also exacerbate challenges relating to"),
            &marked
        ));
        assert!(!holds(&normalized("Changes in tax law."), &marked));
        assert_eq!(normalized("It’s  “odd”"), "it's \"odd\"");
    }
}
