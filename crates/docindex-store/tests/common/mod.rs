//! What the store's tests share: a real filing from `tests/fixtures`, indexed offline.
#![allow(clippy::unwrap_used)]

use docindex_core::progress::NoProgress;
use docindex_core::{index_document, DocumentIndex, IndexSettings};
use std::path::PathBuf;

/// The fixture `name`, indexed with the default settings.
pub fn indexed(name: &str) -> DocumentIndex {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name);
    let bytes = std::fs::read(path).unwrap();
    index_document(name, &bytes, &IndexSettings::default(), &mut NoProgress).unwrap()
}
