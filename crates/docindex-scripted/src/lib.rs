//! A scripted LLM provider for tests and the economy benchmark. It listens on loopback,
//! records every request, answers from a queue of scripted steps (errors, slow replies,
//! malformed or cut streams) and otherwise as a "fake model" that reads our prompts and
//! replies in the wire format of the path it was called on (OpenAI/Azure chat completions,
//! Anthropic messages, Bedrock Converse, Ollama chat), including streams. It counts calls
//! and prompt tokens with the same tokenizer as the index.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_core::prompts::opening::{
    ANSWER_FROM_SOURCES, DECOMPOSE_QUESTION, DESCRIBE_DOCUMENT, JUDGE_EXCERPTS, LIST_HEADINGS,
    MATCH_REFERENCES, PLAN_NEXT_STEP, SCORE_SECTIONS, SUMMARISE_EVIDENCE, SUMMARISE_SECTIONS,
};
use docindex_core::tokens::TokenCounter;
use regex::Regex;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tiny_http::{Header, Response, Server, StatusCode};

/// One request as the server received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// Path and query.
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// What to answer the next request with.
#[derive(Debug, Clone)]
pub enum Step {
    /// A whole response.
    Reply {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// A body sent in pieces with a pause before each (a stream; leave out the end marker
    /// to cut it short).
    Chunks {
        content_type: String,
        chunks: Vec<String>,
        delay: Duration,
    },
    /// Wait, then answer as the fake model would.
    Slow(Duration),
    /// The fake model answers, but its reply text is this.
    Says(String),
}

impl Step {
    pub fn status(status: u16, body: &str) -> Step {
        Step::Reply {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string(),
        }
    }
    pub fn rate_limited(retry_after: &str) -> Step {
        Step::Reply {
            status: 429,
            headers: vec![("retry-after".into(), retry_after.into())],
            body: r#"{"error":{"message":"Rate limit reached"}}"#.into(),
        }
    }
}

/// Calls and tokens the server saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub calls: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub max_in_flight: usize,
}

#[derive(Default)]
struct State {
    script: Mutex<VecDeque<Step>>,
    requests: Mutex<Vec<Recorded>>,
    calls: AtomicU64,
    prompt_tokens: AtomicU64,
    completion_tokens: AtomicU64,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    /// Requests answered with an error because of [`ScriptedServer::fail_half`].
    failed: AtomicU64,
    fail_half: AtomicBool,
    /// The context window of [`ScriptedServer::limit_context`] (0: none).
    context: AtomicUsize,
}

pub struct ScriptedServer {
    pub base_url: String,
    state: Arc<State>,
    server: Arc<Server>,
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        self.server.unblock();
    }
}

impl ScriptedServer {
    /// Listen on an ephemeral loopback port.
    pub fn start() -> Self {
        Self::start_on("127.0.0.1:0")
    }

    pub fn start_on(addr: &str) -> Self {
        let server = Arc::new(Server::http(addr).expect("bind the scripted server"));
        let port = server.server_addr().to_ip().expect("an IP address").port();
        let state = Arc::new(State::default());
        let (s, st) = (server.clone(), state.clone());
        std::thread::spawn(move || {
            while let Ok(request) = s.recv() {
                let st = st.clone();
                std::thread::spawn(move || serve(request, &st));
            }
        });
        ScriptedServer {
            base_url: format!("http://127.0.0.1:{port}"),
            state,
            server,
        }
    }

    /// Answer the next request with `step` (steps are used in order, then the fake model).
    pub fn push(&self, step: Step) {
        self.state.script.lock().unwrap().push_back(step);
    }

    /// A flaky provider: once the script is used up, about half of all prompts (chosen by
    /// a hash of the prompt, so every retry of one fails too) get a 500 or a 429 with
    /// `retry-after: 0`; the others get the fake model's reply.
    pub fn fail_half(&self) {
        self.state.fail_half.store(true, Ordering::SeqCst);
    }

    /// A server with a context window of `tokens`, as llama.cpp's Python server has one: a
    /// chat request whose prompt and `max_tokens` exceed it is refused with HTTP 400 naming
    /// the window, or, when it asked to stream, answered with an empty stream.
    pub fn limit_context(&self, tokens: usize) {
        self.state.context.store(tokens, Ordering::SeqCst);
    }

    /// Requests answered with an error by [`ScriptedServer::fail_half`].
    pub fn failed(&self) -> u64 {
        self.state.failed.load(Ordering::SeqCst)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.requests.lock().unwrap().clone()
    }

