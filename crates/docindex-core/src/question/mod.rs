//! One reading of a question, made once and used by search, the offline answer and the
//! model's prompts: the words that carry its content (the role, the resources and the manner
//! of answering set aside), the periods it names, the operation it asks for, the unit and
//! rounding of the answer, the statements it names, and the definition it gives of its
//! metric.

mod asks;
pub mod passage;
pub mod periods;
mod shorthand;
mod spelled_years;
mod spreadsheet;
mod tex;
pub(crate) mod units;
pub mod vocabulary;

pub use asks::{
    asks_about_results, asks_an_amount_of_money, asks_for_a_printed_figure, asks_for_figure,
    asks_for_share, asks_how_it_moved, asks_where_based, asks_why, Asks,
};
pub use passage::{Judgment, JudgmentKind, PassageKind};
pub use periods::{fiscal_offset, AskedPeriod, YearBasis};
pub use vocabulary::{vocabulary, Vocabulary};

use crate::finance::period_formula::operation_over_periods;
use crate::finance::Statement;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;
use vocabulary::{find_phrase, holds_any, holds_any_prefix};

/// Why a question could not be read; the vocabulary is compiled in, so it is our bug.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum QuestionError {
    #[error("the built-in question vocabulary is invalid: {0}")]
    BadVocabulary(String),
}

impl QuestionError {
    pub fn fault(&self) -> crate::Fault {
        crate::Fault::Bug
    }
}

/// What the question asks done with the figures it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    /// The figure for the period.
    Value,
    /// The difference between two periods' figures.
    Change,
    /// The change in percent of the earlier figure.
    Growth,
    /// The compound annual growth rate between the first and last period.
    Cagr,
    /// The mean of the periods' figures.
    Average,
}

/// The scale an amount is asked in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    Thousands,
    Millions,
    Billions,
}

impl Scale {
    pub fn factor(self) -> f64 {
        match self {
            Scale::Thousands => 1e3,
            Scale::Millions => 1e6,
            Scale::Billions => 1e9,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Scale::Thousands => "thousand",
            Scale::Millions => "million",
            Scale::Billions => "billion",
        }
    }

    /// The scale a table's "(in millions)" names.
    pub fn of_table(scale: Option<&str>) -> Option<Scale> {
        let s = scale?.to_lowercase();
        if s.contains("thousand") {
            Some(Scale::Thousands)
        } else if s.contains("million") {
            Some(Scale::Millions)
        } else if s.contains("billion") {
            Some(Scale::Billions)
        } else {
            None
        }
    }
}

/// A definition the question gives of the metric it asks for: "Operating cash flow ratio is
/// defined as: cash from operations / total current liabilities".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Definition {
    /// The metric's name as the question writes it.
    pub name: String,
    /// The right-hand side, as written.
    pub formula: String,
}

/// The reading of one question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    /// The question as asked.
    pub text: String,
    /// Its content: the sentences that ask, without the role, the resources, the manner of
    /// answering, the unit and rounding asked, or the definition. What search and the
    /// composers read.
    pub content: String,
    /// The periods it names, in the order written.
    pub periods: Vec<AskedPeriod>,
    /// Every year a span asks for ("FY2015 – FY2017 average"), when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spanned_years: Option<Vec<i32>>,
    /// "The latest fiscal year" (`Some(0)`), "the prior year" (`Some(-1)`), relative to the
    /// filing's own latest year; `None` when no relative period is named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative_year: Option<i32>,
    /// Every year named relative to the filing's latest, earliest first ("from the prior year
    /// to the latest" is `[-1, 0]`, "the three most recent fiscal years" `[-2, -1, 0]`);
    /// empty when the question names its years or none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relative_years: Vec<i32>,
    /// A turnover or days metric asked on year-end balances ("DSO on year-end
    /// receivables"), not on the average of the year's opening and closing ones.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub year_end_balances: bool,
    pub operation: Operation,
    /// The scale an amount is asked in ("in USD millions").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<Scale>,
    /// A percentage is asked.
    pub percent: bool,
    /// Decimals to round to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decimals: Option<u32>,
    /// The statements it names as the place to look.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub statements: Vec<Statement>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub definition: Option<Definition>,
    /// The kind of passage that answers it (`passage.rs`).
    #[serde(default)]
    pub passage: PassageKind,
    /// For a judgment question: what it judges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judgment: Option<Judgment>,
}

/// The sentences of `text`, with a question's colon ("Here's the question: what …") ending
/// the instruction before it.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        current.push(*c);
        let next = chars.get(i + 1).copied();
        // "X is 100 * A / B -- what was it for Meta?", "take SG&A as a percent of revenue
        // year by year -- what's the average of the three?": a spaced dash before a
        // question's opening word ends the clause before it (the dash is no part of either).
        if matches!(c, '-' | '—' | '–') && dash_opens_a_question(&current, &chars[i + 1..]) {
            let clause = current.trim_end_matches(['-', '—', '–']).trim().to_string();
            current.clear();
            out.push(clause);
            continue;
        }
        let ends = match c {
            '?' | '!' => true,
            // A decimal point has no space after it; "Inc.", "U.S." and "(vs." end no sentence.
            '.' => next.is_none_or(char::is_whitespace) && !ends_with_abbreviation(&current),
            ':' => {
                // The clause before a colon is an instruction only when it says so; a
                // definition's colon ("defined as: …") stays in its sentence.
                // Words, not letters: "liabilities" holds "abilities".
                let lower = current.to_lowercase();
                let words = || lower.split(|c: char| !c.is_alphanumeric());
                words().any(|w| {
                    w.starts_with("question")
                        || w.starts_with("abilit")
                        || w.starts_with("resource")
                })
                    // "Annual review of Palantir's credit facility: what asset total …?": a
                    // question after a colon is a sentence of its own, the clause before
                    // its context (a definition's colon excepted). A label of a word or
                    // three ("Revenue:", "For Apple:") stays the question's.
                    || (opens_a_question(&chars[i + 1..])
                        && words().filter(|w| !w.is_empty()).count() >= 4
                        && !words().any(|w| {
                            w.starts_with("defin") || w == "formula" || w == "method"
                        }))
            }
            _ => false,
        };
        if ends {
            out.push(std::mem::take(&mut current).trim().to_string());
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out.retain(|s| !s.is_empty());
    out
}

/// Whether a dash that closes `before` (" --", " —") stands before a question's opening word
/// after a formula ("X is 100 * A / B -- what was it?"). Elsewhere the dash joins one request
/// ("Take A at both ends of FY23 and average them -- what's the figure?").
fn dash_opens_a_question(before: &str, after: &[char]) -> bool {
    let spaced = before.ends_with(" --") || before.ends_with(" —") || before.ends_with(" –");
    spaced && opens_a_question(after)
}

/// Whether `after` (following a dash or a colon) opens with a space and a question's
/// opening word.
fn opens_a_question(after: &[char]) -> bool {
    const OPENERS: [&str; 12] = [
        "what", "what's", "how", "which", "who", "where", "when", "is", "was", "did", "does", "can",
    ];
    let rest: String = after.iter().take(12).collect();
    let word = rest
        .trim_start()
        .split(|c: char| c.is_whitespace() || c == ',')
        .next()
        .unwrap_or("")
        .to_lowercase();
    after.first().is_some_and(|c| c.is_whitespace()) && OPENERS.contains(&word.as_str())
}

/// Whether two periods stand side by side in a list ("2023 and 2024", "FY2023, FY2024",
/// "(2023 / 2024)") rather than apart, each with words of its own.
fn periods_listed(text: &str, periods: &[AskedPeriod]) -> bool {
    let [first, second] = periods else {
        return false;
    };
    let (Some(a), Some(b)) = (text.find(&first.written), text.find(&second.written)) else {
        return false;
    };
    let (before, after) = match a <= b {
        true => ((a, first), (b, second)),
        false => ((b, second), (a, first)),
    };
    let between = text
        .get(before.0 + before.1.written.len()..after.0)
        .unwrap_or("")
        .to_lowercase();
    let between = between
        .trim()
        .trim_matches(|c: char| c == ',' || c.is_whitespace());
    [
        "",
        "and",
        "or",
        "&",
        "/",
        "and the",
        "and in",
        "or in",
        "and fiscal",
        "and fy",
    ]
    .contains(&between)
}

/// Whether a formula refers to a spreadsheet cell ("C5", "B18") rather than a line item.
fn holds_cell_reference(formula: &str) -> bool {
    formula
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|token| {
            let letters = token.chars().take_while(char::is_ascii_uppercase).count();
            (1..=2).contains(&letters)
                && token.len() > letters
                && token.len() <= letters + 4
                && token[letters..].chars().all(|c| c.is_ascii_digit())
        })
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Whether `text` (ending in a full stop) ends with an abbreviation rather than a sentence.
fn ends_with_abbreviation(text: &str) -> bool {
    let last = text
        .trim_end_matches('.')
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or("")
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    vocabulary().is_ok_and(|v| v.abbreviations.contains(&last))
}

/// The sentence without a definition it holds after an inline marker ("…quick ratio,
/// calculated as A minus B, divided by C?"), and that definition's formula. A definition
/// in parentheses ends at its closing parenthesis; otherwise at the sentence's end.
fn without_inline_definition(
    sentence: &str,
    v: &vocabulary::Vocabulary,
) -> (String, Option<String>) {
    static WHERE_MEANS: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i),\s+where\s+[^,;]{1,80}?\s+(?:means|is\s+defined\s+as|is\s+calculated\s+as|is|=|equals)\s+").ok()
    });
    // "…, where working capital position means current assets - current liabilities, …"
    // "ROA is NI / avgTA × 100, where avgTA = …": a where-clause after a formula explains
    // one of its terms; the formula is the definition.
    let after_a_formula = |at: usize| sentence[..at].contains(['/', '÷', '×', '*']);
    if let Some(m) = WHERE_MEANS
        .as_ref()
        .and_then(|re| re.find(sentence))
        .filter(|m| !after_a_formula(m.start()))
    {
        let formula = without_instructions(&sentence[m.end()..]);
        if !formula.is_empty() {
            let mut kept = sentence[..m.start()].trim_end().to_string();
            if sentence.trim_end().ends_with('?') {
                kept.push('?');
            }
            return (kept, Some(formula));
        }
    }
    if let Some(read) = house_definition(sentence) {
        return read;
    }
    // "Recompute Palantir's return on average assets in FY2023 as net income ÷ ½(opening +
    // closing total assets) × 100."
    static COMPUTE: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:please\s+|kindly\s+)?(?:re-?)?(?:compute|calculate|derive|work\s+out|determine)\s").ok()
    });
    if COMPUTE.as_ref().is_some_and(|re| re.is_match(sentence)) {
        let ascii_lower = sentence.to_ascii_lowercase();
        if let Some(at) = formula_after_as(&ascii_lower) {
            let formula = without_instructions(&sentence[at + " as ".len()..]);
            return (format!("{}?", sentence[..at].trim_end()), Some(formula));
        }
    }
    let lower = sentence.to_lowercase();
    // "…, i.e. (opening + closing balance) / 2" says how to average, not what to compute.
    let halves = ["/ 2", "/2", "halved", "÷ 2"]
        .iter()
        .any(|h| lower.contains(h));
    // "[NI/avg. total assets, avg = (beginning + ending)/2]" divides one item by another too.
    static ITEM_OVER_ITEM: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"[a-z&.]{2,}\s*/\s*[a-z&.]{2,}|\b(?:divided|scaled)\s+by\s+[a-z]").ok()
    });
    let between_items = ITEM_OVER_ITEM
        .as_ref()
        .is_some_and(|re| re.is_match(&lower));
    if halves && v.averages_balances(&lower) && !between_items {
        return (sentence.to_string(), None);
    }
    // "[A + B] ÷ C" groups: a bracket an operation goes on after is no aside.
    let groups = |at: usize, marker: &str| {
        marker.trim() == "["
            && lower[at..].find(']').is_some_and(|close| {
                let after = lower[at + close + 1..].trim_start();
                after.starts_with(['/', '÷', '×', '*', '-', '+', '−', '–'])
                    || OPERATION_WORDS
                        .as_ref()
                        .and_then(|re| re.find(after))
                        .is_some_and(|m| m.start() == 0)
            })
    };
    let Some((at, marker)) = v
        .inline_definition_markers
        .iter()
        .filter_map(|m| Some((lower.find(m.as_str())?, m)))
        .filter(|(at, m)| !groups(*at, m))
        .min_by_key(|(at, _)| *at)
    else {
        return match parenthesised_definition(sentence) {
            Some((kept, formula)) => (kept, Some(formula)),
            None => leading_definition(sentence),
        };
    };
    let start = at + marker.len();
    let in_parentheses = marker.contains('(');
    let end = match in_parentheses {
        true => sentence[start..]
            .find(')')
            .map_or(sentence.len(), |e| start + e),
        false => sentence.len(),
    };
    let formula = without_instructions(&sentence[start..end]);
    if formula.is_empty() {
        return (sentence.to_string(), None);
    }
    let after = match in_parentheses {
        true => sentence.get(end + 1..).unwrap_or(""),
        false => "",
    };
    let mut kept = format!("{}{}", sentence[..at].trim_end(), after);
    let ended = sentence.trim_end().ends_with('?');
    if ended && !kept.trim_end().ends_with('?') {
        kept = format!("{}?", kept.trim_end().trim_end_matches(['.', ',']));
    }
    (kept, Some(formula))
}

