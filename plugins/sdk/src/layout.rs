//! Text layout shared by importers and exporters, so PDF, SVG and PNG agree on every line
//! break.
//!
//! The rules, in one place because every output depends on them:
//! - Lines break greedily at the last break opportunity that fits. The opportunities are
//!   those of the Unicode line breaking algorithm (UAX #14, `unicode-linebreak`; see
//!   [`breaks`]), computed once per layout: after spaces, after a hyphen or dash inside a word
//!   (`well-|known`, not after the `-` of `-v`), between ideographs, but never before closing
//!   punctuation, `。`, `、`, `！`, small kana or `)`, nor after opening punctuation (`「`,
//!   `(`), so no Chinese or Japanese line starts with a full stop (kinsoku). Thai, Lao, Khmer
//!   and Myanmar break at the word boundaries the host's dictionaries find
//!   ([`fonts::word_breaks`]), or between clusters without a library. An opportunity counts
//!   only once its line holds more than spaces.
//! - `\n` is a hard break (`\r` is ignored, so CRLF text lays out like LF text); a tab
//!   counts as a space.
//! - Spaces at the end of a wrapped line hang: they are not drawn and take no width. Spaces at
//!   the start of a hard line are kept (indented code).
//! - A piece with no opportunity that is wider than the box (a long word) is broken between
//!   characters, never inside a shaped cluster (at least one character per line, so layout
//!   always progresses); there a line may start with a `)`.
//! - A line is as tall as the largest run size on it times `Text::line_height`; an empty line
//!   takes the size of the run holding its `\n`. The baseline sits in the middle of the
//!   leading, as in CSS: `top + (height - (ascent - descent)) / 2 + ascent`, with the largest
//!   ascent and deepest descent of the runs on the line.
//! - A width that is not a positive number means "do not wrap".
//! - Text in scripts that need shaping (Arabic, Hebrew marks, Indic, Thai ...; see
//!   [`fonts::needs_shaping`]) is measured as the font library shapes it, word by word: a
//!   cluster (a conjunct, a letter with its marks) takes the width of its glyphs and is
//!   never broken.
//! - A paragraph holding right-to-left characters, or set right to left
//!   ([`Text::direction`]), goes through the Unicode bidirectional algorithm (UAX #9,
//!   `unicode-bidi`): its direction is the text's, else that of its first strong
//!   character, left alignment becomes right alignment when that is RTL, and each line's
//!   fragments are placed in visual order (rule L2); an RTL fragment keeps its text in
//!   logical order and says `rtl`, and exporters draw it right to left. Such lines are not
//!   justified.

mod breaks;
mod complex;
#[cfg(test)]
mod direction_tests;

use crate::fonts;
use crate::metrics::FontFace;
use crate::model::{Align, Run, Text};

/// A piece of one run placed on a line.
#[derive(Debug, Clone, PartialEq)]
pub struct Fragment {
    /// Index into `Text::runs`.
    pub run: usize,
    pub text: String,
    /// Offset from the left edge of the box, alignment applied.
    pub x: f64,
    pub width: f64,
    /// Right to left: the text is in logical order and is drawn from its right end.
    pub rtl: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub fragments: Vec<Fragment>,
    /// Distance from the top of the box to this line's baseline (valign not applied).
    pub baseline: f64,
    /// Height the line takes (largest size on it times line_height).
    pub height: f64,
    pub width: f64,
}

/// A position in a [`Text`]: byte `byte` of run `run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct TextPos {
    pub run: usize,
    pub byte: usize,
}

/// Breaks `text` into lines no wider than `width` points (a word longer than the width is
/// broken by characters), honouring `\n` and alignment.
pub fn layout_text(text: &Text, width: f64) -> Vec<Line> {
    layout_text_with_starts(text, width).0
}

/// Height of `text` laid out at `width`.
pub fn text_height(text: &Text, width: f64) -> f64 {
    layout_text(text, width).iter().map(|l| l.height).sum()
}

