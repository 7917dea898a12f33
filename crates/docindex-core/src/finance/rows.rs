//! Rows of statement tables in canonical text ("Additions to property and equipment |
//! (28,107) | (23,886)"), the heading rows above them that say which period each column
//! is, and the concept each row reports.

use super::concepts::{Concept, MetricUnit, Statement};
use super::statement_names::statement_of_line;
pub use super::statement_names::statement_of_title;
use crate::lexicon::lexicon;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// One value column of a table: its headings joined top to bottom, and the period read
/// from them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeriodColumn {
    /// "Year Ended June 30, 2023", "Three Months Ended July 1, 2023".
    pub heading: String,
    pub year: Option<i32>,
    /// Length of the period in months (3 for a quarter, 12 for a year) when the heading
    /// says it.
    pub months: Option<u32>,
}

/// A table row with figures, located in the text it was found in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatementRow {
    /// Char offsets of the row's line in the searched text (end exclusive).
    pub start: usize,
    pub end: usize,
    pub label: String,
    /// The value cells as printed.
    pub printed: Vec<String>,
    /// Their values (`None` for a dash).
    pub values: Vec<Option<f64>>,
    /// The period of each value cell, when the headings above say it.
    pub columns: Vec<PeriodColumn>,
    /// Char offsets of the heading rows that name the columns.
    pub headings: Option<(usize, usize)>,
    /// "millions", "thousands" or "billions", from the table's caption.
    pub scale: Option<String>,
    /// The statement whose title stands above the table.
    pub statement: Option<Statement>,
}

impl StatementRow {
    /// The value column for a period: the column naming `year` (and, when asked, a period
    /// of `months`), else the first. Its index.
    pub fn column_for(&self, year: Option<i32>, months: Option<u32>) -> Option<usize> {
        if self.values.is_empty() {
            return None;
        }
        let score = |i: usize| -> i32 {
            let Some(col) = self.columns.get(i) else {
                return 0;
            };
            let mut s = 0;
            if year.is_some() && col.year == year {
                s += 4;
            }
            // "% CHANGE" heads a comparison, never a period's figure.
            if col.heading.to_lowercase().contains("change") {
                s -= 5;
            }
            match (months, col.months) {
                (Some(m), Some(c)) if m == c => s += 2,
                (Some(_), Some(_)) => s -= 2,
                // A year-to-date column is not the quarter nor the year asked.
                (None, Some(c)) if c != 12 && c != 3 => s -= 1,
                _ => {}
            }
            s
        };
        (0..self.values.len())
            .filter(|&i| self.values[i].is_some())
            .max_by(|&a, &b| score(a).cmp(&score(b)).then(b.cmp(&a)))
    }

    /// The column one period before `column`: the next column of the same length whose
    /// year is earlier, else simply the next column.
    pub fn prior_column(&self, column: usize) -> Option<usize> {
        let this = self.columns.get(column);
        let by_period = (column + 1..self.values.len()).find(|&i| {
            let (Some(a), Some(b)) = (this, self.columns.get(i)) else {
                return false;
            };
            a.months == b.months && matches!((a.year, b.year), (Some(x), Some(y)) if y < x)
        });
        by_period
            .or_else(|| (column + 1 < self.values.len()).then_some(column + 1))
            .filter(|&i| self.values[i].is_some())
    }
}

/// A row that reports one of the asked concepts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RowMatch {
    pub concept_id: String,
    /// Index of the matched phrasing in the concept's `line_items` (0 = most specific).
    pub phrasing: usize,
    /// The label is the phrasing itself, not the phrasing with a qualifier after it.
    pub exact: bool,
    /// A cell of the row is tagged (inline XBRL) with one of the concept's us-gaap names.
    #[serde(default)]
    pub tagged: bool,
    pub row: StatementRow,
}

impl RowMatch {
    /// How much to trust this row as the concept's figure: in its own statement, an exact
    /// label, a specific phrasing, with periods known.
    pub fn strength(
        &self,
        statement: Option<Statement>,
        year: Option<i32>,
        months: Option<u32>,
    ) -> f64 {
        let mut s = if self.exact { 2.0 } else { 1.0 };
        // The filer tagged the cell with the concept: the strongest evidence there is.
        if self.tagged {
            s += 2.5;
        }
        if statement.is_some() && self.row.statement == statement {
            s += 3.0;
        }
        if !self.row.columns.is_empty() {
            s += 0.5;
            // A table of other periods does not answer for the asked one, nor does a row
            // whose cell for that period is empty ("—": a discontinued operation's line).
            if year.is_some() {
                let has_the_years_figure = self
                    .row
                    .columns
                    .iter()
                    .zip(&self.row.values)
                    .any(|(c, v)| c.year == year && v.is_some());
                s += if has_the_years_figure { 1.0 } else { -1.0 };
            }
            if months.is_some() && self.row.columns.iter().any(|c| c.months.is_some()) {
                s += if self.row.columns.iter().any(|c| c.months == months) {
                    1.0
                } else {
                    -1.5
                };
            }
        }
        s - 0.1 * self.phrasing as f64
    }
}

static AMOUNT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"^\(?-?\$?\s*\(?-?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s*\)?\s*%?\s*\)?$").ok()
});
static YEAR: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b(19[5-9]\d|20[0-9]\d)\b").ok());
// A dollar sign before an amount; alone ("2023 | 2022 | $ | %") it heads a change column.
static MONEY_IN_HEADING: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\$\s*\(?\d|\d{1,3}(,\d{3})+|\(\d|\d%").ok());
static SCALE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:in|amounts in|dollars in|\$ in)\s+(millions|thousands|billions)\b").ok()
});

