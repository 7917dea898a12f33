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
use docindex_core::llm::LlmError;
use docindex_core::provenance::ScanOptions;
use docindex_core::{Fault, IndexSettings};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use std::cell::Cell;
use std::collections::HashSet;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

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
/// message names the file and the reason, with the values of key variables taken out.
fn raised(error: AppError) -> PyErr {
    let message = redacted(error.to_string());
    match (&error, error.fault()) {
        // A model string the library cannot use, or a missing key: the user's setting.
        (AppError::Llm(LlmError::Config(_)), _) => InputError::new_err(message),
        (AppError::Llm(_), Fault::User | Fault::Runtime) => ProviderError::new_err(message),
        (_, Fault::User) => InputError::new_err(message),
        (_, Fault::Runtime) => ResourceError::new_err(message),
        (_, Fault::Bug) => InternalError::new_err(message),
    }
}

/// `message` without the value of any key, token or secret in the environment (a
/// provider's refusal may quote what it was sent).
fn redacted(message: String) -> String {
    let secret_names = ["KEY", "TOKEN", "SECRET", "PASSWORD"];
    std::env::vars()
        .filter(|(name, value)| {
            value.len() >= 8 && secret_names.iter().any(|s| name.to_uppercase().contains(s))
        })
        .fold(message, |m, (_, value)| m.replace(&value, "[redacted]"))
}

/// JSON of a value the engine returned; failing to write it is our bug.
fn json<T: serde::Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| InternalError::new_err(e.to_string()))
}

/// A path as JSON text (a name that is not UTF-8 is shown with replacement characters).
fn shown(path: &std::path::Path) -> String {
    path.to_string_lossy().into_owned()
}

thread_local! {
    /// The ticket of the call this thread makes (set from Python by `set_ticket`), so that
    /// cancelling one task stops its own call and no other.
    static TICKET: Cell<Option<u64>> = const { Cell::new(None) };
    /// Set while this thread runs an `on_event` callable: a call back into the library
    /// from there would wait for itself.
    static IN_CALLBACK: Cell<bool> = const { Cell::new(false) };
}

/// What one call shares with its listener: the cancel flag, and the first exception a
/// callable raised (raised again when the call ends).
struct Call<'a> {
    cancel: &'a AtomicBool,
    failure: Mutex<Option<PyErr>>,
}

impl<'a> Call<'a> {
    fn listener(&'a self, callable: Option<&'a Py<PyAny>>) -> Listener<'a> {
        Listener {
            callable,
            call: self,
        }
    }
}

/// Hands an event to the Python callable, with the GIL taken for the call. A callable that
/// raises cancels the work, and its exception is what the call raises.
struct Listener<'a> {
    callable: Option<&'a Py<PyAny>>,
    call: &'a Call<'a>,
}

impl Listener<'_> {
    /// Ends the call with `error` (the first one kept).
    fn fail(&self, error: PyErr) {
        let mut failure = lock(&self.call.failure);
        if failure.is_none() {
            *failure = Some(error);
        }
        self.call.cancel.store(true, Ordering::SeqCst);
    }

    fn send(&self, kind: &str, payload: String) {
        let Some(callable) = self.callable else {
            return;
        };
        IN_CALLBACK.set(true);
        let result = Python::attach(|py| callable.call1(py, (kind, payload)).map(|_| ()));
        IN_CALLBACK.set(false);
        if let Err(error) = result {
            self.fail(error);
        }
    }
}

/// A lock, taken even when a panicking call poisoned it (the panic was reported).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Which call holds the library, and the calls cancelled before or while they ran.
#[derive(Default)]
struct Calls {
    next: u64,
    running: Option<u64>,
    cancelled: HashSet<u64>,
}

/// A library folder opened for Python: every call runs the engine with the GIL released.
#[pyclass(frozen, module = "documentindex._engine")]
struct Engine {
    library: Mutex<Library>,
    cancel: Arc<AtomicBool>,
    calls: Mutex<Calls>,
    cancelled_calls: AtomicU64,
    dir: PathBuf,
    model: Option<String>,
}

