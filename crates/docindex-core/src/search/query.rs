//! Query expansion: stopwords, stems, the phrasings filings use for what a question says,
//! and the dictionary of defined terms and acronyms.

use crate::lexicon::lexicon;
use crate::model::DictionaryEntry;
use rust_stemmers::{Algorithm, Stemmer};
use serde::Serialize;
use std::collections::BTreeSet;

/// "Q2", "2Q23", "FY2023": which period a question means. Filings date their figures by
/// column headings ("Three Months Ended June 30, 2023"), never with these words, so they are
/// not searched for nor asked of a sentence.
pub fn is_period_shorthand(word: &str) -> bool {
    static SHORTHAND: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"^(?:q[1-4](?:'?\d{2})?|[1-4]q(?:'?\d{2})?|(?:fye?|cy|ye)'?\d{2}(?:\d{2})?|h[12]|'\d{2})$",
        )
        .ok()
    });
    SHORTHAND.as_ref().is_some_and(|re| re.is_match(word))
}

/// Stems of every word of `text`, stopwords included (phrases are matched whole).
fn phrase_stems(stemmer: &Stemmer, text: &str) -> Vec<String> {
    words(text)
        .iter()
        .map(|w| stemmer.stem(w).to_string())
        .collect()
}

/// Every group of `table` (`lexicon.toml`'s `search.equivalents`, `lexicon.toml`'s `search.change_directions`) the query uses, whole.
/// Longer phrases claim their words first, so "buy back" is a buy-back and not also a
/// purchase.
fn equivalent_groups(query: &str, table: &[crate::lexicon::WordList]) -> Vec<Vec<String>> {
    let stemmer = Stemmer::create(Algorithm::English);
    let query_stems = phrase_stems(&stemmer, query);
    // (group, first word, word count) of every phrase found in the query.
    let mut found: Vec<(usize, usize, usize)> = Vec::new();
    for (g, group) in table.iter().enumerate() {
        for phrase in group.iter() {
            let wanted = phrase_stems(&stemmer, phrase);
            if wanted.is_empty() {
                continue;
            }
            for (at, window) in query_stems.windows(wanted.len()).enumerate() {
                if window == wanted.as_slice() {
                    found.push((g, at, wanted.len()));
                }
            }
        }
    }
    found.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.cmp(&b.1)));
    let mut claimed = vec![false; query_stems.len()];
    let mut used: Vec<usize> = Vec::new();
    for (g, at, len) in found {
        if claimed[at..at + len].iter().any(|c| *c) {
            continue;
        }
        claimed[at..at + len].iter_mut().for_each(|c| *c = true);
        if !used.contains(&g) {
            used.push(g);
        }
    }
    used.sort_unstable();
    used.into_iter()
        .map(|g| table[g].iter().map(|p| p.to_string()).collect())
        .collect()
}

/// The query as searched: its content words and what the dictionary added.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Expansion {
    /// Lowercase content words of the query.
    pub terms: Vec<String>,
    /// Phrases the dictionary added: an acronym's expansion or a defined term's acronym.
    pub added: Vec<String>,
    /// Other phrasings filings use for words of the query ("repurchase" for "buy back").
    #[serde(default)]
    pub equivalents: Vec<String>,
    /// The equivalence groups those came from, each whole, and the groups of the change
    /// directions the query names (`lexicon.toml`'s `search.change_directions`: an answer's sentence covers the
    /// query's word with any of them, though they are not searched).
    #[serde(default)]
    pub equivalent_groups: Vec<Vec<String>>,
    /// The FTS5 expression: every term and phrase, OR'ed.
    pub fts_query: String,
    /// The same expression with the query's words required together (AND) instead of any
    /// (OR), when it has two or more: the same phrases in the same order, so BM25 scores a
    /// passage alike under both. A large library is searched with it first, since a word
    /// common to a third of the passages makes the OR expression rank all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fts_all_terms: Option<String>,
}

