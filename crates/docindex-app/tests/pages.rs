//! The page view's sources on real PDF filings: the library keeps a checked copy of each PDF,
//! pages draw with a transform that fits the page, and the boxes recomputed for a span cover
//! exactly the characters pdfium prints for it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_app::pages::{PageCache, SOURCES_DIR};
use docindex_app::{IndexOutcome, Library};
use docindex_core::ingest::pdf::Rect;
use docindex_core::IndexSettings;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

fn index(library: &mut Library, path: &Path) -> String {
    let reports = library
        .index_paths(&[path.to_path_buf()], 1, &|_| {})
        .unwrap();
    match reports[0].result.as_ref().unwrap() {
        IndexOutcome::Indexed { document, .. } | IndexOutcome::Unchanged { document } => {
            document.doc_id.clone()
        }
    }
}

fn inside(rect: &Rect, x: f32, y: f32) -> bool {
    const SLACK: f32 = 0.5;
    x >= rect.left - SLACK
        && x <= rect.right + SLACK
        && y >= rect.bottom - SLACK
        && y <= rect.top + SLACK
}

fn bounds(rects: impl IntoIterator<Item = Rect>) -> Option<Rect> {
    rects.into_iter().reduce(|a, b| a.union(&b))
}

#[test]
fn the_boxes_of_a_span_cover_exactly_the_characters_pdfium_prints_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let pdf = fixture("pdf/MGMRESORTS_2023Q2_10Q.pdf");
    let id = index(&mut library, &pdf);
    let source = library.pdf_source(&id).unwrap();
    let doc = library.document(&id).unwrap();
    let boxes = source.char_boxes(&doc.text).unwrap();
    let printed = doc.text.chars().filter(|c| !c.is_whitespace()).count();
    // Every printed character but the cell separators has a box.
    let separators = doc.text.matches(" | ").count();
    assert!(
        boxes.len() + separators >= printed * 99 / 100,
        "{} of {printed}",
        boxes.len()
    );

    // Each node's boxes start and end on the pages indexing gave it.
    let mut checked = 0;
    for node in doc.nodes.iter().filter(|n| n.start_page.is_some()) {
        let pages = boxes.span(node.span.start_char, node.span.end_char);
        let (Some(first), Some(last)) = (pages.first(), pages.last()) else {
            continue;
        };
        assert_eq!(Some(first.page), node.start_page, "{}", node.title);
        assert_eq!(Some(last.page), node.end_page, "{}", node.title);
        checked += 1;
    }
    assert!(checked > 20, "{checked} nodes checked");

    // Prose and a statement row: pdfium's own characters under the boxes are the span's.
    let chars: Vec<char> = doc.text.chars().collect();
    for needle in [
        "The Company has three reportable segments",
        "Cash and cash equivalents | $3,843,366",
        "Casino | 1,025,745",
    ] {
        let byte = doc.text.find(needle).unwrap_or_else(|| panic!("{needle}"));
        let start = doc.text[..byte].chars().count();
        // The whole line the needle starts.
        let end = chars[start..]
            .iter()
            .position(|&c| c == '\n')
            .map_or(chars.len(), |n| start + n)
            .min(start + 400);
        let span_text: String = chars[start..end]
            .iter()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .replace('|', "");
        let marked = boxes.span(start, end);
        assert!(!marked.is_empty(), "{needle}");
        let mut under = String::new();
        let mut under_boxes = Vec::new();
        for page in &marked {
            let raw =
                docindex_pdf::raw_page_chars(&std::fs::read(&pdf).unwrap(), page.page).unwrap();
            for (c, rect) in raw {
                let (x, y) = (
                    (rect.left + rect.right) / 2.0,
                    (rect.bottom + rect.top) / 2.0,
                );
                if !c.is_whitespace() && page.rects.iter().any(|r| inside(r, x, y)) {
                    under.push(c);
                    under_boxes.push(rect);
                }
            }
        }
        assert_eq!(under, span_text, "{needle}");
        let ours = bounds(marked.iter().flat_map(|p| p.rects.clone())).unwrap();
        let theirs = bounds(under_boxes).unwrap();
        for (a, b) in [
            (ours.left, theirs.left),
            (ours.right, theirs.right),
            (ours.bottom, theirs.bottom),
            (ours.top, theirs.top),
        ] {
            assert!((a - b).abs() < 0.01, "{needle}: {ours:?} vs {theirs:?}");
        }
    }

    // A click on a marked word finds that character in the text.
    let byte = doc.text.find("Las Vegas Strip Resorts").unwrap();
    let byte = byte + doc.text[byte..].find("Las Vegas").unwrap();
    let start = doc.text[..byte].chars().count();
    let marked = boxes.span(start, start + 3);
    let r = marked[0].rects[0];
    let hit = boxes
        .char_at(marked[0].page, r.left + 0.5, (r.bottom + r.top) / 2.0)
        .unwrap();
    assert_eq!(hit, start);

    // Text other than what was indexed is refused, naming where it differs.
    let mut other = doc.text.clone();
    other.insert(byte, 'X');
    let err = source.char_boxes(&other).unwrap_err().to_string();
    assert!(err.contains("index the file again"), "{err}");
}

