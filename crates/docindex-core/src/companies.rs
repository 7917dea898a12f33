//! Which companies a question names, resolved to the library's filers: names as people
//! write them (case, spacing, punctuation, "Inc."/"Corp."/"& Co.", possessives, short and
//! former names from `data/companies.toml`) and tickers. A company the library lacks is
//! reported as absent, so nothing about it is answered from another company's filing.

use crate::lexicon::lexicon;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::LazyLock;
use thiserror::Error;

const KNOWN_COMPANIES: &str = include_str!("../data/companies.toml");

/// The well-known companies file does not parse: a bug in the build, not the user's input.
#[derive(Debug, Error)]
#[error("data/companies.toml: {0}")]
pub struct CompaniesDataError(String);

#[derive(Debug, Deserialize)]
struct KnownCompanies {
    version: u32,
    company: Vec<KnownCompany>,
}

#[derive(Debug, Deserialize)]
struct KnownCompany {
    name: String,
    tickers: Vec<String>,
    aliases: Vec<String>,
}

static KNOWN: LazyLock<Result<KnownCompanies, String>> = LazyLock::new(|| {
    let known: KnownCompanies = toml::from_str(KNOWN_COMPANIES).map_err(|e| e.to_string())?;
    if known.version != 1 {
        return Err(format!("unknown version {}", known.version));
    }
    Ok(known)
});

