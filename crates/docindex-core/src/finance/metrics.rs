//! Metrics computed from statement rows: each operand is one cell of a located row (so it
//! can be cited to its exact span), the formula is the concept table's, and a missing
//! operand is named rather than guessed.

use super::concepts::{Concept, ConceptTable, MetricUnit, PRIOR_SUFFIX};
use super::rows::{normalise_label, RowMatch, StatementRow};
use super::FinanceError;
use evalexpr::{ContextWithMutableVariables, DefaultNumericTypes, HashMapContext, Value};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// One operand of a computed metric: a cell of a statement row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Operand {
    /// The formula's name for it (`revenue_prior` for last period's revenue).
    pub id: String,
    pub label: String,
    pub row: StatementRow,
    /// Index of the value cell used.
    pub column: usize,
    /// The value the formula used (an outflow's size).
    pub value: f64,
    /// The cell as printed.
    pub printed: String,
    /// The column's heading, when known.
    pub period: Option<String>,
}

/// A metric worked out from the statements, or the operands it lacks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricResult {
    pub metric_id: String,
    pub label: String,
    pub formula: String,
    pub unit: MetricUnit,
    pub operands: Vec<Operand>,
    /// Labels of operands no statement row was found for.
    pub missing: Vec<String>,
    /// The result, when every operand was found.
    pub value: Option<f64>,
    /// The result as the answer prints it ("27.4%", "1.75", "59,475").
    pub shown: Option<String>,
}

impl MetricResult {
    /// "net cash from operations 87,582 − additions to property and equipment 28,107":
    /// the formula with each operand's row label and printed value.
    pub fn worked(&self) -> String {
        self.worked_with(&|_| String::new())
    }

    /// [`MetricResult::worked`] with `suffix(operand)` after each operand's value (its
    /// citation marker).
    pub fn worked_with(&self, suffix: &dyn Fn(&Operand) -> String) -> String {
        let mut out = self.formula.clone();
        // Longest ids first, so `revenue_prior` is replaced before `revenue`.
        let mut operands: Vec<&Operand> = self.operands.iter().collect();
        operands.sort_by_key(|o| std::cmp::Reverse(o.id.len()));
        let mut placeholders = Vec::new();
        for (i, operand) in operands.iter().enumerate() {
            let placeholder = format!("\u{1}{i}\u{1}");
            out = replace_identifier(&out, &operand.id, &placeholder);
            placeholders.push((placeholder, operand));
        }
        for (placeholder, operand) in placeholders {
            out = out.replace(
                &placeholder,
                &format!(
                    "{} {}{}",
                    operand.row.label.trim(),
                    format_amount(operand.value),
                    suffix(operand)
                ),
            );
        }
        out.replace(" * ", " × ")
            .replace(" - ", " − ")
            .replace(" / ", " ÷ ")
    }
}

/// `text` with every whole-word `id` replaced.
pub(crate) fn replace_identifier(text: &str, id: &str, with: &str) -> String {
    match Regex::new(&format!(r"\b{}\b", regex::escape(id))) {
        Ok(re) => re.replace_all(text, with).into_owned(),
        Err(_) => text.to_string(),
    }
}

/// 59475 → "59,475"; 1234.5 → "1,234.5".
pub fn format_amount(value: f64) -> String {
    let negative = value < 0.0;
    let abs = value.abs();
    let frac = abs - abs.trunc();
    // The whole part's own digits: an integer type would saturate past 2^64 and print a
    // figure nobody wrote.
    let digits = format!("{:.0}", abs.trunc());
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    if frac > 0.005 {
        let decimals = format!("{frac:.2}");
        grouped.push_str(decimals.trim_start_matches('0').trim_end_matches('0'));
    }
    if negative {
        format!("-{grouped}")
    } else {
        grouped
    }
}

