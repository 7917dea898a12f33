//! The SQLite library on real filings: round trips, FTS, atomic replacement, migrations.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::indexed;
use docindex_core::progress::NoProgress;
use docindex_core::store::DocumentStore;
use docindex_core::IndexSettings;
use docindex_store::{SqliteStore, StoreError};
use std::path::PathBuf;

#[test]
fn a_document_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("lib.sqlite")).unwrap();
    let doc = indexed("apple_10-Q_Q3FY2023_0000320193-23-000077.html");
    assert!(store.replace(&doc).unwrap().is_empty());
    let back = store.get(&doc.doc_id).unwrap().unwrap();
    assert_eq!(back.text, doc.text);
    assert_eq!(back.nodes, doc.nodes);
    assert_eq!(back.chunks, doc.chunks);
    // The 10-Q is inline XBRL: its tagged figures are kept with their spans.
    assert!(doc.facts.iter().any(|f| f.concept
        == "RevenueFromContractWithCustomerExcludingAssessedTax"
        && f.scale == Some(6)));
    assert_eq!(back.facts, doc.facts);
    assert_eq!(back.metadata, doc.metadata);
    assert_eq!(back.dictionary, doc.dictionary);
    assert_eq!(back.links, doc.links);
    assert_eq!(back.cross_refs.len(), doc.cross_refs.len());
    assert_eq!(back.doc_type, doc.doc_type);
    let list = store.list().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].node_count, doc.nodes.len());

    // What a search hit reads: the text and outline whole, without summaries, chunk
    // contexts or facts; the facts on their own when statement rows need them.
    let hit = store.load_for_hits(&doc.doc_id).unwrap().unwrap();
    assert_eq!(hit.text, doc.text);
    assert_eq!(hit.nodes.len(), doc.nodes.len());
    for (read, stored) in hit.nodes.iter().zip(&doc.nodes) {
        assert_eq!(
            (&read.node_id, &read.parent_id, &read.title, read.span),
            (
                &stored.node_id,
                &stored.parent_id,
                &stored.title,
                stored.span
            )
        );
        assert_eq!(read.children, stored.children);
        assert_eq!(read.financial, stored.financial);
        assert!(read.summary.is_empty());
    }
    assert!(doc.nodes.iter().any(|n| !n.summary.is_empty()));
    let spans = |chunks: &[docindex_core::Chunk]| chunks.iter().map(|c| c.span).collect::<Vec<_>>();
    assert_eq!(spans(&hit.chunks), spans(&doc.chunks));
    assert!(hit.facts.is_empty());
    assert_eq!(store.facts_of(&doc.doc_id).unwrap(), doc.facts);
}

#[test]
fn full_text_indexes_cover_chunks_and_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    let mut store = SqliteStore::open(&path).unwrap();
    let doc = indexed("apple_10-K_FY2024_0000320193-24-000123.html");
    store.replace(&doc).unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    let chunk_hits: i64 = conn
        .query_row(
            "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'wearables'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(chunk_hits > 0);
    let node: String = conn
        .query_row(
            "SELECT s.node_id FROM nodes_fts JOIN node_search s ON s.rowid = nodes_fts.rowid WHERE nodes_fts MATCH 'title:\"income taxes\"' LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(doc.node(&node).unwrap().title.contains("Income Taxes"));
    // Removing the document empties both indexes.
    assert!(store.remove(&doc.doc_id).unwrap());
    let left: i64 = conn
        .query_row(
            "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'wearables'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(left, 0);
}

#[test]
fn a_failed_replacement_leaves_the_old_entry_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("lib.sqlite")).unwrap();
    let good = indexed("oracle_8-K_2024-11-14_item5.07.html");
    store.replace(&good).unwrap();
    // A corrupt index (two nodes with one id) fails half-way through the insert.
    let mut bad = indexed("buckle_8-K_2024-11-22.html");
    bad.doc_name = good.doc_name.clone();
    bad.nodes[1].node_id = bad.nodes[0].node_id.clone();
    assert!(matches!(store.replace(&bad), Err(StoreError::Sqlite(_))));
    let list = store.list().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].doc_id, good.doc_id);
    assert_eq!(store.get(&good.doc_id).unwrap().unwrap().nodes, good.nodes);
    assert!(store.get(&bad.doc_id).unwrap().is_none());
}

#[test]
fn migrations_run_once_and_newer_libraries_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), 16);
    drop(store);
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), 16);
    drop(store);
    rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    assert!(matches!(
        SqliteStore::open(&path),
        Err(StoreError::TooNew {
            found: 99,
            known: 16,
            ..
        })
    ));
}

#[test]
fn a_pdf_round_trips_with_pages_images_and_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("lib.sqlite")).unwrap();
    for name in ["links_outline_columns.pdf", "partly_scanned.pdf"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/pdf")
            .join(name);
        let bytes = std::fs::read(path).unwrap();
        let doc = docindex_core::pipeline::index_document_with(
            name,
            &bytes,
            &IndexSettings::default(),
            &mut NoProgress,
            docindex_core::IndexTools {
                pdf_reader: Some(&docindex_pdf::PdfiumReader),
                ..Default::default()
            },
        )
        .unwrap();
        store.replace(&doc).unwrap();
        let back = store.get(&doc.doc_id).unwrap().unwrap();
        assert_eq!(back.format, doc.format);
        assert_eq!(back.nodes, doc.nodes);
        assert_eq!(back.chunks, doc.chunks);
        assert_eq!(back.pages, doc.pages);
        assert_eq!(back.images, doc.images);
        assert_eq!(back.warnings, doc.warnings);
        assert!(back.nodes.iter().all(|n| n.start_page.is_some()));
        let listed = store.list().unwrap();
        let summary = listed.iter().find(|d| d.doc_id == doc.doc_id).unwrap();
        assert_eq!(summary.page_count, doc.pages.len());
    }
}

#[test]
fn a_document_stored_before_section_types_gets_them_when_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    let mut store = SqliteStore::open(&path).unwrap();
    let doc = indexed("apple_10-Q_Q3FY2023_0000320193-23-000077.html");
    assert!(doc.nodes.iter().any(|n| n.financial.is_some()));
    store.replace(&doc).unwrap();
    drop(store);
    // What a schema-5 library holds after the migration.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute("UPDATE nodes SET financial_json = 'unset'", [])
        .unwrap();
    let store = SqliteStore::open(&path).unwrap();
    let back = store.get(&doc.doc_id).unwrap().unwrap();
    assert_eq!(back.nodes, doc.nodes);
}

#[test]
fn many_openers_of_a_new_library_all_open_it_at_the_current_schema() {
    // The desktop app, the CLI and the MCP server may first open a library together: every
    // opener must find it created and migrated once, whoever came first.
    for trial in 0..40 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lib.sqlite");
        let start = std::sync::Arc::new(std::sync::Barrier::new(8));
        let openers: Vec<_> = (0..8)
            .map(|_| {
                let (path, start) = (path.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    SqliteStore::open(&path).and_then(|s| s.schema_version())
                })
            })
            .collect();
        let versions: Vec<_> = openers.into_iter().map(|t| t.join().unwrap()).collect();
        let reopened = SqliteStore::open(&path).unwrap().schema_version().unwrap();
        for version in versions {
            assert_eq!(version.unwrap(), reopened, "trial {trial}");
        }
    }
}
