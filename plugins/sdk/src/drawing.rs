//! What every exporter draws for a shape, decided once: where connectors attach and end,
//! the stroke a connector without one gets, which way its arrowheads point, where a group's
//! label sits and what stands in for a picture that cannot be read. The PDF and SVG
//! exporters (and PNG, through SVG) translate these paths into their own operators and choose
//! no point, colour or width themselves.

use std::collections::HashMap;

use crate::geometry::{self, Anchor};
use crate::{
    Color, Connector, Dash, Group, LineKind, Node, Page, Point, Rect, Segment, ShapeWalk, Stroke,
    Text,
};

/// Everything on a page a connector can be attached to, by id, groups' members included,
/// from the shapes' current frames. A connector attached to a shape on another page finds
/// nothing here and falls back to its end's point.
pub type Anchors<'a> = HashMap<&'a str, Anchor>;

/// The anchors of `page`'s shapes.
pub fn anchors(page: &Page) -> Anchors<'_> {
    ShapeWalk::new(&page.shapes)
        .filter_map(|s| geometry::anchor_of(s).map(|a| (s.id(), a)))
        .collect()
}

/// An outline and how it is painted.
#[derive(Debug, Clone, PartialEq)]
pub struct Painted {
    pub segments: Vec<Segment>,
    pub fill: Option<Color>,
    pub stroke: Option<Stroke>,
}

/// A node as drawn: its outline, the inner lines some geometries have (a cylinder's rim, a
/// document's fold), painted with the node's stroke and no fill, and the area its text is
/// set in.
pub struct NodeDrawing {
    pub outline: Painted,
    pub details: Option<Painted>,
    pub text_area: Rect,
}

pub fn node(n: &Node) -> NodeDrawing {
    NodeDrawing {
        outline: Painted {
            segments: geometry::outline(n.geometry, n.frame),
            fill: n.fill,
            stroke: n.stroke,
        },
        details: n.stroke.map(|stroke| Painted {
            segments: geometry::details(n.geometry, n.frame),
            fill: None,
            stroke: Some(stroke),
        }),
        text_area: geometry::text_area(n.geometry, n.frame),
    }
}

/// The part of `area` a text is set in: less its own padding, which never takes more than
/// the area has (a padding wider than its box leaves the text a point, not a negative box).
pub fn padded(text: &Text, area: Rect) -> Rect {
    let Some(p) = text.padding else {
        return area;
    };
    let side = |v: f64| if v.is_finite() { v.max(0.0) } else { 0.0 };
    let shrink = |start: f64, end: f64, room: f64| {
        let (start, end) = (side(start), side(end));
        let wanted = start + end;
        let room = (room - 1.0).max(0.0);
        if wanted <= room || wanted <= 0.0 {
            (start, end)
        } else {
            (start * room / wanted, end * room / wanted)
        }
    };
    let (left, right) = shrink(p.left, p.right, area.w);
    let (top, bottom) = shrink(p.top, p.bottom, area.h);
    Rect::new(
        area.x + left,
        area.y + top,
        area.w - left - right,
        area.h - top - bottom,
    )
}

/// Space between a group's edge and its label.
const GROUP_LABEL_INSET: f64 = 4.0;

/// The area a group's label is set in: its box, inset a little (less in a small box).
pub fn group_label_area(g: &Group) -> Rect {
    label_area_in(g.frame)
}

/// The area a group with frame `f` sets its label in (before the group exists: an
/// importer fitting the label to it).
pub fn label_area_in(f: Rect) -> Rect {
    let i = GROUP_LABEL_INSET.min(f.w / 4.0).min(f.h / 4.0).max(0.0);
    Rect::new(f.x + i, f.y + i, f.w - 2.0 * i, f.h - 2.0 * i)
}

