//! The reader interface: what a PDF reader (pdfium, in `docindex-pdf`) hands the core, one
//! page at a time, and what the layout reports back about pages, outlines and images.

use crate::error::Result;
use std::ops::Range;

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
