//! The reading of a question carried out on statement rows: which column each asked period
//! is in the filer's calendar, the operation asked (a change, growth, CAGR, an average of
//! several years) worked out from cited cells, and a figure stated in the unit and rounding
//! the question asked.

use super::concepts::{Concept, MetricUnit};
use super::metrics::format_amount;
use super::rows::StatementRow;
use super::stating::capitalise;
use crate::model::DocumentIndex;
use crate::question::{fiscal_offset, Operation, Question, Scale};

/// The years and period length a question asks of one document, in that document's own
/// column years.
#[derive(Debug, Clone, PartialEq)]
pub struct AskedColumns {
    /// The year a value is asked for (its column's year), when one is named or implied.
    pub year: Option<i32>,
    /// The years the operation reads, earliest first (empty for a value).
    pub years: Vec<i32>,
    pub months: Option<u32>,
    /// Years between a column year and the fiscal year it is named for (see `fiscal_offset`).
    pub offset: i32,
}

impl AskedColumns {
    pub fn of(question: &Question, doc: &DocumentIndex) -> AskedColumns {
        let offset = fiscal_offset(doc);
        let latest = doc.metadata.fiscal_year.map(|y| y + offset);
        let year = match question.latest_period() {
            Some(p) => Some(p.column_year(offset)),
            None => question.relative_year.and_then(|r| Some(latest? + r)),
        };
        let years = match question.operation {
            Operation::Value => Vec::new(),
            Operation::Average | Operation::Cagr if question.spanned_years.is_some() => question
                .spanned_years
                .iter()
                .flatten()
                .map(|y| y + offset)
                .collect(),
            _ => {
                let mut years: Vec<i32> = question
                    .periods
                    .iter()
                    .map(|p| p.column_year(offset))
                    .collect();
                // "From the prior year to the latest": the years counted back from the
                // filing's latest.
                if years.is_empty() {
                    if let Some(latest) = latest {
                        years = question.relative_years.iter().map(|r| latest + r).collect();
                    }
                }
                years.sort_unstable();
                years.dedup();
                // One year named: the change is from the year before.
                match (years.as_slice(), year) {
                    ([only], _) => vec![only - 1, *only],
                    ([], Some(y)) => vec![y - 1, y],
                    _ => years,
                }
            }
        };
        AskedColumns {
            year,
            years,
            months: question.months(),
            offset,
        }
    }

    /// How an answer names the fiscal year whose column is `column_year`.
    pub fn fiscal_label(&self, column_year: i32) -> String {
        format!("fiscal {}", column_year - self.offset)
    }
}

/// An operation worked out on one row.
#[derive(Debug, Clone, PartialEq)]
pub struct Worked {
    /// "Operating income growth from fiscal 2022 to fiscal 2023: 12.3% = (4,567 − 4,000) / 4,000".
    pub sentence: String,
    /// The result as shown.
    pub shown: String,
}

/// The column of `row` holding exactly `year` (and the period length asked).
fn column_of_year(row: &StatementRow, year: i32, months: Option<u32>) -> Option<usize> {
    let column = row.column_for(Some(year), months)?;
    let heading = row.columns.get(column)?;
    (heading.year == Some(year) && row.values.get(column).copied().flatten().is_some())
        .then_some(column)
}

/// Round `value` to `decimals` and print it with thousands separators.
pub fn rounded(value: f64, decimals: u32) -> String {
    if decimals == 0 {
        return format_amount(value.round());
    }
    let text = format!("{value:.prec$}", prec = decimals as usize);
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let whole: f64 = whole.parse().unwrap_or(0.0);
    let sign = if value < 0.0 && whole == 0.0 { "-" } else { "" };
    format!("{sign}{}.{fraction}", format_amount(whole))
}

