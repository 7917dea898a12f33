//! Line items a question names in the filing's own words ("book value per share", "net
//! charge-off rate", "interest income"): any row label the filing prints, not only those
//! of the concept table.
//!
//! The concept table knows what analysts ask for in their words; filings print hundreds of
//! other rows a question can name exactly. A question's word sequences become the line
//! items of one ad-hoc concept, so the same row finder, period choice and citations serve
//! them. A sequence counts only when it is longer than every phrasing of the table the
//! question uses: "interest income" outranks "earn" (net income), while "operating margin"
//! stays the table's metric.

use super::concepts::{Concept, ConceptTable};
use crate::lexicon::lexicon;
use crate::search::words;
use rust_stemmers::{Algorithm, Stemmer};

/// The id of the ad-hoc concept (no entry of the table has it).
pub const NAMED_ID: &str = "named_in_question";

/// Longest word sequence tried as a row label.
const MAX_WORDS: usize = 6;

/// A single word is tried as a label only when it is this long: "Occupancy", not "Total".
const MIN_SINGLE_WORD: usize = 7;

fn is_edge_word(word: &str) -> bool {
    lexicon().named.edge_words.contains(word)
        || lexicon().named.question_words.contains(word)
        || word.chars().all(|c| c.is_ascii_digit())
        || crate::search::is_period_shorthand(word)
        || crate::metadata::MONTHS.contains(&word)
}

