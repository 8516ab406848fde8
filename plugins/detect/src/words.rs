//! The words of a page where the exporters draw them, and the blanks typed into text: runs
//! of underscores and empty tick-box glyphs.
//!
//! Text is laid out exactly as the exporters lay it out (the SDK's [`layout_text`] at the
//! width of the area they draw it in, less its padding, moved down by its vertical
//! alignment), so a field over `________` lands on the underscores the PDF shows.

use quire_sdk::drawing::{group_label_area, padded};
use quire_sdk::geometry::text_area;
use quire_sdk::layout::layout_text;
use quire_sdk::metrics::FontFace;
use quire_sdk::validate::MAX_FONT_SIZE;
use quire_sdk::{FontFamily, Page, Rect, Shape, ShapeWalk, Text, VAlign};

/// What a piece of a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Word,
    /// Three or more underscores: a line to write on.
    Underscores,
    /// `[ ]`, `☐` and their kin: a box to tick.
    BoxGlyph,
}

/// A token as drawn: its box (from the font's ascender to its descender), baseline and size.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub text: String,
    pub rect: Rect,
    pub baseline: f64,
    pub size: f64,
}

/// Most tokens read from one page: a page of a million words costs no more than this.
pub const MAX_TOKENS: usize = 200_000;

/// Every token of the page's text shapes, node texts and group labels.
pub fn tokens(page: &Page) -> Vec<Token> {
    let mut out = Vec::new();
    for shape in ShapeWalk::new(&page.shapes) {
        if out.len() >= MAX_TOKENS {
            break;
        }
        match shape {
            Shape::Text(t) => read(&t.text, padded(&t.text, t.frame), &mut out),
            Shape::Node(n) => {
                if let Some(text) = &n.text {
                    read(text, padded(text, text_area(n.geometry, n.frame)), &mut out);
                }
            }
            Shape::Group(g) => {
                if let Some(label) = &g.label {
                    read(label, padded(label, group_label_area(g)), &mut out);
                }
            }
            Shape::Image(_) | Shape::Path(_) | Shape::Connector(_) => {}
        }
    }
    out.truncate(MAX_TOKENS);
    out
}

/// One character placed on a line.
#[derive(Debug, Clone, Copy)]
struct Placed {
    ch: char,
    /// Set in Courier: code, where `___` and `[ ]` are program text, not blanks.
    mono: bool,
    x: f64,
    width: f64,
    size: f64,
    top: f64,
    bottom: f64,
}

fn sane_size(size: f64) -> f64 {
    if size.is_finite() && size > 0.0 {
        size.min(MAX_FONT_SIZE)
    } else {
        0.0
    }
}

fn read(text: &Text, area: Rect, out: &mut Vec<Token>) {
    if text.runs.iter().all(|r| r.text.trim().is_empty()) {
        return;
    }
    let lines = layout_text(text, area.w);
    let total: f64 = lines.iter().map(|l| l.height).sum();
    let offset = match text.valign {
        VAlign::Top => 0.0,
        VAlign::Middle => (area.h - total) / 2.0,
        VAlign::Bottom => area.h - total,
    };
    for line in &lines {
        let baseline = area.y + offset + line.baseline;
        let mut placed: Vec<Placed> = Vec::new();
        for frag in &line.fragments {
            let Some(run) = text.runs.get(frag.run) else {
                continue;
            };
            let size = sane_size(run.size);
            if size == 0.0 {
                continue;
            }
            let face = FontFace::of_run(run);
            let top = baseline - face.ascent() * size / 1000.0;
            let bottom = baseline - face.descent() * size / 1000.0;
            let mut x = area.x + frag.x;
            for ch in frag.text.chars() {
                let width = face.char_width(ch) * size / 1000.0;
                placed.push(Placed {
                    ch,
                    mono: run.font == FontFamily::Courier,
                    x,
                    width,
                    size,
                    top,
                    bottom,
                });
                x += width;
            }
        }
        split(&placed, baseline, out);
        if out.len() >= MAX_TOKENS {
            return;
        }
    }
}

fn is_box_char(ch: char) -> bool {
    matches!(ch, '☐' | '□' | '❏' | '❐' | '❑' | '❒' | '▢' | '⬜')
}

/// Cuts a line into words, underscore runs and box glyphs.
fn split(chars: &[Placed], baseline: f64, out: &mut Vec<Token>) {
    let mut i = 0;
    let mut word_start: Option<usize> = None;
    let flush = |from: usize, to: usize, kind: TokenKind, out: &mut Vec<Token>| {
        if from < to {
            out.push(token(&chars[from..to], kind, baseline));
        }
    };
    while i < chars.len() {
        let ch = chars[i].ch;
        // Underscores: three or more in a row (six in code, where `___` is an example).
        if ch == '_' {
            let end = chars[i..]
                .iter()
                .position(|p| p.ch != '_')
                .map_or(chars.len(), |n| i + n);
            let least = if chars[i..end].iter().all(|p| p.mono) {
                6
            } else {
                3
            };
            if end - i >= least {
                if let Some(s) = word_start.take() {
                    flush(s, i, TokenKind::Word, out);
                }
                flush(i, end, TokenKind::Underscores, out);
                i = end;
                continue;
            }
        }
        // `[ ]` and `[  ]`; in code only at the start of a line (a task list's marker),
        // since programs write `[ ]` anywhere.
        if ch == '[' {
            let close = (2..=3)
                .map(|n| i + n)
                .take_while(|&j| j < chars.len())
                .find(|&j| chars[j].ch == ']');
            let starts_line = chars[..i].iter().all(|p| p.ch == ' ');
            if let Some(j) = close.filter(|_| starts_line || !chars[i].mono) {
                if chars[i + 1..j].iter().all(|p| p.ch == ' ') {
                    if let Some(s) = word_start.take() {
                        flush(s, i, TokenKind::Word, out);
                    }
                    flush(i, j + 1, TokenKind::BoxGlyph, out);
                    i = j + 1;
                    continue;
                }
            }
        }
        if is_box_char(ch) {
            if let Some(s) = word_start.take() {
                flush(s, i, TokenKind::Word, out);
            }
            flush(i, i + 1, TokenKind::BoxGlyph, out);
            i += 1;
            continue;
        }
        if ch.is_whitespace() {
            if let Some(s) = word_start.take() {
                flush(s, i, TokenKind::Word, out);
            }
        } else if word_start.is_none() {
            word_start = Some(i);
        }
        i += 1;
    }
    if let Some(s) = word_start {
        flush(s, chars.len(), TokenKind::Word, out);
    }
}

