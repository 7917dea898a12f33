//! Model strings in the LiteLLM convention and the settings each provider needs, taken
//! from explicit settings first and the usual environment variables second.

use docindex_core::llm::LlmError;
use std::fmt;
use std::time::Duration;

/// Which wire format and endpoint a model string selects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Provider {
    /// OpenAI, or any server speaking its chat-completions API at a base URL.
    OpenAi,
    Anthropic,
    /// Azure OpenAI: the model string names the deployment.
    Azure,
    /// AWS Bedrock's Converse API, signed with SigV4.
    Bedrock,
    Ollama,
}

/// A parsed model string: `openai/gpt-4o` → (OpenAi, `gpt-4o`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelSpec {
    pub provider: Provider,
    /// The provider-side model id (or Azure deployment name).
    pub model_id: String,
    /// The whole model string as the user wrote it, used in cache keys and reports.
    pub model: String,
    /// The prefix the user wrote (`openai`, `hosted_vllm`, `lm_studio`, …).
    pub prefix: String,
}

impl ModelSpec {
    pub fn parse(model: &str) -> Result<Self, LlmError> {
        let model = model.trim();
        let (prefix, rest) = model.split_once('/').ok_or_else(|| {
            LlmError::Config(format!(
                "model '{model}' has no provider prefix; write it like openai/gpt-4o, \
                 anthropic/claude-sonnet-4-5, azure/<deployment>, bedrock/<model id>, \
                 ollama/llama3.1 or hosted_vllm/<model>"
            ))
        })?;
        let provider = match prefix {
            "openai" | "hosted_vllm" | "lm_studio" | "openai_compatible" | "llamacpp" => {
                Provider::OpenAi
            }
            "anthropic" => Provider::Anthropic,
            "azure" => Provider::Azure,
            "bedrock" => Provider::Bedrock,
            "ollama" | "ollama_chat" => Provider::Ollama,
            other => {
                return Err(LlmError::Config(format!(
                    "unknown provider '{other}' in model '{model}' (known: openai, anthropic, \
                     azure, bedrock, ollama, hosted_vllm, lm_studio, openai_compatible)"
                )))
            }
        };
        if rest.trim().is_empty() {
            return Err(LlmError::Config(format!("model '{model}' names no model")));
        }
        Ok(ModelSpec {
            provider,
            model_id: rest.to_string(),
            model: model.to_string(),
            prefix: prefix.to_string(),
        })
    }
}

/// An API key or secret. Its `Debug` and `Display` never show the value.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// When and how long to wait before retrying a failed request: policy as data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// The wait before attempt `attempt + 1`: the server's `Retry-After` when it gave one
    /// (capped), else exponential backoff with full jitter.
    pub fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max_delay);
        }
        let exp = self
            .base_delay
            .saturating_mul(1u32 << attempt.min(16))
            .min(self.max_delay);
        let millis = exp.as_millis() as u64;
        Duration::from_millis(millis / 2 + fastrand::u64(0..=millis / 2))
    }
}

/// Everything a provider needs besides the model string. Empty fields are filled from the
/// environment by [`ProviderSettings::resolve`].
#[derive(Debug, Clone, Default)]
pub struct ProviderSettings {
    pub api_key: Option<Secret>,
    pub base_url: Option<String>,
    /// Azure's `api-version`.
    pub api_version: Option<String>,
    /// AWS region for Bedrock.
    pub region: Option<String>,
    pub aws_secret_key: Option<Secret>,
    pub aws_session_token: Option<Secret>,
    /// How long a reply may be silent: before it begins (plus as much again per thousand
    /// prompt tokens) and between its pieces once it streams.
    pub timeout: Option<Duration>,
    pub retry: Option<RetryPolicy>,
    /// Requests in flight at once to this provider.
    pub max_in_flight: Option<usize>,
    /// The model's context window in tokens, when the user states it (else the server is
    /// asked; `DOCINDEX_LLM_CONTEXT`).
    pub context_window: Option<usize>,
}

/// Settings with every needed field decided.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub api_key: Option<Secret>,
    pub base_url: String,
    pub api_version: String,
    pub region: String,
    pub aws_secret_key: Option<Secret>,
    pub aws_session_token: Option<Secret>,
    pub timeout: Duration,
    pub retry: RetryPolicy,
    pub max_in_flight: usize,
    pub context_window: Option<usize>,
}

