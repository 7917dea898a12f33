//! The shared vector store against a real Chroma server (`chroma run`, which
//! `scripts/test.sh` installs with pip): vectors go there and dense search reads them back,
//! a second library sharing the server reuses them, and a server that is down, slow or
//! misnamed is a clear error that leaves the SQLite library as it was.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{docindex, fixture, json, library_of};
use docindex_chroma::ChromaStore;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const PRESS_RELEASE: &str = "buckle_8-K_2024-11-22_EX-99.1_press_release.html";
const EIGHT_K: &str = "buckle_8-K_2024-11-22.html";

/// A `chroma run` of our own on a free loopback port, stopped when dropped.
struct ChromaServer {
    child: Child,
    address: String,
    _data: tempfile::TempDir,
}

impl Drop for ChromaServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn chroma_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("DOCINDEX_CHROMA").filter(|p| !p.is_empty()) {
        return PathBuf::from(path);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.tools/chroma/bin/chroma")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn heartbeat(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request = format!(
        "GET /api/v2/heartbeat HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    );
    let mut reply = String::new();
    stream.write_all(request.as_bytes()).is_ok()
        && stream.read_to_string(&mut reply).is_ok()
        && reply.starts_with("HTTP/1.1 200")
}

fn start_chroma() -> ChromaServer {
    let binary = chroma_binary();
    assert!(
        binary.exists(),
        "{} is missing: scripts/test.sh installs Chroma (or set DOCINDEX_CHROMA)",
        binary.display()
    );
    let data = tempfile::tempdir().unwrap();
    let port = free_port();
    let child = Command::new(&binary)
        .args(["run", "--host", "127.0.0.1", "--port", &port.to_string()])
        .arg("--path")
        .arg(data.path())
        .env("ANONYMIZED_TELEMETRY", "False")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = ChromaServer {
        child,
        address: format!("chroma://127.0.0.1:{port}"),
        _data: data,
    };
    let started = Instant::now();
    while !heartbeat(port) {
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "chroma did not start"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    server
}

/// `docindex` on `lib` with vectors in `vectors`, the embedding stage on.
fn with_vectors(lib: &Path, vectors: &str) -> assert_cmd::Command {
    let mut cmd = docindex(lib);
    cmd.env_remove("DOCINDEX_SKIP_EMBED")
        .arg("--vectors")
        .arg(vectors);
    cmd
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The number N of "embedded N chunks of …".
fn chunks_embedded(stderr: &str) -> usize {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("embedded "))
        .unwrap_or_else(|| panic!("no embedding line in {stderr}"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

const QUESTION: &str = "how much did the retailer earn for each share";

#[test]
fn vectors_go_to_chroma_and_a_second_library_sharing_it_reuses_them() {
    let chroma = start_chroma();
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first");
    let out = with_vectors(&first, &chroma.address)
        .arg("index")
        .arg(fixture(PRESS_RELEASE))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let embedded = chunks_embedded(&stderr_of(&out));
    assert!(embedded > 0);

    // The server holds exactly those chunks, in the model's own collection.
    let store = ChromaStore::new(&chroma.address).unwrap();
    assert_eq!(
        store.count(docindex_embed::DISTILLED_MODEL_ID).unwrap(),
        embedded
    );

    // Dense search reads them back from the server: its hits carry a dense rank.
    let results = json(with_vectors(&first, &chroma.address).args(["--json", "search", QUESTION]));
    assert_eq!(
        results["legs"],
        serde_json::json!(["lexical", "titles", "dense"]),
        "{results}"
    );
    let hits = results["hits"].as_array().unwrap();
    assert!(hits
        .iter()
        .any(|h| h["reason"].as_str().unwrap().contains("dense rank")));
    assert!(hits[0]["text"].as_str().unwrap().contains("per share"));

    // The library's own file holds no vectors: without the server there is no dense leg.
    let local = json(docindex(&first).args(["--json", "search", QUESTION]));
    assert_eq!(local["legs"], serde_json::json!(["lexical", "titles"]));

    // A teammate's library indexing the same filing computes nothing: the server has it.
    let second = dir.path().join("second");
    let out = with_vectors(&second, &chroma.address)
        .arg("index")
        .arg(fixture(PRESS_RELEASE))
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(chunks_embedded(&stderr), 0, "{stderr}");
    assert!(stderr.contains(&format!("1 document(s) already in {}", chroma.address)));
    assert_eq!(
        store.count(docindex_embed::DISTILLED_MODEL_ID).unwrap(),
        embedded
    );
    let results = json(with_vectors(&second, &chroma.address).args(["--json", "search", QUESTION]));
    assert_eq!(results["legs"][2], "dense");

    // Another filing in the second library only: the first library never sees its
    // vectors, though the server holds them.
    let out = with_vectors(&second, &chroma.address)
        .arg("index")
        .arg(fixture(EIGHT_K))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(store.count(docindex_embed::DISTILLED_MODEL_ID).unwrap() > embedded);
    let results = json(with_vectors(&first, &chroma.address).args([
        "--json",
        "search",
        "entry into a material definitive agreement",
        "--limit",
        "50",
    ]));
    assert!(results["hits"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["doc_name"] == PRESS_RELEASE));
}

#[test]
fn a_down_slow_or_misnamed_store_is_a_clear_error_and_the_library_is_kept() {
    let (_dir, lib) = library_of(&[EIGHT_K]);
    let before = json(docindex(&lib).args(["--json", "list"]));

    // Down: nothing listens on the port.
    let down = format!("chroma://127.0.0.1:{}", free_port());
    let out = with_vectors(&lib, &down)
        .arg("index")
        .arg(fixture(PRESS_RELEASE))
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains(&format!("the vector store at {down} cannot be reached")),
        "{stderr}"
    );
    assert!(stderr.contains("the documents are stored"), "{stderr}");
    // The new filing is stored and found by BM25; the old one is untouched.
    let after = json(docindex(&lib).args(["--json", "list"]));
    assert_eq!(after.as_array().unwrap().len(), 2);
    assert!(after
        .as_array()
        .unwrap()
        .contains(&before.as_array().unwrap()[0]));
    let results = json(with_vectors(&lib, &down).args(["--json", "search", QUESTION]));
    assert_eq!(results["legs"], serde_json::json!(["lexical", "titles"]));
    assert!(results["hits"].as_array().unwrap().len() > 1);

    // Slow: a server that takes the connection and never answers.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let slow = format!(
        "chroma://127.0.0.1:{}?timeout=1",
        silent.local_addr().unwrap().port()
    );
    let holder = std::thread::spawn(move || {
        let held: Vec<TcpStream> = silent.incoming().take(1).filter_map(Result::ok).collect();
        std::thread::sleep(Duration::from_secs(4));
        drop(held);
    });
    let started = Instant::now();
    let out = with_vectors(&lib, &slow).arg("embed").output().unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the vector store at {slow} did not answer within 1 s"
        )),
        "{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(30));
    holder.join().unwrap();

    // Misnamed: refused before anything runs.
    let out = with_vectors(&lib, "redis://127.0.0.1:6379")
        .arg("embed")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr_of(&out).contains("\"redis://127.0.0.1:6379\" is not a vector store address"));

    // Nothing was recorded as embedded: a working server gets both documents later.
    let chroma = start_chroma();
    let out = with_vectors(&lib, &chroma.address)
        .arg("embed")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("of 2 document(s)"));
    assert_eq!(json(docindex(&lib).args(["--json", "list"])), after);

    // The server goes down once it holds the vectors: search answers by BM25 and says why
    // the dense leg is missing.
    let address = chroma.address.clone();
    drop(chroma);
    let results = json(with_vectors(&lib, &address).args(["--json", "search", QUESTION]));
    assert_eq!(results["legs"], serde_json::json!(["lexical", "titles"]));
    assert!(results["hits"].as_array().unwrap().len() > 1);
    let notes = results["notes"].to_string();
    assert!(
        notes.contains(&format!(
            "dense search skipped: the vector store at {address} cannot be reached"
        )),
        "{notes}"
    );
}
