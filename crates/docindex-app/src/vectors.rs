//! Where the library's chunk vectors live: its own SQLite (the default) or a vector store a
//! team shares (`chroma://HOST:PORT`). Picking the store, the embedding stage that fills
//! it, and the dense queries search and provenance make of it.
//!
//! The library records which layout of each document's chunks the store holds
//! (`vector_sets`), and only after the store took them: a store that is down or slow
//! leaves the library as it was. Queries are kept to the layouts this library holds, so
//! vectors other libraries put in a shared store never surface here.

use crate::{AppError, EmbedReport, Library, Result};
use docindex_core::embed::Embedder;
use docindex_core::model::DocumentIndex;
use docindex_core::store::DocumentStore;
use docindex_core::vectors::VectorStoreError;
use docindex_core::vectors::{layout_of, ChunkVector, Neighbour, VectorSet, VectorStore};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// The name of the default: vectors in the library's own SQLite file.
pub const IN_LIBRARY: &str = "sqlite";

/// The store an address names: `None` for the library's own (`sqlite` or nothing),
/// a Chroma client for `chroma://…` or `chroma+https://…`. Nothing is sent yet.
pub fn open_vector_store(address: &str) -> Result<Option<Arc<dyn VectorStore>>> {
    let address = address.trim();
    if address.is_empty() || address.eq_ignore_ascii_case(IN_LIBRARY) {
        return Ok(None);
    }
    if address.starts_with("chroma://") || address.starts_with("chroma+https://") {
        let store = docindex_chroma::ChromaStore::new(address).map_err(AppError::VectorStore)?;
        return Ok(Some(Arc::new(store)));
    }
    Err(AppError::VectorStore(VectorStoreError::Address {
        given: address.to_string(),
        reason: format!("use {IN_LIBRARY} (the library's own file) or chroma://HOST:PORT"),
    }))
}

impl Library {
    /// Keep vectors in `store` from now on (`None`: in the library's SQLite).
    pub fn set_vector_store(&mut self, store: Option<Arc<dyn VectorStore>>) {
        self.vector_store = store;
    }

    /// The address of the store vectors go to, `sqlite` for the library's own.
    pub fn vector_store_address(&self) -> String {
        self.vector_store
            .as_ref()
            .map_or_else(|| IN_LIBRARY.to_string(), |s| s.address().to_string())
    }

    /// One document's vectors into the shared store, unless it already holds this layout
    /// (another library put them there); then recorded in the library.
    pub(crate) fn embed_into(
        &mut self,
        remote: &dyn VectorStore,
        embedder: &dyn Embedder,
        doc: &DocumentIndex,
        report: &mut EmbedReport,
    ) -> Result<()> {
        let set = VectorSet {
            doc_id: doc.doc_id.clone(),
            layout: layout_of(doc),
        };
        let model = embedder.model_id();
        if remote.holds(model, &set).map_err(AppError::VectorStore)? {
            report.shared += 1;
        } else {
            // The shared store keeps no text hashes: every chunk is embedded.
            let vectors: Vec<ChunkVector> = embed_chunks(embedder, doc, &|_| Ok(None))?
                .vectors
                .into_iter()
                .zip(&doc.chunks)
                .map(|((vector, _), chunk)| ChunkVector {
                    chunk_index: chunk.chunk_index,
                    node_id: chunk.node_id.clone(),
                    vector,
                })
                .collect();
            remote
                .put(model, &set, &vectors)
                .map_err(AppError::VectorStore)?;
            report.chunks += vectors.len();
        }
        self.store.record_vector_set(
            &doc.doc_id,
            remote.address(),
            model,
            &set.layout,
            doc.chunks.len(),
        )?;
        report.documents += 1;
        Ok(())
    }

