//! A metric named by its shape rather than by a name the metrics table knows: "EBITDA as a
//! proportion of revenue", "operating cash flow cover of current liabilities", "OCF-to-CL
//! ratio", "operating profit percentage". The name is read as a definition (one figure over
//! another) and worked out as a definition the question gives would be; the words are in
//! the lexicon's `[shapes]`.

use super::concepts::{Concept, ConceptTable, MetricUnit, PRIOR_SUFFIX};
use crate::lexicon::lexicon;
use crate::question::Definition;
use std::cmp::Reverse;

/// A quotient the question names by its shape: the figure over, the figure under, whether
/// it is shown in percent, and the name it is given.
#[derive(Debug, Clone)]
pub struct Shaped<'a> {
    pub over: &'a Concept,
    pub under: &'a Concept,
    /// The figure over is the year's average balance ("days of revenue tied up in average
    /// receivables").
    pub averaged_over: bool,
    /// The figure under is the year's average balance ("sales / avg. net PP&E").
    pub averaged_under: bool,
    pub percent: bool,
    /// The quotient is in days of the figure under ("days of revenue tied up in
    /// receivables": receivables over a day's revenue).
    pub days: bool,
    pub name: String,
}

impl<'a> Shaped<'a> {
    /// The table's metric that is exactly this quotient ("SG&A-to-revenue" is SG&A
    /// intensity), so it is worked out, averaged and compared as that metric.
    pub fn table_metric(&self, table: &'a ConceptTable) -> Option<&'a Concept> {
        let side = |c: &Concept| match (c.is_metric(), c.formula.as_deref()) {
            (true, Some(f)) => format!("({f})"),
            _ => c.id.clone(),
        };
        let under = match self.averaged_under {
            true => format!("(({0} + {0}{PRIOR_SUFFIX}) / 2)", self.under.id),
            false => side(self.under),
        };
        // The table writes a days metric's averaged balance unbracketed: "(ar + ar_prior) /
        // 2 / revenue * 365".
        let over = match (self.averaged_over, self.days) {
            (true, true) => format!("({0} + {0}{PRIOR_SUFFIX}) / 2", self.over.id),
            (true, false) => format!("(({0} + {0}{PRIOR_SUFFIX}) / 2)", self.over.id),
            (false, _) => side(self.over),
        };
        let days = if self.days { " * 365" } else { "" };
        quotient_metric(table, &format!("{over} / {under}{days}"))
    }

    /// The definition the name implies, worked out as a definition the question gives.
    pub fn definition(&self) -> Definition {
        let scaling = match (self.days, self.percent) {
            (true, _) => " times 365",
            (false, true) => " times 100",
            (false, false) => "",
        };
        let average = |yes: bool| if yes { "average " } else { "" };
        Definition {
            name: self.name.clone(),
            formula: format!(
                "{}{} divided by {}{}{scaling}",
                average(self.averaged_over),
                phrase(self.over),
                average(self.averaged_under),
                phrase(self.under)
            ),
        }
    }
}

/// The quotient the question's words name: a figure, a relation word ("as a share of",
/// "cover of", "to") and a figure right after it, or a profit with a share-of-revenue word
/// after it ("operating profit percentage"). `None` when the question names no such shape.
pub fn shape_in<'a>(table: &'a ConceptTable, content: &str) -> Option<Shaped<'a>> {
    let lower = content.to_lowercase();
    let shapes = &lexicon().shapes;
    let mut relations: Vec<(&str, bool)> = shapes
        .percent_of
        .iter()
        .map(|w| (w, true))
        .chain(shapes.ratio_of.iter().map(|w| (w, false)))
        .collect();
    relations.sort_by_key(|(w, _)| Reverse(w.len()));
    for (word, percent) in relations {
        for at in bounded_matches(&lower, word) {
            let (left, right) = (&lower[..at], &lower[at + word.len()..]);
            // "cash/cash equivalents", "depreciation/amortization": a slash that joins
            // names of one figure divides nothing.
            if word == "/" && joins_one_figure(table, left, right) {
                continue;
            }
            // "sales / avg. net PP&E": the figure under is averaged over the year.
            let (right, averaged_under) = without_balance_basis(right);
            let (over, under) = match asks_which_part(left) {
                // "What share of revenue did capex represent?": the figure over comes after.
                true => (
                    figure_after_the_first(table, right),
                    figure_starting(table, right),
                ),
                false => (figure_ending(table, left), figure_starting(table, right)),
            };
            let (Some(over), Some(under)) = (over, under) else {
                continue;
            };
            if over.id == under.id {
                continue;
            }
            // "SG&A-to-revenue %" is shown in percent.
            let percent = percent || right.contains('%') || right.contains("percent");
            return Some(Shaped {
                over,
                under,
                averaged_over: false,
                averaged_under,
                percent,
                days: false,
                name: format!("{} {word} {}", phrase(over), phrase(under)),
            });
        }
    }
    if let Some(shaped) = spent_of_each_dollar(table, &lower) {
        return Some(shaped);
    }
    if let Some(shaped) = days_held(table, &lower) {
        return Some(shaped);
    }
    let mut suffixes: Vec<&str> = shapes.of_revenue_suffixes.iter().collect();
    suffixes.sort_by_key(|w| Reverse(w.len()));
    let revenue = table.get("revenue")?;
    for suffix in suffixes {
        for at in bounded_matches(&lower, suffix) {
            let (left, right) = (&lower[..at], &lower[at + suffix.len()..]);
            let Some(profit) =
                figure_ending(table, left).filter(|c| shapes.margin_bases.contains(&c.id))
            else {
                continue;
            };
            // "the rate of X" names X, not a share of revenue.
            if figure_starting(table, right).is_some() || profit.id == revenue.id {
                continue;
            }
            return Some(Shaped {
                over: profit,
                under: revenue,
                averaged_over: false,
                averaged_under: false,
                percent: true,
                days: false,
                name: format!("{} as a share of revenue", phrase(profit)),
            });
        }
    }
    None
}

