//! One vertex to model shapes: a node, a text box, a picture or a path, plus a text box of
//! its own for a label the model cannot put inside the shape (a label below an icon, the
//! label of a picture or a path). Such a label's id is the shape's id + [`LABEL_SUFFIX`].

use base64::Engine;
use quire_sdk::layout::{min_content_width, natural_width, text_height};
use quire_sdk::{
    geometry, Align, Color, Geometry, Group, Image, Node, PathShape, Point, Rect, Segment, Shape,
    Stroke, Text, TextBox,
};

use crate::mxfile::BASE64;
use crate::notes::Notes;
use crate::shapes::{self, Kind, LabelPlace, VERTEX_FONT_SIZE};
use crate::stencil::{self, Paint, Painted, Placement};
use crate::stencil::{direction_degrees, rotate};
use crate::style::Style;
use crate::unique::{Assets, Ids};

/// Appended to a shape's id for the text box holding its label.
pub const LABEL_SUFFIX: &str = "-label";
/// Starts the class that keeps a stencil cell's draw.io style on the group drawing it.
pub const STYLE_CLASS: &str = "drawio-style:";
/// The outline standing in for a picture that is not in the file.
const MISSING_PICTURE: Color = Color::rgb(0xb0, 0xb0, 0xb0);
/// Gap between a shape and a label placed beside it.
const LABEL_GAP: f64 = 2.0;

/// Decodes `data:[type][;base64],payload`. draw.io leaves out `;base64` (a `;` would end
/// the style value) and still means base64, so base64 is tried first either way.
pub fn decode_data_uri(uri: &str) -> Option<(&'static str, Vec<u8>)> {
    let rest = uri.strip_prefix("data:")?;
    let (_, payload) = rest.split_once(',')?;
    let compact: String = payload.chars().filter(|c| !c.is_whitespace()).collect();
    let bytes = BASE64.decode(compact.as_bytes()).ok().or_else(|| {
        percent_encoding::percent_decode_str(payload)
            .collect::<Vec<u8>>()
            .into()
    })?;
    let kind = quire_sdk::image_probe::picture_media_type(&bytes)?;
    Some((kind, bytes))
}

pub struct Vertex<'a> {
    pub id: String,
    pub frame: Rect,
    pub style: &'a Style,
    /// The style as the file spells it, kept on shapes drawn from a stencil.
    pub style_text: &'a str,
    pub label: &'a str,
    pub link: Option<&'a str>,
    pub ids: &'a mut Ids,
    pub assets: &'a mut Assets,
    pub notes: &'a mut Notes,
    pub page: usize,
}

