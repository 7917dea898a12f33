//! End-to-end tests of the desktop app in a real WebKitGTK window, driven through
//! WebDriver (tauri-driver → WebKitWebDriver). They need a display (Xvfb), tauri-driver
//! and the built UI, so they are ignored by a plain `cargo test`; `scripts/test.sh` runs
//! them under `xvfb-run` with one test thread (WebKit allows one automation session).
//!
//! Every main screen is saved as a PNG under `e2e-artifacts/` in the repository.

use docindex_app::Library;
use docindex_core::charmap::CharMap;
use docindex_core::IndexSettings;
mod window;

use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use std::time::Instant;
use window::*;

const SAMPLE: &str = "apple_10-Q_Q3FY2023_0000320193-23-000077.html";
const SECOND_FILER: &str = "buckle_8-K_2024-11-22_EX-99.1_press_release.html";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and the built UI: scripts/test.sh runs it"]
async fn index_read_ask_provenance_export_and_reopen_in_a_real_window() -> TestResult {
    let work = tempfile::tempdir()?;
    let library_dir = work.path().join("library");
    let inbox = work.path().join("inbox");
    std::fs::create_dir_all(&inbox)?;
    let filing = copy_fixture(&inbox, SAMPLE);
    let bad = inbox.join("broken-annual-report.pdf");
    std::fs::write(&bad, b"this is not a PDF, only its name says so")?;

    let (driver, client) = launch(&library_dir).await?;

    // First run: the empty state offers the bundled sample.
    wait_for(
        &client,
        "[data-testid=empty-state] [data-testid=index-sample]",
    )
    .await?;
    screenshot(&client, "01-empty-state.png").await?;

    // Index a real filing and a bad file through the function a drop calls.
    let results = index_in_window(&client, &[&filing, &bad]).await?;
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(results[0]["status"], "indexed", "{results:?}");
    assert_eq!(results[1]["status"], "failed", "{results:?}");
    // The bad file's error is on its own row, naming the file and the reason.
    let error = wait_for(&client, "[data-testid=job-error]")
        .await?
        .text()
        .await?;
    assert!(error.contains("broken-annual-report.pdf"), "{error}");
    assert!(error.to_lowercase().contains("pdf"), "{error}");
    let doc_id = results[0]["document"]["doc_id"]
        .as_str()
        .ok_or("no doc id")?
        .to_string();
    wait_for(&client, &format!("button.doc[data-doc-id='{doc_id}']")).await?;
    screenshot(&client, "02-library-with-error.png").await?;

    // The library as stored, read from outside the app.
    let library = Library::open(&library_dir, IndexSettings::default())?;
    let doc = library.document(&doc_id)?;
    let map = CharMap::new(&doc.text);
    // A short section: it is wholly on screen once scrolled to.
    let node = doc
        .nodes
        .iter()
        .filter(|n| n.children.is_empty() && n.token_count > 30 && n.token_count < 250)
        .find(|n| n.title.to_lowercase().contains("net sales"))
        .or_else(|| {
            doc.nodes
                .iter()
                .find(|n| n.children.is_empty() && n.token_count > 30 && n.token_count < 250)
        })
        .ok_or("no short section in the sample")?;

    // Read: open the document, click the node, the highlight is exactly its span.
    client
        .find(Locator::Css(&format!("button.doc[data-doc-id='{doc_id}']")))
        .await?
        .click()
        .await?;
    let node_button = wait_for(
        &client,
        &format!("button.node[data-node-id='{}']", node.node_id),
    )
    .await?;
    node_button.click().await?;
    wait_for(&client, "[data-testid=node-card]").await?;
    let shown = wait_until(
        &client,
        "the node's highlight",
        "return document.querySelectorAll('.viewer mark.hl').length",
    )
    .await?;
    assert!(shown.as_u64().unwrap_or(0) > 0);
    assert_eq!(
        highlighted(&client).await?,
        without_newlines(map.slice(node.span)),
        "the highlight is node {}'s span",
        node.node_id
    );
    // Only rows near the view are in the DOM: the viewer is virtualised.
    let rendered = client
        .execute(
            "return document.querySelectorAll('.viewer .row').length",
            vec![],
        )
        .await?;
    let rows = client
        .execute(
            "return Number(document.querySelector('.viewer').dataset.rows)",
            vec![],
        )
        .await?;
    assert!(
        rendered.as_u64() < Some(200) && rows.as_u64() > Some(1000),
        "{rendered} of {rows}"
    );
    screenshot(&client, "03-reader.png").await?;

    // A resolved cross-reference jumps to its target: the target is selected and its span
    // highlighted (its first rows, when it is longer than the view).
    let xref = doc
        .cross_refs
        .iter()
        .filter_map(|r| Some((r, doc.node(r.target_node_id.as_deref()?)?)))
        .min_by_key(|(_, target)| target.token_count)
        .ok_or("no resolved cross-reference in the sample")?;
    let (reference, target) = xref;
    client
        .find(Locator::Css(&format!(
            "button.node[data-node-id='{}']",
            reference.source_node_id
        )))
        .await?
        .click()
        .await?;
    wait_for(&client, &format!("[data-xref-target='{}']", target.node_id))
        .await?
        .click()
        .await?;
    wait_until(
        &client,
        "the cross-reference's target",
        &format!(
            "return document.querySelector('li.selected button.node')?.dataset.nodeId === '{}'",
            target.node_id
        ),
    )
    .await?;
    let shown = highlighted(&client).await?;
    assert!(
        !shown.is_empty() && without_newlines(map.slice(target.span)).starts_with(&shown),
        "{shown}"
    );

    // Ask offline; the answer streams in, then its first citation jumps to its span.
    let question = "What were iPhone net sales in the third quarter of fiscal 2023?";
    let chip = ask_in_window(&client, question).await?;
    let answer_text = client
        .find(Locator::Css("[data-testid=answer]"))
        .await?
        .text()
        .await?;
    assert!(answer_text.contains("39,669"), "{answer_text}");
    screenshot(&client, "04-ask.png").await?;
    let saved = library.saved_list()?;
    let answer_entry = saved
        .iter()
        .find(|s| s.kind == "answer")
        .ok_or("answer not saved")?;
    let reopened = library.reopen(answer_entry.id)?;
    let first = &reopened.result["citations"][0];
    let excerpt = first["excerpt"].as_str().ok_or("no excerpt")?.to_string();
    chip.click().await?;
    wait_until(&client, "the citation's highlight", "return document.querySelector('[data-tab=read]').getAttribute('aria-selected') !== 'true' ? false : document.querySelectorAll('.viewer mark.hl').length").await?;
    assert_eq!(highlighted(&client).await?, without_newlines(&excerpt));
    screenshot(&client, "05-citation.png").await?;

    // Provenance: hits stream in, coverage is stated, and the CSV rows match the spans.
    open_tab(&client, "provenance").await?;
    let topics = wait_for(&client, "textarea[aria-label=Topics]").await?;
    topics.send_keys("iPhone net sales").await?;
    client
        .find(Locator::Css(".query button[type=submit]"))
        .await?
        .click()
        .await?;
    let coverage = wait_until(
        &client,
        "the scan's coverage",
        "const c = document.querySelector('[data-testid=coverage]'); return c && /scanned \\d+ of \\d+ sections/.test(c.textContent) ? c.textContent : false",
    )
    .await?;
    let coverage = coverage.as_str().unwrap_or_default().to_string();
    let numbers: Vec<usize> = coverage
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    assert!(
        numbers.len() >= 2 && numbers[0] == numbers[1] && numbers[0] == doc.nodes.len(),
        "{coverage}"
    );
    wait_for(&client, "[data-testid=hit]").await?;
    screenshot(&client, "06-provenance.png").await?;
    let csv_path = work.path().join("report.csv");
    let exported = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             window.docindex.exportReport(window.docindex.latestReportId(), arguments[0]).then(done, e => done({ error: String(e.message || e) }));",
            vec![json!(csv_path.display().to_string())],
        )
        .await?;
    assert!(exported.as_u64().unwrap_or(0) > 0, "{exported}");
    let mut reader = csv::Reader::from_path(&csv_path)?;
    let headers = reader.headers()?.clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or(format!("no column {name}"))
    };
    let (start, end, text) = (col("start_char")?, col("end_char")?, col("excerpt")?);
    let mut rows_checked = 0;
    for row in reader.records() {
        let row = row?;
        let span = docindex_core::model::Span::new(row[start].parse()?, row[end].parse()?);
        assert_eq!(map.slice(span), &row[text], "CSV row {rows_checked}");
        rows_checked += 1;
    }
    assert_eq!(rows_checked as u64, exported.as_u64().unwrap_or(0));
    wait_for(&client, "[data-testid=export-notice]").await?;

    open_tab(&client, "settings").await?;
    wait_for(&client, "form.settings").await?;
    screenshot(&client, "07-settings.png").await?;

    // A question across companies: with a second filer in the library, the answer's table
    // has a cited cell per company, and a cell's chip opens its statement row.
    let second = copy_fixture(&inbox, SECOND_FILER);
    let indexed = index_in_window(&client, &[&second]).await?;
    assert_eq!(indexed[0]["status"], "indexed", "{indexed:?}");
    open_tab(&client, "ask").await?;
    client
        .find(Locator::Css(".composer-actions input[type=checkbox]"))
        .await?
        .click()
        .await?;
    wait_for(&client, "textarea[aria-label=Question]")
        .await?
        .send_keys("Which had higher net sales, Apple or Buckle?")
        .await?;
    client
        .find(Locator::Css(".composer button[type=submit]"))
        .await?
        .click()
        .await?;
    let table = wait_for(&client, "[data-testid=comparison]").await?;
    let table_text = table.text().await?;
    assert!(
        table_text.contains("81,797") && table_text.contains("293,618"),
        "{table_text}"
    );
    client
        .execute(
            "document.querySelector('[data-testid=comparison]').scrollIntoView({block: 'center'})",
            vec![],
        )
        .await?;
    screenshot(&client, "07b-comparison.png").await?;
    let cell_chip = table
        .find(Locator::Css(
            "tbody tr:last-child button[data-citation]:last-of-type",
        ))
        .await?;
    let marker: u64 = cell_chip
        .attr("data-citation")
        .await?
        .ok_or("no marker")?
        .parse()?;
    let compared = library
        .saved_list()?
        .into_iter()
        .filter(|s| s.kind == "answer")
        .max_by_key(|s| s.id)
        .ok_or("comparison not saved")?;
    let compared = library.reopen(compared.id)?;
    let cited = compared.result["citations"]
        .as_array()
        .and_then(|all| all.iter().find(|c| c["marker"].as_u64() == Some(marker)))
        .ok_or("the chip's citation")?;
    assert!(cited["doc_name"] == SECOND_FILER, "{cited}");
    let cell_excerpt = cited["excerpt"].as_str().ok_or("no excerpt")?.to_string();
    assert!(cell_excerpt.contains("293,618"), "{cell_excerpt}");
    cell_chip.click().await?;
    wait_until(&client, "the cell's highlight", "return document.querySelector('[data-tab=read]').getAttribute('aria-selected') !== 'true' ? false : document.querySelectorAll('.viewer mark.hl').length").await?;
    assert_eq!(highlighted(&client).await?, without_newlines(&cell_excerpt));
    // The statement shows as a grid: the highlighted cell sits in a table row whose figures
    // are right-aligned, under a marked header row.
    let grid = client
        .execute(
            "const m = document.querySelector('.viewer mark.hl');
             const row = m && m.closest('.row.grid');
             const figure = row && row.querySelector('.cell.figure');
             return { row: !!row, columns: row ? row.querySelectorAll('.cell').length : 0,
                      align: figure ? getComputedStyle(figure).textAlign : null,
                      heads: document.querySelectorAll('.viewer .row.grid.head').length };",
            vec![],
        )
        .await?;
    assert_eq!(grid["row"], json!(true), "{grid}");
    assert!(grid["columns"].as_u64().unwrap_or(0) >= 2, "{grid}");
    assert_eq!(grid["align"], json!("right"), "{grid}");
    assert!(grid["heads"].as_u64().unwrap_or(0) >= 1, "{grid}");
    screenshot(&client, "07c-comparison-cell.png").await?;
    close(client).await?;
    drop(driver);

    // After a restart the saved answer reopens and its citation still highlights its span.
    let (driver, client) = launch(&library_dir).await?;
    wait_for(&client, &format!("button.doc[data-doc-id='{doc_id}']")).await?;
    open_tab(&client, "saved").await?;
    wait_for(&client, &format!("[data-saved-id='{}']", answer_entry.id))
        .await?
        .click()
        .await?;
    let chip = wait_for(&client, "[data-testid=answer] button[data-citation]").await?;
    chip.click().await?;
    wait_until(
        &client,
        "the reopened citation's highlight",
        "return document.querySelectorAll('.viewer mark.hl').length",
    )
    .await?;
    assert_eq!(highlighted(&client).await?, without_newlines(&excerpt));
    screenshot(&client, "08-reopened-after-restart.png").await?;
    close(client).await?;
    drop(driver);
    Ok(())
}

