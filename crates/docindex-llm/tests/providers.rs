//! Every provider against the scripted server: what we send (model, messages, headers,
//! signatures), what we do with each kind of reply (streams, cut streams, 429 with
//! Retry-After, 5xx, 401, slow replies, malformed bodies), bounded concurrency, the cache,
//! and that no key ever reaches a log line or an error.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_core::llm::cache::{CachedLlm, MemoryCache};
use docindex_core::llm::json::complete_json;
use docindex_core::llm::{Llm, LlmError, LlmRequest};
use docindex_llm::{Connection, ProviderSettings, RetryPolicy};
use docindex_scripted::{ScriptedServer, Step};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

const KEY: &str = "sk-test-7f3a9c-secret";

/// Every log line of the process, at every level, so tests can check no key leaks.
#[derive(Clone)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Capture {
    type Writer = Capture;
    fn make_writer(&'a self) -> Capture {
        self.clone()
    }
}

impl Capture {
    fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .map(str::to_string)
            .collect()
    }
}

fn logs() -> &'static Capture {
    static LOGS: OnceLock<Capture> = OnceLock::new();
    LOGS.get_or_init(|| {
        let capture = Capture(Arc::new(Mutex::new(Vec::new())));
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(capture.clone())
            .init();
        capture
    })
}

fn fast_retries() -> ProviderSettings {
    ProviderSettings {
        retry: Some(RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(10),
            max_delay: Duration::from_millis(200),
        }),
        timeout: Some(Duration::from_secs(5)),
        ..Default::default()
    }
}

fn connect(model: &str, server: &ScriptedServer, settings: &ProviderSettings) -> Connection {
    logs();
    let base = server.base_url.clone();
    let vars: HashMap<&str, String> = HashMap::from([
        ("OPENAI_API_KEY", KEY.to_string()),
        ("OPENAI_BASE_URL", format!("{base}/v1")),
        ("ANTHROPIC_API_KEY", KEY.to_string()),
        ("ANTHROPIC_BASE_URL", base.clone()),
        ("AZURE_API_KEY", KEY.to_string()),
        ("AZURE_API_BASE", base.clone()),
        ("AWS_ACCESS_KEY_ID", "AKIDTEST".to_string()),
        ("AWS_SECRET_ACCESS_KEY", KEY.to_string()),
        ("AWS_SESSION_TOKEN", "session-token-1".to_string()),
        ("AWS_REGION", "us-east-1".to_string()),
        ("AWS_BEDROCK_RUNTIME_ENDPOINT", base.clone()),
        ("OLLAMA_HOST", base),
    ]);
    Connection::with_env(model, settings, &|k| vars.get(k).cloned()).unwrap()
}

fn ask() -> LlmRequest {
    LlmRequest::new("You are terse.", "Say hello.")
}

fn assert_no_key_anywhere(server: &ScriptedServer, extra: &str) {
    assert!(!extra.contains(KEY), "key in: {extra}");
    for line in logs().lines().iter() {
        assert!(!line.contains(KEY), "key in a log line: {line}");
    }
    for r in server.requests() {
        assert!(!r.url.contains(KEY), "key in a URL: {}", r.url);
        assert!(!r.body.contains(KEY), "key in a body");
    }
}

