//! Where furniture sits on a laid-out PDF page: the lines at its top and bottom edges that
//! are page labels or repeat across pages (what furniture is: `ingest::furniture`).

use super::*;
use crate::ingest::furniture::{is_page_label, repetition_key, MAX_RUNNING_CHARS, MIN_REPEATS};

/// The lines nearest the top and bottom of a page (by position, not reading order): up to
/// `n` from each end.
pub(super) fn edge_lines(page: &LaidPage, n: usize) -> Vec<usize> {
    let mut by_height: Vec<usize> = (0..page.lines.len()).collect();
    by_height.sort_by(|&a, &b| page.lines[b].baseline.total_cmp(&page.lines[a].baseline));
    let mut edge: Vec<usize> = by_height.iter().take(n).copied().collect();
    edge.extend(by_height.iter().rev().take(n));
    edge.sort_unstable();
    edge.dedup();
    edge
}

/// Lines at the top or bottom of a page that are page numbers, or that repeat (digits
/// aside) on many pages, are running headers and footers. Pages often end mid-sheet, so
/// "bottom" means the lowest lines, not a fixed band.
pub(super) fn mark_furniture(pages: &mut [LaidPage]) {
    const EDGE_LINES: usize = 3;
    // Running headers sit at the same height on every page they repeat on.
    let key_of = |line: &Line| {
        (
            repetition_key(&line.text),
            (line.baseline / 6.0).round() as i32,
        )
    };
    let mut counts: HashMap<(String, i32), usize> = HashMap::new();
    let edges: Vec<Vec<usize>> = pages.iter().map(|p| edge_lines(p, EDGE_LINES)).collect();
    for (page, edge) in pages.iter().zip(&edges) {
        let mut seen = std::collections::HashSet::new();
        for &i in edge {
            if page.lines[i].text.chars().count() <= MAX_RUNNING_CHARS {
                let key = key_of(&page.lines[i]);
                if seen.insert(key.clone()) {
                    *counts.entry(key).or_default() += 1;
                }
            }
        }
    }
    let needed = MIN_REPEATS.max(pages.len() / 7);
    for (page, edge) in pages.iter_mut().zip(&edges) {
        let mut furniture = Vec::new();
        // A running header removed once per page: the same words again are the body's own.
        let mut taken = std::collections::HashSet::new();
        let extreme: Vec<usize> = edge_lines(page, 2);
        for &i in edge {
            let line = &page.lines[i];
            let text = line.text.trim();
            let key = repetition_key(text);
            let repeated = counts.get(&key_of(line)).is_some_and(|&n| n >= needed);
            let page_number = is_page_label(text, line.is_row) && extreme.contains(&i);
            if (repeated || page_number) && taken.insert(key) {
                furniture.push(i);
            }
        }
        page.furniture = furniture;
    }
}
