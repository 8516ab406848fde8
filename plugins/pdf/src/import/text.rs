//! Words, lines and blocks rebuilt from placed glyphs, as text boxes.
//!
//! A PDF shows glyphs at positions; it has no spaces, words or lines as such. Glyphs are
//! taken in the order the page shows them and joined into *segments*: glyphs on one baseline
//! that follow each other without a gap wider than [`COLUMN_GAP`] ems (a wider gap is a table
//! column or a second text column, and starts a new segment). Inside a segment a gap wider
//! than [`SPACE_GAP`] ems is a space. Each segment becomes one line of text; consecutive
//! segments that share a left edge, a font size and an even line spacing become one box of
//! several lines (a paragraph), joined by hard line breaks.
//!
//! Every box is checked against the SDK's own layout, the one every exporter uses: it is as
//! wide as its widest line measured in the standard fonts plus a little slack, so no line is
//! wrapped again, and it is placed so each laid-out baseline falls on the original one.

use quire_sdk::layout::{layout_text, natural_width};
use quire_sdk::metrics::FontFace;
use quire_sdk::{Align, Color, FontFamily, Rect, Run, Text, TextBox, VAlign};

use super::device::PlacedGlyph;

/// A gap wider than this many ems between two glyphs is a space.
pub const SPACE_GAP: f64 = 0.12;
/// A gap wider than this many ems ends a segment (table cells, text columns).
pub const COLUMN_GAP: f64 = 1.5;
/// Baselines closer than this many ems are one line.
const BASELINE_TOLERANCE: f64 = 0.25;
/// Segments still open for glyphs that continue them (some writers show a line in pieces).
const OPEN_SEGMENTS: usize = 6;
/// Lines one box may hold; checking a block costs a layout per added line.
const MAX_BLOCK_LINES: usize = 60;
/// How much wider than its column a justified paragraph may be set, when the standard
/// fonts need more room than the page's shrunk word spaces took.
const MAX_JUSTIFIED_STRETCH: f64 = 1.04;
/// Baselines of a laid-out box may sit this far (points) from the original ones.
const PLACEMENT_TOLERANCE: f64 = 0.6;

/// Glyphs on one baseline, left to right.
#[derive(Debug)]
struct Segment {
    glyphs: Vec<PlacedGlyph>,
    baseline: f64,
    x: f64,
    end: f64,
    size: f64,
}

impl Segment {
    fn new(g: PlacedGlyph) -> Self {
        Segment {
            baseline: g.baseline,
            x: g.x,
            end: g.end,
            size: g.size,
            glyphs: vec![g],
        }
    }

    /// Whether `g` repeats a glyph already drawn at (nearly) the same place: writers fake
    /// bold by showing a word twice, a hair apart.
    fn repeats(&self, g: &PlacedGlyph) -> bool {
        let near = 0.2 * g.size;
        self.glyphs
            .iter()
            .rev()
            .take(64)
            .any(|o| o.text == g.text && (o.x - g.x).abs() < near)
    }
}

/// The text boxes of a page, in the order the page showed their text (reading order for
/// almost every writer). Ids are `{prefix}{n}`.
pub fn text_boxes(glyphs: Vec<PlacedGlyph>, prefix: &str) -> Vec<TextBox> {
    let segments = segments(glyphs);
    let lines: Vec<Line> = segments.iter().filter_map(Line::of).collect();
    let mut boxes = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (tb, used) = block(&lines[i..], &format!("{prefix}{}", boxes.len() + 1));
        boxes.push(tb);
        i += used.max(1);
    }
    boxes
}

fn segments(glyphs: Vec<PlacedGlyph>) -> Vec<Segment> {
    let mut segments: Vec<Segment> = Vec::new();
    'glyphs: for g in glyphs {
        let open = segments.len().saturating_sub(OPEN_SEGMENTS);
        for seg in segments[open..].iter_mut().rev() {
            let em = seg.size.max(g.size);
            if (g.baseline - seg.baseline).abs() > BASELINE_TOLERANCE * seg.size.min(g.size) {
                continue;
            }
            let gap = g.x - seg.end;
            if gap >= -0.3 * em && gap <= COLUMN_GAP * em {
                seg.end = seg.end.max(g.end);
                seg.size = seg.size.max(g.size);
                seg.glyphs.push(g);
                continue 'glyphs;
            }
            if seg.repeats(&g) {
                continue 'glyphs;
            }
        }
        segments.push(Segment::new(g));
    }
    segments
}