#[test]
fn openai_sends_model_messages_bearer_and_json_mode() {
    let server = ScriptedServer::start();
    let llm = connect("openai/gpt-4o-mini", &server, &fast_retries());
    server.push(Step::Says("Hello there.".into()));
    let reply = llm.complete(&ask().with_json()).unwrap();
    assert_eq!(reply.text, "Hello there.");
    assert!(reply.usage.prompt_tokens > 0 && reply.usage.completion_tokens > 0);
    let sent = &server.requests()[0];
    assert_eq!(sent.url, "/v1/chat/completions");
    assert_eq!(
        sent.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    let body = sent.json();
    assert_eq!(body["model"], "gpt-4o-mini");
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(body["messages"][1]["content"], "Say hello.");
    assert_eq!(body["response_format"]["type"], "json_object");
    assert_eq!(body["max_tokens"], 2048);
    assert_no_key_anywhere(&server, "");
}

#[test]
fn openai_streams_token_by_token_and_reports_usage() {
    let server = ScriptedServer::start();
    let llm = connect("openai/gpt-4o", &server, &fast_retries());
    server.push(Step::Says("one two three four five six seven".into()));
    let mut deltas = Vec::new();
    let reply = llm
        .stream(&ask(), &mut |d| {
            deltas.push(d.to_string());
            true
        })
        .unwrap();
    assert!(deltas.len() >= 3, "{deltas:?}");
    assert_eq!(deltas.concat(), "one two three four five six seven");
    assert_eq!(reply.text, deltas.concat());
    assert!(reply.usage.completion_tokens > 0);
    let body = server.requests()[0].json();
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"]["include_usage"], true);
}

#[test]
fn a_cut_stream_is_an_error_after_the_text_that_arrived() {
    let server = ScriptedServer::start();
    let llm = connect("openai/gpt-4o", &server, &fast_retries());
    server.push(Step::Chunks {
        content_type: "text/event-stream".into(),
        chunks: vec![
            "data: {\"choices\":[{\"delta\":{\"content\":\"Revenue was \"}}]}\n\n".into(),
            "data: {\"choices\":[{\"delta\":{\"content\":\"$4\"}}]}\n\n".into(),
        ],
        delay: Duration::from_millis(5),
    });
    let mut seen = String::new();
    let err = llm
        .stream(&ask(), &mut |d| {
            seen.push_str(d);
            true
        })
        .unwrap_err();
    assert_eq!(seen, "Revenue was $4");
    assert!(
        matches!(err, LlmError::BadReply(ref m) if m.contains("[DONE]")),
        "{err}"
    );

    server.push(Step::Chunks {
        content_type: "text/event-stream".into(),
        chunks: vec!["data: {not json\n\n".into()],
        delay: Duration::ZERO,
    });
    let err = llm.stream(&ask(), &mut |_| true).unwrap_err();
    assert!(matches!(err, LlmError::BadReply(_)), "{err}");
}

#[test]
fn anthropic_messages_and_sse_events() {
    let server = ScriptedServer::start();
    let llm = connect("anthropic/claude-sonnet-4-5", &server, &fast_retries());
    server.push(Step::Says("Plain reply.".into()));
    let reply = llm.complete(&ask()).unwrap();
    assert_eq!(reply.text, "Plain reply.");
    let sent = &server.requests()[0];
    assert_eq!(sent.url, "/v1/messages");
    assert_eq!(sent.header("x-api-key"), Some(KEY));
    assert_eq!(sent.header("anthropic-version"), Some("2023-06-01"));
    assert!(sent.header("authorization").is_none());
    let body = sent.json();
    assert_eq!(body["system"], "You are terse.");
    assert_eq!(body["messages"][0]["role"], "user");
    assert_eq!(body["model"], "claude-sonnet-4-5");

    server.push(Step::Says("alpha beta gamma delta epsilon".into()));
    let mut deltas = Vec::new();
    let streamed = llm
        .stream(&ask(), &mut |d| {
            deltas.push(d.to_string());
            true
        })
        .unwrap();
    assert!(deltas.len() >= 2);
    assert_eq!(streamed.text, "alpha beta gamma delta epsilon");
    assert!(streamed.usage.prompt_tokens > 0 && streamed.usage.completion_tokens > 0);

    server.push(Step::Chunks {
        content_type: "text/event-stream".into(),
        chunks: vec![
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5}}}\n\n".into(),
            "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n".into(),
        ],
        delay: Duration::ZERO,
    });
    let err = llm.stream(&ask(), &mut |_| true).unwrap_err();
    assert!(err.to_string().contains("Overloaded"), "{err}");
    assert_no_key_anywhere(&server, &err.to_string());
}

#[test]
fn azure_uses_the_deployment_url_and_api_key_header() {
    let server = ScriptedServer::start();
    let llm = connect("azure/prod-gpt4o", &server, &fast_retries());
    llm.complete(&ask()).unwrap();
    let sent = &server.requests()[0];
    assert_eq!(
        sent.url,
        "/openai/deployments/prod-gpt4o/chat/completions?api-version=2024-10-21"
    );
    assert_eq!(sent.header("api-key"), Some(KEY));
    assert!(sent.header("authorization").is_none());
}

