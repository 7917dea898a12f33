//! The `documentindex._engine` Python extension module: one `Engine` class over a library
//! folder (docindex-app's `Library`, the same folder the CLI and the desktop use). It takes
//! plain arguments and gives JSON, which the pure-Python layer (`python/documentindex`)
//! turns into the seed's classes; the GIL is released while the engine works, progress and
//! answer tokens reach a Python callable as they happen, and errors are raised as the
//! package's exceptions by whose fault they are.

use docindex_app::ask::AskEvent;
use docindex_app::provenance::ProvenanceEvent;
use docindex_app::search::SearchRequest;
use docindex_app::{AppError, IndexEvent, Library, ModelConfig};
use docindex_core::provenance::ScanOptions;
use docindex_core::{Fault, IndexSettings};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

create_exception!(
    _engine,
    DocumentIndexError,
    PyException,
    "Every error the engine raises."
);
create_exception!(
    _engine,
    InputError,
    DocumentIndexError,
    "The input is at fault: a file that cannot be read or indexed, an unknown document or node, a bad setting."
);
create_exception!(
    _engine,
    ProviderError,
    DocumentIndexError,
    "The language-model provider failed or refused: outage, rate limit, rejected key, unknown model."
);
create_exception!(
    _engine,
    ResourceError,
    DocumentIndexError,
    "The machine failed the engine: the library's database or folder, threads, the embedding model."
);
create_exception!(
    _engine,
    InternalError,
    DocumentIndexError,
    "A bug in DocumentIndex, not a fault of the input: please report it."
);
create_exception!(
    _engine,
    Cancelled,
    DocumentIndexError,
    "The work was cancelled before it finished; nothing unfinished was stored."
);

/// The engine's error as the package's exception: the class says whose fault it is, the
/// message names the file and the reason (keys are never part of it).
fn raised(error: AppError) -> PyErr {
    let message = error.to_string();
    match (&error, error.fault()) {
        (AppError::Llm(_), Fault::Runtime) => ProviderError::new_err(message),
        (_, Fault::User) => InputError::new_err(message),
        (_, Fault::Runtime) => ResourceError::new_err(message),
        (_, Fault::Bug) => InternalError::new_err(message),
    }
}

/// JSON of a value the engine returned; failing to write it is our bug.
fn json<T: serde::Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| InternalError::new_err(e.to_string()))
}

/// Hands an event to the Python callable, with the GIL taken for the call. A callable that
/// raises (a consumer gone, Ctrl-C) cancels the work.
struct Listener<'a> {
    callable: Option<&'a Py<PyAny>>,
    cancel: &'a AtomicBool,
}

impl Listener<'_> {
    fn send(&self, kind: &str, payload: String) {
        let Some(callable) = self.callable else {
            return;
        };
        let failed = Python::attach(|py| callable.call1(py, (kind, payload)).is_err());
        if failed {
            self.cancel.store(true, Ordering::SeqCst);
        }
    }
}

/// A library folder opened for Python: every call runs the engine with the GIL released.
#[pyclass(frozen, module = "documentindex._engine")]
struct Engine {
    library: Mutex<Library>,
    cancel: Arc<AtomicBool>,
    dir: PathBuf,
    model: Option<String>,
}

impl Engine {
    /// Runs `work` on the library with the GIL released; the cancel flag is cleared first
    /// and, when set by the end, the result is `Cancelled`.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut Library, &AtomicBool) -> Result<T, AppError> + Send,
    ) -> PyResult<T> {
        let cancel = self.cancel.clone();
        let result = py.detach(|| {
            let mut library = self
                .library
                .lock()
                .map_err(|_| InternalError::new_err("the library's lock was poisoned"))?;
            cancel.store(false, Ordering::SeqCst);
            let out = work(&mut library, &cancel).map_err(raised);
            match cancel.load(Ordering::SeqCst) {
                true => Err(Cancelled::new_err("cancelled")),
                false => out,
            }
        });
        result
    }
}

/// The scope of a search, an answer or a scan.
fn request(
    query: &str,
    doc: Option<String>,
    company: Option<String>,
    fiscal_year: Option<i32>,
) -> SearchRequest {
    let mut request = SearchRequest::new(query);
    request.scope.doc = doc;
    request.scope.company = company;
    request.scope.fiscal_year = fiscal_year;
    request
}

