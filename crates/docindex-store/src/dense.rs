//! The dense leg's vectors held compactly: one file beside the library per embedding model,
//! every chunk vector quantised to int8 with its own scale (a quarter of f32), read in one
//! piece and scanned exactly. It is derived from `chunk_vectors` and carries their
//! fingerprint, so a library whose vectors changed builds it again; SQLite stays the truth.

use crate::{Result, SqliteStore, StoreError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"DIDENSE1";
/// doc index, chunk index, node index (u32 each), scale (f32).
const ENTRY_BYTES: usize = 16;

/// The int8 vectors of one model, with where each came from.
pub struct DenseIndex {
    fingerprint: i64,
    dims: usize,
    docs: Vec<String>,
    nodes: Vec<String>,
    /// (doc, chunk, node, scale) per vector.
    entries: Vec<(u32, u32, u32, f32)>,
    /// The file as read; the vectors (int8 bytes) start at `vectors_at`.
    bytes: Vec<u8>,
    vectors_at: usize,
}

/// What an index is made of before it is encoded.
struct Parts {
    fingerprint: i64,
    dims: usize,
    docs: Vec<String>,
    nodes: Vec<String>,
    entries: Vec<(u32, u32, u32, f32)>,
    vectors: Vec<i8>,
}

/// A chunk near the query, by (approximate) cosine similarity.
#[derive(Debug, Clone, PartialEq)]
pub struct DenseHit {
    pub doc_id: String,
    pub node_id: String,
    pub chunk_index: usize,
    pub similarity: f32,
}

/// The file of `model`'s index beside the library at `library`.
pub fn dense_path(library: &Path, model: &str) -> PathBuf {
    let safe: String = model
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    library.with_file_name(format!("dense-{safe}.bin"))
}

impl DenseIndex {
    /// The index of `model` for the store's current vectors: read from its file when that
    /// matches them, else built from the store and written for the next process.
    pub fn for_store(store: &SqliteStore, model: &str) -> Result<Self> {
        let fingerprint = store.vector_count()?;
        let path = dense_path(store.path(), model);
        if let Ok(bytes) = std::fs::read(&path) {
            match Self::decode(bytes) {
                Some(index) if index.fingerprint == fingerprint && index.dims > 0 => {
                    return Ok(index)
                }
                _ => {}
            }
        }
        let bytes = Self::build(store, model, fingerprint)?.encode();
        // Another process may be writing it too: written beside, then renamed.
        let partial = path.with_extension(format!("partial-{}", std::process::id()));
        let written =
            std::fs::write(&partial, &bytes).and_then(|()| std::fs::rename(&partial, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&partial);
            tracing::warn!("{}: dense index not kept: {e}", path.display());
        }
        Self::decode(bytes)
            .ok_or_else(|| StoreError::Corrupt("a dense index that does not read back".into()))
    }

    fn build(store: &SqliteStore, model: &str, fingerprint: i64) -> Result<Parts> {
        let mut index = Parts {
            fingerprint,
            dims: 0,
            docs: Vec::new(),
            nodes: Vec::new(),
            entries: Vec::new(),
            vectors: Vec::new(),
        };
        let mut doc_ids: HashMap<String, u32> = HashMap::new();
        let mut node_ids: HashMap<String, u32> = HashMap::new();
        let mut mismatch = None;
        store.for_each_vector(model, None, &mut |v| {
            if index.dims == 0 {
                index.dims = v.vector.len();
            }
            if v.vector.len() != index.dims {
                mismatch = Some(v.doc_id.clone());
                return;
            }
            let doc = intern(&mut doc_ids, &mut index.docs, v.doc_id);
            let node = intern(&mut node_ids, &mut index.nodes, v.node_id);
            let peak = v.vector.iter().fold(0f32, |m, x| m.max(x.abs()));
            let scale = if peak > 0.0 { peak / 127.0 } else { 1.0 };
            index.vectors.extend(
                v.vector
                    .iter()
                    .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8),
            );
            index.entries.push((doc, v.chunk_index as u32, node, scale));
        })?;
        if let Some(doc) = mismatch {
            return Err(StoreError::Corrupt(format!(
                "vectors of {model} in {doc} differ in length from the others"
            )));
        }
        Ok(index)
    }

    /// The `limit` nearest chunks to `query` (a unit vector) among the documents `keep`
    /// accepts, nearest first.
    pub fn nearest(
        &self,
        query: &[f32],
        keep: &dyn Fn(&str) -> bool,
        limit: usize,
    ) -> Vec<DenseHit> {
        if self.dims == 0 || query.len() != self.dims || limit == 0 {
            return Vec::new();
        }
        let allowed: Vec<bool> = self.docs.iter().map(|d| keep(d)).collect();
        // The query quantised too: an integer dot product, which the compiler vectorises
        // (a float sum it may not reorder); the error is well under a ranking's margins.
        let peak = query.iter().fold(0f32, |m, x| m.max(x.abs()));
        let query_scale = if peak > 0.0 { peak / 127.0 } else { 1.0 };
        let query8: Vec<i16> = query
            .iter()
            .map(|x| (x / query_scale).round().clamp(-127.0, 127.0) as i16)
            .collect();
        let vectors = &self.bytes[self.vectors_at..];
        let mut scored: Vec<(f32, usize)> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, (doc, ..))| allowed[*doc as usize])
            .map(|(i, (.., scale))| {
                let row = &vectors[i * self.dims..(i + 1) * self.dims];
                let dot: i32 = row
                    .iter()
                    .zip(&query8)
                    .map(|(x, q)| i32::from(i16::from(*x as i8) * q))
                    .sum();
                (dot as f32 * scale * query_scale, i)
            })
            .collect();
        let limit = limit.min(scored.len());
        if limit == 0 {
            return Vec::new();
        }
        scored.select_nth_unstable_by(limit - 1, |a, b| b.0.total_cmp(&a.0));
        scored.truncate(limit);
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        scored
            .into_iter()
            .map(|(similarity, i)| {
                let (doc, chunk, node, _) = self.entries[i];
                DenseHit {
                    doc_id: self.docs[doc as usize].clone(),
                    node_id: self.nodes[node as usize].clone(),
                    chunk_index: chunk as usize,
                    similarity,
                }
            })
            .collect()
    }

    /// Vectors held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes the index takes in memory.
    pub fn bytes(&self) -> usize {
        self.bytes.len() + self.entries.len() * ENTRY_BYTES
    }

    /// `None` for a file that is not a whole index of this format.
    fn decode(bytes: Vec<u8>) -> Option<Self> {
        let mut at = 0usize;
        let mut take = |n: usize| {
            let slice = bytes.get(at..at + n)?;
            at += n;
            Some(slice)
        };
        if take(8)? != MAGIC {
            return None;
        }
        let fingerprint = i64::from_le_bytes(take(8)?.try_into().ok()?);
        let dims = u32::from_le_bytes(take(4)?.try_into().ok()?) as usize;
        let count = u32::from_le_bytes(take(4)?.try_into().ok()?) as usize;
        let names_len = usize::try_from(u64::from_le_bytes(take(8)?.try_into().ok()?)).ok()?;
        let names: serde_json::Value = serde_json::from_slice(take(names_len)?).ok()?;
        let strings = |key: &str| -> Option<Vec<String>> {
            names
                .get(key)?
                .as_array()?
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect()
        };
        let (docs, nodes) = (strings("docs")?, strings("nodes")?);
        let mut entries = Vec::with_capacity(count);
        for _ in 0..count {
            let e = take(ENTRY_BYTES)?;
            let u = |i: usize| u32::from_le_bytes([e[i], e[i + 1], e[i + 2], e[i + 3]]);
            let entry = (
                u(0),
                u(4),
                u(8),
                f32::from_le_bytes([e[12], e[13], e[14], e[15]]),
            );
            if entry.0 as usize >= docs.len() || entry.2 as usize >= nodes.len() {
                return None;
            }
            entries.push(entry);
        }
        let vectors_at = 32 + names_len + count * ENTRY_BYTES;
        if vectors_at.checked_add(count.checked_mul(dims)?)? != bytes.len() {
            return None;
        }
        Some(DenseIndex {
            fingerprint,
            dims,
            docs,
            nodes,
            entries,
            bytes,
            vectors_at,
        })
    }
}