    pub fn stats(&self) -> Stats {
        Stats {
            calls: self.state.calls.load(Ordering::SeqCst),
            prompt_tokens: self.state.prompt_tokens.load(Ordering::SeqCst),
            completion_tokens: self.state.completion_tokens.load(Ordering::SeqCst),
            max_in_flight: self.state.max_in_flight.load(Ordering::SeqCst),
        }
    }
}

/// A request is in flight from its arrival until its reply starts: the client may send the
/// next one as soon as it has read this reply, before this thread could count it done.
fn serve(mut request: tiny_http::Request, state: &State) {
    let now = state.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    state.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let mut body = String::new();
    let _ = request.as_reader().read_to_string(&mut body);
    let recorded = Recorded {
        method: request.method().to_string(),
        url: request.url().to_string(),
        headers: request
            .headers()
            .iter()
            .map(|h| (h.field.to_string(), h.value.to_string()))
            .collect(),
        body,
    };
    state.requests.lock().unwrap().push(recorded.clone());
    state.calls.fetch_add(1, Ordering::SeqCst);
    let window = state.context.load(Ordering::SeqCst);
    // Ollama says what its model was trained for (and, with a window set, that as `num_ctx`).
    if recorded.url.ends_with("/api/show") {
        state.in_flight.fetch_sub(1, Ordering::SeqCst);
        let parameters = if window > 0 {
            format!("num_ctx {window}")
        } else {
            String::new()
        };
        let shown =
            json!({"model_info": {"qwen2.context_length": 32768}, "parameters": parameters});
        respond_json(request, &shown);
        return;
    }
    if window > 0 && recorded.url.ends_with("/chat/completions") {
        let body = recorded.json();
        let asked = TokenCounter::new()
            .expect("tokenizer")
            .count(&prompt_text(&recorded))
            + body.get("max_tokens").and_then(Value::as_u64).unwrap_or(0) as usize;
        if asked > window {
            state.in_flight.fetch_sub(1, Ordering::SeqCst);
            if body.get("stream").and_then(Value::as_bool) == Some(true) {
                respond_chunks(request, "text/event-stream", Vec::new(), Duration::ZERO);
            } else {
                let message = format!(
                    "This model's maximum context length is {window} tokens. However, you \
requested {asked} tokens. Please reduce the length of the messages or completion."
                );
                let body = json!({"error": {"message": message, "type": "invalid_request_error",
                    "code": "context_length_exceeded"}});
                let _ = request.respond(
                    Response::from_string(body.to_string())
                        .with_status_code(400)
                        .with_header(
                            Header::from_bytes("content-type", "application/json").unwrap(),
                        ),
                );
            }
            return;
        }
    }
    // The script is for the requests of a job: a probe (a request for more reply tokens
    // than any window holds, or a GET of the server's model listing) leaves it alone.
    let probe = recorded.method != "POST"
        || recorded.json().get("max_tokens").and_then(Value::as_u64) >= Some(1_000_000);
    let mut step = if probe {
        None
    } else {
        state.script.lock().unwrap().pop_front()
    };
    if step.is_none() && state.fail_half.load(Ordering::SeqCst) {
        let hash = prompt_text(&recorded)
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
        if hash % 2 == 0 {
            state.failed.fetch_add(1, Ordering::SeqCst);
            let (status, message) = if hash % 4 == 0 {
                (500, "Internal server error")
            } else {
                (429, "Rate limit reached")
            };
            step = Some(Step::Reply {
                status,
                headers: vec![("retry-after".into(), "0".into())],
                body: format!(r#"{{"error":{{"message":"{message}"}}}}"#),
            });
        }
    }
    let said = match step {
        Some(Step::Reply {
            status,
            headers,
            body,
        }) => {
            let mut response = Response::from_string(body).with_status_code(status);
            for (k, v) in headers {
                response.add_header(Header::from_bytes(k.as_bytes(), v.as_bytes()).unwrap());
            }
            state.in_flight.fetch_sub(1, Ordering::SeqCst);
            let _ = request.respond(response);
            None
        }
        Some(Step::Chunks {
            content_type,
            chunks,
            delay,
        }) => {
            state.in_flight.fetch_sub(1, Ordering::SeqCst);
            respond_chunks(request, &content_type, chunks, delay);
            None
        }
        Some(Step::Slow(pause)) => {
            std::thread::sleep(pause);
            Some((request, None))
        }
        Some(Step::Says(text)) => Some((request, Some(text))),
        None => Some((request, None)),
    };
    if let Some((request, text)) = said {
        let prompt = prompt_text(&recorded);
        let counter = TokenCounter::new().expect("tokenizer");
        let reply = text.unwrap_or_else(|| fake_model(&prompt));
        let prompt_tokens = counter.count(&prompt) as u64;
        let completion_tokens = counter.count(&reply) as u64;
        state
            .prompt_tokens
            .fetch_add(prompt_tokens, Ordering::SeqCst);
        state
            .completion_tokens
            .fetch_add(completion_tokens, Ordering::SeqCst);
        state.in_flight.fetch_sub(1, Ordering::SeqCst);
        answer_in_wire_format(request, &recorded, &reply, prompt_tokens, completion_tokens);
    }
}

struct ChunkReader {
    chunks: VecDeque<Vec<u8>>,
    current: Vec<u8>,
    delay: Duration,
}

impl Read for ChunkReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.current.is_empty() {
            match self.chunks.pop_front() {
                Some(next) => {
                    std::thread::sleep(self.delay);
                    self.current = next;
                }
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current[..n]);
        self.current.drain(..n);
        Ok(n)
    }
}