#[test]
fn bedrock_converse_is_signed_with_sigv4() {
    let server = ScriptedServer::start();
    let llm = connect(
        "bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0",
        &server,
        &fast_retries(),
    );
    server.push(Step::Says("Signed hello.".into()));
    let reply = llm.complete(&ask()).unwrap();
    assert_eq!(reply.text, "Signed hello.");
    let sent = &server.requests()[0];
    assert_eq!(
        sent.url,
        "/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse"
    );
    let auth = sent.header("authorization").unwrap();
    assert!(
        auth.starts_with("AWS4-HMAC-SHA256 Credential=AKIDTEST/"),
        "{auth}"
    );
    assert!(auth.contains("/us-east-1/bedrock/aws4_request"), "{auth}");
    assert!(
        auth.contains("SignedHeaders=") && auth.contains("x-amz-date"),
        "{auth}"
    );
    assert!(auth.contains("Signature="));
    assert_eq!(sent.header("x-amz-security-token"), Some("session-token-1"));
    assert!(sent.header("x-amz-date").is_some());
    assert_eq!(
        expected_signature(&server.base_url, sent),
        auth.rsplit("Signature=").next().unwrap(),
        "the request sent is the request signed"
    );
    let body = sent.json();
    assert_eq!(body["system"][0]["text"], "You are terse.");
    assert_eq!(body["messages"][0]["content"][0]["text"], "Say hello.");
    assert_eq!(body["inferenceConfig"]["maxTokens"], 2048);
    assert_no_key_anywhere(&server, auth);
}

/// The SigV4 signature AWS would compute for the request as received, at its x-amz-date.
fn expected_signature(base: &str, sent: &docindex_scripted::Recorded) -> String {
    use aws_sigv4::http_request::{sign, SignableBody, SignableRequest, SigningSettings};
    let date = sent.header("x-amz-date").unwrap();
    let parse = |range: std::ops::Range<usize>| date[range].parse::<u64>().unwrap();
    let days = days_from_civil(parse(0..4) as i64, parse(4..6) as i64, parse(6..8) as i64);
    let secs = days as u64 * 86_400 + parse(9..11) * 3600 + parse(11..13) * 60 + parse(13..15);
    let time = std::time::UNIX_EPOCH + Duration::from_secs(secs);
    let identity = aws_credential_types::Credentials::new(
        "AKIDTEST",
        KEY,
        Some("session-token-1".into()),
        None,
        "test",
    )
    .into();
    let params = aws_sigv4::sign::v4::SigningParams::builder()
        .identity(&identity)
        .region("us-east-1")
        .name("bedrock")
        .time(time)
        .settings(SigningSettings::default())
        .build()
        .unwrap()
        .into();
    let url = format!("{base}{}", sent.url);
    let headers = [
        ("content-type", sent.header("content-type").unwrap()),
        ("accept", sent.header("accept").unwrap()),
    ];
    let signable = SignableRequest::new(
        "POST",
        &url,
        headers.into_iter(),
        SignableBody::Bytes(sent.body.as_bytes()),
    )
    .unwrap();
    let (_, signature) = sign(signable, &params).unwrap().into_parts();
    signature
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[test]
fn ollama_chat_and_ndjson_stream() {
    let server = ScriptedServer::start();
    let llm = connect("ollama/llama3.1:8b", &server, &fast_retries());
    let reply = llm.complete(&ask().with_json()).unwrap();
    assert_eq!(reply.text, "I am a scripted model.");
    let sent = &server.requests()[0];
    assert_eq!(sent.url, "/api/chat");
    let body = sent.json();
    assert_eq!(body["model"], "llama3.1:8b");
    // The window is not known yet: Ollama's own default stands.
    assert!(body["options"].get("num_ctx").is_none());
    assert_eq!(body["format"], "json");
    // Every request streams, so a slow model's progress can be seen.
    assert_eq!(body["stream"], true);
    assert_eq!(body["options"]["num_predict"], 2048);

    let mut deltas = Vec::new();
    let streamed = llm
        .stream(&ask(), &mut |d| {
            deltas.push(d.to_string());
            true
        })
        .unwrap();
    assert!(deltas.len() >= 2);
    assert_eq!(streamed.text, "I am a scripted model.");
    assert!(streamed.usage.prompt_tokens > 0);
}

#[test]
fn rate_limits_and_server_errors_are_retried_honouring_retry_after() {
    let server = ScriptedServer::start();
    let llm = connect("openai/gpt-4o", &server, &fast_retries());
    server.push(Step::rate_limited("0"));
    server.push(Step::status(
        503,
        r#"{"error":{"message":"upstream overloaded"}}"#,
    ));
    let started = std::time::Instant::now();
    let reply = llm.complete(&ask()).unwrap();
    assert_eq!(reply.text, "I am a scripted model.");
    assert_eq!(server.requests().len(), 3);
    assert!(started.elapsed() < Duration::from_secs(2));

    // Retry-After of one second is waited out, not shortened.
    server.push(Step::rate_limited("1"));
    let started = std::time::Instant::now();
    llm.complete(&ask()).unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(190),
        "{:?}",
        started.elapsed()
    );

    for _ in 0..3 {
        server.push(Step::rate_limited("0"));
    }
    let err = llm.complete(&ask()).unwrap_err();
    assert!(
        matches!(err, LlmError::RateLimited { attempts: 3, ref message } if message.contains("Rate limit")),
        "{err}"
    );
    // The retries are in the log (through tracing), naming the host, never the key.
    assert!(
        logs()
            .lines()
            .iter()
            .any(|l| l.contains("WARN") && l.contains("retrying in")),
        "{:?}",
        logs().lines()
    );
    assert_no_key_anywhere(&server, &err.to_string());
}