impl Vertex<'_> {
    pub fn shapes(&mut self) -> Vec<Shape> {
        let style = self.style;
        let text = shapes::label_text(self.label, style, VERTEX_FONT_SIZE, self.link);
        let place = shapes::label_place(style);
        let kind = shapes::kind(style);
        let main = match kind {
            Kind::Text => self.text_box(text.clone().unwrap_or_else(Text::default_layout)),
            Kind::Image => match self.picture() {
                Some(img) => img,
                None => {
                    // An outline where the picture would be: an opaque box would hide
                    // what lies under it (draw.io shows a picture it cannot load as
                    // nothing but a broken-image mark).
                    let mut node = self.framed(Geometry::Rect, text.clone(), place);
                    if let Shape::Node(n) = &mut node {
                        n.fill = None;
                        n.stroke = Some(Stroke::solid(MISSING_PICTURE, 0.75));
                    }
                    node
                }
            },
            Kind::Line => self.line(),
            Kind::Waypoint => self.waypoint(),
            Kind::Stencil(spec) => match crate::stencil::inline(&spec) {
                Some(program) => self.stenciled(&program, text.clone(), place),
                None => {
                    self.notes.stencils_as_boxes += 1;
                    self.framed(Geometry::Rect, text.clone(), place)
                }
            },
            Kind::Outline(g) => self.framed(g, text.clone(), place),
            Kind::Unknown(name) => match self.library_shape(&name) {
                Some(shape) => shape,
                None => {
                    *self
                        .notes
                        .unknown_shapes
                        .entry(short_name(&name))
                        .or_default() += 1;
                    self.framed(Geometry::Rect, text.clone(), place)
                }
            },
        };
        // A label the main shape does not hold (outside it, or on a picture or a path)
        // becomes a text box of its own.
        let held = match &main {
            Shape::Node(n) => n.text.is_some(),
            Shape::Text(_) => true,
            _ => false,
        };
        let mut out = vec![main];
        if let (false, Some(t)) = (held, text) {
            out.push(self.companion(t, place));
        }
        out
    }

    /// A cell a stencil program draws, or its box when the program draws more than one
    /// may. A program that draws nothing leaves the label alone, as in draw.io.
    fn stenciled(
        &mut self,
        program: &crate::xml::Element,
        text: Option<Text>,
        place: LabelPlace,
    ) -> Shape {
        match stencil::draw_with_text(program, self.placement(), &paint_of_style(self.style)) {
            Some((parts, texts)) if parts.is_empty() && texts.is_empty() => {
                let mut node = self.framed(Geometry::Rect, text, place);
                if let Shape::Node(n) = &mut node {
                    n.fill = None;
                    n.stroke = None;
                }
                node
            }
            Some((parts, texts)) => {
                self.notes.stencils_as_paths += 1;
                let mut group = self.stencil_group(parts);
                let texts = stencil_texts(texts, &self.id, self.page, self.ids);
                if let Shape::Group(g) = &mut group {
                    g.children.extend(texts);
                }
                group
            }
            None => {
                self.notes.stencils_as_boxes += 1;
                self.framed(Geometry::Rect, text, place)
            }
        }
    }

    /// A shape draw.io draws in code, or one of the stencil libraries it ships; `None`
    /// when the name is neither.
    fn library_shape(&mut self, name: &str) -> Option<Shape> {
        let style = self.style;
        if let Some(parts) =
            crate::coded::draw(name, style, self.placement(), &paint_of_style(style))
        {
            self.notes.stencils_as_paths += 1;
            let mut group = self.stencil_group(parts);
            let labels = coded_labels(name, style, self.frame, self.page, self.ids, &self.id);
            if let Shape::Group(g) = &mut group {
                g.children.extend(labels);
            }
            return Some(group);
        }
        let program = stencil::named(name)?;
        let text = shapes::label_text(self.label, style, VERTEX_FONT_SIZE, self.link);
        Some(self.stenciled(&program, text, shapes::label_place(style)))
    }

    fn placement(&self) -> Placement {
        Placement::of(self.style, self.frame)
    }

    /// The painted parts as one group that keeps the cell's style (see [`Self::drawn_group`]).
    fn stencil_group(&mut self, parts: Vec<Painted>) -> Shape {
        let children = painted_paths(parts, &self.id, self.style, self.page, self.ids);
        self.drawn_group(children)
    }

    /// Quire's drawing of a cell draw.io draws itself (a stencil, a shape drawn in code, an
    /// SVG picture): one group that keeps the cell's style, so a `.drawio` export writes the
    /// cell back as it was (see [`STYLE_CLASS`]) and not as Quire's drawing of it.
    fn drawn_group(&self, children: Vec<Shape>) -> Shape {
        Shape::Group(Group {
            classes: vec![format!("{STYLE_CLASS}{}", self.style_text)],
            ..Group::new(self.id.clone(), self.frame, children)
        })
    }

    /// A node, or a path when it is turned in a way the node's outline cannot show.
    fn framed(&mut self, g: Geometry, text: Option<Text>, place: LabelPlace) -> Shape {
        let style = self.style;
        let rotation = style.num("rotation").unwrap_or(0.0).rem_euclid(360.0);
        let direction = direction_degrees(style.get("direction"));
        let symmetric = matches!(
            g,
            Geometry::Rect
                | Geometry::Rounded
                | Geometry::Stadium
                | Geometry::Ellipse
                | Geometry::Circle
                | Geometry::DoubleCircle
                | Geometry::Diamond
        );
        let quarter = (rotation / 90.0).round() * 90.0;
        let right_angle = (rotation - quarter).abs() < 0.5;
        let inside = if place == LabelPlace::Inside {
            text
        } else {
            None
        };
        // The model's triangle points up: draw.io's is that triangle turned north.
        if g == Geometry::Triangle && direction == 270.0 && right_angle && quarter % 360.0 == 0.0 {
            return self.node(g, inside, None);
        }
        if g != Geometry::Triangle && (symmetric || direction == 0.0) {
            if rotation == 0.0 || (symmetric && right_angle && quarter % 180.0 == 0.0) {
                return self.node(g, inside, None);
            }
            if symmetric && right_angle {
                return self.node(g, inside, Some(shapes::quarter_turn(self.frame)));
            }
        }
        self.notes.rotated_as_paths += 1;
        let segments = rotate(
            oriented_outline(g, self.frame, direction),
            self.frame.center(),
            rotation,
        );
        self.path(segments)
    }

    fn node(&self, g: Geometry, mut text: Option<Text>, frame: Option<Rect>) -> Shape {
        let frame_now = frame.unwrap_or(self.frame);
        if let Some(t) = text.as_mut() {
            shapes::fit_side_spacing(t, self.style, quire_sdk::geometry::text_area(g, frame_now));
        }
        Shape::Node(Node {
            id: self.id.clone(),
            frame: frame.unwrap_or(self.frame),
            geometry: g,
            fill: shapes::fill(self.style),
            stroke: shapes::stroke(self.style),
            text,
            classes: Vec::new(),
            shadow: self.style.flag("shadow"),
        })
    }

    fn path(&self, segments: Vec<Segment>) -> Shape {
        Shape::Path(PathShape {
            id: self.id.clone(),
            segments,
            fill: shapes::fill(self.style),
            stroke: shapes::stroke(self.style),
            even_odd: false,
            shadow: self.style.flag("shadow"),
        })
    }

    fn text_box(&self, text: Text) -> Shape {
        let mut frame = self.frame;
        if !text.runs.is_empty() {
            // draw.io lets text run past its box (unwrapped text always, wrapped text by a
            // word longer than the box); the model breaks inside words instead, so the box
            // grows to what the text needs, around its alignment.
            let pad = text.padding.unwrap_or_default();
            let need = pad.left
                + pad.right
                + if self.style.get("whiteSpace") == Some("wrap") {
                    min_content_width(&text) + 1.0
                } else {
                    natural_width(&text) + 2.0
                };
            if need > frame.w {
                let grow = need - frame.w;
                frame.x -= match text.align {
                    Align::Center | Align::Justify => grow / 2.0,
                    Align::Right => grow,
                    Align::Left => 0.0,
                };
                frame.w = need;
            }
        }
        Shape::Text(TextBox {
            id: self.id.clone(),
            frame,
            text,
            fill: shapes::fill(self.style),
            stroke: shapes::stroke(self.style),
        })
    }

    fn picture(&mut self) -> Option<Shape> {
        let src = self.style.get("image")?;
        if !src.starts_with("data:") {
            self.notes.external_images += 1;
            return None;
        }
        let Some((media_type, bytes)) = decode_data_uri(src) else {
            self.notes.bad_images += 1;
            return None;
        };
        if media_type == quire_svg_read::MEDIA_TYPE {
            let drawn = crate::svg_picture::shapes(
                bytes.clone(),
                self.frame,
                &self.id,
                self.page,
                self.ids,
                self.assets,
            );
            if let Some(mut children) = drawn {
                if self.style.flag("shadow") {
                    cast_shadows(&mut children);
                }
                return Some(self.drawn_group(children));
            }
        }
        let asset = self.assets.add(media_type, bytes);
        Some(Shape::Image(Image {
            id: self.id.clone(),
            frame: self.frame,
            asset,
            alt: None,
            link: self.link.map(str::to_string),
        }))
    }

    /// draw.io's line shape: a stroke through the middle of the box, along its direction.
    fn line(&self) -> Shape {
        let r = self.frame;
        let c = r.center();
        let vertical = matches!(self.style.get("direction"), Some("south" | "north"));
        let (a, b) = if vertical {
            (
                Point { x: c.x, y: r.y },
                Point {
                    x: c.x,
                    y: r.bottom(),
                },
            )
        } else {
            (
                Point { x: r.x, y: c.y },
                Point {
                    x: r.right(),
                    y: c.y,
                },
            )
        };
        let stroke = shapes::stroke(self.style).or_else(|| {
            // A line with `strokeColor=none` draws in its fill colour in draw.io.
            shapes::fill(self.style).map(|c| Stroke::solid(c, 1.0))
        });
        Shape::Path(PathShape {
            id: self.id.clone(),
            segments: vec![
                Segment::MoveTo { x: a.x, y: a.y },
                Segment::LineTo { x: b.x, y: b.y },
            ],
            fill: None,
            stroke,
            even_odd: false,
            shadow: self.style.flag("shadow"),
        })
    }

    /// A routing point: draw.io draws a small dot in the stroke colour.
    fn waypoint(&self) -> Shape {
        let c = self.frame.center();
        let color = shapes::stroke(self.style)
            .map(|s| s.color)
            .unwrap_or(Color::BLACK);
        Shape::Node(Node {
            id: self.id.clone(),
            frame: Rect::new(c.x - 3.0, c.y - 3.0, 6.0, 6.0),
            geometry: Geometry::Circle,
            fill: Some(color),
            stroke: None,
            text: None,
            classes: Vec::new(),
            shadow: false,
        })
    }

    /// A text box for the label beside (or over) the shape.
    fn companion(&mut self, text: Text, place: LabelPlace) -> Shape {
        let r = self.frame;
        let wrap = self.style.get("whiteSpace") == Some("wrap");
        let natural = natural_width(&text) + 2.0;
        // Wrapped at the cell's width, but a word longer than that runs past it in draw.io
        // (HTML does not break inside words); the model would break it, so the box grows.
        let w = if wrap && r.w > 1.0 {
            r.w.max(min_content_width(&text) + 1.0)
        } else {
            natural
        };
        let h = text_height(&text, w).max(1.0);
        // The label's spacing moves it away from the cell (`spacingLeft` of a label on the
        // right): the box holds it, so the text keeps its width.
        let pad = text.padding.unwrap_or_default();
        let (w, h) = (w + pad.left + pad.right, h + pad.top + pad.bottom);
        let x_under = match text.align {
            Align::Left => r.x,
            Align::Right => r.right() - w,
            Align::Center | Align::Justify => r.center().x - w / 2.0,
        };
        let frame = match place {
            LabelPlace::Below => Rect::new(x_under, r.bottom() + LABEL_GAP, w, h),
            LabelPlace::Above => Rect::new(x_under, r.y - h - LABEL_GAP, w, h),
            LabelPlace::Left => Rect::new(r.x - w - LABEL_GAP, r.center().y - h / 2.0, w, h),
            LabelPlace::Right => Rect::new(r.right() + LABEL_GAP, r.center().y - h / 2.0, w, h),
            LabelPlace::Inside => {
                let w = w.max(r.w);
                Rect::new(r.center().x - w / 2.0, r.y, w, r.h.max(h))
            }
        };
        let id = self
            .ids
            .alloc(self.page, &format!("{}{LABEL_SUFFIX}", self.id));
        Shape::Text(TextBox {
            id,
            frame,
            text,
            fill: None,
            stroke: None,
        })
    }
}

