//! How results look in a terminal: page ranges and search hits.

use anyhow::Result;
use docindex_app::search::SearchResults;
use std::io::Write;

/// ` p.3` or ` pp.3-5` for a page range, empty without pages.
pub fn page_range(pages: (Option<u32>, Option<u32>)) -> String {
    match pages {
        (Some(a), Some(b)) if a == b => format!(" p.{a}"),
        (Some(a), Some(b)) => format!(" pp.{a}-{b}"),
        _ => String::new(),
    }
}

pub fn print_search(out: &mut impl Write, results: &SearchResults) -> Result<()> {
    for note in &results.notes {
        writeln!(out, "note: {note}")?;
    }
    if results.hits.is_empty() {
        writeln!(out, "No section matches '{}'.", results.query)?;
    }
    for (i, hit) in results.hits.iter().enumerate() {
        let pages = page_range((hit.start_page, hit.end_page));
        writeln!(
            out,
            "{:>2}. {:.2}  {} {}  {}{}  [{}..{}]",
            i + 1,
            hit.score,
            hit.doc_name,
            hit.node_id,
            hit.path,
            pages,
            hit.start_char,
            hit.end_char
        )?;
        writeln!(out, "      {}", hit.reason)?;
        for e in &hit.excerpts {
            let text: String = e.text.chars().take(220).collect();
            writeln!(out, "      [{}..{}] {text}", e.start_char, e.end_char)?;
        }
    }
    Ok(())
}