/// The other names people use for a filer the well-known list holds ("J&J" for Johnson &
/// Johnson, "Google" for Alphabet), found by its name or ticker; empty for any other filer.
pub fn other_names_of(name: &str, ticker: Option<&str>) -> Vec<String> {
    let Ok(known) = KNOWN.as_ref() else {
        return Vec::new();
    };
    let whole = core_words(name).concat();
    known
        .company
        .iter()
        .find(|c| {
            core_words(&c.name).concat() == whole
                || ticker.is_some_and(|t| c.tickers.iter().any(|k| k.eq_ignore_ascii_case(t)))
        })
        .map(|c| {
            std::iter::once(&c.name)
                .chain(&c.aliases)
                .chain(&c.tickers)
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// A company of the library: its name as a filing states it, and how people refer to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Filer {
    /// The name as one of its filings states it ("JPMorgan Chase & Co.").
    pub name: String,
    pub tickers: BTreeSet<String>,
    /// Compact forms (lowercase letters and digits) that name it.
    aliases: BTreeSet<String>,
    /// Compact forms that name it only when written with a capital ("Target").
    capitalised_aliases: BTreeSet<String>,
}

/// What a question says about companies.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct CompanyMentions {
    /// Library filers the question names, in the order it names them (by filer name).
    pub known: Vec<String>,
    /// Companies the question names that the library has no filing for, as written or as
    /// the well-known list names them.
    pub absent: Vec<String>,
}

impl CompanyMentions {
    pub fn is_empty(&self) -> bool {
        self.known.is_empty() && self.absent.is_empty()
    }
}

/// The library's filers, with the names people use for them.
#[derive(Debug, Clone, Default)]
pub struct CompanyDirectory {
    filers: Vec<Filer>,
    /// Well-known companies the library lacks: (display name, compact aliases, tickers).
    outside: Vec<(String, BTreeSet<String>, BTreeSet<String>)>,
}

/// Lowercase letters and digits only: "J.P. Morgan" and "JP Morgan" both become "jpmorgan".
pub fn compact(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A name's words without punctuation, possessives and trailing legal suffixes.
fn core_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = name
        .split(|c: char| c.is_whitespace() || c == ',' || c == '&' || c == '/')
        .map(|w| compact(w.trim_end_matches("'s").trim_end_matches("’s")))
        .filter(|w| !w.is_empty())
        .collect();
    if words.first().is_some_and(|w| w == "the") {
        words.remove(0);
    }
    while words.len() > 1
        && words
            .last()
            .is_some_and(|w| lexicon().companies.legal_suffixes.contains(w.as_str()))
    {
        words.pop();
    }
    words
}

impl CompanyDirectory {
    /// A directory of the library's filers from each document's (company name, ticker).
    pub fn new<'a>(
        documents: impl IntoIterator<Item = (Option<&'a str>, Option<&'a str>)>,
    ) -> Result<Self, CompaniesDataError> {
        let known = KNOWN.as_ref().map_err(|e| CompaniesDataError(e.clone()))?;
        let mut filers: Vec<Filer> = Vec::new();
        for (name, ticker) in documents {
            let Some(name) = name.filter(|n| !n.trim().is_empty()) else {
                continue;
            };
            let words = core_words(name);
            let Some(first) = words.first() else {
                continue;
            };
            let whole = words.concat();
            let filer = match filers.iter_mut().position(|f| f.aliases.contains(&whole)) {
                Some(i) => &mut filers[i],
                None => {
                    filers.push(Filer {
                        name: name.trim().to_string(),
                        tickers: BTreeSet::new(),
                        aliases: BTreeSet::new(),
                        capitalised_aliases: BTreeSet::new(),
                    });
                    let i = filers.len() - 1;
                    &mut filers[i]
                }
            };
            filer.aliases.insert(whole);
            if words.len() > 2 {
                filer.aliases.insert(words[..2].concat());
            }
            if words.len() > 1 && first.len() >= 3 {
                if lexicon()
                    .companies
                    .generic_first_words
                    .contains(first.as_str())
                {
                    filer.capitalised_aliases.insert(first.clone());
                } else {
                    filer.aliases.insert(first.clone());
                }
            }
            // "Colgate" for COLGATE-PALMOLIVE COMPANY: the first part of a hyphenated name.
            if let Some((part, _)) = name
                .split_whitespace()
                .next()
                .and_then(|w| w.split_once('-'))
            {
                let part = compact(part);
                if part.len() >= 4
                    && !lexicon()
                        .companies
                        .generic_first_words
                        .contains(part.as_str())
                {
                    filer.aliases.insert(part);
                }
            }
            if let Some(t) = ticker.filter(|t| !t.trim().is_empty()) {
                filer.tickers.insert(t.trim().to_uppercase());
            }
        }
        let mut outside = Vec::new();
        for company in &known.company {
            let mut aliases: BTreeSet<String> = std::iter::once(&company.name)
                .chain(&company.aliases)
                .map(|n| core_words(n).concat())
                .collect();
            aliases.insert(compact(&company.name));
            let tickers: BTreeSet<String> = company.tickers.iter().cloned().collect();
            let in_library = filers
                .iter_mut()
                .find(|f| !f.aliases.is_disjoint(&aliases) || !f.tickers.is_disjoint(&tickers));
            match in_library {
                Some(filer) => {
                    filer.tickers.extend(tickers);
                    for alias in aliases {
                        if lexicon()
                            .companies
                            .generic_first_words
                            .contains(alias.as_str())
                        {
                            filer.capitalised_aliases.insert(alias);
                        } else {
                            filer.aliases.insert(alias);
                        }
                    }
                }
                None => outside.push((company.name.clone(), aliases, tickers)),
            }
        }
        Ok(CompanyDirectory { filers, outside })
    }

    pub fn filers(&self) -> &[Filer] {
        &self.filers
    }

    /// The companies `question` names: filers of the library, and companies it lacks.
    pub fn mentions(&self, question: &str) -> CompanyMentions {
        self.scan(question).0
    }

    /// `question` as asked of `company` when it names each company's own period ("… for the
    /// latest fiscal year of each (Walmart: fiscal 2024; Tesla: fiscal 2023)", "Cisco FY2024,
    /// Johnson & Johnson FY2023"): the clauses that give another company's period are left
    /// out, so each company is asked of its own year. The names stay.
    pub fn question_with_own_periods(&self, question: &str, company: &str) -> String {
        // One period for all ("Did Apple and Tesla grow revenue in 2023?") is everyone's.
        let mut years: Vec<i32> = crate::question::periods::periods_in(question)
            .iter()
            .map(|p| p.year)
            .collect();
        years.sort_unstable();
        years.dedup();
        if years.len() < 2 {
            return question.to_string();
        }
        // Clauses end at these: "(Walmart: fiscal 2024; Tesla: fiscal 2023)" holds two, and
        // so does "for Colgate-Palmolive's FY2023 and Walmart's FY2024".
        let mut clauses: Vec<(String, Option<&str>)> = Vec::new();
        let mut clause = String::new();
        let mut skip_to = 0;
        for (at, c) in question.char_indices() {
            if at < skip_to {
                continue;
            }
            // "December 31, 2023": the year after a date's comma is the date's.
            let date_comma = c == ','
                && question[at + 1..]
                    .trim_start()
                    .get(..4)
                    .is_some_and(|y| y.chars().all(|d| d.is_ascii_digit()));
            if matches!(c, ';' | ',' | '(' | ')') && !date_comma {
                clauses.push((std::mem::take(&mut clause), Some(&question[at..at + 1])));
            } else if question[at..].starts_with(" and ") {
                clauses.push((std::mem::take(&mut clause), Some(" and ")));
                skip_to = at + " and ".len();
            } else {
                clause.push(c);
            }
        }
        clauses.push((clause, None));
        // The one company whose possessive stands right before a clause's period ("for
        // Apple's FY2024"), else the one named right after its "for" ("using fiscal 2024 for
        // Walmart").
        let named_beside_period: Vec<Option<String>> = clauses
            .iter()
            .map(|(text, _)| {
                let period = crate::question::periods::periods_in(text)
                    .into_iter()
                    .next()?;
                let at = text.find(&period.written)?;
                let only = |word: &str| match self.mentions(word).known.as_slice() {
                    [only] => Some(only.clone()),
                    _ => None,
                };
                let before = text[..at]
                    .split_whitespace()
                    .last()
                    .filter(|w| w.ends_with("'s") || w.ends_with("’s"))
                    .and_then(only);
                let after = text[at + period.written.len()..].trim_start();
                before.or_else(|| {
                    after
                        .strip_prefix("for ")
                        .or_else(|| after.strip_prefix("at "))
                        .and_then(|owner| owner.split_whitespace().next())
                        .and_then(only)
                })
            })
            .collect();
        let read: Vec<(CompanyMentions, bool)> = clauses
            .iter()
            .map(|(text, _)| {
                let has_period = !crate::question::periods::periods_in(text).is_empty();
                (self.mentions(text), has_period)
            })
            .collect();
        // The one company a clause gives the period of: named in it ("Walmart: fiscal
        // 2024"), or in the parenthesis right after it ("Jan 31, 2024 (Walmart)").
        let owner = |i: usize| -> Option<&String> {
            let (mentions, has_period) = &read[i];
            if !has_period {
                return None;
            }
            let named_after = match (clauses[i].1, read.get(i + 1)) {
                (Some("("), Some((next, false))) if next.known.len() == 1 => next.known.first(),
                _ => None,
            };
            match mentions.known.as_slice() {
                _ if named_after.is_some() => named_after,
                [only] => Some(only),
                // "for Apple's FY2024", "fiscal 2024 for Walmart".
                [_, _, ..] => named_beside_period[i].as_ref(),
                _ => None,
            }
        };
        let mut kept = String::with_capacity(question.len());
        for (i, (text, delimiter)) in clauses.iter().enumerate() {
            match owner(i) {
                // Another company's period is left out; the rest of its clause stays.
                Some(other) if other != company => {
                    let mut rest = text.clone();
                    for period in crate::question::periods::periods_in(text) {
                        rest = rest.replacen(&period.written, "", 1);
                    }
                    kept.push_str(&rest);
                }
                _ => kept.push_str(text),
            }
            kept.push_str(delimiter.unwrap_or(""));
        }
        kept
    }

    /// What `question` asks of each company it names: the question without the companies'
    /// names and, when it names several, without the words that frame their comparison
    /// ("Which company had higher total revenues, Apple or Tesla?" → "total revenues?"). Each
    /// company's filing answers it in its scope, where the company is settled and its name
    /// would only count against a sentence. Everything else is kept as written (punctuation,
    /// "and" in "cash and cash equivalents", the instruction sentences), so the question is
    /// read the same way as if it had been asked of that filing alone.
    pub fn question_for_each(&self, question: &str) -> String {
        let (mentions, tokens, claimed) = self.scan(question);
        let compares = mentions.known.len() + mentions.absent.len() >= 2;
        let mut out = String::with_capacity(question.len());
        let mut copied_to = 0;
        for (i, token) in tokens.iter().enumerate() {
            let word = token
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            // "… and by how much?" frames the comparison; "How much did A and B pay?" and
            // "How many people do A and B employ?" ask each company for its amount.
            let by_how_much = |at: usize| {
                let lower = |k: usize| tokens.get(k).map(|t| t.to_lowercase());
                at >= 1
                    && lower(at - 1).as_deref() == Some("by")
                    && lower(at).as_deref() == Some("how")
            };
            // "and" frames "Apple and Tesla" but is part of "property, plant and equipment":
            // a framing word that also joins a figure's name goes only beside a company's.
            let content_word = |k: usize| {
                tokens.get(k).is_some_and(|t| {
                    let w = t
                        .trim_matches(|c: char| !c.is_alphanumeric())
                        .to_lowercase();
                    !claimed[k]
                        && !w.is_empty()
                        && !lexicon().companies.comparison_words.contains(w.as_str())
                })
            };
            let joins_a_figure = || {
                i >= 1
                    && content_word(i - 1)
                    && content_word(i + 1)
                    && crate::finance::concepts::concept_table()
                        .is_ok_and(|table| table.is_phrasing_word(&word))
            };
            let framing = compares
                && ((lexicon().companies.comparison_words.contains(word.as_str())
                    && !joins_a_figure())
                    || (word == "how" && by_how_much(i))
                    || (word == "much" && i >= 1 && by_how_much(i - 1)));
            // "the revenue of Apple?": the preposition that led to the name goes with it.
            let leads_to_name = !compares
                && lexicon()
                    .companies
                    .name_prepositions
                    .contains(word.as_str())
                && claimed_bare(&tokens, &claimed, i + 1);
            if !claimed[i] && !framing && !leads_to_name {
                continue;
            }
            let start = token.as_ptr() as usize - question.as_ptr() as usize;
            out.push_str(&question[copied_to..start]);
            // A sentence's end travels with the word that carried it ("… for Apple Inc. Round
            // to …"), not an abbreviation's point ("Apple Inc. revenue").
            let bare = token.trim_end_matches(['.', '!', ':']);
            let next_opens_sentence = tokens
                .get(i + 1)
                .is_none_or(|t| t.chars().next().is_some_and(char::is_uppercase));
            if next_opens_sentence || !token.ends_with('.') {
                out.push_str(&token[bare.len()..]);
            }
            copied_to = start + token.len();
        }
        out.push_str(&question[copied_to..]);
        let text = tidied(&out);
        if text.split_whitespace().count() < 2 {
            question.to_string()
        } else {
            text
        }
    }

    /// The mentions, the question's tokens, and which tokens name a company.
    fn scan<'q>(&self, question: &'q str) -> (CompanyMentions, Vec<&'q str>, Vec<bool>) {
        let tokens: Vec<&str> = question
            .split(|c: char| {
                c.is_whitespace() || c == ',' || c == '?' || c == ';' || c == '(' || c == ')'
            })
            .filter(|t| !t.is_empty())
            .collect();
        let mut claimed = vec![false; tokens.len()];
        let mut mentions = CompanyMentions::default();
        let add = |list: &mut Vec<String>, name: &str| {
            if !list.iter().any(|n| n == name) {
                list.push(name.to_string());
            }
        };
        // Longer names first, so "Bank of America" is not "America".
        for n in (1..=4).rev() {
            for start in 0..tokens.len().saturating_sub(n - 1) {
                if claimed[start..start + n].iter().any(|c| *c) {
                    continue;
                }
                let window = &tokens[start..start + n];
                let written = window.join(" ");
                let trimmed = written.trim_matches(|c: char| !c.is_alphanumeric() && c != '$');
                let capitalised = trimmed.chars().next().is_some_and(char::is_uppercase);
                let bare = trimmed
                    .trim_end_matches("'s")
                    .trim_end_matches("’s")
                    .trim_end_matches('\'')
                    .trim_end_matches('’');
                let forms = [compact(trimmed), compact(bare)];
                // "GM%" is a gross margin, not General Motors.
                let ticker = (n == 1 && !written.contains('%'))
                    .then(|| ticker_written(trimmed))
                    .flatten();
                let filer = self.filers.iter().find(|f| {
                    forms.iter().any(|c| {
                        f.aliases.contains(c) || (capitalised && f.capitalised_aliases.contains(c))
                    }) || ticker.as_ref().is_some_and(|t| f.tickers.contains(t))
                });
                if let Some(filer) = filer {
                    add(&mut mentions.known, &filer.name);
                    claimed[start..start + n].iter_mut().for_each(|c| *c = true);
                    continue;
                }
                let outside = self.outside.iter().find(|(_, aliases, tickers)| {
                    (capitalised && forms.iter().any(|c| aliases.contains(c)))
                        || ticker.as_ref().is_some_and(|t| tickers.contains(t))
                });
                if let Some((name, ..)) = outside {
                    add(&mut mentions.absent, name);
                    claimed[start..start + n].iter_mut().for_each(|c| *c = true);
                }
            }
        }
        // A legal form after a name is part of it ("Boeing Co's", "Cisco Systems, Inc.'s",
        // "Intel Corporation"), never a company of its own.
        for i in 1..tokens.len() {
            if claimed[i - 1] && !claimed[i] && is_legal_form(tokens[i]) {
                claimed[i] = true;
            }
        }
        // A capitalised possessive nobody knows ("Acme's margin") still names a company.
        for (i, token) in tokens.iter().enumerate() {
            if claimed[i] {
                continue;
            }
            let Some(name) = token
                .strip_suffix("'s")
                .or_else(|| token.strip_suffix("’s"))
                .filter(|n| n.chars().next().is_some_and(char::is_uppercase))
            else {
                continue;
            };
            // "the CFO's slides", "your Board's view": an article or a pronoun before it
            // makes it a role, not a company (a filer's own "The" is matched above).
            let after_article = i > 0
                && ["the", "a", "an", "your", "our", "my", "their", "his", "her"]
                    .contains(&tokens[i - 1].to_lowercase().as_str());
            // "Consultant's two-company benchmark: …": a sentence's first word is capitalised
            // whatever it is; beside the two companies compared, it names none.
            let opens_a_sentence =
                i == 0 || tokens[i - 1].ends_with(['.', ':', '?', '!']) || tokens[i - 1] == "--";
            if opens_a_sentence && mentions.known.len() >= 2 {
                continue;
            }
            if lexicon()
                .companies
                .not_companies
                .contains(compact(name).as_str())
                || compact(name).len() < 2
                || after_article
            {
                continue;
            }
            add(&mut mentions.absent, name);
            claimed[i] = true;
        }
        (mentions, tokens, claimed)
    }
}

