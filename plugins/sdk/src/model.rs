//! The Quire document model, version `quire/1`.
//!
//! Units are PDF points (1/72 inch); the origin is the top left of each page and y grows
//! downwards (the contract's field geometry). A document is pages; a page holds shapes.
//! Every shape has an id, unique within the document, so connectors can stay attached and
//! edits can name what they change.
//!
//! Compatibility rule: the JSON evolves only by adding optional fields (with `serde(default)`).
//! Unknown fields are ignored on read, so an older host keeps reading a newer model.

use serde::{Deserialize, Serialize};

#[cfg(feature = "schema")]
use schemars::JsonSchema;

/// The version tag every model carries in its `model` field.
pub const MODEL_VERSION: &str = "quire/1";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Document {
    /// Always `quire/1` for this version of the model.
    pub model: String,
    pub kind: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The language of the text (BCP 47: `ja`, `zh-Hant`, `ar`), from HTML's `lang` or
    /// Markdown's front matter: it picks the regional glyph forms of Chinese, Japanese and
    /// Korean text, and the language rules of shaping. At most 35 of `A-Z a-z 0-9 -`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    pub pages: Vec<Page>,
    /// Form fields; a key used by several entries is one question with several boxes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
}

impl Document {
    pub fn new(kind: Kind) -> Self {
        Document {
            model: MODEL_VERSION.to_string(),
            kind,
            title: None,
            lang: None,
            pages: Vec::new(),
            fields: Vec::new(),
        }
    }

    /// Every shape of every page, groups included and descended into.
    pub fn shapes(&self) -> impl Iterator<Item = &Shape> {
        self.pages.iter().flat_map(|p| ShapeWalk::new(&p.shapes))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    // Pages of flowing text, pictures and fields that print as a PDF (Markdown, HTML, PDF
    // and images make one); named `pdf` on the wire, as the contract's kinds are. (Plain
    // comments: a doc comment here would change the published schema.)
    #[serde(rename = "pdf")]
    Paged,
    // A drawing of shapes and connectors (mermaid, draw.io, Visio, SVG).
    Diagram,
}

impl Kind {
    /// The kind's former name, kept so that a plugin written against it still builds.
    #[deprecated(note = "the kind is `Kind::Paged` (still `pdf` on the wire)")]
    #[allow(non_upper_case_globals)]
    pub const Pdf: Kind = Kind::Paged;

    pub const ALL: [Kind; 2] = [Kind::Paged, Kind::Diagram];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Paged => "pdf",
            Kind::Diagram => "diagram",
        }
    }

    /// The kind named `name` (`pdf`, `diagram`), as `as_str` writes it.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Page {
    /// What the source called the page (a draw.io or Visio page name); the PDF export lists
    /// named pages in its outline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub width: f64,
    pub height: f64,
    /// Clockwise rotation for display, a multiple of 90.
    #[serde(default, skip_serializing_if = "is_zero_u16")]
    pub rotate: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<Color>,
    #[serde(default)]
    pub shapes: Vec<Shape>,
}

impl Page {
    pub fn new(width: f64, height: f64) -> Self {
        Page {
            name: None,
            width,
            height,
            rotate: 0,
            background: None,
            shapes: Vec::new(),
        }
    }
}

/// A shape on a page, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Shape {
    Text(TextBox),
    Image(Image),
    /// A geometric figure (rectangle, ellipse, diamond, ...) with optional text inside.
    Node(Node),
    Path(PathShape),
    Connector(Connector),
    /// A container (subgraph, swimlane, layer): its children are drawn inside its box.
    Group(Group),
}

impl Shape {
    pub fn id(&self) -> &str {
        match self {
            Shape::Text(s) => &s.id,
            Shape::Image(s) => &s.id,
            Shape::Node(s) => &s.id,
            Shape::Path(s) => &s.id,
            Shape::Connector(s) => &s.id,
            Shape::Group(s) => &s.id,
        }
    }

    /// The box the shape occupies, where it has one of its own (connectors and paths are
    /// placed by their points instead).
    pub fn frame(&self) -> Option<Rect> {
        match self {
            Shape::Text(s) => Some(s.frame),
            Shape::Image(s) => Some(s.frame),
            Shape::Node(s) => Some(s.frame),
            Shape::Group(s) => Some(s.frame),
            Shape::Path(_) | Shape::Connector(_) => None,
        }
    }

    pub fn type_name(&self) -> &'static str {
        match self {
            Shape::Text(_) => "text",
            Shape::Image(_) => "image",
            Shape::Node(_) => "node",
            Shape::Path(_) => "path",
            Shape::Connector(_) => "connector",
            Shape::Group(_) => "group",
        }
    }
}