fn respond_chunks(
    request: tiny_http::Request,
    content_type: &str,
    chunks: Vec<String>,
    delay: Duration,
) {
    let reader = ChunkReader {
        chunks: chunks.into_iter().map(String::into_bytes).collect(),
        current: Vec::new(),
        delay,
    };
    let headers = vec![Header::from_bytes("content-type", content_type.as_bytes()).unwrap()];
    let response = Response::new(StatusCode(200), headers, reader, None, None);
    let _ = request.respond(response);
}

/// Judgements of the items a prompt lists (ids captured by `item`): the first is relevant,
/// the rest are not, and one more judges `invented`, an id the prompt never offered.
fn judge_first_of_each(prompt: &str, item: &str, id_key: &str, invented: &str) -> Vec<Value> {
    let mut judged: Vec<Value> = Regex::new(item)
        .unwrap()
        .captures_iter(prompt)
        .enumerate()
        .map(|(i, c)| {
            let relevance = if i == 0 { 0.9 } else { 0.2 };
            json!({id_key: &c[1], "relevance": relevance, "reason": format!("scripted judgement {}", i + 1)})
        })
        .collect();
    judged.push(json!({id_key: invented, "relevance": 1.0, "reason": "not offered"}));
    judged
}

/// The text of every message of the request, whatever its wire format.
pub fn prompt_text(recorded: &Recorded) -> String {
    let v = recorded.json();
    let mut out = String::new();
    let mut push = |s: &str| {
        out.push_str(s);
        out.push('\n');
    };
    if let Some(system) = v.get("system") {
        match system {
            Value::String(s) => push(s),
            Value::Array(parts) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .for_each(&mut push),
            _ => {}
        }
    }
    for m in v
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match m.get("content") {
            Some(Value::String(s)) => push(s),
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .for_each(&mut push),
            _ => {}
        }
    }
    out
}

