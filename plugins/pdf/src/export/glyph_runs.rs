//! A fragment's text as the PDF shows it: pieces in one font each, in visual order.
//!
//! Characters the run's standard face encodes are one byte each; others are CIDs of the
//! library face that has them (`library_fonts`). Words in scripts that need shaping are
//! shaped again exactly as the layout shaped them (same word, face and direction, so the
//! same glyphs and widths) and every glyph is placed where the shaper put it, inside an
//! `/ActualText` span holding the word, so text extraction gives the characters in logical
//! order whatever the glyphs' order. A right-to-left fragment is laid out from its right
//! end: its pieces, and the characters of its unshaped pieces, are reversed, and paired
//! brackets are mirrored (UAX #9 L4).

use quire_sdk::fonts::{self, LibraryGlyph};
use quire_sdk::metrics::FontFace;

use super::resources::Resources;

/// Which font a piece is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Font {
    /// The run's standard-14 face, by registry index: one byte per character.
    Standard(usize),
    /// A library face, by registry index: two-byte CIDs.
    Library(usize),
}

/// A shaped glyph: its CID and where it sits from the piece's start, in 1/1000 em.
#[derive(Debug, Clone, Copy)]
pub struct PlacedGlyph {
    pub cid: u16,
    pub x: f64,
    pub y: f64,
}

pub enum Piece {
    /// Shown as one string: the reader advances by the font's widths, which are the widths
    /// the layout measured with. `width` in 1/1000 em.
    Run {
        font: Font,
        bytes: Vec<u8>,
        /// Bytes per character: 1 for a standard face, 2 for CIDs.
        unit: usize,
        width: f64,
    },
    /// A shaped word, glyph by glyph.
    Shaped {
        font: usize,
        glyphs: Vec<PlacedGlyph>,
        width: f64,
        /// What text extraction should read for the word when its glyphs alone would give
        /// the wrong order (Indic vowel signs drawn before their consonant); none for a
        /// right-to-left word, whose glyphs readers already turn back to logical order.
        actual_text: Option<String>,
    },
}

impl Piece {
    pub fn font(&self) -> Font {
        match self {
            Piece::Run { font, .. } => *font,
            Piece::Shaped { font, .. } => Font::Library(*font),
        }
    }

    /// Advance in 1/1000 em.
    pub fn width(&self) -> f64 {
        match self {
            Piece::Run { width, .. } | Piece::Shaped { width, .. } => *width,
        }
    }
}

/// Encodes fragment text `s` of a run in `face`. A character no font has is drawn as the
/// .notdef box of the run's library face (or `?` without a library), which is what the
/// layout measured it as, and reported once per document.
pub fn encode(s: &str, rtl: bool, face: FontFace, res: &mut Resources) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = Vec::new();
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, ch) = chars[i];
        if fonts::is_invisible(ch) {
            i += 1;
            continue;
        }
        if let Some(b) = face.encode(ch) {
            // Registered only when drawn with, so a page of CJK text names no font it
            // does not use.
            let font = Font::Standard(res.font(face));
            push_run(&mut pieces, font, &[b], face.code_width(b));
            i += 1;
            continue;
        }
        let Some(glyph) = fonts::glyph(face, ch) else {
            match fonts::notdef(face) {
                Some(notdef) => {
                    res.boxed_char(ch);
                    let (index, cid) = res.library_glyph(notdef, "");
                    pieces.push(Piece::Shaped {
                        font: index,
                        glyphs: vec![PlacedGlyph {
                            cid,
                            x: 0.0,
                            y: 0.0,
                        }],
                        width: notdef.width,
                        actual_text: Some(ch.to_string()),
                    });
                }
                None => {
                    res.replaced_char(ch);
                    let font = Font::Standard(res.font(face));
                    push_run(&mut pieces, font, b"?", face.code_width(b'?'));
                }
            }
            i += 1;
            continue;
        };
        // The word this character starts, as the layout's stretches: non-space characters
        // of the same library face.
        let mut end = i + 1;
        while end < chars.len() {
            let c = chars[end].1;
            let same_face = fonts::is_joiner(c)
                || !c.is_whitespace()
                    && face.encode(c).is_none()
                    && fonts::glyph(face, c).is_some_and(|g| g.face == glyph.face);
            if !same_face {
                break;
            }
            end += 1;
        }
        let word_end = chars.get(end).map_or(s.len(), |(b, _)| *b);
        let word = s.get(at..word_end).unwrap_or_default();
        if word.chars().any(fonts::needs_shaping) {
            if let Some(piece) = shaped(word, face, glyph.face, rtl, res) {
                pieces.push(piece);
                i = end;
                continue;
            }
        }
        let (index, cid) = res.library_glyph(glyph, &ch.to_string());
        push_run(
            &mut pieces,
            Font::Library(index),
            &cid.to_be_bytes(),
            glyph.width,
        );
        i += 1;
    }
    if rtl {
        pieces.reverse();
        for piece in &mut pieces {
            if let Piece::Run {
                bytes, unit, font, ..
            } = piece
            {
                reverse_units(bytes, *unit);
                if matches!(font, Font::Standard(_)) {
                    bytes.iter_mut().for_each(|b| *b = mirrored(*b));
                }
            }
        }
    }
    pieces
}

