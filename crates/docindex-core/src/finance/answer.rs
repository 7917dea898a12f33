//! Figures for a question, from a document's statement rows: the rows of the line items it
//! names, located in the tree and on their pages, and a lead for the answer that states the
//! asked figure (or the computed metric with its formula) for the asked period, every
//! operand cited to its row and the column headings cited with it.

use super::asked::{state_amount, state_metric, work_out, AskedColumns};
use super::concepts::{Concept, ConceptTable, MetricUnit, PRIOR_SUFFIX};
use super::defined::defined_metric;
pub use super::located::{best_rows, locate_rows, LocatedRow};
use super::metrics::{compute_metric, format_amount, MetricResult};
use super::named::named_line_item;
use super::parts::{asks_for_share, names_a_part, narrows_the_figure, part_row};
use super::rows::{normalise_label, RowMatch, StatementRow};
use super::sections::months_asked;
use super::stating::{
    capitalise, company_share_of, display_label, is_attributed, line_item_figure, metric_figure,
    period_words, printed_metric, row_sentence, scale_words, worked_cited, Citer,
};
use crate::model::DocumentIndex;
use crate::qa::compare::StatedFigure;
use crate::qa::Citation;
use crate::question::{Operation, Question};
use crate::search::asks_why;
use serde::{Deserialize, Serialize};

/// The lead of a figures answer: its text with `[n]` markers, the citations (numbered from
/// 1), the metrics worked out, and what could not be found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct FiguresLead {
    pub text: String,
    pub citations: Vec<Citation>,
    pub metrics: Vec<MetricResult>,
    /// Figures the answer computed (they are in no excerpt, but follow from cited cells).
    pub computed: Vec<String>,
    /// Operands no statement row was found for, by metric.
    pub missing: Vec<String>,
    /// Every line item stated without a metric came from its own statement, for the asked
    /// period.
    pub lookups_firm: bool,
    /// The figures stated, for a comparison across filings; markers are the lead's.
    pub figures: Vec<StatedFigure>,
    /// The operation the question asked (a change, growth, an average) was worked out for
    /// every figure it asked of (always true when it asked for a value).
    pub operation_done: bool,
    /// The column year of the period asked, in the filer's calendar.
    pub asked_year: Option<i32>,
}

impl FiguresLead {
    /// Whether a number of the answer ("59,475", "27.4", "365") is a value the lead
    /// computed or a constant of its formulas.
    pub fn is_computed(&self, number: &str) -> bool {
        let digits = |s: &str| -> String {
            s.chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(|c| c.is_ascii_digit() || *c == ',' || *c == '.')
                .collect::<String>()
                .trim_end_matches(['.', ','])
                .to_string()
        };
        let wanted = digits(number);
        !wanted.is_empty() && self.computed.iter().any(|c| digits(c) == wanted)
    }

    /// The metrics worked out, as an answer reports them.
    pub fn computed_metrics(&self) -> Vec<crate::qa::ComputedMetric> {
        self.metrics
            .iter()
            .filter_map(|m| {
                Some(crate::qa::ComputedMetric {
                    metric: m.metric_id.clone(),
                    label: m.label.clone(),
                    value: m.value?,
                    shown: m.shown.clone()?,
                    formula: m.formula.clone(),
                    worked: m.worked(),
                    scale: m.operands.first().and_then(|o| o.row.scale.clone()),
                    period: m.operands.first().and_then(|o| o.period.clone()),
                })
            })
            .collect()
    }
}

