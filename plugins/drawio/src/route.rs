//! Edge routes draw.io computes rather than stores. An edge's ends may be fixed on their
//! shapes (`exitX`/`exitY`, `entryX`/`entryY`: ports of the model), and an orthogonal edge
//! (`edgeStyle=orthogonalEdgeStyle` or `elbowEdgeStyle`) runs in horizontal and vertical legs,
//! turning where its stored points ask and where its ends need. The legs are given to the
//! model as waypoints, so every exporter draws the route draw.io shows, and a `.drawio`
//! export writes it back as points draw.io keeps.

use quire_sdk::{Point, Rect};

use crate::style::Style;

/// An end's port from the style's `<prefix>X`/`<prefix>Y` (`exit` for the source, `entry`
/// for the target), when both are fractions of the shape.
pub fn port(style: &Style, prefix: &str) -> Option<Point> {
    let get = |axis: &str| {
        style
            .num(&format!("{prefix}{axis}"))
            .filter(|v| (0.0..=1.0).contains(v))
    };
    Some(Point {
        x: get("X")?,
        y: get("Y")?,
    })
}

/// Whether draw.io draws the edge in horizontal and vertical legs.
pub fn is_orthogonal(style: &Style) -> bool {
    matches!(
        style.get("edgeStyle"),
        Some("orthogonalEdgeStyle" | "elbowEdgeStyle")
    )
}