fn push_run(pieces: &mut Vec<Piece>, font: Font, bytes: &[u8], width: f64) {
    if let Some(Piece::Run {
        font: f,
        bytes: b,
        width: w,
        ..
    }) = pieces.last_mut()
    {
        if *f == font {
            b.extend_from_slice(bytes);
            *w += width;
            return;
        }
    }
    pieces.push(Piece::Run {
        font,
        bytes: bytes.to_vec(),
        unit: bytes.len(),
        width,
    });
}

/// `word` shaped with library face `face`, its glyphs registered; none when the face
/// cannot shape it (the caller then shows the characters' own glyphs).
fn shaped(word: &str, style: FontFace, face: u32, rtl: bool, res: &mut Resources) -> Option<Piece> {
    let upem = f64::from(fonts::info(face)?.units_per_em.max(1));
    let glyphs = fonts::shape(face, word, rtl);
    if glyphs.is_empty() {
        return None;
    }
    let em = |v: i32| f64::from(v) * 1000.0 / upem;
    let texts = glyph_texts(word, style, face, rtl, &glyphs);
    let mut placed = Vec::with_capacity(glyphs.len());
    let mut pen = 0.0;
    let mut index = None;
    for (g, text) in glyphs.iter().zip(&texts) {
        let glyph = LibraryGlyph {
            face,
            gid: g.gid,
            width: em(g.advance),
        };
        let (i, cid) = res.library_glyph(glyph, text);
        index = Some(i);
        placed.push(PlacedGlyph {
            cid,
            x: pen + em(g.x_offset),
            y: em(g.y_offset),
        });
        pen += em(g.advance);
    }
    Some(Piece::Shaped {
        font: index?,
        glyphs: placed,
        width: pen,
        actual_text: (!rtl).then(|| word.to_string()),
    })
}

/// Each shaped glyph's text for `/ToUnicode`, which maps a glyph to one text for the whole
/// document, so it must hold wherever the glyph recurs. A glyph that is a character's own
/// (a mark, an unjoined letter) stands for that character; the cluster's other characters
/// go to its first glyph that is no character's own (a joined form, a ligature, a
/// conjunct). Readers turn right-to-left glyphs back to logical order character by
/// character, which would turn a ligature's "lam alef" around: its text is stored
/// reversed. The `/ActualText` span, where there is one, is what extraction reads for a
/// whole LTR word.
fn glyph_texts(
    word: &str,
    style: FontFace,
    face: u32,
    rtl: bool,
    glyphs: &[fonts::ShapedGlyph],
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

/// Reverses `bytes` in steps of `unit` bytes (one character or CID each).
fn reverse_units(bytes: &mut [u8], unit: usize) {
    if unit <= 1 {
        bytes.reverse();
        return;
    }
    let mut units: Vec<&[u8]> = bytes.chunks(unit).collect();
    units.reverse();
    let flat: Vec<u8> = units.concat();
    bytes.copy_from_slice(&flat);
}

/// The mirrored form of a paired bracket, for right-to-left text drawn glyph by glyph.
fn mirrored(b: u8) -> u8 {
    match b {
        b'(' => b')',
        b')' => b'(',
        b'[' => b']',
        b']' => b'[',
        b'{' => b'}',
        b'}' => b'{',
        b'<' => b'>',
        b'>' => b'<',
        0xAB => 0xBB,
        0xBB => 0xAB,
        other => other,
    }
}
