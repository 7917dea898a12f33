//! Node search over one document or the library: the dictionary-expanded query goes to
//! BM25 over chunks and over titles (FTS5) and to the local embedding model over chunk
//! vectors; the core fuses the lists, aggregates to nodes and credits parents; hits come
//! back with reasons, exact excerpts and page ranges.

use crate::{AppError, Library, Result};
use docindex_core::charmap::CharMap;
use docindex_core::model::{DocType, DocumentIndex};
use docindex_core::search::voting::{vote_files, Ballot, FileVote};
use docindex_core::search::{
    self, expand, hit_excerpts, rank_nodes, rank_titles, Excerpt, Expansion, Fusion, Leg, LegKind,
    Ranked, SentenceScorer,
};
use docindex_core::store::DocumentSummary;
use docindex_store::SqliteStore;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

mod copies;

pub use copies::HitCopy;

/// Which documents an action reads; every field narrows the library. Search, ask and
/// provenance share it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scope {
    /// One document (id, name, stem or id prefix); the whole library when `None`.
    pub doc: Option<String>,
    /// Company name (substring, any case) or ticker.
    pub company: Option<String>,
    pub fiscal_year: Option<i32>,
    pub doc_type: Option<DocType>,
}

impl Scope {
    /// One document.
    pub fn document(doc: impl Into<String>) -> Self {
        Scope {
            doc: Some(doc.into()),
            ..Scope::default()
        }
    }

    /// Whether anything narrows the library.
    pub fn is_narrowed(&self) -> bool {
        self.doc.is_some()
            || self.company.is_some()
            || self.fiscal_year.is_some()
            || self.doc_type.is_some()
    }
}

/// What to search for and where.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    pub query: String,
    /// The documents searched (and answered from, and scanned).
    pub scope: Scope,
    pub limit: usize,
    pub fusion: Fusion,
    /// Legs to leave out (for comparisons).
    pub without: Vec<LegKind>,
    /// Let the library's model score the candidates (when one is set).
    pub use_model: bool,
    /// List a section found word for word in several documents once, with the others
    /// in its `also_in` (off where each copy counts, as in a file vote).
    pub fold_copies: bool,
}

impl SearchRequest {
    pub fn new(query: &str) -> Self {
        SearchRequest {
            query: query.to_string(),
            scope: Scope::default(),
            limit: 10,
            // Measured on tests/eval/questions.json: min-max 22/24, RRF 20/24.
            fusion: Fusion::MinMax,
            without: Vec::new(),
            use_model: false,
            fold_copies: true,
        }
    }
}

/// One ranked section.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct SearchHit {
    pub doc_id: String,
    pub doc_name: String,
    pub node_id: String,
    pub title: String,
    /// Titles from the top of the tree down to this node.
    pub path: String,
    /// 0..1: the node's fused score as a share of a perfect match in every leg.
    pub score: f64,
    pub reason: String,
    /// Which engine produced the score and reason.
    pub engine: docindex_core::model::Engine,
    pub start_char: usize,
    pub end_char: usize,
    pub start_page: Option<u32>,
    pub end_page: Option<u32>,
    /// The best sentences, each exactly `text[start_char..end_char]` of the document.
    pub excerpts: Vec<Excerpt>,
    /// The node's best matching passages (its chunks), best first: what a reader or a
    /// model should see of this node first.
    pub passages: Vec<Excerpt>,
    /// How strongly each passage matches (fused chunk score plus the node's title match);
    /// [`reading_order`] merges the hits' passages by it.
    #[serde(skip, default)]
    pub passage_scores: Vec<f64>,
    /// How many of the first passages are statement rows (and their headings) of the line
    /// items the query needs; [`reading_order`] hands them over beyond its per-hit limit.
    #[serde(default)]
    pub pinned: usize,
    /// The share of `score` that came from the node's title or summary (for file votes).
    #[serde(default)]
    pub summary_share: f64,
    /// Exactly the node's text.
    pub text: String,
    /// Other documents holding this section word for word (its title and best passage),
    /// folded under it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_in: Vec<HitCopy>,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct SearchResults {
    pub query: String,
    pub expansion: Expansion,
    /// The legs that ran, and why one did not.
    pub legs: Vec<LegKind>,
    pub notes: Vec<String>,
    pub documents_searched: usize,
    pub hits: Vec<SearchHit>,
    /// Model calls and tokens of the LLM leg, when it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm_usage: Option<docindex_core::llm::UsageTotals>,
    /// Ids in model replies that were not among the candidates (ignored).
    pub unknown_ids_dropped: usize,
    /// Served from the results cache (model searches only).
    #[serde(default)]
    pub from_cache: bool,
    /// Statement rows of the line items the query needs (or a metric it names needs), in
    /// the documents read for them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub statement_rows: Vec<docindex_core::finance::LocatedRow>,
}

