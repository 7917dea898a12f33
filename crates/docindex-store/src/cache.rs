//! Cache backends outside the core: a table in the SQLite library (the default) and Redis
//! (for teams sharing one cache). Both implement the core's `Cache` trait with TTLs.

use crate::{SqliteStore, StoreError};
use docindex_core::llm::cache::{Cache, CacheError};
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Entries in the `cache` table of a library file, so cached replies survive restarts.
pub struct SqliteCache {
    conn: Mutex<Connection>,
}

impl SqliteCache {
    /// Open the cache of the library at `path` (creating and migrating the file if needed),
    /// dropping expired entries.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let store = SqliteStore::open(path)?;
        let conn = store.conn;
        conn.execute(
            "DELETE FROM cache WHERE expires_at <= ?1",
            params![now_secs()],
        )?;
        Ok(SqliteCache {
            conn: Mutex::new(conn),
        })
    }

    fn error(message: impl ToString) -> CacheError {
        CacheError {
            backend: "sqlite",
            message: message.to_string(),
        }
    }
}

impl Cache for SqliteCache {
    fn get(&self, key: &str) -> Result<Option<String>, CacheError> {
        let conn = self.conn.lock().map_err(|_| Self::error("lock poisoned"))?;
        conn.query_row(
            "SELECT value FROM cache WHERE key = ?1 AND expires_at > ?2",
            params![key, now_secs()],
            |r| r.get(0),
        )
        .optional()
        .map_err(Self::error)
    }

    fn put(&self, key: &str, value: &str, ttl: Duration) -> Result<(), CacheError> {
        let conn = self.conn.lock().map_err(|_| Self::error("lock poisoned"))?;
        let expires = now_secs().saturating_add(ttl.as_secs() as i64);
        conn.execute(
            "INSERT INTO cache (key, value, expires_at) VALUES (?1, ?2, ?3)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at",
            params![key, value, expires],
        )
        .map_err(Self::error)?;
        Ok(())
    }

    fn backend(&self) -> &'static str {
        "sqlite"
    }
}

/// Entries in a Redis server under the `docindex:` prefix, expiring by Redis TTL.
pub struct RedisCache {
    client: redis::Client,
    conn: Mutex<Option<redis::Connection>>,
}

impl RedisCache {
    /// Connect to `url` (`redis://host:port/db`), failing now if the server cannot be
    /// reached, so a wrong URL is reported when the user sets it.
    pub fn connect(url: &str) -> Result<Self, CacheError> {
        let client = redis::Client::open(url).map_err(Self::error)?;
        let conn = client
            .get_connection_with_timeout(Duration::from_secs(3))
            .map_err(Self::error)?;
        Ok(RedisCache {
            client,
            conn: Mutex::new(Some(conn)),
        })
    }

    fn error(e: impl ToString) -> CacheError {
        CacheError {
            backend: "redis",
            message: e.to_string(),
        }
    }

    /// Run `f` on the connection, reconnecting once if the server dropped it.
    fn with_conn<T>(
        &self,
        f: impl Fn(&mut redis::Connection) -> redis::RedisResult<T>,
    ) -> Result<T, CacheError> {
        let mut slot = self.conn.lock().map_err(|_| Self::error("lock poisoned"))?;
        if let Some(conn) = slot.as_mut() {
            match f(conn) {
                Ok(v) => return Ok(v),
                Err(e) if !(e.is_connection_dropped() || e.is_io_error()) => {
                    return Err(Self::error(e))
                }
                Err(_) => *slot = None,
            }
        }
        let mut conn = self
            .client
            .get_connection_with_timeout(Duration::from_secs(3))
            .map_err(Self::error)?;
        let result = f(&mut conn).map_err(Self::error);
        *slot = Some(conn);
        result
    }
}

impl Cache for RedisCache {
    fn get(&self, key: &str) -> Result<Option<String>, CacheError> {
        let key = format!("docindex:{key}");
        self.with_conn(|c| redis::cmd("GET").arg(&key).query(c))
    }

    fn put(&self, key: &str, value: &str, ttl: Duration) -> Result<(), CacheError> {
        let key = format!("docindex:{key}");
        let seconds = ttl.as_secs().max(1);
        self.with_conn(|c| {
            redis::cmd("SET")
                .arg(&key)
                .arg(value)
                .arg("EX")
                .arg(seconds)
                .query::<()>(c)
        })
    }

    fn backend(&self) -> &'static str {
        "redis"
    }
}