#[test]
fn bad_credentials_and_bad_requests_are_not_retried() {
    let server = ScriptedServer::start();
    let llm = connect("openai/gpt-4o", &server, &fast_retries());
    server.push(Step::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided"}}"#,
    ));
    let err = llm.complete(&ask()).unwrap_err();
    assert!(matches!(err, LlmError::Auth { status: 401, .. }), "{err}");
    assert_eq!(err.fault(), docindex_core::Fault::User);
    assert_eq!(server.requests().len(), 1);

    server.push(Step::status(
        404,
        r#"{"error":{"message":"The model does not exist"}}"#,
    ));
    let err = llm.complete(&ask()).unwrap_err();
    assert!(err.to_string().contains("does not exist"), "{err}");
    assert_eq!(server.requests().len(), 2);
    assert_no_key_anywhere(&server, &err.to_string());
}

#[test]
fn a_slow_provider_times_out_after_the_retries() {
    let server = ScriptedServer::start();
    let settings = ProviderSettings {
        timeout: Some(Duration::from_millis(300)),
        retry: Some(RetryPolicy {
            max_attempts: 2,
            base_delay: Duration::from_millis(10),
            max_delay: Duration::from_millis(20),
        }),
        ..Default::default()
    };
    let llm = connect("openai/gpt-4o", &server, &settings);
    server.push(Step::Slow(Duration::from_millis(1500)));
    server.push(Step::Slow(Duration::from_millis(1500)));
    let err = llm.complete(&ask()).unwrap_err();
    assert!(
        matches!(err, LlmError::Timeout { attempts: 2, .. }),
        "{err}"
    );
    // A reply that is slow but within the timeout is fine.
    server.push(Step::Slow(Duration::from_millis(50)));
    assert!(llm.complete(&ask()).is_ok());
}

#[test]
fn malformed_bodies_are_bad_replies_and_json_gets_one_corrective_re_ask() {
    let server = ScriptedServer::start();
    let llm = connect("openai/gpt-4o", &server, &fast_retries());
    server.push(Step::status(200, "<html>gateway page</html>"));
    let err = llm.complete(&ask()).unwrap_err();
    assert!(matches!(err, LlmError::BadReply(_)), "{err}");

    #[derive(serde::Deserialize)]
    struct Pick {
        node_id: String,
    }
    server.push(Step::Says("The best match is node 0004, I believe.".into()));
    server.push(Step::Says("```json\n{\"node_id\": \"0004\",}\n```".into()));
    let reply = complete_json::<Pick>(&llm, &ask()).unwrap();
    assert_eq!(reply.value.node_id, "0004");
    let second = server.requests()[2].json();
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4);
    assert_eq!(messages[2]["role"], "assistant");
    assert!(messages[3]["content"]
        .as_str()
        .unwrap()
        .contains("could not be used"));
}

#[test]
fn requests_in_flight_are_bounded() {
    let server = ScriptedServer::start();
    let settings = ProviderSettings {
        max_in_flight: Some(2),
        ..fast_retries()
    };
    let llm = Arc::new(connect("openai/gpt-4o", &server, &settings));
    for _ in 0..6 {
        server.push(Step::Slow(Duration::from_millis(150)));
    }
    std::thread::scope(|s| {
        for _ in 0..6 {
            let llm = llm.clone();
            s.spawn(move || llm.complete(&ask()).unwrap());
        }
    });
    assert_eq!(server.stats().calls, 6);
    assert_eq!(server.stats().max_in_flight, 2);
}

