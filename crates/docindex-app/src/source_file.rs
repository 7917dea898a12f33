//! A file to index, read safely and turned into a document: what is no regular file (a
//! pipe blocks, a device never ends) is refused before it is opened, at most `max_bytes` are
//! read, bytes already stored with the same settings are not indexed again, and a PageIndex
//! tree is imported rather than indexed.

use crate::{is_pageindex_file, AppError, Result};
use docindex_core::model::{DocumentIndex, SourceFormat};
use docindex_core::pipeline::{doc_id_for, sha256_hex};
use docindex_core::progress::ProgressSink;
use docindex_core::store::DocumentSummary;
use docindex_core::IndexTools;
use docindex_core::{IndexSettings, IngestError};
use std::path::Path;
use std::time::{Duration, Instant};

pub(crate) enum Prepared {
    /// Already stored; a PDF brings its bytes so a missing copy can be kept now.
    Unchanged(Box<DocumentSummary>, Option<Vec<u8>>),
    /// Indexed now: the document, its source size, the time it took, and a PDF's bytes.
    Fresh(Box<DocumentIndex>, u64, Duration, Option<Vec<u8>>),
}

/// A document from a file's bytes: a PageIndex tree is imported, anything else indexed.
pub(crate) fn build_from_bytes(
    name: &str,
    bytes: &[u8],
    settings: &IndexSettings,
    progress: &mut dyn ProgressSink,
    tools: IndexTools<'_>,
) -> std::result::Result<DocumentIndex, IngestError> {
    if is_pageindex_file(name, bytes) {
        docindex_core::pipeline::import_pageindex(name, bytes, settings, progress)
    } else {
        docindex_core::pipeline::index_document_with(name, bytes, settings, progress, tools)
    }
}

/// What a path that is no regular file is ("a named pipe", "a character device").
fn special_file_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_fifo() {
            return "a named pipe";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = meta;
    "a special file"
}

/// A file's bytes, at most `limit` of them (a file that grows while it is read, or reports
/// less than it holds, is refused past the limit), and the name it is indexed under.
pub(crate) fn read_source(path: &Path, limit: u64) -> Result<(Vec<u8>, String)> {
    use std::io::Read;
    let read_err = |source| AppError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit.saturating_add(1)).read_to_end(&mut bytes))
        .map_err(read_err)?;
    if bytes.len() as u64 > limit {
        return Err(AppError::File {
            path: path.to_path_buf(),
            source: IngestError::OverLimit { limit },
        });
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| path.display().to_string());
    Ok((bytes, name))
}

pub(crate) fn prepare(
    path: &Path,
    settings: &IndexSettings,
    known: &[DocumentSummary],
    tools: IndexTools<'_>,
    progress: &mut dyn ProgressSink,
) -> Result<Prepared> {
    let started = Instant::now();
    let file_err = |source| AppError::File {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(|source| AppError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    if meta.is_dir() {
        return Err(file_err(IngestError::Unsupported(
            "this is a folder, not a file".into(),
        )));
    }
    if !meta.is_file() {
        // A pipe blocks its reader forever and a device never ends: only files are read.
        return Err(file_err(IngestError::Unsupported(format!(
            "this is {}, not a regular file",
            special_file_kind(&meta)
        ))));
    }
    if meta.len() > settings.max_bytes {
        return Err(file_err(IngestError::TooLarge {
            size: meta.len(),
            limit: settings.max_bytes,
        }));
    }
    let (bytes, name) = read_source(path, settings.max_bytes)?;
    let sha = sha256_hex(&bytes);
    let settings_key = tools.settings_key(settings);
    // Without a model, an index a model enhanced from the same bytes and base settings is
    // kept: it holds everything the offline index would, and the model's work was paid for.
    let enhanced_prefix = format!("{};llm=", settings.key());
    if let Some(existing) = known.iter().find(|d| {
        let same_settings = d.settings_key == settings_key
            || (tools.llm.is_none() && d.settings_key.starts_with(&enhanced_prefix));
        d.source_sha256 == sha && same_settings && d.doc_id == doc_id_for(&sha)
    }) {
        let pdf = (existing.format == SourceFormat::Pdf).then_some(bytes);
        return Ok(Prepared::Unchanged(Box::new(existing.clone()), pdf));
    }
    let doc = build_from_bytes(&name, &bytes, settings, progress, tools).map_err(file_err)?;
    let size = bytes.len() as u64;
    let pdf = (doc.format == SourceFormat::Pdf).then_some(bytes);
    Ok(Prepared::Fresh(Box::new(doc), size, started.elapsed(), pdf))
}
