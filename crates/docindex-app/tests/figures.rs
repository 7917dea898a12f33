//! Analysts' metric questions on real filings: the statement rows search pins, the metric
//! the offline answer computes from them, its citations (exact cells), and an operand that
//! is missing named rather than guessed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_app::search::{reading_order, SearchRequest};
use docindex_app::Library;
use docindex_core::charmap::CharMap;
use docindex_core::qa::{Answer, ConfidenceLabel};
use docindex_core::search::LegKind;
use docindex_core::IndexSettings;
use std::path::PathBuf;

const APPLE: &str = "apple_10-K_FY2024_0000320193-24-000123.html";
const TESLA: &str = "tesla_10-K_FY2023_0001628280-24-002390.html";

fn library(files: &[&str]) -> (tempfile::TempDir, Library) {
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
    for report in library.index_paths(&paths, 2, &|_| {}).unwrap() {
        report.result.unwrap();
    }
    (dir, library)
}

fn request(question: &str, doc: &str) -> SearchRequest {
    let mut r = SearchRequest::new(question);
    r.scope.doc = Some(doc.to_string());
    r.without = vec![LegKind::Dense];
    r
}

/// Ask offline and check what every answer must hold: each citation is exactly its span
/// of the stored text, and no figure in the answer lacks a cited cell or a computation.
fn check_answer(library: &Library, question: &str, doc: &str) -> Answer {
    let answer = library
        .ask(question, &request(question, doc), &|_| {})
        .unwrap();
    let stored = library.document(doc).unwrap();
    let map = CharMap::new(&stored.text);
    for c in &answer.citations {
        let span = docindex_core::model::Span {
            start_char: c.start_char,
            end_char: c.end_char,
        };
        assert_eq!(map.slice(span), c.excerpt);
    }
    assert!(
        answer.unsupported_numbers.is_empty(),
        "{:?} in {}",
        answer.unsupported_numbers,
        answer.answer
    );
    answer
}

#[test]
fn free_cash_flow_and_quick_ratio_are_computed_from_cited_statement_rows() {
    let (_dir, library) = library(&[APPLE]);
    let fcf = check_answer(
        &library,
        "What was Apple's free cash flow in fiscal 2024?",
        APPLE,
    );
    let computed = &fcf.computed[0];
    assert_eq!(computed.metric, "free_cash_flow");
    assert_eq!(computed.shown, "108,807");
    assert_eq!(computed.scale.as_deref(), Some("millions"));
    assert!(
        fcf.answer.starts_with("Free cash flow for"),
        "{}",
        fcf.answer
    );
    let cited: String = fcf.citations.iter().map(|c| c.excerpt.as_str()).collect();
    assert!(
        cited.contains("118,254") && cited.contains("9,447"),
        "{cited}"
    );
    assert_eq!(fcf.confidence.label, ConfidenceLabel::High);

    let quick = check_answer(
        &library,
        "What was Apple's quick ratio at the end of fiscal 2024?",
        APPLE,
    );
    assert_eq!(quick.computed[0].shown, "0.83");
    assert!(quick.computed[0].worked.contains("Inventories 7,286"));
}

#[test]
fn cash_returned_to_shareholders_is_buybacks_and_dividends_and_deferred_revenue_is_not_revenue() {
    let (_dir, library) = library(&[APPLE]);
    let returned = check_answer(
        &library,
        "How much cash did Apple return to shareholders in fiscal 2024?",
        APPLE,
    );
    let computed = returned
        .computed
        .iter()
        .find(|c| c.metric == "shareholder_returns")
        .unwrap();
    assert_eq!(computed.shown, "110,183");
    assert!(computed.worked.contains("94,949"), "{}", computed.worked);
    assert!(computed.worked.contains("15,234"), "{}", computed.worked);

    let results = library
        .search(&request(
            "How much deferred revenue does Apple carry?",
            APPLE,
        ))
        .unwrap();
    assert!(!results
        .expansion
        .equivalents
        .contains(&"net sales".to_string()));
    assert!(results
        .statement_rows
        .iter()
        .all(|r| r.matched.concept_id == "deferred_revenue"));
    assert!(results.statement_rows.iter().any(|r| r
        .matched
        .row
        .printed
        .first()
        .map(String::as_str)
        == Some("8,249")));
}

#[test]
fn search_hands_the_reader_the_statement_row_first() {
    let (_dir, library) = library(&[APPLE]);
    let results = library
        .search(&request("How much did Apple spend on capex?", APPLE))
        .unwrap();
    let first: Vec<&str> = reading_order(&results.hits, 3)
        .into_iter()
        .take(2)
        .map(|(_, p)| p.text.as_str())
        .collect();
    assert!(
        first
            .iter()
            .any(|t| t.starts_with("Payments for acquisition of property, plant and equipment")),
        "{first:?}"
    );
    // The headings that date its columns come with it.
    assert!(first.iter().any(|t| t.contains("2024")), "{first:?}");
}

