//! `docindex index --model …` against the scripted provider over real HTTP: what the model
//! adds, what the cache saves, what an outage leaves behind, and that keys stay secret.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use docindex_scripted::{ScriptedServer, Step};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

const KEY: &str = "sk-cli-test-31415-secret";

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

fn docindex(lib: &Path, server: &ScriptedServer) -> Command {
    let mut cmd = Command::cargo_bin("docindex").unwrap();
    cmd.arg("--library")
        .arg(lib)
        .env("OPENAI_BASE_URL", format!("{}/v1", server.base_url))
        .env("OPENAI_API_KEY", KEY)
        .env("ANTHROPIC_BASE_URL", &server.base_url)
        .env("ANTHROPIC_API_KEY", KEY)
        .env("DOCINDEX_LOG", "trace")
        .env_remove("DOCINDEX_MODEL")
        .env("DOCINDEX_SKIP_EMBED", "true")
        .env_remove("DOCINDEX_CACHE");
    cmd
}

fn run_json(cmd: &mut Command) -> (Value, String) {
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        out.status.success(),
        "{}\n(stderr: {} bytes, last lines: {})",
        String::from_utf8_lossy(&out.stdout),
        stderr.len(),
        stderr.lines().rev().take(5).collect::<Vec<_>>().join(" | ")
    );
    (serde_json::from_slice(&out.stdout).unwrap(), stderr)
}

/// A library in a temporary folder with `name` indexed offline; keep the folder alive.
fn indexed_library(server: &ScriptedServer, name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    docindex(&lib, server)
        .arg("index")
        .arg(fixture(name))
        .assert()
        .success();
    (dir, lib)
}

const AEGON: &str = "aegon_20-F_FY2000_0000928385-01-500187.html";
const BUCKLE: &str = "buckle_8-K_2024-11-22.html";

#[test]
fn a_model_refines_summarises_and_its_replies_are_cached() {
    let server = ScriptedServer::start();
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    // Four requests in flight, as a hosted provider gets (the scripted server is on this
    // machine, which otherwise gets one).
    let (rows, stderr) = run_json(
        docindex(&lib, &server)
            .args([
                "--json",
                "--model",
                "openai/scripted-model",
                "--llm-concurrency",
                "4",
                "index",
            ])
            .arg(fixture(AEGON))
            .arg(fixture(BUCKLE)),
    );
    // The job's own requests: not the probes that ask the server its context window (a
    // GET of its model listing, a request for more tokens than any window holds).
    let is_probe = |r: &docindex_scripted::Recorded| {
        r.method != "POST" || r.json()["max_tokens"].as_u64() >= Some(1_000_000)
    };
    let job_calls =
        |server: &ScriptedServer| server.requests().iter().filter(|r| !is_probe(r)).count() as u64;
    let first_calls = job_calls(&server);
    assert!(first_calls > 0);
    for row in rows.as_array().unwrap() {
        let e = &row["outcome"]["enhancement"];
        assert_eq!(e["model"], "openai/scripted-model");
        assert!(e["usage"]["calls"].as_u64().unwrap() > 0, "{row}");
        assert!(e["summaries_written"].as_u64().unwrap() > 0, "{row}");
        assert!(e["unknown_ids_dropped"].as_u64().unwrap() >= 1, "{row}");
    }
    let calls_reported: u64 = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["outcome"]["enhancement"]["usage"]["calls"]
                .as_u64()
                .unwrap()
        })
        .sum();
    assert_eq!(calls_reported, first_calls, "every call is accounted for");
    // Dropped ids are logged, and no log line carries the key.
    assert!(
        stderr.contains("does not exist") || stderr.contains("unknown or unasked"),
        "{stderr}"
    );
    assert!(!stderr.contains(KEY));
    for r in server.requests() {
        assert_eq!(
            r.header("authorization"),
            Some(format!("Bearer {KEY}").as_str())
        );
        if r.method == "POST" {
            assert_eq!(r.json()["model"], "scripted-model");
        }
    }

    let (tree, _) = run_json(docindex(&lib, &server).args([
        "--json",
        "tree",
        "aegon_20-F_FY2000_0000928385-01-500187",
    ]));
    let nodes = tree["structure"].to_string();
    assert!(
        nodes.contains("\"summary_engine\":\"llm\""),
        "summaries from the model are stored"
    );
    assert!(
        nodes.contains("\"origin\":\"llm\""),
        "headings from the model are stored"
    );
    let (list, _) = run_json(docindex(&lib, &server).args(["--json", "list"]));
    assert!(list.to_string().contains("Scripted description"));

    // Same bytes, same model: nothing to do. Removed and indexed again: all from the cache.
    let (rows, _) = run_json(
        docindex(&lib, &server)
            .args(["--json", "--model", "openai/scripted-model", "index"])
            .arg(fixture(BUCKLE)),
    );
    assert_eq!(rows[0]["outcome"]["status"], "unchanged");
    docindex(&lib, &server)
        .args(["remove", "buckle_8-K_2024-11-22"])
        .assert()
        .success();
    let (rows, _) = run_json(
        docindex(&lib, &server)
            .args(["--json", "--model", "openai/scripted-model", "index"])
            .arg(fixture(BUCKLE)),
    );
    let usage = &rows[0]["outcome"]["enhancement"]["usage"];
    assert_eq!(usage["calls"], 0, "{usage}");
    assert!(usage["cache_hits"].as_u64().unwrap() > 0);
    assert_eq!(
        job_calls(&server),
        first_calls,
        "a cache hit costs no model call"
    );

    // Offline, the same library still answers; --offline ignores DOCINDEX_MODEL.
    let before_offline = server.requests().len();
    let offline = dir.path().join("offline");
    docindex(&offline, &server)
        .env("DOCINDEX_MODEL", "openai/scripted-model")
        .args(["--offline", "index"])
        .arg(fixture(BUCKLE))
        .assert()
        .success();
    assert_eq!(
        server.requests().len(),
        before_offline,
        "offline asks nothing"
    );
}

