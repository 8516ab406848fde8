//! Appearance streams of form widgets: what a viewer draws for a field, and what prints.
//!
//! Every widget carries its own drawing so that viewers which never generate appearances
//! (most previewers, poppler, printing pipelines) still show the form. Coordinates here are
//! the widget's own: origin at its bottom left, y up, `w` by `h` points. Text is drawn as
//! page text is, in the document's embedded fonts, and marks are paths. `/Helv` and
//! ZapfDingbats (`/ZaDb`, the captions' font) are named, not embedded, in the AcroForm's
//! `/DR`: what a viewer types a new answer in when it regenerates an appearance after an
//! edit, unless the form is in another script (`super::typing`).

use std::collections::BTreeSet;

use pdf_writer::{Content, Name};
use quire_sdk::fonts;
use quire_sdk::layout::layout_text;
use quire_sdk::metrics::FontFace;
use quire_sdk::{Color, FieldLook, FontFamily, Text};

use crate::export::glyph_runs::{encode, Font};
use crate::export::resources::Resources;
use crate::export::show::TextObject;

/// Light fill behind every box Quire draws, so an empty form is visible on paper.
const FILL: [f32; 3] = [0.91, 0.94, 1.0];
/// Grey border around every box Quire draws (and around radio circles).
const BORDER: f32 = 0.55;
const BORDER_WIDTH: f32 = 1.0;

/// How a box's frame is drawn: its background and border, `None` for none.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub fill: Option<[f32; 3]>,
    pub border: Option<[f32; 3]>,
    pub width: f32,
}

impl Frame {
    /// The box's own look where its source gave one (a PDF widget keeps its border and
    /// background), else Quire's: a light fill and a grey border.
    pub fn of(look: Option<&FieldLook>) -> Frame {
        let rgb = |c: Color| [c.r, c.g, c.b].map(|v| f32::from(v) / 255.0);
        match look {
            Some(look) => Frame {
                fill: look.background.map(rgb),
                border: look.border.map(rgb),
                width: look.border_width as f32,
            },
            None => Frame {
                fill: Some(FILL),
                border: Some([BORDER; 3]),
                width: BORDER_WIDTH,
            },
        }
    }

    /// The border's width as drawn: none without a border colour.
    pub fn drawn_width(&self) -> f32 {
        if self.border.is_some() {
            self.width
        } else {
            0.0
        }
    }
}
/// Highlight behind the selected rows of a list box (the usual selection blue, lightened).
const SELECTED: [f32; 3] = [0.6, 0.75, 0.86];
/// Space between a box's border and its text.
const PAD: f32 = 2.0;
/// Largest font size chosen for a box; taller boxes keep this size rather than shouting.
const MAX_SIZE: f32 = 12.0;
/// Font size of lists, multiline text and option labels, when the box allows it.
const BODY_SIZE: f32 = 10.0;
/// ZapfDingbats codes of the check mark and the filled circle (the `/MK /CA` captions a
/// viewer draws with when it makes its own appearance).
pub const CHECK_CAPTION: &str = "4";
pub const DOT_CAPTION: &str = "l";
/// The Bézier handle length that approximates a quarter circle.
const KAPPA: f32 = 0.552_284_8;

const HELVETICA: FontFace = FontFace::new(FontFamily::Helvetica, false, false);

/// Which sides of a box to stroke: all of them for a box of its own; the outer ones for one
/// option of a radio group laid out inside a shared box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edges {
    pub top: bool,
    pub right: bool,
    pub bottom: bool,
    pub left: bool,
}

impl Edges {
    pub const ALL: Edges = Edges {
        top: true,
        right: true,
        bottom: true,
        left: true,
    };
}

/// One appearance being drawn.
pub struct Sketch<'r, 'a> {
    pub content: Content,
    w: f32,
    h: f32,
    frame: Frame,
    /// The document's resources: the library faces answers are drawn with.
    res: &'r mut Resources<'a>,
    /// Fonts of the document's registries this appearance names.
    fonts: BTreeSet<Font>,
}