/// Stems of the content words (stopwords left out) of `texts`.
fn content_stems<'a>(
    stemmer: &Stemmer,
    texts: impl IntoIterator<Item = &'a String>,
) -> BTreeSet<String> {
    texts
        .into_iter()
        .flat_map(|t| words(t))
        .filter(|w| !lexicon().search.stopwords.contains(w.as_str()))
        .map(|w| stemmer.stem(&w).to_string())
        .collect()
}

impl Expansion {
    /// Stems of every searched word, for scoring sentences and excerpts.
    pub fn stems(&self) -> BTreeSet<String> {
        let stemmer = Stemmer::create(Algorithm::English);
        content_stems(
            &stemmer,
            self.terms
                .iter()
                .chain(&self.added)
                .chain(&self.equivalents),
        )
    }

    /// Stems of the query's own words and the dictionary's additions, without equivalent
    /// phrasings: how much of the question a title covers is measured against these.
    pub fn query_stems(&self) -> BTreeSet<String> {
        let stemmer = Stemmer::create(Algorithm::English);
        content_stems(&stemmer, self.terms.iter().chain(&self.added))
    }

    /// What an answer must cover: one set of interchangeable stems per query word (the
    /// word and, when it belongs to an equivalence group, every phrasing of the group) and
    /// one per word the dictionary added.
    pub fn concepts(&self) -> Vec<BTreeSet<String>> {
        let stemmer = Stemmer::create(Algorithm::English);
        let group_stems: Vec<BTreeSet<String>> = self
            .equivalent_groups
            .iter()
            .map(|group| content_stems(&stemmer, group))
            .collect();
        let mut concepts: Vec<BTreeSet<String>> = Vec::new();
        for term in self.terms.iter().chain(self.added.iter()) {
            for stem in content_stems(&stemmer, [term]) {
                let mut concept: BTreeSet<String> = BTreeSet::from([stem.clone()]);
                for group in group_stems.iter().filter(|g| g.contains(&stem)) {
                    concept.extend(group.iter().cloned());
                }
                if !concepts.contains(&concept) {
                    concepts.push(concept);
                }
            }
        }
        concepts
    }
}

/// The share of `concepts` that `text` covers: a concept counts when any of its stems is
/// among the text's words.
pub fn concept_coverage(text: &str, concepts: &[BTreeSet<String>]) -> f64 {
    if concepts.is_empty() {
        return 0.0;
    }
    let stemmer = Stemmer::create(Algorithm::English);
    let found: BTreeSet<String> = words(text)
        .into_iter()
        .map(|w| stemmer.stem(&w).to_string())
        .collect();
    let covered = concepts
        .iter()
        .filter(|c| c.iter().any(|stem| found.contains(stem)))
        .count();
    covered as f64 / concepts.len() as f64
}

