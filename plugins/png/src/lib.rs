//! Quire's PNG exporter: one page of the document model as a picture.
//!
//! The page is drawn by the SVG exporter's drawing ([`quire_svg_draw::render_page`]) and
//! rasterised with resvg, so PNG and SVG are one drawing. Text in the standard families is
//! set in the embedded Liberation fonts, metric-compatible with the standard-14 fonts the
//! layout measures with; every other character is already a glyph outline from the host's
//! font library in that drawing (shaped, in bidi order). So the three outputs agree line
//! for line, in any script.

mod fonts;
mod raster;

pub use raster::{export_png, DEFAULT_DPI, MAX_DPI, MAX_PIXELS, MEDIA_TYPE};

use quire_sdk::{ConvertError, Converter, ExportRequest, Exported, Format, PluginInfo};

/// The converter as the host sees it.
pub struct Png;

impl Converter for Png {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "png".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            imports: Vec::new(),
            exports: vec![Format::new(MEDIA_TYPE, "png")],
            options: Vec::new(),
        }
    }

    fn export(request: ExportRequest) -> Result<Exported, ConvertError> {
        export_png(&request)
    }
}

quire_sdk::export_converter!(Png);
