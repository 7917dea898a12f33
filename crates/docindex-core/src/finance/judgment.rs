//! Judgment questions answered with a verdict first ("Improving: 41.0% → 43.4% → 44.1%",
//! "No, not capital-intensive: capex was 5.1% of revenue …"), worked out from the statements
//! over every year they print (or up to the year the question names), each figure cited to
//! its cells; and a metric that does not fit the business (a bank's gross margin) said so.

use super::asked::AskedColumns;
use super::concepts::{Concept, ConceptTable, MetricUnit};
use super::lead::FiguresLead;
use super::located::{locate_rows, LocatedRow};
use super::metrics::{compute_metric, MetricResult};
use super::rows::RowMatch;
use super::sections::SectionKind;
use super::stating::Citer;
use crate::model::DocumentIndex;
use crate::question::passage::{asked_sense, narrative_words};
use crate::question::{Judgment, JudgmentKind, Question};

/// Capex above this share of revenue, or net PP&E above `PPE_SHARE_HIGH` of total assets,
/// marks a capital-intensive business; below `CAPEX_SHARE_LOW` and `PPE_SHARE_LOW` it is
/// not. The bands follow the usual screens (utilities, telecoms, autos and semiconductors
/// spend well over a tenth of revenue; software and services a few percent).
const CAPEX_SHARE_HIGH: f64 = 0.10;
const CAPEX_SHARE_LOW: f64 = 0.06;
const PPE_SHARE_HIGH: f64 = 0.40;
const PPE_SHARE_LOW: f64 = 0.30;
/// A margin that moved less than this (percentage points) over the years is stable.
const STABLE_POINTS: f64 = 0.5;
/// The band a consistency question means when it names none (percentage points).
const DEFAULT_BAND_POINTS: f64 = 2.0;
/// Current ratio and quick ratio at or above these are a healthy liquidity profile; a
/// current ratio under 1 is a weak one.
const CURRENT_HEALTHY: f64 = 1.2;
const QUICK_HEALTHY: f64 = 1.0;
/// Debt-to-equity above this is high leverage; under `LEVERAGE_LOW` low.
const LEVERAGE_HIGH: f64 = 2.0;
const LEVERAGE_LOW: f64 = 1.0;

/// The metrics a judgment reads, by concept id, first the one its verdict rests on.
fn metrics_judged(table: &ConceptTable, kind: JudgmentKind, question: &str) -> Vec<String> {
    let asked: Vec<String> = table
        .asked_in(question)
        .into_iter()
        .filter(|c| c.is_metric() || c.statement.is_some())
        .map(|c| c.id.clone())
        .collect();
    match kind {
        JudgmentKind::CapitalIntensity => vec!["capex_intensity".into(), "ppe_share".into()],
        JudgmentKind::Liquidity => {
            let mut ids = vec!["current_ratio".to_string(), "quick_ratio".to_string()];
            if asked.iter().any(|a| a == "quick_ratio") {
                ids.reverse();
            }
            ids
        }
        JudgmentKind::Leverage => vec!["debt_to_equity".into()],
        JudgmentKind::Trend | JudgmentKind::Consistency | JudgmentKind::Fit => {
            let mut ids: Vec<String> = asked
                .into_iter()
                .filter(|id| !matches!(id.as_str(), "capex_intensity"))
                .collect();
            if ids.is_empty() {
                ids.push("operating_margin".into());
            }
            ids.truncate(2);
            ids
        }
    }
}

/// Whether `doc` is a deposit-taking bank's filing: it prints several of the rows only a
/// bank's statements hold.
pub fn is_bank(doc: &DocumentIndex) -> bool {
    let Ok(words) = narrative_words() else {
        return false;
    };
    let lower = doc.text.to_lowercase();
    words
        .bank_markers
        .iter()
        .filter(|m| lower.contains(m.as_str()))
        .count()
        >= 4
}

/// Metrics that say nothing of a bank: it has no cost of sales, no inventory, and its
/// balance sheet is not split into current and non-current.
fn unfit_for_a_bank(id: &str) -> bool {
    matches!(
        id,
        "gross_margin"
            | "quick_ratio"
            | "current_ratio"
            | "inventory_turnover"
            | "days_inventory"
            | "working_capital"
            | "capex_intensity"
    )
}

