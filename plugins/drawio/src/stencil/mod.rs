//! Stencils: shapes described in draw.io's mxStencil XML, either inline in a style
//! (`shape=stencil(<base64>)`) or by name from the libraries draw.io ships
//! (`shape=mxgraph.cisco.routers.router`, see [`library`]). A stencil is a little drawing
//! program in a `w` x `h` box (100 x 100 when not given) scaled to the cell: paths,
//! rectangles and ellipses, each painted with the canvas state of its moment (fill and
//! stroke colours, line width, dashes), which starts as the cell's own. It runs the way
//! draw.io's `mxStencil.drawNode` does and gives one painted path per paint operation, and
//! one [`StencilText`] per `<text>` (Cisco's token ring says "Token Ring" in its circle).
//! Pictures inside a stencil are not drawn (draw.io's libraries hardly use them).

mod arc;
pub mod library;

use quire_sdk::geometry;
use quire_sdk::{Align, Color, Dash, Point, Rect, Segment, Stroke, VAlign};

pub use arc::svg_arc;

use crate::xml::{self, Element};

/// A stencil larger than this inflated is drawn as a box instead.
const MAX_STENCIL: usize = 4 << 20;
/// Path segments kept from one stencil, with the stencils it includes.
const MAX_SEGMENTS: usize = 100_000;
/// Painted parts kept from one stencil.
const MAX_PARTS: usize = 2_000;
/// How deep `include-shape` may nest (draw.io's libraries use one level).
const MAX_INCLUDES: usize = 4;
/// Saved canvas states at once.
const MAX_SAVED: usize = 64;
/// Texts kept from one stencil, and characters of each.
const MAX_TEXTS: usize = 64;
const MAX_TEXT_CHARS: usize = 500;
/// draw.io's canvas font size before a stencil sets one (`mxConstants.DEFAULT_FONTSIZE`).
const DEFAULT_FONT_SIZE: f64 = 11.0;

/// One paint operation's result: a path with the fill and stroke of its moment.
#[derive(Debug, Clone, PartialEq)]
pub struct Painted {
    pub segments: Vec<Segment>,
    pub fill: Option<Color>,
    pub stroke: Option<Stroke>,
}

/// A stencil's `<text>`: a line set at a point, aligned on it as `align` and `valign` say
/// (draw.io's defaults: left, top), in the canvas font of its moment.
#[derive(Debug, Clone, PartialEq)]
pub struct StencilText {
    pub text: String,
    pub at: Point,
    pub align: Align,
    pub valign: VAlign,
    pub size: f64,
    pub color: Color,
    pub bold: bool,
    pub italic: bool,
}

/// The canvas state a stencil starts with: the cell's colours and line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paint {
    pub fill: Option<Color>,
    pub stroke: Option<Color>,
    pub width: f64,
    pub dash: Dash,
}

impl Paint {
    pub fn of(fill: Option<Color>, stroke: Option<Stroke>) -> Paint {
        Paint {
            fill,
            stroke: stroke.map(|s| s.color),
            width: stroke.map_or(1.0, |s| s.width),
            dash: stroke.map_or(Dash::Solid, |s| s.dash),
        }
    }
}

/// The stencil in an inline `stencil(<base64>)` style value, or `None` when it cannot be
/// read.
pub fn inline(spec: &str) -> Option<Element> {
    let payload = spec.strip_prefix("stencil(")?.strip_suffix(')')?;
    let mut budget = MAX_STENCIL;
    let text = crate::mxfile::decompress(payload, &mut budget).ok()?;
    parse_shape(&text)
}

/// The stencil a library names, or `None` when no library draw.io ships has it.
pub fn named(name: &str) -> Option<Element> {
    parse_shape(&library::shape_xml(name)?)
}

fn parse_shape(text: &str) -> Option<Element> {
    let shape = xml::parse(text).ok()?;
    (shape.name == "shape").then_some(shape)
}

/// How a stencil is placed: its box, and the turn and mirroring of its cell.
#[derive(Debug, Clone, Copy)]
pub struct Placement {
    pub frame: Rect,
    /// Clockwise degrees: the cell's `direction` and `rotation` together.
    pub degrees: f64,
    /// The cell's direction is north or south: the stencil is laid out across.
    pub across: bool,
    pub flip_h: bool,
    pub flip_v: bool,
}

