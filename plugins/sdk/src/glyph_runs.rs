//! A fragment's text as exports draw it: pieces in one font each, in visual order.
//!
//! The layout measured every character with the run's standard-14 face when the face has it,
//! else with the library face that has it, and measured words in scripts that need shaping
//! as shaped clusters. Every export must draw what was measured, so this is where the
//! decision lives once: the PDF export turns pieces into strings and CIDs, the SVG export
//! into `<text>` and glyph outlines.
//!
//! Characters the standard face encodes stay characters. Words in scripts that need shaping
//! are shaped again exactly as the layout shaped them (same word, face and direction, so the
//! same glyphs and widths). A right-to-left fragment is laid out from its right end: its
//! pieces, and the characters of its unshaped pieces, are reversed, and paired brackets
//! are mirrored (UAX #9 L4). Widths are in 1/1000 em of the run's size.

use crate::fonts::{self, LibraryGlyph, ShapedGlyph};
use crate::metrics::FontFace;

/// Where underline and strike-through bars sit, from the baseline up, and how thick they
/// are, in ems of the run's size, the same in every export (the Helvetica AFM's underline
/// position and thickness, which the other standard fonts are close to).
pub const UNDERLINE_OFFSET: f64 = -0.1;
pub const STRIKE_OFFSET: f64 = 0.27;
pub const LINE_THICKNESS: f64 = 0.05;

/// A glyph of a library face, placed from its piece's start (1/1000 em, y up).
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedGlyph {
    pub gid: u16,
    pub x: f64,
    pub y: f64,
    pub advance: f64,
    /// The characters the glyph stands for, for a text layer or a PDF's `/ToUnicode`. A
    /// glyph's text holds wherever the glyph recurs (see [`glyph_texts`]).
    pub text: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    /// Characters the run's standard face encodes, in visual order.
    Standard { text: String, width: f64 },
    /// Glyphs of library face `face`, one per character (`shaped` false: they advance by
    /// their own widths) or a shaped word (`shaped` true: placed where the shaper put them).
    Library {
        face: u32,
        glyphs: Vec<PlacedGlyph>,
        width: f64,
        shaped: bool,
        /// The characters drawn, in logical order: what a text layer or a PDF's
        /// `/ActualText` reads, since the glyphs' order may differ (Indic vowel signs drawn
        /// before their consonant, right-to-left text).
        text: String,
    },
    /// A character no installed font has: the .notdef box of the run's library face, or
    /// without a library `?` in the standard face. Either is what the layout measured.
    Missing {
        ch: char,
        notdef: Option<LibraryGlyph>,
        width: f64,
    },
}

impl Piece {
    /// Advance in 1/1000 em.
    pub fn width(&self) -> f64 {
        match self {
            Piece::Standard { width, .. }
            | Piece::Library { width, .. }
            | Piece::Missing { width, .. } => *width,
        }
    }
}

/// Whether every character of `s` is drawn by the standard face (or draws nothing): the
/// fast path, which needs no pieces at all.
pub fn is_standard(s: &str, face: FontFace) -> bool {
    s.chars()
        .all(|c| face.encode(c).is_some() || fonts::is_invisible(c))
}

