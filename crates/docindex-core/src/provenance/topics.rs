//! Topics as concepts: what a topic an analyst names means in a filing's words, from the
//! curated thesaurus (`data/topics.toml`), the filing's own dictionary, the search's
//! equivalent phrasings and the financial concept table, and a matcher that finds those
//! phrases, whole, in a sentence.

use crate::finance::concepts::concept_table;
use crate::search::expand;
use rust_stemmers::{Algorithm, Stemmer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::LazyLock;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TopicError {
    #[error("the built-in topic thesaurus is invalid: {0}")]
    BadThesaurus(String),
}

impl TopicError {
    pub fn fault(&self) -> crate::Fault {
        crate::Fault::Bug
    }
}

/// One entry of the thesaurus (see the comments at the top of `data/topics.toml`).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct TopicEntry {
    pub id: String,
    pub names: Vec<String>,
    pub core: Vec<String>,
    #[serde(default)]
    pub related: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Thesaurus {
    pub version: u32,
    /// Words a topic adds nothing with once an entry has its meaning ("risk", "exposure").
    pub modifiers: Vec<String>,
    #[serde(rename = "topic")]
    pub topics: Vec<TopicEntry>,
}

static THESAURUS: LazyLock<Result<Thesaurus, TopicError>> = LazyLock::new(|| {
    let thesaurus: Thesaurus = toml::from_str(include_str!("../../data/topics.toml"))
        .map_err(|e| TopicError::BadThesaurus(e.to_string()))?;
    thesaurus.check()?;
    Ok(thesaurus)
});

/// The built-in thesaurus, checked on first use.
pub fn thesaurus() -> Result<&'static Thesaurus, TopicError> {
    THESAURUS.as_ref().map_err(Clone::clone)
}

impl Thesaurus {
    /// Ids are unique and every phrase has words.
    fn check(&self) -> Result<(), TopicError> {
        let mut seen = BTreeSet::new();
        for t in &self.topics {
            if !seen.insert(t.id.as_str()) {
                return Err(TopicError::BadThesaurus(format!("topic {} twice", t.id)));
            }
            if t.names.is_empty() || t.core.is_empty() {
                return Err(TopicError::BadThesaurus(format!(
                    "topic {} needs names and core phrases",
                    t.id
                )));
            }
            let phrases = t.names.iter().chain(&t.core).chain(&t.related);
            for phrase in phrases.chain(&t.exclude) {
                if tokens(phrase).is_empty() {
                    return Err(TopicError::BadThesaurus(format!(
                        "topic {}: phrase {phrase:?} has no words",
                        t.id
                    )));
                }
            }
        }
        Ok(())
    }
}

/// What a topic means: the phrases that put a sentence on it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TopicConcept {
    pub topic: String,
    /// Thesaurus entries the topic named (empty when it named none).
    pub entries: Vec<String>,
    /// A sentence holding one of these is on topic.
    pub core: Vec<String>,
    /// Word sets that put a sentence on topic when all of a set appear in it: the words
    /// of a topic the thesaurus does not know ("battery" and "supply").
    #[serde(default)]
    pub together: Vec<Vec<String>>,
    /// On topic only where the topic is established (a section with core evidence, a
    /// section titled for the topic, a passage close in meaning).
    pub related: Vec<String>,
    /// Phrases whose words never count ("business climate" for climate).
    pub exclude: Vec<String>,
}