/// Depth-first walk over shapes and the children of groups.
pub struct ShapeWalk<'a> {
    stack: Vec<std::slice::Iter<'a, Shape>>,
}

impl<'a> ShapeWalk<'a> {
    pub fn new(shapes: &'a [Shape]) -> Self {
        ShapeWalk {
            stack: vec![shapes.iter()],
        }
    }
}

impl<'a> Iterator for ShapeWalk<'a> {
    type Item = &'a Shape;
    fn next(&mut self) -> Option<&'a Shape> {
        loop {
            let top = self.stack.last_mut()?;
            match top.next() {
                Some(shape) => {
                    if let Shape::Group(g) = shape {
                        self.stack.push(g.children.iter());
                    }
                    return Some(shape);
                }
                None => {
                    self.stack.pop();
                }
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Self {
        Rect { x, y, w, h }
    }
    pub fn right(&self) -> f64 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
    pub fn center(&self) -> Point {
        Point {
            x: self.x + self.w / 2.0,
            y: self.y + self.h / 2.0,
        }
    }
    pub fn contains(&self, other: &Rect) -> bool {
        const EPS: f64 = 1e-6;
        other.x >= self.x - EPS
            && other.y >= self.y - EPS
            && other.right() <= self.right() + EPS
            && other.bottom() <= self.bottom() + EPS
    }
    pub fn intersects(&self, other: &Rect) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// A colour as `#rrggbb` or `#rrggbbaa`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Color {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Color {
    pub const BLACK: Color = Color::rgb(0, 0, 0);
    pub const WHITE: Color = Color::rgb(255, 255, 255);

    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Color { r, g, b, a: 255 }
    }

    /// Parses `#rgb`, `#rrggbb` and `#rrggbbaa`.
    pub fn parse_hex(s: &str) -> Option<Color> {
        let hex = s.strip_prefix('#')?;
        if !hex.is_ascii() {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
        match hex.len() {
            3 => {
                let nib = |i: usize| Some(u8::from_str_radix(hex.get(i..=i)?, 16).ok()? * 17);
                Some(Color::rgb(nib(0)?, nib(1)?, nib(2)?))
            }
            6 => Some(Color::rgb(byte(0)?, byte(2)?, byte(4)?)),
            8 => Some(Color {
                r: byte(0)?,
                g: byte(2)?,
                b: byte(4)?,
                a: byte(6)?,
            }),
            _ => None,
        }
    }

    pub fn to_hex(self) -> String {
        if self.a == 255 {
            format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
        } else {
            format!("#{:02x}{:02x}{:02x}{:02x}", self.r, self.g, self.b, self.a)
        }
    }

    /// Components as fractions in 0..=1, the way PDF wants them.
    pub fn unit_rgb(self) -> [f32; 3] {
        [
            self.r as f32 / 255.0,
            self.g as f32 / 255.0,
            self.b as f32 / 255.0,
        ]
    }
}

impl Serialize for Color {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Color {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Color::parse_hex(&s).ok_or_else(|| {
            serde::de::Error::custom(format!("`{s}` is not a colour; write #rrggbb or #rrggbbaa"))
        })
    }
}

#[cfg(feature = "schema")]
impl JsonSchema for Color {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Color".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$"
        })
    }
}

/// The standard 14 PDF font families; every exporter draws with their metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FontFamily {
    #[default]
    Helvetica,
    Times,
    Courier,
    Symbol,
    ZapfDingbats,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Run {
    pub text: String,
    #[serde(default)]
    pub font: FontFamily,
    #[serde(default = "default_font_size")]
    pub size: f64,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bold: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub italic: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub underline: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub strike: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// Target of a link: a URL, or `#page=N` inside the document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// The language of this run when it is not the document's (BCP 47, as
    /// [`Document::lang`]; HTML's `lang` on an element): the library face that draws the
    /// characters the standard font lacks is chosen for it (Japanese or Chinese glyph forms
    /// of the same ideograph) and shaped with its rules. At most 35 of `A-Z a-z 0-9 -`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
}