#[test]
fn a_period_is_picked_from_the_columns_and_a_missing_operand_is_named() {
    let (_dir, library) = library(&[TESLA]);
    // Tesla tags its statement cells: the capex row of the cash flow statement is anchored
    // on PaymentsToAcquirePropertyPlantAndEquipment.
    let results = library
        .search(&request("What was Tesla's capex in 2023?", TESLA))
        .unwrap();
    assert!(results
        .statement_rows
        .iter()
        .any(|r| r.matched.concept_id == "capex" && r.matched.tagged));
    let days = check_answer(
        &library,
        "How many days of inventory did Tesla hold at the end of 2023?",
        TESLA,
    );
    // Held at the end of the year: on the year-end inventory, 13,626 ÷ 79,113 × 365.
    assert_eq!(days.computed[0].shown, "62.9 days", "{}", days.answer);
    let prior = check_answer(&library, "What was Tesla's free cash flow in 2022?", TESLA);
    assert_eq!(prior.computed[0].shown, "7,566", "{}", prior.answer);
    // A bank's ratio asked of a carmaker: nothing to compute it from, and nothing invented.
    let bank = check_answer(
        &library,
        "What was Tesla's efficiency ratio in 2023?",
        TESLA,
    );
    assert!(bank.computed.is_empty());
    assert!(
        bank.answer
            .contains("no statement row found for total noninterest expense"),
        "{}",
        bank.answer
    );
    assert_ne!(bank.confidence.label, ConfidenceLabel::High);
}

/// With a model: the operand rows reach it as sources and the computed value in the prompt;
/// its quotes of the rows become citations, and the computed value it repeats is not flagged.
#[test]
fn a_model_is_handed_the_operand_rows_and_its_computed_figure_is_supported() {
    use docindex_core::enhance::LlmOptions;
    use docindex_core::llm::LlmRequest;
    use docindex_core::testing::ScriptedLlm;
    use std::sync::{Arc, Mutex};
    let (_dir, mut library) = library(&[APPLE]);
    let text = library.document(APPLE).unwrap().text;
    let row = |label: &str| {
        text.lines()
            .find(|l| l.starts_with(label))
            .unwrap()
            .to_string()
    };
    let cash = row("Cash generated by operating activities |");
    let capex = row("Payments for acquisition of property, plant and equipment |");
    let prompts: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = prompts.clone();
    let capex_row = capex.clone();
    let reply = move |request: &LlmRequest| {
        let user = request
            .messages
            .last()
            .map(|m| m.content.clone())
            .unwrap_or_default();
        seen.lock().unwrap().push(user);
        if request.json {
            return Ok(r#"{"action": "answer", "node_ids": []}"#.to_string());
        }
        Ok(format!(
            "Free cash flow was 108,807 million [1], operating cash flow 118,254 less capex of 9,447 [2].\nSOURCES:\n[1] S1: \"{cash}\"\n[2] S1: \"{capex_row}\""
        ))
    };
    library.set_llm(
        Arc::new(ScriptedLlm::new("test/model", reply)),
        LlmOptions::default(),
    );
    let question = "What was Apple's free cash flow in fiscal 2024?";
    let answer = library
        .ask(question, &request(question, APPLE), &|_| {})
        .unwrap();
    let prompts = prompts.lock().unwrap();
    let answer_prompt = prompts
        .iter()
        .find(|p| p.contains("Figures the statement rows in the sources give"))
        .unwrap();
    assert!(answer_prompt.contains("108,807"), "{answer_prompt}");
    assert!(answer_prompt.contains(&capex), "{answer_prompt}");
    assert_eq!(answer.citations.len(), 2);
    assert_eq!(answer.computed[0].shown, "108,807");
    assert!(
        answer.unsupported_numbers.is_empty(),
        "{:?}",
        answer.unsupported_numbers
    );
}

#[test]
fn a_row_the_question_names_in_the_filings_words_is_stated_from_its_cells() {
    let (_dir, library) = library(&[TESLA, APPLE]);
    // "earn" is the concept table's net income; the row asked for is interest income.
    let interest = check_answer(
        &library,
        "How much interest income did Tesla earn in 2023?",
        TESLA,
    );
    assert!(
        interest.answer.starts_with(
            "Interest income for fiscal 2023: $1,066 million [1][2]. Interest income: 1,066"
        ),
        "{}",
        interest.answer
    );
    assert!(!interest.answer.contains("14,997"), "{}", interest.answer);
    assert!(interest.citations[..2]
        .iter()
        .any(|c| c.excerpt.contains("1,066")));
    // Matched by its words, not as the concept table's statement line: not HIGH.
    assert_eq!(interest.confidence.label, ConfidenceLabel::Medium);
    // Where the balance sheet prints current and non-current term debt, the note's total
    // answers "how much term debt".
    let debt = check_answer(
        &library,
        "How much term debt does Apple have outstanding?",
        APPLE,
    );
    assert!(
        debt.answer
            .starts_with("Total term debt for fiscal 2024: $96,662 million"),
        "{}",
        debt.answer
    );
}

/// A statement that prints no unit (Johnson & Johnson's says "(Dollars in Millions)" only
/// above the page) still has one: the scale its filer tagged the cells with. Asked in
/// billions, the figure is converted from it rather than left in an unknown unit.
#[test]
fn a_statements_unit_comes_from_its_tagged_scale_when_it_prints_none() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("untitled_10-K.html");
    let cell = |concept: &str, context: &str, value: &str| {
        format!(
            r#"<ix:nonFraction name="us-gaap:{concept}" contextRef="{context}" unitRef="usd" decimals="-6" scale="6" format="ixt:num-dot-decimal">{value}</ix:nonFraction>"#
        )
    };
    let html = format!(
        r#"<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body>
<p style="font-weight:bold">Consolidated Statements of Cash Flows</p>
<table>
<tr><td></td><td>2023</td><td>2022</td></tr>
<tr><td>Net earnings</td><td>{}</td><td>{}</td></tr>
<tr><td>Net cash flows from operating activities</td><td>{}</td><td>{}</td></tr>
</table>
<p>The accompanying notes are an integral part of these statements.</p>
</body></html>"#,
        cell("NetIncomeLoss", "FY2023", "35,153"),
        cell("NetIncomeLoss", "FY2022", "17,941"),
        cell(
            "NetCashProvidedByUsedInOperatingActivities",
            "FY2023",
            "22,791"
        ),
        cell(
            "NetCashProvidedByUsedInOperatingActivities",
            "FY2022",
            "21,194"
        ),
    );
    std::fs::write(&path, html).unwrap();
    let mut library = Library::open(&dir.path().join("lib"), IndexSettings::default()).unwrap();
    for report in library.index_paths(&[path], 1, &|_| {}).unwrap() {
        report.result.unwrap();
    }
    let doc = library.list().unwrap()[0].doc_id.clone();
    let answer = check_answer(
        &library,
        "What was cash from operations in 2023? Answer in USD billions.",
        &doc,
    );
    assert!(
        answer.answer.contains("$22.79 billion"),
        "{}",
        answer.answer
    );
}

