//! LLM providers for DocumentIndex behind the core's `Llm` trait: OpenAI (and any
//! OpenAI-compatible server), Anthropic, Azure OpenAI, AWS Bedrock and Ollama, chosen by a
//! LiteLLM-style model string. One HTTP path gives every provider timeouts, retries with
//! backoff honouring `Retry-After`, and a bound on requests in flight.

mod anthropic;
mod bedrock;
mod context;
mod http;
mod ollama;
mod openai;
pub mod spec;

use docindex_core::llm::{Llm, LlmError, LlmReply, LlmRequest};
use docindex_core::tokens::TokenCounter;
use http::{Http, Reply, Waits};
use openai::SchemaDialect;
use spec::Resolved;
pub use spec::{ModelSpec, Provider, ProviderSettings, RetryPolicy, Secret};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// A configured provider: the model string, its resolved settings and its HTTP path.
pub struct Connection {
    spec: ModelSpec,
    settings: Resolved,
    http: Http,
    /// The context window the server reported or a refusal named (0 until known).
    window: AtomicUsize,
    /// Whether the server was asked its context window yet.
    probed: OnceLock<()>,
    /// How this server takes a JSON schema (see `openai::SchemaDialect`).
    schema_dialect: AtomicU8,
    /// Counts tokens when a server's stream does not report its usage.
    counter: OnceLock<Option<TokenCounter>>,
}

impl Connection {
    /// Connect `model` with `settings`, filling gaps from the process environment.
    pub fn new(model: &str, settings: &ProviderSettings) -> Result<Self, LlmError> {
        Self::with_env(model, settings, &|name| std::env::var(name).ok())
    }

    /// Like [`Connection::new`] with the environment given as a function (for tests).
    pub fn with_env(
        model: &str,
        settings: &ProviderSettings,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self, LlmError> {
        let spec = ModelSpec::parse(model)?;
        let settings = settings.resolve(&spec, env)?;
        let http = Http::new(settings.retry, settings.max_in_flight)?;
        Ok(Connection {
            window: AtomicUsize::new(settings.context_window.unwrap_or(0)),
            probed: OnceLock::new(),
            schema_dialect: AtomicU8::new(0),
            counter: OnceLock::new(),
            spec,
            settings,
            http,
        })
    }

    pub fn spec(&self) -> &ModelSpec {
        &self.spec
    }

    /// The base URL requests go to (never includes a key).
    pub fn base_url(&self) -> &str {
        &self.settings.base_url
    }

    /// The waits of one request: the reply must begin within the timeout plus as much again
    /// for every thousand prompt tokens (a local model reads a long prompt before its first
    /// byte), and may then pause for at most the timeout.
    fn waits(&self, request: &LlmRequest) -> Waits {
        let timeout = self.settings.timeout;
        let thousands = (request.prompt_chars() / 4) as f64 / 1000.0;
        Waits {
            first_byte: timeout.mul_f64(1.0 + thousands),
            idle: timeout,
        }
    }

    fn dialect(&self) -> SchemaDialect {
        SchemaDialect::from_u8(self.schema_dialect.load(Ordering::Relaxed))
    }

    fn outgoing(&self, request: &LlmRequest, stream: bool) -> Result<http::Outgoing, LlmError> {
        let dialect = self.dialect();
        Ok(match self.spec.provider {
            Provider::OpenAi | Provider::Azure => openai::outgoing(self, request, stream, dialect),
            Provider::Anthropic => anthropic::outgoing(self, request, stream),
            Provider::Ollama => {
                let window = Some(self.window.load(Ordering::Relaxed)).filter(|&w| w > 0);
                let with_schema = dialect != SchemaDialect::ObjectOnly;
                ollama::outgoing(self, request, stream, with_schema, window)
            }
            Provider::Bedrock => bedrock::outgoing(self, request)?,
        })
    }

    /// One request without streaming, its whole reply parsed.
    fn complete_plain(&self, request: &LlmRequest) -> Result<LlmReply, LlmError> {
        let reply = self.send(request, false)?;
        self.parse_plain(&reply.text()?)
    }

    /// Send `request`. A server that refuses the way its reply schema was asked for (HTTP 400
    /// or 422 while a schema was sent, or any error naming `response_format`) is asked again
    /// the next way, and remembered.
    fn send(&self, request: &LlmRequest, stream: bool) -> Result<Reply<'_>, LlmError> {
        loop {
            let dialect = self.dialect();
            let out = self.outgoing(request, stream)?;
            match self.post(request, &out) {
                Err(LlmError::Http {
                    status, message, ..
                }) if request.schema.is_some()
                    && dialect.next().is_some()
                    && self.spec.provider != Provider::Anthropic
                    && refuses_the_format(status, &message) =>
                {
                    let next = dialect.next().unwrap_or(SchemaDialect::ObjectOnly);
                    tracing::info!(
                        "{}: the server refused a reply schema as {dialect:?} ({message}); trying {next:?}",
                        self.spec.model
                    );
                    // Only ever further down: a slower thread cannot undo what another learned.
                    self.schema_dialect.fetch_max(next as u8, Ordering::Relaxed);
                    if self.spec.provider == Provider::Ollama {
                        // Ollama has two forms, not three: a schema, or plain JSON.
                        self.schema_dialect
                            .fetch_max(SchemaDialect::ObjectOnly as u8, Ordering::Relaxed);
                    }
                }
                other => return other,
            }
        }
    }

