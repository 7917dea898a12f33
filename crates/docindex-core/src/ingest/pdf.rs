//! PDF pages to canonical text: glyphs become lines, lines become paragraphs and table rows
//! in reading order (two-column regions read column by column), running headers, footers and
//! page numbers are set aside per page, and every block remembers its page.
//!
//! The core never opens a PDF itself: a [`PdfReader`] (pdfium, in `docindex-pdf`) hands it
//! one [`PdfPage`] at a time, so memory holds laid-out lines, never a whole document of glyphs.

use super::{assemble, BlockKind, BlockStyle, Canonical, RawBlock};
use crate::error::{IngestError, Result};
use regex::Regex;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

/// Anchor names the PDF layout gives to link and outline destinations.
pub const ANCHOR_PREFIX: &str = "pdf-dest-";

pub use crate::model::Rect;

/// One character as pdfium reports it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glyph {
    pub ch: char,
    /// The character's box by font metrics (advance width, ascent and descent), so narrow
    /// glyphs like `1` do not look spaced out.
    pub rect: Rect,
    /// Baseline (the y of the character origin).
    pub baseline: f32,
    pub font_size: f32,
    pub bold: bool,
    /// The text stream had whitespace (or pdfium inferred a break) right before this glyph.
    pub space_before: bool,
}

/// Where a link annotation leads.
#[derive(Debug, Clone, PartialEq)]
pub enum PdfLinkTarget {
    /// A page of this document (1-based), with the destination's top when it has one.
    Page { page: u32, top: Option<f32> },
    /// A URI: another filing, an exhibit, a web page.
    Uri(String),
}

/// A link annotation: the clickable area and its target.
#[derive(Debug, Clone, PartialEq)]
pub struct PdfLinkArea {
    pub rect: Rect,
    pub target: PdfLinkTarget,
}

/// One page as the reader extracted it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PdfPage {
    /// 1-based page number.
    pub number: u32,
    pub width: f32,
    pub height: f32,
    /// Characters in the order pdfium reports them; whitespace may be included.
    pub glyphs: Vec<Glyph>,
    pub links: Vec<PdfLinkArea>,
    /// Bounding boxes of image objects.
    pub images: Vec<Rect>,
}

/// A bookmark of the document outline.
#[derive(Debug, Clone, PartialEq)]
pub struct PdfOutlineEntry {
    pub title: String,
    /// Depth in the outline: 0 for top-level bookmarks.
    pub level: u32,
    /// 1-based target page, when the bookmark has a destination.
    pub page: Option<u32>,
    pub top: Option<f32>,
}

/// What the reader knows about the document as a whole.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PdfInfo {
    pub page_count: u32,
    pub title: Option<String>,
    pub outline: Vec<PdfOutlineEntry>,
    /// Outline entries dropped because their destination was missing or out of range.
    pub broken_outline_entries: usize,
}

/// Limits on what a reader will take, so a hostile file cannot exhaust memory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PdfLimits {
    pub max_pages: u32,
}

impl Default for PdfLimits {
    fn default() -> Self {
        PdfLimits { max_pages: 5000 }
    }
}

/// Reads a PDF page by page. Implemented with pdfium in `docindex-pdf`; tests can script it.
pub trait PdfReader: Send + Sync {
    /// Hand every page to `on_page` in order (with the page count), then return
    /// document-level information. Encrypted, corrupt and over-limit files are refused with
    /// a typed error; an error from `on_page` (cancellation) stops reading and is returned.
    fn read(
        &self,
        bytes: &[u8],
        limits: PdfLimits,
        on_page: &mut dyn FnMut(PdfPage, u32) -> Result<()>,
    ) -> Result<PdfInfo>;
}

/// A page of the canonical text (byte offsets; the pipeline converts to characters).
#[derive(Debug, Clone, PartialEq)]
pub struct PageExtent {
    pub number: u32,
    /// From this page's first block to the next page's first block.
    pub span: Range<usize>,
    /// The printed page label (page number in the footer), when one was recognised.
    pub label: Option<String>,
    /// Running headers, footers and page numbers set aside from the text.
    pub furniture: Vec<String>,
    /// False for a page with no text layer (a scan) or no text at all.
    pub has_text: bool,
}

/// An outline entry placed in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct OutlineTarget {
    pub title: String,
    pub level: u32,
    /// Byte offset of the block the bookmark points at.
    pub offset: usize,
}

/// An image object and where it sits.
#[derive(Debug, Clone, PartialEq)]
pub struct ImagePlacement {
    pub page: u32,
    pub rect: Rect,
    /// Byte offset of the first block after the image on its page (or the page's end).
    pub offset: usize,
}

/// A line of text on a page after layout.
#[derive(Debug, Clone, PartialEq)]
struct Line {
    text: String,
    rect: Rect,
    baseline: f32,
    font_size: f32,
    bold: bool,
    /// Cells of a table row were found (two or more, with numbers or three or more).
    is_row: bool,
    /// Links with their byte range in `text`.
    links: Vec<(String, Range<usize>)>,
    /// Byte offset and horizontal extent of each glyph; emptied once links are attached.
    glyph_x: Vec<(usize, f32, f32)>,
}