/// A definition stated as the asker's practice inside the sentence that asks: "Our credit
/// team works out net margin as A as a fraction of B, in % -- on that basis, what was …?",
/// "Find X for 2023; by X I mean A as a multiple of B." The question keeps the metric's name
/// and what follows the definition.
fn house_definition(sentence: &str) -> Option<(String, Option<String>)> {
    static WORKS_OUT: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:(?:our|my|the)\s+[\w\s-]{0,30}?|we|i)\s+(?:works?\s+out|calculates?|computes?|defines?|measures?|treats?|takes?)\s+").ok()
    });
    static I_MEAN: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"(?i)(?:^|[;,])\s*by\s+(.{2,80}?)\s+(?:i|we)\s+mean\s+").ok());
    let asides = [" -- ", " — ", " – ", "; "];
    if let Some(m) = WORKS_OUT.as_ref().and_then(|re| re.find(sentence)) {
        let rest = &sentence[m.end()..];
        let ascii_lower = rest.to_ascii_lowercase();
        // "… computes ROE as follows: NI / average equity."
        if let Some(at) = ascii_lower.find(" as follows:") {
            let formula = without_instructions(&rest[at + " as follows:".len()..]);
            let name = rest[..at].trim();
            return (!formula.is_empty() && !name.is_empty())
                .then(|| (format!("{name}?"), Some(formula)));
        }
        let at = formula_after_as(&ascii_lower)?;
        let name = rest[..at].trim();
        let after_as = &rest[at + " as ".len()..];
        let (formula, question) = asides
            .iter()
            .filter_map(|a| after_as.find(a).map(|i| (i, a.len())))
            .min_by_key(|(i, _)| *i)
            .map_or((after_as, ""), |(i, len)| {
                (&after_as[..i], &after_as[i + len..])
            });
        let formula = without_instructions(formula);
        if name.is_empty() || formula.is_empty() {
            return None;
        }
        return Some((format!("{name} — {}", question.trim()), Some(formula)));
    }
    // "Please compute, for Meta in 2023, the measure I call debt over equity: the dollars of
    // debt per dollar of equity."
    static I_CALL: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:the\s+)?(?:measure|metric|ratio|figure|number|thing)\s+(?:i|we)\s+call\s+(.{2,80}?)\s*(?::|,\s*(?:i\.e\.|namely|meaning|that\s+is)[,:]?)\s+").ok()
    });
    if let Some(caps) = I_CALL.as_ref().and_then(|re| re.captures(sentence)) {
        let (whole, name) = (caps.get(0)?, caps.get(1)?);
        let formula = without_instructions(&sentence[whole.end()..]);
        if !formula.is_empty() {
            let mut kept = format!("{}{}", &sentence[..whole.start()], name.as_str().trim());
            kept.push('?');
            return Some((kept, Some(formula)));
        }
    }
    let caps = I_MEAN.as_ref()?.captures(sentence)?;
    let whole = caps.get(0)?;
    let formula = without_instructions(&sentence[whole.end()..]);
    (!formula.is_empty()).then(|| {
        let mut kept = sentence[..whole.start()].trim_end().to_string();
        if sentence.trim_end().ends_with('?') {
            kept.push('?');
        }
        (kept, Some(formula))
    })
}

/// `periods` with the year before the one named when the question compares that year with
/// its predecessor ("net income in fiscal 2023 versus the prior year", "FY2023 YoY
/// change"): the comparison then has both its years.
fn with_the_year_compared_against(
    periods: Vec<AskedPeriod>,
    content_lower: &str,
    v: &vocabulary::Vocabulary,
) -> Vec<AskedPeriod> {
    let [only] = periods.as_slice() else {
        return periods;
    };
    // Connectors are paired with a prior-period phrase only when one stands in the text.
    let names_prior = v.prior_period_phrases.iter().any(|prior| {
        let bare = prior.strip_prefix("the ").unwrap_or(prior);
        content_lower.contains(bare)
    });
    let against_prior = names_prior
        && v.comparison_connectors.iter().any(|connector| {
            v.prior_period_phrases.iter().any(|prior| {
                let bare = prior.strip_prefix("the ").unwrap_or(prior);
                [
                    format!("{connector} the {bare}"),
                    format!("{connector} {bare}"),
                ]
                .iter()
                .any(|phrase| find_phrase(content_lower, phrase).is_some())
            })
        })
        || v.year_over_year_phrases
            .iter()
            .any(|p| find_phrase(content_lower, p).is_some());
    if !against_prior {
        return periods;
    }
    let before = AskedPeriod {
        year: only.year - 1,
        written: String::new(),
        ..only.clone()
    };
    vec![before, only.clone()]
}

/// The operation a question spells out over one figure's values in the periods it names:
/// in its definition, after a verb of working out ("compute (fiscal 2023 value − fiscal
/// 2022 value) ÷ fiscal 2022 value", "take X for FY23, deduct the FY22 amount"), or over
/// figures it labels ("(a) minus (b)"); known by what it computes.
fn spelled_out_operation(
    definition: Option<&Definition>,
    content: &str,
    text: &str,
) -> Option<(Operation, Vec<i32>)> {
    static COMPUTE: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:compute|calculate|work\s+out|take|determine)\s+(.+)$").ok()
    });
    definition
        .and_then(|d| operation_over_periods(&d.formula))
        .or_else(|| {
            let caps = COMPUTE.as_ref()?.captures(content)?;
            operation_over_periods(&without_instructions(&caps[1]))
        })
        .or_else(|| operation_over_periods(&labelled_formula(text)?))
}

/// The kind of passage `content` asks for, with a ranking (`ranks`) asking figures. The
/// words that name a figure ("cash paid to acquire PP&E") say nothing of the kind asked
/// ("acquire" asks about no acquisition), and a line item named in the table's words
/// ("assets expected to turn into cash within a year (total current assets)") asks its
/// figure, whatever the paraphrase before it says ("expected" asks no outlook).
fn passage_of(content: &str, ranks: bool) -> Result<PassageKind, QuestionError> {
    let table = crate::finance::concepts::concept_table()
        .map_err(|e| QuestionError::BadVocabulary(e.to_string()))?;
    let glossed_line_item = crate::finance::wording::glossed_figure(table, content).is_some();
    let kind = match passage::passage_kind_of(content, asks_for_figure(content))? {
        kind @ (PassageKind::Event | PassageKind::Outlook) => {
            passage::passage_kind_of(&table.without_phrasings(content), asks_for_figure(content))
                .unwrap_or(kind)
        }
        kind => kind,
    };
    Ok(match kind {
        PassageKind::Judgment if ranks => PassageKind::Figure,
        PassageKind::Outlook
        | PassageKind::Business
        | PassageKind::NonGaap
        | PassageKind::Judgment
            if glossed_line_item =>
        {
            PassageKind::Figure
        }
        kind => kind,
    })
}

/// The formula a sentence labelled as the definition to use gives ("Use this definition:
/// operating income + D&A − capex paid in cash."), empty for the label alone; `None` for
/// any other sentence.
fn labelled_definition(sentence: &str) -> Option<String> {
    static LABELLED: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:please\s+)?(?:use|apply|take)?\s*(?:this|the|our|my|a|your)?\s*(?:house\s+)?(?:definition|formula)(?:\s+(?:to\s+use|we\s+use|i\s+use))?\s*[:=]\s*(.*?)\.?\s*$").ok()
    });
    let caps = LABELLED.as_ref()?.captures(sentence)?;
    if caps[1].trim().is_empty() {
        return Some(String::new());
    }
    let formula = without_instructions(&caps[1]);
    let sums = [" + ", " − ", " - ", " – "]
        .iter()
        .any(|s| formula.contains(s));
    (sums
        || OPERATION_WORDS
            .as_ref()
            .is_some_and(|re| re.is_match(&formula)))
    .then_some(formula)
}

/// "(a) cash for F/Y 2023, (b) cash for F/Y 2022. What is (a) minus (b)?": the formula over
/// the labelled figures, each written as its year's value ("FY2023 value minus FY2022
/// value"); `None` when the question labels no figures or combines none.
fn labelled_formula(text: &str) -> Option<String> {
    static LABEL: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\(([a-d])\)\s+").ok());
    static COMBINED: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)\(([a-d])\)\s*(minus|less|plus|divided\s+by|over|/|-|−|÷|\+)\s*\(([a-d])\)(\s*(?:-|−|minus)\s*1\b)?").ok()
    });
    let labels: Vec<regex::Captures> = LABEL.as_ref()?.captures_iter(text).collect();
    let mut years: Vec<(String, i32)> = Vec::new();
    for (i, caps) in labels.iter().enumerate() {
        let (label, whole) = (caps.get(1)?, caps.get(0)?);
        let end = labels
            .get(i + 1)
            .and_then(|next| next.get(0))
            .map_or(text.len(), |m| m.start());
        let segment = &text[whole.end()..end];
        let segment = segment.split(['.', '?', ';']).next().unwrap_or(segment);
        let mut found: Vec<i32> = periods::periods_in(segment)
            .iter()
            .map(|p| p.year)
            .collect();
        found.dedup();
        if let [year] = found.as_slice() {
            years.push((label.as_str().to_string(), *year));
        }
    }
    let caps = COMBINED.as_ref()?.captures(text)?;
    let year_of = |label: &str| years.iter().find(|(l, _)| l == label).map(|(_, y)| *y);
    let (a, b) = (year_of(&caps[1])?, year_of(&caps[3])?);
    let minus_one = caps.get(4).map_or("", |_| " minus 1");
    Some(format!("FY{a} value {} FY{b} value{minus_one}", &caps[2]))
}

/// A definition's words without the instructions that follow it in the same sentence
/// ("…over income before taxes, to one decimal place?", "… (x, two decimals)").
fn without_instructions(formula: &str) -> String {
    static INSTRUCTION: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r"(?i)(?:,\s*|\s+\(|\s+)(?:to\s+(?:one|two|three|four|zero|\d|the\s+nearest)|(?:one|two|three|four|zero|\d)\s+(?:decimals?\b|dp\b|d\.p\.|places?\b)|rounded|round\b|expressed|measured\s+in|stated\s+in|shown\s+in|reported\s+in|in\s+(?:%|percentage|percent|\$|usd|us\$|millions|billions|thousands|days|dollars)|as\s+a\s+(?:%|percentage|percent|multiple)|answer|give\b|x,|%,|\$\s*(?:bn|mn|m|b)\b|days,)",
        )
        .ok()
    });
    // "As a percentage of revenue" divides; "as a percentage" alone asks the unit.
    let cut = INSTRUCTION
        .as_ref()
        .and_then(|re| {
            re.find_iter(formula).find(|m| {
                !m.as_str()
                    .trim_start_matches([',', ' ', '('])
                    .to_lowercase()
                    .starts_with("as ")
                    || !formula[m.end()..].trim_start().starts_with("of ")
            })
        })
        .map_or(formula, |m| &formula[..m.start()]);
    cut.trim_matches(|c: char| c == ':' || c == '?' || c == '.' || c == ',' || c.is_whitespace())
        .to_string()
}

/// Words of an arithmetic operation in a definition; a slash only between words ("capex /
/// revenue", "capex/revenue"), not in an abbreviation ("A/R").
static OPERATION_WORDS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:divided\s+by|over|minus|less|plus|times|multiplied\s+by|scaled\s+by|subtract|add|net\s+of|dividing|deducting|subtracting|multiplying|averaging|as\s+a\s+(?:share|percentage|percent|proportion|fraction|multiple)\s+of|numerator|quotient\s+of|ratio\s+of)\b|[÷×]|\s/\s|[a-z&.]{2,}\s*/\s*[a-z&.]{2,}").ok()
});

/// Where the name ends and the formula begins in "<name> as <formula>" (`text` in ASCII lower
/// case): the last " as " with an operation after it, not "as of" or "as at" a date, and not
/// one inside the formula ("Define capex as % of revenue as purchases of PP&E over net
/// revenues"; "Compute capex as a share of revenue as capex ÷ revenue").
fn formula_after_as(text: &str) -> Option<usize> {
    const NOT_A_FORMULA: &[&str] = &[
        "of ",
        "at ",
        "reported",
        "presented",
        "a share",
        "a percentage",
        "a percent",
        "a proportion",
        "a fraction",
        "a %",
    ];
    let candidates: Vec<usize> = text
        .match_indices(" as ")
        .map(|(at, _)| at)
        .filter(|&at| {
            let after = &text[at + " as ".len()..];
            !NOT_A_FORMULA.iter().any(|w| after.starts_with(w))
        })
        .collect();
    candidates.into_iter().rev().find(|&at| {
        OPERATION_WORDS
            .as_ref()
            .is_some_and(|re| re.is_match(&text[at + " as ".len()..]))
    })
}

/// A definition in parentheses after the metric ("…ROE (net income divided by average
/// shareholders' equity, using opening and closing balances)…", "(capex/revenue)"): a
/// parenthesis holding an operation. The sentence without it, and the formula.
fn parenthesised_definition(sentence: &str) -> Option<(String, String)> {
    let mut from = 0;
    while let Some(open) = sentence[from..].find('(').map(|i| from + i) {
        let close = sentence[open..].find(')').map(|i| open + i)?;
        let inner = &sentence[open + 1..close];
        // "(times, two decimal places)" is a unit: an operation stands between operands.
        let operation_inside = OPERATION_WORDS.as_ref().is_some_and(|re| {
            re.find_iter(inner).any(|m| {
                let between =
                    !inner[..m.start()].trim().is_empty() && !inner[m.end()..].trim().is_empty();
                // "capex/revenue" holds its operands.
                between || m.as_str().trim().len() > 1 && m.as_str().contains('/')
            })
        });
        // "(current assets minus inventories) divided by current liabilities": a group an
        // operation goes on with is part of a formula, not an aside that defines.
        let after = sentence[close + 1..].trim_start();
        let operation_after = OPERATION_WORDS
            .as_ref()
            .and_then(|re| re.find(after))
            .is_some_and(|m| m.start() == 0)
            || after.starts_with(['/', '÷', '×', '*', '-', '+', '−']);
        // "… divided by one day of revenue (revenue / 365)": a group after an operation
        // explains an operand of the formula being written, not the metric asked.
        let operation_before = OPERATION_WORDS
            .as_ref()
            .is_some_and(|re| re.is_match(&sentence[..open]));
        if operation_inside && !inner.contains('(') && !operation_after && !operation_before {
            let kept = format!("{}{}", sentence[..open].trim_end(), &sentence[close + 1..]);
            return Some((kept, without_instructions(inner)));
        }
        from = close + 1;
    }
    None
}

