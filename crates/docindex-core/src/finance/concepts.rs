//! The concept table (`data/financial-concepts.toml`, compiled in): which analyst terms a
//! question uses, which statement rows hold them, and how a metric is computed.

use super::FinanceError;
use crate::lexicon::lexicon;
use crate::search::words;
use rust_stemmers::{Algorithm, Stemmer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// A primary financial statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Statement {
    Income,
    Balance,
    CashFlows,
    Equity,
}

/// How a metric's value is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MetricUnit {
    /// A plain quotient: 1.75.
    Ratio,
    /// A share shown in percent: 27.4%.
    Percent,
    /// Days: 107 days.
    Days,
    /// A multiple: 10.1x.
    Times,
    /// Money in the statement's own unit.
    Amount,
}

/// One entry of the table: a line item (a statement row) or a metric (a formula).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Concept {
    pub id: String,
    pub label: String,
    /// Phrasings of questions that mean this concept.
    pub asked_as: Vec<String>,
    #[serde(default)]
    pub statement: Option<Statement>,
    /// Row labels filings print for it, most specific first.
    #[serde(default)]
    pub line_items: Vec<String>,
    /// us-gaap element names of the same fact.
    #[serde(default)]
    pub xbrl: Vec<String>,
    /// The row prints a spend as a negative; the concept is its size.
    #[serde(default)]
    pub outflow: bool,
    #[serde(default)]
    pub formula: Option<String>,
    /// The formula a metric is worked out with when a line item of `formula` has no row
    /// (gross margin from revenue and cost of revenue when the filer prints no gross profit).
    #[serde(default)]
    pub otherwise: Option<String>,
    #[serde(default)]
    pub unit: Option<MetricUnit>,
    /// The values a metric can plausibly take, in the unit it is shown in (percent for a
    /// percentage: `[-100.0, 100.0]` for a margin); outside them its operands are suspect.
    #[serde(default)]
    pub plausible: Option<[f64; 2]>,
    /// Row labels that hold only part of the concept ("Depreciation" when amortization is
    /// printed on a row of its own): a figure from one is shown, never firm.
    #[serde(default)]
    pub partial_line_items: Vec<String>,
    /// Words that, right after a phrasing, make it another concept's ("net cash *provided*
    /// by investing activities" is no net cash position).
    #[serde(default)]
    pub not_before: Vec<String>,
    /// For a balance: the cash flow that buys it ("cash spent on PP&E" is capex, not the
    /// PP&E on the balance sheet).
    #[serde(default)]
    pub bought_by: Option<String>,
}

impl Concept {
    pub fn is_metric(&self) -> bool {
        self.formula.is_some()
    }

    /// The concept's amount in a cell of the row labelled `label`. An outflow printed in
    /// brackets as a deduction is its size; but where the label brackets the contrary sign
    /// ("(Benefit from) provision for income taxes", "Income tax expense (benefit)"), a
    /// bracketed cell is that contrary (Tesla's 2023 tax benefit of $5,001 million is no
    /// provision), so the sign is kept.
    pub fn amount_in_row(&self, value: f64, label: &str) -> f64 {
        if self.outflow && !brackets_the_contrary_sign(label) {
            value.abs()
        } else {
            value
        }
    }

    /// The plausible range, written as an answer says it ("-100% to 100%"), when `value`
    /// (a fraction for a percentage, as worked out) lies outside it; `None` when it lies
    /// within or the metric has no range.
    pub fn implausible(&self, value: f64, unit: MetricUnit) -> Option<String> {
        let [low, high] = self.plausible?;
        let shown = match unit {
            MetricUnit::Percent => value * 100.0,
            _ => value,
        };
        if (low..=high).contains(&shown) {
            return None;
        }
        let end = |v: f64| match unit {
            MetricUnit::Percent => format!("{v}%"),
            _ => format!("{v}"),
        };
        Some(format!("{} to {}", end(low), end(high)))
    }
}

/// The whole table, checked when it is first used.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct ConceptTable {
    pub version: u32,
    #[serde(rename = "concept")]
    pub concepts: Vec<Concept>,
    /// Every `asked_as` phrasing as stems, with its concept's index: stemmed once, on load.
    #[serde(skip)]
    phrasings: Vec<(usize, Vec<String>)>,
    /// Each concept's `not_before` words as stems, by concept index.
    #[serde(skip)]
    not_before: Vec<Vec<String>>,
}

/// Which concept (by index) claims each stem of a question, and the concepts it names with
/// the first stem each claims, in order.
struct Claims {
    /// The question's stems, and which concept claimed each.
    stems: Vec<String>,
    claimed: Vec<Option<usize>>,
    chosen: Vec<(usize, usize)>,
}

/// The phrasings a question holds: its stems, each phrasing found as (concept, first stem,
/// stem count), and how each stem joins the next (`runs_on`).
struct Phrasings {
    stems: Vec<String>,
    found: Vec<(usize, usize, usize)>,
    joins: Vec<Join>,
}

/// How a stem of a question joins the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Join {
    /// A comma, a slash, a colon or a parenthesis between, or the end.
    Apart,
    /// A space only.
    Spaced,
    /// Within one written word: "fixed-asset", "PP&E".
    Within,
}

/// Words that tell no concept from another.
const FILLER_WORDS: &[&str] = &["of", "the"];

/// Whether a row's label holds a bracketed group naming the contrary sign ("(benefit from)",
/// "(loss)", "(used in)").
fn brackets_the_contrary_sign(label: &str) -> bool {
    let lower = label.to_lowercase();
    lower
        .split('(')
        .skip(1)
        .filter_map(|rest| rest.split_once(')'))
        .any(|(inside, _)| {
            let inside = inside.trim();
            lexicon().concepts.contrary_sign_words.contains(inside)
        })
}

/// `question` without the averaging words that stand right after a metric's preposition
/// ("return on *mean* equity", "turnover of *average* total assets"); `None` when it has none.
fn without_inner_averaging(question: &str) -> Option<String> {
    let averaging = &lexicon().concepts.averaging_words;
    let tokens: Vec<&str> = question.split_whitespace().collect();
    let mut kept: Vec<&str> = Vec::with_capacity(tokens.len());
    let mut dropped = false;
    for (at, token) in tokens.iter().enumerate() {
        let word = token.to_lowercase();
        let after_preposition =
            at > 0 && ["on", "of", "to", "per"].contains(&tokens[at - 1].to_lowercase().as_str());
        if after_preposition && averaging.contains(word.trim_end_matches('.')) {
            dropped = true;
            continue;
        }
        kept.push(token);
    }
    dropped.then(|| kept.join(" "))
}

/// Whether a word of a two-word name can stand as a noun on its own: not an adjective or a
/// participle ("net", "operating", "capital", "deferred"), not an abbreviation with symbols.
fn is_noun_like(word: &str) -> bool {
    const ADJECTIVES: [&str; 8] = [
        "net", "total", "gross", "free", "long", "short", "non", "cash",
    ];
    const ADJECTIVE_ENDINGS: [&str; 9] =
        ["ing", "ed", "al", "ive", "ent", "ant", "ous", "ary", "ble"];
    word.chars().all(|c| c.is_ascii_alphabetic())
        && word.len() > 2
        && !ADJECTIVES.contains(&word)
        && !ADJECTIVE_ENDINGS.iter().any(|e| word.ends_with(e))
}

