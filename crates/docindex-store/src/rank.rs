//! BM25 over the FTS5 indexes of passages and titles, scored exactly as FTS5's own
//! `bm25()` scores, but with each term's row count read from the library's term table
//! instead of recounted.
//!
//! FTS5's `bm25()` learns how many rows hold each query term by walking the term's whole
//! doclist, positions and all, on every query. Over 1,000 filings a common word ("operating")
//! sits in 133,000 of 339,000 chunks, and that walk was over half of a search's lexical
//! time. `refresh_term_counts` (see `search.rs`) stores every term's row count once an
//! indexing batch ends; while those counts match the library (a generation the chunk and
//! title triggers bump), these functions read them. Any phrase they cannot look up
//! (several tokens, a term the table lacks, or counts that are out of date) is counted the
//! way FTS5 counts it, so the scores never depend on the table being current, only the
//! speed does.

use rusqlite::ffi;
use rusqlite::Connection;
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::{Arc, Mutex, RwLock};

/// How many rows of one FTS5 table hold each term, and each row's length, for one
/// generation of the library.
#[derive(Debug, Default)]
pub(crate) struct TermCounts {
    pub(crate) generation: i64,
    /// Keyed by the term as FTS5 indexed it (case-folded, stemmed), in bytes.
    pub(crate) rows: HashMap<Vec<u8>, i64>,
    /// Tokens in each row (all columns), by rowid; [`UNKNOWN_LENGTH`] where not known.
    /// Reading FTS5's own `%_docsize` row per match was most of the per-row cost.
    pub(crate) lengths: Vec<u16>,
    /// Rows holding a phrase of several tokens, counted once per generation in this
    /// process (keyed by its tokens, each followed by a NUL).
    pub(crate) phrases: Mutex<HashMap<Vec<u8>, i64>>,
}

/// Column weights read per call (a row's score is computed for every match, so they are
/// kept on the stack).
const MAX_WEIGHTS: usize = 8;

/// A row length not in [`TermCounts::lengths`] (read from FTS5 instead).
pub(crate) const UNKNOWN_LENGTH: u16 = u16::MAX;

/// Lengths are kept for rowids below this (32 MB at most): rowids only grow, and a library
/// indexed again and again must not make the table grow without bound.
const KEPT_ROWIDS: usize = 1 << 24;

/// The per-rowid token counts of FTS5's `%_docsize` rows `(rowid, sz)`, where `sz` holds a
/// SQLite varint per column, as [`TermCounts::lengths`] keeps them.
pub(crate) fn row_lengths(rows: impl IntoIterator<Item = (i64, Vec<u8>)>) -> Vec<u8> {
    with_row_lengths(Vec::new(), rows)
}

/// `kept` (as [`row_lengths`] stores them) with the lengths of `rows` added.
pub(crate) fn with_row_lengths(
    kept: Vec<u16>,
    rows: impl IntoIterator<Item = (i64, Vec<u8>)>,
) -> Vec<u8> {
    let mut lengths = kept;
    for (rowid, sizes) in rows {
        let Some(at) = usize::try_from(rowid).ok().filter(|at| *at < KEPT_ROWIDS) else {
            continue;
        };
        let mut total: u64 = 0;
        let mut rest = sizes.as_slice();
        while !rest.is_empty() {
            let (value, used) = varint(rest);
            total += value;
            rest = &rest[used.max(1).min(rest.len())..];
        }
        if lengths.len() <= at {
            lengths.resize(at + 1, UNKNOWN_LENGTH);
        }
        // A row too long to keep is read from FTS5 when it matches.
        lengths[at] = u16::try_from(total).unwrap_or(UNKNOWN_LENGTH);
    }
    lengths.iter().flat_map(|l| l.to_le_bytes()).collect()
}

/// The stored form of [`row_lengths`] read back.
pub(crate) fn lengths_from_bytes(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect()
}

/// A SQLite varint (big-endian groups of 7 bits, the ninth byte whole) and its length.
fn varint(bytes: &[u8]) -> (u64, usize) {
    let mut value: u64 = 0;
    for (i, byte) in bytes.iter().enumerate().take(9) {
        if i == 8 {
            return ((value << 8) | u64::from(*byte), 9);
        }
        value = (value << 7) | u64::from(byte & 0x7f);
        if byte & 0x80 == 0 {
            return (value, i + 1);
        }
    }
    (value, bytes.len())
}

