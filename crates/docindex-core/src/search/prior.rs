//! Section priors: where in a filing a kind of question is answered. A question asking why a
//! figure moved, or how it moved ("how fast is Azure growing?", "how did iPhone do?"), is
//! answered by management's discussion of its results (MD&A; a 20-F's operating and
//! financial review), which the SEC requires to explain material changes, and not by the
//! risk factors, which say what might happen rather than what did.

pub use crate::question::{asks_about_results, asks_how_it_moved, asks_why};
use crate::structure::patterns::{is_results_discussion_title, is_risk_factors_title};

/// How much more a passage of the results discussion weighs for a why-question (and how much
/// less one of the risk factors weighs). Measured with `docindex eval` over 1.3, 1.6 and
/// 2.0: 1.3 moves too few questions, 1.6 and 2.0 the same ones.
pub const EXPLANATION_WEIGHT: f64 = 1.6;

/// The prior of a section for a why-question, from its own title and its ancestors' (in any
/// order): [`EXPLANATION_WEIGHT`] inside the results discussion, its inverse inside the risk
/// factors, 1 elsewhere.
pub fn explanation_prior<'a>(titles: impl IntoIterator<Item = &'a str>) -> f64 {
    let mut prior = 1.0;
    for title in titles {
        if is_results_discussion_title(title) {
            return EXPLANATION_WEIGHT;
        }
        if is_risk_factors_title(title) {
            prior = 1.0 / EXPLANATION_WEIGHT;
        }
    }
    prior
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_asks_why_by_its_words_not_by_its_topic() {
        for q in [
            "Why did MGM's operating profit collapse in Q2 2023?",
            "What drove Tesla's operating margin compression in 2023?",
            "What's behind the revenue growth at MGM China?",
            "Which part of the business was the weak spot, and what went wrong there?",
            "Which segment drove the top-line growth?",
        ] {
            assert!(asks_why(q), "{q}");
        }
        for q in [
            "What was Nike's revenue in fiscal 2023?",
            "How much did JPMorgan spend on buybacks?",
            "Is there a material litigation overhang at JPMorgan?",
        ] {
            assert!(!asks_why(q), "{q}");
        }
    }

    #[test]
    fn a_question_asks_how_a_figure_moved_by_its_words() {
        for q in [
            "How fast is Azure growing?",
            "How did Nike do in China in fiscal 2023?",
            "How is MGM's Macau business recovering?",
            "Did Apple's China sales grow in the June 2023 quarter?",
            "How much did Apple's wearables business shrink in fiscal 2024?",
        ] {
            assert!(asks_how_it_moved(q), "{q}");
            assert!(asks_about_results(q), "{q}");
        }
        for q in [
            "How much did Tesla spend on R&D in 2023?",
            "Who is Cabot's auditor?",
            "What do they do?",
            "How big is Apple's services business?",
            "How big is Microsoft's remaining performance obligation?",
        ] {
            assert!(!asks_how_it_moved(q), "{q}");
        }
    }

    #[test]
    fn the_results_discussion_weighs_more_and_the_risk_factors_less() {
        assert_eq!(
            explanation_prior([
                "PART II",
                "ITEM 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
                "Results of Operations",
            ]),
            EXPLANATION_WEIGHT
        );
        assert_eq!(
            explanation_prior([
                "Item 5. Operating and Financial Review and Prospects (part 2 of 6)"
            ]),
            EXPLANATION_WEIGHT
        );
        assert_eq!(
            explanation_prior(["Item 2. Management’s Discussion and Analysis"]),
            EXPLANATION_WEIGHT
        );
        assert_eq!(
            explanation_prior([
                "Item 1A. Risk Factors",
                "Our global business exposes us to risks."
            ]),
            1.0 / EXPLANATION_WEIGHT
        );
        assert_eq!(
            explanation_prior(["Item 8. Financial Statements", "Note 2"]),
            1.0
        );
        assert_eq!(
            explanation_prior(["ITEM 7A. Quantitative and Qualitative Disclosures"]),
            1.0
        );
        assert_eq!(explanation_prior(["ITEM 7."]), EXPLANATION_WEIGHT);
        // A 20-F's Item 7 is its shareholders, not its discussion of results.
        assert_eq!(
            explanation_prior(["Item 7.  Major Shareholders and Related Party Transactions"]),
            1.0
        );
    }
}
