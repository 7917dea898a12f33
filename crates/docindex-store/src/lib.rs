//! The SQLite library: documents, canonical text, nodes, chunks, cross-references and the
//! dictionary, with FTS5 over nodes and chunks. One transaction per document, WAL mode,
//! schema migrations by `user_version`.

use docindex_core::model::*;
use docindex_core::store::{DocumentStore, DocumentSummary};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};
use thiserror::Error;

mod cache;
mod dense;
mod rank;
mod read;
mod saved;
mod schema;
mod search;
mod write;

pub use cache::{RedisCache, SqliteCache};
pub use dense::{dense_files, dense_path, dense_paths, DenseHit, DenseIndex};
pub use search::{HitIdentity, LexicalHit, StoredVector};

/// Errors of the store. A database we cannot open or write is a runtime fault; a stored
/// row we cannot read back is a bug (or a file written by a newer version).
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("cannot open the library at {path}: {source}")]
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("the library at {path} was written by a newer DocumentIndex (schema {found}, this build knows {known})")]
    TooNew {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    /// The disk (or the file system's quota) is full: the write was rolled back whole.
    #[error("the disk holding the library at {path} is full: nothing of this change was stored (free some space and try again)")]
    Full { path: PathBuf },
    /// The library's folder or file cannot be written by this user.
    #[error("the library at {path} is read-only for this user (check the folder's permissions): nothing was changed")]
    ReadOnly { path: PathBuf },
    /// Another process held the write lock longer than we wait.
    #[error("the library at {path} is busy: another DocumentIndex process (the app or a CLI) has been writing to it for over {seconds} s; try again when it is done")]
    Busy { path: PathBuf, seconds: u64 },
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// How long a writer waits for another process's write to end.
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

impl StoreError {
    /// The error as the user should read it: a full disk, a read-only library or a lock
    /// held too long, named with the library's path, instead of SQLite's own words.
    fn at(self, path: &Path) -> Self {
        let code = match &self {
            StoreError::Sqlite(e) | StoreError::Open { source: e, .. } => e.sqlite_error_code(),
            _ => None,
        };
        let path = path.to_path_buf();
        match code {
            Some(rusqlite::ErrorCode::DiskFull) => StoreError::Full { path },
            Some(rusqlite::ErrorCode::ReadOnly) => StoreError::ReadOnly { path },
            Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::PermissionDenied)
                if read_only(&path) =>
            {
                StoreError::ReadOnly { path }
            }
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                StoreError::Busy {
                    path,
                    seconds: BUSY_WAIT.as_secs(),
                }
            }
            _ => self,
        }
    }
}

/// Whether this process cannot write the library file or create files beside it.
fn read_only(path: &Path) -> bool {
    let writable = |p: &Path| {
        std::fs::OpenOptions::new()
            .append(true)
            .open(p)
            .map(|_| true)
            .unwrap_or_else(|e| e.kind() == std::io::ErrorKind::NotFound)
    };
    let folder = path.parent().unwrap_or(Path::new("."));
    let probe = folder.join(format!(".docindex-write-probe-{}", std::process::id()));
    let folder_writable = std::fs::write(&probe, b"").is_ok();
    let _ = std::fs::remove_file(&probe);
    !folder_writable || !writable(path)
}

/// The library on disk.
pub struct SqliteStore {
    // The cache takes the connection over, so it shares the migrations.
    conn: Connection,
    path: PathBuf,
    /// The stored term counts the ranking functions read, when current: of the passages
    /// (`docindex_bm25`) and of the titles and summaries (`docindex_bm25_titles`).
    chunk_counts: rank::SharedCounts,
    title_counts: rank::SharedCounts,
}

fn enum_str<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn enum_from<T: serde::de::DeserializeOwned>(s: &str) -> Result<T> {
    serde_json::from_value(serde_json::Value::String(s.to_string()))
        .map_err(|_| StoreError::Corrupt(format!("unknown value '{s}'")))
}

impl SqliteStore {
    /// Open (creating if needed) the library file `path`. A library this user cannot
    /// write (a shared folder, a read-only mount) is opened for reading: it can be listed
    /// and searched, and each write is refused with [`StoreError::ReadOnly`].
    pub fn open(path: &Path) -> Result<Self> {
        match Self::open_unclassified(path).map_err(|e| e.at(path)) {
            Err(StoreError::ReadOnly { .. }) if path.is_file() => Self::open_read_only(path),
            opened => opened,
        }
    }

    /// The library file `path` for reading only, at this build's schema (a library that
    /// needs migrating cannot be, and is refused as read-only).
    fn open_read_only(path: &Path) -> Result<Self> {
        // A read-only WAL library is read through its shared-memory index, which SQLite
        // creates beside it; in a folder nobody may write to, no writer can be changing
        // it either, and it is opened as immutable.
        let store = match Self::open_reader(path).and_then(|s| s.schema_version().map(|_| s)) {
            Err(StoreError::Open { .. } | StoreError::Sqlite(_)) => {
                Self::open_reader(Path::new(&immutable_uri(path)))?
            }
            opened => opened?,
        };
        let store = SqliteStore {
            path: path.to_path_buf(),
            ..store
        };
        let (found, known) = (store.schema_version()?, schema::known_version());
        if found > known {
            return Err(StoreError::TooNew {
                path: path.to_path_buf(),
                found,
                known,
            });
        }
        if found < known {
            return Err(StoreError::ReadOnly {
                path: path.to_path_buf(),
            });
        }
        tracing::info!("{}: opened read-only", path.display());
        Ok(store)
    }

