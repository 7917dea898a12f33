//! Token counting with tiktoken's `cl100k_base`, built once per process (building it costs
//! about 0.3 s).

use crate::error::{IngestError, Result};
use std::sync::LazyLock;
use tiktoken_rs::CoreBPE;

static CL100K: LazyLock<std::result::Result<CoreBPE, String>> =
    LazyLock::new(|| tiktoken_rs::cl100k_base().map_err(|e| e.to_string()));

/// A token counter over the shared encoder.
#[derive(Clone, Copy)]
pub struct TokenCounter {
    bpe: &'static CoreBPE,
}

impl TokenCounter {
    pub fn new() -> Result<Self> {
        match &*CL100K {
            Ok(bpe) => Ok(TokenCounter { bpe }),
            Err(e) => Err(IngestError::Internal(format!(
                "tokenizer failed to load: {e}"
            ))),
        }
    }

    pub fn count(&self, text: &str) -> usize {
        self.bpe.encode_ordinary(text).len()
    }
}