pub(crate) fn show(value: f64, unit: MetricUnit) -> String {
    match unit {
        // Two decimals when the question asks no rounding: "2.27%", not "2.3%" for 2.268%,
        // so a figure is never off by more than its last digit shows.
        MetricUnit::Percent => format!("{:.2}%", value * 100.0),
        MetricUnit::Ratio => format!("{value:.2}"),
        MetricUnit::Days => format!("{value:.1} days"),
        MetricUnit::Times => format!("{value:.2}x"),
        MetricUnit::Amount => format_amount(value.round()),
    }
}

/// The fiscal year a question asks about: "FY2023", "fiscal 2023", "2Q23", "in 2024".
pub fn year_asked(question: &str) -> Option<i32> {
    static SHORT: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"(?i)\b(?:[1-4]Q|Q[1-4]|FY)'?(\d{2})\b").ok());
    static LONG: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"(?i)(?:\bFY|\b)(20\d{2}|19\d{2})\b").ok());
    if let Some(c) = LONG.as_ref().and_then(|re| re.captures(question)) {
        return c[1].parse().ok();
    }
    SHORT
        .as_ref()
        .and_then(|re| re.captures(question))
        .and_then(|c| c[1].parse::<i32>().ok())
        .map(|y| 2000 + y)
}

/// Work out `metric` from `rows` (every located row of the document, any concept): each
/// operand takes its strongest row and the column for the asked period (`year`, `months`);
/// `<id>_prior` takes the period before.
pub fn compute_metric(
    table: &ConceptTable,
    metric: &Concept,
    rows: &[RowMatch],
    year: Option<i32>,
    months: Option<u32>,
) -> Result<MetricResult, FinanceError> {
    compute_metric_on(table, metric, rows, year, months, false)
}

/// [`compute_metric`], on year-end balances when `year_end` and the metric has a year-end
/// form (its `otherwise`): "days sales outstanding on year-end receivables".
pub fn compute_metric_on(
    table: &ConceptTable,
    metric: &Concept,
    rows: &[RowMatch],
    year: Option<i32>,
    months: Option<u32>,
    year_end: bool,
) -> Result<MetricResult, FinanceError> {
    let averaged = metric
        .formula
        .as_deref()
        .is_some_and(|f| f.contains(PRIOR_SUFFIX));
    let formula = match (year_end && averaged, &metric.otherwise) {
        (true, Some(at_year_end)) => at_year_end.clone(),
        _ => metric.formula.clone().unwrap_or_default(),
    };
    let worked = compute_with(table, metric, &formula, rows, year, months)?;
    // A line item the formula needs has no row: the metric's other formula, when it has
    // one and finds every operand.
    if let (false, Some(otherwise)) = (worked.missing.is_empty(), &metric.otherwise) {
        let other = compute_with(table, metric, otherwise, rows, year, months)?;
        if other.missing.is_empty() {
            return Ok(other);
        }
    }
    Ok(worked)
}

