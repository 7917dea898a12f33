//! Excerpts located as exact spans: the best sentences of a passage for a query.

use super::fusion::NodeScore;
use super::query::words;
use crate::model::Span;
use crate::summary::sentences;
use rust_stemmers::{Algorithm, Stemmer};
use serde::Serialize;
use std::collections::BTreeSet;

/// The excerpts a hit shows: the best sentence of each of its three strongest passages,
/// or, when no passage matched, the node's two best sentences; in document order. `map`
/// is the document text's (built once per document: it walks the whole text); `scorer`
/// holds the query's stems.
pub fn hit_excerpts(
    doc: &crate::model::DocumentIndex,
    map: &crate::charmap::CharMap,
    node: &crate::model::Node,
    detail: &NodeScore,
    scorer: &mut SentenceScorer,
) -> Vec<Excerpt> {
    let mut excerpts = Vec::new();
    for (chunk_index, _) in detail.chunks.iter().take(3) {
        if let Some(chunk) = doc.chunks.get(*chunk_index) {
            excerpts.extend(best_excerpts_scored(
                map.slice(chunk.span),
                chunk.span.start_char,
                scorer,
                1,
            ));
        }
    }
    if excerpts.is_empty() {
        excerpts = best_excerpts_scored(map.slice(node.span), node.span.start_char, scorer, 2);
    }
    excerpts.sort_by_key(|e| e.start_char);
    excerpts.dedup();
    excerpts
}

/// A passage of the document: `text` is exactly `document text[span]`.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Excerpt {
    pub start_char: usize,
    pub end_char: usize,
    pub text: String,
    /// It stands in a paragraph written as instructions to a reader or a model ("Ignore
    /// previous instructions…"): shown flagged, since the filing is data.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub addressed_to_a_model: bool,
}

impl Excerpt {
    pub fn span(&self) -> Span {
        Span {
            start_char: self.start_char,
            end_char: self.end_char,
        }
    }
}

/// Sentences (and table rows) of `text` with their char offsets from its start.
pub fn sentence_spans(text: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let base = text.as_ptr() as usize;
    for line in text.split('\n') {
        for sentence in sentences(line) {
            let start_byte = sentence.as_ptr() as usize - base;
            let end_byte = start_byte + sentence.len();
            out.push((start_byte, end_byte, sentence));
        }
    }
    let mut chars = Vec::with_capacity(out.len());
    let mut counted_bytes = 0;
    let mut counted_chars = 0;
    for (start, end, s) in out {
        counted_chars += text[counted_bytes..start].chars().count();
        let start_char = counted_chars;
        let end_char = start_char + s.chars().count();
        counted_chars = end_char;
        counted_bytes = end;
        chars.push((start_char, end_char, s));
    }
    chars
}

/// How many of `stems` a sentence contains, weighted by distinct matches.
pub fn match_score(sentence: &str, stems: &BTreeSet<String>) -> usize {
    let stemmer = Stemmer::create(Algorithm::English);
    let found: BTreeSet<String> = words(sentence)
        .into_iter()
        .map(|w| stemmer.stem(&w).to_string())
        .filter(|w| stems.contains(w))
        .collect();
    found.len()
}

/// [`match_score`] over many sentences: each distinct word is stemmed once, however many
/// texts it is used for. A section with no matching passage is scored whole, and a 10-K's
/// segment note is tens of thousands of words of which a few hundred are distinct;
/// stemming every one was a search's slowest step. One scorer serves every hit a thread
/// builds in a search (the filings of a library share most of their words).
pub struct SentenceScorer<'a> {
    stemmer: Stemmer,
    /// The query's stems, in order; a word is known by its position here.
    stems: Vec<&'a str>,
    /// Lowercased word: the position of the query stem it stems to, or `None`.
    seen: std::collections::HashMap<String, Option<usize>>,
    /// Which stems the sentence being scored holds (reused between sentences).
    found: Vec<bool>,
}

impl<'a> SentenceScorer<'a> {
    pub fn new(stems: &'a BTreeSet<String>) -> Self {
        SentenceScorer {
            stemmer: Stemmer::create(Algorithm::English),
            stems: stems.iter().map(String::as_str).collect(),
            seen: std::collections::HashMap::new(),
            found: vec![false; stems.len()],
        }
    }

    /// As [`match_score`]: how many distinct query stems the sentence holds. The words are
    /// [`words`]'s, taken without a string each: a word already lowercase (ASCII, no
    /// capitals) is looked up as it stands.
    pub fn score(&mut self, sentence: &str) -> usize {
        self.found.iter_mut().for_each(|f| *f = false);
        let separator = |c: char| !(c.is_alphanumeric() || c == '\'' || c == '-' || c == '.');
        for piece in sentence.split(separator) {
            let word = piece.trim_matches(|c: char| !c.is_alphanumeric());
            if word.is_empty() {
                continue;
            }
            let lowered = if word
                .bytes()
                .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
            {
                std::borrow::Cow::Owned(word.to_lowercase())
            } else {
                std::borrow::Cow::Borrowed(word)
            };
            let known = match self.seen.get(lowered.as_ref()) {
                Some(known) => *known,
                None => {
                    let stem = self.stemmer.stem(&lowered);
                    let known = self.stems.iter().position(|s| *s == stem.as_ref());
                    self.seen.insert(lowered.into_owned(), known);
                    known
                }
            };
            if let Some(at) = known {
                self.found[at] = true;
            }
        }
        self.found.iter().filter(|f| **f).count()
    }
}