/// One segment as styled text, with where its baseline must land.
#[derive(Debug, Clone)]
struct Line {
    runs: Vec<Run>,
    x: f64,
    /// Where the line's last glyph ends on the page.
    end: f64,
    baseline: f64,
    size: f64,
}

impl Line {
    fn of(seg: &Segment) -> Option<Line> {
        let mut runs: Vec<Run> = Vec::new();
        let mut prev_end: Option<f64> = None;
        for g in &seg.glyphs {
            let gap = prev_end.map_or(0.0, |end| g.x - end);
            prev_end = Some(g.end);
            let face = face_for_text(g.face, &g.text);
            let color = (g.color != Color::BLACK).then_some(g.color);
            let space = gap > SPACE_GAP * g.size;
            match runs.last_mut() {
                Some(r) if same_style(r, face, g.size, color) => {
                    if space {
                        r.text.push(' ');
                    }
                    r.text.push_str(&g.text);
                }
                last => {
                    if space {
                        if let Some(r) = last {
                            r.text.push(' ');
                        }
                    }
                    runs.push(Run {
                        text: g.text.clone(),
                        font: face.family,
                        size: round_size(g.size),
                        bold: face.bold,
                        italic: face.italic,
                        underline: false,
                        strike: false,
                        color,
                        link: None,
                        lang: None,
                    });
                }
            }
        }
        let runs = logical_order(runs);
        (!runs.is_empty()).then(|| Line {
            runs,
            x: seg.x,
            // A space glyph a writer put after the last word is not where the ink ends.
            end: seg
                .glyphs
                .iter()
                .rev()
                .find(|g| !g.text.trim().is_empty())
                .map_or(seg.end, |g| g.end),
            baseline: seg.baseline,
            size: seg
                .glyphs
                .iter()
                .map(|g| round_size(g.size))
                .fold(0.0, f64::max),
        })
    }
}

/// A line's runs in logical order. A PDF shows glyphs where they are drawn, so right-to-left
/// text (Arabic, Hebrew) arrives in visual order, left to right; stored that way it would be
/// read, searched and laid out again backwards. A line that is mostly right-to-left is
/// turned around, with its left-to-right stretches (Latin words, numbers, and the spaces and
/// punctuation between them) turned back and the brackets of the rest mirrored (UAX #9 L4
/// undone); a mostly left-to-right line only turns its right-to-left stretches around. Lines
/// without a right-to-left character are returned as they are.
fn logical_order(runs: Vec<Run>) -> Vec<Run> {
    use quire_sdk::fonts::is_rtl;
    if !runs.iter().any(|r| r.text.chars().any(is_rtl)) {
        return runs;
    }
    let mut chars: Vec<(char, usize)> = runs
        .iter()
        .enumerate()
        .flat_map(|(i, r)| r.text.chars().map(move |c| (c, i)))
        .collect();
    let ltr = |c: char| c.is_alphanumeric() && !is_rtl(c);
    let rtl_letters = chars.iter().filter(|(c, _)| is_rtl(*c)).count();
    let ltr_letters = chars.iter().filter(|(c, _)| ltr(*c)).count();
    if rtl_letters >= ltr_letters {
        chars.reverse();
        let mut kept = vec![false; chars.len()];
        for (start, end) in ltr_stretches(&chars) {
            chars[start..end].reverse();
            kept[start..end].iter_mut().for_each(|k| *k = true);
        }
        for ((c, _), kept) in chars.iter_mut().zip(kept) {
            if !kept {
                *c = quire_sdk::glyph_runs::mirrored(*c);
            }
        }
    } else {
        for (start, end) in stretches(&chars, is_rtl, ltr) {
            chars[start..end].reverse();
            for (c, _) in &mut chars[start..end] {
                *c = quire_sdk::glyph_runs::mirrored(*c);
            }
        }
    }
    let mut out: Vec<Run> = Vec::new();
    let mut last = usize::MAX;
    for (c, i) in chars {
        if i == last {
            if let Some(r) = out.last_mut() {
                r.text.push(c);
                continue;
            }
        }
        last = i;
        out.push(Run {
            text: c.to_string(),
            ..runs[i].clone()
        });
    }
    out
}

