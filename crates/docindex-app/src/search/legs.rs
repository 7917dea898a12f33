//! The retrieval legs of a search: BM25 over passages and over titles and summaries (a
//! large library's passages ranked as two halves, the second on a side connection), and
//! the dense leg over the library's vectors or a shared vector store.

use super::*;

impl Library {
    /// BM25 over chunks and over titles and summaries, each unless left out.
    pub(super) fn lexical_legs(
        &self,
        expansion: &Expansion,
        sql_scope: Option<&[String]>,
        documents: usize,
        depth: usize,
        without: &[LegKind],
    ) -> Result<Vec<Leg>> {
        let started = std::time::Instant::now();
        let mut legs = Vec::new();
        if expansion.fts_query.is_empty() {
            return Ok(legs);
        }
        let titles = |store: &SqliteStore| {
            let hits = narrowed_first(expansion, documents, depth / 2, |query, limit| {
                store.bm25_nodes(query, sql_scope, limit)
            });
            tracing::debug!(
                "lexical: titles ranked in {} ms",
                started.elapsed().as_millis()
            );
            hits
        };
        let wants_titles = !without.contains(&LegKind::Titles);
        // Titles rank on a second connection beside the passages when one can be opened.
        let side = wants_titles.then(|| self.lend_side_reader()).flatten();
        let (passages, side_titles) = std::thread::scope(|threads| {
            let beside = side.map(|store| {
                threads.spawn(move || {
                    let hits = titles(&store);
                    (store, hits)
                })
            });
            let passages = (!without.contains(&LegKind::Lexical)).then(|| {
                let halves = (sql_scope.is_none() && documents >= SPLIT_FROM_DOCUMENTS)
                    .then(|| self.lend_side_reader())
                    .flatten();
                match halves {
                    Some(second) => {
                        let second = std::sync::Mutex::new(second);
                        let hits = narrowed_first(expansion, documents, depth, |query, limit| {
                            self.passages_in_halves(&second, query, limit)
                        });
                        let second = second
                            .into_inner()
                            .unwrap_or_else(|poisoned| poisoned.into_inner());
                        self.give_back_side_reader(second);
                        hits
                    }
                    None => narrowed_first(expansion, documents, depth, |query, limit| {
                        self.store.bm25_chunks(query, sql_scope, limit)
                    }),
                }
            });
            let side_titles = beside.and_then(|b| b.join().ok()).map(|(store, hits)| {
                self.give_back_side_reader(store);
                hits
            });
            (passages, side_titles)
        });
        if let Some(hits) = passages {
            legs.push(Leg {
                kind: LegKind::Lexical,
                hits: hits?.into_iter().map(ranked).collect(),
            });
            tracing::debug!(
                "lexical: passages ranked in {} ms",
                started.elapsed().as_millis()
            );
        }
        if wants_titles {
            let hits = match side_titles {
                Some(hits) => hits?,
                None => titles(&self.store)?,
            };
            let mut titled: Vec<(Ranked, String)> = hits
                .into_iter()
                .map(|h| {
                    let title = h.title.clone().unwrap_or_default();
                    (ranked(h), title)
                })
                .collect();
            rank_titles(&mut titled, &expansion.query_stems());
            legs.push(Leg {
                kind: LegKind::Titles,
                hits: titled.into_iter().map(|(r, _)| r).collect(),
            });
        }
        Ok(legs)
    }

    /// The best `limit` passages of the whole library for an FTS5 expression, its chunks
    /// ranked as two halves by rowid at once, on the main connection and on `second`.
    /// FTS5 scores every match, so each half takes about half the time; the scores use
    /// the whole library's statistics (`docindex_bm25`), so the merged best are the best.
    fn passages_in_halves(
        &self,
        second: &std::sync::Mutex<SqliteStore>,
        query: &str,
        limit: usize,
    ) -> docindex_store::Result<Vec<docindex_store::LexicalHit>> {
        let middle = self.store.last_chunk_rowid()? / 2;
        let upper_rows = middle + 1..=i64::MAX;
        let (lower, upper) = std::thread::scope(|threads| {
            let upper = threads.spawn(|| {
                let store = second
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                store.bm25_chunks_in_rows(query, upper_rows.clone(), limit)
            });
            let lower = self.store.bm25_chunks_in_rows(query, 0..=middle, limit);
            let upper = upper.join().unwrap_or_else(|_| {
                // The side thread died: rank its half here.
                self.store
                    .bm25_chunks_in_rows(query, upper_rows.clone(), limit)
            });
            (lower, upper)
        });
        let mut hits = lower?;
        hits.extend(upper?);
        // Stable: equal scores keep the lower rowids first, as one ranking orders them.
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(limit);
        Ok(hits)
    }

