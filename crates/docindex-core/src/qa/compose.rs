//! The offline answer: sentences and table rows of the retrieved passages scored against
//! the question's concepts (a row with its caption and column headings), the best cited,
//! and confidence by the seed's rules.

use super::{
    sub_questions, unsupported_numbers, Answer, Citation, Confidence, ConfidenceLabel, Passage,
};
use crate::model::Engine;
use crate::search::{asks_why, concept_coverage, match_score, sentence_spans, words};
use regex::Regex;
use std::collections::BTreeSet;

/// A sentence the answer may quote, scored.
struct Candidate {
    score: f64,
    passage: usize,
    /// Char offsets in the passage.
    start: usize,
    end: usize,
    text: String,
    /// Share of the question's concepts it covers (with its table's context).
    coverage: f64,
    /// The text coverage is measured on: the sentence, or a row with its table's context.
    covered_text: String,
    /// For a table row: the char range of its column headings in the passage.
    headings: Option<(usize, usize)>,
    /// For a "how many" question: the count of the thing asked the sentence gives.
    count: Option<f64>,
}

/// What stands above a table row: the words of its caption, headings and row labels, and
/// where its column headings are.
struct TableContext {
    context: String,
    headings: Option<(usize, usize)>,
}

/// Whether `text` holds an amount, count or rate, not only a year or a date's day.
fn has_amount(text: &str) -> bool {
    static AMOUNT: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(r"\$\s?\d|\d%|\d{1,3}(,\d{3})+|\b\d+\.\d+\b|\b\d+\s+(million|billion|thousand|percent|shares|employees|people)\b").ok()
    });
    AMOUNT.as_ref().is_some_and(|re| re.is_match(text))
}

/// Whether `text` names a firm or signs for one ("/s/ PricewaterhouseCoopers LLP",
/// "Wells Fargo Bank, N.A."): what a "who" question wants.
fn names_someone(text: &str) -> bool {
    static NAME: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(r"/s/\s*\S|\b[A-Z][A-Za-z&.'-]+(?:\s+[A-Z&][A-Za-z&.'-]*)*,?\s+(?:LLP|L\.L\.P\.|LLC|Inc\.|N\.A\.|Corporation|Trust Company|& Co\.)").ok()
    });
    NAME.as_ref().is_some_and(|re| re.is_match(text))
}

/// Whether `text` gives the reason for a change ("due primarily to", "driven by", "as a
/// result of", "reflecting"): what a why-question wants.
fn gives_a_reason(text: &str) -> bool {
    static REASON: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:due (?:\w+ )?to|driven (?:\w+ )?by|as a result of|attributable to|because|reflect(?:s|ed|ing)|result(?:ed|ing) from|led by|caused by|offset by)\b").ok()
    });
    REASON.as_ref().is_some_and(|re| re.is_match(text))
}

/// Whether a sentence goes on from the one before it ("The increase was primarily due
/// to…", "This decrease reflects…", "This was driven by…"): its reason belongs to that
/// sentence's figure.
fn continues_the_change(text: &str) -> bool {
    static ANAPHOR: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:(?:the|this|these|that|such)\s+(?:\w+\s+)?(?:increases?|decreases?|declines?|growth|improvements?|reductions?|changes?|rises?|drops?|contraction|expansion)\b|(?:this|these|that)\s+(?:was|were|is|are)\b|(?:primarily|mainly|largely)\b)").ok()
    });
    ANAPHOR.as_ref().is_some_and(|re| re.is_match(text)) && gives_a_reason(text)
}

fn cells(line: &str) -> Vec<&str> {
    line.split('|').map(str::trim).collect()
}

/// "iPhone®: $39,669 (Three Months Ended July 1, 2023); $40,665 (…)": each value of a
/// table row with the headings above its column. A heading line whose cells do not divide
/// the values evenly says nothing about them and is left out; with no heading that fits,
/// the row is written as it stands.
fn row_under_headings(row: &str, headings: &str) -> String {
    let row_cells = cells(row);
    let Some((label, values)) = row_cells.split_first() else {
        return row.trim().to_string();
    };
    let mut columns: Vec<Vec<&str>> = vec![Vec::new(); values.len()];
    for line in headings.lines() {
        let heads = cells(line);
        if heads.is_empty() || values.is_empty() || values.len() % heads.len() != 0 {
            continue;
        }
        let span = values.len() / heads.len();
        for (i, column) in columns.iter_mut().enumerate() {
            let head = heads[i / span];
            if !head.is_empty() {
                column.push(head);
            }
        }
    }
    if columns.iter().all(Vec::is_empty) {
        return row.trim().to_string();
    }
    let described: Vec<String> = values
        .iter()
        .zip(&columns)
        .filter(|(value, _)| !value.is_empty())
        .map(|(value, column)| match column.is_empty() {
            true => (*value).to_string(),
            false => format!("{value} ({})", column.join(" ")),
        })
        .collect();
    format!("{label}: {}", described.join("; "))
}