/// Build the concept of `topic`. `dictionary` is the scope's (term, definition) pairs: an
/// acronym the filing defines is matched with its definition.
pub fn topic_concept(
    topic: &str,
    dictionary: &[(String, String)],
) -> Result<TopicConcept, TopicError> {
    let thesaurus = thesaurus()?;
    let stemmer = Stemmer::create(Algorithm::English);
    let topic_tokens = tokens(topic);
    let topic_stems: Vec<String> = topic_tokens
        .iter()
        .map(|t| stemmer.stem(t).to_string())
        .collect();
    // Longer names claim their words first, so "trade war" is tariffs, not also a war.
    let mut found: Vec<(usize, usize, usize)> = Vec::new();
    for (e, entry) in thesaurus.topics.iter().enumerate() {
        for name in &entry.names {
            let name_stems: Vec<String> = tokens(name)
                .iter()
                .map(|t| stemmer.stem(t).to_string())
                .collect();
            if name_stems.is_empty() || name_stems.len() > topic_stems.len() {
                continue;
            }
            for (at, window) in topic_stems.windows(name_stems.len()).enumerate() {
                if window == name_stems.as_slice() {
                    found.push((e, at, name_stems.len()));
                }
            }
        }
    }
    found.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.cmp(&b.1)));
    let mut claimed = vec![false; topic_stems.len()];
    let mut chosen: Vec<(usize, usize)> = Vec::new();
    for (e, at, len) in found {
        if claimed[at..at + len].iter().any(|c| *c) {
            continue;
        }
        claimed[at..at + len].iter_mut().for_each(|c| *c = true);
        if !chosen.iter().any(|(x, _)| *x == e) {
            chosen.push((e, at));
        }
    }
    chosen.sort_by_key(|(_, at)| *at);
    let entries: Vec<usize> = chosen.into_iter().map(|(e, _)| e).collect();
    let mut concept = TopicConcept {
        topic: topic.trim().to_string(),
        ..TopicConcept::default()
    };
    let push = |list: &mut Vec<String>, phrase: &str| {
        let phrase = phrase.trim().to_lowercase();
        if !phrase.is_empty() && !list.contains(&phrase) {
            list.push(phrase);
        }
    };
    for &e in &entries {
        let entry = &thesaurus.topics[e];
        concept.entries.push(entry.id.clone());
        for p in &entry.core {
            push(&mut concept.core, p);
        }
        for p in &entry.related {
            push(&mut concept.related, p);
        }
        for p in &entry.exclude {
            push(&mut concept.exclude, p);
        }
    }
    if entries.is_empty() {
        // A topic the thesaurus does not know: its words as a phrase, every run of two or
        // more of them, and all of them together in one sentence; a single word alone
        // only where the topic is established.
        let content: Vec<&String> = topic_tokens
            .iter()
            .filter(|t| !thesaurus.modifiers.contains(t) || topic_tokens.len() == 1)
            .collect();
        match content.len() {
            0 => {}
            1 => push(&mut concept.core, content[0]),
            n => {
                for len in (2..=n).rev() {
                    for window in content.windows(len) {
                        let phrase: Vec<&str> = window.iter().map(|s| s.as_str()).collect();
                        push(&mut concept.core, &phrase.join(" "));
                    }
                }
                concept
                    .together
                    .push(content.iter().map(|s| s.to_string()).collect());
                for word in content {
                    push(&mut concept.related, word);
                }
            }
        }
        // The search's equivalent phrasings ("buy back" → "repurchase").
        let expansion = expand(topic, &[]);
        for phrase in &expansion.equivalents {
            push(&mut concept.core, phrase);
        }
        // A financial concept the topic names brings the row labels filings print.
        if let Ok(table) = concept_table() {
            for c in table.asked_in(topic) {
                for label in c.line_items.iter().chain(&c.asked_as) {
                    push(&mut concept.core, label);
                }
            }
        }
    }
    // The filing's own acronyms and definitions, for known and unknown topics alike.
    for added in expand(topic, dictionary).added {
        push(&mut concept.core, &added);
    }
    concept.core.retain(|p| !tokens(p).is_empty());
    Ok(concept)
}

/// Lowercase words of `text` for matching: apostrophes join ("people's" → "peoples"),
/// every other non-alphanumeric character splits ("cyber-attack" → "cyber", "attack").
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else if matches!(c, '\'' | '’' | '‘') {
            continue;
        } else if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// A sentence's words, lowercase and stemmed.
#[derive(Debug, Clone)]
pub struct Token {
    pub word: String,
    pub stem: String,
}

#[derive(Debug, Clone, PartialEq)]
enum WordPattern {
    Stem(String),
    Prefix(String),
}

impl WordPattern {
    fn matches(&self, token: &Token) -> bool {
        match self {
            WordPattern::Stem(s) => token.stem == *s,
            WordPattern::Prefix(p) => token.word.starts_with(p.as_str()),
        }
    }
}

#[derive(Debug, Clone)]
struct Phrase {
    text: String,
    words: Vec<WordPattern>,
}

