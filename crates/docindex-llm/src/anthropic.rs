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
    // Anthropic enforces a reply's shape through a tool the model must call: its input is
    // the reply, checked against the schema.
    if let Some(schema) = &request.schema {
        let name = tool_name(&schema.name);
        body["tools"] = json!([{
            "name": name,
            "description": "Give the reply as this tool's input.",
            "input_schema": schema.schema,
        }]);
        body["tool_choice"] = json!({"type": "tool", "name": name});
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

/// A tool name Anthropic accepts (letters, digits, `_` and `-`, at most 64).
fn tool_name(schema_name: &str) -> String {
    let name: String = schema_name
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' | '-' => c,
            _ => '_',
        })
        .take(64)
        .collect();
    if name.is_empty() {
        "reply".to_string()
    } else {
        name
    }
}

pub fn parse(text: &str) -> Result<LlmReply, LlmError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| LlmError::BadReply(format!("not an Anthropic message ({e})")))?;
    let blocks = v
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| LlmError::BadReply("the message has no content".into()))?;
    // Text blocks, and a forced tool's input (the reply as JSON).
    let text: String = blocks
        .iter()
        .filter_map(|b| match b.get("type").and_then(Value::as_str) {
            Some("text") => b.get("text").and_then(Value::as_str).map(str::to_string),
            Some("tool_use") => b.get("input").map(Value::to_string),
            _ => None,
        })
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
                // A text piece, or a piece of a forced tool's input (the reply as JSON).
                let piece = v
                    .pointer("/delta/text")
                    .or_else(|| v.pointer("/delta/partial_json"));
                if let Some(delta) = piece.and_then(Value::as_str) {
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

#[cfg(test)]
mod tests {
    use super::{parse, tool_name};

    #[test]
    fn a_forced_tools_input_is_the_reply() {
        let message = r#"{"content": [{"type": "tool_use", "id": "t1", "name": "plan",
            "input": {"action": "read", "node_ids": ["0004"]}}],
            "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 5}}"#;
        let reply = parse(message).unwrap();
        let value: serde_json::Value = serde_json::from_str(&reply.text).unwrap();
        assert_eq!(value["node_ids"][0], "0004");
        assert_eq!(reply.usage.completion_tokens, 5);
        assert_eq!(tool_name("answer plan/v2"), "answer_plan_v2");
    }
}