    fn open_unclassified(path: &Path) -> Result<Self> {
        let open_err = |source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        };
        let conn = Connection::open(path).map_err(open_err)?;
        // Before anything that locks: another process may be creating the library.
        conn.busy_timeout(BUSY_WAIT).map_err(open_err)?;
        set_wal(&conn).map_err(open_err)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(open_err)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(open_err)?;
        let (chunk_counts, title_counts) = register_ranking(&conn).map_err(open_err)?;
        let mut store = SqliteStore {
            conn,
            path: path.to_path_buf(),
            chunk_counts,
            title_counts,
        };
        store.migrate()?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Read this connection's pages through a memory map of the library file rather than
    /// a copy per page. For a process that searches many times (the app, a benchmark): a
    /// library-wide search touches thousands of FTS and chunk pages, and copying them out
    /// of the OS cache one `pread` at a time was a fifth of its time over 1,000 filings.
    /// The touched pages then count as the process's resident memory (file-backed, given
    /// back under pressure), about 100 MB a search over 1,000 filings, which is why a
    /// one-search process (the CLI) does not map.
    pub fn map_reads(&self) -> Result<()> {
        map_for_reads(&self.conn).map_err(|e| StoreError::from(e).at(&self.path))
    }

    /// A second, read-only connection to a library another connection opened (and
    /// migrated): for reads that run beside that connection's on another thread.
    pub fn open_reader(path: &Path) -> Result<Self> {
        let open_err = |source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        };
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
            | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX
            | rusqlite::OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(path, flags).map_err(open_err)?;
        conn.busy_timeout(BUSY_WAIT).map_err(open_err)?;
        let (chunk_counts, title_counts) = register_ranking(&conn).map_err(open_err)?;
        Ok(SqliteStore {
            conn,
            path: path.to_path_buf(),
            chunk_counts,
            title_counts,
        })
    }
}

/// Switches the library to write-ahead logging. Switching takes an exclusive lock, and SQLite
/// reports a busy library at once rather than through the busy handler: another opener
/// switching it at the same moment is waited for, up to [`BUSY_WAIT`].
fn set_wal(conn: &Connection) -> rusqlite::Result<()> {
    let started = std::time::Instant::now();
    loop {
        match conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0)) {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy && started.elapsed() < BUSY_WAIT =>
            {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            other => return other.map(|_| ()),
        }
    }
}

/// An SQLite URI naming the file at `path` as immutable: read without locks or the WAL.
fn immutable_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    for byte in path.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"/._-~".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri.push_str("?immutable=1");
    uri
}

/// The ranking functions of the passages and of the titles, each with its counts.
fn register_ranking(
    conn: &Connection,
) -> rusqlite::Result<(rank::SharedCounts, rank::SharedCounts)> {
    let chunks = rank::SharedCounts::default();
    let titles = rank::SharedCounts::default();
    rank::register(conn, c"docindex_bm25", chunks.clone())?;
    rank::register(conn, c"docindex_bm25_titles", titles.clone())?;
    Ok((chunks, titles))
}

/// See [`SqliteStore::map_reads`]. SQLite caps the map at its compile-time limit (2 GB);
/// what lies beyond is read as before. Writes still go through the journal, never through
/// the map.
fn map_for_reads(conn: &Connection) -> rusqlite::Result<()> {
    const MAP_UP_TO: i64 = 1 << 40;
    // The pragma answers with the size it took; it is not needed.
    conn.query_row(&format!("PRAGMA mmap_size = {MAP_UP_TO}"), [], |_| Ok(()))
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(()),
            other => Err(other),
        })
}

impl DocumentStore for SqliteStore {
    type Error = StoreError;

    fn replace(&mut self, doc: &DocumentIndex) -> Result<Vec<String>> {
        self.replace_unclassified(doc).map_err(|e| e.at(&self.path))
    }

    fn get(&self, doc_id: &str) -> Result<Option<DocumentIndex>> {
        self.load(doc_id)
    }

    fn list(&self) -> Result<Vec<DocumentSummary>> {
        self.list_unclassified().map_err(|e| e.at(&self.path))
    }

    fn remove(&mut self, doc_id: &str) -> Result<bool> {
        self.remove_unclassified(doc_id)
            .map_err(|e| e.at(&self.path))
    }
}

