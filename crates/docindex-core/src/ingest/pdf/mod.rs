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

mod boxes;
mod columns;
mod furniture;
pub mod inflation;
mod lines;
mod paragraphs;
mod reader;

pub use boxes::{CharBoxes, PageBoxes, PlacedGlyph};
use columns::*;
use furniture::*;
use lines::*;
use paragraphs::*;
pub use reader::*;

/// Collects pages as the reader produces them and builds the canonical text at the end.
#[derive(Debug, Default)]
pub struct PdfAssembler {
    pages: Vec<LaidPage>,
    /// Destinations some link points at: (page, top) → anchor name.
    destinations: HashMap<(u32, i32), String>,
    /// Keep every glyph's box through to [`Canonical::glyphs`] (the page view's highlights);
    /// indexing does not need them, so it drops them page by page.
    track_glyphs: bool,
    /// Pages whose text was cut at [`MAX_PAGE_GLYPHS`].
    cut_pages: Vec<u32>,
}

/// The most characters one page's text is read to: a dense printed page holds about 6,000,
/// and laying out one page of 15 million took minutes and gigabytes. Readers stop there.
pub const MAX_PAGE_GLYPHS: usize = 200_000;

impl PdfAssembler {
    pub fn new() -> Self {
        Self::default()
    }

    /// An assembler that also places every glyph's box in the text it builds: the same layout,
    /// so the boxes belong to exactly the characters indexing produced.
    pub fn tracking_glyphs() -> Self {
        PdfAssembler {
            track_glyphs: true,
            ..Self::default()
        }
    }

