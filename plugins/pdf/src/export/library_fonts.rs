//! Faces of the host's font library, embedded as subset composite fonts: characters the
//! standard-14 fonts cannot draw (Czech `ř`, Greek, Arabic, CJK, `☑`).
//!
//! Each face used becomes a Type0 font with Identity-H encoding over a CIDFont whose CIDs
//! are given out in first-use order: CID n is the n-th glyph drawn, and the subset the host
//! makes holds exactly those glyphs at those ids (so `CIDToGIDMap` is the identity, and a
//! CFF subset is CID-keyed the same way). `/ToUnicode` maps every CID back to the character
//! it was drawn for, so text can be searched and copied. Objects are numbered in first-use
//! order, so the same model gives the same bytes.

use std::collections::HashMap;

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Chunk, Filter, Finish, Name, Rect, Ref, Str};
use quire_sdk::fonts::{self, FaceInfo, LibraryGlyph};

use super::refs::Refs;

/// One library face as this document uses it.
struct Embedded {
    face: u32,
    font: Ref,
    /// The original glyph id of CID i + 1.
    glyphs: Vec<u16>,
    /// Advance of CID i + 1 in 1/1000 em.
    widths: Vec<f32>,
    /// The text CID i + 1 was first drawn for (a shaped cluster may be several
    /// characters; a cluster's later glyphs stand for none).
    texts: Vec<String>,
    cids: HashMap<u16, u16>,
    /// Advance of .notdef (CID 0, glyph 0) in 1/1000 em, once it is drawn.
    notdef_width: Option<f32>,
    /// The program of an embedded standard font of the same face, which holds these glyphs
    /// too: the face is embedded once (see [`LibraryFonts::share`]).
    shared: Option<SharedProgram>,
}

/// A font program written once for a standard font and a library font of one face.
struct SharedProgram {
    file: Ref,
    /// `ABCDEF+PostScriptName` of the shared subset.
    base: String,
    /// The glyph of the shared subset each CID i + 1 draws.
    gids: Vec<u16>,
}

#[derive(Default)]
pub struct LibraryFonts {
    used: Vec<Embedded>,
}

impl LibraryFonts {
    /// The registry index of the font for `glyph`'s face and the CID that draws it,
    /// registering both on first use.
    pub fn cid(&mut self, refs: &mut Refs, glyph: LibraryGlyph, text: &str) -> (usize, u16) {
        let index = match self.used.iter().position(|e| e.face == glyph.face) {
            Some(i) => i,
            None => {
                self.used.push(Embedded {
                    face: glyph.face,
                    font: refs.alloc(),
                    glyphs: Vec::new(),
                    widths: Vec::new(),
                    texts: Vec::new(),
                    cids: HashMap::new(),
                    notdef_width: None,
                    shared: None,
                });
                self.used.len() - 1
            }
        };
        let e = &mut self.used[index];
        if glyph.gid == 0 {
            // .notdef is glyph 0 of every subset: CID 0, never listed.
            e.notdef_width = Some(glyph.width as f32);
            return (index, 0);
        }
        let cid = *e.cids.entry(glyph.gid).or_insert_with(|| {
            e.glyphs.push(glyph.gid);
            e.widths.push(glyph.width as f32);
            e.texts.push(text.to_string());
            // A face has at most 65,535 glyphs, so the count fits.
            e.glyphs.len() as u16
        });
        (index, cid)
    }

    /// The advance the PDF gives CID `cid` of font `index` (its `/W` entry), in 1/1000 em.
    pub fn width(&self, index: usize, cid: u16) -> f64 {
        let e = &self.used[index];
        let width = match cid {
            0 => e.notdef_width,
            n => e.widths.get(usize::from(n) - 1).copied(),
        };
        f64::from(width.unwrap_or(0.0))
    }

    /// The original glyph ids this document draws from library face `face`, unless they
    /// already share a program.
    pub fn glyphs_of(&self, face: u32) -> Option<&[u16]> {
        self.used
            .iter()
            .find(|e| e.face == face && e.shared.is_none())
            .map(|e| e.glyphs.as_slice())
    }

