//! Glyph outlines as SVG path data, for exports that draw glyphs as shapes (SVG, PNG): such a
//! drawing looks the same on a machine without the fonts, and a rasteriser needs no font of
//! its own. Read with skrifa (the outline reader of the `read-fonts` family the index and
//! the shaper use), unhinted, in font units with y up.

use skrifa::instance::{LocationRef, Size};
use skrifa::outline::{DrawSettings, OutlinePen};
use skrifa::{FontRef, GlyphId, MetadataProvider};

/// A path's commands, one after the other, with numbers kept to one decimal (font units:
/// a thousandth of an em or less).
#[derive(Default)]
struct SvgPen {
    d: String,
}

impl SvgPen {
    fn push(&mut self, command: char, points: &[f32]) {
        self.d.push(command);
        for (i, v) in points.iter().enumerate() {
            if i > 0 {
                self.d.push(' ');
            }
            push_number(&mut self.d, *v);
        }
    }
}

/// Writes `v` rounded to one decimal, without a trailing `.0` or a `-0`.
fn push_number(out: &mut String, v: f32) {
    use std::fmt::Write;
    let tenths = (v * 10.0).round() as i64;
    if tenths == 0 {
        out.push('0');
        return;
    }
    if tenths < 0 {
        out.push('-');
    }
    let abs = tenths.unsigned_abs();
    let _ = write!(out, "{}", abs / 10);
    if !abs.is_multiple_of(10) {
        let _ = write!(out, ".{}", abs % 10);
    }
}

impl OutlinePen for SvgPen {
    fn move_to(&mut self, x: f32, y: f32) {
        self.push('M', &[x, y]);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.push('L', &[x, y]);
    }
    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.push('Q', &[cx0, cy0, x, y]);
    }
    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.push('C', &[cx0, cy0, cx1, cy1, x, y]);
    }
    fn close(&mut self) {
        self.d.push('Z');
    }
}

/// The outline of each of `glyphs` in face `index` of `data`, as SVG path data in font
/// units (y up); an empty string for a glyph without one (a space) or one that cannot be
/// read.
pub(crate) fn outlines(data: &[u8], index: u32, glyphs: &[u16]) -> Vec<String> {
    let Ok(font) = FontRef::from_index(data, index) else {
        return vec![String::new(); glyphs.len()];
    };
    let collection = font.outline_glyphs();
    let settings = || DrawSettings::unhinted(Size::unscaled(), LocationRef::default());
    glyphs
        .iter()
        .map(|&gid| {
            let Some(glyph) = collection.get(GlyphId::new(u32::from(gid))) else {
                return String::new();
            };
            let mut pen = SvgPen::default();
            match glyph.draw(settings(), &mut pen) {
                Ok(_) => pen.d,
                Err(_) => String::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_exact_to_a_tenth() {
        let mut s = String::new();
        for v in [0.0, -0.01, 12.0, -7.25, 3.04, 1000.55] {
            push_number(&mut s, v);
            s.push(',');
        }
        assert_eq!(s, "0,0,12,-7.3,3,1000.6,");
    }
}
