//! Putting a drawing made in coordinates of its own into another one: a picture's shapes
//! fitted into the box a page gives the picture (an SVG picture in Markdown, HTML or a
//! draw.io cell), a diagram moved onto its page with a margin. Every importer that places
//! one drawing inside another uses these rules, so a picture comes out the same whichever
//! format held it.

use std::collections::HashMap;

use crate::{Point, Rect, Shape, Stroke, Text};

/// Smallest font size a scaled-down drawing keeps: below it text is unreadable anyway, and
/// a size of zero is not a font size.
const MIN_FONT_SIZE: f64 = 0.5;

/// `p -> p * scale + (dx, dy)`, applied to every coordinate, box, stroke width and font
/// size of a drawing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    pub scale: f64,
    pub dx: f64,
    pub dy: f64,
}

impl Placement {
    /// Moves and scales nothing.
    pub const IDENTITY: Placement = Placement {
        scale: 1.0,
        dx: 0.0,
        dy: 0.0,
    };

    /// What fits content `width` x `height` (from its origin) into `frame` with its aspect
    /// kept, centred, as a browser fits an `<img>` and draw.io a cell's picture; `None` for
    /// content or a frame without area.
    pub fn fit(width: f64, height: f64, frame: Rect) -> Option<Placement> {
        if !(width > 0.0 && height > 0.0 && frame.w > 0.0 && frame.h > 0.0) {
            return None;
        }
        let scale = (frame.w / width).min(frame.h / height);
        if !(scale.is_finite() && scale > 0.0) {
            return None;
        }
        Some(Placement {
            scale,
            dx: frame.x + (frame.w - width * scale) / 2.0,
            dy: frame.y + (frame.h - height * scale) / 2.0,
        })
    }

    fn xy(&self, x: &mut f64, y: &mut f64) {
        *x = *x * self.scale + self.dx;
        *y = *y * self.scale + self.dy;
    }

    fn point(&self, p: &mut Point) {
        self.xy(&mut p.x, &mut p.y);
    }

    fn rect(&self, r: &mut Rect) {
        self.xy(&mut r.x, &mut r.y);
        r.w *= self.scale;
        r.h *= self.scale;
    }

    fn text(&self, t: &mut Text) {
        if self.scale != 1.0 {
            for run in &mut t.runs {
                run.size = (run.size * self.scale).max(MIN_FONT_SIZE);
            }
            if let Some(pad) = &mut t.padding {
                for side in [&mut pad.top, &mut pad.right, &mut pad.bottom, &mut pad.left] {
                    *side *= self.scale;
                }
            }
        }
    }

    fn stroke(&self, s: &mut Option<Stroke>) {
        if let Some(s) = s {
            s.width *= self.scale;
        }
    }

    /// Places `shape` and everything inside it.
    pub fn shape(&self, shape: &mut Shape) {
        match shape {
            Shape::Text(t) => {
                self.rect(&mut t.frame);
                self.text(&mut t.text);
                self.stroke(&mut t.stroke);
            }
            Shape::Image(i) => self.rect(&mut i.frame),
            Shape::Node(n) => {
                self.rect(&mut n.frame);
                if let Some(t) = &mut n.text {
                    self.text(t);
                }
                self.stroke(&mut n.stroke);
            }
            Shape::Path(p) => {
                for seg in &mut p.segments {
                    seg.map_points(|x, y| self.xy(x, y));
                }
                self.stroke(&mut p.stroke);
            }
            Shape::Connector(c) => {
                for p in c
                    .waypoints
                    .iter_mut()
                    .chain(c.from.point.iter_mut())
                    .chain(c.to.point.iter_mut())
                {
                    self.point(p);
                }
                if let Some(t) = &mut c.label {
                    self.text(t);
                }
                self.stroke(&mut c.stroke);
            }
            Shape::Group(g) => {
                self.rect(&mut g.frame);
                if let Some(t) = &mut g.label {
                    self.text(t);
                }
                self.stroke(&mut g.stroke);
                for child in &mut g.children {
                    self.shape(child);
                }
            }
        }
    }

    /// Places every shape of `shapes`.
    pub fn shapes(&self, shapes: &mut [Shape]) {
        if *self != Placement::IDENTITY {
            for shape in shapes {
                self.shape(shape);
            }
        }
    }
}

