//! The schema: migrations by `user_version`, each upgrading by one version.

use crate::{Result, SqliteStore, StoreError};
use rusqlite::TransactionBehavior;

/// Each entry upgrades the schema by one version; never edit a released entry.
/// The schema version this build writes.
pub(crate) fn known_version() -> i64 {
    MIGRATIONS.len() as i64
}

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
    // Which layout of a document's chunks a vector store outside the library (Chroma)
    // holds, for each embedding model: written only after the store took the vectors.
    r#"
CREATE TABLE vector_sets (
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    store TEXT NOT NULL,
    model TEXT NOT NULL,
    layout TEXT NOT NULL,
    chunks INTEGER NOT NULL,
    PRIMARY KEY (doc_id, store, model)
);
"#,
    // A counter every change to the stored vectors bumps, so a search knows in O(1)
    // whether its dense index is current (counting the rows reads every vector page).
    r#"
CREATE TABLE vector_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER NOT NULL
);
INSERT INTO vector_generation (id, generation) VALUES (1, 0);
CREATE TRIGGER chunk_vectors_added AFTER INSERT ON chunk_vectors
    BEGIN UPDATE vector_generation SET generation = generation + 1; END;
CREATE TRIGGER chunk_vectors_removed AFTER DELETE ON chunk_vectors
    BEGIN UPDATE vector_generation SET generation = generation + 1; END;
CREATE TRIGGER vector_sets_added AFTER INSERT ON vector_sets
    BEGIN UPDATE vector_generation SET generation = generation + 1; END;
CREATE TRIGGER vector_sets_removed AFTER DELETE ON vector_sets
    BEGIN UPDATE vector_generation SET generation = generation + 1; END;
"#,
    // 10: what every search reads, from indexes that hold it whole. A document's chunk
    // layout: reading it from the table dragged each chunk's text along (8 ms a 10-K in a
    // large library, 1 ms from the index), and search reads ten documents' layouts. The
    // library's distinct dictionary pairs: in order, without sorting them (17 ms at 1,000
    // filings, 6 ms).
    r#"
CREATE INDEX chunks_layout ON chunks(doc_id, chunk_index, node_id, start_char, end_char,
    token_count, start_page, end_page, context);
DROP INDEX chunks_doc;
CREATE INDEX dictionary_terms ON dictionary(term, definition);
"#,
    // 11: each vector keeps the SHA-256 of the text it embeds, so a chunk whose exact text
    // another chunk already has (boilerplate, a filing indexed again) reuses its vector.
    r#"
ALTER TABLE chunk_vectors ADD COLUMN text_hash BLOB;
CREATE INDEX chunk_vectors_by_text ON chunk_vectors(model, text_hash) WHERE text_hash IS NOT NULL;
"#,
    // 12: how many passages (and how many titles) hold each term, so library-wide BM25
    // reads a term's count instead of walking its whole doclist per query, and each row's
    // length instead of a lookup per match (`rank.rs`). The counts are rebuilt when an
    // indexing batch ends and used only while their generation is the library's own.
    r#"
CREATE TABLE search_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER NOT NULL
);
INSERT INTO search_generation (id, generation) VALUES (1, 0);
CREATE TRIGGER chunks_added AFTER INSERT ON chunks
    BEGIN UPDATE search_generation SET generation = generation + 1; END;
CREATE TRIGGER chunks_removed AFTER DELETE ON chunks
    BEGIN UPDATE search_generation SET generation = generation + 1; END;
CREATE TRIGGER chunks_changed AFTER UPDATE ON chunks
    BEGIN UPDATE search_generation SET generation = generation + 1; END;
CREATE TRIGGER node_search_added AFTER INSERT ON node_search
    BEGIN UPDATE search_generation SET generation = generation + 1; END;
CREATE TRIGGER node_search_removed AFTER DELETE ON node_search
    BEGIN UPDATE search_generation SET generation = generation + 1; END;
CREATE TRIGGER node_search_changed AFTER UPDATE ON node_search
    BEGIN UPDATE search_generation SET generation = generation + 1; END;
CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');
CREATE VIRTUAL TABLE nodes_vocab USING fts5vocab(nodes_fts, 'row');
CREATE TABLE term_counts (
    source TEXT NOT NULL,
    term TEXT NOT NULL,
    holding INTEGER NOT NULL,
    PRIMARY KEY (source, term)
) WITHOUT ROWID;
CREATE TABLE term_counts_state (
    source TEXT PRIMARY KEY,
    generation INTEGER NOT NULL,
    -- Each row's token count by rowid, two bytes each (rank.rs, row_lengths).
    lengths BLOB NOT NULL
) WITHOUT ROWID;
INSERT INTO term_counts_state (source, generation, lengths)
    VALUES ('chunks', -1, x''), ('nodes', -1, x'');
"#,
    // 13: what a search reads of nodes, from indexes that hold it whole rather than a table
    // row per node that drags its summary along. The parents of the nodes its legs touched,
    // and of theirs (`ancestors`: 7 ms for 250 nodes over 1,000 filings, 2 ms); and a hit
    // document's outline in order (`load_for_hits`: no lookup or sort per node).
    r#"
CREATE INDEX nodes_parents ON nodes(doc_id, node_id, parent_id);
CREATE INDEX nodes_layout ON nodes(doc_id, ordinal, node_id, parent_id, level, title,
    start_char, end_char, token_count, summary_engine, origin, start_page, end_page,
    financial_json);
"#,
    // 14: a counter only removals of vectors bump. While it stands, every vector a dense
    // index file holds is still stored as it was, so the file can be extended by a file of
    // the documents embedded since (`dense/added.rs`) instead of written again whole.
    r#"
CREATE TABLE vector_removals (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER NOT NULL
);
INSERT INTO vector_removals (id, generation) VALUES (1, 0);
CREATE TRIGGER chunk_vectors_removals_counted AFTER DELETE ON chunk_vectors
    BEGIN UPDATE vector_removals SET generation = generation + 1; END;
"#,
    // 15: the same for the search statistics (`term_counts`): a counter only removals and
    // changes of passages and title rows bump, and where each count stopped. While the
    // counter stands, the rows past `last_rowid` are exactly the ones added since, and
    // their terms are added to the counts instead of every row being counted again (6 s a
    // filing added at 10,000 filings).
    r#"
CREATE TABLE search_removals (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER NOT NULL
);
INSERT INTO search_removals (id, generation) VALUES (1, 0);
CREATE TRIGGER chunks_removals_counted AFTER DELETE ON chunks
    BEGIN UPDATE search_removals SET generation = generation + 1; END;
CREATE TRIGGER chunks_changes_counted AFTER UPDATE ON chunks
    BEGIN UPDATE search_removals SET generation = generation + 1; END;
CREATE TRIGGER node_search_removals_counted AFTER DELETE ON node_search
    BEGIN UPDATE search_removals SET generation = generation + 1; END;
CREATE TRIGGER node_search_changes_counted AFTER UPDATE ON node_search
    BEGIN UPDATE search_removals SET generation = generation + 1; END;
ALTER TABLE term_counts_state ADD COLUMN removals INTEGER NOT NULL DEFAULT -1;
ALTER TABLE term_counts_state ADD COLUMN last_rowid INTEGER NOT NULL DEFAULT -1;
"#,
    // The scale the filer tagged each fact with (6: in millions): a statement that prints
    // no unit still has one.
    r#"
ALTER TABLE facts ADD COLUMN scale INTEGER;
"#,
];

impl SqliteStore {
    /// Brings the library to this build's schema, one migration per write transaction. The
    /// version is read again inside each transaction, so any number of processes opening a
    /// new library together each find it created and migrated once; a library at a newer
    /// version than this build knows is refused.
    pub(crate) fn migrate(&mut self) -> Result<()> {
        let known = MIGRATIONS.len() as i64;
        let too_new = |found: i64, path: &std::path::Path| StoreError::TooNew {
            path: path.to_path_buf(),
            found,
            known,
        };
        // A library already current needs no write lock.
        let version = self.schema_version()?;
        if version > known {
            return Err(too_new(version, &self.path));
        }
        if version == known {
            return Ok(());
        }
        loop {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
            if version > known {
                return Err(too_new(version, &self.path));
            }
            let Some(sql) = MIGRATIONS.get(version as usize) else {
                return Ok(());
            };
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", version + 1)?;
            tx.commit()?;
        }
    }

    /// The schema version of the open library.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }
}