impl<'r, 'a> Sketch<'r, 'a> {
    pub fn new(w: f32, h: f32, frame: Frame, res: &'r mut Resources<'a>) -> Self {
        Sketch {
            content: Content::new(),
            w,
            h,
            frame,
            res,
            fonts: BTreeSet::new(),
        }
    }

    /// The content stream, and the fonts its resources must name.
    pub fn finish(self) -> (Vec<u8>, BTreeSet<Font>) {
        (self.content.finish().into_vec(), self.fonts)
    }

    /// The box's background over the whole box and its border on `edges`.
    pub fn frame(&mut self, edges: Edges) {
        let (w, h) = (self.w, self.h);
        let frame = self.frame;
        let c = &mut self.content;
        c.save_state();
        if let Some([r, g, b]) = frame.fill {
            c.set_fill_rgb(r, g, b);
            c.rect(0.0, 0.0, w, h);
            c.fill_nonzero();
        }
        let Some([r, g, b]) = frame.border.filter(|_| frame.width > 0.0) else {
            c.restore_state();
            return;
        };
        c.set_stroke_rgb(r, g, b);
        c.set_line_width(frame.width);
        // Inset by half the line width so the whole border lies inside the widget's rect.
        let i = frame.width / 2.0;
        let sides = [
            (edges.top, (0.0, h - i), (w, h - i)),
            (edges.right, (w - i, 0.0), (w - i, h)),
            (edges.bottom, (0.0, i), (w, i)),
            (edges.left, (i, 0.0), (i, h)),
        ];
        if edges == Edges::ALL {
            c.rect(i, i, (w - 2.0 * i).max(0.0), (h - 2.0 * i).max(0.0));
            c.stroke();
        } else {
            for (on, (x1, y1), (x2, y2)) in sides {
                if on {
                    c.move_to(x1, y1);
                    c.line_to(x2, y2);
                }
            }
            c.stroke();
        }
        c.restore_state();
    }

    /// Shows `s` at `size` from (`x`, `baseline`) in black, as page text is drawn
    /// (`glyph_runs`: embedded library faces, shaped words placed as the shaper put them, the
    /// missing-glyph box), in the direction of its first strong character.
    fn show_text(&mut self, s: &str, x: f32, baseline: f32, size: f32) {
        let s: String = s.chars().filter(|c| !c.is_control()).collect();
        let rtl = s
            .chars()
            .find(|c| c.is_alphabetic())
            .is_some_and(fonts::is_rtl);
        let pieces = encode(&s, rtl, HELVETICA, self.res);
        let c = &mut self.content;
        let mut shown = TextObject::begin(c);
        c.set_fill_gray(0.0);
        shown.show(
            c,
            &pieces,
            f64::from(x),
            f64::from(baseline),
            f64::from(size),
        );
        // The page text's fonts, embedded; `/Helv` of the `/DR` is only what a viewer
        // types new answers in.
        self.fonts.extend(shown.end(c));
    }

    /// Starts the variable-text section a viewer replaces when the field is edited, clipped
    /// to the box inside its padding and `right_inset` points short of the right edge.
    fn begin_variable_text(&mut self, right_inset: f32) {
        let (w, h) = (self.w, self.h);
        let c = &mut self.content;
        c.begin_marked_content(Name(b"Tx"));
        c.save_state();
        c.rect(
            PAD / 2.0,
            PAD / 2.0,
            (w - PAD - right_inset).max(0.0),
            (h - PAD).max(0.0),
        );
        c.clip_nonzero();
        c.end_path();
    }

    fn end_variable_text(&mut self) {
        self.content.restore_state();
        self.content.end_marked_content();
    }

    /// One line of `text` at `size`, from `x`, centred vertically in the box.
    fn line_centred(&mut self, text: &str, x: f32, size: f32) {
        // Centre the Helvetica cap-and-descender span (ascent 718, descent -207).
        let baseline = (self.h - size * (0.718 - 0.207)) / 2.0;
        self.show_text(text, x, baseline, size);
    }