    /// A side connection, opened when none is free; `None` when it cannot be opened (the
    /// work then runs on the main connection).
    pub(super) fn lend_side_reader(&self) -> Option<SqliteStore> {
        let kept = self
            .side_readers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .pop();
        kept.or_else(|| match SqliteStore::open_reader(self.store.path()) {
            Ok(store) => {
                tracing::debug!("search: a side connection opened");
                if self.mapped_reads {
                    if let Err(e) = store.map_reads() {
                        tracing::debug!("side connection reads by copy: {e}");
                    }
                }
                Some(store)
            }
            Err(e) => {
                tracing::debug!("no side connection: {e}");
                None
            }
        })
    }

    pub(super) fn give_back_side_reader(&self, store: SqliteStore) {
        self.side_readers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(store);
    }

    /// The dense leg, or `None` when no document in scope has vectors yet.
    pub(super) fn dense_leg(
        &self,
        query: &str,
        ids: &[String],
        depth: usize,
    ) -> std::result::Result<Option<Leg>, String> {
        let started = std::time::Instant::now();
        let embedder = self.embedder().map_err(|e| e.to_string())?;
        let query_vector = crate::vectors::embed_one(embedder.as_ref(), query)?;
        tracing::debug!(
            "dense: query embedded at {} ms",
            started.elapsed().as_millis()
        );
        let nearest: Vec<crate::vectors::NearChunk> = if self.uses_vector_store() {
            self.nearest_in_store(embedder.model_id(), &query_vector, ids, Some(depth))
                .map_err(|e| e.to_string())?
                .unwrap_or_default()
                .into_iter()
                .map(|n| (n.doc_id, n.node_id, n.chunk_index, n.similarity))
                .collect()
        } else {
            let index = self
                .dense_index(embedder.model_id())
                .map_err(|e| e.to_string())?;
            tracing::debug!(
                "dense: index loaded at {} ms",
                started.elapsed().as_millis()
            );
            let scope: std::collections::HashSet<&str> = ids.iter().map(String::as_str).collect();
            index
                .nearest(&query_vector, &|doc| scope.contains(doc), depth)
                .map_err(|e| e.to_string())?
                .into_iter()
                .map(|n| (n.doc_id, n.node_id, n.chunk_index, n.similarity))
                .collect()
        };
        if nearest.is_empty() {
            return Ok(None);
        }
        Ok(Some(dense_leg_of(nearest)))
    }
}

/// The dense leg of the nearest chunks (doc, node, chunk, similarity), best first.
pub(super) fn dense_leg_of(nearest: Vec<crate::vectors::NearChunk>) -> Leg {
    Leg {
        kind: LegKind::Dense,
        hits: nearest
            .into_iter()
            .map(|(doc_id, node_id, chunk_index, similarity)| Ranked {
                doc_id,
                node_id,
                chunk_index: Some(chunk_index),
                score: f64::from(similarity),
                boost: 1.0,
            })
            .collect(),
    }
}

/// From this many documents in the whole library, its passages are ranked as two halves at
/// once (below it a ranking is a few milliseconds and a second thread costs more).
const SPLIT_FROM_DOCUMENTS: usize = 100;

/// From this many documents in scope, a lexical leg first ranks only the passages that hold
/// every word of the query (or its phrasings); below it the OR expression is cheap.
const NARROW_FROM_DOCUMENTS: usize = 100;

/// The best `limit` lexical hits of `search` (an FTS5 expression and a limit): over a large
/// scope, from [`Expansion::fts_all_terms`] when that finds enough (BM25 scores a passage
/// alike under both expressions, and one missing a word rarely outranks a full page of
/// passages holding them all), else from the whole OR expression.
fn narrowed_first(
    expansion: &Expansion,
    documents: usize,
    limit: usize,
    search: impl Fn(&str, usize) -> docindex_store::Result<Vec<docindex_store::LexicalHit>>,
) -> docindex_store::Result<Vec<docindex_store::LexicalHit>> {
    if let Some(all_terms) = expansion
        .fts_all_terms
        .as_deref()
        .filter(|_| documents >= NARROW_FROM_DOCUMENTS)
    {
        let hits = search(all_terms, limit)?;
        if hits.len() >= limit {
            return Ok(hits);
        }
    }
    search(&expansion.fts_query, limit)
}

fn ranked(hit: docindex_store::LexicalHit) -> Ranked {
    Ranked {
        doc_id: hit.doc_id,
        node_id: hit.node_id,
        chunk_index: hit.chunk_index,
        score: hit.score,
        boost: 1.0,
    }
}
