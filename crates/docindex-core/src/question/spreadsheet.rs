//! Spreadsheet notation in a question ("A1 = revenue for FY22, B1 = the same line for FY23.
//! What is =B1/A1-1?", "=AVERAGE(FYE 2021, FYE 2022, FYE 2023)") written out as the words
//! of what it computes, before the rest of the question is read.
//!
//! A cell stands for what the question says it holds; a formula over cells that hold one
//! figure in different periods is recognised by what it computes (a change, a growth, an
//! average: `period_formula`), one over cells of one period is written out as arithmetic
//! over their line items. Anything that does not resolve is left as written.

use super::periods::periods_in;
use crate::finance::period_formula::operation_over_periods;
use crate::question::Operation;
use regex::Regex;
use std::sync::LazyLock;

/// "A1 = …", "cell B1 holds …", "C2 contains …": a cell named by column letters and a row
/// number, upper case as spreadsheets write it.
static CELL_DEFINITION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"\b(?:[Cc]ell\s+)?([A-Z]{1,2}[1-9]\d{0,2})\s*(?::=|=|\bholds\b|\bcontains\b|\bhas\b|\bis\b)\s*").ok()
});
/// "=B1/A1-1", "= (B1 - A1) / A1": arithmetic over cells, numbers and parentheses.
static CELL_FORMULA: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"=\s*(?:\d+(?:\.\d+)?\s*\*\s*)?\(?\s*[A-Z]{1,2}[1-9]\d{0,2}(?:[\s()]*[-+*/^][\s()]*(?:[A-Z]{1,2}[1-9]\d{0,2}|\d+(?:\.\d+)?))+[\s)]*").ok()
});
/// "100*C45/C5", "C45/C5*100": a quotient scaled to a percentage.
static TIMES_HUNDRED: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^\s*100\s*\*\s*(.+?)\s*$|^\s*(.+?)\s*\*\s*100\s*$").ok());
/// "=AVERAGE(…)", "=AVG(…)", "=MEAN(…)", "=SUM(…)".
static FUNCTION: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)=\s*(AVERAGE|AVG|MEAN|SUM)\s*\(([^()]*)\)").ok());
static CELL: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b([A-Z]{1,2})([1-9]\d{0,2})\b").ok());

/// What a cell holds: a line item (empty when the cell says "the same line") in a period.
#[derive(Debug, Clone)]
struct Held {
    item: String,
    period: String,
}

/// "OperatingCashFlow", "CurrentLiabilities_CurrentYE", "AR_{t-1}", "Capex_t": a formula's
/// named terms, as spreadsheets and textbooks write them.
static NAMED_TERM: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"\b([A-Za-z][A-Za-z0-9]*)_\{?([A-Za-z0-9+\-]+)\}?|\b([A-Z][a-z]+(?:[A-Z][a-z]*)+)\b",
    )
    .ok()
});

/// A term's name in words: "OperatingCashFlow" is "Operating Cash Flow".
fn camel_words(name: &str) -> String {
    let mut out = String::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if c.is_uppercase() && previous.is_some_and(char::is_lowercase) {
            out.push(' ');
        }
        out.push(c);
        previous = Some(c);
    }
    out
}

/// `text` with a formula's named terms written as words: a CamelCase name beside an
/// operator or "=" is its words, a subscript of the current period is dropped and one of the
/// prior period ("_{t-1}", "_PY") reads "prior-year". Names elsewhere ("PayPal") stay.
fn with_named_terms(text: &str) -> String {
    let Some(re) = NAMED_TERM.as_ref() else {
        return text.to_string();
    };
    // A dash is left out: "-- UnitedHealth's" is prose, not arithmetic.
    let operators = ['=', '/', '*', '+', '÷', '·', '(', ')', '×'];
    re.replace_all(text, |c: &regex::Captures| {
        let Some(whole) = c.get(0) else {
            return String::new();
        };
        if let (Some(name), Some(subscript)) = (c.get(1), c.get(2)) {
            let words = camel_words(name.as_str());
            // Only the subscripts of a period: "TA_start", "TA_end" say which balance, and
            // the definition reader reads them as written.
            return match subscript.as_str().to_ascii_lowercase().as_str() {
                "t-1" | "py" | "prior" | "prev" | "prioryear" | "prioryearend" => {
                    format!("prior-year {words}")
                }
                "t" | "cy" | "current" | "curr" | "currentye" | "currentyear"
                | "currentyearend" => words,
                _ => whole.as_str().to_string(),
            };
        }
        let before = text[..whole.start()].trim_end().chars().next_back();
        let after = text[whole.end()..].trim_start().chars().next();
        if text[whole.end()..].starts_with(['\'', '’']) {
            return whole.as_str().to_string();
        }
        let beside_operator = before.is_some_and(|b| operators.contains(&b))
            || after.is_some_and(|a| operators.contains(&a));
        match beside_operator {
            true => camel_words(whole.as_str()),
            false => whole.as_str().to_string(),
        }
    })
    .into_owned()
}

