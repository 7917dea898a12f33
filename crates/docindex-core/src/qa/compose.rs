//! The offline answer, in stages: the sentences of the retrieved passages read (a change
//! and its reason as one), each scored against what the question asks (its concepts, and
//! whether it wants a figure, a count, a name or a reason; a table row with its caption and
//! column headings), the best chosen, cited, and given a confidence by the seed's rules.

use super::instructions::{addresses_a_model, in_a_paragraph_addressed_to_a_model};
use super::passage_rows::{is_table_row, names_only_periods, table_context};
use super::sentences::{
    continues_the_change, count_asked, gives_a_reason, has_amount, names_someone,
};
use super::{
    sub_questions, unsupported_numbers, Answer, Citation, Confidence, ConfidenceLabel, Passage,
};
use crate::finance::rows::row_under_headings;
use crate::model::Span;
use crate::question::passage::cues_in;
use crate::question::{Asks, PassageKind};
use crate::search::{concept_coverage, match_score, sentence_spans, words};
use std::borrow::Cow;
use std::collections::BTreeSet;

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
    compose(
        question,
        PassageKind::Figure,
        passages,
        concepts_of,
        max_sentences,
        true,
    )
}

/// [`compose_extractive`] for a question the filing's words answer (`kind` from the
/// reading): a sentence that says what that kind of passage says ("primarily due to", "we
/// acquired", "votes for") counts for more, and one that covers fewer of the question's
/// words still answers when it does (an analyst's long question shares few words with the
/// sentence that answers it). Such an answer is never HIGH on those words alone.
pub fn compose_narrative(
    question: &str,
    kind: PassageKind,
    passages: &[Passage<'_>],
    concepts_of: &dyn Fn(&str) -> Vec<BTreeSet<String>>,
    max_sentences: usize,
) -> Answer {
    compose(question, kind, passages, concepts_of, max_sentences, true)
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
    compose(
        question,
        PassageKind::Figure,
        passages,
        concepts_of,
        max_sentences,
        false,
    )
}

/// The share of the question's words a narrative answer's sentence must cover, with a cue
/// of its kind (a plain answer needs more than half).
const NARRATIVE_COVERAGE: f64 = 0.2;

/// Below the coverage an answer needs, a sentence that still covers this share of the
/// question's words bears on it: quoted as the nearest the filing comes rather than refused.
/// A third, so that two concepts of a six-concept question count ("How did COVID-19 hit
/// American Water's financials in 2020, and could it recover the costs through
/// regulation?" is answered by the sentence on recovering COVID-19 costs through a rider),
const NEAREST_COVERAGE: f64 = 0.33;
/// ... and at least this many of its concepts.
const NEAREST_CONCEPTS: f64 = 2.0;
/// How many such sentences are quoted.
const NEAREST_SENTENCES: usize = 2;
/// What such an answer opens with: the analyst reads it as evidence to weigh, not an answer.
pub const NEAREST_LEAD: &str =
    "The closest passages in the filing, which answer this only in part:";

fn compose(
    question: &str,
    kind: PassageKind,
    passages: &[Passage<'_>],
    concepts_of: &dyn Fn(&str) -> Vec<BTreeSet<String>>,
    max_sentences: usize,
    with_rows: bool,
) -> Answer {
    let wanted = Wanted::of(question, kind, concepts_of);
    let narrative = kind != PassageKind::Figure;
    let enough = if narrative { NARRATIVE_COVERAGE } else { 0.5 };
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut set_aside = 0;
    for (p, passage) in passages.iter().enumerate() {
        let (found, addressed) = wanted.candidates_in(p, passage, with_rows);
        candidates.extend(found);
        set_aside += addressed;
    }
    let chosen = choose(candidates, max_sentences);
    let parts = sub_questions(question);
    let answered_parts = parts
        .iter()
        .filter(|part| {
            let part_concepts = concepts_of(part);
            !part_concepts.is_empty()
                && chosen
                    .iter()
                    .any(|c| concept_coverage(&c.covered_text, &part_concepts) > enough)
        })
        .count();
    let best_coverage = chosen.iter().map(|c| c.coverage).fold(0.0, f64::max);
    // A narrative answer on few of the question's words stands only on sentences of its kind.
    let of_its_kind = chosen.iter().any(|c| c.cues > 0);
    let thin = best_coverage <= 0.5;
    let unanswered = Answer::unanswered(question);
    let mut answer = Answer {
        confidence: Confidence {
            score: (best_coverage * 0.4).min(0.3),
            unanswered: parts.len(),
            ..unanswered.confidence
        },
        reasoning: std::iter::once(read_note(passages))
            .chain((set_aside > 0).then(|| {
                format!(
                    "set aside {set_aside} sentence(s) written as instructions to a reader or a model: the filing is data, not instructions"
                )
            }))
            .collect(),
        nodes_visited: nodes_visited(passages),
        ..unanswered
    };
    // More than half of the question's words must stand in one sentence (for a narrative
    // question, fewer in a sentence of its kind).
    if answered_parts == 0 || best_coverage <= enough || (thin && !(narrative && of_its_kind)) {
        answer.reasoning.push(format!(
            "no sentence covers enough of the question (best covers {:.0}% of its words)",
            best_coverage * 100.0
        ));
        // Refuse only when nothing read bears on the question: sentences on a good part of
        // its words are quoted as the nearest the filing comes, at LOW.
        // A caption ("The following table presents …:") bears on nothing, and a question
        // asking a figure is not brought nearer by a sentence without one.
        let nearest: Vec<Candidate> = chosen
            .into_iter()
            .filter(|c| {
                // Two of the question's concepts at least: "the capital of Mongolia" is not
                // brought nearer by capital expenditures.
                let covered = c.coverage * wanted.concepts.len() as f64;
                c.coverage >= NEAREST_COVERAGE && covered >= NEAREST_CONCEPTS - 1e-9
            })
            .filter(|c| !c.text.trim_end().ends_with(':'))
            .filter(|c| !wanted.asks.figure || has_amount(&c.text))
            .take(NEAREST_SENTENCES)
            .collect();
        if !nearest.is_empty() {
            let (text, citations) = quote(&nearest, passages);
            let excerpts: Vec<&str> = citations.iter().map(|c| c.excerpt.as_str()).collect();
            answer.unsupported_numbers = unsupported_numbers(&text, &excerpts);
            answer.answer = format!("{NEAREST_LEAD} {text}");
            answer.answered = true;
            answer.citations = citations;
            answer.confidence.label = ConfidenceLabel::Low;
            answer.reasoning.push(format!(
                "quoted the {} sentence(s) nearest to the question, at LOW",
                answer.citations.len()
            ));
        }
        return answer;
    }
    let (text, citations) = quote(&chosen, passages);
    answer.confidence = confidence_of(
        &wanted.asks,
        &chosen,
        &citations,
        answered_parts,
        parts.len(),
        best_coverage,
    );
    if thin {
        answer.confidence.label = ConfidenceLabel::Low;
    } else if narrative && answer.confidence.label == ConfidenceLabel::High {
        // Cues make a sentence likelier, never certain: the filing's words answer a
        // narrative question at MEDIUM at most (measured: HIGH was wrong on where products
        // are made and when an acquisition closed).
        answer.confidence.label = ConfidenceLabel::Medium;
    }
    answer.reasoning.push(format!(
        "chose {} sentence(s) covering {:.0}% of the question's words; {answered_parts} of {} part(s) answered",
        citations.len(),
        best_coverage * 100.0,
        parts.len()
    ));
    let excerpts: Vec<&str> = citations.iter().map(|c| c.excerpt.as_str()).collect();
    answer.unsupported_numbers = unsupported_numbers(&text, &excerpts);
    answer.answer = text;
    answer.answered = true;
    answer.citations = citations;
    answer
}

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
    /// How many of the asked kind's sentence cues it holds ("primarily due to").
    cues: usize,
}

/// A sentence as read: its char range in the passage, its text, and its index among the
/// passage's sentences (the first of a pair read as one).
struct Read<'t> {
    start: usize,
    end: usize,
    text: Cow<'t, str>,
    index: usize,
}

