//! The PDF page view in a real window: a citation chip of a PDF answer shows the cited page
//! drawn by pdfium with the cited characters boxed, and those boxes are pdfium's own character
//! boxes for that span; pages turn; a click on the page selects the paragraph in the text.
//! Needs a display, tauri-driver and the built UI, like `e2e.rs`.

use docindex_app::Library;
use docindex_core::charmap::CharMap;
use docindex_core::ingest::pdf::Rect;
use docindex_core::model::Span;
use docindex_core::IndexSettings;
mod window;

use fantoccini::Locator;
use serde_json::Value;
use window::*;

const PDF: &str = "MGMRESORTS_2023Q2_10Q.pdf";
const QUESTION: &str =
    "What was casino revenue at Las Vegas Strip Resorts in the second quarter of 2023?";

fn rect_of(attr: &str) -> Result<Rect, Box<dyn std::error::Error>> {
    let v: Vec<f32> = attr
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    match v[..] {
        [left, bottom, right, top] => Ok(Rect::new(left, bottom, right, top)),
        _ => Err(format!("bad rect `{attr}`").into()),
    }
}

fn bounds(rects: &[Rect]) -> Option<Rect> {
    rects.iter().copied().reduce(|a, b| a.union(&b))
}

fn assert_same_rect(ours: Rect, theirs: Rect, what: &str) {
    for (a, b) in [
        (ours.left, theirs.left),
        (ours.right, theirs.right),
        (ours.bottom, theirs.bottom),
        (ours.top, theirs.top),
    ] {
        assert!(
            (a - b).abs() < 0.05,
            "{what}: ours {ours:?}, pdfium {theirs:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and the built UI: scripts/test.sh runs it"]
async fn a_pdf_citation_shows_its_page_with_pdfiums_boxes_for_the_cited_characters() -> TestResult {
    let work = tempfile::tempdir()?;
    let library_dir = work.path().join("library");
    let pdf = work.path().join(PDF);
    std::fs::copy(repo_root().join("tests/fixtures/pdf").join(PDF), &pdf)?;
    let pdf_bytes = std::fs::read(&pdf)?;

    let (_driver, client) = launch(&library_dir).await?;
    wait_for(&client, "[data-testid=empty-state]").await?;
    let results = index_in_window(&client, &[&pdf]).await?;
    assert_eq!(results[0]["status"], "indexed", "{results:?}");
    let doc_id = results[0]["document"]["doc_id"]
        .as_str()
        .ok_or("no doc id")?
        .to_string();
    wait_for(&client, &format!("button.doc[data-doc-id='{doc_id}']")).await?;

    // Ask; the answer's first citation is the one to follow.
    let chip = ask_in_window(&client, QUESTION).await?;
    let library = Library::open(&library_dir, IndexSettings::default())?;
    let doc = library.document(&doc_id)?;
    let map = CharMap::new(&doc.text);
    let saved = library.saved_list()?;
    let entry = saved
        .iter()
        .find(|s| s.kind == "answer")
        .ok_or("answer not saved")?;
    let cited = &library.reopen(entry.id)?.result["citations"][0];
    let span = Span::new(
        cited["start_char"].as_u64().ok_or("no start")? as usize,
        cited["end_char"].as_u64().ok_or("no end")? as usize,
    );

    // The chip opens the reader on the page (a PDF's default view) with boxes drawn.
    chip.click().await?;
    wait_until(
        &client,
        "the cited page's boxes",
        "return document.querySelectorAll('.page-view .sheet img').length && document.querySelectorAll('.page-view .box').length",
    )
    .await?;
    let shown: Value = client
        .execute(
            "const sheet = document.querySelector('.page-view .sheet');
             const img = sheet.querySelector('img').getBoundingClientRect();
             return {
               page: Number(sheet.dataset.page),
               transform: sheet.dataset.transform.split(' ').map(Number),
               natural: [sheet.querySelector('img').naturalWidth, sheet.querySelector('img').naturalHeight],
               img: [img.left, img.top, img.width, img.height],
               boxes: Array.from(sheet.querySelectorAll('.box')).map(b => {
                 const r = b.getBoundingClientRect();
                 return { pdf: b.dataset.pdfRect, screen: [r.left, r.top, r.width, r.height] };
               }),
             };",
            vec![],
        )
        .await?;
    screenshot(&client, "08-page-view-citation.png").await?;
    let page = shown["page"].as_u64().ok_or("no page")? as u32;
    let boxes = shown["boxes"].as_array().ok_or("no boxes")?;
    let rects: Vec<Rect> = boxes
        .iter()
        .map(|b| rect_of(b["pdf"].as_str().unwrap_or_default()))
        .collect::<Result<_, _>>()?;

    // The page shown is the one the citation starts on, per the page map indexing built.
    let page_info = doc
        .pages
        .iter()
        .find(|p| p.page == page)
        .ok_or("page not in the map")?;
    assert!(
        page_info.span.start_char <= span.start_char && span.start_char < page_info.span.end_char,
        "citation {span:?} is not on page {page} {:?}",
        page_info.span
    );
    // What the citation prints on this page: its characters without spaces and separators.
    let on_page = Span::new(
        span.start_char.max(page_info.span.start_char),
        span.end_char.min(page_info.span.end_char),
    );
    let expected: String = map
        .slice(on_page)
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '|')
        .collect();

    // pdfium's characters on that page, in its own order, with its own boxes.
    let raw = docindex_pdf::raw_page_chars(&pdf_bytes, page)?;
    let printed: Vec<(char, Rect)> = raw
        .into_iter()
        .filter(|(c, _)| !c.is_whitespace())
        .collect();
    // 1. The characters under the boxes are exactly the cited ones.
    let under: Vec<&(char, Rect)> = printed
        .iter()
        .filter(|(_, r)| {
            let (x, y) = ((r.left + r.right) / 2.0, (r.bottom + r.top) / 2.0);
            rects
                .iter()
                .any(|b| x >= b.left && x <= b.right && y >= b.bottom && y <= b.top)
        })
        .collect();
    let under_text: String = under.iter().map(|(c, _)| *c).collect();
    assert_eq!(under_text, expected, "characters under the boxes");
    // 2. pdfium's own text, searched for the cited characters: its boxes' union is ours.
    let stream: String = printed.iter().map(|(c, _)| *c).collect();
    let chars: Vec<char> = stream.chars().collect();
    let needle: Vec<char> = expected.chars().collect();
    let at = chars
        .windows(needle.len())
        .position(|w| w == needle.as_slice())
        .ok_or_else(|| format!("pdfium's text of page {page} has no `{expected}`"))?;
    let found: Vec<Rect> = printed[at..at + needle.len()]
        .iter()
        .map(|(_, r)| *r)
        .collect();
    let ours = bounds(&rects).ok_or("no boxes")?;
    assert_same_rect(ours, bounds(&found).ok_or("nothing found")?, "union");
    // Line by line too: each of our boxes is the union of pdfium's boxes inside it.
    for rect in &rects {
        let inside: Vec<Rect> = under
            .iter()
            .map(|(_, r)| *r)
            .filter(|r| {
                let (x, y) = ((r.left + r.right) / 2.0, (r.bottom + r.top) / 2.0);
                x >= rect.left && x <= rect.right && y >= rect.bottom && y <= rect.top
            })
            .collect();
        assert_same_rect(*rect, bounds(&inside).ok_or("an empty box")?, "one box");
    }
    // 3. On screen, each box sits where pdfium's transform puts its points on the picture.
    let t: Vec<f64> = shown["transform"]
        .as_array()
        .ok_or("no transform")?
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    let natural_w = shown["natural"][0].as_f64().ok_or("no width")?;
    let img: Vec<f64> = shown["img"]
        .as_array()
        .ok_or("no img")?
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    let zoom = img[2] / natural_w;
    for (b, rect) in boxes.iter().zip(&rects) {
        let screen: Vec<f64> = b["screen"]
            .as_array()
            .ok_or("no screen rect")?
            .iter()
            .filter_map(Value::as_f64)
            .collect();
        let x = img[0] + zoom * (t[0] + t[1] * f64::from(rect.left) + t[2] * f64::from(rect.top));
        let y = img[1] + zoom * (t[3] + t[4] * f64::from(rect.left) + t[5] * f64::from(rect.top));
        assert!(
            (screen[0] - x).abs() < 1.5 && (screen[1] - y).abs() < 1.5,
            "box {rect:?} drawn at {screen:?}, expected ({x}, {y})"
        );
    }
    log_line(&format!(
        "page {page}: {} boxes, {} characters, all pdfium's",
        rects.len(),
        expected.chars().count()
    ));

    // Pages turn, and the marked-page chip brings the citation back.
    client
        .find(Locator::Css("button[aria-label='Next page']"))
        .await?
        .click()
        .await?;
    wait_until(
        &client,
        "the next page",
        &format!(
            "return document.querySelector('.page-view .sheet')?.dataset.page === '{}'",
            page + 1
        ),
    )
    .await?;
    client
        .find(Locator::Css(&format!("button[data-marked-page='{page}']")))
        .await?
        .click()
        .await?;
    wait_until(
        &client,
        "the cited page again",
        &format!(
            "return document.querySelector('.page-view .sheet')?.dataset.page === '{page}' && document.querySelectorAll('.page-view .box').length"
        ),
    )
    .await?;

    // A click on the first cited character selects its paragraph; the text view shows it.
    client
        .execute(
            "const box = document.querySelector('.page-view .box').getBoundingClientRect();
             const img = document.querySelector('.page-view .sheet img');
             img.dispatchEvent(new MouseEvent('click', { bubbles: true,
               clientX: box.left + 2, clientY: box.top + box.height / 2 }));",
            vec![],
        )
        .await?;
    let text = &doc.text;
    let start_byte = map.byte_at(span.start_char);
    let line_start = text[..start_byte].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start_byte..]
        .find('\n')
        .map_or(text.len(), |i| start_byte + i);
    let paragraph = &text[line_start..line_end];
    let deepest = doc
        .nodes
        .iter()
        .filter(|n| n.span.start_char <= span.start_char && span.start_char < n.span.end_char)
        .max_by_key(|n| n.level)
        .ok_or("no node holds the citation")?;
    wait_until(
        &client,
        "the picked paragraph's node",
        &format!(
            "return document.querySelector('li.selected button.node')?.dataset.nodeId === '{}'",
            deepest.node_id
        ),
    )
    .await?;
    client
        .find(Locator::Css("[data-view=text]"))
        .await?
        .click()
        .await?;
    wait_until(
        &client,
        "the picked paragraph in the text",
        "return document.querySelectorAll('.viewer mark.hl').length",
    )
    .await?;
    assert_eq!(highlighted(&client).await?, without_newlines(paragraph));
    screenshot(&client, "08b-page-pick-in-text.png").await?;
    client
        .find(Locator::Css("[data-view=page]"))
        .await?
        .click()
        .await?;
    wait_for(&client, ".page-view .box").await?;
    close(client).await?;
    Ok(())
}