/// A short piece of a hyphenated word that is no word of its own ("cap" and "ex" of
/// "cap-ex"; not "and", "to" or "of").
fn is_syllable(part: &str) -> bool {
    const WORDS: [&str; 10] = [
        "and", "to", "of", "in", "on", "per", "for", "the", "or", "non",
    ];
    (2..=3).contains(&part.len())
        && part.chars().all(|c| c.is_ascii_alphabetic())
        && !WORDS.contains(&part)
}

/// Stems of a phrasing or question; "capital-intensive" and "capital intensive" are one.
fn phrase_stems(stemmer: &Stemmer, text: &str) -> Vec<String> {
    words(text)
        .iter()
        .flat_map(|w| {
            // "Non-current liabilities" are not current liabilities: the prefix stays on
            // its word.
            let w = match w.strip_prefix("non-") {
                Some(rest) => format!("non{rest}"),
                None => w.to_string(),
            };
            // British spelling stems apart: "amortisation" is "amortization".
            let w = w.replace("isation", "ization");
            // "Cap-ex", "op-ex-to-sales": a word's first two short syllables are one word.
            let w = match w.split('-').collect::<Vec<_>>().as_slice() {
                [a, b, rest @ ..] if is_syllable(a) && is_syllable(b) => {
                    std::iter::once(format!("{a}{b}"))
                        .chain(rest.iter().map(|p| p.to_string()))
                        .collect::<Vec<_>>()
                        .join("-")
                }
                _ => w,
            };
            // "Days of sales in receivables" is "days sales in receivables", "margin at the
            // gross level" "margin at gross level", "cost-of-sales" "cost sales".
            w.split('-')
                .filter(|part| !FILLER_WORDS.contains(part))
                .map(|part| stemmer.stem(part).to_string())
                .collect::<Vec<_>>()
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// For each of `text`'s stems (as `phrase_stems` gives them), how it joins the next: within
/// one written word ("fixed-asset"), by a space only ("asset capex"), or apart (a comma,
/// slash, colon or parenthesis between: "capex/revenue", "capex (revenue)").
fn runs_on(stemmer: &Stemmer, text: &str) -> Vec<Join> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut out = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let count = phrase_stems(stemmer, token).len();
        let inner = token.trim_matches(|c: char| !c.is_alphanumeric());
        let joined_inside = inner
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '&' | '.' | '\'' | '’'));
        let trailing = token.trim_start_matches(|c: char| !c.is_alphanumeric());
        let ends_clean = trailing
            .trim_end_matches(['\'', '’', 's'])
            .ends_with(|c: char| c.is_alphanumeric())
            || trailing.ends_with(|c: char| c.is_alphanumeric());
        let next_starts_clean = tokens
            .get(i + 1)
            .is_some_and(|t| t.starts_with(|c: char| c.is_alphanumeric()));
        for k in 0..count {
            out.push(
                match (
                    k + 1 < count,
                    joined_inside,
                    ends_clean && next_starts_clean,
                ) {
                    (true, true, _) => Join::Within,
                    (true, false, _) => Join::Apart,
                    (false, _, true) => Join::Spaced,
                    (false, _, false) => Join::Apart,
                },
            );
        }
    }
    out
}

/// `formula` with the variable `id` (a whole identifier) replaced by `with`.
fn replace_operand(formula: &str, id: &str, with: &str) -> String {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut rest = formula;
    while let Some(at) = rest.find(id) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + id.len()..].chars().next();
        out.push_str(&rest[..at]);
        match before.is_some_and(is_ident) || after.is_some_and(is_ident) {
            true => out.push_str(id),
            false => out.push_str(with),
        }
        rest = &rest[at + id.len()..];
    }
    out.push_str(rest);
    out
}

/// `question` with each modifier's linking verb cut ("cash spent on dividends" → "cash
/// dividends").
/// `question` with a purchase of a balance written as the cash flow that buys it: "cash
/// spent on PP&E", "purchases of fixed assets" are capital expenditures.
fn purchases_named(table: &ConceptTable, question: &str) -> String {
    let mut out = question.to_string();
    for concept in &table.concepts {
        let Some(buyer) = concept.bought_by.as_deref().and_then(|id| table.get(id)) else {
            continue;
        };
        let Some(bought) = buyer.asked_as.first() else {
            continue;
        };
        // "cash spent on PP&E" and, the other way round, "PP&E acquired for cash".
        let before = lexicon()
            .concepts
            .purchase_phrases
            .iter()
            .flat_map(|purchase| {
                ["", "the ", "new "].map(|article| (format!("{purchase} {article}"), ""))
            });
        let after = lexicon()
            .concepts
            .purchased_phrases
            .iter()
            .map(|purchased| (String::new(), purchased));
        // "Cash outlay for new PP&E", "cash put toward the PP&E".
        let names_cash = {
            let lower = out.to_ascii_lowercase();
            lower.contains("cash ") || lower.contains("money ")
        };
        for name in concept.asked_as.iter().filter(|_| names_cash) {
            // Commas between a name's words are the writer's ("property, plant and equipment").
            let spelled = name
                .split(' ')
                .map(regex::escape)
                .collect::<Vec<_>>()
                .join(r",?\s+");
            let Ok(name_re) = regex::Regex::new(&format!(r"{spelled}\b")) else {
                continue;
            };
            loop {
                let lower = out.to_ascii_lowercase();
                let found = name_re.find_iter(&lower).find_map(|m| {
                    cash_link_start(&lower[..m.start()]).map(|start| (start, m.end()))
                });
                let Some((start, end)) = found else { break };
                out.replace_range(start..end, bought);
            }
        }
        for (opening, closing) in before.chain(after) {
            for name in &concept.asked_as {
                {
                    let phrase = match closing.is_empty() {
                        true => format!("{opening}{name}"),
                        false => format!("{name} {closing}"),
                    };
                    loop {
                        let lower = out.to_lowercase();
                        if lower.len() != out.len() {
                            return out;
                        }
                        let Some(at) = crate::question::vocabulary::find_phrase(&lower, &phrase)
                        else {
                            break;
                        };
                        out.replace_range(at..at + phrase.len(), bought);
                    }
                }
            }
        }
    }
    out
}

/// Where a link of cash to the figure right after `before` starts: "cash put into " before
/// "share buybacks", "cash outlay for new " before "PP&E" (cash, one or two words of any
/// kind but those that keep cash a figure of its own, a preposition, an article); None when
/// `before` ends in no such link.
fn cash_link_start(before: &str) -> Option<usize> {
    let words_lexicon = &lexicon().concepts;
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for word in before.split(' ') {
        if !word.is_empty() {
            words.push((at, word));
        }
        at += word.len() + 1;
    }
    if !before.ends_with(' ') {
        return None;
    }
    let mut end = words.len();
    if end > 0 && ["the", "new", "its", "their", "a"].contains(&words[end - 1].1) {
        end -= 1;
    }
    let preposition = words_lexicon.link_prepositions.iter().find_map(|p| {
        let n = p.split(' ').count();
        let tail = words.get(end.checked_sub(n)?..end)?;
        (tail.iter().map(|(_, w)| *w).collect::<Vec<_>>().join(" ") == p).then_some(n)
    })?;
    end -= preposition;
    (1..=3).find_map(|back| {
        let (start, first) = *words.get(end.checked_sub(back)?)?;
        let between = words.get(end + 1 - back..end)?;
        let links = ["cash", "money"].contains(&first)
            && between.iter().all(|(_, w)| {
                w.chars().all(|c| c.is_alphabetic() || c == '-')
                    && !words_lexicon.not_link_words.contains(*w)
            });
        links.then_some(start)
    })
}

