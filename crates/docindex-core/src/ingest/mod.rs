//! Ingestion: raw bytes of any supported format become one [`Canonical`] text made of
//! blocks (paragraphs, table rows, lines), with anchors, links and XBRL facts mapped into it.

pub mod decode;
mod furniture;
pub mod html;
pub mod markdown;
pub mod pdf;
pub mod plain;

use crate::error::{IngestError, Result};
use crate::model::SourceFormat;
use std::collections::HashMap;
use std::ops::Range;

/// What kind of block of the canonical text this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    Paragraph,
    /// One row of a table: cells joined with ` | `.
    TableRow,
    /// One line of preformatted or plain text.
    Line,
    /// A markup heading (`<h1>`…`<h6>`, Markdown `#`) of the given level (1 = top).
    Heading(u8),
}

/// Typography of a block, as far as the source says it. Plain text has none.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BlockStyle {
    pub bold: bool,
    pub italic: bool,
    pub underline: bool,
    /// Dominant font size in points, when the markup sets one.
    pub font_size: Option<f32>,
    pub centered: bool,
}

/// A block of the canonical text: `text[span]` is its content.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// Byte range in [`Canonical::text`].
    pub span: Range<usize>,
    pub kind: BlockKind,
    pub style: BlockStyle,
    /// Table this row belongs to (rows of one table share the id).
    pub table_id: Option<u32>,
    /// The block starts a new printed page.
    pub page_break_before: bool,
    /// Whether the block holds a link to an anchor later in the document (a TOC line).
    pub has_forward_link: bool,
    /// The 1-based PDF page the block is printed on (None for other formats).
    pub page: Option<u32>,
}

/// A hyperlink with its text's byte range in the canonical text.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub href: String,
    pub span: Range<usize>,
    pub block: usize,
}

/// An inline-XBRL fact (`ix:nonFraction`/`ix:nonNumeric`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct XbrlFact {
    pub concept: String,
    pub context_ref: String,
    pub scale: Option<i32>,
    pub negative: bool,
    /// The fact's displayed text (at most a few hundred characters).
    pub value: String,
    /// Byte range in the canonical text, when the fact is visible.
    pub span: Option<Range<usize>>,
}

/// An XBRL context: the period (and whether it has dimensions) facts refer to.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct XbrlContext {
    pub id: String,
    pub start: Option<String>,
    pub end: Option<String>,
    pub instant: Option<String>,
    pub has_segment: bool,
}

/// One document's canonical text and the structure hints its source carried.
#[derive(Debug, Clone, Default)]
pub struct Canonical {
    pub text: String,
    pub blocks: Vec<Block>,
    /// Anchor name → byte offset in the text (only anchors some link points at).
    pub anchors: HashMap<String, usize>,
    pub links: Vec<Link>,
    pub facts: Vec<XbrlFact>,
    pub contexts: Vec<XbrlContext>,
    /// `<title>` of an HTML page, or the first Markdown heading.
    pub title: Option<String>,
    /// Lines of an EDGAR SGML header (`CONFORMED COMPANY NAME: …`) when the file had one.
    pub sgml_header: Vec<(String, String)>,
    /// Lines dropped as page furniture (page numbers, running headers, back-links).
    pub furniture_removed: usize,
    /// PDF only: every page with its byte range of the text, in page order.
    pub pages: Vec<pdf::PageExtent>,
    /// PDF only: the document outline (bookmarks) resolved to byte offsets.
    pub outline: Vec<pdf::OutlineTarget>,
    /// PDF only: embedded images with page, box and the byte offset they sit at.
    pub images: Vec<pdf::ImagePlacement>,
    /// Things the reader should know about the conversion (scanned pages, broken outline).
    pub warnings: Vec<String>,
    /// PDF read by a glyph-tracking assembler: the box of every character that came from a
    /// glyph, in text order. Empty otherwise.
    pub glyphs: Vec<pdf::PlacedGlyph>,
}

impl Canonical {
    /// Every block longer than `longest` bytes cut into pieces of about `piece` bytes, at the
    /// last space before each cut where there is one (else at a character's edge); the
    /// text is unchanged, and links point at the piece that holds them.
    pub fn split_long_blocks(&mut self, longest: usize, piece: usize) {
        if piece == 0 || self.blocks.iter().all(|b| b.span.len() <= longest) {
            return;
        }
        let mut blocks = Vec::with_capacity(self.blocks.len());
        // For each old block, the index of its first piece.
        let mut first_piece = Vec::with_capacity(self.blocks.len());
        for block in &self.blocks {
            first_piece.push(blocks.len());
            if block.span.len() <= longest {
                blocks.push(block.clone());
                continue;
            }
            let mut start = block.span.start;
            while start < block.span.end {
                let end = self.piece_end(start, block.span.end, piece);
                blocks.push(Block {
                    span: start..end,
                    ..block.clone()
                });
                start = end;
            }
        }
        for link in &mut self.links {
            let first = first_piece.get(link.block).copied().unwrap_or(0);
            let within = blocks[first..]
                .iter()
                .take_while(|b| b.span.start <= link.span.start)
                .count()
                .saturating_sub(1);
            link.block = first + within;
        }
        self.blocks = blocks;
    }