/// What is drawn where a picture could not be read: a light grey box with a cross.
pub fn missing_picture(r: Rect) -> [Painted; 2] {
    let edge = Stroke::solid(Color::rgb(0x99, 0x99, 0x99), 0.75);
    let cross = vec![
        Segment::MoveTo { x: r.x, y: r.y },
        Segment::LineTo {
            x: r.right(),
            y: r.bottom(),
        },
        Segment::MoveTo {
            x: r.right(),
            y: r.y,
        },
        Segment::LineTo {
            x: r.x,
            y: r.bottom(),
        },
    ];
    [
        Painted {
            segments: geometry::rect(r),
            fill: Some(Color::rgb(0xe6, 0xe6, 0xe6)),
            stroke: Some(edge),
        },
        Painted {
            segments: cross,
            fill: None,
            stroke: Some(edge),
        },
    ]
}

/// A connector as drawn. Exporters draw it with round joins and caps (the look of diagram
/// editors, and no miter spikes on the sharp corners of arrowheads): the line, then the
/// heads, then the label on [`LABEL_BACKGROUND`] centred at `label_at`.
pub struct ConnectorDrawing<'a> {
    /// The route, ending where the heads begin so a thick line does not poke through a tip.
    pub line: Painted,
    /// Each end's arrowhead, always solid: a dashed outline makes an arrowhead unreadable.
    pub heads: Vec<Painted>,
    pub label: Option<(&'a Text, Point)>,
}

/// What a connector's label is set on, so the line does not run through its words.
pub const LABEL_BACKGROUND: Color = Color::WHITE;

/// How `c` is drawn with the shapes it attaches to at `anchors`; `None` when it draws
/// nothing (an invisible link, or no route).
pub fn connector<'a>(c: &'a Connector, anchors: &Anchors) -> Option<ConnectorDrawing<'a>> {
    if c.line == LineKind::Invisible {
        return None;
    }
    let route = geometry::connector_route(c, |id| anchors.get(id))?;
    let stroke = connector_stroke(c);
    let last = route.len().checked_sub(1)?;
    let head_at = |end: &crate::End, i: usize, step: isize| {
        let from = previous_distinct(&route, i, step)?;
        geometry::arrow_head(end.head, route[i], from, stroke.width)
    };
    let start_head = head_at(&c.from, 0, 1);
    let end_head = head_at(&c.to, last, -1);

    let mut line = route.clone();
    if let Some(h) = &start_head {
        line[0] = h.line_end;
    }
    if let Some(h) = &end_head {
        line[last] = h.line_end;
    }
    let segments = if c.curved {
        curve_through(&line)
    } else {
        line.iter()
            .enumerate()
            .map(|(i, p)| match i {
                0 => Segment::MoveTo { x: p.x, y: p.y },
                _ => Segment::LineTo { x: p.x, y: p.y },
            })
            .collect()
    };
    let solid = Stroke {
        dash: Dash::Solid,
        ..stroke
    };
    let heads = [start_head, end_head]
        .into_iter()
        .flatten()
        .map(|head| Painted {
            fill: head.filled.then_some(stroke.color),
            segments: head.segments,
            stroke: Some(solid),
        })
        .collect();
    let label = c.label.as_ref().zip(geometry::polyline_midpoint(&route));
    Some(ConnectorDrawing {
        line: Painted {
            segments,
            fill: None,
            stroke: Some(stroke),
        },
        heads,
        label,
    })
}

/// A smooth curve from the first point to the last, bent by the ones between as draw.io
/// bends a `curved` edge: a quadratic arc from each midpoint of two bends to the next, the
/// bend its control point, so the curve leaves and meets its ends along their legs (where
/// the arrowheads point). Quadratics are written as the cubics every exporter draws.
fn curve_through(points: &[Point]) -> Vec<Segment> {
    let Some(&first) = points.first() else {
        return Vec::new();
    };
    let mut segments = vec![Segment::MoveTo {
        x: first.x,
        y: first.y,
    }];
    let n = points.len();
    if n < 3 {
        segments.extend(points.get(1).map(|p| Segment::LineTo { x: p.x, y: p.y }));
        return segments;
    }
    let midpoint = |a: Point, b: Point| Point {
        x: (a.x + b.x) / 2.0,
        y: (a.y + b.y) / 2.0,
    };
    let mut from = first;
    for i in 1..n - 1 {
        let control = points[i];
        let to = if i == n - 2 {
            points[n - 1]
        } else {
            midpoint(points[i], points[i + 1])
        };
        let toward = |end: Point| Point {
            x: end.x + 2.0 / 3.0 * (control.x - end.x),
            y: end.y + 2.0 / 3.0 * (control.y - end.y),
        };
        let (c1, c2) = (toward(from), toward(to));
        segments.push(Segment::CubicTo {
            x1: c1.x,
            y1: c1.y,
            x2: c2.x,
            y2: c2.y,
            x: to.x,
            y: to.y,
        });
        from = to;
    }
    segments
}

