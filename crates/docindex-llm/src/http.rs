//! One HTTP path for every provider: a reqwest client (rustls) with timeouts, a bound on requests in
//! flight, and retries with backoff and jitter on 429, 5xx, timeouts and dropped
//! connections, honouring `Retry-After`. Header values (keys) never reach a log or error.

use crate::spec::RetryPolicy;
use docindex_core::llm::LlmError;
use std::io::Read;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// A request ready to send. `headers` may hold secrets: they are sent, never printed.
pub struct Outgoing {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// A counting semaphore: at most `limit` requests of one provider in flight.
struct Gate {
    in_flight: Mutex<usize>,
    freed: Condvar,
    limit: usize,
}

/// A slot in the gate, given back when dropped (after the body was read).
pub struct Permit<'a>(&'a Gate);

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        if let Ok(mut n) = self.0.in_flight.lock() {
            *n = n.saturating_sub(1);
        }
        self.0.freed.notify_one();
    }
}

impl Gate {
    fn acquire(&self) -> Permit<'_> {
        let mut n = match self.in_flight.lock() {
            Ok(n) => n,
            Err(poisoned) => poisoned.into_inner(),
        };
        while *n >= self.limit {
            n = match self.freed.wait(n) {
                Ok(n) => n,
                Err(poisoned) => poisoned.into_inner(),
            };
        }
        *n += 1;
        Permit(self)
    }
}

pub struct Http {
    client: reqwest::blocking::Client,
    retry: RetryPolicy,
    gate: Gate,
}

/// How long to wait on a reply. A slow local model may read a long prompt before it sends a
/// byte, then stream for minutes: what bounds a request is silence, not its length.
#[derive(Debug, Clone, Copy)]
pub struct Waits {
    /// From sending the request to the first byte of its body.
    pub first_byte: Duration,
    /// Between two pieces of the body once it has begun (SSE pings count as progress).
    pub idle: Duration,
}

/// What the thread that reads a response hands over: its head, then pieces of its body.
enum Piece {
    /// A success status: the body follows.
    Head {
        content_type: String,
    },
    /// An error status, with the start of its body.
    Refused {
        status: u16,
        retry_after: Option<Duration>,
        body: String,
    },
    /// The request failed before a status arrived.
    Unsent(reqwest::Error),
    Bytes(Vec<u8>),
    Broken(String),
}

/// A successful response whose body arrives from its reading thread, holding its in-flight
/// slot until dropped.
pub struct Reply<'a> {
    pub content_type: String,
    pieces: Receiver<Piece>,
    waits: Waits,
    /// Whether a piece of the body arrived yet (the first waits `first_byte` from `sent`).
    begun: bool,
    sent: Instant,
    _permit: Permit<'a>,
}

/// The most of a reply body we read: a model's answer is far smaller.
const MAX_REPLY_BYTES: usize = 64 * 1024 * 1024;

impl<'a> Reply<'a> {
    /// The next piece of the body, `None` at its end; silence past the waits is an error.
    fn next_bytes(&mut self) -> Result<Option<Vec<u8>>, LlmError> {
        let wait = if self.begun {
            self.waits.idle
        } else {
            // The head came in time; its body gets at least the idle wait.
            self.waits
                .first_byte
                .saturating_sub(self.sent.elapsed())
                .max(self.waits.idle)
        };
        match self.pieces.recv_timeout(wait) {
            Ok(Piece::Bytes(bytes)) => {
                self.begun = true;
                Ok(Some(bytes))
            }
            Ok(Piece::Broken(message)) => Err(LlmError::BadReply(message)),
            Ok(Piece::Head { .. } | Piece::Refused { .. } | Piece::Unsent(_))
            | Err(RecvTimeoutError::Disconnected) => Ok(None),
            Err(RecvTimeoutError::Timeout) if self.begun => Err(LlmError::Stalled {
                seconds: self.waits.idle.as_secs(),
            }),
            Err(RecvTimeoutError::Timeout) => Err(LlmError::Timeout {
                seconds: self.waits.first_byte.as_secs(),
                attempts: 1,
            }),
        }
    }