    /// The `limit` chunks of `doc_ids` nearest to `query` in the shared store; `Ok(None)`
    /// when vectors are kept in the library, or none of these documents has any there yet.
    pub(crate) fn nearest_in_store(
        &self,
        model: &str,
        query: &[f32],
        doc_ids: &[String],
        limit: Option<usize>,
    ) -> Result<Option<Vec<Neighbour>>> {
        let Some(remote) = &self.vector_store else {
            return Ok(None);
        };
        let sets = self.store.vector_sets(remote.address(), model, doc_ids)?;
        if sets.is_empty() {
            return Ok(None);
        }
        // Without a limit, every chunk of the scope (provenance reads them all).
        let limit = limit.unwrap_or_else(|| sets.iter().map(|(_, chunks)| chunks).sum());
        let scope: Vec<VectorSet> = sets.into_iter().map(|(set, _)| set).collect();
        remote
            .nearest(model, query, &scope, limit)
            .map(Some)
            .map_err(AppError::VectorStore)
    }

    /// Whether vectors are kept outside the library.
    pub(crate) fn uses_vector_store(&self) -> bool {
        self.vector_store.is_some()
    }
}

impl Library {
    /// How many of the `depth` chunks nearest `query` over the whole library (scored
    /// exhaustively) the dense leg's shortlist also finds, or ties: the benchmark's check that the
    /// sign-bit shortlist loses nothing that matters. `None` without vectors in the library.
    pub fn dense_shortlist_recall(&self, query: &str, depth: usize) -> Result<Option<usize>> {
        let embedder = self.embedder().map_err(AppError::Embed)?;
        let index = self.dense_index(embedder.model_id())?;
        if index.is_empty() || self.uses_vector_store() {
            return Ok(None);
        }
        let vector = embedder
            .embed(&[query])
            .map_err(AppError::Embed)?
            .pop()
            .unwrap_or_default();
        // Copies of a filing tie exactly, so the shortlist is judged by score: its hits
        // that score at least the exhaustive scan's last.
        let exhaustive = index.nearest_exhaustive(&vector, &|_| true, depth)?;
        let Some(last) = exhaustive.last().map(|h| h.similarity) else {
            return Ok(None);
        };
        let shortlisted = index.nearest(&vector, &|_| true, depth)?;
        Ok(Some(
            shortlisted
                .iter()
                .filter(|h| h.similarity >= last)
                .count()
                .min(exhaustive.len()),
        ))
    }
}

/// What the dense leg needs before it runs, made on another thread while the lexical legs
/// run: a new process pays about 60 ms for the model's tokenizer and 35 ms for the dense
/// index's file, as long as the lexical legs take.
pub(crate) struct DenseWarmUp {
    embedder: Option<std::result::Result<Arc<dyn Embedder>, docindex_core::embed::EmbedError>>,
    index: Option<crate::LoadedVectors>,
}

/// The library's dense index of `model` when a file of it is current, its rows read as
/// [`rows_read`] says.
fn open_dense_index(
    library: &std::path::Path,
    model: &str,
    generation: i64,
    mapped: bool,
) -> Option<docindex_store::DenseIndex> {
    docindex_store::DenseIndex::open_current_of(library, model, generation)
        .map(|index| rows_read(index, mapped))
}

/// `index` with its rows mapped when the library reads through a map
/// ([`Library::map_reads`]), else read by position.
pub(crate) fn rows_read(
    index: docindex_store::DenseIndex,
    mapped: bool,
) -> docindex_store::DenseIndex {
    if mapped {
        index.map_rows()
    } else {
        index
    }
}