/// `mxgraph.aws4.resourceIcon;resIcon=...` reads better as its library and name.
fn short_name(name: &str) -> String {
    name.chars().take(60).collect()
}

/// The outline of `g` in `frame`, turned by draw.io's `direction` (degrees clockwise from
/// east) the way draw.io turns it: the turned shape still fills the frame.
fn oriented_outline(g: Geometry, frame: Rect, direction: f64) -> Vec<Segment> {
    let r = frame;
    let c = r.center();
    let p = |x: f64, y: f64| Point { x, y };
    if g == Geometry::Triangle {
        let pts = match direction as i32 {
            90 => [p(r.x, r.y), p(r.right(), r.y), p(c.x, r.bottom())],
            180 => [p(r.right(), r.y), p(r.right(), r.bottom()), p(r.x, c.y)],
            270 => [p(r.x, r.bottom()), p(c.x, r.y), p(r.right(), r.bottom())],
            _ => [p(r.x, r.y), p(r.right(), c.y), p(r.x, r.bottom())],
        };
        return geometry::polygon(&pts);
    }
    let quarter = direction == 90.0 || direction == 270.0;
    let base = if quarter { shapes::quarter_turn(r) } else { r };
    rotate(geometry::outline(g, base), c, direction)
}

/// Every node and path of a drawing casts a shadow (draw.io shadows a picture's whole
/// drawing, not its box); groups cast none of their own, their members do.
fn cast_shadows(shapes: &mut [Shape]) {
    for shape in shapes {
        match shape {
            Shape::Node(n) => n.shadow = true,
            Shape::Path(p) => p.shadow = true,
            Shape::Group(g) => cast_shadows(&mut g.children),
            Shape::Text(_) | Shape::Image(_) | Shape::Connector(_) => {}
        }
    }
}