    /// The whole body, and whether any of it arrived.
    pub fn text(mut self) -> Result<String, LlmError> {
        let mut bytes = Vec::new();
        while let Some(piece) = self.next_bytes()? {
            bytes.extend_from_slice(&piece);
            if bytes.len() > MAX_REPLY_BYTES {
                return Err(LlmError::BadReply(format!(
                    "the reply is larger than {} MB",
                    MAX_REPLY_BYTES >> 20
                )));
            }
        }
        String::from_utf8(bytes)
            .map_err(|e| LlmError::BadReply(format!("the reply is not UTF-8 ({e})")))
    }

    /// The body as lines, as they arrive (SSE and NDJSON streams).
    pub fn lines(mut self) -> impl Iterator<Item = Result<String, LlmError>> + 'a {
        let mut pending: Vec<u8> = Vec::new();
        let mut ended = false;
        std::iter::from_fn(move || loop {
            if let Some(at) = pending.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = pending.drain(..=at).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Some(Ok(String::from_utf8_lossy(&line).into_owned()));
            }
            if ended {
                return (!pending.is_empty()).then(|| {
                    Ok(String::from_utf8_lossy(&std::mem::take(&mut pending)).into_owned())
                });
            }
            match self.next_bytes() {
                Ok(Some(bytes)) => pending.extend_from_slice(&bytes),
                Ok(None) => ended = true,
                Err(e) => {
                    ended = true;
                    pending.clear();
                    return Some(Err(e));
                }
            }
        })
    }
}

/// Send `request` and read its body on a thread of its own, handing the head and then every
/// piece of the body to the returned channel as they arrive. The thread ends with the body,
/// or at its next piece once the receiver is gone.
fn send_on_thread(request: reqwest::blocking::RequestBuilder) -> Receiver<Piece> {
    let (tx, rx) = mpsc::sync_channel(256);
    std::thread::spawn(move || {
        let mut response = match request.send() {
            Ok(response) => response,
            Err(e) => {
                let _ = tx.send(Piece::Unsent(e));
                return;
            }
        };
        if !response.status().is_success() {
            let status = response.status().as_u16();
            let retry_after = response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(parse_retry_after);
            let mut body = String::new();
            let _ = (&mut response).take(1024 * 1024).read_to_string(&mut body);
            let _ = tx.send(Piece::Refused {
                status,
                retry_after,
                body,
            });
            return;
        }
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        if tx.send(Piece::Head { content_type }).is_err() {
            return;
        }
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match response.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => {
                    if tx.send(Piece::Bytes(buf[..n].to_vec())).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    let _ = tx.send(Piece::Broken(format!("the stream broke off: {e}")));
                    return;
                }
            }
        }
    });
    rx
}

impl Http {
    pub fn new(retry: RetryPolicy, max_in_flight: usize) -> Result<Self, LlmError> {
        let client = reqwest::blocking::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            // The waits are ours (see `Waits`); reqwest's own would cut a long stream.
            .timeout(None)
            .user_agent(concat!("docindex/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| LlmError::Config(format!("cannot set up HTTP: {e}")))?;
        Ok(Http {
            client,
            retry,
            gate: Gate {
                in_flight: Mutex::new(0),
                freed: Condvar::new(),
                limit: max_in_flight.max(1),
            },
        })
    }

    /// POST `out`, retrying what may succeed later: an error status worth retrying, a
    /// dropped connection, or no reply within `waits.first_byte`.
    pub fn post(&self, out: &Outgoing, waits: Waits) -> Result<Reply<'_>, LlmError> {
        self.post_tries(out, waits, self.retry.max_attempts.max(1))
    }

    /// POST `out` once, without retries (probes).
    pub fn post_once(&self, out: &Outgoing, waits: Waits) -> Result<Reply<'_>, LlmError> {
        self.post_tries(out, waits, 1)
    }

