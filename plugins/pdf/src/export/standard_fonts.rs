//! The standard-14 text fonts, embedded: Helvetica, Times and Courier drawn with subsets
//! of their metric-compatible Liberation faces, so every font of the document travels with
//! it (`pdffonts` lists each as embedded and subset) and no reader substitutes its own.
//!
//! Content streams keep one byte per character, the WinAnsi code the layout measured: each
//! font is a Type0 font whose encoding is an embedded one-byte CMap mapping every code to
//! the CID of the same number, and the CIDFont's `CIDToGIDMap` sends each code to its glyph
//! in the subset. Two-byte Identity-H codes would double every string of Latin text and the
//! work of writing it (docs/text-engine.md, "Tried and taken back"). Widths are the standard
//! font's, the ones the layout measured with; Liberation's advances are the same. Without a
//! library, or without Liberation in it, the font is referenced by name as before.

use pdf_writer::types::{CidFontType, SystemInfo, UnicodeCmap};
use pdf_writer::{Chunk, Filter, Finish, Name, Ref, Str};
use quire_sdk::fonts;
use quire_sdk::metrics::{winansi_char, FontFace};

use super::library_fonts::{
    deflate, sanitized, tag_of, write_descriptor, write_program, LibraryFonts,
};
use super::refs::Refs;

/// The encoding every embedded standard font shares: byte n is CID n.
const ENCODING_NAME: &str = "Quire-WinAnsi-Bytes";

/// What the embedded standard fonts of one document share: the encoding CMap, written once.
#[derive(Default)]
pub struct StandardFonts {
    encoding: Option<Ref>,
}

impl StandardFonts {
    /// Writes `face` as font object `font`, drawing the WinAnsi `codes` marked as used,
    /// embedded when the library has its metric-compatible face, else referenced by name.
    pub fn write(
        &mut self,
        chunk: &mut Chunk,
        refs: &mut Refs,
        library: &mut LibraryFonts,
        face: FontFace,
        font: Ref,
        codes: &[bool; 256],
    ) {
        if !face.uses_winansi() || !self.embed(chunk, refs, library, face, font, codes) {
            let mut type1 = chunk.type1_font(font);
            type1.base_font(Name(face.base_font_name().as_bytes()));
            // Symbol and ZapfDingbats have their own built-in encodings; WinAnsi would remap
            // their glyphs to names they do not contain.
            if face.uses_winansi() {
                type1.encoding_predefined(Name(b"WinAnsiEncoding"));
            }
        }
    }

    fn embed(
        &mut self,
        chunk: &mut Chunk,
        refs: &mut Refs,
        library: &mut LibraryFonts,
        face: FontFace,
        font: Ref,
        codes: &[bool; 256],
    ) -> bool {
        let drawn: Vec<(u8, char)> = (0..=255u8)
            .filter(|&code| codes[usize::from(code)])
            .filter_map(|code| Some((code, winansi_char(code)?)))
            .collect();
        if drawn.is_empty() {
            return false;
        }
        let text: String = drawn.iter().map(|&(_, ch)| ch).collect();
        let Some(glyphs) = fonts::metric_compatible_glyphs(face, &text) else {
            return false;
        };
        let Some(library_face) = glyphs.first().map(|g| g.face) else {
            return false;
        };
        let Some(info) = fonts::info(library_face) else {
            return false;
        };
        // The subset holds each glyph once, in code order: glyph i + 1 is `unique[i]`.
        let mut unique: Vec<u16> = Vec::new();
        let mut gid_of_code = [0u16; 256];
        for (&(code, _), g) in drawn.iter().zip(&glyphs) {
            let at = match unique.iter().position(|&u| u == g.gid) {
                Some(at) => at,
                None => {
                    unique.push(g.gid);
                    unique.len() - 1
                }
            };
            gid_of_code[usize::from(code)] = at as u16 + 1;
        }
        // The glyphs the document draws from the same face as a library font (Vietnamese
        // `ạ`, Greek, Cyrillic beside the WinAnsi text) join this subset after the WinAnsi
        // ones, so the face is embedded once; the library font maps its CIDs into it.
        let mut shared_gids = Vec::new();
        if let Some(extra) = library.glyphs_of(library_face) {
            for &gid in extra {
                let at = match unique.iter().position(|&u| u == gid) {
                    Some(at) => at,
                    None => {
                        unique.push(gid);
                        unique.len() - 1
                    }
                };
                shared_gids.push(at as u16 + 1);
            }
        }
        let Ok(program) = fonts::subset(library_face, &unique) else {
            return false;
        };

        let encoding = *self.encoding.get_or_insert_with(|| {
            let r = refs.alloc();
            write_encoding(chunk, r);
            r
        });
        let (cid_font, descriptor, to_unicode, gid_map, file) = (
            refs.alloc(),
            refs.alloc(),
            refs.alloc(),
            refs.alloc(),
            refs.alloc(),
        );
        let base = format!(
            "{}+{}",
            tag_of(library_face, &unique),
            sanitized(&info.postscript_name)
        );
        chunk
            .type0_font(font)
            .base_font(Name(base.as_bytes()))
            .encoding_cmap(encoding)
            .descendant_font(cid_font)
            .to_unicode(to_unicode);

        let first = drawn[0].0;
        let last = drawn[drawn.len() - 1].0;
        let mut cid = chunk.cid_font(cid_font);
        cid.subtype(CidFontType::Type2)
            .base_font(Name(base.as_bytes()))
            .system_info(identity())
            .font_descriptor(descriptor)
            .default_width(0.0)
            .cid_to_gid_map_stream(gid_map);
        cid.widths().consecutive(
            u16::from(first),
            (first..=last).map(|code| face.code_width(code) as f32),
        );
        cid.finish();

        write_descriptor(chunk, descriptor, &base, &info, Some(file));
        write_program(chunk, file, false, &program);
        if !shared_gids.is_empty() {
            library.share(library_face, file, base.clone(), shared_gids);
        }

        let map: Vec<u8> = gid_of_code.iter().flat_map(|g| g.to_be_bytes()).collect();
        chunk
            .stream(gid_map, &deflate(&map))
            .filter(Filter::FlateDecode);

        let mut unicode = UnicodeCmap::<u8>::new(Name(b"Quire-WinAnsi-Unicode"), identity());
        for &(code, ch) in &drawn {
            unicode.pair(code, ch);
        }
        chunk
            .cmap(to_unicode, &deflate(&unicode.finish()))
            .filter(Filter::FlateDecode);
        true
    }
}

fn identity() -> SystemInfo<'static> {
    SystemInfo {
        registry: Str(b"Adobe"),
        ordering: Str(b"Identity"),
        supplement: 0,
    }
}

/// The one-byte encoding CMap: codes 00-FF, each the CID of its own number.
fn write_encoding(chunk: &mut Chunk, r: Ref) {
    let name = ENCODING_NAME;
    let program = format!(
        "%!PS-Adobe-3.0 Resource-CMap\n\
         /CIDInit /ProcSet findresource begin\n\
         12 dict begin\n\
         begincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> def\n\
         /CMapName /{name} def\n\
         /CMapType 1 def\n\
         1 begincodespacerange\n<00> <FF>\nendcodespacerange\n\
         1 begincidrange\n<00> <FF> 0\nendcidrange\n\
         endcmap\n\
         CMapName currentdict /CMap defineresource pop\n\
         end\n\
         end\n"
    );
    chunk
        .cmap(r, program.as_bytes())
        .name(Name(ENCODING_NAME.as_bytes()))
        .system_info(identity());
}