/// The verdict of a judgment question on `doc`, as a figures lead: the verdict, then the
/// figures for each year with their cells cited. `None` when the question is no judgment
/// or no figure could be worked out.
pub fn judgment_lead(
    table: &ConceptTable,
    reading: &Question,
    doc: &DocumentIndex,
) -> Option<FiguresLead> {
    let judgment = reading.judgment?;
    let question = reading.content.as_str();
    let ids = metrics_judged(table, judgment.kind, question);
    let columns = AskedColumns::of(reading, doc);
    if is_bank(doc) && ids.iter().any(|id| unfit_for_a_bank(id)) {
        return Some(not_for_a_bank(table, judgment, &ids, doc));
    }
    let mut citer = Citer::new(doc);
    let mut series: Vec<Series> = Vec::new();
    for id in &ids {
        let Some(metric) = metric_of(table, id) else {
            continue;
        };
        let found = Series::work_out(table, &metric, doc, &columns);
        if !found.points.is_empty() {
            series.push(found);
        }
    }
    let Some(first) = series.first() else {
        // A metric whose operands the statements do not print does not fit the business
        // (an insurer's unclassified balance sheet, a company with no revenue yet).
        let asks_fit = judgment.asks_fit
            || matches!(judgment.kind, JudgmentKind::Fit | JudgmentKind::Liquidity);
        return asks_fit.then(|| not_printed(table, &ids, doc)).flatten();
    };
    let verdict = verdict_of(judgment, &series, question);
    let verdict_numbers = verdict.clone();
    let mut text = verdict;
    for s in &series {
        text.push(' ');
        text.push_str(&s.stated(&mut citer, &columns));
    }
    let mut lead = FiguresLead {
        text,
        citations: citer.into_citations(),
        asked_year: first.points.last().map(|p| p.0),
        operation_done: true,
        ..FiguresLead::default()
    };
    // The verdict's own numbers (a move in points, the bands it was judged by) follow
    // from the cited cells or are the rule's.
    lead.computed.extend(numbers_in(&verdict_numbers));
    for s in &series {
        for (_, result) in &s.points {
            if let Some(shown) = &result.shown {
                lead.computed.push(shown.clone());
            }
        }
        if let Some((_, latest)) = s.points.last() {
            lead.metrics.push(latest.clone());
        }
    }
    Some(lead)
}

/// Whether the section `node_id` of `doc` stands in the notes (its innermost typed section
/// is a note, the notes or the segment note).
fn in_a_note(doc: &DocumentIndex, node_id: &str) -> bool {
    let mut current = doc.node(node_id);
    while let Some(node) = current {
        if let Some(section) = &node.financial {
            return matches!(
                section.kind,
                SectionKind::Note | SectionKind::Notes | SectionKind::Segments
            );
        }
        current = node.parent_id.as_deref().and_then(|p| doc.node(p));
    }
    false
}

/// The numbers written in `text` ("+2.9", "10%", "1.20").
fn numbers_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() || (!current.is_empty() && (c == '.' || c == ',')) {
            current.push(c);
        } else if !current.is_empty() {
            out.push(current.trim_end_matches(['.', ',']).to_string());
            current.clear();
        }
    }
    out
}

/// A metric of the table, or one a judgment needs that the table does not name (net PP&E
/// as a share of total assets).
fn metric_of(table: &ConceptTable, id: &str) -> Option<Concept> {
    if let Some(c) = table.get(id) {
        // A line item judged over the years is its own formula.
        return Some(match c.is_metric() {
            true => c.clone(),
            false => Concept {
                formula: Some(c.id.clone()),
                unit: Some(MetricUnit::Amount),
                ..c.clone()
            },
        });
    }
    match id {
        "ppe_share" => {
            table.get("ppe_net")?;
            Some(Concept {
                id: "ppe_share".into(),
                label: "net PP&E as a share of total assets".into(),
                asked_as: Vec::new(),
                statement: None,
                line_items: Vec::new(),
                xbrl: Vec::new(),
                outflow: false,
                formula: Some("ppe_net / total_assets".into()),
                otherwise: None,
                unit: Some(MetricUnit::Percent),
                plausible: Some([0.0, 100.0]),
                partial_line_items: Vec::new(),
                not_before: Vec::new(),
                bought_by: None,
            })
        }
        _ => None,
    }
}

/// A metric worked out for each year the statements print, earliest first.
struct Series {
    label: String,
    unit: MetricUnit,
    points: Vec<(i32, MetricResult)>,
    rows: Vec<LocatedRow>,
}

