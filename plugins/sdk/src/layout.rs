//! Text layout shared by importers and exporters, so PDF, SVG and PNG agree on every line
//! break. API CONTRACT (implementation pending): keep these signatures.

use crate::model::Text;

/// A piece of one run placed on a line.
#[derive(Debug, Clone, PartialEq)]
pub struct Fragment {
    /// Index into `Text::runs`.
    pub run: usize,
    pub text: String,
    /// Offset from the left edge of the box, alignment applied.
    pub x: f64,
    pub width: f64,
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

/// Breaks `text` into lines no wider than `width` points (a word longer than the width is
/// broken by characters), honouring `\n` and alignment.
pub fn layout_text(text: &Text, width: f64) -> Vec<Line> {
    let _ = (text, width);
    panic!("layout pending")
}

/// Height of `text` laid out at `width`.
pub fn text_height(text: &Text, width: f64) -> f64 {
    layout_text(text, width).iter().map(|l| l.height).sum()
}