/// Makes the shapes of a drawing read from another file the document's own: each shape
/// (group members too) takes the id `new_id` gives for its old one, each picture the asset
/// name `asset_of` gives (`None` keeps it), and connectors keep their ends on the renamed
/// shapes.
pub fn adopt(
    shapes: &mut [Shape],
    mut new_id: impl FnMut(&str) -> String,
    asset_of: impl Fn(&str) -> Option<String>,
) {
    let mut renamed = HashMap::new();
    each_mut(shapes, &mut |shape| {
        let id = new_id(shape.id());
        renamed.insert(shape.id().to_string(), id.clone());
        match shape {
            Shape::Text(s) => s.id = id,
            Shape::Image(s) => {
                s.id = id;
                if let Some(name) = asset_of(&s.asset) {
                    s.asset = name;
                }
            }
            Shape::Node(s) => s.id = id,
            Shape::Path(s) => s.id = id,
            Shape::Connector(s) => s.id = id,
            Shape::Group(s) => s.id = id,
        }
    });
    each_mut(shapes, &mut |shape| {
        if let Shape::Connector(c) = shape {
            for end in [&mut c.from, &mut c.to] {
                if let Some(new) = end.shape.as_ref().and_then(|s| renamed.get(s)) {
                    end.shape = Some(new.clone());
                }
            }
        }
    });
}

/// Calls `f` on every shape, a group before its members.
fn each_mut(shapes: &mut [Shape], f: &mut impl FnMut(&mut Shape)) {
    for shape in shapes {
        f(shape);
        if let Shape::Group(g) = shape {
            each_mut(&mut g.children, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Connector, End, Geometry, Group, Node};

    fn node(id: &str, x: f64, y: f64) -> Shape {
        Shape::Node(Node {
            shadow: false,
            id: id.into(),
            frame: Rect::new(x, y, 10.0, 20.0),
            geometry: Geometry::Rect,
            fill: None,
            stroke: Some(Stroke::solid(crate::Color::rgb(0, 0, 0), 2.0)),
            text: Some(Text::plain("a", 12.0)),
            classes: Vec::new(),
        })
    }

    #[test]
    fn a_wide_picture_is_fitted_by_its_width_and_centred_in_height() {
        let p = Placement::fit(200.0, 100.0, Rect::new(10.0, 20.0, 100.0, 100.0)).unwrap();
        assert_eq!(p.scale, 0.5);
        assert_eq!((p.dx, p.dy), (10.0, 45.0));
        let mut s = node("n", 20.0, 40.0);
        p.shape(&mut s);
        let Shape::Node(n) = s else { unreachable!() };
        assert_eq!(n.frame, Rect::new(20.0, 65.0, 5.0, 10.0));
        assert_eq!(n.stroke.unwrap().width, 1.0);
        assert_eq!(n.text.unwrap().runs[0].size, 6.0);
        assert!(Placement::fit(0.0, 10.0, Rect::new(0.0, 0.0, 5.0, 5.0)).is_none());
        assert!(Placement::fit(10.0, 10.0, Rect::new(0.0, 0.0, 5.0, 0.0)).is_none());
    }

    #[test]
    fn adopted_shapes_take_new_ids_inside_groups_and_connectors_follow() {
        let end = |id: &str| End {
            shape: Some(id.into()),
            point: None,
            port: None,
            head: crate::ArrowHead::None,
        };
        let connector = Shape::Connector(Connector {
            id: "c".into(),
            from: end("a"),
            to: end("b"),
            waypoints: Vec::new(),
            stroke: None,
            line: crate::LineKind::Normal,
            label: None,
            length: None,
            curved: false,
            classes: Vec::new(),
        });
        let group = Shape::Group(Group::new(
            "g",
            Rect::new(0.0, 0.0, 10.0, 10.0),
            vec![node("b", 0.0, 0.0)],
        ));
        let mut shapes = vec![node("a", 0.0, 0.0), group, connector];
        adopt(&mut shapes, |old| format!("pic.{old}"), |_| None);
        let ids: Vec<&str> = crate::ShapeWalk::new(&shapes).map(|s| s.id()).collect();
        assert_eq!(ids, ["pic.a", "pic.g", "pic.b", "pic.c"]);
        let Shape::Connector(c) = &shapes[2] else {
            unreachable!()
        };
        assert_eq!(c.from.shape.as_deref(), Some("pic.a"));
        assert_eq!(c.to.shape.as_deref(), Some("pic.b"));
    }
}