/// The question's concepts (see [`super::query::Expansion::concepts`]) as positions among a
/// [`SentenceScorer`]'s stems: a text covers a concept when it holds any of its stems.
pub struct ConceptIndex {
    concepts: Vec<Vec<usize>>,
}

impl ConceptIndex {
    /// `stems` are the scorer's; a concept none of whose stems is among them is left out.
    pub fn new(stems: &BTreeSet<String>, concepts: &[BTreeSet<String>]) -> Self {
        let positions: Vec<&String> = stems.iter().collect();
        let concepts = concepts
            .iter()
            .map(|concept| {
                concept
                    .iter()
                    .filter_map(|stem| positions.iter().position(|s| *s == stem))
                    .collect::<Vec<usize>>()
            })
            .filter(|positions| !positions.is_empty())
            .collect();
        ConceptIndex { concepts }
    }

    /// The share of the concepts `text` covers, 0..1; 1 when the question has none.
    pub fn coverage(&self, scorer: &mut SentenceScorer, text: &str) -> f64 {
        if self.concepts.is_empty() {
            return 1.0;
        }
        scorer.score(text);
        let covered = self
            .concepts
            .iter()
            .filter(|concept| concept.iter().any(|&at| scorer.found[at]))
            .count();
        covered as f64 / self.concepts.len() as f64
    }
}

/// The best sentences of a passage for the query, at most `max`, in document order.
/// `passage_start` is the passage's char offset in the document.
pub fn best_excerpts(
    passage: &str,
    passage_start: usize,
    stems: &BTreeSet<String>,
    max: usize,
) -> Vec<Excerpt> {
    best_excerpts_scored(passage, passage_start, &mut SentenceScorer::new(stems), max)
}

/// [`best_excerpts`] with a scorer that remembers the words it has stemmed.
pub fn best_excerpts_scored(
    passage: &str,
    passage_start: usize,
    scorer: &mut SentenceScorer,
    max: usize,
) -> Vec<Excerpt> {
    let mut scored: Vec<(usize, usize, usize, &str)> = sentence_spans(passage)
        .into_iter()
        .map(|(s, e, text)| (scorer.score(text), s, e, text))
        .filter(|(score, ..)| *score > 0)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(max);
    scored.sort_by_key(|s| s.1);
    let addressed = !scored.is_empty() && crate::qa::instructions::addresses_a_model(passage);
    scored
        .into_iter()
        .map(|(_, s, e, text)| Excerpt {
            start_char: passage_start + s,
            end_char: passage_start + e,
            text: text.to_string(),
            addressed_to_a_model: addressed
                && crate::qa::instructions::in_a_paragraph_addressed_to_a_model(
                    passage,
                    Span {
                        start_char: s,
                        end_char: e,
                    },
                ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::*;

    #[test]
    fn excerpts_are_exact_spans_of_the_best_sentences() {
        let text = "Intro line.\nNet sales rose 2% to $391.0 billion. Costs were flat. Sales of iPhone grew.";
        let stems = expand("net sales", &[]).stems();
        let ex = best_excerpts(text, 100, &stems, 2);
        assert_eq!(ex.len(), 2);
        let chars: Vec<char> = text.chars().collect();
        for e in &ex {
            let s: String = chars[e.start_char - 100..e.end_char - 100].iter().collect();
            assert_eq!(s, e.text);
        }
        assert_eq!(ex[0].text, "Net sales rose 2% to $391.0 billion.");
    }

    #[test]
    fn a_passage_covers_the_concepts_whose_stems_or_equivalents_it_holds() {
        // Kraft Heinz's 2019 10-K, page 27, and a passage of its statements.
        let expansion = expand(
            "What businesses did Kraft Heinz sell in 2019, and what gains did it record?",
            &[],
        );
        let stems = expansion.stems();
        let concepts = ConceptIndex::new(&stems, &expansion.concepts());
        let mut scorer = SentenceScorer::new(&stems);
        let answer = "The $420 million net gain on sales of businesses in 2019 consisted of a \
            $249 million gain on the sale of Heinz India Private Limited";
        let statement = "Net cash used for investing activities 2019 2018 2017";
        let answering = concepts.coverage(&mut scorer, answer);
        let other = concepts.coverage(&mut scorer, statement);
        assert!(answering > 0.5 && answering <= 1.0, "{answering}");
        assert!(other < answering / 2.0, "{other} vs {answering}");
        // A question with no content words leaves every passage its whole score.
        let empty = expand("what is it?", &[]);
        let nothing = ConceptIndex::new(&empty.stems(), &empty.concepts());
        assert_eq!(nothing.coverage(&mut scorer, statement), 1.0);
    }

    #[test]
    fn the_remembering_scorer_scores_as_match_score() {
        let stems = expand("net sales growth of the segments", &[]).stems();
        let text = "Net sales grew; segment sales grew faster. Growth, growing, grows.\n\
                    The segments' net sales. Nothing here. Sales sales sales.\n\
                    NET SALES by SEGMENT. Segment-level growth. Ségment nét sälès, (growth).";
        let other = "Net sales of the Groups segments grew. GROWTH.";
        // One scorer for several texts, as a search's worker thread uses it.
        let mut scorer = SentenceScorer::new(&stems);
        for text in [text, other, text] {
            for (_, _, sentence) in sentence_spans(text) {
                assert_eq!(
                    scorer.score(sentence),
                    match_score(sentence, &stems),
                    "{sentence}"
                );
            }
        }
        assert_eq!(scorer.score("NET SALES by SEGMENT, growth"), 4);
    }
}
