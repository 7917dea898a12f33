//! Caching of model replies (and, through the same trait, search results and answers):
//! a key-value trait with TTLs that SQLite and Redis implement outside the core, an
//! in-memory implementation, and `CachedLlm`, which answers from the cache without a call.

use super::{Llm, LlmError, LlmReply, LlmRequest};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use thiserror::Error;

/// A cache backend failed. Callers treat the cache as optional: they log and go on.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("cache {backend}: {message}")]
pub struct CacheError {
    pub backend: &'static str,
    pub message: String,
}

/// A key-value store whose entries expire.
pub trait Cache: Send + Sync {
    fn get(&self, key: &str) -> Result<Option<String>, CacheError>;
    fn put(&self, key: &str, value: &str, ttl: Duration) -> Result<(), CacheError>;
    /// The backend's name for messages (`memory`, `sqlite`, `redis`).
    fn backend(&self) -> &'static str;
}

/// How long each kind of entry lives. Defaults follow the seed design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheTtls {
    pub index: Duration,
    pub llm: Duration,
    pub search: Duration,
}

impl Default for CacheTtls {
    fn default() -> Self {
        CacheTtls {
            index: Duration::from_secs(7 * 24 * 3600),
            llm: Duration::from_secs(3600),
            search: Duration::from_secs(1800),
        }
    }
}

/// Entries in this process only.
#[derive(Default)]
pub struct MemoryCache {
    entries: Mutex<HashMap<String, (String, Instant)>>,
}

impl Cache for MemoryCache {
    fn get(&self, key: &str) -> Result<Option<String>, CacheError> {
        let mut entries = self.entries.lock().map_err(|_| poisoned())?;
        match entries.get(key) {
            Some((value, expires)) if *expires > Instant::now() => Ok(Some(value.clone())),
            Some(_) => {
                entries.remove(key);
                Ok(None)
            }
            None => Ok(None),
        }
    }

    fn put(&self, key: &str, value: &str, ttl: Duration) -> Result<(), CacheError> {
        let mut entries = self.entries.lock().map_err(|_| poisoned())?;
        entries.insert(key.to_string(), (value.to_string(), Instant::now() + ttl));
        Ok(())
    }

    fn backend(&self) -> &'static str {
        "memory"
    }
}

fn poisoned() -> CacheError {
    CacheError {
        backend: "memory",
        message: "a thread panicked while holding the cache".into(),
    }
}

/// A model behind a cache: a hit returns the stored reply (marked `cached`) and makes no
/// provider call; a miss calls the model and stores a complete, untruncated reply.
pub struct CachedLlm {
    inner: Arc<dyn Llm>,
    cache: Arc<dyn Cache>,
    ttl: Duration,
}

impl CachedLlm {
    pub fn new(inner: Arc<dyn Llm>, cache: Arc<dyn Cache>, ttl: Duration) -> Self {
        CachedLlm { inner, cache, ttl }
    }

    fn lookup(&self, key: &str) -> Option<LlmReply> {
        match self.cache.get(key) {
            Ok(Some(stored)) => match serde_json::from_str::<LlmReply>(&stored) {
                Ok(mut reply) => {
                    reply.cached = true;
                    Some(reply)
                }
                Err(e) => {
                    tracing::warn!(
                        "cache {}: unreadable entry ignored: {e}",
                        self.cache.backend()
                    );
                    None
                }
            },
            Ok(None) => None,
            Err(e) => {
                tracing::warn!("{e}; calling the model");
                None
            }
        }
    }

    fn store(&self, key: &str, reply: &LlmReply) {
        if reply.truncated {
            return;
        }
        match serde_json::to_string(reply) {
            Ok(value) => {
                if let Err(e) = self.cache.put(key, &value, self.ttl) {
                    tracing::warn!("{e}; reply not cached");
                }
            }
            Err(e) => tracing::warn!("reply not cached: {e}"),
        }
    }
}

impl Llm for CachedLlm {
    fn model(&self) -> &str {
        self.inner.model()
    }

    fn complete(&self, request: &LlmRequest) -> Result<LlmReply, LlmError> {
        let key = request.cache_key(self.inner.model());
        if let Some(hit) = self.lookup(&key) {
            return Ok(hit);
        }
        let reply = self.inner.complete(request)?;
        self.store(&key, &reply);
        Ok(reply)
    }

    fn stream(
        &self,
        request: &LlmRequest,
        on_delta: &mut dyn FnMut(&str) -> bool,
    ) -> Result<LlmReply, LlmError> {
        let key = request.cache_key(self.inner.model());
        if let Some(hit) = self.lookup(&key) {
            if !on_delta(&hit.text) {
                return Err(LlmError::Cancelled);
            }
            return Ok(hit);
        }
        let reply = self.inner.stream(request, on_delta)?;
        self.store(&key, &reply);
        Ok(reply)
    }

    fn context_window(&self) -> Option<usize> {
        self.inner.context_window()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::ScriptedLlm;

    #[test]
    fn a_hit_makes_no_call_and_a_changed_parameter_misses() {
        let model = Arc::new(ScriptedLlm::new("test/m", |r: &LlmRequest| {
            Ok(format!("echo {}", r.messages[0].content))
        }));
        let cached = CachedLlm::new(
            model.clone(),
            Arc::new(MemoryCache::default()),
            Duration::from_secs(60),
        );
        let request = LlmRequest::new("sys", "hello");
        let first = cached.complete(&request).unwrap();
        assert!(!first.cached);
        let second = cached.complete(&request).unwrap();
        assert!(second.cached);
        assert_eq!(second.text, "echo hello");
        assert_eq!(model.call_count(), 1);

        let mut streamed = String::new();
        cached
            .stream(&request, &mut |d| {
                streamed.push_str(d);
                true
            })
            .unwrap();
        assert_eq!(streamed, "echo hello");
        assert_eq!(model.call_count(), 1);

        cached
            .complete(&request.clone().with_max_tokens(10))
            .unwrap();
        assert_eq!(model.call_count(), 2);
    }

    #[test]
    fn entries_expire() {
        let cache = MemoryCache::default();
        cache.put("k", "v", Duration::from_millis(0)).unwrap();
        assert_eq!(cache.get("k").unwrap(), None);
        cache.put("k", "v", Duration::from_secs(60)).unwrap();
        assert_eq!(cache.get("k").unwrap().as_deref(), Some("v"));
    }
}
