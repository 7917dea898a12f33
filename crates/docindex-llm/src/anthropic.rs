//! The Anthropic messages wire format, with its SSE event stream.

use crate::http::{read_sse, Outgoing};
use crate::Connection;
use docindex_core::llm::{LlmError, LlmReply, LlmRequest, Usage};
use serde_json::{json, Value};

pub fn outgoing(c: &Connection, request: &LlmRequest, stream: bool) -> Outgoing {
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|m| json!({"role": m.role.as_str(), "content": m.content}))
        .collect();
    let mut body = json!({
        "model": c.spec.model_id,
        "messages": messages,
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
    });
    if let Some(system) = &request.system {
        body["system"] = json!(system);
    }
    if stream {
        body["stream"] = json!(true);
    }
    let mut headers = vec![
        ("content-type".to_string(), "application/json".to_string()),
        ("anthropic-version".to_string(), "2023-06-01".to_string()),
    ];
    if let Some(key) = &c.settings.api_key {
        headers.push(("x-api-key".into(), key.expose().to_string()));
    }
    Outgoing {
        url: format!("{}/v1/messages", c.settings.base_url),
        headers,
        body: body.to_string().into_bytes(),
    }
}

pub fn parse(text: &str) -> Result<LlmReply, LlmError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| LlmError::BadReply(format!("not an Anthropic message ({e})")))?;
    let blocks = v
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| LlmError::BadReply("the message has no content".into()))?;
    let text: String = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    Ok(LlmReply {
        text,
        usage: Usage {
            prompt_tokens: v
                .pointer("/usage/input_tokens")
                .and_then(Value::as_u64)
                .unwrap_or(0),
            completion_tokens: v
                .pointer("/usage/output_tokens")
                .and_then(Value::as_u64)
                .unwrap_or(0),
        },
        cached: false,
        truncated: v.get("stop_reason").and_then(Value::as_str) == Some("max_tokens"),
    })
}

pub fn stream(
    lines: impl Iterator<Item = Result<String, LlmError>>,
    on_delta: &mut dyn FnMut(&str) -> bool,
) -> Result<LlmReply, LlmError> {
    let mut reply = LlmReply::default();
    let mut cancelled = false;
    let done = read_sse(lines, &mut |event, data| {
        let v: Value = serde_json::from_str(data)
            .map_err(|e| LlmError::BadReply(format!("bad stream event ({e})")))?;
        let kind = if event.is_empty() {
            v.get("type").and_then(Value::as_str).unwrap_or_default()
        } else {
            event
        };
        match kind {
            "message_start" => {
                reply.usage.prompt_tokens = v
                    .pointer("/message/usage/input_tokens")
                    .and_then(Value::as_u64)
                    .unwrap_or(0);
            }
            "content_block_delta" => {
                if let Some(delta) = v.pointer("/delta/text").and_then(Value::as_str) {
                    reply.text.push_str(delta);
                    if !on_delta(delta) {
                        cancelled = true;
                        return Ok(false);
                    }
                }
            }
            "message_delta" => {
                if let Some(out) = v.pointer("/usage/output_tokens").and_then(Value::as_u64) {
                    reply.usage.completion_tokens = out;
                }
                if v.pointer("/delta/stop_reason").and_then(Value::as_str) == Some("max_tokens") {
                    reply.truncated = true;
                }
            }
            "message_stop" => return Ok(false),
            "error" => {
                let message = v
                    .pointer("/error/message")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown error");
                return Err(LlmError::BadReply(format!(
                    "the provider reported: {message}"
                )));
            }
            _ => {}
        }
        Ok(true)
    })?;
    if cancelled {
        return Err(LlmError::Cancelled);
    }
    if !done {
        return Err(LlmError::BadReply(
            "the stream ended before the reply was complete (no message_stop)".into(),
        ));
    }
    Ok(reply)
}
