//! How analysts' wording of a figure is evened out before concepts are matched: a
//! cash flow's two directions ("net cash used in/provided by financing"), a result and its
//! loss ("operating profit/loss"), inflows and outflows, and a parenthesised gloss that names
//! the same figure in other words ("net assets attributable to shareholders (equity)").

use super::concepts::{Concept, ConceptTable};
use regex::Regex;
use std::sync::LazyLock;

/// The verbs a cash flow statement writes a flow's direction with.
const FLOW_VERBS: &str = r"(?:provided\s+by|used\s+in|used\s+for|generated\s+by|generated\s+from|generated\s+in|generated|used|from)";

static BOTH_DIRECTIONS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b{FLOW_VERBS}\s*(?:/|\bor\b)?\s*\(\s*{FLOW_VERBS}\s*\)|\b{FLOW_VERBS}\s*(?:/|\bor\b)\s*\(?\s*{FLOW_VERBS}\b\)?|\(\s*{FLOW_VERBS}\s*\)\s*/?\s*{FLOW_VERBS}\b"
    ))
    .ok()
});

static RESULT_OR_LOSS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(profit|income|earnings|gain)s?\s*(?:/|\bor\b)\s*\(?\s*(?:loss|losses|deficit)\b\)?|\b(profit|income|earnings|gain)s?\s*\(\s*(?:loss|losses)\s*\)").ok()
});

static INFLOW_OUTFLOW: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:in|out)flows?(?:\s*(?:/|\bor\b)\s*\(?(?:in|out)flows?\)?)?\b").ok()
});

/// "Net cash used for investing activities", "cash absorbed by financing", "net cash
/// produced by operating activities" (any participle and its preposition): one direction
/// of a section's flow is the flow.
static ONE_DIRECTION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:{FLOW_VERBS}|spent\s+on|applied\s+to|absorbed\s+by|consumed\s+by|used\s+by|put\s+into|raised\s+(?:by|from|in)|[a-z]+(?:ed|en)\s+(?:by|from|in|for|on|into|to|through))\s+(?:the\s+|its\s+)?(operating|investing|financing|operations)\b"
    ))
    .ok()
});

static SECTION_FLOW: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(operating|investing|financing)(?:[\s-]+(?:section|activities|activity|net|total|related))+[\s-]+(?:net[\s-]+)?cash[\s-]+flows?\b").ok()
});

/// "Receivables turnover in days", "inventory turnover expressed in days": the turnover as
/// the days a balance is held.
static TURNOVER_IN_DAYS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(receivables?|accounts\s+receivable|a/r|inventor(?:y|ies))\s+turnover\s+(?:expressed\s+|measured\s+|stated\s+|shown\s+)?in\s+days\b").ok()
});

/// "Net cash flow, operating section", "cash flows -- investing activities": the label
/// written as an index writes it, the section after a comma.
static SECTION_AFTER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:net\s+)?cash\s+flows?\s*(?:,|--|—|–|:)\s*(?:from\s+|the\s+)?(operating|investing|financing)(?:[\s-]+(?:section|activities|activity))?\b").ok()
});

/// `text` with a flow's two directions written as one ("net cash from financing"), a result
/// and its loss as the result ("operating profit"), and an inflow or outflow as a flow.
pub fn evened(text: &str) -> String {
    let mut out = text.to_string();
    if let Some(re) = BOTH_DIRECTIONS.as_ref() {
        out = re.replace_all(&out, "from").into_owned();
    }
    if let Some(re) = RESULT_OR_LOSS.as_ref() {
        out = re
            .replace_all(&out, |c: &regex::Captures| {
                c.get(1).or(c.get(2)).map_or("", |m| m.as_str()).to_string()
            })
            .into_owned();
    }
    if let Some(re) = ONE_DIRECTION.as_ref() {
        out = re.replace_all(&out, "from $1").into_owned();
    }
    if let Some(re) = INFLOW_OUTFLOW.as_ref() {
        out = re.replace_all(&out, "flow").into_owned();
    }
    // "financing-section net cash flow" is the financing cash flow.
    if let Some(re) = SECTION_FLOW.as_ref() {
        out = re.replace_all(&out, "$1 cash flow").into_owned();
    }
    if let Some(re) = SECTION_AFTER.as_ref() {
        out = re.replace_all(&out, "$1 cash flow").into_owned();
    }
    if let Some(re) = TURNOVER_IN_DAYS.as_ref() {
        out = re.replace_all(&out, "$1 days").into_owned();
    }
    // "Inventory rotation" is inventory turnover.
    for [word, meant] in &crate::lexicon::lexicon().concepts.metric_word_synonyms {
        let lower = out.to_ascii_lowercase();
        let Some(at) = crate::question::vocabulary::find_phrase(&lower, word) else {
            continue;
        };
        out.replace_range(at..at + word.len(), meant);
    }
    out
}

