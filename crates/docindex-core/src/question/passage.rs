//! The narrative reading of a question: what kind of passage answers it when the answer is
//! the filing's words (an explanation of a change, a description of the business, an event,
//! a vote, an outlook, a non-GAAP figure) or a judgment over a metric, where filings put that
//! passage, and the words of a sentence that gives it. Vocabulary in `data/narrative.toml`.

use super::vocabulary::find_phrase;
use super::QuestionError;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// The kind of passage that answers a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PassageKind {
    /// A figure of the statements, or nothing narrative was read.
    #[default]
    Figure,
    /// Why a figure moved: the results discussion's "primarily due to".
    Explanation,
    /// What the company does and where: Item 1, the segment note.
    Business,
    /// An acquisition, restructuring, financing, litigation or subsequent event.
    Event,
    /// A matter voted or decided (8-K Item 5.07, a proxy's proposals).
    Vote,
    /// Guidance or management's expectations.
    Outlook,
    /// A non-GAAP or other figure stated in prose or a reconciliation.
    NonGaap,
    /// A judgment over a metric: a verdict, then its figures.
    Judgment,
}

impl PassageKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PassageKind::Figure => "figure",
            PassageKind::Explanation => "explanation",
            PassageKind::Business => "business",
            PassageKind::Event => "event",
            PassageKind::Vote => "vote",
            PassageKind::Outlook => "outlook",
            PassageKind::NonGaap => "non_gaap",
            PassageKind::Judgment => "judgment",
        }
    }

    /// Whether the filing's words, not a statement's figure, answer it.
    pub fn is_narrative(self) -> bool {
        !matches!(self, PassageKind::Figure | PassageKind::Judgment)
    }
}

/// What a judgment question judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JudgmentKind {
    /// Capex as a share of revenue and net PP&E as a share of total assets.
    CapitalIntensity,
    /// Whether a metric stayed within a band over the years.
    Consistency,
    /// Whether a metric is improving or declining over the years.
    Trend,
    /// Current and quick ratios.
    Liquidity,
    /// Debt against equity.
    Leverage,
    /// Only whether a metric suits the company ("is gross margin a sensible metric for a
    /// bank?").
    Fit,
}

/// A question's judgment: what is judged, the band a consistency question names (in
/// percentage points), and whether it asks if the metric suits the company at all.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Judgment {
    pub kind: JudgmentKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band_points: Option<f64>,
    #[serde(default)]
    pub asks_fit: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindWords {
    pub id: PassageKind,
    pub question_phrases: Vec<String>,
    pub section_titles: Vec<String>,
    pub sentence_cues: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgmentWords {
    pub id: JudgmentKind,
    pub phrases: Vec<String>,
}

/// The narrative vocabulary, checked on load.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NarrativeWords {
    pub version: u32,
    #[serde(rename = "kind")]
    pub kinds: Vec<KindWords>,
    /// Openers of a yes/no question ("is ", "does ").
    pub yes_no_openers: Vec<String>,
    /// Other openers of a judgment ("how healthy", "what is the trend").
    pub judgment_openers: Vec<String>,
    /// Phrases that ask for a judgment however the question opens ("trending").
    pub standalone_judgment_phrases: Vec<String>,
    /// A judgment's phrases that name a figure ("quick ratio"): a question holding no other
    /// phrase of its topic asks for the figure unless it opens as a judgment.
    pub figure_phrases: Vec<String>,
    /// Words that ask a verdict of a figure however the question opens ("healthy?",
    /// "conservative or stretched?").
    pub verdict_words: Vec<String>,
    /// Phrases of a yes/no question that asks the negative sense ("deteriorating").
    pub negative_senses: Vec<String>,
    #[serde(rename = "judgment")]
    pub judgments: Vec<JudgmentWords>,
    pub fit_phrases: Vec<String>,
    pub bank_markers: Vec<String>,
    /// Phrases of a business question that asks for a description of the company.
    pub description_phrases: Vec<String>,
    /// Titles of the sections that describe the business, without an item label.
    pub business_sections: Vec<String>,
}

const VERSION: u32 = 1;