/// The ad-hoc concept of the row labels `question` names, longest first; `None` when the
/// question asks for no figure or names nothing longer than the table's own phrasings.
pub fn named_line_item(table: &ConceptTable, question: &str) -> Option<Concept> {
    // A figure glossed by the table's own name ("obligations due within a year (total
    // current liabilities)") is that line item, whatever the paraphrase before it holds.
    if !crate::question::asks_for_a_printed_figure(question)
        || super::wording::whole_gloss(table, question).is_some()
    {
        return None;
    }
    let tokens = words(question);
    let claimed = table.longest_phrasing_in(question);
    // Words the question capitalises (after its first): names of parts, "Las Vegas Strip
    // Resorts". With a figure the table knows asked of it ("casino revenue at the Las Vegas
    // Strip Resorts"), the part's own row is not the figure asked.
    let capitalised: Vec<String> = question
        .split_whitespace()
        .skip(1)
        .filter(|w| w.starts_with(|c: char| c.is_uppercase()))
        .flat_map(words)
        .collect();
    let claimed_stems = table.claimed_stems(question);
    let stemmer = Stemmer::create(Algorithm::English);
    // A sequence that only qualifies what the table already names ("total deposits") is
    // the table's line item, with its statement: it must add a word of its own.
    let adds_a_word = |window: &[String]| {
        window.iter().any(|w| {
            !lexicon().named.qualifiers.contains(w.as_str())
                && !lexicon().named.edge_words.contains(w.as_str())
                && w.split('-')
                    .any(|part| !claimed_stems.contains(stemmer.stem(part).as_ref()))
        })
    };
    let mut phrases: Vec<String> = Vec::new();
    for len in (claimed + 1..=MAX_WORDS).rev() {
        for window in tokens.windows(len) {
            let (first, last) = (&window[0], &window[len - 1]);
            if is_edge_word(first)
                || is_edge_word(last)
                || window
                    .iter()
                    .any(|w| lexicon().named.question_words.contains(w.as_str()))
                || !adds_a_word(window)
                || (claimed > 0 && window.iter().any(|w| capitalised.contains(w)))
            {
                continue;
            }
            if len == 1 {
                let word = first.as_str();
                if claimed > 0
                    || word.chars().count() < MIN_SINGLE_WORD
                    || lexicon().named.generic_words.contains(word)
                    || table.is_phrasing_word(word)
                {
                    continue;
                }
            }
            let phrase = window.join(" ");
            // "Total term debt" is the whole of what "term debt" names where a table
            // also prints its current and non-current parts.
            for label in [format!("total {phrase}"), phrase] {
                if !phrases.contains(&label) {
                    phrases.push(label);
                }
            }
        }
    }
    let label = phrases.get(1)?.clone();
    Some(Concept {
        id: NAMED_ID.to_string(),
        label,
        asked_as: phrases.clone(),
        statement: None,
        line_items: phrases,
        xbrl: Vec::new(),
        outflow: false,
        formula: None,
        otherwise: None,
        unit: None,
        plausible: None,
        partial_line_items: Vec::new(),
        not_before: Vec::new(),
        bought_by: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finance::concepts::concept_table;
    use crate::finance::rows::find_rows;

    fn named(question: &str) -> Option<Concept> {
        named_line_item(concept_table().unwrap(), question)
    }

    #[test]
    fn a_question_names_the_rows_its_words_label() {
        let concept =
            named("What was JPMorgan's book value per share at the end of Q2 2023?").unwrap();
        assert!(concept
            .line_items
            .contains(&"book value per share".to_string()));
        // The question's grammar and periods are no label's edge.
        assert!(concept
            .line_items
            .iter()
            .all(|p| !p.starts_with("what") && !p.ends_with("2023") && !p.ends_with(" the")));
        let text = "Selected income statement data\n(in millions, except per share data) | 2Q23 | 1Q23\nNet income | $ 14,472 | $ 12,622\nBook value per share | 98.11 | 94.34\nTangible book value per share (\"TBVPS\")(a) | 79.90 | 76.69\n";
        let rows = find_rows(text, &[&concept]);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].row.label, "Book value per share");
        assert_eq!(rows[0].row.printed[0], "98.11");
    }

    #[test]
    fn a_named_row_outranks_a_shorter_phrasing_of_the_table_but_not_its_own() {
        // "earn" is the table's net income; "interest income" is the row asked for.
        let concept = named("How much interest income did Tesla earn in 2023?").unwrap();
        assert_eq!(
            concept.line_items[..2],
            ["total interest income", "interest income"]
        );
        // The table's own metric is left to the table.
        for question in [
            "What was Tesla's operating margin in 2023?",
            "What was Nike's EBIT margin in fiscal 2023?",
        ] {
            let phrases = named(question).map(|c| c.line_items).unwrap_or_default();
            assert!(
                phrases
                    .iter()
                    .all(|p| !["operating margin", "ebit margin"].contains(&p.as_str())),
                "{phrases:?}"
            );
        }
        // Qualifying the table's own line item names no other row: total deposits are
        // the balance sheet's deposits.
        let deposits = named("What were JPMorgan's total deposits at June 30, 2023?");
        assert!(deposits
            .iter()
            .flat_map(|c| &c.line_items)
            .all(|p| p != "total deposits" && p != "deposits"));
        // A single word only when it is no common qualifier.
        let occupancy = named("What's hotel occupancy on the Las Vegas Strip?").unwrap();
        assert!(occupancy.line_items.contains(&"occupancy".to_string()));
        assert!(!occupancy.line_items.contains(&"hotel".to_string()));
        // A part named with capitals is not the figure the table's concept asks of it.
        let casino = named(
            "What was casino revenue at Las Vegas Strip Resorts in the second quarter of 2023?",
        )
        .unwrap();
        assert!(casino.line_items.contains(&"casino revenue".to_string()));
        assert!(casino.line_items.iter().all(|p| !p.contains("strip")));
        // No figure asked, no row named.
        assert!(named("Why did Microsoft's gross margin change?").is_none());
        assert!(named("Who are the underwriters of CAMP4's IPO?").is_none());
    }

    /// The figures lead for `question` over a statement section `text` of Tesla's.
    fn lead_of(text: &str, question: &str) -> crate::finance::FiguresLead {
        use crate::finance::answer::tests::{doc, located_rows};
        let mut tesla = doc("Tesla, Inc.");
        tesla.text = text.to_string();
        let rows = located_rows(text, question);
        crate::finance::lead_for(
            concept_table().unwrap(),
            &crate::question::Question::read(question).unwrap(),
            &tesla,
            &rows,
        )
        .unwrap()
    }

    #[test]
    fn the_named_row_is_stated_instead_of_the_shorter_phrasings_concept() {
        let text = "Consolidated Statements of Operations\n(in millions)\nYear Ended December 31, | 2023 | 2022\nTotal revenues | 96,773 | 81,462\nInterest income | 1,066 | 297\nNet income | 15,001 | 12,587\n";
        let lead = lead_of(text, "How much interest income did Tesla earn in 2023?");
        assert!(
            lead.text
                .starts_with("Interest income for fiscal 2023: $1,066 million [1][2]. Interest income: 1,066 (Year Ended December 31, 2023)"),
            "{}",
            lead.text
        );
        assert!(!lead.text.contains("15,001"), "{}", lead.text);
        assert!(lead.citations.iter().any(|c| c.excerpt.contains("1,066")));
        // Named in the filing's words, but not the table's concept: worth stating, not
        // trusted as the statement's line.
        assert!(!lead.lookups_firm);
        // Where a table prints the parts and their total, the total answers.
        let debt = "Term Debt\n(in millions)\n | 2024 | 2023\nCurrent portion of term debt | 10,912 | 9,822\nTerm debt | 85,750 | 95,281\nTotal term debt | 96,662 | 105,103\n";
        let lead = lead_of(debt, "How much term debt does Apple have outstanding?");
        assert!(
            lead.text.starts_with(
                "Total term debt for fiscal 2024: $96,662 million [1][2]. Total term debt: 96,662"
            ),
            "{}",
            lead.text
        );
    }
}
