//! Geometry: the transform from a shape's local coordinates (inches, origin at the bottom
//! left of its box, y up) to the page, and Geometry sections drawn as model path segments.
//! Arcs and curves the model has no segment for are followed with short lines.

use quire_sdk::geometry::KAPPA;
use quire_sdk::{Point, Segment};

use crate::sheet::Section;

/// `x' = a x + c y + e`, `y' = b x + d y + f`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Affine {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
    pub e: f64,
    pub f: f64,
}

impl Affine {
    pub const IDENTITY: Affine = Affine {
        a: 1.0,
        b: 0.0,
        c: 0.0,
        d: 1.0,
        e: 0.0,
        f: 0.0,
    };

    pub fn apply(&self, x: f64, y: f64) -> Point {
        Point {
            x: self.a * x + self.c * y + self.e,
            y: self.b * x + self.d * y + self.f,
        }
    }

    /// `self` after `inner`: points go through `inner` first.
    pub fn then(&self, inner: &Affine) -> Affine {
        Affine {
            a: self.a * inner.a + self.c * inner.b,
            b: self.b * inner.a + self.d * inner.b,
            c: self.a * inner.c + self.c * inner.d,
            d: self.b * inner.c + self.d * inner.d,
            e: self.a * inner.e + self.c * inner.f + self.e,
            f: self.b * inner.e + self.d * inner.f + self.f,
        }
    }

    /// A shape's placement in its parent: `Pin + Rotate(angle) * Flip * (p - LocPin)`.
    pub fn placement(pin: Point, loc_pin: Point, angle: f64, flip_x: bool, flip_y: bool) -> Affine {
        let (sin, cos) = angle.sin_cos();
        let fx = if flip_x { -1.0 } else { 1.0 };
        let fy = if flip_y { -1.0 } else { 1.0 };
        let (a, b, c, d) = (cos * fx, sin * fx, -sin * fy, cos * fy);
        Affine {
            a,
            b,
            c,
            d,
            e: pin.x - (a * loc_pin.x + c * loc_pin.y),
            f: pin.y - (b * loc_pin.x + d * loc_pin.y),
        }
    }

    /// Whether the transform turns by a whole number of quarter turns (axis-aligned boxes
    /// stay axis-aligned).
    pub fn is_axis_aligned(&self) -> bool {
        const EPS: f64 = 1e-6;
        (self.b.abs() < EPS && self.c.abs() < EPS) || (self.a.abs() < EPS && self.d.abs() < EPS)
    }
}

/// One geometry section drawn in page space.
#[derive(Debug, Clone, Default)]
pub struct Drawn {
    pub segments: Vec<Segment>,
    pub filled: bool,
    pub stroked: bool,
}

fn cell(row: &crate::sheet::Row, k: &str) -> f64 {
    row.cells
        .get(k)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite())
        .map(|v| v.clamp(-1.0e6, 1.0e6))
        .unwrap_or(0.0)
}

/// The numbers inside a formula such as `POLYLINE(0, 0, 1, 2, 3, 4)`.
fn formula_numbers(f: &str) -> Vec<f64> {
    let inner = f
        .split_once('(')
        .map(|(_, r)| r.trim_end_matches(')'))
        .unwrap_or("");
    inner
        .split(',')
        .filter_map(|n| n.trim().parse::<f64>().ok())
        .filter(|n| n.is_finite())
        .collect()
}

