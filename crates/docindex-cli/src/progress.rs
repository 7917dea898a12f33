//! Progress on standard error: a bar for the batch and one per file in flight when it is a
//! terminal, and a plain line per stage when it is not (a log shows what a long job does).

use docindex_app::{IndexEvent, IndexOutcome, Library};
use docindex_core::LlmEnhancement;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file's name as printed: on one line, its control characters escaped.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| crate::print::one_line(&n.to_string_lossy()).into_owned())
        .unwrap_or_default()
}

/// One bar for the batch and one per file in flight, showing its current stage.
pub struct FileBars {
    multi: MultiProgress,
    overall: ProgressBar,
    files: Mutex<HashMap<PathBuf, ProgressBar>>,
    /// Without a terminal: the stage each file last reported, so each stage prints once.
    stages: Mutex<HashMap<PathBuf, String>>,
    terminal: bool,
    quiet: bool,
}

impl FileBars {
    pub fn new(count: usize, quiet: bool) -> Self {
        let multi = MultiProgress::new();
        let overall = multi.add(ProgressBar::new(count as u64));
        overall.set_style(
            ProgressStyle::with_template(
                "{spinner} files [{bar:30}] {pos}/{len}  {per_sec}  about {eta} left",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        FileBars {
            multi,
            overall,
            files: Mutex::new(HashMap::new()),
            stages: Mutex::new(HashMap::new()),
            terminal: std::io::stderr().is_terminal(),
            quiet,
        }
    }

    fn file_bar(&self, path: &Path) -> ProgressBar {
        let mut files = self.files.lock().unwrap_or_else(|p| p.into_inner());
        files
            .entry(path.to_path_buf())
            .or_insert_with(|| {
                let bar = self.multi.add(ProgressBar::new(1));
                bar.set_style(
                    ProgressStyle::with_template("  {prefix:<32} {msg:<10} [{bar:20}] {pos}/{len}")
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                bar.set_prefix(file_name(path).chars().take(32).collect::<String>());
                bar
            })
            .clone()
    }

    /// Without a terminal, a line the first time a file reaches a stage.
    fn stage_line(&self, path: &Path, stage: &str) {
        if self.terminal || self.quiet {
            return;
        }
        let mut stages = self.stages.lock().unwrap_or_else(|p| p.into_inner());
        if stages.get(path).map(String::as_str) != Some(stage) {
            stages.insert(path.to_path_buf(), stage.to_string());
            eprintln!("  {}: {stage}", file_name(path));
        }
    }

    pub fn on_event(&self, event: &IndexEvent) {
        match event {
            IndexEvent::Started { path } => {
                self.file_bar(path);
            }
            IndexEvent::Progress {
                path,
                stage,
                done,
                total,
            } => {
                let stage = format!("{stage:?}").to_lowercase();
                self.stage_line(path, &stage);
                let bar = self.file_bar(path);
                bar.set_message(stage);
                bar.set_length((*total).max(1));
                bar.set_position(*done);
            }
            IndexEvent::Message { path, stage, text } => {
                let stage = format!("{stage:?}").to_lowercase();
                self.stage_line(path, &stage);
                self.file_bar(path).set_message(stage);
                tracing::info!("{}: {text}", path.display());
            }
            IndexEvent::Finished { report } => {
                if let Some(bar) = self
                    .files
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(&report.path)
                {
                    bar.finish_and_clear();
                    self.multi.remove(&bar);
                }
                self.overall.inc(1);
                if !self.quiet {
                    let mut line = finished_line(&report.result);
                    // In a log, the batch's progress every tenth of the way.
                    let (done, total) = (self.overall.position(), self.overall.length());
                    if let Some(total) = total.filter(|t| !self.terminal && *t >= 20) {
                        if done % (total / 10).max(1) == 0 || done == total {
                            let rate = done as f64 / self.overall.elapsed().as_secs_f64().max(1e-3);
                            let left = (total - done) as f64 / rate.max(1e-9);
                            line.push_str(&format!(
                                "\n{done} of {total} files, {rate:.1} files/s, about {left:.0} s left"
                            ));
                        }
                    }
                    self.multi.suspend(|| eprintln!("{line}"));
                }
            }
        }
    }

    pub fn finish(&self) {
        self.overall.finish_and_clear();
    }
}

fn finished_line(result: &Result<IndexOutcome, docindex_app::AppError>) -> String {
    match result {
        Ok(IndexOutcome::Indexed {
            document,
            chunks,
            millis,
            replaced,
            enhancement,
            warnings,
            ..
        }) => format!(
            "indexed  {}  {}  {} ({}), {} nodes, {} chunks, {} ms{}{}{}",
            document.doc_id,
            crate::print::one_line(&document.doc_name),
            document.doc_type.as_str(),
            document
                .company_name
                .as_deref()
                .unwrap_or("unknown company"),
            document.node_count,
            chunks,
            millis,
            replaced
                .as_ref()
                .map(|r| format!(", replaced {r}"))
                .unwrap_or_default(),
            enhancement.as_deref().map(llm_line).unwrap_or_default(),
            // The document's warnings hold the model stages that failed, and the rest.
            warnings
                .iter()
                .map(|w| format!("\nwarning: {w}"))
                .collect::<String>()
        ),
        Ok(IndexOutcome::Unchanged { document }) => {
            format!(
                "unchanged {}  {}",
                document.doc_id,
                crate::print::one_line(&document.doc_name)
            )
        }
        Err(e) => format!("failed   {}", crate::print::one_line(&e.to_string())),
    }
}

fn llm_line(e: &LlmEnhancement) -> String {
    format!(
        "\n         {}: {} calls ({} cached), {} prompt + {} completion tokens; {} summaries, \
         {} headings added ({} rejected), {} cross-references resolved, {} unknown ids dropped{}",
        e.model,
        e.usage.calls,
        e.usage.cache_hits,
        e.usage.prompt_tokens,
        e.usage.completion_tokens,
        match e.summaries_missing {
            0 => e.summaries_written.to_string(),
            missing => format!("{} ({missing} left out by the model)", e.summaries_written),
        },
        e.headings_added,
        e.headings_rejected,
        e.xrefs_resolved,
        e.unknown_ids_dropped,
        if e.metadata_filled.is_empty() {
            String::new()
        } else {
            format!("; filled {}", e.metadata_filled.join(", "))
        }
    )
}

/// Run the embedding stage with a bar (a line per document without a terminal); a missing
/// model is a note, not a failure.
/// The embedding stage with a progress bar. Without the local model dense search is left
/// out with a note; a vector store the user chose that fails is an error (exit 3), since
/// the user asked for it. The stored documents stay either way.
pub fn embed_stage(library: &mut Library, quiet: bool) -> i32 {
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("  embedding {msg:<32} [{bar:20}] {pos}/{len}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let terminal = std::io::stderr().is_terminal();
    let last = Mutex::new(String::new());
    let result = library.embed_pending(&|done, total, name| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(name.chars().take(32).collect::<String>());
        // The stage's last call ("all done") names no document.
        if !terminal && !quiet && !name.is_empty() {
            let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
            if *last != name {
                *last = name.to_string();
                eprintln!("  embedding {}", crate::print::one_line(name));
            }
        }
    });
    bar.finish_and_clear();
    if let Ok(report) = &result {
        for (name, message) in &report.failed {
            eprintln!(
                "error: {name}: embedding stopped on an internal error ({message}); this is a \
                 bug in docindex, please report it with the file. The document is stored and \
                 searchable by its words; the other documents were embedded"
            );
        }
    }
    let failed = result.as_ref().map_or(0, |report| report.failed.len());
    let code = match result {
        Ok(report) if report.documents > 0 && !quiet => {
            let shared = if report.shared > 0 {
                format!(
                    " ({} document(s) already in {})",
                    report.shared,
                    library.vector_store_address()
                )
            } else {
                String::new()
            };
            let reused = if report.reused > 0 {
                format!(
                    "; {} chunk(s) reused the vector of the same text",
                    report.reused
                )
            } else {
                String::new()
            };
            eprintln!(
                "embedded {} chunks of {} document(s) in {} ms{shared}{reused}",
                report.chunks, report.documents, report.millis
            );
            0
        }
        Ok(_) => 0,
        Err(e @ docindex_app::AppError::VectorStore(_)) => {
            eprintln!(
                "error: {e}; the documents are stored and BM25 search works, `docindex embed` tries again"
            );
            crate::exit_code(e.fault())
        }
        Err(e) => {
            eprintln!("note: dense search unavailable ({e}); BM25 search works");
            0
        }
    };
    if failed > 0 {
        crate::exit_code(docindex_core::Fault::Bug)
    } else {
        code
    }
}