#[derive(Debug, Clone, PartialEq)]
struct Segment {
    text: String,
    left: f32,
    right: f32,
    /// Byte offset in `text` and horizontal extent of each glyph, for link mapping.
    glyph_x: Vec<(usize, f32, f32)>,
}

#[derive(Debug, Clone, PartialEq)]
struct LaidPage {
    number: u32,
    width: f32,
    height: f32,
    lines: Vec<Line>,
    images: Vec<Rect>,
    /// Lines set aside as furniture (index into `lines`).
    furniture: Vec<usize>,
}

/// Collects pages as the reader produces them and builds the canonical text at the end.
#[derive(Debug, Default)]
pub struct PdfAssembler {
    pages: Vec<LaidPage>,
    /// Destinations some link points at: (page, top) → anchor name.
    destinations: HashMap<(u32, i32), String>,
}

impl PdfAssembler {
    pub fn new() -> Self {
        Self::default()
    }

    /// Lay one page out and keep its lines; the glyphs are dropped.
    pub fn add_page(&mut self, page: PdfPage) {
        let mut lines = layout_lines(&page);
        for link in &page.links {
            let href = match &link.target {
                PdfLinkTarget::Uri(uri) => uri.clone(),
                PdfLinkTarget::Page { page, top } => format!("#{}", self.destination(*page, *top)),
            };
            attach_link(&mut lines, &link.rect, &href);
        }
        for line in &mut lines {
            line.glyph_x = Vec::new();
        }
        self.pages.push(LaidPage {
            number: page.number,
            width: page.width,
            height: page.height,
            lines,
            images: page.images,
            furniture: Vec::new(),
        });
    }

    fn destination(&mut self, page: u32, top: Option<f32>) -> String {
        // Destinations within two points are the same place.
        let key = (
            page,
            top.map(|t| (t / 2.0).round() as i32).unwrap_or(i32::MAX),
        );
        let next = self.destinations.len();
        self.destinations
            .entry(key)
            .or_insert_with(|| format!("{ANCHOR_PREFIX}{next}"))
            .clone()
    }

    /// Finish: set furniture aside, build paragraphs, place anchors, outline and images.
    pub fn finish(mut self, info: &PdfInfo) -> Result<Canonical> {
        let outline_anchors: Vec<(String, u32, String)> = info
            .outline
            .iter()
            .filter_map(|e| {
                e.page
                    .map(|p| (e.title.clone(), e.level, self.destination(p, e.top)))
            })
            .collect();
        mark_furniture(&mut self.pages);
        let pages_with_text = self
            .pages
            .iter()
            .filter(|p| p.lines.len() > p.furniture.len())
            .count();
        if pages_with_text == 0 {
            return Err(IngestError::NoTextLayer {
                pages: self.pages.len() as u32,
            });
        }
        let mut raw: Vec<RawBlock> = Vec::new();
        let mut tops: Vec<f32> = Vec::new();
        let mut first_block_of_page: Vec<Option<usize>> = Vec::with_capacity(self.pages.len());
        let mut table_id = 0u32;
        for page in &self.pages {
            let start = raw.len();
            let body: Vec<&Line> = page
                .lines
                .iter()
                .enumerate()
                .filter(|(i, _)| !page.furniture.contains(i))
                .map(|(_, l)| l)
                .collect();
            paragraphs(&body, page, &mut raw, &mut tops, &mut table_id);
            if let Some(first) = raw.get_mut(start) {
                first.page_break_before = page.number > 1;
            }
            first_block_of_page.push((raw.len() > start).then_some(start));
        }
        self.place_anchors(&mut raw, &tops, &first_block_of_page);
        let mut canonical = assemble(raw, Vec::new());
        canonical.title = info.title.clone().filter(|t| !t.trim().is_empty());
        canonical.pages = page_extents(&canonical, &self.pages);
        canonical.outline = outline_anchors
            .into_iter()
            .filter_map(|(title, level, anchor)| {
                canonical.anchors.get(&anchor).map(|&offset| OutlineTarget {
                    title,
                    level,
                    offset,
                })
            })
            .collect();
        canonical.images = image_placements(&canonical, &self.pages);
        let scanned: Vec<u32> = canonical
            .pages
            .iter()
            .filter(|p| !p.has_text)
            .map(|p| p.number)
            .collect();
        if !scanned.is_empty() {
            canonical.warnings.push(format!(
                "{} of {} pages have no text layer (scanned or blank): {}; their text is not indexed",
                scanned.len(),
                canonical.pages.len(),
                compress_ranges(&scanned)
            ));
        }
        if info.broken_outline_entries > 0 {
            canonical.warnings.push(format!(
                "{} outline entries point nowhere and were ignored",
                info.broken_outline_entries
            ));
        }
        Ok(canonical)
    }

