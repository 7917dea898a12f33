//! Heading-styled blocks (bold, larger, capitals, underlined, markup headings) and the
//! split of a long section at its highest-ranked heading style.

use super::Entry;
use crate::ingest::{BlockKind, Canonical};
use crate::model::NodeOrigin;
use std::ops::Range;

/// How a heading looks; blocks that look alike are headings of the same level.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Look {
    markup_level: Option<u8>,
    size_half_points: i32,
    bold: bool,
    italic: bool,
    underline: bool,
    caps: bool,
}

impl Look {
    fn rank(&self, body_half_points: i32) -> i32 {
        if let Some(level) = self.markup_level {
            return 1000 - i32::from(level) * 100;
        }
        (self.size_half_points - body_half_points).max(0) * 20
            + i32::from(self.bold) * 8
            + i32::from(self.caps) * 6
            + i32::from(self.underline) * 4
            // Italic marks a lower level than the same weight set upright.
            + match (self.italic, self.bold) {
                (true, false) => 2,
                (true, true) => -1,
                _ => 0,
            }
    }
}

fn look(c: &Canonical, block: usize) -> Option<Look> {
    let b = &c.blocks[block];
    if b.kind == BlockKind::TableRow {
        return None;
    }
    let text = c.block_text(block);
    let chars = text.chars().count();
    if !(2..=220).contains(&chars) || text.ends_with(',') || text.ends_with(';') {
        return None;
    }
    let first = text.chars().next()?;
    if !(first.is_alphabetic()
        || first.is_ascii_digit()
        || first == '('
        || first == '“'
        || first == '"')
    {
        return None;
    }
    let letters: Vec<char> = text.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() < 2 {
        return None;
    }
    let caps = letters.len() >= 4 && letters.iter().all(|c| !c.is_lowercase()) && chars <= 120;
    let markup_level = match b.kind {
        BlockKind::Heading(l) => Some(l),
        _ => None,
    };
    let style = b.style;
    let styled = markup_level.is_some()
        || style.bold
        || style.underline
        || (style.italic && chars <= 120)
        || caps;
    if !styled {
        return None;
    }
    // Long bold sentences are emphasis, not headings, unless set apart like risk factors.
    if chars > 160 && markup_level.is_none() && !(style.bold || style.italic) {
        return None;
    }
    Some(Look {
        markup_level,
        size_half_points: style
            .font_size
            .map(|s| (s * 2.0).round() as i32)
            .unwrap_or(0),
        bold: style.bold,
        italic: style.italic,
        underline: style.underline,
        caps,
    })
}

fn body_size(c: &Canonical, range: &Range<usize>) -> i32 {
    let mut sizes: Vec<(i32, usize)> = Vec::new();
    for b in &c.blocks[range.clone()] {
        let s = b
            .style
            .font_size
            .map(|s| (s * 2.0).round() as i32)
            .unwrap_or(0);
        let weight = b.span.len();
        match sizes.iter_mut().find(|(x, _)| *x == s) {
            Some((_, n)) => *n += weight,
            None => sizes.push((s, weight)),
        }
    }
    sizes
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .map(|(s, _)| s)
        .unwrap_or(0)
}

/// Split `range` (whose first block is the section's own title) at the highest-ranked
/// heading look that occurs at least twice and actually divides the text. Returns entries
/// of one level, or nothing when no look divides the section usefully.
pub fn split_entries(c: &Canonical, range: Range<usize>, tokens: &[usize]) -> Vec<Entry> {
    if range.len() < 3 {
        return Vec::new();
    }
    let body = body_size(c, &range);
    let inner = range.start + 1..range.end;
    let mut looks: Vec<(Look, Vec<usize>)> = Vec::new();
    for block in inner.clone() {
        if let Some(l) = look(c, block) {
            // A heading is followed by text, not by another heading of the same look.
            match looks.iter_mut().find(|(x, _)| *x == l) {
                Some((_, blocks)) => blocks.push(block),
                None => looks.push((l, vec![block])),
            }
        }
    }
    looks.sort_by_key(|(l, blocks)| (std::cmp::Reverse(l.rank(body)), blocks[0]));
    let total: usize = tokens[range.clone()].iter().sum();
    for (_, blocks) in looks {
        // Runs of same-look blocks are one multi-line heading: keep the first of each run.
        let starts: Vec<usize> = blocks
            .iter()
            .enumerate()
            .filter(|(i, &b)| *i == 0 || blocks[i - 1] + 1 != b)
            .map(|(_, &b)| b)
            .collect();
        if starts.len() < 2 {
            continue;
        }
        let mut bounds = starts.clone();
        bounds.push(range.end);
        let largest = bounds
            .windows(2)
            .map(|w| tokens[w[0]..w[1]].iter().sum::<usize>())
            .max()
            .unwrap_or(total);
        if largest * 100 >= total * 92 {
            continue;
        }
        return starts
            .into_iter()
            .map(|b| Entry {
                block: b,
                title: heading_title(c, b),
                level: 0,
                origin: NodeOrigin::Heading,
            })
            .collect();
    }
    Vec::new()
}

/// The title shown for a heading block: its text, shortened at a sentence end if long.
pub fn heading_title(c: &Canonical, block: usize) -> String {
    let text = c.block_text(block).trim();
    if text.chars().count() <= 160 {
        return text.to_string();
    }
    let cut: String = text.chars().take(157).collect();
    format!("{}…", cut.trim_end())
}