/// "operating_margin_pct", "dso_closing_ar_days": a variable's name as a data pipeline or
/// a code book writes it, all lower case with underscores.
static SNAKE_NAME: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b").ok());

/// A snake_case name in words: "pct" is "percent", a last "x" a multiple, "ex" excluding,
/// "rnd" R&D, a part naming the prior period ("prior", "py") makes the name the prior
/// year's and one naming the current ("ye", "cy") goes; another short part that is no
/// English word is an abbreviation ("ar" is "AR", "dso" "DSO").
fn snake_words(name: &str) -> String {
    const WORDS: [&str; 11] = [
        "to", "and", "of", "per", "net", "tax", "the", "end", "on", "at", "in",
    ];
    let parts: Vec<&str> = name.split('_').collect();
    let mut prior = false;
    let mut words: Vec<String> = Vec::new();
    for (at, part) in parts.iter().enumerate() {
        let word = match *part {
            "pct" => "percent",
            "x" if at + 1 == parts.len() => "multiple",
            "ex" | "excl" => "excluding",
            "avg" => "average",
            "rnd" => "R&D",
            "prior" | "py" | "prev" | "previous" | "ly" | "lag" => {
                prior = true;
                continue;
            }
            // "revenue_current", "ta_current_ye": the current period's; "current_assets"
            // is a line item's name.
            "ye" | "cy" | "curr" | "current" | "t"
                if parts
                    .get(at + 1)
                    .is_none_or(|next| matches!(*next, "ye" | "year" | "yr" | "period")) =>
            {
                continue
            }
            p if p.len() <= 3 && !WORDS.contains(&p) => {
                words.push(p.to_uppercase());
                continue;
            }
            p => p,
        };
        words.push(word.to_string());
    }
    let words = words.join(" ");
    match prior {
        true => format!("prior-year {words}"),
        false => words,
    }
}

/// `text` with its spreadsheet formula written out in words; `text` itself when it holds
/// none, or one whose cells or terms do not resolve.
pub fn written_out(text: &str) -> String {
    let snake_free = match SNAKE_NAME.as_ref() {
        Some(re) => re
            .replace_all(text, |c: &regex::Captures| snake_words(&c[0]))
            .into_owned(),
        None => text.to_string(),
    };
    let named = with_named_terms(&snake_free);
    // "formula: =Operating Cash Flow/Current Liabilities": the sign that opens a formula is
    // no part of it.
    let named = match EQUALS_BEFORE_WORDS.as_ref() {
        Some(re) => re.replace_all(&named, "$1$2").into_owned(),
        None => named,
    };
    written_out_cells(&named)
}

/// "=Operating …" after a colon, "as" or the start: a formula's opening sign before words
/// (not before a cell, "=C15/C25", which is read as cells).
static EQUALS_BEFORE_WORDS: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(^|:\s*|\bas\s+)=\s*([A-Za-z][a-z])").ok());

fn written_out_cells(text: &str) -> String {
    let (Some(function), Some(formula)) = (FUNCTION.as_ref(), CELL_FORMULA.as_ref()) else {
        return text.to_string();
    };
    let cells = cell_definitions(text);
    if let Some(caps) = function.captures(text) {
        let (Some(whole), Some(name), Some(arguments)) = (caps.get(0), caps.get(1), caps.get(2))
        else {
            return text.to_string();
        };
        let Some(words) = function_in_words(name.as_str(), arguments.as_str(), &cells.held) else {
            return text.to_string();
        };
        return replaced(text, whole.start(), whole.end(), &words, &cells.spans);
    }
    if let Some(found) = formula.find(text) {
        let Some(words) = formula_in_words(found.as_str(), &cells.held) else {
            return text.to_string();
        };
        return replaced(text, found.start(), found.end(), &words, &cells.spans);
    }
    text.to_string()
}

