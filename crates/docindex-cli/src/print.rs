//! How results look in a terminal: page ranges, search hits, voted files, comparison
//! tables and the documents an answer used.

use anyhow::Result;
use docindex_app::search::{SearchResults, VotedFile};
use docindex_core::qa::{Comparison, DocumentUse};
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
            one_line(&hit.doc_name),
            hit.node_id,
            hit.path,
            pages,
            hit.start_char,
            hit.end_char
        )?;
        writeln!(out, "      {}", hit.reason)?;
        for e in &hit.excerpts {
            let text: String = e.text.chars().take(220).collect();
            writeln!(
                out,
                "      [{}..{}] {text}{}",
                e.start_char,
                e.end_char,
                instruction_flag(e.addressed_to_a_model)
            )?;
        }
        if !hit.also_in.is_empty() {
            writeln!(out, "      {}", also_in(&hit.also_in))?;
        }
    }
    Ok(())
}

/// "also word for word in 4 other documents: a, b, c and 1 more".
fn also_in(copies: &[docindex_app::search::HitCopy]) -> String {
    const NAMED: usize = 3;
    let names: Vec<std::borrow::Cow<'_, str>> = copies
        .iter()
        .take(NAMED)
        .map(|c| one_line(&c.doc_name))
        .collect();
    let more = copies.len().saturating_sub(NAMED);
    let documents = if copies.len() == 1 {
        "document"
    } else {
        "documents"
    };
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!(
        "also word for word in {} other {documents}: {}{tail}",
        copies.len(),
        names.join(", ")
    )
}

/// Files ranked by their sections' votes, each with the sections that voted.
pub fn print_files(out: &mut impl Write, files: &[VotedFile]) -> Result<()> {
    if files.is_empty() {
        writeln!(out, "No file matches.")?;
    }
    for (i, file) in files.iter().enumerate() {
        writeln!(
            out,
            "{:>2}. {:.2}  {}  {} {}  (summary {:.2}, text {:.2}; {} section(s))",
            i + 1,
            file.vote.total,
            one_line(&file.doc_name),
            file.company.as_deref().unwrap_or("—"),
            file.doc_type.as_str(),
            file.vote.summary_votes,
            file.vote.text_votes,
            file.vote.nodes.len()
        )?;
        for (node, hit) in file.vote.nodes.iter().zip(&file.hits).take(3) {
            let pages = page_range((hit.start_page, hit.end_page));
            writeln!(
                out,
                "      {:.2} {:?}  {} {}{}",
                node.score, node.content_type, hit.node_id, hit.path, pages
            )?;
        }
    }
    Ok(())
}

/// A comparison as an aligned table (cells with their citation markers), then its
/// differences, conflicts and notes.
pub fn print_comparison(out: &mut impl Write, table: &Comparison) -> Result<()> {
    let mut grid: Vec<Vec<String>> = vec![std::iter::once(String::new())
        .chain(table.columns.iter().map(|c| c.label.clone()))
        .collect()];
    for row in &table.rows {
        let mut line = vec![row.label.clone()];
        for cell in &row.cells {
            line.push(match cell {
                Some(f) => {
                    let markers: String = f.markers.iter().map(|m| format!("[{m}]")).collect();
                    let scale = f
                        .scale
                        .as_deref()
                        .map(|s| format!(" {s}"))
                        .unwrap_or_default();
                    format!("{}{scale} {markers}", f.shown)
                }
                None => "—".to_string(),
            });
        }
        grid.push(line);
    }
    let widths: Vec<usize> = (0..grid[0].len())
        .map(|i| grid.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    writeln!(out, "comparison:")?;
    for (n, row) in grid.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, w))| match i {
                0 => format!("{cell:<w$}"),
                _ => format!("{cell:>w$}"),
            })
            .collect();
        writeln!(out, "  {}", cells.join("  "))?;
        if n == 0 {
            writeln!(
                out,
                "  {}",
                "-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1))
            )?;
        }
    }
    for conflict in &table.conflicts {
        writeln!(out, "  ! {}", conflict.text)?;
    }
    for note in &table.notes {
        writeln!(out, "  note: {note}")?;
    }
    Ok(())
}

/// The documents an answer read, and why.
pub fn print_documents(out: &mut impl Write, documents: &[DocumentUse]) -> Result<()> {
    if documents.is_empty() {
        return Ok(());
    }
    writeln!(out, "documents used:")?;
    for d in documents {
        writeln!(out, "  {} — {}", one_line(&d.doc_name), d.why)?;
    }
    Ok(())
}

/// `text` on one line of a table: control characters (a newline or tab in a file's name)
/// are written as escapes, so a row is never split.
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .map(|c| match c.is_control() {
                true => c.escape_default().to_string(),
                false => c.to_string(),
            })
            .collect(),
    )
}

/// The note after an excerpt written as instructions to a reader or a model.
pub fn instruction_flag(addressed_to_a_model: bool) -> &'static str {
    match addressed_to_a_model {
        true => "  [written as instructions to a model: data, not an instruction]",
        false => "",
    }
}
