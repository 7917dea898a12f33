//! Typed errors of the core, each saying whose fault it is.

use thiserror::Error;

/// Whose fault an error is: decides the CLI exit code and how the app words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// The input was bad: the user can fix it by choosing another file or option.
    User,
    /// Something outside us failed (disk, database, provider); retrying may help.
    Runtime,
    /// Our own bug: an invariant did not hold.
    Bug,
}

/// Why a document could not be ingested. The file name is added by the caller.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum IngestError {
    #[error("the file is empty")]
    Empty,
    #[error("the file is binary data ({0}), not a text, HTML or Markdown document")]
    Binary(String),
    #[error("unsupported format: {0}")]
    Unsupported(String),
    #[error("the file is {size} bytes, over the configured limit of {limit} bytes")]
    TooLarge { size: u64, limit: u64 },
    #[error(
        "the file holds more than the configured limit of {limit} bytes, though it reported less"
    )]
    OverLimit { limit: u64 },
    #[error("the PDF's compressed streams inflate to more than {limit_mb} MB, the budget ({ratio} times the file's size, at least 16 MB): a decompression bomb, refused before reading")]
    PdfInflates { limit_mb: u64, ratio: u64 },
    #[error("reading the PDF took longer than the configured budget of {seconds} s (stopped after page {pages})")]
    PdfTooSlow { seconds: u64, pages: u32 },
    #[error("{percent}% of the text could not be decoded as {encoding}: the file is not text in that encoding")]
    Undecodable { encoding: String, percent: u32 },
    #[error("the document has no readable text after conversion")]
    NoText,
    #[error("the PDF is encrypted or password-protected; remove the password and try again")]
    Encrypted,
    #[error("not a readable PDF: {0}")]
    CorruptPdf(String),
    #[error("the PDF has no text layer on any of its {pages} pages (a scan?); OCR is not supported, so there is nothing to index")]
    NoTextLayer { pages: u32 },
    #[error("the PDF has {pages} pages, over the limit of {limit} pages")]
    TooManyPages { pages: u32, limit: u32 },
    #[error("PDF support needs the pdfium library: {0}")]
    PdfiumMissing(String),
    /// The language model failed in a way retries did not cure; nothing was stored.
    #[error("the language model failed: {0}")]
    Llm(#[from] crate::llm::LlmError),
    #[error(transparent)]
    PageIndex(#[from] crate::import::ImportError),
    #[error("indexing was cancelled")]
    Cancelled,
    /// The PDF read now does not give the text stored for it: another layout version
    /// indexed it, so boxes recomputed now would mark other characters.
    #[error("this version reads the PDF's text differently from the version that indexed it (first difference at character {at}), so its pages cannot be marked; remove the document and index the file again (indexing an unchanged file keeps its stored text)")]
    LayoutChanged { at: usize },
    #[error("internal error: {0}")]
    Internal(String),
}

impl IngestError {
    pub fn fault(&self) -> Fault {
        match self {
            IngestError::Internal(_) => Fault::Bug,
            IngestError::PdfiumMissing(_) | IngestError::LayoutChanged { .. } => Fault::Runtime,
            IngestError::Llm(e) => e.fault(),
            _ => Fault::User,
        }
    }
}

pub type Result<T, E = IngestError> = std::result::Result<T, E>;