/// The figures a question asks for, from `rows` of `doc`: each metric it names worked out
/// from its operands' cells for the asked period, else each line item it names stated for
/// that period. `None` when the question names no concept the rows hold.
pub fn lead_for(
    table: &ConceptTable,
    reading: &Question,
    doc: &DocumentIndex,
    rows: &[LocatedRow],
) -> Option<FiguresLead> {
    let question = reading.content.as_str();
    let asked_columns = AskedColumns::of(reading, doc);
    let year = asked_columns.year;
    let months = months_asked(question);
    let doc_rows: Vec<LocatedRow> = rows
        .iter()
        .filter(|r| r.doc_id == doc.doc_id)
        .cloned()
        .collect();
    // A row the question names in the filing's words answers before the table's shorter
    // phrasings, and it is the part asked about when the question names one.
    let named = named_line_item(table, question).and_then(|concept| {
        let row = best_rows(table, &[&concept], &doc_rows, year, months)
            .into_iter()
            .next()?;
        let label = normalise_label(&row.matched.row.label);
        // A row named in the filing's words that is one of the table's own line items
        // ("total current liabilities") is that line item, vouched for by its statement.
        if let Some(own) = table
            .concepts
            .iter()
            .find(|c| !c.is_metric() && c.line_items.contains(&label))
            .filter(|c| doc_rows.iter().any(|r| r.matched.concept_id == c.id))
        {
            return Some(own.clone());
        }
        Some(Concept { label, ..concept })
    });
    let mut asked = match &named {
        Some(concept) => vec![concept],
        None => table.asked_in(question),
    };
    // An amount asked ("How much (in USD billions) did it pay out in dividends?") is the
    // line item's, not a ratio's the same words name ("payout").
    let asks_amount = reading.scale.is_some()
        || (question.trim_start().to_lowercase().starts_with("how much") && !reading.percent);
    if asks_amount && asked.iter().any(|c| !c.is_metric()) {
        asked.retain(|c| !c.is_metric() || c.unit == Some(MetricUnit::Amount));
    }
    // A growth the question asks of a line item is worked out on that line item: the
    // table's generic growth metrics (revenue's, for a bare "growth") do not answer it.
    if reading.operation != Operation::Value && asked.iter().any(|c| !c.is_metric()) {
        asked.retain(|c| {
            !c.formula
                .as_deref()
                .is_some_and(|f| f.contains(PRIOR_SUFFIX))
        });
    }
    // A question about a part (a product, a segment) is not answered by the totals, unless
    // it asks for the part's share of them.
    let part = named.is_none() && names_a_part(question, doc);
    if asked.is_empty() {
        return None;
    }
    let mut citer = Citer::new(doc);
    if part && !asks_for_share(question) {
        // Only the part's own row answers; never firm, as it is no statement's.
        let [concept] = asked.as_slice() else {
            return None;
        };
        if concept.is_metric() || narrows_the_figure(question, concept) {
            return None;
        }
        let (row, column) = part_row(table, question, doc, concept, year, months)?;
        let (heading_marker, row_marker) = citer.cite_row_parts(&row);
        let r = &row.matched.row;
        // No stated figure: a comparison across filings compares the companies' own.
        return Some(FiguresLead {
            text: format!("{}.", row_sentence(r, column, heading_marker, row_marker)),
            citations: citer.into_citations(),
            ..FiguresLead::default()
        });
    }
    let mut sentences = Vec::new();
    let mut lead = FiguresLead {
        operation_done: true,
        asked_year: year,
        ..FiguresLead::default()
    };
    let matches: Vec<RowMatch> = doc_rows.iter().map(|r| r.matched.clone()).collect();
    let mut stated_items: Vec<String> = Vec::new();
    let mut lookups_firm = true;
    // A metric the question defines is worked out as defined, before (and instead of) the
    // table's phrasings of it.
    if let Some(defined) = defined_lead(table, reading, &asked_columns, doc, &mut citer) {
        match defined {
            Ok((sentence, result)) => {
                sentences.push(sentence);
                lead.computed.extend(result.shown.clone());
                lead.computed
                    .extend(result.operands.iter().map(|o| format_amount(o.value)));
                lead.computed.extend(["2".to_string(), "365".to_string()]);
                lead.metrics.push(result);
                asked.clear();
            }
            Err(missing) => lead.missing.push(missing),
        }
    }
    for concept in &asked {
        if concept.is_metric() {
            // What the filing prints as the metric is its own figure: stated first, and the
            // computation (its definition may differ: EBIT against operating income) after.
            let printed = printed_metric(table, concept, &doc_rows, year, months);
            if let Some((row, column)) = printed {
                let (heading_marker, row_marker) = citer.cite_row_parts(row);
                let r = &row.matched.row;
                sentences.push(row_sentence(r, column, heading_marker, row_marker));
                if let Some(figure) =
                    line_item_figure(doc, concept, r, column, heading_marker, row_marker)
                {
                    lead.figures.push(StatedFigure {
                        unit: concept.unit.unwrap_or(MetricUnit::Amount),
                        ..figure
                    });
                }
            }
            let result = match compute_metric(table, concept, &matches, year, months) {
                Ok(result) => result,
                Err(e) => {
                    // The table is checked when it loads; this is our bug, not the filing's.
                    tracing::error!("{}: {e}", concept.id);
                    lead.missing
                        .push(format!("{}: {e}", capitalise(&concept.label)));
                    continue;
                }
            };
            if result.value.is_none() {
                if printed.is_some() {
                    continue;
                }
                if result.missing.is_empty() {
                    // Every operand was found, but the arithmetic has no answer.
                    lead.missing.push(format!(
                        "{}: cannot be computed from these rows (a zero denominator)",
                        capitalise(&result.label)
                    ));
                } else {
                    lead.missing.push(format!(
                        "{}: no statement row found for {}",
                        capitalise(&result.label),
                        result.missing.join(", ")
                    ));
                }
                continue;
            }
            // A working that disagrees with the printed figure is another definition (a
            // quarter's return against the filing's annualised one): it would only confuse.
            let printed_value = printed.and_then(|(row, column)| {
                (*row.matched.row.values.get(column)?).filter(|v| *v != 0.0)
            });
            if let (Some(printed_value), Some(computed)) = (printed_value, result.value) {
                let computed = match result.unit {
                    MetricUnit::Percent => computed * 100.0,
                    _ => computed,
                };
                if ((computed - printed_value) / printed_value).abs() > 0.1 {
                    continue;
                }
            }
            // Headings once, after the period; each operand's row after its value.
            let (heading_markers, row_markers) = citer.cite_operands(&result, &doc_rows);
            stated_items.extend(
                result
                    .operands
                    .iter()
                    .map(|o| o.id.trim_end_matches(PRIOR_SUFFIX).to_string()),
            );
            let period = result
                .operands
                .first()
                .and_then(|o| o.period.clone())
                .map(|p| format!(" for {p}"))
                .unwrap_or_default();
            let scale = if result.unit == super::MetricUnit::Amount {
                scale_words(result.operands.first().and_then(|o| o.row.scale.as_deref()))
            } else {
                String::new()
            };
            let shown = match result
                .value
                .and_then(|v| state_metric(v, result.unit, reading))
            {
                Some(rounded) => {
                    lead.computed.push(rounded.clone());
                    rounded
                }
                None => result.shown.clone().unwrap_or_default(),
            };
            let worked = worked_cited(&result, &row_markers);
            let heading_markers = match heading_markers.is_empty() {
                true => String::new(),
                false => format!(" {heading_markers}"),
            };
            let worked_out = match printed {
                Some(_) => " worked out from the statements",
                None => "",
            };
            sentences.push(format!(
                "{}{worked_out}{period}{heading_markers}: {shown}{scale} = {worked}",
                capitalise(&result.label),
            ));
            if printed.is_none() {
                if let Some(figure) =
                    metric_figure(doc, concept, &result, &heading_markers, &row_markers)
                {
                    lead.figures.push(figure);
                }
            }
            lead.computed.push(shown);
            // The formula's constants ("× 365") are not figures of the filing either.
            lead.computed.extend(
                result
                    .formula
                    .split(|c: char| !c.is_ascii_digit() && c != '.')
                    .filter(|t| !t.is_empty() && t.chars().any(|c| c.is_ascii_digit()))
                    .map(str::to_string),
            );
            lead.metrics.push(result);
        }
    }
    for concept in asked.iter().filter(|c| !c.is_metric()) {
        if stated_items.contains(&concept.id) {
            continue;
        }
        let Some(best) = best_rows(table, &[concept], &doc_rows, year, months)
            .into_iter()
            .next()
        else {
            continue;
        };
        // The company's own share is its figure; the consolidated one follows it.
        let row = match company_share_of(&doc_rows, best) {
            Some(own) if is_attributed(&own.matched.row.label) => own,
            _ => best,
        };
        let r = &row.matched.row;
        let Some(column) = r.column_for(year, months) else {
            continue;
        };
        let (heading_marker, row_marker) = citer.cite_row_parts(row);
        let markers = match heading_marker {
            Some(h) => format!("[{h}][{row_marker}]"),
            None => format!("[{row_marker}]"),
        };
        if reading.operation != Operation::Value {
            match work_out(reading, &asked_columns, concept, r) {
                Ok(worked) => {
                    sentences.push(format!("{} {markers}", worked.sentence));
                    lead.computed.push(worked.shown);
                }
                Err(missing) => {
                    lead.operation_done = false;
                    lead.missing.push(missing);
                }
            }
        } else if let Some(value) = r
            .values
            .get(column)
            .copied()
            .flatten()
            .filter(|_| states_an_amount(r, column))
        {
            // The figure first, in the unit asked, then the row it comes from.
            let value = if concept.outflow { value.abs() } else { value };
            let shown = state_amount(value, r.scale.as_deref(), reading, concept);
            let period = period_words(r, column, &asked_columns);
            // The row's own label: what is cited is what is named.
            // The row's own label when it is a plain name ("Payment of dividends to
            // stockholders"); the concept's when the label carries notes or amounts
            // ("Accounts receivable, net of allowance of $87 at July 27, 2024").
            let label = match display_label(&r.label) {
                l if l.is_empty()
                    || l.chars().any(|c| c.is_ascii_digit())
                    || l.split_whitespace().count() > 7 =>
                {
                    capitalise(&concept.label)
                }
                l => l,
            };
            sentences.push(format!("{}{period}: {shown} {markers}", capitalise(&label)));
            lead.computed.push(shown);
        }
        sentences.push(row_sentence(r, column, heading_marker, row_marker));
        // "Net income" of a filer with minority holders is followed by the part
        // attributable to the company, which is what the company itself calls its earnings:
        // both are stated, the consolidated figure first.
        if let Some(other) = company_share_of(&doc_rows, row) {
            let (_, other_marker) = citer.cite_row_parts(other);
            sentences.push(row_sentence(
                &other.matched.row,
                column,
                heading_marker,
                other_marker,
            ));
        }
        if let Some(figure) = line_item_figure(doc, concept, r, column, heading_marker, row_marker)
        {
            lead.figures.push(figure);
        }
        let period = r.columns.get(column);
        // A balance is at a date: it does not answer for a period ("in the first half").
        let flow_asked_of_a_balance =
            months.is_some() && concept.statement == Some(super::Statement::Balance);
        let firm = concept.statement.is_some()
            && !flow_asked_of_a_balance
            && r.statement == concept.statement
            && (year.is_none() || period.and_then(|p| p.year) == year)
            && (months.is_none()
                || period.and_then(|p| p.months).is_none()
                || period.and_then(|p| p.months) == months);
        lookups_firm &= firm;
    }
    if sentences.is_empty() {
        return (!lead.missing.is_empty()).then(|| FiguresLead {
            text: format!("{}.", lead.missing.join("; ")),
            ..lead
        });
    }
    lead.lookups_firm = lookups_firm && !part;
    // An operation asked of a metric's figure (its growth, its average) is not done here.
    if reading.operation != Operation::Value && asked.iter().all(|c| c.is_metric()) {
        lead.operation_done = false;
    }
    lead.text = sentences
        .iter()
        .map(|s| format!("{}.", s.trim_end()))
        .collect::<Vec<_>>()
        .join(" ");
    lead.citations = citer.into_citations();
    for metric in &lead.metrics {
        lead.computed
            .extend(metric.operands.iter().map(|o| format_amount(o.value)));
    }
    Some(lead)
}

