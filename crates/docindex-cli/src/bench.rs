//! `docindex bench`: indexing throughput on real files (MB/s of input, nodes/s, ms per PDF
//! page) and peak memory per file, single file single-threaded and the whole set in
//! parallel into a scratch library; with `--embed`, the embedding stage of each local
//! embedder; with `--pages`, the PDF page view (layout with glyph boxes, drawing a page);
//! with `--scaling`, how indexing time grows with a file's size.

use anyhow::Result;
use docindex_app::{Library, ModelConfig};
use docindex_core::IndexSettings;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub fn run(
    paths: &[PathBuf],
    headings: Option<usize>,
    jobs: usize,
    repeat: usize,
    settings: IndexSettings,
    model: Option<&ModelConfig>,
) -> Result<i32> {
    // Every measurement goes through a scratch library, with the same reader, model and
    // settings as `docindex index`.
    let scratch = std::env::temp_dir().join(format!("docindex-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let mut paths = paths.to_vec();
    if let Some(count) = headings {
        paths.push(write_headings(&scratch, count)?);
    }
    let outcome = match model {
        Some(config) => economy(&scratch, &paths, settings, config),
        None => throughput(&scratch.join("library"), &paths, jobs, repeat, settings),
    };
    let _ = std::fs::remove_dir_all(&scratch);
    outcome
}

/// A Markdown file of `count` numbered headings, nested one to six deep and back, each
/// with a line of text: the shape whose tree once took minutes to build at 100,000.
fn write_headings(scratch: &Path, count: usize) -> Result<PathBuf> {
    use std::fmt::Write;
    std::fs::create_dir_all(scratch)?;
    let path = scratch.join(format!("{count}-headings.md"));
    let mut text = String::with_capacity(count * 40);
    for i in 0..count {
        let level = 1 + (i / 3) % 6;
        writeln!(
            text,
            "{} {}. Heading of the section\n",
            "#".repeat(level),
            i + 1
        )?;
    }
    std::fs::write(&path, text)?;
    Ok(path)
}

fn throughput(
    scratch: &Path,
    paths: &[PathBuf],
    jobs: usize,
    repeat: usize,
    settings: IndexSettings,
) -> Result<i32> {
    let library = Library::open(scratch, settings)?;
    // Build the tokenizer once, outside the timings (it costs ~0.3 s per process).
    docindex_core::tokens::TokenCounter::new()?;
    println!(
        "{:<44} {:>7} {:>6} {:>6} {:>8} {:>7} {:>8} {:>8} {:>9}",
        "file", "MB", "pages", "nodes", "ms", "MB/s", "nodes/s", "ms/page", "peak MB"
    );
    let mut total_bytes = 0usize;
    let mut total_nodes = 0usize;
    let mut total_secs = 0f64;
    let mut total_pages = 0usize;
    let mut pdf_secs = 0f64;
    for path in paths {
        let bytes = std::fs::metadata(path)?.len() as usize;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let mut best = f64::MAX;
        let mut nodes = 0;
        let mut pages = 0;
        let mut peak_mb = f64::NAN;
        for _ in 0..repeat.max(1) {
            reset_peak_rss();
            let start = Instant::now();
            let indexed = library.build_document(path);
            let elapsed = start.elapsed().as_secs_f64();
            match indexed {
                Ok(doc) => {
                    nodes = doc.nodes.len();
                    pages = doc.pages.len();
                }
                Err(e) => {
                    println!("{name}: {e}");
                    break;
                }
            }
            peak_mb = peak_rss_mb().unwrap_or(f64::NAN);
            best = best.min(elapsed);
        }
        if best == f64::MAX {
            continue;
        }
        let mb = bytes as f64 / 1e6;
        let per_page = if pages > 0 {
            format!("{:.2}", best * 1000.0 / pages as f64)
        } else {
            "-".to_string()
        };
        let short: String = name.chars().take(44).collect();
        println!(
            "{:<44} {:>7.2} {:>6} {:>6} {:>8.1} {:>7.1} {:>8.0} {:>8} {:>9.0}",
            short,
            mb,
            pages,
            nodes,
            best * 1000.0,
            mb / best,
            nodes as f64 / best,
            per_page,
            peak_mb
        );
        total_pages += pages;
        if pages > 0 {
            pdf_secs += best;
        }
        total_bytes += bytes;
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
    if total_pages > 0 {
        println!(
            "PDF: {total_pages} pages in {:.0} ms = {:.2} ms/page",
            pdf_secs * 1000.0,
            pdf_secs * 1000.0 / total_pages as f64
        );
    }
    drop(library);
    let parallel = scratch.join("parallel");
    let mut library = Library::open(&parallel, settings)?;
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
    Ok(0)
}

/// Sizes each file is measured at, as multiples of itself.
const SCALES: [usize; 3] = [1, 4, 16];

/// How indexing time grows with size: each file's content repeated 1, 4 and 16 times (for
/// HTML, the body's), and a written file of Part/Item lines. Linear growth keeps ms per MB
/// level; the last column is the 16× time over the 1× time (16 when linear).
pub fn scaling(paths: &[PathBuf], settings: IndexSettings) -> Result<i32> {
    let scratch = std::env::temp_dir().join(format!("docindex-scaling-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch)?;
    let outcome = scaling_in(&scratch, paths, settings);
    let _ = std::fs::remove_dir_all(&scratch);
    outcome
}

fn scaling_in(scratch: &Path, paths: &[PathBuf], settings: IndexSettings) -> Result<i32> {
    let library = Library::open(&scratch.join("library"), settings)?;
    docindex_core::tokens::TokenCounter::new()?;
    let mut sources: Vec<(String, String, String)> = Vec::new();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                println!("{name}: skipped, not a text, Markdown or HTML file ({e})");
                continue;
            }
        };
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .unwrap_or_else(|| "txt".into());
        sources.push((name, extension, text));
    }
    sources.push((
        "part-item-lines.txt".into(),
        "txt".into(),
        part_item_lines(2_000),
    ));
    println!(
        "{:<40} {:>5} {:>8} {:>9} {:>8} {:>10}",
        "file", "size", "MB", "ms", "ms/MB", "16x/1x"
    );
    for (name, extension, text) in &sources {
        let mut first_ms = None;
        for scale in SCALES {
            let scaled = repeated(text, extension, scale);
            let path = scratch.join(format!("{scale}x-{name}"));
            std::fs::write(&path, &scaled)?;
            let start = Instant::now();
            let built = library.build_document(&path);
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            std::fs::remove_file(&path)?;
            if let Err(e) = built {
                println!("{name} at {scale}x: {e}");
                break;
            }
            let mb = scaled.len() as f64 / 1e6;
            let first = *first_ms.get_or_insert(ms);
            let ratio = match scale {
                16 => format!("{:.1}", ms / first),
                _ => String::new(),
            };
            let short: String = name.chars().take(40).collect();
            println!(
                "{short:<40} {:>4}x {mb:>8.2} {ms:>9.0} {:>8.0} {ratio:>10}",
                scale,
                ms / mb.max(1e-9)
            );
        }
    }
    Ok(0)
}

/// `text` `times` times over: an HTML file's body repeated inside one document, any
/// other file end to end.
fn repeated(text: &str, extension: &str, times: usize) -> String {
    // ASCII case only: the offsets found in it are the text's own.
    let lower = text.to_ascii_lowercase();
    let body = match (extension, lower.find("<body"), lower.rfind("</body>")) {
        ("htm" | "html" | "xhtml", Some(open), Some(close)) => {
            lower[open..].find('>').map(|end| (open + end + 1, close))
        }
        _ => None,
    };
    match body {
        Some((start, end)) if start <= end => format!(
            "{}{}{}",
            &text[..start],
            text[start..end].repeat(times),
            &text[end..]
        ),
        _ => text.repeat(times),
    }
}

/// `count` Parts of sixteen Items each, every Item line naming another Item: the file whose
/// cross-references once took time in the square of its size.
fn part_item_lines(count: usize) -> String {
    use std::fmt::Write;
    const PARTS: [&str; 4] = ["I", "II", "III", "IV"];
    let mut text = String::new();
    for i in 0..count {
        let _ = writeln!(text, "PART {}", PARTS[i % 4]);
        for item in 1..=16 {
            let _ = writeln!(
                text,
                "Item {item}. Business and risk factors, see Item {}.",
                (item * 7) % 16 + 1
            );
        }
    }
    text
}

/// LLM economy: index each file once with the model (through its cache, if any) and print
/// the calls and tokens it took, against the file's pages.
fn economy(
    scratch: &Path,
    paths: &[PathBuf],
    settings: IndexSettings,
    config: &ModelConfig,
) -> Result<i32> {
    let mut library = Library::open(scratch, settings)?;
    library.set_model(config)?;
    println!(
        "{:<44} {:>6} {:>6} {:>6} {:>7} {:>10} {:>10} {:>10} {:>9} {:>8}",
        "file",
        "pages",
        "nodes",
        "calls",
        "cached",
        "prompt tok",
        "compl tok",
        "calls/page",
        "summaries",
        "seconds"
    );
    let (mut calls, mut pages_total, mut prompt) = (0u64, 0usize, 0u64);
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let start = Instant::now();
        let doc = match library.build_document(path) {
            Ok(doc) => doc,
            Err(e) => {
                println!("{name}: {e}");
                continue;
            }
        };
        let secs = start.elapsed().as_secs_f64();
        let Some(e) = doc.enhancement else { continue };
        // HTML has no pages: estimate printed pages at 3,500 characters each (marked *).
        let (pages, mark) = if doc.pages.is_empty() {
            ((doc.text.chars().count() / 3500).max(1), "*")
        } else {
            (doc.pages.len(), "")
        };
        let short: String = name.chars().take(44).collect();
        println!(
            "{:<44} {:>6} {:>6} {:>6} {:>7} {:>10} {:>10} {:>10.2} {:>9} {:>8.1}",
            short,
            format!("{pages}{mark}"),
            doc.nodes.len(),
            e.usage.calls,
            e.usage.cache_hits,
            e.usage.prompt_tokens,
            e.usage.completion_tokens,
            e.usage.calls as f64 / pages as f64,
            e.summaries_written,
            secs
        );
        calls += e.usage.calls;
        prompt += e.usage.prompt_tokens;
        pages_total += pages;
    }
    println!(
        "total: {calls} calls, {prompt} prompt tokens for {pages_total} pages ({:.2} calls/page)",
        calls as f64 / pages_total.max(1) as f64
    );
    Ok(0)
}

/// Reset the kernel's peak-RSS counter for this process (Linux `clear_refs` 5), so each
/// file's peak is its own; pdfium's C allocations are included, unlike a Rust allocator hook.
/// The embedding stage alone, per file and per local embedder: the file is indexed
/// without embeddings first, the embedder loaded (and the distilled table made, once)
/// outside the timing, then every chunk embedded as `docindex index` does.
pub fn embedding(paths: &[PathBuf], settings: IndexSettings) -> Result<i32> {
    use docindex_embed::EmbedderChoice;
    println!(
        "{:<10} {:<44} {:>7} {:>9} {:>9} {:>8} {:>9}",
        "embedder", "file", "chunks", "index ms", "embed ms", "chunks/s", "peak MB"
    );
    for choice in [EmbedderChoice::Distilled, EmbedderChoice::MiniLm] {
        for path in paths {
            let scratch =
                std::env::temp_dir().join(format!("docindex-bench-embed-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&scratch);
            let mut library = Library::open(&scratch, settings)?;
            library.set_embedder_choice(choice);
            library.embedder()?;
            reset_peak_rss();
            let started = Instant::now();
            library.index_paths(std::slice::from_ref(path), 1, &|_| {})?;
            let index_ms = started.elapsed().as_secs_f64() * 1000.0;
            let report = library.embed_pending(&|_, _, _| {})?;
            let peak_mb = peak_rss_mb().unwrap_or(f64::NAN);
            let embed_ms = report.millis as f64;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            println!(
                "{:<10} {:<44} {:>7} {:>9.0} {:>9.0} {:>8.0} {:>9.0}",
                format!("{choice:?}").to_lowercase(),
                name.chars().take(44).collect::<String>(),
                report.chunks,
                index_ms,
                embed_ms,
                report.chunks as f64 / (embed_ms / 1000.0).max(1e-9),
                peak_mb
            );
            drop(library);
            let _ = std::fs::remove_dir_all(&scratch);
        }
    }
    Ok(0)
}

/// Analyst queries, in analysts' words, for the search benchmark.
const QUERIES: [&str; 20] = [
    "capex",
    "quick ratio",
    "what drove the margin",
    "share repurchases",
    "cash and cash equivalents",
    "supply chain disruptions",
    "net income per diluted share",
    "debt maturities",
    "goodwill impairment",
    "revenue by geography",
    "dividends declared",
    "cybersecurity risk",
    "foreign currency exposure",
    "operating lease liabilities",
    "headcount employees",
    "effective tax rate",
    "research and development expense",
    "segment operating income",
    "inventory",
    "auditor",
];

/// Library-wide search in this process: the first pass loads the embedder and the dense
/// index (reported apart), then every query `repeat` times.
pub fn search(library: &Library, repeat: usize) -> Result<i32> {
    let documents = library.list()?.len();
    let started = Instant::now();
    library.search(&docindex_app::search::SearchRequest::new(QUERIES[0]))?;
    println!(
        "library of {documents} documents; first search (loads the embedder and the dense index): {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let mut millis = Vec::new();
    let mut legs = Vec::new();
    let cpu_before = cpu_seconds();
    for _ in 0..repeat.max(1) {
        for query in QUERIES {
            let started = Instant::now();
            let results = library.search(&docindex_app::search::SearchRequest::new(query))?;
            millis.push(started.elapsed().as_secs_f64() * 1000.0);
            legs = results.legs;
        }
    }
    // CPU time over every thread: steadier than wall time on a busy machine, and what
    // the searches leave of the cores for anything else.
    let cpu_per_search = cpu_seconds()
        .zip(cpu_before)
        .map(|(after, before)| (after - before) * 1000.0 / millis.len() as f64);
    millis.sort_by(f64::total_cmp);
    let at = |q: f64| millis[((millis.len() - 1) as f64 * q).round() as usize];
    println!(
        "{} searches, legs {legs:?}: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms; peak {:.0} MB",
        millis.len(),
        at(0.5),
        at(0.95),
        at(1.0),
        peak_rss_mb().unwrap_or(f64::NAN)
    );
    if let Some(cpu) = cpu_per_search {
        println!("CPU time per search, all threads: {cpu:.1} ms");
    }
    let depth = 100;
    let mut kept = 0;
    for query in QUERIES {
        match library.dense_shortlist_recall(query, depth)? {
            Some(found) => kept += found,
            None => return Ok(0),
        }
    }
    println!(
        "dense shortlist keeps {:.1}% of the exhaustive scan's top {depth} ({kept} of {})",
        100.0 * kept as f64 / (depth * QUERIES.len()) as f64,
        depth * QUERIES.len()
    );
    Ok(0)
}

/// Provenance over the whole library in this process: when the first hit streams (what a
/// user waits for), the whole scan, and the coverage it reports.
pub fn provenance(library: &Library, topic: &str) -> Result<i32> {
    let started = Instant::now();
    let first_hit = std::cell::Cell::new(None);
    let report = library.provenance(
        topic,
        &docindex_app::search::SearchRequest::new(topic),
        docindex_core::provenance::ScanOptions::default(),
        &|event| {
            if let docindex_app::provenance::ProvenanceEvent::Hit(_) = event {
                if first_hit.get().is_none() {
                    first_hit.set(Some(started.elapsed()));
                }
            }
        },
    )?;
    let coverage = &report.coverage;
    println!(
        "provenance of {topic:?} over {} documents: first hit after {}, all {} excerpt(s) in {:.1} s; \
         scanned {} of {} sections{}; peak {:.0} MB",
        coverage.documents,
        first_hit
            .get()
            .map(|t| format!("{:.0} ms", t.as_secs_f64() * 1000.0))
            .unwrap_or_else(|| "never (no hit)".to_string()),
        report.evidence.iter().map(|e| e.excerpts.len()).sum::<usize>(),
        started.elapsed().as_secs_f64(),
        coverage.sections_scanned,
        coverage.sections_total,
        if coverage.semantic { ", by words and meaning" } else { ", by words" },
        peak_rss_mb().unwrap_or(f64::NAN)
    );
    Ok(0)
}

/// The page view on PDFs, through a scratch library as the app reads them: the document laid
/// out again with its glyph boxes (once per document opened in page view), and each page
/// drawn at the widths a 1000-pixel pane asks for on 1× and 2× screens.
pub fn pages(paths: &[PathBuf], settings: IndexSettings) -> Result<i32> {
    let scratch = std::env::temp_dir().join(format!("docindex-bench-pages-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let outcome = pages_in(&scratch, paths, settings);
    let _ = std::fs::remove_dir_all(&scratch);
    outcome
}

fn pages_in(scratch: &Path, paths: &[PathBuf], settings: IndexSettings) -> Result<i32> {
    const WIDTHS: [u32; 2] = [1000, 2000];
    let mut library = Library::open(scratch, settings)?;
    let reports = library.index_paths(paths, 1, &|_| {})?;
    let ms = |started: Instant| started.elapsed().as_secs_f64() * 1000.0;
    let mut all: Vec<Vec<f64>> = vec![Vec::new(); WIDTHS.len()];
    for report in &reports {
        let document = match &report.result {
            Ok(docindex_app::IndexOutcome::Indexed { document, .. })
            | Ok(docindex_app::IndexOutcome::Unchanged { document }) => document.clone(),
            Err(e) => anyhow::bail!("{e}"),
        };
        if document.format != docindex_core::model::SourceFormat::Pdf {
            println!("{}: not a PDF, skipped", document.doc_name);
            continue;
        }
        let source = library.pdf_source(&document.doc_id)?;
        let text = library.document(&document.doc_id)?.text;
        let started = Instant::now();
        let boxes = source.char_boxes(&text)?;
        let layout_ms = ms(started);
        let mut line = format!(
            "{}: {} pages; glyph boxes of {} characters laid out in {layout_ms:.0} ms",
            document.doc_name,
            document.page_count,
            boxes.len()
        );
        for (w, width) in WIDTHS.iter().enumerate() {
            let mut times = Vec::new();
            let mut bytes = 0usize;
            let page_count = u32::try_from(document.page_count)?;
            for page in 1..=page_count {
                let started = Instant::now();
                let drawn = source.render(page, *width)?;
                times.push(ms(started));
                bytes += drawn.png.len();
            }
            let cache = docindex_app::pages::PageCache::new();
            cache.page(&source, 1, *width)?;
            let started = Instant::now();
            cache.page(&source, 1, *width)?;
            let cached = ms(started);
            line.push_str(&format!(
                "; {width} px: p50 {:.0} ms, p95 {:.0} ms, max {:.0} ms a page, {:.0} KB PNG, cached {cached:.2} ms",
                percentile(&mut times, 0.5),
                percentile(&mut times, 0.95),
                percentile(&mut times, 1.0),
                bytes as f64 / 1024.0 / document.page_count.max(1) as f64,
            ));
            all[w].extend(times);
        }
        println!("{line}");
    }
    for (w, width) in WIDTHS.iter().enumerate() {
        if !all[w].is_empty() {
            println!(
                "all pages at {width} px: {} pages, p50 {:.0} ms, p95 {:.0} ms; peak {:.0} MB",
                all[w].len(),
                percentile(&mut all[w], 0.5),
                percentile(&mut all[w], 0.95),
                peak_rss_mb().unwrap_or(f64::NAN)
            );
        }
    }
    Ok(0)
}

fn percentile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    values
        .get(((values.len().saturating_sub(1)) as f64 * q).round() as usize)
        .copied()
        .unwrap_or(f64::NAN)
}

/// User and system CPU time of every thread of this process so far, in seconds
/// (`/proc/self/stat`, in the kernel's 100 Hz ticks).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces: the fields are counted after its closing ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    // utime and stime are fields 14 and 15, the 12th and 13th after the name.
    Some((ticks(11)? + ticks(12)?) / 100.0)
}

fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Peak resident memory since the last reset, in MB (`VmHWM`).
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scaled_file_repeats_its_body_inside_one_document() {
        let html = "<html><head><title>T</title></head><BODY class=x><p>Item 1.</p></BODY></html>";
        assert_eq!(
            repeated(html, "html", 3),
            "<html><head><title>T</title></head><BODY class=x><p>Item 1.</p><p>Item 1.</p><p>Item 1.</p></BODY></html>"
        );
        assert_eq!(repeated("a\n", "txt", 2), "a\na\n");
        // Sixteen Items per Part, each naming another.
        let lines = part_item_lines(2);
        assert_eq!(lines.lines().count(), 34);
        assert!(lines.contains("PART II\nItem 1. Business and risk factors, see Item 8."));
    }
}