/// What the question wants of the sentences quoted: its concepts (sets of interchangeable
/// stems), all their stems, and the kind of answer it asks for.
struct Wanted<'a> {
    concepts: Vec<BTreeSet<String>>,
    stems: BTreeSet<String>,
    asks: Asks,
    kind: PassageKind,
    concepts_of: &'a dyn Fn(&str) -> Vec<BTreeSet<String>>,
}

impl<'a> Wanted<'a> {
    fn of(
        question: &str,
        kind: PassageKind,
        concepts_of: &'a dyn Fn(&str) -> Vec<BTreeSet<String>>,
    ) -> Self {
        let concepts = concepts_of(question);
        Wanted {
            stems: concepts.iter().flatten().cloned().collect(),
            concepts,
            asks: Asks::of(question),
            kind,
            concepts_of,
        }
    }

    /// The scored sentences of passage `p`, and how many were set aside as written to a
    /// reader or a model (with the rest of their paragraph).
    fn candidates_in(
        &self,
        p: usize,
        passage: &Passage<'_>,
        with_rows: bool,
    ) -> (Vec<Candidate>, usize) {
        let spans = sentence_spans(passage.text);
        let addressed = addresses_a_model(passage.text);
        let mut set_aside = 0;
        let candidates = sentences_read(passage.text, &spans, self.asks.reason)
            .into_iter()
            .filter(|read| {
                let span = Span {
                    start_char: read.start,
                    end_char: read.end,
                };
                let instruction =
                    addressed && in_a_paragraph_addressed_to_a_model(passage.text, span);
                set_aside += usize::from(instruction);
                !instruction
            })
            .filter_map(|read| self.candidate(p, passage, &spans, read, with_rows))
            .collect();
        (candidates, set_aside)
    }