    /// Lay one page out and keep its lines; the glyphs are dropped.
    pub fn add_page(&mut self, mut page: PdfPage) {
        if page.glyphs.len() >= MAX_PAGE_GLYPHS {
            page.glyphs.truncate(MAX_PAGE_GLYPHS);
            self.cut_pages.push(page.number);
        }
        let mut lines = layout_lines(&page);
        for link in &page.links {
            let href = match &link.target {
                PdfLinkTarget::Uri(uri) => uri.clone(),
                PdfLinkTarget::Page { page, top } => format!("#{}", self.destination(*page, *top)),
            };
            attach_link(&mut lines, &link.rect, &href);
        }
        if !self.track_glyphs {
            for line in &mut lines {
                line.glyphs = Vec::new();
            }
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
        // A document whose every line repeats on every page (a form, one notice printed on
        // each page) is all furniture by that rule: its text is its own, kept whole.
        let all_furniture = self
            .pages
            .iter()
            .all(|p| p.lines.len() == p.furniture.len());
        if all_furniture && self.pages.iter().any(|p| !p.lines.is_empty()) {
            for page in &mut self.pages {
                page.furniture.clear();
            }
        }
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
        if !self.cut_pages.is_empty() {
            canonical.warnings.push(format!(
                "{} page(s) hold more text than a page can ({}): each is read to its first \
                 {MAX_PAGE_GLYPHS} characters",
                self.cut_pages.len(),
                compress_ranges(&self.cut_pages)
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
            .find_map(|t| {
                crate::ingest::furniture::PAGE_LABEL
                    .captures(t.trim())
                    .and_then(|m| m.get(1))
            })
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

    /// Nine rows of two columns of prose from `y` down, the left one's words "alpha", the
    /// right one's "omega", on shared baselines.
    fn two_columns(lines: &mut Vec<(&str, f32, f32, bool)>, mut y: f32) {
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
        for _ in 0..3 {
            for (l, r) in left.into_iter().zip(right) {
                lines.push((l, 50.0, y, false));
                lines.push((r, 330.0, y, false));
                y -= 12.0;
            }
        }
    }

    fn assert_left_column_first(text: &str) {
        let last_alpha = text.rfind("alpha").unwrap();
        let first_omega = text.find("omega").unwrap();
        assert!(last_alpha < first_omega, "left column first: {text}");
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
        two_columns(&mut lines, 700.0);
        let c = assemble_pages(vec![page(1, &lines)]);
        let text = &c.text;
        assert_left_column_first(text);
    }

    #[test]
    fn columns_below_a_table_are_read_one_after_the_other_and_the_table_stays_whole() {
        // As JPMorgan's 10-Q sets its executive overview: a full-width table of figures,
        // then two columns of prose.
        let mut lines: Vec<(&str, f32, f32, bool)> = Vec::new();
        let mut y = 740.0;
        for label in [
            "Noninterest revenue",
            "Net interest income",
            "Total net revenue",
        ] {
            lines.push((label, 50.0, y, false));
            lines.push(("19,528", 240.0, y, false));
            lines.push(("15,587", 300.0, y, false));
            lines.push(("25%", 360.0, y, false));
            lines.push(("37,166", 410.0, y, false));
            lines.push(("32,432", 470.0, y, false));
            y -= 12.0;
        }
        y -= 12.0;
        two_columns(&mut lines, y);
        let c = assemble_pages(vec![page(1, &lines)]);
        let text = &c.text;
        assert!(
            text.contains("Net interest income | 19,528 | 15,587 | 25% | 37,166 | 32,432"),
            "the table's rows keep their cells: {text}"
        );
        let last_alpha = text.rfind("alpha").unwrap();
        let first_omega = text.find("omega").unwrap();
        assert!(last_alpha < first_omega, "left column first: {text}");
        assert!(text.find("Total net revenue").unwrap() < text.find("alpha").unwrap());
    }

    #[test]
    fn a_sentence_runs_on_down_its_column_and_into_the_next_below_full_width_prose() {
        // JPMorgan's executive overview: full-width prose, then two columns; a column's line
        // is narrower than the page's, and its last sentence goes on at the next one's top.
        let mut lines: Vec<(&str, f32, f32, bool)> = vec![
            (
                "This overview highlights selected information and may not contain all that matters.",
                50.0,
                740.0,
                false,
            ),
            (
                "It should be read with the entire report, including the risk factors and notes.",
                50.0,
                728.0,
                false,
            ),
        ];
        let left = [
            "Net interest income was up 44%, driven",
            "by higher rates and the impact of the",
            "First Republic acquisition, partially",
            "offset by lower Markets net interest",
            "income and by lower average deposit",
            "levels across the consumer businesses",
        ];
        let right = [
            "balances in every line of business now.",
            "Noninterest revenue was up 25%, driven",
            "by the impact of the First Republic deal",
            "and higher Markets noninterest revenue",
            "and the absence of losses on investments",
            "in Payments in the prior year's quarter.",
        ];
        let mut y = 700.0;
        for (l, r) in left.into_iter().zip(right) {
            lines.push((l, 50.0, y, false));
            lines.push((r, 330.0, y, false));
            y -= 12.0;
        }
        let c = assemble_pages(vec![page(1, &lines)]);
        let text = &c.text;
        assert!(
            text.contains("the impact of the First Republic acquisition, partially offset"),
            "{text}"
        );
        assert!(
            text.contains("consumer businesses balances in every line of business now."),
            "{text}"
        );
    }

    #[test]
    fn columns_whose_baselines_do_not_line_up_are_read_one_after_the_other() {
        let mut lines: Vec<(&str, f32, f32, bool)> = Vec::new();
        let mut y = 700.0;
        for i in 0..10 {
            lines.push((
                if i % 2 == 0 {
                    "alpha one two three four five six seven"
                } else {
                    "alpha eight nine ten eleven twelve"
                },
                50.0,
                y,
                false,
            ));
            // The right column's lines sit half a line lower.
            lines.push((
                if i % 2 == 0 {
                    "omega one two three four five six seven"
                } else {
                    "omega eight nine ten eleven twelve"
                },
                330.0,
                y - 6.0,
                false,
            ));
            y -= 12.0;
        }
        let c = assemble_pages(vec![page(1, &lines)]);
        let text = &c.text;
        assert_left_column_first(text);
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

        // Period columns set tight: the next period's `$` sits a space after a figure.
        let tight = assemble_pages(vec![page(
            1,
            &[
                ("Casino", 50.0, 700.0, false),
                ("$", 300.0, 700.0, false),
                ("492,212", 320.0, 700.0, false),
                ("$", 360.0, 700.0, false),
                ("498,524", 380.0, 700.0, false),
            ],
        )]);
        assert_eq!(blocks(&tight), vec!["Casino | $492,212 | $498,524"]);
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
    fn a_page_of_more_text_than_a_page_holds_is_read_to_the_limit_and_named() {
        // 2,600 lines of about 90 letters each on one page: 230,000 glyphs.
        let line = "Revenue increased in the period because of higher volumes and prices in all of the regions we serve today ok";
        let lines: Vec<(&str, f32, f32, bool)> = (0..2_600)
            .map(|i| (line, 50.0, 780.0 - (i as f32) * 0.29, false))
            .collect();
        let big = page(1, &lines);
        assert!(big.glyphs.len() > MAX_PAGE_GLYPHS);
        let c = assemble_pages(vec![big]);
        assert!(
            c.warnings
                .iter()
                .any(|w| w.contains("more text than a page can (1)")),
            "{:?}",
            c.warnings
        );
        assert!(c.text.len() <= MAX_PAGE_GLYPHS * 2, "{}", c.text.len());
    }

    #[test]
    fn a_document_whose_every_line_repeats_on_every_page_keeps_its_text() {
        let pages: Vec<PdfPage> = (1..=8)
            .map(|n| {
                page(
                    n,
                    &[
                        ("NOTICE OF ANNUAL MEETING", 50.0, 740.0, true),
                        ("Shareholders may vote online.", 50.0, 700.0, false),
                    ],
                )
            })
            .collect();
        let c = assemble_pages(pages);
        assert!(
            c.text.contains("Shareholders may vote online."),
            "{}",
            c.text
        );
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

    #[test]
    fn a_tracking_assembler_places_every_glyph_on_its_own_character() {
        let pages = vec![
            page(
                1,
                &[
                    ("Results of Operations", 50.0, 700.0, true),
                    ("Revenue grew because the com-", 50.0, 680.0, false),
                    ("pany sold more licences.", 50.0, 668.0, false),
                    ("Revenue          1,234          $ 987", 50.0, 640.0, false),
                    ("12", 300.0, 40.0, false),
                ],
            ),
            page(
                2,
                &[
                    ("Liquidity rose.", 50.0, 700.0, false),
                    ("13", 300.0, 40.0, false),
                ],
            ),
        ];
        // Each glyph's character, by where it was set.
        let mut printed: HashMap<(u32, i32, i32), char> = HashMap::new();
        for p in &pages {
            for g in &p.glyphs {
                printed.insert(
                    (p.number, g.rect.left as i32 * 10, g.rect.bottom as i32),
                    g.ch,
                );
            }
        }
        let mut assembler = PdfAssembler::tracking_glyphs();
        for p in pages.clone() {
            assembler.add_page(p);
        }
        let info = PdfInfo {
            page_count: 2,
            ..PdfInfo::default()
        };
        let tracked = assembler.finish(&info).unwrap();
        // Tracking changes nothing about the text.
        assert_eq!(tracked.text, assemble_pages(pages).text);
        assert!(tracked.text.contains("company sold"));
        for g in &tracked.glyphs {
            let key = (g.page, g.rect.left as i32 * 10, g.rect.bottom as i32);
            let at = tracked.text[g.offset..].chars().next().unwrap();
            assert_eq!(Some(&at), printed.get(&key), "glyph at byte {}", g.offset);
        }
        // Every non-space character of the text came from a glyph (page numbers are set
        // aside as furniture, the hyphen of "com-" is gone).
        let printed_chars = tracked
            .text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '|')
            .count();
        assert_eq!(tracked.glyphs.len(), printed_chars);

        let boxes = CharBoxes::of(&tracked);
        let start = tracked.text.find("because the company").unwrap();
        let end = start + "because the company".len();
        let spans = boxes.span(start, end);
        assert_eq!(spans.len(), 1);
        assert_eq!(spans[0].page, 1);
        // "because the com" on one line, "pany" on the next: two runs.
        assert_eq!(spans[0].rects.len(), 2);
        assert_eq!(spans[0].chars, "becausethecompany".len());
        assert!(spans[0].rects[0].bottom > spans[0].rects[1].top - 1.0);
        // A table row's cells are separate runs; the page-2 span lands on page 2.
        let row = tracked.text.find("Revenue | 1,234").unwrap();
        let row_end = row
            + tracked.text[row..]
                .find('\n')
                .unwrap_or(tracked.text.len() - row);
        assert_eq!(boxes.span(row, row_end)[0].rects.len(), 3);
        let liquidity = tracked.text.find("Liquidity").unwrap();
        assert_eq!(boxes.span(liquidity, liquidity + 9)[0].page, 2);
        // A click on a glyph finds its character; one far from any text finds nothing.
        let r = spans[0].rects[1];
        let hit = boxes
            .char_at(1, r.left + 1.0, (r.bottom + r.top) / 2.0)
            .unwrap();
        assert_eq!(&tracked.text[hit..hit + 4], "pany");
        assert_eq!(boxes.char_at(1, 500.0, 300.0), None);
        assert_eq!(boxes.first_on_page(2), Some(liquidity));
    }
}
