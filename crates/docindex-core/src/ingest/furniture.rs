//! Page furniture: page numbers, running headers/footers and "Table of Contents" back-links
//! repeated on every printed page. They are left out of the canonical text so sections read
//! as continuous prose and search does not match them a hundred times.

use super::{BlockKind, RawBlock};
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

static PAGE_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:page\s+)?[-–—]?\s*(?:[A-Z]{1,2}\s?-\s?)?\d{1,4}\s*[-–—]?(?:\s+of\s+\d{1,4})?$|^[ivxlc]{1,6}$")
        .unwrap_or_else(|_| unreachable!())
});

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

/// Indices of raw blocks that are page furniture.
pub(crate) fn mark(raw: &mut [RawBlock]) -> HashSet<usize> {
    let mut removed = HashSet::new();
    let near_break = page_break_neighbourhood(raw);
    let mut repeated: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, block) in raw.iter().enumerate() {
        let text = block.text.trim();
        if text.is_empty() {
            continue;
        }
        let is_row = block.kind == Some(BlockKind::TableRow);
        if !is_row && text.len() <= 16 && PAGE_NUMBER.is_match(text) {
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
        if text.chars().count() <= 120 {
            repeated.entry(normalize(&lower)).or_default().push(i);
        }
    }
    for (norm, places) in repeated {
        if places.len() < 3 {
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

pub(crate) fn normalize(lower: &str) -> String {
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