fn without_modifier_links(question: &str) -> String {
    let words = &lexicon().concepts;
    let mut out = question.to_string();
    // "Cash put into share buybacks" is cash share buybacks.
    let mut at = 0;
    while at < out.len() {
        let lower = out.to_ascii_lowercase();
        let Some(next) = lower[at..].find(' ').map(|i| at + i + 1) else {
            break;
        };
        at = next;
        // The link joins cash to a figure after it, not to a period ("cash dividends for
        // FY2020" links nothing).
        // (The period reading runs only where a link was found: this is every word's loop.)
        let figure_follows = || {
            let following = lower[at..].split_whitespace().next().unwrap_or("");
            following.starts_with(|c: char| c.is_alphabetic())
                && crate::question::periods::periods_in(following).is_empty()
        };
        if let Some(start) = cash_link_start(&lower[..at]).filter(|_| figure_follows()) {
            let cut = start + lower[start..].find(' ').unwrap_or(0);
            if cut < at && out.is_char_boundary(cut) && out.is_char_boundary(at) {
                out.replace_range(cut..at, " ");
                at = cut + 1;
            }
        }
    }
    for modifier in words.modifiers.iter() {
        for link in words.modifier_links.iter() {
            let joined = format!("{modifier} {link} ");
            loop {
                let lower = out.to_ascii_lowercase();
                let Some(at) = crate::question::vocabulary::find_phrase(&lower, joined.trim_end())
                else {
                    break;
                };
                let cut = at + modifier.len();
                let end = (at + joined.len()).min(out.len());
                if !out.is_char_boundary(cut) || !out.is_char_boundary(end) {
                    break;
                }
                out.replace_range(cut..end, " ");
            }
        }
    }
    out
}

/// Whether the modifier word stands in a list in `question` ("cash, capex and revenue"), where
/// it is a concept of its own.
fn modifier_listed(question: &str, word: &str) -> bool {
    let lower = question.to_lowercase();
    [",", ";", " and", " or", "/"]
        .iter()
        .any(|after| lower.contains(&format!("{word}{after}")))
}

/// The variables of `formula` (of metric `id`), in order of first use.
pub fn formula_ids(id: &str, formula: &str) -> Result<Vec<String>, FinanceError> {
    let tree = evalexpr::build_operator_tree::<evalexpr::DefaultNumericTypes>(formula)
        .map_err(|e| FinanceError::BadTable(format!("formula of {id}: {e}")))?;
    let mut ids: Vec<String> = Vec::new();
    for variable in tree.iter_variable_identifiers() {
        if !ids.iter().any(|x| x == variable) {
            ids.push(variable.to_string());
        }
    }
    Ok(ids)
}

/// Suffix of a formula operand that means "the same line item, one period earlier".
pub const PRIOR_SUFFIX: &str = "_prior";

static TABLE: LazyLock<Result<ConceptTable, FinanceError>> = LazyLock::new(|| {
    let mut table: ConceptTable =
        toml::from_str(include_str!("../../data/financial-concepts.toml"))
            .map_err(|e| FinanceError::BadTable(e.to_string()))?;
    table.check()?;
    let stemmer = Stemmer::create(Algorithm::English);
    // A question quoting a statement row's label ("payments for property, plant and
    // equipment") asks for that row's concept: a line item of three stems or more is a
    // phrasing too, after the concept's own; longer phrasings claim their words first.
    let mut phrasings: Vec<(usize, Vec<String>)> = Vec::new();
    for (c, concept) in table.concepts.iter().enumerate() {
        for phrase in &concept.asked_as {
            phrasings.push((c, phrase_stems(&stemmer, phrase)));
        }
    }
    // "Expense for interest", "tax on income", "costs for research": a name of two nouns said
    // the other way round, its head first and linked by a preposition.
    let inverted: Vec<(usize, Vec<String>)> = table
        .concepts
        .iter()
        .enumerate()
        .flat_map(|(c, concept)| concept.asked_as.iter().map(move |p| (c, p)))
        .filter_map(|(c, phrase)| {
            let [modifier, head] = phrase.split_whitespace().collect::<Vec<_>>()[..] else {
                return None;
            };
            let stems = phrase_stems(&stemmer, phrase);
            (stems.len() == 2 && is_noun_like(modifier) && is_noun_like(head)).then(|| {
                ["for", "on"].map(|link| {
                    (
                        c,
                        vec![stems[1].clone(), link.to_string(), stems[0].clone()],
                    )
                })
            })
        })
        .flatten()
        .collect();
    // "Turnover of total assets", "turns of net PP&E": a turnover or days metric's name said
    // head first ("of" is no stem).
    let head_first: Vec<(usize, Vec<String>)> = table
        .concepts
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.unit, Some(MetricUnit::Times | MetricUnit::Days)))
        .flat_map(|(c, concept)| concept.asked_as.iter().map(move |p| (c, p)))
        .filter_map(|(c, phrase)| {
            let words: Vec<&str> = phrase.split_whitespace().collect();
            let (head, modifiers) = words.split_last()?;
            let stems = phrase_stems(&stemmer, phrase);
            (!modifiers.is_empty()
                && modifiers.len() <= 2
                && stems.len() == words.len()
                && is_noun_like(head)
                && words
                    .iter()
                    .all(|w| w.chars().all(|ch| ch.is_ascii_alphabetic() || ch == '&')))
            .then(|| {
                let mut inverted = vec![stems[stems.len() - 1].clone()];
                inverted.extend(stems[..stems.len() - 1].iter().cloned());
                (c, inverted)
            })
        })
        .collect();
    for (c, stems) in inverted.into_iter().chain(head_first) {
        if !phrasings.iter().any(|(_, s)| *s == stems) {
            phrasings.push((c, stems));
        }
    }
    // A label two concepts print ("total net revenues") names neither for sure: left out.
    let line_item_stems: Vec<(usize, Vec<String>)> = table
        .concepts
        .iter()
        .enumerate()
        .flat_map(|(c, concept)| {
            concept
                .line_items
                .iter()
                .map(move |label| (c, label))
                .collect::<Vec<_>>()
        })
        .map(|(c, label)| (c, phrase_stems(&stemmer, label)))
        .collect();
    for (c, stems) in &line_item_stems {
        let printed_by_another = line_item_stems
            .iter()
            .any(|(other, s)| other != c && s == stems);
        if stems.len() >= 3 && !printed_by_another && !phrasings.iter().any(|(_, s)| s == stems) {
            phrasings.push((*c, stems.clone()));
        }
    }
    table.phrasings = phrasings
        .into_iter()
        .filter(|(_, stems)| !stems.is_empty())
        .collect();
    table.not_before = table
        .concepts
        .iter()
        .map(|c| {
            c.not_before
                .iter()
                .map(|w| stemmer.stem(&w.to_lowercase()).to_string())
                .collect()
        })
        .collect();
    Ok(table)
});

