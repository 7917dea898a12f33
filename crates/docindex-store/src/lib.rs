//! The SQLite library: documents, canonical text, nodes, chunks, cross-references and the
//! dictionary, with FTS5 over nodes and chunks. One transaction per document, WAL mode,
//! schema migrations by `user_version`.

use docindex_core::model::*;
use docindex_core::store::{DocumentStore, DocumentSummary};
use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};
use std::path::{Path, PathBuf};
use thiserror::Error;

mod cache;
pub use cache::{RedisCache, SqliteCache};

/// Errors of the store. A database we cannot open or write is a runtime fault; a stored
/// row we cannot read back is a bug (or a file written by a newer version).
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("cannot open the library at {path}: {source}")]
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("the library at {path} was written by a newer DocumentIndex (schema {found}, this build knows {known})")]
    TooNew {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Each entry upgrades the schema by one version; never edit a released entry.
const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE documents (
    doc_id TEXT PRIMARY KEY,
    doc_name TEXT NOT NULL UNIQUE,
    doc_type TEXT NOT NULL,
    format TEXT NOT NULL,
    source_sha256 TEXT NOT NULL,
    encoding TEXT NOT NULL,
    description TEXT,
    metadata_json TEXT NOT NULL,
    company_name TEXT,
    ticker TEXT,
    fiscal_year INTEGER,
    period_end_date TEXT,
    settings_key TEXT NOT NULL,
    char_count INTEGER NOT NULL,
    node_count INTEGER NOT NULL,
    indexed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);
CREATE TABLE document_text (
    doc_id TEXT PRIMARY KEY REFERENCES documents(doc_id) ON DELETE CASCADE,
    text TEXT NOT NULL
);
CREATE TABLE nodes (
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    node_id TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    parent_id TEXT,
    level INTEGER NOT NULL,
    title TEXT NOT NULL,
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL,
    token_count INTEGER NOT NULL,
    summary TEXT NOT NULL,
    summary_engine TEXT NOT NULL,
    origin TEXT NOT NULL,
    PRIMARY KEY (doc_id, node_id)
);
CREATE TABLE chunks (
    rowid INTEGER PRIMARY KEY,
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    chunk_index INTEGER NOT NULL,
    node_id TEXT NOT NULL,
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL,
    token_count INTEGER NOT NULL,
    context TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX chunks_doc ON chunks(doc_id, chunk_index);
CREATE TABLE cross_refs (
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    source_node_id TEXT NOT NULL,
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL,
    target TEXT NOT NULL,
    target_node_id TEXT
);
CREATE INDEX cross_refs_doc ON cross_refs(doc_id);
CREATE TABLE dictionary (
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    term TEXT NOT NULL,
    definition TEXT NOT NULL,
    kind TEXT NOT NULL,
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL,
    node_id TEXT
);
CREATE INDEX dictionary_doc ON dictionary(doc_id);
CREATE TABLE links (
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    href TEXT NOT NULL,
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL,
    target_char INTEGER
);
CREATE INDEX links_doc ON links(doc_id);
CREATE VIRTUAL TABLE chunks_fts USING fts5(text, context, content='chunks', content_rowid='rowid', tokenize='porter unicode61');
CREATE TABLE node_search (
    rowid INTEGER PRIMARY KEY,
    doc_id TEXT NOT NULL,
    node_id TEXT NOT NULL
);
CREATE INDEX node_search_doc ON node_search(doc_id);
CREATE VIRTUAL TABLE nodes_fts USING fts5(title, summary, tokenize='porter unicode61');
"#,
    r#"
ALTER TABLE nodes ADD COLUMN start_page INTEGER;
ALTER TABLE nodes ADD COLUMN end_page INTEGER;
ALTER TABLE chunks ADD COLUMN start_page INTEGER;
ALTER TABLE chunks ADD COLUMN end_page INTEGER;
ALTER TABLE documents ADD COLUMN page_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE documents ADD COLUMN warnings_json TEXT NOT NULL DEFAULT '[]';
CREATE TABLE pages (
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    page INTEGER NOT NULL,
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL,
    label TEXT,
    furniture_json TEXT NOT NULL,
    has_text INTEGER NOT NULL,
    PRIMARY KEY (doc_id, page)
);
CREATE TABLE images (
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    page INTEGER NOT NULL,
    left REAL NOT NULL,
    bottom REAL NOT NULL,
    right REAL NOT NULL,
    top REAL NOT NULL,
    at_char INTEGER NOT NULL,
    node_id TEXT,
    caption TEXT
);
CREATE INDEX images_doc ON images(doc_id);
"#,
    r#"
ALTER TABLE documents ADD COLUMN enhancement_json TEXT;
CREATE TABLE cache (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX cache_expiry ON cache(expires_at);
"#,
    r#"
CREATE TABLE chunk_vectors (
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    chunk_index INTEGER NOT NULL,
    model TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (doc_id, chunk_index, model)
);
"#,
    r#"
CREATE TABLE saved (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    json TEXT NOT NULL
);
"#,
    // Section types (statements with their periods, notes, MD&A): JSON, or "unset" for a
    // document stored before they existed (typed when it is read).
    r#"
ALTER TABLE nodes ADD COLUMN financial_json TEXT NOT NULL DEFAULT 'unset';
"#,
    // Figures tagged with us-gaap concepts (inline XBRL), where statement rows are anchored.
    r#"
CREATE TABLE facts (
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    concept TEXT NOT NULL,
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL
);
CREATE INDEX facts_doc ON facts(doc_id);
"#,
];

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

/// A chunk's stored embedding.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredVector {
    pub doc_id: String,
    pub chunk_index: usize,
    pub node_id: String,
    pub vector: Vec<f32>,
}

/// A document scope as a JSON array for `json_each`, or NULL for the whole library.
fn scope_json(doc_ids: Option<&[String]>) -> Option<String> {
    doc_ids.map(|ids| serde_json::Value::from(ids.to_vec()).to_string())
}

/// The library on disk.
pub struct SqliteStore {
    // The cache takes the connection over, so it shares the migrations.
    conn: Connection,
    path: PathBuf,
}

fn enum_str<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn enum_from<T: serde::de::DeserializeOwned>(s: &str) -> Result<T> {
    serde_json::from_value(serde_json::Value::String(s.to_string()))
        .map_err(|_| StoreError::Corrupt(format!("unknown value '{s}'")))
}

impl SqliteStore {
    /// Open (creating if needed) the library file `path`.
    pub fn open(path: &Path) -> Result<Self> {
        let open_err = |source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        };
        let conn = Connection::open(path).map_err(open_err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(open_err)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(open_err)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(open_err)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(open_err)?;
        let mut store = SqliteStore {
            conn,
            path: path.to_path_buf(),
        };
        store.migrate()?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn migrate(&mut self) -> Result<()> {
        let version: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::TooNew {
                path: self.path.clone(),
                found: version,
                known,
            });
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(())
    }

    /// Chunks matching an FTS5 expression, best first (BM25 over chunk text and its context
    /// line), within `doc_ids` when given.
    pub fn bm25_chunks(
        &self,
        fts_query: &str,
        doc_ids: Option<&[String]>,
        limit: usize,
    ) -> Result<Vec<LexicalHit>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.doc_id, c.chunk_index, c.node_id, bm25(chunks_fts, 1.0, 0.5) AS score
             FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
             WHERE chunks_fts MATCH ?1
               AND (?3 IS NULL OR c.doc_id IN (SELECT value FROM json_each(?3)))
             ORDER BY score LIMIT ?2",
        )?;
        let scope = scope_json(doc_ids);
        let rows = stmt.query_map(params![fts_query, limit as i64, scope], |r| {
            Ok(LexicalHit {
                doc_id: r.get(0)?,
                chunk_index: Some(r.get::<_, i64>(1)? as usize),
                node_id: r.get(2)?,
                score: -r.get::<_, f64>(3)?,
                title: None,
            })
        })?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// Nodes whose title or summary match, best first.
    pub fn bm25_nodes(
        &self,
        fts_query: &str,
        doc_ids: Option<&[String]>,
        limit: usize,
    ) -> Result<Vec<LexicalHit>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT s.doc_id, s.node_id, bm25(nodes_fts, 2.0, 0.5) AS score, nodes_fts.title
             FROM nodes_fts JOIN node_search s ON s.rowid = nodes_fts.rowid
             WHERE nodes_fts MATCH ?1
               AND (?3 IS NULL OR s.doc_id IN (SELECT value FROM json_each(?3)))
             ORDER BY score LIMIT ?2",
        )?;
        let scope = scope_json(doc_ids);
        let rows = stmt.query_map(params![fts_query, limit as i64, scope], |r| {
            Ok(LexicalHit {
                doc_id: r.get(0)?,
                chunk_index: None,
                node_id: r.get(1)?,
                score: -r.get::<_, f64>(2)?,
                title: Some(r.get(3)?),
            })
        })?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// Each node's parent, for the documents in `doc_ids`: (doc_id, node_id) → parent_id.
    pub fn parents(
        &self,
        doc_ids: &[String],
    ) -> Result<std::collections::HashMap<(String, String), String>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT doc_id, node_id, parent_id FROM nodes
             WHERE parent_id IS NOT NULL AND doc_id IN (SELECT value FROM json_each(?1))",
        )?;
        let rows = stmt.query_map(params![scope_json(Some(doc_ids))], |r| {
            Ok(((r.get(0)?, r.get(1)?), r.get(2)?))
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Keep a result (an answer, a provenance report) as JSON; returns its id.
    pub fn save(&self, kind: &str, title: &str, json: &str) -> Result<i64> {
        self.conn.execute(
            "INSERT INTO saved (kind, title, json) VALUES (?1, ?2, ?3)",
            params![kind, title, json],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Saved results, newest first: (id, kind, title, created_at).
    pub fn saved_list(&self) -> Result<Vec<(i64, String, String, String)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, kind, title, created_at FROM saved ORDER BY id DESC")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// One saved result: (kind, title, created_at, json).
    pub fn saved_get(&self, id: i64) -> Result<Option<(String, String, String, String)>> {
        Ok(self
            .conn
            .query_row(
                "SELECT kind, title, created_at, json FROM saved WHERE id = ?1",
                params![id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?)
    }

    /// Terms and definitions of the dictionaries of `doc_ids` (all documents when `None`).
    pub fn dictionary_pairs(&self, doc_ids: Option<&[String]>) -> Result<Vec<(String, String)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT DISTINCT term, definition FROM dictionary
             WHERE ?1 IS NULL OR doc_id IN (SELECT value FROM json_each(?1))",
        )?;
        let rows = stmt.query_map(params![scope_json(doc_ids)], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// Store the vectors of a document's chunks for `model`, replacing any it had.
    pub fn put_vectors(&mut self, doc_id: &str, model: &str, vectors: &[Vec<f32>]) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "DELETE FROM chunk_vectors WHERE doc_id = ?1 AND model = ?2",
            params![doc_id, model],
        )?;
        {
            let mut stmt = tx.prepare(
                "INSERT INTO chunk_vectors (doc_id, chunk_index, model, vector) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (i, v) in vectors.iter().enumerate() {
                stmt.execute(params![
                    doc_id,
                    i as i64,
                    model,
                    docindex_core::embed::to_bytes(v)
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// A cheap fingerprint of the stored vectors: their count and the newest row id, so
    /// any insert or delete changes it.
    pub fn vector_count(&self) -> Result<i64> {
        let (count, newest): (i64, i64) = self.conn.query_row(
            "SELECT count(*), coalesce(max(rowid), 0) FROM chunk_vectors",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok(count.wrapping_mul(1_000_003).wrapping_add(newest))
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

    /// Every stored vector of `model` with its chunk's node, for the documents in `doc_ids`
    /// (all when `None`).
    pub fn vectors(&self, model: &str, doc_ids: Option<&[String]>) -> Result<Vec<StoredVector>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT v.doc_id, v.chunk_index, c.node_id, v.vector FROM chunk_vectors v
             JOIN chunks c ON c.doc_id = v.doc_id AND c.chunk_index = v.chunk_index
             WHERE v.model = ?1",
        )?;
        let rows = stmt.query_map(params![model], |r| {
            Ok(StoredVector {
                doc_id: r.get(0)?,
                chunk_index: r.get::<_, i64>(1)? as usize,
                node_id: r.get(2)?,
                vector: docindex_core::embed::from_bytes(&r.get::<_, Vec<u8>>(3)?),
            })
        })?;
        let mut out = Vec::new();
        for row in rows {
            let row = row?;
            if doc_ids.is_none_or(|ids| ids.contains(&row.doc_id)) {
                out.push(row);
            }
        }
        Ok(out)
    }

    /// The schema version of the open library.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    fn delete_in(tx: &Transaction, doc_id: &str) -> Result<()> {
        tx.execute(
            "INSERT INTO chunks_fts(chunks_fts, rowid, text, context) SELECT 'delete', rowid, text, context FROM chunks WHERE doc_id = ?1",
            params![doc_id],
        )?;
        tx.execute(
            "DELETE FROM nodes_fts WHERE rowid IN (SELECT rowid FROM node_search WHERE doc_id = ?1)",
            params![doc_id],
        )?;
        tx.execute("DELETE FROM node_search WHERE doc_id = ?1", params![doc_id])?;
        for table in [
            "chunks",
            "nodes",
            "cross_refs",
            "dictionary",
            "links",
            "pages",
            "images",
            "chunk_vectors",
            "document_text",
        ] {
            tx.execute(
                &format!("DELETE FROM {table} WHERE doc_id = ?1"),
                params![doc_id],
            )?;
        }
        tx.execute("DELETE FROM documents WHERE doc_id = ?1", params![doc_id])?;
        Ok(())
    }

    fn insert_in(tx: &Transaction, doc: &DocumentIndex) -> Result<()> {
        let metadata_json =
            serde_json::to_string(&doc.metadata).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        tx.execute(
            "INSERT INTO documents (doc_id, doc_name, doc_type, format, source_sha256, encoding, description, metadata_json, company_name, ticker, fiscal_year, period_end_date, settings_key, char_count, node_count, page_count, warnings_json, enhancement_json)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
            params![
                doc.doc_id,
                doc.doc_name,
                doc.doc_type.as_str(),
                enum_str(&doc.format),
                doc.source_sha256,
                doc.encoding,
                doc.description,
                metadata_json,
                doc.metadata.company_name,
                doc.metadata.ticker,
                doc.metadata.fiscal_year,
                doc.metadata.period_end_date,
                doc.settings_key,
                doc.text.chars().count() as i64,
                doc.nodes.len() as i64,
                doc.pages.len() as i64,
                serde_json::to_string(&doc.warnings)
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                doc.enhancement
                    .as_ref()
                    .map(serde_json::to_string)
                    .transpose()
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?,
            ],
        )?;
        tx.execute(
            "INSERT INTO document_text (doc_id, text) VALUES (?1, ?2)",
            params![doc.doc_id, doc.text],
        )?;
        let map = docindex_core::charmap::CharMap::new(&doc.text);
        {
            let mut node_stmt = tx.prepare(
                "INSERT INTO nodes (doc_id, node_id, ordinal, parent_id, level, title, start_char, end_char, token_count, summary, summary_engine, origin, start_page, end_page, financial_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
            )?;
            let mut search_stmt =
                tx.prepare("INSERT INTO node_search (doc_id, node_id) VALUES (?1, ?2)")?;
            let mut fts_stmt =
                tx.prepare("INSERT INTO nodes_fts (rowid, title, summary) VALUES (?1, ?2, ?3)")?;
            for (ordinal, n) in doc.nodes.iter().enumerate() {
                node_stmt.execute(params![
                    doc.doc_id,
                    n.node_id,
                    ordinal as i64,
                    n.parent_id,
                    n.level,
                    n.title,
                    n.span.start_char as i64,
                    n.span.end_char as i64,
                    n.token_count as i64,
                    n.summary,
                    enum_str(&n.summary_engine),
                    enum_str(&n.origin),
                    n.start_page,
                    n.end_page,
                    serde_json::to_string(&n.financial)
                        .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                ])?;
                search_stmt.execute(params![doc.doc_id, n.node_id])?;
                let rowid = tx.last_insert_rowid();
                fts_stmt.execute(params![rowid, n.title, n.summary])?;
            }
            let mut chunk_stmt = tx.prepare(
                "INSERT INTO chunks (doc_id, chunk_index, node_id, start_char, end_char, token_count, context, text, start_page, end_page) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?;
            let mut chunk_fts =
                tx.prepare("INSERT INTO chunks_fts (rowid, text, context) VALUES (?1, ?2, ?3)")?;
            for c in &doc.chunks {
                let text = map.slice(c.span);
                chunk_stmt.execute(params![
                    doc.doc_id,
                    c.chunk_index as i64,
                    c.node_id,
                    c.span.start_char as i64,
                    c.span.end_char as i64,
                    c.token_count as i64,
                    c.context,
                    text,
                    c.start_page,
                    c.end_page,
                ])?;
                chunk_fts.execute(params![tx.last_insert_rowid(), text, c.context])?;
            }
            let mut xref_stmt = tx.prepare(
                "INSERT INTO cross_refs (doc_id, kind, source_node_id, start_char, end_char, target, target_node_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for r in &doc.cross_refs {
                xref_stmt.execute(params![
                    doc.doc_id,
                    enum_str(&r.kind),
                    r.source_node_id,
                    r.span.start_char as i64,
                    r.span.end_char as i64,
                    r.target,
                    r.target_node_id,
                ])?;
            }
            let mut dict_stmt = tx.prepare(
                "INSERT INTO dictionary (doc_id, term, definition, kind, start_char, end_char, node_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for d in &doc.dictionary {
                dict_stmt.execute(params![
                    doc.doc_id,
                    d.term,
                    d.definition,
                    enum_str(&d.kind),
                    d.span.start_char as i64,
                    d.span.end_char as i64,
                    d.node_id,
                ])?;
            }
            let mut link_stmt = tx.prepare("INSERT INTO links (doc_id, href, start_char, end_char, target_char) VALUES (?1, ?2, ?3, ?4, ?5)")?;
            for l in &doc.links {
                link_stmt.execute(params![
                    doc.doc_id,
                    l.href,
                    l.span.start_char as i64,
                    l.span.end_char as i64,
                    l.target_char.map(|c| c as i64),
                ])?;
            }
            let mut page_stmt = tx.prepare("INSERT INTO pages (doc_id, page, start_char, end_char, label, furniture_json, has_text) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?;
            for p in &doc.pages {
                page_stmt.execute(params![
                    doc.doc_id,
                    p.page,
                    p.span.start_char as i64,
                    p.span.end_char as i64,
                    p.label,
                    serde_json::to_string(&p.furniture)
                        .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                    p.has_text,
                ])?;
            }
            let mut fact_stmt = tx.prepare(
                "INSERT INTO facts (doc_id, concept, start_char, end_char) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for f in &doc.facts {
                fact_stmt.execute(params![
                    doc.doc_id,
                    f.concept,
                    f.span.start_char as i64,
                    f.span.end_char as i64,
                ])?;
            }
            let mut image_stmt = tx.prepare("INSERT INTO images (doc_id, page, left, bottom, right, top, at_char, node_id, caption) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")?;
            for i in &doc.images {
                image_stmt.execute(params![
                    doc.doc_id,
                    i.page,
                    i.bbox.left,
                    i.bbox.bottom,
                    i.bbox.right,
                    i.bbox.top,
                    i.at_char as i64,
                    i.node_id,
                    i.caption,
                ])?;
            }
        }
        Ok(())
    }

    fn load(&self, doc_id: &str) -> Result<Option<DocumentIndex>> {
        let row = self
            .conn
            .query_row(
                "SELECT d.doc_name, d.doc_type, d.format, d.source_sha256, d.encoding, d.description, d.metadata_json, d.settings_key, t.text, d.warnings_json, d.enhancement_json
                 FROM documents d JOIN document_text t ON t.doc_id = d.doc_id WHERE d.doc_id = ?1",
                params![doc_id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, Option<String>>(5)?,
                        r.get::<_, String>(6)?,
                        r.get::<_, String>(7)?,
                        r.get::<_, String>(8)?,
                        r.get::<_, String>(9)?,
                        r.get::<_, Option<String>>(10)?,
                    ))
                },
            )
            .optional()?;
        let Some((
            doc_name,
            doc_type,
            format,
            sha,
            encoding,
            description,
            metadata_json,
            settings_key,
            text,
            warnings_json,
            enhancement_json,
        )) = row
        else {
            return Ok(None);
        };
        let doc_type = DocType::parse(&doc_type)
            .ok_or_else(|| StoreError::Corrupt(format!("unknown document type '{doc_type}'")))?;
        let metadata: Metadata =
            serde_json::from_str(&metadata_json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let mut nodes: Vec<Node> = Vec::new();
        let mut unclassified = false;
        {
            let mut stmt = self.conn.prepare(
                "SELECT node_id, parent_id, level, title, start_char, end_char, token_count, summary, summary_engine, origin, start_page, end_page, financial_json FROM nodes WHERE doc_id = ?1 ORDER BY ordinal",
            )?;
            let rows = stmt.query_map(params![doc_id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, u32>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, i64>(5)?,
                    r.get::<_, i64>(6)?,
                    r.get::<_, String>(7)?,
                    r.get::<_, String>(8)?,
                    r.get::<_, String>(9)?,
                    r.get::<_, Option<u32>>(10)?,
                    r.get::<_, Option<u32>>(11)?,
                    r.get::<_, String>(12)?,
                ))
            })?;
            for row in rows {
                let (
                    node_id,
                    parent_id,
                    level,
                    title,
                    s,
                    e,
                    tokens,
                    summary,
                    engine,
                    origin,
                    start_page,
                    end_page,
                    financial_json,
                ) = row?;
                let financial = if financial_json == "unset" {
                    unclassified = true;
                    None
                } else {
                    serde_json::from_str(&financial_json)
                        .map_err(|e| StoreError::Corrupt(e.to_string()))?
                };
                nodes.push(Node {
                    node_id,
                    title,
                    level,
                    parent_id,
                    span: Span::new(s as usize, e as usize),
                    token_count: tokens as usize,
                    summary,
                    summary_engine: enum_from(&engine)?,
                    origin: enum_from(&origin)?,
                    children: Vec::new(),
                    start_page,
                    end_page,
                    financial,
                });
            }
        }
        let ids: Vec<(String, Option<String>)> = nodes
            .iter()
            .map(|n| (n.node_id.clone(), n.parent_id.clone()))
            .collect();
        for (child, parent) in ids {
            if let Some(p) = parent.and_then(|p| nodes.iter_mut().find(|n| n.node_id == p)) {
                p.children.push(child);
            }
        }
        let mut stmt = self.conn.prepare(
            "SELECT chunk_index, node_id, start_char, end_char, token_count, context, start_page, end_page FROM chunks WHERE doc_id = ?1 ORDER BY chunk_index",
        )?;
        let chunks = stmt
            .query_map(params![doc_id], |r| {
                Ok(Chunk {
                    chunk_index: r.get::<_, i64>(0)? as usize,
                    node_id: r.get(1)?,
                    span: Span::new(r.get::<_, i64>(2)? as usize, r.get::<_, i64>(3)? as usize),
                    token_count: r.get::<_, i64>(4)? as usize,
                    context: r.get(5)?,
                    start_page: r.get(6)?,
                    end_page: r.get(7)?,
                })
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut stmt = self.conn.prepare(
            "SELECT kind, source_node_id, start_char, end_char, target, target_node_id FROM cross_refs WHERE doc_id = ?1 ORDER BY start_char, end_char",
        )?;
        let raw_refs = stmt
            .query_map(params![doc_id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, Option<String>>(5)?,
                ))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut cross_refs = Vec::with_capacity(raw_refs.len());
        for (kind, source_node_id, s, e, target, target_node_id) in raw_refs {
            cross_refs.push(CrossRef {
                kind: enum_from(&kind)?,
                source_node_id,
                span: Span::new(s as usize, e as usize),
                target,
                target_node_id,
            });
        }
        let mut stmt = self.conn.prepare(
            "SELECT term, definition, kind, start_char, end_char, node_id FROM dictionary WHERE doc_id = ?1 ORDER BY start_char",
        )?;
        let raw_terms = stmt
            .query_map(params![doc_id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, Option<String>>(5)?,
                ))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut dictionary = Vec::with_capacity(raw_terms.len());
        for (term, definition, kind, s, e, node_id) in raw_terms {
            dictionary.push(DictionaryEntry {
                term,
                definition,
                kind: enum_from(&kind)?,
                span: Span::new(s as usize, e as usize),
                node_id,
            });
        }
        let mut stmt = self.conn.prepare("SELECT href, start_char, end_char, target_char FROM links WHERE doc_id = ?1 ORDER BY start_char")?;
        let links = stmt
            .query_map(params![doc_id], |r| {
                Ok(Hyperlink {
                    href: r.get(0)?,
                    span: Span::new(r.get::<_, i64>(1)? as usize, r.get::<_, i64>(2)? as usize),
                    target_char: r.get::<_, Option<i64>>(3)?.map(|c| c as usize),
                })
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut stmt = self.conn.prepare("SELECT page, start_char, end_char, label, furniture_json, has_text FROM pages WHERE doc_id = ?1 ORDER BY page")?;
        let raw_pages = stmt
            .query_map(params![doc_id], |r| {
                Ok((
                    r.get::<_, u32>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, bool>(5)?,
                ))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut pages = Vec::with_capacity(raw_pages.len());
        for (page, s, e, label, furniture, has_text) in raw_pages {
            pages.push(PageInfo {
                page,
                span: Span::new(s as usize, e as usize),
                label,
                furniture: serde_json::from_str(&furniture)
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                has_text,
            });
        }
        let mut stmt = self.conn.prepare("SELECT page, left, bottom, right, top, at_char, node_id, caption FROM images WHERE doc_id = ?1 ORDER BY rowid")?;
        let images = stmt
            .query_map(params![doc_id], |r| {
                Ok(ImageRef {
                    page: r.get(0)?,
                    bbox: Rect::new(r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?),
                    at_char: r.get::<_, i64>(5)? as usize,
                    node_id: r.get(6)?,
                    caption: r.get(7)?,
                })
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let warnings: Vec<String> =
            serde_json::from_str(&warnings_json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let facts = self
            .conn
            .prepare(
                "SELECT concept, start_char, end_char FROM facts WHERE doc_id = ?1 ORDER BY rowid",
            )?
            .query_map(params![doc_id], |r| {
                Ok(TaggedFact {
                    concept: r.get(0)?,
                    span: Span::new(r.get::<_, i64>(1)? as usize, r.get::<_, i64>(2)? as usize),
                })
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut doc = DocumentIndex {
            doc_id: doc_id.to_string(),
            doc_name,
            doc_type,
            format: enum_from(&format)?,
            source_sha256: sha,
            encoding,
            description,
            metadata,
            text,
            nodes,
            chunks,
            cross_refs,
            dictionary,
            links,
            pages,
            images,
            warnings,
            facts,
            settings_key,
            enhancement: enhancement_json
                .map(|j| serde_json::from_str(&j))
                .transpose()
                .map_err(|e| StoreError::Corrupt(e.to_string()))?,
        };
        // A document stored before section types existed gets them on reading.
        if unclassified {
            docindex_core::finance::classify_sections(&mut doc);
        }
        Ok(Some(doc))
    }
}

impl DocumentStore for SqliteStore {
    type Error = StoreError;

    fn replace(&mut self, doc: &DocumentIndex) -> Result<Vec<String>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let stale: Vec<String> = {
            let mut stmt =
                tx.prepare("SELECT doc_id FROM documents WHERE doc_id = ?1 OR doc_name = ?2")?;
            let ids = stmt
                .query_map(params![doc.doc_id, doc.doc_name], |r| r.get(0))?
                .collect::<std::result::Result<Vec<String>, _>>()?;
            ids
        };
        for id in &stale {
            Self::delete_in(&tx, id)?;
        }
        Self::insert_in(&tx, doc)?;
        tx.commit()?;
        Ok(stale)
    }

    fn get(&self, doc_id: &str) -> Result<Option<DocumentIndex>> {
        self.load(doc_id)
    }

    fn list(&self) -> Result<Vec<DocumentSummary>> {
        let mut stmt = self.conn.prepare(
            "SELECT doc_id, doc_name, doc_type, company_name, ticker, fiscal_year, period_end_date, node_count, char_count, source_sha256, settings_key, format, page_count, description FROM documents ORDER BY doc_name",
        )?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, Option<i32>>(5)?,
                    r.get::<_, Option<String>>(6)?,
                    r.get::<_, i64>(7)?,
                    r.get::<_, i64>(8)?,
                    r.get::<_, String>(9)?,
                    r.get::<_, String>(10)?,
                    r.get::<_, String>(11)?,
                    r.get::<_, i64>(12)?,
                    r.get::<_, Option<String>>(13)?,
                ))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(
                |(
                    doc_id,
                    doc_name,
                    doc_type,
                    company_name,
                    ticker,
                    fiscal_year,
                    period_end_date,
                    nodes,
                    chars,
                    sha,
                    settings_key,
                    format,
                    page_count,
                    description,
                )| {
                    Ok(DocumentSummary {
                        description,
                        doc_id,
                        doc_name,
                        doc_type: DocType::parse(&doc_type).ok_or_else(|| {
                            StoreError::Corrupt(format!("unknown document type '{doc_type}'"))
                        })?,
                        format: enum_from(&format)?,
                        page_count: page_count as usize,
                        company_name,
                        ticker,
                        fiscal_year,
                        period_end_date,
                        node_count: nodes as usize,
                        char_count: chars as usize,
                        source_sha256: sha,
                        settings_key,
                    })
                },
            )
            .collect()
    }

    fn remove(&mut self, doc_id: &str) -> Result<bool> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let exists: bool = tx
            .query_row(
                "SELECT 1 FROM documents WHERE doc_id = ?1",
                params![doc_id],
                |_| Ok(()),
            )
            .optional()?
            .is_some();
        Self::delete_in(&tx, doc_id)?;
        tx.commit()?;
        Ok(exists)
    }
}
