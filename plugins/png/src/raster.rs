//! Rasterising a page: its SVG drawing read by usvg with the embedded fonts and no access to
//! files or the network, rendered by resvg onto white paper, encoded as an RGB PNG.

use std::sync::Arc;

use quire_sdk::{ConvertError, ExportRequest, Exported};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use crate::fonts;

pub const MEDIA_TYPE: &str = "image/png";
/// The contract's default and largest resolution.
pub const DEFAULT_DPI: u32 = 110;
pub const MAX_DPI: u32 = 200;
/// Largest picture drawn, in pixels. The pixmap takes 4 bytes a pixel and the sandbox gives a
/// converter 512 MiB by default; 64 megapixels (256 MiB) leaves room for the fonts, the
/// drawing and the encoded file. A4 at 200 dpi is under 4 megapixels.
pub const MAX_PIXELS: u64 = 64_000_000;

/// Draws page `request.page` (1-based, the first when absent) at `request.dpi` dots per inch
/// (110 when absent, at most 200) as a PNG.
pub fn export_png(request: &ExportRequest) -> Result<Exported, ConvertError> {
    if !request.media_type.is_empty() && request.media_type != MEDIA_TYPE {
        return Err(ConvertError::Unsupported(format!(
            "this converter writes {MEDIA_TYPE}, not {}",
            request.media_type
        )));
    }
    let dpi = request.dpi.unwrap_or(DEFAULT_DPI);
    if dpi > MAX_DPI {
        return Err(ConvertError::InvalidRequest(format!(
            "dpi must be at most {MAX_DPI}"
        )));
    }
    if dpi == 0 {
        return Err(ConvertError::InvalidRequest(
            "dpi must be at least 1".into(),
        ));
    }
    // Glyphs the standard fonts lack are outlines in the drawing; no text layer over them.
    let page = quire_svg_draw::render_page_with(
        &request.document,
        &request.assets,
        request.page,
        quire_svg_draw::TextLayer::None,
    )?;
    let (w, h) = pixel_size(page.width, page.height, dpi)?;

    let options = usvg::Options {
        fontdb: Arc::new(fonts::database()),
        font_family: fonts::SANS.into(),
        image_href_resolver: usvg::ImageHrefResolver {
            // Only the `data:` URLs the SVG exporter writes; never a file or a URL.
            resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&page.svg, &options).map_err(|e| {
        // The SVG is our own drawing: failing to read it is a bug, not the user's input.
        ConvertError::Damaged(format!("the page could not be drawn: {e}"))
    })?;
    let mut pixmap = Pixmap::new(w, h).ok_or_else(|| {
        ConvertError::TooLarge(format!("a {w} by {h} pixel picture cannot be allocated"))
    })?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    let size = tree.size();
    let transform = Transform::from_scale(w as f32 / size.width(), h as f32 / size.height());
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    drop(tree);

    let bytes = encode(&pixmap, dpi)?;
    Ok(Exported {
        bytes,
        media_type: MEDIA_TYPE.to_string(),
        warnings: page.warnings,
        headers: Vec::new(),
    })
}

/// The picture's size in pixels for a page of `width` by `height` points: rounded up, as
/// poppler's `pdftoppm` does, so the PNG and a rendering of the PDF line up.
pub fn pixel_size(width: f64, height: f64, dpi: u32) -> Result<(u32, u32), ConvertError> {
    let px = |pt: f64| ((pt * dpi as f64 / 72.0) - 1e-6).ceil().max(1.0);
    let (w, h) = (px(width), px(height));
    if w * h > MAX_PIXELS as f64 {
        return Err(ConvertError::TooLarge(format!(
            "the page would be {w} by {h} pixels at {dpi} dpi, more than {} megapixels; \
             ask for a lower dpi",
            MAX_PIXELS / 1_000_000
        )));
    }
    Ok((w as u32, h as u32))
}

/// Encodes an opaque pixmap as 8-bit RGB, row by row, so no second copy of the picture is
/// ever held. The resolution is recorded in a `pHYs` chunk.
fn encode(pixmap: &Pixmap, dpi: u32) -> Result<Vec<u8>, ConvertError> {
    let fail = |e: png::EncodingError| ConvertError::Damaged(format!("PNG encoding failed: {e}"));
    let (w, h) = (pixmap.width(), pixmap.height());
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Balanced);
    let per_metre = (dpi as f64 / 0.0254).round() as u32;
    encoder.set_pixel_dims(Some(png::PixelDimensions {
        xppu: per_metre,
        yppu: per_metre,
        unit: png::Unit::Meter,
    }));
    let mut writer = encoder.write_header().map_err(fail)?;
    let mut stream = writer.stream_writer().map_err(fail)?;
    let mut row = vec![0u8; w as usize * 3];
    for y in 0..h as usize {
        let start = y * w as usize * 4;
        let src = &pixmap.data()[start..start + w as usize * 4];
        // Painted on opaque white, every pixel is opaque: premultiplied equals straight.
        for (dst, px) in row.chunks_exact_mut(3).zip(src.chunks_exact(4)) {
            dst.copy_from_slice(&px[..3]);
        }
        std::io::Write::write_all(&mut stream, &row)
            .map_err(|e| ConvertError::Damaged(format!("PNG encoding failed: {e}")))?;
    }
    stream.finish().map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_up_like_pdftoppm_and_refuse_giants() {
        assert_eq!(pixel_size(612.0, 792.0, 110).unwrap(), (935, 1210));
        assert_eq!(pixel_size(612.0, 792.0, 72).unwrap(), (612, 792));
        assert_eq!(pixel_size(100.5, 0.1, 72).unwrap(), (101, 1));
        let e = pixel_size(14_400.0, 14_400.0, 200).unwrap_err();
        assert!(matches!(&e, ConvertError::TooLarge(m) if m.contains("40000 by 40000")));
    }
}
