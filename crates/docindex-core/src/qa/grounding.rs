//! A figure a model states, grounded to the statement cell it was given: "$9,447 million",
//! "$9.4 billion" or "9,447" equal (after scale and the precision written) the cell "9,447"
//! of a table in millions, whatever the model's quote of it looks like. A small model often
//! states the right figure and misquotes its row; the figure is then cited to the cell, not
//! thrown away.

use super::compare::StatedFigure;
use crate::charmap::CharMap;
use crate::finance::metrics::MetricResult;
use crate::finance::MetricUnit;
use crate::model::Span;
use regex::Regex;
use std::sync::LazyLock;

/// An amount written in a text: where it ends (a byte offset), its value in units, how far
/// off it may be for the digits written, and whether it is a percentage.
#[derive(Debug, Clone, PartialEq)]
struct Written {
    start: usize,
    end: usize,
    /// The number as written, with its currency sign ("$9.4"), without its scale word.
    number: String,
    value: f64,
    tolerance: f64,
    percent: bool,
    /// A scale word was written ("million"): the value is in units, else as printed.
    scaled: bool,
}

fn multiplier(scale: &str) -> f64 {
    match scale.to_lowercase().trim_end_matches('s') {
        "thousand" | "k" => 1e3,
        "million" | "mn" | "m" | "mm" => 1e6,
        "billion" | "bn" | "b" => 1e9,
        "trillion" | "tn" => 1e12,
        _ => 1.0,
    }
}

/// Every amount of `text`, years aside ("fiscal 2024").
fn amounts_in(text: &str) -> Vec<Written> {
    static AMOUNT: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r"(?i)(\$\s?)?\b(\d[\d,]*(?:\.\d+)?)(?:\s?(%|percent\b)|\s?(thousands?|millions?|billions?|trillions?|bn|mn|tn|k|m|b)\b)?",
        )
        .ok()
    });
    let Some(re) = AMOUNT.as_ref() else {
        return Vec::new();
    };
    re.captures_iter(text)
        .filter_map(|c| {
            let digits = c.get(2)?.as_str().trim_end_matches([',', '.']);
            let dollar = c.get(1).is_some();
            let percent = c.get(3).is_some();
            let scale = c.get(4).map_or(1.0, |s| multiplier(s.as_str()));
            let is_year = digits.len() == 4
                && (digits.starts_with("19") || digits.starts_with("20"))
                && !dollar
                && !percent
                && scale == 1.0;
            if is_year {
                return None;
            }
            let number: f64 = digits.replace(',', "").parse().ok()?;
            let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len());
            let step = 10f64.powi(-(decimals as i32));
            let whole = c.get(0)?;
            // As an unsupported-number check reports it: "$9.4", "24.0%".
            let mut as_written = text[whole.start()..c.get(2)?.end()].to_string();
            if c.get(3).is_some_and(|p| p.as_str() == "%") {
                as_written.push('%');
            }
            Some(Written {
                start: whole.start(),
                end: whole.end(),
                number: as_written,
                value: number * scale,
                tolerance: step / 2.0 * scale,
                percent,
                scaled: c.get(4).is_some(),
            })
        })
        .collect()
}

/// Where `text` states `figure` (the byte offset just after it), when it does.
pub fn where_stated(text: &str, figure: &StatedFigure) -> Option<usize> {
    GivenValue::of_figure(figure).where_stated(text)
}

/// Where `text` states `value` of `unit` — an amount as printed in a table in `scale`, a
/// share in percent, a ratio — after scale and the precision written.
pub fn where_value_stated(
    text: &str,
    value: f64,
    unit: MetricUnit,
    scale: Option<&str>,
) -> Option<usize> {
    GivenValue { value, unit, scale }.where_stated(text)
}

/// A value the statements give, as an answer could state it: the value (a share in
/// percent), its unit and, for an amount, the scale its table prints it in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GivenValue<'a> {
    pub value: f64,
    pub unit: MetricUnit,
    pub scale: Option<&'a str>,
}