    /// Put each destination's anchor on the first block at or below its top on its page.
    fn place_anchors(
        &self,
        raw: &mut [RawBlock],
        tops: &[f32],
        first_block_of_page: &[Option<usize>],
    ) {
        for (&(page, top_key), name) in &self.destinations {
            let Some(page_index) = self.pages.iter().position(|p| p.number == page) else {
                continue;
            };
            // A destination on a page without text lands on the next page that has some.
            let Some(first) = first_block_of_page[page_index..].iter().flatten().next() else {
                continue;
            };
            let mut target = *first;
            if top_key != i32::MAX && raw[target].page == Some(page) {
                let top = top_key as f32 * 2.0;
                let mut b = target;
                while b < raw.len() && raw[b].page == Some(page) && tops[b] > top + 12.0 {
                    b += 1;
                }
                // Below the page's last block: the destination is where the next page starts.
                target = b.min(raw.len() - 1);
            }
            raw[target].anchors.push((name.clone(), 0));
        }
    }
}

fn compress_ranges(pages: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < pages.len() {
        let mut j = i;
        while j + 1 < pages.len() && pages[j + 1] == pages[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            pages[i].to_string()
        } else {
            format!("{}-{}", pages[i], pages[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

fn is_whitespace_glyph(c: char) -> bool {
    c.is_whitespace() || c == '\u{0}' || c == '\u{feff}'
}

/// Group a page's glyphs into lines by baseline, order them left to right, split them into
/// cells at wide gaps, and read two-column regions column by column.
fn layout_lines(page: &PdfPage) -> Vec<Line> {
    let mut glyphs: Vec<&Glyph> = page
        .glyphs
        .iter()
        .filter(|g| !is_whitespace_glyph(g.ch) && !g.ch.is_control() || g.ch == '\u{2}')
        .filter(|g| g.rect.right > g.rect.left || g.rect.top > g.rect.bottom)
        .collect();
    if glyphs.is_empty() {
        return Vec::new();
    }
    glyphs.sort_by(|a, b| b.baseline.total_cmp(&a.baseline));
    let mut rows: Vec<Vec<&Glyph>> = Vec::new();
    let mut current: Vec<&Glyph> = Vec::new();
    let mut row_baseline = f32::NAN;
    let mut row_size = 0.0f32;
    for g in glyphs {
        let size = g.font_size.max(1.0);
        let tolerance = 0.4 * size.max(row_size);
        if current.is_empty() || (row_baseline - g.baseline).abs() <= tolerance {
            if current.is_empty() {
                row_baseline = g.baseline;
                row_size = size;
            }
            current.push(g);
        } else {
            rows.push(std::mem::take(&mut current));
            row_baseline = g.baseline;
            row_size = size;
            current.push(g);
        }
    }
    rows.push(current);
    let rows = split_run_in_headings(rows);
    let mut segmented: Vec<Vec<Segment>> = Vec::with_capacity(rows.len());
    let mut meta: Vec<(f32, f32, bool)> = Vec::with_capacity(rows.len());
    for mut row in rows {
        row.sort_by(|a, b| a.rect.left.total_cmp(&b.rect.left));
        let (size, bold) = dominant_style(&row);
        let baseline = row
            .iter()
            .map(|g| g.baseline)
            .fold(f32::NEG_INFINITY, f32::max);
        segmented.push(segments(&row, size));
        meta.push((baseline, size, bold));
    }
    let order = reading_order(&segmented, page.width);
    order
        .into_iter()
        .filter_map(|(row, range)| {
            let segs = &segmented[row][range];
            let (baseline, size, bold) = meta[row];
            line_from_segments(segs, baseline, size, bold)
        })
        .collect()
}

/// A bold sentence that runs into regular text on the same line (`Risk title. Body text…`)
/// is a heading: it becomes a row of its own so the body joins the paragraph below.
fn split_run_in_headings(rows: Vec<Vec<&Glyph>>) -> Vec<Vec<&Glyph>> {
    let mut out = Vec::with_capacity(rows.len());
    for mut row in rows {
        row.sort_by(|a, b| a.rect.left.total_cmp(&b.rect.left));
        let bold_run = row.iter().take_while(|g| g.bold).count();
        let splits = bold_run >= 12
            && bold_run < row.len()
            && matches!(row[bold_run - 1].ch, '.' | ':' | '—')
            && row[bold_run..].iter().filter(|g| !g.bold).count() * 10
                >= (row.len() - bold_run) * 9;
        if splits {
            let rest = row.split_off(bold_run);
            out.push(row);
            out.push(rest);
        } else {
            out.push(row);
        }
    }
    out
}

fn dominant_style(row: &[&Glyph]) -> (f32, bool) {
    let mut sizes: HashMap<i32, usize> = HashMap::new();
    let mut bold = 0usize;
    for g in row {
        *sizes.entry((g.font_size * 2.0).round() as i32).or_default() += 1;
        bold += usize::from(g.bold);
    }
    let size = sizes
        .into_iter()
        .max_by_key(|&(s, n)| (n, s))
        .map(|(s, _)| s as f32 / 2.0)
        .unwrap_or(10.0);
    (size, bold * 2 > row.len())
}

/// Split a sorted row of glyphs into words and cells: a gap over a third of the font size is
/// a space, a gap over 1.2 font sizes separates cells.
fn segments(row: &[&Glyph], size: f32) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    let mut prev: Option<&Glyph> = None;
    for &g in row {
        // Fake bold draws a glyph twice at nearly the same place.
        if let Some(p) = prev {
            if p.ch == g.ch && (g.rect.left - p.rect.left).abs() < 0.15 * size {
                continue;
            }
        }
        let gap = prev.map(|p| g.rect.left - p.rect.right);
        let new_cell = match gap {
            None => true,
            Some(gap) => gap > 1.2 * size,
        };
        if new_cell {
            out.push(Segment {
                text: String::new(),
                left: g.rect.left,
                right: g.rect.right,
                glyph_x: Vec::new(),
            });
        }
        let Some(seg) = out.last_mut() else {
            continue;
        };
        // `(1,234 )` and `12 %` are how a cell is drawn, not two words.
        let closes_number =
            matches!(g.ch, ')' | '%') && seg.text.ends_with(|c: char| c.is_ascii_digit());
        let spaced = !closes_number
            && gap.is_some_and(|gap| gap > 0.2 * size || (g.space_before && gap > 0.05 * size));
        if !new_cell && spaced && !seg.text.ends_with(' ') {
            seg.text.push(' ');
        }
        let ch = if g.ch == '\u{2}' || g.ch == '\u{ad}' {
            '-'
        } else {
            g.ch
        };
        seg.glyph_x
            .push((seg.text.len(), g.rect.left, g.rect.right));
        seg.text.push(ch);
        seg.right = seg.right.max(g.rect.right);
        prev = Some(g);
    }
    out
}

/// The order rows (and, in two-column regions, halves of rows) are read in: each item is a
/// row index and the range of its segments.
fn reading_order(rows: &[Vec<Segment>], page_width: f32) -> Vec<(usize, Range<usize>)> {
    let gutter = find_gutter(rows, page_width);
    let Some(gutter) = gutter else {
        return rows
            .iter()
            .enumerate()
            .map(|(i, s)| (i, 0..s.len()))
            .collect();
    };
    let mut out = Vec::with_capacity(rows.len() * 2);
    let mut left_col: Vec<(usize, Range<usize>)> = Vec::new();
    let mut right_col: Vec<(usize, Range<usize>)> = Vec::new();
    for (i, segs) in rows.iter().enumerate() {
        let spans_gutter = segs.iter().any(|s| s.left < gutter && s.right > gutter);
        if spans_gutter {
            out.append(&mut left_col);
            out.append(&mut right_col);
            out.push((i, 0..segs.len()));
            continue;
        }
        let split = segs.iter().take_while(|s| s.right <= gutter).count();
        if split > 0 {
            left_col.push((i, 0..split));
        }
        if split < segs.len() {
            right_col.push((i, split..segs.len()));
        }
    }
    out.append(&mut left_col);
    out.append(&mut right_col);
    out
}

/// A vertical gutter shared by many prose rows that have text on both sides of it: the
/// middle of the strip no left-column text crosses and no right-column text starts before.
fn find_gutter(rows: &[Vec<Segment>], page_width: f32) -> Option<f32> {
    let mut pairs: Vec<(f32, f32)> = Vec::new();
    for segs in rows {
        if segs.len() != 2 {
            continue;
        }
        let (a, b) = (&segs[0], &segs[1]);
        let wordy = |s: &Segment| s.text.split(' ').filter(|w| w.len() > 1).count() >= 3;
        let wide = |s: &Segment| s.right - s.left > 0.25 * page_width;
        if wordy(a) && wordy(b) && wide(a) && wide(b) {
            pairs.push((a.right, b.left));
        }
    }
    let prose_rows = rows.iter().filter(|s| !s.is_empty()).count();
    if pairs.len() < 6 || pairs.len() * 10 < prose_rows * 3 {
        return None;
    }
    let left_edge = pairs.iter().map(|p| p.0).fold(f32::MIN, f32::max);
    let right_edge = pairs.iter().map(|p| p.1).fold(f32::MAX, f32::min);
    let gutter = (left_edge + right_edge) / 2.0;
    let central = gutter > 0.3 * page_width && gutter < 0.7 * page_width;
    (left_edge < right_edge && central).then_some(gutter)
}

static NUMERIC_CELL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[\(\$€£¥]*\s*[-–—]?\s*[\d.,]+\s*\)?\s*%?\)?$|^[-–—$%)(]+$|^\$?\s*\(?[\d,.]+\)?\s*(%|bps|x)?$")
        .unwrap_or_else(|_| unreachable!())
});

fn is_numeric_cell(text: &str) -> bool {
    NUMERIC_CELL.is_match(text.trim())
}

fn line_from_segments(segs: &[Segment], baseline: f32, size: f32, bold: bool) -> Option<Line> {
    let first = segs.first()?;
    let is_row =
        segs.len() >= 3 || (segs.len() == 2 && segs.iter().any(|s| is_numeric_cell(&s.text)));
    let mut text = String::new();
    let mut glyph_x: Vec<(usize, f32, f32)> = Vec::new();
    let mut rect = Rect::new(first.left, baseline, first.right, baseline + size);
    let mut pending_cell_separator = false;
    for (i, seg) in segs.iter().enumerate() {
        let cell = seg.text.trim();
        if cell.is_empty() {
            continue;
        }
        if i > 0 && !text.is_empty() {
            if is_row {
                // `$ | 1,234` reads `$1,234`; `1,234 | )` and `12 | %` stay whole too.
                let glue_right = matches!(cell, ")" | "%" | ")%" | "%)");
                let glue_left = text.ends_with(['$', '€', '£', '(']) && pending_cell_separator;
                if !(glue_right || glue_left) {
                    text.push_str(" | ");
                }
            } else {
                text.push(' ');
            }
        }
        pending_cell_separator = true;
        let base = text.len();
        let lead = seg.text.len() - seg.text.trim_start().len();
        text.push_str(cell);
        glyph_x.extend(
            seg.glyph_x
                .iter()
                .filter(|(off, _, _)| *off >= lead && *off < lead + cell.len())
                .map(|&(off, l, r)| (base + off - lead, l, r)),
        );
        rect = rect.union(&Rect::new(seg.left, baseline, seg.right, baseline + size));
    }
    if text.trim().is_empty() {
        return None;
    }
    Some(Line {
        text,
        rect: Rect::new(
            rect.left,
            baseline - 0.25 * size,
            rect.right,
            baseline + size,
        ),
        baseline,
        font_size: size,
        bold,
        is_row,
        links: Vec::new(),
        glyph_x,
    })
}

/// Give a link the text under its area: the glyphs of each line it covers.
fn attach_link(lines: &mut [Line], rect: &Rect, href: &str) {
    for line in lines.iter_mut() {
        let overlap = line.rect.vertical_overlap(rect);
        if overlap < 0.4 * line.rect.height().min(rect.height().max(0.1)) {
            continue;
        }
        let inside: Vec<usize> = line
            .glyph_x
            .iter()
            .filter(|(_, l, r)| (l + r) / 2.0 >= rect.left && (l + r) / 2.0 <= rect.right)
            .map(|(off, _, _)| *off)
            .collect();
        let (Some(&first), Some(&last)) = (inside.first(), inside.last()) else {
            continue;
        };
        let end = line.text[last..]
            .chars()
            .next()
            .map_or(line.text.len(), |c| last + c.len_utf8());
        line.links.push((href.to_string(), first..end));
    }
}

static PAGE_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:page\s+)?[-–—]?\s*((?:[A-Z]{1,2}\s?-\s?)?\d{1,4}|[ivxlc]{1,7})\s*[-–—]?(?:\s*(?:of|/)\s*\d{1,4})?$")
        .unwrap_or_else(|_| unreachable!())
});