/// The table's quotient of the two figures `asked` names, when the question asks a quotient
/// (`percent`, or a word of `shapes.quotient_words`) but relates the figures in words no
/// shape reads ("Apple's current-liability cover from operating cash (x)", "dividends
/// against earnings, %"). The table decides which figure is over which: `None` unless
/// exactly one of its metrics divides one of them by the other.
pub fn quotient_of_named_figures<'a>(
    table: &'a ConceptTable,
    content: &str,
    percent: bool,
    asked: &[&'a Concept],
) -> Option<&'a Concept> {
    let [first, second] = asked else {
        return None;
    };
    if !is_figure(first) || !is_figure(second) || first.id == second.id {
        return None;
    }
    let lower = content.to_lowercase();
    let asks_a_quotient = percent
        || lexicon()
            .shapes
            .quotient_words
            .iter()
            .any(|w| bounded_matches(&lower, w).next().is_some());
    if !asks_a_quotient {
        return None;
    }
    let quotient = |over: &Concept, under: &Concept| {
        quotient_metric(table, &format!("{} / {}", over.id, under.id))
    };
    match (quotient(first, second), quotient(second, first)) {
        (Some(metric), None) | (None, Some(metric)) => Some(metric),
        _ => None,
    }
}

/// The table's metric (a quotient, not an amount) whose formula is `formula`, spaces aside.
fn quotient_metric<'a>(table: &'a ConceptTable, formula: &str) -> Option<&'a Concept> {
    let wanted: String = formula.split_whitespace().collect();
    table.concepts.iter().find(|c| {
        c.is_metric()
            && c.unit != Some(MetricUnit::Amount)
            && c.formula
                .as_deref()
                .is_some_and(|f| f.split_whitespace().collect::<String>() == wanted)
    })
}

/// "How much of each revenue dollar went on R&D?", "cents of every dollar of sales spent on
/// SG&A": the figure spent over the figure of whose dollars it is spent, in percent.
fn spent_of_each_dollar<'a>(table: &'a ConceptTable, lower: &str) -> Option<Shaped<'a>> {
    let shapes = &lexicon().shapes;
    for each in shapes.each_dollar.iter() {
        for at in bounded_matches(lower, each) {
            let after = lower[at + each.len()..].trim_start();
            let Some((spent_at, verb)) = shapes
                .spent_on
                .iter()
                .filter_map(|v| Some((bounded_matches(after, v).next()?, v)))
                .min_by_key(|(at, _)| *at)
            else {
                continue;
            };
            // "each revenue dollar" or "each dollar of revenue", read alone.
            let base = &after[..spent_at];
            let base = ["dollar of ", "$ of ", "$1 of ", "dollar in "]
                .iter()
                .find_map(|d| base.strip_prefix(d))
                .unwrap_or(base);
            let Some(under) = figure_starting(table, base) else {
                continue;
            };
            let Some(over) = figure_starting(table, after[spent_at + verb.len()..].trim_start())
            else {
                continue;
            };
            if over.id == under.id {
                continue;
            }
            return Some(Shaped {
                over,
                under,
                averaged_over: false,
                averaged_under: false,
                percent: true,
                days: false,
                name: format!("{} as a share of {}", phrase(over), phrase(under)),
            });
        }
    }
    None
}

