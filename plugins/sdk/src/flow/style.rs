//! The look of flow layout: sizes, spacing, colours, and inline styles turned into runs.

use super::{FontSize, Inline};
use crate::model::{Align, Color, Direction, FontFamily, Run};

pub(super) const HEADING_SIZES: [f64; 6] = [24.0, 18.0, 14.0, 12.0, 11.0, 10.0];
/// Space above a heading, as a multiple of its size (more for big headings, which open
/// sections).
pub(super) const HEADING_SPACE_BEFORE: f64 = 0.9;
pub(super) const HEADING_SPACE_AFTER: f64 = 0.35;

pub(super) const CODE_SIZE: f64 = 9.5;
/// Padding inside the grey box of a code block.
pub(super) const CODE_PAD: f64 = 5.0;
pub(super) const CODE_LINE_HEIGHT: f64 = 1.25;
pub(super) const BODY_LINE_HEIGHT: f64 = 1.3;
/// Inline code is set a little smaller: Courier looks large next to Times or Helvetica.
pub(super) const INLINE_CODE_SCALE: f64 = 0.9;

/// Table text, relative to the body size; tables are dense.
pub(super) const TABLE_SCALE: f64 = 0.92;
pub(super) const CELL_PAD_X: f64 = 4.0;
pub(super) const CELL_PAD_Y: f64 = 3.0;

/// Indentation of one list level (the marker column) and of a quote.
pub(super) const LIST_INDENT: f64 = 18.0;
pub(super) const MARKER_GAP: f64 = 5.0;
pub(super) const QUOTE_INDENT: f64 = 14.0;
pub(super) const QUOTE_BAR_WIDTH: f64 = 3.0;

pub(super) const LINK_BLUE: Color = Color::rgb(0x1a, 0x4f, 0xc4);
pub(super) const CODE_BACKGROUND: Color = Color::rgb(0xf2, 0xf2, 0xf2);
pub(super) const QUOTE_BAR: Color = Color::rgb(0xc8, 0xc8, 0xc8);
pub(super) const QUOTE_TEXT: Color = Color::rgb(0x44, 0x44, 0x44);
pub(super) const RULE_COLOR: Color = Color::rgb(0x99, 0x99, 0x99);
pub(super) const TABLE_BORDER: Color = Color::rgb(0x99, 0x99, 0x99);
pub(super) const TABLE_HEADER_FILL: Color = Color::rgb(0xea, 0xea, 0xea);

/// What inlines inherit from their block.
#[derive(Debug, Clone, Copy)]
pub(super) struct Base {
    pub font: FontFamily,
    pub size: f64,
    pub bold: bool,
    pub color: Option<Color>,
}

/// The bullets of list levels 1, 2, 3 (then again): all in WinAnsi.
pub(super) fn bullet(depth: usize) -> &'static str {
    ["\u{2022}", "\u{2013}", "\u{00b7}"][depth % 3]
}

/// Inlines as model runs; neighbours that end up styled alike are merged, so a paragraph
/// is as few runs as its styling needs.
pub(super) fn runs(inlines: &[Inline], base: Base) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::with_capacity(inlines.len());
    for inline in inlines {
        if inline.text.is_empty() {
            continue;
        }
        let run = Run {
            text: inline.text.clone(),
            font: if inline.code {
                FontFamily::Courier
            } else {
                inline.font.unwrap_or(base.font)
            },
            size: match inline.size {
                // A size the source gave in points is the code's size too.
                Some(FontSize::Points(points)) => FontSize::Points(points).of(base.size),
                scale => {
                    let size = scale.map_or(base.size, |s| s.of(base.size));
                    if inline.code {
                        size * INLINE_CODE_SCALE
                    } else {
                        size
                    }
                }
            },
            bold: base.bold || inline.bold,
            italic: inline.italic,
            underline: inline.underline.unwrap_or(inline.link.is_some()),
            strike: inline.strike,
            // A link is link blue unless the source coloured the link itself.
            color: if inline.link.is_some() {
                inline.color.or(Some(LINK_BLUE))
            } else {
                inline.color.or(base.color)
            },
            link: inline.link.clone(),
            lang: inline.lang.clone(),
        };
        match out.last_mut() {
            Some(last) if same_style(last, &run) => last.text.push_str(&run.text),
            _ => out.push(run),
        }
    }
    out
}

fn same_style(a: &Run, b: &Run) -> bool {
    a.font == b.font
        && a.size == b.size
        && a.bold == b.bold
        && a.italic == b.italic
        && a.underline == b.underline
        && a.strike == b.strike
        && a.color == b.color
        && a.link == b.link
        && a.lang == b.lang
}

/// The direction the inlines set for their paragraph: their first one's.
pub(super) fn direction(inlines: &[Inline]) -> Option<Direction> {
    inlines.iter().find_map(|i| i.dir)
}

/// The alignment a paragraph or heading asks for through its inlines (HTML's `text-align`).
pub(super) fn alignment(inlines: &[Inline]) -> Option<Align> {
    inlines.iter().find_map(|i| i.align)
}

/// Whether `blocks` (a list item, a quote) read right to left: the direction of their first
/// block with text, said outright (HTML `dir`) or else by its first strong character
/// (UAX #9 P2, P3), as its paragraph is laid out. Their list markers and quote bars then
/// stand on the right.
pub(super) fn reads_right_to_left(blocks: &[super::Block]) -> bool {
    use super::Block;
    for block in blocks {
        let inlines = match block {
            Block::Paragraph(inlines) | Block::Heading { inlines, .. } => inlines,
            Block::List { items, .. } => match items.first() {
                Some(item) => return reads_right_to_left(item),
                None => continue,
            },
            Block::Quote(inner) | Block::Boxed { blocks: inner, .. } => {
                return reads_right_to_left(inner)
            }
            _ => continue,
        };
        if !has_text(inlines) {
            continue;
        }
        if let Some(dir) = direction(inlines) {
            return dir == Direction::Rtl;
        }
        let text: String = inlines.iter().map(|i| i.text.as_str()).collect();
        return unicode_bidi::get_base_direction(text.as_str()) == unicode_bidi::Direction::Rtl;
    }
    false
}

/// Whether the inlines hold anything to draw.
pub(super) fn has_text(inlines: &[Inline]) -> bool {
    // Bidi controls alone (an empty `<bdi>`) draw nothing: no blank paragraph for them.
    inlines.iter().any(|i| {
        i.text
            .chars()
            .any(|c| !c.is_whitespace() && !crate::fonts::is_invisible(c))
    })
}

/// Replaces tabs by spaces up to the next multiple of four columns, as terminals show code.
pub(super) fn expand_tabs(text: &str) -> String {
    if !text.contains('\t') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut column = 0;
    for c in text.chars() {
        match c {
            '\t' => {
                let n = 4 - column % 4;
                out.extend(std::iter::repeat_n(' ', n));
                column += n;
            }
            '\n' => {
                out.push(c);
                column = 0;
            }
            _ => {
                out.push(c);
                column += 1;
            }
        }
    }
    out
}
