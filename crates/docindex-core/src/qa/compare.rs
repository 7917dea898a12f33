//! Comparison across filings: the figures each part of a combined answer states, laid out
//! as a table (a row per company or filing, a column per concept) whose cells cite their
//! statement rows; differences worked out between rows in one unit and cited to both
//! cells; conflicts flagged when two filings of one company give different values for the
//! same concept and period (a restatement, a 10-Q against the 10-K).

use crate::finance::metrics::format_amount;
use crate::finance::MetricUnit;
use serde::{Deserialize, Serialize};

/// One value cell of a statement row, with the period its heading names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeriodValue {
    pub heading: String,
    pub year: Option<i32>,
    pub months: Option<u32>,
    pub value: f64,
    pub shown: String,
}

/// A figure an answer states, read from one statement row's cell or worked out from
/// several (a metric), with the markers of the citations that show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatedFigure {
    /// The concept's id ("revenue", "net_income", "gross_margin").
    pub concept: String,
    /// The concept's label ("total revenue").
    pub label: String,
    pub doc_id: String,
    pub doc_name: String,
    /// The row's label as the filing prints it ("Total net sales"); the metric's label for
    /// a computed figure.
    pub row_label: String,
    pub value: f64,
    /// As the filing prints it ("391,035"), or as the answer shows a computed metric.
    pub shown: String,
    /// "millions", "thousands" or "billions": the statement's unit, for amounts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<String>,
    /// The heading of the value's column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub months: Option<u32>,
    /// Money in `scale` for a line item; a metric's own unit otherwise (a percentage is
    /// held in percent: 27.4).
    pub unit: MetricUnit,
    /// Worked out from several rows, not read from one cell.
    pub computed: bool,
    /// The answer's citation markers for the value: its row and the headings naming the
    /// column.
    pub markers: Vec<usize>,
    /// The row's other columns, so that two filings reporting the same period can be
    /// checked against each other.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_periods: Vec<PeriodValue>,
}

impl StatedFigure {
    /// The value in units: a figure "in millions" times a million; a metric as it is.
    fn in_units(&self) -> f64 {
        match self.unit {
            MetricUnit::Amount => self.value * scale_factor(self.scale.as_deref()),
            _ => self.value,
        }
    }

    /// All periods the figure's row reports: the stated one first.
    fn periods(&self) -> Vec<PeriodValue> {
        let mut all = vec![PeriodValue {
            heading: self.period.clone().unwrap_or_default(),
            year: self.year,
            months: self.months,
            value: self.value,
            shown: self.shown.clone(),
        }];
        all.extend(self.other_periods.iter().cloned());
        all
    }

    /// A copy whose markers are raised by `shift` (its answer's citations were renumbered).
    pub fn shifted(&self, shift: usize) -> StatedFigure {
        StatedFigure {
            markers: self.markers.iter().map(|m| m + shift).collect(),
            ..self.clone()
        }
    }
}

fn scale_factor(scale: Option<&str>) -> f64 {
    match scale.map(str::to_lowercase).as_deref() {
        Some("thousands") => 1e3,
        Some("millions") => 1e6,
        Some("billions") => 1e9,
        _ => 1.0,
    }
}

/// A column of the comparison: one concept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparisonColumn {
    pub concept: String,
    pub label: String,
}

/// A row of the comparison: one company, or one filing when a company's filings are
/// compared with each other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparisonRow {
    /// What the row is called in the answer ("Apple Inc.", "Apple Inc. 10-Q").
    pub label: String,
    pub company: String,
    /// One cell per column; `None` where the row's filings did not give the figure.
    pub cells: Vec<Option<StatedFigure>>,
}

/// A difference between two rows' values of one concept, cited to both cells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub concept: String,
    pub label: String,
    /// The row with the larger value (for a change between filings: the later filing).
    pub first: String,
    pub second: String,
    /// `first` minus `second`, in `scale` (amounts) or in the figures' own unit.
    pub value: f64,
    pub shown: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<String>,
    /// `first` as a multiple of `second`, when both are positive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratio: Option<f64>,
    /// The markers of both cells.
    pub markers: Vec<usize>,
    /// The sentence the answer states it in.
    pub text: String,
}

