//! Reading order: a two-column region (a gutter clear of text down the page) is read column
//! by column, full-width rows keep their place.

use super::*;

/// Which part of the page a line was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Side {
    /// The whole width: a page without columns, or a row outside or across them.
    #[default]
    Whole,
    Left,
    Right,
}

/// The order rows (and, in two-column regions, halves of rows) are read in: each item is a
/// row index, the range of its segments and the side it was read from. Rows outside the
/// two-column region (a table or full-width prose above the columns) and rows that cross
/// the gutter keep their place.
pub(super) fn reading_order(
    rows: &[Vec<Segment>],
    page_width: f32,
) -> Vec<(usize, Range<usize>, Side)> {
    let whole = |i: usize, segs: &Vec<Segment>| (i, 0..segs.len(), Side::Whole);
    let Some(Gutter {
        at: gutter,
        rows: region,
    }) = find_gutter(rows, page_width)
    else {
        return rows.iter().enumerate().map(|(i, s)| whole(i, s)).collect();
    };
    let mut out = Vec::with_capacity(rows.len() * 2);
    let mut left_col: Vec<(usize, Range<usize>, Side)> = Vec::new();
    let mut right_col: Vec<(usize, Range<usize>, Side)> = Vec::new();
    for (i, segs) in rows.iter().enumerate() {
        let spans_gutter = segs.iter().any(|s| s.left < gutter && s.right > gutter);
        if spans_gutter || !region.contains(&i) {
            out.append(&mut left_col);
            out.append(&mut right_col);
            out.push(whole(i, segs));
            continue;
        }
        let split = segs.iter().take_while(|s| s.right <= gutter).count();
        if split > 0 {
            left_col.push((i, 0..split, Side::Left));
        }
        if split < segs.len() {
            right_col.push((i, split..segs.len(), Side::Right));
        }
    }
    out.append(&mut left_col);
    out.append(&mut right_col);
    out
}

/// Where a page's two columns are parted, and the rows they run over.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Gutter {
    pub(super) at: f32,
    pub(super) rows: Range<usize>,
}

/// A vertical gutter with columns of prose on both sides of it: the middle of the strip no
/// left-column text crosses and no right-column text starts before. Found from rows that
/// hold a line of each column, or, where the columns' baselines do not line up (each row
/// then holds one column's line), from the lines of each side.
pub(super) fn find_gutter(rows: &[Vec<Segment>], page_width: f32) -> Option<Gutter> {
    gutter_of_paired_rows(rows, page_width).or_else(|| {
        gutter_of_offset_columns(rows, page_width).map(|at| Gutter {
            at,
            rows: 0..rows.len(),
        })
    })
}

/// A line of prose: three words or more, a quarter of the page wide.
fn is_prose_line(s: &Segment, page_width: f32) -> bool {
    s.text.split(' ').filter(|w| w.len() > 1).count() >= 3 && s.right - s.left > 0.25 * page_width
}

fn central(gutter: f32, page_width: f32) -> bool {
    gutter > 0.3 * page_width && gutter < 0.7 * page_width
}

/// Rows holding a prose line on each side: the columns run from the first such row to the
/// last (a table or full-width text above or below them is not split), and such rows must
/// be at least three in ten of the rows there.
fn gutter_of_paired_rows(rows: &[Vec<Segment>], page_width: f32) -> Option<Gutter> {
    let mut pairs: Vec<(usize, f32, f32)> = Vec::new();
    for (i, segs) in rows.iter().enumerate() {
        if segs.len() != 2 {
            continue;
        }
        let (a, b) = (&segs[0], &segs[1]);
        if is_prose_line(a, page_width) && is_prose_line(b, page_width) {
            pairs.push((i, a.right, b.left));
        }
    }
    let (first, last) = (pairs.first()?.0, pairs.last()?.0);
    let region = first..last + 1;
    let rows_there = rows[region.clone()]
        .iter()
        .filter(|s| !s.is_empty())
        .count();
    if pairs.len() < 6 || pairs.len() * 10 < rows_there * 3 {
        return None;
    }
    let left_edge = pairs.iter().map(|p| p.1).fold(f32::MIN, f32::max);
    let right_edge = pairs.iter().map(|p| p.2).fold(f32::MAX, f32::min);
    let at = (left_edge + right_edge) / 2.0;
    // The region's last rows may hold one column's closing lines only.
    let rows = first
        ..(last + 1..rows.len())
            .find(|&i| rows[i].iter().any(|s| s.left < at && s.right > at))
            .unwrap_or(rows.len());
    (left_edge < right_edge && central(at, page_width)).then_some(Gutter { at, rows })
}

/// Two columns set on baselines that do not line up: many prose lines end left of the
/// middle, many start right of it, a clear strip lies between, and hardly any prose line
/// crosses it (a full-width heading or paragraph may).
fn gutter_of_offset_columns(rows: &[Vec<Segment>], page_width: f32) -> Option<f32> {
    let prose: Vec<&Segment> = rows
        .iter()
        .flatten()
        .filter(|s| is_prose_line(s, page_width))
        .collect();
    let middle = page_width / 2.0;
    let left: Vec<&&Segment> = prose.iter().filter(|s| s.right < middle).collect();
    let right: Vec<&&Segment> = prose.iter().filter(|s| s.left > middle).collect();
    if left.len() < 8 || right.len() < 8 {
        return None;
    }
    let left_edge = left.iter().map(|s| s.right).fold(f32::MIN, f32::max);
    let right_edge = right.iter().map(|s| s.left).fold(f32::MAX, f32::min);
    let gutter = (left_edge + right_edge) / 2.0;
    let crossing = prose
        .iter()
        .filter(|s| s.left < gutter && s.right > gutter)
        .count();
    let columns = left.len().min(right.len());
    (left_edge < right_edge && central(gutter, page_width) && crossing * 4 < columns)
        .then_some(gutter)
}