impl Series {
    fn work_out(
        table: &ConceptTable,
        metric: &Concept,
        doc: &DocumentIndex,
        columns: &AskedColumns,
    ) -> Series {
        let operands: Vec<&Concept> = table
            .operand_ids(metric)
            .unwrap_or_default()
            .iter()
            .filter_map(|id| table.get(id.trim_end_matches(super::concepts::PRIOR_SUFFIX)))
            .collect();
        // A verdict rests on the primary statements. A concept no statement prints as a row
        // (EBIT, printed in MD&A) takes management's own table, never a note's: a note's
        // table itemises (commercial paper in a fair-value table is not the company's debt).
        let located = locate_rows(doc, &operands);
        let in_its_statement = |r: &LocatedRow| {
            table
                .get(&r.matched.concept_id)
                .and_then(|c| c.statement)
                .is_some_and(|s| r.matched.row.statement == Some(s))
        };
        let rows: Vec<LocatedRow> = located
            .iter()
            .filter(|r| {
                in_its_statement(r)
                    || (!in_a_note(doc, &r.node_id)
                        && !located.iter().any(|other| {
                            other.matched.concept_id == r.matched.concept_id
                                && in_its_statement(other)
                        }))
            })
            .cloned()
            .collect();
        let matches: Vec<RowMatch> = rows.iter().map(|r| r.matched.clone()).collect();
        // A year's columns, or a quarter's when the filing prints no year (a 10-Q) or the
        // question asks of quarters.
        let printed = |m: u32| {
            matches
                .iter()
                .flat_map(|r| r.row.columns.iter())
                .any(|c| c.months == Some(m))
        };
        let months = match columns.months {
            Some(m) => Some(m),
            None if printed(12) => Some(12),
            None if printed(3) => Some(3),
            None => None,
        };
        let of_period = |c: &super::rows::PeriodColumn| {
            c.months.is_none() || months.is_none() || c.months == months
        };
        let mut years: Vec<i32> = matches
            .iter()
            .flat_map(|m| m.row.columns.iter())
            .filter(|c| of_period(c))
            .filter_map(|c| c.year)
            .collect();
        years.sort_unstable();
        years.dedup();
        // Up to the year asked, when the question names one.
        if let Some(asked) = columns.year {
            years.retain(|y| *y <= asked);
        }
        let mut points = Vec::new();
        for year in years {
            // Only rows that print the year compete for it: the strongest row of a concept
            // may be a table of other years.
            let printing: Vec<RowMatch> = matches
                .iter()
                .filter(|m| {
                    m.row
                        .columns
                        .iter()
                        .any(|c| c.year == Some(year) && of_period(c))
                })
                .cloned()
                .collect();
            let asked_months = months.filter(|m| *m != 12);
            let Ok(result) = compute_metric(table, metric, &printing, Some(year), asked_months)
            else {
                continue;
            };
            // Every operand must be that year's own cell.
            let own_year = result
                .operands
                .iter()
                .all(|o| o.row.columns.get(o.column).and_then(|c| c.year) == Some(year));
            if result.value.is_some_and(f64::is_finite) && own_year {
                points.push((year, result));
            }
        }
        Series {
            label: metric.label.clone(),
            unit: metric.unit.unwrap_or(MetricUnit::Amount),
            points,
            rows,
        }
    }

    fn values(&self) -> Vec<f64> {
        self.points.iter().filter_map(|(_, r)| r.value).collect()
    }

    /// "Gross margin: 41.0% in fiscal 2021 [1][2] → 43.4% in fiscal 2022 → 44.1% in fiscal
    /// 2023 (gross profit ÷ revenue)."
    fn stated(&self, citer: &mut Citer<'_>, columns: &AskedColumns) -> String {
        let mut parts = Vec::new();
        for (year, result) in &self.points {
            let (headings, rows) = citer.cite_operands(result, &self.rows);
            let markers: String = rows.iter().map(|(_, m)| m.trim().to_string()).collect();
            parts.push(format!(
                "{} in {} {}{}",
                result.shown.clone().unwrap_or_default(),
                columns.fiscal_label(*year),
                headings,
                markers
            ));
        }
        let how = self
            .points
            .last()
            .map(|(_, r)| r.formula.replace(" / ", " ÷ ").replace('_', " "))
            .unwrap_or_default();
        format!(
            "{}: {} ({how}).",
            super::stating::capitalise(&self.label),
            parts.join(" → ")
        )
    }
}

