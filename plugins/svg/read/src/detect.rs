//! Path geometry: usvg paths in model coordinates (transform applied, quadratics raised to
//! cubics), and the recognition of the figures a diagram editor knows as nodes.
//!
//! usvg turns `<rect>`, `<circle>` and `<ellipse>` into paths, so the figure is recognised
//! from the outline itself: four corners of an axis-aligned box are a rectangle, curves that
//! all lie on the ellipse inscribed in their box are an ellipse, straight edges on the box
//! joined by corner curves are a rounded rectangle. A rotated or skewed figure fails these
//! tests and stays a path, which draws exactly as the SVG did.

use quire_sdk::{Geometry, Point, Rect, Segment};
use usvg::tiny_skia_path::{PathSegment, Transform};

/// From SVG user space to model points: the element's absolute transform, then the uniform
/// scale of pixels to points.
#[derive(Debug, Clone, Copy)]
pub struct Map {
    pub ts: Transform,
    pub k: f64,
}

impl Map {
    pub fn point(&self, x: f32, y: f32) -> Point {
        let t = &self.ts;
        Point {
            x: round((t.sx as f64 * x as f64 + t.kx as f64 * y as f64 + t.tx as f64) * self.k),
            y: round((t.ky as f64 * x as f64 + t.sy as f64 * y as f64 + t.ty as f64) * self.k),
        }
    }

    /// How much lengths grow, for stroke widths and font sizes (the square root of the area
    /// scale, so a non-uniform scale gives the mean).
    pub fn scale(&self) -> f64 {
        let t = &self.ts;
        ((t.sx as f64 * t.sy as f64 - t.kx as f64 * t.ky as f64).abs()).sqrt() * self.k
    }

    /// Whether the transform keeps horizontal text horizontal and unmirrored.
    pub fn upright(&self) -> bool {
        let t = &self.ts;
        t.kx.abs() < 1e-4 * t.sx.abs().max(1e-6)
            && t.ky.abs() < 1e-4 * t.sy.abs().max(1e-6)
            && t.sx > 0.0
            && t.sy > 0.0
    }
}

