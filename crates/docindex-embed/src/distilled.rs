//! A static embedding model distilled from MiniLM (the model2vec recipe): a word piece's
//! vector is MiniLM's output at its position in `[CLS] piece [SEP]`, normalised, less the
//! mean of them all; a text's vector is the weighted mean of its word pieces' vectors, normalised.
//! Rarer word pieces weigh more (log of their rank in the vocabulary, which WordPiece
//! orders by frequency), and pieces without a letter (figures, punctuation) weigh nothing
//! in a text that has words: a statement table is mostly figures, which say nothing of
//! what the passage is about. No transformer runs when indexing or searching: a table lookup
//! per word piece, thousands of chunks a second.

use crate::MiniLm;
use candle_core::{DType, Device, Tensor};
use docindex_core::embed::{EmbedError, Embedder};
use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use tokenizers::Tokenizer;

/// The vectors' model: v3 leaves figures out of a text's mean (v2 weighed them as words);
/// the table is the same.
pub const DISTILLED_MODEL_ID: &str = "all-MiniLM-L6-v2-distilled-v3";
/// Models no choice embeds with any more: their vectors are never read again, and the
/// embedding stage deletes them (about 700 MB over 1,000 filings).
pub const RETIRED_MODEL_IDS: &[&str] = &["all-MiniLM-L6-v2-distilled-v2"];
/// The table, computed once from the MiniLM weights and kept beside them.
pub(crate) const TABLE_FILE: &str = "distilled-v2.safetensors";
/// The first whole word of the vocabulary ("the"); ids below are special tokens, unused
/// slots and single characters, all frequent.
const FIRST_WORD: u32 = 1996;
/// Word pieces distilled per forward pass.
const DISTILL_BATCH: usize = 512;

pub struct Distilled {
    table: Table,
    dims: usize,
    weights: Vec<f32>,
    /// Word pieces without a letter: digits, punctuation, symbols.
    letterless: Vec<bool>,
    tokenizer: Tokenizer,
}

/// More distinct word pieces than this in one call read the whole table (indexing); fewer
/// are read one row at a time (a search's query).
const WHOLE_TABLE_FROM: usize = 2_000;

/// The table's rows (`vocab × dims`, row-major).
enum Table {
    /// Just distilled.
    Memory(Vec<f32>),
    /// In its file from `at`: a search in a new process embeds a few words, and reading
    /// all 47 MB for them would cost it about 100 ms.
    File {
        file: Mutex<File>,
        path: PathBuf,
        at: u64,
        whole: OnceLock<Vec<f32>>,
    },
}

/// Where the table of the MiniLM weights in `dir` is kept: beside them when that folder
/// is writable, else in the user's cache folder.
fn table_paths(dir: &Path) -> Vec<PathBuf> {
    let mut paths = vec![dir.join(TABLE_FILE)];
    if let Some(cache) = std::env::var_os("HOME") {
        paths.push(
            PathBuf::from(cache)
                .join(".cache/docindex")
                .join(TABLE_FILE),
        );
    }
    paths
}

impl Distilled {
    /// The distilled model of the MiniLM found by [`crate::candidate_dirs`]; distilled (about
    /// a minute, once) when no table is kept yet.
    pub fn locate() -> Result<Self, EmbedError> {
        let dir = crate::distilled_dir()?;
        Self::load_or_distill(&dir)
    }

    pub fn load_or_distill(dir: &Path) -> Result<Self, EmbedError> {
        let started = std::time::Instant::now();
        let tokenizer = plain_tokenizer(dir)?;
        tracing::debug!(
            "embedder: tokenizer read in {} ms",
            started.elapsed().as_millis()
        );
        for path in table_paths(dir) {
            if path.is_file() {
                return Self::load(&path, tokenizer);
            }
        }
        let minilm = MiniLm::load(dir)?;
        let table = distill(&minilm).map_err(|e| EmbedError::Model(e.to_string()))?;
        let dims = minilm.dimensions();
        let saved = table_paths(dir)
            .into_iter()
            .find_map(|path| save(&path, &table, dims).ok().map(|()| path));
        match saved {
            Some(path) => tracing::info!("distilled embedding table kept at {}", path.display()),
            None => tracing::warn!(
                "the distilled embedding table could not be kept; it will be made again"
            ),
        }
        Ok(Self::from_table(table, dims, tokenizer))
    }

