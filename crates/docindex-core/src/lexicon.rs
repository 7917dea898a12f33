//! The word lists search, company resolution, parts, named rows, tables and answers read
//! text with (`data/lexicon.toml`, compiled in), versioned and checked on load: one home
//! for vocabulary, so that a word is added where it is explained, not in Rust source.

use serde::Deserialize;
use std::sync::LazyLock;

/// The version of `data/lexicon.toml` this code reads.
const VERSION: u32 = 1;

/// The lexicon does not load or fails its checks: a bug in the build, not the user's input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("data/lexicon.toml: {0}")]
pub struct LexiconError(String);

impl LexiconError {
    pub fn fault(&self) -> crate::Fault {
        crate::Fault::Bug
    }
}

/// A list of lower-case words or phrases.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(transparent)]
pub struct WordList(Vec<String>);

impl WordList {
    /// Whether `word` is in the list, exactly.
    pub fn contains(&self, word: impl AsRef<str>) -> bool {
        let word = word.as_ref();
        self.0.iter().any(|w| w == word)
    }

    /// Whether `text` holds any entry as a substring.
    pub fn any_in(&self, text: &str) -> bool {
        self.0.iter().any(|w| text.contains(w.as_str()))
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }

    pub fn as_slice(&self) -> &[String] {
        &self.0
    }

    fn check(&self, name: &str) -> Result<(), LexiconError> {
        if self.0.is_empty() {
            return Err(LexiconError(format!("{name} is empty")));
        }
        for (i, word) in self.0.iter().enumerate() {
            if word.trim().is_empty() || word.trim() != word || word.chars().any(char::is_uppercase)
            {
                return Err(LexiconError(format!(
                    "{name}: {word:?} must be non-empty, trimmed and lower case"
                )));
            }
            if self.0[..i].contains(word) {
                return Err(LexiconError(format!("{name}: {word:?} is listed twice")));
            }
        }
        Ok(())
    }
}

/// Words search reads a query with.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchWords {
    pub stopwords: WordList,
    pub explanation_words: WordList,
    pub movement_words: WordList,
    pub where_based: WordList,
    pub equivalents: Vec<WordList>,
    pub change_directions: Vec<WordList>,
}

/// Words company resolution reads a question with.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompanyWords {
    pub legal_suffixes: WordList,
    pub legal_forms: WordList,
    pub generic_first_words: WordList,
    pub not_companies: WordList,
    pub comparison_words: WordList,
    pub name_prepositions: WordList,
}

/// Words that tell a part of the company (a product, a segment) from the rest.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartWords {
    pub joiners: WordList,
    pub qualifiers: WordList,
    pub not_parts: WordList,
    pub function_words: WordList,
    pub share_phrases: WordList,
    /// Kinds of part a question asks to pick among ("which *segment* grew most").
    pub part_kinds: WordList,
}

/// Words around a row the question names in the filing's own words.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedRowWords {
    pub question_words: WordList,
    pub edge_words: WordList,
    pub generic_words: WordList,
    pub qualifiers: WordList,
}

/// Words that tell what kind of figure a concept or a question asks for.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConceptWords {
    pub comparison_shorthand: WordList,
    pub modifiers: WordList,
    /// Names of a balance's carrying value ("book value"): after another balance's name they
    /// qualify it.
    pub carrying_value_names: WordList,
    /// Words before a balance that name its purchase ("cash spent on PP&E"): the cash flow
    /// that buys it (`bought_by` in the concept table).
    pub purchase_phrases: WordList,
    /// Words after a balance that name its purchase ("PP&E *acquired for cash*").
    pub purchased_phrases: WordList,
    /// Words a row's label brackets for the contrary sign ("(Benefit from) provision"): on
    /// such a row brackets mean the contrary, not an outflow printed as a deduction.
    pub contrary_sign_words: WordList,
    /// Verbs between a modifier and the figure it qualifies ("cash *spent on* dividends").
    pub modifier_links: WordList,
    /// Prepositions that close a link of one or two words of any kind between cash and
    /// the figure it pays for ("cash *put into* buybacks", "cash *outlay for* new PP&E").
    pub link_prepositions: WordList,
    /// Words that keep cash a figure of its own before such a preposition ("cash *flow*
    /// for", "cash *and* equivalents on").
    pub not_link_words: WordList,
    /// Words that average a balance ("ROE on *mean* equity").
    pub averaging_words: WordList,
    /// Words that name the balance opening the year ("opening net PP&E", "beginning-of-year
    /// equity"): the prior year-end's.
    pub opening_balance_words: WordList,
    pub quotients: WordList,
    pub money: WordList,
    pub percent_names: WordList,
    /// Words naming an operation that a metric also answers to alone ("growth"): the
    /// metric is asked only when no other figure is.
    pub operation_names: WordList,
    /// A parenthesis that says only where a figure sits or that it is the printed line
    /// ("(balance-sheet total)", "(as reported)"): it qualifies the figure before it.
    pub statement_glosses: WordList,
    /// Where a figure sits ("shown under non-current liabilities"): the figure named after
    /// one is a place, not a second figure asked.
    pub placements: WordList,
    /// Words after an income or cash flow figure that ask it as a share of revenue ("R&D
    /// *ratio*", "capex *intensity*"), and words that may stand between ("SG&A *spending*
    /// ratio").
    pub share_of_revenue_words: WordList,
    pub share_of_revenue_between: WordList,
    /// Words analysts use for a word of a metric's name ("inventory *rotation*" is inventory
    /// turnover): each pair is the word and the one the concept table uses.
    pub metric_word_synonyms: Vec<[String; 2]>,
}