/// `asked` without what a parenthesised gloss makes redundant: "capex (cash paid for fixed
/// assets)", "net assets attributable to shareholders (equity)" and "current ratio
/// (liquidity)" each ask one figure. Words that end in a figure's name right before the
/// parenthesis keep it, unless the gloss is wholly a name of another, of two words or more and
/// as long or longer; a modifier ("(cash)") qualifies; words that only
/// hold a figure's name somewhere ("net assets attributable to …") yield to a gloss that is
/// wholly one; a gloss naming one of the metric's operands ("DSO (average A/R basis)") says
/// its basis.
pub fn without_glossed<'t>(
    table: &'t ConceptTable,
    question: &str,
    mut asked: Vec<&'t Concept>,
) -> Vec<&'t Concept> {
    let parentheses = crate::question::units::groups(question)
        .map(|(_, at)| at)
        .filter(|&(open, _)| question.as_bytes()[open] == b'(');
    for (open, close) in parentheses {
        let inside = &question[open + 1..close];
        let (gloss_words, glossed) = table.spans_in(inside);
        // "dividends distributed (cash)": a modifier qualifies the figure, it names none.
        let concept_words = &crate::lexicon::lexicon().concepts;
        let modifier = concept_words
            .modifiers
            .contains(inside.trim().to_lowercase());
        // "(balance-sheet total)" says where the figure before it sits: what its words name
        // (total assets) is not asked.
        if concept_words
            .statement_glosses
            .contains(inside.trim().to_lowercase())
        {
            let (_, before) = table.spans_in(&question[..open]);
            let placed: Vec<&str> = glossed
                .iter()
                .filter(|(g, _, _)| before.iter().all(|(b, _, _)| b.id != g.id))
                .map(|(g, _, _)| g.id.as_str())
                .collect();
            if asked.iter().any(|c| !placed.contains(&c.id.as_str())) {
                asked.retain(|c| !placed.contains(&c.id.as_str()));
            }
            continue;
        }
        if glossed.is_empty() || modifier {
            continue;
        }
        let whole = match glossed.as_slice() {
            [(only, first, end)] if end - first == gloss_words => Some((*only, end - first)),
            _ => None,
        };
        let before: Vec<&str> = question[..open].split_whitespace().collect();
        let phrase = before[before.len().saturating_sub(6)..].join(" ");
        let (phrase_words, spans) = table.spans_in(&phrase);
        let named = spans.iter().max_by_key(|(_, _, end)| *end);
        // The gloss names an operand of a metric the words before it name ("net margin, % of
        // revenue (attributable net income)", "net margin percent (attributable net
        // income)"): it says that metric's basis.
        let basis = spans.iter().any(|(metric, _, _)| {
            metric.is_metric()
                && table.operand_ids(metric).is_ok_and(|ids| {
                    ids.iter().any(|id| {
                        glossed
                            .iter()
                            .any(|(g, _, _)| id.starts_with(g.id.as_str()))
                    })
                })
        });
        let drop: Vec<String> = match (named, whole) {
            (Some((named, first, end)), _) if *end == phrase_words => {
                match whole {
                    Some((gloss, _)) if gloss.id == named.id => Vec::new(),
                    // The gloss wins: the figures named in the words it glosses go, the
                    // one before the parenthesis and those running up to it ("asset" of
                    // "asset efficiency ratio").
                    Some((_, length)) if !basis && length >= (end - first).max(2) => spans
                        .iter()
                        .filter(|(_, _, e)| *e >= *first)
                        .map(|(c, _, _)| c.id.clone())
                        .collect(),
                    _ => glossed
                        .iter()
                        .filter(|(g, _, _)| g.id != named.id)
                        .map(|(g, _, _)| g.id.clone())
                        .collect(),
                }
            }
            (Some(_), Some(_)) if basis => glossed.iter().map(|(g, _, _)| g.id.clone()).collect(),
            (Some((named, _, _)), Some((gloss, _))) if gloss.id != named.id => {
                vec![named.id.clone()]
            }
            _ => Vec::new(),
        };
        if asked.iter().any(|c| !drop.contains(&c.id)) {
            asked.retain(|c| !drop.contains(&c.id));
        }
    }
    asked
}

/// Whether a word of the year's close stands right before a balance's name ("closing AR",
/// "ending net PP&E", "year-end stockholders' equity"): the metric is on that balance as it
/// closed the year, not averaged.
pub fn closes_a_balance(table: &ConceptTable, question: &str) -> bool {
    const CLOSING: [&str; 8] = [
        "closing",
        "ending",
        "year-end",
        "ye",
        "end-of-year",
        "period-end",
        "end-of-period",
        "yearend",
    ];
    let words: Vec<&str> = question.split_whitespace().collect();
    words.iter().enumerate().any(|(at, word)| {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
        CLOSING.contains(&word.to_lowercase().as_str()) && {
            let after = words[at + 1..].join(" ").to_lowercase();
            table
                .concepts
                .iter()
                .filter(|c| c.statement == Some(super::concepts::Statement::Balance))
                .flat_map(|c| c.asked_as.iter())
                .any(|name| {
                    after.starts_with(name.as_str())
                        && !after[name.len()..].starts_with(|ch: char| ch.is_alphanumeric())
                })
        }
    })
}