/// The lines nearest the top and bottom of a page (by position, not reading order): up to
/// `n` from each end.
fn edge_lines(page: &LaidPage, n: usize) -> Vec<usize> {
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
fn mark_furniture(pages: &mut [LaidPage]) {
    const EDGE_LINES: usize = 3;
    // Running headers sit at the same height on every page they repeat on.
    let key_of = |line: &Line| (normalize(&line.text), (line.baseline / 6.0).round() as i32);
    let mut counts: HashMap<(String, i32), usize> = HashMap::new();
    let edges: Vec<Vec<usize>> = pages.iter().map(|p| edge_lines(p, EDGE_LINES)).collect();
    for (page, edge) in pages.iter().zip(&edges) {
        let mut seen = std::collections::HashSet::new();
        for &i in edge {
            if page.lines[i].text.chars().count() <= 160 {
                let key = key_of(&page.lines[i]);
                if seen.insert(key.clone()) {
                    *counts.entry(key).or_default() += 1;
                }
            }
        }
    }
    let needed = 3.max(pages.len() / 7);
    for (page, edge) in pages.iter_mut().zip(&edges) {
        let mut furniture = Vec::new();
        // A running header removed once per page: the same words again are the body's own.
        let mut taken = std::collections::HashSet::new();
        let extreme: Vec<usize> = edge_lines(page, 2);
        for &i in edge {
            let line = &page.lines[i];
            let text = line.text.trim();
            let key = normalize(text);
            let repeated = counts.get(&key_of(line)).is_some_and(|&n| n >= needed);
            let page_number = text.len() <= 16
                && PAGE_LABEL.is_match(text)
                && !line.is_row
                && extreme.contains(&i);
            if (repeated || page_number) && taken.insert(key) {
                furniture.push(i);
            }
        }
        page.furniture = furniture;
    }
}

/// A line's identity across pages: case, spacing, cell bars and the digits of page numbers
/// do not count.
fn normalize(text: &str) -> String {
    super::furniture::normalize(&text.to_lowercase().replace('|', ""))
}

static LIST_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[•●▪■◦○\-–—*]\s|\(?[a-z0-9]{1,3}\)\s|\d{1,2}\.\s|(?i:item|part|note)\s+[0-9IVX]+)",
    )
    .unwrap_or_else(|_| unreachable!())
});

