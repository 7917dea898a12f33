//! Node search over one document or the library: the dictionary-expanded query goes to
//! BM25 over chunks and over titles (FTS5) and to the local embedding model over chunk
//! vectors; the core fuses the lists, aggregates to nodes and credits parents; hits come
//! back with reasons, exact excerpts and page ranges.

use crate::{AppError, Library, Result};
use docindex_core::charmap::CharMap;
use docindex_core::finance::rows::statement_of_title;
use docindex_core::finance::Statement;
use docindex_core::model::{DocType, DocumentIndex};
use docindex_core::qa::instructions::addresses_a_model;
use docindex_core::question::passage::section_prior;
use docindex_core::question::{PassageKind, Question};
use docindex_core::search::voting::{vote_files, Ballot, FileVote};
use docindex_core::search::{
    self, company_words, expand, hit_excerpts, rank_nodes, rank_titles, without_company_name,
    ConceptIndex, Excerpt, Expansion, Fusion, Leg, LegKind, Ranked, SentenceScorer,
};
use docindex_core::store::DocumentSummary;
use docindex_store::SqliteStore;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

mod copies;
mod legs;
use legs::dense_leg_of;
mod rescore;

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
        crate::within_length("query", &request.query, crate::MAX_QUERY_CHARS)?;
        let model_search = request.use_model && self.llm.is_some();
        let key = format!("{request:?}");
        if model_search {
            if let Some(mut cached) = self.cached_result::<SearchResults>("search", &key) {
                cached.from_cache = true;
                return Ok(cached);
            }
        }
        // A panic anywhere else in a search is reported as this search's error: the app
        // and the other searches go on.
        let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.search_uncached(request)
        }))
        .map_err(|payload| AppError::SearchPanicked {
            query: request.query.clone(),
            message: crate::panic_message(payload.as_ref()),
        })??;
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
        // What the question asks, without the role, resources and manner of answering that
        // would only dilute the query; the statements it names are weighed first.
        let reading = Question::read(&request.query).map_err(AppError::Question)?;
        let query = reading.search_text();
        // The whole library needs only its ids, not every document's summary.
        let mut lexical_query = query.clone();
        let (ids, dictionary) = if whole_library {
            let whole = self.whole_library()?;
            (whole.ids, whole.dictionary)
        } else {
            let summaries = self.scope(&request.scope)?;
            // The dense leg keeps the name: measured, it finds more with it.
            if let Some((company, ticker)) = one_company(&summaries) {
                lexical_query = without_company_name(&query, company, ticker);
            }
            let ids: Vec<String> = summaries.into_iter().map(|d| d.doc_id).collect();
            let dictionary = self.store.dictionary_pairs(Some(ids.as_slice()))?;
            (Arc::new(ids), Arc::new(dictionary))
        };
        let scope = ids.as_slice();
        let expansion = expand(&lexical_query, &dictionary);
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
                .then(|| self.start_dense(threads, &query, scope, depth))
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
            // A panic in the dense leg (the embedder's or the index's bug) costs this
            // search its dense leg, named in the notes, not the search.
            let dense_here = dense.and_then(|run| match run.join() {
                Ok(run) => {
                    self.adopt(run.warm);
                    run.nearest
                }
                Err(payload) => Some(Err(internal_error(payload.as_ref()))),
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
            let dense = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.dense_leg(&query, &ids, depth)
            }));
            match dense.unwrap_or_else(|payload| Err(internal_error(payload.as_ref()))) {
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
        // A question asking why or how a figure moved weighs sections by where filings
        // explain their figures; the titles of the matched sections and their ancestors
        // decide it.
        let explains = search::asks_about_results(&query);
        // Other narrative questions weigh the sections where filings put their kind of
        // passage (an event's note, Item 5.07 for a vote, a reconciliation for a non-GAAP
        // figure).
        let kind = reading.passage;
        let by_kind = kind.is_narrative() && kind != PassageKind::Explanation;
        let titles = if explains || by_kind || !reading.statements.is_empty() {
            let mut sections = touched.clone();
            sections.extend(
                parents
                    .iter()
                    .map(|((doc, _), parent)| (doc.clone(), parent.clone())),
            );
            sections.sort();
            sections.dedup();
            self.store.node_titles(&sections)?
        } else {
            HashMap::new()
        };
        let prior_of = |doc: &str, node: &str| -> f64 {
            if titles.is_empty() {
                return 1.0;
            }
            let mut path = Vec::new();
            let mut current = Some(node.to_string());
            for _ in 0..MAX_SECTION_DEPTH {
                let Some(id) = current.take() else { break };
                if let Some(title) = titles.get(&(doc.to_string(), id.clone())) {
                    path.push(title.as_str());
                }
                current = parent_of(doc, &id);
            }
            let statement = match reading.statements.is_empty() {
                true => 1.0,
                false => statement_prior(&path, &reading.statements),
            };
            let explanation = match explains {
                true => search::explanation_prior(path.iter().copied()),
                false => 1.0,
            };
            let of_kind = match by_kind {
                true => section_prior(kind, path.iter().copied()),
                false => 1.0,
            };
            statement * explanation * of_kind
        };
        let ranked = rank_nodes(&legs, request.fusion, &parent_of, &prior_of, depth_ranked);
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
        let concepts = ConceptIndex::new(&stems, &expansion.concepts());
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
                    build_hit(doc, map, ranked_node, scorer, &concepts)
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
            self.attach_statement_rows(&query, &ids, &mut hits, &mut docs)?
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
}

