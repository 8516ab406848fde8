//! What a shape's shadow paints, decided once for every exporter: they draw these paths
//! before the shape and translate nothing else.

use crate::geometry::{outline, rect};
use crate::{Color, PathShape, Shape, Stroke};

/// How far a shadow falls from its shape, right and down, in points (the draw.io viewer's).
pub const SHADOW_OFFSET: f64 = 3.0;
/// A shadow's paint: draw.io's quarter-opaque black.
pub const SHADOW_COLOR: Color = Color {
    r: 0,
    g: 0,
    b: 0,
    a: 64,
};

/// The shadows a list of sibling shapes casts (a page's shapes, a group's members), to be
/// painted before any of them: a stencil drawn in parts casts one shadow under the whole
/// drawing, as draw.io's, instead of each part's shadow darkening the parts before it.
pub fn shadows(siblings: &[Shape]) -> impl Iterator<Item = PathShape> + '_ {
    siblings.iter().filter_map(shadow)
}

/// The path that paints `shape`'s shadow, to be drawn under it and its siblings: its outline
/// moved by [`SHADOW_OFFSET`], filled where the shape fills and stroked where it strokes, in
/// [`SHADOW_COLOR`]. A group's shadow is its own box's (as a draw.io container's); its members
/// cast their own. `None` when the shape casts no shadow or paints nothing.
pub fn shadow(shape: &Shape) -> Option<PathShape> {
    let (mut segments, fill, stroke, even_odd) = match shape {
        Shape::Node(n) if n.shadow => (
            outline(n.geometry, n.frame),
            n.fill,
            n.stroke.as_ref(),
            false,
        ),
        Shape::Path(p) if p.shadow => (p.segments.clone(), p.fill, p.stroke.as_ref(), p.even_odd),
        Shape::Group(g) if g.shadow => (rect(g.frame), g.fill, g.stroke.as_ref(), false),
        _ => return None,
    };
    let fill = fill.filter(|c| c.a > 0).map(|_| SHADOW_COLOR);
    let stroke = stroke
        .filter(|s| s.width.is_finite() && s.width > 0.0 && s.color.a > 0)
        .map(|s| Stroke {
            color: SHADOW_COLOR,
            ..*s
        });
    if fill.is_none() && stroke.is_none() {
        return None;
    }
    for segment in &mut segments {
        segment.map_points(|x, y| {
            *x += SHADOW_OFFSET;
            *y += SHADOW_OFFSET;
        });
    }
    Some(PathShape {
        id: String::new(),
        segments,
        fill,
        stroke,
        even_odd,
        shadow: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dash, Geometry, Group, Node, Rect};

    fn node(fill: Option<Color>, stroke: Option<Stroke>, shadow: bool) -> Shape {
        Shape::Node(Node {
            id: "n".into(),
            frame: Rect::new(10.0, 20.0, 100.0, 50.0),
            geometry: Geometry::Rect,
            fill,
            stroke,
            text: None,
            classes: Vec::new(),
            shadow,
        })
    }

    fn black_line() -> Stroke {
        Stroke {
            color: Color::BLACK,
            width: 2.0,
            dash: Dash::Solid,
        }
    }

    #[test]
    fn a_shadow_is_the_outline_moved_down_and_right_in_translucent_black() {
        let white = Color::rgb(255, 255, 255);
        let p = shadow(&node(Some(white), Some(black_line()), true)).unwrap();
        assert_eq!(p.fill, Some(SHADOW_COLOR));
        let stroke = p.stroke.as_ref().unwrap();
        assert_eq!((stroke.color, stroke.width), (SHADOW_COLOR, 2.0));
        let moved = crate::geometry::bounds(&p.segments).unwrap();
        assert_eq!(
            (moved.x, moved.y, moved.w, moved.h),
            (13.0, 23.0, 100.0, 50.0)
        );
    }

    #[test]
    fn only_what_paints_casts() {
        assert_eq!(shadow(&node(Some(Color::BLACK), None, false)), None);
        assert_eq!(shadow(&node(None, None, true)), None);
        // An outline alone casts an outline.
        let outline = shadow(&node(None, Some(black_line()), true)).unwrap();
        assert_eq!(outline.fill, None);
    }

    #[test]
    fn a_group_casts_its_own_box_and_not_its_members() {
        let mut group = Group::new(
            "g",
            Rect::new(0.0, 0.0, 200.0, 200.0),
            vec![node(Some(Color::BLACK), None, false)],
        );
        group.fill = Some(Color::rgb(200, 200, 200));
        assert_eq!(shadow(&Shape::Group(group.clone())), None);
        group.shadow = true;
        let cast = shadow(&Shape::Group(group)).unwrap();
        let moved = crate::geometry::bounds(&cast.segments).unwrap();
        assert_eq!((moved.x, moved.w), (3.0, 200.0));
    }
}