/// The verdict sentence's opening, from the first series (the one the judgment rests on).
fn verdict_of(judgment: Judgment, series: &[Series], question: &str) -> String {
    let Some(main) = series.first() else {
        return String::new();
    };
    let values = main.values();
    let (Some(&first), Some(&last)) = (values.first(), values.last()) else {
        return String::new();
    };
    let points = |v: f64| match main.unit {
        MetricUnit::Percent => v * 100.0,
        _ => v,
    };
    let sense = asked_sense(question);
    let answer = |holds: bool, word: &str| -> String {
        match sense {
            Some(positive) if positive == holds => format!("Yes, {word}:"),
            Some(_) => format!("No, {word}:"),
            None => format!("{}:", super::stating::capitalise(word)),
        }
    };
    match judgment.kind {
        JudgmentKind::Trend => {
            let years = values.len();
            if years < 2 {
                return format!("Only one year is printed ({}):", main.label);
            }
            let ups = values.windows(2).filter(|w| w[1] > w[0]).count();
            let downs = values.windows(2).filter(|w| w[1] < w[0]).count();
            // A rate moves in points; an amount in percent of where it started.
            let (moved, unit) = match main.unit {
                MetricUnit::Percent => (points(last) - points(first), " points"),
                _ if first.abs() > 0.0 => ((last / first - 1.0) * 100.0, "%"),
                _ => (last - first, ""),
            };
            let how = format!("{} moved {moved:+.1}{unit} over {years} years", main.label);
            if moved.abs() < STABLE_POINTS && main.unit == MetricUnit::Percent {
                format!("{} {how}.", answer(false, "stable"))
            } else if moved > 0.0 && downs == 0 {
                format!("{} {how}.", answer(true, "improving"))
            } else if moved < 0.0 && ups == 0 {
                format!("{} {how}.", answer(false, "declining"))
            } else if moved > 0.0 {
                format!(
                    "{} {how}, not every year.",
                    answer(true, "improving overall (mixed)")
                )
            } else {
                format!(
                    "{} {how}, not every year.",
                    answer(false, "declining overall (mixed)")
                )
            }
        }
        JudgmentKind::Consistency => {
            let band = judgment.band_points.unwrap_or(DEFAULT_BAND_POINTS);
            let high = values.iter().copied().fold(f64::MIN, f64::max);
            let low = values.iter().copied().fold(f64::MAX, f64::min);
            let spread = points(high) - points(low);
            let consistent = spread <= band;
            let word = if consistent {
                "consistent"
            } else {
                "not consistent"
            };
            format!(
                "{} {} ranged {spread:.1} points over {} years, {} the {band} point band.",
                answer(consistent, word),
                main.label,
                values.len(),
                if consistent { "within" } else { "outside" }
            )
        }
        JudgmentKind::CapitalIntensity => {
            let capex = series
                .iter()
                .find(|s| {
                    s.points
                        .last()
                        .is_some_and(|(_, r)| r.metric_id == "capex_intensity")
                })
                .and_then(|s| s.values().last().copied());
            let ppe = series
                .iter()
                .find(|s| {
                    s.points
                        .last()
                        .is_some_and(|(_, r)| r.metric_id == "ppe_share")
                })
                .and_then(|s| s.values().last().copied());
            let high = capex.is_some_and(|c| c >= CAPEX_SHARE_HIGH)
                || ppe.is_some_and(|p| p >= PPE_SHARE_HIGH);
            let low =
                capex.is_none_or(|c| c < CAPEX_SHARE_LOW) && ppe.is_none_or(|p| p < PPE_SHARE_LOW);
            let why = format!(
                "capex is {} of revenue and net PP&E {} of total assets (capital-intensive from about {:.0}% and {:.0}%).",
                capex.map_or("not found".into(), |c| format!("{:.1}%", c * 100.0)),
                ppe.map_or("not found".into(), |p| format!("{:.1}%", p * 100.0)),
                CAPEX_SHARE_HIGH * 100.0,
                PPE_SHARE_HIGH * 100.0
            );
            if high {
                format!("{} {why}", answer(true, "capital-intensive"))
            } else if low {
                format!("{} {why}", answer(false, "not capital-intensive"))
            } else {
                format!("{} {why}", answer(true, "moderately capital-intensive"))
            }
        }
        JudgmentKind::Liquidity => {
            let ratio = last;
            let quick = main
                .points
                .last()
                .is_some_and(|(_, r)| r.metric_id == "quick_ratio");
            let healthy_at = if quick {
                QUICK_HEALTHY
            } else {
                CURRENT_HEALTHY
            };
            let what = format!("the latest {} is {ratio:.2}", main.label);
            if ratio >= healthy_at {
                format!(
                    "{} {what} (healthy from about {healthy_at:.1}).",
                    answer(true, "healthy")
                )
            } else if ratio >= 1.0 || (quick && ratio >= 0.8) {
                format!(
                    "{} {what} (healthy from about {healthy_at:.1}).",
                    answer(true, "adequate")
                )
            } else {
                format!("{} {what}, under 1.", answer(false, "weak"))
            }
        }
        JudgmentKind::Fit => format!(
            "{} the statements print what {} needs: {} in the latest year.",
            answer(true, "it applies"),
            main.label,
            main.points
                .last()
                .and_then(|(_, r)| r.shown.clone())
                .unwrap_or_default()
        ),
        JudgmentKind::Leverage => {
            let what = format!("the latest {} is {last:.2}", main.label);
            if last > LEVERAGE_HIGH {
                format!("{} {what}.", answer(true, "highly levered"))
            } else if last < LEVERAGE_LOW {
                format!("{} {what}.", answer(false, "low leverage"))
            } else {
                format!("{} {what}.", answer(true, "moderately levered"))
            }
        }
    }
}