#[test]
fn anthropic_model_strings_reach_the_messages_api() {
    let server = ScriptedServer::start();
    let dir = tempfile::tempdir().unwrap();
    let (rows, _) = run_json(
        docindex(&dir.path().join("lib"), &server)
            .env("DOCINDEX_MODEL", "anthropic/claude-scripted")
            .args(["--json", "--cache", "memory", "index"])
            .arg(fixture(BUCKLE)),
    );
    assert_eq!(
        rows[0]["outcome"]["enhancement"]["model"],
        "anthropic/claude-scripted"
    );
    let sent = server.requests();
    assert!(!sent.is_empty());
    let mut forced_tools = 0;
    for r in &sent {
        assert_eq!(r.url, "/v1/messages");
        assert_eq!(r.header("x-api-key"), Some(KEY));
        // A reply with a schema is enforced by a tool the model must call.
        let body: Value = serde_json::from_str(&r.body).unwrap();
        if let Some(forced) = body["tool_choice"]["name"].as_str() {
            assert_eq!(body["tools"][0]["name"], forced);
            assert_eq!(body["tools"][0]["input_schema"]["type"], "object");
            forced_tools += 1;
        }
    }
    assert!(forced_tools > 0);
    // The tools' inputs were read as the replies: summaries were written from them.
    let enhancement = &rows[0]["outcome"]["enhancement"];
    assert!(
        enhancement["summaries_written"].as_u64().unwrap() > 0,
        "{enhancement}"
    );
}

#[test]
fn an_outage_keeps_the_offline_index_with_a_warning_and_enhance_retries() {
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, BUCKLE);
    // The first model request fails on every retry; the rest of the job goes on.
    for _ in 0..4 {
        server.push(Step::Reply {
            status: 503,
            headers: vec![("retry-after".into(), "0".into())],
            body: r#"{"error":{"message":"The service is temporarily unavailable"}}"#.into(),
        });
    }
    let model = ["--model", "openai/scripted-model", "--cache", "none"];
    let out = docindex(&lib, &server)
        .args(model)
        .arg("index")
        .arg(fixture(BUCKLE))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "the document is kept: {stderr}");
    assert!(
        stderr.contains("warning:") && stderr.contains("HTTP 503"),
        "{stderr}"
    );
    assert!(stderr.contains("temporarily unavailable"), "{stderr}");
    assert!(stderr.contains("docindex enhance"), "{stderr}");
    assert!(!stderr.contains(KEY));
    let (list, _) = run_json(docindex(&lib, &server).args(["--json", "list"]));
    let warnings = list[0]["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{list}");
    assert!(warnings[0].as_str().unwrap().contains("HTTP 503"));
    let (tree, _) = run_json(docindex(&lib, &server).args(["--json", "tree", BUCKLE]));
    assert!(!tree["structure"].as_array().unwrap().is_empty());

    // `enhance` retries the failed stage on the stored document; structure refinement
    // needs the source, so for it `enhance` says so and indexing the file again retries.
    let structure_failed = warnings[0].as_str().unwrap().contains("during structure");
    let out = docindex(&lib, &server)
        .args(model)
        .args(["enhance", BUCKLE])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if structure_failed {
        assert_eq!(out.status.code(), Some(3), "{stdout}");
        assert!(stdout.contains("structure: still failed"), "{stdout}");
    } else {
        assert_eq!(out.status.code(), Some(0), "{stdout}");
        assert!(stdout.contains(": done"), "{stdout}");
    }
    // Indexing the same file with the same model again is a retry while a stage is
    // failed, and "unchanged" once none is.
    let (again, _) = run_json(
        docindex(&lib, &server)
            .args(model)
            .args(["--json", "index"])
            .arg(fixture(BUCKLE)),
    );
    let expected = if structure_failed {
        "indexed"
    } else {
        "unchanged"
    };
    assert_eq!(again[0]["outcome"]["status"], expected, "{again}");
    let (list, _) = run_json(docindex(&lib, &server).args(["--json", "list"]));
    assert!(list[0]["warnings"].as_array().unwrap().is_empty(), "{list}");
    // A rejected key is the user's to fix: exit 1, and it says so.
    server.push(Step::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided"}}"#,
    ));
    let out = docindex(&lib, &server)
        .args([
            "--model",
            "openai/scripted-model",
            "--cache",
            "none",
            "index",
        ])
        .arg(fixture(AEGON))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("rejected the credentials"));
}

