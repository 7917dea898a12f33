//! PageIndex tree JSON brought into the library through the CLI: our own PageIndex export
//! imports back to the same tree with the same node texts; PageIndex's own example keeps
//! its pages and summaries and is searchable and citable; a tree without text says so;
//! malformed trees are refused naming the file and the field, and nothing is stored.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{docindex, fixture, json};
use serde_json::Value;

const APPLE_10Q: &str = "apple_10-Q_Q3FY2023_0000320193-23-000077.html";

/// (level, title, text) of every node, in pre-order, from a native export with text.
fn outline(export: &Value) -> Vec<(u64, String, String)> {
    fn walk(nodes: &Value, out: &mut Vec<(u64, String, String)>) {
        for n in nodes.as_array().unwrap() {
            out.push((
                n["level"].as_u64().unwrap(),
                n["title"].as_str().unwrap().to_string(),
                n["text"].as_str().unwrap().to_string(),
            ));
            walk(&n["nodes"], out);
        }
    }
    let mut out = Vec::new();
    walk(&export["structure"], &mut out);
    out
}

/// Every node of a nested `structure`, in pre-order.
fn flat_nodes(structure: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for n in structure.as_array().unwrap() {
        out.push(n.clone());
        out.extend(flat_nodes(&n["nodes"]));
    }
    out
}

#[test]
fn our_pageindex_export_imports_back_to_the_same_tree() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    docindex(&lib)
        .arg("index")
        .arg(fixture(APPLE_10Q))
        .assert()
        .success();
    let tree_file = dir.path().join("apple-10q.pageindex.json");
    docindex(&lib)
        .args([
            "export",
            APPLE_10Q,
            "--format",
            "pageindex",
            "--with-text",
            "-o",
        ])
        .arg(&tree_file)
        .assert()
        .success();

    let imported_lib = dir.path().join("imported");
    let rows = json(
        docindex(&imported_lib)
            .args(["--json", "import"])
            .arg(&tree_file),
    );
    assert_eq!(rows[0]["ok"], true, "{rows}");
    let native = json(docindex(&lib).args(["--json", "export", APPLE_10Q, "--with-text"]));
    let imported = json(docindex(&imported_lib).args([
        "--json",
        "export",
        "apple-10q.pageindex.json",
        "--with-text",
    ]));
    assert_eq!(imported["format"], "pageindex");
    let (before, after) = (outline(&native), outline(&imported));
    assert!(before.len() > 30, "{}", before.len());
    assert_eq!(before.len(), after.len());
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b, a);
    }

    // Searchable and citable like the filing: a figure is answered from the imported text.
    let answer = json(docindex(&imported_lib).args([
        "--json",
        "ask",
        "What were total net sales in the three months ended July 1, 2023?",
    ]));
    let citations = answer["citations"].as_array().unwrap();
    assert!(!citations.is_empty(), "{answer}");
    assert!(
        answer["answer"].as_str().unwrap().contains("81,797"),
        "{answer}"
    );
}

#[test]
fn pageindex_trees_keep_pages_and_summaries_and_bad_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    // PageIndex's own PDF example (seed 002), with node text.
    let example = dir.path().join("document.json");
    std::fs::write(
        &example,
        r#"{"doc_name": "document.pdf", "doc_description": "A supplier agreement.",
            "structure": [
              {"title": "Section 1", "start_index": 1, "end_index": 5, "node_id": "0000",
               "summary": "Terms of supply.",
               "text": "Section 1\n\nThe supplier ships 1,200 units each quarter.\n\nSection 1.1\n\nLate shipments carry a penalty of 4% of the order.",
               "nodes": [
                 {"title": "Section 1.1", "start_index": 2, "end_index": 3, "node_id": "0001",
                  "summary": "Penalties for late shipments.",
                  "text": "Section 1.1\n\nLate shipments carry a penalty of 4% of the order."}]}]}"#,
    )
    .unwrap();
    // A Markdown tree without node text.
    let bare = dir.path().join("bare.json");
    std::fs::write(
        &bare,
        r#"{"doc_name": "notes", "structure": [{"title": "Liquidity", "line_num": 1,
            "summary": "Cash covers two years of spending."}]}"#,
    )
    .unwrap();
    let rows = json(
        docindex(&lib)
            .args(["--json", "import"])
            .arg(&example)
            .arg(&bare),
    );
    assert_eq!(rows[1]["ok"], true, "{rows}");
    let tree = json(docindex(&lib).args(["--json", "tree", "document.json"]));
    let nodes = flat_nodes(&tree["structure"]);
    let pages: Vec<(u64, u64)> = nodes
        .iter()
        .map(|n| {
            (
                n["start_page"].as_u64().unwrap(),
                n["end_page"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(pages, [(1, 5), (2, 3)], "{tree}");
    assert_eq!(nodes[1]["summary"], "Penalties for late shipments.");
    let shown = docindex(&lib)
        .args(["show", "document.json", "0001"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&shown.stdout).trim_end(),
        "Section 1.1\n\nLate shipments carry a penalty of 4% of the order."
    );
    let hits = json(docindex(&lib).args(["--json", "search", "late shipment penalty"]));
    assert_eq!(hits["hits"][0]["node_id"], "0001", "{hits}");
    let listed = json(docindex(&lib).args(["--json", "list"]));
    let bare_row = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["doc_name"] == "bare.json")
        .unwrap();
    assert!(bare_row["warnings"][0]
        .as_str()
        .unwrap()
        .contains("no node text"));

    // Malformed trees: the file and the field are named, and nothing is stored.
    let cases = [
        (
            r#"{"structure": [{"title": "A", "start_index": 9, "end_index": 4}]}"#,
            "structure[0]: start_index 9 is after end_index 4",
        ),
        (
            r#"{"structure": [{"title": "A", "nodes": "none"}]}"#,
            "at structure[0].nodes: invalid type",
        ),
        (
            r#"{"structure": [{"title": "A", "start_index": 2, "end_index": 3,
                "nodes": [{"title": "B", "start_index": 1, "end_index": 3}]}]}"#,
            "structure[0].nodes[0]: pages 1–3 fall outside its parent's pages 2–3",
        ),
    ];
    for (i, (body, reason)) in cases.iter().enumerate() {
        let bad = dir.path().join(format!("bad{i}.json"));
        std::fs::write(&bad, body).unwrap();
        let out = docindex(&lib).arg("import").arg(&bad).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("bad{i}.json")), "{stderr}");
        assert!(stderr.contains(reason), "{stderr}");
    }
    let after = json(docindex(&lib).args(["--json", "list"]));
    assert_eq!(after.as_array().unwrap().len(), 2);

    // `import` is for trees: a filing is pointed to `index`.
    let out = docindex(&lib)
        .arg("import")
        .arg(fixture(APPLE_10Q))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("docindex index"));
}
