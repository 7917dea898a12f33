//! Metric questions by family on the corpus 10-Ks (issue 45): the same figure asked five
//! ways gives one figure (metamorphic), a definition's precedence, averages of two balances
//! and of a metric over years, changes in analysts' shorthand, year-end against average
//! balances, a two-company comparison answered with its verdict first (each company in the
//! period the question writes for it), metrics named by their shape and analysts' shorthand.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_app::search::SearchRequest;
use docindex_app::Library;
use docindex_core::qa::Answer;
use docindex_core::search::LegKind;
use docindex_core::IndexSettings;
use std::path::PathBuf;
use std::sync::OnceLock;

const APPLE: &str = "apple_10-K_FY2024_0000320193-24-000123.html";
const TESLA: &str = "tesla_10-K_FY2023_0001628280-24-002390.html";

/// One library folder of both filings for every test of this file (indexing is the slow
/// part); each test opens its own connection to it.
fn library() -> Library {
    static FOLDER: OnceLock<tempfile::TempDir> = OnceLock::new();
    let folder = FOLDER.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
        let paths: Vec<PathBuf> = [APPLE, TESLA]
            .iter()
            .map(|f| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("../../tests/fixtures")
                    .join(f)
            })
            .collect();
        for report in library.index_paths(&paths, 2, &|_| {}).unwrap() {
            report.result.unwrap();
        }
        dir
    });
    Library::open(folder.path(), IndexSettings::default()).unwrap()
}

fn ask(question: &str, doc: Option<&str>) -> Answer {
    let mut request = SearchRequest::new(question);
    request.scope.doc = doc.map(str::to_string);
    request.without = vec![LegKind::Dense];
    library().ask(question, &request, &|_| {}).unwrap()
}

/// The figure the answer states first, after the lead's label ("Quick ratio for fiscal
/// 2024 [1]: 0.83 = …" → "0.83").
fn first_figure(answer: &Answer) -> String {
    let text = &answer.answer;
    let after = text
        .find("]: ")
        .map(|i| i + 3)
        .or_else(|| text.find(": ").map(|i| i + 2));
    let rest = &text[after.unwrap_or(0)..];
    rest.split([' ', ','])
        .next()
        .unwrap_or("")
        .trim_end_matches(['.', ';'])
        .to_string()
}

#[test]
fn one_metric_asked_five_ways_gives_one_figure() {
    // Apple FY2024: (152,987 − 7,286) ÷ 176,392 = 0.826.
    let wordings = [
        "What was Apple's quick ratio for fiscal 2024?",
        "What was Apple's FY2024 quick ratio, calculated as current assets minus inventories, divided by current liabilities?",
        "Using current assets less inventories over current liabilities, what was Apple's acid-test ratio in FY2024?",
        "Apple's quick ratio for fiscal 2024 (current assets minus inventories, divided by current liabilities), to two decimals?",
        "Compute Apple's acid test ratio at September 28, 2024.",
    ];
    for question in wordings {
        let answer = ask(question, Some(APPLE));
        assert_eq!(
            first_figure(&answer),
            "0.83",
            "{question}\n{}",
            answer.answer
        );
        assert!(!answer.citations.is_empty(), "{question}");
    }
}

#[test]
fn a_comma_scopes_the_division_over_the_difference_before_it() {
    // Read as A − B ÷ C this would be 152,987 − 7,286 ÷ 176,392 ≈ 152,987.
    let answer = ask(
        "What is Apple's FY2024 liquidity measure? Liquidity measure is defined as total current assets minus inventories, divided by total current liabilities.",
        Some(APPLE),
    );
    assert_eq!(first_figure(&answer), "0.83", "{}", answer.answer);
}

#[test]
fn two_balances_and_a_metric_over_years_are_averaged() {
    // (364,980 + 352,583) ÷ 2.
    for question in [
        "What were Apple's average total assets for fiscal 2024?",
        "Calculate the average of the opening and closing balance of Apple's total assets for FY24 (in $ millions).",
    ] {
        let answer = ask(question, Some(APPLE));
        assert!(
            answer.answer.contains("358,781") || answer.answer.contains("358,782"),
            "{question}\n{}",
            answer.answer
        );
    }
    // R&D ÷ revenue: 6.66% (2022), 7.80% (2023), 8.02% (2024); their mean 7.49%.
    let answer = ask(
        "What was Apple's 3-year average R&D as a % of revenue for FY2022-FY2024 (simple average of the annual ratios)?",
        Some(APPLE),
    );
    assert!(
        answer.answer.starts_with(
            "Average R&D as a share of revenue from fiscal 2022 to fiscal 2024: 7.49%"
        ),
        "{}",
        answer.answer
    );
}