    /// GET `url` as JSON within `wait`; `None` on any failure (probes that may not apply).
    pub fn get_json(
        &self,
        url: &str,
        headers: &[(String, String)],
        wait: Duration,
    ) -> Option<serde_json::Value> {
        json_reply(self.client.get(url).timeout(wait), headers)
    }

    /// POST `body` as JSON to `url` within `wait` and read a JSON reply; `None` on failure.
    pub fn post_json(
        &self,
        url: &str,
        headers: &[(String, String)],
        body: &serde_json::Value,
        wait: Duration,
    ) -> Option<serde_json::Value> {
        let request = self
            .client
            .post(url)
            .timeout(wait)
            .header("content-type", "application/json")
            .body(body.to_string());
        json_reply(request, headers)
    }

    fn post_tries(
        &self,
        out: &Outgoing,
        waits: Waits,
        attempts: u32,
    ) -> Result<Reply<'_>, LlmError> {
        let mut last: Option<LlmError> = None;
        for attempt in 0..attempts {
            let permit = self.gate.acquire();
            let mut request = self.client.post(&out.url);
            for (name, value) in &out.headers {
                request = request.header(name.as_str(), value.as_str());
            }
            let sent = Instant::now();
            // A backstop for a request given up on (its thread would otherwise wait on a
            // silent server for ever): far beyond any wait of ours.
            let ceiling = waits.first_byte + waits.idle.saturating_mul(60);
            let pieces = send_on_thread(request.timeout(ceiling).body(out.body.clone()));
            let (error, retry_after) = match pieces.recv_timeout(waits.first_byte) {
                Ok(Piece::Head { content_type }) => {
                    return Ok(Reply {
                        content_type,
                        pieces,
                        waits,
                        begun: false,
                        sent,
                        _permit: permit,
                    });
                }
                Ok(Piece::Refused {
                    status,
                    retry_after,
                    body,
                }) => {
                    let mut message = error_message(&body);
                    // The refusal of a reply format is recognised by the caller from the
                    // message, which may have left the words out.
                    if body.contains("response_format") && !message.contains("response_format") {
                        message.push_str(" (the server refused the response_format)");
                    }
                    let error = match status {
                        401 | 403 => return Err(LlmError::Auth { status, message }),
                        429 => LlmError::RateLimited {
                            attempts: attempt + 1,
                            message,
                        },
                        400 | 413 if context_window_in(&body).is_some() => {
                            return Err(LlmError::ContextExceeded {
                                window: context_window_in(&body).unwrap_or_default(),
                                message,
                            });
                        }
                        _ => LlmError::Http {
                            status,
                            attempts: attempt + 1,
                            message,
                        },
                    };
                    // A request the server cannot take is not sent again as it was, whatever
                    // status it came with (llama.cpp's Python server refuses a reply format
                    // with HTTP 500).
                    let refused_shape = body.contains("response_format");
                    if refused_shape
                        || !(status == 429 || status == 408 || status == 409 || status >= 500)
                    {
                        return Err(error);
                    }
                    (error, retry_after)
                }
                Ok(Piece::Unsent(e)) => (
                    LlmError::Transport {
                        attempts: attempt + 1,
                        message: e.to_string(),
                    },
                    None,
                ),
                Ok(Piece::Bytes(_) | Piece::Broken(_)) | Err(RecvTimeoutError::Disconnected) => (
                    LlmError::Transport {
                        attempts: attempt + 1,
                        message: "the request thread ended without a reply".into(),
                    },
                    None,
                ),
                Err(RecvTimeoutError::Timeout) => (
                    LlmError::Timeout {
                        seconds: waits.first_byte.as_secs(),
                        attempts: attempt + 1,
                    },
                    None,
                ),
            };
            drop(permit);
            if attempt + 1 < attempts {
                let wait = self.retry.delay(attempt, retry_after);
                tracing::warn!(
                    "{}: {error}; retrying in {} ms",
                    host_of(&out.url),
                    wait.as_millis()
                );
                std::thread::sleep(wait);
            }
            last = Some(error);
        }
        Err(last.unwrap_or(LlmError::Transport {
            attempts,
            message: "no attempt was made".into(),
        }))
    }
}