/// A file the library-wide vote chose, with the sections that voted for it.
#[derive(Debug, Clone, Serialize)]
pub struct VotedFile {
    pub doc_id: String,
    pub doc_name: String,
    pub company: Option<String>,
    pub doc_type: DocType,
    pub vote: FileVote,
    /// The voting sections' hits, in the vote's order.
    pub hits: Vec<SearchHit>,
}

impl Library {
    /// Seed 002's file retrieval: the best `request.limit` sections of the scope each vote
    /// for their file with the library's weights; the best `top_k` files, best first.
    pub fn vote_files(&self, request: &SearchRequest, top_k: usize) -> Result<Vec<VotedFile>> {
        // Each file holding a section votes for itself, copy or not.
        let request = SearchRequest {
            fold_copies: false,
            ..request.clone()
        };
        let results = self.search(&request)?;
        self.tally(&results.hits, top_k)
    }

    /// The files `hits` vote for, best first, at most `top_k`.
    pub fn tally(&self, hits: &[SearchHit], top_k: usize) -> Result<Vec<VotedFile>> {
        let ballots: Vec<Ballot> = hits
            .iter()
            .map(|h| Ballot {
                doc_id: &h.doc_id,
                node_id: &h.node_id,
                score: h.score,
                summary_share: h.summary_share,
            })
            .collect();
        let summaries = self.list()?;
        Ok(vote_files(&ballots, self.vote_weights, top_k)
            .into_iter()
            .filter_map(|vote| {
                let summary = summaries.iter().find(|d| d.doc_id == vote.doc_id)?;
                let voted = vote
                    .nodes
                    .iter()
                    .filter_map(|n| {
                        hits.iter()
                            .find(|h| h.doc_id == vote.doc_id && h.node_id == n.node_id)
                            .cloned()
                    })
                    .collect();
                Some(VotedFile {
                    doc_id: vote.doc_id.clone(),
                    doc_name: summary.doc_name.clone(),
                    company: summary.company_name.clone(),
                    doc_type: summary.doc_type,
                    vote,
                    hits: voted,
                })
            })
            .collect())
    }

    /// The documents a scope covers.
    pub fn scope(&self, scope: &Scope) -> Result<Vec<DocumentSummary>> {
        if let Some(doc) = &scope.doc {
            return Ok(vec![self.resolve(doc)?]);
        }
        let company = scope.company.as_ref().map(|c| c.to_lowercase());
        Ok(self
            .list()?
            .into_iter()
            .filter(|d| {
                company.as_ref().is_none_or(|c| {
                    d.company_name
                        .as_ref()
                        .is_some_and(|n| n.to_lowercase().contains(c.as_str()))
                        || d.ticker.as_ref().is_some_and(|t| t.to_lowercase() == *c)
                })
            })
            .filter(|d| scope.fiscal_year.is_none_or(|y| d.fiscal_year == Some(y)))
            .filter(|d| scope.doc_type.is_none_or(|t| d.doc_type == t))
            .collect())
    }