/// Two filings of one company that give different values for the same concept and period.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conflict {
    pub company: String,
    pub concept: String,
    pub label: String,
    pub period: String,
    /// (filing, value as printed, markers) for each side.
    pub sources: Vec<(String, String, Vec<usize>)>,
    pub text: String,
}

/// The table of a comparing answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub columns: Vec<ComparisonColumn>,
    pub rows: Vec<ComparisonRow>,
    pub differences: Vec<Difference>,
    pub conflicts: Vec<Conflict>,
    /// What a reader must know to read it ("the periods differ: …", "units differ").
    pub notes: Vec<String>,
}

/// One part of a combined answer, for the table: its row label, company and the figures
/// it states (markers already renumbered into the combined answer).
pub struct ComparedPart<'a> {
    pub label: &'a str,
    pub company: &'a str,
    pub figures: &'a [StatedFigure],
}

/// The comparison of `parts`: a column per concept two or more rows state, a row per
/// part; `None` when fewer than two rows state a common concept.
pub fn compare(parts: &[ComparedPart]) -> Option<Comparison> {
    let mut columns: Vec<ComparisonColumn> = Vec::new();
    for part in parts {
        for figure in part.figures {
            let shared = parts
                .iter()
                .filter(|p| p.figures.iter().any(|f| f.concept == figure.concept))
                .count();
            if shared >= 2 && !columns.iter().any(|c| c.concept == figure.concept) {
                columns.push(ComparisonColumn {
                    concept: figure.concept.clone(),
                    label: figure.label.clone(),
                });
            }
        }
    }
    if columns.is_empty() {
        return None;
    }
    let rows: Vec<ComparisonRow> = parts
        .iter()
        .map(|part| ComparisonRow {
            label: part.label.to_string(),
            company: part.company.to_string(),
            cells: columns
                .iter()
                .map(|c| {
                    part.figures
                        .iter()
                        .find(|f| f.concept == c.concept)
                        .cloned()
                })
                .collect(),
        })
        .collect();
    let mut comparison = Comparison {
        columns,
        rows,
        differences: Vec::new(),
        conflicts: Vec::new(),
        notes: Vec::new(),
    };
    for (index, column) in comparison.columns.clone().iter().enumerate() {
        let cells: Vec<(&ComparisonRow, &StatedFigure)> = comparison
            .rows
            .iter()
            .filter_map(|r| r.cells[index].as_ref().map(|f| (r, f)))
            .collect();
        let (differences, notes) = differences_of(column, &cells);
        comparison.differences.extend(differences);
        comparison.notes.extend(notes);
    }
    comparison.conflicts = conflicts_in(parts);
    Some(comparison)
}

