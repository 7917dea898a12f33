//! The page view's sources: the copy of every indexed PDF the library keeps (checked against
//! the SHA-256 it was indexed from), pages drawn from it by pdfium, the boxes of a span
//! recomputed from it with the indexing layout, and a cache of both for the window.

use crate::{AppError, Library, Result};
use docindex_core::ingest::pdf::CharBoxes;
use docindex_core::model::SourceFormat;
use docindex_core::pipeline::{pdf_char_boxes, sha256_hex};
use docindex_core::store::DocumentSummary;
use docindex_pdf::{PdfiumReader, RenderedPage};
use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The folder inside the library that holds the PDF copies, one `<doc id>.pdf` each.
pub const SOURCES_DIR: &str = "sources";

fn copy_path(library_dir: &Path, doc_id: &str) -> PathBuf {
    library_dir.join(SOURCES_DIR).join(format!("{doc_id}.pdf"))
}

/// Keep a copy of an indexed PDF's bytes in the library (written aside, then renamed, so a
/// copy is whole or absent). An existing copy with exactly these bytes is left as it is; a
/// damaged or altered one is replaced, so indexing the file again mends it.
pub(crate) fn keep_copy(library_dir: &Path, doc_id: &str, bytes: &[u8]) -> Result<()> {
    let path = copy_path(library_dir, doc_id);
    let same_size = std::fs::metadata(&path).is_ok_and(|m| m.len() == bytes.len() as u64);
    if same_size && std::fs::read(&path).is_ok_and(|kept| kept == bytes) {
        return Ok(());
    }
    let fail = |source| AppError::KeepSource {
        path: path.clone(),
        source,
    };
    let dir = library_dir.join(SOURCES_DIR);
    std::fs::create_dir_all(&dir).map_err(fail)?;
    let partial = dir.join(format!("{doc_id}.pdf.partial"));
    let written = std::fs::File::create(&partial).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    if let Err(e) = written.and_then(|()| std::fs::rename(&partial, &path)) {
        let _ = std::fs::remove_file(&partial);
        return Err(fail(e));
    }
    Ok(())
}

/// Drop the copy of a document no longer in the library (nothing to do for other formats).
pub(crate) fn discard_copy(library_dir: &Path, doc_id: &str) {
    let path = copy_path(library_dir, doc_id);
    if let Err(e) = std::fs::remove_file(&path) {
        if e.kind() != std::io::ErrorKind::NotFound {
            tracing::warn!("cannot remove {}: {e}", path.display());
        }
    }
}

/// A stored PDF's bytes, as indexed.
#[derive(Debug)]
pub struct PdfSource {
    pub summary: DocumentSummary,
    bytes: Vec<u8>,
}

impl PdfSource {
    /// Draw page `page` (1-based) `width_px` pixels wide.
    pub fn render(&self, page: u32, width_px: u32) -> Result<RenderedPage> {
        docindex_pdf::render_page(&self.bytes, page, width_px).map_err(|source| AppError::File {
            path: PathBuf::from(&self.summary.doc_name),
            source,
        })
    }

    /// Where each character of `stored_text` (the document's text in the library) is
    /// printed: the PDF laid out again as indexing did, tracking glyphs.
    pub fn char_boxes(&self, stored_text: &str) -> Result<CharBoxes> {
        pdf_char_boxes(
            &PdfiumReader::load().map_err(|source| self.error(source))?,
            &self.bytes,
            stored_text,
        )
        .map_err(|source| self.error(source))
    }

    fn error(&self, source: docindex_core::IngestError) -> AppError {
        AppError::File {
            path: PathBuf::from(&self.summary.doc_name),
            source,
        }
    }
}

impl Library {
    /// The copy of a stored PDF the library keeps, checked against the SHA-256 it was
    /// indexed from. Other formats, a missing copy and a changed copy are clear errors.
    pub fn pdf_source(&self, doc: &str) -> Result<PdfSource> {
        let summary = self.resolve(doc)?;
        let unavailable = |reason: String| AppError::PageSource {
            doc: summary.doc_name.clone(),
            reason,
        };
        if summary.format != SourceFormat::Pdf {
            return Err(unavailable(
                "it is not a PDF, so it has no pages to show".into(),
            ));
        }
        let path = copy_path(&self.dir, &summary.doc_id);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(unavailable(format!(
                    "the library keeps no copy of it ({} is missing: it was indexed before \
                     copies were kept, or the copy was deleted); index the PDF again to see \
                     its pages",
                    path.display()
                )))
            }
            Err(e) => {
                return Err(unavailable(format!(
                    "its copy {} cannot be read: {e}",
                    path.display()
                )))
            }
        };
        let sha = sha256_hex(&bytes);
        if sha != summary.source_sha256 {
            return Err(unavailable(format!(
                "its copy {} has changed since it was indexed (SHA-256 {} where {} was \
                 indexed); index the PDF again",
                path.display(),
                short(&sha),
                short(&summary.source_sha256)
            )));
        }
        Ok(PdfSource { summary, bytes })
    }
}

fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}

/// Pages drawn and boxes computed, kept for the window: a page is drawn once per width,
/// a document laid out once, however often the user turns back to it.
#[derive(Default)]
pub struct PageCache {
    inner: Mutex<CacheInner>,
}

#[derive(Default)]
struct CacheInner {
    sources: VecDeque<Arc<PdfSource>>,
    pages: VecDeque<((String, u32, u32), Arc<RenderedPage>)>,
    boxes: VecDeque<(String, Arc<CharBoxes>)>,
}

/// How much the cache holds: a few documents, a few dozen drawn pages (about 300 KB each).
const SOURCES_KEPT: usize = 4;
const PAGES_KEPT: usize = 48;
const LAYOUTS_KEPT: usize = 4;

/// Widths are rounded up to this step so a window resized by a few pixels reuses its pages.
pub const WIDTH_STEP: u32 = 160;

/// Look `key` up in a most-recent-last list, moving a hit to the end.
fn recall<K: PartialEq, V: Clone>(list: &mut VecDeque<(K, V)>, key: &K) -> Option<V> {
    let at = list.iter().position(|(k, _)| k == key)?;
    let entry = list.remove(at)?;
    let value = entry.1.clone();
    list.push_back(entry);
    Some(value)
}

fn remember<K, V>(list: &mut VecDeque<(K, V)>, key: K, value: V, capacity: usize) {
    list.push_back((key, value));
    while list.len() > capacity {
        list.pop_front();
    }
}

impl PageCache {
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CacheInner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The PDF copy of `doc_id`, loaded through `load` on first use.
    pub fn source(
        &self,
        doc_id: &str,
        load: impl FnOnce() -> Result<PdfSource>,
    ) -> Result<Arc<PdfSource>> {
        if let Some(source) = self
            .lock()
            .sources
            .iter()
            .find(|s| s.summary.doc_id == doc_id)
        {
            return Ok(source.clone());
        }
        let source = Arc::new(load()?);
        let mut inner = self.lock();
        inner.sources.push_back(source.clone());
        while inner.sources.len() > SOURCES_KEPT {
            inner.sources.pop_front();
        }
        Ok(source)
    }

    /// Page `page` of `source` drawn at least `width_px` wide (rounded up to
    /// [`WIDTH_STEP`]), drawn on first use.
    pub fn page(&self, source: &PdfSource, page: u32, width_px: u32) -> Result<Arc<RenderedPage>> {
        let width = width_px.max(1).div_ceil(WIDTH_STEP) * WIDTH_STEP;
        let key = (source.summary.doc_id.clone(), page, width);
        if let Some(hit) = recall(&mut self.lock().pages, &key) {
            return Ok(hit);
        }
        let drawn = Arc::new(source.render(page, width)?);
        remember(&mut self.lock().pages, key, drawn.clone(), PAGES_KEPT);
        Ok(drawn)
    }

    /// The character boxes of `source`, computed on first use from `stored_text`.
    pub fn boxes(
        &self,
        source: &PdfSource,
        stored_text: impl FnOnce() -> Result<String>,
    ) -> Result<Arc<CharBoxes>> {
        let key = source.summary.doc_id.clone();
        if let Some(hit) = recall(&mut self.lock().boxes, &key) {
            return Ok(hit);
        }
        let boxes = Arc::new(source.char_boxes(&stored_text()?)?);
        remember(&mut self.lock().boxes, key, boxes.clone(), LAYOUTS_KEPT);
        Ok(boxes)
    }

    /// Forget a document (removed or indexed again).
    pub fn forget(&self, doc_id: &str) {
        let mut inner = self.lock();
        inner.sources.retain(|s| s.summary.doc_id != doc_id);
        inner.pages.retain(|((d, _, _), _)| d != doc_id);
        inner.boxes.retain(|(d, _)| d != doc_id);
    }
}
