//! SVG elliptical arcs as cubic Béziers, as stencils and draw.io paths draw them.

use quire_sdk::Point;

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
