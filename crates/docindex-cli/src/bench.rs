//! `docindex bench`: indexing throughput on real files (MB/s of input, nodes/s), single
//! file single-threaded and the whole set in parallel into a scratch library.

use anyhow::Result;
use docindex_app::Library;
use docindex_core::progress::NoProgress;
use docindex_core::IndexSettings;
use std::path::PathBuf;
use std::time::Instant;

pub fn run(paths: &[PathBuf], jobs: usize, repeat: usize, settings: IndexSettings) -> Result<i32> {
    // Build the tokenizer once, outside the timings (it costs ~0.3 s per process).
    docindex_core::tokens::TokenCounter::new()?;
    println!(
        "{:<60} {:>9} {:>7} {:>9} {:>8} {:>10}",
        "file", "MB", "nodes", "ms", "MB/s", "nodes/s"
    );
    let mut total_bytes = 0usize;
    let mut total_nodes = 0usize;
    let mut total_secs = 0f64;
    for path in paths {
        let bytes = std::fs::read(path)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let mut best = f64::MAX;
        let mut nodes = 0;
        for _ in 0..repeat.max(1) {
            let start = Instant::now();
            match docindex_core::index_document(&name, &bytes, &settings, &mut NoProgress) {
                Ok(doc) => nodes = doc.nodes.len(),
                Err(e) => {
                    println!("{name}: {e}");
                    break;
                }
            }
            best = best.min(start.elapsed().as_secs_f64());
        }
        if best == f64::MAX {
            continue;
        }
        let mb = bytes.len() as f64 / 1e6;
        println!(
            "{:<60} {:>9.2} {:>7} {:>9.1} {:>8.1} {:>10.0}",
            name,
            mb,
            nodes,
            best * 1000.0,
            mb / best,
            nodes as f64 / best
        );
        total_bytes += bytes.len();
        total_nodes += nodes;
        total_secs += best;
    }
    if total_secs > 0.0 {
        println!(
            "single-threaded total: {:.2} MB in {:.0} ms = {:.1} MB/s, {:.0} nodes/s",
            total_bytes as f64 / 1e6,
            total_secs * 1000.0,
            total_bytes as f64 / 1e6 / total_secs,
            total_nodes as f64 / total_secs
        );
    }
    let scratch = std::env::temp_dir().join(format!("docindex-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let mut library = Library::open(&scratch, settings)?;
    let start = Instant::now();
    let reports = library.index_paths(paths, jobs, &|_| {})?;
    let secs = start.elapsed().as_secs_f64();
    let ok = reports.iter().filter(|r| r.result.is_ok()).count();
    println!(
        "parallel ({jobs} jobs) into SQLite: {ok}/{} files, {:.2} MB in {:.0} ms = {:.1} MB/s",
        reports.len(),
        total_bytes as f64 / 1e6,
        secs * 1000.0,
        total_bytes as f64 / 1e6 / secs
    );
    drop(library);
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(0)
}
