//! The application layer: one function per user action (index files, list, tree, show,
//! export), shared by the CLI, the desktop shell and the tests. It owns file reading,
//! parallelism and the library location; the core stays free of I/O.

pub mod ask;
mod error;
mod figures_in_answer;
mod file_progress;
mod model_answer;
use file_progress::FileProgress;
pub mod eval;
pub mod export;
pub mod links;
pub mod model;
pub mod pages;
pub mod provenance;
mod research;
mod source_file;
use source_file::{build_from_bytes, prepare, read_source, Prepared};
pub mod saved;
pub mod search;
mod statements;
pub mod vectors;

use docindex_core::embed::{EmbedError, Embedder};
use docindex_core::enhance::LlmOptions;
use docindex_core::llm::Llm;
use docindex_core::model::DocumentIndex;
use docindex_core::pipeline::sha256_hex;
use docindex_core::progress::{ProgressSink, Stage};
use docindex_core::store::{DocumentStore, DocumentSummary};
use docindex_core::{IndexSettings, IndexTools};
use docindex_pdf::PdfiumReader;
use docindex_store::SqliteStore;
pub use model::{CacheChoice, ModelConfig};
use rayon::prelude::*;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use error::{
    within_length, AppError, Result, MAX_QUERY_CHARS, MAX_QUESTION_CHARS, MAX_TOPIC_CHARS,
};

/// Where the library lives unless told otherwise: `$DOCINDEX_LIBRARY`, else the OS data
/// directory (`~/.local/share/docindex` on Linux).
pub fn default_library_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("DOCINDEX_LIBRARY").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    dirs::data_dir()
        .unwrap_or_else(|| PathBuf::from("."))
        .join("docindex")
}

/// What indexing one file did.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum IndexOutcome {
    /// Indexed and stored; `replaced` names the entry it superseded, if any.
    Indexed {
        document: DocumentSummary,
        chunks: usize,
        bytes: u64,
        millis: u128,
        replaced: Option<String>,
        /// What the language model did and cost, when one was used.
        #[serde(skip_serializing_if = "Option::is_none")]
        enhancement: Option<Box<docindex_core::LlmEnhancement>>,
        /// What the reader should know about this file's index (a tagged figure no filing
        /// can hold, a stage the model failed, a PDF page without text).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        warnings: Vec<String>,
    },
    /// The same bytes with the same settings are already in the library.
    Unchanged { document: DocumentSummary },
}

/// One file's result in a batch.
#[derive(Debug)]
pub struct IndexReport {
    pub path: PathBuf,
    pub result: Result<IndexOutcome>,
}

/// Events reported while a batch runs.
#[derive(Debug)]
pub enum IndexEvent<'a> {
    Started {
        path: &'a Path,
    },
    /// A stage of one file moved on (`done` of `total` units of that stage).
    Progress {
        path: &'a Path,
        stage: Stage,
        done: u64,
        total: u64,
    },
    /// What a stage of one file is doing, in words.
    Message {
        path: &'a Path,
        stage: Stage,
        text: &'a str,
    },
    Finished {
        report: &'a IndexReport,
    },
}

/// The document library: an SQLite file in a folder.
pub struct Library {
    store: SqliteStore,
    dir: PathBuf,
    pub settings: IndexSettings,
    llm: Option<Arc<dyn Llm>>,
    llm_options: LlmOptions,
    cancel: Arc<AtomicBool>,
    embedder: std::sync::OnceLock<std::result::Result<Arc<dyn Embedder>, EmbedError>>,
    /// Which local model [`Library::embedder`] loads.
    embedder_choice: docindex_embed::EmbedderChoice,
    /// Where model searches and answers are cached, and for how long.
    results_cache: Option<(Arc<dyn docindex_core::llm::cache::Cache>, Duration)>,
    /// The dense index (int8 vectors), loaded once per state of the embedding stage
    /// (model, fingerprint): a long-lived library (the app) does not re-read it per search.
    vectors: std::sync::Mutex<Option<LoadedVectors>>,
    /// How summary and text matches count when the library's files vote (seed 002).
    pub vote_weights: docindex_core::search::voting::VoteWeights,
    /// At most this many plan steps (sections read) before the model answers; the offline
    /// engine does not iterate.
    pub plan_steps: usize,
    /// Where chunk vectors live when not in the library's SQLite (a shared Chroma server).
    vector_store: Option<Arc<dyn docindex_core::vectors::VectorStore>>,
    /// The whole library's document ids and dictionary, as of a change stamp: every search
    /// of the whole library reads them, and they change only when documents do.
    whole_library: std::sync::Mutex<Option<search::WholeLibrary>>,
    /// Read-only connections for the search work that runs beside the main connection's
    /// (opened on first use; lent to a thread and given back).
    side_readers: std::sync::Mutex<Vec<SqliteStore>>,
    /// Whether reads go through a memory map ([`Library::map_reads`]); the side
    /// connections follow.
    mapped_reads: bool,
}