struct Cells {
    held: Vec<(String, Held)>,
    /// Where the definitions stand, to be taken out once their cells are written out.
    spans: Vec<(usize, usize)>,
}

/// The cells `text` defines, each with what it holds: a definition runs to the next one, to
/// the end of its sentence or to a formula.
fn cell_definitions(text: &str) -> Cells {
    let mut cells = Cells {
        held: Vec::new(),
        spans: Vec::new(),
    };
    let Some(re) = CELL_DEFINITION.as_ref() else {
        return cells;
    };
    let starts: Vec<(usize, usize, String)> = re
        .captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            Some((whole.start(), whole.end(), c.get(1)?.as_str().to_string()))
        })
        .collect();
    for (i, (start, value_start, cell)) in starts.iter().enumerate() {
        let next = starts.get(i + 1).map_or(text.len(), |(s, _, _)| *s);
        let rest = &text[*value_start..next];
        let end = rest
            .find(['.', '?', ';', '='])
            .filter(|at| {
                // A decimal point or an abbreviation's period continues the value.
                let after = rest[*at + 1..].chars().next();
                after.is_none_or(char::is_whitespace) || rest.as_bytes()[*at] != b'.'
            })
            .unwrap_or(rest.len());
        // "B2 = gross profit, what is =B2/B1?": before the formula, a comma ends the value.
        let end = match rest.as_bytes().get(end) {
            Some(b'=') => rest[..end].rfind(',').unwrap_or(end),
            _ => end,
        };
        let value = rest[..end]
            .trim()
            .trim_end_matches([',', ' '])
            .trim_end_matches(" and")
            .trim_end_matches(" while");
        let Some(held) = held_in(value) else { continue };
        // "Let A1 = …", "where A1 = …": the word that introduces a definition goes with it.
        let before = text[..*start].trim_end();
        let introduced = ["let", "where", "with", "if", "suppose", "say"]
            .iter()
            .find_map(|w| {
                let lower = before.to_lowercase();
                let kept = lower.strip_suffix(w)?;
                kept.chars()
                    .last()
                    .is_none_or(|c| !c.is_alphanumeric())
                    .then_some(kept.len())
            })
            .unwrap_or(*start);
        cells.held.push((cell.clone(), held));
        cells.spans.push((introduced, value_start + end));
    }
    cells
}

/// A cell's value read as a line item and one period: "Intel's dividends paid for FY 22"
/// holds "Intel's dividends paid" in "FY 22"; "the same line for FY 23" and "it for FY 23"
/// hold the line item of the cell before.
fn held_in(value: &str) -> Option<Held> {
    let periods = periods_in(value);
    let period = match periods.as_slice() {
        // "B1 = revenue": a line item of the period the question names elsewhere.
        [] => {
            let item = bare_item(value);
            return (!item.is_empty()).then(|| Held {
                item,
                period: String::new(),
            });
        }
        [period] => period,
        _ => return None,
    };
    let at = value.find(&period.written)?;
    let item = format!("{} {}", &value[..at], &value[at + period.written.len()..]);
    Some(Held {
        item: bare_item(&item),
        period: period.written.clone(),
    })
}

/// A line item's words without the connecting words a period leaves ("… for", "as of …"),
/// and empty when they only point back ("the same line", "it").
fn bare_item(item: &str) -> String {
    const LINKS: [&str; 10] = [
        "for", "at", "in", "as of", "of", "on", "during", "over", "value", "amount",
    ];
    let mut out = item.split_whitespace().collect::<Vec<_>>().join(" ");
    loop {
        let lower = out.to_lowercase();
        let trimmed = LINKS.iter().find_map(|link| {
            lower
                .strip_suffix(&format!(" {link}"))
                .or_else(|| (lower == *link).then_some(""))
                .map(str::len)
        });
        match trimmed {
            Some(keep) => out.truncate(keep),
            None => break,
        }
        out = out.trim_end_matches([',', ' ']).to_string();
    }
    let lower = out.to_lowercase();
    let points_back = ["the same", "same", "it", "that", "this", "ditto"]
        .iter()
        .any(|p| lower == *p || lower.starts_with(&format!("{p} ")));
    if points_back {
        String::new()
    } else {
        out
    }
}