#[test]
fn a_provider_failing_half_its_requests_leaves_the_10k_indexed_with_a_warning() {
    const APPLE: &str = "apple_10-K_FY2024_0000320193-24-000123.html";
    let server = ScriptedServer::start();
    server.fail_half();
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let out = docindex(&lib, &server)
        .args(["--model", "openai/scripted-model", "--cache", "none"])
        .args(["--json", "index"])
        .arg(fixture(APPLE))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "the document is kept: {stderr}");
    let answered = server.stats().calls - server.failed();
    assert!(server.failed() > 0, "the server failed no request");
    assert!(answered > 0, "the server answered no request");
    let indexed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(indexed[0]["outcome"]["status"], "indexed", "{indexed}");
    let (list, _) = run_json(docindex(&lib, &server).args(["--json", "list"]));
    let warnings: Vec<&str> = list[0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(!warnings.is_empty(), "{list}");
    assert!(
        warnings
            .iter()
            .all(|w| w.contains("HTTP 500") || w.contains("HTTP 429")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("requests failed")),
        "a stage the provider half failed says how much: {warnings:?}"
    );
    // The offline index is whole, and what the model did finish is kept: some summaries
    // are the model's, the rest the offline engine's.
    let (tree, _) = run_json(docindex(&lib, &server).args(["--json", "tree", APPLE]));
    let titles = tree.to_string();
    for item in ["Item 1A", "Item 7", "Item 8"] {
        assert!(titles.contains(item), "{item} missing from the tree");
    }
    let engines = |engine: &str| {
        titles
            .matches(&format!("\"summary_engine\":\"{engine}\""))
            .count()
    };
    assert!(engines("llm") > 0, "no summary from the model was kept");
    assert!(
        engines("extractive") > 0,
        "every summary came from the model"
    );
}

#[test]
fn a_bad_model_string_or_cache_is_refused_before_any_work() {
    let server = ScriptedServer::start();
    let dir = tempfile::tempdir().unwrap();
    let out = docindex(&dir.path().join("lib"), &server)
        .args(["--model", "gpt-4o", "index"])
        .arg(fixture(BUCKLE))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("openai/gpt-4o"));
    let out = docindex(&dir.path().join("lib"), &server)
        .args(["--model", "openai/x", "--cache", "memcached", "index"])
        .arg(fixture(BUCKLE))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown cache"));
    assert_eq!(server.stats().calls, 0);
}

const TESLA: &str = "tesla_10-K_FY2023_0001628280-24-002390.html";

#[test]
fn the_llm_engine_cites_only_quotes_found_in_the_document() {
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, TESLA);
    let (answer, stderr) = run_json(docindex(&lib, &server).args([
        "--json",
        "--model",
        "openai/scripted-model",
        "--cache",
        "none",
        "ask",
        "How many consumer vehicles did Tesla deliver in 2023?",
    ]));
    assert_eq!(answer["engine"], "llm");
    let citations = answer["citations"].as_array().unwrap();
    assert_eq!(citations.len(), 1, "{answer}");
    // The quote not in the filing and the unknown source label are not citations, and the
    // section id the model invented was ignored.
    assert_eq!(answer["citations_dropped"], 3, "{answer}");
    assert!(
        stderr.contains("not offered") && stderr.contains("not a citation"),
        "{stderr}"
    );
    assert_eq!(answer["unsupported_numbers"], serde_json::json!(["42"]));
    assert!(answer["tokens_used"].as_u64().unwrap() > 0);
    let c = &citations[0];
    let shown = docindex(&lib, &server)
        .args(["--json", "show", TESLA, c["node_id"].as_str().unwrap()])
        .output()
        .unwrap();
    let node: serde_json::Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert!(node["text"]
        .as_str()
        .unwrap()
        .contains(c["excerpt"].as_str().unwrap()));
    let sent = server.requests();
    assert!(
        sent.last().unwrap().json()["stream"] == true,
        "the answer is streamed"
    );
}

