//! The words a question is read with (`data/question-words.toml`, compiled in): instruction
//! markers, statement names, operations, scales, rounding and relative periods, checked on
//! load.

use super::{Operation, QuestionError, Scale};
use crate::finance::Statement;
use serde::Deserialize;
use std::sync::LazyLock;

#[derive(Debug, Clone, Deserialize)]
pub struct StatementNames {
    pub statement: Statement,
    pub names: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct OperationWords {
    pub operation: Operation,
    pub phrases: Vec<String>,
    pub needs_periods: usize,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ScaleWords {
    pub scale: Scale,
    pub phrases: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct RoundingWords {
    pub phrases: Vec<String>,
    pub decimals: u32,
}

/// The whole vocabulary.
#[derive(Debug, Clone, Deserialize)]
pub struct Vocabulary {
    pub version: u32,
    pub instruction_markers: Vec<String>,
    pub source_clause_openers: Vec<String>,
    /// Greetings and asides a question may open with ("hi", "quick one").
    pub greetings: Vec<String>,
    /// Labels of a sentence that only frames the question ("role", "source", "format").
    pub framing_labels: Vec<String>,
    /// Requests after a purpose ("For the equity note *I need* …"): the purpose before one
    /// is the asker's.
    pub purpose_requests: Vec<String>,
    /// Labels of the sentence that asks ("question", "q", "task"): left out, the rest kept.
    /// A short label that is neither ("Capex/sales: …") is part of what is asked.
    pub asking_labels: Vec<String>,
    #[serde(rename = "statement")]
    pub statements: Vec<StatementNames>,
    #[serde(rename = "operation")]
    pub operations: Vec<OperationWords>,
    #[serde(rename = "scale")]
    pub scales: Vec<ScaleWords>,
    pub percent_phrases: Vec<String>,
    #[serde(rename = "rounding")]
    pub roundings: Vec<RoundingWords>,
    pub latest_period_phrases: Vec<String>,
    pub prior_period_phrases: Vec<String>,
    pub definition_markers: Vec<String>,
    /// Openers of a sentence that defines the metric asked without naming it ("divide",
    /// "take", "use").
    pub unnamed_definition_openers: Vec<String>,
    /// Markers of a definition inside the sentence that asks ("…quick ratio, calculated as
    /// …?", "…margin (defined as …)"): the clause after one is the definition and leaves
    /// the question.
    pub inline_definition_markers: Vec<String>,
    /// Phrases where "average" names a line item, not a mean ("weighted-average shares").
    pub not_average_phrases: Vec<String>,
    /// How to sign the answer ("use a negative number if it fell"): an instruction, never
    /// a definition.
    pub sign_conventions: Vec<String>,
    /// Money words that make a growth a change in amount ("dollar growth").
    pub money_words: Vec<String>,
    /// Words that compare a named year with another ("versus", "compared with"): before a
    /// prior-period phrase, the year before the one named is the other.
    pub comparison_connectors: Vec<String>,
    /// "Year-over-year": a named year compared with the one before.
    pub year_over_year_phrases: Vec<String>,
    /// The words of a question sentence that asks only for the figure named before it
    /// ("What does the 10-K say?", "Can you confirm the figure?").
    pub bare_ask_words: Vec<String>,
    /// Words of a "which is higher" question that ask for the larger figure, and the smaller.
    pub higher_words: Vec<String>,
    pub lower_words: Vec<String>,
    /// Words that ask which company: with a direction word, the answer opens with a verdict.
    pub which_words: Vec<String>,
    /// Phrases that ask the mean of one year's opening and closing balances.
    /// "The two most recent fiscal years": the words that run a span up to the latest year,
    /// and those that name its years.
    pub recent_span_words: Vec<String>,
    pub span_year_words: Vec<String>,
    pub balance_average_phrases: Vec<String>,
    /// Phrases that name both of a year's balances, averaged only beside a word of
    /// averaging.
    pub both_ends_phrases: Vec<String>,
    /// Phrases that ask a metric on year-end balances rather than averages.
    pub year_end_basis_phrases: Vec<String>,
    /// Names of the filing itself ("form 10-k", "annual report"): where to look, never what
    /// is asked.
    pub document_names: Vec<String>,
    /// Phrases that ask for a count ("how many", "headcount").
    pub count_phrases: Vec<String>,
    /// Nouns of a source clause opening a question ("the details", "the 10-k").
    pub source_clause_nouns: Vec<String>,
    /// Abbreviations a full stop may end without ending the sentence ("inc", "u.s").
    pub abbreviations: Vec<String>,
    /// Words that lead into a definition's name ("here", "note that").
    pub definition_lead_words: Vec<String>,
    /// Words that only point at a source ("refer", "see", "consolidated").
    pub source_pointer_words: Vec<String>,
    /// Words a question opens with ("what", "how", "did").
    pub question_openers: Vec<String>,
    /// Imperatives that ask when the sentence names a period ("report", "compute").
    pub asking_imperatives: Vec<String>,
    /// Words of a question that point back at the sentence before it ("this", "the drivers").
    pub referring_words: Vec<String>,
    /// Words of a sentence stating a fact the question asks about ("fell", "acquired").
    pub premise_words: Vec<String>,
    /// Analysts' shorthand and what it stands for ("ttl" is "total", "liabs" "liabilities").
    pub shorthand: Vec<[String; 2]>,
    /// Shorthand read only inside a compound ("OCF-to-CL", "CA/CL"), where it cannot be a
    /// ticker or a word of its own.
    pub compound_shorthand: Vec<[String; 2]>,
    /// Shorthand read only as written, in capitals ("LTD" is long-term debt, "Ltd" a legal
    /// form).
    pub capitals_shorthand: Vec<[String; 2]>,
    /// Shorthand that is also a person's title ("CFO"), read as the figure when the question
    /// asks an amount of a period and nothing of a person.
    pub figure_or_person_shorthand: Vec<[String; 2]>,
    /// Words that ask about a person ("who is", "officer", "appointed").
    pub person_words: Vec<String>,
    /// The words of the unit an amount is asked in (`units.rs`).
    pub units: super::units::UnitWords,
}

/// The version of the vocabulary this code reads.
const VERSION: u32 = 1;

impl Vocabulary {
    /// Whether `lower` asks a year's opening and closing balances averaged: in words that
    /// say so ("half the sum", "two-point average"), or naming both ends beside a word of
    /// averaging ("the mean of the two balance-sheet dates").
    pub fn averages_balances(&self, lower: &str) -> bool {
        holds_any(lower, &self.balance_average_phrases)
            || (holds_any(lower, &self.both_ends_phrases)
                && self.operations.iter().any(|o| {
                    o.operation == super::Operation::Average && holds_any(lower, &o.phrases)
                }))
    }

    fn check(&self) -> Result<(), QuestionError> {
        if self.version != VERSION {
            return Err(QuestionError::BadVocabulary(format!(
                "version {} (this build reads {VERSION})",
                self.version
            )));
        }
        let lists: [(&str, Vec<&String>); 45] = [
            ("referring_words", self.referring_words.iter().collect()),
            ("units.currency", self.units.currency.iter().collect()),
            ("units.percent", self.units.percent.iter().collect()),
            ("units.filler", self.units.filler.iter().collect()),
            ("units.thousands", self.units.thousands.iter().collect()),
            ("units.millions", self.units.millions.iter().collect()),
            ("units.billions", self.units.billions.iter().collect()),
            ("premise_words", self.premise_words.iter().collect()),
            (
                "source_clause_nouns",
                self.source_clause_nouns.iter().collect(),
            ),
            ("abbreviations", self.abbreviations.iter().collect()),
            (
                "definition_lead_words",
                self.definition_lead_words.iter().collect(),
            ),
            (
                "source_pointer_words",
                self.source_pointer_words.iter().collect(),
            ),
            ("question_openers", self.question_openers.iter().collect()),
            (
                "asking_imperatives",
                self.asking_imperatives.iter().collect(),
            ),
            ("document_names", self.document_names.iter().collect()),
            ("count_phrases", self.count_phrases.iter().collect()),
            ("greetings", self.greetings.iter().collect()),
            ("framing_labels", self.framing_labels.iter().collect()),
            ("asking_labels", self.asking_labels.iter().collect()),
            (
                "instruction_markers",
                self.instruction_markers.iter().collect(),
            ),
            (
                "source_clause_openers",
                self.source_clause_openers.iter().collect(),
            ),
            (
                "statement names",
                self.statements.iter().flat_map(|s| &s.names).collect(),
            ),
            (
                "operation phrases",
                self.operations.iter().flat_map(|o| &o.phrases).collect(),
            ),
            (
                "scale phrases",
                self.scales.iter().flat_map(|s| &s.phrases).collect(),
            ),
            ("percent_phrases", self.percent_phrases.iter().collect()),
            (
                "rounding phrases",
                self.roundings.iter().flat_map(|r| &r.phrases).collect(),
            ),
            (
                "definition_markers",
                self.definition_markers.iter().collect(),
            ),
            (
                "inline_definition_markers",
                self.inline_definition_markers.iter().collect(),
            ),
            (
                "not_average_phrases",
                self.not_average_phrases.iter().collect(),
            ),
            ("sign_conventions", self.sign_conventions.iter().collect()),
            ("purpose_requests", self.purpose_requests.iter().collect()),
            ("money_words", self.money_words.iter().collect()),
            (
                "comparison_connectors",
                self.comparison_connectors.iter().collect(),
            ),
            (
                "year_over_year_phrases",
                self.year_over_year_phrases.iter().collect(),
            ),
            ("bare_ask_words", self.bare_ask_words.iter().collect()),
            (
                "balance_average_phrases",
                self.balance_average_phrases.iter().collect(),
            ),
            ("both_ends_phrases", self.both_ends_phrases.iter().collect()),
            ("recent_span_words", self.recent_span_words.iter().collect()),
            ("span_year_words", self.span_year_words.iter().collect()),
            (
                "year_end_basis_phrases",
                self.year_end_basis_phrases.iter().collect(),
            ),
            ("higher_words", self.higher_words.iter().collect()),
            ("lower_words", self.lower_words.iter().collect()),
            ("which_words", self.which_words.iter().collect()),
            (
                "shorthand",
                self.shorthand.iter().map(|[short, _]| short).collect(),
            ),
            (
                "compound_shorthand",
                self.compound_shorthand
                    .iter()
                    .map(|[short, _]| short)
                    .collect(),
            ),
        ];
        for (name, phrases) in lists {
            if phrases.is_empty() {
                return Err(QuestionError::BadVocabulary(format!("{name} is empty")));
            }
            if let Some(bad) = phrases
                .iter()
                .find(|p| p.trim().is_empty() || p.chars().any(char::is_uppercase))
            {
                return Err(QuestionError::BadVocabulary(format!(
                    "{name}: {bad:?} must be non-empty lower case"
                )));
            }
        }
        Ok(())
    }
}

static VOCABULARY: LazyLock<Result<Vocabulary, QuestionError>> = LazyLock::new(|| {
    let vocabulary: Vocabulary = toml::from_str(include_str!("../../data/question-words.toml"))
        .map_err(|e| QuestionError::BadVocabulary(e.to_string()))?;
    vocabulary.check()?;
    Ok(vocabulary)
});

/// The built-in vocabulary.
pub fn vocabulary() -> Result<&'static Vocabulary, QuestionError> {
    VOCABULARY.as_ref().map_err(Clone::clone)
}

/// Where `phrase` occurs in `text` (both lower case) as whole words: its byte offset.
pub fn find_phrase(text: &str, phrase: &str) -> Option<usize> {
    let word_char = |c: char| c.is_alphanumeric();
    let mut from = 0;
    while let Some(at) = text[from..].find(phrase).map(|i| i + from) {
        let end = at + phrase.len();
        let starts_clean = !phrase.starts_with(word_char)
            || text[..at].chars().next_back().is_none_or(|c| !word_char(c));
        let ends_clean = !phrase.ends_with(word_char)
            || text[end..].chars().next().is_none_or(|c| !word_char(c));
        if starts_clean && ends_clean {
            return Some(at);
        }
        from = at + phrase.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// Whether `text` holds any of `phrases` starting at a word's start ("base your judgment"
/// is in "base your judgments").
pub fn holds_any_prefix(text: &str, phrases: &[String]) -> bool {
    phrases.iter().any(|p| {
        text.match_indices(p.as_str()).any(|(at, _)| {
            !p.starts_with(char::is_alphanumeric)
                || text[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_alphanumeric())
        })
    })
}

/// Whether `text` holds any of `phrases` as whole words.
pub fn holds_any(text: &str, phrases: &[String]) -> bool {
    phrases.iter().any(|p| find_phrase(text, p).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vocabulary_loads_and_is_checked() {
        let v = vocabulary().unwrap();
        assert_eq!(v.version, VERSION);
        assert!(v
            .statements
            .iter()
            .any(|s| s.statement == Statement::CashFlows));
        let mut bad = v.clone();
        bad.percent_phrases.push("In Percent".into());
        assert!(bad.check().is_err());
        let mut bad = v.clone();
        bad.version = 99;
        assert!(bad.check().is_err());
    }

    #[test]
    fn phrases_match_whole_words_only() {
        assert_eq!(find_phrase("what grew most", "grew"), Some(5));
        assert_eq!(find_phrase("the growth of", "grow"), None);
        assert_eq!(find_phrase("(in %) change", "(in %)"), Some(0));
        assert_eq!(find_phrase("margin %", "%"), Some(7));
    }
}
