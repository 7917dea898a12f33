//! The application layer's errors, each saying whose fault it is.

use docindex_core::embed::EmbedError;
use docindex_core::llm::cache::CacheError;
use docindex_core::llm::LlmError;
use docindex_core::{Fault, IngestError};
use docindex_store::StoreError;
use std::path::PathBuf;
use thiserror::Error;

/// Errors of the application layer; `fault()` says whose fault each is.
#[derive(Debug, Error)]
pub enum AppError {
    #[error("{path}: {source}")]
    File { path: PathBuf, source: IngestError },
    #[error("{path}: cannot read the file: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The library path names something that cannot hold a library.
    #[error("{path}: {reason}")]
    NotALibraryFolder { path: PathBuf, reason: &'static str },
    #[error("cannot create the library folder {path}: {source}")]
    LibraryDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no document '{0}' in the library (use `docindex list` to see ids and names)")]
    UnknownDocument(String),
    #[error("'{query}' matches several documents: {matches}")]
    AmbiguousDocument { query: String, matches: String },
    #[error("document {doc} has no node '{node}'")]
    UnknownNode { doc: String, node: String },
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    /// The model could not be set up (bad model string, missing key or region).
    #[error("{0}")]
    Llm(LlmError),
    #[error("{0}")]
    Cache(CacheError),
    #[error("settings: {0}")]
    Settings(String),
    #[error("{0}")]
    Embed(EmbedError),
    #[error("{0}")]
    Finance(docindex_core::finance::FinanceError),
    #[error(transparent)]
    Question(docindex_core::question::QuestionError),
    #[error("{0}")]
    Topic(docindex_core::provenance::topics::TopicError),
    #[error("{0}")]
    Companies(docindex_core::companies::CompaniesDataError),
    /// The copy of an indexed PDF (for its page view) could not be written.
    #[error("cannot keep a copy of the PDF at {path} for its page view: {source}")]
    KeepSource {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A document's pages cannot be shown; the reason says what to do.
    #[error("{doc}: cannot show its pages: {reason}")]
    PageSource { doc: String, reason: String },
    /// The vector store outside the library (Chroma) is misnamed, down, slow or refused.
    #[error("{0}")]
    VectorStore(docindex_core::vectors::VectorStoreError),
    /// Indexing one file panicked: our bug, contained to that file.
    #[error(
        "{path}: indexing stopped on an internal error ({message}); this is a bug in \
         docindex, not a fault of the file: please report it with the file. Nothing of \
         this file was stored; the other files were indexed"
    )]
    Panicked { path: PathBuf, message: String },
    /// A search panicked outside its dense leg (which is dropped alone): our bug.
    #[error(
        "the search for {query:?} stopped on an internal error ({message}); this is a bug \
         in docindex: please report it with the query"
    )]
    SearchPanicked { query: String, message: String },
    /// A question, topic or query longer than the engine reads.
    #[error(
        "the {what} is {chars} characters long; at most {max} are read: say it in fewer words \
         (the filing's own text need not be pasted in, it is read from the library)"
    )]
    TextTooLong {
        what: &'static str,
        chars: usize,
        max: usize,
    },
}

/// The longest question `ask` reads, in characters: the longest analyst questions of the
/// evaluation sets are under 1,000.
pub const MAX_QUESTION_CHARS: usize = 4_000;

/// The longest topic `provenance` reads, in characters: a topic is a few words, and the
/// scan's work grows with every term it holds.
pub const MAX_TOPIC_CHARS: usize = 1_000;

/// The longest query `search` reads, in characters.
pub const MAX_QUERY_CHARS: usize = 4_000;

/// `text` when it is at most `max` characters long, else the error naming `what` it is.
pub fn within_length<'t>(what: &'static str, text: &'t str, max: usize) -> Result<&'t str> {
    // Counting stops past the limit: a pasted book is refused as fast as a long line.
    let chars = text.chars().take(max + 1).count();
    match chars > max {
        true => Err(AppError::TextTooLong {
            what,
            chars: text.chars().count(),
            max,
        }),
        false => Ok(text),
    }
}

impl AppError {
    /// Whether the library could not be written because it is read-only for this user (a
    /// shared folder, another user's library): what was asked is still answered.
    pub fn is_read_only(&self) -> bool {
        matches!(self, AppError::Store(StoreError::ReadOnly { .. }))
    }

    pub fn fault(&self) -> Fault {
        match self {
            AppError::File { source, .. } => source.fault(),
            AppError::Read { .. }
            | AppError::UnknownDocument(_)
            | AppError::AmbiguousDocument { .. }
            | AppError::UnknownNode { .. }
            | AppError::PageSource { .. }
            | AppError::TextTooLong { .. }
            | AppError::NotALibraryFolder { .. } => Fault::User,
            AppError::Store(StoreError::Corrupt(_)) => Fault::Bug,
            AppError::LibraryDir { .. }
            | AppError::Store(_)
            | AppError::Threads(_)
            | AppError::KeepSource { .. }
            | AppError::Cache(_) => Fault::Runtime,
            AppError::Llm(e) => e.fault(),
            AppError::Settings(_) => Fault::User,
            AppError::Embed(_) => Fault::Runtime,
            AppError::Finance(e) => e.fault(),
            AppError::Question(e) => e.fault(),
            AppError::Topic(e) => e.fault(),
            AppError::Companies(_)
            | AppError::Panicked { .. }
            | AppError::SearchPanicked { .. } => Fault::Bug,
            AppError::VectorStore(e) => e.fault(),
        }
    }
}

pub type Result<T, E = AppError> = std::result::Result<T, E>;