static ITEM_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^item\s+\d{1,2}[A-C]?\.?\s").unwrap_or_else(|_| unreachable!())
});

/// Lines of one page to blocks: table rows stay one line each, prose lines join into
/// paragraphs (hyphenated words rejoined), headings stand alone.
fn paragraphs(
    lines: &[&Line],
    page: &LaidPage,
    raw: &mut Vec<RawBlock>,
    tops: &mut Vec<f32>,
    table_id: &mut u32,
) {
    let page_left = lines.iter().map(|l| l.rect.left).fold(f32::MAX, f32::min);
    let page_right = lines.iter().map(|l| l.rect.right).fold(0.0f32, f32::max);
    let slack = 0.05 * (page_right - page_left).max(1.0);
    // The right edge of the column a line sits in: the widest line starting where it starts.
    let column_of = |line: &Line| -> (f32, f32) {
        let right = lines
            .iter()
            .filter(|l| (l.rect.left - line.rect.left).abs() < slack && !l.is_row)
            .map(|l| l.rect.right)
            .fold(line.rect.right, f32::max);
        (right, (right - line.rect.left).max(1.0))
    };
    let mut prev: Option<&Line> = None;
    let mut in_table = false;
    for &line in lines {
        let joins = match prev {
            Some(p) if !p.is_row && !line.is_row => {
                let (column_right, width) = column_of(p);
                continues_paragraph(p, line, column_right, width)
            }
            _ => false,
        };
        if joins {
            if let Some(block) = raw.last_mut() {
                let hyphenated = block.text.ends_with('-')
                    && block.text[..block.text.len() - 1].ends_with(char::is_alphabetic)
                    && line.text.starts_with(char::is_lowercase);
                if hyphenated {
                    block.text.pop();
                } else {
                    block.text.push(' ');
                }
                let base = block.text.len();
                block.text.push_str(&line.text);
                block.links.extend(
                    line.links
                        .iter()
                        .map(|(h, r)| (h.clone(), base + r.start..base + r.end)),
                );
                prev = Some(line);
                continue;
            }
        }
        if line.is_row && !in_table {
            *table_id += 1;
        }
        in_table = line.is_row;
        let centre = (line.rect.left + line.rect.right) / 2.0;
        let centered = page.width > 0.0
            && (centre - page.width / 2.0).abs() < 0.04 * page.width
            && line.rect.right - line.rect.left < 0.7 * (page_right - page_left);
        raw.push(RawBlock {
            text: line.text.clone(),
            kind: Some(if line.is_row {
                BlockKind::TableRow
            } else {
                BlockKind::Paragraph
            }),
            style: BlockStyle {
                bold: line.bold,
                font_size: Some(line.font_size),
                centered,
                ..BlockStyle::default()
            },
            table_id: line.is_row.then_some(*table_id),
            links: line.links.clone(),
            page: Some(page.number),
            ..RawBlock::default()
        });
        tops.push(line.rect.top);
        prev = Some(line);
    }
}