    /// Draws face `face` from the program `file` (named `base`) that a standard font of the
    /// same face embeds, where CID i + 1 is glyph `gids[i]`: a face drawing both WinAnsi and
    /// other text (Liberation Sans for Latin and Greek) is embedded once, not twice.
    pub fn share(&mut self, face: u32, file: Ref, base: String, gids: Vec<u16>) {
        if let Some(e) = self.used.iter_mut().find(|e| e.face == face) {
            e.shared = Some(SharedProgram { file, base, gids });
        }
    }

    pub fn name(index: usize) -> String {
        format!("L{}", index + 1)
    }

    pub fn font_ref(&self, index: usize) -> Ref {
        self.used[index].font
    }

    /// Writes every font used into `chunk`; a warning for each face that could not be
    /// embedded (its text is then shown in whatever font the reader substitutes).
    pub fn write(&self, chunk: &mut Chunk, refs: &mut Refs, warnings: &mut Vec<String>) {
        for e in &self.used {
            if let Err(why) = write_font(chunk, refs, e) {
                warnings.push(why);
            }
        }
    }
}

fn write_font(chunk: &mut Chunk, refs: &mut Refs, e: &Embedded) -> Result<(), String> {
    let info = fonts::info(e.face).ok_or_else(|| {
        format!(
            "font {} of the library is gone; its text is not shown",
            e.face
        )
    })?;
    // Its own subset, where CID n is glyph n; or a standard font's program of the same face
    // (TrueType: Liberation), into which a `CIDToGIDMap` stream sends each CID.
    let (base, own) = match &e.shared {
        Some(shared) => (shared.base.clone(), Ok(None)),
        None => (
            format!("{}+{}", subset_tag(e), sanitized(&info.postscript_name)),
            fonts::subset(e.face, &e.glyphs).map(Some),
        ),
    };
    let (cid_font, descriptor, cmap) = (refs.alloc(), refs.alloc(), refs.alloc());
    // The program's object, and its bytes when this font writes it.
    let program = own.map(|bytes| {
        let file = e.shared.as_ref().map_or_else(|| refs.alloc(), |s| s.file);
        (file, bytes)
    });

    let mut type0 = chunk.type0_font(e.font);
    if info.cff {
        type0.base_font(Name(format!("{base}-Identity-H").as_bytes()));
    } else {
        type0.base_font(Name(base.as_bytes()));
    }
    type0
        .encoding_predefined(Name(b"Identity-H"))
        .descendant_font(cid_font)
        .to_unicode(cmap);
    type0.finish();

    let system = SystemInfo {
        registry: Str(b"Adobe"),
        ordering: Str(b"Identity"),
        supplement: 0,
    };
    let mut cid = chunk.cid_font(cid_font);
    cid.subtype(if info.cff {
        CidFontType::Type0
    } else {
        CidFontType::Type2
    })
    .base_font(Name(base.as_bytes()))
    .system_info(system)
    .font_descriptor(descriptor)
    .default_width(0.0);
    let gid_map = e.shared.as_ref().map(|shared| (refs.alloc(), &shared.gids));
    match gid_map {
        Some((map, _)) => {
            cid.cid_to_gid_map_stream(map);
        }
        None if !info.cff => {
            cid.cid_to_gid_map_predefined(Name(b"Identity"));
        }
        None => {}
    }
    match e.notdef_width {
        Some(w) => cid
            .widths()
            .consecutive(0, std::iter::once(w).chain(e.widths.iter().copied())),
        None => cid.widths().consecutive(1, e.widths.iter().copied()),
    };
    cid.finish();
    if let Some((map, gids)) = gid_map {
        let bytes: Vec<u8> = std::iter::once(0u16)
            .chain(gids.iter().copied())
            .flat_map(u16::to_be_bytes)
            .collect();
        chunk
            .stream(map, &deflate(&bytes))
            .filter(Filter::FlateDecode);
    }

    write_descriptor(
        chunk,
        descriptor,
        &base,
        &info,
        program.as_ref().ok().map(|(file, _)| *file),
    );

    let mut unicode = UnicodeCmap::new(Name(b"Quire-UTF16"), system);
    for (i, text) in e.texts.iter().enumerate() {
        if !text.is_empty() {
            unicode.pair_with_multiple(i as u16 + 1, text.chars());
        }
    }
    let cmap_bytes = deflate(&unicode.finish());
    chunk
        .cmap(cmap, &cmap_bytes)
        .filter(Filter::FlateDecode)
        .finish();

    match program {
        Ok((file, Some(bytes))) => {
            write_program(chunk, file, info.cff, &bytes);
            Ok(())
        }
        // The standard font writes the shared program.
        Ok((_, None)) => Ok(()),
        Err(why) => Err(format!(
            "the font {} could not be embedded ({why}); readers show its text in a font of their own",
            info.family
        )),
    }
}