/// Whether `token` is a company's legal form ("Inc.", "Co's", "Corporation", "plc").
fn is_legal_form(token: &str) -> bool {
    let bare = token
        .trim_end_matches("'s")
        .trim_end_matches("’s")
        .trim_end_matches(['\'', '’']);
    lexicon()
        .companies
        .legal_forms
        .contains(compact(bare).as_str())
}

/// A ticker as people write one: "$KO", or two to five capitals ("TSLA", "BRK.B").
fn ticker_written(token: &str) -> Option<String> {
    if let Some(rest) = token.strip_prefix('$') {
        let upper = rest.to_uppercase();
        return (!upper.is_empty() && upper.len() <= 6).then_some(upper);
    }
    let bare = token.trim_end_matches("'s").trim_end_matches("’s");
    let letters = bare.chars().filter(|c| c.is_ascii_alphabetic()).count();
    let upper = bare.chars().all(|c| c.is_ascii_uppercase() || c == '.');
    (upper && (2..=5).contains(&letters)).then(|| bare.to_string())
}

/// Whether token `i` names a company without a possessive and ends its clause ("for
/// Apple?", "of Tesla, in USD"), so the preposition before it goes with it.
fn claimed_bare(tokens: &[&str], claimed: &[bool], i: usize) -> bool {
    let Some(token) = tokens.get(i) else {
        return false;
    };
    let possessive = token.ends_with("'s") || token.ends_with("’s");
    claimed.get(i).copied().unwrap_or(false)
        && !possessive
        && (i + 1 == tokens.len() || !claimed.get(i + 1).copied().unwrap_or(false))
}