fn compute_with(
    table: &ConceptTable,
    metric: &Concept,
    formula: &str,
    rows: &[RowMatch],
    year: Option<i32>,
    months: Option<u32>,
) -> Result<MetricResult, FinanceError> {
    let mut formula = formula.to_string();
    let unit = metric.unit.unwrap_or(MetricUnit::Amount);
    let mut operands = Vec::new();
    let mut missing = Vec::new();
    for id in super::concepts::formula_ids(&metric.id, &formula)? {
        let (base, prior) = match id.strip_suffix(PRIOR_SUFFIX) {
            Some(base) => (base, true),
            None => (id.as_str(), false),
        };
        let Some(concept) = table.get(base) else {
            missing.push(id.clone());
            continue;
        };
        // A row without the asked year's column (a discontinued operation's 2021-only line)
        // answers only when no row has it.
        let has_year = |r: &&RowMatch| {
            year.is_none()
                || r.row
                    .column_for(year, months)
                    .and_then(|c| r.row.columns.get(c))
                    .is_some_and(|c| c.year == year)
        };
        let any_has_year = rows
            .iter()
            .filter(|r| r.concept_id == base)
            .any(|r| has_year(&r));
        let best = rows
            .iter()
            .filter(|r| r.concept_id == base)
            .filter(|r| r.row.values.iter().any(Option::is_some))
            .filter(|r| !any_has_year || has_year(r))
            .max_by(|a, b| {
                a.strength(concept.statement, year, months)
                    .total_cmp(&b.strength(concept.statement, year, months))
                    .then(b.row.start.cmp(&a.row.start))
            });
        let Some(found) = best else {
            missing.push(if prior {
                format!("{} (prior period)", concept.label)
            } else {
                concept.label.clone()
            });
            continue;
        };
        // The asked year's column, never another year's in its place (a column whose
        // heading names no year, "Amount", may be it).
        let current = found.row.column_for(year, months).filter(|&c| {
            let heading_year = found.row.columns.get(c).and_then(|h| h.year);
            year.is_none() || heading_year.is_none() || heading_year == year
        });
        let column = if prior {
            current.and_then(|c| found.row.prior_column(c))
        } else {
            current
        };
        let Some((column, value)) = column.and_then(|c| Some((c, found.row.values[c]?))) else {
            missing.push(concept.label.clone());
            continue;
        };
        operands.push(Operand {
            id: id.clone(),
            label: concept.label.clone(),
            column,
            value: concept.amount_in_row(value, &found.row.label),
            printed: found.row.printed.get(column).cloned().unwrap_or_default(),
            period: found.row.columns.get(column).map(|c| c.heading.clone()),
            row: found.row.clone(),
        });
        if !prior {
            let parts = other_part_operands(concept, found, rows, column, &id);
            if !parts.is_empty() {
                let sum = std::iter::once(id.clone())
                    .chain(parts.iter().map(|p| p.id.clone()))
                    .collect::<Vec<_>>()
                    .join(" + ");
                formula = replace_identifier(&formula, &id, &format!("({sum})"));
            }
            operands.extend(parts);
        }
    }
    let value = if missing.is_empty() {
        evaluate(&formula, &operands)
    } else {
        None
    };
    Ok(MetricResult {
        metric_id: metric.id.clone(),
        label: metric.label.clone(),
        formula,
        unit,
        operands,
        missing,
        shown: value.map(|v| show(v, unit)),
        value,
    })
}

/// The id of the `k`th further part of operand `id` (`depreciation_part_a`: the
/// amortization row a table prints beside "Depreciation"). Letters, not digits: the
/// evaluator reads every digit run of a formula as a number.
fn part_id(id: &str, k: usize) -> String {
    let letter = char::from(b'a' + (k % 26) as u8);
    format!("{id}_part_{letter}")
}

/// The other parts of `concept` that the table of `found` prints, as operands after `id`,
/// when `found` holds only part of it ("Depreciation" above "Amortization of intangible
/// assets", "Cost of products" above "Cost of services"): rows of the same table (the same
/// headings) whose labels are other partial line items of the concept, with a value in
/// `column`. Empty when `found` is the whole concept.
pub(crate) fn other_part_operands(
    concept: &Concept,
    found: &RowMatch,
    rows: &[RowMatch],
    column: usize,
    id: &str,
) -> Vec<Operand> {
    let is_partial = |label: &str| concept.partial_line_items.contains(&normalise_label(label));
    if !is_partial(&found.row.label) || found.row.headings.is_none() {
        return Vec::new();
    }
    let mut labels = vec![normalise_label(&found.row.label)];
    let mut parts = Vec::new();
    for candidate in rows.iter().filter(|r| r.concept_id == found.concept_id) {
        let row = &candidate.row;
        let label = normalise_label(&row.label);
        if row.headings != found.row.headings
            || row.values.len() != found.row.values.len()
            || !is_partial(&row.label)
            || labels.contains(&label)
        {
            continue;
        }
        let Some(value) = row.values.get(column).copied().flatten() else {
            continue;
        };
        labels.push(label);
        parts.push(Operand {
            id: part_id(id, parts.len()),
            label: row.label.trim().to_string(),
            column,
            value: concept.amount_in_row(value, &row.label),
            printed: row.printed.get(column).cloned().unwrap_or_default(),
            period: row.columns.get(column).map(|c| c.heading.clone()),
            row: row.clone(),
        });
    }
    parts
}