#[test]
fn an_outage_mid_stream_ends_with_a_clear_error_and_keeps_what_was_saved() {
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, TESLA);
    // A first answer is saved.
    docindex(&lib, &server)
        .args([
            "--model",
            "openai/scripted-model",
            "--cache",
            "none",
            "ask",
            "How many vehicles did Tesla deliver?",
        ])
        .assert()
        .success();
    server.push(Step::Says(r#"{"action": "answer", "node_ids": []}"#.into()));
    server.push(Step::Chunks {
        content_type: "text/event-stream".into(),
        chunks: vec![
            "data: {\"choices\":[{\"delta\":{\"content\":\"Tesla delivered \"}}]}\n\n".into(),
        ],
        delay: Duration::from_millis(5),
    });
    let out = docindex(&lib, &server)
        .args([
            "--model",
            "openai/scripted-model",
            "--cache",
            "none",
            "ask",
            "How many vehicles did Tesla produce?",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("Tesla delivered"),
        "the text that arrived was shown: {stdout}"
    );
    assert!(
        stderr.contains("stream ended before the reply was complete"),
        "{stderr}"
    );
    let (saved, _) = run_json(docindex(&lib, &server).args(["--json", "saved"]));
    assert_eq!(
        saved.as_array().unwrap().len(),
        1,
        "the earlier answer is kept, no half answer saved"
    );
}

#[test]
fn the_llm_leg_of_search_scores_the_offline_candidates() {
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, TESLA);
    let (offline, _) = run_json(docindex(&lib, &server).args([
        "--json",
        "search",
        "vehicle deliveries",
        "--limit",
        "5",
    ]));
    let (results, stderr) = run_json(docindex(&lib, &server).args([
        "--json",
        "--model",
        "openai/scripted-model",
        "--cache",
        "none",
        "search",
        "vehicle deliveries",
        "--limit",
        "5",
    ]));
    let hits = results["hits"].as_array().unwrap();
    // The model scored the first candidate 0.9 and the rest 0.2: only it passes 0.5.
    assert_eq!(hits.len(), 1, "{results}");
    assert_eq!(hits[0]["engine"], "llm");
    assert_eq!(hits[0]["score"], 0.9);
    assert_eq!(hits[0]["node_id"], offline["hits"][0]["node_id"]);
    assert_eq!(results["unknown_ids_dropped"], 1);
    assert!(stderr.contains("not a candidate"), "{stderr}");
    assert_eq!(results["llm_usage"]["calls"], 1);
    assert_eq!(offline["hits"][0]["engine"], "extractive");
}

#[test]
fn with_a_model_provenance_reports_what_the_pre_filter_skipped() {
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, TESLA);
    let (report, _) = run_json(docindex(&lib, &server).args([
        "--json",
        "--model",
        "openai/scripted-model",
        "--cache",
        "none",
        "provenance",
        "battery supply",
    ]));
    let c = &report["coverage"];
    let total = c["sections_total"].as_u64().unwrap();
    let judged = c["sections_judged_by_model"].as_u64().unwrap();
    assert_eq!(c["sections_scanned"].as_u64().unwrap(), total);
    assert!(judged > 1 && judged < total, "{c}");
    assert_eq!(
        c["sections_skipped"].as_u64().unwrap(),
        total - judged,
        "coverage is honest"
    );
    // The model judged excerpts one by one, not sections.
    let excerpts_judged = c["excerpts_judged_by_model"].as_u64().unwrap();
    assert!(excerpts_judged >= judged, "{c}");
    let evidence = report["evidence"].as_array().unwrap();
    // The scripted model rates the first of each batch of ten excerpts 0.9, the rest 0.2.
    let confirmed: Vec<&serde_json::Value> = evidence
        .iter()
        .flat_map(|e| e["excerpts"].as_array().unwrap())
        .collect();
    assert_eq!(confirmed.len() as u64, excerpts_judged.div_ceil(10));
    assert!(confirmed.iter().all(|x| x["relevance"] == 0.9
        && x["reason"]
            .as_str()
            .unwrap()
            .starts_with("scripted judgement")));
    assert!(evidence
        .iter()
        .all(|e| e["engine"] == "llm" && e["relevance"] == 0.9));
}

#[test]
fn model_searches_and_answers_are_cached_until_the_library_changes() {
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, TESLA);
    let search = [
        "--json",
        "--model",
        "openai/scripted-model",
        "search",
        "vehicle deliveries",
    ];
    let (first, _) = run_json(docindex(&lib, &server).args(search));
    let calls = server.stats().calls;
    let (second, _) = run_json(docindex(&lib, &server).args(search));
    assert_eq!(second["from_cache"], true);
    assert_eq!(first["hits"], second["hits"]);
    assert_eq!(server.stats().calls, calls, "a cached search makes no call");

    let ask = [
        "--json",
        "--model",
        "openai/scripted-model",
        "ask",
        "How many vehicles were delivered?",
    ];
    let (answer, _) = run_json(docindex(&lib, &server).args(ask));
    let calls = server.stats().calls;
    let (again, _) = run_json(docindex(&lib, &server).args(ask));
    assert_eq!(again["from_cache"], true);
    assert_eq!(again["answer"], answer["answer"]);
    assert_eq!(server.stats().calls, calls);

    // A new document changes the library: the search runs again.
    docindex(&lib, &server)
        .arg("index")
        .arg(fixture(BUCKLE))
        .assert()
        .success();
    let (third, _) = run_json(docindex(&lib, &server).args(search));
    assert_eq!(third["from_cache"], false);
}

