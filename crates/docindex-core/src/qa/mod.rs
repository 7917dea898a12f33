//! Question answering without I/O: the offline engine composes an extractive answer from
//! the best sentences of retrieved passages, each cited; every citation is verified
//! against the source text (exact, then tolerant of spacing and case) before it is shown,
//! numbers in an answer that no cited excerpt contains are flagged, and confidence follows
//! the seed's rules (answered sub-questions, number of source sections).

use crate::charmap::CharMap;
use crate::model::{Engine, Span};
use crate::search::words;
use regex::Regex;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum ConfidenceLabel {
    High,
    Medium,
    Low,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Confidence {
    pub label: ConfidenceLabel,
    /// 0..1.
    pub score: f64,
    pub answered: usize,
    pub unanswered: usize,
    pub source_nodes: usize,
}

/// A verified citation: `excerpt` is exactly the document's text at `start_char..end_char`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Citation {
    /// The number used in the answer, `[1]`.
    pub marker: usize,
    pub doc_id: String,
    pub doc_name: String,
    pub node_id: String,
    pub title: String,
    pub start_page: Option<u32>,
    pub end_page: Option<u32>,
    pub excerpt: String,
    pub start_char: usize,
    pub end_char: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub question: String,
    /// The answer with inline `[n]` markers.
    pub answer: String,
    pub answered: bool,
    pub confidence: Confidence,
    pub citations: Vec<Citation>,
    /// Excerpts that could not be located in the source and were dropped.
    pub citations_dropped: usize,
    /// Numbers in the answer that appear in no cited excerpt.
    pub unsupported_numbers: Vec<String>,
    pub reasoning: Vec<String>,
    pub nodes_visited: Vec<String>,
    pub engine: Engine,
    pub tokens_used: u64,
    /// Served from the results cache (no model call was made).
    #[serde(default)]
    pub from_cache: bool,
    /// Metrics the answer worked out from statement rows, with their formulas.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub computed: Vec<ComputedMetric>,
    /// The figures the answer states from statement rows, each with its citations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<StatedFigure>,
    /// The table of an answer that compares companies or filings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Comparison>,
    /// The documents the answer was drawn from, and why each was read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub documents: Vec<DocumentUse>,
    /// Targets of the model's decomposition that the question does not name (a company,
    /// a year), dropped.
    #[serde(default)]
    pub invented_dropped: usize,
    /// The statement cells `figures` cite when the answer's own text does not (a model's
    /// answer quotes what it chose): they become citations when the answer is one part of
    /// a comparison, whose table shows the cells.
    #[serde(skip)]
    pub cell_citations: Vec<Citation>,
}

/// A document an answer read, and why: the question named its company, a filter chose
/// it, or its passages outvoted the library's other files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentUse {
    pub doc_id: String,
    pub doc_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    pub why: String,
    /// The file's vote (seed 002), when votes chose it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub votes: Option<f64>,
}

impl Answer {
    /// An answer that says the documents do not answer `question`, citing nothing.
    pub fn unanswered(question: &str) -> Answer {
        Answer {
            question: question.to_string(),
            answer: "The indexed documents do not appear to answer this question.".to_string(),
            answered: false,
            confidence: Confidence {
                label: ConfidenceLabel::Low,
                score: 0.0,
                answered: 0,
                unanswered: 1,
                source_nodes: 0,
            },
            citations: Vec::new(),
            citations_dropped: 0,
            unsupported_numbers: Vec::new(),
            reasoning: Vec::new(),
            nodes_visited: Vec::new(),
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
}

/// A metric an answer computed: its value and how, every operand a cited row's cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComputedMetric {
    pub metric: String,
    pub label: String,
    pub value: f64,
    /// As the answer prints it: "27.4%", "1.75", "59,475".
    pub shown: String,
    pub formula: String,
    /// The formula with each operand's row label and value.
    pub worked: String,
    /// "millions", "thousands": the statement's unit, for amounts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<String>,
    /// The period of the figures, from the column headings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<String>,
}

/// A retrieved passage offered to the composer, with its place in the document.
#[derive(Debug, Clone)]
pub struct Passage<'a> {
    pub doc_id: &'a str,
    pub doc_name: &'a str,
    pub node_id: &'a str,
    pub title: &'a str,
    pub start_page: Option<u32>,
    pub end_page: Option<u32>,
    /// The passage text and its char offset in the document.
    pub text: &'a str,
    pub start_char: usize,
    /// Rank of the passage in retrieval (0 = best).
    pub rank: usize,
}