/// [`layout_text`], plus where each line starts in the runs, so a caller can cut the text
/// between two lines with [`split_text`] (a paragraph that runs past the bottom of a page).
pub fn layout_text_with_starts(text: &Text, width: f64) -> (Vec<Line>, Vec<TextPos>) {
    let atoms = atomize(text);
    let limit = if width.is_finite() && width > 0.0 {
        width
    } else {
        f64::INFINITY
    };
    let allowed = breaks::opportunities(&atoms);
    let spans = break_lines(&atoms, &allowed, limit);
    let faces: Vec<FontFace> = text.runs.iter().map(FontFace::of_run).collect();
    let mut lines = Vec::with_capacity(spans.len());
    let mut starts = Vec::with_capacity(spans.len());
    let mut top = 0.0;
    for span in &spans {
        let line = build_line(text, &faces, &atoms, span, limit, top);
        top += line.height;
        starts.push(span.start_pos);
        lines.push(line);
    }
    (lines, starts)
}

/// Width of the widest hard line of `text` when nothing wraps.
pub fn natural_width(text: &Text) -> f64 {
    layout_text(text, f64::INFINITY)
        .iter()
        .map(|l| l.width)
        .fold(0.0, f64::max)
}

/// Width of the widest unbreakable piece of `text` (a word, a word fragment between
/// hyphens, an ideograph with the punctuation that holds to it): below this width, layout
/// has to break inside words.
pub fn min_content_width(text: &Text) -> f64 {
    let atoms = atomize(text);
    let allowed = breaks::opportunities(&atoms);
    let mut widest: f64 = 0.0;
    let mut current = 0.0;
    for (i, a) in atoms.iter().enumerate() {
        if a.is_space() || a.ch == '\n' || allowed[i] {
            current = 0.0;
        }
        if !a.is_space() && a.ch != '\n' {
            current += a.width;
            widest = widest.max(current);
        }
    }
    widest
}

/// Cuts `text` at `at` (a line start from [`layout_text_with_starts`]). The first part loses
/// the spaces that hung at the end of its last line and the `\n` that ended it, so it lays out
/// as exactly the lines before `at`; the second part lays out as the lines from `at` on.
/// Alignment and line height are kept on both.
pub fn split_text(text: &Text, at: TextPos) -> (Text, Text) {
    (
        slice_text(text, TextPos::default(), Some(at)),
        slice_text(text, at, None),
    )
}

/// The part of `text` from line start `from` up to line start `to` (the end when `None`),
/// trimmed like the head of [`split_text`]. Cutting a long text into many parts with this
/// costs the size of the parts, not the size of the text for each part: a paragraph that
/// runs over a hundred pages is cut in one pass.
pub fn slice_text(text: &Text, from: TextPos, to: Option<TextPos>) -> Text {
    let mut runs: Vec<Run> = Vec::new();
    let last = text.runs.len().saturating_sub(1);
    let end = to.unwrap_or(TextPos {
        run: last,
        byte: usize::MAX,
    });
    for i in from.run..=end.run.min(last) {
        let Some(r) = text.runs.get(i) else { break };
        let a = if i == from.run {
            floor_boundary(&r.text, from.byte)
        } else {
            0
        };
        let b = if i == end.run {
            floor_boundary(&r.text, end.byte)
        } else {
            r.text.len()
        };
        if a < b {
            // Field by field, so only the slice of a long run is copied.
            runs.push(Run {
                // `floor_boundary` puts both ends on character boundaries.
                text: r.text.get(a..b).unwrap_or_default().to_string(),
                font: r.font,
                size: r.size,
                bold: r.bold,
                italic: r.italic,
                underline: r.underline,
                strike: r.strike,
                color: r.color,
                link: r.link.clone(),
                lang: r.lang.clone(),
            });
        }
    }
    if to.is_some() {
        // Trim what hung at the end: spaces, then the one `\n` that ended the last line.
        let mut removed_newline = false;
        while let Some(last) = runs.last_mut() {
            let trimmed = last.text.trim_end_matches([' ', '\t', '\r']).len();
            last.text.truncate(trimmed);
            if !removed_newline && last.text.ends_with('\n') {
                last.text.pop();
                removed_newline = true;
                let trimmed = last.text.trim_end_matches('\r').len();
                last.text.truncate(trimmed);
            }
            if last.text.is_empty() {
                runs.pop();
            } else {
                break;
            }
        }
    }
    Text {
        runs,
        ..text.clone_layout()
    }
}

