//! Inline stencils (`shape=stencil(...)`): a compressed mxStencil description whose paths,
//! rectangles and ellipses are drawn in a `w` x `h` box (100 x 100 when not given) scaled
//! to the cell. They become one path; text, images and colour changes inside a stencil
//! are not kept (the cell's own colours apply).

use quire_sdk::geometry;
use quire_sdk::{Color, Point, Rect, Segment};

use crate::xml::{self, Element};

/// A stencil larger than this inflated is drawn as a box instead.
const MAX_STENCIL: usize = 4 << 20;
/// Path segments kept from one stencil.
const MAX_SEGMENTS: usize = 100_000;

/// A stencil read and scaled to its cell.
#[derive(Debug, Default)]
pub struct Drawn {
    /// Empty when the stencil draws nothing.
    pub segments: Vec<Segment>,
    /// The first colours the stencil sets, used where the cell's style sets none.
    pub fill: Option<Option<Color>>,
    pub stroke: Option<Option<Color>>,
}

/// The stencil in `spec` (`stencil(<base64>)`) drawn into `frame`, or `None` when it
/// cannot be read.
pub fn path(spec: &str, frame: Rect) -> Option<Drawn> {
    let payload = spec.strip_prefix("stencil(")?.strip_suffix(')')?;
    let mut budget = MAX_STENCIL;
    let text = crate::mxfile::decompress(payload, &mut budget).ok()?;
    let shape = xml::parse(&text).ok()?;
    if shape.name != "shape" {
        return None;
    }
    let dim = |k: &str| {
        shape
            .attr(k)
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v > 0.0)
            .unwrap_or(100.0)
    };
    let (w0, h0) = (dim("w"), dim("h"));
    let (mut sx, mut sy) = (frame.w / w0, frame.h / h0);
    let (mut dx, mut dy) = (frame.x, frame.y);
    if shape.attr("aspect") == Some("fixed") {
        let s = sx.min(sy);
        dx += (frame.w - w0 * s) / 2.0;
        dy += (frame.h - h0 * s) / 2.0;
        sx = s;
        sy = s;
    }
    let mut pen = Pen {
        out: Vec::new(),
        map: Map { sx, sy, dx, dy },
        current: Point::default(),
        start: Point::default(),
        fill: None,
        stroke: None,
    };
    for part in ["background", "foreground"] {
        if let Some(el) = shape.child(part) {
            for op in &el.children {
                pen.op(op);
                if pen.out.len() > MAX_SEGMENTS {
                    return None;
                }
            }
        }
    }
    Some(Drawn {
        segments: pen.out,
        fill: pen.fill,
        stroke: pen.stroke,
    })
}

struct Map {
    sx: f64,
    sy: f64,
    dx: f64,
    dy: f64,
}

impl Map {
    fn pt(&self, x: f64, y: f64) -> Point {
        Point {
            x: self.dx + x * self.sx,
            y: self.dy + y * self.sy,
        }
    }
}

struct Pen {
    out: Vec<Segment>,
    map: Map,
    /// In stencil coordinates.
    current: Point,
    start: Point,
    fill: Option<Option<Color>>,
    stroke: Option<Option<Color>>,
}

fn num(el: &Element, k: &str) -> f64 {
    el.attr(k)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite())
        .map(|v| v.clamp(-1.0e6, 1.0e6))
        .unwrap_or(0.0)
}

impl Pen {
    fn op(&mut self, el: &Element) {
        match el.name.as_str() {
            "path" => {
                for step in &el.children {
                    self.step(step);
                }
            }
            "rect" | "roundrect" | "ellipse" => {
                let a = self.map.pt(num(el, "x"), num(el, "y"));
                let b = self
                    .map
                    .pt(num(el, "x") + num(el, "w"), num(el, "y") + num(el, "h"));
                let r = Rect::new(a.x, a.y, b.x - a.x, b.y - a.y);
                let segs = match el.name.as_str() {
                    "rect" => geometry::rect(r),
                    "roundrect" => {
                        let arc = num(el, "arcsize").max(0.0);
                        let arc = if arc == 0.0 { 15.0 } else { arc };
                        geometry::rounded_rect(r, r.w.min(r.h) * arc / 200.0)
                    }
                    _ => {
                        let c = r.center();
                        geometry::ellipse(c.x, c.y, r.w / 2.0, r.h / 2.0)
                    }
                };
                self.out.extend(segs);
            }
            "fillcolor" if self.fill.is_none() => {
                self.fill = el.attr("color").and_then(crate::style::parse_color);
            }
            "strokecolor" if self.stroke.is_none() => {
                self.stroke = el.attr("color").and_then(crate::style::parse_color);
            }
            _ => {}
        }
    }

