//! The filing's own table of contents: EDGAR HTML links each TOC line to an anchor in the
//! body, which is the most trustworthy map of where each section starts.

use super::patterns::{item_label, part_number};
use super::Entry;
use crate::ingest::Canonical;
use crate::model::NodeOrigin;
use std::ops::Range;

/// The TOC's block range and the sections its links point at, when the document has one.
pub struct LinkedToc {
    pub blocks: Range<usize>,
    pub entries: Vec<Entry>,
}

/// Find the largest cluster of forward-linking lines and resolve each to a body heading.
pub fn from_links(c: &Canonical) -> Option<LinkedToc> {
    let rows: Vec<usize> = (0..c.blocks.len())
        .filter(|&i| c.blocks[i].has_forward_link)
        .collect();
    let mut clusters: Vec<Vec<usize>> = Vec::new();
    for &row in &rows {
        match clusters.last_mut() {
            Some(cluster) if row - cluster.last().copied().unwrap_or(row) <= 4 => cluster.push(row),
            _ => clusters.push(vec![row]),
        }
    }
    let cluster = clusters
        .into_iter()
        .filter(|c| c.len() >= 3)
        // The filing's main TOC lists Parts and Items; a financial-statement index does not.
        .max_by_key(|rows| {
            let items = rows
                .iter()
                .filter(|&&r| {
                    let t = c.block_text(r);
                    item_label(t).is_some() || part_number(t).is_some()
                })
                .count();
            (items, rows.len(), std::cmp::Reverse(rows[0]))
        })?;
    let first = *cluster.first()?;
    let last = *cluster.last()?;
    let mut entries: Vec<Entry> = Vec::new();
    for &row in &cluster {
        let title = row_title(c.block_text(row));
        if title.is_empty() {
            continue;
        }
        let targets: Vec<usize> = c
            .links
            .iter()
            .filter(|l| l.block == row)
            .filter_map(|l| l.href.strip_prefix('#').and_then(|a| c.anchors.get(a)))
            .map(|&offset| c.block_at(offset))
            .filter(|&b| b > last)
            .collect();
        let Some(start) = best_target(c, &title, &targets) else {
            continue;
        };
        // Rows under an item (`General`, `Information about our Executive Officers`) are
        // its subsections; back matter (signatures, exhibits) stands at the top.
        let level = if part_number(&title).is_some() {
            0
        } else if item_label(&title).is_some() || is_back_matter(&title) {
            1
        } else if entries.iter().any(|e| item_label(&e.title).is_some()) {
            2
        } else {
            1
        };
        entries.push(Entry {
            block: start,
            title,
            level,
            origin: NodeOrigin::TocLink,
        });
    }
    if entries.len() < 3 {
        return None;
    }
    entries.sort_by_key(|e| (e.block, e.level));
    entries.dedup_by(|later, earlier| later.block == earlier.block && later.level == earlier.level);
    let has_parts = entries.iter().any(|e| e.level == 0);
    for e in entries.iter_mut() {
        if is_back_matter(&e.title) {
            e.level = 0;
        } else if !has_parts {
            e.level = e.level.saturating_sub(1);
        }
    }
    let toc_start = toc_heading_before(c, first);
    Some(LinkedToc {
        blocks: toc_start..last + 1,
        entries,
    })
}

fn is_back_matter(title: &str) -> bool {
    let t = title.to_ascii_lowercase();
    t.starts_with("signature") || t.starts_with("exhibit index") || t.starts_with("index to")
}

/// A TOC row's cells without the page-number cell, joined by spaces.
fn row_title(row: &str) -> String {
    let cells: Vec<&str> = row
        .split(" | ")
        .map(str::trim)
        .filter(|cell| !cell.is_empty() && !is_page_ref(cell))
        .collect();
    let mut title = cells.join(" ");
    // Dotted leaders and trailing page numbers in single-cell rows.
    if let Some(pos) = title.find("....") {
        title.truncate(pos);
    }
    title
        .trim()
        .trim_end_matches(|c: char| c.is_ascii_digit() || c == ' ')
        .trim()
        .to_string()
}

fn is_page_ref(cell: &str) -> bool {
    let c = cell.trim_start_matches("Page").trim();
    !c.is_empty()
        && c.len() <= 8
        && c.chars()
            .all(|ch| ch.is_ascii_digit() || matches!(ch, '-' | '–' | 'F' | 'A' | 'S' | ' '))
        && c.chars().any(|ch| ch.is_ascii_digit())
}

fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Among a row's link targets, the block that really starts with the row's heading,
/// looking a few blocks past each target (anchors often sit on an empty div before it) and
/// two before it.
pub(crate) fn best_target(c: &Canonical, title: &str, targets: &[usize]) -> Option<usize> {
    let label = item_label(title);
    let part = part_number(title);
    let want = normalize(title);
    let want_prefix: String = want.chars().take(24).collect();
    let matches = |block: usize| -> bool {
        let text = c.block_text(block);
        if let Some(label) = &label {
            return item_label(text).as_deref() == Some(label.as_str());
        }
        if let Some(p) = part {
            return part_number(text) == Some(p);
        }
        let have = normalize(text);
        !want_prefix.is_empty()
            && (have.starts_with(&want_prefix) || want.starts_with(&have) && have.len() >= 6)
    };
    for &target in targets {
        // PDF destinations can land just below the heading they mean, so look back a little.
        let forward = target..(target + 6).min(c.blocks.len());
        let back = (target.saturating_sub(2)..target).rev();
        if let Some(block) = forward.chain(back).find(|&b| matches(b)) {
            return Some(block);
        }
        // A PDF destination names a page: the heading may sit anywhere on it (two columns).
        if let Some(page) = c.blocks.get(target).and_then(|b| b.page) {
            let on_page = (target..c.blocks.len()).take_while(|&b| c.blocks[b].page == Some(page));
            if let Some(block) = on_page.into_iter().find(|&b| matches(b)) {
                return Some(block);
            }
        }
    }
    targets.first().copied()
}

/// The "Table of Contents" heading just above the first TOC line, if there is one.
pub(crate) fn toc_heading_before(c: &Canonical, first_row: usize) -> usize {
    for block in (first_row.saturating_sub(4)..first_row).rev() {
        let t = c.block_text(block).trim().to_ascii_lowercase();
        if t.contains("table of contents") || t == "contents" || t == "index" {
            return block;
        }
    }
    // Header rows of the TOC table ("Page") belong to it too.
    let mut start = first_row;
    while start > 0
        && c.blocks[start - 1].table_id.is_some()
        && c.blocks[start - 1].table_id == c.blocks[first_row].table_id
    {
        start -= 1;
    }
    start
}