impl Phrase {
    fn new(stemmer: &Stemmer, text: &str) -> Phrase {
        let words = text
            .split_whitespace()
            .flat_map(|w| {
                let prefix = w.ends_with('*');
                tokens(w)
                    .into_iter()
                    .map(move |t| (t, prefix))
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>();
        let last = words.len().saturating_sub(1);
        let words = words
            .into_iter()
            .enumerate()
            .map(|(i, (t, prefix))| {
                // `*` belongs to the last piece of a hyphenated word.
                if prefix && i == last {
                    WordPattern::Prefix(t)
                } else {
                    WordPattern::Stem(stemmer.stem(&t).to_string())
                }
            })
            .collect();
        Phrase {
            text: text.to_string(),
            words,
        }
    }

    /// Token positions where the phrase starts.
    fn starts_in(&self, tokens: &[Token]) -> Vec<usize> {
        if self.words.is_empty() || self.words.len() > tokens.len() {
            return Vec::new();
        }
        (0..=tokens.len() - self.words.len())
            .filter(|&at| {
                self.words
                    .iter()
                    .zip(&tokens[at..])
                    .all(|(w, t)| w.matches(t))
            })
            .collect()
    }
}

/// Which of a concept's phrases a sentence holds (indices into `core` / `related`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SentenceMatch {
    pub core: BTreeSet<usize>,
    /// Indices of the `together` sets all of whose words are present.
    pub together: BTreeSet<usize>,
    pub related: BTreeSet<usize>,
}

impl SentenceMatch {
    pub fn is_core(&self) -> bool {
        !self.core.is_empty() || !self.together.is_empty()
    }
    pub fn is_empty(&self) -> bool {
        !self.is_core() && self.related.is_empty()
    }
}

/// A concept compiled for matching.
pub struct TopicMatcher {
    stemmer: Stemmer,
    core: Vec<Phrase>,
    together: Vec<Vec<WordPattern>>,
    related: Vec<Phrase>,
    exclude: Vec<Phrase>,
}

impl TopicMatcher {
    pub fn new(concept: &TopicConcept) -> TopicMatcher {
        let stemmer = Stemmer::create(Algorithm::English);
        let compile = |list: &[String]| -> Vec<Phrase> {
            list.iter().map(|p| Phrase::new(&stemmer, p)).collect()
        };
        let core = compile(&concept.core);
        let related = compile(&concept.related);
        let exclude = compile(&concept.exclude);
        let together = concept
            .together
            .iter()
            .map(|set| {
                set.iter()
                    .map(|w| WordPattern::Stem(stemmer.stem(&w.to_lowercase()).to_string()))
                    .collect()
            })
            .collect();
        TopicMatcher {
            stemmer,
            core,
            together,
            related,
            exclude,
        }
    }

    pub fn tokens(&self, text: &str) -> Vec<Token> {
        tokens(text)
            .into_iter()
            .map(|word| Token {
                stem: self.stemmer.stem(&word).to_string(),
                word,
            })
            .collect()
    }

    /// The phrases of the concept `text` holds, whole, outside excluded phrases.
    pub fn match_text(&self, text: &str) -> SentenceMatch {
        let tokens = self.tokens(text);
        let mut blocked = vec![false; tokens.len()];
        for phrase in &self.exclude {
            for at in phrase.starts_in(&tokens) {
                blocked[at..at + phrase.words.len()]
                    .iter_mut()
                    .for_each(|b| *b = true);
            }
        }
        let free = |at: usize, len: usize| !blocked[at..at + len].iter().any(|b| *b);
        let found = |phrases: &[Phrase]| -> BTreeSet<usize> {
            phrases
                .iter()
                .enumerate()
                .filter(|(_, p)| {
                    p.starts_in(&tokens)
                        .into_iter()
                        .any(|at| free(at, p.words.len()))
                })
                .map(|(i, _)| i)
                .collect()
        };
        let together = self
            .together
            .iter()
            .enumerate()
            .filter(|(_, set)| {
                set.iter().all(|w| {
                    tokens
                        .iter()
                        .enumerate()
                        .any(|(at, t)| !blocked[at] && w.matches(t))
                })
            })
            .map(|(i, _)| i)
            .collect();
        SentenceMatch {
            core: found(&self.core),
            together,
            related: found(&self.related),
        }
    }