impl NarrativeWords {
    fn check(self) -> Result<Self, QuestionError> {
        if self.version != VERSION {
            return Err(QuestionError::BadVocabulary(format!(
                "narrative words version {} (this build reads {VERSION})",
                self.version
            )));
        }
        let all = self
            .kinds
            .iter()
            .flat_map(|k| k.question_phrases.iter().chain(&k.sentence_cues))
            .chain(self.judgments.iter().flat_map(|j| &j.phrases))
            .chain(&self.standalone_judgment_phrases)
            .chain(&self.figure_phrases)
            .chain(&self.verdict_words)
            .chain(&self.negative_senses)
            .chain(&self.fit_phrases)
            .chain(&self.bank_markers)
            .chain(&self.description_phrases)
            .chain(&self.business_sections);
        for phrase in all {
            if phrase.trim().is_empty() || *phrase != phrase.to_lowercase() {
                return Err(QuestionError::BadVocabulary(format!(
                    "narrative phrase {phrase:?} must be non-empty lower case"
                )));
            }
        }
        if self.kinds.iter().any(|k| k.id == PassageKind::Figure) {
            return Err(QuestionError::BadVocabulary(
                "the figure kind is what no narrative phrase reads; it has no words".to_string(),
            ));
        }
        Ok(self)
    }

    /// The words of `kind`, when it has any.
    pub fn of(&self, kind: PassageKind) -> Option<&KindWords> {
        self.kinds.iter().find(|k| k.id == kind)
    }
}

static NARRATIVE: LazyLock<Result<NarrativeWords, QuestionError>> = LazyLock::new(|| {
    toml::from_str::<NarrativeWords>(include_str!("../../data/narrative.toml"))
        .map_err(|e| QuestionError::BadVocabulary(format!("narrative.toml: {e}")))
        .and_then(NarrativeWords::check)
});

/// The narrative vocabulary.
pub fn narrative_words() -> Result<&'static NarrativeWords, QuestionError> {
    NARRATIVE.as_ref().map_err(Clone::clone)
}

/// Whether `text` (lower case) holds `phrase` as whole words; a phrase ending in a letter
/// that is no whole word ("acquisit", "deteriorat") also matches at a word's start.
pub fn holds_phrase(text: &str, phrase: &str) -> bool {
    if find_phrase(text, phrase).is_some() {
        return true;
    }
    // Stems: the phrase begins a longer word ("acquisit"), or ends in a plural
    // ("business combinations").
    text.match_indices(phrase).any(|(at, _)| {
        let starts_clean = text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let rest = &text[at + phrase.len()..];
        let plural = ["s", "es"].iter().any(|suffix| {
            rest.strip_prefix(suffix)
                .is_some_and(|after| after.chars().next().is_none_or(|c| !c.is_alphanumeric()))
        });
        let stem = phrase.len() >= 5
            && !phrase.contains(' ')
            && rest.chars().next().is_some_and(char::is_alphabetic);
        starts_clean && (plural || stem)
    })
}

fn holds(text: &str, phrases: &[String]) -> bool {
    phrases.iter().any(|p| holds_phrase(text, p))
}

/// The judgment `content` asks for, if any: a yes/no question or a judgment's own phrase,
/// naming a topic of the judgments.
pub fn judgment_of(content: &str) -> Result<Option<Judgment>, QuestionError> {
    let words = narrative_words()?;
    let lower = content.trim_start().to_lowercase();
    let opens = words
        .yes_no_openers
        .iter()
        .chain(&words.judgment_openers)
        .any(|o| lower.starts_with(o.as_str()) || lower.contains(&format!(". {o}")));
    let judged = words.judgments.iter().find(|j| holds(&lower, &j.phrases));
    // "What was the quick ratio?" asks the figure; "Is the quick ratio healthy?" a verdict.
    // "short-term liquidity ratio" names a ratio too: the judged word qualifies a quotient.
    let qualifies_a_quotient = |phrase: &str| {
        let quotients = &crate::lexicon::lexicon().concepts.quotients;
        lower.match_indices(phrase).all(|(at, _)| {
            // The rest of the word the phrase begins ("liquid|ity"), then the next word.
            lower[at + phrase.len()..]
                .trim_start_matches(char::is_alphanumeric)
                .split_whitespace()
                .next()
                .is_some_and(|next| {
                    quotients.contains(next.trim_matches(|c: char| !c.is_alphanumeric()))
                })
        })
    };
    let names_only_a_figure = judged.is_some_and(|j| {
        j.phrases
            .iter()
            .filter(|p| holds_phrase(&lower, p))
            .all(|p| words.figure_phrases.contains(p) || qualifies_a_quotient(p))
    });
    let kind = judged.map(|j| j.id);
    let asks_fit = holds(&lower, &words.fit_phrases);
    let kind = match kind {
        Some(kind) => kind,
        None if asks_fit && opens => JudgmentKind::Fit,
        None => return Ok(None),
    };
    // A trend or consistency phrase alone ("increasing", "stable") is a judgment only in a
    // yes/no question or with a standalone judgment phrase ("trending").
    let asks_verdict = holds(&lower, &words.verdict_words);
    let needs_opener = matches!(kind, JudgmentKind::Trend | JudgmentKind::Consistency)
        || (names_only_a_figure && !asks_verdict);
    let strong = holds(&lower, &words.standalone_judgment_phrases);
    if needs_opener && !opens && !strong {
        return Ok(None);
    }
    Ok(Some(Judgment {
        kind,
        band_points: band_in(&lower),
        asks_fit,
    }))
}

