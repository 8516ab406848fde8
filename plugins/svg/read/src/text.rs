//! `<text>` kept as text: usvg's text chunks (a chunk starts wherever the SVG gives an
//! absolute x or y) become lines, lines stacked under one another become one paragraph, and
//! each paragraph becomes a text box placed so that the model's layout puts its baseline and
//! its anchor (start, middle or end) where the SVG had them. usvg's own glyph outlines are
//! never used: the characters, sizes and font names are what the model keeps.

use quire_sdk::layout::{layout_text, natural_width};
use quire_sdk::metrics::FontFace;
use quire_sdk::{Align, ConvertError, FontFamily, Point, Rect, Run, Shape, Text, TextBox};

use super::context::{bbox_frame, paint_colour, Ctx};
use super::detect::Map;

/// Room added to a box's width so the model's layout never wraps a line the SVG kept whole.
const SLACK: f64 = 1.0;

/// One chunk: a line of styled runs anchored at a point (model points).
struct Line {
    anchor: Point,
    align: Align,
    runs: Vec<Run>,
}

pub fn convert(ctx: &mut Ctx, t: &usvg::Text, opacity: f64) -> Result<Vec<Shape>, ConvertError> {
    let map = ctx.map(t.abs_transform());
    let flowing = t.writing_mode() == usvg::WritingMode::TopToBottom
        || t.chunks()
            .iter()
            .any(|c| matches!(c.text_flow(), usvg::TextFlow::Path(_)));
    let lines = lines(ctx, t, &map, opacity);
    if lines.iter().all(|l| l.runs.is_empty()) {
        return Ok(Vec::new());
    }
    if flowing {
        return on_a_path(ctx, t, lines);
    }
    if !map.upright() {
        ctx.warn("rotated, skewed or mirrored text was set upright");
    }
    let mut out = Vec::new();
    let mut id = Some(t.id());
    for para in paragraphs(lines) {
        if let Some(shape) = text_box(ctx, &para, id.take().unwrap_or(""))? {
            out.push(shape);
        }
    }
    Ok(out)
}

fn lines(ctx: &mut Ctx, t: &usvg::Text, map: &Map, opacity: f64) -> Vec<Line> {
    let mut out = Vec::new();
    let (mut last_x, mut last_y) = (0.0f32, 0.0f32);
    let mut chars = 0usize;
    for chunk in t.chunks() {
        let dx = t.dx().get(chars).copied().unwrap_or(0.0);
        let dy = t.dy().get(chars).copied().unwrap_or(0.0);
        let x = chunk.x().unwrap_or(last_x) + dx;
        let y = chunk.y().unwrap_or(last_y) + dy;
        chars += chunk.text().chars().count();
        let mut runs = Vec::new();
        let mut advance = 0.0f64;
        for span in chunk.spans() {
            let Some(s) = chunk.text().get(span.start()..span.end()) else {
                continue;
            };
            let font = span.font();
            let face = FontFace::new(
                family(font),
                font.weight() >= 600,
                font.style() != usvg::FontStyle::Normal,
            );
            let size = span.font_size().get() as f64;
            advance += face.text_width(s, size);
            if !span.is_visible() || s.is_empty() {
                continue;
            }
            let colour = match (span.fill(), span.stroke()) {
                (Some(f), _) => paint_colour(ctx, f.paint(), opacity * f.opacity().get() as f64),
                (None, Some(st)) => {
                    paint_colour(ctx, st.paint(), opacity * st.opacity().get() as f64)
                }
                (None, None) => None,
            };
            let Some(colour) = colour else { continue };
            let decoration = span.decoration();
            runs.push(Run {
                text: s.to_string(),
                font: face.family,
                size: (size * map.scale()).clamp(0.1, quire_sdk::validate::MAX_FONT_SIZE),
                bold: face.bold,
                italic: face.italic,
                underline: decoration.underline().is_some(),
                strike: decoration.line_through().is_some(),
                color: (colour != quire_sdk::Color::BLACK).then_some(colour),
                link: None,
                lang: None,
            });
        }
        let (align, end_x) = match chunk.anchor() {
            usvg::TextAnchor::Start => (Align::Left, x + advance as f32),
            usvg::TextAnchor::Middle => (Align::Center, x + advance as f32 / 2.0),
            usvg::TextAnchor::End => (Align::Right, x),
        };
        last_x = end_x;
        last_y = y;
        if runs.iter().all(|r| r.text.trim().is_empty()) {
            runs.clear();
        }
        out.push(Line {
            anchor: map.point(x, y),
            align,
            runs,
        });
    }
    out
}