impl Placement {
    /// How a cell with `style` in `frame` is turned and mirrored.
    pub fn of(style: &crate::style::Style, frame: Rect) -> Placement {
        let direction = style.get("direction");
        Placement {
            frame,
            degrees: direction_degrees(direction) + style.num("rotation").unwrap_or(0.0),
            across: matches!(direction, Some("north" | "south")),
            flip_h: style.flag("flipH"),
            flip_v: style.flag("flipV"),
        }
    }

    /// The box a shape is drawn in before it is turned: the cell's, or across it when
    /// the cell's direction is north or south (draw.io swaps the sides, then turns).
    pub fn laid_out(&self) -> Rect {
        if self.across {
            crate::shapes::quarter_turn(self.frame)
        } else {
            self.frame
        }
    }

    #[cfg(test)]
    pub fn upright(frame: Rect) -> Placement {
        Placement {
            frame,
            degrees: 0.0,
            across: false,
            flip_h: false,
            flip_v: false,
        }
    }
}

/// Runs `shape` in `placement`, starting from `paint`. `None` when it draws more than
/// one stencil may.
pub fn draw(shape: &Element, placement: Placement, paint: &Paint) -> Option<Vec<Painted>> {
    draw_with_text(shape, placement, paint).map(|(parts, _)| parts)
}

/// [`draw`], and the texts the stencil sets.
pub fn draw_with_text(
    shape: &Element,
    placement: Placement,
    paint: &Paint,
) -> Option<(Vec<Painted>, Vec<StencilText>)> {
    let mut canvas = Canvas {
        cell: *paint,
        state: State {
            fill: paint.fill,
            stroke: paint.stroke,
            width: paint.width,
            dash: paint.dash,
            alpha: 1.0,
            font_size: DEFAULT_FONT_SIZE,
            font_color: Color::BLACK,
            font_style: 0,
        },
        saved: Vec::new(),
        map: Map::default(),
        current: Vec::new(),
        pen: Point::default(),
        start: Point::default(),
        out: Vec::new(),
        texts: Vec::new(),
        segments: 0,
        depth: 0,
    };
    canvas.shape(shape, placement.laid_out())?;
    let mut out = canvas.out;
    turn(&mut out, placement);
    // A text stands where its point goes when the cell turns; it stays level.
    let mut texts = canvas.texts;
    let mut anchors: Vec<Painted> = texts
        .iter()
        .map(|t| Painted {
            segments: vec![Segment::MoveTo {
                x: t.at.x,
                y: t.at.y,
            }],
            fill: None,
            stroke: None,
        })
        .collect();
    turn(&mut anchors, placement);
    for (text, anchor) in texts.iter_mut().zip(&anchors) {
        if let Some(Segment::MoveTo { x, y }) = anchor.segments.first() {
            text.at = Point { x: *x, y: *y };
        }
    }
    Some((out, texts))
}

/// Mirrors and turns parts drawn in [`Placement::laid_out`] as the cell is.
pub fn turn(parts: &mut [Painted], placement: Placement) {
    let centre = placement.frame.center();
    for part in parts {
        if placement.flip_h || placement.flip_v {
            mirror(
                &mut part.segments,
                centre,
                placement.flip_h,
                placement.flip_v,
            );
        }
        part.segments = rotate(
            std::mem::take(&mut part.segments),
            centre,
            placement.degrees,
        );
    }
}

fn mirror(segments: &mut [Segment], c: Point, h: bool, v: bool) {
    let flip = |x: &mut f64, y: &mut f64| {
        if h {
            *x = 2.0 * c.x - *x;
        }
        if v {
            *y = 2.0 * c.y - *y;
        }
    };
    for s in segments {
        s.map_points(flip);
    }
}

/// Stencil units to page points.
#[derive(Debug, Clone, Copy, Default)]
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

#[derive(Debug, Clone, Copy)]
struct State {
    fill: Option<Color>,
    stroke: Option<Color>,
    width: f64,
    dash: Dash,
    alpha: f64,
    font_size: f64,
    font_color: Color,
    /// draw.io's bits: 1 bold, 2 italic.
    font_style: u32,
}

struct Canvas {
    cell: Paint,
    state: State,
    saved: Vec<State>,
    map: Map,
    /// The figure the next paint operation paints, in page points.
    current: Vec<Segment>,
    /// In stencil units.
    pen: Point,
    start: Point,
    out: Vec<Painted>,
    texts: Vec<StencilText>,
    segments: usize,
    depth: usize,
}

