//! Blanks in the model's own shapes: underscore runs and box glyphs in text, drawn lines
//! with room above them, and empty rectangles (small squares are tick boxes, larger boxes
//! text or multi-line fields; a box holding only a label keeps the room beside or below it).
//!
//! Everything here is exact geometry in page points, so the rules are plain distances.

use quire_sdk::geometry::flatten;
use quire_sdk::{FieldType, Geometry, Page, Point, Rect, Shape, ShapeWalk};

use crate::geom::{area, Candidate, Source};
use crate::words::{Token, TokenKind};

/// Shortest drawn line that is a line to write on.
const MIN_LINE: f64 = 36.0;
/// Shortest piece of a line once cut by the rulings standing on it.
const MIN_PIECE: f64 = 24.0;
/// Thickest stroke that is still a line (a thicker one is a bar or a rule).
const MAX_LINE_WIDTH: f64 = 3.0;
/// Height of a field on a drawn line, and the least room that makes one.
const LINE_FIELD_H: f64 = 18.0;
const MIN_FIELD_H: f64 = 9.0;
/// Tick boxes are at most this big; boxes this tall are for several lines.
const BOX_MAX: f64 = 16.0;
const MULTILINE_H: f64 = 40.0;
/// Most lines and boxes read from one page.
const MAX_ITEMS: usize = 20_000;

/// A straight axis-aligned stroke: from `a0` to `a1` along, at `c` across.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Line {
    a0: f64,
    a1: f64,
    c: f64,
    width: f64,
}

#[derive(Default)]
struct Drawn {
    horizontal: Vec<Line>,
    vertical: Vec<Line>,
    boxes: Vec<Rect>,
}

pub fn candidates(page: &Page, tokens: &[Token]) -> Vec<Candidate> {
    let drawn = drawn(page);
    let mut out = Vec::new();
    text_blanks(tokens, &mut out);
    let index = Tokens::new(tokens);
    box_blanks(page, &drawn, &index, &mut out);
    line_blanks(&drawn, &index, &mut out);
    out
}

/// The page's tokens by their top edge, so a box or a line looks only at the words near it.
struct Tokens<'a> {
    by_top: Vec<&'a Token>,
}

impl<'a> Tokens<'a> {
    fn new(tokens: &'a [Token]) -> Self {
        let mut by_top: Vec<&Token> = tokens.iter().filter(|t| t.rect.y.is_finite()).collect();
        by_top.sort_by(|a, b| a.rect.y.total_cmp(&b.rect.y));
        Tokens { by_top }
    }

    /// Tokens whose top lies in `[y0, y1]`.
    fn between(&self, y0: f64, y1: f64) -> &[&'a Token] {
        let lo = self.by_top.partition_point(|t| t.rect.y < y0);
        let hi = self.by_top.partition_point(|t| t.rect.y <= y1);
        &self.by_top[lo..hi.max(lo)]
    }

    /// The tallest a token may be and still reach a region from above it.
    const REACH: f64 = 120.0;
}

/// Underscore runs and box glyphs, where the exporters draw them.
fn text_blanks(tokens: &[Token], out: &mut Vec<Candidate>) {
    for t in tokens {
        let s = t.size;
        match t.kind {
            TokenKind::Underscores => {
                // From the top of the line's capitals to just under the underscores' bar.
                let top = t.baseline - 0.95 * s;
                let bottom = t.baseline + 0.2 * s;
                let r = Rect::new(t.rect.x, top, t.rect.w, bottom - top);
                out.push(Candidate::new(r, FieldType::Text, Source::Vector));
            }
            TokenKind::BoxGlyph => {
                let side = (0.8 * s).min(t.rect.w.max(0.5 * s));
                let cx = t.rect.x + t.rect.w / 2.0;
                let r = Rect::new(cx - side / 2.0, t.baseline - 0.75 * s, side, side);
                out.push(Candidate::new(r, FieldType::Checkbox, Source::Vector));
            }
            TokenKind::Word => {}
        }
    }
}