    fn parse_plain(&self, text: &str) -> Result<LlmReply, LlmError> {
        match self.spec.provider {
            Provider::OpenAi | Provider::Azure => openai::parse(text),
            Provider::Anthropic => anthropic::parse(text),
            Provider::Ollama => ollama::parse(text),
            Provider::Bedrock => bedrock::parse(text),
        }
    }

    /// POST, learning the context window from a refusal that names it, and trying the next
    /// way of asking for a JSON schema when the server refuses this one.
    fn post(&self, request: &LlmRequest, out: &http::Outgoing) -> Result<Reply<'_>, LlmError> {
        match self.http.post(out, self.waits(request)) {
            Err(LlmError::ContextExceeded { window, message }) => {
                self.window.store(window, Ordering::Relaxed);
                Err(LlmError::ContextExceeded { window, message })
            }
            other => other,
        }
    }

    /// A reply whose stream reported no usage is counted with our own tokenizer, so time and
    /// tokens per question can be reported for every server.
    fn with_usage(&self, request: &LlmRequest, mut reply: LlmReply) -> LlmReply {
        if reply.usage.prompt_tokens == 0 && reply.usage.completion_tokens == 0 {
            if let Some(counter) = self.counter.get_or_init(|| TokenCounter::new().ok()) {
                let mut prompt = request.system.clone().unwrap_or_default();
                for m in &request.messages {
                    prompt.push_str(&m.content);
                }
                reply.usage.prompt_tokens = counter.count(&prompt) as u64;
                reply.usage.completion_tokens = counter.count(&reply.text) as u64;
            }
        }
        reply
    }
}

/// Whether a refusal is about how the reply's format was asked for: a request-shape status
/// (422) or words about the format or schema, not any bad request.
fn refuses_the_format(status: u16, message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    status == 422
        || ["response_format", "json_schema", "schema", "format"]
            .iter()
            .any(|w| lower.contains(w))
}

impl Llm for Connection {
    fn model(&self) -> &str {
        &self.spec.model
    }

    /// Every provider that can stream is asked to, even for a reply wanted whole: a stream
    /// shows the model is still working, so a slow one is waited for, not retried.
    fn complete(&self, request: &LlmRequest) -> Result<LlmReply, LlmError> {
        match self.stream(request, &mut |_| true) {
            // A reply the server cut short (llama.cpp's Python server ends a running stream
            // when another request arrives) is asked for once more. Only here: a stream
            // shown as it arrives cannot be taken back.
            Err(LlmError::BadReply(why)) if why.starts_with(openai::CUT_SHORT) => {
                tracing::warn!("{}: {why}; asking once more", self.spec.model);
                self.stream(request, &mut |_| true)
            }
            outcome => outcome,
        }
    }

    fn stream(
        &self,
        request: &LlmRequest,
        on_delta: &mut dyn FnMut(&str) -> bool,
    ) -> Result<LlmReply, LlmError> {
        if self.spec.provider == Provider::Bedrock {
            let reply = self.complete_plain(request)?;
            if !on_delta(&reply.text) {
                return Err(LlmError::Cancelled);
            }
            return Ok(reply);
        }
        let reply = self.send(request, true)?;
        // A server that ignores `stream` answers with one JSON body.
        if reply.content_type.contains("application/json") {
            let parsed = self.parse_plain(&reply.text()?)?;
            if !on_delta(&parsed.text) {
                return Err(LlmError::Cancelled);
            }
            return Ok(self.with_usage(request, parsed));
        }
        let mut lines_seen = 0usize;
        let lines = reply.lines().inspect(|line| {
            if line.as_ref().is_ok_and(|l| !l.trim().is_empty()) {
                lines_seen += 1;
            }
        });
        let streamed = match self.spec.provider {
            Provider::Anthropic => anthropic::stream(lines, on_delta),
            Provider::Ollama => ollama::stream(lines, on_delta),
            _ => openai::stream(lines, on_delta),
        };
        match streamed {
            Ok(reply) => Ok(self.with_usage(request, reply)),
            // An empty stream says nothing of why (llama.cpp's Python server ends one so when
            // the prompt does not fit); asked plainly, the server says.
            Err(LlmError::BadReply(_)) if lines_seen == 0 => {
                let reply = self.complete_plain(request)?;
                if !on_delta(&reply.text) {
                    return Err(LlmError::Cancelled);
                }
                Ok(self.with_usage(request, reply))
            }
            Err(e) => Err(e),
        }
    }

    fn context_window(&self) -> Option<usize> {
        self.probed.get_or_init(|| {
            if self.window.load(Ordering::Relaxed) == 0 {
                if let Some(window) = context::ask_server(self) {
                    self.window.store(window, Ordering::Relaxed);
                }
            }
        });
        Some(self.window.load(Ordering::Relaxed)).filter(|&w| w > 0)
    }
}