/// Replies to our own prompts as a cooperative model would, plus one reference to
/// something that does not exist in each list, so the product's checks are exercised.
pub fn fake_model(prompt: &str) -> String {
    if prompt.contains(LIST_HEADINGS) {
        let line = Regex::new(r"(?m)^\[(\d+)\] (.+)$").unwrap();
        let mut headings = Vec::new();
        for cap in line.captures_iter(prompt) {
            let text = cap[2].trim();
            let figures = text
                .split_whitespace()
                .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
                .count();
            let looks_like_heading = text.len() < 70
                && figures == 0
                && text.chars().next().is_some_and(char::is_uppercase)
                && !text.ends_with('.')
                && text.split_whitespace().count() <= 8;
            if looks_like_heading {
                headings.push(
                    json!({"block": cap[1].parse::<u64>().unwrap(), "title": text, "level": 1}),
                );
            }
        }
        headings.push(json!({"block": 99_999_999u64, "title": "Invented heading", "level": 1}));
        return json!({ "headings": headings }).to_string();
    }
    if prompt.contains(SCORE_SECTIONS) {
        let scores = judge_first_of_each(prompt, r"(?m)^\[([CE]\d+)\] ", "node_id", "C999");
        return json!({ "scores": scores }).to_string();
    }
    if prompt.contains(JUDGE_EXCERPTS) {
        let judgements = judge_first_of_each(prompt, r"(?m)^\[(X\d+)\] ", "id", "X999");
        return json!({ "judgements": judgements }).to_string();
    }
    if prompt.contains(SUMMARISE_EVIDENCE) {
        return "The filing discusses the topic in several sections [E1].".to_string();
    }
    if prompt.contains(DECOMPOSE_QUESTION) {
        // One sub-question per listed company whose first word the question names, the
        // first with a year the question does not name; and one about a company nobody named.
        let question = Regex::new(r"(?m)^Question: (.+)$")
            .unwrap()
            .captures(prompt)
            .map(|c| c[1].to_string())
            .unwrap_or_default();
        let filer = Regex::new(r"(?m)^- (.+?)(?: \(([A-Z.]+)\))?: fiscal years").unwrap();
        let lower = question.to_lowercase();
        let mut subs: Vec<Value> = filer
            .captures_iter(prompt)
            .filter(|c| {
                let first = c[1]
                    .split([' ', ','])
                    .next()
                    .unwrap_or_default()
                    .to_lowercase();
                lower.contains(&first)
            })
            .map(|c| {
                json!({"question": format!("What does {} report: {question}", &c[1]),
                       "target_company": &c[1], "target_year": null})
            })
            .collect();
        if let Some(first) = subs.first_mut() {
            first["target_year"] = json!(1987);
        }
        subs.push(json!({"question": "What did Globex Corporation report?",
                         "target_company": "Globex Corporation", "target_year": null}));
        return json!({ "sub_questions": subs }).to_string();
    }
    if prompt.contains(PLAN_NEXT_STEP) {
        let candidate = Regex::new(r"(?m)^\[([0-9a-f]{1,6}:\d{4})\] ").unwrap();
        let first = candidate.captures(prompt).map(|c| c[1].to_string());
        return if prompt.contains("Read so far:\n(nothing yet)") {
            json!({"action": "read", "node_ids": [first, "ffffff:9999"], "reason": "most relevant"})
        } else {
            json!({"action": "answer", "node_ids": []})
        }
        .to_string();
    }
    if prompt.contains(ANSWER_FROM_SOURCES) {
        // An obedient model: a source that tells it what to answer is followed, and quoted.
        let injected = Regex::new(r"Ignore previous instructions[^.\n]*\.").unwrap();
        if let Some(found) = injected.find(prompt) {
            let label = Regex::new(r"(?m)^(S\d+): ")
                .unwrap()
                .captures_iter(&prompt[..found.start()])
                .last()
                .map(|c| c[1].to_string())
                .unwrap_or_else(|| "S1".to_string());
            return format!(
                "Revenue was $1 trillion [1].\nSOURCES:\n[1] {label}: \"{}\"\n",
                found.as_str()
            );
        }
        // A small model: it states the figure it was given and quotes its source loosely
        // (a word dropped, the case changed), as a 1.5B model does.
        if prompt.to_lowercase().contains("in your own words") {
            let note = Regex::new(r"cite the rows they come from, not this note\): (.+)").unwrap();
            let amount = Regex::new(r"\$[\d,]+(?:\.\d+)? (?:million|billion|thousand)").unwrap();
            let noted = note.captures(prompt).map(|c| c[1].to_string());
            let figure = noted
                .as_deref()
                .and_then(|n| amount.find(n).map(|m| m.as_str().to_string()))
                .unwrap_or_default();
            // A share it works out itself: rounded to one decimal, and cited nowhere.
            let share = Regex::new(r"(\d+\.\d+)%").unwrap();
            if let Some(percent) = noted
                .as_deref()
                .filter(|_| figure.is_empty())
                .and_then(|n| share.captures(n))
                .and_then(|c| c[1].parse::<f64>().ok())
            {
                return format!("The margin works out to {percent:.1}%.");
            }
            let first = Regex::new(r"(?m)^S1: .*\n(.+)$").unwrap();
            let line = first
                .captures(prompt)
                .map(|c| c[1].to_string())
                .unwrap_or_default();
            let sentence = line.split(". ").next().unwrap_or_default().to_string();
            let mut words: Vec<&str> = sentence.split_whitespace().collect();
            if words.len() > 6 {
                words.remove(2);
            }
            let loose = words.join(" ").to_lowercase();
            return format!("The figure is {figure}. [1]\nSOURCES:\n[1] S1: \"{loose}\"\n");
        }
        let source = Regex::new(r"(?m)^S1: .*\n(.+)$").unwrap();
        let first_line = source
            .captures(prompt)
            .map(|c| c[1].to_string())
            .unwrap_or_default();
        let sentence = match first_line.find(". ") {
            Some(end) => first_line[..=end].to_string(),
            None => first_line.clone(),
        };
        let sentence = sentence.trim().to_string();
        return format!(
            "According to the filing, {sentence} [1] It also reports 42 widgets [2].\nSOURCES:\n[1] S1: \"{sentence}\"\n[2] S1: \"The company sold 42 widgets on the moon.\"\n[3] S9: \"Nothing.\"\n"
        );
    }
    if prompt.contains(SUMMARISE_SECTIONS) {
        let node = Regex::new(r"(?m)^=== node (\d{4,}): (.+)$").unwrap();
        let mut summaries: Vec<Value> = node
            .captures_iter(prompt)
            .map(|c| json!({"node_id": &c[1], "summary": format!("Scripted summary of {}.", c[2].trim())}))
            .collect();
        summaries.push(json!({"node_id": "99999", "summary": "A section that does not exist."}));
        return json!({ "summaries": summaries }).to_string();
    }
    if prompt.contains(DESCRIBE_DOCUMENT) {
        let doc = Regex::new(r"(?m)^Document: (.+?) \(detected type").unwrap();
        let name = doc
            .captures(prompt)
            .map(|c| c[1].to_string())
            .unwrap_or_default();
        return json!({"description": format!("Scripted description of {name}."), "ticker": "ZZZZ"})
            .to_string();
    }
    if prompt.contains(MATCH_REFERENCES) {
        let section = Regex::new(r"(?m)^\[(\d{4,})\] (.+)$").unwrap();
        let sections: Vec<(String, String)> = section
            .captures_iter(prompt)
            .map(|c| (c[1].to_string(), c[2].to_lowercase()))
            .collect();
        let reference = Regex::new(r#"(?m)^(\d+)\. "([^"]+)""#).unwrap();
        let mut matches: Vec<Value> = reference
            .captures_iter(prompt)
            .map(|c| {
                let target = c[2].to_lowercase();
                let found = sections
                    .iter()
                    .find(|(_, path)| path.contains(&target))
                    .map(|(id, _)| id.clone());
                json!({"ref": c[1].parse::<u64>().unwrap(), "node_id": found})
            })
            .collect();
        matches.push(json!({"ref": 0, "node_id": "99999"}));
        return json!({ "matches": matches }).to_string();
    }
    "I am a scripted model.".to_string()
}

/// An Anthropic message whose one block is a `tool_use` of `tool` with `json` as its input,
/// streamed as `input_json_delta` pieces when asked.
fn answer_as_anthropic_tool(
    request: tiny_http::Request,
    tool: &str,
    json: &str,
    streaming: bool,
    prompt_tokens: u64,
    completion_tokens: u64,
) {
    if !streaming {
        let input: Value = serde_json::from_str(json).unwrap_or(Value::Null);
        let reply = json!({
            "id": "msg_scripted", "type": "message", "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_scripted", "name": tool, "input": input}],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": prompt_tokens, "output_tokens": completion_tokens},
        });
        respond_json(request, &reply);
        return;
    }
    let deltas = split_for_stream(json)
        .into_iter()
        .map(|piece| json!({"type": "input_json_delta", "partial_json": piece}))
        .collect();
    let block = json!({"type": "tool_use", "id": "toolu_scripted", "name": tool, "input": {}});
    respond_chunks(
        request,
        "text/event-stream",
        anthropic_stream(block, deltas, "tool_use", prompt_tokens, completion_tokens),
        Duration::from_millis(5),
    );
}

