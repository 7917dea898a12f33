//! Test doubles for the core's boundaries, compiled only for tests and for crates that
//! enable the `test-support` feature: a model scripted by a function, a progress sink that
//! records, and a document store in memory.

use crate::llm::{Llm, LlmError, LlmReply, LlmRequest, Usage};
use crate::model::DocumentIndex;
use crate::progress::{ProgressSink, Stage};
use crate::store::{DocumentStore, DocumentSummary};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// A model whose replies come from a function, counting its calls: for tests of the core.
pub struct ScriptedLlm<F> {
    pub model: String,
    pub reply: F,
    pub calls: AtomicU64,
}

impl<F> ScriptedLlm<F>
where
    F: Fn(&LlmRequest) -> Result<String, LlmError> + Send + Sync,
{
    pub fn new(model: &str, reply: F) -> Self {
        ScriptedLlm {
            model: model.to_string(),
            reply,
            calls: AtomicU64::new(0),
        }
    }

    pub fn call_count(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }
}

impl<F> Llm for ScriptedLlm<F>
where
    F: Fn(&LlmRequest) -> Result<String, LlmError> + Send + Sync,
{
    fn model(&self) -> &str {
        &self.model
    }

    fn complete(&self, request: &LlmRequest) -> Result<LlmReply, LlmError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let text = (self.reply)(request)?;
        Ok(LlmReply {
            usage: Usage {
                prompt_tokens: (request.prompt_chars() / 4) as u64,
                completion_tokens: (text.len() / 4) as u64,
            },
            text,
            cached: false,
            truncated: false,
        })
    }
}

/// Records progress, for tests.
#[derive(Default)]
pub struct RecordedProgress {
    pub events: Vec<(Stage, u64, u64)>,
    pub messages: Vec<(Stage, String)>,
    pub cancel_at: Option<Stage>,
}

impl ProgressSink for RecordedProgress {
    fn stage(&mut self, stage: Stage, done: u64, total: u64) {
        self.events.push((stage, done, total));
    }
    fn message(&mut self, stage: Stage, text: &str) {
        self.messages.push((stage, text.to_string()));
    }

    fn cancelled(&self) -> bool {
        self.cancel_at
            .is_some_and(|s| self.events.iter().any(|(e, _, _)| *e == s))
    }
}

/// Keeps documents in memory; the storage contract without a database.
#[derive(Default)]
pub struct MemoryStore {
    docs: BTreeMap<String, DocumentIndex>,
}

impl DocumentStore for MemoryStore {
    type Error = std::convert::Infallible;

    fn replace(&mut self, doc: &DocumentIndex) -> Result<Vec<String>, Self::Error> {
        let replaced: Vec<String> = self
            .docs
            .values()
            .filter(|d| d.doc_name == doc.doc_name || d.doc_id == doc.doc_id)
            .map(|d| d.doc_id.clone())
            .collect();
        for id in &replaced {
            self.docs.remove(id);
        }
        self.docs.insert(doc.doc_id.clone(), doc.clone());
        Ok(replaced)
    }
    fn get(&self, doc_id: &str) -> Result<Option<DocumentIndex>, Self::Error> {
        Ok(self.docs.get(doc_id).cloned())
    }
    fn list(&self) -> Result<Vec<DocumentSummary>, Self::Error> {
        Ok(self.docs.values().map(DocumentSummary::of).collect())
    }
    fn remove(&mut self, doc_id: &str) -> Result<bool, Self::Error> {
        Ok(self.docs.remove(doc_id).is_some())
    }
}
