//! What a user can hand the CLI is bounded and shown safely: every numeric flag has a range
//! and a value outside it is refused with the range named (exit 1); a question, topic or
//! query past its length is refused before any work, the library untouched; a library path
//! that cannot be one is named (exit 1) and a read on a missing one makes none; a file's
//! name is printed with its control characters escaped.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{docindex, json, library_of};

const EIGHT_K: &str = "buckle_8-K_2024-11-22.html";

/// Runs `args` on `lib` and returns its exit code and standard error.
fn refused(lib: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = docindex(lib).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_numeric_flag_outside_its_range_is_refused_with_the_range_named() {
    let (_dir, lib) = library_of(&[EIGHT_K]);
    for (args, range) in [
        (
            vec!["search", "--limit", "18446744073709551615", "revenue"],
            "1..=1000",
        ),
        (
            vec!["search", "--limit", "2000000000", "revenue"],
            "1..=1000",
        ),
        (vec!["search", "--limit", "0", "revenue"], "1..=1000"),
        (vec!["index", "--jobs", "100000", "x.html"], "1..=256"),
        (vec!["provenance", "--threshold", "1.5", "revenue"], "0..=1"),
        (vec!["--max-node-tokens", "3", "list"], "64..=1000000"),
        (vec!["--max-pdf-seconds", "0", "list"], "1..=86400"),
        (
            vec!["ask", "--year", "99999", "What was revenue?"],
            "1900..=2100",
        ),
    ] {
        let (code, stderr) = refused(&lib, &args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(range), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // In range, the same flags work.
    let hits = json(docindex(&lib).args([
        "--json",
        "search",
        "--limit",
        "1000",
        "results of operations",
    ]));
    assert!(
        hits["hits"].as_array().is_some_and(|h| !h.is_empty()),
        "{hits}"
    );
}

#[test]
fn a_question_topic_or_query_past_its_length_is_refused_and_nothing_is_lost() {
    let (_dir, lib) = library_of(&[EIGHT_K]);
    let before = json(docindex(&lib).args(["--json", "list"]));
    let long = "What was net sales in the fourth quarter? ".repeat(250);
    for (args, what) in [
        (vec!["--offline", "ask", long.as_str()], "the question is"),
        (vec!["provenance", long.as_str()], "the topic is"),
        (vec!["search", long.as_str()], "the query is"),
    ] {
        let (code, stderr) = refused(&lib, &args);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(
            stderr.contains(what) && stderr.contains("at most"),
            "{stderr}"
        );
    }
    assert_eq!(json(docindex(&lib).args(["--json", "list"])), before);
}

#[test]
fn a_figure_no_filing_can_hold_is_refused_with_a_warning_at_indexing() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("library");
    let nines = "9".repeat(400);
    let filing = dir.path().join("acme_10-K_2023.html");
    std::fs::write(
        &filing,
        format!(
            "<html><body><p>FORM 10-K. Annual report for the fiscal year ended December 31, 2023.</p>\
             <h2>Item 8. Financial Statements and Supplementary Data</h2>\
             <p>CONSOLIDATED STATEMENTS OF OPERATIONS</p><p>(In millions)</p><table>\
             <tr><td>Year Ended December 31,</td><td>2023</td><td>2022</td></tr>\
             <tr><td>Total revenues</td><td><ix:nonFraction name=\"us-gaap:Revenues\" contextRef=\"c1\" \
             unitRef=\"usd\" scale=\"6\">{nines}</ix:nonFraction></td><td>1,000</td></tr>\
             </table></body></html>"
        ),
    )
    .unwrap();
    let out = docindex(&lib).arg("index").arg(&filing).output().unwrap();
    assert!(out.status.success());
    let printed =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        printed.contains("warning: the tagged figure us-gaap:Revenues")
            && printed.contains("has 400 digits"),
        "{printed}"
    );
    let answer = docindex(&lib)
        .args(["--offline", "ask", "--doc", "acme_10-K_2023"])
        .arg("What were total revenues in 2023?")
        .output()
        .unwrap();
    let answer = String::from_utf8_lossy(&answer.stdout);
    // No figure the filing does not print, and the 2022 cell is not passed off as 2023's.
    assert!(!answer.contains("18,446,744"), "{answer}");
    assert!(!answer.contains("fiscal 2023: $1,000"), "{answer}");
}

#[test]
fn a_library_path_that_cannot_be_one_is_named_and_a_read_makes_none() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-library");
    let (code, stderr) = refused(&missing, &["--offline", "ask", "What was revenue?"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("no library at"), "{stderr}");
    assert!(
        !missing.exists(),
        "a read made a library at {}",
        missing.display()
    );
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a library").unwrap();
    let (code, stderr) = refused(&file, &["list"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(
        stderr.matches("is a file, not a library folder").count(),
        1,
        "{stderr}"
    );
    let bad_set = dir.path().join("questions.json");
    std::fs::write(&bad_set, "{not json").unwrap();
    let lib = dir.path().join("library");
    std::fs::create_dir(&lib).unwrap();
    let (code, stderr) = refused(&lib, &["eval", bad_set.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("questions.json"), "{stderr}");
}

#[test]
fn a_file_name_is_printed_with_its_control_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("library");
    let name = "notes\u{1b}[31mred\u{7}.txt";
    let file = dir.path().join(name);
    std::fs::write(
        &file,
        "Item 1. Business\n\nWe make widgets and sell them.\n",
    )
    .unwrap();
    let out = docindex(&lib).arg("index").arg(&file).output().unwrap();
    let printed =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{printed}");
    assert!(
        !printed.contains('\u{1b}') && !printed.contains('\u{7}'),
        "{printed:?}"
    );
    assert!(printed.contains("notes\\u{1b}[31mred"), "{printed:?}");
    let listed = json(docindex(&lib).args(["--json", "list"]));
    let id = listed[0]["doc_id"].as_str().unwrap().to_string();
    let tree = docindex(&lib).args(["tree", &id]).output().unwrap();
    let tree = String::from_utf8_lossy(&tree.stdout);
    assert!(
        !tree.contains('\u{1b}') && tree.contains("\\u{1b}"),
        "{tree:?}"
    );
}