/// The left-to-right stretches of a right-to-left line (already turned around): a word of
/// letters takes the letters and numbers that follow it across spaces and punctuation
/// (`Version 2.1`: a number after a Latin word is left to right with it), a number alone
/// takes only digits and the separators between them (`1,234.5`), since what lies between a
/// number and the next word belongs to the right-to-left text (UAX #9 W7, N1).
fn ltr_stretches(chars: &[(char, usize)]) -> Vec<(usize, usize)> {
    use quire_sdk::fonts::is_rtl;
    let letter = |c: char| c.is_alphabetic() && !is_rtl(c);
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].0;
        if letter(c) {
            let ends = stretches(&chars[i..], |c| c.is_alphanumeric() && !is_rtl(c), is_rtl);
            let (_, end) = ends.first().copied().unwrap_or((0, 1));
            found.push((i, i + end));
            i += end;
        } else if c.is_numeric() {
            let mut end = i + 1;
            while end < chars.len() {
                let d = chars[end].0;
                let separated = matches!(d, '.' | ',' | ':' | '/')
                    && chars.get(end + 1).is_some_and(|n| n.0.is_numeric());
                if d.is_numeric() || separated {
                    end += 1;
                } else {
                    break;
                }
            }
            found.push((i, end));
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// Maximal stretches (start, end) of `chars` that begin and end with a character `inside`
/// accepts and hold none that `outside` accepts.
fn stretches(
    chars: &[(char, usize)],
    inside: impl Fn(char) -> bool,
    outside: impl Fn(char) -> bool,
) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !inside(chars[i].0) {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i + 1;
        let mut j = i + 1;
        while j < chars.len() && !outside(chars[j].0) {
            if inside(chars[j].0) {
                end = j + 1;
            }
            j += 1;
        }
        found.push((start, end));
        i = end;
    }
    found
}

fn round_size(size: f64) -> f64 {
    (size * 100.0).round() / 100.0
}

fn same_style(r: &Run, face: FontFace, size: f64, color: Option<Color>) -> bool {
    r.font == face.family
        && r.bold == face.bold
        && r.italic == face.italic
        && (r.size - round_size(size)).abs() < 0.05
        && r.color == color
}

/// The face a piece of text is drawn in: its font's, unless that face cannot draw it and
/// Symbol or ZapfDingbats can (Greek, maths, dingbats from any font).
fn face_for_text(face: FontFace, text: &str) -> FontFace {
    let fits = |f: FontFace| text.chars().all(|c| f.encode(c).is_some());
    if fits(face) {
        return face;
    }
    for family in [FontFamily::Symbol, FontFamily::ZapfDingbats] {
        let alt = FontFace::new(family, false, false);
        if fits(alt) {
            return alt;
        }
    }
    face
}

/// The box for `lines[0]` and as many following lines as form one paragraph with it, and
/// how many lines it took.
fn block(lines: &[Line], id: &str) -> (TextBox, usize) {
    let first = &lines[0];
    let mut best = single(first, id);
    let mut used = 1;
    let mut spacing = None;
    while used < lines.len().min(MAX_BLOCK_LINES) {
        let (prev, next) = (&lines[used - 1], &lines[used]);
        let step = next.baseline - prev.baseline;
        let aligned = (next.x - first.x).abs() <= (0.1 * first.size).max(1.0)
            && (next.size - first.size).abs() < 0.05
            && step >= 0.9 * first.size
            && step <= 2.5 * first.size
            && spacing.is_none_or(|s: f64| (step - s).abs() <= 0.5);
        if !aligned {
            break;
        }
        let s = spacing.unwrap_or(step);
        match joined(&lines[..=used], s, id) {
            Some(tb) => {
                best = tb;
                spacing = Some(s);
                used += 1;
            }
            None => break,
        }
    }
    if let Some(tb) = spacing.and_then(|s| justified(&lines[..used], s, id)) {
        best = tb;
    }
    (best, used)
}

fn frame_width(text: &Text) -> f64 {
    let w = natural_width(text);
    // Slack against rounding, so the exporters' layout never breaks the line again.
    w + 0.5 + w * 0.01
}