impl Library {
    /// Starts loading what the dense leg lacks on a thread of `scope`; `None` when nothing
    /// is missing.
    pub(crate) fn warm_dense<'scope>(
        &self,
        scope: &'scope std::thread::Scope<'scope, '_>,
    ) -> Option<std::thread::ScopedJoinHandle<'scope, DenseWarmUp>> {
        let choice = self.embedder_choice;
        let load_embedder = self.embedder.get().is_none();
        let model = match self.embedder.get() {
            Some(Ok(embedder)) => embedder.model_id().to_string(),
            Some(Err(_)) => return None,
            None => choice.model_id().to_string(),
        };
        let index = if self.uses_vector_store() {
            None
        } else {
            let generation = self.store.vector_count().ok()?;
            let slot = self.vectors.lock().unwrap_or_else(|p| p.into_inner());
            let current = slot
                .as_ref()
                .is_some_and(|(m, g, _)| *m == model && *g == generation);
            (!current).then(|| (self.store.path().to_path_buf(), generation))
        };
        if !load_embedder && index.is_none() {
            return None;
        }
        let mapped = self.mapped_reads;
        Some(scope.spawn(move || DenseWarmUp {
            embedder: load_embedder.then(|| choice.load()),
            index: index.and_then(|(library, generation)| {
                let index = open_dense_index(&library, &model, generation, mapped)?;
                Some((model, generation, Arc::new(index)))
            }),
        }))
    }

    /// Keeps what a warm-up loaded, unless this thread got there first.
    pub(crate) fn adopt(&self, warm: DenseWarmUp) {
        if let Some(embedder) = warm.embedder {
            let _ = self.embedder.set(embedder);
        }
        if let Some(index) = warm.index {
            let mut slot = self.vectors.lock().unwrap_or_else(|p| p.into_inner());
            let stale = slot
                .as_ref()
                .is_none_or(|(model, generation, _)| (model, generation) != (&index.0, &index.1));
            if stale {
                *slot = Some(index);
            }
        }
    }

    /// Runs the dense leg over the library's own dense index on a thread of `scope`, while
    /// this thread runs the lexical legs; what it lacks (the model's tokenizer, the index
    /// file) is loaded there first. `None` when it cannot run there: vectors in a shared
    /// store, or a model that failed to load (the caller's own dense leg reports why).
    pub(crate) fn start_dense<'scope>(
        &self,
        scope: &'scope std::thread::Scope<'scope, '_>,
        query: &'scope str,
        ids: &'scope [String],
        depth: usize,
    ) -> Option<std::thread::ScopedJoinHandle<'scope, DenseRun>> {
        if self.uses_vector_store() {
            return None;
        }
        let choice = self.embedder_choice;
        let loaded_embedder = match self.embedder.get() {
            Some(Ok(embedder)) => Some(embedder.clone()),
            Some(Err(_)) => return None,
            None => None,
        };
        let model = loaded_embedder
            .as_ref()
            .map_or(choice.model_id(), |e| e.model_id())
            .to_string();
        let generation = self.store.vector_count().ok()?;
        let loaded_index = self
            .vectors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .filter(|(m, g, _)| *m == model && *g == generation)
            .map(|(_, _, index)| index.clone());
        let library = self.store.path().to_path_buf();
        let mapped = self.mapped_reads;
        Some(scope.spawn(move || {
            let new_embedder = loaded_embedder.is_none().then(|| choice.load());
            let embedder = loaded_embedder.or_else(|| match &new_embedder {
                Some(Ok(embedder)) => Some(embedder.clone()),
                _ => None,
            });
            let new_index = match loaded_index {
                Some(_) => None,
                None => open_dense_index(&library, &model, generation, mapped)
                    .map(|index| (model, generation, Arc::new(index))),
            };
            let index = loaded_index.or_else(|| new_index.as_ref().map(|(_, _, i)| i.clone()));
            let nearest = embedder.zip(index).map(|(embedder, index)| {
                let vector = embed_one(embedder.as_ref(), query)?;
                let scope: std::collections::HashSet<&str> =
                    ids.iter().map(String::as_str).collect();
                index
                    .nearest(&vector, &|doc| scope.contains(doc), depth)
                    .map_err(|e| e.to_string())
                    .map(|hits| {
                        hits.into_iter()
                            .map(|n| (n.doc_id, n.node_id, n.chunk_index, n.similarity))
                            .collect()
                    })
            });
            DenseRun {
                warm: DenseWarmUp {
                    embedder: new_embedder,
                    index: new_index,
                },
                nearest,
            }
        }))
    }
}