pub(crate) fn evaluate(formula: &str, operands: &[Operand]) -> Option<f64> {
    let mut context = HashMapContext::<DefaultNumericTypes>::new();
    for operand in operands {
        context
            .set_value(operand.id.clone(), Value::from_float(operand.value))
            .ok()?;
    }
    // Integer constants in formulas ("* 365", "- 1") are read as floats.
    let floated = match Regex::new(r"\d+(?:\.\d+)?") {
        Ok(re) => re
            .replace_all(formula, |c: &regex::Captures| {
                let number = &c[0];
                if number.contains('.') {
                    number.to_string()
                } else {
                    format!("{number}.0")
                }
            })
            .into_owned(),
        Err(_) => formula.to_string(),
    };
    let result = evalexpr::eval_float_with_context(&floated, &context).ok()?;
    result.is_finite().then_some(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finance::{concept_table, find_rows};

    const STATEMENTS: &str = "CONSOLIDATED BALANCE SHEETS\n(In millions)\nJune 30, | 2023 | 2022\nInventories | 2,500 | 3,742\nTotal current assets | 184,257 | 169,684\nTotal current liabilities | 104,149 | 95,082\nCASH FLOWS STATEMENTS\n(In millions)\nYear Ended June 30, | 2023 | 2022 | 2021\nNet cash from operations | 87,582 | 89,035 | 76,740\nAdditions to property and equipment | (28,107) | (23,886) | (20,622)\n";

    fn metric(question: &str, year: Option<i32>) -> MetricResult {
        metric_in(STATEMENTS, question, year)
    }

    fn metric_in(statements: &str, question: &str, year: Option<i32>) -> MetricResult {
        let table = concept_table().unwrap();
        let metric = table
            .asked_in(question)
            .into_iter()
            .find(|c| c.is_metric())
            .unwrap();
        let rows = find_rows(statements, &table.line_items_for(question));
        compute_metric(table, metric, &rows, year, None).unwrap()
    }

    #[test]
    fn a_gross_margin_without_a_gross_profit_row_is_worked_out_from_revenue_and_cost() {
        const NO_GROSS_PROFIT: &str = "CONSOLIDATED STATEMENTS OF INCOME\n(In millions)\nYear Ended December 31, | 2023 | 2022\nRevenue | 134,902 | 116,609\nCost of revenue | 25,959 | 25,249\nResearch and development | 38,483 | 35,338\n";
        let margin = metric_in(NO_GROSS_PROFIT, "gross margin", Some(2023));
        assert!(margin.missing.is_empty(), "{:?}", margin.missing);
        assert_eq!(margin.shown.as_deref(), Some("80.76%"));
        assert_eq!(margin.formula, "(revenue - cost_of_revenue) / revenue");
        // With the row printed, the margin is the row's.
        let printed = format!("{NO_GROSS_PROFIT}Gross profit | 108,943 | 91,360\n");
        let margin = metric_in(&printed, "gross margin", Some(2023));
        assert_eq!(margin.formula, "gross_profit / revenue");
    }

    #[test]
    fn free_cash_flow_and_quick_ratio_from_cited_cells() {
        let fcf = metric("free cash flow", None);
        assert_eq!(fcf.shown.as_deref(), Some("59,475"));
        assert_eq!(
            fcf.worked(),
            "Net cash from operations 87,582 − Additions to property and equipment 28,107"
        );
        let quick = metric("quick ratio", Some(2023));
        assert_eq!(quick.shown.as_deref(), Some("1.75"));
        assert_eq!(quick.operands.len(), 3);
        let prior = metric("quick ratio", Some(2022));
        assert_eq!(prior.operands[0].printed, "169,684");
    }

    #[test]
    fn a_concept_printed_in_parts_is_the_sum_of_the_parts_its_table_prints() {
        // AbbVie's 2023 statements: depreciation and the amortization of intangibles on rows
        // of their own; Boeing's: the cost of products and of services.
        const PARTS: &str = "CONSOLIDATED STATEMENTS OF EARNINGS\n(in millions)\nyears ended December 31 | 2023 | 2022\nNet revenues | $ 54,318 | $ 58,054\nOperating income | 12,757 | 18,117\nCONSOLIDATED STATEMENTS OF CASH FLOWS\n(in millions)\nyears ended December 31 | 2023 | 2022\nDepreciation | 752 | 778\nAmortization of intangible assets | 7,946 | 7,689\nOther, net | 1,031 | 1,012\n";
        const BOEING: &str = "CONSOLIDATED STATEMENTS OF OPERATIONS\n(Dollars in millions)\nYears ended December 31, | 2023 | 2022\nTotal revenues | 77,794 | 66,608\nCost of products | (59,864) | (55,047)\nCost of services | (10,206) | (8,531)\n";
        let margin = metric_in(PARTS, "EBITDA margin", Some(2023));
        assert_eq!(
            margin.shown.as_deref(),
            Some("39.50%"),
            "{}",
            margin.worked()
        );
        assert_eq!(
            margin.worked(),
            "(Operating income 12,757 + (Depreciation 752 + Amortization of intangible assets 7,946)) ÷ Net revenues 54,318"
        );
        // Each part is a cell of its own row, cited as the other operands are.
        assert_eq!(margin.operands.len(), 4);
        let gross = metric_in(BOEING, "gross margin", Some(2023));
        assert_eq!(gross.shown.as_deref(), Some("9.93%"), "{}", gross.worked());
        // A row that is the whole concept adds nothing.
        let whole = PARTS.replace(
            "Depreciation | 752 | 778",
            "Depreciation and amortization | 8,698 | 8,467",
        );
        let margin = metric_in(&whole, "EBITDA margin", Some(2023));
        assert_eq!(margin.operands.len(), 3, "{}", margin.worked());
    }

    #[test]
    fn a_missing_operand_is_named_not_guessed() {
        let days = metric("days of inventory", None);
        assert_eq!(days.value, None);
        assert_eq!(days.missing, ["cost of sales"]);
    }

    /// JPMorgan's 10-Q balance sheet as stored (rows cut), with the consolidated VIEs'
    /// sub-table its footnote (a) prints below it.
    const BANK_BALANCE_SHEET: &str = "Consolidated balance sheets (unaudited)\nJune 30, December 31,\n(in millions, except share data) | 2023 | 2022\nAssets\nLoans (included $38,789 and $42,079 at fair value) | 1,300,069 | 1,135,647\nAllowance for loan losses | (21,980) | (19,726)\nTotal assets | $ 3,868,240 | $ 3,665,743\nLiabilities\nDeposits (included $51,568 and $28,620 at fair value) | $ 2,398,962 | $ 2,340,179\n(a) The following table presents information on assets and liabilities related to VIEs that are consolidated by the Firm.\nJune 30, December 31,\n(in millions) | 2023 | 2022\nAssets\nTrading assets | $2,368 | $2,151\nLoans | 39,125 | 34,411\nTotal assets | $42,025 | $37,112\n";

    #[test]
    fn a_label_disclosing_amounts_in_parentheses_is_the_line_itself() {
        let ratio = metric_in(BANK_BALANCE_SHEET, "loan-to-deposit ratio", Some(2023));
        assert_eq!(ratio.operands[0].printed, "1,300,069");
        assert_eq!(ratio.operands[1].printed, "$ 2,398,962");
        assert_eq!(ratio.shown.as_deref(), Some("54.19%"));
    }

    #[test]
    fn years_are_read_from_analysts_shorthand() {
        assert_eq!(
            year_asked("What was the efficiency ratio in 2Q23?"),
            Some(2023)
        );
        assert_eq!(year_asked("free cash flow in FY2023"), Some(2023));
        assert_eq!(year_asked("in fiscal 2024"), Some(2024));
        assert_eq!(year_asked("What is the quick ratio?"), None);
        assert_eq!(format_amount(59475.0), "59,475");
        assert_eq!(format_amount(-1234.5), "-1,234.5");
    }
}
