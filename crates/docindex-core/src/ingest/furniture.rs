//! Page furniture, one concept for every format: page labels ("12", "F-3", "Page 4 of 90",
//! "iv"), running headers and footers (the same words, digits aside, at a page's edge on
//! several pages) and "Table of Contents" back-links. They are left out of the canonical
//! text so sections read as continuous prose and search does not match them a hundred
//! times. This module owns what furniture *is*; where a page's edge lies is the format's
//! business: blocks next to a page break in HTML ([`mark`]), the top and bottom lines of a
//! laid-out page in PDF (`pdf::furniture`).

use super::{BlockKind, RawBlock};
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// A page label; group 1 is the label itself ("F-3", "12", "iv").
pub(crate) static PAGE_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:page\s+)?[-–—]?\s*((?:[A-Z]{1,2}\s?-\s?)?\d{1,4}|[ivxlc]{1,7})\s*[-–—]?(?:\s*(?:of|/)\s*\d{1,4})?$")
        .unwrap_or_else(|_| unreachable!())
});

/// Whether a line or block, alone, is a page label. Table rows never are: a row of one
/// number is data.
pub(crate) fn is_page_label(text: &str, is_table_row: bool) -> bool {
    let text = text.trim();
    !is_table_row && text.len() <= 16 && PAGE_LABEL.is_match(text)
}

/// How many pages a running header or footer must repeat on, at least.
pub(crate) const MIN_REPEATS: usize = 3;

/// Longest text that can be a running header or footer.
pub(crate) const MAX_RUNNING_CHARS: usize = 160;

/// A line's identity across pages: case, spacing, cell bars and the digits of page numbers
/// do not count, so "Apple Inc. | 2023 Form 10-K | 17" repeats on every page.
pub(crate) fn repetition_key(text: &str) -> String {
    let lower = text.to_lowercase().replace('|', "");
    let mut out = String::with_capacity(lower.len());
    let mut last_digit = false;
    for c in lower.chars() {
        if c.is_ascii_digit() {
            if !last_digit {
                out.push('#');
            }
            last_digit = true;
        } else {
            last_digit = false;
            if !c.is_whitespace() {
                out.push(c);
            }
        }
    }
    out
}

const BACK_LINK_TEXTS: [&str; 8] = [
    "table of contents",
    "index",
    "return to table of contents",
    "back to table of contents",
    "back to contents",
    "back to top",
    "toc",
    "index to financial statements",
];

/// Indices of raw (HTML) blocks that are page furniture: labels and back-links anywhere,
/// repeated short blocks when most of their places are next to a page break.
pub(crate) fn mark(raw: &mut [RawBlock]) -> HashSet<usize> {
    let mut removed = HashSet::new();
    let near_break = page_break_neighbourhood(raw);
    let mut repeated: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, block) in raw.iter().enumerate() {
        let text = block.text.trim();
        if text.is_empty() {
            continue;
        }
        if is_page_label(text, block.kind == Some(BlockKind::TableRow)) {
            removed.insert(i);
            continue;
        }
        let lower = text.to_lowercase();
        if BACK_LINK_TEXTS.contains(&lower.as_str())
            && block.links.iter().any(|(href, _)| href.starts_with('#'))
        {
            removed.insert(i);
            continue;
        }
        if text.chars().count() <= MAX_RUNNING_CHARS {
            repeated.entry(repetition_key(text)).or_default().push(i);
        }
    }
    for (norm, places) in repeated {
        if places.len() < MIN_REPEATS {
            continue;
        }
        let near = places.iter().filter(|&&i| near_break[i]).count();
        let any_row = places
            .iter()
            .any(|&i| raw[i].kind == Some(BlockKind::TableRow));
        let looks_like_footer =
            norm.contains('#') || norm.contains("form 10-") || norm.contains("annual report");
        let enough = if any_row {
            looks_like_footer && near * 10 >= places.len() * 8
        } else {
            near * 10 >= places.len() * 7
        };
        if enough {
            removed.extend(places.into_iter().filter(|&i| near_break[i]));
        }
    }
    removed
}

/// Whether each block sits within two non-empty blocks of a page boundary.
fn page_break_neighbourhood(raw: &[RawBlock]) -> Vec<bool> {
    let visible: Vec<usize> = (0..raw.len())
        .filter(|&i| !raw[i].text.trim().is_empty())
        .collect();
    let mut near = vec![false; raw.len()];
    let mut any_break = false;
    for (pos, &i) in visible.iter().enumerate() {
        let breaks_here = raw[i].page_break_before || pos == 0;
        any_break |= raw[i].page_break_before;
        if breaks_here {
            for &j in &visible[pos.saturating_sub(2)..(pos + 2).min(visible.len())] {
                near[j] = true;
            }
        }
    }
    if let Some(&last) = visible.last() {
        near[last] = true;
    }
    if !any_break {
        near.iter_mut().for_each(|n| *n = false);
    }
    near
}