    /// The table in the safetensors file at `path`: its header is read now, its rows as
    /// texts need them.
    fn load(path: &Path, tokenizer: Tokenizer) -> Result<Self, EmbedError> {
        let bad = |e: &dyn std::fmt::Display| {
            EmbedError::Missing(format!(
                "{}: {e} (delete it to distil again)",
                path.display()
            ))
        };
        let mut file = File::open(path).map_err(|e| bad(&e))?;
        let length = file.metadata().map_err(|e| bad(&e))?.len();
        let mut prefix = [0u8; 8];
        file.read_exact(&mut prefix).map_err(|e| bad(&e))?;
        let header_len = u64::from_le_bytes(prefix);
        if header_len > length.saturating_sub(8) || header_len > 1 << 20 {
            return Err(bad(&"not a safetensors file"));
        }
        let mut header = vec![0u8; header_len as usize];
        file.read_exact(&mut header).map_err(|e| bad(&e))?;
        let header: serde_json::Value = serde_json::from_slice(&header).map_err(|e| bad(&e))?;
        let table = &header["table"];
        let shape: Vec<u64> = table["shape"]
            .as_array()
            .map(|dims| dims.iter().filter_map(serde_json::Value::as_u64).collect())
            .unwrap_or_default();
        let (vocab, dims) = match (table["dtype"].as_str(), shape.as_slice()) {
            (Some("F32"), [vocab, dims]) => (*vocab as usize, *dims as usize),
            (dtype, shape) => {
                return Err(bad(&format!(
                    "a {} table of shape {shape:?}",
                    dtype.unwrap_or("missing")
                )))
            }
        };
        let offsets: Vec<u64> = table["data_offsets"]
            .as_array()
            .map(|o| o.iter().filter_map(serde_json::Value::as_u64).collect())
            .unwrap_or_default();
        let at = 8 + header_len + offsets.first().copied().unwrap_or(u64::MAX);
        let table_bytes = (vocab * dims * 4) as u64;
        if offsets.len() != 2
            || offsets[1].checked_sub(offsets[0]) != Some(table_bytes)
            || at.checked_add(table_bytes) != Some(length)
        {
            return Err(bad(&"a table whose length does not match its shape"));
        }
        if vocab != tokenizer.get_vocab_size(true) {
            return Err(bad(&format!(
                "{vocab} rows for a vocabulary of {}",
                tokenizer.get_vocab_size(true)
            )));
        }
        let table = Table::File {
            file: Mutex::new(file),
            path: path.to_path_buf(),
            at,
            whole: OnceLock::new(),
        };
        Ok(Self::with_table(table, vocab, dims, tokenizer))
    }

    fn from_table(table: Vec<f32>, dims: usize, tokenizer: Tokenizer) -> Self {
        let vocab = table.len() / dims.max(1);
        Self::with_table(Table::Memory(table), vocab, dims, tokenizer)
    }

    fn with_table(table: Table, vocab: usize, dims: usize, tokenizer: Tokenizer) -> Self {
        let weights = (0..vocab as u32)
            .map(|id| {
                let rank = id.saturating_sub(FIRST_WORD) + 1;
                (1.0 + rank as f32).ln()
            })
            .collect();
        let letterless = (0..vocab as u32)
            .map(|id| {
                tokenizer.id_to_token(id).is_some_and(|piece| {
                    let bare = piece.trim_start_matches("##");
                    !bare.is_empty() && !bare.chars().any(char::is_alphabetic)
                })
            })
            .collect();
        Distilled {
            table,
            dims,
            weights,
            letterless,
            tokenizer,
        }
    }

    fn embed_one<'a>(&self, ids: &[u32], row: &impl Fn(u32) -> Option<&'a [f32]>) -> Vec<f32> {
        let letterless = |id: u32| self.letterless.get(id as usize).copied().unwrap_or(true);
        // Only a text of figures alone ("2023") is embedded by them.
        let words_only = ids.iter().any(|&id| !letterless(id));
        let mut sum = vec![0f32; self.dims];
        for &id in ids {
            if words_only && letterless(id) {
                continue;
            }
            let Some(row) = row(id) else {
                continue;
            };
            let w = self.weights.get(id as usize).copied().unwrap_or(0.0);
            for (s, x) in sum.iter_mut().zip(row) {
                *s += w * x;
            }
        }
        let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 1e-12 {
            sum.iter_mut().for_each(|x| *x /= norm);
        }
        sum
    }

    /// The rows of `ids`: the whole table when a call needs many (indexing), else just
    /// theirs, read by position (a search's query).
    fn rows_of(&self, ids: &[u32]) -> Result<Rows<'_>, EmbedError> {
        let (file, path, at, whole) = match &self.table {
            Table::Memory(table) => return Ok(Rows::Whole(table)),
            Table::File {
                file,
                path,
                at,
                whole,
            } => (file, path, *at, whole),
        };
        if let Some(table) = whole.get() {
            return Ok(Rows::Whole(table));
        }
        let unreadable = |e: std::io::Error| {
            EmbedError::Missing(format!(
                "{}: {e} (delete it to distil again)",
                path.display()
            ))
        };
        let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
        let decode = |bytes: &[u8]| -> Vec<f32> {
            bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        };
        let mut distinct = ids.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() > WHOLE_TABLE_FROM {
            let mut bytes = vec![0u8; self.weights.len() * self.dims * 4];
            file.seek(SeekFrom::Start(at)).map_err(unreadable)?;
            file.read_exact(&mut bytes).map_err(unreadable)?;
            return Ok(Rows::Whole(whole.get_or_init(|| decode(&bytes))));
        }
        let mut rows = HashMap::with_capacity(distinct.len());
        let mut bytes = vec![0u8; self.dims * 4];
        for id in distinct {
            if id as usize >= self.weights.len() {
                continue;
            }
            file.seek(SeekFrom::Start(at + (id as usize * self.dims * 4) as u64))
                .map_err(unreadable)?;
            file.read_exact(&mut bytes).map_err(unreadable)?;
            rows.insert(id, decode(&bytes));
        }
        Ok(Rows::Some(rows))
    }
}

