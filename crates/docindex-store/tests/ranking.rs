//! Library-wide BM25 with stored term counts (`docindex_bm25`) against FTS5's own `bm25()`
//! on real filings: the same scores whether the counts are current, out of date or being
//! refreshed, and the counts really are what it reads.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::indexed;
use docindex_core::store::DocumentStore;
use docindex_store::SqliteStore;
use std::collections::HashMap;
use std::path::Path;

/// Expressions as search writes them: single terms, all-terms with a NEAR group, OR
/// lists with multi-word phrases, and a word no filing has.
const QUERIES: [&str; 6] = [
    "\"revenue\"",
    "(\"operating\" AND \"lease\" AND \"liabilities\") OR NEAR(\"operating\" \"lease\" \"liabilities\", 6)",
    "\"net\" OR \"income\" OR \"per\" OR \"diluted\" OR \"share\" OR NEAR(\"net\" \"income\" \"per\" \"diluted\" \"share\", 6) OR \"net earnings\"",
    "\"auditor\" OR \"independent registered public accounting firm\"",
    "\"headcount\" OR \"employees\" OR \"workforce\" OR \"people\"",
    "\"zyxwvutsrq\" OR \"cash\"",
];

/// Every match's score by FTS5's `bm25()` (negated, as the store reports it), read on a
/// separate plain connection by `sql` (the row's key first, the score last).
fn fts5_bm25<K: std::hash::Hash + Eq>(
    path: &Path,
    sql: &str,
    query: &str,
    key: impl Fn(&rusqlite::Row) -> rusqlite::Result<K>,
) -> HashMap<K, f64> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut stmt = conn.prepare(sql).unwrap();
    stmt.query_map([query], |r| Ok((key(r)?, -r.get::<_, f64>(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

/// Every title match's score by FTS5's `bm25()`, by (document, node).
fn fts5_title_scores(path: &Path, query: &str) -> HashMap<(String, String), f64> {
    fts5_bm25(
        path,
        "SELECT s.doc_id, s.node_id, bm25(nodes_fts, 2.0, 0.5) FROM nodes_fts
         JOIN node_search s ON s.rowid = nodes_fts.rowid WHERE nodes_fts MATCH ?1",
        query,
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// Every passage match's score by FTS5's `bm25()`, by (document, chunk index).
fn fts5_scores(path: &Path, query: &str) -> HashMap<(String, usize), f64> {
    fts5_bm25(
        path,
        "SELECT c.doc_id, c.chunk_index, bm25(chunks_fts, 1.0, 0.5) FROM chunks_fts
         JOIN chunks c ON c.rowid = chunks_fts.rowid WHERE chunks_fts MATCH ?1",
        query,
        |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)),
    )
}

/// The store's ranking agrees with `bm25()` on every query: the same best rows in the
/// same order, each with the same score.
fn assert_ranks_as_fts5(store: &SqliteStore, path: &Path) {
    for query in QUERIES {
        let expected = fts5_scores(path, query);
        let hits = store.bm25_chunks(query, None, 40).unwrap();
        assert_eq!(hits.len(), expected.len().min(40), "{query}");
        let mut best: Vec<f64> = expected.values().copied().collect();
        best.sort_by(|a, b| b.total_cmp(a));
        for (hit, best) in hits.iter().zip(&best) {
            let key = (hit.doc_id.clone(), hit.chunk_index.unwrap());
            let fts5 = expected[&key];
            assert!(
                (hit.score - fts5).abs() < 1e-9,
                "{query}: {key:?} {} vs {fts5}",
                hit.score
            );
            assert!((hit.score - best).abs() < 1e-9, "{query}: out of order");
        }
        let expected = fts5_title_scores(path, query);
        let titles = store.bm25_nodes(query, None, 40).unwrap();
        assert_eq!(titles.len(), expected.len().min(40), "{query}");
        for hit in &titles {
            let fts5 = expected[&(hit.doc_id.clone(), hit.node_id.clone())];
            assert!((hit.score - fts5).abs() < 1e-9, "titles, {query}");
        }
    }
}

#[test]
fn stored_counts_rank_exactly_as_fts5_and_out_of_date_counts_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    let mut store = SqliteStore::open(&path).unwrap();
    let ten_q = indexed("apple_10-Q_Q3FY2023_0000320193-23-000077.html");
    let ten_k = indexed("tesla_10-K_FY2023_0001628280-24-002390.html");
    store.replace(&ten_q).unwrap();
    store.replace(&ten_k).unwrap();
    // Never counted: the function counts as FTS5 does.
    assert!(!store.term_counts_current().unwrap());
    assert_ranks_as_fts5(&store, &path);

    assert!(store.refresh_term_counts().unwrap());
    assert!(store.term_counts_current().unwrap());
    assert!(!store.refresh_term_counts().unwrap(), "nothing changed");
    assert_ranks_as_fts5(&store, &path);

    // A third filing makes the counts out of date: still bm25's scores.
    store
        .replace(&indexed("medicis_10-K_FY1999_0000950153-99-001234.html"))
        .unwrap();
    assert!(!store.term_counts_current().unwrap());
    assert_ranks_as_fts5(&store, &path);

    // Removing one, then counting again.
    store.remove(&ten_k.doc_id).unwrap();
    assert!(!store.term_counts_current().unwrap());
    assert!(store.refresh_term_counts().unwrap());
    assert_ranks_as_fts5(&store, &path);
}

/// A library at `path` of a 10-Q and a 10-K.
fn quarterly_and_annual(path: &Path) -> SqliteStore {
    let mut store = SqliteStore::open(path).unwrap();
    for name in [
        "apple_10-Q_Q3FY2023_0000320193-23-000077.html",
        "medicis_10-K_FY1999_0000950153-99-001234.html",
    ] {
        store.replace(&indexed(name)).unwrap();
    }
    store
}

#[test]
fn the_ranking_reads_the_stored_counts_and_lengths_while_they_are_current() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    let mut store = quarterly_and_annual(&path);
    store.refresh_term_counts().unwrap();
    let query = "\"revenue\" OR \"cash\"";
    let fair = store.bm25_chunks(query, None, 20).unwrap();

    // Tamper with the stored count of one term, leaving the generation alone: a ranking
    // that reads it scores differently from FTS5 (a new connection, so nothing is kept).
    let conn = rusqlite::Connection::open(&path).unwrap();
    let changed = conn
        .execute(
            "UPDATE term_counts SET holding = 1 WHERE source = 'chunks' AND term = 'revenu'",
            [],
        )
        .unwrap();
    assert_eq!(changed, 1, "the porter stem of 'revenue' is stored");
    let reopened = SqliteStore::open(&path).unwrap();
    let tampered = reopened.bm25_chunks(query, None, 20).unwrap();
    assert_ne!(
        fair.iter().map(|h| h.score).collect::<Vec<_>>(),
        tampered.iter().map(|h| h.score).collect::<Vec<_>>()
    );

    // The same with the stored lengths: all zero shortens every chunk.
    let zeroed: Vec<u8> = conn
        .query_row(
            "SELECT zeroblob(length(lengths)) FROM term_counts_state WHERE source = 'chunks'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    conn.execute(
        "UPDATE term_counts_state SET lengths = ?1 WHERE source = 'chunks'",
        [zeroed],
    )
    .unwrap();
    let reopened = SqliteStore::open(&path).unwrap();
    let short = reopened.bm25_chunks("\"cash\"", None, 20).unwrap();
    let expected = fts5_scores(&path, "\"cash\"");
    assert!(short
        .iter()
        .any(|h| (h.score - expected[&(h.doc_id.clone(), h.chunk_index.unwrap())]).abs() > 1e-6));
}

#[test]
fn two_halves_by_rowid_merge_into_the_whole_ranking() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    let mut store = SqliteStore::open(&path).unwrap();
    for name in [
        "apple_10-Q_Q3FY2023_0000320193-23-000077.html",
        "medicis_10-K_FY1999_0000950153-99-001234.html",
        "buckle_8-K_2024-11-22_EX-99.1_press_release.html",
    ] {
        store.replace(&indexed(name)).unwrap();
    }
    store.refresh_term_counts().unwrap();
    let middle = store.last_chunk_rowid().unwrap() / 2;
    assert!(middle > 100);
    for query in QUERIES {
        let whole = store.bm25_chunks(query, None, 30).unwrap();
        let mut merged = store.bm25_chunks_in_rows(query, 0..=middle, 30).unwrap();
        merged.extend(
            store
                .bm25_chunks_in_rows(query, middle + 1..=i64::MAX, 30)
                .unwrap(),
        );
        merged.sort_by(|a, b| b.score.total_cmp(&a.score));
        merged.truncate(30);
        let key = |hits: &[docindex_store::LexicalHit]| -> Vec<(String, usize, i64)> {
            hits.iter()
                .map(|h| {
                    (
                        h.doc_id.clone(),
                        h.chunk_index.unwrap(),
                        (h.score * 1e9).round() as i64,
                    )
                })
                .collect()
        };
        assert_eq!(key(&merged), key(&whole), "{query}");
    }
}

/// Every stored term count of `source`, and its stored row lengths, read on a plain
/// connection.
fn stored_counts(path: &Path, source: &str) -> (HashMap<String, i64>, Vec<u8>) {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut stmt = conn
        .prepare("SELECT term, holding FROM term_counts WHERE source = ?1")
        .unwrap();
    let counts = stmt
        .query_map([source], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    let lengths = conn
        .query_row(
            "SELECT lengths FROM term_counts_state WHERE source = ?1",
            [source],
            |r| r.get(0),
        )
        .unwrap();
    (counts, lengths)
}

#[test]
fn filings_added_since_the_last_count_are_counted_alone_and_add_up_to_a_whole_recount() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    let mut store = quarterly_and_annual(&path);
    assert!(store.refresh_term_counts().unwrap());
    // A mark on one stored count: a count of only the added rows keeps it, a whole
    // recount does not.
    let conn = rusqlite::Connection::open(&path).unwrap();
    let marked = conn
        .execute(
            "UPDATE term_counts SET holding = holding + 1000 WHERE source = 'chunks' AND term = 'revenu'",
            [],
        )
        .unwrap();
    assert_eq!(marked, 1);

    for name in [
        "buckle_8-K_2024-11-22_EX-99.1_press_release.html",
        "oracle_8-K_2024-11-14_item5.07.html",
    ] {
        store.replace(&indexed(name)).unwrap();
    }
    assert!(store.refresh_term_counts().unwrap());
    assert!(store.term_counts_current().unwrap());
    let added = [
        stored_counts(&path, "chunks"),
        stored_counts(&path, "nodes"),
    ];

    // Counted again whole (as a library from before migration 15 is).
    conn.execute(
        "UPDATE term_counts_state SET generation = -1, removals = -1",
        [],
    )
    .unwrap();
    let mut store = SqliteStore::open(&path).unwrap();
    assert!(store.refresh_term_counts().unwrap());
    let whole = [
        stored_counts(&path, "chunks"),
        stored_counts(&path, "nodes"),
    ];
    assert_eq!(added[1], whole[1], "titles and summaries");
    assert_eq!(added[0].1, whole[0].1, "passage lengths");
    let (mut added_chunks, mut whole_chunks) = (added[0].0.clone(), whole[0].0.clone());
    let stem = "revenu".to_string();
    assert_eq!(
        added_chunks.remove(&stem).unwrap() - whole_chunks.remove(&stem).unwrap(),
        1000,
        "only the added rows were counted"
    );
    assert!(whole_chunks.len() > 1000);
    assert_eq!(added_chunks, whole_chunks);
    assert_ranks_as_fts5(&store, &path);

    // A removal: counted whole again, and still bm25's scores.
    let buckle = indexed("buckle_8-K_2024-11-22_EX-99.1_press_release.html");
    store.remove(&buckle.doc_id).unwrap();
    assert!(store.refresh_term_counts().unwrap());
    assert_ranks_as_fts5(&store, &path);
    let recounted = stored_counts(&path, "chunks").0;
    let buckle_rows = |counts: &HashMap<String, i64>| counts.get("buckl").copied().unwrap_or(0);
    assert!(buckle_rows(&added_chunks) > 0);
    assert!(buckle_rows(&recounted) < buckle_rows(&added_chunks));
}

/// The scores of `matches` (keyed by document first), best first.
fn best_first<'a, K: 'a>(matches: impl Iterator<Item = (&'a (String, K), &'a f64)>) -> Vec<f64> {
    let mut best: Vec<f64> = matches.map(|(_, score)| *score).collect();
    best.sort_by(|a, b| b.total_cmp(a));
    best
}

#[test]
fn a_scope_of_a_few_documents_ranks_as_fts5_does_within_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    let mut store = quarterly_and_annual(&path);
    let press = indexed("buckle_8-K_2024-11-22_EX-99.1_press_release.html");
    store.replace(&press).unwrap();
    store.refresh_term_counts().unwrap();
    let ids: Vec<String> = store
        .list()
        .unwrap()
        .into_iter()
        .map(|d| d.doc_id)
        .collect();
    assert_eq!(ids.len(), 3);
    for scope in [&ids[..1], &ids[1..3], &ids[..]] {
        for query in QUERIES {
            let in_scope = |doc: &String| scope.contains(doc);
            let expected = fts5_scores(&path, query);
            let best = best_first(expected.iter().filter(|((doc, _), _)| in_scope(doc)));
            let hits = store.bm25_chunks(query, Some(scope), 25).unwrap();
            assert_eq!(hits.len(), best.len().min(25), "{query}");
            for (hit, best) in hits.iter().zip(&best) {
                assert!(in_scope(&hit.doc_id));
                let fts5 = expected[&(hit.doc_id.clone(), hit.chunk_index.unwrap())];
                assert!((hit.score - fts5).abs() < 1e-9, "{query}");
                assert!((hit.score - best).abs() < 1e-9, "{query}: out of order");
            }
            let expected = fts5_title_scores(&path, query);
            let best = best_first(expected.iter().filter(|((doc, _), _)| in_scope(doc)));
            let titles = store.bm25_nodes(query, Some(scope), 25).unwrap();
            assert_eq!(titles.len(), best.len().min(25), "titles, {query}");
            for (hit, best) in titles.iter().zip(&best) {
                assert!(in_scope(&hit.doc_id));
                assert!(
                    (hit.score - best).abs() < 1e-9,
                    "titles, {query}: out of order"
                );
            }
        }
    }
}