/// The metric the question defines, worked out and cited: its sentence and result, or what
/// is missing for it. `None` when the question defines no metric.
fn defined_lead(
    table: &ConceptTable,
    reading: &Question,
    columns: &AskedColumns,
    doc: &DocumentIndex,
    citer: &mut Citer,
) -> Option<Result<(String, MetricResult), String>> {
    reading.definition.as_ref()?;
    let line_items: Vec<&Concept> = table.concepts.iter().filter(|c| !c.is_metric()).collect();
    let located = locate_rows(doc, &line_items);
    let matches: Vec<RowMatch> = located.iter().map(|r| r.matched.clone()).collect();
    let result = match defined_metric(table, reading, columns, &matches)? {
        Ok(result) => result,
        Err(why) => {
            return Some(Err(format!(
                "The definition given could not be read: {why}"
            )))
        }
    };
    let Some(shown) = result.shown.clone() else {
        return Some(Err(format!(
            "{}: no statement row found for {}",
            capitalise(&result.label),
            result.missing.join(", ")
        )));
    };
    let (heading_markers, row_markers) = citer.cite_operands(&result, &located);
    let worked = worked_cited(&result, &row_markers);
    let period = reading
        .latest_period()
        .map(|p| format!(" for {}", p.label()))
        .unwrap_or_default();
    let headings = match heading_markers.is_empty() {
        true => String::new(),
        false => format!(" {heading_markers}"),
    };
    Some(Ok((
        format!(
            "{}{period} (as the question defines it){headings}: {shown} = {worked}",
            capitalise(&result.label)
        ),
        result,
    )))
}

