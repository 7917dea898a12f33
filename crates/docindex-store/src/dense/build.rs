//! How the dense index file is made from the stored vectors: two passes over them in one
//! read snapshot, the rows written as they are read.

use super::bits::sign_code;
use super::{DenseIndex, Entry, Head, Rows, Sizes, MAGIC};
use crate::{Result, SqliteStore, StoreError};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

/// What an index is made of before it is encoded.
pub(super) struct Parts {
    pub(super) fingerprint: i64,
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
    /// The index held in memory: for a library folder where its file cannot be written.
    pub(super) fn build(store: &SqliteStore, model: &str, fingerprint: i64) -> Result<Self> {
        let mut parts = Self::summarise(store, model, fingerprint)?;
        let (mut vectors, mut codes) = (Vec::new(), Vec::new());
        parts
            .encode_rows(store, model, &mut |row, code| {
                vectors.extend_from_slice(row);
                codes.extend_from_slice(code);
                Ok(())
            })?
            .map_err(|e| StoreError::Corrupt(format!("dense index: {e}")))?;
        (parts.vectors, parts.codes) = (vectors, codes);
        Ok(parts)
    }

    /// The first pass over the stored vectors: where each came from, its scale, and
    /// their mean, which the sign bits are taken around. The rows come in the second.
    pub(super) fn summarise(store: &SqliteStore, model: &str, fingerprint: i64) -> Result<Self> {
        let mut parts = Parts {
            fingerprint,
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
        store.for_each_vector(model, None, &mut |v| {
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
            parts.entries.push(Entry {
                doc,
                chunk: v.chunk_index as u32,
                node,
                scale: int8_scale(&v.vector),
            });
        })?;
        if let Some(doc) = mismatch {
            return Err(StoreError::Corrupt(format!(
                "vectors of {model} in {doc} differ in length from the others"
            )));
        }
        let count = parts.entries.len().max(1) as f64;
        parts.centre = sum.iter().map(|s| (s / count) as f32).collect();
        Ok(parts)
    }

    /// The second pass: each vector's int8 row and sign bits, in the order of the entries,
    /// handed to `each` and not kept (over 10,000 filings they are 1.5 GB). The outer error
    /// is the store's; the inner one `each`'s.
    pub(super) fn encode_rows(
        &self,
        store: &SqliteStore,
        model: &str,
        each: &mut RowSink<'_>,
    ) -> Result<std::io::Result<()>> {
        let mut row = Vec::with_capacity(self.dims);
        let mut seen = 0usize;
        let mut failed: Option<std::io::Error> = None;
        let mut moved = false;
        store.for_each_vector(model, None, &mut |v| {
            if failed.is_some() || moved {
                return;
            }
            let Some(entry) = self.entries.get(seen) else {
                moved = true;
                return;
            };
            seen += 1;
            if v.chunk_index as u32 != entry.chunk
                || self.docs[entry.doc as usize] != v.doc_id
                || v.vector.len() != self.dims
            {
                moved = true;
                return;
            }
            let code = encode_row(&v.vector, entry.scale, &self.centre, &mut row);
            if let Err(e) = each(&row, &code) {
                failed = Some(e);
            }
        })?;
        if moved || seen != self.entries.len() {
            // Both passes read one snapshot: only a bug gets here.
            return Err(StoreError::Corrupt(format!(
                "the vectors of {model} changed between the dense index's two passes"
            )));
        }
        Ok(failed.map_or(Ok(()), Err))
    }

    /// The header, names, centre and entries: everything before the sign bits.
    pub(super) fn write_head(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let names = serde_json::json!({"docs": self.docs, "nodes": self.nodes}).to_string();
        out.write_all(MAGIC)?;
        out.write_all(&self.fingerprint.to_le_bytes())?;
        out.write_all(&(self.dims as u32).to_le_bytes())?;
        out.write_all(&(self.entries.len() as u32).to_le_bytes())?;
        out.write_all(&(names.len() as u64).to_le_bytes())?;
        out.write_all(names.as_bytes())?;
        for c in &self.centre {
            out.write_all(&c.to_le_bytes())?;
        }
        for e in &self.entries {
            out.write_all(&e.to_bytes())?;
        }
        Ok(())
    }

    /// The file's bytes, from an index held whole (the streamed file must equal them).
    #[cfg(test)]
    pub(super) fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        self.write_head(out)?;
        for c in &self.codes {
            out.write_all(&c.to_le_bytes())?;
        }
        out.write_all(&self.vectors)?;
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
        }
    }
}

/// What takes each encoded vector: its int8 row and its sign bits.
type RowSink<'a> = dyn FnMut(&[u8], &[u64]) -> std::io::Result<()> + 'a;

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
/// them); its sign bits around `centre`, taken from the int8 values a search rescores.
pub(super) fn encode_row(
    vector: &[f32],
    scale: f32,
    centre: &[f32],
    row: &mut Vec<u8>,
) -> Vec<u64> {
    row.clear();
    row.extend(
        vector
            .iter()
            .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8 as u8),
    );
    let centred = row
        .iter()
        .zip(centre)
        .map(|(x, c)| f32::from(*x as i8) * scale - c);
    sign_code(centred, vector.len().div_ceil(64))
}

/// Writes `model`'s index of the store's vectors to `path` in two passes over them, the
/// rows as they are read: built whole in memory, it took 2 GB over 10,000 filings. Call it
/// inside [`SqliteStore::in_snapshot`], so that both passes see the same vectors. The
/// outer error is the store's; the inner one the file's. Not synced: a file cut short is
/// not whole, and [`DenseIndex::open_current`] refuses it, so the index is built again.
pub(super) fn write_streamed(
    store: &SqliteStore,
    model: &str,
    path: &Path,
) -> Result<std::io::Result<i64>> {
    let fingerprint = store.vector_count()?;
    let parts = Parts::summarise(store, model, fingerprint)?;
    let names_len = serde_json::json!({"docs": parts.docs, "nodes": parts.nodes})
        .to_string()
        .len();
    let words = parts.dims.div_ceil(64);
    let Some(sizes) = Sizes::of(names_len, parts.dims, parts.entries.len(), words) else {
        return Err(StoreError::Corrupt(format!(
            "the dense index of {model} would not fit in a file"
        )));
    };
    // The sign bits follow the head; the rows start at `rows_at`: one writer for each,
    // both sequential.
    let open = || -> std::io::Result<(BufWriter<File>, BufWriter<File>)> {
        let mut head = BufWriter::new(File::create(path)?);
        parts.write_head(&mut head)?;
        let mut rows = std::fs::OpenOptions::new().write(true).open(path)?;
        rows.seek(SeekFrom::Start(sizes.rows_at as u64))?;
        Ok((head, BufWriter::new(rows)))
    };
    let (mut codes_out, mut rows_out) = match open() {
        Ok(writers) => writers,
        Err(e) => return Ok(Err(e)),
    };
    let encoded = parts.encode_rows(store, model, &mut |row, code| {
        for c in code {
            codes_out.write_all(&c.to_le_bytes())?;
        }
        rows_out.write_all(row)
    })?;
    Ok(encoded
        .and_then(|()| codes_out.flush())
        .and_then(|()| rows_out.flush())
        .map(|()| fingerprint))
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
