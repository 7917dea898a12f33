//! Figures of a part of the company a question names (a brand, segment, region, product:
//! "How much revenue did Converse bring in?"): the row labelled with the part's name in a
//! table about the figure asked ("NIKE Brand Revenues by:" … "Converse | 2,427 | 2,346").
//!
//! The statements' totals never answer for a part, and a part's rows stand in segment
//! tables that repeat the same labels under each figure ("Revenue" then "Operating income"
//! over the same segments), so a row counts only under a group line that names the figure.

use super::concepts::Concept;
use super::rows::normalise_label;
use crate::search::words;

/// Lower-case words that may join the capitalised words of one name ("Productivity and
/// Business Processes", "Food & Beverage").
const JOINERS: &[&str] = &["and", "&", "of", "the"];

/// How many lines above a row its group line may stand (past the group's other rows).
const GROUP_REACH: usize = 40;

/// The names of parts `question` uses: runs of capitalised words (after its first word)
/// that `is_part_word` accepts, possessives dropped, joined by [`JOINERS`].
pub fn part_names(question: &str, is_part_word: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut names = Vec::new();
    let mut run: Vec<String> = Vec::new();
    let mut flush = |run: &mut Vec<String>| {
        while run.last().is_some_and(|w| JOINERS.contains(&w.as_str())) {
            run.pop();
        }
        if !run.is_empty() {
            names.push(run.join(" "));
        }
        run.clear();
    };
    for raw in question.split_whitespace().skip(1) {
        let ends_name =
            raw.ends_with(['?', ',', '.', ';', ':']) || raw.contains('\'') || raw.contains('’');
        let word = raw
            .trim_matches(|c: char| !c.is_alphanumeric() && c != '&')
            .trim_end_matches("'s")
            .trim_end_matches("’s");
        let capitalised = word.chars().any(char::is_uppercase)
            && !word.starts_with(|c: char| c.is_ascii_digit())
            && is_part_word(word);
        if capitalised {
            run.push(word.to_string());
        } else if !run.is_empty() && JOINERS.contains(&word.to_lowercase().as_str()) {
            run.push(word.to_lowercase());
        } else {
            flush(&mut run);
        }
        if ends_name {
            flush(&mut run);
        }
    }
    flush(&mut run);
    names
}

/// The ad-hoc line item of `part`'s row for `concept`: the part's name as a label, alone
/// or with the concept's own label words ("Converse", "Americas net sales").
pub fn part_line_item(part: &str, concept: &Concept) -> Concept {
    let name = part.to_lowercase();
    let mut line_items = vec![name.clone(), format!("total {name}")];
    for item in concept.line_items.iter().chain(&concept.asked_as) {
        let item = normalise_label(item);
        let item = item.strip_prefix("total ").unwrap_or(&item);
        let label = format!("{name} {item}");
        if !line_items.contains(&label) {
            line_items.push(label);
        }
    }
    Concept {
        id: format!("part:{name}:{}", concept.id),
        label: format!("{} of {part}", concept.label),
        asked_as: vec![name],
        statement: None,
        line_items,
        xbrl: Vec::new(),
        outflow: false,
        formula: None,
        unit: None,
    }
}

/// Whether the row starting at char `row_start` of `text` stands under a group line that
/// names `concept` ("NIKE, Inc. Revenues:", "Net sales by reportable segment:"): the
/// first line above it, past figure rows, that has no figures.
pub fn stands_under(text: &str, row_start: usize, concept: &Concept) -> bool {
    // The labels filings print, not the words analysts ask in ("earnings" would take
    // "Earnings before interest and taxes" for net income).
    let stems: Vec<Vec<String>> = concept
        .line_items
        .iter()
        .map(|p| label_stems(&normalise_label(p)))
        .filter(|s| !s.is_empty())
        .collect();
    let before: String = text.chars().take(row_start).collect();
    for line in before.lines().rev().take(GROUP_REACH) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let label = line.split('|').next().unwrap_or("").trim();
        let has_figures = line.contains('|')
            && line
                .split('|')
                .skip(1)
                .any(|cell| cell.chars().any(|c| c.is_ascii_digit()));
        if has_figures {
            continue;
        }
        let group = label_stems(label);
        return stems
            .iter()
            .any(|phrase| group.windows(phrase.len()).any(|w| w == phrase.as_slice()));
    }
    false
}

/// A label's words, plural "s" dropped ("revenues" and "revenue" are one).
fn label_stems(label: &str) -> Vec<String> {
    words(label)
        .into_iter()
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.len() > 3 => stem.to_string(),
            _ => w,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finance::concept_table;

    #[test]
    fn names_are_runs_of_capitalised_words() {
        let any = |_: &str| true;
        assert_eq!(
            part_names(
                "How much revenue did Converse bring in in fiscal 2023?",
                &any
            ),
            ["Converse"]
        );
        assert_eq!(
            part_names("What did Productivity and Business Processes earn?", &any),
            ["Productivity and Business Processes"]
        );
        assert_eq!(
            part_names("What was Intelligent Cloud's operating income?", &any),
            ["Intelligent Cloud"]
        );
        let not_company = |w: &str| w != "Apple";
        assert_eq!(
            part_names("What were Apple's Greater China net sales?", &not_company),
            ["Greater China"]
        );
    }

    #[test]
    fn a_part_counts_under_the_group_of_the_figure_asked() {
        let table = concept_table().unwrap();
        let revenue = table.get("revenue").unwrap();
        let income = table.get("operating_income").unwrap();
        let text = "(In millions) | 2023 | 2022\nRevenue\nProductivity and Business Processes | $ 69,274 | $ 63,364\nIntelligent Cloud | 87,907 | 74,965\nOperating income\nProductivity and Business Processes | $ 34,189 | $ 29,690\nIntelligent Cloud | 37,884 | 33,203\n";
        let first = text.find("Intelligent Cloud").unwrap();
        let second = text.rfind("Intelligent Cloud").unwrap();
        assert!(stands_under(text, first, revenue));
        assert!(!stands_under(text, first, income));
        assert!(stands_under(text, second, income));
        assert!(!stands_under(text, second, revenue));
        let part = part_line_item("Intelligent Cloud", income);
        assert!(part.line_items.contains(&"intelligent cloud".to_string()));
        assert!(part
            .line_items
            .contains(&"intelligent cloud operating income".to_string()));
    }
}
