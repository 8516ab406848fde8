//! Text: laid out by the SDK (so every exporter and the importers break lines alike) and
//! drawn as real text a reader can select: with the standard-14 fonts in WinAnsi encoding
//! where they have the character, else with an embedded subset of the font library's face
//! that has it (see `library_fonts`).

use quire_sdk::glyph_runs::{LINE_THICKNESS, STRIKE_OFFSET, UNDERLINE_OFFSET};
use quire_sdk::layout::{layout_text, Line};
use quire_sdk::metrics::FontFace;
use quire_sdk::{Color, Rect, Run, Text, VAlign};

use super::canvas::{Canvas, Link};
use super::glyph_runs::{encode, Font, Piece};
use super::show::TextObject;

/// Lines of `text` laid out at `width`, or none when it has nothing to draw.
fn lines(text: &Text, width: f64) -> Vec<Line> {
    if text.runs.iter().all(|r| r.text.is_empty()) {
        return Vec::new();
    }
    layout_text(text, width)
}

/// The natural size of `text` (widest line, total height) when nothing wraps it.
pub fn natural_size(text: &Text) -> (f64, f64) {
    // The layout reads a width that is not a positive number as "do not wrap".
    let lines = lines(text, f64::INFINITY);
    let w = lines.iter().map(|l| l.width).fold(0.0, f64::max);
    let h = lines.iter().map(|l| l.height).sum();
    (w, h)
}

/// Draws `text` inside `area`: wrapped at its width, aligned vertically by `valign`. Text
/// taller than the area overflows it rather than being cut, so nothing is lost.
pub fn draw_text(canvas: &mut Canvas, text: &Text, area: Rect) {
    let area = quire_sdk::drawing::padded(text, area);
    let lines = lines(text, area.w);
    draw_lines(canvas, text, &lines, area);
}

/// Draws a label of natural size centred on `centre`, over a white patch so the line it
/// labels does not run through the words.
pub fn draw_label(
    canvas: &mut Canvas,
    text: &Text,
    centre: quire_sdk::Point,
    background: Option<Color>,
) {
    let (w, h) = natural_size(text);
    if w <= 0.0 || h <= 0.0 {
        return;
    }
    // Laid out again at its own width so alignment offsets are relative to the label.
    let width = w + 0.01;
    let lines = lines(text, width);
    let area = Rect::new(centre.x - width / 2.0, centre.y - h / 2.0, width, h);
    if let Some(bg) = background {
        const PAD: f64 = 2.0;
        let patch = Rect::new(
            area.x - PAD,
            area.y - PAD,
            area.w + 2.0 * PAD,
            area.h + 2.0 * PAD,
        );
        canvas.fill_rect(patch, bg);
    }
    draw_lines(canvas, text, &lines, area);
}

/// A fragment as drawn: where, with what, and the decorations it carries.
struct Placed<'t> {
    run: &'t Run,
    line: usize,
    x: f64,
    baseline: f64,
    width: f64,
    pieces: Vec<Piece>,
}

fn draw_lines(canvas: &mut Canvas, text: &Text, lines: &[Line], area: Rect) {
    if lines.is_empty() {
        return;
    }
    let total: f64 = lines.iter().map(|l| l.height).sum();
    let offset = match text.valign {
        VAlign::Top => 0.0,
        VAlign::Middle => (area.h - total) / 2.0,
        VAlign::Bottom => area.h - total,
    };
    let mut placed = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        for frag in &line.fragments {
            let Some(run) = text.runs.get(frag.run) else {
                continue;
            };
            if !(run.size.is_finite() && run.size > 0.0) {
                continue;
            }
            let pieces = encode(&frag.text, frag.rtl, FontFace::of_run(run), canvas.res);
            placed.push(Placed {
                run,
                line: n,
                x: area.x + frag.x,
                baseline: area.y + offset + line.baseline,
                width: frag.width,
                pieces,
            });
        }
    }
    if placed.is_empty() {
        return;
    }

    canvas.save();
    let mut colour: Option<Color> = None;
    let mut shown = TextObject::begin(&mut canvas.content);
    for p in &placed {
        let c = p.run.color.unwrap_or(Color::BLACK);
        if colour != Some(c) {
            canvas.fill_color(c);
            colour = Some(c);
        }
        let y = canvas.page_y(p.baseline);
        shown.show(&mut canvas.content, &p.pieces, p.x, y, p.run.size);
    }
    for font in shown.end(&mut canvas.content) {
        match font {
            Font::Standard(i) => canvas.used.fonts.insert(i),
            Font::Library(i) => canvas.used.library_fonts.insert(i),
        };
    }

    for p in &placed {
        decorate(canvas, p);
    }
    canvas.restore();
    collect_links(canvas, &placed);
}

/// Underline and strike-through, as thin filled bars in the run's colour.
fn decorate(canvas: &mut Canvas, p: &Placed) {
    let c = p.run.color.unwrap_or(Color::BLACK);
    let size = p.run.size;
    let thick = size * LINE_THICKNESS;
    let mut bar = |rise: f64| {
        let top = p.baseline - rise - thick / 2.0;
        canvas.fill_rect(Rect::new(p.x, top, p.width, thick), c);
    };
    if p.run.underline {
        bar(size * UNDERLINE_OFFSET);
    }
    if p.run.strike {
        bar(size * STRIKE_OFFSET);
    }
}

/// One link rectangle per stretch of same-target fragments on a line, from the font's
/// descender to its ascender.
fn collect_links(canvas: &mut Canvas, placed: &[Placed]) {
    // target, line, x0, x1, top, bottom of the stretch being collected
    type Open = Option<(String, usize, f64, f64, f64, f64)>;
    let mut open: Open = None;
    let flush = |open: &mut Open, canvas: &mut Canvas| {
        if let Some((target, _, x0, x1, top, bottom)) = open.take() {
            let r = Rect::new(x0, top, x1 - x0, bottom - top);
            canvas.links.push(Link {
                rect: canvas.pdf_rect(r),
                target,
            });
        }
    };
    for p in placed {
        let Some(target) = p.run.link.as_ref().filter(|t| !t.trim().is_empty()) else {
            flush(&mut open, canvas);
            continue;
        };
        let f = FontFace::of_run(p.run);
        let top = p.baseline - f.ascent() * p.run.size / 1000.0;
        let bottom = p.baseline - f.descent() * p.run.size / 1000.0;
        match open.as_mut() {
            Some((t, line, _, x1, o_top, o_bottom))
                if t == target && *line == p.line && p.x >= *x1 - 0.5 =>
            {
                *x1 = p.x + p.width;
                *o_top = o_top.min(top);
                *o_bottom = o_bottom.max(bottom);
            }
            _ => {
                flush(&mut open, canvas);
                open = Some((target.clone(), p.line, p.x, p.x + p.width, top, bottom));
            }
        }
    }
    flush(&mut open, canvas);
}