/// What every search of the whole library reads of it, kept with the change stamp it was
/// read at.
#[derive(Clone)]
pub(crate) struct WholeLibrary {
    stamp: (i64, u64),
    ids: Arc<Vec<String>>,
    dictionary: Arc<Vec<(String, String)>>,
}

/// A ranked node as a hit: its passages, best sentences and text; `None` when the node
/// is not in its document.
fn build_hit(
    doc: &DocumentIndex,
    map: &CharMap,
    ranked_node: search::RankedNode,
    scorer: &mut SentenceScorer,
    concepts: &ConceptIndex,
) -> Option<SearchHit> {
    let search::RankedNode {
        doc_id,
        node_id,
        score: fused,
        detail: score,
    } = ranked_node;
    let node = doc.node(&node_id)?;
    let mut passages = Vec::new();
    let mut passage_scores = Vec::new();
    for (i, chunk_score) in &score.chunks {
        let Some(c) = doc.chunks.get(*i) else {
            continue;
        };
        let text = map.slice(c.span).to_string();
        passage_scores.push(score.passage_score(*chunk_score, concepts.coverage(scorer, &text)));
        passages.push(Excerpt {
            addressed_to_a_model: addresses_a_model(&text),
            start_char: c.span.start_char,
            end_char: c.span.end_char,
            text,
        });
    }
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
        passage_scores,
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

/// The company every document of a scope belongs to, by its name (and its ticker, if any
/// filing gives one); `None` when they belong to several or one is unnamed.
fn one_company(scope: &[DocumentSummary]) -> Option<(&str, Option<&str>)> {
    let first = scope.first()?.company_name.as_deref()?;
    let words = company_words(first);
    let same = scope.iter().all(|d| {
        d.company_name
            .as_deref()
            .is_some_and(|name| company_words(name) == words)
    });
    let ticker = scope.iter().find_map(|d| d.ticker.as_deref());
    (same && !words.is_empty()).then_some((first, ticker))
}

/// Deeper than any filing's tree: a bound on walking up a section's ancestors.
const MAX_SECTION_DEPTH: usize = 64;

/// Why a leg stopped on a panic, as a search's note says it.
fn internal_error(payload: &(dyn std::any::Any + Send)) -> String {
    format!(
        "an internal error ({}); this is a bug in docindex: please report it with the query",
        crate::panic_message(payload)
    )
}

/// Errors of search that are the user's to fix.
pub fn unknown_doc_type(text: &str) -> AppError {
    AppError::Settings(format!("unknown document type '{text}'"))
}

/// The order in which a reader (or a model with a token budget) should see the hits'
/// passages: every passage of every hit, strongest first (a passage's fused score plus its
/// section's title match), at most `per_hit` from one section, each further passage of a
/// section weighed [`LATER_PASSAGE_WEIGHT`] times its previous one.
pub fn reading_order(hits: &[SearchHit], per_hit: usize) -> Vec<(&SearchHit, &Excerpt)> {
    let mut all: Vec<(f64, usize, usize)> = Vec::new();
    for (h, hit) in hits.iter().enumerate() {
        for (p, score) in hit
            .passage_scores
            .iter()
            .enumerate()
            .take(per_hit + hit.pinned)
        {
            let round = p.saturating_sub(hit.pinned);
            all.push((*score * LATER_PASSAGE_WEIGHT.powi(round as i32), h, p));
        }
    }
    all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    all.into_iter()
        .map(|(_, h, p)| (&hits[h], &hits[h].passages[p]))
        .collect()
}

/// A section's second passage weighs this much of its score, its third this much again:
/// a budget spent on one section's every passage misses the answer whenever that section
/// is not where it stands, and a section's later passages are often its continuation.
/// Measured with 2,000 tokens: the evidence page is reached for 76 of 95 unseen analyst
/// questions (74 by score alone, 79 with one passage a section), while the sets whose
/// evidence is a string of one section keep their floors (0.9 loses two of them).
const LATER_PASSAGE_WEIGHT: f64 = 0.95;

/// How much more a section of a statement the question names weighs ("Base your judgments on
/// the cash flow statement"): the same weight as the results discussion for a why-question.
const STATEMENT_WEIGHT: f64 = search::EXPLANATION_WEIGHT;

/// The prior of a section from its title and its ancestors': [`STATEMENT_WEIGHT`] inside one
/// of the statements named, 1 elsewhere.
fn statement_prior(titles: &[&str], named: &[Statement]) -> f64 {
    let inside = titles
        .iter()
        .filter_map(|t| statement_of_title(t))
        .any(|s| named.contains(&s));
    match inside {
        true => STATEMENT_WEIGHT,
        false => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(node: &str, scores: &[f64], pinned: usize) -> SearchHit {
        let passages: Vec<serde_json::Value> = (0..scores.len())
            .map(|i| serde_json::json!({"start_char": i, "end_char": i + 1, "text": format!("{node}{}", i + 1)}))
            .collect();
        let mut hit: SearchHit = serde_json::from_value(serde_json::json!({
            "doc_id": "d", "doc_name": "d", "node_id": node, "title": node, "path": node,
            "score": 1.0, "reason": "", "engine": "extractive", "start_char": 0, "end_char": 1,
            "start_page": null, "end_page": null, "excerpts": [], "passages": passages,
            "pinned": pinned, "text": "",
        }))
        .unwrap();
        hit.passage_scores = scores.to_vec();
        hit
    }

    fn texts<'a>(order: &[(&SearchHit, &'a Excerpt)]) -> Vec<&'a str> {
        order.iter().map(|(_, p)| p.text.as_str()).collect()
    }

    #[test]
    fn a_sections_later_passages_yield_to_another_sections_close_first_one() {
        let hits = [hit("a", &[1.0, 0.99, 0.98], 0), hit("b", &[0.97], 0)];
        // By score alone: a1 a2 a3 b1. A second passage weighs 0.95 of its score.
        assert_eq!(texts(&reading_order(&hits, 3)), ["a1", "b1", "a2", "a3"]);
        // Far weaker sections still wait, and the per-section limit holds.
        let hits = [hit("a", &[1.0, 0.99, 0.98], 0), hit("b", &[0.5], 0)];
        assert_eq!(texts(&reading_order(&hits, 2)), ["a1", "a2", "b1"]);
        // A section's pinned statement rows are all handed over at their own score.
        let hits = [hit("a", &[0.9, 0.9, 0.8], 2), hit("b", &[0.85], 0)];
        assert_eq!(texts(&reading_order(&hits, 1)), ["a1", "a2", "b1", "a3"]);
    }
}
