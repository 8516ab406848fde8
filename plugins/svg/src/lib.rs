//! Quire's SVG converter. It draws one page of the document model as vector SVG
//! ([`export_svg`]; [`render_page`] is the same drawing for the PNG exporter to rasterise).

pub use quire_svg_draw as export;
pub use quire_svg_draw::{export_svg, render_page, PageSvg};

use quire_sdk::{ConvertError, Converter, ExportRequest, Exported, Format, PluginInfo};

/// The converter as the host sees it.
pub struct Svg;

impl Converter for Svg {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "svg".into(),
            version: "1.0.0".into(),
            imports: Vec::new(),
            exports: vec![Format::new(export::MEDIA_TYPE, "svg")],
            options: Vec::new(),
        }
    }

    fn export(request: ExportRequest) -> Result<Exported, ConvertError> {
        export_svg(&request)
    }
}

#[cfg(target_arch = "wasm32")]
quire_sdk::export_converter!(Svg);