/// The font descriptor of an embedded face, pointing at its program `file` when it has one.
pub(super) fn write_descriptor(
    chunk: &mut Chunk,
    descriptor: Ref,
    base: &str,
    info: &FaceInfo,
    file: Option<Ref>,
) {
    let scale = 1000.0 / f32::from(info.units_per_em.max(1));
    let em = |v: i16| f32::from(v) * scale;
    let mut flags = FontFlags::SYMBOLIC;
    if info.italic || info.italic_angle != 0.0 {
        flags |= FontFlags::ITALIC;
    }
    if info.monospace {
        flags |= FontFlags::FIXED_PITCH;
    }
    let mut d = chunk.font_descriptor(descriptor);
    d.name(Name(base.as_bytes()))
        .flags(flags)
        .bbox(Rect::new(
            em(info.bbox[0]),
            em(info.bbox[1]),
            em(info.bbox[2]),
            em(info.bbox[3]),
        ))
        .italic_angle(info.italic_angle)
        .ascent(em(info.ascent))
        .descent(em(info.descent))
        .cap_height(em(info.cap_height))
        // PDF wants a stem width; none is in the font, so it is estimated from the weight
        // as other writers do.
        .stem_v(10.0 + 0.244 * (f32::from(info.weight) - 50.0));
    match file {
        Some(file) if info.cff => {
            d.font_file3(file);
        }
        Some(file) => {
            d.font_file2(file);
        }
        None => {}
    }
    d.finish();
}

/// A subset program as its font file stream: a bare CFF program (`FontFile3`) or a
/// TrueType file (`FontFile2`).
pub(super) fn write_program(chunk: &mut Chunk, file: Ref, cff: bool, bytes: &[u8]) {
    // The fastest level: font programs are most of the deflating a short document does,
    // and level 6 would make them only ~4% smaller at twice the time (docs/text-engine.md).
    let compressed = miniz_oxide::deflate::compress_to_vec_zlib(bytes, 1);
    let mut stream = chunk.stream(file, &compressed);
    stream.filter(Filter::FlateDecode);
    if cff {
        stream.pair(Name(b"Subtype"), Name(b"CIDFontType0C"));
    } else {
        stream.pair(Name(b"Length1"), bytes.len() as i32);
    }
    stream.finish();
}

/// Six capital letters naming this subset (PDF's `ABCDEF+Name`), from the face and the
/// glyphs in it, so different subsets of one face get different names and the same
/// document the same ones.
fn subset_tag(e: &Embedded) -> String {
    tag_of(e.face, &e.glyphs)
}

/// Six capital letters from a face and glyphs; see [`subset_tag`].
pub(super) fn tag_of(face: u32, glyphs: &[u16]) -> String {
    // FNV-1a: stable across builds and platforms, unlike std's hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in face
        .to_le_bytes()
        .into_iter()
        .chain(glyphs.iter().flat_map(|g| g.to_le_bytes()))
    {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (0..6)
        .map(|i| char::from(b'A' + ((h >> (i * 5)) % 26) as u8))
        .collect()
}

/// A PostScript name as a PDF name may hold it: printable ASCII without delimiters.
pub(super) fn sanitized(name: &str) -> String {
    let kept: String = name
        .chars()
        .filter(|c| c.is_ascii_graphic() && !"()<>[]{}/%#".contains(*c))
        .take(63)
        .collect();
    if kept.is_empty() {
        "Font".to_string()
    } else {
        kept
    }
}

pub(super) fn deflate(bytes: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(bytes, 6)
}