/// The band a consistency question names: "within 2%" or "within 2 percentage points".
fn band_in(lower: &str) -> Option<f64> {
    let at = lower.find("within ")? + "within ".len();
    let number: String = lower[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    number.parse().ok()
}

/// Whether `content` is a yes/no question, and if so whether it asks the positive sense
/// ("is it improving?") rather than the negative one ("is it deteriorating?").
pub fn asked_sense(content: &str) -> Option<bool> {
    let words = narrative_words().ok()?;
    let lower = content.trim_start().to_lowercase();
    let yes_no = words
        .yes_no_openers
        .iter()
        .any(|o| lower.starts_with(o.as_str()));
    yes_no.then(|| !holds(&lower, &words.negative_senses))
}

/// Whether a business question asks for a description of the company ("What does Nike
/// do?", "Describe MGM's business").
pub fn asks_a_description(content: &str) -> bool {
    narrative_words().is_ok_and(|w| holds(&content.to_lowercase(), &w.description_phrases))
}

/// The kind of passage that answers `content` (a question without its instructions).
/// `asks_figure` says whether it asks for a statement's figure: such a question is a
/// figure's unless a narrative kind other than the business's claims it ("What drove
/// revenue?" is an explanation; "What was services revenue?" is a figure).
pub fn passage_kind_of(content: &str, asks_figure: bool) -> Result<PassageKind, QuestionError> {
    if judgment_of(content)?.is_some() {
        return Ok(PassageKind::Judgment);
    }
    let words = narrative_words()?;
    let lower = content.to_lowercase();
    let description = holds(&lower, &words.description_phrases);
    for kind in &words.kinds {
        let business = kind.id == PassageKind::Business;
        // "Describe the business and its sales channels" asks no figure, whatever it names.
        if business && description {
            return Ok(kind.id);
        }
        if asks_figure && business {
            continue;
        }
        if holds(&lower, &kind.question_phrases) {
            return Ok(kind.id);
        }
    }
    Ok(PassageKind::Figure)
}

/// How much a section weighs for a question of `kind`, from its title and its ancestors'
/// (any order): [`KIND_WEIGHT`] when one names where that kind of passage stands, else 1.
pub fn section_prior<'a>(kind: PassageKind, titles: impl IntoIterator<Item = &'a str>) -> f64 {
    let Ok(words) = narrative_words() else {
        return 1.0;
    };
    let Some(of_kind) = words.of(kind) else {
        return 1.0;
    };
    for title in titles {
        let lower = title.to_lowercase();
        if holds(&lower, &of_kind.section_titles) {
            return KIND_WEIGHT;
        }
    }
    1.0
}

/// How much more a section named for the asked kind of passage weighs (the same as the
/// results discussion's weight for a why-question, measured there).
pub const KIND_WEIGHT: f64 = 1.6;