/// One node's exact text with its place in the document (`docindex show`, MCP `read_node`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NodeText {
    pub doc_id: String,
    pub doc_name: String,
    pub node_id: String,
    pub title: String,
    /// Titles from the top of the tree down to this node.
    pub path: String,
    /// Where the text lies in the document's canonical text, in code points.
    pub span: docindex_core::model::Span,
    pub start_page: Option<u32>,
    pub end_page: Option<u32>,
    /// Exactly `text[span.start_char..span.end_char]` of the document.
    pub text: String,
}

/// The dense index loaded for a model at a fingerprint of the stored set.
pub(crate) type LoadedVectors = (String, i64, Arc<docindex_store::DenseIndex>);

/// What the embedding stage did.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct EmbedReport {
    pub documents: usize,
    /// Chunks embedded (not those a shared store already held).
    pub chunks: usize,
    /// Documents whose vectors a shared vector store already held, so none were computed.
    pub shared: usize,
    /// Chunks whose exact text already had a vector in the library (boilerplate, a filing
    /// indexed again), so it was reused, not computed.
    pub reused: usize,
    pub millis: u128,
    /// Documents whose embedding panicked (our bug), by name, with the panic's message:
    /// they stay without vectors (searchable by words and titles), the others went on.
    pub failed: Vec<(String, String)>,
}

impl Library {
    /// Open the library in `dir`, creating it if needed.
    pub fn open(dir: &Path, settings: IndexSettings) -> Result<Self> {
        let not_a_library = |reason| AppError::NotALibraryFolder {
            path: dir.to_path_buf(),
            reason,
        };
        if dir.exists() && !dir.is_dir() {
            return Err(not_a_library(
                "is a file, not a library folder (give a folder; it is created if missing)",
            ));
        }
        // The library's database and caches go in its folder: never the file system's root.
        if std::fs::canonicalize(dir).is_ok_and(|d| d.parent().is_none()) {
            return Err(not_a_library(
                "is the root of the file system: give a folder of its own for the library",
            ));
        }
        std::fs::create_dir_all(dir).map_err(|source| AppError::LibraryDir {
            path: dir.to_path_buf(),
            source,
        })?;
        let store = SqliteStore::open(&dir.join("library.sqlite"))?;
        Ok(Library {
            store,
            dir: dir.to_path_buf(),
            settings,
            llm: None,
            llm_options: LlmOptions::default(),
            cancel: Arc::new(AtomicBool::new(false)),
            embedder: std::sync::OnceLock::new(),
            embedder_choice: Default::default(),
            results_cache: None,
            vectors: std::sync::Mutex::new(None),
            whole_library: std::sync::Mutex::new(None),
            side_readers: std::sync::Mutex::new(Vec::new()),
            mapped_reads: false,
            vote_weights: Default::default(),
            plan_steps: model_answer::MAX_STEPS,
            vector_store: None,
        })
    }