#[test]
fn a_research_question_is_split_by_the_model_and_its_invented_targets_are_dropped() {
    const APPLE: &str = "apple_10-K_FY2024_0000320193-24-000123.html";
    let server = ScriptedServer::start();
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    docindex(&lib, &server)
        .arg("index")
        .args([fixture(APPLE), fixture(TESLA)])
        .assert()
        .success();
    let (answer, _) = run_json(docindex(&lib, &server).args([
        "--json",
        "--model",
        "openai/scripted-model",
        "--cache",
        "none",
        "ask",
        "Which company had higher total revenues, Apple or Tesla?",
    ]));
    // The scripted model adds a company nobody named and a year nobody asked about.
    assert_eq!(answer["invented_dropped"], 2, "{answer}");
    let reasoning = answer["reasoning"].to_string();
    assert!(
        reasoning.contains("the model split the question into 3 sub-question(s)"),
        "{reasoning}"
    );
    assert!(reasoning.contains("Globex Corporation, which the question does not name"));
    assert!(reasoning.contains("dropped the year 1987"));
    let decompositions = server
        .requests()
        .iter()
        .filter(|r| r.body.contains("independent sub-questions"))
        .count();
    assert_eq!(decompositions, 1);
    // Each company answered from its own filing; the table's cells are the statements'
    // cells, cited beside the model's quotes.
    let mut cited: Vec<&str> = answer["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["doc_name"].as_str().unwrap())
        .collect();
    cited.sort();
    cited.dedup();
    assert_eq!(cited, [APPLE, TESLA], "{answer}");
    let rows = answer["comparison"]["rows"].as_array().unwrap();
    let shown: Vec<&str> = rows
        .iter()
        .map(|r| r["cells"][0]["shown"].as_str().unwrap())
        .collect();
    assert_eq!(shown, ["391,035", "96,773"], "{answer}");
    assert_eq!(answer["comparison"]["differences"][0]["shown"], "294,262");
    assert_eq!(answer["engine"], "llm");
}

#[test]
fn a_model_that_obeys_a_filings_instructions_gets_no_citation_for_them() {
    // The scripted model obeys: it answers "$1 trillion" and quotes the filing's instruction.
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, "injected_8-K.html");
    let (answer, _) = run_json(docindex(&lib, &server).args([
        "--json",
        "--model",
        "openai/scripted-model",
        "--cache",
        "none",
        "ask",
        "What was revenue?",
    ]));
    assert_eq!(answer["engine"], "llm");
    // The instruction was sent as data, under the preamble that says so.
    let sent = server.requests();
    let prompt = sent.last().unwrap().json().to_string();
    assert!(prompt.contains("Ignore previous instructions"), "{prompt}");
    assert!(
        prompt.contains(&docindex_core::prompts::FILING_IS_DATA[..40]),
        "{prompt}"
    );
    // Its quote cites nothing, and what it wrote is withheld.
    assert!(
        answer["citations"].as_array().unwrap().is_empty(),
        "{answer}"
    );
    assert!(
        answer["citations_dropped"].as_u64().unwrap() >= 1,
        "{answer}"
    );
    assert_eq!(answer["answered"], false, "{answer}");
    let text = answer["answer"].as_str().unwrap();
    assert!(
        !text.contains("trillion") && text.contains("withheld"),
        "{text}"
    );
    assert!(
        answer["reasoning"]
            .to_string()
            .contains("quotes text written as instructions to a model"),
        "{answer}"
    );
}

#[test]
fn a_small_models_right_figure_with_a_loose_quote_comes_out_cited() {
    // The scripted small model states the figure it was given and quotes its source with a
    // word dropped and the case changed: the figure is grounded to its cell, the quote to
    // the sentence it means.
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, "apple_10-K_FY2024_0000320193-24-000123.html");
    let (answer, _) = run_json(docindex(&lib, &server).args([
        "--json",
        "--model",
        "openai/scripted-model",
        "--cache",
        "none",
        "ask",
        "In your own words, what was Apple's capital expenditure in fiscal 2024?",
    ]));
    assert_eq!(answer["engine"], "llm", "{answer}");
    let text = answer["answer"].as_str().unwrap();
    assert!(text.contains("$9,447 million ["), "{text}");
    assert_eq!(answer["answered"], true, "{answer}");
    assert_eq!(answer["citations_dropped"], 0, "{answer}");
    let citations = answer["citations"].as_array().unwrap();
    assert!(
        citations
            .iter()
            .any(|c| c["excerpt"].as_str().unwrap().contains("9,447")),
        "{answer}"
    );
    assert!(
        !answer["unsupported_numbers"].to_string().contains("9,447"),
        "{answer}"
    );
    assert!(
        answer["reasoning"]
            .to_string()
            .contains("grounded the figure"),
        "{answer}"
    );
}

