//! One HTTP path for every provider: a reqwest client (rustls) with timeouts, a bound on requests in
//! flight, and retries with backoff and jitter on 429, 5xx, timeouts and dropped
//! connections, honouring `Retry-After`. Header values (keys) never reach a log or error.

use crate::spec::RetryPolicy;
use docindex_core::llm::LlmError;
use std::io::{BufRead, BufReader, Read};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

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
    timeout: Duration,
    retry: RetryPolicy,
    gate: Gate,
}

/// A successful response, its body not yet read, holding its in-flight slot.
pub struct Reply<'a> {
    pub body: reqwest::blocking::Response,
    _permit: Permit<'a>,
}

/// The most of a reply body we read: a model's answer is far smaller.
const MAX_REPLY_BYTES: u64 = 64 * 1024 * 1024;

impl<'a> Reply<'a> {
    pub fn text(self) -> Result<String, LlmError> {
        let mut text = String::new();
        self.body
            .take(MAX_REPLY_BYTES)
            .read_to_string(&mut text)
            .map_err(|e| read_error(&e))?;
        Ok(text)
    }

    /// The body as lines, as they arrive (SSE and NDJSON streams).
    pub fn lines(self) -> impl Iterator<Item = Result<String, LlmError>> + 'a {
        let reader = BufReader::new(self.body);
        let permit = self._permit;
        reader.lines().map(move |line| {
            let _held = &permit;
            line.map_err(|e| LlmError::BadReply(format!("the stream broke off: {e}")))
        })
    }
}

fn read_error(e: &std::io::Error) -> LlmError {
    match e.kind() {
        std::io::ErrorKind::TimedOut => LlmError::BadReply("the reply body timed out".into()),
        _ => LlmError::BadReply(format!("could not read the reply: {e}")),
    }
}

impl Http {
    pub fn new(
        timeout: Duration,
        retry: RetryPolicy,
        max_in_flight: usize,
    ) -> Result<Self, LlmError> {
        let client = reqwest::blocking::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .user_agent(concat!("docindex/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| LlmError::Config(format!("cannot set up HTTP: {e}")))?;
        Ok(Http {
            client,
            timeout,
            retry,
            gate: Gate {
                in_flight: Mutex::new(0),
                freed: Condvar::new(),
                limit: max_in_flight.max(1),
            },
        })
    }

    /// POST `out`, retrying what may succeed later. `stream` relaxes the overall timeout to
    /// a time-to-first-byte, since a long answer may stream for minutes.
    pub fn post(&self, out: &Outgoing, stream: bool) -> Result<Reply<'_>, LlmError> {
        let attempts = self.retry.max_attempts.max(1);
        let mut last: Option<LlmError> = None;
        for attempt in 0..attempts {
            let permit = self.gate.acquire();
            let mut request = self.client.post(&out.url);
            for (name, value) in &out.headers {
                request = request.header(name.as_str(), value.as_str());
            }
            // A stream may go on for minutes: it gets ten times the time of a plain reply.
            let request = request
                .timeout(if stream {
                    self.timeout.saturating_mul(10)
                } else {
                    self.timeout
                })
                .body(out.body.clone());
            let (error, retry_after) = match request.send() {
                Ok(response) if response.status().is_success() => {
                    return Ok(Reply {
                        body: response,
                        _permit: permit,
                    });
                }
                Ok(response) => {
                    let status = response.status().as_u16();
                    let retry_after = response
                        .headers()
                        .get("retry-after")
                        .and_then(|v| v.to_str().ok())
                        .and_then(parse_retry_after);
                    let mut text = String::new();
                    let _ = response.take(1024 * 1024).read_to_string(&mut text);
                    let message = error_message(&text);
                    let error = match status {
                        401 | 403 => return Err(LlmError::Auth { status, message }),
                        429 => LlmError::RateLimited {
                            attempts: attempt + 1,
                            message,
                        },
                        _ => LlmError::Http {
                            status,
                            attempts: attempt + 1,
                            message,
                        },
                    };
                    if !(status == 429 || status == 408 || status == 409 || status >= 500) {
                        return Err(error);
                    }
                    (error, retry_after)
                }
                Err(e) if e.is_timeout() => (
                    LlmError::Timeout {
                        seconds: self.timeout.as_secs(),
                        attempts: attempt + 1,
                    },
                    None,
                ),
                Err(e) => (
                    LlmError::Transport {
                        attempts: attempt + 1,
                        message: e.to_string(),
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