fn is_rect_geometry(g: Geometry) -> bool {
    matches!(g, Geometry::Rect | Geometry::Rounded)
}

/// Lines and boxes drawn on the page: nodes and stroked rectangles are boxes; straight
/// strokes and hairline fills are lines.
fn drawn(page: &Page) -> Drawn {
    let mut d = Drawn::default();
    let thin = |r: &Rect, d: &mut Drawn| {
        if r.h <= MAX_LINE_WIDTH && r.w > r.h {
            d.horizontal.push(Line {
                a0: r.x,
                a1: r.right(),
                c: r.y + r.h / 2.0,
                width: r.h,
            });
            true
        } else if r.w <= MAX_LINE_WIDTH && r.h > r.w {
            d.vertical.push(Line {
                a0: r.y,
                a1: r.bottom(),
                c: r.x + r.w / 2.0,
                width: r.w,
            });
            true
        } else {
            false
        }
    };
    for shape in ShapeWalk::new(&page.shapes) {
        if d.horizontal.len() + d.vertical.len() + d.boxes.len() >= MAX_ITEMS {
            break;
        }
        match shape {
            Shape::Node(n) if is_rect_geometry(n.geometry) => {
                if thin(&n.frame, &mut d) {
                    continue;
                }
                if n.stroke.is_some() {
                    d.boxes.push(n.frame);
                }
            }
            Shape::Text(t) if t.stroke.is_some() => d.boxes.push(t.frame),
            Shape::Path(p) => {
                let polylines = flatten(&p.segments);
                if p.stroke.is_none() {
                    // A filled path is a line only when it is a hairline.
                    if let Some(b) = quire_sdk::geometry::bounds(&p.segments) {
                        if p.fill.is_some() {
                            thin(&b, &mut d);
                        }
                    }
                    continue;
                }
                let width = p.stroke.map_or(1.0, |s| s.width);
                for poly in &polylines {
                    if let Some(r) = as_rect(poly) {
                        if !thin(&r, &mut d) {
                            d.boxes.push(r);
                        }
                        continue;
                    }
                    for pair in poly.windows(2) {
                        let (a, b) = (pair[0], pair[1]);
                        if (a.y - b.y).abs() < 0.01 && (a.x - b.x).abs() >= 1.0 {
                            d.horizontal.push(Line {
                                a0: a.x.min(b.x),
                                a1: a.x.max(b.x),
                                c: a.y,
                                width,
                            });
                        } else if (a.x - b.x).abs() < 0.01 && (a.y - b.y).abs() >= 1.0 {
                            d.vertical.push(Line {
                                a0: a.y.min(b.y),
                                a1: a.y.max(b.y),
                                c: a.x,
                                width,
                            });
                        }
                    }
                }
            }
            _ => {}
        }
    }
    d.horizontal
        .retain(|l| l.a1.is_finite() && l.a0.is_finite() && l.c.is_finite());
    d.vertical
        .retain(|l| l.a1.is_finite() && l.a0.is_finite() && l.c.is_finite());
    d.boxes
        .retain(|r| [r.x, r.y, r.w, r.h].iter().all(|v| v.is_finite()));
    d
}

/// The rectangle a closed polyline of four axis-aligned sides outlines.
fn as_rect(poly: &[Point]) -> Option<Rect> {
    let pts: &[Point] = match poly {
        [first, .., last] if poly.len() == 5 && close(*first, *last) => &poly[..4],
        _ if poly.len() == 4 => poly,
        _ => return None,
    };
    for i in 0..4 {
        let (a, b) = (pts[i], pts[(i + 1) % 4]);
        if (a.x - b.x).abs() > 0.01 && (a.y - b.y).abs() > 0.01 {
            return None;
        }
    }
    let x0 = pts.iter().map(|p| p.x).fold(f64::INFINITY, f64::min);
    let x1 = pts.iter().map(|p| p.x).fold(f64::NEG_INFINITY, f64::max);
    let y0 = pts.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
    let y1 = pts.iter().map(|p| p.y).fold(f64::NEG_INFINITY, f64::max);
    (x1 - x0 > 0.01 && y1 - y0 > 0.01).then(|| Rect::new(x0, y0, x1 - x0, y1 - y0))
}