impl<'a> GivenValue<'a> {
    /// A figure the lead stated, as its table prints it.
    pub fn of_figure(figure: &'a StatedFigure) -> Self {
        GivenValue {
            value: figure.value,
            unit: figure.unit,
            scale: figure.scale.as_deref(),
        }
    }

    /// A metric's worked-out result (a share in percent), in its operands' scale; `None`
    /// when it was not worked out.
    pub fn of_metric(metric: &'a MetricResult) -> Option<Self> {
        let value = metric.value?;
        Some(GivenValue {
            value: match metric.unit {
                MetricUnit::Percent => value * 100.0,
                _ => value,
            },
            unit: metric.unit,
            scale: metric.operands.first().and_then(|o| o.row.scale.as_deref()),
        })
    }

    /// Where `text` first states this value (the byte offset just after it), when it does.
    fn where_stated(&self, text: &str) -> Option<usize> {
        amounts_in(text)
            .into_iter()
            .find(|w| self.stated_by(w).is_some())
            .map(|w| w.end)
    }

    /// The value and the half-step of the digits `w` writes, both in units: a number written
    /// without a scale word is read as printed in the table's scale.
    fn as_written_in_units(&self, w: &Written) -> (f64, f64) {
        let factor = match (self.unit, w.scaled) {
            (MetricUnit::Amount, false) => self.scale.map_or(1.0, multiplier),
            _ => 1.0,
        };
        (w.value * factor, w.tolerance * factor)
    }

    fn in_units(&self) -> f64 {
        match self.unit {
            MetricUnit::Amount => self.value.abs() * self.scale.map_or(1.0, multiplier),
            _ => self.value.abs(),
        }
    }

    /// Whether `w` states this value (after scale and the precision written), and how
    /// precisely, in units.
    fn stated_by(&self, w: &Written) -> Option<f64> {
        if w.percent != (self.unit == MetricUnit::Percent) {
            return None;
        }
        let value = self.in_units();
        let (written, tolerance) = self.as_written_in_units(w);
        let states = value != 0.0
            && tolerance <= value * 0.1
            && (written - value).abs() <= tolerance.max(value * 1e-9);
        states.then_some(tolerance)
    }
}

/// The first amount an answer leads with: a number with a currency sign, a scale word or a
/// percent sign, or of three digits or more, or with a decimal point; years, days of dates,
/// list numbers and citation markers ("[2]") aside.
fn leading_amount(text: &str) -> Option<Written> {
    amounts_in(text).into_iter().find(|w| {
        let marker = text[..w.start].ends_with('[');
        let digits = w.number.chars().filter(char::is_ascii_digit).count();
        // "27 days", "3x": a count of a unit, not a day of a month.
        let rest = text[w.end..].trim_start().to_lowercase();
        let counted = ["day", "time", "x"].iter().any(|u| {
            rest.strip_prefix(u)
                .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric() && c != 's'))
        });
        let short_and_bare =
            digits < 3 && !w.number.contains(['$', '.']) && !w.percent && !w.scaled && !counted;
        !marker && !short_and_bare
    })
}