    /// Another handle on this library for a worker thread: its own SQLite connection,
    /// sharing the settings, model, caches, embedder and loaded vectors.
    pub(crate) fn worker(&self) -> Result<Library> {
        let embedder = std::sync::OnceLock::new();
        if let Some(loaded) = self.embedder.get() {
            let _ = embedder.set(loaded.clone());
        }
        let vectors = self.vectors.lock().ok().and_then(|v| v.clone());
        Ok(Library {
            store: SqliteStore::open(self.store.path())?,
            dir: self.dir.clone(),
            settings: self.settings,
            llm: self.llm.clone(),
            llm_options: self.llm_options,
            cancel: self.cancel.clone(),
            embedder,
            embedder_choice: self.embedder_choice,
            results_cache: self.results_cache.clone(),
            vectors: std::sync::Mutex::new(vectors),
            whole_library: std::sync::Mutex::new(None),
            side_readers: std::sync::Mutex::new(Vec::new()),
            mapped_reads: false,
            vote_weights: self.vote_weights,
            plan_steps: self.plan_steps,
            vector_store: self.vector_store.clone(),
        })
    }

    /// The local embedding model, loaded on first use (about 90 MB of weights).
    pub fn embedder(&self) -> std::result::Result<Arc<dyn Embedder>, EmbedError> {
        self.embedder
            .get_or_init(|| self.embedder_choice.load())
            .clone()
    }

    /// Which local model embeds from now on (the vectors of another model are not read).
    pub fn set_embedder_choice(&mut self, choice: docindex_embed::EmbedderChoice) {
        if choice != self.embedder_choice {
            self.embedder_choice = choice;
            self.embedder = std::sync::OnceLock::new();
        }
    }

    /// Use this embedder instead of the local model (tests, remote endpoints).
    pub fn set_embedder(&mut self, embedder: Arc<dyn Embedder>) {
        self.embedder = std::sync::OnceLock::new();
        let _ = self.embedder.set(Ok(embedder));
    }

    /// Ids of the documents whose chunks have no vectors yet (dense search does not reach
    /// them until the embedding stage has run).
    pub fn awaiting_embeddings(&self) -> Result<Vec<String>> {
        let model = match self.embedder.get() {
            Some(Ok(embedder)) => embedder.model_id().to_string(),
            _ => self.embedder_choice.model_id().to_string(),
        };
        self.awaiting_embeddings_of(&model)
    }

    fn awaiting_embeddings_of(&self, model: &str) -> Result<Vec<String>> {
        Ok(match &self.vector_store {
            Some(remote) => self
                .store
                .docs_without_vector_set(remote.address(), model)?,
            None => self.store.docs_without_vectors(model)?,
        })
    }

    /// Use a language model from now on (LLM-enhanced indexing), behind its cache.
    pub fn set_model(&mut self, config: &ModelConfig) -> Result<()> {
        let llm = model::connect(config, self.store.path())?;
        self.llm = Some(llm);
        self.llm_options = config.options;
        self.results_cache = model::open_cache(&config.cache, self.store.path())?
            .map(|cache| (cache, config.ttls.search));
        Ok(())
    }

    /// The model answers and searches use, when one was set (`--model`).
    pub fn model_name(&self) -> Option<&str> {
        self.llm.as_ref().map(|llm| llm.model())
    }

    /// The dense index of `model`'s vectors, from memory unless the stored set changed.
    pub(crate) fn dense_index(&self, model: &str) -> Result<Arc<docindex_store::DenseIndex>> {
        let count = self.store.vector_count()?;
        let mut slot = self.vectors.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((m, c, index)) = slot.as_ref() {
            if m == model && *c == count {
                return Ok(index.clone());
            }
        }
        let index = Arc::new(vectors::rows_read(
            docindex_store::DenseIndex::for_store(&self.store, model)?,
            self.mapped_reads,
        ));
        *slot = Some((model.to_string(), count, index.clone()));
        Ok(index)
    }