fn is_table_row(line: &str) -> bool {
    line.contains(" | ") && line.chars().any(|c| c.is_ascii_digit())
}

/// A heading row names periods or columns: cells separated by `|`, and no amounts
/// (`$`, `39,669`, `(2)`), though dates and years are fine.
fn is_heading_row(line: &str) -> bool {
    static AMOUNT: std::sync::LazyLock<Option<Regex>> =
        std::sync::LazyLock::new(|| Regex::new(r"\$|\d{1,3}(,\d{3})+|\(\d|\d%").ok());
    line.contains('|') && AMOUNT.as_ref().is_some_and(|re| !re.is_match(line))
}

/// Whether a row of cells only names periods ("2023 | 2022", "Three Months Ended | June
/// 30, 2023", "FISCAL 2023 | % CHANGE"): column headings, not a signature table's names
/// and dates ("/s/ Luca Maestri | Chief Financial Officer | November 1, 2024").
fn names_only_periods(line: &str) -> bool {
    const PERIOD_WORDS: &[&str] = &[
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "three",
        "six",
        "nine",
        "twelve",
        "thirteen",
        "months",
        "month",
        "weeks",
        "week",
        "ended",
        "ending",
        "year",
        "years",
        "fiscal",
        "quarter",
        "quarters",
        "half",
        "first",
        "second",
        "third",
        "fourth",
        "change",
        "as",
        "of",
        "at",
        "and",
        "to",
        "in",
        "the",
        "period",
        "periods",
        "ytd",
        "fy",
        "thousands",
        "millions",
        "billions",
        "unaudited",
        "except",
        "per",
        "share",
        "data",
    ];
    is_table_row(line)
        && is_heading_row(line)
        && words(line).iter().all(|w| {
            w.chars().all(|c| c.is_ascii_digit())
                || PERIOD_WORDS.contains(&w.as_str())
                || crate::metadata::MONTHS.contains(&w.as_str())
                || crate::search::is_period_shorthand(w)
        })
}