/// How many of `kind`'s sentence cues `sentence` (lower case) holds.
pub fn cues_in(kind: PassageKind, sentence: &str) -> usize {
    let Ok(words) = narrative_words() else {
        return 0;
    };
    words.of(kind).map_or(0, |k| {
        k.sentence_cues
            .iter()
            .filter(|c| holds_phrase(sentence, c))
            .count()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(q: &str) -> PassageKind {
        passage_kind_of(q, false).unwrap()
    }

    #[test]
    fn the_narrative_words_load() {
        let words = narrative_words().unwrap();
        assert!(words.kinds.len() >= 6);
    }

    #[test]
    fn kinds_are_read_from_how_a_question_asks() {
        assert_eq!(
            kind("What drove the increase in cost of revenues?"),
            PassageKind::Explanation
        );
        assert_eq!(
            kind("Which reportable segments does Nike have?"),
            PassageKind::Business
        );
        assert_eq!(
            kind("Did Amcor complete any acquisitions in the period?"),
            PassageKind::Event
        );
        assert_eq!(
            kind("How many votes were cast for the say-on-pay proposal?"),
            PassageKind::Vote
        );
        assert_eq!(
            kind("What revenue guidance did management give for next quarter?"),
            PassageKind::Outlook
        );
        assert_eq!(
            kind("What was adjusted EBITDA for the quarter?"),
            PassageKind::NonGaap
        );
        assert_eq!(
            passage_kind_of("What was services revenue in 2024?", true).unwrap(),
            PassageKind::Figure
        );
        for q in [
            "What kind of company is Medicis?",
            "Describe Nike's business and sales channels in a sentence or two.",
            "What does Apple do?",
            "Give me a quick description of MGM Resorts' business.",
        ] {
            assert_eq!(
                passage_kind_of(q, true).unwrap(),
                PassageKind::Business,
                "{q}"
            );
            assert!(asks_a_description(q), "{q}");
        }
        assert!(!asks_a_description(
            "What does Walmart's Form 10-K show for diluted EPS?"
        ));
        assert_eq!(
            kind("Describe the acquisition of Activision Blizzard."),
            PassageKind::Event
        );
    }

    #[test]
    fn a_judged_word_that_qualifies_a_quotient_names_a_figure() {
        // "short-term liquidity ratio (current assets to current liabilities)" asks a ratio.
        assert_eq!(
            judgment_of("as fiscal 2023 years ended, short-term liquidity ratio (current assets to current liabilities)?")
                .unwrap(),
            None
        );
        // "How liquid …" still asks a verdict.
        assert!(
            judgment_of("How liquid was Boeing at the end of fiscal 2023?")
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn judgments_need_a_topic_and_a_verdict_asked() {
        let j = judgment_of("Is 3M a capital-intensive business based on FY2022 data?")
            .unwrap()
            .unwrap();
        assert_eq!(j.kind, JudgmentKind::CapitalIntensity);
        let j = judgment_of("Are Nike's gross margins improving?")
            .unwrap()
            .unwrap();
        assert_eq!(j.kind, JudgmentKind::Trend);
        let j = judgment_of(
            "Has Microsoft's operating margin been consistent within 2% over the three years?",
        )
        .unwrap()
        .unwrap();
        assert_eq!(j.kind, JudgmentKind::Consistency);
        assert_eq!(j.band_points, Some(2.0));
        let j = judgment_of("Does AMD have a reasonably healthy liquidity profile based on its quick ratio? If the quick ratio is not relevant, say so.")
            .unwrap()
            .unwrap();
        assert_eq!(j.kind, JudgmentKind::Liquidity);
        assert!(j.asks_fit);
        let j = judgment_of("Is gross margin a sensible profitability metric for JPMorgan?")
            .unwrap()
            .unwrap();
        assert_eq!(j.kind, JudgmentKind::Fit);
        assert_eq!(
            judgment_of("What was revenue in fiscal 2023?").unwrap(),
            None
        );
        // A metric's name asks its figure; an opener or the topic's own word asks a verdict.
        assert_eq!(
            judgment_of("What was Apple's FY2024 quick ratio, calculated as current assets minus inventories, divided by current liabilities?").unwrap(),
            None
        );
        assert_eq!(
            judgment_of("Calculate Nike's debt-to-equity ratio for fiscal 2023.").unwrap(),
            None
        );
        let j = judgment_of("Is Apple's current ratio healthy?")
            .unwrap()
            .unwrap();
        assert_eq!(j.kind, JudgmentKind::Liquidity);
        let j = judgment_of("What does the current ratio say about Apple's liquidity?")
            .unwrap()
            .unwrap();
        assert_eq!(j.kind, JudgmentKind::Liquidity);
        assert_eq!(
            judgment_of("What was the increasing amount of deferred revenue?").unwrap(),
            None
        );
    }

    #[test]
    fn phrases_match_whole_words_stems_and_plurals() {
        assert!(holds_phrase(
            "note 3 — business combinations",
            "business combination"
        ));
        assert!(holds_phrase("the acquisitions we made", "acquisit"));
        assert!(!holds_phrase("the acquirer", "acquisit"));
        assert!(!holds_phrase("services revenue", "vice"));
        assert!(holds_phrase("what drove it?", "drove"));
    }

    #[test]
    fn a_section_named_for_the_kind_weighs_more() {
        assert_eq!(
            section_prior(
                PassageKind::Vote,
                ["Item 5.07 Submission of Matters to a Vote of Security Holders"]
            ),
            KIND_WEIGHT
        );
        assert_eq!(
            section_prior(PassageKind::Event, ["Note 3 — Business Combinations"]),
            KIND_WEIGHT
        );
        assert_eq!(
            section_prior(PassageKind::Event, ["Item 1A. Risk Factors"]),
            1.0
        );
        assert_eq!(
            section_prior(PassageKind::Figure, ["Item 1. Business"]),
            1.0
        );
    }
}