#[test]
fn every_prompt_fits_a_small_models_context_window() {
    // The same question asked twice: once of a server with room to spare, once of one whose
    // window is two thirds of the largest request the first run sent. The second is told its
    // window (it refuses a longer request, as llama.cpp's server does) and every prompt is
    // fitted to it: the answer still comes, cited, and no request is refused.
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, "apple_10-K_FY2024_0000320193-24-000123.html");
    let question = "What does Apple say about risks to its supply chain?";
    let ask = |lib: &Path| {
        run_json(docindex(lib, &server).args([
            "--json",
            "--model",
            "openai/scripted-model",
            "--cache",
            "none",
            "ask",
            question,
        ]))
        .0
    };
    let before = server.requests().len();
    let roomy = ask(&lib);
    assert_eq!(roomy["engine"], "llm", "{roomy}");
    let counter = docindex_core::tokens::TokenCounter::new().unwrap();
    let asked = |r: &docindex_scripted::Recorded| {
        counter.count(&docindex_scripted::prompt_text(r))
            + r.json()["max_tokens"].as_u64().unwrap_or(0) as usize
    };
    // The chat requests of the answer, not the probe that asks the server its window.
    let answering = |r: &&docindex_scripted::Recorded| {
        r.url.ends_with("/chat/completions") && r.json()["max_tokens"] != 10_000_000
    };
    let largest = server.requests()[before..]
        .iter()
        .filter(answering)
        .map(asked)
        .max()
        .unwrap();
    let window = largest * 2 / 3;
    server.limit_context(window);
    let before = server.requests().len();
    let fitted = ask(&lib);
    assert_eq!(fitted["engine"], "llm", "{fitted}");
    assert_eq!(fitted["answered"], true, "{fitted}");
    assert!(
        fitted["reasoning"]
            .to_string()
            .contains("fitted to the model's"),
        "{fitted}"
    );
    let sent: Vec<_> = server.requests()[before..]
        .iter()
        .filter(answering)
        .cloned()
        .collect();
    assert!(sent.len() >= 2, "a plan and an answer");
    for request in &sent {
        assert!(asked(request) <= window, "{} > {window}", asked(request));
    }
    assert!(
        !fitted["citations"].as_array().unwrap().is_empty(),
        "{fitted}"
    );
}

#[test]
fn a_small_models_uncited_ratio_is_grounded_to_its_operand_rows() {
    // The scripted small model works the margin out, rounds it to one decimal and cites
    // nothing (as the real 1.5B model did for Cisco's current ratio): the figure equals the
    // metric the statements give, so it is cited to the operand rows, not dropped.
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, "apple_10-K_FY2024_0000320193-24-000123.html");
    let (answer, _) = run_json(docindex(&lib, &server).args([
        "--json",
        "--model",
        "openai/scripted-model",
        "--cache",
        "none",
        "ask",
        "In your own words, what was Apple's net profit margin in fiscal 2024? Net margin = net income / revenue.",
    ]));
    let text = answer["answer"].as_str().unwrap();
    assert!(text.contains("24.0% ["), "{answer}");
    assert_eq!(answer["answered"], true, "{answer}");
    let excerpts = answer["citations"].to_string();
    assert!(excerpts.contains("93,736"), "net income cited: {answer}");
    assert!(excerpts.contains("391,035"), "net sales cited: {answer}");
    assert!(
        !answer["unsupported_numbers"].to_string().contains("24.0"),
        "{answer}"
    );
    assert!(
        answer["reasoning"]
            .to_string()
            .contains("grounded the figure"),
        "{answer}"
    );
}