/// The value of a printed amount: `Some(Some(v))` for a number ("$ 87,582", "(28,107)",
/// "12.5%"), `Some(None)` for a dash, `None` when the cell is not an amount.
/// The most digits an amount's whole part can have: trillions of dollars printed in
/// dollars are thirteen.
pub const MAX_AMOUNT_DIGITS: usize = 15;

pub fn parse_amount(cell: &str) -> Option<Option<f64>> {
    let cell = cell.trim();
    if matches!(
        cell,
        "—" | "–" | "-" | "$—" | "$ —" | "$-" | "$ -" | "—%" | "n/a" | "NM"
    ) {
        return Some(None);
    }
    let caps = AMOUNT.as_ref()?.captures(cell)?;
    let whole = caps.get(1)?.as_str().replace(',', "");
    // A cell of sixteen digits or more is no amount a filing holds (a quadrillion in its
    // unit): a value planted to overflow. It keeps its column, with no value, as a dash
    // does: the cells after it stay under their own headings.
    if whole.trim_start_matches('0').len() > MAX_AMOUNT_DIGITS {
        return Some(None);
    }
    let mut number: f64 = whole.parse().ok()?;
    if let Some(frac) = caps.get(2) {
        number = format!("{whole}.{}", frac.as_str()).parse().ok()?;
    }
    let negative = cell.contains('(') || cell.starts_with('-') || cell.contains("$-");
    Some(Some(if negative { -number } else { number }))
}

/// A row label as compared with the table's phrasings: lowercase, straight quotes, no
/// footnote markers or trailing colon, single spaces.
static LEADERS: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\s*(?:\.\s?){3,}[\s.]*|\s*…+\s*").ok());

pub fn normalise_label(label: &str) -> String {
    static FOOTNOTE: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"\s*(\([a-z0-9]\)|\*+|®|™|†)").ok());
    // "cash, cash equivalents, and short-term investments": the serial comma is style.
    let lowered = label
        .to_lowercase()
        .replace(['’', '‘'], "'")
        .replace(", and ", " and ");
    let cleaned = match FOOTNOTE.as_ref() {
        Some(re) => re.replace_all(&lowered, "").into_owned(),
        None => lowered,
    };
    // "Total current liabilities......": a PDF's dot leaders lead the eye to the figures.
    let cleaned = match LEADERS.as_ref() {
        Some(re) => re.replace_all(&cleaned, "").into_owned(),
        None => cleaned,
    };
    cleaned
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches(':')
        .trim()
        .to_string()
}

/// Whether `label` reports `phrasing`: exactly (`Some(true)`), or followed only by a
/// qualifier such as "(loss)", ", net" or "attributable to …" (`Some(false)`).
fn label_matches(label: &str, phrasing: &str) -> Option<bool> {
    if label == phrasing {
        return Some(true);
    }
    let rest = label.strip_prefix(phrasing)?;
    // "Loans (included $38,789 and $42,079 at fair value)": a parenthetical that discloses
    // amounts inside the line describes the line, it does not narrow it. Counted as a
    // qualifier, the balance sheet's own row lost to a sub-table's plain "Loans" (JPMorgan's
    // consolidated VIEs), and the loan-to-deposit ratio came out 1.6%.
    if is_amount_disclosure(rest) || is_abbreviation(rest) {
        return Some(true);
    }
    // What the company earned or owns is its own, not its subsidiaries' minority holders'
    // ("… attributable to noncontrolling interests"; a consolidated figure "including
    // noncontrolling interests" still is the line).
    if lexicon()
        .tables
        .minority_phrases
        .iter()
        .any(|m| rest.contains(&format!(" {m}")))
    {
        return None;
    }
    let qualifier = [
        " (",
        ", net",
        " attributable to",
        " —",
        " - ",
        " – ",
        ", total",
        " excluding",
        " net of",
        ", net of",
        " including",
    ];
    qualifier
        .iter()
        .any(|q| rest.starts_with(q))
        .then_some(false)
}

/// Whether what follows a label's phrasing only names its abbreviation ("Return on common
/// equity (“ROE”)"): the line itself, as exact as its plain label.
fn is_abbreviation(rest: &str) -> bool {
    let Some(inner) = rest.strip_prefix(" (").and_then(|r| r.strip_suffix(')')) else {
        return false;
    };
    let Some(short) = inner
        .strip_prefix(['“', '"'])
        .and_then(|r| r.strip_suffix(['”', '"']))
    else {
        return false;
    };
    (1..=8).contains(&short.chars().count()) && short.chars().all(char::is_alphanumeric)
}

/// Whether what follows a label's phrasing is only a parenthetical stating amounts within
/// the line ("(included $51,568 … at fair value)", "(net of allowance of $1,203)").
fn is_amount_disclosure(rest: &str) -> bool {
    let Some(inner) = rest.strip_prefix(" (").and_then(|r| r.strip_suffix(')')) else {
        return false;
    };
    !inner.contains(['(', ')']) && inner.contains('$')
}

/// The value cells of a row: every cell after the label that is an amount. A cell holding
/// several amounts separated by spaces is split.
fn value_cells(cells: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for cell in cells {
        if cell.is_empty() {
            continue;
        }
        if parse_amount(cell).is_some() {
            out.push(cell.to_string());
            continue;
        }
        let parts: Vec<&str> = cell.split_whitespace().collect();
        if parts.len() > 1 && parts.iter().all(|p| parse_amount(p).is_some()) {
            out.extend(parts.iter().map(|p| p.to_string()));
        }
    }
    out
}