/// Whether a row's cell is an amount a headline may restate in a unit: not a ratio or a
/// percentage a table "(in millions)" also prints ("Total capital ratio | 17.3").
fn states_an_amount(row: &StatementRow, column: usize) -> bool {
    let label = row.label.to_lowercase();
    let printed = row.printed.get(column).map(String::as_str).unwrap_or("");
    !printed.contains('%')
        && !["ratio", "margin", "rate", "percent", "%", "yield", "days"]
            .iter()
            .any(|w| label.contains(w))
}

/// Whether the question asks for a kind of figure the lead does not state: a ratio, margin
/// or rate answered with an amount ("working capital ratio" answered with working capital).
fn asks_unmet_kind(question: &str, lead: &FiguresLead) -> bool {
    const KINDS: [&str; 6] = ["ratio", "margin", "turnover", "rate", "percentage", "yield"];
    let lower = question.to_lowercase();
    let asks_kind = crate::search::words(&lower)
        .iter()
        .any(|w| KINDS.contains(&w.as_str()));
    let states_kind = !lead.metrics.is_empty()
        || lead.figures.iter().any(|f| f.unit != MetricUnit::Amount)
        || lead.computed.iter().any(|c| c.ends_with('%'));
    asks_kind && !states_kind
}

/// Whether the lead's figures can be trusted as the answer: every figure from a row of its
/// own statement, for the period asked when one was asked.
fn lead_is_firm(
    table: &ConceptTable,
    lead: &FiguresLead,
    rows: &[LocatedRow],
    year: Option<i32>,
) -> bool {
    let from_statement = |start: usize| {
        rows.iter().any(|r| {
            r.matched.row.start == start
                && table
                    .get(&r.matched.concept_id)
                    .and_then(|c| c.statement)
                    .is_some_and(|s| r.matched.row.statement == Some(s))
        })
    };
    let metrics_firm = lead.metrics.iter().all(|m| {
        m.operands.iter().all(|o| {
            from_statement(o.row.start)
                && (year.is_none()
                    || o.id.ends_with(PRIOR_SUFFIX)
                    || o.row.columns.get(o.column).and_then(|c| c.year) == year)
        })
    });
    metrics_firm && lead.lookups_firm && lead.missing.is_empty() && !lead.citations.is_empty()
}