#[test]
fn a_figure_stated_with_a_made_up_quote_is_cited_to_the_sentence_that_holds_it() {
    // The model answers at once, states the right count and "quotes" a sentence that is not
    // in its source: the quote cites nothing, the figure is cited to the sentence of the
    // passages it was given that states it.
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, TESLA);
    server.push(Step::Says(
        r#"{"action": "answer", "node_ids": [], "reason": "enough"}"#.into(),
    ));
    server.push(Step::Says(
        "Tesla delivered 1,808,581 consumer vehicles in 2023. [1]\nSOURCES:\n[1] S1: \"Deliveries reached a record high for the company this year.\"\n".into(),
    ));
    let (answer, _) = run_json(docindex(&lib, &server).args([
        "--json",
        "--model",
        "openai/scripted-model",
        "--cache",
        "none",
        "ask",
        "How many vehicles did Tesla deliver in 2023?",
    ]));
    assert_eq!(answer["engine"], "llm", "{answer}");
    assert_eq!(answer["answered"], true, "{answer}");
    let text = answer["answer"].as_str().unwrap();
    assert!(text.starts_with("Tesla delivered 1,808,581 ["), "{text}");
    let citations = answer["citations"].as_array().unwrap();
    assert_eq!(citations.len(), 1, "{answer}");
    let excerpt = citations[0]["excerpt"].as_str().unwrap();
    assert!(
        excerpt.contains("delivered 1,808,581 consumer vehicles"),
        "{excerpt}"
    );
    assert_eq!(
        answer["citations_dropped"], 1,
        "the made-up quote: {answer}"
    );
    assert!(
        answer["unsupported_numbers"].as_array().unwrap().is_empty(),
        "{answer}"
    );
}

#[test]
fn a_plan_that_is_no_json_even_when_asked_again_costs_the_plan_not_the_answer() {
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, TESLA);
    server.push(Step::Says(
        "I would read the production section first.".into(),
    ));
    server.push(Step::Says("Sure! The production section.".into()));
    let (answer, _) = run_json(docindex(&lib, &server).args([
        "--json",
        "--model",
        "openai/scripted-model",
        "--cache",
        "none",
        "ask",
        "How many vehicles did Tesla deliver in 2023?",
    ]));
    assert_eq!(answer["engine"], "llm", "{answer}");
    assert!(
        answer["reasoning"]
            .to_string()
            .contains("plan could not be read"),
        "{answer}"
    );
    assert_eq!(answer["answered"], true, "{answer}");
}

const APPLE_10K: &str = "apple_10-K_FY2024_0000320193-24-000123.html";

/// Asks `question` of the scripted model over `lib`, as JSON.
fn ask_model(lib: &Path, server: &ScriptedServer, question: &str) -> Value {
    run_json(docindex(lib, server).args([
        "--json",
        "--model",
        "openai/scripted-model",
        "--cache",
        "none",
        "ask",
        question,
    ]))
    .0
}

#[test]
fn when_the_statement_rows_answer_firmly_the_model_answers_without_planning() {
    // The offline engine states capital expenditure from its cash-flow row (High): the
    // model is given the row and answers at once; no plan is asked for.
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, APPLE_10K);
    let before = server.requests().len();
    let answer = ask_model(
        &lib,
        &server,
        "What is the FY2024 capital expenditure amount (in USD millions) for Apple? Base your judgments on the cash flow statement.",
    );
    assert_eq!(answer["engine"], "llm", "{answer}");
    let plan_step = docindex_core::prompts::opening::PLAN_NEXT_STEP;
    let plans = server.requests()[before..]
        .iter()
        .filter(|r| r.body.contains(plan_step))
        .count();
    assert_eq!(plans, 0, "{answer}");
    assert!(
        answer["reasoning"]
            .to_string()
            .contains("without further reading"),
        "{answer}"
    );
    assert!(
        answer["answer"].as_str().unwrap().contains("9,447"),
        "{answer}"
    );
    assert!(
        answer["citations"].to_string().contains("9,447"),
        "{answer}"
    );
}

#[test]
fn a_figure_the_model_leaves_out_is_added_from_the_statement_rows() {
    // The model cites the right row but states no figure: the figure the row gives is
    // added to its answer, cited to the cells.
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, APPLE_10K);
    server.push(Step::Says(
        "Apple reports its capital expenditure as payments for property, plant and equipment. [1]\nSOURCES:\n[1] S1: \"Payments for acquisition of property, plant and equipment\"\n".into(),
    ));
    let answer = ask_model(
        &lib,
        &server,
        "What was Apple's capital expenditure in fiscal 2024?",
    );
    assert_eq!(answer["engine"], "llm", "{answer}");
    let text = answer["answer"].as_str().unwrap();
    let (added, model_said) = text
        .strip_prefix("The statements give:")
        .and_then(|rest| rest.split_once("\n\n"))
        .expect(text);
    assert!(!model_said.contains("9,447"), "{text}");
    assert!(added.contains("9,447"), "{text}");
    let cells: Vec<&Value> = answer["citations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["excerpt"].as_str().unwrap().contains("9,447"))
        .collect();
    assert!(!cells.is_empty(), "{answer}");
    for cell in cells {
        let marker = format!("[{}]", cell["marker"]);
        assert!(added.contains(&marker), "{marker} not in {added}");
    }
    assert!(
        answer["reasoning"]
            .to_string()
            .contains("the answer did not state"),
        "{answer}"
    );
}