/// The caption, heading rows and row-group labels above line `k` of `spans` (one
/// passage's sentences), looking back past the table's other rows.
fn table_context(spans: &[(usize, usize, &str)], k: usize) -> Option<TableContext> {
    let mut context = Vec::new();
    let mut years: Vec<String> = Vec::new();
    let mut headings: Option<(usize, usize)> = None;
    let mut i = k;
    let mut looked = 0;
    while i > 0 && looked < 40 {
        i -= 1;
        looked += 1;
        let (s, e, line) = spans[i];
        if is_heading_row(line) {
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

/// The offline answer: the best sentences of the passages, cited. `concepts_of` gives what
/// a text asks for as sets of interchangeable stems ([`Expansion::concepts`]).
///
/// [`Expansion::concepts`]: crate::search::Expansion::concepts
pub fn compose_extractive(
    question: &str,
    passages: &[Passage<'_>],
    concepts_of: &dyn Fn(&str) -> Vec<BTreeSet<String>>,
    max_sentences: usize,
) -> Answer {
    compose(question, passages, concepts_of, max_sentences, true)
}

/// [`compose_extractive`] from prose only: when the figures are already stated from the
/// statements, a question is answered with what the filing says about them, not with the
/// table rows again.
pub fn compose_from_prose(
    question: &str,
    passages: &[Passage<'_>],
    concepts_of: &dyn Fn(&str) -> Vec<BTreeSet<String>>,
    max_sentences: usize,
) -> Answer {
    compose(question, passages, concepts_of, max_sentences, false)
}

fn compose(
    question: &str,
    passages: &[Passage<'_>],
    concepts_of: &dyn Fn(&str) -> Vec<BTreeSet<String>>,
    max_sentences: usize,
    with_rows: bool,
) -> Answer {
    let concepts = concepts_of(question);
    let stems: BTreeSet<String> = concepts.iter().flatten().cloned().collect();
    let wants_figure = {
        let q = question.to_lowercase();
        [
            "how much",
            "how many",
            "how big",
            "how large",
            "size of",
            "what was",
            "what were",
            "what is",
            "rate",
            "ratio",
            "total",
            "amount",
            "price",
        ]
        .iter()
        .any(|k| q.contains(k))
    };
    let wants_name = {
        let q = question.trim_start().to_lowercase();
        q.starts_with("who ") || q.contains(" who ") || q.starts_with("which firm")
    };
    let wants_reason = asks_why(question);
    // "How many people do they employ?" is answered by a count of the thing asked ("67,317
    // employees"), not by any sentence with a figure.
    let wants_count = crate::question::asks_a_count(question);
    // The count of the thing asked a sentence gives ("79,400 employees", "total workforce
    // was approximately 171,000"): the largest, when it gives several.
    let count_asked = |sentence: &str| -> Option<f64> {
        static AFTER: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
            regex::Regex::new(r"(?:^|[^$\d.,])(\d[\d,]*)\s+((?:[A-Za-z’'-]+\s+){0,2}[A-Za-z]+)")
                .ok()
        });
        static BEFORE: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
            regex::Regex::new(
                r"((?:[A-Za-z]+\s+){0,2}[A-Za-z]+)\s+(?:was|were|is|are|of|totaled|totalled|numbered|reached)\s+(?:approximately\s+|about\s+|roughly\s+|over\s+|more\s+than\s+|nearly\s+)?(\d[\d,]*)(?:[^\d%.,]|[.,](?:\s|$)|$)",
            )
            .ok()
        });
        // A year ("2022 Employee Stock Plan") and a table row count nothing.
        if is_table_row(sentence) {
            return None;
        }
        // "13,000 Boeing employees", "23,000 new employees", "total workforce was …": the
        // thing counted is one of a few words beside the number.
        let asked = |nouns: &str| {
            nouns.split_whitespace().any(|noun| {
                concepts_of(noun)
                    .iter()
                    .flatten()
                    .any(|stem| stems.contains(stem))
            })
        };
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
    };
    let mut candidates: Vec<Candidate> = Vec::new();
    for (p, passage) in passages.iter().enumerate() {
        let spans = sentence_spans(passage.text);
        // A why-question's answer is often a change and the reason the next sentence gives
        // for it: such pairs are read as one sentence.
        let mut read: Vec<(usize, usize, std::borrow::Cow<'_, str>, usize)> = spans
            .iter()
            .enumerate()
            .map(|(k, &(s, e, sentence))| (s, e, std::borrow::Cow::Borrowed(sentence), k))
            .collect();
        if wants_reason {
            for (k, pair) in spans.windows(2).enumerate() {
                let ((s, e, first), (next_s, next_e, next)) = (pair[0], pair[1]);
                let same_paragraph = !passage
                    .text
                    .chars()
                    .skip(e)
                    .take(next_s.saturating_sub(e))
                    .any(|c| c == '\n');
                if same_paragraph && !is_table_row(first) && continues_the_change(next) {
                    let joined: String = passage.text.chars().skip(s).take(next_e - s).collect();
                    read.push((s, next_e, std::borrow::Cow::Owned(joined), k));
                }
            }
        }
        for (s, e, sentence, k) in read {
            let sentence = sentence.as_ref();
            let matched = match_score(sentence, &stems);
            // A heading row ("2023 | 2022 | 2023 | 2022") names the columns: it matches a
            // question's year and answers nothing.
            if matched == 0
                || sentence.chars().count() < 12
                || (!with_rows && is_table_row(sentence))
                || names_only_periods(sentence)
            {
                continue;
            }
            // A table row says little alone ("iPhone | $39,669 | $40,665"): its caption and
            // column headings say what the figures are, so they count towards coverage and
            // the headings are cited with the row.
            let table = is_table_row(sentence)
                .then(|| table_context(&spans, k))
                .flatten();
            let covered_text = match &table {
                Some(t) => format!("{} {sentence}", t.context),
                None => sentence.to_string(),
            };
            let coverage = concept_coverage(&covered_text, &concepts);
            let has_figure = has_amount(sentence);
            let count = wants_count.then(|| count_asked(sentence)).flatten();
            // A statement's row ("Total net sales | 391,035") is mostly the words asked
            // for: reward sentences whose words are the question's, not only many of them.
            let wordy: usize = words(sentence)
                .iter()
                .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
                .count();
            let precision = matched as f64 / wordy.max(1) as f64;
            // A heading ("INDEPENDENT ACCOUNTANTS") or a label ("Gross margin:") names the topic
            // but answers nothing.
            let title_like = table.is_none()
                && !is_table_row(sentence)
                && !sentence.trim_end().ends_with(['.', '?', '!', ';'])
                && words(sentence).len() < 10;
            let score = coverage - if title_like { 0.5 } else { 0.0 }
                + if wants_name && names_someone(sentence) {
                    0.3
                } else {
                    0.0
                }
                + 0.5 * precision.min(1.0)
                + if wants_reason && gives_a_reason(sentence) {
                    0.35
                } else {
                    0.0
                }
                + if wants_count && count.is_some() {
                    0.4
                } else {
                    0.0
                }
                + match (wants_figure, has_figure) {
                    (true, true) => 0.35,
                    // "How many …?" is not answered by a sentence without a figure.
                    (true, false) => -0.2,
                    _ => 0.0,
                }
                + 0.15 / (1.0 + passage.rank as f64)
                - if sentence.chars().count() > 600 {
                    0.2
                } else {
                    0.0
                };
            candidates.push(Candidate {
                score,
                passage: p,
                start: s,
                end: e,
                text: sentence.to_string(),
                coverage,
                covered_text,
                headings: table.and_then(|t| t.headings),
                count,
            });
        }
    }
    // "How many people does it employ?": the whole is at least any part of it ("57,000
    // employees … were union represented"), so the largest count of the thing asked wins.
    let largest_count = candidates.iter().filter_map(|c| c.count).reduce(f64::max);
    for c in &mut candidates {
        if c.count.is_some() && c.count == largest_count {
            c.score += 0.3;
        }
    }
    candidates.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.passage.cmp(&b.passage))
            .then(a.start.cmp(&b.start))
    });
    let mut chosen: Vec<Candidate> = Vec::new();
    for c in candidates {
        if chosen.len() == max_sentences {
            break;
        }
        // A sentence and the pair it begins or ends are one quotation, not two.
        if chosen.iter().any(|x| {
            x.text == c.text || (x.passage == c.passage && x.start < c.end && c.start < x.end)
        }) {
            continue;
        }
        // Keep sentences that add to the best one, not weak echoes of it.
        if chosen
            .first()
            .is_some_and(|best| c.score < best.score * 0.6)
        {
            break;
        }
        chosen.push(c);
    }
    let parts = sub_questions(question);
    let answered_parts = parts
        .iter()
        .filter(|part| {
            let part_concepts = concepts_of(part);
            !part_concepts.is_empty()
                && chosen
                    .iter()
                    .any(|c| concept_coverage(&c.covered_text, &part_concepts) > 0.5)
        })
        .count();
    let best_coverage = chosen.iter().map(|c| c.coverage).fold(0.0, f64::max);
    // More than half of the question's words must stand in one sentence.
    let answered = answered_parts > 0 && best_coverage > 0.5;
    let mut reasoning = vec![format!(
        "read {} passage(s) from {} section(s)",
        passages.len(),
        passages
            .iter()
            .map(|p| (p.doc_id, p.node_id))
            .collect::<BTreeSet<_>>()
            .len()
    )];
    let nodes_visited: Vec<String> = {
        let mut seen = Vec::new();
        for p in passages {
            let id = format!("{}:{}", p.doc_id, p.node_id);
            if !seen.contains(&id) {
                seen.push(id);
            }
        }
        seen
    };
    if !answered {
        reasoning.push(format!(
            "no sentence covers enough of the question (best covers {:.0}% of its words)",
            best_coverage * 100.0
        ));
        return Answer {
            question: question.to_string(),
            answer: "The indexed documents do not appear to answer this question.".to_string(),
            answered: false,
            confidence: Confidence {
                label: ConfidenceLabel::Low,
                score: (best_coverage * 0.4).min(0.3),
                answered: 0,
                unanswered: parts.len(),
                source_nodes: 0,
            },
            citations: Vec::new(),
            citations_dropped: 0,
            unsupported_numbers: Vec::new(),
            reasoning,
            nodes_visited,
            engine: Engine::Extractive,
            tokens_used: 0,
            from_cache: false,
            computed: Vec::new(),
            figures: Vec::new(),
            comparison: None,
            documents: Vec::new(),
            invented_dropped: 0,
            cell_citations: Vec::new(),
        };
    }
    let mut citations = Vec::new();
    let mut text = String::new();
    // Each chosen sentence is cited; a table row's headings are cited too (once per
    // table), and the row is written out cell by cell under its column headings.
    let mut heading_markers: Vec<((usize, usize, usize), usize)> = Vec::new();
    let mut cite = |p: usize, s: usize, e: usize, excerpt: String| -> usize {
        let passage = &passages[p];
        let marker = citations.len() + 1;
        citations.push(Citation {
            marker,
            doc_id: passage.doc_id.to_string(),
            doc_name: passage.doc_name.to_string(),
            node_id: passage.node_id.to_string(),
            title: passage.title.to_string(),
            start_page: passage.start_page,
            end_page: passage.end_page,
            excerpt,
            start_char: passage.start_char + s,
            end_char: passage.start_char + e,
        });
        marker
    };
    for c in &chosen {
        if !text.is_empty() {
            text.push(' ');
        }
        let headed = c.headings.map(|(hs, he)| {
            let key = (c.passage, hs, he);
            let heading: String = passages[c.passage]
                .text
                .chars()
                .skip(hs)
                .take(he - hs)
                .collect();
            let marker = match heading_markers.iter().find(|(k, _)| *k == key) {
                Some((_, m)) => *m,
                None => {
                    let m = cite(c.passage, hs, he, heading.clone());
                    heading_markers.push((key, m));
                    m
                }
            };
            (heading, marker)
        });
        let row_marker = cite(c.passage, c.start, c.end, c.text.clone());
        match headed {
            Some((heading, heading_marker)) => {
                text.push_str(&row_under_headings(&c.text, &heading));
                text.push_str(&format!(" [{heading_marker}][{row_marker}]"));
            }
            None => {
                text.push_str(c.text.trim());
                text.push_str(&format!(" [{row_marker}]"));
            }
        }
    }
    let source_nodes = citations
        .iter()
        .map(|c| (c.doc_id.clone(), c.node_id.clone()))
        .collect::<BTreeSet<_>>()
        .len();
    // An answer that does not give what was asked for (an amount, a name) is not HIGH,
    // however many sections it quotes.
    let gives_what_was_asked = (!wants_figure || chosen.iter().any(|c| has_amount(&c.text)))
        && (!wants_name || chosen.iter().any(|c| names_someone(&c.text)));
    let label = if answered_parts == parts.len()
        && source_nodes >= 3
        && gives_what_was_asked
        && best_coverage >= 0.75
    {
        ConfidenceLabel::High
    } else if answered_parts * 2 > parts.len() && source_nodes >= 1 {
        ConfidenceLabel::Medium
    } else {
        ConfidenceLabel::Low
    };
    let score = (answered_parts as f64 / parts.len() as f64)
        * best_coverage.min(1.0)
        * match label {
            ConfidenceLabel::High => 1.0,
            ConfidenceLabel::Medium => 0.8,
            ConfidenceLabel::Low => 0.5,
        };
    reasoning.push(format!(
        "chose {} sentence(s) covering {:.0}% of the question's words; {answered_parts} of {} part(s) answered",
        citations.len(),
        best_coverage * 100.0,
        parts.len()
    ));
    let excerpts: Vec<&str> = citations.iter().map(|c| c.excerpt.as_str()).collect();
    Answer {
        question: question.to_string(),
        unsupported_numbers: unsupported_numbers(&text, &excerpts),
        answer: text,
        answered: true,
        confidence: Confidence {
            label,
            score,
            answered: answered_parts,
            unanswered: parts.len() - answered_parts,
            source_nodes,
        },
        citations,
        citations_dropped: 0,
        reasoning,
        nodes_visited,
        engine: Engine::Extractive,
        tokens_used: 0,
        from_cache: false,
        computed: Vec::new(),
        figures: Vec::new(),
        comparison: None,
        documents: Vec::new(),
        invented_dropped: 0,
        cell_citations: Vec::new(),
    }
}
