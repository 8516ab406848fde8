//! Text as real `<text>` elements a reader can search and copy, placed where the PDF exporter
//! places its glyphs: lines come from the SDK layout (so every output breaks lines alike) and
//! each fragment is drawn at its own x and baseline. Every character is kept; SVG is
//! Unicode, so there is no WinAnsi loss here.

use quire_sdk::fonts;
use quire_sdk::glyph_runs::{self, Piece, PlacedGlyph};
use quire_sdk::layout::{layout_text, Line};
use quire_sdk::metrics::FontFace;
use quire_sdk::{Color, FontFamily, Point, Rect, Run, Text, VAlign};

use super::xml::{escape, opacity, rgb, Tag};
use super::Writer;

/// CSS font stacks for the standard families: the PostScript name first, then the
/// metric-compatible fonts found on most systems (Liberation is what the PNG exporter
/// embeds), then the generic family.
pub fn font_stack(family: FontFamily) -> &'static str {
    match family {
        FontFamily::Helvetica => "Helvetica, Arial, 'Liberation Sans', sans-serif",
        FontFamily::Times => "'Times New Roman', Times, 'Liberation Serif', serif",
        FontFamily::Courier => "'Courier New', Courier, 'Liberation Mono', monospace",
        FontFamily::Symbol => "Symbol, 'Liberation Serif', serif",
        FontFamily::ZapfDingbats => "'Zapf Dingbats', 'Liberation Sans', sans-serif",
    }
}

/// Lines of `text` laid out at `width`, or none when it has nothing to draw.
fn lines(text: &Text, width: f64) -> Vec<Line> {
    if text.runs.iter().all(|r| r.text.is_empty()) {
        return Vec::new();
    }
    layout_text(text, width)
}

/// Draws `text` inside `area`: wrapped at its width, aligned vertically by `valign`. Text
/// taller than the area overflows it rather than being cut, as in the PDF.
pub fn draw_text(w: &mut Writer, text: &Text, area: Rect) {
    let area = quire_sdk::drawing::padded(text, area);
    let lines = lines(text, area.w);
    draw_lines(w, text, &lines, area);
}

/// Draws a label of natural size centred on `centre`, over a patch of `background` so the
/// line it labels does not run through the words.
pub fn draw_label(w: &mut Writer, text: &Text, centre: Point, background: Option<Color>) {
    let natural = lines(text, f64::INFINITY);
    let width = natural.iter().map(|l| l.width).fold(0.0, f64::max);
    let height: f64 = natural.iter().map(|l| l.height).sum();
    if width <= 0.0 || height <= 0.0 {
        return;
    }
    // Laid out again at its own width so alignment offsets are relative to the label.
    let width = width + 0.01;
    let lines = lines(text, width);
    let area = Rect::new(
        centre.x - width / 2.0,
        centre.y - height / 2.0,
        width,
        height,
    );
    if let Some(bg) = background {
        const PAD: f64 = 2.0;
        let patch = Rect::new(
            area.x - PAD,
            area.y - PAD,
            area.w + 2.0 * PAD,
            area.h + 2.0 * PAD,
        );
        Tag::new("rect")
            .num("x", patch.x)
            .num("y", patch.y)
            .num("width", patch.w)
            .num("height", patch.h)
            .attr("fill", rgb(bg))
            .attr_opt("fill-opacity", opacity(bg))
            .empty(&mut w.out);
    }
    draw_lines(w, text, &lines, area);
}

fn draw_lines(w: &mut Writer, text: &Text, lines: &[Line], area: Rect) {
    if lines.is_empty() {
        return;
    }
    let total: f64 = lines.iter().map(|l| l.height).sum();
    let offset = match text.valign {
        VAlign::Top => 0.0,
        VAlign::Middle => (area.h - total) / 2.0,
        VAlign::Bottom => area.h - total,
    };
    for line in lines {
        let baseline = area.y + offset + line.baseline;
        for frag in &line.fragments {
            let Some(run) = text.runs.get(frag.run) else {
                continue;
            };
            if frag.text.is_empty() || !(run.size.is_finite() && run.size > 0.0) {
                continue;
            }
            draw_fragment(w, run, &frag.text, frag.rtl, area.x + frag.x, baseline);
        }
    }
}

