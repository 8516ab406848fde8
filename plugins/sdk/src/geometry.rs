//! Geometry shared by every exporter that draws vectors: the outline of each node
//! [`Geometry`], where text goes inside it, connector routes clipped to the attached shapes,
//! arrowheads and dash patterns.
//!
//! Everything here is a pure function on model types (model coordinates: points, origin top
//! left, y down) and knows nothing about any output format: the PDF, SVG and PNG exporters
//! all draw the same outlines, so a diagram looks the same in each.

use crate::{ArrowHead, Connector, Dash, Geometry, Point, Rect, Segment, Shape};

/// Distance of the control points of a cubic approximating a quarter circle, as a fraction
/// of the radius.
pub const KAPPA: f64 = 0.552_284_749_831;

/// A connector end that sticks out of a shape attached to itself goes this far beyond it.
const SELF_LOOP_REACH: f64 = 20.0;

fn pt(x: f64, y: f64) -> Point {
    Point { x, y }
}

fn mv(p: Point) -> Segment {
    Segment::MoveTo { x: p.x, y: p.y }
}

fn ln(p: Point) -> Segment {
    Segment::LineTo { x: p.x, y: p.y }
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

/// A closed polygon through `points`.
pub fn polygon(points: &[Point]) -> Vec<Segment> {
    let mut out = Vec::with_capacity(points.len() + 1);
    for (i, p) in points.iter().enumerate() {
        out.push(if i == 0 { mv(*p) } else { ln(*p) });
    }
    if !out.is_empty() {
        out.push(Segment::Close);
    }
    out
}

/// A closed rectangle.
pub fn rect(r: Rect) -> Vec<Segment> {
    polygon(&[
        pt(r.x, r.y),
        pt(r.right(), r.y),
        pt(r.right(), r.bottom()),
        pt(r.x, r.bottom()),
    ])
}

/// A closed ellipse of radii `rx`, `ry` around `(cx, cy)`, as four cubics.
pub fn ellipse(cx: f64, cy: f64, rx: f64, ry: f64) -> Vec<Segment> {
    let (kx, ky) = (rx * KAPPA, ry * KAPPA);
    vec![
        mv(pt(cx + rx, cy)),
        cubic(pt(cx + rx, cy + ky), pt(cx + kx, cy + ry), pt(cx, cy + ry)),
        cubic(pt(cx - kx, cy + ry), pt(cx - rx, cy + ky), pt(cx - rx, cy)),
        cubic(pt(cx - rx, cy - ky), pt(cx - kx, cy - ry), pt(cx, cy - ry)),
        cubic(pt(cx + kx, cy - ry), pt(cx + rx, cy - ky), pt(cx + rx, cy)),
        Segment::Close,
    ]
}

/// A closed rectangle with corners rounded by `radius` (clamped to half the shorter side).
pub fn rounded_rect(r: Rect, radius: f64) -> Vec<Segment> {
    let rad = radius.min(r.w / 2.0).min(r.h / 2.0).max(0.0);
    if rad <= 0.0 {
        return rect(r);
    }
    let k = rad * (1.0 - KAPPA);
    let (x0, y0, x1, y1) = (r.x, r.y, r.right(), r.bottom());
    vec![
        mv(pt(x0 + rad, y0)),
        ln(pt(x1 - rad, y0)),
        cubic(pt(x1 - k, y0), pt(x1, y0 + k), pt(x1, y0 + rad)),
        ln(pt(x1, y1 - rad)),
        cubic(pt(x1, y1 - k), pt(x1 - k, y1), pt(x1 - rad, y1)),
        ln(pt(x0 + rad, y1)),
        cubic(pt(x0 + k, y1), pt(x0, y1 - k), pt(x0, y1 - rad)),
        ln(pt(x0, y0 + rad)),
        cubic(pt(x0, y0 + k), pt(x0 + k, y0), pt(x0 + rad, y0)),
        Segment::Close,
    ]
}

/// Corner radius of [`Geometry::Rounded`]: small and fixed, like mermaid's `(text)` boxes,
/// but never more than a fifth of the shorter side so tiny boxes stay boxes.
fn corner_radius(r: Rect) -> f64 {
    (r.w.min(r.h) * 0.2).min(6.0)
}

/// Horizontal slant of parallelograms and trapezoids.
fn slant(r: Rect) -> f64 {
    (r.h / 3.0).min(r.w / 3.0)
}

/// Half height of the ellipses closing a cylinder.
fn cylinder_cap(r: Rect) -> f64 {
    (r.h / 8.0).min(r.w / 4.0)
}

/// Height of the wave at the bottom of a document shape (peak to baseline).
fn wave(r: Rect) -> f64 {
    r.h / 10.0
}

/// Inset of the inner bars of a subroutine, and of the inner ring of a double circle.
fn bar_inset(r: Rect) -> f64 {
    (r.w / 8.0).min(8.0)
}

fn ring_inset(diameter: f64) -> f64 {
    (diameter * 0.08).clamp(0.0, 5.0)
}

/// Size of the folded corner of a note.
fn fold(r: Rect) -> f64 {
    (r.w / 4.0).min(r.h / 4.0).min(12.0)
}

/// Notch depth of a flag (mermaid's asymmetric `>text]` shape).
fn notch(r: Rect) -> f64 {
    (r.h / 2.0).min(r.w / 4.0)
}

/// The circle of [`Geometry::Circle`] and [`Geometry::DoubleCircle`]: centred in the frame,
/// as wide as the frame's shorter side.
fn circle_radius(r: Rect) -> f64 {
    r.w.min(r.h) / 2.0
}

/// The closed outline of `geometry` drawn in `frame`: what is filled and stroked, and what
/// connectors are clipped to. Degenerate frames (zero width or height) give degenerate but
/// well-formed outlines.
pub fn outline(geometry: Geometry, frame: Rect) -> Vec<Segment> {
    let r = frame;
    let (x0, y0, x1, y1) = (r.x, r.y, r.right(), r.bottom());
    let c = r.center();
    match geometry {
        Geometry::Rect | Geometry::Subroutine => rect(r),
        Geometry::Rounded => rounded_rect(r, corner_radius(r)),
        Geometry::Stadium => rounded_rect(r, r.w.min(r.h) / 2.0),
        Geometry::Ellipse => ellipse(c.x, c.y, r.w / 2.0, r.h / 2.0),
        Geometry::Circle | Geometry::DoubleCircle => {
            let rad = circle_radius(r);
            ellipse(c.x, c.y, rad, rad)
        }
        Geometry::Diamond => polygon(&[pt(c.x, y0), pt(x1, c.y), pt(c.x, y1), pt(x0, c.y)]),
        Geometry::Hexagon => {
            let m = (r.h / 4.0).min(r.w / 2.0);
            polygon(&[
                pt(x0 + m, y0),
                pt(x1 - m, y0),
                pt(x1, c.y),
                pt(x1 - m, y1),
                pt(x0 + m, y1),
                pt(x0, c.y),
            ])
        }
        Geometry::Parallelogram => {
            let s = slant(r);
            polygon(&[pt(x0 + s, y0), pt(x1, y0), pt(x1 - s, y1), pt(x0, y1)])
        }
        Geometry::ParallelogramAlt => {
            let s = slant(r);
            polygon(&[pt(x0, y0), pt(x1 - s, y0), pt(x1, y1), pt(x0 + s, y1)])
        }
        Geometry::Trapezoid => {
            let s = slant(r);
            polygon(&[pt(x0 + s, y0), pt(x1 - s, y0), pt(x1, y1), pt(x0, y1)])
        }
        Geometry::TrapezoidAlt => {
            let s = slant(r);
            polygon(&[pt(x0, y0), pt(x1, y0), pt(x1 - s, y1), pt(x0 + s, y1)])
        }
        Geometry::Cylinder => {
            let (rx, ry) = (r.w / 2.0, cylinder_cap(r));
            let (kx, ky) = (rx * KAPPA, ry * KAPPA);
            vec![
                mv(pt(x0, y0 + ry)),
                // Back half of the top ellipse, over the top.
                cubic(pt(x0, y0 + ry - ky), pt(c.x - kx, y0), pt(c.x, y0)),
                cubic(pt(c.x + kx, y0), pt(x1, y0 + ry - ky), pt(x1, y0 + ry)),
                ln(pt(x1, y1 - ry)),
                // Front half of the bottom ellipse.
                cubic(pt(x1, y1 - ry + ky), pt(c.x + kx, y1), pt(c.x, y1)),
                cubic(pt(c.x - kx, y1), pt(x0, y1 - ry + ky), pt(x0, y1 - ry)),
                Segment::Close,
            ]
        }
        Geometry::Document => {
            // An S-shaped bottom edge: a cubic whose control points sit `k` above and below
            // the baseline bulges by 0.289 k, so k = a / 0.289 makes the wave reach the
            // bottom of the frame exactly.
            let a = wave(r);
            let base = y1 - a;
            let k = a / 0.2887;
            vec![
                mv(pt(x0, y0)),
                ln(pt(x1, y0)),
                ln(pt(x1, base)),
                cubic(
                    pt(x1 - r.w / 3.0, base - k),
                    pt(x0 + r.w / 3.0, base + k),
                    pt(x0, base),
                ),
                Segment::Close,
            ]
        }
        Geometry::Triangle => polygon(&[pt(c.x, y0), pt(x1, y1), pt(x0, y1)]),
        Geometry::Flag => {
            let n = notch(r);
            polygon(&[
                pt(x0, y0),
                pt(x1, y0),
                pt(x1, y1),
                pt(x0, y1),
                pt(x0 + n, c.y),
            ])
        }
        Geometry::Note => {
            let f = fold(r);
            polygon(&[
                pt(x0, y0),
                pt(x1 - f, y0),
                pt(x1, y0 + f),
                pt(x1, y1),
                pt(x0, y1),
            ])
        }
    }
}

/// Lines drawn inside the outline with the stroke only (never filled): the front rim of a
/// cylinder, the bars of a subroutine, the inner ring of a double circle, the fold of a note.
/// Empty for geometries that have none.
pub fn details(geometry: Geometry, frame: Rect) -> Vec<Segment> {
    let r = frame;
    let c = r.center();
    match geometry {
        Geometry::Cylinder => {
            let (rx, ry) = (r.w / 2.0, cylinder_cap(r));
            let (kx, ky) = (rx * KAPPA, ry * KAPPA);
            let top = r.y + ry;
            vec![
                mv(pt(r.x, top)),
                cubic(pt(r.x, top + ky), pt(c.x - kx, top + ry), pt(c.x, top + ry)),
                cubic(
                    pt(c.x + kx, top + ry),
                    pt(r.right(), top + ky),
                    pt(r.right(), top),
                ),
            ]
        }
        Geometry::Subroutine => {
            let i = bar_inset(r);
            vec![
                mv(pt(r.x + i, r.y)),
                ln(pt(r.x + i, r.bottom())),
                mv(pt(r.right() - i, r.y)),
                ln(pt(r.right() - i, r.bottom())),
            ]
        }
        Geometry::DoubleCircle => {
            let rad = circle_radius(r);
            let inner = rad - ring_inset(rad * 2.0);
            if inner > 0.0 {
                ellipse(c.x, c.y, inner, inner)
            } else {
                Vec::new()
            }
        }
        Geometry::Note => {
            let f = fold(r);
            vec![
                mv(pt(r.right() - f, r.y)),
                ln(pt(r.right() - f, r.y + f)),
                ln(pt(r.right(), r.y + f)),
            ]
        }
        _ => Vec::new(),
    }
}

/// Default padding between a node's outline and its text.
const TEXT_PAD: f64 = 4.0;

/// The box text is laid out in inside a node: the largest convenient rectangle within the
/// outline, less a small padding. Text is wrapped at this box's width; it may overflow its
/// height (it is never clipped, so nothing is lost).
pub fn text_area(geometry: Geometry, frame: Rect) -> Rect {
    let r = frame;
    let inset = |dx: f64, top: f64, bottom: f64| -> Rect {
        let dx = dx.min(r.w / 2.0).max(0.0);
        let (top, bottom) = (top.max(0.0), bottom.max(0.0));
        let h = (r.h - top - bottom).max(0.0);
        Rect::new(r.x + dx, r.y + top.min(r.h), r.w - 2.0 * dx, h)
    };
    let pad = TEXT_PAD.min(r.w / 4.0).min(r.h / 4.0).max(0.0);
    match geometry {
        Geometry::Rect | Geometry::Rounded => inset(pad, pad, pad),
        Geometry::Stadium => inset(r.w.min(r.h) / 2.0, pad, pad),
        // The rectangle inscribed in an ellipse at 45 degrees is 1/sqrt(2) of its axes; a
        // little more is allowed because text lines rarely fill their corners.
        Geometry::Ellipse => inset(r.w * 0.15, r.h * 0.15, r.h * 0.15),
        Geometry::Circle | Geometry::DoubleCircle => {
            let d = circle_radius(r) * 2.0;
            let side = d * 0.75;
            let c = r.center();
            Rect::new(c.x - side / 2.0, c.y - side / 2.0, side, side)
        }
        Geometry::Diamond => inset(r.w / 4.0, r.h / 4.0, r.h / 4.0),
        Geometry::Hexagon => inset((r.h / 4.0).min(r.w / 2.0), pad, pad),
        Geometry::Parallelogram
        | Geometry::ParallelogramAlt
        | Geometry::Trapezoid
        | Geometry::TrapezoidAlt => inset(slant(r), pad, pad),
        Geometry::Cylinder => {
            let ry = cylinder_cap(r);
            inset(pad, 2.0 * ry + pad / 2.0, ry + pad / 2.0)
        }
        Geometry::Subroutine => inset(bar_inset(r) + pad, pad, pad),
        Geometry::Document => inset(pad, pad, 2.0 * wave(r)),
        Geometry::Triangle => inset(r.w / 4.0, r.h / 2.0, pad),
        Geometry::Flag => {
            let n = notch(r);
            let a = inset(pad, pad, pad);
            Rect::new(a.x + n, a.y, (a.w - n).max(0.0), a.h)
        }
        Geometry::Note => {
            let a = inset(pad, pad, pad);
            Rect::new(a.x, a.y, (a.w - fold(r)).max(0.0), a.h)
        }
    }
}

/// Cubics are cut into this many straight pieces when an outline is flattened.
const CUBIC_STEPS: usize = 16;

/// The outline as straight polylines, one per subpath (closed subpaths end at their start).
pub fn flatten(segments: &[Segment]) -> Vec<Vec<Point>> {
    let mut out: Vec<Vec<Point>> = Vec::new();
    let mut current: Vec<Point> = Vec::new();
    for seg in segments {
        match *seg {
            Segment::MoveTo { x, y } => {
                if current.len() > 1 {
                    out.push(std::mem::take(&mut current));
                }
                current = vec![pt(x, y)];
            }
            Segment::LineTo { x, y } => current.push(pt(x, y)),
            Segment::CubicTo {
                x1,
                y1,
                x2,
                y2,
                x,
                y,
            } => {
                let Some(&p0) = current.last() else {
                    current.push(pt(x, y));
                    continue;
                };
                for i in 1..=CUBIC_STEPS {
                    let t = i as f64 / CUBIC_STEPS as f64;
                    let u = 1.0 - t;
                    let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                    current.push(pt(
                        a * p0.x + b * x1 + c * x2 + d * x,
                        a * p0.y + b * y1 + c * y2 + d * y,
                    ));
                }
            }
            Segment::Close => {
                if let Some(&first) = current.first() {
                    current.push(first);
                    out.push(std::mem::take(&mut current));
                    // A segment after `close` continues from the subpath's start.
                    current.push(first);
                }
            }
        }
    }
    if current.len() > 1 {
        out.push(current);
    }
    out
}

/// Bounding box of a list of segments (control points included), if it has any point.
pub fn bounds(segments: &[Segment]) -> Option<Rect> {
    let mut pts = Vec::new();
    for seg in segments {
        match *seg {
            Segment::MoveTo { x, y } | Segment::LineTo { x, y } => pts.push(pt(x, y)),
            Segment::CubicTo {
                x1,
                y1,
                x2,
                y2,
                x,
                y,
            } => {
                pts.extend([pt(x1, y1), pt(x2, y2), pt(x, y)]);
            }
            Segment::Close => {}
        }
    }
    points_bounds(&pts)
}

/// The smallest rectangle holding every one of `points`; `None` for none.
pub fn points_bounds(points: &[Point]) -> Option<Rect> {
    let first = *points.first()?;
    let (mut x0, mut y0, mut x1, mut y1) = (first.x, first.y, first.x, first.y);
    for p in points {
        x0 = x0.min(p.x);
        y0 = y0.min(p.y);
        x1 = x1.max(p.x);
        y1 = y1.max(p.y);
    }
    Some(Rect::new(x0, y0, x1 - x0, y1 - y0))
}

/// Where the ray from `centre` towards `toward` leaves the outline: its outermost crossing,
/// so a non-convex outline (flag, document) still gives the point a viewer sees the line
/// touch. Returns `centre` when the ray is degenerate or never crosses the outline.
pub fn boundary_point(outline: &[Segment], centre: Point, toward: Point) -> Point {
    let (dx, dy) = (toward.x - centre.x, toward.y - centre.y);
    if dx.hypot(dy) < 1e-9 {
        return centre;
    }
    let mut best: Option<f64> = None;
    for poly in flatten(outline) {
        for w in poly.windows(2) {
            let (p, q) = (w[0], w[1]);
            let (ex, ey) = (q.x - p.x, q.y - p.y);
            let denom = dx * ey - dy * ex;
            if denom.abs() < 1e-12 {
                continue;
            }
            // centre + t*d = p + s*e, solved by Cramer's rule.
            let (fx, fy) = (p.x - centre.x, p.y - centre.y);
            let t = (fx * ey - fy * ex) / denom;
            let s = (fx * dy - fy * dx) / denom;
            if t >= 0.0 && (-1e-9..=1.0 + 1e-9).contains(&s) && best.is_none_or(|b| t > b) {
                best = Some(t);
            }
        }
    }
    match best {
        Some(t) => pt(centre.x + t * dx, centre.y + t * dy),
        None => centre,
    }
}

/// What a connector end can be attached to: a centre and the outline it is clipped to.
#[derive(Debug, Clone, PartialEq)]
pub struct Anchor {
    pub centre: Point,
    pub outline: Vec<Segment>,
    /// The outline's bounding box, used to route a connector from a shape to itself.
    pub frame: Rect,
}

/// The anchor of a shape as it stands now: nodes by their geometry, text, pictures and
/// groups by their frame, paths by their bounding box. Connectors are not anchors.
pub fn anchor_of(shape: &Shape) -> Option<Anchor> {
    let (frame, outline) = match shape {
        Shape::Node(n) => (n.frame, outline(n.geometry, n.frame)),
        Shape::Text(t) => (t.frame, rect(t.frame)),
        Shape::Image(i) => (i.frame, rect(i.frame)),
        Shape::Group(g) => (g.frame, rect(g.frame)),
        Shape::Path(p) => {
            let b = bounds(&p.segments)?;
            (b, rect(b))
        }
        Shape::Connector(_) => return None,
    };
    Some(Anchor {
        centre: frame.center(),
        outline,
        frame,
    })
}

/// The points a connector is drawn through: its start on the boundary of the `from` shape
/// (or its loose point), its waypoints, its end on the boundary of the `to` shape. An
/// attached end is its port on the shape's current frame when it has one, otherwise where
/// the line from the neighbouring point (the next waypoint, or the other end) towards the
/// shape's centre crosses the shape's outline. `None` when an end has neither a resolvable shape nor a point.
pub fn connector_route<'a>(
    connector: &Connector,
    anchor: impl Fn(&str) -> Option<&'a Anchor>,
) -> Option<Vec<Point>> {
    // An end fixed at a port of its shape is that point, and what the other end aims at.
    let resolve = |end: &crate::End| -> Option<(Point, Option<&'a Anchor>)> {
        if let Some(a) = end.shape.as_deref().and_then(&anchor) {
            if let Some(port) = end.port {
                let at = pt(
                    a.frame.x + port.x * a.frame.w,
                    a.frame.y + port.y * a.frame.h,
                );
                return Some((at, None));
            }
            return Some((a.centre, Some(a)));
        }
        end.point.map(|p| (p, None))
    };
    let (from_ref, from_anchor) = resolve(&connector.from)?;
    let (to_ref, to_anchor) = resolve(&connector.to)?;
    let mut waypoints = connector.waypoints.clone();
    if waypoints.is_empty() {
        if let (Some(a), Some(b)) = (from_anchor, to_anchor) {
            if a == b {
                // A shape connected to itself: loop out of its right side and back.
                let x = a.frame.right() + SELF_LOOP_REACH;
                let c = a.centre;
                let dy = (a.frame.h / 4.0).max(SELF_LOOP_REACH / 2.0);
                waypoints = vec![pt(x, c.y - dy), pt(x, c.y + dy)];
            }
        }
    }
    let from_next = waypoints.first().copied().unwrap_or(to_ref);
    let to_prev = waypoints.last().copied().unwrap_or(from_ref);
    let start = match from_anchor {
        Some(a) => boundary_point(&a.outline, a.centre, from_next),
        None => from_ref,
    };
    let end = match to_anchor {
        Some(a) => boundary_point(&a.outline, a.centre, to_prev),
        None => to_ref,
    };
    let mut points = Vec::with_capacity(waypoints.len() + 2);
    points.push(start);
    points.extend(waypoints);
    points.push(end);
    Some(points)
}

