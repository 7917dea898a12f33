//! Markdown to canonical text: the source itself is the canonical text (it is already
//! readable); blocks come from pulldown-cmark's events with their source ranges.

use super::{Block, BlockKind, BlockStyle, Canonical, Link};
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// Convert Markdown to canonical text with heading blocks.
pub fn to_canonical(source: &str) -> Canonical {
    let text = source.replace("\r\n", "\n").replace('\r', "\n");
    let mut blocks: Vec<Block> = Vec::new();
    let mut links = Vec::new();
    let mut title = None;
    let mut open_link: Option<(String, usize)> = None;
    let parser = Parser::new_ext(&text, Options::ENABLE_TABLES).into_offset_iter();
    let mut depth = 0usize;
    let mut block_start: Option<(usize, BlockKind)> = None;
    for (event, range) in parser {
        match event {
            Event::Start(tag) => {
                if depth == 0 {
                    let kind = match &tag {
                        Tag::Heading { level, .. } => BlockKind::Heading(heading_level(*level)),
                        Tag::Table(_) => BlockKind::TableRow,
                        _ => BlockKind::Paragraph,
                    };
                    block_start = Some((range.start, kind));
                }
                if let Tag::Link { dest_url, .. } = &tag {
                    open_link = Some((dest_url.to_string(), range.start));
                }
                depth += 1;
            }
            Event::End(end) => {
                depth = depth.saturating_sub(1);
                if let (TagEnd::Link, Some((href, start))) = (&end, open_link.take()) {
                    links.push(Link {
                        href,
                        span: start..range.end,
                        block: blocks.len(),
                    });
                }
                if depth == 0 {
                    if let Some((start, kind)) = block_start.take() {
                        push_block(&text, &mut blocks, start, range.end, kind);
                        if title.is_none() {
                            if let BlockKind::Heading(_) = kind {
                                title = Some(
                                    text[start..range.end]
                                        .trim_start_matches('#')
                                        .trim()
                                        .to_string(),
                                );
                            }
                        }
                    }
                }
            }
            Event::Rule | Event::Html(_) | Event::Text(_) if depth == 0 => {
                push_block(
                    &text,
                    &mut blocks,
                    range.start,
                    range.end,
                    BlockKind::Paragraph,
                );
            }
            _ => {}
        }
    }
    Canonical {
        text,
        blocks,
        links,
        title,
        ..Canonical::default()
    }
}

fn push_block(text: &str, blocks: &mut Vec<Block>, start: usize, end: usize, kind: BlockKind) {
    let slice = &text[start..end];
    let lead = slice.len() - slice.trim_start().len();
    let trimmed = slice.trim().len();
    if trimmed == 0 {
        return;
    }
    blocks.push(Block {
        span: start + lead..start + lead + trimmed,
        kind,
        style: BlockStyle {
            bold: matches!(kind, BlockKind::Heading(_)),
            ..BlockStyle::default()
        },
        table_id: None,
        page_break_before: false,
        has_forward_link: false,
        page: None,
    });
}

fn heading_level(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}
