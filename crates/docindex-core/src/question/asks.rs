//! What kind of answer a question asks for (a figure, a count, a name, a reason), read once
//! from its words with the lexicon's and vocabulary's lists, for every caller: the offline
//! answer, the figures lead and the desktop's ask.

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
            reason: crate::search::asks_why(question),
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