/// An Anthropic message stream of one content block: `block` opened, `deltas` in turn,
/// ended for `stop_reason`.
fn anthropic_stream(
    block: Value,
    deltas: Vec<Value>,
    stop_reason: &str,
    prompt_tokens: u64,
    completion_tokens: u64,
) -> Vec<String> {
    let mut chunks = vec![
        sse(
            "message_start",
            &json!({"type": "message_start", "message": {"usage": {"input_tokens": prompt_tokens, "output_tokens": 1}}}),
        ),
        sse(
            "content_block_start",
            &json!({"type": "content_block_start", "index": 0, "content_block": block}),
        ),
        ": ping\n\n".to_string(),
    ];
    for delta in deltas {
        chunks.push(sse(
            "content_block_delta",
            &json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        ));
    }
    chunks.push(sse(
        "content_block_stop",
        &json!({"type": "content_block_stop", "index": 0}),
    ));
    chunks.push(sse(
        "message_delta",
        &json!({"type": "message_delta", "delta": {"stop_reason": stop_reason}, "usage": {"output_tokens": completion_tokens}}),
    ));
    chunks.push(sse("message_stop", &json!({"type": "message_stop"})));
    chunks
}

fn answer_in_wire_format(
    request: tiny_http::Request,
    recorded: &Recorded,
    text: &str,
    prompt_tokens: u64,
    completion_tokens: u64,
) {
    let body = recorded.json();
    let streaming = body.get("stream").and_then(Value::as_bool) == Some(true);
    let path = recorded.url.split('?').next().unwrap_or_default();
    let pieces = split_for_stream(text);
    if path.ends_with("/chat/completions") {
        if streaming {
            let mut chunks: Vec<String> = pieces
                .iter()
                .map(|p| {
                    format!(
                        "data: {}\n\n",
                        json!({"choices": [{"index": 0, "delta": {"content": p}, "finish_reason": null}]})
                    )
                })
                .collect();
            chunks.push(format!(
                "data: {}\n\ndata: {}\n\ndata: [DONE]\n\n",
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
                json!({"choices": [], "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}})
            ));
            respond_chunks(
                request,
                "text/event-stream",
                chunks,
                Duration::from_millis(5),
            );
        } else {
            let reply = json!({
                "id": "chatcmpl-scripted", "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
            });
            respond_json(request, &reply);
        }
    } else if path.ends_with("/v1/messages") {
        // A reply forced through a tool comes as that tool's input, as Anthropic sends it.
        let forced_tool = body
            .pointer("/tool_choice/name")
            .and_then(Value::as_str)
            .filter(|_| serde_json::from_str::<Value>(text).is_ok_and(|v| v.is_object()));
        if let Some(tool) = forced_tool {
            answer_as_anthropic_tool(
                request,
                tool,
                text,
                streaming,
                prompt_tokens,
                completion_tokens,
            );
            return;
        }
        if streaming {
            let deltas = pieces
                .iter()
                .map(|p| json!({"type": "text_delta", "text": p}))
                .collect();
            let block = json!({"type": "text", "text": ""});
            respond_chunks(
                request,
                "text/event-stream",
                anthropic_stream(block, deltas, "end_turn", prompt_tokens, completion_tokens),
                Duration::from_millis(5),
            );
        } else {
            let reply = json!({
                "id": "msg_scripted", "type": "message", "role": "assistant",
                "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": prompt_tokens, "output_tokens": completion_tokens},
            });
            respond_json(request, &reply);
        }
    } else if path.ends_with("/converse") {
        let reply = json!({
            "output": {"message": {"role": "assistant", "content": [{"text": text}]}},
            "stopReason": "end_turn",
            "usage": {"inputTokens": prompt_tokens, "outputTokens": completion_tokens, "totalTokens": prompt_tokens + completion_tokens},
        });
        respond_json(request, &reply);
    } else if path.ends_with("/api/chat") {
        if streaming {
            let mut chunks: Vec<String> = pieces
                .iter()
                .map(|p| {
                    format!(
                        "{}\n",
                        json!({"message": {"role": "assistant", "content": p}, "done": false})
                    )
                })
                .collect();
            chunks.push(format!(
                "{}\n",
                json!({"message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "stop", "prompt_eval_count": prompt_tokens, "eval_count": completion_tokens})
            ));
            respond_chunks(
                request,
                "application/x-ndjson",
                chunks,
                Duration::from_millis(5),
            );
        } else {
            let reply = json!({
                "message": {"role": "assistant", "content": text}, "done": true, "done_reason": "stop",
                "prompt_eval_count": prompt_tokens, "eval_count": completion_tokens,
            });
            respond_json(request, &reply);
        }
    } else {
        let _ = request.respond(Response::from_string("no such endpoint").with_status_code(404));
    }
}

fn sse(event: &str, data: &Value) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}

fn respond_json(request: tiny_http::Request, value: &Value) {
    let header = Header::from_bytes("content-type", "application/json").unwrap();
    let _ = request.respond(Response::from_string(value.to_string()).with_header(header));
}

/// Pieces of a few words each, as a model streams them.
pub fn split_for_stream(text: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut current = String::new();
    for (i, word) in text.split_inclusive(' ').enumerate() {
        current.push_str(word);
        if i % 3 == 2 {
            pieces.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        pieces.push(current);
    }
    pieces
}