fn draw_fragment(w: &mut Writer, run: &Run, text: &str, rtl: bool, x: f64, baseline: f64) {
    let href = run.link.as_deref().and_then(safe_href);
    if let Some(href) = &href {
        Tag::new("a")
            .attr("href", href)
            .attr("xlink:href", href)
            .open(&mut w.out);
    }
    let face = FontFace::of_run(run);
    // A right-to-left fragment is drawn from its right end (reversed, brackets mirrored) by
    // `pieces`, even when the standard face has all of it.
    if !rtl && glyph_runs::is_standard(text, face) {
        text_element(w, run, text, x, baseline, Layer::Visible);
    } else {
        draw_pieces(w, run, face, text, rtl, x, baseline);
    }
    if href.is_some() {
        w.out.push_str("</a>");
    }
}

/// How a `<text>` element is shown.
#[derive(Clone, Copy, PartialEq)]
enum Layer {
    /// Drawn with the viewer's fonts (the standard families, which every system has).
    Visible,
    /// Invisible over glyphs drawn as outlines, `width` points wide: what a reader selects,
    /// searches and copies.
    Hidden { width: f64 },
}

fn text_element(w: &mut Writer, run: &Run, text: &str, x: f64, baseline: f64, layer: Layer) {
    let colour = run.color.unwrap_or(Color::BLACK);
    let mut tag = Tag::new("text")
        .num("x", x)
        .num("y", baseline)
        .attr("font-family", font_stack(run.font))
        .num("font-size", run.size)
        .attr_opt("font-weight", run.bold.then_some("bold"))
        .attr_opt("font-style", run.italic.then_some("italic"));
    match layer {
        Layer::Visible => {
            let decoration = match (run.underline, run.strike) {
                (true, true) => Some("underline line-through"),
                (true, false) => Some("underline"),
                (false, true) => Some("line-through"),
                (false, false) => None,
            };
            tag = tag
                .attr("fill", rgb(colour))
                .attr_opt("fill-opacity", opacity(colour))
                .attr_opt("text-decoration", decoration);
        }
        Layer::Hidden { width } => {
            tag = tag
                .attr("fill-opacity", "0")
                .num("textLength", width)
                .attr("lengthAdjust", "spacingAndGlyphs");
        }
    }
    tag.open(&mut w.out);
    w.out.push_str(&escape(text));
    w.out.push_str("</text>");
}

/// A fragment with characters the standard faces lack: those are drawn as the library's
/// glyph outlines (so the picture needs no font), under an invisible text layer that keeps
/// them searchable; the rest stays text.
fn draw_pieces(
    w: &mut Writer,
    run: &Run,
    face: FontFace,
    text: &str,
    rtl: bool,
    x: f64,
    baseline: f64,
) {
    let em = run.size / 1000.0;
    let mut pen = x;
    for piece in glyph_runs::pieces(text, rtl, face) {
        let width = piece.width() * em;
        match &piece {
            Piece::Standard { text, .. } => {
                text_element(w, run, text, pen, baseline, Layer::Visible);
            }
            Piece::Library {
                face, glyphs, text, ..
            } => {
                draw_glyphs(w, run, *face, glyphs, pen, baseline);
                if w.text_layer {
                    text_element(w, run, text, pen, baseline, Layer::Hidden { width });
                }
            }
            Piece::Missing {
                ch,
                notdef: Some(notdef),
                ..
            } => {
                w.boxed.insert(*ch);
                let boxed = PlacedGlyph {
                    gid: 0,
                    x: 0.0,
                    y: 0.0,
                    advance: notdef.width,
                    text: ch.to_string(),
                };
                draw_glyphs(w, run, notdef.face, &[boxed], pen, baseline);
                if w.text_layer {
                    let s = ch.to_string();
                    text_element(w, run, &s, pen, baseline, Layer::Hidden { width });
                }
            }
            Piece::Missing {
                ch, notdef: None, ..
            } => {
                // No font library (a converter run natively without one): SVG is Unicode,
                // so the character stays itself for the viewer's fonts to draw.
                let s = ch.to_string();
                text_element(w, run, &s, pen, baseline, Layer::Visible);
            }
        }
        pen += width;
    }
    decorate(w, run, x, pen - x, baseline);
}