    /// A cached result of `kind` for `key_parts` (model searches and answers only): the key
    /// also holds the library's state, so adding, removing or embedding a document misses.
    fn cached_result<T: serde::de::DeserializeOwned>(
        &self,
        kind: &str,
        key_parts: &str,
    ) -> Option<T> {
        let (cache, _) = self.results_cache.as_ref()?;
        let key = match self.result_key(kind, key_parts) {
            Ok(key) => key,
            Err(e) => {
                tracing::warn!("{kind} not looked up in the cache: {e}");
                return None;
            }
        };
        let text = match cache.get(&key) {
            Ok(text) => text?,
            Err(e) => {
                tracing::warn!("{e}; computing the {kind} afresh");
                return None;
            }
        };
        match serde_json::from_str(&text) {
            Ok(value) => Some(value),
            Err(e) => {
                tracing::warn!("cached {kind} unreadable ({e}); computing it afresh");
                None
            }
        }
    }

    fn store_result<T: serde::Serialize>(&self, kind: &str, key_parts: &str, value: &T) {
        let Some((cache, ttl)) = self.results_cache.as_ref() else {
            return;
        };
        let (Ok(key), Ok(text)) = (
            self.result_key(kind, key_parts),
            serde_json::to_string(value),
        ) else {
            return;
        };
        if let Err(e) = cache.put(&key, &text, *ttl) {
            tracing::warn!("{e}; result not cached");
        }
    }

    fn result_key(&self, kind: &str, key_parts: &str) -> Result<String> {
        let state: Vec<(String, String)> = self
            .store
            .list()?
            .into_iter()
            .map(|d| (d.doc_id, d.settings_key))
            .collect();
        let vectors = self.store.vector_count()?;
        let model = self.model().unwrap_or("offline");
        let material = format!("{key_parts}\u{1f}{state:?}\u{1f}{vectors}");
        Ok(format!(
            "{kind}:{model}:{}",
            sha256_hex(material.as_bytes())
        ))
    }

    /// Use this model as is (already cached or scripted): for embedding and tests.
    pub fn set_llm(&mut self, llm: Arc<dyn Llm>, options: LlmOptions) {
        self.llm = Some(llm);
        self.llm_options = options;
    }

    /// Back to the offline engine.
    pub fn clear_model(&mut self) {
        self.llm = None;
    }

    /// The model string in use, if any.
    pub fn model(&self) -> Option<&str> {
        self.llm.as_deref().map(|l| l.model())
    }