/// The pieces fragment text `s` of a run in `face` is drawn as, left to right.
pub fn pieces(s: &str, rtl: bool, face: FontFace) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = Vec::new();
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let bare: Vec<char> = chars.iter().map(|(_, c)| *c).collect();
    // The library glyph that picks the face of character `j`, none for the standard face.
    let lead_glyph =
        |j: usize| fonts::face_lead(face, &bare, j).map(|lead| (lead, fonts::glyph(face, lead)));
    let mut i = 0;
    while i < chars.len() {
        let (at, ch) = chars[i];
        if fonts::is_invisible(ch) {
            i += 1;
            continue;
        }
        let lead = lead_glyph(i);
        let standard = |pieces: &mut Vec<Piece>, ch: char| match face.encode(ch) {
            Some(b) => {
                let ch = if rtl { mirrored(ch) } else { ch };
                push_standard(pieces, ch, face.code_width(b));
                true
            }
            None => false,
        };
        let glyph = match lead {
            None => {
                standard(&mut pieces, ch);
                i += 1;
                continue;
            }
            Some((_, Some(glyph))) => glyph,
            Some((lead, None)) => {
                if lead != ch && standard(&mut pieces, ch) {
                    // A letter whose mark no font has: the letter stays standard.
                    i += 1;
                    continue;
                }
                let notdef = fonts::notdef(face);
                let width = notdef.map_or_else(|| face.code_width(b'?'), |g| g.width);
                pieces.push(Piece::Missing { ch, notdef, width });
                i += 1;
                continue;
            }
        };
        // The word this character starts, as the layout's stretches: non-space characters
        // of the same library face.
        let mut end = i + 1;
        while end < chars.len() {
            let c = chars[end].1;
            let same_face = fonts::is_joiner(c)
                || !c.is_whitespace()
                    && lead_glyph(end)
                        .is_some_and(|(_, g)| g.is_some_and(|g| g.face == glyph.face));
            if !same_face {
                break;
            }
            end += 1;
        }
        let word_end = chars.get(end).map_or(s.len(), |(b, _)| *b);
        let word = s.get(at..word_end).unwrap_or_default();
        if word.chars().any(fonts::needs_shaping) {
            if let Some(piece) = shaped(word, face, glyph.face, rtl) {
                pieces.push(piece);
                i = end;
                continue;
            }
        }
        // Unshaped, the whole word at once (one character at a time would scan the rest of
        // the word again for each): each character its own glyph; a letter led to the
        // library by its marks keeps its standard glyph.
        for (j, &(_, c)) in chars.iter().enumerate().take(end).skip(i) {
            if fonts::is_invisible(c) || standard(&mut pieces, c) {
                continue;
            }
            if let Some((_, Some(g))) = lead_glyph(j) {
                push_library(&mut pieces, g, c);
            }
        }
        i = end;
    }
    if rtl {
        pieces.reverse();
        for piece in &mut pieces {
            match piece {
                Piece::Standard { text, .. } => *text = text.chars().rev().collect(),
                Piece::Library {
                    glyphs,
                    shaped: false,
                    ..
                } => {
                    glyphs.reverse();
                    let mut pen = 0.0;
                    for g in glyphs {
                        g.x = pen;
                        pen += g.advance;
                    }
                }
                _ => {}
            }
        }
    }
    pieces
}

fn push_standard(pieces: &mut Vec<Piece>, ch: char, w: f64) {
    if let Some(Piece::Standard { text, width }) = pieces.last_mut() {
        text.push(ch);
        *width += w;
        return;
    }
    pieces.push(Piece::Standard {
        text: ch.to_string(),
        width: w,
    });
}

fn push_library(pieces: &mut Vec<Piece>, glyph: LibraryGlyph, ch: char) {
    let placed = |x: f64| PlacedGlyph {
        gid: glyph.gid,
        x,
        y: 0.0,
        advance: glyph.width,
        text: ch.to_string(),
    };
    if let Some(Piece::Library {
        face,
        glyphs,
        width,
        shaped: false,
        text,
    }) = pieces.last_mut()
    {
        if *face == glyph.face {
            glyphs.push(placed(*width));
            *width += glyph.width;
            text.push(ch);
            return;
        }
    }
    pieces.push(Piece::Library {
        face: glyph.face,
        glyphs: vec![placed(0.0)],
        width: glyph.width,
        shaped: false,
        text: ch.to_string(),
    });
}

/// `word` shaped with library face `face`; none when the face cannot shape it (the caller
/// then draws the characters' own glyphs).
fn shaped(word: &str, style: FontFace, face: u32, rtl: bool) -> Option<Piece> {
    let upem = f64::from(fonts::info(face)?.units_per_em.max(1));
    let glyphs = fonts::shape(face, word, rtl, style.lang);
    if glyphs.is_empty() {
        return None;
    }
    let em = |v: i32| f64::from(v) * 1000.0 / upem;
    let texts = glyph_texts(word, style, face, rtl, &glyphs);
    let mut placed = Vec::with_capacity(glyphs.len());
    let mut pen = 0.0;
    for (g, text) in glyphs.iter().zip(texts) {
        placed.push(PlacedGlyph {
            gid: g.gid,
            x: pen + em(g.x_offset),
            y: em(g.y_offset),
            advance: em(g.advance),
            text,
        });
        pen += em(g.advance);
    }
    Some(Piece::Library {
        face,
        glyphs: placed,
        width: pen,
        shaped: true,
        text: word.to_string(),
    })
}

