//! Saved answers and provenance reports, as JSON with their kind and title.

use crate::{Result, SqliteStore, StoreError};
use rusqlite::{params, OptionalExtension};

impl SqliteStore {
    /// Keep a result (an answer, a provenance report) as JSON; returns its id.
    pub fn save(&self, kind: &str, title: &str, json: &str) -> Result<i64> {
        self.conn
            .execute(
                "INSERT INTO saved (kind, title, json) VALUES (?1, ?2, ?3)",
                params![kind, title, json],
            )
            .map_err(|e| StoreError::from(e).at(&self.path))?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Saved results, newest first: (id, kind, title, created_at).
    pub fn saved_list(&self) -> Result<Vec<(i64, String, String, String)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, kind, title, created_at FROM saved ORDER BY id DESC")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// One saved result: (kind, title, created_at, json).
    pub fn saved_get(&self, id: i64) -> Result<Option<(String, String, String, String)>> {
        Ok(self
            .conn
            .query_row(
                "SELECT kind, title, created_at, json FROM saved WHERE id = ?1",
                params![id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?)
    }
}