#[pymethods]
impl Engine {
    /// Open (or create) the library in `path`; with `model` (a LiteLLM-style string such
    /// as "openai/gpt-4o-mini"), indexing, answers and scans use it.
    #[new]
    #[pyo3(signature = (path, model = None))]
    fn new(py: Python<'_>, path: PathBuf, model: Option<String>) -> PyResult<Self> {
        let model = model.filter(|m| !m.trim().is_empty());
        let library = py.detach(|| {
            let mut library = Library::open(&path, IndexSettings::default())?;
            if let Some(model) = &model {
                library.set_model(&ModelConfig::new(model))?;
            }
            Ok::<_, AppError>(library)
        });
        let library = library.map_err(raised)?;
        Ok(Engine {
            cancel: library.cancel_flag(),
            library: Mutex::new(library),
            dir: path,
            model,
        })
    }

    /// The library folder.
    #[getter]
    fn path(&self) -> PathBuf {
        self.dir.clone()
    }

    /// The model string, when one is set.
    #[getter]
    fn model(&self) -> Option<String> {
        self.model.clone()
    }

    /// Index files; then, with `embed`, the embedding stage. `on_event(kind, json)` gets
    /// "started", "progress", "message" and "finished" events. Returns the reports (JSON):
    /// one per file, each ok with its outcome or failed with its error and fault.
    #[pyo3(signature = (paths, on_event = None, embed = true))]
    fn index(
        &self,
        py: Python<'_>,
        paths: Vec<PathBuf>,
        on_event: Option<Py<PyAny>>,
        embed: bool,
    ) -> PyResult<String> {
        let reports = self.run(py, |library, cancel| {
            let listener = Listener {
                callable: on_event.as_ref(),
                cancel,
            };
            let on_index = |event: IndexEvent| {
                let (kind, payload) = match event {
                    IndexEvent::Started { path } => {
                        ("started", serde_json::json!({ "path": path }))
                    }
                    IndexEvent::Progress {
                        path,
                        stage,
                        done,
                        total,
                    } => (
                        "progress",
                        serde_json::json!({ "path": path, "stage": stage, "done": done, "total": total }),
                    ),
                    IndexEvent::Message { path, stage, text } => (
                        "message",
                        serde_json::json!({ "path": path, "stage": stage, "text": text }),
                    ),
                    IndexEvent::Finished { report } => (
                        "finished",
                        serde_json::json!({ "path": report.path, "ok": report.result.is_ok() }),
                    ),
                };
                listener.send(kind, payload.to_string());
            };
            let reports = library.index_paths(&paths, 1, &on_index)?;
            let rows: Vec<serde_json::Value> = reports
                .iter()
                .map(|r| match &r.result {
                    Ok(outcome) => serde_json::json!({"path": r.path, "ok": true, "outcome": outcome}),
                    Err(e) => serde_json::json!({
                        "path": r.path, "ok": false, "error": e.to_string(),
                        "fault": format!("{:?}", e.fault()).to_lowercase(),
                    }),
                })
                .collect();
            if embed && reports.iter().any(|r| r.result.is_ok()) {
                // Documents stay searchable by words when the embedding model cannot load.
                if let Err(e) = library.embed_pending(&|done, total, name| {
                    listener.send(
                        "progress",
                        serde_json::json!({ "path": name, "stage": "embed", "done": done, "total": total })
                            .to_string(),
                    )
                }) {
                    listener.send(
                        "message",
                        serde_json::json!({ "stage": "embed", "text": e.to_string() }).to_string(),
                    );
                }
            }
            Ok(rows)
        })?;
        json(&reports)
    }

    /// The library's documents (JSON list of summaries).
    fn list(&self, py: Python<'_>) -> PyResult<String> {
        let documents = self.run(py, |library, _| library.list())?;
        json(&documents)
    }

    /// One document, whole (JSON): text, nodes, chunks, metadata, cross-references.
    fn document(&self, py: Python<'_>, doc: String) -> PyResult<String> {
        let document = self.run(py, |library, _| library.document(&doc))?;
        json(&document)
    }