#[test]
fn shorthand_changes_are_worked_out() {
    let answer = ask("What was Apple's FY24 minus FY23 revenue?", Some(APPLE));
    assert!(answer.answer.contains("7,750"), "{}", answer.answer);
    let answer = ask(
        "What was the percentage change in Apple's net sales from FY23 to FY24?",
        Some(APPLE),
    );
    assert!(answer.answer.contains("2.02%"), "{}", answer.answer);
}

#[test]
fn days_sales_outstanding_is_on_average_receivables_unless_year_end_is_asked() {
    // Apple's accounts receivable, net: 33,410 (2024), 29,508 (2023); net sales 391,035.
    let average = ask(
        "What was Apple's days sales outstanding in fiscal 2024?",
        Some(APPLE),
    );
    assert_eq!(first_figure(&average), "29.4", "{}", average.answer);
    let year_end = ask(
        "What was Apple's days sales outstanding on year-end receivables in fiscal 2024?",
        Some(APPLE),
    );
    assert_eq!(first_figure(&year_end), "31.2", "{}", year_end.answer);
}

#[test]
fn a_which_is_higher_comparison_opens_with_its_verdict() {
    // Gross margin as each filing prints it: Apple 46.2%, Tesla 18.2% (worked out: 46.21%
    // and 18.25%).
    let answer = ask(
        "Which had the higher gross margin in their latest fiscal years, Apple or Tesla?",
        None,
    );
    assert!(
        answer
            .answer
            .starts_with("Apple Inc.: 46.2% (2024) gross margin, against Tesla"),
        "{}",
        answer.answer
    );
    assert!(answer.answer.contains("18.2%"), "{}", answer.answer);
    // Their fiscal years differ (September 2024, December 2023): the verdict says so.
    assert!(
        answer.answer.contains("the periods differ"),
        "{}",
        answer.answer
    );
    let lower = ask(
        "Which company had the lower gross margin, Apple or Tesla, in their most recent fiscal years?",
        None,
    );
    assert!(lower.answer.starts_with("Tesla"), "{}", lower.answer);
}

#[test]
fn a_metric_named_by_its_shape_is_worked_out() {
    // Apple FY2024: operating income 123,216 ÷ net sales 391,035; cash from operations
    // 118,254 ÷ net income 93,736.
    let margin = ask(
        "What did Apple's operating profit percentage come to in FY2024?",
        Some(APPLE),
    );
    assert_eq!(first_figure(&margin), "31.51%", "{}", margin.answer);
    // Read from the metric's shape, not a name the table knows: shown, never firm.
    assert_ne!(
        margin.confidence.label,
        docindex_core::qa::ConfidenceLabel::High,
        "{}",
        margin.answer
    );
    let conversion = ask("Apple's CFO/NI for FY24?", Some(APPLE));
    assert_eq!(first_figure(&conversion), "1.26", "{}", conversion.answer);
}

#[test]
fn analysts_shorthand_is_read() {
    let liabilities = ask(
        "Off Apple's B/S, ttl current liabs at 9/28/24 in $mm?",
        Some(APPLE),
    );
    assert!(
        liabilities
            .answer
            .starts_with("Total current liabilities for fiscal 2024: $176,392 million"),
        "{}",
        liabilities.answer
    );
    let overheads = ask("Tesla SG&A exp. in '23?", Some(TESLA));
    assert!(
        overheads
            .answer
            .starts_with("Selling, general and administrative for fiscal 2023: $4,800 million"),
        "{}",
        overheads.answer
    );
}

#[test]
fn each_company_is_compared_in_the_period_written_before_its_name() {
    let answer = ask(
        "Which had the higher revenue for the years that ended Sep 28, 2024 (Apple) and Dec 31, 2023 (Tesla)?",
        None,
    );
    assert!(answer.answer.starts_with("Apple"), "{}", answer.answer);
    assert!(
        answer.answer.contains("(2024)") && answer.answer.contains("(2023)"),
        "{}",
        answer.answer
    );
}

#[test]
fn a_defined_metric_is_averaged_over_the_years_named() {
    // Apple: cost of sales ÷ net sales 56.69% (FY2022), 55.87% (FY2023), 53.79% (FY2024).
    let answer = ask(
        "What is the FY2022 - FY2024 3 year average of cost of sales as a % of revenue for Apple?",
        Some(APPLE),
    );
    assert!(
        answer
            .answer
            .starts_with("Average cost of sales as a % of revenue from fiscal 2022 to fiscal 2024"),
        "{}",
        answer.answer
    );
    assert!(
        answer
            .answer
            .contains(": 55.45% = (56.69% + 55.87% + 53.79%) / 3."),
        "{}",
        answer.answer
    );
}
