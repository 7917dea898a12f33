//! Narrative and judgment questions on a real filing: a judgment gets its verdict first,
//! worked out over every year the statements print and cited to their cells; a why-question
//! quotes the sentence that gives the drivers; a refusal says which sections were read.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_app::search::SearchRequest;
use docindex_app::Library;
use docindex_core::charmap::CharMap;
use docindex_core::qa::{Answer, ConfidenceLabel};
use docindex_core::search::LegKind;
use docindex_core::IndexSettings;
use std::path::PathBuf;

const APPLE: &str = "apple_10-K_FY2024_0000320193-24-000123.html";
const TESLA: &str = "tesla_10-K_FY2023_0001628280-24-002390.html";

fn library_of(files: &[&str]) -> (tempfile::TempDir, Library) {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let paths: Vec<PathBuf> = files
        .iter()
        .map(|f| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/fixtures")
                .join(f)
        })
        .collect();
    for report in library.index_paths(&paths, 1, &|_| {}).unwrap() {
        report.result.unwrap();
    }
    (dir, library)
}

fn library() -> (tempfile::TempDir, Library) {
    library_of(&[APPLE])
}

/// Ask offline within Apple's filing; every citation must be exactly its span of the text.
fn ask(library: &Library, question: &str) -> Answer {
    ask_of(library, APPLE, question)
}

fn ask_of(library: &Library, doc: &str, question: &str) -> Answer {
    let mut request = SearchRequest::new(question);
    request.scope.doc = Some(doc.to_string());
    request.without = vec![LegKind::Dense];
    let answer = library.ask(question, &request, &|_| {}).unwrap();
    let stored = library.document(doc).unwrap();
    let map = CharMap::new(&stored.text);
    for c in &answer.citations {
        let span = docindex_core::model::Span {
            start_char: c.start_char,
            end_char: c.end_char,
        };
        assert_eq!(map.slice(span), c.excerpt);
    }
    answer
}

#[test]
fn judgments_lead_with_their_verdict_over_every_year_printed() {
    let (_dir, library) = library();

    // Gross margin 43.31% → 44.13% → 46.21% (gross margin ÷ net sales, fiscal 2022–2024).
    let trend = ask(&library, "Is Apple's gross margin improving?");
    assert!(
        trend.answer.starts_with("Yes, improving"),
        "{}",
        trend.answer
    );
    for figure in ["43.31%", "44.13%", "46.21%"] {
        assert!(trend.answer.contains(figure), "{figure}: {}", trend.answer);
    }
    assert!(
        trend.unsupported_numbers.is_empty(),
        "{:?}",
        trend.unsupported_numbers
    );
    // The cells are cited: the statement's net sales and gross margin rows.
    assert!(trend
        .citations
        .iter()
        .any(|c| c.excerpt.contains("391,035")));

    // Operating margin 30.29%, 29.82%, 31.51%: within a band of 2 points, not of 1.
    let within_two = ask(
        &library,
        "Has Apple's operating margin been consistent within 2% over the last three years?",
    );
    assert!(
        within_two.answer.starts_with("Yes, consistent"),
        "{}",
        within_two.answer
    );
    let within_one = ask(
        &library,
        "Was Apple's operating margin stable within 1 percentage point over the three years?",
    );
    assert!(
        within_one.answer.starts_with("No, not consistent"),
        "{}",
        within_one.answer
    );

    // Current ratio 152,987 ÷ 176,392 = 0.87: under 1.
    let liquidity = ask(&library, "Does Apple have a healthy liquidity profile?");
    assert!(
        liquidity.answer.starts_with("No, weak"),
        "{}",
        liquidity.answer
    );
    assert!(liquidity.answer.contains("0.87"), "{}", liquidity.answer);

    // Capex 9,447 of net sales 391,035 (2.4%); PP&E 45,680 of total assets 364,980 (12.5%).
    let capital = ask(&library, "Is Apple a capital-intensive business?");
    assert!(
        capital.answer.starts_with("No, not capital-intensive"),
        "{}",
        capital.answer
    );
}

#[test]
fn the_verdict_answers_the_sense_asked_in_any_wording_on_another_filing() {
    let (_dir, library) = library_of(&[TESLA]);
    // Gross margin 25.28% → 25.60% → 18.25% (fiscal 2021–2023): down overall, up once.
    let deteriorating = ask_of(
        &library,
        TESLA,
        "Has Tesla's gross margin been deteriorating?",
    );
    assert!(
        deteriorating
            .answer
            .starts_with("Yes, declining overall (mixed)"),
        "{}",
        deteriorating.answer
    );
    let down = ask_of(&library, TESLA, "Is Tesla's gross margin trending down?");
    assert!(
        down.answer.starts_with("Yes, declining overall (mixed)"),
        "{}",
        down.answer
    );
    let improving = ask_of(&library, TESLA, "Is Tesla's gross margin improving?");
    assert!(
        improving
            .answer
            .starts_with("No, declining overall (mixed)"),
        "{}",
        improving.answer
    );
    let trend = ask_of(
        &library,
        TESLA,
        "What is the trend in Tesla's operating margin over 2021-2023?",
    );
    assert!(
        trend.answer.starts_with("Declining overall (mixed)"),
        "{}",
        trend.answer
    );
    for figure in ["12.12%", "16.76%", "9.19%"] {
        assert!(trend.answer.contains(figure), "{figure}: {}", trend.answer);
    }
    // Current ratio 1.73 at the end of 2023, quick ratio 1.25.
    let liquidity = ask_of(&library, TESLA, "How healthy is Tesla's liquidity?");
    assert!(
        liquidity.answer.starts_with("Healthy"),
        "{}",
        liquidity.answer
    );
    // A verdict rests on the balance sheet's rows, never a note's table of the same words
    // (the fair-value table's commercial paper is not Tesla's debt).
    let levered = ask_of(&library, TESLA, "Is Tesla highly levered?");
    assert!(
        !levered
            .citations
            .iter()
            .any(|c| c.excerpt.starts_with("Commercial paper")),
        "{}",
        levered.answer
    );
}