#[test]
fn a_cache_hit_makes_no_provider_call() {
    let server = ScriptedServer::start();
    let llm: Arc<dyn Llm> = Arc::new(connect("anthropic/claude-x", &server, &fast_retries()));
    let cached = CachedLlm::new(
        llm,
        Arc::new(MemoryCache::default()),
        Duration::from_secs(3600),
    );
    let first = cached.complete(&ask()).unwrap();
    let second = cached.complete(&ask()).unwrap();
    assert!(!first.cached && second.cached);
    assert_eq!(first.text, second.text);
    assert_eq!(server.stats().calls, 1);
    let mut streamed = String::new();
    cached
        .stream(&ask(), &mut |d| {
            streamed.push_str(d);
            true
        })
        .unwrap();
    assert_eq!(streamed, first.text);
    assert_eq!(server.stats().calls, 1);
}

/// A server on loopback that answers one request with an SSE stream written piece by piece,
/// each after its pause and flushed at once (tiny_http buffers small pieces, which hides
/// exactly the timing these tests are about).
fn paced_sse_server(pieces: Vec<(Duration, String)>) -> String {
    paced_sse_server_for(vec![pieces])
}

/// A server answering its n-th request with the n-th stream of `replies`.
fn paced_sse_server_for(replies: Vec<Vec<(Duration, String)>>) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for pieces in replies {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0u8; length];
            std::io::Read::read_exact(&mut reader, &mut body).unwrap();
            let mut out = stream;
            out.write_all(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n",
            )
            .unwrap();
            out.flush().unwrap();
            for (pause, piece) in pieces {
                std::thread::sleep(pause);
                if out
                    .write_all(piece.as_bytes())
                    .and_then(|_| out.flush())
                    .is_err()
                {
                    return;
                }
            }
        }
    });
    format!("http://127.0.0.1:{port}")
}

fn delta_event(text: &str) -> String {
    format!(
        "data: {}\n\n",
        serde_json::json!({"choices": [{"index": 0, "delta": {"content": text}}]})
    )
}

/// The last event of a stream the model finished.
fn finish_event() -> String {
    format!(
        "data: {}\n\n",
        serde_json::json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    )
}

#[test]
fn a_stream_the_server_ends_before_the_model_finished_is_no_reply() {
    // llama.cpp's Python server ends a running stream with [DONE] when another request
    // arrives: the half reply must not pass for the model's answer.
    let pieces = vec![
        (Duration::ZERO, delta_event("{\"summaries\": [")),
        (Duration::ZERO, "data: [DONE]\n\n".to_string()),
    ];
    let whole = vec![
        (Duration::ZERO, delta_event("{\"summaries\": []}")),
        (Duration::ZERO, finish_event()),
        (Duration::ZERO, "data: [DONE]\n\n".to_string()),
    ];
    // Shown as it streams, the cut reply is an error.
    let llm = connect_to(
        &paced_sse_server(pieces.clone()),
        Duration::from_millis(400),
    );
    let err = llm.stream(&ask(), &mut |_| true).unwrap_err();
    assert!(
        err.to_string().contains("before the model finished"),
        "{err}"
    );
    // Asked whole, it is asked once more, and the whole reply is the answer.
    let llm = connect_to(
        &paced_sse_server_for(vec![pieces, whole]),
        Duration::from_millis(400),
    );
    assert_eq!(llm.complete(&ask()).unwrap().text, "{\"summaries\": []}");
}

fn connect_to(base_url: &str, timeout: Duration) -> Connection {
    let settings = ProviderSettings {
        base_url: Some(base_url.to_string()),
        timeout: Some(timeout),
        ..fast_retries()
    };
    Connection::with_env("openai/local", &settings, &|_| None).unwrap()
}