/// The built-in concept table.
pub fn concept_table() -> Result<&'static ConceptTable, FinanceError> {
    TABLE.as_ref().map_err(Clone::clone)
}

impl ConceptTable {
    pub fn get(&self, id: &str) -> Option<&Concept> {
        self.concepts.iter().find(|c| c.id == id)
    }

    /// Every formula parses and names only line items of the table; ids are unique.
    fn check(&self) -> Result<(), FinanceError> {
        let mut seen = BTreeSet::new();
        for concept in &self.concepts {
            if !seen.insert(concept.id.as_str()) {
                return Err(FinanceError::BadTable(format!(
                    "concept {} is defined twice",
                    concept.id
                )));
            }
            if concept.asked_as.is_empty() {
                return Err(FinanceError::BadTable(format!(
                    "concept {} has no asked_as phrasings",
                    concept.id
                )));
            }
        }
        for concept in &self.concepts {
            if let Some(buyer) = &concept.bought_by {
                if self.get(buyer).is_none() {
                    return Err(FinanceError::BadTable(format!(
                        "concept {} is bought by {buyer}, which is no concept",
                        concept.id
                    )));
                }
            }
        }
        for concept in self
            .concepts
            .iter()
            .filter(|c| c.is_metric() || c.otherwise.is_some())
        {
            let operands = self.operand_ids(concept)?;
            for id in operands {
                let base = id.strip_suffix(PRIOR_SUFFIX).unwrap_or(&id);
                match self.get(base) {
                    Some(c) if !c.line_items.is_empty() => {}
                    _ => {
                        return Err(FinanceError::BadTable(format!(
                            "formula of {} names {id}, which is not a line item",
                            concept.id
                        )))
                    }
                }
            }
            if concept.is_metric() && concept.unit.is_none() {
                return Err(FinanceError::BadTable(format!(
                    "metric {} has no unit",
                    concept.id
                )));
            }
        }
        Ok(())
    }

    /// The variables of a metric's formula, in order of first use (`revenue_prior`
    /// included as written).
    /// Those of its `otherwise` formula follow.
    pub fn operand_ids(&self, metric: &Concept) -> Result<Vec<String>, FinanceError> {
        let mut ids: Vec<String> = Vec::new();
        for formula in metric.formula.iter().chain(metric.otherwise.iter()) {
            for id in formula_ids(&metric.id, formula)? {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        Ok(ids)
    }

    /// Every phrasing `question` holds: (concept, first word, word count), in stems, and
    /// the question's stems.
    fn phrasings_in(&self, question: &str) -> Phrasings {
        let stemmer = Stemmer::create(Algorithm::English);
        // "Based on the cash flow statement, what were its dividends?" asks no cash.
        let question = crate::question::without_statement_names(question);
        // "Net cash used in/provided by financing" is net cash from financing (before the
        // linking verbs go: "used for investing" is a flow's direction).
        let question = super::wording::evened(&question);
        let question = purchases_named(self, &question);
        // "Cash spent on dividends" is cash dividends: the modifier joins the figure it
        // qualifies across a linking verb.
        let question = without_modifier_links(&question);
        // "Earnings for each diluted share" are earnings per diluted share.
        let question = question
            .replace(" for each ", " per ")
            .replace(" for every ", " per ");
        // "net income YoY growth" is "net income growth": the comparison's shorthand sits
        // inside the concept's name without being part of it.
        let shorthand = |stem: &String| {
            lexicon()
                .concepts
                .comparison_shorthand
                .contains(stem.as_str())
        };
        let all_stems = phrase_stems(&stemmer, &question);
        let mut joins = runs_on(&stemmer, &question);
        if joins.len() != all_stems.len() {
            joins = vec![Join::Apart; all_stems.len()];
        }
        let (question_stems, joins): (Vec<String>, Vec<Join>) = all_stems
            .into_iter()
            .zip(joins)
            .filter(|(stem, _)| !shorthand(stem))
            .unzip();
        let mut found: Vec<(usize, usize, usize)> = Vec::new();
        for (c, wanted) in &self.phrasings {
            if wanted.len() > question_stems.len() {
                continue;
            }
            let not_before = &self.not_before[*c];
            for (at, window) in question_stems.windows(wanted.len()).enumerate() {
                let next = question_stems.get(at + wanted.len());
                if window == wanted.as_slice() && !next.is_some_and(|n| not_before.contains(n)) {
                    found.push((*c, at, wanted.len()));
                }
            }
        }
        Phrasings {
            stems: question_stems,
            found,
            joins,
        }
    }

    /// The word count of the longest phrasing `question` holds (0 when it names no
    /// concept).
    pub fn longest_phrasing_in(&self, question: &str) -> usize {
        let Phrasings { found, .. } = self.phrasings_in(question);
        found.iter().map(|f| f.2).max().unwrap_or(0)
    }

    /// The stems of the phrasings `question` holds ("deposit" of "total deposits").
    pub fn claimed_stems(&self, question: &str) -> BTreeSet<String> {
        let Phrasings { stems, found, .. } = self.phrasings_in(question);
        found
            .iter()
            .flat_map(|&(_, at, len)| stems[at..at + len].iter().cloned())
            .collect()
    }

    /// `text` in lower case with every phrasing of two words or more that it holds, as
    /// written, blanked out: "cash paid to acquire pp&e" names a figure, and its "acquire"
    /// asks about no acquisition.
    pub fn without_phrasings(&self, text: &str) -> String {
        let mut out = text.to_lowercase();
        for phrasing in self
            .concepts
            .iter()
            .flat_map(|c| &c.asked_as)
            .filter(|a| a.contains(' '))
        {
            while let Some(at) = crate::question::vocabulary::find_phrase(&out, phrasing) {
                out.replace_range(at..at + phrasing.len(), &" ".repeat(phrasing.len()));
            }
        }
        out
    }

    /// Whether `word` is a word of some phrasing ("operating" of "operating margin").
    pub fn is_phrasing_word(&self, word: &str) -> bool {
        self.concepts.iter().any(|c| {
            c.asked_as
                .iter()
                .any(|a| a.split_whitespace().any(|w| w.eq_ignore_ascii_case(word)))
        })
    }

    /// Which concept claims each of the question's stems, and the concepts named with the
    /// first stem each claims, in the order named.
    fn claims(&self, question: &str) -> Claims {
        let Phrasings {
            stems: question_stems,
            mut found,
            joins,
        } = self.phrasings_in(question);
        let stemmer = Stemmer::create(Algorithm::English);
        found.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.cmp(&b.1)));
        // Which concept claimed each word. A shorter phrasing of the concept that claimed
        // some of its words claims the rest too: in "cash generated from operations",
        // "generated from operations" and then "cash generation" are cash from operations,
        // so "cash" alone is not also asked.
        let mut claimed: Vec<Option<usize>> = vec![None; question_stems.len()];
        let mut chosen: Vec<(usize, usize)> = Vec::new();
        for (c, at, len) in found {
            if claimed[at..at + len]
                .iter()
                .any(|x| x.is_some_and(|x| x != c))
            {
                continue;
            }
            claimed[at..at + len].iter_mut().for_each(|x| *x = Some(c));
            match chosen.iter_mut().find(|(x, _)| *x == c) {
                Some((_, first)) => *first = (*first).min(at),
                None => chosen.push((c, at)),
            }
        }
        // "How much cash did X generate from operations?": "cash" alone is a word of the
        // other concept asked, cash from operations, not a second figure.
        let words_claimed = |c: usize| claimed.iter().filter(|x| **x == Some(c)).count();
        let one_word_of_another = |c: usize| {
            let Some(at) = claimed.iter().position(|x| *x == Some(c)) else {
                return false;
            };
            let word = &question_stems[at];
            words_claimed(c) == 1
                && chosen.iter().any(|&(other, _)| {
                    // A metric's phrasing ("dividend payout") does not hold its operands.
                    other != c
                        && !self.concepts[other].is_metric()
                        && words_claimed(other) > 1
                        && self
                            .phrasings
                            .iter()
                            .any(|(o, stems)| *o == other && stems.first() == Some(word))
                })
        };
        // "cash capital expenditure": a modifier word right before another concept's name
        // qualifies it.
        let modifies_the_next = |c: usize| {
            let Some(at) = claimed.iter().position(|x| *x == Some(c)) else {
                return false;
            };
            words_claimed(c) == 1
                && lexicon()
                    .concepts
                    .modifiers
                    .contains(question_stems[at].as_str())
                && claimed
                    .get(at + 1)
                    .is_some_and(|next| next.is_some_and(|n| n != c))
                && !modifier_listed(question, &question_stems[at])
        };
        // "Fixed-asset capex": a line item's name written as one word runs on into
        // another's, and the last is the head the first qualifies, as English compounds go;
        // but "inventory book value" is the inventories' carrying value, no equity.
        let carrying_value = |c: usize| {
            let words: Vec<&str> = claimed
                .iter()
                .zip(&question_stems)
                .filter(|(x, _)| **x == Some(c))
                .map(|(_, s)| s.as_str())
                .collect();
            lexicon()
                .concepts
                .carrying_value_names
                .iter()
                .any(|name| phrase_stems(&stemmer, name) == words)
        };
        // Of a line item's name running on into another's, the one that only qualifies.
        let compound = |c: usize| {
            let first = claimed.iter().position(|x| *x == Some(c))?;
            let last = claimed.iter().rposition(|x| *x == Some(c))?;
            let head = (*claimed.get(last + 1)?)?;
            // A head that is itself a word of another name ("net operating-activities
            // cash") or a modifier ("cash") names nothing of its own.
            // So is one word that ends many other line items' names ("D&A expense":
            // "expense" ends interest expense, R&D expense, tax expense and more).
            let shared_by_other_names = |stem: &str| {
                self.phrasings
                    .iter()
                    .filter(|(o, stems)| {
                        *o != head
                            && !self.concepts[*o].is_metric()
                            && stems.len() > 1
                            && stems.last().is_some_and(|s| s == stem)
                    })
                    .map(|(o, _)| *o)
                    .collect::<BTreeSet<usize>>()
                    .len()
                    >= 3
            };
            let generic_head = one_word_of_another(head)
                || modifies_the_next(head)
                || (words_claimed(head) == 1
                    && claimed
                        .iter()
                        .position(|x| *x == Some(head))
                        .is_some_and(|at| {
                            let stem = question_stems[at].as_str();
                            lexicon().concepts.modifiers.contains(stem)
                                || shared_by_other_names(stem)
                        }));
            let runs_on_to_head = words_claimed(c) == last + 1 - first
                && head != c
                && joins.get(last) == Some(&Join::Spaced)
                && !self.concepts[c].is_metric()
                && !self.concepts[head].is_metric();
            // Written as one word ("fixed-asset", "PP&E") and then a space: an adjective of
            // the head ("gross profit earned" is no compound).
            let one_word = last > first && joins[first..last].iter().all(|j| *j == Join::Within);
            match runs_on_to_head {
                false => None,
                true if carrying_value(head) => Some(head),
                true if one_word && !generic_head => Some(c),
                true => None,
            }
        };
        let qualifiers: Vec<usize> = chosen.iter().filter_map(|&(c, _)| compound(c)).collect();
        let subsumed: Vec<usize> = chosen
            .iter()
            .map(|&(c, _)| c)
            .filter(|&c| one_word_of_another(c) || modifies_the_next(c) || qualifiers.contains(&c))
            .collect();
        chosen.retain(|(c, _)| !subsumed.contains(c));
        chosen.sort_by_key(|(_, at)| *at);
        Claims {
            stems: question_stems,
            claimed,
            chosen,
        }
    }