    fn push_to(&mut self, p: Point) {
        let q = self.map.pt(p.x, p.y);
        self.out.push(Segment::LineTo { x: q.x, y: q.y });
        self.current = p;
    }

    fn step(&mut self, el: &Element) {
        let p = |xk: &str, yk: &str| Point {
            x: num(el, xk),
            y: num(el, yk),
        };
        match el.name.as_str() {
            "move" => {
                let to = p("x", "y");
                let q = self.map.pt(to.x, to.y);
                self.out.push(Segment::MoveTo { x: q.x, y: q.y });
                self.current = to;
                self.start = to;
            }
            "line" => {
                self.ensure_start();
                self.push_to(p("x", "y"));
            }
            "quad" => {
                self.ensure_start();
                let (c, to) = (p("x1", "y1"), p("x2", "y2"));
                let from = self.current;
                // The cubic with the same curve as the quadratic.
                let c1 = lerp(from, c, 2.0 / 3.0);
                let c2 = lerp(to, c, 2.0 / 3.0);
                self.cubic(c1, c2, to);
            }
            "curve" => {
                self.ensure_start();
                self.cubic(p("x1", "y1"), p("x2", "y2"), p("x3", "y3"));
            }
            "arc" => {
                self.ensure_start();
                let to = p("x", "y");
                let arcs = svg_arc(
                    self.current,
                    num(el, "rx"),
                    num(el, "ry"),
                    num(el, "x-axis-rotation"),
                    num(el, "large-arc-flag") != 0.0,
                    num(el, "sweep-flag") != 0.0,
                    to,
                );
                for (c1, c2, end) in arcs {
                    self.cubic(c1, c2, end);
                }
                self.current = to;
            }
            "close" => {
                if !self.out.is_empty() {
                    self.out.push(Segment::Close);
                }
                self.current = self.start;
            }
            _ => {}
        }
    }

    /// A path drawing before any move starts where it stands.
    fn ensure_start(&mut self) {
        if self.out.is_empty() {
            let q = self.map.pt(self.current.x, self.current.y);
            self.out.push(Segment::MoveTo { x: q.x, y: q.y });
        }
    }

    fn cubic(&mut self, c1: Point, c2: Point, to: Point) {
        let (a, b, c) = (
            self.map.pt(c1.x, c1.y),
            self.map.pt(c2.x, c2.y),
            self.map.pt(to.x, to.y),
        );
        self.out.push(Segment::CubicTo {
            x1: a.x,
            y1: a.y,
            x2: b.x,
            y2: b.y,
            x: c.x,
            y: c.y,
        });
        self.current = to;
    }
}

fn lerp(a: Point, b: Point, t: f64) -> Point {
    Point {
        x: a.x + (b.x - a.x) * t,
        y: a.y + (b.y - a.y) * t,
    }
}

