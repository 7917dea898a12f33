//! Writing a document: every table in one transaction, and embeddings beside it.

use crate::{enum_str, Result, SqliteStore, StoreError};
use docindex_core::model::*;
use rusqlite::{params, Transaction, TransactionBehavior};

impl SqliteStore {
    pub(crate) fn delete_in(tx: &Transaction, doc_id: &str) -> Result<()> {
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
            "vector_sets",
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

    pub(crate) fn insert_in(tx: &Transaction, doc: &DocumentIndex) -> Result<()> {
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
                "INSERT INTO facts (doc_id, concept, start_char, end_char, scale) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for f in &doc.facts {
                fact_stmt.execute(params![
                    doc.doc_id,
                    f.concept,
                    f.span.start_char as i64,
                    f.span.end_char as i64,
                    f.scale,
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

    /// Store the vectors of a document's chunks for `model`, replacing any it had, each
    /// with the hash of the text it embeds ([`docindex_core::embed::text_hash`]).
    pub fn put_vectors(
        &mut self,
        doc_id: &str,
        model: &str,
        vectors: &[(Vec<f32>, [u8; 32])],
    ) -> Result<()> {
        self.put_vectors_unclassified(doc_id, model, vectors)
            .map_err(|e| e.at(&self.path))
    }

    /// A stored vector of `model` for the text whose hash is `text_hash`, if any chunk had
    /// that exact text.
    pub fn vector_of_text(&self, model: &str, text_hash: &[u8; 32]) -> Result<Option<Vec<f32>>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT vector FROM chunk_vectors WHERE model = ?1 AND text_hash = ?2 LIMIT 1",
        )?;
        let mut rows = stmt.query(params![model, &text_hash[..]])?;
        let Some(row) = rows.next()? else {
            return Ok(None);
        };
        let bytes = row.get_ref(0)?;
        let bytes = bytes
            .as_blob()
            .map_err(|e| StoreError::Corrupt(format!("a vector: {e}")))?;
        Ok(Some(docindex_core::embed::from_bytes(bytes)))
    }

    fn put_vectors_unclassified(
        &mut self,
        doc_id: &str,
        model: &str,
        vectors: &[(Vec<f32>, [u8; 32])],
    ) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "DELETE FROM chunk_vectors WHERE doc_id = ?1 AND model = ?2",
            params![doc_id, model],
        )?;
        {
            let mut stmt = tx.prepare(
                "INSERT INTO chunk_vectors (doc_id, chunk_index, model, vector, text_hash) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for (i, (v, hash)) in vectors.iter().enumerate() {
                stmt.execute(params![
                    doc_id,
                    i as i64,
                    model,
                    docindex_core::embed::to_bytes(v),
                    &hash[..]
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Deletes every stored vector of `model`; how many there were. The embedding stage
    /// asks on every run, so the rows are found through the primary key's index (a few
    /// bytes a row) rather than by reading every vector (26 ms instead of 264 ms over
    /// 1,000 filings).
    pub fn forget_vectors_of(&mut self, model: &str) -> Result<usize> {
        self.conn
            .execute(
                "DELETE FROM chunk_vectors WHERE rowid IN (SELECT rowid FROM chunk_vectors WHERE model = ?1)",
                params![model],
            )
            .map_err(|e| StoreError::from(e).at(&self.path))
    }

    /// Record that the vector store at `store` holds `layout`'s vectors of `doc_id` for
    /// `model` (after it took them).
    pub fn record_vector_set(
        &mut self,
        doc_id: &str,
        store: &str,
        model: &str,
        layout: &str,
        chunks: usize,
    ) -> Result<()> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO vector_sets (doc_id, store, model, layout, chunks) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![doc_id, store, model, layout, chunks as i64],
            )
            .map_err(|e| StoreError::from(e).at(&self.path))?;
        Ok(())
    }
}