    /// The concepts a question asks about, in the order it names them. Longer phrasings
    /// claim their words first, so "free cash flow" is the metric and not also "cash".
    pub fn asked_in(&self, question: &str) -> Vec<&Concept> {
        let asked = self.asked_in_words(question);
        // "Return on mean shareholders' equity", "turnover of average total assets": a word of
        // averaging inside a metric's name says its balance is averaged; the name is read
        // without it, and the averaging from the question's own words.
        // A metric already named with its averaging ("return on avg. shareholders' funds")
        // is read as named.
        if asked.iter().any(|c| c.is_metric()) {
            return asked;
        }
        let Some(plain) = without_inner_averaging(question) else {
            return asked;
        };
        let named = self.asked_in_words(&plain);
        let adds_a_metric = named
            .iter()
            .any(|c| c.is_metric() && asked.iter().all(|a| a.id != c.id));
        if !adds_a_metric {
            return asked;
        }
        self.with_averaged_siblings(named, question)
    }

    /// `asked` with each metric whose balance the question averages ("ROE on mean equity")
    /// replaced by the table's metric on averaged balances, where it has one; the balance,
    /// named only to say it is averaged, is no second figure.
    fn with_averaged_siblings<'c>(
        &'c self,
        mut asked: Vec<&'c Concept>,
        question: &str,
    ) -> Vec<&'c Concept> {
        let mut averaged_balances = Vec::new();
        for metric in asked.iter_mut() {
            if let Some((averaged, balance)) = self.averaged_sibling(metric, question) {
                *metric = averaged;
                averaged_balances.push(balance);
            }
        }
        if asked.iter().any(|c| !averaged_balances.contains(&c.id)) {
            asked.retain(|c| !averaged_balances.contains(&c.id));
        }
        asked
    }

    fn asked_in_words(&self, question: &str) -> Vec<&Concept> {
        let Claims {
            stems,
            chosen,
            claimed,
        } = self.claims(question);
        // "Accounts receivable growth": "growth" alone is the operation on the figure named.
        let by_operation_name = |c: usize| {
            let words: Vec<&String> = claimed
                .iter()
                .zip(&stems)
                .filter(|(x, _)| **x == Some(c))
                .map(|(_, s)| s)
                .collect();
            words.len() == 1
                && lexicon()
                    .concepts
                    .operation_names
                    .iter()
                    .any(|w| words[0] == w)
        };
        let others = chosen.len();
        let placed = self.placed_in(question);
        let mut asked: Vec<&Concept> = chosen
            .into_iter()
            .filter(|(c, _)| others == 1 || !by_operation_name(*c))
            .map(|(c, _)| &self.concepts[c])
            .collect();
        // "Long-term debt shown under non-current liabilities" asks the debt alone.
        if asked.iter().any(|c| !placed.contains(&c.id)) {
            asked.retain(|c| !placed.contains(&c.id));
        }
        // "ROE on mean equity": the metric on the balance's average, where the table has it.
        let mut asked = self.with_averaged_siblings(asked, question);
        // "R&D ratio", "SG&A spending ratio", "operating profit ratio": the figure as a share
        // of revenue.
        for concept in asked.iter_mut() {
            if let Some(share) = self.share_of_revenue(concept, &stems, &claimed) {
                *concept = share;
            }
        }
        asked.dedup_by(|a, b| a.id == b.id);
        let mut asked = super::wording::without_glossed(self, question, asked);
        // "How much did X pay out in dividends?" asks the dividends, not the payout ratio: a
        // question that asks an amount and names no kind of quotient is asked of the amounts
        // it names.
        let is_amount = |c: &Concept| c.unit.is_none_or(|u| u == MetricUnit::Amount);
        if crate::question::asks_an_amount_of_money(question) && asked.iter().any(|c| is_amount(c))
        {
            asked.retain(|c| is_amount(c));
        }
        asked
    }

    /// The table's metric that is `metric` with one balance averaged over the year's
    /// opening and closing ("return on average equity" for "return on equity"), when the
    /// question averages that balance ("ROE on mean equity", "on an average-balance basis").
    fn averaged_sibling(&self, metric: &Concept, question: &str) -> Option<(&Concept, String)> {
        let formula = metric.formula.as_deref()?;
        let squeeze = |f: &str| f.split_whitespace().collect::<String>();
        let lower = question.to_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| !c.is_alphanumeric() && c != '&' && c != '\'')
            .filter(|w| !w.is_empty())
            .collect();
        let averaging = &lexicon().concepts.averaging_words;
        // "Two-point-average ROE", "ROA (average-asset version)": the metric's one balance is
        // averaged, though the words do not name it.
        let balances: Vec<String> = formula_ids(&metric.id, formula)
            .ok()?
            .into_iter()
            .filter(|id| {
                !id.ends_with(PRIOR_SUFFIX)
                    && self
                        .get(id)
                        .is_some_and(|c| c.statement == Some(Statement::Balance))
            })
            .collect();
        // "Equity return on the opening/closing average (%) in fiscal 2023": an averaging
        // word in a question of one year averages the metric's one balance (a mean over
        // years names two or more).
        let one_year_averaged = words.iter().any(|w| averaging.contains(*w)) && {
            let periods = crate::question::periods::periods_in(question);
            periods.len() <= 1
                && crate::question::periods::spanned_years(question, &periods).is_none()
        };
        let averages_its_balance = balances.len() == 1
            && (one_year_averaged
                || crate::question::vocabulary::vocabulary()
                    .is_ok_and(|v| v.averages_balances(&lower)));
        for balance in formula_ids(&metric.id, formula).ok()? {
            if balance.ends_with(PRIOR_SUFFIX) {
                continue;
            }
            let Some(concept) = self.get(&balance) else {
                continue;
            };
            // An averaging word right before the balance's name, or before "balance(s)".
            let averaged = (averages_its_balance && balances.contains(&balance))
                || words.iter().enumerate().any(|(at, w)| {
                    averaging.contains(*w) && {
                        let after = words[at + 1..words.len().min(at + 4)].join(" ");
                        after.starts_with("balance")
                            || self
                                .asked_in_plain(&after)
                                .iter()
                                .any(|c| c.id == concept.id)
                    }
                });
            if !averaged {
                continue;
            }
            let wanted = squeeze(&replace_operand(
                formula,
                &balance,
                &format!("(({balance} + {balance}{PRIOR_SUFFIX}) / 2)"),
            ));
            if let Some(sibling) = self.concepts.iter().find(|c| {
                c.id != metric.id && c.formula.as_deref().is_some_and(|f| squeeze(f) == wanted)
            }) {
                return Some((sibling, balance));
            }
        }
        None
    }

    /// The table's metric that is `figure` as a share of revenue, when a ratio word follows
    /// its name in the question (`stems`, with the concept each `claimed`), perhaps after a
    /// word like "spending". Only an income or cash flow figure: a "debt ratio" is no share
    /// of sales.
    fn share_of_revenue(
        &self,
        figure: &Concept,
        stems: &[String],
        claimed: &[Option<usize>],
    ) -> Option<&Concept> {
        if figure.is_metric()
            || !matches!(
                figure.statement,
                Some(Statement::Income | Statement::CashFlows)
            )
        {
            return None;
        }
        let index = self.concepts.iter().position(|c| c.id == figure.id)?;
        let first = claimed.iter().position(|c| *c == Some(index))?;
        let last = claimed.iter().rposition(|c| *c == Some(index))?;
        // "Dividends-to-earnings ratio": the figure after "to" is the denominator.
        if first > 0 && ["to", "over", "per"].contains(&stems[first - 1].as_str()) {
            return None;
        }
        // Stemmed once: this runs for every figure of every reading of a question.
        static SHARE_WORDS: LazyLock<(Vec<String>, Vec<String>)> = LazyLock::new(|| {
            let words = &lexicon().concepts;
            let stemmer = Stemmer::create(Algorithm::English);
            let stemmed = |list: &crate::lexicon::WordList| -> Vec<String> {
                list.iter().map(|w| stemmer.stem(w).to_string()).collect()
            };
            (
                stemmed(&words.share_of_revenue_words),
                stemmed(&words.share_of_revenue_between),
            )
        });
        let (ratio_words, between) = &*SHARE_WORDS;
        let next = stems[last + 1..]
            .iter()
            .take(3)
            .find(|stem| !between.contains(stem))?;
        if !ratio_words.contains(next) {
            return None;
        }
        let wanted = format!("{}/revenue", figure.id);
        self.concepts.iter().find(|c| {
            c.formula
                .as_deref()
                .is_some_and(|f| f.split_whitespace().collect::<String>() == wanted)
        })
    }

    /// The concepts `text` names, without the rules that read a whole question.
    fn asked_in_plain(&self, text: &str) -> Vec<&Concept> {
        let Claims { chosen, .. } = self.claims(text);
        chosen.into_iter().map(|(c, _)| &self.concepts[c]).collect()
    }

    /// The concepts named as the place a figure sits: after a placement word ("shown under
    /// non-current liabilities"), up to the next comma or sentence end.
    fn placed_in(&self, question: &str) -> Vec<String> {
        let lower = question.to_lowercase();
        let mut placed = Vec::new();
        for placement in lexicon().concepts.placements.iter() {
            let Some(at) = crate::question::vocabulary::find_phrase(&lower, placement) else {
                continue;
            };
            let after = &lower[at + placement.len()..];
            let place = after
                .split([',', ';', '?', '.', '(', ')'])
                .next()
                .unwrap_or("");
            let Claims { chosen, .. } = self.claims(place);
            placed.extend(chosen.into_iter().map(|(c, _)| self.concepts[c].id.clone()));
        }
        placed
    }

    /// The concepts `text` names, each with the stems it claims (first and one past the
    /// last), and the number of stems `text` has: where in a phrase each concept stands.
    pub fn spans_in(&self, text: &str) -> (usize, Vec<(&Concept, usize, usize)>) {
        let Claims {
            claimed, chosen, ..
        } = self.claims(text);
        let spans = chosen
            .into_iter()
            .filter_map(|(c, _)| {
                let first = claimed.iter().position(|x| *x == Some(c))?;
                let last = claimed.iter().rposition(|x| *x == Some(c))?;
                Some((&self.concepts[c], first, last + 1))
            })
            .collect();
        (claimed.len(), spans)
    }

    /// The line items a question needs: those it names, and the operands of the metrics it
    /// names, after the metric itself when filings print it as a row (without duplicates,
    /// in order).
    pub fn line_items_for(&self, question: &str) -> Vec<&Concept> {
        let mut out: Vec<&Concept> = Vec::new();
        for concept in self.asked_in(question) {
            let needed: Vec<&Concept> = if concept.is_metric() {
                let printed = (!concept.line_items.is_empty()).then_some(concept);
                printed
                    .into_iter()
                    .chain(
                        self.operand_ids(concept)
                            .unwrap_or_default()
                            .iter()
                            .filter_map(|id| self.get(id.strip_suffix(PRIOR_SUFFIX).unwrap_or(id))),
                    )
                    .collect()
            } else {
                // A line item some filers do not print is worked out from its operands.
                std::iter::once(concept)
                    .chain(
                        self.operand_ids(concept)
                            .unwrap_or_default()
                            .iter()
                            .filter_map(|id| self.get(id)),
                    )
                    .collect()
            };
            for c in needed {
                if !out.iter().any(|x| x.id == c.id) {
                    out.push(c);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(question: &str) -> Vec<String> {
        concept_table()
            .unwrap()
            .asked_in(question)
            .iter()
            .map(|c| c.id.clone())
            .collect()
    }

    #[test]
    fn cash_linked_to_what_it_pays_for_is_that_flow() {
        // Cash, a word or two of any kind and a preposition buy the balance after them.
        assert_eq!(
            ids("Visa's cash outlay for new property, plant and equipment in fiscal 2024"),
            ["capex"]
        );
        assert_eq!(ids("cash put toward the PP&E in fiscal 2024"), ["capex"]);
        // A participle and its preposition are a section's flow in one direction.
        assert_eq!(
            ids("Colgate's net cash produced by operating activities in fiscal 2023"),
            ["operating_cash_flow"]
        );
        // Words that keep cash a figure of its own keep it.
        assert_eq!(
            ids("cash and equivalents on the balance sheet"),
            ["cash_and_equivalents"]
        );
        assert_eq!(ids("cash paid to buy back stock in FY 23"), ["buybacks"]);
        assert_eq!(
            ids("How much did American Water Works pay out in cash dividends for FY2020?"),
            ["dividends_paid"]
        );
    }

    #[test]
    fn an_averaging_word_in_a_question_of_one_year_averages_the_metrics_balance() {
        assert_eq!(
            ids("Palantir's equity return on the opening/closing average (%) across fiscal 2023"),
            ["return_on_average_equity"]
        );
        // Over two years it is a mean of the metric, not of its balance.
        assert_eq!(
            ids("average return on equity over fiscal 2022 and fiscal 2023"),
            ["return_on_equity"]
        );
    }

    #[test]
    fn a_metric_named_with_its_balance_averaged_or_head_first_is_that_metric() {
        assert_eq!(
            ids("Meta's return on mean shareholders' equity (%) in 2023"),
            ["return_on_average_equity"]
        );
        assert_eq!(ids("return on mean total assets (%)"), ["return_on_assets"]);
        assert_eq!(
            ids("Boeing's turnover of mean total assets (times)"),
            ["asset_turnover"]
        );
        assert_eq!(
            ids("Apple's turnover of mean net PP&E"),
            ["fixed_asset_turnover"]
        );
        assert_eq!(
            ids("RTX's earnings for each diluted share"),
            ["diluted_eps"]
        );
        // "Mean" elsewhere changes nothing.
        assert_eq!(
            ids("the mean of Nike's revenue over three years"),
            ["revenue"]
        );
    }

    #[test]
    fn where_a_figure_sits_glosses_it_and_names_no_second_figure() {
        assert_eq!(
            ids("did its stockholders' equity (balance-sheet total) grow or shrink"),
            ["equity"]
        );
        assert_eq!(
            ids("Visa's balance-sheet total at FY2024"),
            ["total_assets"]
        );
    }

    #[test]
    fn a_bracketed_outflow_is_its_size_unless_the_label_brackets_the_contrary() {
        let table = concept_table().unwrap();
        let tax = table.get("income_tax").unwrap();
        assert_eq!(
            tax.amount_in_row(-1_132.0, "Provision for income taxes"),
            1_132.0
        );
        assert_eq!(
            tax.amount_in_row(-5_001.0, "(Benefit from) provision for income taxes"),
            -5_001.0
        );
        assert_eq!(
            tax.amount_in_row(-120.0, "Income tax expense (benefit)"),
            -120.0
        );
    }

    #[test]
    fn the_table_loads_and_every_formula_names_known_line_items() {
        let table = concept_table().unwrap();
        assert!(table.concepts.len() > 40);
        for metric in table.concepts.iter().filter(|c| c.is_metric()) {
            assert!(
                !table.operand_ids(metric).unwrap().is_empty(),
                "{}",
                metric.id
            );
        }
    }

    #[test]
    fn a_word_split_into_short_syllables_is_the_one_word() {
        assert_eq!(ids("What was General Motors' cap-ex in 2023?"), ["capex"]);
        assert_eq!(
            ids("What was General Motors' cap-ex-to-revenue, % in FY2023?"),
            ["capex_intensity"]
        );
        // "R-and-D" and "non-current" keep their pieces.
        assert_eq!(ids("Intel r-and-d spend"), ["research_and_development"]);
        assert_eq!(
            ids("Tesla's non-current liabilities"),
            ["noncurrent_liabilities"]
        );
    }

    #[test]
    fn cash_that_is_paid_or_spent_is_a_flow_not_the_cash_balance() {
        assert_eq!(
            ids("Intel's cash paid to shareholders as dividends in 2023"),
            ["dividends_paid"]
        );
        assert_eq!(ids("Walmart's cash position at year end"), ["cash"]);
    }

    #[test]
    fn a_gloss_naming_an_operand_of_the_metric_before_it_says_its_basis() {
        assert_eq!(
            ids("P&G, net margin, % of revenue (attributable net income), for fiscal-year 2024"),
            ["net_margin", "revenue"]
        );
        assert_eq!(
            ids("What net margin percent (attributable net income) did AbbVie show in FY2023?"),
            ["net_margin"]
        );
    }

    #[test]
    fn a_place_an_operation_word_or_a_prefix_names_no_second_figure() {
        assert_eq!(
            ids("GE -- long-term debt shown under non-current liabilities, FY2022 to FY2023, change in dollars?"),
            ["long_term_debt"]
        );
        assert_eq!(
            ids("I need RTX's accounts receivable growth from 2022 to 2023"),
            ["accounts_receivable"]
        );
        assert_eq!(
            ids("What was Apple's growth in FY2023?"),
            ["revenue_growth"]
        );
        assert_eq!(
            ids("What were Intel's non-current liabilities in 2023?"),
            ["noncurrent_liabilities"]
        );
        assert_eq!(
            ids("The dollar change in AbbVie's spending on property, plant and equipment"),
            ["capex"]
        );
    }

    #[test]
    fn a_balance_averaged_in_words_takes_the_metric_on_average_balances() {
        assert_eq!(
            ids("How does GE's ROE on mean equity work out for fiscal 2023?"),
            ["return_on_average_equity"]
        );
        assert_eq!(
            ids("What's Apple's return on equity (average-balance basis) for 2024?"),
            ["return_on_average_equity"]
        );
        assert_eq!(
            ids("What was Apple's return on equity in 2024?"),
            ["return_on_equity"]
        );
        assert_eq!(
            ids("Boeing's days of sales in receivables for 2023?"),
            ["days_sales_outstanding"]
        );
    }

    #[test]
    fn a_compound_is_read_head_last_and_a_name_said_head_first_is_the_name() {
        assert_eq!(ids("How did Meta's fixed-asset capex develop?"), ["capex"]);
        assert_eq!(
            ids("Walmart's mean inventory book value in FY23"),
            ["inventories"]
        );
        // A participle after a name qualifies nothing; a comma or slash joins no compound.
        assert_eq!(
            ids("Cisco's gross profit earned in FY23")[0],
            "gross_profit"
        );
        assert_eq!(ids("What was capex/revenue in FY23?"), ["capex_intensity"]);
        // A word that ends many names is no head of its own.
        assert!(ids("Boeing's D&A expense in FY23").contains(&"depreciation".to_string()));
        assert_eq!(
            ids("Palantir's expense for interest in FY22"),
            ["interest_expense"]
        );
    }

    #[test]
    fn a_flow_is_no_position_and_a_linking_verb_joins_a_modifier_to_its_figure() {
        assert_eq!(
            ids(
                "What net cash provided by or used in investing activities did GE report for 2023?"
            ),
            ["investing_cash_flow"]
        );
        assert_eq!(
            ids("What was Apple's net cash at the end of 2023?"),
            ["net_debt"]
        );
        assert_eq!(
            ids("What number does RTX give for cash spent on dividends in 2023?"),
            ["dividends_paid"]
        );
        assert_eq!(
            ids("Intel's depreciation & amortisation for 2023?"),
            ["depreciation"]
        );
    }

    #[test]
    fn a_modifier_word_qualifies_the_concept_after_it() {
        assert_eq!(
            ids("What was Meta's cash capital expenditure in fiscal 2023?"),
            ["capex"]
        );
        assert_eq!(
            ids("What were Meta's cash and capital expenditure in fiscal 2023?"),
            ["cash", "capex"]
        );
    }

    #[test]
    fn questions_in_analysts_words_name_concepts() {
        assert_eq!(
            ids("How much free cash flow did Microsoft generate in FY2023 after capex?"),
            ["free_cash_flow", "capex"]
        );
        assert_eq!(
            ids("What was Microsoft's quick ratio (acid test) at the end of fiscal 2023?"),
            ["quick_ratio"]
        );
        assert_eq!(
            ids("Is Microsoft turning into a more capital-intensive business?"),
            ["capex_intensity"]
        );
        assert_eq!(
            ids("How many days of inventory was Nike carrying?"),
            ["days_inventory"]
        );
        assert_eq!(
            ids("What drove Tesla's operating margin compression in 2023?"),
            ["operating_margin"]
        );
        assert!(ids("Who is the trustee for the notes?").is_empty());
        // A longer phrase claims its words: deferred revenue is a liability, not revenue;
        // earnings growth is the bottom line's.
        assert_eq!(
            ids("How much deferred revenue does Apple carry?"),
            ["deferred_revenue"]
        );
        assert_eq!(
            ids("What drove AEGON's earnings growth in 2000?"),
            ["net_income_growth"]
        );
        assert_eq!(
            ids("How much did Apple return to shareholders in fiscal 2024?"),
            ["shareholder_returns"]
        );
        // Per-share earnings are their own row, not net income; a company's cash burn is
        // its operating cash flow; "who is the CFO?" asks for a person.
        assert_eq!(ids("What was Nike's EPS in fiscal 2023?"), ["diluted_eps"]);
        assert_eq!(
            ids("What were diluted earnings per share?"),
            ["diluted_eps"]
        );
        assert!(ids("How much cash did CAMP4 burn in 2023?")
            .contains(&"operating_cash_flow".to_string()));
        assert!(ids("Who is Apple's CFO?").is_empty());
        // Stock-based comp is its own add-back, cash taxes the taxes paid, not cash.
        assert_eq!(
            ids("How much stock-based comp did Tesla record in 2023?"),
            ["stock_compensation"]
        );
        assert_eq!(
            ids("How much cash tax did Apple pay in fiscal 2024?"),
            ["income_taxes_paid"]
        );
    }

    #[test]
    fn a_balance_sheets_current_unearned_revenue_is_the_deferred_revenue_line() {
        let table = concept_table().unwrap();
        let text = "BALANCE SHEETS\n(In millions) | June 30, 2023 | June 30, 2022\nShort-term unearned revenue | 50,901 | 45,538\nLong-term unearned revenue | 2,912 | 2,870\n";
        let rows = crate::finance::find_rows(text, &table.line_items_for("unearned revenue"));
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].row.printed[0], "50,901");
    }

    #[test]
    fn a_metric_needs_its_operands() {
        let table = concept_table().unwrap();
        let items: Vec<String> = table
            .line_items_for("What was the quick ratio?")
            .iter()
            .map(|c| c.id.clone())
            .collect();
        assert_eq!(
            items,
            ["current_assets", "inventories", "current_liabilities"]
        );
    }

    #[test]
    fn an_amount_asked_is_the_amount_not_a_quotient_of_it() {
        assert_eq!(
            ids("How much did Colgate pay out in dividends last year?"),
            ["dividends_paid"]
        );
        assert_eq!(
            ids("Dividends paid out, FY2023, in USD millions?"),
            ["dividends_paid"]
        );
        assert!(
            ids("What share of its earnings did Colgate pay out in dividends?")
                .contains(&"payout_ratio".to_string())
        );
        assert_eq!(ids("What was the dividend payout ratio?"), ["payout_ratio"]);
    }

    #[test]
    fn a_statement_named_as_the_source_is_no_concept_asked() {
        assert_eq!(
            ids("Based on the company's fiscal '23 cash flow statement, what were its dividends paid?"),
            ["dividends_paid"]
        );
        assert_eq!(
            ids("Based on its FY'21 statement of earnings, what were its research and development costs?"),
            ["research_and_development"]
        );
        assert_eq!(
            ids("What was its working capital ratio at fiscal year-end 2022?"),
            ["current_ratio"]
        );
    }

    #[test]
    fn a_concept_claims_its_words_whole_and_shorthand_inside_it_is_skipped() {
        // "generated from operations" and then "cash generation": cash from operations,
        // and not cash besides.
        assert_eq!(
            ids("What was the cash generated from operations in fiscal 2023?"),
            ["operating_cash_flow"]
        );
        assert_eq!(
            ids("Nike net income YoY growth fiscal '24 vs fiscal '23 (%)"),
            ids("Nike net income growth fiscal '24 vs fiscal '23 (%)")
        );
        assert_eq!(
            ids("short-term liabilities at year end"),
            ["current_liabilities"]
        );
        // A word of the other concept's phrasing, apart from it, is that concept's.
        assert_eq!(
            ids("How much cash did UnitedHealth generate from operations in 2023?"),
            ["operating_cash_flow"]
        );
        assert_eq!(
            ids("How much cash and capital expenditures did it report?"),
            ["cash", "capex"]
        );
    }
}
