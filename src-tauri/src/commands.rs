//! Tauri commands: each parses its arguments, calls one [`Desktop`] method on a blocking
//! thread (the window never waits on the library) and maps the error.

use crate::desktop::Desktop;
use crate::error::DesktopError;
use crate::settings::{Settings, SettingsView};
use crate::views::PageImage;
use crate::views::{AskMessage, AskResult, DocumentView, FileResult, IndexMessage, LibraryRow};
use crate::views::{ProvenanceMessage, ProvenanceResult};
use docindex_app::saved::{SavedEntry, SavedResult};
use docindex_core::ingest::pdf::PageBoxes;
use std::path::PathBuf;
use tauri::ipc::Channel;
use tauri::State;

type CommandResult<T> = Result<T, DesktopError>;

/// Run `job` with the session on a blocking thread.
async fn blocking<T: Send + 'static>(
    desktop: &Desktop,
    job: impl FnOnce(Desktop) -> CommandResult<T> + Send + 'static,
) -> CommandResult<T> {
    let desktop = desktop.clone();
    tauri::async_runtime::spawn_blocking(move || job(desktop))
        .await
        .map_err(|e| DesktopError::Internal(format!("worker thread: {e}")))?
}

/// Send on a channel; a closed window is not an error of the job.
fn send<T: serde::Serialize + Clone>(channel: &Channel<T>, message: T) {
    if let Err(e) = channel.send(message) {
        tracing::debug!("channel closed: {e}");
    }
}

#[tauri::command]
pub async fn list_documents(desktop: State<'_, Desktop>) -> CommandResult<Vec<LibraryRow>> {
    blocking(&desktop, |d| d.list()).await
}

#[tauri::command]
pub async fn remove_document(desktop: State<'_, Desktop>, doc_id: String) -> CommandResult<bool> {
    blocking(&desktop, move |d| d.remove(&doc_id)).await
}

#[tauri::command]
pub async fn enhance_document(
    desktop: State<'_, Desktop>,
    doc_id: String,
) -> CommandResult<docindex_core::enhance::retry::RetryOutcome> {
    blocking(&desktop, move |d| d.enhance(&doc_id)).await
}

#[tauri::command]
pub async fn open_document(
    desktop: State<'_, Desktop>,
    doc_id: String,
) -> CommandResult<DocumentView> {
    blocking(&desktop, move |d| d.open_document(&doc_id)).await
}

/// A PDF page drawn for the page view, `width` pixels wide.
#[tauri::command]
pub async fn page_image(
    desktop: State<'_, Desktop>,
    doc_id: String,
    page: u32,
    width: u32,
) -> CommandResult<PageImage> {
    blocking(&desktop, move |d| d.page_image(&doc_id, page, width)).await
}

/// Where a span of a PDF document's text is printed: boxes in PDF points, page by page.
#[tauri::command]
pub async fn span_boxes(
    desktop: State<'_, Desktop>,
    doc_id: String,
    start_char: usize,
    end_char: usize,
) -> CommandResult<Vec<PageBoxes>> {
    blocking(&desktop, move |d| {
        d.span_boxes(&doc_id, start_char, end_char)
    })
    .await
}

/// The character of a PDF document's text printed at a point of a page.
#[tauri::command]
pub async fn page_char_at(
    desktop: State<'_, Desktop>,
    doc_id: String,
    page: u32,
    x: f32,
    y: f32,
) -> CommandResult<Option<usize>> {
    blocking(&desktop, move |d| d.page_char_at(&doc_id, page, x, y)).await
}

#[tauri::command]
pub async fn sample_path(desktop: State<'_, Desktop>) -> CommandResult<String> {
    blocking(&desktop, |d| {
        d.sample_path().map(|p| p.display().to_string())
    })
    .await
}

/// Index dropped or chosen files; progress arrives on `on_event`.
#[tauri::command]
pub async fn index_files(
    desktop: State<'_, Desktop>,
    paths: Vec<String>,
    on_event: Channel<IndexMessage>,
) -> CommandResult<Vec<FileResult>> {
    let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
    blocking(&desktop, move |d| {
        d.index(&paths, &|message| send(&on_event, message))
    })
    .await
}

#[tauri::command]
pub fn cancel_indexing(desktop: State<'_, Desktop>) -> bool {
    desktop.cancel_indexing()
}

#[tauri::command]
pub async fn ask(
    desktop: State<'_, Desktop>,
    question: String,
    doc_id: Option<String>,
    on_event: Channel<AskMessage>,
) -> CommandResult<AskResult> {
    blocking(&desktop, move |d| {
        d.ask(&question, doc_id, &|message| send(&on_event, message))
    })
    .await
}

#[tauri::command]
pub async fn provenance(
    desktop: State<'_, Desktop>,
    topics: Vec<String>,
    doc_id: Option<String>,
    threshold: Option<f64>,
    on_event: Channel<ProvenanceMessage>,
) -> CommandResult<Vec<ProvenanceResult>> {
    blocking(&desktop, move |d| {
        d.provenance(&topics, doc_id, threshold, &|message| {
            send(&on_event, message)
        })
    })
    .await
}

/// Write a report where the save dialog pointed; returns the number of excerpt rows.
#[tauri::command]
pub async fn export_report(
    desktop: State<'_, Desktop>,
    saved_id: i64,
    path: String,
) -> CommandResult<usize> {
    blocking(&desktop, move |d| {
        d.export_report(saved_id, &PathBuf::from(path))
    })
    .await
}

#[tauri::command]
pub async fn saved_list(desktop: State<'_, Desktop>) -> CommandResult<Vec<SavedEntry>> {
    blocking(&desktop, |d| d.saved_list()).await
}

#[tauri::command]
pub async fn reopen_saved(desktop: State<'_, Desktop>, id: i64) -> CommandResult<SavedResult> {
    blocking(&desktop, move |d| d.reopen(id)).await
}

#[tauri::command]
pub async fn get_settings(desktop: State<'_, Desktop>) -> CommandResult<SettingsView> {
    blocking(&desktop, |d| Ok(d.settings())).await
}

#[tauri::command]
pub async fn save_settings(
    desktop: State<'_, Desktop>,
    settings: Settings,
    api_key: Option<String>,
) -> CommandResult<SettingsView> {
    blocking(&desktop, move |d| d.save_settings(settings, api_key)).await
}
