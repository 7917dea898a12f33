//! Opt-in (`DOCINDEX_LOCAL_MODEL=1`): the LLM path against a real small model served on this
//! machine by `bash scripts/local-model.sh serve` (llama.cpp's OpenAI-compatible server), not
//! the scripted one. Slow (a question takes minutes on 2 cores), so CI keeps the scripted
//! server; `DOCINDEX_LOCAL_MODEL_URL` (default http://127.0.0.1:8088/v1) and
//! `DOCINDEX_LOCAL_MODEL_NAME` say where the model is.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::fixture;

fn local_model() -> Option<(String, String)> {
    (std::env::var("DOCINDEX_LOCAL_MODEL").as_deref() == Ok("1")).then(|| {
        (
            std::env::var("DOCINDEX_LOCAL_MODEL_URL")
                .unwrap_or_else(|_| "http://127.0.0.1:8088/v1".to_string()),
            std::env::var("DOCINDEX_LOCAL_MODEL_NAME")
                .unwrap_or_else(|_| "qwen2.5-coder-1.5b-instruct-q4_k_m".to_string()),
        )
    })
}

#[test]
fn a_real_small_model_answers_a_figure_cited() {
    let Some((url, name)) = local_model() else {
        eprintln!("skipped: set DOCINDEX_LOCAL_MODEL=1 with scripts/local-model.sh serving");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let docindex = || {
        let mut cmd = assert_cmd::Command::cargo_bin("docindex").unwrap();
        cmd.arg("--library")
            .arg(&lib)
            .env("DOCINDEX_SKIP_EMBED", "1")
            .env("OPENAI_BASE_URL", &url)
            .env("OPENAI_API_KEY", "local")
            .env_remove("DOCINDEX_MODEL");
        cmd
    };
    docindex()
        .arg("index")
        .arg(fixture("apple_10-K_FY2024_0000320193-24-000123.html"))
        .assert()
        .success();
    for question in [
        "What was Apple's capital expenditure in fiscal 2024?",
        "What is the FY2024 capital expenditure amount (in USD millions) for Apple? Base your judgments on the cash flow statement.",
    ] {
        // A timeout far shorter than the model takes: the server's keep-alive pings show it is
        // working, so nothing is cut or sent again while it reads and answers.
        let out = docindex()
            .env("DOCINDEX_LLM_TIMEOUT", "30")
            .args([
                "--json",
                "--model",
                &format!("openai/{name}"),
                "--cache",
                "none",
                "ask",
                question,
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(!stderr.contains("retrying"), "{stderr}");
        let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let text = answer["answer"].as_str().unwrap();
        eprintln!("{question}\n  → {text}\n  {}", answer["confidence"]);
        assert_eq!(answer["engine"], "llm", "{answer}");
        // A right figure is never dropped: stated, it is cited.
        if text.contains("9,447") || text.contains("9.447") {
            assert!(
                !answer["citations"].as_array().unwrap().is_empty(),
                "{answer}"
            );
        }
    }
}