/// A heading row: cells, and no amounts; years and dates are fine, a bare count is not. A
/// row whose cells after its label are all nil amounts ("Commitments and contingencies | — |
/// —", between a balance sheet's headings and its equity) is a row of values, not headings.
pub(crate) fn is_heading_line(line: &str) -> bool {
    let values: Vec<&str> = line
        .split('|')
        .skip(1)
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    let all_nil = !values.is_empty() && values.iter().all(|c| parse_amount(c) == Some(None));
    line.contains('|')
        && !all_nil
        && MONEY_IN_HEADING
            .as_ref()
            .is_some_and(|re| !re.is_match(line))
        && line.split('|').all(|cell| {
            let cell = cell.trim();
            match parse_amount(cell) {
                Some(Some(v)) => {
                    cell.len() == 4 && (1950.0..2100.0).contains(&v) && v.fract() == 0.0
                }
                _ => true,
            }
        })
}

fn is_figure_row(line: &str) -> bool {
    line.contains('|') && line.chars().any(|c| c.is_ascii_digit()) && !is_heading_line(line)
}

/// The heading text of each of `n` value columns from the heading lines above a row.
fn columns_from(heading_lines: &[String], n: usize) -> Vec<PeriodColumn> {
    let mut texts: Vec<Vec<String>> = vec![Vec::new(); n];
    let years_head_every_column = n > 0
        && heading_lines.iter().any(|line| {
            let years = line
                .split('|')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .skip_while(|c| !is_a_year_heading(c))
                .take_while(|c| is_a_year_heading(c))
                .count();
            years >= n
        });
    for line in heading_lines {
        let cells: Vec<&str> = line
            .split('|')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        if cells.is_empty() || n == 0 {
            continue;
        }
        // A stub cell ("Year Ended June 30,") may stand before the column headings; a
        // year alone ("2024") heads a column.
        let may_be_stub = !is_a_year_heading(cells[0]);
        let (stub, heads): (Option<&str>, &[&str]) = if may_be_stub
            && (cells.len() == n + 1 || (cells.len() > 1 && !n.is_multiple_of(cells.len())))
        {
            (Some(cells[0]), &cells[1..])
        } else {
            (None, &cells[..])
        };
        // A change column whose cells are no amounts ("Gross margin | 51.4% | 47.9% | 350
        // bps") heads nothing the row's values fill: the periods are the heads before it.
        let mut heads = heads;
        while heads.len() > n && heads.last().is_some_and(|h| heads_a_change(h)) {
            heads = &heads[..heads.len() - 1];
        }
        // A short row ("Effective tax rate | (50)% | 8% | 11%") under a wide table fills its
        // year columns, which come first ("2023 | 2022 | 2021 | $ | %"); a heading line of
        // comparisons ("2023 vs. 2022 Change") above it heads no such row.
        if heads.len() > n && heads[..n].iter().all(|h| is_a_year_heading(h)) {
            heads = &heads[..n];
        }
        if years_head_every_column && heads.iter().any(|h| compares_periods(h)) {
            continue;
        }
        if heads.is_empty() || !n.is_multiple_of(heads.len()) {
            continue;
        }
        let span = n / heads.len();
        // A stub that does not name a period ("(In millions)", "share, ratio, headcount data
        // and where otherwise noted)") says nothing of the columns.
        let stub = stub.filter(|s| names_a_period(s)).map(without_scale_note);
        for (i, column) in texts.iter_mut().enumerate() {
            if let Some(s) = &stub {
                column.push(s.clone());
            }
            column.push(heads[i / span].to_string());
        }
    }
    if texts.iter().all(Vec::is_empty) {
        return Vec::new();
    }
    texts
        .into_iter()
        .map(|parts| {
            let heading = parts.join(" ");
            // "January 1, 2023" ends the 52/53-week fiscal year 2022.
            let year = YEAR
                .as_ref()
                .and_then(|re| {
                    re.find_iter(&heading)
                        .last()
                        .and_then(|m| m.as_str().parse::<i32>().ok())
                })
                .map(|y| y - crate::question::periods::ends_a_52_53_week_year(&heading));
            // Banks head their quarters "2Q23": a quarter of that year, whatever phrase spans
            // the table's other columns ("Six months ended June 30,").
            let quarter_year = year
                .is_none()
                .then(|| quarter_shorthand_year(&heading))
                .flatten();
            PeriodColumn {
                months: match quarter_year {
                    Some(_) => Some(3),
                    None => months_in(&heading),
                },
                heading,
                year: year.or(quarter_year),
            }
        })
        .collect()
}

/// A stub without the table's scale note: "as of December 31 (in millions, except share
/// data)" heads its columns "as of December 31", so no answer restates the note as a period.
fn without_scale_note(stub: &str) -> String {
    static NOTE: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)\s*\((?:[^()]*\b(?:in\s+(?:millions|thousands|billions)|except|amounts\s+in|per[-\s]share)\b[^()]*)\)")
            .ok()
    });
    match NOTE.as_ref() {
        Some(re) => re.replace_all(stub, "").trim().to_string(),
        None => stub.to_string(),
    }
}

/// Whether a heading compares two periods ("2023 vs. 2022 Change", "2024 compared to 2023").
fn compares_periods(heading: &str) -> bool {
    let lower = heading.to_lowercase();
    [" vs. ", " vs ", " versus ", " compared "]
        .iter()
        .any(|w| lower.contains(w))
}

/// Whether a heading cell is a year alone ("2024", "FY2023", "Fiscal 2022").
fn is_a_year_heading(cell: &str) -> bool {
    static YEAR_ALONE: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"(?i)^(?:fiscal\s+|fy\s*)?(?:19|20)\d{2}$").ok());
    YEAR_ALONE
        .as_ref()
        .is_some_and(|re| re.is_match(cell.trim()))
}

