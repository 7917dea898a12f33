//! Per-company (or per-filing) answers combined into one, part by part as each is ready so
//! the answer streams: each part under its label with its citations renumbered after the
//! parts before, then the comparison of their figures (differences, conflicts) and the
//! confidence across parts (seed 001).

use super::compare::{compare, verdict, ComparedPart, Difference, StatedFigure};
use super::merge::{markers_in, renumber_markers};
use super::{Answer, Citation, ComputedMetric, Confidence, ConfidenceLabel};
use crate::question::comparison_direction;
use std::collections::BTreeSet;

/// One part of a combined answer: the answer for one company, or for one filing when a
/// company's filings are compared.
pub struct AnswerPart {
    /// What the part is called in the answer: the company, or the company and the filing.
    pub label: String,
    pub company: String,
    pub answer: Answer,
}

/// An answer being combined from its parts.
pub struct Combination {
    question: String,
    pieces: Vec<String>,
    parts_expected: usize,
    absent: usize,
    combined: Option<Answer>,
    answered: usize,
    sections: BTreeSet<(String, String)>,
    compared: Vec<(String, String, Vec<StatedFigure>)>,
    /// Markers of a part's dropped citations stay in its text: the next part starts above
    /// every marker used so far, so none is read as another's.
    shift: usize,
    /// The least sure of the answered parts: a combined answer is no surer than its parts.
    weakest: ConfidenceLabel,
}

impl Combination {
    /// A combination of `parts` parts; `absent` companies are said to have no filing. The
    /// opening piece of the text, if any.
    pub fn new(question: &str, parts: usize, absent: &[String]) -> (Combination, Option<String>) {
        let opening = (!absent.is_empty()).then(|| {
            format!(
                "The library has no filing for {}, so nothing is said about {}.",
                absent.join(" or "),
                if absent.len() == 1 { "it" } else { "them" }
            )
        });
        let combination = Combination {
            question: question.to_string(),
            pieces: opening.iter().cloned().collect(),
            parts_expected: parts,
            absent: absent.len(),
            combined: None,
            answered: 0,
            sections: BTreeSet::new(),
            compared: Vec::new(),
            shift: 0,
            weakest: ConfidenceLabel::High,
        };
        (combination, opening)
    }

    /// Add the next part; the piece of text it adds.
    pub fn add(&mut self, part: AnswerPart) -> String {
        let AnswerPart {
            label,
            company,
            answer: part,
        } = part;
        let shift = self.shift;
        let piece = if part.answered {
            self.answered += 1;
            self.weakest = weaker(self.weakest, part.confidence.label);
            self.sections.extend(
                part.citations
                    .iter()
                    .map(|c| (c.doc_id.clone(), c.node_id.clone())),
            );
            format!("{label}: {}", renumber_markers(&part.answer, shift))
        } else {
            format!("{label}: its filings do not appear to answer this.")
        };
        self.pieces.push(piece.clone());
        let figures: Vec<StatedFigure> = part.figures.iter().map(|f| f.shifted(shift)).collect();
        self.compared.push((label, company, figures.clone()));
        let citations: Vec<Citation> = part
            .citations
            .iter()
            .chain(&part.cell_citations)
            .map(|c| Citation {
                marker: c.marker + shift,
                ..c.clone()
            })
            .collect();
        self.shift += part
            .citations
            .iter()
            .chain(&part.cell_citations)
            .map(|c| c.marker)
            .chain(markers_in(&part.answer))
            .chain(part.figures.iter().flat_map(|f| f.markers.iter().copied()))
            .max()
            .unwrap_or(0);
        match &mut self.combined {
            None => {
                self.combined = Some(Answer {
                    citations,
                    figures,
                    ..part
                })
            }
            Some(all) => {
                all.citations.extend(citations);
                all.citations_dropped += part.citations_dropped;
                all.unsupported_numbers.extend(part.unsupported_numbers);
                all.reasoning.extend(part.reasoning);
                all.nodes_visited.extend(part.nodes_visited);
                all.tokens_used += part.tokens_used;
                all.computed.extend(part.computed);
                all.figures.extend(figures);
                all.documents.extend(part.documents);
                all.from_cache &= part.from_cache;
            }
        }
        piece
    }