/// "Days of revenue tied up in average receivables", "days' worth of sales sitting in
/// receivables": the balance over the flow, in days.
fn days_held<'a>(table: &'a ConceptTable, lower: &str) -> Option<Shaped<'a>> {
    let shapes = &lexicon().shapes;
    let mut held_in: Vec<&str> = shapes.held_in.iter().collect();
    held_in.sort_by_key(|w| Reverse(w.len()));
    for days_of in shapes.days_of.iter() {
        for at in bounded_matches(lower, days_of) {
            let after = &lower[at + days_of.len()..];
            for held in &held_in {
                for at in bounded_matches(after, held) {
                    let Some(flow) = figure_ending(table, &after[..at]) else {
                        continue;
                    };
                    let (rest, averaged) = without_balance_basis(&after[at + held.len()..]);
                    let Some(balance) = figure_starting(table, rest) else {
                        continue;
                    };
                    if balance.id == flow.id {
                        continue;
                    }
                    return Some(Shaped {
                        over: balance,
                        under: flow,
                        averaged_over: averaged,
                        averaged_under: false,
                        percent: false,
                        days: true,
                        name: format!("days of {} in {}", phrase(flow), phrase(balance)),
                    });
                }
            }
        }
    }
    None
}

/// `right` without the word it opens with that says which balance it is, and whether that
/// is the year's average ("avg. net PP&E", "the average of total assets", "averaged total
/// assets"); a year-end balance ("year-end current liabilities") is the default one.
fn without_balance_basis(right: &str) -> (&str, bool) {
    let shapes = &lexicon().shapes;
    let trimmed = right.trim_start();
    let rest = trimmed.strip_prefix("the ").unwrap_or(trimmed);
    let after_word = |list: &crate::lexicon::WordList| {
        let mut words: Vec<&str> = list.iter().collect();
        words.sort_by_key(|w| Reverse(w.len()));
        words.into_iter().find_map(|w| {
            let after = rest.strip_prefix(w)?;
            after
                .starts_with([' ', '-'])
                .then(|| after.trim_start_matches([' ', '-']))
        })
    };
    if let Some(after) = after_word(&shapes.averaged_balance) {
        return (after.strip_prefix("of ").unwrap_or(after), true);
    }
    match after_word(&shapes.year_end_balance) {
        Some(after) => (after, false),
        None => (right, false),
    }
}

/// Whether the words either side of a slash name one figure: the right repeats the left's
/// last word ("cash/cash equivalents"), or "<left> and <right>" is one concept's name
/// ("depreciation/amortization").
fn joins_one_figure(table: &ConceptTable, left: &str, right: &str) -> bool {
    let word = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric() && c != '&')
            .to_string()
    };
    let (Some(last), Some(next)) = (
        left.split_whitespace().last().map(word),
        right.split_whitespace().next().map(word),
    ) else {
        return false;
    };
    // "operating income/(loss)": the slash offers the line's other sign.
    if right.trim_start().starts_with('(') {
        return true;
    }
    if last.is_empty() || next.is_empty() {
        return false;
    }
    if last == next {
        return true;
    }
    let (stems, spans) = table.spans_in(&format!("{last} and {next}"));
    spans.len() == 1 && spans[0].1 == 0 && spans[0].2 == stems
}

/// The words that name `concept` to the concept table (its first phrasing).
fn phrase(concept: &Concept) -> &str {
    concept
        .asked_as
        .first()
        .map_or(concept.label.as_str(), String::as_str)
}

/// Where `word` stands in `text` as whole words.
fn bounded_matches<'t>(text: &'t str, word: &'t str) -> impl Iterator<Item = usize> + 't {
    text.match_indices(word).filter_map(move |(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '&');
        // A symbol-led word ("% of") needs no boundary before it, a symbol ("/") none at all.
        let starts_with_symbol = word.starts_with(|c: char| !c.is_alphanumeric());
        let symbol = word.chars().all(|c| !c.is_alphanumeric());
        (symbol || (starts_with_symbol || edge(before)) && edge(after)).then_some(at)
    })
}

/// A figure the question can divide: a line item, or an amount the table defines (EBITDA).
fn is_figure(concept: &Concept) -> bool {
    !concept.is_metric() || concept.unit == Some(MetricUnit::Amount)
}