/// Where `excerpt` stands in `text` (the document), searched inside `within`: exactly, or
/// with any run of whitespace and any case. `None` when it is not there.
pub fn locate(text: &str, within: Span, excerpt: &str) -> Option<Span> {
    let map = CharMap::new(text);
    let region = map.slice(within);
    let base = within.start_char;
    if excerpt.trim().is_empty() {
        return None;
    }
    if let Some(byte) = region.find(excerpt) {
        let start = base + region[..byte].chars().count();
        return Some(Span {
            start_char: start,
            end_char: start + excerpt.chars().count(),
        });
    }
    let pattern: Vec<String> = excerpt.split_whitespace().map(regex::escape).collect();
    let re = Regex::new(&format!("(?i){}", pattern.join(r"\s+"))).ok()?;
    let m = re.find(region)?;
    let start = base + region[..m.start()].chars().count();
    Some(Span {
        start_char: start,
        end_char: start + region[m.start()..m.end()].chars().count(),
    })
}

/// Figures in `answer` (amounts, percentages, counts) found in none of `excerpts`.
pub fn unsupported_numbers(answer: &str, excerpts: &[&str]) -> Vec<String> {
    static NUMBER: std::sync::LazyLock<Option<Regex>> =
        std::sync::LazyLock::new(|| Regex::new(r"\$?\d[\d,]*(?:\.\d+)?%?").ok());
    let Some(number) = NUMBER.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in number.find_iter(answer) {
        let n = m.as_str().trim_start_matches('$').trim_end_matches('%');
        // Citation markers like [1] are not figures.
        let before = answer[..m.start()].chars().last();
        if before == Some('[') || n.len() < 2 && !m.as_str().contains('%') {
            continue;
        }
        if !excerpts.iter().any(|e| e.contains(n)) && !out.contains(&m.as_str().to_string()) {
            out.push(m.as_str().to_string());
        }
    }
    out
}

/// Parts of a question that each need an answer: split at `?`, `;` and ` and ` between
/// clauses of several words.
pub fn sub_questions(question: &str) -> Vec<String> {
    let mut parts = Vec::new();
    for piece in question.split(['?', ';']) {
        for part in piece.split(" and ") {
            let content: Vec<String> = words(part);
            if content.len() >= 3 {
                parts.push(part.trim().to_string());
            } else if let Some(last) = parts.last_mut() {
                last.push_str(" and ");
                last.push_str(part.trim());
            } else if !part.trim().is_empty() {
                parts.push(part.trim().to_string());
            }
        }
    }
    if parts.is_empty() {
        parts.push(question.to_string());
    }
    parts
}

mod combine;
pub mod compare;
mod compose;
pub mod grounding;
pub mod instructions;
mod merge;
mod passage_rows;
mod sentences;

pub use compare::{compare, Comparison, StatedFigure};

pub use combine::{combine_by_company, AnswerPart, Combination};
pub use compose::{compose_extractive, compose_from_prose, compose_narrative};
pub use merge::{append_answer, keep_the_verdict, renumber_markers};

#[cfg(test)]
mod tests {
    use super::*;

