//! Reading order: a two-column region (a gutter clear of text down the page) is read column
//! by column, full-width rows keep their place.

use super::*;

/// The order rows (and, in two-column regions, halves of rows) are read in: each item is a
/// row index and the range of its segments.
pub(super) fn reading_order(rows: &[Vec<Segment>], page_width: f32) -> Vec<(usize, Range<usize>)> {
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
pub(super) fn find_gutter(rows: &[Vec<Segment>], page_width: f32) -> Option<f32> {
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
