//! An operation a question spells out over one figure's values in the periods it names:
//! "(fiscal 2023 value − fiscal 2022 value) ÷ fiscal 2022 value" is a growth, "take X for
//! FY23, deduct the FY22 amount" a change, "the FY22 closing balance plus the FY23 closing
//! balance, divided by two" an average. The words are parsed by the formula grammar and the
//! operation is recognised by what the formula computes, not by how it is worded: evaluated
//! on sample values, it must agree with one operation on every sample.

use super::formula_words::{parse_words, Node};
use crate::question::periods::periods_in;
use crate::question::Operation;
use regex::Regex;
use std::sync::LazyLock;

/// The operation `text` spells out over the years it names, and those years (earliest
/// first); `None` when it is no formula, a term names no single year, or the formula is
/// none of a change, a growth and an average.
pub(crate) fn operation_over_periods(text: &str) -> Option<(Operation, Vec<i32>)> {
    let (formula, _) = super::defined::without_percent_scaling(&prepared(text));
    let tree = parse_words(&formula).ok()?;
    let mut years = Vec::new();
    years_of(&tree, &mut years)?;
    years.sort_unstable();
    years.dedup();
    if years.len() < 2 {
        return None;
    }
    // Values that tell the operations apart: no two agree on both samples.
    let samples: Vec<Vec<f64>> = [[2.0, 3.0, 5.0, 11.0], [4.0, 7.0, 13.0, 17.0]]
        .iter()
        .map(|s| s.iter().copied().cycle().take(years.len()).collect())
        .collect();
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
    let computes = |operation: Operation| {
        samples.iter().all(|values| {
            let Some(got) = evaluate(&tree, &years, values) else {
                return false;
            };
            let (first, last) = (values[0], values[values.len() - 1]);
            match operation {
                Operation::Change => years.len() == 2 && close(got, last - first),
                Operation::Growth => {
                    let growth = (last - first) / first;
                    years.len() == 2 && (close(got, growth) || close(got, growth * 100.0))
                }
                Operation::Average => close(got, values.iter().sum::<f64>() / values.len() as f64),
                Operation::Value | Operation::Cagr => false,
            }
        })
    };
    [Operation::Change, Operation::Growth, Operation::Average]
        .into_iter()
        .find(|op| computes(*op))
        .map(|op| (op, years))
}

/// The steps of a procedure written as a formula: "take A for FY23, deduct the FY22 amount,
/// and report the result" is "A for FY23, minus the FY22 amount".
fn prepared(text: &str) -> String {
    static STEPS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
        [
            (r"(?i)^\s*(?:compute|calculate|work\s+out|take|use|start\s+with)\s+", ""),
            (r"(?i),?\s*(?:and\s+)?(?:then\s+)?(?:report|give|state|show|return)\s+(?:me\s+)?(?:the\s+|that\s+)?(?:result|difference|answer|figure|number)\b.*$", ""),
            (r"(?i)\s*(?:--|—|–)\s*$", ""),
            // "(opening balance + closing balance) / 2? — Quiz key": the question's mark and
            // the context put after a dash are no term's.
            (r"\s+—\s+.*$", ""),
            (r"[?!.\s]+$", ""),
            (r"(?i),\s*(?:and\s+)?(?:then\s+)?deduct\s+", ", minus "),
            (r"(?i)\s+deduct\s+", " minus "),
            (r"(?i)\bdivided\s+by\s+two\b", "divided by 2"),
            (r"(?i),?\s*(?:and\s+)?(?:then\s+)?halved\b", ", divided by 2"),
        ]
        .into_iter()
        .filter_map(|(p, with)| Some((Regex::new(p).ok()?, with)))
        .collect()
    });
    STEPS
        .iter()
        .fold(text.trim().to_string(), |out, (re, with)| {
            re.replace_all(&out, *with).into_owned()
        })
}

/// Every year the formula's terms name into `years`; `None` when a term names no single
/// year (then the formula is over line items, not over one figure's periods).
fn years_of(node: &Node, years: &mut Vec<i32>) -> Option<()> {
    match node {
        Node::Number(_) => Some(()),
        Node::Phrase(phrase) => {
            years.push(single_year(phrase)?);
            Some(())
        }
        Node::Binary { left, right, .. } => {
            years_of(left, years)?;
            years_of(right, years)
        }
    }
}