#[test]
fn a_description_question_quotes_the_opening_of_the_business_section() {
    let (_dir, library) = library_of(&[APPLE, TESLA]);
    let apple = ask_of(&library, APPLE, "What does Apple do?");
    assert!(
        apple
            .answer
            .starts_with("The Company designs, manufactures and markets smartphones"),
        "{}",
        apple.answer
    );
    // Another filing, another wording; a line item named ("sales") asks no figure here.
    let tesla = ask_of(
        &library,
        TESLA,
        "Describe Tesla's business model and how it sells, in a sentence or two.",
    );
    assert!(
        tesla
            .answer
            .starts_with("We design, develop, manufacture, sell and lease"),
        "{}",
        tesla.answer
    );
    assert!(tesla.figures.is_empty(), "{}", tesla.answer);
}

#[test]
fn a_why_question_quotes_the_sentence_that_gives_the_drivers() {
    let (_dir, library) = library();
    // Asked outright, or as a stated fact and a question pointing back at it ("What drove
    // it?" alone names nothing; the sentence before it says what fell).
    for question in [
        "Why did Apple's Greater China sales fall in fiscal 2024?",
        "Apple's Greater China sales fell in fiscal 2024. What drove it?",
        "Greater China net sales declined in 2024. Why?",
    ] {
        let answer = ask(&library, question);
        assert!(answer.answered, "{question}: {}", answer.answer);
        assert!(
            answer.citations.iter().any(|c| c
                .excerpt
                .contains("Greater China net sales decreased during 2024 compared to 2023")),
            "{question}: {}",
            answer.answer
        );
    }
}

#[test]
fn the_filings_words_answer_a_narrative_question_at_medium_at_most() {
    let (_dir, library) = library();
    for question in [
        "Where are Apple's products manufactured?",
        "Why did Apple's Greater China sales fall in fiscal 2024?",
        "What legal proceedings is Apple involved in?",
        "What does Apple expect for its gross margin going forward?",
    ] {
        let answer = ask(&library, question);
        assert!(answer.answered, "{question}: {}", answer.answer);
        assert_ne!(
            answer.confidence.label,
            ConfidenceLabel::High,
            "{question}: {}",
            answer.answer
        );
    }
}

#[test]
fn a_refusal_says_which_sections_were_read() {
    let (_dir, library) = library();
    let answer = ask(
        &library,
        "What price per barrel of crude oil does the company assume in its reserve estimates?",
    );
    assert!(!answer.answered, "{}", answer.answer);
    assert!(answer.answer.contains("do not appear to answer"));
    assert!(
        answer.answer.contains("Sections read: "),
        "{}",
        answer.answer
    );
    assert!(answer.citations.is_empty());
}

#[test]
fn an_employee_count_is_answered_by_the_sentence_that_states_the_number() {
    let (_dir, library) = library();
    // "count" asks the number; the filing states it without the word.
    let answer = ask(
        &library,
        "What was Apple's employee count at the end of fiscal 2024?",
    );
    assert!(
        answer.answer.starts_with(
            "As of September 28, 2024, the Company had approximately 164,000 full-time equivalent employees."
        ),
        "{}",
        answer.answer
    );
    assert_eq!(answer.confidence.label, ConfidenceLabel::Medium);
}

#[test]
fn guidance_is_answered_by_the_filings_expectation_not_last_years_row() {
    let (_dir, library) = library_of(&[TESLA]);
    let answer = ask_of(
        &library,
        TESLA,
        "What does Tesla expect its capital expenditures to be in 2024?",
    );
    assert!(
        answer.answer.contains(
            "we currently expect our capital expenditures to exceed $10.00 billion in 2024"
        ),
        "{}",
        answer.answer
    );
    // The cash flow statement's 2023 capex is not the answer to an outlook question.
    assert!(!answer.answer.contains("8,898"), "{}", answer.answer);
}

#[test]
fn the_culprits_of_a_stated_move_are_its_drivers() {
    let (_dir, library) = library_of(&[TESLA]);
    let [culprits, drivers] = [
        "Tesla's gross margin fell sharply in 2023. What were the main culprits?",
        "Tesla's gross margin fell sharply in 2023. What drove it?",
    ]
    .map(|question| ask_of(&library, TESLA, question));
    // Asked either way, the premise is searched and the reasons the filing gives are quoted.
    for answer in [&culprits, &drivers] {
        assert!(answer.answered, "{}", answer.answer);
        assert!(answer.answer.contains("18.2%"), "{}", answer.answer);
        assert!(
            answer
                .citations
                .iter()
                .any(|c| c.excerpt.contains("driven by") || c.excerpt.contains("due to")),
            "{}",
            answer.answer
        );
    }
}
