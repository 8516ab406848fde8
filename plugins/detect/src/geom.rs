//! Candidates for fields, and the rectangle arithmetic every finder shares.

use quire_sdk::{FieldType, Rect};

/// Where a candidate came from: the model's own shapes are exact, pixels are a guess, so a
/// vector candidate wins when both find the same blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    Vector,
    Pixels,
}

/// A blank found on a page, in page points.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub rect: Rect,
    pub kind: FieldType,
    pub label: String,
    pub source: Source,
}

impl Candidate {
    pub fn new(rect: Rect, kind: FieldType, source: Source) -> Self {
        Candidate {
            rect,
            kind,
            label: String::new(),
            source,
        }
    }
}

pub fn area(r: &Rect) -> f64 {
    r.w.max(0.0) * r.h.max(0.0)
}

pub fn intersection(a: &Rect, b: &Rect) -> f64 {
    let w = a.right().min(b.right()) - a.x.max(b.x);
    let h = a.bottom().min(b.bottom()) - a.y.max(b.y);
    if w > 0.0 && h > 0.0 {
        w * h
    } else {
        0.0
    }
}

pub fn iou(a: &Rect, b: &Rect) -> f64 {
    let inter = intersection(a, b);
    let union = area(a) + area(b) - inter;
    if union > 0.0 {
        inter / union
    } else {
        0.0
    }
}

pub fn contains_point(r: &Rect, x: f64, y: f64) -> bool {
    x >= r.x && x <= r.right() && y >= r.y && y <= r.bottom()
}

/// Whether two boxes are the same blank: they overlap well, or one holds the other's centre.
pub fn same_blank(a: &Rect, b: &Rect) -> bool {
    let (ca, cb) = (a.center(), b.center());
    iou(a, b) >= 0.3 || contains_point(a, cb.x, cb.y) || contains_point(b, ca.x, ca.y)
}

/// `r` cut to the page, or `None` when too little of it is left to hold an answer.
pub fn clip(r: Rect, width: f64, height: f64) -> Option<Rect> {
    if ![r.x, r.y, r.w, r.h].iter().all(|v| v.is_finite()) {
        return None;
    }
    let x0 = r.x.max(0.0);
    let y0 = r.y.max(0.0);
    let x1 = r.right().min(width);
    let y1 = r.bottom().min(height);
    let ok = [x0, y0, x1, y1].iter().all(|v| v.is_finite()) && x1 - x0 >= 1.0 && y1 - y0 >= 1.0;
    ok.then(|| Rect::new(x0, y0, x1 - x0, y1 - y0))
}

/// `r`, on a `width x height` page, where it shows once the page is turned `turns` quarters
/// clockwise for display.
pub fn to_display(r: &Rect, width: f64, height: f64, turns: u8) -> Rect {
    match turns % 4 {
        0 => *r,
        // A point (x, y) shows at (height - y, x).
        1 => Rect::new(height - r.bottom(), r.x, r.h, r.w),
        2 => Rect::new(width - r.right(), height - r.bottom(), r.w, r.h),
        // A point (x, y) shows at (y, width - x).
        _ => Rect::new(r.y, width - r.right(), r.h, r.w),
    }
}

/// Reading order: top to bottom by rows (boxes that share most of their height are one row),
/// left to right within a row. Returns the order as indices into `rects`.
pub fn reading_order(rects: &[Rect]) -> Vec<usize> {
    let mut by_top: Vec<usize> = (0..rects.len()).collect();
    by_top.sort_by(|&a, &b| {
        rects[a]
            .y
            .total_cmp(&rects[b].y)
            .then(rects[a].x.total_cmp(&rects[b].x))
    });
    let mut order = Vec::with_capacity(rects.len());
    let mut row: Vec<usize> = Vec::new();
    // The row's band: the height of its first box.
    let mut band = (0.0, 0.0);
    for i in by_top {
        let r = rects[i];
        let overlap = r.bottom().min(band.1) - r.y.max(band.0);
        let joins = overlap >= 0.5 * r.h.min(band.1 - band.0).max(0.0);
        if !row.is_empty() && !joins {
            flush(&mut row, rects, &mut order);
        }
        if row.is_empty() {
            band = (r.y, r.bottom());
        }
        row.push(i);
    }
    flush(&mut row, rects, &mut order);
    order
}

fn flush(row: &mut Vec<usize>, rects: &[Rect], order: &mut Vec<usize>) {
    row.sort_by(|&a, &b| rects[a].x.total_cmp(&rects[b].x));
    order.append(row);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_measures() {
        let a = Rect::new(0.0, 0.0, 10.0, 10.0);
        let b = Rect::new(5.0, 0.0, 10.0, 10.0);
        assert!((iou(&a, &b) - 50.0 / 150.0).abs() < 1e-9);
        assert!(same_blank(&a, &b));
        let far = Rect::new(30.0, 30.0, 5.0, 5.0);
        assert_eq!(iou(&a, &far), 0.0);
        assert!(!same_blank(&a, &far));
        // A thin box across the middle of a tall one is the same blank.
        let tall = Rect::new(0.0, 0.0, 100.0, 60.0);
        let strip = Rect::new(0.0, 25.0, 100.0, 8.0);
        assert!(same_blank(&tall, &strip));
    }

    #[test]
    fn clip_drops_what_falls_off_the_page() {
        let r = clip(Rect::new(-5.0, 10.0, 20.0, 10.0), 100.0, 100.0).unwrap();
        assert_eq!((r.x, r.w), (0.0, 15.0));
        assert!(clip(Rect::new(120.0, 10.0, 20.0, 10.0), 100.0, 100.0).is_none());
        assert!(clip(Rect::new(f64::NAN, 10.0, 20.0, 10.0), 100.0, 100.0).is_none());
    }

    #[test]
    fn rows_then_columns() {
        let rects = [
            Rect::new(300.0, 101.0, 50.0, 16.0),
            Rect::new(50.0, 100.0, 80.0, 16.0),
            Rect::new(50.0, 140.0, 80.0, 16.0),
            // Slightly higher but on the same row as the first two.
            Rect::new(200.0, 98.0, 10.0, 10.0),
        ];
        assert_eq!(reading_order(&rects), [1, 3, 0, 2]);
    }

    #[test]
    fn display_turns_follow_the_page() {
        // A box near the top left of a 600 x 800 page.
        let r = Rect::new(10.0, 20.0, 30.0, 40.0);
        let shown = |t| {
            let d = to_display(&r, 600.0, 800.0, t);
            (d.x, d.y, d.w, d.h)
        };
        assert_eq!(shown(0), (10.0, 20.0, 30.0, 40.0));
        // Turned clockwise, the page's top left corner is the display's top right.
        assert_eq!(shown(1), (740.0, 10.0, 40.0, 30.0));
        assert_eq!(shown(2), (560.0, 740.0, 30.0, 40.0));
        // Anticlockwise, it is the bottom left.
        assert_eq!(shown(3), (20.0, 560.0, 40.0, 30.0));
    }
}