fn close(a: Point, b: Point) -> bool {
    (a.x - b.x).abs() < 0.01 && (a.y - b.y).abs() < 0.01
}

fn centre_in(t: &Token, r: &Rect) -> bool {
    let c = t.rect.center();
    c.x >= r.x && c.x <= r.right() && c.y >= r.y && c.y <= r.bottom()
}

/// Empty boxes, and the room a box leaves beside or below the label it holds.
fn box_blanks(page: &Page, d: &Drawn, tokens: &Tokens, out: &mut Vec<Candidate>) {
    let page_area = page.width * page.height;
    for b in &d.boxes {
        if b.w < 4.0 || b.h < 4.0 || area(b) > 0.25 * page_area {
            continue;
        }
        let inside: Vec<&Token> = tokens
            .between(b.y - Tokens::REACH, b.bottom())
            .iter()
            .filter(|t| centre_in(t, b))
            .copied()
            .collect();
        let inner = Rect::new(b.x + 1.5, b.y + 1.5, b.w - 3.0, b.h - 3.0);
        if inside.is_empty() {
            let square = b.w.max(b.h) <= BOX_MAX && b.w.max(b.h) <= 1.6 * b.w.min(b.h);
            let kind = if square {
                FieldType::Checkbox
            } else if b.w < 18.0 || b.h < 8.0 {
                continue;
            } else if b.h >= MULTILINE_H {
                FieldType::Multiline
            } else {
                FieldType::Text
            };
            let r = if square { *b } else { inner };
            out.push(Candidate::new(r, kind, Source::Vector));
            continue;
        }
        // Blanks typed inside the box are found as text already.
        if inside.iter().any(|t| t.kind != TokenKind::Word) {
            continue;
        }
        let words_bottom = inside
            .iter()
            .map(|t| t.rect.bottom())
            .fold(f64::NEG_INFINITY, f64::max);
        let room_below = b.bottom() - words_bottom;
        if room_below >= 14.0 && b.w >= 24.0 {
            let kind = if room_below >= MULTILINE_H {
                FieldType::Multiline
            } else {
                FieldType::Text
            };
            let r = Rect::new(
                inner.x,
                words_bottom + 1.0,
                inner.w,
                b.bottom() - 2.0 - words_bottom,
            );
            out.push(Candidate::new(r, kind, Source::Vector));
            continue;
        }
        // A label ending in a colon on one line, with room after it: "Name: [        ]".
        let one_line = inside
            .iter()
            .all(|t| (t.baseline - inside[0].baseline).abs() < 1.0);
        let last = inside
            .iter()
            .max_by(|a, b| a.rect.right().total_cmp(&b.rect.right()));
        if let (true, Some(last)) = (one_line, last) {
            let room = inner.right() - last.rect.right();
            if last.text.ends_with(':') && room >= 36.0 {
                let x = last.rect.right() + 3.0;
                let r = Rect::new(x, inner.y, inner.right() - x, inner.h);
                out.push(Candidate::new(r, FieldType::Text, Source::Vector));
            }
        }
    }
}

/// Whether `l` is a side of one of `boxes`.
fn is_box_side(l: &Line, boxes: &[Rect]) -> bool {
    boxes.iter().any(|b| {
        (l.c - b.y).abs() <= 1.0 || (l.c - b.bottom()).abs() <= 1.0
    } && l.a0 >= b.x - 1.0 && l.a1 <= b.right() + 1.0)
}