#[test]
fn a_slow_model_that_keeps_streaming_is_waited_for() {
    // Pings while it reads the prompt, then a word at a time: 2.4 s in all, never 400 ms
    // silent. A fixed 400 ms timeout would have cut it and sent it again.
    let beat = Duration::from_millis(200);
    let mut pieces = vec![(beat, ": ping\n\n".to_string()); 6];
    for word in ["Revenue ", "rose ", "8%."] {
        pieces.push((beat, delta_event(word)));
    }
    pieces.push((Duration::ZERO, finish_event()));
    pieces.push((beat, "data: [DONE]\n\n".to_string()));
    let llm = connect_to(&paced_sse_server(pieces), Duration::from_millis(400));
    let started = std::time::Instant::now();
    let reply = llm.complete(&ask()).unwrap();
    assert_eq!(reply.text, "Revenue rose 8%.");
    assert!(started.elapsed() >= Duration::from_secs(2));
    // Usage the stream did not report is counted with our tokenizer.
    assert!(reply.usage.prompt_tokens > 0 && reply.usage.completion_tokens > 0);
}

#[test]
fn a_reply_that_stalls_fails_as_stalled() {
    let pieces = vec![
        (Duration::ZERO, delta_event("Revenue")),
        (Duration::from_millis(1500), "data: [DONE]\n\n".to_string()),
    ];
    let llm = connect_to(&paced_sse_server(pieces), Duration::from_millis(300));
    let err = llm.complete(&ask()).unwrap_err();
    assert!(matches!(err, LlmError::Stalled { .. }), "{err}");
}

#[test]
fn a_reply_schema_is_sent_the_way_the_server_takes_it() {
    let server = ScriptedServer::start();
    let llm = connect("openai/local", &server, &fast_retries());
    let schema = serde_json::json!({"type": "object", "properties": {"node_id": {"type": "string"}},
        "required": ["node_id"], "additionalProperties": false});
    let request = ask().with_schema("pick", schema.clone());
    // llama.cpp's Python server refuses `json_schema` (its request model knows only
    // `json_object`): the schema goes again beside `json_object`, and is remembered.
    // Its own words, with its own status (500), which is not retried as it was.
    server.push(Step::status(
        500,
        r#"{"message":"1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\"}"}"#,
    ));
    llm.complete(&request).unwrap();
    llm.complete(&request).unwrap();
    let sent = server.requests();
    assert_eq!(sent.len(), 3);
    let first = &sent[0].json()["response_format"];
    assert_eq!(first["type"], "json_schema");
    assert_eq!(first["json_schema"]["schema"], schema);
    assert_eq!(first["json_schema"]["strict"], true);
    for later in &sent[1..] {
        let format = &later.json()["response_format"];
        assert_eq!(format["type"], "json_object");
        assert_eq!(format["schema"], schema);
    }

    // Ollama takes the schema as `format`.
    let ollama = connect("ollama/qwen2.5", &server, &fast_retries());
    ollama.complete(&request).unwrap();
    assert_eq!(server.requests()[3].json()["format"], schema);
}

#[test]
fn the_context_window_is_learned_from_the_server() {
    let server = ScriptedServer::start();
    server.limit_context(300);
    let llm = connect("openai/local", &server, &fast_retries());
    // The server lists no window; asked for more tokens than any window holds, it names it.
    assert_eq!(llm.context_window(), Some(300));
    // A prompt too long for it: the stream comes back empty, asked plainly the server says why.
    let long = LlmRequest::new("system", "word ".repeat(400));
    let err = llm.complete(&long).unwrap_err();
    assert!(
        matches!(err, LlmError::ContextExceeded { window: 300, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("context window of 300 tokens"));

    // A stated window is believed without asking.
    let stated = ProviderSettings {
        context_window: Some(4096),
        ..fast_retries()
    };
    let calls = server.stats().calls;
    assert_eq!(
        connect("openai/local", &server, &stated).context_window(),
        Some(4096)
    );
    assert_eq!(server.stats().calls, calls);
}

#[test]
fn ollama_is_asked_its_window_and_told_to_use_it() {
    let server = ScriptedServer::start();
    let llm = connect("ollama/qwen2.5", &server, &fast_retries());
    // The model was trained for 32k; its own default is far smaller and cuts a longer prompt
    // silently, so the window asked for is set, at most 8k.
    assert_eq!(llm.context_window(), Some(8192));
    let shown = &server.requests()[0];
    assert_eq!(shown.url, "/api/show");
    assert_eq!(shown.json()["model"], "qwen2.5");
    llm.complete(&ask()).unwrap();
    assert_eq!(server.requests()[1].json()["options"]["num_ctx"], 8192);
    // A model file that sets `num_ctx` is believed.
    server.limit_context(4096);
    let set = connect("ollama/qwen2.5", &server, &fast_retries());
    assert_eq!(set.context_window(), Some(4096));
}