/// The operation the question asks carried out on `row` (a line item's row), or what is
/// missing for it.
pub fn work_out(
    question: &Question,
    columns: &AskedColumns,
    concept: &Concept,
    row: &StatementRow,
) -> Result<Worked, String> {
    let label = &concept.label;
    let mut cells: Vec<(i32, f64, String)> = Vec::new();
    for &year in &columns.years {
        let Some(column) = column_of_year(row, year, columns.months) else {
            return Err(format!(
                "{label} for {} is not in the row found",
                columns.fiscal_label(year)
            ));
        };
        let value = row.values[column].unwrap_or(0.0);
        let value = concept.amount_in_row(value, &row.label);
        cells.push((year, value, row.printed[column].trim().to_string()));
    }
    let (Some(first), Some(last)) = (cells.first(), cells.last()) else {
        return Err(format!("{label}: no periods to compare"));
    };
    if cells.len() < 2 {
        return Err(format!("{label}: one period only"));
    }
    let from_to = format!(
        "from {} to {}",
        columns.fiscal_label(first.0),
        columns.fiscal_label(last.0)
    );
    let scale = row
        .scale
        .as_deref()
        .map(|s| format!(" (in {s})"))
        .unwrap_or_default();
    let decimals = question.decimals;
    let (sentence, shown) = match question.operation {
        Operation::Growth | Operation::Cagr => {
            if first.1 == 0.0 {
                return Err(format!("{label}: the base year's figure is zero"));
            }
            let years = last.0 - first.0;
            let (rate, how) = if question.operation == Operation::Cagr && years > 1 {
                (
                    ((last.1 / first.1).powf(1.0 / f64::from(years)) - 1.0) * 100.0,
                    format!("({} / {})^(1/{years}) − 1", last.2, first.2),
                )
            } else {
                (
                    (last.1 - first.1) / first.1.abs() * 100.0,
                    format!("({} − {}) / {}", last.2, first.2, first.2),
                )
            };
            let shown = format!("{}%", rounded(rate, decimals.unwrap_or(2)));
            let name = match question.operation {
                Operation::Cagr => "compound annual growth",
                _ => "growth",
            };
            (
                format!("{} {name} {from_to}: {shown} = {how}", capitalise(label)),
                shown,
            )
        }
        Operation::Change => {
            let change = last.1 - first.1;
            let shown = state_amount(change, row.scale.as_deref(), question, concept);
            (
                format!(
                    "Change in {label} {from_to}: {shown} = {} − {}{scale}",
                    last.2, first.2
                ),
                shown,
            )
        }
        Operation::Average => {
            let mean = cells.iter().map(|c| c.1).sum::<f64>() / cells.len() as f64;
            let shown = state_amount(mean, row.scale.as_deref(), question, concept);
            let terms: Vec<&str> = cells.iter().map(|c| c.2.as_str()).collect();
            (
                format!(
                    "Average {label} {from_to}: {shown} = ({}) / {}{scale}",
                    terms.join(" + "),
                    cells.len()
                ),
                shown,
            )
        }
        Operation::Value => return Err(format!("{label}: nothing to work out")),
    };
    Ok(Worked { sentence, shown })
}

/// An amount worked out from a table's cells in the scale the question asks ("-$4.84
/// billion", "$3,392.6 million"), when both the question and the table say their scale;
/// `None` otherwise.
pub fn amount_in_asked_scale(
    value: f64,
    table_scale: Option<&str>,
    question: &Question,
) -> Option<String> {
    let asked = question.scale?;
    let table = Scale::of_table(table_scale)?;
    let units = value * table.factor() / asked.factor();
    let decimals = question.decimals.unwrap_or(match asked {
        Scale::Billions => 2,
        _ => 1,
    });
    let sign = if units < 0.0 { "-" } else { "" };
    Some(format!(
        "{sign}${} {}",
        rounded(units.abs(), decimals),
        asked.word()
    ))
}

/// Whether a concept is a per-share figure, which no table scale applies to.
fn per_share(concept: &Concept) -> bool {
    let label = concept.label.to_lowercase();
    label.contains("per share") || label.contains("per common share")
}

/// An amount of `concept` read in a table of `table_scale`, stated in the scale and
/// rounding the question asks ("$9.45 billion"), else in the table's own ("$9,447 million").
pub fn state_amount(
    value: f64,
    table_scale: Option<&str>,
    question: &Question,
    concept: &Concept,
) -> String {
    let sign = if value < 0.0 { "-" } else { "" };
    let magnitude = value.abs();
    if per_share(concept) {
        return format!(
            "{sign}${}",
            rounded(magnitude, question.decimals.unwrap_or(2))
        );
    }
    let table = Scale::of_table(table_scale);
    let dollars = magnitude * table.map_or(1.0, Scale::factor);
    match (question.scale, table) {
        // A table whose unit is not known is not converted: the figure as printed.
        (Some(_), None) => format!(
            "{sign}${}",
            rounded(magnitude, question.decimals.unwrap_or(0))
        ),
        (Some(asked), Some(own)) => {
            let default = match asked {
                Scale::Billions => 2,
                _ if dollars / asked.factor() < 10.0 => 2,
                _ => 0,
            };
            // "15,114" thousand asked in millions is "$15.114 million", not "$15 million":
            // rounding that would move the figure by more than half a percent keeps the
            // digits its table printed.
            let units = dollars / asked.factor();
            let step = 10f64.powi(-(default as i32));
            let moved = ((units / step).round() * step - units).abs() > units * 0.005;
            let kept = (asked.factor() / own.factor())
                .log10()
                .round()
                .clamp(0.0, 3.0) as u32;
            let default = match moved {
                true => default.max(kept),
                false => default,
            };
            let decimals = question.decimals.unwrap_or(default);
            format!(
                "{sign}${} {}",
                rounded(dollars / asked.factor(), decimals),
                asked.word()
            )
        }
        (None, Some(own)) => format!(
            "{sign}${} {}",
            rounded(magnitude, question.decimals.unwrap_or(0)),
            own.word()
        ),
        (None, None) => format!(
            "{sign}{}",
            rounded(magnitude, question.decimals.unwrap_or(0))
        ),
    }
}