/// What a cell reference stands for, with "the same line" given the line item of the
/// first cell that names one.
fn resolved(cell: &str, held: &[(String, Held)]) -> Option<Held> {
    let (_, found) = held.iter().find(|(name, _)| name == cell)?;
    let item = if found.item.is_empty() {
        held.iter()
            .map(|(_, h)| &h.item)
            .find(|i| !i.is_empty())?
            .clone()
    } else {
        found.item.clone()
    };
    Some(Held {
        item,
        period: found.period.clone(),
    })
}

/// "=AVERAGE(FYE 2021, FYE 2022)" as "the average over FYE 2021 and FYE 2022"; with the
/// line item in the arguments, "the average of closing A/R over FYE 2022 and FYE 2023".
fn function_in_words(name: &str, arguments: &str, held: &[(String, Held)]) -> Option<String> {
    let operation = match name.to_ascii_lowercase().as_str() {
        "sum" => "the sum",
        _ => "the average",
    };
    let mut items: Vec<Held> = Vec::new();
    for argument in arguments.split([',', ';']).map(str::trim) {
        for one in expanded_range(argument) {
            let held_here = match resolved(&one, held) {
                Some(h) => h,
                None => held_in(&one)?,
            };
            items.push(held_here);
        }
    }
    if items.len() < 2 {
        return None;
    }
    let periods: Vec<&str> = items.iter().map(|h| h.period.as_str()).collect();
    let named: Vec<&str> = items
        .iter()
        .map(|h| h.item.as_str())
        .filter(|i| !i.is_empty())
        .collect();
    let over = listed(&periods);
    match named.first() {
        None => Some(format!("{operation} over {over}")),
        Some(first) if named.iter().all(|i| i.eq_ignore_ascii_case(first)) => {
            Some(format!("{operation} of {first} over {over}"))
        }
        Some(_) => None,
    }
}

/// "A1:C1" as its cells, "A1" as itself, anything else as itself.
fn expanded_range(argument: &str) -> Vec<String> {
    let Some((from, to)) = argument.split_once(':') else {
        return vec![argument.to_string()];
    };
    let parse = |cell: &str| {
        let cell = cell.trim();
        let letters: String = cell.chars().take_while(char::is_ascii_uppercase).collect();
        let row: u32 = cell[letters.len()..].parse().ok()?;
        (letters.len() == 1).then(|| (letters.as_bytes()[0], row))
    };
    match (parse(from), parse(to)) {
        (Some((c1, r1)), Some((c2, r2))) if c1 == c2 && r1 <= r2 && r2 - r1 < 12 => {
            (r1..=r2).map(|r| format!("{}{r}", c1 as char)).collect()
        }
        (Some((c1, r1)), Some((c2, r2))) if r1 == r2 && c1 <= c2 && c2 - c1 < 12 => {
            (c1..=c2).map(|c| format!("{}{r1}", c as char)).collect()
        }
        _ => vec![argument.to_string()],
    }
}