/// The reader on a 1 M-character filing: only the rows in view are in the page, a node at
/// the end is reached and highlighted. Prints how long opening and jumping took (figures,
/// not limits: speed belongs in benchmarks, and this is the only real webview we have).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and the built UI: scripts/test.sh runs it"]
async fn a_million_character_filing_stays_virtualised_in_the_reader() -> TestResult {
    let work = tempfile::tempdir()?;
    let library_dir = work.path().join("library");
    let prospectus = copy_fixture(work.path(), "camp4_424B4_IPO_prospectus_2024.htm");
    let mut library = Library::open(&library_dir, IndexSettings::default())?;
    let reports = library.index_paths(&[prospectus], 1, &|_| {})?;
    let doc_id = match &reports[0].result {
        Ok(docindex_app::IndexOutcome::Indexed { document, .. }) => document.doc_id.clone(),
        other => return Err(format!("not indexed: {other:?}").into()),
    };
    let doc = library.document(&doc_id)?;
    assert!(doc.text.chars().count() > 1_000_000);
    let map = CharMap::new(&doc.text);
    let last_leaf = doc
        .nodes
        .iter()
        .rev()
        .find(|n| n.children.is_empty() && n.token_count > 20 && n.token_count < 250)
        .ok_or("no short section near the end")?;

    let (driver, client) = launch(&library_dir).await?;
    wait_for(&client, &format!("button.doc[data-doc-id='{doc_id}']")).await?;
    let open = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const started = performance.now();
             document.querySelector(`button.doc[data-doc-id='${arguments[0]}']`).click();
             const check = () => {
               const v = document.querySelector('.viewer');
               if (v && Number(v.dataset.rows) > 0 && v.querySelector('.row')) {
                 done({ ms: performance.now() - started, rows: Number(v.dataset.rows) });
               } else requestAnimationFrame(check);
             };
             requestAnimationFrame(check);",
            vec![json!(doc_id)],
        )
        .await
        .map_err(|e| format!("waiting for the document to open: {e}"))?;
    let node_button = wait_for(
        &client,
        &format!("button.node[data-node-id='{}']", last_leaf.node_id),
    )
    .await?;
    let jump = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const started = performance.now();
             arguments[0].click();
             const check = () => {
               if (document.querySelector('.viewer mark.hl')) done({ ms: performance.now() - started });
               else requestAnimationFrame(check);
             };
             requestAnimationFrame(check);",
            vec![serde_json::to_value(&node_button)?],
        )
        .await?;
    assert_eq!(
        highlighted(&client).await?,
        without_newlines(map.slice(last_leaf.span))
    );
    let rendered = client
        .execute(
            "return document.querySelectorAll('.viewer .row').length",
            vec![],
        )
        .await?;
    let rows = open["rows"].as_u64().unwrap_or(0);
    assert!(rows > 10_000, "{open}");
    assert!(
        rendered.as_u64().unwrap_or(u64::MAX) < 200,
        "{rendered} rows in the page"
    );
    screenshot(&client, "09-million-character-filing.png").await?;
    println!(
        "reader on {} chars ({rows} rows): opened in {:.0} ms, jumped to node {} at the end in {:.0} ms, {} rows in the page",
        map.text().chars().count(),
        open["ms"].as_f64().unwrap_or(f64::NAN),
        last_leaf.node_id,
        jump["ms"].as_f64().unwrap_or(f64::NAN),
        rendered
    );
    close(client).await?;
    drop(driver);
    Ok(())
}