    /// A sentence scored, or `None` when it cannot answer: it matches none of the question's
    /// words, is too short, is a row when only prose is wanted, or only names periods.
    fn candidate(
        &self,
        p: usize,
        passage: &Passage<'_>,
        spans: &[(usize, usize, &str)],
        read: Read<'_>,
        with_rows: bool,
    ) -> Option<Candidate> {
        let sentence = read.text.as_ref();
        let matched = match_score(sentence, &self.stems);
        let is_row = is_table_row(sentence);
        // A heading row ("2023 | 2022 | 2023 | 2022") names the columns: it matches a
        // question's year and answers nothing.
        if matched == 0
            || sentence.chars().count() < 12
            || (!with_rows && is_row)
            || names_only_periods(sentence)
        {
            return None;
        }
        // A table row says little alone ("iPhone | $39,669 | $40,665"): its caption and
        // column headings say what the figures are, so they count towards coverage and
        // the headings are cited with the row.
        let table = is_row.then(|| table_context(spans, read.index)).flatten();
        let covered_text = match &table {
            Some(t) => format!("{} {sentence}", t.context),
            None => sentence.to_string(),
        };
        let coverage = concept_coverage(&covered_text, &self.concepts);
        let count = self
            .asks
            .count
            .then(|| count_asked(sentence, &self.stems, self.concepts_of))
            .flatten();
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
            && !is_row
            && !sentence.trim_end().ends_with(['.', '?', '!', ';'])
            && words(sentence).len() < 10;
        // A table row takes its caption's and headings' cues ("Adjusted EBITDAR" above a
        // reconciliation's row).
        let cues = match self.kind {
            PassageKind::Figure => 0,
            kind => cues_in(kind, &covered_text.to_lowercase()),
        };
        // A why-question's reasons already earn the reason bonus (`kind_bonus`): its cues
        // only let a sentence answer on fewer words, they do not count twice.
        let cue_bonus = match self.asks.reason {
            true => 0.0,
            false => 0.15 * cues.min(1) as f64,
        };
        let score =
            coverage + 0.5 * precision.min(1.0) + self.kind_bonus(sentence, count) + cue_bonus
                - if title_like { 0.5 } else { 0.0 }
                + 0.15 / (1.0 + passage.rank as f64)
                - if sentence.chars().count() > 600 {
                    0.2
                } else {
                    0.0
                };
        Some(Candidate {
            score,
            passage: p,
            start: read.start,
            end: read.end,
            text: sentence.to_string(),
            coverage,
            covered_text,
            headings: table.and_then(|t| t.headings),
            count,
            cues,
        })
    }

    /// What a sentence earns for giving the kind of answer asked: a name, a reason, a count,
    /// a figure (and loses for giving no figure when one is asked).
    fn kind_bonus(&self, sentence: &str, count: Option<f64>) -> f64 {
        let asks = &self.asks;
        let mut bonus = 0.0;
        if asks.name && names_someone(sentence) {
            bonus += 0.3;
        }
        if asks.reason && gives_a_reason(sentence) {
            bonus += 0.35;
        }
        if asks.count && count.is_some() {
            bonus += 0.4;
        }
        if asks.figure {
            // "How many …?" is not answered by a sentence without a figure.
            bonus += if has_amount(sentence) { 0.35 } else { -0.2 };
        }
        bonus
    }
}