/// The figure whose name ends `text`, or ends it before a word that only says it is a figure
/// ("SG&A spend", "R&D outlays").
fn figure_ending<'a>(table: &'a ConceptTable, text: &str) -> Option<&'a Concept> {
    let ending = |text: &str| {
        let (stems, spans) = table.spans_in(text);
        spans
            .into_iter()
            .find(|(c, _, end)| *end == stems && is_figure(c))
            .map(|(c, _, _)| c)
    };
    ending(text).or_else(|| {
        let trimmed = text.trim_end();
        let (before, last) = trimmed.rsplit_once(|c: char| c.is_whitespace() || c == '-')?;
        lexicon()
            .shapes
            .figure_words
            .contains(last.to_lowercase())
            .then(|| ending(before))
            .flatten()
    })
}

/// Whether `left` ends by asking what part ("what", "which", "what is the").
fn asks_which_part(left: &str) -> bool {
    let words: Vec<&str> = left.split_whitespace().rev().take(3).collect();
    let asks = |w: &str| matches!(w, "what" | "which" | "what's" | "whats");
    let article = |w: &str| matches!(w, "the" | "a");
    match words.as_slice() {
        [first, ..] if asks(first) => true,
        // "what is the share of …": reversed, the article, the verb, the asking word.
        [a, verb, third] if article(a) && matches!(*verb, "is" | "was") => asks(third),
        [a, second, ..] if article(a) => asks(second),
        _ => false,
    }
}

/// The first figure named after the one that starts `text`.
fn figure_after_the_first<'a>(table: &'a ConceptTable, text: &str) -> Option<&'a Concept> {
    let (_, spans) = table.spans_in(text);
    let (_, _, first_end) = spans.iter().find(|(_, start, _)| *start == 0)?;
    spans
        .iter()
        .find(|(c, start, _)| *start >= *first_end && is_figure(c))
        .map(|(c, _, _)| *c)
}

