//! Statement rows in search: when a query names a line item or a metric, the rows of the
//! line items it needs become the first passages of the sections that hold them, each
//! after the heading rows that name its periods, so a reader is handed "Additions to
//! property and equipment | (28,107) | (23,886)" under "Year Ended June 30, | 2023 | 2022"
//! rather than the prose around the table.

use crate::search::SearchHit;
use crate::{AppError, Library, Result};
use docindex_core::charmap::CharMap;
use docindex_core::finance::metrics::year_asked;
use docindex_core::finance::sections::months_asked;
use docindex_core::finance::{best_rows, concept_table, locate_rows, named_line_item, LocatedRow};
use docindex_core::model::{DocumentIndex, Span};
use docindex_core::search::Excerpt;
use rayon::prelude::*;
use std::collections::HashMap;

/// At most this many documents are read for rows; the documents of the best hits first.
const MAX_DOCUMENTS: usize = 3;

fn excerpt(map: &CharMap, start: usize, end: usize) -> Excerpt {
    Excerpt {
        start_char: start,
        end_char: end,
        text: map.slice(Span::new(start, end)).to_string(),
        addressed_to_a_model: false,
    }
}

impl Library {
    /// Find the statement rows `query` needs in the documents of `scope` (ids) and pin the
    /// strongest row of each line item, with its headings, to the front of its section's
    /// passages (adding the section to `hits` when search did not rank it). Returns every
    /// row found, for answers that compute.
    pub(crate) fn attach_statement_rows(
        &self,
        query: &str,
        scope: &[String],
        hits: &mut Vec<SearchHit>,
        docs: &mut HashMap<String, DocumentIndex>,
    ) -> Result<Vec<LocatedRow>> {
        let table = concept_table().map_err(AppError::Finance)?;
        // The rows the query names in the filing's own words are looked for beside the
        // table's line items (see `named_line_item`).
        let named = named_line_item(table, query);
        let mut concepts = table.line_items_for(query);
        concepts.extend(named.as_ref());
        if concepts.is_empty() {
            return Ok(Vec::new());
        }
        // The documents search ranked first; a small scope is read whole, so a statement
        // the lexical legs missed is still found.
        let mut order: Vec<String> = Vec::new();
        for hit in hits.iter() {
            if !order.contains(&hit.doc_id) {
                order.push(hit.doc_id.clone());
            }
        }
        if scope.len() <= MAX_DOCUMENTS {
            for id in scope {
                if !order.contains(id) {
                    order.push(id.clone());
                }
            }
        }
        order.truncate(MAX_DOCUMENTS);
        for doc_id in &order {
            if !docs.contains_key(doc_id) {
                if let Some(doc) = self.store.load_for_hits(doc_id)? {
                    docs.insert(doc_id.clone(), doc);
                }
            }
            // A hit's document is read without its tagged facts: only rows need them.
            if let Some(doc) = docs.get_mut(doc_id) {
                if doc.facts.is_empty() {
                    doc.facts = self.store.facts_of(doc_id)?;
                }
            }
        }
        // Finding a document's rows is its own work: spread over the cores.
        let found: Vec<(&DocumentIndex, Vec<LocatedRow>, Vec<LocatedRow>)> = order
            .par_iter()
            .filter_map(|doc_id| docs.get(doc_id))
            .map(|doc| {
                let rows = locate_rows(doc, &concepts);
                let best: Vec<LocatedRow> = best_rows(
                    table,
                    &concepts,
                    &rows,
                    year_asked(query),
                    months_asked(query),
                )
                .into_iter()
                .cloned()
                .collect();
                (doc, rows, best)
            })
            .collect();
        let mut all = Vec::new();
        for (doc, rows, best) in found {
            pin_rows(doc, &best, hits);
            all.extend(rows);
        }
        Ok(all)
    }
}

/// Put each row (after its headings) at the front of its section's passages, scored above
/// every other passage so that reading order hands them over first.
fn pin_rows(doc: &DocumentIndex, rows: &[LocatedRow], hits: &mut Vec<SearchHit>) {
    if rows.is_empty() {
        return;
    }
    let map = CharMap::new(&doc.text);
    let top_passage = hits
        .iter()
        .flat_map(|h| h.passage_scores.iter().copied())
        .fold(0.0, f64::max);
    let top_score = hits.iter().map(|h| h.score).fold(0.0, f64::max);
    for (k, row) in rows.iter().enumerate() {
        let at = match hits
            .iter()
            .position(|h| h.doc_id == row.doc_id && h.node_id == row.node_id)
        {
            Some(at) => at,
            None => {
                let Some(node) = doc.node(&row.node_id) else {
                    continue;
                };
                hits.push(SearchHit {
                    doc_id: doc.doc_id.clone(),
                    doc_name: doc.doc_name.clone(),
                    node_id: node.node_id.clone(),
                    title: node.title.clone(),
                    path: doc.path_of(&node.node_id),
                    score: top_score.max(0.5),
                    reason: String::new(),
                    engine: docindex_core::model::Engine::Extractive,
                    start_char: node.span.start_char,
                    end_char: node.span.end_char,
                    start_page: node.start_page,
                    end_page: node.end_page,
                    excerpts: Vec::new(),
                    passages: Vec::new(),
                    passage_scores: Vec::new(),
                    pinned: 0,
                    summary_share: 0.0,
                    text: map.slice(node.span).to_string(),
                    also_in: Vec::new(),
                });
                hits.len() - 1
            }
        };
        let hit = &mut hits[at];
        let label = &row.matched.row.label;
        let line = format!(
            "statement row \"{}\" ({})",
            label.trim(),
            row.matched.concept_id
        );
        if hit.reason.is_empty() {
            hit.reason = line;
        } else if !hit.reason.contains(&line) {
            hit.reason = format!("{}; {line}", hit.reason);
        }
        // Higher for the first-named line items; always above every ranked passage.
        let score = top_passage + 1.0 + 0.1 * (rows.len() - k) as f64;
        let mut new: Vec<(Excerpt, f64)> = Vec::new();
        if let Some((hs, he)) = row.matched.row.headings {
            let already = hit.passages[..hit.pinned]
                .iter()
                .any(|p| p.start_char == hs && p.end_char == he);
            if !already {
                new.push((excerpt(&map, hs, he), score + 0.01));
            }
        }
        let (rs, re) = (row.matched.row.start, row.matched.row.end);
        if hit.passages[..hit.pinned]
            .iter()
            .any(|p| p.start_char == rs && p.end_char == re)
        {
            continue;
        }
        new.push((excerpt(&map, rs, re), score));
        // Rows stay in the order of their line items, after those pinned before them.
        let insert_at = hit.pinned;
        for (i, (passage, s)) in new.into_iter().enumerate() {
            hit.passages.insert(insert_at + i, passage);
            hit.passage_scores.insert(insert_at + i, s);
            hit.pinned += 1;
        }
        if !hit.excerpts.iter().any(|e| e.start_char == rs) {
            hit.excerpts.insert(0, excerpt(&map, rs, re));
        }
        hit.score = hit.score.max(top_score);
    }
}
