//! The desktop session: the library the window reads, a second connection for answers and
//! provenance scans, an indexing job on a third (so reading goes on while a question is
//! answered or files index), the settings and the reports shown.
//! Every user action is one method here; Tauri commands only call them.

use crate::error::DesktopError;
use crate::settings::{self, Settings, SettingsView};
use crate::views::{
    AskMessage, AskResult, DocumentView, FileResult, IndexMessage, LibraryRow, PageImage,
    ProvenanceMessage, ProvenanceResult,
};
use docindex_app::ask::AskEvent;
use docindex_app::pages::{PageCache, PdfSource};
use docindex_app::provenance::{ProvenanceEvent, ProvenanceReport};
use docindex_app::saved::{saved_unless_read_only, SavedEntry, SavedResult};
use docindex_app::search::SearchRequest;
use docindex_app::{IndexEvent, IndexOutcome, Library};
use docindex_core::enhance::retry::RetryOutcome;
use docindex_core::ingest::pdf::{CharBoxes, PageBoxes};
use docindex_core::provenance::ScanOptions;
use docindex_core::IndexSettings;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The bundled sample filing offered on first run (a public SEC filing).
const SAMPLE_NAME: &str = "sample_apple_10-Q_Q3FY2023.html";
const SAMPLE_BYTES: &[u8] = include_bytes!("../../assets/sample_apple_10-Q_Q3FY2023.html");

/// Files indexed at once: the machine's cores, at most 4.
fn index_jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get().min(4))
        .unwrap_or(2)
}

#[derive(Clone)]
pub struct Desktop {
    inner: Arc<Inner>,
}

