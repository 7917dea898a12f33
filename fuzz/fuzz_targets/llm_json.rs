//! The JSON a model replies with, repaired and extracted: any text either yields a JSON
//! value or a reason, never a panic; repairing is idempotent on what it produced.
#![no_main]

use docindex_core::llm::json::{extract_json, repair};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = extract_json(text);
    let repaired = repair(text);
    let _ = extract_json(&repaired);
});