/// Fields above drawn lines: each line cut where rulings stand on it, each piece as high as
/// the room above it allows, and none where words sit on the line.
fn line_blanks(d: &Drawn, tokens: &Tokens, out: &mut Vec<Candidate>) {
    let mut lines: Vec<Line> = d
        .horizontal
        .iter()
        .filter(|l| l.width <= MAX_LINE_WIDTH && !is_box_side(l, &d.boxes))
        .copied()
        .collect();
    lines.sort_by(|a, b| a.c.total_cmp(&b.c).then(a.a0.total_cmp(&b.a0)));
    // Pieces of one line drawn end to end are one line.
    let mut merged: Vec<Line> = Vec::with_capacity(lines.len());
    for l in lines {
        match merged.last_mut() {
            Some(m) if (m.c - l.c).abs() < 0.5 && l.a0 <= m.a1 + 1.0 => m.a1 = m.a1.max(l.a1),
            _ => merged.push(l),
        }
    }
    let all: Vec<Line> = merged.clone();
    let mut by_bottom = d.boxes.clone();
    by_bottom.sort_by(|a, b| a.bottom().total_cmp(&b.bottom()));
    let mut verticals = d.vertical.clone();
    verticals.sort_by(|a, b| a.c.total_cmp(&b.c));
    for line in merged.iter().filter(|l| l.a1 - l.a0 >= MIN_LINE) {
        let mut cuts = vec![line.a0, line.a1];
        let from = verticals.partition_point(|v| v.c <= line.a0 + 1.0);
        for v in verticals[from..].iter().take_while(|v| v.c < line.a1 - 1.0) {
            if v.a0 <= line.c - 4.0 && v.a1 >= line.c - 1.0 {
                cuts.push(v.c);
            }
        }
        cuts.sort_by(f64::total_cmp);
        for pair in cuts.windows(2) {
            let (x0, x1) = (pair[0], pair[1]);
            if x1 - x0 < MIN_PIECE {
                continue;
            }
            if let Some(r) = room_above(line, x0, x1, &all, &by_bottom, tokens) {
                out.push(Candidate::new(r, FieldType::Text, Source::Vector));
            }
        }
    }
}

/// The field above the piece `[x0, x1]` of `line`, if nothing sits on it and there is room.
fn room_above(
    line: &Line,
    x0: f64,
    x1: f64,
    lines: &[Line],
    boxes: &[Rect],
    tokens: &Tokens,
) -> Option<Rect> {
    let y = line.c - line.width / 2.0;
    let overlaps = |a0: f64, a1: f64| a1.min(x1) - a0.max(x0) > 1.0;
    let mut limit = y - LINE_FIELD_H - 1.0;
    for t in tokens.between(y - LINE_FIELD_H - Tokens::REACH, y + 2.0) {
        if !overlaps(t.rect.x, t.rect.right()) {
            continue;
        }
        // Words written on the line: it is taken, or it underlines them.
        if t.kind == TokenKind::Word && t.baseline >= y - 12.0 && t.baseline <= y + 2.0 {
            return None;
        }
        if t.rect.bottom() <= y + 0.5 {
            limit = limit.max(t.rect.bottom());
        }
    }
    // Lines are sorted by position and boxes by bottom: only those in the band above
    // can lower the field's top.
    let band = y - LINE_FIELD_H - 1.0;
    let from = lines.partition_point(|l| l.c < band - MAX_LINE_WIDTH);
    for l in &lines[from..] {
        if l.c >= y - 0.5 {
            break;
        }
        if overlaps(l.a0, l.a1) {
            limit = limit.max(l.c + l.width / 2.0);
        }
    }
    let from = boxes.partition_point(|b| b.bottom() < band);
    for b in &boxes[from..] {
        if b.bottom() >= y - 0.5 {
            break;
        }
        if overlaps(b.x, b.right()) {
            limit = limit.max(b.bottom());
        }
    }
    let h = (y - limit - 1.0).min(LINE_FIELD_H);
    (h >= MIN_FIELD_H).then(|| Rect::new(x0 + 1.0, y - 0.5 - h, x1 - x0 - 2.0, h))
}
