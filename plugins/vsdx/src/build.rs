//! One page's shapes to the model. Each `<Shape>` becomes one model shape at absolute page
//! coordinates (points, y down): a group with its children, a connector for a 1-D shape
//! (attached through the page's `<Connects>`), a picture for foreign data, a node for a
//! plain rectangle or ellipse, a path for any other geometry, a text box for text alone.
//! Text that lies outside its shape (or on a path) is a text box of its own, with the
//! shape's id plus [`LABEL_SUFFIX`].

use std::collections::{HashMap, HashSet};

use quire_sdk::{
    Align, ArrowHead, Color, Connector, Dash, End, FontFamily, Geometry, Group, Image, LineKind,
    Node, PathShape, Point, Rect, Run, Segment, Shape, Stroke, Text, TextBox, VAlign,
};

use crate::doc::{color, Drawing};
use crate::geom::{draw, Affine};
use crate::notes::{Assets, Notes};
use crate::package::Package;
use crate::sheet::{Resolved, Sheet};

/// Appended to a shape's id for the text box holding its text.
pub const LABEL_SUFFIX: &str = "-label";
/// Groups nested deeper than this are flattened into their ancestor.
pub const MAX_NEST: usize = 48;

pub struct Ctx<'a, 'p> {
    pub drawing: &'a Drawing,
    /// What the ids of this sheet list start with: `p3` for the third page, `p3-b8` for
    /// the shapes of background page 8 drawn behind it.
    pub prefix: String,
    /// Page inches (y up) to model points (y down).
    pub to_model: Affine,
    /// Points per inch after any scaling of the page.
    pub unit: f64,
    /// Connector sheet id -> the sheets its begin and end are glued to.
    pub connects: HashMap<u32, [Option<u32>; 2]>,
    /// Every sheet id on the page.
    pub present: HashSet<u32>,
    /// The page part's relationships (pictures).
    pub rels: HashMap<String, (String, String)>,
    pub pkg: &'a mut Package<'p>,
    pub assets: &'a mut Assets,
    pub notes: &'a mut Notes,
    /// Model ids given on this page: a sheet id some writers repeat (third-party tools
    /// write 4294967295 for every shape they add) gets a suffix instead of breaking the
    /// model's unique ids; glue keeps naming the first.
    pub taken: HashSet<String>,
}

fn bbox(points: impl IntoIterator<Item = Point>) -> Rect {
    let mut b: Option<(f64, f64, f64, f64)> = None;
    for p in points {
        b = Some(match b {
            None => (p.x, p.y, p.x, p.y),
            Some((x0, y0, x1, y1)) => (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y)),
        });
    }
    b.map(|(x0, y0, x1, y1)| Rect::new(x0, y0, x1 - x0, y1 - y0))
        .unwrap_or_default()
}

fn corners(tf: &Affine, x: f64, y: f64, w: f64, h: f64) -> Rect {
    bbox([
        tf.apply(x, y),
        tf.apply(x + w, y),
        tf.apply(x + w, y + h),
        tf.apply(x, y + h),
    ])
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.5
}

fn arrow(v: Option<f64>) -> ArrowHead {
    match v.unwrap_or(0.0) as i64 {
        0 => ArrowHead::None,
        1 | 6 | 7 | 9 => ArrowHead::Open,
        10 | 11 | 20 | 21 => ArrowHead::Circle,
        22 | 23 => ArrowHead::Diamond,
        24..=45 => ArrowHead::Cross,
        _ => ArrowHead::Arrow,
    }
}

impl Ctx<'_, '_> {
    pub fn id(&self, sheet: u32) -> String {
        format!("{}-{sheet}", self.prefix)
    }

    /// `id`, or `id~N` with the first N not yet given on this page.
    fn unique(&mut self, id: String) -> String {
        if self.taken.insert(id.clone()) {
            return id;
        }
        let fresh = (2..)
            .map(|n| format!("{id}~{n}"))
            .find(|candidate| !self.taken.contains(candidate))
            .expect("an unused suffix");
        self.taken.insert(fresh.clone());
        fresh
    }