/// Glyphs of library face `face` as `<use>` of their outlines, each defined once per page
/// in font units and placed by one transform per piece (y flipped: outlines are y up).
fn draw_glyphs(
    w: &mut Writer,
    run: &Run,
    face: u32,
    glyphs: &[PlacedGlyph],
    x: f64,
    baseline: f64,
) {
    let Some(upem) = fonts::info(face).map(|i| f64::from(i.units_per_em.max(1))) else {
        return;
    };
    let gids: Vec<u16> = glyphs.iter().map(|g| g.gid).collect();
    let new: Vec<u16> = gids
        .iter()
        .copied()
        .filter(|&g| !w.glyphs.contains(&(face, g)))
        .collect();
    if !new.is_empty() {
        let paths = fonts::outlines(face, &new);
        w.out.push_str("<defs>");
        for (gid, d) in new.iter().zip(&paths) {
            if w.glyphs.insert((face, *gid)) {
                Tag::new("path")
                    .attr("id", glyph_id(face, *gid))
                    .attr("d", d.as_ref())
                    .empty(&mut w.out);
            }
        }
        w.out.push_str("</defs>");
    }
    let colour = run.color.unwrap_or(Color::BLACK);
    let scale = run.size / upem;
    Tag::new("g")
        .attr(
            "transform",
            format!(
                "translate({} {}) scale({} {})",
                super::xml::num(x),
                super::xml::num(baseline),
                scale_num(scale),
                scale_num(-scale)
            ),
        )
        .attr("fill", rgb(colour))
        .attr_opt("fill-opacity", opacity(colour))
        .open(&mut w.out);
    // Placed in font units: 1/1000 em times units per em over 1000.
    let unit = upem / 1000.0;
    for g in glyphs {
        let href = format!("#{}", glyph_id(face, g.gid));
        Tag::new("use")
            .attr("xlink:href", &href)
            .num("x", g.x * unit)
            .num("y", g.y * unit)
            .empty(&mut w.out);
    }
    w.out.push_str("</g>");
}

/// The id of a glyph's outline in the page's `<defs>`.
fn glyph_id(face: u32, gid: u16) -> String {
    format!("q{face}g{gid}")
}

/// A glyph scale (points per font unit, about 0.01) with the digits it needs.
fn scale_num(v: f64) -> String {
    let s = format!("{v:.7}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" || s.is_empty() {
        "0".into()
    } else {
        s.to_string()
    }
}

/// Underline and strike-through of text drawn as outlines, as the PDF exporter draws them.
fn decorate(w: &mut Writer, run: &Run, x: f64, width: f64, baseline: f64) {
    use glyph_runs::{LINE_THICKNESS, STRIKE_OFFSET, UNDERLINE_OFFSET};
    let colour = run.color.unwrap_or(Color::BLACK);
    let thick = run.size * LINE_THICKNESS;
    for (on, rise) in [
        (run.underline, UNDERLINE_OFFSET),
        (run.strike, STRIKE_OFFSET),
    ] {
        if on {
            Tag::new("rect")
                .num("x", x)
                .num("y", baseline - rise * run.size - thick / 2.0)
                .num("width", width)
                .num("height", thick)
                .attr("fill", rgb(colour))
                .attr_opt("fill-opacity", opacity(colour))
                .empty(&mut w.out);
        }
    }
}

/// URL schemes a link may not use: they run code or reach the reader's own machine.
const REFUSED_SCHEMES: [&str; 4] = ["javascript:", "vbscript:", "data:", "file:"];

/// The link target to write, or `None` when the link is dropped (the text is still drawn,
/// just not clickable): refused schemes, and `#...` targets, which name pages of the whole
/// document and lead nowhere in a one-page SVG.
pub fn safe_href(target: &str) -> Option<String> {
    let target = target.trim();
    // Browsers ignore tabs and line breaks inside a URL (`java\tscript:` is `javascript:`),
    // so the scheme is judged without them.
    let compact: String = target
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase();
    if compact.is_empty()
        || compact.starts_with('#')
        || REFUSED_SCHEMES.iter().any(|s| compact.starts_with(s))
    {
        return None;
    }
    Some(target.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dangerous_and_internal_links_are_dropped() {
        assert_eq!(
            safe_href(" https://example.com/a?b=1&c=2 ").as_deref(),
            Some("https://example.com/a?b=1&c=2")
        );
        assert_eq!(safe_href("mailto:a@b.c").as_deref(), Some("mailto:a@b.c"));
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "java\tscript:alert(1)",
            " data:text/html,<script>",
            "vbscript:x",
            "file:///etc/passwd",
            "#page=2",
            "   ",
        ] {
            assert_eq!(safe_href(bad), None, "{bad:?}");
        }
    }
}