/// Whether a question asks for a figure ("what was…", "how much…") rather than a judgement
/// ("why…", "is it trending…", "which segment…"): figures alone answer only the former.
pub fn asks_for_figure(question: &str) -> bool {
    let q = question.trim_start().to_lowercase();
    let judgement = [
        "why",
        "which",
        "where",
        "what drove",
        "what caused",
        "what explains",
    ]
    .iter()
    .any(|w| q.starts_with(w));
    let figure = [
        "what was",
        "what were",
        "what is",
        "what share",
        "how much",
        "how many",
        "how fast",
    ]
    .iter()
    .any(|w| q.contains(w));
    figure && !judgement
}

/// `answer` (the extractive one) with the figures lead in front: the lead's citations
/// come first and the answer's markers are renumbered after them; numbers the lead computed
/// are supported by the cited cells; confidence follows the lead.
pub fn with_figures(
    table: &ConceptTable,
    reading: &Question,
    answer: crate::qa::Answer,
    lead: FiguresLead,
    rows: &[LocatedRow],
) -> crate::qa::Answer {
    use crate::qa::{unsupported_numbers, Confidence, ConfidenceLabel};
    let shift = lead.citations.len();
    let question = reading.content.as_str();
    // The year is checked in the filer's calendar (a retailer's fiscal 2023 ends in 2024).
    let firm = lead_is_firm(table, &lead, rows, lead.asked_year)
        && asks_for_figure(question)
        && lead.operation_done
        && !asks_unmet_kind(question, &lead);
    let mut out = answer;
    let mut text = lead.text.clone();
    let mut citations = lead.citations.clone();
    if out.answered {
        let renumbered = crate::qa::renumber_markers(&out.answer, shift);
        text.push(' ');
        text.push_str(&renumbered);
        citations.extend(out.citations.iter().cloned().map(|mut c| {
            c.marker += shift;
            c
        }));
    }
    let excerpts: Vec<&str> = citations.iter().map(|c| c.excerpt.as_str()).collect();
    out.unsupported_numbers = unsupported_numbers(&text, &excerpts)
        .into_iter()
        .filter(|n| !lead.is_computed(n))
        .collect();
    let source_nodes = citations
        .iter()
        .map(|c| (c.doc_id.clone(), c.node_id.clone()))
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    out.reasoning.push(match lead.metrics.first() {
        Some(m) => format!(
            "computed {} from {} statement row(s): {}",
            m.label,
            m.operands.len(),
            m.formula
        ),
        None if lead.citations.is_empty() => lead.text.clone(),
        None => "stated the asked line item from its statement row".to_string(),
    });
    let has_figures = !lead.citations.is_empty();
    out.computed = lead.computed_metrics();
    out.figures = lead.figures.clone();
    out.confidence = Confidence {
        label: match (has_figures, firm) {
            (true, true) => ConfidenceLabel::High,
            (true, false) => ConfidenceLabel::Medium,
            (false, _) => ConfidenceLabel::Low,
        },
        score: match (has_figures, firm) {
            (true, true) => 0.9,
            (true, false) => 0.6,
            (false, _) => 0.2,
        },
        answered: out.confidence.answered.max(usize::from(has_figures)),
        unanswered: out.confidence.unanswered,
        source_nodes,
    };
    out.answered = out.answered || has_figures;
    if !out.answered {
        // Only what is missing: say so, and cite nothing.
        out.answer = text;
        out.citations = Vec::new();
        return out;
    }
    out.answer = text;
    out.citations = citations;
    out
}