fn num(el: &Element, k: &str) -> f64 {
    el.attr(k)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite())
        .map(|v| v.clamp(-1.0e6, 1.0e6))
        .unwrap_or(0.0)
}

impl Canvas {
    /// Draws `shape` into `frame` with the current state (`mxStencil.drawShape`).
    fn shape(&mut self, shape: &Element, frame: Rect) -> Option<()> {
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
        let outer = self.map;
        self.map = Map { sx, sy, dx, dy };
        self.state.width = match shape.attr("strokewidth") {
            Some("inherit") => self.cell.width,
            other => {
                let w = other.and_then(|v| v.parse::<f64>().ok()).unwrap_or(1.0);
                (w * sx.min(sy)).clamp(0.0, 1000.0)
            }
        };
        for part in ["background", "foreground"] {
            if let Some(el) = shape.child(part) {
                for op in &el.children {
                    self.op(op)?;
                }
            }
        }
        self.map = outer;
        Some(())
    }

    fn op(&mut self, el: &Element) -> Option<()> {
        let scale = self.map.sx.min(self.map.sy);
        match el.name.as_str() {
            "save" if self.saved.len() < MAX_SAVED => self.saved.push(self.state),
            "restore" => {
                if let Some(s) = self.saved.pop() {
                    self.state = s;
                }
            }
            "path" => {
                self.current.clear();
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
                self.current = match el.name.as_str() {
                    "rect" => geometry::rect(r),
                    "roundrect" => {
                        let arc = num(el, "arcsize").max(0.0);
                        let arc = if arc == 0.0 { 15.0 } else { arc };
                        geometry::rounded_rect(r, (r.w * arc / 100.0).min(r.h * arc / 100.0))
                    }
                    _ => {
                        let c = r.center();
                        geometry::ellipse(c.x, c.y, r.w / 2.0, r.h / 2.0)
                    }
                };
            }
            "fill" => self.paint(true, false)?,
            "stroke" => self.paint(false, true)?,
            "fillstroke" => self.paint(true, true)?,
            "fillcolor" => self.state.fill = self.color(el.attr("color")),
            "strokecolor" => self.state.stroke = self.color(el.attr("color")),
            "strokewidth" => {
                let by = if el.attr("fixed") == Some("1") {
                    1.0
                } else {
                    scale
                };
                self.state.width = (num(el, "width") * by).clamp(0.0, 1000.0);
            }
            "dashed" => {
                self.state.dash = if el.attr("dashed") == Some("1") {
                    Dash::Dashed
                } else {
                    Dash::Solid
                }
            }
            "alpha" | "fillalpha" | "strokealpha" => {
                self.state.alpha = el
                    .attr("alpha")
                    .and_then(|a| a.parse::<f64>().ok())
                    .filter(|a| a.is_finite())
                    .unwrap_or(1.0)
                    .clamp(0.0, 1.0);
            }
            "fontsize" => {
                self.state.font_size = (num(el, "size") * scale).clamp(0.0, 1000.0);
            }
            "fontcolor" => {
                if let Some(c) = self.color(el.attr("color")) {
                    self.state.font_color = c;
                }
            }
            "fontstyle" => {
                self.state.font_style = el
                    .attr("style")
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0)
            }
            "text" => self.text(el),
            "include-shape" if self.depth < MAX_INCLUDES => {
                if let Some(inner) = el.attr("name").and_then(named) {
                    let a = self.map.pt(num(el, "x"), num(el, "y"));
                    let frame = Rect::new(
                        a.x,
                        a.y,
                        num(el, "w") * self.map.sx,
                        num(el, "h") * self.map.sy,
                    );
                    let (width, current) = (self.state.width, std::mem::take(&mut self.current));
                    self.depth += 1;
                    let drawn = self.shape(&inner, frame);
                    self.depth -= 1;
                    self.state.width = width;
                    self.current = current;
                    drawn?;
                }
            }
            _ => {}
        }
        Some(())
    }

    /// A colour value: `none`, a colour, or the cell's own `fill` or `stroke`.
    fn color(&self, value: Option<&str>) -> Option<Color> {
        match value?.trim() {
            "fill" => self.cell.fill,
            "stroke" => self.cell.stroke,
            v => crate::style::parse_color(v)?,
        }
    }

    fn text(&mut self, el: &Element) {
        let Some(text) = el.attr("str").filter(|t| !t.trim().is_empty()) else {
            return;
        };
        if self.texts.len() >= MAX_TEXTS || self.state.font_size <= 0.0 {
            return;
        }
        self.texts.push(StencilText {
            text: text.chars().take(MAX_TEXT_CHARS).collect(),
            at: self.map.pt(num(el, "x"), num(el, "y")),
            align: match el.attr("align") {
                Some("center") => Align::Center,
                Some("right") => Align::Right,
                _ => Align::Left,
            },
            valign: match el.attr("valign") {
                Some("middle") => VAlign::Middle,
                Some("bottom") => VAlign::Bottom,
                _ => VAlign::Top,
            },
            size: self.state.font_size,
            color: self.state.font_color,
            bold: self.state.font_style & 1 != 0,
            italic: self.state.font_style & 2 != 0,
        });
    }

    fn paint(&mut self, fill: bool, stroke: bool) -> Option<()> {
        let fade = |c: Color| Color {
            a: (c.a as f64 * self.state.alpha).round() as u8,
            ..c
        };
        let fill = fill.then_some(self.state.fill).flatten().map(fade);
        let stroke = stroke
            .then_some(self.state.stroke)
            .flatten()
            .filter(|_| self.state.width > 0.0)
            .map(|c| Stroke {
                color: fade(c),
                width: self.state.width,
                dash: self.state.dash,
            });
        if self.current.is_empty() || (fill.is_none() && stroke.is_none()) {
            return Some(());
        }
        self.segments += self.current.len();
        if self.segments > MAX_SEGMENTS || self.out.len() >= MAX_PARTS {
            return None;
        }
        self.out.push(Painted {
            segments: self.current.clone(),
            fill,
            stroke,
        });
        Some(())
    }

    fn push_to(&mut self, p: Point) {
        let q = self.map.pt(p.x, p.y);
        self.current.push(Segment::LineTo { x: q.x, y: q.y });
        self.pen = p;
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
                self.current.push(Segment::MoveTo { x: q.x, y: q.y });
                self.pen = to;
                self.start = to;
            }
            "line" => {
                self.ensure_start();
                self.push_to(p("x", "y"));
            }
            "quad" => {
                self.ensure_start();
                let (c, to) = (p("x1", "y1"), p("x2", "y2"));
                let from = self.pen;
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
                    self.pen,
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
                self.pen = to;
            }
            "close" => {
                if !self.current.is_empty() {
                    self.current.push(Segment::Close);
                }
                self.pen = self.start;
            }
            _ => {}
        }
    }

    /// A path drawing before any move starts where it stands.
    fn ensure_start(&mut self) {
        if self.current.is_empty() {
            let q = self.map.pt(self.pen.x, self.pen.y);
            self.current.push(Segment::MoveTo { x: q.x, y: q.y });
        }
    }

    fn cubic(&mut self, c1: Point, c2: Point, to: Point) {
        let (a, b, c) = (
            self.map.pt(c1.x, c1.y),
            self.map.pt(c2.x, c2.y),
            self.map.pt(to.x, to.y),
        );
        self.current.push(Segment::CubicTo {
            x1: a.x,
            y1: a.y,
            x2: b.x,
            y2: b.y,
            x: c.x,
            y: c.y,
        });
        self.pen = to;
    }
}

fn lerp(a: Point, b: Point, t: f64) -> Point {
    Point {
        x: a.x + (b.x - a.x) * t,
        y: a.y + (b.y - a.y) * t,
    }
}

/// Clockwise degrees of a draw.io `direction` (east, the default, is upright).
pub fn direction_degrees(direction: Option<&str>) -> f64 {
    match direction {
        Some("south") => 90.0,
        Some("west") => 180.0,
        Some("north") => 270.0,
        _ => 0.0,
    }
}

/// Rotates every point of a path clockwise (y points down) about `c`.
pub fn rotate(segments: Vec<Segment>, c: Point, degrees: f64) -> Vec<Segment> {
    if degrees == 0.0 {
        return segments;
    }
    let (sin, cos) = degrees.to_radians().sin_cos();
    let turn = |x: &mut f64, y: &mut f64| {
        let (dx, dy) = (*x - c.x, *y - c.y);
        *x = c.x + dx * cos - dy * sin;
        *y = c.y + dx * sin + dy * cos;
    };
    segments
        .into_iter()
        .map(|mut s| {
            s.map_points(turn);
            s
        })
        .collect()
}

#[cfg(test)]
mod tests;
