//! A fragment's text as the PDF shows it: the SDK's pieces (`quire_sdk::glyph_runs`, which
//! decides which font draws what, shaping and right-to-left order included) turned into
//! strings of one font each.
//!
//! Characters the run's standard face encodes are one byte each in that font (embedded as
//! its Liberation face, `standard_fonts`); others are CIDs of the library face that has them
//! (`library_fonts`). A shaped word keeps each glyph where the shaper put it (`show` writes it
//! as one `TJ`), inside an `/ActualText` span holding the word, so text extraction gives the
//! characters in logical order whatever the glyphs' order.

use quire_sdk::fonts::LibraryGlyph;
use quire_sdk::glyph_runs::{self, Piece as Drawn};
use quire_sdk::metrics::FontFace;

use super::resources::Resources;

/// Which font a piece is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Font {
    /// The run's standard-14 face, by registry index: one byte per character.
    Standard(usize),
    /// A library face, by registry index: two-byte CIDs.
    Library(usize),
}

/// A shaped glyph: its CID, where it sits from the piece's start and how far the reader's
/// pen advances after it (its `/W` width, which a kerned or joined glyph's shaped advance
/// need not be), in 1/1000 em.
#[derive(Debug, Clone, Copy)]
pub struct PlacedGlyph {
    pub cid: u16,
    pub x: f64,
    pub y: f64,
    pub advance: f64,
}

pub enum Piece {
    /// Shown as one string: the reader advances by the font's widths, which are the widths
    /// the layout measured with. `width` in 1/1000 em.
    Run {
        font: Font,
        bytes: Vec<u8>,
        width: f64,
    },
    /// A shaped word, each glyph where the shaper put it.
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
    for drawn in glyph_runs::pieces(s, rtl, face) {
        match drawn {
            Drawn::Standard { text, width } => {
                // Registered only when drawn with, so a page of CJK text names no font it
                // does not use.
                let bytes: Vec<u8> = text.chars().filter_map(|c| face.encode(c)).collect();
                let font = Font::Standard(res.font(face, &bytes));
                push_run(&mut pieces, font, &bytes, width);
            }
            Drawn::Library {
                face: library_face,
                glyphs,
                shaped: false,
                ..
            } => {
                for g in glyphs {
                    let glyph = LibraryGlyph {
                        face: library_face,
                        gid: g.gid,
                        width: g.advance,
                    };
                    let (index, cid) = res.library_glyph(glyph, &g.text);
                    push_run(
                        &mut pieces,
                        Font::Library(index),
                        &cid.to_be_bytes(),
                        g.advance,
                    );
                }
            }
            Drawn::Library {
                face: library_face,
                glyphs,
                width,
                shaped: true,
                text,
            } => {
                let mut index = None;
                let placed = glyphs
                    .iter()
                    .map(|g| {
                        let glyph = LibraryGlyph {
                            face: library_face,
                            gid: g.gid,
                            width: g.advance,
                        };
                        let (i, cid) = res.library_glyph(glyph, &g.text);
                        index = Some(i);
                        PlacedGlyph {
                            cid,
                            x: g.x,
                            y: g.y,
                            advance: res.library_width(i, cid),
                        }
                    })
                    .collect();
                if let Some(font) = index {
                    pieces.push(Piece::Shaped {
                        font,
                        glyphs: placed,
                        width,
                        // Readers already turn right-to-left glyphs back to logical order.
                        actual_text: (!rtl).then_some(text),
                    });
                }
            }
            Drawn::Missing {
                ch,
                notdef: Some(notdef),
                width,
            } => {
                res.boxed_char(ch);
                let (index, cid) = res.library_glyph(notdef, "");
                pieces.push(Piece::Shaped {
                    font: index,
                    glyphs: vec![PlacedGlyph {
                        cid,
                        x: 0.0,
                        y: 0.0,
                        advance: res.library_width(index, cid),
                    }],
                    width,
                    actual_text: Some(ch.to_string()),
                });
            }
            Drawn::Missing {
                ch,
                notdef: None,
                width,
            } => {
                res.replaced_char(ch);
                let font = Font::Standard(res.font(face, b"?"));
                push_run(&mut pieces, font, b"?", width);
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
        width,
    });
}
