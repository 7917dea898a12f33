//! The cache backends: SQLite in the library file (survives reopening, expires entries) and
//! a real Redis server on loopback, both behind the core's `Cache` trait and `CachedLlm`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_core::llm::cache::{Cache, CachedLlm};
use docindex_core::llm::{Llm, LlmRequest};
use docindex_core::testing::ScriptedLlm;
use docindex_store::{RedisCache, SqliteCache};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn exercise(cache: Arc<dyn Cache>) {
    cache.put("k1", "v1", Duration::from_secs(60)).unwrap();
    assert_eq!(cache.get("k1").unwrap().as_deref(), Some("v1"));
    cache.put("k1", "v2", Duration::from_secs(60)).unwrap();
    assert_eq!(cache.get("k1").unwrap().as_deref(), Some("v2"));
    assert_eq!(cache.get("absent").unwrap(), None);
    cache.put("short", "x", Duration::from_secs(1)).unwrap();
    std::thread::sleep(Duration::from_millis(2100));
    assert_eq!(
        cache.get("short").unwrap(),
        None,
        "{} entry outlived its TTL",
        cache.backend()
    );

    let model = Arc::new(ScriptedLlm::new("test/model", |r: &LlmRequest| {
        Ok(format!("reply to {}", r.messages[0].content))
    }));
    let cached = CachedLlm::new(model.clone(), cache, Duration::from_secs(3600));
    let request = LlmRequest::new("system", "question");
    assert!(!cached.complete(&request).unwrap().cached);
    let hit = cached.complete(&request).unwrap();
    assert!(hit.cached);
    assert_eq!(hit.text, "reply to question");
    assert_eq!(model.call_count(), 1, "a cache hit must not call the model");
}

#[test]
fn sqlite_cache_keeps_entries_across_reopening_until_they_expire() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("library.sqlite");
    exercise(Arc::new(SqliteCache::open(&path).unwrap()));
    let reopened = SqliteCache::open(&path).unwrap();
    assert_eq!(reopened.get("k1").unwrap().as_deref(), Some("v2"));
    // The library in the same file still opens and works.
    let store = docindex_store::SqliteStore::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), 16);
}

/// A redis-server of our own on a free loopback port, stopped when dropped.
struct RedisServer {
    child: Child,
    url: String,
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_redis() -> RedisServer {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new("redis-server")
        .args([
            "--bind",
            "127.0.0.1",
            "--port",
            &port.to_string(),
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .stdout(Stdio::null())
        .spawn()
        .expect("redis-server must be installed (scripts/setup.sh installs it)");
    let url = format!("redis://127.0.0.1:{port}/");
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "redis-server did not start on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    RedisServer { child, url }
}

/// One server for every Redis check, in sequence: a connection killed by the server must
/// be ours, not another test's.
#[test]
fn redis_cache_shares_entries_with_ttls_and_survives_dropped_connections() {
    let err = RedisCache::connect("redis://127.0.0.1:1/").err().unwrap();
    assert_eq!(err.backend, "redis");

    let mut server = start_redis();
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "our redis-server is running"
    );
    let cache = Arc::new(RedisCache::connect(&server.url).unwrap());
    exercise(cache.clone());
    // A second client (another team member) sees the first one's entries.
    let other = RedisCache::connect(&server.url).unwrap();
    assert_eq!(other.get("k1").unwrap().as_deref(), Some("v2"));

    // The server drops every client connection; the cache reconnects once and goes on.
    let mut admin = redis::Client::open(server.url.as_str())
        .unwrap()
        .get_connection()
        .unwrap();
    let _: () = redis::cmd("CLIENT")
        .arg("KILL")
        .arg("TYPE")
        .arg("normal")
        .arg("SKIPME")
        .arg("yes")
        .query(&mut admin)
        .unwrap();
    assert_eq!(cache.get("k1").unwrap().as_deref(), Some("v2"));
    assert_eq!(other.get("k1").unwrap().as_deref(), Some("v2"));
}

/// The cache shares the library file: its writes, from other threads, must never make a
/// document's transaction fail (a deferred transaction that read before another
/// connection wrote would get SQLITE_BUSY without waiting).
#[test]
fn cache_writes_from_other_threads_never_fail_a_document_write() {
    use docindex_core::store::DocumentStore;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("library.sqlite");
    let mut store = docindex_store::SqliteStore::open(&path).unwrap();
    let cache = Arc::new(SqliteCache::open(&path).unwrap());
    let bytes = std::fs::read(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/buckle_8-K_2024-11-22_EX-99.1_press_release.html"),
    )
    .unwrap();
    let doc = docindex_core::index_document(
        "pr.html",
        &bytes,
        &docindex_core::IndexSettings::default(),
        &mut docindex_core::progress::NoProgress,
    )
    .unwrap();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (cache, stop) = (cache.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut i = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                cache
                    .put(&format!("k{i}"), "v", Duration::from_secs(60))
                    .unwrap();
                i += 1;
            }
            i
        })
    };
    for _ in 0..30 {
        store.replace(&doc).unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(writer.join().unwrap() > 0);
}