/// Run `script` (which ends by calling `done`) with the arguments and wait for its value.
async fn run_async(
    client: &Client,
    what: &str,
    script: &str,
    args: Vec<Value>,
) -> Result<Value, Box<dyn std::error::Error>> {
    Ok(client
        .execute_async(script, args)
        .await
        .map_err(|e| format!("{what}: {e}"))?)
}

/// Change a filter of the library pane and time it until the count shows `expect`.
const FILTER_AND_TIME: &str = "const [css, value, expect, done] = arguments;
    const field = document.querySelector(css);
    const count = () => document.querySelector('[data-testid=doc-count]').textContent.trim();
    const started = performance.now();
    field.value = value;
    field.dispatchEvent(new Event(field.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
    const check = () => {
      if (count().startsWith(expect + ' of')) done({ ms: performance.now() - started, count: count() });
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);";

/// A library of 1,000 filings in the real window: the list keeps a screenful of rows in the
/// page, every filter answers, the end of the list is reached, and a document opens. Prints
/// the times (figures, not limits) and keeps them in `e2e-artifacts/library-1000.json`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and the built UI: scripts/test.sh runs it"]
async fn a_library_of_1000_filings_stays_smooth_in_the_window() -> TestResult {
    const COPIES: usize = 250;
    let fixtures = [
        "oracle_8-K_2024-11-14_item5.07.html",
        "buckle_8-K_2024-11-22.html",
        SECOND_FILER,
        "acme_q3_2024_earnings_call.txt",
    ];
    let work = tempfile::tempdir()?;
    let library_dir = work.path().join("library");
    let files = work.path().join("filings");
    std::fs::create_dir_all(&files)?;
    let mut paths = Vec::new();
    for name in fixtures {
        let bytes = std::fs::read(repo_root().join("tests/fixtures").join(name))?;
        let (stem, ext) = name
            .rsplit_once('.')
            .ok_or("a fixture without an extension")?;
        for copy in 0..COPIES {
            // Unique bytes make each copy its own document (the id is their SHA-256).
            let path = files.join(format!("{stem}-{copy:04}.{ext}"));
            let mut unique = bytes.clone();
            unique.extend_from_slice(format!("\n<!-- copy {copy} -->\n").as_bytes());
            std::fs::write(&path, unique)?;
            paths.push(path);
        }
    }
    let started = Instant::now();
    let mut library = Library::open(&library_dir, IndexSettings::default())?;
    let reports = library.index_paths(&paths, 2, &|_| {})?;
    assert!(reports.iter().all(|r| r.result.is_ok()));
    let documents = library.list()?;
    assert_eq!(documents.len(), 1_000);
    log_line(&format!(
        "indexed 1,000 filings in {:.1} s",
        started.elapsed().as_secs_f64()
    ));
    drop(library);

    let (driver, client) = launch(&library_dir).await?;
    let launched = Instant::now();
    let listed = wait_until(
        &client,
        "the whole library listed",
        "const c = document.querySelector('[data-testid=doc-count]');
         return c && c.textContent.trim() === '1000 of 1000 documents';",
    )
    .await;
    if let Err(e) = listed {
        screenshot(&client, "10-library-of-1000-not-listed.png").await?;
        let page = client
            .execute("return document.body.innerText", vec![])
            .await?;
        return Err(format!("{e}; the window shows: {page}").into());
    }
    let listed_ms = launched.elapsed().as_secs_f64() * 1000.0;
    let rendered = |client: &Client| {
        let client = client.clone();
        async move {
            let value = client
                .execute(
                    "return document.querySelectorAll('.docs li').length",
                    vec![],
                )
                .await?;
            Ok::<u64, Box<dyn std::error::Error>>(value.as_u64().unwrap_or(u64::MAX))
        }
    };
    let in_page = rendered(&client).await?;
    assert!(in_page > 0 && in_page < 60, "{in_page} rows in the page");

    // The name filter, then a company on top of it, then neither.
    let by_name = run_async(
        &client,
        "filtering by name",
        FILTER_AND_TIME,
        vec![
            json!("input[aria-label='Filter by name']"),
            json!("oracle"),
            json!("250"),
        ],
    )
    .await?;
    let names = client
        .execute(
            "return Array.from(document.querySelectorAll('.docs li .name')).map(n => n.textContent)",
            vec![],
        )
        .await?;
    let names: Vec<String> = serde_json::from_value(names)?;
    assert!(
        !names.is_empty() && names.iter().all(|n| n.starts_with("oracle_")),
        "{names:?}"
    );
    run_async(
        &client,
        "clearing the name filter",
        FILTER_AND_TIME,
        vec![
            json!("input[aria-label='Filter by name']"),
            json!(""),
            json!("1000"),
        ],
    )
    .await?;
    let buckle = documents
        .iter()
        .find(|d| d.doc_name.starts_with("buckle_8-K_2024-11-22-"))
        .and_then(|d| d.company_name.clone())
        .ok_or("the Buckle 8-K names no company")?;
    // "BUCKLE, INC" (the 8-K) and "THE BUCKLE, INC." (its exhibit) are one company.
    let of_buckle = documents
        .iter()
        .filter(|d| {
            d.company_name
                .as_deref()
                .is_some_and(|n| n.to_lowercase().contains("buckle"))
        })
        .count();
    assert_eq!(of_buckle, 2 * COPIES);
    let by_company = run_async(
        &client,
        "filtering by company",
        FILTER_AND_TIME,
        vec![
            json!("select[aria-label='Company']"),
            json!(buckle),
            json!(of_buckle.to_string()),
        ],
    )
    .await?;
    run_async(
        &client,
        "clearing the company filter",
        FILTER_AND_TIME,
        vec![
            json!("select[aria-label='Company']"),
            json!(""),
            json!("1000"),
        ],
    )
    .await?;

    // The end of the list is reached by scrolling, and still only a screenful is there.
    let last = &documents[documents.len() - 1];
    let scrolled = run_async(
        &client,
        "scrolling to the end",
        "const [id, done] = arguments;
         const list = document.querySelector('[data-testid=doc-list]');
         const started = performance.now();
         list.scrollTop = list.scrollHeight;
         list.dispatchEvent(new Event('scroll'));
         const check = () => {
           if (document.querySelector(`button.doc[data-doc-id='${id}']`)) done({ ms: performance.now() - started });
           else requestAnimationFrame(check);
         };
         requestAnimationFrame(check);",
        vec![json!(last.doc_id)],
    )
    .await?;
    assert!(rendered(&client).await? < 60);
    screenshot(&client, "10-library-of-1000.png").await?;

    // Opening a document: its tree and text.
    let open = run_async(
        &client,
        "opening a document",
        "const [id, done] = arguments;
         const started = performance.now();
         document.querySelector(`button.doc[data-doc-id='${id}']`).click();
         const check = () => {
           const v = document.querySelector('.viewer');
           if (v && v.querySelector('.row') && document.querySelector('button.node')) {
             done({ ms: performance.now() - started });
           } else requestAnimationFrame(check);
         };
         requestAnimationFrame(check);",
        vec![json!(last.doc_id)],
    )
    .await?;
    let ms = |v: &Value| v["ms"].as_f64().unwrap_or(f64::NAN);
    let figures = json!({
        "documents": 1000,
        "listed_after_launch_ms": listed_ms,
        "rows_in_page": in_page,
        "filter_by_name_ms": ms(&by_name),
        "filter_by_company_ms": ms(&by_company),
        "scroll_to_end_ms": ms(&scrolled),
        "open_document_ms": ms(&open),
    });
    std::fs::write(
        artifacts().join("library-1000.json"),
        serde_json::to_string_pretty(&figures)?,
    )?;
    println!("library of 1,000 filings in the window: {figures}");
    close(client).await?;
    drop(driver);
    Ok(())
}
