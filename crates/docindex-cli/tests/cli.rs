//! End-to-end tests of the `docindex` binary on real filings and bad files.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{docindex, fixture, json};

#[test]
fn batch_with_bad_files_indexes_the_good_ones_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let empty = dir.path().join("empty.htm");
    std::fs::write(&empty, b"").unwrap();
    let binary = dir.path().join("junk.txt");
    std::fs::write(&binary, [0u8, 159, 146, 150, 0, 1, 2, 3]).unwrap();
    let sheet = dir.path().join("model.xlsx");
    std::fs::write(&sheet, b"not a filing").unwrap();
    let missing = dir.path().join("missing.htm");

    // First a good library state.
    docindex(&lib)
        .arg("index")
        .arg(fixture("oracle_8-K_2024-11-14_item5.07.html"))
        .assert()
        .success();
    let out = docindex(&lib)
        .arg("index")
        .args([
            &empty,
            &binary,
            &sheet,
            &missing,
            &fixture("buckle_8-K_2024-11-22.html"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("empty.htm: the file is empty"), "{err}");
    assert!(err.contains("junk.txt: the file is binary"), "{err}");
    assert!(err.contains("model.xlsx: unsupported format"), "{err}");
    assert!(err.contains("missing.htm: cannot read the file"), "{err}");
    assert!(err.contains("4 of 5 file(s) failed"), "{err}");
    let list = json(docindex(&lib).args(["list", "--json"]));
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["doc_name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        vec![
            "buckle_8-K_2024-11-22.html",
            "oracle_8-K_2024-11-14_item5.07.html"
        ]
    );

    // A file over the configured limit is refused with its size and the limit.
    let out = docindex(&lib)
        .args(["--max-bytes", "1000", "index"])
        .arg(fixture("apple_10-Q_Q3FY2023_0000320193-23-000077.html"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("over the configured limit of 1000 bytes")
    );

    // Re-indexing the same bytes is a no-op.
    let again = json(
        docindex(&lib)
            .args(["--json", "index"])
            .arg(fixture("buckle_8-K_2024-11-22.html")),
    );
    assert_eq!(again[0]["outcome"]["status"], "unchanged");
}

#[test]
fn show_prints_exactly_the_span_of_every_node() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    docindex(&lib)
        .arg("index")
        .arg(fixture("apple_10-Q_Q3FY2023_0000320193-23-000077.html"))
        .assert()
        .success();
    let doc = "apple_10-Q_Q3FY2023_0000320193-23-000077";
    let export = json(docindex(&lib).args(["export", doc, "--format", "native", "--with-text"]));
    let text: Vec<char> = export["text"].as_str().unwrap().chars().collect();
    fn walk(nodes: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
        for n in nodes.as_array().unwrap() {
            out.push(n.clone());
            walk(&n["nodes"], out);
        }
    }
    let mut nodes = Vec::new();
    walk(&export["structure"], &mut nodes);
    assert!(nodes.len() > 20);
    for n in nodes.iter().step_by(7) {
        let (s, e) = (
            n["start_char"].as_u64().unwrap() as usize,
            n["end_char"].as_u64().unwrap() as usize,
        );
        let expected: String = text[s..e].iter().collect();
        let shown =
            json(docindex(&lib).args(["--json", "show", doc, n["node_id"].as_str().unwrap()]));
        assert_eq!(shown["text"].as_str().unwrap(), expected);
        assert_eq!(n["text"].as_str().unwrap(), expected);
    }
    assert_eq!(export["metadata"]["ticker"], "AAPL");
    let pageindex = json(docindex(&lib).args(["export", doc, "--format", "pageindex"]));
    assert!(pageindex["structure"][0]["node_id"].is_string());
    let unknown = docindex(&lib).args(["show", doc, "9999"]).output().unwrap();
    assert_eq!(unknown.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("has no node '9999'"));
}

#[test]
fn a_changed_file_replaces_its_entry() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let file = dir.path().join("notes.md");
    std::fs::write(
        &file,
        "# First\n\nAlpha text here.\n\n## Second\n\nBeta text.\n",
    )
    .unwrap();
    docindex(&lib).arg("index").arg(&file).assert().success();
    std::fs::write(
        &file,
        "# First\n\nAlpha text changed.\n\n## Second\n\nBeta text.\n",
    )
    .unwrap();
    let out = json(docindex(&lib).args(["--json", "index"]).arg(&file));
    assert_eq!(out[0]["outcome"]["status"], "indexed");
    assert!(out[0]["outcome"]["replaced"].is_string());
    let list = json(docindex(&lib).args(["list", "--json"]));
    assert_eq!(list.as_array().unwrap().len(), 1);
    let shown = docindex(&lib)
        .args(["show", "notes", "0000"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&shown.stdout).contains("Alpha text changed."));
}