/// Whether `next` continues the paragraph `prev` ends: close below it, same type size and
/// weight, and `prev` is not the short last line of a paragraph.
fn continues_paragraph(prev: &Line, next: &Line, column_right: f32, width: f32) -> bool {
    let size = prev.font_size.max(next.font_size);
    let leading = prev.baseline - next.baseline;
    if leading <= 0.0 || leading > 1.7 * size {
        return false;
    }
    // An `Item 2. …` heading wrapped onto a second, shorter line (often bolder) stays whole.
    let wrapped_item_heading = ITEM_HEADING.is_match(&prev.text)
        && prev.text.len() < 90
        && next.text.len() < 60
        && next.text.trim_end().ends_with(['.', ':'])
        || ITEM_HEADING.is_match(&prev.text) && next.text.len() < 40 && !prev.text.ends_with('.');
    if (prev.font_size - next.font_size).abs() > 0.6
        || (prev.bold != next.bold && !wrapped_item_heading)
    {
        return false;
    }
    if LIST_START.is_match(&next.text) {
        return false;
    }
    let short = prev.rect.right < column_right - 0.12 * width;
    let ends_sentence = prev.text.trim_end().ends_with(['.', ':', ';', '?', '!']);
    if short && (ends_sentence || prev.bold) {
        return false;
    }
    // A short line ending mid-sentence is a heading or a cell, not the start of prose.
    if short && prev.text.len() < 60 && next.text.starts_with(char::is_uppercase) {
        return false;
    }
    let indented = next.rect.left > prev.rect.left + 1.5 * size;
    !(indented && ends_sentence)
}