/// Each shaped glyph's text. A PDF's `/ToUnicode` maps a glyph to one text for the whole
/// document, so it must hold wherever the glyph recurs: a glyph that is a character's own
/// (a mark, an unjoined letter) stands for that character; the cluster's other characters
/// go to its first glyph that is no character's own (a joined form, a ligature, a
/// conjunct). Readers turn right-to-left glyphs back to logical order character by
/// character, which would turn a ligature's "lam alef" around: its text is stored reversed.
fn glyph_texts(
    word: &str,
    style: FontFace,
    face: u32,
    rtl: bool,
    glyphs: &[ShapedGlyph],
) -> Vec<String> {
    let mut starts: Vec<u32> = glyphs.iter().map(|g| g.cluster).collect();
    starts.sort_unstable();
    starts.dedup();
    let own_gid = |c: char| {
        fonts::glyph(style, c)
            .filter(|g| g.face == face)
            .map(|g| g.gid)
    };
    let mut texts = vec![String::new(); glyphs.len()];
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(word.len(), |&e| e as usize);
        let mut chars: Vec<Option<char>> = word
            .get(start as usize..end)
            .unwrap_or_default()
            .chars()
            .map(Some)
            .collect();
        let members: Vec<usize> = (0..glyphs.len())
            .filter(|&i| glyphs[i].cluster == start)
            .collect();
        let mut unclaimed = Vec::new();
        for &i in &members {
            let own = chars
                .iter()
                .position(|c| c.is_some_and(|c| own_gid(c) == Some(glyphs[i].gid)));
            match own {
                Some(p) => texts[i] = chars[p].take().map(String::from).unwrap_or_default(),
                None => unclaimed.push(i),
            }
        }
        let rest: String = chars.into_iter().flatten().collect();
        let target = unclaimed.first().or(members.first());
        if let (Some(&i), false) = (target, rest.is_empty()) {
            let rest: String = if rtl {
                rest.chars().rev().collect()
            } else {
                rest
            };
            texts[i].push_str(&rest);
        }
    }
    texts
}

/// The mirrored form of a paired bracket, for right-to-left text drawn glyph by glyph.
pub fn mirrored(ch: char) -> char {
    match ch {
        '(' => ')',
        ')' => '(',
        '[' => ']',
        ']' => '[',
        '{' => '}',
        '}' => '{',
        '<' => '>',
        '>' => '<',
        '«' => '»',
        '»' => '«',
        other => other,
    }
}

/// How many characters a warning lists by name before summing up the rest.
const LISTED: usize = 12;

/// The warning for characters no installed font has, drawn as .notdef boxes.
pub fn boxed_warning(chars: &[char]) -> String {
    format!(
        "characters no installed font has were drawn as empty boxes: {}",
        listed(chars)
    )
}

/// The warning for characters drawn as `?` (no font library at all).
pub fn replaced_warning(chars: &[char]) -> String {
    format!(
        "characters the fonts at hand cannot draw were replaced: {} (drawn as ?)",
        listed(chars)
    )
}

/// The characters a warning names: the first few, then how many more.
fn listed(chars: &[char]) -> String {
    let shown: Vec<String> = chars
        .iter()
        .take(LISTED)
        .map(|c| describe_char(*c))
        .collect();
    let more = chars.len().saturating_sub(LISTED);
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!("{}{tail}", shown.join(", "))
}

/// A character as the warning shows it: itself when printable, else its code point.
fn describe_char(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", c as u32)
    } else {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FontFamily;

    fn helvetica() -> FontFace {
        FontFace::new(FontFamily::Helvetica, false, false)
    }

    #[test]
    fn latin_is_one_standard_piece_measured_with_its_own_widths() {
        let face = helvetica();
        assert!(is_standard("Hello, world", face));
        let p = pieces("Hello, world", false, face);
        assert_eq!(p.len(), 1);
        assert!((p[0].width() - face.text_width("Hello, world", 1000.0)).abs() < 1e-9);
    }

    #[test]
    fn a_right_to_left_fragment_is_reversed_with_its_brackets_mirrored() {
        let p = pieces("(12)", true, helvetica());
        match &p[..] {
            [Piece::Standard { text, .. }] => assert_eq!(text, "(21)"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_character_warning_lists_each_once_and_sums_up() {
        assert_eq!(
            replaced_warning(&['中', '文']),
            "characters the fonts at hand cannot draw were replaced: 中, 文 (drawn as ?)"
        );
        let many: Vec<char> = ('\u{4e00}'..'\u{4e14}').collect();
        assert!(boxed_warning(&many).contains("and 8 more"));
        assert!(replaced_warning(&['\u{2028}']).contains("U+2028"));
    }
}
