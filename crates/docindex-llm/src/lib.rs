//! LLM providers for DocumentIndex behind the core's `Llm` trait: OpenAI (and any
//! OpenAI-compatible server), Anthropic, Azure OpenAI, AWS Bedrock and Ollama, chosen by a
//! LiteLLM-style model string. One HTTP path gives every provider timeouts, retries with
//! backoff honouring `Retry-After`, and a bound on requests in flight.

mod anthropic;
mod bedrock;
mod http;
mod ollama;
mod openai;
pub mod spec;

use docindex_core::llm::{Llm, LlmError, LlmReply, LlmRequest};
use http::Http;
use spec::Resolved;
pub use spec::{ModelSpec, Provider, ProviderSettings, RetryPolicy, Secret};

/// A configured provider: the model string, its resolved settings and its HTTP path.
pub struct Connection {
    spec: ModelSpec,
    settings: Resolved,
    http: Http,
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
        let http = Http::new(settings.timeout, settings.retry, settings.max_in_flight)?;
        Ok(Connection {
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
}

impl Llm for Connection {
    fn model(&self) -> &str {
        &self.spec.model
    }

    fn complete(&self, request: &LlmRequest) -> Result<LlmReply, LlmError> {
        let out = match self.spec.provider {
            Provider::OpenAi | Provider::Azure => openai::outgoing(self, request, false),
            Provider::Anthropic => anthropic::outgoing(self, request, false),
            Provider::Ollama => ollama::outgoing(self, request, false),
            Provider::Bedrock => bedrock::outgoing(self, request)?,
        };
        let text = self.http.post(&out, false)?.text()?;
        match self.spec.provider {
            Provider::OpenAi | Provider::Azure => openai::parse(&text),
            Provider::Anthropic => anthropic::parse(&text),
            Provider::Ollama => ollama::parse(&text),
            Provider::Bedrock => bedrock::parse(&text),
        }
    }

    fn stream(
        &self,
        request: &LlmRequest,
        on_delta: &mut dyn FnMut(&str) -> bool,
    ) -> Result<LlmReply, LlmError> {
        let out = match self.spec.provider {
            Provider::OpenAi | Provider::Azure => openai::outgoing(self, request, true),
            Provider::Anthropic => anthropic::outgoing(self, request, true),
            Provider::Ollama => ollama::outgoing(self, request, true),
            Provider::Bedrock => {
                let reply = self.complete(request)?;
                if !on_delta(&reply.text) {
                    return Err(LlmError::Cancelled);
                }
                return Ok(reply);
            }
        };
        let lines = self.http.post(&out, true)?.lines();
        match self.spec.provider {
            Provider::Anthropic => anthropic::stream(lines, on_delta),
            Provider::Ollama => ollama::stream(lines, on_delta),
            _ => openai::stream(lines, on_delta),
        }
    }
}
