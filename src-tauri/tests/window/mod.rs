//! What the real-window tests share: tauri-driver started for an app and a library, a
//! WebDriver session on it, waiting, screenshots to `e2e-artifacts/`, fixtures.
#![allow(dead_code)]

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub type TestResult = Result<(), Box<dyn std::error::Error>>;

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

pub fn artifacts() -> PathBuf {
    let dir = repo_root().join("e2e-artifacts");
    std::fs::create_dir_all(&dir).ok();
    dir
}

/// tauri-driver on loopback, killed when dropped.
pub struct Driver {
    child: Child,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // tauri-driver leads its own process group; WebKitWebDriver and the app go with it.
        let _ = Command::new("kill")
            .arg("--")
            .arg(format!("-{}", self.child.id()))
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn tauri_driver() -> PathBuf {
    if let Some(p) = std::env::var_os("TAURI_DRIVER") {
        return PathBuf::from(p);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    let installed = home.join(".cargo/bin/tauri-driver");
    if installed.exists() {
        installed
    } else {
        PathBuf::from("tauri-driver")
    }
}

/// Start tauri-driver for an app whose library is `library`, and open a session.
pub async fn launch(library: &Path) -> Result<(Driver, Client), Box<dyn std::error::Error>> {
    launch_app(Path::new(env!("CARGO_BIN_EXE_docindex-desktop")), library).await
}

/// Start tauri-driver for the app at `app` (a build or an installed binary) whose library
/// is `library`, and open a session.
pub async fn launch_app(
    app: &Path,
    library: &Path,
) -> Result<(Driver, Client), Box<dyn std::error::Error>> {
    // The web view keeps its local storage (the reader's remembered text/page view) under
    // the data folder: one per library, so no test starts from what another left.
    let web_data = PathBuf::from(format!("{}.webview", library.display()));
    let child = Command::new(tauri_driver())
        .process_group(0)
        .env("DOCINDEX_LIBRARY", library)
        .env("XDG_DATA_HOME", &web_data)
        .env("DOCINDEX_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| {
            format!(
                "cannot start tauri-driver ({}): {e}",
                tauri_driver().display()
            )
        })?;
    let driver = Driver { child };
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("wry"));
    caps.insert(
        "tauri:options".into(),
        json!({ "application": app.display().to_string() }),
    );
    let started = Instant::now();
    loop {
        // A WebKit that never answers must fail the test, not hold it.
        let attempt = tokio::time::timeout(
            Duration::from_secs(60),
            ClientBuilder::native()
                .capabilities(caps.clone())
                .connect("http://127.0.0.1:4444"),
        )
        .await
        .map_err(|_| "no WebDriver session within 60 s")?;
        match attempt {
            Ok(client) => {
                client.set_window_size(1440, 900).await.ok();
                return Ok((driver, client));
            }
            Err(e) if started.elapsed() < Duration::from_secs(30) => {
                log_line(&format!("waiting for tauri-driver: {e}"));
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Err(e) => return Err(format!("no WebDriver session: {e}").into()),
        }
    }
}

/// End a WebDriver session. A WebKit web process that does not exit ("WebProcess didn't
/// exit as expected") can keep WebKitWebDriver from answering; the test goes on, and the
/// driver's process group is ended when it is dropped.
pub async fn close(client: Client) -> TestResult {
    match tokio::time::timeout(Duration::from_secs(30), client.close()).await {
        Ok(closed) => Ok(closed?),
        Err(_) => {
            log_line("the session did not close within 30 s; its driver is ended");
            Ok(())
        }
    }
}

pub fn log_line(text: &str) {
    eprintln!("[e2e] {text}");
}

pub async fn screenshot(client: &Client, name: &str) -> TestResult {
    let png = client.screenshot().await?;
    std::fs::write(artifacts().join(name), png)?;
    Ok(())
}

pub async fn wait_for(client: &Client, css: &str) -> Result<Element, Box<dyn std::error::Error>> {
    Ok(client
        .wait()
        .at_most(Duration::from_secs(120))
        .for_element(Locator::Css(css))
        .await
        .map_err(|e| format!("waiting for `{css}`: {e}"))?)
}

pub async fn open_tab(client: &Client, tab: &str) -> TestResult {
    client
        .find(Locator::Css(&format!("[data-tab={tab}]")))
        .await?
        .click()
        .await?;
    Ok(())
}

/// Run a script until it returns something truthy.
pub async fn wait_until(
    client: &Client,
    what: &str,
    script: &str,
) -> Result<Value, Box<dyn std::error::Error>> {
    let started = Instant::now();
    loop {
        let value = client.execute(script, vec![]).await?;
        let truthy =
            !(value.is_null() || value == json!(false) || value == json!("") || value == json!(0));
        if truthy {
            return Ok(value);
        }
        if started.elapsed() > Duration::from_secs(180) {
            // What the window showed is the first thing a failed run's reader needs.
            let name = format!(
                "timeout-{}.png",
                what.replace(|c: char| !c.is_alphanumeric(), "-")
            );
            screenshot(client, &name).await.ok();
            return Err(
                format!("timed out waiting for {what} (screen in e2e-artifacts/{name})").into(),
            );
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// The highlighted text in the viewer, newlines dropped (rows never contain them).
pub async fn highlighted(client: &Client) -> Result<String, Box<dyn std::error::Error>> {
    let value = client
        .execute(
            "return Array.from(document.querySelectorAll('.viewer mark.hl')).map(m => m.textContent).join('')",
            vec![],
        )
        .await?;
    Ok(value.as_str().unwrap_or_default().to_string())
}

/// Index files through the function a drop calls; one result per file, as the UI gets them.
pub async fn index_in_window(
    client: &Client,
    paths: &[&Path],
) -> Result<Vec<Value>, Box<dyn std::error::Error>> {
    let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let results = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             window.docindex.indexPaths(arguments[0]).then(done, e => done({ error: String(e) }));",
            vec![json!(paths)],
        )
        .await?;
    Ok(results.as_array().cloned().unwrap_or_default())
}

/// Ask a question on the Ask tab; returns the answer's first citation chip once it shows.
pub async fn ask_in_window(
    client: &Client,
    question: &str,
) -> Result<Element, Box<dyn std::error::Error>> {
    open_tab(client, "ask").await?;
    wait_for(client, "textarea[aria-label=Question]")
        .await?
        .send_keys(question)
        .await?;
    client
        .find(Locator::Css(".composer button[type=submit]"))
        .await?
        .click()
        .await?;
    wait_for(client, "[data-testid=answer] button[data-citation]").await
}

pub fn without_newlines(text: &str) -> String {
    text.replace('\n', "")
}

pub fn copy_fixture(dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    std::fs::copy(repo_root().join("tests/fixtures").join(name), &to)
        .unwrap_or_else(|e| panic!("fixture {name}: {e}"));
    to
}
