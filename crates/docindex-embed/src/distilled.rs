//! A static embedding model distilled from MiniLM (the model2vec recipe): a word piece's
//! vector is MiniLM's output at its position in `[CLS] piece [SEP]`, normalised, less the
//! mean of them all; a text's vector is the weighted mean of its word pieces' vectors, normalised.
//! Rarer word pieces weigh more (log of their rank in the vocabulary, which WordPiece
//! orders by frequency). No transformer runs when indexing or searching: a table lookup
//! per word piece, thousands of chunks a second.

use crate::MiniLm;
use candle_core::{DType, Device, Tensor};
use docindex_core::embed::{EmbedError, Embedder};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tokenizers::Tokenizer;

pub const DISTILLED_MODEL_ID: &str = "all-MiniLM-L6-v2-distilled-v2";
/// The table, computed once from the MiniLM weights and kept beside them.
const TABLE_FILE: &str = "distilled-v2.safetensors";
/// The first whole word of the vocabulary ("the"); ids below are special tokens, unused
/// slots and single characters, all frequent.
const FIRST_WORD: u32 = 1996;
/// Word pieces distilled per forward pass.
const DISTILL_BATCH: usize = 512;

pub struct Distilled {
    /// `vocab × dims`, row-major.
    table: Vec<f32>,
    dims: usize,
    weights: Vec<f32>,
    tokenizer: Tokenizer,
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
        let dir = crate::model_dir()?;
        Self::load_or_distill(&dir)
    }

    pub fn load_or_distill(dir: &Path) -> Result<Self, EmbedError> {
        let tokenizer = plain_tokenizer(dir)?;
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

    fn load(path: &Path, tokenizer: Tokenizer) -> Result<Self, EmbedError> {
        let bad = |e: &dyn std::fmt::Display| {
            EmbedError::Missing(format!(
                "{}: {e} (delete it to distil again)",
                path.display()
            ))
        };
        // Read straight from the file's bytes: a search in a new process pays for this.
        let bytes = std::fs::read(path).map_err(|e| bad(&e))?;
        let tensors = safetensors::SafeTensors::deserialize(&bytes).map_err(|e| bad(&e))?;
        let tensor = tensors.tensor("table").map_err(|e| bad(&e))?;
        let (vocab, dims) = match (tensor.dtype(), tensor.shape()) {
            (safetensors::Dtype::F32, [vocab, dims]) => (*vocab, *dims),
            (dtype, shape) => return Err(bad(&format!("a {dtype:?} table of shape {shape:?}"))),
        };
        if vocab != tokenizer.get_vocab_size(true) {
            return Err(bad(&format!(
                "{vocab} rows for a vocabulary of {}",
                tokenizer.get_vocab_size(true)
            )));
        }
        let table: Vec<f32> = tensor
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Ok(Self::from_table(table, dims, tokenizer))
    }

    fn from_table(table: Vec<f32>, dims: usize, tokenizer: Tokenizer) -> Self {
        let vocab = table.len() / dims.max(1);
        let weights = (0..vocab as u32)
            .map(|id| {
                let rank = id.saturating_sub(FIRST_WORD) + 1;
                (1.0 + rank as f32).ln()
            })
            .collect();
        Distilled {
            table,
            dims,
            weights,
            tokenizer,
        }
    }

    fn embed_one(&self, ids: &[u32]) -> Vec<f32> {
        let mut sum = vec![0f32; self.dims];
        for &id in ids {
            let id = id as usize;
            let Some(row) = self.table.get(id * self.dims..(id + 1) * self.dims) else {
                continue;
            };
            let w = self.weights.get(id).copied().unwrap_or(0.0);
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
        texts
            .iter()
            .map(|text| {
                let encoding = self
                    .tokenizer
                    .encode_fast(*text, false)
                    .map_err(|e| EmbedError::Model(e.to_string()))?;
                Ok(self.embed_one(encoding.get_ids()))
            })
            .collect()
    }
}
