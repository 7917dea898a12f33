//! Trees of real EDGAR filings: invariants on every node and chunk, expected items, metadata
#![allow(clippy::unwrap_used, clippy::expect_used)]
//! and snapshots. Every test goes through `check_tree`, which asserts the span invariants.

use docindex_core::charmap::CharMap;
use docindex_core::model::{CrossRefKind, DocType, DocumentIndex, NodeOrigin};
use docindex_core::progress::{NoProgress, Stage};
use docindex_core::structure::patterns::item_label;
use docindex_core::testing::RecordedProgress;
use docindex_core::{index_document, IndexSettings, IngestError};
use std::path::PathBuf;

fn fixture(name: &str) -> (String, Vec<u8>) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (name.rsplit('/').next().unwrap().to_string(), bytes)
}

/// Index a fixture and check the invariants every index must hold.
fn check_tree(name: &str) -> DocumentIndex {
    let (file, bytes) = fixture(name);
    let doc = index_document(&file, &bytes, &IndexSettings::default(), &mut NoProgress).unwrap();
    let map = CharMap::new(&doc.text);
    let total = doc.text.chars().count();
    assert!(!doc.nodes.is_empty());
    for (i, n) in doc.nodes.iter().enumerate() {
        assert_eq!(n.node_id, format!("{i:04}"), "ids are pre-order");
        assert!(
            n.span.start_char < n.span.end_char && n.span.end_char <= total,
            "{n:?}"
        );
        assert!(!map.slice(n.span).trim().is_empty());
        if let Some(parent) = n.parent_id.as_deref().and_then(|p| doc.node(p)) {
            assert!(
                parent.span.contains(n.span),
                "child {} outside parent {}",
                n.node_id,
                parent.node_id
            );
            assert_eq!(n.level, parent.level + 1);
            assert!(parent.children.contains(&n.node_id));
        } else {
            assert_eq!(n.level, 0);
        }
        assert!(!n.summary.is_empty(), "node {} has no summary", n.node_id);
    }
    // Top-level nodes are in order and do not overlap.
    let top: Vec<_> = doc.top_level().collect();
    for pair in top.windows(2) {
        assert!(pair[0].span.end_char <= pair[1].span.start_char);
    }
    for c in &doc.chunks {
        let node = doc.node(&c.node_id).unwrap();
        assert!(
            node.span.contains(c.span),
            "chunk {} outside node {}",
            c.chunk_index,
            c.node_id
        );
        assert!(
            c.token_count <= 400,
            "chunk {} has {} tokens",
            c.chunk_index,
            c.token_count
        );
    }
    for r in &doc.cross_refs {
        assert!(doc.node(&r.source_node_id).unwrap().span.contains(r.span));
        if r.kind != CrossRefKind::Hyperlink {
            assert_eq!(
                map.slice(r.span),
                r.target.as_str(),
                "a reference's span is its text"
            );
        }
    }
    for t in &doc.dictionary {
        assert!(map.slice(t.span).contains(&t.term), "{t:?}");
    }
    for k in &doc.metadata.key_numbers {
        if let Some(span) = k.span {
            assert_eq!(map.slice(span), k.value.trim_start_matches('-'));
        }
    }
    doc
}

/// Every expected item has a node whose text starts with the item heading in the body,
/// in document order (the rule of `shared/tools/check_structure.py`).
fn check_expected_items(doc: &DocumentIndex, expected_file: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/expected")
        .join(expected_file);
    let expected: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let map = CharMap::new(&doc.text);
    let total_html: f64 = expected
        .iter()
        .map(|e| e["character_count"].as_f64().unwrap())
        .sum();
    let text_len = doc.text.chars().count() as f64;
    let mut last_start = None;
    for e in &expected {
        let ident = e["identifier"].as_str().unwrap();
        let item = ident.rsplit("item").next().unwrap().to_ascii_uppercase();
        let share = e["character_count"].as_f64().unwrap() / total_html;
        let found = doc.nodes.iter().filter(|n| {
            let text = map.slice(n.span);
            item_label(text.lines().next().unwrap_or("")).as_deref() == Some(item.as_str())
                && (share <= 0.01 || text.chars().count() as f64 >= 0.25 * share * text_len)
                && last_start.is_none_or(|s| n.span.start_char > s)
        });
        let best = found.min_by_key(|n| n.span.start_char);
        let node = best.unwrap_or_else(|| panic!("{}: no node for item {ident}", doc.doc_name));
        assert_ne!(node.origin, NodeOrigin::TableOfContents);
        last_start = Some(node.span.start_char);
    }
}

