//! How the figures lead states and cites what it found: citations of a row and its column
//! headings, a row's sentence against its prior period, a figure's headline label and
//! period, the stated figures a comparison reads, and the company's own share of a
//! consolidated figure.

use super::asked::AskedColumns;
use super::concepts::{Concept, ConceptTable, MetricUnit};
use super::located::LocatedRow;
use super::metrics::MetricResult;
use super::rows::{normalise_label, StatementRow};
use crate::charmap::CharMap;
use crate::model::{DocumentIndex, Span};
use crate::qa::compare::{PeriodValue, StatedFigure};
use crate::qa::Citation;
use crate::xref::node_at;

pub(super) struct Citer<'a> {
    doc: &'a DocumentIndex,
    map: CharMap<'a>,
    citations: Vec<Citation>,
}

impl<'a> Citer<'a> {
    pub(super) fn new(doc: &'a DocumentIndex) -> Self {
        Citer {
            doc,
            map: CharMap::new(&doc.text),
            citations: Vec::new(),
        }
    }

    /// The citations made, numbered from 1.
    pub(super) fn into_citations(self) -> Vec<Citation> {
        self.citations
    }

    /// The marker of a citation of `start..end` (chars) in the document, reusing one that
    /// cites the same span.
    pub(super) fn cite(
        &mut self,
        row: &LocatedRow,
        start: usize,
        end: usize,
        page: Option<u32>,
    ) -> usize {
        if let Some(c) = self
            .citations
            .iter()
            .find(|c| c.start_char == start && c.end_char == end)
        {
            return c.marker;
        }
        let marker = self.citations.len() + 1;
        let excerpt = self.map.slice(Span::new(start, end)).to_string();
        // Headings may stand in the section before the row's (a statement split by size).
        let (node_id, title) = match node_at(&self.doc.nodes, start) {
            Some(node) => (node.node_id.clone(), node.title.clone()),
            None => (row.node_id.clone(), row.title.clone()),
        };
        self.citations.push(Citation {
            marker,
            doc_id: row.doc_id.clone(),
            doc_name: row.doc_name.clone(),
            node_id,
            title,
            start_page: page,
            end_page: page,
            excerpt,
            start_char: start,
            end_char: end,
        });
        marker
    }

    /// Cite each operand of `result` by its row in `rows`: the headings' markers once each
    /// ("[1][3]"), and each operand row's marker (" [2]") by the row's start.
    pub(super) fn cite_operands(
        &mut self,
        result: &MetricResult,
        rows: &[LocatedRow],
    ) -> (String, Vec<(usize, String)>) {
        let mut heading_markers = String::new();
        let mut row_markers: Vec<(usize, String)> = Vec::new();
        for operand in &result.operands {
            let Some(row) = rows
                .iter()
                .find(|r| r.matched.row.start == operand.row.start)
            else {
                continue;
            };
            let (headings, marker) = self.cite_row_parts(row);
            if let Some(h) = headings.map(|h| format!("[{h}]")) {
                if !heading_markers.contains(&h) {
                    heading_markers.push_str(&h);
                }
            }
            row_markers.push((operand.row.start, format!(" [{marker}]")));
        }
        (heading_markers, row_markers)
    }

    /// The markers of a row's headings (when known) and of the row.
    pub(super) fn cite_row_parts(&mut self, row: &LocatedRow) -> (Option<usize>, usize) {
        let headings = row
            .matched
            .row
            .headings
            .map(|(hs, he)| self.cite(row, hs, he, row.headings_page));
        let m = self.cite(row, row.matched.row.start, row.matched.row.end, row.page);
        (headings, m)
    }
}

/// A statement row stated for `column`, against the prior period, with its markers.
pub(super) fn row_sentence(
    r: &StatementRow,
    column: usize,
    heading_marker: Option<usize>,
    row_marker: usize,
) -> String {
    let mut text = format!("{}: {}", r.label.trim(), r.printed[column]);
    if let Some(period) = r.columns.get(column) {
        text.push_str(&format!(" ({})", period.heading));
    }
    if let Some(prior) = r.prior_column(column) {
        text.push_str(&format!(", against {}", r.printed[prior]));
        if let Some(period) = r.columns.get(prior) {
            text.push_str(&format!(" ({})", period.heading));
        }
    }
    // A percentage is in no scale: "(50)%" is not "in millions".
    if !r.printed[column].trim_end().ends_with('%') {
        text.push_str(&scale_words(r.scale.as_deref()));
    }
    match heading_marker {
        Some(h) => format!("{text} [{h}][{row_marker}]"),
        None => format!("{text} [{row_marker}]"),
    }
}