/// The rows one call reads.
enum Rows<'a> {
    Whole(&'a [f32]),
    Some(HashMap<u32, Vec<f32>>),
}

impl Rows<'_> {
    fn row(&self, id: u32, dims: usize) -> Option<&[f32]> {
        match self {
            Rows::Whole(table) => table.get(id as usize * dims..(id as usize + 1) * dims),
            Rows::Some(rows) => rows.get(&id).map(Vec::as_slice),
        }
    }
}

/// The tokenizer without padding or truncation: a static model reads every word piece.
fn plain_tokenizer(dir: &Path) -> Result<Tokenizer, EmbedError> {
    let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
        .map_err(|e| EmbedError::Missing(format!("{}: tokenizer.json: {e}", dir.display())))?;
    tokenizer.with_padding(None);
    tokenizer
        .with_truncation(None)
        .map_err(|e| EmbedError::Missing(format!("{}: tokenizer: {e}", dir.display())))?;
    Ok(tokenizer)
}

/// Every word piece's MiniLM output in `[CLS] piece [SEP]`, normalised, less the mean of
/// the real word pieces' vectors, which every text shares.
fn distill(minilm: &MiniLm) -> candle_core::Result<Vec<f32>> {
    let vocab = minilm.vocab_size() as u32;
    let dims = minilm.dimensions();
    let mut table = Vec::with_capacity(vocab as usize * dims);
    let ids: Vec<u32> = (0..vocab).collect();
    for batch in ids.chunks(DISTILL_BATCH) {
        let rows: Vec<u32> = batch.iter().flat_map(|&id| [101, id, 102]).collect();
        let input_ids = Tensor::from_vec(rows, (batch.len(), 3), &Device::Cpu)?;
        let mask = input_ids.ones_like()?;
        // The piece's own position, not the mean with [CLS] and [SEP], which every
        // piece shares (measured: 48/51 and 39/45 found against 46/51 and 39/45).
        let own = minilm
            .hidden(&input_ids, &mask)?
            .narrow(1, 1, 1)?
            .squeeze(1)?;
        let norm = own.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
        let vectors = own.broadcast_div(&norm)?;
        table.extend(vectors.flatten_all()?.to_vec1::<f32>()?);
    }
    let real = (999..vocab as usize).collect::<Vec<_>>();
    let mut mean = vec![0f32; dims];
    for &id in &real {
        for (m, x) in mean.iter_mut().zip(&table[id * dims..(id + 1) * dims]) {
            *m += x / real.len() as f32;
        }
    }
    for row in table.chunks_mut(dims) {
        for (x, m) in row.iter_mut().zip(&mean) {
            *x -= m;
        }
    }
    Ok(table)
}

fn save(path: &Path, table: &[f32], dims: usize) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    let rows = table.len() / dims.max(1);
    let tensor = Tensor::from_slice(table, (rows, dims), &Device::Cpu)
        .and_then(|t| t.to_dtype(DType::F32))
        .map_err(|e| e.to_string())?;
    // Written beside and renamed: two processes distilling at once never leave half a file.
    let partial = path.with_extension(format!("partial-{}", std::process::id()));
    candle_core::safetensors::save(&HashMap::from([("table", tensor)]), &partial)
        .map_err(|e| e.to_string())?;
    // Readable by every user of a shared model folder.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&partial, std::fs::Permissions::from_mode(0o644))
            .map_err(|e| e.to_string())?;
    }
    std::fs::rename(&partial, path).map_err(|e| e.to_string())
}

impl Embedder for Distilled {
    fn model_id(&self) -> &str {
        DISTILLED_MODEL_ID
    }

    fn dimensions(&self) -> usize {
        self.dims
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let pieces = texts
            .iter()
            .map(|text| {
                self.tokenizer
                    .encode_fast(*text, false)
                    .map(|encoding| encoding.get_ids().to_vec())
                    .map_err(|e| EmbedError::Model(e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let every: Vec<u32> = pieces.iter().flatten().copied().collect();
        let rows = self.rows_of(&every)?;
        Ok(pieces
            .iter()
            .map(|ids| self.embed_one(ids, &|id| rows.row(id, self.dims)))
            .collect())
    }
}