/// The verdict a "which had the higher …" question asks, from the comparison's first
/// column every row fills: the company with the larger (`higher`) or smaller figure named
/// first with its figure, then the others' ("Colgate-Palmolive: 58.21%, against Procter &
/// Gamble's 51.39%."). Periods that differ are named with each figure. `None` when no
/// column is filled by every row in one kind of figure.
pub fn verdict(table: &Comparison, higher: bool) -> Option<String> {
    let index = (0..table.columns.len()).find(|&i| {
        let cells: Vec<&StatedFigure> = table
            .rows
            .iter()
            .filter_map(|r| r.cells[i].as_ref())
            .collect();
        cells.len() == table.rows.len()
            && cells.len() >= 2
            && cells.iter().all(|f| f.unit == cells[0].unit)
    })?;
    let cells: Vec<(&ComparisonRow, &StatedFigure)> = table
        .rows
        .iter()
        .filter_map(|r| r.cells[index].as_ref().map(|f| (r, f)))
        .collect();
    // Outflows print negative ("(5,787)"): "less share repurchases" compares their sizes.
    let all_negative = cells.iter().all(|(_, f)| f.value <= 0.0);
    let size = |f: &StatedFigure| match all_negative {
        true => f.in_units().abs(),
        false => f.in_units(),
    };
    let mut ordered = cells.clone();
    ordered.sort_by(|a, b| size(b.1).total_cmp(&size(a.1)));
    if !higher {
        ordered.reverse();
    }
    let years_differ = cells.iter().any(|(_, f)| f.year != cells[0].1.year);
    let words = |f: &StatedFigure| {
        let shown = figure_words(f, all_negative);
        match (years_differ, f.year) {
            (true, Some(year)) => format!("{shown} ({year})"),
            _ => shown,
        }
    };
    let (first_row, first) = ordered[0];
    let others: Vec<String> = ordered[1..]
        .iter()
        .map(|(row, f)| format!("{} {}", possessive(&row.label), words(f)))
        .collect();
    let markers: String = ordered
        .iter()
        .flat_map(|(_, f)| f.markers.iter())
        .map(|m| format!("[{m}]"))
        .collect();
    let column = &table.columns[index];
    let periods = match years_differ {
        true => " (the periods differ: each company's latest fiscal year asked)",
        false => "",
    };
    Some(format!(
        "{}: {} {}, against {}{periods} {markers}.",
        first_row.label,
        words(first),
        column.label,
        others.join(" and "),
    ))
}

/// A figure as a verdict states it: money in its natural unit ("$273.06 billion"), a
/// percentage, ratio, multiple or days as the metric is shown.
fn figure_words(figure: &StatedFigure, as_size: bool) -> String {
    let value = match as_size {
        true => figure.value.abs(),
        false => figure.value,
    };
    match figure.unit {
        MetricUnit::Amount => {
            let units = value * scale_factor(figure.scale.as_deref());
            let sign = if units < 0.0 { "-" } else { "" };
            let size = units.abs();
            match figure.scale {
                None if size < 1_000.0 => format!("{sign}${size:.2}"),
                _ if size >= 1e9 => format!("{sign}${:.2} billion", size / 1e9),
                _ if size >= 1e6 => format!("{sign}${:.1} million", size / 1e6),
                _ => format!("{sign}${}", format_amount(size.round())),
            }
        }
        // A printed percentage as the filing prints it ("46.2%"), a computed one as shown.
        MetricUnit::Percent if !figure.computed && !as_size => {
            let printed = figure.shown.trim();
            match printed.ends_with('%') {
                true => printed.to_string(),
                false => format!("{printed}%"),
            }
        }
        MetricUnit::Percent => format!("{value:.2}%"),
        MetricUnit::Ratio => format!("{value:.2}"),
        MetricUnit::Times => format!("{value:.2}x"),
        MetricUnit::Days => format!("{value:.1} days"),
    }
}