/// An SVG elliptical arc as cubic pieces of at most a quarter turn each (the endpoint to
/// centre conversion of SVG 1.1, appendix F.6). A degenerate arc is a straight line.
pub fn svg_arc(
    from: Point,
    rx: f64,
    ry: f64,
    rotation_deg: f64,
    large: bool,
    sweep: bool,
    to: Point,
) -> Vec<(Point, Point, Point)> {
    let (mut rx, mut ry) = (rx.abs(), ry.abs());
    if rx < 1e-9 || ry < 1e-9 || (from.x == to.x && from.y == to.y) {
        return vec![(from, to, to)];
    }
    let (sin, cos) = rotation_deg.to_radians().sin_cos();
    let hx = (from.x - to.x) / 2.0;
    let hy = (from.y - to.y) / 2.0;
    let x1 = cos * hx + sin * hy;
    let y1 = -sin * hx + cos * hy;
    let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry);
    if lambda > 1.0 {
        let s = lambda.sqrt();
        rx *= s;
        ry *= s;
    }
    let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1;
    let den = rx * rx * y1 * y1 + ry * ry * x1 * x1;
    let mut k = if den > 0.0 {
        (num / den).max(0.0).sqrt()
    } else {
        0.0
    };
    if large == sweep {
        k = -k;
    }
    let cx1 = k * rx * y1 / ry;
    let cy1 = -k * ry * x1 / rx;
    let cx = cos * cx1 - sin * cy1 + (from.x + to.x) / 2.0;
    let cy = sin * cx1 + cos * cy1 + (from.y + to.y) / 2.0;
    let angle = |ux: f64, uy: f64| uy.atan2(ux);
    let t1 = angle((x1 - cx1) / rx, (y1 - cy1) / ry);
    let t2 = angle((-x1 - cx1) / rx, (-y1 - cy1) / ry);
    let mut dt = t2 - t1;
    let tau = std::f64::consts::TAU;
    if sweep && dt < 0.0 {
        dt += tau;
    } else if !sweep && dt > 0.0 {
        dt -= tau;
    }
    let pieces = (dt.abs() / (tau / 4.0)).ceil().max(1.0) as usize;
    let step = dt / pieces as f64;
    let alpha = 4.0 / 3.0 * (step / 4.0).tan();
    let point = |t: f64| {
        let (s, c) = t.sin_cos();
        Point {
            x: cx + rx * c * cos - ry * s * sin,
            y: cy + rx * c * sin + ry * s * cos,
        }
    };
    let deriv = |t: f64| {
        let (s, c) = t.sin_cos();
        Point {
            x: -rx * s * cos - ry * c * sin,
            y: -rx * s * sin + ry * c * cos,
        }
    };
    (0..pieces)
        .map(|i| {
            let a = t1 + step * i as f64;
            let b = a + step;
            let (pa, pb) = (point(a), point(b));
            let (da, db) = (deriv(a), deriv(b));
            let end = if i + 1 == pieces { to } else { pb };
            (
                Point {
                    x: pa.x + alpha * da.x,
                    y: pa.y + alpha * da.y,
                },
                Point {
                    x: pb.x - alpha * db.x,
                    y: pb.y - alpha * db.y,
                },
                end,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    fn encode(xml: &str) -> String {
        let mut enc =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut enc, xml.as_bytes()).unwrap();
        format!(
            "stencil({})",
            crate::mxfile::BASE64.encode(enc.finish().unwrap())
        )
    }

    #[test]
    fn scales_the_stencil_box_to_the_frame() {
        let spec = encode(
            "<shape w=\"10\" h=\"20\"><foreground><path><move x=\"0\" y=\"0\"/>\
             <line x=\"10\" y=\"20\"/><close/></path><fillstroke/></foreground></shape>",
        );
        let segs = path(&spec, Rect::new(100.0, 100.0, 50.0, 40.0))
            .unwrap()
            .segments;
        assert_eq!(segs[0], Segment::MoveTo { x: 100.0, y: 100.0 });
        assert_eq!(segs[1], Segment::LineTo { x: 150.0, y: 140.0 });
        assert_eq!(segs[2], Segment::Close);
        // Without w and h the box is 100 x 100.
        let spec = encode(
            "<shape><foreground><rect x=\"0\" y=\"0\" w=\"50\" h=\"50\"/></foreground></shape>",
        );
        let segs = path(&spec, Rect::new(0.0, 0.0, 200.0, 200.0))
            .unwrap()
            .segments;
        assert!(segs.contains(&Segment::LineTo { x: 100.0, y: 100.0 }));
        assert!(path("stencil(garbage)", Rect::default()).is_none());
        let spec = encode(
            "<shape><foreground><fillcolor color=\"#ff0000\"/><path><close/></path><fill/></foreground></shape>",
        );
        let drawn = path(&spec, Rect::new(0.0, 0.0, 10.0, 10.0)).unwrap();
        assert!(drawn.segments.is_empty());
        assert_eq!(drawn.fill, Some(Some(Color::rgb(255, 0, 0))));
    }

    #[test]
    fn a_half_circle_arc_passes_through_its_apex() {
        let pieces = svg_arc(
            Point { x: 0.0, y: 0.0 },
            10.0,
            10.0,
            0.0,
            false,
            true,
            Point { x: 20.0, y: 0.0 },
        );
        assert_eq!(pieces.len(), 2);
        // Sweep-flag 1 from left to right goes through the top (y down: negative y).
        let mid = pieces[0].2;
        assert!(
            (mid.x - 10.0).abs() < 1e-9 && (mid.y + 10.0).abs() < 1e-9,
            "{mid:?}"
        );
        assert_eq!(pieces[1].2, Point { x: 20.0, y: 0.0 });
    }
}