/// The stroke a connector is drawn with: its own, or a thin black line; a thick link twice
/// as wide.
fn connector_stroke(c: &Connector) -> Stroke {
    let mut s = c.stroke.unwrap_or(Stroke::solid(Color::BLACK, 1.0));
    if c.line == LineKind::Thick {
        s.width = (s.width * 2.0).max(2.0);
    }
    s
}

/// The point before `points[i]` walking away from it in direction `step`, skipping points on
/// top of it, so an arrowhead has a direction even when waypoints repeat.
fn previous_distinct(points: &[Point], i: usize, step: isize) -> Option<Point> {
    let tip = *points.get(i)?;
    let mut j = i as isize + step;
    while j >= 0 && (j as usize) < points.len() {
        let p = points[j as usize];
        if (p.x - tip.x).hypot(p.y - tip.y) > 1e-9 {
            return Some(p);
        }
        j += step;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ArrowHead, End};

    fn link(points: &[(f64, f64)], head: ArrowHead, line: LineKind) -> Connector {
        let point = |&(x, y): &(f64, f64)| Point { x, y };
        let end = |p: &(f64, f64), head: ArrowHead| End {
            shape: None,
            point: Some(point(p)),
            port: None,
            head,
        };
        Connector {
            id: "c".into(),
            from: end(&points[0], ArrowHead::None),
            to: end(points.last().unwrap(), head),
            waypoints: points[1..points.len() - 1].iter().map(point).collect(),
            stroke: None,
            line,
            label: None,
            length: None,
            curved: false,
            classes: Vec::new(),
        }
    }

    /// A curved link bends smoothly through its bends as draw.io draws `curved=1`: it
    /// starts at the first point, passes each midpoint between two bends, ends at the last
    /// point (the arrowhead's base) heading along the last leg; two points are a line.
    #[test]
    fn a_curved_link_is_quadratic_arcs_between_the_midpoints_of_its_bends() {
        let mut c = link(
            &[(0.0, 0.0), (0.0, 100.0), (100.0, 100.0), (100.0, 200.0)],
            ArrowHead::None,
            LineKind::Normal,
        );
        c.curved = true;
        let drawn = connector(&c, &Anchors::new()).expect("drawn");
        let ends: Vec<(f64, f64)> = drawn
            .line
            .segments
            .iter()
            .map(|s| match *s {
                Segment::MoveTo { x, y } | Segment::LineTo { x, y } => (x, y),
                Segment::CubicTo { x, y, .. } => (x, y),
                Segment::Close => panic!("closed"),
            })
            .collect();
        assert_eq!(ends, [(0.0, 0.0), (50.0, 100.0), (100.0, 200.0)]);
        // The first arc's controls lie on the legs into and out of its bend (0, 100).
        let Segment::CubicTo { x1, y1, x2, y2, .. } = drawn.line.segments[1] else {
            panic!("{:?}", drawn.line.segments)
        };
        assert!((x1 - 0.0).abs() < 1e-9 && (y1 - 200.0 / 3.0).abs() < 1e-9);
        assert!((x2 - 50.0 / 3.0).abs() < 1e-9 && (y2 - 100.0).abs() < 1e-9);
        // The last arc arrives heading straight down, along the last leg.
        let Some(&Segment::CubicTo { x2, y2, .. }) = drawn.line.segments.last() else {
            panic!()
        };
        assert!((x2 - 100.0).abs() < 1e-9 && y2 < 200.0);

        let mut straight = link(
            &[(0.0, 0.0), (10.0, 0.0)],
            ArrowHead::None,
            LineKind::Normal,
        );
        straight.curved = true;
        let drawn = connector(&straight, &Anchors::new()).expect("drawn");
        assert!(matches!(
            drawn.line.segments[..],
            [Segment::MoveTo { .. }, Segment::LineTo { .. }]
        ));
    }

    /// A text's padding is taken off the area it is set in; a padding wider than the area
    /// shrinks in proportion and leaves a point, and a bad number counts as none.
    #[test]
    fn a_texts_padding_is_taken_off_its_area() {
        let area = Rect::new(10.0, 20.0, 100.0, 50.0);
        let mut text = Text::plain("label", 10.0);
        assert_eq!(padded(&text, area), area);
        text.padding = Some(crate::Insets {
            top: 5.0,
            right: 0.0,
            bottom: 0.0,
            left: 30.0,
        });
        assert_eq!(padded(&text, area), Rect::new(40.0, 25.0, 70.0, 45.0));
        text.padding = Some(crate::Insets {
            top: f64::NAN,
            right: 300.0,
            bottom: -4.0,
            left: 100.0,
        });
        let squeezed = padded(&text, area);
        assert!(
            (squeezed.w - 1.0).abs() < 1e-9 && squeezed.h == 50.0,
            "{squeezed:?}"
        );
        assert!(
            (squeezed.x - (10.0 + 99.0 * 0.25)).abs() < 1e-9,
            "{squeezed:?}"
        );
    }

    #[test]
    fn an_arrowhead_points_along_the_last_distinct_leg_and_the_line_stops_at_its_base() {
        // The last waypoint repeats the tip: the head still points along the leg before it.
        let c = link(
            &[(0.0, 0.0), (100.0, 0.0), (100.0, 0.0)],
            ArrowHead::Arrow,
            LineKind::Normal,
        );
        let drawn = connector(&c, &Anchors::new()).expect("drawn");
        assert_eq!(drawn.heads.len(), 1);
        let head = &drawn.heads[0];
        assert_eq!(head.fill, Some(Color::BLACK));
        let tip_x = geometry::bounds(&head.segments).unwrap().right();
        assert!((tip_x - 100.0).abs() < 1e-6, "{tip_x}");
        let Some(Segment::LineTo { x, .. }) = drawn.line.segments.last() else {
            panic!("{:?}", drawn.line.segments)
        };
        assert!(
            *x < 100.0 - 1.0,
            "the line ends at the head's base, not {x}"
        );
    }

    #[test]
    fn a_thick_dashed_link_gets_solid_heads_and_a_default_black_stroke() {
        let mut c = link(
            &[(0.0, 0.0), (0.0, 50.0)],
            ArrowHead::Arrow,
            LineKind::Thick,
        );
        c.from.head = ArrowHead::Arrow;
        let drawn = connector(&c, &Anchors::new()).unwrap();
        let stroke = drawn.line.stroke.unwrap();
        assert_eq!((stroke.color, stroke.width), (Color::BLACK, 2.0));
        assert_eq!(drawn.heads.len(), 2);

        let mut dashed = c.clone();
        dashed.stroke = Some(Stroke {
            dash: Dash::Dashed,
            ..Stroke::solid(Color::BLACK, 1.0)
        });
        let drawn = connector(&dashed, &Anchors::new()).unwrap();
        assert_eq!(drawn.line.stroke.unwrap().dash, Dash::Dashed);
        assert!(drawn
            .heads
            .iter()
            .all(|h| h.stroke.unwrap().dash == Dash::Solid));
    }

    #[test]
    fn an_invisible_link_draws_nothing() {
        let c = link(
            &[(0.0, 0.0), (10.0, 0.0)],
            ArrowHead::Arrow,
            LineKind::Invisible,
        );
        assert!(connector(&c, &Anchors::new()).is_none());
    }

    #[test]
    fn a_group_label_is_inset_less_in_a_small_box() {
        let mut g = Group::new("g", Rect::new(0.0, 0.0, 100.0, 100.0), Vec::new());
        assert_eq!(group_label_area(&g), Rect::new(4.0, 4.0, 92.0, 92.0));
        g.frame = Rect::new(0.0, 0.0, 8.0, 100.0);
        assert_eq!(group_label_area(&g), Rect::new(2.0, 2.0, 4.0, 96.0));
    }
}
