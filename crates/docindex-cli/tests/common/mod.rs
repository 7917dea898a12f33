//! What the offline CLI tests share: the fixtures, the binary on a library, JSON output.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

/// `docindex --library LIB`, offline, embeddings left for later.
pub fn docindex(lib: &Path) -> Command {
    let mut cmd = Command::cargo_bin("docindex").unwrap();
    cmd.arg("--library")
        .arg(lib)
        .env("DOCINDEX_SKIP_EMBED", "1")
        .env_remove("DOCINDEX_MODEL");
    cmd
}

/// The command's JSON output; it must succeed.
pub fn json(cmd: &mut Command) -> Value {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A fresh library (`DIR/lib`) holding the given fixtures, indexed offline.
pub fn library_of(fixtures: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let mut cmd = docindex(&lib);
    cmd.arg("index");
    for name in fixtures {
        cmd.arg(fixture(name));
    }
    cmd.assert().success();
    (dir, lib)
}
