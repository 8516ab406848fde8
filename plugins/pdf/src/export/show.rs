//! Pieces of text written into a text object (`BT` … `ET`) as compactly as readers allow.
//!
//! Text is most of a page's content stream, so how it is written decides the file's size.
//! The reader's pen already advances by each glyph's `/W` width, which is the width the
//! layout measured, so a piece that starts where the previous one ended is shown without a
//! move (most of a line does); a move is a short relative `Td`; and a shaped word is one
//! `TJ` whose numbers nudge the glyphs the shaper placed off their plain advance, with a text
//! rise (`Ts`) for marks set above or below the baseline. Positions are rounded to 1/100 pt
//! and nudges to 1/1000 em: far below what a printer or screen can show, and the pen is
//! tracked with the rounded values, so rounding never adds up along a line.

use pdf_writer::{Content, Name, Str, TextStr};

use super::canvas::num;
use super::glyph_runs::{Font, Piece, PlacedGlyph};
use super::library_fonts::LibraryFonts;
use super::resources::Resources;

/// How far the pen may be from where a piece starts and still show it without a move, in
/// points: the rounding of positions, plus float noise.
const SAME_PLACE: f64 = 0.006;

/// A text object being written: the font selected and where the reader's pen is.
pub struct TextObject {
    font: Option<(Font, f32)>,
    /// Where the current line started (`Td` moves from there), in PDF points.
    line: (f64, f64),
    /// Where the reader's pen is, in PDF points.
    pen: (f64, f64),
    rise: f64,
    /// Every font selected, for the resources of the page or appearance.
    pub fonts_used: Vec<Font>,
}

impl TextObject {
    pub fn begin(content: &mut Content) -> Self {
        content.begin_text();
        TextObject {
            font: None,
            line: (0.0, 0.0),
            pen: (0.0, 0.0),
            rise: 0.0,
            fonts_used: Vec::new(),
        }
    }

    /// Ends the text object; the fonts it selected.
    pub fn end(self, content: &mut Content) -> Vec<Font> {
        content.end_text();
        self.fonts_used
    }

    /// Shows `pieces` at `size` from (`x`, `baseline`), in PDF points, each piece starting
    /// where the previous one's measured width ends.
    pub fn show(
        &mut self,
        content: &mut Content,
        pieces: &[Piece],
        x: f64,
        baseline: f64,
        size: f64,
    ) {
        let em = size / 1000.0;
        let mut start = x;
        for piece in pieces {
            self.select(content, piece.font(), num(size));
            self.move_to(content, start, baseline);
            match piece {
                Piece::Run { bytes, width, .. } => {
                    content.show(Str(bytes));
                    self.pen.0 += width * em;
                }
                Piece::Shaped {
                    glyphs,
                    actual_text,
                    ..
                } => {
                    if let Some(text) = actual_text {
                        content
                            .begin_marked_content_with_properties(Name(b"Span"))
                            .properties()
                            .actual_text(TextStr(text));
                    }
                    self.show_shaped(content, glyphs, start, size);
                    if actual_text.is_some() {
                        content.end_marked_content();
                    }
                }
            }
            start += piece.width() * em;
        }
    }

    /// A shaped word from `start`: strings of glyphs with nudges between them, broken where
    /// the rise changes.
    fn show_shaped(
        &mut self,
        content: &mut Content,
        glyphs: &[PlacedGlyph],
        start: f64,
        size: f64,
    ) {
        let em = size / 1000.0;
        let mut items: Vec<Item> = Vec::new();
        for g in glyphs {
            let rise = hundredths(g.y * em);
            if rise != self.rise {
                flush(content, &mut items);
                content.set_rise(num(rise));
                self.rise = rise;
            }
            // A TJ number moves the pen back by that many thousandths of an em.
            let nudge = ((self.pen.0 - (start + g.x * em)) / em).round();
            if nudge != 0.0 {
                items.push(Item::Nudge(nudge as f32));
                self.pen.0 -= nudge * em;
            }
            match items.last_mut() {
                Some(Item::Glyphs(bytes)) => bytes.extend_from_slice(&g.cid.to_be_bytes()),
                _ => items.push(Item::Glyphs(g.cid.to_be_bytes().to_vec())),
            }
            self.pen.0 += g.advance * em;
        }
        flush(content, &mut items);
        if self.rise != 0.0 {
            content.set_rise(0.0);
            self.rise = 0.0;
        }
    }

    fn select(&mut self, content: &mut Content, font: Font, size: f32) {
        if self.font == Some((font, size)) {
            return;
        }
        let name = match font {
            Font::Standard(i) => Resources::font_name(i),
            Font::Library(i) => LibraryFonts::name(i),
        };
        content.set_font(Name(name.as_bytes()), size);
        self.font = Some((font, size));
        if !self.fonts_used.contains(&font) {
            self.fonts_used.push(font);
        }
    }

    /// Puts the pen at (`x`, `y`) unless it is there.
    fn move_to(&mut self, content: &mut Content, x: f64, y: f64) {
        let (x, y) = (hundredths(x), hundredths(y));
        if (self.pen.0 - x).abs() < SAME_PLACE && (self.pen.1 - y).abs() < SAME_PLACE {
            return;
        }
        let (dx, dy) = (hundredths(x - self.line.0), hundredths(y - self.line.1));
        content.next_line(num(dx), num(dy));
        self.line = (self.line.0 + dx, self.line.1 + dy);
        self.pen = self.line;
    }
}

/// Writes `items` as one `Tj`, or a `TJ` when they hold nudges.
fn flush(content: &mut Content, items: &mut Vec<Item>) {
    match items.as_slice() {
        [] => {}
        [Item::Glyphs(bytes)] => {
            content.show(Str(bytes));
        }
        _ => {
            let mut tj = content.show_positioned();
            let mut array = tj.items();
            for item in items.iter() {
                match item {
                    Item::Glyphs(bytes) => array.show(Str(bytes)),
                    Item::Nudge(n) => array.adjust(*n),
                };
            }
        }
    }
    items.clear();
}

enum Item {
    Glyphs(Vec<u8>),
    Nudge(f32),
}

fn hundredths(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}
