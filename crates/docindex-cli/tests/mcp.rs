//! `docindex mcp` driven by a real MCP client (rmcp over the child's stdio): the handshake,
//! the tool list with schemas, every tool on real filings with spans checked against the
//! text `docindex show` prints, and errors that are tool errors, after which the server
//! still answers.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{docindex, json, library_of};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use std::path::Path;

const APPLE_10Q: &str = "apple_10-Q_Q3FY2023_0000320193-23-000077.html";
const BUCKLE_8K: &str = "buckle_8-K_2024-11-22.html";
const AMCOR_PDF: &str = "pdf/AMCOR_2022_8K_dated-2022-07-01.pdf";

type Client = RunningService<RoleClient, ()>;

async fn connect(lib: &Path) -> Client {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_docindex")).configure(|c| {
        c.arg("--library")
            .arg(lib)
            .arg("mcp")
            .env("DOCINDEX_SKIP_EMBED", "1")
            .env_remove("DOCINDEX_MODEL");
    });
    ().serve(TokioChildProcess::new(command).unwrap())
        .await
        .unwrap()
}

async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(arguments))
        .await
        .unwrap()
}

/// A successful call's structured result.
async fn ok(client: &Client, tool: &str, arguments: Value) -> Value {
    let result = call(client, tool, arguments.clone()).await;
    assert_ne!(
        result.is_error,
        Some(true),
        "{tool} {arguments}: {:?}",
        result.content
    );
    result.structured_content.expect("structured content")
}

/// A failed call's reason; the failure must be a tool error, not a protocol error.
async fn tool_error(client: &Client, tool: &str, arguments: Value) -> String {
    let result = call(client, tool, arguments).await;
    assert_eq!(
        result.is_error,
        Some(true),
        "{:?}",
        result.structured_content
    );
    result.content[0].as_text().expect("text").text.clone()
}

fn chars(text: &str, start: usize, end: usize) -> String {
    text.chars().skip(start).take(end - start).collect()
}