/// Send a probe with `headers` and read its JSON reply; `None` on any failure.
fn json_reply(
    mut request: reqwest::blocking::RequestBuilder,
    headers: &[(String, String)],
) -> Option<serde_json::Value> {
    for (name, value) in headers {
        request = request.header(name.as_str(), value.as_str());
    }
    let response = request.send().ok()?;
    if !response.status().is_success() {
        return None;
    }
    serde_json::from_str(&response.text().ok()?).ok()
}

/// `Retry-After` as seconds or an HTTP date.
fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return (seconds >= 0.0).then(|| Duration::from_secs_f64(seconds));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(
        when.duration_since(std::time::SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

/// The provider's own words from an error body (`error.message`, `message`), else the start
/// of the body.
fn error_message(body: &str) -> String {
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let from_json = parsed.as_ref().and_then(|v| {
        v.pointer("/error/message")
            .or_else(|| v.get("message"))
            .or_else(|| v.get("error"))
            .and_then(|m| m.as_str())
            .map(str::to_string)
    });
    let text = from_json.unwrap_or_else(|| body.trim().to_string());
    let text: String = text.chars().take(300).collect();
    if text.is_empty() {
        "(empty body)".to_string()
    } else {
        text
    }
}

/// The context window a provider's refusal names ("maximum context length is 8192 tokens",
/// llama.cpp's "exceeds the available context size … 4096"), when the refusal is about it.
pub fn context_window_in(message: &str) -> Option<usize> {
    let lower = message.to_ascii_lowercase();
    // llama.cpp names its `n_ctx` after the prompt's own count: that one first.
    let markers = [
        "\"n_ctx\"",
        "maximum context length is",
        "context window of",
        "context length of",
    ];
    markers.iter().find_map(|marker| {
        let at = lower.find(marker)? + marker.len();
        let digits: String = lower[at..]
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok().filter(|&n: &usize| n >= 64)
    })
}

fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split('/').next().unwrap_or(rest)
}

/// Read an SSE stream: calls `on_event(event_name, data)` for each event until it returns
/// `Ok(false)` (the stream's own end marker) or the body ends.
pub fn read_sse(
    lines: impl Iterator<Item = Result<String, LlmError>>,
    on_event: &mut dyn FnMut(&str, &str) -> Result<bool, LlmError>,
) -> Result<bool, LlmError> {
    let mut event = String::new();
    let mut data = String::new();
    for line in lines {
        let line = line?;
        if line.is_empty() {
            if !data.is_empty() || !event.is_empty() {
                let go_on = on_event(&event, &data)?;
                event.clear();
                data.clear();
                if !go_on {
                    return Ok(true);
                }
            }
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = line.split_once(':').unwrap_or((line.as_str(), ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => event = value.to_string(),
            "data" => {
                if !data.is_empty() {
                    data.push('\n');
                }
                data.push_str(value);
            }
            _ => {}
        }
    }
    if !data.is_empty() {
        return on_event(&event, &data).map(|go_on| !go_on);
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_as_seconds_or_date() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn sse_events_split_on_blank_lines() {
        let body = "event: a\ndata: {\"x\":1}\n\n: comment\ndata: one\ndata: two\n\nevent: end\ndata: {}\n\n";
        let mut seen = Vec::new();
        let lines = body.lines().map(|l| Ok(l.to_string()));
        let ended = read_sse(lines, &mut |e, d| {
            seen.push((e.to_string(), d.to_string()));
            Ok(e != "end")
        })
        .unwrap();
        assert!(ended);
        assert_eq!(seen[1], (String::new(), "one\ntwo".to_string()));
        assert_eq!(seen.len(), 3);
    }
}
