//! Library-wide questions that name companies, offline, over real filings: each named
//! company answered from its own filing, a company the library lacks said to be missing,
//! no citation from a company the question does not name; comparisons as cited tables with
//! their differences; a company's filings compared with each other; filings listed by
//! topic; files ranked by their sections' votes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{docindex, fixture, json};
use serde_json::Value;
use std::path::Path;

const APPLE: &str = "apple_10-K_FY2024_0000320193-24-000123.html";
const TESLA: &str = "tesla_10-K_FY2023_0001628280-24-002390.html";
const APPLE_10Q: &str = "apple_10-Q_Q3FY2023_0000320193-23-000077.html";
const BUCKLE: &str = "buckle_8-K_2024-11-22.html";

fn ask(lib: &Path, question: &str) -> Value {
    json(docindex(lib).args(["--json", "ask", question]))
}

fn cited_documents(answer: &Value) -> Vec<String> {
    let mut docs: Vec<String> = answer["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["doc_name"].as_str().unwrap().to_string())
        .collect();
    docs.sort();
    docs.dedup();
    docs
}

#[test]
fn questions_naming_companies_are_answered_from_each_companys_own_filing() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    docindex(&lib)
        .arg("index")
        .args([
            fixture(APPLE),
            fixture(TESLA),
            fixture(BUCKLE),
            fixture(APPLE_10Q),
        ])
        .assert()
        .success();

    let compared = ask(
        &lib,
        "Which company had higher total revenues in its latest fiscal year, Apple or Tesla, and by how much?",
    );
    assert_eq!(cited_documents(&compared), [APPLE, TESLA], "{compared}");
    let text = compared["answer"].as_str().unwrap();
    assert!(
        text.contains("Apple Inc.:") && text.contains("Tesla, Inc.:"),
        "{text}"
    );
    assert!(
        text.contains("391,035") && text.contains("96,773"),
        "{text}"
    );
    // The comparison: a row per company, each cell cited to a row that prints it, and the
    // difference worked out from the two cells.
    let table = &compared["comparison"];
    let rows = table["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{table}");
    for (row, shown, doc) in [(&rows[0], "391,035", APPLE), (&rows[1], "96,773", TESLA)] {
        let cell = &row["cells"][0];
        assert_eq!(cell["shown"], shown, "{row}");
        assert_eq!(cell["doc_name"], doc);
        let row_marker = cell["markers"].as_array().unwrap().last().unwrap().clone();
        let citation = compared["citations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["marker"] == row_marker)
            .unwrap();
        assert!(
            citation["excerpt"].as_str().unwrap().contains(shown),
            "{citation}"
        );
    }
    let difference = &table["differences"][0];
    assert_eq!(difference["shown"], "294,262", "{difference}");
    assert_eq!(difference["first"], "Apple Inc.");
    assert!(
        text.contains("larger than Tesla, Inc.'s by 294,262"),
        "{text}"
    );
    // Streamed part by part, the terminal shows exactly the answer's text.
    let streamed = docindex(&lib)
        .args([
            "ask",
            "Which company had higher total revenues in its latest fiscal year, Apple or Tesla, and by how much?",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&streamed.stdout).starts_with(text));
    let used = compared["documents"].as_array().unwrap();
    assert_eq!(used.len(), 2, "{used:?}");
    assert!(used[0]["why"]
        .as_str()
        .unwrap()
        .contains("the question names Apple Inc."));

    // One company's filings compared with each other: a row per filing, and the change.
    let change = ask(
        &lib,
        "How did Apple's cash and cash equivalents change between the 10-Q and the 10-K?",
    );
    assert_eq!(cited_documents(&change), [APPLE, APPLE_10Q], "{change}");
    let rows = change["comparison"]["rows"].as_array().unwrap();
    let labels: Vec<&str> = rows.iter().map(|r| r["label"].as_str().unwrap()).collect();
    assert!(
        labels[0].contains("10-Q") && labels[1].contains("10-K"),
        "{labels:?}"
    );
    let shown: Vec<&str> = rows
        .iter()
        .map(|r| r["cells"][0]["shown"].as_str().unwrap())
        .collect();
    assert_eq!(shown, ["$28,408", "$29,943"], "{change}");
    let text = change["answer"].as_str().unwrap();
    assert!(text.contains("rose by 1,535 (in millions)"), "{text}");

    // Names as people write them: a ticker, a possessive, "Inc" without its comma.
    let by_ticker = ask(&lib, "TSLA total revenues 2023");
    assert_eq!(cited_documents(&by_ticker), [TESLA], "{by_ticker}");

    // A company the library lacks: said so, and nothing from anyone else's filing.
    let absent = ask(&lib, "What was Coca-Cola's operating income in 2023?");
    assert!(cited_documents(&absent).is_empty(), "{absent}");
    let text = absent["answer"].as_str().unwrap();
    assert!(text.contains("no filing for Coca-Cola"), "{text}");

    // One named company present and one absent: the present one answered, only from its own.
    let mixed = ask(&lib, "Did Alphabet or Apple have more total net sales?");
    assert_eq!(cited_documents(&mixed), [APPLE], "{mixed}");
    assert!(mixed["answer"]
        .as_str()
        .unwrap()
        .contains("no filing for Alphabet"));
}

#[test]
fn filings_are_listed_by_topic_and_ranked_by_their_sections_votes() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    docindex(&lib)
        .arg("index")
        .args([fixture(APPLE), fixture(TESLA), fixture(BUCKLE)])
        .assert()
        .success();

    // Every filing that mentions the topic, each with a cited sentence naming it.
    let listed = ask(&lib, "Which filings mention cybersecurity?");
    assert_eq!(cited_documents(&listed), [APPLE, TESLA], "{listed}");
    for citation in listed["citations"].as_array().unwrap() {
        let excerpt = citation["excerpt"].as_str().unwrap().to_lowercase();
        assert!(excerpt.contains("cybersecurity"), "{excerpt}");
    }
    let text = listed["answer"].as_str().unwrap();
    assert!(text.starts_with("2 of the 3 filing(s) searched"), "{text}");
    assert!(listed["documents"][0]["votes"].as_f64().unwrap() > 0.0);

    // Files ranked by votes, with the sections that voted; the weights are the user's.
    let vote = |weights: &str| -> Value {
        let out = docindex(&lib)
            .args(["--json", "--vote-weights", weights, "search", "--files"])
            .arg("cybersecurity risk management")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let files = vote("summary=1.5,text=1.0");
    let files = files.as_array().unwrap();
    assert!(files.len() >= 2, "{files:?}");
    let first = &files[0]["vote"];
    let total = first["total"].as_f64().unwrap();
    let parts = first["summary_votes"].as_f64().unwrap() + first["text_votes"].as_f64().unwrap();
    assert!((total - parts).abs() < 1e-9, "{first}");
    assert!(!first["nodes"].as_array().unwrap().is_empty());
    // No weight on summaries: the summary votes vanish.
    let text_only = vote("summary=0,text=1");
    for file in text_only.as_array().unwrap() {
        assert_eq!(file["vote"]["summary_votes"].as_f64().unwrap(), 0.0);
    }
    // A malformed weight is the user's error, named.
    let out = docindex(&lib)
        .args([
            "--vote-weights",
            "title=2",
            "search",
            "--files",
            "cybersecurity",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("`title` is not summary or text"));
}