impl Run {
    pub fn plain(text: impl Into<String>, size: f64) -> Self {
        Run {
            text: text.into(),
            font: FontFamily::Helvetica,
            size,
            bold: false,
            italic: false,
            underline: false,
            strike: false,
            color: None,
            link: None,
            lang: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Align {
    #[default]
    Left,
    Center,
    Right,
    Justify,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum VAlign {
    #[default]
    Top,
    Middle,
    Bottom,
}

/// The base direction of a text's paragraphs (UAX #9's paragraph embedding level).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Ltr,
    Rtl,
}

/// Room on each side of a box, in points.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Insets {
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    pub left: f64,
}

/// Styled text wrapped at the width of its box. `\n` in a run is a hard line break.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Text {
    pub runs: Vec<Run>,
    #[serde(default)]
    pub align: Align,
    #[serde(default)]
    pub valign: VAlign,
    /// Line height as a multiple of the largest font size on the line.
    #[serde(default = "default_line_height")]
    pub line_height: f64,
    /// The base direction of every paragraph (HTML's `dir`). Absent: each paragraph takes
    /// the direction of its first strong character (UAX #9 P2, P3). A right-to-left
    /// paragraph starts at the right: `left` and `justify` alignment set it flush right.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<Direction>,
    /// Room kept between the text and the edges of the area it is set in, beyond what the
    /// shape itself leaves (draw.io's `spacingLeft`, a label set after an icon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub padding: Option<Insets>,
}

impl Text {
    pub fn plain(text: impl Into<String>, size: f64) -> Self {
        Text {
            runs: vec![Run::plain(text, size)],
            ..Text::default_layout()
        }
    }

    pub fn default_layout() -> Self {
        Text {
            runs: Vec::new(),
            align: Align::Left,
            valign: VAlign::Top,
            line_height: default_line_height(),
            direction: None,
            padding: None,
        }
    }

