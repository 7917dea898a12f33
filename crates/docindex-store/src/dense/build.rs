//! How the dense index file is made from the stored vectors: one pass over them, the
//! rows written as they are read, then the sign bits from the rows read back.

use super::bits::sign_code;
use super::{DenseIndex, Entry, Head, Rows, Sizes, HEADER_BYTES, MAGIC};
use crate::{Result, SqliteStore, StoreError};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// What an index is made of before it is encoded.
pub(super) struct Parts {
    pub(super) fingerprint: i64,
    /// The store's count of vector removals when the vectors were read
    /// ([`SqliteStore::vector_removals`]): while it stands, the file can be extended.
    pub(super) removals: i64,
    /// For a file of the documents added since a whole file was written: that file's
    /// generation.
    pub(super) base: Option<i64>,
    pub(super) dims: usize,
    pub(super) docs: Vec<String>,
    pub(super) nodes: Vec<String>,
    pub(super) entries: Vec<Entry>,
    pub(super) centre: Vec<f32>,
    pub(super) codes: Vec<u64>,
    /// int8 rows as the file's bytes.
    pub(super) vectors: Vec<u8>,
}

impl Parts {
    /// The index held in memory: for a library whose file cannot be written anywhere.
    pub(super) fn build(store: &SqliteStore, model: &str, fingerprint: i64) -> Result<Self> {
        let mut vectors = Vec::new();
        let mut parts = Self::read(store, model, fingerprint, None, &mut |row| {
            vectors.extend_from_slice(row);
            Ok(())
        })?
        .map_err(|e| StoreError::Corrupt(format!("dense index: {e}")))?;
        let words = parts.dims.div_ceil(64);
        for (row, entry) in vectors.chunks_exact(parts.dims.max(1)).zip(&parts.entries) {
            parts
                .codes
                .extend(code_of(row, entry.scale, &parts.centre, words));
        }
        parts.vectors = vectors;
        Ok(parts)
    }

    /// The one pass over the stored vectors: where each came from, its scale and their
    /// mean (which the sign bits are taken around), each int8 row handed to `rows` as it
    /// is read and not kept (over 10,000 filings the rows are 1.3 GB). Only the vectors of
    /// `scope`'s documents when it is given. The outer error is the store's; the inner one
    /// `rows`'s.
    pub(super) fn read(
        store: &SqliteStore,
        model: &str,
        fingerprint: i64,
        scope: Option<&Scope>,
        rows: &mut RowSink<'_>,
    ) -> Result<std::io::Result<Self>> {
        let mut parts = Parts {
            fingerprint,
            removals: store.vector_removals()?,
            base: scope.map(|s| s.base),
            dims: 0,
            docs: Vec::new(),
            nodes: Vec::new(),
            entries: Vec::new(),
            centre: Vec::new(),
            codes: Vec::new(),
            vectors: Vec::new(),
        };
        let mut doc_ids: HashMap<String, u32> = HashMap::new();
        let mut node_ids: HashMap<String, u32> = HashMap::new();
        let mut sum: Vec<f64> = Vec::new();
        let mut mismatch = None;
        let mut failed: Option<std::io::Error> = None;
        let mut row = Vec::new();
        store.for_each_vector(model, scope.map(|s| s.docs.as_slice()), &mut |v| {
            if mismatch.is_some() || failed.is_some() {
                return;
            }
            if parts.dims == 0 {
                parts.dims = v.vector.len();
                sum = vec![0.0; parts.dims];
            }
            if v.vector.len() != parts.dims {
                mismatch = Some(v.doc_id.clone());
                return;
            }
            let doc = intern(&mut doc_ids, &mut parts.docs, v.doc_id);
            let node = intern(&mut node_ids, &mut parts.nodes, v.node_id);
            for (s, x) in sum.iter_mut().zip(&v.vector) {
                *s += f64::from(*x);
            }
            let scale = int8_scale(&v.vector);
            quantise(&v.vector, scale, &mut row);
            if let Err(e) = rows(&row) {
                failed = Some(e);
            }
            parts.entries.push(Entry {
                doc,
                chunk: v.chunk_index as u32,
                node,
                scale,
            });
        })?;
        if let Some(doc) = mismatch {
            return Err(StoreError::Corrupt(format!(
                "vectors of {model} in {doc} differ in length from the others"
            )));
        }
        if let Some(e) = failed {
            return Ok(Err(e));
        }
        let count = parts.entries.len().max(1) as f64;
        parts.centre = sum.iter().map(|s| (s / count) as f32).collect();
        Ok(Ok(parts))
    }

    fn names(&self) -> String {
        let mut names = serde_json::json!({
            "docs": self.docs,
            "nodes": self.nodes,
            "removals": self.removals,
        });
        if let Some(base) = self.base {
            names["base"] = base.into();
        }
        names.to_string()
    }

    /// What follows the sign bits: the centre, the entries and the names.
    fn write_tail(&self, names: &str, out: &mut impl Write) -> std::io::Result<()> {
        for c in &self.centre {
            out.write_all(&c.to_le_bytes())?;
        }
        for e in &self.entries {
            out.write_all(&e.to_bytes())?;
        }
        out.write_all(names.as_bytes())
    }

