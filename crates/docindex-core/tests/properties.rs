//! Property tests of the span invariants on generated filings: whatever mix of Part and
//! Item headings, note headings, paragraphs, tables and stray markup a document has, as
//! HTML, Markdown or plain text, its tree nests inside the text, chunks lie inside their
//! nodes, and a node's text is exactly its slice.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_core::charmap::CharMap;
use docindex_core::model::DocumentIndex;
use docindex_core::progress::NoProgress;
use docindex_core::{index_document, IndexSettings};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Block {
    Part(u8),
    Item(u8, String),
    Note(u8, String),
    Paragraph(Vec<String>),
    Row(Vec<String>),
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,10}",
        "[A-Z][a-z]{2,8}",
        "\\$?[0-9]{1,3}(,[0-9]{3})?",
        "\\([0-9]{1,3}\\)",
        Just("Item".to_string()),
        Just("—".to_string()),
        Just("é".to_string()),
        Just("&amp;".to_string()),
    ]
}

fn block() -> impl Strategy<Value = Block> {
    prop_oneof![
        (1u8..5).prop_map(Block::Part),
        (1u8..16, "[A-Z][a-z]{3,12}( [a-z]{2,8}){0,3}").prop_map(|(n, t)| Block::Item(n, t)),
        (1u8..20, "[A-Z][a-z]{3,12}").prop_map(|(n, t)| Block::Note(n, t)),
        prop::collection::vec(word(), 1..40).prop_map(Block::Paragraph),
        prop::collection::vec(word(), 2..6).prop_map(Block::Row),
    ]
}

fn line(b: &Block) -> String {
    match b {
        Block::Part(n) => format!(
            "PART {}",
            ["I", "II", "III", "IV", "V"][(*n as usize - 1) % 5]
        ),
        Block::Item(n, t) => format!("Item {n}. {t}"),
        Block::Note(n, t) => format!("Note {n} – {t}"),
        Block::Paragraph(words) => format!("{}.", words.join(" ")),
        Block::Row(cells) => cells.join(" | "),
    }
}

fn html(blocks: &[Block]) -> String {
    let mut out = String::from("<html><body>");
    for b in blocks {
        match b {
            Block::Part(_) | Block::Item(..) | Block::Note(..) => {
                out.push_str(&format!("<p><b>{}</b></p>", line(b)))
            }
            Block::Paragraph(_) => out.push_str(&format!("<p>{}</p><div><br></div>", line(b))),
            Block::Row(cells) => {
                out.push_str("<table><tr>");
                for c in cells {
                    out.push_str(&format!("<td>{c}</td>"));
                }
                out.push_str("</tr></table>");
            }
        }
    }
    out.push_str("</body></html>");
    out
}

fn markdown(blocks: &[Block]) -> String {
    blocks
        .iter()
        .map(|b| match b {
            Block::Part(_) => format!("# {}", line(b)),
            Block::Item(..) | Block::Note(..) => format!("## {}", line(b)),
            Block::Row(cells) => format!("| {} |", cells.join(" | ")),
            Block::Paragraph(_) => line(b),
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn text(blocks: &[Block]) -> String {
    blocks.iter().map(line).collect::<Vec<_>>().join("\n\n")
}

fn check(doc: &DocumentIndex) {
    let total = doc.text.chars().count();
    let map = CharMap::new(&doc.text);
    for (i, node) in doc.nodes.iter().enumerate() {
        assert_eq!(node.node_id, format!("{i:04}"));
        assert!(node.span.start_char <= node.span.end_char && node.span.end_char <= total);
        if let Some(parent) = node.parent_id.as_deref().and_then(|p| doc.node(p)) {
            assert!(
                parent.span.contains(node.span),
                "{node:?} outside {parent:?}"
            );
            assert_eq!(node.level, parent.level + 1);
        }
        // `show` prints exactly this slice; it is whole characters of the text.
        let slice = map.slice(node.span);
        assert_eq!(
            slice.chars().count(),
            node.span.end_char - node.span.start_char
        );
    }
    for w in doc.nodes.windows(2) {
        assert!(
            w[0].span.start_char <= w[1].span.start_char,
            "pre-order follows the text"
        );
    }
    for chunk in &doc.chunks {
        let node = doc.node(&chunk.node_id).unwrap();
        assert!(node.span.contains(chunk.span), "{chunk:?} outside {node:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn trees_keep_their_spans_whatever_the_document(blocks in prop::collection::vec(block(), 1..60)) {
        let settings = IndexSettings::default();
        for (name, body) in [
            ("gen.html", html(&blocks)),
            ("gen.md", markdown(&blocks)),
            ("gen.txt", text(&blocks)),
        ] {
            if let Ok(doc) = index_document(name, body.as_bytes(), &settings, &mut NoProgress) {
                check(&doc);
            }
        }
    }
}

/// Found by the HTML fuzz target: a row closed around a cell still open left the cell's
/// start inside the next block's text, and closing the cell sliced through "—".
#[test]
fn a_cell_left_open_across_a_closed_row_keeps_its_text_whole() {
    let body =
        "<table><tr><td>abcdefghij</td><td></tr>Section 5—Corporate Governance</td></tr></table>";
    let doc = index_document(
        "cell.html",
        body.as_bytes(),
        &IndexSettings::default(),
        &mut NoProgress,
    )
    .unwrap();
    check(&doc);
    assert!(
        doc.text.contains("Section 5—Corporate Governance"),
        "{}",
        doc.text
    );
}

/// Found by the HTML fuzz target: an inline XBRL fact opened in one block and closed in the
/// next (bad markup) kept its start as an offset into the first block, and closing it
/// sliced the second block's text inside "—".
#[test]
fn a_fact_closed_in_another_block_than_it_opened_in_slices_no_character() {
    let body = "<html><body><p>abcdefghij<ix:nonFraction name=\"us-gaap:Revenues\">12</p>\
                <p>————— Revenues grew</ix:nonFraction> in the quarter.</p></body></html>";
    let doc = index_document(
        "fact.html",
        body.as_bytes(),
        &IndexSettings::default(),
        &mut NoProgress,
    )
    .unwrap();
    check(&doc);
    assert!(doc.text.contains("————— Revenues grew"), "{}", doc.text);
}