    /// Find the sections related to a query, best first. With the model, the result is
    /// cached (search TTL, 30 minutes by default) against the library's state.
    pub fn search(&self, request: &SearchRequest) -> Result<SearchResults> {
        let model_search = request.use_model && self.llm.is_some();
        let key = format!("{request:?}");
        if model_search {
            if let Some(mut cached) = self.cached_result::<SearchResults>("search", &key) {
                cached.from_cache = true;
                return Ok(cached);
            }
        }
        let results = self.search_uncached(request)?;
        if model_search {
            self.store_result("search", &key, &results);
        }
        Ok(results)
    }

    /// The whole library's ids and dictionary, read again only when the library changed.
    fn whole_library(&self) -> Result<WholeLibrary> {
        let stamp = self.store.change_stamp()?;
        let mut slot = self
            .whole_library
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(kept) = slot.as_ref().filter(|w| w.stamp == stamp) {
            return Ok(kept.clone());
        }
        let read = WholeLibrary {
            stamp,
            ids: Arc::new(self.store.doc_ids()?),
            dictionary: Arc::new(self.store.dictionary_pairs(None)?),
        };
        *slot = Some(read.clone());
        Ok(read)
    }

    fn search_uncached(&self, request: &SearchRequest) -> Result<SearchResults> {
        // DOCINDEX_LOG=debug shows where a search spends its time.
        let started = std::time::Instant::now();
        let lap =
            |what: &str| tracing::debug!("search: {what} at {} ms", started.elapsed().as_millis());
        let whole_library = request.scope == Scope::default();
        // The whole library needs only its ids, not every document's summary.
        let (ids, dictionary) = if whole_library {
            let whole = self.whole_library()?;
            (whole.ids, whole.dictionary)
        } else {
            let ids: Vec<String> = self
                .scope(&request.scope)?
                .into_iter()
                .map(|d| d.doc_id)
                .collect();
            let dictionary = self.store.dictionary_pairs(Some(ids.as_slice()))?;
            (Arc::new(ids), Arc::new(dictionary))
        };
        let scope = ids.as_slice();
        let expansion = expand(&request.query, &dictionary);
        lap("scope and expansion");
        let mut notes = Vec::new();
        let fold = request.fold_copies && ids.len() > 1;
        let depth = (request.limit * 10).max(100);
        // The whole library needs no scope filter in SQL (which costs a lookup per match).
        let sql_scope = (!whole_library).then_some(ids.as_slice());
        if scope.is_empty() {
            notes.push("no document matches the filters".to_string());
        }
        let wants_dense = !scope.is_empty() && !request.without.contains(&LegKind::Dense);
        // The dense leg runs beside the lexical legs on the library's own index; with a
        // shared store, only its model loads beside them.
        let (mut legs, dense_here) = std::thread::scope(|threads| {
            let dense = wants_dense
                .then(|| self.start_dense(threads, &request.query, scope, depth))
                .flatten();
            let warm = if wants_dense && dense.is_none() {
                self.warm_dense(threads)
            } else {
                None
            };
            let legs = if scope.is_empty() {
                Ok(Vec::new())
            } else {
                self.lexical_legs(&expansion, sql_scope, scope.len(), depth, &request.without)
            };
            lap("lexical legs");
            if let Some(Ok(warm)) = warm.map(|w| w.join()) {
                self.adopt(warm);
            }
            let dense_here = dense.and_then(|run| run.join().ok()).and_then(|run| {
                self.adopt(run.warm);
                run.nearest
            });
            legs.map(|legs| (legs, dense_here))
        })?;
        if let Some(nearest) = dense_here {
            match nearest {
                Ok(nearest) if !nearest.is_empty() => legs.push(dense_leg_of(nearest)),
                Ok(_) => notes
                    .push("dense search skipped: no vectors yet for these documents".to_string()),
                Err(why) => notes.push(format!("dense search skipped: {why}")),
            }
            lap("dense leg (beside the lexical legs)");
        } else if wants_dense {
            match self.dense_leg(&request.query, &ids, depth) {
                Ok(Some(leg)) => legs.push(leg),
                Ok(None) => notes
                    .push("dense search skipped: no vectors yet for these documents".to_string()),
                Err(why) => notes.push(format!("dense search skipped: {why}")),
            }
            lap("dense leg");
        }
        let mut touched: Vec<(String, String)> = legs
            .iter()
            .flat_map(|l| l.hits.iter().map(|h| (h.doc_id.clone(), h.node_id.clone())))
            .collect();
        touched.sort();
        touched.dedup();
        let parents = self.store.ancestors(&touched)?;
        let parent_of =
            |doc: &str, node: &str| parents.get(&(doc.to_string(), node.to_string())).cloned();
        let depth_ranked = if fold {
            request.limit * copies::FOLD_DEPTH
        } else {
            request.limit
        };
        let ranked = rank_nodes(&legs, request.fusion, &parent_of, depth_ranked);
        let (ranked, mut folded) = if fold {
            copies::fold_copies(
                &self.store,
                ranked,
                request.limit,
                request.fusion == Fusion::MinMax,
            )?
        } else {
            (ranked, copies::Folded::new())
        };
        lap("fusion");
        let stems = expansion.stems();
        let mut wanted: Vec<&str> = Vec::new();
        for search::RankedNode { doc_id, .. } in &ranked {
            if !wanted.contains(&doc_id.as_str()) {
                wanted.push(doc_id);
            }
        }
        let mut docs = self.load_hit_documents(&wanted)?;
        lap("documents loaded");
        // Each hit's passages and excerpts are its own work: spread over the cores.
        let maps: HashMap<&str, CharMap> = docs
            .par_iter()
            .map(|(id, doc)| (id.as_str(), CharMap::new(&doc.text)))
            .collect();
        // A scorer per worker thread: each word is stemmed once for all the hits it builds.
        let mut hits: Vec<SearchHit> = ranked
            .into_par_iter()
            .map_init(
                || SentenceScorer::new(&stems),
                |scorer, ranked_node| {
                    let doc = docs.get(&ranked_node.doc_id)?;
                    let map = maps.get(ranked_node.doc_id.as_str())?;
                    build_hit(doc, map, ranked_node, scorer)
                },
            )
            .flatten()
            .collect();
        drop(maps);
        for hit in &mut hits {
            if let Some(copies) = folded.remove(&(hit.doc_id.clone(), hit.node_id.clone())) {
                hit.also_in = copies;
            }
        }
        lap("documents and passages");
        // Statement rows are found by their labels: part of the lexical leg.
        let statement_rows = if scope.is_empty() || request.without.contains(&LegKind::Lexical) {
            Vec::new()
        } else {
            self.attach_statement_rows(&request.query, &ids, &mut hits, &mut docs)?
        };
        lap("statement rows");
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        if fold {
            copies::fold_copied_hits(&mut hits);
        }
        let mut results = SearchResults {
            query: request.query.clone(),
            expansion,
            legs: legs.iter().map(|l| l.kind).collect(),
            notes,
            documents_searched: scope.len(),
            hits,
            llm_usage: None,
            unknown_ids_dropped: 0,
            from_cache: false,
            statement_rows,
        };
        if let Some(llm) = self.llm.clone().filter(|_| request.use_model) {
            self.rescore_with_llm(llm.as_ref(), &request.query, &mut results)?;
        }
        Ok(results)
    }