/// The counts the function reads: `None` while the stored ones are out of date.
pub(crate) type SharedCounts = Arc<RwLock<Option<Arc<TermCounts>>>>;

// FTS5's constants (fts5_aux.c), so the scores are its scores.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Registers the function `name(fts_table, weight, ...)` on `conn`, reading `counts`:
/// FTS5's `bm25()` arguments and result (lower is better). One per FTS5 table, since each
/// reads that table's counts.
pub(crate) fn register(
    conn: &Connection,
    name: &std::ffi::CStr,
    counts: SharedCounts,
) -> rusqlite::Result<()> {
    let api = fts5_api(conn)?;
    // SAFETY: `fts5_api` returned a non-null pointer to the connection's FTS5 API.
    let create = unsafe_field(unsafe { (*api).xCreateFunction })?;
    let user_data = Box::into_raw(Box::new(counts)).cast::<c_void>();
    // SAFETY: `api` is this connection's FTS5 API, which lives as long as the connection;
    // the name is NUL-terminated; `user_data` is a leaked `Box<SharedCounts>` that SQLite
    // hands to `drop_counts` once, when the function is replaced or the connection closes.
    let rc = unsafe { create(api, name.as_ptr(), user_data, Some(rank), Some(drop_counts)) };
    if rc != ffi::SQLITE_OK {
        // FTS5 does not call the destructor when it refuses the function.
        // SAFETY: the pointer is the box made above, which SQLite did not keep.
        unsafe { drop_counts(user_data) };
    }
    check(rc)
}

/// The connection's `fts5_api`, which FTS5 hands out through `SELECT fts5(?1)` with a
/// bound pointer (the documented way, sqlite.org/fts5.html#extending_fts5).
fn fts5_api(conn: &Connection) -> rusqlite::Result<*mut ffi::fts5_api> {
    let mut api: *mut ffi::fts5_api = std::ptr::null_mut();
    // SAFETY: the handle is valid while `conn` is borrowed; the statement is finalized
    // before returning; the bound pointer is to `api`, which outlives the statement, and
    // carries the type name FTS5 expects.
    unsafe {
        let db = conn.handle();
        let mut stmt: *mut ffi::sqlite3_stmt = std::ptr::null_mut();
        check(ffi::sqlite3_prepare_v2(
            db,
            c"SELECT fts5(?1)".as_ptr(),
            -1,
            &mut stmt,
            std::ptr::null_mut(),
        ))?;
        let bound = ffi::sqlite3_bind_pointer(
            stmt,
            1,
            (&mut api as *mut *mut ffi::fts5_api).cast::<c_void>(),
            c"fts5_api_ptr".as_ptr(),
            None,
        );
        let stepped = if bound == ffi::SQLITE_OK {
            ffi::sqlite3_step(stmt)
        } else {
            bound
        };
        ffi::sqlite3_finalize(stmt);
        if stepped != ffi::SQLITE_ROW && stepped != ffi::SQLITE_DONE {
            check(stepped)?;
        }
    }
    if api.is_null() {
        Err(failure(ffi::SQLITE_ERROR, "this SQLite has no FTS5"))
    } else {
        Ok(api)
    }
}

fn unsafe_field<F>(field: Option<F>) -> rusqlite::Result<F> {
    field.ok_or_else(|| failure(ffi::SQLITE_MISUSE, "FTS5 lacks a function it documents"))
}

fn check(rc: c_int) -> rusqlite::Result<()> {
    if rc == ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(failure(rc, "FTS5 refused the ranking function"))
    }
}

fn failure(rc: c_int, what: &str) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(ffi::Error::new(rc), Some(what.to_string()))
}

/// SQLite's destructor for the function's user data.
unsafe extern "C" fn drop_counts(user_data: *mut c_void) {
    if !user_data.is_null() {
        // SAFETY: `register` made this pointer with `Box::into_raw`; SQLite calls this once.
        drop(unsafe { Box::from_raw(user_data.cast::<SharedCounts>()) });
    }
}

/// Per query: each phrase's IDF and the average row length, as `bm25()` computes them.
struct QueryStats {
    idf: Vec<f64>,
    average_length: f64,
    /// The stored counts this query read (their lengths serve every row).
    counts: Option<Arc<TermCounts>>,
}

