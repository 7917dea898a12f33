//! Answers and provenance reports kept in the library, so they can be reopened after a
//! restart; on reopening, every cited span is checked against the stored text again.

use crate::{AppError, Library, Result};
use docindex_core::charmap::CharMap;
use docindex_core::model::Span;
use docindex_core::provenance::Evidence;
use docindex_core::qa::Answer;
use docindex_core::store::DocumentStore;
use serde::Serialize;

/// A saved result as reopened.
#[derive(Debug, Clone, Serialize)]
pub struct SavedResult {
    pub id: i64,
    pub kind: String,
    pub title: String,
    pub created_at: String,
    pub result: serde_json::Value,
    /// Spans that no longer hold their text (the document was removed or replaced).
    pub stale: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SavedEntry {
    pub id: i64,
    pub kind: String,
    pub title: String,
    pub created_at: String,
}

/// Where a result went: saved under an id, or not saved because the library is read-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    As(i64),
    ReadOnly,
}

impl Saved {
    /// The note a user reads after the result.
    pub fn note(&self) -> String {
        match self {
            Saved::As(id) => format!("saved as #{id} (docindex saved {id})"),
            Saved::ReadOnly => "not saved: the library is read-only for this user".to_string(),
        }
    }

    pub fn id(&self) -> Option<i64> {
        match self {
            Saved::As(id) => Some(*id),
            Saved::ReadOnly => None,
        }
    }
}

/// A save's outcome with a read-only library as an outcome, not an error.
pub fn saved_unless_read_only(saved: Result<i64>) -> Result<Saved> {
    match saved {
        Ok(id) => Ok(Saved::As(id)),
        Err(e) if e.is_read_only() => Ok(Saved::ReadOnly),
        Err(e) => Err(e),
    }
}

impl Library {
    pub fn save_answer(&self, answer: &Answer) -> Result<i64> {
        let json = serde_json::to_string(answer).map_err(|e| AppError::Settings(e.to_string()))?;
        Ok(self.store.save("answer", &answer.question, &json)?)
    }

    pub fn save_report(&self, report: &crate::provenance::ProvenanceReport) -> Result<i64> {
        let json = serde_json::to_string(report).map_err(|e| AppError::Settings(e.to_string()))?;
        Ok(self.store.save("provenance", &report.topic, &json)?)
    }

    pub fn saved_list(&self) -> Result<Vec<SavedEntry>> {
        Ok(self
            .store
            .saved_list()?
            .into_iter()
            .map(|(id, kind, title, created_at)| SavedEntry {
                id,
                kind,
                title,
                created_at,
            })
            .collect())
    }

    /// Reopen a saved result and check that each of its spans still holds its text.
    pub fn reopen(&self, id: i64) -> Result<SavedResult> {
        let (kind, title, created_at, json) = self
            .store
            .saved_get(id)?
            .ok_or_else(|| AppError::Settings(format!("no saved result {id}")))?;
        let result: serde_json::Value =
            serde_json::from_str(&json).map_err(|e| AppError::Settings(e.to_string()))?;
        let mut spans: Vec<(String, Span, String)> = Vec::new();
        if kind == "answer" {
            let answer: Answer = serde_json::from_value(result.clone())
                .map_err(|e| AppError::Settings(e.to_string()))?;
            for c in answer.citations {
                let span = Span {
                    start_char: c.start_char,
                    end_char: c.end_char,
                };
                spans.push((c.doc_id, span, c.excerpt));
            }
        } else if let Some(evidence) = result.get("evidence") {
            let evidence: Vec<Evidence> = serde_json::from_value(evidence.clone())
                .map_err(|e| AppError::Settings(e.to_string()))?;
            for e in evidence {
                for x in e.excerpts {
                    spans.push((e.doc_id.clone(), x.span(), x.text));
                }
            }
        }
        let mut stale = Vec::new();
        for (doc_id, span, text) in spans {
            let holds = self.store.get(&doc_id)?.is_some_and(|doc| {
                span.end_char <= doc.text.chars().count()
                    && CharMap::new(&doc.text).slice(span) == text
            });
            if !holds {
                stale.push(format!("{doc_id} [{}..{}]", span.start_char, span.end_char));
            }
        }
        Ok(SavedResult {
            id,
            kind,
            title,
            created_at,
            result,
            stale,
        })
    }
}