    /// Remove a document; whether it was there.
    fn remove(&self, py: Python<'_>, doc: String) -> PyResult<bool> {
        self.run(py, |library, _| library.remove(&doc))
    }

    /// Ranked sections for `query` (JSON search results).
    #[pyo3(signature = (query, doc = None, company = None, fiscal_year = None, limit = 10, use_model = false))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        query: String,
        doc: Option<String>,
        company: Option<String>,
        fiscal_year: Option<i32>,
        limit: usize,
        use_model: bool,
    ) -> PyResult<String> {
        let mut request = request(&query, doc, company, fiscal_year);
        request.limit = limit.max(1);
        request.use_model = use_model;
        let results = self.run(py, |library, _| library.search(&request))?;
        json(&results)
    }

    /// An answer with verified citations (JSON). `on_event(kind, text)` gets "step" and
    /// "token" events as they happen; `max_iterations` bounds the model's plan steps.
    #[pyo3(signature = (question, doc = None, company = None, fiscal_year = None, max_iterations = None, on_event = None))]
    #[allow(clippy::too_many_arguments)]
    fn ask(
        &self,
        py: Python<'_>,
        question: String,
        doc: Option<String>,
        company: Option<String>,
        fiscal_year: Option<i32>,
        max_iterations: Option<usize>,
        on_event: Option<Py<PyAny>>,
    ) -> PyResult<String> {
        let scope = request("", doc, company, fiscal_year);
        let answer = self.run(py, |library, cancel| {
            let usual = library.plan_steps;
            if let Some(steps) = max_iterations {
                library.plan_steps = steps;
            }
            let listener = Listener {
                callable: on_event.as_ref(),
                cancel,
            };
            let answer = library.ask(&question, &scope, &|event| match event {
                AskEvent::Step(text) => listener.send("step", text.to_string()),
                AskEvent::Token(text) => listener.send("token", text.to_string()),
            });
            library.plan_steps = usual;
            answer
        })?;
        json(&answer)
    }

    /// Every piece of evidence on `topic` (JSON report). `on_event(kind, json)` gets
    /// "progress" and "hit" events as the sections are scanned.
    #[pyo3(signature = (topic, doc = None, company = None, fiscal_year = None, threshold = None, use_model = true, on_event = None))]
    #[allow(clippy::too_many_arguments)]
    fn provenance(
        &self,
        py: Python<'_>,
        topic: String,
        doc: Option<String>,
        company: Option<String>,
        fiscal_year: Option<i32>,
        threshold: Option<f64>,
        use_model: bool,
        on_event: Option<Py<PyAny>>,
    ) -> PyResult<String> {
        let mut scope = request(&topic, doc, company, fiscal_year);
        scope.use_model = use_model;
        let mut options = ScanOptions::default();
        if let Some(threshold) = threshold {
            options.threshold = threshold;
        }
        let report = self.run(py, |library, cancel| {
            let listener = Listener {
                callable: on_event.as_ref(),
                cancel,
            };
            library.provenance(&topic, &scope, options, &|event| match event {
                ProvenanceEvent::Progress { done, total } => listener.send(
                    "progress",
                    serde_json::json!({ "done": done, "total": total }).to_string(),
                ),
                ProvenanceEvent::Hit(evidence) => {
                    listener.send("hit", serde_json::to_string(evidence).unwrap_or_default())
                }
            })
        })?;
        json(&report)
    }

    /// Ask the work in progress to stop at its next step (safe from any thread).
    fn cancel(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }
}

/// Where the CLI and the desktop keep the library when none is named.
#[pyfunction]
fn default_library_dir() -> PathBuf {
    docindex_app::default_library_dir()
}

/// The extension module.
#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Engine>()?;
    m.add_function(wrap_pyfunction!(default_library_dir, m)?)?;
    m.add("DocumentIndexError", py.get_type::<DocumentIndexError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("ProviderError", py.get_type::<ProviderError>())?;
    m.add("ResourceError", py.get_type::<ResourceError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add("Cancelled", py.get_type::<Cancelled>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
