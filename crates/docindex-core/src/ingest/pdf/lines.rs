//! Glyphs into lines: rows by baseline, segments split at wide gaps, table rows recognised
//! by their cells, run-in headings split off, links attached to the text they cover.

use super::*;

/// A line of text on a page after layout.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Line {
    pub(super) text: String,
    pub(super) rect: Rect,
    pub(super) baseline: f32,
    pub(super) font_size: f32,
    pub(super) bold: bool,
    /// Cells of a table row were found (two or more, with numbers or three or more).
    pub(super) is_row: bool,
    /// The column it was read from, where the page has two.
    pub(super) side: Side,
    /// Links with their byte range in `text`.
    pub(super) links: Vec<(String, Range<usize>)>,
    /// Byte offset in `text` and box of each glyph: links are attached by them, and the
    /// page view's highlights are drawn from them (kept only when the assembler tracks glyphs).
    pub(super) glyphs: Vec<(usize, Rect)>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Segment {
    pub(super) text: String,
    pub(super) left: f32,
    pub(super) right: f32,
    /// Byte offset in `text` and box of each glyph.
    pub(super) glyphs: Vec<(usize, Rect)>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct LaidPage {
    pub(super) number: u32,
    pub(super) width: f32,
    pub(super) height: f32,
    pub(super) lines: Vec<Line>,
    pub(super) images: Vec<Rect>,
    /// Lines set aside as furniture (index into `lines`).
    pub(super) furniture: Vec<usize>,
}

pub(super) fn is_whitespace_glyph(c: char) -> bool {
    c.is_whitespace() || c == '\u{0}' || c == '\u{feff}'
}

/// Group a page's glyphs into lines by baseline, order them left to right, split them into
/// cells at wide gaps, and read two-column regions column by column.
pub(super) fn layout_lines(page: &PdfPage) -> Vec<Line> {
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
        .filter_map(|(row, range, side)| {
            let segs = &segmented[row][range];
            let (baseline, size, bold) = meta[row];
            line_from_segments(segs, baseline, size, bold).map(|line| Line { side, ..line })
        })
        .collect()
}

/// A bold sentence that runs into regular text on the same line (`Risk title. Body text…`)
/// is a heading: it becomes a row of its own so the body joins the paragraph below.
pub(super) fn split_run_in_headings(rows: Vec<Vec<&Glyph>>) -> Vec<Vec<&Glyph>> {
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

pub(super) fn dominant_style(row: &[&Glyph]) -> (f32, bool) {
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
pub(super) fn segments(row: &[&Glyph], size: f32) -> Vec<Segment> {
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
        // `$ 492,212 $ 498,524`: a currency sign after a figure, past a space, opens the next
        // period's cell however tightly the columns sit.
        let next_figure = matches!(g.ch, '$' | '€' | '£' | '¥')
            && prev.is_some_and(|p| p.ch.is_ascii_digit() || matches!(p.ch, ')' | '%'));
        let new_cell = match gap {
            None => true,
            Some(gap) => gap > 1.2 * size || (next_figure && gap > 0.2 * size),
        };
        if new_cell {
            out.push(Segment {
                text: String::new(),
                left: g.rect.left,
                right: g.rect.right,
                glyphs: Vec::new(),
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
        seg.glyphs.push((seg.text.len(), g.rect));
        seg.text.push(ch);
        seg.right = seg.right.max(g.rect.right);
        prev = Some(g);
    }
    out
}

pub(super) static NUMERIC_CELL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[\(\$€£¥]*\s*[-–—]?\s*[\d.,]+\s*\)?\s*%?\)?$|^[-–—$%)(]+$|^\$?\s*\(?[\d,.]+\)?\s*(%|bps|x)?$")
        .unwrap_or_else(|_| unreachable!())
});

pub(super) fn is_numeric_cell(text: &str) -> bool {
    NUMERIC_CELL.is_match(text.trim())
}

pub(super) fn line_from_segments(
    segs: &[Segment],
    baseline: f32,
    size: f32,
    bold: bool,
) -> Option<Line> {
    let first = segs.first()?;
    let is_row =
        segs.len() >= 3 || (segs.len() == 2 && segs.iter().any(|s| is_numeric_cell(&s.text)));
    let mut text = String::new();
    let mut glyphs: Vec<(usize, Rect)> = Vec::new();
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
        glyphs.extend(
            seg.glyphs
                .iter()
                .filter(|(off, _)| *off >= lead && *off < lead + cell.len())
                .map(|&(off, rect)| (base + off - lead, rect)),
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
        side: Side::Whole,
        links: Vec::new(),
        glyphs,
    })
}

/// Give a link the text under its area: the glyphs of each line it covers.
pub(super) fn attach_link(lines: &mut [Line], rect: &Rect, href: &str) {
    for line in lines.iter_mut() {
        let overlap = line.rect.vertical_overlap(rect);
        if overlap < 0.4 * line.rect.height().min(rect.height().max(0.1)) {
            continue;
        }
        let inside: Vec<usize> = line
            .glyphs
            .iter()
            .map(|(off, g)| (*off, (g.left + g.right) / 2.0))
            .filter(|&(_, centre)| centre >= rect.left && centre <= rect.right)
            .map(|(off, _)| off)
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