    /// A single-line text field (also the signature's typed name): `value` left-aligned.
    pub fn text_line(&mut self, value: &str, size: f32) {
        self.frame(Edges::ALL);
        self.begin_variable_text(0.0);
        if !value.is_empty() {
            self.line_centred(value, PAD, size);
        }
        self.end_variable_text();
    }

    /// A multiline text field: `value` wrapped at the box width from the top.
    pub fn text_block(&mut self, value: &str, size: f32) {
        self.frame(Edges::ALL);
        self.begin_variable_text(0.0);
        let text = Text::plain(value, size as f64);
        let width = (self.w - 2.0 * PAD).max(1.0);
        let top = self.h - PAD;
        for line in layout_text(&text, width as f64) {
            // Line baselines are measured from the top of the text, not of the line.
            let baseline = top - line.baseline as f32;
            if baseline < -size {
                break;
            }
            for frag in &line.fragments {
                self.show_text(&frag.text, PAD + frag.x as f32, baseline, size);
            }
        }
        self.end_variable_text();
    }

    /// A combo box: the chosen option, and a small down arrow at the right so the box reads
    /// as a drop-down on paper too.
    pub fn combo(&mut self, value: &str, size: f32) {
        self.frame(Edges::ALL);
        let arrow = self.h.min(14.0).min(self.w / 3.0);
        let (cx, cy, half) = (self.w - arrow / 2.0, self.h / 2.0, arrow * 0.22);
        let c = &mut self.content;
        c.save_state();
        c.set_fill_gray(0.35);
        c.move_to(cx - half, cy + half * 0.6);
        c.line_to(cx + half, cy + half * 0.6);
        c.line_to(cx, cy - half * 0.7);
        c.close_path();
        c.fill_nonzero();
        c.restore_state();
        self.begin_variable_text(arrow);
        if !value.is_empty() {
            self.line_centred(value, PAD, size);
        }
        self.end_variable_text();
    }

    /// A list box: every option as a row from `top`, the rows in `selected` (sorted)
    /// highlighted.
    pub fn list(&mut self, options: &[String], selected: &[usize], top: usize, size: f32) {
        self.frame(Edges::ALL);
        self.begin_variable_text(0.0);
        let row = size * 1.15;
        let mut y = self.h - PAD / 2.0;
        for (i, option) in options.iter().enumerate().skip(top) {
            if y <= 0.0 {
                break;
            }
            if selected.binary_search(&i).is_ok() {
                let c = &mut self.content;
                c.set_fill_rgb(SELECTED[0], SELECTED[1], SELECTED[2]);
                c.rect(PAD / 2.0, y - row, self.w - PAD, row);
                c.fill_nonzero();
            }
            self.show_text(option, PAD, y - row + size * 0.25, size);
            y -= row;
        }
        self.end_variable_text();
    }

    /// A check box: the frame, and in the on state a check mark drawn as a path. Not the
    /// ZapfDingbats glyph: that font is never embedded, and a reader that substitutes a font
    /// without it (poppler does, with Noto installed) shows an empty box for a ticked one.
    pub fn checkbox(&mut self, on: bool) {
        self.frame(Edges::ALL);
        if on {
            let (w, h) = (self.w, self.h);
            let s = w.min(h);
            let (x0, y0) = ((w - s) / 2.0, (h - s) / 2.0);
            let c = &mut self.content;
            c.save_state();
            c.set_stroke_gray(0.0);
            c.set_line_width(s * 0.14);
            c.set_line_cap(pdf_writer::types::LineCapStyle::RoundCap);
            c.set_line_join(pdf_writer::types::LineJoinStyle::RoundJoin);
            c.move_to(x0 + s * 0.22, y0 + s * 0.52);
            c.line_to(x0 + s * 0.42, y0 + s * 0.28);
            c.line_to(x0 + s * 0.80, y0 + s * 0.76);
            c.stroke();
            c.restore_state();
        }
    }

    /// A radio button with a box of its own: the frame and a circle in its middle.
    pub fn radio_alone(&mut self, on: bool) {
        self.frame(Edges::ALL);
        let r = self.w.min(self.h) * 0.35;
        self.radio_circle(self.w / 2.0, self.h / 2.0, r, on);
    }

