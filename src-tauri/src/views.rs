//! What the shell sends to the web UI: documents as the reader shows them, and the
//! messages of long jobs (indexing, answers, provenance scans) streamed over channels.

use docindex_app::provenance::ProvenanceReport;
use docindex_app::{IndexOutcome, IndexReport};
use docindex_core::model::{CrossRef, DocumentIndex, Node, PageInfo};
use docindex_core::progress::Stage;
use docindex_core::provenance::Evidence;
use docindex_core::qa::Answer;
use docindex_core::store::DocumentSummary;
use serde::Serialize;

/// A document for the reader: its listing line, full text, tree and cross-references.
/// Spans count Unicode scalar values (chars) of `text`.
#[derive(Debug, Serialize)]
pub struct DocumentView {
    pub summary: DocumentSummary,
    pub text: String,
    pub nodes: Vec<Node>,
    pub cross_refs: Vec<CrossRef>,
    /// PDF only: each page's range of the text and printed label.
    pub pages: Vec<PageInfo>,
}

impl DocumentView {
    pub fn of(doc: DocumentIndex) -> Self {
        DocumentView {
            summary: DocumentSummary::of(&doc),
            text: doc.text,
            nodes: doc.nodes,
            cross_refs: doc.cross_refs,
            pages: doc.pages,
        }
    }
}

/// A PDF page drawn for the page view.
#[derive(Debug, Serialize)]
pub struct PageImage {
    pub page: u32,
    pub page_count: u32,
    pub width_px: u32,
    pub height_px: u32,
    /// Page points to picture pixels: `x = a + b·x + c·y`, `y = d + e·x + f·y`.
    pub transform: [f64; 6],
    /// The picture as a `data:image/png;base64,…` URL.
    pub src: String,
}

impl PageImage {
    pub fn of(page: &docindex_pdf::RenderedPage) -> Self {
        use base64::Engine;
        PageImage {
            page: page.page,
            page_count: page.page_count,
            width_px: page.width_px,
            height_px: page.height_px,
            transform: page.transform,
            src: format!(
                "data:image/png;base64,{}",
                base64::engine::general_purpose::STANDARD.encode(&page.png)
            ),
        }
    }
}

/// A stored document as the library list shows it.
#[derive(Debug, Clone, Serialize)]
pub struct LibraryRow {
    #[serde(flatten)]
    pub summary: DocumentSummary,
    /// Its chunks have vectors: dense search reaches it.
    pub dense_ready: bool,
}

/// One file's result, as its row in the library shows it.
#[derive(Debug, Clone, Serialize)]
pub struct FileResult {
    pub path: String,
    /// `indexed`, `unchanged` or `failed`.
    pub status: &'static str,
    pub document: Option<DocumentSummary>,
    /// The error, naming the file and the reason, when it failed.
    pub error: Option<String>,
    pub fault: Option<String>,
}

impl FileResult {
    pub fn of(report: &IndexReport) -> Self {
        let path = report.path.display().to_string();
        match &report.result {
            Ok(IndexOutcome::Indexed { document, .. }) => FileResult {
                path,
                status: "indexed",
                document: Some(document.clone()),
                error: None,
                fault: None,
            },
            Ok(IndexOutcome::Unchanged { document }) => FileResult {
                path,
                status: "unchanged",
                document: Some(document.clone()),
                error: None,
                fault: None,
            },
            Err(e) => FileResult {
                path,
                status: "failed",
                document: None,
                error: Some(e.to_string()),
                fault: Some(format!("{:?}", e.fault()).to_lowercase()),
            },
        }
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum IndexMessage {
    Started {
        path: String,
    },
    Progress {
        path: String,
        stage: Stage,
        done: u64,
        total: u64,
    },
    Message {
        path: String,
        stage: Stage,
        text: String,
    },
    Finished(Box<FileResult>),
    /// The embedding stage after the files are stored (`done` of `total` documents).
    Embedding {
        done: usize,
        total: usize,
        doc_name: String,
    },
    EmbeddingDone {
        chunks: usize,
        millis: u64,
        /// Documents whose embedding stopped on an internal error, each "name: why".
        failed: Vec<String>,
    },
    /// Dense search waits: the local model is missing or failed.
    EmbeddingSkipped {
        reason: String,
    },
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AskMessage {
    Step { text: String },
    Token { text: String },
}

#[derive(Debug, Clone, Serialize)]
pub struct AskResult {
    /// `None` when the library is read-only for this user (the answer stands, unsaved).
    pub saved_id: Option<i64>,
    pub answer: Answer,
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ProvenanceMessage {
    Progress {
        topic: String,
        done: usize,
        total: usize,
    },
    Hit {
        topic: String,
        evidence: Evidence,
    },
}

#[derive(Debug, Clone, Serialize)]
pub struct ProvenanceResult {
    /// `None` when the library is read-only for this user (the report stands, unsaved).
    pub saved_id: Option<i64>,
    pub report: ProvenanceReport,
}