    /// Where a piece of at most about `piece` bytes starting at `start` ends, before `end`.
    fn piece_end(&self, start: usize, end: usize, piece: usize) -> usize {
        if end - start <= piece {
            return end;
        }
        let mut cut = start + piece;
        while !self.text.is_char_boundary(cut) {
            cut -= 1;
        }
        if cut <= start {
            // A piece smaller than one character: the character.
            cut = start + 1;
            while cut < end && !self.text.is_char_boundary(cut) {
                cut += 1;
            }
            return cut;
        }
        // The last space in the piece's last quarter, so words stay whole.
        let mut low = (start + piece * 3 / 4).min(cut);
        while !self.text.is_char_boundary(low) {
            low += 1;
        }
        self.text[low..cut]
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(cut, |(at, c)| low + at + c.len_utf8())
    }

    pub fn block_text(&self, index: usize) -> &str {
        self.blocks
            .get(index)
            .map(|b| &self.text[b.span.clone()])
            .unwrap_or("")
    }

    /// Index of the block containing (or, between blocks, following) byte `offset`.
    pub fn block_at(&self, offset: usize) -> usize {
        self.blocks
            .partition_point(|b| b.span.end <= offset)
            .min(self.blocks.len().saturating_sub(1))
    }
}

/// Decide the source format from the file name and the first bytes.
pub fn detect_format(name: &str, text: &str) -> Result<SourceFormat> {
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match ext {
        "htm" | "html" | "xhtml" => return Ok(SourceFormat::Html),
        "md" | "markdown" => return Ok(SourceFormat::Markdown),
        "txt" | "text" => {}
        "pdf" => {
            return Err(IngestError::Unsupported(
                "a '.pdf' name on a file that is not a PDF (no %PDF- header)".into(),
            ))
        }
        "" => {}
        other
            if matches!(
                other,
                "docx" | "doc" | "xls" | "xlsx" | "zip" | "png" | "jpg" | "jpeg" | "gif" | "exe"
            ) =>
        {
            return Err(IngestError::Unsupported(format!(
                "'.{other}' files are not a supported document format (use HTML, text or Markdown)"
            )))
        }
        _ => {}
    }
    let head: String = text
        .chars()
        .take(4096)
        .collect::<String>()
        .to_ascii_lowercase();
    if head.contains("<html") || head.contains("<body") || head.contains("<!doctype html") {
        Ok(SourceFormat::Html)
    } else if ext == "txt" || ext == "text" {
        Ok(SourceFormat::Text)
    } else if head.contains("<document>") && head.contains("<type>") {
        // A full EDGAR submission text file: plain text with SGML wrappers.
        Ok(SourceFormat::Text)
    } else if text
        .lines()
        .take(200)
        .any(|l| l.starts_with("# ") || l.starts_with("## "))
    {
        Ok(SourceFormat::Markdown)
    } else {
        Ok(SourceFormat::Text)
    }
}

/// Convert a decoded document to canonical text.
pub fn to_canonical(format: SourceFormat, text: &str) -> Result<Canonical> {
    let canonical = match format {
        SourceFormat::Html => html::to_canonical(text),
        SourceFormat::Text => plain::to_canonical(text),
        SourceFormat::Markdown => markdown::to_canonical(text),
        SourceFormat::Pdf => {
            return Err(IngestError::Internal(
                "PDF bytes reached the text path; PDFs are read page by page".into(),
            ))
        }
        SourceFormat::PageIndex => {
            return Err(IngestError::Internal(
                "a PageIndex tree reached the text path; trees are imported".into(),
            ))
        }
    };
    if canonical.blocks.is_empty() || canonical.text.trim().is_empty() {
        return Err(IngestError::NoText);
    }
    Ok(canonical)
}

/// A block under construction, before furniture removal assigns final offsets.
#[derive(Debug, Clone, Default)]
pub(crate) struct RawBlock {
    pub text: String,
    pub kind: Option<BlockKind>,
    pub style: BlockStyle,
    pub table_id: Option<u32>,
    pub page_break_before: bool,
    /// Anchors at a byte offset within `text`.
    pub anchors: Vec<(String, usize)>,
    /// Links with their byte range within `text`.
    pub links: Vec<(String, Range<usize>)>,
    /// Facts (index into the fact list) with their byte range within `text`.
    pub facts: Vec<(usize, Range<usize>)>,
    /// Blank lines before this block in line-oriented sources.
    pub blank_before: bool,
    /// The 1-based PDF page of the block.
    pub page: Option<u32>,
    /// PDF, when the assembler tracks glyphs: each glyph's byte offset within `text` and box.
    pub glyphs: Vec<(usize, pdf::Rect)>,
}