    /// One option of a radio group laid out in a shared box: the slice of the box, a circle
    /// at its left and the option's label beside it.
    pub fn radio_option(&mut self, label: &str, edges: Edges, on: bool) {
        self.frame(edges);
        let d = (self.h * 0.7).min(11.0).min(self.w * 0.5);
        let x = PAD + 2.0;
        self.radio_circle(x + d / 2.0, self.h / 2.0, d / 2.0, on);
        let size = BODY_SIZE.min(self.h * 0.75);
        let label_x = x + d + 3.0;
        let c = &mut self.content;
        c.save_state();
        c.rect(label_x, 0.0, (self.w - label_x - PAD).max(0.0), self.h);
        c.clip_nonzero();
        c.end_path();
        self.line_centred(label, label_x, size);
        self.content.restore_state();
    }

    /// A white circle with a grey ring, filled with a black dot when `on`.
    fn radio_circle(&mut self, cx: f32, cy: f32, r: f32, on: bool) {
        let c = &mut self.content;
        c.save_state();
        c.set_fill_gray(1.0);
        c.set_stroke_gray(BORDER);
        c.set_line_width(BORDER_WIDTH.min(r / 3.0));
        circle(c, cx, cy, r);
        c.fill_nonzero_and_stroke();
        if on {
            c.set_fill_gray(0.0);
            circle(c, cx, cy, r * 0.5);
            c.fill_nonzero();
        }
        c.restore_state();
    }

    /// A signature box: the frame, a signing line near the bottom with a cross before it,
    /// and a typed name above the line when the filled copy carries one.
    pub fn signature(&mut self, name: &str, size: f32) {
        self.frame(Edges::ALL);
        let (w, h) = (self.w, self.h);
        let line_y = (h * 0.25).max(PAD + 1.0).min(h - PAD);
        let cross = (h * 0.12).clamp(1.5, 4.0);
        let c = &mut self.content;
        c.save_state();
        c.set_stroke_gray(0.4);
        c.set_line_width(0.75);
        let x0 = PAD + 2.0;
        c.move_to(x0, line_y + 2.0);
        c.line_to(x0 + 2.0 * cross, line_y + 2.0 + 2.0 * cross);
        c.move_to(x0, line_y + 2.0 + 2.0 * cross);
        c.line_to(x0 + 2.0 * cross, line_y + 2.0);
        c.move_to(x0, line_y);
        c.line_to((w - PAD - 2.0).max(x0), line_y);
        c.stroke();
        c.restore_state();
        if !name.is_empty() {
            let c = &mut self.content;
            c.save_state();
            c.rect(0.0, 0.0, w, h);
            c.clip_nonzero();
            c.end_path();
            self.show_text(name, x0 + 2.0 * cross + 4.0, line_y + 2.0, size);
            self.content.restore_state();
        }
    }
}

/// A circle as four Bézier quarters, counter-clockwise from its rightmost point.
fn circle(c: &mut Content, cx: f32, cy: f32, r: f32) {
    let k = r * KAPPA;
    c.move_to(cx + r, cy);
    c.cubic_to(cx + r, cy + k, cx + k, cy + r, cx, cy + r);
    c.cubic_to(cx - k, cy + r, cx - r, cy + k, cx - r, cy);
    c.cubic_to(cx - r, cy - k, cx - k, cy - r, cx, cy - r);
    c.cubic_to(cx + k, cy - r, cx + r, cy - k, cx + r, cy);
    c.close_path();
}

/// Font size of a one-line box `h` points tall: the line fills most of it, within limits.
pub fn line_size(h: f32) -> f32 {
    ((h - 2.0 * PAD) * 0.8).clamp(4.0, MAX_SIZE).min(h.max(1.0))
}

/// Font size of multiline text and list rows in a box `h` points tall.
pub fn body_size(h: f32) -> f32 {
    line_size(h).min(BODY_SIZE)
}

/// How many list rows of `size` fit in a box `h` points tall (at least one).
pub fn rows_that_fit(h: f32, size: f32) -> usize {
    (((h - PAD) / (size * 1.15)).floor() as usize).max(1)
}
