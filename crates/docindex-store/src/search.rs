//! What search reads: BM25 over chunks and node titles, parents, the dictionary and the
//! stored embeddings, each within an optional document scope.

use crate::{Result, SqliteStore, StoreError};
use docindex_core::vectors::VectorSet;
use rusqlite::params;

/// A lexical match: a chunk (with its node) or a node by title and summary.
#[derive(Debug, Clone, PartialEq)]
pub struct LexicalHit {
    pub doc_id: String,
    pub chunk_index: Option<usize>,
    pub node_id: String,
    /// Higher is better (negated BM25).
    pub score: f64,
    /// The node's title (title leg only).
    pub title: Option<String>,
}

/// A hit's section title and best passage, and its document's name.
#[derive(Debug, Clone, PartialEq)]
pub struct HitIdentity {
    pub doc_name: String,
    pub title: String,
    pub passage: String,
}

/// A chunk's stored embedding.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredVector {
    pub doc_id: String,
    pub chunk_index: usize,
    pub node_id: String,
    pub vector: Vec<f32>,
}

/// Scopes of at most this many documents are ranked document by document, each within its
/// rowid range: FTS5 seeks to those rows instead of walking every match in the library and
/// joining it to its document (a 10-K in a library of 10,000 filings: 20 ms, not 430).
const SEEK_SCOPE_DOCUMENTS: usize = 32;

/// How a scope's rows are ranked document by document: the table whose rowids the FTS5
/// table's rows take, and the ranking statement (`?1` the expression, `?2` the limit, `?3`
/// and `?4` the rowid range, `?5` the document).
struct RankedByRowids {
    rowids: &'static str,
    sql: &'static str,
}

/// An FTS5 table whose term counts are stored.
struct Counted {
    source: &'static str,
    /// Its `fts5vocab` table of rows per term.
    vocabulary: &'static str,
    /// Its per-row token counts.
    sizes: &'static str,
    /// The table whose rowids its rows take (they only grow while nothing is removed).
    rowids: &'static str,
    /// Its columns, and its rows past a rowid with them, for counting what was added.
    columns: &'static str,
    rows_past: &'static str,
}

const COUNTED: [Counted; 2] = [
    Counted {
        source: "chunks",
        vocabulary: "chunks_vocab",
        sizes: "chunks_fts_docsize",
        rowids: "chunks",
        columns: "text, context",
        rows_past: "SELECT rowid, text, context FROM chunks WHERE rowid > ?1",
    },
    Counted {
        source: "nodes",
        vocabulary: "nodes_vocab",
        sizes: "nodes_fts_docsize",
        rowids: "node_search",
        columns: "title, summary",
        rows_past: "SELECT rowid, title, summary FROM nodes_fts WHERE rowid > ?1",
    },
];

/// Counts every row of `table` again; its rows' lengths, stored.
fn count_all(tx: &rusqlite::Transaction, table: &Counted) -> rusqlite::Result<Vec<u8>> {
    tx.execute("DELETE FROM term_counts WHERE source = ?1", [table.source])?;
    tx.execute(
        &format!(
            "INSERT INTO term_counts (source, term, holding)
             SELECT ?1, term, doc FROM {}",
            table.vocabulary
        ),
        [table.source],
    )?;
    let mut stmt = tx.prepare(&format!("SELECT id, sz FROM {}", table.sizes))?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?)))?;
    Ok(crate::rank::row_lengths(
        rows.collect::<std::result::Result<Vec<_>, _>>()?,
    ))
}