impl SqliteStore {
    fn replace_unclassified(&mut self, doc: &DocumentIndex) -> Result<Vec<String>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let stale: Vec<String> = {
            let mut stmt =
                tx.prepare("SELECT doc_id FROM documents WHERE doc_id = ?1 OR doc_name = ?2")?;
            let ids = stmt
                .query_map(params![doc.doc_id, doc.doc_name], |r| r.get(0))?
                .collect::<std::result::Result<Vec<String>, _>>()?;
            ids
        };
        for id in &stale {
            Self::delete_in(&tx, id)?;
        }
        Self::insert_in(&tx, doc)?;
        tx.commit()?;
        Ok(stale)
    }

    fn list_unclassified(&self) -> Result<Vec<DocumentSummary>> {
        self.summaries("ORDER BY doc_name", [])
    }

    /// The summary of the document with this id or name, read alone: resolving a document
    /// by listing the library read all 10,000 rows of a large one (400 ms).
    pub fn summary_of(&self, id_or_name: &str) -> Result<Option<DocumentSummary>> {
        Ok(self
            .summaries(
                "WHERE doc_id = ?1 OR doc_name = ?1 ORDER BY doc_name",
                [id_or_name],
            )
            .map_err(|e| e.at(&self.path))?
            .into_iter()
            .next())
    }

    /// The summaries of the documents `clause` (a WHERE or ORDER BY on `documents`) keeps.
    fn summaries(
        &self,
        clause: &str,
        params: impl rusqlite::Params,
    ) -> Result<Vec<DocumentSummary>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT doc_id, doc_name, doc_type, company_name, ticker, fiscal_year, period_end_date, node_count, char_count, source_sha256, settings_key, format, page_count, description, warnings_json FROM documents {clause}"
        ))?;
        // The enums and the warnings are text in the row; they are checked after the query.
        let rows = stmt
            .query_map(params, |r| {
                let summary = DocumentSummary {
                    doc_id: r.get(0)?,
                    doc_name: r.get(1)?,
                    doc_type: DocType::Generic,
                    company_name: r.get(3)?,
                    ticker: r.get(4)?,
                    fiscal_year: r.get(5)?,
                    period_end_date: r.get(6)?,
                    node_count: r.get::<_, i64>(7)? as usize,
                    char_count: r.get::<_, i64>(8)? as usize,
                    source_sha256: r.get(9)?,
                    settings_key: r.get(10)?,
                    format: SourceFormat::Text,
                    page_count: r.get::<_, i64>(12)? as usize,
                    description: r.get(13)?,
                    warnings: Vec::new(),
                };
                let text: (String, String, String) = (r.get(2)?, r.get(11)?, r.get(14)?);
                Ok((summary, text))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(mut summary, (doc_type, format, warnings))| {
                summary.doc_type = DocType::parse(&doc_type).ok_or_else(|| {
                    StoreError::Corrupt(format!("unknown document type '{doc_type}'"))
                })?;
                summary.format = enum_from(&format)?;
                summary.warnings = serde_json::from_str(&warnings)
                    .map_err(|e| StoreError::Corrupt(format!("warnings: {e}")))?;
                Ok(summary)
            })
            .collect()
    }

    fn remove_unclassified(&mut self, doc_id: &str) -> Result<bool> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let exists: bool = tx
            .query_row(
                "SELECT 1 FROM documents WHERE doc_id = ?1",
                params![doc_id],
                |_| Ok(()),
            )
            .optional()?
            .is_some();
        Self::delete_in(&tx, doc_id)?;
        tx.commit()?;
        Ok(exists)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use docindex_core::progress::NoProgress;
    use docindex_core::{index_document, IndexSettings};

    fn indexed(name: &str) -> DocumentIndex {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures")
            .join(name);
        let bytes = std::fs::read(path).unwrap();
        index_document(name, &bytes, &IndexSettings::default(), &mut NoProgress).unwrap()
    }

    /// A full disk, simulated by SQLite's page limit (SQLite reports both as SQLITE_FULL):
    /// the write fails whole with an error naming the library, and what was stored stays.
    #[test]
    fn a_full_disk_is_named_and_keeps_what_was_stored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        let mut store = SqliteStore::open(&path).unwrap();
        let small = indexed("buckle_8-K_2024-11-22.html");
        store.replace(&small).unwrap();
        let pages: i64 = store
            .conn
            .pragma_query_value(None, "page_count", |r| r.get(0))
            .unwrap();
        store
            .conn
            .pragma_update(None, "max_page_count", pages + 8)
            .unwrap();
        let big = indexed("apple_10-K_FY2024_0000320193-24-000123.html");
        let err = store.replace(&big).unwrap_err();
        assert!(matches!(err, StoreError::Full { .. }), "{err:?}");
        let message = err.to_string();
        assert!(message.contains(&path.display().to_string()), "{message}");
        assert!(message.contains("is full"), "{message}");
        let listed = store.list().unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].doc_id, small.doc_id);
        assert_eq!(store.get(&small.doc_id).unwrap().unwrap().text, small.text);
        assert!(store.get(&big.doc_id).unwrap().is_none());
        // Space again: the same document goes in.
        store
            .conn
            .pragma_update(None, "max_page_count", 1_073_741_823)
            .unwrap();
        store.replace(&big).unwrap();
        assert_eq!(store.list().unwrap().len(), 2);
    }
}