fn single(line: &Line, id: &str) -> TextBox {
    let text = Text {
        runs: line.runs.clone(),
        align: Align::Left,
        valign: VAlign::Top,
        line_height: 1.2,
        direction: None,
        padding: None,
    };
    let width = frame_width(&text);
    let laid = layout_text(&text, width);
    let (top, height) = match laid.first() {
        Some(l) => (
            line.baseline - l.baseline,
            laid.iter().map(|l| l.height).sum(),
        ),
        None => (line.baseline - line.size, line.size * 1.2),
    };
    TextBox {
        id: id.to_string(),
        frame: Rect::new(line.x, top, width, height),
        text,
        fill: None,
        stroke: None,
    }
}

/// `lines` as one box with hard breaks, if the layout puts every baseline where it was.
fn joined(lines: &[Line], spacing: f64, id: &str) -> Option<TextBox> {
    let size = lines[0].size;
    let line_height = spacing / size;
    if !(line_height > 0.0 && line_height <= 10.0) {
        return None;
    }
    let text = Text {
        runs: merged_runs(lines, |_| Some('\n')),
        align: Align::Left,
        valign: VAlign::Top,
        line_height,
        direction: None,
        padding: None,
    };
    let width = lines
        .iter()
        .map(|l| {
            frame_width(&Text {
                runs: l.runs.clone(),
                ..Text::default_layout()
            })
        })
        .fold(0.0, f64::max);
    let laid = layout_text(&text, width);
    if laid.len() != lines.len() {
        return None;
    }
    let top = lines[0].baseline - laid[0].baseline;
    // A laid-out line's baseline is measured from the top of the box.
    if laid
        .iter()
        .zip(lines)
        .any(|(l, line)| (top + l.baseline - line.baseline).abs() > PLACEMENT_TOLERANCE)
    {
        return None;
    }
    let height = laid.iter().map(|l| l.height).sum();
    Some(TextBox {
        id: id.to_string(),
        frame: Rect::new(lines[0].x, top, width, height),
        text,
        fill: None,
        stroke: None,
    })
}

/// Whether `laid` holds the words of `lines`, line for line.
fn same_breaks(laid: &[quire_sdk::layout::Line], lines: &[Line]) -> bool {
    laid.len() == lines.len()
        && laid.iter().zip(lines).all(|(l, line)| {
            let shown: String = l.fragments.iter().map(|f| f.text.as_str()).collect();
            let source: String = line.runs.iter().map(|r| r.text.as_str()).collect();
            shown.trim() == source.trim()
        })
}

/// `lines` as one justified paragraph, when the page set them so: three lines or more,
/// every line but the last ending at one right edge, and the SDK's layout, given the
/// column's width, breaking the paragraph where the page did with each baseline in its
/// place. The lines then flow as one paragraph (an edit re-flows it as the source's
/// writer would have) and every exporter spreads them to the edge again.
fn justified(lines: &[Line], spacing: f64, id: &str) -> Option<TextBox> {
    let (last, body) = lines.split_last()?;
    if body.len() < 2 {
        // One line and a last one: any line "ends at the edge" of itself.
        return None;
    }
    // The SDK's layout spreads no right-to-left line: such a paragraph keeps its breaks.
    let rtl = |l: &Line| {
        l.runs
            .iter()
            .any(|r| r.text.chars().any(quire_sdk::fonts::is_rtl))
    };
    if lines.iter().any(rtl) {
        return None;
    }
    let size = lines[0].size;
    let edge = body.iter().map(|l| l.end).fold(f64::MIN, f64::max);
    let tolerance = 0.3 + 0.02 * size;
    if body.iter().any(|l| edge - l.end > tolerance) || last.end > edge + tolerance {
        return None;
    }
    let x = lines[0].x;
    // A line already ending in a space or a hyphen joins the next without a space.
    let text = Text {
        runs: merged_runs(lines, |line| {
            let ends = line.runs.last()?.text.chars().last()?;
            (!(ends.is_whitespace() || ends == '-' || ends == '\u{ad}')).then_some(' ')
        }),
        align: Align::Justify,
        valign: VAlign::Top,
        line_height: spacing / size,
        direction: None,
        padding: None,
    };
    // The column's width first. A writer that shrank word spaces to fit (TeX does) set
    // lines wider than the standard fonts' natural spacing allows: then the widest line
    // as the standard fonts set it, when that is at most a little wider than the column.
    let widest = body
        .iter()
        .map(|l| {
            natural_width(&Text {
                runs: l.runs.clone(),
                ..Text::default_layout()
            })
        })
        .fold(0.0, f64::max)
        + 0.5;
    let candidates = [edge - x, widest];
    let (width, laid) = candidates
        .into_iter()
        .filter(|&w| w >= edge - x && w <= (edge - x) * MAX_JUSTIFIED_STRETCH)
        .map(|w| (w, layout_text(&text, w)))
        .find(|(_, laid)| same_breaks(laid, lines))?;
    let top = lines[0].baseline - laid[0].baseline;
    let placed = laid
        .iter()
        .zip(lines)
        .all(|(l, line)| (top + l.baseline - line.baseline).abs() <= PLACEMENT_TOLERANCE);
    placed.then(|| TextBox {
        id: id.to_string(),
        frame: Rect::new(x, top, width, laid.iter().map(|l| l.height).sum()),
        text,
        fill: None,
        stroke: None,
    })
}

