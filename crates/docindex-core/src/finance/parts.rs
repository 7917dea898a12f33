//! Parts of the company a question names (a brand, segment, region, product: "How much
//! revenue did Converse bring in?"): whether it names one, and the part's row in a table
//! about the figure asked ("NIKE Brand Revenues by:" … "Converse | 2,427 | 2,346").
//!
//! The statements' totals never answer for a part, and a part's rows stand in segment
//! tables that repeat the same labels under each figure ("Revenue" then "Operating income"
//! over the same segments), so a row counts only under a group line that names the figure.

use super::answer::{best_rows, locate_rows, LocatedRow};
use super::concepts::{Concept, ConceptTable};
use super::rows::{is_heading_line, normalise_label};
use crate::lexicon::lexicon;
use crate::model::DocumentIndex;
use crate::search::words;

/// How many lines above a row its group line may stand (past the group's other rows).
const GROUP_REACH: usize = 40;

/// How many lines above a table's column headings its caption may take.
const CAPTION_LINES: usize = 3;

/// The names of parts `question` uses: runs of capitalised words (after its first word)
/// that `is_name_word` accepts, possessives dropped, joined by `lexicon.toml`'s `parts.joiners`; a run of the
/// company's own words only ("Apple's") is no part. Each name comes with the name less the
/// company's words it opens with ("MGM China", then "China").
pub fn part_names(
    question: &str,
    is_name_word: &dyn Fn(&str) -> bool,
    is_company_word: &dyn Fn(&str) -> bool,
) -> Vec<Vec<String>> {
    let mut runs: Vec<Vec<String>> = Vec::new();
    let mut run: Vec<String> = Vec::new();
    let flush = |run: &mut Vec<String>, runs: &mut Vec<Vec<String>>| {
        while run
            .last()
            .is_some_and(|w| lexicon().parts.joiners.contains(w.as_str()))
        {
            run.pop();
        }
        if !run.is_empty() {
            runs.push(std::mem::take(run));
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
        // "end-FY2023" names a period, not a part.
        let capitalised = word.chars().any(char::is_uppercase)
            && !word.starts_with(|c: char| c.is_ascii_digit())
            && crate::question::periods::periods_in(word).is_empty()
            && is_name_word(word);
        if capitalised {
            run.push(word.to_string());
        } else if !run.is_empty()
            && lexicon()
                .parts
                .joiners
                .contains(word.to_lowercase().as_str())
        {
            run.push(word.to_lowercase());
        } else {
            flush(&mut run, &mut runs);
        }
        if ends_name {
            flush(&mut run, &mut runs);
        }
    }
    flush(&mut run, &mut runs);
    runs.into_iter()
        .filter(|run| {
            run.iter()
                .any(|w| !lexicon().parts.joiners.contains(w.as_str()) && !is_company_word(w))
        })
        .map(|run| {
            let own = run.iter().take_while(|w| is_company_word(w)).count();
            let mut names = vec![run.join(" ")];
            if own > 0 {
                names.push(run[own..].join(" "));
            }
            names
        })
        .collect()
}

/// The ad-hoc line item of `part`'s row for `concept`: the part's name as a label, alone,
/// after one of the company's `brand` words, or with the concept's own label words
/// ("Converse", "MGM China", "Americas net sales").
pub fn part_line_item(part: &str, concept: &Concept, brand: &[String]) -> Concept {
    let name = part.to_lowercase();
    let mut line_items = vec![name.clone(), format!("total {name}")];
    for word in brand {
        let label = format!("{word} {name}");
        if !name.starts_with(word.as_str()) && !line_items.contains(&label) {
            line_items.push(format!("total {label}"));
            line_items.push(label);
        }
    }
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
        otherwise: None,
        unit: None,
        plausible: concept.plausible,
        partial_line_items: concept.partial_line_items.clone(),
        not_before: Vec::new(),
        bought_by: None,
    }
}