struct Inner {
    dir: PathBuf,
    /// Quick reads and edits: the list, documents, saved results, removal.
    library: Mutex<Library>,
    /// Long reads: answers and provenance scans (a model call can take a minute).
    jobs: Mutex<Library>,
    settings: Mutex<Settings>,
    /// The cancel flag of the indexing job in progress, if one is.
    indexing: Mutex<Option<Arc<AtomicBool>>>,
    /// Provenance reports of this session by saved id, for export without re-reading.
    reports: Mutex<HashMap<i64, ProvenanceReport>>,
    /// PDF pages drawn and laid out for the page view.
    pages: PageCache,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock must not take the whole window down with it.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Desktop {
    /// Open the library in `dir` with the saved settings. A model that cannot be set up
    /// (no key, bad string) leaves the app offline and says why in the log; the settings
    /// screen shows the error when saved again.
    pub fn open(dir: &Path) -> Result<Self, DesktopError> {
        let mut library = Library::open(dir, IndexSettings::default())?;
        // The window searches many times: its library reads through a memory map.
        library.map_reads()?;
        let mut jobs = Library::open(dir, IndexSettings::default())?;
        let settings = settings::load(dir)?;
        for lib in [&mut library, &mut jobs] {
            if let Err(e) = apply_settings(lib, &settings) {
                tracing::warn!("settings not applied: {e}");
            }
        }
        Ok(Desktop {
            inner: Arc::new(Inner {
                dir: dir.to_path_buf(),
                library: Mutex::new(library),
                jobs: Mutex::new(jobs),
                settings: Mutex::new(settings),
                indexing: Mutex::new(None),
                reports: Mutex::new(HashMap::new()),
                pages: PageCache::new(),
            }),
        })
    }

    pub fn list(&self) -> Result<Vec<LibraryRow>, DesktopError> {
        let library = lock(&self.inner.library);
        let waiting = library.awaiting_embeddings()?;
        Ok(library
            .list()?
            .into_iter()
            .map(|summary| LibraryRow {
                dense_ready: !waiting.contains(&summary.doc_id),
                summary,
            })
            .collect())
    }

    /// Retry the LLM stages the provider failed for one document, with the model in the
    /// settings; its embeddings are computed again afterwards.
    pub fn enhance(&self, doc_id: &str) -> Result<RetryOutcome, DesktopError> {
        let mut library = lock(&self.inner.jobs);
        let outcome = library.enhance(doc_id, &mut docindex_core::progress::NoProgress)?;
        if !outcome.retried.is_empty() {
            library.embed_pending(&|_, _, _| {})?;
        }
        Ok(outcome)
    }

    pub fn remove(&self, doc_id: &str) -> Result<bool, DesktopError> {
        self.inner.pages.forget(doc_id);
        Ok(lock(&self.inner.library).remove(doc_id)?)
    }

    /// The PDF copy of a document, from the cache or the library (held only to load it).
    fn pdf_source(&self, doc_id: &str) -> Result<Arc<PdfSource>, DesktopError> {
        Ok(self
            .inner
            .pages
            .source(doc_id, || lock(&self.inner.library).pdf_source(doc_id))?)
    }

    /// Page `page` of a PDF document drawn `width_px` wide (cached per width step).
    pub fn page_image(
        &self,
        doc_id: &str,
        page: u32,
        width_px: u32,
    ) -> Result<PageImage, DesktopError> {
        let source = self.pdf_source(doc_id)?;
        let drawn = self.inner.pages.page(&source, page, width_px)?;
        Ok(PageImage::of(&drawn))
    }

    fn char_boxes(&self, doc_id: &str) -> Result<Arc<CharBoxes>, DesktopError> {
        let source = self.pdf_source(doc_id)?;
        Ok(self.inner.pages.boxes(&source, || {
            Ok(lock(&self.inner.library).document(doc_id)?.text)
        })?)
    }

    /// Where the characters `start_char..end_char` are printed, page by page.
    pub fn span_boxes(
        &self,
        doc_id: &str,
        start_char: usize,
        end_char: usize,
    ) -> Result<Vec<PageBoxes>, DesktopError> {
        Ok(self.char_boxes(doc_id)?.span(start_char, end_char))
    }

    /// The character printed at `(x, y)` (PDF points) on `page`, if any.
    pub fn page_char_at(
        &self,
        doc_id: &str,
        page: u32,
        x: f32,
        y: f32,
    ) -> Result<Option<usize>, DesktopError> {
        Ok(self.char_boxes(doc_id)?.char_at(page, x, y))
    }

    pub fn open_document(&self, doc_id: &str) -> Result<DocumentView, DesktopError> {
        let doc = lock(&self.inner.library).document(doc_id)?;
        Ok(DocumentView::of(doc))
    }

    /// Write the bundled sample into the library folder (once) and return its path; it is
    /// then indexed like any dropped file.
    pub fn sample_path(&self) -> Result<PathBuf, DesktopError> {
        let dir = self.inner.dir.join("samples");
        let path = dir.join(SAMPLE_NAME);
        if !path.exists() {
            std::fs::create_dir_all(&dir)
                .and_then(|()| std::fs::write(&path, SAMPLE_BYTES))
                .map_err(|source| DesktopError::Export {
                    path: path.clone(),
                    source,
                })?;
        }
        Ok(path)
    }

    /// Index `paths` on a connection of their own, then compute embeddings for dense
    /// search. Each file reports on its own; a bad file never stops the others.
    pub fn index(
        &self,
        paths: &[PathBuf],
        on_event: &(dyn Fn(IndexMessage) + Sync),
    ) -> Result<Vec<FileResult>, DesktopError> {
        let mut worker = Library::open(&self.inner.dir, IndexSettings::default())?;
        apply_settings(&mut worker, &lock(&self.inner.settings))?;
        {
            let mut slot = lock(&self.inner.indexing);
            if slot.is_some() {
                return Err(DesktopError::Busy);
            }
            *slot = Some(worker.cancel_flag());
        }
        let result = run_index(&mut worker, paths, on_event);
        *lock(&self.inner.indexing) = None;
        result
    }

    /// Stop the indexing job between stages; files not yet stored are not stored.
    pub fn cancel_indexing(&self) -> bool {
        match lock(&self.inner.indexing).as_ref() {
            Some(flag) => {
                flag.store(true, Ordering::SeqCst);
                true
            }
            None => false,
        }
    }

    /// Answer `question` over one document or the library, streaming steps and tokens,
    /// and save the answer so it reopens after a restart.
    pub fn ask(
        &self,
        question: &str,
        doc_id: Option<String>,
        on_event: &dyn Fn(AskMessage),
    ) -> Result<AskResult, DesktopError> {
        let library = lock(&self.inner.jobs);
        let mut scope = SearchRequest::new("");
        scope.scope.doc = doc_id;
        let answer = library.ask(question, &scope, &|event| match event {
            AskEvent::Step(text) => on_event(AskMessage::Step {
                text: text.to_string(),
            }),
            AskEvent::Token(text) => on_event(AskMessage::Token {
                text: text.to_string(),
            }),
        })?;
        let saved = saved_unless_read_only(library.save_answer(&answer))?;
        Ok(AskResult {
            saved_id: saved.id(),
            answer,
        })
    }

    /// Scan every section for each topic, streaming hits as they are found; each report
    /// is saved.
    pub fn provenance(
        &self,
        topics: &[String],
        doc_id: Option<String>,
        threshold: Option<f64>,
        on_event: &dyn Fn(ProvenanceMessage),
    ) -> Result<Vec<ProvenanceResult>, DesktopError> {
        let library = lock(&self.inner.jobs);
        let mut scope = SearchRequest::new("");
        scope.scope.doc = doc_id;
        let mut options = ScanOptions::default();
        if let Some(t) = threshold {
            options.threshold = t.clamp(0.0, 1.0);
        }
        let mut results = Vec::new();
        for topic in topics.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
            let report = library.provenance(topic, &scope, options, &|event| match event {
                ProvenanceEvent::Progress { done, total } => {
                    on_event(ProvenanceMessage::Progress {
                        topic: topic.to_string(),
                        done,
                        total,
                    })
                }
                ProvenanceEvent::Hit(evidence) => on_event(ProvenanceMessage::Hit {
                    topic: topic.to_string(),
                    evidence: evidence.clone(),
                }),
            })?;
            let saved = saved_unless_read_only(library.save_report(&report))?;
            if let Some(id) = saved.id() {
                lock(&self.inner.reports).insert(id, report.clone());
            }
            results.push(ProvenanceResult {
                saved_id: saved.id(),
                report,
            });
        }
        Ok(results)
    }

