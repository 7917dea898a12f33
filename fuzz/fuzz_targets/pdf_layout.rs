//! The PDF layout on synthetic pages: the fuzz input is read as glyphs (character, position,
//! size, weight) on a few pages, so the line, column, furniture and paragraph logic sees
//! every arrangement without pdfium. The index keeps the span invariants; nothing panics.
#![no_main]

mod invariants;

use docindex_core::error::Result;
use docindex_core::ingest::pdf::{Glyph, PdfInfo, PdfLimits, PdfPage, PdfReader, Rect};
use docindex_core::pipeline::index_document_with;
use docindex_core::progress::NoProgress;
use docindex_core::{IndexSettings, IndexTools};
use libfuzzer_sys::fuzz_target;

const ALPHABET: &[u8] =
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,$()%-|:ItemPART";

/// Six bytes a glyph: character, x, baseline (coarse, so glyphs share lines), size, flags.
struct SyntheticReader;

impl PdfReader for SyntheticReader {
    fn read(
        &self,
        bytes: &[u8],
        limits: PdfLimits,
        on_page: &mut dyn FnMut(PdfPage, u32) -> Result<()>,
    ) -> Result<PdfInfo> {
        let body = bytes.get(9..).unwrap_or_default();
        let pages: Vec<&[u8]> = body.chunks(6 * 64).take(4).collect();
        let count = (pages.len() as u32).min(limits.max_pages);
        for (p, page) in pages.iter().enumerate().take(count as usize) {
            let glyphs = page
                .chunks_exact(6)
                .map(|g| {
                    let ch = ALPHABET[g[0] as usize % ALPHABET.len()] as char;
                    let size = 6.0 + f32::from(g[3] % 12);
                    let x = 36.0 + f32::from(g[1]) * 2.0;
                    let baseline = 60.0 + f32::from(g[2] % 48) * 14.0;
                    Glyph {
                        ch,
                        rect: Rect::new(
                            x,
                            baseline - 0.2 * size,
                            x + 0.5 * size,
                            baseline + 0.8 * size,
                        ),
                        baseline,
                        font_size: size,
                        bold: g[4] & 1 == 1,
                        space_before: g[5] & 3 == 0,
                    }
                })
                .collect();
            on_page(
                PdfPage {
                    number: p as u32 + 1,
                    width: 612.0,
                    height: 792.0,
                    glyphs,
                    links: Vec::new(),
                    images: Vec::new(),
                },
                count,
            )?;
        }
        Ok(PdfInfo {
            page_count: count,
            ..PdfInfo::default()
        })
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = b"%PDF-1.7\n".to_vec();
    bytes.extend_from_slice(data);
    let tools = IndexTools {
        pdf_reader: Some(&SyntheticReader),
        ..IndexTools::default()
    };
    let settings = IndexSettings::default();
    if let Ok(doc) = index_document_with("fuzz.pdf", &bytes, &settings, &mut NoProgress, tools) {
        invariants::check(&doc);
    }
});