/// `v` to a thousandth of a point: usvg computes in f32, and its noise (19.999998) is not
/// worth keeping in a model people edit.
pub fn round(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// The path's segments in model points. Returns nothing for a path with no drawable point.
pub fn segments(path: &usvg::tiny_skia_path::Path, map: &Map) -> Vec<Segment> {
    let mut out = Vec::with_capacity(path.len());
    let mut current = Point::default();
    let mut start = Point::default();
    for seg in path.segments() {
        match seg {
            PathSegment::MoveTo(p) => {
                current = map.point(p.x, p.y);
                start = current;
                out.push(Segment::MoveTo {
                    x: current.x,
                    y: current.y,
                });
            }
            PathSegment::LineTo(p) => {
                current = map.point(p.x, p.y);
                out.push(Segment::LineTo {
                    x: current.x,
                    y: current.y,
                });
            }
            PathSegment::QuadTo(c, p) => {
                let (c, p) = (map.point(c.x, c.y), map.point(p.x, p.y));
                // The cubic with control points two thirds of the way to the quadratic's.
                let c1 = lerp(current, c, 2.0 / 3.0);
                let c2 = lerp(p, c, 2.0 / 3.0);
                out.push(cubic(c1, c2, p));
                current = p;
            }
            PathSegment::CubicTo(c1, c2, p) => {
                let (c1, c2, p) = (
                    map.point(c1.x, c1.y),
                    map.point(c2.x, c2.y),
                    map.point(p.x, p.y),
                );
                out.push(cubic(c1, c2, p));
                current = p;
            }
            PathSegment::Close => {
                out.push(Segment::Close);
                current = start;
            }
        }
    }
    if out
        .iter()
        .all(|s| matches!(s, Segment::MoveTo { .. } | Segment::Close))
    {
        out.clear();
    }
    out
}

fn lerp(a: Point, b: Point, t: f64) -> Point {
    Point {
        x: a.x + (b.x - a.x) * t,
        y: a.y + (b.y - a.y) * t,
    }
}

fn cubic(c1: Point, c2: Point, p: Point) -> Segment {
    Segment::CubicTo {
        x1: c1.x,
        y1: c1.y,
        x2: c2.x,
        y2: c2.y,
        x: p.x,
        y: p.y,
    }
}

/// The node an outline draws, if it is one: its geometry and frame.
pub fn node_shape(segments: &[Segment]) -> Option<(Geometry, Rect)> {
    // One closed subpath.
    let (first, rest) = segments.split_first()?;
    let Segment::MoveTo { x, y } = *first else {
        return None;
    };
    let start = Point { x, y };
    let body = match rest.split_last()? {
        (Segment::Close, body) => body,
        _ => return None,
    };
    if body.is_empty()
        || body
            .iter()
            .any(|s| matches!(s, Segment::MoveTo { .. } | Segment::Close))
    {
        return None;
    }
    let frame = quire_sdk::geometry::bounds(segments)?;
    if !(frame.w > 0.0 && frame.h > 0.0) {
        return None;
    }
    let eps = 0.01 * frame.w.max(frame.h) + 0.01;
    let lines = body
        .iter()
        .filter(|s| matches!(s, Segment::LineTo { .. }))
        .count();
    let curves = body.len() - lines;
    if curves == 0 {
        return is_rect(start, body, frame, eps).then_some((Geometry::Rect, frame));
    }
    if lines == 0 && (2..=64).contains(&curves) && on_ellipse(start, body, frame) {
        return Some((Geometry::Ellipse, frame));
    }
    if lines <= 4 && (4..=8).contains(&curves) {
        return rounded(start, body, frame, eps).map(|g| (g, frame));
    }
    None
}

fn near(a: f64, b: f64, eps: f64) -> bool {
    (a - b).abs() <= eps
}

fn end_of(s: &Segment) -> Point {
    match *s {
        Segment::MoveTo { x, y } | Segment::LineTo { x, y } | Segment::CubicTo { x, y, .. } => {
            Point { x, y }
        }
        Segment::Close => Point::default(),
    }
}

/// Four distinct corners of the frame, joined by straight lines.
fn is_rect(start: Point, body: &[Segment], frame: Rect, eps: f64) -> bool {
    let mut corners: Vec<Point> = vec![start];
    for s in body {
        let p = end_of(s);
        let last = corners[corners.len() - 1];
        if !(near(p.x, last.x, eps) && near(p.y, last.y, eps)) {
            corners.push(p);
        }
    }
    if corners.len() == 5 && near(corners[4].x, start.x, eps) && near(corners[4].y, start.y, eps) {
        corners.pop();
    }
    if corners.len() != 4 {
        return false;
    }
    let on_corner = |p: &Point| {
        (near(p.x, frame.x, eps) || near(p.x, frame.right(), eps))
            && (near(p.y, frame.y, eps) || near(p.y, frame.bottom(), eps))
    };
    // Consecutive corners share an x or a y: the edges are horizontal or vertical.
    corners.iter().all(on_corner)
        && (0..4).all(|i| {
            let (a, b) = (corners[i], corners[(i + 1) % 4]);
            near(a.x, b.x, eps) != near(a.y, b.y, eps)
        })
}

/// Every curve's ends and midpoint lie on the ellipse inscribed in the frame.
fn on_ellipse(start: Point, body: &[Segment], frame: Rect) -> bool {
    let c = frame.center();
    let (rx, ry) = (frame.w / 2.0, frame.h / 2.0);
    let off = |p: Point| (((p.x - c.x) / rx).powi(2) + ((p.y - c.y) / ry).powi(2)).sqrt();
    let mut p0 = start;
    for s in body {
        let Segment::CubicTo {
            x1,
            y1,
            x2,
            y2,
            x,
            y,
        } = *s
        else {
            return false;
        };
        let mid = Point {
            x: 0.125 * p0.x + 0.375 * x1 + 0.375 * x2 + 0.125 * x,
            y: 0.125 * p0.y + 0.375 * y1 + 0.375 * y2 + 0.125 * y,
        };
        let p = Point { x, y };
        if [p0, mid, p].iter().any(|q| (off(*q) - 1.0).abs() > 0.02) {
            return false;
        }
        p0 = p;
    }
    true
}

/// Straight edges on the frame's sides joined by corner curves inside it: a rounded
/// rectangle, or a stadium when the corners take the whole short side.
fn rounded(start: Point, body: &[Segment], frame: Rect, eps: f64) -> Option<Geometry> {
    let mut p0 = start;
    let mut radius: f64 = 0.0;
    for s in body {
        let p = end_of(s);
        let on_side = |q: Point| {
            near(q.x, frame.x, eps)
                || near(q.x, frame.right(), eps)
                || near(q.y, frame.y, eps)
                || near(q.y, frame.bottom(), eps)
        };
        match s {
            Segment::LineTo { .. } => {
                let horizontal = near(p.y, p0.y, eps) && near(p.y, frame.y, eps)
                    || near(p.y, p0.y, eps) && near(p.y, frame.bottom(), eps);
                let vertical = near(p.x, p0.x, eps) && near(p.x, frame.x, eps)
                    || near(p.x, p0.x, eps) && near(p.x, frame.right(), eps);
                if !(horizontal || vertical) {
                    return None;
                }
            }
            _ => {
                // A corner curve runs from one side to the next, turning a quarter.
                if !(on_side(p0) && on_side(p)) {
                    return None;
                }
                radius = radius.max((p.x - p0.x).abs().min((p.y - p0.y).abs()));
            }
        }
        p0 = p;
    }
    let short = frame.w.min(frame.h);
    Some(if radius >= short / 2.0 - eps {
        Geometry::Stadium
    } else {
        Geometry::Rounded
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quire_sdk::geometry;

    #[test]
    fn the_sdk_outlines_are_recognised() {
        let frame = Rect::new(10.0, 20.0, 120.0, 60.0);
        let check = |g: Geometry, want: Option<Geometry>| {
            let got = node_shape(&geometry::outline(g, frame)).map(|(g, _)| g);
            assert_eq!(got, want, "{g:?}");
        };
        check(Geometry::Rect, Some(Geometry::Rect));
        check(Geometry::Ellipse, Some(Geometry::Ellipse));
        check(Geometry::Rounded, Some(Geometry::Rounded));
        check(Geometry::Stadium, Some(Geometry::Stadium));
        check(Geometry::Diamond, None);
        check(Geometry::Hexagon, None);
        check(Geometry::Document, None);
        let (_, f) = node_shape(&geometry::rect(frame)).unwrap();
        assert_eq!(f, frame);
    }

    #[test]
    fn a_rotated_square_is_not_a_rectangle() {
        let diamondish = geometry::polygon(&[
            Point { x: 0.0, y: 5.0 },
            Point { x: 5.0, y: 0.0 },
            Point { x: 10.0, y: 5.0 },
            Point { x: 5.0, y: 10.0 },
        ]);
        assert_eq!(node_shape(&diamondish), None);
        // Two subpaths, open paths and degenerate boxes are not nodes either.
        let mut two = geometry::rect(Rect::new(0.0, 0.0, 5.0, 5.0));
        two.extend(geometry::rect(Rect::new(10.0, 0.0, 5.0, 5.0)));
        assert_eq!(node_shape(&two), None);
        let open = &geometry::rect(Rect::new(0.0, 0.0, 5.0, 5.0))[..4];
        assert_eq!(node_shape(open), None);
        assert_eq!(
            node_shape(&geometry::rect(Rect::new(0.0, 0.0, 5.0, 0.0))),
            None
        );
    }
}
