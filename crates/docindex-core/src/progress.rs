//! Progress reporting: long jobs push stages to a sink the caller implements (CLI bars,
//! desktop events, a `Vec` in tests), and can be cancelled through it.

use serde::Serialize;

/// A stage of indexing one document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Decode,
    Canonical,
    Tokens,
    Tree,
    Chunks,
    Enrich,
    /// LLM: re-splitting sections the parsers were unsure of.
    Refine,
    /// LLM: abstractive node summaries.
    Summaries,
    /// LLM: the document description and metadata gaps.
    Describe,
    /// LLM: cross-references the patterns could not resolve.
    Resolve,
    Store,
}

/// Receives progress; `cancelled` is polled between stages and between model calls.
pub trait ProgressSink {
    fn stage(&mut self, stage: Stage, done: u64, total: u64);
    /// A line worth showing beside the bar (what the stage is doing or skipped).
    fn message(&mut self, _stage: Stage, _text: &str) {}
    fn cancelled(&self) -> bool {
        false
    }
}

/// Discards progress.
pub struct NoProgress;

impl ProgressSink for NoProgress {
    fn stage(&mut self, _stage: Stage, _done: u64, _total: u64) {}
}