/// The row of the same table that gives `stated`'s concept "attributable to" the company
/// itself, when `stated` is the consolidated figure (minority holders' rows never match a
/// concept: see `rows::label_matches`).
pub(super) fn company_share_of<'a>(
    rows: &'a [LocatedRow],
    stated: &LocatedRow,
) -> Option<&'a LocatedRow> {
    let attributed = |row: &LocatedRow| is_attributed(&row.matched.row.label);
    rows.iter().find(|other| {
        other.matched.concept_id == stated.matched.concept_id
            && other.node_id == stated.node_id
            && other.matched.row.start != stated.matched.row.start
            && other.matched.row.headings == stated.matched.row.headings
            && other.matched.row.values.len() == stated.matched.row.values.len()
            && attributed(other) != attributed(stated)
    })
}

/// Whether a row gives its figure attributable to the company's own holders ("Net income
/// attributable to MGM Resorts International"): the figure the company reports as its own
/// (us-gaap `NetIncomeLoss`), which minority holders' rows never match.
pub(super) fn is_attributed(label: &str) -> bool {
    normalise_label(label).contains(" attributable to ")
}

pub(super) fn scale_words(scale: Option<&str>) -> String {
    match scale {
        Some(s) => format!(" (in {s})"),
        None => String::new(),
    }
}

/// A line item's cell as a stated figure: the value of `column`, the row's other columns
/// beside it.
pub(super) fn line_item_figure(
    doc: &DocumentIndex,
    concept: &Concept,
    row: &StatementRow,
    column: usize,
    heading_marker: Option<usize>,
    row_marker: usize,
) -> Option<StatedFigure> {
    let value_at = |i: usize| -> Option<PeriodValue> {
        let value = (*row.values.get(i)?)?;
        let period = row.columns.get(i);
        Some(PeriodValue {
            heading: period.map(|p| p.heading.clone()).unwrap_or_default(),
            year: period.and_then(|p| p.year),
            months: period.and_then(|p| p.months),
            value,
            shown: row.printed.get(i)?.clone(),
        })
    };
    let stated = value_at(column)?;
    Some(StatedFigure {
        concept: concept.id.clone(),
        label: concept.label.clone(),
        doc_id: doc.doc_id.clone(),
        doc_name: doc.doc_name.clone(),
        row_label: row.label.trim().to_string(),
        value: stated.value,
        shown: stated.shown,
        scale: row.scale.clone(),
        period: (!stated.heading.is_empty()).then_some(stated.heading),
        year: stated.year,
        months: stated.months,
        unit: MetricUnit::Amount,
        computed: false,
        markers: heading_marker.into_iter().chain([row_marker]).collect(),
        other_periods: (0..row.values.len())
            .filter(|i| *i != column)
            .filter_map(value_at)
            .collect(),
    })
}

/// The row where the filing prints `metric` itself, and its column for the asked period,
/// when that cell is printed in the metric's unit: a percentage's row with a "%" ("EBIT
/// margin | 12.1%"), not an amount's that shares the name ("Gross margin | 146,052").
pub(super) fn printed_metric<'a>(
    table: &ConceptTable,
    metric: &Concept,
    rows: &'a [LocatedRow],
    year: Option<i32>,
    months: Option<u32>,
) -> Option<(&'a LocatedRow, usize)> {
    let column_in_unit = |row: &LocatedRow| -> Option<usize> {
        let r = &row.matched.row;
        let column = r.column_for(year, months)?;
        // A year asked is a column of that year, not the nearest one a table has; a column
        // whose heading names no year ("Family of Apps Year Ended December 31,", a segment's)
        // is no year's for sure, and the working answers instead.
        let heading_year = r.columns.get(column).and_then(|c| c.year);
        if year.is_some() && heading_year != year {
            return None;
        }
        let cell = r.printed.get(column)?;
        let in_unit = match metric.unit {
            Some(MetricUnit::Percent) => cell.contains('%'),
            _ => !cell.contains('%'),
        };
        in_unit.then_some(column)
    };
    rows.iter()
        .filter(|r| r.matched.concept_id == metric.id)
        .filter_map(|r| Some((r, column_in_unit(r)?)))
        .max_by(|(a, _), (b, _)| {
            a.strength(table, year, months)
                .total_cmp(&b.strength(table, year, months))
                .then(b.matched.row.start.cmp(&a.matched.row.start))
        })
}