/// Words that tell what an answer must give.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerWords {
    pub figure_phrases: WordList,
    pub figure_questions: WordList,
    pub printed_figure_openers: WordList,
    pub judgement_openers: WordList,
    pub figure_kinds: WordList,
    pub not_amount_labels: WordList,
    pub comparatives: WordList,
    pub quarterly_phrases: WordList,
    /// Words of a movement between periods ("change", "grew"): a question holding one that
    /// is answered with one period's figure was not read whole.
    pub change_words: WordList,
    /// Row labels that leave the current portion out ("Debt and finance leases, net of
    /// current portion"), and the words by which a question asks for that non-current part
    /// alone: such a row answers "how much debt?" only in part, never firmly.
    pub noncurrent_labels: WordList,
    pub noncurrent_words: WordList,
}

/// Words of tables' labels and headings.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableWords {
    pub period_heading_words: WordList,
    pub minority_phrases: WordList,
    pub variant_labels: WordList,
}

/// Words that name a metric by its shape: "operating cash flow cover of current
/// liabilities" is one figure over another, "operating profit percentage" a profit over
/// revenue (`finance/shape.rs`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShapeWords {
    pub percent_of: WordList,
    pub ratio_of: WordList,
    pub of_revenue_suffixes: WordList,
    pub margin_bases: WordList,
    /// "How much of each revenue dollar went on R&D": the words before the base figure
    /// and the verbs before the figure spent.
    pub each_dollar: WordList,
    pub spent_on: WordList,
    /// Words after a figure's name that only say it is one ("SG&A spend", "R&D outlays").
    pub figure_words: WordList,
    /// Words before a balance that say it is the year's average ("averaged total assets")
    /// or its year-end figure ("year-end current liabilities").
    pub averaged_balance: WordList,
    pub year_end_balance: WordList,
    /// "Days of revenue tied up in receivables": the words before the flow, and those
    /// between it and the balance that holds so many days of it.
    pub days_of: WordList,
    pub held_in: WordList,
    /// Words that say a quotient is asked, whatever relates its two figures
    /// ("current-liability cover from operating cash (x)"): two figures named with one of
    /// these are the table's quotient of them.
    pub quotient_words: WordList,
}

/// The whole lexicon.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lexicon {
    pub version: u32,
    pub search: SearchWords,
    pub companies: CompanyWords,
    pub parts: PartWords,
    pub named: NamedRowWords,
    pub concepts: ConceptWords,
    pub answers: AnswerWords,
    pub tables: TableWords,
    pub shapes: ShapeWords,
}