/// The differences between the rows of one column: the larger of two rows against the
/// smaller; with more rows, the largest against each of the others. Between filings of one
/// company, the later period against the earlier (a change).
fn differences_of(
    column: &ComparisonColumn,
    cells: &[(&ComparisonRow, &StatedFigure)],
) -> (Vec<Difference>, Vec<String>) {
    let mut notes = Vec::new();
    if cells.len() < 2 {
        return (Vec::new(), notes);
    }
    let kinds: Vec<MetricUnit> = cells.iter().map(|(_, f)| f.unit).collect();
    if kinds.iter().any(|k| *k != kinds[0]) {
        notes.push(format!(
            "{}: the figures are not of one kind, so no difference is worked out.",
            capitalise(&column.label)
        ));
        return (Vec::new(), notes);
    }
    let amount = kinds[0] == MetricUnit::Amount;
    let scales: Vec<Option<&str>> = cells.iter().map(|(_, f)| f.scale.as_deref()).collect();
    if amount && scales.iter().any(|s| s.is_none()) && scales.iter().any(|s| s.is_some()) {
        notes.push(format!(
            "{}: not every statement says its unit, so no difference is worked out.",
            capitalise(&column.label)
        ));
        return (Vec::new(), notes);
    }
    // The difference is shown in the largest unit among the cells (thousands and millions
    // become millions).
    let unit = scales
        .iter()
        .copied()
        .max_by(|a, b| scale_factor(*a).total_cmp(&scale_factor(*b)))
        .flatten()
        .map(str::to_string);
    let years: Vec<Option<i32>> = cells.iter().map(|(_, f)| f.year).collect();
    if years.iter().any(|y| *y != years[0]) {
        let described: Vec<String> = cells
            .iter()
            .map(|(r, f)| match &f.period {
                Some(p) => format!("{} {}", r.label, p),
                None => format!("{} (period not stated)", r.label),
            })
            .collect();
        notes.push(format!(
            "{}: the periods differ ({}).",
            capitalise(&column.label),
            described.join("; ")
        ));
    }
    let one_company = cells.iter().all(|(r, _)| r.company == cells[0].0.company);
    let mut ordered: Vec<&(&ComparisonRow, &StatedFigure)> = cells.iter().collect();
    if one_company {
        // A change: the latest period first, set against each earlier one.
        ordered.sort_by_key(|(_, f)| std::cmp::Reverse((f.year, f.months)));
    } else {
        ordered.sort_by(|a, b| b.1.in_units().total_cmp(&a.1.in_units()));
    }
    let (lead_row, lead) = *ordered[0];
    let mut out = Vec::new();
    for (row, figure) in ordered.iter().skip(1).map(|c| **c) {
        let (a, b) = (lead.in_units(), figure.in_units());
        let per_unit = if amount {
            scale_factor(unit.as_deref())
        } else {
            1.0
        };
        let value = (a - b) / per_unit;
        let shown = match kinds[0] {
            MetricUnit::Amount => format_amount(value.abs().round()),
            MetricUnit::Ratio => format!("{:.2}", value.abs()),
            _ => format!("{:.1}", value.abs()),
        };
        let ratio = (a > 0.0 && b > 0.0).then_some(a / b);
        let mut markers = lead.markers.clone();
        markers.extend(figure.markers.iter().copied());
        let cited: String = markers.iter().map(|m| format!("[{m}]")).collect();
        let unit_words = match (kinds[0], &unit) {
            (MetricUnit::Amount, Some(u)) => format!(" (in {u})"),
            (MetricUnit::Percent, _) => " percentage points".to_string(),
            (MetricUnit::Days, _) => " days".to_string(),
            (MetricUnit::Times, _) => "x".to_string(),
            _ => String::new(),
        };
        let text = if one_company {
            let direction = if value >= 0.0 { "rose" } else { "fell" };
            let pct = (b != 0.0).then(|| format!(", {:.1}%", (a - b) / b.abs() * 100.0));
            format!(
                "{} {} {direction} by {shown}{unit_words}{} from {} in the {} to {} in the {} {cited}.",
                possessive(&lead_row.company),
                column.label,
                pct.unwrap_or_default(),
                figure.shown,
                row.label,
                lead.shown,
                lead_row.label,
            )
        } else {
            let times = ratio
                .filter(|r| amount && *r >= 1.0)
                .map(|r| format!(", {r:.1} times as much"))
                .unwrap_or_default();
            format!(
                "{} {} is larger than {} by {shown}{unit_words}{times} ({} against {}) {cited}.",
                possessive(&lead_row.label),
                column.label,
                possessive(&row.label),
                lead.shown,
                figure.shown,
            )
        };
        out.push(Difference {
            concept: column.concept.clone(),
            label: column.label.clone(),
            first: lead_row.label.clone(),
            second: row.label.clone(),
            value,
            shown,
            scale: unit.clone().filter(|_| amount),
            ratio,
            markers,
            text,
        });
    }
    (out, notes)
}