/// Whether the row starting at char `row_start` of `text` stands under a line that names
/// `concept` ("NIKE Brand Revenues by:", "The following table presents … net revenues:"):
/// looking up past figure rows and the names of other parts ("Regional Operations"), and
/// stopping at a line that names another of `table`'s line items ("Operating income") or
/// at prose.
pub fn stands_under(text: &str, row_start: usize, concept: &Concept, table: &ConceptTable) -> bool {
    let phrases = |c: &Concept| -> Vec<Vec<String>> {
        // The labels filings print, not the words analysts ask in ("earnings" would take
        // "Earnings before interest and taxes" for net income).
        c.line_items
            .iter()
            .map(|p| label_stems(&normalise_label(p)))
            .filter(|s| !s.is_empty())
            .collect()
    };
    let asked = phrases(concept);
    let others: Vec<Vec<String>> = table
        .concepts
        .iter()
        .filter(|c| c.id != concept.id)
        .flat_map(phrases)
        .collect();
    let names = |line: &[String], wanted: &[Vec<String>]| {
        wanted
            .iter()
            .any(|phrase| line.windows(phrase.len()).any(|w| w == phrase.as_slice()))
    };
    let before: String = text.chars().take(row_start).collect();
    // Lines read since the table's column headings: its caption stands just above them,
    // and a row of figures there belongs to another table.
    let mut above_headings: Option<usize> = None;
    for line in before.lines().rev().take(GROUP_REACH) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if is_heading_line(line) {
            above_headings.get_or_insert(0);
            continue;
        }
        if let Some(read) = above_headings.as_mut() {
            *read += 1;
            if *read > CAPTION_LINES {
                return false;
            }
        }
        let label = line.split('|').next().unwrap_or("").trim();
        let has_figures = line.contains('|')
            && line
                .split('|')
                .skip(1)
                .any(|cell| cell.chars().any(|c| c.is_ascii_digit()));
        if has_figures {
            if above_headings.is_some() {
                return false;
            }
            continue;
        }
        let stems = label_stems(label);
        if names(&stems, &asked) {
            return true;
        }
        let prose = label.ends_with('.') || label.chars().count() > 150;
        if prose || names(&stems, &others) {
            return false;
        }
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

/// Whether the question is about a part of the company (a product, segment, region:
/// "iPhone net sales", "the Las Vegas Strip resorts", "Services"): a name in it that is not
/// the company's, a month or a period. The statements' totals do not answer for a part.
pub fn names_a_part(question: &str, doc: &DocumentIndex) -> bool {
    // A part is one the filing itself names: "CFA L1 practice" and "total current
    // liabilities (TCL)" name none of Boeing's.
    let in_filing = |word: &str, exact_case: bool| names_word(&doc.text, word, exact_case);
    names_a_part_of(question, &company_words(doc), &in_filing)
}

/// Whether the question gives a figure it asks to the company as a whole: the figure's name
/// right after "its", "their", "the company's" or the company's own possessive ("its net
/// income", "Apple's total revenue"), not after a part's name ("Apple's services revenue").
pub fn owned_by_the_company(question: &str, doc: &DocumentIndex, asked: &[&Concept]) -> bool {
    let lower = question.to_lowercase().replace('’', "'");
    let mut owners: Vec<String> = ["its", "their", "the company's", "the firm's"]
        .iter()
        .map(|o| o.to_string())
        .collect();
    owners.extend(company_words(doc).into_iter().map(|w| format!("{w}'s")));
    asked.iter().any(|concept| {
        concept
            .asked_as
            .iter()
            .chain(std::iter::once(&concept.label))
            .any(|name| {
                owners.iter().any(|owner| {
                    ["", "total ", "consolidated "].iter().any(|q| {
                        crate::question::vocabulary::find_phrase(
                            &lower,
                            &format!("{owner} {q}{name}"),
                        )
                        .is_some()
                    })
                })
            })
    })
}

/// Whether `text` holds `word` as a whole word (in any case unless `exact_case`).
fn names_word(text: &str, word: &str, exact_case: bool) -> bool {
    if word.is_empty() {
        return false;
    }
    let whole = |haystack: &str, needle: &str| {
        haystack.match_indices(needle).any(|(at, _)| {
            let before = haystack[..at].chars().next_back();
            let after = haystack[at + needle.len()..].chars().next();
            before.is_none_or(|c| !c.is_alphanumeric())
                && after.is_none_or(|c| !c.is_alphanumeric())
        })
    };
    match exact_case {
        true => whole(text, word),
        false => whole(&text.to_lowercase(), &word.to_lowercase()),
    }
}

/// Whether a part is named; `in_filing(word, exact_case)` says whether the filing names
/// the word.
type InFiling<'a> = &'a dyn Fn(&str, bool) -> bool;

fn names_a_part_of(question: &str, company: &[String], in_filing: InFiling<'_>) -> bool {
    // A statement the question names ("going by the P&L") says where to look, not a part.
    let question = crate::question::without_statement_names(question);
    // "Which JNJ segment was the main growth engine?" picks among the parts.
    let lower = question.to_lowercase();
    let asks_which_part = lower.match_indices("which ").any(|(at, w)| {
        let after: Vec<&str> = lower[at + w.len()..].split_whitespace().take(3).collect();
        lexicon().parts.part_kinds.iter().any(|kind| {
            after
                .iter()
                .any(|a| a.trim_matches(|c: char| !c.is_alphanumeric()) == kind)
        })
    });
    asks_which_part
        || names_a_capitalised_part(&question, company, in_filing)
        || names_a_part_after_the_company(&question, company, in_filing)
}

/// [`names_a_part`], for a question that asks `asked`: a lower-case word after the
/// company's possessive ("Apple's notes") names no part when another clause gives a figure
/// asked to the company itself ("… I want to see its net income"). A part named by its
/// own name ("Greater China") or asked about ("which segment") still is one.
pub fn names_a_part_asked(question: &str, doc: &DocumentIndex, asked: &[&Concept]) -> bool {
    if !names_a_part(question, doc) {
        return false;
    }
    let company = company_words(doc);
    let in_filing = |word: &str, exact_case: bool| names_word(&doc.text, word, exact_case);
    let plain = crate::question::without_statement_names(question);
    let by_its_name_only = !names_a_capitalised_part(&plain, &company, &in_filing)
        && names_a_part_after_the_company(&plain, &company, &in_filing)
        && !plain.to_lowercase().contains("which ");
    !(by_its_name_only && owned_by_the_company(question, doc, asked))
}

/// The question without the filer's ticker where it stands as a word ("GM's days sales
/// outstanding"): a ticker can spell a concept's shorthand ("GM" for gross margin) but
/// names the company.
pub fn without_ticker(question: &str, doc: &DocumentIndex) -> String {
    let Some(ticker) = doc.metadata.ticker.as_deref().filter(|t| !t.is_empty()) else {
        return question.to_string();
    };
    question
        .split(' ')
        .map(|token| {
            let word = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’');
            let bare = word
                .strip_suffix("'s")
                .or_else(|| word.strip_suffix("’s"))
                .unwrap_or(word);
            match bare == ticker {
                true => "",
                false => token,
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words of the company's name and ticker, lowercase.
fn company_words(doc: &DocumentIndex) -> Vec<String> {
    let other_names = doc
        .metadata
        .company_name
        .as_deref()
        .map_or_else(Vec::new, |name| {
            crate::companies::other_names_of(name, doc.metadata.ticker.as_deref())
        });
    doc.metadata
        .company_name
        .iter()
        .chain(doc.metadata.ticker.iter())
        .chain(other_names.iter())
        .flat_map(|n| crate::search::words(n))
        .collect()
}

/// "Microsoft's cloud", "Apple's services business": analysts name a part in lower case
/// right after the company's possessive. The word there is a part unless it is a concept's
/// ("Apple's free cash flow"), a qualifier of one ("total") or a period.
fn names_a_part_after_the_company(
    question: &str,
    company: &[String],
    in_filing: InFiling<'_>,
) -> bool {
    let tokens: Vec<&str> = question.split_whitespace().collect();
    tokens.windows(2).enumerate().any(|(at, pair)| {
        let owner = pair[0].trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’');
        let Some(name) = owner
            .strip_suffix("'s")
            .or_else(|| owner.strip_suffix("’s"))
            .map(str::to_lowercase)
        else {
            return false;
        };
        if !company.iter().any(|c| c == &name || c.starts_with(&name)) {
            return false;
        }
        // "using Colgate-Palmolive's, find …": a comma ends the possessive's phrase.
        if pair[0].ends_with([',', ';', ':', '.', ')']) {
            return false;
        }
        let next = pair[1]
            .trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
            .to_lowercase();
        // "Intel's non-cash D&A", "AbbVie's short-dated liabilities": a hyphenated
        // adjective, no part.
        !next.is_empty()
            && !next.contains('-')
            // "Cisco's NM%": a measure's abbreviation.
            && !pair[1]
                .trim_end_matches(['?', '.', ',', ')', ';', ':'])
                .ends_with('%')
            && !glossed_in_parentheses(&tokens[at + 1..])
            && !next.starts_with(|c: char| c.is_ascii_digit())
            && !lexicon().parts.qualifiers.contains(next.as_str())
            && !lexicon().parts.not_parts.contains(next.as_str())
            && !crate::search::is_period_shorthand(&next)
            // "Colgate's end-FY2023 receivables".
            && crate::question::periods::periods_in(&next).is_empty()
            && !is_concept_word(&next)
            && !is_concept_acronym(&next)
            && in_filing(&next, false)
    })
}

/// Whether the few words that start `tokens` are the asker's paraphrase of a figure named
/// in the parenthesis right after them ("short-dated liabilities (total current
/// liabilities)", "stock-in-trade (inventories)").
fn glossed_in_parentheses(tokens: &[&str]) -> bool {
    const PARAPHRASE_WORDS: usize = 4;
    let Some(open) = tokens
        .iter()
        .take(PARAPHRASE_WORDS + 1)
        .position(|t| t.starts_with('('))
    else {
        return false;
    };
    let mut gloss = Vec::new();
    for token in &tokens[open..] {
        gloss.push(token.trim_start_matches('('));
        if token.contains(')') {
            break;
        }
    }
    let gloss = gloss.join(" ");
    let gloss = gloss.split(')').next().unwrap_or("");
    open > 0
        && super::concepts::concept_table().is_ok_and(|table| {
            let (stems, spans) = table.spans_in(gloss);
            // The parenthesis is a concept's name and nothing else.
            spans.len() == 1 && spans[0].1 == 0 && spans[0].2 == stems
        })
}

fn names_a_capitalised_part(question: &str, company: &[String], in_filing: InFiling<'_>) -> bool {
    // A sentence's first word is capitalised by grammar, not as a name ("… FY2022 figure.
    // Express the result as a percentage").
    let tokens: Vec<&str> = question.split_whitespace().collect();
    tokens
        .iter()
        .enumerate()
        .filter(|(i, _)| *i > 0 && !tokens[i - 1].ends_with(['.', '?', '!', ':', ';', '—']))
        // "NM%", "GM%": a measure's abbreviation (Cisco's tables print "NM" for "not
        // meaningful"), not a part's name.
        .filter(|(_, w)| {
            !w.trim_end_matches(['?', '.', ',', ')', ';', ':'])
                .ends_with('%')
        })
        // "Apple's", "I'm": the word before the apostrophe.
        .map(|(_, w)| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .split(['\'', '’'])
                .next()
                .unwrap_or("")
        })
        .filter(|w| {
            w.chars().any(char::is_uppercase) && !w.starts_with(|c: char| c.is_ascii_digit())
        })
        // "FY2023-versus-FY2022" is two periods and a word, each looked at alone; a name
        // known whole ("Colgate-Palmolive") is not looked at in pieces.
        .any(|w| {
            is_part_word(w, company)
                && in_filing(w, true)
                && w.split(['-', '–', '/']).any(|piece| {
                    piece.chars().any(char::is_uppercase)
                        && !piece.starts_with(|c: char| c.is_ascii_digit())
                        && is_part_word(piece, company)
                })
        })
}

/// Whether a capitalised word of a question can name a part of the company: not the
/// company's own name, a month, a period, or a term the concept table knows.
fn is_part_word(word: &str, company: &[String]) -> bool {
    let w = word.to_lowercase();
    if crate::search::is_period_shorthand(&w) {
        return false;
    }
    let known = lexicon().parts.not_parts.contains(w.as_str())
        // A month, whole or abbreviated ("Dec.", "Sept.").
        || crate::metadata::MONTHS
            .iter()
            .any(|m| *m == w || (w.len() >= 3 && m.starts_with(w.as_str())))
        || company.contains(&w)
        || company
            .iter()
            .any(|c| c.starts_with(&w) || w.starts_with(c.as_str()))
        || (w.len() <= 6
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '&')
            && is_concept_acronym(&w))
        || is_concept_word(&w);
    !known
}

/// Whether the question narrows the figure to one line of the part ("casino revenue at
/// Las Vegas Strip Resorts"): a lower-case word of its own right before the figure's
/// phrasing. The part's total is then not the figure asked.
pub(crate) fn narrows_the_figure(question: &str, concept: &Concept) -> bool {
    let tokens: Vec<&str> = question
        .split_whitespace()
        .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’'))
        .collect();
    let lower: Vec<String> = tokens
        .iter()
        .map(|t| t.to_lowercase().trim_end_matches('s').to_string())
        .collect();
    concept.asked_as.iter().any(|phrase| {
        let wanted: Vec<String> = phrase
            .split_whitespace()
            .map(|w| w.to_lowercase().trim_end_matches('s').to_string())
            .collect();
        (1..lower.len()).any(|at| {
            let Some(window) = lower.get(at..at + wanted.len()) else {
                return false;
            };
            let before = tokens[at - 1];
            let before_lower = before.to_lowercase();
            window == wanted.as_slice()
                && before.chars().all(|c| c.is_lowercase() || c == '-')
                && !before.is_empty()
                && !lexicon()
                    .parts
                    .function_words
                    .contains(before_lower.as_str())
                && !lexicon().parts.qualifiers.contains(before_lower.as_str())
        })
    })
}

/// The row of a part the question names for `concept` ("Converse" under "NIKE Brand
/// Revenues by:"), and its column for the asked period: the part named at most once, its
/// row in a table about the figure.
pub(crate) fn part_row(
    table: &ConceptTable,
    question: &str,
    doc: &DocumentIndex,
    concept: &Concept,
    year: Option<i32>,
    months: Option<u32>,
) -> Option<(LocatedRow, usize)> {
    let company = company_words(doc);
    let names = part_names(question, &|w| is_part_word(w, &[]), &|w| {
        !is_part_word(w, &company)
    });
    // The company's brand may open a part's label though the question leaves it out ("MGM
    // China" asked as "China" once the company is settled).
    let brand: Vec<String> = doc
        .metadata
        .company_name
        .iter()
        .filter_map(|n| crate::search::words(n).into_iter().next())
        .chain(doc.metadata.ticker.iter().map(|t| t.to_lowercase()))
        .collect();
    // One part, by its whole name first ("MGM China" before "China").
    let [variants] = names.as_slice() else {
        return None;
    };
    let best = variants.iter().find_map(|name| {
        let part = part_line_item(name, concept, &brand);
        let rows: Vec<LocatedRow> = locate_rows(doc, &[&part])
            .into_iter()
            .filter(|r| stands_under(&doc.text, r.matched.row.start, concept, table))
            .collect();
        best_rows(table, &[&part], &rows, year, months)
            .into_iter()
            .next()
            .cloned()
    })?;
    let column = best.matched.row.column_for(year, months)?;
    // The part's own label, then what it is a figure of: "Converse (revenue)".
    let mut row = best;
    row.matched.row.label = format!("{} ({})", row.matched.row.label.trim(), concept.label);
    Some((row, column))
}

/// "EBITDA", "FCF", "ROE": acronyms the concept table knows, not names of parts.
/// "Operating" in "Operating Income: Tesla vs Microsoft": a word of a phrasing the concept
/// table knows, capitalised as in a heading, names no part.
fn is_concept_word(word: &str) -> bool {
    super::concept_table().is_ok_and(|t| t.is_phrasing_word(word))
}

fn is_concept_acronym(word: &str) -> bool {
    super::concept_table().is_ok_and(|t| {
        t.concepts
            .iter()
            .any(|c| c.asked_as.iter().any(|a| a.eq_ignore_ascii_case(word)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finance::concept_table;

    #[test]
    fn a_figure_given_to_the_company_itself_is_no_parts() {
        let table = concept_table().unwrap();
        let apple = crate::finance::answer::tests::doc("Apple Inc.");
        let owned = |question: &str| {
            let asked = table.asked_in(question);
            owned_by_the_company(question, &apple, &asked)
        };
        assert!(owned(
            "Before adding Apple's notes to our fixed-income book I want to see its net income for fiscal 2024."
        ));
        assert!(owned("What was Apple's total revenue in fiscal 2024?"));
        assert!(!owned("What was Apple's services revenue in fiscal 2024?"));
        // A part named by its own name stays the part asked about.
        let mut apple = apple;
        apple.text = "Greater China | 15,758\nThe notes are senior unsecured obligations.".into();
        let part = |question: &str| names_a_part_asked(question, &apple, &table.asked_in(question));
        assert!(part(
            "How much did Greater China contribute to Apple's sales in the June 2023 quarter?"
        ));
        assert!(!part(
            "Before adding Apple's notes to our fixed-income book I want to see its net income for fiscal 2024."
        ));
    }

    fn anywhere(_: &str, _: bool) -> bool {
        true
    }

    #[test]
    fn a_capital_that_starts_a_sentence_or_a_comparison_shorthand_names_no_part() {
        let company = vec!["colgate".to_string(), "cl".to_string()];
        assert!(!names_a_capitalised_part(
            "take diluted earnings per share for FY2023, subtract the FY2022 figure. Express the result as a percentage.",
            &company,
            &anywhere
        ));
        assert!(!names_a_capitalised_part(
            "Colgate net income YoY growth FY23 vs FY22 (%)",
            &company,
            &anywhere
        ));
        assert!(names_a_capitalised_part(
            "How much revenue did Hill's Pet Nutrition earn in 2023?",
            &company,
            &anywhere
        ));
        assert!(!names_a_capitalised_part(
            "Report the FY2023-versus-FY2022 variance in Colgate's cash holdings.",
            &company,
            &anywhere
        ));
        // A measure's abbreviation ("NM%": Cisco's tables print "NM") names no part.
        let cisco = vec!["cisco".to_string(), "csco".to_string()];
        assert!(!names_a_capitalised_part(
            "For fiscal 2024, what was the NM% (net income over revenue)?",
            &cisco,
            &anywhere
        ));
        assert!(!names_a_part_after_the_company(
            "Cisco's NM% (net income over revenue) for fiscal 2024?",
            &cisco,
            &anywhere
        ));
        let colgate = vec!["colgate-palmolive".to_string(), "cl".to_string()];
        assert!(!names_a_capitalised_part(
            "Long-time Colgate-Palmolive holder here -- what was tax expense for FY23?",
            &colgate,
            &anywhere
        ));
        // A statement named mid-question is where to look, not a part.
        assert!(!names_a_part_of(
            "I am building a model and, going by the P&L, need to know: what was its R&D expense in fiscal 2024?",
            &company,
            &anywhere
        ));
    }

    #[test]
    fn names_are_runs_of_capitalised_words() {
        let any = |_: &str| true;
        let apple = |w: &str| w == "Apple";
        let mgm = |w: &str| w == "MGM";
        assert_eq!(
            part_names(
                "How much revenue did Converse bring in in fiscal 2023?",
                &any,
                &apple
            ),
            [["Converse"]]
        );
        assert_eq!(
            part_names(
                "What did Productivity and Business Processes earn?",
                &any,
                &apple
            ),
            [["Productivity and Business Processes"]]
        );
        assert_eq!(
            part_names(
                "What was Intelligent Cloud's operating income?",
                &any,
                &apple
            ),
            [["Intelligent Cloud"]]
        );
        assert_eq!(
            part_names("What were Apple's Greater China net sales?", &any, &apple),
            [["Greater China"]]
        );
        assert_eq!(
            part_names("How much revenue did MGM China bring in?", &any, &mgm),
            [vec!["MGM China", "China"]]
        );
        assert!(part_names("What was MGM's revenue?", &any, &mgm).is_empty());
        // A question picking among the segments is about parts.
        assert!(names_a_part_of(
            "Which JNJ segment was the main growth engine in Q2 2023?",
            &["johnson".to_string()],
            &anywhere
        ));
        // Nor is the asker's paraphrase of a figure glossed in parentheses.
        assert!(!names_a_part_of(
            "AbbVie's short-dated liabilities (total current liabilities) on December 31st, 2022?",
            &["abbvie".to_string()],
            &anywhere
        ));
        assert!(names_a_part_of(
            "What was AbbVie's Skyrizi revenue (net revenues) in 2023?",
            &["abbvie".to_string()],
            &anywhere
        ));
        // A name the filing never uses is no part of it.
        let boeing_text = "Boeing Commercial Airplanes. Total current liabilities 90,052.";
        let in_text = |w: &str, exact: bool| names_word(boeing_text, w, exact);
        assert!(!names_a_part_of(
            "For the lender deck: Boeing total current liabilities (TCL) at the end of fiscal 2022?",
            &["boeing".to_string()],
            &in_text
        ));
        assert!(names_a_part_of(
            "What was Boeing's Commercial Airplanes revenue in 2023?",
            &["boeing".to_string()],
            &in_text
        ));
        // A period after the company's possessive is no part.
        assert!(!names_a_part_of(
            "What's the mean of Colgate's end-FY2022 and end-FY2023 accounts receivable?",
            &["colgate".to_string(), "palmolive".to_string()],
            &anywhere
        ));
    }

    #[test]
    fn a_line_of_the_part_is_not_the_parts_figure() {
        let table = concept_table().unwrap();
        let revenue = table.get("revenue").unwrap();
        assert!(narrows_the_figure(
            "What was casino revenue at Las Vegas Strip Resorts in the second quarter of 2023?",
            revenue
        ));
        for whole in [
            "How much revenue did Converse bring in in fiscal 2023?",
            "How much did Greater China contribute to Apple's sales in the June 2023 quarter?",
            "What was the total revenue of MGM China?",
            "How did Mac sales do in the June 2023 quarter?",
        ] {
            assert!(!narrows_the_figure(whole, revenue), "{whole}");
        }
    }

    #[test]
    fn a_part_counts_under_the_group_of_the_figure_asked() {
        let table = concept_table().unwrap();
        let revenue = table.get("revenue").unwrap();
        let income = table.get("operating_income").unwrap();
        let text = "(In millions) | 2023 | 2022\nRevenue\nProductivity and Business Processes | $ 69,274 | $ 63,364\nIntelligent Cloud | 87,907 | 74,965\nOperating income\nProductivity and Business Processes | $ 34,189 | $ 29,690\nIntelligent Cloud | 37,884 | 33,203\n";
        let first = text.find("Intelligent Cloud").unwrap();
        let second = text.rfind("Intelligent Cloud").unwrap();
        assert!(stands_under(text, first, revenue, table));
        assert!(!stands_under(text, first, income, table));
        assert!(stands_under(text, second, income, table));
        assert!(!stands_under(text, second, revenue, table));
        // A segment's total under its own name, the caption above the other segments.
        let text = "The following table presents a detail by segment of net revenues:\n(In thousands) | 2023 | 2022\nLas Vegas Strip Resorts\nCasino | $492,212 | $498,524\n2,146,650 | 2,137,176\nMGM China\nCasino | 669,658 | 120,948\n740,955 | 143,012\n";
        let total = text.find("740,955").unwrap();
        assert!(stands_under(text, total, revenue, table));
        assert!(!stands_under(text, total, income, table));
        // The next table's part rows are not under the previous table's figure.
        let text = format!("{text}Three Months Ended | June 30,\n2023 | 2022\n(In thousands) Adjusted Property EBITDAR\nMGM China | 209,389 | (52,091)\n");
        let other = text.find("209,389").unwrap();
        assert!(!stands_under(&text, other, revenue, table));
        let part = part_line_item("Intelligent Cloud", income, &["microsoft".to_string()]);
        assert!(part.line_items.contains(&"intelligent cloud".to_string()));
        assert!(part
            .line_items
            .contains(&"intelligent cloud operating income".to_string()));
        assert!(part
            .line_items
            .contains(&"microsoft intelligent cloud".to_string()));
    }
}
