//! Quire's SVG converter. It draws one page of the document model as vector SVG
//! ([`export_svg`]; [`render_page`] is the same drawing, which the PNG exporter rasterises)
//! and reads SVG files into model shapes ([`import_svg`]).

pub use quire_svg_draw as export;
pub use quire_svg_draw::{export_svg, render_page, PageSvg};
pub use quire_svg_read as import;
pub use quire_svg_read::import_svg;

use quire_sdk::{
    ConvertError, Converter, ExportRequest, Exported, Format, ImportRequest, Imported, PluginInfo,
};

/// The converter as the host sees it.
pub struct Svg;

impl Converter for Svg {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "svg".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            imports: vec![Format::new(import::MEDIA_TYPE, "svg")],
            exports: vec![Format::new(export::MEDIA_TYPE, "svg")],
            options: Vec::new(),
        }
    }

    fn import(request: ImportRequest) -> Result<Imported, ConvertError> {
        import_svg(request)
    }

    fn export(request: ExportRequest) -> Result<Exported, ConvertError> {
        export_svg(&request)
    }
}

quire_sdk::export_converter!(Svg);
