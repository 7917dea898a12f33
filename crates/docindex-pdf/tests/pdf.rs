//! PDF filings through pdfium end to end: item skeletons, page ranges checked against
//! pdfium's own page text, links, outline, images, and every kind of bad PDF.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_core::model::{DocumentIndex, NodeOrigin, SourceFormat};
use docindex_core::pipeline::index_document_with;
use docindex_core::progress::NoProgress;
use docindex_core::{IndexSettings, IngestError};
use docindex_pdf::{raw_page_texts, PdfiumReader};
use std::path::PathBuf;

fn fixture(name: &str) -> (String, Vec<u8>) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/pdf")
        .join(name);
    (name.to_string(), std::fs::read(&path).unwrap())
}

fn index(name: &str, bytes: &[u8], settings: &IndexSettings) -> Result<DocumentIndex, IngestError> {
    let tools = docindex_core::IndexTools {
        pdf_reader: Some(&PdfiumReader),
        ..Default::default()
    };
    index_document_with(name, bytes, settings, &mut NoProgress, tools)
}

fn index_fixture(name: &str) -> (DocumentIndex, Vec<u8>) {
    let (name, bytes) = fixture(name);
    let doc = index(&name, &bytes, &IndexSettings::default()).unwrap();
    (doc, bytes)
}

fn slice(doc: &DocumentIndex, start: usize, end: usize) -> String {
    doc.text.chars().skip(start).take(end - start).collect()
}

