//! One page's content stream, drawn in model coordinates.
//!
//! The model puts the origin at the top left with y down; PDF at the bottom left with y up.
//! Every coordinate is flipped here, once, instead of with a global `cm` flip: a flipped
//! matrix would mirror text, and keeping text matrices plain keeps it extractable.

use pdf_writer::types::{LineCapStyle, LineJoinStyle};
use pdf_writer::{Content, Name};
use quire_sdk::geometry;
use quire_sdk::{Color, Rect, Segment, Stroke};

use super::resources::{AlphaKind, PageUse, Resources};

/// A link rectangle, collected while drawing and written as a `/Link` annotation.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// `[x1, y1, x2, y2]` in PDF coordinates.
    pub rect: [f32; 4],
    /// A URL, or `#page=N`.
    pub target: String,
}

/// Coordinates beyond this are clamped: the model is checked by the host, but a converter
/// must not write `NaN` or absurd numbers into a PDF whatever it is given.
const LIMIT: f64 = 1.0e6;

/// A model number as a PDF number: finite and within [`LIMIT`].
pub fn num(v: f64) -> f32 {
    if v.is_finite() {
        v.clamp(-LIMIT, LIMIT) as f32
    } else {
        0.0
    }
}

pub struct Canvas<'p, 'a> {
    pub content: Content,
    pub res: &'p mut Resources<'a>,
    pub used: PageUse,
    pub links: Vec<Link>,
    /// Links' labels, drawn over everything else on the page once it is drawn.
    pub labels: Vec<(quire_sdk::Text, quire_sdk::Point)>,
    page_height: f64,
    /// Current fill and stroke alpha, and the values saved by each open `q`.
    alpha: (u8, u8),
    saved: Vec<(u8, u8)>,
}

impl<'p, 'a> Canvas<'p, 'a> {
    pub fn new(res: &'p mut Resources<'a>, page_height: f64) -> Self {
        Canvas {
            content: Content::new(),
            res,
            used: PageUse::default(),
            links: Vec::new(),
            labels: Vec::new(),
            page_height,
            alpha: (255, 255),
            saved: Vec::new(),
        }
    }

    /// Flips a model y into PDF space.
    pub fn page_y(&self, y: f64) -> f64 {
        self.page_height - y
    }

    /// Flips a model y into PDF space, as a number to write.
    pub fn y(&self, y: f64) -> f32 {
        num(self.page_y(y))
    }

    /// A model rectangle as PDF `[x1, y1, x2, y2]` (bottom-left, top-right).
    pub fn pdf_rect(&self, r: Rect) -> [f32; 4] {
        [num(r.x), self.y(r.bottom()), num(r.right()), self.y(r.y)]
    }

    pub fn save(&mut self) {
        self.content.save_state();
        self.saved.push(self.alpha);
    }

    pub fn restore(&mut self) {
        if let Some(a) = self.saved.pop() {
            self.content.restore_state();
            self.alpha = a;
        }
    }

    fn set_alpha(&mut self, kind: AlphaKind, alpha: u8) {
        let current = match kind {
            AlphaKind::Fill => self.alpha.0,
            AlphaKind::Stroke => self.alpha.1,
        };
        if current == alpha {
            return;
        }
        let i = self.res.alpha_state(kind, alpha);
        self.used.states.insert(i);
        self.content
            .set_parameters(Name(Resources::state_name(i).as_bytes()));
        match kind {
            AlphaKind::Fill => self.alpha.0 = alpha,
            AlphaKind::Stroke => self.alpha.1 = alpha,
        }
    }

    pub fn fill_color(&mut self, c: Color) {
        let [r, g, b] = c.unit_rgb();
        self.content.set_fill_rgb(r, g, b);
        self.set_alpha(AlphaKind::Fill, c.a);
    }

    pub fn stroke_color(&mut self, c: Color) {
        let [r, g, b] = c.unit_rgb();
        self.content.set_stroke_rgb(r, g, b);
        self.set_alpha(AlphaKind::Stroke, c.a);
    }