fn single_year(phrase: &str) -> Option<i32> {
    let mut found: Vec<i32> = periods_in(phrase).iter().map(|p| p.year).collect();
    found.dedup();
    match found.as_slice() {
        [year] => Some(*year),
        [] => year_by_position(phrase),
        _ => None,
    }
}

/// Stand-ins for the years a term names only by its place, "the later year's value" and
/// "the earlier year's": they order as those years do.
const EARLIER_YEAR: i32 = 1;
const LATER_YEAR: i32 = 9999;

fn year_by_position(phrase: &str) -> Option<i32> {
    let words: Vec<String> = crate::search::words(phrase)
        .iter()
        .flat_map(|w| w.split('-').map(str::to_string).collect::<Vec<_>>())
        .collect();
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let later = has(&[
        "later", "latest", "current", "recent", "second", "closing", "ending", "new", "newer",
    ]);
    let earlier = has(&[
        "earlier",
        "prior",
        "previous",
        "first",
        "base",
        "opening",
        "beginning",
        "starting",
        "old",
        "older",
    ]);
    let names_a_year = has(&[
        "year", "year's", "period", "period's", "value", "amount", "balance", "figure", "fy",
    ]);
    match (later, earlier, names_a_year) {
        (true, false, true) => Some(LATER_YEAR),
        (false, true, true) => Some(EARLIER_YEAR),
        _ => None,
    }
}

/// The formula's value with each year's term standing for `values` (in the order of
/// `years`).
fn evaluate(node: &Node, years: &[i32], values: &[f64]) -> Option<f64> {
    match node {
        Node::Number(n) => Some(*n),
        Node::Phrase(phrase) => {
            let year = single_year(phrase)?;
            values.get(years.iter().position(|y| *y == year)?).copied()
        }
        Node::Binary {
            operator,
            left,
            right,
        } => {
            let (l, r) = (
                evaluate(left, years, values)?,
                evaluate(right, years, values)?,
            );
            match operator {
                '+' => Some(l + r),
                '-' => Some(l - r),
                '*' => Some(l * r),
                '/' if r != 0.0 => Some(l / r),
                _ => None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<(Operation, Vec<i32>)> {
        operation_over_periods(text)
    }

    #[test]
    fn an_operation_is_recognised_by_what_its_formula_computes() {
        assert_eq!(
            read("(fiscal 2023 value − fiscal 2022 value) ÷ fiscal 2022 value"),
            Some((Operation::Growth, vec![2022, 2023]))
        );
        assert_eq!(
            read("(FY2023 amount / FY2022 amount - 1) x 100"),
            Some((Operation::Growth, vec![2022, 2023]))
        );
        assert_eq!(
            read("take its income tax expense for fiscal 2023, deduct the fiscal 2022 amount, and report the result"),
            Some((Operation::Change, vec![2022, 2023]))
        );
        assert_eq!(
            read("the fiscal 2022 closing balance plus the fiscal 2023 closing balance, divided by two"),
            Some((Operation::Average, vec![2022, 2023]))
        );
        assert_eq!(
            read("(FY21 + FY22 + FY23) / 3"),
            Some((Operation::Average, vec![2021, 2022, 2023]))
        );
    }

    #[test]
    fn terms_named_by_their_place_order_as_their_years() {
        assert_eq!(
            read("later year minus earlier year").map(|(op, _)| op),
            Some(Operation::Change)
        );
        assert_eq!(
            read("(current-year value - prior-year value) / prior-year value").map(|(op, _)| op),
            Some(Operation::Growth)
        );
        assert_eq!(
            read("(opening balance + closing balance) / 2? — Quiz key").map(|(op, _)| op),
            Some(Operation::Average)
        );
    }

    #[test]
    fn a_formula_over_line_items_or_of_no_known_operation_is_none() {
        assert_eq!(read("net income / average total assets"), None);
        assert_eq!(read("fiscal 2023 value x fiscal 2022 value"), None);
        assert_eq!(read("fiscal 2022 value - fiscal 2023 value + 1"), None);
        assert_eq!(read("revenue for fiscal 2023"), None);
    }
}