fn letters(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Structural invariants every tree must keep, plus page ranges that agree with the page map.
fn check_tree(doc: &DocumentIndex) {
    let total = doc.text.chars().count();
    for (i, node) in doc.nodes.iter().enumerate() {
        assert_eq!(node.node_id, format!("{i:04}"));
        assert!(node.span.start_char < node.span.end_char && node.span.end_char <= total);
        if let Some(parent) = node.parent_id.as_deref().and_then(|p| doc.node(p)) {
            assert!(
                parent.span.contains(node.span),
                "{} escapes {}",
                node.node_id,
                parent.node_id
            );
        }
        let (first, last) = (node.start_page.unwrap(), node.end_page.unwrap());
        assert!(first <= last && last as usize <= doc.pages.len());
        assert_eq!(doc.pages_of(node.span), Some((first, last)));
    }
    let mut previous_end = 0;
    for page in &doc.pages {
        assert_eq!(
            page.span.start_char, previous_end,
            "page {} leaves a gap",
            page.page
        );
        previous_end = page.span.end_char;
    }
    assert_eq!(previous_end, total);
}

/// The start of each node's text is on its first page and the end on its last page, as
/// pdfium itself reads those pages.
fn check_pages_hold_text(doc: &DocumentIndex, raw_pages: &[String]) {
    let raw: Vec<String> = raw_pages.iter().map(|t| letters(t)).collect();
    let mut checked = 0;
    for node in &doc.nodes {
        let text = slice(doc, node.span.start_char, node.span.end_char);
        // Table cells may come in another order than pdfium's stream: use one whole cell.
        let longest_cell = |line: &str| {
            letters(
                line.split(" | ")
                    .max_by_key(|cell| cell.len())
                    .unwrap_or(""),
            )
        };
        let first_line = longest_cell(text.lines().next().unwrap_or(""));
        let last_line = longest_cell(text.lines().last().unwrap_or(""));
        if first_line.len() < 6 || last_line.len() < 6 {
            continue;
        }
        let head: String = first_line.chars().take(30).collect();
        // Where a line starts is more certain than how its cells were ordered.
        let tail: String = last_line.chars().take(20).collect();
        let first = node.start_page.unwrap() as usize - 1;
        let last = node.end_page.unwrap() as usize - 1;
        assert!(
            raw[first].contains(&head),
            "node {} '{}' does not start on page {}: {head}",
            node.node_id,
            node.title,
            first + 1
        );
        assert!(
            raw[last].contains(&tail),
            "node {} '{}' does not end on page {}: {tail}",
            node.node_id,
            node.title,
            last + 1
        );
        checked += 1;
    }
    assert!(
        checked > doc.nodes.len() / 2,
        "too few nodes checked: {checked}"
    );
}

#[test]
fn microsoft_10k_pdf_has_every_item_on_the_page_its_printed_toc_gives() {
    let (doc, bytes) = index_fixture("MICROSOFT_2023_10K.pdf");
    assert_eq!(doc.format, SourceFormat::Pdf);
    assert_eq!(doc.pages.len(), 116);
    check_tree(&doc);
    check_pages_hold_text(&doc, &raw_page_texts(&bytes).unwrap());
    // The filing's printed index: item → page number printed on the page.
    let printed_toc = [
        ("1", "4"),
        ("1A", "23"),
        ("1B", "37"),
        ("2", "37"),
        ("3", "37"),
        ("4", "37"),
        ("5", "38"),
        ("6", "39"),
        ("7", "40"),
        ("7A", "57"),
        ("8", "58"),
        ("9", "99"),
        ("9A", "99"),
        ("9B", "101"),
        ("9C", "101"),
        ("10", "101"),
        ("11", "101"),
        ("12", "101"),
        ("13", "101"),
        ("14", "101"),
        ("15", "102"),
        ("16", "108"),
    ];
    let mut last_start = 0;
    for (item, printed) in printed_toc {
        let heading = format!("item {}", item.to_lowercase());
        let node = doc
            .nodes
            .iter()
            .find(|n| {
                let body = slice(&doc, n.span.start_char, n.span.end_char).to_lowercase();
                n.origin != NodeOrigin::TableOfContents
                    && body.starts_with(&format!("{heading}."))
                    && n.span.start_char >= last_start
            })
            .unwrap_or_else(|| panic!("no node for Item {item}"));
        last_start = node.span.start_char;
        let page = &doc.pages[node.start_page.unwrap() as usize - 1];
        assert_eq!(
            page.label.as_deref(),
            Some(printed),
            "Item {item} starts on page {}",
            page.page
        );
    }
    let statements: Vec<&str> = doc
        .nodes
        .iter()
        .filter(|n| n.title.ends_with("STATEMENTS") || n.title == "BALANCE SHEETS")
        .map(|n| n.title.as_str())
        .collect();
    assert!(
        statements.contains(&"INCOME STATEMENTS") && statements.contains(&"BALANCE SHEETS"),
        "{statements:?}"
    );
    // Running headers and page numbers are out of the text but kept per page.
    assert!(doc.pages[3].furniture.iter().any(|f| f == "4"));
    let outline: Vec<String> = doc
        .nodes
        .iter()
        .map(|n| {
            format!(
                "{}{} [pp. {}-{}]",
                "  ".repeat(n.level as usize),
                n.title,
                n.start_page.unwrap(),
                n.end_page.unwrap()
            )
        })
        .collect();
    insta::assert_snapshot!("microsoft_10k_pdf_outline", outline.join("\n"));
}

#[test]
fn leaf_sections_of_real_pdfs_are_small() {
    for name in [
        "MICROSOFT_2023_10K.pdf",
        "MGMRESORTS_2023Q2_10Q.pdf",
        "AMCOR_2022_8K_dated-2022-07-01.pdf",
    ] {
        let (doc, bytes) = index_fixture(name);
        check_tree(&doc);
        check_pages_hold_text(&doc, &raw_page_texts(&bytes).unwrap());
        let mut leaf_pages: Vec<u32> = doc
            .nodes
            .iter()
            .filter(|n| n.children.is_empty())
            .map(|n| n.end_page.unwrap() - n.start_page.unwrap() + 1)
            .collect();
        leaf_pages.sort_unstable();
        let median = leaf_pages[leaf_pages.len() / 2];
        let p90 = leaf_pages[leaf_pages.len() * 9 / 10];
        assert!(
            median <= 2 && p90 <= 4,
            "{name}: median {median}, p90 {p90}"
        );
        assert!(doc
            .chunks
            .iter()
            .all(|c| c.start_page.is_some() && c.end_page.is_some()));
    }
}

#[test]
fn mgm_10q_pdf_finds_both_parts_and_their_items() {
    let (doc, _) = index_fixture("MGMRESORTS_2023Q2_10Q.pdf");
    assert_eq!(
        doc.metadata.company_name.as_deref(),
        Some("MGM Resorts International")
    );
    let titles: Vec<&str> = doc.nodes.iter().map(|n| n.title.as_str()).collect();
    for wanted in [
        "PART I. FINANCIAL INFORMATION",
        "Item 2. Management’s Discussion and Analysis of Financial Condition and Results of Operations",
        "Item 4. Controls and Procedures",
        "PART II. OTHER INFORMATION",
        "Item 1A. Risk Factors",
        "Item 6. Exhibits",
    ] {
        assert!(titles.contains(&wanted), "missing {wanted}: {titles:?}");
    }
    let part2 = doc
        .nodes
        .iter()
        .find(|n| n.title == "PART II. OTHER INFORMATION")
        .unwrap();
    let item6 = doc
        .nodes
        .iter()
        .find(|n| n.title == "Item 6. Exhibits")
        .unwrap();
    assert_eq!(item6.parent_id.as_deref(), Some(part2.node_id.as_str()));
    // A blank page is reported, not silently dropped.
    assert!(doc.warnings.iter().any(|w| w.contains("no text layer")));
}

#[test]
fn outline_links_columns_and_images_of_a_pdf_are_kept() {
    let (doc, _) = index_fixture("links_outline_columns.pdf");
    check_tree(&doc);
    let outlook = doc.nodes.iter().find(|n| n.title == "Outlook").unwrap();
    let risks = doc
        .nodes
        .iter()
        .find(|n| n.title == "Risks to the Outlook")
        .unwrap();
    assert_eq!(outlook.origin, NodeOrigin::Outline);
    assert_eq!(risks.parent_id.as_deref(), Some(outlook.node_id.as_str()));
    assert!(
        slice(&doc, risks.span.start_char, risks.span.end_char).starts_with("Risks to the Outlook")
    );
    // The two columns of page 2 are read one after the other.
    let text = &doc.text;
    assert!(text.find("END-OF-LEFT").unwrap() < text.find("RIGHTCOL").unwrap());
    // The contents line links to the section's first character; the exhibit link stays external.
    let overview = doc
        .nodes
        .iter()
        .find(|n| n.title == "Market Overview")
        .unwrap();
    let internal = doc.links.iter().find(|l| !l.is_external()).unwrap();
    assert_eq!(
        slice(&doc, internal.span.start_char, internal.span.end_char),
        "Market Overview | 2"
    );
    assert_eq!(internal.target_char, Some(overview.span.start_char));
    let external: Vec<_> = doc.links.iter().filter(|l| l.is_external()).collect();
    assert_eq!(external.len(), 1);
    assert_eq!(
        external[0].href,
        "https://www.sec.gov/Archives/edgar/data/1/ex99-1.htm"
    );
    assert_eq!(
        slice(&doc, external[0].span.start_char, external[0].span.end_char),
        "Exhibit 99.1 press release"
    );
    // The figure on page 2 is recorded with its box and section.
    assert_eq!(doc.images.len(), 1);
    let image = &doc.images[0];
    assert_eq!(image.page, 2);
    assert!((image.bbox.left - 200.0).abs() < 1.0 && (image.bbox.top - 250.0).abs() < 1.0);
    assert_eq!(image.node_id.as_deref(), Some(overview.node_id.as_str()));
    assert_eq!(image.caption, None);
}

#[test]
fn bad_pdfs_get_clear_errors() {
    let (name, bytes) = fixture("encrypted_amcor_8k.pdf");
    assert_eq!(
        index(&name, &bytes, &IndexSettings::default()).unwrap_err(),
        IngestError::Encrypted
    );

    let (name, bytes) = fixture("scanned_two_pages.pdf");
    let err = index(&name, &bytes, &IndexSettings::default()).unwrap_err();
    assert_eq!(err, IngestError::NoTextLayer { pages: 2 });
    assert!(err.to_string().contains("OCR"));

    let (_, bytes) = fixture("MICROSOFT_2023_10K.pdf");
    let truncated = &bytes[..bytes.len() / 3];
    match index("truncated.pdf", truncated, &IndexSettings::default()) {
        Err(IngestError::CorruptPdf(reason)) => {
            assert!(reason.contains("damaged") || reason.contains("pdfium"))
        }
        other => panic!("a truncated PDF must be refused, got {other:?}"),
    }

    let err = index(
        "notes.pdf",
        b"<html><body>not a pdf</body></html>",
        &IndexSettings::default(),
    )
    .unwrap_err();
    assert!(matches!(err, IngestError::CorruptPdf(_)), "{err:?}");

    let (name, bytes) = fixture("AMCOR_2022_8K_dated-2022-07-01.pdf");
    let settings = IndexSettings {
        max_pdf_pages: 5,
        ..IndexSettings::default()
    };
    assert_eq!(
        index(&name, &bytes, &settings).unwrap_err(),
        IngestError::TooManyPages { pages: 9, limit: 5 }
    );
}

#[test]
fn a_partly_scanned_pdf_indexes_what_it_has_and_marks_the_rest() {
    let (doc, _) = index_fixture("partly_scanned.pdf");
    assert_eq!(doc.pages.len(), 3);
    assert!(doc.pages[0].has_text && !doc.pages[1].has_text && doc.pages[2].has_text);
    assert!(
        doc.warnings[0].contains("1 of 3 pages"),
        "{:?}",
        doc.warnings
    );
    assert!(doc.text.contains("Item 1. Business") && doc.text.contains("Item 2. Properties"));
}

#[test]
fn without_a_reader_a_pdf_is_refused_with_the_install_hint_path() {
    let (name, bytes) = fixture("AMCOR_2022_8K_dated-2022-07-01.pdf");
    let err =
        docindex_core::index_document(&name, &bytes, &IndexSettings::default(), &mut NoProgress)
            .unwrap_err();
    assert!(matches!(err, IngestError::PdfiumMissing(_)));
    assert!(docindex_pdf::INSTALL_HINT.contains("scripts/setup.sh"));
}

#[test]
fn statements_and_notes_of_pdf_filings_are_typed_with_their_periods() {
    use docindex_core::finance::SectionKind;
    for name in ["MICROSOFT_2023_10K.pdf", "MGMRESORTS_2023Q2_10Q.pdf"] {
        let (doc, _) = index_fixture(name);
        let typed: Vec<String> = doc
            .nodes
            .iter()
            .filter_map(|n| {
                let f = n.financial.as_ref()?;
                let periods: Vec<&str> = f.periods.iter().map(|p| p.heading.as_str()).collect();
                Some(format!(
                    "{} <{}{}> {} p.{} | {}",
                    n.node_id,
                    f.kind.as_str(),
                    f.note_number.map(|k| format!(" {k}")).unwrap_or_default(),
                    n.title,
                    n.start_page.unwrap_or(0),
                    periods.join(" | ")
                ))
            })
            .collect();
        let statements = doc
            .nodes
            .iter()
            .filter(|n| {
                n.financial
                    .as_ref()
                    .is_some_and(|f| f.kind.statement().is_some())
            })
            .count();
        assert!(statements >= 5, "{name}: {typed:#?}");
        assert!(doc.nodes.iter().any(|n| n
            .financial
            .as_ref()
            .is_some_and(|f| f.kind == SectionKind::Note && f.note_number == Some(1))));
        insta::assert_snapshot!(
            format!(
                "{}_typed_sections",
                name.to_lowercase().replace(['.', '-'], "_")
            ),
            typed.join("\n")
        );
    }
}

/// A one-page PDF whose content stream is `content`, Flate-compressed.
fn pdf_with_content(content: &[u8]) -> Vec<u8> {
    pdf_with(content, "", &[])
}

/// [`pdf_with_content`], with `catalog` added to the catalog's dictionary and `extra`
/// objects numbered from 6.
fn pdf_with(content: &[u8], catalog: &str, extra: &[&str]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(content).unwrap();
    let data = encoder.finish().unwrap();
    let mut objects: Vec<Vec<u8>> = vec![
        format!("<< /Type /Catalog /Pages 2 0 R {catalog}>>").into_bytes(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_vec(),
        format!("<< /Length {} /Filter /FlateDecode >>\nstream\n", data.len()).into_bytes(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
    ];
    objects[3].extend(data);
    objects[3].extend(b"\nendstream");
    objects.extend(extra.iter().map(|o| o.as_bytes().to_vec()));
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend(format!("{} 0 obj\n", i + 1).into_bytes());
        pdf.extend(object);
        pdf.extend(b"\nendobj\n");
    }
    let xref = pdf.len();
    pdf.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).into_bytes());
    for offset in offsets {
        pdf.extend(format!("{offset:010} 00000 n \n").into_bytes());
    }
    pdf.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .into_bytes(),
    );
    pdf
}

