//! A passage's table rows as the offline answer reads them: which lines are rows, which
//! only name periods, and what stands above a row (its caption, heading rows and group
//! labels). The figures themselves are read by `finance/rows.rs`.

use crate::finance::rows::is_heading_line;
use crate::search::words;

/// What stands above a table row: the words of its caption, headings and row labels, and
/// where its column headings are.
pub(super) struct TableContext {
    pub context: String,
    pub headings: Option<(usize, usize)>,
}

/// Whether a line is a row of a table with figures or years ("iPhone | $39,669").
pub(super) fn is_table_row(line: &str) -> bool {
    line.contains(" | ") && line.chars().any(|c| c.is_ascii_digit())
}

/// Whether a row of cells only names periods ("2023 | 2022", "Three Months Ended | June
/// 30, 2023", "FISCAL 2023 | % CHANGE"): column headings, not a signature table's names
/// and dates ("/s/ Luca Maestri | Chief Financial Officer | November 1, 2024").
pub(super) fn names_only_periods(line: &str) -> bool {
    let lexicon = crate::lexicon::lexicon();
    is_table_row(line)
        && is_heading_line(line)
        && words(line).iter().all(|w| {
            w.chars().all(|c| c.is_ascii_digit())
                || lexicon.tables.period_heading_words.contains(w)
                || crate::metadata::MONTHS.contains(&w.as_str())
                || crate::search::is_period_shorthand(w)
        })
}

/// The caption, heading rows and row-group labels above line `k` of `spans` (one
/// passage's sentences), looking back past the table's other rows.
pub(super) fn table_context(spans: &[(usize, usize, &str)], k: usize) -> Option<TableContext> {
    let mut context = Vec::new();
    let mut years: Vec<String> = Vec::new();
    let mut headings: Option<(usize, usize)> = None;
    let mut i = k;
    let mut looked = 0;
    while i > 0 && looked < 40 {
        i -= 1;
        looked += 1;
        let (s, e, line) = spans[i];
        if is_heading_line(line) {
            context.push(line);
            // "2Q23" is the question's "Q2 2023": its year counts as the question's.
            if let Some(year) = crate::finance::rows::quarter_shorthand_year(line) {
                years.push(year.to_string());
            }
            headings = Some(match headings {
                Some((_, he)) => (s, he),
                None => (s, e),
            });
        } else if line.trim_end().ends_with(':') && !line.contains('|') {
            context.push(line);
        } else if is_table_row(line) {
            // Another row of the same table: its headings are further up.
            if headings.is_some() {
                break;
            }
        } else {
            // The caption: the prose just above the table.
            context.push(line);
            break;
        }
    }
    if context.is_empty() {
        return None;
    }
    let mut context = context.join(" ");
    for year in years {
        context.push(' ');
        context.push_str(&year);
    }
    Some(TableContext { context, headings })
}
