//! The language-model boundary of the core: the `Llm` trait providers implement, requests,
//! replies, usage accounting and typed errors. No I/O happens here.

pub mod cache;
pub mod json;

use crate::error::Fault;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicU64, Ordering};
use thiserror::Error;

/// Who wrote a message of a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
}

impl Role {
    /// The name every provider's wire format uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

/// One request to a model: an optional system prompt and the conversation so far.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmRequest {
    pub system: Option<String>,
    pub messages: Vec<Message>,
    pub temperature: f32,
    pub max_tokens: u32,
    /// Ask the provider for a JSON object where its API can enforce one.
    pub json: bool,
    /// The reply's JSON schema, for servers that can constrain output to one.
    pub schema: Option<ReplySchema>,
}

/// A named JSON schema of a reply (see `prompts::schema`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReplySchema {
    pub name: String,
    pub schema: serde_json::Value,
}

impl LlmRequest {
    /// A single-turn request with deterministic sampling.
    pub fn new(system: impl Into<String>, user: impl Into<String>) -> Self {
        LlmRequest {
            system: Some(system.into()),
            messages: vec![Message {
                role: Role::User,
                content: user.into(),
            }],
            temperature: 0.0,
            max_tokens: 2048,
            json: false,
            schema: None,
        }
    }

    pub fn with_json(mut self) -> Self {
        self.json = true;
        self
    }

    /// A JSON reply of this shape, enforced where the server can.
    pub fn with_schema(mut self, name: &str, schema: serde_json::Value) -> Self {
        self.json = true;
        self.schema = Some(ReplySchema {
            name: name.to_string(),
            schema,
        });
        self
    }

    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens;
        self
    }

    /// The cache key of this request to `model`: every field that changes the reply is hashed.
    pub fn cache_key(&self, model: &str) -> String {
        let canonical = serde_json::to_string(self).unwrap_or_default();
        let hash = hex::encode(Sha256::digest(canonical.as_bytes()));
        format!("llm:{model}:{hash}")
    }

    /// All prompt text, for estimates and logs that must not carry keys (prompts never do).
    pub fn prompt_chars(&self) -> usize {
        self.system.as_ref().map_or(0, |s| s.len())
            + self.messages.iter().map(|m| m.content.len()).sum::<usize>()
    }
}

/// Tokens a provider billed for one call (as the provider reported them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

/// A model's reply.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LlmReply {
    pub text: String,
    pub usage: Usage,
    /// Served from the cache: no provider call was made.
    #[serde(default)]
    pub cached: bool,
    /// The provider stopped because of the token limit, not because it was done.
    #[serde(default)]
    pub truncated: bool,
}

/// Why a model call failed, and whose fault that is.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum LlmError {
    /// The model string or settings are wrong (unknown provider, missing key or region).
    #[error("model configuration: {0}")]
    Config(String),
    /// The provider refused the credentials.
    #[error("the provider rejected the credentials (HTTP {status}): {message}")]
    Auth { status: u16, message: String },
    /// Still rate-limited after every retry.
    #[error("rate-limited by the provider (HTTP 429) after {attempts} attempts: {message}")]
    RateLimited { attempts: u32, message: String },
    /// An HTTP error status the retries did not cure.
    #[error("the provider answered HTTP {status} after {attempts} attempts: {message}")]
    Http {
        status: u16,
        attempts: u32,
        message: String,
    },
    #[error("the provider did not begin its reply within {seconds} s (after {attempts} attempts)")]
    Timeout { seconds: u64, attempts: u32 },
    /// The reply began, then nothing more arrived for `seconds` (not even a keep-alive).
    #[error("the provider's reply stalled: nothing arrived for {seconds} s")]
    Stalled { seconds: u64 },
    /// The prompt and the reply it asked for do not fit the model's context window.
    #[error("the request does not fit the model's context window of {window} tokens: {message}")]
    ContextExceeded { window: usize, message: String },
    #[error("could not reach the provider after {attempts} attempts: {message}")]
    Transport { attempts: u32, message: String },
    /// The reply arrived but cannot be used (not the wire format, a cut stream, bad JSON).
    #[error("unusable reply from the provider: {0}")]
    BadReply(String),
    #[error("the job was cancelled")]
    Cancelled,
}

impl LlmError {
    pub fn fault(&self) -> Fault {
        match self {
            LlmError::Config(_) | LlmError::Auth { .. } | LlmError::Cancelled => Fault::User,
            LlmError::Http {
                status: 400 | 404 | 422,
                ..
            } => Fault::User,
            _ => Fault::Runtime,
        }
    }
}

/// A language model. Providers implement it over HTTP; tests implement it in memory.
/// Calls block; callers bound their own concurrency and providers bound requests in flight.
pub trait Llm: Send + Sync {
    /// The model string in the LiteLLM convention (`openai/gpt-4o`).
    fn model(&self) -> &str;

    fn complete(&self, request: &LlmRequest) -> Result<LlmReply, LlmError>;

    /// Like `complete`, handing text to `on_delta` as it arrives. `on_delta` returns `false`
    /// to stop the stream early (the call then fails with `Cancelled`).
    fn stream(
        &self,
        request: &LlmRequest,
        on_delta: &mut dyn FnMut(&str) -> bool,
    ) -> Result<LlmReply, LlmError> {
        let reply = self.complete(request)?;
        if !on_delta(&reply.text) {
            return Err(LlmError::Cancelled);
        }
        Ok(reply)
    }

    /// The tokens prompt and reply may take together, when the server says (or a refusal
    /// named it); `None` when unknown, for hosted models whose windows dwarf our prompts.
    fn context_window(&self) -> Option<usize> {
        None
    }
}

/// Calls and tokens of one job, shared by the threads that make its calls.
#[derive(Debug, Default)]
pub struct UsageMeter {
    calls: AtomicU64,
    cache_hits: AtomicU64,
    prompt_tokens: AtomicU64,
    completion_tokens: AtomicU64,
}

/// A snapshot of a [`UsageMeter`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UsageTotals {
    /// Requests that reached the provider.
    pub calls: u64,
    /// Requests answered by the cache.
    pub cache_hits: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl UsageMeter {
    pub fn record(&self, reply: &LlmReply) {
        if reply.cached {
            self.cache_hits.fetch_add(1, Ordering::Relaxed);
        } else {
            self.calls.fetch_add(1, Ordering::Relaxed);
            self.prompt_tokens
                .fetch_add(reply.usage.prompt_tokens, Ordering::Relaxed);
            self.completion_tokens
                .fetch_add(reply.usage.completion_tokens, Ordering::Relaxed);
        }
    }

    pub fn totals(&self) -> UsageTotals {
        UsageTotals {
            calls: self.calls.load(Ordering::Relaxed),
            cache_hits: self.cache_hits.load(Ordering::Relaxed),
            prompt_tokens: self.prompt_tokens.load(Ordering::Relaxed),
            completion_tokens: self.completion_tokens.load(Ordering::Relaxed),
        }
    }
}