#[test]
fn a_pdf_indexes_with_pages_and_exports_pageindex_page_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let good = fixture("pdf/AMCOR_2022_8K_dated-2022-07-01.pdf");
    let locked = fixture("pdf/encrypted_amcor_8k.pdf");
    let out = docindex(&lib)
        .arg("index")
        .arg(&good)
        .arg(&locked)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "one file failed");
    let stderr =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        stderr.contains("encrypted_amcor_8k.pdf") && stderr.contains("password"),
        "{stderr}"
    );

    let docs = json(docindex(&lib).arg("--json").arg("list"));
    let docs = docs.as_array().unwrap();
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0]["format"], "pdf");
    assert_eq!(docs[0]["page_count"], 9);

    let tree = json(docindex(&lib).args([
        "export",
        "AMCOR_2022_8K_dated-2022-07-01",
        "--format",
        "pageindex",
    ]));
    let first = &tree["structure"][0];
    assert_eq!(first["start_index"], 1);
    assert!(first.get("line_num").is_none());
    let item = tree["structure"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["title"].as_str().unwrap().starts_with("Item 8.01"))
        .unwrap();
    assert_eq!(item["start_index"], 2);
    assert_eq!(item["end_index"], 2);

    let native =
        json(docindex(&lib).args(["export", "AMCOR_2022_8K_dated-2022-07-01", "--with-text"]));
    let text: Vec<char> = native["text"].as_str().unwrap().chars().collect();
    let pages = native["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 9);
    let page2 = &pages[1]["span"];
    let page2_text: String = text[page2["start_char"].as_u64().unwrap() as usize
        ..page2["end_char"].as_u64().unwrap() as usize]
        .iter()
        .collect();
    assert!(
        page2_text.starts_with("Item 8.01 Other Events."),
        "{page2_text}"
    );
}

#[test]
fn links_to_exhibits_are_checked_against_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    docindex(&lib)
        .arg("index")
        .arg(fixture("buckle_8-K_2024-11-22.html"))
        .assert()
        .success();
    let links = json(docindex(&lib).args(["--json", "links", "buckle_8-K_2024-11-22"]));
    let exhibit = links
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["text"] == "Exhibit 99.1")
        .unwrap()
        .clone();
    assert_eq!(exhibit["status"], "absent");
    docindex(&lib)
        .arg("index")
        .arg(fixture("buckle_8-K_2024-11-22_EX-99.1_press_release.html"))
        .assert()
        .success();
    let links = json(docindex(&lib).args(["--json", "links", "buckle_8-K_2024-11-22"]));
    let exhibit = links
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["text"] == "Exhibit 99.1")
        .unwrap();
    assert_eq!(exhibit["status"], "in_library");
    assert_eq!(
        exhibit["doc_name"],
        "buckle_8-K_2024-11-22_EX-99.1_press_release.html"
    );
}

#[test]
fn search_json_carries_spans_pages_and_text_and_dense_joins_after_embed() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    docindex(&lib)
        .arg("index")
        .arg(fixture("pdf/AMCOR_2022_8K_dated-2022-07-01.pdf"))
        .assert()
        .success();
    let results = json(docindex(&lib).args([
        "--json",
        "search",
        "guaranteed senior notes",
        "--limit",
        "3",
    ]));
    assert_eq!(results["legs"], serde_json::json!(["lexical", "titles"]));
    let hits = results["hits"].as_array().unwrap();
    assert!(!hits.is_empty());
    for hit in hits {
        for field in [
            "doc_id",
            "doc_name",
            "node_id",
            "title",
            "score",
            "start_char",
            "end_char",
            "start_page",
            "end_page",
            "text",
        ] {
            assert!(!hit[field].is_null(), "{field} missing in {hit}");
        }
        let shown = docindex(&lib)
            .args([
                "show",
                hit["doc_id"].as_str().unwrap(),
                hit["node_id"].as_str().unwrap(),
            ])
            .output()
            .unwrap();
        let shown = String::from_utf8(shown.stdout).unwrap();
        assert_eq!(
            shown.trim_end_matches('\n'),
            hit["text"].as_str().unwrap().trim_end_matches('\n')
        );
    }
    let out = docindex(&lib).arg("embed").output().unwrap();
    assert!(out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("embedded"), "{log}");
    // Without a terminal, a line per document, each naming it.
    assert!(log.contains("  embedding AMCOR_2022_8K"), "{log}");
    assert!(log.lines().all(|l| l.trim() != "embedding"), "{log}");
    let results = json(docindex(&lib).args(["--json", "search", "guaranteed senior notes"]));
    assert_eq!(
        results["legs"],
        serde_json::json!(["lexical", "titles", "dense"])
    );
}

#[test]
fn small_defects_a_new_user_meets_are_gone() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    // Boolean environment variables take 1/0, yes/no, on/off as well as true/false.
    for value in ["1", "yes", "on", "true"] {
        docindex(&lib)
            .env("DOCINDEX_SKIP_EMBED", value)
            .arg("index")
            .arg(fixture("buckle_8-K_2024-11-22.html"))
            .assert()
            .success();
    }
    // The help says PDFs are read, and every verb has its own description.
    let help = docindex(&lib).arg("--help").output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("HTML, PDF, text, Markdown"), "{help}");
    let bench = help
        .lines()
        .find(|l| l.trim_start().starts_with("bench"))
        .unwrap();
    assert!(bench.contains("throughput"), "{bench}");
    let links = help
        .lines()
        .find(|l| l.trim_start().starts_with("links"))
        .unwrap();
    assert!(!links.contains("throughput"), "{links}");

    // A reader that closes the pipe early ends the command quietly, with success.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("docindex"))
        .arg("--library")
        .arg(&lib)
        .args(["tree", "buckle_8-K_2024-11-22.html"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");

    // An evaluation file that is neither set says so, naming the file.
    let bad = dir.path().join("set.json");
    std::fs::write(&bad, r#"[{"doc": "x"}]"#).unwrap();
    let out = docindex(&lib).arg("eval").arg(&bad).output().unwrap();
    // The file is the user's to fix: exit 1, as for any bad input.
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("set.json")
            && stderr.contains("neither a question list nor a provenance set"),
        "{stderr}"
    );
}