    /// The combined answer, with the comparison of the parts' figures, and the pieces of
    /// text the comparison added (its differences and conflicts). Confidence follows the
    /// sub-questions: HIGH when every part is answered from three or more sections in all,
    /// MEDIUM when more than half are, LOW otherwise.
    pub fn finish(mut self) -> (Answer, Vec<String>) {
        let mut answer = self
            .combined
            .take()
            .unwrap_or_else(|| Answer::unanswered(&self.question));
        let table_parts: Vec<ComparedPart> = self
            .compared
            .iter()
            .map(|(label, company, figures)| ComparedPart {
                label,
                company,
                figures,
            })
            .collect();
        answer.comparison = compare(&table_parts);
        let mut added = Vec::new();
        // "Which had the higher …" is answered first with which.
        if let Some(said) = comparison_direction(&self.question)
            .zip(answer.comparison.as_ref())
            .and_then(|(higher, table)| verdict(table, higher))
        {
            let at = usize::from(self.absent > 0).min(self.pieces.len());
            self.pieces.insert(at, said.clone());
            answer.reasoning.push(format!("verdict: {said}"));
        }
        if let Some(table) = &answer.comparison {
            for difference in &table.differences {
                added.push(difference.text.clone());
                answer.computed.push(difference_metric(difference));
            }
            added.extend(table.conflicts.iter().map(|c| c.text.clone()));
            answer.reasoning.push(format!(
                "compared {} across {} row(s): {} difference(s), {} conflict(s)",
                table
                    .columns
                    .iter()
                    .map(|c| c.label.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                table.rows.len(),
                table.differences.len(),
                table.conflicts.len()
            ));
        }
        self.pieces.extend(added.iter().cloned());
        let total = self.parts_expected.max(self.compared.len()) + self.absent;
        let answered = self.answered;
        answer.question = self.question;
        answer.answer = self.pieces.join("\n\n");
        answer.answered = answered > 0;
        let label = if answered == total && self.sections.len() >= 3 {
            self.weakest
        } else if answered * 2 > total && !self.sections.is_empty() {
            ConfidenceLabel::Medium
        } else {
            ConfidenceLabel::Low
        };
        answer.confidence = Confidence {
            label,
            score: answered as f64 / total.max(1) as f64,
            answered,
            unanswered: total - answered,
            source_nodes: self.sections.len(),
        };
        (answer, added)
    }
}

/// One answer from per-company (or per-filing) answers to the same question, each under
/// its label; see [`Combination`].
pub fn combine_by_company(question: &str, parts: Vec<AnswerPart>, absent: &[String]) -> Answer {
    let (mut combination, _) = Combination::new(question, parts.len(), absent);
    for part in parts {
        combination.add(part);
    }
    combination.finish().0
}

/// A difference as a metric the answer computed: its operands are the two cited cells.
fn difference_metric(difference: &Difference) -> ComputedMetric {
    ComputedMetric {
        metric: format!("{}_difference", difference.concept),
        label: format!("difference in {}", difference.label),
        value: difference.value,
        shown: difference.shown.clone(),
        formula: format!("{} − {}", difference.first, difference.second),
        worked: difference.text.clone(),
        scale: difference.scale.clone(),
        period: None,
    }
}

/// The less sure of two labels.
fn weaker(a: ConfidenceLabel, b: ConfidenceLabel) -> ConfidenceLabel {
    let rank = |l: ConfidenceLabel| match l {
        ConfidenceLabel::High => 2,
        ConfidenceLabel::Medium => 1,
        ConfidenceLabel::Low => 0,
    };
    match rank(a) <= rank(b) {
        true => a,
        false => b,
    }
}
