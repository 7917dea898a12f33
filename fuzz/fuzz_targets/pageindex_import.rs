//! PageIndex tree JSON, imported: any bytes yield a document or a typed error, never a
//! panic; an imported document's spans lie in its text and each child inside its parent.
#![no_main]

use docindex_core::pipeline::import_pageindex;
use docindex_core::progress::NoProgress;
use docindex_core::IndexSettings;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = import_pageindex("tree.json", data, &IndexSettings::default(), &mut NoProgress)
    else {
        return;
    };
    let chars = doc.text.chars().count();
    for node in &doc.nodes {
        assert!(node.span.start_char <= node.span.end_char && node.span.end_char <= chars);
        if let Some(parent) = node.parent_id.as_deref().and_then(|p| doc.node(p)) {
            assert!(parent.span.start_char <= node.span.start_char);
            assert!(node.span.end_char <= parent.span.end_char);
        }
    }
});