/// A computed metric as a stated figure, cited by its operands' rows and headings.
pub(super) fn metric_figure(
    doc: &DocumentIndex,
    concept_id: &str,
    result: &MetricResult,
    heading_markers: &str,
    row_markers: &[(usize, String)],
) -> Option<StatedFigure> {
    let value = result.value?;
    let marker_numbers = |text: &str| -> Vec<usize> {
        text.split(['[', ']'])
            .filter_map(|t| t.trim().parse().ok())
            .collect()
    };
    let mut markers = marker_numbers(heading_markers);
    for (_, m) in row_markers {
        markers.extend(marker_numbers(m));
    }
    let first = result.operands.first();
    let period = first.and_then(|o| o.row.columns.get(o.column));
    Some(StatedFigure {
        concept: concept_id.to_string(),
        label: result.label.clone(),
        doc_id: doc.doc_id.clone(),
        doc_name: doc.doc_name.clone(),
        row_label: result.label.clone(),
        // A percentage is compared in percent (27.4), as the answer shows it.
        value: if result.unit == MetricUnit::Percent {
            value * 100.0
        } else {
            value
        },
        shown: result.shown.clone()?,
        scale: (result.unit == MetricUnit::Amount)
            .then(|| first.and_then(|o| o.row.scale.clone()))
            .flatten(),
        period: first.and_then(|o| o.period.clone()),
        year: period.and_then(|p| p.year),
        months: period.and_then(|p| p.months),
        unit: result.unit,
        computed: true,
        markers,
        other_periods: Vec::new(),
    })
}

/// A row's label as a headline shows it: without footnote marks ("(1)", "(a)") and a
/// trailing colon, and in sentence case when the filing prints it in capitals.
pub(super) fn display_label(label: &str) -> String {
    let cleaned: String = label
        .split_whitespace()
        .filter(|w| {
            let inner = w.trim_start_matches('(').trim_end_matches(')');
            !(w.starts_with('(') && w.ends_with(')') && inner.len() <= 2)
        })
        .collect::<Vec<_>>()
        .join(" ");
    // A PDF's dot leaders ("Total current liabilities......") end no label.
    let cleaned = cleaned.trim_end_matches([':', '.', '…', ' ']).to_string();
    let shouting =
        cleaned.chars().any(char::is_alphabetic) && !cleaned.chars().any(char::is_lowercase);
    match shouting {
        true => capitalise(&cleaned.to_lowercase()),
        false => capitalise(&cleaned),
    }
}

/// How a headline names the period of a row's column: "for fiscal 2024" for a year, the
/// column's own heading for a quarter or another span ("Thirteen Weeks Ended November 2,
/// 2024"), nothing when the heading names no period.
pub(super) fn period_words(row: &StatementRow, column: usize, asked: &AskedColumns) -> String {
    let Some(heading) = row.columns.get(column) else {
        return String::new();
    };
    let lower = heading.heading.to_lowercase();
    let short_span = heading.months.is_some_and(|m| m != 12)
        || ["week", "quarter", "month", "half"]
            .iter()
            .any(|w| lower.contains(w));
    match (heading.year, short_span) {
        (Some(_), true) => format!(" ({})", heading.heading.trim()),
        (Some(y), false) => format!(" for {}", asked.fiscal_label(y)),
        (None, _) => String::new(),
    }
}

pub(super) fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A metric's working with each operand's marker after its value (`row_markers` from
/// [`Citer::cite_operands`]).
pub(super) fn worked_cited(result: &MetricResult, row_markers: &[(usize, String)]) -> String {
    result.worked_with(&|o| {
        row_markers
            .iter()
            .find(|(start, _)| *start == o.row.start)
            .map(|(_, m)| m.clone())
            .unwrap_or_default()
    })
}
