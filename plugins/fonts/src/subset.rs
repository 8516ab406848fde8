//! Subsets for embedding, through typst's subsetter.

use read_fonts::types::Tag;
use read_fonts::FontRef;
use subsetter::GlyphRemapper;

/// Subsets face `index` of `data` to .notdef plus `glyphs`, glyphs[i] becoming glyph i+1.
///
/// `GlyphRemapper::new_from_glyphs` gives that numbering (it starts with .notdef and hands out
/// ids in call order); a repeated glyph or a .notdef in `glyphs` would shift every id after
/// it, so they are refused rather than silently renumbered. The glyf closure appends the
/// components of composite glyphs after the requested ones, so a TrueType subset may hold more
/// than `glyphs.len() + 1` glyphs, but the requested ones keep their ids.
pub(crate) fn subset(
    data: &[u8],
    index: u32,
    cff: bool,
    num_glyphs: u16,
    glyphs: &[u16],
) -> Result<Vec<u8>, String> {
    if glyphs.len() >= usize::from(u16::MAX) {
        return Err(format!(
            "{} glyphs: at most 65534 fit a subset",
            glyphs.len()
        ));
    }
    let mut seen = vec![false; usize::from(num_glyphs)];
    for &gid in glyphs {
        if gid == 0 {
            return Err("glyph 0 (.notdef) is always glyph 0 of a subset: don't list it".into());
        }
        let Some(slot) = seen.get_mut(usize::from(gid)) else {
            return Err(format!(
                "glyph {gid} is past the face's {num_glyphs} glyphs"
            ));
        };
        if std::mem::replace(slot, true) {
            return Err(format!("glyph {gid} is listed twice"));
        }
    }
    let remapper = GlyphRemapper::new_from_glyphs(glyphs);
    // subsetter is trusted code on trusted fonts, but a panic in it must not take the host
    // down with it: it becomes this call's error.
    let out = std::panic::catch_unwind(|| subsetter::subset(data, index, &remapper))
        .map_err(|_| "the subsetter panicked".to_string())?
        .map_err(|e| format!("subsetting failed: {e}"))?;
    if !cff {
        return Ok(out);
    }
    // A PDF embeds CFF outlines as the bare CFF program (FontFile3 /CIDFontType0C), not as an
    // OpenType wrapper.
    let font = FontRef::new(&out).map_err(|e| format!("the subset does not parse: {e}"))?;
    let table = font
        .table_data(Tag::new(b"CFF "))
        .ok_or("the subset has no CFF table")?;
    Ok(table.as_bytes().to_vec())
}