impl Engine {
    /// Runs `work` on the library with the GIL released, as the call of this thread's
    /// ticket: a call cancelled before it starts does not start; one cancelled while it
    /// runs ends as `Cancelled`; an exception its listener's callable raised is raised.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut Library, &Call<'_>) -> Result<T, AppError> + Send,
    ) -> PyResult<T> {
        if IN_CALLBACK.get() {
            return Err(InputError::new_err(
                "the library cannot be called from its own on_event callable (it is busy with \
                 the call that sent the event): keep what you need and call after",
            ));
        }
        let ticket = TICKET.get();
        py.detach(|| {
            let mut library = lock(&self.library);
            {
                let mut calls = lock(&self.calls);
                if ticket.is_some_and(|t| calls.cancelled.remove(&t)) {
                    self.cancelled_calls.fetch_add(1, Ordering::SeqCst);
                    return Err(Cancelled::new_err("cancelled before it started"));
                }
                calls.running = ticket;
                self.cancel.store(false, Ordering::SeqCst);
            }
            let call = Call {
                cancel: &self.cancel,
                failure: Mutex::new(None),
            };
            let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| work(&mut library, &call)));
            let cancelled = self.cancel.load(Ordering::SeqCst);
            {
                let mut calls = lock(&self.calls);
                calls.running = None;
                if let Some(t) = ticket {
                    calls.cancelled.remove(&t);
                }
            }
            if let Some(error) = lock(&call.failure).take() {
                return Err(error);
            }
            if cancelled {
                self.cancelled_calls.fetch_add(1, Ordering::SeqCst);
                return Err(Cancelled::new_err("cancelled"));
            }
            match outcome {
                Ok(result) => result.map_err(raised),
                Err(payload) => {
                    let what = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    Err(InternalError::new_err(format!(
                        "the engine stopped on an internal error ({what}); this is a bug in \
                         DocumentIndex: please report it"
                    )))
                }
            }
        })
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
            calls: Mutex::new(Calls::default()),
            cancelled_calls: AtomicU64::new(0),
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
        let reports = self.run(py, |library, call| {
            let listener = call.listener(on_event.as_ref());
            let on_index = |event: IndexEvent| {
                let (kind, payload) = match event {
                    IndexEvent::Started { path } => {
                        ("started", serde_json::json!({ "path": shown(path) }))
                    }
                    IndexEvent::Progress {
                        path,
                        stage,
                        done,
                        total,
                    } => (
                        "progress",
                        serde_json::json!({ "path": shown(path), "stage": stage, "done": done, "total": total }),
                    ),
                    IndexEvent::Message { path, stage, text } => (
                        "message",
                        serde_json::json!({ "path": shown(path), "stage": stage, "text": text }),
                    ),
                    IndexEvent::Finished { report } => (
                        "finished",
                        serde_json::json!({ "path": shown(&report.path), "ok": report.result.is_ok() }),
                    ),
                };
                listener.send(kind, payload.to_string());
            };
            let reports = library.index_paths(&paths, 1, &on_index)?;
            let rows: Vec<serde_json::Value> = reports
                .iter()
                .map(|r| match &r.result {
                    Ok(outcome) => serde_json::json!({"path": shown(&r.path), "ok": true, "outcome": outcome}),
                    Err(e) => serde_json::json!({
                        "path": shown(&r.path), "ok": false, "error": redacted(e.to_string()),
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
        let answer = self.run(py, |library, call| {
            let usual = library.plan_steps;
            if let Some(steps) = max_iterations {
                library.plan_steps = steps;
            }
            let listener = call.listener(on_event.as_ref());
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
        let report = self.run(py, |library, call| {
            let listener = call.listener(on_event.as_ref());
            library.provenance(&topic, &scope, options, &|event| match event {
                ProvenanceEvent::Progress { done, total } => listener.send(
                    "progress",
                    serde_json::json!({ "done": done, "total": total }).to_string(),
                ),
                ProvenanceEvent::Hit(evidence) => match serde_json::to_string(evidence) {
                    Ok(hit) => listener.send("hit", hit),
                    Err(e) => listener.fail(InternalError::new_err(format!(
                        "a section with evidence could not be written as JSON: {e}"
                    ))),
                },
            })
        })?;
        json(&report)
    }

    /// A ticket for one call: `set_ticket` it on the thread that makes the call, then
    /// `cancel(ticket)` stops that call and no other.
    fn ticket(&self) -> u64 {
        let mut calls = lock(&self.calls);
        calls.next += 1;
        calls.next
    }

    /// The ticket of the calls this thread makes from now on (None: calls without one).
    #[pyo3(signature = (ticket = None))]
    fn set_ticket(&self, ticket: Option<u64>) {
        TICKET.set(ticket);
    }

    /// Stop a call at its next step (safe from any thread): the call of `ticket`, whether
    /// it runs now or has yet to start; without a ticket, whatever call runs now.
    #[pyo3(signature = (ticket = None))]
    fn cancel(&self, ticket: Option<u64>) {
        let mut calls = lock(&self.calls);
        match ticket {
            None => self.cancel.store(true, Ordering::SeqCst),
            Some(t) if calls.running == Some(t) => {
                calls.cancelled.insert(t);
                self.cancel.store(true, Ordering::SeqCst);
            }
            Some(t) => {
                calls.cancelled.insert(t);
            }
        }
    }

    /// How many calls ended cancelled since the engine was opened.
    #[getter]
    fn cancelled_calls(&self) -> u64 {
        self.cancelled_calls.load(Ordering::SeqCst)
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