/// Painted parts as path shapes with ids under `owner`'s (`<owner>.1`, ...), each casting a
/// shadow when the cell's style has one (draw.io shadows the whole drawing).
pub fn painted_paths(
    parts: Vec<Painted>,
    owner: &str,
    style: &Style,
    page: usize,
    ids: &mut Ids,
) -> Vec<Shape> {
    let shadow = style.flag("shadow");
    parts
        .into_iter()
        .enumerate()
        .map(|(n, part)| {
            Shape::Path(PathShape {
                id: ids.alloc(page, &format!("{owner}.{}", n + 1)),
                segments: part.segments,
                fill: part.fill,
                stroke: part.stroke,
                even_odd: false,
                shadow,
            })
        })
        .collect()
}

/// The texts a stencil sets, as text boxes with ids under `owner`'s: each one line as wide
/// as its words, placed on its point as its alignment says.
fn stencil_texts(
    texts: Vec<stencil::StencilText>,
    owner: &str,
    page: usize,
    ids: &mut Ids,
) -> Vec<Shape> {
    texts
        .into_iter()
        .enumerate()
        .map(|(n, t)| {
            let mut text = Text::plain(t.text, t.size);
            for run in &mut text.runs {
                run.color = Some(t.color);
                run.bold = t.bold;
                run.italic = t.italic;
            }
            text.align = t.align;
            let w = quire_sdk::layout::natural_width(&text) + 1.0;
            let h = quire_sdk::layout::text_height(&text, w);
            let x = match t.align {
                Align::Left => t.at.x,
                Align::Right => t.at.x - w,
                _ => t.at.x - w / 2.0,
            };
            let y = match t.valign {
                quire_sdk::VAlign::Top => t.at.y,
                quire_sdk::VAlign::Bottom => t.at.y - h,
                quire_sdk::VAlign::Middle => t.at.y - h / 2.0,
            };
            Shape::Text(TextBox {
                id: ids.alloc(page, &format!("{owner}.text{}", n + 1)),
                frame: Rect::new(x, y, w, h),
                text,
                fill: None,
                stroke: None,
            })
        })
        .collect()
}

