//! Ollama's `/api/chat`, whose stream is newline-delimited JSON.

use crate::http::Outgoing;
use crate::Connection;
use docindex_core::llm::{LlmError, LlmReply, LlmRequest, Usage};
use serde_json::{json, Value};

/// `with_schema`: Ollama 0.5 and later constrain the reply to a schema given as `format`;
/// older servers refuse one and are asked for plain JSON. `num_ctx` is the window the server
/// reported (capped): Ollama's default is smaller and it cuts a longer prompt silently.
pub fn outgoing(
    c: &Connection,
    request: &LlmRequest,
    stream: bool,
    with_schema: bool,
    num_ctx: Option<usize>,
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
        "stream": stream,
        "options": {"temperature": request.temperature, "num_predict": request.max_tokens},
    });
    if let Some(num_ctx) = num_ctx {
        body["options"]["num_ctx"] = json!(num_ctx);
    }
    match &request.schema {
        Some(schema) if with_schema => body["format"] = schema.schema.clone(),
        _ if request.json => body["format"] = json!("json"),
        _ => {}
    }
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    if let Some(key) = &c.settings.api_key {
        headers.push(("authorization".into(), format!("Bearer {}", key.expose())));
    }
    Outgoing {
        url: format!("{}/api/chat", c.settings.base_url),
        headers,
        body: body.to_string().into_bytes(),
    }
}

fn usage(v: &Value) -> Usage {
    Usage {
        prompt_tokens: v
            .get("prompt_eval_count")
            .and_then(Value::as_u64)
            .unwrap_or(0),
        completion_tokens: v.get("eval_count").and_then(Value::as_u64).unwrap_or(0),
    }
}

pub fn parse(text: &str) -> Result<LlmReply, LlmError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| LlmError::BadReply(format!("not an Ollama chat reply ({e})")))?;
    if let Some(error) = v.get("error").and_then(Value::as_str) {
        return Err(LlmError::BadReply(format!(
            "the provider reported: {error}"
        )));
    }
    let text = v
        .pointer("/message/content")
        .and_then(Value::as_str)
        .ok_or_else(|| LlmError::BadReply("the reply has no message".into()))?;
    Ok(LlmReply {
        text: text.to_string(),
        usage: usage(&v),
        cached: false,
        truncated: v.get("done_reason").and_then(Value::as_str) == Some("length"),
    })
}

pub fn stream(
    lines: impl Iterator<Item = Result<String, LlmError>>,
    on_delta: &mut dyn FnMut(&str) -> bool,
) -> Result<LlmReply, LlmError> {
    let mut reply = LlmReply::default();
    for line in lines {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(&line)
            .map_err(|e| LlmError::BadReply(format!("bad stream line ({e})")))?;
        if let Some(error) = v.get("error").and_then(Value::as_str) {
            return Err(LlmError::BadReply(format!(
                "the provider reported: {error}"
            )));
        }
        if let Some(delta) = v.pointer("/message/content").and_then(Value::as_str) {
            if !delta.is_empty() {
                reply.text.push_str(delta);
                if !on_delta(delta) {
                    return Err(LlmError::Cancelled);
                }
            }
        }
        if v.get("done").and_then(Value::as_bool) == Some(true) {
            reply.usage = usage(&v);
            reply.truncated = v.get("done_reason").and_then(Value::as_str) == Some("length");
            return Ok(reply);
        }
    }
    Err(LlmError::BadReply(
        "the stream ended before the reply was complete (no done line)".into(),
    ))
}