/// Points along the circle through `a`, `m` and `b` from `a` to `b` (through `m`),
/// excluding `a`. Collinear points give the straight line.
fn arc_through(a: Point, m: Point, b: Point) -> Vec<Point> {
    let d = 2.0 * (a.x * (m.y - b.y) + m.x * (b.y - a.y) + b.x * (a.y - m.y));
    let chord = ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt();
    if d.abs() < 1e-12 * chord.max(1.0) || chord < 1e-12 {
        return vec![b];
    }
    let sq = |p: Point| p.x * p.x + p.y * p.y;
    let cx = (sq(a) * (m.y - b.y) + sq(m) * (b.y - a.y) + sq(b) * (a.y - m.y)) / d;
    let cy = (sq(a) * (b.x - m.x) + sq(m) * (a.x - b.x) + sq(b) * (m.x - a.x)) / d;
    let r = ((a.x - cx).powi(2) + (a.y - cy).powi(2)).sqrt();
    let ang = |p: Point| (p.y - cy).atan2(p.x - cx);
    let (ta, tm, tb) = (ang(a), ang(m), ang(b));
    let tau = std::f64::consts::TAU;
    let ccw = |from: f64, to: f64| (to - from).rem_euclid(tau);
    // Counter-clockwise from a to b passes m exactly when m comes first that way.
    let sweep = if ccw(ta, tm) <= ccw(ta, tb) {
        ccw(ta, tb)
    } else {
        -(tau - ccw(ta, tb))
    };
    let steps = ((sweep.abs() / (tau / 32.0)).ceil() as usize).clamp(2, 64);
    (1..=steps)
        .map(|i| {
            if i == steps {
                b
            } else {
                let t = ta + sweep * i as f64 / steps as f64;
                Point {
                    x: cx + r * t.cos(),
                    y: cy + r * t.sin(),
                }
            }
        })
        .collect()
}