#[test]
fn an_outline_that_loops_gives_each_entry_once() {
    let text = b"BT /F1 12 Tf 72 720 Td (Results of Operations) Tj ET\nBT /F1 12 Tf 72 600 Td (Outlook for the year) Tj ET\nBT /F1 12 Tf 72 480 Td (Risk Factors) Tj ET\n";
    // "Results" is its own first child, and the last entry's next sibling is the first.
    let pdf = pdf_with(
        text,
        "/Outlines 6 0 R ",
        &[
            "<< /Type /Outlines /First 7 0 R /Last 9 0 R /Count 3 >>",
            "<< /Title (Results of Operations) /Parent 6 0 R /First 7 0 R /Last 7 0 R /Count 1 /Next 8 0 R /Dest [3 0 R /XYZ 0 735 0] >>",
            "<< /Title (Outlook) /Parent 6 0 R /Prev 7 0 R /Next 9 0 R /Dest [3 0 R /XYZ 0 615 0] >>",
            "<< /Title (Risk Factors) /Parent 6 0 R /Prev 8 0 R /Next 7 0 R /Dest [3 0 R /XYZ 0 495 0] >>",
        ],
    );
    let doc = index("looped.pdf", &pdf, &IndexSettings::default()).unwrap();
    let titled = |title: &str| doc.nodes.iter().filter(|n| n.title == title).count();
    for title in ["Results of Operations", "Outlook", "Risk Factors"] {
        assert_eq!(titled(title), 1, "{title}: {:?}", doc.nodes);
    }
    assert!(doc.nodes.iter().all(|n| n.level == 0), "{:?}", doc.nodes);
}