/// The text a shape drawn in code writes, as text boxes with ids under `owner`'s.
pub fn coded_labels(
    name: &str,
    style: &Style,
    frame: Rect,
    page: usize,
    ids: &mut Ids,
    owner: &str,
) -> Vec<Shape> {
    crate::coded::labels(name, style, frame)
        .into_iter()
        .enumerate()
        .map(|(n, (frame, text))| {
            Shape::Text(TextBox {
                id: ids.alloc(page, &format!("{owner}.text{}", n + 1)),
                frame,
                text,
                fill: None,
                stroke: None,
            })
        })
        .collect()
}

pub fn paint_of_style(style: &Style) -> Paint {
    Paint::of(shapes::fill(style), shapes::stroke(style))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_uris_with_and_without_the_base64_marker() {
        let png = b"\x89PNG\r\n\x1a\nrest";
        let b64 = BASE64.encode(png);
        let (t, bytes) = decode_data_uri(&format!("data:image/png,{b64}")).unwrap();
        assert_eq!((t, bytes.as_slice()), ("image/png", &png[..]));
        let (t, _) = decode_data_uri(&format!("data:image/png;base64,{b64}")).unwrap();
        assert_eq!(t, "image/png");
        let (t, bytes) = decode_data_uri("data:image/svg+xml,%3Csvg%3E%3C/svg%3E").unwrap();
        assert_eq!(
            (t, bytes.as_slice()),
            ("image/svg+xml", &b"<svg></svg>"[..])
        );
        assert!(decode_data_uri("data:image/png,notapicture").is_none());
    }

    #[test]
    fn assets_are_shared_by_content() {
        let mut a = Assets::default();
        let x = a.add("image/png", vec![1, 2, 3]);
        let y = a.add("image/png", vec![1, 2, 3]);
        let z = a.add("image/jpeg", vec![4]);
        assert_eq!(x, y);
        assert_ne!(x, z);
        assert_eq!(a.list.len(), 2);
        assert!(z.ends_with(".jpg"));
    }

    #[test]
    fn east_triangle_points_right_and_rotation_turns_clockwise() {
        let r = Rect::new(0.0, 0.0, 20.0, 10.0);
        let tri = oriented_outline(Geometry::Triangle, r, 0.0);
        assert_eq!(tri[1], Segment::LineTo { x: 20.0, y: 5.0 });
        // A quarter turn clockwise takes the right-hand point to the bottom.
        let turned = rotate(tri, r.center(), 90.0);
        match turned[1] {
            Segment::LineTo { x, y } => {
                assert!(
                    (x - 10.0).abs() < 1e-9 && (y - 15.0).abs() < 1e-9,
                    "{x},{y}"
                )
            }
            other => panic!("{other:?}"),
        }
    }
}