#[test]
fn a_company_asked_of_a_year_is_answered_from_that_years_filing() {
    let dir = tempfile::tempdir().unwrap();
    // Two annual reports of one filer; each reports its year and the one before.
    let filing = |year: i32, this: &str, prior: &str| {
        format!(
            r#"<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body>
<p><ix:nonNumeric name="dei:EntityRegistrantName" contextRef="c">Quillfeather Instruments Corp</ix:nonNumeric></p>
<p>Annual report for fiscal year <ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="c">{year}</ix:nonNumeric></p>
<p style="font-weight:bold">Consolidated Statements of Operations</p>
<p>(In millions)</p>
<table>
<tr><td></td><td>{year}</td><td>{}</td></tr>
<tr><td>Total revenues</td><td>{this}</td><td>{prior}</td></tr>
</table>
<p>The accompanying notes are an integral part of these statements.</p>
</body></html>"#,
            year - 1
        )
    };
    let paths: Vec<PathBuf> = [(2022, "410", "380"), (2023, "455", "412")]
        .iter()
        .map(|(year, this, prior)| {
            let path = dir.path().join(format!("quillfeather_10-K_{year}.html"));
            std::fs::write(&path, filing(*year, this, prior)).unwrap();
            path
        })
        .collect();
    let mut library = Library::open(&dir.path().join("lib"), IndexSettings::default()).unwrap();
    for report in library.index_paths(&paths, 1, &|_| {}).unwrap() {
        report.result.unwrap();
    }
    // The 2023 filing restates 2022 as 412: asked of fiscal 2022, the 2022 filing's 410
    // is the figure; asked of 2023, the 2023 filing's.
    let ask = |question: &str| {
        let request = SearchRequest::new(question);
        library.ask(question, &request, &|_| {}).unwrap()
    };
    let answer = ask("What were Quillfeather's total revenues in fiscal 2022?");
    assert!(answer.answer.contains("410"), "{}", answer.answer);
    assert!(
        answer
            .documents
            .iter()
            .any(|d| d.doc_name.contains("2022") && d.why.contains("fiscal 2022")),
        "{:?}",
        answer.documents
    );
    let answer = ask("What were Quillfeather's total revenues in fiscal 2023?");
    assert!(answer.answer.contains("455"), "{}", answer.answer);
}