/// Conflicts between filings of one company: the same concept reported for the same
/// period with different values, in any of the two rows' columns.
fn conflicts_in(parts: &[ComparedPart]) -> Vec<Conflict> {
    let mut out = Vec::new();
    for (i, a_part) in parts.iter().enumerate() {
        for b_part in parts.iter().skip(i + 1) {
            if a_part.company != b_part.company {
                continue;
            }
            for a in a_part.figures.iter().filter(|f| !f.computed) {
                for b in b_part
                    .figures
                    .iter()
                    .filter(|f| f.concept == a.concept && !f.computed && f.doc_id != a.doc_id)
                {
                    for pa in a.periods() {
                        for pb in b.periods() {
                            if !same_period(&pa, &pb) {
                                continue;
                            }
                            let ua = pa.value * scale_factor(a.scale.as_deref());
                            let ub = pb.value * scale_factor(b.scale.as_deref());
                            if (ua - ub).abs()
                                <= 0.5
                                    * scale_factor(a.scale.as_deref())
                                        .min(scale_factor(b.scale.as_deref()))
                            {
                                continue;
                            }
                            let sources = vec![
                                (a.doc_name.clone(), pa.shown.clone(), a.markers.clone()),
                                (b.doc_name.clone(), pb.shown.clone(), b.markers.clone()),
                            ];
                            let cite = |m: &[usize]| {
                                m.iter().map(|m| format!("[{m}]")).collect::<String>()
                            };
                            let text = format!(
                                "Conflict: {} {} for {} is {} in {} {} but {} in {} {}.",
                                possessive(a_part.company),
                                a.label,
                                pa.heading,
                                pa.shown,
                                a.doc_name,
                                cite(&a.markers),
                                pb.shown,
                                b.doc_name,
                                cite(&b.markers),
                            );
                            out.push(Conflict {
                                company: a_part.company.to_string(),
                                concept: a.concept.clone(),
                                label: a.label.clone(),
                                period: pa.heading.clone(),
                                sources,
                                text,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// Whether two columns report one period: the same length and year, and where both
/// headings print a date, the same date.
fn same_period(a: &PeriodValue, b: &PeriodValue) -> bool {
    if a.year.is_none() || a.year != b.year || a.months != b.months {
        return false;
    }
    match (date_in(&a.heading), date_in(&b.heading)) {
        (Some(x), Some(y)) => x == y,
        // A balance is at a date: without one on both sides, the year is not enough.
        _ => a.months.is_some(),
    }
}

/// "june302023" from "Year Ended June 30, 2023": a month, day and year printed in a
/// heading, compacted.
fn date_in(heading: &str) -> Option<String> {
    static DATE: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})",
        )
        .ok()
    });
    let caps = DATE.as_ref()?.captures(heading)?;
    Some(format!(
        "{}{}{}",
        caps[1].to_lowercase(),
        caps[2].trim_start_matches('0'),
        &caps[3]
    ))
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// "Apple Inc.'s", "MGM Resorts'".
fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(doc: &str, concept: &str, shown: &str, scale: &str, period: &str) -> StatedFigure {
        let value: f64 = shown.replace(',', "").parse().unwrap();
        let year = period
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|t| t.parse::<i32>().ok())
            .find(|y| *y > 1900);
        StatedFigure {
            concept: concept.into(),
            label: concept.replace('_', " "),
            doc_id: doc.into(),
            doc_name: format!("{doc}.html"),
            row_label: concept.into(),
            value,
            shown: shown.into(),
            scale: (!scale.is_empty()).then(|| scale.to_string()),
            period: Some(period.into()),
            year,
            months: period.contains("Year").then_some(12),
            unit: MetricUnit::Amount,
            computed: false,
            markers: vec![value as usize % 7 + 1],
            other_periods: Vec::new(),
        }
    }

    #[test]
    fn two_companies_give_one_column_and_a_difference_in_one_unit() {
        // Apple's 10-K (in millions) and MGM's 10-Q (in thousands).
        let apple = vec![figure(
            "apple",
            "revenue",
            "391,035",
            "millions",
            "Year Ended September 28, 2024",
        )];
        let mgm = vec![figure(
            "mgm",
            "revenue",
            "3,942,207",
            "thousands",
            "Year Ended June 30, 2023",
        )];
        let table = compare(&[
            ComparedPart {
                label: "Apple Inc.",
                company: "Apple Inc.",
                figures: &apple,
            },
            ComparedPart {
                label: "MGM Resorts International",
                company: "MGM Resorts International",
                figures: &mgm,
            },
        ])
        .unwrap();
        assert_eq!(table.columns.len(), 1);
        assert_eq!(table.rows.len(), 2);
        let d = &table.differences[0];
        assert_eq!(d.first, "Apple Inc.");
        assert_eq!(d.scale.as_deref(), Some("millions"));
        assert!((d.value - (391_035.0 - 3_942.207)).abs() < 1e-6);
        assert_eq!(d.shown, "387,093");
        assert!(d
            .text
            .contains("Apple Inc.'s revenue is larger than MGM Resorts International's"));
        assert!(table.notes.iter().any(|n| n.contains("periods differ")));
        assert!(table.conflicts.is_empty());
    }

    #[test]
    fn one_company_over_two_filings_is_a_change_and_a_restated_period_is_a_conflict() {
        let mut q = figure("q", "total_assets", "335,038", "millions", "July 1, 2023");
        q.months = None;
        q.other_periods.push(PeriodValue {
            heading: "September 24, 2022".into(),
            year: Some(2022),
            months: None,
            value: 352_755.0,
            shown: "352,755".into(),
        });
        let mut k = figure(
            "k",
            "total_assets",
            "364,980",
            "millions",
            "September 28, 2024",
        );
        k.months = None;
        // The later filing restates the earlier year-end (a made-up restatement).
        k.other_periods.push(PeriodValue {
            heading: "Sept. 24, 2022".into(),
            year: Some(2022),
            months: None,
            value: 352_000.0,
            shown: "352,000".into(),
        });
        let (qs, ks) = (vec![q], vec![k]);
        let table = compare(&[
            ComparedPart {
                label: "Apple Inc. 10-Q",
                company: "Apple Inc.",
                figures: &qs,
            },
            ComparedPart {
                label: "Apple Inc. 10-K",
                company: "Apple Inc.",
                figures: &ks,
            },
        ])
        .unwrap();
        let change = &table.differences[0];
        assert_eq!(change.first, "Apple Inc. 10-K");
        assert_eq!(change.shown, "29,942");
        assert!(change.text.contains("rose by 29,942 (in millions), 8.9%"));
        assert_eq!(table.conflicts.len(), 1);
        assert!(table.conflicts[0].text.contains("352,755"));
        assert!(table.conflicts[0].text.contains("352,000"));
        // Balances at different dates of one year are not the same period.
        let a = PeriodValue {
            heading: "July 1, 2023".into(),
            year: Some(2023),
            months: None,
            value: 1.0,
            shown: "1".into(),
        };
        let b = PeriodValue {
            heading: "September 30, 2023".into(),
            ..a.clone()
        };
        assert!(!same_period(&a, &b));
    }

    #[test]
    fn one_row_alone_or_units_unsaid_give_no_table_or_no_difference() {
        let apple = vec![figure("a", "revenue", "391,035", "millions", "2024")];
        let none: Vec<StatedFigure> = Vec::new();
        assert!(compare(&[
            ComparedPart {
                label: "Apple",
                company: "Apple",
                figures: &apple
            },
            ComparedPart {
                label: "Tesla",
                company: "Tesla",
                figures: &none
            },
        ])
        .is_none());
        let unsaid = vec![figure("t", "revenue", "96,773", "", "2023")];
        let table = compare(&[
            ComparedPart {
                label: "Apple",
                company: "Apple",
                figures: &apple,
            },
            ComparedPart {
                label: "Tesla",
                company: "Tesla",
                figures: &unsaid,
            },
        ])
        .unwrap();
        assert!(table.differences.is_empty());
        assert!(table.notes[0].contains("unit"));
    }
}