/// Whether a column heading names a comparison of the periods, not a period ("Basis Point
/// Change", "% Change", "Increase (Decrease)", "Variance").
fn heads_a_change(heading: &str) -> bool {
    let lower = heading.to_lowercase();
    [
        "change",
        "basis point",
        "bps",
        "increase",
        "decrease",
        "variance",
    ]
    .iter()
    .any(|w| lower.contains(w))
        && !names_a_period(heading)
}

/// "iPhone®: $39,669 (Three Months Ended July 1, 2023); $40,665 (…)": a quoted table row
/// laid out value by value under the headings of its column, read as the statement rows
/// are read. With no heading line that divides the values, the row as it stands.
pub(crate) fn row_under_headings(row: &str, headings: &str) -> String {
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    let Some((label, rest)) = cells.split_first() else {
        return row.trim().to_string();
    };
    let values = value_cells(rest);
    let heading_lines: Vec<String> = headings.lines().map(str::to_string).collect();
    let columns = columns_from(&heading_lines, values.len());
    if values.is_empty() || columns.len() != values.len() {
        return row.trim().to_string();
    }
    let described: Vec<String> = values
        .iter()
        .zip(&columns)
        .map(|(value, column)| match column.heading.is_empty() {
            true => value.clone(),
            false => format!("{value} ({})", column.heading),
        })
        .collect();
    format!("{label}: {}", described.join("; "))
}

/// Whether a heading cell names a period: a year, a month, a length ("Three Months") or
/// an end ("Year Ended").
fn names_a_period(cell: &str) -> bool {
    let lower = cell.to_lowercase();
    YEAR.as_ref().is_some_and(|re| re.is_match(cell))
        || months_in(cell).is_some()
        || lower.contains("ended")
        || lower.contains("ending")
        || crate::metadata::MONTHS.iter().any(|m| lower.contains(m))
}

/// The year of a quarter written short in a heading: "2Q23" and "Q2'23" are 2023.
pub(crate) fn quarter_shorthand_year(heading: &str) -> Option<i32> {
    static QUARTER: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"(?i)\b(?:[1-4]Q|Q[1-4])\s?'?(\d{2})\b").ok());
    let caps = QUARTER.as_ref()?.captures_iter(heading).last()?;
    let short: i32 = caps.get(1)?.as_str().parse().ok()?;
    Some(2000 + short)
}

/// The length of the period a heading names, in months.
pub fn months_in(text: &str) -> Option<u32> {
    let t = text.to_lowercase();
    if t.contains("three months") || t.contains("quarter") || t.contains("13 weeks") {
        Some(3)
    } else if t.contains("six months")
        || t.contains("26 weeks")
        || t.contains("first half")
        || t.contains("half year")
        || t.contains("half-year")
    {
        Some(6)
    } else if t.contains("nine months")
        || t.contains("39 weeks")
        || t.contains("first three quarters")
    {
        Some(9)
    } else if t.contains("twelve months") || t.contains("year") || t.contains("52 weeks") {
        Some(12)
    } else {
        None
    }
}

/// Every row of `text` that reports one of `concepts`, with its columns, headings, scale
/// and statement, in text order.
pub fn find_rows(text: &str, concepts: &[&Concept]) -> Vec<RowMatch> {
    find_tagged_rows(text, concepts, &[])
}