impl ProviderSettings {
    /// Fill the gaps from `env` (the process environment in the app, a map in tests).
    pub fn resolve(
        &self,
        spec: &ModelSpec,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Resolved, LlmError> {
        let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
        let key_from = |name: &str| self.api_key.clone().or_else(|| var(name).map(Secret::new));
        let missing = |what: &str| LlmError::Config(format!("{} needs {what}", spec.model));
        let mut resolved = Resolved {
            api_key: None,
            base_url: String::new(),
            api_version: String::new(),
            region: String::new(),
            aws_secret_key: None,
            aws_session_token: None,
            timeout: self
                .timeout
                .or_else(|| {
                    var("DOCINDEX_LLM_TIMEOUT")
                        .and_then(|s| s.parse::<u64>().ok())
                        .map(Duration::from_secs)
                })
                .unwrap_or(Duration::from_secs(120)),
            retry: self.retry.unwrap_or_default(),
            // Decided below, once the base URL says whether the server is on this machine.
            max_in_flight: 0,
            context_window: self.context_window.or_else(|| {
                var("DOCINDEX_LLM_CONTEXT")
                    .and_then(|s| s.trim().parse::<usize>().ok())
                    .filter(|&n| n >= 256)
            }),
        };
        let base = |names: &[&str], default: Option<&str>| {
            self.base_url
                .clone()
                .or_else(|| names.iter().find_map(|n| var(n)))
                .or(default.map(str::to_string))
                .map(|u| u.trim_end_matches('/').to_string())
        };
        match spec.provider {
            Provider::OpenAi => {
                let (names, default): (&[&str], Option<&str>) = match spec.prefix.as_str() {
                    "hosted_vllm" => (&["HOSTED_VLLM_API_BASE"], None),
                    "lm_studio" => (&["LM_STUDIO_API_BASE"], Some("http://localhost:1234/v1")),
                    "llamacpp" => (&["LLAMACPP_API_BASE"], Some("http://localhost:8080/v1")),
                    "openai_compatible" => (&["OPENAI_BASE_URL", "OPENAI_API_BASE"], None),
                    _ => (
                        &["OPENAI_BASE_URL", "OPENAI_API_BASE"],
                        Some("https://api.openai.com/v1"),
                    ),
                };
                resolved.base_url = base(names, default)
                    .ok_or_else(|| missing(&format!("a base URL (set {})", names[0])))?;
                resolved.api_key = key_from("OPENAI_API_KEY");
                if resolved.api_key.is_none() && resolved.base_url.contains("api.openai.com") {
                    return Err(missing("an API key (set OPENAI_API_KEY)"));
                }
            }
            Provider::Anthropic => {
                resolved.base_url = base(
                    &["ANTHROPIC_BASE_URL", "ANTHROPIC_API_BASE"],
                    Some("https://api.anthropic.com"),
                )
                .unwrap_or_default();
                resolved.api_key = Some(
                    key_from("ANTHROPIC_API_KEY")
                        .ok_or_else(|| missing("an API key (set ANTHROPIC_API_KEY)"))?,
                );
            }
            Provider::Azure => {
                resolved.base_url = base(&["AZURE_API_BASE", "AZURE_OPENAI_ENDPOINT"], None)
                    .ok_or_else(|| missing("an API base (set AZURE_API_BASE)"))?;
                resolved.api_key = Some(
                    key_from("AZURE_API_KEY")
                        .or_else(|| var("AZURE_OPENAI_API_KEY").map(Secret::new))
                        .ok_or_else(|| missing("an API key (set AZURE_API_KEY)"))?,
                );
                resolved.api_version = self
                    .api_version
                    .clone()
                    .or_else(|| var("AZURE_API_VERSION"))
                    .unwrap_or_else(|| "2024-10-21".to_string());
            }
            Provider::Bedrock => {
                resolved.region = self
                    .region
                    .clone()
                    .or_else(|| var("AWS_REGION"))
                    .or_else(|| var("AWS_DEFAULT_REGION"))
                    .or_else(|| var("AWS_REGION_NAME"))
                    .ok_or_else(|| missing("a region (set AWS_REGION)"))?;
                let (profile_key, profile_secret, profile_token) = aws_profile(&var);
                resolved.api_key = key_from("AWS_ACCESS_KEY_ID").or(profile_key);
                resolved.aws_secret_key = self
                    .aws_secret_key
                    .clone()
                    .or_else(|| var("AWS_SECRET_ACCESS_KEY").map(Secret::new))
                    .or(profile_secret);
                resolved.aws_session_token = self
                    .aws_session_token
                    .clone()
                    .or_else(|| var("AWS_SESSION_TOKEN").map(Secret::new))
                    .or(profile_token);
                if resolved.api_key.is_none() || resolved.aws_secret_key.is_none() {
                    return Err(missing(
                        "AWS credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a \
                         profile in ~/.aws/credentials)",
                    ));
                }
                let default = format!("https://bedrock-runtime.{}.amazonaws.com", resolved.region);
                resolved.base_url =
                    base(&["AWS_BEDROCK_RUNTIME_ENDPOINT"], Some(&default)).unwrap_or(default);
            }
            Provider::Ollama => {
                let host = base(
                    &["OLLAMA_HOST", "OLLAMA_API_BASE"],
                    Some("http://localhost:11434"),
                )
                .unwrap_or_default();
                resolved.base_url = if host.contains("://") {
                    host
                } else {
                    format!("http://{host}")
                };
                resolved.api_key = key_from("OLLAMA_API_KEY");
            }
        }
        // A server on this machine computes one reply at a time, so more requests in flight
        // gain nothing, and llama.cpp's Python server cuts a running reply short when another
        // arrives: one at a time, unless the user says otherwise.
        resolved.max_in_flight = self
            .max_in_flight
            .unwrap_or(if served_here(&resolved.base_url) {
                1
            } else {
                4
            })
            .max(1);
        Ok(resolved)
    }
}

/// Whether `base_url` names this machine (localhost, a loopback or unspecified address).
pub(crate) fn served_here(base_url: &str) -> bool {
    let Some(host) = reqwest::Url::parse(base_url)
        .ok()
        .and_then(|url| url.host_str().map(|h| h.to_ascii_lowercase()))
    else {
        return false;
    };
    match host.trim_matches(['[', ']']).parse::<std::net::IpAddr>() {
        Ok(ip) => ip.is_loopback() || ip.is_unspecified(),
        Err(_) => host == "localhost" || host.ends_with(".localhost"),
    }
}

/// Credentials of `AWS_PROFILE` (or `default`) from the shared credentials file.
fn aws_profile(
    var: &dyn Fn(&str) -> Option<String>,
) -> (Option<Secret>, Option<Secret>, Option<Secret>) {
    let path = var("AWS_SHARED_CREDENTIALS_FILE")
        .map(std::path::PathBuf::from)
        .or_else(|| var("HOME").map(|h| std::path::Path::new(&h).join(".aws").join("credentials")));
    let Some(text) = path.and_then(|p| std::fs::read_to_string(p).ok()) else {
        return (None, None, None);
    };
    let profile = var("AWS_PROFILE").unwrap_or_else(|| "default".to_string());
    let mut in_profile = false;
    let (mut key, mut secret, mut token) = (None, None, None);
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_profile = line.trim_matches(['[', ']']).trim() == profile;
            continue;
        }
        if !in_profile {
            continue;
        }
        if let Some((k, v)) = line.split_once('=') {
            let v = Some(Secret::new(v.trim()));
            match k.trim() {
                "aws_access_key_id" => key = v,
                "aws_secret_access_key" => secret = v,
                "aws_session_token" => token = v,
                _ => {}
            }
        }
    }
    (key, secret, token)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn parses_litellm_model_strings() {
        let spec = ModelSpec::parse("bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0").unwrap();
        assert_eq!(spec.provider, Provider::Bedrock);
        assert_eq!(spec.model_id, "anthropic.claude-3-5-sonnet-20240620-v1:0");
        assert_eq!(
            ModelSpec::parse("ollama/llama3.1:8b").unwrap().model_id,
            "llama3.1:8b"
        );
        assert_eq!(
            ModelSpec::parse("hosted_vllm/Qwen/Qwen2.5-7B")
                .unwrap()
                .model_id,
            "Qwen/Qwen2.5-7B"
        );
        let err = ModelSpec::parse("gpt-4o").unwrap_err();
        assert!(err.to_string().contains("openai/gpt-4o"), "{err}");
        assert!(ModelSpec::parse("cohere/x")
            .unwrap_err()
            .to_string()
            .contains("unknown provider"));
    }

    #[test]
    fn resolves_keys_and_bases_from_the_environment() {
        let spec = ModelSpec::parse("openai/gpt-4o").unwrap();
        let r = ProviderSettings::default()
            .resolve(
                &spec,
                &env(&[
                    ("OPENAI_API_KEY", "sk-1"),
                    ("OPENAI_BASE_URL", "http://h:1/v1/"),
                ]),
            )
            .unwrap();
        assert_eq!(r.base_url, "http://h:1/v1");
        assert_eq!(r.api_key.unwrap().expose(), "sk-1");
        let err = ProviderSettings::default()
            .resolve(&spec, &env(&[]))
            .unwrap_err();
        assert!(err.to_string().contains("OPENAI_API_KEY"));

        let azure = ModelSpec::parse("azure/my-deploy").unwrap();
        let r = ProviderSettings::default()
            .resolve(
                &azure,
                &env(&[
                    ("AZURE_API_KEY", "k"),
                    ("AZURE_API_BASE", "https://x.openai.azure.com"),
                ]),
            )
            .unwrap();
        assert_eq!(r.api_version, "2024-10-21");

        let ollama = ModelSpec::parse("ollama/llama3").unwrap();
        let r = ProviderSettings::default()
            .resolve(&ollama, &env(&[("OLLAMA_HOST", "127.0.0.1:9999")]))
            .unwrap();
        assert_eq!(r.base_url, "http://127.0.0.1:9999");

        let bedrock = ModelSpec::parse("bedrock/m").unwrap();
        let err = ProviderSettings::default()
            .resolve(&bedrock, &env(&[("AWS_REGION", "us-east-1")]))
            .unwrap_err();
        assert!(err.to_string().contains("AWS credentials"));
    }

    #[test]
    fn a_server_on_this_machine_gets_one_request_at_a_time_unless_told() {
        let spec = ModelSpec::parse("openai/local-model").unwrap();
        let in_flight = |base: &str, told: Option<usize>| {
            ProviderSettings {
                max_in_flight: told,
                ..ProviderSettings::default()
            }
            .resolve(
                &spec,
                &env(&[("OPENAI_BASE_URL", base), ("OPENAI_API_KEY", "k")]),
            )
            .unwrap()
            .max_in_flight
        };
        for here in [
            "http://127.0.0.1:8088/v1",
            "http://localhost:1234/v1",
            "http://[::1]:8080/v1",
            "http://0.0.0.0:8000/v1",
        ] {
            assert_eq!(in_flight(here, None), 1, "{here}");
        }
        assert_eq!(in_flight("https://api.openai.com/v1", None), 4);
        assert_eq!(in_flight("http://gpu-box.lan:8000/v1", None), 4);
        assert_eq!(in_flight("http://127.0.0.1:8088/v1", Some(3)), 3);
        let ollama = ModelSpec::parse("ollama/llama3").unwrap();
        let r = ProviderSettings::default()
            .resolve(&ollama, &env(&[]))
            .unwrap();
        assert_eq!(r.max_in_flight, 1);
    }

    #[test]
    fn secrets_never_print() {
        let s = Secret::new("sk-very-secret");
        assert!(!format!("{s:?} {s}").contains("very"));
        let settings = ProviderSettings {
            api_key: Some(s),
            ..Default::default()
        };
        assert!(!format!("{settings:?}").contains("very"));
    }

    #[test]
    fn retry_after_wins_and_backoff_grows_within_bounds() {
        let p = RetryPolicy::default();
        assert_eq!(
            p.delay(0, Some(Duration::from_secs(2))),
            Duration::from_secs(2)
        );
        assert_eq!(p.delay(0, Some(Duration::from_secs(999))), p.max_delay);
        for attempt in 0..6 {
            let d = p.delay(attempt, None);
            let cap = p.base_delay.saturating_mul(1 << attempt).min(p.max_delay);
            assert!(d <= cap && d >= cap / 2, "{attempt}: {d:?}");
        }
    }
}