fn floor_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

impl Text {
    /// The text's alignment and line height without its runs.
    pub(crate) fn clone_layout(&self) -> Text {
        Text {
            runs: Vec::new(),
            align: self.align,
            valign: self.valign,
            line_height: self.line_height,
            direction: self.direction,
            padding: self.padding,
        }
    }
}

/// One character of the text with its source position and advance.
#[derive(Debug, Clone, Copy)]
struct Atom {
    run: usize,
    byte: usize,
    ch: char,
    /// Advance in points.
    width: f64,
    /// Continues the previous atom's shaped cluster: no line breaks before it.
    joined: bool,
    /// Bidi embedding level (0 unless the paragraph holds right-to-left text).
    level: u8,
    /// The atom's paragraph runs right to left.
    rtl_paragraph: bool,
}

impl Atom {
    fn is_space(&self) -> bool {
        self.ch == ' '
    }
}

fn atomize(text: &Text) -> Vec<Atom> {
    let len: usize = text.runs.iter().map(|r| r.text.len()).sum();
    let mut atoms = Vec::with_capacity(len);
    for (run, r) in text.runs.iter().enumerate() {
        let face = FontFace::of_run(r);
        let scale = sane_size(r.size) / 1000.0;
        fonts::prefetch(face, &r.text);
        for (byte, ch) in r.text.char_indices() {
            let ch = match ch {
                '\r' => continue,
                '\t' => ' ',
                c => c,
            };
            let width = if ch == '\n' {
                0.0
            } else {
                face.char_width(ch) * scale
            };
            atoms.push(Atom {
                run,
                byte,
                ch,
                width,
                joined: false,
                level: 0,
                rtl_paragraph: false,
            });
        }
    }
    complex::resolve_bidi(&mut atoms, text.direction);
    complex::shape_clusters(text, &mut atoms);
    atoms
}

/// A size the arithmetic can use; validation refuses bad sizes, but layout must never panic
/// or loop on a model that skipped it.
fn sane_size(size: f64) -> f64 {
    if size.is_finite() && size > 0.0 {
        size.min(crate::validate::MAX_FONT_SIZE)
    } else {
        0.0
    }
}

/// A line as a range of atoms before any trimming.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    /// End of the drawn atoms (hanging spaces excluded).
    end: usize,
    /// The run whose size an empty line takes.
    size_run: Option<usize>,
    start_pos: TextPos,
    /// Ended by `\n` or by the end of the text: never justified.
    last_of_paragraph: bool,
}

fn trim_end(atoms: &[Atom], start: usize, mut end: usize) -> usize {
    while end > start && atoms[end - 1].is_space() {
        end -= 1;
    }
    end
}