    /// BM25 over chunks and over titles and summaries, each unless left out.
    fn lexical_legs(
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

    /// The documents of a search's hits, read half on the main connection and half on the
    /// side one at once when there are several.
    fn load_hit_documents(&self, ids: &[&str]) -> Result<HashMap<String, DocumentIndex>> {
        let load = |store: &SqliteStore, ids: &[&str]| -> Result<Vec<DocumentIndex>> {
            let mut out = Vec::with_capacity(ids.len());
            for id in ids {
                out.extend(store.load_for_hits(id)?);
            }
            Ok(out)
        };
        let side = (ids.len() > 1).then(|| self.lend_side_reader()).flatten();
        let (mine, theirs) = ids.split_at(if side.is_some() {
            ids.len() / 2
        } else {
            ids.len()
        });
        let (mine, theirs) = std::thread::scope(|threads| {
            let beside = side.map(|store| {
                threads.spawn(move || {
                    let loaded = load(&store, theirs);
                    (store, loaded)
                })
            });
            let mine = load(&self.store, mine);
            let theirs = match beside.map(|b| b.join()) {
                Some(Ok((store, loaded))) => {
                    self.give_back_side_reader(store);
                    loaded
                }
                // The side thread died: read its half here.
                Some(Err(_)) => load(&self.store, theirs),
                None => Ok(Vec::new()),
            };
            (mine, theirs)
        });
        let mut docs = HashMap::with_capacity(ids.len());
        for doc in mine?.into_iter().chain(theirs?) {
            docs.insert(doc.doc_id.clone(), doc);
        }
        Ok(docs)
    }

    /// A side connection, opened when none is free; `None` when it cannot be opened (the
    /// work then runs on the main connection).
    fn lend_side_reader(&self) -> Option<SqliteStore> {
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

    fn give_back_side_reader(&self, store: SqliteStore) {
        self.side_readers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(store);
    }

    /// The LLM leg: the offline ranking's candidates are scored by the model in batches of
    /// ten; candidates under the seed's threshold are dropped, and ids the model invents
    /// are ignored and counted.
    fn rescore_with_llm(
        &self,
        llm: &dyn docindex_core::llm::Llm,
        query: &str,
        results: &mut SearchResults,
    ) -> Result<()> {
        use docindex_core::prompts::search::{
            score_prompt, Candidate, Scores, RELEVANCE_THRESHOLD,
        };
        let meter = docindex_core::llm::UsageMeter::default();
        let ids: Vec<String> = (0..results.hits.len())
            .map(|i| format!("C{}", i + 1))
            .collect();
        let mut scored: HashMap<String, (f64, String)> = HashMap::new();
        let mut dropped = 0;
        for (batch_ids, batch) in ids.chunks(10).zip(results.hits.chunks(10)) {
            let candidates: Vec<Candidate> = batch_ids
                .iter()
                .zip(batch)
                .map(|(id, hit)| Candidate {
                    id: id.clone(),
                    path: hit.path.clone(),
                    summary: String::new(),
                    excerpt: hit
                        .passages
                        .first()
                        .map(|p| p.text.chars().take(600).collect())
                        .unwrap_or_default(),
                })
                .collect();
            let reply = docindex_core::llm::json::complete_json::<Scores>(
                llm,
                &score_prompt(query, &candidates),
            )
            .map_err(AppError::Llm)?;
            for r in &reply.replies {
                meter.record(r);
            }
            for s in reply.value.scores {
                if batch_ids.contains(&s.node_id) {
                    scored.insert(s.node_id, (s.relevance.clamp(0.0, 1.0), s.reason));
                } else {
                    tracing::warn!(
                        "search: the model scored {:?}, which was not a candidate; ignored",
                        s.node_id
                    );
                    dropped += 1;
                }
            }
        }
        let hits = std::mem::take(&mut results.hits);
        let mut kept: Vec<SearchHit> = hits
            .into_iter()
            .zip(ids)
            .filter_map(|(mut hit, id)| {
                let (relevance, reason) = scored.remove(&id)?;
                (relevance >= RELEVANCE_THRESHOLD).then(|| {
                    hit.score = relevance;
                    hit.reason = reason;
                    hit.engine = docindex_core::model::Engine::Llm;
                    hit
                })
            })
            .collect();
        kept.sort_by(|a, b| b.score.total_cmp(&a.score));
        results.hits = kept;
        results.unknown_ids_dropped = dropped;
        results.llm_usage = Some(meter.totals());
        Ok(())
    }

    /// The dense leg, or `None` when no document in scope has vectors yet.
    fn dense_leg(
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
fn dense_leg_of(nearest: Vec<crate::vectors::NearChunk>) -> Leg {
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

/// What every search of the whole library reads of it, kept with the change stamp it was
/// read at.
#[derive(Clone)]
pub(crate) struct WholeLibrary {
    stamp: (i64, u64),
    ids: Arc<Vec<String>>,
    dictionary: Arc<Vec<(String, String)>>,
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
/// A ranked node as a hit: its passages, best sentences and text; `None` when the node
/// is not in its document.
fn build_hit(
    doc: &DocumentIndex,
    map: &CharMap,
    ranked_node: search::RankedNode,
    scorer: &mut SentenceScorer,
) -> Option<SearchHit> {
    let search::RankedNode {
        doc_id,
        node_id,
        score: fused,
        detail: score,
    } = ranked_node;
    let node = doc.node(&node_id)?;
    let passages: Vec<Excerpt> = score
        .chunks
        .iter()
        .filter_map(|(i, _)| doc.chunks.get(*i))
        .map(|c| Excerpt {
            start_char: c.span.start_char,
            end_char: c.span.end_char,
            text: map.slice(c.span).to_string(),
        })
        .collect();
    let excerpts = hit_excerpts(doc, map, node, &score, scorer);
    Some(SearchHit {
        doc_name: doc.doc_name.clone(),
        title: node.title.clone(),
        path: doc.path_of(&node_id),
        score: fused,
        reason: reason(&score),
        engine: docindex_core::model::Engine::Extractive,
        start_char: node.span.start_char,
        end_char: node.span.end_char,
        start_page: node.start_page,
        end_page: node.end_page,
        excerpts,
        passage_scores: score
            .chunks
            .iter()
            .filter(|(i, _)| doc.chunks.get(*i).is_some())
            .map(|(_, s)| score.passage_score(*s))
            .collect(),
        passages,
        pinned: 0,
        summary_share: if score.score > 0.0 {
            (score.title_score / score.score).clamp(0.0, 1.0)
        } else {
            0.0
        },
        text: map.slice(node.span).to_string(),
        also_in: Vec::new(),
        doc_id,
        node_id,
    })
}

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

fn reason(score: &search::NodeScore) -> String {
    let mut parts = Vec::new();
    if let Some(rank) = score.best_rank.get("lexical") {
        parts.push(format!(
            "query words in {} passage{} (best lexical rank {rank})",
            score.chunks.len(),
            if score.chunks.len() == 1 { "" } else { "s" }
        ));
    }
    if let Some(rank) = score.best_rank.get("titles") {
        parts.push(format!("title or summary matches (rank {rank})"));
    }
    if let Some(rank) = score.best_rank.get("dense") {
        parts.push(format!("close in meaning (dense rank {rank})"));
    }
    if score.from_children || parts.is_empty() {
        parts.push("contains matching subsections".to_string());
    }
    parts.join("; ")
}

/// Errors of search that are the user's to fix.
pub fn unknown_doc_type(text: &str) -> AppError {
    AppError::Settings(format!("unknown document type '{text}'"))
}

/// The order in which a reader (or a model with a token budget) should see the hits'
/// passages: every passage of every hit, strongest first (a passage's fused score plus its
/// section's title match), at most `per_hit` from one section.
pub fn reading_order(hits: &[SearchHit], per_hit: usize) -> Vec<(&SearchHit, &Excerpt)> {
    let mut all: Vec<(f64, usize, usize)> = Vec::new();
    for (h, hit) in hits.iter().enumerate() {
        for (p, score) in hit
            .passage_scores
            .iter()
            .enumerate()
            .take(per_hit + hit.pinned)
        {
            all.push((*score, h, p));
        }
    }
    all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    all.into_iter()
        .map(|(_, h, p)| (&hits[h], &hits[h].passages[p]))
        .collect()
}
