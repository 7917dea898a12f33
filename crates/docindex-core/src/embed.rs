//! The embedding boundary of the core: a trait the local model (and any remote embedding
//! endpoint) implements, and the vector arithmetic search needs.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum EmbedError {
    /// The model files are not where set-up puts them.
    #[error("embedding model unavailable: {0}")]
    Missing(String),
    #[error("embedding failed: {0}")]
    Model(String),
}

/// Turns texts into unit-length vectors; equal texts give equal vectors.
pub trait Embedder: Send + Sync {
    /// Stored with each vector, so vectors of different models are never compared.
    fn model_id(&self) -> &str;
    fn dimensions(&self) -> usize;
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError>;
}

/// Cosine similarity of two unit vectors.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// What a vector is the embedding of, as a key: the SHA-256 of the exact text embedded. A
/// chunk whose text another chunk already had (the same boilerplate in every filing, the
/// same filing indexed again) reuses that vector.
pub fn text_hash(text: &str) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes()).into()
}

/// Little-endian bytes of a vector, for storage.
pub fn to_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn from_bytes(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