/// The query vector of `text`, or why there is none.
pub(crate) fn embed_one(
    embedder: &dyn Embedder,
    text: &str,
) -> std::result::Result<Vec<f32>, String> {
    embedder
        .embed(&[text])
        .map_err(|e| e.to_string())?
        .pop()
        .ok_or_else(|| "the embedder returned no vector".to_string())
}

/// A chunk near the query: document, node, chunk index and similarity.
pub(crate) type NearChunk = (String, String, usize, f32);

/// A dense leg run on another thread: what it loaded, and its nearest chunks unless it could
/// not run there.
pub(crate) struct DenseRun {
    pub(crate) warm: DenseWarmUp,
    pub(crate) nearest: Option<std::result::Result<Vec<NearChunk>, String>>,
}

/// The vectors of a document's chunks, each embedded with its place in the document (the
/// first line of its context), which is part of what it is about, and the hash of that
/// text. A text `known` has a vector for is not embedded again; how many were reused.
pub(crate) fn embed_chunks(
    embedder: &dyn Embedder,
    doc: &DocumentIndex,
    known: &KnownVector,
) -> Result<ChunkEmbeddings> {
    let map = docindex_core::charmap::CharMap::new(&doc.text);
    let texts: Vec<String> = doc
        .chunks
        .iter()
        .map(|c| {
            // The file's name is left out: copies of a text in other filings embed alike.
            let place = c.context.lines().next().unwrap_or_default();
            let place = place
                .strip_prefix(doc.doc_name.as_str())
                .and_then(|rest| rest.strip_prefix(" › "))
                .unwrap_or(place);
            format!("{place}\n{}", map.slice(c.span))
        })
        .collect();
    let hashes: Vec<[u8; 32]> = texts
        .iter()
        .map(|t| docindex_core::embed::text_hash(t))
        .collect();
    let mut vectors: Vec<Option<Vec<f32>>> = hashes.iter().map(known).collect::<Result<_>>()?;
    let missing: Vec<usize> = (0..texts.len()).filter(|i| vectors[*i].is_none()).collect();
    let refs: Vec<&str> = missing.iter().map(|i| texts[*i].as_str()).collect();
    let fresh = if refs.is_empty() {
        Vec::new()
    } else {
        embedder.embed(&refs).map_err(AppError::Embed)?
    };
    for (i, vector) in missing.iter().zip(fresh) {
        vectors[*i] = Some(vector);
    }
    Ok(ChunkEmbeddings {
        reused: texts.len() - missing.len(),
        vectors: vectors
            .into_iter()
            .zip(hashes)
            .map(|(v, h)| (v.unwrap_or_default(), h))
            .collect(),
    })
}

/// A stored vector for the text with this hash, if the library has one.
pub(crate) type KnownVector<'a> = dyn Fn(&[u8; 32]) -> Result<Option<Vec<f32>>> + 'a;

/// A document's chunk vectors, each with the hash of the text it embeds, and how many of
/// them were reused rather than computed.
pub(crate) struct ChunkEmbeddings {
    pub vectors: Vec<(Vec<f32>, [u8; 32])>,
    pub reused: usize,
}