/// Byte ranges of pages in the assembled text: from a page's first block to the next page's.
fn page_extents(c: &Canonical, pages: &[LaidPage]) -> Vec<PageExtent> {
    let mut first_block: HashMap<u32, usize> = HashMap::new();
    for (i, b) in c.blocks.iter().enumerate() {
        if let Some(p) = b.page {
            first_block.entry(p).or_insert(i);
        }
    }
    let starts: Vec<Option<usize>> = pages
        .iter()
        .map(|p| first_block.get(&p.number).map(|&b| c.blocks[b].span.start))
        .collect();
    let mut extents = Vec::with_capacity(pages.len());
    for (i, page) in pages.iter().enumerate() {
        let next_start = starts[i + 1..]
            .iter()
            .flatten()
            .next()
            .copied()
            .unwrap_or(c.text.len());
        let start = starts[i].unwrap_or(next_start);
        let furniture: Vec<String> = page
            .furniture
            .iter()
            .map(|&l| page.lines[l].text.clone())
            .collect();
        let label = furniture
            .iter()
            .rev()
            .find_map(|t| PAGE_LABEL.captures(t.trim()).and_then(|m| m.get(1)))
            .map(|m| m.as_str().replace(' ', ""));
        extents.push(PageExtent {
            number: page.number,
            span: start..next_start.max(start),
            label,
            furniture,
            has_text: starts[i].is_some(),
        });
    }
    extents
}