/// Lowercase words of `text` (letters, digits, inner `'`, `.` and `-` kept), a possessive
/// as its word: "Nike's" is "nike". FTS5 reads "nike's" as the phrase "nike s", which
/// only the possessive matches, and analysts write one in most questions.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || is_apostrophe(c) || c == '-' || c == '.'))
        .map(|w| {
            let w = w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            match w
                .strip_suffix('s')
                .and_then(|rest| rest.strip_suffix(is_apostrophe))
            {
                Some(owner) if !owner.is_empty() => owner.to_string(),
                _ => w,
            }
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// `query` without the words that name the company of the documents searched: a word of
/// its name written with a capital ("Nike's", "JPMorgan Chase"), or its ticker in capitals.
/// Within one company's filings the name tells no passage from another, yet the whole
/// library's statistics count it a rare word, so passages that happen to name the company
/// outrank those about the question. The query stays whole when nothing else would be left.
pub fn without_company_name(query: &str, company: &str, ticker: Option<&str>) -> String {
    let name_words = company_words(company);
    let ticker = ticker.map(str::to_lowercase).filter(|t| t.len() >= 2);
    let names = |token: &&str| {
        let bare = token.trim_matches(|c: char| !c.is_alphanumeric());
        let [word] = words(bare).try_into().unwrap_or_default();
        if word.is_empty() {
            return false;
        }
        let capitalised = bare.starts_with(char::is_uppercase);
        let in_capitals = !bare.chars().any(char::is_lowercase)
            || bare.strip_suffix('s').is_some_and(|b| {
                b.strip_suffix(is_apostrophe)
                    .is_some_and(|b| !b.chars().any(char::is_lowercase))
            });
        (capitalised && name_words.contains(&word))
            || (in_capitals && ticker.as_deref() == Some(word.as_str()))
    };
    let kept: Vec<&str> = query.split_whitespace().filter(|t| !names(t)).collect();
    let anything_left = kept
        .iter()
        .flat_map(|t| words(t))
        .any(|w| !lexicon().search.stopwords.contains(w.as_str()));
    if anything_left {
        kept.join(" ")
    } else {
        query.to_string()
    }
}

/// The words of a company's name that name it ("The Buckle, Inc." is buckle and inc):
/// two filings of one company may spell its name apart.
pub fn company_words(company: &str) -> Vec<String> {
    words(company)
        .into_iter()
        .filter(|w| !lexicon().search.stopwords.contains(w.as_str()))
        .collect()
}

fn is_apostrophe(c: char) -> bool {
    c == '\'' || c == '\u{2019}'
}

fn fts_phrase(text: &str) -> String {
    format!("\"{}\"", text.replace('"', " "))
}

/// The OR expression `parts` (the query's words, then the NEAR group, then the rest) with
/// every concept of the query required: a word, or a group of words with the phrasings
/// that stand for them ("net income" or "earnings"). The same phrases, each once, so
/// FTS5's BM25 scores a passage alike under both. `None` for fewer than two concepts.
fn all_concepts_expression(
    parts: &[String],
    terms: &[String],
    groups: &[Vec<String>],
    equivalents: &[String],
) -> Option<String> {
    let near = parts.iter().position(|p| p.starts_with("NEAR("))?;
    let stemmer = Stemmer::create(Algorithm::English);
    let query_stems: Vec<String> = terms.iter().map(|t| stemmer.stem(t).to_string()).collect();
    // Which group each of the query's word phrases belongs to: the first group with a
    // phrasing whose words are all in the query and include it.
    let group_of = |word: &str| -> Option<usize> {
        let stem = stemmer.stem(word).to_string();
        groups.iter().position(|group| {
            group.iter().any(|phrase| {
                let stems = phrase_stems(&stemmer, phrase);
                stems.contains(&stem) && stems.iter().all(|s| query_stems.contains(s))
            })
        })
    };
    let mut clauses: Vec<(Option<usize>, Vec<String>)> = Vec::new();
    for (phrase, word) in parts[..near].iter().zip(words_of_phrases(&parts[..near])) {
        let group = group_of(&word);
        match clauses
            .iter_mut()
            .find(|(g, _)| group.is_some() && *g == group)
        {
            Some((_, words)) => words.push(phrase.clone()),
            None => clauses.push((group, vec![phrase.clone()])),
        }
    }
    if clauses.len() < 2 {
        return None;
    }
    let rest = &parts[near..];
    let alternatives = |group: usize| -> Vec<String> {
        groups[group]
            .iter()
            .filter(|p| equivalents.contains(p))
            .map(|p| fts_phrase(p))
            .filter(|p| rest.contains(p))
            .collect()
    };
    let mut claimed: Vec<String> = Vec::new();
    let required: Vec<String> = clauses
        .iter()
        .map(|(group, words)| {
            let together = if words.len() > 1 {
                format!("({})", words.join(" AND "))
            } else {
                words[0].clone()
            };
            let others: Vec<String> = group
                .map(alternatives)
                .unwrap_or_default()
                .into_iter()
                .filter(|p| !claimed.contains(p))
                .collect();
            claimed.extend(others.iter().cloned());
            if others.is_empty() {
                together
            } else {
                format!("({together} OR {})", others.join(" OR "))
            }
        })
        .collect();
    let optional = rest.iter().filter(|p| !claimed.contains(p)).cloned();
    Some(
        std::iter::once(format!("({})", required.join(" AND ")))
            .chain(optional)
            .collect::<Vec<_>>()
            .join(" OR "),
    )
}

/// The word inside each one-word phrase `"word"`.
fn words_of_phrases(phrases: &[String]) -> Vec<String> {
    phrases
        .iter()
        .map(|p| p.trim_matches('"').to_string())
        .collect()
}

/// Expand `query` with the dictionary: an acronym in the query brings its definition, a
/// defined phrase in the query brings its acronym.
pub fn expand(query: &str, dictionary: &[(String, String)]) -> Expansion {
    let where_based = crate::question::asks_where_based(&words(query));
    let terms: Vec<String> = words(query)
        .into_iter()
        .filter(|w| !lexicon().search.stopwords.contains(w.as_str()) && !is_period_shorthand(w))
        .filter(|w| !(where_based && (w == "based" || w == "located")))
        .collect();
    let lowered = query.to_lowercase();
    let mut added = Vec::new();
    for (term, definition) in dictionary {
        let term_l = term.to_lowercase();
        let def_l = definition.to_lowercase();
        let term_in_query =
            terms.contains(&term_l) || (term_l.contains(' ') && lowered.contains(&term_l));
        if term_in_query && def_l.split_whitespace().count() <= 8 && !added.contains(&def_l) {
            added.push(def_l.clone());
        }
        if !term_in_query
            && def_l.split_whitespace().count() >= 2
            && lowered.contains(&def_l)
            && !added.contains(&term_l)
        {
            added.push(term_l.clone());
        }
    }
    let mut parts: Vec<String> = terms.iter().map(|t| fts_phrase(t)).collect();
    // Passages where the query's words stand together score higher.
    if terms.len() >= 2 {
        let near: Vec<String> = terms.iter().map(|t| fts_phrase(t)).collect();
        parts.push(format!("NEAR({}, 6)", near.join(" ")));
    }
    parts.extend(added.iter().map(|a| fts_phrase(a)));
    let mut groups = equivalent_groups(query, &lexicon().search.equivalents);
    if where_based {
        groups.push(
            lexicon()
                .search
                .where_based
                .iter()
                .map(str::to_string)
                .collect(),
        );
    }
    let lowered_terms = words(query);
    let equivalents: Vec<String> = groups
        .iter()
        .flatten()
        .filter(|phrase| {
            !added.contains(phrase) && !(words(phrase).iter().all(|w| lowered_terms.contains(w)))
        })
        .cloned()
        .collect();
    parts.extend(equivalents.iter().map(|e| fts_phrase(e)));
    parts.dedup();
    let fts_all_terms = all_concepts_expression(&parts, &terms, &groups, &equivalents);
    let mut answer_groups = groups;
    answer_groups.extend(equivalent_groups(
        query,
        &lexicon().search.change_directions,
    ));
    Expansion {
        terms,
        added,
        equivalents,
        equivalent_groups: answer_groups,
        fts_query: parts.join(" OR "),
        fts_all_terms,
    }
}

/// Dictionary entries as (term, definition) pairs for [`expand`].
pub fn dictionary_pairs(entries: &[DictionaryEntry]) -> Vec<(String, String)> {
    entries
        .iter()
        .map(|e| (e.term.clone(), e.definition.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_in_an_analysts_words_is_covered_by_the_filings_but_not_searched_for() {
        let e = expand("Why did Nike's revenue grow in fiscal 2023?", &[]);
        let grow = e
            .concepts()
            .into_iter()
            .find(|c| c.contains("grow"))
            .unwrap();
        assert!(
            grow.contains("increas") && grow.contains("higher"),
            "{grow:?}"
        );
        assert!(concept_coverage("Revenues increased 10% to $51.2 billion.", &e.concepts()) >= 0.5);
        assert!(!e.fts_query.contains("increase"), "{}", e.fts_query);
        assert!(!e.terms.contains(&"why".to_string()));
    }

    #[test]
    fn an_analysts_term_searches_the_filings_phrasing() {
        let has = |q: &str, phrase: &str| expand(q, &[]).equivalents.contains(&phrase.to_string());
        assert!(has(
            "How long will CAMP4's cash last?",
            "sufficient to fund"
        ));
        assert!(has("Who are Medicis's main competitors?", "competing"));
        assert!(has(
            "How big is the backlog?",
            "remaining performance obligations"
        ));
        assert!(has(
            "How much deferred revenue is there?",
            "contract liabilities"
        ));
        assert!(!has("How much deferred revenue is there?", "net sales"));
    }

    #[test]
    fn where_a_company_is_based_is_where_it_is_headquartered() {
        let e = expand("Where is Converse based?", &[]);
        assert_eq!(e.terms, ["converse"]);
        assert!(e.fts_query.contains("\"headquartered\""), "{}", e.fts_query);
        assert!(
            concept_coverage(
                "Converse, headquartered in Boston, Massachusetts, designs sneakers.",
                &e.concepts()
            ) >= 0.5
        );
        // Elsewhere "based" is a filing's "based on", and stays as it is.
        let e = expand(
            "How is stock-based pay measured, and what is it based on?",
            &[],
        );
        assert!(!e.fts_query.contains("headquartered"), "{}", e.fts_query);
    }

    #[test]
    fn an_analysts_titles_and_owners_search_the_filings_words() {
        let e = expand("Who is Apple's CFO?", &[]);
        assert!(
            e.fts_query.contains("\"chief financial officer\""),
            "{}",
            e.fts_query
        );
        // The ownership table is "Principal Stockholders" or "Beneficial Owners"; the longer
        // phrase claims "shareholders", so it does not also search every stockholder.
        let e = expand("Who are CAMP4's biggest shareholders?", &[]);
        assert!(
            e.fts_query.contains("\"principal stockholders\""),
            "{}",
            e.fts_query
        );
        assert!(
            e.fts_query.contains("\"beneficial owners\""),
            "{}",
            e.fts_query
        );
    }

    #[test]
    fn a_possessive_searches_its_word_not_the_phrase_of_word_and_s() {
        let e = expand("How much revenue does Microsoft's cloud bring in?", &[]);
        assert!(e.terms.contains(&"microsoft".to_string()), "{:?}", e.terms);
        assert!(!e.fts_query.contains("microsoft's"), "{}", e.fts_query);
        // The typographic apostrophe too, and a plural possessive keeps its word.
        assert_eq!(
            words("Nike’s and JPMorgan's peers' results"),
            ["nike", "and", "jpmorgan", "peers", "results"]
        );
        // An apostrophe inside a word is kept, and a lone "'s" is no word of its own.
        assert_eq!(words("o'clock 's"), ["o'clock", "s"]);
    }

    #[test]
    fn the_company_searched_is_not_a_word_of_the_query() {
        let nike = "NIKE, Inc.";
        assert_eq!(
            without_company_name("Which Nike geography lagged in fiscal 2023?", nike, None),
            "Which geography lagged in fiscal 2023?"
        );
        let jpm = "JPMorgan Chase & Co.";
        assert_eq!(
            without_company_name(
                "What was JPM's CET1 ratio at JPMorgan Chase?",
                jpm,
                Some("JPM")
            ),
            "What was CET1 ratio at"
        );
        // The same words in lower case are the question's own, and a question that is only
        // the name stays whole.
        assert_eq!(
            without_company_name(
                "How did Target's target leverage change?",
                "Target Corp",
                None
            ),
            "How did target leverage change?"
        );
        assert_eq!(
            without_company_name("Apple", "Apple Inc.", Some("AAPL")),
            "Apple"
        );
        assert_eq!(
            company_words("THE BUCKLE, INC."),
            company_words("BUCKLE, INC")
        );
    }

    #[test]
    fn the_dictionary_expands_acronyms_both_ways() {
        let dict = vec![(
            "EBITDA".to_string(),
            "earnings before interest, taxes, depreciation and amortization".to_string(),
        )];
        let e = expand("What was EBITDA in 2024?", &dict);
        assert_eq!(e.terms, vec!["ebitda", "2024"]);
        assert_eq!(e.added.len(), 1);
        assert_eq!(
            e.fts_all_terms.as_deref(),
            Some(
                "(\"ebitda\" AND \"2024\") OR NEAR(\"ebitda\" \"2024\", 6) OR \"earnings before \
                 interest, taxes, depreciation and amortization\""
            )
        );
        assert_eq!(expand("EBITDA", &dict).fts_all_terms, None);
        // A word's phrasings stand in for it, and every phrase appears once, as in the OR
        // expression.
        let eps = expand("net income per diluted share", &[]);
        assert_eq!(
            eps.fts_all_terms.as_deref(),
            Some(
                "(((\"net\" AND \"income\") OR \"profit\" OR \"earnings\" OR \"net earnings\") \
                 AND \"per\" AND \"diluted\" AND \"share\") OR NEAR(\"net\" \"income\" \"per\" \
                 \"diluted\" \"share\", 6)"
            )
        );
        let phrases = |expression: &str| {
            let mut found: Vec<String> = expression
                .split('"')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect();
            found.sort();
            found
        };
        for query in [
            "net income per diluted share",
            "cash and cash equivalents",
            "who is the auditor of the company and what did they say",
            "revenue by geography",
            "debt maturities",
            "EBITDA margin in 2024",
        ] {
            let e = expand(query, &dict);
            if let Some(all) = &e.fts_all_terms {
                assert_eq!(phrases(all), phrases(&e.fts_query), "{query}");
            }
        }
        assert!(
            e.fts_query.contains(
                "\"ebitda\" OR \"2024\" OR NEAR(\"ebitda\" \"2024\", 6) OR \"earnings before"
            ),
            "{}",
            e.fts_query
        );
        let back = expand(
            "earnings before interest, taxes, depreciation and amortization",
            &dict,
        );
        assert!(back.added.contains(&"ebitda".to_string()));
    }

    #[test]
    fn a_question_also_searches_the_phrasings_filings_use() {
        let e = expand("How much stock did the company buy back?", &[]);
        assert!(e.equivalents.contains(&"repurchased".to_string()));
        assert!(e.fts_query.contains("\"repurchase\""), "{}", e.fts_query);
        assert!(e.stems().contains("repurchas"));
        assert!(!e.query_stems().contains("repurchas"));
        // A phrase matches whole: "back" alone brings nothing, and a group the query
        // already uses in full adds only its other phrasings.
        assert!(expand("Go back to the start", &[]).equivalents.is_empty());
        let hq = expand("Where are the headquarters?", &[]);
        assert!(hq.equivalents.contains(&"head office".to_string()));
        assert!(!hq.equivalents.contains(&"headquarters".to_string()));
    }

    #[test]
    fn a_sentence_in_the_filing_phrasing_covers_the_question() {
        let e = expand("How much stock did Apple buy back?", &[]);
        let concepts = e.concepts();
        let filing = "The Company repurchased $95.0 billion of its common stock.";
        assert!(
            concept_coverage(filing, &concepts) < 1.0,
            "apple is not named"
        );
        let full = "Apple repurchased $95.0 billion of its common stock.";
        assert_eq!(concept_coverage(full, &concepts), 1.0);
        assert_eq!(concept_coverage("Apple stock", &concepts), 2.0 / 3.0);
    }
}