    /// A passage of a stored document, starting at `start_char` of its text.
    fn stored<'a>(
        doc_name: &'a str,
        node_id: &'a str,
        title: &'a str,
        text: &'a str,
        start_char: usize,
    ) -> Passage<'a> {
        Passage {
            doc_id: "d",
            doc_name,
            node_id,
            title,
            start_page: None,
            end_page: None,
            text,
            start_char,
            rank: 0,
        }
    }

    #[test]
    fn locate_is_exact_then_tolerant_and_refuses_what_is_not_there() {
        let text = "Intro. Net sales   were\n$391.0 billion in 2024. End.";
        let all = Span {
            start_char: 0,
            end_char: text.chars().count(),
        };
        let exact = locate(text, all, "Intro.").unwrap();
        assert_eq!((exact.start_char, exact.end_char), (0, 6));
        let loose = locate(text, all, "net sales were $391.0 billion").unwrap();
        assert_eq!(
            CharMap::new(text).slice(loose),
            "Net sales   were\n$391.0 billion"
        );
        assert!(locate(text, all, "net sales were $400.0 billion").is_none());
    }

    #[test]
    fn numbers_missing_from_the_excerpts_are_flagged() {
        let flagged = unsupported_numbers(
            "Net sales were $391,035 million [1], up 2% [2] from 385,603.",
            &["Total net sales 391,035", "an increase of 2%"],
        );
        assert_eq!(flagged, vec!["385,603"]);
    }

    #[test]
    fn a_table_row_is_read_with_its_caption_and_cited_with_its_headings() {
        // Apple's 10-Q for Q3 FY2023, Note 2 – Revenue, as the library stores it.
        let text = "Net sales disaggregated by significant products and services for the three- and nine-month periods ended July 1, 2023 and June 25, 2022 were as follows (in millions):\n\nThree Months Ended | Nine Months Ended\nJuly 1, 2023 | June 25, 2022 | July 1, 2023 | June 25, 2022\niPhone® | $39,669 | $40,665 | $156,778 | $162,863\nMac® | 6,840 | 7,382 | 21,743 | 28,669\n\nDuring the third quarter of 2023, the Japan net sales decrease consisted primarily of lower net sales of iPhone.";
        let passage = stored("apple-10q", "0011", "Note 2 – Revenue", text, 1000);
        let concepts_of = |q: &str| crate::search::expand(q, &[]).concepts();
        let answer = compose_extractive(
            "What were iPhone net sales in the third quarter of fiscal 2023?",
            &[passage],
            &concepts_of,
            1,
        );
        assert!(answer.answered, "{answer:?}");
        assert_eq!(answer.citations.len(), 2, "{answer:?}");
        let heading = &answer.citations[0];
        assert!(heading
            .excerpt
            .starts_with("Three Months Ended | Nine Months Ended\nJuly 1, 2023"));
        let row = &answer.citations[1];
        assert!(
            row.excerpt.starts_with("iPhone® | $39,669"),
            "{}",
            row.excerpt
        );
        // Spans are char offsets in the document: ® is one char.
        let chars: Vec<char> = text.chars().collect();
        let cited: String = chars[row.start_char - 1000..row.end_char - 1000]
            .iter()
            .collect();
        assert_eq!(cited, row.excerpt);
        assert!(answer.unsupported_numbers.is_empty(), "{answer:?}");
        assert!(
            answer.answer.starts_with(
                "iPhone®: $39,669 (Three Months Ended July 1, 2023); $40,665 (Three Months Ended June 25, 2022); $156,778 (Nine Months Ended July 1, 2023)"
            ),
            "{}",
            answer.answer
        );
        assert!(answer.answer.ends_with("[1][2]"), "{}", answer.answer);
    }

    #[test]
    fn a_heading_row_of_years_is_never_an_answer() {
        // MGM Resorts' 10-Q for Q2 2023, its segment table's caption and headings, as the
        // library stores them: the heading row matches the question's year and its caption
        // the figure asked, yet it states no figure.
        let text = "The following table presents a detail by segment of net revenues:\n\nThree Months Ended Six Months Ended June 30, June 30,\n\n2023 | 2022 | 2023 | 2022\n\n(In thousands) Net revenue\n\nMGM China casino revenues increased 454% for the three months ended June 30, 2023 compared to the prior year quarter.";
        let passage = |text| stored("mgm-10q", "0044", "Net Revenues by Segment", text, 0);
        let concepts_of = |q: &str| crate::search::expand(q, &[]).concepts();
        let question = "What were net revenues in Q2 2023?";
        let answer = compose_extractive(question, &[passage(text)], &concepts_of, 3);
        assert!(
            answer
                .citations
                .iter()
                .all(|c| !c.excerpt.starts_with("2023 | 2022")),
            "{answer:?}"
        );
        assert!(answer.citations[0]
            .excerpt
            .starts_with("MGM China casino revenues"));
        // With nothing else to quote, nothing is answered.
        let headings_only = &text[..text.find("\n\nMGM China").unwrap()];
        let answer = compose_extractive(question, &[passage(headings_only)], &concepts_of, 3);
        assert!(answer.citations.is_empty(), "{answer:?}");
        // Boeing's 10-K for 2023: the risk factor's union members are part of the workforce
        // the human-capital section counts; "how many" is answered by the whole.
        let risk = "Approximately 57,000 employees, which constitute 33% of our total workforce, were union represented as of December 31, 2023 under collective bargaining agreements with varying durations and expiration dates.";
        let human_capital = "As of December 31, 2023 and 2022, Boeing’s total workforce was approximately 171,000 and 156,000 with 14% and 13% located outside of the U.S. As of December 31, 2023, our workforce included approximately 57,000 union members.";
        let answer = compose_extractive(
            "How many employees?",
            &[passage(risk), passage(human_capital)],
            &concepts_of,
            1,
        );
        assert!(
            answer.citations[0].excerpt.contains("171,000"),
            "{answer:?}"
        );
        // A signature table's names and dates are no headings: they answer who signed.
        let signatures = "Pursuant to the requirements of the Securities Exchange Act of 1934, this report has been signed below.\n/s/ Luca Maestri | Senior Vice President, Chief Financial Officer (Principal Financial Officer) | November 1, 2024";
        let answer = compose_extractive(
            "Who is the chief financial officer?",
            &[passage(signatures)],
            &concepts_of,
            1,
        );
        assert!(
            answer.citations[0].excerpt.starts_with("/s/ Luca Maestri"),
            "{answer:?}"
        );
    }

    #[test]
    fn a_question_answered_only_in_part_quotes_the_closest_passages_at_low() {
        // Adobe's 10-K for fiscal 2017, its liquidity section as printed (page 51).
        let text = "On July 27, 2015, we entered into an amendment to further extend the maturity date of the Credit Agreement to July 27, 2020 and reallocated the facility among the syndicate of lenders that are parties to the Credit Agreement. As of December 1, 2017, there were no outstanding borrowings under this Credit Agreement and the entire $1 billion credit line remains available for borrowing. As of December 1, 2017, the amount outstanding under our senior notes was $1.9 billion, consisting of $900 million of 4.75% senior notes due February 1, 2020 and $1 billion of 3.25% senior notes due February 1, 2025.";
        let passage = stored(
            "adobe-10k",
            "0031",
            "Liquidity and Capital Resources",
            text,
            0,
        );
        let concepts_of = |q: &str| crate::search::expand(q, &[]).concepts();
        let answer = compose_extractive(
            "What debt did Adobe have outstanding at the end of fiscal 2017, and was its revolver drawn?",
            std::slice::from_ref(&passage),
            &concepts_of,
            3,
        );
        assert!(answer.answered, "{answer:?}");
        assert_eq!(answer.confidence.label, ConfidenceLabel::Low);
        assert!(
            answer.answer.starts_with(compose::NEAREST_LEAD),
            "{}",
            answer.answer
        );
        assert!(
            answer.citations.iter().any(|c| c
                .excerpt
                .contains("no outstanding borrowings under this Credit Agreement")),
            "{answer:?}"
        );
        // A question nothing in the passage bears on is still refused.
        let answer = compose_extractive(
            "Who audits Adobe's statements?",
            &[passage],
            &concepts_of,
            3,
        );
        assert!(!answer.answered, "{answer:?}");
    }

    #[test]
    fn a_why_question_is_answered_with_the_change_and_the_reason_given_for_it() {
        // MGM Resorts' 10-Q for Q2 2023, MD&A, as the library stores it.
        let text = "Interest Expense\nGross interest expense was $113 million and $137 million for the three months ended June 30, 2023 and 2022, respectively. The decrease from the prior year periods is due primarily to a decrease in debt outstanding as a result of the repayment of the $1.25 billion 6% senior notes in March 2023.\nOther, net was income of $24 million for the three months ended June 30, 2023.";
        let passage = stored("mgm-10q", "0060", "Interest Expense", text, 0);
        let concepts_of = |q: &str| crate::search::expand(q, &[]).concepts();
        let why = compose_extractive(
            "Why did MGM's interest expense change in Q2 2023?",
            std::slice::from_ref(&passage),
            &concepts_of,
            1,
        );
        assert!(why.answered, "{why:?}");
        let cited = &why.citations[0].excerpt;
        assert!(
            cited.starts_with("Gross interest expense was $113 million"),
            "{cited}"
        );
        assert!(cited.ends_with("senior notes in March 2023."), "{cited}");
        assert_eq!(
            &text[why.citations[0].start_char..why.citations[0].end_char],
            cited.as_str()
        );
        // Asked what, not why, the figure is the answer, without the reason.
        let what = compose_extractive(
            "What was MGM's interest expense in Q2 2023?",
            &[passage],
            &concepts_of,
            1,
        );
        assert!(what.answered, "{what:?}");
        assert!(
            what.citations[0].excerpt.ends_with("respectively."),
            "{}",
            what.citations[0].excerpt
        );
    }

    #[test]
    fn questions_split_into_parts() {
        assert_eq!(
            sub_questions("What was revenue in 2024 and how did margins change?").len(),
            2
        );
        assert_eq!(
            sub_questions("What were research and development expenses?").len(),
            1
        );
    }
}
