//! The OpenAI chat-completions wire format, used by OpenAI, Azure OpenAI (deployment URLs
//! and an `api-key` header) and OpenAI-compatible servers (vLLM, llama.cpp, LM Studio).

use crate::http::{read_sse, Outgoing};
use crate::spec::{Provider, Resolved};
use crate::Connection;
use docindex_core::llm::{LlmError, LlmReply, LlmRequest, Usage};
use serde_json::{json, Value};

/// How a server takes a reply schema. Servers differ: OpenAI, vLLM, LM Studio and
/// llama.cpp's own server take `json_schema`; llama.cpp's Python server refuses that and takes
/// a `schema` beside `json_object`; some take neither. A refusal moves to the next dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaDialect {
    JsonSchema = 0,
    ObjectWithSchema = 1,
    ObjectOnly = 2,
}

impl SchemaDialect {
    pub fn from_u8(n: u8) -> Self {
        match n {
            0 => SchemaDialect::JsonSchema,
            1 => SchemaDialect::ObjectWithSchema,
            _ => SchemaDialect::ObjectOnly,
        }
    }

    /// The dialect to try after a refusal, if any.
    pub fn next(self) -> Option<Self> {
        match self {
            SchemaDialect::JsonSchema => Some(SchemaDialect::ObjectWithSchema),
            SchemaDialect::ObjectWithSchema => Some(SchemaDialect::ObjectOnly),
            SchemaDialect::ObjectOnly => None,
        }
    }
}

fn response_format(request: &LlmRequest, dialect: SchemaDialect) -> Option<Value> {
    if !request.json {
        return None;
    }
    Some(match (&request.schema, dialect) {
        (Some(s), SchemaDialect::JsonSchema) => json!({
            "type": "json_schema",
            "json_schema": {"name": s.name, "schema": s.schema, "strict": true},
        }),
        (Some(s), SchemaDialect::ObjectWithSchema) => {
            json!({"type": "json_object", "schema": s.schema})
        }
        _ => json!({"type": "json_object"}),
    })
}

pub fn outgoing(
    c: &Connection,
    request: &LlmRequest,
    stream: bool,
    dialect: SchemaDialect,
) -> Outgoing {
    let mut messages = Vec::new();
    if let Some(system) = &request.system {
        messages.push(json!({"role": "system", "content": system}));
    }
    for m in &request.messages {
        messages.push(json!({"role": m.role.as_str(), "content": m.content}));
    }
    let mut body = json!({
        "model": c.spec.model_id,
        "messages": messages,
        "temperature": request.temperature,
    });
    // OpenAI's reasoning models take `max_completion_tokens`; everyone else `max_tokens`.
    let reasoning = c.spec.prefix == "openai"
        && ["o1", "o3", "o4", "gpt-5"]
            .iter()
            .any(|p| c.spec.model_id.starts_with(p));
    let limit_field = if reasoning {
        "max_completion_tokens"
    } else {
        "max_tokens"
    };
    body[limit_field] = json!(request.max_tokens);
    if let Some(format) = response_format(request, dialect) {
        body["response_format"] = format;
    }
    if stream {
        body["stream"] = json!(true);
        body["stream_options"] = json!({"include_usage": true});
    }
    let s: &Resolved = &c.settings;
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    let url = if c.spec.provider == Provider::Azure {
        if let Some(key) = &s.api_key {
            headers.push(("api-key".into(), key.expose().to_string()));
        }
        format!(
            "{}/openai/deployments/{}/chat/completions?api-version={}",
            s.base_url, c.spec.model_id, s.api_version
        )
    } else {
        if let Some(key) = &s.api_key {
            headers.push(("authorization".into(), format!("Bearer {}", key.expose())));
        }
        format!("{}/chat/completions", s.base_url)
    };
    Outgoing {
        url,
        headers,
        body: body.to_string().into_bytes(),
    }
}

pub fn parse(text: &str) -> Result<LlmReply, LlmError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| LlmError::BadReply(format!("not a chat completion ({e})")))?;
    let choice = v
        .pointer("/choices/0")
        .ok_or_else(|| LlmError::BadReply("the completion has no choices".into()))?;
    let content = choice
        .pointer("/message/content")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    Ok(LlmReply {
        text: content,
        usage: usage(&v),
        cached: false,
        truncated: choice.get("finish_reason").and_then(Value::as_str) == Some("length"),
    })
}

fn usage(v: &Value) -> Usage {
    Usage {
        prompt_tokens: v
            .pointer("/usage/prompt_tokens")
            .and_then(Value::as_u64)
            .unwrap_or(0),
        completion_tokens: v
            .pointer("/usage/completion_tokens")
            .and_then(Value::as_u64)
            .unwrap_or(0),
    }
}

/// How a stream the server ended before the model finished is reported (it is asked again
/// once, see `Connection::stream`).
pub const CUT_SHORT: &str = "the server ended the reply before the model finished it";

pub fn stream(
    lines: impl Iterator<Item = Result<String, LlmError>>,
    on_delta: &mut dyn FnMut(&str) -> bool,
) -> Result<LlmReply, LlmError> {
    let mut reply = LlmReply::default();
    let mut cancelled = false;
    let mut finished = false;
    let done = read_sse(lines, &mut |_, data| {
        if data.trim() == "[DONE]" {
            return Ok(false);
        }
        let v: Value = serde_json::from_str(data)
            .map_err(|e| LlmError::BadReply(format!("bad stream event ({e})")))?;
        if let Some(message) = v.pointer("/error/message").and_then(Value::as_str) {
            return Err(LlmError::BadReply(format!(
                "the provider reported: {message}"
            )));
        }
        if v.get("usage").is_some_and(|u| !u.is_null()) {
            reply.usage = usage(&v);
        }
        if let Some(delta) = v
            .pointer("/choices/0/delta/content")
            .and_then(Value::as_str)
        {
            reply.text.push_str(delta);
            if !on_delta(delta) {
                cancelled = true;
                return Ok(false);
            }
        }
        match v
            .pointer("/choices/0/finish_reason")
            .and_then(Value::as_str)
        {
            Some("length") => {
                reply.truncated = true;
                finished = true;
            }
            Some(_) => finished = true,
            None => {}
        }
        Ok(true)
    })?;
    if cancelled {
        return Err(LlmError::Cancelled);
    }
    if !done {
        return Err(LlmError::BadReply(
            "the stream ended before the reply was complete (no [DONE])".into(),
        ));
    }
    // llama.cpp's Python server ends a running stream with [DONE] and no finish reason when
    // another request arrives: what came is a cut reply, not the model's answer.
    if !finished {
        return Err(LlmError::BadReply(format!(
            "{CUT_SHORT}: no finish reason; another request may have interrupted it"
        )));
    }
    Ok(reply)
}