    /// Write a provenance report to `path` as CSV or JSON (by the extension: `.json` is
    /// JSON, anything else CSV).
    pub fn export_report(&self, saved_id: i64, path: &Path) -> Result<usize, DesktopError> {
        let report = self.report(saved_id)?;
        let is_json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let text = if is_json {
            serde_json::to_string_pretty(&report)
                .map_err(|e| DesktopError::Internal(e.to_string()))?
        } else {
            docindex_app::provenance::to_csv(&report)?
        };
        std::fs::write(path, text).map_err(|source| DesktopError::Export {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(report.evidence.iter().map(|e| e.excerpts.len()).sum())
    }

    fn report(&self, saved_id: i64) -> Result<ProvenanceReport, DesktopError> {
        if let Some(report) = lock(&self.inner.reports).get(&saved_id) {
            return Ok(report.clone());
        }
        let saved = lock(&self.inner.library).reopen(saved_id)?;
        if saved.kind != "provenance" {
            return Err(DesktopError::Settings {
                path: self.inner.dir.join("library.sqlite"),
                reason: format!("saved result {saved_id} is an {}, not a report", saved.kind),
            });
        }
        serde_json::from_value(saved.result).map_err(|e| DesktopError::Internal(e.to_string()))
    }

    pub fn saved_list(&self) -> Result<Vec<SavedEntry>, DesktopError> {
        Ok(lock(&self.inner.library).saved_list()?)
    }

    pub fn reopen(&self, id: i64) -> Result<SavedResult, DesktopError> {
        Ok(lock(&self.inner.library).reopen(id)?)
    }

    pub fn settings(&self) -> SettingsView {
        let (api_key_stored, keychain_error) = match settings::api_key() {
            Ok(key) => (key.is_some(), None),
            Err(e) => (false, Some(e.to_string())),
        };
        SettingsView {
            settings: lock(&self.inner.settings).clone(),
            api_key_stored,
            keychain_error,
            library_dir: self.inner.dir.display().to_string(),
            log_dir: log_dir(&self.inner.dir).display().to_string(),
        }
    }

    /// Save the settings (and the key, into the OS keychain, when one is given), then use
    /// them. A model that cannot be set up is refused and nothing is changed.
    pub fn save_settings(
        &self,
        new: Settings,
        api_key: Option<String>,
    ) -> Result<SettingsView, DesktopError> {
        if let Some(key) = api_key {
            settings::set_api_key(key.trim())?;
        }
        // A vector store must answer before it is used; then the settings are checked on
        // the reading connection first: a model that cannot be set up changes nothing.
        let vectors = new
            .vectors
            .as_deref()
            .unwrap_or(docindex_app::vectors::IN_LIBRARY);
        if let Some(store) = docindex_app::vectors::open_vector_store(vectors)? {
            store
                .check()
                .map_err(|e| DesktopError::App(docindex_app::AppError::VectorStore(e)))?;
        }
        apply_settings(&mut lock(&self.inner.library), &new)?;
        apply_settings(&mut lock(&self.inner.jobs), &new)?;
        settings::save(&self.inner.dir, &new)?;
        *lock(&self.inner.settings) = new;
        Ok(self.settings())
    }
}

/// Use the settings' vector store and model in `library`.
fn apply_settings(library: &mut Library, settings: &Settings) -> Result<(), DesktopError> {
    library.set_vector_store(docindex_app::vectors::open_vector_store(
        settings
            .vectors
            .as_deref()
            .unwrap_or(docindex_app::vectors::IN_LIBRARY),
    )?);
    let wants_model = settings
        .model
        .as_deref()
        .is_some_and(|m| !m.trim().is_empty());
    // No keychain (a headless session) is not fatal: a key from the environment still works.
    let api_key = if wants_model && !settings.offline {
        settings::api_key().unwrap_or_else(|e| {
            tracing::warn!("{e}; using the provider's key from the environment, if any");
            None
        })
    } else {
        None
    };
    match settings::model_config(settings, api_key)? {
        Some(config) => library.set_model(&config)?,
        None => library.clear_model(),
    }
    Ok(())
}

fn run_index(
    worker: &mut Library,
    paths: &[PathBuf],
    on_event: &(dyn Fn(IndexMessage) + Sync),
) -> Result<Vec<FileResult>, DesktopError> {
    let path_text = |p: &Path| p.display().to_string();
    let reports = worker.index_paths(paths, index_jobs(), &|event| match event {
        IndexEvent::Started { path } => on_event(IndexMessage::Started {
            path: path_text(path),
        }),
        IndexEvent::Progress {
            path,
            stage,
            done,
            total,
        } => on_event(IndexMessage::Progress {
            path: path_text(path),
            stage,
            done,
            total,
        }),
        IndexEvent::Message { path, stage, text } => on_event(IndexMessage::Message {
            path: path_text(path),
            stage,
            text: text.to_string(),
        }),
        IndexEvent::Finished { report } => {
            on_event(IndexMessage::Finished(Box::new(FileResult::of(report))));
        }
    })?;
    let results: Vec<FileResult> = reports.iter().map(FileResult::of).collect();
    let stored = reports
        .iter()
        .any(|r| matches!(r.result, Ok(IndexOutcome::Indexed { .. })));
    if stored && !worker.cancel_flag().load(Ordering::SeqCst) {
        // Dense search joins when this is done; the tree and BM25 are usable already.
        match worker.embed_pending(&|done, total, doc_name| {
            on_event(IndexMessage::Embedding {
                done,
                total,
                doc_name: doc_name.to_string(),
            })
        }) {
            Ok(report) => on_event(IndexMessage::EmbeddingDone {
                chunks: report.chunks,
                millis: report.millis as u64,
                failed: report
                    .failed
                    .iter()
                    .map(|(name, why)| format!("{name}: {why}"))
                    .collect(),
            }),
            Err(e) => on_event(IndexMessage::EmbeddingSkipped {
                reason: e.to_string(),
            }),
        }
    }
    Ok(results)
}

/// Where the desktop app's rotating log files live.
pub fn log_dir(library_dir: &std::path::Path) -> std::path::PathBuf {
    library_dir.join("logs")
}

#[cfg(test)]
mod tests {
    use super::Desktop;
    use docindex_app::Library;
    use docindex_core::IndexSettings;
    use std::path::PathBuf;

    #[test]
    fn the_window_lists_what_another_program_stored_in_its_folder() {
        // The CLI and the Python package store through the same `Library::index_paths`; a
        // folder they filled opens in the app with the same documents.
        let dir = tempfile::tempdir().unwrap();
        let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
        let files = [
            fixtures.join("buckle_8-K_2024-11-22.html"),
            fixtures.join("oracle_8-K_2024-11-14_item5.07.html"),
        ];
        let mut other = Library::open(dir.path(), IndexSettings::default()).unwrap();
        let reports = other.index_paths(&files, 1, &|_| {}).unwrap();
        assert!(reports.iter().all(|r| r.result.is_ok()));
        let mut stored: Vec<String> = other
            .list()
            .unwrap()
            .into_iter()
            .map(|d| d.doc_id)
            .collect();
        drop(other);
        let desktop = Desktop::open(dir.path()).unwrap();
        let mut shown: Vec<String> = desktop
            .list()
            .unwrap()
            .into_iter()
            .map(|row| row.summary.doc_id)
            .collect();
        stored.sort();
        shown.sort();
        assert_eq!(shown, stored);
        assert_eq!(shown.len(), 2);
    }
}