/// The figure whose name starts `text`.
fn figure_starting<'a>(table: &'a ConceptTable, text: &str) -> Option<&'a Concept> {
    let (_, spans) = table.spans_in(text);
    spans
        .into_iter()
        .find(|(c, start, _)| *start == 0 && is_figure(c))
        .map(|(c, _, _)| c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finance::concepts::concept_table;

    fn formula(content: &str) -> Option<String> {
        shape_in(concept_table().unwrap(), content).map(|s| s.definition().formula)
    }

    /// The table's metric the shape in `content` is, by id.
    fn metric(content: &str) -> Option<String> {
        let table = concept_table().unwrap();
        shape_in(table, content)
            .and_then(|s| s.table_metric(table))
            .map(|c| c.id.clone())
    }

    /// The table's quotient of the figures `content` names, by id, as the lead infers it.
    fn quotient(content: &str, percent: bool) -> Option<String> {
        let table = concept_table().unwrap();
        let asked = table.asked_in(content);
        quotient_of_named_figures(table, content, percent, &asked).map(|c| c.id.clone())
    }

    #[test]
    fn two_figures_named_where_a_quotient_is_asked_are_the_tables_quotient_of_them() {
        // The relation is in words no shape reads; the table says which figure is over.
        assert_eq!(
            quotient(
                "What was Apple's current-liability cover from operating cash (x) in fiscal 2024?",
                false
            )
            .as_deref(),
            Some("operating_cash_flow_ratio")
        );
        assert_eq!(
            quotient("Intel: dividends set against net income in 2023", true).as_deref(),
            Some("payout_ratio")
        );
        // Two figures asked as amounts, or with no quotient asked, stay two figures.
        assert_eq!(
            quotient(
                "What were Apple's net income and dividends in fiscal 2024?",
                false
            ),
            None
        );
        // No metric of the table divides one by the other.
        assert_eq!(
            quotient("Apple's inventories against goodwill (x) in 2024", false),
            None
        );
    }

    #[test]
    fn a_shape_that_is_a_metric_of_the_table_is_that_metric() {
        assert_eq!(
            metric("Nike: mean of annual SG&A-to-revenue %, FY22 through FY24").as_deref(),
            Some("sga_intensity")
        );
        assert_eq!(
            metric("What did Meta's EBITDA as a proportion of revenue come to?").as_deref(),
            Some("ebitda_margin")
        );
        assert_eq!(
            metric("Cisco's operating cash flow cover of current liabilities").as_deref(),
            Some("operating_cash_flow_ratio")
        );
        // Revenue over total assets is no metric of the table (turnover is on averages).
        assert_eq!(metric("GM's revenue to total assets in 2023"), None);
        assert_eq!(
            metric("GM's sales per dollar of averaged total assets in 2023").as_deref(),
            Some("asset_turnover")
        );
        assert_eq!(
            metric("days of sales locked up in the average receivables at Visa").as_deref(),
            Some("days_sales_outstanding")
        );
    }

    #[test]
    fn a_balance_named_at_year_end_and_days_held_are_read_from_the_shape() {
        let year_end = formula("Walmart's operating cash flow ÷ year-end current liabilities")
            .expect("a shape");
        assert!(!year_end.contains("average"), "{year_end}");
        assert!(year_end.contains("current liabilities"), "{year_end}");
        let days = formula("how many days' worth of revenue sat in closing receivables at Visa")
            .expect("a shape");
        assert!(days.ends_with("times 365"), "{days}");
        assert!(!days.contains("average"), "{days}");
        assert!(formula("Boeing's capex load on revenue").is_some());
    }

    #[test]
    fn one_figure_related_to_another_is_their_quotient() {
        assert_eq!(
            formula("What did Meta Platforms' EBITDA as a proportion of revenue come to in 2023?")
                .as_deref(),
            Some("ebitda divided by revenue times 100")
        );
        let cover = formula(
            "Please calculate the operating cash flow cover of current liabilities of Cisco for fiscal 2024.",
        )
        .unwrap();
        assert!(cover.ends_with("divided by current liabilities"), "{cover}");
        assert!(formula(
            "What was J&J's current-asset cover of current liabilities at Dec 31, 2023?"
        )
        .is_some_and(|f| f.starts_with("current assets divided by")));
    }

    #[test]
    fn what_share_of_one_figure_another_is() {
        assert_eq!(
            formula("What is the share of revenue that Apple's capex represented in 2024?")
                .as_deref(),
            Some("capex divided by revenue times 100")
        );
        assert_eq!(
            formula("Across fiscal years 2021 through 2023, what share of revenue did GM's capex represent on average?")
                .as_deref(),
            Some("capex divided by revenue times 100")
        );
    }

    #[test]
    fn a_profit_named_as_a_percentage_is_its_share_of_revenue() {
        assert_eq!(
            formula("What did AbbVie's operating profit percentage come to in FY2023?").as_deref(),
            Some("operating income divided by revenue times 100")
        );
    }

    #[test]
    fn a_figure_spent_out_of_each_dollar_of_another_is_its_share() {
        assert_eq!(
            formula("On average, how much of each revenue dollar went on research and development at Boeing across the three fiscal years?").as_deref(),
            Some("r&d divided by revenue times 100")
        );
        assert_eq!(
            formula("How many cents of every dollar of sales were spent on SG&A in FY2023?")
                .as_deref(),
            Some("sg&a divided by revenue times 100")
        );
    }

    #[test]
    fn a_word_that_only_says_a_figure_is_one_leaves_its_name_whole() {
        assert_eq!(
            formula("General Electric's SG&A spend divided by revenue for FY2021, FY2022 and FY2023, averaged?").as_deref(),
            Some("sg&a divided by revenue")
        );
        assert_eq!(
            formula("Work out Palantir's R&D outlays/revenue ratio for each year").as_deref(),
            Some("r&d divided by revenue")
        );
    }

    #[test]
    fn an_averaged_denominator_takes_the_metric_on_average_balances() {
        assert_eq!(
            metric("Visa sales / avg. assets for the year ending Sep-24").as_deref(),
            Some("asset_turnover")
        );
        assert_eq!(
            formula("Procter & Gamble COGS / avg. inventory for the year ending Jun-24").as_deref(),
            Some("cost of sales divided by average inventory")
        );
        assert_eq!(
            metric("Procter & Gamble COGS / avg. inventory for the year ending Jun-24").as_deref(),
            Some("inventory_turnover")
        );
        assert_eq!(
            formula("Apple's operating income/(loss) over fiscal 2023?"),
            None
        );
    }

    #[test]
    fn a_slash_that_joins_names_of_one_figure_divides_nothing() {
        assert_eq!(
            formula("Walmart cash/cash equivalents at FY2024 y/e?"),
            None
        );
        assert_eq!(formula("Meta's depreciation/amortization for 2023?"), None);
        assert!(formula("Meta's capex/revenue for 2023?").is_some());
    }

    #[test]
    fn words_that_relate_no_two_figures_define_nothing() {
        assert_eq!(
            formula("What did Apple's revenue come to for the year to 28 September 2024?"),
            None
        );
        assert_eq!(
            formula("What was the interest rate on Apple's term debt?"),
            None
        );
        assert_eq!(formula("What was Apple's net income in fiscal 2024?"), None);
    }
}
