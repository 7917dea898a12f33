//! A library in trouble, through the CLI: read-only for the user running it, and two
//! processes writing it at once (the app and a CLI, or two CLIs). Each gets a clear error
//! or waits its turn, and nothing already stored is lost. (A full disk is tested in the
//! store, a library from a newer version in the store's migration test.)
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{docindex, fixture, json, library_of};
use std::process::Command;

const EIGHT_K: &str = "buckle_8-K_2024-11-22.html";
const PRESS_RELEASE: &str = "buckle_8-K_2024-11-22_EX-99.1_press_release.html";

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

#[test]
fn a_read_only_library_is_named_and_left_whole() {
    let (dir, lib) = library_of(&[EIGHT_K]);
    let before = json(docindex(&lib).args(["--json", "list"]));

    // Root writes anywhere, so as root the CLI runs as `nobody`, for whom the library
    // (made by root) is read-only; as anyone else the folder and file lose write access.
    let binary = assert_cmd::cargo::cargo_bin("docindex");
    if running_as_root() {
        for path in [dir.path(), lib.as_path()] {
            Command::new("chmod").arg("755").arg(path).status().unwrap();
        }
    } else {
        Command::new("chmod")
            .args(["a-w"])
            .arg(&lib)
            .arg(lib.join("library.sqlite"))
            .status()
            .unwrap();
    }
    // Its own home: the user's cache folder is where a read-only library's derived files go.
    let home = tempfile::tempdir().unwrap();
    if running_as_root() {
        Command::new("chown")
            .arg("65534:65534")
            .arg(home.path())
            .status()
            .unwrap();
    }
    let as_reader = || {
        let mut c = if running_as_root() {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(&binary);
            c
        } else {
            Command::new(&binary)
        };
        c.env("HOME", home.path()).env_remove("XDG_CACHE_HOME");
        c
    };
    // It is read: listed and searched as it is.
    let read = |args: &[&str]| {
        let out = as_reader()
            .arg("--library")
            .arg(&lib)
            .args(args)
            .env("DOCINDEX_SKIP_EMBED", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let listed: serde_json::Value = serde_json::from_slice(&read(&["--json", "list"])).unwrap();
    assert_eq!(listed, before);
    let found = String::from_utf8(read(&["search", "results of operations"])).unwrap();
    assert!(found.contains(EIGHT_K), "{found}");
    // Asked and scanned: the answer and the report are given, and said not to be saved.
    let asked = |args: &[&str]| {
        let out = as_reader()
            .arg("--library")
            .arg(&lib)
            .args(args)
            .env("DOCINDEX_SKIP_EMBED", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            stderr.contains("not saved: the library is read-only"),
            "{stderr}"
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let answer = asked(&["ask", "What were net sales for the quarter?"]);
    assert!(answer.contains("confidence:"), "{answer}");
    let answer: serde_json::Value =
        serde_json::from_str(&asked(&["--json", "ask", "What were net sales?"])).unwrap();
    assert!(answer["answer"].is_string(), "{answer}");
    let report: serde_json::Value =
        serde_json::from_str(&asked(&["--json", "provenance", "net sales"])).unwrap();
    assert!(report["topic"].is_string(), "{report}");
    let mut command = as_reader();
    let fixture_copy = dir.path().join(PRESS_RELEASE);
    std::fs::copy(fixture(PRESS_RELEASE), &fixture_copy).unwrap();
    let out = command
        .arg("--library")
        .arg(&lib)
        .args(["index"])
        .arg(&fixture_copy)
        .env("DOCINDEX_SKIP_EMBED", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the library at {} is read-only for this user",
            lib.join("library.sqlite").display()
        )),
        "{stderr}"
    );
    if !running_as_root() {
        Command::new("chmod")
            .args(["u+w"])
            .arg(&lib)
            .arg(lib.join("library.sqlite"))
            .status()
            .unwrap();
    }
    assert_eq!(json(docindex(&lib).args(["--json", "list"])), before);
}

#[test]
fn two_processes_writing_one_library_take_turns() {
    let (_dir, lib) = library_of(&[EIGHT_K]);
    // Three writers at once: each waits for the others' transactions.
    let spawned: Vec<_> = [
        "apple_10-K_FY2024_0000320193-24-000123.html",
        "tesla_10-K_FY2023_0001628280-24-002390.html",
        PRESS_RELEASE,
    ]
    .iter()
    .map(|name| {
        Command::new(assert_cmd::cargo::cargo_bin("docindex"))
            .arg("--library")
            .arg(&lib)
            .arg("index")
            .arg(fixture(name))
            .env("DOCINDEX_SKIP_EMBED", "1")
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    })
    .collect();
    for child in spawned {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let listed = json(docindex(&lib).args(["--json", "list"]));
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["doc_name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 4, "{names:?}");
    for name in [EIGHT_K, PRESS_RELEASE] {
        assert!(names.contains(&name), "{names:?}");
    }
    // Every document reads back whole.
    let tree = docindex(&lib)
        .args(["tree", "tesla_10-K_FY2023_0001628280-24-002390"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&tree.stdout).contains("Item 7"));
}

#[test]
fn pipes_and_devices_are_refused_by_name_and_the_rest_is_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let inputs = dir.path().join("inputs");
    std::fs::create_dir(&inputs).unwrap();
    // A named pipe blocks its reader forever; /dev/zero never ends, whatever --max-bytes says.
    let pipe = inputs.join("filing.html");
    assert!(Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap()
        .success());
    std::os::unix::fs::symlink("/dev/zero", inputs.join("zero.html")).unwrap();
    std::fs::copy(fixture(EIGHT_K), inputs.join(EIGHT_K)).unwrap();
    let out = docindex(&lib)
        .args(["--max-bytes", "1000000", "index"])
        .arg(&pipe)
        .arg(inputs.join("zero.html"))
        .arg(inputs.join(EIGHT_K))
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("filing.html") && stderr.contains("a named pipe, not a regular file"),
        "{stderr}"
    );
    assert!(
        stderr.contains("zero.html") && stderr.contains("a device, not a regular file"),
        "{stderr}"
    );
    let listed = json(docindex(&lib).args(["--json", "list"]));
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
}

#[test]
fn a_csv_path_that_cannot_be_written_is_refused_before_the_scan() {
    let (dir, lib) = library_of(&[EIGHT_K]);
    let csv = dir.path().join("no-such-folder").join("report.csv");
    let out = docindex(&lib)
        .args(["provenance", "net sales", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("cannot write the CSV to {}", csv.display())),
        "{stderr}"
    );
    // Nothing was scanned and saved for a report the user could not have.
    let saved = json(docindex(&lib).args(["--json", "saved"]));
    assert_eq!(saved.as_array().map(Vec::len), Some(0), "{saved}");
}

#[test]
fn a_file_name_holding_a_newline_keeps_its_row_and_piped_warnings_are_plain() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let odd = dir.path().join("press\nrelease.html");
    std::fs::copy(fixture(PRESS_RELEASE), &odd).unwrap();
    let out = docindex(&lib)
        .arg("index")
        .arg(&odd)
        .env("DOCINDEX_LOG", "info")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // Logged lines reach a pipe without colour codes.
    assert!(stderr.contains("INFO"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    let listed = docindex(&lib).arg("list").output().unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    let rows: Vec<&str> = listed.lines().collect();
    assert_eq!(rows.len(), 2, "{listed}");
    assert!(rows[1].ends_with("press\\nrelease.html"), "{listed}");
}

#[test]
fn text_that_could_not_be_decoded_is_reported_and_mostly_undecodable_text_refused() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let utf16 = |text: &str, broken: usize| {
        let mut bytes = vec![0xFF, 0xFE];
        for unit in text.encode_utf16() {
            bytes.extend(unit.to_le_bytes());
        }
        for _ in 0..broken {
            bytes.extend(0xDC00u16.to_le_bytes());
        }
        bytes
    };
    let memo =
        "# Quarterly memo\n\nNet sales were $5 million in the quarter, up from $4 million.\n";
    let some = dir.path().join("memo.txt");
    std::fs::write(&some, utf16(memo, 4)).unwrap();
    let noise = dir.path().join("noise.txt");
    std::fs::write(&noise, utf16("Net sales", 200)).unwrap();
    let out = docindex(&lib)
        .arg("index")
        .arg(&some)
        .arg(&noise)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("noise.txt") && stderr.contains("could not be decoded as UTF-16LE"),
        "{stderr}"
    );
    let listed = json(docindex(&lib).args(["--json", "list"]));
    let warnings = listed[0]["warnings"].to_string();
    assert!(
        warnings.contains("4 character(s)") && warnings.contains("could not be decoded"),
        "{listed}"
    );
    let table = String::from_utf8(docindex(&lib).arg("list").output().unwrap().stdout).unwrap();
    assert!(table.contains("1 warning"), "{table}");
}