/// What the discussion around a figure should be searched for: "What was gross margin?"
/// for "Is Nike's gross margin trending the right way?", "What drove gross margin?" for
/// "Why did Nike's gross margin shrink?". The asked concepts' labels, so
/// that a judgement question's own words ("trending", "the right way") do not decide which
/// sentences of MD&A are read.
pub fn focus_question(table: &ConceptTable, question: &str) -> Option<String> {
    let labels: Vec<String> = table
        .asked_in(question)
        .iter()
        .map(|c| c.label.clone())
        .collect();
    // A why-question's discussion is the reason for the figure, not the figure again.
    let asked = labels.join(" and ");
    (!labels.is_empty()).then(|| match asks_why(question) {
        true => format!("What drove {asked}?"),
        false => format!("What was {asked}?"),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn doc(company: &str) -> DocumentIndex {
        let mut doc: DocumentIndex = serde_json::from_str(
            r#"{"doc_id":"d","doc_name":"d.html","doc_type":"10-K","format":"html","source_sha256":"","encoding":"utf-8","metadata":{},"text":"","nodes":[],"chunks":[],"cross_refs":[],"dictionary":[],"links":[],"settings_key":""}"#,
        )
        .unwrap();
        doc.metadata.company_name = Some(company.to_string());
        doc
    }

    /// The rows of one statement section `text` holds for what `question` asks, as search
    /// hands them over: the table's line items and the row the question names.
    pub(crate) fn located_rows(text: &str, question: &str) -> Vec<LocatedRow> {
        let table = crate::finance::concepts::concept_table().unwrap();
        let named = named_line_item(table, question);
        let mut concepts = table.line_items_for(question);
        concepts.extend(named.as_ref());
        crate::finance::find_rows(text, &concepts)
            .into_iter()
            .map(|matched| LocatedRow {
                doc_id: "d".into(),
                doc_name: "d.html".into(),
                node_id: "0001".into(),
                title: "Consolidated statements of operations".into(),
                page: None,
                headings_page: None,
                matched,
            })
            .collect()
    }

    #[test]
    fn earnings_are_stated_attributable_to_the_company_then_consolidated() {
        let table = crate::finance::concepts::concept_table().unwrap();
        let text = "CONSOLIDATED STATEMENTS OF OPERATIONS\n(In thousands)\nThree Months Ended June 30, | 2023 | 2022\nNet revenues | 3,942,207 | 3,264,888\nNet income | 243,544 | 1,622,625\nNet income attributable to noncontrolling interests | 42,748 | (161,312)\nNet income attributable to MGM Resorts International | $200,796 | $1,783,937\n";
        let mut mgm = doc("MGM Resorts International");
        mgm.text = text.to_string();
        let question = "How much did MGM earn in Q2 2023?";
        let rows = located_rows(text, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &mgm, &rows).unwrap();
        let consolidated = lead.text.find("Net income: 243,544").unwrap();
        let own = lead
            .text
            .find("Net income attributable to MGM Resorts International: $200,796")
            .unwrap();
        // The company's own earnings (us-gaap NetIncomeLoss) first, in the answer's headline.
        assert!(own < consolidated, "{}", lead.text);
        assert!(
            lead.text.starts_with(
                "Net income attributable to MGM Resorts International (Three Months Ended June 30, 2023): $200,796 thousand"
            ),
            "{}",
            lead.text
        );
        assert!(!lead.text.contains("42,748"), "{}", lead.text);
        // Each figure is cited by its own row, exactly.
        for figure in ["243,544", "$200,796"] {
            assert!(
                lead.citations.iter().any(|c| c.excerpt.contains(figure)),
                "{figure}"
            );
        }
        // A filer without minority holders states its one row.
        let apple = "CONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\nYears ended | September 28, 2024 | September 30, 2023\nNet income | $ 93,736 | $ 96,995\n";
        let mut doc_apple = doc("Apple Inc.");
        doc_apple.text = apple.to_string();
        let rows = located_rows(apple, "net income");
        let lead = lead_for(
            table,
            &Question::read("What was Apple's net income?").unwrap(),
            &doc_apple,
            &rows,
        )
        .unwrap();
        assert!(
            lead.text.starts_with(
                "Net income for fiscal 2024: $93,736 million [1][2]. Net income: $ 93,736"
            ),
            "{}",
            lead.text
        );
        assert_eq!(lead.text.matches("Net income").count(), 2, "{}", lead.text);
    }

    #[test]
    fn a_margin_the_filing_prints_is_stated_before_it_is_worked_out() {
        let table = crate::finance::concepts::concept_table().unwrap();
        // Nike's MD&A prints its EBIT margin; its statement has no operating income row.
        let nike = "RESULTS OF OPERATIONS\n(Dollars in millions) | FISCAL 2023 | FISCAL 2022\nRevenues | $ 51,217 | $ 46,710\nGross margin | 43.5% | 46.0%\nEBIT margin | 12.1% | 14.7%\n";
        let mut doc_nike = doc("NIKE, Inc.");
        doc_nike.text = nike.to_string();
        let question = "What was Nike's EBIT margin in fiscal 2023?";
        let rows = located_rows(nike, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_nike, &rows).unwrap();
        assert!(lead.text.starts_with("EBIT margin: 12.1%"), "{}", lead.text);
        assert!(lead.citations.iter().any(|c| c.excerpt.contains("12.1%")));
        // Nothing to work out it from is not a gap when the filing states it.
        assert!(lead.missing.is_empty(), "{:?}", lead.missing);
        assert_eq!(lead.figures[0].unit, MetricUnit::Percent);
        assert_eq!(lead.figures[0].value, 12.1);

        // An amount row sharing the metric's name is not the percentage: it is computed.
        let msft = "INCOME STATEMENTS\n(In millions) | Year Ended June 30, 2023 | 2022\nTotal revenue | 211,915 | 198,270\nGross margin | 146,052 | 135,620\nOperating income | 88,523 | 83,383\n";
        let mut doc_msft = doc("Microsoft Corporation");
        doc_msft.text = msft.to_string();
        let question = "What was Microsoft's operating margin?";
        let rows = located_rows(msft, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_msft, &rows).unwrap();
        assert!(lead.text.starts_with("Operating margin"), "{}", lead.text);
        assert!(lead.text.contains("41.77%"), "{}", lead.text);
        let question = "What was Microsoft's gross margin?";
        let rows = located_rows(msft, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_msft, &rows).unwrap();
        assert!(lead.text.contains("68.92%"), "{}", lead.text);
        assert!(
            !lead.text.starts_with("Gross margin: 146,052"),
            "{}",
            lead.text
        );

        // Both printed and computable: the printed figure leads, the working follows.
        let both = "RESULTS OF OPERATIONS\n(In millions) | 2023 | 2022\nRevenues | 1,000 | 900\nOperating income | 150 | 120\nOperating margin | 15.0% | 13.3%\n";
        let mut doc_both = doc("Example Corp");
        doc_both.text = both.to_string();
        let question = "What was the operating margin in 2023?";
        let rows = located_rows(both, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_both, &rows).unwrap();
        let printed = lead.text.find("Operating margin: 15.0%").unwrap();
        let worked = lead
            .text
            .find("Operating margin worked out from the statements")
            .unwrap();
        assert!(printed < worked, "{}", lead.text);
        assert_eq!(lead.figures.len(), 1);
        assert!(!lead.figures[0].computed);

        // Nike's tax table as its PDF prints it: the "bps" cells are no figures, so the
        // headings fall on the wrong values; a column of another year is not the one asked.
        let tax = "INCOME STATEMENT\n(Dollars in millions) | FISCAL 2023 | FISCAL 2022\nIncome before income taxes | 6,201 | 6,651\nIncome tax expense | 1,131 | 605\nINCOME TAXES\nFISCAL 2023 | FISCAL 2022 | % CHANGE FISCAL 2021 | % CHANGE\nEffective tax rate | 18.2% | 9.1% | 910 bps | 14.0% | (490) bps\n";
        let mut doc_tax = doc("NIKE, Inc.");
        doc_tax.text = tax.to_string();
        let question = "What was Nike's tax rate in fiscal 2023?";
        let rows = located_rows(tax, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_tax, &rows).unwrap();
        assert!(!lead.text.contains("14.0%"), "{}", lead.text);
        assert!(lead.text.contains("18.24%"), "{}", lead.text);

        // A working that disagrees (a quarter's return, the filing's annualised) is left out.
        let bank = "HIGHLIGHTS\n(in millions) | 2Q23 | 2Q22\nTotal net revenue | 41,307 | 30,715\nNet income | 14,472 | 8,649\nTotal stockholders’ equity | 312,516 | 286,143\nReturn on common equity (“ROE”) | 20% | 13%\n";
        let mut doc_bank = doc("JPMorgan Chase & Co.");
        doc_bank.text = bank.to_string();
        let question = "What was the ROE in Q2 2023?";
        let rows = located_rows(bank, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_bank, &rows).unwrap();
        assert!(
            lead.text
                .starts_with("Return on common equity (“ROE”): 20%"),
            "{}",
            lead.text
        );
        assert!(!lead.text.contains("worked out"), "{}", lead.text);
        assert!(lead.metrics.is_empty());
    }

    #[test]
    fn a_part_is_answered_by_its_row_under_the_figure_asked() {
        let table = crate::finance::concepts::concept_table().unwrap();
        let text = "REVENUES\n(Dollars in millions) | FISCAL 2023 | FISCAL 2022 | % CHANGE\nNIKE, Inc. Revenues:\nFootwear | $ 33,135 | $ 29,143 | 14%\nTotal NIKE Brand Revenues | $ 48,763 | $ 44,436 | 10%\nConverse | 2,427 | 2,346 | 3%\nTOTAL NIKE, INC. REVENUES | $ 51,217 | $ 46,710 | 10%\nEARNINGS BEFORE INTEREST AND TAXES\n(Dollars in millions) | FISCAL 2023 | FISCAL 2022 | % CHANGE\nConverse | 676 | 669 | 1%\n";
        let mut nike = doc("NIKE, Inc.");
        nike.text = text.to_string();
        nike.nodes = vec![serde_json::from_value(serde_json::json!({
            "node_id": "0001", "title": "Revenues", "level": 1, "parent_id": null,
            "span": {"start_char": 0, "end_char": text.chars().count()},
            "token_count": 0, "summary": "", "summary_engine": "extractive",
            "origin": "pattern", "children": []
        }))
        .unwrap()];
        let question = "How much revenue did Converse bring in in fiscal 2023?";
        let rows = located_rows(text, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &nike, &rows).unwrap();
        assert!(
            lead.text
                .starts_with("Converse (revenue): 2,427 (FISCAL 2023)"),
            "{}",
            lead.text
        );
        assert!(!lead.lookups_firm);
        assert!(lead.figures.is_empty());
        assert!(lead
            .citations
            .iter()
            .any(|c| c.excerpt.starts_with("Converse | 2,427")));
        // Under each figure its own row ("EBIT" is how Nike names operating income).
        let question = "What was Converse's operating income in fiscal 2023?";
        let rows = located_rows(text, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &nike, &rows).unwrap();
        assert!(lead.text.contains(": 676 (FISCAL 2023)"), "{}", lead.text);
        // A line of the part ("casino revenue at Las Vegas Strip Resorts") is not its total.
        let mgm_text = "The following table presents a detail by segment of net revenues:\n(In thousands) | 2023 | 2022\nLas Vegas Strip Resorts\nCasino | $492,212 | $498,524\nRooms | 706,715 | 696,008\n2,146,650 | 2,137,176\n";
        let mut mgm = doc("MGM Resorts International");
        mgm.text = mgm_text.to_string();
        mgm.nodes = nike.nodes.clone();
        mgm.nodes[0].span.end_char = mgm_text.chars().count();
        let question = "What was casino revenue at Las Vegas Strip Resorts in Q2 2023?";
        let rows = located_rows(mgm_text, question);
        let stated =
            lead_for(table, &Question::read(question).unwrap(), &mgm, &rows).map(|l| l.text);
        assert!(
            !stated.iter().any(|t| t.contains("2,146,650")),
            "{stated:?}"
        );
        let question = "How much revenue did Las Vegas Strip Resorts bring in in Q2 2023?";
        let rows = located_rows(mgm_text, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &mgm, &rows).unwrap();
        assert!(lead.text.contains(": 2,146,650"), "{}", lead.text);
        // A figure no table of the part's holds is not answered from another's.
        let question = "What was Converse's net income in fiscal 2023?";
        let rows = located_rows(text, question);
        assert!(lead_for(table, &Question::read(question).unwrap(), &nike, &rows).is_none());
    }

    #[test]
    fn the_discussion_of_a_figure_is_searched_for_what_was_asked_of_it() {
        let table = crate::finance::concepts::concept_table().unwrap();
        assert_eq!(
            focus_question(table, "Is Nike's gross margin trending the right way?").as_deref(),
            Some("What was gross margin?")
        );
        assert_eq!(
            focus_question(table, "Why did Nike's gross margin shrink in fiscal 2023?").as_deref(),
            Some("What drove gross margin?")
        );
        // "Earnings growth" is the bottom line's, not bare "growth" (revenue's).
        assert_eq!(
            focus_question(table, "What drove AEGON's earnings growth in 2000?").as_deref(),
            Some("What drove net income growth?")
        );
    }

    #[test]
    fn a_part_of_the_company_is_told_from_the_company_and_its_periods() {
        let apple = doc("Apple Inc.");
        assert!(names_a_part(
            "What were iPhone net sales in the third quarter?",
            &apple
        ));
        assert!(names_a_part(
            "How much revenue did the Las Vegas Strip resorts generate?",
            &doc("MGM Resorts International")
        ));
        assert!(!names_a_part(
            "What was Apple's free cash flow in FY2024?",
            &apple
        ));
        assert!(!names_a_part(
            "What was the quick ratio at June 30, 2023?",
            &apple
        ));
        assert!(!names_a_part("What was Apple's EBITDA in 2Q24?", &apple));
        // A part in lower case, right after the company's possessive.
        let microsoft = doc("Microsoft Corporation");
        assert!(names_a_part(
            "How much revenue does Microsoft's cloud bring in?",
            &microsoft
        ));
        assert!(names_a_part(
            "How big is Apple's services business?",
            &apple
        ));
        assert!(!names_a_part("What was Apple's total revenue?", &apple));
        assert!(!names_a_part(
            "What was Microsoft's operating margin?",
            &microsoft
        ));
        assert!(!names_a_part("How much did Apple spend on R&D?", &apple));
        assert!(!names_a_part(
            "What does Apple report: Operating Income",
            &apple
        ));
    }

    #[test]
    fn figures_answer_figure_questions_not_judgements() {
        assert!(asks_for_figure("What was Microsoft's quick ratio?"));
        assert!(asks_for_figure(
            "Is Microsoft net cash or net debt, and by how much?"
        ));
        assert!(!asks_for_figure("Why did operating profit collapse?"));
        assert!(!asks_for_figure("Which segment drove the growth?"));
        assert!(!asks_for_figure(
            "Is the gross margin trending the right way?"
        ));
    }
}