/// A sentence that only defines ("For this purpose, liquid ratio is (current assets −
/// inventories) ÷ current liabilities.", "Our house definition of operating return on sales
/// is operating income ÷ revenue × 100."): the name and the formula.
fn definition_sentence(sentence: &str) -> Option<(String, String)> {
    static DEFINES: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r"(?i)^\s*(?:for\s+this\s+purpose|for\s+this\s+question|here|in\s+this\s+question)\s*,?\s+(?:the\s+)?(.{2,80}?)\s+(?:is|=|means)\s+(.+?)\.?\s*$|^\s*(?:our|the|my)\s+(?:[\w-]+\s+)?(?:definition|method|formula)(?:\s+(?:we|i)\s+(?:use|apply|follow))?\s+(?:of|for)\s+(.{2,80}?)\s*(?:\bis\b|:)\s*(.+?)\.?\s*$|^\s*(.+?)\s*(?:--|—|–|-|,|;)\s*that'?s\s+how\s+(?:i|we)\s+(?:define|calculate|compute|measure|work\s+out)\s+(.{2,80}?)\.?\s*$",
        )
        .ok()
    });
    // "Two-point-average ROA is NI / avgTA × 100, where avgTA = …": a name, "is" and a
    // formula written with symbols.
    static IS_SYMBOLS: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"^\s*(?:the\s+)?([^,;:=]{2,60}?)\s+is\s+([^,;]*?[/÷×*][^;]*?)\.?\s*$").ok()
    });
    if let Some(caps) = IS_SYMBOLS.as_ref().and_then(|re| re.captures(sentence)) {
        let formula = without_instructions(&caps[2]);
        // "ROA is defined as: …" is read with its marker, elsewhere.
        let marked = vocabulary().is_ok_and(|v| {
            let lower = formula.to_lowercase();
            v.definition_markers
                .iter()
                .any(|m| find_phrase(&lower, m).is_some_and(|at| at < 3))
                || lower.starts_with("defined")
                || lower.starts_with("calculated")
        });
        if !asks(sentence) && !formula.is_empty() && !marked {
            return Some((capitalise(caps[1].trim()), formula));
        }
    }
    let caps = DEFINES.as_ref()?.captures(sentence)?;
    let (name, formula) = match (caps.get(1), caps.get(2), caps.get(5), caps.get(6)) {
        (Some(n), Some(f), _, _) => (n.as_str(), f.as_str()),
        // "(CA − inventories) / CL -- that's how I define quick ratio."
        (_, _, Some(f), Some(n)) => (n.as_str(), f.as_str()),
        _ => (caps.get(3)?.as_str(), caps.get(4)?.as_str()),
    };
    let formula = without_instructions(formula);
    OPERATION_WORDS
        .as_ref()
        .is_some_and(|re| re.is_match(&formula))
        .then(|| (capitalise(name.trim()), formula))
}

/// A definition that opens the sentence asking ("Using net income divided by average total
/// assets, what was Walmart's return on assets?"): the sentence's question and the formula.
/// Only a clause holding an operation defines; "Using the 10-K, what was…" names a source.
fn leading_definition(sentence: &str) -> (String, Option<String>) {
    static LEADING: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r"(?i)^\s*(?:using|with|taking|going\s+by|going\s+off|based\s+on|on\s+the\s+basis\s+of|applying(?:\s+the\s+definition)?|defining\s+it\s+as|if\s+(?:we\s+|you\s+)?define\s+it\s+as)\s+(.+?),\s+((?:what|what's|where|how|which|calculate|compute|give|can|could|please|find|work|determine|estimate)\b.*)$",
        )
        .ok()
    });
    static IF_IS: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r"(?i)^\s*if\s+.{2,80}?\s+(?:is|=|means)\s+(.+?),\s+((?:what|how|which|calculate|compute|give|can|could|please|find|work|determine)\b.*)$",
        )
        .ok()
    });
    let Some(caps) = LEADING
        .as_ref()
        .and_then(|re| re.captures(sentence))
        .or_else(|| IF_IS.as_ref().and_then(|re| re.captures(sentence)))
    else {
        return (sentence.to_string(), None);
    };
    // "Applying the definition 'A plus B, then net of C', what …": the quotes hold it.
    let formula = caps[1]
        .trim()
        .trim_matches(|c: char| matches!(c, '\'' | '"' | '‘' | '’' | '“' | '”'));
    if !OPERATION_WORDS
        .as_ref()
        .is_some_and(|re| re.is_match(formula))
    {
        return (sentence.to_string(), None);
    }
    (
        capitalise(caps[2].trim()),
        Some(without_instructions(formula)),
    )
}

/// Whether a question asks the mean of one year's opening and closing balances ("average
/// total assets for FY2023", "the average of the opening and closing balance of …"): one
/// period named, and an average that is no operand of a ratio ("return on average equity",
/// "revenue over average total assets" ask the ratio).
/// Whether a definition's words only say how balances are averaged ("the midpoint of the
/// opening and closing figures"), with no operation between line items.
fn describes_averaging(formula: &str, v: &vocabulary::Vocabulary) -> bool {
    let lower = formula.to_lowercase();
    v.averages_balances(&lower)
        && !lower.contains(['/', '÷', '×', '*'])
        && !OPERATION_WORDS
            .as_ref()
            .is_some_and(|re| re.is_match(&lower))
}

fn averages_two_balances(
    lower: &str,
    periods: &[periods::AskedPeriod],
    v: &vocabulary::Vocabulary,
) -> bool {
    if periods.len() > 1 || holds_any(lower, &v.not_average_phrases) {
        return false;
    }
    if v.averages_balances(lower) {
        return true;
    }
    let words: Vec<&str> = lower.split_whitespace().collect();
    let bare = |w: &str| w.trim_matches(|c: char| !c.is_alphanumeric()).to_string();
    let averaged = words.iter().enumerate().any(|(i, w)| {
        let previous = if i > 0 { words[i - 1] } else { "" };
        let before = bare(previous);
        match bare(w).as_str() {
            "average" | "avg" | "averaged" => {
                !["on", "over", "by", "to", "of"].contains(&before.as_str())
            }
            // "GM's mean inventory", "the mean balance": a noun's mean, not "what does X mean".
            "mean" => {
                previous.ends_with("'s")
                    || previous.ends_with("’s")
                    || ["the", "its", "a", "their", "his", "her"].contains(&before.as_str())
            }
            _ => false,
        }
    });
    // "Based on the balance sheets that open and close the year", with a word of averaging.
    averaged
        || (names_both_ends(lower)
            && v.operations
                .iter()
                .any(|o| o.operation == Operation::Average && holds_any(lower, &o.phrases)))
}

/// Whether `lower` names both of a year's balances: an opening one ("opening", "beginning",
/// "the balance sheets that open …") and a closing one ("closing", "at the end", "… close
/// the year"), in any words.
fn names_both_ends(lower: &str) -> bool {
    const OPENING: [&str; 9] = [
        "opening",
        "open",
        "opens",
        "beginning",
        "begin",
        "begins",
        "start",
        "starting",
        "starts",
    ];
    const CLOSING: [&str; 6] = ["closing", "close", "closes", "end", "ends", "ending"];
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().any(|w| OPENING.contains(w)) && words.iter().any(|w| CLOSING.contains(w))
}

/// Whether a definition's name is only the word for a mean ("Average means the balance at
/// the beginning of the year plus the balance at the end, divided by two"): it explains the
/// averaging, it defines no metric.
fn names_an_average(name: &str) -> bool {
    let words: Vec<String> = name
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let average = ["average", "avg", "mean", "averaging", "averaged"];
    words.iter().any(|w| average.contains(&w.as_str()))
        && words.iter().all(|w| {
            average.contains(&w.as_str()) || ["the", "an", "a", "here", "by"].contains(&w.as_str())
        })
}

/// Whether a definition only says to take a mean of the years ("taking the simple
/// three-year mean", "the plain average of the three annual figures"): an operation, no
/// metric.
fn says_only_to_average(formula: &str) -> bool {
    const AVERAGE: [&str; 4] = ["average", "avg", "mean", "averaged"];
    const QUALIFIERS: [&str; 22] = [
        "the",
        "a",
        "an",
        "of",
        "simple",
        "plain",
        "arithmetic",
        "straight",
        "unweighted",
        "equal",
        "weighted",
        "three",
        "two",
        "3",
        "2",
        "year",
        "years",
        "annual",
        "yearly",
        "figures",
        "values",
        "amounts",
    ];
    let words = words_after(formula);
    words.iter().any(|w| AVERAGE.contains(&w.as_str()))
        && words
            .iter()
            .all(|w| AVERAGE.contains(&w.as_str()) || QUALIFIERS.contains(&w.as_str()))
}

/// The words of `text`, lower-cased, split at anything not a letter or digit.
fn words_after(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The verdict a comparison asks for: `Some(true)` for "which had the higher …",
/// `Some(false)` for "… the lower …", `None` when the question asks no "which". The first
/// direction word decides ("more or less" asks no verdict).
pub fn comparison_direction(text: &str) -> Option<bool> {
    let v = vocabulary().ok()?;
    let lower = text.to_lowercase();
    let words: Vec<String> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let asks_which = v.which_words.iter().any(|w| match w.starts_with(' ') {
        true => lower.contains(w.as_str()),
        false => find_phrase(&lower, w).is_some(),
    });
    // "Is Intel's net margin greater than RTX's?" asks the same verdict as "which".
    let than_follows = |i: usize| {
        words[i + 1..words.len().min(i + 4)]
            .iter()
            .any(|w| w == "than")
    };
    let compares_with_than = (0..words.len()).any(|i| {
        (v.higher_words.contains(&words[i]) || v.lower_words.contains(&words[i])) && than_follows(i)
    });
    // "Sort A and B by X, largest to smallest" ranks them.
    let ranks = (1..words.len().saturating_sub(1)).any(|i| {
        words[i] == "to"
            && ((v.higher_words.contains(&words[i - 1]) && v.lower_words.contains(&words[i + 1]))
                || (v.lower_words.contains(&words[i - 1])
                    && v.higher_words.contains(&words[i + 1])))
    });
    // "SELECT company … ORDER BY "current ratio" DESC LIMIT 1": a query's ordering is the
    // direction asked.
    if let Some(order) = lower.find("order by") {
        let after = &words_after(&lower[order..]);
        if after.iter().any(|w| w == "desc" || w == "descending") {
            return Some(true);
        }
        if after.iter().any(|w| w == "asc" || w == "ascending") {
            return Some(false);
        }
    }
    // "AbbVie vs Colgate-Palmolive: the lower one is?", "… the bigger of the two?"
    let names_the_one = (0..words.len()).any(|i| {
        (v.higher_words.contains(&words[i]) || v.lower_words.contains(&words[i]))
            && (words.get(i + 1).is_some_and(|w| w == "one")
                || words[i + 1..words.len().min(i + 4)].join(" ") == "of the two")
    });
    if !asks_which && !compares_with_than && !ranks && !names_the_one {
        return None;
    }
    // "Most recent", "more recently" name a period, not a direction.
    let is_direction = |i: usize, list: &[String]| {
        list.contains(&words[i])
            && !words
                .get(i + 1)
                .is_some_and(|next| next.starts_with("recent") || next == "likely")
    };
    let higher = (0..words.len()).find(|&i| is_direction(i, &v.higher_words));
    let lower_at = (0..words.len()).find(|&i| is_direction(i, &v.lower_words));
    match (higher, lower_at) {
        // "Largest to smallest" orders a ranking: the first end is its top.
        (Some(h), Some(l)) if words.get(h.min(l) + 1).is_some_and(|w| w == "to") => Some(h < l),
        (Some(h), Some(l)) if h.abs_diff(l) <= 2 => None,
        (Some(h), Some(l)) => Some(h < l),
        (Some(_), None) => Some(true),
        (None, Some(_)) => Some(false),
        (None, None) => None,
    }
}

/// A definition's name without the words that lead into it ("Here the current ratio").
fn without_lead_words(name: &str) -> String {
    // "Note -- current ratio here means …": the label before a dash and the pointing
    // word after the name are no part of it.
    let name = [" -- ", " — ", " – "]
        .iter()
        .fold(name, |n, dash| n.rsplit(dash).next().unwrap_or(n));
    let name = name.trim().strip_suffix(" here").unwrap_or(name.trim());
    let mut rest = name.trim();
    let Ok(v) = vocabulary() else {
        return capitalise(rest);
    };
    loop {
        let lower = rest.to_lowercase();
        match v
            .definition_lead_words
            .iter()
            .find(|w| lower.starts_with(*w) && lower[w.len()..].starts_with(' '))
        {
            Some(w) => rest = rest[w.len()..].trim_start(),
            None => return capitalise(rest),
        }
    }
}

/// A sentence without the label or greeting it opens with ("Question: what …", "Quick calc:
/// Boeing's …", "Hi -- could you …"); `None` when the label says the sentence only frames
/// the question ("Role: credit analyst.", "Source: the 10-K.").
fn without_label(sentence: &str, v: &Vocabulary) -> Option<String> {
    let mut rest = sentence.trim();
    let mut kept_labels: Vec<&str> = Vec::new();
    loop {
        let lower = rest.to_lowercase();
        let greeting = v.greetings.iter().find(|g| {
            lower.starts_with(g.as_str())
                && lower[g.len()..].starts_with(|c: char| !c.is_alphanumeric())
        });
        if let Some(g) = greeting {
            // Lower-casing may change a character's length: the greeting is cut from the
            // original only where its length still matches.
            let Some(after) = rest.get(g.len()..) else {
                break;
            };
            rest = after.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '$');
            continue;
        }
        // "For the equity note I need …": the purpose is the asker's, not the figure's
        // ("equity" here asks no equity). ASCII lower-casing keeps byte offsets.
        let ascii_lower = rest.to_ascii_lowercase();
        if let Some(request) = ascii_lower
            .strip_prefix("for ")
            .and_then(|_| {
                v.purpose_requests
                    .iter()
                    .filter_map(|r| find_phrase(&ascii_lower, r))
                    .min()
            })
            // A purpose in lower-case words only: "For Apple, can you …" and "For FY2023,
            // please …" name what is asked.
            .filter(|at| {
                let purpose = &rest[4..*at];
                purpose.split_whitespace().count() <= 6
                    && !purpose.contains(|c: char| c.is_uppercase() || c.is_ascii_digit())
            })
        {
            rest = rest[request..].trim_start();
            continue;
        }
        // A label is a few words before a colon at the sentence's start.
        let Some(colon) = rest.find(':') else { break };
        let label_lower = rest[..colon].to_lowercase();
        let label = label_lower.trim();
        let words = label.split_whitespace().count();
        // "ROA is defined as: …" is a definition, not a label.
        let defines = v
            .definition_markers
            .iter()
            .any(|m| find_phrase(label, m).is_some());
        // "Capex-adjusted EBITDA (calc: …)": a colon inside a parenthesis ends no label.
        let inside_parenthesis = label.matches('(').count() > label.matches(')').count();
        // "For my earnings preview:", "For the lender deck:": the asker's purpose, not a
        // subject ("earnings" asks no net income).
        // "For our CFO-office deck:": a hyphenated adjective names no one.
        let names_someone = rest[..colon].split_whitespace().skip(1).any(|w| {
            w.starts_with(char::is_uppercase)
                && !w
                    .rsplit('-')
                    .next()
                    .is_some_and(|last| w.contains('-') && last.starts_with(char::is_lowercase))
        });
        let purpose = label.starts_with("for ")
            && words <= 6
            && !names_someone
            && !defines
            && !inside_parenthesis
            && !label.contains(['?', '.'])
            && periods::periods_in(label).is_empty();
        if purpose {
            rest = rest[colon + 1..].trim_start();
            continue;
        }
        // "Debt investors asked about Nike: what were total current assets in FY23?": a
        // preamble of no period before a question that names its own figure and period is
        // the asker's context ("debt" asks no debt); the names it holds stay.
        let after = &rest[colon + 1..];
        let context = words > 3
            && !defines
            && !inside_parenthesis
            && !label.contains('?')
            && periods::periods_in(label).is_empty()
            && (!periods::periods_in(after).is_empty()
                || !periods::relative_years(&after.to_lowercase(), v).is_empty())
            && crate::finance::concepts::concept_table()
                .is_ok_and(|t| !t.asked_in(after).is_empty() && !t.asked_in(label).is_empty());
        if context {
            let names: Vec<&str> = rest[..colon]
                .split_whitespace()
                .skip(1)
                .filter(|w| w.starts_with(char::is_uppercase))
                .collect();
            // The names go after the question, as a kept label does, so that it still
            // opens with its asking words.
            let kept = match names.is_empty() {
                true => after.trim().to_string(),
                false => format!("{} — {}", after.trim(), names.join(" ")),
            };
            return without_label(&kept, v);
        }
        if words == 0
            || words > 3
            || defines
            || inside_parenthesis
            || label.contains(['?', '.', ','])
        {
            break;
        }
        // "Role: credit analyst." frames the question; "Context: our screen defines ROE as
        // …" says what is asked, and is read on without its label.
        if v.framing_labels.iter().any(|f| f == label) {
            let after = rest[colon + 1..].trim_start();
            let names_a_figure = crate::finance::concepts::concept_table()
                .is_ok_and(|t| !t.asked_in(after).is_empty());
            if !names_a_figure {
                return None;
            }
            rest = after;
            continue;
        }

        // "Question: …" labels what follows; "Capex/sales: J&J vs UnitedHealth …" and
        // "Buckle Q3 FY24: did …" say what is asked of whom: kept after the question, so it
        // still opens with its asking words.
        if !v.asking_labels.iter().any(|a| a == label) {
            kept_labels.push(rest[..colon].trim());
        }
        rest = rest[colon + 1..].trim_start();
    }
    if rest.is_empty() {
        return None;
    }
    // A statement keeps its full stop after the label, so the sentence that follows ("…
    // to the 10-K. — Auditor tickmark. Amount?") does not run into the label's words.
    let stop = if rest.trim_end().ends_with('.') {
        "."
    } else {
        ""
    };
    Some(match kept_labels.is_empty() {
        true => rest.to_string(),
        false => format!("{rest} — {}{stop}", kept_labels.join("; ")),
    })
}