/// Greedy lines: each takes atoms up to the last opportunity (`allowed`, see [`breaks`])
/// before the first atom that does not fit, or up to that atom when its line has none.
fn break_lines(atoms: &[Atom], allowed: &[bool], limit: f64) -> Vec<Span> {
    // Comparisons allow for float noise so that text measured at exactly its own width fits.
    let fits = |w: f64| w <= limit + 1e-6;
    let mut spans = Vec::new();
    let mut start = 0;
    let mut width = 0.0;
    // The latest place the line may break, and whether the line has a word before it.
    let mut opportunity: Option<usize> = None;
    let mut seen_word = false;
    let mut i = 0;
    let pos_of = |i: usize| match atoms.get(i) {
        Some(a) => TextPos {
            run: a.run,
            byte: a.byte,
        },
        None => atoms.last().map_or(TextPos::default(), |a| TextPos {
            run: a.run,
            byte: a.byte + a.ch.len_utf8(),
        }),
    };
    while i < atoms.len() {
        let a = atoms[i];
        if a.ch == '\n' {
            spans.push(Span {
                start,
                end: trim_end(atoms, start, i),
                size_run: Some(a.run),
                start_pos: pos_of(start),
                last_of_paragraph: true,
            });
            i += 1;
            start = i;
            width = 0.0;
            opportunity = None;
            seen_word = false;
            if i == atoms.len() {
                // A final `\n` ends with an empty line, as in a text editor.
                spans.push(Span {
                    start: i,
                    end: i,
                    size_run: Some(a.run),
                    start_pos: pos_of(i),
                    last_of_paragraph: true,
                });
            }
            continue;
        }
        if a.is_space() {
            // Spaces hang past the edge; they never push a line break by themselves.
            width += a.width;
            i += 1;
            continue;
        }
        if i > start && seen_word && allowed[i] {
            opportunity = Some(i);
        }
        // A line never breaks inside a shaped cluster.
        if !fits(width + a.width) && i > start && !a.joined {
            let cut = match opportunity {
                Some(o) if o > start => o,
                // No break in this line: break the word between characters (`a` starts a
                // cluster).
                _ => i,
            };
            spans.push(Span {
                start,
                end: trim_end(atoms, start, cut),
                size_run: None,
                start_pos: pos_of(start),
                last_of_paragraph: false,
            });
            start = cut;
            // Spaces before the cut hung on the previous line; none follow a cut.
            width = atoms[start..i].iter().map(|a| a.width).sum();
            opportunity = None;
            seen_word = start < i;
            // Re-examine `a` against the new line.
            continue;
        }
        width += a.width;
        seen_word = true;
        i += 1;
    }
    if start < atoms.len() {
        spans.push(Span {
            start,
            end: trim_end(atoms, start, atoms.len()),
            size_run: atoms.last().map(|a| a.run),
            start_pos: pos_of(start),
            last_of_paragraph: true,
        });
    }
    spans
}

