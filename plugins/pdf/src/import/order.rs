//! Reading order of a page's text boxes, by recursive XY-cut.
//!
//! The order a PDF shows its text in is often not the order it is read in: form-field
//! appearances come after the page, headers and footers come last, tables cell by cell in
//! any order. The model's shape order is what a reader of the model (search, copy, the
//! editor's tab order) follows, so boxes are put in reading order: the page is cut along the
//! widest empty band, horizontal (rows, read top to bottom) or vertical (columns, read left
//! to right), and each part is cut again, until a part has no empty band left.

use quire_sdk::Rect;

/// A vertical band narrower than this (points) is a gap between words, not columns.
const MIN_COLUMN_GAP: f64 = 6.0;
/// Parts are cut at most this deep; deeper ones are read top to bottom, left to right.
const MAX_DEPTH: usize = 48;

/// The indices of `frames` in reading order.
pub fn reading_order(frames: &[Rect]) -> Vec<usize> {
    let mut out = Vec::with_capacity(frames.len());
    let mut all: Vec<usize> = (0..frames.len()).collect();
    cut(frames, &mut all, 0, &mut out);
    out
}

/// The widest empty band between the intervals `spans` (start, end), and where it lies.
fn widest_gap(mut spans: Vec<(f64, f64)>) -> Option<(f64, f64)> {
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut best: Option<(f64, f64)> = None;
    let mut reach = spans.first()?.1;
    for &(start, end) in &spans[1..] {
        let gap = start - reach;
        if gap > 0.0 && best.is_none_or(|(g, _)| gap > g) {
            best = Some((gap, reach + gap / 2.0));
        }
        reach = reach.max(end);
    }
    best
}

/// Whether the boxes left and right of `at` are columns read one after the other: both
/// sides run down the same stretch of the page, and their boxes do not pair up row by row
/// (which makes them a grid, read row by row, like a table or a form).
fn real_columns(frames: &[Rect], items: &[usize], at: f64) -> bool {
    let (left, right): (Vec<usize>, Vec<usize>) = items.iter().partition(|&&i| frames[i].x < at);
    let extent = |side: &[usize]| {
        side.iter().fold((f64::MAX, f64::MIN), |(top, bottom), &i| {
            (top.min(frames[i].y), bottom.max(frames[i].bottom()))
        })
    };
    let ((t1, b1), (t2, b2)) = (extent(&left), extent(&right));
    let shorter = (b1 - t1).min(b2 - t2);
    let overlap = b1.min(b2) - t1.max(t2);
    if overlap < 0.5 * shorter {
        return false;
    }
    let (small, big) = if left.len() <= right.len() {
        (&left, &right)
    } else {
        (&right, &left)
    };
    let paired = small
        .iter()
        .filter(|&&i| big.iter().any(|&j| same_row(&frames[i], &frames[j])))
        .count();
    paired * 10 < small.len() * 6
}

/// Whether two boxes share a row: they overlap vertically by half the shorter one.
fn same_row(a: &Rect, b: &Rect) -> bool {
    let overlap = a.bottom().min(b.bottom()) - a.y.max(b.y);
    overlap >= 0.5 * a.h.min(b.h)
}

fn cut(frames: &[Rect], items: &mut Vec<usize>, depth: usize, out: &mut Vec<usize>) {
    if items.len() <= 1 || depth >= MAX_DEPTH {
        items.sort_by(|&a, &b| {
            let (fa, fb) = (&frames[a], &frames[b]);
            fa.y.total_cmp(&fb.y).then(fa.x.total_cmp(&fb.x))
        });
        out.extend(items.iter().copied());
        return;
    }
    let rows = widest_gap(
        items
            .iter()
            .map(|&i| (frames[i].y, frames[i].bottom()))
            .collect(),
    );
    let cols = widest_gap(
        items
            .iter()
            .map(|&i| (frames[i].x, frames[i].right()))
            .collect(),
    )
    .filter(|(gap, _)| *gap >= MIN_COLUMN_GAP);
    let by_columns = match (rows, cols) {
        (Some((r, _)), Some((c, at))) => c > r && real_columns(frames, items, at),
        (None, Some(_)) => true,
        (_, None) => false,
    };
    let split = if by_columns { cols } else { rows };
    let Some((_, at)) = split else {
        // Nothing separates these boxes: they overlap; read them top to bottom.
        cut(frames, items, MAX_DEPTH, out);
        return;
    };
    let (mut first, mut second): (Vec<usize>, Vec<usize>) = items.iter().partition(|&&i| {
        let f = &frames[i];
        if by_columns {
            f.x < at
        } else {
            f.y < at
        }
    });
    cut(frames, &mut first, depth + 1, out);
    cut(frames, &mut second, depth + 1, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_columns_under_a_title_read_column_by_column() {
        // Paragraphs of two columns end at different heights, so no empty band runs across
        // both columns below the title.
        let frames = [
            Rect::new(300.0, 100.0, 200.0, 30.0), // right column, paragraph 1
            Rect::new(50.0, 100.0, 200.0, 60.0),  // left column, paragraph 1
            Rect::new(50.0, 40.0, 450.0, 20.0),   // title
            Rect::new(50.0, 166.0, 200.0, 40.0),  // left column, paragraph 2
            Rect::new(300.0, 136.0, 200.0, 80.0), // right column, paragraph 2
            Rect::new(50.0, 700.0, 450.0, 10.0),  // footer
        ];
        assert_eq!(reading_order(&frames), vec![2, 1, 3, 0, 4, 5]);
    }

    #[test]
    fn overlapping_boxes_keep_top_to_bottom_order() {
        let frames = [
            Rect::new(0.0, 10.0, 100.0, 50.0),
            Rect::new(20.0, 0.0, 100.0, 50.0),
        ];
        assert_eq!(reading_order(&frames), vec![1, 0]);
    }

    #[test]
    fn grids_read_row_by_row_and_side_notes_do_not_make_columns() {
        let grid = [
            Rect::new(50.0, 100.0, 100.0, 12.0),
            Rect::new(300.0, 100.0, 100.0, 12.0),
            Rect::new(50.0, 130.0, 100.0, 12.0),
            Rect::new(300.0, 130.0, 100.0, 12.0),
        ];
        assert_eq!(reading_order(&grid), vec![0, 1, 2, 3]);
        // A header at the top right and a long form on the left: the header comes first.
        let form = [
            Rect::new(50.0, 40.0, 200.0, 500.0),
            Rect::new(400.0, 10.0, 80.0, 10.0),
        ];
        assert_eq!(reading_order(&form), vec![1, 0]);
    }
}
