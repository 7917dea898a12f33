//! Reading a document back whole: nodes, chunks, pages, links, facts and the rest, with the
//! typing a library written before section types gets on reading.

use crate::{enum_from, Result, SqliteStore, StoreError};
use docindex_core::model::*;
use rusqlite::{params, Row};

/// A JSON column, or the store is corrupt.
fn json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// The span stored in columns `start` and `start + 1`.
fn span_at(row: &Row, start: usize) -> Result<Span> {
    Ok(Span::new(
        row.get::<_, i64>(start)? as usize,
        row.get::<_, i64>(start + 1)? as usize,
    ))
}

impl SqliteStore {
    /// Every row `sql` selects for one document, each turned into a value by `read`.
    fn rows_of<T>(
        &self,
        sql: &str,
        doc_id: &str,
        read: impl Fn(&Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        let mut stmt = self.conn.prepare(sql)?;
        let mut rows = stmt.query(params![doc_id])?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            out.push(read(row)?);
        }
        Ok(out)
    }

    pub(crate) fn load(&self, doc_id: &str) -> Result<Option<DocumentIndex>> {
        self.load_parts(doc_id, true)
    }

    /// What a search hit reads of a document, and no more: its row, text, nodes (their
    /// summaries left empty), pages (their furniture left empty) and its chunks' spans
    /// (their context and pages left empty). The tagged facts ([`Self::facts_of`]),
    /// cross-references, dictionary, links and images are left empty: a search over a large
    /// library loads a document per hit, and a 10-Q's 217 pages of furniture or 1,300 facts
    /// cost more than its text.
    pub fn load_for_hits(&self, doc_id: &str) -> Result<Option<DocumentIndex>> {
        self.load_parts(doc_id, false).map_err(|e| e.at(&self.path))
    }

    fn load_parts(&self, doc_id: &str, whole: bool) -> Result<Option<DocumentIndex>> {
        let Some(mut doc) = self.load_document_row(doc_id)? else {
            return Ok(None);
        };
        let (nodes, unclassified) = self.load_nodes(doc_id, whole)?;
        doc.nodes = nodes;
        doc.chunks = self.load_chunks(doc_id, whole)?;
        doc.pages = self.load_pages(doc_id, whole)?;
        if whole {
            doc.facts = self.load_facts(doc_id)?;
            doc.cross_refs = self.rows_of(
                "SELECT kind, source_node_id, start_char, end_char, target, target_node_id FROM cross_refs WHERE doc_id = ?1 ORDER BY start_char, end_char",
                doc_id,
                |r| {
                    Ok(CrossRef {
                        kind: enum_from(&r.get::<_, String>(0)?)?,
                        source_node_id: r.get(1)?,
                        span: span_at(r, 2)?,
                        target: r.get(4)?,
                        target_node_id: r.get(5)?,
                    })
                },
            )?;
            doc.dictionary = self.rows_of(
                "SELECT term, definition, kind, start_char, end_char, node_id FROM dictionary WHERE doc_id = ?1 ORDER BY start_char",
                doc_id,
                |r| {
                    Ok(DictionaryEntry {
                        term: r.get(0)?,
                        definition: r.get(1)?,
                        kind: enum_from(&r.get::<_, String>(2)?)?,
                        span: span_at(r, 3)?,
                        node_id: r.get(5)?,
                    })
                },
            )?;
            doc.links = self.rows_of(
                "SELECT href, start_char, end_char, target_char FROM links WHERE doc_id = ?1 ORDER BY start_char",
                doc_id,
                |r| {
                    Ok(Hyperlink {
                        href: r.get(0)?,
                        span: span_at(r, 1)?,
                        target_char: r.get::<_, Option<i64>>(3)?.map(|c| c as usize),
                    })
                },
            )?;
            doc.images = self.rows_of(
                "SELECT page, left, bottom, right, top, at_char, node_id, caption FROM images WHERE doc_id = ?1 ORDER BY rowid",
                doc_id,
                |r| {
                    Ok(ImageRef {
                        page: r.get(0)?,
                        bbox: Rect::new(r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?),
                        at_char: r.get::<_, i64>(5)? as usize,
                        node_id: r.get(6)?,
                        caption: r.get(7)?,
                    })
                },
            )?;
        }
        // A document stored before section types existed gets them on reading.
        if unclassified {
            docindex_core::finance::classify_sections(&mut doc);
        }
        Ok(Some(doc))
    }

    /// The chunks in order; without `whole`, their spans only (context and pages empty).
    fn load_chunks(&self, doc_id: &str, whole: bool) -> Result<Vec<Chunk>> {
        // Page columns come after the chunk's text in its row: reading them reads the text.
        let sql = if whole {
            "SELECT chunk_index, node_id, start_char, end_char, token_count, context, start_page, end_page FROM chunks WHERE doc_id = ?1 ORDER BY chunk_index"
        } else {
            "SELECT chunk_index, node_id, start_char, end_char, token_count FROM chunks WHERE doc_id = ?1 ORDER BY chunk_index"
        };
        self.rows_of(sql, doc_id, |r| {
            Ok(Chunk {
                chunk_index: r.get::<_, i64>(0)? as usize,
                node_id: r.get(1)?,
                span: span_at(r, 2)?,
                token_count: r.get::<_, i64>(4)? as usize,
                context: if whole { r.get(5)? } else { String::new() },
                start_page: if whole { r.get(6)? } else { None },
                end_page: if whole { r.get(7)? } else { None },
            })
        })
    }

