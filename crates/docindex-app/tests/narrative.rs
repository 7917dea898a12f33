//! Narrative and judgment questions on a real filing: a judgment gets its verdict first,
//! worked out over every year the statements print and cited to their cells; a why-question
//! quotes the sentence that gives the drivers; a refusal says which sections were read.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_app::search::SearchRequest;
use docindex_app::Library;
use docindex_core::charmap::CharMap;
use docindex_core::qa::Answer;
use docindex_core::search::LegKind;
use docindex_core::IndexSettings;
use std::path::PathBuf;

const APPLE: &str = "apple_10-K_FY2024_0000320193-24-000123.html";

fn library() -> (tempfile::TempDir, Library) {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(APPLE);
    for report in library.index_paths(&[path], 1, &|_| {}).unwrap() {
        report.result.unwrap();
    }
    (dir, library)
}

/// Ask offline within the filing; every citation must be exactly its span of the text.
fn ask(library: &Library, question: &str) -> Answer {
    let mut request = SearchRequest::new(question);
    request.scope.doc = Some(APPLE.to_string());
    request.without = vec![LegKind::Dense];
    let answer = library.ask(question, &request, &|_| {}).unwrap();
    let stored = library.document(APPLE).unwrap();
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
fn a_why_question_quotes_the_sentence_that_gives_the_drivers() {
    let (_dir, library) = library();
    let answer = ask(
        &library,
        "Why did Apple's Greater China sales fall in fiscal 2024?",
    );
    assert!(answer.answered);
    assert!(
        answer.citations.iter().any(|c| c
            .excerpt
            .contains("Greater China net sales decreased during 2024 compared to 2023")),
        "{}",
        answer.answer
    );
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
