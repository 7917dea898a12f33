//! The language model of a library: the provider a model string names, behind the chosen
//! cache (the library's SQLite file by default, memory, Redis, or none).

use crate::{AppError, Result};
use docindex_core::enhance::LlmOptions;
use docindex_core::llm::cache::{Cache, CacheTtls, CachedLlm, MemoryCache};
use docindex_core::llm::Llm;
use docindex_llm::{Connection, ProviderSettings};
use docindex_store::{RedisCache, SqliteCache};
use std::path::Path;
use std::sync::Arc;

/// Where model replies are cached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheChoice {
    /// Not cached: every request reaches the provider.
    None,
    /// This process only.
    Memory,
    /// The `cache` table of the library file (the default): survives restarts.
    Sqlite,
    /// A Redis server shared by a team: `redis://host:port/db`.
    Redis(String),
}

impl CacheChoice {
    /// `none`, `memory`, `sqlite` or a `redis://` URL.
    pub fn parse(text: &str) -> Result<Self> {
        match text.trim() {
            "none" | "off" => Ok(CacheChoice::None),
            "memory" => Ok(CacheChoice::Memory),
            "" | "sqlite" => Ok(CacheChoice::Sqlite),
            url if url.starts_with("redis://") || url.starts_with("rediss://") => {
                Ok(CacheChoice::Redis(url.to_string()))
            }
            other => Err(AppError::Settings(format!(
                "unknown cache '{other}': use none, memory, sqlite or a redis:// URL"
            ))),
        }
    }
}

/// Everything needed to use a model.
#[derive(Debug, Clone)]
pub struct ModelConfig {
    /// LiteLLM-style model string: `openai/gpt-4o`, `anthropic/…`, `azure/<deployment>`,
    /// `bedrock/<model id>`, `ollama/<model>`, `hosted_vllm/<model>`.
    pub model: String,
    pub provider: ProviderSettings,
    pub cache: CacheChoice,
    pub ttls: CacheTtls,
    pub options: LlmOptions,
}

impl ModelConfig {
    pub fn new(model: &str) -> Self {
        ModelConfig {
            model: model.to_string(),
            provider: ProviderSettings::default(),
            cache: CacheChoice::Sqlite,
            ttls: CacheTtls::default(),
            options: LlmOptions::default(),
        }
    }
}

/// The chosen cache backend (`None` for no cache).
pub fn open_cache(choice: &CacheChoice, library_file: &Path) -> Result<Option<Arc<dyn Cache>>> {
    Ok(match choice {
        CacheChoice::None => None,
        CacheChoice::Memory => Some(Arc::new(MemoryCache::default())),
        CacheChoice::Sqlite => Some(Arc::new(SqliteCache::open(library_file)?)),
        CacheChoice::Redis(url) => {
            Some(Arc::new(RedisCache::connect(url).map_err(AppError::Cache)?))
        }
    })
}

/// Connect the provider and put the cache in front of it.
pub fn connect(config: &ModelConfig, library_file: &Path) -> Result<Arc<dyn Llm>> {
    let provider: Arc<dyn Llm> =
        Arc::new(Connection::new(&config.model, &config.provider).map_err(AppError::Llm)?);
    match open_cache(&config.cache, library_file)? {
        Some(cache) => Ok(Arc::new(CachedLlm::new(provider, cache, config.ttls.llm))),
        None => Ok(provider),
    }
}