    /// The concept's phrases a match found, core first, as the thesaurus writes them.
    pub fn terms(&self, m: &SentenceMatch) -> Vec<String> {
        let mut out: Vec<String> = m.core.iter().map(|&i| self.core[i].text.clone()).collect();
        for &i in &m.together {
            let words: Vec<String> = self.together[i]
                .iter()
                .map(|w| match w {
                    WordPattern::Stem(s) | WordPattern::Prefix(s) => s.clone(),
                })
                .collect();
            out.push(words.join(" + "));
        }
        out.extend(m.related.iter().map(|&i| self.related[i].text.clone()));
        out
    }

    /// Whether a title names the topic (holds a core phrase).
    pub fn names_topic(&self, title: &str) -> bool {
        self.match_text(title).is_core()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn matcher(topic: &str) -> (TopicConcept, TopicMatcher) {
        let concept = topic_concept(topic, &[]).unwrap();
        let matcher = TopicMatcher::new(&concept);
        (concept, matcher)
    }

    #[test]
    fn the_thesaurus_loads_and_every_topic_has_a_source() {
        let t = thesaurus().unwrap();
        assert!(t.topics.len() >= 20);
        assert!(t.topics.iter().all(|e| !e.source.trim().is_empty()));
    }

    #[test]
    fn climate_change_is_a_concept_not_the_word_change() {
        let (concept, m) = matcher("climate change");
        assert_eq!(concept.entries, vec!["climate"]);
        assert!(m
            .match_text("Increased levels of greenhouse gases may raise temperatures.")
            .is_core());
        assert!(m
            .match_text("Extreme weather conditions could disrupt our stores.")
            .is_core());
        assert!(m
            .match_text("Increases in income tax rates, changes in income tax laws could hurt.")
            .is_empty());
        // "Business climate" is not the climate.
        assert!(m
            .match_text("A significant adverse change in the business climate.")
            .is_empty());
        // Related words count only where the topic is established: reported as related.
        let sustain = m.match_text("We announced sustainability-related goals.");
        assert!(!sustain.is_core() && !sustain.is_empty());
    }

    #[test]
    fn prefixes_and_hyphens_match_whole_words() {
        let (_, m) = matcher("cybersecurity");
        let hit = m.match_text("We experienced cyber-attacks, including phishing.");
        assert!(hit.is_core());
        let terms = m.terms(&hit);
        assert!(terms.contains(&"cyber*".to_string()), "{terms:?}");
        assert!(terms.contains(&"phishing".to_string()), "{terms:?}");
        assert!(m.match_text("Breach of contract claims.").is_empty());
    }

    #[test]
    fn the_longest_name_claims_its_words() {
        let (concept, _) = matcher("trade war exposure");
        assert_eq!(concept.entries, vec!["tariffs_trade"]);
        let (concept, _) = matcher("supply chain disruption");
        assert_eq!(concept.entries, vec!["supply_chain"]);
        let (concept, _) = matcher("China exposure and interest-rate risk");
        assert_eq!(concept.entries, vec!["china", "interest_rate_risk"]);
    }

    #[test]
    fn an_unknown_topic_is_its_phrase_or_all_its_words_together() {
        let (concept, m) = matcher("battery recycling");
        assert!(concept.entries.is_empty());
        assert!(m
            .match_text("Our battery recycling program grew.")
            .is_core());
        assert!(m
            .match_text("We recycle every battery pack we take back.")
            .is_core());
        let battery_only = m.match_text("The battery is warranted for eight years.");
        assert!(!battery_only.is_core() && !battery_only.is_empty());
    }

    #[test]
    fn filings_acronyms_and_financial_concepts_join_the_topic() {
        let dict = vec![(
            "RPO".to_string(),
            "remaining performance obligations".to_string(),
        )];
        let concept = topic_concept("RPO", &dict).unwrap();
        assert!(concept
            .core
            .contains(&"remaining performance obligations".to_string()));
        let capex = topic_concept("capex", &[]).unwrap();
        assert!(
            capex.core.iter().any(|c| c.contains("property")),
            "{:?}",
            capex.core
        );
    }
}