/// The embedding stage, and the upkeep of the dense index it leaves behind.
impl Library {
    /// The embedding stage: vectors for every chunk of the documents that have none yet.
    /// It runs after a document is stored, so the tree and BM25 search never wait for it;
    /// dense search joins when it is done. `on_progress(done, total, doc_name)` per document.
    /// With a vector store outside the library the vectors go there ([`vectors`]).
    pub fn embed_pending(
        &mut self,
        on_progress: &dyn Fn(usize, usize, &str),
    ) -> Result<EmbedReport> {
        let started = Instant::now();
        let embedder = self.embedder().map_err(AppError::Embed)?;
        let pending = self.awaiting_embeddings_of(embedder.model_id())?;
        let mut report = EmbedReport::default();
        for (i, doc_id) in pending.iter().enumerate() {
            if self.cancel.load(Ordering::SeqCst) {
                break;
            }
            let Some(doc) = self.store.get(doc_id)? else {
                continue;
            };
            on_progress(i, pending.len(), &doc.doc_name);
            // A panic embedding one document (a tokenizer or model bug) leaves that one
            // without vectors, named in the report; the others are embedded.
            let contained = |report: &mut EmbedReport, payload: Box<dyn std::any::Any + Send>| {
                let message = crate::panic_message(payload.as_ref());
                tracing::error!(
                    "{}: embedding stopped on an internal error: {message}",
                    doc.doc_name
                );
                report.failed.push((doc.doc_name.clone(), message));
            };
            if let Some(remote) = self.vector_store.clone() {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    self.embed_into(remote.as_ref(), embedder.as_ref(), &doc, &mut report)
                }));
                match outcome {
                    Ok(result) => result?,
                    Err(payload) => contained(&mut report, payload),
                }
                continue;
            }
            let model = embedder.model_id();
            let embedded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                embed_chunks(embedder.as_ref(), &doc, &|hash| {
                    Ok(self.store.vector_of_text(model, hash)?)
                })
            }));
            let ChunkEmbeddings { vectors, reused } = match embedded {
                Ok(embedded) => embedded?,
                Err(payload) => {
                    contained(&mut report, payload);
                    continue;
                }
            };
            self.store.put_vectors(doc_id, model, &vectors)?;
            report.documents += 1;
            report.chunks += vectors.len() - reused;
            report.reused += reused;
        }
        on_progress(pending.len(), pending.len(), "");
        if self.vector_store.is_none() {
            // Before the dense index is prepared: deleting vectors changes its generation.
            let retired = self.forget_retired_vectors();
            if report.documents > 0 || retired > 0 {
                self.prepare_dense_index(embedder.model_id());
            }
        }
        report.millis = started.elapsed().as_millis();
        Ok(report)
    }

    /// Deletes the vectors (and dense index files) of models no choice embeds with any
    /// more ([`docindex_embed::RETIRED_MODEL_IDS`]); how many vectors went. A failure
    /// costs only space, so it is logged, not returned.
    fn forget_retired_vectors(&mut self) -> usize {
        let mut forgotten = 0;
        for model in docindex_embed::RETIRED_MODEL_IDS {
            match self.store.forget_vectors_of(model) {
                Ok(0) => {}
                Ok(count) => {
                    tracing::info!("deleted {count} vectors of {model}, a model no longer used");
                    forgotten += count;
                }
                Err(e) => tracing::warn!("vectors of {model} not deleted: {e}"),
            }
            for file in docindex_store::dense_files(self.store.path(), model) {
                if let Err(e) = std::fs::remove_file(&file) {
                    if e.kind() != std::io::ErrorKind::NotFound {
                        tracing::warn!("{}: not deleted: {e}", file.display());
                    }
                }
            }
        }
        forgotten
    }

    /// Builds the dense index file for the vectors just stored, so that the next search
    /// only opens it: built by a search process, it held 250 MB more than the search
    /// (the int8 rows and their codes over 1,000 filings). A failure costs only that:
    /// the next search builds it, so it is logged, not returned.
    fn prepare_dense_index(&self, model: &str) {
        let started = Instant::now();
        match self.dense_index(model) {
            Ok(index) => tracing::info!(
                "dense index of {} vectors written in {} ms",
                index.len(),
                started.elapsed().as_millis()
            ),
            Err(e) => tracing::warn!("dense index not prepared: {e}"),
        }
    }
}
