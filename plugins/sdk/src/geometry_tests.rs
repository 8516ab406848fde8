//! Tests of [`super`]: outlines, boundary clipping, routes, heads.

use super::*;
use crate::{End, LineKind};

const ALL: [Geometry; 18] = [
    Geometry::Rect,
    Geometry::Rounded,
    Geometry::Stadium,
    Geometry::Ellipse,
    Geometry::Circle,
    Geometry::DoubleCircle,
    Geometry::Diamond,
    Geometry::Hexagon,
    Geometry::Parallelogram,
    Geometry::ParallelogramAlt,
    Geometry::Trapezoid,
    Geometry::TrapezoidAlt,
    Geometry::Cylinder,
    Geometry::Subroutine,
    Geometry::Document,
    Geometry::Triangle,
    Geometry::Flag,
    Geometry::Note,
];

fn close(a: Point, b: Point) -> bool {
    dist(a, b) < 0.05
}

#[test]
fn every_outline_is_closed_and_stays_in_its_frame() {
    let frame = Rect::new(10.0, 20.0, 120.0, 60.0);
    for g in ALL {
        let segs = outline(g, frame);
        assert!(
            matches!(segs.first(), Some(Segment::MoveTo { .. })),
            "{g:?}"
        );
        assert_eq!(segs.last(), Some(&Segment::Close), "{g:?}");
        // The drawn curve, not its control points, must stay inside.
        let flat: Vec<Segment> = flatten(&segs).concat().into_iter().map(ln).collect();
        let b = bounds(&flat).unwrap();
        let grown = Rect::new(
            frame.x - 0.01,
            frame.y - 0.01,
            frame.w + 0.02,
            frame.h + 0.02,
        );
        assert!(grown.contains(&b), "{g:?}: {b:?}");
        let area = text_area(g, frame);
        assert!(frame.contains(&area), "{g:?}: text area {area:?}");
        assert!(area.w > 0.0 && area.h > 0.0, "{g:?}");
        for d in details(g, frame) {
            if let Segment::MoveTo { x, y } | Segment::LineTo { x, y } = d {
                assert!(grown.contains(&Rect::new(x, y, 0.0, 0.0)), "{g:?}");
            }
        }
    }
}

#[test]
fn degenerate_frames_do_not_break_anything() {
    for g in ALL {
        let frame = Rect::new(5.0, 5.0, 0.0, 0.0);
        let segs = outline(g, frame);
        for s in &segs {
            if let Segment::MoveTo { x, y } | Segment::LineTo { x, y } = *s {
                assert!(x.is_finite() && y.is_finite(), "{g:?}");
            }
        }
        let p = boundary_point(&segs, frame.center(), pt(100.0, 100.0));
        assert!(p.x.is_finite() && p.y.is_finite());
        let a = text_area(g, frame);
        assert!(a.w >= 0.0 && a.h >= 0.0, "{g:?}");
    }
}

#[test]
fn boundary_points_lie_on_the_outline() {
    let frame = Rect::new(0.0, 0.0, 100.0, 50.0);
    let c = frame.center();
    // Straight right: rectangle edge, diamond tip, ellipse tip.
    for g in [Geometry::Rect, Geometry::Diamond, Geometry::Ellipse] {
        let p = boundary_point(&outline(g, frame), c, pt(500.0, 25.0));
        assert!(close(p, pt(100.0, 25.0)), "{g:?}: {p:?}");
    }
    // Straight down into a circle of radius 25.
    let p = boundary_point(&outline(Geometry::Circle, frame), c, pt(50.0, 400.0));
    assert!(close(p, pt(50.0, 50.0)), "{p:?}");
    // Diagonal into a diamond: the edge from (100,25) to (50,50) is x + 2y = 150; the
    // ray from (50,25) along (1,1) meets it at t = 50/3.
    let p = boundary_point(&outline(Geometry::Diamond, frame), c, pt(60.0, 35.0));
    assert!(close(p, pt(50.0 + 50.0 / 3.0, 25.0 + 50.0 / 3.0)), "{p:?}");
    // Degenerate ray.
    assert_eq!(boundary_point(&outline(Geometry::Rect, frame), c, c), c);
}

fn node(id: &str, frame: Rect, geometry: Geometry) -> Shape {
    Shape::Node(crate::Node {
        shadow: false,
        id: id.into(),
        frame,
        geometry,
        fill: None,
        stroke: None,
        text: None,
        classes: Vec::new(),
    })
}

