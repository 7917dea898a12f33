//! What the shell sends to the web UI: documents as the reader shows them, and the
//! messages of long jobs (indexing, answers, provenance scans) streamed over channels.

use docindex_app::provenance::ProvenanceReport;
use docindex_app::{IndexOutcome, IndexReport};
use docindex_core::model::{CrossRef, DocumentIndex, Node};
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
}

impl DocumentView {
    pub fn of(doc: DocumentIndex) -> Self {
        DocumentView {
            summary: DocumentSummary::of(&doc),
            text: doc.text,
            nodes: doc.nodes,
            cross_refs: doc.cross_refs,
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
    pub saved_id: i64,
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
    pub saved_id: i64,
    pub report: ProvenanceReport,
}
