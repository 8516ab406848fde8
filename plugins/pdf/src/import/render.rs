//! Pages as pictures (`mode=image`, and the redraw of locked files): hayro renders the page
//! inside the sandbox and the picture covers the page.
//!
//! The page is rendered unrotated, because the model page keeps `/Rotate` and its shapes
//! live in unrotated space like everything else on it.

use hayro::hayro_interpret::hayro_syntax::page::Page;
use hayro::hayro_interpret::InterpreterSettings;
use hayro::vello_cpu::color::palette::css::WHITE;
use hayro::vello_cpu::{Pixmap, RasterizerSettings, RenderContext, Resources, TargetInit};
use hayro::{RenderCache, RenderSettings};
use hayro_interpret::kurbo::Affine;

use super::images::Pixels;

/// Resolution of page pictures.
pub const DPI: f64 = 150.0;
/// Largest page picture, in pixels (an A4 page at 150 dpi is 2.2 million).
pub const MAX_PIXELS: f64 = 9_000_000.0;
/// Longest side of a page picture.
const MAX_SIDE: f64 = 8_000.0;

/// The picture of `page` (crop box `crop`: x0, y0, width, height in points), RGB.
pub fn page_pixels<'a>(
    page: &'a Page<'a>,
    cache: &RenderCache<'a>,
    settings: &InterpreterSettings,
    crop: (f64, f64, f64, f64),
) -> Option<Pixels> {
    let (x0, y0, w, h) = crop;
    let mut scale = DPI / 72.0;
    if w * h * scale * scale > MAX_PIXELS {
        scale = (MAX_PIXELS / (w * h)).sqrt();
    }
    scale = scale.min(MAX_SIDE / w.max(h));
    let pw = (w * scale).round().clamp(1.0, MAX_SIDE) as u16;
    let ph = (h * scale).round().clamp(1.0, MAX_SIDE) as u16;
    // Points to pixels, y flipped, crop box origin at the top left.
    let transform = Affine::scale(scale) * Affine::new([1.0, 0.0, 0.0, -1.0, -x0, y0 + h]);
    let mut ctx = RenderContext::new(pw, ph);
    hayro::render_into(
        page,
        cache,
        settings,
        &RenderSettings::default(),
        &mut ctx,
        transform,
    );
    ctx.flush();
    let mut pixmap = Pixmap::new(pw, ph);
    ctx.render_with(
        &mut pixmap,
        &mut Resources::default(),
        RasterizerSettings {
            target_init: TargetInit::Clear(WHITE),
            ..Default::default()
        },
    );
    let rgba = pixmap.data_as_u8_slice();
    // Opaque white underneath: premultiplied and straight colours are the same.
    let mut rgb = Vec::with_capacity(usize::from(pw) * usize::from(ph) * 3);
    for px in rgba.chunks_exact(4) {
        rgb.extend_from_slice(&px[..3]);
    }
    Some(Pixels {
        width: u32::from(pw),
        height: u32::from(ph),
        channels: 3,
        data: rgb,
    })
}