/// [`find_rows`], with the cells inline XBRL tags as the concepts' facts: `tagged` holds
/// (index in `concepts`, char offset of the tagged cell). A row holding such a cell reports
/// that concept whatever its label says, and is marked `tagged`.
pub fn find_tagged_rows(
    text: &str,
    concepts: &[&Concept],
    tagged: &[(usize, usize)],
) -> Vec<RowMatch> {
    let mut tagged = tagged.to_vec();
    tagged.sort_by_key(|&(_, at)| at);
    let phrasings: Vec<(usize, usize, String)> = concepts
        .iter()
        .enumerate()
        .flat_map(|(c, concept)| {
            // Rows holding only part of the concept ("Depreciation" beside "Amortization of
            // intangible assets") are found too, after every whole phrasing: a metric adds
            // up the parts a table prints (`metrics.rs`).
            concept
                .line_items
                .iter()
                .chain(
                    concept
                        .partial_line_items
                        .iter()
                        .filter(|p| !concept.line_items.contains(p)),
                )
                .enumerate()
                .map(move |(p, phrase)| (c, p, normalise_label(phrase)))
        })
        .collect();
    // Lines with their char offsets.
    let mut lines: Vec<(usize, usize, &str)> = Vec::new();
    let mut offset = 0;
    for line in text.split('\n') {
        let len = line.chars().count();
        lines.push((offset, offset + len, line));
        offset += len + 1;
    }
    // A row is only looked at closely when its label could be one of the phrasings (or it
    // is an unlabelled total): most table rows of a filing are not.
    let openings: Vec<String> = phrasings
        .iter()
        .map(|(_, _, p)| p.chars().take(4).collect())
        .collect();
    let could_match = |line: &str| {
        let first = line.split('|').next().unwrap_or("").trim_start();
        let head: String = first.chars().take(4).flat_map(char::to_lowercase).collect();
        head.is_empty()
            || head.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '$' | '(' | '-'))
            || openings
                .iter()
                .any(|o| head.starts_with(o.as_str()) || o.starts_with(&head))
    };
    let mut out = Vec::new();
    let mut next_tag = 0;
    for (k, &(start, end, line)) in lines.iter().enumerate() {
        while next_tag < tagged.len() && tagged[next_tag].1 < start {
            next_tag += 1;
        }
        let tags_here: Vec<usize> = tagged[next_tag..]
            .iter()
            .take_while(|&&(_, at)| at < end)
            .map(|&(c, _)| c)
            .collect();
        let worth_reading = line.contains('|') && (!tags_here.is_empty() || could_match(line));
        if !worth_reading || !is_figure_row(line) {
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some((first, rest)) = cells.split_first() else {
            continue;
        };
        // A total printed without its label (PDF statements often leave "Total" to the
        // indentation) totals the group whose label stands above its rows.
        let (label, printed) = if parse_amount(first).is_some() || first.is_empty() {
            let Some(group) = group_label_above(&lines, k) else {
                continue;
            };
            (format!("{group} (total)"), value_cells(&cells))
        } else {
            (qualified_label(&lines, k, first), value_cells(rest))
        };
        if printed.is_empty() {
            continue;
        }
        let label_norm = normalise_label(&label);
        // A row of percentages ("Gross margin | 51.4% | 47.9%") is no amount a statement's
        // line item (gross profit, in money) could be; a metric's, or a row the question
        // names in its own words ("net charge-off rate", "occupancy"), it may be.
        let all_percent = printed.iter().all(|p| p.contains('%'));
        // One match per concept, with its most specific phrasing.
        let mut matched: Vec<(usize, usize, bool)> = Vec::new();
        for (c, p, phrase) in &phrasings {
            if matched.iter().any(|(mc, _, _)| mc == c) {
                continue;
            }
            let money = !concepts[*c].is_metric()
                && concepts[*c].statement.is_some()
                && concepts[*c].unit.is_none_or(|u| u == MetricUnit::Amount);
            if all_percent && money {
                continue;
            }
            if let Some(exact) = label_matches(&label_norm, phrase) {
                matched.push((*c, *p, exact));
            }
        }
        for &c in &tags_here {
            if !matched.iter().any(|(mc, _, _)| *mc == c) {
                // Ranked below the concept's phrasings, but capped: a concept with many
                // phrasings does not sink a row its filer tagged.
                matched.push((c, concepts[c].line_items.len().min(8), false));
            }
        }
        if matched.is_empty() {
            continue;
        }
        let values: Vec<Option<f64>> = printed.iter().map(|v| parse_amount(v).flatten()).collect();
        let (headings, heading_lines, scale, statement) = context_above(&lines, k);
        let columns = columns_from(&heading_lines, values.len());
        let row = StatementRow {
            start,
            end,
            label,
            printed,
            values,
            columns,
            headings,
            scale,
            statement,
        };
        for (c, p, exact) in matched {
            out.push(RowMatch {
                concept_id: concepts[c].id.clone(),
                phrasing: p,
                exact,
                tagged: tags_here.contains(&c),
                row: row.clone(),
            });
        }
    }
    out
}

/// The value columns of the first table in `text` (a statement's own text): their
/// headings and periods, left to right. Empty when no table with headings is found.
pub fn period_columns(text: &str) -> Vec<PeriodColumn> {
    let mut lines: Vec<(usize, usize, &str)> = Vec::new();
    let mut offset = 0;
    for line in text.split('\n').take(150) {
        let len = line.chars().count();
        lines.push((offset, offset + len, line));
        offset += len + 1;
    }
    for (k, &(_, _, line)) in lines.iter().enumerate() {
        if !is_figure_row(line) {
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let values = value_cells(cells.get(1..).unwrap_or_default());
        if values.len() < 2 {
            continue;
        }
        let (_, heading_lines, _, _) = context_above(&lines, k);
        let columns = columns_from(&heading_lines, values.len());
        if !columns.is_empty() {
            return columns;
        }
    }
    Vec::new()
}

/// The label of row `k`, whose first cell is `first`: a variant label ("Diluted") is read
/// with the line it qualifies ("Diluted earnings per share"), so it reports what that line
/// names; any other label as printed.
fn qualified_label(lines: &[(usize, usize, &str)], k: usize, first: &str) -> String {
    let variant = normalise_label(first);
    if !lexicon().tables.variant_labels.contains(variant.as_str()) {
        return first.to_string();
    }
    // Back past the other variants ("Basic") to the line they share.
    for &(_, _, line) in lines[k.saturating_sub(4)..k].iter().rev() {
        let head = line.split('|').next().unwrap_or("").trim();
        if head.is_empty()
            || lexicon()
                .tables
                .variant_labels
                .contains(normalise_label(head).as_str())
        {
            continue;
        }
        let stated = head.trim_end_matches(':').trim();
        let is_caption = !is_figure_row(line)
            && stated.chars().count() <= 90
            && !stated.ends_with('.')
            && stated.chars().any(char::is_alphabetic);
        if is_caption {
            return format!("{} {}", first.trim(), lowercase_first(stated));
        }
        break;
    }
    first.to_string()
}

/// `text` with its first letter lowercased unless the first word is an acronym.
fn lowercase_first(text: &str) -> String {
    let first_word = text.split_whitespace().next().unwrap_or("");
    if first_word.chars().filter(|c| c.is_uppercase()).count() > 1 {
        return text.to_string();
    }
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The label of the group of rows that row `k` closes: the short line without cells
/// ("Revenues", "Current assets:") above the rows just before it.
fn group_label_above<'a>(lines: &[(usize, usize, &'a str)], k: usize) -> Option<&'a str> {
    let mut i = k;
    let mut rows_seen = 0;
    while i > 0 && k - i < 60 {
        i -= 1;
        let line = lines[i].2.trim();
        if line.is_empty() {
            continue;
        }
        if is_figure_row(line) {
            let first = line.split('|').next().unwrap_or("").trim();
            if parse_amount(first).is_some() {
                // The previous total: this one has no group of its own.
                return None;
            }
            rows_seen += 1;
            continue;
        }
        let label = line.trim_end_matches(':').trim();
        let short = label.chars().count() <= 40 && !label.ends_with('.');
        return (rows_seen >= 2 && short && label.chars().any(char::is_alphabetic))
            .then_some(label);
    }
    None
}