#[test]
fn a_pdf_whose_streams_inflate_past_the_budget_is_refused_before_it_is_read() {
    let text = b"BT /F1 12 Tf 72 720 Td (Revenue was 5 million) Tj ET\n".to_vec();
    // A page of text is read.
    let doc = index(
        "memo.pdf",
        &pdf_with_content(&text),
        &IndexSettings::default(),
    )
    .unwrap();
    assert!(doc.text.contains("Revenue was 5 million"), "{}", doc.text);
    // The same page with 20 MB of drawing operators after it: a 40 KB file that would cost
    // the reader hundreds of megabytes.
    let mut bomb = text.clone();
    bomb.extend(b"0 0 m 1 1 l S\n".repeat(20 * 1024 * 1024 / 14));
    let bytes = pdf_with_content(&bomb);
    assert!(bytes.len() < 200_000, "{}", bytes.len());
    let err = index("bomb.pdf", &bytes, &IndexSettings::default()).unwrap_err();
    assert_eq!(
        err,
        IngestError::PdfInflates {
            limit_mb: 16,
            ratio: 50
        }
    );
    assert!(err.to_string().contains("decompression bomb"), "{err}");
    // The budget is the user's to raise.
    let generous = IndexSettings {
        max_pdf_inflation: 1000,
        ..IndexSettings::default()
    };
    assert!(index("bomb.pdf", &bytes, &generous).is_ok());
}
