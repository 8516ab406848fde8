//! Putting a drawing on its page. draw.io units are taken as points (1 unit = 1 pt, as
//! draw.io's own PDF export does), so a drawing keeps its numbers. The page is what the
//! drawing covers plus a margin, as draw.io's viewer and its cropped export show a diagram:
//! the diagram's paper size (`pageWidth`, A4 by default) is only the editor's background
//! grid, and a drawing in one corner of it would otherwise come out small on a large white
//! page. An empty diagram keeps its paper size. A page larger than the model allows is
//! scaled down.

use quire_sdk::placement::Placement;
use quire_sdk::validate::MAX_PAGE_SIDE;
use quire_sdk::{Page, Rect, Segment, Shape};

pub const MARGIN: f64 = 20.0;
/// draw.io's default page (A4 at its 100 units per inch).
pub const DEFAULT_PAGE: (f64, f64) = (827.0, 1169.0);

/// The bounding box of everything drawn.
pub fn bounds(shapes: &[Shape]) -> Option<Rect> {
    let mut b: Option<(f64, f64, f64, f64)> = None;
    let mut add = |x: f64, y: f64| {
        b = Some(match b {
            None => (x, y, x, y),
            Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
        });
    };
    for s in quire_sdk::ShapeWalk::new(shapes) {
        match s {
            Shape::Connector(c) => {
                for p in c
                    .waypoints
                    .iter()
                    .chain(c.from.point.iter())
                    .chain(c.to.point.iter())
                {
                    add(p.x, p.y);
                }
            }
            Shape::Path(p) => {
                // A path's stroke reaches half its width past the outline; a picture made
                // of the path covers that too, so both measure the same.
                let half = p.stroke.map(|s| s.width / 2.0).unwrap_or(0.0);
                let mut add = |x: f64, y: f64| {
                    add(x - half, y - half);
                    add(x + half, y + half);
                };
                for seg in &p.segments {
                    match *seg {
                        Segment::MoveTo { x, y } | Segment::LineTo { x, y } => add(x, y),
                        Segment::CubicTo {
                            x1,
                            y1,
                            x2,
                            y2,
                            x,
                            y,
                        } => {
                            add(x1, y1);
                            add(x2, y2);
                            add(x, y);
                        }
                        Segment::Close => {}
                    }
                }
            }
            other => {
                if let Some(f) = other.frame() {
                    add(f.x, f.y);
                    add(f.right(), f.bottom());
                }
            }
        }
    }
    b.map(|(x0, y0, x1, y1)| Rect::new(x0, y0, x1 - x0, y1 - y0))
}

/// Chooses the page and moves the shapes onto it. Answers a sentence when the drawing had
/// to be scaled down.
pub fn place(
    shapes: Vec<Shape>,
    page_size: Option<(f64, f64)>,
    pageless: bool,
) -> (Page, Option<String>) {
    let content = bounds(&shapes);
    let Some(b) = content else {
        let (w, h) = page_size.filter(|_| !pageless).unwrap_or(DEFAULT_PAGE);
        let mut page = Page::new(w.min(MAX_PAGE_SIDE), h.min(MAX_PAGE_SIDE));
        page.shapes = shapes;
        return (page, None);
    };
    // The margin is the page's, at full size even when the drawing is scaled down: the
    // page of a drawing read back from its own export comes out the same.
    let room = MAX_PAGE_SIDE - 2.0 * MARGIN;
    let scale = (room / b.w.max(1.0)).min(room / b.h.max(1.0)).min(1.0);
    let mut shapes = shapes;
    Placement {
        scale,
        dx: MARGIN - b.x * scale,
        dy: MARGIN - b.y * scale,
    }
    .shapes(&mut shapes);
    let (w, h) = (b.w.max(1.0), b.h.max(1.0));
    let side = |extent: f64| (extent * scale + 2.0 * MARGIN).min(MAX_PAGE_SIDE);
    let mut page = Page::new(side(w), side(h));
    page.shapes = shapes;
    let note = (scale < 1.0).then(|| {
        format!(
            "the drawing is {w:.0} x {h:.0} units, larger than a page may be; it was scaled \
             to {:.0}%",
            scale * 100.0
        )
    });
    (page, note)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quire_sdk::{Geometry, Node};

    fn node(x: f64, y: f64) -> Shape {
        Shape::Node(Node {
            shadow: false,
            id: format!("{x},{y}"),
            frame: Rect::new(x, y, 10.0, 10.0),
            geometry: Geometry::Rect,
            fill: None,
            stroke: None,
            text: None,
            classes: Vec::new(),
        })
    }

    /// The page is the drawing plus a margin wherever it lies on the paper, as draw.io's
    /// viewer shows it (the finding: a small drawing on a large white page).
    #[test]
    fn the_page_is_the_drawing_and_its_margin() {
        let (page, note) = place(vec![node(300.0, 400.0)], Some((827.0, 1169.0)), false);
        assert_eq!((page.width, page.height), (50.0, 50.0));
        assert_eq!(page.shapes[0].frame().unwrap().x, MARGIN);
        assert!(note.is_none());
        let (page, _) = place(
            vec![node(-30.0, 10.0), node(90.0, 30.0)],
            Some((100.0, 50.0)),
            false,
        );
        assert_eq!((page.width, page.height), (170.0, 70.0));
        assert_eq!(page.shapes[0].frame().unwrap().x, MARGIN);
        // Nothing drawn: the diagram's paper.
        let (page, _) = place(Vec::new(), Some((100.0, 50.0)), false);
        assert_eq!((page.width, page.height), (100.0, 50.0));
        let (page, _) = place(Vec::new(), Some((100.0, 50.0)), true);
        assert_eq!((page.width, page.height), DEFAULT_PAGE);
    }

    #[test]
    fn scales_a_huge_drawing_down() {
        let (page, note) = place(vec![node(0.0, 0.0), node(40_000.0, 0.0)], None, true);
        assert!(page.width <= MAX_PAGE_SIDE);
        assert!(note.unwrap().contains('%'));
    }
}
