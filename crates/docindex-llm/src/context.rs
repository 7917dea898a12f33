//! Asking a server how large its context window is, so prompts can be fitted to it: Ollama's
//! `/api/show`, the model listing of OpenAI-compatible servers (vLLM, LM Studio, OpenRouter),
//! llama.cpp's `/props`, and, for a server that tells none of these (llama.cpp's Python
//! server), a request for more tokens than any window holds, whose refusal names the window.

use crate::http::{context_window_in, Outgoing, Waits};
use crate::{Connection, Provider};
use serde_json::{json, Value};
use std::time::Duration;

/// The most context we ask an Ollama server to allocate: its default is smaller than most
/// models allow and it cuts a longer prompt silently, so we set `num_ctx` ourselves.
pub const OLLAMA_CONTEXT_CAP: usize = 8192;

/// How long a probe may take: a server that is slow to say this is not asked again.
const PROBE_WAIT: Duration = Duration::from_secs(15);

/// The server's context window, when it can be learned; hosted APIs are not asked (their
/// windows dwarf our prompts).
pub fn ask_server(c: &Connection) -> Option<usize> {
    let base = c.settings.base_url.as_str();
    match c.spec.provider {
        Provider::Ollama => {
            let shown = c.http.post_json(
                &format!("{base}/api/show"),
                &auth(c),
                &json!({"model": c.spec.model_id}),
                PROBE_WAIT,
            )?;
            ollama_window(&shown)
        }
        Provider::OpenAi if !base.contains("api.openai.com") => {
            let origin = base.strip_suffix("/v1").unwrap_or(base);
            c.http
                .get_json(&format!("{base}/models"), &auth(c), PROBE_WAIT)
                .and_then(|listing| listed_window(&listing, &c.spec.model_id))
                .or_else(|| {
                    c.http
                        .get_json(&format!("{origin}/props"), &auth(c), PROBE_WAIT)
                        .and_then(|props| props_window(&props))
                })
                .or_else(|| {
                    let url = format!("{origin}/api/v0/models/{}", c.spec.model_id);
                    c.http
                        .get_json(&url, &auth(c), PROBE_WAIT)
                        .and_then(|model| number_at(&model, &["loaded_context_length"]))
                })
                // Only a server on this machine or the local network: a hosted one might bill
                // a long reply to a request it does not refuse.
                .or_else(|| is_local(base).then(|| window_from_refusal(c)).flatten())
        }
        _ => None,
    }
}

/// Whether `base_url` is on this machine or a private network.
pub fn is_local(base_url: &str) -> bool {
    let rest = base_url.split_once("://").map_or(base_url, |(_, r)| r);
    let authority = rest.split('/').next().unwrap_or(rest);
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
    };
    if host == "localhost" || host.ends_with(".local") {
        return true;
    }
    match host.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(ip)) => ip.is_loopback() || ip.is_private() || ip.is_link_local(),
        Ok(std::net::IpAddr::V6(ip)) => ip.is_loopback(),
        Err(_) => false,
    }
}

fn auth(c: &Connection) -> Vec<(String, String)> {
    c.settings
        .api_key
        .as_ref()
        .map(|key| ("authorization".into(), format!("Bearer {}", key.expose())))
        .into_iter()
        .collect()
}

/// Ollama: `num_ctx` when the model file sets one, else the model's own length (capped).
pub fn ollama_window(shown: &Value) -> Option<usize> {
    let set = shown
        .get("parameters")
        .and_then(Value::as_str)
        .and_then(|p| {
            p.lines().find_map(|line| {
                let mut words = line.split_whitespace();
                (words.next() == Some("num_ctx"))
                    .then(|| words.next()?.parse::<usize>().ok())
                    .flatten()
            })
        });
    let trained = shown
        .get("model_info")
        .and_then(Value::as_object)
        .and_then(|info| {
            info.iter()
                .find(|(key, _)| key.ends_with(".context_length"))
                .and_then(|(_, v)| v.as_u64())
        })
        .map(|n| (n as usize).min(OLLAMA_CONTEXT_CAP));
    set.or(trained)
}