/// A formula over cells in words: over one line item's periods, the operation it computes
/// ("the growth in revenue from FY 22 to FY 23"); over line items of one period, its
/// arithmetic ("gross profit divided by revenue for FY 23").
fn formula_in_words(formula: &str, held: &[(String, Held)]) -> Option<String> {
    let cell = CELL.as_ref()?;
    let body = formula.trim_start_matches(['=', ' ']).trim_end();
    let mut cells: Vec<Held> = Vec::new();
    for c in cell.find_iter(body) {
        cells.push(resolved(c.as_str(), held)?);
    }
    let first = cells.first()?;
    let one_item = cells
        .iter()
        .all(|h| h.item.eq_ignore_ascii_case(&first.item));
    let one_period = cells.iter().all(|h| h.period == first.period);
    if one_item && !one_period {
        let over_periods = cell.replace_all(body, |c: &regex::Captures| {
            resolved(&c[0], held).map_or_else(String::new, |h| format!(" the {} value ", h.period))
        });
        let (operation, years) = operation_over_periods(&over_periods)?;
        let in_year = |year: i32| {
            cells
                .iter()
                .find(|h| {
                    periods_in(&h.period)
                        .first()
                        .is_some_and(|p| p.year == year)
                })
                .map(|h| h.period.clone())
        };
        let (from, to) = (in_year(*years.first()?)?, in_year(*years.last()?)?);
        let item = &first.item;
        return match operation {
            Operation::Change => Some(format!("the change in {item} from {from} to {to}")),
            Operation::Growth => Some(format!(
                "the percentage growth in {item} from {from} to {to}"
            )),
            Operation::Average => {
                let periods: Vec<String> = years.iter().filter_map(|y| in_year(*y)).collect();
                let periods: Vec<&str> = periods.iter().map(String::as_str).collect();
                Some(format!("the average of {item} over {}", listed(&periods)))
            }
            Operation::Value | Operation::Cagr => None,
        };
    }
    if one_period && !one_item {
        let (body, in_percent) = match TIMES_HUNDRED.as_ref().and_then(|re| re.captures(body)) {
            Some(c) => match c.get(1).or(c.get(2)) {
                Some(inner) => (inner.as_str(), true),
                None => (body, false),
            },
            None => (body, false),
        };
        let words = cell.replace_all(body, |c: &regex::Captures| {
            resolved(&c[0], held).map_or_else(String::new, |h| format!(" {} ", h.item))
        });
        let words = words
            .replace('/', " divided by ")
            .replace('*', " times ")
            .replace('+', " plus ")
            .replace(" - ", " minus ");
        let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
        let words = match in_percent {
            true => format!("{words}, as a percentage"),
            false => words,
        };
        return Some(match first.period.is_empty() {
            true => format!("the figure defined as {words}"),
            false => format!("the figure defined as {words} for {}", first.period),
        });
    }
    None
}

