//! Library-wide questions that name companies, offline, over real filings: each named
//! company answered from its own filing, a company the library lacks said to be missing,
//! and no citation from a company the question does not name.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

const APPLE: &str = "apple_10-K_FY2024_0000320193-24-000123.html";
const TESLA: &str = "tesla_10-K_FY2023_0001628280-24-002390.html";
const BUCKLE: &str = "buckle_8-K_2024-11-22.html";

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

fn docindex(lib: &Path) -> Command {
    let mut cmd = Command::cargo_bin("docindex").unwrap();
    cmd.arg("--library")
        .arg(lib)
        .env("DOCINDEX_SKIP_EMBED", "1")
        .env_remove("DOCINDEX_MODEL");
    cmd
}

fn ask(lib: &Path, question: &str) -> Value {
    let out = docindex(lib)
        .args(["--json", "ask", question])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
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
        .args([fixture(APPLE), fixture(TESLA), fixture(BUCKLE)])
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