/// Whether a sentence only lists where to look ("the statement of financial position and the
/// cash flow statement."), as the resources of an instruction before it.
fn names_only_sources(sentence: &str, v: &Vocabulary) -> bool {
    let (written, named) = blank_statement_names(sentence, v, |text, name| text.find(name));
    // Whose statement it is ("Refer to Meta Platforms, Inc.'s balance sheet."): a proper
    // name or a possessive is no content.
    let rest: String = written
        .split_whitespace()
        .filter(|w| {
            !(w.ends_with("'s")
                || w.ends_with("’s")
                || w.chars().next().is_some_and(char::is_uppercase))
        })
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    named
        && rest
            .split(|c: char| !c.is_alphanumeric())
            .all(|w| w.is_empty() || v.source_pointer_words.iter().any(|f| f == w))
}

/// Whether a sentence asks something (rather than instructs or defines).
/// Whether a sentence states a fact a question may ask about: a move or an act ("fell",
/// "acquired") or a figure.
fn states_a_premise(sentence: &str, v: &Vocabulary) -> bool {
    sentence.contains(['%', '$']) || holds_any(&sentence.to_lowercase(), &v.premise_words)
}

/// Whether a question sentence names nothing of its own: a few words, no period, no name
/// and no figure ("What does the 10-K say?", "Can you confirm the figure?", "What is the
/// number ($B)?").
fn only_asks_for_it(sentence: &str, v: &Vocabulary) -> bool {
    let lower = sentence.to_lowercase();
    let without_documents = v
        .document_names
        .iter()
        .fold(lower, |text, name| text.replace(name.as_str(), " "));
    let words: Vec<&str> = without_documents
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let named = sentence
        .split_whitespace()
        .skip(1)
        .any(|w| w.starts_with(|c: char| c.is_uppercase()));
    words.len() <= 6
        && !named
        && periods::periods_in(sentence).is_empty()
        && words
            .iter()
            .all(|w| v.bare_ask_words.iter().any(|b| b == w))
}

fn asks(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    let first = lower
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .unwrap_or("");
    // An imperative asks too when it names a period: "Report Colgate's equity for 2023",
    // "Compute the ROA of Cisco for fiscal 2024" (not "Give a response to the question").
    let opens = |words: fn(&Vocabulary) -> &Vec<String>| {
        vocabulary().is_ok_and(|v| words(v).iter().any(|w| w == first))
    };
    sentence.trim_end().ends_with('?')
        || opens(|v| &v.question_openers)
        || (opens(|v| &v.asking_imperatives) && !periods::periods_in(sentence).is_empty())
}

/// A source clause opening a question sentence ("According to the details clearly outlined
/// within the P&L statement, what …"), cut off when it names a statement or the details.
fn without_source_clause(sentence: &str, v: &Vocabulary) -> String {
    let lower = sentence.to_lowercase();
    let opens = v
        .source_clause_openers
        .iter()
        .any(|o| lower.starts_with(o.as_str()));
    if !opens {
        return sentence.to_string();
    }
    // The clause ends at its comma, or at a colon ("From the balance sheet: cash …").
    let Some(comma) = sentence.find([',', ':']) else {
        return sentence.to_string();
    };
    let clause = &lower[..comma];
    let names_a_source = v.statements.iter().any(|s| holds_any(clause, &s.names))
        || v.source_clause_nouns
            .iter()
            .any(|w| clause.contains(w.as_str()));
    // "Given UnitedHealth's asset total on the balance sheet at the end of fiscal 2022 and
    // of fiscal 2023, find the average balance": a clause naming a figure and its periods
    // is what is asked, wherever it says the figure stands.
    let names_figure_and_period = !periods::periods_in(clause).is_empty()
        && crate::finance::concepts::concept_table()
            .is_ok_and(|t| t.asked_in(clause).iter().any(|c| !c.is_metric()));
    match names_a_source && !names_figure_and_period {
        true => sentence[comma + 1..].trim().to_string(),
        false => sentence.to_string(),
    }
}

/// `sentence` without parentheses that only give the unit or rounding ("(in USD millions)",
/// "(in %)") and without trailing unit clauses ("…, in USD billions").
/// `text` without the scales it asks in, wherever they stand ("Total assets RTX FY 2023 USD
/// mn", "Cisco capex FY23 $bn"): a unit is how to state the figure, never a word to search
/// for or to cover. A scale after "in" takes the "in" with it.
fn without_scale_phrases(text: &str, v: &Vocabulary) -> String {
    let mut phrases: Vec<&str> = v
        .scales
        .iter()
        .flat_map(|s| s.phrases.iter().map(String::as_str))
        .collect();
    phrases.sort_by_key(|p| std::cmp::Reverse(p.len()));
    let mut out = text.to_string();
    for phrase in phrases {
        loop {
            let lower = out.to_lowercase();
            // Byte offsets of the lower-cased text are the text's only when lower-casing
            // kept every character's length.
            if lower.len() != out.len() {
                return out;
            }
            let Some(at) = find_phrase(&lower, phrase) else {
                break;
            };
            let end = at + phrase.len();
            let before = lower[..at].trim_end();
            let start = match before.strip_suffix(" in") {
                Some(kept) => kept.len(),
                None if before == "in" => 0,
                None => at,
            };
            out.replace_range(start..end, " ");
        }
    }
    out
}

/// `text` without the names of the filing it points at ("Form 10-K", "annual report"), with
/// an article or possessive pronoun before them ("the", "its", "their").
fn without_document_names(text: &str, v: &Vocabulary) -> String {
    // ASCII lowercasing keeps byte offsets.
    let mut lower = text.to_ascii_lowercase();
    let mut out = text.to_string();
    for name in &v.document_names {
        while let Some(at) = find_phrase(&lower, name) {
            // The word before, when it is one of `words`: where it starts.
            let word_before = |end: usize, words: &[&str]| {
                let before = lower[..end].trim_end();
                words.iter().find_map(|w| {
                    before
                        .strip_suffix(w)
                        .filter(|rest| rest.is_empty() || rest.ends_with(' '))
                        .map(str::len)
                })
            };
            // "fiscal 2022 as presented in the 2023 annual report": the year names the
            // filing, not a period asked, when another period is named ("per the 2022 10-K"
            // alone names the year asked too).
            let years_written = lower
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| {
                    let bare = w.trim_start_matches("fy");
                    bare.len() == 4
                        && (bare.starts_with("19") || bare.starts_with("20"))
                        && bare.chars().all(|c| c.is_ascii_digit())
                })
                .count();
            let other_periods = years_written > 1;
            let year_before = {
                let before = lower[..at].trim_end();
                let word = before.rsplit(' ').next().unwrap_or("");
                let bare = word.trim_start_matches("fy").trim_start_matches('\'');
                (other_periods
                    && !word.is_empty()
                    && (bare.len() == 4 || bare.len() == 2)
                    && bare.chars().all(|c| c.is_ascii_digit()))
                .then(|| before.len() - word.len())
            };
            let start = year_before.unwrap_or(at);
            let start = word_before(start, &["the", "its", "their", "his", "her"]).unwrap_or(start);
            // "from the 10-K", "Per the annual report,": the pointer goes with the name.
            let start = word_before(start, &["from", "in", "per", "of", "on", "according to"])
                .unwrap_or(start);
            let blank = " ".repeat(at + name.len() - start);
            lower.replace_range(start..at + name.len(), &blank);
            out.replace_range(start..at + name.len(), &blank);
        }
    }
    out
}

/// Whether `text` asks for a count ("how many", "headcount", "number of").
pub fn asks_a_count(text: &str) -> bool {
    let lower = text.to_lowercase();
    vocabulary().is_ok_and(|v| {
        v.count_phrases
            .iter()
            .any(|p| find_phrase(&lower, p).is_some())
    })
}