    /// Set to cancel the running job: files not yet finished stop at their next stage or
    /// model call, and nothing of theirs is stored.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// Read the library through a memory map, for a process that searches many times
    /// (the app, the MCP server, benchmarks): see [`SqliteStore::map_reads`]. The dense
    /// index's int8 rows are mapped too ([`docindex_store::DenseIndex::map_rows`]).
    pub fn map_reads(&mut self) -> Result<()> {
        self.store.map_reads()?;
        for side in self
            .side_readers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .iter()
        {
            side.map_reads()?;
        }
        self.mapped_reads = true;
        // A dense index already loaded reads by position: the next search loads it mapped.
        self.vectors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        Ok(())
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn store(&self) -> &SqliteStore {
        &self.store
    }

    /// Index one file exactly as `index_paths` would (same reader, model and settings) but
    /// store nothing: what `docindex bench` times.
    pub fn build_document(&self, path: &Path) -> Result<DocumentIndex> {
        let (bytes, name) = read_source(path, u64::MAX)?;
        let tools = IndexTools {
            pdf_reader: Some(&PdfiumReader),
            llm: self.llm.as_deref(),
            llm_options: self.llm_options,
        };
        build_from_bytes(
            &name,
            &bytes,
            &self.settings,
            &mut docindex_core::progress::NoProgress,
            tools,
        )
        .map_err(|source| AppError::File {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Index files, `jobs` at a time. Each file gets its own report; one bad file never
    /// stops the others, and a failed file leaves the library as it was.
    pub fn index_paths(
        &mut self,
        paths: &[PathBuf],
        jobs: usize,
        on_event: &(dyn Fn(IndexEvent) + Sync),
    ) -> Result<Vec<IndexReport>> {
        let known = self.store.list()?;
        let settings = self.settings;
        self.cancel.store(false, Ordering::SeqCst);
        let llm = self.llm.clone();
        let tools = IndexTools {
            pdf_reader: Some(&PdfiumReader),
            llm: llm.as_deref(),
            llm_options: self.llm_options,
        };
        let cancel = self.cancel.clone();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build()
            .map_err(|e| AppError::Threads(e.to_string()))?;
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<Prepared>)>();
        let mut reports: Vec<Option<IndexReport>> = paths.iter().map(|_| None).collect();
        std::thread::scope(|scope| {
            let known = &known;
            scope.spawn(move || {
                pool.install(|| {
                    paths
                        .par_iter()
                        .enumerate()
                        .for_each_with(tx, |tx, (i, path)| {
                            on_event(IndexEvent::Started { path });
                            // Everything logged while this file is indexed (each stage
                            // with its time, retries, dropped replies) carries its name.
                            let _span =
                                tracing::info_span!("index", file = %path.display()).entered();
                            let mut progress = FileProgress {
                                path,
                                on_event,
                                cancel: &cancel,
                                current: None,
                            };
                            // A panic (a bug in a reader or a model client) ends this
                            // file, not the batch: the unwinding stops here and the file
                            // is reported like any other failure.
                            let prepared = std::panic::catch_unwind(AssertUnwindSafe(|| {
                                prepare(path, &settings, known, tools, &mut progress)
                            }))
                            .unwrap_or_else(|payload| {
                                Err(AppError::Panicked {
                                    path: path.clone(),
                                    message: panic_message(payload.as_ref()),
                                })
                            });
                            drop(progress);
                            let _ = tx.send((i, prepared));
                        })
                })
            });
            for (i, prepared) in rx {
                let path = paths[i].clone();
                let result = prepared.and_then(|p| self.commit(p));
                let report = IndexReport { path, result };
                on_event(IndexEvent::Finished { report: &report });
                reports[i] = Some(report);
            }
        });
        // Also after a batch that changed nothing: a library from an older version gets
        // its counts the first time anything is indexed into it.
        self.refresh_search_statistics();
        Ok(reports.into_iter().flatten().collect())
    }

    fn commit(&mut self, prepared: Prepared) -> Result<IndexOutcome> {
        match prepared {
            Prepared::Unchanged(document, pdf) => {
                if let Some(bytes) = pdf {
                    pages::keep_copy(&self.dir, &document.doc_id, &bytes)?;
                }
                Ok(IndexOutcome::Unchanged {
                    document: *document,
                })
            }
            Prepared::Fresh(doc, bytes, elapsed, pdf) => {
                // The copy first: a document in the library always has its pages to show.
                if let Some(pdf) = pdf {
                    pages::keep_copy(&self.dir, &doc.doc_id, &pdf)?;
                }
                let stale = self.store.replace(&doc)?;
                for old in stale.iter().filter(|id| **id != doc.doc_id) {
                    pages::discard_copy(&self.dir, old);
                }
                let replaced = stale.into_iter().next();
                Ok(IndexOutcome::Indexed {
                    document: DocumentSummary::of(&doc),
                    chunks: doc.chunks.len(),
                    bytes,
                    millis: elapsed.as_millis(),
                    replaced,
                    enhancement: doc.enhancement.clone().map(Box::new),
                    warnings: doc.warnings.clone(),
                })
            }
        }
    }

    /// Retry the LLM stages the provider failed when `doc` was indexed (summaries, the
    /// profile, cross-references), and store the result; structure refinement needs the
    /// source file indexed again. The document's embeddings are recomputed by the next
    /// embedding stage.
    pub fn enhance(
        &mut self,
        doc: &str,
        progress: &mut dyn ProgressSink,
    ) -> Result<docindex_core::enhance::retry::RetryOutcome> {
        let llm = self.llm.clone().ok_or_else(|| {
            AppError::Settings(
                "`enhance` needs a model: pass --model or set DOCINDEX_MODEL".to_string(),
            )
        })?;
        let mut document = self.document(doc)?;
        let outcome = docindex_core::enhance::retry::retry_failed_stages(
            &mut document,
            llm.as_ref(),
            self.llm_options,
            progress,
        )
        .map_err(|source| AppError::File {
            path: PathBuf::from(&document.doc_name),
            source,
        })?;
        if !outcome.retried.is_empty() {
            self.store.replace(&document)?;
            self.refresh_search_statistics();
        }
        Ok(outcome)
    }

    pub fn list(&self) -> Result<Vec<DocumentSummary>> {
        Ok(self.store.list()?)
    }

    /// Find a document by id, name, file stem or unique id prefix.
    pub fn resolve(&self, query: &str) -> Result<DocumentSummary> {
        if let Some(summary) = self.store.summary_of(query)? {
            return Ok(summary);
        }
        let docs = self.store.list()?;
        let stem = |name: &str| {
            Path::new(name)
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default()
        };
        let matches: Vec<&DocumentSummary> = docs
            .iter()
            .filter(|d| {
                stem(&d.doc_name) == query || (query.len() >= 4 && d.doc_id.starts_with(query))
            })
            .collect();
        match matches.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(AppError::UnknownDocument(query.to_string())),
            many => Err(AppError::AmbiguousDocument {
                query: query.to_string(),
                matches: many
                    .iter()
                    .map(|d| format!("{} ({})", d.doc_id, d.doc_name))
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }

    /// The full index of a document.
    pub fn document(&self, query: &str) -> Result<DocumentIndex> {
        let summary = self.resolve(query)?;
        self.store
            .get(&summary.doc_id)?
            .ok_or_else(|| AppError::UnknownDocument(query.to_string()))
    }

    /// Exactly the text of one node: `text[start_char..end_char]`.
    pub fn node_text(&self, doc: &str, node_id: &str) -> Result<String> {
        Ok(self.read_node(doc, node_id)?.text)
    }

    /// One node with exactly its text, where it sits in the tree and on the pages.
    pub fn read_node(&self, doc: &str, node_id: &str) -> Result<NodeText> {
        let document = self.document(doc)?;
        let node = document
            .node(node_id)
            .ok_or_else(|| AppError::UnknownNode {
                doc: document.doc_id.clone(),
                node: node_id.to_string(),
            })?;
        Ok(NodeText {
            doc_id: document.doc_id.clone(),
            doc_name: document.doc_name.clone(),
            node_id: node.node_id.clone(),
            title: node.title.clone(),
            path: document.path_of(&node.node_id),
            span: node.span,
            start_page: node.start_page,
            end_page: node.end_page,
            text: docindex_core::charmap::CharMap::new(&document.text)
                .slice(node.span)
                .to_string(),
        })
    }

    /// The document's links, internal ones resolved to nodes and external ones checked
    /// against the documents in the library (absent targets are flagged).
    pub fn check_links(&self, doc: &str) -> Result<Vec<links::LinkCheck>> {
        let document = self.document(doc)?;
        let library = self.store.list()?;
        Ok(links::check(&document, &library))
    }

    /// Remove a document; returns whether it existed.
    pub fn remove(&mut self, doc: &str) -> Result<bool> {
        let summary = self.resolve(doc)?;
        let removed = self.store.remove(&summary.doc_id)?;
        pages::discard_copy(&self.dir, &summary.doc_id);
        if removed {
            self.refresh_search_statistics();
        }
        Ok(removed)
    }

    /// Count again how many passages hold each term, which library-wide search reads
    /// (`SqliteStore::refresh_term_counts`). A failure costs only speed: searches count
    /// for themselves until a later batch refreshes, so it is logged, not returned.
    pub fn refresh_search_statistics(&mut self) {
        let started = Instant::now();
        match self.store.refresh_term_counts() {
            Ok(true) => tracing::info!(
                "search statistics refreshed in {} ms",
                started.elapsed().as_millis()
            ),
            Ok(false) => {}
            Err(e) => tracing::warn!("search statistics not refreshed: {e}"),
        }
    }
}

/// Whether a file is a PageIndex tree to import rather than a filing to index: a `.json`
/// name, or JSON with a `structure` list.
pub fn is_pageindex_file(name: &str, bytes: &[u8]) -> bool {
    name.to_lowercase().ends_with(".json") || docindex_core::import::looks_like_pageindex(bytes)
}

/// What a panic said, when it said it with a string (as `panic!` and `expect` do).
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}