/// Each image is placed at the start of its page's text (its box says where on the page).
fn image_placements(c: &Canonical, pages: &[LaidPage]) -> Vec<ImagePlacement> {
    let mut out = Vec::new();
    for (page, extent) in pages.iter().zip(&c.pages) {
        for rect in &page.images {
            out.push(ImagePlacement {
                page: page.number,
                rect: *rect,
                offset: extent.span.start,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    /// Glyphs of `text` set at (x, baseline) in a monospaced font of `size` points.
    fn typeset(text: &str, x: f32, baseline: f32, size: f32, bold: bool) -> Vec<Glyph> {
        let advance = 0.5 * size;
        let mut out = Vec::new();
        let mut space_before = false;
        for (i, ch) in text.chars().enumerate() {
            if ch == ' ' {
                space_before = true;
                continue;
            }
            let left = x + i as f32 * advance;
            out.push(Glyph {
                ch,
                rect: Rect::new(
                    left,
                    baseline - 0.2 * size,
                    left + advance,
                    baseline + 0.8 * size,
                ),
                baseline,
                font_size: size,
                bold,
                space_before: std::mem::take(&mut space_before),
            });
        }
        out
    }

    fn page(number: u32, lines: &[(&str, f32, f32, bool)]) -> PdfPage {
        let mut glyphs = Vec::new();
        for (text, x, y, bold) in lines {
            glyphs.extend(typeset(text, *x, *y, 10.0, *bold));
        }
        PdfPage {
            number,
            width: 612.0,
            height: 792.0,
            glyphs,
            links: Vec::new(),
            images: Vec::new(),
        }
    }

    fn assemble_pages(pages: Vec<PdfPage>) -> Canonical {
        let mut assembler = PdfAssembler::new();
        let count = pages.len() as u32;
        for p in pages {
            assembler.add_page(p);
        }
        assembler
            .finish(&PdfInfo {
                page_count: count,
                ..PdfInfo::default()
            })
            .unwrap()
    }

    fn blocks(c: &Canonical) -> Vec<&str> {
        c.blocks.iter().map(|b| &c.text[b.span.clone()]).collect()
    }

    #[test]
    fn wrapped_lines_join_and_hyphenated_words_rejoin() {
        let c = assemble_pages(vec![page(
            1,
            &[
                ("Results of Operations", 50.0, 700.0, true),
                ("Revenue grew because the com-", 50.0, 680.0, false),
                ("pany sold more licences in every", 50.0, 668.0, false),
                ("region.", 50.0, 656.0, false),
            ],
        )]);
        assert_eq!(
            blocks(&c),
            vec![
                "Results of Operations",
                "Revenue grew because the company sold more licences in every region."
            ]
        );
        assert!(c.blocks[0].style.bold);
        assert_eq!(c.blocks[1].page, Some(1));
    }

    #[test]
    fn two_columns_are_read_one_after_the_other() {
        let mut lines = vec![("Market Overview", 50.0, 740.0, true)];
        let left = [
            "alpha one two three four five six seven",
            "alpha eight nine ten eleven twelve thirteen",
            "alpha fourteen fifteen sixteen seventeen end",
        ];
        let right = [
            "omega one two three four five six seven",
            "omega eight nine ten eleven twelve thirteen",
            "omega fourteen fifteen sixteen seventeen end",
        ];
        let mut y = 700.0;
        for _ in 0..3 {
            for (l, r) in left.iter().zip(right.iter()) {
                lines.push((l, 50.0, y, false));
                lines.push((r, 330.0, y, false));
                y -= 12.0;
            }
        }
        let c = assemble_pages(vec![page(1, &lines)]);
        let text = &c.text;
        let last_alpha = text.rfind("alpha").unwrap();
        let first_omega = text.find("omega").unwrap();
        assert!(last_alpha < first_omega, "left column first: {text}");
    }

    #[test]
    fn page_numbers_and_running_headers_are_set_aside_but_kept_in_the_page_map() {
        let pages: Vec<PdfPage> = (1..=4)
            .map(|n| {
                let number = format!("{n}");
                let body = format!(
                    "Body text of the {} page ends here.",
                    ["first", "second", "third", "fourth"][n as usize - 1]
                );
                let mut p = page(
                    n,
                    &[
                        ("ACME CORP | Annual Report", 50.0, 760.0, false),
                        (&body, 50.0, 700.0, false),
                        (&number, 300.0, 40.0, false),
                    ],
                );
                p.number = n;
                p
            })
            .collect();
        let c = assemble_pages(pages);
        assert!(!c.text.contains("ACME CORP"), "{}", c.text);
        assert_eq!(c.pages.len(), 4);
        for (i, p) in c.pages.iter().enumerate() {
            assert_eq!(p.label.as_deref(), Some((i + 1).to_string().as_str()));
            assert!(p.furniture.iter().any(|f| f.contains("ACME CORP")));
            let ordinal = ["first", "second", "third", "fourth"][i];
            assert!(c.text[p.span.clone()].contains(&format!("the {ordinal} page")));
        }
        // The page map covers the text without gaps.
        assert_eq!(c.pages[0].span.start, 0);
        for pair in c.pages.windows(2) {
            assert_eq!(pair[0].span.end, pair[1].span.start);
        }
        assert_eq!(c.pages[3].span.end, c.text.len());
    }

    #[test]
    fn table_rows_keep_cells_apart_and_currency_with_numbers() {
        let c = assemble_pages(vec![page(
            1,
            &[
                ("Net sales", 50.0, 700.0, false),
                ("$", 300.0, 700.0, false),
                ("81,797", 320.0, 700.0, false),
                ("(1,234", 420.0, 700.0, false),
                (")", 455.0, 700.0, false),
            ],
        )]);
        assert_eq!(blocks(&c), vec!["Net sales | $81,797 | (1,234)"]);
        assert_eq!(c.blocks[0].kind, BlockKind::TableRow);
    }

    #[test]
    fn internal_links_become_anchors_on_the_target_page_and_uris_stay_external() {
        let mut first = page(
            1,
            &[
                ("Contents", 50.0, 740.0, true),
                ("Risk Factors 2", 50.0, 700.0, false),
                ("Exhibit 99.1", 50.0, 680.0, false),
            ],
        );
        first.links = vec![
            PdfLinkArea {
                rect: Rect::new(45.0, 695.0, 200.0, 712.0),
                target: PdfLinkTarget::Page {
                    page: 2,
                    top: Some(760.0),
                },
            },
            PdfLinkArea {
                rect: Rect::new(45.0, 675.0, 200.0, 692.0),
                target: PdfLinkTarget::Uri("https://www.sec.gov/ex99.htm".into()),
            },
        ];
        let second = page(
            2,
            &[
                ("Risk Factors", 50.0, 740.0, true),
                ("Our business has risks.", 50.0, 720.0, false),
            ],
        );
        let c = assemble_pages(vec![first, second]);
        let internal = c.links.iter().find(|l| l.href.starts_with('#')).unwrap();
        assert_eq!(&c.text[internal.span.clone()], "Risk Factors 2");
        let target = c.anchors[internal.href.trim_start_matches('#')];
        assert!(c.text[target..].starts_with("Risk Factors\n"));
        let external = c.links.iter().find(|l| !l.href.starts_with('#')).unwrap();
        assert_eq!(&c.text[external.span.clone()], "Exhibit 99.1");
    }

    #[test]
    fn a_document_without_any_text_layer_is_refused_and_blank_pages_are_reported() {
        let mut assembler = PdfAssembler::new();
        assembler.add_page(PdfPage {
            number: 1,
            width: 612.0,
            height: 792.0,
            ..PdfPage::default()
        });
        let err = assembler
            .finish(&PdfInfo {
                page_count: 1,
                ..PdfInfo::default()
            })
            .unwrap_err();
        assert_eq!(err, IngestError::NoTextLayer { pages: 1 });

        let c = assemble_pages(vec![
            page(1, &[("Some text on the first page.", 50.0, 700.0, false)]),
            PdfPage {
                number: 2,
                width: 612.0,
                height: 792.0,
                ..PdfPage::default()
            },
        ]);
        assert!(!c.pages[1].has_text);
        assert!(c.warnings[0].contains("1 of 2 pages"), "{:?}", c.warnings);
    }
}
