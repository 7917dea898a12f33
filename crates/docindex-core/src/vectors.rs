//! The boundary to a vector store outside the library (a Chroma server a team shares):
//! what a document's vectors are called there, and what dense search asks of it. The
//! library's own SQLite keeps vectors by default and is not behind this trait.

use crate::error::Fault;
use crate::model::DocumentIndex;
use sha2::{Digest, Sha256};
use thiserror::Error;

/// One document's chunk vectors as one layout of its chunks: the same document indexed
/// again with other settings has other chunks, hence another layout, and never meets the
/// vectors of the old ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VectorSet {
    pub doc_id: String,
    /// A fingerprint of the chunks: their order, nodes and spans ([`layout_of`]).
    pub layout: String,
}

/// One chunk's vector, with what finds it again in the library.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkVector {
    pub chunk_index: usize,
    pub node_id: String,
    pub vector: Vec<f32>,
}

/// A chunk near the query, by cosine similarity.
#[derive(Debug, Clone, PartialEq)]
pub struct Neighbour {
    pub doc_id: String,
    pub node_id: String,
    pub chunk_index: usize,
    pub similarity: f32,
}

/// Why the vector store could not do what was asked. Every variant names the store.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum VectorStoreError {
    /// The address given for the store is not one we can use.
    #[error("{given:?} is not a vector store address: {reason}")]
    Address { given: String, reason: String },
    /// Nothing answers at the address (down, wrong port, refused).
    #[error("the vector store at {store} cannot be reached: {reason}")]
    Unreachable { store: String, reason: String },
    /// The store did not answer in time.
    #[error("the vector store at {store} did not answer within {seconds} s")]
    TimedOut { store: String, seconds: u64 },
    /// The store answered with an error.
    #[error("the vector store at {store} refused {what}: HTTP {status}: {message}")]
    Refused {
        store: String,
        what: String,
        status: u16,
        message: String,
    },
    /// The store answered with something we cannot read.
    #[error("the vector store at {store} gave a reply we cannot read ({what}): {reason}")]
    BadReply {
        store: String,
        what: String,
        reason: String,
    },
}

impl VectorStoreError {
    pub fn fault(&self) -> Fault {
        match self {
            VectorStoreError::Address { .. } => Fault::User,
            _ => Fault::Runtime,
        }
    }
}

/// Vectors kept outside the library. Vectors of different embedding models never meet:
/// every call names the model.
pub trait VectorStore: Send + Sync {
    /// The store's address as the user gave it, for messages and bookkeeping.
    fn address(&self) -> &str;
    /// Whether the store answers (and speaks the API we need).
    fn check(&self) -> Result<(), VectorStoreError>;
    /// Whether the store already holds this layout's vectors (another library sharing the
    /// store may have put them there).
    fn holds(&self, model: &str, set: &VectorSet) -> Result<bool, VectorStoreError>;
    /// Store the vectors of one layout, replacing any with the same chunk indexes.
    fn put(
        &self,
        model: &str,
        set: &VectorSet,
        vectors: &[ChunkVector],
    ) -> Result<(), VectorStoreError>;
    /// The `limit` chunks nearest to `query` among the given layouts, nearest first.
    fn nearest(
        &self,
        model: &str,
        query: &[f32],
        scope: &[VectorSet],
        limit: usize,
    ) -> Result<Vec<Neighbour>, VectorStoreError>;
}

/// The layout fingerprint of a document's chunks: 16 hex digits of a SHA-256 over the
/// document id and each chunk's index, node, span and context (which is embedded with it).
pub fn layout_of(doc: &DocumentIndex) -> String {
    let mut hash = Sha256::new();
    hash.update(doc.doc_id.as_bytes());
    for chunk in &doc.chunks {
        hash.update(
            format!(
                "\u{1f}{}\u{1e}{}\u{1e}{}\u{1e}{}\u{1e}{}",
                chunk.chunk_index,
                chunk.node_id,
                chunk.span.start_char,
                chunk.span.end_char,
                chunk.context
            )
            .as_bytes(),
        );
    }
    hex::encode(hash.finalize())[..16].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_changes_with_the_chunks_and_only_with_them() {
        let doc = crate::index_document(
            "note.md",
            b"# Revenue\n\nNet sales rose 5% to $1,234 million.\n\n# Risks\n\nSupply chain disruptions may hurt margins.\n",
            &crate::IndexSettings::default(),
            &mut crate::progress::NoProgress,
        )
        .unwrap();
        let layout = layout_of(&doc);
        assert_eq!(layout.len(), 16);
        assert_eq!(layout, layout_of(&doc.clone()));
        let mut moved = doc.clone();
        moved.chunks[0].span.end_char -= 1;
        assert_ne!(layout, layout_of(&moved));
        let mut renamed = doc.clone();
        renamed.description = Some("another description".into());
        assert_eq!(layout, layout_of(&renamed));
    }
}
