//! AWS Bedrock's Converse API, signed with SigV4 (`aws-sigv4`). Bedrock streams in AWS's
//! binary event-stream framing, so `stream` makes one Converse call and hands over the
//! whole text at once.

use crate::http::Outgoing;
use crate::Connection;
use aws_credential_types::Credentials;
use aws_sigv4::http_request::{sign, SignableBody, SignableRequest, SigningSettings};
use aws_sigv4::sign::v4;
use docindex_core::llm::{LlmError, LlmReply, LlmRequest, Usage};
use serde_json::{json, Value};
use std::time::SystemTime;

/// Percent-encode a model id for the URL path (`:` in `…-v1:0` becomes `%3A`).
fn encode_path_segment(segment: &str) -> String {
    let mut out = String::new();
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub fn outgoing(c: &Connection, request: &LlmRequest) -> Result<Outgoing, LlmError> {
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|m| json!({"role": m.role.as_str(), "content": [{"text": m.content}]}))
        .collect();
    let mut body = json!({
        "messages": messages,
        "inferenceConfig": {"maxTokens": request.max_tokens, "temperature": request.temperature},
    });
    if let Some(system) = &request.system {
        body["system"] = json!([{"text": system}]);
    }
    let body = body.to_string().into_bytes();
    let url = format!(
        "{}/model/{}/converse",
        c.settings.base_url,
        encode_path_segment(&c.spec.model_id)
    );
    let s = &c.settings;
    let (Some(key), Some(secret)) = (&s.api_key, &s.aws_secret_key) else {
        return Err(LlmError::Config(format!(
            "{} needs AWS credentials",
            c.spec.model
        )));
    };
    let identity = Credentials::new(
        key.expose(),
        secret.expose(),
        s.aws_session_token.as_ref().map(|t| t.expose().to_string()),
        None,
        "docindex-settings",
    )
    .into();
    let params = v4::SigningParams::builder()
        .identity(&identity)
        .region(&s.region)
        .name("bedrock")
        .time(SystemTime::now())
        .settings(SigningSettings::default())
        .build()
        .map_err(|e| LlmError::Config(format!("cannot sign the Bedrock request: {e}")))?
        .into();
    let mut headers = vec![
        ("content-type".to_string(), "application/json".to_string()),
        ("accept".to_string(), "application/json".to_string()),
    ];
    let signable = SignableRequest::new(
        "POST",
        &url,
        headers.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        SignableBody::Bytes(&body),
    )
    .map_err(|e| LlmError::Config(format!("cannot sign the Bedrock request: {e}")))?;
    let (instructions, _signature) = sign(signable, &params)
        .map_err(|e| LlmError::Config(format!("cannot sign the Bedrock request: {e}")))?
        .into_parts();
    for (name, value) in instructions.headers() {
        headers.push((name.to_string(), value.to_string()));
    }
    Ok(Outgoing { url, headers, body })
}

pub fn parse(text: &str) -> Result<LlmReply, LlmError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| LlmError::BadReply(format!("not a Converse reply ({e})")))?;
    let blocks = v
        .pointer("/output/message/content")
        .and_then(Value::as_array)
        .ok_or_else(|| LlmError::BadReply("the Converse reply has no message".into()))?;
    let text: String = blocks
        .iter()
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    Ok(LlmReply {
        text,
        usage: Usage {
            prompt_tokens: v
                .pointer("/usage/inputTokens")
                .and_then(Value::as_u64)
                .unwrap_or(0),
            completion_tokens: v
                .pointer("/usage/outputTokens")
                .and_then(Value::as_u64)
                .unwrap_or(0),
        },
        cached: false,
        truncated: v.get("stopReason").and_then(Value::as_str) == Some("max_tokens"),
    })
}