/// Whether the first amount `text` states is one of `given`, written at least as precisely
/// as `reference` (the statements' own sentence, when the precision counts) writes that
/// value: "$12.0 billion" leads with the cell 11,975 in millions, but less precisely than
/// "$11.97 billion" does.
pub fn leads_with(text: &str, given: &[GivenValue<'_>], reference: Option<&str>) -> bool {
    let Some(first) = leading_amount(text) else {
        return false;
    };
    let reference = reference.and_then(leading_amount);
    given.iter().any(|value| {
        let Some(precision) = value.stated_by(&first) else {
            return false;
        };
        match reference.as_ref().and_then(|r| value.stated_by(r)) {
            Some(finest) => precision <= finest * (1.0 + 1e-9),
            None => true,
        }
    })
}

/// Where `text` states the result of `metric` (a share is worked out as a fraction and
/// written in percent).
pub fn where_metric_stated(text: &str, metric: &MetricResult) -> Option<usize> {
    GivenValue::of_metric(metric)?.where_stated(text)
}

/// The numbers of `text`, as written ("$9.4"), that state one of `figures` (after scale and
/// the precision written): an answer's "$9.4 billion" is the cell "9,447" in millions, so it
/// is supported by that cell though the digits differ.
pub fn numbers_stating(
    text: &str,
    figures: &[StatedFigure],
    metrics: &[MetricResult],
) -> Vec<String> {
    let finders: Vec<Finder<'_>> = figures
        .iter()
        .map(|f| Box::new(move |t: &str| where_stated(t, f)) as Finder<'_>)
        .chain(
            metrics
                .iter()
                .map(|m| Box::new(move |t: &str| where_metric_stated(t, m)) as Finder<'_>),
        )
        .collect();
    let mut out: Vec<String> = Vec::new();
    for find in &finders {
        let mut from = 0;
        while let Some(end) = text.get(from..).and_then(find) {
            if let Some(w) = amounts_in(&text[from..]).into_iter().find(|w| w.end == end) {
                if !out.contains(&w.number) {
                    out.push(w.number);
                }
            }
            from += end;
        }
    }
    out
}

/// Where a text states one figure (the byte offset just after it).
type Finder<'a> = Box<dyn Fn(&str) -> Option<usize> + 'a>;

/// Whether `number`, as an unsupported-number check reports it ("$9.4", "24.0%"), is one of
/// `stating` (the currency sign and the percent sign must agree too).
pub fn is_stated(number: &str, stating: &[String]) -> bool {
    stating.iter().any(|s| s == number)
}

/// The numbers an answer states that a source could hold verbatim ("221,000", "$4.9",
/// "12.4%"), each with the byte offset just after it: at least three digits, or a decimal
/// point; years, citation markers and list numbers aside.
pub fn stated_numbers(text: &str) -> Vec<(usize, String)> {
    static NUMBER: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"\b\d[\d,]*(?:\.\d+)?\b").ok());
    let Some(re) = NUMBER.as_ref() else {
        return Vec::new();
    };
    re.find_iter(text)
        .filter(|m| {
            let n = m.as_str();
            let digits = n.chars().filter(char::is_ascii_digit).count();
            let is_year = n.len() == 4 && (n.starts_with("19") || n.starts_with("20"));
            let marker = text[..m.start()].ends_with('[');
            (digits >= 3 || n.contains('.')) && !is_year && !marker
        })
        .map(|m| (m.end(), m.as_str().to_string()))
        .collect()
}

/// The sentence (or table row) of `text` that holds `number` as a whole number (no digit or
/// separator run on either side), when one does.
pub fn sentence_holding<'t>(text: &'t str, number: &str) -> Option<&'t str> {
    let mut from = 0;
    while let Some(at) = text.get(from..)?.find(number).map(|i| i + from) {
        let end = at + number.len();
        let before = text[..at].chars().next_back();
        let after = text[end..].chars().next();
        let joined = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
        let continues = |c: Option<char>, next: Option<char>| {
            matches!(c, Some(',') | Some('.')) && joined(next)
        };
        let after_next = text[end..].chars().nth(1);
        if !joined(before) && !joined(after) && !continues(after, after_next) {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
            let line = &text[line_start..line_end];
            if line.contains('|') {
                return Some(line.trim());
            }
            let start = text[line_start..at]
                .rfind(". ")
                .map_or(line_start, |i| line_start + i + 2);
            let stop = text[end..line_end]
                .find(". ")
                .map_or(line_end, |i| end + i + 1);
            return Some(text[start..stop].trim());
        }
        from = end;
    }
    None
}