fn listed(parts: &[&str]) -> String {
    match parts {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `text` with `start..end` written as `words` and the cells' definitions taken out.
fn replaced(
    text: &str,
    start: usize,
    end: usize,
    words: &str,
    definitions: &[(usize, usize)],
) -> String {
    let mut cuts: Vec<(usize, usize, &str)> = definitions
        .iter()
        .filter(|(s, e)| *e <= start || *s >= end)
        .map(|(s, e)| (*s, *e, ""))
        .collect();
    cuts.push((start, end, words));
    cuts.sort_by_key(|(s, _, _)| std::cmp::Reverse(*s));
    let mut out = text.to_string();
    for (s, e, with) in cuts {
        let padded = if with.is_empty() {
            String::new()
        } else {
            format!(" {with} ")
        };
        out.replace_range(s..e, &padded);
    }
    let out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    // A definition taken out leaves its separators: "A1 = x, B1 = y. What…" is ", . What…".
    let cleaned = out
        .replace(" ,", ",")
        .replace(" .", ".")
        .replace(" ?", "?")
        .replace(",.", ".")
        .replace(":.", ":")
        .replace(":,", ":")
        .replace(",,", ",");
    cleaned
        .trim_start_matches([',', '.', ' ', ';'])
        .trim_end_matches([',', ' ', ';'])
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spreadsheet_patterns_compile() {
        assert!(CELL_DEFINITION.is_some());
        assert!(CELL_FORMULA.is_some());
        assert!(FUNCTION.is_some());
        assert!(CELL.is_some());
        assert!(TIMES_HUNDRED.is_some());
        assert!(NAMED_TERM.is_some());
        assert!(EQUALS_BEFORE_WORDS.is_some());
    }

    #[test]
    fn a_formula_over_one_line_items_periods_is_the_operation_it_computes() {
        assert_eq!(
            written_out("In spreadsheet terms: A1 = Intel's dividends paid for FY 22, B1 = the same line for FY 23. What is =B1/A1-1, shown as a percentage?"),
            "In spreadsheet terms: What is the percentage growth in Intel's dividends paid from FY 22 to FY 23, shown as a percentage?"
        );
        assert_eq!(
            written_out("Spreadsheet check: cell A1 holds GM's operating income for FY 22 and B1 holds it for FY 23. What does =B1-A1 return?"),
            "Spreadsheet check: What does the change in GM's operating income from FY 22 to FY 23 return?"
        );
        assert_eq!(
            written_out(
                "A1 = capex FY2021, A2 = capex FY2022, A3 = capex FY2023; what is =(A1+A2+A3)/3?"
            ),
            "what is the average of capex over FY2021, FY2022 and FY2023?"
        );
    }

    #[test]
    fn an_average_function_is_an_average_over_its_periods() {
        assert_eq!(
            written_out("For J&J's expensed R&D, what does =AVERAGE(FYE 2021, FYE 2022, FYE 2023) return?"),
            "For J&J's expensed R&D, what does the average over FYE 2021, FYE 2022 and FYE 2023 return?"
        );
        assert_eq!(
            written_out(
                "For J&J, what does =AVERAGE(closing A/R FYE 2022, closing A/R FYE 2023) give?"
            ),
            "For J&J, what does the average of closing A/R over FYE 2022 and FYE 2023 give?"
        );
        assert_eq!(
            written_out("B1 = total assets at 12/31/2022, B2 = total assets at 12/31/2023. =AVERAGE(B1:B2)?"),
            "the average of total assets over 12/31/2022 and 12/31/2023?"
        );
    }

    #[test]
    fn a_formula_over_line_items_of_one_period_is_their_arithmetic() {
        assert_eq!(
            written_out("Let B1 = gross profit FY23 and B2 = revenue FY23. What is =B1/B2?"),
            "What is the figure defined as gross profit divided by revenue for FY23?"
        );
    }

    #[test]
    fn cells_of_line_items_alone_take_the_period_named_elsewhere() {
        assert_eq!(
            written_out("Nike FY23: with B1 = revenue and B2 = gross profit, what is =B2/B1?"),
            "Nike FY23: what is the figure defined as gross profit divided by revenue?"
        );
    }

    #[test]
    fn a_quotient_scaled_by_a_hundred_is_a_percentage() {
        assert_eq!(
            written_out("Intel, capex to revenue -- formula in our sheet: =100*C45/C5, where C5 is revenue and C45 is purchases of PP&E"),
            "Intel, capex to revenue -- formula in our sheet: the figure defined as purchases of PP&E divided by revenue, as a percentage"
        );
    }

    #[test]
    fn a_variables_snake_case_name_is_its_words() {
        assert_eq!(
            written_out("Cisco's dso_closing_ar_days in 2024"),
            "Cisco's DSO closing AR days in 2024"
        );
        assert_eq!(
            written_out("rnd_to_revenue_pct and quick_ratio_ex_inventory_x"),
            "R&D to revenue percent and quick ratio excluding inventory multiple"
        );
        assert_eq!(
            written_out("365 * ((receivables_prior_ye + receivables_current_ye) / 2) / revenue"),
            "365 * ((prior-year receivables + receivables) / 2) / revenue"
        );
        // "Current" that opens a line item's name is no period.
        assert_eq!(
            written_out("current_ratio_x as current_assets / current_liabilities"),
            "current ratio multiple as current assets / current liabilities"
        );
    }

    #[test]
    fn named_terms_of_a_formula_are_their_words() {
        assert_eq!(
            written_out("formula: =OperatingCashFlow/CurrentLiabilities_CurrentYE (Excel)"),
            "formula: Operating Cash Flow/Current Liabilities (Excel)"
        );
        assert_eq!(
            written_out("Definition: 365 · ((AR_{t-1} + AR_t) / 2) / Rev_t"),
            "Definition: 365 · ((prior-year AR + AR) / 2) / Rev"
        );
        // A name that is no formula's term stays, and so does a possessive beside a dash.
        assert_eq!(
            written_out("Credit memo -- UnitedHealth's debt in FY23 (or its LTD/equity)?"),
            "Credit memo -- UnitedHealth's debt in FY23 (or its LTD/equity)?"
        );
        assert_eq!(
            written_out("What was PayPal's revenue in 2023?"),
            "What was PayPal's revenue in 2023?"
        );
    }

    #[test]
    fn what_does_not_resolve_is_left_as_written() {
        for text in [
            "What was revenue in FY23?",
            "Q4 is the strongest quarter: what was revenue in FY23?",
            "What is =B1/A1-1 for revenue?",
        ] {
            assert_eq!(written_out(text), text);
        }
    }
}
