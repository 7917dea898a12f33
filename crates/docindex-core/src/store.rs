//! The storage boundary of the core: a trait the SQLite library implements, and an
//! in-memory implementation for tests.

use crate::model::{DocType, DocumentIndex, SourceFormat};
use serde::{Deserialize, Serialize};

/// One line of a library listing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentSummary {
    pub doc_id: String,
    pub doc_name: String,
    pub doc_type: DocType,
    pub format: SourceFormat,
    /// PDF pages (0 for other formats).
    pub page_count: usize,
    pub company_name: Option<String>,
    pub ticker: Option<String>,
    pub fiscal_year: Option<i32>,
    pub period_end_date: Option<String>,
    pub node_count: usize,
    pub char_count: usize,
    pub source_sha256: String,
    pub settings_key: String,
    /// One line on what the document is (written by the model when one was used).
    pub description: Option<String>,
    /// What went wrong or was left out while indexing (pages without text, LLM stages the
    /// provider failed).
    #[serde(default)]
    pub warnings: Vec<String>,
}

impl DocumentSummary {
    pub fn of(doc: &DocumentIndex) -> Self {
        DocumentSummary {
            doc_id: doc.doc_id.clone(),
            doc_name: doc.doc_name.clone(),
            doc_type: doc.doc_type,
            format: doc.format,
            page_count: doc.pages.len(),
            company_name: doc.metadata.company_name.clone(),
            ticker: doc.metadata.ticker.clone(),
            fiscal_year: doc.metadata.fiscal_year,
            period_end_date: doc.metadata.period_end_date.clone(),
            node_count: doc.nodes.len(),
            char_count: doc.text.chars().count(),
            source_sha256: doc.source_sha256.clone(),
            settings_key: doc.settings_key.clone(),
            description: doc.description.clone(),
            warnings: doc.warnings.clone(),
        }
    }
}

/// Where indexed documents live. `replace` is atomic: the old entry (same id or same
/// name) and the new one are never both or neither visible.
pub trait DocumentStore {
    type Error: std::error::Error + Send + Sync + 'static;

    /// Store `doc`, replacing any document with the same id or the same name; returns the
    /// ids of the documents it replaced.
    fn replace(&mut self, doc: &DocumentIndex) -> Result<Vec<String>, Self::Error>;
    fn get(&self, doc_id: &str) -> Result<Option<DocumentIndex>, Self::Error>;
    fn list(&self) -> Result<Vec<DocumentSummary>, Self::Error>;
    fn remove(&mut self, doc_id: &str) -> Result<bool, Self::Error>;
}
