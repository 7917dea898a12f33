//! Statement rows located in a stored document: each row of the asked concepts with the
//! section and pages it stands in, and the strongest row of each concept.

use super::concepts::{Concept, ConceptTable};
use super::rows::{find_tagged_rows, RowMatch};
use crate::model::DocumentIndex;
use crate::xref::node_at;
use serde::{Deserialize, Serialize};

/// A statement row found in a stored document, with the section and pages it stands in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LocatedRow {
    pub doc_id: String,
    pub doc_name: String,
    pub node_id: String,
    pub title: String,
    /// PDF only: the page the row is printed on, and the page of its headings.
    pub page: Option<u32>,
    pub headings_page: Option<u32>,
    /// The row; its char offsets (and its headings') are offsets in the document's text.
    pub matched: RowMatch,
}

impl LocatedRow {
    /// How much to trust this row as its concept's figure (see [`RowMatch::strength`]).
    pub fn strength(&self, table: &ConceptTable, year: Option<i32>, months: Option<u32>) -> f64 {
        let statement = table
            .get(&self.matched.concept_id)
            .and_then(|c| c.statement);
        self.matched.strength(statement, year, months)
    }
}

/// The unit the filer tagged the figures of the row at `start..end` with: "millions" for
/// a scale of 6. `None` when no figure of the row is tagged with a money scale.
fn tagged_scale(doc: &DocumentIndex, start: usize, end: usize) -> Option<String> {
    doc.facts
        .iter()
        .filter(|f| (start..end).contains(&f.span.start_char))
        .find_map(|f| match f.scale? {
            3 => Some("thousands"),
            6 => Some("millions"),
            9 => Some("billions"),
            _ => None,
        })
        .map(str::to_string)
}

fn page_at(doc: &DocumentIndex, ch: usize) -> Option<u32> {
    doc.pages
        .iter()
        .find(|p| p.span.start_char <= ch && ch < p.span.end_char)
        .map(|p| p.page)
}

/// Every row of `doc` that reports one of `concepts`. A row inside a typed statement
/// section takes that statement; a row inside a note or MD&A is not a statement's row,
/// whatever title stands above it.
pub fn locate_rows(doc: &DocumentIndex, concepts: &[&Concept]) -> Vec<LocatedRow> {
    if concepts.is_empty() {
        return Vec::new();
    }
    // The cells the filer tagged with one of the concepts' us-gaap names.
    let tagged: Vec<(usize, usize)> = doc
        .facts
        .iter()
        .flat_map(|f| {
            concepts
                .iter()
                .enumerate()
                .filter(|(_, c)| c.xbrl.contains(&f.concept))
                .map(|(c, _)| (c, f.span.start_char))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut out = Vec::new();
    for mut matched in find_tagged_rows(&doc.text, concepts, &tagged) {
        // A statement that prints no unit ("(Dollars in Millions)" above the page's table)
        // still tagged its figures with one.
        if matched.row.scale.is_none() {
            matched.row.scale = tagged_scale(doc, matched.row.start, matched.row.end);
        }
        let Some(node) = node_at(&doc.nodes, matched.row.start) else {
            continue;
        };
        // The innermost typed section around the row decides.
        let mut kind = None;
        let mut current = Some(node);
        while let Some(n) = current {
            if let Some(f) = &n.financial {
                kind = Some(f.kind);
                break;
            }
            current = n.parent_id.as_deref().and_then(|p| doc.node(p));
        }
        match kind {
            Some(k) if k.statement().is_some() => matched.row.statement = k.statement(),
            Some(k) if k != super::SectionKind::FinancialStatements => matched.row.statement = None,
            _ => {}
        }
        out.push(LocatedRow {
            doc_id: doc.doc_id.clone(),
            doc_name: doc.doc_name.clone(),
            node_id: node.node_id.clone(),
            title: node.title.clone(),
            page: page_at(doc, matched.row.start),
            headings_page: matched.row.headings.and_then(|(s, _)| page_at(doc, s)),
            matched,
        });
    }
    out
}

/// The strongest row of each concept, in the order `concepts` lists them.
pub fn best_rows<'a>(
    table: &ConceptTable,
    concepts: &[&Concept],
    rows: &'a [LocatedRow],
    year: Option<i32>,
    months: Option<u32>,
) -> Vec<&'a LocatedRow> {
    concepts
        .iter()
        .filter_map(|c| {
            rows.iter()
                .filter(|r| r.matched.concept_id == c.id)
                .filter(|r| r.matched.row.values.iter().any(Option::is_some))
                .max_by(|a, b| {
                    a.strength(table, year, months)
                        .total_cmp(&b.strength(table, year, months))
                        .then(b.matched.row.start.cmp(&a.matched.row.start))
                })
        })
        .collect()
}