/// `text` with the gaps a removed word leaves closed: runs of spaces, a space before
/// punctuation, commas left side by side, a clause left opening with a comma.
fn tidied(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(joined.len());
    for c in joined.chars() {
        if matches!(c, ',' | '.' | '?' | '!' | ':' | ';' | ')') {
            while out.ends_with(' ') {
                out.pop();
            }
            // ", ," and ", ?" keep only the stronger mark.
            if out.ends_with(',') {
                out.pop();
            }
            if out.is_empty() || (c == ',' && out.ends_with(['.', '?', '!', ':', '('])) {
                continue;
            }
        }
        out.push(c);
    }
    out.replace("( ", "(")
        .replace("()", "")
        .trim_matches(|c: char| c == ',' || c.is_whitespace())
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared_corpus() -> CompanyDirectory {
        let docs = [
            (Some("AMCOR PLC"), None),
            (Some("JPMorgan Chase & Co."), Some("JPM")),
            (Some("MGM Resorts International"), None),
            (Some("MICROSOFT CORPORATION"), None),
            (Some("NIKE, Inc."), None),
            (Some("AEGON N.V."), None),
            (Some("Apple Inc."), Some("AAPL")),
            (Some("BUCKLE, INC"), Some("BKE")),
            (Some("THE BUCKLE, INC."), Some("BKE")),
            (Some("Cabot Corporation"), None),
            (Some("MEDICIS PHARMACEUTICAL CORPORATION"), None),
            (Some("ORACLE CORP"), Some("ORCL")),
            (Some("Tesla, Inc."), Some("TSLA")),
        ];
        CompanyDirectory::new(docs).unwrap()
    }

    fn known(question: &str) -> Vec<String> {
        shared_corpus().mentions(question).known
    }

    #[test]
    fn each_company_is_asked_of_its_own_period() {
        let directory = shared_corpus();
        for question in [
            "Which had the higher revenue (Apple: fiscal 2024; Tesla: fiscal 2023)?",
            "Which had the higher revenue for the years that ended Sep 28, 2024 (Apple) and Dec 31, 2023 (Tesla)?",
            "Rank Apple and Tesla by revenue for Apple's FY2024 and Tesla's FY2023.",
            "I'm comparing Apple and Tesla using fiscal 2024 for Apple and fiscal 2023 for Tesla. Which one's revenue was lower?",
        ] {
            let names = known(question);
            let tesla = names.iter().find(|n| n.starts_with("Tesla")).unwrap();
            let apple = names.iter().find(|n| n.starts_with("Apple")).unwrap();
            let of_tesla = directory.question_with_own_periods(question, tesla);
            assert!(of_tesla.contains("2023") && !of_tesla.contains("2024"), "{of_tesla}");
            let of_apple = directory.question_with_own_periods(question, apple);
            assert!(of_apple.contains("2024") && !of_apple.contains("2023"), "{of_apple}");
        }
        // One period named for both is both companies'.
        let shared = "Did Apple and Tesla grow revenue in 2023?";
        for name in known(shared) {
            assert_eq!(directory.question_with_own_periods(shared, &name), shared);
        }
    }

    fn absent(question: &str) -> Vec<String> {
        shared_corpus().mentions(question).absent
    }

    #[test]
    fn names_as_people_write_them_resolve_to_the_filer() {
        assert_eq!(
            known("What were JP Morgan's total deposits?"),
            ["JPMorgan Chase & Co."]
        );
        assert_eq!(known("jpmorgan chase deposits"), ["JPMorgan Chase & Co."]);
        assert_eq!(known("NKE revenue FY23"), ["NIKE, Inc."]);
        assert_eq!(
            known("How much cash does Microsoft Corp. have?"),
            ["MICROSOFT CORPORATION"]
        );
        assert_eq!(known("Buckle's sales"), ["BUCKLE, INC"]);
        assert_eq!(
            known("MGM Resorts revenue in Q2"),
            ["MGM Resorts International"]
        );
        assert_eq!(known("$TSLA deliveries"), ["Tesla, Inc."]);
        let with_hyphen =
            CompanyDirectory::new([(Some("COLGATE-PALMOLIVE COMPANY"), Some("CL"))]).unwrap();
        assert_eq!(
            with_hyphen
                .mentions("Which sold more, Colgate or P&G?")
                .known,
            ["COLGATE-PALMOLIVE COMPANY"]
        );
        assert_eq!(
            known("Which company had higher total revenues, Apple or Tesla?"),
            ["Apple Inc.", "Tesla, Inc."]
        );
        assert_eq!(
            known("Compare R&D spend at Apple, Microsoft and Tesla"),
            ["Apple Inc.", "MICROSOFT CORPORATION", "Tesla, Inc."]
        );
    }

    #[test]
    fn companies_the_library_lacks_are_absent_not_someone_else() {
        let coke = shared_corpus().mentions("What was Coca-Cola's operating income in 2023?");
        assert!(coke.known.is_empty());
        assert_eq!(coke.absent, ["Coca-Cola"]);
        assert_eq!(absent("How much did Lowe's spend on buybacks?"), ["Lowe's"]);
        assert_eq!(absent("What is Ford's debt load?"), ["Ford"]);
        assert_eq!(absent("What was Acme's gross margin?"), ["Acme"]);
        // Roles, audiences and a percentage are no companies.
        assert!(absent("You are preparing the CFO's board slides. What was Apple's operating margin in FY2023?").is_empty());
        assert!(absent("Lender's covenant check on Apple: what is the current ratio?").is_empty());
        // A sentence's first word beside the two companies compared is none.
        let two = shared_corpus()
            .mentions("Strategist's benchmark: Apple vs Tesla on revenue -- which is higher?");
        assert_eq!(two.known.len(), 2);
        assert!(two.absent.is_empty());
        let with_gm = CompanyDirectory::new([
            (Some("GENERAL MOTORS COMPANY"), Some("GM")),
            (Some("Meta Platforms, Inc."), Some("META")),
            (Some("UnitedHealth Group Incorporated"), Some("UNH")),
        ])
        .unwrap();
        let comp = with_gm.mentions("For the comp sheet: Meta, GM%, FY '21.");
        assert_eq!(comp.known, ["Meta Platforms, Inc."]);
        assert!(comp.absent.is_empty());
        assert_eq!(
            with_gm.mentions("What is GM's capex?").known,
            ["GENERAL MOTORS COMPANY"]
        );
        let unh = with_gm.mentions("What did UnitedHealth Group Incorporated's 10-K show?");
        assert_eq!(unh.known, ["UnitedHealth Group Incorporated"]);
        assert!(unh.absent.is_empty(), "{:?}", unh.absent);
        let mixed = shared_corpus().mentions("Did Alphabet or Apple earn more in fiscal 2024?");
        assert_eq!(mixed.known, ["Apple Inc."]);
        assert_eq!(mixed.absent, ["Alphabet"]);
    }

    #[test]
    fn each_company_is_asked_the_question_without_the_comparison() {
        let directory = shared_corpus();
        let each = |q: &str| directory.question_for_each(q);
        assert_eq!(
            each("Which company had higher total revenues in its latest fiscal year, Apple or Tesla, and by how much?"),
            "total revenues in latest fiscal year?"
        );
        assert_eq!(
            each("Compare R&D spend at Apple, Microsoft and Tesla"),
            "R&D spend"
        );
        assert_eq!(
            each("How much did Apple and Tesla pay out in dividends last year?"),
            "How much pay out in dividends last year?"
        );
        assert_eq!(
            each("How many employees do Apple and Tesla have?"),
            "How many employees?"
        );
        // "Can you say whose …" asks each company no yes or no.
        assert_eq!(
            each(
                "Can you say whose current ratio is higher on December 31, 2023 -- Apple or Tesla?"
            ),
            "current ratio on December 31, 2023?"
        );
        // "and" joins Apple and Tesla, and joins research and development.
        assert_eq!(
            each("Did Apple or Tesla spend more on research and development in 2023?"),
            "spend on research and development in 2023?"
        );
        // One company: only its name goes; the question's words and sentences stay as
        // written, so its reading is the reading of the whole question.
        assert_eq!(
            each("What were JP Morgan's total deposits at June 30, 2023?"),
            "What were total deposits at June 30, 2023?"
        );
        assert_eq!(
            each("Refer to Meta's consolidated balance sheet. What were the reported total current assets for 2023? Round to two decimals."),
            "Refer to consolidated balance sheet. What were the reported total current assets for 2023? Round to two decimals."
        );
        assert_eq!(
            each("From NKE's balance sheet: cash and cash equivalents, FY23, in billions of US dollars?"),
            "From balance sheet: cash and cash equivalents, FY23, in billions of US dollars?"
        );
        for named in [
            "Apple Inc.'s revenue",
            "Tesla Inc revenue",
            "Microsoft Corporation's revenue",
        ] {
            assert!(directory.mentions(named).absent.is_empty(), "{named}");
        }
        assert_eq!(
            each("By how much did Apple Inc.'s revenue move between FY 2022 and FY 2023?"),
            "By how much did revenue move between FY 2022 and FY 2023?"
        );
        assert_eq!(
            each("What is the FY2024 capital expenditure amount (in USD millions) for Apple? Base your judgments on the cash flow statement."),
            "What is the FY2024 capital expenditure amount (in USD millions)? Base your judgments on the cash flow statement."
        );
        assert_eq!(each("NKE revenue FY23"), "revenue FY23");
    }

    #[test]
    fn ordinary_words_name_no_company() {
        for question in [
            "What drove the change in gross margin?",
            "What is the Company's quick ratio?",
            "Management's discussion of liquidity",
            "What was the target leverage ratio?",
            "How much capex in FY2023?",
            "What was revenue in Q2?",
        ] {
            let mentions = shared_corpus().mentions(question);
            assert!(mentions.is_empty(), "{question}: {mentions:?}");
        }
    }
}