fn connector(from: End, to: End, waypoints: Vec<Point>) -> Connector {
    Connector {
        id: "c".into(),
        from,
        to,
        waypoints,
        stroke: None,
        line: LineKind::Normal,
        label: None,
        length: None,
        curved: false,
        classes: Vec::new(),
    }
}

fn attached(id: &str) -> End {
    End {
        port: None,
        shape: Some(id.into()),
        point: None,
        head: ArrowHead::None,
    }
}

#[test]
fn connectors_follow_the_current_frames() {
    let a = anchor_of(&node("a", Rect::new(0.0, 0.0, 40.0, 20.0), Geometry::Rect)).unwrap();
    let b = anchor_of(&node(
        "b",
        Rect::new(100.0, 0.0, 40.0, 20.0),
        Geometry::Ellipse,
    ))
    .unwrap();
    let find = |id: &str| match id {
        "a" => Some(&a),
        "b" => Some(&b),
        _ => None,
    };
    let c = connector(attached("a"), attached("b"), Vec::new());
    let route = connector_route(&c, find).unwrap();
    assert_eq!(route.len(), 2);
    assert!(close(route[0], pt(40.0, 10.0)), "{route:?}");
    assert!(close(route[1], pt(100.0, 10.0)), "{route:?}");

    // With a waypoint below, both ends leave towards it.
    let c = connector(attached("a"), attached("b"), vec![pt(70.0, 80.0)]);
    let route = connector_route(&c, find).unwrap();
    assert_eq!(route.len(), 3);
    assert!(route[0].y > 10.0 && route[2].y > 10.0, "{route:?}");

    // An end at a port is that point of the shape's frame, and the other end aims at it.
    let port = End {
        port: Some(pt(0.25, 1.0)),
        ..attached("a")
    };
    let route = connector_route(&connector(port, attached("b"), Vec::new()), find).unwrap();
    assert!(close(route[0], pt(10.0, 20.0)), "{route:?}");
    assert!(
        route[1].y > 10.0,
        "aims at the port, below b's centre: {route:?}"
    );

    // A loose end uses its point; an unknown shape with no point cannot be routed.
    let loose = End {
        port: None,
        shape: None,
        point: Some(pt(20.0, 200.0)),
        head: ArrowHead::Arrow,
    };
    let route = connector_route(&connector(attached("a"), loose, Vec::new()), find).unwrap();
    assert!(
        close(route[0], pt(20.0, 20.0)) && close(route[1], pt(20.0, 200.0)),
        "{route:?}"
    );
    assert!(connector_route(&connector(attached("zz"), attached("a"), Vec::new()), find).is_none());

    // A shape connected to itself loops out and back.
    let route =
        connector_route(&connector(attached("a"), attached("a"), Vec::new()), find).unwrap();
    assert_eq!(route.len(), 4);
    assert!(route[1].x > 40.0);
}

#[test]
fn arrowheads_point_at_the_tip() {
    let tip = pt(100.0, 0.0);
    let from = pt(0.0, 0.0);
    let h = arrow_head(ArrowHead::Arrow, tip, from, 1.0).unwrap();
    assert!(h.filled);
    assert!(h.line_end.x < 100.0 && h.line_end.x > 90.0);
    let b = bounds(&h.segments).unwrap();
    assert!((b.right() - 100.0).abs() < 1e-9 && b.x < 100.0);
    for head in [
        ArrowHead::Open,
        ArrowHead::Circle,
        ArrowHead::Cross,
        ArrowHead::Diamond,
    ] {
        let h = arrow_head(head, tip, from, 2.0).unwrap();
        let b = bounds(&h.segments).unwrap();
        assert!(b.right() <= 100.0 + 1e-9 && b.x >= 70.0, "{head:?}: {b:?}");
    }
    assert!(arrow_head(ArrowHead::None, tip, from, 1.0).is_none());
    assert!(arrow_head(ArrowHead::Arrow, tip, tip, 1.0).is_none());
}

#[test]
fn midpoint_is_halfway_along() {
    let m = polyline_midpoint(&[pt(0.0, 0.0), pt(10.0, 0.0), pt(10.0, 30.0)]).unwrap();
    assert!(close(m, pt(10.0, 10.0)), "{m:?}");
    assert!(polyline_midpoint(&[]).is_none());
    assert_eq!(polyline_midpoint(&[pt(1.0, 1.0)]), Some(pt(1.0, 1.0)));
}