    /// Sets colour, width and dash of a stroke; `false` when it draws nothing.
    pub fn stroke_style(&mut self, s: &Stroke) -> bool {
        if !(s.width.is_finite() && s.width > 0.0) || s.color.a == 0 {
            return false;
        }
        self.stroke_color(s.color);
        self.content.set_line_width(num(s.width));
        match geometry::dash_pattern(s.dash, s.width) {
            Some([on, off]) => {
                self.content.set_dash_pattern([num(on), num(off)], 0.0);
            }
            None => {
                self.content.set_dash_pattern([], 0.0);
            }
        }
        true
    }

    /// Round joins and caps: the look of diagram editors, and no miter spikes on the sharp
    /// corners of arrowheads and diamonds.
    pub fn round_joins(&mut self) {
        self.content.set_line_join(LineJoinStyle::RoundJoin);
        self.content.set_line_cap(LineCapStyle::RoundCap);
    }

    /// Appends `segments` to the current path. A segment with no current point starts a new
    /// subpath at its end (PDF would reject it), so any list of segments is drawable.
    pub fn path(&mut self, segments: &[Segment]) {
        let mut open = false;
        for seg in segments {
            match *seg {
                Segment::MoveTo { x, y } => {
                    self.content.move_to(num(x), self.y(y));
                    open = true;
                }
                Segment::LineTo { x, y } if open => {
                    self.content.line_to(num(x), self.y(y));
                }
                Segment::CubicTo {
                    x1,
                    y1,
                    x2,
                    y2,
                    x,
                    y,
                } if open => {
                    self.content.cubic_to(
                        num(x1),
                        self.y(y1),
                        num(x2),
                        self.y(y2),
                        num(x),
                        self.y(y),
                    );
                }
                Segment::LineTo { x, y } | Segment::CubicTo { x, y, .. } => {
                    self.content.move_to(num(x), self.y(y));
                    open = true;
                }
                Segment::Close if open => {
                    self.content.close_path();
                }
                Segment::Close => {}
            }
        }
    }

    /// Fills and/or strokes `segments`. Nothing is written when neither paints.
    pub fn draw(
        &mut self,
        segments: &[Segment],
        fill: Option<Color>,
        stroke: Option<&Stroke>,
        even_odd: bool,
    ) {
        let fill = fill.filter(|c| c.a > 0);
        if segments.is_empty() || (fill.is_none() && stroke.is_none()) {
            return;
        }
        self.save();
        if let Some(c) = fill {
            self.fill_color(c);
        }
        let stroked = stroke.is_some_and(|s| self.stroke_style(s));
        if fill.is_none() && !stroked {
            self.restore();
            return;
        }
        self.path(segments);
        match (fill.is_some(), stroked, even_odd) {
            (true, true, false) => self.content.fill_nonzero_and_stroke(),
            (true, true, true) => self.content.fill_even_odd_and_stroke(),
            (true, false, false) => self.content.fill_nonzero(),
            (true, false, true) => self.content.fill_even_odd(),
            (false, _, _) => self.content.stroke(),
        };
        self.restore();
    }

    /// A filled rectangle in model coordinates.
    pub fn fill_rect(&mut self, r: Rect, c: Color) {
        self.save();
        self.fill_color(c);
        self.content.rect(
            num(r.x),
            self.y(r.bottom()),
            num(r.w.max(0.0)),
            num(r.h.max(0.0)),
        );
        self.content.fill_nonzero();
        self.restore();
    }

    /// The stand-in for a picture that could not be read: a light grey box with a cross.
    pub fn missing_picture(&mut self, r: Rect) {
        for part in &quire_sdk::drawing::missing_picture(r) {
            self.draw(&part.segments, part.fill, part.stroke.as_ref(), false);
        }
    }

    /// Compresses the content stream for the page.
    pub fn finish(self) -> (Vec<u8>, PageUse, Vec<Link>) {
        let raw = self.content.finish();
        let compressed = miniz_oxide::deflate::compress_to_vec_zlib(raw.as_slice(), 6);
        (compressed, self.used, self.links)
    }
}