type Context = (
    Option<(usize, usize)>,
    Vec<String>,
    Option<String>,
    Option<Statement>,
);

static PERIOD_PHRASE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:(?:three|six|nine|twelve|3|6|9|12)\s+months|(?:fiscal\s+)?years?|quarters?|(?:13|26|39|52|53)\s+weeks)\s+ended\b").ok()
});

/// A line naming the periods of the columns without cells ("Three Months Ended Six Months
/// Ended June 30, June 30,"): cut into one cell per period phrase.
fn periods_as_cells(line: &str) -> Option<String> {
    let re = PERIOD_PHRASE.as_ref()?;
    if line.contains('|') || !re.is_match(line) {
        return None;
    }
    // The dates after the phrases ("June 30, June 30,") are repeated per phrase and cannot
    // be told apart: each cell keeps its phrase only; the years come from the cells below.
    let cells: Vec<String> = re.find_iter(line).map(|m| m.as_str().to_string()).collect();
    Some(cells.join(" | "))
}

/// What stands above row `k`: the nearest block of heading rows (their char span and
/// lines), the scale named in the caption, and the statement title, looking back past the
/// table's other rows.
fn context_above(lines: &[(usize, usize, &str)], k: usize) -> Context {
    let mut headings: Option<(usize, usize)> = None;
    let mut heading_lines: Vec<String> = Vec::new();
    let mut scale = None;
    let mut statement = None;
    let mut headings_done = false;
    let mut prose = 0;
    let mut i = k;
    while i > 0 && k - i < 250 {
        i -= 1;
        let (s, e, line) = lines[i];
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if scale.is_none() {
            scale = SCALE
                .as_ref()
                .and_then(|re| re.captures(trimmed))
                .map(|c| c[1].to_lowercase());
        }
        if let Some(found) = statement_of_line(trimmed) {
            statement = Some(found);
            break;
        }
        if is_heading_line(line) && !headings_done {
            // The first block of heading rows above the row names its columns.
            if heading_lines.len() < 4 {
                heading_lines.insert(0, line.to_string());
                headings = Some(match headings {
                    Some((_, he)) => (s, he),
                    None => (s, e),
                });
            }
            continue;
        }
        if !heading_lines.is_empty() && !headings_done {
            headings_done = true;
            if let Some(cells) = periods_as_cells(trimmed) {
                heading_lines.insert(0, cells);
                headings = headings.map(|(_, he)| (s, he));
                continue;
            }
        }
        if is_figure_row(line) {
            if headings_done {
                // Another table above this one's headings.
                break;
            }
            continue;
        }
        // Row-group labels ("Operations", "Current assets:") are short; prose is not.
        let is_label = trimmed.chars().count() <= 60 && !trimmed.ends_with('.');
        if is_label && !headings_done {
            continue;
        }
        prose += 1;
        if prose > 3 {
            break;
        }
    }
    (headings, heading_lines, scale, statement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finance::concept_table;

    const CASH_FLOWS: &str = "CASH FLOWS STATEMENTS\n(In millions)\nYear Ended June 30, | 2023 | 2022 | 2021\nOperations\nNet income | $ 72,361 | $ 72,738 | $ 61,271\nNet cash from operations | 87,582 | 89,035 | 76,740\nInvesting\nAdditions to property and equipment | (28,107) | (23,886) | (20,622)\n";

    #[test]
    fn a_cell_of_more_digits_than_any_amount_keeps_its_column_with_no_value() {
        assert_eq!(parse_amount(&"9".repeat(400)), Some(None));
        assert_eq!(
            parse_amount("999,999,999,999,999"),
            Some(Some(999_999_999_999_999.0))
        );
        assert_eq!(
            crate::finance::metrics::format_amount(1e20),
            "100,000,000,000,000,000,000"
        );
    }

    #[test]
    fn a_row_of_nil_amounts_is_not_a_heading() {
        assert!(is_heading_line("As of December 31, | 2023 | 2022"));
        assert!(!is_heading_line(
            "Commitments and contingent liabilities | — | —"
        ));
        let table = concept_table().unwrap();
        let concepts = table.line_items_for("shareholders' equity");
        let sheet = "CONSOLIDATED BALANCE SHEETS\n(Dollars in Millions)\n2023 | 2022\nTotal assets | $16,393 | $15,731\nCommitments and contingent liabilities | — | —\nTotal shareholders’ equity | 609 | 401\n";
        let rows = find_rows(sheet, &concepts);
        let equity = rows.iter().find(|r| r.concept_id == "equity").unwrap();
        assert_eq!(equity.row.columns[1].year, Some(2022), "{rows:?}");
        assert_eq!(equity.row.column_for(Some(2022), None), Some(1));
    }

    #[test]
    fn a_change_column_of_no_amounts_heads_no_period() {
        let table = concept_table().unwrap();
        let concepts = table.line_items_for("gross margin");
        let text = "RESULTS OF OPERATIONS\nComparisons as a percentage of net sales; fiscal years ended June 30 | 2024 | 2023 | Basis Point Change\nGross margin | 51.4% | 47.9% | 350 bps\n";
        // With a stub cell before the years, and without one.
        let no_stub = "RESULTS OF OPERATIONS\n2024 | 2023 | % Change\nGross margin | 51.4% | 47.9% | 350 bps\n";
        for table_text in [text, no_stub] {
            let rows = find_rows(table_text, &concepts);
            let margin = rows.first().expect("the gross margin row");
            assert_eq!(margin.row.columns.len(), 2, "{rows:?}");
            assert_eq!(margin.row.columns[0].year, Some(2024), "{rows:?}");
            assert_eq!(margin.row.columns[1].year, Some(2023), "{rows:?}");
            assert_eq!(margin.row.column_for(Some(2023), None), Some(1));
        }
        // The percentages are no gross profit, an amount.
        let gross_profit = table
            .concepts
            .iter()
            .find(|c| c.id == "gross_profit")
            .unwrap();
        assert!(find_rows(text, &[gross_profit]).is_empty());
        let in_money = "Gross margin | $42,100 | $38,900\n";
        assert_eq!(find_rows(in_money, &[gross_profit]).len(), 1);
    }

    #[test]
    fn a_utilitys_and_a_drugmakers_top_line_is_revenue() {
        let table = concept_table().unwrap();
        let revenue = table.concepts.iter().find(|c| c.id == "revenue").unwrap();
        // American Water Works' 2020 10-K; Johnson & Johnson's Q2 2023 release.
        for (text, value) in [
            ("CONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\nFor the Years Ended December 31, | 2020 | 2019 | 2018\nOperating revenues | $ 3,777 | $ 3,610 | $ 3,440\n", 3_777.0),
            ("CONDENSED CONSOLIDATED STATEMENT OF EARNINGS\n(In millions)\nSecond Quarter | 2023 | 2022\nSales to customers | $ 25,530 | $ 24,020\n", 25_530.0),
        ] {
            let rows = find_rows(text, &[revenue]);
            let top = rows.first().unwrap_or_else(|| panic!("no revenue row in {text}"));
            assert_eq!(top.row.values.first().copied().flatten(), Some(value), "{rows:?}");
        }
    }

    #[test]
    fn a_short_row_under_a_wide_table_fills_its_year_columns() {
        // Tesla's FY2023 10-K, "(Benefit from) Provision for Income Taxes": the rate row
        // fills the year columns, not the comparisons heading the first line.
        let text = "Year Ended December 31, | 2023 vs. 2022 Change | 2022 vs. 2021 Change\n(Dollars in millions) | 2023 | 2022 | 2021 | $ | % | $ | %\n(Benefit from) provision for income taxes | $(5,001) | $1,132 | $699 | $(6,133) | Not meaningful | $433 | 62%\nEffective tax rate | (50)% | 8% | 11%\n";
        let table = concept_table().unwrap();
        let rate = table.get("effective_tax_rate").unwrap();
        let rows = find_rows(text, &[rate]);
        let row = &rows.first().expect("the rate row").row;
        let years: Vec<Option<i32>> = row.columns.iter().map(|c| c.year).collect();
        assert_eq!(years, [Some(2023), Some(2022), Some(2021)], "{row:?}");
        assert!(
            row.columns.iter().all(|c| !c.heading.contains("vs.")),
            "{row:?}"
        );
    }

    #[test]
    fn amounts_parse_as_printed() {
        assert_eq!(parse_amount("$ 87,582"), Some(Some(87582.0)));
        assert_eq!(parse_amount("(28,107)"), Some(Some(-28107.0)));
        assert_eq!(parse_amount("$(1,234.5)"), Some(Some(-1234.5)));
        assert_eq!(parse_amount("43.5%"), Some(Some(43.5)));
        assert_eq!(parse_amount("—"), Some(None));
        assert_eq!(parse_amount("Note 5"), None);
    }

    #[test]
    fn rows_are_found_with_their_periods_scale_and_statement() {
        let table = concept_table().unwrap();
        let concepts = table.line_items_for("free cash flow");
        let rows = find_rows(CASH_FLOWS, &concepts);
        assert_eq!(rows.len(), 2);
        let capex = rows.iter().find(|r| r.concept_id == "capex").unwrap();
        assert_eq!(capex.row.values[0], Some(-28107.0));
        assert_eq!(capex.row.columns[0].year, Some(2023));
        assert_eq!(capex.row.columns[2].heading, "Year Ended June 30, 2021");
        assert_eq!(capex.row.columns[0].months, Some(12));
        assert_eq!(capex.row.scale.as_deref(), Some("millions"));
        assert_eq!(capex.row.statement, Some(Statement::CashFlows));
        let line: String = CASH_FLOWS
            .chars()
            .skip(capex.row.start)
            .take(capex.row.end - capex.row.start)
            .collect();
        assert!(line.starts_with("Additions to property"));
        assert_eq!(capex.row.column_for(Some(2022), None), Some(1));
        assert_eq!(capex.row.prior_column(0), Some(1));
    }

    #[test]
    fn dot_leaders_are_no_part_of_a_label() {
        assert_eq!(
            normalise_label("Total current liabilities...................................."),
            "total current liabilities"
        );
        let table = concept_table().unwrap();
        let concepts = table.line_items_for("current liabilities");
        let text = "CONSOLIDATED BALANCE SHEETS\n(In thousands)\nNovember 27, 2015 | November 28, 2014\nTotal current liabilities. . . . . . . . . . . . . | 2,213,556 | 2,494,435\n";
        let rows = find_rows(text, &concepts);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert!(rows[0].exact);
    }

    #[test]
    fn a_tagged_cell_anchors_its_concept_whatever_the_row_is_called() {
        let table = concept_table().unwrap();
        let concepts = table.line_items_for("capex");
        let text = "CASH FLOWS STATEMENTS\n(In millions)\nYear Ended June 30, | 2023 | 2022\nInvestments in our factories and data centers | (28,107) | (23,886)\nAdditions to property and equipment | (1) | (2)\n";
        assert_eq!(find_rows(text, &concepts).len(), 1);
        // The filer tagged the first row's cell PaymentsToAcquirePropertyPlantAndEquipment.
        let at = text.find("(28,107)").unwrap();
        let at_char = text[..at].chars().count();
        let rows = find_tagged_rows(text, &concepts, &[(0, at_char)]);
        assert_eq!(rows.len(), 2);
        let tagged = rows.iter().find(|r| r.tagged).unwrap();
        assert!(tagged.row.label.starts_with("Investments in our factories"));
        let best = rows
            .iter()
            .max_by(|a, b| {
                a.strength(Some(Statement::CashFlows), None, None)
                    .total_cmp(&b.strength(Some(Statement::CashFlows), None, None))
            })
            .unwrap();
        assert!(best.tagged);
    }

    #[test]
    fn a_minority_holders_share_is_not_the_companys_figure() {
        let text = "CONSOLIDATED STATEMENTS OF OPERATIONS\n(In thousands)\nThree Months Ended June 30, | 2023 | 2022\nNet income | 243,544 | 1,622,625\nNet income attributable to noncontrolling interests | 42,748 | (161,312)\nNet income attributable to MGM Resorts International | $200,796 | $1,783,937\nNet income including noncontrolling interests | 243,544 | 1,622,625\n";
        let table = concept_table().unwrap();
        let rows = find_rows(text, &table.line_items_for("net income"));
        let labels: Vec<&str> = rows.iter().map(|r| r.row.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "Net income",
                "Net income attributable to MGM Resorts International",
                "Net income including noncontrolling interests"
            ]
        );
    }

    #[test]
    fn a_diluted_row_reports_the_line_it_qualifies() {
        let table = concept_table().unwrap();
        let concepts = table.line_items_for("What was the EPS?");
        // MGM's PDF statement: a caption line, then its variants.
        let text = "CONSOLIDATED STATEMENTS OF OPERATIONS\nThree Months Ended June 30, | 2023 | 2022\nNet income | 243,544 | 1,622,625\nEarnings per share\nBasic | $ 0.56 | $ 4.24\nDiluted | $ 0.55 | $ 4.20\nWeighted average common shares outstanding\nBasic | 361,050 | 417,393\nDiluted | 365,339 | 421,303\n";
        let rows = find_rows(text, &concepts);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].row.label, "Diluted earnings per share");
        assert_eq!(rows[0].row.values[0], Some(0.55));
        // Apple's HTML statement: the caption is a row of its own with an empty cell.
        let text = "Net income | $ | 93,736 | $ | 96,995\nEarnings per common share: | \nBasic | $ | 6.11 | $ | 6.16\nDiluted | $ | 6.08 | $ | 6.13\n";
        let rows = find_rows(text, &concepts);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].row.label, "Diluted earnings per common share");
        // A variant under a line of figures qualifies nothing it can be read with.
        let text = "Net income | 72,361 | 72,738\nDiluted | 9.68 | 9.65\n";
        assert!(find_rows(text, &concepts).is_empty());
    }

    #[test]
    fn a_banks_quarter_columns_and_abbreviated_labels_are_read() {
        let table = concept_table().unwrap();
        let text = "Consolidated financial highlights\nAs of or for the period ended, (in millions, except per Six months ended June 30,\n(in millions, except ratio data) | 2Q23 | 1Q23 | 4Q22 | 2023 | 2022\nReturn on common equity (“ROE”) | 20% | 18% | 16% | 19% | 13%\n";
        let rows = find_rows(text, &table.line_items_for("What was the ROE in Q2 2023?"));
        let roe = rows
            .iter()
            .find(|r| r.concept_id == "return_on_equity")
            .unwrap();
        assert!(roe.exact, "an abbreviation is the line itself");
        assert_eq!(roe.row.columns[0].year, Some(2023));
        // The stub names the unit, not a period: it is no part of a column's heading.
        assert!(roe.row.columns[0].heading.ends_with("2Q23"));
        assert!(!roe.row.columns[0].heading.contains("ratio data"));
        assert_eq!(roe.row.columns[0].months, Some(3));
        assert_eq!(roe.row.columns[2].year, Some(2022));
        assert_eq!(roe.row.column_for(Some(2023), Some(3)), Some(0));
        assert_eq!(roe.row.columns[3].months, Some(6));
        assert_eq!(roe.row.column_for(Some(2023), Some(6)), Some(3));
        // "(loss)" still narrows a line.
        assert_eq!(
            label_matches("net income (loss)", "net income"),
            Some(false)
        );
    }

    #[test]
    fn quarter_columns_are_told_from_year_to_date() {
        let text = "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)\n | Three Months Ended | Six Months Ended\n | June 30, 2023 | June 30, 2022 | June 30, 2023 | June 30, 2022\nNet revenues | 3,942,207 | 3,264,888 | 7,813,480 | 6,150,151\n";
        let table = concept_table().unwrap();
        let rows = find_rows(text, &table.line_items_for("revenue growth"));
        let row = &rows[0].row;
        assert_eq!(row.columns[1].heading, "Three Months Ended June 30, 2022");
        assert_eq!(row.column_for(Some(2023), Some(3)), Some(0));
        assert_eq!(row.column_for(Some(2023), Some(6)), Some(2));
        assert_eq!(row.prior_column(0), Some(1));
    }
}
