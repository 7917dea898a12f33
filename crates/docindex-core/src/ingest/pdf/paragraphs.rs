//! Lines into blocks: paragraphs joined across line breaks (and columns), list items and
//! Item headings kept apart, table rows as rows.

use super::*;

pub(super) static LIST_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[•●▪■◦○\-–—*]\s|\(?[a-z0-9]{1,3}\)\s|\d{1,2}\.\s|(?i:item|part|note)\s+[0-9IVX]+)",
    )
    .unwrap_or_else(|_| unreachable!())
});

pub(super) static ITEM_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^item\s+\d{1,2}[A-C]?\.?\s").unwrap_or_else(|_| unreachable!())
});

/// Lines of one page to blocks: table rows stay one line each, prose lines join into
/// paragraphs (hyphenated words rejoined), headings stand alone.
pub(super) fn paragraphs(
    lines: &[&Line],
    page: &LaidPage,
    raw: &mut Vec<RawBlock>,
    tops: &mut Vec<f32>,
    table_id: &mut u32,
) {
    let page_left = lines.iter().map(|l| l.rect.left).fold(f32::MAX, f32::min);
    let page_right = lines.iter().map(|l| l.rect.right).fold(0.0f32, f32::max);
    let slack = 0.05 * (page_right - page_left).max(1.0);
    // The right edge of the column a line sits in: the widest line of the same side of the
    // page starting where it starts (a page's full-width paragraphs above a two-column
    // region do not widen its left column).
    let column_of = |at: usize| -> (f32, f32) {
        let line = lines[at];
        let right = lines
            .iter()
            .filter(|l| {
                (l.rect.left - line.rect.left).abs() < slack && !l.is_row && l.side == line.side
            })
            .map(|l| l.rect.right)
            .fold(line.rect.right, f32::max);
        (right, (right - line.rect.left).max(1.0))
    };
    let mut prev: Option<(usize, &Line)> = None;
    let mut in_table = false;
    for (at, &line) in lines.iter().enumerate() {
        let joins = match prev {
            Some((p_at, p)) if !p.is_row && !line.is_row => {
                let (column_right, width) = column_of(p_at);
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
                    let end = block.text.len();
                    block.glyphs.retain(|(off, _)| *off < end);
                } else {
                    block.text.push(' ');
                }
                let base = block.text.len();
                block.text.push_str(&line.text);
                block
                    .glyphs
                    .extend(line.glyphs.iter().map(|&(off, rect)| (base + off, rect)));
                block.links.extend(
                    line.links
                        .iter()
                        .map(|(h, r)| (h.clone(), base + r.start..base + r.end)),
                );
                prev = Some((at, line));
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
            glyphs: line.glyphs.clone(),
            page: Some(page.number),
            ..RawBlock::default()
        });
        tops.push(line.rect.top);
        prev = Some((at, line));
    }
}

/// Whether `next` continues the paragraph `prev` ends: close below it, same type size and
/// weight, and `prev` is not the short last line of a paragraph.
pub(super) fn continues_paragraph(prev: &Line, next: &Line, column_right: f32, width: f32) -> bool {
    let size = prev.font_size.max(next.font_size);
    let leading = prev.baseline - next.baseline;
    // The top of the next column: a sentence cut at the foot of the last one goes on there
    // in lower case, in the same type.
    let next_column = leading < 0.0
        && next.rect.left > prev.rect.right
        && next.text.starts_with(char::is_lowercase)
        && !prev.text.trim_end().ends_with(['.', ':', ';', '?', '!'])
        && (prev.font_size - next.font_size).abs() <= 0.6
        && prev.bold == next.bold;
    if next_column {
        return true;
    }
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
