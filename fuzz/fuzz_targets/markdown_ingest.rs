//! Any bytes named `.md` either index into a tree that keeps the span invariants or are
//! refused with a typed error; nothing panics.
#![no_main]

mod invariants;

use docindex_core::progress::NoProgress;
use docindex_core::{index_document, IndexSettings};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(doc) = index_document("fuzz.md", data, &IndexSettings::default(), &mut NoProgress) {
        invariants::check(&doc);
    }
});