/// The sentence of `text[within]` a quote that is close but not verbatim stands for: at
/// least three quarters of the quote's words are in it, and every number the quote holds.
/// A small model rewrites a quote's punctuation, drops a word or mends a typo; the sentence
/// it meant is cited rather than the quote dropped.
pub fn locate_close(text: &str, within: Span, quote: &str) -> Option<Span> {
    let words = |t: &str| -> Vec<String> {
        t.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let wanted = words(quote);
    if wanted.len() < 4 {
        return None;
    }
    let numbers: Vec<&String> = wanted
        .iter()
        .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
        .collect();
    let region = CharMap::new(text).slice(within);
    let spans = crate::search::sentence_spans(region);
    // A quote may run over two sentences.
    let candidates = spans
        .iter()
        .map(|&(s, e, _)| (s, e))
        .chain(spans.windows(2).map(|pair| (pair[0].0, pair[1].1)));
    let chars: Vec<char> = region.chars().collect();
    candidates
        .filter_map(|(s, e)| {
            let sentence: String = chars[s..e].iter().collect();
            let have = words(&sentence);
            if !numbers.iter().all(|n| have.contains(n)) {
                return None;
            }
            let found = wanted.iter().filter(|w| have.contains(w)).count();
            let share = found as f64 / wanted.len() as f64;
            // The shortest sentence that holds the quote, not a pair around it.
            (share >= 0.75).then_some((share, std::cmp::Reverse(have.len()), s, e))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .map(|(_, _, s, e)| Span {
            start_char: within.start_char + s,
            end_char: within.start_char + e,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_close_to_a_sentence_of_the_section_is_located_there() {
        let text = "Item 7. Liquidity.\nCapital expenditures were $9,447 million in 2024. The Company repurchased $95.0 billion of its common stock.\nOther text follows here.";
        let within = Span {
            start_char: 0,
            end_char: text.chars().count(),
        };
        let span = |quote: &str| {
            locate_close(text, within, quote).map(|s| CharMap::new(text).slice(s).to_string())
        };
        // Punctuation and a word changed, a word dropped.
        assert_eq!(
            span("capital expenditure were $9,447 million in fiscal 2024").as_deref(),
            Some("Capital expenditures were $9,447 million in 2024.")
        );
        // A number that is not there, or a quote of something else, is no citation.
        assert_eq!(
            span("capital expenditures were $9,500 million in 2024"),
            None
        );
        assert_eq!(span("the dividend was raised to $0.25 a share"), None);
    }

    fn figure(value: f64, scale: Option<&str>, unit: MetricUnit) -> StatedFigure {
        StatedFigure {
            concept: "capex".into(),
            label: "capital expenditure".into(),
            doc_id: "d".into(),
            doc_name: "apple.html".into(),
            row_label: "Payments for acquisition of property, plant and equipment".into(),
            value,
            shown: String::new(),
            scale: scale.map(str::to_string),
            period: None,
            year: Some(2024),
            months: None,
            unit,
            computed: false,
            markers: vec![1, 2],
            other_periods: Vec::new(),
        }
    }

    #[test]
    fn an_answer_leads_with_a_given_figure_only_as_precisely_as_the_statements_write_it() {
        let cash = GivenValue {
            value: 11975.0,
            unit: MetricUnit::Amount,
            scale: Some("millions"),
        };
        let margin = GivenValue {
            value: 23.97,
            unit: MetricUnit::Percent,
            scale: None,
        };
        let given = [cash, margin];
        let reference = "Cash and cash equivalents for fiscal 2024: $11.97 billion [1][2].";
        for leads in [
            "Visa's cash was $11.97 billion [2].",
            "As of September 30, 2024 [1], the balance was 11,975 (in millions).",
            "Cash stood at $11,975 million at 2024-09-30.",
            "The margin was 24.0% in fiscal 2024.",
        ] {
            assert!(leads_with(leads, &given, Some(reference)), "{leads}");
        }
        for not_first in [
            // Coarser than the statements write it, another row's figure, an operand first.
            "As of 2024-09-30 the cash balance was $12.0 billion [2][3].",
            "The bottom line was $14,738 million [4].",
            "Payables of 5,012 over cost of sales of 28,640 times 365 give 63.86 days.",
            "The answer is not in the sources.",
        ] {
            assert!(
                !leads_with(not_first, &given, Some(reference)),
                "{not_first}"
            );
        }
        // Without a finer sentence of the statements, or when no rounding was asked, a
        // rounding that states the cell leads; a whole number of days leads too.
        assert!(leads_with(
            "Cash was $12.0 billion.",
            &[cash],
            Some("No figure here.")
        ));
        assert!(leads_with("Cash was $12.0 billion.", &[cash], None));
        let dso = GivenValue {
            value: 27.0,
            unit: MetricUnit::Days,
            scale: None,
        };
        assert!(leads_with("DSO was 27 days [3].", &[dso], None));
    }

    #[test]
    fn a_figure_is_found_whatever_scale_and_rounding_the_model_wrote() {
        let capex = figure(-9447.0, Some("millions"), MetricUnit::Amount);
        for text in [
            "Apple's capital expenditure in fiscal 2024 was $9,447 million.",
            "It spent $9.447 billion on property and equipment in 2024.",
            "Capex was about $9.4 billion.",
            "Payments for PP&E: 9,447 (in millions).",
        ] {
            let at = where_stated(text, &capex);
            assert!(at.is_some(), "{text}");
        }
        for text in [
            "Capex was $9.5 billion in 2024.",
            "Capex was $3.5 billion.",
            "In fiscal 2024 it reported nothing else.",
            "Capex rose 9,447%.",
        ] {
            assert_eq!(where_stated(text, &capex), None, "{text}");
        }
        let text = "Capex was $9,447 million [1].";
        assert_eq!(
            where_stated(text, &capex),
            Some("Capex was $9,447 million".len())
        );
        let margin = figure(46.2, None, MetricUnit::Percent);
        assert!(where_stated("Gross margin was 46.2% in 2024.", &margin).is_some());
        assert_eq!(
            where_stated("Gross margin was 46.2 million.", &margin),
            None
        );
    }

    #[test]
    fn a_stated_number_is_found_in_the_sentence_that_holds_it() {
        let answer =
            "Microsoft employed about 221,000 people [1] in fiscal 2023, up 0.5% and 3 more.";
        let numbers: Vec<String> = stated_numbers(answer).into_iter().map(|(_, n)| n).collect();
        assert_eq!(numbers, vec!["221,000".to_string(), "0.5".to_string()]);
        let source = "Our people. As of June 30, 2023, we employed approximately 221,000 people on a full-time basis. Of the total, 120,000 were in the United States.\nRevenue | 211,915 | 198,270";
        assert_eq!(
            sentence_holding(source, "221,000"),
            Some("As of June 30, 2023, we employed approximately 221,000 people on a full-time basis.")
        );
        assert_eq!(
            sentence_holding(source, "211,915"),
            Some("Revenue | 211,915 | 198,270")
        );
        // Part of a larger number is not the number.
        assert_eq!(sentence_holding(source, "21,000"), None);
        assert_eq!(sentence_holding(source, "211"), None);
    }

    #[test]
    fn a_rescaled_figure_is_a_number_the_cell_states() {
        let capex = figure(-9447.0, Some("millions"), MetricUnit::Amount);
        let text = "Apple spent $9.4 billion on capital expenditure in 2024 (9,447 in the table), against $11 billion.";
        let stating = numbers_stating(text, &[capex], &[]);
        assert_eq!(stating, vec!["$9.4".to_string(), "9,447".to_string()]);
        // A ratio of 0.91 is not "Item 1", nor a "1" inside a word.
        let ratio = figure(0.91, None, MetricUnit::Ratio);
        let said = "Item 1A says the ratio is 0.91";
        assert_eq!(where_stated(&format!("{said}."), &ratio), Some(said.len()));
        assert_eq!(where_stated("See Item 1A and note 1.", &ratio), None);
        // What no cell states stays unsupported.
        let excerpts = ["Years ended September 28, 2024 | Payments for acquisition of property, plant and equipment (9,447)"];
        let unsupported: Vec<String> = crate::qa::unsupported_numbers(text, &excerpts)
            .into_iter()
            .filter(|n| !stating.contains(n))
            .collect();
        assert_eq!(unsupported, vec!["$11".to_string()]);
    }
}