/// Adds the terms of `table`'s rows past `last_rowid` (the ones added since the stored
/// counts were taken) to them: the rows are indexed again in a temporary FTS5 table with
/// the same tokenizer, whose vocabulary then says how many of them hold each term. The
/// stored lengths with theirs added.
fn count_added(
    tx: &rusqlite::Transaction,
    table: &Counted,
    last_rowid: i64,
) -> rusqlite::Result<Vec<u8>> {
    tx.execute_batch(&format!(
        "DROP TABLE IF EXISTS temp.added_vocab;
         DROP TABLE IF EXISTS temp.added_rows;
         CREATE VIRTUAL TABLE temp.added_rows USING fts5({}, tokenize='porter unicode61');
         CREATE VIRTUAL TABLE temp.added_vocab USING fts5vocab(temp, added_rows, row);",
        table.columns
    ))?;
    tx.execute(
        &format!(
            "INSERT INTO temp.added_rows (rowid, {}) {}",
            table.columns, table.rows_past
        ),
        [last_rowid],
    )?;
    tx.execute(
        "INSERT INTO term_counts (source, term, holding)
         SELECT ?1, term, doc FROM temp.added_vocab WHERE true
         ON CONFLICT (source, term) DO UPDATE SET holding = holding + excluded.holding",
        [table.source],
    )?;
    tx.execute_batch("DROP TABLE temp.added_vocab; DROP TABLE temp.added_rows;")?;
    let kept: Vec<u8> = tx.query_row(
        "SELECT lengths FROM term_counts_state WHERE source = ?1",
        [table.source],
        |r| r.get(0),
    )?;
    let mut stmt = tx.prepare(&format!("SELECT id, sz FROM {} WHERE id > ?1", table.sizes))?;
    let rows = stmt.query_map([last_rowid], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
    })?;
    Ok(crate::rank::with_row_lengths(
        crate::rank::lengths_from_bytes(&kept),
        rows.collect::<std::result::Result<Vec<_>, _>>()?,
    ))
}