fn build_line(
    text: &Text,
    faces: &[FontFace],
    atoms: &[Atom],
    span: &Span,
    limit: f64,
    top: f64,
) -> Line {
    let drawn = &atoms[span.start..span.end];
    // Runs present on the line decide its height; an empty line takes its `\n`'s run.
    let mut size: f64 = 0.0;
    let mut ascent: f64 = 0.0;
    let mut descent: f64 = 0.0;
    let mut measure = |run: usize| {
        if let Some(r) = text.runs.get(run) {
            let s = sane_size(r.size);
            size = size.max(s);
            ascent = ascent.max(faces[run].ascent() * s / 1000.0);
            descent = descent.min(faces[run].descent() * s / 1000.0);
        }
    };
    let mut last_run = None;
    for a in drawn {
        if last_run != Some(a.run) {
            measure(a.run);
            last_run = Some(a.run);
        }
    }
    if drawn.is_empty() {
        if let Some(run) = span
            .size_run
            .or_else(|| atoms.get(span.start).map(|a| a.run))
        {
            measure(run);
        }
    }
    let line_height = if text.line_height.is_finite() && text.line_height > 0.0 {
        text.line_height
    } else {
        1.2
    };
    let height = size * line_height;
    let baseline = top + (height - (ascent - descent)) / 2.0 + ascent;

    let natural: f64 = drawn.iter().map(|a| a.width).sum();
    // Gaps between words (indentation at the start of the line is not a gap).
    let first_word = drawn
        .iter()
        .position(|a| !a.is_space())
        .unwrap_or(drawn.len());
    let gaps = (first_word + 1..drawn.len())
        .filter(|&k| drawn[k - 1].is_space() && !drawn[k].is_space())
        .count();
    let bidi = drawn.iter().any(|a| a.level > 0);
    let rtl_paragraph = drawn.first().is_some_and(|a| a.rtl_paragraph);
    let justify = text.align == Align::Justify
        && !bidi
        && !span.last_of_paragraph
        && gaps > 0
        && limit.is_finite()
        && natural < limit;
    let extra = if justify {
        (limit - natural) / gaps as f64
    } else {
        0.0
    };
    let line_width = if justify { limit } else { natural };
    // Left and justified text starts at the paragraph's start, which is the right edge for
    // a right-to-left paragraph.
    let align = match text.align {
        Align::Left | Align::Justify if rtl_paragraph => Align::Right,
        other => other,
    };
    let mut x = match align {
        Align::Left | Align::Justify => 0.0,
        _ if !limit.is_finite() => 0.0,
        Align::Center => ((limit - natural) / 2.0).max(0.0),
        Align::Right => (limit - natural).max(0.0),
    };
    let start_x = x;

    let mut fragments: Vec<Fragment> = Vec::new();
    let mut levels: Vec<u8> = Vec::new();
    for (k, a) in drawn.iter().enumerate() {
        // A word after a gap starts a new fragment when justifying, so it can move.
        let new_word = justify && k > first_word && drawn[k - 1].is_space() && !a.is_space();
        if new_word {
            x += extra;
        }
        match fragments.last_mut() {
            Some(f) if f.run == a.run && !new_word && levels.last() == Some(&a.level) => {
                f.text.push(a.ch);
                f.width += a.width;
            }
            _ => {
                fragments.push(Fragment {
                    run: a.run,
                    text: a.ch.to_string(),
                    x,
                    width: a.width,
                    rtl: a.level % 2 == 1,
                });
                levels.push(a.level);
            }
        }
        x += a.width;
    }
    if bidi {
        // Rule L2: fragments in visual order, placed left to right from the line's start.
        let order = complex::visual_order(&levels);
        let mut x = start_x;
        let mut visual = Vec::with_capacity(fragments.len());
        for i in order {
            let mut f = fragments[i].clone();
            f.x = x;
            x += f.width;
            visual.push(f);
        }
        fragments = visual;
    }
    Line {
        fragments,
        baseline,
        height,
        width: line_width,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FontFamily, Run};

    fn helv(s: &str, size: f64) -> Text {
        Text::plain(s, size)
    }

    fn line_texts(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.fragments.iter().map(|f| f.text.as_str()).collect())
            .collect()
    }

    #[test]
    fn one_line_when_it_fits() {
        let t = helv("Hello", 10.0);
        let lines = layout_text(&t, 100.0);
        assert_eq!(lines.len(), 1);
        assert!((lines[0].width - 22.78).abs() < 1e-9);
        assert!((lines[0].height - 12.0).abs() < 1e-9);
        // Half-leading: (12 - 9.25) / 2 + 7.18.
        assert!(
            (lines[0].baseline - 8.555).abs() < 1e-9,
            "{}",
            lines[0].baseline
        );
        assert_eq!(text_height(&t, 100.0), 12.0);
    }

    #[test]
    fn wraps_at_spaces_and_hangs_them() {
        let t = helv("aaa bbb ccc", 10.0);
        let w = FontFace::of_run(&t.runs[0]).text_width("aaa bbb", 10.0);
        let lines = layout_text(&t, w + 0.01);
        assert_eq!(line_texts(&lines), ["aaa bbb", "ccc"]);
        assert!((lines[0].width - w).abs() < 1e-9);
        // Exactly the width still fits.
        assert_eq!(layout_text(&t, w).len(), 2);
        assert!((lines[1].baseline - lines[0].baseline - 12.0).abs() < 1e-9);
    }

    #[test]
    fn hard_breaks_and_empty_lines() {
        let t = helv("a\n\nb\n", 10.0);
        let lines = layout_text(&t, 500.0);
        assert_eq!(line_texts(&lines), ["a", "", "b", ""]);
        assert!(lines.iter().all(|l| (l.height - 12.0).abs() < 1e-9));
        let crlf = helv("a\r\n\r\nb\r\n", 10.0);
        assert_eq!(layout_text(&crlf, 500.0), lines);
    }

    #[test]
    fn empty_line_takes_the_size_of_its_run() {
        let mut big = Run::plain("Big\n", 20.0);
        big.bold = true;
        let t = Text {
            runs: vec![big, Run::plain("\nsmall", 10.0)],
            ..Text::default_layout()
        };
        let lines = layout_text(&t, 500.0);
        assert_eq!(line_texts(&lines), ["Big", "", "small"]);
        assert_eq!(lines[0].height, 24.0);
        assert_eq!(lines[1].height, 12.0);
        assert_eq!(lines[2].height, 12.0);
    }

    #[test]
    fn breaks_after_hyphens_and_inside_long_words() {
        let t = helv("well-known", 10.0);
        let face = FontFace::of_run(&t.runs[0]);
        let lines = layout_text(&t, face.text_width("well-kn", 10.0));
        assert_eq!(line_texts(&lines), ["well-", "known"]);

        let mut t = helv("abcdefghij", 10.0);
        t.runs[0].font = FontFamily::Courier; // 6 points a character
        let lines = layout_text(&t, 24.1);
        assert_eq!(line_texts(&lines), ["abcd", "efgh", "ij"]);
        // Narrower than one character: one character per line, never an endless loop.
        assert_eq!(layout_text(&t, 0.5).len(), 10);
        // A dash at the start of a line is not a break.
        assert_eq!(line_texts(&layout_text(&helv("-x", 10.0), 1.0)), ["-", "x"]);
    }

    #[test]
    fn runs_keep_their_styles_and_the_tallest_sets_the_line() {
        let mut bold = Run::plain("bold ", 14.0);
        bold.bold = true;
        bold.font = FontFamily::Times;
        let t = Text {
            runs: vec![Run::plain("plain ", 10.0), bold],
            ..Text::default_layout()
        };
        let lines = layout_text(&t, 500.0);
        assert_eq!(lines.len(), 1);
        let f = &lines[0].fragments;
        assert_eq!((f[0].run, f[0].text.as_str()), (0, "plain "));
        assert_eq!((f[1].run, f[1].text.as_str()), (1, "bold"));
        assert!((f[1].x - f[0].width).abs() < 1e-9);
        assert!((lines[0].height - 14.0 * 1.2).abs() < 1e-9);
    }

    #[test]
    fn alignment_moves_fragments() {
        let mut t = helv("ab", 10.0);
        let w = FontFace::of_run(&t.runs[0]).text_width("ab", 10.0);
        t.align = Align::Right;
        assert!((layout_text(&t, 100.0)[0].fragments[0].x - (100.0 - w)).abs() < 1e-9);
        t.align = Align::Center;
        assert!((layout_text(&t, 100.0)[0].fragments[0].x - (100.0 - w) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn justify_spreads_words_except_on_the_last_line() {
        let mut t = helv("aa bb cc dd", 10.0);
        t.align = Align::Justify;
        let face = FontFace::of_run(&t.runs[0]);
        let width = face.text_width("aa bb cc", 10.0) + 5.0;
        let lines = layout_text(&t, width);
        assert_eq!(line_texts(&lines), ["aa bb cc", "dd"]);
        let first = &lines[0].fragments;
        assert_eq!(first.len(), 3);
        let last = first.last().unwrap();
        assert!((last.x + last.width - width).abs() < 1e-9);
        assert_eq!(lines[0].width, width);
        assert_eq!(lines[1].fragments[0].x, 0.0);
    }

    #[test]
    fn leading_spaces_of_a_hard_line_are_kept() {
        let t = Text {
            runs: vec![Run::plain("fn x\n    y", 10.0)],
            ..Text::default_layout()
        };
        assert_eq!(line_texts(&layout_text(&t, 500.0)), ["fn x", "    y"]);
    }

    #[test]
    fn split_text_cuts_between_lines() {
        let t = helv("one two three four five six", 10.0);
        let width = FontFace::of_run(&t.runs[0]).text_width("one two", 10.0) + 1.0;
        let (lines, starts) = layout_text_with_starts(&t, width);
        assert!(lines.len() >= 3);
        let (head, tail) = split_text(&t, starts[2]);
        let head_lines = layout_text(&head, width);
        let tail_lines = layout_text(&tail, width);
        assert_eq!(line_texts(&head_lines), line_texts(&lines[..2]));
        assert_eq!(line_texts(&tail_lines), line_texts(&lines[2..]));

        let t = Text {
            runs: vec![Run::plain("a\n", 10.0), Run::plain("b\nc", 12.0)],
            ..Text::default_layout()
        };
        let (_, starts) = layout_text_with_starts(&t, 500.0);
        assert_eq!(
            starts,
            [
                TextPos { run: 0, byte: 0 },
                TextPos { run: 1, byte: 0 },
                TextPos { run: 1, byte: 2 }
            ]
        );
        let (head, tail) = split_text(&t, starts[1]);
        assert_eq!(head.plain_text(), "a");
        assert_eq!(tail.plain_text(), "b\nc");
        assert_eq!(tail.runs[0].size, 12.0);
    }

    #[test]
    fn slices_cut_a_long_text_in_one_pass() {
        let t = Text {
            runs: vec![Run::plain("aa bb ", 10.0), Run::plain("cc dd ee ff", 12.0)],
            ..Text::default_layout()
        };
        let width = FontFace::of_run(&t.runs[1]).text_width("cc dd", 12.0) + 0.5;
        let (lines, starts) = layout_text_with_starts(&t, width);
        let parts: Vec<Text> = (0..starts.len())
            .map(|i| slice_text(&t, starts[i], starts.get(i + 1).copied()))
            .collect();
        let mut again = Vec::new();
        for p in &parts {
            again.extend(line_texts(&layout_text(p, width)));
        }
        assert_eq!(again, line_texts(&lines));
        assert!(parts.len() >= 3);
        assert_eq!(slice_text(&t, TextPos { run: 5, byte: 0 }, None).runs, []);
    }

    #[test]
    fn widths_for_tables() {
        let t = helv("a longword\nxy", 10.0);
        let face = FontFace::of_run(&t.runs[0]);
        assert!((natural_width(&t) - face.text_width("a longword", 10.0)).abs() < 1e-9);
        assert!((min_content_width(&t) - face.text_width("longword", 10.0)).abs() < 1e-9);
    }

    #[test]
    fn degenerate_input_does_not_panic() {
        assert!(layout_text(&Text::default_layout(), 100.0).is_empty());
        let mut t = helv("x y", f64::NAN);
        t.line_height = f64::NAN;
        let lines = layout_text(&t, f64::NAN);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].height, 0.0);
        assert_eq!(layout_text(&helv("a b c", 10.0), -5.0).len(), 1);
    }

    #[test]
    fn long_text_is_fast_and_deterministic() {
        let para = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(2000);
        let t = helv(&para, 11.0);
        let a = layout_text(&t, 481.0);
        let b = layout_text(&t, 481.0);
        assert_eq!(a, b);
        assert!(a.len() > 100);
        for l in &a {
            assert!(l.width <= 481.0 + 1e-6);
        }
    }

    /// Lines of `text` at every width from 20 to 300 points, for the rules that must hold
    /// at any width that has room for a few characters.
    fn lines_at_every_width(text: &Text) -> Vec<Vec<String>> {
        (4..=60)
            .map(|k| line_texts(&layout_text(text, 5.0 * f64::from(k))))
            .collect()
    }

    #[test]
    fn cjk_lines_never_start_with_closing_or_end_with_opening_punctuation() {
        // UDHR article 1 in Japanese and Chinese (tests/text), with brackets around.
        let sentences = [
            "『世界人権宣言』第１条「すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。人間は、理性と良心とを授けられており、互いに同胞の精神をもって行動しなければならない。」（国際連合）",
            "《世界人权宣言》第一条：人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心，并应以兄弟关系的精神相对待！（联合国）",
        ];
        for s in sentences {
            let t = helv(s, 10.0);
            for lines in lines_at_every_width(&t) {
                assert_eq!(lines.concat(), s);
                for (k, line) in lines.iter().enumerate() {
                    let first = line.chars().next().unwrap();
                    let last = line.chars().last().unwrap();
                    if k > 0 {
                        assert!(!"。、，．）」』！？：》".contains(first), "{lines:?}");
                    }
                    if k + 1 < lines.len() {
                        assert!(!"（「『《".contains(last), "{lines:?}");
                    }
                }
                // Ideographs break between each other: the lines fill up.
                assert!(lines.iter().all(|l| !l.is_empty()));
            }
            let t = helv(s, 10.0);
            let one = FontFace::of_run(&t.runs[0]).text_width("人", 10.0);
            assert!(layout_text(&t, one * 8.0).len() > s.chars().count() / 8);
        }
        // The narrowest a column of Japanese can be: an ideograph with its full stop.
        let t = helv("平等である。", 10.0);
        let face = FontFace::of_run(&t.runs[0]);
        assert!((min_content_width(&t) - face.text_width("る。", 10.0)).abs() < 1e-9);
    }

    #[test]
    fn closing_parentheses_stay_with_their_word() {
        let t = helv("this is a fully (semi-)automatic gun (parenthesised)", 10.0);
        let face = FontFace::of_run(&t.runs[0]);
        // Room for `this is a fully (semi-` but not for `)`: the old rule broke after the hyphen.
        let width = face.text_width("this is a fully (semi-", 10.0) + 0.5;
        assert!(width > face.text_width("(semi-)automatic", 10.0));
        assert_eq!(
            line_texts(&layout_text(&t, width)),
            [
                "this is a fully",
                "(semi-)automatic",
                "gun",
                "(parenthesised)"
            ]
        );
        let narrowest = min_content_width(&t);
        assert!((narrowest - face.text_width("(semi-)automatic", 10.0)).abs() < 1e-9);
        // At any width where no word has to be broken.
        for k in 0..40 {
            let lines = line_texts(&layout_text(&t, narrowest + 2.5 * f64::from(k)));
            for line in &lines[1..] {
                assert!(!line.starts_with(')'), "{lines:?}");
            }
        }
    }

    /// `cargo test -p quire-sdk --lib --release -- --ignored --nocapture latin_layout_timing`
    #[test]
    #[ignore]
    fn latin_layout_timing() {
        let lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(2000);
        let udhr = include_str!("../../../tests/text/en.md").repeat(40);
        for (name, s) in [("lorem", &lorem), ("udhr-en", &udhr)] {
            let t = helv(s, 11.0);
            let mut best = f64::INFINITY;
            let mut lines = 0;
            for _ in 0..30 {
                let started = std::time::Instant::now();
                lines = layout_text(&t, 481.0).len();
                best = best.min(started.elapsed().as_secs_f64());
            }
            println!(
                "{name}: {} chars, {lines} lines, best of 30: {:.3} ms",
                s.chars().count(),
                best * 1e3
            );
        }
    }
}