/// Every excerpt is exactly the range it claims of its node's text, as `read_node` returns it.
async fn assert_spans_hold(client: &Client, doc_id: &str, node_id: &str, excerpts: &[Value]) {
    let node = ok(
        client,
        "read_node",
        json!({"doc": doc_id, "node_id": node_id}),
    )
    .await;
    let (text, start) = (
        node["text"].as_str().unwrap(),
        node["start_char"].as_u64().unwrap(),
    );
    for e in excerpts {
        let (s, t) = (
            e["start_char"].as_u64().unwrap(),
            e["end_char"].as_u64().unwrap(),
        );
        assert!(s >= start, "{e} lies in node {node_id}");
        assert_eq!(
            chars(text, (s - start) as usize, (t - start) as usize),
            e["text"].as_str().unwrap(),
            "excerpt {e} of {doc_id} {node_id}"
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn an_mcp_client_lists_reads_searches_asks_and_scans_with_exact_spans() {
    let (_dir, lib) = library_of(&[APPLE_10Q, BUCKLE_8K, AMCOR_PDF]);
    let client = connect(&lib).await;

    let server = client.peer_info().expect("initialized");
    assert_eq!(server.server_info.as_ref().unwrap().name, "docindex");
    assert!(server.capabilities.tools.is_some());

    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "ask",
            "get_tree",
            "list_documents",
            "provenance",
            "read_node",
            "search"
        ]
    );
    for tool in &tools {
        assert!(
            tool.output_schema.is_some(),
            "{} has a result schema",
            tool.name
        );
        assert!(tool.description.as_ref().is_some_and(|d| d.len() > 20));
    }
    let read_node = tools.iter().find(|t| t.name == "read_node").unwrap();
    let required = read_node.input_schema.get("required").unwrap();
    assert_eq!(required, &json!(["doc", "node_id"]));

    // list_documents, with filters.
    let all = ok(&client, "list_documents", json!({})).await;
    assert_eq!(all["count"], 3);
    let eight_k = ok(&client, "list_documents", json!({"doc_type": "8-K"})).await;
    let mut names: Vec<&str> = eight_k["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["doc_name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["AMCOR_2022_8K_dated-2022-07-01.pdf", BUCKLE_8K]);
    let apple = ok(&client, "list_documents", json!({"company": "apple"})).await;
    assert_eq!(apple["documents"][0]["doc_name"], APPLE_10Q);
    let apple_id = apple["documents"][0]["doc_id"]
        .as_str()
        .unwrap()
        .to_string();

    // get_tree has no text; read_node gives exactly what `docindex show` prints.
    let tree = ok(&client, "get_tree", json!({"doc": APPLE_10Q})).await;
    let nodes = tree["nodes"].as_array().unwrap();
    assert!(nodes.len() > 10);
    assert!(nodes
        .iter()
        .all(|n| n.get("text").is_none() && n.get("summary").is_none()));
    let deepest = nodes
        .iter()
        .filter(|n| n["level"].as_u64().unwrap() > 0)
        .max_by_key(|n| n["token_count"].as_u64().unwrap())
        .unwrap();
    let node_id = deepest["node_id"].as_str().unwrap();
    let read = ok(
        &client,
        "read_node",
        json!({"doc": apple_id, "node_id": node_id}),
    )
    .await;
    let shown = json(docindex(&lib).args(["--json", "show", &apple_id, node_id]));
    assert_eq!(read["text"], shown["text"]);
    assert_eq!(read["start_char"], deepest["start_char"]);
    assert_eq!(read["end_char"], deepest["end_char"]);
    assert!(read["path"]
        .as_str()
        .unwrap()
        .ends_with(deepest["title"].as_str().unwrap()));

    // A PDF's nodes carry their pages, in the tree and when read.
    let pdf_tree = ok(
        &client,
        "get_tree",
        json!({"doc": "AMCOR_2022_8K_dated-2022-07-01"}),
    )
    .await;
    let pdf_node = pdf_tree["nodes"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert!(pdf_node["start_page"].as_u64().unwrap() >= 1);
    let pdf_read = ok(
        &client,
        "read_node",
        json!({"doc": pdf_tree["doc_id"], "node_id": pdf_node["node_id"]}),
    )
    .await;
    assert_eq!(pdf_read["start_page"], pdf_node["start_page"]);
    assert_eq!(pdf_read["end_page"], pdf_node["end_page"]);

    // search in the analyst's words: hits carry exact spans.
    let found = ok(
        &client,
        "search",
        json!({"query": "iPhone net sales", "limit": 5}),
    )
    .await;
    let hits = found["hits"].as_array().unwrap();
    assert!(!hits.is_empty() && hits.len() <= 5);
    assert_eq!(hits[0]["doc_id"], apple_id.as_str());
    for hit in hits {
        let doc = hit["doc_id"].as_str().unwrap();
        let node = hit["node_id"].as_str().unwrap();
        assert_spans_hold(&client, doc, node, hit["excerpts"].as_array().unwrap()).await;
        assert_spans_hold(&client, doc, node, hit["passages"].as_array().unwrap()).await;
    }
    let scoped = ok(
        &client,
        "search",
        json!({"query": "earnings press release", "company": "buckle"}),
    )
    .await;
    assert!(!scoped["hits"].as_array().unwrap().is_empty());
    assert!(scoped["hits"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["doc_name"] == BUCKLE_8K));

    // ask: every citation is a verified span of its node.
    let answer = ok(
        &client,
        "ask",
        json!({"question": "What were iPhone net sales in the third quarter?", "doc": APPLE_10Q}),
    )
    .await;
    assert_eq!(answer["answered"], true);
    let citations = answer["citations"].as_array().unwrap();
    assert!(!citations.is_empty());
    assert!(answer["saved_id"].as_i64().unwrap() > 0);
    for c in citations {
        let marker = format!("[{}]", c["marker"]);
        assert!(answer["answer"].as_str().unwrap().contains(&marker));
        let (doc, node) = (
            c["doc_id"].as_str().unwrap(),
            c["node_id"].as_str().unwrap(),
        );
        assert_spans_hold(&client, doc, node, std::slice::from_ref(&c["excerpt"])).await;
    }

    // provenance: every section read, evidence strongest first, spans exact.
    let report = ok(
        &client,
        "provenance",
        json!({"topic": "share repurchases", "company": "apple", "max_sections": 3}),
    )
    .await;
    let coverage = &report["coverage"];
    assert_eq!(coverage["sections_scanned"], coverage["sections_total"]);
    assert_eq!(coverage["documents"], 1);
    let evidence = report["evidence"].as_array().unwrap();
    assert!(!evidence.is_empty() && evidence.len() <= 3);
    assert!(report["sections_with_evidence"].as_u64().unwrap() >= evidence.len() as u64);
    let relevance: Vec<f64> = evidence
        .iter()
        .map(|e| e["relevance"].as_f64().unwrap())
        .collect();
    assert!(relevance.windows(2).all(|w| w[0] >= w[1]), "{relevance:?}");
    for e in evidence {
        let (doc, node) = (
            e["doc_id"].as_str().unwrap(),
            e["node_id"].as_str().unwrap(),
        );
        assert_spans_hold(&client, doc, node, e["excerpts"].as_array().unwrap()).await;
    }

    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn a_failing_call_is_a_tool_error_with_its_reason_and_the_server_goes_on() {
    let (_dir, lib) = library_of(&[BUCKLE_8K]);
    let client = connect(&lib).await;

    let why = tool_error(
        &client,
        "read_node",
        json!({"doc": "no-such-filing", "node_id": "0000"}),
    )
    .await;
    assert!(why.starts_with("not found"), "{why}");
    assert!(why.contains("no-such-filing"), "{why}");
    let why = tool_error(
        &client,
        "read_node",
        json!({"doc": BUCKLE_8K, "node_id": "9999"}),
    )
    .await;
    assert!(
        why.starts_with("not found") && why.contains("9999"),
        "{why}"
    );
    let why = tool_error(&client, "get_tree", json!({"doc": "no-such-filing"})).await;
    assert!(why.starts_with("not found"), "{why}");
    let why = tool_error(
        &client,
        "ask",
        json!({"question": "revenue?", "doc": "elsewhere"}),
    )
    .await;
    assert!(why.starts_with("not found"), "{why}");

    // Arguments the schema rejects, an unknown filing type, an empty query.
    let why = tool_error(&client, "search", json!({"limit": 3})).await;
    assert!(why.contains("missing field `query`"), "{why}");
    let why = tool_error(&client, "list_documents", json!({"doc_type": "10-Z"})).await;
    assert!(why.contains("10-Z"), "{why}");
    let why = tool_error(&client, "search", json!({"query": "  "})).await;
    assert!(why.contains("empty"), "{why}");

    // The server is still there and the library untouched.
    let all = ok(&client, "list_documents", json!({})).await;
    assert_eq!(all["count"], 1);
    client.cancel().await.unwrap();
}