/// Draws one section. `w` and `h` are the shape's size (for relative rows), `tf` maps
/// local coordinates to page coordinates and `to_model` page coordinates to the model.
pub fn draw(section: &Section, w: f64, h: f64, tf: &Affine) -> Drawn {
    let no = |k: &str| section.cells.get(k).map(String::as_str) == Some("1");
    let mut out = Drawn {
        segments: Vec::new(),
        filled: !no("NoFill"),
        stroked: !no("NoLine"),
    };
    if no("NoShow") {
        return out;
    }
    let mut cur = Point::default();
    let mut start = Point::default();
    let mut open = false;
    let p = |x: f64, y: f64| Point { x, y };
    let mv = |out: &mut Vec<Segment>, q: Point| {
        let t = tf.apply(q.x, q.y);
        out.push(Segment::MoveTo { x: t.x, y: t.y });
    };
    let ln = |out: &mut Vec<Segment>, q: Point| {
        let t = tf.apply(q.x, q.y);
        out.push(Segment::LineTo { x: t.x, y: t.y });
    };
    let cubic = |out: &mut Vec<Segment>, c1: Point, c2: Point, q: Point| {
        let (a, b, c) = (
            tf.apply(c1.x, c1.y),
            tf.apply(c2.x, c2.y),
            tf.apply(q.x, q.y),
        );
        out.push(Segment::CubicTo {
            x1: a.x,
            y1: a.y,
            x2: b.x,
            y2: b.y,
            x: c.x,
            y: c.y,
        });
    };
    for row in &section.rows {
        if row.del {
            continue;
        }
        let t = row.t.as_deref().unwrap_or("");
        let (x, y) = (cell(row, "X"), cell(row, "Y"));
        let rel = t.starts_with("Rel");
        let pt = if rel { p(x * w, y * h) } else { p(x, y) };
        // Anything drawn before a move starts where the pen stands.
        if !open && !matches!(t, "MoveTo" | "RelMoveTo" | "Ellipse" | "InfiniteLine") {
            mv(&mut out.segments, cur);
            start = cur;
            open = true;
        }
        match t {
            "MoveTo" | "RelMoveTo" => {
                mv(&mut out.segments, pt);
                start = pt;
                open = true;
            }
            "LineTo" | "RelLineTo" => ln(&mut out.segments, pt),
            "ArcTo" => {
                // A is the bulge: how far the arc's middle stands off the chord's middle.
                // Positive turns counterclockwise, which (y up) puts the bulge to the right
                // of the way from the start to the end: the outward corners of a shape
                // drawn counterclockwise, as Visio's masters are.
                let bow = cell(row, "A");
                let (mx, my) = ((cur.x + pt.x) / 2.0, (cur.y + pt.y) / 2.0);
                let (dx, dy) = (pt.x - cur.x, pt.y - cur.y);
                let len = (dx * dx + dy * dy).sqrt().max(1e-12);
                let apex = p(mx + dy / len * bow, my - dx / len * bow);
                for q in arc_through(cur, apex, pt) {
                    ln(&mut out.segments, q);
                }
            }
            "EllipticalArcTo" | "RelEllipticalArcTo" => {
                // Through a control point (A, B) on an ellipse whose major axis is at angle
                // C with major/minor ratio D: squash it to a circle, follow, stretch back.
                let ctl = if rel {
                    p(cell(row, "A") * w, cell(row, "B") * h)
                } else {
                    p(cell(row, "A"), cell(row, "B"))
                };
                let angle = cell(row, "C");
                let ratio = cell(row, "D");
                let ratio = if ratio.abs() < 1e-9 { 1.0 } else { ratio };
                let (sin, cos) = angle.sin_cos();
                let to_circle = |q: Point| {
                    let (u, v) = (q.x * cos + q.y * sin, -q.x * sin + q.y * cos);
                    p(u / ratio, v)
                };
                let from_circle = |q: Point| {
                    let u = q.x * ratio;
                    p(u * cos - q.y * sin, u * sin + q.y * cos)
                };
                for q in arc_through(to_circle(cur), to_circle(ctl), to_circle(pt)) {
                    ln(&mut out.segments, from_circle(q));
                }
            }
            "Ellipse" => {
                // Centre (X, Y), one axis end (A, B), the other (C, D).
                let c = pt;
                let u = p(cell(row, "A") - c.x, cell(row, "B") - c.y);
                let v = p(cell(row, "C") - c.x, cell(row, "D") - c.y);
                let at = |s: f64, k: f64| p(c.x + u.x * s + v.x * k, c.y + u.y * s + v.y * k);
                mv(&mut out.segments, at(1.0, 0.0));
                for (s0, k0, s1, k1) in [
                    (1.0, 0.0, 0.0, 1.0),
                    (0.0, 1.0, -1.0, 0.0),
                    (-1.0, 0.0, 0.0, -1.0),
                    (0.0, -1.0, 1.0, 0.0),
                ] {
                    cubic(
                        &mut out.segments,
                        at(s0 + KAPPA * s1, k0 + KAPPA * k1),
                        at(s1 + KAPPA * s0, k1 + KAPPA * k0),
                        at(s1, k1),
                    );
                }
                out.segments.push(Segment::Close);
                open = false;
                continue;
            }
            "RelCubBezTo" => {
                let c1 = p(cell(row, "A") * w, cell(row, "B") * h);
                let c2 = p(cell(row, "C") * w, cell(row, "D") * h);
                cubic(&mut out.segments, c1, c2, pt);
            }
            "RelQuadBezTo" => {
                let c = p(cell(row, "A") * w, cell(row, "B") * h);
                let c1 = p(
                    cur.x + (c.x - cur.x) * 2.0 / 3.0,
                    cur.y + (c.y - cur.y) * 2.0 / 3.0,
                );
                let c2 = p(
                    pt.x + (c.x - pt.x) * 2.0 / 3.0,
                    pt.y + (c.y - pt.y) * 2.0 / 3.0,
                );
                cubic(&mut out.segments, c1, c2, pt);
            }
            "PolylineTo" | "NURBSTo" => {
                // The formula lists the points between (polyline: x, y pairs; NURBS:
                // control points with knot and weight); relative where its type says 0.
                let formula = row
                    .cells
                    .get(if t == "PolylineTo" { "A" } else { "E" })
                    .map(String::as_str)
                    .unwrap_or("");
                let nums = formula_numbers(formula);
                let (header, stride) = if t == "PolylineTo" { (2, 2) } else { (4, 4) };
                if nums.len() >= header {
                    let (x_rel, y_rel) = (nums[header - 2] == 0.0, nums[header - 1] == 0.0);
                    for chunk in nums[header..].chunks(stride) {
                        if chunk.len() >= 2 {
                            let qx = if x_rel { chunk[0] * w } else { chunk[0] };
                            let qy = if y_rel { chunk[1] * h } else { chunk[1] };
                            ln(&mut out.segments, p(qx, qy));
                        }
                    }
                }
                ln(&mut out.segments, pt);
            }
            "SplineStart" | "SplineKnot" => ln(&mut out.segments, pt),
            _ => continue,
        }
        cur = pt;
        if (cur.x - start.x).abs() < 1e-9 && (cur.y - start.y).abs() < 1e-9 && t != "MoveTo" {
            // Back at the start: Visio fills only closed figures.
            if matches!(
                out.segments.last(),
                Some(Segment::LineTo { .. } | Segment::CubicTo { .. })
            ) {
                out.segments.push(Segment::Close);
            }
        }
        if out.segments.len() > 200_000 {
            break;
        }
    }
    // A section made only of a move draws nothing.
    if out
        .segments
        .iter()
        .all(|s| matches!(s, Segment::MoveTo { .. }))
    {
        out.segments.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::Row;
    use std::collections::HashMap;

    fn row(t: &str, cells: &[(&str, f64)]) -> Row {
        Row {
            t: Some(t.into()),
            ix: None,
            del: false,
            cells: cells
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<HashMap<_, _>>(),
        }
    }

    #[test]
    fn placement_turns_about_the_pin() {
        let t = Affine::placement(
            Point { x: 10.0, y: 10.0 },
            Point { x: 1.0, y: 0.5 },
            std::f64::consts::FRAC_PI_2,
            false,
            false,
        );
        // The local pin lands on the pin; the right end of the box points up.
        assert_eq!(t.apply(1.0, 0.5), Point { x: 10.0, y: 10.0 });
        let q = t.apply(2.0, 0.5);
        assert!(
            (q.x - 10.0).abs() < 1e-9 && (q.y - 11.0).abs() < 1e-9,
            "{q:?}"
        );
        assert!(t.is_axis_aligned());
        let flipped = Affine::placement(Point::default(), Point::default(), 0.0, true, false);
        assert_eq!(flipped.apply(1.0, 1.0), Point { x: -1.0, y: 1.0 });
    }

    #[test]
    fn relative_rectangle_closes() {
        let s = Section {
            n: "Geometry".into(),
            rows: vec![
                row("RelMoveTo", &[("X", 0.0), ("Y", 0.0)]),
                row("RelLineTo", &[("X", 1.0), ("Y", 0.0)]),
                row("RelLineTo", &[("X", 1.0), ("Y", 1.0)]),
                row("RelLineTo", &[("X", 0.0), ("Y", 1.0)]),
                row("RelLineTo", &[("X", 0.0), ("Y", 0.0)]),
            ],
            ..Section::default()
        };
        let d = draw(&s, 2.0, 3.0, &Affine::IDENTITY);
        assert_eq!(d.segments[2], Segment::LineTo { x: 2.0, y: 3.0 });
        assert_eq!(d.segments.last(), Some(&Segment::Close));
        assert!(d.filled && d.stroked);
    }

    #[test]
    fn a_positive_bow_bulges_outward_on_a_counterclockwise_outline() {
        // A network master's rounded end (aspose-network-diagram, master 28): east along the
        // bottom, an arc up the right side with A = half the height, back west and down.
        // The arc bulges out to the east, past the chord at x = 2.0625, by the bow.
        let s = Section {
            n: "Geometry".into(),
            rows: vec![
                row("MoveTo", &[("X", 1.6875), ("Y", 0.0)]),
                row("LineTo", &[("X", 2.0625), ("Y", 0.0)]),
                row("ArcTo", &[("X", 2.0625), ("Y", 0.375), ("A", 0.1875)]),
                row("LineTo", &[("X", 1.6875), ("Y", 0.375)]),
                row("LineTo", &[("X", 1.6875), ("Y", 0.0)]),
            ],
            ..Section::default()
        };
        let d = draw(&s, 1.0, 1.0, &Affine::IDENTITY);
        let xs = d.segments.iter().filter_map(|s| match s {
            Segment::LineTo { x, .. } => Some(*x),
            _ => None,
        });
        let (west, east) = xs.fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
        assert!((east - 2.25).abs() < 1e-6, "{east}");
        assert!((west - 1.6875).abs() < 1e-6, "{west}");
        let pts = arc_through(
            Point { x: 0.0, y: 0.0 },
            Point { x: 1.0, y: 1.0 },
            Point { x: 2.0, y: 0.0 },
        );
        assert_eq!(*pts.last().unwrap(), Point { x: 2.0, y: 0.0 });
    }
}