#[test]
fn pages_draw_at_the_asked_width_with_a_transform_that_fits_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let id = index(
        &mut library,
        &fixture("pdf/AMCOR_2022_8K_dated-2022-07-01.pdf"),
    );
    let source = library.pdf_source(&id).unwrap();
    let page = source.render(1, 1000).unwrap();
    assert_eq!(page.width_px, 1000);
    assert!(page.page_count >= 2);
    let decoder = png::Decoder::new(std::io::Cursor::new(&page.png));
    let reader = decoder.read_info().unwrap();
    assert_eq!(reader.info().width, page.width_px);
    assert_eq!(reader.info().height, page.height_px);
    // A US letter page: 612 points across the picture, y downwards from the top.
    let [a, b, c, d, e, f] = page.transform;
    assert!(a.abs() < 1.0 && c.abs() < 1e-3 && e.abs() < 1e-3);
    assert!((b * 612.0 - 1000.0).abs() < 2.0, "{:?}", page.transform);
    assert!((d - f64::from(page.height_px)).abs() < 2.0 && f < 0.0);

    // The cache draws a page once per width step.
    let cache = PageCache::new();
    let first = cache.page(&source, 2, 900).unwrap();
    let again = cache.page(&source, 2, 910).unwrap();
    assert!(std::sync::Arc::ptr_eq(&first, &again));

    let err = source.render(99, 800).unwrap_err().to_string();
    assert!(err.contains("no page 99") && err.contains("pages"), "{err}");
}

#[test]
fn the_library_keeps_a_checked_copy_of_each_pdf_and_says_when_it_cannot_show_pages() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let pdf = fixture("pdf/AMCOR_2022_8K_dated-2022-07-01.pdf");
    let id = index(&mut library, &pdf);
    let copy = dir.path().join(SOURCES_DIR).join(format!("{id}.pdf"));
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&pdf).unwrap());
    assert!(library.pdf_source(&id).is_ok());

    // A changed copy is refused with the reason and what to do.
    std::fs::write(&copy, b"%PDF-1.4 not the filing").unwrap();
    let err = library.pdf_source(&id).unwrap_err();
    assert!(
        err.to_string().contains("has changed since it was indexed"),
        "{err}"
    );
    assert!(err.to_string().contains("index the PDF again"), "{err}");

    // A missing copy too; indexing the same file again (unchanged) brings it back.
    std::fs::remove_file(&copy).unwrap();
    let err = library.pdf_source(&id).unwrap_err().to_string();
    assert!(err.contains("keeps no copy") && err.contains(&id), "{err}");
    index(&mut library, &pdf);
    assert!(library.pdf_source(&id).is_ok());

    // Not a PDF: no pages.
    let html = index(&mut library, &fixture("buckle_8-K_2024-11-22.html"));
    let err = library.pdf_source(&html).unwrap_err().to_string();
    assert!(err.contains("not a PDF"), "{err}");

    // Removing the document removes its copy; the library's other files stay.
    assert!(library.remove(&id).unwrap());
    assert!(!copy.exists());
    assert_eq!(library.list().unwrap().len(), 1);
}

#[test]
fn a_library_folder_that_refuses_the_copy_fails_the_file_and_keeps_what_was_stored() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    index(&mut library, &fixture("buckle_8-K_2024-11-22.html"));
    // A file where the copies' folder should be: the copy cannot be written.
    std::fs::write(dir.path().join(SOURCES_DIR), b"in the way").unwrap();
    let pdf = fixture("pdf/AMCOR_2022_8K_dated-2022-07-01.pdf");
    let reports = library.index_paths(&[pdf], 1, &|_| {}).unwrap();
    let err = reports[0].result.as_ref().unwrap_err().to_string();
    assert!(err.contains("cannot keep a copy of the PDF"), "{err}");
    let listed = library.list().unwrap();
    assert_eq!(listed.len(), 1);
    assert!(listed[0].doc_name.contains("buckle"));
}
