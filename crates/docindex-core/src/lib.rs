//! The DocumentIndex core: filings in, exact-span section trees out, with no I/O of its own.
//!
//! Data flows `ingest` (bytes → [`ingest::Canonical`] text with blocks, anchors, links and
//! XBRL facts) → `structure` (blocks → section tree) → `pipeline` (tree → public
//! [`model::DocumentIndex`] with chunks, tokens, summaries, metadata, cross-references and
//! dictionary). Storage and progress reach the core only through the traits in [`store`]
//! and [`progress`].

pub mod charmap;
pub mod chunk;
pub mod companies;
pub mod dictionary;
pub mod doctype;
pub mod embed;
pub mod enhance;
pub mod error;
pub mod finance;
pub mod import;
pub mod ingest;
pub mod lexicon;
pub mod llm;
pub mod metadata;
pub mod model;
pub mod overview;
pub mod pipeline;
pub mod progress;
pub mod prompts;
pub mod provenance;
pub mod qa;
pub mod question;
pub mod search;
pub mod store;
pub mod structure;
pub mod summary;
#[cfg(any(test, feature = "test-support"))]
pub mod testing;
pub mod tokens;
pub mod vectors;
pub mod xref;

pub use error::{Fault, IngestError, Result};
pub use model::*;
pub use pipeline::{index_document, index_document_with, IndexSettings, IndexTools};
