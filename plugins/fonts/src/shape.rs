//! Shaping with HarfRust (a port of HarfBuzz by the HarfBuzz project, on the same
//! `read-fonts` parser as the index): what turns Arabic letters into their joined forms,
//! Devanagari into conjuncts with their vowel signs placed, Thai marks into stacks.
//!
//! It runs here, next to the mapped font files, rather than in the converters: a shaper
//! needs the face's `GSUB`/`GPOS`/`GDEF`/`cmap`/`hmtx` tables, and handing those to every
//! call would copy them into every sandbox. The text is the caller's and untrusted, so
//! every call is bounded by its length (the host budgets characters per conversion) and
//! HarfRust is `forbid(unsafe_code)`; a font it cannot read gives no glyphs, not a panic.

use std::sync::OnceLock;

use harfrust::{Buffer, BufferFlags, Direction, Font, ShapeOptions, ShaperFont};

use crate::Shaped;

/// A face's shaper source, made on first use and kept: `Font` caches the face's layout
/// tables, so a face is parsed for shaping once per process, not once per call.
#[derive(Default)]
pub(crate) struct ShaperCache {
    font: OnceLock<Option<Font>>,
}

impl ShaperCache {
    fn font(&self, data: &std::sync::Arc<memmap2::Mmap>, index: u32) -> Option<&Font> {
        self.font
            .get_or_init(|| {
                let bytes: std::sync::Arc<dyn AsRef<[u8]> + Send + Sync> = data.clone();
                Font::new(bytes, index)
            })
            .as_ref()
    }
}

/// `text` shaped with the face `index` of `data`: glyphs in visual order (left to right,
/// so an RTL run comes out reversed), clusters as byte offsets into `text`.
pub(crate) fn shape(
    cache: &ShaperCache,
    data: &std::sync::Arc<memmap2::Mmap>,
    index: u32,
    text: &str,
    rtl: bool,
    lang: &str,
) -> Vec<Shaped> {
    let Some(font) = cache.font(data, index) else {
        return Vec::new();
    };
    let shaper = ShaperFont::new(font);
    let mut buffer = Buffer::new();
    buffer.push_str(text);
    buffer.guess_segment_properties();
    buffer.set_direction(if rtl {
        Direction::RightToLeft
    } else {
        Direction::LeftToRight
    });
    if !lang.is_empty() {
        buffer.set_language(lang.parse().ok());
    }
    buffer.set_flags(
        BufferFlags::BEGINNING_OF_TEXT
            | BufferFlags::END_OF_TEXT
            | BufferFlags::REMOVE_DEFAULT_IGNORABLES,
    );
    if harfrust::shape(&shaper, &mut buffer, ShapeOptions::new()).is_err() {
        return Vec::new();
    }
    buffer
        .glyph_infos()
        .iter()
        .zip(buffer.glyph_positions())
        .map(|(info, pos)| Shaped {
            gid: u16::try_from(info.glyph_id).unwrap_or(0),
            cluster: info.cluster,
            advance: pos.x_advance,
            x_offset: pos.x_offset,
            y_offset: pos.y_offset,
        })
        .collect()
}