impl Lexicon {
    fn check(&self) -> Result<(), LexiconError> {
        if self.version != VERSION {
            return Err(LexiconError(format!(
                "version {} (this build reads {VERSION})",
                self.version
            )));
        }
        let s = &self.search;
        let c = &self.companies;
        let p = &self.parts;
        let n = &self.named;
        let k = &self.concepts;
        let a = &self.answers;
        let t = &self.tables;
        let h = &self.shapes;
        let lists: [(&str, &WordList); 61] = [
            ("search.stopwords", &s.stopwords),
            ("search.explanation_words", &s.explanation_words),
            ("search.movement_words", &s.movement_words),
            ("search.where_based", &s.where_based),
            ("companies.legal_suffixes", &c.legal_suffixes),
            ("companies.legal_forms", &c.legal_forms),
            ("companies.generic_first_words", &c.generic_first_words),
            ("companies.not_companies", &c.not_companies),
            ("companies.comparison_words", &c.comparison_words),
            ("companies.name_prepositions", &c.name_prepositions),
            ("parts.joiners", &p.joiners),
            ("parts.qualifiers", &p.qualifiers),
            ("parts.not_parts", &p.not_parts),
            ("parts.function_words", &p.function_words),
            ("parts.share_phrases", &p.share_phrases),
            ("parts.part_kinds", &p.part_kinds),
            ("named.question_words", &n.question_words),
            ("named.edge_words", &n.edge_words),
            ("named.generic_words", &n.generic_words),
            ("named.qualifiers", &n.qualifiers),
            ("concepts.comparison_shorthand", &k.comparison_shorthand),
            ("concepts.modifiers", &k.modifiers),
            ("concepts.quotients", &k.quotients),
            ("concepts.operation_names", &k.operation_names),
            ("concepts.modifier_links", &k.modifier_links),
            ("concepts.link_prepositions", &k.link_prepositions),
            ("concepts.not_link_words", &k.not_link_words),
            ("concepts.averaging_words", &k.averaging_words),
            ("concepts.opening_balance_words", &k.opening_balance_words),
            ("concepts.placements", &k.placements),
            ("concepts.statement_glosses", &k.statement_glosses),
            ("concepts.contrary_sign_words", &k.contrary_sign_words),
            ("concepts.purchased_phrases", &k.purchased_phrases),
            ("concepts.share_of_revenue_words", &k.share_of_revenue_words),
            (
                "concepts.share_of_revenue_between",
                &k.share_of_revenue_between,
            ),
            ("concepts.money", &k.money),
            ("concepts.percent_names", &k.percent_names),
            ("answers.figure_phrases", &a.figure_phrases),
            ("answers.figure_questions", &a.figure_questions),
            ("answers.printed_figure_openers", &a.printed_figure_openers),
            ("answers.judgement_openers", &a.judgement_openers),
            ("answers.figure_kinds", &a.figure_kinds),
            ("answers.not_amount_labels", &a.not_amount_labels),
            ("answers.comparatives", &a.comparatives),
            ("answers.quarterly_phrases", &a.quarterly_phrases),
            ("answers.noncurrent_labels", &a.noncurrent_labels),
            ("answers.noncurrent_words", &a.noncurrent_words),
            ("tables.period_heading_words", &t.period_heading_words),
            ("tables.minority_phrases", &t.minority_phrases),
            ("shapes.percent_of", &h.percent_of),
            ("shapes.ratio_of", &h.ratio_of),
            ("shapes.of_revenue_suffixes", &h.of_revenue_suffixes),
            ("shapes.margin_bases", &h.margin_bases),
            ("shapes.each_dollar", &h.each_dollar),
            ("shapes.spent_on", &h.spent_on),
            ("shapes.figure_words", &h.figure_words),
            ("shapes.averaged_balance", &h.averaged_balance),
            ("shapes.year_end_balance", &h.year_end_balance),
            ("shapes.days_of", &h.days_of),
            ("shapes.held_in", &h.held_in),
            ("shapes.quotient_words", &h.quotient_words),
        ];
        for (name, list) in lists {
            list.check(name)?;
        }
        t.variant_labels.check("tables.variant_labels")?;
        for (name, groups) in [
            ("search.equivalents", &s.equivalents),
            ("search.change_directions", &s.change_directions),
        ] {
            if groups.is_empty() {
                return Err(LexiconError(format!("{name} is empty")));
            }
            for group in groups {
                group.check(name)?;
            }
        }
        Ok(())
    }
}

fn load() -> Result<Lexicon, LexiconError> {
    let lexicon: Lexicon = toml::from_str(include_str!("../data/lexicon.toml"))
        .map_err(|e| LexiconError(e.to_string()))?;
    lexicon.check()?;
    Ok(lexicon)
}

static LEXICON: LazyLock<Result<Lexicon, LexiconError>> = LazyLock::new(load);
static EMPTY: LazyLock<Lexicon> = LazyLock::new(Lexicon::default);

/// Whether the built-in lexicon loads and passes its checks (`docindex doctor`, tests).
pub fn lexicon_status() -> Result<(), LexiconError> {
    LEXICON.as_ref().map(|_| ()).map_err(Clone::clone)
}

/// The built-in lexicon. It is compiled in and checked by the tests, so it always loads in
/// a released build; were it broken, every list reads as empty (reported once as an error)
/// rather than taking the reader down.
pub fn lexicon() -> &'static Lexicon {
    match LEXICON.as_ref() {
        Ok(lexicon) => lexicon,
        Err(e) => {
            static REPORTED: std::sync::Once = std::sync::Once::new();
            REPORTED.call_once(|| tracing::error!("{e}"));
            &EMPTY
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lexicon_loads_and_is_checked() {
        lexicon_status().unwrap();
        let lexicon = lexicon();
        assert!(lexicon.search.stopwords.contains("the"));
        assert!(!lexicon.search.stopwords.contains("revenue"));
        let mut bad = lexicon.clone();
        bad.version = 99;
        assert!(bad.check().is_err());
        let mut bad = lexicon.clone();
        bad.parts.not_parts.0.push("FY".into());
        assert!(bad.check().unwrap_err().to_string().contains("lower case"));
        let mut bad = lexicon.clone();
        bad.search.stopwords.0.push("the".into());
        assert!(bad.check().unwrap_err().to_string().contains("twice"));
        let mut bad = lexicon.clone();
        bad.answers.comparatives.0.clear();
        assert!(bad.check().unwrap_err().to_string().contains("empty"));
        let unknown = format!(
            "{}\n[extra]\nwords = [\"x\"]\n",
            include_str!("../data/lexicon.toml")
        );
        assert!(toml::from_str::<Lexicon>(&unknown).is_err());
    }
}