    /// The master shape a sheet inherits from, and the master its children use.
    fn base<'d>(
        &self,
        s: &Sheet,
        inherited: Option<u32>,
        drawing: &'d Drawing,
    ) -> (Option<&'d Sheet>, Option<u32>) {
        let m = s.master.or(inherited);
        let Some(shapes) = m.and_then(|m| drawing.masters.get(&m)) else {
            return (None, m);
        };
        let base = match s.master_shape {
            Some(ms) => find(shapes, ms),
            None if s.master.is_some() && shapes.len() == 1 => shapes.first(),
            None => None,
        };
        (base, m)
    }

    /// The model shapes of `sheets`, placed in a parent whose local coordinates map to
    /// page inches by `parent`.
    pub fn shapes(
        &mut self,
        sheets: &[Sheet],
        parent: &Affine,
        master: Option<u32>,
        synth: Option<&str>,
        depth: usize,
        out: &mut Vec<Shape>,
    ) {
        let drawing = self.drawing;
        for s in sheets {
            let (base, m) = self.base(s, master, drawing);
            let r = Resolved {
                sheet: s,
                base,
                styles: &drawing.styles,
            };
            let id = match synth {
                Some(prefix) => format!("{prefix}.m{}", s.id),
                None => self.id(s.id),
            };
            let id = self.unique(id);
            self.sheet(&r, id, parent, m, synth.is_some(), depth, out);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn sheet(
        &mut self,
        r: &Resolved<'_>,
        id: String,
        parent: &Affine,
        master: Option<u32>,
        synthesized: bool,
        depth: usize,
        out: &mut Vec<Shape>,
    ) {
        let w = r.num("Width").unwrap_or(0.0);
        let h = r.num("Height").unwrap_or(0.0);
        let pin = Point {
            x: r.num("PinX").unwrap_or(0.0),
            y: r.num("PinY").unwrap_or(0.0),
        };
        let loc = Point {
            x: r.num("LocPinX").unwrap_or(w / 2.0),
            y: r.num("LocPinY").unwrap_or(h / 2.0),
        };
        let flip = |k: &str| r.num(k).is_some_and(|v| v != 0.0);
        let local = Affine::placement(
            pin,
            loc,
            r.num("Angle").unwrap_or(0.0),
            flip("FlipX"),
            flip("FlipY"),
        );
        let to_page = parent.then(&local);
        let tf = self.to_model.then(&to_page);
        let frame = corners(&tf, 0.0, 0.0, w, h);

        // Children: the shape's own, or, for an instance that lists none, its master's.
        let (kids, synth_prefix): (&[Sheet], Option<String>) = if !r.sheet.children.is_empty() {
            (&r.sheet.children, synthesized.then(|| id.clone()))
        } else if let Some(b) = r.base.filter(|b| !b.children.is_empty()) {
            (&b.children, Some(id.clone()))
        } else {
            (&[], None)
        };
        let one_d = kids.is_empty() && r.has_own("BeginX") && r.has_own("EndX");
        let text = self.text(r);

        if !kids.is_empty() {
            let mut children = Vec::new();
            if let Some(outline) = self.outline(r, w, h, &tf, &format!("{id}-outline")) {
                children.push(outline);
            }
            let target = if depth < MAX_NEST {
                &mut children
            } else {
                self.notes.flattened += 1;
                &mut *out
            };
            self.shapes(
                kids,
                &to_page,
                master,
                synth_prefix.as_deref(),
                depth + 1,
                target,
            );
            // A group's text is drawn above its members (their fills would hide it), in its
            // own text frame: the group's last child.
            if let Some(t) = text {
                let text_frame = self.text_frame(r, w, h, &tf);
                target.push(self.label(&id, t, text_frame));
            }
            if depth < MAX_NEST {
                out.push(Shape::Group(Group::new(id, frame, children)));
            }
            return;
        }
        if one_d {
            let c = self.connector(r, id, w, h, parent, &tf, text, synthesized);
            out.push(Shape::Connector(c));
            return;
        }
        if let Some((rel, kind)) = r
            .sheet
            .foreign
            .as_ref()
            .or(r.base.and_then(|b| b.foreign.as_ref()))
        {
            if let Some(img) = self.picture(&id, rel, kind, frame) {
                out.push(img);
                if let Some(t) = text {
                    out.push(self.label(&id, t, self.text_frame(r, w, h, &tf)));
                }
                return;
            }
        }

        let sections = r.geometry();
        let drawn: Vec<_> = sections
            .iter()
            .map(|s| {
                self.notes.approximated += s
                    .rows
                    .iter()
                    .filter(|row| {
                        matches!(
                            row.t.as_deref(),
                            Some("NURBSTo" | "SplineStart" | "SplineKnot")
                        )
                    })
                    .count();
                draw(s, w, h, &tf)
            })
            .filter(|d| !d.segments.is_empty())
            .collect();
        let text_frame = self.text_frame(r, w, h, &tf);
        if drawn.is_empty() {
            let text = text.unwrap_or_else(Text::default_layout);
            out.push(Shape::Text(TextBox {
                id,
                frame: if text.runs.is_empty() {
                    frame
                } else {
                    text_frame
                },
                text,
                fill: None,
                stroke: None,
            }));
            return;
        }
        let filled = drawn.iter().any(|d| d.filled);
        let stroked = drawn.iter().any(|d| d.stroked);
        let fill = filled.then(|| self.fill(r)).flatten();
        let stroke = stroked.then(|| self.stroke(r)).flatten();
        let node_geometry = if drawn.len() == 1 && tf.is_axis_aligned() {
            plain_outline(&drawn[0].segments, frame)
        } else {
            None
        };
        // A node holds its text centred in its frame: only a text frame inside the shape
        // and centred on it can go there; any other (a swimlane's title in its top left
        // corner) keeps its own place as a text box.
        let inside = |t: &Rect| {
            t.x >= frame.x - 1.0
                && t.y >= frame.y - 1.0
                && t.right() <= frame.right() + 1.0
                && t.bottom() <= frame.bottom() + 1.0
                && ((t.x + t.w / 2.0) - (frame.x + frame.w / 2.0)).abs() <= 1.0
                && ((t.y + t.h / 2.0) - (frame.y + frame.h / 2.0)).abs() <= 1.0
        };
        match node_geometry {
            Some(g) => {
                let g = if g == Geometry::Rect && r.num("Rounding").is_some_and(|v| v > 0.0) {
                    Geometry::Rounded
                } else {
                    g
                };
                let (held, loose) = match text {
                    Some(t) if inside(&text_frame) => (Some(t), None),
                    other => (None, other),
                };
                out.push(Shape::Node(Node {
                    shadow: false,
                    id: id.clone(),
                    frame,
                    geometry: g,
                    fill,
                    stroke,
                    text: held,
                    classes: Vec::new(),
                }));
                if let Some(t) = loose {
                    out.push(self.label(&id, t, text_frame));
                }
            }
            None => {
                out.push(Shape::Path(PathShape {
                    shadow: false,
                    id: id.clone(),
                    segments: drawn.into_iter().flat_map(|d| d.segments).collect(),
                    fill,
                    stroke,
                    even_odd: false,
                }));
                if let Some(t) = text {
                    out.push(self.label(&id, t, text_frame));
                }
            }
        }
    }

    /// A group's own geometry, drawn under its children.
    fn outline(
        &mut self,
        r: &Resolved<'_>,
        w: f64,
        h: f64,
        tf: &Affine,
        id: &str,
    ) -> Option<Shape> {
        let drawn: Vec<_> = r
            .geometry()
            .iter()
            .map(|s| draw(s, w, h, tf))
            .filter(|d| !d.segments.is_empty())
            .collect();
        if drawn.is_empty() {
            return None;
        }
        let fill = drawn
            .iter()
            .any(|d| d.filled)
            .then(|| self.fill(r))
            .flatten();
        let stroke = drawn
            .iter()
            .any(|d| d.stroked)
            .then(|| self.stroke(r))
            .flatten();
        if fill.is_none() && stroke.is_none() {
            return None;
        }
        Some(Shape::Path(PathShape {
            shadow: false,
            id: id.to_string(),
            segments: drawn.into_iter().flat_map(|d| d.segments).collect(),
            fill,
            stroke,
            even_odd: false,
        }))
    }

    fn label(&self, owner: &str, text: Text, frame: Rect) -> Shape {
        Shape::Text(TextBox {
            id: format!("{owner}{LABEL_SUFFIX}"),
            frame,
            text,
            fill: None,
            stroke: None,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn connector(
        &mut self,
        r: &Resolved<'_>,
        id: String,
        w: f64,
        h: f64,
        parent: &Affine,
        tf: &Affine,
        label: Option<Text>,
        synthesized: bool,
    ) -> Connector {
        // The route: the vertices of the first drawn section. Visio draws the geometry, so
        // its ends are where the line starts and stops; `BeginX`..`EndY` only stand in when
        // there is none (third-party writers' ends can disagree with their own geometry).
        let mut route: Vec<Point> = r
            .geometry()
            .iter()
            .map(|s| draw(s, w, h, tf))
            .find(|d| !d.segments.is_empty())
            .map(|d| {
                d.segments
                    .iter()
                    .filter_map(|s| match *s {
                        Segment::MoveTo { x, y } | Segment::LineTo { x, y } => Some(Point { x, y }),
                        Segment::CubicTo { x, y, .. } => Some(Point { x, y }),
                        Segment::Close => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let to_model = self.to_model.then(parent);
        let (begin, end) = match (route.first(), route.last()) {
            (Some(&first), Some(&last)) if route.len() >= 2 => (first, last),
            _ => (
                to_model.apply(
                    r.num("BeginX").unwrap_or(0.0),
                    r.num("BeginY").unwrap_or(0.0),
                ),
                to_model.apply(r.num("EndX").unwrap_or(0.0), r.num("EndY").unwrap_or(0.0)),
            ),
        };
        let waypoints = if route.len() > 2 {
            route.pop();
            route.remove(0);
            route.truncate(1000);
            route
        } else {
            Vec::new()
        };
        let glued = if synthesized {
            [None, None]
        } else {
            self.connects
                .get(&r.sheet.id)
                .copied()
                .unwrap_or([None, None])
        };
        let end_of = |to: Option<u32>, point: Point, head: ArrowHead| End {
            port: None,
            shape: to.filter(|t| self.present.contains(t)).map(|t| self.id(t)),
            point: Some(point),
            head,
        };
        let stroke = self.stroke(r);
        Connector {
            id,
            from: end_of(glued[0], begin, arrow(r.num("BeginArrow"))),
            to: end_of(glued[1], end, arrow(r.num("EndArrow"))),
            waypoints,
            line: if stroke.is_none() {
                LineKind::Invisible
            } else {
                LineKind::Normal
            },
            stroke,
            label,
            length: None,
            curved: false,
            classes: Vec::new(),
        }
    }

    fn picture(&mut self, id: &str, rel: &str, kind: &str, frame: Rect) -> Option<Shape> {
        let part = self.rels.get(rel).map(|(_, p)| p.clone());
        let bytes = match part.as_deref().map(|p| self.pkg.read(p)) {
            Some(Ok(Some(b))) => b,
            _ => {
                self.notes.missing_pictures += 1;
                return None;
            }
        };
        let ext = part
            .as_deref()
            .and_then(|p| p.rsplit_once('.'))
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        let media_type = match ext.as_str() {
            "png" => "image/png",
            "jpg" | "jpeg" => "image/jpeg",
            "gif" => "image/gif",
            "bmp" => "image/bmp",
            "tif" | "tiff" => "image/tiff",
            "svg" => "image/svg+xml",
            "wmf" => "image/wmf",
            _ if kind == "EnhMetaFile" || ext == "emf" => "image/emf",
            _ => "application/octet-stream",
        };
        if matches!(media_type, "image/emf" | "image/wmf") {
            self.notes.metafiles += 1;
        }
        let asset = self.assets.add(media_type, &ext, bytes);
        Some(Shape::Image(Image {
            id: id.to_string(),
            frame,
            asset,
            alt: None,
            link: None,
        }))
    }

    fn fill(&self, r: &Resolved<'_>) -> Option<Color> {
        let pattern = r.num("FillPattern").unwrap_or(1.0);
        if pattern == 0.0 {
            return None;
        }
        // A gradient (patterns 25-40, or the 2013 gradient switch) has its colours in its
        // stops; the model fills with one colour, the first stop's.
        let gradient = r.num("FillGradientEnabled").is_some_and(|v| v != 0.0)
            || (25.0..=40.0).contains(&pattern);
        if gradient {
            let stop = r
                .first_row_cell("FillGradient", "GradientStopColor")
                .and_then(|v| color(v, &self.drawing.colors));
            if let Some(mut c) = stop {
                let trans = r
                    .first_row_cell("FillGradient", "GradientStopColorTrans")
                    .and_then(|v| v.parse::<f64>().ok());
                c.a = alpha(trans);
                return Some(c);
            }
        }
        let mut c = r
            .cell("FillForegnd")
            .and_then(|v| color(v, &self.drawing.colors))
            .unwrap_or(Color::WHITE);
        c.a = alpha(r.num("FillForegndTrans"));
        Some(c)
    }

    fn stroke(&self, r: &Resolved<'_>) -> Option<Stroke> {
        let pattern = r.num("LinePattern").unwrap_or(1.0) as i64;
        if pattern == 0 {
            return None;
        }
        let mut c = r
            .cell("LineColor")
            .and_then(|v| color(v, &self.drawing.colors))
            .unwrap_or(Color::BLACK);
        c.a = alpha(r.num("LineColorTrans"));
        Some(Stroke {
            color: c,
            width: (r.num("LineWeight").unwrap_or(0.01).max(0.0) * self.unit).min(1000.0),
            dash: match pattern {
                1 => Dash::Solid,
                3 | 10 | 16 => Dash::Dotted,
                _ => Dash::Dashed,
            },
        })
    }

    /// The text block's box on the page (TxtPinX, TxtWidth, ... in the shape's
    /// coordinates; by default the shape's own box).
    fn text_frame(&self, r: &Resolved<'_>, w: f64, h: f64, tf: &Affine) -> Rect {
        let tw = r.num("TxtWidth").unwrap_or(w);
        let th = r.num("TxtHeight").unwrap_or(h);
        let x = r.num("TxtPinX").unwrap_or(w / 2.0) - r.num("TxtLocPinX").unwrap_or(tw / 2.0);
        let y = r.num("TxtPinY").unwrap_or(h / 2.0) - r.num("TxtLocPinY").unwrap_or(th / 2.0);
        corners(tf, x, y, tw, th)
    }

    fn text(&self, r: &Resolved<'_>) -> Option<Text> {
        let content = r.text()?;
        if content.trim().is_empty() {
            return None;
        }
        let size = r
            .first_row_cell("Character", "Size")
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v > 0.0)
            .map(|inches| inches * self.unit)
            .unwrap_or(12.0 * self.unit / 72.0)
            .clamp(0.5, 1000.0);
        let mut run = Run::plain(content.trim_matches('\n'), size);
        let style = r
            .first_row_cell("Character", "Style")
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0) as u32;
        run.bold = style & 1 != 0;
        run.italic = style & 2 != 0;
        run.underline = style & 4 != 0;
        run.color = r
            .first_row_cell("Character", "Color")
            .and_then(|v| color(v, &self.drawing.colors))
            .filter(|c| *c != Color::BLACK);
        if let Some(font) = r.first_row_cell("Character", "Font") {
            let f = font.to_ascii_lowercase();
            if f.contains("times") || f.contains("georgia") {
                run.font = FontFamily::Times;
            } else if f.contains("courier") || f.contains("consolas") {
                run.font = FontFamily::Courier;
            }
        }
        let align = match r
            .first_row_cell("Paragraph", "HorzAlign")
            .and_then(|v| v.parse::<f64>().ok())
            .map(|v| v as i64)
        {
            Some(0) => Align::Left,
            Some(2) => Align::Right,
            Some(3) | Some(4) => Align::Justify,
            _ => Align::Center,
        };
        let valign = match r.num("VerticalAlign").map(|v| v as i64) {
            Some(0) => VAlign::Top,
            Some(2) => VAlign::Bottom,
            _ => VAlign::Middle,
        };
        Some(Text {
            runs: vec![run],
            align,
            valign,
            line_height: 1.2,
            direction: None,
            padding: None,
        })
    }
}

/// `Trans` cells: 0 opaque .. 1 clear.
fn alpha(trans: Option<f64>) -> u8 {
    ((1.0 - trans.unwrap_or(0.0).clamp(0.0, 1.0)) * 255.0).round() as u8
}

fn find(shapes: &[Sheet], id: u32) -> Option<&Sheet> {
    for s in shapes {
        if s.id == id {
            return Some(s);
        }
        if let Some(f) = find(&s.children, id) {
            return Some(f);
        }
    }
    None
}

/// A drawn section that is exactly the frame's rectangle or ellipse.
fn plain_outline(segments: &[Segment], frame: Rect) -> Option<Geometry> {
    let points: Vec<Point> = segments
        .iter()
        .filter_map(|s| match *s {
            Segment::MoveTo { x, y } | Segment::LineTo { x, y } => Some(Point { x, y }),
            Segment::CubicTo { x, y, .. } => Some(Point { x, y }),
            Segment::Close => None,
        })
        .collect();
    let cubics = segments
        .iter()
        .filter(|s| matches!(s, Segment::CubicTo { .. }))
        .count();
    let on_corner = |p: &Point| {
        (close(p.x, frame.x) || close(p.x, frame.right()))
            && (close(p.y, frame.y) || close(p.y, frame.bottom()))
    };
    let closed = segments.last() == Some(&Segment::Close)
        || points
            .first()
            .zip(points.last())
            .is_some_and(|(a, b)| close(a.x, b.x) && close(a.y, b.y));
    if cubics == 0 && (4..=5).contains(&points.len()) && closed && points.iter().all(on_corner) {
        let distinct: HashSet<(i64, i64)> = points
            .iter()
            .map(|p| ((p.x * 10.0).round() as i64, (p.y * 10.0).round() as i64))
            .collect();
        return (distinct.len() == 4).then_some(Geometry::Rect);
    }
    if cubics == 4 && points.len() == 5 {
        let b = quire_sdk::geometry::bounds(segments)?;
        let c = frame.center();
        let fits = close(b.x, frame.x)
            && close(b.right(), frame.right())
            && close(b.y, frame.y)
            && close(b.bottom(), frame.bottom());
        let through_sides = points.iter().all(|p| close(p.x, c.x) || close(p.y, c.y));
        if fits && through_sides {
            return Some(if close(frame.w, frame.h) {
                Geometry::Circle
            } else {
                Geometry::Ellipse
            });
        }
    }
    None
}