/// The line item a parenthesis names wholly, in two words or more ("obligations due within a
/// year (total current liabilities)"): the asker's own words before it only paraphrase it.
pub fn whole_gloss<'t>(table: &'t ConceptTable, question: &str) -> Option<&'t Concept> {
    glossed_figure(table, question).filter(|c| !c.is_metric())
}

/// The line item or metric a parenthesis names wholly, in two words or more ("short-term
/// solvency ratio (current ratio)"): the figure asked, whatever the words before it.
pub fn glossed_figure<'t>(table: &'t ConceptTable, question: &str) -> Option<&'t Concept> {
    crate::question::units::groups(question)
        .filter(|&(_, (open, _))| question.as_bytes()[open] == b'(')
        .find_map(|(inside, (open, _))| {
            if crate::lexicon::lexicon()
                .concepts
                .statement_glosses
                .contains(inside.trim().to_lowercase())
            {
                return None;
            }
            let (words, glossed) = table.spans_in(inside);
            let [(only, 0, end)] = glossed.as_slice() else {
                return None;
            };
            // A parenthesis after a name of the table's own qualifies that figure, it does not
            // replace it: "stockholders' equity (balance-sheet total)" is the equity's total
            // line, "net margin percent (attributable net income)" the margin on that income.
            let (before, named_before) = table.spans_in(&question[..open]);
            let qualifies = named_before
                .iter()
                .any(|(named, _, last)| named.id != only.id && last + 1 >= before);
            (*end == words && words >= 2 && !qualifies).then_some(*only)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finance::concepts::concept_table;

    #[test]
    fn the_wording_patterns_compile() {
        assert!(BOTH_DIRECTIONS.is_some());
        assert!(RESULT_OR_LOSS.is_some());
        assert!(INFLOW_OUTFLOW.is_some());
        assert!(SECTION_FLOW.is_some());
        assert!(ONE_DIRECTION.is_some());
        assert!(SECTION_AFTER.is_some());
        assert!(TURNOVER_IN_DAYS.is_some());
    }

    #[test]
    fn both_directions_of_a_flow_and_a_result_or_loss_name_one_figure() {
        assert_eq!(
            evened("net cash used in/provided by financing"),
            "net cash from financing"
        );
        assert_eq!(
            evened("net cash provided by (used in) investing activities"),
            "net cash from investing activities"
        );
        assert_eq!(
            evened("cash (used in) provided by operations"),
            "cash from operations"
        );
        assert_eq!(evened("operating profit/loss"), "operating profit");
        assert_eq!(
            evened("net cash used for investing activities"),
            "net cash from investing activities"
        );
        assert_eq!(evened("cash absorbed by financing"), "cash from financing");
        assert_eq!(
            evened("a higher receivables turnover in days (closing A/R)"),
            "a higher receivables days (closing A/R)"
        );
        assert_eq!(
            evened("Boeing: net cash flow, operating section, in 2023"),
            "Boeing: operating cash flow, in 2023"
        );
        assert_eq!(evened("net income (loss)"), "net income");
        assert_eq!(
            evened("net operating cash inflow"),
            "net operating cash flow"
        );
        assert_eq!(evened("cash used in investing"), "cash from investing");
        assert_eq!(
            evened("Cisco's financing-section net cash flow in fiscal '24"),
            "Cisco's financing cash flow in fiscal '24"
        );
    }

    #[test]
    fn a_gloss_and_the_words_it_glosses_ask_one_figure() {
        let table = concept_table().expect("table");
        let ids =
            |q: &str| -> Vec<String> { table.asked_in(q).iter().map(|c| c.id.clone()).collect() };
        assert_eq!(
            ids("GE net assets attributable to shareholders (equity) fy2022 vs fy2023?"),
            ["equity"]
        );
        assert_eq!(
            ids("current ratio (liquidity) at year-end 2023"),
            ["current_ratio"]
        );
        assert_eq!(
            ids("Visa's DSO (average A/R basis) in fiscal 2024"),
            ["days_sales_outstanding"]
        );
        assert_eq!(
            ids("Nike's capex (cash paid for fixed assets) in FY2023"),
            ["capex"]
        );
        assert_eq!(
            ids("Meta's asset efficiency ratio (asset turnover) in fiscal '23"),
            ["asset_turnover"]
        );
        assert_eq!(
            ids("Boeing's op. profit (operating income) in 2023"),
            ["operating_income"]
        );
        assert_eq!(
            ids("revenue (net sales) and cost of sales (COGS)"),
            ["revenue", "cost_of_revenue"]
        );
    }
}
#[cfg(test)]
mod closing_tests {
    use super::*;
    use crate::finance::concepts::concept_table;

    #[test]
    fn a_closing_word_before_a_balance_asks_its_year_end() {
        let table = concept_table().unwrap();
        for q in [
            "Cisco's DSO closing AR days in 2024",
            "DSO on ending receivables",
            "return on year-end equity",
        ] {
            assert!(closes_a_balance(table, q), "{q}");
        }
        for q in [
            "DSO in fiscal 2024",
            "the year ending December 2023, its DSO",
        ] {
            assert!(!closes_a_balance(table, q), "{q}");
        }
    }
}