/// One end of an edge as the router sees it.
#[derive(Debug, Clone, Copy)]
pub struct Terminal {
    /// Where the route starts or ends: a port's point, a shape's centre, a loose point.
    pub at: Point,
    /// The shape's frame when the end is attached, and whether it is fixed at a port.
    pub frame: Option<Rect>,
    pub port: Option<Point>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leg {
    Across,
    Down,
}

/// The waypoints of an orthogonal route from `from` through `stored` (the edge's own
/// points) to `to`: the stored points with the turns between them that keep every leg
/// horizontal or vertical. An end at a port leaves and arrives across the side it is on.
pub fn orthogonal(from: Terminal, stored: &[Point], to: Terminal) -> Vec<Point> {
    let first_aim = stored.first().copied().unwrap_or(to.at);
    let mut points = vec![from.at];
    let mut leg = leg_of(from, first_aim);
    for &next in stored {
        leg = turn_towards(&mut points, leg, next);
    }
    // The last leg arrives across the side of the target's port; without one, with a
    // single turn where that turn lies outside the target, else in line with the leg.
    let p = *points.last().unwrap_or(&from.at);
    let q = to.at;
    let aligned = |a: f64, b: f64| (a - b).abs() < 0.5;
    let arriving = match (to.port, to.frame) {
        (Some(_), _) => leg_of(to, p),
        (None, frame) => {
            let corner = match leg {
                Leg::Across => Point { x: q.x, y: p.y },
                Leg::Down => Point { x: p.x, y: q.y },
            };
            let outside = frame.is_none_or(|f| {
                corner.x < f.x || corner.x > f.right() || corner.y < f.y || corner.y > f.bottom()
            });
            match (leg, outside) {
                (Leg::Across, true) | (Leg::Down, false) => Leg::Down,
                (Leg::Down, true) | (Leg::Across, false) => Leg::Across,
            }
        }
    };
    match (leg, arriving) {
        (Leg::Across, Leg::Across) if !aligned(p.y, q.y) => {
            let mid = (p.x + q.x) / 2.0;
            points.push(Point { x: mid, y: p.y });
            points.push(Point { x: mid, y: q.y });
        }
        (Leg::Down, Leg::Down) if !aligned(p.x, q.x) => {
            let mid = (p.y + q.y) / 2.0;
            points.push(Point { x: p.x, y: mid });
            points.push(Point { x: q.x, y: mid });
        }
        (Leg::Across, Leg::Down) if !aligned(p.x, q.x) && !aligned(p.y, q.y) => {
            points.push(Point { x: q.x, y: p.y });
        }
        (Leg::Down, Leg::Across) if !aligned(p.x, q.x) && !aligned(p.y, q.y) => {
            points.push(Point { x: p.x, y: q.y });
        }
        _ => {}
    }
    points.remove(0);
    points.dedup_by(|a, b| aligned(a.x, b.x) && aligned(a.y, b.y));
    points
}

/// Goes from the last point to `next`, turning once if they are not in line; answers the
/// direction of the leg that reaches `next`.
fn turn_towards(points: &mut Vec<Point>, leg: Leg, next: Point) -> Leg {
    let p = *points.last().expect("a route starts somewhere");
    let aligned = |a: f64, b: f64| (a - b).abs() < 0.5;
    let reached = if aligned(p.y, next.y) {
        Leg::Across
    } else if aligned(p.x, next.x) {
        Leg::Down
    } else if leg == Leg::Across {
        points.push(Point { x: next.x, y: p.y });
        Leg::Down
    } else {
        points.push(Point { x: p.x, y: next.y });
        Leg::Across
    };
    points.push(next);
    reached
}

/// The direction an end leaves or arrives in: across the side its port is on, otherwise
/// the way the neighbouring point lies farther.
fn leg_of(end: Terminal, aim: Point) -> Leg {
    if let Some(port) = end.port {
        let from_side = [port.x, 1.0 - port.x, port.y, 1.0 - port.y];
        let nearest = from_side
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .map_or(0, |(i, _)| i);
        return if nearest < 2 { Leg::Across } else { Leg::Down };
    }
    let (dx, dy) = (aim.x - end.at.x, aim.y - end.at.y);
    // A shape's size counts: leaving a wide shape sideways needs a larger gap.
    let (w, h) = end.frame.map_or((0.0, 0.0), |f| (f.w, f.h));
    if dx.abs() - w / 2.0 >= dy.abs() - h / 2.0 {
        Leg::Across
    } else {
        Leg::Down
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    fn shape(frame: Rect, port: Option<Point>) -> Terminal {
        let at = match port {
            Some(p) => pt(frame.x + p.x * frame.w, frame.y + p.y * frame.h),
            None => frame.center(),
        };
        Terminal {
            at,
            frame: Some(frame),
            port,
        }
    }

    /// Out of the bottom of one box and into the top of another to its lower right: down,
    /// across, down (the salesforce diagram's bus connectors).
    #[test]
    fn bottom_to_top_ports_run_down_across_down() {
        let a = shape(Rect::new(0.0, 0.0, 100.0, 40.0), Some(pt(0.5, 1.0)));
        let b = shape(Rect::new(200.0, 200.0, 100.0, 40.0), Some(pt(0.5, 0.0)));
        let route = orthogonal(a, &[], b);
        assert_eq!(route, [pt(50.0, 120.0), pt(250.0, 120.0)]);
    }

    #[test]
    fn a_side_port_to_a_centre_turns_once() {
        let a = shape(Rect::new(0.0, 0.0, 100.0, 40.0), Some(pt(1.0, 0.5)));
        let b = shape(Rect::new(300.0, 200.0, 40.0, 40.0), None);
        assert_eq!(orthogonal(a, &[], b), [pt(320.0, 20.0)]);
        // In line: no turn at all.
        let c = shape(Rect::new(300.0, 0.0, 40.0, 40.0), None);
        assert!(orthogonal(a, &[], c).is_empty());
    }

    /// A stored point is passed through, with the turns that reach it in right angles.
    #[test]
    fn stored_points_are_reached_in_right_angles() {
        let a = shape(Rect::new(0.0, 0.0, 40.0, 40.0), None);
        let b = shape(Rect::new(300.0, 300.0, 40.0, 40.0), None);
        let route = orthogonal(a, &[pt(150.0, 100.0)], b);
        assert!(route.contains(&pt(150.0, 100.0)), "{route:?}");
        let mut all = vec![a.at];
        all.extend(route);
        all.push(b.at);
        for w in all.windows(2) {
            assert!(
                (w[0].x - w[1].x).abs() < 0.5 || (w[0].y - w[1].y).abs() < 0.5,
                "{w:?}"
            );
        }
    }
}