fn outline(doc: &DocumentIndex) -> String {
    doc.nodes
        .iter()
        .map(|n| {
            format!(
                "{}{} {} [{}..{}] {}t",
                "  ".repeat(n.level as usize),
                n.node_id,
                n.title,
                n.span.start_char,
                n.span.end_char,
                n.token_count
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn apple_10k_items_statements_notes_and_metadata() {
    let doc = check_tree("apple_10-K_FY2024_0000320193-24-000123.html");
    check_expected_items(
        &doc,
        "10-K_AAPL_0000320193-24-000123.expected-top-level-sections.json",
    );
    assert_eq!(doc.doc_type, DocType::Form10K);
    let m = &doc.metadata;
    assert_eq!(m.company_name.as_deref(), Some("Apple Inc."));
    assert_eq!(m.ticker.as_deref(), Some("AAPL"));
    assert_eq!(m.cik.as_deref(), Some("0000320193"));
    assert_eq!(m.period_end_date.as_deref(), Some("2024-09-28"));
    assert_eq!(m.fiscal_year, Some(2024));
    assert_eq!(m.filing_date.as_deref(), Some("2024-11-01"));
    let revenue = m.key_numbers.iter().find(|k| k.name == "revenue").unwrap();
    assert_eq!(revenue.value, "391,035");
    let titles: Vec<&str> = doc.nodes.iter().map(|n| n.title.as_str()).collect();
    assert!(titles.contains(&"Table of Contents"));
    assert!(titles.contains(&"CONSOLIDATED BALANCE SHEETS"));
    assert!(titles
        .iter()
        .any(|t| t.starts_with("Note 7 – Income Taxes")));
    let toc = doc
        .nodes
        .iter()
        .filter(|n| n.origin == NodeOrigin::TableOfContents)
        .count();
    assert_eq!(toc, 1, "the table of contents is one node");
    // Page footers ("Apple Inc. | 2024 Form 10-K | 12") are not in the text.
    assert!(!doc.text.contains("2024 Form 10-K | 12\n"));
    // A node's size is bounded unless it has children.
    for n in doc.nodes.iter().filter(|n| n.children.is_empty()) {
        assert!(
            n.token_count <= IndexSettings::default().tree.max_node_tokens * 2,
            "{} has {} tokens",
            n.title,
            n.token_count
        );
    }
    let note_ref = doc
        .cross_refs
        .iter()
        .find(|r| r.kind == CrossRefKind::Note && r.target_node_id.is_some())
        .unwrap();
    assert!(doc
        .node(note_ref.target_node_id.as_deref().unwrap())
        .unwrap()
        .title
        .starts_with(&note_ref.target.replace("Notes", "Note")));
    // Tables keep parenthesised negatives whole.
    assert!(doc
        .text
        .contains("Other income/(expense), net | 269 | (565) | (334)"));
}

#[test]
fn tesla_10k_items() {
    let doc = check_tree("tesla_10-K_FY2023_0001628280-24-002390.html");
    check_expected_items(
        &doc,
        "10-K_TSLA_0001628280-24-002390.expected-top-level-sections.json",
    );
    assert_eq!(doc.metadata.ticker.as_deref(), Some("TSLA"));
    assert_eq!(doc.metadata.fiscal_year, Some(2023));
}

#[test]
fn apple_10q_parts_and_items() {
    let doc = check_tree("apple_10-Q_Q3FY2023_0000320193-23-000077.html");
    check_expected_items(
        &doc,
        "10-Q_AAPL_0000320193-23-000077.expected-top-level-sections.json",
    );
    assert_eq!(doc.doc_type, DocType::Form10Q);
    assert_eq!(doc.metadata.fiscal_quarter, Some(3));
    // Part II, Item 1A is under Part II.
    let item = doc
        .nodes
        .iter()
        .find(|n| n.title.starts_with("Item 1A."))
        .unwrap();
    let part = doc.node(item.parent_id.as_deref().unwrap()).unwrap();
    assert!(
        part.title.to_ascii_uppercase().starts_with("PART II"),
        "{}",
        part.title
    );
    insta::assert_snapshot!("apple_10q_outline", outline(&doc));
}

#[test]
fn old_10k_without_toc_links() {
    let doc = check_tree("medicis_10-K_FY1999_0000950153-99-001234.html");
    let items: Vec<String> = doc
        .nodes
        .iter()
        .filter_map(|n| item_label(&n.title))
        .collect();
    for want in [
        "1", "2", "3", "4", "5", "6", "7", "7A", "8", "9", "10", "11", "12", "13", "14",
    ] {
        assert!(
            items.contains(&want.to_string()),
            "item {want} missing: {items:?}"
        );
    }
    assert!(!items.contains(&"1A".to_string()));
    assert_eq!(doc.metadata.period_end_date.as_deref(), Some("1999-06-30"));
    assert_eq!(
        doc.metadata.company_name.as_deref(),
        Some("MEDICIS PHARMACEUTICAL CORPORATION")
    );
}

#[test]
fn text_wrapped_20f_skips_its_toc_lines() {
    let doc = check_tree("aegon_20-F_FY2000_0000928385-01-500187.html");
    assert_eq!(doc.doc_type, DocType::Form20F);
    let map = CharMap::new(&doc.text);
    let item5 = doc
        .nodes
        .iter()
        .find(|n| item_label(&n.title).as_deref() == Some("5"))
        .unwrap();
    assert!(map
        .slice(item5.span)
        .starts_with("Item 5. Operating and Financial Review and Prospects"));
    assert!(
        item5.token_count > 10_000,
        "item 5 is the body section, not a TOC line"
    );
    assert_eq!(doc.metadata.company_name.as_deref(), Some("AEGON N.V."));
}

#[test]
fn eight_k_items_and_press_release() {
    let doc = check_tree("buckle_8-K_2024-11-22.html");
    assert_eq!(doc.doc_type, DocType::Form8K);
    let items: Vec<String> = doc
        .nodes
        .iter()
        .filter_map(|n| item_label(&n.title))
        .collect();
    assert_eq!(items, vec!["2.02", "9.01"]);
    insta::assert_snapshot!("buckle_8k_outline", outline(&doc));
    let release = check_tree("buckle_8-K_2024-11-22_EX-99.1_press_release.html");
    assert_eq!(release.doc_type, DocType::EarningsRelease);
}

#[test]
fn proxy_and_prospectus_follow_their_toc() {
    let proxy = check_tree("cabot_DEF14A_2024.html");
    assert_eq!(proxy.doc_type, DocType::Def14A);
    assert!(proxy
        .nodes
        .iter()
        .any(|n| n.title.starts_with("Proposal 1") && n.origin == NodeOrigin::TocLink));
    let prospectus = check_tree("camp4_424B4_IPO_prospectus_2024.htm");
    assert_eq!(prospectus.doc_type, DocType::S1);
    // Its cover shows the name as an image; the offering sentence names the issuer.
    assert_eq!(
        prospectus.metadata.company_name.as_deref(),
        Some("CAMP4 Therapeutics Corporation")
    );
    let risk = prospectus
        .nodes
        .iter()
        .find(|n| n.title.eq_ignore_ascii_case("Risk factors"))
        .unwrap();
    assert!(!risk.children.is_empty(), "a 55k-token section is split");
}

#[test]
fn transcript_sections_and_speaker_turns() {
    let doc = check_tree("acme_q3_2024_earnings_call.txt");
    assert_eq!(doc.doc_type, DocType::EarningsCall);
    let qa = doc
        .nodes
        .iter()
        .find(|n| n.title == "Questions & Answers")
        .unwrap();
    let turns: Vec<&str> = qa
        .children
        .iter()
        .map(|id| doc.node(id).unwrap().title.as_str())
        .collect();
    assert!(
        turns.contains(&"Tom Becker — Morgan Stanley -- Analyst"),
        "{turns:?}"
    );
    assert!(turns.contains(&"Operator"));
    let aebitda = doc.dictionary.iter().find(|t| t.term == "AEBITDA").unwrap();
    assert_eq!(aebitda.definition, "Adjusted EBITDA");
}

#[test]
fn a_transcript_with_name_and_role_on_two_lines_has_one_node_per_turn() {
    let transcript = "Acme Robotics, Inc. (NASDAQ: ACMR) Q3 2024 Earnings Call Transcript\n\n\
Prepared Remarks:\n\n\
Operator\n\n\
Good afternoon, and welcome to the Acme Robotics third quarter 2024 earnings conference call.\n\n\
Marcus Lee\n\n\
Acme Robotics, Inc. — President, CEO & Director\n\n\
Thanks, everyone. Third quarter revenue was $412.6 million, up 18% year over year.\n\n\
Questions & Answers:\n\n\
Tom Becker\n\n\
Morgan Stanley — Analyst\n\n\
Thanks for taking my question about the Malaysia deployment and its margin profile.\n\n\
Marcus Lee\n\n\
Acme Robotics, Inc. — President, CEO & Director\n\n\
Margins there are in line with North America once the deployment is at scale.\n";
    let doc = index_document(
        "acme_call.txt",
        transcript.as_bytes(),
        &IndexSettings::default(),
        &mut NoProgress,
    )
    .unwrap();
    assert_eq!(doc.doc_type, DocType::EarningsCall);
    assert_eq!(
        doc.metadata.company_name.as_deref(),
        Some("Acme Robotics, Inc.")
    );
    assert_eq!(doc.metadata.ticker.as_deref(), Some("ACMR"));
    let titles: Vec<&str> = doc.nodes.iter().map(|n| n.title.as_str()).collect();
    assert!(
        titles.contains(&"Marcus Lee — Acme Robotics, Inc. — President, CEO & Director"),
        "{titles:?}"
    );
    assert!(
        titles.contains(&"Tom Becker — Morgan Stanley — Analyst"),
        "{titles:?}"
    );
    assert!(
        !titles
            .iter()
            .any(|t| t.starts_with("Acme Robotics, Inc. —")),
        "the role line is not a turn of its own: {titles:?}"
    );
    // Each turn holds what was said.
    let map = CharMap::new(&doc.text);
    let answer = doc
        .nodes
        .iter()
        .rev()
        .find(|n| n.title.starts_with("Marcus Lee"))
        .unwrap();
    assert!(map.slice(answer.span).contains("Margins there are in line"));
}

#[test]
fn markdown_headings_make_the_tree() {
    let md = "# Annual letter\n\nIntro text for the year.\n\n## Results\n\nRevenue grew 12% to $5.1 billion.\n\n### Segments\n\nCloud grew.\n\n## Outlook\n\nWe expect growth.\n";
    let doc = index_document(
        "letter.md",
        md.as_bytes(),
        &IndexSettings::default(),
        &mut NoProgress,
    )
    .unwrap();
    let titles: Vec<(&str, u32)> = doc
        .nodes
        .iter()
        .map(|n| (n.title.as_str(), n.level))
        .collect();
    assert_eq!(
        titles,
        vec![
            ("Annual letter", 0),
            ("Results", 1),
            ("Segments", 2),
            ("Outlook", 1)
        ]
    );
    let map = CharMap::new(&doc.text);
    assert_eq!(map.slice(doc.nodes[2].span), "### Segments\n\nCloud grew.");
}

#[test]
fn legacy_encodings_and_unstructured_text() {
    let mut bytes = b"The Company\x92s results improved.\n\n".to_vec();
    for i in 0..400 {
        bytes.extend_from_slice(format!("Paragraph {i} describes operations in some detail so that the text is long enough to need splitting into sections.\n\n").as_bytes());
    }
    let settings = IndexSettings {
        tree: docindex_core::structure::TreeSettings {
            max_node_tokens: 1000,
        },
        ..IndexSettings::default()
    };
    let doc = index_document("notes.txt", &bytes, &settings, &mut NoProgress).unwrap();
    assert!(doc.text.starts_with("The Company’s results improved."));
    assert_eq!(doc.encoding, "windows-1252");
    assert!(doc.nodes.len() > 5);
    assert!(doc
        .nodes
        .iter()
        .all(|n| !n.children.is_empty() || n.token_count <= 1000));
}

#[test]
fn node_ids_are_stable() {
    let (file, bytes) = fixture("apple_10-Q_Q3FY2023_0000320193-23-000077.html");
    let a = index_document(&file, &bytes, &IndexSettings::default(), &mut NoProgress).unwrap();
    let b = index_document(&file, &bytes, &IndexSettings::default(), &mut NoProgress).unwrap();
    assert_eq!(a, b);
}

#[test]
fn bad_input_gets_typed_errors() {
    let run = |name: &str, bytes: &[u8]| {
        index_document(name, bytes, &IndexSettings::default(), &mut NoProgress).err()
    };
    assert_eq!(run("empty.htm", b""), Some(IngestError::Empty));
    assert!(matches!(
        run("x.htm", b"\x00\x01\x02binary\x00\x00junk"),
        Some(IngestError::Binary(_))
    ));
    assert!(matches!(
        run("report.docx", b"PK\x03\x04...."),
        Some(IngestError::Binary(_))
    ));
    // Without a PDF reader (pdfium lives in docindex-pdf) a PDF says what is missing.
    assert!(matches!(
        run("scan.pdf", b"%PDF-1.4 ..."),
        Some(IngestError::PdfiumMissing(_))
    ));
    assert!(matches!(
        run("sheet.xlsx", b"hello"),
        Some(IngestError::Unsupported(_))
    ));
    assert_eq!(
        run(
            "blank.html",
            b"<html><body><div style='display:none'>x</div></body></html>"
        ),
        Some(IngestError::NoText)
    );
    let small = IndexSettings {
        max_bytes: 10,
        ..IndexSettings::default()
    };
    assert!(matches!(
        index_document("big.txt", b"0123456789abc", &small, &mut NoProgress),
        Err(IngestError::TooLarge {
            size: 13,
            limit: 10
        })
    ));
    // Truncated HTML still indexes what is there.
    let (_, bytes) = fixture("oracle_8-K_2024-11-14_item5.07.html");
    let doc = index_document(
        "cut.htm",
        &bytes[..bytes.len() / 2],
        &IndexSettings::default(),
        &mut NoProgress,
    )
    .unwrap();
    assert!(!doc.nodes.is_empty());
}

#[test]
fn progress_is_reported_and_cancellation_stops() {
    let (file, bytes) = fixture("oracle_8-K_2024-11-14_item5.07.html");
    let mut progress = RecordedProgress::default();
    index_document(&file, &bytes, &IndexSettings::default(), &mut progress).unwrap();
    let stages: Vec<Stage> = progress.events.iter().map(|e| e.0).collect();
    for s in [
        Stage::Decode,
        Stage::Canonical,
        Stage::Tokens,
        Stage::Tree,
        Stage::Chunks,
        Stage::Enrich,
    ] {
        assert!(stages.contains(&s), "{s:?} missing");
    }
    let mut cancelling = RecordedProgress {
        cancel_at: Some(Stage::Tokens),
        ..RecordedProgress::default()
    };
    assert_eq!(
        index_document(&file, &bytes, &IndexSettings::default(), &mut cancelling).err(),
        Some(IngestError::Cancelled)
    );
}

/// The typed sections of a tree, one line each: id, kind (note number), title, periods.
fn typed_outline(doc: &DocumentIndex) -> String {
    doc.nodes
        .iter()
        .filter_map(|n| {
            let f = n.financial.as_ref()?;
            let periods: Vec<&str> = f.periods.iter().map(|p| p.heading.as_str()).collect();
            Some(format!(
                "{}{} <{}{}> {}{}",
                "  ".repeat(n.level as usize),
                n.node_id,
                f.kind.as_str(),
                f.note_number.map(|k| format!(" {k}")).unwrap_or_default(),
                n.title,
                if periods.is_empty() {
                    String::new()
                } else {
                    format!(" | {}", periods.join(" | "))
                }
            ))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Statements and notes are typed, every primary statement is there once with its period
/// columns, and the notes stand beside the statements, never inside one.
fn check_financial_sections(doc: &DocumentIndex, statements: usize) {
    use docindex_core::finance::SectionKind;
    let kinds: Vec<(&docindex_core::model::Node, SectionKind)> = doc
        .nodes
        .iter()
        .filter_map(|n| Some((n, n.financial.as_ref()?.kind)))
        .collect();
    let primary: Vec<_> = kinds
        .iter()
        .filter(|(_, k)| k.statement().is_some())
        .collect();
    assert_eq!(primary.len(), statements, "{}", typed_outline(doc));
    for (node, _) in primary
        .iter()
        .filter(|(_, k)| *k != SectionKind::EquityStatement)
    {
        assert!(
            !node.financial.as_ref().unwrap().periods.is_empty(),
            "{} has no period columns",
            node.title
        );
    }
    let notes: Vec<_> = kinds
        .iter()
        .filter(|(_, k)| matches!(k, SectionKind::Note | SectionKind::Segments))
        .collect();
    assert!(notes.len() >= 10, "{}", typed_outline(doc));
    for (note, _) in notes {
        let mut up = note.parent_id.as_deref();
        while let Some(p) = up {
            let parent = doc.node(p).unwrap();
            assert!(
                parent
                    .financial
                    .as_ref()
                    .is_none_or(|f| f.kind.statement().is_none()),
                "note {} nested in statement {}",
                note.title,
                parent.title
            );
            up = parent.parent_id.as_deref();
        }
    }
}

#[test]
fn statements_notes_and_mdna_are_typed_in_html_filings() {
    let apple = check_tree("apple_10-K_FY2024_0000320193-24-000123.html");
    check_financial_sections(&apple, 5);
    insta::assert_snapshot!("apple_10k_typed_sections", typed_outline(&apple));
    let tesla = check_tree("tesla_10-K_FY2023_0001628280-24-002390.html");
    check_financial_sections(&tesla, 5);
    insta::assert_snapshot!("tesla_10k_typed_sections", typed_outline(&tesla));
    let quarter = check_tree("apple_10-Q_Q3FY2023_0000320193-23-000077.html");
    insta::assert_snapshot!("apple_10q_typed_sections", typed_outline(&quarter));
}

/// Regression: a 10-K whose notes are headed only in capitals ("NATURE OF BUSINESS") had
/// every note nested under its last statement, one node of 20,000 tokens.
#[test]
fn notes_headed_only_in_capitals_stand_beside_the_statements() {
    let rows = |n: usize| -> String {
        (0..n)
            .map(|i| format!("<tr><td>Line item {i}</td><td>1,{i:03}</td><td>2,{i:03}</td></tr>"))
            .collect()
    };
    let prose = "The Company reports its results in accordance with generally accepted accounting principles and applies them consistently. ".repeat(30);
    let html = format!(
        "<html><body><p><b>Item 8. Financial Statements and Supplementary Data</b></p>\
<p><b>CONSOLIDATED BALANCE SHEETS</b></p><table><tr><td></td><td>2023</td><td>2022</td></tr>{}</table>\
<p><b>CONSOLIDATED STATEMENTS OF OPERATIONS</b></p><table><tr><td></td><td>2023</td><td>2022</td></tr>{}</table>\
<p><b>CONSOLIDATED STATEMENT OF CASH FLOWS</b></p><table><tr><td></td><td>2023</td><td>2022</td></tr>{}</table>\
<p><b>NATURE OF BUSINESS</b></p><p>{prose}</p>\
<p><b>CONSOLIDATION</b></p><p>{prose}</p>\
<p><b>INVENTORIES</b></p><p>{prose}</p>\
<p><b>Item 9. Changes in and Disagreements with Accountants</b></p><p>None.</p></body></html>",
        rows(30),
        rows(30),
        rows(30)
    );
    let settings = IndexSettings {
        tree: docindex_core::structure::TreeSettings {
            max_node_tokens: 800,
        },
        ..Default::default()
    };
    let doc = index_document("capitals.html", html.as_bytes(), &settings, &mut NoProgress).unwrap();
    let find = |title: &str| doc.nodes.iter().find(|n| n.title == title).unwrap();
    let cash_flows = find("CONSOLIDATED STATEMENT OF CASH FLOWS");
    for note in ["NATURE OF BUSINESS", "CONSOLIDATION", "INVENTORIES"] {
        let node = find(note);
        assert_eq!(
            node.parent_id,
            cash_flows.parent_id,
            "{note}: {}",
            outline(&doc)
        );
        assert!(node.span.start_char >= cash_flows.span.end_char);
    }
}

/// The storage contract every `DocumentStore` keeps, on the in-memory store the core's
/// tests use: a changed file replaces its entry (same name, new id) and says which it
/// superseded; listing, reading back and removal follow.
#[test]
fn the_memory_store_keeps_the_storage_contract() {
    use docindex_core::store::DocumentStore;
    use docindex_core::testing::MemoryStore;
    let settings = IndexSettings::default();
    let name = "buckle_8-K_2024-11-22.html";
    let (_, bytes) = fixture(name);
    let first = index_document(name, &bytes, &settings, &mut NoProgress).unwrap();
    let mut changed = bytes.clone();
    changed.extend_from_slice(b"<p>Amended: one more paragraph.</p>");
    let second = index_document(name, &changed, &settings, &mut NoProgress).unwrap();
    assert_ne!(first.doc_id, second.doc_id, "new bytes, new id");

    let mut store = MemoryStore::default();
    assert!(store.replace(&first).unwrap().is_empty());
    assert_eq!(store.replace(&second).unwrap(), vec![first.doc_id.clone()]);
    let listed = store.list().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].doc_id, second.doc_id);
    assert_eq!(listed[0].node_count, second.nodes.len());
    assert!(store.get(&first.doc_id).unwrap().is_none());
    assert_eq!(store.get(&second.doc_id).unwrap().as_ref(), Some(&second));
    assert!(store.remove(&second.doc_id).unwrap());
    assert!(!store.remove(&second.doc_id).unwrap());
    assert!(store.list().unwrap().is_empty());
}
