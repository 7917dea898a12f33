//! Progress of one file being indexed, forwarded to the caller as events, each stage's time
//! logged, cancelled by the library's flag.

use crate::IndexEvent;
use docindex_core::progress::{ProgressSink, Stage};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Progress of one file, forwarded as events; cancelled by the library's flag.
pub(crate) struct FileProgress<'a> {
    pub(crate) path: &'a Path,
    pub(crate) on_event: &'a (dyn Fn(IndexEvent) + Sync),
    pub(crate) cancel: &'a AtomicBool,
    /// The stage running and when it began, so the log shows each stage's time.
    pub(crate) current: Option<(Stage, Instant)>,
}

impl FileProgress<'_> {
    /// Log the stage that just ended, with its time.
    fn close_stage(&mut self) {
        if let Some((stage, began)) = self.current.take() {
            tracing::info!(stage = ?stage, millis = began.elapsed().as_millis() as u64, "stage done");
        }
    }
}

impl Drop for FileProgress<'_> {
    fn drop(&mut self) {
        self.close_stage();
    }
}

impl ProgressSink for FileProgress<'_> {
    fn stage(&mut self, stage: Stage, done: u64, total: u64) {
        if self.current.map(|(s, _)| s) != Some(stage) {
            self.close_stage();
            self.current = Some((stage, Instant::now()));
        }
        (self.on_event)(IndexEvent::Progress {
            path: self.path,
            stage,
            done,
            total,
        });
    }
    fn message(&mut self, stage: Stage, text: &str) {
        (self.on_event)(IndexEvent::Message {
            path: self.path,
            stage,
            text,
        });
    }
    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }
}