    /// The pages in order; without `whole`, their furniture left empty.
    fn load_pages(&self, doc_id: &str, whole: bool) -> Result<Vec<PageInfo>> {
        self.rows_of(
            &format!(
                "SELECT page, start_char, end_char, label, has_text{furniture} FROM pages WHERE doc_id = ?1 ORDER BY page",
                furniture = if whole { ", furniture_json" } else { "" }
            ),
            doc_id,
            |r| {
                Ok(PageInfo {
                    page: r.get(0)?,
                    span: span_at(r, 1)?,
                    label: r.get(3)?,
                    has_text: r.get(4)?,
                    furniture: if whole {
                        json(&r.get::<_, String>(5)?)?
                    } else {
                        Vec::new()
                    },
                })
            },
        )
    }

    /// The facts the filer tagged in the document (inline XBRL), in document order.
    pub fn facts_of(&self, doc_id: &str) -> Result<Vec<TaggedFact>> {
        self.load_facts(doc_id).map_err(|e| e.at(&self.path))
    }

    fn load_facts(&self, doc_id: &str) -> Result<Vec<TaggedFact>> {
        self.rows_of(
            "SELECT concept, start_char, end_char, scale FROM facts WHERE doc_id = ?1 ORDER BY rowid",
            doc_id,
            |r| {
                Ok(TaggedFact {
                    concept: r.get(0)?,
                    span: span_at(r, 1)?,
                    scale: r.get(3)?,
                })
            },
        )
    }

    /// The document's own row and text, with no nodes or other parts yet.
    fn load_document_row(&self, doc_id: &str) -> Result<Option<DocumentIndex>> {
        let mut stmt = self.conn.prepare(
            "SELECT d.doc_name, d.doc_type, d.format, d.source_sha256, d.encoding, d.description, d.metadata_json, d.settings_key, t.text, d.warnings_json, d.enhancement_json
             FROM documents d JOIN document_text t ON t.doc_id = d.doc_id WHERE d.doc_id = ?1",
        )?;
        let mut rows = stmt.query(params![doc_id])?;
        let Some(r) = rows.next()? else {
            return Ok(None);
        };
        let doc_type: String = r.get(1)?;
        let enhancement: Option<String> = r.get(10)?;
        Ok(Some(DocumentIndex {
            doc_id: doc_id.to_string(),
            doc_name: r.get(0)?,
            doc_type: DocType::parse(&doc_type).ok_or_else(|| {
                StoreError::Corrupt(format!("unknown document type '{doc_type}'"))
            })?,
            format: enum_from(&r.get::<_, String>(2)?)?,
            source_sha256: r.get(3)?,
            encoding: r.get(4)?,
            description: r.get(5)?,
            metadata: json(&r.get::<_, String>(6)?)?,
            settings_key: r.get(7)?,
            text: r.get(8)?,
            warnings: json(&r.get::<_, String>(9)?)?,
            enhancement: enhancement.as_deref().map(json).transpose()?,
            nodes: Vec::new(),
            chunks: Vec::new(),
            cross_refs: Vec::new(),
            dictionary: Vec::new(),
            links: Vec::new(),
            pages: Vec::new(),
            images: Vec::new(),
            facts: Vec::new(),
        }))
    }

    /// The nodes in document order with their children linked (without `whole`, their
    /// summaries left empty), and whether any was stored before section types existed.
    fn load_nodes(&self, doc_id: &str, whole: bool) -> Result<(Vec<Node>, bool)> {
        let unclassified = std::cell::Cell::new(false);
        let mut nodes = self.rows_of(
            &format!(
                "SELECT node_id, parent_id, level, title, start_char, end_char, token_count, {summary}, summary_engine, origin, start_page, end_page, financial_json FROM nodes WHERE doc_id = ?1 ORDER BY ordinal",
                summary = if whole { "summary" } else { "''" }
            ),
            doc_id,
            |r| {
                let financial_json: String = r.get(12)?;
                Ok(Node {
                    node_id: r.get(0)?,
                    parent_id: r.get(1)?,
                    level: r.get(2)?,
                    title: r.get(3)?,
                    span: span_at(r, 4)?,
                    token_count: r.get::<_, i64>(6)? as usize,
                    summary: r.get(7)?,
                    summary_engine: enum_from(&r.get::<_, String>(8)?)?,
                    origin: enum_from(&r.get::<_, String>(9)?)?,
                    children: Vec::new(),
                    start_page: r.get(10)?,
                    end_page: r.get(11)?,
                    financial: match financial_json.as_str() {
                        "unset" => {
                            unclassified.set(true);
                            None
                        }
                        stored => json(stored)?,
                    },
                })
            },
        )?;
        // By position, not by a scan per child: a 10-K has thousands of nodes.
        let position: std::collections::HashMap<String, usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.node_id.clone(), i))
            .collect();
        for i in 0..nodes.len() {
            let parent = nodes[i].parent_id.as_ref().and_then(|p| position.get(p));
            if let Some(&p) = parent {
                let child = nodes[i].node_id.clone();
                nodes[p].children.push(child);
            }
        }
        Ok((nodes, unclassified.get()))
    }
}