/// The runs of `lines` in order, neighbours of one style merged, with what `between`
/// gives for a line put after it.
fn merged_runs(lines: &[Line], between: impl Fn(&Line) -> Option<char>) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            if let (Some(r), Some(c)) = (runs.last_mut(), between(&lines[i - 1])) {
                r.text.push(c);
            }
        }
        for r in &line.runs {
            match runs.last_mut() {
                Some(last)
                    if last.font == r.font
                        && last.bold == r.bold
                        && last.italic == r.italic
                        && last.size == r.size
                        && last.color == r.color =>
                {
                    last.text.push_str(&r.text);
                }
                _ => runs.push(r.clone()),
            }
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(runs: &[Run]) -> String {
        runs.iter().map(|r| r.text.as_str()).collect()
    }

    #[test]
    fn right_to_left_lines_are_stored_in_logical_order() {
        // "(المادة 1) PDF" as a page shows it, left to right: the number and the Latin
        // word keep their order, the Arabic is turned around, brackets mirrored back.
        let visual = vec![Run::plain("PDF (1 ةداملا)", 12.0)];
        assert_eq!(texts(&logical_order(visual)), "(المادة 1) PDF");
        // Mostly Latin: only the Arabic stretch turns.
        let visual = vec![Run::plain("The word مالس means peace", 12.0)];
        assert_eq!(texts(&logical_order(visual)), "The word سلام means peace");
        // Runs keep their styles across the turn.
        let visual = vec![
            Run::plain("ملاع", 12.0),
            Run {
                bold: true,
                ..Run::plain(" ابحرم", 12.0)
            },
        ];
        let logical = logical_order(visual);
        assert_eq!(texts(&logical), "مرحبا عالم");
        assert!(logical[0].bold && !logical[1].bold, "{logical:?}");
        let latin = vec![Run::plain("plain (text)", 12.0)];
        assert_eq!(texts(&logical_order(latin)), "plain (text)");
    }

    fn word(text: &str, x: f64, baseline: f64, size: f64) -> Vec<PlacedGlyph> {
        let face = FontFace::new(FontFamily::Helvetica, false, false);
        let mut out = Vec::new();
        let mut x = x;
        for c in text.chars() {
            let w = face.char_width(c) * size / 1000.0;
            out.push(PlacedGlyph {
                text: c.to_string(),
                x,
                end: x + w,
                baseline,
                size,
                face,
                color: Color::BLACK,
            });
            x += w;
        }
        out
    }

    fn words(line: &[&str], x: f64, baseline: f64, size: f64) -> Vec<PlacedGlyph> {
        let face = FontFace::new(FontFamily::Helvetica, false, false);
        let space = face.char_width(' ') * size / 1000.0;
        let mut out = Vec::new();
        let mut x = x;
        for w in line {
            let g = word(w, x, baseline, size);
            x = g.last().map_or(x, |g| g.end) + space;
            out.extend(g);
        }
        out
    }

    #[test]
    fn gaps_become_spaces_and_lines_stay_where_they_were() {
        let mut glyphs = words(&["Hello", "world"], 72.0, 100.0, 12.0);
        glyphs.extend(words(&["second", "line"], 72.0, 114.4, 12.0));
        let boxes = text_boxes(glyphs, "t");
        assert_eq!(boxes.len(), 1, "{boxes:#?}");
        let tb = &boxes[0];
        assert_eq!(tb.text.plain_text(), "Hello world\nsecond line");
        let laid = layout_text(&tb.text, tb.frame.w);
        assert_eq!(laid.len(), 2);
        assert!((tb.frame.y + laid[0].baseline - 100.0).abs() < 1e-6);
        assert!((tb.frame.y + laid[1].baseline - 114.4).abs() < 0.6);
        assert_eq!(tb.frame.x, 72.0);
    }

    #[test]
    fn wide_gaps_split_columns_and_repeats_are_dropped() {
        let mut glyphs = words(&["Name"], 72.0, 100.0, 10.0);
        glyphs.extend(words(&["Value"], 300.0, 100.0, 10.0));
        // Fake bold: the same word again, 0.3 pt to the right.
        glyphs.extend(words(&["Value"], 300.3, 100.0, 10.0));
        let boxes = text_boxes(glyphs, "t");
        let texts: Vec<String> = boxes.iter().map(|b| b.text.plain_text()).collect();
        assert_eq!(texts, vec!["Name", "Value"]);
        assert!((boxes[1].frame.x - 300.0).abs() < 1e-9);
    }

    #[test]
    fn uneven_spacing_keeps_lines_apart() {
        let mut glyphs = words(&["Title"], 72.0, 100.0, 12.0);
        glyphs.extend(words(&["body"], 72.0, 114.0, 12.0));
        glyphs.extend(words(&["far", "below"], 72.0, 160.0, 12.0));
        let boxes = text_boxes(glyphs, "t");
        let texts: Vec<String> = boxes.iter().map(|b| b.text.plain_text()).collect();
        assert_eq!(texts, vec!["Title\nbody", "far below"]);
    }

    /// `line` set from `x` to `end`, its word gaps widened evenly, as a justifying writer does.
    fn spread(line: &[&str], x: f64, end: f64, baseline: f64, size: f64) -> Vec<PlacedGlyph> {
        let face = FontFace::new(FontFamily::Helvetica, false, false);
        let inked: f64 = line
            .iter()
            .flat_map(|w| w.chars())
            .map(|c| face.char_width(c) * size / 1000.0)
            .sum();
        let gap = (end - x - inked) / (line.len() - 1) as f64;
        let mut out = Vec::new();
        let mut x = x;
        for w in line {
            let g = word(w, x, baseline, size);
            x = g.last().map_or(x, |g| g.end) + gap;
            out.extend(g);
        }
        out
    }

    /// `text` set in Helvetica at `size`, with the metrics the layout uses.
    fn helvetica_width(text: &str, size: f64) -> f64 {
        let face = FontFace::new(FontFamily::Helvetica, false, false);
        text.chars().map(|c| face.char_width(c)).sum::<f64>() * size / 1000.0
    }

    const PARAGRAPH: [&[&str]; 3] = [
        &[
            "Justified",
            "text",
            "ends",
            "every",
            "line",
            "at",
            "the",
            "right",
        ],
        &[
            "edge", "of", "its", "column,", "except", "the", "last", "one,",
        ],
        &["which", "stays", "short."],
    ];

    #[test]
    fn a_justified_paragraph_flows_as_one_and_is_spread_again() {
        let (x, size) = (72.0, 11.0);
        let width = |t: &str| helvetica_width(t, size);
        // The column: a little wider than its longest line set with plain spaces.
        let edge = x + 2.0 + width(&PARAGRAPH[0].join(" ")).max(width(&PARAGRAPH[1].join(" ")));
        // The page's breaks are the only ones: no line takes the next one's first word.
        for pair in PARAGRAPH.windows(2) {
            let longer = format!("{} {}", pair[0].join(" "), pair[1][0]);
            assert!(width(&longer) > edge - x, "{longer}");
        }
        let mut glyphs = spread(PARAGRAPH[0], x, edge, 100.0, size);
        glyphs.extend(spread(PARAGRAPH[1], x, edge, 113.2, size));
        glyphs.extend(words(PARAGRAPH[2], x, 126.4, size));
        let boxes = text_boxes(glyphs, "t");
        assert_eq!(boxes.len(), 1, "{boxes:#?}");
        let tb = &boxes[0];
        assert_eq!(tb.text.align, Align::Justify);
        assert!(!tb.text.plain_text().contains('\n'), "{:?}", tb.text);
        assert!((tb.frame.w - (edge - x)).abs() < 1e-6);
        let laid = layout_text(&tb.text, tb.frame.w);
        assert_eq!(laid.len(), 3);
        for (l, baseline) in laid.iter().zip([100.0, 113.2, 126.4]) {
            assert!((tb.frame.y + l.baseline - baseline).abs() < 0.6);
        }
        // Spread to the edge but the last line, as the page showed them.
        assert!(
            (laid[0].width - (edge - x)).abs() < 0.01,
            "{}",
            laid[0].width
        );
        assert!(
            (laid[1].width - (edge - x)).abs() < 0.01,
            "{}",
            laid[1].width
        );
        assert!(laid[2].width < 0.5 * (edge - x));
    }

    #[test]
    fn a_paragraph_set_with_shrunk_spaces_is_justified_a_little_wider() {
        // TeX shrinks word spaces to fit a line: the standard fonts' own spacing needs a
        // little more room than the page's column.
        let (x, size) = (72.0, 11.0);
        let width = |t: &str| helvetica_width(t, size);
        let widest = width(&PARAGRAPH[0].join(" ")).max(width(&PARAGRAPH[1].join(" ")));
        let edge = x + widest - 2.0;
        let mut glyphs = spread(PARAGRAPH[0], x, edge, 100.0, size);
        glyphs.extend(spread(PARAGRAPH[1], x, edge, 113.2, size));
        glyphs.extend(words(PARAGRAPH[2], x, 126.4, size));
        let boxes = text_boxes(glyphs, "t");
        assert_eq!(boxes.len(), 1, "{boxes:#?}");
        assert_eq!(boxes[0].text.align, Align::Justify);
        assert!(boxes[0].frame.w > edge - x && boxes[0].frame.w < widest + 1.0);
        assert_eq!(layout_text(&boxes[0].text, boxes[0].frame.w).len(), 3);
    }

    #[test]
    fn a_paragraph_that_would_be_much_wider_keeps_its_breaks() {
        // Spaces shrunk by 9 pt a line: the standard fonts would need more than 4 % more
        // room than the column, so the paragraph stays lines where they were.
        let (x, size) = (72.0, 11.0);
        let widest = helvetica_width(&PARAGRAPH[0].join(" "), size)
            .max(helvetica_width(&PARAGRAPH[1].join(" "), size));
        let edge = x + widest - 9.0;
        assert!((widest + 0.5) / (edge - x) > 1.04);
        let mut glyphs = spread(PARAGRAPH[0], x, edge, 100.0, size);
        glyphs.extend(spread(PARAGRAPH[1], x, edge, 113.2, size));
        glyphs.extend(words(PARAGRAPH[2], x, 126.4, size));
        let boxes = text_boxes(glyphs, "t");
        assert_eq!(boxes.len(), 1, "{boxes:#?}");
        assert_eq!(boxes[0].text.align, Align::Left);
        assert_eq!(boxes[0].text.plain_text().matches('\n').count(), 2);
    }

    #[test]
    fn a_ragged_paragraph_keeps_its_breaks() {
        let mut glyphs = Vec::new();
        for (i, line) in PARAGRAPH.iter().enumerate() {
            glyphs.extend(words(line, 72.0, 100.0 + 13.2 * i as f64, 11.0));
        }
        let boxes = text_boxes(glyphs, "t");
        assert_eq!(boxes.len(), 1, "{boxes:#?}");
        assert_eq!(boxes[0].text.align, Align::Left);
        assert_eq!(boxes[0].text.plain_text().matches('\n').count(), 2);
    }

    #[test]
    fn greek_falls_back_to_symbol() {
        let face = FontFace::new(FontFamily::Times, false, false);
        assert_eq!(face_for_text(face, "abc"), face);
        assert_eq!(face_for_text(face, "α").family, FontFamily::Symbol);
    }
}