/// The standard family nearest to the SVG's font list: the first name recognised wins.
fn family(font: &usvg::Font) -> FontFamily {
    for f in font.families() {
        match f {
            usvg::FontFamily::Monospace => return FontFamily::Courier,
            usvg::FontFamily::Serif => return FontFamily::Times,
            usvg::FontFamily::SansSerif | usvg::FontFamily::Cursive | usvg::FontFamily::Fantasy => {
                return FontFamily::Helvetica
            }
            usvg::FontFamily::Named(name) => {
                let n = name.to_ascii_lowercase();
                let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
                if has(&["courier", "mono", "consolas", "menlo", "code"]) {
                    return FontFamily::Courier;
                }
                if has(&[
                    "sans",
                    "helvetica",
                    "arial",
                    "verdana",
                    "tahoma",
                    "segoe",
                    "inter",
                ]) {
                    return FontFamily::Helvetica;
                }
                if has(&["times", "serif", "georgia", "garamond", "cambria", "roman"]) {
                    return FontFamily::Times;
                }
            }
        }
    }
    FontFamily::Helvetica
}

/// Consecutive lines that stack under one another (same anchor x and alignment, baselines
/// going down by a steady step) are one paragraph.
fn paragraphs(lines: Vec<Line>) -> Vec<(Vec<Line>, Option<f64>)> {
    let mut out: Vec<(Vec<Line>, Option<f64>)> = Vec::new();
    for line in lines.into_iter().filter(|l| !l.runs.is_empty()) {
        if let Some((para, step)) = out.last_mut() {
            let prev = &para[para.len() - 1];
            let down = line.anchor.y - prev.anchor.y;
            let size = line.runs.iter().map(|r| r.size).fold(0.0, f64::max);
            let stacks = prev.align == line.align
                && (prev.anchor.x - line.anchor.x).abs() < 0.5
                && down > 0.0
                && down < size * 3.0
                && step.is_none_or(|s| (s - down).abs() < 0.5);
            if stacks {
                *step = Some(down);
                para.push(line);
                continue;
            }
        }
        out.push((vec![line], None));
    }
    out
}

fn text_box(
    ctx: &mut Ctx,
    (lines, step): &(Vec<Line>, Option<f64>),
    svg_id: &str,
) -> Result<Option<Shape>, ConvertError> {
    let Some(first) = lines.first() else {
        return Ok(None);
    };
    let mut runs: Vec<Run> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        runs.extend(line.runs.iter().cloned());
        if i + 1 < lines.len() {
            if let Some(last) = runs.last_mut() {
                last.text.push('\n');
            }
        }
    }
    let largest = runs.iter().map(|r| r.size).fold(0.0, f64::max);
    let line_height = match step {
        Some(s) if largest > 0.0 => (s / largest).clamp(0.5, 10.0),
        _ => Text::default_layout().line_height,
    };
    let text = Text {
        runs,
        align: first.align,
        line_height,
        ..Text::default_layout()
    };
    let width = natural_width(&text) + SLACK;
    let laid = layout_text(&text, width);
    let Some(top_line) = laid.first() else {
        return Ok(None);
    };
    let height: f64 = laid.iter().map(|l| l.height).sum();
    let x = match first.align {
        Align::Center => first.anchor.x - width / 2.0,
        Align::Right => first.anchor.x - width,
        Align::Left | Align::Justify => first.anchor.x,
    };
    let frame = Rect::new(x, first.anchor.y - top_line.baseline, width, height);
    if ![frame.x, frame.y, frame.w, frame.h]
        .iter()
        .all(|v| v.is_finite())
    {
        return Ok(None);
    }
    ctx.count()?;
    Ok(Some(Shape::Text(TextBox {
        id: ctx.id(svg_id),
        frame,
        text,
        fill: None,
        stroke: None,
    })))
}

/// Text on a path or set vertically: the model has neither, so its characters are kept as
/// one horizontal line in the box the SVG drew them in.
fn on_a_path(ctx: &mut Ctx, t: &usvg::Text, lines: Vec<Line>) -> Result<Vec<Shape>, ConvertError> {
    ctx.warn("text on a path or set vertically was laid out as a horizontal line");
    let Some(frame) = bbox_frame(ctx, t.abs_bounding_box()) else {
        return Ok(Vec::new());
    };
    let mut runs: Vec<Run> = lines.into_iter().flat_map(|l| l.runs).collect();
    let Some(first) = runs.first_mut() else {
        return Ok(Vec::new());
    };
    first.text = first.text.trim_start().to_string();
    let text = Text {
        runs,
        ..Text::default_layout()
    };
    ctx.count()?;
    Ok(vec![Shape::Text(TextBox {
        id: ctx.id(t.id()),
        frame: Rect::new(
            frame.x,
            frame.y,
            frame.w.max(natural_width(&text) + SLACK),
            frame.h,
        ),
        text,
        fill: None,
        stroke: None,
    })])
}