unsafe extern "C" fn drop_stats(stats: *mut c_void) {
    if !stats.is_null() {
        // SAFETY: `query_stats` made this pointer with `Box::into_raw`; FTS5 calls this
        // once, when the query's cursor closes.
        drop(unsafe { Box::from_raw(stats.cast::<QueryStats>()) });
    }
}

/// The FTS5 extension function: `bm25()`'s score for the current row.
unsafe extern "C" fn rank(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    n_values: c_int,
    values: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: FTS5 passes a valid API, context and `n_values` argument values for the
    // duration of this call.
    unsafe {
        // Our tables have two columns; more weights than this are not read.
        let mut weights = [1.0; MAX_WEIGHTS];
        let given = (n_values.max(0) as usize).min(MAX_WEIGHTS);
        for (i, weight) in weights.iter_mut().enumerate().take(given) {
            *weight = ffi::sqlite3_value_double(*values.add(i));
        }
        match score(&*api, fts, &weights[..given]) {
            Ok(score) => ffi::sqlite3_result_double(ctx, -score),
            Err(rc) => ffi::sqlite3_result_error_code(ctx, rc),
        }
    }
}

/// Calls an API function FTS5 documents (present in every version this crate bundles).
macro_rules! call {
    ($api:expr, $f:ident ( $($arg:expr),* )) => {
        match $api.$f {
            Some(f) => f($($arg),*),
            None => return Err(ffi::SQLITE_MISUSE),
        }
    };
}

unsafe fn score(
    api: &ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    weights: &[f64],
) -> Result<f64, c_int> {
    // SAFETY (whole function): `fts` is the live context of the current row.
    unsafe {
        let stats = query_stats(api, fts)?;
        let length = match stats.counts.as_deref().and_then(|c| {
            let rowid = api.xRowid?(fts);
            usize::try_from(rowid)
                .ok()
                .and_then(|at| c.lengths.get(at).copied())
                .filter(|l| *l != UNKNOWN_LENGTH)
        }) {
            Some(stored) => f64::from(stored),
            None => {
                let mut tokens: c_int = 0;
                ok(call!(api, xColumnSize(fts, -1, &mut tokens)))?;
                f64::from(tokens)
            }
        };
        let mut score = 0.0;
        // Each phrase's hits walked on their own: the same hits `xInst` lists (both read
        // the row's position lists after NEAR has filtered them), without FTS5 merging
        // every phrase's positions into one sorted array first.
        for (phrase, idf) in stats.idf.iter().enumerate() {
            let mut iterator = ffi::Fts5PhraseIter {
                a: std::ptr::null(),
                b: std::ptr::null(),
            };
            let (mut column, mut offset): (c_int, c_int) = (0, 0);
            ok(call!(
                api,
                xPhraseFirst(
                    fts,
                    phrase as c_int,
                    &mut iterator,
                    &mut column,
                    &mut offset
                )
            ))?;
            let mut frequency = 0.0;
            while column >= 0 {
                frequency += weights.get(column as usize).copied().unwrap_or(1.0);
                call!(
                    api,
                    xPhraseNext(fts, &mut iterator, &mut column, &mut offset)
                );
            }
            score += idf * (frequency * (K1 + 1.0))
                / (frequency + K1 * (1.0 - B + B * length / stats.average_length));
        }
        Ok(score)
    }
}

fn ok(rc: c_int) -> Result<(), c_int> {
    if rc == ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(rc)
    }
}

