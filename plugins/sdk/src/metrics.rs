//! Standard-14 font metrics (widths from the Adobe AFM files), WinAnsi encoding.
//! API CONTRACT (implementation pending): keep these signatures.

use crate::model::FontFamily;

/// One of the 14 standard fonts: a family plus bold/italic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FontFace {
    pub family: FontFamily,
    pub bold: bool,
    pub italic: bool,
}

impl FontFace {
    /// PostScript name as PDF's BaseFont wants it, e.g. `Helvetica-BoldOblique`.
    pub fn base_font_name(self) -> &'static str {
        unimplemented_contract()
    }
    /// Advance width of `ch` in 1/1000 em; characters the font lacks measure as `?`.
    pub fn char_width(self, ch: char) -> f64 {
        let _ = ch;
        unimplemented_contract()
    }
    /// Width of `s` at `size` points, in points.
    pub fn text_width(self, s: &str, size: f64) -> f64 {
        s.chars().map(|c| self.char_width(c)).sum::<f64>() * size / 1000.0
    }
    /// Ascender and descender (negative) in 1/1000 em.
    pub fn ascent(self) -> f64 {
        unimplemented_contract()
    }
    pub fn descent(self) -> f64 {
        unimplemented_contract()
    }
}

/// The WinAnsiEncoding byte of `ch`, if it has one.
pub fn winansi(ch: char) -> Option<u8> {
    let _ = ch;
    unimplemented_contract()
}

fn unimplemented_contract() -> ! {
    panic!("metrics pending")
}
