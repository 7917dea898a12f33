//! The app's settings: the model, cache and vector store choices, kept as JSON beside the
//! library, and the provider's API key, kept only in the OS keychain.

use crate::error::DesktopError;
use docindex_app::{CacheChoice, ModelConfig};
use docindex_llm::Secret;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

const KEYCHAIN_SERVICE: &str = "DocumentIndex";
const KEYCHAIN_USER: &str = "provider-api-key";

/// What the settings screen edits.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// LiteLLM-style model string (`openai/gpt-4o-mini`, `ollama/llama3.1`); none means the
    /// offline engine.
    #[serde(default)]
    pub model: Option<String>,
    /// The provider's base URL, for OpenAI-compatible servers, Azure or Ollama.
    #[serde(default)]
    pub base_url: Option<String>,
    /// `sqlite` (default), `memory`, `none` or a `redis://` URL.
    #[serde(default)]
    pub cache: Option<String>,
    /// Use no model even when one is configured.
    #[serde(default)]
    pub offline: bool,
    /// Where chunk vectors live: `sqlite` (default, in the library) or a Chroma server a
    /// team shares, `chroma://HOST:PORT`.
    #[serde(default)]
    pub vectors: Option<String>,
}

/// The settings as shown: the stored settings and whether a key is in the keychain.
#[derive(Debug, Clone, Serialize)]
pub struct SettingsView {
    #[serde(flatten)]
    pub settings: Settings,
    pub api_key_stored: bool,
    /// Why the keychain could not be read, when it could not.
    pub keychain_error: Option<String>,
    pub library_dir: String,
    /// The folder of the rotating log files (one a day, a week kept).
    pub log_dir: String,
}

pub fn settings_path(library_dir: &Path) -> PathBuf {
    library_dir.join("desktop-settings.json")
}

/// The saved settings, or the defaults when none were saved.
pub fn load(library_dir: &Path) -> Result<Settings, DesktopError> {
    let path = settings_path(library_dir);
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| DesktopError::Settings {
            path: path.clone(),
            reason: e.to_string(),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Settings::default()),
        Err(e) => Err(DesktopError::Settings {
            path,
            reason: e.to_string(),
        }),
    }
}

pub fn save(library_dir: &Path, settings: &Settings) -> Result<(), DesktopError> {
    let path = settings_path(library_dir);
    let text = serde_json::to_string_pretty(settings).map_err(|e| DesktopError::Settings {
        path: path.clone(),
        reason: e.to_string(),
    })?;
    // Written beside and renamed, so a crash never leaves half a file.
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, text)
        .and_then(|()| std::fs::rename(&partial, &path))
        .map_err(|e| DesktopError::Settings {
            path,
            reason: e.to_string(),
        })
}

fn keychain_entry() -> Result<keyring::Entry, DesktopError> {
    keyring::Entry::new(KEYCHAIN_SERVICE, KEYCHAIN_USER)
        .map_err(|e| DesktopError::Keychain(e.to_string()))
}

/// The stored API key, if any.
pub fn api_key() -> Result<Option<Secret>, DesktopError> {
    match keychain_entry()?.get_password() {
        Ok(key) => Ok(Some(Secret::new(key))),
        Err(keyring::Error::NoEntry) => Ok(None),
        Err(e) => Err(DesktopError::Keychain(e.to_string())),
    }
}

/// Store `key` in the keychain, or delete the stored key when `key` is empty.
pub fn set_api_key(key: &str) -> Result<(), DesktopError> {
    let entry = keychain_entry()?;
    if key.is_empty() {
        match entry.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(DesktopError::Keychain(e.to_string())),
        }
    } else {
        entry
            .set_password(key)
            .map_err(|e| DesktopError::Keychain(e.to_string()))
    }
}

/// The model configuration the settings ask for, with the keychain's key when there is
/// one, or none for the offline engine.
pub fn model_config(
    settings: &Settings,
    api_key: Option<Secret>,
) -> Result<Option<ModelConfig>, DesktopError> {
    let Some(model) = settings.model.as_deref().map(str::trim) else {
        return Ok(None);
    };
    if settings.offline || model.is_empty() {
        return Ok(None);
    }
    let mut config = ModelConfig::new(model);
    config.provider.base_url = settings
        .base_url
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(str::to_string);
    // A key in the environment still works; the keychain's wins when both exist.
    if let Some(key) = api_key {
        config.provider.api_key = Some(key);
    }
    config.cache = CacheChoice::parse(settings.cache.as_deref().unwrap_or("sqlite"))?;
    Ok(Some(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_a_broken_file_names_itself() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()).unwrap(), Settings::default());
        let settings = Settings {
            model: Some("ollama/llama3.1".into()),
            base_url: Some("http://127.0.0.1:11434".into()),
            cache: Some("memory".into()),
            offline: false,
            vectors: Some("chroma://127.0.0.1:8000".into()),
        };
        save(dir.path(), &settings).unwrap();
        assert_eq!(load(dir.path()).unwrap(), settings);
        std::fs::write(settings_path(dir.path()), "{not json").unwrap();
        let err = load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("desktop-settings.json"), "{err}");
    }

    #[test]
    fn offline_or_no_model_means_the_offline_engine() {
        let mut settings = Settings {
            model: Some("openai/gpt-4o-mini".into()),
            offline: true,
            ..Settings::default()
        };
        assert!(model_config(&settings, None).unwrap().is_none());
        settings.model = Some("  ".into());
        settings.offline = false;
        assert!(model_config(&settings, None).unwrap().is_none());
        settings.model = Some("openai/gpt-4o-mini".into());
        settings.base_url = Some(" http://127.0.0.1:9/v1 ".into());
        let config = model_config(&settings, Some(Secret::new("sk-test")))
            .unwrap()
            .unwrap();
        assert_eq!(config.model, "openai/gpt-4o-mini");
        assert_eq!(
            config.provider.base_url.as_deref(),
            Some("http://127.0.0.1:9/v1")
        );
        assert_eq!(
            config.provider.api_key.as_ref().map(Secret::expose),
            Some("sk-test")
        );
        settings.cache = Some("bogus".into());
        let err = model_config(&settings, None).unwrap_err().to_string();
        assert!(err.contains("unknown cache 'bogus'"), "{err}");
    }
}
