//! What a sentence of a passage gives a question: an amount, a firm's name, a reason for a
//! change, the count of the thing asked, or the reason of the sentence before it.

use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// Whether `text` holds an amount, count or rate, not only a year or a date's day.
pub(super) fn has_amount(text: &str) -> bool {
    static AMOUNT: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"\$\s?\d|\d%|\d{1,3}(,\d{3})+|\b\d+\.\d+\b|\b\d+\s+(million|billion|thousand|percent|shares|employees|people)\b").ok()
    });
    AMOUNT.as_ref().is_some_and(|re| re.is_match(text))
}

/// Whether `text` names a firm or signs for one ("/s/ PricewaterhouseCoopers LLP",
/// "Wells Fargo Bank, N.A."): what a "who" question wants.
pub(super) fn names_someone(text: &str) -> bool {
    static NAME: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"/s/\s*\S|\b[A-Z][A-Za-z&.'-]+(?:\s+[A-Z&][A-Za-z&.'-]*)*,?\s+(?:LLP|L\.L\.P\.|LLC|Inc\.|N\.A\.|Corporation|Trust Company|& Co\.)").ok()
    });
    NAME.as_ref().is_some_and(|re| re.is_match(text))
}

/// Whether `text` gives the reason for a change ("due primarily to", "driven by", "as a
/// result of", "reflecting"): what a why-question wants.
pub(super) fn gives_a_reason(text: &str) -> bool {
    static REASON: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:due (?:\w+ )?to|driven (?:\w+ )?by|as a result of|attributable to|because|reflect(?:s|ed|ing)|result(?:ed|ing) from|led by|caused by|offset by)\b").ok()
    });
    REASON.as_ref().is_some_and(|re| re.is_match(text))
}

/// Whether a sentence goes on from the one before it ("The increase was primarily due
/// to…", "This decrease reflects…", "This was driven by…"): its reason belongs to that
/// sentence's figure.
pub(super) fn continues_the_change(text: &str) -> bool {
    static ANAPHOR: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:(?:the|this|these|that|such)\s+(?:\w+\s+)?(?:increases?|decreases?|declines?|growth|improvements?|reductions?|changes?|rises?|drops?|contraction|expansion)\b|(?:this|these|that)\s+(?:was|were|is|are)\b|(?:primarily|mainly|largely)\b)").ok()
    });
    ANAPHOR.as_ref().is_some_and(|re| re.is_match(text)) && gives_a_reason(text)
}

/// The count of the thing asked a sentence gives ("79,400 employees", "total workforce
/// was approximately 171,000"): the largest, when it gives several. The thing counted is
/// one of a few words beside the number whose stems are among `stems` (the question's).
pub(super) fn count_asked(
    sentence: &str,
    stems: &BTreeSet<String>,
    concepts_of: &dyn Fn(&str) -> Vec<BTreeSet<String>>,
) -> Option<f64> {
    static AFTER: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?:^|[^$\d.,])(\d[\d,]*)\s+((?:[A-Za-z’'-]+\s+){0,2}[A-Za-z]+)").ok()
    });
    static BEFORE: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r"((?:[A-Za-z]+\s+){0,2}[A-Za-z]+)\s+(?:was|were|is|are|of|totaled|totalled|numbered|reached)\s+(?:approximately\s+|about\s+|roughly\s+|over\s+|more\s+than\s+|nearly\s+)?(\d[\d,]*)(?:[^\d%.,]|[.,](?:\s|$)|$)",
        )
        .ok()
    });
    // A table row counts nothing.
    if super::passage_rows::is_table_row(sentence) {
        return None;
    }
    let asked = |nouns: &str| {
        nouns.split_whitespace().any(|noun| {
            concepts_of(noun)
                .iter()
                .flatten()
                .any(|stem| stems.contains(stem))
        })
    };
    // A year ("2022 Employee Stock Plan") is no count.
    let count = |number: &str| {
        let year = number.len() == 4 && (number.starts_with("19") || number.starts_with("20"));
        (!year)
            .then(|| number.replace(',', "").parse::<f64>().ok())
            .flatten()
    };
    let after = AFTER.as_ref().into_iter().flat_map(|re| {
        re.captures_iter(sentence)
            .filter(|c| asked(&c[2]))
            .filter_map(|c| count(&c[1]))
            .collect::<Vec<_>>()
    });
    let before = BEFORE.as_ref().into_iter().flat_map(|re| {
        re.captures_iter(sentence)
            .filter(|c| asked(&c[1]))
            .filter_map(|c| count(&c[2]))
            .collect::<Vec<_>>()
    });
    after.chain(before).reduce(f64::max)
}