/// The query's statistics, computed on its first row and kept with its cursor.
unsafe fn query_stats<'a>(
    api: &ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
) -> Result<&'a QueryStats, c_int> {
    // SAFETY (whole function): `fts` is live; the auxiliary data, when set, is the
    // `QueryStats` this function boxed for the same cursor, and lives until it closes,
    // past every row's call; the user data is the `SharedCounts` `register` boxed.
    unsafe {
        let kept = call!(api, xGetAuxdata(fts, 0)).cast::<QueryStats>();
        if !kept.is_null() {
            return Ok(&*kept);
        }
        let shared = call!(api, xUserData(fts)).cast::<SharedCounts>();
        let counts = shared
            .as_ref()
            .and_then(|shared| shared.read().ok().and_then(|slot| slot.clone()));
        let mut rows: i64 = 0;
        ok(call!(api, xRowCount(fts, &mut rows)))?;
        let mut tokens: i64 = 0;
        ok(call!(api, xColumnTotalSize(fts, -1, &mut tokens)))?;
        let phrases = call!(api, xPhraseCount(fts)).max(0);
        let mut idf = Vec::with_capacity(phrases as usize);
        for phrase in 0..phrases {
            let key = counts.as_ref().and_then(|_| phrase_key(api, fts, phrase));
            let stored = match (&counts, &key) {
                (Some(c), Some(key)) if key.tokens == 1 => c.rows.get(&key.bytes).copied(),
                (Some(c), Some(key)) => c
                    .phrases
                    .lock()
                    .ok()
                    .and_then(|memo| memo.get(&key.bytes).copied()),
                _ => None,
            };
            let holding = match stored {
                Some(n) => n,
                None => {
                    let mut n: i64 = 0;
                    ok(call!(
                        api,
                        xQueryPhrase(
                            fts,
                            phrase,
                            (&mut n as *mut i64).cast::<c_void>(),
                            Some(count_row)
                        )
                    ))?;
                    if let (Some(c), Some(key)) = (&counts, key.filter(|k| k.tokens > 1)) {
                        if let Ok(mut memo) = c.phrases.lock() {
                            memo.insert(key.bytes, n);
                        }
                    }
                    n
                }
            };
            let value = ((rows - holding) as f64 + 0.5) / (holding as f64 + 0.5);
            let value = value.ln();
            idf.push(if value <= 0.0 { 1e-6 } else { value });
        }
        let stats = Box::into_raw(Box::new(QueryStats {
            idf,
            average_length: tokens as f64 / rows as f64,
            counts,
        }));
        // On failure FTS5 has already called `drop_stats` on the pointer.
        ok(call!(
            api,
            xSetAuxdata(fts, stats.cast::<c_void>(), Some(drop_stats))
        ))?;
        Ok(&*stats)
    }
}

/// A phrase's tokens as FTS5 tokenized the query, each followed by a NUL (a one-token
/// phrase is just its term, as `term_counts` keys it).
struct PhraseKey {
    bytes: Vec<u8>,
    tokens: c_int,
}

unsafe fn phrase_key(
    api: &ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    phrase: c_int,
) -> Option<PhraseKey> {
    // SAFETY: `fts` is live; each token FTS5 returns stays valid during this call.
    unsafe {
        let tokens = api.xPhraseSize?(fts, phrase);
        if tokens < 1 {
            return None;
        }
        let mut bytes = Vec::new();
        for i in 0..tokens {
            let mut token: *const std::ffi::c_char = std::ptr::null();
            let mut length: c_int = 0;
            if api.xQueryToken?(fts, phrase, i, &mut token, &mut length) != ffi::SQLITE_OK
                || token.is_null()
            {
                return None;
            }
            bytes.extend_from_slice(std::slice::from_raw_parts(
                token.cast::<u8>(),
                length.max(0) as usize,
            ));
            if tokens > 1 {
                bytes.push(0);
            }
        }
        Some(PhraseKey { bytes, tokens })
    }
}

/// FTS5's row-counting callback for `xQueryPhrase`.
unsafe extern "C" fn count_row(
    _api: *const ffi::Fts5ExtensionApi,
    _fts: *mut ffi::Fts5Context,
    count: *mut c_void,
) -> c_int {
    // SAFETY: `count` is the `i64` `query_stats` passed, alive during the call.
    unsafe { *count.cast::<i64>() += 1 };
    ffi::SQLITE_OK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_lengths_sum_each_rows_column_varints_by_rowid() {
        // Row 1: 5 tokens and 128 (a two-byte varint); row 4: 300 and 1. Rows 0, 2 and 3
        // are unknown; a rowid past the kept range is left out.
        let stored = row_lengths([
            (1, vec![0x05, 0x81, 0x00]),
            (4, vec![0x82, 0x2c, 0x01]),
            (KEPT_ROWIDS as i64, vec![0x01]),
        ]);
        let lengths = lengths_from_bytes(&stored);
        assert_eq!(
            lengths,
            vec![UNKNOWN_LENGTH, 133, UNKNOWN_LENGTH, UNKNOWN_LENGTH, 301]
        );
    }
}