/// Lay raw blocks out as the final canonical text, dropping page furniture.
pub(crate) fn assemble(mut raw: Vec<RawBlock>, mut facts: Vec<XbrlFact>) -> Canonical {
    let mut removed = furniture::mark(&mut raw);
    // Text whose every block repeats (one notice printed on every page) is all furniture by
    // that rule: it is the document's own text, kept whole.
    let kept_any = raw
        .iter()
        .enumerate()
        .any(|(i, b)| !removed.contains(&i) && !b.text.trim().is_empty());
    if !kept_any {
        removed.clear();
    }
    let mut text = String::with_capacity(raw.iter().map(|b| b.text.len() + 2).sum());
    let mut blocks = Vec::with_capacity(raw.len());
    let mut anchors_all: Vec<(String, usize)> = Vec::new();
    let mut links = Vec::new();
    let mut glyphs = Vec::new();
    let mut pending_anchors: Vec<String> = Vec::new();
    let mut pending_break = false;
    let mut prev: Option<(BlockKind, Option<u32>)> = None;
    for (i, block) in raw.into_iter().enumerate() {
        let kind = block.kind.unwrap_or(BlockKind::Paragraph);
        if removed.contains(&i) || block.text.trim().is_empty() {
            pending_anchors.extend(block.anchors.into_iter().map(|(a, _)| a));
            pending_break |= block.page_break_before;
            continue;
        }
        if let Some((prev_kind, prev_table)) = prev {
            let tight = match (prev_kind, kind) {
                (BlockKind::TableRow, BlockKind::TableRow) => {
                    prev_table == block.table_id && !block.page_break_before && !pending_break
                }
                (BlockKind::Line, BlockKind::Line) => !block.blank_before,
                _ => false,
            };
            text.push_str(if tight { "\n" } else { "\n\n" });
        }
        let base = text.len();
        text.push_str(&block.text);
        for a in pending_anchors.drain(..) {
            anchors_all.push((a, base));
        }
        for (a, off) in block.anchors {
            anchors_all.push((a, base + off.min(block.text.len())));
        }
        let index = blocks.len();
        let mut has_forward_link = false;
        for (href, r) in block.links {
            if href.starts_with('#') {
                has_forward_link = true;
            }
            links.push(Link {
                href,
                span: base + r.start..base + r.end,
                block: index,
            });
        }
        if let Some(page) = block.page {
            glyphs.extend(
                block
                    .glyphs
                    .into_iter()
                    .map(|(off, rect)| pdf::PlacedGlyph {
                        offset: base + off,
                        page,
                        rect,
                    }),
            );
        }
        for (fact, r) in block.facts {
            if let Some(f) = facts.get_mut(fact) {
                f.span = Some(base + r.start..base + r.end);
            }
        }
        blocks.push(Block {
            span: base..text.len(),
            kind,
            style: block.style,
            table_id: block.table_id,
            page_break_before: block.page_break_before || pending_break,
            has_forward_link,
            page: block.page,
        });
        pending_break = false;
        prev = Some((kind, block.table_id));
    }
    for a in pending_anchors {
        anchors_all.push((a, text.len()));
    }
    // Keep only anchors something links to; inline XBRL tags every fact with an id.
    let wanted: std::collections::HashSet<&str> = links
        .iter()
        .filter_map(|l| l.href.strip_prefix('#'))
        .collect();
    let mut anchors = HashMap::new();
    for (name, off) in anchors_all {
        // PDF destinations are kept whether or not a link uses them: the outline does.
        if wanted.contains(name.as_str()) || name.starts_with(pdf::ANCHOR_PREFIX) {
            anchors.entry(name).or_insert(off);
        }
    }
    // A link is "forward" only when its anchor lies after it.
    for block in blocks.iter_mut() {
        block.has_forward_link = false;
    }
    for link in &links {
        if let Some(target) = link.href.strip_prefix('#').and_then(|a| anchors.get(a)) {
            if *target > link.span.end {
                blocks[link.block].has_forward_link = true;
            }
        }
    }
    Canonical {
        text,
        blocks,
        anchors,
        links,
        facts,
        contexts: Vec::new(),
        title: None,
        sgml_header: Vec::new(),
        furniture_removed: removed.len(),
        glyphs,
        ..Canonical::default()
    }
}
