//! Print the canonical text of a file with block markers (a debugging aid).
fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let bytes = std::fs::read(&path).unwrap_or_default();
    let decoded = match docindex_core::ingest::decode::decode(&bytes) {
        Ok(d) => d,
        Err(e) => return eprintln!("{path}: {e}"),
    };
    let format = match docindex_core::ingest::detect_format(&path, &decoded.text) {
        Ok(f) => f,
        Err(e) => return eprintln!("{path}: {e}"),
    };
    let t = std::time::Instant::now();
    match docindex_core::ingest::to_canonical(format, &decoded.text) {
        Ok(c) => {
            eprintln!("{:?} in {:?}: {} blocks, {} bytes, {} furniture, {} facts, {} contexts, {} anchors", format, t.elapsed(), c.blocks.len(), c.text.len(), c.furniture_removed, c.facts.len(), c.contexts.len(), c.anchors.len());
            for b in &c.blocks {
                let s = &c.text[b.span.clone()];
                println!(
                    "[{:?}{}{}{}{}] {}",
                    b.kind,
                    if b.style.bold { " B" } else { "" },
                    if b.style.italic { " I" } else { "" },
                    b.style
                        .font_size
                        .map(|s| format!(" {s}pt"))
                        .unwrap_or_default(),
                    if b.has_forward_link { " TOC" } else { "" },
                    s.chars().take(160).collect::<String>()
                );
            }
        }
        Err(e) => eprintln!("{path}: {e}"),
    }
}