/// A metric's value in its unit, rounded as asked.
pub fn state_metric(value: f64, unit: MetricUnit, question: &Question) -> Option<String> {
    let decimals = question.decimals?;
    Some(match unit {
        MetricUnit::Percent => format!("{}%", rounded(value * 100.0, decimals)),
        MetricUnit::Days => format!("{} days", rounded(value, decimals)),
        MetricUnit::Times => format!("{}x", rounded(value, decimals)),
        MetricUnit::Ratio => rounded(value, decimals),
        MetricUnit::Amount => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finance::rows::PeriodColumn;

    fn row(values: &[(i32, f64, &str)]) -> StatementRow {
        StatementRow {
            start: 0,
            end: 0,
            label: "Operating income".into(),
            printed: values.iter().map(|v| v.2.to_string()).collect(),
            values: values.iter().map(|v| Some(v.1)).collect(),
            columns: values
                .iter()
                .map(|v| PeriodColumn {
                    heading: v.0.to_string(),
                    year: Some(v.0),
                    months: Some(12),
                })
                .collect(),
            headings: None,
            scale: Some("millions".into()),
            statement: None,
        }
    }

    fn concept() -> Concept {
        crate::finance::concept_table()
            .unwrap()
            .get("operating_income")
            .unwrap()
            .clone()
    }

    fn doc() -> DocumentIndex {
        serde_json::from_str(
            r#"{"doc_id":"d","doc_name":"d.html","doc_type":"10-K","format":"html","source_sha256":"","encoding":"utf-8","metadata":{},"text":"","nodes":[],"chunks":[],"cross_refs":[],"dictionary":[],"links":[],"settings_key":""}"#,
        )
        .unwrap()
    }

    #[test]
    fn growth_between_the_years_asked_is_worked_out_from_their_columns() {
        let r = row(&[
            (2023, 1100.0, "1,100"),
            (2022, 1000.0, "1,000"),
            (2021, 800.0, "800"),
        ]);
        let q = Question::read("What was operating income growth from fiscal 2022 to fiscal 2023?")
            .unwrap();
        let columns = AskedColumns::of(&q, &doc());
        assert_eq!(columns.years, vec![2022, 2023]);
        let worked = work_out(&q, &columns, &concept(), &r).unwrap();
        assert_eq!(worked.shown, "10.00%");
        assert!(
            worked.sentence.contains("(1,100 − 1,000) / 1,000"),
            "{}",
            worked.sentence
        );
        // One year named: growth from the year before.
        let q = Question::read(
            "By how much did operating income grow in FY2022 (in %)? Round to two decimal places.",
        )
        .unwrap();
        let worked = work_out(&q, &AskedColumns::of(&q, &doc()), &concept(), &r).unwrap();
        assert_eq!(worked.shown, "25.00%");
        // A year the row lacks is named, not guessed.
        let q = Question::read("What was operating income growth from FY2019 to FY2020?").unwrap();
        let missing = work_out(&q, &AskedColumns::of(&q, &doc()), &concept(), &r).unwrap_err();
        assert!(missing.contains("fiscal 2019"), "{missing}");
    }

    #[test]
    fn averages_and_cagr_read_every_year_of_the_span() {
        let r = row(&[
            (2023, 1210.0, "1,210"),
            (2022, 1100.0, "1,100"),
            (2021, 1000.0, "1,000"),
        ]);
        let q =
            Question::read("What is the FY2021 - FY2023 3 year average operating income?").unwrap();
        let worked = work_out(&q, &AskedColumns::of(&q, &doc()), &concept(), &r).unwrap();
        assert_eq!(worked.shown, "$1,103 million");
        let q =
            Question::read("What is the 2-year CAGR of operating income from FY2021 to FY2023?")
                .unwrap();
        let worked = work_out(&q, &AskedColumns::of(&q, &doc()), &concept(), &r).unwrap();
        assert_eq!(worked.shown, "10.00%");
    }

    #[test]
    fn amounts_are_stated_in_the_unit_asked() {
        let c = concept();
        let q = Question::read("What is FY2024 operating income (in USD billions)?").unwrap();
        assert_eq!(
            state_amount(-9447.0, Some("millions"), &q, &c),
            "-$9.45 billion"
        );
        let q = Question::read("What is FY2024 operating income in USD thousands?").unwrap();
        assert_eq!(
            state_amount(9447.0, Some("millions"), &q, &c),
            "$9,447,000 thousand"
        );
        let q = Question::read("What is FY2024 operating income?").unwrap();
        assert_eq!(
            state_amount(9447.0, Some("millions"), &q, &c),
            "$9,447 million"
        );
        let q = Question::read("Palantir's capex in 2023 (mln USD)?").unwrap();
        assert_eq!(
            state_amount(15114.0, Some("thousands"), &q, &c),
            "$15.114 million"
        );
        assert_eq!(rounded(-0.456, 2), "-0.46");
        assert_eq!(rounded(1234.5, 1), "1,234.5");
    }
}