/// The window a model listing gives for `model_id` (or its only model).
pub fn listed_window(listing: &Value, model_id: &str) -> Option<usize> {
    // `{"data": [...]}`, or a bare array (Together).
    let models = listing
        .get("data")
        .and_then(Value::as_array)
        .or_else(|| listing.as_array())?;
    let model = models
        .iter()
        .find(|m| m.get("id").and_then(Value::as_str) == Some(model_id))
        .or_else(|| (models.len() == 1).then(|| &models[0]))?;
    number_at(
        model,
        &[
            "max_model_len",
            "loaded_context_length",
            "context_length",
            "max_context_length",
            "context_window",
            "meta/n_ctx",
        ],
    )
}

/// llama.cpp's server: the context of its slots.
pub fn props_window(props: &Value) -> Option<usize> {
    number_at(props, &["default_generation_settings/n_ctx", "n_ctx"])
}

fn number_at(value: &Value, paths: &[&str]) -> Option<usize> {
    paths.iter().find_map(|path| {
        let pointer = format!("/{path}");
        value
            .pointer(&pointer)
            .and_then(Value::as_u64)
            .filter(|&n| n >= 64)
            .map(|n| n as usize)
    })
}

/// Ask for more reply tokens than any window holds: a server that checks refuses at once,
/// before it runs the model, and names its window. One that does not check answers "OK".
fn window_from_refusal(c: &Connection) -> Option<usize> {
    let body = json!({
        "model": c.spec.model_id,
        "messages": [{"role": "user", "content": "Reply with the single word OK."}],
        "max_tokens": 10_000_000,
        "temperature": 0,
        "stop": ["OK", "\n"],
    });
    let mut headers = auth(c);
    headers.push(("content-type".into(), "application/json".into()));
    let out = Outgoing {
        url: format!("{}/chat/completions", c.settings.base_url),
        headers,
        body: body.to_string().into_bytes(),
    };
    let waits = Waits {
        first_byte: PROBE_WAIT,
        idle: PROBE_WAIT,
    };
    match c.http.post_once(&out, waits) {
        Err(crate::LlmError::ContextExceeded { window, .. }) => Some(window),
        Err(crate::LlmError::Http { message, .. }) => context_window_in(&message),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_from_each_servers_own_words() {
        let vllm = json!({"data": [{"id": "qwen", "max_model_len": 32768}]});
        assert_eq!(listed_window(&vllm, "qwen"), Some(32768));
        let lm_studio = json!({"data": [{"id": "a"}, {"id": "b", "loaded_context_length": 4096}]});
        assert_eq!(listed_window(&lm_studio, "b"), Some(4096));
        assert_eq!(listed_window(&lm_studio, "a"), None);
        let llama_cpp_python = json!({"data": [{"id": "m", "owned_by": "me"}]});
        assert_eq!(listed_window(&llama_cpp_python, "m"), None);
        let props = json!({"default_generation_settings": {"n_ctx": 8192}});
        assert_eq!(props_window(&props), Some(8192));
        let ollama = json!({"parameters": "stop \"<|im_end|>\"\nnum_ctx 16384",
            "model_info": {"qwen2.context_length": 32768}});
        assert_eq!(ollama_window(&ollama), Some(16384));
        let ollama_default = json!({"model_info": {"qwen2.context_length": 32768}});
        assert_eq!(ollama_window(&ollama_default), Some(OLLAMA_CONTEXT_CAP));
        assert_eq!(
            context_window_in("This model's maximum context length is 512 tokens. However, you requested 880 tokens"),
            Some(512)
        );
        assert_eq!(
            context_window_in(
                r#"{"error":{"message":"the request exceeds the available context size","n_ctx":4096}}"#
            ),
            Some(4096)
        );
        assert_eq!(context_window_in("model not found"), None);
        let groq = json!({"data": [{"id": "llama", "context_window": 131072}]});
        assert_eq!(listed_window(&groq, "llama"), Some(131072));
        let together = json!([{"id": "m", "context_length": 32768}]);
        assert_eq!(listed_window(&together, "m"), Some(32768));
    }

    #[test]
    fn only_a_local_server_is_probed_by_refusal() {
        for local in [
            "http://127.0.0.1:8088/v1",
            "http://localhost:11434",
            "http://192.168.1.20:1234/v1",
            "http://10.0.0.5/v1",
            "http://[::1]:8080/v1",
        ] {
            assert!(is_local(local), "{local}");
        }
        for hosted in [
            "https://api.groq.com/openai/v1",
            "https://api.together.xyz/v1",
            "https://8.8.8.8/v1",
        ] {
            assert!(!is_local(hosted), "{hosted}");
        }
    }
}