    /// The text without styling.
    pub fn plain_text(&self) -> String {
        self.runs.iter().map(|r| r.text.as_str()).collect()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct TextBox {
    pub id: String,
    #[serde(flatten)]
    pub frame: Rect,
    #[serde(flatten)]
    pub text: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill: Option<Color>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stroke: Option<Stroke>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Image {
    pub id: String,
    #[serde(flatten)]
    pub frame: Rect,
    /// Name of the asset holding the picture's bytes.
    pub asset: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Stroke {
    pub color: Color,
    #[serde(default = "default_stroke_width")]
    pub width: f64,
    #[serde(default)]
    pub dash: Dash,
}

impl Stroke {
    pub fn solid(color: Color, width: f64) -> Self {
        Stroke {
            color,
            width,
            dash: Dash::Solid,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Dash {
    #[default]
    Solid,
    Dashed,
    Dotted,
}

/// The outline of a node. Exporters draw each; importers map foreign shapes to the nearest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Geometry {
    #[default]
    Rect,
    Rounded,
    Stadium,
    Ellipse,
    Circle,
    DoubleCircle,
    Diamond,
    Hexagon,
    Parallelogram,
    ParallelogramAlt,
    Trapezoid,
    TrapezoidAlt,
    Cylinder,
    Subroutine,
    Document,
    Triangle,
    Flag,
    Note,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Node {
    pub id: String,
    #[serde(flatten)]
    pub frame: Rect,
    #[serde(default)]
    pub geometry: Geometry,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill: Option<Color>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stroke: Option<Stroke>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<Text>,
    /// Free-form style classes carried through round trips (mermaid `class`, drawio style).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<String>,
    /// Casts a shadow (see [`crate::shadow`]).
    #[serde(default, skip_serializing_if = "is_false")]
    pub shadow: bool,
}

/// A free path (pen stroke, vector figure from a PDF or SVG).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct PathShape {
    pub id: String,
    pub segments: Vec<Segment>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill: Option<Color>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stroke: Option<Stroke>,
    /// Fill with the even-odd rule instead of non-zero.
    #[serde(default, skip_serializing_if = "is_false")]
    pub even_odd: bool,
    /// Casts a shadow (see [`crate::shadow`]).
    #[serde(default, skip_serializing_if = "is_false")]
    pub shadow: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Segment {
    MoveTo {
        x: f64,
        y: f64,
    },
    LineTo {
        x: f64,
        y: f64,
    },
    CubicTo {
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        x: f64,
        y: f64,
    },
    Close,
}

impl Segment {
    /// Moves every point of the segment (end and control points) by `f`.
    pub fn map_points(&mut self, mut f: impl FnMut(&mut f64, &mut f64)) {
        match self {
            Segment::MoveTo { x, y } | Segment::LineTo { x, y } => f(x, y),
            Segment::CubicTo {
                x1,
                y1,
                x2,
                y2,
                x,
                y,
            } => {
                f(x1, y1);
                f(x2, y2);
                f(x, y);
            }
            Segment::Close => {}
        }
    }
}

/// One end of a connector: attached to a shape (by id), or loose at a point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct End {
    /// The shape this end is attached to. Exporters compute the end point from the shape's
    /// current frame, so moving the shape moves the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// Where a loose end lies (ignored when `shape` is set, except as a hint).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point: Option<Point>,
    /// Where on the attached shape the end is fixed, as fractions of its frame from the
    /// top left (`{"x": 0.5, "y": 1}` is the middle of the bottom edge; draw.io's
    /// `exitX`/`exitY`). Without it the end is where the line towards the shape's centre
    /// crosses its outline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<Point>,
    #[serde(default)]
    pub head: ArrowHead,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ArrowHead {
    #[default]
    None,
    Arrow,
    Open,
    Circle,
    Cross,
    Diamond,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    #[default]
    Normal,
    Thick,
    /// Kept in the structure but not drawn (mermaid `~~~`).
    Invisible,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Connector {
    pub id: String,
    pub from: End,
    pub to: End,
    /// Bends between the two ends, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waypoints: Vec<Point>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stroke: Option<Stroke>,
    #[serde(default)]
    pub line: LineKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<Text>,
    /// Minimum rank distance the layout should keep (mermaid `--->` is 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
    /// Drawn as a smooth curve through its bends rather than straight legs (draw.io's
    /// `curved=1`, every mermaid link).
    #[serde(default, skip_serializing_if = "is_false")]
    pub curved: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Group {
    pub id: String,
    #[serde(flatten)]
    pub frame: Rect,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill: Option<Color>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stroke: Option<Stroke>,
    /// Layout direction inside the group (`TB`, `LR`, ...), where one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
    #[serde(default)]
    pub children: Vec<Shape>,
    /// Free-form style classes carried through round trips (a draw.io stencil cell's
    /// style, whose children are its drawing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<String>,
    /// Its own box casts a shadow (see [`crate::shadow`]); members cast their own.
    #[serde(default, skip_serializing_if = "is_false")]
    pub shadow: bool,
}

impl Group {
    /// A group of `children` in `frame` that draws nothing of its own.
    pub fn new(id: impl Into<String>, frame: Rect, children: Vec<Shape>) -> Self {
        Group {
            id: id.into(),
            frame,
            label: None,
            fill: None,
            stroke: None,
            direction: None,
            children,
            classes: Vec::new(),
            shadow: false,
        }
    }
}

/// The ten field types; each is a type a PDF form dictionary can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FieldType {
    Text,
    Multiline,
    Email,
    Number,
    Date,
    Checkbox,
    Radio,
    Select,
    List,
    Signature,
}

impl FieldType {
    pub const ALL: [FieldType; 10] = [
        FieldType::Text,
        FieldType::Multiline,
        FieldType::Email,
        FieldType::Number,
        FieldType::Date,
        FieldType::Checkbox,
        FieldType::Radio,
        FieldType::Select,
        FieldType::List,
        FieldType::Signature,
    ];

    /// Types whose answer is one of `options`.
    pub fn chooses(self) -> bool {
        matches!(self, FieldType::Radio | FieldType::Select | FieldType::List)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FieldType::Text => "text",
            FieldType::Multiline => "multiline",
            FieldType::Email => "email",
            FieldType::Number => "number",
            FieldType::Date => "date",
            FieldType::Checkbox => "checkbox",
            FieldType::Radio => "radio",
            FieldType::Select => "select",
            FieldType::List => "list",
            FieldType::Signature => "signature",
        }
    }
}

/// One box of a form field. Entries sharing a `key` are one question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Field {
    pub key: String,
    #[serde(rename = "type")]
    pub field_type: FieldType,
    #[serde(default)]
    pub label: String,
    #[serde(default)]
    pub required: bool,
    /// 1-based page number.
    pub page: u32,
    #[serde(flatten)]
    pub frame: Rect,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// A filled-in value (filled copies of a form carry the answers here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    /// How the box looks where its source drew it (a PDF widget's own border and
    /// background); without one, exporters give it their own look.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<FieldLook>,
}

/// A form box's border and background as its source drew them: `None` colours are not
/// drawn (a transparent box over the page's own printed lines).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct FieldLook {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub border: Option<Color>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<Color>,
    /// Points; at most 12.
    #[serde(default = "default_stroke_width")]
    pub border_width: f64,
}

fn default_font_size() -> f64 {
    11.0
}
fn default_line_height() -> f64 {
    1.2
}
fn default_stroke_width() -> f64 {
    1.0
}
fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero_u16(v: &u16) -> bool {
    *v == 0
}