fn without_unit_words(sentence: &str, v: &Vocabulary) -> String {
    let mut out = String::with_capacity(sentence.len());
    let mut rest = sentence;
    while let Some(open) = rest.find('(') {
        let Some(close) = rest[open..].find(')').map(|c| c + open) else {
            break;
        };
        let inside = rest[open..=close].to_lowercase();
        let unit_only = v.scales.iter().any(|s| holds_any(&inside, &s.phrases))
            || holds_any(&inside, &v.percent_phrases)
            || v.roundings.iter().any(|r| holds_any(&inside, &r.phrases))
            || inside.contains("usd")
            || inside.contains("in $")
            || v.units.group(&inside).is_some();
        // "SG&A spend (% of revenue)": a percentage of a named base is the quotient asked,
        // read on without its parentheses.
        static OF_A_BASE: LazyLock<Option<Regex>> = LazyLock::new(|| {
            Regex::new(r"(?:%|\bpercent|\bpercentage|\bshare|\bproportion)\s+of\s+[a-z]").ok()
        });
        let of_a_base = OF_A_BASE.as_ref().is_some_and(|re| re.is_match(&inside));
        out.push_str(&rest[..open]);
        if of_a_base {
            out.push_str(rest[open + 1..close].trim());
        } else if !unit_only {
            out.push_str(&rest[open..=close]);
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    // "… for 2023 in USD millions", "…, in $ billions": the unit, not the question.
    static UNIT_CLAUSE: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(
        || {
            regex::Regex::new(
            r"(?i),?\s*\b(?:in|expressed in|stated in)\s+(?:units\s+of\s+)?(?:usd|us\$|u\.s\.\s+dollars|\$)\s*(?:millions?|billions?|thousands?|mm|bn|mn|m|b|k|per\s+share)?\b|,?\s*\bin\s+(?:millions|billions|thousands)\s+of\s+(?:usd|dollars)\b",
        )
        .ok()
        },
    );
    let out = match UNIT_CLAUSE.as_ref() {
        // A space, not nothing: "gross profit in USD in FY 23" keeps "profit" and "in" apart.
        Some(re) => re.replace_all(&out, " ").into_owned(),
        None => out,
    };
    let out = without_scale_phrases(&out, v);
    let out = without_document_names(&out, v);
    let joined = out.split_whitespace().collect::<Vec<_>>().join(" ");
    // "shareholders (in USD billions)?" leaves "shareholders ?"; "Per the annual report,
    // what …" leaves ", what …".
    joined
        .trim_start_matches([',', ';', ':', ' '])
        .replace(" ?", "?")
        .replace(" .", ".")
        .replace(" ,", ",")
}

/// `text` with the statements it names blanked out: "the cash flow statement", "the
/// statement of earnings" say where to look, not what is asked (no cash, no earnings).
pub fn without_statement_names(text: &str) -> String {
    let Ok(v) = vocabulary() else {
        return text.to_string();
    };
    blank_statement_names(text, v, find_phrase).0
}

/// `text` with every statement name `find` finds in it blanked, and whether it found one.
fn blank_statement_names(
    text: &str,
    v: &Vocabulary,
    find: impl Fn(&str, &str) -> Option<usize>,
) -> (String, bool) {
    // ASCII lowercasing keeps byte offsets, so the names found mark the written text.
    let mut lower = text.to_ascii_lowercase();
    let mut out = text.to_string();
    let mut named = false;
    for names in &v.statements {
        for name in &names.names {
            while let Some(at) = find(&lower, name) {
                named = true;
                let blank = " ".repeat(name.len());
                lower.replace_range(at..at + name.len(), &blank);
                out.replace_range(at..at + name.len(), &blank);
            }
        }
    }
    (out, named)
}

impl Question {
    /// Read `text`.
    pub fn read(asked: &str) -> Result<Question, QuestionError> {
        let v = vocabulary()?;
        // "\frac{NI}{avg. equity}": TeX math as the plain arithmetic read below.
        let plain = tex::written_out(asked);
        let in_digits = spelled_years::years_in_digits(&plain);
        let written_out = shorthand::expanded(&spreadsheet::written_out(&in_digits), v);
        let text = written_out.as_str();
        let lower = text.to_lowercase();
        let mut statements: Vec<(usize, Statement)> = Vec::new();
        for s in &v.statements {
            if let Some(at) = s.names.iter().filter_map(|n| find_phrase(&lower, n)).min() {
                statements.push((at, s.statement));
            }
        }
        statements.sort_by_key(|(at, _)| *at);
        let scale = v
            .scales
            .iter()
            .filter_map(|s| {
                Some((
                    s.phrases
                        .iter()
                        .filter_map(|p| find_phrase(&lower, p))
                        .min()?,
                    s.scale,
                ))
            })
            .min_by_key(|(at, _)| *at)
            .map(|(_, s)| s)
            .or_else(|| v.units.scale_in(text));
        // "(format: $X.X billion)", "(X.XX% format)", "(as a multiple, X.XXx)": a mask's
        // placeholders after its point are the decimals asked.
        static MASK_DECIMALS: LazyLock<Option<Regex>> =
            LazyLock::new(|| Regex::new(r"(?:^|[\s$(\[])[xX#]+\.([xX#]+)(?:%|\b)").ok());
        let decimals = v
            .roundings
            .iter()
            .find(|r| holds_any(&lower, &r.phrases))
            .map(|r| r.decimals)
            .or_else(|| {
                let caps = MASK_DECIMALS.as_ref()?.captures(text)?;
                // "X.XXx": a lower-case x after capitals says "times".
                let places = match caps[1].contains('X') {
                    true => caps[1].trim_end_matches('x'),
                    false => &caps[1],
                };
                u32::try_from(places.len()).ok()
            });

        // (sentence kept, whether it asks)
        let mut content: Vec<(String, bool)> = Vec::new();
        let mut definition = None;
        let mut defined_in_brackets = false;
        let mut labelled_as_definition = false;
        for sentence in sentences(text) {
            // "Use this definition: operating income + D&A − capex paid in cash." (the
            // label may stand as a sentence of its own, split at its colon).
            let labelled = match labelled_as_definition {
                true => format!("definition: {sentence}"),
                false => sentence.clone(),
            };
            labelled_as_definition = false;
            match (labelled_definition(&labelled), &definition) {
                (Some(formula), None) if formula.is_empty() => {
                    labelled_as_definition = true;
                    continue;
                }
                (Some(formula), None) => {
                    definition = Some(Definition {
                        name: String::new(),
                        formula,
                    });
                    continue;
                }
                _ => {}
            }
            let Some(sentence) = without_label(&sentence, v) else {
                continue;
            };
            // "What was it [USD m]?": a bracket of unit words is how to write the answer.
            let sentence = v.units.without_unit_groups(&sentence);
            let (sentence, inline) = without_inline_definition(&sentence, v);
            if let (Some(formula), None) = (inline, &definition) {
                definition = Some(Definition {
                    name: String::new(),
                    formula,
                });
                defined_in_brackets = true;
            }
            // "AbbVie free cash flow (operating-cash-minus-capex version). We compute it as
            // …": a definition in a sentence of its own says more than a bracket's gloss.
            // (Unless it leaves spreadsheet cells the question never wrote out, "=C5/…".)
            let replaceable = |formula: &str| {
                definition.is_none() || (defined_in_brackets && !holds_cell_reference(formula))
            };
            if let Some((name, formula)) =
                definition_sentence(&sentence).filter(|(_, f)| replaceable(f))
            {
                definition = Some(Definition { name, formula });
                defined_in_brackets = false;
                continue;
            }
            let lower_sentence = sentence.to_lowercase();
            if let Some((at, marker)) = v
                .definition_markers
                .iter()
                .filter_map(|m| Some((find_phrase(&lower_sentence, m)?, m)))
                .min_by_key(|(at, _)| *at)
            {
                if !asks(&sentence) {
                    let name = without_lead_words(sentence[..at].trim().trim_end_matches(':'));
                    // A label moved after the sentence (" — Definition first") is no term.
                    let formula_text = sentence[at + marker.len()..]
                        .split(" — ")
                        .next()
                        .unwrap_or("");
                    let formula = without_instructions(
                        formula_text
                            .trim_start_matches([':', ' '])
                            .trim_end_matches(['.', ' '])
                            .trim(),
                    );
                    // "(negative = decline)" explains a sign: a remark in parentheses.
                    let remark = name.starts_with('(') && !name.contains(')');
                    if remark {
                        continue;
                    }
                    // "Formula to use -- A scaled by B." defines the metric asked, unnamed.
                    if !formula.is_empty() && replaceable(&formula) {
                        definition = Some(Definition {
                            name: name.to_string(),
                            formula: formula.to_string(),
                        });
                        defined_in_brackets = false;
                    }
                    continue;
                }
            }
            // A sentence that asks for a unit or a rounding ("Answer in USD millions.",
            // "Round to the nearest whole number.", "Use two decimals.") instructs too.
            // A sentence that names a period is the question's, whatever unit it asks
            // ("Boeing stockholders' equity, 2022, in $ mn.").
            let asks_unit_only = (v
                .roundings
                .iter()
                .any(|r| holds_any(&lower_sentence, &r.phrases))
                || v.scales
                    .iter()
                    .any(|s| holds_any(&lower_sentence, &s.phrases)))
                && periods::periods_in(&sentence).is_empty()
                // "Average the three figures (a figure in billions works).": a sentence that
                // opens with an operation asks it, whatever unit it names.
                && !v.operations.iter().any(|o| {
                    o.phrases.iter().any(|p| {
                        lower_sentence.strip_prefix(p.as_str()).is_some_and(|rest| {
                            rest.chars().next().is_none_or(|c| !c.is_alphanumeric())
                        })
                    })
                });
            // "Divide operating income by total revenue.", "Take gross profit as a share of
            // total revenue.": a definition of the metric asked, without its name.
            let signs_only = holds_any(&lower_sentence, &v.sign_conventions);
            // "We compute it as …", "Let's take …": the asker as the subject of the step.
            let subject = ["we ", "i ", "let's ", "let us ", "you "]
                .iter()
                .find(|w| lower_sentence.starts_with(**w))
                .map_or(0, |w| w.len());
            // "take Cisco's FY2024 tax provision and back out the FY2023 amount" works on
            // two years' figures: an operation asked, not a metric defined.
            let names_two_periods = periods::periods_in(&sentence).len() >= 2;
            if !asks(&sentence)
                && !asks_unit_only
                && !signs_only
                && !names_two_periods
                && lower_sentence.get(subject..).is_some_and(|rest| {
                    v.unnamed_definition_openers
                        .iter()
                        .any(|o| rest.starts_with(o.as_str()))
                        // "we do it as …", "I figure it as …"
                        || rest
                            .split_once(' ')
                            .is_some_and(|(verb, after)| {
                                verb.chars().all(char::is_alphabetic) && after.starts_with("it as ")
                            })
                })
            {
                if definition.is_none() || defined_in_brackets {
                    defined_in_brackets = false;
                    // "… -- that's the dividend payout % I'm after" is an aside.
                    let stated = sentence.get(subject..).unwrap_or(&sentence);
                    let formula = [" -- ", " — ", " – "]
                        .iter()
                        .fold(stated, |f, aside| f.split(aside).next().unwrap_or(f));
                    definition = Some(Definition {
                        name: String::new(),
                        formula: formula.trim_end_matches(['.', ' ']).to_string(),
                    });
                }
                continue;
            }
            // "Define net working capital as total current assets less total current
            // liabilities."
            // ASCII lower-casing keeps byte offsets, so they cut the sentence as written.
            let ascii_lower = sentence.to_ascii_lowercase();
            if let Some(rest) = ascii_lower.strip_prefix("define ") {
                let offset = "define ".len();
                // "Define it as the sum of A and B" holds no operation word: its first " as ".
                if let Some(at) = formula_after_as(rest).or_else(|| rest.find(" as ")) {
                    let name = sentence[offset..offset + at].trim();
                    let formula = sentence[offset + at + " as ".len()..]
                        .trim_end_matches(['.', ' '])
                        .trim();
                    if definition.is_none() && !name.is_empty() && !formula.is_empty() {
                        definition = Some(Definition {
                            name: capitalise(name),
                            formula: formula.to_string(),
                        });
                    }
                    continue;
                }
            }
            let instructs = holds_any_prefix(&lower_sentence, &v.instruction_markers)
                || names_only_sources(&sentence, v)
                || asks_unit_only
                || signs_only;
            let cleaned = without_unit_words(&without_source_clause(&sentence, v), v);
            // "I need Visa's net income for fiscal 2023 -- answer in $m.": a sentence that
            // names a figure and a period says what is asked, whatever it instructs besides.
            let names_figure_and_period = || {
                !periods::periods_in(&cleaned).is_empty()
                    && crate::finance::concepts::concept_table()
                        .is_ok_and(|t| !t.asked_in(&cleaned).is_empty())
            };
            if instructs && !asks(&cleaned) && !names_figure_and_period() {
                continue;
            }
            // A question sentence that also instructs ("Using the cash flow statement, answer
            // the following question: what …" split at its colon) keeps only its question.
            if !cleaned
                .trim_matches(|c: char| !c.is_alphanumeric())
                .is_empty()
            {
                let asking = asks(&cleaned);
                content.push((cleaned, asking));
            }
        }
        // Beside a sentence that asks, one that does not is the asker's context ("I'm
        // studying Boeing's annual report (Form 10-K).", "They should be in the 10-K."): its
        // words are neither searched for nor to be covered. Periods are still read from the
        // whole text when the question names none.
        // A sentence before the question that states what it asks about is its premise, kept
        // when the question points back at it ("Nike's gross margin fell in fiscal 2023.
        // What were the main drivers?").
        // A question that only asks for the figure named before it ("I need AbbVie's cash
        // at year-end. What does the 10-K say?", "… Can you confirm the figure?") asks what
        // that sentence names: everything is kept.
        let bare_asks = content.iter().any(|(_, asking)| *asking)
            && content
                .iter()
                .filter(|(_, asking)| *asking)
                .all(|(sentence, _)| only_asks_for_it(sentence, v));
        // A question that names no figure of its own ("What is the actual figure?",
        // "Change?", "Which one sits at the top of the list?") asks about the one its context
        // names ("Fact-checking an article that quotes AbbVie's share repurchases for fiscal
        // 2022."), unless it asks for a passage (the drivers of a premise).
        let refers_to_context = definition.is_none() && {
            let concepts = crate::finance::concepts::concept_table()
                .map_err(|e| QuestionError::BadVocabulary(e.to_string()))?;
            let names_a_figure = |sentence: &str| !concepts.asked_in(sentence).is_empty();
            let mut asking = content.iter().filter(|(_, asking)| *asking).peekable();
            asking.peek().is_some()
                && asking.all(|(sentence, _)| {
                    // "What does the 10-K actually give?" asks no business description.
                    !names_a_figure(sentence)
                        && passage::passage_kind_of(sentence, false).is_ok_and(|kind| {
                            matches!(kind, PassageKind::Figure | PassageKind::Business)
                        })
                })
                && content
                    .iter()
                    .any(|(sentence, asking)| !asking && names_a_figure(sentence))
        };
        if bare_asks || refers_to_context {
            content.iter_mut().for_each(|(_, asking)| *asking = true);
        }
        if let Some(first_asking) = content.iter().position(|(_, asking)| *asking) {
            let points_back = content.iter().any(|(sentence, asking)| {
                *asking && holds_any(&sentence.to_lowercase(), &v.referring_words)
            });
            let mut at = 0;
            content.retain(|(sentence, asking)| {
                let premise = points_back && at < first_asking && states_a_premise(sentence, v);
                at += 1;
                *asking || premise
            });
        }
        // A question that is all instruction (nothing asked) is read whole.
        // A label moved after its sentence ("… × 100. — Obligor review") is no operand.
        let definition = definition.map(|d| Definition {
            // "the facility agreement's definition of reinvestment rate" names the term.
            name: ["definition of ", "definition for "]
                .iter()
                .find_map(|w| {
                    let at = d.name.to_ascii_lowercase().rfind(w)? + w.len();
                    Some(d.name[at..].to_string())
                })
                .unwrap_or(d.name),
            formula: d
                .formula
                .split(" — ")
                .next()
                .unwrap_or("")
                .trim_end_matches(['.', ' '])
                .to_string(),
        });
        let content = match content.is_empty() {
            true => text.split_whitespace().collect::<Vec<_>>().join(" "),
            false => content
                .into_iter()
                .map(|(sentence, _)| sentence)
                .collect::<Vec<_>>()
                .join(" "),
        };
        // "…, measured as the midpoint of the opening and closing figures" says how a balance
        // is averaged: an operation, not a metric of line items.
        let (definition, averaging_described) = match definition {
            Some(d)
                if describes_averaging(&d.formula, v)
                    || says_only_to_average(&d.formula)
                    || (names_an_average(&d.name)
                        && names_both_ends(&d.formula.to_lowercase())) =>
            {
                (None, true)
            }
            d => (d, false),
        };
        let content_lower = content.to_lowercase();
        // The period may stand in the instruction around the question ("Imagine you are an
        // auditor tying out AbbVie's fiscal year 2022 statements. What amount …?").
        let periods = match periods::periods_in(&content) {
            found if found.is_empty() => periods::periods_in(text),
            found => found,
        };
        let periods = with_the_year_compared_against(periods, &content_lower, v);
        let percent =
            holds_any(&content_lower, &v.percent_phrases) || holds_any(&lower, &v.percent_phrases);
        // "From the year before to the latest year": years named relative to the filing's.
        let relative_years = match periods.is_empty() {
            true => periods::relative_years(&content_lower, v),
            false => Vec::new(),
        };
        let named_periods = periods.len().max(relative_years.len());
        let operation = v
            .operations
            .iter()
            .find(|o| {
                holds_any(&content_lower, &o.phrases)
                    && (named_periods >= o.needs_periods
                        || (o.operation == Operation::Average
                            && periods::spanned_years(&content, &periods).is_some()))
            })
            .map_or(Operation::Value, |o| o.operation);
        // "Weighted-average shares" names a line item, not a mean of periods; "average total
        // assets for FY2023" is the mean of the year's opening and closing balances.
        let operation = match operation {
            Operation::Average if holds_any(&content_lower, &v.not_average_phrases) => {
                Operation::Value
            }
            Operation::Value
                if averaging_described
                    || (definition.is_none()
                        && averages_two_balances(&content_lower, &periods, v)) =>
            {
                Operation::Average
            }
            // "Half the sum of its inventories at the FY2022 and FY2023 year-ends".
            Operation::Value
                if definition.is_none()
                    && periods.len() == 2
                    && v.averages_balances(&content_lower) =>
            {
                Operation::Average
            }
            op => op,
        };
        // "On average across its three most recent fiscal years (2021–2023), what percent of
        // revenue …": a mean over a span of three years or more, not a growth between two.
        let operation = match operation {
            Operation::Growth | Operation::Change
                if periods::spanned_years(&content, &periods).is_some_and(|y| y.len() >= 3)
                    && v.operations.iter().any(|o| {
                        o.operation == Operation::Average && holds_any(&content_lower, &o.phrases)
                    }) =>
            {
                Operation::Average
            }
            op => op,
        };
        // "Sales / avg. net PP&E", "revenue to average assets": the average is the
        // denominator's balance, not a mean the question asks of the figure.
        static AVERAGED_DENOMINATOR: LazyLock<Option<Regex>> = LazyLock::new(|| {
            Regex::new(
                r"(?:/|÷|\bover\b|\bdivided\s+by\b|\bto\b)\s*(?:the\s+)?(?:avg\.?|average|mean)\b",
            )
            .ok()
        });
        let operation = match operation {
            Operation::Average
                if periods::spanned_years(&content, &periods).is_none()
                    && periods.len() < 2
                    && AVERAGED_DENOMINATOR
                        .as_ref()
                        .is_some_and(|re| re.is_match(&content_lower)) =>
            {
                Operation::Value
            }
            op => op,
        };
        // "Take its FY2024 tax provision and back out the FY2023 amount": one figure asked of
        // two years, in words of no operation we know, asks how it moved between them (in
        // percent when a percentage is asked, below).
        // Two years in a list ("the 2023 and 2024 columns", "(2023, 2024)") name where to
        // look, not a movement.
        let operation = match operation {
            Operation::Value
                if definition.is_none()
                    && !averaging_described
                    && periods.len() == 2
                    && !periods_listed(&content, &periods)
                    && periods::spanned_years(&content, &periods).is_none_or(|y| y.len() <= 2) =>
            {
                Operation::Change
            }
            op => op,
        };
        // "Growth rate (%) = (fiscal 2022 value - fiscal 2021 value) / fiscal 2021 value x 100.
        // Apply it to Boeing's revenue.": the definition is of the operation, over whatever
        // figure the question names, not a metric of line items.
        // "Compute (fiscal 2023 value − fiscal 2022 value) ÷ fiscal 2022 value", "take X for
        // FY23, deduct the FY22 amount": an operation spelled out over the periods' values,
        // known by what it computes. The words of a definition that spells one out are the
        // question's (they name the figure).
        let spelled_out = spelled_out_operation(definition.as_ref(), &content, text);
        let content = match (&spelled_out, &definition) {
            (Some(_), Some(d)) => format!("{content} {}", d.formula),
            _ => content,
        };
        let defines_operation = spelled_out.map(|(op, _)| op).or_else(|| {
            let d = definition.as_ref()?;
            let name = d.name.to_lowercase();
            let over_values = d.formula.to_lowercase().contains("value");
            match (
                over_values,
                name.contains("growth"),
                name.contains("change"),
            ) {
                (true, true, _) => Some(Operation::Growth),
                (true, false, true) if name.contains('%') || name.contains("percent") => {
                    Some(Operation::Growth)
                }
                (true, false, true) => Some(Operation::Change),
                _ => None,
            }
        });
        let (operation, percent, definition) = match defines_operation {
            Some(op) => (op, percent || op == Operation::Growth, None),
            None => (operation, percent, definition),
        };
        // A change asked in percent is a growth; a growth asked in money ("year-over-year
        // dollar growth", "in dollars, how much did it grow") is a change in amount.
        let operation = match (operation, percent) {
            (Operation::Change, true) => Operation::Growth,
            (Operation::Growth, false)
                if v.money_words
                    .iter()
                    .any(|w| find_phrase(&lower, w).is_some())
                    && find_phrase(&content_lower, "rate").is_none() =>
            {
                Operation::Change
            }
            (op, _) => op,
        };
        let spanned_years = match operation {
            Operation::Average | Operation::Cagr => periods::spanned_years(&content, &periods),
            _ => None,
        };
        let relative_year = relative_years.last().copied();
        // A question that defines its metric asks the figure, unless it asks yes or no.
        // "Sort A and B by current ratio (liquidity), largest to smallest" ranks figures:
        // a comparison asking which is higher judges neither company.
        let ranks = comparison_direction(&content).is_some();
        // "How did equity develop from FY22 to FY23, in millions?": a change between two
        // periods asked with a unit, a rounding or a figure's words is that change, not a
        // verdict on a trend.
        // ("What is the trend in operating margin over 2021-2023?" spans three years and
        // asks no unit: a verdict.)
        let asks_the_change = operation != Operation::Value
            && periods.len().max(relative_years.len()) == 2
            && periods::spanned_years(&content, &periods).is_none_or(|years| years.len() <= 2)
            && (scale.is_some() || decimals.is_some() || percent);
        let judgment = match (&definition, passage::asked_sense(&content)) {
            _ if ranks || asks_the_change => None,
            (Some(_), None) => None,
            _ => passage::judgment_of(&content)?,
        };
        // "Ahead of the bond deal, Nike's revenue in FY23?": a line item asked of a period is
        // its figure, whatever the words around it say of events.
        let names_a_figure_of_a_period = !periods.is_empty()
            && crate::finance::concepts::concept_table()
                .is_ok_and(|t| t.asked_in(&content).iter().any(|c| !c.is_metric()));
        let passage = match passage_of(&content, ranks)? {
            PassageKind::Judgment if asks_the_change => PassageKind::Figure,
            // "Boeing's revenue from all lines of business in fiscal 2023" asks no account of
            // the business either.
            PassageKind::Event | PassageKind::Business if names_a_figure_of_a_period => {
                PassageKind::Figure
            }
            kind => kind,
        };
        let closing_text = content.clone();
        let question = Question {
            text: asked.to_string(),
            passage,
            judgment,
            content,
            periods,
            spanned_years,
            relative_year,
            relative_years,
            // "cost of sales / ((opening inventory + closing inventory) / 2)": a closing
            // balance beside an opening one is half of an average, no year-end basis.
            year_end_balances: (holds_any(&content_lower, &v.year_end_basis_phrases)
                || crate::finance::concepts::concept_table()
                    .is_ok_and(|t| crate::finance::wording::closes_a_balance(t, &closing_text)))
                && !v.averages_balances(&content_lower)
                && !crate::lexicon::lexicon()
                    .concepts
                    .opening_balance_words
                    .iter()
                    .any(|w| find_phrase(&content_lower, w).is_some()),
            operation,
            scale,
            percent,
            decimals,
            statements: statements.into_iter().map(|(_, s)| s).collect(),
            definition,
        };
        tracing::debug!(reading = ?question, "question read");
        Ok(question)
    }

    /// The latest period named (the one a value is asked for).
    pub fn latest_period(&self) -> Option<&AskedPeriod> {
        self.periods
            .iter()
            .max_by_key(|p| (p.year, p.half, p.quarter))
    }

    /// The earliest period named (a change's base).
    pub fn earliest_period(&self) -> Option<&AskedPeriod> {
        self.periods
            .iter()
            .min_by_key(|p| (p.year, p.half, p.quarter))
    }

    /// Months of the period asked, when one is named.
    pub fn months(&self) -> Option<u32> {
        self.latest_period().map(AskedPeriod::months)
    }

    /// Whether the question asks for figures to be combined across periods.
    pub fn combines_periods(&self) -> bool {
        self.operation != Operation::Value
    }

    /// What the reading found beyond the question's words, for a model's prompt: "period
    /// fiscal 2024; operation growth; in millions; 2 decimals; defined as: …". `None` when
    /// it found nothing to add.
    pub fn summary(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.periods.is_empty() {
            let periods: Vec<String> = self.periods.iter().map(AskedPeriod::label).collect();
            parts.push(format!("period {}", periods.join(", ")));
        }
        if self.operation != Operation::Value {
            parts.push(format!("operation {:?}", self.operation).to_lowercase());
        }
        if let Some(scale) = self.scale {
            parts.push(format!("in {}s", scale.word()));
        }
        if self.percent {
            parts.push("in percent".to_string());
        }
        if let Some(d) = self.decimals {
            parts.push(format!("{d} decimal(s)"));
        }
        if let Some(d) = &self.definition {
            parts.push(format!("{} defined as: {}", d.name, d.formula));
        }
        if self.passage != PassageKind::Figure {
            parts.push(format!(
                "answered by: {}",
                self.passage.as_str().replace('_', " ")
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// Whether the question asks for a count ("How many people…?", "Compare the
    /// headcounts of …").
    pub fn asks_a_count(&self) -> bool {
        asks_a_count(&self.content)
    }

    /// What search should look for: the content, and the operands of the metric the
    /// question defines ("Cisco's NM% (net income over revenue)" needs the rows of net
    /// income and revenue, which its content no longer names).
    pub fn search_text(&self) -> String {
        match &self.definition {
            Some(d) if !self.content.contains(&d.formula) => {
                format!("{} {}", self.content, d.formula)
            }
            _ => self.content.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Question {
        Question::read(text).unwrap()
    }

    #[test]
    fn search_looks_for_the_operands_of_a_metric_the_question_defines() {
        let q = read("Cisco's NM% (net income over revenue) for fiscal 2024?");
        assert!(q.search_text().contains("net income over revenue"), "{q:?}");
        let q = read("What was Cisco's revenue in fiscal 2024?");
        assert_eq!(q.search_text(), q.content);
    }

    #[test]
    fn one_figure_of_two_years_asks_its_movement_unless_the_years_are_a_list() {
        // Two years apart, each with words of its own, in words of no known operation.
        let q = read("FP&A question: take Cisco's FY2024 income tax provision charged and back out the FY2023 amount -- what's left (a millions figure is fine)?");
        assert_eq!(q.operation, Operation::Change, "{q:?}");
        assert!(q.definition.is_none(), "{q:?}");
        let q = read("Palantir's asset total -- percent expansion or contraction from the fiscal 2022 close to the fiscal 2023 close (state it as a %)?");
        assert_eq!(q.operation, Operation::Growth);
        // Two years in a list say where to look.
        let q = read(
            "What interest expense did Cisco report in the later of its FY2023 and FY2024 columns?",
        );
        assert_eq!(q.operation, Operation::Value);
        let q = read("Cisco's dividends, columns (2023, 2024): the later one?");
        assert_eq!(q.operation, Operation::Value);
    }

    #[test]
    fn an_operation_its_steps_and_its_format_are_read_wherever_they_stand() {
        // A sentence that opens with an operation asks it, whatever unit it names.
        let q = read("Problem 5: GM reported operating profit line (operating income) for FY2021, FY2022 and FY2023. Average the three figures (a figure in billions works).");
        assert_eq!(q.operation, Operation::Average);
        assert_eq!(q.periods.len(), 3);
        // A question after a spaced dash is a sentence of its own.
        let q = read("Subject: Intel, SG&A vs revenue. Over the period from December 27 of 2020 to December 30 of 2023 (fiscal 2021 to fiscal 2023), take SG&A dollars as a percent of revenue year by year -- what's the average of the three?");
        assert_eq!(q.operation, Operation::Average);
        assert_eq!(
            q.definition.map(|d| d.formula),
            Some("SG&A dollars as a percent of revenue year by year".to_string())
        );
        // A source clause naming a figure and its years is what is asked.
        let q = read("Problem 4: Given UnitedHealth's asset total on the balance sheet at the end of fiscal 2022 and at the end of fiscal 2023, find the average balance (show it in $ millions).");
        assert!(q.content.contains("asset total"), "{q:?}");
        // The asker as the subject of a step defines the metric; a bracket's gloss yields
        // to a sentence that defines it.
        let q = read("Subject: AbbVie free cash flow (operating-cash-minus-capex version). We compute it as net cash from operating activities → − capital expenditures. What's the result in fiscal 2023?");
        let formula = q.definition.map(|d| d.formula).unwrap_or_default();
        assert!(
            formula.ends_with("net cash from operating activities → − capital expenditures"),
            "{formula}"
        );
        let q = read("Intel interest service cover from operating income (x) in fiscal 2023? we do it as operating income → ÷ interest expense");
        assert!(q.definition.is_some(), "{q:?}");
        // A label moved after the sentence is no operand; "definition of X" names X.
        let q = read("Obligor review: the facility agreement's definition of reinvestment rate (capex over revenue) is capital expenditures → ÷ revenue → ×100. Where did J&J stand in fiscal 2023?");
        let d = q.definition.unwrap();
        assert_eq!(d.name.to_lowercase(), "reinvestment rate");
        assert!(d.formula.ends_with("×100"), "{d:?}");
        // The balance carried into a year is the prior year-end's.
        let q = read("Compute GE's quick ratio (inventories backed out) going into fiscal 2024.");
        assert_eq!(q.latest_period().map(|p| p.year), Some(2023));
        // A format mask's places are the decimals asked.
        assert_eq!(
            read("Total assets in fiscal 2023 (format: $X.X billion)?").decimals,
            Some(1)
        );
        assert_eq!(
            read("Quick ratio in fiscal 2023 (as a multiple, X.XXx)?").decimals,
            Some(2)
        );
        assert_eq!(
            read("OIBDA margin in fiscal 2023 (X.XX% format)?").decimals,
            Some(2)
        );
        assert_eq!(
            read("Total assets in fiscal 2023 (format: $X.X billion)?").scale,
            Some(Scale::Billions)
        );
    }

    #[test]
    fn a_new_authors_structures_are_read() {
        // A year in words is that year.
        let q = read("Compute it for General Motors in fiscal year twenty twenty-three.");
        assert_eq!(q.periods.first().map(|p| p.year), Some(2023));
        // A definition that only says to take the mean of the years is the average.
        let q = read("Across FY2021 to FY2023, how much R&D expense did RTX record, taking the simple three-year mean?");
        assert_eq!(q.operation, Operation::Average);
        assert!(q.definition.is_none(), "{q:?}");
        // An averaging definition with the context put after it.
        let q = read("Quiz key: average stockholders' equity for RTX over fiscal year 2023, i.e. (opening balance + closing balance) / 2?");
        assert_eq!(q.operation, Operation::Average);
        // A definition before a dash and the question after it.
        let q = read("okay so operating_margin_pct is 100 * operating_income / revenue -- what was it for Meta Platforms last fiscal year (FY2023)");
        let d = q.definition.expect("the definition");
        assert_eq!(d.formula, "100 * operating income / revenue");
        // A line item of a period is its figure, whatever "business" says.
        let q = read("What was Boeing's revenue from all lines of business in fiscal 2023?");
        assert_eq!(q.passage, PassageKind::Figure);
        // A query's ordering is the direction asked.
        assert_eq!(
            comparison_direction(
                "SELECT company WHERE company IN (RTX, GE) ORDER BY \"current ratio\" DESC LIMIT 1"
            ),
            Some(true)
        );
        assert_eq!(
            comparison_direction(
                "SELECT company ORDER BY \"net inventory balance\" ASC LIMIT 1 -- which name?"
            ),
            Some(false)
        );
        assert_eq!(
            comparison_direction("R&D share of sales (%) in fiscal 2023, AbbVie vs Colgate-Palmolive: the lower one is?"),
            Some(false)
        );
    }

    #[test]
    fn instructions_are_set_aside_and_what_they_ask_is_kept() {
        let q = read("What is the FY2024 capital expenditure amount (in USD millions) for Apple? Give a response to the question by relying on the details shown in the cash flow statement.");
        assert_eq!(
            q.content,
            "What is the FY2024 capital expenditure amount for Apple?"
        );
        assert_eq!(q.statements, vec![Statement::CashFlows]);
        assert_eq!(q.scale, Some(Scale::Millions));
        assert_eq!(q.operation, Operation::Value);
        assert_eq!(q.periods[0].year, 2024);

        let q = read("You are an investment banker and your only resource(s) to answer the following question is (are): the statement of financial position and the cash flow statement. Here's the question: what is the FY2015 operating cash flow ratio for Adobe? Operating cash flow ratio is defined as: cash from operations / total current liabilities. Round your answer to two decimal places.");
        assert_eq!(
            q.content,
            "what is the FY2015 operating cash flow ratio for Adobe?"
        );
        assert_eq!(q.statements, vec![Statement::Balance, Statement::CashFlows]);
        assert_eq!(q.decimals, Some(2));
        let d = q.definition.unwrap();
        assert_eq!(d.name, "Operating cash flow ratio");
        assert_eq!(
            d.formula,
            "cash from operations / total current liabilities"
        );

        let q = read("Answer the following question as if you are an equity research analyst and have lost internet connection so do not have access to financial metric providers. According to the details clearly outlined within the P&L statement, what is the FY2022 net income attributable to shareholders (in USD billions)?");
        assert_eq!(
            q.content,
            "what is the FY2022 net income attributable to shareholders?"
        );
        assert_eq!(q.statements, vec![Statement::Income]);
        assert_eq!(q.scale, Some(Scale::Billions));

        let q = read("Taking the P&L statement at face value, what was Cisco's R&D expense in fiscal year 2022? Express the figure in USD billions. Round to the nearest whole number.");
        assert_eq!(
            q.content,
            "what was Cisco's R&D expense in fiscal year 2022?"
        );
        assert_eq!((q.scale, q.decimals), (Some(Scale::Billions), Some(0)));
        let q = read("Using the balance sheet as your only source, report GE's total current assets for fiscal year 2023 in USD billions.");
        assert_eq!(
            q.content,
            "report GE's total current assets for fiscal year 2023."
        );
        let q = read("You are an investment banker and your only resource(s) to answer the following question is (are): the P&L statement. Here's the question: what is the fiscal 2023 net income margin for Colgate-Palmolive Company?");
        assert_eq!(
            q.content,
            "what is the fiscal 2023 net income margin for Colgate-Palmolive Company?"
        );
        let q = read("Using the cash flow statement, answer the following question to the best of your abilities: how much did Intel pay in dividends in FY2023?");
        assert_eq!(q.content, "how much did Intel pay in dividends in FY2023?");
    }

    #[test]
    fn the_askers_context_the_filings_name_and_units_anywhere_are_not_what_is_asked() {
        // A sentence beside the question that asks nothing is the asker's context.
        let q = read("I'm studying Boeing's annual report (Form 10-K). Based on the consolidated statement of cash flows, what was the operating cash flow for FY 2023, in $ millions? No decimals, please.");
        assert_eq!(q.content, "what was the operating cash flow for FY 2023?");
        assert_eq!((q.scale, q.decimals), (Some(Scale::Millions), Some(0)));
        let q = read("Can you confirm what Nike's dividend payments were in 2024? They should be in the 10-K.");
        assert_eq!(
            q.content,
            "Can you confirm what Nike's dividend payments were in 2024?"
        );
        // Its period is still read when the question names none.
        let q =
            read("I'm updating my model for fiscal 2023. What were Intel's capital expenditures?");
        assert_eq!(q.content, "What were Intel's capital expenditures?");
        assert_eq!(q.periods[0].year, 2023);
        // A question pointing back at a stated fact reads it as its premise.
        let q = read("Nike's gross margin fell in fiscal 2023. What were the main drivers?");
        assert_eq!(
            q.content,
            "Nike's gross margin fell in fiscal 2023. What were the main drivers?"
        );
        let q = read("Coca-Cola's net operating revenues fell 15% in 2017. Was this a sign of weakening demand?");
        assert!(q
            .content
            .starts_with("Coca-Cola's net operating revenues fell 15%"));
        // Context that states nothing stays context, even when the question says "it".
        let q =
            read("I'm studying Boeing's annual report. What total assets did it report for 2022?");
        assert_eq!(q.content, "What total assets did it report for 2022?");
        // A scale written anywhere in a terse query is the unit, not a word asked.
        let q = read("Total assets RTX FY 2023 USD mn");
        assert_eq!(q.content, "Total assets RTX FY 2023");
        assert_eq!(q.scale, Some(Scale::Millions));
        let q = read("Cisco capex FY23 $bn");
        assert_eq!(q.content, "Cisco capex FY23");
        assert_eq!(q.scale, Some(Scale::Billions));
        // The filing's own name says where to look.
        let q = read("What does Walmart's Form 10-K show for EPS (diluted) in fiscal '24?");
        assert_eq!(
            q.content,
            "What does Walmart's show for EPS (diluted) in fiscal '24?"
        );
        let q = read(
            "Per the annual report, what did P&G's total liabilities come to at FY'23 year-end?",
        );
        assert_eq!(
            q.content,
            "what did P&G's total liabilities come to at FY'23 year-end?"
        );
        // A rounding instruction is not an unnamed definition ("Use …").
        let q = read("What was Cisco's net cash from operations for 2023? Use two decimals.");
        assert_eq!(q.decimals, Some(2));
        assert!(q.definition.is_none());
    }

    #[test]
    fn a_count_is_asked_by_how_many_and_by_headcount() {
        assert!(read("How many people does Boeing employ?").asks_a_count());
        assert!(read("Compare the headcounts of Visa and Palantir").asks_a_count());
        assert!(read("What was the number of employees at year end?").asks_a_count());
        assert!(!read("How much did Visa spend on capex in FY2023?").asks_a_count());
    }

    #[test]
    fn growth_and_change_are_read_in_their_many_wordings() {
        let q = read("Growth rate (%) = (fiscal 2022 value - fiscal 2021 value) / fiscal 2021 value x 100. Apply it to Boeing's revenue. Express as a % with one decimal.");
        assert_eq!(q.operation, Operation::Growth);
        assert!(q.definition.is_none());
        assert_eq!(q.periods.len(), 2);
        let q = read("Lender review: how did Colgate's net cash from operating activities move in percentage terms from 2021 to 2022?");
        assert_eq!(q.operation, Operation::Growth);
        let q = read("Exam-style: take Colgate's diluted earnings per share for FY2023, subtract the FY2022 figure, and divide by the FY2022 figure. Express the result as a percentage, to one decimal place.");
        assert_eq!(q.operation, Operation::Growth);
        let q = read("Exam-style: subtract Boeing's fiscal 2021 turnover from its fiscal 2022 turnover. Give the difference in $ millions.");
        assert_eq!(q.operation, Operation::Change);
        let q = read("JNJ net earnings change FY2021 to FY2022, USD bn?");
        assert_eq!(q.operation, Operation::Change);
        // A year-over-year change asked in money is the change, in percent the growth.
        let q = read("Compute the year-over-year change in GE's net cash from operating activities (FY2023 minus FY2022) in thousands.");
        assert_eq!(q.operation, Operation::Change);
        let q = read("What was the year-over-year change in Apple's revenue from FY2022 to FY2023, as a percentage?");
        assert_eq!(q.operation, Operation::Growth);
        let q = read("What is Adobe's year-over-year change in unadjusted operating income from FY2015 to FY2016 (in units of percents and round to one decimal place)?");
        assert_eq!(q.operation, Operation::Growth);
    }

    #[test]
    fn a_comparison_asks_its_verdict_however_it_names_the_choice() {
        assert_eq!(
            comparison_direction("Identify whichever of RTX and Nike reported the higher capex."),
            Some(true)
        );
        assert_eq!(
            comparison_direction(
                "Name the company with the smaller asset turnover in 2023, choosing between Palantir and RTX."
            ),
            Some(false)
        );
        assert_eq!(
            comparison_direction("What was Apple's revenue in 2024?"),
            None
        );
        assert_eq!(
            comparison_direction(
                "Sort GM and Tesla by EBITDA margin for 2023, smallest to largest."
            ),
            Some(false)
        );
        assert_eq!(
            comparison_direction("Is Intel's net margin greater than RTX's in fiscal '23?"),
            Some(true)
        );
        // Verbs of coming out ahead or falling behind.
        assert_eq!(
            comparison_direction("On current ratio, which of Nike and Apple edges out the other?"),
            Some(true)
        );
        assert_eq!(
            comparison_direction("Which trails on ROE in FY23: GM or Ford?"),
            Some(false)
        );
    }

    #[test]
    fn a_share_of_a_figure_stays_in_the_definition_and_units_leave_it() {
        let formula = |text: &str| read(text).definition.map(|d| d.formula);
        assert_eq!(
            formula("What was UnitedHealth's EBITDA margin for 2023, calculated as operating income plus D&A, as a percentage of revenue, to one decimal place?").as_deref(),
            Some("operating income plus D&A, as a percentage of revenue")
        );
        assert_eq!(
            formula("Find Boeing's DSO for 2023; by DSO I mean year-end receivables as a fraction of revenue, multiplied by 365, measured in days.").as_deref(),
            Some("year-end receivables as a fraction of revenue, multiplied by 365")
        );
        assert_eq!(
            formula("Find Nike's DSO for 2024; by DSO I mean receivables in the numerator and revenue in the denominator, multiplied by 365, in days of sales.").as_deref(),
            Some("receivables in the numerator and revenue in the denominator, multiplied by 365")
        );
    }

    #[test]
    fn a_question_that_only_asks_for_the_figure_keeps_the_sentence_naming_it() {
        let q = read("I work in investor relations at AbbVie and need to double-check our long-term debt as of 2022-12-31 ($B). What does the 10-K say?");
        assert!(q.content.contains("long-term debt"), "{}", q.content);
        let q = read("Journalist on deadline -- need Boeing's cash at the last reported year-end. Can you confirm the figure?");
        assert!(q.content.contains("Boeing's cash"), "{}", q.content);
        // A question of its own leaves the context aside.
        let q = read("I'm studying Boeing's annual report. What was its revenue in 2023?");
        assert_eq!(q.content, "What was its revenue in 2023?");
    }

    #[test]
    fn a_parenthesised_group_of_a_formula_is_no_aside() {
        let q = read("What was Walmart's quick ratio for fiscal 2024? Quick ratio is defined as (current assets minus inventories) divided by current liabilities.");
        assert_eq!(
            q.definition.map(|d| d.formula).as_deref(),
            Some("(current assets minus inventories) divided by current liabilities")
        );
    }

    #[test]
    fn a_definition_given_as_the_askers_name_for_a_measure_is_read() {
        let q = read("For Intel in 2023, please work out the number we call cash cover: operating cash flow per dollar of current liabilities (two decimals).");
        let d = q.definition.expect("a definition");
        assert_eq!(
            d.formula,
            "operating cash flow per dollar of current liabilities"
        );
        assert!(q.content.ends_with("cash cover?"), "{}", q.content);
        let q = read("My definition we use for net working capital is total current assets less total current liabilities. What was it for Nike in 2024?");
        assert_eq!(
            q.definition.map(|d| (d.name, d.formula)),
            Some((
                "Net working capital".to_string(),
                "total current assets less total current liabilities".to_string()
            ))
        );
    }

    #[test]
    fn a_sentence_labelled_as_the_definition_to_use_defines() {
        let q = read("What was Walmart's cash EBITDA in fiscal 2024? Use this definition: operating income + D&A − capex paid in cash.");
        assert_eq!(
            q.definition.map(|d| d.formula).as_deref(),
            Some("operating income + D&A − capex paid in cash")
        );
        let q = read("Nike's inventory turns in fiscal 2024, as cost of sales / ((opening inventory + closing inventory) / 2)?");
        assert!(!q.year_end_balances);
    }

    #[test]
    fn an_operation_over_labelled_figures_is_read() {
        let q = read("Two figures from Nike's 10-K: (a) revenue for FY2024, (b) revenue for FY2023. What is (a) minus (b)?");
        assert_eq!(q.operation, Operation::Change);
        let q = read("Take (a) Nike's revenue in fiscal 2024 and (b) its revenue in fiscal 2023; what is (a) / (b) - 1, in percent?");
        assert_eq!(q.operation, Operation::Growth);
    }

    #[test]
    fn a_percentage_of_a_named_base_stays_in_the_question() {
        let q = read("How big was the R&D bill (% of sales) at Cisco in 2024?");
        assert!(q.percent);
        assert!(q.content.contains("% of sales"), "{}", q.content);
        let q = read("How big was the R&D bill at Cisco in 2024 (in %)?");
        assert!(!q.content.contains('%'), "{}", q.content);
    }

    #[test]
    fn definitions_stated_as_the_askers_practice_are_read() {
        let formula = |text: &str| read(text).definition.map(|d| d.formula);
        assert_eq!(
            formula("Our credit team works out net margin as net income as a fraction of revenue, in % -- on that basis, what was Colgate's figure for 2023?").as_deref(),
            Some("net income as a fraction of revenue")
        );
        let q = read("Our credit team works out net margin as net income as a fraction of revenue, in % -- on that basis, what was Colgate's figure for 2023?");
        assert!(
            q.content.starts_with("net margin — on that basis"),
            "{}",
            q.content
        );
        assert_eq!(
            formula("Going by net income as a fraction of the mean of beginning and year-end shareholders' equity, in %, where does Colgate's ROE end up for 2023?").as_deref(),
            Some("net income as a fraction of the mean of beginning and year-end shareholders' equity")
        );
        assert_eq!(
            formula("Find Palantir's OCF ratio in 2023; by OCF ratio I mean operating cash flow as a multiple of year-end current liabilities, to the nearest 0.1x.").as_deref(),
            Some("operating cash flow as a multiple of year-end current liabilities")
        );
        assert_eq!(
            formula("The textbook formula for cash coverage is operating cash flow as a multiple of current liabilities. Apply it to RTX for 2023.").as_deref(),
            Some("operating cash flow as a multiple of current liabilities")
        );
        assert_eq!(
            formula("Applying the definition 'operating income plus D&A, then net of cash paid for PP&E', what EBITDA after capex does Boeing show for 2023?").as_deref(),
            Some("operating income plus D&A, then net of cash paid for PP&E")
        );
        let q = read("Note -- ROA on mean assets here means net income in the numerator and total assets in the denominator, expressed in %. P&G's figure in 2024?");
        let d = q.definition.unwrap();
        assert_eq!(
            (d.name.as_str(), d.formula.as_str()),
            (
                "ROA on mean assets",
                "net income in the numerator and total assets in the denominator"
            )
        );
    }

    #[test]
    fn changes_and_growths_are_read_however_the_direction_and_unit_are_worded() {
        let op = |text: &str| read(text).operation;
        // Asked in money, a growth is a change in amount; asked in percent, a change is a
        // growth.
        assert_eq!(op("Year-over-year dollar growth in Nike's inventories, May 31st, 2023 to May 31st, 2024?"), Operation::Change);
        assert_eq!(
            op("In dollars, how much did P&G's income tax expense grow from FY2023 to FY2024?"),
            Operation::Change
        );
        assert_eq!(
            op("What was Apple's revenue growth from FY2023 to FY2024?"),
            Operation::Growth
        );
        assert_eq!(
            op("How much bigger or smaller, in %, was Cisco's diluted EPS in 2024 than in 2023?"),
            Operation::Growth
        );
        assert_eq!(op("By how many percent did Intel's long-term debt at December 30th, 2023 exceed the level at December 31st, 2022?"), Operation::Growth);
        assert_eq!(op("Between end-FY2022 and end-FY2023, did Meta's equity build up or run down, and by what amount?"), Operation::Change);
        // A named year against the one before it is a comparison of both.
        let q =
            read("How much did Boeing's gross profit change in fiscal 2023 versus the prior year?");
        assert_eq!(
            (
                q.operation,
                q.periods.iter().map(|p| p.year).collect::<Vec<_>>()
            ),
            (Operation::Change, vec![2022, 2023])
        );
        assert_eq!(
            read("What was Boeing's gross profit in the prior fiscal year (FY2022)?")
                .periods
                .len(),
            1
        );
        // A sign convention instructs; it defines nothing.
        let q = read("Compared to FY2022, how much extra revenue did Colgate record in FY2023? Use a negative number if it was less.");
        assert_eq!(q.operation, Operation::Change);
        assert_eq!(q.definition, None);
        // A purpose in lower case before the request is the asker's.
        assert_eq!(
            read("For the equity note I need RTX's receivables growth from 2022 to 2023.").content,
            "I need RTX's receivables growth from 2022 to 2023."
        );
        assert!(read("For Apple, can you give me FY2023 revenue?")
            .content
            .starts_with("For Apple"));
        // "Liabilities" holds "abilities": its colon ends no instruction.
        assert!(
            read("Cisco's total current liabilities, FY2024 on FY2023: % growth?")
                .content
                .starts_with("Cisco's total current liabilities")
        );
        // A purpose label is the asker's; one that names a company is the subject's.
        assert!(read("For Apple: what was revenue in 2024?")
            .content
            .contains("Apple"));
        assert_eq!(
            read("For my earnings preview: how much did Apple's R&D grow in fiscal 2024 (vs. fiscal 2023)?").content,
            "how much did Apple's R&D grow in fiscal 2024 (vs. fiscal 2023)?"
        );
        assert_eq!(
            read("For our CFO-office benchmarking deck: GE's EPS after dilution, fiscal '23 less fiscal '22?").content,
            "GE's EPS after dilution, fiscal '23 less fiscal '22?"
        );
        // Ordinal dates; a year that ends in January's first week is named for the year
        // before.
        let years = |text: &str| {
            read(text)
                .periods
                .iter()
                .map(|p| p.year)
                .collect::<Vec<_>>()
        };
        assert_eq!(years("J&J's net income in the year ended December 31st, 2023 against the year ended January 1st, 2023?"), [2023, 2022]);
        assert_eq!(
            years("Intel's cash from the 31st of December 2022 to the 30th of December 2023?"),
            [2022, 2023]
        );
    }

    #[test]
    fn labels_greetings_and_definitions_in_words_are_read() {
        let q = read("Role: credit analyst. Source: the consolidated statements of operations in Colgate's 10-K. Question: what was the percent change in diluted EPS from FY22 to FY23? Answer in percent, rounded to one decimal place.");
        assert_eq!(
            q.content,
            "what was the percent change in diluted EPS from FY22 to FY23?"
        );
        assert_eq!(q.operation, Operation::Growth);
        let q = read("Hi -- could you grab Cisco's FY '22 capital expenditures from the 10-K? Please give it in USD thousands.");
        assert_eq!(
            q.content,
            "could you grab Cisco's FY '22 capital expenditures?"
        );
        assert_eq!(q.scale, Some(Scale::Thousands));
        let q = read("Can you figure out Colgate-Palmolive's op margin over FY2021? Divide operating income by total revenue. Round to the nearest tenth of a percent.");
        assert_eq!(
            q.definition.unwrap().formula,
            "Divide operating income by total revenue"
        );
        let q = read("Can you pull the numbers from AbbVie's balance sheet and give me the current ratio at the end of FY2023? Here the current ratio means total current assets over total current liabilities. Two decimals.");
        let d = q.definition.unwrap();
        assert_eq!((d.name.as_str(), q.decimals), ("Current ratio", Some(2)));
        // A definition inside the sentence that asks, without its instructions.
        let q = read("What was Apple's FY2024 quick ratio, calculated as current assets minus inventories, divided by current liabilities?");
        assert_eq!(
            q.definition.unwrap().formula,
            "current assets minus inventories, divided by current liabilities"
        );
        assert_eq!(q.content, "What was Apple's FY2024 quick ratio?");
        let q = read("For the fiscal year ended December 31, 2023, what was J&J's ETR, defined as the provision for income taxes over income before taxes, to one decimal place?");
        assert_eq!(
            q.definition.unwrap().formula,
            "the provision for income taxes over income before taxes"
        );
        assert_eq!(q.decimals, Some(1));
        let q = read("Using net income divided by the average of beginning and ending total assets, what was Walmart's return on average assets in FY2024?");
        assert_eq!(
            q.definition.unwrap().formula,
            "net income divided by the average of beginning and ending total assets"
        );
        assert_eq!(
            q.content,
            "What was Walmart's return on average assets in FY2024?"
        );
        // A source named in the leading clause defines nothing.
        let q = read("Using the 10-K, what was Walmart's revenue in FY2024?");
        assert!(q.definition.is_none());
        let q = read("Recompute Palantir's average-asset return in the most recent fiscal year (FY2023) as net income ÷ ½(opening + closing total assets) × 100.");
        assert_eq!(
            q.definition.unwrap().formula,
            "net income ÷ ½(opening + closing total assets) × 100"
        );
        assert_eq!(
            q.content,
            "Recompute Palantir's average-asset return in the most recent fiscal year (FY2023)?"
        );
        // The year of the filing named beside another period is no period asked; alone, it
        // is the year asked.
        let q = read("Kindly provide Boeing's net income for fiscal year 2022 as presented in the 2023 annual report.");
        assert_eq!(q.periods.iter().map(|p| p.year).collect::<Vec<_>>(), [2022]);
        let q = read("How many people does American Water employ, per the 2022 10-K?");
        assert_eq!(q.periods.iter().map(|p| p.year).collect::<Vec<_>>(), [2022]);
        // "as of" a date names no formula; the parenthesis that follows does.
        let q = read("Calculate the current ratio as of December 31, 2023 (current assets over current liabilities).");
        assert_eq!(q.periods.iter().map(|p| p.year).collect::<Vec<_>>(), [2023]);
        assert_eq!(
            q.definition.unwrap().formula,
            "current assets over current liabilities"
        );
        // A framing label's sentence ends at its full stop, whatever case follows.
        let q = read("Role: equity analyst. what was Apple's revenue in FY2024?");
        assert_eq!(q.content, "what was Apple's revenue in FY2024?");
        // A unit in parentheses is no definition; operands around the operation make one.
        let q = read("Compute J&J's current ratio at Dec 31, 2023 (times, two decimal places).");
        assert!(q.definition.is_none());
        let q = read("What was Apple's capex intensity (capex/revenue) in fiscal 2024?");
        assert_eq!(q.definition.unwrap().formula, "capex/revenue");
        // How balances are averaged is an operation, not a metric.
        let q = read("What average total assets did Colgate carry through the year to 31st December 2023, measured as the midpoint of the opening and closing figures?");
        assert!(q.definition.is_none());
        assert_eq!(q.operation, Operation::Average);
        let q = read("Half the sum of GE's inventories at the FY2022 and FY2023 year-ends: what does it come to?");
        assert_eq!(q.operation, Operation::Average);
        // The period named only in the instruction around the question.
        let q = read("Imagine you are an auditor tying out AbbVie's fiscal year 2022 financial statements. What amount is shown in the income statement for revenue?");
        assert_eq!(q.latest_period().unwrap().year, 2022);
    }

    #[test]
    fn the_askers_context_names_no_figure_and_a_figure_of_a_period_is_a_figure() {
        let ids = |text: &str| {
            let q = read(text);
            crate::finance::concepts::concept_table()
                .unwrap()
                .asked_in(&q.content)
                .iter()
                .map(|c| c.id.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            ids("Debt investors asked about Nike: what were total current assets in FY23?"),
            ["current_assets"]
        );
        assert_eq!(
            ids("For our leverage review of Nike: total current assets in FY23?"),
            ["current_assets"]
        );
        // A label alone names the figure when the rest names none.
        assert_eq!(ids("Revenue: what was it in FY23?"), ["revenue"]);
        assert_eq!(
            read("Ahead of the bond deal, Nike's revenue in FY23?").passage,
            PassageKind::Figure
        );
        // A change between two periods asked in a unit is the change, not a verdict.
        let q = read("How did Nike's equity develop from FY22 to FY23, in $ millions?");
        assert_eq!(q.passage, PassageKind::Figure);
        assert!(q.judgment.is_none());
        // Averaging explained in words of its own.
        let q = read("What was the average net PP&E of Boeing for fiscal 2023? Average means the balance at the beginning of the year plus the balance at the end, divided by two.");
        assert_eq!(q.operation, Operation::Average);
        assert!(q.definition.is_none());
        let q = read("GM's mean inventory across FY 23, based on the balance sheets that open and close the year?");
        assert_eq!(q.operation, Operation::Average);
    }

    #[test]
    fn the_operation_asked_is_read() {
        let q = read("What is the year-over-year change in operating income (in %) for Boeing from FY2022 to FY2023? Round to one decimal place.");
        assert_eq!(q.operation, Operation::Growth);
        assert!(q.percent);
        assert_eq!(q.decimals, Some(1));
        assert_eq!(q.earliest_period().unwrap().year, 2022);
        assert_eq!(q.latest_period().unwrap().year, 2023);

        let q = read("By how much did revenue grow from fiscal 2022 to fiscal 2023?");
        assert_eq!(q.operation, Operation::Growth);
        let q = read("What is the FY2015 - FY2017 3 year average of capex for Amazon?");
        assert_eq!(q.operation, Operation::Average);
        assert_eq!(q.spanned_years, Some(vec![2015, 2016, 2017]));
        let q = read("What is the 2-year CAGR of revenue from FY2021 to FY2023?");
        assert_eq!(q.operation, Operation::Cagr);
        let q = read("How much did Meta spend on R&D in 2023?");
        assert_eq!(q.operation, Operation::Value);
        let q = read("What was the change in total assets between FY2022 and FY2023?");
        assert_eq!(q.operation, Operation::Change);
        let q = read("What was Walmart's revenue in the latest fiscal year?");
        assert_eq!(q.relative_year, Some(0));
    }

    #[test]
    fn the_same_question_reads_the_same_however_it_is_wrapped() {
        let plain = read("What is Apple's FY2024 current ratio?");
        for wrapped in [
            "You are a financial analyst. What is Apple's FY2024 current ratio? Base your judgments on the information provided primarily in the balance sheet.",
            "Answer the following question to the best of your abilities: What is Apple's FY2024 current ratio? Round your answer to two decimal places.",
            "Please utilize information provided primarily within the balance sheet. What is Apple's FY2024 current ratio?",
            "Refer to Apple's consolidated balance sheet. What is Apple's FY2024 current ratio?",
            "Work from the consolidated balance sheet. What is Apple's FY2024 current ratio?",
            "What is Apple's FY2024 current ratio? Thanks!",
            "Hi -- What is Apple's FY2024 current ratio? Many thanks.",
        ] {
            let q = read(wrapped);
            assert_eq!(q.content, plain.content, "{wrapped}");
            assert_eq!(q.periods, plain.periods);
            assert_eq!(q.operation, plain.operation);
        }
    }

    #[test]
    fn a_terse_request_with_a_period_and_a_unit_is_the_question() {
        let q = read("For my model: Boeing stockholders' equity, 2022, in $ mn. No decimals.");
        assert_eq!(q.content, "Boeing stockholders' equity, 2022.");
        assert_eq!(q.scale, Some(Scale::Millions));
        assert_eq!(q.periods[0].year, 2022);
    }
}