/// The answer when the statements print none of a metric's rows: it does not measure this
/// business. `None` when some of its rows are printed (the metric is only incomplete).
fn not_printed(table: &ConceptTable, ids: &[String], doc: &DocumentIndex) -> Option<FiguresLead> {
    let metric = metric_of(table, ids.first()?)?;
    let operands: Vec<&Concept> = table
        .operand_ids(&metric)
        .unwrap_or_default()
        .iter()
        .filter_map(|id| table.get(id.trim_end_matches(super::concepts::PRIOR_SUFFIX)))
        .collect();
    if operands.is_empty() || !locate_rows(doc, &operands).is_empty() {
        return None;
    }
    let mut labels: Vec<String> = operands.iter().map(|c| c.label.clone()).collect();
    labels.dedup();
    Some(FiguresLead {
        text: format!(
            "Not applicable: the statements print no {} row, so {} does not measure this business.",
            labels.join(" or "),
            metric.label
        ),
        operation_done: true,
        ..FiguresLead::default()
    })
}

/// The answer for a bank asked a metric that does not fit it: what does instead.
fn not_for_a_bank(
    table: &ConceptTable,
    judgment: Judgment,
    ids: &[String],
    doc: &DocumentIndex,
) -> FiguresLead {
    let named: Vec<String> = ids
        .iter()
        .filter(|id| unfit_for_a_bank(id))
        .filter_map(|id| table.get(id).map(|c| c.label.clone()))
        .collect();
    let company = doc
        .metadata
        .company_name
        .clone()
        .unwrap_or_else(|| "This filer".to_string());
    let instead = match judgment.kind {
        JudgmentKind::Liquidity => {
            "liquidity coverage ratio, high-quality liquid assets and the loan-to-deposit ratio"
        }
        JudgmentKind::CapitalIntensity => "the efficiency ratio and capital ratios (CET1)",
        _ => "net interest margin, the efficiency ratio and return on equity",
    };
    // The rows that show it is a bank, cited: what a bank's statements print instead.
    let bank_rows: Vec<&Concept> = ["deposits", "loans", "total_net_revenue"]
        .iter()
        .filter_map(|id| table.get(id))
        .collect();
    let rows = locate_rows(doc, &bank_rows);
    let mut citer = Citer::new(doc);
    let mut markers = String::new();
    for concept in &bank_rows {
        if let Some(row) = rows
            .iter()
            .filter(|r| r.matched.concept_id == concept.id)
            .find(|r| r.matched.row.statement.is_some())
        {
            let (headings, m) = citer.cite_row_parts(row);
            if let Some(h) = headings {
                markers.push_str(&format!("[{h}]"));
            }
            markers.push_str(&format!("[{m}]"));
        }
    }
    let shown = match markers.is_empty() {
        true => String::new(),
        false => format!(" Its statements print deposits, loans and net revenue {markers}."),
    };
    FiguresLead {
        text: format!(
            "Not applicable: {company} is a bank: it has no cost of sales or inventory and its balance sheet is not split into current and non-current, so {} does not measure it; {instead} do.{shown}",
            named.join(" and ")
        ),
        citations: citer.into_citations(),
        operation_done: true,
        ..FiguresLead::default()
    }
}