#[test]
fn an_answer_with_no_verifiable_citation_gives_way_to_the_offline_engines() {
    // The model reads, then answers in a sentence that cites nothing: the offline engine's
    // cited answer is shown instead, and says so.
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, TESLA);
    server.push(Step::Says(
        r#"{"action": "answer", "node_ids": [], "reason": "enough"}"#.into(),
    ));
    server.push(Step::Says("Tesla had a strong year for deliveries.".into()));
    let answer = ask_model(
        &lib,
        &server,
        "How many vehicles did Tesla deliver in 2023?",
    );
    assert_eq!(answer["engine"], "extractive", "{answer}");
    assert_eq!(answer["answered"], true, "{answer}");
    assert!(
        answer["reasoning"]
            .to_string()
            .contains("the offline engine's cited answer is shown instead"),
        "{answer}"
    );
    assert!(
        answer["citations"].to_string().contains("1,808,581"),
        "{answer}"
    );
    assert!(answer["tokens_used"].as_u64().unwrap() > 0, "{answer}");
}

#[test]
fn a_worked_out_metric_the_model_leaves_out_is_added_with_its_operand_rows() {
    // The model states the operands and not the margin the question asks: the margin the
    // statements give is added, cited to its rows.
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, APPLE_10K);
    server.push(Step::Says(
        "Net income was $93,736 million against net sales of $391,035 million. [1]\nSOURCES:\n[1] S1: \"Net income\"\n".into(),
    ));
    let answer = ask_model(
        &lib,
        &server,
        "What was Apple's net profit margin in fiscal 2024? Net margin = net income / revenue.",
    );
    let text = answer["answer"].as_str().unwrap();
    let added = text.strip_prefix("The statements give:").expect(text);
    assert!(
        added.split("\n\n").next().unwrap().contains("23.97%"),
        "{text}"
    );
    let cited = answer["citations"].to_string();
    assert!(
        cited.contains("93,736") && cited.contains("391,035"),
        "{answer}"
    );
}

/// The model's answer split into the statements' sentence put first and the model's words.
fn statements_first(text: &str) -> Option<(&str, &str)> {
    text.strip_prefix("The statements give:")
        .and_then(|rest| rest.split_once("\n\n"))
}

#[test]
fn an_answer_leading_with_another_rows_figure_is_led_by_the_statements_figure() {
    // The model states operating income where net income was asked, and cites its row:
    // the net income row's sentence leads, cited to its cells; the model's words follow.
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, APPLE_10K);
    server.push(Step::Says(
        "Apple's net income for fiscal 2024 was $123,216 million [1], also stated as net income of $93,736 million.\nSOURCES:\n[1] S1: \"Operating income\"\n".into(),
    ));
    let answer = ask_model(&lib, &server, "What was Apple's net income in fiscal 2024?");
    let text = answer["answer"].as_str().unwrap();
    let (lead, model_said) = statements_first(text).expect(text);
    assert!(lead.contains("$93,736 million"), "{text}");
    assert!(model_said.starts_with("Apple's net income"), "{text}");
    let cell = answer["citations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["excerpt"].as_str().unwrap().starts_with("Net income |"))
        .expect("the net income row is cited");
    assert!(lead.contains(&format!("[{}]", cell["marker"])), "{text}");
    assert!(
        answer["reasoning"]
            .to_string()
            .contains("the answer's first figure is not"),
        "{answer}"
    );
}

#[test]
fn a_figure_rounded_coarser_than_asked_is_led_by_the_statements_rounding() {
    // Two decimals asked; the model writes one: the statements' $9.45 billion leads. The
    // same figure at the asked precision leads as the model wrote it.
    let server = ScriptedServer::start();
    let (_dir, lib) = indexed_library(&server, APPLE_10K);
    let question =
        "What was Apple's capital expenditure in fiscal 2024, in USD billions to two decimals?";
    server.push(Step::Says(
        "Apple spent $9.4 billion on capital expenditure in fiscal 2024 [1].\nSOURCES:\n[1] S1: \"Payments for acquisition of property, plant and equipment\"\n".into(),
    ));
    let coarse = ask_model(&lib, &server, question);
    let text = coarse["answer"].as_str().unwrap();
    let (lead, model_said) = statements_first(text).expect(text);
    assert!(lead.contains("$9.45 billion"), "{text}");
    assert!(model_said.contains("$9.4 billion"), "{text}");
    server.push(Step::Says(
        "Apple spent $9.45 billion on capital expenditure in fiscal 2024 [1].\nSOURCES:\n[1] S1: \"Payments for acquisition of property, plant and equipment\"\n".into(),
    ));
    let precise = ask_model(&lib, &server, question);
    let text = precise["answer"].as_str().unwrap();
    assert!(text.starts_with("Apple spent $9.45 billion"), "{text}");
    assert!(
        precise["unsupported_numbers"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{precise}"
    );
}
