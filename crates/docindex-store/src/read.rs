//! Reading a document back whole: nodes, chunks, pages, links, facts and the rest, with the
//! typing a library written before section types gets on reading.

use crate::{enum_from, Result, SqliteStore, StoreError};
use docindex_core::model::*;
use rusqlite::{params, OptionalExtension};

impl SqliteStore {
    pub(crate) fn load(&self, doc_id: &str) -> Result<Option<DocumentIndex>> {
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