impl Parts {
    fn vector_bytes(&self) -> usize {
        self.vectors.len() + self.entries.len() * ENTRY_BYTES
    }

    fn encode(&self) -> Vec<u8> {
        let names = serde_json::json!({"docs": self.docs, "nodes": self.nodes}).to_string();
        let mut out = Vec::with_capacity(32 + names.len() + self.vector_bytes());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.fingerprint.to_le_bytes());
        out.extend_from_slice(&(self.dims as u32).to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        out.extend_from_slice(&(names.len() as u64).to_le_bytes());
        out.extend_from_slice(names.as_bytes());
        for (doc, chunk, node, scale) in &self.entries {
            out.extend_from_slice(&doc.to_le_bytes());
            out.extend_from_slice(&chunk.to_le_bytes());
            out.extend_from_slice(&node.to_le_bytes());
            out.extend_from_slice(&scale.to_le_bytes());
        }
        out.extend(self.vectors.iter().map(|v| *v as u8));
        out
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: &[f32]) -> Vec<f32> {
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.iter().map(|x| x / n).collect()
    }

    #[test]
    fn int8_vectors_rank_as_f32_ones_and_the_file_round_trips() {
        let mut parts = Parts {
            fingerprint: 7,
            dims: 4,
            docs: vec!["a".into(), "b".into()],
            nodes: vec!["0000".into(), "0001".into()],
            entries: Vec::new(),
            vectors: Vec::new(),
        };
        let rows = [
            (0, unit(&[1.0, 0.0, 0.0, 0.0])),
            (0, unit(&[0.9, 0.1, 0.0, 0.0])),
            (1, unit(&[0.0, 1.0, 0.0, 0.2])),
            (1, unit(&[0.7, 0.7, 0.0, 0.0])),
        ];
        for (i, (doc, v)) in rows.iter().enumerate() {
            let peak = v.iter().fold(0f32, |m, x| m.max(x.abs()));
            let scale = peak / 127.0;
            parts
                .vectors
                .extend(v.iter().map(|x| (x / scale).round() as i8));
            parts.entries.push((*doc, i as u32, (i % 2) as u32, scale));
        }
        let encoded = parts.encode();
        let index = DenseIndex::decode(encoded.clone()).unwrap();
        let query = unit(&[1.0, 0.05, 0.0, 0.0]);
        let hits = index.nearest(&query, &|_| true, 3);
        let order: Vec<usize> = hits.iter().map(|h| h.chunk_index).collect();
        assert_eq!(order, vec![0, 1, 3]);
        for hit in &hits {
            let exact: f32 = rows[hit.chunk_index]
                .1
                .iter()
                .zip(&query)
                .map(|(a, b)| a * b)
                .sum();
            assert!(
                (exact - hit.similarity).abs() < 0.01,
                "{exact} vs {}",
                hit.similarity
            );
        }
        let only_b = index.nearest(&query, &|d| d == "b", 5);
        assert_eq!(only_b.len(), 2);
        assert!(only_b.iter().all(|h| h.doc_id == "b"));

        assert_eq!(index.fingerprint, 7);
        let mut cut = encoded;
        cut.pop();
        assert!(DenseIndex::decode(cut).is_none());
    }
}