/// The library's generation when `source`'s term counts were taken, and now.
fn term_count_generations(
    conn: &rusqlite::Connection,
    source: &str,
) -> rusqlite::Result<(i64, i64)> {
    conn.query_row(
        "SELECT s.generation, g.generation FROM term_counts_state s, search_generation g
         WHERE s.source = ?1",
        [source],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// A passage hit from a row (doc id, chunk index, node id, `bm25` score).
fn chunk_hit(r: &rusqlite::Row) -> rusqlite::Result<LexicalHit> {
    Ok(LexicalHit {
        doc_id: r.get(0)?,
        chunk_index: Some(r.get::<_, i64>(1)? as usize),
        node_id: r.get(2)?,
        score: -r.get::<_, f64>(3)?,
        title: None,
    })
}

/// A document scope as a JSON array for `json_each`, or NULL for the whole library.
fn scope_json(doc_ids: Option<&[String]>) -> Option<String> {
    doc_ids.map(|ids| serde_json::Value::from(ids.to_vec()).to_string())
}

impl SqliteStore {
    /// Chunks matching an FTS5 expression, best first (BM25 over chunk text and its context
    /// line), within `doc_ids` when given.
    pub fn bm25_chunks(
        &self,
        fts_query: &str,
        doc_ids: Option<&[String]>,
        limit: usize,
    ) -> Result<Vec<LexicalHit>> {
        self.use_current_term_counts("chunks")?;
        if let Some(ids) = doc_ids.filter(|ids| ids.len() <= SEEK_SCOPE_DOCUMENTS) {
            let ranked = RankedByRowids {
                rowids: "chunks",
                sql: "SELECT c.doc_id, c.chunk_index, c.node_id, docindex_bm25(chunks_fts, 1.0, 0.5) AS score
                      FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
                      WHERE chunks_fts MATCH ?1 AND chunks_fts.rowid BETWEEN ?3 AND ?4
                        AND c.doc_id = ?5
                      ORDER BY score LIMIT ?2",
            };
            return self.each_document_by_rowids(ids, &ranked, fts_query, limit, chunk_hit);
        }
        // Over the whole library the best rows are ranked inside FTS5 and only they are
        // joined to their chunks; within a scope every match must be joined to be kept.
        // `docindex_bm25` is `bm25` reading stored term counts (`rank.rs`).
        let mut stmt = self.conn.prepare_cached(if doc_ids.is_none() {
            "SELECT c.doc_id, c.chunk_index, c.node_id, f.score FROM
               (SELECT rowid, docindex_bm25(chunks_fts, 1.0, 0.5) AS score FROM chunks_fts
                WHERE chunks_fts MATCH ?1 ORDER BY score LIMIT ?2) f
             JOIN chunks c ON c.rowid = f.rowid
             WHERE ?3 IS NULL
             ORDER BY f.score"
        } else {
            "SELECT c.doc_id, c.chunk_index, c.node_id, docindex_bm25(chunks_fts, 1.0, 0.5) AS score
             FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
             WHERE chunks_fts MATCH ?1
               AND (?3 IS NULL OR c.doc_id IN (SELECT value FROM json_each(?3)))
             ORDER BY score LIMIT ?2"
        })?;
        let scope = scope_json(doc_ids);
        let rows = stmt.query_map(params![fts_query, limit as i64, scope], chunk_hit)?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// As [`Self::bm25_chunks`] over the whole library, for the chunks whose rowids lie in
    /// `rows` only. The scores use the whole library's statistics whatever the range, so
    /// the best of each part, merged, are the best of all: a search ranks two parts on
    /// two connections at once.
    pub fn bm25_chunks_in_rows(
        &self,
        fts_query: &str,
        rows: std::ops::RangeInclusive<i64>,
        limit: usize,
    ) -> Result<Vec<LexicalHit>> {
        self.use_current_term_counts("chunks")?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.doc_id, c.chunk_index, c.node_id, f.score FROM
               (SELECT rowid, docindex_bm25(chunks_fts, 1.0, 0.5) AS score FROM chunks_fts
                WHERE chunks_fts MATCH ?1 AND rowid BETWEEN ?3 AND ?4
                ORDER BY score LIMIT ?2) f
             JOIN chunks c ON c.rowid = f.rowid
             ORDER BY f.score",
        )?;
        let rows = stmt.query_map(
            params![fts_query, limit as i64, rows.start(), rows.end()],
            chunk_hit,
        )?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// The largest chunk rowid (0 in an empty library).
    pub fn last_chunk_rowid(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT coalesce(max(rowid), 0) FROM chunks", [], |r| {
                r.get(0)
            })?)
    }

    /// Count again how many passages and how many titles hold each term, unless the stored
    /// counts are current; returns whether it counted. Run when an indexing batch ends:
    /// about 2 s per 1,000 filings (6 s at 10,000), which every later library-wide search
    /// saves tens of milliseconds of. When rows were only added since the last count, only
    /// theirs are counted and added (migration 15).
    pub fn refresh_term_counts(&mut self) -> Result<bool> {
        let path = self.path.clone();
        self.refresh_term_counts_unclassified()
            .map_err(|e| e.at(&path))
    }

    fn refresh_term_counts_unclassified(&mut self) -> Result<bool> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut counted_any = false;
        let removals: i64 =
            tx.query_row("SELECT generation FROM search_removals", [], |r| r.get(0))?;
        for table in &COUNTED {
            let source = table.source;
            let (counted, now) = term_count_generations(&tx, source)?;
            if counted == now {
                continue;
            }
            let (removals_then, last_rowid): (i64, i64) = tx.query_row(
                "SELECT removals, last_rowid FROM term_counts_state WHERE source = ?1",
                [source],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let newest: i64 = tx.query_row(
                &format!("SELECT coalesce(max(rowid), 0) FROM {}", table.rowids),
                [],
                |r| r.get(0),
            )?;
            let lengths = if removals_then == removals && last_rowid >= 0 && counted >= 0 {
                count_added(&tx, table, last_rowid)?
            } else {
                count_all(&tx, table)?
            };
            tx.execute(
                "UPDATE term_counts_state SET generation = ?1, lengths = ?2, removals = ?3,
                 last_rowid = ?4 WHERE source = ?5",
                params![now, lengths, removals, newest, source],
            )?;
            counted_any = true;
        }
        tx.commit()?;
        Ok(counted_any)
    }

    /// Whether the stored term counts match the library (library-wide search then reads
    /// them instead of counting).
    pub fn term_counts_current(&self) -> Result<bool> {
        for table in &COUNTED {
            let (counted, now) = term_count_generations(&self.conn, table.source)?;
            if counted != now {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Hand a ranking function its table's stored term counts when they match the library,
    /// read once per generation; otherwise none, so it counts as FTS5 does.
    fn use_current_term_counts(&self, source: &str) -> Result<()> {
        let slot = if source == "nodes" {
            &self.title_counts
        } else {
            &self.chunk_counts
        };
        let (counted, now) = term_count_generations(&self.conn, source)?;
        let current = counted == now;
        let kept = slot
            .read()
            .map(|slot| slot.as_ref().map(|c| c.generation))
            .unwrap_or(None);
        if current && kept == Some(now) || !current && kept.is_none() {
            return Ok(());
        }
        let loaded = if current {
            let mut stmt = self
                .conn
                .prepare_cached("SELECT term, holding FROM term_counts WHERE source = ?1")?;
            let rows = stmt.query_map([source], |r| {
                Ok((r.get_ref(0)?.as_bytes()?.to_vec(), r.get::<_, i64>(1)?))
            })?;
            let rows = rows.collect::<std::result::Result<_, _>>()?;
            let lengths: Vec<u8> = self.conn.query_row(
                "SELECT lengths FROM term_counts_state WHERE source = ?1",
                [source],
                |r| r.get(0),
            )?;
            Some(std::sync::Arc::new(crate::rank::TermCounts {
                generation: now,
                rows,
                lengths: crate::rank::lengths_from_bytes(&lengths),
                phrases: Default::default(),
            }))
        } else {
            None
        };
        match slot.write() {
            Ok(mut slot) => *slot = loaded,
            Err(poisoned) => *poisoned.into_inner() = loaded,
        }
        Ok(())
    }

    /// Nodes whose title or summary match, best first.
    pub fn bm25_nodes(
        &self,
        fts_query: &str,
        doc_ids: Option<&[String]>,
        limit: usize,
    ) -> Result<Vec<LexicalHit>> {
        self.use_current_term_counts("nodes")?;
        let title_hit = |r: &rusqlite::Row| {
            Ok(LexicalHit {
                doc_id: r.get(0)?,
                chunk_index: None,
                node_id: r.get(1)?,
                score: -r.get::<_, f64>(2)?,
                title: Some(r.get(3)?),
            })
        };
        if let Some(ids) = doc_ids.filter(|ids| ids.len() <= SEEK_SCOPE_DOCUMENTS) {
            let ranked = RankedByRowids {
                rowids: "node_search",
                sql: "SELECT s.doc_id, s.node_id, docindex_bm25_titles(nodes_fts, 2.0, 0.5) AS score, nodes_fts.title
                      FROM nodes_fts JOIN node_search s ON s.rowid = nodes_fts.rowid
                      WHERE nodes_fts MATCH ?1 AND nodes_fts.rowid BETWEEN ?3 AND ?4
                        AND s.doc_id = ?5
                      ORDER BY score LIMIT ?2",
            };
            return self.each_document_by_rowids(ids, &ranked, fts_query, limit, title_hit);
        }
        // `docindex_bm25_titles` is `bm25` reading stored term counts (`rank.rs`).
        let mut stmt = self.conn.prepare_cached(if doc_ids.is_none() {
            // The titles of the best rows only: a title selected beside the score is read
            // for every match before the sort keeps `limit` of them.
            "SELECT s.doc_id, s.node_id, f.score, t.title FROM
               (SELECT rowid, docindex_bm25_titles(nodes_fts, 2.0, 0.5) AS score FROM nodes_fts
                WHERE nodes_fts MATCH ?1 ORDER BY score LIMIT ?2) f
             JOIN node_search s ON s.rowid = f.rowid
             JOIN nodes_fts t ON t.rowid = f.rowid
             WHERE ?3 IS NULL
             ORDER BY f.score"
        } else {
            "SELECT s.doc_id, s.node_id, docindex_bm25_titles(nodes_fts, 2.0, 0.5) AS score, nodes_fts.title
             FROM nodes_fts JOIN node_search s ON s.rowid = nodes_fts.rowid
             WHERE nodes_fts MATCH ?1
               AND (?3 IS NULL OR s.doc_id IN (SELECT value FROM json_each(?3)))
             ORDER BY score LIMIT ?2"
        })?;
        let scope = scope_json(doc_ids);
        let rows = stmt.query_map(params![fts_query, limit as i64, scope], title_hit)?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// The best `limit` hits of `ranked` for `fts_query` in each of `ids`, each ranked
    /// within the document's rowid range (its first and last rowid), best first. A
    /// document's rows are written in one transaction, so its range is its rows alone; the
    /// statement keeps to the document all the same.
    fn each_document_by_rowids(
        &self,
        ids: &[String],
        ranked: &RankedByRowids,
        fts_query: &str,
        limit: usize,
        hit: impl Fn(&rusqlite::Row) -> rusqlite::Result<LexicalHit>,
    ) -> Result<Vec<LexicalHit>> {
        let mut range_of = self.conn.prepare_cached(&format!(
            "SELECT min(rowid), max(rowid) FROM {} WHERE doc_id = ?1",
            ranked.rowids
        ))?;
        let mut rank = self.conn.prepare_cached(ranked.sql)?;
        let mut hits = Vec::new();
        for id in ids {
            let range: (Option<i64>, Option<i64>) =
                range_of.query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            if let (Some(first), Some(last)) = range {
                let rows =
                    rank.query_map(params![fts_query, limit as i64, first, last, id], &hit)?;
                hits.extend(rows.collect::<std::result::Result<Vec<_>, _>>()?);
            }
        }
        if ids.len() > 1 {
            hits.sort_by(|a, b| b.score.total_cmp(&a.score));
            hits.truncate(limit);
        }
        Ok(hits)
    }

    /// The parent of each of these (doc_id, node_id) nodes and of their ancestors, found by
    /// key: a search touching hundreds of documents reads only the chains it needs.
    pub fn ancestors(
        &self,
        nodes: &[(String, String)],
    ) -> Result<std::collections::HashMap<(String, String), String>> {
        let pairs = node_keys_json(nodes);
        let mut stmt = self.conn.prepare_cached(
            "WITH RECURSIVE up(doc_id, node_id, parent_id) AS (
                 SELECT n.doc_id, n.node_id, n.parent_id FROM json_each(?1) j
                 JOIN nodes n ON n.doc_id = json_extract(j.value, '$[0]')
                             AND n.node_id = json_extract(j.value, '$[1]')
                 WHERE n.parent_id IS NOT NULL
                 UNION
                 SELECT p.doc_id, p.node_id, p.parent_id FROM up
                 JOIN nodes p ON p.doc_id = up.doc_id AND p.node_id = up.parent_id
                 WHERE p.parent_id IS NOT NULL)
             SELECT doc_id, node_id, parent_id FROM up",
        )?;
        keyed_by_node(&mut stmt, &pairs)
    }

    /// The title of each of `nodes` (doc id, node id) that exists.
    pub fn node_titles(
        &self,
        nodes: &[(String, String)],
    ) -> Result<std::collections::HashMap<(String, String), String>> {
        let pairs = node_keys_json(nodes);
        let mut stmt = self.conn.prepare_cached(
            "SELECT n.doc_id, n.node_id, n.title FROM json_each(?1) j
             JOIN nodes n ON n.doc_id = json_extract(j.value, '$[0]')
                         AND n.node_id = json_extract(j.value, '$[1]')",
        )?;
        keyed_by_node(&mut stmt, &pairs)
    }

    /// The id of every document in the library.
    pub fn doc_ids(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare_cached("SELECT doc_id FROM documents")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<std::result::Result<Vec<String>, _>>()?)
    }

    /// Changes whenever the library's contents may have: another connection committed
    /// (SQLite's `data_version`) or this one changed rows. Cheap enough to ask per search, so
    /// what is read of the whole library can be kept until it changes.
    pub fn change_stamp(&self) -> Result<(i64, u64)> {
        let version: i64 = self
            .conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))?;
        Ok((version, self.conn.total_changes()))
    }

    /// Terms and definitions of the dictionaries of `doc_ids` (all documents when `None`).
    pub fn dictionary_pairs(&self, doc_ids: Option<&[String]>) -> Result<Vec<(String, String)>> {
        // Two statements, not `?1 IS NULL OR …`: with the OR, SQLite cannot use the
        // document index and reads the whole library's dictionary for one document (370 ms
        // at 10,000 filings).
        let mut stmt = self.conn.prepare_cached(if doc_ids.is_none() {
            "SELECT DISTINCT term, definition FROM dictionary WHERE ?1 IS NULL"
        } else {
            "SELECT DISTINCT term, definition FROM dictionary
             WHERE doc_id IN (SELECT value FROM json_each(?1))"
        })?;
        let rows = stmt.query_map(params![scope_json(doc_ids)], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// A cheap fingerprint of the stored vectors (and of the vector sets a shared store
    /// holds): a generation every insert or delete bumps.
    pub fn vector_count(&self) -> Result<i64> {
        Ok(self.conn.query_row(
            "SELECT generation FROM vector_generation WHERE id = 1",
            [],
            |r| r.get(0),
        )?)
    }

    /// How many times stored vectors were removed (a document removed or indexed again, a
    /// model retired): while it stands, the vectors a dense index file holds are all still
    /// stored as they were.
    pub fn vector_removals(&self) -> Result<i64> {
        Ok(self.conn.query_row(
            "SELECT generation FROM vector_removals WHERE id = 1",
            [],
            |r| r.get(0),
        )?)
    }

    /// Documents with vectors for `model`, by id.
    pub fn docs_with_vectors(&self, model: &str) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare(
            "SELECT d.doc_id FROM documents d
             WHERE EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.doc_id = d.doc_id AND v.model = ?1)
             ORDER BY d.doc_id",
        )?;
        let rows = stmt.query_map(params![model], |r| r.get(0))?;
        Ok(rows.collect::<std::result::Result<Vec<String>, _>>()?)
    }

    /// Documents with chunks but no vectors for `model` yet.
    pub fn docs_without_vectors(&self, model: &str) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare(
            "SELECT d.doc_id FROM documents d
             WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.doc_id = d.doc_id)
               AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.doc_id = d.doc_id AND v.model = ?1)
             ORDER BY d.doc_name",
        )?;
        let rows = stmt.query_map(params![model], |r| r.get(0))?;
        Ok(rows.collect::<std::result::Result<Vec<String>, _>>()?)
    }

    /// Documents with chunks whose vectors for `model` the store at `store` is not known
    /// to hold.
    pub fn docs_without_vector_set(&self, store: &str, model: &str) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare(
            "SELECT d.doc_id FROM documents d
             WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.doc_id = d.doc_id)
               AND NOT EXISTS (SELECT 1 FROM vector_sets v
                               WHERE v.doc_id = d.doc_id AND v.store = ?1 AND v.model = ?2)
             ORDER BY d.doc_name",
        )?;
        let rows = stmt.query_map(params![store, model], |r| r.get(0))?;
        Ok(rows.collect::<std::result::Result<Vec<String>, _>>()?)
    }

    /// The layouts (and their chunk counts) the store at `store` holds for `model`, of the
    /// documents in `doc_ids`.
    pub fn vector_sets(
        &self,
        store: &str,
        model: &str,
        doc_ids: &[String],
    ) -> Result<Vec<(VectorSet, usize)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT doc_id, layout, chunks FROM vector_sets
             WHERE store = ?1 AND model = ?2 AND doc_id IN (SELECT value FROM json_each(?3))
             ORDER BY doc_id",
        )?;
        let rows = stmt.query_map(params![store, model, scope_json(Some(doc_ids))], |r| {
            Ok((
                VectorSet {
                    doc_id: r.get(0)?,
                    layout: r.get(1)?,
                },
                r.get::<_, i64>(2)? as usize,
            ))
        })?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// Every stored vector of `model` with its chunk's node, for the documents in `doc_ids`
    /// (all when `None`).
    pub fn vectors(&self, model: &str, doc_ids: Option<&[String]>) -> Result<Vec<StoredVector>> {
        let mut out = Vec::new();
        self.for_each_vector(model, doc_ids, &mut |v| out.push(v))?;
        Ok(out)
    }

    /// Each stored vector of `model` in turn, without holding them all.
    /// What tells a hit's copies apart: the title of node `node_id` and the text of its
    /// chunk `chunk_index`, with the document's name; `None` when either is gone.
    pub fn hit_identity(
        &self,
        doc_id: &str,
        node_id: &str,
        chunk_index: usize,
    ) -> Result<Option<HitIdentity>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT d.doc_name, n.title, c.text FROM documents d
             JOIN nodes n ON n.doc_id = d.doc_id AND n.node_id = ?2
             JOIN chunks c ON c.doc_id = d.doc_id AND c.chunk_index = ?3
             WHERE d.doc_id = ?1",
        )?;
        let mut rows = stmt.query(params![doc_id, node_id, chunk_index as i64])?;
        Ok(match rows.next()? {
            Some(r) => Some(HitIdentity {
                doc_name: r.get(0)?,
                title: r.get(1)?,
                passage: r.get(2)?,
            }),
            None => None,
        })
    }

    /// Runs `read` on one snapshot of the library: what another process commits meanwhile
    /// is not seen. Reads that must agree (the vector generation and the vectors it stamps
    /// a dense index file with) go through here.
    pub fn in_snapshot<T>(&self, read: impl FnOnce() -> Result<T>) -> Result<T> {
        if !self.conn.is_autocommit() {
            return read();
        }
        let snapshot = self.conn.unchecked_transaction()?;
        let out = read();
        // Nothing was written: ending the read transaction only lets go of the snapshot.
        snapshot.rollback()?;
        out
    }

    pub fn for_each_vector(
        &self,
        model: &str,
        doc_ids: Option<&[String]>,
        each: &mut dyn FnMut(StoredVector),
    ) -> Result<()> {
        // Two statements, as in `dictionary_pairs`: the OR kept SQLite from the key's index.
        let mut stmt = self.conn.prepare_cached(if doc_ids.is_none() {
            "SELECT v.doc_id, v.chunk_index, c.node_id, v.vector FROM chunk_vectors v
             JOIN chunks c ON c.doc_id = v.doc_id AND c.chunk_index = v.chunk_index
             WHERE v.model = ?1 AND ?2 IS NULL
             ORDER BY v.doc_id, v.chunk_index"
        } else {
            "SELECT v.doc_id, v.chunk_index, c.node_id, v.vector FROM chunk_vectors v
             JOIN chunks c ON c.doc_id = v.doc_id AND c.chunk_index = v.chunk_index
             WHERE v.model = ?1 AND v.doc_id IN (SELECT value FROM json_each(?2))
             ORDER BY v.doc_id, v.chunk_index"
        })?;
        let mut rows = stmt.query(params![model, scope_json(doc_ids)])?;
        while let Some(r) = rows.next()? {
            each(StoredVector {
                doc_id: r.get(0)?,
                chunk_index: r.get::<_, i64>(1)? as usize,
                node_id: r.get(2)?,
                vector: docindex_core::embed::from_bytes(
                    r.get_ref(3)?
                        .as_blob()
                        .map_err(|e| StoreError::Corrupt(format!("a vector: {e}")))?,
                ),
            });
        }
        Ok(())
    }
}

/// (doc id, node id) keys as the JSON array of pairs a query reads with `json_each`.
fn node_keys_json(nodes: &[(String, String)]) -> String {
    serde_json::Value::from(
        nodes
            .iter()
            .map(|(d, n)| serde_json::json!([d, n]))
            .collect::<Vec<_>>(),
    )
    .to_string()
}

/// Rows of (doc id, node id, value) as a map keyed by node.
fn keyed_by_node(
    stmt: &mut rusqlite::CachedStatement<'_>,
    pairs: &str,
) -> Result<std::collections::HashMap<(String, String), String>> {
    let rows = stmt.query_map(params![pairs], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}
