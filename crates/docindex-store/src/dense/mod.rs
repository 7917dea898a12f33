//! The dense leg's vectors held compactly: one file per embedding model, beside the library
//! (or in the user's cache folder when its folder refuses it).
//! Every chunk vector is kept twice over: as int8 with its own scale (a quarter of f32), and
//! as one sign bit per dimension around the library's mean vector (a thirty-second). A
//! search scans the bits by Hamming distance, then rescores a shortlist exactly from the
//! int8 rows. The file is mapped read-only: the bits and entries are read where they lie,
//! and the rows are read by position, or through the map in a process that searches many
//! times ([`DenseIndex::map_rows`]). The file is derived
//! from `chunk_vectors` and carries their generation, so a library whose vectors changed
//! builds it again, or, when they only grew, extends it by a file of the documents added
//! (`added.rs`); SQLite stays the truth.

use crate::{Result, SqliteStore, StoreError};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

mod added;
mod bits;
mod build;
#[cfg(test)]
mod tests;

use bits::{hamming_distances, sign_code};
use build::{write_streamed, Parts};

/// Version 3 puts the rows first, so that they are written as the vectors are read.
const MAGIC: &[u8; 8] = b"DIDENSE3";
/// Magic, generation, dimensions, count, length of the names.
const HEADER_BYTES: usize = 32;
/// doc index, chunk index, node index (u32 each), scale (f32).
const ENTRY_BYTES: usize = 16;
/// A shortlist this many times the hits asked for is rescored exactly (at least
/// [`SHORTLIST_MIN`]): measured by `docindex bench --search` against the exhaustive scan.
const SHORTLIST_FACTOR: usize = 10;
const SHORTLIST_MIN: usize = 3_000;
/// And at least this share of the library (one in N): a fixed 3,000 of 3.4 million
/// vectors (10,000 filings) kept only 80% of the exhaustive top 100.
const SHORTLIST_SHARE: usize = 100;
/// Rows closer than this in the file are read in one piece.
const READ_THROUGH_GAP: usize = 16;
/// The most bytes read at once when rescoring.
const READ_BLOCK: usize = 1 << 20;

/// The vectors of one model, with where each came from.
pub struct DenseIndex {
    dims: usize,
    docs: Vec<String>,
    nodes: Vec<String>,
    /// The mean vector the sign bits are taken around (vectors of a model share a
    /// direction, and bits around zero would say little).
    centre: Vec<f32>,
    head: Head,
    /// u64 words of sign bits per vector.
    words: usize,
    rows: Rows,
    /// The documents embedded since this file was written, from their own file
    /// (`added.rs`): adding a filing to a large library writes its vectors, not all of them.
    added: Option<Box<DenseIndex>>,
}

/// What a file says it was made from.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Stamp {
    /// The store's vector generation.
    generation: i64,
    /// The store's count of vector removals (absent from files of older versions, which
    /// are never extended).
    removals: Option<i64>,
    /// For a file of added documents, the generation of the whole file it extends.
    base: Option<i64>,
}

/// Each vector's entry and each vector's sign bits (`words` little-endian u64), where the
/// file (or the in-memory build) holds them.
struct Head {
    bytes: HeadBytes,
    /// Where the entries and the sign bits start in `bytes`.
    entries_at: usize,
    codes_at: usize,
    count: usize,
    words: usize,
}

