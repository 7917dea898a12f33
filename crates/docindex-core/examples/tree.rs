//! Print the tree of a file indexed in memory (a debugging aid).
use docindex_core::charmap::CharMap;
fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let bytes = std::fs::read(&path).unwrap_or_default();
    let name = std::path::Path::new(&path)
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let t = std::time::Instant::now();
    match docindex_core::index_document(
        &name,
        &bytes,
        &Default::default(),
        &mut docindex_core::progress::NoProgress,
    ) {
        Ok(doc) => {
            eprintln!(
                "{} {:?} in {:?}: {} nodes {} chunks {} xrefs {} terms",
                name,
                doc.doc_type,
                t.elapsed(),
                doc.nodes.len(),
                doc.chunks.len(),
                doc.cross_refs.len(),
                doc.dictionary.len()
            );
            let map = CharMap::new(&doc.text);
            for n in &doc.nodes {
                let first: String = map
                    .slice(n.span)
                    .chars()
                    .take(50)
                    .collect::<String>()
                    .replace('\n', " / ");
                println!(
                    "{}{} {} [{}..{}] {}t {:?} | {}",
                    "  ".repeat(n.level as usize),
                    n.node_id,
                    n.title.chars().take(70).collect::<String>(),
                    n.span.start_char,
                    n.span.end_char,
                    n.token_count,
                    n.origin,
                    first
                );
            }
            println!(
                "{}",
                serde_json::to_string_pretty(&doc.metadata).unwrap_or_default()
            );
        }
        Err(e) => eprintln!("{path}: {e}"),
    }
}