/// The sentences of a passage as read. A why-question's answer is often a change and the
/// reason the next sentence gives for it: such pairs (in one paragraph) are read as one
/// sentence too.
fn sentences_read<'t>(
    text: &'t str,
    spans: &[(usize, usize, &'t str)],
    pairs: bool,
) -> Vec<Read<'t>> {
    let mut read: Vec<Read<'t>> = spans
        .iter()
        .enumerate()
        .map(|(index, &(start, end, sentence))| Read {
            start,
            end,
            text: Cow::Borrowed(sentence),
            index,
        })
        .collect();
    if !pairs {
        return read;
    }
    for (index, pair) in spans.windows(2).enumerate() {
        let ((start, end, first), (next_start, next_end, next)) = (pair[0], pair[1]);
        let same_paragraph = !text
            .chars()
            .skip(end)
            .take(next_start.saturating_sub(end))
            .any(|c| c == '\n');
        if same_paragraph && !is_table_row(first) && continues_the_change(next) {
            let joined: String = text.chars().skip(start).take(next_end - start).collect();
            read.push(Read {
                start,
                end: next_end,
                text: Cow::Owned(joined),
                index,
            });
        }
    }
    read
}

/// The sentences quoted, best first: at most `max_sentences`, no two overlapping, none
/// weaker than six tenths of the best. For a count, the largest count of the thing asked
/// is preferred: the whole is at least any part of it ("57,000 employees … were union
/// represented").
fn choose(mut candidates: Vec<Candidate>, max_sentences: usize) -> Vec<Candidate> {
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
    chosen
}

/// The answer's text and citations: each chosen sentence cited; a table row written out
/// cell by cell under its column headings, which are cited too (once per table).
fn quote(chosen: &[Candidate], passages: &[Passage<'_>]) -> (String, Vec<Citation>) {
    let mut citations: Vec<Citation> = Vec::new();
    let mut text = String::new();
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
    for c in chosen {
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
    (text, citations)
}

/// The confidence by the seed's rules: HIGH when every part is answered from three
/// sections or more with three quarters of the question's words covered, and the answer
/// gives what was asked for (an amount, a name); MEDIUM when most parts are answered.
fn confidence_of(
    asks: &Asks,
    chosen: &[Candidate],
    citations: &[Citation],
    answered_parts: usize,
    parts: usize,
    best_coverage: f64,
) -> Confidence {
    let source_nodes = citations
        .iter()
        .map(|c| (c.doc_id.clone(), c.node_id.clone()))
        .collect::<BTreeSet<_>>()
        .len();
    // An answer that does not give what was asked for (an amount, a name) is not HIGH,
    // however many sections it quotes.
    let gives_what_was_asked = (!asks.figure || chosen.iter().any(|c| has_amount(&c.text)))
        && (!asks.name || chosen.iter().any(|c| names_someone(&c.text)));
    let label = if answered_parts == parts
        && source_nodes >= 3
        && gives_what_was_asked
        && best_coverage >= 0.75
    {
        ConfidenceLabel::High
    } else if answered_parts * 2 > parts && source_nodes >= 1 {
        ConfidenceLabel::Medium
    } else {
        ConfidenceLabel::Low
    };
    let score = (answered_parts as f64 / parts as f64)
        * best_coverage.min(1.0)
        * match label {
            ConfidenceLabel::High => 1.0,
            ConfidenceLabel::Medium => 0.8,
            ConfidenceLabel::Low => 0.5,
        };
    Confidence {
        label,
        score,
        answered: answered_parts,
        unanswered: parts - answered_parts,
        source_nodes,
    }
}

/// "read 12 passage(s) from 5 section(s)".
fn read_note(passages: &[Passage<'_>]) -> String {
    format!(
        "read {} passage(s) from {} section(s)",
        passages.len(),
        passages
            .iter()
            .map(|p| (p.doc_id, p.node_id))
            .collect::<BTreeSet<_>>()
            .len()
    )
}

/// The sections read, `doc:node`, in the order first read.
fn nodes_visited(passages: &[Passage<'_>]) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for p in passages {
        let id = format!("{}:{}", p.doc_id, p.node_id);
        if !seen.contains(&id) {
            seen.push(id);
        }
    }
    seen
}