fn token(chars: &[Placed], kind: TokenKind, baseline: f64) -> Token {
    let x0 = chars[0].x;
    let x1 = chars.iter().map(|p| p.x + p.width).fold(x0, f64::max);
    let top = chars.iter().map(|p| p.top).fold(f64::INFINITY, f64::min);
    let bottom = chars
        .iter()
        .map(|p| p.bottom)
        .fold(f64::NEG_INFINITY, f64::max);
    let size = chars.iter().map(|p| p.size).fold(0.0, f64::max);
    Token {
        kind,
        text: chars.iter().map(|p| p.ch).collect(),
        rect: Rect::new(x0, top, x1 - x0, bottom - top),
        baseline,
        size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quire_sdk::{FontFamily, Run, TextBox};

    fn page_with(text: &str, frame: Rect) -> Page {
        let mut page = Page::new(612.0, 792.0);
        page.shapes.push(Shape::Text(TextBox {
            id: "t".into(),
            frame,
            text: Text::plain(text, 10.0),
            fill: None,
            stroke: None,
        }));
        page
    }

    #[test]
    fn words_underscores_and_boxes() {
        let page = page_with(
            "Name: _____ [ ] Yes ☐ No",
            Rect::new(72.0, 100.0, 400.0, 20.0),
        );
        let t = tokens(&page);
        let kinds: Vec<(TokenKind, &str)> = t.iter().map(|t| (t.kind, t.text.as_str())).collect();
        assert_eq!(
            kinds,
            [
                (TokenKind::Word, "Name:"),
                (TokenKind::Underscores, "_____"),
                (TokenKind::BoxGlyph, "[ ]"),
                (TokenKind::Word, "Yes"),
                (TokenKind::BoxGlyph, "☐"),
                (TokenKind::Word, "No"),
            ]
        );
        // Positions from the font metrics: Helvetica 10 pt, left aligned from x = 72.
        let face = FontFace::new(FontFamily::Helvetica, false, false);
        let before = face.text_width("Name: ", 10.0);
        let under = &t[1];
        assert!((under.rect.x - (72.0 + before)).abs() < 1e-9);
        assert!((under.rect.w - face.text_width("_____", 10.0)).abs() < 1e-9);
        // The baseline the layout puts the line on.
        let lines = layout_text(&Text::plain("x", 10.0), 400.0);
        assert!((under.baseline - (100.0 + lines[0].baseline)).abs() < 1e-9);
    }

    #[test]
    fn two_underscores_are_a_word_and_wrapping_moves_tokens_down() {
        let page = page_with("a__b ____", Rect::new(0.0, 0.0, 400.0, 20.0));
        let t = tokens(&page);
        assert_eq!(t[0].text, "a__b");
        assert_eq!(t[1].kind, TokenKind::Underscores);

        let narrow = page_with("Name ________", Rect::new(0.0, 0.0, 50.0, 40.0));
        let t = tokens(&narrow);
        assert_eq!(t.len(), 2);
        assert!(t[1].baseline > t[0].baseline + 5.0, "{t:?}");
        assert_eq!(t[1].rect.x, 0.0);
    }

    /// The exporters draw a padded text inside its padding (draw.io's `spacingLeft`...):
    /// its blanks are read there too.
    #[test]
    fn padding_moves_the_words_where_they_are_drawn() {
        let frame = Rect::new(72.0, 100.0, 400.0, 60.0);
        let plain = tokens(&page_with("Name: _____", frame));
        let mut page = page_with("Name: _____", frame);
        if let Shape::Text(t) = &mut page.shapes[0] {
            t.text.padding = Some(quire_sdk::Insets {
                top: 20.0,
                right: 0.0,
                bottom: 0.0,
                left: 50.0,
            });
        }
        let moved = tokens(&page);
        assert_eq!(moved.len(), plain.len());
        assert!((moved[1].rect.x - (plain[1].rect.x + 50.0)).abs() < 1e-9);
        assert!((moved[1].baseline - (plain[1].baseline + 20.0)).abs() < 1e-9);
    }

    #[test]
    fn vertical_alignment_and_bad_sizes() {
        let mut page = page_with("x", Rect::new(0.0, 0.0, 100.0, 100.0));
        if let Shape::Text(t) = &mut page.shapes[0] {
            t.text.valign = VAlign::Bottom;
            t.text.runs.push(Run::plain(" y", f64::NAN));
        }
        let t = tokens(&page);
        assert_eq!(t.len(), 1);
        assert!(t[0].rect.bottom() > 95.0 && t[0].rect.bottom() <= 100.0);
    }
}
