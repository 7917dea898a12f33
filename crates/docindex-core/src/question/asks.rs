//! What kind of answer a question asks for, read once from its words with the lexicon's and
//! vocabulary's lists, for every caller (search's priors, the offline answer, the figures
//! lead, the desktop's ask): a figure or a judgement, an amount of money, a count, a name,
//! a reason, how a figure moved, a part's share, where a company is based.

use crate::lexicon::lexicon;

/// What a question asks an answer to give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Asks {
    /// An amount, count or rate ("how much", "what was", "ratio"): a sentence without one
    /// does not answer.
    pub figure: bool,
    /// A count of the thing asked ("how many people", "headcount").
    pub count: bool,
    /// Who: a firm or a person ("Who audits…?", "which firm").
    pub name: bool,
    /// Why: the reason for a figure ("why", "what drove").
    pub reason: bool,
}

impl Asks {
    /// What `question` asks an answer to give.
    pub fn of(question: &str) -> Asks {
        let lower = question.trim_start().to_lowercase();
        Asks {
            figure: lexicon().answers.figure_phrases.any_in(&lower),
            count: super::asks_a_count(question),
            name: lower.starts_with("who ")
                || lower.contains(" who ")
                || lower.starts_with("which firm"),
            reason: asks_why(question),
        }
    }
}

/// Whether a question asks for a figure ("what was…", "how much…") rather than a judgement
/// ("why…", "is it trending…", "which segment…"): figures alone answer only the former.
pub fn asks_for_figure(question: &str) -> bool {
    let lower = question.trim_start().to_lowercase();
    let answers = &lexicon().answers;
    let judgement = answers
        .judgement_openers
        .iter()
        .any(|w| lower.starts_with(w));
    answers.figure_questions.any_in(&lower) && !judgement
}

/// Whether `query` asks why something happened rather than what or how much.
pub fn asks_why(query: &str) -> bool {
    crate::search::words(query)
        .iter()
        .any(|w| lexicon().search.explanation_words.contains(w.as_str()))
}

/// Whether `query` asks how a figure moved ("how fast did LinkedIn grow?", "how did Nike do
/// in China?") rather than what it was.
pub fn asks_how_it_moved(query: &str) -> bool {
    let words = crate::search::words(query);
    let moved = words
        .iter()
        .any(|w| lexicon().search.movement_words.contains(w.as_str()));
    // "How did iPhone do…": the question's own verb is "do", after "how did" / "how does".
    let how_did_do = words.first().is_some_and(|w| w == "how")
        && words
            .get(1)
            .is_some_and(|w| matches!(w.as_str(), "did" | "does" | "is" | "are"))
        && words.iter().skip(2).any(|w| w == "do" || w == "doing");
    moved || how_did_do
}

/// Whether `query` is answered by the results discussion first: it asks why a figure moved
/// or how.
pub fn asks_about_results(query: &str) -> bool {
    asks_why(query) || asks_how_it_moved(query)
}

/// Whether `question` asks for an amount of money and names no kind of quotient ("How much
/// did X pay out in dividends?", "… in USD millions"; not "What share of earnings was paid
/// out?" nor "How much of its earnings …").
pub fn asks_an_amount_of_money(question: &str) -> bool {
    let lower = question.to_lowercase();
    let words = crate::search::words(&lower);
    if lower.contains('%')
        || words
            .iter()
            .any(|w| lexicon().concepts.quotients.contains(w.as_str()))
    {
        return false;
    }
    let how_much = lower
        .match_indices("how much")
        .any(|(at, m)| !lower[at + m.len()..].trim_start().starts_with("of "));
    how_much
        || lower.contains('$')
        || words
            .iter()
            .any(|w| lexicon().concepts.money.contains(w.as_str()))
}

/// "What was…", "how much…", "how big is…": a question a printed figure can answer.
pub fn asks_for_a_printed_figure(question: &str) -> bool {
    let q = question.trim_start().to_lowercase();
    asks_for_figure(question)
        || lexicon()
            .answers
            .printed_figure_openers
            .iter()
            .any(|w| q.starts_with(w))
}

/// "What share of revenue came from Services?": the totals are the denominator.
pub fn asks_for_share(question: &str) -> bool {
    lexicon()
        .parts
        .share_phrases
        .any_in(&question.to_lowercase())
}

/// Whether `words` ask where something is based or located.
pub fn asks_where_based(words: &[String]) -> bool {
    words.first().is_some_and(|w| w == "where")
        && words.iter().any(|w| w == "based" || w == "located")
}