enum HeadBytes {
    /// Built in memory (the file could not be kept).
    Owned(Vec<u8>),
    /// The whole file, mapped: a new process reads no more of it than a search touches.
    /// Over 10,000 filings the bits and entries are 217 MB, and reading them took a
    /// whole-process search 180 ms.
    Mapped(Arc<memmap2::Mmap>),
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Entry {
    doc: u32,
    chunk: u32,
    node: u32,
    scale: f32,
}

/// Where the int8 rows are read from.
enum Rows {
    /// Just built, and the file could not be kept.
    /// The int8 rows as the file holds them (two's-complement bytes).
    Memory(Vec<u8>),
    /// The index's file; the rows start at `at`.
    File {
        file: Mutex<File>,
        path: PathBuf,
        at: u64,
    },
    /// The index's file mapped read-only; the rows start at `at`.
    Mapped { map: Arc<memmap2::Mmap>, at: usize },
}

/// A chunk near the query, by (approximate) cosine similarity.
#[derive(Debug, Clone, PartialEq)]
pub struct DenseHit {
    pub doc_id: String,
    pub node_id: String,
    pub chunk_index: usize,
    pub similarity: f32,
}

/// Where `model`'s index of the library at `library` is kept: beside it, and, for a
/// library this user cannot write beside (a shared folder, a read-only mount), in the
/// user's cache folder under a name made from the library's path. Without it every search
/// of such a library built the index again in memory (4.6 s and 150 MB over 1,000
/// filings).
pub fn dense_paths(library: &Path, model: &str) -> Vec<PathBuf> {
    let beside = dense_path(library, model);
    let mut paths = vec![beside.clone()];
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")));
    if let (Some(cache), Some(name)) = (cache, beside.file_name()) {
        let library = std::fs::canonicalize(library).unwrap_or_else(|_| library.to_path_buf());
        // FNV-1a: stable across builds and platforms, unlike the standard hasher.
        let key = library
            .to_string_lossy()
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
        paths.push(
            cache
                .join("docindex/dense")
                .join(format!("{key:016x}"))
                .join(name),
        );
    }
    paths
}

/// Every file `model`'s index of the library at `library` may have left: the whole files
/// of [`dense_paths`] and the files of what was added since each was written.
pub fn dense_files(library: &Path, model: &str) -> Vec<PathBuf> {
    dense_paths(library, model)
        .into_iter()
        .flat_map(|whole| [added::added_path(&whole), whole])
        .collect()
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
    /// The index of `model` for the store's current vectors: opened from its file when
    /// that matches them, else built from the store and written for the next process.
    pub fn for_store(store: &SqliteStore, model: &str) -> Result<Self> {
        let fingerprint = store.vector_count()?;
        let paths = dense_paths(store.path(), model);
        // Each whole file is opened (and its entries checked) once: kept for extending.
        let mut stale = Vec::new();
        for path in &paths {
            let (mut whole, stamp) = match Self::open_stamped(path) {
                Ok(Some(opened)) => opened,
                Ok(None) => continue,
                Err(e) => {
                    tracing::debug!("{}: {e}; building it again", path.display());
                    continue;
                }
            };
            if stamp.generation == fingerprint
                || added::attach_added(&mut whole, stamp, path, fingerprint)
            {
                return Ok(whole);
            }
            stale.push((path, whole, stamp));
        }
        for (path, whole, stamp) in stale {
            if let Some(index) = added::extend(store, model, path, whole, stamp)? {
                return Ok(index);
            }
        }
        let mut refused = Vec::new();
        for path in &paths {
            match Self::write_for(store, model, path)? {
                Ok(generation) => {
                    if let Ok(Some(index)) = Self::open(path, generation) {
                        added::discard(path);
                        return Ok(index);
                    }
                }
                Err(e) => {
                    tracing::debug!("{}: dense index not kept: {e}", path.display());
                    refused.push(format!("{}: {e}", path.display()));
                }
            }
        }
        tracing::warn!(
            "the dense index is held in memory, built again by each process: {}",
            refused.join("; ")
        );
        Ok(Parts::build(store, model, fingerprint)?.into_memory_index())
    }

    /// Writes the index of the store's vectors at `path`; the generation it is of. The
    /// outer error is the store's; the inner one the file's.
    fn write_for(store: &SqliteStore, model: &str, path: &Path) -> Result<std::io::Result<i64>> {
        if let Some(folder) = path.parent() {
            if let Err(e) = std::fs::create_dir_all(folder) {
                return Ok(Err(e));
            }
        }
        // Another process may be writing it too: written beside, then renamed.
        let partial = path.with_extension(format!("partial-{}", std::process::id()));
        let written = store
            .in_snapshot(|| write_streamed(store, model, &partial, None))
            .map(|written| {
                written.and_then(|generation| std::fs::rename(&partial, path).map(|()| generation))
            });
        if !matches!(written, Ok(Ok(_))) {
            let _ = std::fs::remove_file(&partial);
        }
        written
    }

    /// The index of `model` for the library at `library`, from the first of its
    /// [`dense_paths`] that is whole and of this generation.
    pub fn open_current_of(library: &Path, model: &str, generation: i64) -> Option<Self> {
        dense_paths(library, model)
            .iter()
            .find_map(|path| Self::open_current(path, generation))
    }

    /// The index in the file at `path` when that is whole and of this generation, or
    /// extended to it by the file of what was added since (`None` otherwise:
    /// [`Self::for_store`] builds it again); its int8 rows stay on disk.
    pub fn open_current(path: &Path, generation: i64) -> Option<Self> {
        let (mut index, stamp) = Self::open_stamped(path).ok().flatten()?;
        let current = stamp.generation == generation
            || added::attach_added(&mut index, stamp, path, generation);
        current.then_some(index)
    }

    /// Reads the int8 rows through a read-only map from now on. Rescoring a shortlist
    /// touches a few thousand scattered rows: by position that is a read call per row
    /// (about 5 ms of CPU a search over 1,000 filings), mapped it is none once the pages
    /// are cached. Mapped pages count as the process's memory (the kernel reads around
    /// each fault), which is why a process that searches once keeps reading by position.
    /// An index held in memory, or a file that cannot be mapped, stays as it is.
    pub fn map_rows(mut self) -> Self {
        if let (Rows::File { at, .. }, HeadBytes::Mapped(map)) = (&self.rows, &self.head.bytes) {
            self.rows = Rows::Mapped {
                map: Arc::clone(map),
                at: *at as usize,
            };
        }
        self.added = self.added.map(|added| Box::new(added.map_rows()));
        self
    }

    /// The index in the file at `path` when it is whole and of this generation (that
    /// file alone); its int8 rows stay on disk.
    fn open(path: &Path, fingerprint: i64) -> std::io::Result<Option<Self>> {
        Ok(Self::open_stamped(path)?
            .and_then(|(index, stamp)| (stamp.generation == fingerprint).then_some(index)))
    }

    /// The index in the file at `path` when it is whole, with what it was made from.
    fn open_stamped(path: &Path) -> std::io::Result<Option<(Self, Stamp)>> {
        let mut file = match File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let length = file.metadata()?.len();
        let mut header = [0u8; HEADER_BYTES];
        if length < HEADER_BYTES as u64 {
            return Ok(None);
        }
        file.read_exact(&mut header)?;
        let word = |at: usize| {
            u32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
        };
        let mut long = [0u8; 8];
        long.copy_from_slice(&header[8..16]);
        let stored_fingerprint = i64::from_le_bytes(long);
        long.copy_from_slice(&header[24..32]);
        let (dims, count) = (word(16) as usize, word(20) as usize);
        let Ok(names_len) = usize::try_from(u64::from_le_bytes(long)) else {
            return Ok(None);
        };
        // No dimensions only for a file of no vectors (nothing was added since).
        if &header[..8] != MAGIC || (dims == 0 && count > 0) {
            return Ok(None);
        }
        let words = dims.div_ceil(64);
        let Some(sizes) = Sizes::of(names_len, dims, count, words) else {
            return Ok(None);
        };
        if u64::try_from(sizes.total).ok() != Some(length) {
            return Ok(None);
        }
        // SAFETY: the file is only ever replaced whole (written beside, then renamed), so
        // the mapped inode never changes under the map; a user truncating it by hand is
        // the one way to fault it.
        let map = Arc::new(unsafe { memmap2::Mmap::map(&file)? });
        if map.len() as u64 != length {
            return Ok(None);
        }
        let Some(names) = map.get(sizes.names_at..sizes.total) else {
            return Ok(None);
        };
        let Ok(names) = serde_json::from_slice::<serde_json::Value>(names) else {
            return Ok(None);
        };
        let strings = |key: &str| -> Option<Vec<String>> {
            names
                .get(key)?
                .as_array()?
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect()
        };
        let (Some(docs), Some(nodes)) = (strings("docs"), strings("nodes")) else {
            return Ok(None);
        };
        let stamp = Stamp {
            generation: stored_fingerprint,
            removals: names.get("removals").and_then(serde_json::Value::as_i64),
            base: names.get("base").and_then(serde_json::Value::as_i64),
        };
        let centre = map
            .get(sizes.centre_at..sizes.entries_at)
            .unwrap_or_default()
            .as_chunks::<4>()
            .0
            .iter()
            .map(|b| f32::from_le_bytes(*b))
            .collect();
        // A search touches the entries of its shortlist only: no read-ahead around them.
        let _ = map.advise_range(
            memmap2::Advice::Random,
            sizes.entries_at,
            count * ENTRY_BYTES,
        );
        let head = Head {
            bytes: HeadBytes::Mapped(Arc::clone(&map)),
            entries_at: sizes.entries_at,
            codes_at: sizes.codes_at,
            count,
            words,
        };
        // An entry naming a document or section the file lacks: not whole (built again).
        if (0..count)
            .map(|i| head.entry(i))
            .any(|e| e.doc as usize >= docs.len() || e.node as usize >= nodes.len())
        {
            return Ok(None);
        }
        let index = DenseIndex {
            dims,
            docs,
            nodes,
            centre,
            head,
            words,
            rows: Rows::File {
                file: Mutex::new(file),
                path: path.to_path_buf(),
                at: sizes.rows_at as u64,
            },
            added: None,
        };
        Ok(Some((index, stamp)))
    }

    /// The `limit` nearest chunks to `query` (a unit vector) among the documents `keep`
    /// accepts, nearest first: the closest by sign bits are rescored exactly.
    pub fn nearest(
        &self,
        query: &[f32],
        keep: &dyn Fn(&str) -> bool,
        limit: usize,
    ) -> Result<Vec<DenseHit>> {
        self.merged(limit, &|file| {
            let shortlist = (limit * SHORTLIST_FACTOR)
                .max(SHORTLIST_MIN)
                .max(file.head.count / SHORTLIST_SHARE);
            file.ranked(query, keep, limit, Some(shortlist))
        })
    }

    /// As [`Self::nearest`], but every vector in scope is scored exactly (provenance, and
    /// the benchmark's measure of what the shortlist misses).
    pub fn nearest_exhaustive(
        &self,
        query: &[f32],
        keep: &dyn Fn(&str) -> bool,
        limit: usize,
    ) -> Result<Vec<DenseHit>> {
        self.merged(limit, &|file| file.ranked(query, keep, limit, None))
    }

    /// `rank`'s hits in this file and in the file of what was added since, the `limit`
    /// most similar: the similarities are exact in both, so they compare.
    fn merged(
        &self,
        limit: usize,
        rank: &dyn Fn(&DenseIndex) -> Result<Vec<DenseHit>>,
    ) -> Result<Vec<DenseHit>> {
        let mut hits = rank(self)?;
        if let Some(added) = &self.added {
            hits.extend(rank(added)?);
            hits.sort_by(|a, b| b.similarity.total_cmp(&a.similarity));
            hits.truncate(limit);
        }
        Ok(hits)
    }

    fn ranked(
        &self,
        query: &[f32],
        keep: &dyn Fn(&str) -> bool,
        limit: usize,
        shortlist: Option<usize>,
    ) -> Result<Vec<DenseHit>> {
        if self.dims == 0 || query.len() != self.dims || limit == 0 {
            return Ok(Vec::new());
        }
        let started = std::time::Instant::now();
        let allowed: Vec<bool> = self.docs.iter().map(|d| keep(d)).collect();
        let mut candidates: Vec<usize> = match shortlist {
            Some(size) => self.closest_by_bits(query, &allowed, size),
            None => (0..self.head.count)
                .filter(|i| self.head.doc_allowed(*i, &allowed))
                .collect(),
        };
        let t = std::time::Instant::now();
        tracing::debug!(
            "dense: {} candidates in {} ms",
            candidates.len(),
            started.elapsed().as_millis()
        );
        candidates.sort_unstable();
        let mut scored = self.rescore(query, &candidates)?;
        tracing::debug!(
            "dense: {} rescored in {} ms",
            candidates.len(),
            t.elapsed().as_millis()
        );
        let limit = limit.min(scored.len());
        if limit == 0 {
            return Ok(Vec::new());
        }
        scored.select_nth_unstable_by(limit - 1, |a, b| b.0.total_cmp(&a.0));
        scored.truncate(limit);
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        scored
            .into_iter()
            .map(|(similarity, i)| {
                let entry = self.head.entry(i);
                match (
                    self.docs.get(entry.doc as usize),
                    self.nodes.get(entry.node as usize),
                ) {
                    (Some(doc_id), Some(node_id)) => Ok(DenseHit {
                        doc_id: doc_id.clone(),
                        node_id: node_id.clone(),
                        chunk_index: entry.chunk as usize,
                        similarity,
                    }),
                    _ => Err(StoreError::Corrupt(format!(
                        "the dense index's vector {i} names a document or section it lacks"
                    ))),
                }
            })
            .collect()
    }

    /// The `size` vectors in scope whose sign bits differ least from the query's (ties at
    /// the cut go to the earlier vectors).
    fn closest_by_bits(&self, query: &[f32], allowed: &[bool], size: usize) -> Vec<usize> {
        let query_code = sign_code(
            query.iter().zip(&self.centre).map(|(q, c)| q - c),
            self.words,
        );
        let distances = hamming_distances(self.head.codes(), self.words, &query_code);
        let whole_library = allowed.iter().all(|a| *a);
        let in_scope = |i: usize| whole_library || self.head.doc_allowed(i, allowed);
        // The cut distance from a histogram: no sort of a pair per vector.
        let mut histogram = vec![0usize; self.words * 64 + 1];
        for (i, d) in distances.iter().enumerate() {
            if in_scope(i) {
                histogram[usize::from(*d)] += 1;
            }
        }
        let mut cut = histogram.len();
        let mut below = 0;
        for (d, n) in histogram.iter().enumerate() {
            if below + n >= size {
                cut = d;
                break;
            }
            below += n;
        }
        let mut at_cut = size.saturating_sub(below);
        let mut out = Vec::with_capacity(size.min(distances.len()));
        for (i, d) in distances.iter().enumerate() {
            let d = usize::from(*d);
            if d > cut || !in_scope(i) {
                continue;
            }
            if d == cut {
                if at_cut == 0 {
                    continue;
                }
                at_cut -= 1;
            }
            out.push(i);
        }
        out
    }

    /// The exact (int8) similarity of each of `sorted` (ascending vector numbers).
    fn rescore(&self, query: &[f32], sorted: &[usize]) -> Result<Vec<(f32, usize)>> {
        // The query quantised too: an integer dot product, which the compiler vectorises
        // (a float sum it may not reorder); the error is well under a ranking's margins.
        let peak = query.iter().fold(0f32, |m, x| m.max(x.abs()));
        let query_scale = if peak > 0.0 { peak / 127.0 } else { 1.0 };
        let query8: Vec<i16> = query
            .iter()
            .map(|x| (x / query_scale).round().clamp(-127.0, 127.0) as i16)
            .collect();
        let score = |i: usize, row: &[u8]| {
            let dot: i32 = row
                .iter()
                .zip(&query8)
                .map(|(x, q)| i32::from(i16::from(*x as i8) * q))
                .sum();
            (dot as f32 * self.head.entry(i).scale * query_scale, i)
        };
        let mut scored = Vec::with_capacity(sorted.len());
        match &self.rows {
            Rows::Memory(vectors) => {
                for &i in sorted {
                    scored.push(score(i, &vectors[i * self.dims..(i + 1) * self.dims]));
                }
            }
            Rows::File { file, path, at } => {
                let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
                let unreadable = |e: std::io::Error| {
                    StoreError::Corrupt(format!(
                        "{}: the dense index cannot be read: {e}",
                        path.display()
                    ))
                };
                let mut buffer = Vec::new();
                for run in runs(sorted, self.dims) {
                    let (first, last) = (run[0], run[run.len() - 1]);
                    buffer.resize((last - first + 1) * self.dims, 0);
                    file.seek(SeekFrom::Start(*at + (first * self.dims) as u64))
                        .map_err(unreadable)?;
                    file.read_exact(&mut buffer).map_err(unreadable)?;
                    for &i in run {
                        let from = (i - first) * self.dims;
                        scored.push(score(i, &buffer[from..from + self.dims]));
                    }
                }
            }
            Rows::Mapped { map, at } => {
                for &i in sorted {
                    let from = at + i * self.dims;
                    let row = map.get(from..from + self.dims).ok_or_else(|| {
                        StoreError::Corrupt(format!(
                            "the dense index has no row {i} (it holds {})",
                            self.head.count
                        ))
                    })?;
                    scored.push(score(i, row));
                }
            }
        }
        Ok(scored)
    }

    /// Vectors held (with those of the documents added since the file was written).
    pub fn len(&self) -> usize {
        self.head.count + self.added.as_ref().map_or(0, |added| added.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Head {
    fn of(entries: &[Entry], codes: &[u64], words: usize) -> Self {
        let mut bytes = Vec::with_capacity(entries.len() * ENTRY_BYTES + codes.len() * 8);
        for e in entries {
            bytes.extend(e.to_bytes());
        }
        for c in codes {
            bytes.extend(c.to_le_bytes());
        }
        Head {
            bytes: HeadBytes::Owned(bytes),
            entries_at: 0,
            codes_at: entries.len() * ENTRY_BYTES,
            count: entries.len(),
            words,
        }
    }

    fn bytes(&self) -> &[u8] {
        match &self.bytes {
            HeadBytes::Owned(bytes) => bytes,
            HeadBytes::Mapped(map) => map,
        }
    }

    /// Vector `i`'s entry (a zero entry past the end: `open` checked the file's length).
    fn entry(&self, i: usize) -> Entry {
        let at = self.entries_at + i * ENTRY_BYTES;
        self.bytes()
            .get(at..at + ENTRY_BYTES)
            .and_then(|b| b.first_chunk::<ENTRY_BYTES>())
            .map_or(Entry::default(), Entry::from_bytes)
    }

    fn doc_allowed(&self, i: usize, allowed: &[bool]) -> bool {
        allowed
            .get(self.entry(i).doc as usize)
            .copied()
            .unwrap_or(false)
    }

    /// Every vector's sign bits, `words` little-endian u64 each.
    fn codes(&self) -> &[u8] {
        let at = self.codes_at;
        self.bytes()
            .get(at..at + self.count * self.words * 8)
            .unwrap_or_default()
    }
}

impl Entry {
    fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut out = [0u8; ENTRY_BYTES];
        out[0..4].copy_from_slice(&self.doc.to_le_bytes());
        out[4..8].copy_from_slice(&self.chunk.to_le_bytes());
        out[8..12].copy_from_slice(&self.node.to_le_bytes());
        out[12..16].copy_from_slice(&self.scale.to_le_bytes());
        out
    }

    fn from_bytes(b: &[u8; ENTRY_BYTES]) -> Self {
        let [d0, d1, d2, d3, c0, c1, c2, c3, n0, n1, n2, n3, s0, s1, s2, s3] = *b;
        Entry {
            doc: u32::from_le_bytes([d0, d1, d2, d3]),
            chunk: u32::from_le_bytes([c0, c1, c2, c3]),
            node: u32::from_le_bytes([n0, n1, n2, n3]),
            scale: f32::from_le_bytes([s0, s1, s2, s3]),
        }
    }
}

/// Consecutive stretches of `sorted` that are read in one piece: rows less than
/// [`READ_THROUGH_GAP`] apart, at most [`READ_BLOCK`] bytes.
fn runs(sorted: &[usize], dims: usize) -> Vec<&[usize]> {
    let mut out = Vec::new();
    let mut start = 0;
    for k in 1..=sorted.len() {
        let ends = k == sorted.len()
            || sorted[k] - sorted[k - 1] > READ_THROUGH_GAP
            || (sorted[k] - sorted[start] + 1) * dims > READ_BLOCK;
        if ends {
            out.push(&sorted[start..k]);
            start = k;
        }
    }
    out
}

/// Where a file's parts start: the header, the int8 rows, the sign bits, the centre, the
/// entries, the names.
struct Sizes {
    rows_at: usize,
    codes_at: usize,
    centre_at: usize,
    entries_at: usize,
    names_at: usize,
    total: usize,
}

impl Sizes {
    fn of(names_len: usize, dims: usize, count: usize, words: usize) -> Option<Self> {
        let rows_at = HEADER_BYTES;
        let codes_at = rows_at.checked_add(count.checked_mul(dims)?)?;
        let centre_at = codes_at.checked_add(count.checked_mul(words)?.checked_mul(8)?)?;
        let entries_at = centre_at.checked_add(dims.checked_mul(4)?)?;
        let names_at = entries_at.checked_add(count.checked_mul(ENTRY_BYTES)?)?;
        Some(Sizes {
            rows_at,
            codes_at,
            centre_at,
            entries_at,
            names_at,
            total: names_at.checked_add(names_len)?,
        })
    }
}
