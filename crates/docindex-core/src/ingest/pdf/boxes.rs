//! Where each character of a PDF's canonical text is printed: the boxes the page view draws
//! for a span, and the character under a point of a page. Built from the same layout that made
//! the text (a glyph-tracking [`super::PdfAssembler`]), so both views mark the same characters.

use super::Rect;
use crate::charmap::CharMap;
use crate::ingest::Canonical;
use serde::Serialize;

/// One glyph placed in the canonical text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedGlyph {
    /// Byte offset of its character in the canonical text.
    pub offset: usize,
    /// 1-based page.
    pub page: u32,
    /// Its box in PDF points (origin at the page's bottom left), as pdfium reports it.
    pub rect: Rect,
}

/// The boxes of a span on one page: one rectangle per run of characters that sit side by
/// side on a line, so a highlight reads like a marker stroke, not a row of letters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageBoxes {
    pub page: u32,
    pub rects: Vec<Rect>,
    /// How many characters of the span these boxes cover.
    pub chars: usize,
}

/// Every printed character of a document with its page and box, by character offset.
#[derive(Debug, Clone, Default)]
pub struct CharBoxes {
    /// (char offset, page, box), sorted by offset.
    boxes: Vec<(usize, u32, Rect)>,
}

impl CharBoxes {
    /// The boxes of a canonical text read by a glyph-tracking assembler.
    pub fn of(canonical: &Canonical) -> Self {
        let map = CharMap::new(&canonical.text);
        let mut boxes: Vec<(usize, u32, Rect)> = canonical
            .glyphs
            .iter()
            .map(|g| (map.char_at(g.offset), g.page, g.rect))
            .collect();
        boxes.sort_by_key(|b| b.0);
        CharBoxes { boxes }
    }

    /// How many characters have a box.
    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }

    /// The boxes of the characters in `start..end` (char offsets), page by page in text
    /// order. Characters the layout added (spaces, cell separators, line breaks) have none.
    pub fn span(&self, start: usize, end: usize) -> Vec<PageBoxes> {
        let from = self.boxes.partition_point(|b| b.0 < start);
        let to = self.boxes.partition_point(|b| b.0 < end);
        let mut out: Vec<PageBoxes> = Vec::new();
        for &(_, page, rect) in &self.boxes[from..to.max(from)] {
            let same_page = out.last().is_some_and(|p| p.page == page);
            if !same_page {
                out.push(PageBoxes {
                    page,
                    rects: Vec::new(),
                    chars: 0,
                });
            }
            let Some(current) = out.last_mut() else {
                continue;
            };
            current.chars += 1;
            match current.rects.last_mut() {
                Some(run) if continues_run(run, &rect) => *run = run.union(&rect),
                _ => current.rects.push(rect),
            }
        }
        out
    }

    /// The character printed at `(x, y)` on `page` (PDF points), or the nearest one on the
    /// same line within a few points: what a click on the page view points at.
    pub fn char_at(&self, page: u32, x: f32, y: f32) -> Option<usize> {
        const REACH: f32 = 4.0;
        self.boxes
            .iter()
            .filter(|b| b.1 == page)
            .filter(|b| y >= b.2.bottom - REACH && y <= b.2.top + REACH)
            .map(|b| (b.0, distance(&b.2, x, y)))
            .filter(|&(_, d)| d <= REACH)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(offset, _)| offset)
    }

    /// The first character printed on `page`, if any.
    pub fn first_on_page(&self, page: u32) -> Option<usize> {
        self.boxes.iter().find(|b| b.1 == page).map(|b| b.0)
    }
}

/// Whether `next` carries on the run `run` ends: the same line (mostly overlapping
/// vertically), to the right and no further than a word space or two.
fn continues_run(run: &Rect, next: &Rect) -> bool {
    let height = run.height().min(next.height()).max(0.1);
    let gap = next.left - run.right;
    run.vertical_overlap(next) >= 0.5 * height && gap > -0.5 * height && gap <= 1.2 * height
}

fn distance(rect: &Rect, x: f32, y: f32) -> f32 {
    let dx = (rect.left - x).max(x - rect.right).max(0.0);
    let dy = (rect.bottom - y).max(y - rect.top).max(0.0);
    dx.hypot(dy)
}