/// The point halfway along a polyline, where a connector's label is centred.
pub fn polyline_midpoint(points: &[Point]) -> Option<Point> {
    let first = *points.first()?;
    let total: f64 = points.windows(2).map(|w| dist(w[0], w[1])).sum();
    let mut left = total / 2.0;
    for w in points.windows(2) {
        let d = dist(w[0], w[1]);
        if d > 0.0 && left <= d {
            let t = left / d;
            return Some(pt(
                w[0].x + t * (w[1].x - w[0].x),
                w[0].y + t * (w[1].y - w[0].y),
            ));
        }
        left -= d;
    }
    Some(first)
}

fn dist(a: Point, b: Point) -> f64 {
    (b.x - a.x).hypot(b.y - a.y)
}

/// An arrowhead ready to draw: `segments` in model coordinates, filled with the line's colour
/// when `filled`, always stroked with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Head {
    pub segments: Vec<Segment>,
    pub filled: bool,
    /// Where the connector's line should stop so its end hides under a filled head instead
    /// of poking through the tip.
    pub line_end: Point,
}

/// Length of an arrowhead for a line of `width`: grows with thick lines so it stays visible.
pub fn head_length(width: f64) -> f64 {
    6.0 + 2.0 * width.max(0.0)
}

/// The arrowhead `head` at `tip`, pointing away from `from` (the previous point of the
/// line). `None` for [`ArrowHead::None`] or when the last piece of line has no length.
pub fn arrow_head(head: ArrowHead, tip: Point, from: Point, line_width: f64) -> Option<Head> {
    let len = dist(from, tip);
    if head == ArrowHead::None || len < 1e-9 {
        return None;
    }
    let (ux, uy) = ((tip.x - from.x) / len, (tip.y - from.y) / len);
    let (nx, ny) = (-uy, ux);
    let l = head_length(line_width);
    let w = l * 0.45;
    // A point `back` along the line from the tip and `side` across it.
    let at =
        |back: f64, side: f64| pt(tip.x - ux * back + nx * side, tip.y - uy * back + ny * side);
    let head = match head {
        ArrowHead::None => return None,
        ArrowHead::Arrow => Head {
            segments: polygon(&[tip, at(l, w), at(l, -w)]),
            filled: true,
            line_end: at(l * 0.8, 0.0),
        },
        ArrowHead::Open => Head {
            segments: vec![mv(at(l, w)), ln(tip), ln(at(l, -w))],
            filled: false,
            line_end: tip,
        },
        ArrowHead::Circle => {
            let r = l * 0.4;
            let c = at(r, 0.0);
            Head {
                segments: ellipse(c.x, c.y, r, r),
                filled: true,
                line_end: c,
            }
        }
        ArrowHead::Cross => {
            let c = l * 0.6;
            let a = w * 0.9;
            Head {
                segments: vec![
                    mv(at(c - a, a)),
                    ln(at(c + a, -a)),
                    mv(at(c - a, -a)),
                    ln(at(c + a, a)),
                ],
                filled: false,
                line_end: tip,
            }
        }
        ArrowHead::Diamond => Head {
            segments: polygon(&[tip, at(l, w), at(2.0 * l, 0.0), at(l, -w)]),
            filled: true,
            line_end: at(2.0 * l * 0.9, 0.0),
        },
    };
    Some(head)
}

/// On/off lengths of a dash style for a line of `width`, `None` for a solid line. Dots are
/// as long as the line is wide so they read as dots at every width.
pub fn dash_pattern(dash: Dash, width: f64) -> Option<[f64; 2]> {
    let w = width.max(0.5);
    match dash {
        Dash::Solid => None,
        Dash::Dashed => Some([4.0 * w, 3.0 * w]),
        Dash::Dotted => Some([w, 2.0 * w]),
    }
}

#[cfg(test)]
#[path = "geometry_tests.rs"]
mod tests;