    /// The file's bytes, from an index held whole (the streamed file must equal them).
    #[cfg(test)]
    pub(super) fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        let names = self.names();
        out.write_all(&header(
            self.fingerprint,
            self.dims,
            self.entries.len(),
            names.len(),
        ))?;
        out.write_all(&self.vectors)?;
        for c in &self.codes {
            out.write_all(&c.to_le_bytes())?;
        }
        self.write_tail(&names, out)?;
        out.flush()
    }

    pub(super) fn into_memory_index(self) -> DenseIndex {
        let words = self.dims.div_ceil(64);
        DenseIndex {
            dims: self.dims,
            head: Head::of(&self.entries, &self.codes, words),
            docs: self.docs,
            nodes: self.nodes,
            centre: self.centre,
            words,
            rows: Rows::Memory(self.vectors),
            added: None,
        }
    }
}

/// The documents a file of what was added holds, and the generation of the whole file it
/// extends.
pub(super) struct Scope {
    pub(super) docs: Vec<String>,
    pub(super) base: i64,
}

/// What takes each vector's int8 row as it is read.
type RowSink<'a> = dyn FnMut(&[u8]) -> std::io::Result<()> + 'a;

/// The file's fixed header: magic, generation, dimensions, count, length of the names.
fn header(fingerprint: i64, dims: usize, count: usize, names_len: usize) -> [u8; HEADER_BYTES] {
    let mut out = [0u8; HEADER_BYTES];
    out[..8].copy_from_slice(MAGIC);
    out[8..16].copy_from_slice(&fingerprint.to_le_bytes());
    out[16..20].copy_from_slice(&(dims as u32).to_le_bytes());
    out[20..24].copy_from_slice(&(count as u32).to_le_bytes());
    out[24..32].copy_from_slice(&(names_len as u64).to_le_bytes());
    out
}

/// The scale that maps `vector`'s largest value onto 127.
pub(super) fn int8_scale(vector: &[f32]) -> f32 {
    let peak = vector.iter().fold(0f32, |m, x| m.max(x.abs()));
    if peak > 0.0 {
        peak / 127.0
    } else {
        1.0
    }
}

/// `vector` as int8 at `scale` into `row` (two's-complement bytes, as the file holds
/// them).
fn quantise(vector: &[f32], scale: f32, row: &mut Vec<u8>) {
    row.clear();
    row.extend(
        vector
            .iter()
            .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8 as u8),
    );
}

/// The sign bits of an int8 `row` at `scale` around `centre`: of the values a search
/// rescores.
fn code_of(row: &[u8], scale: f32, centre: &[f32], words: usize) -> Vec<u64> {
    let centred = row
        .iter()
        .zip(centre)
        .map(|(x, c)| f32::from(*x as i8) * scale - c);
    sign_code(centred, words)
}

/// `vector` as int8 at `scale` into `row`, and its sign bits around `centre`.
#[cfg(test)]
pub(super) fn encode_row(
    vector: &[f32],
    scale: f32,
    centre: &[f32],
    row: &mut Vec<u8>,
) -> Vec<u64> {
    quantise(vector, scale, row);
    code_of(row, scale, centre, vector.len().div_ceil(64))
}

/// Writes `model`'s index of the store's vectors (of `scope`'s documents only, when given)
/// to `path` in one pass over them, each
/// int8 row as it is read (built whole in memory, the index took 2 GB over 10,000
/// filings); the sign bits, which need the mean of every vector, are then made from the
/// rows read back from the file, and the header written last. Call it inside
/// [`SqliteStore::in_snapshot`], so that the generation stamped on it is the vectors'. The outer error is the store's; the inner one the
/// file's. Not synced: a file cut short is not whole, and [`DenseIndex::open_current`]
/// refuses it, so the index is built again.
pub(super) fn write_streamed(
    store: &SqliteStore,
    model: &str,
    path: &Path,
    scope: Option<&Scope>,
) -> Result<std::io::Result<i64>> {
    let fingerprint = store.vector_count()?;
    let mut out = match File::create(path) {
        Ok(file) => BufWriter::new(file),
        Err(e) => return Ok(Err(e)),
    };
    // The header's place: it is written last, when the names' length is known.
    if let Err(e) = out.write_all(&[0u8; HEADER_BYTES]) {
        return Ok(Err(e));
    }
    let parts = match Parts::read(store, model, fingerprint, scope, &mut |row| {
        out.write_all(row)
    })? {
        Ok(parts) => parts,
        Err(e) => return Ok(Err(e)),
    };
    let names = parts.names();
    let words = parts.dims.div_ceil(64);
    let Some(layout) = Sizes::of(names.len(), parts.dims, parts.entries.len(), words) else {
        return Err(StoreError::Corrupt(format!(
            "the dense index of {model} would not fit in a file"
        )));
    };
    let mut finish = || -> std::io::Result<()> {
        out.flush()?;
        let mut rows = BufReader::new(File::open(path)?);
        rows.seek(SeekFrom::Start(layout.rows_at as u64))?;
        let mut row = vec![0u8; parts.dims];
        for entry in &parts.entries {
            rows.read_exact(&mut row)?;
            for c in code_of(&row, entry.scale, &parts.centre, words) {
                out.write_all(&c.to_le_bytes())?;
            }
        }
        parts.write_tail(&names, &mut out)?;
        out.seek(SeekFrom::Start(0))?;
        out.write_all(&header(
            parts.fingerprint,
            parts.dims,
            parts.entries.len(),
            names.len(),
        ))?;
        out.flush()
    };
    Ok(finish().map(|()| fingerprint))
}

fn intern(ids: &mut HashMap<String, u32>, names: &mut Vec<String>, name: String) -> u32 {
    if let Some(id) = ids.get(&name) {
        return *id;
    }
    let id = names.len() as u32;
    names.push(name.clone());
    ids.insert(name, id);
    id
}
