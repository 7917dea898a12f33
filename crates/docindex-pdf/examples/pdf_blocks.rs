//! Debug aid: print the canonical blocks of a PDF with their pages, kinds and styles.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_core::ingest::pdf::{PdfAssembler, PdfLimits, PdfReader};
use docindex_pdf::PdfiumReader;

fn main() {
    let path = std::env::args().nth(1).expect("usage: pdf_blocks FILE.pdf");
    let bytes = std::fs::read(&path).unwrap();
    let reader = PdfiumReader::load().unwrap();
    let started = std::time::Instant::now();
    let mut assembler = PdfAssembler::new();
    let info = reader
        .read(&bytes, PdfLimits::default(), &mut |page, _| {
            assembler.add_page(page);
            Ok(())
        })
        .unwrap();
    let read = started.elapsed();
    let c = assembler.finish(&info).unwrap();
    eprintln!(
        "{} pages, read {:?}, total {:?}, {} blocks, {} chars, outline {}, images {}, links {}",
        info.page_count,
        read,
        started.elapsed(),
        c.blocks.len(),
        c.text.len(),
        c.outline.len(),
        c.images.len(),
        c.links.len()
    );
    for b in &c.blocks {
        println!(
            "p{:<3} {:?}{}{} {:>4.1} | {}",
            b.page.unwrap_or(0),
            b.kind,
            if b.style.bold { " B" } else { "" },
            if b.style.centered { " C" } else { "" },
            b.style.font_size.unwrap_or(0.0),
            &c.text[b.span.clone()]
        );
    }
    for p in &c.pages {
        eprintln!(
            "page {} {:?} label {:?} furniture {:?}",
            p.number, p.span, p.label, p.furniture
        );
    }
}
